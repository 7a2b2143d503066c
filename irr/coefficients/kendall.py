r"""Kendall's coefficient of concordance W from an n subjects x m raters matrix of ranks.

Each rater ranks the n subjects (ties get mid-ranks). With :math:`R_i` the rank sum of
subject i and :math:`S = \sum_i (R_i - \bar R)^2`,

.. math::

    W = \frac{12 S}{m^2 (n^3 - n) - m T}, \qquad
    T = \sum_{j=1}^{m} \sum_{g} (t_{gj}^3 - t_{gj}),

where :math:`t_{gj}` are the sizes of the tie groups of rater j (:math:`T = 0` without
the tie correction).
The chi-square statistic is :math:`m (n - 1) W` on n - 1 df, which equals Friedman's
tie-corrected statistic with raters as blocks.
"""

from __future__ import annotations

from typing import NamedTuple

import numpy as np

__all__ = ["KendallParts", "average_ranks", "kendall_kernel", "kendall_w", "tie_sum"]


class KendallParts(NamedTuple):
    """W, its chi-square statistic and the tie sum T."""

    w: float
    chi2: float
    ties: float


def tie_sum(x: np.ndarray) -> float:
    r"""Sum over raters (columns) of :math:`\sum_g (t_g^3 - t_g)` over their tie groups.

    Examples
    --------
    >>> tie_sum(np.array([[1, 1], [1, 2], [2, 3]]))
    6.0
    """
    x = np.sort(np.asarray(x, dtype=float), axis=0)
    if x.size == 0:
        return 0.0
    # the columns one after another; a tie group starts at a new value or a new column
    values = x.T.ravel()
    n = x.shape[0]
    starts = np.r_[True, values[1:] != values[:-1]]
    starts[::n] = True
    t = np.diff(np.append(np.flatnonzero(starts), values.size)).astype(float)
    # integer-valued terms: the float sum is exact in any order (below 2**53)
    return float((t**3 - t).sum())


def average_ranks(x: np.ndarray) -> np.ndarray:
    """Ranks within each column of `x` (1 = smallest), ties at their mid-rank.

    The same numbers as ``scipy.stats.rankdata(x, axis=0)``, without importing
    scipy.stats: a column holding nan is all nan.

    Examples
    --------
    >>> average_ranks(np.array([[3, 1], [1, 1], [3, 2]]))
    array([[2.5, 1.5],
           [1. , 1.5],
           [2.5, 3. ]])
    """
    x = np.asarray(x, dtype=float)
    n = x.shape[0]
    order = np.argsort(x, axis=0, kind="stable")
    ordered = np.take_along_axis(x, order, axis=0)
    differs = ordered[1:] != ordered[:-1]
    position = np.arange(n, dtype=np.int64)[:, None]
    edge = np.ones((1, x.shape[1]), dtype=bool)
    # first position of each one's tie group (0-based) and one past its last
    first = np.maximum.accumulate(np.where(np.r_[edge, differs], position, 0), axis=0)
    stop = np.minimum.accumulate(
        np.where(np.r_[differs, edge], position + 1, n)[::-1], axis=0)[::-1]
    ranks = np.empty_like(x)
    # mid-rank of 1-based ranks first + 1 .. stop: exact (integers, then halved)
    np.put_along_axis(ranks, order, 0.5 * (first + stop + 1), axis=0)
    ranks[:, np.isnan(x).any(axis=0)] = np.nan
    return ranks


def kendall_w(
    x: np.ndarray, correct_ties: bool = True, multiplicity: np.ndarray | None = None
) -> KendallParts:
    """Kendall's W of complete ratings `x` (n subjects x m raters); ranks within raters.

    With `multiplicity` (shape (P,)) each row of `x` is a distinct subject pattern
    standing for that many subjects; W, chi-square and T are computed from the patterns
    (see :func:`kendall_kernel`), never one row per subject.

    Examples
    --------
    >>> parts = kendall_w(np.array([[1, 1, 2], [2, 3, 1], [3, 2, 3], [4, 4, 4]]))
    >>> round(parts.w, 6), round(parts.chi2, 6)
    (0.777778, 7.0)
    >>> parts = kendall_w(np.array([[1, 1], [2, 2], [1, 2]]), multiplicity=np.array([2, 2, 1]))
    >>> round(parts.w, 6), parts.ties
    (0.833333, 60.0)
    """
    x = np.asarray(x, dtype=float)
    if multiplicity is not None:
        counts = np.asarray(multiplicity, dtype=float)[None, :]
        w, ties = _pattern_parts(x, counts, correct_ties)
        n = float(counts.sum())
        w = float(w[0])
        return KendallParts(w, x.shape[1] * (n - 1) * w, float(ties[0]) if correct_ties else 0.0)
    n, m = x.shape
    ranks = average_ranks(x)
    sums = ranks.sum(axis=1)
    s = float(((sums - sums.mean()) ** 2).sum())
    ties = tie_sum(x) if correct_ties else 0.0
    denominator = m * m * (n**3 - n) - m * ties
    w = 12 * s / denominator if denominator > 0 else float("nan")
    return KendallParts(w, m * (n - 1) * w, ties)


def kendall_kernel(x: np.ndarray, counts: np.ndarray, correct_ties: bool = True) -> np.ndarray:
    r"""W for a batch of resamples of distinct subject patterns: shape (b,).

    Parameters
    ----------
    x : ndarray of shape (P, m)
        The scores of the distinct complete subject patterns.
    counts : ndarray of shape (b, P)
        How many subjects of each pattern each resample holds.
    correct_ties : bool

    Notes
    -----
    Within rater j the subjects of the patterns with equal scores form one tie group of
    size :math:`G` (the summed counts); the group's mid-rank is the number of subjects
    below it plus :math:`(G + 1)/2`. The rank sums, S and T follow as for
    :func:`kendall_w`, in O(b P m) without expanding the subjects.

    Examples
    --------
    >>> x = np.array([[1, 1, 2], [2, 3, 1], [3, 2, 3], [4, 4, 4]])
    >>> round(float(kendall_kernel(x, np.ones((1, 4)))[0]), 6)
    0.777778
    """
    return _pattern_parts(x, counts, correct_ties)[0]


def _pattern_parts(
    x: np.ndarray, counts: np.ndarray, correct_ties: bool
) -> tuple[np.ndarray, np.ndarray]:
    """W and the tie sum T of each resample of patterns (see :func:`kendall_kernel`)."""
    x = np.asarray(x, dtype=float)
    counts = np.atleast_2d(np.asarray(counts, dtype=float))
    b = counts.shape[0]
    m = x.shape[1]
    n = counts.sum(axis=1)
    rank_sums = np.zeros_like(counts)
    ties = np.zeros(b)
    for column in x.T:  # one pass per rater
        order = np.argsort(column, kind="stable")
        sorted_values = column[order]
        starts = np.flatnonzero(np.r_[True, sorted_values[1:] != sorted_values[:-1]])
        group = np.empty(len(column), dtype=np.int64)
        group[order] = np.cumsum(np.r_[True, sorted_values[1:] != sorted_values[:-1]]) - 1
        sizes = np.add.reduceat(counts[:, order], starts, axis=1)  # (b, groups)
        below = np.cumsum(sizes, axis=1) - sizes
        rank_sums += (below + (sizes + 1) / 2)[:, group]
        ties += (sizes**3 - sizes).sum(axis=1)
    mean = m * (n + 1) / 2
    s = (counts * (rank_sums - mean[:, None]) ** 2).sum(axis=1)
    denominator = m * m * (n**3 - n) - m * (ties if correct_ties else 0.0)
    with np.errstate(invalid="ignore", divide="ignore"):
        w = np.where(denominator > 0, 12 * s / np.where(denominator > 0, denominator, 1),
                     np.nan)
    return w, ties
