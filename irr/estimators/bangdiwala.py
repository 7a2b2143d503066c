"""Bangdiwala's B (and weighted B) of two raters, from the occupied cells of their table."""

from __future__ import annotations

import math
import numbers
import warnings
from collections.abc import Sequence
from functools import partial
from typing import Any

import numpy as np

from irr._numbers import format_df
from irr._statistics import Statistics
from irr._validation import DegenerateDataWarning, check_choice
from irr.coefficients.bangdiwala import bangdiwala_b, bangdiwala_fit
from irr.estimators.kappa import linearised_variance
from irr.inference.options import InferenceOptions
from irr.inference.plan import ResamplingPlan
from irr.results import Result, labelled, wald_interval
from irr.summary import listwise_note

__all__ = ["bangdiwala", "check_partial_weights"]


def check_partial_weights(partial_weights: Any, n_categories: int) -> tuple[float, ...]:
    """The validated weights of partial agreement by 1, 2, ... categories, as floats.

    Examples
    --------
    >>> check_partial_weights([0.75], 4)
    (0.75,)
    >>> check_partial_weights(None, 4)
    ()
    """
    if partial_weights is None:
        return ()
    is_sequence = isinstance(partial_weights, (Sequence, np.ndarray))
    if isinstance(partial_weights, (str, bytes)) or not is_sequence:
        raise TypeError("`partial_weights` must be a sequence of numbers (the weights of "
                        f"disagreements by 1, 2, ... categories); got {partial_weights!r}.")
    values = list(np.asarray(partial_weights, dtype=object).ravel())
    if not all(isinstance(v, numbers.Real) and not isinstance(v, bool) for v in values):
        raise TypeError(f"`partial_weights` must hold numbers; got {partial_weights!r}.")
    w = np.asarray(values, dtype=float)
    if not (np.isfinite(w).all() and (w >= 0).all() and (w <= 1).all()):
        raise ValueError(f"`partial_weights` must lie in [0, 1]; got {w.tolist()}.")
    if (np.diff(np.concatenate([[1.0], w])) > 0).any():
        raise ValueError(
            "`partial_weights` must not increase (a disagreement by more categories earns "
            f"no more credit than one by fewer); got {w.tolist()}.")
    if w.size > max(n_categories - 1, 0):
        raise ValueError(
            f"`partial_weights` has {w.size} weights, but {n_categories} categories differ "
            f"by at most {max(n_categories - 1, 0)}.")
    return tuple(float(v) for v in w)


def bangdiwala(
    stats: Statistics, options: InferenceOptions, plan: ResamplingPlan,
    partial_weights: Sequence[float] = (),
) -> Result:
    """Bangdiwala's B of two raters, with its delta-method SE and a bootstrap recipe.

    See :meth:`irr.Agreement.bangdiwala_b` for the definitions.

    Examples
    --------
    >>> import irr
    >>> ag = irr.Agreement.from_table([[13, 0, 0], [0, 20, 7], [0, 4, 56]])
    >>> res = bangdiwala(ag.statistics, InferenceOptions(), ResamplingPlan(
    ...     ag.statistics.multiplicity))
    >>> round(res.estimate, 7), round(res.se, 8)
    (0.8059604, 0.05449465)
    """
    check_choice(options.ci, "ci", Result.interval_methods)
    stats.require_raters("Bangdiwala's B", exactly=2)
    k = stats.n_categories
    weights = check_partial_weights(partial_weights, k)
    if weights and stats.scores is None:
        raise ValueError(
            "`partial_weights` needs ordered categories (partial agreement is by steps on "
            "the scale), but these labels have no order. Pass `categories=` in scale order, "
            "or use an ordered Categorical.")
    cells = stats.pair_cells
    a_cell, b_cell = cells.patterns.T
    n = int(cells.multiplicity.sum())
    if n < 2:
        raise ValueError(
            f"Bangdiwala's B needs at least two subjects rated by both raters; {n} are "
            f"({stats.n_missing} left out for missing ratings).")
    fit = bangdiwala_fit(cells.multiplicity, a_cell, b_cell, k, weights)
    var, design_note, design_df = linearised_variance(cells, fit.influence, n, plan)
    se = math.sqrt(var)
    notes = [design_note or (
        "SE: delta method for the multinomial table (for B, the SE irrCAC's "
        "bangdiwala.table prints); no test: B = 0 means no exact agreement at all, not "
        "chance agreement.")]
    if not design_note and options.distribution == "t":
        design_df = options.t_df(n)
        notes.append(f"The Wald interval uses t on n - 1 = {format_df(design_df)} df (as irrCAC).")
    fpc = options.fpc(n)
    if fpc != 1.0:
        se *= math.sqrt(fpc)
        notes.append(options.population_note(n))
    if weights:
        shown = ", ".join(f"{w:.4g}" for w in weights)
        steps = ("1 category" if len(weights) == 1
                 else f"1, ..., {len(weights)} categories")
        notes.append(
            f"Weighted B: the areas of partial agreement (disagreement by {steps}) weighted "
            f"{shown} (Friendly & Meyer 2016, sec. 4.5; vcd's agreementplot with weights "
            f"c(1, {shown})).")
    notes.append("B is the agreement chart's area of exact agreement over that of its "
                 "rectangles (Bangdiwala 1985); it is not corrected for chance.")
    notes.extend(listwise_note(stats.n_missing))
    if math.isnan(fit.estimate):
        warnings.warn("Bangdiwala's B is undefined (nan): no subject was rated by both "
                      "raters.", DegenerateDataWarning, stacklevel=3)
    level = options.confidence_level
    symbol = "Bw" if weights else "B"
    result = Result(
        coefficient="Bangdiwala's weighted B" if weights else "Bangdiwala's B",
        symbol=symbol,
        estimate=fit.estimate,
        se=se,
        alternative=options.alternative,
        ci=labelled(wald_interval(fit.estimate, se, level, (0.0, 1.0), design_df),
                    options.se_label()),
        se_label=options.se_label(),
        n_subjects=n,
        n_missing=stats.n_missing,
        n_incomplete=stats.n_missing,
        raters=stats.raters,
        notes=tuple(notes),
        bounds=(0.0, 1.0),
        scale=None,
        design_df=design_df,
    )
    complete = (stats.patterns >= 0).all(axis=1)
    a, b = stats.patterns[complete].T
    recipe = plan.recipe(partial(_complete_b, complete, a, b, k, weights), options,
                         keep=complete)
    return result.with_bootstrap(recipe, options.ci)


def _complete_b(complete: np.ndarray, a: np.ndarray, b: np.ndarray, n_categories: int,
                partial_weights: tuple[float, ...], fine: np.ndarray) -> np.ndarray:
    """B of resampled counts over the fine patterns, (b, P) -> (b,), from the cells of
    the complete patterns. Module-level (bound with :func:`functools.partial`), so the
    recipe pickles."""
    return bangdiwala_b(np.asarray(fine)[..., complete], a, b, n_categories, partial_weights)
