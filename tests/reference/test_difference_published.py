"""Differences of correlated agreement coefficients against published output.

Gwet's (2016) linearised test, as printed in the README of Gwet's own R package pairedCAC
(github.com/kgwet/pairedCAC, README.md, "Example", 2021-09-16): two data sets of 4 raters
x 15 subjects on a 3-category scale (``data/ratings1.csv``, ``data/ratings2.csv`` of
that repository, copied to ``tests/reference/data/gwet_paired_ratings*.csv``). pairedCAC
reports coefficient 1, coefficient 2, their difference (second minus first), its
standard error and the test statistic; its p-value uses t on n - 1 = 14 df where irr's
uses the normal law, so the p-values are compared through the statistic. Tolerance 1e-6
(the README prints 7 significant digits).
"""

import pathlib

import pandas as pd
import pytest
from scipy import stats

import irr

DATA = pathlib.Path(__file__).parent / "data"

#: pairedCAC README: (function, second data set's raters) -> (coeff1, coeff2, diff, se, t)
PAIRED_CAC = {
    ("fleiss_kappa", 4): (0.3856655, 0.7248495, 0.339184, 0.1574322, 2.154477),
    ("fleiss_kappa", 3): (0.3856655, 0.7942073, 0.4085418, 0.1612858, 2.53303),
    # ttest.ac2 with its default unweighted analysis is Gwet's AC1
    ("gwet_ac", 4): (0.4069193, 0.737382, 0.3304628, 0.1452689, 2.274835),
    ("brennan_prediger", 4): (0.4, 0.7333333, 0.3333333, 0.1477342, 2.256304),
    ("percent_agreement", 4): (0.6, 0.8222222, 0.2222222, 0.09848947, 2.256304),
    ("conger_kappa", 4): (0.3932584, 0.7250859, 0.3318275, 0.1527202, 2.172781),
    ("krippendorff_alpha", 4): (0.3959044, 0.7294354, 0.3335309, 0.1548083, 2.154477),
}

#: pairedCAC README p-values (t on 14 df) of the same comparisons.
PAIRED_CAC_P = {("fleiss_kappa", 4): 0.04910569, ("fleiss_kappa", 3): 0.02389035,
                ("gwet_ac", 4): 0.03917311, ("brennan_prediger", 4): 0.04056859,
                ("percent_agreement", 4): 0.04056859, ("conger_kappa", 4): 0.04745695,
                ("krippendorff_alpha", 4): 0.04910569}


@pytest.fixture(scope="module")
def ratings():
    return (pd.read_csv(DATA / "gwet_paired_ratings1.csv"),
            pd.read_csv(DATA / "gwet_paired_ratings2.csv"))


@pytest.mark.parametrize("case", sorted(PAIRED_CAC))
def test_paired_cac_readme(ratings, case):
    statistic, raters = case
    first, second = ratings
    later = irr.Agreement.from_frame(second.iloc[:, :raters])
    earlier = irr.Agreement.from_frame(first)
    res = irr.difference(later, earlier, statistic=statistic, labels=("2", "1"))
    coeff1, coeff2, diff, se, t = PAIRED_CAC[case]
    assert res.estimate_second == pytest.approx(coeff1, abs=1e-6)
    assert res.estimate_first == pytest.approx(coeff2, abs=1e-6)
    assert res.estimate == pytest.approx(diff, abs=1e-6)
    assert res.se == pytest.approx(se, abs=1e-6)
    assert res.statistic == pytest.approx(t, abs=1e-5)
    assert res.n_subjects == 15
    # pairedCAC's p-value is the t(14) tail of the same statistic; irr's the normal one
    assert 2 * stats.t.sf(abs(res.statistic), 14) == pytest.approx(PAIRED_CAC_P[case],
                                                                  abs=1e-6)
    assert res.pvalue == pytest.approx(2 * stats.norm.sf(abs(res.statistic)), rel=1e-9)


def test_paired_cac_estimates_equal_the_standalone_coefficients(ratings):
    """On complete data the two sides are the package's own coefficients."""
    first, second = ratings
    a, b = irr.Agreement.from_frame(second), irr.Agreement.from_frame(first)
    res = irr.difference(a, b, statistic="fleiss_kappa")
    assert res.estimate_first == pytest.approx(a.fleiss_kappa().estimate, abs=1e-12)
    assert res.estimate_second == pytest.approx(b.fleiss_kappa().estimate, abs=1e-12)
