"""Issue 15, items 5 and 6 (time): the last slow cases of the resource harness.

Krippendorff's alpha bootstrap at many labels costs O(b (P + nnz)) per batch of b
resamples (P distinct unit patterns, nnz nonzero counts) for the nominal, interval and
ordinal metrics instead of O(b P k + b k^2); Light's kappa, the pairwise table and the
summary at many raters share the work of the rater pairs. The numbers are those of the
definitions: every expected value here is recomputed from the definition, unit by unit,
in the test (an independent implementation), never taken from the code under test.
"""

import pickle
import time
import warnings

import numpy as np
import pytest
from scipy import sparse

import irr
from irr.coefficients.krippendorff import alpha_kernel, coincidences


def _alpha_by_definition(patterns, multiplicity, delta):
    """Alpha from Krippendorff (2011): coincidences unit by unit, D_o / D_e with the full
    k x k matrix of squared distances `delta` (a callable of the margins for ordinal)."""
    k = patterns.shape[1]
    o = np.zeros((k, k))
    for row, times in zip(patterns, multiplicity, strict=True):
        m = row.sum()
        if m >= 2 and times:
            o += times * (np.outer(row, row) - np.diag(row)) / (m - 1)
    margins = o.sum(axis=1)
    n = margins.sum()
    d = delta(margins) if callable(delta) else delta
    expected = margins @ d @ margins
    if n < 2 or not expected > 0:
        return np.nan
    return 1 - (n - 1) * (o * d).sum() / expected


def _ordinal_delta(margins):
    t = np.cumsum(margins) - margins / 2  # Krippendorff's ordinal metric, (T_c - T_k)^2
    return (t[:, None] - t[None, :]) ** 2


@pytest.mark.parametrize("seed", range(8))
@pytest.mark.parametrize("level", ["nominal", "interval", "ordinal", "ratio"])
def test_alpha_kernel_matches_the_definition_per_resample(seed, level):
    # scores near 500 with a spread of a few units: the interval moments would cancel if
    # they were not taken around an observed score
    rng = np.random.default_rng(seed)
    n_patterns, k = int(rng.integers(2, 25)), int(rng.integers(2, 15))
    patterns = rng.integers(0, 4, (n_patterns, k)) * (rng.random((n_patterns, k)) < 0.4)
    patterns[0, :2] = [1, 1]  # at least one pairable unit with variety
    scores = np.sort(rng.normal(500, 3, k))
    batch = rng.integers(0, 4, (6, n_patterns))
    batch[0] = 1
    if level == "nominal":
        delta = 1 - np.eye(k)
    elif level == "interval":
        delta = (scores[:, None] - scores[None, :]) ** 2
    elif level == "ratio":
        delta = ((scores[:, None] - scores[None, :]) / (scores[:, None] + scores[None, :])) ** 2
    else:
        delta = _ordinal_delta
    metric = level if level != "ratio" else delta
    got = alpha_kernel(patterns, batch, metric, scores=scores if level == "interval" else None)
    as_sparse = alpha_kernel(sparse.csr_matrix(patterns), batch, metric,
                             scores=scores if level == "interval" else None)
    want = np.array([_alpha_by_definition(patterns, row, delta) for row in batch])
    np.testing.assert_allclose(got, want, rtol=1e-11, atol=1e-12)
    np.testing.assert_array_equal(got, as_sparse)


def test_alpha_kernel_one_category_resample_is_nan_not_round_off():
    # a resample whose values are all 500.1 has D_e = 0 exactly: alpha is undefined (nan);
    # moments around a mean that rounds would leave D_e ~ 1e-13 and alpha = 1
    patterns = np.array([[3.0, 0.0], [0.0, 2.0], [1.0, 1.0]])
    batch = np.array([[5, 0, 0], [1, 1, 1]])
    scores = np.array([500.1, 500.3])
    got = alpha_kernel(patterns, batch, "interval", scores=scores)
    assert np.isnan(got[0])
    delta = (scores[:, None] - scores[None, :]) ** 2
    assert got[1] == pytest.approx(_alpha_by_definition(patterns, batch[1], delta), abs=1e-12)


def test_coincidences_sparse_equal_the_unit_by_unit_sum():
    rng = np.random.default_rng(3)
    counts = rng.integers(0, 3, (40, 9)) * (rng.random((40, 9)) < 0.3)
    multiplicity = rng.integers(1, 4, 40)
    want = np.zeros((9, 9))
    for row, times in zip(counts, multiplicity, strict=True):
        m = row.sum()
        if m >= 2:  # Krippendorff (2011): o_ck = sum_u (n_uc n_uk - [c = k] n_uc) / (m_u - 1)
            want += times * (np.outer(row, row) - np.diag(row)) / (m - 1)
    np.testing.assert_allclose(coincidences(counts, multiplicity), want, rtol=1e-13, atol=1e-13)


def _many_labels():
    rng = np.random.default_rng(15)  # the harness's many-labels input
    a = np.round(rng.uniform(0, 500, 1500), 1)
    b = np.round(a + rng.normal(0, 2, a.size), 1)
    return np.column_stack([a, b])


def _alpha_of_pairs(codes, units, delta):
    """Alpha of two raters by the definition: each unit (two values c, k) adds 1 to o_ck
    and o_kc (Krippendorff 2011, m_u - 1 = 1); units are indices into `codes`, repeats
    allowed."""
    k = int(codes.max()) + 1
    o = np.zeros((k, k))
    np.add.at(o, (codes[units, 0], codes[units, 1]), 1.0)
    np.add.at(o, (codes[units, 1], codes[units, 0]), 1.0)
    margins = o.sum(axis=1)
    d = delta(margins) if callable(delta) else delta
    return 1 - (margins.sum() - 1) * (o * d).sum() / (margins @ d @ margins)


@pytest.mark.parametrize("level", ["nominal", "interval", "ordinal"])
def test_alpha_bootstrap_at_many_labels_is_fast_and_matches_the_definition(level):
    # 1,500 units, ~2,270 labels, 9,999 resamples: was 6-10 s of CPU (O(b P k) per batch)
    x = _many_labels()
    start = time.process_time()
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # an interval excluding the estimate is warned
        res = irr.krippendorff_alpha(x, level=level, rng=5)
    assert time.process_time() - start < 6.0
    labels, flat = np.unique(x, return_inverse=True)
    codes = flat.reshape(x.shape)
    delta = {"nominal": 1 - np.eye(len(labels)),
             "interval": (labels[:, None] - labels[None, :]) ** 2,
             "ordinal": _ordinal_delta}[level]
    everyone = np.arange(len(x))
    assert res.estimate == pytest.approx(_alpha_of_pairs(codes, everyone, delta), abs=1e-12)
    # resamples of units: the kernel on one pattern per unit against the definition
    patterns = np.zeros((len(x), len(labels)))
    np.add.at(patterns, (np.repeat(everyone, 2), codes.ravel()), 1.0)
    rng = np.random.default_rng(0)
    draws = rng.integers(0, len(x), (3, len(x)))
    batch = np.array([np.bincount(units, minlength=len(x)) for units in draws])
    got = alpha_kernel(patterns, batch, level, scores=labels)
    for units, value in zip(draws, got, strict=True):
        assert value == pytest.approx(_alpha_of_pairs(codes, units, delta), abs=1e-11)
    # the recipe still pickles with its sparse patterns
    again = pickle.loads(pickle.dumps(res))
    assert again.bootstrap.se == res.bootstrap.se
