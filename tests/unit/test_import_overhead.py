"""Fixed costs: what the first calls load (``import irr`` itself: tests/unit/test_import.py),
and the kernels rewritten for speed against their previous forms (kept here) on random data."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest
from scipy.stats import rankdata

import irr
from irr._validation import check_rng
from irr.coefficients.kappa import kappa_max
from irr.coefficients.kendall import average_ranks, kendall_w, tie_sum
from irr.inference.options import InferenceOptions
from irr.inference.plan import ResamplingPlan
from irr.weights import agreement_weights

ROOT = Path(__file__).resolve().parents[2]


def _loaded_after(code: str, modules: tuple[str, ...]) -> list[str]:
    """The `modules` loaded after running `code` in a fresh interpreter (this checkout)."""
    probe = f"{code}\nimport sys\nprint(' '.join(m for m in {modules!r} if m in sys.modules))"
    done = subprocess.run([sys.executable, "-c", probe], cwd=ROOT, capture_output=True,
                          text=True, check=True)
    return done.stdout.split()


def test_kendall_w_does_not_import_scipy_stats():
    code = ("import numpy as np, pandas as pd, irr\n"
            "x = np.random.default_rng(0).integers(0, 4, (30, 4))\n"
            "irr.Agreement.from_frame(pd.DataFrame(x)).kendall_w()\n"
            "from irr.coefficients.kendall import kendall_w\n"
            "kendall_w(x.astype(float))\n")
    assert _loaded_after(code, ("scipy.stats",)) == []


def test_weighted_kappa_max_does_not_import_scipy_optimize():
    code = ("import numpy as np, irr\n"
            "a = np.arange(300) % 6; b = (a * 5 + np.arange(300) // 40) % 6\n"
            "for w in ('linear', 'quadratic'):\n"
            "    assert np.isfinite(irr.Agreement(a, b).kappa(w).kappa_max)\n")
    assert _loaded_after(code, ("scipy.optimize",)) == []



def test_a_kappa_call_imports_no_other_estimator():
    # Agreement declares the other estimators with irr._lazy.lazy_module: the first kappa
    # of a fresh process imports kappa's modules only; another statistic imports its own
    others = ("irr.estimators.concordance", "irr.estimators.chance_corrected",
              "irr.estimators.icc", "irr.estimators.krippendorff", "irr.estimators.limits",
              "irr.inference.paired", "irr.inference.error_rate", "irr.registry",
              "irr.gtheory")
    code = ("import numpy as np, irr\n"
            "a = np.array([1, 2, 3, 3, 2, 1]); b = np.array([1, 2, 3, 2, 2, 1])\n"
            "assert round(irr.Agreement(a, b).kappa('quadratic').estimate, 4) == 0.8571\n")
    assert _loaded_after(code, others) == []
    code += "irr.Agreement(a, b).fleiss_kappa()\n"
    loaded = _loaded_after(code, others)
    assert "irr.estimators.chance_corrected" in loaded
    assert "irr.estimators.concordance" not in loaded

# -- Kendall's W: ranks and tie sums without scipy.stats -----------------------------------

def _old_tie_sum(x: np.ndarray) -> float:
    """The previous tie_sum (a loop over raters)."""
    x = np.sort(np.asarray(x, dtype=float), axis=0)
    n = x.shape[0]
    total = 0.0
    for column in x.T:
        starts = np.flatnonzero(np.concatenate(([True], column[1:] != column[:-1])))
        t = np.diff(np.append(starts, n)).astype(float)
        total += float((t**3 - t).sum())
    return total


def _old_kendall_w(x: np.ndarray, correct_ties: bool = True) -> tuple[float, float, float]:
    """The previous kendall_w without multiplicity (scipy.stats.rankdata)."""
    x = np.asarray(x, dtype=float)
    n, m = x.shape
    ranks = rankdata(x, axis=0)
    sums = ranks.sum(axis=1)
    s = float(((sums - sums.mean()) ** 2).sum())
    ties = _old_tie_sum(x) if correct_ties else 0.0
    denominator = m * m * (n**3 - n) - m * ties
    w = 12 * s / denominator if denominator > 0 else float("nan")
    return w, m * (n - 1) * w, ties


def _random_scores(seed: int) -> np.ndarray:
    rng = np.random.default_rng(seed)
    n, m = int(rng.integers(1, 40)), int(rng.integers(1, 7))
    kind = seed % 4
    if kind == 0:  # few values: many ties
        return rng.integers(0, int(rng.integers(1, 4)), (n, m)).astype(float)
    if kind == 1:  # continuous: no ties
        return rng.normal(size=(n, m))
    if kind == 2:  # one category
        return np.full((n, m), 3.0)
    return np.round(rng.normal(size=(n, m)), 1) * 1e6  # large values, some ties


@pytest.mark.parametrize("seed", range(60))
def test_average_ranks_equal_scipy_rankdata(seed):
    x = _random_scores(seed)
    np.testing.assert_array_equal(average_ranks(x), rankdata(x, axis=0))


def test_average_ranks_nan_column_is_nan_as_scipy():
    x = np.array([[1.0, 2.0], [np.nan, 2.0], [3.0, 1.0], [1.0, 5.0]])
    np.testing.assert_array_equal(average_ranks(x), rankdata(x, axis=0))


@pytest.mark.parametrize("seed", range(60))
def test_tie_sum_and_kendall_w_equal_previous_forms(seed):
    x = _random_scores(seed)
    assert tie_sum(x) == _old_tie_sum(x)
    for correct in (True, False):
        new = kendall_w(x, correct)
        old = _old_kendall_w(x, correct)
        np.testing.assert_array_equal(np.array(tuple(new)), np.array(old))


def test_tie_sum_empty():
    assert tie_sum(np.zeros((0, 3))) == _old_tie_sum(np.zeros((0, 3))) == 0.0


def test_kendall_w_estimator_unchanged_on_anxiety():
    res = irr.Agreement.from_frame(irr.datasets.load("anxiety")).kendall_w()
    assert round(res.estimate, 4) == 0.5397


# -- the resampling plan: count patterns built when a bootstrap is drawn -------------------

def _datasets() -> list[irr.Agreement]:
    rng = np.random.default_rng(7)
    a = rng.integers(0, 4, 80)
    b = np.where(rng.random(80) < 0.8, a, rng.integers(0, 4, 80))
    many = rng.integers(0, 3, (60, 6)).astype(float)
    many[rng.random(many.shape) < 0.1] = np.nan
    many[0] = np.nan  # a subject with no rating
    symmetric = np.array([[0, 1], [1, 0]] * 10)  # two fine patterns, one count pattern
    return [
        irr.Agreement(a, b),
        irr.Agreement(a, b, categories=[3, 2, 1, 0]),  # drawn in label order
        irr.Agreement(*many.T),
        irr.Agreement(*symmetric.T),  # two-stage draws
    ]


@pytest.mark.parametrize("which", range(4))
def test_deferred_plan_draws_as_the_eager_plan(which):
    ag = _datasets()[which]
    stats = ag.statistics
    deferred = ResamplingPlan.for_statistics(stats)
    assert deferred.deferred is stats
    assert deferred.counts is None
    eager = deferred.resolved()
    assert eager.deferred is None
    assert eager.resolved() is eager
    options = InferenceOptions(n_resamples=50, rng=3)
    keep = (stats.patterns >= 0).all(axis=1)
    for on, statistic, mask in (
        ("fine", lambda c: c @ np.arange(c.shape[1], dtype=float), None),
        ("fine", lambda c: c @ np.arange(c.shape[1], dtype=float), keep),
        ("counts", lambda c: c @ np.arange(c.shape[1], dtype=float) ** 2, None),
    ):
        new = deferred.recipe(statistic, options, on, mask)()
        old = eager.recipe(statistic, options, on, mask)()
        np.testing.assert_array_equal(new.replicates, old.replicates)
    restricted = deferred.restricted(keep)
    assert restricted.deferred is None
    np.testing.assert_array_equal(restricted.multiplicity, eager.restricted(keep).multiplicity)
    # the cases the data sets are for
    assert eager.two_stage == (which == 3)
    assert (eager.orders[0] is not None) == (which == 1)


def test_kappa_without_bootstrap_builds_no_count_patterns():
    ag = _datasets()[0]
    ag.kappa("quadratic")
    ag.kappa()
    assert "count_patterns" not in vars(ag.statistics)


# -- kappa_max: the monotone coupling without np.unique -------------------------------------

def _old_northwest_corner(row: np.ndarray, col: np.ndarray, weights: np.ndarray) -> float:
    """The previous _northwest_corner (np.unique of the breakpoints)."""
    row_end, col_end = np.cumsum(row), np.cumsum(col)
    breaks = np.unique(np.concatenate([[0], row_end, col_end]))
    start, length = breaks[:-1], np.diff(breaks)
    i = np.searchsorted(row_end, start, side="right")
    j = np.searchsorted(col_end, start, side="right")
    return float(length @ weights[i, j]) / float(row_end[-1])


def _old_kappa_max_monotone(table: np.ndarray, weights: np.ndarray) -> float:
    counts = np.asarray(table).astype(float)
    n = counts.sum()
    row, col = counts.sum(axis=1), counts.sum(axis=0)
    disagreement = 1.0 - weights
    expected_disagreement = float((row / n) @ disagreement @ (col / n)) if n > 0 else 0.0
    if not expected_disagreement > 0:
        return float("nan")
    best = _old_northwest_corner(row, col, weights)
    return 1.0 - (1.0 - best) / expected_disagreement


@pytest.mark.parametrize("seed", range(40))
def test_kappa_max_monotone_equals_previous_form(seed):
    rng = np.random.default_rng(seed)
    k = int(rng.integers(1, 9))
    table = rng.integers(0, 4, (k, k)) * (rng.random((k, k)) < 0.6)
    if seed % 5 == 0:
        table[rng.integers(k)] = 0  # an unused row
    scores = np.sort(rng.choice(np.arange(20.0), size=k, replace=False))
    for name in ("linear", "quadratic"):
        w = agreement_weights(name, k, scores)
        new, old = kappa_max(table, w), _old_kappa_max_monotone(table, w)
        # the coupling's segments of length 0 are summed as zeros: equal up to rounding
        assert abs(new - old) <= 1e-13 * max(abs(old), 1.0) or (np.isnan(new) and np.isnan(old))


# -- InferenceOptions: the seed checked without building a Generator ------------------------

@pytest.mark.parametrize("rng", [-1, True, 1.5, "0", [0]])
def test_options_bad_rng_messages_unchanged(rng):
    with pytest.raises((TypeError, ValueError)) as expected:
        check_rng(rng)
    with pytest.raises(type(expected.value)) as got:
        InferenceOptions(rng=rng)
    assert str(got.value) == str(expected.value)


@pytest.mark.parametrize("rng", [0, 5, np.int64(3), np.uint8(2), None, np.random.default_rng(1)])
def test_options_good_rng_accepted(rng):
    assert InferenceOptions(rng=rng).rng is rng


def test_irr_kappa_on_a_csv_loads_no_statsmodels_scipy_matplotlib_or_other_subcommands(
        tmp_path):
    # the whole command as a user runs it; what it printed, and what it loaded
    path = tmp_path / "pairs.csv"
    a = np.arange(300) % 5
    b = (a + (np.arange(300) % 7 == 0)) % 5
    path.write_text("a,b\n" + "".join(f"{x},{y}\n" for x, y in zip(a, b, strict=True)))
    heavy = ("statsmodels", "scipy", "matplotlib", "polars", "duckdb", "narwhals",
             "irr.plan", "irr.plotting", "irr.pandas", "irr.datasets")
    code = ("import runpy, sys\n"
            f"sys.argv = ['irr', 'kappa', {str(path)!r}]\n"
            "try:\n"
            "    runpy.run_module('irr', run_name='__main__')\n"
            "except SystemExit as exit:\n"
            "    assert exit.code == 0, exit.code\n"
            f"print('LOADED', *(m for m in {heavy!r} if m in sys.modules))\n")
    done = subprocess.run([sys.executable, "-c", code], cwd=ROOT, capture_output=True,
                          text=True, check=True)
    assert "Cohen's kappa" in done.stdout
    assert done.stdout.splitlines()[-1].split() == ["LOADED"]


def test_irr_kappa_on_a_streamed_parquet_file_has_duckdb_count_without_narwhals(tmp_path):
    # a Parquet file above the input limit: DuckDB reads its head and counts its rating
    # patterns through its own API, and narwhals (about 0.1 s to import) is never loaded
    pq = pytest.importorskip("pyarrow.parquet")
    pytest.importorskip("duckdb")
    import pyarrow as pa

    path = tmp_path / "pairs.parquet"
    a = np.arange(3000) % 5 + 1
    pq.write_table(pa.table({"a": a, "b": np.where(np.arange(3000) % 7 == 0, 1, a)}), path)
    code = ("import io, contextlib\n"
            "from irr.cli import main\n"
            "with contextlib.redirect_stdout(io.StringIO()) as out:\n"
            f"    assert main(['kappa', {str(path)!r}, '--max-bytes', '1000']) == 0\n"
            "assert '3,000 rows streamed by DuckDB' in out.getvalue(), out.getvalue()\n")
    assert _loaded_after(code, ("duckdb", "narwhals")) == ["duckdb"]


def test_irr_kappa_on_a_csv_loads_no_module_of_other_commands_or_the_bootstrap(tmp_path):
    # modules of other commands and statistics, declared with irr._lazy.lazy_module (by
    # irr.cli, irr.registry for the G study's declaration, irr.inference.plan for the
    # bootstrap, irr.estimators.percent for the multi-rater forms): `irr kappa FILE` (Wald
    # intervals, two raters) pays for none of them
    path = tmp_path / "pairs.csv"
    path.write_text("a,b\n" + "".join(f"{i % 5 + 1},{(i * 7) % 5 + 1}\n" for i in range(200)))
    lazy = ("irr.gtheory", "irr.gtheory.study", "irr.gtheory.data", "irr.gtheory.results",
            "irr.estimators.limits", "difflib", "irr.inference.bootstrap",
            "irr.estimators.chance_corrected")
    code = ("import io, contextlib\n"
            "from irr.cli import main\n"
            "with contextlib.redirect_stdout(io.StringIO()) as out:\n"
            f"    assert main(['kappa', {str(path)!r}]) == 0\n"
            "assert \"Cohen's kappa\" in out.getvalue()\n")
    assert _loaded_after(code, lazy) == []
    # the declaration still names the study's result and finds its data, importing them
    code = ("import irr.registry, irr.datasets\n"
            "from irr.gtheory.results import GStudyResult\n"
            "declared = irr.registry.study('gstudy')\n"
            "assert declared.result is GStudyResult\n"
            "assert declared.detect(irr.datasets.load('brennan_3_2')) is not None\n")
    assert _loaded_after(code, lazy[:4]) == list(lazy[:4])
