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


# -- Light's kappa and the pairwise kappas at many raters ---------------------------------

@pytest.mark.parametrize("seed", range(10))
def test_light_dense_path_equals_the_co_rating_path(seed, monkeypatch):
    # the co-rating path (one entry per pair of ratings of a subject, the definition
    # pair by pair) is the independent implementation; the dense path must give the same
    # estimate, p_o, p_e, linearised variance, pairwise matrix and bootstrap replicates
    import irr.coefficients.chance_corrected as cc

    rng = np.random.default_rng(seed)
    n_patterns, m, k = int(rng.integers(3, 20)), int(rng.integers(2, 9)), int(rng.integers(2, 6))
    codes = rng.integers(0, k, (n_patterns, m))
    c = rng.integers(1, 4, n_patterns).astype(float)
    batch = rng.integers(0, 3, (4, n_patterns)).astype(float)
    linear = 1 - np.abs(np.subtract.outer(np.arange(k), np.arange(k))) / (k - 1)
    w = np.eye(k) if seed % 2 else linear
    results = []
    for threshold in (1 << 62, 0):  # never dense, always dense
        monkeypatch.setattr(cc, "DENSE_PAIR_RATINGS", threshold)
        with np.errstate(all="ignore"):
            results.append((np.array(cc.light_estimate(codes, c, w)[:4], dtype=float),
                            cc.pairwise_kappas(codes, batch, w), cc.light_kernel(codes, batch, w)))
    for by_pairs, dense in zip(*results, strict=True):
        np.testing.assert_allclose(dense, by_pairs, rtol=1e-12, atol=1e-13)


def test_light_kappa_two_kinds_of_raters_by_hand():
    # 400 raters say (1, 1, 2, 2), 400 say (1, 2, 1, 2): pairs of one kind kappa 1, pairs
    # across kinds p_o = 1/2 = p_e, kappa 0; Light = 2 C(400, 2) / C(800, 2)
    import pandas as pd

    frame = pd.DataFrame(np.repeat([[1, 1], [1, 2], [2, 1], [2, 2]], 400, axis=1),
                         columns=[f"r{j}" for j in range(800)])
    ag = irr.Agreement.from_frame(frame)
    assert ag.light_kappa().estimate == pytest.approx(159600 / 319600, abs=1e-12)
    matrix = ag.pairwise().to_numpy()
    assert matrix[0, 1] == 1.0
    assert matrix[0, 400] == pytest.approx(0.0, abs=1e-12)


def test_light_kappa_at_1200_raters_is_fast():
    # the harness's many-raters input: 1,200 raters x 30 subjects, labels 1..5; was > 6 s
    # of CPU and > 2 GB (21.6 million co-ratings); the matrix products take ~0.1 s
    rng = np.random.default_rng(15)
    truth = rng.integers(1, 6, 30)
    x = np.clip(truth[:, None] + rng.integers(-1, 2, (30, 1200)), 1, 5)
    ag = irr.Agreement(*x.T)
    start = time.process_time()
    light = ag.light_kappa()
    matrix = ag.pairwise().to_numpy()
    assert time.process_time() - start < 3.0
    # Light's kappa is the mean of the pairwise matrix's upper triangle (its definition)
    assert light.estimate == pytest.approx(matrix[np.triu_indices(1200, 1)].mean(), abs=1e-12)
    # and one pair recomputed as Cohen's kappa of two raters
    assert matrix[3, 17] == pytest.approx(irr.Agreement(x[:, 3], x[:, 17]).kappa().estimate,
                                          abs=1e-12)
