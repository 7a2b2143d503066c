"""Sample size for kappa with k categories, Flack, Afifi, Lachenbruch & Schouten (1988):
irr.plan.kappa(method="flack") against R irr's N2.cohen.kappa and independent checks.

Sources:

- R irr 0.84.1 ``N2.cohen.kappa``, the three examples of its manual page (one-sided,
  alpha 0.05): ``N2.cohen.kappa(c(0.2, 0.25, 0.55), k1 = 0.6, k0 = 0.4)`` = 101, with
  ``power = 0.9`` = 136, and ``N2.cohen.kappa(c(0.2, 0.05, 0.2, 0.05, 0.2, 0.3), k1 = 0.5,
  k0 = 0.1)`` = 18. Secondary: the manual does not print its output; these numbers are
  those recorded in the test suite of pyirr (github.com/sophiedkk/pyirr,
  tests/test_cohen_kappa.py), whose functions mirror R irr's. Flack et al.'s own tables
  could not be consulted.
- Independent checks: with two categories the table is determined by the margins and
  kappa, so the plan must equal Cantor's (1996) with equal rates; the variance at the
  linear programme's table is the package's Fleiss–Cohen–Everitt variance, and no other
  table with those margins and kappa (random vertices and their mixtures) has a larger
  one; a simulation (slow) checks the power.
"""

import math

import numpy as np
import pytest
from scipy.optimize import linprog
from scipy.stats import norm

import irr
from irr.coefficients.kappa import kappa_variances
from irr.plan.kappa_plan import flack_table, flack_variance

N2_COHEN_KAPPA = [
    ([0.2, 0.25, 0.55], 0.4, 0.6, 0.8, 101),
    ([0.2, 0.25, 0.55], 0.4, 0.6, 0.9, 136),
    ([0.2, 0.05, 0.2, 0.05, 0.2, 0.3], 0.1, 0.5, 0.8, 18),
]


@pytest.mark.parametrize(("margins", "k0", "k1", "power", "expected"), N2_COHEN_KAPPA)
def test_r_irr_n2_cohen_kappa_examples(margins, k0, k1, power, expected):
    res = irr.plan.kappa(k0, k1, method="flack", proportions=margins, power=power,
                         alternative="greater")
    assert int(res.n) == expected


def test_closed_form():
    # n = ((z_alpha tau0 + z_beta tau1) / (k1 - k0))^2, rounded up
    margins, k0, k1 = [0.2, 0.25, 0.55], 0.4, 0.6
    tau0, tau1 = math.sqrt(flack_variance(k0, margins)), math.sqrt(flack_variance(k1, margins))
    n = ((norm.isf(0.05) * tau0 + norm.isf(0.2) * tau1) / (k1 - k0)) ** 2
    assert int(irr.plan.kappa(k0, k1, method="flack", proportions=margins,
                              alternative="greater").n) == math.ceil(n)
    two = ((norm.isf(0.025) * tau0 + norm.isf(0.2) * tau1) / (k1 - k0)) ** 2
    assert int(irr.plan.kappa(k0, k1, method="flack", proportions=margins).n) == math.ceil(two)


@pytest.mark.parametrize("prevalence", [0.3, 0.5])
def test_two_categories_equal_cantor(prevalence):
    flack = irr.plan.kappa(0.4, 0.7, method="flack", prevalence=prevalence)
    cantor = irr.plan.kappa(0.4, 0.7, method="cantor", rates=(prevalence, prevalence))
    assert int(flack.n) == int(cantor.n)
    assert float(flack.power) == pytest.approx(float(cantor.power), rel=1e-9)


@pytest.mark.parametrize(("margins", "kappa"), [([0.2, 0.25, 0.55], 0.6),
                                                ([0.1, 0.2, 0.3, 0.4], 0.3),
                                                ([0.2, 0.05, 0.2, 0.05, 0.2, 0.3], 0.1)])
def test_no_table_with_these_margins_and_kappa_has_a_larger_variance(margins, kappa):
    p = np.asarray(margins)
    k = p.size
    table = flack_table(kappa, margins)
    assert table.sum(axis=0) == pytest.approx(p, abs=1e-9)
    assert table.sum(axis=1) == pytest.approx(p, abs=1e-9)
    expected = p @ p
    observed = np.trace(table)
    assert (observed - expected) / (1 - expected) == pytest.approx(kappa, abs=1e-9)
    best = flack_variance(kappa, margins)
    assert best == pytest.approx(float(kappa_variances(table, np.eye(k))[0]), rel=1e-12)
    # other feasible tables: vertices for random objectives, and mixtures of them
    eye = np.eye(k)
    a_eq = np.vstack([np.kron(eye, np.ones((1, k))), np.kron(np.ones((1, k)), eye),
                      eye.reshape(1, -1)])
    b_eq = np.concatenate([p, p, [expected + kappa * (1 - expected)]])
    rng = np.random.default_rng(5)
    vertices = [linprog(rng.normal(size=k * k), A_eq=a_eq, b_eq=b_eq, bounds=(0, None),
                        method="highs").x.reshape(k, k) for _ in range(40)]
    weights = rng.dirichlet(np.ones(len(vertices)), size=200)
    tables = np.concatenate([np.stack(vertices), np.einsum("bv,vij->bij", weights,
                                                           np.stack(vertices))])
    variances, _ = kappa_variances(np.maximum(tables, 0), eye)
    assert np.max(variances) <= best * (1 + 1e-9)
    assert np.min(variances) < best * 0.99  # the margins and kappa leave room to choose


def test_bad_arguments():
    with pytest.raises(ValueError, match="method='flack'` is for two raters"):
        irr.plan.kappa(0.4, 0.6, method="flack", raters=3, proportions=[0.3, 0.7])
    with pytest.raises(ValueError, match="sum"):
        irr.plan.kappa(0.4, 0.6, method="flack", proportions=[0.3, 0.3, 0.3])


def test_report_and_power_at_n():
    res = irr.plan.kappa(0.4, 0.6, method="flack", proportions=[0.2, 0.25, 0.55],
                         alternative="greater")
    assert res.report().startswith("With 101 subjects rated by 2 raters on a rating scale "
                                   "with 3 categories, a one-sided test of kappa = 0.4")
    assert "Flack et al., 1988" in res.report()
    at = irr.plan.kappa(0.4, 0.6, method="flack", proportions=[0.2, 0.25, 0.55],
                        alternative="greater", n=[100, 101])
    assert float(at.power[0]) < 0.8 <= float(at.power[1])


@pytest.mark.slow
def test_simulated_power_at_the_largest_variance_table():
    """Studies of n subjects drawn from the largest-variance table with kappa1: the z test
    of kappa = kappa0 on the package's Cohen's kappa, with Flack's null SE, rejects at
    about the planned power."""
    margins, k0, k1 = [0.2, 0.25, 0.55], 0.4, 0.6
    res = irr.plan.kappa(k0, k1, method="flack", proportions=margins, alternative="greater")
    n = int(res.n)
    claimed = float(res.power)
    se0 = math.sqrt(flack_variance(k0, margins) / n)
    cells = flack_table(k1, margins).ravel()
    rng = np.random.default_rng(1988)
    reps = 2000
    rejected = 0
    for _ in range(reps):
        table = rng.multinomial(n, cells).reshape(3, 3)
        est = irr.Agreement.from_table(table).kappa().estimate
        rejected += (est - k0) / se0 > norm.isf(0.05)
    rate = rejected / reps
    assert abs(rate - claimed) < 3 * math.sqrt(claimed * (1 - claimed) / reps) + 0.02, rate
