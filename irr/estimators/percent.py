"""Percent agreement: the share of agreeing ratings, two raters or many."""

from __future__ import annotations

import math
from dataclasses import replace

from irr._statistics import Statistics
from irr._validation import check_choice
from irr.estimators import chance_corrected
from irr.inference.options import InferenceOptions
from irr.inference.plan import ResamplingPlan
from irr.results import ProportionResult, wilson_interval
from irr.weights import tolerance_agreement

__all__ = ["percent_agreement"]


def percent_agreement(
    stats: Statistics, tolerance: float, options: InferenceOptions, plan: ResamplingPlan
) -> ProportionResult | chance_corrected.ChanceCorrectedResult:
    """Two raters: the share of subjects they agree on (Wilson interval); more raters or
    counts: Gwet's (2014) multi-rater p_a (Wald interval). See
    :meth:`irr.Agreement.percent_agreement`.

    ``options.ci`` None keeps each form's default interval.
    """
    if not stats.by_rater or stats.n_raters != 2:
        return chance_corrected.percent_agreement(stats, tolerance, options, plan)
    if options.ci is not None:
        check_choice(options.ci, "ci", ProportionResult.interval_methods)
    w = tolerance_agreement(tolerance, stats.n_categories, stats.scores).astype(float)
    table = stats.pair_table
    n = int(table.sum())
    if n == 0:
        raise ValueError(
            "Percent agreement needs at least one subject rated by both raters; none is "
            f"({stats.n_missing} left out for missing ratings)."
        )
    agree = int((table * w).sum())
    p = agree / n
    notes = ["Percent agreement: Wilson score interval."]
    if tolerance:
        notes.append(f"Ratings within {tolerance:g} count as agreeing.")
    result = ProportionResult(
        coefficient="Percent agreement",
        symbol="po",
        estimate=p,
        se=math.sqrt(p * (1 - p) / n),
        ci=wilson_interval(agree, n, options.confidence_level),
        n_subjects=n,
        n_missing=stats.n_missing,
        n_incomplete=stats.n_missing,
        raters=stats.raters,
        notes=tuple(notes),
        count=agree,
    )
    cells = stats.pair_cells
    flat = w.ravel()

    def share(fine):
        counts = cells.apply(fine)
        return counts @ flat / counts.sum(axis=1)

    result = result.with_bootstrap(plan.recipe(share, options), options.ci)
    if options.ci == "wald":
        result = replace(result, ci=result.conf_int(options.confidence_level, "wald"))
    return result
