r"""Krippendorff's alpha as a pure function of the coincidence matrix.

Everything here works from the subject (unit) x category count matrix ``counts`` (Fleiss'
layout, :attr:`irr._statistics.Statistics.count_patterns`): unit u holds :math:`n_{uc}` values
of category c and :math:`m_u = \sum_c n_{uc}` values in all. Units with
:math:`m_u < 2` have no pairable values and drop out. The coincidence matrix is one
weighted matrix product over units,

.. math::

    o_{ck} = \sum_u \frac{n_{uc} n_{uk} - [c = k]\, n_{uc}}{m_u - 1}
           = \big(N^\top \operatorname{diag}(w) N\big)_{ck} - [c = k] \sum_u w_u n_{uc},
    \qquad w_u = \frac{1}{m_u - 1},

so memory is O(units x categories), never units x values x values. With the margins
:math:`n_c = \sum_k o_{ck}`, :math:`n = \sum_c n_c` (the pairable values) and squared
distances :math:`\delta^2_{ck}`,

.. math::

    \alpha = 1 - \frac{D_o}{D_e}
           = 1 - (n - 1)\,\frac{\sum_{ck} o_{ck}\,\delta^2_{ck}}{\sum_{ck} n_c n_k\,\delta^2_{ck}}.

Krippendorff (2011) gives the metrics: nominal :math:`[c \ne k]`; ordinal
:math:`(\sum_{g=c}^{k} n_g - (n_c + n_k)/2)^2` over categories in scale order, which
equals :math:`(T_c - T_k)^2` with :math:`T_c = \sum_{g \le c} n_g - n_c / 2` (so the
ordinal metric is the interval metric on these mid-cumulative frequencies, which depend on
the data); interval :math:`(c - k)^2` and ratio :math:`((c - k)/(c + k))^2` on the
category scores.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from typing import Any

import numpy as np

__all__ = [
    "LEVELS",
    "alpha_from_coincidences",
    "alpha_kernel",
    "coincidences",
    "coincidences_from_codes",
    "distance_matrix",
    "distance_scale",
    "ordinal_positions",
]

#: The levels of measurement with a built-in metric.
LEVELS = ("nominal", "ordinal", "interval", "ratio")


def coincidences(counts: np.ndarray, multiplicity: np.ndarray | None = None) -> np.ndarray:
    """The k x k coincidence matrix of a (units, k) count matrix; unpairable units add 0.

    With `multiplicity`, the rows are distinct patterns and each counts that many times.

    Examples
    --------
    >>> coincidences(np.array([[2, 0], [1, 1], [0, 1]]))
    array([[2., 1.],
           [1., 0.]])
    """
    counts = np.asarray(counts, dtype=float)
    m = counts.sum(axis=-1)
    with np.errstate(divide="ignore"):
        w = np.where(m >= 2, 1.0 / (m - 1.0), 0.0)
    if multiplicity is not None:
        w = w * multiplicity
    o = (counts * w[:, None]).T @ counts
    o[np.diag_indices_from(o)] -= w @ counts
    return o


def coincidences_from_codes(
    codes: Sequence[np.ndarray], n_categories: int
) -> tuple[np.ndarray, np.ndarray]:
    """Coincidences straight from the raters' codes (``-1`` missing), and values per unit.

    The same matrix as :func:`coincidences` of the unit x category counts, built from the
    m (m - 1) / 2 rater pairs with weighted ``np.bincount`` (O(units) memory per pair):
    each pair of values c, k in one unit adds :math:`1/(m_u - 1)` to :math:`o_{ck}` and
    :math:`o_{kc}`. Cheaper than the matrix product when ``m (m - 1) / 2 < k^2``.

    Examples
    --------
    >>> o, m = coincidences_from_codes([np.array([0, 0, 1]), np.array([0, 1, -1])], 2)
    >>> o, m
    (array([[2., 1.],
           [1., 0.]]), array([2, 2, 1]))
    """
    k = n_categories
    width = k + 1  # missing values are coded k and their row and column dropped
    present = [c >= 0 for c in codes]
    m = np.sum(present, axis=0)
    with np.errstate(divide="ignore"):
        w = np.where(m >= 2, 1.0 / (m - 1.0), 0.0)
    filled = [np.where(p, c, k).astype(np.int64) for c, p in zip(codes, present, strict=True)]
    scaled = [f * width for f in filled]
    upper = np.zeros(width * width)
    for i in range(len(codes)):
        for j in range(i + 1, len(codes)):
            upper += np.bincount(scaled[i] + filled[j], weights=w, minlength=width * width)
    upper = upper.reshape(width, width)[:k, :k]
    return upper + upper.T, m


def ordinal_positions(margins: np.ndarray) -> np.ndarray:
    r"""Mid-cumulative frequencies :math:`T_c = \sum_{g \le c} n_g - n_c/2` (any batch shape).

    Krippendorff's ordinal metric is :math:`\delta^2_{ck} = (T_c - T_k)^2`.

    Examples
    --------
    >>> ordinal_positions(np.array([2.0, 4.0, 2.0]))
    array([1., 4., 7.])
    """
    margins = np.asarray(margins, dtype=float)
    return np.cumsum(margins, axis=-1) - margins / 2


def distance_matrix(
    level: str | Callable[..., Any] | np.ndarray,
    n_categories: int,
    scores: np.ndarray | None,
    margins: np.ndarray | None = None,
) -> np.ndarray:
    """Squared distances between categories for a validated `level` (k x k).

    ``'ordinal'`` needs the coincidence `margins`; ``'interval'``, ``'ratio'`` and a
    callable need `scores`. A matrix is returned as given (validated by the caller).
    """
    k = n_categories
    if isinstance(level, np.ndarray):
        return level
    if level == "nominal":
        return 1.0 - np.eye(k)
    if level == "ordinal":
        t = ordinal_positions(margins)
        return (t[:, None] - t[None, :]) ** 2
    if level == "interval":
        return (scores[:, None] - scores[None, :]) ** 2
    if level == "ratio":
        total = scores[:, None] + scores[None, :]
        diff = scores[:, None] - scores[None, :]
        with np.errstate(invalid="ignore", divide="ignore"):
            return np.where(total > 0, (diff / np.where(total > 0, total, 1.0)) ** 2, 0.0)
    return np.asarray(level(scores[:, None], scores[None, :]), dtype=float)


def distance_scale(level: Any, scores: np.ndarray | None) -> float:
    """The power of two to divide the scores by before squaring their differences.

    For the interval metric, the power of two just above the largest difference between
    scores (1 when there is none); alpha is a ratio of disagreements, so the division
    (exact) cancels, and it keeps the squared differences of scores as small as 1e-300 or
    as large as 1e300 inside the float range. Other metrics need none (1.0): ratio
    distances are scale-free, ordinal ones are built from ranks, and a callable or matrix
    is used as given.

    Examples
    --------
    >>> distance_scale("interval", np.array([1.0, 2.5, 4.0]))  # the spread 3 is below 4
    4.0
    >>> distance_scale("interval", np.array([1e-200, 3e-200])) == 2.0**-663
    True
    >>> distance_scale("nominal", None)
    1.0
    """
    if not (isinstance(level, str) and level == "interval") or scores is None or not len(scores):
        return 1.0
    spread = float(np.max(scores) - np.min(scores))
    if not spread > 0 or not math.isfinite(spread):
        return 1.0
    return math.ldexp(1.0, math.frexp(spread)[1])


def alpha_from_coincidences(
    o: np.ndarray, distance: np.ndarray | str
) -> tuple[float, float, float]:
    """Alpha, observed and expected disagreement from a coincidence matrix.

    `distance` is a k x k matrix of squared distances, or ``'ordinal'`` (built from the
    margins of `o`). Returns ``(alpha, D_o, D_e)``; alpha is nan when ``D_e == 0``.

    Examples
    --------
    >>> o = coincidences(np.array([[2, 0], [1, 1], [0, 2], [2, 0]]))
    >>> [round(v, 6) for v in alpha_from_coincidences(o, 1 - np.eye(2))]
    [0.533333, 0.25, 0.535714]
    """
    margins = o.sum(axis=1)
    n = margins.sum()
    if isinstance(distance, str):
        distance = distance_matrix(distance, len(margins), None, margins)
    if n < 2:
        return float("nan"), float("nan"), float("nan")
    observed = float((o * distance).sum() / n)
    expected = float(margins @ distance @ margins / (n * (n - 1)))
    alpha = 1.0 - observed / expected if expected > 0 else float("nan")
    return alpha, observed, expected


def alpha_kernel(
    patterns: np.ndarray,
    batch_counts: np.ndarray,
    distance: np.ndarray | str,
    *,
    chunk: int = 1 << 22,
) -> np.ndarray:
    r"""Alpha for a batch of resamples of distinct unit patterns: shape (b,).

    Parameters
    ----------
    patterns : ndarray of shape (P, k)
        Distinct rows of the unit x category count matrix
        (:attr:`irr._statistics.Statistics.count_patterns`).
    batch_counts : ndarray of shape (b, P) or (P,)
        How many units of each pattern each resample holds.
    distance : ndarray of shape (k, k) or 'ordinal'
        Squared distances; ``'ordinal'`` rebuilds Krippendorff's ordinal metric from each
        resample's own margins, as the definition requires.
    chunk : int
        Upper bound on the b x P intermediates of the ordinal path (elements).

    Notes
    -----
    Each pattern p contributes :math:`w_p (n_p^\top \delta n_p - \operatorname{diag}(\delta)
    \cdot n_p)` to :math:`\sum o\,\delta` and :math:`n_p` to the margins (when it is
    pairable), so a fixed metric costs one (b, P) x (P,) product; the ordinal metric,
    :math:`\delta_{ck} = (T_c - T_k)^2`, expands to
    :math:`\sum o\,\delta = 2\sum_c n_c T_c^2 - 2 T^\top o T` with
    :math:`T^\top o T = \sum_p c_p w_p [(n_p \cdot T)^2 - n_p \cdot T^2]`.

    Examples
    --------
    >>> patterns = np.array([[2, 0], [1, 1], [0, 2]])
    >>> alpha_kernel(patterns, np.array([[2, 1, 1], [1, 1, 2]]), 1 - np.eye(2)).round(6)
    array([0.533333, 0.533333])
    """
    patterns = np.asarray(patterns, dtype=float)
    batch = np.atleast_2d(np.asarray(batch_counts, dtype=float))
    m = patterns.sum(axis=1)
    pairable = m >= 2
    with np.errstate(divide="ignore"):
        w = np.where(pairable, 1.0 / (m - 1.0), 0.0)
    values = patterns * pairable[:, None]
    margins = batch @ values
    n = margins.sum(axis=1)
    if isinstance(distance, str):
        t = ordinal_positions(margins)
        inner = np.empty(len(batch))
        rows = max(1, chunk // max(1, len(patterns)))
        for start in range(0, len(batch), rows):
            stop = start + rows
            tb = t[start:stop]
            dot = tb @ patterns.T
            sq = (tb * tb) @ patterns.T
            inner[start:stop] = ((dot * dot - sq) * w * batch[start:stop]).sum(axis=1)
        observed = 2 * (margins * t * t).sum(axis=1) - 2 * inner
        weighted = (margins * t).sum(axis=1)
        expected = 2 * n * (margins * t * t).sum(axis=1) - 2 * weighted * weighted
    else:
        per_pattern = w * (
            np.einsum("pc,pc->p", patterns @ distance, patterns) - patterns @ np.diag(distance)
        )
        observed = batch @ per_pattern
        expected = np.einsum("bc,bc->b", margins @ distance, margins)
    with np.errstate(invalid="ignore", divide="ignore"):
        alpha = 1.0 - (n - 1.0) * observed / expected
    return np.where((expected > 0) & (n >= 2), alpha, np.nan)
