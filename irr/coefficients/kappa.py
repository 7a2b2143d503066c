"""Two-rater (weighted) kappa as a pure, batch-vectorised function of the agreement table.

Every function takes tables of shape ``(..., k, k)`` (any leading batch shape: one table,
or B bootstrap tables at once) and agreement weights of shape ``(k, k)``.
"""

from __future__ import annotations

from typing import NamedTuple

import numpy as np

__all__ = ["KappaParts", "kappa_from_counts", "kappa_max", "kappa_parts", "kappa_variances"]


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
    expected = 1.0 - de
    row_mean = np.einsum("ij,...j->...i", weights, col)
    col_mean = np.einsum("...i,ij->...j", row, weights)
    both = row_mean[..., :, None] + col_mean[..., None, :]
    do_ = do[..., None, None]
    de_ = de[..., None, None]
    with np.errstate(invalid="ignore", divide="ignore"):
        spread = (p * (weights * de_ - both * do_) ** 2).sum(axis=(-2, -1))
        # p_o p_e - 2 p_e + p_o = (1 - d_o)(1 - d_e) - 2(1 - d_e) + (1 - d_o)
        #                       = d_o d_e + d_e - 2 d_o
        var = (spread - (do * de + de - 2 * do) ** 2) / (n * de**4)
        null_spread = (row[..., :, None] * col[..., None, :] * (weights - both) ** 2).sum(
            axis=(-2, -1)
        )
        var0 = (null_spread - expected**2) / (n * de**2)
    undefined = ~(de > 0)
    var = np.where(undefined, np.nan, np.maximum(var, 0.0))
    var0 = np.where(undefined, np.nan, np.maximum(var0, 0.0))
    return var, var0


def kappa_max(table: np.ndarray, weights: np.ndarray) -> float:
    """The largest kappa the table's marginal distributions allow.

    The maximum observed agreement with the margins fixed is, for identity weights,
    ``sum_i min(p_i., p_.i)`` (Cohen, 1960); for general weights it is the optimum of the
    transport problem ``max sum w_ij x_ij`` over tables x with those margins, solved
    exactly by linear programming.

    Examples
    --------
    >>> round(kappa_max(np.array([[20, 5], [10, 15]]), np.eye(2)), 6)
    0.8
    """
    p, _ = _proportions(table)
    row = p.sum(axis=1)
    col = p.sum(axis=0)
    expected_disagreement = float(row @ (1.0 - weights) @ col)
    if not expected_disagreement > 0:
        return float("nan")
    if np.array_equal(weights, np.eye(len(weights))):
        best = float(np.minimum(row, col).sum())
    else:
        from scipy.optimize import linprog

        k = len(weights)
        rows_constraint = np.kron(np.eye(k), np.ones(k))
        cols_constraint = np.kron(np.ones(k), np.eye(k))
        solution = linprog(
            -weights.ravel(),
            A_eq=np.vstack([rows_constraint, cols_constraint]),
            b_eq=np.concatenate([row, col]),
            bounds=(0, None),
            method="highs",
        )
        best = -float(solution.fun)
    return 1.0 - (1.0 - best) / expected_disagreement
