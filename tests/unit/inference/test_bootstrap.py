"""Tests of the pattern-count bootstrap engine (irr.inference.bootstrap)."""

from __future__ import annotations

import re
import warnings

import numpy as np
import pytest
from scipy import stats

from irr import DegenerateDataWarning
from irr.inference.bootstrap import (
    BootstrapDistribution,
    bootstrap_counts,
    group_pattern_counts,
)

K = 3
# a 3 x 3 agreement table of 100 subjects (rows: rater A, columns: rater B)
TABLE = np.array([[20, 5, 3], [4, 25, 6], [2, 5, 30]])
COUNTS = TABLE.ravel()


def kappa_counts(counts: np.ndarray) -> np.ndarray:
    """Unweighted Cohen's kappa of (b, K*K) table counts, vectorised over rows."""
    t = np.asarray(counts, dtype=float).reshape(-1, K, K)
    n = t.sum(axis=(1, 2))
    po = np.trace(t, axis1=1, axis2=2) / n
    pe = np.sum(t.sum(axis=2) * t.sum(axis=1), axis=1) / n**2
    with np.errstate(divide="ignore", invalid="ignore"):
        return (po - pe) / (1.0 - pe)


def kappa_codes(codes: np.ndarray, axis: int = -1) -> np.ndarray:
    """The same kappa from per-subject cell codes (0 .. K*K-1), as scipy's statistic."""
    codes = np.moveaxis(np.asarray(codes), axis, -1)
    counts = np.sum(codes[..., None] == np.arange(K * K), axis=-2)
    return kappa_counts(counts.reshape(-1, K * K)).reshape(codes.shape[:-1])


def mean01(counts: np.ndarray) -> np.ndarray:
    """Share of pattern 1 among patterns (0, 1)."""
    return counts[:, 1] / counts.sum(axis=1)


def expand(counts: np.ndarray) -> np.ndarray:
    """Per-subject pattern codes of a count vector."""
    return np.repeat(np.arange(counts.size), counts)


# --------------------------------------------------------------------------------------------
# agreement with scipy.stats.bootstrap and with index resampling
# --------------------------------------------------------------------------------------------


@pytest.mark.parametrize("method", ["percentile", "basic", "bca"])
def test_intervals_match_scipy(method):
    b = 40_000
    ours = bootstrap_counts(COUNTS, kappa_counts, n_resamples=b, rng=1)
    ref = stats.bootstrap(
        (expand(COUNTS),),
        kappa_codes,
        vectorized=True,
        n_resamples=b,
        method=method,
        confidence_level=0.95,
        rng=2,
    )
    lo, hi = ours.interval(0.95, method=method)
    # The Monte-Carlo SE of a 2.5% quantile from B draws is sqrt(p(1-p)/B)/f(x_p), about
    # 0.013 sd for B = 40000 and a normal-shaped distribution; the difference of two
    # independent runs has SE about 0.019 sd (a little more for BCa, whose z0 is estimated
    # too). 0.1 sd is five of those SEs.
    tol = 0.1 * ref.standard_error
    assert lo == pytest.approx(ref.confidence_interval.low, abs=tol)
    assert hi == pytest.approx(ref.confidence_interval.high, abs=tol)
    # the SE of a bootstrap SE is about sd / sqrt(2B): 0.4% here; allow 3%
    assert ours.se == pytest.approx(ref.standard_error, rel=0.03)
    assert float(ours.estimate) == pytest.approx(float(kappa_codes(expand(COUNTS))), abs=1e-14)


def test_bca_acceleration_matches_scipy_definition():
    # scipy's a_hat from the full leave-one-subject-out jackknife on the expanded data
    codes = expand(COUNTS)
    n = codes.size
    loo = np.array([kappa_codes(np.delete(codes, i)) for i in range(n)])
    u = (n - 1) * (loo.mean() - loo)
    a_scipy = np.sum(u**3) / n**3 / (6 * (np.sum(u**2) / n**2) ** 1.5)
    ours = bootstrap_counts(COUNTS, kappa_counts, n_resamples=10, rng=0)
    assert float(ours.acceleration) == pytest.approx(a_scipy, rel=1e-10, abs=1e-14)


def test_replicates_match_index_resampling_loop():
    codes = expand(COUNTS)
    n = codes.size
    b = 5000
    rng = np.random.default_rng(3)
    loop = np.empty(b)
    for r in range(b):  # explicit per-subject index resampling
        loop[r] = kappa_codes(codes[rng.integers(0, n, size=n)])
    ours = bootstrap_counts(COUNTS, kappa_counts, n_resamples=b, rng=4).replicates
    assert stats.ks_2samp(ours, loop).pvalue > 0.001
    sd = loop.std(ddof=1)
    # MC SE of a mean difference: sd * sqrt(2 / B) = 0.02 sd; of an sd ratio: sqrt(1 / B) = 1.4%
    assert ours.mean() == pytest.approx(loop.mean(), abs=5 * sd * np.sqrt(2 / b))
    assert ours.std(ddof=1) == pytest.approx(sd, rel=5 * np.sqrt(1 / b))


def test_all_distinct_subjects_is_index_resampling():
    # P == n: continuous ratings, each subject its own pattern
    x = np.random.default_rng(5).normal(size=60)

    def mean_x(counts):
        return counts @ x / counts.sum(axis=1)

    b = 4000
    ours = bootstrap_counts(np.ones(60, dtype=int), mean_x, n_resamples=b, rng=6, batch_size=64)
    idx = np.random.default_rng(7).integers(0, 60, size=(b, 60))
    ref = x[idx].mean(axis=1)
    assert stats.ks_2samp(ours.replicates, ref).pvalue > 0.001
    assert float(ours.se) == pytest.approx(x.std(ddof=0) / np.sqrt(60), rel=0.06)


# --------------------------------------------------------------------------------------------
# reproducibility
# --------------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "design",
    [
        {},
        {"strata": np.array([[10, 5, 3, 4, 0, 6, 2, 5, 0], [10, 0, 0, 0, 25, 0, 0, 0, 30]])},
        {"cluster": np.eye(9, dtype=int).repeat(COUNTS, axis=0)[::2] * 2},
    ],
    ids=["plain", "strata", "cluster"],
)
def test_batch_size_does_not_change_results(design):
    counts = COUNTS.copy()
    if "cluster" in design:
        counts = design["cluster"].sum(axis=0)
    b = 2000
    runs = [
        bootstrap_counts(counts, kappa_counts, n_resamples=b, rng=11, batch_size=size, **design)
        for size in (1, 7, 1000, b, None)
    ]
    for run in runs[1:]:
        np.testing.assert_array_equal(run.replicates, runs[0].replicates)
        for method in ("percentile", "basic", "bca"):
            assert run.interval(0.9, method) == runs[0].interval(0.9, method)
    assert runs[0].replicates.std() > 0.01


X = np.random.default_rng(8).normal(size=40)


def mean_x(counts: np.ndarray) -> np.ndarray:
    """Mean of the 40 distinct values X, one subject per pattern.

    A row-wise sum rather than ``counts @ X``: BLAS may round a matrix product differently
    for different batch shapes (1 ulp), which would blur the bit-identity tests.
    """
    return np.sum(counts * X, axis=1) / counts.sum(axis=1)


@pytest.mark.parametrize(
    "design",
    [
        {},
        {"strata": np.eye(2, dtype=int).repeat([15, 25], axis=0).T},
        {
            "cluster": np.eye(40, dtype=int)[np.arange(40) // 2 * 2]
            + np.eye(40, dtype=int)[1::2].repeat(2, axis=0)
        },
        {
            "cluster": np.eye(20, 40, dtype=int) + np.eye(20, 40, 20, dtype=int),
            "strata": np.arange(20) % 3,
        },
    ],
    ids=["plain", "strata", "cluster", "cluster-strata"],
)
def test_batch_size_does_not_change_index_draws(design):
    # all subjects distinct: units are drawn by index instead of by multinomial counts
    if "cluster" in design:
        design["cluster"] = np.unique(design["cluster"], axis=0)
    b = 300
    runs = [
        bootstrap_counts(
            np.ones(40, dtype=int), mean_x, n_resamples=b, rng=5, batch_size=size, **design
        )
        for size in (1, 7, 1000, b, None)
    ]
    for run in runs[1:]:
        np.testing.assert_array_equal(run.replicates, runs[0].replicates)
        assert run.interval(0.9, "bca") == runs[0].interval(0.9, "bca")
    assert runs[0].replicates.std() > 0.05


def test_index_draws_keep_strata_and_match_singleton_clusters():
    strata = np.eye(2, dtype=int).repeat([15, 25], axis=0).T  # subjects 0-14 | 15-39

    def first_stratum_size(counts):
        return counts[:, :15].sum(axis=1)

    dist = bootstrap_counts(
        np.ones(40, dtype=int), first_stratum_size, n_resamples=200, rng=0, strata=strata
    )
    np.testing.assert_array_equal(dist.replicates, 15.0)
    b = 20_000
    plain = bootstrap_counts(np.ones(40, dtype=int), mean_x, n_resamples=b, rng=1)
    clustered = bootstrap_counts(
        np.ones(40, dtype=int), mean_x, n_resamples=b, rng=2, cluster=np.eye(40, dtype=int)
    )
    assert stats.ks_2samp(plain.replicates, clustered.replicates).pvalue > 0.001
    # sd of the mean of 40 values: population sd / sqrt(40); MC error of a bootstrap sd ~0.5%
    assert float(plain.se) == pytest.approx(X.std() / np.sqrt(40), rel=0.03)
    assert float(clustered.se) == pytest.approx(X.std() / np.sqrt(40), rel=0.03)


def test_same_seed_same_result_and_generator_accepted():
    a = bootstrap_counts(COUNTS, kappa_counts, n_resamples=300, rng=42)
    b = bootstrap_counts(COUNTS, kappa_counts, n_resamples=300, rng=np.random.default_rng(42))
    c = bootstrap_counts(COUNTS, kappa_counts, n_resamples=300, rng=43)
    np.testing.assert_array_equal(a.replicates, b.replicates)
    assert not np.array_equal(a.replicates, c.replicates)


# --------------------------------------------------------------------------------------------
# cluster and strata
# --------------------------------------------------------------------------------------------


def test_singleton_clusters_reproduce_plain_bootstrap():
    codes = expand(COUNTS)
    labels, by_cluster = group_pattern_counts(codes, np.arange(codes.size), n_patterns=9)
    assert by_cluster.shape == (100, 9)
    np.testing.assert_array_equal(labels, np.arange(100))
    b = 20_000
    clustered = bootstrap_counts(COUNTS, kappa_counts, n_resamples=b, rng=1, cluster=by_cluster)
    plain = bootstrap_counts(COUNTS, kappa_counts, n_resamples=b, rng=2)
    assert clustered.resampling == "clusters"
    assert stats.ks_2samp(clustered.replicates, plain.replicates).pvalue > 0.001
    # sd of a bootstrap sd from B draws: about sd / sqrt(2B) = 0.5%
    assert float(clustered.se) == pytest.approx(float(plain.se), rel=0.03)
    # leave-one-cluster-out with singleton clusters is leave-one-subject-out
    assert float(clustered.acceleration) == pytest.approx(float(plain.acceleration), abs=1e-14)


def test_duplicated_subjects_as_clusters_widen_interval_by_sqrt2():
    counts2 = 2 * COUNTS  # each subject duplicated
    cluster = np.eye(9, dtype=int).repeat(COUNTS, axis=0) * 2  # the two copies form a cluster
    b = 20_000
    clustered = bootstrap_counts(counts2, kappa_counts, n_resamples=b, rng=1, cluster=cluster)
    naive = bootstrap_counts(counts2, kappa_counts, n_resamples=b, rng=2)
    width_c = np.subtract(*clustered.interval()[::-1])
    width_n = np.subtract(*naive.interval()[::-1])
    # ratio of two bootstrap widths at B = 20000 has MC error ~1-2%; kappa's finite-n
    # nonlinearity moves it a little too
    assert width_c / width_n == pytest.approx(np.sqrt(2), rel=0.05)
    assert float(clustered.se / naive.se) == pytest.approx(np.sqrt(2), rel=0.05)


def test_cluster_rows_vary_and_cluster_multiplicities_are_merged():
    cluster = np.array([[2, 1, 0], [2, 1, 0], [0, 0, 3], [1, 0, 0]])
    seen = []

    def total(counts):
        seen.append(counts.sum(axis=1))
        return counts[:, 2] / counts.sum(axis=1)

    dist = bootstrap_counts(cluster.sum(axis=0), total, n_resamples=500, rng=0, cluster=cluster)
    totals = np.concatenate(seen[1:])  # skip the estimate; the jackknife runs lazily
    # four clusters are drawn; every total is a sum of 4 cluster sizes from {3, 3, 3, 1}
    assert set(np.unique(totals)) <= {4.0, 6.0, 8.0, 10.0, 12.0}
    assert len(np.unique(totals)) >= 3
    # jackknife (computed on first use): one row per distinct cluster, weighted by multiplicity
    np.testing.assert_array_equal(np.sort(dist.jackknife_weights), [1.0, 1.0, 2.0])
    assert len(seen) == 3  # estimate, one batch of 500 resamples, one jackknife batch
    assert dist.jackknife_values.shape == (3,)
    assert len(seen) == 3  # cached


def test_strata_totals_fixed():
    # stratum 0 uses patterns 0-2, stratum 1 patterns 2-4 (pattern 2 shared)
    strata = np.array([[5, 8, 3, 0, 0], [0, 0, 4, 6, 9]])
    counts = strata.sum(axis=0)

    def parts(counts):
        return np.column_stack(
            [counts[:, :2].sum(axis=1), counts[:, 3:].sum(axis=1), counts.sum(axis=1), counts[:, 2]]
        )

    dist = bootstrap_counts(counts, parts, n_resamples=3000, rng=0, strata=strata)
    reps = dist.replicates
    assert dist.resampling == "subjects within strata"
    assert np.all(reps[:, 2] == 35)
    # patterns 0, 1 come only from stratum 0 (16 subjects), patterns 3, 4 only from
    # stratum 1 (19): with fixed stratum sizes they never exceed those totals
    assert reps[:, 0].max() <= 16
    assert reps[:, 1].max() <= 19
    assert reps[:, 0].min() < 14
    assert reps[:, 1].min() < 17
    # pattern 2 has expectation 16 * 3/16 + 19 * 4/19 = 7
    assert reps[:, 3].mean() == pytest.approx(7, abs=0.2)
    assert dist.se[2] == 0.0


def test_strata_disjoint_totals_exactly_fixed():
    strata = np.array([[10, 20, 0, 0], [0, 0, 30, 40]])

    def first_stratum_total(counts):
        return counts[:, 0] + counts[:, 1]

    dist = bootstrap_counts(
        strata.sum(axis=0), first_stratum_total, n_resamples=500, rng=1, strata=strata
    )
    np.testing.assert_array_equal(dist.replicates, 30.0)
    plain = bootstrap_counts(strata.sum(axis=0), first_stratum_total, n_resamples=500, rng=1)
    assert plain.se > 2.0  # binomial sd sqrt(100 * 0.3 * 0.7) = 4.6


def test_clusters_within_strata():
    cluster = np.array([[1, 0], [2, 1], [0, 3], [1, 1], [0, 2]])
    strata = np.array(["a", "a", "b", "b", "b"])

    def first_total(counts):
        return counts.sum(axis=1)

    dist = bootstrap_counts(
        cluster.sum(axis=0), first_total, n_resamples=400, rng=3, cluster=cluster, strata=strata
    )
    assert dist.resampling == "clusters within strata"
    # stratum a: 2 clusters of sizes {1, 3}; stratum b: 3 clusters of sizes {3, 2, 2}
    assert set(np.unique(dist.replicates)) <= {a + b for a in (2, 4, 6) for b in (6, 7, 8, 9)}


def test_group_pattern_counts():
    codes = np.array([0, 2, 2, 1, 0, 2])
    labels, counts = group_pattern_counts(codes, [7, 3, 7, 3, 3, 9], n_patterns=4)
    np.testing.assert_array_equal(labels, [3, 7, 9])
    np.testing.assert_array_equal(counts, [[1, 1, 1, 0], [1, 0, 1, 0], [0, 0, 1, 0]])


# --------------------------------------------------------------------------------------------
# jackknife, degenerate and undefined cases
# --------------------------------------------------------------------------------------------


def test_jackknife_by_pattern_equals_naive_jackknife():
    table = np.array([3, 1, 0, 2, 4, 1, 0, 1, 5])
    codes = expand(table)
    naive = np.array([kappa_codes(np.delete(codes, i)) for i in range(codes.size)])
    dist = bootstrap_counts(table, kappa_counts, n_resamples=5, rng=0)
    expanded = np.repeat(dist.jackknife_values, dist.jackknife_weights.astype(int))
    np.testing.assert_allclose(np.sort(expanded), np.sort(naive), rtol=0, atol=1e-12)
    d = naive.mean() - naive
    a_naive = np.sum(d**3) / (6 * np.sum(d**2) ** 1.5)
    assert float(dist.acceleration) == pytest.approx(a_naive, abs=1e-12)


def test_all_replicates_equal_give_no_interval_with_a_warning():
    # issue 14 C15: a zero-width interval is no 95% interval
    dist = bootstrap_counts([0, 50], mean01, n_resamples=200, rng=0)
    for method in ("percentile", "basic", "bca"):
        with pytest.warns(DegenerateDataWarning, match="all 200 defined bootstrap replicates"):
            lo, hi = dist.interval(0.95, method)
        assert np.isnan(lo)
        assert np.isnan(hi)
    assert dist.se == 0.0


def test_bca_infinite_z0_is_nan_with_warning():
    counts = np.array([5000, 5000])

    def squared_deviation(c):
        return (mean01(c) - 0.5) ** 2

    dist = bootstrap_counts(counts, squared_deviation, n_resamples=50, rng=0)
    assert float(dist.estimate) == 0.0
    assert np.all(dist.replicates > 0)  # no resample hits exactly 5000 / 5000
    with pytest.warns(DegenerateDataWarning, match=r"all 50 defined replicates lie above"):
        lo, hi = dist.interval(0.95, "bca")
    assert np.isnan(lo)
    assert np.isnan(hi)
    with pytest.warns(DegenerateDataWarning, match="excludes the estimate 0"):
        lo, hi = dist.interval(0.95, "percentile")
    assert 0 < lo < hi


def test_undefined_replicates_are_omitted_and_counted():
    def undefined_when_no_zero(c):
        p = mean01(c)
        return np.where(p == 1.0, np.nan, p)

    with pytest.warns(DegenerateDataWarning, match=r"are undefined \(nan or inf\)"):
        dist = bootstrap_counts([2, 48], undefined_when_no_zero, n_resamples=2000, rng=0)
    # P(no zero among 50 draws) = 0.96**50 = 0.13
    assert 180 < dist.n_undefined < 340
    assert dist.undefined_policy == "omit"
    defined = dist.replicates[np.isfinite(dist.replicates)]
    assert dist.n_undefined == 2000 - defined.size
    assert dist.interval(0.9) == tuple(np.quantile(defined, [0.05, 0.95]))
    assert float(dist.se) == pytest.approx(defined.std(ddof=1), rel=1e-12)


def test_few_undefined_replicates_do_not_warn():
    def undefined_rarely(c):
        p = mean01(c)
        return np.where(p == 1.0, np.inf, p)

    with warnings.catch_warnings():
        warnings.simplefilter("error")
        dist = bootstrap_counts([6, 294], undefined_rarely, n_resamples=1000, rng=0)
    # P(no zero among 300 draws) = 0.98**300 = 0.0023: about 2 of 1000, below the 1% warning
    assert 0 < dist.n_undefined <= 10
    assert dist.n_undefined == np.sum(dist.replicates == np.inf)
    finite = dist.replicates[np.isfinite(dist.replicates)]
    assert dist.interval(0.95) == tuple(np.quantile(finite, [0.025, 0.975]))


def test_multiple_statistics_shape_and_paired_difference():
    def two(c):
        k = kappa_counts(c)
        po = np.trace(c.reshape(-1, K, K), axis1=1, axis2=2) / c.sum(axis=1)
        return np.column_stack([k, po, po - k])

    dist = bootstrap_counts(COUNTS, two, n_resamples=3000, rng=0)
    assert dist.replicates.shape == (3000, 3)
    assert dist.estimate.shape == (3,)
    lo, hi = dist.interval(0.95, "bca")
    assert lo.shape == hi.shape == (3,)
    assert np.all(lo < dist.estimate)
    assert np.all(dist.estimate < hi)
    np.testing.assert_array_equal(dist.n_undefined, [0, 0, 0])
    assert dist.se.shape == (3,)
    # the difference's interval comes from paired replicates
    np.testing.assert_allclose(dist.replicates[:, 2], dist.replicates[:, 1] - dist.replicates[:, 0])


def test_basic_is_reflected_percentile():
    dist = bootstrap_counts(COUNTS, kappa_counts, n_resamples=1000, rng=0)
    plo, phi = dist.interval(0.8, "percentile")
    blo, bhi = dist.interval(0.8, "basic")
    theta = float(dist.estimate)
    assert blo == pytest.approx(2 * theta - phi, abs=1e-15)
    assert bhi == pytest.approx(2 * theta - plo, abs=1e-15)
    assert isinstance(dist, BootstrapDistribution)


def test_progress_false_and_true(capsys):
    bootstrap_counts(COUNTS, kappa_counts, n_resamples=50, rng=0, batch_size=10, progress=False)
    assert capsys.readouterr().err == ""
    pytest.importorskip("tqdm")
    bootstrap_counts(COUNTS, kappa_counts, n_resamples=50, rng=0, batch_size=10, progress=True)
    assert "50/50" in capsys.readouterr().err


# --------------------------------------------------------------------------------------------
# bad arguments
# --------------------------------------------------------------------------------------------

BAD = [
    ({"pattern_counts": [3, -1]}, ValueError, "`pattern_counts` must be non-negative"),
    ({"pattern_counts": [3, 1.5]}, ValueError, "`pattern_counts` must hold integer counts"),
    ({"pattern_counts": [0, 0]}, ValueError, "`pattern_counts` must not be all zero"),
    ({"pattern_counts": [3, np.nan]}, ValueError, "`pattern_counts` must be finite"),
    ({"pattern_counts": [[3, 1]]}, ValueError, "`pattern_counts` must be a 1-D array"),
    ({"pattern_counts": ["a", "b"]}, TypeError, "`pattern_counts` must be an array of non-neg"),
    ({"pattern_counts": []}, ValueError, "`pattern_counts` must not be empty"),
    ({"statistic": "mean"}, TypeError, "`statistic` must be callable; got 'mean'"),
    ({"n_resamples": 0}, ValueError, "`n_resamples` must be at least 1; got 0"),
    ({"n_resamples": 2.5}, TypeError, "`n_resamples` must be an integer; got 2.5"),
    ({"n_resamples": "10"}, TypeError, "`n_resamples` must be an integer; got '10'"),
    ({"rng": "seed"}, TypeError, "`rng` must be None, a non-negative int seed or a numpy"),
    ({"rng": -1}, ValueError, "`rng` seed must be non-negative; got -1"),
    ({"batch_size": 0}, ValueError, "`batch_size` must be at least 1; got 0"),
    ({"progress": "yes"}, TypeError, "`progress` must be True, False or None; got 'yes'"),
    ({"cluster": [1, 1, 1, 1]}, ValueError, "`cluster` must be a 2-D array"),
    ({"cluster": [[1, 1, 1], [2, 0, 0]]}, ValueError, "`cluster` must have one column per pattern"),
    ({"cluster": [[1, 1], [1, 0]]}, ValueError, "The columns of `cluster` must sum to"),
    ({"cluster": [[3, 1], [-1, 1]]}, ValueError, "`cluster` must be non-negative"),
    ({"strata": [[3, 3]]}, ValueError, "The columns of `strata` must sum to `pattern_counts`"),
    (
        {"cluster": [[3, 0], [0, 2]], "strata": [0, 0, 1]},
        ValueError,
        "With `cluster`, `strata` must hold one stratum label per cluster, shape (2,)",
    ),
    ({"statistic": lambda c: c[..., None]}, ValueError, "`statistic` must return an array of"),
    ({"statistic": lambda c: c[0]}, ValueError, "`statistic` must return an array of shape"),
]


@pytest.mark.parametrize(("kwargs", "error", "message"), BAD)
def test_bad_arguments(kwargs, error, message):
    args = {"pattern_counts": [3, 2], "statistic": mean01, "n_resamples": 20, "rng": 0}
    args.update(kwargs)
    with pytest.raises(error, match=re.escape(message)):
        bootstrap_counts(**args)


BAD_INTERVAL = [
    ({"confidence_level": 1.5}, ValueError, "`confidence_level` must be in (0, 1); got 1.5"),
    ({"confidence_level": 0}, ValueError, "`confidence_level` must be in (0, 1); got 0"),
    ({"confidence_level": "95%"}, TypeError, "`confidence_level` must be a real number"),
    ({"method": "bc"}, ValueError, "`method` must be one of 'percentile', 'basic', 'bca'; got"),
]


@pytest.mark.parametrize(("kwargs", "error", "message"), BAD_INTERVAL)
def test_bad_interval_arguments(kwargs, error, message):
    dist = bootstrap_counts([3, 2], mean01, n_resamples=20, rng=0)
    with pytest.raises(error, match=re.escape(message)):
        dist.interval(**kwargs)


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (([0, 1], [1]), "`groups` must have one label per subject, shape (2,); got shape (1,)"),
        (([0, 1.5], [1, 2]), "`pattern_codes` must be a 1-D array of integer codes"),
        (([0, 5], [1, 2]), "`pattern_codes` must lie in 0 .. 3; got values from 0 to 5"),
    ],
)
def test_bad_group_pattern_counts(args, message):
    with pytest.raises(ValueError, match=re.escape(message)):
        group_pattern_counts(*args, n_patterns=4 if args[0] == [0, 5] else None)


# --------------------------------------------------------------------------------------------
# coverage (slow)
# --------------------------------------------------------------------------------------------

# population joint distribution of two raters' 3 categories
PI = np.array([[0.25, 0.05, 0.02], [0.06, 0.20, 0.06], [0.02, 0.06, 0.28]])


def population_kappa(pi: np.ndarray) -> float:
    po = np.trace(pi)
    pe = pi.sum(axis=1) @ pi.sum(axis=0)
    return float((po - pe) / (1 - pe))


@pytest.mark.slow
@pytest.mark.parametrize("n", [50, 500])
def test_coverage_of_percentile_and_bca(n):
    reps = 2000
    kappa = population_kappa(PI)
    rng = np.random.default_rng(2024 + n)
    tables = rng.multinomial(n, PI.ravel(), size=reps)  # all replications at once
    hits = {"percentile": 0, "bca": 0}
    for table in tables:  # one engine call per simulated data set, B = 999 resamples each
        dist = bootstrap_counts(table, kappa_counts, n_resamples=999, rng=rng)
        for method in hits:
            lo, hi = dist.interval(0.95, method)
            hits[method] += bool(lo <= kappa <= hi)
    coverage = {m: h / reps for m, h in hits.items()}
    print(f"n={n} population kappa={kappa:.4f} coverage={coverage}")
    # MC SE of a coverage estimate at 95% from 2000 replications: 0.5%
    for value in coverage.values():
        assert 0.93 <= value <= 0.97
