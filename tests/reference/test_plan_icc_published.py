"""Sample size for the ICC (irr.plan.icc, irr.plan.icc_interval) against published values.

Sources:

- Walter, Eliasziw & Donner (1998), as R's ICC.Sample.Size 1.1 computes it:
  ``calculateIccSampleSize(p = 0.75, p0 = 0.5, k = 3, alpha = 0.05, tails = 1,
  power = 0.8)`` -> N = 24 (23.09 rounded up), and 36 with k = 2; ``p = 0.75, p0 = 0,
  k = 2, alpha = 0.05, power = 0.95`` (two-tailed) -> N = 15. Secondary: outputs quoted in
  public repositories (a worked example's "Check" line and a script's printed result);
  the paper's Table I could not be consulted.
- Bonett (2002), Statistics in Medicine 21:1331, worked example: rho = 0.85, k = 4,
  95% interval of width 0.2 -> 19.2, so 20 subjects (as quoted with presize's
  ``prec_icc(0.85, 4, conf.width = 0.2)`` = 20); two raters, rho = 0.8, width 0.2 -> 51,
  55 with Bonett's + 5 rho correction (a published calculator's example); presize
  ``prec_icc(0.75, 2, conf.width = 0.2)`` -> 79 (with the correction).
"""

import math

import numpy as np
import pytest
from scipy.stats import f, norm

import irr


@pytest.mark.parametrize(("raters", "expected"), [(3, 24), (2, 36)])
def test_walter_eliasziw_donner_one_sided(raters, expected):
    res = irr.plan.icc(0.5, 0.75, raters=raters, alternative="greater")
    assert int(res.n) == expected


def test_walter_eliasziw_donner_two_sided_against_zero():
    assert int(irr.plan.icc(0.0, 0.75, raters=2, power=0.95).n) == 15


def test_walter_formula_by_hand():
    for rho0, rho1, k in [(0.5, 0.75, 3), (0.6, 0.8, 2), (0.2, 0.5, 5)]:
        c0 = (1 + k * rho0 / (1 - rho0)) / (1 + k * rho1 / (1 - rho1))
        n = 1 + 2 * k * (norm.isf(0.025) + norm.isf(0.2)) ** 2 / ((k - 1) * math.log(c0) ** 2)
        assert int(irr.plan.icc(rho0, rho1, raters=k).n) == math.ceil(n)


def test_exact_power_by_hand():
    # MSB/MSW = (1 + k theta) F(n - 1, n (k - 1)); reject above (1 + k theta0) F_crit
    n, k, rho0, rho1 = 30, 3, 0.5, 0.75
    t0, t1 = rho0 / (1 - rho0), rho1 / (1 - rho1)
    crit = (1 + k * t0) * f.isf(0.05, n - 1, n * (k - 1))
    expected = f.sf(crit / (1 + k * t1), n - 1, n * (k - 1))
    res = irr.plan.icc(rho0, rho1, raters=k, n=n, alternative="greater", method="exact")
    assert float(res.power) == pytest.approx(expected, rel=1e-10)


@pytest.mark.parametrize(("rho", "raters", "width", "adjust", "expected"),
                         [(0.85, 4, 0.2, True, 20), (0.8, 2, 0.2, False, 51),
                          (0.8, 2, 0.2, True, 55), (0.75, 2, 0.2, True, 79)])
def test_bonett(rho, raters, width, adjust, expected):
    res = irr.plan.icc_interval(rho, width, raters=raters, adjust=adjust)
    assert int(res.n) == expected


def test_bonett_unrounded_worked_example():
    # Bonett (2002): 19.2 for rho = 0.85, k = 4, w = 0.2
    z = norm.isf(0.025)
    n = 1 + 8 * z**2 * (1 - 0.85) ** 2 * (1 + 3 * 0.85) ** 2 / (4 * 3 * 0.2**2)
    assert n == pytest.approx(19.2, abs=0.05)


def test_grid_and_report():
    res = irr.plan.icc([0.5, 0.6], 0.8, raters=[2, 3, 4])
    assert len(res.to_frame()) == 6
    assert "Walter, Eliasziw & Donner, 1998" in res.report()
    n = res.table["n"].to_numpy()
    assert np.all(np.diff(n[:3]) < 0)  # more raters, fewer subjects


@pytest.mark.parametrize(
    ("kwargs", "message"),
    [({"rho0": 0.5, "rho1": 0.5}, "`rho1` must differ"),
     ({"rho0": 1.5, "rho1": 0.5}, "`rho0`"),
     ({"rho0": 0.5, "rho1": 0.7, "raters": 1}, "`raters`"),
     ({"rho0": 0.5, "rho1": 0.7, "method": "fisher"}, "`method`"),
     ({"rho0": 0.5, "rho1": 0.4, "alternative": "greater"}, "wrong side")],
)
def test_bad_arguments(kwargs, message):
    with pytest.raises(ValueError, match=message):
        irr.plan.icc(**kwargs)


@pytest.mark.slow
def test_exact_power_matches_the_package_oneway_icc_interval():
    """Normal one-way data with ICC 0.75; the package's ICC(1) exact F interval (two-sided
    95%) excludes rho0 = 0.5 as often as the exact plan says."""
    res = irr.plan.icc(0.5, 0.75, raters=3, method="exact")
    n, claimed = int(res.n), float(res.power)
    rng = np.random.default_rng(11)
    reps, rejected = 2000, 0
    for _ in range(reps):
        subject = rng.normal(0, math.sqrt(0.75), size=(n, 1))
        ratings = subject + rng.normal(0, math.sqrt(0.25), size=(n, 3))
        ci = irr.icc(ratings, model="oneway").ci
        rejected += ci.low > 0.5 or ci.high < 0.5
    assert abs(rejected / reps - claimed) < 4 * math.sqrt(claimed * (1 - claimed) / reps)


@pytest.mark.slow
def test_bonett_width_matches_the_package_interval():
    """The average width of the package's exact ICC(1) interval at Bonett's n is about
    the planned width (Bonett 2002 reports agreement within a few per cent)."""
    res = irr.plan.icc_interval(0.6, 0.25, raters=3)
    n = int(res.n)
    rng = np.random.default_rng(12)
    widths = []
    for _ in range(500):
        ratings = rng.normal(0, math.sqrt(0.6), size=(n, 1)) + rng.normal(
            0, math.sqrt(0.4), size=(n, 3))
        ci = irr.icc(ratings, model="oneway").ci
        widths.append(ci.high - ci.low)
    assert np.mean(widths) == pytest.approx(0.25, rel=0.05)
