"""Intraclass correlations (McGraw & Wong 1996) with their F tests and F-based intervals
(exact for the one-way and consistency forms, Satterthwaite's approximation for absolute
agreement)."""

from __future__ import annotations

import math
import warnings
from dataclasses import dataclass, field, replace
from typing import Any, ClassVar

import numpy as np
import pandas as pd

from irr._numbers import format_df
from irr._statistics import Statistics
from irr._validation import DegenerateDataWarning, check_choice, check_confidence_level
from irr.coefficients.icc import (
    FORMS,
    MeanSquares,
    form_description,
    icc_estimate,
    icc_f_test,
    icc_interval,
    icc_null_test,
    mean_squares,
    shrout_fleiss_name,
)
from irr.estimators.common import (
    complete_patterns,
    complete_subjects,
    score_note,
    score_patterns,
)
from irr.inference.keywords import ICC_TEXTS
from irr.inference.options import InferenceOptions
from irr.results import ConfidenceInterval, Result
from irr.summary import listwise_note

__all__ = [
    "FORMS",
    "F_METHODS",
    "ICC_TEXTS",
    "ICCResult",
    "check_form",
    "f_method",
    "icc",
    "icc_from_values",
    "icc_of_values",
    "icc_table",
]

_MODELS = ("oneway", "twoway")
_TYPES = ("agreement", "consistency")
_UNITS = ("single", "average")
_MCGRAW_WONG = {
    ("oneway", "agreement", "single"): "ICC(1)",
    ("oneway", "agreement", "average"): "ICC(k)",
    ("twoway", "agreement", "single"): "ICC(A,1)",
    ("twoway", "agreement", "average"): "ICC(A,k)",
    ("twoway", "consistency", "single"): "ICC(C,1)",
    ("twoway", "consistency", "average"): "ICC(C,k)",
}



#: The names of the F-based intervals: exact (one-way, consistency) and Satterthwaite's
#: approximation (absolute agreement, McGraw & Wong 1996, Table 7).
F_METHODS = ("exact", "satterthwaite")


def f_method(model: str, type: str) -> str:
    """``'satterthwaite'`` for the two-way absolute-agreement forms, else ``'exact'``."""
    return "satterthwaite" if (model, type) == ("twoway", "agreement") else "exact"


@dataclass(frozen=True, eq=False, kw_only=True, repr=False)
class ICCResult(Result):
    """An intraclass correlation with its F test and F-based interval.

    ``statistic`` is the F statistic of H0: ICC = 0 on ``df1`` and ``df2`` degrees of
    freedom (one-sided, ``alternative='greater'``), or of H0: ICC = ``null_value`` (R
    irr's ``r0``; McGraw & Wong 1996, Table 8: ``df2`` is then Satterthwaite's, not an
    integer, for the absolute-agreement forms); ``ci`` is the F-based interval of
    McGraw & Wong (1996, Table 7): exact (``ci.method == 'exact'``) for the one-way and
    consistency forms, approximate (``'satterthwaite'``) for absolute agreement, whose
    denominator df ``df_ci`` are Satterthwaite's. Where the formulas give no interval
    (a point, or crossed ends with few subjects) both ends are nan, with a warning and a
    note. Also ``model``, ``type``, ``unit``, ``shrout_fleiss`` (e.g.
    ``'ICC(2,1)'``), ``mcgraw_wong`` (e.g. ``'ICC(A,1)'``) and the mean squares
    ``ms_rows``, ``ms_columns``, ``ms_error``, ``ms_within``.

    Examples
    --------
    >>> import irr
    >>> ag = irr.Agreement.from_frame(irr.datasets.load("anxiety"))
    >>> res = ag.icc("twoway", "agreement", "single")
    >>> res.coefficient, res.shrout_fleiss, round(res.estimate, 3)
    ('ICC(2,1)', 'ICC(2,1)', 0.198)
    >>> round(res.statistic, 2), res.df1, res.df2
    (1.83, 19, 38)
    >>> [round(x, 4) for x in res.ci]
    [-0.0389, 0.4936]
    """

    scale: str | None = "koo-li"
    statistic_name: str = "F"

    model: str
    type: str
    unit: str
    shrout_fleiss: str
    mcgraw_wong: str
    df1: int
    df2: float
    df_ci: float
    ms_rows: float
    ms_columns: float
    ms_error: float
    ms_within: float
    n_raters: int
    bounds: tuple[float, float] = (-math.inf, 1.0)
    #: The mean squares of the ratings divided by a power of two (see
    #: :class:`irr.coefficients.icc.MeanSquares`): the ICC, F and interval are computed from
    #: these, so they stay right when ``ms_*`` in the data's units under- or overflow.
    scaled_mean_squares: tuple[float, float, float, float] = field(default=(), repr=False)
    #: The most replicates averaged into one (subject, rater) cell before the ICC was
    #: computed (0: one value per cell). An ICC of replicate means is the reliability of a
    #: rater's mean of its readings, not of one reading: its name says so
    #: (:attr:`form_name`, ``coefficient``).
    replicate_means: int = 0

    interval_methods: ClassVar[tuple[str, ...]] = (*F_METHODS, *Result.interval_methods)

    def _interval(self, level: float, method: str) -> ConfidenceInterval:
        """The F-based interval (the default; ``'exact'`` for the one-way and consistency
        forms, ``'satterthwaite'`` for absolute agreement) or the inherited methods."""
        if method in F_METHODS:
            own = f_method(self.model, self.type)
            if method != own:
                raise ValueError(
                    f"`method='{method}'` does not apply to {self.coefficient}: its F-based "
                    f"interval is method='{own}' ("
                    + ("approximate, with Satterthwaite's df" if own == "satterthwaite"
                       else "exact under the model") + ")."
                )
            scaled = self.scaled_mean_squares or (
                self.ms_rows, self.ms_columns, self.ms_error, self.ms_within)
            ms = MeanSquares(*(np.float64(v) for v in scaled), self.n_subjects, self.n_raters)
            low, high, _ = icc_interval(ms, self.model, self.type, self.unit, level)
            return ConfidenceInterval(float(low), float(high), level, own)
        return super()._interval(level, method)

    @property
    def form_name(self) -> str:
        """McGraw & Wong's name of the form, with ``of replicate means`` when each cell's
        replicates were averaged (``'ICC(A,1) of replicate means'``)."""
        return self.mcgraw_wong + (" of replicate means" if self.replicate_means else "")

    def _extras(self) -> dict[str, Any]:
        return {
            "replicate_means": self.replicate_means,
            "model": self.model,
            "type": self.type,
            "unit": self.unit,
            "shrout_fleiss": self.shrout_fleiss,
            "mcgraw_wong": self.mcgraw_wong,
            "df1": self.df1,
            "df2": self.df2,
            "df_ci": self.df_ci,
            "ms_rows": self.ms_rows,
            "ms_columns": self.ms_columns,
            "ms_error": self.ms_error,
            "ms_within": self.ms_within,
        }


def _interval_note(estimate: float, low: float, high: float, level: float) -> list[str]:
    """A note (and a warning) when the F-based formulas give no interval."""
    if math.isnan(estimate) or not (math.isnan(low) or math.isnan(high)):
        return []
    message = (
        f"No {100 * level:g}% F-based interval is reported (nan): at these mean squares the "
        "formulas give none, only a point (F = 0: subjects' means identical; or F infinite: "
        "no error variance) or, for absolute agreement, crossed ends or ends that miss the "
        "estimate (few subjects, rater mean square below the error mean square, "
        "Satterthwaite df near 0); with few subjects, more are needed for an interval."
    )
    warnings.warn(message, DegenerateDataWarning, stacklevel=4)
    return [message]


def _range_notes(estimate: float, k: int, unit: str) -> list[str]:
    """Notes (and a warning) for estimates outside [-1, 1], which the formulas allow."""
    if estimate > 1:
        message = (
            f"The ICC estimate {estimate:.4g} exceeds 1: the denominator of the "
            "absolute-agreement average-measure formula, MSR + (MSC - MSE)/n, is negative "
            "(the rater and error mean squares swamp the subject one), so the value is not a "
            "correlation; it has no band."
        )
        warnings.warn(message, DegenerateDataWarning, stacklevel=4)
        return [message]
    if estimate < -1:
        what = f"an average of {k} raters" if unit == "average" else "a single rater"
        return [
            f"The estimate {estimate:.4g} lies below -1, which the ICC of {what} can when "
            "subjects differ less than chance would make them (MSR well below the error mean "
            "square); it has no band on a [-1, 1] scale."
        ]
    return []


def check_form(model: Any, type: Any, unit: Any) -> tuple[str, str, str]:
    model = check_choice(model, "model", _MODELS)
    type = check_choice(type, "type", _TYPES)
    unit = check_choice(unit, "unit", _UNITS)
    if model == "oneway" and type == "consistency":
        raise ValueError(
            "`type='consistency'` needs `model='twoway'`: the one-way model cannot separate "
            "rater effects from error, so its ICC measures absolute agreement; use "
            "`type='agreement'` (Shrout & Fleiss ICC(1,1) / ICC(1,k))."
        )
    return model, type, unit


def icc_from_values(
    values: np.ndarray,
    complete: np.ndarray,
    raters: tuple[str, ...],
    model: str,
    type: str,
    unit: str,
    confidence_level: float,
    notes: list[str] | None = None,
    multiplicity: np.ndarray | None = None,
    null: float | None = None,
) -> ICCResult:
    """The ICC result of an (n, k) score matrix with its complete-subject mask.

    With `multiplicity` each row of `values` is a subject pattern standing for that many
    subjects (see :func:`irr.coefficients.icc.mean_squares`). `null` is the value r0 of
    the F test's H0: ICC = r0 (None: 0).
    """
    from scipy.special import fdtrc

    model, type, unit = check_form(model, type, unit)
    confidence_level = check_confidence_level(confidence_level)
    if multiplicity is None:
        x, dropped = complete_subjects(values, complete, "The ICC", raters)
    else:
        x, multiplicity, dropped = complete_patterns(values, complete, multiplicity, "The ICC",
                                                     raters)
    ms = mean_squares(x, multiplicity)
    n, k = ms.n, ms.k
    estimate = float(icc_estimate(ms, model, type, unit))
    mw = _MCGRAW_WONG[(model, type, unit)]
    # r0 must leave the single-rater value inside (-1/(k - 1), 1) (Table 8's F needs it)
    lowest = -1.0 / (k - 1) if unit == "single" else -math.inf
    r0 = InferenceOptions(null=null).null_for((lowest, 1.0), mw)
    if r0 == 0:
        f, df1, df2 = icc_f_test(ms, model)
    else:
        f, df1, df_test = icc_null_test(ms, model, type, unit, r0)
        # whole df for the exact forms; Satterthwaite's at r0 for absolute agreement
        df2 = float(df_test) if (model, type) == ("twoway", "agreement") else \
            icc_f_test(ms, model)[2]
    f = float(f)
    if r0 != 0 and math.isnan(f) and not math.isnan(estimate):
        warnings.warn(
            f"The F test of {mw} = {r0:g} is undefined (nan): McGraw & Wong's (1996, "
            "Table 8) denominator a MSC + b MSE is not positive at this negative r0.",
            DegenerateDataWarning, stacklevel=3,
        )
    low, high, df_ci = icc_interval(ms, model, type, unit, confidence_level)
    if math.isnan(estimate):
        warnings.warn(
            "The ICC is undefined (nan): there is no variance between subjects and none "
            "left to compare it with (0/0; e.g. every rating is the same, or every subject "
            "has the same ratings).",
            DegenerateDataWarning, stacklevel=3,
        )
    with np.errstate(over="ignore", under="ignore", invalid="ignore"):
        # the mean squares in the data's units: under- or overflow only when the true
        # value lies outside the float range
        in_units = [float(np.ldexp(v, 2 * ms.log2_scale))
                    for v in (ms.rows, ms.columns, ms.error, ms.within)]
    range_notes = _range_notes(estimate, k, unit)
    sf = shrout_fleiss_name(model, type, unit, k)
    method = f_method(model, type)
    test_text = (f"F test of ICC = 0: F({df1}, {df2}), one-sided; " if r0 == 0 else
                 f"F test of H0: {mw} = {r0:g} (`null={r0:g}`; R irr's r0) against {mw} > "
                 f"{r0:g}: F({df1}, {format_df(df2)}) (McGraw & Wong 1996, Table 8"
                 + ("; denominator df Satterthwaite's at r0" if method == "satterthwaite"
                    else "") + "); ")
    lines = [
        f"{sf} (McGraw & Wong {mw}): {form_description(model, type, unit, k)}.",
        test_text
        + (f"approximate F-based interval with Satterthwaite's df ({float(df_ci):.2f}; McGraw "
           "& Wong 1996, Table 7)." if method == "satterthwaite"
           else "exact F-based interval (McGraw & Wong 1996, Table 7)."),
    ]
    lines.extend(_interval_note(estimate, float(low), float(high), confidence_level))
    lines.extend(range_notes)
    lines.extend(listwise_note(dropped))
    lines.extend(notes or [])
    return ICCResult(
        coefficient=sf,
        symbol=mw,  # McGraw & Wong's form; sentences add the words and Shrout & Fleiss' name
        estimate=estimate,
        se=math.nan,
        statistic=f,
        pvalue=float(fdtrc(df1, df2, f)) if not math.isnan(f) else math.nan,
        alternative="greater",
        ci=ConfidenceInterval(float(low), float(high), confidence_level, method),
        n_subjects=n,
        n_missing=dropped,
        n_incomplete=dropped,
        raters=raters,
        notes=tuple(lines),
        model=model,
        type=type,
        unit=unit,
        shrout_fleiss=sf,
        mcgraw_wong=mw,
        df1=df1,
        df2=df2,
        df_ci=float(df_ci),
        ms_rows=in_units[0],
        ms_columns=in_units[1],
        ms_error=in_units[2],
        ms_within=in_units[3],
        n_raters=k,
        null_value=r0,
        scaled_mean_squares=(float(ms.rows), float(ms.columns), float(ms.error),
                             float(ms.within)),
    )


def icc_of_values(
    values: np.ndarray, raters: tuple[str, ...], model: str, type: str, unit: str,
    confidence_level: float, null: float | None = None,
) -> ICCResult:
    """The ICC of real values (n, k), ``nan`` for a missing one (its subject left out)."""
    complete = ~np.isnan(values).any(axis=1)
    return icc_from_values(values, complete, raters, model, type, unit, confidence_level,
                           null=null)


def icc(
    stats: Statistics, model: str, type: str, unit: str, confidence_level: float,
    null: float | None = None,
) -> ICCResult:
    """The ICC of rated subjects (see :meth:`irr.Agreement.icc`)."""
    check_form(model, type, unit)
    values, complete = score_patterns(stats, "The ICC")
    return icc_from_values(values, complete, stats.raters, model, type, unit,
                           confidence_level, score_note(stats), stats.multiplicity, null)


def of_replicate_means(result: ICCResult, replicates: int) -> ICCResult:
    """`result`, computed on each (subject, rater) cell's mean of up to `replicates`
    readings, named as such (``coefficient``, :attr:`ICCResult.form_name`, a note); with
    `replicates` below 2, `result` unchanged."""
    if replicates < 2:
        return result
    note = (f"Computed on each (subject, rater) cell's mean of its replicates (up to "
            f"{replicates}): the reliability of a rater's mean of its readings, not of one "
            "reading; the ICC by variance components (icc_components, icc_vc) uses every "
            "reading.")
    return replace(result, coefficient=f"{result.coefficient} of replicate means",
                   replicate_means=int(replicates), notes=(*result.notes, note))


def icc_table(results: list[ICCResult]) -> pd.DataFrame:
    """The six forms as one DataFrame, indexed by Shrout & Fleiss' names."""
    rows = []
    for r in results:
        rows.append({
            "model": r.model, "type": r.type, "unit": r.unit, "mcgraw_wong": r.mcgraw_wong,
            "estimate": r.estimate, "F": r.statistic, "df1": r.df1, "df2": r.df2,
            "pvalue": r.pvalue, "ci_low": r.ci.low, "ci_high": r.ci.high,
            "confidence_level": r.ci.confidence_level, "ci_method": r.ci.method,
        })
    frame = pd.DataFrame(rows, index=pd.Index([r.coefficient for r in results], name="icc"))
    return frame

