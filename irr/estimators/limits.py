"""Bland-Altman limits of agreement between two methods (or raters) of measurement.

The bias (mean difference, first method minus second) with its t interval, the limits
``bias -+ z * SD`` with exact (non-central t) or approximate intervals, proportional bias
(the differences regressed on the means), regression-based limits when the spread
depends on the magnitude (Bland & Altman, 1999, section 3.2), differences in percent or
as ratios (log scale), replicated measurements (Bland & Altman, 2007; MOVER intervals,
Zou, 2011) and nonparametric limits (percentiles with order-statistic intervals).
"""

from __future__ import annotations

import math
import warnings
from dataclasses import dataclass, field
from functools import partial
from typing import Any, ClassVar

import numpy as np
import pandas as pd

from irr._frames import LazyMeasurements
from irr._measurements import CHUNK, Measurements
from irr._moments import PairMoments
from irr._numbers import (
    MINUS,
    format_df,
    format_interval,
    format_number,
    format_pvalue,
    format_significant,
)
from irr._validation import (
    DegenerateDataWarning,
    check_choice,
    check_confidence_level,
    check_open_unit,
    check_report_style,
)
from irr.coefficients.limits import (
    Line,
    approximate_limit_se,
    exact_limit_factors,
    fit_line,
    limit_mover,
    order_statistic_ranks,
    variance_sum_interval,
)
from irr.coefficients.variance_components import replicate_squares
from irr.inference.options import DEFAULT_OPTIONS, InferenceOptions
from irr.results import FRAME_COLUMNS, ConfidenceInterval, Result, normal_quantile
from irr.summary import results_summary
from irr.vocabulary import interval_name

__all__ = ["DESIGNS", "LIMIT_CI_METHODS", "METHODS", "SCALES", "LimitsOfAgreementResult",
           "limits_of_agreement", "limits_of_moments"]

#: How the differences are formed: ``x - y``, ``100 (x - y) / mean`` or ``x / y`` (log scale).
SCALES = ("difference", "percent", "ratio")
#: How the limits are estimated.
METHODS = ("parametric", "regression", "nonparametric")
#: The intervals of the limits: exact (non-central t), Bland & Altman's approximation,
#: MOVER (replicates), order statistics (nonparametric).
LIMIT_CI_METHODS = ("exact", "approximate", "mover", "order statistics")
#: Replicated measurements: the true value constant within a subject (replicates not
#: paired) or varying (replicates made in pairs, paired by their order).
DESIGNS = ("constant", "varying")

#: sqrt(pi / 2): the mean absolute value of a normal variable is sigma * sqrt(2 / pi).
_ROOT_HALF_PI = math.sqrt(math.pi / 2)


def _t_interval(estimate: float, se: float, df: float, level: float) -> ConfidenceInterval:
    from scipy.special import stdtrit

    if not (math.isfinite(estimate) and math.isfinite(se) and df > 0) or se <= 0:
        return ConfidenceInterval(math.nan, math.nan, level, "t")
    half = float(stdtrit(df, 0.5 + level / 2)) * se
    return ConfidenceInterval(estimate - half, estimate + half, level, "t")


def _t_test(estimate: float, se: float, df: float) -> tuple[float, float]:
    from scipy.special import stdtr

    if not (math.isfinite(estimate) and math.isfinite(se) and se > 0 and df > 0):
        return math.nan, math.nan
    t = estimate / se
    return t, float(min(1.0, 2 * stdtr(df, -abs(t))))


@dataclass(frozen=True, eq=False, kw_only=True, repr=False)
class LimitsOfAgreementResult(Result):
    """Bland-Altman limits of agreement of two methods (or raters).

    ``estimate`` is the bias: the mean difference ``first - second`` (``difference`` in
    words, e.g. ``'wright - mini'``), in percent of the pair's mean for
    ``scale='percent'``, or the geometric mean ratio ``first / second`` for
    ``scale='ratio'``; for ``method='nonparametric'`` the median difference. ``se``,
    ``statistic`` and ``pvalue`` are its standard error (on the log scale for ratios:
    ``se`` is then nan and ``log_se`` holds it) and the t test of no bias on ``df``
    degrees of freedom; ``ci`` its t interval.

    ``lower`` and ``upper`` are the limits of agreement ``bias -+ multiplier * sd``
    (covering ``coverage`` of the differences), with intervals ``lower_ci`` and
    ``upper_ci`` (method ``limit_ci_method``). ``slope``, ``slope_ci``, ``slope_pvalue``
    are the proportional bias: the slope of the differences regressed on the means.
    With ``method='regression'`` the bias is ``bias_intercept + slope * mean`` and the
    limits ``bias -+ multiplier * sqrt(pi / 2) * (sd_intercept + sd_slope * mean)``
    (:meth:`limits_at`); ``lower`` and ``upper`` are then nan.

    :meth:`to_frame` has one row per quantity; :meth:`limit_intervals` gives the
    intervals of the limits at another level or by another method. ``means`` and
    ``differences`` are the pairs' means and differences (the Bland-Altman plot's axes),
    made on first use from the measurements (``pairs``).

    Examples
    --------
    >>> import irr
    >>> df = irr.datasets.load("pef")
    >>> res = irr.limits_of_agreement(df["wright_1"], df["mini_1"], multiplier=2)
    >>> round(res.estimate, 1), round(res.sd, 1), round(res.lower, 1), round(res.upper, 1)
    (-2.1, 38.8, -79.6, 75.4)
    """

    scale: str | None = None
    bounds: tuple[float, float] = (-math.inf, math.inf)
    statistic_name: str = "t"

    difference: str
    measure: str
    method: str
    design: str
    df: float
    sd: float
    multiplier: float
    coverage: float
    lower: float
    upper: float
    lower_ci: ConfidenceInterval
    upper_ci: ConfidenceInterval
    limit_ci_method: str
    slope: float
    slope_se: float
    slope_ci: ConfidenceInterval
    slope_pvalue: float
    bias_intercept: float = math.nan
    sd_intercept: float = math.nan
    sd_slope: float = math.nan
    log_se: float = math.nan
    units: str = ""
    variance_components: dict = field(default_factory=dict)
    pairs: Any = field(default=None, repr=False)

    interval_methods: ClassVar[tuple[str, ...]] = ("t",)

    @property
    def means(self) -> np.ndarray:
        """The mean of each pair (or subject) the limits were computed from: the x axis of
        the Bland-Altman plot (made on first use)."""
        return np.empty(0) if self.pairs is None else self.pairs.means

    @property
    def differences(self) -> np.ndarray:
        """The difference of each pair on the analysis scale (log ratios for
        ``scale='ratio'``): the y axis of the Bland-Altman plot (made on first use)."""
        return np.empty(0) if self.pairs is None else self.pairs.differences

    # -- inference -----------------------------------------------------------------------
    def _interval(self, level: float, method: str) -> ConfidenceInterval:
        if self.method == "nonparametric":
            return _back(_median_interval(self.differences, level), self.measure)
        se = self.log_se if self.measure == "ratio" else self.se
        centre = math.log(self.estimate) if self.measure == "ratio" else self.estimate
        interval = _t_interval(centre, se, self.df, level)
        return _back(interval, self.measure)

    def limit_intervals(
        self, confidence_level: float | None = None, method: str | None = None
    ) -> tuple[ConfidenceInterval, ConfidenceInterval]:
        """The intervals of the lower and upper limits at another level or by another
        method (``'exact'`` or ``'approximate'`` for the parametric limits of single
        measurements).

        Examples
        --------
        >>> import irr
        >>> df = irr.datasets.load("pef")
        >>> res = irr.limits_of_agreement(df["wright_1"], df["mini_1"], multiplier=2)
        >>> low, high = res.limit_intervals(method="approximate")
        >>> [round(v, 1) for v in low], [round(v, 1) for v in high]
        ([-114.2, -45.1], [40.9, 109.9])
        """
        level = check_confidence_level(
            self.ci.confidence_level if confidence_level is None else confidence_level)
        method = self.limit_ci_method if method is None else method
        allowed = (("exact", "approximate") if self.method == "parametric"
                   and self.design == "single" else (self.limit_ci_method,))
        check_choice(method, "method", allowed)
        if self.method == "nonparametric":
            low, high = _percentile_intervals(self.differences, self.coverage, level)
            return _back(low, self.measure), _back(high, self.measure)
        if self.design != "single":
            return _replicate_intervals(self.variance_components, self.multiplier, level,
                                        self.measure)
        centre = math.log(self.estimate) if self.measure == "ratio" else self.estimate
        return _limit_intervals(centre, self.sd, self.n_subjects, self.multiplier, level,
                                method, self.measure)

    def limits_at(self, mean: Any) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        """``(lower, bias, upper)`` at the given mean(s) of the two methods: the
        regression lines of ``method='regression'``, constants otherwise.

        Examples
        --------
        >>> import irr
        >>> df = irr.datasets.load("pef")
        >>> res = irr.limits_of_agreement(df["wright_1"], df["mini_1"], method="regression")
        >>> lower, bias, upper = res.limits_at([300.0, 600.0])
        >>> bias.round(1).tolist(), upper.round(1).tolist()
        ([-6.5, 2.1], [96.9, 42.4])
        """
        a = np.asarray(mean, dtype=float)
        if self.method != "regression":
            ones = np.ones_like(a)
            return self.lower * ones, self.estimate * ones, self.upper * ones
        bias = self.bias_intercept + self.slope * a
        half = self.multiplier * _ROOT_HALF_PI * (self.sd_intercept + self.sd_slope * a)
        return bias - half, bias, bias + half

    # -- tidy output ---------------------------------------------------------------------
    own_sentence: ClassVar[bool] = True

    def parts(self) -> list[Result]:
        """:meth:`rows`: the rows of tables."""
        return self.rows()

    def rows(self) -> list[Result]:
        """The quantities as results, one per row of :meth:`to_frame` and the summary:
        the bias, the two limits and the proportional bias (regression: the two lines'
        coefficients)."""
        common = {"n_subjects": self.n_subjects, "n_missing": self.n_missing,
                  "n_incomplete": self.n_incomplete,
                  "raters": self.raters, "scale": None, "bounds": (-math.inf, math.inf),
                  "statistic_name": "t"}
        level = self.ci.confidence_level
        what = {"difference": "Bias", "percent": "Bias in %", "ratio": "Ratio"}[self.measure]
        if self.method == "nonparametric":
            what = "Median " + ("ratio" if self.measure == "ratio" else "difference")
        pct = f"{100 * self.coverage:g}%"
        none = ConfidenceInterval(math.nan, math.nan, level, "none")
        # the t tests' df, which tables print with them: t(n - 1) for the bias, t(n - 2)
        # for a line's coefficients
        line = {**common, "design_df": float(self.n_subjects - 2)}
        out = [Result(coefficient=f"{what} ({self.difference})", symbol="bias",
                      estimate=self.estimate, se=self.se, statistic=self.statistic,
                      pvalue=self.pvalue, ci=self.ci, **common, design_df=float(self.df))]
        if self.method == "regression":
            b0_se = self.variance_components.get("bias_intercept_se", math.nan)
            t0, p0 = _t_test(self.bias_intercept, b0_se, self.n_subjects - 2)
            half = self.multiplier * _ROOT_HALF_PI
            out += [
                Result(coefficient="Bias line: intercept", symbol="b0",
                       estimate=self.bias_intercept, se=b0_se, statistic=t0, pvalue=p0,
                       ci=_t_interval(self.bias_intercept, b0_se, self.n_subjects - 2,
                                      level), **line),
                Result(coefficient="Bias line: slope", symbol="b1", estimate=self.slope,
                       se=self.slope_se, statistic=_t_test(self.slope, self.slope_se,
                                                           self.n_subjects - 2)[0],
                       pvalue=self.slope_pvalue, ci=self.slope_ci, **line),
                Result(coefficient=f"Half-width ({pct}): intercept", symbol="h0",
                       estimate=half * self.sd_intercept, se=math.nan, ci=none, **common),
                Result(coefficient=f"Half-width ({pct}): slope", symbol="h1",
                       estimate=half * self.sd_slope, se=math.nan, ci=none, **common),
            ]
            return out
        out += [
            Result(coefficient=f"Lower limit ({pct})", symbol="LoA-", estimate=self.lower,
                   se=math.nan, ci=self.lower_ci, **common),
            Result(coefficient=f"Upper limit ({pct})", symbol="LoA+", estimate=self.upper,
                   se=math.nan, ci=self.upper_ci, **common),
        ]
        if self.measure != "ratio" and self.design == "single":
            out.append(Result(coefficient="Proportional bias (slope)", symbol="b1",
                              estimate=self.slope, se=self.slope_se,
                              statistic=_t_test(self.slope, self.slope_se,
                                                self.n_subjects - 2)[0],
                              pvalue=self.slope_pvalue, ci=self.slope_ci, **line))
        return out

    def to_frame(self) -> pd.DataFrame:
        """One row per quantity (bias, lower and upper limit, proportional bias; the
        lines' coefficients for regression-based limits), with
        :data:`irr.results.FRAME_COLUMNS`.

        Examples
        --------
        >>> import irr
        >>> df = irr.datasets.load("pef")
        >>> res = irr.limits_of_agreement(df["wright_1"], df["mini_1"],
        ...                               names=["wright", "mini"])
        >>> res.to_frame()[["estimate", "ci_low", "ci_high"]].round(1)
                                   estimate  ci_low  ci_high
        coefficient
        Bias (wright - mini)           -2.1   -22.0     17.8
        Lower limit (95%)             -78.1  -124.2    -53.1
        Upper limit (95%)              73.9    48.9    119.9
        Proportional bias (slope)       0.0    -0.2      0.2
        """
        frames = [r.to_frame() for r in self.rows()]
        frame = pd.concat(frames)
        return frame[list(FRAME_COLUMNS)]

    def _extras(self) -> dict[str, Any]:
        return {
            "difference": self.difference, "measure": self.measure, "method": self.method,
            "design": self.design, "df": self.df, "sd": self.sd,
            "multiplier": self.multiplier, "coverage": self.coverage,
            "lower": self.lower, "lower_ci_low": self.lower_ci.low,
            "lower_ci_high": self.lower_ci.high, "upper": self.upper,
            "upper_ci_low": self.upper_ci.low, "upper_ci_high": self.upper_ci.high,
            "limit_ci_method": self.limit_ci_method, "slope": self.slope,
            "slope_se": self.slope_se, "slope_pvalue": self.slope_pvalue,
            "bias_intercept": self.bias_intercept, "sd_intercept": self.sd_intercept,
            "sd_slope": self.sd_slope, "units": self.units,
        }

    def _facts(self) -> list[tuple[str, str]]:
        z = f"{self.multiplier:.4g}"
        facts = [("Difference:", self.difference),
                 ("Scale:", {"difference": "difference", "percent": "% of the mean",
                             "ratio": "ratio (log scale)"}[self.measure])]
        if self.units:
            facts.append(("Units:", self.units))
        if self.method == "nonparametric":
            facts.append(("Limits:", f"percentiles ({100 * self.coverage:g}%)"))
        else:
            sd = "SD (log)" if self.measure == "ratio" else "SD"
            facts.append(("Limits:", f"bias \u00b1 {z} {sd}"))
        if self.method != "regression":
            facts.append(("Limits CI:", self.limit_ci_method))
        if self.design != "single":
            facts.append(("Replicates:", f"true value {self.design}"))
        return facts

    def _notes(self) -> list[str]:
        notes = list(self.notes)
        if self.method == "parametric":
            sd = (f"SD of the log ratios {self.sd:.4g}" if self.measure == "ratio"
                  else f"SD of the differences {self.sd:.4g}")
            notes.insert(0, f"{sd}; limits = bias \u00b1 {self.multiplier:.6g} SD "
                            f"(coverage {100 * self.coverage:g}%); t intervals on "
                            f"{format_df(self.df)} df for the bias.")
        return notes

    def summary(self) -> Any:
        """A statsmodels ``Summary``: the bias, the limits and the proportional bias,
        with their intervals, and notes on how they were computed.

        Examples
        --------
        >>> import irr
        >>> df = irr.datasets.load("pef")
        >>> res = irr.limits_of_agreement(df["wright_1"], df["mini_1"],
        ...                               names=["wright", "mini"], units="l/min")
        >>> text = res.summary().as_text()
        >>> print(text.splitlines()[0].strip())
        Bland-Altman limits of agreement
        >>> [line.split()[:4] for line in text.splitlines() if "limit (95%)" in line]
        [['Lower', 'limit', '(95%)', '-78.0959'], ['Upper', 'limit', '(95%)', '73.8606']]
        """
        title = "Bland-Altman limits of agreement"
        rows = self.rows()
        plain = [r for r in rows]
        # the per-result notes are the whole result's: printed once
        return results_summary(plain, title=title, info=self._facts(), notes=self._notes(),
                               merge_coincident=False)

    def report(self, style: str = "apa", *, digits: int | None = None, **options: Any) -> str:
        """One sentence for a paper: the bias with its interval and the limits with
        theirs, naming the difference, the coverage, the multiplier and the methods.

        `style` ``'apa'`` (``95% CI [a, b]``) or ``'plain'`` (``95% CI a to b``), both
        with true minus signs (:mod:`irr._numbers`); `digits`, the decimals, default three
        significant digits of the SD (at least one decimal; three for ratios).

        Examples
        --------
        >>> import irr
        >>> df = irr.datasets.load("pef")
        >>> res = irr.limits_of_agreement(df["wright_1"], df["mini_1"],
        ...                               names=["wright", "mini"], units="l/min")
        >>> print(res.report())  # doctest: +NORMALIZE_WHITESPACE
        The mean difference wright − mini was −2.1 l/min, 95% CI [−22.0, 17.8] (t
        distribution); the 95% limits of agreement (bias ± 1.96 SD) were −78.1 (95% CI
        [−124.2, −53.1]) and 73.9 l/min (95% CI [48.9, 119.9]; exact, non-central t),
        n = 17.
        """
        check_report_style(style, options)
        if digits is None:  # three significant digits of the SD, at least one decimal
            spread = self.sd if math.isfinite(self.sd) and self.sd > 0 else 1.0
            digits = max(3 if self.measure == "ratio" else 1,
                         2 - math.floor(math.log10(spread)))
        unit = f" {self.units}" if self.units and self.measure == "difference" else ""
        if self.measure == "percent":
            unit = "%"
        diff = self.difference.replace(" - ", " \u2212 ").replace(" / ", " / ")

        def num(v: float) -> str:  # undefined: an interval's end order statistics cannot give
            return format_number(v, digits) if math.isfinite(v) else "undefined"

        def ci(interval: ConfidenceInterval, how: str = "") -> str:
            # both limits' intervals share one method, named once after the upper's
            return format_interval(interval.low, interval.high, interval.confidence_level,
                                   how, ends=num, apa=style == "apa")

        n = f"n = {self.n_subjects:,}"
        if self.n_missing:
            n += f" ({self.n_missing:,} left out for a missing measurement)"
        what = {"difference": "mean difference", "percent": "mean percentage difference",
                "ratio": "geometric mean ratio"}[self.measure]
        if self.method == "nonparametric":
            what = "median " + ("ratio" if self.measure == "ratio" else "difference")
        bias_how = interval_name("t") if self.ci.method == "t" else "order statistics"
        head = f"The {what} {diff} was {num(self.estimate)}{unit}, {ci(self.ci, bias_how)}"
        pct = f"{100 * self.coverage:g}%"
        if self.method == "regression":
            half = self.multiplier * _ROOT_HALF_PI
            p_text = format_pvalue(self.slope_pvalue, apa=style == "apa")
            return (f"{head}; the regression-based {pct} limits of agreement (Bland & "
                    f"Altman, 1999) were {_line(self.bias_intercept, self.slope)} \u00b1 "
                    f"{half:.3g} \u00d7 ({_line(self.sd_intercept, self.sd_slope)}), where A "
                    f"is the mean of the two methods (slope of the differences on the means "
                    f"{format_significant(self.slope, 3)}, {p_text}), {n}.")
        if not (math.isfinite(self.lower) and math.isfinite(self.upper)):
            why = next((note.split(":")[0] for note in self.notes if "nan" in note), "")
            return (f"{head}; the {pct} limits of agreement could not be estimated"
                    f"{f' ({why[0].lower()}{why[1:]})' if why else ''}, {n}.")
        how = {"exact": "exact, non-central t", "approximate": "Bland & Altman's approximation",
               "mover": "MOVER", "order statistics": "order statistics"}[self.limit_ci_method]
        rule = ("percentiles" if self.method == "nonparametric"
                else f"exp(mean \u00b1 {self.multiplier:.3g} SD of the log ratios)"
                if self.measure == "ratio" else f"bias \u00b1 {self.multiplier:.3g} SD")
        single = "" if self.design == "single" else " of single readings"  # replicates
        return (f"{head}; the {pct} limits of agreement{single} ({rule}) were "
                f"{num(self.lower)} "
                f"({ci(self.lower_ci)}) and {num(self.upper)}{unit} ({ci(self.upper_ci)}; "
                f"{how}), {n}.")

    def __repr__(self) -> str:
        return (f"{type(self).__name__}(difference={self.difference!r}, "
                f"bias={self.estimate:.4g}, lower={self.lower:.4g}, upper={self.upper:.4g}, "
                f"coverage={self.coverage:g}, method={self.method!r}, "
                f"n_subjects={self.n_subjects})")


def _line(intercept: float, slope: float) -> str:
    """``a + b A`` with the sign of b written out: ``-15.07 + 0.02869 A``."""
    sign = MINUS if slope < 0 else "+"
    return f"{format_significant(intercept, 4)} {sign} {format_significant(abs(slope), 4)} A"


def _back(interval: ConfidenceInterval, measure: str) -> ConfidenceInterval:
    """An interval on the log scale as ratios (others unchanged)."""
    if measure != "ratio":
        return interval
    return ConfidenceInterval(math.exp(interval.low), math.exp(interval.high),
                              interval.confidence_level, interval.method, interval.note)


def _limit_intervals(
    bias: float, sd: float, n: int, z: float, level: float, method: str, measure: str,
) -> tuple[ConfidenceInterval, ConfidenceInterval]:
    """Intervals of ``bias - z sd`` and ``bias + z sd`` from n single differences."""
    from scipy.special import stdtrit

    if n < 2 or not math.isfinite(sd) or sd <= 0:
        nan = ConfidenceInterval(math.nan, math.nan, level, method)
        return nan, nan
    if method == "exact":
        k_low, k_high = exact_limit_factors(n, z, level)
        lower = (bias - k_high * sd, bias - k_low * sd)
        upper = (bias + k_low * sd, bias + k_high * sd)
    else:
        half = float(stdtrit(n - 1, 0.5 + level / 2)) * approximate_limit_se(sd, n, z)
        lower = (bias - z * sd - half, bias - z * sd + half)
        upper = (bias + z * sd - half, bias + z * sd + half)
    return (_back(ConfidenceInterval(*lower, level, method), measure),
            _back(ConfidenceInterval(*upper, level, method), measure))


def _replicate_intervals(
    parts: dict, z: float, level: float, measure: str,
) -> tuple[ConfidenceInterval, ConfidenceInterval]:
    """MOVER intervals of the limits from the variance components of replicates."""
    bias_ci = _t_interval(parts["bias"], parts["bias_se"], parts["bias_df"], level)
    variance, v_low, v_high = variance_sum_interval(
        parts["coefficients"], parts["mean_squares"], parts["dfs"], level)
    if not (math.isfinite(bias_ci.low) and variance > 0):
        nan = ConfidenceInterval(math.nan, math.nan, level, "mover")
        return nan, nan
    (ll, lh), (ul, uh) = limit_mover(parts["bias"], tuple(bias_ci), parts["variance"],
                                     (min(v_low, parts["variance"]),
                                      max(v_high, parts["variance"])), z)
    return (_back(ConfidenceInterval(ll, lh, level, "mover"), measure),
            _back(ConfidenceInterval(ul, uh, level, "mover"), measure))


def _percentiles(d: np.ndarray, coverage: float) -> tuple[float, float]:
    """The (1 -+ coverage) / 2 percentiles of `d` at rank (n + 1) p (nan outside 1..n)."""
    n = d.size
    out = []
    for p in ((1 - coverage) / 2, (1 + coverage) / 2):
        rank = (n + 1) * p
        if rank < 1 or rank > n:
            out.append(math.nan)
        else:
            out.append(float(np.quantile(d, p, method="weibull")))
    return out[0], out[1]


def _order_interval(sorted_d: np.ndarray, p: float, level: float) -> ConfidenceInterval:
    n = sorted_d.size
    r, s, coverage = order_statistic_ranks(n, p, level)
    low = float(sorted_d[r - 1]) if r >= 1 else math.nan
    high = float(sorted_d[s - 1]) if s <= n else math.nan
    ends = [f"d({r})" if r >= 1 else "unbounded below", f"d({s})" if s <= n else "unbounded above"]
    note = (f"{ends[0]} to {ends[1]} of the {n} sorted differences d(1) .. d({n}), exact "
            f"coverage {coverage:.4f}")
    if r < 1 or s > n:
        note += " (too few pairs to bound it with order statistics: nan)"
    return ConfidenceInterval(low, high, level, "order statistics", note)


def _percentile_intervals(
    d: np.ndarray, coverage: float, level: float,
) -> tuple[ConfidenceInterval, ConfidenceInterval]:
    ordered = np.sort(d)
    return (_order_interval(ordered, (1 - coverage) / 2, level),
            _order_interval(ordered, (1 + coverage) / 2, level))


def _median_interval(d: np.ndarray, level: float) -> ConfidenceInterval:
    return _order_interval(np.sort(d), 0.5, level)


# -- the estimator ---------------------------------------------------------------------------

#: The default coverage of the limits (95%); another coverage beside a multiplier is refused.
_DEFAULT_COVERAGE = 0.95


def _multiplier(coverage: Any, multiplier: Any) -> tuple[float, float]:
    """The multiplier z of the SD and the coverage it gives under normality."""
    from scipy.special import ndtr

    if multiplier is None:
        coverage = check_open_unit(_DEFAULT_COVERAGE if coverage is None else coverage,
                                   "coverage")
        return normal_quantile(coverage), coverage
    if coverage is not None:
        raise ValueError(f"give `coverage` or `multiplier`, not both: the multiplier sets the "
                         f"coverage (got coverage={coverage!r}, multiplier={multiplier!r}).")
    if isinstance(multiplier, bool) or not isinstance(multiplier, (int, float, np.number)):
        raise TypeError(f"`multiplier` must be a positive number; got {multiplier!r}.")
    z = float(multiplier)
    if not (math.isfinite(z) and z > 0):
        raise ValueError(f"`multiplier` must be a positive number; got {multiplier!r}.")
    return z, float(2 * ndtr(z) - 1)


def _transform(x: np.ndarray, y: np.ndarray, measure: str, raters: tuple[str, str]
               ) -> tuple[np.ndarray, np.ndarray]:
    """The means of the pairs and their differences on the analysis scale."""
    mean = (x + y) / 2
    if measure == "difference":
        return mean, x - y
    if measure == "percent":
        if np.any(mean == 0):
            raise ValueError("`scale='percent'` divides by the mean of each pair; some pairs "
                             f"of {raters[0]} and {raters[1]} have mean 0.")
        return mean, 100 * (x - y) / mean
    bad = (x <= 0) | (y <= 0)
    if bad.any():
        values = np.concatenate([x[x <= 0], y[y <= 0]])[:5].tolist()
        raise ValueError("`scale='ratio'` needs positive measurements (it takes logs); got "
                         f"{values}.")
    return mean, np.log(x) - np.log(y)


class _Pairs:
    """The pairs' means and differences on the analysis scale: given, or made on first use
    from the two methods' measurements (a result that is never plotted never holds them)."""

    def __init__(self, x: np.ndarray | None = None, y: np.ndarray | None = None,
                 measure: str = "difference", raters: tuple[str, str] = ("x", "y"), *,
                 means: np.ndarray | None = None, differences: np.ndarray | None = None):
        self._source = (x, y, measure, raters)
        self._made = None if means is None else (means, differences)

    def _make(self) -> tuple[np.ndarray, np.ndarray]:
        if self._made is None:
            self._made = _transform(*self._source)
        return self._made

    @property
    def means(self) -> np.ndarray:
        return self._make()[0]

    @property
    def differences(self) -> np.ndarray:
        return self._make()[1]


class _RowsNotHeld:
    """In place of :class:`_Pairs` when the limits were computed from moments summed
    elsewhere (by a database engine): the pairs never came to this process, and asking
    for them is an error that says so rather than a silent collection."""

    def __init__(self, where: str):
        self._where = where

    def _refuse(self) -> Any:
        raise ValueError(
            f"The pairs' means and differences (the points of a Bland-Altman plot) are not "
            f"held: these limits were computed from sums made by {self._where}, which "
            "never hands over its rows. Collect the two columns (or a sample of them) and "
            "compute the limits of that pandas frame to plot them.")

    @property
    def means(self) -> np.ndarray:
        return self._refuse()

    @property
    def differences(self) -> np.ndarray:
        return self._refuse()


def _chunks(x: np.ndarray, y: np.ndarray, measure: str, raters: tuple[str, str]) -> Any:
    """Chunk by chunk, ``(s, d)``: ``s = x + y`` (twice the pairs' means: halving is
    exact, so sums and products of ``s`` are those of the means times a power of two) and
    the differences on the analysis scale as :func:`_transform` makes them, in two
    buffers reused from chunk to chunk (use each before asking for the next). A bad value
    raises the message :func:`_transform` gives for the whole columns."""
    size = min(CHUNK, x.size)
    s_buffer, d_buffer, m_buffer = np.empty(size), np.empty(size), np.empty(size)
    for start in range(0, x.size, CHUNK):
        cx, cy = x[start:start + CHUNK], y[start:start + CHUNK]
        s, d = s_buffer[:cx.size], d_buffer[:cx.size]
        np.add(cx, cy, out=s)
        if measure == "ratio":
            if ((cx <= 0) | (cy <= 0)).any():
                _transform(x, y, measure, raters)  # raises, naming the values
            np.log(cx, out=d)
            d -= np.log(cy)
        else:
            np.subtract(cx, cy, out=d)
        if measure == "percent":
            mean = np.multiply(s, 0.5, out=m_buffer[:cx.size])
            if not mean.all():
                _transform(x, y, measure, raters)  # raises
            d *= 100
            d /= mean
        yield s, d


def limits_of_moments(
    moments: PairMoments,
    raters: tuple[str, str],
    *,
    scale: str = "difference",
    coverage: float | None = None,
    multiplier: float | None = None,
    ci_method: str | None = None,
    confidence_level: float = 0.95,
    units: str = "",
    n_missing: int = 0,
    where: str = "another engine",
) -> LimitsOfAgreementResult:
    """Parametric limits of agreement of single measurements from their moments (the
    pair means and the differences on the `scale` already formed by whoever summed them:
    :class:`irr._moments.PairMoments`), for data that never come to this process.

    The options are those of :func:`limits_of_agreement` with ``method='parametric'``;
    `n_missing` counts the subjects measured by one method only; `where` names what summed
    the moments, for the error raised when the pairs themselves are asked for (a plot).

    Examples
    --------
    >>> import irr
    >>> from irr._moments import PairMoments
    >>> df = irr.datasets.load("pef")
    >>> m = PairMoments.of_arrays(df["wright_1"].to_numpy(float), df["mini_1"].to_numpy(float))
    >>> res = limits_of_moments(m, ("wright", "mini"), multiplier=2, ci_method="approximate")
    >>> round(res.lower, 1), round(res.upper, 1)
    (-79.6, 75.4)
    """
    scale = check_choice(scale, "scale", SCALES)
    level = check_confidence_level(confidence_level)
    z, coverage = _multiplier(coverage, multiplier)
    ci_method = "exact" if ci_method is None else check_choice(
        ci_method, "ci_method", ("exact", "approximate"))
    if not isinstance(moments, PairMoments):
        raise TypeError(f"`moments` must be irr PairMoments; got {type(moments).__name__}.")
    raters = (str(raters[0]), str(raters[1]))
    _check_pairs(moments.n, raters)
    difference = f"{raters[0]}{' / ' if scale == 'ratio' else ' - '}{raters[1]}"
    return _of_summaries(moments.bias, moments.sd, moments.line(), _RowsNotHeld(where),
                         raters, difference, scale, z, coverage, "parametric", ci_method,
                         level, n_missing, units, moments.n)


def limits_of_agreement(
    measurements: Measurements | LazyMeasurements,
    first: int = 0,
    second: int = 1,
    options: InferenceOptions = DEFAULT_OPTIONS,
    *,
    scale: str = "difference",
    coverage: float | None = None,
    multiplier: float | None = None,
    method: str = "parametric",
    ci_method: str | None = None,
    replicates: str | None = None,
    units: str = "",
) -> LimitsOfAgreementResult:
    """Bland-Altman limits of agreement of rater `first` minus rater `second`.

    Parameters
    ----------
    measurements : Measurements or LazyMeasurements
        Real-valued measurements; subjects measured by only one of the two are left out.
        Those of a lazy frame give the parametric limits of single measurements from the
        moments its engine sums (:func:`limits_of_moments`).
    first, second : int, default 0, 1
        The two raters (methods) compared; differences are ``first - second``.
    options : InferenceOptions
        Its `confidence_level` is that of every interval.
    scale : {'difference', 'percent', 'ratio'}, default 'difference'
        Differences ``x - y``; percentage differences ``100 (x - y) / ((x + y) / 2)``; or
        ratios ``x / y``, analysed as log differences and back-transformed (bias: the
        geometric mean ratio; limits: ratios).
    coverage : float, optional
        The share of differences the limits should contain (default 0.95 when no
        `multiplier` is given); the multiplier is the exact normal quantile (1.959964 for
        95%).
    multiplier : float, optional
        The multiplier of the SD instead (Bland & Altman 1986 use 2, most papers 1.96);
        the coverage is then that of the normal law, and a `coverage` given beside it, even
        0.95, is refused.
    method : {'parametric', 'regression', 'nonparametric'}, default 'parametric'
        ``'parametric'``: bias -+ z SD. ``'regression'``: Bland & Altman (1999, section
        3.2) regression-based limits when the bias or the spread changes with the
        magnitude: the differences regressed on the means, the absolute residuals regressed
        on the means, limits = fitted bias -+ z sqrt(pi / 2) fitted absolute residual.
        ``'nonparametric'``: the (1 -+ coverage) / 2 percentiles of the differences (rank
        (n + 1) p; nan when it falls outside the sample: 95% limits need n >= 39), the
        median as centre.
    ci_method : {'exact', 'approximate', 'mover', 'order statistics'}, optional
        Intervals of the limits. Default ``'exact'`` for single measurements: the
        non-central t interval of a normal percentile (Carkeet, 2015; Shieh, 2018), whose
        coverage is exact under normality at every n, where Bland & Altman's approximation
        (``'approximate'``: limit -+ t * s sqrt((1 + z**2 / 2) / n), which is
        sqrt(3 s**2 / n) at z = 2) is too narrow in small samples. With replicates
        ``'mover'`` (Zou, 2011), nonparametric ``'order statistics'``.
    replicates : {'constant', 'varying'}, optional
        Required when some subject was measured more than once by a method (Bland &
        Altman, 2007): ``'constant'``, the true value does not change between replicates
        (they need not be paired; subject means are compared and the within-subject
        variances of each method added back); ``'varying'``, the true value changes and
        the replicates were made in pairs (the j-th measurement of each method of a
        subject form pair j; one-way random-effects variance components of the paired
        differences).
    units : str, default ''
        The units of the measurements, for labels and sentences.

    Returns
    -------
    LimitsOfAgreementResult

    Raises
    ------
    ValueError
        For bad options, fewer than two pairs, non-positive values with
        ``scale='ratio'``, or replicates without `replicates`.

    Warns
    -----
    DegenerateDataWarning
        When every difference is the same (SD 0: no interval), or nonparametric limits
        need more pairs.

    Notes
    -----
    The bias is tested against 0 by a one-sample t test on n - 1 df; its interval is the
    t interval. Proportional bias is the slope of the differences on the pair means
    (ordinary least squares, t test on n - 2 df). Validated against the peak expiratory
    flow example of Bland & Altman (1986): bias -2.1 l/min, SD 38.8, limits -79.7 and
    75.5 with 2 SD, approximate intervals -114.3 to -45.1 and 40.9 to 110.1; and the exact
    factors against the one-sided normal tolerance factors of Owen (1963).

    References
    ----------
    Bland, J. M., & Altman, D. G. (1986). Statistical methods for assessing agreement
    between two methods of clinical measurement. Lancet, i, 307-310.
    https://doi.org/10.1016/S0140-6736(86)90837-8

    Bland, J. M., & Altman, D. G. (1999). Measuring agreement in method comparison
    studies. Statistical Methods in Medical Research, 8, 135-160.
    https://doi.org/10.1177/096228029900800204

    Bland, J. M., & Altman, D. G. (2007). Agreement between methods of measurement with
    multiple observations per individual. Journal of Biopharmaceutical Statistics, 17,
    571-582. https://doi.org/10.1080/10543400701329422

    Carkeet, A. (2015). Exact parametric confidence intervals for Bland-Altman limits of
    agreement. Optometry and Vision Science, 92, e71-e80.
    https://doi.org/10.1097/OPX.0000000000000513

    Zou, G. Y. (2011). Confidence interval estimation for the Bland-Altman limits of
    agreement with multiple observations per individual. Statistical Methods in Medical
    Research, 22, 630-642. https://doi.org/10.1177/0962280211402548

    Examples
    --------
    >>> import irr
    >>> from irr._measurements import CHUNK, Measurements
    >>> df = irr.datasets.load("pef")
    >>> m = Measurements.from_wide(df[["wright_1", "mini_1"]], raters=["wright", "mini"])
    >>> res = limits_of_agreement(m, multiplier=2, ci_method="approximate")
    >>> round(res.lower, 1), round(res.upper, 1)
    (-79.6, 75.4)
    """
    if isinstance(measurements, LazyMeasurements):  # the engine sums the moments
        lazy = measurements
        if method != "parametric" or replicates is not None:
            raise ValueError(lazy.rows_refused(
                f"Limits of agreement with method={method!r}"
                + (f", replicates={replicates!r}" if replicates is not None else "")))
        moments, n_one = PairMoments.of_lazy(lazy, first, second,
                                             check_choice(scale, "scale", SCALES))
        return limits_of_moments(
            moments, (lazy.raters[first], lazy.raters[second]), scale=scale,
            coverage=coverage, multiplier=multiplier, ci_method=ci_method,
            confidence_level=options.confidence_level, units=units, n_missing=n_one,
            where=lazy.where)
    scale = check_choice(scale, "scale", SCALES)
    method = check_choice(method, "method", METHODS)
    level = options.confidence_level
    z, coverage = _multiplier(coverage, multiplier)
    if not isinstance(measurements, Measurements):
        raise TypeError("`measurements` must be an irr Measurements; got "
                        f"{type(measurements).__name__}.")
    measurements.check_magnitude("The limits of agreement")
    for name, g in (("first", first), ("second", second)):
        if isinstance(g, bool) or not isinstance(g, (int, np.integer)) or not (
                0 <= g < measurements.n_raters):
            raise ValueError(f"`{name}` must be a rater index in 0 .. "
                             f"{measurements.n_raters - 1}; got {g!r}.")
    if first == second:
        raise ValueError(f"`first` and `second` must differ; both are {first}.")
    raters = (measurements.raters[first], measurements.raters[second])
    sep = " / " if scale == "ratio" else " - "
    difference = f"{raters[0]}{sep}{raters[1]}"
    n_missing = 0
    has_replicates = False
    if measurements.has_replicates:  # those of the two raters' complete subjects
        counts = measurements.replicates[:, [first, second]]
        both = (counts > 0).all(axis=1)
        n_missing = int(((counts > 0).any(axis=1) & ~both).sum())
        has_replicates = bool(counts[both].max(initial=0) > 1)
    if has_replicates:
        design = check_choice(replicates, "replicates", DESIGNS) if replicates is not None \
            else None
        if design is None:
            raise ValueError(
                "The measurements hold replicates (a method measured a subject more than "
                "once): pass `replicates='constant'` if the true value does not change "
                "between them, or `replicates='varying'` if it does and they were made in "
                "pairs (Bland & Altman, 2007).")
        if method != "parametric" or scale == "percent":
            raise ValueError(
                f"With replicates only `method='parametric'` and `scale` 'difference' or "
                f"'ratio' are available; got method={method!r}, scale={scale!r}.")
    else:
        if replicates is not None:
            check_choice(replicates, "replicates", DESIGNS)
        design = "single"
    default_ci = {"parametric": "exact" if design == "single" else "mover",
                  "regression": "none", "nonparametric": "order statistics"}[method]
    if ci_method is None:
        ci_method = default_ci
    else:
        allowed = ("exact", "approximate") if default_ci == "exact" else (default_ci,)
        check_choice(ci_method, "ci_method", allowed)
    if design == "single":
        x, y, n_missing = measurements.pair(first, second)
        return _single(x, y, raters, difference, scale, z, coverage, method, ci_method,
                       level, n_missing, units)
    return _replicated(measurements, first, second, raters, difference, scale, z, coverage,
                       design, level, n_missing, units)


def _single(
    x: np.ndarray, y: np.ndarray, raters: tuple[str, str], difference: str, measure: str,
    z: float, coverage: float, method: str, ci_method: str, level: float, n_missing: int,
    units: str,
) -> LimitsOfAgreementResult:
    n = x.size
    _check_pairs(n, raters)
    if method == "parametric":  # sums over chunks: no array of n differences
        moments = PairMoments.from_chunks(partial(_chunks, x, y, measure, raters), n)
        return _of_summaries(moments.bias, moments.sd, moments.line(),
                             _Pairs(x, y, measure, raters), raters, difference, measure, z,
                             coverage, method, ci_method, level, n_missing, units, n)
    a, d = _transform(x, y, measure, raters)
    return _of_summaries(float(d.mean()), float(d.std(ddof=1)), fit_line(a, d),
                         _Pairs(means=a, differences=d), raters, difference, measure, z,
                         coverage, method, ci_method, level, n_missing, units, n)


def _check_pairs(n: int, raters: tuple[str, str]) -> None:
    if n < 2:
        raise ValueError(f"Limits of agreement need at least two subjects measured by both "
                         f"{raters[0]} and {raters[1]}; got {n}.")


def _of_summaries(
    bias: float, sd: float, line: Line, pairs: Any, raters: tuple[str, str],
    difference: str, measure: str, z: float, coverage: float, method: str, ci_method: str,
    level: float, n_missing: int, units: str, n: int,
) -> LimitsOfAgreementResult:
    """The result of single measurements from the bias, the SD of the differences and
    the line of the differences on the means (with `pairs`' means and differences for
    the regression-based and nonparametric limits)."""
    if method != "parametric":
        a, d = pairs.means, pairs.differences
    notes: list[str] = []
    if n_missing:
        notes.append(f"{n_missing} subject(s) measured by only one of the two methods were "
                     "left out.")
    if not sd > 0:
        message = ("Every difference is the same (SD 0): the limits coincide with the bias "
                   "and have no interval.")
        warnings.warn(message, DegenerateDataWarning, stacklevel=3)
        notes.append(message)
    se = sd / math.sqrt(n)
    t, p = _t_test(bias, se, n - 1)
    slope_t, slope_p = _t_test(line.slope, line.slope_se, line.df)
    slope_ci = _t_interval(line.slope, line.slope_se, line.df, level)
    extra: dict[str, Any] = {}
    components: dict[str, Any] = {}
    nan_ci = ConfidenceInterval(math.nan, math.nan, level, ci_method)
    if method == "parametric":
        lower, upper = bias - z * sd, bias + z * sd
        lower_ci, upper_ci = _limit_intervals(bias, sd, n, z, level, ci_method, measure)
        bias_ci = _t_interval(bias, se, n - 1, level)
    elif method == "regression":
        lower = upper = math.nan
        lower_ci = upper_ci = nan_ci
        bias_ci = _t_interval(bias, se, n - 1, level)
        spread = fit_line(a, np.abs(line.residuals))
        extra = {"bias_intercept": line.intercept, "sd_intercept": spread.intercept,
                 "sd_slope": spread.slope}
        components = {"bias_intercept_se": line.intercept_se}
        notes.append(
            f"Regression-based limits (Bland & Altman, 1999, section 3.2): bias = "
            f"{_line(line.intercept, line.slope)}; limits = bias \u00b1 {z:.4g} \u00d7 "
            f"sqrt(pi/2) \u00d7 ({_line(spread.intercept, spread.slope)}), A the mean of "
            "the two methods (the second line: absolute residuals of the first regressed "
            "on A); the half-width lines have no interval.")
        if n < 4:
            notes.append("Fewer than 4 pairs: the regression lines are not estimable.")
    else:
        lower, upper = _percentiles(d, coverage)
        if math.isnan(lower):
            need = math.ceil(2 / (1 - coverage)) - 1
            message = (f"Nonparametric {100 * coverage:g}% limits need at least {need} pairs "
                       f"(rank (n + 1) p inside 1 .. n); got {n}: the limits are nan.")
            warnings.warn(message, DegenerateDataWarning, stacklevel=3)
            notes.append(message)
        lower_ci, upper_ci = _percentile_intervals(d, coverage, level)
        bias = float(np.median(d))
        se = t = p = math.nan
        bias_ci = _median_interval(d, level)
    log_se = math.nan
    if measure == "ratio":
        log_se, se = se, math.nan
        bias, lower, upper = (math.exp(v) if math.isfinite(v) else math.nan
                              for v in (bias, lower, upper))
        bias_ci = _back(bias_ci, measure)
        if method == "nonparametric":
            lower_ci, upper_ci = _back(lower_ci, measure), _back(upper_ci, measure)
        notes.append("Ratios: the analysis is on the log scale (log first - log second); the "
                     "bias, limits and intervals are back-transformed ratios; SD on the log "
                     "scale.")
    if measure == "percent":
        notes.append("Differences in percent of the mean of each pair: 100 (first - second) "
                     "/ ((first + second) / 2).")
    if math.isfinite(slope_p):
        notes.append(f"Proportional bias: differences regressed on the means, slope "
                     f"{line.slope:.4g} (t = {slope_t:.3f}, df = {line.df}, p = {slope_p:.4f}).")
    return LimitsOfAgreementResult(
        coefficient="Limits of agreement", symbol="LoA", estimate=bias, se=se, statistic=t,
        pvalue=p, ci=bias_ci, n_subjects=n, n_missing=n_missing, n_incomplete=n_missing,
        raters=raters,
        notes=tuple(notes), difference=difference, measure=measure, method=method,
        design="single", df=n - 1, sd=sd, multiplier=z, coverage=coverage, lower=lower,
        upper=upper, lower_ci=lower_ci, upper_ci=upper_ci, limit_ci_method=ci_method,
        slope=line.slope, slope_se=line.slope_se, slope_ci=slope_ci, slope_pvalue=slope_p,
        log_se=log_se, units=units, variance_components=components, pairs=pairs, **extra)


def _occasions(subject: np.ndarray, rater: np.ndarray, n_raters: int) -> np.ndarray:
    """The order (0, 1, ...) of each measurement among those of its (subject, rater)."""
    cells = subject * n_raters + rater
    order = np.argsort(cells, kind="stable")
    sorted_cells = cells[order]
    starts = np.flatnonzero(np.r_[True, sorted_cells[1:] != sorted_cells[:-1]])
    first = np.repeat(starts, np.diff(np.r_[starts, sorted_cells.size]))
    occasion = np.empty_like(cells)
    occasion[order] = np.arange(cells.size) - first
    return occasion


def _replicated(
    m: Measurements, first: int, second: int, raters: tuple[str, str], difference: str,
    measure: str, z: float, coverage: float, design: str, level: float, n_missing: int,
    units: str,
) -> LimitsOfAgreementResult:
    keep = (m.rater == first) | (m.rater == second)
    subject, rater, value = m.subject[keep], m.rater[keep], m.value[keep]
    if measure == "ratio":
        if np.any(value <= 0):
            raise ValueError("`scale='ratio'` needs positive measurements (it takes logs); "
                             f"got {value[value <= 0][:5].tolist()}.")
        value = np.log(value)
    is_x = rater == first
    size = m.n_subjects
    notes: list[str] = []
    if design == "constant":
        mx = np.bincount(subject[is_x], minlength=size).astype(float)
        my = np.bincount(subject[~is_x], minlength=size).astype(float)
        used = (mx > 0) & (my > 0)
        n = int(used.sum())
        if n < 2:
            raise ValueError(f"Limits of agreement need at least two subjects measured by "
                             f"both {raters[0]} and {raters[1]}; got {n}.")
        sx = np.bincount(subject[is_x], value[is_x], size)
        sy = np.bincount(subject[~is_x], value[~is_x], size)
        mx, my, sx, sy = (v[used] for v in (mx, my, sx, sy))
        xbar, ybar = sx / mx, sy / my
        d = xbar - ybar
        bias = float(d.mean())
        var_dbar = float(d.var(ddof=1))
        df_x, df_y = float(mx.sum() - n), float(my.sum() - n)
        # each method's within-subject variance: its replicates' one-way ANOVA, on the
        # subjects both methods measured
        both = used[subject]
        squares, _, _ = replicate_squares(subject[both], (~is_x[both]).astype(np.int64),
                                          value[both], size, 2)
        within_x = float(squares[0]) / df_x if df_x else 0.0
        within_y = float(squares[1]) / df_y if df_y else 0.0
        cx, cy = 1 - float(np.mean(1 / mx)), 1 - float(np.mean(1 / my))
        coefficients = np.array([1.0, cx, cy])
        mean_squares = np.array([var_dbar, within_x, within_y])
        dfs = np.array([n - 1, df_x, df_y])
        present = dfs > 0
        variance = float(coefficients @ mean_squares)
        bias_se = math.sqrt(var_dbar / n)
        bias_df = float(n - 1)
        a = (xbar + ybar) / 2
        notes.append(
            f"Replicates, true value constant (Bland & Altman, 2007): SD^2 = var(subject mean "
            f"differences) {var_dbar:.4g} + {cx:.4g} x within-subject variance of "
            f"{raters[0]} {within_x:.4g} + {cy:.4g} x that of {raters[1]} {within_y:.4g}; "
            "bias = mean of the subjects' mean differences.")
        components = {"var_dbar": var_dbar, "within_first": within_x,
                      "within_second": within_y}
        n_measurements = int(mx.sum() + my.sum())
    else:
        occasion = _occasions(subject, rater, m.n_raters)
        depth = int(occasion.max()) + 1
        key = subject * depth + occasion
        cells = size * depth
        xs = np.full(cells, np.nan)
        ys = np.full(cells, np.nan)
        xs[key[is_x]] = value[is_x]
        ys[key[~is_x]] = value[~is_x]
        paired = ~(np.isnan(xs) | np.isnan(ys))
        unpaired = int((~np.isnan(xs)).sum() + (~np.isnan(ys)).sum() - 2 * paired.sum())
        pair_subject = np.flatnonzero(paired) // depth
        dij = xs[paired] - ys[paired]
        aij = (xs[paired] + ys[paired]) / 2
        mi = np.bincount(pair_subject, minlength=size).astype(float)
        used = mi > 0
        n = int(used.sum())
        big_n = float(dij.size)
        if n < 2:
            raise ValueError(f"Limits of agreement need at least two subjects measured by "
                             f"both {raters[0]} and {raters[1]}; got {n}.")
        si = np.bincount(pair_subject, dij, size)
        dbar_i = si[used] / mi[used]
        mi = mi[used]
        bias = float(dij.mean())
        msw_df = big_n - n
        ssw = float(np.sum((dij - (si / np.maximum(np.bincount(pair_subject,
                                                                minlength=size), 1))
                            [pair_subject]) ** 2))
        msw = ssw / msw_df if msw_df else 0.0
        msb = float(np.sum(mi * (dbar_i - bias) ** 2)) / (n - 1)
        m0 = (big_n - float(np.sum(mi * mi)) / big_n) / (n - 1)
        sigma_b2 = (msb - msw) / m0
        if sigma_b2 < 0:
            notes.append(f"The between-subject variance of the differences is estimated "
                         f"below 0 ({sigma_b2:.4g}) and set to 0.")
            sigma_b2 = 0.0
        variance = sigma_b2 + msw
        coefficients = np.array([1 / m0, 1 - 1 / m0])
        mean_squares = np.array([msb, msw])
        dfs = np.array([n - 1, msw_df])
        present = dfs > 0
        bias_se = math.sqrt((sigma_b2 * float(np.sum(mi * mi)) + msw * big_n) / big_n ** 2)
        bias_df = float(n - 1)
        a = aij
        d_all = dij
        notes.append(
            f"Replicates made in pairs, true value varying (Bland & Altman, 2007): one-way "
            f"random-effects components of the {int(big_n)} paired differences, between "
            f"subjects {sigma_b2:.4g}, within {msw:.4g} (MSB {msb:.4g}, m0 {m0:.4g}); bias = "
            "mean of all differences.")
        if unpaired:
            notes.append(f"{unpaired} replicate(s) without a partner of the other method "
                         "were left out.")
        components = {"sigma_between": sigma_b2, "sigma_within": msw, "msb": msb,
                      "m0": m0}
        n_measurements = int(2 * big_n)
    sd = math.sqrt(variance)
    parts = {"bias": bias, "bias_se": bias_se, "bias_df": bias_df, "variance": variance,
             "coefficients": coefficients[present], "mean_squares": mean_squares[present],
             "dfs": dfs[present], **components}
    lower_ci, upper_ci = _replicate_intervals(parts, z, level, measure)
    t, p = _t_test(bias, bias_se, bias_df)
    bias_ci = _back(_t_interval(bias, bias_se, bias_df, level), measure)
    lower, upper = bias - z * sd, bias + z * sd
    log_se, se = math.nan, bias_se
    if measure == "ratio":
        log_se, se = bias_se, math.nan
        bias, lower, upper = math.exp(bias), math.exp(lower), math.exp(upper)
        notes.append("Ratios: the analysis is on the log scale; the bias, limits and "
                     "intervals are back-transformed ratios; SD on the log scale.")
    notes.append(f"{n_measurements} measurements of {n} subjects.")
    if n_missing:
        notes.append(f"{n_missing} subject(s) measured by only one of the two methods were "
                     "left out.")
    if design == "constant":
        d_all = d
    nan = math.nan
    return LimitsOfAgreementResult(
        coefficient="Limits of agreement", symbol="LoA", estimate=bias, se=se, statistic=t,
        pvalue=p, ci=bias_ci, n_subjects=n, n_missing=n_missing, n_incomplete=n_missing,
        raters=raters,
        notes=tuple(notes), difference=difference, measure=measure, method="parametric",
        design=design, df=bias_df, sd=sd, multiplier=z, coverage=coverage, lower=lower,
        upper=upper, lower_ci=lower_ci, upper_ci=upper_ci, limit_ci_method="mover",
        slope=nan, slope_se=nan, slope_ci=ConfidenceInterval(nan, nan, level, "t"),
        slope_pvalue=nan, log_se=log_se, units=units, variance_components=parts,
        pairs=_Pairs(means=a, differences=d_all))
