"""Tests for irr.inference.error_rate: the corrected critical bound (eq. 2.27), the exact
binomial test of an error rate, Agreement.error_rate_test and the t test over runs.

Exact references are computed here with Python integers: for eps0 = a / D (the exact
binary value of the float) the binomial weights C(n, i) a^i (D - a)^(n - i) are integers
over D^n, and alpha = p / q is compared exactly.
"""

from __future__ import annotations

import math
import re
from fractions import Fraction
from functools import cache

import numpy as np
import pandas as pd
import pytest
from scipy import stats

import irr
from irr._validation import DegenerateDataWarning
from irr.inference.error_rate import (
    CriticalErrorRate,
    ErrorRateTestFamily,
    ErrorRateTestResult,
    binomial_pvalue,
    critical_error_rate,
    error_rate_test,
    error_rate_ttest,
    lower_critical_count,
    upper_critical_count,
)

ALTERNATIVES = ("greater", "less", "two-sided")


# ---------------------------------------------------------------------------------------
# Exact integer arithmetic
# ---------------------------------------------------------------------------------------
GRID_ALPHA = (0.001, 0.01, 0.05, 0.1, 0.25, 0.5)
ALL_ALPHAS = tuple(sorted(set(GRID_ALPHA) | {a / 2 for a in GRID_ALPHA}))


@cache
def exact_bounds(n: int, epsilon0: float) -> dict[float, tuple[int, Fraction, int, Fraction]]:
    """For every alpha in ALL_ALPHAS, exactly: (smallest c with P(X > c) < alpha, that tail,
    largest c with P(X <= c) < alpha or -1, that lower tail).

    One pass over P(X = i) = C(n, i) a^i (D - a)^(n - i) / D^n, with epsilon0 = a / D its
    exact binary value and each alpha at its exact binary value too.
    """
    eps = Fraction(epsilon0)
    a, d = eps.numerator, eps.denominator
    b = d - a
    total = d**n
    # integer thresholds, so the scan only compares: with alpha = p / q and cdf an integer,
    # (total - cdf) q < p total  <=>  cdf > floor((q - p) total / q), and
    # cdf q < p total  <=>  cdf < ceil(p total / q).
    above = {}
    below = {}
    for al in ALL_ALPHAS:
        lv = Fraction(al)
        above[al] = ((lv.denominator - lv.numerator) * total) // lv.denominator
        below[al] = -((-lv.numerator * total) // lv.denominator)
    upper: dict[float, tuple[int, int]] = {}
    lower: dict[float, tuple[int, int]] = {al: (-1, 0) for al in ALL_ALPHAS}
    open_lower = set(ALL_ALPHAS)
    term = b**n
    cdf = 0
    for c in range(n + 1):
        if c:
            term = term * (n - c + 1) * a // (c * b)  # exact: C(n, c) is an integer
        cdf += term
        for al in ALL_ALPHAS:
            if al not in upper and cdf > above[al]:
                upper[al] = (c, total - cdf)
            if al in open_lower:
                if cdf < below[al]:
                    lower[al] = (c, cdf)
                else:
                    open_lower.discard(al)
    assert cdf == total
    return {
        al: (upper[al][0], Fraction(upper[al][1], total), lower[al][0],
             Fraction(lower[al][1], total))
        for al in ALL_ALPHAS
    }


def exact_upper(n: int, epsilon0: float, alpha: float) -> int:
    """Smallest c in 0..n with P(X > c) < alpha, exactly."""
    return exact_bounds(n, epsilon0)[alpha][0]


def exact_lower(n: int, epsilon0: float, alpha: float) -> int:
    """Largest c in -1..n with P(X <= c) < alpha, exactly (-1 if none)."""
    return exact_bounds(n, epsilon0)[alpha][2]


def exact_tail_above(n: int, epsilon0: float, c: int) -> Fraction:
    """P(X > c) exactly, by summing the integer weights directly."""
    eps = Fraction(epsilon0)
    a, d = eps.numerator, eps.denominator
    return Fraction(sum(math.comb(n, i) * a**i * (d - a) ** (n - i) for i in range(c + 1, n + 1)),
                    d**n)


_rng = np.random.default_rng(20240527)
GRID_N = sorted(
    {1, 2, 3, 4, 5, 7, 10, 13, 20, 28, 29, 30, 50, 99, 100, 101, 250, 500, 1000, 2000}
    | set(_rng.integers(1, 601, size=4).tolist())
    | set(_rng.integers(601, 2001, size=2).tolist())
)
GRID_EPS = (0.001, 0.01, 0.05, 0.1, 0.25, 0.5, 0.75, 0.9, 0.99)


GRID_EPS_LARGE_N = (0.01, 0.1, 0.5)  # exact tails cost ~n^2 bits: fewer eps0 for n > 600


def _grid():
    return [
        (n, e, a)
        for n in GRID_N
        for e in (GRID_EPS if n <= 600 else GRID_EPS_LARGE_N)
        for a in GRID_ALPHA
    ]


# ---------------------------------------------------------------------------------------
# The critical bound against exact arithmetic
# ---------------------------------------------------------------------------------------
def test_upper_critical_count_exact_on_grid():
    grid = _grid()
    n, e, a = (np.array(v) for v in zip(*grid, strict=True))
    ours = upper_critical_count(n, e, a)
    expected = [exact_upper(*g) for g in grid]
    mismatches = [(g, int(o), x) for g, o, x in zip(grid, ours, expected, strict=True) if o != x]
    assert not mismatches


def test_lower_critical_count_exact_on_grid():
    grid = _grid()
    n, e, a = (np.array(v) for v in zip(*grid, strict=True))
    ours = lower_critical_count(n, e, a)
    expected = [exact_lower(*g) for g in grid]
    mismatches = [(g, int(o), x) for g, o, x in zip(grid, ours, expected, strict=True) if o != x]
    assert not mismatches


@pytest.mark.parametrize("alternative", ALTERNATIVES)
def test_public_eps_bar_exact_and_size_at_most_alpha(alternative):
    # a sample of the grid through the public function, all three alternatives
    rng = np.random.default_rng(7)
    grid = _grid()
    picks = [grid[i] for i in rng.choice(len(grid), size=120, replace=False)]
    for n, e, a in picks:
        crit = critical_error_rate(n, e, a, alternative)
        up_c, up_tail, lo_c, lo_tail = exact_bounds(n, e)[a]
        if alternative == "greater":
            assert crit.critical_count == up_c
            assert crit.eps_bar == up_c / n
            size = up_tail
        elif alternative == "less":
            assert crit.critical_count == lo_c
            if lo_c < 0:
                assert math.isnan(crit.eps_bar)
                assert "error-free" in crit.note
            else:
                assert crit.eps_bar == lo_c / n
            size = lo_tail
        else:
            hi_c, hi_tail, _, _ = exact_bounds(n, e)[a / 2]
            _, _, low_c, low_tail = exact_bounds(n, e)[a / 2]
            assert crit.critical_count == (low_c, hi_c)
            size = hi_tail + low_tail
        # P(reject | eps = eps0), computed exactly, never exceeds alpha
        assert size <= Fraction(a)
        assert crit.size == pytest.approx(float(size), rel=1e-9, abs=1e-300)


def test_critical_counts_and_sizes_equal_their_previous_form():
    # the search reads every tail of its bracket from one call; before, it called the tail
    # at each step (tests/reference/previous_kernels.py). Same counts and the same sizes,
    # bit for bit, on random batches: n from 1 to 10**6 (and up to 2**53 below), eps0 near 0,
    # 1/2 and 1, alpha from 0.999999 down to 1e-305, exact ties (eps0 = 0.5, alpha = 0.5)
    from irr.inference.error_rate import log_cdf, log_sf
    from tests.reference import previous_kernels

    rng = np.random.default_rng(29)
    for trial in range(30):
        m = int(rng.integers(1, 30))
        n = rng.integers(1, (30, 2000, 10**6)[trial % 3], size=m)
        e = np.where(rng.random(m) < 0.3, rng.choice([0.5, 0.1, 0.25, 0.001, 0.999], m),
                     rng.uniform(1e-6, 1 - 1e-6, m))
        a = np.where(rng.random(m) < 0.3, 10.0 ** -rng.uniform(0, 305, m),
                     rng.choice([0.5, 0.05, 0.025, 0.01, 1e-300, 0.999999], m))
        up, low = upper_critical_count(n, e, a), lower_critical_count(n, e, a)
        assert np.array_equal(up, previous_kernels.upper_critical_count(n, e, a))
        assert np.array_equal(low, previous_kernels.lower_critical_count(n, e, a))
        for i in range(min(m, 2)):  # the public bound and its size, as computed before
            args = int(n[i]), float(e[i]), float(a[i])
            two = critical_error_rate(*args, "two-sided")
            half = args[2] / 2
            high = int(previous_kernels.upper_critical_count(*args[:2], half))
            below = int(previous_kernels.lower_critical_count(*args[:2], half))
            assert two.critical_count == (below, high)
            assert two.size == float(np.exp(log_sf(high, *args[:2]))) + (
                float(np.exp(log_cdf(below, *args[:2]))) if below >= 0 else 0.0)
            assert critical_error_rate(*args).size == float(np.exp(log_sf(up[i], *args[:2])))
    # huge n: the bracket around scipy's quantile, and the whole range where scipy has none
    n, e, a = np.array([10**9, 10**12, 2**53, 2**53]), np.array([0.5, 0.01, 0.5, 0.3]), \
        np.array([0.05, 1e-300, 1e-300, 0.01])
    assert np.array_equal(upper_critical_count(n, e, a),
                          previous_kernels.upper_critical_count(n, e, a))
    assert np.array_equal(lower_critical_count(n, e, a),
                          previous_kernels.lower_critical_count(n, e, a))


def test_exact_ties_are_settled_exactly():
    # P(X > 50) = 0.5 exactly for n = 101, eps0 = 0.5: the strict "< alpha" excludes c = 50,
    # though the floating tail rounds to just below 0.5.
    assert exact_tail_above(101, 0.5, 50) == Fraction(1, 2)
    crit = critical_error_rate(101, 0.5, 0.5)
    assert crit.critical_count == 51 == exact_upper(101, 0.5, 0.5)
    assert critical_error_rate(99, 0.5, 0.5, "less").critical_count == 48
    res = error_rate_test(51, 101, 0.5, alpha=0.5)  # P(X >= 51) = 0.5 = alpha: no rejection
    assert not res.reject
    assert res.pvalue == 0.5
    res = error_rate_test(52, 101, 0.5, alpha=0.5)
    assert res.reject
    assert res.pvalue < 0.5


def test_critical_count_is_the_smallest_valid_one():
    # the bound is tight: one fewer error would give a tail of at least alpha
    for n, e, a in [(100, 0.1, 0.05), (37, 0.3, 0.01), (300, 0.02, 0.05)]:
        c = critical_error_rate(n, e, a).critical_count
        assert exact_tail_above(n, e, c) < Fraction(a) <= exact_tail_above(n, e, c - 1)


def test_book_example_and_mirror_bounds():
    crit = critical_error_rate(n=100, epsilon0=0.10, alpha=0.05)
    assert (crit.critical_count, crit.eps_bar) == (15, 0.15)
    assert crit.size == pytest.approx(0.0398905271110835, rel=1e-12)
    assert crit.rejects(16)
    assert not crit.rejects(15)
    less = critical_error_rate(100, 0.10, 0.05, "less")
    assert (less.critical_count, less.eps_bar) == (4, 0.04)
    both = critical_error_rate(100, 0.10, 0.05, "two-sided")
    assert both.critical_count == (exact_lower(100, 0.1, 0.025), exact_upper(100, 0.1, 0.025))
    assert both.eps_bar == (both.critical_count[0] / 100, both.critical_count[1] / 100)
    assert isinstance(crit, CriticalErrorRate)
    assert "critical_count=15" in repr(crit)
    assert "eps_bar=0.15" in repr(crit)


def test_book_formula_as_printed_gives_a_different_wrong_bound():
    # The printed eq. 2.27: eps_bar = max eps s.t.
    #   sum_{i = eps0*m + 1}^{m} C(m, i) eps^i (1 - eps)^(m - i) < alpha
    # (eps and eps0 swapped inside the sum, max instead of min).
    m, eps0, alpha = 100, 0.10, 0.05
    start = round(eps0 * m) + 1

    def printed_sum(eps: float) -> float:
        return sum(math.comb(m, i) * eps**i * (1 - eps) ** (m - i) for i in range(start, m + 1))

    lo, hi = 0.0, 1.0  # the sum increases with eps; bisect for the largest eps below alpha
    for _ in range(200):
        mid = (lo + hi) / 2
        if printed_sum(mid) < alpha:
            lo = mid
        else:
            hi = mid
    book = lo
    assert book == pytest.approx(0.0629, abs=5e-4)
    assert book < eps0  # a "critical" error rate below eps0 itself: wrong
    assert critical_error_rate(m, eps0, alpha).eps_bar == 0.15
    assert book != pytest.approx(0.15)


def test_unreachable_bounds_are_explained():
    less = critical_error_rate(20, 0.1, 0.05, "less")
    assert less.critical_count == -1
    assert math.isnan(less.eps_bar)
    assert "n = 29" in less.note  # 0.9**29 < 0.05 <= 0.9**28
    assert not less.rejects(0)
    assert less.size == 0.0
    greater = critical_error_rate(2, 0.5, 0.2)  # P(X = 2) = 0.25 >= 0.2
    assert greater.critical_count == 2
    assert greater.eps_bar == 1.0
    assert "no count" in greater.note
    assert critical_error_rate(29, 0.1, 0.05, "less").critical_count == 0


# ---------------------------------------------------------------------------------------
# The binomial test
# ---------------------------------------------------------------------------------------
DECISION_N = [*list(range(1, 61)), 99, 100, 257, 1000]


@pytest.mark.parametrize("alternative", ALTERNATIVES)
def test_decision_by_eps_bar_equals_decision_by_pvalue(alternative):
    for n in DECISION_N:
        x = np.arange(n + 1)
        for e in (0.01, 0.1, 0.3, 0.5, 0.77):
            pvalues = binomial_pvalue(x, n, e, alternative)  # the same for every alpha
            for a in (0.01, 0.05, 0.2):
                crit = critical_error_rate(n, e, a, alternative)
                by_bound = np.array([crit.rejects(int(v)) for v in x])
                by_p = pvalues < a
                assert np.array_equal(by_bound, by_p), (n, e, a, alternative)


@pytest.mark.parametrize("alternative", ALTERNATIVES)
def test_result_reject_matches_pvalue_and_scipy(alternative):
    rng = np.random.default_rng(3)
    for _ in range(60):
        n = int(rng.integers(1, 400))
        errors = int(rng.integers(0, n + 1))
        e = float(rng.uniform(0.01, 0.99))
        a = float(rng.choice([0.01, 0.05, 0.1]))
        res = error_rate_test(errors, n, e, a, alternative)
        assert res.reject == (res.pvalue < a)
        ref = stats.binomtest(errors, n, e, alternative=alternative)
        if alternative != "two-sided":
            assert res.pvalue == pytest.approx(ref.pvalue, rel=1e-12, abs=1e-300)
        else:
            lower = stats.binom.cdf(errors, n, e)
            upper = stats.binom.sf(errors - 1, n, e)
            assert res.pvalue == pytest.approx(min(1.0, 2 * min(lower, upper)), rel=1e-12)
        for method in ("exact", "wilson"):
            ci = res.conf_int(method=method)
            expected = ref.proportion_ci(1 - a, method=method)
            assert (ci.low, ci.high) == pytest.approx((expected.low, expected.high), abs=1e-12)


def test_error_rate_test_fields_summary_and_frame():
    res = error_rate_test(errors=12, n=100, epsilon0=0.10, alpha=0.05)
    assert isinstance(res, ErrorRateTestResult)
    assert res.estimate == 0.12
    assert res.statistic == 12.0
    assert res.n == 100
    assert (res.critical_count, res.eps_bar, res.reject) == (15, 0.15, False)
    assert res.pvalue == pytest.approx(stats.binomtest(12, 100, 0.1, "greater").pvalue)
    assert res.ci.method == "exact"
    assert res.ci.confidence_level == pytest.approx(0.95)
    assert res.ci.high == 1.0  # one-sided, like the test
    two = error_rate_test(12, 100, 0.1, alternative="two-sided", confidence_level=0.9)
    cp = stats.binomtest(12, 100).proportion_ci(0.9, method="exact")
    assert (two.ci.low, two.ci.high) == pytest.approx((cp.low, cp.high))
    # statsmodels' Clopper-Pearson and Wilson agree
    from statsmodels.stats.proportion import proportion_confint

    assert (two.ci.low, two.ci.high) == pytest.approx(
        proportion_confint(12, 100, alpha=0.1, method="beta"), abs=1e-10)
    w = two.conf_int(method="wilson")
    assert (w.low, w.high) == pytest.approx(
        proportion_confint(12, 100, alpha=0.1, method="wilson"), abs=1e-10)

    text = res.summary().as_text()
    for piece in ("H0:", "error rate <= 0.1", "H1:", "error rate > 0.1", "alpha:", "0.05",
                  "eps0:", "Do not reject H0", "errors > 15"):
        assert piece in text
    assert str(res) == text
    assert "<table" in res._repr_html_()
    rejected = error_rate_test(25, 100, 0.10)
    assert "Reject H0: the error rate exceeds 0.1 at alpha = 0.05." in rejected.summary().as_text()
    below = error_rate_test(2, 100, 0.10, alternative="less")
    assert below.reject
    assert below.decision == "Reject H0: the error rate is below 0.1 at alpha = 0.05."
    frame = res.to_frame()
    assert list(frame.columns) == list(irr.results.FRAME_COLUMNS)
    assert frame.loc["Error rate", "estimate"] == 0.12
    d = res.to_dict()
    assert d["critical_count"] == 15
    assert d["eps_bar"] == 0.15
    assert d["reject"] is False
    assert "reject=False" in repr(res)
    assert "critical_count=15" in repr(res)


# ---------------------------------------------------------------------------------------
# Agreement.error_rate_test
# ---------------------------------------------------------------------------------------
def test_agreement_two_raters_counts_disagreements():
    a = [1, 2, 3, 3, 2, 1, 4, 4, 2, 1]
    b = [1, 2, 3, 2, 2, 1, 4, 2, 2, 3]
    res = irr.Agreement(a, b).error_rate_test(0.1)
    assert res.errors == 3
    assert res.n == 10
    plain = error_rate_test(3, 10, 0.1)
    assert res.pvalue == plain.pvalue
    assert res.critical_count == plain.critical_count
    assert res.raters == ("rater1", "rater2")  # in the data order, as every sentence names them
    # tolerance = 1 on ordinal scores: only |a - b| > 1 is an error
    tol = irr.Agreement(a, b).error_rate_test(0.1, tolerance=1)
    assert tol.errors == 2
    assert tol.tolerance == 1
    assert "|a - b| > 1" in tol.summary().as_text()
    # the same from the table
    ag = irr.Agreement(a, b)
    from_table = irr.Agreement.from_table(ag.table.to_numpy(), categories=[1, 2, 3, 4])
    assert from_table.error_rate_test(0.1, tolerance=1).errors == 2
    # tolerance uses the numeric scores: 1 vs 4 is 3 apart
    assert irr.Agreement([1, 4], [4, 4]).error_rate_test(0.1, tolerance=2).errors == 1


def test_agreement_missing_pairs_are_left_out_and_counted():
    a = [1, 2, None, 3, 2, np.nan]
    b = [1, 3, 2, 3, None, 1]
    res = irr.Agreement(a, b).error_rate_test(0.2)
    assert (res.errors, res.n, res.n_missing) == (1, 3, 3)
    assert "3 subject(s) with a missing rating were left out" in res.summary().as_text()


def test_agreement_multi_rater_family():
    video = irr.datasets.load("video")
    ag = irr.Agreement.from_frame(video)
    fam = ag.error_rate_test(0.3, reference="rater1", tolerance=0)
    assert isinstance(fam, ErrorRateTestFamily)
    assert fam.raters == ("rater2", "rater3", "rater4")
    assert len(fam) == 3
    for rater in fam.raters:
        errors = int((video[rater] != video["rater1"]).sum())
        single = irr.Agreement(video[rater], video["rater1"]).error_rate_test(0.3)
        assert fam[rater].errors == errors == single.errors
        assert fam[rater].pvalue == single.pvalue
    frame = fam.to_frame()
    assert list(frame.index) == ["rater2", "rater3", "rater4"]
    assert {"errors", "eps_bar", "critical_count", "reject"} <= set(frame.columns)
    text = fam.summary().as_text()
    assert all(r in text for r in fam.raters)
    assert "against rater1" in text
    assert "no adjustment for multiple comparisons" in text
    assert fam[0] is fam["rater2"]
    assert set(fam.reject) == set(fam.raters)
    assert "ErrorRateTestFamily(reference='rater1'" in repr(fam)
    # a non-first reference
    fam4 = ag.error_rate_test(0.3, reference="rater4")
    assert fam4.raters == ("rater1", "rater2", "rater3")
    assert fam4["rater1"].errors == fam["rater4"].errors


def test_ttest_matches_scipy():
    rates = np.array([0.12, 0.15, 0.11, 0.14, 0.13, 0.09, 0.16])
    for alternative in ALTERNATIVES:
        res = error_rate_ttest(rates, 0.1, alpha=0.05, alternative=alternative)
        ref = stats.ttest_1samp(rates, 0.1, alternative=alternative)
        assert res.statistic == pytest.approx(ref.statistic, rel=1e-12)
        assert res.pvalue == pytest.approx(ref.pvalue, rel=1e-10)
        assert res.df == 6
        assert res.k == 7
        ci = ref.confidence_interval(0.95)
        assert (res.ci.low, res.ci.high) == pytest.approx((ci.low, ci.high), rel=1e-10)
        assert res.reject == (res.pvalue < 0.05)
        t_manual = math.sqrt(7) * (rates.mean() - 0.1) / rates.std(ddof=1)
        assert res.statistic == pytest.approx(t_manual)
    text = error_rate_ttest(rates, 0.1).summary().as_text()
    assert "mean error rate <= 0.1" in text
    assert "Reject H0" in text


def test_ttest_zero_variance_warns():
    with pytest.warns(DegenerateDataWarning, match="standard deviation is 0"):
        res = error_rate_ttest([0.1, 0.1, 0.1], 0.2)
    assert math.isnan(res.statistic)
    assert math.isnan(res.pvalue)
    assert not res.reject


# ---------------------------------------------------------------------------------------
# Bad input
# ---------------------------------------------------------------------------------------
BAD_CALLS = [
    (lambda: error_rate_test(101, 100, 0.1), ValueError, r"`errors` must be at most `n` = 100; got 101"),
    (lambda: error_rate_test(-1, 100, 0.1), ValueError, r"`errors` must be at least 0; got -1"),
    (lambda: error_rate_test(2.5, 100, 0.1), TypeError, r"`errors` must be an integer; got 2.5"),
    (lambda: error_rate_test(1, 0, 0.1), ValueError, r"`n` must be at least 1; got 0"),
    (lambda: error_rate_test(1, 10.5, 0.1), TypeError, r"`n` must be an integer; got 10.5"),
    (lambda: error_rate_test(1, 10, 0.0), ValueError, r"`epsilon0` must be in \(0, 1\); got 0.0"),
    (lambda: error_rate_test(1, 10, 1.2), ValueError, r"`epsilon0` must be in \(0, 1\); got 1.2"),
    (lambda: error_rate_test(1, 10, "0.1"), TypeError, r"`epsilon0` must be a real number"),
    (lambda: error_rate_test(1, 10, 0.1, alpha=1.0), ValueError, r"`alpha` must be in \(0, 1\); got 1.0"),
    (lambda: error_rate_test(1, 10, 0.1, alpha=0), ValueError, r"`alpha` must be in \(0, 1\)"),
    (lambda: error_rate_test(1, 10, 0.1, alternative="bigger"), ValueError,
     r"`alternative` must be one of 'two-sided', 'greater', 'less'; got 'bigger'"),
    (lambda: error_rate_test(1, 10, 0.1, confidence_level=95), ValueError, r"`confidence_level`"),
    (lambda: critical_error_rate(0, 0.1), ValueError, r"`n` must be at least 1; got 0"),
    (lambda: critical_error_rate(10, -0.1), ValueError, r"`epsilon0` must be in \(0, 1\); got -0.1"),
    (lambda: critical_error_rate(10, 0.1, alpha=1.5), ValueError, r"`alpha` must be in \(0, 1\); got 1.5"),
    (lambda: critical_error_rate(10, 0.1, alternative="two_sided"), ValueError,
     r"`alternative` must be one of"),
    (lambda: error_rate_test(1, 10, 0.1).conf_int(method="wald"), ValueError,
     r"`method` must be one of 'exact', 'wilson'; got 'wald'"),
    (lambda: irr.Agreement([1, 2], [1, 1], [2, 2]).error_rate_test(0.1, reference="rater9"),
     ValueError, r"`reference` must be one of the raters \['rater1', 'rater2', 'rater3'\]; got 'rater9'"),
    (lambda: irr.Agreement([1, 2], [1, 1], [2, 2]).error_rate_test(0.1), ValueError,
     r"`reference` must name the reference rater when there are more than two raters"),
    (lambda: irr.Agreement(["a", "b"], ["a", "a"]).error_rate_test(0.1, tolerance=1), ValueError,
     r"`tolerance` must be 0 for unordered categories \(got 1\)"),
    (lambda: irr.Agreement([1, 2], [1, 1]).error_rate_test(0.1, tolerance=-1), ValueError,
     r"`tolerance` must be a finite non-negative number; got -1.0"),
    (lambda: irr.Agreement([1, 2], [1, 1]).error_rate_test(0.1, tolerance="1"), TypeError,
     r"`tolerance` must be a non-negative number; got '1'"),
    (lambda: irr.Agreement([1, None], [None, 1]).error_rate_test(0.1), ValueError,
     r"No subject has ratings from both"),
    (lambda: error_rate_ttest([0.1], 0.1), ValueError, r"`error_rates` must hold at least two rates; got 1"),
    (lambda: error_rate_ttest([0.1, 1.2], 0.1), ValueError,
     r"`error_rates` must be finite rates in \[0, 1\]; got \[1.2\]"),
    (lambda: error_rate_ttest([0.1, np.nan], 0.1), ValueError, r"`error_rates` must be finite rates"),
    (lambda: error_rate_ttest([[0.1, 0.2]], 0.1), ValueError, r"`error_rates` must be 1-D"),
    (lambda: error_rate_ttest(["a", "b"], 0.1), TypeError, r"`error_rates` must be numeric"),
    (lambda: error_rate_ttest(0.1, 0.1), TypeError, r"`error_rates` must be a 1-D array-like"),
    (lambda: error_rate_ttest([0.1, 0.2], 1.0), ValueError, r"`epsilon0` must be in \(0, 1\)"),
    (lambda: error_rate_ttest([0.1, 0.2], 0.1, alternative="up"), ValueError,
     r"`alternative` must be one of"),
]


@pytest.mark.parametrize(("call", "error", "message"), BAD_CALLS)
def test_bad_input(call, error, message):
    with pytest.raises(error, match=message):
        call()


def test_series_input_for_ttest():
    res = error_rate_ttest(pd.Series([0.05, 0.07, 0.06]), 0.1, alternative="less")
    assert res.reject
    assert res.k == 3


def test_summary_says_what_an_error_is():
    # the header said "Tolerance: 0", which does not say of what
    ag = irr.Agreement.from_frame(irr.datasets.load("vision"))
    exact = ag.error_rate_test(0.35, tolerance=0, alternative="less").summary().as_text()
    assert re.search(r"Error:\s+any disagreement\s", exact)
    assert "Tolerance:" not in exact
    assert re.search(r"\bn:\s+7,477\s", exact)  # with its thousands separator
    near = ag.error_rate_test(0.35, tolerance=1, alternative="less")
    assert re.search(r"Error:\s+\|score difference\| > 1\s", near.summary().as_text())
    # vision: 2,181 disagreements of 7,477, of which 1,678 are one grade apart (the two
    # diagonals next to the main one of ag.table): 503 remain with tolerance=1
    table = ag.table.to_numpy()
    apart = table.sum() - np.trace(table) - np.trace(table, 1) - np.trace(table, -1)
    assert near.errors == apart == 503


def test_error_rate_names_the_pair_in_the_data_order_as_kappa_does():
    rng = np.random.default_rng(1)
    human = rng.choice(["spam", "ham"], 200)
    model = np.where(rng.random(200) < 0.85, human, np.where(human == "spam", "ham", "spam"))
    ag = irr.Agreement.from_frame(pd.DataFrame({"human": human, "model": model}))
    assert "between human and model" in ag.kappa().report()
    for reference in (None, "human", "model"):
        res = ag.error_rate_test(0.2, reference=reference)
        assert res.coefficient == "Error rate (human vs model)"
        assert res.raters == ("human", "model")
        assert "between human and model" in res.report()
    assert "Reference: model." in ag.error_rate_test(0.2, reference="model").notes


def test_critical_counts_and_power_broadcast_to_any_shape():
    """The counts and the power take arrays of any shape (their arguments broadcast), as
    element-by-element calls give them."""
    from irr.plan.error_rate_plan import error_rate_power

    n, eps = np.array([100, 200]), np.array([[0.05], [0.1]])
    up, low = upper_critical_count(n, eps, 0.05), lower_critical_count(n, eps, 0.05)
    assert up.shape == low.shape == (2, 2)
    for i in range(2):
        for j in range(2):
            assert up[i, j] == upper_critical_count(int(n[j]), float(eps[i, 0]), 0.05)
            assert low[i, j] == lower_critical_count(int(n[j]), float(eps[i, 0]), 0.05)
    power = error_rate_power(np.array([[100], [179]]), [0.10, 0.2], 0.05, 0.05, "less")
    assert power.shape == (2, 2)
    assert power[1, 0] == error_rate_power(179, 0.10, 0.05, 0.05, "less")
    assert power[0, 0] == pytest.approx(0.436, abs=5e-4)  # as before the vectorised search
