"""Cohen's kappa and weighted kappa of two raters, from their agreement table."""

from __future__ import annotations

import math
import warnings
from typing import Any

import numpy as np

from irr._statistics import Statistics
from irr._validation import DegenerateDataWarning, check_choice
from irr.coefficients.kappa import kappa_from_counts, kappa_max, kappa_parts, kappa_variances
from irr.inference.options import InferenceOptions
from irr.inference.plan import ResamplingPlan
from irr.results import KappaResult, normal_pvalue, wald_interval
from irr.weights import agreement_weights, weight_name

__all__ = ["describe_scores", "kappa", "weights_note"]


def describe_scores(scores: np.ndarray | None) -> str:
    """The category scores as ``[1, 2, 3]`` (the first eight), for notes.

    Examples
    --------
    >>> describe_scores(np.array([1.0, 2.5]))
    '[1, 2.5]'
    """
    if scores is None:
        return "(none)"
    shown = ", ".join(f"{s:g}" for s in scores[:8])
    return f"[{shown}{', ...' if len(scores) > 8 else ''}]"


def weights_note(name: str, scores: np.ndarray | None, source: str = "") -> list[str]:
    """The note saying which agreement weights were used (none when unweighted)."""
    if name == "unweighted":
        return []
    if name == "custom":
        return ["Custom agreement weights."]
    return [f"{name.capitalize()} agreement weights{source} on category scores "
            f"{describe_scores(scores)}."]


def kappa(
    stats: Statistics, weights: Any, options: InferenceOptions, plan: ResamplingPlan
) -> KappaResult:
    """Cohen's (weighted) kappa with Fleiss-Cohen-Everitt SEs and a bootstrap recipe.

    See :meth:`irr.Agreement.kappa` for the definitions.

    Examples
    --------
    >>> import irr
    >>> ag = irr.Agreement([1, 2, 3, 3, 2, 1], [1, 2, 3, 2, 2, 1])
    >>> res = kappa(ag.statistics, None, InferenceOptions(), ResamplingPlan(
    ...     ag.statistics.multiplicity))
    >>> round(res.estimate, 4)
    0.75
    """
    check_choice(options.ci, "ci", KappaResult.interval_methods)
    stats.require_raters("kappa", exactly=2)
    w = agreement_weights(weights, stats.n_categories, stats.scores)
    name = weight_name(weights)
    table = stats.pair_table
    n = int(table.sum())
    if n < 2:
        raise ValueError(
            f"kappa needs at least two subjects rated by both raters; {n} are "
            f"({stats.n_missing} left out for missing ratings)."
        )
    parts = kappa_parts(table, w)
    estimate = float(parts.kappa)
    var, var0 = kappa_variances(table, w)
    se, se0 = math.sqrt(float(var)), math.sqrt(float(var0))
    notes = [
        "SE: Fleiss, Cohen & Everitt (1969), under the alternative (for the interval); "
        "z uses the SE under H0."
    ]
    if math.isnan(estimate):
        warnings.warn(
            "kappa is undefined (nan): expected agreement is 1 because both raters "
            "used a single category.",
            DegenerateDataWarning,
            stacklevel=3,
        )
        statistic = best = math.nan
    else:
        statistic = estimate / se0 if se0 > 0 else math.nan
        best = kappa_max(table, w)
    notes += weights_note(name, stats.scores)
    if stats.n_missing:
        notes.append(f"{stats.n_missing} subject(s) with a missing rating were left out.")
    cells = stats.pair_cells
    result = KappaResult(
        coefficient="Cohen's kappa" if name == "unweighted" else f"Weighted kappa ({name})",
        symbol="κ" if name == "unweighted" else "κw",
        estimate=estimate,
        se=se,
        se0=se0,
        statistic=statistic,
        pvalue=normal_pvalue(statistic, options.alternative),
        alternative=options.alternative,
        ci=wald_interval(estimate, se, options.confidence_level, (-1.0, 1.0)),
        n_subjects=n,
        n_missing=stats.n_missing,
        n_incomplete=stats.n_missing,
        raters=stats.raters,
        notes=tuple(notes),
        observed_agreement=float(parts.observed),
        expected_agreement=float(parts.expected),
        kappa_max=best,
        weights=name,
        weight_matrix=w,
        categories=tuple(stats.categories),
    )
    recipe = plan.recipe(lambda fine: kappa_from_counts(cells.apply(fine), w), options)
    return result.with_bootstrap(recipe, options.ci)
