"""Table-free quadratic weighted kappa (Vaughn & Justice, section 1.2) and a loss built on it."""

from __future__ import annotations

import warnings
from typing import Any

import numpy as np

from irr._data import align_columns
from irr._validation import DegenerateDataWarning
from irr.coefficients.icc import power_of_two_exponent
from irr.ordinal._checks import as_1d_real, check_same_length

__all__ = ["continuous_kappa", "kappa_loss", "kappa_loss_gradient"]


def _validate_pair(y_true: Any, y_pred: Any) -> tuple[np.ndarray, np.ndarray]:
    (y_true, y_pred), _ = align_columns([y_true, y_pred], ["y_true", "y_pred"])
    y = as_1d_real(y_true, "y_true")
    yhat = as_1d_real(y_pred, "y_pred")
    check_same_length(y, yhat, "y_true", "y_pred")
    return y, yhat


def _parts(y: np.ndarray, yhat: np.ndarray, centered: bool) -> tuple[float, float, np.ndarray]:
    """Return (numerator, denominator, shift) with kappa = numerator / denominator.

    The shift is the value subtracted from both vectors in the gradient (the mean of
    `y` for the general form, 0 for the centred form).
    """
    if centered:
        num = 2.0 * float(np.dot(y, yhat))
        den = float(np.dot(y, y) + np.dot(yhat, yhat))
        return num, den, np.float64(0.0)
    y_mean = y.mean()
    p_mean = yhat.mean()
    dy = y - y_mean
    dp = yhat - p_mean
    num = 2.0 * float(np.dot(dy, dp))
    den = float(np.dot(dy, dy) + np.dot(dp, dp) + y.size * (y_mean - p_mean) ** 2)
    return num, den, y_mean


def _degenerate(centered: bool) -> None:
    what = (
        "`y_true` and `y_pred` are both zero"
        if centered
        else ("`y_true` and `y_pred` are both constant and equal")
    )
    warnings.warn(
        f"{what}: the expected disagreement is 0, so kappa is undefined; returning nan.",
        DegenerateDataWarning,
        stacklevel=3,
    )


def continuous_kappa(y_true: Any, y_pred: Any, *, centered: bool = False) -> float:
    r"""Quadratic weighted kappa of real-valued predictions, without a contingency table.

    The alternate form of quadratic weighted kappa derived by Vaughn & Justice (section 1.2)
    needs no categories, so it is defined for any real predictions, e.g. the raw output of a
    regression model scored against integer grades.

    Parameters
    ----------
    y_true : array-like of shape (n_samples,)
        Reference scores (for example human grades). Real numbers.
    y_pred : array-like of shape (n_samples,)
        Predicted scores. Real numbers, need not be integers.
    centered : bool, default=False
        If False, the general form (below), which equals the contingency-table quadratic
        weighted kappa. If True, the centred form (eq. 2 of the paper), which *assumes*
        `y_true` has mean zero and uses both vectors exactly as given; it equals the general
        form when `y_true` has mean zero and is the objective that
        :class:`KappaRegressor` maximises.

    Returns
    -------
    float
        Kappa in [-1, 1]; ``nan`` (with a :class:`~irr.DegenerateDataWarning`) when the
        denominator is zero (both vectors constant and equal, or both zero when centred).

    Raises
    ------
    ValueError
        If an input is empty, not 1-D, contains nan or inf, or the lengths differ.
    TypeError
        If an input is not numeric.

    See Also
    --------
    kappa_loss : ``1 - continuous_kappa``, an objective to minimise.
    KappaRegressor : the linear model that maximises this quantity in closed form.

    Notes
    -----
    With :math:`n` samples, :math:`\bar y`, :math:`\bar{\hat y}` the means, the general form is

    .. math::

        \kappa(y, \hat y) = 1 - \frac{\lVert y - \hat y\rVert^2}
            {\lVert y\rVert^2 - \frac{2}{n}(y^\top e)(\hat y^\top e) + \lVert\hat y\rVert^2}
        = \frac{2\sum_k (y_k - \bar y)(\hat y_k - \bar{\hat y})}
            {\sum_k (y_k - \bar y)^2 + \sum_k (\hat y_k - \bar{\hat y})^2
             + n(\bar y - \bar{\hat y})^2},

    (Vaughn & Justice, section 1.2; the second expression is the one evaluated, as it avoids
    cancellation). The numerator of the first fraction is the observed quadratic disagreement
    :math:`\langle U, W\rangle_F` and the denominator the chance-expected one
    :math:`\langle V, W\rangle_F` (eq. 1), both up to the common factor :math:`(\ell-1)^2`.
    Hence, when `y_true` and `y_pred` are integers and the category scores are the numeric
    values, the result equals the quadratic weighted kappa of the contingency table exactly
    (up to rounding); it is also Lin's concordance correlation coefficient.
    The centred form (eq. 2) is

    .. math::

        \kappa_c(y, \hat y) = \frac{2\, y^\top \hat y}{\lVert y\rVert^2 + \lVert\hat y\rVert^2}.

    References
    ----------
    .. [1] D. Vaughn and D. Justice, "On the direct maximization of quadratic weighted
       kappa", arXiv:1509.07107, 2015.

    Examples
    --------
    >>> from irr.ordinal import continuous_kappa
    >>> continuous_kappa([1, 2, 3, 4], [1, 2, 4, 4])  # = table QWK
    0.9166666666666666
    >>> continuous_kappa([1, 2, 3, 4], [1.2, 2.1, 2.9, 3.7])
    0.9822...

    The centred form equals the general one once `y_true` has mean zero:

    >>> continuous_kappa([-1.5, -0.5, 0.5, 1.5], [-1.3, -0.4, 0.4, 1.2], centered=True)
    0.982248...
    >>> continuous_kappa([-1.5, -0.5, 0.5, 1.5], [-1.3, -0.4, 0.4, 1.2])
    0.982248...
    """
    y, yhat = _validate_pair(y_true, y_pred)
    # kappa is a ratio of quadratic forms: a common power-of-two divisor (exact) cancels,
    # and the general form is also unchanged by a common shift. Shift and scale before
    # squaring, so that scores near 1e-200 or 1e200, or all near 1e15, lose no digits.
    if not centered:
        anchor = y[0]
        y, yhat = y - anchor, yhat - anchor
    both = np.concatenate([y, yhat])
    if np.isfinite(both).all():
        exponent = power_of_two_exponent(both, (0,))
        y, yhat = np.ldexp(y, -exponent), np.ldexp(yhat, -exponent)
    num, den, _ = _parts(y, yhat, bool(centered))
    if den == 0.0:
        _degenerate(bool(centered))
        return float("nan")
    return num / den


def kappa_loss(y_true: Any, y_pred: Any, *, centered: bool = False) -> float:
    r"""Kappa loss ``1 - continuous_kappa(y_true, y_pred)``, an objective to minimise.

    Parameters
    ----------
    y_true : array-like of shape (n_samples,)
        Reference scores.
    y_pred : array-like of shape (n_samples,)
        Predicted scores (real numbers).
    centered : bool, default=False
        Use the centred form (eq. 2) of :func:`continuous_kappa`.

    Returns
    -------
    float
        The loss in [0, 2]: 0 for perfect agreement, 1 at chance level, 2 for perfect
        reversal. ``nan`` (with a warning) where kappa is undefined.

    Raises
    ------
    ValueError
        If an input is empty, not 1-D, contains nan or inf, or the lengths differ.
    TypeError
        If an input is not numeric.

    See Also
    --------
    kappa_loss_gradient : its gradient with respect to `y_pred`.
    continuous_kappa

    Notes
    -----
    .. math::

        L(y, \hat y) = 1 - \kappa(y, \hat y)

    with :math:`\kappa` the table-free form of Vaughn & Justice (section 1.2, or eq. 2 when
    `centered`). ``1 - kappa`` rather than ``-kappa`` is chosen so that the loss is
    non-negative and equals the ratio of observed to chance-expected quadratic disagreement.

    References
    ----------
    .. [1] D. Vaughn and D. Justice, "On the direct maximization of quadratic weighted
       kappa", arXiv:1509.07107, 2015.

    Examples
    --------
    >>> from irr.ordinal import kappa_loss
    >>> kappa_loss([1, 2, 3, 4], [1, 2, 4, 4])
    0.08333...
    """
    return 1.0 - continuous_kappa(y_true, y_pred, centered=centered)


def kappa_loss_gradient(y_true: Any, y_pred: Any, *, centered: bool = False) -> np.ndarray:
    r"""Gradient of :func:`kappa_loss` with respect to `y_pred`.

    Parameters
    ----------
    y_true : array-like of shape (n_samples,)
        Reference scores.
    y_pred : array-like of shape (n_samples,)
        Predicted scores (real numbers).
    centered : bool, default=False
        Differentiate the centred form (eq. 2) instead of the general one.

    Returns
    -------
    ndarray of shape (n_samples,)
        :math:`\partial L / \partial \hat y_k`; all ``nan`` (with a warning) where kappa is
        undefined.

    Raises
    ------
    ValueError
        If an input is empty, not 1-D, contains nan or inf, or the lengths differ.
    TypeError
        If an input is not numeric.

    Notes
    -----
    Writing :math:`\kappa = N / D` with :math:`D` the denominator of
    :func:`continuous_kappa` and :math:`m = \bar y` (general form) or :math:`m = 0`
    (centred form, eq. 2),

    .. math::

        \frac{\partial (1 - \kappa)}{\partial \hat y_k}
            = \frac{2\left[\kappa\,(\hat y_k - m) - (y_k - m)\right]}{D}.

    It costs O(n) and vanishes exactly when :math:`\hat y - m = (y - m)/\kappa`, the
    stationarity condition behind the paper's eq. 4.

    References
    ----------
    .. [1] D. Vaughn and D. Justice, "On the direct maximization of quadratic weighted
       kappa", arXiv:1509.07107, 2015.

    Examples
    --------
    >>> from irr.ordinal import kappa_loss_gradient
    >>> kappa_loss_gradient([1, 2, 3, 4], [1, 2, 4, 4])
    array([ 0.0208...,  0.0069...,  0.1458..., -0.0208...])
    """
    y, yhat = _validate_pair(y_true, y_pred)
    num, den, shift = _parts(y, yhat, bool(centered))
    if den == 0.0:
        _degenerate(bool(centered))
        return np.full(y.shape, np.nan)
    kappa = num / den
    return 2.0 * (kappa * (yhat - shift) - (y - shift)) / den
