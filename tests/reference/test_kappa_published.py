"""Two-rater kappa against published values.

SAS/STAT User's Guide, PROC FREQ, "Output 3.12: Agreement Study" (skin condition ratings
of 88 subjects by two dermatologists; also in Fleiss, Levin & Paik 2003): the values below
are SAS's printed output, 4 decimals, so the tolerance is 5e-5.
"""

import numpy as np
import pytest

import irr

SAS_TABLE = [[10, 4, 1, 0], [5, 10, 12, 2], [2, 4, 12, 5], [0, 2, 6, 13]]

# weights, kappa, ASE, ASE under H0, 95% lower, 95% upper (SAS output)
SAS_VALUES = [
    (None, 0.3449, 0.0724, 0.0612, 0.2030, 0.4868),
    ("Cicchetti-Allison", 0.5082, 0.0655, 0.0739, 0.3798, 0.6366),
    ("Fleiss-Cohen", 0.6607, 0.0616, 0.1065, 0.5399, 0.7815),
]


@pytest.mark.parametrize(("weights", "kappa", "ase", "ase0", "low", "high"), SAS_VALUES)
def test_sas_proc_freq_agreement_example(weights, kappa, ase, ase0, low, high):
    res = irr.Agreement.from_table(SAS_TABLE).kappa(weights=weights)
    assert res.estimate == pytest.approx(kappa, abs=5e-5)
    assert res.se == pytest.approx(ase, abs=5e-5)
    assert res.se0 == pytest.approx(ase0, abs=5e-5)
    assert res.ci.low == pytest.approx(low, abs=5e-5)
    assert res.ci.high == pytest.approx(high, abs=5e-5)
    assert res.n_subjects == 88


def test_z_test_uses_the_null_standard_error():
    # SAS: "Test of H0: Kappa = 0" divides kappa by the ASE under H0; Pr > |Z| < .0001.
    from scipy import stats

    res = irr.Agreement.from_table(SAS_TABLE).kappa()
    assert res.statistic == pytest.approx(res.estimate / res.se0, rel=1e-15)
    assert res.pvalue == pytest.approx(2 * stats.norm.sf(res.statistic), rel=1e-12)
    assert res.pvalue < 1e-4
    one_sided = irr.Agreement.from_table(SAS_TABLE).kappa(alternative="greater")
    assert one_sided.pvalue == pytest.approx(stats.norm.sf(res.statistic), rel=1e-12)


def test_essay_example_of_seed_003_with_its_arithmetic_corrected():
    # 87 essays graded by two teachers. The blog prints p_e = 0.455 and kappa = 0.4293578,
    # an arithmetic error: from its own table p_e = 2771/7569 and kappa = 0.51042.
    table = [[10, 2, 8], [5, 35, 5], [5, 2, 15]]
    res = irr.Agreement.from_table(table).kappa()
    assert res.expected_agreement == pytest.approx(2771 / 7569, abs=1e-15)
    assert res.observed_agreement == pytest.approx(60 / 87, abs=1e-15)
    assert res.estimate == pytest.approx(0.51042, abs=5e-6)
    assert res.estimate != pytest.approx(0.4293578, abs=1e-3)


def test_kappa_max_of_sas_table_by_hand():
    # Unweighted: p_o,max = sum_i min(row_i, col_i) / n.
    t = np.array(SAS_TABLE)
    row, col, n = t.sum(1), t.sum(0), t.sum()
    pe = (row * col).sum() / n**2
    po_max = np.minimum(row, col).sum() / n
    res = irr.Agreement.from_table(SAS_TABLE).kappa()
    assert res.kappa_max == pytest.approx((po_max - pe) / (1 - pe), rel=1e-12)


def test_expected_agreement_within_rounding_of_one_stays_accurate():
    # p_e = 1 - 4e-12: the naive (p_o - p_e) / (1 - p_e) loses about 4 digits; the
    # disagreement form 1 - d_o / d_e keeps full precision. Exact value by fractions.
    from fractions import Fraction

    big = 10**12
    table = [[big, 1], [1, 1]]
    n = Fraction(big + 3)
    r1 = Fraction(big + 1) / n
    po = Fraction(big + 1) / n
    pe = r1 * r1 + (1 - r1) ** 2
    exact = float((po - pe) / (1 - pe))
    assert irr.Agreement.from_table(table).kappa().estimate == pytest.approx(exact, rel=1e-9)
