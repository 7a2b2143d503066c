"""Inter- and intra-rater reliability (Agreement.inter_intra_reliability; Eliasziw, Young,
Woodbury & Fryday-Field, 1994) against published values and independent computations.

Sources:

- Data: the goniometer measurements of Eliasziw et al. (1994, Physical Therapy 74(8),
  Table 4): 29 subjects, 2 raters, 3 measurements each, as printed in R irr 0.84.1's
  manual (``relInterIntra`` example, ``table4``: columns rater 1 measurements 1-3, then
  rater 2 measurements 1-3).
- Values: R irr 0.84.1 ``relInterIntra(table4, nrater = 2)`` output to 4 decimals,
  secondary: as recorded in the test suite of pyirr (github.com/sophiedkk/pyirr,
  tests/test_rel_inter_intra.py), whose functions mirror R irr's. The paper's own Table 5
  could not be consulted. We reproduce every estimate and standard error of measurement;
  the F statistics and one-sided bounds differ by design (see
  ``irr.estimators.inter_intra.inter_intra_reliability``, Notes) and are checked here
  against formulas written out by hand and, in the slow tests, by simulation.
- Independent implementation: the package's ``icc_components`` (Henderson's method III,
  another code path), whose two-way agreement and consistency ICCs with replicates are
  the inter-rater reliabilities with raters random and fixed.
"""

import math

import numpy as np
import pandas as pd
import pytest
from scipy.stats import f as f_dist

import irr
from irr.estimators.inter_intra import ratio_f_test, ratio_interval

#: Eliasziw et al. (1994) Table 4, one list per column (29 subjects).
TABLE4 = np.array([
    [-2, 16, 5, 11, 7, -7, 18, 4, 0, 0, -3, 3, 7, -6, 1, -13, 2, 4, -10, 8, 7, -3, -5, 5, 0,
     7, -8, 1, -3],
    [0, 16, 6, 10, 8, -8, 19, 5, -3, 0, -2, -1, 9, -7, 1, -14, 1, 4, -9, 9, 6, -2, -5, 5, -1,
     6, -8, 1, -3],
    [1, 15, 6, 10, 6, -8, 19, 5, -2, -2, -2, 1, 9, -6, 0, -14, 0, 3, -10, 8, 7, -4, -7, 5,
     -1, 6, -8, 2, -3],
    [2, 12, 4, 9, 5, -9, 17, 5, -7, 1, -4, -1, 4, -8, -2, -12, -1, 7, -10, 2, 8, -5, -6, 3,
     -4, 4, -10, 1, -5],
    [1, 14, 4, 7, 6, -10, 17, 5, -6, 2, -3, -2, 4, -10, -2, -12, 0, 6, -11, 8, 7, -5, -8, 4,
     -3, 4, -11, -1, -4],
    [1, 13, 4, 8, 6, -9, 17, 5, -5, 1, -3, 1, 2, -9, -3, -12, 0, 4, -10, 8, 7, -5, -7, 4, -4,
     4, -10, 0, -5],
], dtype=float).T


def _long(table=TABLE4, raters=2):
    n, columns = table.shape
    m = columns // raters
    return pd.DataFrame({
        "subject": np.repeat(np.arange(1, n + 1), columns),
        "rater": np.tile(np.repeat([f"rater{j + 1}" for j in range(raters)], m), n),
        "trial": np.tile(np.arange(1, m + 1), n * raters),
        "angle": table.reshape(-1),
    })


def _agreement(long):
    return irr.Agreement.from_long(long, subject="subject", rater="rater", rating="angle",
                                   replicate="trial", continuous=True)


@pytest.fixture(scope="module")
def result():
    return _agreement(_long()).inter_intra_reliability(rho0_inter=0.6, rho0_intra=0.8)


# R irr relInterIntra(table4, nrater = 2): (row, rhohat, SEM), 4 decimals
R_IRR = [
    ("Inter-rater reliability (raters fixed)", 0.9613, 1.4392),
    ("Inter-rater reliability (raters random)", 0.9451, 1.7282),
    ("Intra-rater reliability (raters fixed)", 0.9840, 0.9254),
    ("Intra-rater reliability (raters random)", 0.9842, 0.9254),
    ("Intra-rater reliability (rater1)", 0.9862, 0.8577),
    ("Intra-rater reliability (rater2)", 0.9818, 0.9884),
    ("Intra-rater reliability (rater1, raters random)", 0.9864, 0.8577),
    ("Intra-rater reliability (rater2, raters random)", 0.9821, 0.9884),
]


@pytest.mark.parametrize(("row", "rho", "sem"), R_IRR, ids=[r[0] for r in R_IRR])
def test_estimates_and_sem_match_r_irr(result, row, rho, sem):
    part = result[row]
    assert round(part.estimate, 4) == pytest.approx(rho, abs=1e-12)
    assert round(part.sem, 4) == pytest.approx(sem, abs=1e-12)


def test_headline_is_inter_rater_random(result):
    assert result.estimate == result["Inter-rater reliability (raters random)"].estimate
    assert result.n_subjects == 29
    assert result.n_replicates == 3
    assert result.raters == ("rater1", "rater2")


def _mean_squares(table=TABLE4, raters=2):
    """The ANOVA written out on the (n, t, m) array: an implementation apart from the
    estimator's cell sums."""
    y = table.reshape(table.shape[0], raters, -1)
    n, t, m = y.shape
    g = y.mean()
    cell = y.mean(axis=2)
    ms_s = t * m * ((y.mean(axis=(1, 2)) - g) ** 2).sum() / (n - 1)
    ms_r = n * m * ((y.mean(axis=(0, 2)) - g) ** 2).sum() / (t - 1)
    inter = cell - y.mean(axis=(1, 2))[:, None] - y.mean(axis=(0, 2))[None, :] + g
    ms_sr = m * (inter ** 2).sum() / ((n - 1) * (t - 1))
    ms_ej = ((y - cell[..., None]) ** 2).sum(axis=(0, 2)) / (n * (m - 1))
    return n, t, m, ms_s, ms_r, ms_sr, ms_ej


def test_variance_components_match_icc_components(result):
    ag = _agreement(_long())
    agreement = ag.icc_components("twoway", "agreement")
    consistency = ag.icc_components("twoway", "consistency")
    for name in ("sigma2_subjects", "sigma2_raters", "sigma2_interaction", "sigma2_error"):
        assert getattr(result, name) == pytest.approx(getattr(agreement, name), rel=1e-10)
    assert result.estimate == pytest.approx(agreement.estimate, rel=1e-10)
    assert result["Inter-rater reliability (raters fixed)"].estimate == pytest.approx(
        consistency.estimate, rel=1e-10)


def test_anova_table_by_hand(result):
    _, _, _, ms_s, ms_r, ms_sr, ms_ej = _mean_squares()
    assert result.anova["mean_square"].tolist() == pytest.approx(
        [ms_s, ms_r, ms_sr, ms_ej.mean()], rel=1e-12)
    assert result.anova["df"].tolist() == [28, 1, 28, 116]
    assert result.sigma2_error_by_rater == pytest.approx(tuple(ms_ej), rel=1e-12)


def test_f_tests_by_hand(result):
    n, t, m, ms_s, _, ms_sr, ms_ej = _mean_squares()
    ms_e = ms_ej.mean()
    # raters fixed, inter: rho > rho0 iff (1 - rho0) MS_S > (1 + (t - 1) rho0) MS_SR
    # + rho0 t (m - 1) MS_E; the numerator is one mean square (exact), the denominator
    # Satterthwaite's
    r0 = 0.6
    a, b = (1 + (t - 1) * r0) / (1 - r0), r0 * t * (m - 1) / (1 - r0)
    denominator = a * ms_sr + b * ms_e
    df2 = denominator ** 2 / ((a * ms_sr) ** 2 / ((n - 1) * (t - 1))
                              + (b * ms_e) ** 2 / (n * t * (m - 1)))
    part = result["Inter-rater reliability (raters fixed)"]
    assert part.statistic == pytest.approx(ms_s / denominator, rel=1e-12)
    assert (part.df1, part.df2) == pytest.approx((n - 1, df2), rel=1e-12)
    assert part.pvalue == pytest.approx(f_dist.sf(ms_s / denominator, n - 1, df2), rel=1e-9)
    # raters fixed, intra: MS_B = (MS_S + (t - 1) MS_SR) / t against
    # (1 + m rho0 / (1 - rho0)) MS_E, the numerator's df Satterthwaite's
    r0 = 0.8
    ms_b = (ms_s + (t - 1) * ms_sr) / t
    df1 = ms_b ** 2 / ((ms_s / t) ** 2 / (n - 1) + ((t - 1) * ms_sr / t) ** 2
                       / ((n - 1) * (t - 1)))
    part = result["Intra-rater reliability (raters fixed)"]
    assert part.statistic == pytest.approx(ms_b / ((1 + m * r0 / (1 - r0)) * ms_e), rel=1e-12)
    assert (part.df1, part.df2) == pytest.approx((df1, n * t * (m - 1)), rel=1e-12)


def test_interval_inverts_the_test(result):
    for part in result.parts():
        low, high = part.ci
        assert low < part.estimate < high
        # at the lower limit the one-sided test of rho0 = low has p = 0.025
        at_low = _agreement(_long()).inter_intra_reliability(rho0_inter=low, rho0_intra=low)
        assert at_low[part.coefficient].pvalue == pytest.approx(0.025, abs=1e-6)


def test_exact_case_equals_the_one_way_interval():
    # MS_b / MS_w over a single mean square each: the exact one-way ICC interval
    low, high = ratio_interval([10.0, 1.0], [9, 10], [1, -1], [1, 1], 0.90)
    f_low, f_high = 10 / f_dist.isf(0.05, 9, 10), 10 / f_dist.ppf(0.05, 9, 10)
    assert low == pytest.approx((f_low - 1) / (f_low + 1), abs=1e-9)
    assert high == pytest.approx((f_high - 1) / (f_high + 1), abs=1e-9)


def _simulate(rng, n, t, m, s2=(4.0, 0.5, 0.5, 1.0)):
    s2s, s2r, s2sr, s2e = s2
    y = (rng.normal(0, math.sqrt(s2s), (n, 1, 1)) + rng.normal(0, math.sqrt(s2r), (1, t, 1))
         + rng.normal(0, math.sqrt(s2sr), (n, t, 1)) + rng.normal(0, math.sqrt(s2e), (n, t, m)))
    return y.reshape(n, t * m)


@pytest.mark.slow
def test_interval_coverage_and_test_size():
    """Coverage of the 90% intervals and size of the 5% tests at the true values, over
    1,000 simulated studies of 30 subjects x 3 raters x 2 replicates (raters drawn anew
    for each study: the raters-random reliabilities are the targets). Observed (seed 20):
    coverage 0.895, 0.919, 0.912, 0.918, 0.903 and size 0.067, 0.040, 0.044, 0.040, 0.044
    (inter random, intra random, inter fixed, intra fixed, rater 1): the raters-random
    inter-rater test, whose denominator holds the raters' mean square on t - 1 = 2 df,
    is slightly liberal."""
    rng = np.random.default_rng(20)
    s2 = (4.0, 0.5, 0.5, 1.0)
    truth = {"Inter-rater reliability (raters random)": 4.0 / 6.0,
             "Intra-rater reliability (raters random)": 5.0 / 6.0}
    # raters fixed: with rater effects fixed, the fixed-rater targets
    truth_fixed = {"Inter-rater reliability (raters fixed)": 4.0 / 5.5,
                   "Intra-rater reliability (raters fixed)": 4.5 / 5.5,
                   "Intra-rater reliability (rater1)": 4.5 / 5.5}
    hits = dict.fromkeys([*truth, *truth_fixed], 0)
    rejections = dict.fromkeys(hits, 0)
    reps = 1000
    for _ in range(reps):
        table = _simulate(rng, 30, 3, 2, s2)
        res = _agreement(_long(table, 3)).inter_intra_reliability(confidence_level=0.90)
        for name, value in {**truth, **truth_fixed}.items():
            part = res[name]
            hits[name] += part.ci.low <= value <= part.ci.high
            tested = ratio_f_test(
                part.mean_squares, part.dfs, part.numerator, part.denominator, value)
            rejections[name] += tested[3] < 0.05
    for name in hits:
        assert 0.87 <= hits[name] / reps <= 0.93, (name, hits[name] / reps)
        assert 0.03 <= rejections[name] / reps <= 0.07, (name, rejections[name] / reps)


def test_components_equal_statsmodels_mixedlm_reml():
    """statsmodels MixedLM (REML, subjects, raters and subject x rater cells as crossed
    variance components): on balanced data with every ANOVA component positive, REML
    equals the ANOVA estimators."""
    import warnings

    import statsmodels.api as sm

    long = _long().assign(cell=lambda d: d["subject"].astype(str) + d["rater"], g=1)
    model = sm.MixedLM.from_formula(
        "angle ~ 1", groups="g", re_formula="0", data=long,
        vc_formula={"s": "0 + C(subject)", "r": "0 + C(rater)", "sr": "0 + C(cell)"})
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # MixedLM's convergence chatter
        fit = model.fit(reml=True, method="bfgs", gtol=1e-10, maxiter=5000)
    vc = dict(zip(model.exog_vc.names, fit.vcomp, strict=True))
    res = _agreement(long).inter_intra_reliability()
    assert res.sigma2_subjects == pytest.approx(vc["s"], rel=1e-4)
    assert res.sigma2_raters == pytest.approx(vc["r"], rel=1e-3)
    assert res.sigma2_interaction == pytest.approx(vc["sr"], rel=1e-4)
    assert res.sigma2_error == pytest.approx(fit.scale, rel=1e-4)
