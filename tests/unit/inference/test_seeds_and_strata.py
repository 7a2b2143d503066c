"""Issue 14, reviewer's findings 4, 5, 8, 9, 13, 15: default seed, left-out subjects in
resamples, irr.by with per-row cluster/strata, few clusters, tolerance labels, two-sided
critical error rates."""

import io
import math
import warnings
from fractions import Fraction

import numpy as np
import pandas as pd
import pytest

import irr
from irr import DegenerateDataWarning
from irr.inference import bootstrap as bootstrap_module
from irr.inference.options import InferenceOptions
from tests.support.cli_runner import cli


def _anxiety():
    return irr.datasets.load("anxiety").astype(float)


def _with_single_ratings(n=300):
    """anxiety plus `n` subjects rated by rater1 only (left out of every coefficient that
    needs two ratings or complete subjects)."""
    extra = pd.DataFrame({"rater1": np.arange(n) % 6 + 1.0, "rater2": np.nan,
                          "rater3": np.nan}, index=range(500, 500 + n))
    return pd.concat([_anxiety(), extra])


# -- 4: every default output reproducible, one truth between CLI and API --------------------
def test_default_rng_is_the_fixed_seed_zero():
    assert InferenceOptions().rng == 0
    anx = _anxiety()
    first = irr.krippendorff_alpha(anx, "interval", n_resamples=500)
    again = irr.krippendorff_alpha(anx, "interval", n_resamples=500)
    seeded = irr.krippendorff_alpha(anx, "interval", n_resamples=500, rng=0)
    assert (first.ci.low, first.ci.high) == (again.ci.low, again.ci.high)
    assert (first.ci.low, first.ci.high) == (seeded.ci.low, seeded.ci.high)
    assert first.seed == 0
    assert first.to_frame()["seed"].iloc[0] == 0
    # the percentile interval is numpy's linear quantiles of the replicates
    reps = first.bootstrap.replicates
    assert first.ci.low == pytest.approx(np.quantile(reps, 0.025), abs=1e-15)
    ag = irr.Agreement.from_frame(anx)
    w1, w2 = ag.kendall_w(ci="percentile", n_resamples=300), ag.kendall_w(ci="percentile",
                                                                          n_resamples=300)
    assert (w1.ci.low, w1.ci.high) == (w2.ci.low, w2.ci.high)
    # rng=None, passed explicitly, is fresh entropy: no seed claimed
    assert irr.krippendorff_alpha(anx, "interval", n_resamples=100, rng=None).seed is None
    # asymptotic intervals resample nothing: no seed
    assert ag.fleiss_kappa().seed is None
    assert math.isnan(ag.fleiss_kappa().n_resamples)


def test_summary_header_states_the_seed():
    res = irr.Agreement.from_frame(_anxiety()).krippendorff_alpha("interval", n_resamples=300,
                                                                 rng=7)
    text = str(res.summary())
    assert "Bootstrap seed:" in text
    assert text.count("Bootstrap seed:") == 1
    line = next(ln for ln in text.splitlines() if "Bootstrap seed:" in ln)
    assert line.split("Bootstrap seed:")[1].split()[0] == "7"
    # a Wald summary resampled nothing and claims no seed
    assert "Bootstrap seed" not in str(irr.Agreement.from_frame(_anxiety()).fleiss_kappa()
                                       .summary())


def test_cli_default_interval_is_the_api_default():
    _, out, _ = cli("multi", "--dataset", "anxiety", "--n-resamples", "400", "--format", "csv")
    table = pd.read_csv(io.StringIO(out)).set_index("coefficient")
    api = irr.Agreement.from_frame(irr.datasets.load("anxiety")).krippendorff_alpha(
        "interval", n_resamples=400)
    row = table.loc["Krippendorff's alpha (interval)"]
    assert row["ci_method"] == "percentile" == api.ci.method
    assert (row["ci_low"], row["ci_high"]) == pytest.approx((api.ci.low, api.ci.high),
                                                            abs=1e-12)
    assert row["seed"] == 0
    # the sentence names the interval
    _, text, _ = cli("report", "--dataset", "anxiety", "--n-resamples", "400",
                     "--statistics", "all")
    assert "Krippendorff's interval α = .17, 95% CI [" in text
    assert "(percentile bootstrap, 400 resamples)" in text
    # Wilson intervals are named in sentences too
    res = irr.Agreement.from_frame(irr.datasets.load("anxiety")).percent_agreement(
        definition="all")
    assert "95% CI [.00, .16] (Wilson score)" in res.report()


# -- 5: subjects a coefficient leaves out are not resampled ----------------------------------
LEFT_OUT = [
    ("interval alpha", lambda d: irr.Agreement.from_frame(d).krippendorff_alpha(
        "interval", n_resamples=600)),
    ("Kendall's W", lambda d: irr.Agreement.from_frame(d).kendall_w(
        ci="percentile", n_resamples=600)),
    ("two-rater kappa", lambda d: irr.Agreement.from_frame(d[["rater1", "rater2"]]).kappa(
        ci="percentile", n_resamples=600)),
    ("two-rater percent agreement", lambda d: irr.Agreement.from_frame(
        d[["rater1", "rater2"]]).percent_agreement(ci="percentile", n_resamples=600)),
    ("Light's kappa", lambda d: irr.Agreement.from_frame(d).light_kappa(
        ci="percentile", n_resamples=600)),
    ("pa(all)", lambda d: irr.Agreement.from_frame(d).percent_agreement(
        definition="all", tolerance=1, ci="basic", n_resamples=600)),
]


@pytest.mark.parametrize(("name", "compute"), LEFT_OUT, ids=[n for n, _ in LEFT_OUT])
def test_left_out_subjects_do_not_change_the_bootstrap(name, compute):
    # The coefficient uses the same 20 subjects with or without the 300 single-rating
    # ones; resampling only its own subjects draws the same resamples from the same seed,
    # so the bootstrap distribution is the same (before: alpha SE 0.1248 -> 0.1275).
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", DegenerateDataWarning)
        clean, padded = compute(_anxiety()), compute(_with_single_ratings())
    assert padded.estimate == pytest.approx(clean.estimate, abs=1e-12)
    np.testing.assert_allclose(padded.bootstrap.replicates, clean.bootstrap.replicates,
                               rtol=0, atol=1e-12, equal_nan=True)
    if np.isfinite(clean.ci.low):
        assert (padded.ci.low, padded.ci.high) == pytest.approx((clean.ci.low, clean.ci.high),
                                                                abs=1e-12)


def test_every_resample_has_as_many_used_subjects_as_the_data(monkeypatch):
    # record the counts each bootstrap draws: the 300 single-rating subjects get none in
    # alpha's resamples, and every resample has exactly the 20 pairable subjects
    seen = {}
    real = bootstrap_module.bootstrap_counts

    def record(pattern_counts, statistic, **kw):
        seen["counts"] = np.asarray(pattern_counts, dtype=float)
        return real(pattern_counts, statistic, **kw)

    monkeypatch.setattr(bootstrap_module, "bootstrap_counts", record)
    ag = irr.Agreement.from_frame(_with_single_ratings())
    ag.krippendorff_alpha("interval", n_resamples=50).bootstrap  # noqa: B018
    assert seen["counts"].sum() == 20
    # the Gwet family keeps them (their ratings enter the classification probabilities)
    ag.fleiss_kappa(ci="percentile", n_resamples=50).bootstrap  # noqa: B018
    assert seen["counts"].sum() == 320


def test_gwet_family_sentences_say_how_many_subjects_had_a_pair():
    # irrCAC's n counts every subject (the single ratings enter the chance term), but p_a
    # is the mean over the 20 subjects with two or more ratings: the sentence says both
    ag = irr.Agreement.from_frame(_with_single_ratings())
    for res in (ag.percent_agreement(), ag.fleiss_kappa(), ag.gwet_ac()):
        assert res.n_subjects == 320
        assert res.n_paired == 20
        assert res.report().endswith("n = 20 subjects with two or more ratings (of 320).")
    # without single ratings the sentence is unchanged
    assert irr.Agreement.from_frame(_anxiety()).fleiss_kappa().report().endswith(", n = 20.")


# -- 8: irr.by with per-row cluster / strata ------------------------------------------------
def test_by_splits_a_full_length_cluster_per_group():
    df = irr.datasets.load("anxiety").assign(site=["a", "b"] * 10)
    cluster = pd.Series(np.repeat(np.arange(10), 2), index=df.index)
    out = irr.by(df, "site", raters=["rater1", "rater2"], cluster=cluster)
    assert out["reason"].isna().all()
    for site, row in out.set_index("site").iterrows():
        mine = df["site"] == site
        expected = irr.Agreement.from_frame(df[mine], raters=["rater1", "rater2"]).kappa(
            cluster=cluster[mine].to_numpy())
        assert row["estimate"] == pytest.approx(expected.estimate, abs=1e-15)
        assert row["se"] == pytest.approx(expected.se, abs=1e-15)
        assert row["ci_low"] == pytest.approx(expected.ci.low, abs=1e-15)
    # a Series in another order is aligned on the index, like freq_weights
    shuffled = cluster.iloc[::-1]
    again = irr.by(df, "site", raters=["rater1", "rater2"], cluster=shuffled)
    pd.testing.assert_frame_equal(again, out)
    # strata as an array, with a bootstrap interval
    strata = np.tile([0, 0, 1, 1], 5)
    by_strata = irr.by(df, "site", raters=["rater1", "rater2"], strata=strata,
                       ci="percentile", n_resamples=200)
    assert by_strata["reason"].isna().all()
    assert by_strata["ci_low"].notna().all()
    with pytest.raises(ValueError, match=r"`cluster` must have one value per subject \(20\); "
                                         r"got shape \(3,\)"):
        irr.by(df, "site", raters=["rater1", "rater2"], cluster=[1, 2, 3])


# -- 9: few clusters: t on G - H df ----------------------------------------------------------
def test_cluster_robust_wald_uses_t_on_clusters_minus_strata():
    from scipy.special import stdtr

    rng = np.random.default_rng(1)
    a = rng.integers(0, 2, 60)
    b = np.where(rng.random(60) < 0.8, a, 1 - a)
    res = irr.cohen_kappa(a, b, cluster=np.repeat([0, 1], 30))
    assert res.design_df == 1.0
    # t(1) 97.5% quantile = tan(0.475 pi) = 12.7062 (the Cauchy quantile; t tables)
    t975 = math.tan(0.475 * math.pi)
    assert res.ci.high == pytest.approx(min(1.0, res.estimate + t975 * res.se), abs=1e-12)
    assert res.ci.low == pytest.approx(res.estimate - t975 * res.se, abs=1e-12)
    assert res.pvalue == pytest.approx(2 * stdtr(1, -abs(res.estimate / res.se)), rel=1e-12)
    assert "t on 1 df" in res.notes[0]
    # the same width at another level from conf_int
    ci90 = res.conf_int(0.90, "wald")
    assert ci90.low == pytest.approx(res.estimate - math.tan(0.45 * math.pi) * res.se,
                                     abs=1e-12)
    # with strata: clusters minus strata (6 clusters in 2 strata: 4 df)
    strat = irr.cohen_kappa(a, b, cluster=np.repeat(np.arange(6), 10),
                            strata=np.repeat([0, 1], 30))
    assert strat.design_df == 4.0
    # without a design: normal quantiles, as before
    assert math.isinf(irr.cohen_kappa(a, b).design_df)


# -- 13: the tolerance in every label --------------------------------------------------------
def test_tolerance_is_carried_into_name_symbol_sentence_and_frame():
    ag = irr.Agreement.from_frame(irr.datasets.load("anxiety"))
    pairwise = ag.percent_agreement(tolerance=1)
    every = ag.percent_agreement(tolerance=1, definition="all")
    two = irr.Agreement.from_frame(irr.datasets.load("anxiety")[["rater1", "rater2"]]) \
        .percent_agreement(tolerance=1)
    assert pairwise.coefficient == "Percent agreement (pairwise, tolerance 1)"
    assert every.coefficient == "Percent agreement (all raters, tolerance 1)"
    assert two.coefficient == "Percent agreement (tolerance 1)"
    # R irr agree(anxiety, tolerance = 1) = 35%: 7 of 20 subjects within 1
    assert every.estimate == pytest.approx(0.35, abs=1e-15)
    assert "Percent agreement of all raters within ±1 among" in every.report()
    assert " was .35, " in every.report()
    assert "Mean pairwise percent agreement within ±1 among" in pairwise.report()
    assert " was .58, " in pairwise.report()
    assert "Percent agreement within ±1 between" in two.report()
    assert list(pd.concat([pairwise.to_frame(), every.to_frame()]).index) == [
        "Percent agreement (pairwise, tolerance 1)", "Percent agreement (all raters, tolerance 1)"]
    assert ag.percent_agreement().coefficient == "Percent agreement (pairwise)"


# -- 15: two-sided critical error rates ------------------------------------------------------
def _cdf(c, n, p):
    """P(X <= c), X ~ Binomial(n, p), in exact rationals."""
    p = Fraction(p)
    return sum(Fraction(math.comb(n, i)) * p**i * (1 - p) ** (n - i) for i in range(c + 1))


def test_two_sided_critical_error_rate_states_h0_and_the_lower_region():
    crit = irr.critical_error_rate(200, 0.99, 0.05, "two-sided")
    # exact: P(X <= 194) < 0.025 <= P(X <= 195), and P(X = 200) = 0.99^200 >= 0.025
    p99 = Fraction(0.99)
    assert _cdf(194, 200, p99) < Fraction(1, 40) <= _cdf(195, 200, p99)
    assert p99**200 >= Fraction(1, 40)
    assert crit.critical_count == (194, 200)
    assert crit.size == pytest.approx(float(_cdf(194, 200, p99)), rel=1e-9)
    assert "error rate = 0.99" in crit.note
    assert "<= 0.99" not in crit.note
    assert "rejected only when errors <= 194" in crit.note
    assert crit.rule() == "reject H0 if errors <= 194 (rate <= 0.97)"
    assert crit.rejects(194)
    assert not crit.rejects(195)
    assert not crit.rejects(200)
    # the mirror: the lower region empty, the upper one stated
    low = irr.critical_error_rate(200, 0.01, 0.05, "two-sided")
    assert low.critical_count[0] == -1
    assert "rejected only when errors > 5" in low.note
    assert "error rate = 0.01" in low.note
    assert low.rule() == "reject H0 if errors > 5 (rate > 0.025)"
    assert irr.critical_error_rate(5, 0.5, 0.05, "two-sided").rule() == \
        "H0 cannot be rejected at this n"


# -- 16 (minor): the declared order of the categories does not change the resamples ---------
def test_declared_category_order_does_not_change_the_bootstrap():
    # nominal alpha, Conger (fine patterns), Fleiss (count patterns) and a clustered kappa
    # are the same statistics whatever order the scale is declared in; the resamples are
    # drawn in the labels' order, so the same seed gives the same intervals (before:
    # [-0.1289, 0.0508] vs [-0.1359, 0.0464] for nominal alpha with --categories 6 5 4 3 2 1)
    anx = irr.datasets.load("anxiety")
    calls = [lambda ag: ag.krippendorff_alpha("nominal", n_resamples=300),
             lambda ag: ag.conger_kappa(ci="bca", n_resamples=300),
             lambda ag: ag.fleiss_kappa(ci="percentile", n_resamples=300)]
    for call in calls:
        given = call(irr.Agreement.from_frame(anx))
        reversed_ = call(irr.Agreement.from_frame(anx, categories=[6, 5, 4, 3, 2, 1]))
        shuffled = call(irr.Agreement.from_frame(anx, categories=[3, 1, 2, 6, 0, 5, 4]))
        for other in (reversed_, shuffled):
            assert (other.ci.low, other.ci.high) == pytest.approx((given.ci.low, given.ci.high),
                                                                  abs=1e-12)
    pair = anx[["rater1", "rater2"]]
    cluster = np.repeat(np.arange(10), 2)
    given = irr.Agreement.from_frame(pair).kappa(ci="percentile", cluster=cluster,
                                                 n_resamples=300)
    other = irr.Agreement.from_frame(pair, categories=[6, 5, 4, 3, 2, 1]).kappa(
        ci="percentile", cluster=cluster, n_resamples=300)
    assert (other.ci.low, other.ci.high) == pytest.approx((given.ci.low, given.ci.high),
                                                          abs=1e-12)
