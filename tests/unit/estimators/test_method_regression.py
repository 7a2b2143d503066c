"""Method-comparison regression: Deming and Passing–Bablok (issue #18).

Published values: mcr's creatinine example (Passing–Bablok) and Wicklin's (2019) blood
test example (Deming), both with their data in ``tests/reference/method_regression_reference.py``,
which also holds the independent implementations (explicit-loop Passing–Bablok,
orthogonal regression by SVD, leave-one-out jackknife loop).
"""

from __future__ import annotations

import math
import pickle
import re
import warnings

import numpy as np
import pandas as pd
import pytest

import irr
import tests.reference.method_regression_reference as ref
from irr._measurements import Measurements
from irr.coefficients.method_regression import (
    concordant_pairs,
    count_inversions,
    cusum_linearity,
    decimal_grid,
    deming_jackknife,
    deming_jackknife_intercepts,
    deming_slope,
    kendall_tau_b,
    passing_bablok_oriented,
    passing_bablok_shifted_median,
    passing_bablok_slopes,
    shifted_median,
)
from irr.estimators.method_regression import replicate_error_ratio


@pytest.fixture(scope="module")
def creatinine():
    x, y = ref.pairs(ref.CREATININE)
    return x, y


# -- Passing–Bablok: published values -------------------------------------------------------
def test_passing_bablok_creatinine_mcr(creatinine):
    # R mcr, mcreg(method.reg="PaBa", method.ci="analytical") on its `creatinine` data, as
    # printed in Wicklin (2022, The DO Loop, SAS program of "Passing-Bablok regression in
    # SAS"): slope 1.0880089 [1.0000000, 1.173005], intercept -0.1171729 [-0.2001149, -0.02]
    res = irr.passing_bablok(*creatinine)
    assert res.n_subjects == 108
    assert res.n_missing == 2
    assert res.slope == pytest.approx(1.0880089, abs=5e-8)
    assert res.intercept == pytest.approx(-0.1171729, abs=5e-8)
    assert res.ci.low == pytest.approx(1.0, abs=1e-12)
    assert res.intercept_ci.high == pytest.approx(-0.02, abs=1e-12)
    # the upper slope limit: Passing & Bablok's rank M2 + K = 3694 (M1 rounded) gives
    # 1.1730769; mcr's 1.173005 is the tangent of the mean angle of ranks 3693 and 3694
    # (it does not round M1), and its intercept limit -0.2001149 follows from that slope
    assert res.ci.high == pytest.approx(1.1730769230769, abs=1e-12)
    s = np.sort(passing_bablok_slopes(res.x, res.y))
    mcr_high = math.tan((math.atan(s[3692]) + math.atan(s[3693])) / 2)
    assert mcr_high == pytest.approx(1.173005, abs=5e-7)
    assert np.median(res.y - mcr_high * res.x) == pytest.approx(-0.2001149, abs=5e-7)
    assert res.intercept_ci.low == pytest.approx(np.median(res.y - res.ci.high * res.x))


@pytest.mark.parametrize("seed", range(6))
def test_passing_bablok_equals_explicit_loop(seed):
    rng = np.random.default_rng(seed)
    n = 7 + 5 * seed
    x = np.round(rng.uniform(1, 10, n), 1)  # rounded: ties, vertical pairs, 0/0 pairs
    y = np.round(0.5 + 1.1 * x + rng.normal(0, 0.6, n), 1)
    if seed == 0:
        y[1] = y[0] - (x[1] - x[0])  # a slope of exactly -1
    res = irr.passing_bablok(x, y)
    b, low, high, a = ref.brute_passing_bablok(list(x), list(y))
    assert res.slope == pytest.approx(b, rel=1e-13)
    assert res.intercept == pytest.approx(a, rel=1e-12, abs=1e-12)
    for got, want in ((res.ci.low, low), (res.ci.high, high)):
        assert (math.isnan(got) and math.isnan(want)) or got == pytest.approx(want, rel=1e-13)


def test_passing_bablok_order_invariant_and_chunked(creatinine, monkeypatch):
    x, y = creatinine
    res = irr.passing_bablok(x, y)
    perm = np.random.default_rng(3).permutation(x.size)
    again = irr.passing_bablok(x[perm], y[perm])
    assert (again.slope, again.intercept, tuple(again.ci)) == (res.slope, res.intercept,
                                                               tuple(res.ci))
    import irr.coefficients.method_regression as mr

    monkeypatch.setattr(mr, "_BLOCK_PAIRS", 7)  # many small blocks: same slopes
    small = irr.passing_bablok(x, y)
    assert (small.slope, tuple(small.ci)) == (res.slope, tuple(res.ci))


def test_passing_bablok_limits_and_special_pairs():
    x = np.array([1.0, 1.0, 1.0, 2.0])
    y = np.array([1.0, 1.0, 3.0, 2.0])
    slopes = np.sort(passing_bablok_slopes(x, y))
    # (1,1)-(1,1) is 0/0 (left out); (1,1)-(1,3) vertical: +inf, twice
    # pairs: (1,1)-(1,1) is 0/0 and left out; (1,1)-(1,3) twice vertical: +inf;
    # (1,1)-(2,2) twice: 1; (1,3)-(2,2): -1, left out
    assert slopes.tolist() == [1.0, 1.0, math.inf, math.inf]
    with pytest.raises(ValueError, match="at least 3"):
        irr.passing_bablok([1.0, 2.0], [1.0, 2.0])
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        with pytest.raises(irr.DegenerateDataWarning, match="undefined"):
            irr.passing_bablok([1.0, 2.0, 3.0, 4.0], [1.1, 2.0, 3.2, 3.9])


# -- Passing–Bablok by slope selection: the same floats as forming every slope ---------------
def _pb_data(rng, n, kind):
    """Random pairs with the awkward cases: ties in x and in y, duplicate points, vertical
    pairs, slopes of exactly -1, negative relations, a few distinct values."""
    x = rng.uniform(0, 10, n)
    y = 1 + 1.1 * x + rng.normal(0, 1, n)
    if kind == "integers":
        x, y = np.round(x), np.round(y)
    elif kind == "one decimal":
        x, y = np.round(x, 1), np.round(y, 1)
    elif kind == "negative":
        x, y = np.round(x), np.round(-y + rng.normal(0, 3, n))
    elif kind == "duplicates":
        idx = rng.integers(0, n, max(n // 3, 2))
        x[idx[: idx.size // 2]] = x[0]
        y[idx] = y[1]
        x = np.round(x, 2)
    elif kind == "few values":
        x = rng.integers(0, 5, n).astype(float)
        y = rng.integers(0, 5, n).astype(float)
    elif kind == "minus one":  # many pairs with slope exactly -1: x + y in few values
        x = rng.integers(0, 40, n).astype(float)
        y = rng.integers(0, 6, n) * 4.0 - x
    return x, y


@pytest.mark.parametrize("kind", ["continuous", "integers", "one decimal", "negative",
                                  "duplicates", "few values", "minus one"])
@pytest.mark.parametrize("n", [3, 4, 7, 30, 200, 1500])
def test_slope_selection_equals_sorting_every_slope(kind, n):
    rng = np.random.default_rng(n * 7 + len(kind))
    x, y = _pb_data(rng, n, kind)
    for z in (1.959963984540054, 2.5758293035489):
        want = shifted_median(passing_bablok_slopes(*decimal_grid(x, y)), n, z)
        got = passing_bablok_shifted_median(x, y, z, method="select")
        assert len(got) == len(want) == 5
        for a, b in zip(got, want, strict=True):  # bit for bit, nan where nan
            assert (a != a and b != b) or a == b, (got, want)


def test_slope_selection_at_thousands_of_pairs():
    rng = np.random.default_rng(11)
    for kind in ("continuous", "one decimal", "minus one"):
        x, y = _pb_data(rng, 4000, kind)
        want = shifted_median(passing_bablok_slopes(*decimal_grid(x, y)), x.size,
                              1.959963984540054)
        got = passing_bablok_shifted_median(x, y, 1.959963984540054)  # auto: selection
        assert got == want


def test_slope_selection_holds_many_equal_slopes_as_counts(monkeypatch):
    import irr.coefficients.method_regression as mr

    rng = np.random.default_rng(8)
    x, y = _pb_data(rng, 2100, "integers")  # large groups of equal slopes at the median
    want = shifted_median(passing_bablok_slopes(*decimal_grid(x, y)), x.size, 1.96)
    monkeypatch.setattr(mr, "_HELD", -10**9)  # counts after every block of candidates
    monkeypatch.setattr(mr, "_CANDIDATES", 2**12)
    assert passing_bablok_shifted_median(x, y, 1.96, method="select") == want


@pytest.mark.parametrize("decimals", [0, 1, 2])
def test_slope_selection_of_rounded_data_at_five_thousand_pairs(decimals):
    # rounded data put huge blocks of equal slopes at the ranks wanted; the selection
    # certifies them by exact counts, the reference sorts all 12.5 million slopes
    rng = np.random.default_rng(40 + decimals)
    x = np.round(rng.uniform(0, 10, 5000), decimals)
    y = np.round(1 + 1.1 * x + rng.normal(0, 1, 5000), decimals)
    want = shifted_median(passing_bablok_slopes(*decimal_grid(x, y)), x.size, 1.96)
    assert passing_bablok_shifted_median(x, y, 1.96, method="select") == want


def test_slope_selection_certifies_tied_ranks_without_listing(monkeypatch):
    import irr.coefficients.method_regression as mr

    rng = np.random.default_rng(9)
    x, y = _pb_data(rng, 3000, "integers")
    want = shifted_median(passing_bablok_slopes(x, y), x.size, 1.96)

    def no_listing(*args, **kwargs):
        raise AssertionError("a band was listed")

    monkeypatch.setattr(mr._Points, "band", no_listing)
    assert passing_bablok_shifted_median(x, y, 1.96, method="select") == want


def test_decimal_grid_scales_only_rounded_data():
    assert [v.tolist() for v in decimal_grid(np.array([0.1, 0.3]), np.array([2.0, 0.25]))] \
        == [[10.0, 30.0], [200.0, 25.0]]
    x, y = np.array([0.1, 1 / 3]), np.array([1.0, 2.0])
    assert decimal_grid(x, y)[0] is x  # not on a grid of at most 6 decimals
    big = np.array([1e8, 2.0])
    assert decimal_grid(big, big)[0] is big  # beyond 2**26: not compared exactly
    # from the decimal doubles a slope of exactly -1 can be missed; from the grid it is not
    x, y = np.array([0.1, 0.2]), np.array([0.3, 0.2])
    assert (y[1] - y[0]) / (x[1] - x[0]) != -1.0
    gx, gy = decimal_grid(x, y)
    assert (gy[1] - gy[0]) / (gx[1] - gx[0]) == -1.0


@pytest.mark.parametrize("kind", ["continuous", "integers", "one decimal", "negative",
                                  "duplicates", "few values", "minus one"])
def test_oriented_selection_counts_kendall_tau_and_mirrors(kind):
    # tau from the selection's count at 0 is kendall_tau_b's float (itself checked
    # against scipy), and a negative relation selects among the slopes of (x, -y)
    rng = np.random.default_rng(len(kind))
    for n in (5, 60, 700):
        x, y = _pb_data(rng, n, kind)
        tau, fit = passing_bablok_oriented(x, y, 1.96, method="select")
        assert tau == kendall_tau_b(x, y)
        gx, gy = decimal_grid(x, y)
        want = shifted_median(passing_bablok_slopes(gx, -gy if tau < 0 else gy), n, 1.96)
        assert all((a != a and b != b) or a == b for a, b in zip(fit, want, strict=True))
        assert passing_bablok_oriented(x, y, 1.96, method="sort") == (
            tau, passing_bablok_shifted_median(x, -y if tau < 0 else y, 1.96, method="sort"))
    tau, fit = passing_bablok_oriented(np.arange(5.0), np.full(5, 2.0), 1.96, method="select")
    assert math.isnan(tau)
    assert math.isnan(fit[0])


def test_slope_selection_edge_designs():
    # every x equal (all pairs vertical or 0/0), two distinct x, a perfect line
    for x, y in [(np.full(6, 2.0), np.arange(6.0)), (np.repeat([1.0, 2.0], 4), np.arange(8.0)),
                 (np.arange(40.0), 3 * np.arange(40.0) + 1),
                 (np.arange(40.0), np.r_[np.arange(20.0), np.arange(20.0)[::-1]])]:
        want = shifted_median(passing_bablok_slopes(*decimal_grid(x, y)), x.size, 1.96)
        got = passing_bablok_shifted_median(x, y, 1.96, method="select")
        assert all((a != a and b != b) or a == b for a, b in zip(got, want, strict=True))


def test_count_inversions_and_concordant_pairs_against_loops():
    rng = np.random.default_rng(4)
    for n in (0, 1, 2, 3, 8, 9, 31, 100, 513):
        r = rng.permutation(n)
        loop = sum(1 for i in range(n) for j in range(i + 1, n) if r[i] < r[j])
        assert count_inversions(r) == loop
    x = rng.integers(0, 6, 80).astype(float)
    y = rng.integers(0, 6, 80).astype(float)
    s = np.sign((x[None, :] - x[:, None]) * (y[None, :] - y[:, None]))[np.triu_indices(80, 1)]
    tx = int((x[None, :] == x[:, None])[np.triu_indices(80, 1)].sum())
    ty = int((y[None, :] == y[:, None])[np.triu_indices(80, 1)].sum())
    assert concordant_pairs(x, y) == (int((s > 0).sum()), int((s < 0).sum()), tx, ty)
    from scipy import stats

    assert kendall_tau_b(x, y) == pytest.approx(stats.kendalltau(x, y).statistic, rel=1e-12)


def test_passing_bablok_takes_more_than_ten_thousand_pairs():
    rng = np.random.default_rng(2)
    x = rng.uniform(50, 150, 12_000)
    y = 2 + 0.98 * x + rng.normal(0, 3, x.size)
    res = irr.passing_bablok(x, y)  # refused before (10,000 at most)
    assert res.ci.low < res.slope < res.ci.high
    assert res.slope == pytest.approx(0.98, abs=0.01)


# -- Passing–Bablok with a negative relation (Bablok et al. 1988) ------------------------------
def _td75_like():
    """A negative relation as mcr's td75 example (Kendall's tau about -0.8): slope about -1,
    intercept about 100."""
    rng = np.random.default_rng(75)
    x = np.round(rng.uniform(10, 90, 60), 1)
    y = np.round(100 - x + rng.normal(0, 4, 60), 1)
    return x, y


def test_passing_bablok_negative_relation_is_the_mirror_image():
    x, y = _td75_like()
    assert kendall_tau_b(x, y) < -0.7
    res = irr.passing_bablok(x, y)
    # never a positive slope for a negative relation (was +0.863 on mcr's td75 data)
    assert res.slope < 0
    assert res.ci.high < 0
    assert res.slope == pytest.approx(-1, abs=0.1)
    assert res.intercept == pytest.approx(100, abs=6)
    # the 1988 procedure for a negative slope: the 1983 estimator of (x, -y), negated
    b, low, high, _ = ref.brute_passing_bablok(list(x), list(-y))
    assert res.slope == -b
    assert (res.ci.low, res.ci.high) == (-high, -low)
    assert res.intercept == pytest.approx(float(np.median(y - res.slope * x)), abs=0)
    assert any("Negative relation (Kendall's tau = -0." in note for note in res.notes)
    assert res.conf_int(0.9).high < 0
    # the cusum test of the mirror image: its points below the line are those above here
    stat, n_below, _ = cusum_linearity(x, -y, -res.slope, -res.intercept)
    assert res.linearity_statistic == stat
    assert n_below == int((y > res.intercept + res.slope * x).sum())
    # the same by explicit rule: slopes of +1 left out, vertical pairs -inf, the median
    # shifted down by the slopes above +1
    s = sorted((y[j] - y[i]) / (x[j] - x[i]) if x[i] != x[j] else -math.inf
               for i in range(x.size) for j in range(x.size)
               if (x[i], y[i]) < (x[j], y[j]) and y[j] - y[i] != x[j] - x[i])
    assert s[0] == -math.inf  # the data have vertical pairs
    k = sum(1 for v in s if v > 1)
    big_n = len(s)
    mid = s[(big_n + 1) // 2 - k - 1] if big_n % 2 else (s[big_n // 2 - k - 1] + s[big_n // 2 - k]) / 2
    assert res.slope == pytest.approx(mid, rel=1e-15)


def test_passing_bablok_decreasing_line():
    x = np.arange(1.0, 11.0)
    with warnings.catch_warnings():
        warnings.simplefilter("error")  # no warning: every slope is -1
        res = irr.passing_bablok(x, 12 - x)
    assert (res.slope, res.ci.low, res.ci.high) == (-1.0, -1.0, -1.0)
    assert res.intercept == 12.0


def test_passing_bablok_constant_method_is_refused():
    with pytest.raises(ValueError, match="Kendall's tau"):
        irr.passing_bablok([1.0, 2.0, 3.0, 4.0], [5.0, 5.0, 5.0, 5.0])


def test_cusum_detects_curvature():
    x = np.linspace(1, 10, 60)
    linear = irr.passing_bablok(x, x + np.random.default_rng(7).normal(0, 0.3, 60))
    curved = irr.passing_bablok(x, x + 0.08 * (x - 5.5) ** 2)
    assert linear.linearity_pvalue > 0.2
    assert curved.linearity_pvalue < 0.01
    stat, n_below, cusum = cusum_linearity(x, x + 0.08 * (x - 5.5) ** 2, curved.slope,
                                           curved.intercept)
    assert cusum[-1] == pytest.approx(0.0, abs=1e-9)  # the scores sum to zero
    # Passing & Bablok (1983): reject when max |cusum| > h sqrt(L + 1), L points below
    below = x + 0.08 * (x - 5.5) ** 2 < curved.intercept + curved.slope * x
    assert n_below == int(below.sum())
    assert stat == pytest.approx(np.abs(cusum).max() / math.sqrt(n_below + 1))


# -- Deming: published values and independent checks -----------------------------------------
def test_deming_wicklin_blood_test():
    # Wicklin (2019), The DO Loop, "Deming regression for comparing different measurement
    # methods": delta = var(y error)/var(x error) = Sxx/Syy gives intercept -10.56415 and
    # slope 0.354463. Our lambda is the inverse: Syy/Sxx.
    x, y = ref.pairs(ref.BLOODTEST)
    lam = np.var(y, ddof=1) / np.var(x, ddof=1)
    res = irr.deming(x, y, error_ratio=lam)
    assert res.n_subjects == 65
    assert res.slope == pytest.approx(0.354463, abs=5e-7)
    assert res.intercept == pytest.approx(-10.56415, abs=5e-6)


@pytest.mark.parametrize("seed", range(4))
def test_deming_lambda_one_is_orthogonal_regression(seed):
    rng = np.random.default_rng(seed)
    t = rng.uniform(50, 150, 40)
    x = t + rng.normal(0, 5, 40)
    y = (-3 + 1.05 * t + rng.normal(0, 5, 40)) * (1 if seed % 2 else -1)
    res = irr.deming(x, y)
    slope, intercept = ref.orthogonal_svd(x, y)
    assert res.slope == pytest.approx(slope, rel=1e-10)
    assert res.intercept == pytest.approx(intercept, rel=1e-9, abs=1e-9)


@pytest.mark.parametrize("lam", [0.25, 1.0, 3.0])
def test_deming_jackknife_equals_leave_one_out_loop(lam):
    x, y = ref.pairs(ref.BLOODTEST)
    res = irr.deming(x, y, error_ratio=lam)
    assert (res.slope, res.intercept) == pytest.approx(ref.deming_direct(x, y, lam), rel=1e-12)
    se_slope, se_intercept = ref.jackknife_loop(x, y, lam)
    assert res.se == pytest.approx(se_slope, rel=1e-9)
    assert res.intercept_se == pytest.approx(se_intercept, rel=1e-9)
    from scipy import stats

    t = stats.t.ppf(0.975, 63)
    assert res.ci.low == pytest.approx(res.slope - t * se_slope, rel=1e-9)
    assert res.statistic == pytest.approx((res.slope - 1) / se_slope, rel=1e-9)
    assert res.pvalue == pytest.approx(2 * stats.t.sf(abs(res.statistic), 63), rel=1e-9)
    assert res.intercept_pvalue == pytest.approx(
        2 * stats.t.sf(abs(res.intercept / se_intercept), 63), rel=1e-9)


@pytest.mark.parametrize("seed", range(8))
def test_deming_jackknife_values_equal_refits(seed):
    # each leave-one-out slope and intercept from the moment sums less the point's own
    # terms, against refitting on the n - 1 other points (the published formula by
    # np.cov); negative relations and error ratios far from 1 included
    rng = np.random.default_rng(seed)
    n = int(rng.integers(3, 50))
    x = rng.normal(10, 3, n)
    y = (1 if seed % 2 else -1) * (x + rng.normal(0, rng.uniform(0.1, 5), n))
    lam = [0.01, 0.3, 1.0, 4.0, 100.0, 1.0, 0.5, 2.0][seed]
    slopes, intercepts = deming_jackknife(x, y, lam)
    refits = np.array([ref.deming_direct(np.delete(x, i), np.delete(y, i), lam)
                       for i in range(n)])
    np.testing.assert_allclose(slopes, refits[:, 0], rtol=1e-10)
    np.testing.assert_allclose(intercepts, refits[:, 1], rtol=1e-10, atol=1e-10)


@pytest.mark.parametrize("seed", range(3))
def test_deming_intercept_se_is_the_jackknife_of_the_intercepts(seed):
    # deming_fit's intercept SE comes from q = b_(-i) ((n - 1) mx - u_i) + v_i, not from the
    # intercepts; against the jackknife of the leave-one-out intercepts themselves (those
    # the result makes when first read), on data near and far from 0 and scaled by 1e-80
    # and 1e80 (u and v times a power of two)
    rng = np.random.default_rng(300 + seed)
    checked = 0
    for x, y, lam in _deming_problems(rng, scaled=True):
        res = irr.deming(x, y, error_ratio=lam) if np.cov(x, y)[0, 1] else None
        if res is None or not np.isfinite(res.jackknife_slopes).all():
            continue
        n = x.size
        intercepts = res.jackknife_intercepts
        np.testing.assert_array_equal(intercepts,
                                      deming_jackknife_intercepts(x, y, res.jackknife_slopes))
        direct = math.sqrt((n - 1) / n * np.sum((intercepts - intercepts.mean()) ** 2))
        assert res.intercept_se == pytest.approx(direct, rel=1e-11)
        slopes = res.jackknife_slopes
        assert res.se == pytest.approx(
            math.sqrt((n - 1) / n * np.sum((slopes - slopes.mean()) ** 2)), rel=1e-12)
        checked += 1
    assert checked >= 30  # of 40: those with Sxy = 0 left out


def _deming_problems(rng: np.random.Generator, scaled: bool):
    """40 Deming fits' (x, y, error ratio): relations of both signs, error ratios far from
    1, means far from 0 (intercepts by cancellation); every fourth with lambda Syy = Sxx
    (the leave-one-out d about 0, both signs), every eighth with Sxy = 0 exactly (and 0
    without the point at x = mean(x) too), and, when `scaled`, two in eight scaled by
    1e-80 and 1e80."""
    for trial in range(40):
        n = int(rng.integers(3, 3000))
        lam = float(rng.choice([0.01, 0.3, 1.0, 4.0, 100.0]))
        x = rng.normal(rng.uniform(-100, 100), rng.uniform(0.01, 10), n)
        y = rng.choice([-1, 1]) * (rng.uniform(0.1, 3) * x
                                    + rng.normal(0, rng.uniform(0.01, 10), n))
        if trial % 4 == 1:
            y = (y - y.mean()) * math.sqrt(x.var() / (lam * y.var())) + y.mean()
        elif trial % 8 == 2:
            x, y = np.array([-1.0, 1, 0, 2, -2]), np.array([1.0, 1, 5, 4, 4])
        elif scaled and trial % 8 == 3:
            x, y = x * 1e-80, y * 1e-80
        elif scaled and trial % 8 == 7:
            x, y = x * 1e80, y * 1e80
        yield x, y, lam


@pytest.mark.parametrize("seed", range(6))
def test_deming_fit_matches_its_previous_form(seed):
    # the line, leave-one-out lines and jackknife standard errors of deming_fit against
    # the previous form (root by np.hypot, sums unscaled): positive and negative
    # relations, error ratios far from 1, means far from 0 (intercepts by cancellation),
    # leave-one-out d = lambda Syy - Sxx of both signs in one fit, covariances of 0
    from irr.coefficients.method_regression import deming_fit
    from tests.reference import previous_kernels

    mixed = 0
    for x, y, lam in _deming_problems(np.random.default_rng(seed), scaled=False):
        xc, yc = x - x.mean(), y - y.mean()
        c = x.size / (x.size - 1)
        d = lam * (yc @ yc - c * yc * yc) - (xc @ xc - c * xc * xc)
        mixed += bool((d < 0).any() and (d >= 0).any())
        fit = deming_fit(x, y, lam)
        slopes, intercepts, se_slope, se_intercept = previous_kernels.deming_jackknife(
            x, y, lam)
        np.testing.assert_array_equal(np.isnan(fit.slopes), np.isnan(slopes))
        np.testing.assert_allclose(fit.slopes, slopes, rtol=1e-12)
        # an intercept is mean_y - slope * mean_x of the other points: its rounding is
        # the slope's (a unit or two in the last place) times mean_x
        scale = np.nanmax(np.abs(y.mean()) + np.abs(slopes * x.mean()))
        np.testing.assert_allclose(deming_jackknife_intercepts(x, y, fit.slopes), intercepts,
                                   rtol=0, atol=1e-13 * scale)
        assert fit.se_slope == pytest.approx(se_slope, rel=1e-12, nan_ok=True)
        assert fit.se_intercept == pytest.approx(se_intercept, rel=1e-11, nan_ok=True)
        if xc @ yc == 0:
            assert math.isnan(fit.slope)
            assert np.isnan(fit.slopes).tolist() == [False, False, True, False, False]
        else:
            assert (fit.slope, fit.intercept) == pytest.approx(ref.deming_direct(x, y, lam),
                                                               rel=1e-12)
    assert mixed


@pytest.mark.parametrize("seed", range(4))
def test_deming_fit_matches_the_kernel_before_its_passes_were_cut(seed):
    # deming_fit against its previous form (tests/reference/previous_kernels.deming_fit):
    # the line bit for bit, the leave-one-out lines and the jackknife SEs to 1e-12, nan
    # where Sxy(-i) = 0; error ratios far from 1, both signs of the relation and of the
    # leave-one-out d, and data scaled by 1e-80 and 1e80 (the sums' power-of-two scaling)
    from irr.coefficients.method_regression import deming_fit
    from tests.reference import previous_kernels

    branches = set()
    for x, y, lam in _deming_problems(np.random.default_rng(100 + seed), scaled=True):
        fit = deming_fit(x, y, lam)
        before = previous_kernels.deming_fit(x, y, lam)
        xc, yc = x - x.mean(), y - y.mean()
        c = x.size / (x.size - 1)
        d = lam * (yc @ yc - c * yc * yc) - (xc @ xc - c * xc * xc)
        branches.add((bool((d < 0).any()), bool((d >= 0).any())))
        assert (fit.slope, fit.intercept) == (before.slope, before.intercept) or (
            math.isnan(fit.slope) and math.isnan(before.slope))
        np.testing.assert_array_equal(np.isnan(fit.slopes), np.isnan(before.slopes))
        np.testing.assert_allclose(fit.slopes, before.slopes, rtol=1e-13)
        scale = np.nanmax(np.abs(y.mean()) + np.abs(before.slopes * x.mean()))
        np.testing.assert_allclose(deming_jackknife_intercepts(x, y, fit.slopes),
                                   before.intercepts, rtol=0,
                                   atol=1e-13 * scale)
        assert fit.se_slope == pytest.approx(before.se_slope, rel=1e-12, nan_ok=True)
        assert fit.se_intercept == pytest.approx(before.se_intercept, rel=1e-11, nan_ok=True)
    assert branches == {(True, False), (False, True), (True, True)}


@pytest.mark.parametrize("seed", range(3))
def test_deming_fit_with_the_input_bounds_equals_it_without(seed):
    # deming_fit given the data's extremes (the input check's) skips its scans for the
    # sign of e and for h = 0 only where the bounds prove them: the same bits as without them,
    # on data where the bounds decide and where they cannot (an outlier whose
    # leave-one-out d is >= 0, d of both signs, Sxy(-i) = 0, slopes of both signs)
    from irr.coefficients.method_regression import deming_fit

    rng = np.random.default_rng(200 + seed)
    decided = undecided = 0
    for trial in range(30):
        n = int(rng.integers(3, 2000))
        lam = float(rng.choice([0.01, 0.5, 1.0, 3.0, 100.0]))
        x = rng.normal(rng.uniform(-50, 50), rng.uniform(0.1, 10), n)
        y = rng.choice([-1, 1]) * (rng.uniform(0.2, 2) * x + rng.normal(0, 2, n))
        if trial % 5 == 1:  # one point far out along y: its leave-one-out d changes sign
            y[0] += 50 * y.std() * math.sqrt(n)
        elif trial % 5 == 2:
            y = (y - y.mean()) * math.sqrt(x.var() / (lam * y.var())) + y.mean()
        elif trial % 5 == 3:
            x, y = np.array([-1.0, 1, 0, 2, -2]), np.array([1.0, 1, 5, 4, 4])
        bounds = ((x.min(), x.max()), (y.min(), y.max()))
        with_bounds, without = deming_fit(x, y, lam, bounds), deming_fit(x, y, lam)
        for got, want in zip(with_bounds, without, strict=True):
            np.testing.assert_array_equal(got, want)
        xc, yc = x - x.mean(), y - y.mean()
        d = lam * (yc @ yc - n / (n - 1) * yc * yc) - (xc @ xc - n / (n - 1) * xc * xc)
        if ((d < 0).all() or (d >= 0).all()) and not np.isnan(without.slopes).any():
            decided += 1
        else:
            undecided += 1
    assert decided
    assert undecided


def test_deming_passes_the_input_checks_extremes_to_its_kernel(monkeypatch):
    # irr.deming of complete arrays hands deming_fit the extremes its input check found;
    # with a missing value (a pair dropped) it hands none
    from irr.estimators import method_regression as estimators

    seen = []
    fit = estimators.deming_fit
    monkeypatch.setattr(estimators, "deming_fit",
                        lambda x, y, lam, bounds=None: seen.append(bounds) or fit(x, y, lam,
                                                                                  bounds))
    x, y = ref.pairs(ref.BLOODTEST)
    irr.deming(x, y)
    irr.deming(np.append(x, np.nan), np.append(y, 1.0))
    assert seen == [((x.min(), x.max()), (y.min(), y.max())), None]


def test_deming_estimator_default_options_give_the_jackknife():
    # the estimator's default options (ci None) are the jackknife interval, as irr.deming's
    # ci='jackknife'; InferenceOptions' own default ci ('wald') is not one of Deming's
    from irr.estimators import method_regression as estimators
    from irr.inference.options import InferenceOptions

    x, y = ref.pairs(ref.BLOODTEST)
    res = estimators.deming(x, y)
    public = irr.deming(x, y)
    assert res.ci.method == "jackknife"
    assert (res.slope, res.intercept, res.se, res.intercept_se) == (
        public.slope, public.intercept, public.se, public.intercept_se)
    assert tuple(res.ci) == tuple(public.ci)
    assert tuple(res.intercept_ci) == tuple(public.intercept_ci)
    with pytest.raises(ValueError, match=r"`ci` must be one of 'jackknife'.*got 'wald'"):
        estimators.deming(x, y, InferenceOptions())


def test_deming_slope_of_scalars_equals_the_array_formula():
    # the line's slope from Python floats is the array formula's, value for value, at
    # zeros, signed zeros, infinities, nan and extreme magnitudes and error ratios
    import itertools

    values = [0.0, -0.0, 1.0, -2.5, 3.0, 1e-300, 1e-170, 1e300, np.inf, -np.inf, np.nan]
    for sxx, syy, sxy in itertools.product(values, repeat=3):
        for lam in (1e-12, 0.3, 1.0, 4.0, 1e12, np.inf, 5e-324):
            with warnings.catch_warnings():
                warnings.simplefilter("error")
                got = deming_slope(np.float64(sxx), syy, sxy, lam)
            with np.errstate(all="ignore"):
                want = deming_slope(np.array(sxx), np.array(syy), np.array(sxy), np.array(lam))
            assert (np.isnan(got) and np.isnan(want)) or got == want, (sxx, syy, sxy, lam)
    rng = np.random.default_rng(0)
    for _ in range(2000):
        sxx, syy = rng.exponential(size=2) * 10.0 ** rng.integers(-5, 5, 2)
        sxy, lam = rng.normal() * math.sqrt(sxx * syy), 10.0 ** rng.uniform(-3, 3)
        assert deming_slope(sxx, syy, sxy, lam) == deming_slope(
            np.array(sxx), np.array(syy), np.array(sxy), lam)


def test_deming_limits_of_the_error_ratio():
    rng = np.random.default_rng(0)
    x = rng.normal(10, 2, 30)
    y = 1 + 0.9 * x + rng.normal(0, 0.5, 30)
    xc, yc = x - x.mean(), y - y.mean()
    # lambda -> 0: x without error, OLS of y on x; lambda -> inf: OLS of x on y, inverted
    assert float(deming_slope(xc @ xc, yc @ yc, xc @ yc, 1e-12)) == pytest.approx(
        (xc @ yc) / (xc @ xc), rel=1e-9)
    assert float(deming_slope(xc @ xc, yc @ yc, xc @ yc, 1e12)) == pytest.approx(
        (yc @ yc) / (xc @ yc), rel=1e-9)
    s, i = deming_jackknife(x, y, 2.0)
    assert s.shape == i.shape == (30,)


def test_deming_replicates_estimate_the_error_ratio():
    rng = np.random.default_rng(5)
    n = 40
    true = rng.uniform(80, 160, n)
    subject = np.repeat(np.arange(n), 4)
    rater = np.tile(["lab", "lab", "device", "device"], n)
    sd = np.where(rater == "lab", 2.0, 4.0)
    value = np.repeat(true, 4) + rng.normal(0, 1, 4 * n) * sd
    m = Measurements.from_long(subject, rater, value)
    lam = replicate_error_ratio(m)
    # direct: pooled within-subject variances from the duplicates
    lab = value[rater == "lab"].reshape(n, 2)
    dev = value[rater == "device"].reshape(n, 2)
    want = (lab.var(axis=1, ddof=1).mean() / 2) / (dev.var(axis=1, ddof=1).mean() / 2)
    assert lam == pytest.approx(want, rel=1e-12)
    res = irr.deming(m)
    assert res.error_ratio == pytest.approx(want)
    assert (res.x_name, res.y_name) == ("lab", "device")
    assert res.slope == pytest.approx(ref.deming_direct(lab.mean(axis=1), dev.mean(axis=1),
                                                        want)[0], rel=1e-12)
    assert any("estimated from the replicates" in note for note in res.notes)
    no_reps = Measurements.from_wide(np.column_stack([lab[:, 0], dev[:, 0]]), ["lab", "device"])
    assert irr.deming(no_reps).error_ratio == 1.0


def test_deming_bootstrap_is_reproducible():
    x, y = ref.pairs(ref.BLOODTEST)
    a = irr.deming(x, y, ci="percentile", n_resamples=999)
    b = irr.deming(x, y, ci="percentile", n_resamples=999)
    assert tuple(a.ci) == tuple(b.ci)
    assert tuple(a.intercept_ci) == tuple(b.intercept_ci)
    assert a.ci.low < a.slope < a.ci.high
    assert a.intercept_ci.low < a.intercept < a.intercept_ci.high
    # the bootstrap SE is near the jackknife one
    assert a.bootstrap.replicates[:, 0].std() == pytest.approx(a.se, rel=0.35)
    restored = pickle.loads(pickle.dumps(irr.deming(x, y)))
    assert restored.conf_int(method="bca").method == "bca"


# -- protocol and input -----------------------------------------------------------------------
def test_result_protocol_output():
    a = pd.Series([7.2, 8.1, 9.5, 10.4, 12.0, 13.3, 14.9, np.nan], name="lab")
    b = pd.Series([7.0, 8.4, 9.9, 10.2, 12.6, 13.9, 15.1, 17.0], name="device")
    res = irr.deming(a, b)
    frame = res.to_frame()
    assert frame.index.tolist() == ["Deming slope", "Deming intercept"]
    assert frame.loc["Deming slope", "estimate"] == res.slope
    assert frame.loc["Deming intercept", "ci_high"] == res.intercept_ci.high
    assert res.n_missing == 1
    assert res.n_subjects == 7
    text = res.summary().as_text()
    assert "Deming intercept" in text
    assert "t tests of slope = 1" in text
    assert res.report().startswith("Deming regression of device on lab (error ratio λ = 1) "
                                   "gave a slope of")
    assert res.to_dict()["intercept"] == res.intercept
    with pytest.raises(ValueError, match="no default benchmark scale"):
        res.interpret()
    ci90 = res.conf_int(0.90, parameter="intercept")
    assert ci90.low > res.intercept_ci.low
    pb = irr.passing_bablok(a, b)
    assert pb.to_frame().index.tolist() == ["Passing–Bablok slope", "Passing–Bablok intercept"]
    assert "cusum" in pb.report()
    # an estimate and its interval share one number of decimals (was "1.00, 95% CI
    # [0.727, 1.38]"): two decimals when any of them is 1 or more
    for r in (res, pb):
        slope = f"{r.slope:.2f}, 95% CI [{r.ci.low:.2f}, {r.ci.high:.2f}]".replace("-", "−")
        assert f"gave a slope of {slope}" in r.report()
    small = irr.passing_bablok([1.0, 2.1, 2.9, 4.2, 5.1, 6.0], [1.2, 2.0, 3.1, 4.0, 5.3, 6.1])
    assert re.search(r"slope of \d\.\d\d, 95% CI \[\d\.\d\d, \d\.\d\d\]", small.report())
    both = pd.concat([res.to_frame(), pb.to_frame()])
    assert both.shape[0] == 4


@pytest.mark.parametrize(("call", "error", "match"), [
    (lambda: irr.deming([1, 2, 3], [1, 2]), ValueError, "one length"),
    (lambda: irr.deming([1, 2, np.inf], [1, 2, 3]), ValueError,
     r"`x` holds infinite values: \[inf\]"),
    (lambda: irr.deming(["a", "b", "c"], [1, 2, 3]), TypeError,
     r"`x` must hold real numbers \(nan for missing\), not text; got \['a', 'b', 'c'\]"),
    (lambda: irr.deming([1, 2, 3]), TypeError, "`y` is required"),
    (lambda: irr.deming([1, 2, 3, 4], [1, 2, 3, 5], error_ratio=-1), ValueError,
     r"`error_ratio` must be a positive finite number .* got -1"),
    (lambda: irr.deming([1, 2, 3, 4], [1, 2, 3, 5], ci="wald"), ValueError, "`ci` must be"),
    (lambda: irr.deming([1, 2, 3, 4], [1, 2, 3, 5], names="ab"), ValueError, "`names`"),
    (lambda: irr.deming([1, 2, 3, 4], [1, 2, 3, 5]).conf_int(parameter="b"), ValueError,
     "`parameter` must be one of"),
    (lambda: irr.passing_bablok([1, 2, 3, 4, 5, 6, 7], [1, 2, 3, 5, 4, 6, 8]).conf_int(method="bca"),
     ValueError, "`method` must be one of 'rank'"),
])
def test_bad_input(call, error, match):
    with pytest.raises(error, match=match):
        call()


def test_zero_covariance_warns():
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        res = irr.deming([1.0, 2.0, 3.0, 2.0], [1.0, 2.0, 1.0, 0.0])
    messages = [str(w.message) for w in caught]
    assert any("covariance of x and y is 0" in m for m in messages)
    assert math.isnan(res.slope)


def test_method_comparison_plot(tmp_path):
    matplotlib = pytest.importorskip("matplotlib")
    matplotlib.use("Agg")
    from irr.plotting import method_comparison

    x, y = ref.pairs(ref.CREATININE)
    ax = method_comparison(irr.deming(x, y, names=("serum", "plasma")), units="mg/dL")
    assert ax.get_xlabel() == "serum (mg/dL)"
    assert ax.get_ylabel() == "plasma (mg/dL)"
    assert ax.get_xlim() == ax.get_ylim()
    labels = [t.get_text() for t in ax.get_legend().get_texts()]
    assert labels[0] == "identity y = x"
    assert labels[2] == "95% confidence band"
    # arrays fitted by the default method, Deming, with its default (jackknife) band
    ax = method_comparison(x, y)
    assert [t.get_text() for t in ax.get_legend().get_texts()][2] == "95% confidence band"
    for spelling in ("passing_bablok", "passing-bablok", "Passing-Bablok"):  # one vocabulary
        ax = method_comparison(x, y, method=spelling)
        assert len(ax.get_legend().get_texts()) == 2  # no band for Passing–Bablok
    with pytest.raises(TypeError, match="`y` only with array"):
        method_comparison(irr.deming(x, y), y)
    with pytest.raises(ValueError, match="`method` has unknown regression 'ols'; known: "
                       "'deming', 'passing_bablok'"):
        method_comparison(x, y, method="ols")


@pytest.mark.slow
def test_jackknife_calibration():
    # the Deming jackknife t interval covers the true slope about 95% of the time (the
    # size of the cusum test is simulated in tests/reference/test_method_regression_published.py)
    rng = np.random.default_rng(2026)
    covered = 0
    runs = 400
    for _ in range(runs):
        t = rng.uniform(10, 100, 60)
        x = t + rng.normal(0, 3, 60)
        y = 2 + 1.1 * t + rng.normal(0, 3, 60)
        res = irr.deming(x, y, error_ratio=1 / 1.0)
        covered += res.ci.low <= 1.1 <= res.ci.high
    assert 0.91 <= covered / runs <= 0.98
