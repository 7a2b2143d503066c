"""Kendall's coefficient of concordance W, with its chi-square test and a bootstrap."""

from __future__ import annotations

import math
import warnings
from dataclasses import dataclass
from functools import partial
from typing import Any, ClassVar

import numpy as np

from irr._statistics import Coarsening, Statistics
from irr._validation import DegenerateDataWarning, check_choice
from irr.coefficients.kendall import kendall_kernel, kendall_w
from irr.estimators.common import (
    complete_patterns,
    nan_interval,
    score_patterns,
)
from irr.inference.options import BOOTSTRAP_METHODS, InferenceOptions
from irr.inference.plan import ResamplingPlan
from irr.results import ConfidenceInterval, Result
from irr.summary import listwise_note

__all__ = ["KendallResult", "kendall"]


@dataclass(frozen=True, eq=False, kw_only=True, repr=False)
class KendallResult(Result):
    """Kendall's W with its chi-square test (``statistic``, ``df``, ``pvalue``).

    Adds ``df`` (n - 1), ``correct_ties`` and ``ties`` (the tie sum T), and the F form
    of the test (Kendall & Babington Smith 1939): ``f_statistic`` (m - 1) W / (1 - W) on
    ``f_df1`` = n - 1 - 2/m and ``f_df2`` = (m - 1) f_df1 degrees of freedom, with
    ``f_pvalue`` (better than the chi-square for few subjects). W has no
    standard error; its intervals come from the subject bootstrap (``conf_int(method=
    'percentile')``, ``'basic'`` or ``'bca'``), and the default ``ci`` is undefined
    (method ``'none'``) unless the bootstrap was asked for.

    Examples
    --------
    >>> import irr
    >>> res = irr.Agreement.from_frame(irr.datasets.load("anxiety")).kendall_w()
    >>> round(res.estimate, 4), res.df, round(res.statistic, 2)
    (0.5397, 19, 30.76)
    """

    scale: str | None = None
    statistic_name: str = "chi2"

    df: int
    correct_ties: bool
    ties: float
    f_statistic: float = math.nan
    f_df1: float = math.nan
    f_df2: float = math.nan
    f_pvalue: float = math.nan
    bounds: tuple[float, float] = (0.0, 1.0)

    interval_methods: ClassVar[tuple[str, ...]] = ("none", *BOOTSTRAP_METHODS)

    def _interval(self, level: float, method: str) -> ConfidenceInterval:
        """``'none'`` (no interval: W has no standard error) or a bootstrap interval."""
        if method == "none":
            return nan_interval(level, "none")
        return super()._interval(level, method)

    def _extras(self) -> dict[str, Any]:
        return {"df": self.df, "correct_ties": self.correct_ties, "ties": self.ties,
                "f_statistic": self.f_statistic, "f_df1": self.f_df1, "f_df2": self.f_df2,
                "f_pvalue": self.f_pvalue}


def kendall(
    stats: Statistics, correct_ties: bool, options: InferenceOptions, plan: ResamplingPlan
) -> KendallResult:
    """Kendall's W of rated subjects (see :meth:`irr.Agreement.kendall_w`).

    ``options.ci`` None gives no interval; a bootstrap method draws one over subjects
    (complete subjects only, as for the estimate).
    """
    from scipy.special import chdtrc, fdtrc

    if not isinstance(correct_ties, (bool, np.bool_)):
        raise TypeError(f"`correct_ties` must be True or False; got {correct_ties!r}.")
    if options.ci is not None:
        check_choice(options.ci, "ci", KendallResult.interval_methods)
    correct_ties = bool(correct_ties)
    values, complete = score_patterns(stats, "Kendall's W")
    x, multiplicity, dropped = complete_patterns(values, complete, stats.multiplicity,
                                                 "Kendall's W", stats.raters)
    n = int(multiplicity.sum())
    parts = kendall_w(x, correct_ties, multiplicity)
    if math.isnan(parts.w):
        warnings.warn(
            "Kendall's W is undefined (nan): every rater gave every subject the same rank.",
            DegenerateDataWarning, stacklevel=3,
        )
    df = n - 1
    notes = [
        "Raters rank the subjects (ties get mid-ranks); chi-square test of W = 0: "
        f"m (n - 1) W on {df} df (large-sample)."
        + (" Tie-corrected." if correct_ties else " Not corrected for ties."),
        "No standard error for W; an interval, when asked for (a bootstrap `ci`: "
        "'percentile', 'basic' or 'bca'), comes from the subject bootstrap.",
    ]
    m = x.shape[1]
    f_df1 = n - 1 - 2 / m
    f_df2 = (m - 1) * f_df1
    if math.isnan(parts.w) or f_df1 <= 0:
        f = f_p = math.nan
    elif parts.w >= 1:
        f, f_p = math.inf, 0.0
    else:
        f = (m - 1) * parts.w / (1 - parts.w)
        f_p = float(fdtrc(f_df1, f_df2, f))
    if math.isfinite(f_df1) and f_df1 > 0:
        notes.append(f"F form: F = (m - 1) W / (1 - W) = {f:.4g} on ({f_df1:.4g}, "
                     f"{f_df2:.4g}) df, p = {f_p:.4g} (Kendall & Babington Smith 1939).")
    notes.extend(listwise_note(dropped))
    result = KendallResult(
        coefficient="Kendall's W",
        symbol="W",
        estimate=parts.w,
        se=math.nan,
        statistic=parts.chi2,
        pvalue=float(chdtrc(df, parts.chi2)) if not math.isnan(parts.chi2) else math.nan,
        alternative="greater",
        ci=nan_interval(options.confidence_level, "none"),
        n_subjects=n,
        n_missing=dropped,
        n_incomplete=stats.n_missing,
        raters=stats.raters,
        notes=tuple(notes),
        df=df,
        correct_ties=correct_ties,
        ties=parts.ties,
        f_statistic=f,
        f_df1=f_df1,
        f_df2=f_df2,
        f_pvalue=f_p,
    )
    kept = Coarsening(np.where(complete, np.cumsum(complete) - 1, -1), x)
    recipe = plan.recipe(
        partial(_complete_w, kept, correct_ties),
        options, keep=complete,  # listwise: incomplete subjects are not resampled
    )
    return result.with_bootstrap(recipe, options.ci)


def _complete_w(kept: Coarsening, correct_ties: bool, fine: np.ndarray) -> np.ndarray:
    """Kendall's W of resampled counts over the fine patterns, (b, P) -> (b,), on the
    complete patterns `kept` maps them to.

    Module-level (bound with :func:`functools.partial`), so a result's bootstrap recipe
    pickles and can still be drawn after unpickling.
    """
    return kendall_kernel(kept.patterns, kept.apply(fine), correct_ties)
