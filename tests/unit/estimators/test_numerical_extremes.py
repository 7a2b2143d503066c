"""Numerics of the ICC and alpha at the extremes: scale and shift invariance (at 1e-300 and
1e300), negative weights refused, honest ICC intervals (never inverted or of zero width,
approximate ones labelled so).

Reference values: exact rational arithmetic (tests/support/exact_formulas.py).
"""

from __future__ import annotations

import math
import warnings
from fractions import Fraction

import numpy as np
import pytest

import irr
from irr._measurements import Measurements
from tests.support.exact_formulas import exact_icc_a_k

# ---------------------------------------------------------------------------------------
# scale and shift invariance (centre and scale before forming sums of squares)
# ---------------------------------------------------------------------------------------
ANXIETY = irr.datasets.load("anxiety").to_numpy().astype(float)


@pytest.mark.parametrize("factor", [1e-160, 1e-200, 1e-300, 1e300])
@pytest.mark.parametrize("form", [
    ("twoway", "agreement", "single"), ("twoway", "consistency", "single"),
    ("oneway", "agreement", "average"), ("twoway", "agreement", "average")])
def test_icc_is_scale_invariant(factor, form):
    # anxiety ICC(A,1) = 0.198, 95% CI [-0.039, 0.494] (R irr::icc documentation; McGraw &
    # Wong's formulas): every ICC, F and interval is a ratio of mean squares, so multiplying
    # the ratings by any factor changes nothing. Before: digits lost at 1e-160, nan at 1e-200.
    base = irr.icc(ANXIETY, *form)
    scaled = irr.icc(ANXIETY * factor, *form)
    assert scaled.estimate == pytest.approx(base.estimate, rel=1e-12)
    assert scaled.statistic == pytest.approx(base.statistic, rel=1e-12)
    assert list(scaled.ci) == pytest.approx(list(base.ci), rel=1e-12)
    assert list(scaled.conf_int(0.9)) == pytest.approx(list(base.conf_int(0.9)), rel=1e-12)
    if form == ("twoway", "agreement", "single"):
        assert base.estimate == pytest.approx(0.198, abs=5e-4)
        assert list(base.ci) == pytest.approx([-0.039, 0.494], abs=5e-4)


def test_icc_is_shift_invariant():
    # ICC(C,1) of anxiety is 0.216 (R irr::icc); adding 1e15 (integers stay exact) must not
    # move it: the grand mean of x + 1e15 was off by a few units in the last place, biasing
    # MSR. Centring on one rating first makes the shifted data exact again.
    base = irr.icc(ANXIETY, "twoway", "consistency", "single")
    assert base.estimate == pytest.approx(0.216, abs=5e-4)
    for shift in (1e8, 1e15, -1e15):
        shifted = irr.icc(ANXIETY + shift, "twoway", "consistency", "single")
        assert shifted.estimate == pytest.approx(base.estimate, rel=1e-12)
        assert shifted.ms_rows == pytest.approx(base.ms_rows, rel=1e-12)


@pytest.mark.parametrize("factor", [1e-160, 1e-200, 1e-300])
def test_interval_alpha_is_scale_invariant(factor):
    # interval alpha of anxiety (subjects in rows) is 0.170 (krippendorff's interval
    # metric; the "truth"); alpha is a ratio of squared-difference sums, so a
    # common factor cancels. Before: digits lost at 1e-160 and nan at 1e-200.
    base = irr.Agreement.from_array(ANXIETY).krippendorff_alpha(level="interval", ci=None)
    scaled = irr.Agreement.from_array(ANXIETY * factor).krippendorff_alpha(
        level="interval", ci=None)
    assert base.estimate == pytest.approx(0.1701, abs=5e-5)
    assert scaled.estimate == pytest.approx(base.estimate, rel=1e-12)


def test_continuous_kappa_is_scale_and_shift_invariant():
    # sibling: the table-free kappa is a ratio of quadratic forms (2 cov / (var + var +
    # mean difference^2)); a common factor cancels, and the general form ignores a common
    # shift. Before: nan at 1e-200 and 1e200.
    y = np.array([0.0, 1, 2, 3, 4, 2, 1, 3])
    p = np.array([0.5, 1, 2.5, 2, 4, 1.5, 1, 3.5])
    base = irr.continuous_kappa(y, p)
    for factor in (1e-200, 1e200):
        assert irr.continuous_kappa(y * factor, p * factor) == pytest.approx(base, rel=1e-12)
        assert irr.continuous_kappa(y * factor, p * factor, centered=True) == pytest.approx(
            irr.continuous_kappa(y, p, centered=True), rel=1e-12)
    # quarters are exact at 1e15 (ulp 0.125), so the shifted data are the same data
    assert irr.continuous_kappa(y + 1e15, p + 1e15) == pytest.approx(base, rel=1e-12)


def test_negative_weights_are_refused():
    # agreement weights lie in [0, 1] with ones on the diagonal (Cohen 1968; Fleiss, Levin &
    # Paik 2003, sec. 18.1); -5 gave kappa far below -1 with crossed interval ends
    w = [[1, -5, -5], [-5, 1, -5], [-5, -5, 1]]
    ag = irr.Agreement([1, 2, 3, 1, 2, 3, 1, 2], [1, 2, 3, 2, 3, 1, 1, 2])
    for call in (lambda: ag.kappa(weights=w), lambda: ag.gwet_ac(weights=w),
                 lambda: irr.cohen_kappa([1, 2, 3], [1, 3, 2], weights=w)):
        with pytest.raises(ValueError, match=r"`weights` matrix entries must lie in \[0, 1\]"):
            call()


# ---------------------------------------------------------------------------------------
# never an inverted or zero-width F-based ICC interval; honest labels
# ---------------------------------------------------------------------------------------
def test_icc_ak_interval_is_never_inverted():
    # McGraw & Wong's ICC(A,k) lower bound n(MSR - F* MSE) / (F*(MSC - MSE) + n MSR) has a
    # negative denominator here (n = 3, MSC < MSE): the formula gave [3.46, 0.97], an
    # "interval" whose low end exceeds its high end and 1. No interval exists: nan ends.
    x = [[4, 3, 1], [1, 5, 4], [5, 3, 5]]
    with pytest.warns(irr.DegenerateDataWarning, match="No 95% F-based interval"):
        res = irr.icc(x, "twoway", "agreement", "average")
    assert res.estimate == pytest.approx(-2.2, rel=1e-12)  # exact: -11/5 (Fractions below)
    assert exact_icc_a_k(x) == Fraction(-11, 5)
    assert math.isnan(res.ci.low)
    assert math.isnan(res.ci.high)
    assert any("No 95% F-based interval" in note for note in res.notes)
    assert "No 95% F-based interval" in str(res)


def test_icc_intervals_are_proper_on_random_small_data():
    # every form and level: either both ends nan or low < high with the estimate inside
    rng = np.random.default_rng(15)
    forms = [("oneway", "agreement", "single"), ("oneway", "agreement", "average"),
             ("twoway", "agreement", "single"), ("twoway", "agreement", "average"),
             ("twoway", "consistency", "single"), ("twoway", "consistency", "average")]
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        for _ in range(300):
            x = rng.integers(1, 6, size=(int(rng.integers(2, 8)), int(rng.integers(2, 5))))
            for form in forms:
                res = irr.icc(x, *form)
                for ci in (res.ci, res.conf_int(0.8)):
                    if math.isnan(ci.low) or math.isnan(ci.high):
                        assert math.isnan(ci.low)
                        assert math.isnan(ci.high)
                    else:
                        assert ci.low < ci.high
                        assert ci.low <= res.estimate <= ci.high


def test_absolute_agreement_interval_is_labelled_approximate():
    # McGraw & Wong (1996, Table 7): the ICC(A,.) intervals use Satterthwaite's approximate
    # df (39.75 on anxiety ICC(A,1)); the one-way and consistency ones are exact F intervals
    anxiety = irr.datasets.load("anxiety")
    single = irr.icc(anxiety, "twoway", "agreement", "single")
    assert single.ci.method == "satterthwaite"
    assert single.df_ci == pytest.approx(39.75, abs=5e-3)
    assert single.conf_int(0.9).method == "satterthwaite"
    assert irr.icc(anxiety, "twoway", "agreement", "average").ci.method == "satterthwaite"
    assert irr.icc(anxiety, "twoway", "consistency", "single").ci.method == "exact"
    assert irr.icc(anxiety, "oneway", "agreement", "average").ci.method == "exact"
    assert single.to_frame()["ci_method"].iloc[0] == "satterthwaite"
    assert "approximate F-based interval with Satterthwaite's df" in str(single)
    assert "exact F-based" not in str(single)
    assert "95% CI [−.04, .49] (approximate F, Satterthwaite df)" in single.report()
    with pytest.raises(ValueError, match=r"`method='exact'` does not apply to ICC\(2,1\)"):
        single.conf_int(method="exact")
    table = irr.Agreement.from_frame(anxiety).icc_table()
    assert table["ci_method"].tolist() == ["exact", "satterthwaite", "exact", "exact",
                                           "satterthwaite", "exact"]


def test_compat_icc_f_test_differs_from_r_irr_only_in_df():
    # docs/compat.md: R irr tests ICC(A,1) = 0 on anxiety with F(19, 39.7), p = .0543 (the
    # interval's Satterthwaite df); we use F(19, 38), p = .0562 as McGraw & Wong (Table 8
    # at rho0 = 0), psych and pingouin; irr's p is recovered from our df_ci
    from scipy.special import fdtrc

    res = irr.icc(irr.datasets.load("anxiety"), "twoway", "agreement", "single")
    assert (res.df1, res.df2) == (19, 38)
    assert res.statistic == pytest.approx(1.8268, abs=5e-5)
    assert res.pvalue == pytest.approx(0.0562, abs=5e-5)
    assert res.df_ci == pytest.approx(39.7, abs=0.05)
    assert fdtrc(res.df1, res.df_ci, res.statistic) == pytest.approx(0.0543, abs=5e-5)


# ---------------------------------------------------------------------------------------
# method comparison at extreme scales: equivariant where sums of squares hold their digits,
# refused (naming other units) where they would overflow or underflow
# ---------------------------------------------------------------------------------------
_PAIR_RNG = np.random.default_rng(11)
PAIR_X = _PAIR_RNG.normal(1.0, 0.1, 30)
PAIR_Y = PAIR_X + _PAIR_RNG.normal(0.02, 0.03, 30)


@pytest.mark.parametrize("factor", [1e-90, 1e-50, 1.0, 1e50, 1e90])
def test_method_comparison_is_equivariant_in_range(factor):
    base = irr.limits_of_agreement(PAIR_X, PAIR_Y)
    scaled = irr.limits_of_agreement(PAIR_X * factor, PAIR_Y * factor)
    for name in ("estimate", "lower", "upper", "sd"):  # limits and SD scale by the factor
        assert getattr(scaled, name) / factor == pytest.approx(getattr(base, name), rel=1e-12)
    # the CCC and the Deming slope do not change; the TDI scales by the factor
    assert irr.concordance(PAIR_X * factor, PAIR_Y * factor).estimate == pytest.approx(
        irr.concordance(PAIR_X, PAIR_Y).estimate, rel=1e-12)
    assert irr.deming(PAIR_X * factor, PAIR_Y * factor).slope == pytest.approx(
        irr.deming(PAIR_X, PAIR_Y).slope, rel=1e-12)
    tdi = irr.total_deviation_index(PAIR_X * factor, PAIR_Y * factor).estimate / factor
    assert tdi == pytest.approx(irr.total_deviation_index(PAIR_X, PAIR_Y).estimate, rel=1e-12)


@pytest.mark.parametrize("factor", [1e-200, 1e-150, 1e150, 1e307 / 2])
@pytest.mark.parametrize("call", [
    irr.limits_of_agreement, irr.concordance, irr.deming, irr.total_deviation_index,
    lambda x, y: irr.measurement_error(Measurements.from_pair(x, y)),
], ids=["limits", "concordance", "deming", "tdi", "measurement error"])
def test_method_comparison_refuses_scales_where_squares_overflow(factor, call):
    with pytest.raises(ValueError, match=r"between 1e-100 and 1e100 .* other units"):
        call(PAIR_X * factor, PAIR_Y * factor)


def test_deming_slope_at_a_huge_error_ratio_is_the_inverse_regression():
    # lambda -> infinity: all error in x, the slope tends to Syy / Sxy (no overflow of d**2)
    xc, yc = PAIR_X - PAIR_X.mean(), PAIR_Y - PAIR_Y.mean()
    assert irr.deming(PAIR_X, PAIR_Y, error_ratio=1e300).slope == pytest.approx(
        (yc @ yc) / (xc @ yc), rel=1e-12)
    # y scaled by c: the slope scales by c when the error ratio scales by 1 / c**2
    c = 1e40
    base = irr.deming(PAIR_X, PAIR_Y, error_ratio=2.0).slope
    assert irr.deming(PAIR_X, PAIR_Y * c, error_ratio=2.0 / c**2).slope / c == pytest.approx(
        base, rel=1e-12)
