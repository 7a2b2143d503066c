"""The sufficient statistic of paired continuous measurements: moments of order two.

Parametric limits of agreement, the proportional-bias line (differences regressed on the
means) and Lin's CCC with its asymptotic standard error depend on the pairs ``(x, y)``
only through ``n`` and the first and second moments of the pair means ``a = (x + y) / 2``
and the differences ``d`` (``x - y``, or percentage differences, or log ratios).
:class:`PairMoments` holds them centred (means and centred sums of squares and products),
whether they were summed here over arrays in memory (:meth:`PairMoments.from_chunks`, two
passes: the centring is exact) or by a database engine over data that never come here
(:meth:`PairMoments.from_shifted_sums`: raw sums of values shifted by a pilot value close
to the mean, so that large values with small differences lose no digits). Every estimator
reads the same object, so the in-memory and the pushed-down results are one computation.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Iterator
from dataclasses import dataclass, replace

import numpy as np

from irr._frames import LazyMeasurements
from irr.coefficients.limits import Line

__all__ = ["PairMoments"]

#: Chunks of ``(s, d)``: ``s = x + y`` (twice the pair means) and the differences.
Chunks = Callable[[], Iterator[tuple[np.ndarray, np.ndarray]]]


@dataclass(frozen=True)
class PairMoments:
    """Moments of order two of ``n`` pairs: the pair means ``a = (x + y) / 2`` and the
    differences ``d`` on the analysis scale.

    Attributes
    ----------
    n : int
        Pairs (subjects measured by both methods).
    mean_a, mean_d : float
        Means of ``a`` and ``d``.
    saa, sad, sdd : float
        Centred sums of squares and products: ``sum((a - mean_a) ** 2)``,
        ``sum((a - mean_a) * (d - mean_d))``, ``sum((d - mean_d) ** 2)``.
    rss : float
        The residual sum of squares of ``d`` regressed on ``a``, when it was summed over the
        residuals (nan: it is ``sdd - sad**2 / saa``, exact unless the line explains most
        of the variance of ``d``; :meth:`needs_residuals`).

    Examples
    --------
    >>> x = np.array([1.0, 2.0, 4.0, 5.0]); y = np.array([1.5, 2.0, 3.0, 5.5])
    >>> m = PairMoments.of_arrays(x, y)
    >>> m.n, m.mean_d, m.bias, round(m.sd, 4)
    (4, 0.0, 0.0, 0.7071)
    >>> a, d = (x + y) / 2 - 3.0, x - y  # shifted by a pilot value 3 (and 0)
    >>> shifted = PairMoments.from_shifted_sums(
    ...     4, 3.0, 0.0, a.sum(), d.sum(), a @ a, a @ d, d @ d)
    >>> round(shifted.sd, 4), round(shifted.line().slope, 4), round(m.line().slope, 4)
    (0.7071, 0.0267, 0.0267)
    """

    n: int
    mean_a: float
    mean_d: float
    saa: float
    sad: float
    sdd: float
    rss: float = math.nan

    # -- construction -------------------------------------------------------------------
    @classmethod
    def from_shifted_sums(
        cls, n: int, shift_a: float, shift_d: float, sum_a: float, sum_d: float,
        sum_aa: float, sum_ad: float, sum_dd: float,
    ) -> PairMoments:
        """From raw sums of the shifted values ``a - shift_a`` and ``d - shift_d`` (as a
        database engine adds them up): ``sum_a``, ``sum_d``, ``sum_aa``, ``sum_ad``,
        ``sum_dd``. With shifts close to the means (a pilot value) the centred sums
        ``sum_aa - sum_a**2 / n`` lose about ``log10(1 + ((mean - shift) / sd)**2)``
        digits, none for a shift within a few SDs of the mean, however large the values."""
        n = int(n)
        shift_a, shift_d, sum_a, sum_d, sum_aa, sum_ad, sum_dd = (
            float(v) for v in (shift_a, shift_d, sum_a, sum_d, sum_aa, sum_ad, sum_dd))
        if n == 0:
            nan = math.nan
            return cls(0, nan, nan, nan, nan, nan)
        ma, md = sum_a / n, sum_d / n
        return cls(n, shift_a + ma, shift_d + md, max(sum_aa - sum_a * ma, 0.0),
                   sum_ad - sum_a * md, max(sum_dd - sum_d * md, 0.0))

    @classmethod
    def of_lazy(cls, lazy: LazyMeasurements, first: int, second: int,
                scale: str = "difference") -> tuple[PairMoments, int]:
        """The moments of raters `first` and `second` of a lazy frame, summed by its engine
        (:meth:`irr._frames.LazyMeasurements.pair_sums`; a second pass for the residual sum
        of squares when :meth:`needs_residuals`), and how many rows only one of the two
        measured."""
        sums = dict(lazy.pair_sums(first, second, scale))
        n_one = int(sums.pop("n_one"))
        moments = cls.from_shifted_sums(**sums)
        if moments.needs_residuals():
            line = moments.line()
            moments = moments.with_residuals(
                lazy.residual_sum(first, second, scale, line.intercept, line.slope))
        return moments, n_one

    @classmethod
    def from_chunks(cls, chunks: Chunks, n: int, residuals: bool = True) -> PairMoments:
        """Two passes over ``chunks()`` (each yields ``(s, d)`` arrays: ``s = x + y``, twice
        the pair means, and the differences; buffers may be reused and overwritten): the
        sums, then the centred sums of squares and products, and (with one chunk, or when
        the line explains more than half the variance of the differences) a third pass
        for the residual sum of squares. Pairwise sums within a chunk, then over the
        chunks' sums: with one chunk every number is the one numpy gives on whole arrays
        (``d.mean()``, ``d.std(ddof=1)``, :func:`irr.coefficients.limits.fit_line`).
        Without `residuals` (statistics that do not read the line's residual variance)
        no third pass is made."""
        count = 0
        first: list[tuple[float, float]] = []
        for s, d in chunks():
            first.append((np.add.reduce(s), np.add.reduce(d)))
            count += s.size
        if count != n:
            raise ValueError(f"`chunks` gave {count} pairs; expected {n}.")
        if n == 0:
            return cls.from_shifted_sums(0, 0, 0, 0, 0, 0, 0, 0)
        total_s, total_d = np.add.reduce(np.array(first).T, axis=1)
        abar, dbar = total_s * 0.5 / n, total_d / n
        centred = []
        for s, d in chunks():
            s -= 2 * abar  # twice the centred means
            d -= dbar
            quadruple, double = s @ s, s @ d
            np.multiply(d, d, out=d)
            centred.append((quadruple, double, np.add.reduce(d)))
        quadruple, double, sdd = (float(v) for v in np.add.reduce(np.array(centred).T, axis=1))
        moments = cls(n, float(abar), float(dbar), quadruple / 4, double / 2, sdd)
        if not residuals or (len(first) > 1 and not moments.needs_residuals()):
            return moments
        line = moments.line()
        if math.isnan(line.slope):
            return moments
        rss = []
        for s, d in chunks():
            s *= 0.5  # the means
            residuals = d - line.intercept - line.slope * s
            rss.append(residuals @ residuals)
        return moments.with_residuals(float(np.add.reduce(np.array(rss))))

    @classmethod
    def of_arrays(cls, x: np.ndarray, y: np.ndarray, chunk: int = 8192,
                  residuals: bool = True) -> PairMoments:
        """:meth:`from_chunks` of the differences ``x - y`` of two complete float arrays."""
        def chunks() -> Iterator[tuple[np.ndarray, np.ndarray]]:
            size = min(chunk, x.size)
            s_buffer, d_buffer = np.empty(size), np.empty(size)
            for start in range(0, x.size, chunk):
                cx, cy = x[start:start + chunk], y[start:start + chunk]
                s, d = s_buffer[:cx.size], d_buffer[:cx.size]
                np.add(cx, cy, out=s)
                np.subtract(cx, cy, out=d)
                yield s, d

        return cls.from_chunks(chunks, int(x.size), residuals)

    def with_residuals(self, rss: float) -> PairMoments:
        """These moments with the residual sum of squares summed over the residuals."""
        return replace(self, rss=float(rss))

    def needs_residuals(self) -> bool:
        """Whether ``sdd - sad**2 / saa`` would lose digits (the line explains more than
        half the variance of the differences) and the residuals should be summed."""
        if not (self.saa > 0) or not math.isnan(self.rss):
            return False
        return self.sad * self.sad / self.saa > self.sdd / 2

    def __add__(self, other: PairMoments) -> PairMoments:
        """The moments of both sets of pairs (Chan, Golub & LeVeque's pairwise update of
        centred sums: no digit is lost to large means).

        >>> x = np.array([1.0, 2.0, 4.0, 5.0, 7.0]); y = np.array([1.5, 2.0, 3.0, 5.5, 6.0])
        >>> both = PairMoments.of_arrays(x[:2], y[:2]) + PairMoments.of_arrays(x[2:], y[2:])
        >>> whole = PairMoments.of_arrays(x, y)
        >>> bool(np.allclose([both.saa, both.sad, both.sdd], [whole.saa, whole.sad, whole.sdd]))
        True
        """
        if not isinstance(other, PairMoments):
            return NotImplemented
        if not other.n:
            return replace(self, rss=math.nan)
        if not self.n:
            return replace(other, rss=math.nan)
        n = self.n + other.n
        da, dd = other.mean_a - self.mean_a, other.mean_d - self.mean_d
        weight = self.n * other.n / n
        return PairMoments(
            n, self.mean_a + da * other.n / n, self.mean_d + dd * other.n / n,
            self.saa + other.saa + da * da * weight, self.sad + other.sad + da * dd * weight,
            self.sdd + other.sdd + dd * dd * weight)

    # -- what the estimators read -------------------------------------------------------
    @property
    def bias(self) -> float:
        """The mean difference."""
        return float(self.mean_d)

    @property
    def sd(self) -> float:
        """The SD of the differences (divisor n - 1)."""
        return math.sqrt(self.sdd / (self.n - 1)) if self.n > 1 else math.nan

    def line(self) -> Line:
        """The least-squares line of the differences on the pair means (proportional
        bias), with its standard errors on ``n - 2`` df (no residuals array: empty)."""
        n = self.n
        nan = math.nan
        if n < 3 or not self.saa > 0:
            return Line(nan, nan, nan, nan, max(n - 2, 0), np.empty(0))
        slope = self.sad / self.saa
        intercept = float(self.mean_d - slope * self.mean_a)
        rss = self.rss if math.isfinite(self.rss) else max(
            self.sdd - self.sad * self.sad / self.saa, 0.0)
        sigma2 = rss / (n - 2)
        return Line(intercept, slope, math.sqrt(sigma2 / self.saa),
                    math.sqrt(sigma2 * (1 / n + self.mean_a * self.mean_a / self.saa)), n - 2,
                    np.empty(0))

    def xy(self) -> tuple[float, float, float, float, float]:
        """``(mean_x, mean_y, var_x, var_y, cov_xy)`` with divisor ``n`` (Lin's), of
        differences ``d = x - y``: ``x = a + d / 2``, ``y = a - d / 2``. Made from the
        moments of ``a`` and ``d``, so the variance of the differences keeps its digits
        when the two methods agree closely."""
        n = self.n
        quarter = self.sdd / 4
        return (self.mean_a + self.mean_d / 2, self.mean_a - self.mean_d / 2,
                (self.saa + self.sad + quarter) / n, (self.saa - self.sad + quarter) / n,
                (self.saa - quarter) / n)
