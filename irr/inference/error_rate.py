"""Hypothesis tests on error rates: the exact binomial test with its critical bound, and the t test.

The critical error rate is the corrected form of eq. 2.27 of the machine-learning formula
book (Zhou, *Machine Learning*, 2016, ch. 2): for H0 "error rate <= eps0" on ``n`` test
cases at level ``alpha``, the critical count is the smallest ``c`` whose upper tail
``P(X > c)``, ``X ~ Binomial(n, eps0)``, is below ``alpha``, and ``eps_bar = c / n``.
"""

from __future__ import annotations

import math
import warnings
from collections.abc import Iterator, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, ClassVar

import numpy as np
import pandas as pd

from irr._statistics import Statistics
from irr._validation import (
    DegenerateDataWarning,
    check_alternative,
    check_confidence_level,
    check_integer,
    check_open_unit,
)
from irr.inference._hypothesis_summary import fmt_number, fmt_pvalue, hypothesis_summary
from irr.results import FRAME_COLUMNS, ConfidenceInterval, Result
from irr.weights import tolerance_agreement

if TYPE_CHECKING:
    from statsmodels.iolib.summary import Summary

__all__ = [
    "CriticalErrorRate",
    "ErrorRateTTestResult",
    "ErrorRateTestFamily",
    "ErrorRateTestResult",
    "binomial_pvalue",
    "critical_error_rate",
    "error_rate_test",
    "error_rate_ttest",
    "log_cdf",
    "log_sf",
    "lower_critical_count",
    "upper_critical_count",
]

_CI_METHODS = ("exact", "wilson")
_H0 = {"greater": "<=", "less": ">=", "two-sided": "="}
_H1 = {"greater": ">", "less": "<", "two-sided": "!="}


# ---------------------------------------------------------------------------------------
# Vectorised kernels
# ---------------------------------------------------------------------------------------
#: Tails within this relative distance of alpha are settled by exact integer arithmetic.
_TIE_RTOL = 1e-9
#: Largest n for which near ties are settled exactly (the cost grows like n**2 bits).
_EXACT_MAX_N = 20_000


def _lower_tail_below(n: int, c: int, a: int, b: int, level: Any) -> bool:
    """Exactly whether ``sum_{i <= c} C(n, i) a^i b^(n - i) < level (a + b)^n``, 0 <= c < n.

    The terms are stepped with exact integer divisions: ``C(n, i + 1) a^(i + 1)
    b^(n - i - 1) = C(n, i) a^i b^(n - i) (n - i) a / ((i + 1) b)``.
    """
    term = b**n  # C(n, 0) a^0 b^n
    cdf = term
    for i in range(c):
        term = term * (n - i) * a // ((i + 1) * b)
        cdf += term
    return cdf * level.denominator < level.numerator * (a + b) ** n


def _exact_cdf_below(n: int, c: int, epsilon0: float, alpha: float) -> bool:
    """Exactly whether P(X <= c) < alpha, X ~ Binomial(n, epsilon0), with Python integers.

    ``epsilon0`` and ``alpha`` are taken at their exact binary values, so the answer is
    the one floating-point tails approximate; ``P(X = i) = C(n, i) a^i (D - a)^(n - i) / D^n``
    with ``epsilon0 = a / D``.
    """
    from fractions import Fraction

    if c < 0:
        return True
    if c >= n:
        return False
    eps = Fraction(epsilon0)
    return _lower_tail_below(n, c, eps.numerator, eps.denominator - eps.numerator,
                             Fraction(alpha))


def _exact_sf_below(n: int, c: int, epsilon0: float, alpha: float) -> bool:
    """Exactly whether P(X > c) < alpha (see :func:`_exact_cdf_below`)."""
    from fractions import Fraction

    if c >= n:
        return True
    if c < 0:
        return False
    eps = Fraction(epsilon0)
    # P(X > c) = P(n - X <= n - c - 1), n - X ~ Binomial(n, 1 - epsilon0): swap a and D - a
    return _lower_tail_below(n, n - c - 1, eps.denominator - eps.numerator, eps.numerator,
                             Fraction(alpha))


def _near(log_tail: np.ndarray, log_alpha: np.ndarray) -> np.ndarray:
    """Tails within ``_TIE_RTOL`` (relative) of alpha, compared on the log scale."""
    return np.abs(log_tail - log_alpha) <= _TIE_RTOL


def _broadcast(n: Any, epsilon0: Any, alpha: Any) -> list[np.ndarray]:
    """n (int64), epsilon0 and alpha (float) broadcast against each other."""
    return np.broadcast_arrays(
        np.asarray(n, dtype=np.int64), np.asarray(epsilon0, dtype=float),
        np.asarray(alpha, dtype=float),
    )


#: Below this, scipy's binomial tails (Boost) are not trusted: for small n they underflow
#: to 0 near 1e-284 although the tail is still a normal float.
_TINY_TAIL = 1e-250
#: Largest n whose tiny tails are summed term by term in log space (scipy's log pmf, from
#: gammaln, keeps about 1e-9 relative accuracy up to here; Boost's tail itself stays
#: accurate down to the subnormal range for larger n).
_SERIES_MAX_N = 10**7
#: Terms summed per step of the log-space series, and the most steps taken.
_SERIES_CHUNK = 4096
_SERIES_MAX_CHUNKS = 256


def _log_tail_series(x: np.ndarray, n: np.ndarray, p: np.ndarray, upper: bool) -> np.ndarray:
    """log P(X >= x) (`upper`) or log P(X <= x), X ~ Binomial(n, p), by summing terms.

    ``P(X >= x) = P(X = x) sum_j t_j`` with ``t_0 = 1`` and ``t_{j+1} / t_j =
    (n - x - j) p / ((x + j + 1) (1 - p))``, ratios that fall with ``j``; the sum stops
    when the next term, times the geometric bound ``1 / (1 - ratio)`` on the rest, is
    below 1e-17 of the sum. The lower tail is the mirror image. Only called where the
    tail is beyond ``_TINY_TAIL``, that is far from the mean, where the ratios are well
    below 1 and few terms are needed.
    """
    from scipy.stats import binom

    x, n, p = (np.asarray(v, dtype=float) for v in (x, n, p))
    log_pmf = binom.logpmf(x, n, p)
    log_odds = np.log(p) - np.log1p(-p)
    if not upper:
        log_odds = -log_odds
    total = np.zeros(x.shape)
    log_term = np.zeros(x.shape)  # log t_j relative to P(X = x), at the chunk's start
    done = np.zeros(x.shape, dtype=bool)
    j = np.arange(_SERIES_CHUNK, dtype=float)
    for chunk in range(_SERIES_MAX_CHUNKS):
        i = chunk * _SERIES_CHUNK + j  # (chunk,) term indices
        if upper:
            ahead, behind = n[:, None] - x[:, None] - i, x[:, None] + i + 1
        else:
            ahead, behind = x[:, None] - i, n[:, None] - x[:, None] + i + 1
        with np.errstate(divide="ignore", invalid="ignore"):
            log_ratio = np.where(ahead > 0, np.log(ahead) - np.log(behind) + log_odds[:, None],
                                 -np.inf)
        logs = log_term[:, None] + np.concatenate(
            [np.zeros((x.size, 1)), np.cumsum(log_ratio, axis=1)], axis=1)
        terms = np.exp(logs[:, :-1])
        total = total + np.where(done, 0.0, terms.sum(axis=1))
        log_term = logs[:, -1]
        last_ratio = np.exp(log_ratio[:, -1])
        with np.errstate(divide="ignore", invalid="ignore"):
            rest = np.exp(log_term) / (1 - last_ratio)
        done |= (last_ratio < 1) & (rest <= 1e-17 * total)
        if done.all():
            break
    return log_pmf + np.log(total)


def _log_tail(x: Any, n: Any, p: Any, upper: bool) -> np.ndarray:
    """log P(X >= x) (`upper`) or log P(X <= x), vectorised; exact at the ends.

    scipy's tail where it is at least ``_TINY_TAIL``; beyond it (n up to
    ``_SERIES_MAX_N``) the term-by-term sum of :func:`_log_tail_series`, so that tails
    down to the smallest float, and the critical counts of tiny ``alpha``, are right.
    """
    from scipy.stats import binom

    x, n, p = np.broadcast_arrays(np.asarray(x, dtype=np.int64), np.asarray(n, dtype=np.int64),
                                  np.asarray(p, dtype=float))
    with np.errstate(divide="ignore"):
        tail = binom.sf(x - 1, n, p) if upper else binom.cdf(x, n, p)
        out = np.log(np.asarray(tail, dtype=float))
    certain = (x <= 0) if upper else (x >= n)
    impossible = (x > n) if upper else (x < 0)
    out = np.where(certain, 0.0, np.where(impossible, -np.inf, out))
    tiny = (tail < _TINY_TAIL) & ~certain & ~impossible & (n <= _SERIES_MAX_N)
    if tiny.any():
        out = np.array(out, dtype=float)
        out[tiny] = _log_tail_series(x[tiny], n[tiny], p[tiny], upper)
    return out


def log_sf(c: Any, n: Any, epsilon0: Any) -> np.ndarray:
    """``log P(X > c)``, ``X ~ Binomial(n, epsilon0)``, accurate below 1e-300 (see
    :func:`_log_tail`).

    Examples
    --------
    >>> round(float(log_sf(167, 200, 0.01)), 3)
    -688.622
    """
    return _log_tail(np.asarray(c, dtype=np.int64) + 1, n, epsilon0, upper=True)


def log_cdf(c: Any, n: Any, epsilon0: Any) -> np.ndarray:
    """``log P(X <= c)``, ``X ~ Binomial(n, epsilon0)`` (see :func:`log_sf`).

    Examples
    --------
    >>> round(float(log_cdf(0, 200, 0.99)), 2)
    -921.03
    """
    return _log_tail(c, n, epsilon0, upper=False)


def _bisect(lo: np.ndarray, hi: np.ndarray, ok: Any) -> np.ndarray:
    """Smallest ``c`` in ``[lo, hi]`` with ``ok(c)`` for a monotone predicate true at hi.

    At most 64 vectorised halvings: bounded time for any ``n <= 2**53``.
    """
    lo, hi = lo.copy(), hi.copy()
    while np.any(lo < hi):
        mid = lo + (hi - lo) // 2
        good = ok(mid)
        hi = np.where(good, mid, hi)
        lo = np.where(good, lo, mid + 1)
    return hi


#: Half-width of the bracket around scipy's quantile in which the bisection starts.
_BRACKET = 4


#: Largest n for which scipy's binomial quantile seeds the bisection (beyond it Boost's
#: discrete quantile search can be slow or give up; the full-range bisection is used).
_GUESS_MAX_N = 10**8


def _quantile_guess(kind: str, a: np.ndarray, n: np.ndarray, p: np.ndarray) -> np.ndarray:
    """scipy's binomial ``ppf`` or ``isf`` at `a` where ``n <= _GUESS_MAX_N``, else nan."""
    from scipy.stats import binom

    small = n <= _GUESS_MAX_N
    guess = np.full(n.shape, np.nan)
    if small.any():
        with warnings.catch_warnings(), np.errstate(all="ignore"):
            warnings.simplefilter("ignore", RuntimeWarning)
            quantile = binom.ppf if kind == "ppf" else binom.isf
            guess[small] = quantile(a[small], n[small], p[small])
    return guess


#: Counts whose tails one call computes: the bracket ``guess -+ _BRACKET`` and the count
#: below it, as offsets from the bracket's bottom.
_OFFSETS = np.arange(-1, 2 * _BRACKET + 1)


def _first_accepted(tail: Any, log_a: np.ndarray, lo: np.ndarray, hi: np.ndarray,
                    guess: np.ndarray, below: bool) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Smallest ``c`` in ``[lo, hi]`` whose log tail is below ``log_a`` (`below`), or is not
    (not `below`): a predicate monotone in ``c`` and true at ``hi``. Returns ``c`` and the
    log tails at ``c`` and ``c - 1``.

    ``tail(c, rows)`` is the log tail at counts ``c`` (one column per count) of the rows
    ``rows``. One call gives the tails of every count in ``guess -+ _BRACKET`` and of the
    count below; where that bracket holds the answer (the predicate true at its top, false
    just below its bottom) :func:`_bisect` reads them, else it bisects the whole range,
    calling `tail` at each step. Either way the answer is that of the bisection over
    ``[lo, hi]`` started in the bracket; the bracket keeps it away from the far tails,
    whose log-space series are slow, and one call replaces a dozen.
    """
    def accepted(values: np.ndarray, rows: np.ndarray) -> np.ndarray:
        return (values < log_a[rows]) == below

    everyone = np.arange(lo.size)
    guess = np.where(np.isfinite(guess), guess, lo).astype(np.int64)
    a = np.clip(guess - _BRACKET, lo, hi)
    b = np.clip(guess + _BRACKET, lo, hi)
    table = tail(a[:, None] + _OFFSETS, everyone)

    def read(c: np.ndarray, rows: np.ndarray) -> np.ndarray:
        return table[rows, c - a[rows] + 1]

    valid = accepted(read(b, everyone), everyone) & (
        (a == lo) | ~accepted(read(a - 1, everyone), everyone))
    c = np.empty_like(lo)
    at, before = np.empty(lo.shape), np.empty(lo.shape)
    inside, outside = np.flatnonzero(valid), np.flatnonzero(~valid)
    if inside.size:
        c[inside] = _bisect(a[inside], b[inside], lambda x: accepted(read(x, inside), inside))
        at[inside], before[inside] = read(c[inside], inside), read(c[inside] - 1, inside)
    if outside.size:
        c[outside] = _bisect(lo[outside], hi[outside],
                             lambda x: accepted(tail(x, outside), outside))
        at[outside] = tail(c[outside], outside)
        before[outside] = tail(c[outside] - 1, outside)
    return c, at, before


def _rows_tail(log_tail: Any, n: np.ndarray, p: np.ndarray) -> Any:
    """``tail(c, rows)`` for :func:`_first_accepted`: `log_tail` at counts `c` (a column or a
    table, one row per entry of `rows`) of the rows `rows` of `n` and `p`."""
    def tail(c: np.ndarray, rows: np.ndarray) -> np.ndarray:
        column = (-1,) + (1,) * (np.ndim(c) - 1)
        return log_tail(c, n[rows].reshape(column), p[rows].reshape(column))
    return tail


def upper_critical_count(n: Any, epsilon0: Any, alpha: Any) -> np.ndarray:
    """Smallest ``c`` in ``0..n`` with ``P(X > c) < alpha``, ``X ~ Binomial(n, epsilon0)``.

    Arguments broadcast against each other and are assumed valid (``n >= 1``,
    ``0 < epsilon0 < 1``, ``0 < alpha < 1``). ``c`` is found by bisection on the log tail
    (:func:`log_sf`, accurate far below 1e-300, so any ``alpha`` works), in at most 54
    steps for any ``n <= 2**53``; tails within 1e-9 (relative) of ``alpha`` are then
    settled with exact integer arithmetic (for ``n <= 20000``), so ties such as
    ``P(X > 50) = 0.5`` for ``n = 101, epsilon0 = 0.5`` are resolved exactly.
    ``c = n`` means the test can never reject.

    Examples
    --------
    >>> upper_critical_count([100, 20], 0.1, 0.05).tolist()
    [15, 4]
    >>> int(upper_critical_count(200, 0.01, 1e-300))
    168
    """
    return _upper_count(n, epsilon0, alpha)[0]


def _upper_count(n: Any, epsilon0: Any, alpha: Any) -> tuple[np.ndarray, np.ndarray]:
    """:func:`upper_critical_count` and :func:`log_sf` at it (the log of the attained size)."""
    n, p, a = _broadcast(n, epsilon0, alpha)
    shape = n.shape
    n, p, a = (np.array(v).ravel() for v in (n, p, a))  # one row per case, any shape
    log_a = np.log(a)
    guess = _quantile_guess("isf", a, n, p)
    c, at, before = _first_accepted(_rows_tail(log_sf, n, p), log_a, np.zeros_like(n), n,
                                    guess, below=True)
    tie = (_near(at, log_a) | _near(before, log_a)) & (n <= _EXACT_MAX_N)
    for i in map(tuple, np.argwhere(tie)):  # rare: settle tails near alpha exactly
        ni, pi, ai, ci = int(n[i]), float(p[i]), float(a[i]), int(c[i])
        while ci > 0 and _exact_sf_below(ni, ci - 1, pi, ai):
            ci -= 1
        while ci < ni and not _exact_sf_below(ni, ci, pi, ai):
            ci += 1
        c[i], at[i] = ci, log_sf(ci, ni, pi)
    return c.reshape(shape), at.reshape(shape)


def lower_critical_count(n: Any, epsilon0: Any, alpha: Any) -> np.ndarray:
    """Largest ``c`` in ``-1..n`` with ``P(X <= c) < alpha``, ``X ~ Binomial(n, epsilon0)``.

    The mirror of :func:`upper_critical_count`, for H0 "error rate >= eps0": reject when
    at most ``c`` errors are seen. ``c = -1`` means even zero errors are not enough
    evidence at this ``n`` (``(1 - epsilon0)**n >= alpha``). Found by bisection on
    :func:`log_cdf`; near ties are settled exactly as in :func:`upper_critical_count`.

    Examples
    --------
    >>> lower_critical_count([100, 20], 0.1, 0.05).tolist()
    [4, -1]
    """
    return _lower_count(n, epsilon0, alpha)[0]


def _lower_count(n: Any, epsilon0: Any, alpha: Any) -> tuple[np.ndarray, np.ndarray]:
    """:func:`lower_critical_count` and :func:`log_cdf` at it (``-inf`` at ``c = -1``)."""
    n, p, a = _broadcast(n, epsilon0, alpha)
    shape = n.shape
    n, p, a = (np.array(v).ravel() for v in (n, p, a))  # one row per case, any shape
    log_a = np.log(a)
    # the smallest c' = c + 1 in 0..n + 1 whose lower tail is no longer under alpha
    guess = _quantile_guess("ppf", a, n, p)
    above, after, at = _first_accepted(_rows_tail(log_cdf, n, p), log_a, np.zeros_like(n),
                                       n + 1, guess, below=False)
    c = above - 1
    tie = (_near(at, log_a) | _near(after, log_a)) & (n <= _EXACT_MAX_N)
    for i in map(tuple, np.argwhere(tie)):  # rare: settle tails near alpha exactly
        ni, pi, ai, ci = int(n[i]), float(p[i]), float(a[i]), int(c[i])
        while ci < ni and _exact_cdf_below(ni, ci + 1, pi, ai):
            ci += 1
        while ci >= 0 and not _exact_cdf_below(ni, ci, pi, ai):
            ci -= 1
        c[i], at[i] = ci, log_cdf(ci, ni, pi)
    return c.reshape(shape), at.reshape(shape)


# ---------------------------------------------------------------------------------------
# The critical bound
# ---------------------------------------------------------------------------------------
@dataclass(frozen=True)
class CriticalErrorRate:
    """The rejection region of the exact binomial test of an error rate.

    Attributes
    ----------
    n : int
        Test cases.
    epsilon0 : float
        The error rate under H0.
    alpha : float
        Significance level.
    alternative : str
        ``'greater'`` (H0: error rate <= eps0; reject when ``errors > c``), ``'less'``
        (H0: error rate >= eps0; reject when ``errors <= c``) or ``'two-sided'`` (both,
        with ``alpha / 2`` in each tail).
    critical_count : int or (int, int)
        ``c``; for ``'two-sided'`` the pair ``(c_low, c_high)``: reject when
        ``errors <= c_low`` or ``errors > c_high``.
    eps_bar : float or (float, float)
        ``c / n``, the critical error rate (nan for a lower bound that cannot be reached).
    size : float
        The attained size: P(reject | error rate = eps0), at most ``alpha``.
    note : str
        Said when the test can never reject at this ``n``.

    Examples
    --------
    >>> import irr
    >>> crit = irr.critical_error_rate(n=100, epsilon0=0.10, alpha=0.05)
    >>> crit.critical_count, crit.eps_bar, round(crit.size, 4)
    (15, 0.15, 0.0399)
    """

    n: int
    epsilon0: float
    alpha: float
    alternative: str
    critical_count: int | tuple[int, int]
    eps_bar: float | tuple[float, float]
    size: float
    note: str = ""

    def rejects(self, errors: int) -> bool:
        """Whether `errors` errors out of :attr:`n` reject H0.

        Parameters
        ----------
        errors : int
            The number of errors observed among the :attr:`n` subjects.

        Examples
        --------
        >>> import irr
        >>> crit = irr.critical_error_rate(n=100, epsilon0=0.10, alpha=0.05)
        >>> crit.rejects(15), crit.rejects(16)
        (False, True)
        """
        errors = check_integer(errors, "errors", minimum=0)
        if self.alternative == "greater":
            return errors > self.critical_count
        if self.alternative == "less":
            return errors <= self.critical_count
        low, high = self.critical_count
        return errors <= low or errors > high

    def to_dict(self) -> dict[str, Any]:
        """The fields as a dict.

        Examples
        --------
        >>> import irr
        >>> d = irr.critical_error_rate(n=100, epsilon0=0.10).to_dict()
        >>> d["critical_count"], d["eps_bar"]
        (15, 0.15)
        """
        return {
            "n": self.n,
            "epsilon0": self.epsilon0,
            "alpha": self.alpha,
            "alternative": self.alternative,
            "critical_count": self.critical_count,
            "eps_bar": self.eps_bar,
            "size": self.size,
            "note": self.note,
        }

    def rule(self) -> str:
        """The rejection rule in words.

        Examples
        --------
        >>> import irr
        >>> irr.critical_error_rate(n=100, epsilon0=0.10, alternative="less").rule()
        'reject H0 if errors <= 4 (rate <= 0.04)'
        """
        if self.alternative == "greater":
            if self.critical_count >= self.n:
                return "H0 cannot be rejected at this n"
            return f"reject H0 if errors > {self.critical_count} (rate > {self.eps_bar:.4g})"
        if self.alternative == "less":
            if self.critical_count < 0:
                return "H0 cannot be rejected at this n"
            return f"reject H0 if errors <= {self.critical_count} (rate <= {self.eps_bar:.4g})"
        (low, high), (e_low, e_high) = self.critical_count, self.eps_bar
        regions = ([] if low < 0 else [f"errors <= {low} (rate <= {e_low:.4g})"]) + (
            [] if high >= self.n else [f"errors > {high} (rate > {e_high:.4g})"])
        if not regions:
            return "H0 cannot be rejected at this n"
        return "reject H0 if " + " or ".join(regions)

    def __repr__(self) -> str:
        if self.alternative == "two-sided":
            eps = "({})".format(", ".join(f"{e:.4g}" for e in self.eps_bar))
        else:
            eps = f"{self.eps_bar:.4g}"
        text = (
            f"CriticalErrorRate(n={self.n}, epsilon0={self.epsilon0:g}, alpha={self.alpha:g}, "
            f"alternative={self.alternative!r}, critical_count={self.critical_count}, "
            f"eps_bar={eps}, size={self.size:.4g})"
        )
        return text + (f"  # {self.note}" if self.note else "")

    __str__ = __repr__


def _upper_note(c: int, n: int, epsilon0: float, alpha: float) -> str:
    if c < n:
        return ""
    return (
        f"no count of errors out of n = {n} rejects H0 (error rate <= {epsilon0:g}) at "
        f"alpha = {alpha:g}: even P(X = n) = {epsilon0:g}^{n} is not below alpha."
    )


def _lower_note(c: int, n: int, epsilon0: float, alpha: float) -> str:
    if c >= 0:
        return ""
    needed = math.floor(math.log(alpha) / math.log1p(-epsilon0)) + 1
    return (
        f"even zero errors out of n = {n} cannot show the error rate is below "
        f"{epsilon0:g} at alpha = {alpha:g} ((1 - {epsilon0:g})^n >= alpha); at least "
        f"n = {needed} error-free cases are needed. critical_count is -1 and eps_bar nan."
    )


def _two_sided_note(low: int, high: int, n: int, epsilon0: float, tail: float) -> str:
    """What the two-sided test (H0: error rate = eps0) can reject, when a tail is empty."""
    h0 = f"H0 (error rate = {epsilon0:g})"
    upper_empty, lower_empty = high >= n, low < 0
    upper_why = f"even P(X = n) = {epsilon0:g}^{n} is not below alpha/2 = {tail:g}"
    lower_why = f"even P(X = 0) = (1 - {epsilon0:g})^{n} is not below alpha/2 = {tail:g}"
    if upper_empty and lower_empty:
        return (f"no count of errors out of n = {n} rejects {h0}: {upper_why}, and "
                f"{lower_why}.")
    if upper_empty:
        return (f"the upper rejection region is empty ({upper_why}); {h0} is rejected only "
                f"when errors <= {low} of n = {n}.")
    if lower_empty:
        return (f"the lower rejection region is empty ({lower_why}); {h0} is rejected only "
                f"when errors > {high} of n = {n}. critical_count[0] is -1.")
    return ""


#: Largest number of test cases: the binomial tails and critical counts are computed in
#: float64, which holds every integer count exactly only up to 2**53.
MAX_N = 2**53


def _check_n(n: Any) -> int:
    n = check_integer(n, "n", minimum=1)
    if n > MAX_N:
        raise ValueError(
            f"`n` must be at most 2**53 = {MAX_N} (binomial tails are computed in float64, "
            f"exact for counts up to 2**53); got {n}."
        )
    return n


def _critical(n: int, epsilon0: float, alpha: float, alternative: str) -> CriticalErrorRate:
    tail = alpha / 2 if alternative == "two-sided" else alpha
    high = low = None
    notes = []
    size_high = size_low = 0.0
    if alternative in ("greater", "two-sided"):
        high, log_size = _upper_count(n, epsilon0, tail)
        high, size_high = int(high), float(np.exp(log_size))
        notes.append(_upper_note(high, n, epsilon0, tail))
    if alternative in ("less", "two-sided"):
        low, log_size = _lower_count(n, epsilon0, tail)
        low = int(low)
        size_low = float(np.exp(log_size)) if low >= 0 else 0.0
        notes.append(_lower_note(low, n, epsilon0, tail))
    if alternative == "two-sided":
        notes = [_two_sided_note(low, high, n, epsilon0, tail)]
    eps_high = None if high is None else high / n
    eps_low = None if low is None else (low / n if low >= 0 else math.nan)
    if alternative == "greater":
        count, eps = high, eps_high
    elif alternative == "less":
        count, eps = low, eps_low
    else:
        count, eps = (low, high), (eps_low, eps_high)
    return CriticalErrorRate(
        n=n, epsilon0=epsilon0, alpha=alpha, alternative=alternative,
        critical_count=count, eps_bar=eps, size=size_low + size_high,
        note=" ".join(n_ for n_ in notes if n_),
    )


def critical_error_rate(
    n: int, epsilon0: float, alpha: float = 0.05, alternative: str = "greater"
) -> CriticalErrorRate:
    """The critical error rate of the exact binomial test (corrected eq. 2.27).

    Parameters
    ----------
    n : int
        Number of test cases (at least 1).
    epsilon0 : float
        The error rate under H0, in (0, 1).
    alpha : float, default 0.05
        Significance level, in (0, 1).
    alternative : {'greater', 'less', 'two-sided'}, default 'greater'
        ``'greater'``: H0 "error rate <= eps0" against "error rate > eps0" (the book's
        test). ``'less'``: H0 "error rate >= eps0" against "error rate < eps0" (to show
        an error rate is provably *below* eps0). ``'two-sided'``: H0 "error rate = eps0",
        the two one-sided regions at ``alpha / 2`` each.

    Returns
    -------
    CriticalErrorRate
        ``critical_count``, ``eps_bar = critical_count / n``, ``size`` (the attained
        size, never above ``alpha``) and the arguments; ``rejects(errors)`` applies it.

    Raises
    ------
    TypeError, ValueError
        For a non-integer `n` or `n` < 1, `epsilon0` or `alpha` outside (0, 1), an
        unknown `alternative`.

    Notes
    -----
    With :math:`X \\sim \\mathrm{Binomial}(n, \\epsilon_0)`:

    - ``'greater'``: :math:`c = \\min\\{c : P(X > c) < \\alpha\\}`, i.e.

      .. math:: \\bar\\epsilon = \\min \\epsilon \\ \\text{s.t.}
                \\sum_{i=\\epsilon n + 1}^{n} \\binom{n}{i}\\epsilon_0^i
                (1-\\epsilon_0)^{n-i} < \\alpha,

      the corrected eq. 2.27; reject H0 when ``errors > c``. The printed book
      maximises over :math:`\\epsilon` with :math:`\\epsilon` and :math:`\\epsilon_0`
      swapped inside the sum, which gives a different and wrong bound (about 0.063 for
      ``n = 100, eps0 = 0.1, alpha = 0.05``, below eps0 itself; ours is 0.15).
      ``c = n`` (``eps_bar = 1``) means no count rejects; a ``note`` says so.
    - ``'less'``: :math:`c = \\max\\{c : P(X \\le c) < \\alpha\\}`; reject when
      ``errors <= c``. When even zero errors are not enough,
      :math:`(1-\\epsilon_0)^n \\ge \\alpha`, there is no such :math:`c \\ge 0`:
      ``critical_count = -1``, ``eps_bar = nan`` and the ``note`` says how many
      error-free cases would be needed.
    - ``'two-sided'``: both, at :math:`\\alpha/2` each (an equal-tailed test): the pair
      ``(c_low, c_high)``; reject when ``errors <= c_low`` or ``errors > c_high``.

    The counts are found by bisection on the log of the binomial tail (at most 54 steps
    for any ``n <= 2**53``); tails below 1e-250, where scipy's underflow early, are summed
    term by term in log space (:func:`log_sf`, for n up to 10**7; above that scipy's tails
    stay accurate down to about 1e-305), so ``alpha`` as small as 1e-300 gives the exact
    count.
    They were validated against exact rational arithmetic for n up to 2000.

    References
    ----------
    Zhou, Z.-H. (2016). *Machine Learning* (in Chinese), Tsinghua University Press,
    section 2.4.1, eq. 2.27; the erratum is derived in Xie, Qin & Yang, *Machine Learning
    Formula Explained* (the "pumpkin book"), eq. 2.27.

    Examples
    --------
    >>> from irr.inference.error_rate import critical_error_rate
    >>> crit = critical_error_rate(n=100, epsilon0=0.10, alpha=0.05)
    >>> crit.critical_count, crit.eps_bar
    (15, 0.15)
    >>> crit.rejects(16), crit.rejects(15)
    (True, False)
    >>> critical_error_rate(n=100, epsilon0=0.10, alternative="less").critical_count
    4
    """
    n = _check_n(n)
    epsilon0 = check_open_unit(epsilon0, "epsilon0")
    alpha = check_open_unit(alpha, "alpha")
    alternative = check_alternative(alternative)
    return _critical(n, epsilon0, alpha, alternative)


# ---------------------------------------------------------------------------------------
# The binomial test
# ---------------------------------------------------------------------------------------
def binomial_pvalue(errors: Any, n: Any, epsilon0: Any, alternative: str) -> np.ndarray:
    """Exact binomial p-values, vectorised over broadcasting `errors`, `n`, `epsilon0`.

    ``'greater'``: P(X >= errors); ``'less'``: P(X <= errors); ``'two-sided'``:
    ``min(1, 2 min(P(X <= errors), P(X >= errors)))`` (the central method).

    Examples
    --------
    >>> binomial_pvalue([12, 16], 100, 0.1, "greater").round(4).tolist()
    [0.297, 0.0399]
    """
    errors = np.asarray(errors)
    upper = np.exp(log_sf(errors - 1, n, epsilon0))  # P(X >= errors)
    lower = np.exp(log_cdf(errors, n, epsilon0))  # P(X <= errors)
    if alternative == "greater":
        return np.asarray(upper, dtype=float)
    if alternative == "less":
        return np.asarray(lower, dtype=float)
    return np.minimum(1.0, 2.0 * np.minimum(upper, lower))


def _proportion_interval(
    errors: int, n: int, level: float, method: str, alternative: str
) -> ConfidenceInterval:
    from scipy.stats import binomtest

    ci = binomtest(errors, n, 0.5, alternative=alternative).proportion_ci(level, method)
    note = "" if alternative == "two-sided" else f"one-sided ({alternative})"
    return ConfidenceInterval(float(ci.low), float(ci.high), level, method, note)


def _decision(
    reject: bool, epsilon0: float, alpha: float, alternative: str, subject: str = "the error rate"
) -> str:
    claim = {
        "greater": f"{subject} exceeds {epsilon0:g}",
        "less": f"{subject} is below {epsilon0:g}",
        "two-sided": f"{subject} differs from {epsilon0:g}",
    }[alternative]
    if reject:
        return f"Reject H0: {claim} at alpha = {alpha:g}."
    return f"Do not reject H0: the data do not show that {claim} at alpha = {alpha:g}."


@dataclass(frozen=True, eq=False, kw_only=True, repr=False)
class ErrorRateTestResult(Result):
    """The exact binomial test of an error rate.

    ``estimate`` is the observed error rate ``errors / n``, ``statistic`` the number of
    errors, ``pvalue`` the exact binomial p-value, ``ci`` a Clopper–Pearson interval
    (one-sided for one-sided alternatives). Adds ``errors``, ``epsilon0``, ``alpha``,
    ``critical`` (the :class:`CriticalErrorRate`), ``critical_count``, ``eps_bar``,
    ``reject``, ``decision`` (in words) and ``tolerance`` (for rater comparisons).

    Examples
    --------
    >>> import irr
    >>> res = irr.error_rate_test(errors=4, n=100, epsilon0=0.10, alternative="less")
    >>> res.estimate, res.critical_count, res.reject
    (0.04, 4, True)
    >>> [round(x, 4) for x in res.ci]
    [0.0, 0.0892]
    """

    errors: int
    epsilon0: float
    alpha: float
    critical: CriticalErrorRate = field(repr=False)
    reject: bool
    tolerance: float | None = None
    bounds: tuple[float, float] = (0.0, 1.0)
    scale: str | None = None  # an error rate has no agreement band
    statistic_name: str = "errors"  # the statistic is the count of errors

    @property
    def n(self) -> int:
        """Test cases (``n_subjects``)."""
        return self.n_subjects

    @property
    def critical_count(self) -> int | tuple[int, int]:
        """The critical count ``c`` (a pair for ``'two-sided'``)."""
        return self.critical.critical_count

    @property
    def eps_bar(self) -> float | tuple[float, float]:
        """The critical error rate ``c / n`` (a pair for ``'two-sided'``)."""
        return self.critical.eps_bar

    @property
    def decision(self) -> str:
        """The decision in words."""
        return _decision(self.reject, self.epsilon0, self.alpha, self.alternative)

    interval_methods: ClassVar[tuple[str, ...]] = _CI_METHODS

    def _interval(self, level: float, method: str) -> ConfidenceInterval:
        """``'exact'`` (Clopper–Pearson, the default) or ``'wilson'`` (score); both are
        one-sided when the test is, like ``scipy.stats.binomtest``."""
        return _proportion_interval(self.errors, self.n_subjects, level, method,
                                    self.alternative)

    def _extras(self) -> dict[str, Any]:
        return {
            "errors": self.errors,
            "epsilon0": self.epsilon0,
            "alpha": self.alpha,
            "critical_count": self.critical_count,
            "eps_bar": self.eps_bar,
            "size": self.critical.size,
            "reject": self.reject,
            "tolerance": self.tolerance,
        }

    def summary_row(self) -> list[str]:
        """The formatted cells of this test's row in a summary table.

        Examples
        --------
        >>> import irr
        >>> irr.error_rate_test(errors=12, n=100, epsilon0=0.10).summary_row()[:3]
        ['0.1200', '12', '100']
        """
        eps = self.eps_bar
        eps_text = (
            " / ".join(fmt_number(e) for e in eps) if isinstance(eps, tuple) else fmt_number(eps)
        )
        return [
            fmt_number(self.estimate),
            str(self.errors),
            str(self.n_subjects),
            eps_text,
            fmt_pvalue(self.pvalue),
            fmt_number(self.ci.low, 3),
            fmt_number(self.ci.high, 3),
            "yes" if self.reject else "no",
        ]

    def summary(self) -> Summary:
        """A statsmodels ``Summary``: hypotheses, critical bound, p-value and decision.

        Examples
        --------
        >>> import irr
        >>> res = irr.error_rate_test(errors=12, n=100, epsilon0=0.10)
        >>> text = res.summary().as_text()
        >>> "eps_bar" in text, "H1:" in text
        (True, True)
        """
        return _error_rate_summary([self], title="Binomial test of the error rate",
                                   stubs=[self.coefficient], labelled=False)

    def __repr__(self) -> str:
        return (
            f"ErrorRateTestResult(errors={self.errors}, n={self.n_subjects}, "
            f"estimate={self.estimate:.4g}, epsilon0={self.epsilon0:g}, "
            f"alternative={self.alternative!r}, critical_count={self.critical_count}, "
            f"pvalue={self.pvalue:.4g}, reject={self.reject})"
        )


def _facts(first: ErrorRateTestResult) -> list[tuple[str, str]]:
    crit = first.critical
    return [
        ("H0:", f"error rate {_H0[first.alternative]} {first.epsilon0:g}"),
        ("H1:", f"error rate {_H1[first.alternative]} {first.epsilon0:g}"),
        ("eps0:", f"{first.epsilon0:g}"),
        ("alpha:", f"{first.alpha:g}"),
        ("Test:", "exact binomial"),
        ("CI:", f"{100 * first.ci.confidence_level:g}% {first.ci.method}"),
        ("n:", f"{crit.n:,}"),
        ("Attained size:", f"{crit.size:.4f}"),
    ]


def _error_rate_summary(
    results: Sequence[ErrorRateTestResult], title: str, stubs: Sequence[str], labelled: bool
) -> Summary:
    first = results[0]
    facts = _facts(first)
    if len({r.n_subjects for r in results}) > 1:
        facts[6] = ("n:", "see table")
        facts[7] = ("Attained size:", "see notes")
    if first.tolerance is not None:
        tol = first.tolerance  # what an error is: a score difference beyond it
        facts.append(("Error:", "any disagreement" if tol == 0
                      else f"|score difference| > {tol:g}"))
    missing = sum(r.n_missing for r in results)
    facts.append(("Left out (listwise):", str(missing)))
    columns = ["rate", "errors", "n", "eps_bar", "p-value", "ci low", "ci high", "reject"]
    shared = len({r.critical for r in results}) == 1
    notes = []
    for r, stub in zip(results, stubs, strict=True):
        prefix = f"{stub}: " if labelled else ""
        notes.append(prefix + r.decision)
    for r, stub in zip(results, stubs, strict=True):
        prefix = f"{stub}: " if labelled and not shared else ""
        size = "" if shared else f"; attained size {r.critical.size:.4f}"
        notes.append(prefix + r.critical.rule() + size + ".")
        if r.critical.note:
            notes.append(prefix + r.critical.note)
    notes.extend(first.notes)
    return hypothesis_summary(title, facts, columns, stubs, [r.summary_row() for r in results], notes)


def _pvalue_note(alternative: str) -> str:
    if alternative == "greater":
        return "p-value: P(X >= errors) under Binomial(n, eps0), as scipy.stats.binomtest."
    if alternative == "less":
        return "p-value: P(X <= errors) under Binomial(n, eps0), as scipy.stats.binomtest."
    return (
        "Two-sided p-value: twice the smaller tail, min(1, 2 min(P(X <= x), P(X >= x))) "
        "(the central method, equal-tailed like the alpha/2 bounds; scipy's binomtest "
        "uses the minimum-likelihood method instead)."
    )


def _binomial_result(
    errors: int,
    n: int,
    epsilon0: float,
    alpha: float,
    alternative: str,
    confidence_level: float,
    *,
    coefficient: str = "Error rate",
    n_missing: int = 0,
    raters: tuple[str, ...] = (),
    tolerance: float | None = None,
    extra_notes: Sequence[str] = (),
    critical: CriticalErrorRate | None = None,
) -> ErrorRateTestResult:
    critical = critical if critical is not None else _critical(n, epsilon0, alpha, alternative)
    reject = critical.rejects(errors)
    pvalue = float(binomial_pvalue(errors, n, epsilon0, alternative))
    # A p-value within rounding of alpha is settled by the exactly computed critical count,
    # so that ``reject == (pvalue < alpha)`` always holds.
    if reject and pvalue >= alpha:
        pvalue = float(np.nextafter(alpha, 0.0))
    elif not reject and pvalue < alpha:
        pvalue = alpha
    p = errors / n
    notes = [_pvalue_note(alternative)]
    if alternative != "two-sided":
        notes.append(f"The interval is one-sided ({alternative}), matching the test.")
    notes.extend(extra_notes)
    return ErrorRateTestResult(
        coefficient=coefficient,
        symbol="ε",
        estimate=p,
        se=math.sqrt(p * (1 - p) / n),
        statistic=float(errors),
        pvalue=pvalue,
        alternative=alternative,
        ci=_proportion_interval(errors, n, confidence_level, "exact", alternative),
        n_subjects=n,
        n_missing=n_missing,
        raters=raters,
        notes=tuple(notes),
        errors=errors,
        epsilon0=epsilon0,
        alpha=alpha,
        critical=critical,
        reject=reject,
        tolerance=tolerance,
    )


def error_rate_test(
    errors: int,
    n: int,
    epsilon0: float,
    alpha: float = 0.05,
    alternative: str = "greater",
    *,
    confidence_level: float | None = None,
) -> ErrorRateTestResult:
    """Exact binomial test of an error rate, with the critical error rate ``eps_bar``.

    Parameters
    ----------
    errors : int
        Errors observed, ``0 <= errors <= n``.
    n : int
        Test cases (at least 1).
    epsilon0 : float
        The error rate under H0, in (0, 1).
    alpha : float, default 0.05
        Significance level, in (0, 1).
    alternative : {'greater', 'less', 'two-sided'}, default 'greater'
        ``'greater'``: H0 "error rate <= eps0" (reject when the error rate is shown to
        exceed eps0); ``'less'``: H0 "error rate >= eps0" (reject when it is shown to be
        below eps0); ``'two-sided'``: H0 "error rate = eps0".
    confidence_level : float, optional
        Level of the interval in ``ci``; default ``1 - alpha``, so that the interval and
        the test agree.

    Returns
    -------
    ErrorRateTestResult
        ``estimate`` (``errors / n``), ``statistic`` (``errors``), ``pvalue``,
        ``critical_count``, ``eps_bar``, ``reject``, ``decision``, ``ci``
        (Clopper–Pearson); ``conf_int(method="wilson")`` for a Wilson interval.

    Raises
    ------
    TypeError, ValueError
        For non-integer or negative `errors`, `errors` > `n`, `n` < 1, `epsilon0` or
        `alpha` outside (0, 1), an unknown `alternative`.

    Notes
    -----
    With :math:`X \\sim \\mathrm{Binomial}(n, \\epsilon_0)` and ``x`` errors, the p-value
    is :math:`P(X \\ge x)` for ``'greater'`` and :math:`P(X \\le x)` for ``'less'`` (as
    ``scipy.stats.binomtest``). For ``'two-sided'`` it is
    :math:`\\min(1, 2\\min(P(X \\le x), P(X \\ge x)))`, the central method, which is not
    scipy's (minimum-likelihood) two-sided p-value: it is chosen so that the p-value and
    the equal-tailed critical counts (:func:`critical_error_rate`, ``alpha / 2`` per tail)
    always give the same decision, and so that the test inverts the Clopper–Pearson
    interval. ``reject`` comes from the critical count and always equals
    ``pvalue < alpha``: a p-value within floating rounding of ``alpha`` (an exact tie such
    as P(X >= 51) = 0.5 for n = 101, eps0 = 0.5) is settled by exact integer arithmetic.

    References
    ----------
    Clopper, C. J., & Pearson, E. S. (1934). The use of confidence or fiducial limits
    illustrated in the case of the binomial. Biometrika, 26, 404-413.
    https://doi.org/10.1093/biomet/26.4.404

    Examples
    --------
    >>> from irr.inference.error_rate import error_rate_test
    >>> res = error_rate_test(errors=12, n=100, epsilon0=0.10, alpha=0.05)
    >>> res.critical_count, res.eps_bar, res.reject
    (15, 0.15, False)
    >>> round(res.pvalue, 4)
    0.2970
    >>> print(res.decision)
    Do not reject H0: the data do not show that the error rate exceeds 0.1 at alpha = 0.05.
    >>> error_rate_test(2, 100, 0.10, alternative="less").reject
    True
    """
    n = _check_n(n)
    errors = check_integer(errors, "errors", minimum=0)
    if errors > n:
        raise ValueError(f"`errors` must be at most `n` = {n}; got {errors}.")
    epsilon0 = check_open_unit(epsilon0, "epsilon0")
    alpha = check_open_unit(alpha, "alpha")
    alternative = check_alternative(alternative)
    level = 1 - alpha if confidence_level is None else check_confidence_level(confidence_level)
    return _binomial_result(errors, n, epsilon0, alpha, alternative, level)


# ---------------------------------------------------------------------------------------
# Several raters against one reference
# ---------------------------------------------------------------------------------------
@dataclass(frozen=True, eq=False)
class ErrorRateTestFamily:
    """Error-rate tests of several raters against one reference rater, one row each.

    Each test is at level ``alpha``; there is no adjustment for multiple comparisons.
    Index by position or by rater name; iterate over the :class:`ErrorRateTestResult`.

    Examples
    --------
    >>> import irr
    >>> ag = irr.Agreement.from_frame(irr.datasets.load("video"))
    >>> fam = ag.error_rate_test(0.5, reference="rater1")
    >>> len(fam), fam["rater2"].errors
    (3, 6)
    >>> [r.raters for r in fam]  # each pair in the data's order
    [('rater1', 'rater2'), ('rater1', 'rater3'), ('rater1', 'rater4')]
    """

    results: tuple[ErrorRateTestResult, ...]
    raters: tuple[str, ...]
    reference: str

    def __len__(self) -> int:
        return len(self.results)

    def __iter__(self) -> Iterator[ErrorRateTestResult]:
        return iter(self.results)

    def __getitem__(self, key: int | str) -> ErrorRateTestResult:
        if isinstance(key, str):
            if key not in self.raters:
                raise KeyError(f"no test for rater {key!r}; raters are {list(self.raters)!r}.")
            return self.results[self.raters.index(key)]
        return self.results[key]

    @property
    def reject(self) -> dict[str, bool]:
        """Each rater's decision."""
        return {r: res.reject for r, res in zip(self.raters, self.results, strict=True)}

    def to_frame(self) -> pd.DataFrame:
        """One row per rater: the common result columns, then errors, critical count,
        eps_bar and the decision.

        Examples
        --------
        >>> import irr
        >>> ag = irr.Agreement.from_frame(irr.datasets.load("video"))
        >>> frame = ag.error_rate_test(0.5, reference="rater1").to_frame()
        >>> frame[["estimate", "critical_count", "reject"]].reset_index()
            rater  estimate  critical_count  reject
        0  rater2      0.30              14   False
        1  rater3      0.60              14   False
        2  rater4      0.15              14   False
        """
        rows = []
        for res in self.results:
            d = res.to_dict()
            rows.append({c: d[c] for c in (*FRAME_COLUMNS, "errors", "critical_count",
                                             "eps_bar", "reject")})
        frame = pd.DataFrame(rows, index=pd.Index(self.raters, name="rater"))
        return frame

    def to_dict(self) -> dict[str, dict[str, Any]]:
        """Each rater's ``to_dict()``, keyed by rater.

        Examples
        --------
        >>> import irr
        >>> ag = irr.Agreement.from_frame(irr.datasets.load("video"))
        >>> sorted(ag.error_rate_test(0.5, reference="rater1").to_dict())
        ['rater2', 'rater3', 'rater4']
        """
        return {r: res.to_dict() for r, res in zip(self.raters, self.results, strict=True)}

    def summary(self) -> Summary:
        """One statsmodels ``Summary`` with a row per rater.

        Examples
        --------
        >>> import irr
        >>> ag = irr.Agreement.from_frame(irr.datasets.load("video"))
        >>> print(ag.error_rate_test(0.5, reference="rater1").summary().tables[1])
        ====================================================================================================
                         rate     errors          n    eps_bar     p-value      ci low    ci high     reject
        ----------------------------------------------------------------------------------------------------
        rater2         0.3000          6         20     0.7000      0.9793       0.140      1.000         no
        rater3         0.6000         12         20     0.7000      0.2517       0.394      1.000         no
        rater4         0.1500          3         20     0.7000      0.9998       0.042      1.000         no
        ====================================================================================================
        """
        return _error_rate_summary(
            self.results, title=f"Binomial tests of error rates against {self.reference}",
            stubs=list(self.raters), labelled=True,
        )

    def report(self, style: str = "apa", **options: Any) -> str:
        """One sentence per rater, as :meth:`ErrorRateTestResult.report`, then a sentence
        saying that the tests are not adjusted for multiple comparisons.

        Parameters
        ----------
        style : {'apa', 'plain'}, default 'apa'
            As for :meth:`irr.Result.report`.
        **options
            ``digits`` etc., as for :meth:`irr.Result.report`.

        Examples
        --------
        >>> import irr
        >>> ag = irr.Agreement.from_frame(irr.datasets.load("video"))
        >>> text = ag.error_rate_test(0.5, reference="rater1").report()
        >>> print(text.split("; ")[0])  # doctest: +NORMALIZE_WHITESPACE
        The error rate between rater1 and rater2 was ε = .30, one-sided 95% lower
        confidence bound .14 (Clopper-Pearson), 6 errors in n = 20
        >>> text.endswith("no adjustment for multiple comparisons.")
        True
        """
        sentences = [res.report(style, **options) for res in self.results]
        alpha = self.results[0].alpha
        sentences.append(
            f"Each of the {len(self.results)} tests is at alpha = {alpha:g}, with no "
            "adjustment for multiple comparisons."
        )
        return " ".join(sentences)

    def __repr__(self) -> str:
        parts = ", ".join(
            f"{r}: {res.errors}/{res.n_subjects}, p={res.pvalue:.4g}"
            for r, res in zip(self.raters, self.results, strict=True)
        )
        return f"ErrorRateTestFamily(reference={self.reference!r}, {parts})"

    def __str__(self) -> str:
        return self.summary().as_text()

    def _repr_html_(self) -> str:
        return self.summary().as_html()


def error_mask(scores: np.ndarray | None, k: int, tolerance: float) -> np.ndarray:
    """k x k boolean matrix: True where the pair of categories counts as an error."""
    return ~tolerance_agreement(tolerance, k, scores)


def check_tolerance(tolerance: Any, scores: np.ndarray | None) -> float:
    """`tolerance` as a float, validated as :func:`irr.weights.tolerance_agreement` does."""
    tolerance_agreement(tolerance, 1 if scores is None else len(scores), scores)  # validates
    return float(tolerance)


def check_reference(reference: Any, raters: Sequence[str]) -> None:
    """Raise unless `reference` names one of `raters`."""
    if reference not in raters:
        raise ValueError(f"`reference` must be one of the raters {list(raters)!r}; got {reference!r}.")


def error_rate_test_of_statistics(
    stats: Statistics,
    epsilon0: float,
    alpha: float = 0.05,
    reference: str | None = None,
    tolerance: float = 0,
    alternative: str = "greater",
    confidence_level: float | None = None,
) -> ErrorRateTestResult | ErrorRateTestFamily:
    """The error-rate test(s) of rated subjects (:meth:`irr.Agreement.error_rate_test`)."""
    stats.require_raters("The error-rate test")
    epsilon0 = check_open_unit(epsilon0, "epsilon0")
    alpha = check_open_unit(alpha, "alpha")
    alternative = check_alternative(alternative)
    level = 1 - alpha if confidence_level is None else check_confidence_level(confidence_level)
    raters = stats.raters
    tolerance = check_tolerance(tolerance, stats.scores)
    if reference is not None:
        check_reference(reference, raters)
    if reference is None and len(raters) > 2:
        raise ValueError(
            f"`reference` must name the reference rater when there are more than two raters; "
            f"raters are {list(raters)!r}."
        )
    mask = error_mask(stats.scores, stats.n_categories, tolerance)
    notes = []
    if tolerance > 0:
        notes.append(
            f"Errors: |a - b| > {tolerance:g} on the category scores "
            f"(ratings within {tolerance:g} count as agreement)."
        )
    else:
        notes.append("Errors: ratings that differ from the reference (exact disagreement).")
    if reference is None:
        ref = raters[0]
        others = [raters[1]]
    else:
        ref = reference
        others = [r for r in raters if r != reference]
    ref_index = raters.index(ref)
    results = []
    for other in others:
        idx = raters.index(other)
        table, n_missing = stats.pair_table_of(ref_index, idx)
        n = int(table.sum())
        if n == 0:
            raise ValueError(
                f"No subject has ratings from both {other} and {ref}: the error rate needs at "
                "least one complete pair."
            )
        if n > MAX_N:
            raise ValueError(
                f"{other} and {ref} share {n} subjects; the exact binomial test supports at "
                f"most 2**53 = {MAX_N} (tails are computed in float64)."
            )
        errors = int(table[mask].sum())
        pair_notes = list(notes)
        # the pair in the data's order, as every other statistic's sentence names it
        pair = (ref, other) if ref_index < idx else (other, ref)
        if reference is not None:
            pair_notes.append(f"Reference: {ref}.")
        if n_missing:
            pair_notes.append(
                f"{pair[0]} vs {pair[1]}: {n_missing} subject(s) with a missing rating were "
                "left out."
            )
        results.append(
            _binomial_result(
                errors, n, epsilon0, alpha, alternative, level,
                coefficient=f"Error rate ({pair[0]} vs {pair[1]})",
                n_missing=n_missing, raters=pair, tolerance=tolerance,
                extra_notes=pair_notes,
            )
        )
    if len(results) == 1:
        return results[0]
    for i, res in enumerate(results):
        extra = ("Each rater is tested at level alpha; no adjustment for multiple "
                 "comparisons.",)
        object.__setattr__(results[i], "notes", res.notes + extra)
    return ErrorRateTestFamily(tuple(results), tuple(others), ref)


# ---------------------------------------------------------------------------------------
# The t test over repeated hold-out runs
# ---------------------------------------------------------------------------------------
@dataclass(frozen=True, eq=False, kw_only=True, repr=False)
class ErrorRateTTestResult(Result):
    """The t test of the mean error rate of k repeated hold-out runs or folds.

    ``estimate`` is the mean error rate, ``se`` its standard error ``s / sqrt(k)``,
    ``statistic`` the t statistic on ``df = k - 1`` degrees of freedom, ``ci`` a t
    interval (one-sided for one-sided alternatives). Adds ``k``, ``df``, ``std``,
    ``epsilon0``, ``alpha``, ``critical_value`` (the t quantile the statistic is compared
    with), ``reject`` and ``decision``.

    Examples
    --------
    >>> import irr
    >>> res = irr.error_rate_ttest([0.08, 0.11, 0.07, 0.09, 0.06], epsilon0=0.10, alternative="less")
    >>> round(res.estimate, 3), res.df, round(res.pvalue, 4)
    (0.082, 4, 0.0523)
    """

    k: int
    df: int
    std: float
    epsilon0: float
    alpha: float
    critical_value: float
    reject: bool
    bounds: tuple[float, float] = (0.0, 1.0)  # a mean of error rates (the t interval is not clipped)

    @property
    def decision(self) -> str:
        """The decision in words."""
        return _decision(self.reject, self.epsilon0, self.alpha, self.alternative,
                         "the mean error rate")

    interval_methods: ClassVar[tuple[str, ...]] = ("t",)

    def _interval(self, level: float, method: str) -> ConfidenceInterval:
        """The t interval for the mean error rate."""
        return _t_interval(self.estimate, self.se, self.df, level, self.alternative)

    def _extras(self) -> dict[str, Any]:
        return {
            "k": self.k,
            "df": self.df,
            "std": self.std,
            "epsilon0": self.epsilon0,
            "alpha": self.alpha,
            "critical_value": self.critical_value,
            "reject": self.reject,
        }

    def summary(self) -> Summary:
        """A statsmodels ``Summary``: hypotheses, t statistic, p-value and decision.

        Examples
        --------
        >>> import irr
        >>> res = irr.error_rate_ttest([0.08, 0.11, 0.07, 0.09, 0.06], epsilon0=0.10, alternative="less")
        >>> text = res.summary().as_text()
        >>> "Mean error rate" in text, "H1:" in text
        (True, True)
        """
        facts = [
            ("H0:", f"mean error rate {_H0[self.alternative]} {self.epsilon0:g}"),
            ("H1:", f"mean error rate {_H1[self.alternative]} {self.epsilon0:g}"),
            ("eps0:", f"{self.epsilon0:g}"),
            ("alpha:", f"{self.alpha:g}"),
            ("Runs (k):", str(self.k)),
            ("df:", str(self.df)),
            ("CI:", f"{100 * self.ci.confidence_level:g}% t"),
            ("Critical t:", fmt_number(self.critical_value, 3)),
        ]
        columns = ["mean", "std", "std err", "t", "p-value", "ci low", "ci high", "reject"]
        row = [fmt_number(self.estimate), fmt_number(self.std), fmt_number(self.se),
               fmt_number(self.statistic, 3), fmt_pvalue(self.pvalue),
               fmt_number(self.ci.low, 3), fmt_number(self.ci.high, 3),
               "yes" if self.reject else "no"]
        notes = [self.decision, *self.notes]
        return hypothesis_summary("t test of the mean error rate", facts, columns,
                                  [self.coefficient], [row], notes)

    def __repr__(self) -> str:
        return (
            f"ErrorRateTTestResult(k={self.k}, estimate={self.estimate:.4g}, "
            f"epsilon0={self.epsilon0:g}, statistic={self.statistic:.4g}, df={self.df}, "
            f"pvalue={self.pvalue:.4g}, reject={self.reject})"
        )


def _t_interval(
    mean: float, se: float, df: int, level: float, alternative: str
) -> ConfidenceInterval:
    from scipy.stats import t

    if not (math.isfinite(se) and se > 0):
        return ConfidenceInterval(math.nan, math.nan, level, "t")
    if alternative == "two-sided":
        q = float(t.isf((1 - level) / 2, df))
        return ConfidenceInterval(mean - q * se, mean + q * se, level, "t")
    q = float(t.isf(1 - level, df))
    if alternative == "greater":
        return ConfidenceInterval(mean - q * se, math.inf, level, "t", "one-sided (greater)")
    return ConfidenceInterval(-math.inf, mean + q * se, level, "t", "one-sided (less)")


def error_rate_ttest(
    error_rates: Any,
    epsilon0: float,
    alpha: float = 0.05,
    alternative: str = "greater",
    *,
    confidence_level: float | None = None,
) -> ErrorRateTTestResult:
    """t test of the mean error rate over k repeated hold-out runs or cross-validation folds.

    Parameters
    ----------
    error_rates : array-like of shape (k,)
        The k test error rates, each in [0, 1]; at least two, no missing values.
    epsilon0 : float
        The error rate under H0, in (0, 1).
    alpha : float, default 0.05
        Significance level, in (0, 1).
    alternative : {'greater', 'less', 'two-sided'}, default 'greater'
        As for :func:`error_rate_test`: H0 "mean error rate <= eps0" against "> eps0",
        H0 ">= eps0" against "< eps0", or H0 "= eps0".
    confidence_level : float, optional
        Level of the t interval; default ``1 - alpha``.

    Returns
    -------
    ErrorRateTTestResult
        ``estimate`` (mean), ``std``, ``se``, ``statistic`` (t), ``df``, ``pvalue``,
        ``critical_value``, ``reject``, ``decision``, ``ci``.

    Raises
    ------
    TypeError, ValueError
        For non-numeric, missing or out-of-range rates, fewer than two of them, and bad
        `epsilon0`, `alpha` or `alternative`.

    Warns
    -----
    DegenerateDataWarning
        When all rates are equal (s = 0): t is undefined and returned as nan.

    Notes
    -----
    .. math:: \\tau_t = \\frac{\\sqrt{k}\\,(\\mu - \\epsilon_0)}{s}, \\qquad
              s^2 = \\frac{1}{k-1}\\sum_{i=1}^{k}(\\hat\\epsilon_i - \\mu)^2,

    compared with Student's t on k - 1 degrees of freedom (eq. 2.30 of Zhou, 2016).
    The runs are treated as independent; for overlapping cross-validation folds the
    test is known to be liberal. Validated against ``scipy.stats.ttest_1samp``.

    Examples
    --------
    >>> from irr.inference.error_rate import error_rate_ttest
    >>> res = error_rate_ttest([0.12, 0.15, 0.11, 0.14, 0.13], epsilon0=0.10)
    >>> round(res.statistic, 3), res.df, res.reject
    (4.243, 4, True)
    """
    from scipy.stats import t

    if isinstance(epsilon0, (int, float)) and epsilon0 == 0:
        raise ValueError(
            "`epsilon0` must be in (0, 1); got 0. To compare two learners' error rates over "
            "the same folds, test their differences with irr.paired_ttest(errors_a, "
            "errors_b) (or irr.cv52_ttest for 5 x 2-fold cross-validation)."
        )
    epsilon0 = check_open_unit(epsilon0, "epsilon0")
    alpha = check_open_unit(alpha, "alpha")
    alternative = check_alternative(alternative)
    level = 1 - alpha if confidence_level is None else check_confidence_level(confidence_level)
    rates = _check_rates(error_rates)
    k = rates.size
    mean = float(rates.mean())
    std = float(rates.std(ddof=1))
    se = std / math.sqrt(k)
    df = k - 1
    if rates.max() > rates.min():
        statistic = (mean - epsilon0) / se
        if alternative == "greater":
            pvalue = float(t.sf(statistic, df))
        elif alternative == "less":
            pvalue = float(t.cdf(statistic, df))
        else:
            pvalue = float(min(1.0, 2 * t.sf(abs(statistic), df)))
    else:
        std = se = 0.0
        warnings.warn(
            "The t statistic is undefined (nan): all error rates are equal, so their "
            "standard deviation is 0.",
            DegenerateDataWarning,
            stacklevel=2,
        )
        statistic = pvalue = math.nan
    tail = alpha / 2 if alternative == "two-sided" else alpha
    critical_value = float(t.isf(tail, df))
    if alternative == "greater":
        reject = statistic > critical_value
    elif alternative == "less":
        reject = statistic < -critical_value
    else:
        reject = abs(statistic) > critical_value
    return ErrorRateTTestResult(
        coefficient="Mean error rate",
        symbol="ε",
        estimate=mean,
        se=se,
        statistic=statistic,
        pvalue=pvalue,
        alternative=alternative,
        ci=_t_interval(mean, se, df, level, alternative),
        n_subjects=k,
        notes=("Runs treated as independent (k - 1 degrees of freedom); s uses divisor k - 1.",),
        k=k,
        df=df,
        std=std,
        epsilon0=epsilon0,
        alpha=alpha,
        critical_value=critical_value,
        reject=bool(reject),
    )


def _check_rates(error_rates: Any) -> np.ndarray:
    if isinstance(error_rates, (str, bytes)) or np.isscalar(error_rates):
        raise TypeError(
            f"`error_rates` must be a 1-D array-like of error rates; got {error_rates!r}."
        )
    array = np.asarray(error_rates.to_numpy() if isinstance(error_rates, pd.Series)
                       else error_rates)
    if array.dtype.kind not in "iuf":
        raise TypeError(f"`error_rates` must be numeric; got dtype {array.dtype}.")
    if array.ndim != 1:
        raise ValueError(f"`error_rates` must be 1-D; got an array of shape {array.shape}.")
    rates = array.astype(float)
    if rates.size < 2:
        raise ValueError(f"`error_rates` must hold at least two rates; got {rates.size}.")
    bad = rates[~np.isfinite(rates) | (rates < 0) | (rates > 1)]
    if bad.size:
        hint = (" Differences of two learners' error rates: irr.paired_ttest(errors_a, "
                "errors_b)." if (rates < 0).any() else "")
        raise ValueError(
            f"`error_rates` must be finite rates in [0, 1]; got {np.unique(bad)[:5].tolist()}."
            + hint
        )
    return rates
