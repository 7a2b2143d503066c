"""Unit tests for the threshold rules in irr.ordinal."""

from __future__ import annotations

import itertools

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from sklearn.metrics import cohen_kappa_score

from irr.ordinal import apply_thresholds, distribution_thresholds, optimize_thresholds

SKLEARN_WEIGHTS = {"linear": "linear", "quadratic": "quadratic", None: None}


def kappa(y, labels_pred, weights):
    # labels are consecutive integers, so sklearn's index-based weights equal value-based ones
    labels = np.unique(y)
    return cohen_kappa_score(y, labels_pred, labels=labels, weights=SKLEARN_WEIGHTS[weights])


def random_problem(seed, n=150, k=5, ties=False):
    rng = np.random.default_rng(seed)
    y = rng.integers(0, k, size=n)
    pred = 0.6 * y + rng.normal(scale=1.0, size=n)
    if ties:
        pred = np.round(pred, 1)
    return y, pred


@pytest.mark.parametrize("weights", ["quadratic", "linear", None])
@pytest.mark.parametrize("seed", range(8))
@pytest.mark.parametrize("ties", [False, True])
def test_optimize_never_worse_than_distribution_start(weights, seed, ties):
    y, pred = random_problem(seed, ties=ties)
    labels = np.unique(y)
    start = distribution_thresholds(pred, y)
    best = optimize_thresholds(y, pred, weights=weights)
    k_start = kappa(y, apply_thresholds(pred, start, labels), weights)
    k_best = kappa(y, apply_thresholds(pred, best, labels), weights)
    assert k_best >= k_start - 1e-12
    assert np.all(best[1:] >= best[:-1])


@settings(max_examples=60, deadline=None)
@given(st.integers(0, 2**32 - 1), st.integers(10, 80), st.integers(2, 6))
def test_optimize_never_worse_than_any_start(seed, n, k):
    rng = np.random.default_rng(seed)
    y = rng.integers(0, k, size=n)
    pred = np.round(y + rng.normal(scale=1.5, size=n), 1)
    labels = np.unique(y)
    start = np.sort(rng.normal(loc=k / 2, scale=k, size=labels.size - 1))
    best = optimize_thresholds(y, pred, initial=start)
    if labels.size < 2:
        assert best.size == 0
        return
    assert kappa(y, apply_thresholds(pred, best, labels), "quadratic") >= (
        kappa(y, apply_thresholds(pred, start, labels), "quadratic") - 1e-12
    )


def test_optimize_is_coordinatewise_optimal_and_improves():
    y, pred = random_problem(3, n=60, k=4)
    labels = np.unique(y)
    best = optimize_thresholds(y, pred)
    k_best = kappa(y, apply_thresholds(pred, best, labels), "quadratic")
    k_start = kappa(
        y, apply_thresholds(pred, distribution_thresholds(pred, y), labels), "quadratic"
    )
    assert k_best > k_start + 1e-3  # a real improvement on this data set
    candidates = np.concatenate(([-np.inf], (np.sort(pred)[1:] + np.sort(pred)[:-1]) / 2, [np.inf]))
    for j, c in itertools.product(range(best.size), candidates):
        trial = best.copy()
        trial[j] = c
        if np.all(trial[1:] >= trial[:-1]):
            assert kappa(y, apply_thresholds(pred, trial, labels), "quadratic") <= k_best + 1e-12


def test_optimize_doc_example_value():
    y = np.array([0, 0, 1, 1, 1, 2, 2, 3])
    pred = np.array([0.1, 0.8, 0.7, 1.2, 1.9, 1.7, 2.6, 2.4])
    cuts = optimize_thresholds(y, pred)
    np.testing.assert_allclose(cuts, [1.0, 1.45, 2.15], rtol=1e-15)
    assert kappa(y, apply_thresholds(pred, cuts, np.unique(y)), "quadratic") == pytest.approx(
        11 / 13, abs=1e-14
    )


def test_optimize_returns_initial_unchanged_when_already_optimal():
    y = np.array([1, 1, 2, 2, 3, 3])
    pred = np.array([1.0, 1.1, 2.0, 2.1, 3.0, 3.1])
    initial = np.array([1.7, 2.4])
    np.testing.assert_array_equal(optimize_thresholds(y, pred, initial=initial), initial)


def test_optimize_with_string_labels_uses_positions():
    y = np.array(["a_low", "b_mid", "c_high", "b_mid", "a_low", "c_high"])
    pred = np.array([0.1, 1.2, 2.3, 0.9, 0.2, 1.9])
    cuts = optimize_thresholds(y, pred, weights="linear")
    out = apply_thresholds(pred, cuts, np.unique(y))
    np.testing.assert_array_equal(out, y)


def test_optimize_single_label_returns_no_cuts():
    assert optimize_thresholds([2, 2, 2], [0.1, 0.5, 0.3]).shape == (0,)


@settings(max_examples=100, deadline=None)
@given(st.lists(st.floats(-1e6, 1e6), min_size=1, max_size=50), st.integers(0, 2**32 - 1))
def test_apply_thresholds_is_monotone(values, seed):
    rng = np.random.default_rng(seed)
    pred = np.sort(np.array(values))
    cuts = np.sort(rng.normal(scale=1e3, size=4))
    labels = np.array([10, 20, 30, 40, 50])
    out = apply_thresholds(pred, cuts, labels)
    assert np.all(np.diff(out) >= 0)
    # and it agrees with the definition: class index = number of cut points strictly below
    np.testing.assert_array_equal(out, labels[(cuts[None, :] < pred[:, None]).sum(axis=1)])


def test_apply_thresholds_tie_goes_to_lower_class_and_inf_cuts():
    out = apply_thresholds([1.0, 1.5, 1.5000001, 2.5, 9.0], [1.5, 2.5], ["lo", "mid", "hi"])
    assert out.tolist() == ["lo", "lo", "mid", "mid", "hi"]
    out = apply_thresholds([0.0, 5.0], [-np.inf, np.inf], [1, 2, 3])
    assert out.tolist() == [2, 2]
    out = apply_thresholds([0.0, 1.0, 2.0], [1.0, 1.0], [1, 2, 3])  # equal cuts: empty class
    assert out.tolist() == [1, 1, 3]


@pytest.mark.parametrize("seed", range(5))
def test_distribution_thresholds_reproduces_reference_counts(seed):
    rng = np.random.default_rng(seed)
    reference = rng.choice([0, 1, 2, 3, 4], size=200, p=[0.1, 0.2, 0.4, 0.2, 0.1])
    pred = rng.normal(size=200)  # continuous: no ties
    cuts = distribution_thresholds(pred, reference)
    out = apply_thresholds(pred, cuts, np.unique(reference))
    np.testing.assert_array_equal(np.bincount(out, minlength=5), np.bincount(reference))


def test_distribution_thresholds_scales_counts_to_prediction_length():
    reference = np.repeat([1, 2, 3], [25, 50, 25])  # 25% / 50% / 25%
    pred = np.arange(10.0)  # 10 predictions: cumulative counts rint(2.5)=2, rint(7.5)=8
    cuts = distribution_thresholds(pred, reference)
    np.testing.assert_array_equal(cuts, [1.5, 7.5])
    assert np.bincount(apply_thresholds(pred, cuts, [1, 2, 3]))[1:].tolist() == [2, 6, 2]


def test_distribution_thresholds_edge_counts_give_infinite_cuts():
    reference = np.repeat([0, 1, 2], [1, 98, 1])
    cuts = distribution_thresholds([0.5, 0.7, 0.2], reference)  # rint(0.03)=0, rint(2.97)=3
    np.testing.assert_array_equal(cuts, [-np.inf, np.inf])


def test_distribution_thresholds_follow_the_blog_rule_on_ties():
    cuts = distribution_thresholds([1.0, 1.0, 1.0, 2.0], [0, 0, 1, 1])
    np.testing.assert_array_equal(cuts, [1.0])  # tied predictions share a label
    assert apply_thresholds([1.0, 1.0, 1.0, 2.0], cuts, [0, 1]).tolist() == [0, 0, 0, 1]


BAD = [
    (
        apply_thresholds,
        ([1.0, 2.0], [2.0, 1.0], [0, 1, 2]),
        ValueError,
        r"`thresholds` must be non-decreasing; got 2.0 followed by 1.0 at positions 0 and 1",
    ),
    (
        apply_thresholds,
        ([1.0, 2.0], [1.0, np.nan], [0, 1, 2]),
        ValueError,
        r"`thresholds` must not contain nan",
    ),
    (
        apply_thresholds,
        ([1.0, 2.0], [1.0], [0, 1, 2]),
        ValueError,
        r"`thresholds` must have one fewer element than there are labels \(2\); got 1",
    ),
    (
        apply_thresholds,
        ([1.0, 2.0], [[1.0, 2.0]], [0, 1, 2]),
        ValueError,
        r"`thresholds` must be 1-D; got an array of shape \(1, 2\)",
    ),
    (apply_thresholds, ([1.0, 2.0], ["a"], [0, 1]), TypeError, r"`thresholds` must be real"),
    (apply_thresholds, ([1.0, np.inf], [1.0], [0, 1]), ValueError, r"`y_pred` must be finite"),
    (apply_thresholds, ([[1.0, 2.0]], [1.0], [0, 1]), ValueError, r"`y_pred` must be 1-D"),
    (distribution_thresholds, ([], [0, 1]), ValueError, r"`y_pred` must not be empty"),
    (distribution_thresholds, ([1.0], []), ValueError, r"`reference_labels` must not be empty"),
    (
        optimize_thresholds,
        ([0, 1, 1], [0.1, 0.2]),
        ValueError,
        r"`y_true` and `y_pred` must have the same length; got 3 and 2",
    ),
    (
        optimize_thresholds,
        ([0, 1], [0.1, 0.2], "cubic"),
        ValueError,
        r"`weights` must be one of 'linear', 'quadratic'; got 'cubic'",
    ),
    (
        optimize_thresholds,
        ([0, 1, 2], [0.1, 0.2, 0.3], "linear", [0.3, 0.1]),
        ValueError,
        r"`thresholds` must be non-decreasing",
    ),
    (
        optimize_thresholds,
        ([0, 1, 2], [0.1, 0.2, 0.3], "linear", [0.3]),
        ValueError,
        r"`thresholds` must have one fewer element than there are labels \(2\); got 1",
    ),
    (
        optimize_thresholds,
        ([0.0, np.nan], [0.1, 0.2]),
        ValueError,
        r"`y_true` must not contain nan or inf",
    ),
]


@pytest.mark.parametrize(("func", "args", "error", "message"), BAD)
def test_bad_input(func, args, error, message):
    with pytest.raises(error, match=message):
        func(*args)


def test_optimize_pairs_series_by_their_index_labels():
    """Predictions in another row order than the reference (a Series each, same ids): the
    cut points of the pairs by id, as with the aligned arrays; different ids are refused."""
    import pandas as pd

    y, pred = random_problem(7)
    ids = [f"case{i}" for i in range(y.size)]
    y_s, pred_s = pd.Series(y, index=ids), pd.Series(pred, index=ids)
    expected = optimize_thresholds(y, pred)
    np.testing.assert_array_equal(optimize_thresholds(y_s, pred_s.iloc[::-1]), expected)
    with pytest.raises(ValueError, match="index labels of `y_pred` and `y_true` differ"):
        optimize_thresholds(y_s, pred_s.rename(index=lambda s: s + "x"))
