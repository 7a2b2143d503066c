"""Inference options of issue 20 against irrCAC's documented output.

Source: irrCAC 1.0 README (Gwet 2019, https://github.com/kgwet/irrCAC, README.md, also the
package's overview vignette), which prints for each coefficient the estimate, SE, the 95%
interval (3 decimals, t quantiles on n - 1 df, clipped to [-1, 1]) and the two-sided
p-value of t = estimate / SE on n - 1 df:

- ``*.raw`` on ``cac.raw4raters`` (12 subjects, so 11 df; Gwet 2014, p. 120);
- ``*.dist`` on ``distrib.6raters`` (15 subjects, 14 df);
- ``kappa2.table`` on ``cont3x3abstractors`` (100 subjects, 99 df).

p-values are printed to 7 significant digits from an estimate and SE that irrCAC rounds
to 5 decimals before printing, so the tolerance on p is relative 1e-3 (the effect of
rounding the printed estimate and SE); interval ends to half a unit in the third decimal.
"""

import math
import pathlib
import sys

import numpy as np
import pandas as pd
import pytest
from scipy import stats

import irr

sys.path.insert(0, str(pathlib.Path(__file__).parent))

RAW = irr.datasets.load("cac_raw4raters")

# method, printed interval, printed p-value (irrCAC 1.0 README, cac.raw4raters)
RAW_T = [
    ("percent_agreement", (0.542, 1.0), 4.345373e-05),
    ("gwet_ac", (0.461, 1.0), 0.000208721),
    ("fleiss_kappa", (0.424, 1.0), 0.000419173),
    ("conger_kappa", (0.435, 1.0), 0.0003367066),
    ("brennan_prediger", (0.454, 1.0), 0.0002375609),
]


@pytest.mark.parametrize(("method", "interval", "pvalue"), RAW_T)
def test_irrcac_raw4raters_t(method, interval, pvalue):
    ag = irr.Agreement.from_frame(RAW)
    res = getattr(ag, method)(distribution="t")
    assert res.ci.low == pytest.approx(interval[0], abs=5e-4)
    assert res.ci.high == pytest.approx(interval[1], abs=5e-4)
    assert res.design_df == 11
    if method == "percent_agreement":  # irrCAC tests pa = 0; we give no test
        assert math.isnan(res.pvalue)
        return
    assert res.pvalue == pytest.approx(pvalue, rel=1e-3)
    assert res.statistic == pytest.approx(res.estimate / res.se, rel=1e-12)
    assert res.statistic_name == "t"


DISTRIB_6RATERS = [
    [0, 0, 0, 6, 0], [0, 3, 0, 0, 3], [0, 1, 4, 0, 1], [0, 0, 0, 0, 6], [0, 3, 0, 3, 0],
    [2, 0, 4, 0, 0], [0, 0, 4, 0, 2], [2, 0, 3, 1, 0], [2, 0, 0, 4, 0], [0, 0, 0, 0, 6],
    [1, 0, 0, 5, 0], [1, 1, 0, 4, 0], [0, 3, 3, 0, 0], [1, 0, 0, 5, 0], [0, 2, 0, 3, 1],
]

# irrCAC 1.0 README, *.dist on distrib.6raters
DIST_T = [
    ("gwet_ac", (0.264, 0.625), 0.0001155927),
    ("fleiss_kappa", (0.24, 0.588), 0.0001622724),
    ("brennan_prediger", (0.261, 0.617), 0.0001163),
]


@pytest.mark.parametrize(("method", "interval", "pvalue"), DIST_T)
def test_irrcac_distrib_6raters_t(method, interval, pvalue):
    ag = irr.Agreement.from_counts(DISTRIB_6RATERS, categories=[1, 2, 3, 4, 5])
    res = getattr(ag, method)(distribution="t")
    assert res.ci.low == pytest.approx(interval[0], abs=5e-4)
    assert res.ci.high == pytest.approx(interval[1], abs=5e-4)
    # these estimates and SEs are printed to 7 significant digits: p to 1e-5 relative
    # (BP's p is printed to 4 digits)
    assert res.pvalue == pytest.approx(pvalue, rel=5e-4 if method == "brennan_prediger"
                                       else 1e-5)


def test_irrcac_kappa2_table_t():
    # kappa2.table(cont3x3abstractors): 0.7964094, SE 0.05891072, (0.68,0.913)
    ag = irr.Agreement.from_table([[13, 0, 0], [0, 20, 7], [0, 4, 56]])
    res = ag.kappa(distribution="t")
    assert res.estimate == pytest.approx(0.7964094, abs=5e-8)
    assert res.ci.low == pytest.approx(0.68, abs=5e-3)
    assert res.ci.high == pytest.approx(0.913, abs=5e-4)
    assert res.design_df == 99
    # the t test uses the SE under the alternative (irrCAC), not the null SE
    assert res.statistic == pytest.approx(res.estimate / res.se, rel=1e-12)


def test_t_wider_than_normal_and_labelled():
    ag = irr.Agreement.from_frame(RAW)
    z, t = ag.gwet_ac(), ag.gwet_ac(distribution="t")
    assert z.se == t.se
    assert z.estimate == t.estimate
    assert t.ci.low < z.ci.low
    assert t.pvalue > z.pvalue
    assert math.isinf(z.design_df)
    assert z.statistic_name == "z"
    text = t.summary().as_text()
    assert "t quantiles on n - 1 = 11 df" in text
    header = next(line for line in text.splitlines() if "estimate" in line).split()
    assert header[:4] == ["estimate", "std", "err", "t"]
    assert "t(11) = 5.42" in t.report(test=True)
    assert "z = " in z.report(test=True)


def test_fleiss_t_uses_linearised_se_not_null_se():
    ag = irr.Agreement.from_frame(irr.datasets.load("diagnoses"))
    z, t = ag.fleiss_kappa(), ag.fleiss_kappa(distribution="t")
    assert z.statistic == pytest.approx(z.estimate / z.se0)  # FNL under H0 (normal)
    assert t.statistic == pytest.approx(t.estimate / t.se)
    assert t.se0 == z.se0  # still reported
    assert any("the test uses the SE above" in n for n in t.notes)
    per = t.per_category
    assert per["z"].to_numpy() == pytest.approx((per["kappa"] / per["se"]).to_numpy())


def test_distribution_validated():
    ag = irr.Agreement.from_frame(RAW)
    with pytest.raises(ValueError, match="`distribution` must be one of 'normal', 't'; got 'T'"):
        ag.gwet_ac(distribution="T")


def test_irrcac_pa2_table_t():
    # pa2.table(cont3x3abstractors): 0.89, SE 0.03128898, (0.828,0.952): a Wald interval
    # with t quantiles on 99 df
    ag = irr.Agreement.from_table([[13, 0, 0], [0, 20, 7], [0, 4, 56]])
    res = ag.percent_agreement(distribution="t", ci="wald")
    assert res.se == pytest.approx(0.03128898, abs=5e-9)
    assert res.ci.low == pytest.approx(0.828, abs=5e-4)
    assert res.ci.high == pytest.approx(0.952, abs=5e-4)
    # the default Wilson interval has no t form, and says so
    wilson = ag.percent_agreement(distribution="t")
    assert wilson.ci.method == "wilson"
    assert any("Wilson interval has no t form" in n for n in wilson.notes)


# -- finite-population correction (irrCAC's N) ---------------------------------------
# irrCAC's manual (every *.raw function): "N: ... the total number of subjects in the
# target subject population. Its default value is infinity"; Gwet (2014, sec. 5.2) gives
# the variance (1 - f) / (n (n - 1)) sum_i (k*_i - k)^2 with the sampling fraction f = n/N.
# No output with a finite N is printed there, so these check that definition.


@pytest.mark.parametrize("method", ["gwet_ac", "fleiss_kappa", "conger_kappa",
                                    "brennan_prediger", "light_kappa", "percent_agreement"])
def test_finite_population_correction(method):
    ag = irr.Agreement.from_frame(RAW)
    plain = getattr(ag, method)()
    fpc = getattr(ag, method)(population=40, distribution="t")
    n = plain.n_subjects
    assert fpc.se == pytest.approx(plain.se * math.sqrt(1 - n / 40), rel=1e-12)
    assert fpc.estimate == plain.estimate
    assert any("finite-population correction" in note for note in fpc.notes)
    assert "corrected for a finite population of N = 40" in fpc.report()
    assert "finite-population corrected" in fpc.conf_int(0.9).note
    assert getattr(ag, method)(population=math.inf).se == plain.se


def test_finite_population_of_cohen_kappa():
    ag = irr.Agreement.from_table([[13, 0, 0], [0, 20, 7], [0, 4, 56]])
    assert ag.kappa(population=400).se == pytest.approx(
        ag.kappa().se * math.sqrt(1 - 100 / 400), rel=1e-12)


@pytest.mark.parametrize(("population", "error", "match"), [
    (5, ValueError, r"`population` \(5\) must be at least the number of subjects rated \(12\)"),
    (0, ValueError, "`population` must be a positive number"),
    (math.nan, ValueError, "`population` must be a positive number"),
    ("100", TypeError, "`population` must be a number of subjects"),
    (True, TypeError, "`population` must be a number of subjects"),
])
def test_population_validated(population, error, match):
    ag = irr.Agreement.from_frame(RAW)
    with pytest.raises(error, match=match):
        ag.gwet_ac(population=population)


# -- Krippendorff's alpha: Gwet's linearised SE (item 2) ---------------------------------
# krippen.alpha.raw(cac.raw4raters) as printed by the GitHub version of irrCAC (overview
# vignette of 2021-08-18, README; weighting vignette of 2021-08-28, quadratic weights =
# our interval level): 0.74342, SE 0.14548, (0.423,1), p 0.0003386245 and 0.84911,
# SE 0.12905, (0.565,1), p 3.972199e-05, with t on 11 df (it counts the 12 units, one of
# them with a single rating; we count the 11 pairable units, 10 df). irrCAC 1.0 (CRAN 2019;
# vignettes to 2021-08-15) prints SE 0.14557, (0.419,1), p 0.0004594257 and SE 0.12913,
# (0.561,1), p 6.267448e-05 on 10 df: p_a for p_a' in the units' r_i adjustment
# (tests/reference/alpha_gwet_variance_reference.py, adjust="pa").
RAW_ALPHA = {  # estimate, (SE, interval, p) GitHub on 11 df, (SE, interval, p) 1.0 on 10 df
    "nominal": (0.74342, (0.14548, (0.423, 1.0), 0.0003386245),
                (0.14557, (0.419, 1.0), 0.0004594257)),
    "interval": (0.84911, (0.12905, (0.565, 1.0), 3.972199e-05),
                 (0.12913, (0.561, 1.0), 6.267448e-05)),
}


def _t_interval_and_p(estimate, se, df):
    t = stats.t.ppf(0.975, df)
    return (estimate - t * se, min(1.0, estimate + t * se)), 2 * stats.t.sf(estimate / se, df)


@pytest.mark.parametrize("level", ["nominal", "interval"])
def test_irrcac_krippen_alpha_raw(level):
    estimate, (se, interval, pvalue), _ = RAW_ALPHA[level]
    res = irr.Agreement.from_frame(RAW).krippendorff_alpha(level, ci="wald", distribution="t")
    assert res.estimate == pytest.approx(estimate, abs=5e-6)
    assert res.se == pytest.approx(se, abs=5e-6)
    # irrCAC's p-value (7 digits) is of the unrounded SE: it pins the SE further
    ci, p = _t_interval_and_p(res.estimate, res.se, 11)
    assert ci == pytest.approx(interval, abs=5e-4)
    assert p == pytest.approx(pvalue, rel=1e-6)
    assert res.design_df == 10  # the pairable units
    assert res.pvalue == pytest.approx(_t_interval_and_p(res.estimate, res.se, 10)[1])
    assert "t(10)" in res.report(test=True)


@pytest.mark.parametrize("level", ["nominal", "interval"])
def test_irrcac_1_0_krippen_alpha_raw(level):
    from irr.coefficients.krippendorff import distance_matrix
    from tests.reference.alpha_gwet_variance_reference import gwet_alpha

    estimate, _, (se, interval, pvalue) = RAW_ALPHA[level]
    counts = np.stack([(RAW.to_numpy() == c).sum(axis=1) for c in range(1, 6)], axis=1)
    alpha, se_10 = gwet_alpha(counts, distance_matrix(level, 5, np.arange(1.0, 6.0)),
                              adjust="pa")
    assert alpha == pytest.approx(estimate, abs=5e-6)
    assert se_10 == pytest.approx(se, abs=5e-6)
    ci, p = _t_interval_and_p(alpha, se_10, 10)
    assert ci == pytest.approx(interval, abs=5e-4)
    assert p == pytest.approx(pvalue, rel=1e-6)
    # the 1.0 SE differs from ours by 0.07%, so our interval ends agree to 1e-3
    res = irr.Agreement.from_frame(RAW).krippendorff_alpha(level, ci="wald", distribution="t")
    assert res.ci.low == pytest.approx(interval[0], abs=1e-3)


# irrCAC README / overview and weighting vignettes (2019-2021, unchanged across versions):
# krippen.alpha.dist(distrib.6raters): 0.4204384, SE 0.08243228, (0.244,0.597),
# p 0.0001615721; with quadratic.weights(1:5): 0.259511, SE 0.133958, (-0.028,0.547),
# p 0.07315748. fleiss.kappa.dist: SE 0.08119291 and, quadratic, 0.1457381.
ALPHA_DIST = {"nominal": (0.4204384, 0.08243228, (0.244, 0.597), 0.0001615721, 5e-9),
              "interval": (0.259511, 0.133958, (-0.028, 0.547), 0.07315748, 5e-7)}
FLEISS_DIST_SE = {"nominal": (0.08119291, 5e-9), "interval": (0.1457381, 5e-8)}


@pytest.mark.parametrize("level", ["nominal", "interval"])
def test_irrcac_krippen_alpha_dist(level):
    # every unit has 6 ratings: alpha before its small-sample factor is Fleiss' kappa,
    # so our SE is irrCAC's printed Fleiss SE. irrCAC's krippen.alpha.dist linearises
    # alpha itself ((1 - eps) on the units' agreement) and counts the chance term once,
    # (1 - alpha)(e_i - p_e), where the delta method on p_e = pi' W pi (quadratic in pi)
    # and its own krippen.alpha.raw count it twice: its printed SEs are reproduced by
    # that formula, ours is 1.5% smaller (nominal) and 8.8% larger (quadratic)
    from irr.coefficients.krippendorff import distance_matrix
    from tests.reference.alpha_gwet_variance_reference import gwet_alpha

    estimate, se, interval, pvalue, tol = ALPHA_DIST[level]
    res = irr.Agreement.from_counts(DISTRIB_6RATERS, categories=[1, 2, 3, 4, 5]) \
        .krippendorff_alpha(level, ci="wald", distribution="t")
    assert res.estimate == pytest.approx(estimate, abs=5e-7)
    assert res.se == pytest.approx(FLEISS_DIST_SE[level][0], abs=FLEISS_DIST_SE[level][1])
    counts = np.array(DISTRIB_6RATERS)
    delta = distance_matrix(level, 5, np.arange(1.0, 6.0))
    alpha, se_dist = gwet_alpha(counts, delta, corrected=True, chance_factor=1)
    assert alpha == pytest.approx(estimate, abs=5e-7)
    assert se_dist == pytest.approx(se, abs=tol)
    ci, p = _t_interval_and_p(alpha, se_dist, 14)
    assert ci == pytest.approx(interval, abs=5e-4)
    assert p == pytest.approx(pvalue, rel=1e-5)


def _random_ratings(seed, n=40, m=5, k=4):
    rng = np.random.default_rng(seed)
    truth = rng.integers(1, k + 1, n)
    noise = rng.integers(-1, 2, (n, m)) * (rng.random((n, m)) < 0.35)
    x = np.clip(truth[:, None] + noise, 1, k).astype(float)
    x[rng.random((n, m)) < 0.2] = np.nan
    return pd.DataFrame(x, columns=[f"r{j}" for j in range(m)])


@pytest.mark.parametrize("seed", [0, 1, 2])
@pytest.mark.parametrize("level", ["nominal", "interval", "ratio", "custom"])
def test_alpha_se_equals_independent_gwet_implementation(seed, level):
    from irr.coefficients.krippendorff import distance_matrix
    from tests.reference.alpha_gwet_variance_reference import gwet_alpha

    frame = _random_ratings(seed)
    ag = irr.Agreement.from_frame(frame, categories=[1.0, 2.0, 3.0, 4.0])
    scores = np.array([1.0, 2.0, 3.0, 4.0])
    if level == "custom":
        delta = np.abs(scores[:, None] - scores[None, :]) ** 1.5
        res = ag.krippendorff_alpha(delta, ci=None)
    else:
        delta = distance_matrix(level, 4, scores)
        res = ag.krippendorff_alpha(level, ci=None)
    counts = np.stack([(frame.to_numpy() == c).sum(axis=1) for c in scores], axis=1)
    alpha, se = gwet_alpha(counts, delta)
    assert res.estimate == pytest.approx(alpha, rel=1e-12)
    assert res.se == pytest.approx(se, rel=1e-10)


def test_alpha_se_near_the_bootstrap_se():
    # two estimates of one sampling SD (diagnoses: 30 units, 6 raters)
    res = irr.Agreement.from_frame(irr.datasets.load("diagnoses")).krippendorff_alpha(
        n_resamples=2000)
    assert res.se == pytest.approx(res.bootstrap.se, rel=0.1)
    assert res.ci.method == "percentile"  # the bootstrap stays the default interval


def test_alpha_test_and_population():
    ag = irr.Agreement.from_frame(RAW)
    res = ag.krippendorff_alpha(ci=None)
    assert res.statistic == pytest.approx(res.estimate / res.se)
    assert res.statistic_name == "z"
    greater = ag.krippendorff_alpha(ci=None, alternative="greater")
    assert greater.pvalue == pytest.approx(res.pvalue / 2)
    fpc = ag.krippendorff_alpha(ci=None, population=22)
    assert fpc.se == pytest.approx(res.se * math.sqrt(1 - 11 / 22))


# -- rater sampling: jackknife over raters and the unconditional SE (item 3) -------------
# No published output of kappaetc's se(conditional subjects) / se(unconditional) or of
# Gwet's (2008) worked examples was found to compare with; these check the definitions
# (Gwet 2008, Psychometrika 73:407-430; Gwet 2014, ch. 5; Klein 2018, kappaetc) against
# an independent computation through the public API: the coefficient of the data without
# each rater, v_r = (m - 1)/m sum_g (k_(g) - mean)^2, v = v_subjects + v_r.

METHODS = ["gwet_ac", "fleiss_kappa", "conger_kappa", "brennan_prediger", "light_kappa",
           "percent_agreement"]


@pytest.mark.parametrize("method", METHODS)
@pytest.mark.parametrize("data", ["cac_raw4raters", "diagnoses"])
def test_jackknife_over_raters_by_dropping_columns(method, data):
    frame = irr.datasets.load(data)
    ag = irr.Agreement.from_frame(frame)
    categories = list(ag.categories)
    m = frame.shape[1]
    loo = np.array([
        getattr(irr.Agreement.from_frame(frame.drop(columns=c), categories=categories),
                method)().estimate
        for c in frame.columns])
    var_r = (m - 1) / m * np.sum((loo - loo.mean()) ** 2)
    subjects = getattr(ag, method)()
    raters = getattr(ag, method)(sampling="raters")
    both = getattr(ag, method)(sampling="both")
    assert raters.se == pytest.approx(math.sqrt(var_r), rel=1e-10)
    assert both.se == pytest.approx(math.sqrt(subjects.se ** 2 + var_r), rel=1e-10)
    assert both.estimate == subjects.estimate
    assert both.sampling == "both"
    assert "unconditional SE" in both.report()
    assert any(n.startswith("SE: unconditional") for n in both.notes)
    assert not any(n.startswith("SE: Gwet") for n in both.notes)
    assert "jackknife" in raters.conf_int(0.9).note


def test_unconditional_se_test_uses_it():
    ag = irr.Agreement.from_frame(irr.datasets.load("diagnoses"))
    both = ag.fleiss_kappa(sampling="both")
    assert both.statistic == pytest.approx(both.estimate / both.se)  # not the FNL null SE
    assert both.se0 == ag.fleiss_kappa().se0


@pytest.mark.parametrize(("make", "match"), [
    (lambda: irr.Agreement([1, 2, 3, 1], [1, 2, 2, 1]).gwet_ac(sampling="raters"),
     "needs at least three raters"),
    (lambda: irr.Agreement.from_counts([[2, 1], [0, 3], [3, 0]]).fleiss_kappa(sampling="both"),
     "rater"),
    (lambda: irr.Agreement([1, 2, 3, 1], [1, 2, 2, 1]).percent_agreement(sampling="raters"),
     "pairwise percent agreement of three or more raters"),
    (lambda: irr.Agreement([1, 2, 3, 1], [1, 2, 2, 1]).gwet_ac(sampling="rater"),
     "`sampling` must be one of 'subjects', 'raters', 'both'; got 'rater'"),
    (lambda: irr.Agreement.from_frame(RAW).krippendorff_alpha(sampling="both"),
     "resamples subjects only; use ci='wald'"),
    (lambda: irr.Agreement.from_frame(RAW).fleiss_kappa(sampling="raters", ci="bca"),
     "resamples subjects only; use ci='wald'"),
])
def test_sampling_errors(make, match):
    with pytest.raises(ValueError, match=match):
        make()


# -- listwise deletion (item 4) -----------------------------------------------------------
# R irr's kappam.fleiss and kappam.light drop every subject with a missing rating
# (na.omit); missing="listwise" does the same. No R irr output on data with missing
# ratings is printed in its manual, so the check is the definition (the coefficient of the
# complete rows, computed from a frame without them) and, for Fleiss' kappa, statsmodels'
# independent fleiss_kappa on those rows.


@pytest.mark.parametrize("method", METHODS)
def test_listwise_equals_the_complete_rows(method):
    frame = irr.datasets.load("cac_raw4raters")
    ag = irr.Agreement.from_frame(frame)
    complete = irr.Agreement.from_frame(frame.dropna(), categories=list(ag.categories))
    listwise = getattr(ag, method)(missing="listwise")
    expected = getattr(complete, method)()
    assert listwise.estimate == pytest.approx(expected.estimate, rel=1e-12)
    assert listwise.se == pytest.approx(expected.se, rel=1e-12)
    assert listwise.n_subjects == 8
    assert listwise.n_missing == 4
    assert any(n.startswith("Listwise deletion") for n in listwise.notes)
    assert "4 left out" in listwise.report()
    available = getattr(ag, method)()
    assert available.estimate != listwise.estimate  # the default keeps every rating


def test_listwise_fleiss_against_statsmodels():
    from statsmodels.stats.inter_rater import aggregate_raters, fleiss_kappa

    frame = irr.datasets.load("cac_raw4raters")
    rows = frame.dropna().to_numpy().astype(int)
    table, _ = aggregate_raters(rows, n_cat=6)
    res = irr.Agreement.from_frame(frame).fleiss_kappa(missing="listwise")
    assert res.estimate == pytest.approx(fleiss_kappa(table[:, 1:]), rel=1e-12)


def test_listwise_bootstrap_resamples_complete_subjects_only():
    frame = irr.datasets.load("cac_raw4raters")
    ag = irr.Agreement.from_frame(frame)
    res = ag.gwet_ac(missing="listwise", ci="percentile", n_resamples=500)
    reps = res.bootstrap.replicates
    assert np.isfinite(reps).all()
    assert res.ci.low <= res.estimate <= res.ci.high
    # the same draws as the complete rows alone give (the incomplete patterns get zero
    # multiplicity in the plan, so they are never drawn)
    complete = irr.Agreement.from_frame(frame.dropna(), categories=list(ag.categories))
    alone = complete.gwet_ac(ci="percentile", n_resamples=500)
    assert np.array_equal(np.sort(reps), np.sort(alone.bootstrap.replicates))
    assert (res.ci.low, res.ci.high) == (alone.ci.low, alone.ci.high)


def test_missing_validated():
    ag = irr.Agreement.from_frame(RAW)
    with pytest.raises(ValueError, match="`missing` must be one of 'available', 'listwise'"):
        ag.fleiss_kappa(missing="complete")


@pytest.mark.parametrize("level", ["nominal", "interval", "ratio"])
def test_alpha_jackknife_over_raters_by_dropping_columns(level):
    frame = irr.datasets.load("cac_raw4raters")
    ag = irr.Agreement.from_frame(frame)
    loo = np.array([
        irr.Agreement.from_frame(frame.drop(columns=c), categories=list(ag.categories))
        .krippendorff_alpha(level, ci=None).estimate for c in frame.columns])
    var_r = 3 / 4 * np.sum((loo - loo.mean()) ** 2)
    subjects = ag.krippendorff_alpha(level, ci="wald")
    both = ag.krippendorff_alpha(level, ci="wald", sampling="both")
    assert ag.krippendorff_alpha(level, ci="wald", sampling="raters").se == pytest.approx(
        math.sqrt(var_r), rel=1e-10)
    assert both.se == pytest.approx(math.sqrt(subjects.se ** 2 + var_r), rel=1e-10)
    assert "unconditional SE" in both.report()


# -- Stata kappaetc (Klein 2018) ------------------------------------------------------------
# kappaetc's default output (t on n - 1 df, SEs conditional on the raters) for Stata's
# example data sets, as printed (four decimals) in the documentation of a third-party R
# port that compares itself to Stata ("Compare to Stata: . webuse rate2 / . kappaetc rada
# radb" and ". webuse rvary2 / . kappaetc rater1-rater5"). rate2 is Altman (1991, p. 403):
# two radiologists, 85 xeromammograms, 4 categories; rvary2 has 10 subjects, 5 raters,
# 3 categories, 3 to 5 ratings per subject. kappaetc's "Cohen/Conger's Kappa" is our
# conger_kappa (Gwet's linearised SE; our two-rater kappa() has the Fleiss-Cohen-Everitt
# SE), "Scott/Fleiss' Pi" our fleiss_kappa.

RVARY2 = pd.DataFrame(
    [[1, 2, 2, np.nan, 2], [1, 1, 3, 3, 3], [3, 3, 3, 3, 3], [1, 1, 1, 1, 3],
     [1, 1, 1, 3, 3], [1, 2, 2, 2, 2], [1, 1, 1, 1, 1], [2, 2, 2, 2, 3],
     [1, 3, np.nan, np.nan, 3], [1, 1, 1, 3, 3]],
    columns=[f"rater{i}" for i in range(1, 6)])
RATE2 = [[21, 12, 0, 0], [4, 17, 1, 0], [3, 9, 15, 2], [0, 0, 0, 1]]

# method, coefficient, SE, t, p, interval (kappaetc, four decimals; p three)
KAPPAETC_RVARY2 = [
    ("percent_agreement", 0.5833, 0.0759, None, None, (0.4117, 0.7550)),
    ("brennan_prediger", 0.3750, 0.1138, 3.29, 0.009, (0.1175, 0.6325)),
    ("conger_kappa", 0.3854, 0.1047, 3.68, 0.005, (0.1485, 0.6224)),
    ("fleiss_kappa", 0.3586, 0.1207, 2.97, 0.016, (0.0856, 0.6316)),
    ("gwet_ac", 0.3829, 0.1145, 3.34, 0.009, (0.1238, 0.6420)),
]
KAPPAETC_RATE2 = [
    ("brennan_prediger", 0.5137, 0.0700, 7.34, (0.3745, 0.6530)),
    ("conger_kappa", 0.4728, 0.0731, 6.46, (0.3273, 0.6182)),
    ("fleiss_kappa", 0.4605, 0.0781, 5.89, (0.3051, 0.6159)),
    ("gwet_ac", 0.5292, 0.0679, 7.80, (0.3942, 0.6642)),
]


@pytest.mark.parametrize(("method", "coef", "se", "t", "p", "interval"), KAPPAETC_RVARY2)
def test_kappaetc_rvary2(method, coef, se, t, p, interval):
    res = getattr(irr.Agreement.from_frame(RVARY2), method)(distribution="t")
    assert res.estimate == pytest.approx(coef, abs=5e-5)
    assert res.se == pytest.approx(se, abs=5e-5)
    assert res.ci.low == pytest.approx(interval[0], abs=5e-5)
    assert res.ci.high == pytest.approx(interval[1], abs=5e-5)
    if t is not None:  # kappaetc tests percent agreement = 0 too; we do not
        assert res.statistic == pytest.approx(t, abs=5e-3)
        assert res.pvalue == pytest.approx(p, abs=5e-4)


@pytest.mark.parametrize(("method", "coef", "se", "t", "interval"), KAPPAETC_RATE2)
def test_kappaetc_rate2(method, coef, se, t, interval):
    res = getattr(irr.Agreement.from_table(RATE2), method)(distribution="t")
    assert res.estimate == pytest.approx(coef, abs=5e-5)
    assert res.se == pytest.approx(se, abs=5e-5)
    assert res.statistic == pytest.approx(t, abs=5e-3)
    assert res.ci.low == pytest.approx(interval[0], abs=5e-5)
    assert res.ci.high == pytest.approx(interval[1], abs=5e-5)
    assert res.design_df == 84


def test_kappaetc_rate2_alpha_and_percent_agreement():
    ag = irr.Agreement.from_table(RATE2)
    # Krippendorff's alpha 0.4637, SE 0.0781, t 5.93, [0.3083, 0.6191]
    alpha = ag.krippendorff_alpha(ci="wald", distribution="t")
    assert alpha.estimate == pytest.approx(0.4637, abs=5e-5)
    assert alpha.se == pytest.approx(0.0781, abs=5e-5)
    assert alpha.statistic == pytest.approx(5.93, abs=5e-3)
    assert (alpha.ci.low, alpha.ci.high) == pytest.approx((0.3083, 0.6191), abs=5e-5)
    # percent agreement 0.6353, SE 0.0525 = Gwet's divisor n - 1; our two-rater share of
    # subjects has the binomial SE sqrt(p(1 - p)/n), smaller by sqrt((n - 1)/n)
    pa = ag.percent_agreement(distribution="t", ci="wald")
    assert pa.estimate == pytest.approx(0.6353, abs=5e-5)
    assert pa.se * math.sqrt(85 / 84) == pytest.approx(0.0525, abs=5e-5)


def test_kappaetc_rvary2_alpha():
    # Krippendorff's alpha 0.3897, SE 0.1226, t 3.18, p 0.011, [0.1122, 0.6671] on 9 df
    # (the 10 pairable units)
    alpha = irr.Agreement.from_frame(RVARY2).krippendorff_alpha(ci="wald", distribution="t")
    assert alpha.estimate == pytest.approx(0.3897, abs=5e-5)
    assert alpha.se == pytest.approx(0.1226, abs=5e-5)
    assert alpha.statistic == pytest.approx(3.18, abs=5e-3)
    assert alpha.design_df == 9
    assert alpha.pvalue == pytest.approx(0.011, abs=5e-4)
    assert (alpha.ci.low, alpha.ci.high) == pytest.approx((0.1122, 0.6671), abs=5e-5)
