"""ICC by variance components and measurement error (issue #18, "Reliability of a
measurement"): published values, irr's ICC on complete data, brute-force Henderson III,
statsmodels MixedLM REML, timing, and a coverage simulation (slow)."""

import math
import warnings

import numpy as np
import pandas as pd
import pytest

import irr
from irr import icc_components, measurement_error
from irr._measurements import Measurements
from irr._validation import DegenerateDataWarning
from irr.coefficients.icc import FORMS
from irr.coefficients.variance_components import henderson, moment_sums
from irr.estimators.icc import icc_from_values
from irr.estimators.measurement_error import chi2_sd_interval
from irr.estimators.variance_components import variance_components
from tests.reference.henderson3_reference import henderson3

# Shrout & Fleiss (1979), Table 2: 6 targets x 4 judges
SHROUT_FLEISS = np.array([[9, 2, 5, 8], [6, 1, 3, 2], [8, 4, 6, 8],
                          [7, 1, 2, 6], [10, 5, 6, 9], [6, 2, 4, 7]], dtype=float)

# Bland & Altman (1986) PEFR data, Wright meter, first and second readings (17 subjects)
WRIGHT_1 = [494, 395, 516, 434, 476, 557, 413, 442, 650, 433, 417, 656, 267, 478, 178, 423, 427]
WRIGHT_2 = [490, 397, 512, 401, 470, 611, 415, 431, 638, 429, 420, 633, 275, 492, 165, 372, 421]


def _unbalanced(seed=1, n=30, k=4, reps=1, missing=0.2):
    rng = np.random.default_rng(seed)
    s = np.repeat(np.arange(n), k * reps)
    r = np.tile(np.repeat(np.arange(k), reps), n)
    y = (120 + 8 * rng.normal(size=n)[s] + 3 * rng.normal(size=k)[r]
         + (2 * rng.normal(size=(n, k))[s, r] if reps > 1 else 0)
         + 2.5 * rng.normal(size=s.size))
    keep = rng.random(s.size) > missing
    keep[:k] = True  # every rater measures subject 0: connected
    return s[keep], r[keep], np.round(y[keep], 1)


# -- published values ------------------------------------------------------------------

@pytest.mark.parametrize(("form", "published"), [
    (("oneway", "agreement", "single"), 0.17), (("twoway", "agreement", "single"), 0.29),
    (("twoway", "consistency", "single"), 0.71), (("oneway", "agreement", "average"), 0.44),
    (("twoway", "agreement", "average"), 0.62), (("twoway", "consistency", "average"), 0.91),
])
def test_shrout_fleiss_table_4(form, published):
    # Shrout & Fleiss (1979), Psychological Bulletin 86(2), Table 4, p. 425
    res = icc_components(Measurements.from_wide(SHROUT_FLEISS), *form)
    assert round(res.estimate, 2) == published


@pytest.mark.parametrize("form", FORMS)
def test_balanced_equals_mcgraw_wong(form):
    # complete data: the components give irr's ICC, F test and interval to 1e-12
    rng = np.random.default_rng(5)
    x = np.round(100 + 10 * rng.normal(size=(25, 1)) + rng.normal(size=(25, 5)) * 4, 1)
    ours = icc_components(Measurements.from_wide(x), *form)
    ref = icc_from_values(x, np.ones(25, bool), tuple("abcde"), *form, 0.95)
    for a, b in [(ours.estimate, ref.estimate), (ours.statistic, ref.statistic),
                 (ours.pvalue, ref.pvalue), (ours.ci.low, ref.ci.low),
                 (ours.ci.high, ref.ci.high)]:
        assert a == pytest.approx(b, rel=1e-12, abs=1e-12)
    assert ours.ci.method == ref.ci.method
    assert (ours.df1, ours.df2) == (ref.df1, ref.df2)


def test_pefr_within_subject_sd_and_repeatability():
    # Bland (2015), An Introduction to Medical Statistics, 4th ed., §20.2: Wright meter
    # PEFR pairs, s_w = 15.3 l/min; repeatability 2.77 s_w = 42.4 l/min (Bland & Altman
    # 1996, BMJ 313:744, "Measurement error": repeatability = 1.96 * sqrt(2) * s_w)
    values = np.column_stack([WRIGHT_1, WRIGHT_2]).ravel()
    m = Measurements.from_long(np.repeat(np.arange(17), 2), ["wright"] * 34, values)
    res = measurement_error(m, units="l/min")
    s_w = res.quantity("s_w")
    assert round(s_w.estimate, 1) == 15.3
    assert round(res.quantity("repeatability").estimate, 1) == 42.4
    # independent: s_w^2 = sum(d^2) / (2n) for pairs
    d = np.subtract(WRIGHT_1, WRIGHT_2)
    assert s_w.estimate == pytest.approx(math.sqrt((d @ d) / 34), rel=1e-12)
    # chi-square interval on 17 df (scipy's chi2 quantiles, independently)
    from scipy.stats import chi2
    lo = math.sqrt(17 * s_w.estimate ** 2 / chi2.ppf(0.975, 17))
    hi = math.sqrt(17 * s_w.estimate ** 2 / chi2.ppf(0.025, 17))
    assert (s_w.ci.low, s_w.ci.high) == pytest.approx((lo, hi), rel=1e-12)
    # one rater: SEM is s_w, SDC the repeatability coefficient
    assert res.estimate == pytest.approx(s_w.estimate, rel=1e-12)
    assert res.quantity("SDC").estimate == pytest.approx(1.959964 * math.sqrt(2) * 15.306669,
                                                         rel=1e-6)
    assert "15.3 l/min" in res.report()


def test_within_subject_sd_of_each_rater_against_numpy():
    # Bland & Altman (1999), section 5: each method's s_w from the one-way ANOVA of its own
    # replicates, on n(m - 1) df; unequal replicates and a method measured once
    rng = np.random.default_rng(5)
    subject = np.repeat(np.arange(30), 7)
    rater = np.tile(np.array([0, 0, 0, 1, 1, 1, 2]), 30)
    sd = np.array([3.6, 6.1, 4.0])[rater]
    value = np.round(130 + 15 * rng.normal(size=30)[subject] + sd * rng.normal(size=210), 1)
    keep = rng.random(210) > 0.15
    keep[:7] = True
    names = np.array(["cuff", "wrist", "finger"])[rater]
    m = Measurements.from_long(subject[keep], names[keep], value[keep])
    res = measurement_error(m, units="mmHg", n_resamples=50)
    from scipy.stats import chi2, norm
    factor = norm.ppf(0.975) * math.sqrt(2)
    frame = pd.DataFrame({"s": subject[keep], "r": names[keep], "y": value[keep]})
    for name in ("cuff", "wrist"):
        cells = frame[frame["r"] == name].groupby("s")["y"]
        squares = float(cells.apply(lambda y: ((y - y.mean()) ** 2).sum()).sum())
        df = float((cells.size() - 1).sum())
        s_w = math.sqrt(squares / df)
        row = res.quantity("s_w", name)
        assert row.estimate == pytest.approx(s_w, rel=1e-12)
        assert (row.ci.low, row.ci.high) == pytest.approx(
            (s_w * math.sqrt(df / chi2.ppf(0.975, df)),
             s_w * math.sqrt(df / chi2.ppf(0.025, df))), rel=1e-10)
        assert res.quantity("repeatability", name).estimate == pytest.approx(
            factor * s_w, rel=1e-12)
        assert res.df_within_by_rater[name] == df
        assert row.n_subjects == cells.ngroups
    # the finger monitor measured each subject once: no s_w of its own, and a note says so
    assert "finger" not in res.df_within_by_rater
    with pytest.raises(ValueError, match="s_w\\[finger\\]"):
        res.quantity("s_w", "finger")
    assert any("None for finger: it measured each subject once" in n for n in res.notes)
    # pooled: labelled so, over every replicate's df
    pooled = res.quantity("s_w")
    assert pooled.coefficient == "Within-subject SD (pooled)"
    assert res.df_within == sum(res.df_within_by_rater.values())
    # every output names them: frame, summary, sentence, dict
    frame_out = res.to_frame()
    assert "Within-subject SD (wrist)" in frame_out.index
    assert "Repeatability coefficient (cuff)" in res.summary().as_text()
    text = res.report()
    wrist = res.quantity("s_w", "wrist")
    assert f"{wrist.estimate:.2f} mmHg, 95% CI [{wrist.ci.low:.2f}, {wrist.ci.high:.2f}], " \
           "for wrist" in text
    assert "(pooled " in text
    assert res.to_dict()["s_w[cuff]"] == res.quantity("s_w", "cuff").estimate
    assert res.to_dict()["df_within_by_rater"] == res.df_within_by_rater


def test_sentence_of_many_raters_gives_the_pooled_sd_and_the_raters_range():
    """Beyond three raters the sentence does not list each one (the table does): it gives
    the pooled within-subject SD and repeatability with their intervals and the smallest
    and largest of the raters' own, named."""
    rng = np.random.default_rng(8)
    k, n = 6, 25
    sd = np.array([2.0, 2.5, 3.0, 3.5, 4.0, 6.0])
    subject = np.repeat(np.arange(n), 2 * k)
    rater = np.tile(np.repeat(np.arange(k), 2), n)
    value = 50 + 10 * rng.normal(size=n)[subject] + sd[rater] * rng.normal(size=2 * k * n)
    names = np.array([f"device {j}" for j in range(k)])[rater]
    res = measurement_error(Measurements.from_long(subject, names, value), units="mmHg",
                            n_resamples=50)
    own = {name: res.quantity("s_w", name).estimate for name in res.df_within_by_rater}
    low, high = min(own, key=own.get), max(own, key=own.get)
    pooled = res.quantity("s_w")
    text = res.report()
    assert (f"the within-subject SD was {pooled.estimate:.2f} mmHg, 95% CI "
            f"[{pooled.ci.low:.2f}, {pooled.ci.high:.2f}], pooled over the 6 raters or "
            f"methods, whose own ranged from {own[low]:.2f} mmHg ({low}) to "
            f"{own[high]:.2f} mmHg ({high})") in text
    rc = res.quantity("repeatability")
    assert (f"the repeatability coefficient {rc.estimate:.2f} mmHg, 95% CI "
            f"[{rc.ci.low:.2f}, {rc.ci.high:.2f}] (chi-square), pooled over") in text
    assert sum(name in text for name in own) == 2  # only the extremes are named
    assert len(res.to_frame()) >= 2 * k  # the table keeps every rater's rows


def test_within_subject_sd_of_one_rater_is_not_repeated():
    values = np.column_stack([WRIGHT_1, WRIGHT_2]).ravel()
    m = Measurements.from_long(np.repeat(np.arange(17), 2), ["wright"] * 34, values)
    res = measurement_error(m, units="l/min")
    assert res.df_within_by_rater == {}
    assert res.quantity("s_w").coefficient == "Within-subject SD"
    assert not any(q.symbol.startswith("s_w[") for q in res.quantities)


# -- independent implementations ------------------------------------------------------

@pytest.mark.parametrize("reps", [1, 2])
def test_henderson_iii_against_dense_projections(reps):
    s, r, y = _unbalanced(seed=2, n=12, k=3, reps=reps, missing=0.25)
    m = Measurements.from_long(s, r, y)
    c = variance_components(m)
    ref = henderson3(s, r, y, interaction=reps > 1)
    ours = [c.subjects, c.raters, c.interaction, c.error]
    assert np.allclose(np.asarray(ours, float), ref, rtol=1e-9, atol=1e-9)


def test_henderson_iii_when_a_null_eigenvalue_rounds_above_pinvs_default_cutoff():
    """A design (157 x 5, 5% missing) whose rater x rater matrix has its null eigenvalue
    computed as 1.7e-13, above pinv's default cutoff (1.5e-13): the reductions are the
    differences of least-squares residual sums of squares, R(b | mu, a) = RSS(a) -
    RSS(a, b) and R(a | mu, b) = RSS(mu, b) - RSS(a, b) (Searle, Casella & McCulloch 1992,
    5.5), from the (n, k) cells and from the raters' rows alike. With the default cutoff
    R(b | mu, a) came out as 902.4 and 926.9 (the rounding of r . 1 times 1e13) for 911.4."""
    rng = np.random.default_rng(2)
    for trial in range(4):
        x = _random_wide(rng, trial)
    row, col = np.nonzero(~np.isnan(x))
    y = x[row, col]
    subjects, raters = np.eye(x.shape[0])[row], np.eye(x.shape[1])[col]

    def rss(design):
        beta = np.linalg.lstsq(design, y, rcond=None)[0]
        return float((y - design @ beta) @ (y - design @ beta))

    both = rss(np.hstack([subjects, raters]))
    want = [rss(np.hstack([np.ones((y.size, 1)), raters])) - both,
            rss(subjects) - both, both]
    for m in (Measurements.from_wide(x), _long_of(x)):
        c = variance_components(m)
        got = [float(c.ms_subjects * c.df_subjects), float(c.ms_raters * c.df_raters),
               float(c.ms_error * c.df_error)]
        np.testing.assert_allclose(got, want, rtol=1e-11)
        res = measurement_error(m)
        np.testing.assert_allclose([res.sigma2_subjects, res.sigma2_raters, res.sigma2_error],
                                   [float(c.subjects), float(c.raters), float(c.error)],
                                   rtol=1e-12)


def test_reml_against_statsmodels_mixedlm():
    # unbalanced crossed design, 20% of cells missing; statsmodels' MixedLM with the
    # single-group trick and variance components for subjects and raters, fitted to a
    # tight gradient tolerance (its default stops early and agrees only to 2e-3; see
    # tests/reference/mixedlm_reference.py)
    import pandas as pd
    import statsmodels.api as sm

    s, r, y = _unbalanced(seed=3, n=30, k=4)
    m = Measurements.from_long(s, r, y)
    res = icc_components(m, estimator="reml")
    frame = pd.DataFrame({"s": s, "r": r, "y": y, "g": 1})
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        fit = sm.MixedLM.from_formula("y ~ 1", groups="g", re_formula="0",
                                      vc_formula={"r": "0 + C(r)", "s": "0 + C(s)"},
                                      data=frame).fit(reml=True, method="bfgs",
                                                      gtol=1e-10, maxiter=2000)
    names = list(fit.model.exog_vc.names)
    vc = dict(zip(names, fit.vcomp, strict=True))
    assert res.sigma2_subjects == pytest.approx(vc["s"], rel=1e-6)
    assert res.sigma2_raters == pytest.approx(vc["r"], rel=1e-6)
    assert res.sigma2_error == pytest.approx(fit.scale, rel=1e-6)
    icc = vc["s"] / (vc["s"] + vc["r"] + fit.scale)
    assert res.estimate == pytest.approx(icc, rel=1e-6)
    assert 0 <= res.ci.low < res.estimate < res.ci.high <= 1


def test_reml_equals_anova_on_balanced_data():
    # balanced data with positive components: REML is the ANOVA estimator
    res_a = icc_components(Measurements.from_wide(SHROUT_FLEISS))
    res_r = icc_components(Measurements.from_wide(SHROUT_FLEISS), estimator="reml")
    for name in ("sigma2_subjects", "sigma2_raters", "sigma2_error"):
        assert getattr(res_r, name) == pytest.approx(getattr(res_a, name), rel=1e-5)


def test_replicates_separate_interaction_balanced_anova():
    # balanced, 2 replicates: the two-way ANOVA with interaction by hand (cell means)
    rng = np.random.default_rng(4)
    n, k, rep = 15, 3, 2
    y = (rng.normal(size=(n, 1, 1)) * 3 + rng.normal(size=(1, k, 1))
         + rng.normal(size=(n, k, 1)) + rng.normal(size=(n, k, rep)) * 0.5)
    s, r, _ = np.meshgrid(np.arange(n), np.arange(k), np.arange(rep), indexing="ij")
    m = Measurements.from_long(s.ravel(), r.ravel(), y.ravel())
    c = variance_components(m)
    cell = y.mean(axis=2)
    msw = ((y - cell[..., None]) ** 2).sum() / (n * k * (rep - 1))
    grand = y.mean()
    ms_a = rep * k * ((cell.mean(axis=1) - grand) ** 2).sum() / (n - 1)
    ms_b = rep * n * ((cell.mean(axis=0) - grand) ** 2).sum() / (k - 1)
    inter = cell - cell.mean(axis=1, keepdims=True) - cell.mean(axis=0, keepdims=True) + grand
    ms_ab = rep * (inter ** 2).sum() / ((n - 1) * (k - 1))
    assert c.error == pytest.approx(msw, rel=1e-10)
    assert c.interaction == pytest.approx((ms_ab - msw) / rep, rel=1e-10)
    assert c.subjects == pytest.approx((ms_a - ms_ab) / (rep * k), rel=1e-10)
    assert c.raters == pytest.approx((ms_b - ms_ab) / (rep * n), rel=1e-10)
    res = icc_components(m, n_resamples=200)
    assert res.ci.method == "percentile"
    assert res.ci.low < res.estimate < res.ci.high


def test_missing_cells_use_every_measurement():
    x = SHROUT_FLEISS.copy()
    x[0, 1] = np.nan
    res = icc_components(Measurements.from_wide(x))
    assert res.n_subjects == 6
    assert res.n_missing == 0
    assert res.n_cells_missing == 1
    assert res.n_measurements == 23
    assert res.ci.method == "satterthwaite"
    assert any("1 of 24 subject x rater cells empty" in note for note in res.notes)
    s, r, y = np.nonzero(~np.isnan(x))[0], np.nonzero(~np.isnan(x))[1], x[~np.isnan(x)]
    ref = henderson3(s, r, y, interaction=False)
    assert [res.sigma2_subjects, res.sigma2_raters, res.sigma2_error] == pytest.approx(
        ref[[0, 1, 3]], rel=1e-9)


def test_sem_consistency_is_root_mse_on_balanced_data():
    # de Vet et al. (2006): SEM_consistency = sqrt(sigma2_error) = sqrt(MSE);
    # SEM_agreement = sqrt(sigma2_raters + sigma2_error)
    res = measurement_error(Measurements.from_wide(SHROUT_FLEISS), "consistency")
    assert res.estimate == pytest.approx(math.sqrt(1.0194444444444444), rel=1e-12)
    agreement = measurement_error(Measurements.from_wide(SHROUT_FLEISS))
    assert agreement.estimate == pytest.approx(math.sqrt((32.486111111111 - 1.019444444444)
                                                         / 6 + 1.019444444444), rel=1e-9)
    assert agreement.ci.method == "chi2"  # on Satterthwaite's df, as the note says
    assert any("chi-square on Satterthwaite's" in note for note in agreement.notes)
    assert "s_w" not in set(agreement.to_frame()["symbol"])


def test_chi2_sd_interval_published_form():
    lo, hi = chi2_sd_interval(15.31, 17, 0.95)
    assert (round(lo, 2), round(hi, 2)) == (11.49, 22.95)


# -- use as a user would -----------------------------------------------------------------

def test_blood_pressure_round_trip():
    s, r, y = _unbalanced(seed=7, n=40, k=2, reps=2, missing=0.1)
    names = np.array(["nurse_a", "nurse_b"])[r]
    m = Measurements.from_long(np.char.add("p", s.astype(str)), names, y)
    res = irr.measurement_error(m, units="mmHg", n_resamples=300)
    frame = res.to_frame()
    assert list(frame["symbol"]) == [
        "s_w", "repeatability", "s_w[nurse_a]", "repeatability[nurse_a]", "s_w[nurse_b]",
        "repeatability[nurse_b]", "SEM", "SDC", "SEM_icc", "CV", "CV_rms"]
    assert (frame["ci_low"].dropna() < frame["estimate"][frame["ci_low"].notna()]).all()
    assert "mmHg" in res.report()
    assert "mmHg" in res.summary().as_text()
    icc = irr.icc_components(m, n_resamples=300)
    assert 0 < icc.estimate < 1
    assert icc.replicates
    assert "ICC(A,1)" in icc.report()


def test_bad_input():
    with pytest.raises(TypeError, match="`measurements` must be an irr Measurements"):
        icc_components(SHROUT_FLEISS)
    with pytest.raises(ValueError, match="estimator"):
        icc_components(Measurements.from_wide(SHROUT_FLEISS), estimator="ml")
    with pytest.raises(ValueError, match="type"):
        measurement_error(Measurements.from_wide(SHROUT_FLEISS), "absolute")
    disconnected = Measurements.from_long([0, 0, 1, 1, 2, 2], [0, 1, 0, 1, 2, 3],
                                          [1.0, 2, 3, 4, 5, 6])
    with pytest.raises(ValueError, match="not connected"):
        icc_components(disconnected)


def test_same_input_same_bytes():
    s, r, y = _unbalanced(seed=8, n=20, k=3, reps=2)
    m = Measurements.from_long(s, r, y)
    a = icc_components(m, n_resamples=200).to_frame()
    b = icc_components(m, n_resamples=200).to_frame()
    assert a.equals(b)


def test_large_design():
    # 10^5 subjects x 5 raters, 10% of cells missing (its speed: benchmarks/bench_i18_*)
    rng = np.random.default_rng(0)
    n, k = 100_000, 5
    x = 50 + 5 * rng.normal(size=(n, 1)) + rng.normal(size=(1, k)) + rng.normal(size=(n, k))
    x[rng.random((n, k)) < 0.1] = np.nan
    m = Measurements.from_wide(x)
    res = icc_components(m)
    assert res.estimate == pytest.approx(25 / 27, abs=0.05)
    assert res.ci.method == "satterthwaite"
    assert res.ci.low < res.estimate < res.ci.high


@pytest.mark.slow
def test_large_design_reml():
    rng = np.random.default_rng(0)
    n, k = 100_000, 5
    x = 50 + 5 * rng.normal(size=(n, 1)) + rng.normal(size=(1, k)) + rng.normal(size=(n, k))
    x[rng.random((n, k)) < 0.1] = np.nan
    res = icc_components(Measurements.from_wide(x), estimator="reml")
    ref = icc_components(Measurements.from_wide(x))
    assert res.estimate == pytest.approx(ref.estimate, abs=0.01)


@pytest.mark.slow
def test_within_subject_sd_interval_coverage():
    # 2000 simulated studies of 20 subjects x 3 replicates, sigma_w = 2: the chi-square
    # interval of s_w covers about 95%
    rng = np.random.default_rng(11)
    n, rep, sims = 20, 3, 2000
    hits = 0
    s = np.repeat(np.arange(n), rep)
    for _ in range(sims):
        y = 10 * rng.normal(size=n)[s] + 2 * rng.normal(size=n * rep) + 100
        q = measurement_error(Measurements.from_long(s, np.zeros(n * rep), y),
                              n_resamples=40).quantity("s_w")
        hits += q.ci.low <= 2 <= q.ci.high
    assert abs(hits / sims - 0.95) < 0.015


# -- the moment kernels against their previous forms ---------------------------------------
@pytest.mark.parametrize("seed", range(4))
def test_subject_moments_and_their_sums_match_the_previous_form(seed):
    from irr.coefficients.variance_components import moment_sums, subject_moments
    from tests.reference import previous_kernels

    rng = np.random.default_rng(seed)
    for _ in range(25):
        n, k = int(rng.integers(1, 400)), int(rng.integers(1, 7))
        counts = rng.integers(0, 4, size=(n, k)).astype(float)
        sums = rng.normal(size=(n, k)) * counts
        within = rng.random(n)
        want = previous_kernels.subject_moments(counts, sums, within)
        np.testing.assert_array_equal(subject_moments(counts, sums, within), want)
        total = want.sum(axis=0)
        np.testing.assert_allclose(moment_sums(counts, sums, within), total, rtol=1e-12,
                                   atol=1e-12 * np.abs(want).sum(axis=0).max())


@pytest.mark.parametrize("seed", range(4))
def test_cell_statistics_match_the_previous_form(seed):
    from irr.estimators.variance_components import cell_statistics
    from tests.reference import previous_kernels

    rng = np.random.default_rng(seed)
    for trial in range(20):
        n, k = int(rng.integers(2, 300)), int(rng.integers(1, 6))
        x = np.round(rng.normal(size=(n, k)), int(rng.integers(0, 3)))
        x[rng.random(x.shape) < 0.2] = np.nan
        x[0, 0] = -0.0
        if trial % 2:  # with replicates: the long form
            subject = np.repeat(np.arange(n), 2)
            m = Measurements(subject, subject % k, rng.normal(size=2 * n), tuple("abcdef"[:k]),
                             __import__("pandas").Index(range(n)))
        else:
            m = Measurements.from_wide(x)
        got = cell_statistics(m)
        want = previous_kernels.cell_statistics(m)
        for a, b in zip(got[:4], want[:4], strict=True):
            np.testing.assert_array_equal(a, b)
            assert not np.signbit(a[a == 0]).any()
        assert got[4] == want[4]


def _random_wide(rng, trial):
    """A subjects x raters matrix with missing cells, some signed zeros, some rows empty."""
    n, k = int(rng.integers(2, 300)), int(rng.integers(1, 7))
    x = rng.normal(50, 10, (n, 1)) + rng.normal(0, 3, (1, k)) + rng.normal(0, 2, (n, k))
    x = np.round(x, int(rng.integers(0, 4)))
    x[rng.random(x.shape) < (0.05, 0.3, 0.6)[trial % 3]] = np.nan
    if trial % 4 == 1:
        x[rng.random(x.shape) < 0.2] = -0.0
    x[0, 0] = 1.0
    return x


@pytest.mark.parametrize("seed", range(4))
def test_single_moment_sums_match_the_previous_form(seed):
    """The moments of one measurement per cell from the raters' rows equal the generic
    moment sums and the summed per-subject moments of the (n, k) cell statistics."""
    from irr.coefficients.variance_components import single_moment_sums
    from irr.estimators.variance_components import single_cells
    from tests.reference import previous_kernels

    rng = np.random.default_rng(seed)
    for trial in range(25):
        m = Measurements.from_wide(_random_wide(rng, trial))
        counts, sums, _, within, _ = previous_kernels.cell_statistics(m)
        want = previous_kernels.subject_moments(counts, sums, within)
        observed, values, _ = single_cells(m)
        got = single_moment_sums(observed, values)
        np.testing.assert_allclose(got, want.sum(axis=0), rtol=1e-12,
                                   atol=1e-12 * np.abs(want).sum(axis=0).max())
        np.testing.assert_allclose(got, moment_sums(counts, sums, within), rtol=1e-12,
                                   atol=1e-12 * np.abs(want).sum(axis=0).max())


@pytest.mark.parametrize("seed", range(4))
def test_single_cells_are_the_previous_cell_statistics_transposed(seed):
    from irr.estimators.variance_components import single_cells
    from tests.reference import previous_kernels

    rng = np.random.default_rng(seed)
    for trial in range(25):
        x = _random_wide(rng, trial)
        for m in (Measurements.from_wide(x), _long_of(x)):
            observed, values, centre = single_cells(m)
            counts, sums, _, _, want_centre = previous_kernels.cell_statistics(m)
            np.testing.assert_array_equal(observed, counts.T)
            np.testing.assert_array_equal(values, sums.T)
            assert not np.signbit(values[values == 0]).any()
            assert centre == want_centre  # np.median's value, by one partition
            seen, shifted, near = single_cells(m, exact_median=False)  # a sample's median
            np.testing.assert_array_equal(seen, counts.T)
            assert np.nanmin(x) <= near <= np.nanmax(x)
            np.testing.assert_allclose(np.where(seen > 0, shifted + near, 0),
                                       np.where(seen > 0, sums.T + want_centre, 0),
                                       rtol=1e-13, atol=1e-12)
            assert not np.signbit(shifted[shifted == 0]).any()


def _long_of(x):
    """The measured cells of `x` as long measurements (no replicates)."""
    row, col = np.nonzero(~np.isnan(x))
    return Measurements.from_long(row, col, x[row, col], raters=range(x.shape[1]))


@pytest.mark.parametrize("seed", range(4))
def test_measurement_error_without_replicates_matches_the_previous_form(seed):
    """Components, SEM and the SD of all measurements (now from the moments) as the
    previous (n, k) cell statistics, moment sums and np.std give them."""
    from tests.reference import previous_kernels

    rng = np.random.default_rng(seed)
    for trial in range(20):
        x = _random_wide(rng, trial)
        m = Measurements.from_wide(x)
        want = previous_kernels.measurement_error_summary(m)
        if want["n"] < 2:
            continue
        with warnings.catch_warnings():
            warnings.simplefilter("ignore", DegenerateDataWarning)
            res = measurement_error(m)
        c = want["components"]
        scale = float(np.nan_to_num(c.ms_subjects) + np.nan_to_num(c.ms_error))
        np.testing.assert_allclose([res.sigma2_subjects, res.sigma2_raters, res.sigma2_error],
                                   np.array([c.subjects, c.raters, c.error], float),
                                   rtol=1e-10, atol=1e-12 * scale, equal_nan=True)
        text = next(n for n in res.notes if n.startswith("SEM_icc"))
        sd = float(text.split("measurements ")[1].split(" x")[0])
        np.testing.assert_allclose(sd, want["sd"], rtol=1e-3)  # printed to 4 digits
        from irr.coefficients.variance_components import single_moment_sums
        from irr.estimators.measurement_error import _moment_sd
        from irr.estimators.variance_components import single_cells

        moments = single_moment_sums(*single_cells(m)[:2])
        np.testing.assert_allclose(_moment_sd(moments, m.n_raters), want["sd"], rtol=1e-12)
        assert res.n_subjects == want["n"]


@pytest.mark.parametrize("seed", range(4))
def test_connectedness_from_the_moments_matches_the_previous_form(seed):
    from irr.coefficients.variance_components import moment_layout, single_moment_sums
    from irr.estimators.variance_components import _connected, single_cells
    from tests.reference import previous_kernels

    rng = np.random.default_rng(seed)
    for trial in range(40):
        n, k = int(rng.integers(2, 40)), int(rng.integers(2, 7))
        x = rng.normal(size=(n, k))
        x[rng.random(x.shape) < (0.3, 0.6, 0.85)[trial % 3]] = np.nan
        if trial % 5 == 0:  # two blocks of raters that share no subject
            half = n // 2
            x[:half, : k // 2] = np.nan
            x[half:, k // 2:] = np.nan
        x[0, 0] = 1.0
        m = Measurements.from_wide(x)
        moments = single_moment_sums(*single_cells(m)[:2])
        shared = moments[moment_layout(k)["outer"]].reshape(k, k) > 0
        assert _connected(shared) == previous_kernels.connected(~np.isnan(x))


@pytest.mark.parametrize("seed", range(3))
def test_icc_components_without_replicates_matches_the_previous_form(seed):
    """The ICC's components, mean squares and counts of empty cells and incomplete
    subjects as the previous (n, k) path gives them, from wide and from long input; the
    bootstrap draws the same replicates (same bytes)."""
    from tests.reference import previous_kernels

    rng = np.random.default_rng(seed)
    for trial in range(12):
        x = _random_wide(rng, trial)
        if x.shape[1] < 2:
            x = np.column_stack([x, x[:, 0] + rng.normal(size=len(x))])
        filled = ~np.isnan(x)
        if (filled.sum(axis=1) > 0).sum() < 2 or not previous_kernels.connected(filled):
            continue
        m = Measurements.from_wide(x)
        for source in (m, _long_of(x)):  # the long form leaves out subjects not measured
            counts, sums, _, within, _ = previous_kernels.cell_statistics(source)
            c = henderson(previous_kernels.subject_moments(counts, sums, within).sum(axis=0),
                          m.n_raters, "twoway", False)
            with warnings.catch_warnings():
                warnings.simplefilter("ignore", DegenerateDataWarning)
                res = icc_components(source, n_resamples=49)
                if source is m:
                    boot = res.conf_int(method="percentile")
            np.testing.assert_allclose(
                [res.ms_rows, res.ms_columns, res.ms_error],
                [float(c.ms_subjects), float(c.ms_raters), float(c.ms_error)], rtol=1e-10)
            present = counts.sum(axis=1) > 0
            assert res.n_cells_missing == int((counts == 0).sum())
            assert res.n_incomplete == int(((counts == 0).any(axis=1) & present).sum())
            assert res.n_subjects == int(present.sum())
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            want = previous_kernels.moment_bootstrap_interval(m, 49)
        assert (boot.low, boot.high) == want


@pytest.mark.parametrize("seed", range(4))
def test_replicate_squares_serve_measurement_error_and_limits_as_before(seed):
    """One analysis of replicates within cells gives measurement_error's per-rater sums
    of squares and df (same bytes) and the limits of agreement's within-subject
    variances (which were raw sums of squares less sum x mean: equal to rounding)."""
    from irr.coefficients.variance_components import replicate_squares
    from tests.reference import previous_kernels

    rng = np.random.default_rng(seed)
    for _ in range(20):
        n, k = int(rng.integers(2, 60)), int(rng.integers(1, 4))
        reps = rng.integers(0, 4, size=(n, k))
        reps[0] = 2
        s = np.repeat(np.repeat(np.arange(n), k), reps.ravel())
        r = np.repeat(np.tile(np.arange(k), n), reps.ravel())
        v = np.round(1000 + rng.normal(0, 10, n)[s] + rng.normal(0, 2, s.size), 1)
        m = Measurements.from_long(s, r, v, raters=range(k))
        centre = previous_kernels.cell_statistics(m)[4]
        squares, dfs, _ = replicate_squares(m.subject, m.rater, m.value - centre,
                                            m.n_subjects, k)
        want_squares, want_dfs = previous_kernels.measurement_error_rater_squares(m)
        np.testing.assert_array_equal(squares, want_squares)
        np.testing.assert_array_equal(dfs, want_dfs)
        if k < 2:
            continue
        pair = m.rater < 2
        subject, is_x, value = m.subject[pair], m.rater[pair] == 0, m.value[pair]
        want = previous_kernels.limits_within_variances(subject, is_x, value, m.n_subjects)
        both = np.isin(subject, subject[is_x]) & np.isin(subject, subject[~is_x])
        got, got_dfs, _ = replicate_squares(subject[both], (~is_x[both]).astype(np.int64),
                                            value[both], m.n_subjects, 2)
        variances = [float(g) / d if d else 0.0 for g, d in zip(got, got_dfs, strict=True)]
        np.testing.assert_allclose(variances, want, rtol=1e-9, atol=1e-9)
