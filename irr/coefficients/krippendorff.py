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
from typing import TYPE_CHECKING, Any

import numpy as np

if TYPE_CHECKING:
    from scipy import sparse

__all__ = [
    "LEVELS",
    "alpha_from_coincidences",
    "alpha_kernel",
    "alpha_linearised",
    "alpha_moments",
    "alpha_of_moments",
    "coincidences",
    "coincidences_from_codes",
    "distance_matrix",
    "distance_scale",
    "interval_alpha_of_moments",
    "interval_moments",
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
    from scipy import sparse  # imported here: scipy.sparse costs ~0.1 s at import

    # sparse products: O(sum over units of their nonzero counts squared), not O(units k^2)
    counts = sparse.csr_matrix(counts, dtype=float)
    m = np.asarray(counts.sum(axis=1)).ravel()
    with np.errstate(divide="ignore"):
        w = np.where(m >= 2, 1.0 / (m - 1.0), 0.0)
    if multiplicity is not None:
        w = w * multiplicity
    o = (counts.T @ sparse.diags(w) @ counts).toarray()
    o[np.diag_indices_from(o)] -= counts.T @ w
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
    scores: np.ndarray | None = None,
    chunk: int = 1 << 22,
) -> np.ndarray:
    r"""Alpha for a batch of resamples of distinct unit patterns: shape (b,).

    Parameters
    ----------
    patterns : ndarray or scipy.sparse matrix of shape (P, k)
        Distinct rows of the unit x category count matrix
        (:attr:`irr._statistics.Statistics.count_patterns`); sparse saves converting
        them for each batch.
    batch_counts : ndarray of shape (b, P) or (P,)
        How many units of each pattern each resample holds.
    distance : ndarray of shape (k, k), 'nominal', 'ordinal' or 'interval'
        Squared distances. ``'ordinal'`` rebuilds Krippendorff's ordinal metric from each
        resample's own margins, as the definition requires; ``'nominal'`` and
        ``'interval'`` (which needs `scores`) are the built-in metrics, computed without
        a k x k matrix.
    scores : ndarray of shape (k,), optional
        The category scores of the interval metric.
    chunk : int
        Upper bound on the b x P intermediates of the ordinal path (elements).

    Notes
    -----
    Each pattern p contributes :math:`w_p (n_p^\top \delta n_p - \operatorname{diag}(\delta)
    \cdot n_p)` to :math:`\sum o\,\delta` and :math:`n_p` to the margins (when it is
    pairable), so the observed disagreement costs one (b, P) x (P,) product, and the
    resampled margins one product of the weights with the sparse pattern x category
    counts: O(b (P + nnz)) for nnz nonzero counts, never O(b P k). The expected
    disagreement :math:`\sum_{ck} n_c n_k \delta_{ck}` is
    :math:`\sum_c n_c (n - n_c)` for the nominal metric and
    :math:`2 n \sum_c n_c (s_c - \bar s)^2` (:math:`\bar s` the resample's mean score)
    for the interval metric, O(b k); the ordinal metric,
    :math:`\delta_{ck} = (T_c - T_k)^2`, expands to
    :math:`\sum o\,\delta = 2\sum_c n_c T_c^2 - 2 T^\top o T` with
    :math:`T^\top o T = \sum_p c_p w_p [(n_p \cdot T)^2 - n_p \cdot T^2]`, O(b (P + nnz)).
    A matrix (the ratio metric, which does not separate, or a custom one) keeps the
    quadratic form :math:`n^\top \delta\, n`: O(b k^2) time, O(b k) memory.

    Examples
    --------
    >>> patterns = np.array([[2, 0], [1, 1], [0, 2]])
    >>> alpha_kernel(patterns, np.array([[2, 1, 1], [1, 1, 2]]), 1 - np.eye(2)).round(6)
    array([0.533333, 0.533333])
    >>> alpha_kernel(patterns, np.array([[2, 1, 1], [1, 1, 2]]), "nominal").round(6)
    array([0.533333, 0.533333])
    """
    if not (isinstance(distance, str) and distance == "ordinal"):
        moments = alpha_moments(patterns, distance, scores)
        batch = np.atleast_2d(np.asarray(batch_counts, dtype=float))
        return alpha_of_moments(np.asarray(moments.T @ batch.T).T, distance, scores)
    from scipy import sparse  # imported here: scipy.sparse costs ~0.1 s at import

    patterns, w, rows, cols, nonzero = _pairable_entries(patterns)
    batch = np.atleast_2d(np.asarray(batch_counts, dtype=float))
    size, k = patterns.shape
    # the pairable counts as a sparse (k, P) matrix: margins^T = values^T @ batch^T
    values_t = sparse.csr_matrix((nonzero, (cols, rows)), shape=(k, size))
    margins = np.asarray(values_t @ batch.T).T
    n = margins.sum(axis=1)
    t = ordinal_positions(margins)
    inner = np.empty(len(batch))
    step = max(1, chunk // max(1, size, patterns.nnz))
    for start in range(0, len(batch), step):
        stop = start + step
        tb = t[start:stop]
        dot = np.asarray(patterns @ tb.T).T  # w is 0 for the unpairable patterns
        sq = np.asarray(patterns @ (tb * tb).T).T
        inner[start:stop] = ((dot * dot - sq) * w * batch[start:stop]).sum(axis=1)
    observed = 2 * (margins * t * t).sum(axis=1) - 2 * inner
    weighted = (margins * t).sum(axis=1)
    expected = 2 * n * (margins * t * t).sum(axis=1) - 2 * weighted * weighted
    with np.errstate(invalid="ignore", divide="ignore"):
        alpha = 1.0 - (n - 1.0) * observed / expected
    return np.where((expected > 0) & (n >= 2), alpha, np.nan)


def _pairable_entries(
    patterns: Any,
) -> tuple[Any, np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """The count patterns as one sparse (P, k) matrix in canonical form (rows sorted, no
    duplicates), each pattern's weight ``1 / (m - 1)`` (0 when it has fewer than two
    values: not pairable), and the (pattern, category, count) entries of the pairable
    patterns."""
    from scipy import sparse  # imported here: scipy.sparse costs ~0.1 s at import

    patterns = sparse.csr_matrix(patterns, dtype=float)
    patterns.sum_duplicates()
    every_rows = np.repeat(np.arange(patterns.shape[0]), np.diff(patterns.indptr))
    m = np.bincount(every_rows, weights=patterns.data, minlength=patterns.shape[0])
    pairable = m >= 2
    with np.errstate(divide="ignore"):
        w = np.where(pairable, 1.0 / (m - 1.0), 0.0)
    keep = pairable[every_rows]
    return patterns, w, every_rows[keep], patterns.indices[keep], patterns.data[keep]


def alpha_moments(
    patterns: Any, distance: np.ndarray | str, scores: np.ndarray | None = None
) -> sparse.csr_matrix:
    r"""The per-pattern sums behind alpha, a sparse (P, 1 + k) matrix (any metric but
    ordinal).

    Row p holds :math:`w_p (n_p^\top \delta n_p - \operatorname{diag}(\delta) \cdot n_p)`
    (pattern p's share of :math:`\sum o\,\delta`) in column 0 and its counts
    :math:`n_p` in columns 1..k, both 0 when the pattern is not pairable
    (:math:`m_p < 2`). Alpha depends on resampled counts c only through ``c @ moments``
    (:func:`alpha_of_moments`), so these pattern-only quantities are computed once per
    bootstrap, never per batch of resamples.

    Examples
    --------
    >>> alpha_moments(np.array([[2, 0], [1, 1], [1, 0]]), "nominal").toarray()
    array([[0., 2., 0.],
           [2., 1., 1.],
           [0., 0., 0.]])
    """
    from scipy import sparse  # imported here: scipy.sparse costs ~0.1 s at import

    patterns, w, rows, cols, nonzero = _pairable_entries(patterns)
    size, k = patterns.shape
    disagreement = _pattern_disagreement(rows, cols, nonzero, size, distance, scores)
    observed = w * disagreement
    has = np.flatnonzero(observed != 0)
    return sparse.csr_matrix(
        (np.concatenate([observed[has], nonzero]),
         (np.concatenate([has, rows]), np.concatenate([np.zeros(has.size, np.int64),
                                                        cols + 1]))),
        shape=(size, k + 1),
    )


def alpha_of_moments(
    sums: np.ndarray, distance: np.ndarray | str, scores: np.ndarray | None = None
) -> np.ndarray:
    r"""Alpha of resamples from their sums of :func:`alpha_moments`, (b, 1 + k) -> (b,).

    Column 0 is :math:`\sum o\,\delta`, columns 1..k the margins :math:`n_c`. The
    expected disagreement :math:`\sum_{ck} n_c n_k \delta_{ck}` is
    :math:`\sum_c n_c (n - n_c)` for the nominal metric and
    :math:`2 n \sum_c n_c (s_c - \bar s)^2` (:math:`\bar s` the resample's mean score)
    for the interval metric, O(b k); a matrix keeps the quadratic form
    :math:`n^\top \delta\, n`, O(b k^2) time, O(b k) memory.

    Examples
    --------
    >>> patterns = np.array([[2, 0], [1, 1], [0, 2]])
    >>> sums = np.array([[2, 1, 1], [1, 1, 2]]) @ alpha_moments(patterns, "nominal")
    >>> alpha_of_moments(sums, "nominal").round(6)
    array([0.533333, 0.533333])
    """
    sums = np.atleast_2d(np.asarray(sums, dtype=float))
    observed, margins = sums[:, 0], sums[:, 1:]
    n = margins.sum(axis=1)
    if isinstance(distance, str) and distance == "nominal":
        expected = np.einsum("bc,bc->b", margins, n[:, None] - margins)
    elif isinstance(distance, str):  # interval: 2 n times the sum of squared deviations
        # scores relative to one observed in the resample, so that a resample of one
        # category has deviations of exactly 0 (expected 0, alpha nan)
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


def _pattern_disagreement(
    rows: np.ndarray, cols: np.ndarray, counts: np.ndarray, size: int,
    distance: np.ndarray | str, scores: np.ndarray | None,
) -> np.ndarray:
    r""":math:`n_p^\top \delta n_p - \operatorname{diag}(\delta) \cdot n_p` for each of
    `size` patterns given by their nonzero `counts` at (`rows`, `cols`), rows sorted: the
    sum of :math:`\delta` over the ordered pairs of values in the unit (O(nnz k) for a
    matrix, O(nnz) for 'nominal' and 'interval')."""
    if isinstance(distance, str):
        if distance == "nominal":  # pairs of different categories: m^2 - sum_c n_c^2
            m = np.bincount(rows, weights=counts, minlength=size)
            return np.bincount(rows, weights=counts * (m[rows] - counts), minlength=size)
        # interval: 2 m sum_c n_c (s_c - mean)^2 around the unit's own mean score
        # scores relative to the unit's first value, so that a unit of one category has
        # deviations of exactly 0
        m = np.bincount(rows, weights=counts, minlength=size)
        first = np.r_[True, rows[1:] != rows[:-1]][: len(rows)]
        reference = np.zeros(size)
        reference[rows[first]] = scores[cols[first]]
        shifted = scores[cols] - reference[rows]
        with np.errstate(invalid="ignore", divide="ignore"):
            mean = np.bincount(rows, weights=counts * shifted, minlength=size) / m
        deviation = shifted - mean[rows]
        spread = np.bincount(rows, weights=counts * deviation * deviation, minlength=size)
        return np.where(m > 0, 2 * m * spread, 0.0)
    from scipy import sparse  # imported here: scipy.sparse costs ~0.1 s at import

    counts_sparse = sparse.csr_matrix((counts, (rows, cols)), shape=(size, len(distance)))
    spread = np.asarray(counts_sparse @ distance)  # (P, k): row p is n_p^T delta
    quadratic = np.bincount(rows, weights=counts * spread[rows, cols], minlength=size)
    return quadratic - np.bincount(rows, weights=counts * np.diag(distance)[cols],
                                   minlength=size)


def alpha_linearised(
    patterns: Any, multiplicity: np.ndarray, distance: np.ndarray | str,
    scores: np.ndarray | None = None,
) -> tuple[float, float, int]:
    r"""Alpha and Gwet's (2011; 2014, ch. 4) linearised variance over sampled units.

    `patterns` are (P, k) unit x category counts, each standing for `multiplicity` units;
    `distance` is ``'nominal'``, ``'interval'`` (on `scores`) or a k x k matrix of squared
    distances. Returns (alpha, variance, pairable units n).

    Gwet writes alpha as a chance-corrected coefficient on the n units with two or more
    values (:math:`r_i` of them, mean :math:`\bar r`, :math:`N = n \bar r` values):
    :math:`\alpha = 1 - D_o / D_e` with :math:`D_o = (1 - 1/N)\,\bar d`,
    :math:`d_i = n_i^\top \delta n_i / (\bar r (r_i - 1))` the unit's disagreement,
    :math:`D_e = \pi^\top \delta \pi`, :math:`\pi = \sum_i n_i / N` (Krippendorff's alpha
    exactly). The variance is the delta method's for the coefficient before the
    small-sample factor, :math:`\alpha' = 1 - \bar d / D_e` (Gwet's agreement weights
    are :math:`1 - \delta/\delta_{max}`; the scale cancels):

    .. math::

        \alpha'_i = 1 - \frac{d_i - \bar d\,(r_i - \bar r)/\bar r}{D_e},\quad
        \alpha_i^* = \alpha'_i - 2 (1 - \alpha') \Big(\frac{r_i}{\bar r}
        - \frac{n_i^\top \delta \pi}{\bar r D_e}\Big),\quad
        v(\alpha) = \frac{\sum_i (\alpha_i^* - \alpha')^2}{n (n - 1)},

    as irrCAC's ``krippen.alpha.raw`` (GitHub version of August 2021) and Stata's
    kappaetc compute it (their printed SEs are reproduced in
    ``tests/reference/test_inference_published.py``).

    Examples
    --------
    >>> counts = np.array([[2, 0], [1, 1], [0, 2], [3, 0]])
    >>> alpha, variance, n = alpha_linearised(counts, np.ones(4), "nominal")
    >>> round(alpha, 4), round(variance ** 0.5, 4), n
    (0.5556, 0.5031, 4)
    """
    patterns, w, rows, cols, nonzero = _pairable_entries(patterns)
    size, k = patterns.shape
    r = np.bincount(rows, weights=nonzero, minlength=size)  # 0 for unpairable patterns
    m = np.where(r >= 2, np.asarray(multiplicity, dtype=float), 0.0)
    n = float(m.sum())
    if n < 2:
        return math.nan, math.nan, int(n)
    r_bar = float(m @ r) / n
    pi = np.bincount(cols, weights=m[rows] * nonzero, minlength=k) / (n * r_bar)
    if isinstance(distance, str) and distance == "nominal":
        spread = 1.0 - pi  # (delta pi)_c = sum_l [c != l] pi_l
    elif isinstance(distance, str):  # interval: (s_c - mean)^2 + variance of the values
        centred = scores - pi @ scores
        spread = centred * centred + pi @ (centred * centred)
    else:
        spread = np.asarray(distance, dtype=float) @ pi
    expected = float(pi @ spread)
    disagreement = _pattern_disagreement(rows, cols, nonzero, size, distance, scores)
    d = disagreement * w / r_bar
    mean_d = float(m @ d) / n
    observed = (1.0 - 1.0 / (n * r_bar)) * mean_d
    with np.errstate(invalid="ignore", divide="ignore"):
        alpha = 1.0 - observed / expected if expected > 0 else math.nan
        uncorrected = 1.0 - mean_d / expected if expected > 0 else math.nan
        e = np.bincount(rows, weights=nonzero * spread[cols], minlength=size) / r_bar
        ratio = r / r_bar
        alpha_i = 1.0 - (d - mean_d * (ratio - 1.0)) / expected
        star = alpha_i - 2.0 * (1.0 - uncorrected) * (ratio - e / expected)
    if not math.isfinite(alpha):
        return math.nan, math.nan, int(n)
    deviation = np.where(m > 0, star - uncorrected, 0.0)
    return alpha, float(m @ deviation**2) / (n * (n - 1.0)), round(n)


def interval_moments(values: np.ndarray) -> np.ndarray:
    r"""Per-unit sums behind interval alpha, from the values themselves: (P, 4).

    `values` is a (P, m) matrix of values, ``nan`` where missing (one row per unit or
    distinct unit pattern). Row p holds, for a pairable unit (:math:`m_p \ge 2`), its
    share :math:`\sum_{i \ne j} (v_i - v_j)^2 / (m_p - 1) = 2 m_p SS_p / (m_p - 1)` of
    :math:`\sum o\,\delta` (:math:`SS_p` the squared deviations from the unit's mean),
    :math:`m_p`, :math:`\sum v` and :math:`\sum v^2`; zeros otherwise. Alpha of any
    resample is :func:`interval_alpha_of_moments` of its sums, so no k x k matrix and no
    category is formed: any number of distinct values. The values should be centred
    (alpha does not change under a shift) and scaled by a power of two.

    Examples
    --------
    >>> v = np.array([[1.0, 1.0], [1.0, 2.0], [2.0, 2.0], [1.0, np.nan]])
    >>> interval_moments(v)[:, 0].tolist()
    [0.0, 2.0, 0.0, 0.0]
    """
    present = ~np.isnan(values)
    m = present.sum(axis=1)
    pairable = m >= 2
    v = np.where(present, values, 0.0)
    s1 = v.sum(axis=1)
    s2 = (v * v).sum(axis=1)
    with np.errstate(invalid="ignore", divide="ignore"):
        mean = s1 / m
        deviations = np.where(present, values - mean[:, None], 0.0)
        share = 2.0 * m * (deviations * deviations).sum(axis=1) / (m - 1.0)
    out = np.column_stack([share, m.astype(float), s1, s2])
    out[~pairable] = 0.0
    return out


def interval_alpha_of_moments(sums: np.ndarray) -> np.ndarray:
    r"""Interval alpha of resamples from their sums of :func:`interval_moments`,
    (b, 4) -> (b,): :math:`1 - (n - 1) \sum o\,\delta / (2 (n \sum v^2 - (\sum v)^2))`.

    Examples
    --------
    >>> v = np.array([[1.0, 1.0], [1.0, 2.0], [2.0, 2.0]])
    >>> interval_alpha_of_moments(interval_moments(v).sum(axis=0)).round(6)
    array([0.444444])
    """
    sums = np.atleast_2d(np.asarray(sums, dtype=float))
    observed, n, s1, s2 = sums.T
    expected = 2.0 * (n * s2 - s1 * s1)
    with np.errstate(invalid="ignore", divide="ignore"):
        alpha = 1.0 - (n - 1.0) * observed / expected
    return np.where((expected > 0) & (n >= 2), alpha, np.nan)
