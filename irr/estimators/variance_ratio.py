"""Robinson's A and Finn's coefficient: agreement of scores as ratios of ANOVA sums of
squares (subjects x raters, complete subjects)."""

from __future__ import annotations

import math
import warnings
from dataclasses import dataclass
from functools import partial
from typing import ClassVar

import numpy as np

from irr._statistics import Statistics
from irr._validation import DegenerateDataWarning, check_choice
from irr.coefficients.icc import mean_squares
from irr.estimators.common import complete_patterns, nan_interval, score_note, score_patterns
from irr.inference.options import BOOTSTRAP_METHODS, InferenceOptions
from irr.inference.plan import ResamplingPlan
from irr.results import ConfidenceInterval, Result
from irr.summary import listwise_note

__all__ = ["VarianceRatioResult", "batch_sums_of_squares", "finn", "robinson_a"]


@dataclass(frozen=True, eq=False, kw_only=True, repr=False)
class VarianceRatioResult(Result):
    """Robinson's A or Finn's coefficient: no standard error, so no Wald interval; the
    default ``ci`` is undefined (method ``'none'``) unless a bootstrap was asked for
    (``conf_int(method='percentile')``, ``'basic'``, ``'bca'``).

    Examples
    --------
    >>> import irr
    >>> res = irr.Agreement.from_frame(irr.datasets.load("anxiety")).robinson_a()
    >>> res.ci.method
    'none'
    """

    scale: str | None = None
    interval_methods: ClassVar[tuple[str, ...]] = ("none", *BOOTSTRAP_METHODS)

    def _interval(self, level: float, method: str) -> ConfidenceInterval:
        if method == "none":
            return nan_interval(level, "none")
        return super()._interval(level, method)


#: Finn's models: the mean square compared with the expected variance of random ratings.
FINN_MODELS = ("oneway", "twoway")


def batch_sums_of_squares(x: np.ndarray, counts: np.ndarray) -> tuple[np.ndarray, ...]:
    """Sums of squares of subjects, raters, error and within subjects for a batch of
    pattern counts: `x` (P, m) complete score rows, `counts` (b, P) -> four (b,) arrays.

    Examples
    --------
    >>> x = np.array([[1.0, 2.0], [3.0, 3.0], [2.0, 4.0]])
    >>> [float(v[0]) for v in batch_sums_of_squares(x, np.array([[1, 1, 1]]))]
    [3.0, 1.5, 1.0, 2.5]
    """
    counts = np.asarray(counts, dtype=float)
    m = x.shape[1]
    centred = x - x.mean()  # one shift for every resample: sums of squares are invariant
    n = counts.sum(axis=1)
    row = centred.mean(axis=1)  # (P,)
    grand = counts @ row / n  # (b,)
    within_rows = ((centred - row[:, None]) ** 2).sum(axis=1)  # (P,)
    ss_rows = m * (counts @ row**2 - n * grand**2)
    col = counts @ centred / n[:, None]  # (b, m)
    ss_cols = n * ((col - grand[:, None]) ** 2).sum(axis=1)
    ss_within = counts @ within_rows
    return ss_rows, ss_cols, np.maximum(ss_within - ss_cols, 0.0), ss_within


def _complete(stats: Statistics, what: str) -> tuple[np.ndarray, np.ndarray, np.ndarray, int]:
    values, complete = score_patterns(stats, what)
    x, multiplicity, dropped = complete_patterns(values, complete, stats.multiplicity, what,
                                                 stats.raters)
    return x, multiplicity, complete, dropped


def robinson_a(
    stats: Statistics, options: InferenceOptions, plan: ResamplingPlan
) -> VarianceRatioResult:
    """Robinson's A (see :meth:`irr.Agreement.robinson_a`)."""
    if options.ci is not None:
        check_choice(options.ci, "ci", VarianceRatioResult.interval_methods)
    x, multiplicity, complete, dropped = _complete(stats, "Robinson's A")
    ms = mean_squares(x, multiplicity)
    n, m = ms.n, ms.k
    ss_rows, ss_error = float(ms.rows) * (n - 1), float(ms.error) * (n - 1) * (m - 1)
    estimate = ss_rows / (ss_rows + ss_error) if ss_rows + ss_error > 0 else math.nan
    if math.isnan(estimate):
        warnings.warn("Robinson's A is undefined (nan): the ratings do not vary between "
                      "subjects nor within them beyond the raters' means.",
                      DegenerateDataWarning, stacklevel=3)
    notes = ["A = SS_subjects / (SS_subjects + SS_residual) of the two-way subjects x raters "
             "ANOVA (Robinson 1957), = (1 + (m - 1) ICC(C,1)) / m; no standard error: an "
             "interval, when asked for, is the subject bootstrap's.",
             *score_note(stats), *listwise_note(dropped)]
    result = VarianceRatioResult(
        coefficient="Robinson's A", symbol="Robinson's A", estimate=estimate, se=math.nan,
        ci=nan_interval(options.confidence_level, "none"), n_subjects=n, n_missing=dropped,
        n_incomplete=stats.n_missing, raters=stats.raters, notes=tuple(notes),
        bounds=(0.0, 1.0))
    recipe = plan.recipe(partial(_robinson_of_counts, x, np.flatnonzero(complete)), options,
                         keep=complete)
    return result.with_bootstrap(recipe, options.ci)


def finn(
    stats: Statistics, model: str, levels: int | None, options: InferenceOptions,
    plan: ResamplingPlan,
) -> VarianceRatioResult:
    """Finn's coefficient (see :meth:`irr.Agreement.finn`)."""
    from scipy.special import chdtr

    check_choice(model, "model", FINN_MODELS)
    if options.ci is not None:
        check_choice(options.ci, "ci", VarianceRatioResult.interval_methods)
    x, multiplicity, complete, dropped = _complete(stats, "Finn's coefficient")
    scores = np.asarray(stats.scores, dtype=float)
    if levels is None:
        expected = float(np.var(scores))  # uniform over the declared scale's scores
        scale_note = (f"Expected variance of random ratings: the variance of the uniform "
                      f"distribution over the {scores.size} category scores, {expected:.4g}")
    else:
        if isinstance(levels, bool) or not isinstance(levels, (int, np.integer)) or levels < 2:
            raise ValueError(f"`levels` must be an integer of at least 2; got {levels!r}.")
        expected = (levels**2 - 1) / 12
        scale_note = (f"Expected variance of random ratings: (s^2 - 1)/12 = {expected:.4g} "
                      f"for s = {levels} levels (R irr's s.levels)")
    if not expected > 0:
        raise ValueError("Finn's coefficient needs a scale of at least two category scores "
                         "(declare it with `categories=` or pass `levels=`).")
    ms = mean_squares(x, multiplicity)
    n, m = ms.n, ms.k
    unit = 2.0 ** (2 * int(ms.log2_scale))
    if model == "oneway":
        observed, df2 = float(ms.within) * unit, n * (m - 1)
        which = "MS within subjects"
    else:
        observed, df2 = float(ms.error) * unit, (n - 1) * (m - 1)
        which = "MS error (subjects x raters)"
    estimate = 1.0 - observed / expected
    with np.errstate(divide="ignore"):
        f = expected / observed if observed > 0 else math.inf
    # F(inf, df2) = 1 / (chi2_df2 / df2): P(F > f) = P(chi2_df2 < df2 / f)
    pvalue = float(chdtr(df2, df2 / f)) if f > 0 else 1.0
    notes = [f"Finn (1970), {model} model: 1 - {which} / expected variance. "
             + scale_note + ".",
             f"F test of no agreement beyond random ratings: F = expected / observed on "
             f"(inf, {df2}) df.", *score_note(stats), *listwise_note(dropped)]
    result = VarianceRatioResult(
        coefficient=f"Finn's coefficient ({model})", symbol=f"Finn's coefficient ({model})",
        estimate=estimate,
        se=math.nan, statistic=f, pvalue=pvalue, alternative="greater",
        ci=nan_interval(options.confidence_level, "none"), n_subjects=n, n_missing=dropped,
        n_incomplete=stats.n_missing, raters=stats.raters, notes=tuple(notes),
        bounds=(-math.inf, 1.0), statistic_name="F")
    recipe = plan.recipe(partial(_finn_of_counts, x, np.flatnonzero(complete), model,
                                 expected), options, keep=complete)
    return result.with_bootstrap(recipe, options.ci)


def _robinson_of_counts(x: np.ndarray, rows: np.ndarray, fine: np.ndarray) -> np.ndarray:
    """Robinson's A of resampled counts over the fine patterns, (b, P) -> (b,)."""
    ss_rows, _, ss_error, _ = batch_sums_of_squares(x, np.asarray(fine)[:, rows])
    total = ss_rows + ss_error
    with np.errstate(invalid="ignore", divide="ignore"):
        return np.where(total > 0, ss_rows / total, np.nan)


def _finn_of_counts(x: np.ndarray, rows: np.ndarray, model: str, expected: float,
                    fine: np.ndarray) -> np.ndarray:
    """Finn's coefficient of resampled counts over the fine patterns, (b, P) -> (b,)."""
    counts = np.asarray(fine, dtype=float)[:, rows]
    n, m = counts.sum(axis=1), x.shape[1]
    _, _, ss_error, ss_within = batch_sums_of_squares(x, counts)
    observed = (ss_within / (n * (m - 1)) if model == "oneway"
                else ss_error / ((n - 1) * (m - 1)))
    return 1.0 - observed / expected
