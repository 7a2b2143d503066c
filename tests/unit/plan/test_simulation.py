"""irr.plan.simulate: power by simulating studies and analysing them with irr itself."""

import math

import numpy as np
import pytest

import irr
from irr.plan.simulation import draw_ratings


def test_draws_have_the_population_kappa_and_missing_rate():
    rng = np.random.default_rng(1)
    x = draw_ratings(20000, 3, rng, coefficient=0.6, proportions=[0.2, 0.3, 0.5],
                     missing=0.1)
    assert np.isnan(x).mean() == pytest.approx(0.1, abs=0.01)
    complete = x[~np.isnan(x).any(axis=1)]
    # pairwise agreement beyond chance: kappa = (p_o - p_e) / (1 - p_e)
    p = np.array([0.2, 0.3, 0.5])
    observed = np.mean(complete[:, 0] == complete[:, 1])
    expected = (p**2).sum()
    assert (observed - expected) / (1 - expected) == pytest.approx(0.6, abs=0.02)
    counts = np.bincount(complete[:, 2].astype(int), minlength=3) / len(complete)
    assert counts == pytest.approx(p, abs=0.015)


def test_draws_from_a_joint_distribution():
    joint = np.array([[0.5, 0.1], [0.0, 0.4]])
    x = draw_ratings(50000, 2, np.random.default_rng(2), joint=joint)
    table = np.histogram2d(x[:, 0], x[:, 1], bins=[[-0.5, 0.5, 1.5]] * 2)[0] / len(x)
    assert table == pytest.approx(joint, abs=0.01)


def test_continuous_draws_have_the_icc():
    x = draw_ratings(20000, 2, np.random.default_rng(3), coefficient=0.7, continuous=True)
    assert np.corrcoef(x.T)[0, 1] == pytest.approx(0.7, abs=0.02)


def test_same_seed_same_table_and_report():
    kw = dict(n=[30, 50], null=0.3, coefficient=0.6, raters=3, categories=3,
              n_simulations=50, rng=5)
    a, b = irr.plan.simulate("fleiss_kappa", **kw), irr.plan.simulate("fleiss_kappa", **kw)
    assert a.to_frame().equals(b.to_frame())
    assert a.report() == b.report()
    assert a.report().startswith("In 50 simulated studies of 30 subjects rated by 3 raters")
    assert list(a.table["n"]) == [30, 50]
    # each study's decision: the interval excludes the null value
    assert a.table["power"].between(0, 1).all()
    se = a.table["mc_se"].to_numpy()
    p = a.table["power"].to_numpy()
    assert se == pytest.approx(np.sqrt(p * (1 - p) / 50))


def test_under_the_null_the_rejection_rate_is_small():
    res = irr.plan.simulate("kappa", n=200, null=0.5, coefficient=0.5,
                            proportions=[0.4, 0.6], n_simulations=200, rng=1)
    assert float(res.power) < 0.05 + 4 * math.sqrt(0.05 * 0.95 / 200)


@pytest.mark.parametrize(
    ("kwargs", "message"),
    [({"statistic": "nonsense", "n": 20, "coefficient": 0.5}, "`statistic`"),
     ({"n": 20}, "`coefficient`"),
     ({"n": 20, "coefficient": 1.5}, "`coefficient`"),
     ({"n": 20, "coefficient": 0.5, "missing": 1.0}, "`missing`"),
     ({"n": 20, "coefficient": 0.5, "n_simulations": 5}, "`n_simulations`"),
     ({"n": 20, "coefficient": 0.5, "joint": [[0.5, 0.5]]}, "not both"),
     ({"n": 20, "joint": [0.5, 0.5]}, "`joint`"),
     ({"n": 20, "coefficient": 0.5, "proportions": [0.5, 0.6]}, "`proportions`"),
     ({"statistic": "kappa", "n": 20, "coefficient": 0.5, "raters": 3, "n_simulations": 10},
      "kappa compares two raters")],
)
def test_bad_arguments(kwargs, message):
    with pytest.raises(ValueError, match=message):
        irr.plan.simulate(**kwargs)


@pytest.mark.slow
def test_simulated_power_reproduces_the_wald_kappa_plan():
    plan = irr.plan.kappa(0.5, 0.65, method="wald", rates=(0.3, 0.3))
    n, claimed = int(plan.n), float(plan.power)
    res = irr.plan.simulate("kappa", n=n, null=0.5, coefficient=0.65,
                            proportions=[0.3, 0.7], n_simulations=2000, rng=3)
    assert abs(float(res.power) - claimed) < 4 * math.sqrt(claimed * (1 - claimed) / 2000)


@pytest.mark.slow
def test_simulated_power_reproduces_the_exact_icc_plan():
    plan = irr.plan.icc(0.5, 0.75, raters=3, method="exact", n=30)
    claimed = float(plan.power)
    res = irr.plan.simulate("icc", n=30, null=0.5, coefficient=0.75, raters=3,
                            continuous=True, model="oneway", n_simulations=2000, rng=4)
    assert abs(float(res.power) - claimed) < 4 * math.sqrt(claimed * (1 - claimed) / 2000)


def test_a_call_that_fails_in_every_study_raises():
    with pytest.raises(ValueError, match="every simulated study failed: `model`"):
        irr.plan.simulate("icc", n=20, coefficient=0.5, continuous=True, model="bogus",
                          n_simulations=10)


@pytest.mark.parametrize("coefficient", [1.0, 0.99])
def test_perfect_agreement_rejects_a_lower_null(coefficient):
    # every (or nearly every) simulated study has kappa 1: its standard error is 0, so its
    # interval is the point 1, which excludes the null 0.4
    res = irr.plan.simulate("fleiss_kappa", n=30, null=0.4, coefficient=coefficient,
                            raters=3, categories=3, n_simulations=100)
    assert float(res.power) > 0.95
    assert float(res.table["mean_estimate"].iloc[0]) > 0.9
    assert int(res.table["undefined"].iloc[0]) == 0


def test_perfect_continuous_agreement_rejects_a_lower_null():
    # no error variance: ICC 1 in every study, its F interval degenerates to the point 1
    res = irr.plan.simulate("icc", n=20, null=0.5, coefficient=1.0, raters=3,
                            continuous=True, n_simulations=20)
    assert float(res.power) == 1.0
    assert float(res.table["mean_estimate"].iloc[0]) == 1.0


def test_perfect_agreement_does_not_reject_the_null_one():
    # the point interval at 1 does not exclude 1, nor (one-sided) anything above it
    res = irr.plan.simulate("fleiss_kappa", n=30, null=1.0, coefficient=1.0, raters=3,
                            categories=3, n_simulations=20, alternative="greater")
    assert float(res.power) == 0.0


@pytest.mark.parametrize(
    ("statistic", "message"),
    [("limits_of_agreement", "the bias"), ("deming", "regression line"),
     ("passing_bablok", "regression line"), ("total_deviation_index", "units"),
     ("coverage_probability", "units"), ("measurement_error", "several"),
     ("specific_agreement", "several"), ("mcnemar", "test of rater bias"),
     ("summary", "`statistic`")],
)
def test_a_statistic_without_a_population_coefficient_is_refused(statistic, message):
    # the model sets a kappa or an ICC; a bias (true value 0) tested against 0.4 is no power
    with pytest.raises(ValueError, match=message):
        irr.plan.simulate(statistic, n=30, coefficient=0.6, null=0.4, continuous=True,
                          n_simulations=10)


def test_a_coefficient_without_an_interval_is_refused():
    with pytest.raises(ValueError, match="ci='bca'"):
        irr.plan.simulate("kendall_w", n=30, coefficient=0.6, null=0.4, raters=3,
                          continuous=True, n_simulations=10)


def test_the_sentence_names_the_population_coefficient():
    res = irr.plan.simulate("gwet_ac", n=30, coefficient=0.6, null=0.2, categories=3,
                            n_simulations=10)
    assert "when the population kappa was 0.6" in res.report()
    res = irr.plan.simulate("concordance", n=30, coefficient=0.6, null=0.2,
                            continuous=True, n_simulations=10)
    assert "when the population ICC was 0.6" in res.report()
