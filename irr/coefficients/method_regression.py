"""Method-comparison regression: Deming and Passing–Bablok lines as pure numpy formulas.

Conventions
-----------
``error_ratio`` (lambda) is the ratio of the measurement-error variances of the two
methods, **error variance of x over error variance of y**, as in Linnet (1990, 1993),
CLSI EP09 and the R package mcr's ``error.ratio``: lambda = 1 is orthogonal regression,
lambda -> 0 (x measured without error) is ordinary least squares of y on x.
(Wikipedia's and SAS's delta is the inverse: var(error of y) / var(error of x).)
"""

from __future__ import annotations

import math

import numpy as np

__all__ = [
    "MAX_PASSING_BABLOK",
    "cusum_linearity",
    "deming_jackknife",
    "deming_line",
    "deming_slope",
    "passing_bablok_slopes",
    "shifted_median",
]

#: The most points :func:`passing_bablok_slopes` takes: n (n - 1) / 2 pairwise slopes of
#: 8 bytes each, about 400 MB at 10,000 points.
MAX_PASSING_BABLOK = 10_000

# Pairwise slopes computed per block of rows: about this many pairs at a time.
_BLOCK_PAIRS = 2**22


def deming_slope(sxx: np.ndarray, syy: np.ndarray, sxy: np.ndarray,
                 error_ratio: float | np.ndarray) -> np.ndarray:
    r"""Deming slope from (co)variances or centred sums of squares (batch over any shape).

    .. math::

        b = \frac{\lambda S_{yy} - S_{xx} + \sqrt{(\lambda S_{yy} - S_{xx})^2
            + 4\lambda S_{xy}^2}}{2\lambda S_{xy}}

    with lambda = var(error of x) / var(error of y) (Linnet 1993, eq. in the Appendix).
    Computed as ``2 Sxy / (r - d)`` where that avoids cancellation. nan where
    ``Sxy = 0`` (no linear relation, the slope's sign is undefined).

    Examples
    --------
    >>> float(deming_slope(2.0, 2.0, 1.0, 1.0))  # orthogonal regression of a symmetric cloud
    1.0
    """
    sxx, syy, sxy = (np.asarray(v, dtype=float) for v in (sxx, syy, sxy))
    lam = np.asarray(error_ratio, dtype=float)
    d = lam * syy - sxx
    root = np.hypot(d, 2 * np.sqrt(lam) * sxy)  # no overflow of d**2 at a large error ratio
    with np.errstate(divide="ignore", invalid="ignore"):
        stable = np.where(d >= 0, (d + root) / (2 * lam * sxy), 2 * sxy / (root - d))
    return np.where(sxy == 0, np.nan, stable)


def deming_line(x: np.ndarray, y: np.ndarray, error_ratio: float) -> tuple[float, float]:
    """Deming ``(slope, intercept)`` of paired measurements.

    Examples
    --------
    >>> slope, intercept = deming_line(np.array([1.0, 2, 3, 4]), np.array([1.1, 2.3, 2.9, 4.2]), 1.0)
    >>> round(slope, 4), round(intercept, 4)
    (0.9987, 0.1282)
    """
    mx, my = x.mean(), y.mean()
    xc, yc = x - mx, y - my
    slope = float(deming_slope(xc @ xc, yc @ yc, xc @ yc, error_ratio))
    return slope, float(my - slope * mx)


def deming_jackknife(x: np.ndarray, y: np.ndarray,
                     error_ratio: float) -> tuple[np.ndarray, np.ndarray]:
    """Leave-one-out Deming slopes and intercepts, each of shape (n,), in O(n).

    Leaving out point i changes the centred sums by a rank-one term:
    ``Sxx(-i) = Sxx - n / (n - 1) * (x_i - mean_x)**2`` (and likewise Syy, Sxy), and the
    means by ``-(x_i - mean_x) / (n - 1)``.

    Examples
    --------
    >>> s, i = deming_jackknife(np.array([1.0, 2, 3, 4]), np.array([1.1, 2.3, 2.9, 4.2]), 1.0)
    >>> s.round(4).tolist()
    [0.9706, 1.0192, 1.0233, 0.9151]
    """
    n = x.size
    mx, my = x.mean(), y.mean()
    xc, yc = x - mx, y - my
    shrink = n / (n - 1)
    sxx = xc @ xc - shrink * xc * xc
    syy = yc @ yc - shrink * yc * yc
    sxy = xc @ yc - shrink * xc * yc
    slopes = deming_slope(sxx, syy, sxy, error_ratio)
    intercepts = (my - yc / (n - 1)) - slopes * (mx - xc / (n - 1))
    return slopes, intercepts


def passing_bablok_slopes(x: np.ndarray, y: np.ndarray) -> np.ndarray:
    """The pairwise slopes ``(y_j - y_i) / (x_j - x_i)`` that Passing & Bablok (1983) use,
    unsorted: pairs with ``x_i = x_j`` and ``y_i = y_j`` (0/0) and slopes of exactly -1
    (``y_j - y_i = -(x_j - x_i)``) are left out; a vertical pair (``x_i = x_j``) has
    slope +inf.

    The points are taken in (x, y) order, so a vertical pair's ``y_j - y_i`` is positive:
    Passing & Bablok's "+inf or -inf by the sign of the difference" then is +inf, and
    the result does not depend on the order of the data. Built in blocks of rows
    (about 4 million pairs at a time); the output holds up to n (n - 1) / 2 values.

    Examples
    --------
    >>> np.sort(passing_bablok_slopes(np.array([1.0, 2, 3]), np.array([1.0, 3, 2]))).tolist()
    [0.5, 2.0]
    """
    order = np.lexsort((y, x))
    x, y = x[order], y[order]
    n = x.size
    out = np.empty(n * (n - 1) // 2)
    filled = 0
    block = max(1, _BLOCK_PAIRS // max(n, 1))
    for start in range(0, n - 1, block):
        rows = np.arange(start, min(start + block, n - 1))
        i, j = np.nonzero(np.arange(n)[None, :] > rows[:, None])
        i = rows[i]
        dx = x[j] - x[i]
        dy = y[j] - y[i]
        keep = ((dx != 0) | (dy != 0)) & (dy != -dx)
        dx, dy = dx[keep], dy[keep]
        with np.errstate(divide="ignore"):
            slopes = np.where(dx == 0, np.inf, dy / np.where(dx == 0, 1.0, dx))
        out[filled:filled + slopes.size] = slopes
        filled += slopes.size
    return out[:filled]


def shifted_median(slopes: np.ndarray, n_points: int,
                   z: float) -> tuple[float, float, float, int, int]:
    """Passing & Bablok's (1983) shifted median of the pairwise slopes and its
    rank-based confidence limits.

    With ``N`` slopes of which ``K`` are below -1 (sorted ``S_(1) <= ... <= S_(N)``),
    the slope is ``S_((N+1)/2+K)`` (N odd) or the mean of ``S_(N/2+K)`` and
    ``S_(N/2+1+K)`` (N even); the limits are ``S_(M1+K)`` and ``S_(M2+K)`` with
    ``C = z sqrt(n (n - 1) (2n + 5) / 18)`` for ``n`` points, ``M1 = round((N - C) / 2)``
    (halves up) and ``M2 = N - M1 + 1``. A limit whose rank falls outside 1..N is nan.

    Returns
    -------
    (slope, low, high, K, M1)

    Examples
    --------
    >>> shifted_median(np.array([0.5, 2.0, 1.0]), 3, 1.96)[:2]
    (1.0, nan)
    """
    total = slopes.size
    if total == 0:
        return math.nan, math.nan, math.nan, 0, 0
    shift = int(np.count_nonzero(slopes < -1))
    c = z * math.sqrt(n_points * (n_points - 1) * (2 * n_points + 5) / 18)
    m1 = math.floor((total - c) / 2 + 0.5)
    m2 = total - m1 + 1
    # 0-based ranks of the order statistics needed
    centre = [(total + 1) // 2 + shift - 1] if total % 2 else [total // 2 + shift - 1, total // 2 + shift]
    limits = [m1 + shift - 1, m2 + shift - 1]
    wanted = sorted({k for k in centre + limits if 0 <= k < total})
    part = np.partition(slopes, wanted) if wanted else slopes

    def rank(k: int) -> float:
        return float(part[k]) if 0 <= k < total else math.nan

    slope = float(np.mean([rank(k) for k in centre]))
    return slope, rank(limits[0]), rank(limits[1]), shift, m1


def cusum_linearity(x: np.ndarray, y: np.ndarray, slope: float,
                    intercept: float) -> tuple[float, int, np.ndarray]:
    """Passing & Bablok's (1983) cusum test of linearity: the statistic, the number L of
    points below the line, and the cumulative sums.

    Points above the line (l of them) score ``sqrt(L / l)``, points below (L)
    ``-sqrt(l / L)``, points on it 0; the scores are summed in the order of the points'
    projections on the line, ``D_i = (y_i + x_i / b - a) / sqrt(1 + 1 / b**2)`` (ties in
    the order of x). Passing & Bablok (1983, Appendix, section 4) reject linearity at
    level gamma when ``max |cusum| > h_gamma sqrt(L + 1)``, h_gamma the
    Kolmogorov–Smirnov critical value (1.36 at 5%), so the statistic is
    ``max |cusum| / sqrt(L + 1)``, referred to Kolmogorov's law. This is not the scaling
    of an unconstrained random walk of the n_off = l + L unit-variance scores
    (``sqrt(n_off)``): the line is fitted to the same points, which ties the cusum
    down (l and L are equal within one, and the shifted median balances the signs along
    the line). In simulations of linear data the 5% test rejected 2-3% of samples of
    20-40 pairs, 5-7% of 60-100 and 8% of 200; scaled by ``sqrt(n_off + 1)`` it almost
    never rejected.

    Examples
    --------
    >>> x = np.arange(1.0, 9.0)
    >>> stat, n_below, cusum = cusum_linearity(x, x + np.array([1, -1] * 4), 1.0, 0.0)
    >>> round(stat, 4), n_below
    (0.4472, 4)
    """
    fitted = intercept + slope * x
    above = y > fitted
    below = y < fitted
    n_above, n_below = int(above.sum()), int(below.sum())
    if n_above == 0 or n_below == 0 or not math.isfinite(slope) or slope == 0:
        return math.nan, n_below, np.zeros(x.size)
    score = np.where(above, math.sqrt(n_below / n_above),
                     np.where(below, -math.sqrt(n_above / n_below), 0.0))
    distance = (y + x / slope - intercept) / math.sqrt(1 + 1 / slope**2)
    order = np.lexsort((x, distance))
    cusum = np.cumsum(score[order])
    statistic = float(np.max(np.abs(cusum)) / math.sqrt(n_below + 1))
    return statistic, n_below, cusum
