"""Issue 20: kappaetc's ``testvalue(#)`` (``null=``), ``nociclipped`` (``ci_clip=False``)
and ``nraters(#)`` (``rater_population=``).

No published kappaetc output with ``testvalue``, ``nociclipped`` or ``nraters`` was found
(kappaetc's help and Klein 2018, Stata Journal 18(4), st0544, print none that the search
tool could reach), so each option is checked against an independent computation:

- ``null``: the statistic (estimate - null) / SE recomputed here, its p-value from
  scipy.stats' normal and t laws, and the duality with the Wald interval: at a null equal
  to the lower end of the unclipped 1 - 2 alpha interval the one-sided p-value is alpha,
  at the lower end of the 1 - alpha interval the two-sided p-value is alpha;
- ``ci_clip=False``: estimate +- quantile x SE computed here;
- ``rater_population``: the jackknife over raters recomputed here from the coefficient of
  each leave-one-rater-out frame (public API), its variance (r - 1)/r sum (k_(g) - mean)^2
  multiplied by 1 - r/R (Gwet 2008, Psychometrika 73, 407-430: the jackknife variance over
  a sample of r of R raters; the finite-population factor as for nsubjects), and the two
  limits: R = r gives the subject-sampling SE, R -> infinity the uncorrected one.
"""

import math

import numpy as np
import pytest
from scipy import stats

import irr
from irr.inference.options import InferenceOptions

RAW = irr.datasets.load("cac_raw4raters")
AG = irr.Agreement.from_frame(RAW)
ANXIETY = irr.datasets.load("anxiety")
#: Every Wald-tested chance-corrected coefficient of several raters, with its range.
METHODS = ["gwet_ac", "fleiss_kappa", "scott_pi", "conger_kappa", "light_kappa",
           "brennan_prediger"]


def _p(z, alternative, df=math.inf):
    law = stats.norm if math.isinf(df) else stats.t(df)
    if alternative == "greater":
        return law.sf(z)
    if alternative == "less":
        return law.cdf(z)
    return 2 * law.sf(abs(z))


@pytest.mark.parametrize("method", METHODS)
@pytest.mark.parametrize("distribution", ["normal", "t"])
@pytest.mark.parametrize("alternative", ["two-sided", "greater", "less"])
def test_null_statistic_and_pvalue(method, distribution, alternative):
    res = getattr(AG, method)(null=0.4, alternative=alternative, distribution=distribution)
    assert res.null_value == 0.4
    z = (res.estimate - 0.4) / res.se  # the SE under the alternative, never se0
    assert res.statistic == pytest.approx(z, rel=1e-12)
    df = res.n_subjects - 1 if distribution == "t" else math.inf
    assert res.pvalue == pytest.approx(_p(z, alternative, df), rel=1e-9)


@pytest.mark.parametrize("distribution", ["normal", "t"])
def test_null_duality_with_the_wald_interval(distribution):
    """p(null = lower end of the 1 - 2a interval, one-sided) = a; two-sided at 1 - a."""
    alpha = 0.05
    for method in METHODS:
        res = getattr(AG, method)(distribution=distribution, ci_clip=False,
                                  confidence_level=1 - 2 * alpha)
        one = getattr(AG, method)(distribution=distribution, null=res.ci.low,
                                  alternative="greater")
        assert one.pvalue == pytest.approx(alpha, rel=1e-9), method
        low = res.conf_int(confidence_level=1 - alpha).low
        two = getattr(AG, method)(distribution=distribution, null=low)
        assert two.pvalue == pytest.approx(alpha, rel=1e-9), method


def test_null_two_rater_kappa_uses_the_se_under_the_alternative():
    ag = irr.Agreement(ANXIETY["rater1"], ANXIETY["rater2"])
    zero = ag.kappa()
    assert zero.statistic == pytest.approx(zero.estimate / zero.se0)  # the SE under H0
    res = ag.kappa("quadratic", null=-0.2, alternative="greater")
    assert res.statistic == pytest.approx((res.estimate + 0.2) / res.se, rel=1e-12)
    assert res.pvalue == pytest.approx(stats.norm.sf(res.statistic), rel=1e-9)
    assert any("H0: κw = -0.2" in note for note in res.notes)


def test_null_fleiss_kappa_leaves_the_null_se():
    ag = irr.Agreement.from_frame(irr.datasets.load("diagnoses"))
    res = ag.fleiss_kappa(null=0.3)
    assert res.statistic == pytest.approx((res.estimate - 0.3) / res.se, rel=1e-12)
    assert not any("z uses the Fleiss, Nee & Landis" in note for note in res.notes)
    # the default test of 0 keeps the Fleiss, Nee & Landis SE (R irr's z = 17.7)
    assert ag.fleiss_kappa().statistic == pytest.approx(17.65, abs=0.01)


def test_null_krippendorff_alpha():
    res = AG.krippendorff_alpha(ci="wald", null=0.5, alternative="greater")
    assert res.statistic == pytest.approx((res.estimate - 0.5) / res.se, rel=1e-12)
    assert res.pvalue == pytest.approx(stats.norm.sf(res.statistic), rel=1e-9)
    assert res.null_value == 0.5


def test_null_percent_agreement():
    two = irr.Agreement(ANXIETY["rater1"], ANXIETY["rater2"])
    res = two.percent_agreement(null=0.5, alternative="less")
    assert res.statistic == pytest.approx((res.estimate - 0.5) / res.se, rel=1e-12)
    assert res.pvalue == pytest.approx(stats.norm.cdf(res.statistic), rel=1e-9)
    assert math.isnan(two.percent_agreement().pvalue)  # no test of a share against 0
    many = AG.percent_agreement(null=0.6, distribution="t")  # Gwet's pairwise form
    assert many.statistic == pytest.approx((many.estimate - 0.6) / many.se, rel=1e-12)
    assert many.pvalue == pytest.approx(2 * stats.t(many.n_subjects - 1).sf(
        abs(many.statistic)), rel=1e-9)
    assert math.isnan(AG.percent_agreement().pvalue)


def test_null_is_stated_by_summary_report_and_frame():
    res = AG.gwet_ac(null=0.4, alternative="greater")
    text = res.summary().as_text()
    assert "H0:" in text
    assert "AC1 = 0.4" in text
    sentence = res.report()  # the test of a nonzero value is reported without test=True
    assert "(H0: AC1 = .40)" in sentence
    assert "one-sided" in sentence
    assert res.report("plain").count("H0: AC1 = 0.400") == 1
    frame = res.to_frame()
    assert frame["null_value"].iloc[0] == 0.4
    assert res.to_dict()["null_value"] == 0.4
    default = AG.gwet_ac()
    assert "null_value" not in default.to_frame().columns
    assert "H0:" not in default.summary().as_text()
    assert "H0" not in default.report(test=True)


@pytest.mark.parametrize(("null", "error", "match"), [
    (1.0, ValueError, r"`null` must lie inside the range of Gwet's AC1, \(-1, 1\); got 1"),
    (-1.0, ValueError, r"inside the range"),
    (1.5, ValueError, r"got 1.5"),
    (math.nan, ValueError, r"`null` must be a finite number; got nan"),
    ("0.4", TypeError, r"`null` must be a number"),
    (True, TypeError, r"`null` must be a number"),
])
def test_null_bad_values(null, error, match):
    with pytest.raises(error, match=match):
        AG.gwet_ac(null=null)


def test_null_range_of_alpha_and_percent_agreement():
    with pytest.raises(ValueError, match=r"Krippendorff's alpha \(nominal\), \(-inf, 1\)"):
        AG.krippendorff_alpha(ci="wald", null=1)
    assert AG.krippendorff_alpha(ci="wald", null=-2).null_value == -2
    with pytest.raises(ValueError, match=r"\(0, 1\); got 0"):
        irr.Agreement(ANXIETY["rater1"], ANXIETY["rater2"]).percent_agreement(null=0)


# -- ci_clip ---------------------------------------------------------------------------------
@pytest.mark.parametrize("distribution", ["normal", "t"])
def test_ci_clip_false_gives_the_unclipped_wald_limits(distribution):
    res = AG.gwet_ac(ci_clip=False, distribution=distribution)
    q = stats.norm.ppf(0.975) if distribution == "normal" else stats.t(11).ppf(0.975)
    assert res.ci.low == pytest.approx(res.estimate - q * res.se, rel=1e-12)
    assert res.ci.high == pytest.approx(res.estimate + q * res.se, rel=1e-12)
    assert res.ci.high > 1  # the clipped interval ends at 1 (irrCAC's README: 0.461 to 1)
    assert "not clipped to [-1, 1] (`ci_clip=False`)" in res.ci.note
    assert AG.gwet_ac(distribution=distribution).ci.high == 1.0
    again = res.conf_int(confidence_level=0.99)  # conf_int keeps the choice
    assert again.high == pytest.approx(res.estimate + stats.norm.ppf(0.995) * res.se
                                       if distribution == "normal" else
                                       res.estimate + stats.t(11).ppf(0.995) * res.se)


@pytest.mark.parametrize("method", ["kappa", "fleiss_kappa", "krippendorff_alpha"])
def test_ci_clip_false_every_family(method):
    ag = irr.Agreement(RAW["Rater1"], RAW["Rater2"]) if method == "kappa" else AG
    kwargs = {"ci": "wald"} if method == "krippendorff_alpha" else {}
    res = getattr(ag, method)(ci_clip=False, **kwargs)
    half = stats.norm.ppf(0.975) * res.se
    assert (res.ci.low, res.ci.high) == pytest.approx((res.estimate - half,
                                                       res.estimate + half), rel=1e-12)
    assert res.ci_clip is False


def test_ci_clip_type():
    with pytest.raises(TypeError, match="`ci_clip` must be True or False; got 'no'"):
        AG.gwet_ac(ci_clip="no")


# -- rater_population --------------------------------------------------------------------------
def _jackknife_variance(method, frame):
    """(r - 1)/r sum_g (k_(g) - mean)^2 over the leave-one-rater-out frames (public API)."""
    out = np.array([getattr(irr.Agreement.from_frame(frame.drop(columns=c)), method)().estimate
                    for c in frame.columns])
    r = out.size
    return (r - 1) / r * np.sum((out - out.mean()) ** 2)


@pytest.mark.parametrize("method", ["gwet_ac", "fleiss_kappa", "conger_kappa",
                                    "brennan_prediger"])
@pytest.mark.parametrize("population", [5, 8, 40])
def test_rater_population_against_the_jackknife(method, population):
    frame = ANXIETY.assign(rater4=ANXIETY["rater1"].shift(1).fillna(3))
    ag = irr.Agreement.from_frame(frame)
    v_r = _jackknife_variance(method, frame) * (1 - 4 / population)
    se_s = getattr(ag, method)().se
    both = getattr(ag, method)(sampling="both", rater_population=population)
    assert both.se == pytest.approx(math.sqrt(se_s**2 + v_r), rel=1e-9)
    raters = getattr(ag, method)(sampling="raters", rater_population=population)
    assert raters.se == pytest.approx(math.sqrt(v_r), rel=1e-9)
    assert any("1 - 4/" in note and "nraters" in note for note in both.notes)
    assert f"R = {population}" in both.ci.note


def test_rater_population_limits():
    # R = r: the raters are the population, only the subject-sampling SE is left
    assert AG.gwet_ac(sampling="both", rater_population=4).se == pytest.approx(
        AG.gwet_ac().se, rel=1e-12)
    # R -> infinity: today's unconditional SE
    assert AG.gwet_ac(sampling="both", rater_population=1e12).se == pytest.approx(
        AG.gwet_ac(sampling="both").se, rel=1e-9)
    assert AG.gwet_ac(sampling="both", rater_population=math.inf).se == \
        AG.gwet_ac(sampling="both").se
    alpha = AG.krippendorff_alpha(ci="wald", sampling="both", rater_population=4)
    assert alpha.se == pytest.approx(AG.krippendorff_alpha(ci="wald").se, rel=1e-12)


@pytest.mark.parametrize(("kwargs", "error", "match"), [
    ({"sampling": "both", "rater_population": 3}, ValueError,
     r"`rater_population` \(3\) must be at least the number of raters who rated \(4\)"),
    ({"rater_population": 10}, ValueError,
     r"`rater_population` corrects the variance over raters.*sampling='raters'.*'both'"),
    ({"sampling": "both", "rater_population": 0}, ValueError, r"positive number of raters"),
    ({"sampling": "both", "rater_population": "8"}, TypeError, r"number of raters"),
])
def test_rater_population_bad_values(kwargs, error, match):
    with pytest.raises(error, match=match):
        AG.gwet_ac(**kwargs)


def test_options_defaults_unchanged():
    opts = InferenceOptions()
    assert (opts.null, opts.ci_clip, opts.rater_population) == (None, True, None)
    assert opts.null_for((-1.0, 1.0), "x") == 0.0
    assert opts.rater_fpc(4) == 1.0
    assert opts.clip((-1.0, 1.0)) == (-1.0, 1.0)
    assert InferenceOptions(ci_clip=False).clip((-1.0, 1.0)) == (-math.inf, math.inf)


def test_a_whole_population_blames_the_finite_population_correction_not_agreement():
    agreement = irr.Agreement.from_frame(irr.datasets.load("anxiety"))
    with pytest.warns(irr.DegenerateDataWarning) as caught:
        res = agreement.fleiss_kappa(population=20)
    message = str(caught[0].message)
    assert "finite-population correction sqrt(1 - n/N) is 0" in message
    assert "the 20 subjects are the whole population" in message
    assert "perfect agreement" not in message
    assert res.se == 0


# -- population (subjects): the test's SE under H0 carries the correction too -------------------
@pytest.mark.parametrize("method", ["fleiss_kappa", "kappa"])
def test_the_finite_population_correction_applies_to_the_se_under_h0_of_the_test(method):
    # Fleiss' z (and Cohen's) is on the SE under H0 (Fleiss, Nee & Landis 1979; Fleiss,
    # Cohen & Everitt 1969); with population=N the interval's SE was multiplied by
    # sqrt(1 - n/N) but the test's was not: one sampling model for both
    ag = irr.Agreement.from_frame(irr.datasets.load("anxiety"),
                                  raters=None if method == "fleiss_kappa" else
                                  ["rater1", "rater2"])
    plain = getattr(ag, method)()
    fpc = math.sqrt(1 - 20 / 50)
    res = getattr(ag, method)(population=50)
    assert res.se == pytest.approx(plain.se * fpc, rel=1e-12)
    assert res.se0 == pytest.approx(plain.se0 * fpc, rel=1e-12)
    assert res.statistic == pytest.approx(res.estimate / (plain.se0 * fpc), rel=1e-12)
    assert res.pvalue == pytest.approx(2 * stats.norm.sf(abs(res.statistic)), rel=1e-12)
    assert any("SE under H0" in note and "finite-population" in note for note in res.notes)
    if method == "fleiss_kappa":  # the per-category kappas of the same test
        plain_cat, cat = plain.per_category, res.per_category
        assert np.allclose(cat["se"], plain_cat["se"] * fpc, rtol=1e-12, equal_nan=True)
        assert np.allclose(cat["se0"], plain_cat["se0"] * fpc, rtol=1e-12, equal_nan=True)
