"""Method-comparison regression of a test method (y) on a comparison method (x): Deming
regression with a jackknife standard error (Linnet 1993) and Passing–Bablok regression
with its rank-based intervals and cusum linearity test (Passing & Bablok 1983)."""

from __future__ import annotations

import math
import warnings
from dataclasses import dataclass, field
from functools import cached_property, partial
from typing import Any, ClassVar

import numpy as np
import pandas as pd

from irr._frames import LazyMeasurements
from irr._measurements import Measurements
from irr._numbers import format_df, format_interval, format_number, format_pvalue
from irr._validation import (
    DegenerateDataWarning,
    check_choice,
    check_confidence_level,
    show_value,
)
from irr.coefficients.method_regression import (
    cusum_linearity,
    deming_fit,
    deming_jackknife_intercepts,
    deming_slope,
    passing_bablok_oriented,
)
from irr.inference.bootstrap import bootstrap_counts
from irr.inference.keywords import DEMING_CIS, DEMING_NOTES
from irr.inference.options import BOOTSTRAP_METHODS, DEFAULT_OPTIONS, InferenceOptions
from irr.results import FRAME_COLUMNS, ConfidenceInterval, Result, normal_quantile
from irr.summary import results_summary
from irr.vocabulary import interval_name

__all__ = [
    "DEMING_CIS",
    "DEMING_NOTES",
    "DEMING_OPTIONS",
    "MethodRegressionResult",
    "deming",
    "paired_measurements",
    "passing_bablok",
    "replicate_error_ratio",
]

_PARAMETERS = ("slope", "intercept")
_NAMES = {"deming": "Deming", "passing_bablok": "Passing–Bablok"}


@dataclass(frozen=True, eq=False, kw_only=True, repr=False)
class MethodRegressionResult(Result):
    """A method-comparison regression line ``y = intercept + slope * x``.

    ``estimate``, ``se``, ``ci``, ``statistic`` and ``pvalue`` are those of the slope (the
    t test of slope = 1 for Deming regression; Passing–Bablok regression has no test
    statistic, its intervals are rank-based); ``intercept``, ``intercept_se``,
    ``intercept_ci``, ``intercept_statistic`` and ``intercept_pvalue`` those of the
    intercept (t test of intercept = 0). ``method`` is ``'deming'`` or
    ``'passing_bablok'``; ``x_name`` and ``y_name`` name the comparison (x) and test (y)
    methods; ``error_ratio`` is Deming's lambda = var(error of x) / var(error of y) (nan
    for Passing–Bablok); ``df`` the degrees of freedom of the t intervals and tests (n - 2);
    ``linearity_statistic`` and ``linearity_pvalue`` Passing–Bablok's cusum test (nan for
    Deming). ``x`` and ``y`` hold the pairs used (for plots).

    :meth:`to_frame` has two rows, the slope and the intercept.

    Examples
    --------
    >>> import irr
    >>> res = irr.deming([1.0, 2.1, 2.9, 4.2, 5.1], [1.2, 2.0, 3.1, 4.0, 5.3])
    >>> round(res.slope, 4), round(res.intercept, 4)
    (0.9913, 0.0867)
    >>> res.to_frame().index.tolist()
    ['Deming slope', 'Deming intercept']
    """

    method: str
    intercept: float
    intercept_se: float
    intercept_ci: ConfidenceInterval
    intercept_statistic: float = math.nan
    intercept_pvalue: float = math.nan
    x_name: str
    y_name: str
    error_ratio: float = math.nan
    df: float = math.nan
    linearity_statistic: float = math.nan
    linearity_pvalue: float = math.nan
    x: np.ndarray = field(repr=False)
    y: np.ndarray = field(repr=False)
    jackknife_slopes: np.ndarray | None = field(default=None, repr=False)
    bounds: tuple[float, float] = (-math.inf, math.inf)
    scale: str | None = None
    statistic_name: str = "t"

    interval_methods: ClassVar[tuple[str, ...]] = ("jackknife", "rank", *BOOTSTRAP_METHODS)

    @property
    def slope(self) -> float:
        """The slope (the same as :attr:`estimate`)."""
        return self.estimate

    @cached_property
    def jackknife_intercepts(self) -> np.ndarray | None:
        """Deming's leave-one-out intercepts, one per pair (None for Passing–Bablok),
        made from :attr:`jackknife_slopes` when first read."""
        if self.jackknife_slopes is None:
            return None
        return deming_jackknife_intercepts(self.x, self.y, self.jackknife_slopes)

    def conf_int(self, confidence_level: float | None = None, method: str | None = None,
                 *, parameter: str = "slope") -> ConfidenceInterval:
        """Another interval for the slope or (``parameter='intercept'``) the intercept.

        ``method``: ``'jackknife'`` (Deming: t on n - 2 df with the jackknife SE),
        ``'rank'`` (Passing–Bablok's), or a bootstrap method for Deming regression
        (``'percentile'``, ``'basic'``, ``'bca'``: resampling subjects, drawn once).

        Parameters
        ----------
        confidence_level : float, optional
            Level of the interval (default the result's).
        method : str, optional
            The interval method (default the result's).
        parameter : {'slope', 'intercept'}, default 'slope'
            The parameter the interval is of.

        Examples
        --------
        >>> import irr
        >>> res = irr.deming([1.0, 2.1, 2.9, 4.2, 5.1], [1.2, 2.0, 3.1, 4.0, 5.3])
        >>> ci = res.conf_int(0.90, parameter="intercept")
        >>> round(ci.low, 3), round(ci.high, 3), ci.method
        (-0.572, 0.745, 'jackknife')
        """
        check_choice(parameter, "parameter", _PARAMETERS)
        level = self.ci.confidence_level if confidence_level is None else confidence_level
        level = check_confidence_level(level)
        method = self.ci.method if method is None else method
        own = ("rank",) if self.method == "passing_bablok" else ("jackknife", *BOOTSTRAP_METHODS)
        check_choice(method, "method", own)
        index = _PARAMETERS.index(parameter)
        if method == "rank":
            _, fit = _pb_fit(self.x, self.y, level)
            return _pb_intervals(fit, level)[index]
        if method == "jackknife":
            estimate = (self.estimate, self.intercept)[index]
            se = (self.se, self.intercept_se)[index]
            return _t_interval(estimate, se, level, self.df)
        low, high, note = self.bootstrap.interval(confidence_level=level, method=method,
                                                  explain=True)
        return ConfidenceInterval(float(low[index]), float(high[index]), level, method,
                                  str(note[index]))

    def _interval(self, level: float, method: str) -> ConfidenceInterval:
        return self.conf_int(level, method)

    def band(self, at: Any, confidence_level: float | None = None) -> tuple[np.ndarray, ...]:
        """The fitted line at `at` and its pointwise confidence band ``(fit, low, high)``:
        Deming's from the jackknife of ``intercept + slope * at`` (t on n - 2 df, Linnet
        1993); nan for Passing–Bablok, which has no published band.

        Parameters
        ----------
        at : array-like
            The values of x at which the line is evaluated.
        confidence_level : float, optional
            Level of the band (default the result's).
        """
        at = np.asarray(at, dtype=float)
        fit = self.intercept + self.estimate * at
        if self.jackknife_slopes is None:
            return fit, np.full_like(fit, np.nan), np.full_like(fit, np.nan)
        level = self.ci.confidence_level if confidence_level is None else confidence_level
        n = self.jackknife_slopes.size
        values = self.jackknife_intercepts[:, None] + self.jackknife_slopes[:, None] * at.ravel()
        se = np.sqrt((n - 1) / n * ((values - values.mean(axis=0)) ** 2).sum(axis=0))
        from scipy.special import stdtrit

        half = float(stdtrit(self.df, 0.5 + level / 2)) * se.reshape(at.shape)
        return fit, fit - half, fit + half

    # -- output --------------------------------------------------------------------------
    own_sentence: ClassVar[bool] = True

    def parts(self) -> list[Result]:
        """The slope and the intercept as results: the rows of tables."""
        return self._rows()

    def _rows(self) -> list[Result]:
        name = _NAMES[self.method]
        common = dict(n_subjects=self.n_subjects, n_missing=self.n_missing,
                      n_incomplete=self.n_incomplete, raters=self.raters, scale=None,
                      statistic_name="t", bounds=self.bounds, design_df=self.df)
        return [
            Result(coefficient=f"{name} slope", symbol="b", estimate=self.estimate,
                   se=self.se, statistic=self.statistic, pvalue=self.pvalue, ci=self.ci,
                   notes=self.notes, **common),
            Result(coefficient=f"{name} intercept", symbol="a", estimate=self.intercept,
                   se=self.intercept_se, statistic=self.intercept_statistic,
                   pvalue=self.intercept_pvalue, ci=self.intercept_ci, **common),
        ]

    def _extras(self) -> dict[str, Any]:
        return {
            "method": self.method, "x_name": self.x_name, "y_name": self.y_name,
            "slope": self.estimate, "intercept": self.intercept,
            "intercept_se": self.intercept_se, "intercept_ci_low": self.intercept_ci.low,
            "intercept_ci_high": self.intercept_ci.high,
            "intercept_statistic": self.intercept_statistic,
            "intercept_pvalue": self.intercept_pvalue, "error_ratio": self.error_ratio,
            "df": self.df, "linearity_statistic": self.linearity_statistic,
            "linearity_pvalue": self.linearity_pvalue,
        }

    def to_frame(self) -> pd.DataFrame:
        """Two rows, the slope and the intercept, with the columns of every result.

        Examples
        --------
        >>> import irr
        >>> res = irr.passing_bablok([1.0, 2.1, 2.9, 4.2, 5.1, 6.0], [1.2, 2.0, 3.1, 4.0, 5.3, 6.1])
        >>> res.to_frame()[["estimate", "ci_low", "ci_high"]].round(3)
                                  estimate  ci_low  ci_high
        coefficient
        Passing–Bablok slope          1.00   0.727    1.375
        Passing–Bablok intercept      0.15  -1.300    0.968
        """
        rows = []
        for row in self._rows():
            d = row.to_dict()
            rows.append({c: d[c] for c in FRAME_COLUMNS})
        frame = pd.DataFrame(rows, index=[r.coefficient for r in self._rows()])
        frame.index.name = "coefficient"
        return frame

    def summary(self) -> Any:
        """A statsmodels ``Summary``: the slope and intercept rows, the design and the notes.

        Examples
        --------
        >>> import irr
        >>> res = irr.deming([1.0, 2.1, 2.9, 4.2, 5.1], [1.2, 2.0, 3.1, 4.0, 5.3])
        >>> "Deming intercept" in res.summary().as_text()
        True
        """
        info = [("Method:", f"{_NAMES[self.method]} regression"),
                ("x (comparison):", self.x_name), ("y (test):", self.y_name)]
        if self.method == "deming":
            info.append(("Error ratio λ:", f"{self.error_ratio:.4g}"))
            if self.ci.method in BOOTSTRAP_METHODS:
                boot = self.bootstrap
                info.append(("Bootstrap:", f"{boot.n_resamples:,} resamples of subjects"))
        else:
            info.append(("Linearity p:", _p_text(self.linearity_pvalue)))
        return results_summary(self._rows(), title=f"{_NAMES[self.method]} regression",
                               info=info, merge_coincident=False)

    def report(self, style: str = "apa", **options: Any) -> str:
        """One sentence for a paper: the slope and intercept with their intervals and the
        intervals' method; for Passing–Bablok also the cusum test of linearity.

        Parameters
        ----------
        style, **options
            As for :meth:`irr.Result.report` (`digits`).

        Examples
        --------
        >>> import irr
        >>> res = irr.passing_bablok([1.0, 2.1, 2.9, 4.2, 5.1, 6.0], [1.2, 2.0, 3.1, 4.0, 5.3, 6.1],
        ...                          names=("A", "B"))
        >>> print(res.report())  # doctest: +NORMALIZE_WHITESPACE
        Passing–Bablok regression of B on A gave a slope of 1.00, 95% CI [0.73, 1.38], and
        an intercept of 0.15, 95% CI [−1.30, 0.97] (rank-based), n = 6; the cusum test
        found no significant deviation from linearity (p = .964).
        """
        check_choice(style, "style", ("apa", "plain"))
        apa = style == "apa"
        how = interval_name(self.ci.method)
        if self.ci.method == "jackknife":
            how += f" SE, t on {format_df(self.df)} df"
        if self.ci.method in BOOTSTRAP_METHODS and math.isfinite(self.n_resamples):
            how += f", {self.n_resamples:,} resamples"

        def part(value: float, ci: ConfidenceInterval, method: str = "") -> str:
            # one number of decimals for an estimate and its interval: "1.13, [0.98, 1.28]",
            # not "1.13, [0.976, 1.28]"
            shown = [x for x in (value, ci.low, ci.high) if math.isfinite(x)]
            top = max(map(abs, shown), default=0.0)
            # two decimals, or three significant digits of the largest below 1
            decimals = 2 if top >= 1 or top == 0 else 2 - math.floor(math.log10(top))

            def ends(x: float) -> str:
                return format_number(x, decimals) if math.isfinite(x) else "undefined"

            if ci.note == _PB_TWO_SIGNS and math.isfinite(value):  # say why, not "[undefined]"
                return (f"{ends(value)} (no interval, as x lies on both sides of 0"
                        + (f"; the slope's interval is {method})" if method else ")"))
            # the slope's and the intercept's intervals share one method, named once
            text = format_interval(ci.low, ci.high, ci.confidence_level, method, ends=ends,
                                   apa=apa, inside=not apa)
            return f"{ends(value)}, {text}" if apa else f"{ends(value)} ({text})"

        what = f"{_NAMES[self.method]} regression of {self.y_name} on {self.x_name}"
        if self.method == "deming":
            what += f" (error ratio λ = {self.error_ratio:.3g})"
        text = (f"{what} gave a slope of {part(self.estimate, self.ci)}"
                f"{',' if apa else ''} and an intercept of "
                f"{part(self.intercept, self.intercept_ci, how)}, n = {self.n_subjects:,}")
        p = self.linearity_pvalue
        if self.method == "passing_bablok" and math.isfinite(p):
            found = "a" if p < 0.05 else "no"
            shown = format_pvalue(p, apa=apa)
            text += (f"; the cusum test found {found} significant deviation from linearity "
                     f"({shown})")
        return text + "."

    def __repr__(self) -> str:
        return (f"MethodRegressionResult(method={self.method!r}, slope={self.estimate:.4g}, "
                f"slope_ci=[{self.ci.low:.4g}, {self.ci.high:.4g}], "
                f"intercept={self.intercept:.4g}, intercept_ci=[{self.intercept_ci.low:.4g}, "
                f"{self.intercept_ci.high:.4g}], n_subjects={self.n_subjects})")


def _p_text(p: float) -> str:
    if not math.isfinite(p):
        return "undefined"
    return "<.001" if p < 0.001 else f"{p:.2f}" if p >= 0.01 else f"{p:.3f}"


def _t_interval(estimate: float, se: float, level: float, df: float,
                quantile: float | None = None) -> ConfidenceInterval:
    """The t interval ``estimate +- t se`` on `df` degrees of freedom; `quantile`, the t
    quantile of `level` on `df` when the caller has it (:func:`_t_quantile`)."""
    if not (math.isfinite(estimate) and math.isfinite(se) and se > 0 and df > 0):
        return ConfidenceInterval(math.nan, math.nan, level, "jackknife",
                                  "undefined: no jackknife standard error")
    half = (_t_quantile(level, df) if quantile is None else quantile) * se
    return ConfidenceInterval(estimate - half, estimate + half, level, "jackknife")


def _t_quantile(level: float, df: float) -> float:
    """The two-sided t critical value of `level` on `df` degrees of freedom."""
    from scipy.special import stdtrit

    return float(stdtrit(df, 0.5 + level / 2))


def _t_test(estimate: float, null: float, se: float, df: float) -> tuple[float, float]:
    from scipy.special import stdtr

    if not (math.isfinite(estimate) and math.isfinite(se) and se > 0 and df > 0):
        return math.nan, math.nan
    t = (estimate - null) / se
    return t, float(2 * stdtr(df, -abs(t)))


# -- input ---------------------------------------------------------------------------------
def replicate_error_ratio(m: Measurements, first: int = 0, second: int = 1) -> float:
    """Deming's lambda from replicates: the error variance of the first rater's cell means
    over that of the second's (nan when either has no replicate).

    Each rater's within-subject variance is pooled over the subjects both raters measured
    (sum of squared deviations from the cell means over sum of (replicates - 1)); the
    error variance of a cell mean of k replicates is that divided by k, averaged over
    the subjects.

    Examples
    --------
    >>> m = Measurements.from_long([1, 1, 1, 1, 2, 2, 2, 2], ["a", "a", "b", "b"] * 2,
    ...                            [1.0, 1.2, 1.1, 1.1, 2.0, 2.4, 2.2, 2.0])
    >>> round(replicate_error_ratio(m), 4)
    5.0
    """
    count = m.replicates
    both = (count[:, first] > 0) & (count[:, second] > 0)
    means = m.wide()
    deviation = m.value - means[m.subject, m.rater]
    used = both[m.subject]
    variances = []
    for rater in (first, second):
        rows = used & (m.rater == rater)
        ss = float(deviation[rows] @ deviation[rows])
        df = int((count[both, rater] - 1).sum())
        if df == 0:
            return math.nan
        variances.append(ss / df * float(np.mean(1.0 / count[both, rater])))
    if variances[1] == 0:
        return math.inf if variances[0] > 0 else math.nan
    return variances[0] / variances[1]


def paired_measurements(
    x: Any, y: Any, names: Any, first: int, second: int, what: str = "Method regression"
) -> tuple[np.ndarray, np.ndarray, str, str, int, Measurements | None, tuple | None]:
    """The complete pairs ``(x, y)``, the methods' names, pairs dropped, the
    Measurements when given one (measurements of a lazy frame: a ValueError naming
    `what`, which needs their rows), and ``((x_low, x_high), (y_low, y_high))``, values
    that bracket x and y, when the input check found them (None otherwise)."""
    if isinstance(x, LazyMeasurements):
        raise ValueError(x.rows_refused(what))
    if isinstance(x, Measurements):
        if y is not None:
            raise TypeError("Pass `y` only with array `x`; a Measurements holds both methods.")
        m = source = x
        m.check_magnitude("Method-comparison regression")
        a, b = m.paired(first, second)
        both = (m.replicates[:, [first, second]] > 0)
        dropped = int((both.any(axis=1) & ~both.all(axis=1)).sum())
        labels = (m.raters[first], m.raters[second])
        if names is not None:  # checked as for arrays
            labels = Measurements.from_pair([], [], names).raters
    else:
        source = Measurements.from_pair(x, y, names)
        source.check_magnitude("Method-comparison regression")
        a, b = source.paired()
        first, second = 0, 1
        dropped = source.n_subjects - a.size
        m = None
        labels = source.raters
    # a rater's extremes bracket its measurements kept in the pairs
    bounds = (source.known_extremes(first), source.known_extremes(second))
    return a, b, labels[0], labels[1], dropped, m, None if None in bounds else bounds


def _missing_note(dropped: int) -> list[str]:
    return [f"{dropped} subject(s) measured by one method only were left out."] if dropped else []


# -- Deming ----------------------------------------------------------------------------------
def _deming_counts(x: np.ndarray, y: np.ndarray, error_ratio: float,
                   counts: np.ndarray) -> np.ndarray:
    """Slope and intercept of resampled subjects (`counts`: (b, n) multiplicities)."""
    total = counts.sum(axis=1)
    mx, my = counts @ x / total, counts @ y / total
    xc, yc = x - x.mean(), y - y.mean()  # centred once: the sums below stay accurate
    cx, cy = mx - x.mean(), my - y.mean()
    sxx = counts @ (xc * xc) - total * cx * cx
    syy = counts @ (yc * yc) - total * cy * cy
    sxy = counts @ (xc * yc) - total * cx * cy
    slope = deming_slope(sxx, syy, sxy, error_ratio)
    return np.column_stack([slope, my - slope * mx])


def _deming_bootstrap(x: np.ndarray, y: np.ndarray, error_ratio: float,
                      options: InferenceOptions) -> Any:
    return bootstrap_counts(np.ones(x.size), partial(_deming_counts, x, y, error_ratio),
                            n_resamples=options.n_resamples, rng=options.rng,
                            progress=options.progress)


#: The options of a Deming fit given none: every default, and `ci` None, the jackknife
#: interval (InferenceOptions' own default `ci`, 'wald', is not one of Deming's).
DEMING_OPTIONS = InferenceOptions(ci=None)


def deming(
    x: Any,
    y: Any = None,
    options: InferenceOptions = DEMING_OPTIONS,
    *,
    error_ratio: float | None = None,
    names: Any = None,
    first: int = 0,
    second: int = 1,
) -> MethodRegressionResult:
    """Deming regression of y (test method) on x (comparison method); see :func:`irr.deming`
    (`options.ci` None, as in the default :data:`DEMING_OPTIONS`, is the jackknife
    interval).

    Examples
    --------
    >>> res = deming([7.2, 8.1, 9.5, 10.4, 12.0], [7.0, 8.4, 9.9, 10.2, 12.6])
    >>> res.ci.method, round(res.slope, 3)
    ('jackknife', 1.113)
    """
    confidence_level = options.confidence_level
    ci = check_choice(options.ci or "jackknife", "ci", ("jackknife", *BOOTSTRAP_METHODS))
    a, b, x_name, y_name, dropped, m, bounds = paired_measurements(
        x, y, names, first, second, "Deming regression")
    notes = []
    if error_ratio is None:
        ratio = replicate_error_ratio(m, first, second) if m is not None and m.has_replicates \
            else math.nan
        if math.isfinite(ratio) and ratio > 0:
            notes.append(f"Error ratio λ = var(error of {x_name}) / var(error of {y_name}) = "
                         f"{ratio:.4g}, estimated from the replicates (of the subjects' mean "
                         "measurements, which the regression uses).")
        else:
            ratio = 1.0
            notes.append("Error ratio λ = 1 (equal error variances: orthogonal regression)"
                         + (", as the replicates could not estimate it." if m is not None
                            and m.has_replicates else "."))
    else:
        if isinstance(error_ratio, bool) or not isinstance(error_ratio, (int, float, np.number)) \
                or not (math.isfinite(error_ratio) and error_ratio > 0):
            raise ValueError("`error_ratio` must be a positive finite number (var(error of x) "
                             f"/ var(error of y)); got {show_value(error_ratio)}.")
        ratio = float(error_ratio)
        notes.append(f"Error ratio λ = var(error of {x_name}) / var(error of {y_name}) = "
                     f"{ratio:.4g}, as given.")
    n = a.size
    if n < 3:
        raise ValueError(f"Deming regression needs at least 3 complete pairs; got {n}.")
    slope, intercept, jack_s, se_s, se_i = deming_fit(a, b, ratio, bounds)
    if math.isnan(slope):
        warnings.warn("The Deming slope is undefined (nan): the covariance of x and y is 0, "
                      "so no line direction is preferred.", DegenerateDataWarning, stacklevel=3)
    df = float(n - 2)
    t_s, p_s = _t_test(slope, 1.0, se_s, df)
    t_i, p_i = _t_test(intercept, 0.0, se_i, df)
    notes.append("Standard errors: leave-one-out jackknife (Linnet 1993); t intervals on "
                 f"{n - 2} df; t tests of slope = 1 and intercept = 0.")
    notes.extend(_missing_note(dropped))
    source = partial(_deming_bootstrap, a, b, ratio, options)
    t_crit = _t_quantile(confidence_level, df)  # one quantile for both intervals
    result = MethodRegressionResult(
        coefficient="Deming slope", symbol="b", estimate=slope, se=se_s, statistic=t_s,
        pvalue=p_s, ci=_t_interval(slope, se_s, confidence_level, df, t_crit), n_subjects=n,
        n_missing=dropped, n_incomplete=dropped, raters=(x_name, y_name), notes=tuple(notes),
        method="deming", intercept=intercept, intercept_se=se_i,
        intercept_ci=_t_interval(intercept, se_i, confidence_level, df, t_crit),
        intercept_statistic=t_i, intercept_pvalue=p_i, x_name=x_name, y_name=y_name,
        error_ratio=ratio, df=df, x=a, y=b, jackknife_slopes=jack_s,
        _bootstrap_source=source,
    )
    result = result.with_bootstrap(source, None)  # built with it: kept, not copied
    if ci in BOOTSTRAP_METHODS:
        from dataclasses import replace

        result = replace(result, ci=result.conf_int(confidence_level, ci),
                         intercept_ci=result.conf_int(confidence_level, ci,
                                                      parameter="intercept"))
    return result


# -- Passing–Bablok --------------------------------------------------------------------------
def _pb_fit(x: np.ndarray, y: np.ndarray, level: float) -> tuple[float, tuple[float, ...]]:
    """Kendall's tau, and the slope, its limits, intercept and its limits. For a negative
    relation (tau < 0), Bablok et al. (1988)'s mirror image of the 1983 procedure: the
    estimator of (x, -y), negated (slopes of exactly +1 left out, the median shifted down
    by the slopes above +1)."""
    tau, (slope, low, high, _shift, _) = passing_bablok_oriented(x, y, normal_quantile(level))
    if tau < 0:
        slope, low, high = -slope, -high, -low
    with np.errstate(invalid="ignore"):
        intercept = float(np.median(y - slope * x)) if math.isfinite(slope) else math.nan
        # the intercepts at the slope's limits (Passing & Bablok 1983), in value order:
        # each y_i - b x_i is monotone in b, all the same way when x keeps one sign, so
        # their median is too and these limits bracket the intercept; with x on both sides
        # of 0 the median is not monotone in b and they need not (nan: _pb_intervals)
        # (decreasing in b for x >= 0, increasing for x <= 0)
        ends = [float(np.median(y - b * x)) if math.isfinite(b) else math.nan
                for b in ((high, low) if np.max(x) > 0 else (low, high))]
        if np.min(x) < 0 < np.max(x):
            ends = [math.nan, math.nan]
    return tau, (slope, low, high, intercept, *ends)


#: Why Passing–Bablok's intercept interval is nan when x takes both signs.
_PB_TWO_SIGNS = ("undefined: x takes values on both sides of 0, where the median of y - b x "
                 "is not monotone in the slope b, so the intercepts at the slope's limits "
                 "(Passing & Bablok 1983) need not bracket the intercept")


def _pb_intervals(fit: tuple[float, ...],
                  level: float) -> tuple[ConfidenceInterval, ConfidenceInterval]:
    _, low, high, intercept, a_low, a_high = fit
    note = "" if math.isfinite(low) and math.isfinite(high) else (
        "undefined: too few points for a rank-based limit at this level")
    two_signs = not note and math.isfinite(intercept) and math.isnan(a_low)
    return (ConfidenceInterval(low, high, level, "rank", note),
            ConfidenceInterval(a_low, a_high, level, "rank", _PB_TWO_SIGNS if two_signs
                               else note))


def passing_bablok(
    x: Any,
    y: Any = None,
    options: InferenceOptions = DEFAULT_OPTIONS,
    *,
    names: Any = None,
    first: int = 0,
    second: int = 1,
) -> MethodRegressionResult:
    """Passing–Bablok regression of y on x; see :func:`irr.passing_bablok`."""
    confidence_level = options.confidence_level
    a, b, x_name, y_name, dropped, _, _ = paired_measurements(
        x, y, names, first, second, "Passing–Bablok regression")
    n = a.size
    if n < 3:
        raise ValueError(f"Passing–Bablok regression needs at least 3 complete pairs; got {n}.")
    tau, fit = _pb_fit(a, b, confidence_level)
    if not tau == tau:
        raise ValueError(
            "Passing–Bablok regression is undefined when one method's measurements are all "
            "equal (Kendall's tau between the methods is undefined).")
    negative = tau < 0
    slope, intercept = fit[0], fit[3]
    if negative:
        notes = [f"Negative relation (Kendall's tau = {tau:.3f}): Bablok et al. (1988)'s "
                 "procedure for a negative slope, the mirror image of Passing & Bablok "
                 "(1983): slope the shifted median of the pairwise slopes (0/0 pairs and "
                 "slopes of +1 left out, vertical pairs -inf, shifted down by the slopes "
                 "above +1), intercept the median of y - b x; rank-based intervals "
                 "(intercept limits from the slope limits)."]
    else:
        notes = ["Passing & Bablok (1983): slope the shifted median of the pairwise slopes "
                 "(0/0 pairs and slopes of -1 left out, vertical pairs +inf), intercept the "
                 "median of y - b x; rank-based intervals (intercept limits from the slope "
                 "limits)."]
    slope_ci, intercept_ci = _pb_intervals(fit, confidence_level)
    if slope_ci.note:
        warnings.warn(f"The {confidence_level:.0%} Passing–Bablok interval is undefined with "
                      f"{n} pairs: a limit's rank falls outside the pairwise slopes.",
                      DegenerateDataWarning, stacklevel=3)
    elif intercept_ci.note:
        warnings.warn(f"The {confidence_level:.0%} interval of the Passing–Bablok intercept is "
                      f"{intercept_ci.note} (nan). The slope and its interval stand; shift "
                      "the measurements to one side of 0 for an interval of the intercept "
                      "there.", DegenerateDataWarning, stacklevel=3)
    if tau == 0:
        notes.append("Kendall's tau is 0: the methods are not related, and the slope "
                     "(computed as for a positive relation) describes no relation.")
    # a negative relation: the test of the mirror image (x, -y), whose points below its
    # line are the points above this one
    sign = -1.0 if negative else 1.0
    statistic, n_below, _ = cusum_linearity(a, sign * b, sign * slope, sign * intercept)
    if math.isfinite(statistic):
        from scipy.special import kolmogorov

        p_lin = float(kolmogorov(statistic))
        side = "above" if negative else "below"
        notes.append(f"Cusum linearity test (Passing & Bablok 1983): max |cusum| / sqrt(L + 1) "
                     f"= {statistic:.3f} with L = {n_below} points {side} the line, "
                     f"p = {_p_text(p_lin)} (Kolmogorov).")
    else:
        p_lin = math.nan
        notes.append("Cusum linearity test undefined: all points on one side of the line.")
    notes.extend(_missing_note(dropped))
    return MethodRegressionResult(
        coefficient="Passing–Bablok slope", symbol="b", estimate=slope, se=math.nan,
        ci=slope_ci, n_subjects=n, n_missing=dropped, n_incomplete=dropped,
        raters=(x_name, y_name), notes=tuple(notes), method="passing_bablok",
        intercept=intercept, intercept_se=math.nan, intercept_ci=intercept_ci,
        x_name=x_name, y_name=y_name, df=float(n - 2), linearity_statistic=statistic,
        linearity_pvalue=p_lin, x=a, y=b,
    )
