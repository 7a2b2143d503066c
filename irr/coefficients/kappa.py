"""Two-rater (weighted) kappa as a pure, batch-vectorised function of the agreement table.

Every function takes tables of shape ``(..., k, k)`` (any leading batch shape: one table,
or B bootstrap tables at once) and agreement weights of shape ``(k, k)``.
"""

from __future__ import annotations

from typing import Any, NamedTuple

import numpy as np

__all__ = [
    "MAX_LP_CELLS",
    "IdentityKappa",
    "KappaParts",
    "WeightedKappa",
    "cell_influence",
    "identity_kappa",
    "is_monge",
    "kappa_from_cells",
    "kappa_from_counts",
    "kappa_max",
    "kappa_max_note",
    "kappa_parts",
    "kappa_variances",
    "weighted_kappa",
]


class KappaParts(NamedTuple):
    """Observed and expected agreement and kappa, each of the batch shape."""

    observed: np.ndarray
    expected: np.ndarray
    kappa: np.ndarray


def _proportions(tables: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    tables = np.asarray(tables, dtype=float)
    n = tables.sum(axis=(-2, -1))
    with np.errstate(invalid="ignore", divide="ignore"):
        p = tables / n[..., None, None]
    return p, n


def kappa_parts(tables: np.ndarray, weights: np.ndarray) -> KappaParts:
    r"""Observed agreement, chance agreement and kappa of agreement tables.

    .. math::

        p_o = \sum_{ij} w_{ij} p_{ij}, \qquad
        p_e = \sum_{ij} w_{ij} p_{i\cdot} p_{\cdot j}, \qquad
        \kappa = \frac{p_o - p_e}{1 - p_e}.

    Kappa is nan where ``p_e == 1`` (every subject in one category for both raters).
    It is evaluated as :math:`1 - d_o / d_e` with the disagreements
    :math:`d_o = \sum (1 - w_{ij}) p_{ij} = 1 - p_o` and
    :math:`d_e = \sum (1 - w_{ij}) p_{i\cdot} p_{\cdot j} = 1 - p_e`, sums of non-negative
    terms, so it stays accurate when :math:`p_e` is within rounding of 1 and is undefined
    only when :math:`d_e` is exactly 0.

    Examples
    --------
    >>> parts = kappa_parts(np.array([[20, 5], [10, 15]]), np.eye(2))
    >>> float(parts.kappa)
    0.4
    """
    p, _ = _proportions(tables)
    disagreement = 1.0 - weights
    row = p.sum(axis=-1)
    col = p.sum(axis=-2)
    observed_disagreement = np.einsum("...ij,ij->...", p, disagreement)
    expected_disagreement = np.einsum("...i,ij,...j->...", row, disagreement, col)
    with np.errstate(invalid="ignore", divide="ignore"):
        kappa = np.where(
            expected_disagreement > 0, 1.0 - observed_disagreement / expected_disagreement, np.nan
        )
    return KappaParts(1.0 - observed_disagreement, 1.0 - expected_disagreement, kappa)


def kappa_from_counts(counts: np.ndarray, weights: np.ndarray) -> np.ndarray:
    """Kappa of a batch of flattened tables: `counts` has shape (b, k*k), row-major cells.

    This is the kernel the bootstrap engine evaluates on resampled cell counts.
    """
    k = weights.shape[0]
    counts = np.asarray(counts, dtype=float)
    return kappa_parts(counts.reshape(*counts.shape[:-1], k, k), weights).kappa


def kappa_from_cells(
    counts: np.ndarray,
    rows: np.ndarray,
    cols: np.ndarray,
    weights: np.ndarray | None,
    identity: bool = False,
    n_categories: int | None = None,
) -> np.ndarray:
    """Kappa of a batch of tables given by their occupied cells only: shape (b,).

    `counts` (b, C) are the subjects in cells ``(rows[c], cols[c])``; the k x k tables are
    never formed. Margins come from one ``np.bincount`` per batch, observed disagreement
    from the C cells, and expected disagreement from the used rows and columns of
    ``1 - weights`` only (for ``identity=True`` weights, ``1 - sum_i p_i. p_.i``): the
    cost is O(b (C + k)) unweighted and O(b (C + r c)) weighted, r and c the used rows
    and columns. Same values as :func:`kappa_from_counts` of the full tables.
    ``weights=None`` is the identity over `n_categories` categories, never formed.

    Examples
    --------
    >>> counts = np.array([[20.0, 5.0, 10.0, 15.0]])
    >>> kappa_from_cells(counts, np.array([0, 0, 1, 1]), np.array([0, 1, 0, 1]), np.eye(2))
    array([0.4])
    """
    counts = np.atleast_2d(np.asarray(counts, dtype=float))
    rows, cols = np.asarray(rows, dtype=np.int64), np.asarray(cols, dtype=np.int64)
    identity = identity or weights is None
    b = counts.shape[0]
    k = n_categories if weights is None else weights.shape[0]
    n = counts.sum(axis=1)
    offset = (np.arange(b, dtype=np.int64) * k)[:, None]
    row = np.bincount((offset + rows).ravel(), counts.ravel(), b * k).reshape(b, k)
    col = np.bincount((offset + cols).ravel(), counts.ravel(), b * k).reshape(b, k)
    with np.errstate(invalid="ignore", divide="ignore"):
        off = (rows != cols).astype(float) if weights is None else 1.0 - weights[rows, cols]
        observed = counts @ off / n
        if identity:
            # 1 - sum_i p_i. p_.i, summed over the off-diagonal products (no cancellation)
            expected = (row.sum(axis=1) * col.sum(axis=1) - (row * col).sum(axis=1)) / n**2
        else:
            used_rows, used_cols = np.unique(rows), np.unique(cols)
            d = 1.0 - weights[np.ix_(used_rows, used_cols)]
            expected = np.einsum("bi,ij,bj->b", row[:, used_rows], d, col[:, used_cols]) / n**2
        return np.where(expected > 0, 1.0 - observed / expected, np.nan)


class IdentityKappa(NamedTuple):
    """Unweighted kappa of one table given by its occupied cells (:func:`identity_kappa`)."""

    observed: float
    expected: float
    kappa: float
    var0: float
    influence: np.ndarray
    kappa_max: float


def identity_kappa(
    rows: np.ndarray, cols: np.ndarray, counts: np.ndarray, n_categories: int
) -> IdentityKappa:
    r"""Unweighted kappa, its SE under H0, cell influence values and kappa_max, from the
    occupied cells of one table: O(C + k) time and memory, no k x k array.

    The same quantities as :func:`kappa_parts`, :func:`kappa_variances` (``var0``),
    :func:`kappa_max` and the estimator's influence values with ``weights = I``, written
    for the identity. With row and column margins :math:`p_{i\cdot}, p_{\cdot i}`:
    :math:`1 - p_e = \sum_i n_{i\cdot}(n - n_{\cdot i}) / n^2` (integer terms, no
    cancellation); the null variance is Fleiss, Cohen & Everitt's
    :math:`[p_e + p_e^2 - \sum_i p_{i\cdot} p_{\cdot i}(p_{i\cdot} + p_{\cdot i})] /
    (n (1 - p_e)^2)`; a subject in cell (i, j) has gradient
    :math:`g_{ij} = [\delta_{ij}(1 - p_e) - (p_{\cdot i} + p_{j\cdot})(1 - p_o)] /
    (1 - p_e)^2`, centred to :math:`h = g - \sum p g`, with values within 1e-12 of the
    largest :math:`|g|` over all k x k cells set to 0 (rounding noise). ``influence`` is
    h at the given cells.

    Examples
    --------
    >>> res = identity_kappa(np.array([0, 0, 1, 1]), np.array([0, 1, 0, 1]),
    ...                      np.array([20, 5, 10, 15]), 2)
    >>> round(res.kappa, 6), round(float(np.sqrt(res.var0)), 6), round(res.kappa_max, 6)
    (0.4, 0.138564, 0.8)
    """
    rows, cols = np.asarray(rows, dtype=np.int64), np.asarray(cols, dtype=np.int64)
    counts = np.asarray(counts, dtype=float)
    n = float(counts.sum())
    row_n = np.bincount(rows, counts, n_categories)
    col_n = np.bincount(cols, counts, n_categories)
    row, col = row_n / n, col_n / n
    diagonal = rows == cols
    do = float(counts[~diagonal].sum()) / n  # 1 - p_o, off-diagonal cells only
    de = float(row_n @ (n - col_n)) / n**2  # 1 - p_e, sum of non-negative terms
    nan = float("nan")
    if not de > 0:
        return IdentityKappa(1.0 - do, 1.0 - de, nan, nan, np.zeros(len(counts)), nan)
    pe = 1.0 - de
    var0 = (pe + pe**2 - float(row * col @ (row + col))) / (n * de**2)
    g = (diagonal * de - (col[rows] + row[cols]) * do) / de**2
    h = g - float(counts @ g) / n
    # the largest |g| over every cell (occupied or not): the diagonal cells, and the
    # off-diagonal cell with the largest p_.i + p_j. (i != j)
    largest = float(np.abs(de - (col + row) * do).max())
    if n_categories > 1:
        top_col, top_row = np.argsort(col)[-2:], np.argsort(row)[-2:]
        if top_col[-1] != top_row[-1]:
            both = col[top_col[-1]] + row[top_row[-1]]
        else:
            both = max(col[top_col[-1]] + row[top_row[0]], col[top_col[0]] + row[top_row[-1]])
        largest = max(largest, float(both) * do)
    h = np.where(np.abs(h) <= 1e-12 * largest / de**2, 0.0, h)
    best = float(np.minimum(row_n, col_n).sum()) / n
    return IdentityKappa(1.0 - do, pe, 1.0 - do / de, max(var0, 0.0), h,
                         1.0 - (1.0 - best) / de)


class WeightedKappa(NamedTuple):
    """Weighted kappa of one k x k table and what its result reports
    (:func:`weighted_kappa`)."""

    observed: float
    expected: float
    kappa: float
    var: float
    var0: float
    influence: np.ndarray | None
    kappa_max: float


def weighted_kappa(table: np.ndarray, weights: np.ndarray,
                   alternative_variance: bool = True) -> WeightedKappa:
    r"""Weighted kappa of one table, with everything its result reports, in one pass.

    The values of :func:`kappa_parts` (observed and expected agreement, kappa),
    :func:`kappa_variances` (the Fleiss, Cohen & Everitt variances under the alternative
    and under H0), the cells' influence values (``influence``, k x k, as
    :func:`cell_influence`; None where kappa is undefined) and :func:`kappa_max`, with
    the margins, their weighted means and the disagreements found once and the weighted
    sums over the k x k table taken as matrix products: a call for one small table costs
    a couple of dozen numpy operations instead of each function's own (same values up to
    rounding, within 1e-13 relative). ``alternative_variance=False`` leaves ``var`` nan,
    not computed (a caller whose SE comes from the influence values).

    Examples
    --------
    >>> res = weighted_kappa(np.array([[20, 5], [10, 15]]), np.eye(2))
    >>> round(res.kappa, 6), round(float(np.sqrt(res.var)), 6), round(res.kappa_max, 6)
    (0.4, 0.126996, 0.8)
    """
    counts = np.asarray(table, dtype=float)
    # (the ufuncs' reductions: ndarray.sum's, without its Python-level wrapper)
    n = np.add.reduce(counts, axis=None)
    row_n, col_n = np.add.reduce(counts, axis=1), np.add.reduce(counts, axis=0)
    disagreement, identity, monge = _weight_facts(weights)
    nan = float("nan")
    if not n > 0:
        return WeightedKappa(nan, nan, nan, nan, nan, None, nan)
    p = counts / n
    row, col = row_n / n, col_n / n
    do = float(p.ravel() @ disagreement.ravel())  # 1 - p_o, no cancellation
    de = float(row @ disagreement @ col)  # 1 - p_e, sum of non-negative terms
    if not de > 0:
        return WeightedKappa(1.0 - do, 1.0 - de, nan, nan, nan, None, nan)
    expected = 1.0 - de
    both = _weighted_means(weights, row, col)
    g_scaled = weights * de - both * do  # the gradient times (1 - p_e)^2
    h = _centred_influence(p, g_scaled / de**2)
    deviation = weights - both
    deviation *= deviation
    var0 = (float(row @ deviation @ col) - expected**2) / (n * de**2)
    var = nan
    if alternative_variance:
        g_scaled *= g_scaled
        var = max((float(p.ravel() @ g_scaled.ravel()) - (do * de + de - 2 * do) ** 2)
                  / (n * de**4), 0.0)
    best = _kappa_max(row_n, col_n, n, weights, disagreement, de, identity, monge)
    return WeightedKappa(1.0 - do, expected, 1.0 - do / de, var, max(var0, 0.0), h, best)


#: 1 - w, and whether w is the identity and 1 - w Monge, of the last few small weight
#: matrices (:func:`_weight_facts`), by their bytes.
_FACTS: dict[tuple[tuple[int, ...], str, bytes], tuple[np.ndarray, bool, bool]] = {}


def _weight_facts(weights: np.ndarray) -> tuple[np.ndarray, bool, bool]:
    """``1 - weights`` (read-only), whether `weights` is the identity, and whether
    ``1 - weights`` has the Monge property (:func:`is_monge`), remembered for the last few
    weight matrices of up to 32 x 32: for one small table, finding them costs more than
    the arithmetic of kappa."""
    key = (weights.shape, weights.dtype.str, weights.tobytes()) if weights.size <= 1024 else None
    facts = None if key is None else _FACTS.get(key)
    if facts is None:
        disagreement = 1.0 - weights
        disagreement.flags.writeable = False
        facts = (disagreement, bool(np.array_equal(weights, np.eye(len(weights)))),
                 is_monge(disagreement))
        if key is not None:
            if len(_FACTS) >= 64:
                _FACTS.clear()
            _FACTS[key] = facts
    return facts


def cell_influence(p: np.ndarray, row: np.ndarray, col: np.ndarray,
                   weights: np.ndarray) -> np.ndarray:
    r"""Each cell's influence value on weighted kappa, shape (k, k), centred, from the
    cell proportions `p` and their row and column sums.

    A subject in cell (i, j) moves kappa by :math:`h_{ij} = g_{ij} - \sum p_{ab} g_{ab}`
    per unit weight, with the gradient

    .. math:: g_{ij} = \frac{w_{ij}(1 - p_e) - (\bar w_{i\cdot} + \bar w_{\cdot j})
        (1 - p_o)}{(1 - p_e)^2};

    values within 1e-12 of the largest gradient are rounding noise, set to 0 (kappa cannot
    move when all gradients are equal).

    Examples
    --------
    >>> p = np.array([[0.4, 0.1], [0.2, 0.3]])
    >>> cell_influence(p, p.sum(axis=1), p.sum(axis=0), np.eye(2)).round(4)
    array([[ 0.48, -1.52],
           [-1.28,  0.72]])
    """
    disagreement = _weight_facts(weights)[0]
    do = float(p.ravel() @ disagreement.ravel())  # 1 - p_o, without cancellation
    de = float(row @ disagreement @ col)  # 1 - p_e
    g = (weights * de - _weighted_means(weights, row, col) * do) / de**2
    return _centred_influence(p, g)


def _weighted_means(weights: np.ndarray, row: np.ndarray, col: np.ndarray) -> np.ndarray:
    r""":math:`\bar w_{i\cdot} + \bar w_{\cdot j}`, shape (k, k), from the row and column
    proportions (one table)."""
    return (weights @ col)[:, None] + (row @ weights)[None, :]


def _centred_influence(p: np.ndarray, g: np.ndarray) -> np.ndarray:
    """The gradient `g` centred at its mean under `p`, values within 1e-12 of the largest
    ``|g|`` set to 0 (rounding noise)."""
    h = g - float(p.ravel() @ g.ravel())
    return np.where(np.abs(h) <= 1e-12 * np.maximum.reduce(np.abs(g), axis=None), 0.0, h)


def kappa_variances(tables: np.ndarray, weights: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    r"""Large-sample variances of kappa: under the alternative and under H0 (kappa = 0).

    Fleiss, Cohen & Everitt (1969), with row and column weighted means
    :math:`\bar w_{i\cdot} = \sum_j w_{ij} p_{\cdot j}` and
    :math:`\bar w_{\cdot j} = \sum_i w_{ij} p_{i\cdot}`:

    .. math::

        \operatorname{Var}(\hat\kappa) = \frac{\sum_{ij} p_{ij}\,[w_{ij}(1-p_e)
            - (\bar w_{i\cdot} + \bar w_{\cdot j})(1-p_o)]^2
            - (p_o p_e - 2 p_e + p_o)^2}{n (1 - p_e)^4}

        \operatorname{Var}_0(\hat\kappa) = \frac{\sum_{ij} p_{i\cdot} p_{\cdot j}\,
            [w_{ij} - (\bar w_{i\cdot} + \bar w_{\cdot j})]^2 - p_e^2}{n (1 - p_e)^2}

    These are the variances of SAS PROC FREQ (ASE and "ASE under H0"), vcd and
    statsmodels.

    Examples
    --------
    >>> var, var0 = kappa_variances(np.array([[20, 5], [10, 15]]), np.eye(2))
    >>> round(float(np.sqrt(var)), 6), round(float(np.sqrt(var0)), 6)
    (0.126996, 0.138564)
    """
    p, n = _proportions(tables)
    row = p.sum(axis=-1)
    col = p.sum(axis=-2)
    disagreement = 1.0 - weights
    do = np.einsum("...ij,ij->...", p, disagreement)  # 1 - p_o, without cancellation
    de = np.einsum("...i,ij,...j->...", row, disagreement, col)  # 1 - p_e
    with np.errstate(invalid="ignore", divide="ignore"):
        var, var0 = _fce_variances(p, n, row, col, weights, do, de)
    undefined = ~(de > 0)
    var = np.where(undefined, np.nan, np.maximum(var, 0.0))
    var0 = np.where(undefined, np.nan, np.maximum(var0, 0.0))
    return var, var0


def _fce_variances(p: np.ndarray, n: Any, row: np.ndarray, col: np.ndarray,
                   weights: np.ndarray, do: Any, de: Any) -> tuple[np.ndarray, np.ndarray]:
    """Fleiss, Cohen & Everitt's variances (:func:`kappa_variances`, before clipping) from
    the proportions `p` (batched ``...``), their margins, and the observed and expected
    disagreements `do`, `de` (``1 - p_o``, ``1 - p_e``)."""
    do, de = np.asarray(do), np.asarray(de)
    expected = 1.0 - de
    row_mean = np.einsum("ij,...j->...i", weights, col)
    col_mean = np.einsum("...i,ij->...j", row, weights)
    both = row_mean[..., :, None] + col_mean[..., None, :]
    spread = (p * (weights * de[..., None, None] - both * do[..., None, None]) ** 2).sum(
        axis=(-2, -1))
    # p_o p_e - 2 p_e + p_o = (1 - d_o)(1 - d_e) - 2(1 - d_e) + (1 - d_o) = d_o d_e + d_e - 2 d_o
    var = (spread - (do * de + de - 2 * do) ** 2) / (n * de**4)
    null_spread = (row[..., :, None] * col[..., None, :] * (weights - both) ** 2).sum(
        axis=(-2, -1))
    var0 = (null_spread - expected**2) / (n * de**2)
    return var, var0


#: Largest number of LP variables (cells of the table with a positive row and column
#: margin) for which :func:`kappa_max` solves the transport problem by linear programming
#: (well under a second with HiGHS, 200 x 200); beyond it, for weights without the Monge property,
#: kappa_max is nan.
MAX_LP_CELLS = 40_000


def is_monge(disagreement: np.ndarray) -> bool:
    r"""Whether a cost matrix has the Monge property in its row and column order.

    :math:`d_{ij} + d_{i+1,j+1} \le d_{i,j+1} + d_{i+1,j}` for all adjacent 2 x 2 blocks
    (up to rounding), which implies it for all :math:`i < i', j < j'`. Costs that are a
    convex function of the difference of ordered scores (linear, quadratic and Gwet's
    ordinal disagreement weights) have it.

    Examples
    --------
    >>> x = np.array([0.0, 1.0, 3.0])
    >>> is_monge(np.abs(x[:, None] - x[None, :])), is_monge(np.sqrt(np.abs(x[:, None] - x)))
    (True, False)
    """
    d = np.asarray(disagreement, dtype=float)
    if min(d.shape) < 2:
        return True
    excess = d[:-1, :-1] + d[1:, 1:] - d[:-1, 1:] - d[1:, :-1]
    return bool((excess <= 1e-12 * max(float(np.abs(d).max()), 1.0)).all())


def _northwest_corner(row: np.ndarray, col: np.ndarray, weights: np.ndarray) -> float:
    """Sum of w over the monotone (north-west corner) coupling of integer margins, / n.

    The coupling matches the subjects' cumulative positions along the rows and the
    columns: between consecutive breakpoints of the two cumulative sums all mass sits in
    one cell. O(k log k), exact integer breakpoints.
    """
    row_end, col_end = row.cumsum(), col.cumsum()
    breaks = np.concatenate(([0.0], row_end, col_end))
    breaks.sort()
    # segment (start, end] lies in the row and column whose cumulative counts first reach
    # its end; a repeated breakpoint gives a segment of length 0, which adds nothing
    end = breaks[1:]
    length = end - breaks[:-1]
    i, j = row_end.searchsorted(end), col_end.searchsorted(end)
    return float(length @ weights[i, j]) / float(row_end[-1])


def kappa_max(table: np.ndarray, weights: np.ndarray) -> float:
    """The largest kappa the table's marginal distributions allow.

    The maximum observed agreement with the margins fixed is the optimum of the transport
    problem ``max sum w_ij x_ij`` over tables x with those margins. For identity weights
    it is ``sum_i min(p_i., p_.i)`` (Cohen, 1960). When the disagreement weights ``1 - w``
    have the Monge property (:func:`is_monge`; linear, quadratic and ordinal weights on
    ordered categories) the monotone north-west-corner coupling is optimal (Hoffman,
    1963), found in O(k log k). Otherwise the transport problem is solved exactly by
    sparse linear programming (HiGHS) over the cells whose row and column are both used,
    up to :data:`MAX_LP_CELLS` of them; beyond that kappa_max is nan (see
    :func:`kappa_max_note`). No k**2 x k**2 matrix is ever formed.

    Examples
    --------
    >>> round(kappa_max(np.array([[20, 5], [10, 15]]), np.eye(2)), 6)
    0.8
    """
    table = np.asarray(table)
    counts = table.astype(float)
    n = counts.sum()
    row, col = counts.sum(axis=1), counts.sum(axis=0)
    disagreement = 1.0 - weights
    expected_disagreement = float((row / n) @ disagreement @ (col / n)) if n > 0 else 0.0
    if not expected_disagreement > 0:
        return float("nan")
    return _kappa_max(row, col, n, weights, disagreement, expected_disagreement,
                      bool(np.array_equal(weights, np.eye(len(weights)))),
                      is_monge(disagreement))


def _kappa_max(row: np.ndarray, col: np.ndarray, n: float, weights: np.ndarray,
               disagreement: np.ndarray, expected_disagreement: float, identity: bool,
               monge: bool) -> float:
    """:func:`kappa_max` of a table with row and column counts `row`, `col` (n subjects),
    ``disagreement = 1 - weights``, 1 - p_e > 0, and whether `weights` is the identity and
    `disagreement` has the Monge property."""
    if identity:
        best = float(np.minimum(row, col).sum() / n)
    elif monge:
        best = _northwest_corner(row, col, weights)
    else:
        used_rows, used_cols = np.flatnonzero(row), np.flatnonzero(col)
        r, c = len(used_rows), len(used_cols)
        if r * c > MAX_LP_CELLS:
            return float("nan")
        from scipy import sparse
        from scipy.optimize import linprog

        cell = np.arange(r * c)
        constraints = sparse.csr_matrix(
            (np.ones(2 * r * c), (np.concatenate([cell // c, r + cell % c]),
                                  np.concatenate([cell, cell]))),
            shape=(r + c, r * c),
        )
        solution = linprog(
            -weights[np.ix_(used_rows, used_cols)].ravel(),
            A_eq=constraints,
            b_eq=np.concatenate([row[used_rows], col[used_cols]]) / n,
            bounds=(0, None),
            method="highs",
        )
        best = -float(solution.fun)
    return 1.0 - (1.0 - best) / expected_disagreement


def kappa_max_note(table: np.ndarray, weights: np.ndarray) -> str:
    """Why :func:`kappa_max` is nan for a table with kappa defined ("" when it is not).

    Examples
    --------
    >>> kappa_max_note(np.array([[20, 5], [10, 15]]), np.eye(2))
    ''
    """
    table = np.asarray(table)
    r = int((table.sum(axis=1) > 0).sum())
    c = int((table.sum(axis=0) > 0).sum())
    if r * c <= MAX_LP_CELLS or is_monge(1.0 - weights):
        return ""
    return (
        f"kappa_max is not computed (nan): these weights lack the Monge property, so it "
        f"needs a linear program over {r} x {c} = {r * c:,} used cells, above the limit of "
        f"{MAX_LP_CELLS:,} (irr.coefficients.kappa.MAX_LP_CELLS)."
    )
