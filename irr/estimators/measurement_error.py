"""Measurement error in the units of the measurement: within-subject SD, repeatability
coefficient, standard error of measurement (SEM), smallest detectable change (SDC) and the
within-subject coefficient of variation, each with its confidence interval.

Bland & Altman (1996) define the within-subject SD :math:`s_w` from replicates and the
repeatability coefficient :math:`1.96 \\sqrt{2}\\, s_w \\approx 2.77\\, s_w` (the difference
two measurements of one subject stay within for 95% of pairs); de Vet et al. (2006) the SEM
of agreement (rater variance counted as error) and of consistency, and the SDC
:math:`1.96 \\sqrt{2}\\, SEM`. The variance components come from
:mod:`irr.estimators.variance_components` (Henderson's method III; missing cells allowed).
"""

from __future__ import annotations

import math
import warnings
from collections.abc import Mapping
from dataclasses import dataclass
from functools import partial
from typing import Any, ClassVar

import numpy as np
import pandas as pd

from irr._measurements import Measurements
from irr._numbers import format_interval, format_number
from irr._validation import DegenerateDataWarning, check_choice
from irr.coefficients.variance_components import (
    check_design_size,
    components_icc,
    henderson,
    moment_layout,
    moment_sums,
    replicate_squares,
    single_moment_sums,
)
from irr.estimators.variance_components import (
    cell_statistics,
    check_measurements,
    moment_bootstrap,
    single_cells,
)
from irr.inference.bootstrap import MomentStatistic, bootstrap_counts
from irr.inference.keywords import MEASUREMENT_ERROR_NOTES
from irr.inference.options import DEFAULT_OPTIONS, InferenceOptions
from irr.results import FRAME_COLUMNS, ConfidenceInterval, Result, normal_quantile
from irr.summary import results_summary
from irr.vocabulary import interval_name

__all__ = ["MEASUREMENT_ERROR_NOTES", "MeasurementErrorResult", "chi2_sd_interval",
           "measurement_error"]

#: 1.96 * sqrt(2) at 95%: Bland & Altman's 2.77.
_SQRT2 = math.sqrt(2.0)


def chi2_sd_interval(sd: float, df: float, confidence_level: float) -> tuple[float, float]:
    """Interval of a standard deviation estimated on `df` degrees of freedom from the
    chi-square law of ``df * sd**2 / sigma**2``.

    Examples
    --------
    >>> [round(v, 2) for v in chi2_sd_interval(15.31, 17, 0.95)]
    [11.49, 22.95]
    """
    from scipy.special import chdtri

    if not (math.isfinite(sd) and math.isfinite(df) and df > 0):
        return math.nan, math.nan
    tail = (1 - confidence_level) / 2
    low = sd * math.sqrt(df / float(chdtri(df, tail)))
    high = sd * math.sqrt(df / float(chdtri(df, 1 - tail)))
    return low, high


@dataclass(frozen=True, eq=False, kw_only=True, repr=False)
class MeasurementErrorResult(Result):
    """Measurement error of real-valued measurements, in their units.

    The headline ``estimate`` is the SEM (its ``ci`` and ``se`` too); ``quantities`` holds
    one :class:`irr.results.Result` per quantity (within-subject SD, repeatability
    coefficient, SEM, SDC, coefficient of variation, SEM from the ICC), which
    :meth:`to_frame` returns as rows and :meth:`summary` as a table. With replicates of
    several raters or methods the within-subject SD and the repeatability coefficient
    are given pooled over them (symbols ``'s_w'``, ``'repeatability'``) and for each one
    that measured a subject more than once (``'s_w[name]'``, ``'repeatability[name]'``;
    Bland & Altman 1999, section 5). Also ``type`` (``'agreement'`` or
    ``'consistency'``), ``units``, the variance components ``sigma2_subjects``,
    ``sigma2_raters``, ``sigma2_interaction``, ``sigma2_error``, ``df_within`` (of the
    pooled within-subject SD), ``df_within_by_rater`` (of each rater's) and
    ``n_measurements``.
    """

    scale: str | None = None
    bounds: tuple[float, float] = (0.0, math.inf)
    type: str
    units: str
    quantities: tuple[Result, ...]
    sigma2_subjects: float
    sigma2_raters: float
    sigma2_interaction: float
    sigma2_error: float
    df_within: float
    df_within_by_rater: Mapping[str, float]
    n_measurements: int
    statistic_name: str = "z"

    own_sentence: ClassVar[bool] = True

    def parts(self) -> list[Result]:
        """:attr:`quantities`: the rows of tables."""
        return list(self.quantities)

    def quantity(self, name: str, rater: str | None = None) -> Result:
        """The row called `name` (``'s_w'``, ``'repeatability'``, ``'SEM'``, ``'SDC'``,
        ``'CV'`` ...: the symbols of :meth:`to_frame`); with `rater`, that rater's or
        method's own (``quantity('s_w', 'J')`` is the row ``'s_w[J]'``).

        Examples
        --------
        >>> import irr
        >>> pef = irr.datasets.load("pef", form="long")
        >>> ag = irr.Agreement.from_long(pef, subject="subject", rater="rater",
        ...                              rating="rating", replicate="replicate")
        >>> res = ag.measurement_error(units="l/min", n_resamples=99)
        >>> round(res.quantity("s_w", "wright").estimate, 1)
        15.3
        """
        symbol = name if rater is None else f"{name}[{rater}]"
        for q in self.quantities:
            if q.symbol == symbol:
                return q
        raise ValueError(f"`name` (with `rater`) must be one of "
                         f"{[q.symbol for q in self.quantities]}; got {symbol!r}.")

    def to_frame(self) -> pd.DataFrame:
        """One row per quantity, with :data:`irr.results.FRAME_COLUMNS` and ``symbol``."""
        rows = [{"symbol": q.symbol, **{c: q.to_dict()[c] for c in FRAME_COLUMNS}}
                for q in self.quantities]
        frame = pd.DataFrame(rows, index=pd.Index([q.coefficient for q in self.quantities],
                                                  name="coefficient"))
        return frame

    def _extras(self) -> dict[str, Any]:
        out = {"type": self.type, "units": self.units, "sigma2_subjects": self.sigma2_subjects,
               "sigma2_raters": self.sigma2_raters,
               "sigma2_interaction": self.sigma2_interaction,
               "sigma2_error": self.sigma2_error, "df_within": self.df_within,
               "n_measurements": self.n_measurements}
        if self.df_within_by_rater:  # as the rows 's_w[name]': with replicates of several
            out["df_within_by_rater"] = dict(self.df_within_by_rater)
        for q in self.quantities:
            out[q.symbol] = q.estimate
        return out

    def summary(self) -> Any:
        """A statsmodels ``Summary``: one row per quantity, in the measurement's units."""
        info = [("Units:", self.units or "(not given)"), ("SEM type:", self.type),
                ("Measurements:", f"{self.n_measurements:,}")]
        return results_summary(list(self.quantities), title="Measurement error",
                               info=info, notes=self.notes, merge_coincident=False)

    def report(self, style: str = "apa", *, digits: int | None = None, **_: Any) -> str:
        """One sentence in the measured units with the intervals' method, e.g. "The
        standard error of measurement (agreement) was 4.1 mmHg, 95% CI [3.5, 5.0], and the
        smallest detectable change 11.4 mmHg, 95% CI [9.6, 13.8] (chi-square, Satterthwaite
        df), n = 40."; with replicates also the within-subject SD and the repeatability
        coefficient.

        Examples
        --------
        >>> import irr
        >>> pef = irr.datasets.load("pef")
        >>> ag = irr.Agreement.from_frame(pef, ["wright_1", "mini_1"], continuous=True)
        >>> print(ag.measurement_error(units="l/min").report())  # doctest: +NORMALIZE_WHITESPACE
        The standard error of measurement (agreement) was 26.6 l/min, 95% CI [19.9, 40.5],
        and the smallest detectable change 73.8 l/min, 95% CI [55.0, 112.2] (chi-square,
        Satterthwaite df), n = 17.
        """
        check_choice(style, "style", ("apa", "plain"))
        if digits is None:  # three significant digits of the SEM, at least one decimal
            sem = self.estimate if math.isfinite(self.estimate) and self.estimate > 0 else 1.0
            digits = max(1, 2 - math.floor(math.log10(sem)))
        unit = f" {self.units}" if self.units else ""

        def number(value: float) -> str:
            return format_number(value, digits)

        def value(q: Result, how: str = "") -> str:
            text = f"{number(q.estimate)}{unit}"
            if math.isfinite(q.ci.low) and math.isfinite(q.ci.high):
                # two quantities' intervals of one method: named once, after the second
                interval = format_interval(q.ci.low, q.ci.high, q.ci.confidence_level, how,
                                           ends=number, apa=style == "apa",
                                           inside=style != "apa")
                text += f", {interval}" if style == "apa" else f" ({interval})"
            return text

        def part(symbol: str, words: str, how: str = "") -> str:
            return f"{words} {value(self.quantity(symbol), how)}"

        def method(symbol: str) -> str:
            ci = self.quantity(symbol).ci
            if ci.method == "chi2":
                satterthwaite = symbol == "SEM" and any("Satterthwaite" in n for n in self.notes)
                how = interval_name("chi2") + (", Satterthwaite df" if satterthwaite else "")
            elif ci.method == "percentile":
                resamples = next((n.split("(")[-1].split(" resamples")[0] for n in self.notes
                                  if n.startswith("SEM interval") and "resamples" in n), "")
                how = f"{interval_name('percentile')} of subjects" + (f", {resamples} resamples"
                                                             if resamples else "")
            else:
                how = interval_name(ci.method)
            return how

        def by_rater(symbol: str, words: str, how: str = "") -> str:
            """Each rater's value, then the pooled one: "was 3.0 for A and 6.5 for B
            (pooled 5.1)"; beyond three raters the pooled value and the raters' range:
            "was 5.1, pooled over the 12 raters or methods, whose own ranged from 2.5 (C) to
            6.5 (B)"."""
            q = self.quantity(symbol)
            names = list(self.df_within_by_rater)
            if len(names) > 3:
                own = np.array([self.quantity(symbol, name).estimate for name in names])
                low, high = int(np.argmin(own)), int(np.argmax(own))
                return (f"{words} {value(q, how)}, pooled over the {len(names)} raters or "
                        f"methods, whose own ranged from {number(own[low])}{unit} "
                        f"({names[low]}) to {number(own[high])}{unit} ({names[high]})")
            own = [f"{value(self.quantity(symbol, name))}{',' * (style == 'apa')} for {name}"
                   for name in names]
            listed = (" and ".join(own) if len(own) <= 2
                      else f"{', '.join(own[:-1])}, and {own[-1]}")
            # in parentheses: the interval without brackets
            pooled = f"{number(q.estimate)}{unit}"
            if math.isfinite(q.ci.low) and math.isfinite(q.ci.high):
                pooled += (f", {100 * q.ci.confidence_level:g}% CI "
                           + (f"[{number(q.ci.low)}, {number(q.ci.high)}]" if style == "apa"
                              else f"{number(q.ci.low)} to {number(q.ci.high)}"))
            return f"{words} {listed} (pooled {pooled}{f'; {how}' if how else ''})"

        text = (f"{part('SEM', f'The standard error of measurement ({self.type}) was')}, and "
                f"{part('SDC', 'the smallest detectable change', method('SEM'))}")
        if self.df_within_by_rater:
            text += (f"; {by_rater('s_w', 'the within-subject SD was')}, and "
                     f"{by_rater('repeatability', 'the repeatability coefficient', method('s_w'))}")
        elif "s_w" in {q.symbol for q in self.quantities}:
            text += (f"; {part('s_w', 'the within-subject SD was')}, and "
                     f"{part('repeatability', 'the repeatability coefficient', method('s_w'))}")
        return f"{text}, n = {self.n_subjects:,}."

    def __repr__(self) -> str:
        shown = ", ".join(f"{q.symbol}={q.estimate:.4g}" for q in self.quantities)
        return f"MeasurementErrorResult({shown}, units={self.units!r}, n_subjects={self.n_subjects})"


def _row(name: str, symbol: str, estimate: float, ci: ConfidenceInterval, n: int,
         raters: tuple[str, ...]) -> Result:
    return Result(coefficient=name, symbol=symbol, estimate=float(estimate), se=math.nan,
                  ci=ci, n_subjects=n, raters=raters, scale=None, bounds=(0.0, math.inf))


def _within_rows(s_w: float, df: float, factor: float, level: float, n: int,
                 raters: tuple[str, ...], *, pooled: bool = False,
                 rater: str = "") -> list[Result]:
    """The within-subject SD on `df` degrees of freedom and the repeatability coefficient
    ``factor * s_w``, with chi-square intervals: pooled over raters (labelled so when
    `pooled`), or of one `rater`."""
    low, high = chi2_sd_interval(s_w, df, level)
    label = f" ({rater})" if rater else " (pooled)" if pooled else ""
    key = f"[{rater}]" if rater else ""
    return [_row(f"Within-subject SD{label}", f"s_w{key}", s_w,
                 ConfidenceInterval(low, high, level, "chi2"), n, raters),
            _row(f"Repeatability coefficient{label}", f"repeatability{key}", factor * s_w,
                 ConfidenceInterval(factor * low, factor * high, level, "chi2"), n, raters)]


def _satterthwaite_sd(coefficients: np.ndarray, mean_squares: np.ndarray, df: np.ndarray,
                      confidence_level: float) -> tuple[float, float, float]:
    """SD of a positive combination sum(c * MS) with Satterthwaite's (1946) df, its
    chi-square interval, and the df."""
    terms = coefficients * mean_squares
    variance = float(terms.sum())
    if not variance > 0:
        return math.nan, math.nan, math.nan
    nu = variance ** 2 / float(np.sum(terms ** 2 / df))
    low, high = chi2_sd_interval(math.sqrt(variance), nu, confidence_level)
    return low, high, nu


def _moment_sd(sums: np.ndarray, k: int) -> float:
    """The SD of all measurements from their summed subject moments (:func:`moment_sums`):
    the sum of squares about the grand mean is the within-subject one plus the subjects'
    means' (``between + total2 - total**2 / n``)."""
    layout = moment_layout(k)
    count = float(sums[layout["n"]][0])
    if count < 2:
        return math.nan
    total = float(sums[layout["total"]][0])
    squares = (float(sums[layout["between"]][0]) + float(sums[layout["total2"]][0])
               - total * total / count)
    return math.sqrt(max(squares, 0.0) / (count - 1))


def _sem_of(sums: np.ndarray, k: int, model: str, replicates: bool, type: str) -> np.ndarray:
    """The SEM of a batch of summed subject moments (the bootstrap's statistic)."""
    c = henderson(sums, k, model, replicates)
    variance = c.interaction + c.error + (c.raters if type == "agreement" else 0.0)
    with np.errstate(invalid="ignore"):
        return np.sqrt(variance)


def _rms_cv(sums: np.ndarray) -> np.ndarray:
    with np.errstate(invalid="ignore", divide="ignore"):
        return np.sqrt(sums[:, 0] / sums[:, 1])


def measurement_error(
    measurements: Measurements,
    type: str = "agreement",
    *,
    units: str = "",
    options: InferenceOptions = DEFAULT_OPTIONS,
) -> MeasurementErrorResult:
    """The measurement error of `measurements` (see :func:`irr.measurement_error`, whose
    `confidence_level`, `n_resamples`, `rng` and `progress` are `options`)."""
    m = check_measurements(measurements, "The standard error of measurement")
    if m.has_replicates:
        m.check_magnitude("The standard error of measurement")
    type = check_choice(type, "type", ("agreement", "consistency"))
    confidence_level = options.confidence_level
    n_resamples = options.n_resamples
    rng, progress = options.rng, options.progress
    if not isinstance(units, str):
        raise TypeError(f"`units` must be a str; got {units!r}.")
    k = m.n_raters
    replicates = m.has_replicates
    if replicates:
        counts, sums, _, within, centre = cell_statistics(m)
        n = int(np.count_nonzero(counts.sum(axis=1)))
        cells = int(np.count_nonzero(counts))
    else:  # one measurement per cell: the raters' rows are all it takes
        by_rater = m.by_rater()
        m.check_magnitude("The standard error of measurement", by_rater)
        observed, centred, _ = single_cells(m, by_rater, exact_median=False)
        n = int(np.count_nonzero(observed.sum(axis=0)))  # measured subjects
        cells = m.n_measurements
    if n < 2:
        raise ValueError(f"`measurements` must hold at least 2 measured subjects; got {n}.")
    z = normal_quantile(confidence_level)
    factor = z * _SQRT2
    level = confidence_level
    raters = m.raters
    rows: list[Result] = []
    notes: list[str] = []
    df_within = float(m.n_measurements - cells)
    df_by_rater: dict[str, float] = {}
    if replicates:
        # each reading's deviation from its (subject, rater) cell mean: the one-way ANOVA
        # of replicates within cells, pooled over raters and per rater
        cell = m.subject * k + m.rater
        cell_mean = np.divide(sums, counts, out=np.zeros_like(sums), where=counts > 0)
        squares, dfs, deviation = replicate_squares(m.subject, m.rater, m.value - centre,
                                                    m.n_subjects, k)
        per_rater = k > 1
        rows.extend(_within_rows(math.sqrt(float(within.sum()) / df_within), df_within,
                                 factor, level, n, raters, pooled=per_rater))
        notes.append(f"Within-subject SD from {df_within:g} df of replicates (same subject, "
                     f"same rater); repeatability = {factor:.3f} x s_w (Bland & Altman 1996).")
        if per_rater:
            once = [str(raters[j]) for j in range(k) if dfs[j] == 0]
            for j in np.flatnonzero(dfs > 0):
                df_by_rater[str(raters[j])] = float(dfs[j])
                rows.extend(_within_rows(math.sqrt(float(squares[j]) / float(dfs[j])),
                                         float(dfs[j]), factor, level,
                                         int((counts[:, j] > 0).sum()), raters,
                                         rater=str(raters[j])))
            notes.append(
                "Within-subject SD of each rater or method from the one-way analysis of "
                "variance of its own replicates, on its n(m - 1) df ("
                + ", ".join(f"{name} {df:g}" for name, df in df_by_rater.items())
                + "), chi-square intervals (Bland & Altman 1999, section 5); the pooled SD "
                "assumes they share one within-subject variance."
                + (f" None for {', '.join(once)}: it measured each subject once."
                   if once else ""))
    else:
        notes.append("No replicates: the within-subject SD, repeatability coefficient and "
                     "CV need repeated measurements of a subject by the same rater.")
    model = "twoway" if k >= 2 else "oneway"
    separate = replicates and model == "twoway"
    check_design_size(m.n_subjects, k, "The SEM")
    moments = (moment_sums(counts, sums, within) if replicates
               else single_moment_sums(observed, centred))
    c = henderson(moments, k, model, separate)
    variance = float(c.interaction + c.error + (c.raters if type == "agreement" else 0.0))
    sem = math.sqrt(variance) if variance >= 0 else math.nan
    if separate:
        boot = moment_bootstrap(counts, sums, within,
                                partial(_sem_of, k=k, model=model, replicates=True, type=type),
                                n_resamples=n_resamples, rng=rng, progress=progress)
        low, high = boot.interval(confidence_level=level, method="percentile")
        sem_ci = ConfidenceInterval(float(low), float(high), level, "percentile")
        notes.append(f"SEM interval: percentile bootstrap of subjects ({n_resamples:,} "
                     "resamples).")
    elif model == "oneway" or type == "consistency":
        low, high = chi2_sd_interval(sem, float(c.df_error), level)
        sem_ci = ConfidenceInterval(low, high, level, "chi2")
        notes.append(f"SEM interval: chi-square on {float(c.df_error):g} error df.")
    else:
        n0 = float(c.n0)
        coef = np.array([1 / n0, 1 - 1 / n0])
        low, high, nu = _satterthwaite_sd(coef, np.array([float(c.ms_raters),
                                                           float(c.ms_error)]),
                                          np.array([float(c.df_raters), float(c.df_error)]),
                                          level)
        sem_ci = ConfidenceInterval(low, high, level, "chi2")
        notes.append(f"SEM interval: chi-square on Satterthwaite's {nu:.2f} df "
                     "(Satterthwaite 1946).")
    if not math.isfinite(sem):
        warnings.warn("The SEM is undefined (nan): the estimated error variance is negative.",
                      DegenerateDataWarning, stacklevel=2)
    rows.append(_row(f"Standard error of measurement ({type})", "SEM", sem, sem_ci, n, raters))
    rows.append(_row("Smallest detectable change", "SDC", factor * sem,
                     ConfidenceInterval(factor * sem_ci.low, factor * sem_ci.high, level,
                                        sem_ci.method), n, raters))
    if replicates:
        values = m.value
        sd = float(np.std(values, ddof=1)) if values.size > 1 else math.nan
    else:  # from the moments: within subjects plus between subjects' means
        sd = _moment_sd(moments, k)
    icc = float(components_icc(c.subjects, c.raters, c.interaction + c.error, model,
                               type if model == "twoway" else "agreement", "single", k))
    rows.append(_row("SEM from SD x sqrt(1 - ICC of single readings)" if replicates
                     else "SEM from SD x sqrt(1 - ICC)", "SEM_icc",
                     sd * math.sqrt(1 - icc) if icc <= 1 else math.nan,
                     ConfidenceInterval(math.nan, math.nan, level, "none"), n, raters))
    notes.append(f"SEM_icc: SD of all measurements {sd:.4g} x sqrt(1 - ICC), ICC = {icc:.4f} "
                 "(single measurement): a comparison, without interval.")
    if replicates and (values > 0).all():
        log_stats = cell_statistics(Measurements(m.subject, m.rater, np.log(values),
                                                 m.raters, m.subjects))
        s_log = math.sqrt(float(log_stats[3].sum()) / df_within)
        low, high = chi2_sd_interval(s_log, df_within, level)
        rows.append(_row("Within-subject CV (log method)", "CV",
                         math.sqrt(math.expm1(s_log ** 2)),
                         ConfidenceInterval(math.sqrt(math.expm1(low ** 2)),
                                            math.sqrt(math.expm1(high ** 2)), level, "chi2"),
                         n, raters))
        multi = counts >= 2
        mean = cell_mean + centre
        cell_var = np.bincount(cell, weights=deviation * deviation,
                               minlength=counts.size).reshape(counts.shape)
        cv2 = np.where(multi, cell_var / np.maximum(counts - 1, 1) / (mean * mean), 0.0)
        per_subject = np.column_stack([cv2.sum(axis=1), multi.sum(axis=1)])
        stat = MomentStatistic(per_subject, _rms_cv)
        boot = bootstrap_counts(np.ones(m.n_subjects, dtype=np.int64), stat,
                                n_resamples=n_resamples, rng=rng, progress=progress)
        low, high = boot.interval(confidence_level=level, method="percentile")
        rows.append(_row("Within-subject CV (root mean square)", "CV_rms",
                         float(_rms_cv(per_subject.sum(axis=0)[None, :])[0]),
                         ConfidenceInterval(float(low), float(high), level, "percentile"),
                         n, raters))
        notes.append("CV: log method sqrt(exp(s_log^2) - 1), chi-square interval; CV_rms: "
                     "root mean square of the cells' SD/mean, percentile bootstrap (Bland "
                     "2006, 'How should I calculate a within-subject coefficient of "
                     "variation?').")
    elif replicates:
        notes.append("No CV: it needs positive measurements.")
    main = next(q for q in rows if q.symbol == "SEM")
    return MeasurementErrorResult(
        coefficient="Measurement error", symbol="SEM", estimate=main.estimate, se=math.nan,
        ci=main.ci, n_subjects=n, raters=raters, notes=tuple(notes), type=type, units=units,
        quantities=tuple(rows), sigma2_subjects=float(c.subjects),
        sigma2_raters=float(c.raters), sigma2_interaction=float(c.interaction),
        sigma2_error=float(c.error), df_within=df_within if replicates else math.nan,
        df_within_by_rater=df_by_rater, n_measurements=m.n_measurements,
    )
