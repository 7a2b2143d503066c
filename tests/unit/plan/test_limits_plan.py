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


def test_an_unreachable_target_has_no_number_of_subjects():
    # the power stays below 80% up to the search bound: n is missing, never a number
    res = irr.plan.limits_of_agreement(bias=0, sd=2.5, delta=4.9)
    assert res.n is None
    assert math.isnan(float(res.power))
    frame = res.to_frame()
    assert frame["n"].isna().all()
    assert str(frame["n"].dtype) == "Int64"
    assert res.to_dict()["rows"][0]["n"] is None
    assert "cannot be reached" in res.report()
    assert "not reached" in res.summary().as_text()
    assert " -1 " not in res.summary().as_text()
    # beside a reachable row, the column keeps its integers
    both = irr.plan.limits_of_agreement(bias=0, sd=2.5, delta=[4.9, 8])
    assert both.n[0] is None
    assert int(both.n[1]) > 0
    assert both.to_frame()["n"].iloc[1] == int(both.n[1])
    pytest.importorskip("matplotlib")
    ax = irr.plotting.power_curve(both)  # a marker for the reachable row only
    assert len([line for line in ax.lines if line.get_marker() == "o"]) == 1


def test_the_cli_writes_an_unreachable_n_as_null():
    import json

    from tests.support.cli_runner import cli

    # in this process (the JSON needs no process of its own; `irr` end to end is tested in
    # tests/unit/cli): a second interpreter would import irr, numpy and scipy again
    status, out, err = cli("plan", "limits", "--bias", "0", "--sd", "2.5", "--delta", "4.9",
                           "--format", "json")
    assert status == 0, err
    row = json.loads(out)[0]
    assert row["n"] is None
    assert row["power"] is None
