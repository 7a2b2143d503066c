"""Bootstrap intervals through Agreement.kappa: wiring, reuse, pairing, clusters, bad input."""

import math
import re

import numpy as np
import pandas as pd
import pytest

import irr

SKIN = [[10, 4, 1, 0], [5, 10, 12, 2], [2, 4, 12, 5], [0, 2, 6, 13]]


@pytest.fixture(scope="module")
def vision():
    return irr.Agreement.from_frame(irr.datasets.load("vision"))


def test_bootstrap_interval_is_the_result_ci_and_is_reported(vision):
    res = vision.kappa("quadratic", ci="bca", n_resamples=2000, rng=0)
    assert res.ci.method == "bca"
    assert res.n_resamples == 2000
    assert res.ci.low < res.estimate < res.ci.high
    # n = 7477: the bootstrap SE agrees with the Fleiss-Cohen-Everitt SE (to MC error ~3%).
    assert res.bootstrap.se == pytest.approx(res.se, rel=0.08)
    frame = res.to_frame()
    assert frame["ci_method"].iloc[0] == "bca"
    assert frame["n_resamples"].iloc[0] == 2000
    text = res.summary().as_text()
    assert "2,000 resamples of subjects" in text
    assert re.search(r"CI method:\s+BCa bootstrap\s", text)


def test_bootstrap_is_drawn_once_and_reused(vision):
    res = vision.kappa(ci="percentile", n_resamples=500, rng=1)
    first = res.bootstrap
    ci90 = res.conf_int(confidence_level=0.90, method="basic")
    assert res.bootstrap is first
    lo, hi = np.quantile(first.replicates, [0.05, 0.95])
    assert ci90.low == pytest.approx(2 * res.estimate - hi, abs=1e-12)
    assert ci90.high == pytest.approx(2 * res.estimate - lo, abs=1e-12)


def test_wald_result_draws_a_bootstrap_lazily_with_its_settings():
    ag = irr.Agreement.from_table(SKIN)
    res = ag.kappa(n_resamples=300, rng=3)
    assert math.isnan(res.n_resamples)
    ci = res.conf_int(method="percentile")
    assert ci.method == "percentile"
    assert res.bootstrap.n_resamples == 300
    again = ag.kappa(ci="percentile", n_resamples=300, rng=3)
    assert (again.ci.low, again.ci.high) == (ci.low, ci.high)


def test_same_seed_gives_paired_resamples_across_coefficients():
    ag = irr.Agreement.from_table(SKIN)
    # Identity weights given as a matrix are the same statistic as unweighted kappa: with
    # the same seed the replicates must coincide exactly, resample by resample.
    a = ag.kappa(None, ci="percentile", n_resamples=400, rng=7).bootstrap.replicates
    b = ag.kappa(np.eye(4), ci="percentile", n_resamples=400, rng=7).bootstrap.replicates
    np.testing.assert_array_equal(a, b)
    # Linear and quadratic kappa from the same resamples are strongly correlated.
    lin = ag.kappa("linear", ci="percentile", n_resamples=400, rng=7).bootstrap.replicates
    other = ag.kappa("linear", ci="percentile", n_resamples=400, rng=8).bootstrap.replicates
    assert np.corrcoef(a, lin)[0, 1] > 0.6
    assert abs(np.corrcoef(a, other)[0, 1]) < 0.25


def test_cluster_and_strata_by_column_and_array():
    rng = np.random.default_rng(0)
    n = 300
    truth = rng.integers(0, 3, n)
    df = pd.DataFrame(
        {
            "a": truth,
            "b": np.where(rng.random(n) < 0.7, truth, rng.integers(0, 3, n)),
            "patient": np.repeat(np.arange(n // 3), 3),
            "site": np.repeat(["x", "y"], n // 2),
        }
    )
    ag = irr.Agreement.from_frame(df, ["a", "b"])
    plain = ag.kappa(ci="percentile", n_resamples=3000, rng=0)
    clustered = ag.kappa(ci="percentile", n_resamples=3000, rng=0, cluster="patient")
    assert clustered.bootstrap.resampling == "clusters"
    stratified = ag.kappa(ci="percentile", n_resamples=200, rng=0, strata=df["site"].to_numpy())
    assert stratified.bootstrap.resampling == "subjects within strata"
    both = ag.kappa(ci="percentile", n_resamples=200, rng=0, cluster="patient", strata="site")
    assert both.bootstrap.resampling == "clusters within strata"
    # Ratings here are independent across lesions, so clustering changes the SE little.
    assert clustered.bootstrap.se == pytest.approx(plain.bootstrap.se, rel=0.15)


def test_duplicated_subjects_as_clusters_widen_the_interval():
    rng = np.random.default_rng(2)
    a = rng.integers(0, 3, 200)
    b = np.where(rng.random(200) < 0.6, a, rng.integers(0, 3, 200))
    doubled = irr.Agreement(np.repeat(a, 2), np.repeat(b, 2))
    ids = np.repeat(np.arange(200), 2)
    naive = doubled.kappa(ci="percentile", n_resamples=4000, rng=1).bootstrap.se
    clustered = doubled.kappa(ci="percentile", n_resamples=4000, rng=1, cluster=ids).bootstrap.se
    assert clustered / naive == pytest.approx(math.sqrt(2), rel=0.08)


BAD = [
    (dict(ci="jackknife"), ValueError, r"`ci` must be one of 'wald', 'percentile', 'basic', 'bca'"),
    (dict(ci="bca", n_resamples=0), ValueError, r"`n_resamples` must be at least 1; got 0"),
    (dict(ci="bca", n_resamples=2.5), TypeError, r"`n_resamples` must be an integer; got 2.5"),
    (dict(ci="bca", rng="seed"), TypeError, r"`rng` must be None, a non-negative int seed"),
    (dict(ci="bca", cluster=[1, 2]), ValueError, r"`cluster` must have one value per subject \(6\)"),
    (dict(ci="bca", cluster="patient"), ValueError, r"`cluster`='patient' names no column"),
    (dict(ci="bca", strata=[1, 1, None, 2, 2, 2]), ValueError, r"`strata` has 1 missing value"),
]


@pytest.mark.parametrize(("options", "error", "message"), BAD)
def test_bad_bootstrap_options(options, error, message):
    ag = irr.Agreement([1, 2, 3, 1, 2, 3], [1, 2, 3, 1, 3, 3])
    with pytest.raises(error, match=message):
        ag.kappa(**options)


def test_table_agreement_cannot_cluster():
    with pytest.raises(ValueError, match=r"`cluster` needs one value per subject, but this Agreement"):
        irr.Agreement.from_table(SKIN).kappa(ci="bca", cluster=np.arange(88))


def test_percent_agreement_bootstrap_matches_a_binomial():
    ag = irr.Agreement.from_table(SKIN)
    res = ag.percent_agreement()
    boot = res.bootstrap
    p = res.estimate
    assert boot.se == pytest.approx(math.sqrt(p * (1 - p) / 88), rel=0.05)


def test_progress_bar_only_when_asked(capsys):
    ag = irr.Agreement.from_table(SKIN)
    ag.kappa(ci="percentile", n_resamples=200, rng=0, progress=True)
    shown = capsys.readouterr().err
    assert "200/200" in shown
    ag.kappa(ci="percentile", n_resamples=200, rng=0)  # auto: fast and not a terminal
    ag.fleiss_kappa(ci="percentile", n_resamples=200, rng=0, progress=False)
    assert capsys.readouterr().err == ""
    irr.Agreement.from_table(SKIN).krippendorff_alpha(n_resamples=200, rng=0, progress=True)
    assert "200/200" in capsys.readouterr().err
