"""Issue 14, inference: percent agreement by name (A6), clustered inference (A7), intervals
at the boundary (C15) and subjects with no ratings in the bootstrap (C17)."""

import json
import math
import warnings

import numpy as np
import pandas as pd
import pytest
from scipy.stats import norm

import irr
from irr import DegenerateDataWarning
from irr.cli import main
from irr.coefficients.kappa import kappa_variances
from irr.inference.bootstrap import bootstrap_counts, min_resamples
from irr.ordinal import roc_auc_result
from irr.results import Result, wald_interval

ANXIETY = irr.datasets.load("anxiety")
Z95 = norm.ppf(0.975)


def quiet(call):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", DegenerateDataWarning)
        return call()


# -- A6: percent agreement, both definitions, each labelled ----------------------------------
def test_percent_agreement_all_is_r_irr_agree_on_anxiety():
    ag = irr.Agreement.from_frame(ANXIETY)
    x = ANXIETY.to_numpy()
    spread = x.max(axis=1) - x.min(axis=1)
    # R irr agree(anxiety) = 0% and agree(anxiety, tolerance = 1) = 35% (issue 14); by
    # hand: no subject has three equal ratings, 7 of 20 have max - min <= 1
    assert (spread == 0).sum() == 0
    assert (spread <= 1).sum() == 7
    exact = ag.percent_agreement(definition="all")
    loose = ag.percent_agreement(definition="all", tolerance=1)
    assert exact.estimate == 0.0
    assert loose.estimate == pytest.approx(0.35, abs=1e-15)
    assert loose.count == 7
    assert loose.n_subjects == 20
    # Wilson at 7/20 by its closed form
    p, n = 7 / 20, 20
    centre = (p + Z95**2 / (2 * n)) / (1 + Z95**2 / n)
    half = Z95 / (1 + Z95**2 / n) * math.sqrt(p * (1 - p) / n + Z95**2 / (4 * n * n))
    assert (loose.ci.low, loose.ci.high) == pytest.approx((centre - half, centre + half), abs=1e-12)
    assert loose.ci.method == "wilson"


def test_percent_agreement_pairwise_is_the_mean_share_of_agreeing_pairs():
    ag = irr.Agreement.from_frame(ANXIETY)
    x = ANXIETY.to_numpy()
    pairs = [(0, 1), (0, 2), (1, 2)]
    # mean over subjects of the share of the 3 rater pairs that agree (Gwet's p_a)
    exact = np.mean([sum(r[i] == r[j] for i, j in pairs) / 3 for r in x])
    loose = np.mean([sum(abs(r[i] - r[j]) <= 1 for i, j in pairs) / 3 for r in x])
    assert exact == pytest.approx(11 / 60)  # 0.1833, the number
    assert ag.percent_agreement().estimate == pytest.approx(exact, abs=1e-12)
    assert ag.percent_agreement(definition="pairwise", tolerance=1).estimate == pytest.approx(
        loose, abs=1e-12)


def _weighted_pa(x, w, categories):
    """Gwet's (2014) weighted percent agreement and its linearised SE, from the formula:
    p_a = mean over subjects with r_i >= 2 of sum_k r_ik (r*_ik - 1) / (r_i (r_i - 1)),
    r*_ik = sum_l w_kl r_il; var = sum_i (p_a,i* - p_a)^2 / (n (n - 1)), p_a,i* = (n / n2)
    p_a,i (0 for a subject with one rating), n the subjects with a rating."""
    r = np.stack([(x == c).sum(axis=1) for c in categories], axis=1).astype(float)
    ri = r.sum(axis=1)
    r, ri = r[ri > 0], ri[ri > 0]
    n, two = len(ri), ri >= 2
    pai = np.where(two, (r * (r @ w.T - 1)).sum(axis=1) / np.where(two, ri * (ri - 1), 1), 0)
    pa = pai[two].mean()
    return pa, math.sqrt(((n / two.sum() * pai - pa) ** 2).sum() / (n * (n - 1)))


@pytest.mark.parametrize("weights", ["linear", "quadratic", "radical", "custom"])
@pytest.mark.parametrize("raters", [["rater1", "rater2"], ["rater1", "rater2", "rater3"]])
def test_weighted_percent_agreement_is_gwets_formula(weights, raters):
    x = ANXIETY[raters].to_numpy(dtype=float)
    x[[0, 3, 7], [0, 1, 0]] = np.nan  # missing ratings; with two raters, single ratings
    frame = pd.DataFrame(x, columns=raters)
    ag = irr.Agreement.from_frame(frame, categories=[1, 2, 3, 4, 5, 6])
    s = np.arange(1.0, 7.0)
    d = np.abs(s[:, None] - s[None, :]) / 5
    w = {"linear": 1 - d, "quadratic": 1 - d ** 2, "radical": 1 - np.sqrt(d),
         "custom": np.where(d <= 0.2, 1.0, 0.25)}[weights]
    pa, se = _weighted_pa(x, w, s)
    res = ag.percent_agreement(weights=w if weights == "custom" else weights)
    assert res.estimate == pytest.approx(pa, abs=1e-12)
    assert res.se == pytest.approx(se, abs=1e-12)
    assert (res.ci.low, res.ci.high) == pytest.approx(
        (max(pa - Z95 * se, 0.0), min(pa + Z95 * se, 1.0)), abs=1e-12)
    assert res.weights == weights
    assert f"{weights} weights" in res.coefficient
    assert f"({weights} weights)" in res.report()
    # identity weights are the unweighted form
    same = ag.percent_agreement(weights=np.eye(6))
    assert same.estimate == pytest.approx(_weighted_pa(x, np.eye(6), s)[0], abs=1e-12)


def test_weighted_percent_agreement_is_the_same_through_every_door():
    ag = irr.Agreement.from_frame(ANXIETY)
    res = ag.percent_agreement(weights="quadratic")
    assert ANXIETY.irr.percent_agreement(weights="quadratic").estimate == res.estimate
    # its bootstrap draws the same subjects as the unweighted form's
    boot = ag.percent_agreement(weights="quadratic", ci="percentile", n_resamples=200)
    assert boot.ci.method == "percentile"
    assert boot.ci.low < res.estimate < boot.ci.high


@pytest.mark.parametrize(("options", "match"), [
    ({"tolerance": 1}, "neither a `tolerance`"),
    ({"definition": "all"}, "definition='all'"),
    ({"weights": "cubic"}, "weights"),
])
def test_weighted_percent_agreement_refuses_what_it_cannot_mean(options, match):
    ag = irr.Agreement.from_frame(ANXIETY)
    with pytest.raises(ValueError, match=match):
        ag.percent_agreement(**{"weights": "linear", **options})


def test_every_output_names_the_definition():
    ag = irr.Agreement.from_frame(ANXIETY)
    pairwise, every = ag.percent_agreement(), ag.percent_agreement(definition="all")
    assert pairwise.coefficient == "Percent agreement (pairwise)"
    assert every.coefficient == "Percent agreement (all raters)"
    assert list(pd.concat([pairwise.to_frame(), every.to_frame()]).index) == [
        "Percent agreement (pairwise)", "Percent agreement (all raters)"]
    assert every.report() == (
        "Percent agreement of all raters among rater1, rater2, and rater3 was .00, 95% CI "
        "[.00, .16] (Wilson score), n = 20.")
    assert "Mean pairwise percent agreement among rater1, rater2, and rater3 was .18" in \
        pairwise.report()
    assert any("R irr agree()" in note for note in every.notes)
    text = quiet(lambda: ag.summary().as_text())
    assert "Percent agreement (pairwise)" in text
    assert "Percent agreement (all raters)" in text
    # two raters: the definitions coincide and the note says so
    two = irr.Agreement.from_frame(ANXIETY, raters=["rater1", "rater2"])
    assert two.percent_agreement(definition="all").estimate == two.percent_agreement().estimate
    assert "coincide" in two.percent_agreement().notes[0]


def test_cli_multi_lists_both_definitions(tmp_path, capsys):
    path = tmp_path / "anxiety.csv"
    ANXIETY.to_csv(path, index=False)
    assert main(["multi", str(path), "--format", "json", "--seed", "1"]) == 0
    rows = {r["coefficient"]: r for r in json.loads(capsys.readouterr().out)["results"]}
    assert rows["Percent agreement (pairwise)"]["estimate"] == pytest.approx(11 / 60)
    assert rows["Percent agreement (all raters)"]["estimate"] == 0.0


def test_percent_agreement_all_is_listwise_and_counts_what_it_leaves_out():
    a = [1, 2, 3, 1, None, 2]
    b = [1, 2, 3, 2, 2, None]
    c = [1, 2, 1, 2, 2, None]
    ag = irr.Agreement(a, b, c)
    res = ag.percent_agreement(definition="all")
    # complete subjects 0-3 (R's na.omit); all three agree on 0 and 1: 2 of 4
    assert (res.estimate, res.n_subjects, res.n_missing, res.count) == (0.5, 4, 2, 2)
    assert any("2 subject(s) with a missing rating were left out (listwise)" in n
               for n in res.notes)
    with pytest.raises(ValueError, match=r"needs at least one subject rated by all 3 raters"):
        irr.Agreement([1, None], [None, 2], [1, 2]).percent_agreement(definition="all")
    with pytest.raises(ValueError, match=r"`definition` must be one of 'pairwise', 'all'"):
        ag.percent_agreement(definition="R")


def test_percent_agreement_all_on_counts():
    # subject x category counts: rows 0 and 2 have every rating in one category
    ag = irr.Agreement.from_counts([[3, 0, 0], [2, 1, 0], [0, 0, 3], [1, 1, 1]])
    res = ag.percent_agreement(definition="all")
    assert (res.estimate, res.count, res.n_subjects) == (0.5, 2, 4)


# -- A7: clustered inference ----------------------------------------------------------------
def clustered_pairs(seed=7, n_clusters=120):
    """Two raters on clusters whose subjects repeat the cluster's ratings (10% noise)."""
    rng = np.random.default_rng(seed)
    size = rng.integers(2, 7, n_clusters)
    cluster = np.repeat(np.arange(n_clusters), size)
    ca = rng.integers(0, 3, n_clusters)
    cb = np.where(rng.random(n_clusters) < 0.7, ca, rng.integers(0, 3, n_clusters))
    a, b = np.repeat(ca, size), np.repeat(cb, size)
    b = np.where(rng.random(cluster.size) < 0.1, rng.integers(0, 3, cluster.size), b)
    return a, b, cluster


@pytest.mark.parametrize("weights", [None, "quadratic"])
def test_cluster_robust_se_matches_the_cluster_bootstrap(weights):
    a, b, cluster = clustered_pairs()
    ag = irr.Agreement(a, b)
    iid = ag.kappa(weights)
    robust = ag.kappa(weights, cluster=cluster)
    boot = ag.kappa(weights, cluster=cluster, ci="percentile", n_resamples=4000, rng=1)
    # an independent estimate of the same variance: resampling whole clusters
    assert robust.se == pytest.approx(boot.bootstrap.se, rel=0.08)
    assert robust.se > 1.5 * iid.se  # the clusters matter here, the iid SE is too small
    # t on 120 clusters - 1 = 119 df (tests/unit/inference/test_seeds_and_strata.py)
    from scipy.stats import t

    assert robust.design_df == 119
    assert robust.ci.low == pytest.approx(
        max(-1, robust.estimate - t.ppf(0.975, 119) * robust.se), abs=1e-12)
    assert robust.statistic == pytest.approx(robust.estimate / robust.se)
    assert math.isnan(robust.se0)
    assert "120 clusters" in robust.notes[0]


def test_singleton_clusters_give_the_fce_se_times_the_small_sample_factor():
    a = [1, 2, 1, 2, 1, 2, 2, 1, 3, 3, 2, 1]
    b = [1, 2, 1, 2, 1, 1, 2, 1, 3, 2, 2, 1]
    ag = irr.Agreement(a, b)
    w = np.eye(3)
    fce = math.sqrt(float(kappa_variances(ag.statistics.pair_table, w)[0]))
    assert ag.kappa().se == pytest.approx(fce, rel=1e-12)
    # every cluster one subject: the sandwich is n/(n-1) times FCE's delta-method variance
    assert ag.kappa(cluster=np.arange(12)).se == pytest.approx(fce * math.sqrt(12 / 11),
                                                               rel=1e-12)


def test_stratified_se_is_the_within_stratum_linearisation():
    a = np.array([1, 2, 1, 2, 1, 2, 2, 1, 3, 3, 2, 1])
    b = np.array([1, 2, 1, 2, 1, 1, 2, 1, 3, 2, 2, 1])
    strata = np.arange(12) % 2
    ag = irr.Agreement(a, b)
    # influence values by numerical differentiation of kappa in each subject's weight,
    # independent of the analytic gradient: IF_i = d kappa(weights 1 + e_i) / d e * n
    base = ag.kappa().estimate
    eps = 1e-7
    influence = np.empty(12)
    for i in range(12):
        weights = np.ones(12)
        weights[i] += eps
        table = np.zeros((3, 3))
        np.add.at(table, (a - 1, b - 1), weights)
        po = np.trace(table) / table.sum()
        pe = table.sum(1) @ table.sum(0) / table.sum() ** 2
        influence[i] = ((po - pe) / (1 - pe) - base) / eps * 12
    var = 0.0
    for s in (0, 1):
        h = influence[strata == s]
        var += len(h) / (len(h) - 1) * ((h - h.mean()) ** 2).sum()
    assert ag.kappa(strata=strata).se == pytest.approx(math.sqrt(var) / 12, rel=1e-5)


def test_cluster_and_strata_designs_that_give_no_interval_are_refused():
    ag = irr.Agreement([1, 2, 1, 2, 1, 2, 2, 1], [1, 2, 1, 2, 1, 1, 2, 1])
    with pytest.raises(ValueError, match=r"`cluster` must give at least two clusters"):
        ag.kappa(cluster=[1] * 8, ci="percentile")
    with pytest.raises(ValueError, match=r"Every stratum of `strata` holds a single subject"):
        ag.kappa(strata=np.arange(8), ci="percentile")
    with pytest.raises(ValueError, match=r"Every stratum of `strata` holds a single cluster"):
        ag.kappa(cluster=np.arange(8) // 2, strata=np.arange(8) // 2)
    with pytest.warns(DegenerateDataWarning, match=r"2 of 5 strata of `strata` hold a single"):
        ag.kappa(strata=[0, 0, 1, 1, 2, 2, 3, 4])


def test_mixed_type_cluster_ids_are_refused_not_merged():
    ag = irr.Agreement([1, 2, 1, 2, 1, 2], [1, 2, 1, 1, 2, 2])
    with pytest.raises(TypeError, match=r"`cluster` mixes label types"):
        ag.kappa(cluster=[1, "1", 1, "1", 2, 2], ci="percentile")
    with pytest.raises(TypeError, match=r"`strata` mixes label types"):
        ag.kappa(strata=pd.Series([1, "1", 1, "1", 2, 2], dtype=object))
    with pytest.raises(TypeError, match=r"`groups` mixes label types"):
        irr.inference.group_pattern_counts([0, 1], [1, "1"])


# -- C15: intervals at the boundary -----------------------------------------------------------
def test_perfect_agreement_has_no_zero_width_interval():
    ag = irr.Agreement([1, 2, 1, 2, 1, 2], [1, 2, 1, 2, 1, 2])
    with pytest.warns(DegenerateDataWarning, match="Wald interval undefined: the standard error"):
        res = ag.kappa()
    assert res.estimate == 1.0
    assert math.isnan(res.ci.low)
    assert math.isnan(res.ci.high)
    text = str(res)
    assert "Wald interval undefined: the standard error is 0" in text
    assert "CI" not in res.report()  # the sentence gives no interval
    # percent agreement 6 of 6: Wilson's lower end is n / (n + z^2) at p = 1
    pa = ag.percent_agreement()
    assert pa.ci.low == pytest.approx(6 / (6 + Z95**2), abs=1e-12)
    assert pa.ci.high == 1.0
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        boot = ag.kappa(ci="percentile", n_resamples=500, rng=0)
    said = [str(w.message) for w in caught]
    assert any("defined bootstrap replicates equal 1" in m for m in said), said
    assert not any(m.startswith("Wald") for m in said)  # the Wald interval is not reported
    assert math.isnan(boot.ci.low)
    assert "no spread" in boot.ci.note


def test_a_constant_rater_gives_kappa_zero_without_a_zero_width_interval():
    with pytest.warns(DegenerateDataWarning, match="Wald interval undefined"):
        res = irr.cohen_kappa([1, 1, 1, 1, 2], [1, 1, 1, 1, 1])
    # rater b constant: p_o = p_e = 0.8 for every table with these margins, kappa = 0
    assert res.estimate == 0.0
    assert res.se == 0.0  # exactly: no rounding noise passed off as a standard error
    assert math.isnan(res.ci.low)
    assert math.isnan(res.ci.high)


def test_mcnemar_effect_without_discordant_pairs_has_no_zero_width_interval():
    # no discordant pairs: p1. - p.1 = 0 with Wald SE sqrt(0 - 0) / n = 0
    with pytest.warns(DegenerateDataWarning, match="Wald interval undefined"):
        res = irr.mcnemar([[3, 0], [0, 4]])
    assert res.estimate == 0.0
    assert math.isnan(res.ci.low)
    assert math.isnan(res.ci.high)


def test_huge_tables_keep_their_tiny_but_real_se():
    res = irr.Agreement.from_table([[2**53 + 1, 3], [5, 2**53 + 7]]).kappa()
    assert 0 < res.se < 1e-14
    assert res.ci.low < res.estimate


def newcombe_by_grid(estimate, m, n, level=0.95):
    """Newcombe's method 5 by brute force: the grid values theta with
    (estimate - theta)^2 <= z^2 V(theta), V Hanley-McNeil's with N* = (m + n)/2 - 1."""
    z = norm.ppf(0.5 + level / 2)
    t = np.linspace(0, 1, 2_000_001)
    n_star = (m + n) / 2 - 1
    v = t * (1 - t) * (1 + n_star * (1 - t) / (2 - t) + n_star * t / (1 + t)) / (m * n)
    inside = t[(estimate - t) ** 2 <= z * z * v]
    return inside.min(), inside.max()


@pytest.mark.parametrize("ci", ["bca", "wald", "percentile"])
def test_auc_at_perfect_separation_gets_newcombes_interval(ci):
    y = [0, 0, 0, 0, 1, 1, 1, 1, 1]
    s = [1, 2, 3, 4, 5, 6, 7, 8, 9]
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        res = roc_auc_result(y, s, ci=ci, n_resamples=200, rng=0)
    low, high = newcombe_by_grid(1.0, 5, 4)
    assert res.estimate == 1.0
    assert res.ci.method == "newcombe"
    assert res.ci.low == pytest.approx(low, abs=1e-6)
    assert res.ci.high == high == 1.0
    assert res.ci.low < 0.9
    assert "Perfect separation" in res.notes[-1]


def test_auc_newcombe_interval_on_request_matches_the_definition():
    y = [1, 0, 1, 1, 0, 0, 1, 0]
    s = [0.77, 0.62, 0.58, 0.47, 0.47, 0.33, 0.23, 0.15]
    res = roc_auc_result(y, s, ci="newcombe")
    low, high = newcombe_by_grid(res.estimate, 4, 4)
    assert (res.ci.low, res.ci.high) == pytest.approx((low, high), abs=1e-6)


def test_bootstrap_intervals_need_enough_resamples():
    ag = irr.Agreement([1, 2, 1, 2, 1, 2, 2, 1], [1, 2, 1, 2, 1, 1, 2, 1])
    # each tail of a 95% interval holds 2.5% of the replicates: at least one needs 40
    assert min_resamples(0.95) == 40
    with pytest.raises(ValueError, match=r"`n_resamples` must be at least 40 for a 95% "
                                         r"bootstrap interval.*got 1\."):
        ag.kappa(ci="percentile", n_resamples=1, rng=0)
    with pytest.raises(ValueError, match=r"`n_resamples` must be at least 200 .*got 39"):
        ag.kappa(ci="percentile", n_resamples=39, rng=0, confidence_level=0.99)
    res = ag.kappa(ci="percentile", n_resamples=40, rng=0)
    assert res.ci.low <= res.estimate <= res.ci.high


def test_an_interval_excluding_the_estimate_says_so():
    counts = np.array([5000, 5000])

    def squared_deviation(c):
        return (c[:, 1] / c.sum(axis=1) - 0.5) ** 2

    res = Result(coefficient="squared deviation", symbol="d", estimate=0.0, se=1e-4,
                 ci=wald_interval(0.0, 1e-4, 0.95), n_subjects=10_000, scale=None)
    # estimate 0 and every resample > 0: the percentile interval lies above the estimate
    with pytest.warns(DegenerateDataWarning, match="excludes the estimate 0"):
        res = res.with_bootstrap(lambda: bootstrap_counts(counts, squared_deviation,
                                                          n_resamples=50, rng=0), "percentile")
    assert res.ci.low > 0
    assert res.ci.note.startswith("excludes the estimate 0")
    assert "percentile bootstrap interval excludes the estimate" in res.summary().as_text()


# -- C17: subjects with no ratings are not resampled -------------------------------------------
def with_empty_rows(x, rows):
    return np.vstack([x, np.full((rows, x.shape[1]), np.nan)])


@pytest.mark.parametrize(("method", "options"), [
    ("krippendorff_alpha", {"level": "interval"}),
    ("fleiss_kappa", {}), ("conger_kappa", {}), ("gwet_ac", {}), ("light_kappa", {}),
    ("kendall_w", {}), ("percent_agreement", {}),
    ("percent_agreement", {"definition": "all", "tolerance": 1}),
])
def test_empty_subjects_leave_the_bootstrap_unchanged(method, options):
    x = ANXIETY.to_numpy().astype(float)
    plain = getattr(irr.Agreement.from_array(x), method)(
        ci="percentile", n_resamples=300, rng=3, **options)
    padded = getattr(irr.Agreement.from_array(with_empty_rows(x, 300)), method)(
        ci="percentile", n_resamples=300, rng=3, **options)
    # the empty subjects are left out of the estimate, so they must not change its
    # resamples: the same seed gives the same replicates (to rounding)
    np.testing.assert_allclose(padded.bootstrap.replicates, plain.bootstrap.replicates,
                               rtol=0, atol=1e-12)


@pytest.mark.parametrize("design", ["none", "cluster", "strata"])
def test_empty_subjects_leave_the_kappa_bootstrap_unchanged(design):
    x = ANXIETY.to_numpy().astype(float)[:, :2]
    padded = with_empty_rows(x, 30)
    cluster = np.r_[np.arange(20) // 2, 100 + np.arange(30) // 3]
    strata = np.r_[np.arange(20) % 2, np.arange(30) % 2]
    kwargs_plain = {"none": {}, "cluster": {"cluster": cluster[:20]},
                    "strata": {"strata": strata[:20]}}[design]
    kwargs_padded = {"none": {}, "cluster": {"cluster": cluster},
                     "strata": {"strata": strata}}[design]
    plain = irr.Agreement(x[:, 0], x[:, 1]).kappa(ci="percentile", n_resamples=300, rng=1,
                                                  **kwargs_plain)
    more = irr.Agreement(padded[:, 0], padded[:, 1]).kappa(ci="percentile", n_resamples=300,
                                                           rng=1, **kwargs_padded)
    np.testing.assert_allclose(more.bootstrap.replicates, plain.bootstrap.replicates,
                               rtol=0, atol=1e-12)
    assert more.se == pytest.approx(plain.se, rel=1e-12)


@pytest.mark.parametrize("method", ["kappa", "fleiss_kappa", "gwet_ac", "krippendorff_alpha",
                                    "percent_agreement"])
def test_a_t_test_at_a_zero_standard_error_has_p_zero_and_warns(method):
    # perfect agreement: se = 0, so t = (estimate - null) / se is infinite; irrCAC reports
    # p = 0, which the documentation promises: the same, with a warning saying why
    ag = irr.Agreement([1, 2, 1, 2, 1, 2, 3, 3], [1, 2, 1, 2, 1, 2, 3, 3])
    options = {"distribution": "t", "ci": "wald"} if method == "krippendorff_alpha" else \
        {"distribution": "t"}
    if method == "percent_agreement":
        options["null"] = 0.5
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        res = getattr(ag, method)(**options)
    said = [str(w.message) for w in caught if issubclass(w.category, DegenerateDataWarning)]
    assert any("standard error is 0, so the t statistic is infinite and its p-value 0"
               in text for text in said), said
    assert res.se == 0.0
    assert res.statistic == math.inf
    assert res.pvalue == 0.0


@pytest.mark.parametrize("seed", range(4))
def test_plan_multiplicity_matches_its_previous_form(seed):
    """The plan's multiplicity (subjects with no rating set to 0) is the previous form's
    for rows of codes complete or not, with rows of no rating, listwise statistics (whose
    incomplete patterns have multiplicity 0) and subject x category counts."""
    from irr._statistics import Statistics
    from irr.inference.plan import ResamplingPlan
    from tests.reference import previous_kernels

    rng = np.random.default_rng(seed)
    for trial in range(30):
        n, m, k = int(rng.integers(2, 60)), int(rng.integers(2, 5)), int(rng.integers(2, 6))
        codes = [rng.integers(0, k, n) for _ in range(m)]
        if trial % 3:
            for c in codes:
                c[rng.random(n) < 0.3] = -1  # missing ratings
        if trial % 4 == 1:
            for c in codes:
                c[:3] = -1  # subjects with no rating
        stats = Statistics.from_codes(codes, pd.Index(range(k)), None, False,
                                      tuple(f"r{j}" for j in range(m)))
        counts = np.stack([np.bincount(np.r_[[c[i] for c in codes if c[i] >= 0]],
                                       minlength=k)[:k] if any(c[i] >= 0 for c in codes)
                           else np.zeros(k, dtype=np.int64) for i in range(n)])
        for s in (stats, stats.listwise(), Statistics.from_counts(counts, pd.Index(range(k)),
                                                                  None, False)):
            got = ResamplingPlan.for_statistics(s).multiplicity
            np.testing.assert_array_equal(got, previous_kernels.plan_multiplicity(s))
