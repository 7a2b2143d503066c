"""``irr.gstudy``: a generalizability study from long data, by ANOVA (balanced data) or
REML (missing scores, unequal nesting)."""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from functools import partial
from typing import Any

import numpy as np

from irr._validation import check_choice, check_confidence_level
from irr.gtheory.anova import (
    anova,
    component_se,
    object_moments,
    satterthwaite,
    sums_to_components,
)
from irr.gtheory.data import GData, read_long
from irr.gtheory.designs import Design
from irr.gtheory.dstudy import coefficients, error_variances, harmonic_size
from irr.gtheory.reml import RemlProblem, reml
from irr.gtheory.results import GCoefficient, GStudyResult
from irr.inference.bootstrap import MomentStatistic, bootstrap_counts, check_n_resamples
from irr.inference.keywords import (
    DEFAULT_RESAMPLES,
    NONE_IS_WALD,
    WALD_OR_NONE_CIS,
    inference_keywords,
)
from irr.inference.options import BOOTSTRAP_METHODS
from irr.results import ConfidenceInterval, normal_quantile, wald_interval

__all__ = ["CIS", "METHODS", "gstudy"]

#: The estimators ``method=`` accepts.
METHODS = ("auto", "anova", "reml")
#: The interval methods of Eρ² and Φ (`ci`): the delta-method Wald interval, or a
#: bootstrap over objects (ANOVA only); None is 'wald'.
CIS = WALD_OR_NONE_CIS
_CI_TEXT = ("The coefficients' interval. 'wald': the delta method, from the normal-theory "
            "variances of the mean squares (ANOVA) or the REML information (REML, its only "
            "one). With ANOVA a bootstrap over objects ('percentile', 'basic', 'bca'): "
            "resampled objects, the whole ANOVA recomputed (Brennan, 2001, ch. 6, "
            "\"boot-p\"), drawn when asked for; also later, "
            "``g['g'].conf_int(method='bca')``.")


def _observed_sizes(data: GData) -> tuple[dict[str, float], list[str]]:
    """Each facet's size in the observed design: its levels, or, nested, the harmonic mean
    of its levels per parent (Brennan's ñ when they differ)."""
    sizes: dict[str, float] = {}
    notes = []
    parent = data.design.parent
    for f in data.design.facets:
        if f in parent:
            counts = data.per_parent[f]
            counts = counts[counts > 0]
            size = harmonic_size(counts)
            if counts.min() != counts.max():
                notes.append(f"{f!r} has {counts.min()} to {counts.max()} levels per "
                             f"{parent[f]!r}: the coefficients of the observed design use "
                             f"their harmonic mean, {size:.4g} (Brennan, 2001, ch. 7).")
                sizes[f] = size
            else:
                sizes[f] = float(counts[0])
        else:
            sizes[f] = float(data.levels[f])
    return sizes, notes


def _coefficient_of_sums(sums: np.ndarray, design: Design, array_sizes: tuple[int, ...],
                         sizes: dict[str, float], fixed: tuple[str, ...], which: int
                         ) -> np.ndarray:
    """Eρ² (`which` 0) or Φ (1) of a batch of resampled object moments (ANOVA)."""
    components, _ = sums_to_components(design, array_sizes, sums)
    tau, delta, Delta = error_variances(design, np.maximum(components, 0.0), sizes, fixed)
    return coefficients(tau, delta, Delta)[which]


def _bootstrap(design: Design, scores: np.ndarray, finish: Any, n_resamples: int,
               rng: Any, progress: bool | None) -> Any:
    """The bootstrap over objects of a coefficient (drawn on first use): multinomial
    counts of the objects through their ANOVA moments."""
    moments = object_moments(design, scores)
    return bootstrap_counts(np.ones(scores.shape[0], dtype=np.int64),
                            MomentStatistic(moments, finish), n_resamples=n_resamples,
                            rng=rng, progress=progress)


def _delta_se(components: np.ndarray, covariance: np.ndarray, design: Design,
              sizes: dict[str, float], fixed: tuple[str, ...]) -> tuple[float, float]:
    """Delta-method SEs of Eρ² and Φ from the covariance of the REML components
    (components on the boundary, with ``nan`` rows, held fixed)."""
    cov = np.where(np.isnan(covariance), 0.0, covariance)
    if not np.any(cov):
        return math.nan, math.nan
    grads = np.zeros((2, components.size))
    for j in range(components.size):
        h = 1e-6 * max(abs(components[j]), 1e-3 * float(np.abs(components).max()), 1e-12)
        up, down = components.copy(), components.copy()
        up[j] += h
        down[j] = max(down[j] - h, 0.0)
        hi = np.array(coefficients(*error_variances(design, up, sizes, fixed)))
        lo = np.array(coefficients(*error_variances(design, down, sizes, fixed)))
        grads[:, j] = (hi - lo) / (up[j] - down[j])
    return tuple(float(math.sqrt(max(g @ cov @ g, 0.0))) for g in grads)  # type: ignore[return-value]


def _anova_delta_se(table: Any, design: Design, sizes: dict[str, float],
                    fixed: tuple[str, ...]) -> tuple[float, float]:
    """Delta-method SEs of Eρ² and Φ from the mean squares, independent with the
    normal-theory variances ``2 MS² / df`` (Searle, Casella & McCulloch, 1992, ch. 4;
    components below 0 set to 0, as the coefficients use them)."""
    weights = table.weights
    ms = np.asarray(table.ms, dtype=float)

    def coefs(m: np.ndarray) -> np.ndarray:
        components = np.maximum(weights @ m, 0.0)
        return np.array(coefficients(*error_variances(design, components, sizes, fixed)))

    grads = np.zeros((2, ms.size))
    for j in range(ms.size):
        h = 1e-6 * max(abs(ms[j]), 1e-12)
        up, down = ms.copy(), ms.copy()
        up[j] += h
        down[j] -= h
        grads[:, j] = (coefs(up) - coefs(down)) / (2 * h)
    variance = 2 * ms ** 2 / np.asarray(table.df, dtype=float)
    return tuple(float(math.sqrt(max(float(np.sum(g * g * variance)), 0.0)))  # type: ignore[return-value]
                 for g in grads)


@inference_keywords("bootstrap", cis=CIS, texts={"ci": _CI_TEXT}, ci=NONE_IS_WALD)
def gstudy(
    data: Any,
    *,
    score: Any,
    object: Any,
    facets: Sequence[Any],
    nested: Mapping[Any, Any] | None = None,
    fixed: Sequence[Any] = (),
    method: str = "auto",
    confidence_level: float = 0.95,
    ci: str | None = "wald",
    n_resamples: int = DEFAULT_RESAMPLES,
    rng: int | np.random.Generator | None = 0,
    progress: bool | None = None,
) -> GStudyResult:
    r"""A generalizability (G) study: the variance components of the object of
    measurement, every facet and every interaction, and the generalizability (Eρ²) and
    dependability (Φ) coefficients of the observed design.

    Parameters
    ----------
    data : DataFrame
        Long data, one score per row (pandas, or an eager polars/pyarrow frame).
    score : column label
        The scores (numbers).
    object : column label
        The objects of measurement (patients, persons, essays).
    facets : sequence of column labels
        The facets (raters, occasions, items, and the facets others are nested in).
    nested : dict, optional
        ``{child: parent}``: a facet nested in another (``{'rater': 'site'}``: each rater
        works in one site) or in the object (``{'rater': 'patient'}``: different raters
        for each patient, the design ``(r:p)``). Labels of a nested facet may be unique or
        restart within each parent. Facets not listed are crossed; a declaration the data
        contradict raises a ValueError that says what the data show.
    fixed : sequence of column labels, default ()
        Facets whose levels are the whole universe (the same items on every form):
        Brennan's (2001, ch. 4) rules move their interactions with the object into the
        universe-score variance.
    method : {'auto', 'anova', 'reml'}, default 'auto'
        ``'anova'``: expected mean squares, exact for balanced data (every object scored in
        every cell). ``'reml'``: restricted maximum likelihood, for missing scores and
        unequal nesting (components >= 0). ``'auto'``: ANOVA when the data are balanced,
        else REML.

    Returns
    -------
    GStudyResult

    Notes
    -----
    Components with ANOVA: the Cornfield–Tukey rules for the expected mean squares of any
    balanced crossed or nested design (:mod:`irr.gtheory.anova`), intervals by
    Satterthwaite's approximation, SEs from the normal-theory variances of the mean
    squares (Brennan, 2001, ch. 6). Negative estimates are reported as estimated and set
    to 0 for the coefficients (Brennan, 2001, ch. 3). With REML
    (:mod:`irr.gtheory.reml`): Wald intervals, clipped at 0, with the SEs of the inverse
    observed information. Eρ² and Φ: delta-method Wald intervals by default. For one
    facet (p × r), Eρ² with the observed raters is McGraw & Wong's ICC(C,k) and Φ is
    ICC(A,k).

    Examples
    --------
    >>> import irr
    >>> df = irr.datasets.load("brennan_3_2")
    >>> g = irr.gstudy(df, score="Score", object="Person", facets=["Rater", "Task"],
    ...                nested={"Rater": "Task"})
    >>> g.design
    'p × (r:t)'
    >>> g.variance_components["variance"].round(4).tolist()
    [0.4731, 0.3252, 0.5596, 0.6475, 2.3802]
    >>> round(g.estimate, 3), round(g["phi"].estimate, 3)
    (0.551, 0.464)
    """
    check_choice(method, "method", METHODS)
    confidence_level = check_confidence_level(confidence_level)
    n_resamples = check_n_resamples(n_resamples)
    facets = [facets] if isinstance(facets, str) else list(facets)
    fixed_list = [fixed] if isinstance(fixed, str) else list(fixed)
    unknown = [f for f in fixed_list if f not in facets]
    if unknown:
        raise ValueError(f"`fixed`: {unknown!r} are not facets; facets: {facets!r}.")
    if fixed_list and len(set(fixed_list)) == len(facets):
        raise ValueError("`fixed`: every facet is fixed, so there is no measurement error to "
                         "generalize over; leave at least one facet random.")
    data_ = read_long(data, score, object, facets, nested)
    design = data_.design
    fixed_t = tuple(f for f in design.facets if f in fixed_list)
    chosen = method if method != "auto" else ("anova" if data_.balanced else "reml")
    if chosen == "anova" and not data_.balanced:
        raise ValueError(
            f"`method='anova'` needs balanced data (every object scored once in every cell "
            f"of the {design.notation} design); these have {data_.n_missing:,} empty cells"
            + (" and unequal numbers of levels per parent" if not data_.exists.all() else "")
            + ". Use method='reml' (or 'auto').")
    allowed = ("wald", *BOOTSTRAP_METHODS) if chosen == "anova" else ("wald",)
    if ci is not None:
        check_choice(ci, "ci", allowed)
    sizes, notes = _observed_sizes(data_)
    notes = [*data_.notes, *notes]
    n = data_.n_objects
    z = normal_quantile(confidence_level)
    if chosen == "anova":
        table = anova(design, data_.scores)
        raw = table.components
        se = component_se(table)
        low, high, _ = satterthwaite(table, confidence_level)
        comp_method = "satterthwaite"
        mean_squares, dfs = table.ms, table.df
    else:
        problem = RemlProblem(design, data_.scores, data_.exists)
        fit = reml(problem)
        raw = fit.components
        se = np.sqrt(np.where(np.isnan(np.diag(fit.covariance)), np.nan,
                              np.maximum(np.diag(fit.covariance), 0.0)))
        low = np.where(np.isfinite(se), np.maximum(raw - z * se, 0.0), np.nan)
        high = np.where(np.isfinite(se), raw + z * se, np.nan)
        comp_method = "wald"
        mean_squares = dfs = None
        notes.extend(fit.notes)
        if data_.n_missing:
            notes.append(f"{data_.n_missing:,} of {n * int(data_.exists.sum()):,} cells have "
                         "no score; REML uses every score there is.")
    negative = raw < 0
    if negative.any():
        listed = ", ".join(f"σ²({e.name(design.letters)}) = {v:.4g}"
                           for e, v in zip(design.effects, raw, strict=True) if v < 0)
        notes.append(f"Negative estimates, set to 0 for the coefficients (Brennan, 2001): "
                     f"{listed}.")
    used = np.maximum(raw, 0.0)
    tau, delta, Delta = error_variances(design, used, sizes, fixed_t)
    g, phi = (float(x) for x in coefficients(tau, delta, Delta))
    rows = []
    if chosen == "reml":
        ses = _delta_se(used, fit.covariance, design, sizes, fixed_t)
        label = "delta method, REML information"
    else:
        ses = _anova_delta_se(table, design, sizes, fixed_t)
        label = "delta method, normal-theory variances of the mean squares"
    for which, (estimate, error, error_variance) in enumerate(
            ((g, "relative", float(delta)), (phi, "absolute", float(Delta)))):
        name, symbol = (("Generalizability coefficient", "Eρ²") if which == 0
                        else ("Dependability coefficient", "Φ"))
        interval = wald_interval(estimate, ses[which], confidence_level, (0.0, 1.0))
        interval = ConfidenceInterval(interval.low, interval.high, confidence_level, "wald",
                                      "; ".join(filter(None, [label, interval.note])))
        row = GCoefficient(
            coefficient=name, symbol=symbol, estimate=estimate, se=ses[which], ci=interval,
            n_subjects=n, error=error, error_variance=error_variance,
            universe_variance=float(tau), methods=allowed, se_label=label)
        if chosen == "reml":
            rows.append(row)
            continue
        # the bootstrap over objects: drawn when asked for (ci=, conf_int), one seed for
        # both coefficients, so their replicates are paired
        finish = partial(_coefficient_of_sums, design=design, array_sizes=data_.sizes,
                         sizes=sizes, fixed=fixed_t, which=which)
        source = partial(_bootstrap, design, data_.scores, finish, n_resamples, rng,
                         progress)
        rows.append(row.with_bootstrap(source, ci or "wald"))
    first = rows[0]
    return GStudyResult(
        coefficient=first.coefficient, symbol=first.symbol, estimate=first.estimate,
        se=first.se, ci=first.ci, n_subjects=n, notes=tuple(notes), design=design.notation,
        structure=design, method=chosen, fixed=fixed_t, sizes=sizes, levels=data_.levels,
        components_raw=raw, components_se=se, components_ci=(low, high),
        components_ci_method=comp_method, mean_squares=mean_squares, dfs=dfs,
        rows=(rows[0], rows[1]), n_scores=data_.n_scores, n_cells_missing=data_.n_missing,
        balanced=data_.balanced,
        per_parent={f: (int(c[c > 0].min()), int(c[c > 0].max()))
                    for f, c in data_.per_parent.items()})

