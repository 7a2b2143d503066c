"""Cohen's kappa and weighted kappa of two raters, from their agreement table."""

from __future__ import annotations

import math
import warnings
from functools import partial
from typing import Any

import numpy as np

from irr._numbers import format_df
from irr._statistics import Statistics
from irr._validation import DegenerateDataWarning, check_choice
from irr.coefficients.kappa import (
    cell_influence,
    identity_kappa,
    kappa_from_cells,
    kappa_max_note,
    weighted_kappa,
)
from irr.inference.options import InferenceOptions
from irr.inference.plan import ResamplingPlan
from irr.results import KappaResult, labelled, wald_interval, wald_pvalue, wald_statistic
from irr.summary import listwise_note
from irr.weights import agreement_weights, weight_name

__all__ = ["describe_scores", "kappa", "kappa_influence", "linearised_variance", "weights_note"]


def describe_scores(scores: np.ndarray | None) -> str:
    """The category scores as ``[1, 2, 3]`` (the first eight), for notes.

    Examples
    --------
    >>> describe_scores(np.array([1.0, 2.5]))
    '[1, 2.5]'
    """
    if scores is None:
        return "(none)"
    shown = ", ".join(f"{s:g}" for s in scores[:8].tolist())  # Python floats: as numpy's
    return f"[{shown}{', ...' if len(scores) > 8 else ''}]"


def weights_note(name: str, scores: np.ndarray | None, source: str = "") -> list[str]:
    """The note saying which agreement weights were used (none when unweighted)."""
    if name == "unweighted":
        return []
    if name == "custom":
        return ["Custom agreement weights."]
    scheme, _, parameter = name.partition(":")
    if scheme == "power":
        return [f"Power agreement weights with exponent r = {parameter} (Warrens 2014; "
                f"kappaetc's power {parameter}) on category scores {describe_scores(scores)}."]
    if name == "circular:180":
        return ["Circular agreement weights with sine argument 180 (kappaetc's circular "
                f"180) on category scores {describe_scores(scores)}."]
    if scheme == "circular" and parameter:
        return [f"Circular agreement weights (Warrens & Pratiwi 2016): u = {parameter} for "
                "categories next to each other on the circle (the first and last are "
                "neighbours), 0 for other disagreements."]
    return [f"{name.capitalize()} agreement weights{source} on category scores "
            f"{describe_scores(scores)}."]


def kappa_influence(table: np.ndarray, w: np.ndarray) -> np.ndarray:
    r"""Each cell's influence value on weighted kappa, shape (k, k), centred.

    Kappa is a smooth function of the cell proportions; a subject in cell (i, j) moves it
    by :math:`h_{ij} = g_{ij} - \sum p_{ab} g_{ab}` per unit weight, with the gradient

    .. math:: g_{ij} = \frac{w_{ij}(1 - p_e) - (\bar w_{i\cdot} + \bar w_{\cdot j})
        (1 - p_o)}{(1 - p_e)^2}.

    :math:`\sum p_{ij} h_{ij}^2 / n` is the Fleiss, Cohen & Everitt (1969) variance,
    computed as a sum of squares, so it is never negative, and it is exactly 0 when kappa
    cannot move (values within 1e-12 of the largest gradient are rounding noise, set to 0).

    Examples
    --------
    >>> table = np.array([[20, 5], [10, 15]])
    >>> h = kappa_influence(table, np.eye(2))
    >>> round(float(np.sqrt((table * h**2).sum() / 50**2)), 6)  # FCE: 0.126996
    0.126996
    """
    p = table / table.sum()
    return cell_influence(p, p.sum(axis=1), p.sum(axis=0), w)


def linearised_variance(
    cells: Any, h: np.ndarray, n: int, plan: ResamplingPlan
) -> tuple[float, str, float]:
    r"""The variance of a statistic with cell influence values `h`, by the plan's design.

    Without clusters or strata ``sum n_c h_c^2 / n^2``. With clusters the between-cluster
    variance of the cluster totals of h (survey linearisation; the sandwich estimator),
    with strata the within-stratum one, each with its ``m / (m - 1)`` factor for ``m`` units:

    .. math:: \widehat{V} = \frac{1}{n^2} \sum_s \frac{m_s}{m_s - 1}
        \sum_{u \in s} (z_u - \bar z_s)^2,

    :math:`z_u` the sum of h over unit u's subjects. Returns the variance, a note naming
    the design ("" without one) and the design's degrees of freedom: units (clusters, or
    subjects) minus strata, the survey-sampling rule for a variance estimated from few
    clusters, whose t quantiles the interval and test then use (Cameron & Miller 2015,
    sec. VI: with few clusters normal quantiles over-reject; inf without a design).
    """
    flat = h.ravel()
    if plan.cluster is None and plan.strata is None:
        return float(cells.multiplicity @ flat**2) / n**2, "", math.inf
    if plan.cluster is not None:
        z = cells.apply(plan.cluster) @ flat  # (C,) cluster totals
        keep = plan.cluster.sum(axis=1) > 0
        z = z[keep]
        stratum = (np.zeros(z.size, dtype=np.int64) if plan.strata is None
                   else np.unique(plan.strata[keep], return_inverse=True)[1].reshape(-1))
        units = np.bincount(stratum)
        centred = z - (np.bincount(stratum, weights=z) / units)[stratum]
        ss = np.bincount(stratum, weights=centred**2)
        where = f"{z.size} clusters" + ("" if plan.strata is None
                                         else f" within {units.size} strata")
    else:
        m = cells.apply(plan.strata)  # (S, cells) subjects of each stratum in each cell
        m = m[m.sum(axis=1) > 0]
        units = m.sum(axis=1)
        mean = (m @ flat) / units
        ss = (m * (flat[None, :] - mean[:, None]) ** 2).sum(axis=1)
        where = f"subjects within {units.size} strata"
    factor = np.divide(units, units - 1.0, out=np.zeros(units.size), where=units > 1)
    df = float(units.sum() - units.size)
    note = (f"SE: linearised (delta-method sandwich) over {where}, from the subjects' "
            f"influence values on kappa; the test and the Wald interval use t on {format_df(df)} df "
            "(units minus strata; Cameron & Miller 2015 on few clusters).")
    return float(factor @ ss) / n**2, note, df


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
    name = weight_name(weights)
    cells = stats.pair_cells  # the occupied cells: no k x k table unweighted
    a_cell, b_cell = cells.patterns.T
    n = int(np.add.reduce(cells.multiplicity))
    if n < 2:
        raise ValueError(
            f"kappa needs at least two subjects rated by both raters; {n} are "
            f"({stats.n_missing} left out for missing ratings)."
        )
    if name == "unweighted":  # implicit identity weights: O(n + k)
        w = None
        fit = identity_kappa(a_cell, b_cell, cells.multiplicity, stats.n_categories)
        observed, expected, estimate = fit.observed, fit.expected, fit.kappa
        var, influence, best_identity = math.nan, fit.influence, fit.kappa_max
        se0 = math.sqrt(fit.var0)
    else:  # a weight matrix is intrinsic: k x k, bounded by agreement_weights
        w = agreement_weights(weights, stats.n_categories, stats.scores)
        table = stats.pair_table
        # one pass over the k x k table; the SE comes from the influence values
        fit = weighted_kappa(table, w, alternative_variance=False)
        observed, expected, estimate = fit.observed, fit.expected, fit.kappa
        var, se0 = fit.var, math.sqrt(fit.var0)
        influence = None if fit.influence is None else fit.influence[a_cell, b_cell]
        best_weighted = fit.kappa_max
    design_note, design_df = "", math.inf
    if math.isnan(estimate):
        se = math.sqrt(float(var))
    else:
        var, design_note, design_df = linearised_variance(cells, influence, n, plan)
        se = math.sqrt(var)
    notes = [design_note or (
        "SE: Fleiss, Cohen & Everitt (1969), under the alternative (for the interval); "
        "z uses the SE under H0.")]
    if design_note:
        se0 = math.nan  # the SE under H0 assumes independent subjects
    elif options.distribution == "t":  # irrCAC, kappaetc: t(n - 1) on the SE under H1
        design_df = options.t_df(n)
        notes[0] = ("SE: Fleiss, Cohen & Everitt (1969), under the alternative; the test "
                    f"and the Wald interval use it with t on n - 1 = {format_df(design_df)} df (as "
                    "irrCAC and kappaetc).")
    fpc = options.fpc(n)
    if fpc != 1.0:  # one sampling model: the test's SE under H0 is corrected as well
        se *= math.sqrt(fpc)
        se0 *= math.sqrt(fpc)
        notes.append(options.population_note(n, under_h0=math.isfinite(se0)))
    coefficient = "Cohen's kappa" if name == "unweighted" else f"Weighted kappa ({name})"
    symbol = "κ" if name == "unweighted" else "κw"
    null = options.null_for((-1.0, 1.0), coefficient)
    if null != 0:
        if not design_note and options.distribution != "t":
            notes[0] = ("SE: Fleiss, Cohen & Everitt (1969), under the alternative, for the "
                        "interval and the test.")
        notes.append(options.null_note(symbol, "the SE under the alternative (the SE under "
                                       "H0 is that of kappa = 0)"))
    if math.isnan(estimate):
        warnings.warn(
            "kappa is undefined (nan): expected agreement is 1 because both raters "
            "used a single category.",
            DegenerateDataWarning,
            stacklevel=3,
        )
        statistic = best = math.nan
    else:
        test_se = se if design_note or options.distribution == "t" or null else se0
        statistic = wald_statistic(estimate, null, test_se, coefficient,
                                   "t" if math.isfinite(design_df) else "z")
        best = best_identity if w is None else best_weighted
        max_note = kappa_max_note(table, w) if math.isnan(best) else ""
        if max_note:
            warnings.warn(max_note, DegenerateDataWarning, stacklevel=3)
            notes.append(max_note)
    notes += weights_note(name, stats.scores)
    n_missing = stats.n_missing
    if n_missing:
        notes.extend(listwise_note(n_missing))
    # resamples are kappas of the complete fine patterns' cells (at most n of them), never
    # of dense k x k tables: O(B (n + k)) unweighted
    if np.minimum.reduce(stats.patterns, axis=None) < 0:  # (n >= 2: there are patterns)
        complete = (stats.patterns >= 0).all(axis=1)
        a, b = stats.patterns[complete].T
    else:  # every pattern is complete
        complete = np.ones(len(stats.patterns), dtype=bool)
        a, b = stats.patterns.T
    recipe = plan.recipe(
        partial(_complete_kappa, complete, a, b, w, stats.n_categories),
        options, keep=complete)  # incomplete subjects are left out, so not resampled
    result = KappaResult(
        coefficient=coefficient,
        symbol=symbol,
        estimate=estimate,
        se=se,
        se0=se0,
        statistic=statistic,
        pvalue=wald_pvalue(statistic, options.alternative, design_df),
        alternative=options.alternative,
        ci=labelled(wald_interval(estimate, se, options.confidence_level, (-1.0, 1.0),
                                  design_df, options.ci_clip), options.se_label()),
        se_label=options.se_label(),
        null_value=null,
        ci_clip=options.ci_clip,
        n_subjects=n,
        n_missing=n_missing,
        n_incomplete=n_missing,
        raters=stats.raters,
        notes=tuple(notes),
        observed_agreement=observed,
        expected_agreement=expected,
        kappa_max=best,
        weights=name,
        weight_spec=weights,
        scores=stats.scores,
        categories=tuple(stats.categories.tolist()),  # as iterating: Python scalars
        design_df=design_df,
        # the p-value is on t when there are df (distribution='t', a clustered design)
        statistic_name="t" if math.isfinite(design_df) else "z",
        _bootstrap_source=recipe,
    )
    return result.with_bootstrap(recipe, options.ci)


def _complete_kappa(
    complete: np.ndarray, a: np.ndarray, b: np.ndarray, w: np.ndarray | None,
    n_categories: int, fine: np.ndarray,
) -> np.ndarray:
    """Kappa of resampled counts over the fine patterns, (b, P) -> (b,), from the cells
    (rater A's code `a`, rater B's code `b`) of the patterns `complete` marks.

    Module-level (bound with :func:`functools.partial`), so a result's bootstrap recipe
    pickles and can still be drawn after unpickling.
    """
    return kappa_from_cells(np.asarray(fine)[..., complete], a, b, w,
                            n_categories=n_categories)
