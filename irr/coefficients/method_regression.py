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
from typing import NamedTuple

import numpy as np

__all__ = [
    "DemingFit",
    "concordant_pairs",
    "count_inversions",
    "cusum_linearity",
    "decimal_grid",
    "deming_fit",
    "deming_jackknife",
    "deming_jackknife_intercepts",
    "deming_line",
    "deming_slope",
    "kendall_tau_b",
    "passing_bablok_oriented",
    "passing_bablok_shifted_median",
    "passing_bablok_slopes",
    "shifted_median",
]

# Pairwise slopes computed per block of rows: about this many pairs at a time.
_BLOCK_PAIRS = 2**22
# Up to this many pairs Passing-Bablok's slopes are all computed and partitioned;
# above it they are selected (O(n log n) time, O(n) memory).
_SORT_PAIRS = 2**21


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
    if all(isinstance(v, (float, int)) for v in (sxx, syy, sxy, error_ratio)) \
            and error_ratio > 0:
        # one line (Python or numpy float scalars): the same operations on floats, without
        # the array machinery (a division by 0 is left to the arrays' inf and nan)
        lam, sxx, syy, sxy = float(error_ratio), float(sxx), float(syy), float(sxy)
        d = lam * syy - sxx
        root = float(np.hypot(d, 2 * math.sqrt(lam) * sxy))
        below = 2 * lam * sxy if d >= 0 else root - d
        if sxy == 0:
            return np.float64(np.nan)
        if below != 0:
            return np.float64((d + root) / below if d >= 0 else 2 * sxy / below)
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
    return _line(mx, my, xc @ xc, yc @ yc, xc @ yc, error_ratio)


def _line(mx: float, my: float, sxx: float, syy: float, sxy: float,
          error_ratio: float) -> tuple[float, float]:
    slope = float(deming_slope(sxx, syy, sxy, error_ratio))
    return slope, float(my - slope * mx)


class DemingFit(NamedTuple):
    """The Deming line of n pairs, its n leave-one-out slopes and the jackknife standard
    errors of slope and intercept (Linnet 1993); :func:`deming_jackknife_intercepts`
    gives the leave-one-out intercepts."""

    slope: float
    intercept: float
    slopes: np.ndarray  # (n,) the slope without point i
    se_slope: float
    se_intercept: float


def deming_fit(x: np.ndarray, y: np.ndarray, error_ratio: float,
               bounds: tuple[tuple[float, float], tuple[float, float]] | None = None
               ) -> DemingFit:
    r"""The Deming line, its leave-one-out slopes and the jackknife standard errors of
    slope and intercept, in O(n) time: one centring of the data, then in-place passes
    over n-vectors.

    Leaving out point i changes the centred sums by a rank-one term:
    ``Sxx(-i) = Sxx - c u_i**2``, ``Syy(-i) = Syy - c v_i**2``, ``Sxy(-i) = Sxy - c u_i
    v_i`` with ``c = n / (n - 1)`` and ``u, v`` the centred x and y. Divided by ``c``
    they are ``h = k Sxy - u_i v_i`` (``Sxy(-i) / c``, ``k = (n - 1) / n``) and
    ``e = (k (lambda Syy - Sxx) + u_i**2 - lambda v_i**2) / (2 sqrt(lambda))``
    (``(lambda Syy(-i) - Sxx(-i)) / (2 sqrt(lambda) c)``). Each leave-one-out slope is
    :func:`deming_slope`'s formula in these terms: ``h / (sqrt(lambda) (r - e))``
    (e < 0) or ``(e + r) / (sqrt(lambda) h)``, with ``r = sqrt(e**2 + h**2)``, nan where
    ``Sxy(-i) = 0``. ``|e|`` and ``|h|`` are at most ``k (lambda Syy + Sxx) / (2
    sqrt(lambda))``; when that bound lies outside ``2**-200 .. 2**200``, ``u`` and ``v``
    are multiplied by a power of two that brings it near 1, so the squares neither
    overflow nor underflow (a ``hypot`` would be several times slower).

    The standard errors are :math:`\sqrt{(n - 1)/n \sum_i (t_{(-i)} - \bar t)^2}`
    (Linnet 1993) of the leave-one-out slopes and intercepts, the sums of squares as dot
    products. The intercept without point i is ``(my - g v_i) - b_(-i) (mx - g u_i)``
    with ``g = 1 / (n - 1)``: ``my - g q_i`` with ``q_i = b_(-i) ((n - 1) mx - u_i) +
    v_i``, so its deviations are ``-g`` times those of ``q``, which takes three passes
    and leaves the intercepts themselves to :func:`deming_jackknife_intercepts`.

    `bounds`, ``((x_low, x_high), (y_low, y_high))`` that bracket x and y (the input
    check's extremes), bound ``|u|`` and ``|v|`` (rounding is monotone): when the
    extreme ``e`` and ``|u v|`` they allow, computed with the same roundings, show the
    sign of every ``e`` and no ``h`` zero, the two reading passes that would check it are
    skipped.

    Examples
    --------
    >>> fit = deming_fit(np.array([1.0, 2, 3, 4]), np.array([1.1, 2.3, 2.9, 4.2]), 1.0)
    >>> round(fit.slope, 4), fit.slopes.round(4).tolist()
    (0.9987, [0.9706, 1.0192, 1.0233, 0.9151])
    >>> round(fit.se_slope, 4), round(fit.se_intercept, 4)
    (0.076, 0.1664)
    """
    n = x.size
    lam = float(error_ratio)
    mx, my = np.add.reduce(x) / n, np.add.reduce(y) / n  # x.mean(), y.mean()
    work = np.empty((4, n))  # the four n-vectors in one allocation
    u, v, e, t = work
    np.subtract(x, mx, out=u)
    np.subtract(y, my, out=v)
    sxx, syy, sxy = u @ u, v @ v, u @ v
    slope, intercept = _line(mx, my, sxx, syy, sxy, lam)
    k = (n - 1) / n
    root_lam = math.sqrt(lam)
    bound = k * (lam * syy + sxx) / (2 * root_lam)
    scale = 1.0
    if not 2.0**-200 < bound < 2.0**200 and 0 < bound < math.inf:
        scale = math.ldexp(1.0, -(math.frexp(bound)[1] // 2))  # exact: a power of two
        u *= scale
        v *= scale
    h0 = scale * scale * k * sxy
    e0 = scale * scale * k * (lam * syy - sxx) / (2 * root_lam)
    out = np.empty((2, n))
    slopes, q = out
    h = slopes
    np.multiply(u, v, out=h)
    np.subtract(h0, h, out=h)
    np.multiply(u, u, out=e)
    np.multiply(v, v, out=t)
    if lam != 1.0:
        t *= lam
    e -= t
    e *= 0.5 / root_lam
    e += e0
    # the sign of every e, and h != 0, from the bounds (else from the vectors)
    negative = None if bounds is None or scale != 1.0 else _sign_of_e(
        bounds, mx, my, lam, h0, e0)
    root = t
    np.multiply(e, e, out=root)
    np.multiply(h, h, out=q)
    # Sxy(-i) = 0: nan
    zero = None if negative is not None or np.minimum.reduce(q) > 0 else h == 0
    root += q
    np.sqrt(root, out=root)
    # the branches are equal in exact arithmetic: (e + r) (r - e) = h**2
    if negative or (negative is None and e.max() < 0):
        root -= e  # r - e > 0
        np.divide(h, root, out=slopes)
    else:
        with np.errstate(divide="ignore", invalid="ignore"):
            if negative is not None or e.min() >= 0:
                root += e
                np.divide(root, h, out=slopes)
            else:
                up = e >= 0
                up_slopes = (e[up] + root[up]) / h[up]
                root -= e
                np.divide(h, root, out=slopes)
                slopes[up] = up_slopes
    if lam != 1.0:
        slopes /= root_lam
    if zero is not None:
        slopes[zero] = np.nan
    # q = b_(-i) ((n - 1) mx - u_i) + v_i, times the scale of u and v
    np.subtract((n - 1) * mx * scale, u, out=q)
    q *= slopes
    q += v
    deviations = work[2:]
    np.subtract(out, np.einsum("ij->i", out)[:, None] / n, out=deviations)
    ds, dq = deviations
    return DemingFit(slope, intercept, slopes, math.sqrt(k * (ds @ ds)),
                     math.sqrt(k * (dq @ dq)) / ((n - 1) * scale))


def deming_jackknife_intercepts(x: np.ndarray, y: np.ndarray,
                                slopes: np.ndarray) -> np.ndarray:
    """The leave-one-out Deming intercepts of n pairs from their leave-one-out `slopes`
    (:func:`deming_fit`): the mean of y without point i minus its slope times the mean
    of x without point i, each mean ``mean - (value - mean) / (n - 1)``.

    Examples
    --------
    >>> x, y = np.array([1.0, 2, 3, 4]), np.array([1.1, 2.3, 2.9, 4.2])
    >>> deming_jackknife_intercepts(x, y, deming_fit(x, y, 1.0).slopes).round(4).tolist()
    [0.2215, 0.0155, 0.1455, 0.2699]
    """
    n = x.size
    mx, my = np.add.reduce(x) / n, np.add.reduce(y) / n
    g = 1.0 / (n - 1)
    mean_x = (x - mx) * -g
    mean_x += mx
    mean_x *= slopes
    mean_y = (y - my) * -g
    mean_y += my
    mean_y -= mean_x
    return mean_y


def _sign_of_e(bounds: tuple[tuple[float, float], tuple[float, float]], mx: float,
               my: float, lam: float, h0: float, e0: float) -> bool | None:
    """True when :func:`deming_fit`'s every ``e`` is negative, False when every ``e`` is
    at least 0, with every ``h`` nonzero, as the largest ``|u|`` and ``|v|`` that data
    within `bounds` give show; None when they cannot tell. ``|u_i|`` is at
    most the larger of ``|x_low - mean|`` and ``|x_high - mean|`` (both rounded as the
    centring rounds), and the roundings of the squares and products and of ``e``'s steps
    are monotone, so the same operations on the largest values bound the computed ones."""
    (x_low, x_high), (y_low, y_high) = bounds
    top_u = max(abs(float(x_low - mx)), abs(float(x_high - mx)))
    top_v = max(abs(float(y_low - my)), abs(float(y_high - my)))
    if not abs(h0) > top_u * top_v:
        return None
    half = 0.5 / math.sqrt(lam)
    if top_u * top_u * half + e0 < 0:  # e's steps with v**2 = 0: the largest e
        return True
    if -(top_v * top_v * lam) * half + e0 >= 0:  # with u**2 = 0: the smallest e
        return False
    return None


def deming_jackknife(x: np.ndarray, y: np.ndarray,
                     error_ratio: float) -> tuple[np.ndarray, np.ndarray]:
    """Leave-one-out Deming slopes and intercepts, each of shape (n,), in O(n)
    (:func:`deming_fit`, :func:`deming_jackknife_intercepts`).

    Examples
    --------
    >>> s, i = deming_jackknife(np.array([1.0, 2, 3, 4]), np.array([1.1, 2.3, 2.9, 4.2]), 1.0)
    >>> s.round(4).tolist()
    [0.9706, 1.0192, 1.0233, 0.9151]
    """
    slopes = deming_fit(x, y, error_ratio).slopes
    return slopes, deming_jackknife_intercepts(x, y, slopes)


def decimal_grid(x: np.ndarray, y: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """x and y times 10**d, for the smallest d <= 6 at which every value is the double
    nearest to an integer over 10**d below 2**26 in size (data rounded to d decimals);
    otherwise x and y unchanged. A slope is the same rational in either scale, and from
    the integers its float is the correctly rounded quotient, so equal slopes (ties of
    rounded data) are equal floats and a slope of -1 is exactly -1 (from the decimal
    doubles, ``fl(y_j - y_i) == -fl(x_j - x_i)`` can miss it).

    Examples
    --------
    >>> [v.tolist() for v in decimal_grid(np.array([0.1, 0.3]), np.array([1.25, 2.0]))]
    [[10.0, 30.0], [125.0, 200.0]]
    """
    if x.size == 0:
        return x, y
    both = np.concatenate([x, y])
    if not np.all(np.isfinite(both)):
        return x, y
    top = float(np.max(np.abs(both)))
    for d in range(7):
        scale = 10.0**d
        if top * scale >= 2.0**26:
            break
        ints = np.rint(both * scale)
        if np.array_equal(ints / scale, both):
            return ints[:x.size], ints[x.size:]
    return x, y


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


# -- Passing–Bablok by slope selection ------------------------------------------------------
# The slopes of ranks wanted are found without forming the n (n - 1) / 2 slopes. The pairs
# whose slope is at most t are the pairs that the order of y - t x puts in the reverse of
# their x order, counted in O(n log n) (count_inversions). Thresholds are placed by random
# samples of the slopes (uniform pairs, then uniform pairs between two thresholds, drawn
# from the neighbours of each point in the order of y - t x), narrowing to a band of about
# n slopes around each rank (Matousek 1991; Dillencourt, Mount & Netanyahu 1992). The
# band's pairs are listed and their slopes computed exactly as passing_bablok_slopes does,
# so the values are the same floats. The classification of a pair at t uses the computed
# y - t x; an error bound on it (below) says which pairs it may have misplaced, and a
# value is accepted only when no misplaced pair can fall on its other side; otherwise the
# thresholds move apart and the search is repeated.

_ROUND = 2.0**-52  # twice the unit roundoff of float64
_TINY = 2.0**-1000
_CANDIDATES = 2**20  # candidate pairs judged at a time
_SAMPLE = 2**18  # slopes sampled to place thresholds
_MIN_BAND = 2**16
_HELD = 2**22  # band slopes held as values before they are held as counts


def count_inversions(rank: np.ndarray) -> int:
    """Number of pairs ``i < j`` with ``rank[i] < rank[j]``, ``rank`` a permutation of
    ``0..n-1``, in O(n log n) time and O(n) memory.

    Bit by bit from the highest (a wavelet tree): the elements are kept grouped by the
    higher bits of their rank, in their original order within a group; every element
    whose current bit is 1 is counted against the elements of its group before it whose
    bit is 0, and the group is then stably split by the bit. Ranks agreeing in all but
    the lowest three bits are compared pairwise at the end.

    Examples
    --------
    >>> count_inversions(np.array([0, 2, 1, 3]))  # all pairs but (2, 1)
    5
    """
    n = rank.size
    if n < 2:
        return 0
    kind = np.int32 if n < 2**30 else np.int64  # half the memory traffic where it fits
    a = rank.astype(kind)
    idx = np.arange(n, dtype=kind)
    nxt, bit, ones, pos = (np.empty_like(a) for _ in range(4))
    total = 0
    small = 3
    for level in range(int(n - 1).bit_length() - 1, small - 1, -1):
        size = 1 << (level + 1)
        np.right_shift(a, level, out=bit)
        np.bitwise_and(bit, 1, out=bit)
        np.cumsum(bit, out=ones)
        ones -= bit  # ones before each element
        n_ones = int(ones[-1] + bit[-1])
        # sum over the ones of the zeros before them in their group: j - ones_before(j)
        # summed over the ones, less the m-th one's m, less the zeros of the complete
        # groups before its own (half the group's start)
        starts = np.arange(0, n, size, dtype=np.int64)
        ones_in = np.clip(n - starts - (size >> 1), 0, size >> 1)
        sum_pos = n_ones * (n - 1) - int(ones.sum(dtype=np.int64))
        total += sum_pos - n_ones * (n_ones - 1) // 2 - int(ones_in @ (starts >> 1))
        # stable split: a zero goes to its group's start plus the zeros before it, a one
        # after the group's 2**level zeros (a group holding ones is full below them)
        np.bitwise_and(a, -size, out=pos)
        pos >>= 1
        np.multiply(ones, 2, out=nxt)
        nxt += size >> 1
        nxt -= idx
        nxt *= bit
        nxt += idx
        nxt -= ones
        pos += nxt
        nxt[pos] = a
        a, nxt = nxt, a
    s = 1 << small
    m = n // s * s
    i, j = np.triu_indices(s, 1)
    total += int(np.count_nonzero(a[:m].reshape(-1, s)[:, i] < a[:m].reshape(-1, s)[:, j]))
    tail = a[m:]
    total += int(np.count_nonzero(np.triu(tail[:, None] < tail[None, :], 1)))
    return total


def concordant_pairs(x: np.ndarray, y: np.ndarray) -> tuple[int, int, int, int]:
    """Kendall's concordant and discordant pairs, and the pairs tied in x and in y:
    ``(C, D, T_x, T_y)``, C and D the pairs with ``(x_j - x_i)(y_j - y_i)`` positive and
    negative; O(n log n).

    Examples
    --------
    >>> concordant_pairs(np.array([1.0, 2, 3, 4]), np.array([1.0, 3, 2, 2]))
    (3, 2, 0, 1)
    """
    n = x.size
    order = np.lexsort((-y, x))  # x ascending; equal x: y descending, never counted
    xs, ys = x[order], y[order]
    # ranks of y ascending; equal y: the later first, so ties are not counted
    by_y = n - 1 - np.argsort(ys[::-1], kind="stable")
    rank = np.empty(n, dtype=np.int64)
    rank[by_y] = np.arange(n)
    concordant = count_inversions(rank)
    new_x = np.concatenate([[True], xs[1:] != xs[:-1]])
    tie_x = _run_pairs(new_x)
    tie_xy = _run_pairs(new_x | np.concatenate([[True], ys[1:] != ys[:-1]]))
    sy = np.sort(y)
    tie_y = _run_pairs(np.concatenate([[True], sy[1:] != sy[:-1]]))
    discordant = n * (n - 1) // 2 - tie_x - tie_y + tie_xy - concordant
    return concordant, discordant, tie_x, tie_y


def kendall_tau_b(x: np.ndarray, y: np.ndarray) -> float:
    """Kendall's tau-b, ``(C - D) / sqrt((P - T_x)(P - T_y))``; nan when x or y is
    constant.

    Examples
    --------
    >>> round(kendall_tau_b(np.array([1.0, 2, 3, 4]), np.array([1.0, 3, 2, 2])), 4)
    0.1826
    """
    return _tau_b(x.size, *concordant_pairs(x, y))


def _tau_b(n: int, concordant: int, discordant: int, tie_x: int, tie_y: int) -> float:
    pairs = n * (n - 1) // 2
    denominator = math.sqrt(float(pairs - tie_x)) * math.sqrt(float(pairs - tie_y))
    return (concordant - discordant) / denominator if denominator > 0 else math.nan


class _Order:
    """The points in the order of ``y - t x`` at a threshold t (ties: the later point in
    (x, -y) order first, so that pairs of equal x never count), the computed values
    sorted, a bound on their rounding error, and how many pairs of distinct x it puts
    below t (``x_i < x_j`` and ``y_j - t x_j`` not above ``y_i - t x_i``)."""

    def __init__(self, points: _Points, t: float, below: int | None = None):
        self.t = t
        u = points.ys - t * points.xs
        order = np.argsort(u)
        su = u[order]
        tie = su[1:] == su[:-1]
        if tie.any():
            run = np.concatenate([[0], np.cumsum(~tie)])
            start = np.flatnonzero(np.concatenate([[True], ~tie]))
            tied = np.flatnonzero(np.diff(np.append(start, su.size))[run] > 1)
            order[tied] = order[tied][np.lexsort((-order[tied], run[tied]))]
        self.order, self.su = order, su
        self.error = points.error(t)
        self.rank = None
        if below is None:
            self.rank = np.empty(points.n, dtype=np.int64)
            self.rank[order] = np.arange(points.n)
            below = points.pairs - count_inversions(self.rank)
        self.below = below
        # of the close pairs (listed apart), those counted below t
        self.close_below = 0 if self.rank is None else int(np.count_nonzero(
            self.rank[points.close_j] < self.rank[points.close_i]))


class _Points:
    """Paired values in (x ascending, y descending) order and their pair counts."""

    def __init__(self, x: np.ndarray, y: np.ndarray):
        order = np.lexsort((-y, x))
        self.xs, self.ys = x[order], y[order]
        self.n = n = x.size
        new_x = np.concatenate([[True], self.xs[1:] != self.xs[:-1]])
        new_xy = new_x | np.concatenate([[True], self.ys[1:] != self.ys[:-1]])
        same_x = _run_pairs(new_x)
        self.pairs = n * (n - 1) // 2 - same_x  # pairs of distinct x
        self.duplicates = _run_pairs(new_xy)
        self.vertical = same_x - self.duplicates  # equal x, distinct y: +inf
        # integers below 2**26 in size (data on a decimal grid, scaled): slopes compared
        # exactly by cross-multiplication in int64
        limit = 2.0**26
        self.exact = bool(np.all(np.abs(self.xs) < limit) and np.all(np.abs(self.ys) < limit)
                          and np.all(np.rint(self.xs) == self.xs)
                          and np.all(np.rint(self.ys) == self.ys))
        self.ints = (self.xs.astype(np.int64), self.ys.astype(np.int64)) if self.exact \
            else None
        self.starts = np.flatnonzero(new_x)
        distinct = self.xs[self.starts]
        # the smallest distance between distinct x, rounded down
        self.gap = float(np.min(np.diff(distinct))) * (1 - _ROUND) if distinct.size > 1 \
            else math.nan
        self._close_pairs(distinct)
        # how far x may rise from each point: a pair classified below at the lower of two
        # thresholds and above at the higher one has its point of larger x later in the
        # lower threshold's order
        self.reach = (self.xs[-1] - self.xs) * (1 + 2 * _ROUND)
        self.rng = np.random.default_rng(1983)

    def _close_pairs(self, distinct: np.ndarray) -> None:
        """List the pairs of distinct x closer than `close` (at most about 2n of them):
        their slopes are computed directly, so that the error bounds need only hold for
        pairs at least `close` apart (``self.near``, rounded down), not at the smallest
        distance in x, which shrinks as 1/n**2 for continuous data."""
        n = self.n
        empty = np.empty(0, dtype=np.int64)
        self.close = 0.0
        self.close_i = self.close_j = empty
        self.close_slopes = np.empty(0)
        self.close_left_out = 0
        self.near = self.gap
        if distinct.size < 3:
            return
        gaps = np.diff(distinct)
        close = float(np.partition(gaps, min(n // 4, gaps.size - 1))[min(n // 4, gaps.size - 1)])
        group_end = np.searchsorted(self.xs, self.xs, side="right")
        floor = float(np.max(np.abs(self.xs))) * 2.0**-40
        for _ in range(64):
            if close <= floor or close <= self.gap:
                return
            ends = np.searchsorted(self.xs, self.xs + close, side="left")
            count = np.maximum(ends - group_end, 0)
            if int(count.sum()) <= 2 * n:
                break
            close /= 2
        else:
            return
        total = int(count.sum())
        i = np.repeat(np.arange(n), count)
        first = np.cumsum(count) - count
        j = np.arange(total) + np.repeat(group_end - first, count)
        dx = self.xs[j] - self.xs[i]
        dy = self.ys[j] - self.ys[i]
        slopes = dy / dx
        left_out = dy == -dx
        self.close = close
        self.close_i, self.close_j = i, j
        self.close_slopes = np.sort(slopes[~left_out])
        self.close_left_out = int(left_out.sum())
        # a pair not listed is at least fl(x_i + close) - x_i apart
        self.near = max(self.gap, float(np.min(np.maximum(
            (self.xs + close) - self.xs, 0)))) * (1 - _ROUND)

    def kendall_tau_b(self) -> float:
        """Kendall's tau-b of the points, the same float as :func:`kendall_tau_b`, from
        one count at the threshold 0 (where ``y - 0 x`` is y exactly): the pairs of
        distinct x counted above 0 are the concordant pairs, those below the discordant
        ones and the pairs of distinct x tied in y."""
        at_zero = _Order(self, 0.0)
        concordant = self.pairs - at_zero.below
        tie_y = _run_pairs(np.concatenate([[True], at_zero.su[1:] != at_zero.su[:-1]]))
        discordant = at_zero.below - (tie_y - self.duplicates)
        n_all = self.n * (self.n - 1) // 2
        return _tau_b(self.n, concordant, discordant, n_all - self.pairs, tie_y)

    def error(self, t: float) -> float:
        """A bound on the rounding error of each computed ``y - t x``."""
        u = self.ys - t * self.xs
        return _ROUND * float(np.max(np.abs(t * self.xs) + np.abs(u))) * 1.01 + _TINY

    def spread(self, t: float) -> float:
        """How far from t the slope of a pair classified at t may lie, for a pair not
        listed as close: two errors over the smallest distance in x of such pairs."""
        return 2 * self.error(t) / self.near * 1.01

    def _window(self, lo: _Order, t_hi: float):
        """The points in lo's order with y - t_hi x, and for each the number of points
        after it that may pair with it between lo.t and t_hi: a pair classified
        differently at the two thresholds lies within reach * (t_hi - t) + the errors
        (within the errors alone when the later point has the smaller x)."""
        xo, yo = self.xs[lo.order], self.ys[lo.order]
        uh = yo - t_hi * xo
        e_hi = _ROUND * float(np.max(np.abs(t_hi * xo) + np.abs(uh))) * 1.01 + _TINY
        delta = (self.reach[lo.order] * (t_hi - lo.t) + 2 * (lo.error + e_hi)) * (1 + 2**-40)
        width = np.searchsorted(lo.su, lo.su + delta, side="right") - np.arange(self.n) - 1
        return xo, yo, uh, width

    def _judge(self, xp, yp, up, xq, yq, uq):
        """Of candidate pairs (p before q in lo's order) not close, those classified
        differently at hi: how many of them are below at lo, and their slopes (nan when
        left out).
        For distinct x a slope does not depend on which point comes first, since
        fl(a - b) = -fl(b - a)."""
        dx = xq - xp
        d = uq - up
        band = ((d < 0) & (dx != 0)) | ((d == 0) & (dx > 0))
        if self.close:  # the close pairs are listed apart
            low = np.minimum(xp, xq)
            band &= np.maximum(xp, xq) >= low + self.close
        dx = dx[band]
        dy = yq[band] - yp[band]
        slopes = dy / dx
        slopes[dy == -dx] = np.nan
        return int(np.count_nonzero(dx < 0)), slopes, dy, dx

    def band(self, lo: _Order, t_hi: float) -> tuple[int, int, np.ndarray, np.ndarray]:
        """The pairs classified differently at lo and at t_hi: how many are below at
        lo, how many are left out (slope -1), and the others' distinct slopes, sorted,
        with their counts (held as counts once there are more than max(4n, 2**22), so
        that many equal slopes take little memory)."""
        xo, yo, uh, width = self._window(lo, t_hi)
        csum = np.cumsum(width)
        below = left_out = 0
        kept = [np.empty(0)]
        values, counts = np.empty(0), np.empty(0, dtype=np.int64)
        held = 0
        start = 0
        while start < self.n:
            done = int(csum[start - 1]) if start else 0
            stop = int(np.searchsorted(csum, done + _CANDIDATES, side="right"))
            stop = min(max(stop, start + 1), self.n)
            w = width[start:stop]
            m = int(w.sum())
            if m:
                first = np.cumsum(w) - w
                q = np.arange(m) + np.repeat(np.arange(start + 1, stop + 1) - first, w)
                b, s, _, _ = self._judge(np.repeat(xo[start:stop], w), np.repeat(yo[start:stop], w),
                                   np.repeat(uh[start:stop], w), xo[q], yo[q], uh[q])
                below += b
                nan = np.isnan(s)
                left_out += int(nan.sum())
                kept.append(s[~nan])
                held += kept[-1].size
                if held > max(4 * self.n, _HELD):
                    values, counts = _merge_counts(values, counts, np.concatenate(kept))
                    kept, held = [np.empty(0)], 0
            start = stop
        values, counts = _merge_counts(values, counts, np.concatenate(kept))
        return below, left_out, values, counts

    def sample_band(self, lo: _Order, t_hi: float,
                    size: int) -> tuple[_Sample, float, float]:
        """Slopes of pairs drawn uniformly from those classified differently at lo
        and t_hi (2 * size candidates drawn), an estimate of how many such pairs there
        are, and its relative standard error."""
        xo, yo, uh, width = self._window(lo, t_hi)
        csum = np.cumsum(width)
        total = int(csum[-1])
        if total == 0:
            return _Sample(np.empty(0), np.empty(0), np.empty(0)), 0.0, 1.0
        pick = np.sort(self.rng.integers(0, total, 2 * size))
        p = np.searchsorted(csum, pick, side="right")
        q = p + 1 + (pick - (csum[p] - width[p]))
        _, s, dy, dx = self._judge(xo[p], yo[p], uh[p], xo[q], yo[q], uh[q])
        share = s.size / pick.size
        rel = math.sqrt((1 - share) / max(s.size, 1))
        keep = ~np.isnan(s)
        return _Sample(s[keep], dy[keep], dx[keep]), total * share, rel

    def sample(self, size: int) -> _Sample:
        """Slopes of about `size` uniformly drawn pairs of distinct x."""
        i = np.sort(self.rng.integers(0, self.n, 2 * size))
        j = self.rng.integers(0, self.n, 2 * size)
        dx = self.xs[j] - self.xs[i]
        dy = self.ys[j] - self.ys[i]
        keep = np.flatnonzero((dx != 0) & (dy != -dx))[:size]
        return _Sample(dy[keep] / dx[keep], dy[keep], dx[keep])

    def exact_counts(self, p: float, q: float) -> tuple[int, int]:
        """For integer data (``self.exact``): how many pairs of distinct x have a slope
        below the rational p / q (q > 0, p and q integers) and how many at most p / q,
        exactly: slope <= p / q when ``q y_j - p x_j <= q y_i - p x_i`` (x_i < x_j),
        computed in int64 without rounding. One O(n log n) count."""
        u = int(q) * self.ints[1] - int(p) * self.ints[0]
        idx = np.arange(self.n)
        order = np.lexsort((-idx, u))  # equal u: the later point first, counted as below
        rank = np.empty(self.n, dtype=np.int64)
        rank[order] = idx
        n_all = self.n * (self.n - 1) // 2
        # equal x: y descends, so every such pair is at most p / q
        at_most = n_all - count_inversions(rank) - (n_all - self.pairs)
        su = u[order]
        # pairs of equal u (slope p / q) less those of equal points (equal x and y)
        equal = _run_pairs(np.concatenate([[True], su[1:] != su[:-1]])) - self.duplicates
        return at_most - equal, at_most

    def extreme(self, lowest: bool) -> float:
        """A threshold below (above) every slope of distinct x: the extreme slopes join
        neighbours in x (each slope of a pair is a weighted mean of the slopes of the
        neighbouring pairs between them)."""
        ymax = self.ys[self.starts]  # y descends within equal x
        ymin = self.ys[np.append(self.starts[1:], self.n) - 1]
        gx = self.xs[self.starts]
        if lowest:
            t = float(np.min((ymin[1:] - ymax[:-1]) / np.diff(gx)))
        else:
            t = float(np.max((ymax[1:] - ymin[:-1]) / np.diff(gx)))
        step = abs(t) * 2.0**-40 + _TINY
        for _ in range(64):
            beyond = t - step if lowest else t + step
            w = self.spread(beyond)
            if step > 2 * w + (abs(t) + w) * 2.0**-48:
                return beyond
            step *= 4
        raise FloatingPointError("no threshold beyond the slopes (values too extreme)")


class _Sample:
    """Sampled slopes, sorted, with the differences dy and dx that made each."""

    def __init__(self, slopes: np.ndarray, dy: np.ndarray, dx: np.ndarray):
        order = np.argsort(slopes, kind="stable")
        self.slopes, self.dy, self.dx = slopes[order], dy[order], dx[order]
        self.size = slopes.size

    def __getitem__(self, i: int) -> float:
        return self.slopes[i]


def _merge_counts(values: np.ndarray, counts: np.ndarray,
                  more: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Distinct sorted values and their counts, of (values, counts) and the array `more`."""
    new, new_counts = np.unique(more, return_counts=True)
    if values.size == 0:
        return new, new_counts
    both = np.concatenate([values, new])
    weights = np.concatenate([counts, new_counts])
    merged, where = np.unique(both, return_inverse=True)
    return merged, np.bincount(where, weights=weights).astype(np.int64)


def _run_pairs(new: np.ndarray) -> int:
    sizes = np.diff(np.append(np.flatnonzero(new), new.size))
    return int((sizes * (sizes - 1) // 2).sum())


class _NoBracket(Exception):
    """The sampled thresholds missed a rank, or could not certify it: widen them."""


class _Selection:
    """Order statistics of the finite Passing–Bablok slopes of `points`, with `left_out`
    slopes of -1 (all within the zone -1 +- `zone`, which no threshold enters)."""

    def __init__(self, points: _Points, finite: int, left_out: int, zone: float):
        self.points, self.finite, self.left_out, self.zone = points, finite, left_out, zone
        self.floor = _Order(points, points.extreme(True), below=0)
        self.ceiling = points.extreme(False)

    def below(self, order: _Order) -> int:
        """Slopes kept (not -1) below the threshold of `order`: those it counts there,
        less the slopes of -1, with the close pairs' exact slopes in place of their
        classification."""
        close = self.points.close_slopes
        return order.below - (self.left_out if order.t > -1 else 0) - order.close_below \
            + int(np.searchsorted(close, order.t, side="right"))

    def beside(self, s: float, side: int) -> float:
        """A threshold just below (side -1) or above (+1) the slope s, far enough that
        every pair of slope s is classified on the other side of it; never in the zone
        around -1."""
        w = self.points.spread(s)
        t = s + side * (4 * w + abs(s) * 2.0**-44 + _TINY)
        if -1 - self.zone <= t <= -1 + self.zone:
            t = -1 + side * self.zone
        return t

    def solve(self, ranks: list[int]) -> dict[int, float]:
        sample = self.points.sample(min(_SAMPLE, 4 * self.finite))
        for widen in (1, 3, 9, 27):
            try:
                return self.refine(np.array(ranks), self.floor, self.ceiling, sample,
                                   self.finite, 0.0, widen, 0)
            except _NoBracket:
                continue
        raise FloatingPointError("Passing–Bablok slope selection did not converge")

    def refine(self, ranks: np.ndarray, lo: _Order, t_hi: float, sample: _Sample,
               total: float, rel_err: float, widen: float, depth: int,
               check: bool = True) -> dict[int, float]:
        """The slopes of `ranks`, all between the counted threshold lo and t_hi, where
        `sample` is a uniform sample of the about `total` slopes between them."""
        if check and self.points.exact and sample.size:
            out = self.tied(ranks, lo, sample, total)
            if out:
                rest = ranks[~np.isin(ranks, list(out))]
                if rest.size:
                    out.update(self.refine(rest, lo, t_hi, sample, total, rel_err, widen,
                                           depth, check=False))
                return out
        js = ranks - self.below(lo)
        m = sample.size
        if m == 0 or js.min() < 0 or js.max() >= total * (1 + 6 * rel_err) + 8:
            raise _NoBracket
        f = (js + 0.5) / total
        # 3.5 standard errors of the sample's quantile, and of the estimate of `total`
        margin = widen * (3.5 * np.sqrt(np.clip(f * (1 - f), 0, None) / m) + 3 / m
                          + 3.5 * f * rel_err)
        groups: list[list] = []
        for k, a, b in zip(ranks.tolist(), f - margin, f + margin, strict=True):
            if groups and a <= groups[-1][2]:
                groups[-1][0].append(k)
                groups[-1][2] = b
            else:
                groups.append([[k], a, b])
        out = {}
        for cluster, a, b in groups:
            estimate = (min(b, 1) - max(a, 0)) * total
            low = lo if a <= 0 else _Order(self.points, self.beside(
                float(sample[min(int(a * m), m - 1)]), -1))
            high = t_hi if b >= 1 else min(t_hi, self.beside(
                float(sample[min(math.ceil(b * m), m - 1)]), 1))
            if estimate <= max(_MIN_BAND, self.points.n) or depth >= 5 \
                    or estimate > total / 4:
                out.update(self.final(cluster, low, high))
            else:
                sub, size, rel = self.points.sample_band(low, high,
                                                         max(_SAMPLE, self.points.n // 2))
                out.update(self.refine(np.array(cluster), low, high, sub, size, rel, widen,
                                       depth + 1))
        return out

    def tied(self, ranks: np.ndarray, lo: _Order, sample: _Sample,
             total: float) -> dict[int, float]:
        """Integer data: the ranks whose slope is a value tied in the sample at the rank's
        place, certified by exact counts (below the value <= rank < at most the value)
        without listing the pairs of that value. The slope is ``fl(dy / dx)`` of any pair
        of the value, as every pair's correctly rounded quotient of equal rationals."""
        out: dict[int, float] = {}
        m = sample.size
        js = ranks - self.below(lo)
        counted: dict[float, tuple[int, int]] = {}
        for k, j in zip(ranks.tolist(), js.tolist(), strict=True):
            i = min(max(int((j + 0.5) / max(total, 1) * m), 0), m - 1)
            v = float(sample.slopes[i])
            # a block too small to cost more than a band of ~n slopes is listed instead
            if np.count_nonzero(sample.slopes == v) / m * total <= 4 * self.points.n:
                continue
            dy, dx = float(sample.dy[i]), float(sample.dx[i])
            p, q = (dy, dx) if dx > 0 else (-dy, -dx)
            if v not in counted:
                less, at_most = self.points.exact_counts(p, q)
                minus = self.left_out + self.points.close_left_out
                counted[v] = (less - (minus if p > -q else 0),
                              at_most - (minus if p >= -q else 0))
            less, at_most = counted[v]
            if less <= k < at_most:
                out[k] = p / q
        return out

    def final(self, ranks: list[int], lo: _Order, t_hi: float) -> dict[int, float]:
        """List the slopes between lo and t_hi and read the ranks off them, when no pair
        that the thresholds may have misplaced can fall on the other side of a value."""
        below, _, values, counts = self.points.band(lo, t_hi)
        # the band's slopes and every close pair's; c the kept slopes neither holds that
        # lo counts below it
        c = lo.below - (self.left_out if lo.t > -1 else 0) - lo.close_below - below
        values, counts = _merge_counts(values, counts, self.points.close_slopes)
        cumulative = np.cumsum(counts)
        w_lo, w_hi = self.points.spread(lo.t), self.points.spread(t_hi)
        low_bound = lo.t + w_lo + (abs(lo.t) + w_lo) * 2.0**-49
        high_bound = t_hi - w_hi - (abs(t_hi) + w_hi) * 2.0**-49
        out = {}
        for k in ranks:
            j = k - c
            if not 0 <= j < (int(cumulative[-1]) if cumulative.size else 0):
                raise _NoBracket
            v = float(values[np.searchsorted(cumulative, j, side="right")])
            if (lo is not self.floor and not v > low_bound) or \
                    (t_hi != self.ceiling and not v < high_bound):
                raise _NoBracket
            out[k] = v
        return out


def _select(points: _Points, wanted) -> tuple[dict[int, float], int, int]:
    """``(values by rank, N, K)``: the slopes of the ranks ``wanted(N, K)`` (0-based) among
    the N Passing–Bablok slopes of `points`, K of them below -1."""
    if math.isnan(points.gap):  # one distinct x: every pair vertical or 0/0
        ranks = wanted(points.vertical, 0)
        return {k: math.inf if 0 <= k < points.vertical else math.nan for k in ranks}, \
            points.vertical, 0
    # slopes of exactly -1 (left out) and below -1 (K): list the pairs near -1
    zone = 2.0**-30
    while zone <= 2 * max(points.spread(-1 - zone), points.spread(-1 + zone)) + 2.0**-45:
        zone *= 4
        if not zone < 0.25:
            raise FloatingPointError("rounding too coarse to place slopes near -1")
    if points.exact:  # counted exactly, without listing the pairs near -1
        shift, at_most = points.exact_counts(-1.0, 1.0)
        left_out = at_most - shift - points.close_left_out
    else:
        near = _Order(points, -1 - zone)
        below, left_out, values, counts = points.band(near, -1 + zone)
        shift = near.below - near.close_below - below + \
            int(counts[:np.searchsorted(values, -1.0, side="left")].sum()) + \
            int(np.searchsorted(points.close_slopes, -1.0, side="left"))
    finite = points.pairs - left_out - points.close_left_out
    total = finite + points.vertical
    out: dict[int, float] = {}
    ranks = wanted(total, shift)
    for k in ranks:
        if not 0 <= k < total:
            out[k] = math.nan
        elif k >= finite:
            out[k] = math.inf
    inside = sorted({k for k in ranks if k not in out})
    if inside:
        out.update(_Selection(points, finite, left_out, zone).solve(inside))
    return out, total, shift


def passing_bablok_oriented(x: np.ndarray, y: np.ndarray, z: float, *, method: str = "auto"
                            ) -> tuple[float, tuple[float, float, float, int, int]]:
    """Kendall's tau-b of (x, y) and :func:`passing_bablok_shifted_median` of (x, y), or
    of the mirror image (x, -y) when tau is negative (Bablok et al. 1988; the results are
    those of the mirror image, not negated). Selection counts tau from the points it
    selects among (:meth:`_Points.kendall_tau_b`), so the data are sorted once.

    Examples
    --------
    >>> x = np.array([1.0, 2, 3, 4, 5, 6])
    >>> tau, fit = passing_bablok_oriented(x, 10 - x ** 1.5, 1.96)
    >>> round(tau, 4), round(fit[0], 4)  # the slope of (x, x ** 1.5 - 10)
    (-1.0, 2.784)
    """
    n = x.size
    undefined = (math.nan, math.nan, math.nan, 0, 0)
    if method == "sort" or (method == "auto" and n * (n - 1) // 2 <= _SORT_PAIRS):
        tau = kendall_tau_b(x, y)
        if math.isnan(tau):
            return tau, undefined
        return tau, passing_bablok_shifted_median(x, -y if tau < 0 else y, z, method="sort")
    gx, gy = decimal_grid(x, y)
    points = _Points(gx, gy)
    tau = points.kendall_tau_b()
    if math.isnan(tau):  # x or y constant
        return tau, undefined
    if tau < 0:
        points = _Points(gx, -gy)
    return tau, _shifted_median_of(points, x, -y if tau < 0 else y, z)


def passing_bablok_shifted_median(x: np.ndarray, y: np.ndarray, z: float, *,
                                  method: str = "auto") -> tuple[float, float, float, int, int]:
    """:func:`shifted_median` of :func:`passing_bablok_slopes`, the same floats, without
    forming the slopes above 2**21 pairs (``method='auto'``).

    ``method='sort'`` forms and partitions all n (n - 1) / 2 slopes (O(n**2) time and
    memory); ``'select'`` selects the slopes of the ranks needed (expected O(n log n)
    time, O(n) memory; see the comments above :func:`count_inversions`). Selection
    takes data on a decimal grid as the exact decimals (:func:`decimal_grid`): its
    slopes are those that sorting gives on ``decimal_grid(x, y)``, and a rank inside a
    block of equal slopes (rounded data) is certified by exact counts without listing
    the block.

    Examples
    --------
    >>> x = np.array([1.0, 2, 3, 4, 5, 6])
    >>> y = np.array([1.2, 1.9, 3.3, 3.9, 5.2, 5.8])
    >>> passing_bablok_shifted_median(x, y, 1.96, method="sort")[:3]  # from the doubles
    (0.9500000000000002, 0.6000000000000001, 1.3000000000000003)
    >>> passing_bablok_shifted_median(x, y, 1.96, method="select")[:3]  # exact decimals
    (0.95, 0.6, 1.3)
    >>> passing_bablok_shifted_median(*decimal_grid(x, y), 1.96, method="sort")[:3]
    (0.95, 0.6, 1.3)
    """
    n = x.size
    if method == "sort" or (method == "auto" and n * (n - 1) // 2 <= _SORT_PAIRS):
        return shifted_median(passing_bablok_slopes(x, y), n, z)
    return _shifted_median_of(_Points(*decimal_grid(x, y)), x, y, z)


def _shifted_median_of(points: _Points, x: np.ndarray, y: np.ndarray,
                       z: float) -> tuple[float, float, float, int, int]:
    """:func:`passing_bablok_shifted_median` by selection among `points`, which are the
    pairs (x, y) on their decimal grid."""
    n = points.n
    c = z * math.sqrt(n * (n - 1) * (2 * n + 5) / 18)
    parts: dict[str, list[int]] = {}

    def wanted(total: int, shift: int) -> list[int]:
        m1 = math.floor((total - c) / 2 + 0.5)
        parts["centre"] = [(total + 1) // 2 + shift - 1] if total % 2 else \
            [total // 2 + shift - 1, total // 2 + shift]
        parts["limits"] = [m1 + shift - 1, total - m1 + shift]
        parts["m1"] = [m1]
        return parts["centre"] + parts["limits"]

    try:
        values, total, shift = _select(points, wanted)
    except FloatingPointError as error:  # extreme values: the rounding bounds are useless
        if n * (n - 1) // 2 <= 2**25:
            return shifted_median(passing_bablok_slopes(*decimal_grid(x, y)), n, z)
        raise ValueError(f"Passing–Bablok regression of {n:,} pairs failed: {error}; "
                         "rescale the measurements.") from error
    if total == 0:
        return math.nan, math.nan, math.nan, 0, 0
    slope = float(np.mean([values[k] for k in parts["centre"]]))
    low, high = parts["limits"]
    return slope, values[low], values[high], shift, parts["m1"][0]
