"""Chance-corrected agreement of two or more raters: Fleiss (Scott), Conger, Light, Gwet,
Brennan-Prediger and Gwet's percent agreement.

The formulas live in :mod:`irr.coefficients.chance_corrected`; this module takes the
:class:`~irr._statistics.Statistics` (subject x category count patterns, or rater code
rows, each with a multiplicity), calls the kernel, and builds the result with its
inference, notes and bootstrap recipe.
"""

from __future__ import annotations

import math
import warnings
from collections.abc import Callable
from dataclasses import dataclass, field
from functools import partial
from typing import Any

import numpy as np

from irr._lazy import lazy_module
from irr._numbers import format_df
from irr._statistics import Coarsening, Statistics
from irr._validation import DegenerateDataWarning, check_choice
from irr.coefficients import chance_corrected as cc
from irr.estimators.kappa import weights_note
from irr.inference.keywords import MISSING
from irr.inference.options import InferenceOptions
from irr.inference.plan import ResamplingPlan
from irr.results import (
    Result,
    labelled,
    wald_interval,
    wald_pvalue,
    wald_statistic,
    weight_matrix_of,
)
from irr.weights import agreement_weights, tolerance_agreement, tolerance_label, weight_name

pd = lazy_module("pandas")  # imported on first use: data streamed by DuckDB never need it

__all__ = [
    "MISSING",
    "ChanceCorrectedResult",
    "FleissKappaResult",
    "brennan_prediger",
    "conger_kappa",
    "fleiss_kappa",
    "gwet_ac",
    "leave_one_rater_out",
    "level",
    "light_kappa",
    "pairwise",
    "percent_agreement",
    "rater_jackknife",
    "rater_sampling_se",
    "statistic",
]

SE_NOTE = (
    "SE: Gwet (2008, 2014) linearised subject-sampling variance "
    "sum_i (k*_i - k)^2 / (n(n - 1)) (divisor n - 1, as irrCAC on raw ratings); Wald "
    "interval and z test with normal quantiles (`distribution='t'` gives irrCAC's t on "
    "n - 1 df)."
)
SE_NOTE_T = (
    "SE: Gwet (2008, 2014) linearised subject-sampling variance "
    "sum_i (k*_i - k)^2 / (n(n - 1)) (divisor n - 1, as irrCAC on raw ratings); Wald "
    "interval and test with t quantiles on n - 1 = {df} df, the test on this SE (as "
    "irrCAC and Stata's kappaetc)."
)
MISSING_NOTE = (
    "Missing ratings (Gwet 2014): p_a uses the subjects with two or more ratings, the "
    "classification probabilities those with at least one."
)


@dataclass(frozen=True, eq=False, kw_only=True, repr=False)
class ChanceCorrectedResult(Result):
    """A chance-corrected agreement coefficient of two or more raters.

    Adds ``observed_agreement`` (Gwet's percent agreement p_a, weighted when weights are
    used), ``expected_agreement`` (the coefficient's chance agreement p_e), ``weights``
    (the scheme's name), ``weight_matrix`` (built on request: unweighted results hold no
    k x k array), ``categories``, ``n_paired`` (subjects with
    two or more ratings, on which p_a is computed), ``se0`` (a standard error under
    H0 where one is defined, else nan) and ``sampling`` (what ``se`` generalises over:
    ``'subjects'``, ``'raters'`` or ``'both'``).

    Examples
    --------
    >>> import irr
    >>> ag = irr.Agreement.from_frame(irr.datasets.load("cac_raw4raters"))
    >>> res = ag.gwet_ac()
    >>> round(res.estimate, 5), round(res.se, 5)
    (0.77544, 0.14295)
    >>> round(res.observed_agreement, 4), round(res.expected_agreement, 4)
    (0.8182, 0.1903)
    """

    observed_agreement: float
    expected_agreement: float
    weights: str = "unweighted"
    weight_spec: np.ndarray | None = field(default=None, repr=False)
    categories: tuple = ()
    n_paired: int = 0
    se0: float = math.nan
    sampling: str = "subjects"

    @property
    def weight_matrix(self) -> np.ndarray:
        """The k x k agreement weights used (the identity when unweighted), on request."""
        return weight_matrix_of(self.weight_spec, len(self.categories), None)


    def _extras(self) -> dict[str, Any]:
        return {
            "observed_agreement": self.observed_agreement,
            "expected_agreement": self.expected_agreement,
            "weights": self.weights,
            "n_paired": self.n_paired,
            "se0": self.se0,
            "design_df": self.design_df,
            "sampling": self.sampling,
        }


@dataclass(frozen=True, eq=False, kw_only=True, repr=False)
class FleissKappaResult(ChanceCorrectedResult):
    """Fleiss' kappa, with the per-category kappas of Fleiss (1971).

    ``per_category`` is a DataFrame with one row per category: ``category``, ``kappa``,
    ``se`` (Gwet's linearised SE of the category-vs-rest kappa), ``se0`` (Fleiss, Nee &
    Landis 1979, under H0), ``z`` and ``pvalue`` (z uses ``se0`` when defined).

    Examples
    --------
    >>> import irr
    >>> res = irr.Agreement.from_frame(irr.datasets.load("diagnoses")).fleiss_kappa()
    >>> round(res.estimate, 3), round(res.se, 4), round(res.se0, 4)
    (0.43, 0.0542, 0.0244)
    >>> res.per_category[["category", "kappa"]].round(3)
                      category  kappa
    0            1. Depression  0.245
    1  2. Personality Disorder  0.245
    2         3. Schizophrenia  0.520
    3              4. Neurosis  0.471
    4                 5. Other  0.566
    """

    _per_category_source: Callable[[], pd.DataFrame] | None = field(default=None, repr=False)

    @property
    def per_category(self) -> pd.DataFrame | None:
        """The per-category kappas (None for weighted kappa), computed on first use."""
        if "per_category" not in self._cache:
            source = self._per_category_source
            self._cache["per_category"] = None if source is None else source()
        return self._cache["per_category"]


# -- helpers -----------------------------------------------------------------------------
def _weights(stats: Statistics, weights: Any) -> tuple[np.ndarray, str]:
    return agreement_weights(weights, stats.n_categories, stats.scores), weight_name(weights)


def _codes(stats: Statistics) -> cc.CodeEntries:
    """The rater codes of the fine patterns, one entry per rating (dense or sparse)."""
    row, rater, code = stats.entries()
    return cc.CodeEntries(row, rater, code, stats.n_patterns, stats.n_raters)


def _cells(stats: Statistics) -> cc.CountEntries:
    """The nonzero cells of the fine patterns' subject x category counts (their
    multiplicities are ``stats.multiplicity``): no distinct count rows are built."""
    row, category, count = stats.category_cells
    return cc.CountEntries.from_cells(row, category, count, stats.n_patterns,
                                      stats.n_categories)


#: Most raters whose unweighted coefficients on counts read the dense rows of codes
#: (:func:`irr.coefficients.chance_corrected.rater_codes`: m(m - 1)/2 comparisons of whole
#: columns) instead of the cells of each row's counts (a sort of each row).
PAIRWISE_RATERS = 10


def _count_rows(stats: Statistics, wname: str) -> cc.CountEntries | cc.RaterCodes:
    """The fine patterns' subject x category counts as the kernels on counts read them:
    unweighted, on dense rows of at most :data:`PAIRWISE_RATERS` raters, the rows of codes
    themselves (pairwise equality counts and bincounts, no sort of each row); else their
    nonzero cells (:func:`_cells`). The estimates agree to rounding."""
    if (wname == "unweighted" and stats.by_rater and stats.sparse is None
            and stats.n_raters <= PAIRWISE_RATERS):
        return cc.rater_codes(stats.patterns, stats.n_categories)
    return _cells(stats)


def _lonely_pairs(pairs: cc.PairCells, m: int, limit: int = 5) -> list[tuple[int, int]]:
    """The first `limit` rater pairs (g < h, in order) that share no subject.

    Pair (g, h) is number ``g m - g (g + 1) / 2 + h - g - 1`` in that order; the missing
    numbers come from the pairs that do share a subject, without listing all m(m-1)/2.
    """
    total = m * (m - 1) // 2
    if pairs.n_pairs == total:
        return []
    g, h = pairs.first, pairs.second
    rank = g * m - g * (g + 1) // 2 + h - g - 1
    missing = np.setdiff1d(np.arange(min(total, pairs.n_pairs + limit)), rank)[:limit]
    starts = np.arange(m) * m - np.arange(m) * (np.arange(m) + 1) // 2  # rank of (g, g+1)
    first = np.searchsorted(starts, missing, side="right") - 1
    return [(int(a), int(r - starts[a] + a + 1)) for a, r in zip(first, missing, strict=True)]


def _ratings(counts: np.ndarray | cc.CountEntries | cc.RaterCodes) -> np.ndarray:
    """The ratings of each count row."""
    if isinstance(counts, cc.CountEntries | cc.RaterCodes):
        return counts.r
    return np.asarray(counts).sum(axis=1)


def _check_enough(counts: np.ndarray | cc.CountEntries | cc.RaterCodes, multiplicity: np.ndarray,
                  what: str) -> None:
    if isinstance(counts, cc.RaterCodes) and counts.complete and len(counts.columns) >= 2:
        paired = float(multiplicity.sum())  # every subject has m >= 2 ratings
    else:
        r = _ratings(counts)
        paired = float(multiplicity[r >= 2].sum())
    if paired < 2:
        raise ValueError(
            f"{what} needs at least two subjects with two or more ratings; these data have "
            f"{paired:g}."
        )


def _missing_notes(counts: np.ndarray | cc.CountEntries | cc.RaterCodes, multiplicity: np.ndarray, *,
                   chance: bool = True) -> tuple[int, list[str]]:
    """(subjects left out, notes): how missing ratings were handled, when some are missing
    (a subject with fewer ratings than another); `chance` false for percent agreement,
    which has no chance agreement."""
    if isinstance(counts, cc.RaterCodes) and counts.complete:
        return 0, []  # every subject rated by every rater
    r = _ratings(counts)
    used = multiplicity > 0
    none = int(multiplicity[r == 0].sum())
    single = int(multiplicity[r == 1].sum())
    if not used.any() or r[used].min() == r[used].max():
        return none, []
    notes = [MISSING_NOTE if chance else
             "Missing ratings (Gwet 2014): percent agreement uses the subjects with two or "
             "more ratings."]
    if none:
        notes.append(f"{none} subject(s) with no rating were left out.")
    if single:
        notes.append(
            f"{single} subject(s) with a single rating enter the chance agreement only."
            if chance else f"{single} subject(s) with a single rating were left out (no pair "
            "of ratings)."
        )
    return none, notes


def _listwise(stats: Statistics, missing: str) -> tuple[Statistics, int | None]:
    """The statistics `missing` asks for, and the subjects listwise deletion left out
    (None for the available-case default)."""
    check_choice(missing, "missing", MISSING)
    if missing == "available":
        return stats, None
    complete = stats.listwise()
    if complete.n_subjects < 2:
        rated = ("no subject was" if complete.n_subjects == 0 else
                 f"only {complete.n_subjects} of {stats.n_subjects} subjects was")
        raise ValueError(
            f"`missing='listwise'` keeps only the subjects rated by every rater, and "
            f"{rated} rated by every rater (at least two are needed). Use "
            "missing='available' (the default) to use every subject with two or more ratings.")
    return complete, stats.n_subjects - complete.n_subjects


def _listwise_note(dropped: int, used: int) -> str:
    return (f"Listwise deletion (`missing='listwise'`, as R irr): {dropped} subject(s) with a "
            f"missing rating were left out; {used} subject(s) rated by every rater used.")


def _warn_if_undefined(estimate: float, what: str, stats: Statistics) -> None:
    if math.isnan(estimate):
        empty = stats.empty_raters()
        if empty:
            reason = (f"rater(s) {', '.join(map(repr, empty))} gave no rating (every value "
                      "is missing); leave them out (name the other raters)")
        elif stats.n_categories < 2:
            reason = "only one category is declared (pass `categories=` with the full scale)"
        else:
            reason = "chance agreement p_e is 1 (every rating in one category)"
        warnings.warn(f"{what} is undefined (nan): {reason}.", DegenerateDataWarning,
                      stacklevel=3)


def rater_jackknife(stats: Statistics, coefficient: str, w: np.ndarray) -> np.ndarray:
    """The coefficient recomputed without each rater in turn, shape (m,): the replicates of
    the jackknife over raters (Gwet 2008). `coefficient` is a key of :data:`COUNT_METHODS`
    or :data:`CODE_KERNELS`.

    Raises
    ------
    ValueError
        Without rater identities (counts per category), or with fewer than three raters
        (leaving one out of two leaves no pair).

    Examples
    --------
    >>> import irr
    >>> ag = irr.Agreement.from_frame(irr.datasets.load("cac_raw4raters"))
    >>> rater_jackknife(ag.statistics, "gwet_ac", np.eye(5)).round(4)
    array([0.7381, 0.7379, 0.8765, 0.7125])
    """
    mult = stats.multiplicity.astype(float)
    if coefficient in COUNT_METHODS:
        method = COUNT_METHODS[coefficient]
        return leave_one_rater_out(
            stats, counts=lambda cells: cc.counts_estimate(cells, mult, w, method).estimate)
    estimate = cc.conger_estimate if coefficient == "conger_kappa" else cc.light_estimate
    return leave_one_rater_out(stats, codes=lambda codes: estimate(codes, mult, w).estimate)


def leave_one_rater_out(
    stats: Statistics,
    counts: Callable[[cc.CountEntries], float] | None = None,
    codes: Callable[[cc.CodeEntries], float] | None = None,
) -> np.ndarray:
    """A statistic of the ratings without each rater in turn, shape (m,): `counts` of the
    remaining subject x category counts (over ``stats``' fine patterns, multiplicities
    unchanged), or `codes` of the remaining raters' codes.

    Raises
    ------
    ValueError
        Without rater identities, or with fewer than three raters.
    """
    what = "The jackknife over raters (sampling='raters' or 'both')"
    stats.require_raters(what)
    m, k, size = stats.n_raters, stats.n_categories, stats.n_patterns
    if m < 3:
        raise ValueError(
            f"{what} needs at least three raters (leaving one of {m} out leaves no pair of "
            f"ratings); these data have {m}."
        )
    row, rater, code = stats.entries()
    out = np.empty(m)
    if counts is not None:  # every (pattern, category) cell once; each rater takes 1 off
        cells, cell_of = np.unique(row * k + code, return_inverse=True)
        full = np.bincount(cell_of.reshape(-1), minlength=cells.size)
        order = np.argsort(rater, kind="stable")
        starts = np.searchsorted(rater[order], np.arange(m + 1))
        for g in range(m):  # m recomputations, each O(cells): no rater rates a pattern twice
            left = full.copy()
            left[cell_of[order[starts[g]:starts[g + 1]]]] -= 1
            nonzero = left > 0
            kept = cells[nonzero]
            with np.errstate(invalid="ignore", divide="ignore"):
                out[g] = counts(cc.CountEntries.from_cells(kept // k, kept % k, left[nonzero],
                                                           size, k))
        return out
    for g in range(m):  # m recomputations, each O(ratings)
        keep = rater != g
        others = rater[keep] - (rater[keep] > g)
        with np.errstate(invalid="ignore", divide="ignore"):
            out[g] = codes(cc.CodeEntries(row[keep], others, code[keep], size, m - 1))
    return out


def rater_sampling_se(
    se_subjects: float, replicates: np.ndarray, options: InferenceOptions
) -> tuple[float, str]:
    """The SE ``options.sampling`` asks for ('raters' or 'both'), from the subject-sampling
    SE and the leave-one-rater-out `replicates`, and the note that says so.

    The jackknife variance over the m raters is (m - 1)/m sum_g (k_(g) - mean)^2 (Gwet
    2008); 'both' adds the subject-sampling variance (Gwet 2014, ch. 5).

    Examples
    --------
    >>> se, note = rater_sampling_se(0.1, np.array([0.5, 0.6, 0.7]),
    ...                              InferenceOptions(sampling="both"))
    >>> round(se, 4), note[:20]
    (0.1528, 'SE: unconditional, s')
    """
    m = replicates.size
    var_r = (float((m - 1) / m * np.sum((replicates - replicates.mean()) ** 2))
             if np.isfinite(replicates).all() else math.nan)
    law = ("the Wald interval and the test use t on n - 1 df" if options.distribution == "t"
           else "the Wald interval and the z test use it")
    note = SAMPLING_NOTES[options.sampling].format(m=m, se_s=se_subjects,
                                                   se_r=math.sqrt(var_r), law=law)
    fpc = options.rater_fpc(m)
    if options.rater_population is not None:
        note += (f" The variance over raters is multiplied by the finite-population "
                 f"correction 1 - r/R = 1 - {m}/{options.rater_population:g} = {fpc:.4f} "
                 "(kappaetc's nraters(#)).")
    var_r *= fpc
    se = math.sqrt(var_r) if options.sampling == "raters" else math.sqrt(se_subjects**2 + var_r)
    return se, note


SAMPLING_NOTES = {
    "raters": ("SE: jackknife over the {m} raters, (m - 1)/m sum_g (k_(g) - mean)^2 (Gwet "
               "2008; kappaetc se(conditional subjects)): generalises to the population of "
               "raters for these subjects (Gwet's linearised subject-sampling SE would be "
               "{se_s:.4f}); {law}."),
    "both": ("SE: unconditional, sqrt(v_subjects + v_raters) (Gwet 2008; 2014, ch. 5; kappaetc "
             "se(unconditional)): Gwet's linearised subject-sampling variance (SE {se_s:.4f}) "
             "plus the jackknife variance over the {m} raters (SE {se_r:.4f}); generalises to "
             "other subjects and other raters; {law}."),
}


def _finish(
    stats: Statistics,
    est: cc.CountsEstimate,
    options: InferenceOptions,
    recipe: Any,
    *,
    coefficient: str,
    symbol: str,
    notes: list[str],
    n_missing: int,
    weights: str,
    w: np.ndarray,
    se0: float = math.nan,
    test: bool = True,
    bounds: tuple[float, float] = (-1.0, 1.0),
    result_type: type = ChanceCorrectedResult,
    key: str | None = None,
    dropped: int | None = None,
    **extra: Any,
) -> ChanceCorrectedResult:
    """The result of an estimate: test, Wald interval, notes, and the bootstrap recipe.

    With ``options.distribution == 't'`` the test and interval use t on n - 1 df and the
    test the linearised SE (never `se0`); with ``options.population`` the SE carries the
    finite-population correction. Either way `notes` say so (SE_NOTE is swapped for
    SE_NOTE_T).
    """
    estimate = float(est.estimate)
    se = math.sqrt(est.variance) if np.isfinite(est.variance) else math.nan
    _warn_if_undefined(estimate, coefficient, stats)
    df = options.t_df(est.n_subjects)
    notes = list(notes)
    incomplete = stats.n_missing
    if dropped is not None:  # listwise: the subjects left out are the incomplete ones
        n_missing = incomplete = dropped
        notes.insert(1, _listwise_note(dropped, stats.n_subjects))
    over_raters = options.sampling != "subjects" and key is not None and np.isfinite(estimate)
    if math.isfinite(df):
        notes = [SE_NOTE_T.format(df=format_df(df)) if note == SE_NOTE else note for note in notes]
        # (an SE over raters has its own note of the t law and of the SE its test is on)
        if (SE_NOTE not in notes and not any(n.startswith("SE: Gwet") for n in notes)
                and not over_raters):
            notes.insert(1, f"Wald interval and test with t quantiles on n - 1 = {format_df(df)} df, "
                         "the test on the linearised SE (as irrCAC and Stata's kappaetc).")
    test_se0 = se0
    fpc = options.fpc(est.n_subjects)
    zero_se_reason = None
    if fpc == 0.0 and np.isfinite(se):
        zero_se_reason = (f"the finite-population correction sqrt(1 - n/N) is 0: the "
                          f"{est.n_subjects:g} subjects are the whole population "
                          f"(population={options.population:g}), so there is no sampling error")
    if fpc != 1.0 and np.isfinite(se):  # `se0` comes corrected (fleiss_kappa)
        se *= math.sqrt(fpc)
        notes.append(options.population_note(est.n_subjects, under_h0=np.isfinite(se0)))
    if over_raters:
        se, sampling_note = rater_sampling_se(se, rater_jackknife(stats, key, w), options)
        first = next((i for i, note in enumerate(notes) if note.startswith("SE:")), None)
        if first is not None:  # the subject-sampling SE note no longer describes `se`
            del notes[first]
        notes.insert(0 if first is None else first,
                     sampling_note.replace("n - 1 df", f"n - 1 = {format_df(df)} df"))
        test_se0 = math.nan  # the SE under H0 is one of subject sampling: not this test
    test = test or options.null is not None  # a percent agreement is tested when asked
    null = options.null_for(bounds, coefficient) if test else 0.0
    if null != 0:
        notes.append(options.null_note(symbol, "the SE above"))
    if not test:
        statistic = math.nan
    elif math.isfinite(df) or null != 0:  # an SE under H0 exists for 0 only
        statistic = wald_statistic(estimate, null, se, coefficient,
                                   "t" if math.isfinite(df) else "z")
    elif np.isfinite(test_se0) and test_se0 > 0:
        statistic = estimate / test_se0
    else:
        statistic = wald_statistic(estimate, 0.0, se, coefficient)
    alternative = options.alternative if test else "two-sided"
    result = result_type(
        coefficient=coefficient,
        symbol=symbol,
        estimate=estimate,
        se=se,
        statistic=statistic,
        pvalue=wald_pvalue(statistic, alternative, df),
        alternative=alternative,
        ci=labelled(wald_interval(estimate, se, options.confidence_level, bounds, df,
                                  options.ci_clip, zero_se_reason), options.se_label()),
        se_label=options.se_label(),
        null_value=null,
        ci_clip=options.ci_clip,
        design_df=df,
        sampling=options.sampling,
        statistic_name="t" if math.isfinite(df) else "z",
        n_subjects=est.n_subjects,
        n_missing=n_missing,
        n_incomplete=incomplete,
        raters=stats.raters,
        unrated=stats.empty_raters(),
        notes=tuple(notes),
        bounds=bounds,
        observed_agreement=float(est.observed),
        expected_agreement=float(est.expected),
        weights=weights,
        weight_spec=None if weights == "unweighted" else w,
        categories=tuple(stats.categories.tolist()),  # as iterating: Python scalars
        n_paired=est.n_paired,
        se0=se0,
        _bootstrap_source=recipe,  # built as with_bootstrap's copy: kept, not copied
        **extra,
    )
    return result.with_bootstrap(recipe, options.ci)


def _named(name: str, wname: str) -> str:
    """The coefficient's display name, with the weight scheme when weighted."""
    return name if wname == "unweighted" else f"{name} ({wname})"


# -- bootstrap statistics: functions of resampled fine-pattern counts ------------------------
#: Kernel method of each coefficient computed on subject x category counts.
COUNT_METHODS = {
    "fleiss_kappa": "fleiss",
    "scott_pi": "fleiss",
    "gwet_ac": "gwet",
    "brennan_prediger": "brennan_prediger",
    "percent_agreement": "percent",
}
#: Coefficients that need rater identities, computed on rater code rows.
CODE_KERNELS = {"conger_kappa": cc.conger_kernel, "light_kappa": cc.light_kernel}


def level(coefficient: str) -> str:
    """The patterns the coefficient's bootstrap statistic takes: ``'counts'`` or ``'fine'``."""
    return "counts" if coefficient in COUNT_METHODS else "fine"


def statistic(stats: Statistics, coefficient: str, w: np.ndarray, on: str = "fine") -> Any:
    """The coefficient as a function of resampled pattern counts, (b, P) -> (b,).

    ``on='fine'``: counts over ``stats.patterns`` (``statistic(stats.multiplicity[None])``
    is the estimate); ``on='counts'`` (coefficients on counts only): counts over
    ``stats.count_patterns``.

    Examples
    --------
    >>> import irr
    >>> ag = irr.Agreement.from_frame(irr.datasets.load("cac_raw4raters"))
    >>> f = statistic(ag.statistics, "gwet_ac", np.eye(5))
    >>> round(float(f(ag.statistics.multiplicity[None])[0]), 5)
    0.77544
    """
    check_choice(coefficient, "coefficient", (*COUNT_METHODS, *CODE_KERNELS))
    if coefficient in COUNT_METHODS:
        # partials of module-level functions, not closures: a result's bootstrap recipe
        # pickles, and can still be drawn after unpickling
        counts = stats.count_patterns
        on_counts = partial(_on_counts_kernel, counts.patterns, w, COUNT_METHODS[coefficient])
        return on_counts if on == "counts" else partial(_on_fine_counts, counts, on_counts)
    if on != "fine":
        raise ValueError(f"{coefficient} needs rater identities: its statistic is on 'fine'.")
    stats.require_raters(coefficient)
    return partial(_on_codes_kernel, CODE_KERNELS[coefficient], _codes(stats), w)


def _on_counts_kernel(patterns: np.ndarray, w: np.ndarray, method: str,
                      batch: np.ndarray) -> np.ndarray:
    """A coefficient on counts of resampled count `patterns`, (b, P') -> (b,)."""
    with np.errstate(invalid="ignore", divide="ignore"):
        return cc.counts_kernel(patterns, batch, w, method)


def _on_fine_counts(counts: Coarsening, on_counts: Any, batch: np.ndarray) -> np.ndarray:
    """`on_counts` of resampled fine-pattern counts mapped down to the count patterns."""
    return on_counts(counts.apply(batch))


def _on_codes_kernel(kernel: Any, codes: cc.CodeEntries, w: np.ndarray,
                     batch: np.ndarray) -> np.ndarray:
    """A coefficient on rater codes of resampled fine patterns, (b, P) -> (b,)."""
    with np.errstate(invalid="ignore", divide="ignore"):
        return kernel(codes, np.asarray(batch, dtype=float), w)


def _recipe(
    stats: Statistics, coefficient: str, w: np.ndarray, options: InferenceOptions,
    plan: ResamplingPlan,
) -> Any:
    """The coefficient's bootstrap recipe over the plan, at its own pattern level, built
    when it is drawn (:func:`_draw_recipe`): a call that never draws the bootstrap builds
    no count patterns."""
    return partial(_draw_recipe, stats, coefficient, w, options, plan)


def _draw_recipe(
    stats: Statistics, coefficient: str, w: np.ndarray, options: InferenceOptions,
    plan: ResamplingPlan,
) -> Any:
    """Draw the coefficient's bootstrap distribution over the plan (the same draws as
    the recipe built at once)."""
    return _built_recipe(stats, coefficient, w, options, plan)()


def _built_recipe(
    stats: Statistics, coefficient: str, w: np.ndarray, options: InferenceOptions,
    plan: ResamplingPlan,
) -> Any:
    """The coefficient's bootstrap recipe over the plan, at its own pattern level."""
    on = level(coefficient)
    # Light's kappa averages pairwise kappas: a subject with fewer than two ratings is in
    # no pair, so it is left out and not resampled. The Gwet family (Fleiss, Gwet, BP,
    # percent agreement) and Conger keep it: its rating enters the classification
    # probabilities (Gwet 2014, as irrCAC).
    keep = stats.ratings_per_pattern >= 2 if coefficient == "light_kappa" else None
    # subjects with multiplicity 0 (left out listwise) are not resampled either
    used = (stats.count_patterns.multiplicity if on == "counts" else stats.multiplicity) > 0
    if not used.all():
        keep = used if keep is None else keep & used
    return plan.recipe(statistic(stats, coefficient, w, on), options, on, keep=keep)


# -- coefficients on counts --------------------------------------------------------------
_COUNT_NAMES = {
    "gwet_ac": ("Gwet's AC1", "AC1"),
    "brennan_prediger": ("Brennan-Prediger", "κBP"),
}


def _on_counts(
    stats: Statistics, coefficient: str, weights: Any, options: InferenceOptions,
    plan: ResamplingPlan, missing: str = "available",
) -> ChanceCorrectedResult:
    """Gwet's AC1/AC2 or Brennan-Prediger."""
    stats, dropped = _listwise(stats, missing)
    w, wname = _weights(stats, weights)
    mult = stats.multiplicity
    name, symbol = _COUNT_NAMES[coefficient]
    if coefficient == "gwet_ac" and wname != "unweighted":
        name, symbol = f"Gwet's AC2 ({wname})", "AC2"
    else:
        name = _named(name, wname)
    cells = _count_rows(stats, wname)  # once
    _check_enough(cells, mult, name)
    method = COUNT_METHODS[coefficient]
    est = cc.counts_estimate(cells, mult, w, method)
    n_missing, notes = _missing_notes(cells, mult)
    notes = [SE_NOTE, *notes, *weights_note(wname, stats.scores, " (Gwet 2014)")]
    q = stats.n_categories
    if coefficient == "brennan_prediger":
        notes.append(f"Brennan-Prediger: chance agreement fixed at T_w/q^2 over the {q} "
                     "declared categories (Randolph's free-marginal kappa when unweighted).")
    else:
        notes.append(f"Gwet's AC: chance agreement over the {q} declared categories.")
    recipe = _recipe(stats, coefficient, w, options, plan)
    return _finish(stats, est, options, recipe, coefficient=name, symbol=symbol, notes=notes,
                   n_missing=n_missing, weights=wname, w=w, key=coefficient, dropped=dropped)


def gwet_ac(
    stats: Statistics, weights: Any, options: InferenceOptions, plan: ResamplingPlan,
    missing: str = "available",
) -> ChanceCorrectedResult:
    """Gwet's AC1 (unweighted) or AC2 (weighted); see :meth:`irr.Agreement.gwet_ac`."""
    return _on_counts(stats, "gwet_ac", weights, options, plan, missing)


def brennan_prediger(
    stats: Statistics, weights: Any, options: InferenceOptions, plan: ResamplingPlan,
    missing: str = "available",
) -> ChanceCorrectedResult:
    """Brennan & Prediger's coefficient; see :meth:`irr.Agreement.brennan_prediger`."""
    return _on_counts(stats, "brennan_prediger", weights, options, plan, missing)


def fleiss_kappa(
    stats: Statistics,
    weights: Any,
    options: InferenceOptions,
    plan: ResamplingPlan,
    *,
    name: str = "Fleiss' kappa",
    symbol: str = "κF",
    missing: str = "available",
) -> FleissKappaResult:
    """Fleiss' kappa with per-category kappas, FNL null SE and Gwet's linearised SE."""
    stats, dropped = _listwise(stats, missing)
    w, wname = _weights(stats, weights)
    patterns, mult = _count_rows(stats, wname), stats.multiplicity
    coefficient = _named(name, wname)
    _check_enough(patterns, mult, coefficient)
    est = cc.counts_estimate(patterns, mult, w, "fleiss")
    n_missing, notes = _missing_notes(patterns, mult)
    var0, var0_cat = cc.fleiss_null_variance(patterns, mult, est.shares, est.n_subjects)
    # a finite population (population=N) corrects every subject-sampling variance: the
    # SE under H0 of the test as the linearised SE (_finish), the per-category ones too
    fpc = options.fpc(est.n_subjects)
    var0, var0_cat = var0 * fpc, var0_cat * fpc
    # z on the SE under H0 where defined (a subject-sampling SE, with normal quantiles)
    null_test = (options.distribution == "normal" and options.sampling == "subjects"
                 and not options.null)
    notes = [SE_NOTE, *notes, *weights_note(wname, stats.scores, " (Gwet 2014)")]
    se0 = math.nan
    if wname == "unweighted" and np.isfinite(var0):
        se0 = math.sqrt(var0)
        notes.append(
            f"{name}: z uses the Fleiss, Nee & Landis (1979) SE under H0 "
            f"({se0:.4f}); the interval uses the linearised SE." if null_test else
            f"{name}: the Fleiss, Nee & Landis (1979) SE under H0 ({se0:.4f}) is in se0; "
            "the test uses the SE above."
        )
    elif wname == "unweighted" and null_test:
        notes.append(
            f"{name}: raters per subject vary, so Gwet's (2014) generalisation is used and "
            "z uses the linearised SE (the Fleiss, Nee & Landis null SE needs a constant "
            "number of raters)."
        )
    per_category = None
    if wname == "unweighted":  # a partial, not a closure: the result pickles
        per_category = partial(_per_category, stats, patterns, mult, var0_cat,
                               options.alternative, options.t_df(est.n_subjects), fpc)
    recipe = _recipe(stats, "fleiss_kappa", w, options, plan)
    return _finish(stats, est, options, recipe, coefficient=coefficient, symbol=symbol,
                   notes=notes, n_missing=n_missing, weights=wname, w=w, se0=se0,
                   result_type=FleissKappaResult, _per_category_source=per_category,
                   key="fleiss_kappa", dropped=dropped)


def _per_category(
    stats: Statistics, counts: cc.CountEntries | cc.RaterCodes, mult: np.ndarray, var0_cat: np.ndarray,
    alternative: str,
    df: float = math.inf,
    fpc: float = 1.0,
) -> pd.DataFrame:
    """Fleiss' (1971) category-vs-rest kappas: one row per category (with a finite `df`,
    the column ``z`` holds t statistics on the linearised SE, tested on t(df)); `fpc`
    multiplies the linearised variances (`var0_cat` comes corrected)."""
    if isinstance(counts, cc.RaterCodes):  # the per-category sums read the cells
        counts = _cells(stats)
    kappa, variance = cc.fleiss_category_kappas(counts, mult)
    se = np.sqrt(variance * fpc)  # nan stays nan
    se0 = np.sqrt(var0_cat)
    scale = np.where(np.isfinite(se0), se0, se) if math.isinf(df) else se
    with np.errstate(invalid="ignore", divide="ignore"):
        z = np.where(np.isfinite(kappa) & (scale > 0), kappa / scale, np.nan)
    return pd.DataFrame({"category": list(stats.categories), "kappa": kappa, "se": se,
                         "se0": se0, "z": z, "pvalue": _wald_pvalues(z, alternative, df)})


def _wald_pvalues(z: np.ndarray, alternative: str, df: float = math.inf) -> np.ndarray:
    """:func:`irr.results.wald_pvalue` of each statistic at once (nan where not finite)."""
    from scipy.special import ndtr, stdtr

    cdf = ndtr if math.isinf(df) else partial(stdtr, df)
    with np.errstate(invalid="ignore"):
        if alternative == "greater":
            p = cdf(-z)
        elif alternative == "less":
            p = cdf(z)
        else:
            p = np.minimum(1.0, 2 * cdf(-np.abs(z)))
    return np.where(np.isfinite(z), p, np.nan)


def percent_agreement(
    stats: Statistics, tolerance: float, options: InferenceOptions, plan: ResamplingPlan,
    missing: str = "available", weights: Any = None,
) -> ChanceCorrectedResult:
    """Gwet's multi-rater percent agreement with its linearised SE: exact agreement,
    agreement within `tolerance`, or weighted by `weights` (Gwet 2014: the mean over
    subjects of sum_kl w_kl r_ik (r_il - 1) / (r_i (r_i - 1)), as irrCAC's
    ``pa.coeff.raw(weights=)``)."""
    stats, dropped = _listwise(stats, missing)
    wname = weight_name(weights)
    if wname == "unweighted":
        w = tolerance_agreement(tolerance, stats.n_categories, stats.scores).astype(float)
        wname = "unweighted" if not tolerance else "tolerance"
    else:
        w, wname = _weights(stats, weights)
    mult = stats.multiplicity
    cells = _count_rows(stats, wname)  # once
    _check_enough(cells, mult, "Percent agreement")
    est = cc.counts_estimate(cells, mult, w, "percent")
    n_missing, notes = _missing_notes(cells, mult, chance=False)
    notes = ["Percent agreement (pairwise): the mean over subjects of the share of agreeing "
             "rater pairs (Gwet, 2014); percent agreement (all raters) is the share of subjects "
             "on whom all raters agree (R irr agree()).",
             SE_NOTE, *notes]
    # the test of `null` (when asked) and the clipping (unless ci_clip=False) have notes
    # of their own; say only what does not happen
    limits = "interval clipped to [0, 1]" if options.ci_clip else ""
    untested = "no test" if options.null is None else ""
    if limits or untested:
        notes.append(f"Percent agreement: {'; '.join(filter(None, (untested, limits)))}.")
    if tolerance:
        notes.append(f"Ratings within {tolerance:g} of each other on the category scores "
                     "count as agreeing.")
    if wname not in ("unweighted", "tolerance"):
        notes.extend(weights_note(wname, stats.scores, " (Gwet 2014)"))
    recipe = _recipe(stats, "percent_agreement", w, options, plan)
    within = tolerance_label(tolerance)
    weighted = "" if wname in ("unweighted", "tolerance") else f", {wname} weights"
    return _finish(stats, est, options, recipe,
                   coefficient=f"Percent agreement (pairwise{within[0]}{weighted})",
                   symbol=f"pa(pairwise{within[1]})",  # sentences name the weights
                   notes=notes, n_missing=n_missing,
                   weights=wname,
                   w=w, test=False, bounds=(0.0, 1.0), scale=None, key="percent_agreement",
                   dropped=dropped)


# -- coefficients that need rater identities ---------------------------------------------
def conger_kappa(
    stats: Statistics, weights: Any, options: InferenceOptions, plan: ResamplingPlan,
    missing: str = "available",
) -> ChanceCorrectedResult:
    """Conger's (1980) kappa with Gwet's linearised SE."""
    stats, dropped = _listwise(stats, missing)
    stats.require_raters("Conger's kappa")
    w, wname = _weights(stats, weights)
    coefficient = _named("Conger's kappa", wname)
    cells = _count_rows(stats, wname)  # once
    _check_enough(cells, stats.multiplicity, coefficient)
    codes = None if isinstance(cells, cc.RaterCodes) else _codes(stats)  # cells read codes
    est = cc.conger_estimate(codes, stats.multiplicity, w, cells)
    n_missing, notes = _missing_notes(cells, stats.multiplicity)
    notes = [SE_NOTE, *notes, *weights_note(wname, stats.scores, " (Gwet 2014)"),
             "Conger's kappa: chance agreement from each rater's own margins (over the "
             "subjects the rater rated), averaged over rater pairs."]
    recipe = _recipe(stats, "conger_kappa", w, options, plan)
    return _finish(stats, est, options, recipe, coefficient=coefficient, symbol="κC",
                   notes=notes, n_missing=n_missing, weights=wname, w=w, key="conger_kappa",
                   dropped=dropped)


def light_kappa(
    stats: Statistics, weights: Any, options: InferenceOptions, plan: ResamplingPlan,
    missing: str = "available",
) -> ChanceCorrectedResult:
    """Light's kappa: the mean of the pairwise Cohen's kappas, linearised SE."""
    stats, dropped = _listwise(stats, missing)
    stats.require_raters("Light's kappa")
    w, wname = _weights(stats, weights)
    mult = stats.multiplicity.astype(float)
    coefficient = _named("Light's kappa", wname)
    counts = np.column_stack([stats.ratings_per_pattern, np.zeros(len(mult))])
    _check_enough(counts, mult, coefficient)
    codes = _codes(stats)
    # a complete design (every rater rated every subject) pairs every rater with every
    # other; only an incomplete one lists its co-ratings to find the pairs that share none
    complete = bool((stats.ratings_per_pattern == stats.n_raters).all())
    lonely = ([] if complete
              else _lonely_pairs(cc.pair_cells(codes, stats.n_categories), stats.n_raters))
    if lonely:
        names = [(stats.raters[g], stats.raters[h]) for g, h in lonely]
        raise ValueError(
            f"Light's kappa needs every pair of raters to share a subject; these pairs "
            f"share none: {names!r}."
        )
    est = cc.light_estimate(codes, mult, w)
    n_missing = stats.subjects_with_fewer_ratings_than(2)
    notes = [
        "SE: linearised (delta-method) variance of the mean of the pairwise kappas, "
        "sum_i psi_i^2 / (n(n - 1)) over subjects with two or more ratings (a documented "
        "approximation; request a bootstrap interval for small samples).",
        "Light's kappa: each pair of raters uses the subjects both rated.",
        *weights_note(wname, stats.scores, " (Gwet 2014)"),
    ]
    if n_missing:
        notes.append(f"{n_missing} subject(s) with fewer than two ratings were left out.")
    recipe = _recipe(stats, "light_kappa", w, options, plan)
    return _finish(stats, est, options, recipe, coefficient=coefficient, symbol="κL",
                   notes=notes, n_missing=n_missing, weights=wname, w=w, key="light_kappa",
                   dropped=dropped)


PAIRWISE_STATISTICS = ("kappa", "percent_agreement", "scott_pi", "gwet_ac",
                       "brennan_prediger")


def pairwise(stats: Statistics, statistic: str = "kappa", weights: Any = None) -> pd.DataFrame:
    """The raters x raters matrix of a two-rater statistic (complete pairs)."""
    check_choice(statistic, "statistic", PAIRWISE_STATISTICS)
    stats.require_raters("The pairwise matrix")
    w, _ = _weights(stats, weights)
    mult = stats.multiplicity.astype(float)
    if statistic == "kappa":
        matrix = cc.pairwise_kappas(_codes(stats), mult, w)[0]
    else:
        stats.require_complete_design(f"The pairwise {statistic} matrix")
        matrix = cc.pairwise_counts(stats.patterns, mult, w, COUNT_METHODS[statistic])
    labels = pd.Index(stats.raters, name="rater")
    first, second = np.nonzero(np.triu(np.isnan(matrix), 1))
    if len(first):
        shown = ", ".join(f"{stats.raters[g]}-{stats.raters[h]}"
                          for g, h in zip(first[:5], second[:5], strict=True))
        more = f" and {len(first) - 5} more" if len(first) > 5 else ""
        warnings.warn(
            f"The pairwise {statistic} is undefined (nan) for {len(first)} pair(s) of raters "
            f"({shown}{more}): they share no subject, or their table leaves it undefined "
            "(e.g. a single category).", DegenerateDataWarning, stacklevel=3)
    return pd.DataFrame(matrix, index=labels, columns=labels.rename(None))
