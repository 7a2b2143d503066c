"""Krippendorff's alpha, the ICC and Kendall's W against published values.

* Krippendorff, K. (2011). Computing Krippendorff's alpha-reliability, example C (the
  ``cac_raw4raters`` data, 12 units x 4 observers with missing values): alpha 0.743
  nominal, 0.815 ordinal, 0.849 interval, 0.797 ratio (3 decimals, tolerance 5e-4);
  values per category n_c = 9, 13, 10, 5, 3 and n = 40 pairable values.
* Shrout, P. E., & Fleiss, J. L. (1979), Table 1 (6 targets x 4 judges) and Table 2 (its
  ANOVA: BMS 11.24, WMS 6.26, JMS 32.49, EMS 1.02), and the six ICCs of Table 4:
  ICC(1,1) .17, ICC(2,1) .29, ICC(3,1) .71, ICC(1,4) .44, ICC(2,4) .62, ICC(3,4) .91
  (2 decimals, tolerance 5e-3).
* R package irr 0.84.1, help page of ``icc``: ``icc(anxiety, model = "twoway", type =
  "agreement")`` prints ICC(A,1) = 0.198 and the 95% interval -0.039 < ICC < 0.494.
* DescTools, help page of ``KendallW``
  (https://andrisignorell.github.io/DescTools/reference/KendallW.html):
  ``KendallW(anxiety, TRUE)`` = 0.5396569 (tie-corrected W of irr's anxiety data).
"""

import numpy as np
import pandas as pd
import pytest

import irr

PUBLISHED_ALPHA = {"nominal": 0.743, "ordinal": 0.815, "interval": 0.849, "ratio": 0.797}

SHROUT_FLEISS = np.array(
    [[9, 2, 5, 8], [6, 1, 3, 2], [8, 4, 6, 8], [7, 1, 2, 6], [10, 5, 6, 9], [6, 2, 4, 7]]
)

# (model, type, unit) -> Shrout & Fleiss name and published ICC
SHROUT_FLEISS_ICC = [
    (("oneway", "agreement", "single"), "ICC(1,1)", 0.17),
    (("twoway", "agreement", "single"), "ICC(2,1)", 0.29),
    (("twoway", "consistency", "single"), "ICC(3,1)", 0.71),
    (("oneway", "agreement", "average"), "ICC(1,4)", 0.44),
    (("twoway", "agreement", "average"), "ICC(2,4)", 0.62),
    (("twoway", "consistency", "average"), "ICC(3,4)", 0.91),
]


@pytest.fixture(scope="module")
def cac():
    return irr.datasets.load("cac_raw4raters")


@pytest.mark.parametrize(("level", "published"), PUBLISHED_ALPHA.items())
def test_krippendorff_2011_example(cac, level, published):
    res = irr.Agreement.from_frame(cac).krippendorff_alpha(level)
    assert res.estimate == pytest.approx(published, abs=5e-4)
    assert res.n_pairable == 40
    assert res.n_subjects == 11  # unit 12 has a single value: not pairable
    assert res.n_missing == 1
    # both layouts of the array function give the same number
    by_units = irr.krippendorff_alpha(cac, level).estimate
    by_raters = irr.krippendorff_alpha(cac.to_numpy().T, level, layout="raters-units").estimate
    assert by_units == pytest.approx(res.estimate, abs=1e-15)
    assert by_raters == pytest.approx(res.estimate, abs=1e-15)


def test_krippendorff_2011_coincidences(cac):
    res = irr.Agreement.from_frame(cac).krippendorff_alpha()
    np.testing.assert_allclose(res.coincidences.sum(axis=1), [9, 13, 10, 5, 3], atol=1e-12)
    np.testing.assert_allclose(res.coincidences, res.coincidences.T)
    # unit 6 (values 1, 2, 3, 4) adds 1/3 to each off-diagonal cell among 1..4
    assert res.coincidences[0, 3] == pytest.approx(1 / 3, abs=1e-15)
    assert res.coincidences[4, 4] == pytest.approx(3.0, abs=1e-15)


@pytest.mark.parametrize(("form", "name", "published"), SHROUT_FLEISS_ICC)
def test_shrout_fleiss_1979_table(form, name, published):
    ag = irr.Agreement.from_frame(pd.DataFrame(SHROUT_FLEISS))
    res = ag.icc(*form)
    assert res.coefficient == name
    assert res.shrout_fleiss == name
    assert res.estimate == pytest.approx(published, abs=5e-3)
    same = irr.icc(SHROUT_FLEISS, *form)
    assert same.estimate == pytest.approx(res.estimate, abs=1e-15)


def test_shrout_fleiss_1979_anova_and_f():
    res = irr.icc(SHROUT_FLEISS, "twoway", "agreement", "single")
    assert res.ms_rows == pytest.approx(11.24, abs=5e-3)
    assert res.ms_within == pytest.approx(6.26, abs=5e-3)
    assert res.ms_columns == pytest.approx(32.49, abs=5e-3)
    assert res.ms_error == pytest.approx(1.02, abs=5e-3)
    # F = BMS / EMS on (5, 15) df for the two-way forms, BMS / WMS on (5, 18) one-way
    assert res.statistic == pytest.approx(res.ms_rows / res.ms_error, rel=1e-14)
    assert (res.df1, res.df2) == (5, 15)
    one = irr.icc(SHROUT_FLEISS, "oneway", "agreement", "single")
    assert one.statistic == pytest.approx(one.ms_rows / one.ms_within, rel=1e-14)
    assert (one.df1, one.df2) == (5, 18)


def test_r_irr_icc_anxiety_example():
    ag = irr.Agreement.from_frame(irr.datasets.load("anxiety"))
    res = ag.icc("twoway", "agreement", "single")
    assert res.estimate == pytest.approx(0.198, abs=5e-4)
    assert res.ci.low == pytest.approx(-0.039, abs=5e-4)
    assert res.ci.high == pytest.approx(0.494, abs=5e-4)
    assert res.statistic == pytest.approx(1.83, abs=5e-3)


def test_desctools_kendall_w_anxiety():
    ag = irr.Agreement.from_frame(irr.datasets.load("anxiety"))
    res = ag.kendall_w()
    assert res.estimate == pytest.approx(0.5396569, abs=5e-8)
    assert res.statistic == pytest.approx(3 * 19 * res.estimate, rel=1e-14)
    assert res.df == 19
