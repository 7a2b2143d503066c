"""irr.plan.concordance: power of the Fisher-z test of Lin's CCC.

No published sample-size table was available to reproduce (Lin 1992's was not found); the
power is checked against Lin's variance written out here, and in a slow test against the
rejection rate of irr.concordance's interval on simulated bivariate normal data.
"""

import math

import numpy as np
import pytest
from scipy.stats import norm

import irr


def _lin_power(n, ccc0, ccc1, u):
    # Lin (1989) eq. 6 with the Fisher-z variance of Lin (2000), equal scales
    r = ccc1 * (2 + u * u) / 2
    var = ((1 - r * r) * ccc1**2 * (1 - ccc1**2) / r**2 + 2 * ccc1**3 * (1 - ccc1) * u**2 / r
           - ccc1**4 * u**4 / (2 * r * r)) / (n - 2)
    sd_z = math.sqrt(var) / (1 - ccc1**2)
    return norm.cdf(abs(math.atanh(ccc1) - math.atanh(ccc0)) / sd_z - norm.isf(0.025))


@pytest.mark.parametrize(("n", "ccc0", "ccc1", "u"), [(40, 0.8, 0.9, 0.0), (80, 0.6, 0.75, 0.3),
                                                      (25, 0.9, 0.95, 0.1)])
def test_power_equals_lin_variance_by_hand(n, ccc0, ccc1, u):
    res = irr.plan.concordance(ccc0, ccc1, shift=u, n=n)
    assert float(res.power) == pytest.approx(_lin_power(n, ccc0, ccc1, u), rel=1e-10)


def test_n_is_smallest_reaching_target_and_report():
    res = irr.plan.concordance(0.8, 0.9, power=0.8)
    n = int(res.n)
    assert _lin_power(n, 0.8, 0.9, 0.0) >= 0.8 > _lin_power(n - 1, 0.8, 0.9, 0.0)
    assert res.report().endswith("has 81% power at the 5% level (Lin, 1992).")


def test_impossible_shift_raises():
    with pytest.raises(ValueError, match="correlation"):
        irr.plan.concordance(0.8, 0.9, shift=0.5)


@pytest.mark.slow
def test_power_matches_the_package_concordance_interval():
    n = 60
    claimed = float(irr.plan.concordance(0.8, 0.9, shift=0.2, n=n).power)
    r = 0.9 * (2 + 0.04) / 2
    cov = [[1, r], [r, 1]]
    rng = np.random.default_rng(31)
    reps, rejected = 2000, 0
    for _ in range(reps):
        x, y = rng.multivariate_normal([0.2, 0.0], cov, size=n).T
        ci = irr.concordance(x, y).ci
        rejected += ci.low > 0.8 or ci.high < 0.8
    assert abs(rejected / reps - claimed) < 4 * math.sqrt(claimed * (1 - claimed) / reps)
