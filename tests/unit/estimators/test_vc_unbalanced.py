"""The variance-components CCC of unbalanced replicate designs (readings missing), by REML.

References: Carrasco & Jover (2003, Biometrics 59:849-858): the CCC is the ICC of
agreement of the mixed model with subjects random and methods fixed, the methods'
variance the variance of their effects. No published unbalanced example was found
(cccrm's replicated blood-pressure data, Carrasco & Jover's example, are balanced), so the
reference is an independent fit of the same model by statsmodels' MixedLM (REML;
``tests/reference/vc_unbalanced_reference.py``), and on balanced data the algebra of the ANOVA
estimators (REML = ANOVA when no component is truncated).
"""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest

import irr
from irr._measurements import Measurements
from irr._sentences import methods_paragraph
from irr.agreement import ReplicatesAveragedWarning
from irr.coefficients.variance_components import (
    fixed_rater_effects,
    reml_criterion_fixed,
)
from irr.estimators.concordance import rater_variance, vc_ccc_moments, vc_ccc_of_sums
from irr.estimators.variance_components import cell_statistics
from tests.reference.vc_unbalanced_reference import blood_pressure, vc_ccc_mixedlm_unbalanced


def _design(n=30, k=3, m=3, seed=11, drop=0.08):
    rng = np.random.default_rng(seed)
    s = rng.normal(50, 8, n)
    shift = np.linspace(0, 2.5, k)
    inter = rng.normal(0, 1.5, (n, k))
    subject = np.repeat(np.arange(n), k * m)
    method = np.tile(np.repeat(np.arange(k), m), n)
    value = s[subject] + shift[method] + inter[subject, method] + rng.normal(0, 2, subject.size)
    keep = rng.random(subject.size) > drop
    return subject[keep], method[keep], value[keep]


# -- REML against statsmodels MixedLM ------------------------------------------------------


def test_unbalanced_replicates_match_mixedlm():
    subject, method, value = blood_pressure()
    res = irr.concordance(Measurements.from_long(subject, method, value))
    ref = vc_ccc_mixedlm_unbalanced(subject, method, value)
    assert (res.method, res.estimator) == ("variance-components", "reml")
    assert res.estimate == pytest.approx(ref["ccc"], abs=1e-6)
    s2 = dict(zip(("subjects", "raters", "interaction", "error"), res.sigma2, strict=True))
    for name, value_ in s2.items():
        assert value_ == pytest.approx(ref[name], rel=1e-5), name
    assert (res.n_readings, res.n_readings_missing, res.replicates) == (139, 5, 3)
    assert res.n_subjects == 24
    assert res.n_missing == 0


def test_three_methods_and_an_empty_cell_match_mixedlm():
    subject, method, value = _design()
    # subject 0 never measured by method 2: REML keeps its other readings
    keep = ~((subject == 0) & (method == 2))
    subject, method, value = subject[keep], method[keep], value[keep]
    res = irr.concordance(Measurements.from_long(subject, method, value))
    ref = vc_ccc_mixedlm_unbalanced(subject, method, value)
    assert res.estimate == pytest.approx(ref["ccc"], abs=1e-6)
    assert res.n_subjects == 30
    assert res.n_missing == 0
    assert res.n_readings == subject.size
    assert res.n_readings_missing == 30 * 3 * 3 - subject.size
    assert any("cell(s) empty" in note for note in res.notes)


def test_no_replicates_missing_cells_match_mixedlm():
    subject, method, value = _design(n=40, k=3, m=1, drop=0.0, seed=5)
    keep = np.ones(subject.size, bool)
    keep[[1, 8, 20, 33]] = False
    subject, method, value = subject[keep], method[keep], value[keep]
    res = irr.concordance(Measurements.from_long(subject, method, value),
                          method="variance-components")
    ref = vc_ccc_mixedlm_unbalanced(subject, method, value, interaction=False)
    assert res.estimator == "reml"
    assert res.sigma2[2] == 0.0
    assert res.estimate == pytest.approx(ref["ccc"], abs=1e-6)


# -- balanced data: the closed form is unchanged and REML reaches it ---------------------


def _balanced(n=25, k=2, m=2, seed=2):
    subject, method, value = _design(n=n, k=k, m=m, seed=seed, drop=0.0)
    return subject, method, value


def test_balanced_data_keep_the_closed_form():
    subject, method, value = _balanced()
    res = irr.concordance(Measurements.from_long(subject, method, value))
    assert res.estimator == "moments"
    wide = value.reshape(25, 2, 2)
    means = wide.mean(axis=2)
    within = ((wide - means[:, :, None]) ** 2).sum(axis=(1, 2))
    direct = vc_ccc_of_sums(vc_ccc_moments(means, within).sum(axis=0), k=2, replicates=2)
    assert res.estimate == pytest.approx(float(direct[0]), abs=1e-10)
    assert "estimator" not in res.to_dict()  # the balanced output is today's, field for field


def test_reml_pieces_at_the_anova_components_give_the_closed_form():
    # on balanced data the GLS method means are the sample means and their covariance
    # gives (MSC - MSE)/n: at the ANOVA components the REML formula is the ANOVA CCC
    n, k, m = 25, 3, 2
    subject, method, value = _design(n=n, k=k, m=m, seed=4, drop=0.0)
    wide = value.reshape(n, k, m)
    means = wide.mean(axis=2)
    grand = means.mean()
    msr = k * ((means.mean(axis=1) - grand) ** 2).sum() / (n - 1)
    msc = n * ((means.mean(axis=0) - grand) ** 2).sum() / (k - 1)
    resid = means - means.mean(axis=1, keepdims=True) - means.mean(axis=0) + grand
    mse = (resid ** 2).sum() / ((n - 1) * (k - 1))
    msw = ((wide - means[:, :, None]) ** 2).sum() / (n * k * (m - 1))
    s2a, s2ab, s2e = (msr - mse) / k, mse - msw / m, msw
    counts, sums, squares, _, centre = cell_statistics(
        Measurements.from_long(subject, method, value))
    beta, cov = fixed_rater_effects(np.array([s2a, s2ab, s2e]), counts, sums, squares)
    np.testing.assert_allclose(beta + centre, means.mean(axis=0), rtol=1e-12)
    assert rater_variance(beta, cov) == pytest.approx((msc - mse) / n, rel=1e-10)
    closed = vc_ccc_of_sums(vc_ccc_moments(means, ((wide - means[:, :, None]) ** 2)
                                           .sum(axis=(1, 2))).sum(axis=0), k=k, replicates=m)
    reml_form = s2a / (s2a + rater_variance(beta, cov) + s2ab + s2e)
    assert reml_form == pytest.approx(float(closed[0]), abs=1e-10)
    # and the ANOVA components maximise the REML likelihood (all positive here)
    assert min(s2a, s2ab, s2e) > 0
    best = reml_criterion_fixed([s2a, s2ab, s2e], counts, sums, squares)
    for j in range(3):
        for step in (1e-3, -1e-3):
            theta = np.array([s2a, s2ab, s2e])
            theta[j] *= 1 + step
            assert reml_criterion_fixed(theta, counts, sums, squares) > best


def test_one_missing_reading_moves_the_estimate_little():
    subject, method, value = _balanced(n=40, seed=8)
    full = irr.concordance(Measurements.from_long(subject, method, value))
    one = irr.concordance(Measurements.from_long(subject[1:], method[1:], value[1:]))
    assert one.estimator == "reml"
    assert one.n_readings_missing == 1
    assert one.estimate == pytest.approx(full.estimate, abs=0.02)


# -- inference ---------------------------------------------------------------------------


def test_se_and_fisher_z_interval():
    subject, method, value = blood_pressure()
    res = irr.concordance(Measurements.from_long(subject, method, value))
    assert 0 < res.se < 0.2
    assert res.ci.method == "fisher-z"
    z = np.arctanh(res.estimate)
    half = 1.959963984540054 * res.se_z
    assert (res.ci.low, res.ci.high) == pytest.approx((np.tanh(z - half), np.tanh(z + half)))
    assert res.se_z == pytest.approx(res.se / (1 - res.estimate ** 2))


def test_bootstrap_is_not_offered_and_says_so():
    subject, method, value = blood_pressure()
    m = Measurements.from_long(subject, method, value)
    asked = irr.concordance(m, ci="bca")
    assert asked.ci.method == "fisher-z"
    assert any("no bootstrap (`ci='bca'`) is offered" in note for note in asked.notes)
    res = irr.concordance(m)
    assert (asked.ci.low, asked.ci.high) == (res.ci.low, res.ci.high)
    with pytest.raises(ValueError, match="No bootstrap is offered"):
        res.conf_int(method="percentile")


@pytest.mark.slow
def test_fisher_z_interval_coverage():
    # 300 unbalanced studies from a known model: the interval covers the true CCC about
    # 95% of the time (binomial 99.9% range for 300 draws at 0.95: about 0.91 to 0.98),
    # and the mean delta-method SE is near the estimates' empirical SD
    rng = np.random.default_rng(2024)
    n, k, m = 40, 2, 3
    s2a, shift, s2ab, s2e = 16.0, np.array([0.0, 1.5]), 1.0, 4.0
    s2b = float(((shift - shift.mean()) ** 2).sum() / (k - 1))
    truth = s2a / (s2a + s2b + s2ab + s2e)
    hits, estimates, ses = 0, [], []
    for _ in range(300):
        subject = np.repeat(np.arange(n), k * m)
        method = np.tile(np.repeat(np.arange(k), m), n)
        value = (rng.normal(0, 4, n)[subject] + shift[method]
                 + rng.normal(0, 1, (n, k))[subject, method] + rng.normal(0, 2, subject.size))
        keep = rng.random(subject.size) > 0.1
        res = irr.concordance(Measurements.from_long(subject[keep], method[keep], value[keep]))
        hits += res.ci.low <= truth <= res.ci.high
        estimates.append(res.estimate)
        ses.append(res.se)
    assert 0.91 <= hits / 300 <= 0.98
    assert np.mean(ses) == pytest.approx(np.std(estimates), rel=0.2)


# -- reporting ---------------------------------------------------------------------------


def _bp_frame() -> pd.DataFrame:
    subject, method, value = blood_pressure()
    reading = pd.Series(np.ones(subject.size)).groupby([subject, method]).cumsum().to_numpy()
    return pd.DataFrame({"patient": [f"P{s + 1:02d}" for s in subject],
                         "method": np.where(method == 0, "cuff", "arterial"),
                         "reading": reading.astype(int), "sbp": value})


def test_report_computes_the_ccc_and_says_what_was_missing():
    ag = irr.Agreement.from_long(_bp_frame(), subject="patient", rater="method",
                                 rating="sbp", replicate="reading", continuous=True)
    with pytest.warns(ReplicatesAveragedWarning):
        rep = irr.report(ag)
    text = " ".join(str(rep).split())  # the methods paragraph is wrapped at 100 columns
    assert "concordance not computed" not in text
    assert "CCC (variance components)" in text
    assert ("Every subject was measured by every rater or method, but not always the same "
            "number of times: of the 144 readings of the complete design (24 subjects × 2 "
            "raters or methods × 3 readings), 5 were missing.") in text
    assert "REML" in text
    assert "all 139 available readings" in text


def test_methods_paragraph_counts_the_missing_readings():
    subject, method, value = blood_pressure()
    res = irr.concordance(Measurements.from_long(subject, method, value))
    text = methods_paragraph([res], n_subjects=24, n_raters=2, raters=["0", "1"],
                             n_categories=None, scale_type="continuous", n_missing_ratings=0,
                             n_incomplete_subjects=0)
    assert ("but not always the same number of times: of the 144 readings of the complete "
            "design (24 subjects × 2 raters or methods × 3 readings), 5 were missing.") in text
    assert ("The variance components of ρc were fitted by restricted maximum likelihood "
            "(REML), which uses all 139 available readings") in text
    balanced = irr.concordance(Measurements.from_long(*_balanced()))
    text = methods_paragraph([balanced], n_subjects=25, n_raters=2, raters=["0", "1"],
                             n_categories=None, scale_type="continuous", n_missing_ratings=0,
                             n_incomplete_subjects=0)
    assert "Every subject was measured by every rater or method." in text
    assert "REML" not in text


def test_identical_readings_are_undefined_with_a_warning():
    m = Measurements.from_long([0, 0, 0, 1, 1, 1, 1, 2, 2, 2, 2],
                               [0, 0, 1, 0, 0, 1, 1, 0, 0, 1, 1], [5.0] * 11)
    with pytest.warns(irr.DegenerateDataWarning, match="undefined"):
        res = irr.concordance(m)
    assert np.isnan(res.estimate)
    assert res.n_readings_missing == 1


def test_methods_paragraph_with_an_empty_cell_too():
    subject, method, value = blood_pressure()
    keep = ~((subject == 2) & (method == 1))
    res = irr.concordance(Measurements.from_long(subject[keep], method[keep], value[keep]))
    text = methods_paragraph([res], n_subjects=24, n_raters=2, raters=["0", "1"],
                             n_categories=None, scale_type="continuous", n_missing_ratings=1,
                             n_incomplete_subjects=1)
    missing = 144 - int(keep.sum())
    assert ("In all, 1 subject-by-rater combination had no measurement; 1 subject was not "
            "measured by every rater or method. Of the 144 readings of the complete design "
            f"(24 subjects × 2 raters or methods × 3 readings), {missing} were missing.") in text
    assert f"uses all {int(keep.sum())} available readings" in text


def test_result_pickles_and_renders():
    import pickle

    subject, method, value = blood_pressure()
    res = irr.concordance(Measurements.from_long(subject, method, value))
    back = pickle.loads(pickle.dumps(res))
    assert back.estimate == res.estimate
    assert back.to_dict()["n_readings_missing"] == 5
    assert "5 of 144 readings missing" in res.summary().as_text()
