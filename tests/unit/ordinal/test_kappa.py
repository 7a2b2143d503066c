"""Unit tests for irr.ordinal: continuous kappa, kappa loss and its gradient."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import assume, given, settings
from hypothesis import strategies as st
from scipy.optimize import approx_fprime
from sklearn.metrics import cohen_kappa_score

from irr import DegenerateDataWarning
from irr.ordinal import continuous_kappa, kappa_loss, kappa_loss_gradient


def table_qwk(a, b):
    """Contingency-table QWK with category scores = the integer values (scikit-learn)."""
    lo = min(np.min(a), np.min(b))
    hi = max(np.max(a), np.max(b))
    return cohen_kappa_score(a, b, labels=np.arange(lo, hi + 1), weights="quadratic")


pairs = st.integers(min_value=2, max_value=60).flatmap(
    lambda n: st.tuples(
        st.lists(st.integers(0, 6), min_size=n, max_size=n),
        st.lists(st.integers(0, 6), min_size=n, max_size=n),
    )
)


@settings(max_examples=200, deadline=None)
@given(pairs)
def test_continuous_kappa_equals_table_qwk(pair):
    a, b = (np.array(v) for v in pair)
    assume(not (np.ptp(a) == 0 and np.ptp(b) == 0))  # table kappa undefined / trivial
    assert continuous_kappa(a, b) == pytest.approx(table_qwk(a, b), abs=1e-12)


@settings(max_examples=100, deadline=None)
@given(pairs)
def test_centred_form_equals_table_qwk_when_y_is_centred(pair):
    a, b = (np.array(v) for v in pair)
    assume(not (np.ptp(a) == 0 and np.ptp(b) == 0))
    shift = a.mean()  # QWK depends on differences only: shift both, then y has mean 0
    got = continuous_kappa(a - shift, b - shift, centered=True)
    assert got == pytest.approx(table_qwk(a, b), abs=1e-12)


def test_centred_form_differs_when_y_not_centred():
    y = np.array([1.0, 2.0, 3.0, 4.0])
    p = np.array([1.0, 2.0, 4.0, 4.0])
    assert continuous_kappa(y, p) == pytest.approx(11 / 12, abs=1e-15)
    # eq. 2 with raw vectors: 2 * 33 / (30 + 37)
    assert continuous_kappa(y, p, centered=True) == pytest.approx(66 / 67, abs=1e-15)


def test_continuous_kappa_real_predictions_match_paper_first_form():
    rng = np.random.default_rng(1)
    y = rng.integers(1, 6, size=50).astype(float)
    p = y + rng.normal(scale=0.8, size=50) + 0.3
    n = y.size
    denom = y @ y - 2 / n * y.sum() * p.sum() + p @ p
    expected = 1 - np.sum((y - p) ** 2) / denom
    assert continuous_kappa(y, p) == pytest.approx(expected, abs=1e-13)
    # Lin's concordance correlation coefficient (population variances)
    ccc = 2 * np.cov(y, p, bias=True)[0, 1] / (y.var() + p.var() + (y.mean() - p.mean()) ** 2)
    assert continuous_kappa(y, p) == pytest.approx(ccc, abs=1e-13)


def test_continuous_kappa_known_values_and_symmetry():
    assert continuous_kappa([1, 2, 3], [1, 2, 3]) == 1.0
    assert continuous_kappa([1, 2, 3], [3, 2, 1]) == -1.0
    assert continuous_kappa([1, 2, 3, 4], [2, 2, 2, 2]) == 0.0
    y, p = [1, 3, 2, 5, 4], [1.5, 2.5, 2.0, 4.0, 4.5]
    assert continuous_kappa(y, p) == pytest.approx(continuous_kappa(p, y), abs=1e-15)


def test_continuous_kappa_accepts_pandas_and_bool():
    pd = pytest.importorskip("pandas")
    y = pd.Series([0, 1, 1, 0])
    assert continuous_kappa(y, np.array([False, True, True, False])) == 1.0


def test_degenerate_is_nan_with_warning():
    with pytest.warns(DegenerateDataWarning, match="both constant and equal"):
        assert np.isnan(continuous_kappa([2, 2, 2], [2, 2, 2]))
    with pytest.warns(DegenerateDataWarning, match="both zero"):
        assert np.isnan(continuous_kappa([0, 0], [0, 0], centered=True))
    with pytest.warns(DegenerateDataWarning):
        assert np.isnan(kappa_loss_gradient([1, 1], [1, 1])).all()


def test_kappa_loss_is_one_minus_kappa():
    y, p = [1, 2, 3, 4], [1, 2, 4, 4]
    assert kappa_loss(y, p) == pytest.approx(1 / 12, abs=1e-15)
    assert kappa_loss(y, p, centered=True) == pytest.approx(1 - 66 / 67, abs=1e-15)
    assert kappa_loss(y, y) == 0.0


@pytest.mark.parametrize("centered", [False, True])
def test_gradient_matches_finite_differences(centered):
    rng = np.random.default_rng(7)
    y = rng.integers(0, 5, size=30).astype(float)
    p = y + rng.normal(size=30)
    grad = kappa_loss_gradient(y, p, centered=centered)
    numeric = approx_fprime(p, lambda q: kappa_loss(y, q, centered=centered), 1e-7)
    np.testing.assert_allclose(grad, numeric, atol=1e-7)
    assert np.abs(grad).max() > 1e-3


BAD = [
    (
        ([1, 2, 3], [1, 2]),
        ValueError,
        r"`y_true` and `y_pred` must have the same length; got 3 and 2",
    ),
    (([], []), ValueError, r"`y_true` must not be empty"),
    (([1, 2], [1, np.nan]), ValueError, r"`y_pred` must be finite .*position 1 \(nan\)"),
    (([1, np.inf], [1, 2]), ValueError, r"`y_true` must be finite .*\(inf\)"),
    (
        ([[1, 2], [3, 4]], [1, 2]),
        ValueError,
        r"`y_true` must be 1-D; got an array of shape \(2, 2\)",
    ),
    (([1, 2], 3.0), ValueError, r"`y_pred` must be 1-D; got a scalar"),
    ((["a", "b"], [1, 2]), TypeError, r"`y_true` must contain real numbers; got dtype <U1"),
    (([1, 2], [1 + 1j, 2]), ValueError, r"`y_pred` must be real. Complex data not supported"),
    ((None, [1, 2]), TypeError, r"`y_true` must be a 1-D array-like; got None"),
]


@pytest.mark.parametrize(("args", "error", "message"), BAD)
@pytest.mark.parametrize("func", [continuous_kappa, kappa_loss, kappa_loss_gradient])
def test_bad_input(func, args, error, message):
    with pytest.raises(error, match=message):
        func(*args)
