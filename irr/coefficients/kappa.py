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

    Examples
    --------
    >>> parts = kappa_parts(np.array([[20, 5], [10, 15]]), np.eye(2))
    >>> float(parts.kappa)
    0.4
    """
    p, _ = _proportions(tables)
    row = p.sum(axis=-1)
    col = p.sum(axis=-2)
    observed = np.einsum("...ij,ij->...", p, weights)
    expected = np.einsum("...i,ij,...j->...", row, weights, col)
    with np.errstate(invalid="ignore", divide="ignore"):
        denominator = 1.0 - expected
        kappa = np.where(denominator > 1e-13, (observed - expected) / denominator, np.nan)
    return KappaParts(observed, expected, kappa)


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
    observed = np.einsum("...ij,ij->...", p, weights)
    expected = np.einsum("...i,ij,...j->...", row, weights, col)
    row_mean = np.einsum("ij,...j->...i", weights, col)
    col_mean = np.einsum("...i,ij->...j", row, weights)
    both = row_mean[..., :, None] + col_mean[..., None, :]
    po = observed[..., None, None]
    pe = expected[..., None, None]
    with np.errstate(invalid="ignore", divide="ignore"):
        spread = (p * (weights * (1 - pe) - both * (1 - po)) ** 2).sum(axis=(-2, -1))
        var = (spread - (observed * expected - 2 * expected + observed) ** 2) / (
            n * (1 - expected) ** 4
        )
        null_spread = (row[..., :, None] * col[..., None, :] * (weights - both) ** 2).sum(
            axis=(-2, -1)
        )
        var0 = (null_spread - expected**2) / (n * (1 - expected) ** 2)
    undefined = (1 - expected) <= 1e-13
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
    expected = float(row @ weights @ col)
    if 1 - expected <= 1e-13:
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
    return (best - expected) / (1 - expected)
