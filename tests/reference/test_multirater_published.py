"""Multi-rater chance-corrected coefficients against published values.

Sources (printed output, so tolerances are half a unit in the last printed digit):

- irrCAC 1.0 README / overview vignette (Gwet 2019, https://github.com/kgwet/irrCAC,
  README.md): ``pa.coeff.raw``, ``gwet.ac1.raw``, ``fleiss.kappa.raw``,
  ``conger.kappa.raw``, ``bp.coeff.raw`` on ``cac.raw4raters`` (Gwet 2014, p. 120), the
  ``*.dist`` functions on ``distrib.6raters`` (the first 15 subjects of Fleiss 1971, as
  counts) and the two-rater ``*.table`` functions on ``cont3x3abstractors``.
- irrCAC 1.0 weighting vignette (vignettes/weighting.html): the same with quadratic weights.
- Fleiss (1971): kappa 0.430 on the diagnoses data; Gwet (2014) SE 0.0542 (issue 4).

irrCAC's coefficient values are printed to 5 decimals (raw) and SEs to 5 (raw) or 7-8
significant digits (dist, table). Its p-values and intervals use t with n - 1 df, ours the
normal, so only estimates, p_a, p_e and SEs are compared. Its ``*.table`` (two-rater
contingency table) functions divide the variance by n instead of n - 1: those SEs are
compared after multiplying ours by sqrt((n - 1) / n).
"""

import math

import numpy as np
import pytest

import irr

RAW = irr.datasets.load("cac_raw4raters")

# method, weights, estimate, se, pa, pe   (irrCAC 1.0, cac.raw4raters)
RAW_VALUES = [
    ("percent_agreement", None, 0.8181818, 0.12561, 0.8181818, 0.0),
    ("gwet_ac", None, 0.77544, 0.14295, 0.8181818, 0.1903212),
    ("fleiss_kappa", None, 0.76117, 0.15302, 0.8181818, 0.2387153),
    ("conger_kappa", None, 0.76282, 0.14917, 0.8181818, 0.2334252),
    ("brennan_prediger", None, 0.77273, 0.14472, 0.8181818, 0.2),
    ("gwet_ac", "quadratic", 0.914, 0.10396, 0.9753788, 0.7137044),
    ("fleiss_kappa", "quadratic", 0.86494, 0.14603, 0.9753788, 0.8177083),
    ("conger_kappa", "quadratic", 0.85771, 0.14367, 0.9753788, 0.8269638),
    ("brennan_prediger", "quadratic", 0.90152, 0.11089, 0.9753788, 0.75),
]


@pytest.mark.parametrize(("method", "weights", "estimate", "se", "pa", "pe"), RAW_VALUES)
def test_irrcac_raw4raters(method, weights, estimate, se, pa, pe):
    ag = irr.Agreement.from_frame(RAW)
    res = getattr(ag, method)() if weights is None else getattr(ag, method)(weights)
    assert res.estimate == pytest.approx(estimate, abs=5e-6 if estimate != 0.914 else 5e-4)
    assert res.se == pytest.approx(se, abs=5e-6)
    assert res.observed_agreement == pytest.approx(pa, abs=5e-8)
    assert res.expected_agreement == pytest.approx(pe, abs=5e-8)
    assert res.n_subjects == 12
    assert res.n_paired == 11


@pytest.mark.parametrize("weights", ["quadratic", np.array(
    [[1 - (k - m) ** 2 / 16 for m in range(5)] for k in range(5)])], ids=["name", "matrix"])
def test_irrcac_raw4raters_weighted_percent_agreement(weights):
    # pa.coeff.raw(cac.raw4raters, weights="quadratic"): 0.9753788, SE 0.09062 (irrCAC
    # weighting vignette); its interval uses t on n - 1 = 11 df
    ag = irr.Agreement.from_frame(RAW)
    res = ag.percent_agreement(weights=weights)
    assert res.estimate == pytest.approx(0.9753788, abs=5e-8)
    assert res.se == pytest.approx(0.09062, abs=5e-6)
    assert res.ci.method == "wald"
    label = "quadratic" if isinstance(weights, str) else "custom"
    assert res.coefficient == f"Percent agreement (pairwise, {label} weights)"
    t = ag.percent_agreement(weights=weights, distribution="t", ci_clip=False)
    half = 2.200985160091639 * 0.09061627831954652  # qt(0.975, 11) x SE
    assert (t.ci.low, t.ci.high) == pytest.approx((0.9753788 - half, 0.9753788 + half),
                                                  abs=5e-7)


DISTRIB_6RATERS = [
    [0, 0, 0, 6, 0], [0, 3, 0, 0, 3], [0, 1, 4, 0, 1], [0, 0, 0, 0, 6], [0, 3, 0, 3, 0],
    [2, 0, 4, 0, 0], [0, 0, 4, 0, 2], [2, 0, 3, 1, 0], [2, 0, 0, 4, 0], [0, 0, 0, 0, 6],
    [1, 0, 0, 5, 0], [1, 1, 0, 4, 0], [0, 3, 3, 0, 0], [1, 0, 0, 5, 0], [0, 2, 0, 3, 1],
]

# method, weights, estimate, se, pe  (irrCAC 1.0 *.dist on distrib.6raters; weights on 1:5)
DIST_VALUES = [
    ("gwet_ac", None, 0.4448007, 0.08418757, 0.1914815),
    ("fleiss_kappa", None, 0.4139265, 0.08119291, 0.2340741),
    ("brennan_prediger", None, 0.4388889, 0.08312142, 0.2),
    ("gwet_ac", "quadratic", 0.4837438, 0.1058227, 0.7180556),
    ("fleiss_kappa", "quadratic", 0.2511909, 0.1457381, 0.8056173),
    ("brennan_prediger", "quadratic", 0.4177778, 0.1067493, 0.75),
]


@pytest.mark.parametrize(("method", "weights", "estimate", "se", "pe"), DIST_VALUES)
def test_irrcac_distrib_6raters(method, weights, estimate, se, pe):
    ag = irr.Agreement.from_counts(DISTRIB_6RATERS, categories=[1, 2, 3, 4, 5])
    res = getattr(ag, method)(weights)
    assert res.estimate == pytest.approx(estimate, abs=5e-8)
    assert res.se == pytest.approx(se, abs=5e-8)
    assert res.expected_agreement == pytest.approx(pe, abs=5e-8)
    pa = 0.8544444 if weights else 0.5511111
    assert res.observed_agreement == pytest.approx(pa, abs=5e-8)


CONT3X3 = [[13, 0, 0], [0, 20, 7], [0, 4, 56]]

# method, weights, estimate, se (irrCAC 1.0 *.table on cont3x3abstractors, divisor n)
TABLE_VALUES = [
    ("scott_pi", None, 0.7962397, 0.05905473),
    ("gwet_ac", None, 0.8493305, 0.04321747),
    ("brennan_prediger", None, 0.835, 0.04693346),
    ("scott_pi", "quadratic", 0.8921093, 0.03539506),
    ("gwet_ac", "quadratic", 0.9402369, 0.01792019),
    ("brennan_prediger", "quadratic", 0.9175, 0.02346673),
]


@pytest.mark.parametrize(("method", "weights", "estimate", "se"), TABLE_VALUES)
def test_irrcac_two_rater_table(method, weights, estimate, se):
    ag = irr.Agreement.from_table(CONT3X3, categories=[1, 2, 3])
    res = getattr(ag, method)(weights)
    n = 100
    assert res.estimate == pytest.approx(estimate, abs=5e-8)
    assert res.se * math.sqrt((n - 1) / n) == pytest.approx(se, abs=5e-8)


def test_irrcac_two_rater_table_percent_agreement():
    # pa2.table: 0.89, SE 0.03128898 = sqrt(p(1-p)/n); our two-rater percent agreement
    # reports the same SE (and a Wilson interval).
    res = irr.Agreement.from_table(CONT3X3).percent_agreement()
    assert res.estimate == pytest.approx(0.89, abs=1e-12)
    assert res.se == pytest.approx(0.03128898, abs=5e-8)


def test_fleiss_1971_diagnoses():
    ag = irr.Agreement.from_frame(irr.datasets.load("diagnoses"))
    res = ag.fleiss_kappa()
    assert res.estimate == pytest.approx(0.430, abs=5e-4)  # Fleiss (1971)
    assert res.se == pytest.approx(0.0542, abs=5e-5)  # Gwet (2014), issue 4
    # Fleiss, Nee & Landis (1979) null SE: z = 0.430 / 0.0244 = 17.7 (R irr kappam.fleiss)
    assert res.statistic == pytest.approx(17.7, abs=0.05)
    assert res.n_subjects == 30
    # the interval is built on the linearised SE, never the (much smaller) null SE
    assert res.ci.high - res.ci.low == pytest.approx(2 * 1.959964 * res.se, rel=1e-6)
    assert res.se0 < res.se / 2


def test_fleiss_1971_per_category():
    # Category kappas to 3 decimals as R irr's kappam.fleiss(diagnoses, detail=TRUE)
    # prints them (recalled, not re-verified from Fleiss 1971's table in this run; the
    # independent check is statsmodels on each category-vs-rest split, in
    # tests/property/test_multirater_crosscheck.py). Null SE: sqrt(2 / (n m (m - 1))).
    res = irr.Agreement.from_frame(irr.datasets.load("diagnoses")).fleiss_kappa()
    table = res.per_category
    assert list(table.columns) == ["category", "kappa", "se", "se0", "z", "pvalue"]
    assert table["kappa"].round(3).tolist() == [0.245, 0.245, 0.520, 0.471, 0.566]
    assert np.allclose(table["se0"], math.sqrt(2 / (30 * 6 * 5)), rtol=1e-12)
    assert np.allclose(table["z"], table["kappa"] / table["se0"], rtol=1e-12)
