"""Percent agreement: the share of agreeing ratings, two raters or many."""

from __future__ import annotations

import math
from dataclasses import replace
from functools import partial
from typing import Any

import numpy as np

from irr._lazy import lazy_module
from irr._numbers import format_df
from irr._statistics import Statistics
from irr._validation import check_choice
from irr.inference.keywords import MISSING
from irr.inference.options import InferenceOptions
from irr.inference.plan import ResamplingPlan
from irr.results import ProportionResult, wald_pvalue, wald_statistic, wilson_interval
from irr.summary import listwise_note
from irr.weights import (
    agree_within,
    check_tolerance,
    tolerance_label,
    weight_name,
    within_tolerance,
)

# the pairwise form of three or more raters (and weighted): imported when first asked for,
# not by the share of two raters
chance_corrected = lazy_module("irr.estimators.chance_corrected")

__all__ = ["DEFINITIONS", "percent_agreement"]

#: The definitions of percent agreement, by name.
DEFINITIONS = ("pairwise", "all")


def percent_agreement(
    stats: Statistics,
    tolerance: float,
    options: InferenceOptions,
    plan: ResamplingPlan,
    definition: str = "pairwise",
    missing: str = "available",
    weights: Any = None,
) -> ProportionResult | chance_corrected.ChanceCorrectedResult:
    """Percent agreement by `definition`: see :meth:`irr.Agreement.percent_agreement`.

    Two raters (rater columns or a table): the share of subjects they agree on (Wilson
    interval); the two definitions coincide. More raters or counts: ``'pairwise'`` is
    Gwet's (2014) multi-rater p_a (Wald interval), ``'all'`` the share of subjects rated by
    every rater on whom all their ratings agree (R irr ``agree()``; Wilson interval).

    With `weights` (a scheme or matrix of :func:`irr.weights.agreement_weights`) it is
    Gwet's (2014) weighted percent agreement, the pairwise form with its linearised SE for
    any number of raters (irrCAC's ``pa.coeff.raw(weights=)``): not a share of subjects.

    ``options.ci`` None keeps each form's default interval.
    """
    check_choice(definition, "definition", DEFINITIONS)
    weighted = weight_name(weights) != "unweighted"
    if weighted and (tolerance or definition == "all"):
        raise ValueError(
            f"`weights={weights!r}` gives the weighted pairwise percent agreement (Gwet "
            "2014); it takes neither a `tolerance` (itself 0/1 weights: agreement within it) "
            f"nor `definition='all'` (got tolerance={tolerance!r}, "
            f"definition={definition!r}).")
    two = stats.by_rater and stats.n_raters == 2
    if weighted or (not two and definition == "pairwise"):
        return chance_corrected.percent_agreement(stats, tolerance, options, plan, missing,
                                                  weights)
    check_choice(missing, "missing", MISSING)  # listwise already
    if options.sampling != "subjects":
        raise ValueError(
            f"`sampling={options.sampling!r}` (the jackknife over raters) applies to the "
            "pairwise percent agreement of three or more raters; this is a share of subjects "
            "(use sampling='subjects')."
        )
    if options.ci is not None:
        check_choice(options.ci, "ci", ProportionResult.interval_methods)
    tolerance = check_tolerance(tolerance, stats.scores)
    if two:
        return _two_raters(stats, tolerance, options, plan)
    return _all_raters(stats, tolerance, options, plan)


def _two_raters(
    stats: Statistics, tolerance: float, options: InferenceOptions, plan: ResamplingPlan,
) -> ProportionResult:
    # the occupied cells of the table and the fine patterns: O(n + k), no k x k array
    cells = stats.pair_cells
    n = int(cells.multiplicity.sum())
    if n == 0:
        raise ValueError(
            "Percent agreement needs at least one subject rated by both raters; none is "
            f"({stats.n_missing} left out for missing ratings)."
        )
    # each fine pattern's agreement (0 when a rating is missing): resamples cost
    # O(B x patterns), never dense (B, k^2) tables
    complete = (stats.patterns >= 0).all(axis=1)
    a, b = np.where(complete[:, None], stats.patterns, 0).T
    agrees = np.where(complete, agree_within(a, b, tolerance, stats.scores), 0.0)
    paired = complete.astype(float)

    notes = ["Percent agreement of two raters (pairwise and all-raters agreement coincide): "
             "Wilson score interval."]
    agreeing = agree_within(cells.patterns[:, 0], cells.patterns[:, 1], tolerance, stats.scores)
    return _proportion(stats, "Percent agreement", "po", int(cells.multiplicity[agreeing].sum()), n,
                       stats.n_missing, tolerance, notes, options,
                       plan.recipe(partial(_share, agrees, paired), options, keep=complete))


def _all_raters(
    stats: Statistics, tolerance: float, options: InferenceOptions, plan: ResamplingPlan,
) -> ProportionResult:
    counts = stats.count_patterns
    # the nonzero (pattern, category, count) cells of the (P', k) count rows, row by row
    row, category, count = stats.count_pattern_cells
    ratings = np.bincount(row, weights=count, minlength=counts.size).astype(np.int64)
    full = stats.n_raters if stats.by_rater else int(ratings.max())
    complete = ratings == full
    present = np.bincount(row, minlength=counts.size)  # categories present
    # all ratings agree when no two categories present disagree: one category present,
    # or (with a tolerance) the highest and lowest present scores within it; O(cells)
    if tolerance == 0:
        together = present <= 1
    else:
        score = np.asarray(stats.scores, dtype=float)[category]
        high, low = np.full(counts.size, -np.inf), np.full(counts.size, np.inf)
        rated = present > 0
        start = (np.cumsum(present) - present)[rated]
        if rated.any():
            high[rated] = np.maximum.reduceat(score, start)
            low[rated] = np.minimum.reduceat(score, start)
        together = ~rated | within_tolerance(np.abs(high - low), tolerance)
    agree = complete & together
    n = int(counts.multiplicity[complete].sum())
    if n == 0:
        raise ValueError(
            f"Percent agreement (all raters) needs at least one subject rated by all {full} "
            f"raters; none is ({stats.n_subjects} left out for missing ratings)."
        )
    left_out = stats.n_subjects - n
    agree_f, complete_f = agree.astype(float), complete.astype(float)

    notes = [
        f"Percent agreement (all raters): the share of subjects rated by all {full} raters "
        "on whom every rating agrees, as R irr agree(); Wilson score interval. "
        "Percent agreement (pairwise) is the mean share of agreeing rater pairs (Gwet, 2014)."
    ]
    if left_out:
        notes.extend(listwise_note(left_out))
    return _proportion(stats, "Percent agreement (all raters)", "pa(all)",
                       int(counts.multiplicity[agree].sum()), n, left_out, tolerance, notes,
                       options, plan.recipe(partial(_share, agree_f, complete_f), options,
                                            on="counts", keep=complete))


def _proportion(
    stats: Statistics, name: str, symbol: str, agree: int, n: int, left_out: int,
    tolerance: float, notes: list[str], options: InferenceOptions, recipe: Any,
) -> ProportionResult:
    """The ProportionResult of `agree` of `n` subjects, with its Wilson interval (or the
    interval `options.ci` names)."""
    p = agree / n
    if tolerance:
        notes.append(f"Ratings within {tolerance:g} count as agreeing.")
    within = tolerance_label(tolerance)
    if within[0]:  # the tolerance in the name and symbol: "pa(all, ±1)"
        name = (name[:-1] + within[0] + ")" if name.endswith(")")
                else f"{name} ({within[0][2:]})")
        symbol = (symbol[:-1] + within[1] + ")" if symbol.endswith(")")
                  else f"{symbol}({within[1][2:]})")
    df = options.t_df(n)
    if math.isfinite(df) and options.ci == "wald":
        notes.append(f"Wald interval (`ci='wald'`) with t quantiles on n - 1 = {format_df(df)} "
                     "df (as irrCAC's pa2.table); the Wilson interval has no t form.")
    elif math.isfinite(df):  # the interval is not on t: say so, and what the test uses
        kind = "Wilson" if options.ci in (None, "wilson") else "bootstrap"
        tested = (f"; the test uses t on n - 1 = {format_df(df)} df"
                  if options.null is not None else "")
        notes.append(f"The {kind} interval has no t form (`ci='wald'` gives irrCAC's pa2.table "
                     f"interval, with t quantiles on n - 1 = {format_df(df)} df){tested}.")
    fpc = options.fpc(n)
    if fpc != 1.0:
        notes.append(options.population_note(n))
    se = math.sqrt(fpc * p * (1 - p) / n)
    statistic = math.nan
    if options.null is not None:  # no test of 0 for a share; a test of a value when asked
        null = options.null_for((0.0, 1.0), name)
        notes.append(options.null_note(symbol, "the binomial SE sqrt(p(1 - p)/n)"))
        statistic = wald_statistic(p, null, se, name, "t" if math.isfinite(df) else "z")
    result = ProportionResult(
        coefficient=name,
        symbol=symbol,
        estimate=p,
        se=se,
        statistic=statistic,
        pvalue=wald_pvalue(statistic, options.alternative, df),
        alternative=options.alternative if options.null is not None else "two-sided",
        statistic_name="t" if math.isfinite(df) else "z",
        null_value=options.null or 0.0,
        ci_clip=options.ci_clip,
        design_df=df,
        se_label=options.se_label(),
        ci=wilson_interval(agree, n, options.confidence_level),
        n_subjects=n,
        n_missing=left_out,
        n_incomplete=stats.n_missing,
        raters=stats.raters,
        notes=tuple(notes),
        count=agree,
    )
    result = result.with_bootstrap(recipe, options.ci)
    if options.ci == "wald":
        result = replace(result, ci=result.conf_int(options.confidence_level, "wald"))
    return result


def _share(agrees: np.ndarray, rated: np.ndarray, batch: np.ndarray) -> np.ndarray:
    """Share of agreeing subjects in resampled pattern counts, (b, P) -> (b,): each
    pattern's agreement `agrees` over its weight `rated` (0 for left-out patterns).

    Module-level (bound with :func:`functools.partial`), so a result's bootstrap recipe
    pickles and can still be drawn after unpickling.
    """
    batch = np.asarray(batch, dtype=float)
    return batch @ agrees / (batch @ rated)
