"""Concordance of continuous measurements (issue #18): Lin's CCC, the overall and
variance-components CCC, TDI and CP.

References: published numbers where the sources give them (Bland & Altman 1986 peak-flow
summaries; McBride 2005 thresholds), otherwise the independent computations of
``tests/reference/concordance_reference.py`` (numpy covariance, the normal-theory delta method
Lin used, Barnhart et al.'s definition, statsmodels MixedLM REML, scipy root finding).
pingouin 0.7 has no CCC, so there is nothing to cross-check there.
"""

from __future__ import annotations

import math
import pickle

import numpy as np
import pytest

import irr
from irr._measurements import Measurements
from irr.bands import get_scale, interpret
from irr.coefficients.concordance import ccc_parts, ccc_variance
from tests.reference.concordance_reference import (
    MINI,
    WRIGHT,
    ccc_delta_variance,
    ccc_direct,
    cp_scipy,
    overall_ccc_definition,
    tdi_exact_root,
    vc_ccc_mixedlm,
)


def _three_raters(n=40, seed=1):
    rng = np.random.default_rng(seed)
    s = rng.normal(100, 15, n)
    return np.column_stack([s + rng.normal(0, 5, n), s + 3 + rng.normal(0, 5, n),
                            s - 2 + rng.normal(0, 6, n)])


# -- Lin's CCC ------------------------------------------------------------------------------


def test_pef_data_match_bland_altman_1986():
    # Bland & Altman (1986, Lancet 1:307-310): mean difference -2.1 l/min, SD 38.8
    res = irr.total_deviation_index(WRIGHT, MINI)
    assert round(res.mean_difference, 1) == -2.1
    assert round(res.sd_difference, 1) == 38.8


def test_lin_ccc_is_the_1_over_n_formula():
    res = irr.concordance(WRIGHT, MINI)
    assert res.estimate == pytest.approx(ccc_direct(WRIGHT, MINI), rel=1e-13)
    assert res.estimate == pytest.approx(0.942742431427, abs=1e-12)
    # n - 1 variances would give another number: the convention is Lin's 1/n
    cov = np.cov(WRIGHT, MINI)
    unbiased = 2 * cov[0, 1] / (cov[0, 0] + cov[1, 1] + (WRIGHT.mean() - MINI.mean()) ** 2)
    assert abs(res.estimate - unbiased) > 5e-6


@pytest.mark.parametrize("seed", [0, 1, 2])
def test_lin_variance_is_the_normal_theory_delta_method(seed):
    # Lin (1989, eq. 6) is the delta method under bivariate normality with n - 2 for n;
    # Lin (2000) corrects the z variance to var / (1 - rc^2)^2 (the delta method again)
    if seed == 0:
        x, y = WRIGHT, MINI
    else:
        rng = np.random.default_rng(seed)
        x = rng.normal(50, 10, 30)
        y = 0.9 * x + 8 + rng.normal(0, 4, 30)
    n = x.size
    res = irr.concordance(x, y)
    assert res.se**2 == pytest.approx(ccc_delta_variance(x, y) * n / (n - 2), rel=1e-7)
    assert res.se_z == pytest.approx(res.se / (1 - res.estimate**2), rel=1e-12)


def test_pef_ccc_interval_and_test():
    res = irr.concordance(WRIGHT, MINI)
    z = math.atanh(res.estimate)
    half = 1.959963984540054 * res.se_z
    assert res.ci.method == "fisher-z"
    assert res.ci.low == pytest.approx(math.tanh(z - half), rel=1e-12)
    assert res.ci.high == pytest.approx(math.tanh(z + half), rel=1e-12)
    assert (round(res.ci.low, 4), round(res.ci.high, 4)) == (0.8505, 0.9787)
    assert res.statistic == pytest.approx(z / res.se_z)
    shifted = irr.concordance(WRIGHT, MINI, rho0=0.9, alternative="greater")
    assert shifted.statistic == pytest.approx((z - math.atanh(0.9)) / res.se_z)
    from scipy.stats import norm
    assert shifted.pvalue == pytest.approx(norm.sf(shifted.statistic))


def test_decomposition_precision_times_accuracy():
    from scipy.stats import pearsonr

    res = irr.concordance(WRIGHT, MINI)
    assert res.pearson_r == pytest.approx(pearsonr(WRIGHT, MINI)[0], rel=1e-12)
    assert res.estimate == pytest.approx(res.pearson_r * res.bias_correction, rel=1e-12)
    sx, sy = WRIGHT.std(), MINI.std()
    assert res.scale_shift == pytest.approx(sx / sy)
    assert res.location_shift == pytest.approx((WRIGHT.mean() - MINI.mean()) / math.sqrt(sx * sy))
    frame = res.to_frame()
    assert list(frame.index) == ["Lin's CCC", "Precision (Pearson r)", "Accuracy (C_b)"]
    assert frame.loc["Accuracy (C_b)", "estimate"] == pytest.approx(res.bias_correction)
    # precision's interval: Fisher z on 1/sqrt(n - 3)
    half = 1.959963984540054 / math.sqrt(17 - 3)
    assert frame.loc["Precision (Pearson r)", "ci_low"] == pytest.approx(
        math.tanh(math.atanh(res.pearson_r) - half))


def test_ccc_parts_batch_matches_scalars():
    p = ccc_parts(np.array([10.0, 0.0]), np.array([11.0, 0.0]), np.array([4.0, 1.0]),
                  np.array([4.0, 1.0]), np.array([3.0, 1.0]))
    assert p["ccc"].tolist() == pytest.approx([6 / 9, 1.0])
    assert p["cb"].tolist() == pytest.approx([2 / 2.25, 1.0])


def test_summary_report_and_repr_read_well():
    res = irr.concordance(WRIGHT, MINI)
    text = str(res)
    assert "Precision (Pearson r)" in text
    assert "Accuracy (C_b)" in text
    assert "McBride, 2005" in text
    assert "divisor n" in text
    assert repr(res).startswith("ConcordanceResult(coefficient=\"Lin's CCC\", estimate=0.9427")
    assert res.report() == ("Agreement between x and y was moderate, ρc = .94, 95% CI [.85, .98] "
                            "(Fisher z), n = 17.")
    assert res.to_dict()["pearson_r"] == res.pearson_r


def test_series_names_and_missing_pairs():
    import pandas as pd

    a = pd.Series([120.5, 131.0, np.nan, 142.0, 110.5, 125.0], name="nurse_a")
    b = pd.Series([118.0, 133.5, 101.0, 139.0, np.nan, 121.5], name="nurse_b")
    res = irr.concordance(a, b)
    assert res.raters == ("nurse_a", "nurse_b")
    assert (res.n_subjects, res.n_missing) == (4, 2)
    both = [0, 1, 3, 5]
    assert res.estimate == pytest.approx(ccc_direct(a.to_numpy()[both], b.to_numpy()[both]))
    assert any("2 pair(s)" in note for note in res.notes)


# -- bootstrap ------------------------------------------------------------------------------


def test_bootstrap_intervals_are_reproducible():
    one = irr.concordance(WRIGHT, MINI, ci="bca", n_resamples=2000)
    two = irr.concordance(WRIGHT, MINI, ci="bca", n_resamples=2000)
    assert one.ci.method == "bca"
    assert one.n_resamples == 2000
    assert one.seed == 0
    assert (one.ci.low, one.ci.high) == (two.ci.low, two.ci.high)
    assert one.ci.low < one.estimate < one.ci.high
    # the bootstrap replicates are CCCs of resampled subjects
    rng = np.random.default_rng(5)
    idx = rng.integers(0, 17, 17)
    stat = one.bootstrap
    assert stat.estimate == pytest.approx(one.estimate, rel=1e-12)
    assert ccc_direct(WRIGHT[idx], MINI[idx]) <= 1
    # asking for another method reuses the draw
    assert one.conf_int(method="percentile").method == "percentile"
    assert one.conf_int(method="fisher-z").low == pytest.approx(
        irr.concordance(WRIGHT, MINI).ci.low)


def test_result_pickles_with_its_bootstrap_recipe():
    res = irr.concordance(WRIGHT, MINI, n_resamples=500)
    again = pickle.loads(pickle.dumps(res))
    assert again.conf_int(method="percentile") == res.conf_int(method="percentile")


# -- several raters -------------------------------------------------------------------------


def test_overall_ccc_is_barnhart_definition():
    values = _three_raters()
    res = irr.concordance(values)
    assert res.method == "overall"
    assert res.n_raters == 3
    assert res.estimate == pytest.approx(overall_ccc_definition(values), rel=1e-12)
    assert res.ci.low < res.estimate < res.ci.high


def test_overall_ccc_of_two_raters_is_lins():
    values = _three_raters()[:, :2]
    assert irr.concordance(values, method="overall").estimate == pytest.approx(
        irr.concordance(values[:, 0], values[:, 1]).estimate, rel=1e-12)


def test_variance_components_ccc_is_icc_a1_and_mixedlm():
    # Carrasco & Jover (2003): the CCC by variance components equals the ICC of the
    # two-way model for absolute agreement (McGraw & Wong's ICC(A,1))
    values = _three_raters()
    res = irr.concordance(values, method="variance-components")
    assert res.estimate == pytest.approx(irr.icc(values, "twoway", "agreement").estimate,
                                         rel=1e-12)
    n, k = values.shape
    subject = np.repeat(np.arange(n), k)
    rater = np.tile(np.arange(k), n)
    assert res.estimate == pytest.approx(vc_ccc_mixedlm(subject, rater, values.ravel()),
                                         abs=1e-5)


def test_variance_components_ccc_with_replicates_matches_mixedlm():
    rng = np.random.default_rng(3)
    n, k, m = 30, 3, 2
    s = rng.normal(100, 15, n)
    shift = np.array([0, 4, -3.0])
    inter = rng.normal(0, 3, (n, k))
    subject = np.repeat(np.arange(n), k * m)
    rater = np.tile(np.repeat(np.arange(k), m), n)
    value = s[subject] + shift[rater] + inter[subject, rater] + rng.normal(0, 4, n * k * m)
    res = irr.concordance(Measurements.from_long(subject, rater, value))
    assert (res.method, res.replicates) == ("variance-components", 2)
    assert res.estimate == pytest.approx(
        vc_ccc_mixedlm(subject, rater, value, interaction=True), abs=1e-5)


def test_measurements_drop_incomplete_subjects():
    values = _three_raters()
    values[[0, 5], [1, 2]] = np.nan
    res = irr.concordance(Measurements.from_wide(values, raters=["a", "b", "c"]))
    assert (res.n_subjects, res.n_missing) == (38, 2)
    assert res.estimate == pytest.approx(overall_ccc_definition(values[~np.isnan(values).any(1)]))


# -- TDI and CP -----------------------------------------------------------------------------


def test_tdi_exact_is_the_folded_normal_quantile():
    res = irr.total_deviation_index(WRIGHT, MINI, p=0.9, method="exact", n_resamples=200)
    d = WRIGHT - MINI
    assert res.estimate == pytest.approx(tdi_exact_root(d.mean(), d.std(ddof=1), 0.9),
                                         rel=1e-9)
    assert res.ci.method == "percentile"


def test_tdi_approximate_and_lins_upper_bound():
    # Lin (2000): TDI_p ~ z_(1-(1-p)/2) sqrt(MSD), W = ln(e^2) with e^2 = sum d^2/(n - 1),
    # var(W) = 2/(n - 2) (1 - dbar^4 / e^4), bound exp((W + z_(1-alpha) s_W) / 2) z_...
    d = WRIGHT - MINI
    n = d.size
    e2 = (d * d).sum() / (n - 1)
    res = irr.total_deviation_index(WRIGHT, MINI, p=0.9)
    assert res.msd == pytest.approx(e2)
    assert res.estimate == pytest.approx(1.6448536269514722 * math.sqrt(e2))
    s_w = math.sqrt(2 / (n - 2) * (1 - d.mean() ** 4 / e2**2))
    upper = 1.6448536269514722 * math.exp((math.log(e2) + 1.6448536269514722 * s_w) / 2)
    assert res.ci.high == pytest.approx(upper)
    assert res.ci.low == 0.0
    assert res.alternative == "less"
    # the approximation is conservative: at least the exact TDI
    assert res.tdi_approximate >= res.tdi_exact
    assert res.tdi_exact == pytest.approx(tdi_exact_root(d.mean(), d.std(ddof=1), 0.9))


def test_tdi_exact_equals_approximate_without_bias():
    x = np.array([1.0, 2.0, 3.0, 4.0, 5.0, 6.0])
    y = x + np.array([0.5, -0.5, 0.3, -0.3, 0.2, -0.2])
    res = irr.total_deviation_index(x, y, p=0.95, n_resamples=200)
    d = x - y
    # mean difference 0: |D| is half-normal, both TDIs are 1.96 sigma (n - 1 vs MSD's n - 1)
    assert res.tdi_exact == pytest.approx(1.959963984540054 * d.std(ddof=1))
    assert res.tdi_approximate == pytest.approx(res.tdi_exact)


def test_cp_and_its_lower_bound():
    d = WRIGHT - MINI
    n = d.size
    res = irr.coverage_probability(WRIGHT, MINI, delta=50.0)
    mean, sd = d.mean(), d.std(ddof=1)
    assert res.estimate == pytest.approx(cp_scipy(mean, sd, 50.0), rel=1e-12)
    from scipy.stats import norm
    a, b = (50 - mean) / sd, (-50 - mean) / sd
    var = ((norm.pdf(a) - norm.pdf(b)) ** 2 + (a * norm.pdf(a) - b * norm.pdf(b)) ** 2 / 2) / (
        n - 2)
    cp = res.estimate
    se_logit = math.sqrt(var) / (cp * (1 - cp))
    low = 1 / (1 + math.exp(-(math.log(cp / (1 - cp)) - 1.6448536269514722 * se_logit)))
    assert res.ci.low == pytest.approx(low)
    assert res.ci.high == 1.0
    assert res.alternative == "greater"
    assert res.observed == pytest.approx(np.mean(np.abs(d) < 50))


def test_tdi_and_cp_are_consistent():
    # CP at the exact TDI_p is p
    tdi = irr.total_deviation_index(WRIGHT, MINI, p=0.8, method="exact", n_resamples=100)
    cp = irr.coverage_probability(WRIGHT, MINI, delta=tdi.estimate)
    assert cp.estimate == pytest.approx(0.8, abs=1e-9)


def test_delta_method_cp_variance_by_simulation():
    # the normal-theory variance of CP-hat against its spread over simulated samples
    from irr.coefficients.concordance import coverage_of_normal

    rng = np.random.default_rng(11)
    n, mean, sd, delta = 200, 1.0, 2.0, 3.0
    d = rng.normal(mean, sd, (4000, n))
    cps = coverage_of_normal(d.mean(axis=1), d.std(axis=1, ddof=1), delta)
    res = irr.coverage_probability(np.full(n, 0.0) + rng.normal(mean, sd, n), np.zeros(n),
                                   delta=delta)
    assert cps.std() == pytest.approx(res.se_logit * res.estimate * (1 - res.estimate),
                                      rel=0.15)


# -- McBride ---------------------------------------------------------------------------------


@pytest.mark.parametrize(("value", "label"), [
    (0.8999, "poor"), (0.90, "moderate"), (0.9499, "moderate"), (0.95, "substantial"),
    (0.99, "substantial"), (0.9901, "almost perfect"), (1.0, "almost perfect"), (-0.5, "poor"),
])
def test_mcbride_bands(value, label):
    # McBride (2005), as reproduced in the MedCalc manual: < 0.90 poor, 0.90-0.95 moderate,
    # 0.95-0.99 substantial, > 0.99 almost perfect
    assert interpret(value, "mcbride").label == label


def test_ccc_interprets_on_mcbride_by_default():
    res = irr.concordance(WRIGHT, MINI)
    assert res.scale == "mcbride"
    assert res.interpret().label == "moderate"  # 0.9427; the lower limit 0.85 is poor
    assert interpret(res.ci.low, "mcbride").label == "poor"
    assert get_scale("mcbride").short_citation == "McBride, 2005"


# -- bad input and degenerate data ----------------------------------------------------------


@pytest.mark.parametrize(("kwargs", "error", "message"), [
    ({"x": [1.0, 2.0, 3.0], "y": [1.0, 2.0]}, ValueError, "one length"),
    ({"x": [1.0, 2.0], "y": [1.0, 2.0]}, ValueError, "at least three complete pairs; got 2 of 2"),
    ({"x": [1.0, np.inf, 3.0, 4.0], "y": [1.0, 2.0, 3.0, 4.0]}, ValueError, "infinite"),
    ({"x": ["a", "b", "c"], "y": [1.0, 2.0, 3.0]}, TypeError, "real numbers"),
    ({"x": [1.0, 2.0, 3.0], "y": [1.0, 2.0, 3.5], "rho0": 1.0}, ValueError, "`rho0`"),
    ({"x": [1.0, 2.0, 3.0], "y": [1.0, 2.0, 3.5], "ci": "exact"}, ValueError, "`ci`"),
    ({"x": [1.0, 2.0, 3.0], "y": [1.0, 2.0, 3.5], "method": "pearson"}, ValueError,
     "`method`"),
    ({"x": [1.0, 2.0, 3.0], "y": [1.0, 2.0, 3.5], "confidence_level": 1.5}, ValueError,
     "`confidence_level`"),
])
def test_concordance_bad_input(kwargs, error, message):
    with pytest.raises(error, match=message):
        irr.concordance(**kwargs)


def test_tdi_cp_bad_input():
    with pytest.raises(ValueError, match="`p` must be in"):
        irr.total_deviation_index(WRIGHT, MINI, p=1.2)
    with pytest.raises(ValueError, match="`delta` must be positive"):
        irr.coverage_probability(WRIGHT, MINI, delta=-1.0)
    with pytest.raises(TypeError, match="`delta` is required"):
        irr.coverage_probability(WRIGHT, MINI)
    with pytest.raises(ValueError, match="log-msd"):
        irr.total_deviation_index(WRIGHT, MINI, method="exact", ci="log-msd")


def test_lin_method_refuses_three_raters():
    with pytest.raises(ValueError, match="compares two raters"):
        irr.concordance(_three_raters(), method="lin")


def test_constant_measurements_warn():
    with pytest.warns(irr.DegenerateDataWarning, match="undefined"):
        res = irr.concordance([5.0, 5.0, 5.0, 5.0], [5.0, 5.0, 5.0, 5.0])
    assert math.isnan(res.estimate)


def test_identical_measurements_have_no_interval():
    x = [1.0, 2.0, 3.0, 4.5]
    with pytest.warns(irr.DegenerateDataWarning):
        res = irr.concordance(x, x)
    assert res.estimate == 1.0
    assert math.isnan(res.ci.low)
    with pytest.warns(irr.DegenerateDataWarning, match="undefined"):
        tdi = irr.total_deviation_index(x, x)
    assert tdi.estimate == 0.0


def test_ccc_variance_undefined_when_r_is_zero():
    assert all(math.isnan(v) for v in ccc_variance(0.0, 0.0, 0.1, 20))


# -- coverage (slow) -----------------------------------------------------------------------


@pytest.mark.slow
@pytest.mark.parametrize(("n", "rho", "shift"), [(30, 0.9, 0.3), (100, 0.8, 0.0)])
def test_fisher_z_interval_coverage(n, rho, shift):
    from irr.coefficients.concordance import ccc_moments, ccc_of_sums

    rng = np.random.default_rng(2026)
    reps = 2000
    cov = np.array([[1.0, rho], [rho, 1.0]])
    true = 2 * rho / (2 + shift**2)
    data = rng.multivariate_normal([shift, 0.0], cov, size=(reps, n))
    sums = np.stack([ccc_moments(s[:, 0], s[:, 1]).sum(axis=0) for s in data])
    estimates = ccc_of_sums(sums)
    covered = 0
    for s, est in zip(data, estimates, strict=True):
        res = irr.concordance(s[:, 0], s[:, 1])
        assert res.estimate == pytest.approx(est, rel=1e-9)
        covered += res.ci.low <= true <= res.ci.high
    assert 0.93 <= covered / reps <= 0.965


def test_many_raters_se_by_directional_derivatives_equals_the_gradient_form():
    """Beyond MAX_GRADIENT_MOMENTS moments the delta-method SE differentiates along each
    subject's moments (2n evaluations, no d x d matrix): the same SE."""
    from functools import partial

    import irr.estimators.concordance as module
    from irr.coefficients.concordance import overall_ccc_moments, overall_ccc_of_sums

    rng = np.random.default_rng(4)
    for k, n in [(8, 25), (30, 12), (3, 40)]:
        x = rng.normal(size=(n, 1)) + rng.normal(scale=0.5, size=(n, k))
        moments, finish = overall_ccc_moments(x), partial(overall_ccc_of_sums, k=k)
        assert module._directional_se(moments, finish) == pytest.approx(
            module._sandwich_se(moments, finish), rel=1e-6)


def test_thousands_of_raters_are_refused_or_bounded_with_a_reason():
    rng = np.random.default_rng(5)
    wide = rng.normal(size=(40, 1)) + rng.normal(scale=0.3, size=(40, 1500))
    ag = irr.Agreement.from_array(wide, continuous=True)
    with pytest.raises(ValueError, match=r"overall CCC of 1,500 raters takes about 1,127,251 "
                                         r"moments per subject"):
        ag.concordance()
    with pytest.raises(ValueError, match=r"The ICC by variance components of 1,500 raters"):
        ag.icc_components()
    with pytest.raises(ValueError, match=r"The SEM by variance components of 1,500 raters"):
        ag.measurement_error()
    res = irr.Agreement.from_array(wide[:, :120], continuous=True).concordance()
    assert 0 < res.se < 0.1  # 7,381 moments per subject: the directional SE
    many = irr.Agreement.from_array(rng.normal(size=(30, 1200)), continuous=True)
    with pytest.raises(ValueError, match=r"30 x 721,801 in all, above the limit of 16,777,216"):
        many.concordance()
