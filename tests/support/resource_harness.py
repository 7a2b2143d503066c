"""Resource harness: every public entry point on adversarial small inputs, within bounds of
CPU time and memory.

The test (``tests/resources/test_entry_points.py``) runs this file as a script, one subprocess
per input (in parallel). The subprocess imports irr and builds its input once, then runs
each call in a fork of itself with `MEMORY_LIMIT` (2 GB) of address space beyond what it
holds (RLIMIT_AS) and `CALL_SECONDS` of CPU (RLIMIT_CPU). No bound is on wall-clock time,
which a shared machine cannot promise: a call that waits (a blocked read) uses no CPU, and
is stopped when its CPU time has not advanced for `IDLE_SECONDS`. A fork starts from the
same memory, so no call is charged for another's garbage, and one that dies or hangs takes
only itself down. It prints one JSON line per call: ``{"call", "status", "symptom",
"seconds", "cpu_seconds", "max_rss_mb"}`` (``seconds`` is wall-clock time, reported, never
bounded).

Statuses: ``ok`` (a result, rendered) and ``error`` (a ValueError/TypeError with a one-line
message; for the CLI exit status 1 with one ``irr: error:`` line on stderr, or argparse's
status 2, and no traceback) pass; ``memory`` (MemoryError under the limit), ``timeout``,
``crash`` (another exception, a message of several lines, a CLI traceback) and ``killed``
(the process died) fail.

``python tests/support/resource_harness.py INPUT [CALL ...]`` prints the lines of one
input (all its calls by default; ``!CALL`` runs a call with `EXPECTED_SECONDS`);
``--list`` prints the inputs and their calls, ``--all`` runs everything.
"""

from __future__ import annotations

import contextlib
import dataclasses
import functools
import inspect
import io
import json
import os
import signal
import sys
import tempfile
import time
import traceback
import warnings
from collections.abc import Callable
from typing import Any

import numpy as np
import pandas as pd

# Address space one call may add to the process that holds its input (issue 15: 2 GB).
MEMORY_LIMIT = 2 * 2**30
# CPU seconds of one call on an input of at most 100 KB (IRR_RESOURCE_SECONDS overrides):
# about twice the slowest call measured on a busy machine (9 s: `report` on 1,200 raters,
# its HTML figures included; then 5 s: `Agreement.category_kappa` of 1,000 categories).
# CPU time, not wall-clock time, so that a loaded machine does not fail a call.
CALL_SECONDS = int(os.environ.get("IRR_RESOURCE_SECONDS", 20))
# a call whose CPU time has not advanced for this long (wall clock) waits on something (a
# blocked read): it is stopped and reported as waiting. Not a time bound: a call that
# computes, however slowly the machine lets it, is never stopped by it.
IDLE_SECONDS = 60
# CPU seconds of a call listed as an expected failure: it only has to go on failing (a fix
# that makes it pass within this budget is reported; a slower fix shows when its row goes)
EXPECTED_SECONDS = 2
MAX_INPUT_BYTES = 100_000  # every input, written as the CSV a user would pass, is this small

SUBCOMMANDS = ("kappa", "multi", "icc", "error-rate", "report", "agreement", "gstudy", "datasets",
               "plan")
FORMATS = ("text", "markdown", "html", "latex", "csv", "json")


# -- inputs -------------------------------------------------------------------------------
@dataclasses.dataclass
class Input:
    """One adversarial input in every form an entry point takes.

    `wide`: one row per subject, one column per rater (with an extra ``group`` column for
    :func:`irr.by`); `long`: (subject, rater, rating) rows; `table`: a k x k table of two
    raters; `counts`: subject x category counts; `options`: keyword arguments given to
    every entry point that accepts them (e.g. a huge ``n_resamples``); `weights`: custom
    weights given to every entry point that takes ``weights``; `scalars`: arguments of
    the entry points that take numbers rather than ratings.
    """

    name: str
    item: int  # the issue-15 item that motivates it
    what: str
    wide: pd.DataFrame | None = None
    long: pd.DataFrame | None = None
    table: np.ndarray | None = None
    counts: np.ndarray | None = None
    options: dict[str, Any] = dataclasses.field(default_factory=dict)
    weights: np.ndarray | None = None
    scalars: dict[str, Any] | None = None

    @property
    def raters(self) -> list[str]:
        return [c for c in self.wide.columns if c != "group"]

    def csv(self) -> str | None:
        """The file a command-line user would pass (None: no file form)."""
        if self.long is not None:
            return self.long.to_csv(index=False)
        if self.wide is not None:
            return self.wide[self.raters].to_csv(index=False)
        return None

    def cli_source(self, path: str) -> list[str]:
        if self.long is not None:
            return [path, "--subject", "subject", "--rater", "rater", "--rating", "rating"]
        return [path]

    def cli_options(self) -> list[str]:
        args = []
        if "n_resamples" in self.options:
            args += ["--n-resamples", str(self.options["n_resamples"])]
        if "ci" in self.options:
            args += ["--ci", self.options["ci"]]
        return args


def _wide(columns: dict[str, Any]) -> pd.DataFrame:
    frame = pd.DataFrame(columns)
    frame["group"] = np.arange(len(frame)) % 3
    return frame


def many_labels() -> Input:
    """A clinician's one-decimal scores: 2 raters, 1,500 subjects, ~2,600 distinct labels."""
    rng = np.random.default_rng(15)
    a = np.round(rng.uniform(0, 500, 1500), 1)
    b = np.round(a + rng.normal(0, 2, a.size), 1)
    return Input("many-labels", 4, "2 raters x 1,500 one-decimal scores (~2,600 labels)",
                 wide=_wide({"r1": a, "r2": b}))


def many_raters() -> Input:
    """1,200 raters (columns) of 30 subjects on a 1..5 scale."""
    rng = np.random.default_rng(15)
    truth = rng.integers(1, 6, 30)
    x = np.clip(truth[:, None] + rng.integers(-1, 2, (30, 1200)), 1, 5)
    return Input("many-raters", 5, "1,200 raters x 30 subjects, labels 1..5",
                 wide=_wide({f"c{j}": x[:, j] for j in range(x.shape[1])}))


def sparse_crowd() -> Input:
    """Crowdsourcing long data: 3,000 items, 2,000 workers, 3 ratings per item."""
    rng = np.random.default_rng(15)
    items = np.repeat(np.arange(3000), 3)
    # three distinct workers per item: a random start and two fixed offsets
    start = np.resize(rng.permutation(2000), 3000)  # every worker rates
    workers = ((start[:, None] + np.array([0, 667, 1334])) % 2000).ravel()
    truth = rng.integers(1, 6, 3000)
    ratings = np.clip(np.repeat(truth, 3) + rng.integers(-1, 2, items.size), 1, 5)
    long = pd.DataFrame({"subject": items, "rater": workers, "rating": ratings})
    return Input("sparse-crowd", 5, "long: 3,000 items x 2,000 workers, 3 ratings each",
                 long=long)


def huge_table() -> Input:
    """A 3 x 3 table of two raters with counts of 1e12 (and the same as weighted rows)."""
    table = np.array([[10**12, 5, 7], [3, 10**12, 2], [1, 4, 10**12]], dtype=np.int64)
    i, j = np.indices(table.shape)
    frame = pd.DataFrame({"r1": i.ravel() + 1, "r2": j.ravel() + 1, "n": table.ravel()})
    return Input("huge-table", 6, "3 x 3 table with 1e12 counts; frequency weights 1e12",
                 table=table, wide=frame.assign(group=np.arange(9) % 3),
                 scalars={"errors": 10**11, "n": 10**12})


def huge_count_row() -> Input:
    """Fleiss counts where one subject has 4e8 ratings."""
    counts = np.array([[2 * 10**8, 2 * 10**8, 0], [3, 2, 1], [0, 5, 1], [1, 1, 4]],
                      dtype=np.int64)
    return Input("huge-count-row", 6, "subject x category counts, one row of m = 4e8",
                 counts=counts)


def _small() -> dict[str, Any]:
    rng = np.random.default_rng(15)
    truth = rng.integers(1, 5, 40)
    x = np.clip(truth[:, None] + rng.integers(-1, 2, (40, 3)), 1, 4)
    return {f"r{j + 1}": x[:, j] for j in range(3)}


def resamples_1e12() -> Input:
    """Ordinary small data, 1e12 bootstrap resamples requested."""
    return Input("resamples-1e12", 8, "40 subjects x 3 raters; n_resamples=1e12",
                 wide=_wide(_small()), options={"n_resamples": 10**12, "ci": "percentile"})


def resamples_3e8() -> Input:
    """Ordinary small data, 3e8 bootstrap resamples requested."""
    return Input("resamples-3e8", 8, "40 subjects x 3 raters; n_resamples=3e8",
                 wide=_wide(_small()), options={"n_resamples": 3 * 10**8, "ci": "percentile"})


def custom_weights() -> Input:
    """1,000 integer categories, all used, with a custom 1,000 x 1,000 weight matrix (a
    formula of the categories, like the linear or quadratic weights: not part of the file)."""
    rng = np.random.default_rng(15)
    a = rng.permutation(np.repeat(np.arange(1000), 2))
    b = np.clip(a + rng.integers(-3, 4, a.size), 0, 999)
    b[:2] = [0, 999]  # every category 0..999 observed by both raters
    a[:2] = [0, 999]
    k = 1000
    distance = np.abs(np.subtract.outer(np.arange(k), np.arange(k))) / (k - 1)
    return Input("custom-weights", 4, "2 raters x 2,000 subjects, 1,000 categories, "
                 "custom k x k weights", wide=_wide({"r1": a, "r2": b}),
                 weights=1 - np.sqrt(distance))


def scalars() -> Input:
    """The entry points that take numbers: extreme values (1e308, 1e-300, n = 1e12)."""
    return Input("scalars", 9, "numbers at the edges of float64 and n = 1e12",
                 scalars={"errors": 3 * 10**11, "n": 10**12})


def special_files() -> Input:
    """Files that never end or never open: /dev/zero and a FIFO without a writer."""
    return Input("special-files", 7, "the CLI reading /dev/zero and a FIFO with no writer")


INPUTS: dict[str, Callable[[], Input]] = {
    "many-labels": many_labels,
    "many-raters": many_raters,
    "sparse-crowd": sparse_crowd,
    "huge-table": huge_table,
    "huge-count-row": huge_count_row,
    "resamples-1e12": resamples_1e12,
    "resamples-3e8": resamples_3e8,
    "custom-weights": custom_weights,
    "scalars": scalars,
    "special-files": special_files,
}


# -- calls --------------------------------------------------------------------------------
class Context:
    """One input in a subprocess: the data, and the Agreement of its natural constructor
    (built once; a failure to build it is re-raised by every call that needs it)."""

    def __init__(self, inp: Input, workdir: str) -> None:
        self.inp = inp
        self.workdir = workdir
        self._ag: Any = None
        self._ag_error: BaseException | None = None
        self.csv_path = None
        text = inp.csv()
        if text is not None:
            self.csv_path = os.path.join(workdir, f"{inp.name}.csv")
            with open(self.csv_path, "w", encoding="utf-8") as fh:
                fh.write(text)

    def build(self) -> Any:
        import irr

        inp = self.inp
        if inp.long is not None:
            return irr.Agreement.from_long(inp.long, subject="subject", rater="rater",
                                           rating="rating")
        if inp.counts is not None:
            return irr.Agreement.from_counts(inp.counts)
        if inp.table is not None:
            return irr.Agreement.from_table(inp.table)
        return irr.Agreement.from_frame(inp.wide, inp.raters)

    def ag(self) -> Any:
        if self._ag_error is not None:
            raise BlockedError(f"blocked: building the Agreement failed: "
                               f"{type(self._ag_error).__name__}") from self._ag_error
        if self._ag is None:
            try:
                self._ag = self.build()
            except BaseException as exc:
                self._ag_error = exc
                raise
        return self._ag

    def kwargs(self, fn: Callable[..., Any], **extra: Any) -> dict[str, Any]:
        """The input's options (and custom weights) that `fn` accepts, plus `extra`."""
        params = inspect.signature(fn).parameters
        out = {k: v for k, v in self.inp.options.items() if k in params}
        if self.inp.weights is not None and "weights" in params:
            out["weights"] = self.inp.weights
        out.update(extra)
        return out

    def pair(self) -> tuple[np.ndarray, np.ndarray]:
        wide = self.inp.wide
        return wide[self.inp.raters[0]].to_numpy(), wide[self.inp.raters[1]].to_numpy()


class BlockedError(Exception):
    """A call could not run because building its Agreement failed."""


@dataclasses.dataclass(frozen=True)
class Call:
    name: str  # unique id, e.g. "Agreement.kappa" or "cli kappa --format html"
    covers: str  # the public entry point it exercises
    needs: str  # which form of the input: wide, long, table, counts, ag, scalars, file, any
    run: Callable[[Context], Any]
    options_only: bool = False  # run only on inputs whose options it accepts (resamples)


def _method(name: str) -> Callable[[Context], Any]:
    def run(ctx: Context) -> Any:
        ag = ctx.ag()
        method = getattr(ag, name)
        extra: dict[str, Any] = {}
        if name == "error_rate_test":
            extra["epsilon0"] = 0.1
        if name == "cochrans_q":
            extra["reference"] = ag.raters[0] if ag.raters else "rater1"
        if name == "coverage_probability":
            extra["delta"] = 1.0
        if name == "pairwise" and ctx.inp.weights is not None:
            extra["weights"] = ctx.inp.weights
        return method(**ctx.kwargs(method, **extra))

    return run


def _property(name: str) -> Callable[[Context], Any]:
    return lambda ctx: getattr(ctx.ag(), name)


def _fig(ax: Any) -> Any:
    """Draw a plotting function's figure (the work happens when it is drawn) and close it."""
    import matplotlib.pyplot as plt

    ax.figure.canvas.draw()
    plt.close(ax.figure)
    return "figure drawn"


def _svg(ax: Any) -> Any:
    """A plotting function's figure as SVG text (drawn by to_svg), then closed."""
    import matplotlib.pyplot as plt

    import irr.plotting

    size = len(irr.plotting.to_svg(ax))
    plt.close(ax.figure)
    return f"{size} characters of SVG"


def _gstudy(ctx: Context) -> Any:
    """irr.gstudy of the first two raters (objects x raters, long), its D study, figure."""
    import irr
    import irr.plotting

    x, y = ctx.pair()
    n = len(x)
    long = pd.DataFrame({"object": np.tile(np.arange(n), 2), "rater": np.repeat(["a", "b"], n),
                         "score": np.concatenate([x, y])})
    g = irr.gstudy(long, score="score", object="object", facets=["rater"])
    d = g.dstudy(rater=[1, 2, 3])
    return str(g.summary()), g.report(), d.to_frame().shape, _fig(irr.plotting.dstudy(d))


def _cli(argv: list[str]) -> Callable[[Context], Any]:
    def run(ctx: Context) -> Any:
        args = list(argv)
        if args[0] != "datasets":
            if ctx.csv_path is None:
                raise NotApplicable
            args = [args[0], *ctx.inp.cli_source(ctx.csv_path), *ctx.inp.cli_options(),
                    *args[1:]]
        return CliOutcome(*_run_cli(args))

    return run


class NotApplicable(Exception):
    """This call has no form of this input."""


@dataclasses.dataclass
class CliOutcome:
    status: int
    stdout: str
    stderr: str


def _run_cli(argv: list[str]) -> tuple[int, str, str]:
    """``irr ARGV`` in this process, as a subprocess would see it; an exception that escapes
    ``main`` is re-raised (the interpreter would print its traceback)."""
    from irr.cli import main

    out, err = io.StringIO(), io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        try:
            status = main(argv)
        except SystemExit as exc:  # argparse usage errors
            status = exc.code if isinstance(exc.code, int) else 1
    return status, out.getvalue(), err.getvalue()


def _ordinal(fn_name: str) -> Callable[[Context], Any]:
    def run(ctx: Context) -> Any:
        import irr
        import irr.ordinal

        y_true, y_pred = ctx.pair()
        y_pred = y_pred.astype(float)
        binary = y_true > np.median(y_true)
        if fn_name == "apply_thresholds":
            labels = np.unique(y_true)
            return irr.apply_thresholds(y_pred, np.sort(y_pred)[: labels.size - 1], labels)
        if fn_name == "distribution_thresholds":
            return irr.distribution_thresholds(y_pred, y_true)
        if fn_name in ("roc_auc", "roc_curve", "rank_loss"):
            return getattr(irr, fn_name)(binary, y_pred)
        if fn_name == "roc_auc_result":
            return irr.roc_auc_result(binary, y_pred, **ctx.kwargs(irr.roc_auc_result))
        if fn_name == "KappaRegressor":
            x = ctx.inp.wide[ctx.inp.raters[1:]].to_numpy(float)
            model = irr.KappaRegressor(sigma=1.0).fit(x, y_true)
            return model.predict(x), model.score(x, y_true)
        fn = getattr(irr.ordinal, fn_name)
        return fn(y_true, y_pred)

    return run


def _calls() -> list[Call]:
    import irr
    from irr._measurements import Measurements

    calls: list[Call] = []
    add = calls.append
    # constructors
    add(Call("Agreement(*columns)", "Agreement", "wide", lambda ctx: irr.Agreement(
        *(ctx.inp.wide[c] for c in ctx.inp.raters))))
    add(Call("Agreement.from_frame", "Agreement.from_frame", "wide",
             lambda ctx: irr.Agreement.from_frame(ctx.inp.wide, ctx.inp.raters)))
    add(Call("Agreement.from_frame(freq_weights)", "Agreement.from_frame", "table",
             lambda ctx: irr.Agreement.from_frame(ctx.inp.wide, ["r1", "r2"],
                                                  freq_weights="n").kappa()))
    add(Call("Agreement.from_patterns", "Agreement.from_patterns", "table",
             lambda ctx: irr.Agreement.from_patterns(
                 {r: ctx.inp.wide[r].to_numpy() for r in ("r1", "r2")},
                 ctx.inp.wide["n"].to_numpy()).kappa()))
    add(Call("Agreement.from_array", "Agreement.from_array", "wide",
             lambda ctx: irr.Agreement.from_array(ctx.inp.wide[ctx.inp.raters].to_numpy())))
    add(Call("Agreement.from_long", "Agreement.from_long", "long",
             lambda ctx: irr.Agreement.from_long(ctx.inp.long, subject="subject",
                                                 rater="rater", rating="rating")))
    add(Call("Agreement.from_table", "Agreement.from_table", "table",
             lambda ctx: irr.Agreement.from_table(ctx.inp.table)))
    add(Call("Agreement.from_counts", "Agreement.from_counts", "counts",
             lambda ctx: irr.Agreement.from_counts(ctx.inp.counts)))
    add(Call("Agreement.from_statistics", "Agreement.from_statistics", "ag",
             lambda ctx: irr.Agreement.from_statistics(ctx.ag().statistics)
             .percent_agreement()))
    add(Call("repr(Agreement)", "Agreement", "ag", lambda ctx: repr(ctx.ag())))
    # Agreement's public methods and properties, enumerated
    for name, member in public_members(irr.Agreement).items():
        if name.startswith("from_") or name == "summary":  # summary: rendered below
            continue
        if isinstance(member, (property, functools.cached_property)):
            add(Call(f"Agreement.{name}", f"Agreement.{name}", "ag", _property(name)))
        else:
            add(Call(f"Agreement.{name}", f"Agreement.{name}", "ag", _method(name)))
    # rendering of results: the summary in every format
    add(Call("Agreement.summary", "Agreement.summary", "ag",
             lambda ctx: [getattr(s, f)() for s in [ctx.ag().summary()]
                          for f in ("as_text", "as_html", "as_latex", "as_csv")]))
    # functions of two rating vectors or a ratings matrix
    add(Call("cohen_kappa", "cohen_kappa", "wide", lambda ctx: irr.cohen_kappa(
        *ctx.pair(), **ctx.kwargs(irr.cohen_kappa))))
    add(Call("quadratic_weighted_kappa", "quadratic_weighted_kappa", "wide",
             lambda ctx: irr.quadratic_weighted_kappa(*ctx.pair())))
    add(Call("icc", "icc", "wide",
             lambda ctx: irr.icc(ctx.inp.wide[ctx.inp.raters].to_numpy(float))))
    add(Call("krippendorff_alpha", "krippendorff_alpha", "wide", lambda ctx: irr.krippendorff_alpha(
        ctx.inp.wide[ctx.inp.raters].to_numpy(float), **ctx.kwargs(irr.krippendorff_alpha))))
    # continuous measurements: two methods' values, or all raters' (issue 18)
    for name in ("limits_of_agreement", "concordance", "total_deviation_index", "deming",
                 "passing_bablok"):
        add(Call(name, name, "wide",
                 functools.partial(lambda ctx, n: getattr(irr, n)(*ctx.pair()), n=name)))
    add(Call("coverage_probability", "coverage_probability", "wide",
             lambda ctx: irr.coverage_probability(*ctx.pair(), 1.0)))
    for name in ("icc_components", "measurement_error"):
        add(Call(name, name, "wide", functools.partial(
            lambda ctx, n: getattr(irr, n)(Measurements.from_wide(
                ctx.inp.wide[ctx.inp.raters].to_numpy(float), ctx.inp.raters)), n=name)))
    for name in ("mcnemar", "bowker_test", "stuart_maxwell_test"):
        add(Call(name, name, "wide",
                 functools.partial(lambda ctx, n: getattr(irr, n)(*ctx.pair()), n=name)))
        add(Call(f"{name}(table)", name, "table",
                 functools.partial(lambda ctx, n: getattr(irr, n)(ctx.inp.table), n=name)))
    for name in ("bhapkar_test", "rater_bias"):
        add(Call(name, name, "wide",
                 functools.partial(lambda ctx, n: getattr(irr, n)(*ctx.pair()), n=name)))
        add(Call(f"{name}(table)", name, "table",
                 functools.partial(lambda ctx, n: getattr(irr, n)(ctx.inp.table), n=name)))
    for name in ("pabak", "maxwell_re", "specific_agreement"):
        add(Call(name, name, "wide",
                 functools.partial(lambda ctx, n: getattr(irr, n)(*ctx.pair()), n=name)))
    # the matrix shortcuts written out, and those built from the registry's declarations
    from irr._functions import FORWARDED

    for name in ("robinson_a", "finn", "mean_spearman", "mean_pearson", *FORWARDED):
        add(Call(name, name, "wide", functools.partial(
            lambda ctx, n: getattr(irr, n)(ctx.inp.wide[ctx.inp.raters]), n=name)))
    add(Call("iota", "iota", "wide", lambda ctx: irr.iota(
        [ctx.inp.wide[ctx.inp.raters], ctx.inp.wide[ctx.inp.raters[::-1]]])))
    add(Call("compare_classifiers", "compare_classifiers", "wide",
             lambda ctx: irr.compare_classifiers(ctx.pair()[0], *ctx.pair())))
    add(Call("cochrans_q", "cochrans_q", "wide", lambda ctx: irr.cochrans_q(
        (ctx.inp.wide[ctx.inp.raters].to_numpy()
         == ctx.inp.wide[ctx.inp.raters[:1]].to_numpy()).astype(int))))
    add(Call("compare", "compare", "ag", lambda ctx: irr.compare(
        ctx.ag().percent_agreement(), ctx.ag().fleiss_kappa()).as_text()))
    add(Call("difference", "difference", "ag", lambda ctx: str(irr.difference(
        ctx.ag(), statistic=("fleiss_kappa", "gwet_ac")))))
    add(Call("pool", "pool", "ag", lambda ctx: str(irr.pool(
        [ctx.ag().fleiss_kappa(), ctx.ag().gwet_ac()], ["a", "b"]))))
    # ordinal (model evaluation) functions of y_true, y_pred
    for name in irr.ordinal.__all__:
        add(Call(f"ordinal.{name}", name, "wide", _ordinal(name)))
    # grouped and accessor entry points
    add(Call("by", "by", "wide", lambda ctx: irr.by(
        ctx.inp.wide, "group", ctx.inp.raters, "fleiss_kappa", **ctx.kwargs(irr.by))))
    accessor = type(pd.DataFrame().irr)
    for name in public_members(accessor):
        add(Call(f"DataFrame.irr.{name}", f"DataFrame.irr.{name}", "wide",
                 functools.partial(_accessor, name=name)))
    add(Call("DataFrame.irr.agreement(long)", "DataFrame.irr.agreement", "long",
             lambda ctx: ctx.inp.long.irr.agreement(subject="subject", rater="rater",
                                                    rating="rating").percent_agreement()))
    # plotting
    add(Call("plotting.agreement_chart", "plotting.agreement_chart", "ag",
             lambda ctx: _fig(irr.plotting.agreement_chart(ctx.ag()))))
    add(Call("plotting.table_heatmap", "plotting.table_heatmap", "ag",
             lambda ctx: _fig(irr.plotting.table_heatmap(ctx.ag()))))
    add(Call("plotting.bootstrap_distribution", "plotting.bootstrap_distribution", "ag",
             lambda ctx: _fig(irr.plotting.bootstrap_distribution(
                 ctx.ag().percent_agreement(**ctx.kwargs(ctx.ag().percent_agreement,
                                                         ci="percentile"))))))
    add(Call("plotting.forest", "plotting.forest", "ag", lambda ctx: _fig(irr.plotting.forest(
        [ctx.ag().percent_agreement(), ctx.ag().brennan_prediger()]))))
    add(Call("plotting.bland_altman", "plotting.bland_altman", "wide",
             lambda ctx: _fig(irr.plotting.bland_altman(*ctx.pair()))))
    add(Call("plotting.method_comparison", "plotting.method_comparison", "wide",
             lambda ctx: _fig(irr.plotting.method_comparison(*ctx.pair()))))
    add(Call("plotting.to_svg", "plotting.to_svg", "ag", lambda ctx: _svg(irr.plotting.forest(
        [ctx.ag().percent_agreement()]))))
    add(Call("plotting.report_figures", "plotting.report_figures", "ag",
             lambda ctx: len(irr.plotting.report_figures(
                 ctx.ag(), [ctx.ag().percent_agreement(), ctx.ag().brennan_prediger()]))))
    add(Call("plotting.report_figure_plan", "plotting.report_figure_plan", "ag",
             lambda ctx: [len(draw()) for _, draw in irr.plotting.report_figure_plan(
                 ctx.ag(), [ctx.ag().percent_agreement()])]))
    # generalizability theory: the first two raters as a p x r design, long
    add(Call("gstudy", "gstudy", "wide", _gstudy))
    add(Call("plotting.dstudy", "plotting.dstudy", "wide", lambda ctx: _gstudy(ctx)[-1]))
    # the reliability report: every statistic that applies, every format, with figures
    add(Call("report", "report", "ag", lambda ctx: sum(
        len(rep.render(fmt)) for rep in [irr.report(ctx.ag(), "all", **ctx.kwargs(irr.report))]
        for fmt in ("text", "markdown", "json", "csv", "latex", "html"))))
    # numbers in, numbers out
    add(Call("error_rate_test", "error_rate_test", "scalars", lambda ctx: irr.error_rate_test(
        ctx.inp.scalars["errors"], ctx.inp.scalars["n"], 0.3)))
    add(Call("critical_error_rate", "critical_error_rate", "scalars",
             lambda ctx: irr.critical_error_rate(ctx.inp.scalars["n"], 0.3)))
    add(Call("error_rate_ttest", "error_rate_ttest", "scalars", lambda ctx: irr.error_rate_ttest(
        np.linspace(1e-300, 1 - 1e-16, 10_000), 0.5)))
    add(Call("paired_ttest", "paired_ttest", "scalars", lambda ctx: irr.paired_ttest(
        np.linspace(1e-300, 1 - 1e-16, 10_000), np.linspace(1 - 1e-16, 1e-300, 10_000))))
    add(Call("cv52_ttest", "cv52_ttest", "scalars", lambda ctx: irr.cv52_ttest(
        np.full((5, 2), 1e-300), np.full((5, 2), 1 - 1e-16))))
    add(Call("bias_variance", "bias_variance", "scalars", lambda ctx: irr.bias_variance(
        np.full((1_000, 200), 1e308), np.full(200, -1e308))))
    add(Call("benchmark", "benchmark", "scalars",
             lambda ctx: irr.benchmark(1 - 1e-16, 1e-300).table.to_string()))
    add(Call("interpret", "interpret", "scalars", lambda ctx: irr.interpret(1e308)))
    add(Call("interpret_interval", "interpret_interval", "scalars",
             lambda ctx: irr.interpret_interval(0.5, -1e308, 1e308)))
    add(Call("get_scale", "get_scale", "scalars", lambda ctx: irr.get_scale("koo-li")))
    add(Call("list_scales", "list_scales", "scalars", lambda ctx: irr.list_scales()))
    # planning (issue 19): design numbers at the edges, not data
    big = "n"
    add(Call("plan.error_rate", "plan.error_rate", "scalars", lambda ctx: (
        irr.plan.error_rate(0.1, 0.05, n=ctx.inp.scalars[big]).report(),
        irr.plan.error_rate(0.5, 0.5 - 1e-9).report())))
    add(Call("plan.kappa", "plan.kappa", "scalars", lambda ctx: (
        irr.plan.kappa(0.0, 1e-9, raters=10, categories=10, n=ctx.inp.scalars[big]).report(),
        irr.plan.kappa(0.0, 1e-9, raters=10, categories=10).report())))
    add(Call("plan.kappa_interval", "plan.kappa_interval", "scalars", lambda ctx:
             irr.plan.kappa_interval(1 - 1e-12, 1e-12, prevalence=1e-9).report()))
    add(Call("plan.icc", "plan.icc", "scalars", lambda ctx: (
        irr.plan.icc(0, 1e-12, raters=10**6, method="exact", n=ctx.inp.scalars[big]).report(),
        irr.plan.icc(0, 1e-12, raters=10**6).report())))
    add(Call("plan.icc_interval", "plan.icc_interval", "scalars", lambda ctx:
             irr.plan.icc_interval(1e-12, 0.999, raters=10**9).report()))
    add(Call("plan.limits_of_agreement", "plan.limits_of_agreement", "scalars", lambda ctx: (
        irr.plan.limits_of_agreement(1e-300, 1e-300, 1e308).report(),
        irr.plan.limits_of_agreement(0, 1, 1.96 + 1e-9).report(),
        irr.plan.limits_of_agreement(0, 1, 2.5, n=ctx.inp.scalars[big]).report())))
    add(Call("plan.concordance", "plan.concordance", "scalars", lambda ctx: (
        irr.plan.concordance(-1 + 1e-12, 1 - 1e-12).report(),
        irr.plan.concordance(0.5, 0.6, n=ctx.inp.scalars[big]).report())))
    add(Call("plan.simulate", "plan.simulate", "scalars", lambda ctx: irr.plan.simulate(
        "fleiss_kappa", n=3, coefficient=1.0, raters=10, categories=10,
        n_simulations=10).report()))
    add(Call("plotting.power_curve", "plotting.power_curve", "scalars",
             lambda ctx: _fig(irr.plotting.power_curve(irr.plan.error_rate(0.5, 0.45)))))
    add(Call("cli plan", "cli plan", "any", lambda ctx: CliOutcome(*_run_cli(
        ["plan", "kappa", "--kappa0", "0", "--kappa1", "1e-9", "--raters", "10",
         "--categories", "10", "--n", str(10**12)]))))
    # the command line: every subcommand, every format
    for sub in (s for s in SUBCOMMANDS if s != "plan"):  # plan reads no data: above
        extra = {"error-rate": ["--epsilon0", "0.1"],
                 # the first two columns as object and facet (hostile files name them)
                 "gstudy": ["--object", "subject", "--facets", "rater"]}.get(sub, [])
        add(Call(f"cli {sub}", f"cli {sub}", "any" if sub == "datasets" else "file",
                 _cli([sub, *extra])))
    for fmt in FORMATS:
        add(Call(f"cli kappa --format {fmt}", f"cli --format {fmt}", "file",
                 _cli(["kappa", "--format", fmt])))
        add(Call(f"cli datasets --format {fmt}", f"cli --format {fmt}", "any",
                 _cli(["datasets", "--format", fmt])))
    # files that are no regular files (issue 15 item 7)
    add(Call("cli kappa /dev/zero", "cli kappa", "special",
             lambda ctx: CliOutcome(*_run_cli(["kappa", "/dev/zero"]))))
    add(Call("cli kappa FIFO", "cli kappa", "special", _fifo))
    add(Call("cli kappa - (endless stdin)", "cli kappa", "special", _endless_stdin))
    names = [c.name for c in calls]
    assert len(names) == len(set(names)), "call names must be unique"
    return calls


def _fifo(ctx: Context) -> Any:
    path = os.path.join(ctx.workdir, "ratings.csv")
    os.mkfifo(path)
    return CliOutcome(*_run_cli(["kappa", path]))


class _Yes(io.RawIOBase):
    """``yes 1,2``: a stream that never ends."""

    def readable(self) -> bool:
        return True

    def readinto(self, buffer: Any) -> int:
        line = b"1,2\n"
        view = memoryview(buffer).cast("B")
        n = len(view) - len(view) % len(line)
        view[:n] = line * (n // len(line))
        return n


def _endless_stdin(ctx: Context) -> Any:
    sys.stdin = io.TextIOWrapper(io.BufferedReader(_Yes()), encoding="utf-8")
    return CliOutcome(*_run_cli(["kappa", "-"]))


def _accessor(ctx: Context, name: str) -> Any:
    frame = ctx.inp.wide[ctx.inp.raters]
    method = getattr(frame.irr, name)
    params = inspect.signature(method).parameters
    if name == "agreement":
        return method().n_subjects
    if name in ("kappa",):
        return method(*ctx.inp.raters[:2], **ctx.kwargs(method))
    if name == "by":
        return ctx.inp.wide.irr.by("group", ctx.inp.raters, "percent_agreement",
                                   **ctx.kwargs(irr_by()))
    kwargs = ctx.kwargs(method)
    return method(**{k: v for k, v in kwargs.items() if k in params or "options" in params})


def irr_by() -> Callable[..., Any]:
    import irr

    return irr.by


def public_members(cls: type) -> dict[str, Any]:
    """A class's public methods and properties (its own API, not object's)."""
    return {name: member for name, member in vars(cls).items()
            if not name.startswith("_")
            and (callable(member) or isinstance(member, (property, functools.cached_property,
                                                          classmethod, staticmethod)))}


@functools.lru_cache(maxsize=1)
def calls() -> dict[str, Call]:
    return {c.name: c for c in _calls()}


def applicable(call: Call, inp: Input) -> bool:
    """Whether `call` has a form of `inp` (inputs that request options, like a huge number
    of resamples, only run the calls that take those options)."""
    has = {
        "wide": inp.wide is not None and inp.table is None,
        "long": inp.long is not None,
        "table": inp.table is not None,
        "counts": inp.counts is not None,
        "ag": any(form is not None for form in (inp.wide, inp.long, inp.table, inp.counts)),
        "file": (inp.long is not None or inp.wide is not None) and inp.table is None,
        "scalars": inp.scalars is not None,
        "any": inp.name == "scalars",
        "special": inp.name == "special-files",
    }[call.needs]
    if not has:
        return False
    if call.needs == "scalars" and inp.name != "scalars" and call.name != "error_rate_test":
        # the numbers-in calls read no input but n (the same 1e12 in both inputs) or none:
        # on huge-table they would repeat the scalars input's run; error_rate_test also
        # reads the input's own error count
        return False
    if call.name.startswith("cli kappa --format "):  # rendering: one input is enough
        return inp.name == "many-raters"
    if call.name.startswith("DataFrame.irr.") and call.needs == "wide" \
            and call.name != "DataFrame.irr.agreement" and not inp.options:
        # the accessor selects columns and calls the Agreement method that every input
        # runs: its own layer needs one input (and the inputs with options, below)
        return inp.name == "many-raters"
    if inp.options:  # only where the options reach: bootstrap-capable calls
        return _takes_options(call)
    return True


def _takes_options(call: Call) -> bool:
    import irr

    name = call.name
    if name.startswith("cli "):
        return name in ("cli kappa", "cli multi", "cli report")
    if name.startswith("Agreement.") and not name.startswith("Agreement.from"):
        attr = getattr(irr.Agreement, name.split(".")[1].split("(")[0], None)
        return callable(attr) and "n_resamples" in inspect.signature(attr).parameters
    if name.startswith("DataFrame.irr."):
        return name.split(".")[-1] not in ("agreement", "agreement(long)", "icc")
    return name in ("cohen_kappa", "krippendorff_alpha", "ordinal.roc_auc_result", "by",
                    "plotting.bootstrap_distribution", "report")


def plan(inp: Input) -> list[str]:
    return [name for name, call in calls().items() if applicable(call, inp)]


# -- running one call ---------------------------------------------------------------------
class CallTimeout(BaseException):
    """Raised by SIGPROF when building an input's Agreement runs past `CALL_SECONDS` of CPU
    (BaseException: no `except Exception` in the library can swallow it)."""


def _alarm(signum: int, frame: Any) -> None:
    raise CallTimeout


def _render(result: Any) -> None:
    """Turn a result into what a user sees, so that rendering is exercised too."""
    import irr

    if isinstance(result, irr.Result):
        str(result)
        result.summary().as_text()
    elif isinstance(result, pd.DataFrame):
        repr(result)  # what a notebook or a print shows (pandas truncates long frames)
    elif isinstance(result, irr.Agreement):
        repr(result)


def one_line(text: str) -> bool:
    return bool(text.strip()) and "\n" not in text.strip()


def _where(exc: BaseException) -> str:
    tb = traceback.extract_tb(exc.__traceback__)
    if not tb:
        return ""
    frame = tb[-1]
    return f" at {os.path.basename(frame.filename)}:{frame.lineno} {frame.name}"


def classify(outcome: Any = None, exc: BaseException | None = None) -> tuple[str, str]:
    """(status, symptom) of a call's outcome or exception."""
    if exc is not None:
        name, message = type(exc).__name__, str(exc)
        if isinstance(exc, BlockedError):
            cause = exc.__cause__
            return "crash", f"{exc} ({classify(exc=cause)[1][:120]})"
        if isinstance(exc, CallTimeout):
            return "timeout", f"timeout: > {CALL_SECONDS} s of CPU"
        if isinstance(exc, MemoryError):
            return "memory", f"MemoryError {message[:100]}{_where(exc)}"
        if isinstance(exc, (ValueError, TypeError)):
            if one_line(message):
                return "error", f"{name}: {message[:200]}"
            return "crash", f"{name} without a one-line message: {message[:120]!r}{_where(exc)}"
        return "crash", f"{name}: {message[:150]}{_where(exc)}"
    if isinstance(outcome, CliOutcome):
        lines = [line for line in outcome.stderr.splitlines()
                 if not line.startswith(("irr: warning:", "irr: note:"))]
        if outcome.status == 0:
            return "ok", "exit 0"
        if outcome.status == 1 and len(lines) == 1 and lines[0].startswith("irr: error:"):
            return "error", lines[0][:200]
        if outcome.status == 2 and lines and ": error:" in lines[-1] \
                and "Traceback" not in outcome.stderr:
            return "error", lines[-1][:200]  # argparse: usage lines, then one error line
        return "crash", f"exit {outcome.status}, stderr {outcome.stderr[-200:]!r}"
    return "ok", type(outcome).__name__


def run_call(ctx: Context, name: str) -> tuple[str, str]:
    """(status, symptom) of one call, in this process."""
    call = calls()[name]
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            outcome = call.run(ctx)
            _render(outcome)
        return classify(outcome)
    except NotApplicable:
        return "ok", "not applicable"
    except (KeyboardInterrupt, SystemExit):
        raise
    except BaseException as exc:
        return classify(exc=exc)


def run_forked(ctx: Context, name: str, cpu: int = CALL_SECONDS) -> dict[str, Any]:
    """One call in a forked copy of this process (the input is built and irr imported
    once; each call starts from the same memory and cannot leave garbage for the next),
    with `MEMORY_LIMIT` bytes of address space beyond what the copy holds and `CALL_SECONDS`
    of CPU time (RLIMIT_CPU: SIGXCPU); stopped if it waits (no CPU for `IDLE_SECONDS`)."""
    with tempfile.TemporaryFile() as errfile:
        read, write = os.pipe()
        start = time.monotonic()
        pid = os.fork()
        if pid == 0:  # the child: run, report, leave without cleanup handlers
            try:
                os.close(read)
                os.dup2(errfile.fileno(), 2)
                limit_resources(cpu)
                status, symptom = run_call(ctx, name)
                os.write(write, json.dumps([status, symptom]).encode())
            finally:
                os._exit(0)
        os.close(write)
        last_cpu, last_progress = -1.0, start
        while True:
            done, wait_status, usage = os.wait4(pid, os.WNOHANG)
            if done:
                break
            used, now = _cpu_of(pid), time.monotonic()
            if used != last_cpu:
                last_cpu, last_progress = used, now
            elif now - last_progress > IDLE_SECONDS:
                os.kill(pid, signal.SIGKILL)
                usage = os.wait4(pid, 0)[2]
                wait_status = None
                break
            time.sleep(0.01)
        cpu_seconds = round(usage.ru_utime + usage.ru_stime, 2)
        max_rss_mb = round(usage.ru_maxrss / 1024, 1)  # kilobytes on Linux
        seconds = round(time.monotonic() - start, 2)
        with os.fdopen(read, "rb") as fh:
            raw = fh.read()
        errfile.seek(0)
        stderr = errfile.read().decode(errors="replace").strip()
    if wait_status is None:
        status, symptom = "timeout", f"waits: no CPU used for {IDLE_SECONDS} s"
    elif raw:
        status, symptom = json.loads(raw)
    elif os.WIFSIGNALED(wait_status) and os.WTERMSIG(wait_status) in (signal.SIGXCPU,
                                                                      signal.SIGKILL):
        status, symptom = "timeout", f"timeout: > {cpu} s of CPU"
    else:
        last = stderr.splitlines()[-1][:150] if stderr else ""
        how = (f"signal {os.WTERMSIG(wait_status)}" if os.WIFSIGNALED(wait_status)
               else f"status {os.WEXITSTATUS(wait_status)}")
        status, symptom = "killed", f"the process died ({how}) {last!r}"
    return {"call": name, "status": status, "symptom": symptom, "seconds": seconds,
            "cpu_seconds": cpu_seconds, "max_rss_mb": max_rss_mb}


def _cpu_of(pid: int) -> float:
    """CPU seconds (user + system) used so far by the running process `pid`."""
    try:
        with open(f"/proc/{pid}/stat") as fh:
            fields = fh.read().rsplit(")", 1)[1].split()
    except OSError:
        return -1.0
    # fields 14 and 15 of proc(5) (utime, stime), counted after the command name
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def _address_space() -> int:
    with open("/proc/self/statm") as fh:
        return int(fh.read().split()[0]) * os.sysconf("SC_PAGE_SIZE")


def _limit_address_space() -> tuple[int, int]:
    """Soft-limit the address space to `MEMORY_LIMIT` beyond the current; the old limits."""
    import resource

    soft, hard = resource.getrlimit(resource.RLIMIT_AS)
    memory = _address_space() + MEMORY_LIMIT
    if hard != resource.RLIM_INFINITY:
        memory = min(memory, hard)
    resource.setrlimit(resource.RLIMIT_AS, (memory, hard))
    return soft, hard


def limit_resources(cpu: int | None = None) -> None:
    """`MEMORY_LIMIT` bytes of address space beyond the current, `cpu` (default
    `CALL_SECONDS`) seconds of CPU (soft: SIGXCPU; hard one more: SIGKILL), no core file."""
    import resource

    _limit_address_space()
    seconds = CALL_SECONDS if cpu is None else cpu
    used = int(sum(resource.getrusage(resource.RUSAGE_SELF)[:2]))
    resource.setrlimit(resource.RLIMIT_CPU, (used + seconds, used + seconds + 1))
    resource.setrlimit(resource.RLIMIT_CORE, (0, 0))


def preimport() -> None:
    """Import every module of irr the calls reach (and pyplot) in this process, before
    the forks: each fork then starts with them, and a call's CPU time is its own work, not
    that of importing (or, without bytecode caches, compiling) the modules it uses first.
    `irr.app` (the web page of ``irr app``, which no call runs) is left out."""
    import importlib
    import pkgutil

    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot

    import irr

    for module in pkgutil.walk_packages(irr.__path__, "irr."):
        if module.name == "irr.app" or module.name.startswith("irr.app."):
            continue
        with contextlib.suppress(ImportError):  # an optional dependency not installed:
            importlib.import_module(module.name)  # the calls that need it say so
    for name in LAZY_IMPORTS:
        with contextlib.suppress(ImportError):
            importlib.import_module(name)


# What irr imports inside its functions (so that `import irr` stays light): scipy's
# distributions, statsmodels' table rendering of summaries, matplotlib's parts, tqdm. A
# module missing here costs the forks that use it time, never correctness.
LAZY_IMPORTS = ("scipy.stats", "scipy.special", "scipy.optimize", "scipy.sparse.csgraph",
                "statsmodels.iolib.summary", "statsmodels.iolib.table",
                "statsmodels.iolib.tableformatting", "matplotlib.patches", "matplotlib.lines",
                "matplotlib.figure", "matplotlib.axes", "matplotlib.transforms",
                "matplotlib.ticker", "matplotlib.layout_engine", "matplotlib.backends.backend_svg",
                "cycler", "narwhals", "tqdm.auto", "fractions", "sklearn.utils")


def child(input_name: str, names: list[str]) -> None:
    """Run `names` on one input, one forked process per call, one JSON line per call."""
    import gc
    import resource

    preimport()
    with tempfile.TemporaryDirectory() as workdir:
        ctx = Context(INPUTS[input_name](), workdir)
        # Build the Agreement once, before the forks, under a call's memory limit and a
        # call's CPU time (SIGPROF from the profiling timer, which counts this process's
        # CPU time; RLIMIT_CPU would end this process).
        limits = _limit_address_space()
        signal.signal(signal.SIGPROF, _alarm)
        signal.setitimer(signal.ITIMER_PROF, CALL_SECONDS)
        try:
            if applicable(calls()["repr(Agreement)"], ctx.inp):
                ctx.ag().statistics  # noqa: B018 - computed once, shared by the forks
        except BaseException:
            pass
        finally:
            signal.setitimer(signal.ITIMER_PROF, 0)
            resource.setrlimit(resource.RLIMIT_AS, limits)
        # what the forks share stays shared: the collector of a fork neither walks nor
        # touches (and so copies) the objects made up to here
        gc.collect()
        gc.freeze()
        for name in names or plan(ctx.inp):
            # "!name": a call expected to fail, run with EXPECTED_SECONDS of CPU
            cpu = EXPECTED_SECONDS if name.startswith("!") else CALL_SECONDS
            print(json.dumps(run_forked(ctx, name.lstrip("!"), cpu)), flush=True)


# -- the parent: one subprocess per input, in parallel ------------------------------------
ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))


def run_input(input_name: str, names: list[str] | None = None,
              expected: frozenset[str] = frozenset()) -> dict[str, dict[str, Any]]:
    """Run `names` (default: every applicable call) on one input in a subprocess; the
    calls in `expected` (expected failures) get `EXPECTED_SECONDS` of CPU."""
    import subprocess

    todo = list(plan(INPUTS[input_name]()) if names is None else names)
    env = {**os.environ, "PYTHONPATH": os.pathsep.join(
        p for p in (ROOT, os.environ.get("PYTHONPATH")) if p),
        "OPENBLAS_NUM_THREADS": "1", "OMP_NUM_THREADS": "1", "MKL_NUM_THREADS": "1",
        "MPLBACKEND": "Agg", "PYTHONWARNINGS": "ignore"}
    proc = subprocess.run(
        [sys.executable, os.path.abspath(__file__), input_name,
         *(f"!{name}" if name in expected else name for name in todo)],
        capture_output=True, text=True, cwd=ROOT, env=env, check=False)
    records = {}
    for line in proc.stdout.splitlines():
        record = json.loads(line)
        records[record["call"]] = record
    for name in todo:  # the subprocess itself died: its last lines say why
        records.setdefault(name, {"call": name, "status": "killed", "seconds": None,
                                  "symptom": f"the runner died: {proc.stderr[-300:]!r}"})
    return records


# The inputs by the CPU time of their calls, most first (measured; an input not listed,
# of unknown cost, starts first): run_all starts them in this order.
SLOWEST_FIRST = ("many-raters", "custom-weights", "many-labels", "sparse-crowd", "huge-table",
                 "huge-count-row", "resamples-1e12", "resamples-3e8", "scalars",
                 "special-files")


def run_all(expected: frozenset[tuple[str, str]] = frozenset(),
            max_workers: int | None = None) -> dict[tuple[str, str], dict[str, Any]]:
    """Every input, its subprocesses run in parallel: {(input, call): record}."""
    from concurrent.futures import ThreadPoolExecutor

    workers = max_workers or max(2, os.cpu_count() or 2)
    # the slowest inputs first, so that the pool does not end on a long one
    order = sorted(INPUTS, key=lambda name: (
        SLOWEST_FIRST.index(name) if name in SLOWEST_FIRST else -1))
    with ThreadPoolExecutor(workers) as pool:
        done = dict(zip(order, pool.map(
            lambda name: run_input(name, expected=frozenset(
                call for inp, call in expected if inp == name)), order), strict=False))
    return {(inp, call): record for inp, records in done.items()
            for call, record in records.items()}


if __name__ == "__main__":
    sys.path.insert(0, ROOT)  # this worktree's irr, not an installed one
    if sys.argv[1:] == ["--list"]:
        for key, make in INPUTS.items():
            print(key, plan(make()))
    elif sys.argv[1:] == ["--all"]:
        for (inp, _call), record in sorted(run_all().items()):
            print(json.dumps({"input": inp, **record}), flush=True)
    else:
        child(sys.argv[1], sys.argv[2:])
