"""Agreement-weight schemes for weighted kappa and its relatives.

Weights here are *agreement* weights: ``w[i, i] = 1`` and ``w[i, j] <= 1`` measures how
much credit a pair of ratings (i, j) earns. Disagreement weights, as used by some other
software (statsmodels' 2-D ``wt``), are ``1 - w``.
"""

from __future__ import annotations

from typing import Any

import numpy as np

__all__ = ["WEIGHT_SCHEMES", "agreement_weights", "tolerance_agreement", "weight_name"]

#: Canonical scheme names and the aliases users know, matched case-insensitively.
WEIGHT_SCHEMES: dict[str, str] = {
    "linear": "linear",
    "equal": "linear",
    "cicchetti-allison": "linear",
    "quadratic": "quadratic",
    "squared": "quadratic",
    "fleiss-cohen": "quadratic",
}


def weight_name(weights: Any) -> str:
    """Return the canonical name of a weight specification.

    ``None`` is ``"unweighted"``, an alias gives its scheme, a matrix is ``"custom"``.

    Examples
    --------
    >>> weight_name("Fleiss-Cohen")
    'quadratic'
    >>> weight_name(None)
    'unweighted'
    """
    if weights is None:
        return "unweighted"
    if isinstance(weights, str):
        key = weights.lower()
        if key not in WEIGHT_SCHEMES:
            known = ", ".join(repr(k) for k in WEIGHT_SCHEMES)
            raise ValueError(
                f"`weights` must be None, one of {known}, or a k x k agreement-weight "
                f"matrix; got {weights!r}."
            )
        return WEIGHT_SCHEMES[key]
    return "custom"


def agreement_weights(
    weights: Any, n_categories: int, scores: np.ndarray | None = None
) -> np.ndarray:
    """Build the k x k agreement-weight matrix of a weight specification.

    Parameters
    ----------
    weights : {None, 'linear', 'quadratic'} or array-like of shape (k, k)
        ``None`` gives the identity (unweighted kappa). ``'linear'`` (aliases ``'equal'``,
        ``'Cicchetti-Allison'``) gives ``1 - |x_i - x_j| / (x_max - x_min)``; ``'quadratic'``
        (aliases ``'squared'``, ``'Fleiss-Cohen'``) gives
        ``1 - (x_i - x_j)**2 / (x_max - x_min)**2``. A matrix is validated and returned.
    n_categories : int
        k, the number of categories.
    scores : ndarray of shape (k,), optional
        The category scores x (numeric labels, or positions on an ordered scale). Required
        for the named schemes.

    Returns
    -------
    ndarray of shape (k, k)
        Agreement weights with ones on the diagonal.

    Raises
    ------
    ValueError
        For an unknown scheme, a named scheme without scores, or a matrix that is not
        k x k, not finite, has a diagonal other than 1 or entries above 1.

    Examples
    --------
    >>> agreement_weights("linear", 3, scores=np.array([1.0, 2.0, 3.0]))
    array([[1. , 0.5, 0. ],
           [0.5, 1. , 0.5],
           [0. , 0.5, 1. ]])
    """
    name = weight_name(weights)
    if name == "unweighted":
        return np.eye(n_categories)
    if name == "custom":
        return _validate_matrix(weights, n_categories)
    if scores is None:
        raise ValueError(
            f"`weights={weights!r}` needs ordered categories with scores, but these labels "
            "have no order (unordered strings would be ordered alphabetically, a silent "
            "trap). Pass `categories=` in scale order, or use an ordered Categorical."
        )
    x = np.asarray(scores, dtype=float)
    if np.unique(x).size < x.size:
        raise ValueError(
            "The category scores are not distinct as floating-point numbers (integer labels "
            "beyond 2**53 lose precision), so distances between categories are undefined; "
            "recode the labels or pass `categories=` in scale order."
        )
    span = x.max() - x.min() if x.size else 0.0
    if span == 0:
        return np.ones((n_categories, n_categories))
    distance = np.abs(x[:, None] - x[None, :]) / span
    return 1.0 - (distance if name == "linear" else distance**2)


def _validate_matrix(weights: Any, k: int) -> np.ndarray:
    try:
        w = np.asarray(weights, dtype=float)
    except (TypeError, ValueError):
        raise TypeError("`weights` matrix must be numeric.") from None
    if w.shape != (k, k):
        raise ValueError(f"`weights` matrix must have shape ({k}, {k}); got {w.shape}.")
    if not np.isfinite(w).all():
        raise ValueError("`weights` matrix must be finite; it contains nan or inf.")
    if not np.allclose(np.diag(w), 1.0, rtol=0, atol=1e-12):
        raise ValueError(
            f"`weights` matrix must be agreement weights with ones on the diagonal; got "
            f"diagonal {np.diag(w).tolist()}. (Disagreement weights d convert as 1 - d.)"
        )
    if (w > 1 + 1e-12).any():
        raise ValueError(
            f"`weights` matrix entries must be at most 1; the largest is {w.max():g}."
        )
    return w


def tolerance_agreement(tolerance: Any, n_categories: int, scores: np.ndarray | None) -> np.ndarray:
    """k x k boolean matrix: True where two categories' scores differ by at most `tolerance`.

    ``tolerance=0`` is exact agreement (the identity). A distance equal to the tolerance
    up to rounding (relative 1e-12) counts as within it, so ``|2.0 - 1.0| <= 1`` holds
    however the scores were computed.

    Examples
    --------
    >>> tolerance_agreement(1, 3, np.array([1.0, 2.0, 3.0])).astype(int)
    array([[1, 1, 0],
           [1, 1, 1],
           [0, 1, 1]])
    """
    import numbers

    if isinstance(tolerance, bool) or not isinstance(tolerance, numbers.Real):
        raise TypeError(f"`tolerance` must be a non-negative number; got {tolerance!r}.")
    tolerance = float(tolerance)
    if not (np.isfinite(tolerance) and tolerance >= 0):
        raise ValueError(f"`tolerance` must be a finite non-negative number; got {tolerance!r}.")
    if tolerance == 0:
        return np.eye(n_categories, dtype=bool)
    if scores is None:
        raise ValueError(
            f"`tolerance` must be 0 for unordered categories (got {tolerance:g}): the labels "
            "have no scores to measure |a - b|. Declare an order with `categories=`."
        )
    distance = np.abs(scores[:, None] - scores[None, :])
    return (distance <= tolerance) | np.isclose(distance, tolerance, rtol=1e-12, atol=0)
