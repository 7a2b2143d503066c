r"""Bangdiwala's B agreement statistic of two raters, from the occupied cells of their table.

:math:`B = \sum_i n_{ii}^2 / \sum_i n_{i\cdot} n_{\cdot i}` (Bangdiwala 1985): the area of
the black squares of the agreement chart over the area of its rectangles. The weighted
:math:`B^w` adds the areas of partial agreement, disagreements by s categories weighted
:math:`w_s` (Friendly & Meyer 2016, sec. 4.5; vcd's ``agreementplot``):

.. math:: B^w = \frac{\sum_i n_{ii}^2 + \sum_{s=1}^{m} w_s (A_{si} - A_{s-1,i})}
    {\sum_i n_{i\cdot} n_{\cdot i}},\qquad A_{si} = \Big(\sum_{|j - i| \le s} n_{ij}\Big)
    \Big(\sum_{|j - i| \le s} n_{ji}\Big),

with :math:`A_{0i} = n_{ii}^2`: the rectangle of category i's partial agreement within s
steps, its width the second rater's ratings i given by the first rater within s steps of
i and its height the first rater's i against the second rater's within s steps.

Examples
--------
>>> import numpy as np
>>> table = np.array([[13, 0, 0], [0, 20, 7], [0, 4, 56]])  # irrCAC's cont3x3abstractors
>>> rows, cols = np.indices(table.shape).reshape(2, -1)
>>> bangdiwala_b(table.reshape(1, -1), rows, cols, 3).round(7)
array([0.8059604])
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import NamedTuple

import numpy as np

__all__ = ["BangdiwalaFit", "bangdiwala_b", "bangdiwala_fit"]


def _sums(counts: np.ndarray, index: np.ndarray, size: int) -> np.ndarray:
    """Sums of the batch `counts` (b, C) over cells sharing `index`, shape (b, size)."""
    b = counts.shape[0]
    offset = (np.arange(b, dtype=np.int64) * size)[:, None]
    flat = np.broadcast_to(offset + index, counts.shape).ravel()
    return np.bincount(flat, counts.ravel(), b * size).reshape(b, size)


def _areas(
    counts: np.ndarray, rows: np.ndarray, cols: np.ndarray, k: int, steps: int
) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """The row and column parts within s = 0..steps categories, each (b, steps + 1, k),
    and the products of the margins summed, (b,)."""
    distance = np.abs(rows - cols)
    near = distance <= steps
    size = (steps + 1) * k
    row_part = _sums(counts[:, near], distance[near] * k + rows[near], size)
    col_part = _sums(counts[:, near], distance[near] * k + cols[near], size)
    shape = (counts.shape[0], steps + 1, k)
    row_part = np.cumsum(row_part.reshape(shape), axis=1)
    col_part = np.cumsum(col_part.reshape(shape), axis=1)
    margins = (_sums(counts, rows, k) * _sums(counts, cols, k)).sum(axis=1)
    return row_part, col_part, margins


def _increments(partial_weights: Sequence[float]) -> np.ndarray:
    """w_s - w_(s+1) for s = 0..m (w_0 = 1, w_(m+1) = 0): the weight of each area A_s."""
    w = np.concatenate([[1.0], np.asarray(partial_weights, dtype=float), [0.0]])
    return w[:-1] - w[1:]


def bangdiwala_b(
    counts: np.ndarray,
    rows: np.ndarray,
    cols: np.ndarray,
    n_categories: int,
    partial_weights: Sequence[float] = (),
) -> np.ndarray:
    """Bangdiwala's B (or weighted B) of a batch of tables given by their cells, (b,).

    `counts` (b, C) are the subjects in cells ``(rows[c], cols[c])``; the k x k tables are
    never formed: O(b (C + k m)) for m partial steps. ``partial_weights`` (w_1, ..., w_m)
    weigh the areas of disagreement by 1, ..., m categories (vcd's ``weights`` without
    its leading 1); empty gives the unweighted B. nan where no subject is rated.

    Examples
    --------
    >>> counts = np.array([[20.0, 5.0, 10.0, 15.0]])
    >>> rows, cols = np.array([0, 0, 1, 1]), np.array([0, 1, 0, 1])
    >>> bangdiwala_b(counts, rows, cols, 2)  # (400 + 225) / (25 * 30 + 25 * 20)
    array([0.5])
    >>> bangdiwala_b(counts, rows, cols, 2, [1.0])  # partial agreement counted in full
    array([1.])
    """
    counts = np.atleast_2d(np.asarray(counts, dtype=float))
    rows, cols = np.asarray(rows, dtype=np.int64), np.asarray(cols, dtype=np.int64)
    steps = len(partial_weights)
    row_part, col_part, margins = _areas(counts, rows, cols, n_categories, steps)
    observed = (row_part * col_part).sum(axis=2) @ _increments(partial_weights)
    with np.errstate(invalid="ignore", divide="ignore"):
        return np.where(margins > 0, observed / np.where(margins > 0, margins, 1.0), np.nan)


class BangdiwalaFit(NamedTuple):
    """B of one table, with the cells' influence values (:func:`bangdiwala_fit`)."""

    estimate: float
    influence: np.ndarray


def bangdiwala_fit(
    counts: np.ndarray,
    rows: np.ndarray,
    cols: np.ndarray,
    n_categories: int,
    partial_weights: Sequence[float] = (),
) -> BangdiwalaFit:
    r"""B of one table given by its cells, and each cell's centred influence value.

    B is a ratio of two quadratic forms in the cell proportions p; its gradient at cell
    (a, b) is

    .. math:: g_{ab} = \frac{1}{E}\Big(\sum_s c_s \big([|b - a| \le s]\, C_{sa}
        + [|a - b| \le s]\, R_{sb}\big) - B\,(p_{\cdot a} + p_{b\cdot})\Big),

    with :math:`R_{si}, C_{si}` the row and column parts of category i within s steps
    (proportions), :math:`c_s = w_s - w_{s+1}` and :math:`E = \sum_i p_{i\cdot}
    p_{\cdot i}`. The centred :math:`h = g - \sum p g` gives the delta-method variance
    :math:`\sum p_{ab} h_{ab}^2 / n` of the multinomial table, which is the SE irrCAC's
    ``bangdiwala.table`` prints (0.05449465 on ``cont3x3abstractors``).

    Examples
    --------
    >>> table = np.array([13, 0, 0, 0, 20, 7, 0, 4, 56], dtype=float)
    >>> rows, cols = np.indices((3, 3)).reshape(2, -1)
    >>> fit = bangdiwala_fit(table, rows, cols, 3)
    >>> round(float(np.sqrt(table @ fit.influence**2) / table.sum()), 8)
    0.05449465
    """
    counts = np.asarray(counts, dtype=float)
    rows, cols = np.asarray(rows, dtype=np.int64), np.asarray(cols, dtype=np.int64)
    n = counts.sum()
    if n <= 0:
        return BangdiwalaFit(np.nan, np.zeros(counts.shape))
    k, steps = n_categories, len(partial_weights)
    row_part, col_part, margins = _areas(counts[None, :] / n, rows, cols, k, steps)
    row_part, col_part, expected = row_part[0], col_part[0], float(margins[0])
    increments = _increments(partial_weights)
    if expected <= 0:
        return BangdiwalaFit(np.nan, np.zeros(counts.shape))
    estimate = float(increments @ (row_part * col_part).sum(axis=1)) / expected
    distance = np.abs(rows - cols)
    within = distance[None, :] <= np.arange(steps + 1)[:, None]  # (steps + 1, C)
    # cell (a, b) lies in the row part of category a and the column part of category b
    d_observed = increments @ (within * (col_part[:, rows] + row_part[:, cols]))
    row_total = np.bincount(rows, counts / n, k)
    col_total = np.bincount(cols, counts / n, k)
    d_expected = col_total[rows] + row_total[cols]
    g = (d_observed - estimate * d_expected) / expected
    h = g - (counts / n) @ g
    return BangdiwalaFit(estimate, np.where(np.abs(h) <= 1e-12 * np.abs(g).max(), 0.0, h))
