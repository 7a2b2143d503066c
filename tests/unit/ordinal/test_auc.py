"""Unit tests for roc_curve, roc_auc and rank_loss in irr.ordinal."""

from __future__ import annotations

from fractions import Fraction

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from sklearn import metrics

from irr.ordinal import rank_loss, roc_auc, roc_curve
from irr.ordinal._auc import trapezoid_numerator

BOOK_SCORES = [0.77, 0.62, 0.58, 0.47, 0.47, 0.33, 0.23, 0.15]
BOOK_LABELS = [1, 0, 1, 1, 0, 0, 1, 0]


def brute_force_rank_loss(y, s):
    """Eq. 2.21 as the O(n^2) double sum, in exact rational arithmetic."""
    y = np.asarray(y, dtype=bool)
    s = np.asarray(s)
    pos, neg = s[y], s[~y]
    wrong = 2 * np.sum(pos[:, None] < neg[None, :]) + np.sum(pos[:, None] == neg[None, :])
    return Fraction(int(wrong), 2 * pos.size * neg.size)


def test_book_example():
    # 4 positives, 4 negatives; pairs ranked wrongly: 5, tied: 1 -> (5 + 0.5) / 16
    assert rank_loss(BOOK_LABELS, BOOK_SCORES) == 5.5 / 16
    assert roc_auc(BOOK_LABELS, BOOK_SCORES) == 10.5 / 16


@pytest.mark.parametrize("seed", range(10))
def test_agrees_with_sklearn_on_data_with_ties(seed):
    rng = np.random.default_rng(seed)
    n = int(rng.integers(20, 400))
    y = rng.integers(0, 2, size=n)
    y[:2] = [0, 1]
    scores = rng.integers(0, 8, size=n) + 0.5 * y  # few distinct values: many ties
    auc = roc_auc(y, scores)
    assert auc == pytest.approx(metrics.roc_auc_score(y, scores), abs=1e-14)
    assert auc + rank_loss(y, scores) == pytest.approx(1.0, abs=1e-15)
    assert 1.0 - rank_loss(y, scores) == pytest.approx(auc, abs=1e-15)


@settings(max_examples=150, deadline=None)
@given(
    st.lists(st.tuples(st.booleans(), st.integers(-3, 3)), min_size=2, max_size=40).filter(
        lambda rows: len({r[0] for r in rows}) == 2
    )
)
def test_rank_loss_equals_exact_double_sum(rows):
    y = [r[0] for r in rows]
    s = [r[1] for r in rows]
    exact = brute_force_rank_loss(y, s)
    assert rank_loss(y, s) == float(exact)  # one correctly rounded division
    assert roc_auc(y, s) == float(1 - exact)
    assert roc_auc(y, s) + rank_loss(y, s) == pytest.approx(1.0, abs=1e-15)


@pytest.mark.parametrize("seed", range(5))
def test_roc_curve_matches_sklearn(seed):
    rng = np.random.default_rng(seed)
    y = rng.integers(0, 2, size=100)
    scores = np.round(rng.normal(size=100) + y, 1)
    fpr, tpr, thresholds = roc_curve(y, scores)
    ref_fpr, ref_tpr, ref_thresholds = metrics.roc_curve(y, scores, drop_intermediate=False)
    np.testing.assert_allclose(fpr, ref_fpr, atol=1e-15)
    np.testing.assert_allclose(tpr, ref_tpr, atol=1e-15)
    np.testing.assert_array_equal(thresholds[1:], ref_thresholds[1:])
    assert thresholds[0] == np.inf
    # the trapezoid rule (eq. 2.20) over the curve gives the AUC
    trapezoid = 0.5 * np.sum(np.diff(fpr) * (tpr[1:] + tpr[:-1]))
    assert trapezoid == pytest.approx(roc_auc(y, scores), abs=1e-14)


def test_roc_curve_book_example_counts_ties_diagonally():
    fpr, tpr, thresholds = roc_curve(BOOK_LABELS, BOOK_SCORES)
    np.testing.assert_array_equal(fpr * 4, [0, 0, 1, 1, 2, 3, 3, 4])
    np.testing.assert_array_equal(tpr * 4, [0, 1, 1, 2, 3, 3, 4, 4])
    assert thresholds.tolist() == [np.inf, 0.77, 0.62, 0.58, 0.47, 0.33, 0.23, 0.15]


def test_label_conventions():
    s = [0.9, 0.1, 0.4, 0.4]
    expected = 0.875
    assert roc_auc([True, False, True, False], s) == expected
    assert roc_auc([1, -1, 1, -1], s) == expected
    assert roc_auc([1.0, 0.0, 1.0, 0.0], s) == expected
    assert roc_auc(["y", "n", "y", "n"], s, pos_label="y") == expected
    assert roc_auc(["y", "n", "y", "n"], s, pos_label="n") == 1 - expected
    assert roc_auc([1, 0, 1, 0], s, pos_label=0) == 1 - expected
    pd = pytest.importorskip("pandas")
    assert roc_auc(pd.Series([1, 0, 1, 0]), pd.Series(s)) == expected
    assert roc_auc(pd.Categorical(["y", "n", "y", "n"]), s, pos_label="y") == expected


def test_perfect_and_reversed_scores():
    assert roc_auc([0, 0, 1, 1], [1, 2, 3, 4]) == 1.0
    assert rank_loss([0, 0, 1, 1], [1, 2, 3, 4]) == 0.0
    assert roc_auc([0, 0, 1, 1], [4, 3, 2, 1]) == 0.0
    assert roc_auc([0, 1, 0, 1], [5, 5, 5, 5]) == 0.5


def test_large_input_is_fast_and_exact():
    rng = np.random.default_rng(0)
    n = 1_000_000
    y = rng.integers(0, 2, size=n)
    scores = rng.integers(0, 1000, size=n) + y * 100
    auc = roc_auc(y, scores)  # O(n log n); the pairwise sum would need 2.5e11 pairs
    assert auc == pytest.approx(metrics.roc_auc_score(y, scores), abs=1e-12)
    assert 0.5 < auc < 1.0


def test_trapezoid_kernel_batches_and_accepts_weights():
    rng = np.random.default_rng(1)
    pos = rng.integers(0, 5, size=(6, 9))
    neg = rng.integers(0, 5, size=(6, 9))
    batched = trapezoid_numerator(pos, neg)
    rows = [trapezoid_numerator(p, q) for p, q in zip(pos, neg, strict=True)]
    np.testing.assert_array_equal(batched, rows)
    # multiplying every count by a weight scales the numerator by its square
    np.testing.assert_allclose(trapezoid_numerator(2.5 * pos, 2.5 * neg), 6.25 * batched)


BAD = [
    (
        ([1, 1, 1], [0.1, 0.2, 0.3]),
        {},
        ValueError,
        r"`y_true` must contain both classes; got only \[1\]",
    ),
    (
        ([0, 1, 2], [0.1, 0.2, 0.3]),
        {},
        ValueError,
        r"`y_true` must be binary \(two classes\); got 3 distinct labels: \[0, 1, 2\]",
    ),
    (
        (["a", "b"], [0.1, 0.2]),
        {},
        ValueError,
        r"`pos_label` must be given when `y_true` is not bool, \{0, 1\} or \{-1, 1\}; "
        r"got labels \['a', 'b'\]",
    ),
    (([1, 2, 1], [0.1, 0.2, 0.3]), {}, ValueError, r"`pos_label` must be given"),
    (
        ([0, 1], [0.1, 0.2]),
        {"pos_label": 2},
        ValueError,
        r"`pos_label` must be one of the labels in `y_true` \[0, 1\]; got 2",
    ),
    (
        ([0, 1, 1], [0.1, 0.2]),
        {},
        ValueError,
        r"`y_true` and `scores` must have the same length; got 3 and 2",
    ),
    (([0, 1], [0.1, np.nan]), {}, ValueError, r"`scores` must be finite"),
    (
        ([0, 1], [[0.1, 0.2]]),
        {},
        ValueError,
        r"`scores` must be 1-D; got an array of shape \(1, 2\)",
    ),
    (([], []), {}, ValueError, r"`y_true` must not be empty"),
    (
        (["a", "a"], [0.1, 0.2]),
        {},
        ValueError,
        r"`y_true` must contain both classes; got only \['a'\]",
    ),
    (
        ([0, 0], [0.1, 0.2]),
        {"pos_label": 1},
        ValueError,
        r"must contain both classes; got only \[0\]",
    ),
    (([-1, 0], [0.1, 0.2]), {}, ValueError, r"`pos_label` must be given"),
    (([0.0, np.nan], [0.1, 0.2]), {}, ValueError, r"`y_true` must not contain nan or inf"),
]


@pytest.mark.parametrize(("args", "kwargs", "error", "message"), BAD)
@pytest.mark.parametrize("func", [roc_auc, rank_loss, roc_curve])
def test_bad_input(func, args, kwargs, error, message):
    with pytest.raises(error, match=message):
        func(*args, **kwargs)
