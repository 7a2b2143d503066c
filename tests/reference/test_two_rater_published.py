"""Two-rater statistics against published or documented values.

Sources (tolerance: the printed decimals):

* Feinstein & Cicchetti (1990), J Clin Epidemiol 43:543-549, Table 1 (the two tables of the
  kappa paradoxes, both p_o = 0.85): (40, 9 / 6, 45) kappa 0.70 and (80, 10 / 5, 5) kappa
  0.32. Byrt, Bishop & Carlin (1993), J Clin Epidemiol 46:423-429, write kappa in terms of
  PABAK, the prevalence index PI = (a - d)/n and the bias index BI = (b - c)/n,
  kappa = (PABAK - PI^2 + BI^2) / (1 - PI^2 + BI^2); on these tables PABAK = 2(0.85) - 1 =
  0.70 for both, PI = -0.05 and 0.75, BI = 0.03 and 0.05.
* Cunningham (2009), SAS Global Forum paper 242-2009, Figure 2, as reproduced on Statalist
  (https://www.stata.com/statalist/archive/2013-07/msg01157.html): the table (95, 4 / 1, 0)
  has PABAK 0.90, prevalence index 0.95, bias index 0.03.
* Cicchetti & Feinstein (1990), J Clin Epidemiol 43:551-558: positive and negative
  agreement p_pos = 2a / (2a + b + c), p_neg = 2d / (2d + b + c); for (80, 10 / 5, 5),
  0.91 and 0.40.
* Graham & Bull (1998), J Clin Epidemiol 51:763-771: the delta-method SE of positive
  agreement, sqrt(4a(b + c)(a + b + c)) / (2a + b + c)^2.
* The vision data (Stuart 1953; R irr ``vision``, Stata ``bhapkar`` help): Stuart-Maxwell
  chi-square 11.957 and Bhapkar chi-square 11.976 on 3 df (p = 0.0075), the values of
  statsmodels' ``SquareTable.homogeneity`` and of the relation W = X2 / (1 - X2 / n).
* R irr ``rater.bias`` (manual page "rater.bias": "the absolute value of the triangular
  off-diagonal sum ratio of the cxc classification table and the corresponding test
  statistic", chi-square on 1 df; its example is ``rater.bias(vision)``, Bishop, Fienberg &
  Holland 1975, Table 8.2-1): counted here by hand from the table.
* R irr ``maxwell`` (manual page "maxwell": Maxwell's RE for binary data, 2 p_o - 1).
"""

from __future__ import annotations

import math

import numpy as np
import pytest

import irr

PARADOX_BALANCED = [[40, 9], [6, 45]]
PARADOX_PREVALENT = [[80, 10], [5, 5]]


@pytest.mark.parametrize(("table", "kappa", "pi", "bi"), [
    (PARADOX_BALANCED, 0.70, -0.05, 0.03),
    (PARADOX_PREVALENT, 0.32, 0.75, 0.05),
])
def test_pabak_prevalence_and_bias_of_the_kappa_paradox_tables(table, kappa, pi, bi):
    res = irr.Agreement.from_table(table).pabak(positive=0)
    assert res.estimate == pytest.approx(0.70, abs=1e-12)
    assert res.prevalence_index == pytest.approx(pi, abs=1e-12)
    assert res.bias_index == pytest.approx(bi, abs=1e-12)
    assert round(res.kappa, 2) == kappa
    # Byrt et al.'s decomposition of kappa
    decomposed = (res.estimate - pi**2 + bi**2) / (1 - pi**2 + bi**2)
    assert res.kappa == pytest.approx(decomposed, abs=1e-12)
    assert res.kappa == pytest.approx(irr.Agreement.from_table(table).kappa().estimate)


def test_pabak_cunningham_figure_2():
    res = irr.Agreement.from_table([[95, 4], [1, 0]]).pabak(positive=0)
    assert (round(res.estimate, 4), round(res.prevalence_index, 4),
            round(res.bias_index, 4)) == (0.9, 0.95, 0.03)


def test_pabak_wilson_interval_is_the_mapped_wilson_interval_of_po():
    res = irr.Agreement.from_table(PARADOX_PREVALENT).pabak()
    po = irr.Agreement.from_table(PARADOX_PREVALENT).percent_agreement()
    assert res.ci.low == pytest.approx(2 * po.ci.low - 1, abs=1e-12)
    assert res.ci.high == pytest.approx(2 * po.ci.high - 1, abs=1e-12)
    assert res.se == pytest.approx(2 * math.sqrt(0.85 * 0.15 / 100), abs=1e-12)


def test_maxwell_re_is_2po_minus_1():
    a = [1, 1, 0, 0, 1, 0, 1, 1, 0, 1]
    b = [1, 0, 0, 1, 1, 0, 1, 1, 1, 1]  # 7 of 10 agree
    res = irr.maxwell_re(a, b)
    assert res.coefficient == "Maxwell's RE"
    assert res.estimate == pytest.approx(2 * 0.7 - 1, abs=1e-12)


def test_positive_and_negative_agreement_cicchetti_feinstein():
    res = irr.Agreement.from_table(PARADOX_PREVALENT, categories=["yes", "no"]
                                   ).specific_agreement(positive="yes")
    assert round(res["yes"].estimate, 2) == 0.91
    assert round(res["no"].estimate, 2) == 0.40
    assert res["yes"].coefficient == "Positive agreement (yes)"
    assert res["no"].coefficient == "Negative agreement (no)"
    assert res.estimate == pytest.approx(0.85)  # overall: percent agreement


@pytest.mark.parametrize("table", [PARADOX_BALANCED, PARADOX_PREVALENT, [[12, 3], [7, 1]]])
def test_graham_bull_standard_error(table):
    (a, b), (c, d) = table
    res = irr.Agreement.from_table(table).specific_agreement(positive=0)
    for x, label in ((a, 0), (d, 1)):
        se = math.sqrt(4 * x * (b + c) * (x + b + c)) / (2 * x + b + c) ** 2
        assert res[label].se == pytest.approx(se, rel=1e-12)
        z = 1.959963984540054
        assert res[label].ci.low == pytest.approx(max(0, res[label].estimate - z * se))


VISION = irr.datasets.load("vision")


def test_bhapkar_vision():
    ag = irr.Agreement.from_frame(VISION)
    sm = ag.marginal_homogeneity_test()
    bh = ag.bhapkar_test()
    assert round(sm.statistic, 3) == 11.957
    assert round(bh.statistic, 3) == 11.976
    assert bh.df == 3
    assert round(bh.pvalue, 4) == 0.0075
    assert bh.statistic == pytest.approx(sm.statistic / (1 - sm.statistic / 7477), rel=1e-12)


def test_rater_bias_vision_by_hand():
    t = np.array([[1520, 266, 124, 66], [234, 1512, 432, 78],
                  [117, 362, 1772, 205], [36, 82, 179, 492]])
    upper = 266 + 124 + 66 + 432 + 78 + 205  # 1171
    lower = 234 + 117 + 36 + 362 + 82 + 179  # 1010
    res = irr.rater_bias(t)
    assert res.estimate == pytest.approx(upper / (upper + lower), rel=1e-12)
    assert res.statistic == pytest.approx((upper - lower) ** 2 / (upper + lower), rel=1e-12)
    assert res.df == 1
    from scipy.stats import chi2

    assert res.pvalue == pytest.approx(chi2.sf((upper - lower) ** 2 / (upper + lower), 1))
    assert irr.Agreement.from_frame(VISION).rater_bias().statistic == pytest.approx(
        res.statistic)
