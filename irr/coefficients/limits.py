"""Pure formulas behind Bland-Altman limits of agreement: tolerance-type factors for the
confidence limits of a normal percentile, MOVER intervals for sums of variance
components, straight-line fits and the order statistics of distribution-free limits.

A limit of agreement ``mu + z * sigma`` is a percentile of the differences between two
methods; everything here works on summaries (means, standard deviations, mean squares,
counts), never on data frames.
"""

from __future__ import annotations

import math
from typing import NamedTuple

import numpy as np

__all__ = [
    "Line",
    "approximate_limit_se",
    "exact_limit_factors",
    "fit_line",
    "limit_mover",
    "order_statistic_ranks",
    "variance_sum_interval",
]


def exact_limit_factors(n: int, z: float, confidence_level: float) -> tuple[float, float]:
    """Exact factors ``(k_low, k_high)`` of the confidence interval of the upper limit of
    agreement ``mu + z * sigma`` of normal differences: ``[dbar + k_low * s,
    dbar + k_high * s]`` (and ``[dbar - k_high * s, dbar - k_low * s]`` for the lower
    limit ``mu - z * sigma``).

    ``sqrt(n) * (mu + z * sigma - dbar) / s`` follows the non-central t distribution on
    ``n - 1`` degrees of freedom with non-centrality ``z * sqrt(n)``, so
    ``k = t'_{q}(n - 1, z sqrt(n)) / sqrt(n)`` at ``q = (1 -+ confidence_level) / 2``
    (Owen, 1968; Carkeet, 2015; Shieh, 2018). ``k_high`` is the one-sided normal
    tolerance factor of content ``Phi(z)`` and confidence ``(1 + confidence_level) / 2``.

    Examples
    --------
    >>> low, high = exact_limit_factors(10, 1.6448536269514722, 0.90)
    >>> round(high, 3)  # the one-sided tolerance factor n = 10, p = 0.95, gamma = 0.95
    2.911
    """
    from scipy.special import nctdtrit  # scipy.stats.nct.ppf, without importing scipy.stats

    if n < 2:
        return math.nan, math.nan
    tail = (1 - confidence_level) / 2
    ncp = z * math.sqrt(n)
    low, high = nctdtrit(n - 1, ncp, np.array([tail, 1 - tail])) / math.sqrt(n)
    return float(low), float(high)


def approximate_limit_se(sd: float, n: int, z: float) -> float:
    """Bland & Altman's (1986, 1999) approximate standard error of ``dbar +- z * s``:
    ``s * sqrt(1 / n + z**2 / (2 * n))``, which is ``sqrt(3 s**2 / n)`` at ``z = 2`` and
    close to it at ``z = 1.96`` (``Var(s)`` taken as ``s**2 / (2n)``).

    Examples
    --------
    >>> round(approximate_limit_se(38.8, 17, 2.0), 2)  # Bland & Altman (1986): 16.3
    16.3
    """
    if n < 2:
        return math.nan
    return float(sd * math.sqrt((1 + z * z / 2) / n))


def variance_sum_interval(
    coefficients: np.ndarray, mean_squares: np.ndarray, dfs: np.ndarray,
    confidence_level: float,
) -> tuple[float, float, float]:
    """A linear combination ``sum(c * MS)`` of independent mean squares (each
    ``sigma_k**2 * chi2(df_k) / df_k``) with its MOVER interval (Zou, 2011; Graybill &
    Wang's modified large-sample interval for non-negative coefficients).

    Returns ``(estimate, low, high)``; ``low`` is clipped at 0.

    Examples
    --------
    >>> est, low, high = variance_sum_interval(np.array([1.0]), np.array([4.0]),
    ...                                        np.array([10]), 0.95)
    >>> round(low, 4), round(high, 4)  # the chi-square interval of one variance
    (1.9528, 12.3193)
    """
    from scipy.stats import chi2

    c = np.asarray(coefficients, dtype=float)
    ms = np.asarray(mean_squares, dtype=float)
    df = np.asarray(dfs, dtype=float)
    tail = (1 - confidence_level) / 2
    terms = c * ms
    estimate = float(terms.sum())
    down = terms * (1 - df / chi2.isf(tail, df))
    up = terms * (df / chi2.ppf(tail, df) - 1)
    low = estimate - math.sqrt(float(np.sum(down * down)))
    high = estimate + math.sqrt(float(np.sum(up * up)))
    return estimate, max(low, 0.0), high


def limit_mover(
    bias: float, bias_interval: tuple[float, float], variance: float,
    variance_interval: tuple[float, float], z: float,
) -> tuple[tuple[float, float], tuple[float, float]]:
    """MOVER intervals (Zou, 2011) of the limits ``bias -+ z * sigma`` from an interval of
    the bias and one of the variance ``sigma**2``: ``((lower_low, lower_high),
    (upper_low, upper_high))``.

    Examples
    --------
    >>> (ll, lh), (ul, uh) = limit_mover(0.0, (-1.0, 1.0), 4.0, (1.0, 9.0), 2.0)
    >>> round(ul, 4), round(uh, 4)  # 4 - sqrt(1 + 4 * 1), 4 + sqrt(1 + 4 * 1)
    (1.7639, 6.2361)
    """
    sigma = math.sqrt(variance)
    s_low, s_high = math.sqrt(variance_interval[0]), math.sqrt(variance_interval[1])
    b_down, b_up = bias - bias_interval[0], bias_interval[1] - bias
    upper = bias + z * sigma
    lower = bias - z * sigma
    upper_ci = (upper - math.hypot(b_down, z * (sigma - s_low)),
                upper + math.hypot(b_up, z * (s_high - sigma)))
    lower_ci = (lower - math.hypot(b_down, z * (s_high - sigma)),
                lower + math.hypot(b_up, z * (sigma - s_low)))
    return lower_ci, upper_ci


class Line(NamedTuple):
    """A least-squares line ``y = intercept + slope * x`` with the slope's standard error
    and the residual degrees of freedom."""

    intercept: float
    slope: float
    slope_se: float
    intercept_se: float
    df: int
    residuals: np.ndarray


def fit_line(x: np.ndarray, y: np.ndarray) -> Line:
    """The ordinary least-squares line of `y` on `x`, with the usual standard errors.

    Examples
    --------
    >>> line = fit_line(np.array([1.0, 2.0, 3.0, 4.0]), np.array([1.0, 3.0, 2.0, 5.0]))
    >>> round(line.intercept, 4), round(line.slope, 4), round(line.slope_se, 4)
    (0.0, 1.1, 0.5196)
    """
    n = x.size
    xbar, ybar = x.mean(), y.mean()
    dx = x - xbar
    sxx = float(dx @ dx)
    if n < 3 or sxx <= 0:
        nan = math.nan
        return Line(nan, nan, nan, nan, max(n - 2, 0), np.full(n, nan))
    slope = float(dx @ (y - ybar)) / sxx
    intercept = float(ybar - slope * xbar)
    residuals = y - intercept - slope * x
    sigma2 = float(residuals @ residuals) / (n - 2)
    slope_se = math.sqrt(sigma2 / sxx)
    intercept_se = math.sqrt(sigma2 * (1 / n + xbar * xbar / sxx))
    return Line(intercept, slope, slope_se, intercept_se, n - 2, residuals)


def order_statistic_ranks(n: int, p: float, confidence_level: float) -> tuple[int, int, float]:
    """1-based ranks ``(r, s)`` of the order statistics ``[x_(r), x_(s)]`` forming a
    distribution-free confidence interval of the ``p`` quantile, with its exact coverage
    ``P(r <= B < s)``, ``B ~ Binomial(n, p)``, at least `confidence_level` (equal tails of
    at most ``(1 - confidence_level) / 2`` each). ``r = 0`` or ``s = n + 1`` mean the
    interval is unbounded on that side (too few observations).

    Examples
    --------
    >>> r, s, coverage = order_statistic_ranks(200, 0.975, 0.95)
    >>> r, s, round(coverage, 4)
    (190, 200, 0.9811)
    """
    from scipy.stats import binom

    tail = (1 - confidence_level) / 2
    # r: the largest rank with P(B < r) <= tail; s: the smallest with P(B >= s) <= tail
    r = int(binom.ppf(tail, n, p))
    if binom.cdf(r, n, p) <= tail:
        r += 1
    s = int(binom.isf(tail, n, p)) + 1
    coverage = float(binom.cdf(s - 1, n, p) - binom.cdf(r - 1, n, p))
    return r, s, coverage
