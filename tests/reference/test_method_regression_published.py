"""Method-comparison regression against published definitions and critical values.

* Passing, H. & Bablok, W. (1983). A new biometrical procedure for testing the equality
  of measurements from two different analytical methods. J Clin Chem Clin Biochem
  21:709-720, Appendix, section 4 (as quoted by R SimplyAgree; see
  ``cusum_reference.py``): scores sqrt(L/l) above and -sqrt(l/L) below
  the line, summed in the order of the projections D_i; linearity rejected when
  max |cusum| > h_gamma sqrt(L + 1), L the points below the line, h_0.05 = 1.36 and
  h_0.01 = 1.63 (Kolmogorov-Smirnov). The steps are written out in
  ``cusum_reference.py``. The published example data of the paper are not
  available to us, so its slope, intercept and intervals are not checked here (mcr's
  creatinine example is, in tests/unit/estimators/test_method_regression.py; NCSS's PassBablok1 data
  against R MethComp/deming, as quoted in R SimplyAgree's tests, is here).
* Slow: the size of the cusum test under linearity (simulation).
"""

from __future__ import annotations

import math

import numpy as np
import pytest

import irr
import tests.reference.cusum_reference as cusum_ref
from irr.coefficients.method_regression import cusum_linearity

# -- Passing & Bablok (1983): the cusum linearity test -------------------------------------


def _curved(n=40, seed=0, curvature=0.06):
    rng = np.random.default_rng(seed)
    x = np.sort(rng.uniform(1, 10, n))
    return x, x + curvature * (x - 5.5) ** 2 + rng.normal(0, 0.15, n)


@pytest.mark.parametrize("seed", [0, 1, 2, 3])
def test_cusum_statistic_is_the_papers(seed):
    # max |cusum| / sqrt(L + 1), L the points below the fitted line, with the paper's
    # scores and order, against the step-by-step transcription of the paper
    x, y = _curved(seed=seed)
    if seed % 2:
        y = x + np.random.default_rng(seed).normal(0, 0.4, x.size)  # linear data too
    res = irr.passing_bablok(x, y)
    stat, n_below, cusum = cusum_linearity(x, y, res.slope, res.intercept)
    ref_stat, ref_below, ref_sums = cusum_ref.cusum_by_steps(
        x.tolist(), y.tolist(), res.intercept, res.slope)
    assert n_below == ref_below
    assert stat == pytest.approx(ref_stat, rel=1e-12)
    assert np.allclose(cusum, ref_sums, rtol=0, atol=1e-12)
    assert res.linearity_statistic == pytest.approx(ref_stat, rel=1e-12)


def test_cusum_critical_values_are_kolmogorovs():
    # the paper's h_0.05 = 1.36 and h_0.01 = 1.63 are Kolmogorov's upper quantiles, so the
    # reported p-value (Kolmogorov's survival function) is below 0.05 exactly when the
    # paper rejects at 5% (up to the rounding of h to two decimals)
    from scipy.special import kolmogi, kolmogorov

    assert round(float(kolmogi(0.05)), 2) == cusum_ref.H_GAMMA[0.05]
    assert round(float(kolmogi(0.01)), 2) == cusum_ref.H_GAMMA[0.01]
    assert kolmogorov(1.36) == pytest.approx(0.0494, abs=1e-4)
    assert kolmogorov(1.63) == pytest.approx(0.0098, abs=1e-4)


@pytest.mark.parametrize(("seed", "curvature"), [(0, 0.0), (1, 0.0), (2, 0.01), (3, 0.02),
                                                 (4, 0.03), (5, 0.06)])
def test_cusum_decision_matches_the_paper(seed, curvature):
    x, y = _curved(n=40, seed=seed, curvature=curvature)
    res = irr.passing_bablok(x, y)
    paper = cusum_ref.rejects(x.tolist(), y.tolist(), res.intercept, res.slope, 0.05)
    if abs(res.linearity_statistic - 1.36) > 0.005:  # away from h's rounding
        assert (res.linearity_pvalue < 0.05) == paper


def test_cusum_rejects_a_curve_and_reports_the_papers_statistic():
    x, y = _curved(n=60, seed=4)
    res = irr.passing_bablok(x, y)
    assert res.linearity_pvalue < 0.01
    note = next(n for n in res.notes if n.startswith("Cusum"))
    assert "sqrt(L + 1)" in note
    assert "points below the line" in note


# NCSS's PassBablok1 example data (30 pairs), as transcribed in R SimplyAgree's
# tests/testthat/test-pb_reg.R, where R MethComp::PBreg and deming::pbreg give intercept
# -0.15 and slope 1.00 (two decimals).
NCSS_PB1_X = [69.3, 27.1, 61.3, 50.8, 34.4, 92.3, 57.5, 45.5, 33.3, 60.9, 56.3, 49.9, 89.7,
              28.9, 96.3, 76.6, 83.2, 79.4, 51.7, 32.5, 14.2, 99.1, 76.8, 95.4, 84.1, 48.8,
              80.4, 84.5, 61.4, 26.9]
NCSS_PB1_Y = [69.1, 26.7, 61.4, 51.2, 34.7, 88.5, 57.9, 45.1, 33.4, 60.8, 66.5, 48.2, 88.3,
              29.3, 96.4, 77.1, 82.7, 78.9, 51.6, 28.8, 12.7, 98.6, 77.3, 94.9, 83.3, 47.0,
              80.9, 84.7, 61.3, 26.7]


def test_passing_bablok_ncss_example_matches_methcomp_and_deming():
    res = irr.passing_bablok(NCSS_PB1_X, NCSS_PB1_Y)
    assert round(res.slope, 2) == 1.00
    assert round(res.intercept, 2) == -0.15
    # the paper's cusum test does not reject linearity here (SimplyAgree: p > 0.05)
    x, y = np.array(NCSS_PB1_X), np.array(NCSS_PB1_Y)
    ref_stat, _, _ = cusum_ref.cusum_by_steps(x.tolist(), y.tolist(), res.intercept,
                                              res.slope)
    assert res.linearity_statistic == pytest.approx(ref_stat, rel=1e-12)
    assert res.linearity_pvalue > 0.05


# -- slow: the size of the cusum test ------------------------------------------------------


@pytest.mark.slow
def test_cusum_size_under_linearity():
    # linear methods with errors in both: the paper's test rejects near its 5% level at
    # n = 60 (simulated: 2.3% at n = 20, 3.2% at 40, 5.4% at 60, 6.6% at 100 and 8.1% at
    # 200, so it grows somewhat liberal in large samples). The former scaling,
    # sqrt(l + L + 1), rejected 0 of 1000 here.
    rng = np.random.default_rng(2026)
    runs, n = 1000, 60
    reject = reject_old = 0
    for _ in range(runs):
        t = rng.uniform(10, 100, n)
        x = t + rng.normal(0, 3, n)
        y = 2 + 1.1 * t + rng.normal(0, 3, n)
        res = irr.passing_bablok(x, y)
        reject += res.linearity_pvalue < 0.05
        _, _, cusum = cusum_linearity(x, y, res.slope, res.intercept)
        n_off = int((y != res.intercept + res.slope * x).sum())
        reject_old += np.abs(cusum).max() / math.sqrt(n_off + 1) > 1.358
    # Monte Carlo SE of a 5% rate over 1000 runs: 0.7%
    assert 0.03 <= reject / runs <= 0.075
    assert reject_old / runs < 0.01
