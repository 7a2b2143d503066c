"""Issue 17 (alpha part): the rewritten Krippendorff bootstrap and count-pattern encoder
give the numbers of their previous forms.

The previous forms are kept here: ``_old_alpha_kernel`` is alpha_kernel as it was before
the rewrite (alpha of a (b, P) count matrix over the count patterns, pattern quantities
rebuilt per call), evaluated through the plan's generic path (fine-pattern counts mapped
to count patterns per batch); ``np.unique(axis=0)`` is the previous count-pattern encoder.
"""

from __future__ import annotations

import warnings
from functools import partial

import numpy as np
import pytest
from scipy import sparse

import irr
from irr.coefficients.krippendorff import (
    alpha_kernel,
    alpha_moments,
    alpha_of_moments,
    distance_matrix,
    distance_scale,
)
from irr.inference.bootstrap import MomentStatistic, bootstrap_counts
from irr.inference.options import InferenceOptions
from irr.inference.plan import ResamplingPlan

SEEDS = range(6)


# -- the previous kernel, verbatim but for the ordinal branch (unchanged, still the kernel's) --
def _old_alpha_kernel(patterns, batch_counts, distance, *, scores=None):
    patterns = sparse.csr_matrix(patterns, dtype=float)
    patterns.sum_duplicates()
    batch = np.atleast_2d(np.asarray(batch_counts, dtype=float))
    size, k = patterns.shape
    every_rows = np.repeat(np.arange(size), np.diff(patterns.indptr))
    every_cols, every = patterns.indices, patterns.data
    m = np.bincount(every_rows, weights=every, minlength=size)
    pairable = m >= 2
    with np.errstate(divide="ignore"):
        w = np.where(pairable, 1.0 / (m - 1.0), 0.0)
    keep = pairable[every_rows]
    rows, cols, nonzero = every_rows[keep], every_cols[keep], every[keep]
    values_t = sparse.csr_matrix((nonzero, (cols, rows)), shape=(k, size))
    margins = np.asarray(values_t @ batch.T).T
    n = margins.sum(axis=1)
    disagreement = _old_pattern_disagreement(rows, cols, nonzero, size, distance, scores)
    observed = batch @ (w * disagreement)
    if isinstance(distance, str) and distance == "nominal":
        expected = np.einsum("bc,bc->b", margins, n[:, None] - margins)
    elif isinstance(distance, str):
        shifted = scores[None, :] - scores[np.argmax(margins > 0, axis=1)][:, None]
        with np.errstate(invalid="ignore", divide="ignore"):
            mean = np.einsum("bc,bc->b", margins, shifted) / n
        deviations = shifted - mean[:, None]
        expected = 2 * n * np.einsum("bc,bc->b", margins, deviations * deviations)
    else:
        expected = np.einsum("bc,bc->b", margins @ distance, margins)
    with np.errstate(invalid="ignore", divide="ignore"):
        alpha = 1.0 - (n - 1.0) * observed / expected
    return np.where((expected > 0) & (n >= 2), alpha, np.nan)


def _old_pattern_disagreement(rows, cols, counts, size, distance, scores):
    if isinstance(distance, str):
        m = np.bincount(rows, weights=counts, minlength=size)
        if distance == "nominal":
            return np.bincount(rows, weights=counts * (m[rows] - counts), minlength=size)
        first = np.r_[True, rows[1:] != rows[:-1]][: len(rows)]
        reference = np.zeros(size)
        reference[rows[first]] = scores[cols[first]]
        shifted = scores[cols] - reference[rows]
        with np.errstate(invalid="ignore", divide="ignore"):
            mean = np.bincount(rows, weights=counts * shifted, minlength=size) / m
        deviation = shifted - mean[rows]
        spread = np.bincount(rows, weights=counts * deviation * deviation, minlength=size)
        return np.where(m > 0, 2 * m * spread, 0.0)
    counts_sparse = sparse.csr_matrix((counts, (rows, cols)), shape=(size, len(distance)))
    spread = np.asarray(counts_sparse @ distance)
    quadratic = np.bincount(rows, weights=counts * spread[rows, cols], minlength=size)
    return quadratic - np.bincount(rows, weights=counts * np.diag(distance)[cols],
                                   minlength=size)


def _old_statistic(patterns, distance, scores, batch):
    return _old_alpha_kernel(patterns, batch, distance, scores=scores)


# -- data ------------------------------------------------------------------------------------
def _ratings(seed: int, n: int, k: int, raters: int = 5, missing: float = 0.15) -> np.ndarray:
    """Units x raters on 0..k-1 (a latent value plus noise, ties and missing values)."""
    rng = np.random.default_rng(seed)
    truth = rng.integers(0, k, size=n)
    noise = rng.integers(-(k // 8) - 1, k // 8 + 2, size=(n, raters))
    x = np.clip(truth[:, None] + noise, 0, k - 1).astype(float)
    x[rng.random(x.shape) < missing] = np.nan
    return x


def _previous_replicates(ag, level, n_resamples, seed):
    """The bootstrap of alpha as drawn before the rewrite: the same plan, the old kernel
    through the generic (b, P)-count path."""
    stats = ag.statistics
    counts = stats.count_patterns
    name = level if isinstance(level, str) else "custom"
    margins = None
    if name == "ratio":
        distance = distance_matrix("ratio", stats.n_categories, stats.scores, margins)
    elif name == "custom":
        distance = np.asarray(level, dtype=float)
    else:
        distance = name
    scores = None
    if name == "interval":
        scale = distance_scale("interval", stats.scores)
        scores = stats.scores / scale if scale != 1.0 else stats.scores
    statistic = partial(_old_statistic, sparse.csr_matrix(counts.patterns), distance, scores)
    options = InferenceOptions.from_keywords(ci="bca", n_resamples=n_resamples, rng=seed)
    recipe = ResamplingPlan.for_statistics(stats).recipe(
        statistic, options, on="counts", keep=counts.patterns.sum(axis=1) >= 2)
    return recipe()


def _close(new, old):
    new, old = np.asarray(new, dtype=float), np.asarray(old, dtype=float)
    assert new.shape == old.shape
    assert np.array_equal(np.isnan(new), np.isnan(old))
    both = ~np.isnan(new)
    np.testing.assert_allclose(new[both], old[both], rtol=1e-12, atol=1e-12)


CASES = [
    # (units, categories, missing): P close to n (draws by index), few patterns
    # (multinomial draws), one category, mostly missing
    (400, 101, 0.1),
    (60, 4, 0.2),
    (50, 1, 0.1),
    (80, 6, 0.6),
]


@pytest.mark.parametrize("level", ["nominal", "interval", "ratio", "custom"])
@pytest.mark.parametrize("case", CASES)
@pytest.mark.parametrize("seed", SEEDS)
def test_alpha_bootstrap_equals_the_previous_kernel(level, case, seed):
    n, k, missing = case
    x = _ratings(seed, n, k, missing=missing) + 1.0  # ratio: positive values
    ag = irr.Agreement.from_array(x)
    kk = ag.statistics.n_categories
    if level == "custom":
        rng = np.random.default_rng(seed)
        a = rng.random((kk, kk))
        level = np.triu(a, 1) + np.triu(a, 1).T
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        res = ag.krippendorff_alpha(level, n_resamples=300, rng=seed, ci="bca")
        old = _previous_replicates(ag, level, 300, seed)
        new = res.bootstrap
        _close(new.replicates, old.replicates)
        _close(np.atleast_1d(new.estimate), np.atleast_1d(old.estimate))
        _close(new.jackknife_values, old.jackknife_values)
        np.testing.assert_array_equal(new.jackknife_weights, old.jackknife_weights)


@pytest.mark.filterwarnings("ignore::irr._columns.ContinuousScoresWarning")
@pytest.mark.parametrize("seed", SEEDS)
def test_alpha_bootstrap_in_declared_category_order(seed):
    # categories declared in reverse: the draws are made in label order (moments permuted)
    x = _ratings(seed, 300, 30)
    cats = sorted({v for v in x.ravel() if v == v}, reverse=True)
    ag = irr.Agreement.from_array(x, categories=cats)
    res = ag.krippendorff_alpha("nominal", n_resamples=200, rng=seed)
    old = _previous_replicates(ag, "nominal", 200, seed)
    _close(res.bootstrap.replicates, old.replicates)
    plain = irr.Agreement.from_array(x).krippendorff_alpha("nominal", n_resamples=200, rng=seed)
    _close(res.bootstrap.replicates, plain.bootstrap.replicates)


@pytest.mark.parametrize("distance", ["nominal", "interval", "matrix"])
@pytest.mark.parametrize("seed", SEEDS)
def test_alpha_of_moments_equals_the_previous_kernel(distance, seed):
    rng = np.random.default_rng(seed)
    k = int(rng.integers(1, 12))
    patterns = rng.integers(0, 4, size=(int(rng.integers(1, 40)), k))
    patterns[rng.random(len(patterns)) < 0.2] = 0  # empty and single-value rows
    batch = rng.integers(0, 5, size=(17, len(patterns)))
    scores = np.sort(rng.random(k) * 10)
    metric = ((scores[:, None] - scores[None, :]) ** 2 if distance == "matrix" else distance)
    old = _old_alpha_kernel(patterns, batch, metric, scores=scores)
    _close(alpha_kernel(patterns, batch, metric, scores=scores), old)
    sums = batch @ alpha_moments(patterns, metric, scores).toarray()
    _close(alpha_of_moments(sums, metric, scores), old)


def _mean_statistic():
    moments = np.array([[1.0, 0.0], [1.0, 1.0], [1.0, 2.0], [1.0, 5.0]])

    def finish(sums):
        return sums[:, 1] / sums[:, 0]

    return MomentStatistic(moments, finish), (lambda c: (c @ moments)[:, 1] / c.sum(axis=1))


@pytest.mark.parametrize("seed", SEEDS)
@pytest.mark.parametrize("design", ["multinomial", "index", "strata", "cluster"])
def test_moment_statistic_draws_what_a_plain_statistic_draws(seed, design):
    moment, plain = _mean_statistic()
    kwargs = {}
    counts = np.array([30, 50, 20, 7]) if design == "multinomial" else np.array([1, 1, 2, 1])
    if design == "strata":
        counts = np.array([3, 4, 2, 5])
        kwargs["strata"] = np.array([[1, 4, 0, 2], [2, 0, 2, 3]])
    if design == "cluster":
        counts = np.array([3, 4, 2, 5])
        kwargs["cluster"] = np.array([[1, 2, 0, 2], [2, 0, 2, 1], [0, 2, 0, 2]])
    new = bootstrap_counts(counts, moment, n_resamples=257, rng=seed, batch_size=40, **kwargs)
    old = bootstrap_counts(counts, plain, n_resamples=257, rng=seed, batch_size=40, **kwargs)
    _close(new.replicates, old.replicates)
    _close(new.jackknife_values, old.jackknife_values)


# -- count patterns: the previous encoder, np.unique(axis=0) on the dense count rows ----------
@pytest.mark.parametrize("k", [1, 3, 30, 101])
@pytest.mark.parametrize("seed", SEEDS)
def test_count_patterns_equal_np_unique_of_the_dense_rows(k, seed):
    x = _ratings(seed, 500, k, missing=0.3)
    x[:3] = np.nan  # subjects without ratings
    stats = irr.Agreement.from_array(x).statistics
    counts = stats.count_patterns
    fine = stats.patterns
    kk = stats.n_categories
    dense = np.zeros((len(fine), kk), dtype=np.int64)
    for j in range(fine.shape[1]):  # a loop over the 5 raters
        present = fine[:, j] >= 0
        np.add.at(dense, (np.flatnonzero(present), fine[present, j]), 1)
    np.testing.assert_array_equal(counts.patterns[counts.index], dense)
    np.testing.assert_array_equal(
        counts.multiplicity, np.bincount(counts.index, weights=stats.multiplicity,
                                         minlength=counts.size).astype(np.int64))
    if kk * np.log2(stats.n_raters + 1) >= 62:  # the lexicographic branch: np.unique's order
        rows, inverse = np.unique(dense, axis=0, return_inverse=True)
        np.testing.assert_array_equal(counts.patterns, rows)
        np.testing.assert_array_equal(counts.index, inverse.reshape(-1))
