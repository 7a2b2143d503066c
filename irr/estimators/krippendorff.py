"""Krippendorff's alpha from the coincidences of the subject x category count patterns."""

from __future__ import annotations

import math
import warnings
from dataclasses import dataclass, field, replace
from functools import partial
from typing import TYPE_CHECKING, Any

import numpy as np

from irr._data import preview
from irr._numbers import format_df
from irr._statistics import Statistics
from irr._validation import DegenerateDataWarning, check_choice
from irr.coefficients.krippendorff import (
    LEVELS,
    alpha_from_coincidences,
    alpha_kernel,
    alpha_linearised,
    alpha_moments,
    alpha_of_moments,
    coincidences,
    distance_matrix,
    distance_scale,
    interval_alpha_of_moments,
    interval_moments,
)
from irr.estimators.chance_corrected import leave_one_rater_out, rater_sampling_se
from irr.estimators.common import nan_interval, require_subjects, score_note
from irr.inference.bootstrap import MomentStatistic
from irr.inference.keywords import ALPHA_CIS, ALPHA_NOTES
from irr.inference.options import BOOTSTRAP_METHODS, InferenceOptions
from irr.inference.plan import ResamplingPlan
from irr.results import Result, labelled, wald_interval, wald_pvalue, wald_statistic

if TYPE_CHECKING:
    from scipy import sparse

__all__ = ["ALPHA_CIS", "ALPHA_NOTES", "MAX_MATRIX_VALUES", "KrippendorffResult",
           "krippendorff_alpha"]

#: Most distinct values (categories) for which the k x k coincidence and distance
#: matrices are formed. Beyond (continuous measurements), the interval metric is computed
#: from each unit's values (:func:`irr.coefficients.krippendorff.interval_moments`) and
#: the result's ``coincidences`` and ``distances`` are empty; other metrics raise.
MAX_MATRIX_VALUES = 10_000


@dataclass(frozen=True, eq=False, kw_only=True, repr=False)
class KrippendorffResult(Result):
    """Krippendorff's alpha.

    Adds ``level`` (``'nominal'``, ``'ordinal'``, ``'interval'``, ``'ratio'`` or
    ``'custom'``), ``observed_disagreement`` (D_o), ``expected_disagreement`` (D_e),
    ``n_pairable`` (pairable values n), ``coincidences`` (the k x k coincidence matrix),
    and ``distances`` (the k x k squared distances used). ``se`` is Gwet's linearised SE
    (the bootstrap's standard deviation is ``bootstrap.se``).

    Examples
    --------
    >>> import irr
    >>> ag = irr.Agreement.from_frame(irr.datasets.load("cac_raw4raters"))
    >>> res = ag.krippendorff_alpha("interval", n_resamples=1000, rng=0)
    >>> res.level, round(res.estimate, 3), res.n_pairable
    ('interval', 0.849, 40)
    >>> res.coincidences.shape
    (5, 5)
    """

    level: str
    observed_disagreement: float
    expected_disagreement: float
    n_pairable: int
    coincidences: np.ndarray = field(repr=False)
    distances: np.ndarray = field(repr=False)
    categories: tuple = ()
    bounds: tuple[float, float] = (-math.inf, 1.0)
    #: Krippendorff's own thresholds (.667, .800; :data:`irr.bands.SCALES`)
    scale: str | None = "krippendorff"

    def _extras(self) -> dict[str, Any]:
        return {
            "level": self.level,
            "observed_disagreement": self.observed_disagreement,
            "expected_disagreement": self.expected_disagreement,
            "n_pairable": self.n_pairable,
            "design_df": self.design_df,
        }


def _check_level(level: Any, k: int, scores: np.ndarray | None) -> tuple[str, Any]:
    """Validate `level`; return (name, level or validated distance matrix/callable)."""
    if isinstance(level, str) or not (callable(level) or isinstance(level, (list, tuple,
                                                                            np.ndarray))):
        if not isinstance(level, str) or level not in LEVELS:
            listed = ", ".join(repr(v) for v in LEVELS)
            raise ValueError(
                f"`level` must be one of {listed}, a callable distance or a k x k matrix of "
                f"squared distances; got {level!r}."
            )
        name = level
        if name in ("interval", "ratio") and scores is None:
            raise TypeError(
                f"`level='{name}'` needs numeric or ordered categories; these are unordered "
                "labels."
            )
        if name == "ordinal" and scores is None:
            raise TypeError(
                "`level='ordinal'` needs ordered categories; these are unordered labels. "
                "Pass `categories=` in scale order."
            )
        if name == "ratio" and (scores < 0).any():
            raise ValueError(
                "`level='ratio'` needs non-negative values (a ratio scale has an absolute "
                f"zero); got negative values {preview(scores[scores < 0])}."
            )
        return name, name
    if callable(level):
        if scores is None:
            raise TypeError(
                "A callable `level` is applied to category scores, but these categories are "
                "unordered labels without scores; pass a k x k matrix instead."
            )
        try:
            matrix = np.asarray(level(scores[:, None], scores[None, :]), dtype=float)
        except (TypeError, ValueError) as exc:
            raise ValueError(f"The `level` callable failed on the category scores: {exc}") from None
        if matrix.shape != (k, k):
            matrix = np.broadcast_to(matrix, (k, k)) if matrix.ndim == 0 else matrix
    else:
        matrix = np.asarray(level, dtype=float)
    if matrix.shape != (k, k):
        raise ValueError(
            f"`level` as distances must be a {k} x {k} matrix (one row per category); got "
            f"shape {matrix.shape}."
        )
    if not np.isfinite(matrix).all() or (matrix < 0).any():
        raise ValueError("`level` distances must be finite and non-negative.")
    if np.abs(np.diag(matrix)).max() > 0:
        raise ValueError("`level` distances must be zero on the diagonal (a value vs itself).")
    if not np.allclose(matrix, matrix.T, rtol=1e-12, atol=0):
        raise ValueError("`level` distances must be symmetric.")
    return "custom", matrix


#: ``ci='auto'`` (the default) bootstraps up to this many pairable units and uses the Wald
#: interval on Gwet's linearised SE above: a bootstrap resamples B x n units (10^9 draws at
#: 10^5 distinct units), and above it the Wald interval covers at its level
#: (``benchmarks/coverage_alpha.py``, docs/guide/inference.md).
AUTO_BOOTSTRAP_UNITS = 1000


def auto_ci(ci: str | None) -> tuple[str | None, bool]:
    """The interval method to build the options with, and whether `ci` was ``'auto'``
    (resolved by :func:`krippendorff_alpha` once the pairable units are counted).

    Examples
    --------
    >>> auto_ci("auto"), auto_ci("bca"), auto_ci(None)
    (('percentile', True), ('bca', False), (None, False))
    """
    return ("percentile", True) if isinstance(ci, str) and ci == "auto" else (ci, False)


def krippendorff_alpha(
    stats: Statistics, level: Any, options: InferenceOptions, plan: ResamplingPlan,
    *, auto: bool = False,
) -> KrippendorffResult:
    """Krippendorff's alpha (see :meth:`irr.Agreement.krippendorff_alpha`).

    ``se`` is Gwet's linearised SE (the delta method's for alpha before its small-sample
    factor, as irrCAC's ``krippen.alpha.raw`` and Stata's kappaetc; with
    ``options.population``, times the finite-population correction), which the test and
    the 'wald' interval use (t on n - 1 df with ``options.distribution='t'``);
    ``options.ci`` None skips the bootstrap. With `auto` (the public ``ci='auto'``),
    ``options.ci`` (the percentile bootstrap) applies up to :data:`AUTO_BOOTSTRAP_UNITS`
    pairable units and the Wald interval above.
    Measurements beyond :data:`MAX_MATRIX_VALUES` distinct values (interval metric only)
    get it from their sparse unit x value counts.
    """
    if options.ci is not None:
        check_choice(options.ci, "ci", KrippendorffResult.interval_methods)
    k = stats.n_categories
    if k > MAX_MATRIX_VALUES and not (isinstance(level, str) and level in LEVELS):
        raise ValueError(
            f"A custom `level` needs the {k:,} x {k:,} matrix of distances between the {k:,} "
            f"distinct values (at most {MAX_MATRIX_VALUES:,} are supported); "
            "level='interval' has no such limit, or round the values."
        )
    name, metric = _check_level(level, k, stats.scores)
    n_units = stats.n_subjects
    require_subjects(n_units, "Krippendorff's alpha", "units (subjects)")
    # interval distances on scores divided by a power of two (exact, cancels in alpha):
    # squares of differences as small as 1e-200 would underflow
    scale = distance_scale(metric, stats.scores)
    scores = stats.scores / scale if scale != 1.0 else stats.scores
    if k > MAX_MATRIX_VALUES:  # measurements: from the units' values, no k x k matrix
        if name != "interval":
            raise ValueError(
                f"Krippendorff's alpha at the {name} level needs the {k:,} x {k:,} matrix of "
                f"distances between the {k:,} distinct values (at most {MAX_MATRIX_VALUES:,} "
                "are supported); level='interval' has no such limit, or round the values."
            )
        values = np.append(scores - scores[0], np.nan)[stats.patterns]  # shifted: exact
        statistic = MomentStatistic(interval_moments(values), interval_alpha_of_moments)
        sums = stats.multiplicity @ statistic.moments
        per_pattern = statistic.moments[:, 1]
        alpha = float(interval_alpha_of_moments(sums)[0])
        n_pairable = round(float(sums[1]))
        observed = float(sums[0] / sums[1]) if n_pairable else math.nan
        expected = float(2 * (sums[1] * sums[3] - sums[2] ** 2) / (sums[1] * (sums[1] - 1))) \
            if n_pairable >= 2 else math.nan
        o = in_units = distances = np.zeros((0, 0))
        n_given = int(stats.multiplicity @ stats.ratings_per_pattern)
        pairable, on = per_pattern >= 2, "fine"
    else:
        counts = stats.count_patterns
        o = coincidences(counts.patterns, counts.multiplicity)
        per_pattern = counts.patterns.sum(axis=1)
        n_given = int(counts.multiplicity @ per_pattern)
        margins = o.sum(axis=1)
        distances = distance_matrix(metric, k, scores, margins)
        alpha, observed, expected = alpha_from_coincidences(o, distances)
        with np.errstate(over="ignore"):
            in_units = distances * scale * scale
        n_pairable = round(float(margins.sum()))
        pairable, on = per_pattern >= 2, "counts"
    n_pairable_units = int(stats.multiplicity[per_pattern >= 2].sum()) if on == "fine" else \
        int(counts.multiplicity[pairable].sum())
    n_ratings_missing = int(stats.n_raters * n_units - n_given)
    if n_pairable_units == 0:
        warnings.warn(
            "Krippendorff's alpha is undefined (nan): no unit has two or more ratings to pair.",
            DegenerateDataWarning, stacklevel=3,
        )
    elif math.isnan(alpha):
        warnings.warn(
            "Krippendorff's alpha is undefined (nan): expected disagreement is 0 because every "
            "pairable value is the same category (no variation to agree on).",
            DegenerateDataWarning, stacklevel=3,
        )
    # every pairable value a category of its own (no two coincide): D_o = D_e = 1 and
    # nominal alpha is 0 by definition, on these data and on any resample without copies;
    # a resample of units can only add coincidences (a unit drawn twice matches its copy),
    # so every replicate lies below 0 and says nothing of alpha's sampling variation
    unique_values = (name == "nominal" and on == "counts" and n_pairable >= 2
                     and math.isfinite(alpha) and bool(np.all(margins < 1.5)))
    if unique_values:
        warnings.warn(
            f"Krippendorff's nominal alpha is 0 by construction: no two of the "
            f"{n_pairable:,} pairable values are the same category, so observed and "
            "expected disagreement are both 1. Resampling units only adds coincidences "
            "between copies of a unit, so no standard error or interval is given (nan). "
            "Values that never repeat look like measurements: level='interval' suits them.",
            DegenerateDataWarning, stacklevel=3,
        )
    dropped = n_units - n_pairable_units
    auto_note = ""
    if auto and n_pairable_units > AUTO_BOOTSTRAP_UNITS and options.ci is not None:
        options = replace(options, ci="wald")
        auto_note = (
            f"Interval: Wald on Gwet's linearised SE, the default (ci='auto') above "
            f"{AUTO_BOOTSTRAP_UNITS:,} pairable units, where it covers at its level "
            "(simulation in the inference guide); ci='percentile' asks for the bootstrap.")
    null = options.null_for((-math.inf, 1.0), f"Krippendorff's alpha ({name})")
    se = statistic_value = math.nan
    df = options.t_df(n_pairable_units)
    notes = [
        f"Krippendorff's alpha ({name} metric) uses every pairable value (Krippendorff 2011)."
    ]
    if n_pairable_units >= 2 and np.isfinite(alpha) and not unique_values:  # Gwet's SE
        linear = name if name in ("nominal", "interval") else distances
        if k > MAX_MATRIX_VALUES:  # measurements: the counts as a sparse (P, k) matrix
            from scipy import sparse  # imported here: scipy.sparse costs ~0.1 s at import

            row, _, code = stats.entries()
            unit_counts = sparse.csr_matrix((np.ones(row.size), (row, code)),
                                            shape=(stats.n_patterns, k))
            unit_multiplicity = stats.multiplicity
        else:
            unit_counts, unit_multiplicity = counts.patterns, counts.multiplicity
        variance = alpha_linearised(unit_counts, unit_multiplicity, linear,
                                    scores if name == "interval" else None)[1]
        se = math.sqrt(variance * options.fpc(n_pairable_units))
        sampling_note = ""
        if options.sampling != "subjects":  # jackknife over raters (Gwet 2008)
            mult = stats.multiplicity.astype(float)
            replicates = leave_one_rater_out(stats, counts=partial(
                _alpha_of_cells, mult, linear, scores if name == "interval" else None))
            se, sampling_note = rater_sampling_se(se, replicates, options)
        statistic_value = wald_statistic(alpha, null, se, "Krippendorff's alpha",
                                         "t" if math.isfinite(df) else "z")
        law = (f"t on n - 1 = {format_df(df)} df" if math.isfinite(df) else "the normal")
        notes.append(
            sampling_note.replace("n - 1 df", f"n - 1 = {format_df(df)} df") or
            "SE: Gwet's (2011, 2014) linearised variance over the n pairable units, "
            "sum_i (alpha*_i - alpha')^2 / (n(n - 1)), alpha' being alpha before its "
            f"small-sample factor (as irrCAC computes it); the test of alpha = {null:g} "
            f"{'and the Wald interval use' if options.ci == 'wald' else 'uses'} {law}."
            + (" The ordinal metric's ranks are taken as fixed." if name == "ordinal"
               else ""))
        if options.population is not None:
            notes.append(options.population_note(n_pairable_units))
        if null != 0:
            notes.append(options.null_note("α", "Gwet's linearised SE"))
    if auto_note:
        notes.append(auto_note)
    if n_ratings_missing or dropped:
        notes.append(
            f"{n_ratings_missing:,} missing rating(s); {dropped:,} unit(s) with fewer than two "
            "ratings were left out (not pairable)." if dropped else
            f"{n_ratings_missing:,} missing rating(s); every unit has two or more ratings "
            "(all pairable)."
        )
    if name in ("interval", "ratio") or (name == "custom" and callable(level)):
        notes.extend(score_note(stats))
    level_ = options.confidence_level
    result = KrippendorffResult(
        coefficient=f"Krippendorff's alpha ({name})",
        symbol="α",  # sentences add the level from `level` ("interval α")
        estimate=alpha,
        se=se,
        statistic=statistic_value,
        pvalue=wald_pvalue(statistic_value, options.alternative, df),
        alternative=options.alternative,
        statistic_name="t" if math.isfinite(df) else "z",
        design_df=df,
        ci=(labelled(wald_interval(alpha, se, level_, (-math.inf, 1.0), df, options.ci_clip),
                     options.se_label()) if options.ci == "wald"
            else nan_interval(level_, options.ci or "percentile")),
        se_label=options.se_label(),
        null_value=null,
        ci_clip=options.ci_clip,
        n_subjects=n_pairable_units,
        n_missing=dropped,
        n_incomplete=stats.n_missing,
        raters=stats.raters,
        unrated=stats.empty_raters(),
        notes=tuple(notes),
        level=name,
        observed_disagreement=observed * scale * scale,  # inf beyond the float range
        expected_disagreement=expected * scale * scale,
        n_pairable=n_pairable,
        coincidences=o,
        distances=in_units,
        categories=tuple(stats.categories),
    )
    # the built-in metrics other than ratio resample without a k x k matrix (O(k) each)
    distance = name if name in ("nominal", "ordinal", "interval") else distances
    interval_scores = scores if name == "interval" else None
    if k > MAX_MATRIX_VALUES:
        pass  # the moments of the units' values, above
    elif name == "ordinal":  # the metric depends on each resample's margins: not linear
        from scipy import sparse  # imported here: scipy.sparse costs ~0.1 s at import

        statistic = partial(_alpha_of_counts, sparse.csr_matrix(counts.patterns), distance,
                            interval_scores)
    else:  # alpha of the per-pattern sums, computed once (no statistic of a B x P matrix)
        statistic = MomentStatistic(
            alpha_moments(counts.patterns, distance, interval_scores),
            partial(alpha_of_moments, distance=distance, scores=interval_scores),
        )
    # units with fewer than two ratings are left out of alpha, so of its resamples
    if unique_values:
        return result  # no bootstrap: its replicates would all lie below the estimate
    recipe = plan.recipe(statistic, options, on=on, keep=pairable)
    result = result.with_bootstrap(recipe, options.ci)
    if options.ci in BOOTSTRAP_METHODS and np.isfinite(result.estimate):
        # the interval is the bootstrap's: show its spread beside the linearised SE (near 1
        # or in small samples alpha's distribution is skewed and the two can differ)
        boot = result.bootstrap
        result = replace(result, notes=(
            *result.notes, f"Bootstrap SE (standard deviation of the {boot.n_resamples:,} "
            f"replicates): {boot.se:.4f}; the interval is the bootstrap's."))
    return result


def _alpha_of_cells(multiplicity: np.ndarray, distance: np.ndarray | str,
                    scores: np.ndarray | None, cells: Any) -> float:
    """Alpha of count cells (:class:`irr.coefficients.chance_corrected.CountEntries`) over
    patterns standing for `multiplicity` units each (the leave-one-rater-out replicates)."""
    return alpha_linearised(cells.matrix(), multiplicity, distance, scores)[0]


def _alpha_of_counts(patterns: sparse.csr_matrix, distance: np.ndarray | str,
                    scores: np.ndarray | None, batch: np.ndarray) -> np.ndarray:
    """Alpha of resampled counts over the count `patterns`, (b, P) -> (b,): the argument
    order of :func:`functools.partial` for :func:`alpha_kernel`.

    Module-level, so a result's bootstrap recipe pickles and can still be drawn after
    unpickling (a custom metric is held as its distance matrix, not as the callable).
    """
    return alpha_kernel(patterns, batch, distance, scores=scores)
