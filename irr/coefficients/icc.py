r"""Intraclass correlations (McGraw & Wong 1996; Shrout & Fleiss 1979) from mean squares.

The sufficient statistic is the two-way ANOVA of an n subjects x k raters matrix of
scores: the mean squares between subjects (rows, MSR), between raters (columns, MSC),
the residual (MSE) and within subjects (MSW). Everything below is vectorised over a
leading batch axis of these mean squares.

=========  ==========  ===========  =====================  ==========================
model      type        unit         McGraw & Wong          Shrout & Fleiss
=========  ==========  ===========  =====================  ==========================
oneway     agreement   single       ICC(1)                 ICC(1,1)
oneway     agreement   average      ICC(k)                 ICC(1,k)
twoway     agreement   single       ICC(A,1)               ICC(2,1)
twoway     agreement   average      ICC(A,k)               ICC(2,k)
twoway     consistency single       ICC(C,1)               ICC(3,1)
twoway     consistency average      ICC(C,k)               ICC(3,k)
=========  ==========  ===========  =====================  ==========================
"""

from __future__ import annotations

from typing import NamedTuple

import numpy as np

__all__ = [
    "FORMS",
    "MeanSquares",
    "centre",
    "icc_estimate",
    "icc_f_test",
    "icc_interval",
    "icc_null_test",
    "mean_squares",
    "power_of_two_exponent",
    "shrout_fleiss_name",
    "single_rater_null",
]

#: The six (model, type, unit) forms, in Shrout & Fleiss order.
FORMS = (
    ("oneway", "agreement", "single"),
    ("twoway", "agreement", "single"),
    ("twoway", "consistency", "single"),
    ("oneway", "agreement", "average"),
    ("twoway", "agreement", "average"),
    ("twoway", "consistency", "average"),
)


class MeanSquares(NamedTuple):
    """Mean squares of the n x k two-way layout (each of the batch shape).

    They are those of the ratings divided by ``2**log2_scale`` (a power of two, so the
    division is exact): multiply by ``4**log2_scale`` for the data's units. Every ICC, F
    statistic and interval is a ratio of them, so the scale cancels; it keeps the squares
    inside the float range for ratings anywhere from 1e-300 to 1e308.
    """

    rows: np.ndarray  # MSR, df n - 1
    columns: np.ndarray  # MSC, df k - 1
    error: np.ndarray  # MSE, df (n - 1)(k - 1)
    within: np.ndarray  # MSW, df n (k - 1)
    n: int
    k: int
    log2_scale: np.ndarray | int = 0


def shrout_fleiss_name(model: str, type: str, unit: str, k: int | None = None) -> str:
    """``'ICC(2,1)'`` etc.: Shrout & Fleiss' name of a (model, type, unit) form.

    Examples
    --------
    >>> shrout_fleiss_name("twoway", "consistency", "average", 4)
    'ICC(3,4)'
    """
    case = 1 if model == "oneway" else (2 if type == "agreement" else 3)
    raters = "1" if unit == "single" else ("k" if k is None else str(k))
    return f"ICC({case},{raters})"


def form_description(model: str, type: str, unit: str, k: int) -> str:
    """The words of an ICC form: effects, definition and unit, as McGraw & Wong name them.

    The two-way consistency form is Shrout & Fleiss' mixed-effects ICC(3, .) (McGraw &
    Wong's ICC(C, .) has the same formula under random or mixed effects).

    Examples
    --------
    >>> form_description("twoway", "agreement", "single", 3)
    'two-way random effects, absolute agreement, single rater'
    >>> form_description("oneway", "agreement", "average", 4)
    'one-way random effects, absolute agreement, average of 4 raters'
    """
    if model == "oneway":
        effects = "one-way random effects"
    else:
        effects = "two-way random effects" if type == "agreement" else "two-way mixed effects"
    kind = "absolute agreement" if type == "agreement" else "consistency"
    of = "single rater" if unit == "single" else f"average of {k} raters"
    return f"{effects}, {kind}, {of}"


def power_of_two_exponent(values: np.ndarray, axes: tuple[int, ...]) -> np.ndarray:
    """The exponent ``e`` of the power of two just above ``max |values|`` over `axes`.

    Dividing by ``2**e`` (``np.ldexp(values, -e)``) is exact and brings the values into
    [-1, 1] ([-2, 2] above 2**1023, the largest power of two), so that their squares
    neither underflow nor overflow; ``e`` is 0 where every value is 0.

    Examples
    --------
    >>> int(power_of_two_exponent(np.array([3.0, -1.0]), (0,)))
    2
    >>> int(power_of_two_exponent(np.array([3e-200, -1e-200]), (0,)))
    -662
    """
    largest = np.abs(values).max(axis=axes) if values.size else np.zeros(
        np.delete(values.shape, axes))
    _, exponent = np.frexp(largest)
    return np.where(largest > 0, np.minimum(exponent, 1023), 0)


def centre(x: np.ndarray, axes: tuple[int, ...]) -> np.ndarray:
    """`x` minus its mean over `axes`, accurate when the mean is large.

    One value is subtracted first (exactly, for data near it), then the mean of what is
    left: ``x + 1e15`` is centred as accurately as ``x``.
    """
    anchor = x[(..., *(slice(0, 1),) * len(axes))] if x.size else 0.0
    shifted = x - anchor
    return shifted - shifted.mean(axis=axes, keepdims=True)


def mean_squares(x: np.ndarray, multiplicity: np.ndarray | None = None) -> MeanSquares:
    """Mean squares of complete ratings `x` of shape (..., n, k) (rows: subjects).

    The ratings are centred (:func:`centre`) and divided by a power of two
    (:func:`power_of_two_exponent`) before any square is formed, so the ICC does not
    change when the ratings are shifted or rescaled, however far;
    ``MeanSquares.log2_scale`` records the divisor.

    With `multiplicity` (shape (P,), positive integers; `x` then 2-D, shape (P, k)) each
    row of `x` is a distinct subject pattern standing for that many subjects: the mean
    squares are those of the rows repeated, computed as weighted sums in O(P k) without
    repeating them (a table of 2e9 subjects in 4 patterns costs 4 rows).

    Examples
    --------
    >>> ms = mean_squares(np.array([[9, 2, 5, 8], [6, 1, 3, 2], [8, 4, 6, 8],
    ...                             [7, 1, 2, 6], [10, 5, 6, 9], [6, 2, 4, 7]]))
    >>> [round(float(np.ldexp(v, 2 * ms.log2_scale)), 2) for v in ms[:4]]
    [11.24, 32.49, 1.02, 6.26]
    >>> ms = mean_squares(np.array([[1, 1], [1, 2], [2, 2]]), np.array([3, 1, 2]))
    >>> round(float(ms.rows / ms.within), 6), ms.n
    (5.8, 6)
    """
    x = np.asarray(x, dtype=float)
    k = x.shape[-1]
    if multiplicity is None:
        n = x.shape[-2]
        c = np.ones(n)
    else:
        c = np.asarray(multiplicity, dtype=float)
        n = int(np.asarray(multiplicity, dtype=np.int64).sum())
    # divide by a power of two first (so that differences of ratings near 1e308 cannot
    # overflow), centre, then divide again (so that small spreads, e.g. around 1e15,
    # are near 1 before they are squared)
    first = power_of_two_exponent(x, (-2, -1))
    scaled = np.ldexp(x, -first[..., None, None])
    if multiplicity is None:
        centred = centre(scaled, (-2, -1))
    else:
        shifted = scaled - scaled[0, 0]  # one value first, exactly (see centre)
        centred = shifted - (c @ shifted).sum() / (n * k)
    second = power_of_two_exponent(centred, (-2, -1))
    centred = np.ldexp(centred, -second[..., None, None])
    # row and column sums as matrix-vector products (fast on the short rater axis)
    row_means = centred @ np.full(k, 1.0 / k)
    col_means = (c / n) @ centred
    ss_rows = k * np.einsum("...i,i,...i->...", row_means, c, row_means)
    ss_cols = n * np.einsum("...j,...j->...", col_means, col_means)
    # Error and within-subject sums of squares from the residuals themselves, not as
    # differences of totals: no cancellation when the ICC is near 1 (perfect agreement
    # gives exactly 0 error, so an ICC of 1).
    within = centred - row_means[..., :, None]
    ss_within = np.einsum("...ij,i,...ij->...", within, c, within)
    within -= col_means[..., None, :]
    ss_error = np.einsum("...ij,i,...ij->...", within, c, within)
    # Sums of squares at the level of rounding noise in the centred data (now at most 1
    # in magnitude) are zero: the ICC of identical subjects is undefined (0/0), not a
    # ratio of two noises.
    noise = n * k * (64 * np.finfo(float).eps) ** 2
    ss_rows, ss_cols, ss_error, ss_within = (
        np.where(ss <= noise, 0.0, ss) for ss in (ss_rows, ss_cols, ss_error, ss_within)
    )
    with np.errstate(invalid="ignore", divide="ignore"):
        return MeanSquares(
            rows=ss_rows / (n - 1),
            columns=ss_cols / (k - 1),
            error=ss_error / ((n - 1) * (k - 1)),
            within=ss_within / (n * (k - 1)),
            n=n,
            k=k,
            log2_scale=first + second,
        )


def icc_estimate(ms: MeanSquares, model: str, type: str, unit: str) -> np.ndarray:
    r"""The intraclass correlation of one form (McGraw & Wong 1996, Table 4).

    .. math::

        ICC(1) = \frac{MSR - MSW}{MSR + (k-1) MSW}, \quad
        ICC(C,1) = \frac{MSR - MSE}{MSR + (k-1) MSE}, \quad
        ICC(A,1) = \frac{MSR - MSE}{MSR + (k-1) MSE + \frac{k}{n}(MSC - MSE)},

        ICC(k) = \frac{MSR - MSW}{MSR}, \quad
        ICC(C,k) = \frac{MSR - MSE}{MSR}, \quad
        ICC(A,k) = \frac{MSR - MSE}{MSR + (MSC - MSE)/n}.
    """
    n, k = ms.n, ms.k
    with np.errstate(invalid="ignore", divide="ignore"):
        if model == "oneway":
            if unit == "single":
                return (ms.rows - ms.within) / (ms.rows + (k - 1) * ms.within)
            return (ms.rows - ms.within) / ms.rows
        if type == "consistency":
            if unit == "single":
                return (ms.rows - ms.error) / (ms.rows + (k - 1) * ms.error)
            return (ms.rows - ms.error) / ms.rows
        if unit == "single":
            return (ms.rows - ms.error) / (
                ms.rows + (k - 1) * ms.error + k * (ms.columns - ms.error) / n
            )
        return (ms.rows - ms.error) / (ms.rows + (ms.columns - ms.error) / n)


def icc_f_test(ms: MeanSquares, model: str) -> tuple[np.ndarray, int, int]:
    """F statistic of H0: ICC = 0 and its degrees of freedom (McGraw & Wong, Table 8).

    One-way: ``F = MSR / MSW`` on (n - 1, n (k - 1)) df; two-way (either type, either
    unit; the agreement test's Satterthwaite df reduce to (n - 1)(k - 1) at rho0 = 0):
    ``F = MSR / MSE`` on (n - 1, (n - 1)(k - 1)) df.
    """
    n, k = ms.n, ms.k
    with np.errstate(invalid="ignore", divide="ignore"):
        if model == "oneway":
            return ms.rows / ms.within, n - 1, n * (k - 1)
        return ms.rows / ms.error, n - 1, (n - 1) * (k - 1)


def single_rater_null(r0: float, unit: str, k: int) -> float:
    """The single-rater ICC equivalent to the null value `r0` of a form of `unit`: `r0`
    itself, or for an average of k raters the value the Spearman-Brown formula steps up
    to it, r0 / (k - (k - 1) r0).

    Examples
    --------
    >>> single_rater_null(0.75, "average", 3)  # 3 x 0.5 / (1 + 2 x 0.5) = 0.75
    0.5
    """
    return r0 if unit == "single" else r0 / (k - (k - 1) * r0)


def icc_null_test(
    ms: MeanSquares, model: str, type: str, unit: str, r0: float
) -> tuple[np.ndarray, float, np.ndarray]:
    r"""F test of H0: ICC = `r0` (one-sided, against ICC > r0) and its degrees of freedom
    (McGraw & Wong 1996, Table 8).

    With :math:`\rho_0` the single-rater value of `r0` (:func:`single_rater_null`; the
    average-measure tests are the single-measure tests at the stepped-down value, which
    gives Table 8's own average-measure formulas, e.g. :math:`F = (MSR/MSE)(1 - r_0)` for
    ICC(C,k)): one-way, :math:`F = \frac{MSR}{MSW} \frac{1 - \rho_0}{1 + (k-1)\rho_0}` on
    (n - 1, n (k - 1)) df; consistency, the same with MSE on (n - 1, (n - 1)(k - 1)) df;
    absolute agreement, :math:`F = MSR / (a\,MSC + b\,MSE)` with
    :math:`a = k\rho_0 / (n (1 - \rho_0))`, :math:`b = 1 + (n - 1) a` on (n - 1, v) df,
    v the Satterthwaite df of :func:`agreement_df` at :math:`\rho_0` (not at the
    estimate). At r0 = 0 each is :func:`icc_f_test`. Returns ``(F, df1, df2)``; F is nan
    where the agreement denominator is not positive (a negative `r0` with a large rater
    mean square).
    """
    n, k = ms.n, ms.k
    rho = single_rater_null(r0, unit, k)
    with np.errstate(invalid="ignore", divide="ignore", over="ignore"):
        if model == "oneway" or type == "consistency":
            f, df1, df2 = icc_f_test(ms, model)
            return f * (1 - rho) / (1 + (k - 1) * rho), df1, np.asarray(float(df2))
        a = k * rho / (n * (1 - rho))
        b = 1 + (n - 1) * a
        den = a * ms.columns + b * ms.error
        f = np.where(den > 0, ms.rows / den, np.nan)
        return f, n - 1, agreement_df(ms, np.asarray(rho))


def _single_from_f(f: np.ndarray, k: int) -> np.ndarray:
    with np.errstate(invalid="ignore", divide="ignore"):
        return np.where(np.isposinf(f), 1.0, (f - 1) / (f + k - 1))


def _average_from_f(f: np.ndarray) -> np.ndarray:
    with np.errstate(invalid="ignore", divide="ignore"):
        return np.where(np.isposinf(f), 1.0, 1 - 1 / f)


def agreement_df(ms: MeanSquares, rho: np.ndarray) -> np.ndarray:
    r"""Satterthwaite-type df :math:`v` of the ICC(A,1) interval (McGraw & Wong, Table 7).

    .. math::

        a = \frac{k \hat\rho}{n (1 - \hat\rho)}, \quad
        b = 1 + \frac{k \hat\rho (n - 1)}{n (1 - \hat\rho)}, \quad
        v = \frac{(a\,MSC + b\,MSE)^2}{\frac{(a\,MSC)^2}{k - 1}
            + \frac{(b\,MSE)^2}{(n - 1)(k - 1)}}

    with :math:`\hat\rho` the ICC(A,1) estimate.
    """
    n, k = ms.n, ms.k
    with np.errstate(invalid="ignore", divide="ignore"):
        a = k * rho / (n * (1 - rho))
        b = 1 + k * rho * (n - 1) / (n * (1 - rho))
        num = (a * ms.columns + b * ms.error) ** 2
        den = (a * ms.columns) ** 2 / (k - 1) + (b * ms.error) ** 2 / ((n - 1) * (k - 1))
        return num / den


def icc_interval(
    ms: MeanSquares, model: str, type: str, unit: str, confidence_level: float
) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    r"""F-based interval of one form (McGraw & Wong 1996, Table 7).

    Exact (under the normal random-effects model) for the one-way and consistency forms;
    approximate for absolute agreement, whose denominator df are Satterthwaite's
    (:func:`agreement_df`). Returns ``(low, high, df)`` where ``df`` is the denominator df
    used: n (k - 1) for the one-way forms, (n - 1)(k - 1) for consistency, the
    Satterthwaite :math:`v` for absolute agreement. Both bounds are nan where the formulas
    give no interval: a point (F = 0 or infinite) or, for absolute agreement, a bound
    whose denominator is not positive (crossed ends, as for few subjects whose rater
    mean square is below the error mean square).

    Notes
    -----
    One-way and consistency forms: with :math:`F_o` the observed F,
    :math:`F_L = F_o / F_{1-\alpha/2}(df_1, df_2)`,
    :math:`F_U = F_o \cdot F_{1-\alpha/2}(df_2, df_1)`; single-rater bounds are
    :math:`(F - 1)/(F + k - 1)`, average bounds :math:`1 - 1/F`. Absolute agreement,
    single rater: with :math:`F^* = F_{1-\alpha/2}(n-1, v)` and
    :math:`F_* = F_{1-\alpha/2}(v, n-1)`,

    .. math::

        L = \frac{n (MSR - F^* MSE)}{F^* [k\,MSC + (kn - k - n) MSE] + n\,MSR}, \qquad
        U = \frac{n (F_* MSR - MSE)}{k\,MSC + (kn - k - n) MSE + n F_* MSR};

    average: :math:`L = n (MSR - F^* MSE) / (F^* (MSC - MSE) + n\,MSR)`,
    :math:`U = n (F_* MSR - MSE) / (MSC - MSE + n F_* MSR)` (the Spearman-Brown step-up
    of the single-rater bounds), with the same :math:`v`.
    """
    from scipy.special import fdtri

    n, k = ms.n, ms.k
    q = 0.5 + confidence_level / 2
    if model == "oneway" or type == "consistency":
        f, df1, df2 = icc_f_test(ms, model)
        with np.errstate(invalid="ignore", divide="ignore", over="ignore"):
            f_low = f / fdtri(df1, df2, q)
            f_high = f * fdtri(df2, df1, q)
        if unit == "single":
            low, high = _single_from_f(f_low, k), _single_from_f(f_high, k)
        else:
            low, high = _average_from_f(f_low), _average_from_f(f_high)
        return (*_proper(low, high, icc_estimate(ms, model, type, unit)),
                np.asarray(float(df2)))
    rho = icc_estimate(ms, "twoway", "agreement", "single")
    v = agreement_df(ms, rho)
    with np.errstate(invalid="ignore", divide="ignore", over="ignore"):
        f_star = fdtri(n - 1, v, q)
        f_sub = fdtri(v, n - 1, q)
        msr, msc, mse = ms.rows, ms.columns, ms.error
        if unit == "single":
            den_low = f_star * (k * msc + (k * n - k - n) * mse) + n * msr
            den_high = k * msc + (k * n - k - n) * mse + n * f_sub * msr
            low = n * (msr - f_star * mse) / den_low
            high = n * (f_sub * msr - mse) / den_high
        else:
            den_low = f_star * (msc - mse) + n * msr
            den_high = msc - mse + n * f_sub * msr
            low = n * (msr - f_star * mse) / den_low
            high = n * (f_sub * msr - mse) / den_high
    # A bound whose denominator is not positive is not a bound: the formula's pivot has
    # changed sign (few subjects, MSC below MSE), and the "interval" comes out inverted.
    low = np.where(den_low > 0, low, np.nan)
    high = np.where(den_high > 0, high, np.nan)
    return (*_proper(low, high, icc_estimate(ms, model, type, unit)), v)


def _proper(
    low: np.ndarray, high: np.ndarray, estimate: np.ndarray
) -> tuple[np.ndarray, np.ndarray]:
    """The bounds where they form an interval of positive width around the estimate; nan
    where they do not.

    The F-based formulas give a point when F is 0 or infinite (no subject variance, or no
    error variance), crossed ends when the absolute-agreement formula breaks down, and,
    when Satterthwaite's df are far below 1, an interval that misses the estimate. None of
    these is a confidence interval, so both ends become nan (the estimator says why in a
    warning and a note).
    """
    with np.errstate(invalid="ignore"):
        bad = ~(low < high) & ~(np.isnan(low) & np.isnan(high))
        bad |= np.isnan(low) ^ np.isnan(high)
        bad |= np.isfinite(estimate) & ~((low <= estimate) & (estimate <= high))
    return np.where(bad, np.nan, low), np.where(bad, np.nan, high)
