"""Agreement-weight schemes for weighted kappa and its relatives.

Weights here are *agreement* weights: ``w[i, i] = 1`` and ``w[i, j] <= 1`` measures how
much credit a pair of ratings (i, j) earns. Disagreement weights, as used by some other
software (statsmodels' 2-D ``wt``), are ``1 - w``.
"""

from __future__ import annotations

import math
from typing import Any

import numpy as np

__all__ = [
    "GWET_SCHEMES",
    "MAX_SQUARE_CELLS",
    "PARAMETRIC_SCHEMES",
    "WEIGHT_SCHEMES",
    "agree_within",
    "agreement_weights",
    "check_square",
    "check_tolerance",
    "tolerance_agreement",
    "tolerance_label",
    "weight_name",
    "within_tolerance",
]

#: Largest k x k array (k**2 cells; 200 MB of float64) built where a dense category x
#: category matrix is intrinsic: a weight matrix, the labelled agreement table, the
#: symmetry and marginal-homogeneity tests. Unweighted (identity) coefficients never
#: build one, so they have no such bound.
MAX_SQUARE_CELLS = 25_000_000


def check_square(k: int, what: str) -> None:
    """Raise a ValueError when a k x k array for `what` exceeds :data:`MAX_SQUARE_CELLS`.

    Examples
    --------
    >>> check_square(5_000, "The weight matrix")
    >>> check_square(6_000, "The weight matrix")
    Traceback (most recent call last):
    ...
    ValueError: The weight matrix needs a 6000 x 6000 category array (36,000,000 cells); ...
    """
    if k * k > MAX_SQUARE_CELLS:
        raise ValueError(
            f"{what} needs a {k} x {k} category array ({k * k:,} cells); at most "
            f"{MAX_SQUARE_CELLS:,} cells (k = {int(MAX_SQUARE_CELLS ** 0.5)}) are built "
            "(irr.weights.MAX_SQUARE_CELLS)."
        )

#: Canonical scheme names and the aliases users know, matched case-insensitively.
WEIGHT_SCHEMES: dict[str, str] = {
    "linear": "linear",
    "equal": "linear",
    "cicchetti-allison": "linear",
    "quadratic": "quadratic",
    "squared": "quadratic",
    "fleiss-cohen": "quadratic",
    "ordinal": "ordinal",
    "radical": "radical",
    "ratio": "ratio",
    "circular": "circular",
    "bipolar": "bipolar",
    "identity": "unweighted",
}

#: Gwet's (2014, ch. 3) schemes beyond linear and quadratic.
GWET_SCHEMES = ("ordinal", "radical", "ratio", "circular", "bipolar")

#: Schemes that take a parameter after a colon, as Stata's kappaetc names them
#: (``wgt(power #)``, ``wgt(circular #)``): ``'power:r'`` (Warrens 2014), ``'circular:u'``
#: (Warrens & Pratiwi 2016, 0 <= u < 1), ``'circular:180'`` (kappaetc's ``circular 180``)
#: and ``'circular:pi'`` (the same as ``'circular'``).
PARAMETRIC_SCHEMES = ("power", "circular")


def weight_name(weights: Any) -> str:
    """Return the canonical name of a weight specification.

    ``None`` (or ``'identity'``) is ``"unweighted"``, an alias gives its scheme, a matrix
    is ``"custom"``. One vocabulary for every weighted coefficient in the package.

    Parameters
    ----------
    weights : None, str or array-like
        A weight specification, as for :func:`agreement_weights`.

    Examples
    --------
    >>> weight_name("Fleiss-Cohen"), weight_name("Radical"), weight_name(None)
    ('quadratic', 'radical', 'unweighted')
    """
    if weights is None:
        return "unweighted"
    if isinstance(weights, str):
        key, colon, parameter = weights.lower().partition(":")
        key, parameter = key.strip(), parameter.strip()
        if colon and key in PARAMETRIC_SCHEMES:
            return _parametric_name(key, parameter, weights)
        if key == "power":
            raise ValueError(
                f"`weights='power'` needs its exponent r after a colon, e.g. 'power:3' "
                f"(1 - |x_k - x_l|^r / (x_max - x_min)^r; Warrens 2014); got {weights!r}."
            )
        if colon or key not in WEIGHT_SCHEMES:
            known = ", ".join(repr(k) for k in WEIGHT_SCHEMES)
            raise ValueError(
                f"`weights` must be None, one of {known}, 'power:r' (r >= 0), "
                "'circular:u' (0 <= u < 1), 'circular:180', or a k x k agreement-weight "
                f"matrix; got {weights!r}."
            )
        return WEIGHT_SCHEMES[key]
    return "custom"


def _parametric_name(key: str, parameter: str, weights: str) -> str:
    """The canonical name of ``'power:r'`` or ``'circular:...'``, validated."""
    if key == "circular" and parameter == "pi":
        return "circular"
    try:
        value = float(parameter)
    except ValueError:
        value = math.nan
    if key == "power":
        if not (math.isfinite(value) and value >= 0):
            raise ValueError(
                "`weights='power:r'` needs a finite exponent r >= 0 (0 is the identity, 0.5 "
                f"radical, 1 linear, 2 quadratic); got {weights!r}."
            )
        return f"power:{value:g}"
    if value == 180:
        return "circular:180"
    if not 0 <= value < 1:
        raise ValueError(
            "`weights='circular:u'` needs the credit 0 <= u < 1 that Warrens & Pratiwi "
            "(2016) give neighbouring categories on the circle, or 'circular:pi' "
            f"(= 'circular') or 'circular:180' (kappaetc's sine argument); got {weights!r}."
        )
    return f"circular:{value:g}"


def agreement_weights(
    weights: Any, n_categories: int, scores: np.ndarray | None = None
) -> np.ndarray:
    r"""Build the k x k agreement-weight matrix of a weight specification.

    Parameters
    ----------
    weights : None, str or array-like of shape (k, k)
        ``None`` (or ``'identity'``) gives the identity (unweighted). ``'linear'``
        (aliases ``'equal'``, ``'Cicchetti-Allison'``) gives ``1 - |x_i - x_j| / (x_max -
        x_min)``; ``'quadratic'`` (aliases ``'squared'``, ``'Fleiss-Cohen'``) gives ``1 -
        (x_i - x_j)**2 / (x_max - x_min)**2``; Gwet's (2014, ch. 3) ``'ordinal'``,
        ``'radical'``, ``'ratio'``, ``'circular'`` and ``'bipolar'``, and the schemes with a
        parameter after a colon that Stata's kappaetc names, ``'power:r'`` and
        ``'circular:u'`` / ``'circular:180'``, are described in the Notes. A matrix is
        validated and returned.
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
        k x k, not finite, has a diagonal other than 1 or entries outside [0, 1] (agreement
        weights, Cohen 1968; Fleiss, Levin & Paik 2003, sec. 18.1).

    Notes
    -----
    With scores :math:`x_1 < \dots < x_q` and :math:`x_{\min}, x_{\max}` the ends of the
    declared scale (Gwet 2014, ch. 3):

    - ``'ordinal'``: from ranks, :math:`w_{kl} = 1 - \binom{|k-l|+1}{2} / \binom{q}{2}`;
    - ``'radical'``: :math:`w_{kl} = 1 - \sqrt{|x_k - x_l|}/\sqrt{x_{\max} - x_{\min}}`;
    - ``'ratio'``: :math:`w_{kl} = 1 - \left(\frac{x_k - x_l}{x_k + x_l}\right)^2 \big/
      \left(\frac{x_{\max} - x_{\min}}{x_{\max} + x_{\min}}\right)^2` (scores must be
      non-negative);
    - ``'circular'``: :math:`w_{kl} = 1 - \sin^2(\pi (x_k - x_l)/U) / \max\sin^2(\cdot)`,
      :math:`U = x_{\max} - x_{\min} + 1`;
    - ``'bipolar'``: :math:`d_{kl} = \frac{(x_k - x_l)^2}{(x_k + x_l - 2x_{\min})
      (2x_{\max} - x_k - x_l)}` for :math:`k \ne l`, and :math:`w = 1 - d / \max d`.

    With a parameter (kappaetc's ``wgt(power #)`` and ``wgt(circular #)``, Klein 2018):

    - ``'power:r'``, :math:`r \ge 0`: :math:`w_{kl} = 1 - |x_k - x_l|^r / (x_{\max} -
      x_{\min})^r` (Warrens 2014, eq. 3): identity for r = 0, radical for 0.5, linear for
      1, quadratic for 2;
    - ``'circular:u'``, :math:`0 \le u < 1`: the circular weights of Warrens & Pratiwi
      (2016, eq. 7, p. 513): :math:`w_{kl} = u` for categories next to each other on the
      circle (positions :math:`|k - l| = 1` or :math:`q - 1`: the first and last are
      neighbours), 0 for the other disagreements (u = 0 is the identity);
    - ``'circular:180'``: kappaetc's ``circular 180``, Gwet's circular weights with 180
      in place of :math:`\pi` as the sine's argument in radians,
      :math:`1 - \sin^2(180 (x_k - x_l)/U) / \max\sin^2(\cdot)` (``'circular:pi'`` is
      ``'circular'``).

    References
    ----------
    Warrens, M. J. (2014). Power weighted versions of Bennett, Alpert, and Goldstein's S.
    Journal of Mathematics, 2014, 231909. https://doi.org/10.1155/2014/231909

    Warrens, M. J., & Pratiwi, B. C. (2016). Kappa coefficients for circular
    classifications. Journal of Classification, 33, 507-522.
    https://doi.org/10.1007/s00357-016-9217-3

    Klein, D. (2018). Implementing a general framework for assessing interrater agreement
    in Stata. The Stata Journal, 18(4), 871-901. https://doi.org/10.1177/1536867X1801800408

    Examples
    --------
    >>> agreement_weights("linear", 3, scores=np.array([1.0, 2.0, 3.0]))
    array([[1. , 0.5, 0. ],
           [0.5, 1. , 0.5],
           [0. , 0.5, 1. ]])
    >>> agreement_weights("ordinal", 3, np.array([1.0, 2.0, 3.0]))
    array([[1.        , 0.66666667, 0.        ],
           [0.66666667, 1.        , 0.66666667],
           [0.        , 0.66666667, 1.        ]])
    >>> agreement_weights("power:3", 3, np.array([1.0, 2.0, 3.0]))[0].tolist()
    [1.0, 0.875, 0.0]
    >>> agreement_weights("circular:0.5", 4, np.array([1.0, 2.0, 3.0, 4.0]))[0].tolist()
    [1.0, 0.5, 0.0, 0.5]
    """
    name = weight_name(weights)
    shown = repr(weights) if weights is None or isinstance(weights, str) else "matrix"
    check_square(n_categories, f"`weights={shown}`")
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
    key = (name, n_categories, x.tobytes()) if x.size <= 32 and n_categories <= 32 else None
    cached = None if key is None else _SCHEMES.get(key)
    if cached is None:
        cached = _scheme_weights(name, n_categories, x)
        if key is not None:
            if len(_SCHEMES) >= 64:
                _SCHEMES.clear()
            _SCHEMES[key] = cached.copy()
        return cached
    return cached.copy()  # the caller's own array


#: The weight matrices of the last few named schemes on small scales (at most 32
#: categories), by scheme, number of categories and scores: for a small table, building
#: them costs more than the arithmetic of kappa.
_SCHEMES: dict[tuple[str, int, bytes], np.ndarray] = {}


def _scheme_weights(name: str, n_categories: int, x: np.ndarray) -> np.ndarray:
    """The weights of the named scheme `name` on the category scores `x` (validated)."""
    if not (x[1:] > x[:-1]).all() and np.unique(x).size < x.size:  # increasing: distinct
        raise ValueError(
            "The category scores are not distinct as floating-point numbers (integer labels "
            "beyond 2**53 lose precision), so distances between categories are undefined; "
            "recode the labels or pass `categories=` in scale order."
        )
    k = n_categories
    span = x.max() - x.min() if x.size else 0.0
    if span == 0:
        return np.ones((k, k))
    if name in ("linear", "quadratic"):
        distance = np.abs(x[:, None] - x[None, :]) / span
        return 1.0 - (distance if name == "linear" else distance**2)
    if name.startswith("power:"):
        distance = np.abs(x[:, None] - x[None, :]) / span
        w = 1.0 - distance ** float(name.partition(":")[2])
        np.fill_diagonal(w, 1.0)  # 0**0 is 1: the identity for r = 0
        return w
    if name == "circular:180":
        d = np.sin(180.0 * (x[:, None] - x[None, :]) / (span + 1)) ** 2
        return 1.0 - d / d.max() if d.max() > 0 else np.ones((k, k))
    if name.startswith("circular:"):
        steps = np.abs(np.subtract.outer(np.arange(k), np.arange(k)))
        w = float(name.partition(":")[2]) * ((steps == 1) | (steps == k - 1))
        np.fill_diagonal(w, 1.0)
        return w
    return _gwet_scheme(name, x)


def _gwet_scheme(name: str, x: np.ndarray) -> np.ndarray:
    """Gwet's ordinal, radical, ratio, circular or bipolar weights of scores `x`."""
    k = len(x)
    lo, hi = x.min(), x.max()
    diff = x[:, None] - x[None, :]
    if name == "ordinal":
        rank = np.arange(k)
        steps = np.abs(rank[:, None] - rank[None, :]) + 1.0
        return 1.0 - steps * (steps - 1) / 2 / (k * (k - 1) / 2)
    if name == "radical":
        return 1.0 - np.sqrt(np.abs(diff)) / np.sqrt(hi - lo)
    if name == "ratio":
        if lo < 0:
            raise ValueError(
                f"`weights='ratio'` needs non-negative category scores; the smallest is {lo:g}."
            )
        total = x[:, None] + x[None, :]
        with np.errstate(invalid="ignore", divide="ignore"):
            ratio = np.where(total > 0, (diff / np.where(total > 0, total, 1.0)) ** 2, 0.0)
        return 1.0 - ratio / ((hi - lo) / (hi + lo)) ** 2
    if name == "circular":
        d = np.sin(np.pi * diff / (hi - lo + 1)) ** 2
        return 1.0 - d / d.max()
    # bipolar: d is a ratio of squares, unchanged by y = (x - lo) / (hi - lo), which keeps
    # the squares of scores as large as 1e200 finite
    off = ~np.eye(k, dtype=bool)
    y = (x - lo) / (hi - lo)
    denominator = (y[:, None] + y[None, :]) * (2 - y[:, None] - y[None, :])
    d = np.zeros((k, k))
    d[off] = (y[:, None] - y[None, :])[off] ** 2 / denominator[off]
    return 1.0 - d / d.max()


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
    outside = w[(w > 1 + 1e-12) | (w < -1e-12)]
    if outside.size:
        # Agreement weights lie in [0, 1] with ones on the diagonal (Cohen 1968; Fleiss,
        # Levin & Paik 2003, sec. 18.1): a negative weight rewards disagreement and lets
        # kappa fall far below -1, with an interval whose ends cross.
        raise ValueError(
            f"`weights` matrix entries must lie in [0, 1] (agreement weights: 1 for "
            f"agreement, 0 for the worst disagreement); got {np.unique(outside)[:5].tolist()}."
        )
    return np.clip(w, 0.0, 1.0)


def check_tolerance(tolerance: Any, scores: np.ndarray | None) -> float:
    """The validated `tolerance` as a float: a finite non-negative number, 0 unless the
    categories have scores.

    Examples
    --------
    >>> check_tolerance(1, np.array([1.0, 2.0]))
    1.0
    """
    import numbers

    if isinstance(tolerance, bool) or not isinstance(tolerance, numbers.Real):
        raise TypeError(f"`tolerance` must be a non-negative number; got {tolerance!r}.")
    tolerance = float(tolerance)
    if not (np.isfinite(tolerance) and tolerance >= 0):
        raise ValueError(f"`tolerance` must be a finite non-negative number; got {tolerance!r}.")
    if tolerance and scores is None:
        raise ValueError(
            f"`tolerance` must be 0 for unordered categories (got {tolerance:g}): the labels "
            "have no scores to measure |a - b|. Declare an order with `categories=`."
        )
    return tolerance


def within_tolerance(distance: np.ndarray, tolerance: float) -> np.ndarray:
    """Whether score distances are at most `tolerance`, up to rounding (relative 1e-12).

    Examples
    --------
    >>> within_tolerance(np.array([0.0, 1.0, 1.5]), 1.0).tolist()
    [True, True, False]
    """
    return (distance <= tolerance) | np.isclose(distance, tolerance, rtol=1e-12, atol=0)


def agree_within(
    a: np.ndarray, b: np.ndarray, tolerance: float, scores: np.ndarray | None
) -> np.ndarray:
    """Whether the categories (codes) `a` and `b` agree within a validated `tolerance`,
    elementwise: the entries of :func:`tolerance_agreement` at (a, b), without the k x k
    matrix.

    Examples
    --------
    >>> agree_within(np.array([0, 0]), np.array([1, 2]), 1.0, np.array([1.0, 2.0, 3.0]))
    array([ True, False])
    """
    if tolerance == 0:
        return np.asarray(a) == np.asarray(b)
    return within_tolerance(np.abs(scores[a] - scores[b]), tolerance)


def tolerance_agreement(tolerance: Any, n_categories: int, scores: np.ndarray | None) -> np.ndarray:
    """k x k boolean matrix: True where two categories' scores differ by at most `tolerance`.

    ``tolerance=0`` is exact agreement (the identity). A distance equal to the tolerance
    up to rounding (relative 1e-12) counts as within it, so ``|2.0 - 1.0| <= 1`` holds
    however the scores were computed. Bounded by :data:`MAX_SQUARE_CELLS`.

    Examples
    --------
    >>> tolerance_agreement(1, 3, np.array([1.0, 2.0, 3.0])).astype(int)
    array([[1, 1, 0],
           [1, 1, 1],
           [0, 1, 1]])
    """
    tolerance = check_tolerance(tolerance, scores)
    check_square(n_categories, "`tolerance`")
    codes = np.arange(n_categories)
    return agree_within(codes[:, None], codes[None, :], tolerance, scores)


def tolerance_label(tolerance: float) -> tuple[str, str]:
    """The tolerance as it goes into a name and a symbol (``", tolerance 1"``,
    ``", ±1"``); empty strings for exact agreement.

    Examples
    --------
    >>> tolerance_label(1)
    (', tolerance 1', ', ±1')
    >>> tolerance_label(0)
    ('', '')
    """
    if not tolerance:
        return "", ""
    return f", tolerance {tolerance:g}", f", ±{tolerance:g}"
