"""Bland-Altman limits of agreement (issue #18): published values, independent
computations (tests/reference/limits_reference.py), bad input, degenerate data, the
plot, and (slow) the coverage of the intervals."""

import math
import warnings

import numpy as np
import pandas as pd
import pytest

import irr
import tests.reference.limits_reference as ref
from irr._measurements import Measurements
from irr.coefficients.limits import (
    approximate_limit_se,
    exact_limit_factors,
    limit_mover,
    order_statistic_ranks,
    variance_sum_interval,
)
from irr.estimators.limits import LimitsOfAgreementResult, limits_of_agreement

PEF = irr.datasets.load("pef")
WRIGHT, MINI = PEF["wright_1"].to_numpy(float), PEF["mini_1"].to_numpy(float)
Z95 = 1.959963984540054


def pef_long():
    """Both readings of both meters in long form (subject, method, replicate, value)."""
    long = PEF.melt(id_vars="subject", var_name="reading", value_name="value")
    long[["method", "replicate"]] = long["reading"].str.split("_", expand=True)
    return long


# -- the data set -------------------------------------------------------------------------------

def test_pef_is_bland_altman_1986_table_1():
    assert PEF.shape == (17, 5)
    assert list(PEF.columns) == ["subject", "wright_1", "wright_2", "mini_1", "mini_2"]
    assert PEF.iloc[0].tolist() == [1, 494, 490, 512, 525]
    assert PEF.iloc[-1].tolist() == [17, 427, 421, 451, 443]
    info = irr.datasets.describe("pef")
    assert "Bland" in info.citation
    assert "Lancet" in info.citation
    assert "-2.1" in info.published


# -- published values ---------------------------------------------------------------------------

def test_bland_altman_1986_first_readings():
    # Bland & Altman (1986), Lancet i:307-310: Wright - mini (first readings) mean
    # difference -2.1 l/min, SD 38.8, limits -2.1 -+ 2 x 38.8 = -79.7 to 75.5 l/min. The
    # paper rounds before multiplying; from the unrounded data the limits are -79.65, 75.41.
    res = irr.limits_of_agreement(WRIGHT, MINI, multiplier=2)
    assert round(res.estimate, 1) == -2.1
    assert round(res.sd, 1) == 38.8
    assert round(-2.1 - 2 * 38.8, 1) == -79.7
    assert round(-2.1 + 2 * 38.8, 1) == 75.5
    assert res.lower == pytest.approx(-79.7, abs=0.06)
    assert res.upper == pytest.approx(75.5, abs=0.09)
    assert res.multiplier == 2.0
    assert res.coverage == pytest.approx(0.9545, abs=1e-4)


def test_bland_altman_1986_approximate_intervals():
    # Bland & Altman (1986): SE of a limit sqrt(3 s^2 / n) = 16.3 l/min, t(16) = 2.12, so
    # -79.7 -+ 34.6 and 75.5 -+ 34.6: -114.3 to -45.1 and 40.9 to 110.1 (rounded inputs).
    assert approximate_limit_se(38.8, 17, 2.0) == pytest.approx(16.3, abs=0.01)
    assert approximate_limit_se(38.8, 17, 2.0) == pytest.approx(math.sqrt(3 * 38.8**2 / 17))
    res = irr.limits_of_agreement(WRIGHT, MINI, multiplier=2, ci_method="approximate")
    assert res.lower_ci.low == pytest.approx(-114.3, abs=0.2)
    assert res.lower_ci.high == pytest.approx(-45.1, abs=0.1)
    assert res.upper_ci.low == pytest.approx(40.9, abs=0.1)
    assert res.upper_ci.high == pytest.approx(110.1, abs=0.25)
    # the bias: -2.1 -+ 2.12 x 38.8 / sqrt(17) = -22.1 to 17.9
    assert res.ci.low == pytest.approx(-22.1, abs=0.1)
    assert res.ci.high == pytest.approx(17.9, abs=0.1)


def test_analyse_it_tutorial_mini_minus_wright():
    # Analyse-it tutorial "Estimating the average bias and the limits of agreement" on the
    # same data (mini - Wright, 1.96 SD): bias 2.1, limits -73.9 to 78.1 l/min.
    res = irr.limits_of_agreement(MINI, WRIGHT, names=["mini", "wright"])
    assert round(res.estimate, 1) == 2.1
    assert (round(res.lower, 1), round(res.upper, 1)) == (-73.9, 78.1)
    assert res.difference == "mini - wright"


@pytest.mark.parametrize(("n", "p", "factor"), [
    # One-sided normal tolerance factors K(n, p, gamma = 0.95) (Owen, 1963; Natrella,
    # 1963, Table A-7; NIST/SEMATECH e-Handbook 7.2.6.3): Carkeet's (2015) factors of a
    # single limit are these factors at p = Phi(z), gamma = (1 + confidence) / 2.
    (5, 0.95, 4.203), (6, 0.95, 3.708), (7, 0.95, 3.399), (8, 0.95, 3.187),
    (9, 0.95, 3.031), (10, 0.95, 2.911), (15, 0.95, 2.566), (20, 0.95, 2.396),
    (25, 0.95, 2.292), (30, 0.95, 2.220), (50, 0.95, 2.065), (10, 0.99, 3.981),
])
def test_exact_factors_are_the_one_sided_tolerance_factors(n, p, factor):
    from scipy.stats import norm

    _, high = exact_limit_factors(n, float(norm.ppf(p)), 0.90)
    assert high == pytest.approx(factor, abs=6e-4)


@pytest.mark.parametrize("n", [10, 17, 40])
def test_exact_factors_match_a_monte_carlo_pivot(n):
    low, high = exact_limit_factors(n, Z95, 0.95)
    assert high == pytest.approx(ref.exact_factor_by_simulation(n, Z95, 0.975), rel=4e-3)
    assert low == pytest.approx(ref.exact_factor_by_simulation(n, Z95, 0.025), rel=4e-3)


def test_exact_interval_of_the_pef_limits():
    res = irr.limits_of_agreement(WRIGHT, MINI)
    low, high = exact_limit_factors(17, Z95, 0.95)
    d = WRIGHT - MINI
    dbar, s = d.mean(), d.std(ddof=1)
    assert res.upper_ci.low == pytest.approx(dbar + low * s, rel=1e-12)
    assert res.upper_ci.high == pytest.approx(dbar + high * s, rel=1e-12)
    assert res.lower_ci.low == pytest.approx(dbar - high * s, rel=1e-12)
    assert res.lower_ci.high == pytest.approx(dbar - low * s, rel=1e-12)
    assert res.limit_ci_method == "exact"
    # the exact interval is wider outside than Bland & Altman's approximation at n = 17
    approx_low, approx_high = res.limit_intervals(method="approximate")
    assert res.lower_ci.low < approx_low.low
    assert res.upper_ci.high > approx_high.high


def test_exact_and_approximate_agree_in_large_samples():
    low, high = exact_limit_factors(100_000, Z95, 0.95)
    from scipy.stats import norm

    half = norm.ppf(0.975) * approximate_limit_se(1.0, 100_000, Z95)
    assert high - Z95 == pytest.approx(half, rel=2e-2)
    assert Z95 - low == pytest.approx(half, rel=2e-2)


# -- options ------------------------------------------------------------------------------------

def test_coverage_sets_the_exact_normal_quantile():
    res = irr.limits_of_agreement(WRIGHT, MINI, coverage=0.90)
    assert res.multiplier == pytest.approx(1.6448536269514722, rel=1e-12)
    d = WRIGHT - MINI
    assert res.upper == pytest.approx(d.mean() + 1.6448536269514722 * d.std(ddof=1))
    assert irr.limits_of_agreement(WRIGHT, MINI, multiplier=1.96).multiplier == 1.96


def test_percent_scale():
    res = irr.limits_of_agreement(WRIGHT, MINI, scale="percent")
    d = 100 * (WRIGHT - MINI) / ((WRIGHT + MINI) / 2)
    assert res.estimate == pytest.approx(d.mean(), rel=1e-12)
    assert res.sd == pytest.approx(d.std(ddof=1), rel=1e-12)
    assert res.upper == pytest.approx(d.mean() + Z95 * d.std(ddof=1), rel=1e-12)


def test_ratio_scale_back_transforms_the_log_analysis():
    res = irr.limits_of_agreement(WRIGHT, MINI, scale="ratio")
    logs = irr.limits_of_agreement(np.log(WRIGHT), np.log(MINI))
    assert res.estimate == pytest.approx(math.exp(logs.estimate), rel=1e-12)
    assert res.lower == pytest.approx(math.exp(logs.lower), rel=1e-12)
    assert res.upper == pytest.approx(math.exp(logs.upper), rel=1e-12)
    for mine, theirs in ((res.ci, logs.ci), (res.lower_ci, logs.lower_ci),
                         (res.upper_ci, logs.upper_ci)):
        assert (mine.low, mine.high) == pytest.approx((math.exp(theirs.low),
                                                       math.exp(theirs.high)), rel=1e-12)
    assert math.isnan(res.se)
    assert res.log_se == pytest.approx(logs.se)
    assert res.pvalue == pytest.approx(logs.pvalue)
    assert res.difference == "x / y"
    sentence = res.report()
    assert sentence.startswith("The geometric mean ratio x / y was 0.988, 95% CI [0.928, 1.052]")
    assert "(exp(mean ± 1.96 SD of the log ratios)) were 0.778" in sentence


def test_bias_t_test_matches_scipy():
    from scipy.stats import ttest_1samp

    res = irr.limits_of_agreement(WRIGHT, MINI)
    test = ttest_1samp(WRIGHT - MINI, 0.0)
    assert res.statistic == pytest.approx(test.statistic, rel=1e-12)
    assert res.pvalue == pytest.approx(test.pvalue, rel=1e-10)
    ci = test.confidence_interval(0.95)
    assert (res.ci.low, res.ci.high) == pytest.approx((ci.low, ci.high), rel=1e-12)


def test_proportional_bias_and_regression_limits_match_statsmodels():
    res = irr.limits_of_agreement(WRIGHT, MINI, method="regression")
    sm = ref.regression_limits_statsmodels(WRIGHT, MINI, Z95)
    assert res.bias_intercept == pytest.approx(sm["b0"], rel=1e-10)
    assert res.slope == pytest.approx(sm["b1"], rel=1e-10)
    assert res.slope_se == pytest.approx(sm["b1_se"], rel=1e-10)
    assert res.slope_pvalue == pytest.approx(sm["b1_p"], rel=1e-8)
    assert res.sd_intercept == pytest.approx(sm["c0"], rel=1e-10)
    assert res.sd_slope == pytest.approx(sm["c1"], rel=1e-10)
    lower, bias, upper = res.limits_at([300.0, 500.0])
    expected_half = sm["half0"] + sm["half1"] * np.array([300.0, 500.0])
    assert upper - bias == pytest.approx(expected_half, rel=1e-10)
    assert bias - lower == pytest.approx(expected_half, rel=1e-10)
    # sqrt(pi / 2) x 1.96 = 2.46 (Bland & Altman 1999, section 3.2)
    assert round(math.sqrt(math.pi / 2) * 1.96, 2) == 2.46
    frame = res.to_frame()
    assert list(frame.index) == ["Bias (x - y)", "Bias line: intercept", "Bias line: slope",
                                 "Half-width (95%): intercept", "Half-width (95%): slope"]
    plain = irr.limits_of_agreement(WRIGHT, MINI)  # the slope is reported there too
    assert plain.slope == pytest.approx(sm["b1"], rel=1e-10)


def test_regression_limits_follow_a_spread_that_grows():
    rng = np.random.default_rng(3)
    truth = rng.uniform(50, 250, 400)
    x = truth + rng.normal(0, 0.05 * truth)
    y = truth + rng.normal(0, 0.05 * truth)
    res = irr.limits_of_agreement(x, y, method="regression")
    lower, _, upper = res.limits_at([60.0, 240.0])
    width = upper - lower
    assert width[1] > 3 * width[0]
    # the regression limits contain about 95% of the differences at every magnitude
    lo, _, hi = res.limits_at((x + y) / 2)
    inside = ((x - y) >= lo) & ((x - y) <= hi)
    assert inside.mean() == pytest.approx(0.95, abs=0.03)


# -- nonparametric ------------------------------------------------------------------------------

@pytest.mark.parametrize(("n", "p"), [(17, 0.5), (100, 0.025), (200, 0.975), (1000, 0.975)])
def test_order_statistic_ranks_by_brute_force(n, p):
    r, s, coverage = order_statistic_ranks(n, p, 0.95)
    assert coverage == pytest.approx(ref.order_statistic_coverage(n, p, r, s), abs=1e-12)
    tail = 0.025
    # each tail at most 2.5%, and neither rank can move inwards without breaking that
    assert ref.order_statistic_coverage(n, p, 0, r) <= tail + 1e-12
    assert ref.order_statistic_coverage(n, p, s, n + 1) <= tail + 1e-12
    if r < n:
        assert ref.order_statistic_coverage(n, p, 0, r + 1) > tail
    if s > 1:
        assert ref.order_statistic_coverage(n, p, s - 1, n + 1) > tail


def test_nonparametric_limits():
    rng = np.random.default_rng(5)
    x = rng.normal(100, 10, 199)
    y = x + rng.standard_t(3, 199)
    res = irr.limits_of_agreement(x, y, method="nonparametric")
    d = np.sort(x - y)
    # rank (n + 1) p = 5 and 195: exact order statistics
    assert res.lower == d[4]
    assert res.upper == d[194]
    assert res.estimate == np.median(x - y)
    r, s, _ = order_statistic_ranks(199, 0.025, 0.95)
    assert (res.lower_ci.low, res.lower_ci.high) == (d[r - 1], d[s - 1])
    assert res.limit_ci_method == "order statistics"
    assert math.isnan(res.se)
    text = str(res)
    assert "order statistics" in text


def test_nonparametric_limits_need_enough_pairs():
    with pytest.warns(irr.DegenerateDataWarning, match="at least 39 pairs"):
        res = irr.limits_of_agreement(WRIGHT, MINI, method="nonparametric")
    assert math.isnan(res.lower)
    assert math.isnan(res.upper)


# -- replicates ---------------------------------------------------------------------------------

def _pef_measurements():
    long = pef_long()
    return Measurements.from_long(long["subject"], long["method"], long["value"],
                                  raters=["wright", "mini"]), long


def test_replicates_require_a_design():
    m, _ = _pef_measurements()
    assert m.has_replicates
    with pytest.raises(ValueError, match="replicates='constant'"):
        limits_of_agreement(m)


def test_constant_design_matches_pandas():
    m, long = _pef_measurements()
    res = limits_of_agreement(m, replicates="constant")
    expected = ref.constant_design_pandas(long, "wright", "mini")
    assert res.estimate == pytest.approx(expected["bias"], rel=1e-12)
    assert res.sd == pytest.approx(expected["sd"], rel=1e-12)
    assert res.design == "constant"
    assert res.limit_ci_method == "mover"
    assert res.lower_ci.low < res.lower < res.lower_ci.high
    assert res.upper_ci.low < res.upper < res.upper_ci.high


def test_constant_design_unbalanced_matches_pandas():
    rng = np.random.default_rng(11)
    rows = []
    for subject in range(30):
        truth = rng.normal(120, 15)
        for method, count in (("a", rng.integers(1, 4)), ("b", rng.integers(1, 5))):
            rows += [(subject, method, truth + rng.normal(0, 4)) for _ in range(count)]
    long = pd.DataFrame(rows, columns=["subject", "method", "value"])
    m = Measurements.from_long(long["subject"], long["method"], long["value"])
    res = limits_of_agreement(m, replicates="constant")
    expected = ref.constant_design_pandas(long, "a", "b")
    assert res.estimate == pytest.approx(expected["bias"], rel=1e-12)
    assert res.sd == pytest.approx(expected["sd"], rel=1e-12)


def test_varying_design_matches_statsmodels_anova_and_reml():
    m, _long = _pef_measurements()
    res = limits_of_agreement(m, replicates="varying")
    d = (PEF[["wright_1", "wright_2"]].to_numpy() - PEF[["mini_1", "mini_2"]].to_numpy())
    subject = np.repeat(PEF["subject"].to_numpy(), 2)
    sm = ref.varying_design_statsmodels(subject, d.ravel())
    parts = res.variance_components
    assert parts["msb"] == pytest.approx(sm["msb"], rel=1e-10)
    assert parts["sigma_within"] == pytest.approx(sm["msw"], rel=1e-10)
    assert parts["sigma_between"] == pytest.approx(sm["between_anova"], rel=1e-10)
    # balanced data with a positive component: REML equals the ANOVA estimates
    assert parts["sigma_between"] == pytest.approx(sm["between_reml"], rel=1e-4)
    assert parts["sigma_within"] == pytest.approx(sm["within_reml"], rel=1e-4)
    assert res.estimate == pytest.approx(d.mean(), rel=1e-12)
    assert res.sd == pytest.approx(math.sqrt(sm["between_anova"] + sm["msw"]), rel=1e-10)


def test_varying_design_unbalanced_matches_statsmodels():
    rng = np.random.default_rng(7)
    pairs = rng.integers(1, 5, 25)
    subject = np.repeat(np.arange(25), pairs)
    shift = rng.normal(0, 3, 25)[subject]
    x = 100 + rng.normal(0, 10, subject.size)
    y = x - 1 + shift + rng.normal(0, 2, subject.size)
    m = Measurements.from_long(np.r_[subject, subject], ["x"] * subject.size
                               + ["y"] * subject.size, np.r_[x, y])
    res = limits_of_agreement(m, replicates="varying")
    sm = ref.varying_design_statsmodels(subject, x - y)
    parts = res.variance_components
    assert parts["m0"] == pytest.approx(sm["m0"], rel=1e-12)
    assert parts["sigma_within"] == pytest.approx(sm["msw"], rel=1e-10)
    assert parts["sigma_between"] == pytest.approx(max(sm["between_anova"], 0), rel=1e-10)


def test_mover_pieces():
    # one variance: the MOVER interval is the chi-square interval
    from scipy.stats import chi2

    _est, low, high = variance_sum_interval(np.array([1.0]), np.array([4.0]), np.array([10]),
                                           0.95)
    assert (low, high) == pytest.approx((40 / chi2.ppf(0.975, 10), 40 / chi2.ppf(0.025, 10)))
    (ll, lh), (ul, uh) = limit_mover(1.0, (0.0, 2.0), 4.0, (1.0, 9.0), 2.0)
    assert (ul, uh) == pytest.approx((5 - math.sqrt(1 + 4), 5 + math.sqrt(1 + 4)))
    assert (ll, lh) == pytest.approx((-3 - math.sqrt(1 + 4), -3 + math.sqrt(1 + 4)))


def test_ratio_with_replicates():
    m, _ = _pef_measurements()
    res = limits_of_agreement(m, replicates="constant", scale="ratio")
    logs = Measurements(m.subject, m.rater, np.log(m.value), m.raters, m.subjects)
    on_logs = limits_of_agreement(logs, replicates="constant")
    assert res.estimate == pytest.approx(math.exp(on_logs.estimate), rel=1e-12)
    assert res.upper_ci.high == pytest.approx(math.exp(on_logs.upper_ci.high), rel=1e-12)


def test_replicates_refuse_what_is_not_defined():
    m, _ = _pef_measurements()
    with pytest.raises(ValueError, match="method='nonparametric'"):
        limits_of_agreement(m, replicates="constant", method="nonparametric")
    with pytest.raises(ValueError, match="`ci_method` must be one of 'mover'"):
        limits_of_agreement(m, replicates="constant", ci_method="exact")


# -- output -------------------------------------------------------------------------------------

def test_summary_frame_report_and_repr_read_well():
    res = irr.limits_of_agreement(PEF["wright_1"], PEF["mini_1"], names=["Wright", "mini"],
                                  units="l/min")
    assert isinstance(res, LimitsOfAgreementResult)
    text = str(res)
    for piece in ("Bland-Altman limits of agreement", "Wright - mini", "l/min",
                  "Lower limit (95%)", "Upper limit (95%)", "Proportional bias (slope)",
                  "exact", "bias ± 1.96 SD"):
        assert piece in text
    frame = res.to_frame()
    assert list(frame.index) == ["Bias (Wright - mini)", "Lower limit (95%)",
                                 "Upper limit (95%)", "Proportional bias (slope)"]
    assert frame.loc["Lower limit (95%)", "estimate"] == res.lower
    assert frame.loc["Upper limit (95%)", "ci_method"] == "exact"
    d = res.to_dict()
    assert d["upper"] == res.upper
    assert d["difference"] == "Wright - mini"
    sentence = res.report()
    assert sentence.startswith("The mean difference Wright − mini was −2.1 l/min")
    assert "n = 17" in sentence
    assert "exact, non-central t" in sentence
    assert "LimitsOfAgreementResult(difference='Wright - mini'" in repr(res)
    assert "<table" in res._repr_html_()
    plain = res.report("plain")
    assert "95% CI −22.0 to 17.8" in plain


def test_series_names_and_missing_pairs():
    x = pd.Series([120.5, 131.0, np.nan, 99.5, 142.0], name="nurse")
    y = pd.Series([118.0, 133.5, 125.0, 101.0, 139.5], name="device")
    res = irr.limits_of_agreement(x, y)
    assert res.difference == "nurse - device"
    assert res.n_subjects == 4
    assert res.n_missing == 1
    assert any("left out" in note for note in res.notes)


def test_same_input_same_bytes():
    a = irr.limits_of_agreement(WRIGHT, MINI).to_frame()
    b = irr.limits_of_agreement(WRIGHT, MINI).to_frame()
    pd.testing.assert_frame_equal(a, b)


def test_conf_int_of_the_bias_at_another_level():
    res = irr.limits_of_agreement(WRIGHT, MINI)
    ci = res.conf_int(0.90)
    from scipy.stats import t

    d = WRIGHT - MINI
    half = t.ppf(0.95, 16) * d.std(ddof=1) / math.sqrt(17)
    assert (ci.low, ci.high) == pytest.approx((d.mean() - half, d.mean() + half))
    with pytest.raises(ValueError, match="`method` must be one of 't'"):
        res.conf_int(method="bca")


# -- bad input and degenerate data --------------------------------------------------------------

@pytest.mark.parametrize(("kwargs", "error", "match"), [
    ({"scale": "log"}, ValueError, "`scale` must be one of"),
    ({"method": "robust"}, ValueError, "`method` must be one of"),
    ({"coverage": 1.5}, ValueError, "`coverage` must be in"),
    ({"multiplier": -2}, ValueError, "`multiplier` must be a positive number; got -2"),
    ({"multiplier": "2"}, TypeError, "`multiplier` must be a positive number"),
    ({"ci_method": "mover"}, ValueError, "`ci_method` must be one of 'exact', 'approximate'"),
    ({"confidence_level": 95}, ValueError, "`confidence_level` must be in"),
    ({"replicates": "paired"}, ValueError, "`replicates` must be one of"),
])
def test_bad_options(kwargs, error, match):
    with pytest.raises(error, match=match):
        irr.limits_of_agreement(WRIGHT, MINI, **kwargs)


def test_bad_data():
    with pytest.raises(ValueError, match="one length; got 3 and 2"):
        irr.limits_of_agreement([1.0, 2.0, 3.0], [1.0, 2.0])
    with pytest.raises(TypeError, match=r"`y` must hold real numbers \(nan for missing\), "
                                      r"not text; got \['a'\]"):
        irr.limits_of_agreement([1.0, 2.0], [1.0, "a"])
    with pytest.raises(ValueError, match="at least two subjects"):
        irr.limits_of_agreement([1.0, np.nan], [1.0, 2.0])
    with pytest.raises(ValueError, match=r"positive measurements.*\[-1.0\]"):
        irr.limits_of_agreement([1.0, -1.0, 2.0], [1.0, 2.0, 2.0], scale="ratio")
    with pytest.raises(ValueError, match="`names` must name the two methods"):
        irr.limits_of_agreement(WRIGHT, MINI, names=["a"])
    with pytest.raises(ValueError, match="infinite"):
        irr.limits_of_agreement([1.0, np.inf], [1.0, 2.0])


def test_identical_differences_warn_and_give_no_interval():
    with pytest.warns(irr.DegenerateDataWarning, match="SD 0"):
        res = irr.limits_of_agreement([1.0, 2.0, 3.0], [0.5, 1.5, 2.5])
    assert res.estimate == 0.5
    assert res.lower == 0.5
    assert res.upper == 0.5
    assert math.isnan(res.upper_ci.low)
    assert math.isnan(res.ci.low)


# -- the plot -----------------------------------------------------------------------------------

def test_bland_altman_plot():
    matplotlib = pytest.importorskip("matplotlib")
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    from irr.plotting import bland_altman, to_svg

    res = irr.limits_of_agreement(WRIGHT, MINI, names=["Wright", "mini"], units="l/min")
    ax = bland_altman(res)
    assert ax.get_xlabel() == "Mean of Wright and mini (l/min)"
    assert ax.get_ylabel() == "Wright \u2212 mini (l/min)"
    labels = [t.get_text() for t in ax.get_legend().get_texts()]
    assert labels == ["Bias", "95% limits of agreement", "95% CIs"]
    assert [t.get_text() for t in ax.texts] == ["\u22122.1", "\u221278.1", "73.9"]
    svg = to_svg(ax.figure)
    assert svg.startswith("<?xml")
    assert svg == to_svg(ax.figure)
    plt.close(ax.figure)
    ax = bland_altman(WRIGHT, MINI, method="regression")
    assert [t.get_text() for t in ax.get_legend().get_texts()] == [
        "Bias (regression)", "95% limits (regression)"]
    plt.close(ax.figure)
    ax = bland_altman(WRIGHT, MINI, scale="ratio")
    assert ax.get_yscale() == "log"
    assert ax.get_ylabel() == "x / y"
    plt.close(ax.figure)
    with pytest.raises(TypeError, match="`y` is required"):
        bland_altman(WRIGHT)
    with pytest.raises(TypeError, match="only with arrays"):
        bland_altman(res, method="regression")


# -- coverage (slow) ----------------------------------------------------------------------------

def _coverage_single(n, ci_method, reps=4000, seed=0):
    rng = np.random.default_rng(seed)
    hits = np.zeros(2)
    for _ in range(reps):
        d = rng.normal(1.0, 2.0, n)
        res = irr.limits_of_agreement(d, np.zeros(n), ci_method=ci_method)
        hits += [res.lower_ci.low <= 1 - Z95 * 2 <= res.lower_ci.high,
                 res.upper_ci.low <= 1 + Z95 * 2 <= res.upper_ci.high]
    return hits / reps


@pytest.mark.slow
def test_exact_intervals_cover_at_the_nominal_level():
    lower, upper = _coverage_single(15, "exact")
    assert lower == pytest.approx(0.95, abs=0.012)
    assert upper == pytest.approx(0.95, abs=0.012)


@pytest.mark.slow
def test_approximate_intervals_undercover_in_small_samples():
    lower, upper = _coverage_single(10, "approximate")
    assert lower < 0.94
    assert upper < 0.94


@pytest.mark.slow
def test_mover_intervals_of_paired_replicates_cover_near_nominal():
    rng = np.random.default_rng(2)
    n, k, reps = 30, 3, 1500
    sigma_b, sigma_w, bias = 1.5, 1.0, 0.5
    sd = math.hypot(sigma_b, sigma_w)
    subject = np.repeat(np.arange(n), k)
    hits = np.zeros(2)
    for _ in range(reps):
        d = bias + rng.normal(0, sigma_b, n)[subject] + rng.normal(0, sigma_w, n * k)
        m = Measurements.from_long(np.r_[subject, subject], ["x"] * (n * k) + ["y"] * (n * k),
                                   np.r_[d, np.zeros(n * k)])
        res = limits_of_agreement(m, replicates="varying")
        hits += [res.lower_ci.low <= bias - Z95 * sd <= res.lower_ci.high,
                 res.upper_ci.low <= bias + Z95 * sd <= res.upper_ci.high]
    coverage = hits / reps
    assert coverage == pytest.approx([0.95, 0.95], abs=0.025)


@pytest.mark.slow
def test_order_statistic_intervals_cover_at_least_nominal():
    rng = np.random.default_rng(4)
    n, reps = 200, 2000
    from scipy.stats import norm

    truth = norm.ppf(0.975)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        hits = sum(
            (lambda r: r.upper_ci.low <= truth <= r.upper_ci.high)(
                irr.limits_of_agreement(rng.standard_normal(n), np.zeros(n),
                                        method="nonparametric"))
            for _ in range(reps))
    assert hits / reps >= 0.95 - 0.012


def test_limits_count_subjects_measured_by_one_method_as_incomplete():
    a = np.array([1.0, 2, 3, 4, 5, np.nan, 7, 8])
    b = np.array([1.1, 2.2, 2.9, np.nan, 5.2, 6, 7.1, 8.3])
    res = irr.limits_of_agreement(a, b)
    assert (res.n_subjects, res.n_missing, res.n_incomplete) == (6, 2, 2)
    assert res.to_frame()[["n_missing", "n_incomplete"]].eq(2).all().all()
    # as the CCC of the same pairs counts them
    assert irr.concordance(a, b).n_incomplete == res.n_incomplete


def test_coverage_beside_a_multiplier_is_refused_not_dropped():
    pef = irr.datasets.load("pef")
    with pytest.raises(ValueError, match="`coverage` or `multiplier`, not both"):
        irr.limits_of_agreement(pef["wright_1"], pef["mini_1"], multiplier=2, coverage=0.5)
    # an explicit coverage equal to the default is refused too: the default is None
    with pytest.raises(ValueError, match="`coverage` or `multiplier`, not both"):
        irr.limits_of_agreement(pef["wright_1"], pef["mini_1"], multiplier=2, coverage=0.95)
    agreement = irr.Agreement.from_frame(pef[["wright_1", "mini_1"]], continuous=True)
    with pytest.raises(ValueError, match="`coverage` or `multiplier`, not both"):
        agreement.limits_of_agreement(multiplier=1.96, coverage=0.95)
    res = irr.limits_of_agreement(pef["wright_1"], pef["mini_1"], multiplier=2)
    assert res.multiplier == 2
