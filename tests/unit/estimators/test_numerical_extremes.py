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
