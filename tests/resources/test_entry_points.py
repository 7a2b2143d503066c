"""Every public entry point and CLI subcommand, on adversarial small inputs, gives a
result or a one-line error within a bound of memory and of CPU time.

Marked ``resources`` and left out of the default run (it starts a subprocess per input and
a fork per call): ``python -m pytest -m resources -p no:randomly -n 0`` runs it, as a step
of ``.ci/run`` does.

The inputs (at most 100 KB each as the file a user would pass): many labels (one-decimal
scores), many raters (1,200 columns), sparse crowdsourcing long data, 1e12 counts in a
table, a counts row of m = 4e8, 1e12 and 3e8 requested resamples, 1,000 categories with
custom weights, and extreme numbers. The entry points are enumerated from the package
(``irr.__all__``, Agreement's public members, ``irr.ordinal.__all__``, the plotting
functions, the DataFrame accessor, the CLI's subcommands and formats), and
`test_every_public_entry_point_is_exercised` fails when a new one is not.

Each input runs in its own subprocess (in parallel), and each call in a fork of it with
2 GB of address space beyond the input (RLIMIT_AS) and `CALL_SECONDS` of CPU (RLIMIT_CPU;
never a wall-clock limit: a call that waits is stopped when its CPU time stops advancing):
see ``tests/support/resource_harness.py``, which also runs stand-alone. A call passes when
it returns (its result is rendered) or raises a ValueError/TypeError with a one-line
message; for the CLI, exit status 0, or 1/2 with one ``irr: error:`` line on stderr and no
traceback.

EXPECTED_FAILURES lists what fails today, by issue item; those cases are strict xfails
(run with `EXPECTED_SECONDS` of CPU), so a fix that makes one pass fails the test until
its row is deleted.
"""

import contextlib
import functools
import inspect
import io
import re

import numpy as np
import pandas as pd
import pytest

import irr
import irr.cli
import irr.ordinal
import irr.plotting
from tests.support.resource_harness import (
    CALL_SECONDS,
    FORMATS,
    INPUTS,
    MAX_INPUT_BYTES,
    SUBCOMMANDS,
    calls,
    plan,
    public_members,
    run_all,
)

pytestmark = pytest.mark.resources

# Names of irr.__all__ that are not called on data, and why.
NOT_ENTRY_POINTS = {
    **dict.fromkeys(
        ["Band", "BenchmarkResult", "ConfidenceInterval", "CriticalErrorRate",
         "ErrorRateTTestResult", "ErrorRateTestFamily", "ErrorRateTestResult", "ICCResult",
         "KappaResult", "KendallResult", "KrippendorffResult", "PairedTestResult",
         "ProportionResult", "ReliabilityReport", "Result", "Scale", "ConcordanceResult",
         "CoverageResult", "MethodRegressionResult", "TDIResult", "CategoryResults",
         "PabakResult", "VarianceRatioResult", "LearnerTTestResult", "BiasVarianceResult",
         "DifferenceResult", "PooledResult", "InterIntraResult", "CronbachResult",
         "GStudyResult", "DStudyResult"],
        "a result or value type: the entry points build it, and every result they return "
        "is rendered (str, summary) by the harness"),
    "DegenerateDataWarning": "a warning category, not a function of data",
    "SCALES": "a constant mapping of the benchmark scales (get_scale and list_scales run)",
    "__version__": "a constant string",
    "datasets": "bundled data sets by name: no user input (the `irr datasets` subcommand runs "
                "in every format)",
    "plotting": "a module: each of its public functions is an entry point of its own",
    "plan": "a module: each of its planning functions is an entry point of its own "
            "(the plan.* calls, on design numbers at the edges)",
}

# What fails today, by issue-15 item: (input, call) -> symptom. Delete a row when its fix
# is merged (the test then fails as XPASS until the row goes).
# Timeouts are CPU seconds (the limit was 6 s).
EXPECTED_FAILURES: dict[int, dict[tuple[str, str], str]] = {
    # empty: the overall CCC, the variance-components ICC and the SEM of thousands of raters
    # refuse with the reason (irr.coefficients.variance_components.MAX_MOMENT_CELLS)
}


def _expected() -> dict[tuple[str, str], tuple[int, str]]:
    return {key: (item, symptom) for item, rows in EXPECTED_FAILURES.items()
            for key, symptom in rows.items()}


def _cases() -> list:
    expected = _expected()
    cases = []
    for name, make in INPUTS.items():
        for call in plan(make()):
            key = (name, call)
            marks = ()
            if key in expected:
                item, symptom = expected[key]
                marks = pytest.mark.xfail(strict=True, reason=f"issue 15 item {item}: {symptom}")
            cases.append(pytest.param(key, marks=marks, id=f"{name}::{call}"))
    return cases


@functools.lru_cache(maxsize=1)
def _results() -> dict:
    return run_all(frozenset(_expected()))


def test_every_expected_failure_names_a_real_case():
    keys = {(name, call) for name, make in INPUTS.items() for call in plan(make())}
    stale = set(_expected()) - keys
    assert not stale, f"EXPECTED_FAILURES rows that are no case: {sorted(stale)}"


@pytest.mark.parametrize("key", _cases())
def test_entry_point_on_adversarial_input_is_bounded(key):
    record = _results()[key]
    assert record["status"] in ("ok", "error"), (
        f"{key[1]} on {key[0]}: {record['status']}: {record['symptom']} "
        f"({record.get('cpu_seconds')} s of CPU, peak RSS {record.get('max_rss_mb')} MB, "
        f"{record['seconds']} s wall clock)")


def _cli_subcommands() -> list[str]:
    out = io.StringIO()
    with contextlib.redirect_stdout(out), pytest.raises(SystemExit):
        irr.cli.main(["--help"])
    block = out.getvalue().split("COMMAND\n", 1)[1].split("\n\n", 1)[0]
    return re.findall(r"^    (\S+)", block, flags=re.MULTILINE)


def test_every_public_entry_point_is_exercised():
    covered = {call.covers for call in calls().values()}
    exercised = {call for make in INPUTS.values() for call in plan(make())}
    assert exercised == set(calls()), "every call runs on at least one input"
    missing = []
    for name in irr.__all__:
        if name in NOT_ENTRY_POINTS:
            continue
        obj = getattr(irr, name)
        assert callable(obj), f"{name} is not callable: give it a reason in NOT_ENTRY_POINTS"
        if name not in covered:
            missing.append(name)
    missing += [f"Agreement.{m}" for m in public_members(irr.Agreement)
                if f"Agreement.{m}" not in covered]
    missing += [m for m in irr.ordinal.__all__ if m not in covered]
    missing += [f"plotting.{m}" for m, f in vars(irr.plotting).items()
                if inspect.isfunction(f) and not m.startswith("_")
                and f.__module__ == "irr.plotting" and f"plotting.{m}" not in covered]
    accessor = type(pd.DataFrame().irr)
    missing += [f"DataFrame.irr.{m}" for m in public_members(accessor)
                if f"DataFrame.irr.{m}" not in covered]
    # `irr app` serves a page until Ctrl-C, not a batch command: tests/unit/app/ sends it
    # hostile files and names, uploads over its limit and requests without its token
    assert set(_cli_subcommands()) - {"app"} == set(SUBCOMMANDS), (
        "the harness knows every subcommand")
    missing += [f"cli {s}" for s in SUBCOMMANDS if f"cli {s}" not in covered]
    assert set(irr.cli.FORMATS) == set(FORMATS)
    missing += [f"cli --format {f}" for f in FORMATS if f"cli --format {f}" not in covered]
    assert not missing, f"public entry points the resource harness does not run: {missing}"
    assert set(NOT_ENTRY_POINTS) <= set(irr.__all__), "skip only names that exist"


def test_inputs_are_small_and_adversarial():
    for name, make in INPUTS.items():
        inp = make()
        text = inp.csv()
        if text is not None:  # the file a command-line user passes
            assert len(text.encode()) <= MAX_INPUT_BYTES, name
        for array in (inp.table, inp.counts):
            if array is not None:
                assert len(pd.DataFrame(array).to_csv(index=False).encode()) <= MAX_INPUT_BYTES
    # the shapes the issue names
    labels = INPUTS["many-labels"]().wide
    assert pd.unique(labels[["r1", "r2"]].to_numpy().ravel()).size >= 1000
    assert len(INPUTS["many-raters"]().raters) >= 1000
    crowd = INPUTS["sparse-crowd"]().long
    assert crowd["rater"].nunique() == 2000
    assert (crowd.groupby("subject").size() == 3).all()
    assert not crowd.duplicated(["subject", "rater"]).any()
    assert INPUTS["huge-table"]().table.max() == 10**12
    assert INPUTS["huge-count-row"]().counts.sum(axis=1).max() == 4 * 10**8
    assert INPUTS["resamples-1e12"]().options["n_resamples"] == 10**12
    assert INPUTS["resamples-3e8"]().options["n_resamples"] == 3 * 10**8
    weights = INPUTS["custom-weights"]().weights
    assert weights.shape == (1000, 1000)
    assert np.allclose(np.diag(weights), 1)
    assert CALL_SECONDS <= 20
