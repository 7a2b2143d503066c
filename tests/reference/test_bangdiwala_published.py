"""Bangdiwala's B against published values.

* irrCAC's README (GitHub version after 1.0), ``bangdiwala.table(cont3x3abstractors)``:
  coeff.val 0.8059604, coeff.se 0.05449465, coeff.ci (0.698, 0.914) (t on n - 1 df).
* PyCM's printout of the 3 x 3 confusion matrix [[405, 89, 6], [37, 328, 39], [13, 51,
  183]] ("Bangdiwala B 0.64518", with Kappa 0.6825), in the README of
  github.com/nicola-gentile/commit-classifier.
* Friendly & Meyer (2016), Discrete Data Analysis with R, sec. 4.5 (the agreement chart
  of vcd's ``SexualFun`` with ``agreementplot``'s default weights c(1, 1 - 1/(4 - 1)^2)):
  B = 0.146, weighted B = 0.498.
"""

import numpy as np
import pytest

import irr

CONT3X3ABSTRACTORS = np.array([[13, 0, 0], [0, 20, 7], [0, 4, 56]])
# vcd's SexualFun: husband (rows) by wife (columns), "Never Fun" .. "Always fun"
SEXUAL_FUN = np.array([[7, 7, 2, 3], [2, 8, 3, 7], [1, 5, 4, 9], [2, 8, 9, 14]])


def test_irrcac_bangdiwala_table():
    ag = irr.Agreement.from_table(CONT3X3ABSTRACTORS)
    res = ag.bangdiwala_b(distribution="t")
    assert res.estimate == pytest.approx(0.8059604, abs=5e-8)
    assert res.se == pytest.approx(0.05449465, abs=5e-9)
    lo, hi = res.ci
    assert (round(lo, 3), round(hi, 3)) == (0.698, 0.914)
    assert res.design_df == 99


def test_pycm_bangdiwala_b():
    ag = irr.Agreement.from_table([[405, 89, 6], [37, 328, 39], [13, 51, 183]])
    assert ag.bangdiwala_b().estimate == pytest.approx(0.64518, abs=5e-6)
    assert ag.kappa().estimate == pytest.approx(0.6825, abs=5e-5)  # the same printout


def test_friendly_meyer_sexual_fun():
    ag = irr.Agreement.from_table(SEXUAL_FUN, categories=[1, 2, 3, 4])
    assert round(ag.bangdiwala_b().estimate, 3) == 0.146
    weighted = ag.bangdiwala_b(partial_weights=[1 - 1 / 3**2])
    assert round(weighted.estimate, 3) == 0.498
    # the transposed table (vcd's agreementplot(t(SexualFun))) gives the same B
    swapped = irr.Agreement.from_table(SEXUAL_FUN.T, categories=[1, 2, 3, 4])
    assert swapped.bangdiwala_b([8 / 9]).estimate == pytest.approx(weighted.estimate,
                                                                     abs=1e-15)
