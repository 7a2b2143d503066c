"""The reliability report workflow: :func:`irr.report` (and ``irr report``).

From the user's data to a :class:`irr.reporting.ReliabilityReport`: the data described, the
chosen (or recommended) coefficients computed with one set of inference options, per-group
results when asked, and the figures. The CLI's ``report`` command calls :func:`report`, so
the command line and Python give the same report.
"""

from __future__ import annotations

import dataclasses
import inspect
import re
from collections.abc import Mapping, Sequence
from typing import Any

import numpy as np

# the package: irr.plotting and irr.pandas (irr.by) are imported when first used
# (irr.__getattr__)
import irr
from irr._columns import continuity, replicate_columns
from irr._lazy import lazy_module
from irr._validation import check_bool, check_confidence_level
from irr.agreement import Agreement
from irr.bands import get_scale
from irr.registry import STATISTICS, scale_type, statistic_row, statistic_rows, study_hint
from irr.reporting import DataDescription, Figure, ReliabilityReport
from irr.summary import coincident

pd = lazy_module("pandas")  # imported on first use: data streamed by DuckDB never need it

__all__ = ["call_method", "method_parameters", "report"]

#: The inference options every coefficient method is offered (each takes those it has).
INFERENCE = ("confidence_level", "ci", "n_resamples", "rng")


#: The parameters of Agreement methods, by the function (inspect.signature of a method
#: costs more than a small coefficient's arithmetic, and a report reads each three times).
_PARAMETERS: dict[Any, Mapping[str, inspect.Parameter]] = {}


def method_parameters(ag: Agreement, method: str) -> Mapping[str, inspect.Parameter]:
    """The parameters of ``ag.<method>`` (without ``self``), as ``inspect.signature``
    gives them, remembered by the method's function.

    Examples
    --------
    >>> import irr
    >>> list(method_parameters(irr.Agreement([1, 2], [1, 2]), "pabak"))[:2]
    ['positive', 'confidence_level']
    """
    function = getattr(type(ag), method)
    found = _PARAMETERS.get(function)
    if found is None:
        found = _PARAMETERS[function] = inspect.signature(getattr(ag, method)).parameters
    return found


def call_method(ag: Agreement, method: str, inference: dict[str, Any], /,
                **options: Any) -> Any:
    """``ag.<method>(**options)`` with the inference options the method accepts.

    ``ci=None`` in `inference` leaves each method its own default interval.

    Examples
    --------
    >>> import irr
    >>> ag = irr.Agreement([1, 2, 2, 1], [1, 2, 1, 1])
    >>> call_method(ag, "icc", {"ci": "bca", "confidence_level": 0.9}).ci.confidence_level
    0.9
    >>> ag3 = irr.Agreement.from_frame(irr.datasets.load("anxiety"))
    >>> call_method(ag3, "krippendorff_alpha", {"ci": None, "sampling": "both"}).ci.method
    'wald'
    """
    function = getattr(ag, method)
    accepted = method_parameters(ag, method)
    chosen = {k: v for k, v in inference.items() if k in accepted}
    if chosen.get("ci", ...) is None:
        chosen.pop("ci")
        # an SE over raters has only a Wald interval: the default of a method that takes
        # `sampling` (alpha's is otherwise a bootstrap, which that SE refuses)
        if chosen.get("sampling", "subjects") != "subjects":
            chosen["ci"] = "wald"
    return function(**options, **chosen)


def replicate_note(raters: Sequence[Any], source: str | None = None,
                   subject: str = "subject") -> str:
    """How to analyse rater columns that read as methods with numbered replicates
    (:func:`irr._columns.replicate_columns`: ``wright_1, wright_2, mini_1, mini_2``) as
    methods with replicates, not as raters; "" for other names. `source`: the command
    line's input (``--dataset pef`` or a file), which words it as ``irr agreement``
    commands; None words it for Python. `subject`: the subject column of the command.

    Examples
    --------
    >>> print(replicate_note(["wright_1", "wright_2", "mini_1", "mini_2"],
    ...                      "--dataset pef"))  # doctest: +NORMALIZE_WHITESPACE
    wright_1, wright_2, mini_1, mini_2 look like 2 methods (wright, mini) read 2 times
    each; this report takes them as 4 raters. For the agreement of the methods with
    their replicates, give long data, one row per reading (columns subject, method,
    replicate, value), to: irr agreement long.csv --subject subject --rater method
    --rating value --replicate replicate --replicates constant (varying: when the
    methods' readings were made in pairs); irr datasets pef shows how to reshape it. For
    the first readings alone: irr agreement --dataset pef --raters wright_1 mini_1.
    >>> replicate_note(["rater1", "rater2"])
    ''
    """
    groups = replicate_columns(raters)
    if not groups:
        return ""
    counts = sorted({len(columns) for columns in groups.values()})
    times = " or ".join(map(str, counts))
    names = ", ".join(map(str, raters))
    head = (f"{names} look like {len(groups)} methods ({', '.join(groups)}) read {times} "
            f"times each; this report takes them as {len(raters)} raters. ")
    first = [str(columns[0]) for columns in groups.values()][:2]
    separator = re.match(r"^.*\S([_.\-])\d+$", str(raters[0])).group(1)
    if source is None:
        return head + (
            "For the agreement of the methods with their replicates, reshape to one row per "
            f"reading (`long = df.melt(id_vars=..., var_name='reading')`, then split "
            f"`reading` at '{separator}' into `method` and `replicate`) and use "
            "`irr.Agreement.from_long(long, subject=..., rater='method', rating='value', "
            "replicate='replicate', continuous=True).limits_of_agreement("
            "replicates='constant')` (`'varying'`: when the methods' readings were made in "
            f"pairs). For the first readings alone: `raters={first!r}`.")
    return head + (
        "For the agreement of the methods with their replicates, give long data, one row "
        f"per reading (columns {subject}, method, replicate, value), to: irr agreement "
        f"long.csv --subject {subject} --rater method --rating value --replicate replicate "
        "--replicates constant (varying: when the methods' readings were made in pairs)"
        + (f"; irr datasets {source.split()[1]} shows how to reshape it"
           if source.startswith("--dataset ") else "")
        + f". For the first readings alone: irr agreement {source} --raters {' '.join(first)}.")


def _first_line(exc: BaseException) -> str:
    text = str(exc).strip()
    return text.splitlines()[0] if text else type(exc).__name__


def _agreement(data: Any, raters: Any, id: Any, by: Any, categories: Any
               ) -> tuple[Agreement, pd.DataFrame | None]:
    if isinstance(data, Agreement):
        if by is not None:
            raise ValueError("`by` needs the data as a DataFrame (the grouping column is a "
                             "column of it); got an Agreement.")
        if raters is not None or id is not None or categories is not None:
            raise ValueError("`raters`, `id` and `categories` describe a DataFrame; an "
                             "Agreement already has them.")
        return data, None
    if isinstance(data, pd.DataFrame):
        keys = [] if by is None else ([by] if not isinstance(by, (list, tuple)) else list(by))
        missing = [k for k in keys if k not in data.columns]
        if missing:
            raise ValueError(f"`by` names columns that are not in the data: {missing!r}; the "
                             f"columns are {list(data.columns)!r}.")
        ids = [] if id is None else ([id] if not isinstance(id, (list, tuple)) else list(id))
        ag = Agreement.from_frame(data, raters, categories=categories, id=ids or None,
                                  by=keys or None)
        if _scores(ag, categories):  # many integer scores: measured, not categorised
            ag = Agreement.from_frame(data, list(ag.raters), id=ids or None, by=keys or None,
                                      continuous=True)
        return ag, data
    if by is not None:
        raise ValueError("`by` needs the data as a DataFrame.")
    ag = Agreement(data, categories=categories) if categories is not None else Agreement(data)
    if _scores(ag, categories):
        ag = Agreement(data, continuous=True)
    return ag, None


def _statistic_options(options: Any) -> dict[str, dict[str, Any]]:
    """`options` of :func:`report` by Agreement method."""
    if options is None:
        return {}
    if not isinstance(options, Mapping):
        raise TypeError(f"`options` must map statistic names to dicts of options; got "
                        f"{type(options).__name__}.")
    out: dict[str, dict[str, Any]] = {}
    for name, values in options.items():
        method = statistic_row(name, "options").method
        if not isinstance(values, Mapping):
            raise TypeError(f"`options[{name!r}]` must be a dict of options; got "
                            f"{type(values).__name__}.")
        out.setdefault(method, {}).update(values)
    return out


def _inference_options(inference: Any) -> dict[str, Any]:
    """`inference` of :func:`report`: options that some coefficient method takes, other
    than the four :func:`report` has as its own arguments."""
    if inference is None:
        return {}
    if not isinstance(inference, Mapping):
        raise TypeError("`inference` must map option names to values, e.g. "
                        f"{{'distribution': 't'}}; got {type(inference).__name__}.")
    own = [k for k in inference if k in INFERENCE]
    if own:
        raise ValueError(f"`inference` must not hold {own!r}: pass them as arguments of "
                         "their own.")
    known = {name for row in STATISTICS.values()
             for name in inspect.signature(getattr(Agreement, row.method)).parameters}
    unknown = [k for k in inference if k not in known]
    if unknown:
        raise ValueError(f"`inference` holds options no coefficient takes: {unknown!r}.")
    return dict(inference)


def _check_required(chosen: list[tuple[str, dict[str, Any]]], ag: Agreement,
                    names: Sequence[str]) -> None:
    """Raise for a chosen statistic whose method needs an argument `options` lacks (the
    coverage probability's ``delta``)."""
    for method, given in chosen:
        for name, parameter in method_parameters(ag, method).items():
            if parameter.default is inspect.Parameter.empty and parameter.kind in (
                    parameter.POSITIONAL_OR_KEYWORD, parameter.KEYWORD_ONLY) \
                    and name not in given:
                shown = next((n for n in names if n in STATISTICS
                              and STATISTICS[n].method == method), method)
                raise ValueError(f"`statistics` {shown!r} needs `{name}`: pass it in "
                                 f"`options`, e.g. options={{{shown!r}: {{{name!r}: ...}}}}.")


def _scores(ag: Agreement, categories: Any) -> bool:
    """Whether a report reads categorical-mode ratings as measurements: numeric scores
    with more than 10 distinct values (irr._columns.looks_continuous) and no declared
    categories, such as integer blood pressures or 0..100 scales."""
    return categories is None and not ag.continuous and ag.facts.continuous


def report(
    data: Any,
    statistics: str | Sequence[str] | None = None,
    *,
    raters: Sequence[Any] | None = None,
    id: Any = None,
    categories: Sequence[Any] | None = None,
    by: Any = None,
    confidence_level: float = 0.95,
    ci: str | None = None,
    n_resamples: int = 9999,
    rng: int | None = 0,
    inference: Mapping[str, Any] | None = None,
    scale: str | None = None,
    style: str = "apa",
    figures: bool = True,
    title: str | None = None,
    notes: Sequence[str] = (),
    info: Sequence[tuple[str, str]] = (),
    options: Mapping[str, Mapping[str, Any]] | None = None,
) -> ReliabilityReport:
    """A reliability report of `data`: the chosen coefficients with intervals, bands,
    sentences, a methods paragraph, figures and a GRRAS checklist.

    Parameters
    ----------
    data : Agreement, DataFrame or array-like
        The ratings: an :class:`irr.Agreement`, a wide DataFrame (one row per subject,
        one column per rater; identifier columns are set aside as by
        :meth:`irr.Agreement.from_frame`), or a subjects x raters array.
    statistics : str or sequence of str, optional
        What to report, by name (:data:`irr.registry.STATISTICS`): e.g.
        ``["fleiss", "alpha", "icc"]`` or ``"kappa,alpha"``. ``alpha`` is Krippendorff's
        alpha at the level that suits the data (nominal, ordinal or interval) and ``icc``
        the two-way, absolute-agreement, single-rater ICC(A,1). Default: a recommended set
        for the data's type (nominal, ordinal or continuous; two raters or more), chosen
        before looking at the numbers. ``"all"``: every coefficient that applies.
    raters, id, categories
        For a DataFrame: the rater columns, the identifier columns, the rating scale (as
        for :meth:`irr.Agreement.from_frame`).
    by : column label or list of them, optional
        Report each chosen coefficient per group too (a table and a forest plot).
    confidence_level, ci, n_resamples, rng
        Inference options, passed to every coefficient that takes them; ``ci=None`` gives
        each its default interval (Wald for kappas, percentile bootstrap for alpha, the
        F-based interval for the ICC).
    inference : mapping, optional
        Further inference options, by the name of their keyword argument, passed to every
        coefficient whose method takes them: e.g. ``{"distribution": "t"}`` (t intervals
        and tests on n - 1 df, as irrCAC), ``{"sampling": "both"}``, ``{"population":
        500}``, ``{"missing": "listwise"}``. A coefficient that does not take a given option
        gets a note saying so (the ICC takes none of these).
    scale : str, optional
        Interpretation scale for every coefficient (default: each coefficient's own:
        Landis & Koch for kappas and alpha, Koo & Li for the ICC).
    style : {'apa', 'plain'}
        The sentences' style.
    figures : bool, default True
        Draw the figures (needs matplotlib) for the HTML report.
    title : str, optional
    notes, info : sequences
        Further notes and header facts (the CLI passes what reading the file found).
    options : mapping, optional
        Options of single statistics, by the name of the statistic (``'loa'``) or of its
        :class:`irr.Agreement` method (``'limits_of_agreement'``): e.g.
        ``{"loa": {"coverage": 0.9, "units": "l/min"}, "cp": {"delta": 50}}``. They
        are added to the statistic's own options for every row of that method (the
        per-group table too); options of a statistic that is not reported are not used.
        The coverage probability (``'cp'``) needs its ``delta`` here.

    Returns
    -------
    ReliabilityReport
        ``print(rep)`` for text; ``rep.to_html()``, ``rep.to_markdown()``,
        ``rep.to_json()``, ``rep.to_frame()``; ``rep.save("report.html")``.

    Examples
    --------
    >>> import irr
    >>> rep = irr.report(irr.datasets.load("anxiety"), figures=False)
    >>> rep.statistics
    ('percent', 'alpha_ordinal', 'icc_a1')
    >>> print(rep.sentences[1])  # doctest: +NORMALIZE_WHITESPACE
    Agreement among rater1, rater2, and rater3 was unacceptable (Krippendorff, 2004),
    Krippendorff's ordinal α = .23, 95% CI [−.06, .45] (percentile bootstrap, 9,999
    resamples), n = 20.

    Two methods of measurement, with options of the limits of agreement:

    >>> pef = irr.datasets.load("pef")
    >>> rep = irr.report(pef, "loa,ccc", raters=["wright_1", "mini_1"], figures=False,
    ...                  options={"loa": {"coverage": 0.9, "units": "l/min"}})
    >>> [r.coefficient for r in rep.results]
    ['Limits of agreement', "Lin's CCC"]
    >>> round(rep.results[0].upper, 1)  # bias + 1.645 SD
    61.6
    """
    figures = check_bool(figures, "figures")
    extra = _statistic_options(options)
    further = _inference_options(inference)
    if isinstance(data, pd.DataFrame) and raters is None and id is None and by is None:
        hint = study_hint(data)  # the data of a study (a G study's long data), not this
        if hint is not None:
            raise ValueError(hint)
    ag, frame = _agreement(data, raters, id, by, categories)
    confidence_level = check_confidence_level(confidence_level)  # once, not per statistic
    if scale is not None:  # validated before any work; a name in its canonical spelling
        resolved = get_scale(scale)
        scale = resolved.name if isinstance(scale, str) else scale
    facts = ag.facts
    n_categories = 0 if ag.continuous else len(ag.categories)
    kind = scale_type(facts, n_categories)
    names, chosen, notes_out = statistic_rows(statistics, facts, n_categories)
    chosen = [(method, {**row_options, **extra.get(method, {})})
              for method, row_options in chosen]
    _check_required(chosen, ag, names)
    selection = ("recommended" if statistics is None
                 else "all" if names == ["all"] else "chosen")
    notes_out = [*notes, *notes_out, *filter(None, [replicate_note(ag.raters)])]
    if facts.continuous and selection != "chosen":
        values = ("summed by the engine of a lazy frame" if ag.lazy is not None
                  else continuity(pd.Index(np.unique(ag.measurements.value)))
                  if ag.continuous else continuity(ag.categories))
        notes_out.append(
            f"The ratings look like continuous scores ({values}): the "
            "statistics that take each value as a category (percent agreement, kappa, AC1, "
            "nominal alpha) are left out; name them in `statistics` to compute them.")
    inference = {"confidence_level": confidence_level, "ci": ci, "n_resamples": n_resamples,
                 "rng": rng, **further}
    results = []
    for method, options in chosen:
        try:
            result = call_method(ag, method, inference, **options)
        except ValueError as exc:
            notes_out.append(f"{method} not computed: {_first_line(exc)}")
            continue
        collected = list(getattr(result, "results", None) or [result])
        accepted = method_parameters(ag, method)
        if ci is not None and "ci" not in accepted:
            for r in collected:  # the ICC has only its F-based interval: say so, not silently
                notes_out.append(f"{r.coefficient}: `ci='{ci}'` does not apply; its own "
                                 f"interval ({r.ci.method_name}) is reported.")
        unused = [f"`{name}`" for name in further if name not in accepted]
        if unused:  # options it does not take: said, not silently dropped
            does = "does not apply" if len(unused) == 1 else "do not apply"
            listed = (unused[0] if len(unused) == 1
                      else f"{', '.join(unused[:-1])} and {unused[-1]}")
            notes_out.extend(f"{r.coefficient}: {listed} {does}; not used." for r in collected)
        results.extend(dataclasses.replace(r, scale=scale) if scale is not None
                       and r.scale is not None else r for r in collected)
    if not results:
        raise ValueError("no statistic could be computed on these data: "
                         + " ".join(notes_out))
    # rows that repeat another on two categories (weighted kappas, alpha's levels): once
    results, merged = coincident(results)
    notes_out.extend(merged)
    groups = None
    if by is not None and frame is not None:
        tables = []
        for method, options in chosen:
            options = {**options, **{k: v for k, v in inference.items()
                                     if k in method_parameters(ag, method)
                                     and v is not None}}
            tables.append(irr.by(frame, by, raters=list(ag.raters), statistic=method,
                                 continuous=ag.continuous,
                                 categories=None if ag.continuous else list(ag.categories),
                                 **options))
        groups = pd.concat(tables, ignore_index=True)
    if figures and ag.lazy is not None:  # their points are rows the engine keeps
        figures = False
        notes_out.append("No figures: the measurements were summed by the engine of a lazy "
                         "frame, and a figure's points are its rows (collect a sample to "
                         "draw them).")
    # drawn when shown (HTML, save, a figure's svg): a printed report never draws them
    # (nor imports irr.plotting)
    drawn: tuple[Figure, ...] = ()
    if figures:
        drawn = tuple(Figure(caption, draw=draw) for caption, draw in
                      irr.plotting.report_figure_plan(ag, results, by_frame=groups))
    who = (f"between {ag.raters[0]} and {ag.raters[1]}" if ag.n_raters == 2 and
           facts.by_rater else f"among {ag.n_raters} raters")
    return ReliabilityReport(
        title=title or f"Agreement {who}",
        data=(DataDescription.from_lazy(ag.lazy) if ag.lazy is not None
              else DataDescription.from_measurements(ag.measurements) if ag.continuous
              else DataDescription.from_statistics(ag.statistics, kind)),
        results=tuple(results),
        statistics=tuple(names),
        selection=selection,
        info=tuple(info),
        notes=tuple(notes_out),
        style=style,
        figures=drawn,
        groups=groups,
        seed=rng if isinstance(rng, int) else None,
    )
