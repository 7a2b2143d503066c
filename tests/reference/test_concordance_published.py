"""Lin's concordance correlation coefficient against its published variance formulas.

* Lin, L. I. (1989). A concordance correlation coefficient to evaluate reproducibility.
  Biometrics 45:255-268: the asymptotic variance of the CCC (the paper was not readable
  here, so no page is given: the formula is written from the secondary literature and
  is checked here against irr, not against the paper's page); Lin, L. I.
  (2000). A note on the concordance correlation coefficient. Biometrics 56:324-325: the
  corrected variance of its z transform. Written out in ``_lin_variances``. (Lin's
  worked examples, Lin 2000 Stat Med and Lin, Hedayat, Sinha & Yang 2002's DCLHb data
  are not available to us as text, so their printed numbers are not checked.)
* Slow: the coverage of Lin's TDI upper bound and the CP lower bound (simulation)."""

from __future__ import annotations

import math

import numpy as np
import pytest

import irr
from tests.reference.concordance_reference import MINI, WRIGHT  # Bland & Altman (1986), Table 1

# -- Lin's CCC: the published variance formulas ------------------------------------------

def _lin_variances(x, y):
    """Lin (1989, Biometrics 45:255-268): with r Pearson's correlation,
    u = (mean_x - mean_y) / (s_x s_y)^(1/2) (1/n moments) and n - 2 in the divisor,
    var(rc) = [(1 - r^2) rc^2 (1 - rc^2) / r^2 + 2 rc^3 (1 - rc) u^2 / r
    - rc^4 u^4 / (2 r^2)] / (n - 2), and the variance of Z = atanh(rc) in the form
    Lin (2000, Biometrics 56:324-325) corrected, var(rc) / (1 - rc^2)^2:
    [(1 - r^2) rc^2 / ((1 - rc^2) r^2) + 2 rc^3 (1 - rc) u^2 / (r (1 - rc^2)^2)
    - rc^4 u^4 / (2 r^2 (1 - rc^2)^2)] / (n - 2)."""
    n = x.size
    sx2, sy2 = x.var(), y.var()
    sxy = float(np.mean((x - x.mean()) * (y - y.mean())))
    r = sxy / math.sqrt(sx2 * sy2)
    rc = 2 * sxy / (sx2 + sy2 + (x.mean() - y.mean()) ** 2)
    u = (x.mean() - y.mean()) / (sx2 * sy2) ** 0.25
    var_rc = ((1 - r**2) * rc**2 * (1 - rc**2) / r**2 + 2 * rc**3 * (1 - rc) * u**2 / r
              - rc**4 * u**4 / (2 * r**2)) / (n - 2)
    var_z = ((1 - r**2) * rc**2 / ((1 - rc**2) * r**2)
             + 2 * rc**3 * (1 - rc) * u**2 / (r * (1 - rc**2) ** 2)
             - rc**4 * u**4 / (2 * r**2 * (1 - rc**2) ** 2)) / (n - 2)
    return rc, var_rc, var_z


@pytest.mark.parametrize("case", ["pef", "biased", "small"])
def test_ccc_standard_errors_are_lins_formulas(case):
    if case == "pef":
        x, y = WRIGHT, MINI
    else:
        rng = np.random.default_rng(len(case))
        n = 40 if case == "biased" else 8
        x = rng.normal(100, 15, n)
        y = 0.9 * x + (15 if case == "biased" else 2) + rng.normal(0, 6, n)
    rc, var_rc, var_z = _lin_variances(x, y)
    res = irr.concordance(x, y)
    assert res.estimate == pytest.approx(rc, rel=1e-12)
    assert res.se == pytest.approx(math.sqrt(var_rc), rel=1e-10)
    assert res.se_z == pytest.approx(math.sqrt(var_z), rel=1e-10)
    z, half = math.atanh(rc), 1.959963984540054 * math.sqrt(var_z)
    assert res.ci.low == pytest.approx(math.tanh(z - half), rel=1e-10)
    assert res.ci.high == pytest.approx(math.tanh(z + half), rel=1e-10)


# -- slow: coverage of Lin's TDI upper bound and the CP lower bound ------------------------


@pytest.mark.slow
@pytest.mark.parametrize("mean", [0.0, 0.5])
def test_tdi_and_cp_bounds_cover_near_nominal(mean):
    # Lin (2000): the 95% upper bound of TDI_0.9 = z_0.95 sqrt(MSD) from W = ln(e^2);
    # Lin, Hedayat, Sinha & Yang (2002): the 95% lower bound of CP(delta) on the logit
    # scale. Normal differences, n = 30; Monte Carlo SE over 2000 runs 0.5%.
    from scipy.stats import norm

    rng = np.random.default_rng(7 + int(10 * mean))
    n, runs, sd, p, delta = 30, 2000, 1.0, 0.9, 1.5
    tdi = norm.ppf(1 - (1 - p) / 2) * math.hypot(mean, sd)
    cp = norm.cdf((delta - mean) / sd) - norm.cdf((-delta - mean) / sd)
    hit_tdi = hit_cp = 0
    for _ in range(runs):
        d = rng.normal(mean, sd, n)
        hit_tdi += irr.total_deviation_index(d, np.zeros(n), p=p).ci.high >= tdi
        hit_cp += irr.coverage_probability(d, np.zeros(n), delta=delta).ci.low <= cp
    assert 0.93 <= hit_tdi / runs <= 0.965
    assert 0.93 <= hit_cp / runs <= 0.98
