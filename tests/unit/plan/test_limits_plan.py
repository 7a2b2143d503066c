"""irr.plan.limits_of_agreement: power to show two methods agree within delta.

No published table was found to reproduce (Lu et al. 2016 and Shieh 2019 were not
available); the power is checked against an independent Monte Carlo of the decision rule
(drawing the mean difference and the SD directly) and, in a slow test, against the
rejection rate of irr.limits_of_agreement on simulated measurements.
"""

import math

import numpy as np
import pytest
from scipy.stats import nct, norm, t

import irr
from irr.plan.limits_plan import limits_power


def _monte_carlo(n, bias, sd, delta, method, draws=400_000, seed=0):
    rng = np.random.default_rng(seed)
    z = norm.isf(0.025)
    if method == "exact":  # the one-sided tolerance factor: non-central t quantile
        k = nct.ppf(0.975, n - 1, z * math.sqrt(n)) / math.sqrt(n)
    else:  # Bland & Altman: limit + t * s * sqrt((1 + z^2 / 2) / n)
        k = z + t.ppf(0.975, n - 1) * math.sqrt((1 + z * z / 2) / n)
    dbar = rng.normal(bias, sd / math.sqrt(n), draws)
    s = sd * np.sqrt(rng.chisquare(n - 1, draws) / (n - 1))
    return np.mean((dbar + k * s < delta) & (dbar - k * s > -delta))


@pytest.mark.parametrize(("n", "bias", "sd", "delta", "method"),
                         [(20, 0.5, 2.5, 8.0, "exact"), (34, 1.0, 2.0, 6.0, "exact"),
                          (60, -0.5, 1.0, 2.6, "approximate"), (15, 0.0, 1.0, 3.5, "exact")])
def test_power_equals_monte_carlo_of_the_decision(n, bias, sd, delta, method):
    expected = _monte_carlo(n, bias, sd, delta, method)
    got = float(limits_power(n, bias, sd, delta, 0.95, 0.95, method))
    assert got == pytest.approx(expected, abs=4 * math.sqrt(expected * (1 - expected) / 4e5)
                                + 1e-4)


def test_n_is_the_smallest_reaching_the_target():
    res = irr.plan.limits_of_agreement(0.5, 2.5, 8.0, power=0.8)
    n = int(res.n)
    assert limits_power(n, 0.5, 2.5, 8.0, 0.95, 0.95) >= 0.8
    assert limits_power(n - 1, 0.5, 2.5, 8.0, 0.95, 0.95) < 0.8
    assert res.report().startswith(f"With {n} subjects measured by both methods")


def test_approximate_intervals_need_fewer_subjects_than_exact():
    exact = int(irr.plan.limits_of_agreement(0.5, 2.5, 8.0).n)
    approximate = int(irr.plan.limits_of_agreement(0.5, 2.5, 8.0, ci_method="approximate").n)
    assert approximate < exact  # Bland & Altman's intervals are too narrow


def test_unreachable_delta_raises():
    with pytest.raises(ValueError, match="no number of subjects"):
        irr.plan.limits_of_agreement(1.0, 2.5, 5.0)


@pytest.mark.slow
def test_power_matches_the_package_limits_of_agreement():
    res = irr.plan.limits_of_agreement(0.5, 2.5, 8.0, n=30)
    claimed = float(res.power)
    rng = np.random.default_rng(21)
    reps, shown = 2000, 0
    for _ in range(reps):
        truth = rng.normal(100, 10, 30)
        x = truth + rng.normal(0, 2.5 / math.sqrt(2), 30)
        y = truth - 0.5 + rng.normal(0, 2.5 / math.sqrt(2), 30)
        loa = irr.limits_of_agreement(x, y)
        shown += loa.upper_ci.high < 8.0 and loa.lower_ci.low > -8.0
    assert abs(shown / reps - claimed) < 4 * math.sqrt(claimed * (1 - claimed) / reps)
