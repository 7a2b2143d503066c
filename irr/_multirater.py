"""Chance-corrected agreement of two or more raters: from an Agreement to a result.

The formulas live in :mod:`irr.coefficients.chance_corrected`; this module picks the
sufficient statistic of an :class:`~irr.Agreement` (subject x category counts or rater
code rows, each with a multiplicity), calls the kernel, and builds the result with its
inference and notes. The :class:`~irr.Agreement` methods delegate here.
"""

from __future__ import annotations

import math
import warnings
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

import numpy as np
import pandas as pd

from irr._table import subject_category_counts, unique_patterns
from irr._validation import (
    DegenerateDataWarning,
    check_alternative,
    check_choice,
    check_confidence_level,
)
from irr.coefficients import chance_corrected as cc
from irr.coefficients.weight_schemes import gwet_weight_name, gwet_weights
from irr.results import Result, normal_pvalue, wald_interval

if TYPE_CHECKING:
    from irr.agreement import Agreement

__all__ = ["ChanceCorrectedResult", "FleissKappaResult", "bootstrap_kernel"]

COUNT_COEFFICIENTS = ("fleiss_kappa", "scott_pi", "gwet_ac", "brennan_prediger",
                      "percent_agreement")

SE_NOTE = (
    "SE: Gwet (2008, 2014) linearised subject-sampling variance "
    "sum_i (k*_i - k)^2 / (n(n - 1)) (divisor n - 1, as irrCAC on raw ratings); Wald "
    "interval and z test with normal quantiles (irrCAC uses t with n - 1 df)."
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
    (the scheme's name), ``weight_matrix``, ``categories``, ``n_paired`` (subjects with
    two or more ratings, on which p_a is computed) and ``se0`` (a standard error under
    H0 where one is defined, else nan).

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
    weight_matrix: np.ndarray = field(default=None, repr=False)
    categories: tuple = ()
    n_paired: int = 0
    se0: float = math.nan

    def _extras(self) -> dict[str, Any]:
        return {
            "observed_agreement": self.observed_agreement,
            "expected_agreement": self.expected_agreement,
            "weights": self.weights,
            "n_paired": self.n_paired,
            "se0": self.se0,
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

    per_category: pd.DataFrame | None = field(default=None, repr=False)


# -- sufficient statistics of an Agreement ---------------------------------------------
def subject_counts(ag: Agreement) -> tuple[np.ndarray, np.ndarray]:
    """Distinct subject x category count rows and their multiplicities (subjects with
    the same counts contribute identically to every coefficient on counts)."""
    k = ag._ratings.n_categories
    if ag._given_counts is not None:
        counts = ag._given_counts
        return counts, np.ones(len(counts))
    if ag._given_table is not None:
        cells = np.arange(k * k)
        rows = np.zeros((k * k, k), dtype=np.int64)
        np.add.at(rows, (cells, cells // k), 1)
        np.add.at(rows, (cells, cells % k), 1)
        return rows, ag._given_table.ravel().astype(float)
    rows = cc.code_patterns(ag._ratings.codes, k)
    if rows is not None:
        codes, multiplicity = rows
        counts = _count_rows(codes, k)
        base = codes.shape[1] + 1
        if k * np.log2(base) < 62:  # one integer per count row: a 1-D unique is fast
            keys = counts @ base ** np.arange(k, dtype=np.int64)
            _, first, inverse = np.unique(keys, return_index=True, return_inverse=True)
            patterns = counts[first]
        else:
            patterns, _, inverse = unique_patterns(counts)
        return patterns, np.bincount(inverse, weights=multiplicity, minlength=len(patterns))
    compressed = cc.count_patterns(ag._ratings.codes, k)
    if compressed is not None:
        return compressed
    return unique_patterns(subject_category_counts(ag._ratings.codes, k))[:2]


def code_rows(ag: Agreement, what: str) -> tuple[np.ndarray, np.ndarray]:
    """Distinct rater code rows (P, m) and their multiplicities; needs rater identities."""
    if ag._given_counts is not None:
        available = ", ".join(f"{name}()" for name in COUNT_COEFFICIENTS)
        raise ValueError(
            f"{what} needs to know which rater gave which rating, but this Agreement was "
            "built from subject x category counts (Agreement.from_counts). On counts use "
            f"{available}."
        )
    k = ag._ratings.n_categories
    if ag._given_table is not None:
        cells = np.arange(k * k)
        return np.column_stack([cells // k, cells % k]), ag._given_table.ravel().astype(float)
    rows = cc.code_patterns(ag._ratings.codes, k)
    if rows is not None:
        return rows[0], rows[1].astype(float)
    codes = np.column_stack(ag._ratings.codes)
    return codes, np.ones(len(codes))


# -- helpers -----------------------------------------------------------------------------
def _count_rows(codes: np.ndarray, k: int) -> np.ndarray:
    """Rater code rows (P, m), -1 = missing, as subject x category counts (P, k)."""
    return (codes[..., None] == np.arange(k)).sum(axis=1)


def _weights(ag: Agreement, weights: Any) -> tuple[np.ndarray, str]:
    k = ag._ratings.n_categories
    return gwet_weights(weights, k, ag._ratings.scores), gwet_weight_name(weights)


def _check_enough(counts: np.ndarray, multiplicity: np.ndarray, what: str) -> None:
    r = np.asarray(counts).sum(axis=1)
    paired = float(multiplicity[r >= 2].sum())
    if paired < 2:
        raise ValueError(
            f"{what} needs at least two subjects with two or more ratings; these data have "
            f"{paired:g}."
        )


def _missing_notes(counts: np.ndarray, multiplicity: np.ndarray) -> tuple[int, list[str]]:
    r = np.asarray(counts).sum(axis=1)
    none = int(multiplicity[r == 0].sum())
    single = int(multiplicity[r == 1].sum())
    notes = [MISSING_NOTE]
    if none:
        notes.append(f"{none} subject(s) with no rating were left out.")
    if single:
        notes.append(
            f"{single} subject(s) with a single rating enter the chance agreement only."
        )
    return none, notes


def _weight_note(ag: Agreement, name: str) -> list[str]:
    if name in ("unweighted", "custom"):
        return [] if name == "unweighted" else ["Custom agreement weights."]
    scores = ag._ratings.scores
    shown = "" if scores is None else ", ".join(f"{s:g}" for s in scores[:8])
    more = ", ..." if scores is not None and len(scores) > 8 else ""
    return [f"{name.capitalize()} agreement weights (Gwet 2014) on category scores "
            f"[{shown}{more}]."]


def _warn_if_undefined(estimate: float, what: str, n_categories: int) -> None:
    if math.isnan(estimate):
        reason = (
            "only one category is declared (pass `categories=` with the full scale)"
            if n_categories < 2
            else "chance agreement p_e is 1 (every rating in one category)"
        )
        warnings.warn(f"{what} is undefined (nan): {reason}.", DegenerateDataWarning,
                      stacklevel=3)


def _finish(
    ag: Agreement,
    est: cc.CountsEstimate,
    *,
    coefficient: str,
    symbol: str,
    alternative: str,
    confidence_level: float,
    notes: list[str],
    n_missing: int,
    weights: str,
    w: np.ndarray,
    se0: float = math.nan,
    test: bool = True,
    bounds: tuple[float, float] = (-1.0, 1.0),
    result_type: type = ChanceCorrectedResult,
    **extra: Any,
) -> ChanceCorrectedResult:
    estimate = float(est.estimate)
    se = math.sqrt(est.variance) if np.isfinite(est.variance) else math.nan
    _warn_if_undefined(estimate, coefficient, ag._ratings.n_categories)
    if not test:
        statistic = math.nan
    elif np.isfinite(se0) and se0 > 0:
        statistic = estimate / se0
    else:
        statistic = estimate / se if se > 0 else math.nan
    return result_type(
        coefficient=coefficient,
        symbol=symbol,
        estimate=estimate,
        se=se,
        statistic=statistic,
        pvalue=normal_pvalue(statistic, alternative),
        alternative=alternative,
        ci=wald_interval(estimate, se, confidence_level, bounds),
        n_subjects=est.n_subjects,
        n_missing=n_missing,
        raters=ag.raters,
        notes=tuple(notes),
        bounds=bounds,
        observed_agreement=float(est.observed),
        expected_agreement=float(est.expected),
        weights=weights,
        weight_matrix=w,
        categories=tuple(ag.categories),
        n_paired=est.n_paired,
        se0=se0,
        **extra,
    )


def _prepared(
    ag: Agreement, weights: Any, alternative: str, confidence_level: float
) -> tuple[str, float, np.ndarray, str]:
    """Validated (alternative, confidence_level, weight matrix, weight scheme name)."""
    alternative = check_alternative(alternative)
    confidence_level = check_confidence_level(confidence_level)
    w, wname = _weights(ag, weights)
    return alternative, confidence_level, w, wname


def _named(name: str, wname: str) -> str:
    """The coefficient's display name, with the weight scheme when weighted."""
    return name if wname == "unweighted" else f"{name} ({wname})"


# -- coefficients on counts --------------------------------------------------------------
_COUNT_NAMES = {
    "fleiss": ("Fleiss' kappa", "κF"),
    "gwet": ("Gwet's AC1", "AC1"),
    "brennan_prediger": ("Brennan-Prediger", "κBP"),
}


def counts_coefficient(
    ag: Agreement,
    method: str,
    weights: Any = None,
    *,
    alternative: str = "two-sided",
    confidence_level: float = 0.95,
    name: str | None = None,
) -> ChanceCorrectedResult:
    """Fleiss' kappa (Scott's pi), Gwet's AC1/AC2 or Brennan-Prediger on counts."""
    alternative, confidence_level, w, wname = _prepared(ag, weights, alternative, confidence_level)
    counts, mult = subject_counts(ag)
    coefficient, symbol = _COUNT_NAMES[method]
    if name is not None:
        coefficient = name
    if method == "gwet" and wname != "unweighted":
        coefficient, symbol = f"Gwet's AC2 ({wname})", "AC2"
    else:
        coefficient = _named(coefficient, wname)
    _check_enough(counts, mult, coefficient)
    est = cc.counts_estimate(counts, mult, w, method)
    n_missing, notes = _missing_notes(counts, mult)
    notes = [SE_NOTE, *notes, *_weight_note(ag, wname)]
    if method == "brennan_prediger":
        notes.append(f"Brennan-Prediger: chance agreement fixed at T_w/q^2 over the "
                     f"{ag._ratings.n_categories} declared categories (Randolph's "
                     "free-marginal kappa when unweighted).")
    if method == "gwet":
        notes.append(f"Gwet's AC: chance agreement over the {ag._ratings.n_categories} "
                     "declared categories.")
    return _finish(ag, est, coefficient=coefficient, symbol=symbol, alternative=alternative,
                   confidence_level=confidence_level, notes=notes, n_missing=n_missing,
                   weights=wname, w=w)


def fleiss_kappa(
    ag: Agreement,
    weights: Any = None,
    *,
    alternative: str = "two-sided",
    confidence_level: float = 0.95,
    name: str = "Fleiss' kappa",
    symbol: str = "κF",
) -> FleissKappaResult:
    """Fleiss' kappa with per-category kappas, FNL null SE and Gwet's linearised SE."""
    alternative, confidence_level, w, wname = _prepared(ag, weights, alternative, confidence_level)
    counts, mult = subject_counts(ag)
    coefficient = _named(name, wname)
    _check_enough(counts, mult, coefficient)
    est = cc.counts_estimate(counts, mult, w, "fleiss")
    n_missing, notes = _missing_notes(counts, mult)
    var0, var0_cat = cc.fleiss_null_variance(counts, mult)
    notes = [SE_NOTE, *notes, *_weight_note(ag, wname)]
    se0 = math.nan
    if wname == "unweighted" and np.isfinite(var0):
        se0 = math.sqrt(var0)
        notes.append(
            f"{name}: z uses the Fleiss, Nee & Landis (1979) SE under H0 "
            f"({se0:.4f}); the interval uses the linearised SE."
        )
    elif wname == "unweighted":
        notes.append(
            f"{name}: raters per subject vary, so Gwet's (2014) generalisation is used and "
            "z uses the linearised SE (the Fleiss, Nee & Landis null SE needs a constant "
            "number of raters)."
        )
    per_category = None
    if wname == "unweighted":
        per_category = _per_category(ag, counts, mult, var0_cat, alternative)
    return _finish(ag, est, coefficient=coefficient, symbol=symbol, alternative=alternative,
                   confidence_level=confidence_level, notes=notes, n_missing=n_missing,
                   weights=wname, w=w, se0=se0, result_type=FleissKappaResult,
                   per_category=per_category)


def _per_category(ag, counts, mult, var0_cat, alternative) -> pd.DataFrame:
    counts = np.asarray(counts)
    r = counts.sum(axis=1)
    rows = []
    eye2 = np.eye(2)
    for j in range(counts.shape[1]):
        split = np.column_stack([counts[:, j], r - counts[:, j]])
        est = cc.counts_estimate(split, mult, eye2, "fleiss")
        kappa = float(est.estimate)
        se = math.sqrt(est.variance) if np.isfinite(est.variance) else math.nan
        se0 = math.sqrt(var0_cat[j]) if np.isfinite(var0_cat[j]) else math.nan
        scale = se0 if np.isfinite(se0) else se
        z = kappa / scale if np.isfinite(kappa) and scale > 0 else math.nan
        rows.append((ag.categories[j], kappa, se, se0, z, normal_pvalue(z, alternative)))
    return pd.DataFrame(rows, columns=["category", "kappa", "se", "se0", "z", "pvalue"])


def percent_agreement(
    ag: Agreement, tolerance: float = 0, *, confidence_level: float = 0.95
) -> ChanceCorrectedResult:
    """Gwet's multi-rater percent agreement with its linearised SE."""
    confidence_level = check_confidence_level(confidence_level)
    w = tolerance_weights(ag, tolerance)
    counts, mult = subject_counts(ag)
    _check_enough(counts, mult, "Percent agreement")
    est = cc.counts_estimate(counts, mult, w, "percent")
    n_missing, notes = _missing_notes(counts, mult)
    notes = [SE_NOTE, *notes, "Percent agreement: no test; interval clipped to [0, 1]."]
    if tolerance:
        notes.append(f"Ratings within {tolerance:g} of each other on the category scores "
                     "count as agreeing.")
    return _finish(ag, est, coefficient="Percent agreement", symbol="pa",
                   alternative="two-sided", confidence_level=confidence_level, notes=notes,
                   n_missing=n_missing, weights="unweighted" if not tolerance else "tolerance",
                   w=w, test=False, bounds=(0.0, 1.0), scale=None)


def tolerance_weights(ag: Agreement, tolerance: Any) -> np.ndarray:
    """0/1 agreement weights: 1 where two category scores differ by at most `tolerance`."""
    from irr.weights import tolerance_agreement

    ratings = ag._ratings
    return tolerance_agreement(tolerance, ratings.n_categories, ratings.scores).astype(float)


# -- coefficients that need rater identities ---------------------------------------------
def conger_kappa(
    ag: Agreement,
    weights: Any = None,
    *,
    alternative: str = "two-sided",
    confidence_level: float = 0.95,
) -> ChanceCorrectedResult:
    """Conger's (1980) kappa with Gwet's linearised SE."""
    alternative, confidence_level, w, wname = _prepared(ag, weights, alternative, confidence_level)
    codes, mult = code_rows(ag, "Conger's kappa")
    counts = _count_rows(codes, w.shape[0])
    coefficient = _named("Conger's kappa", wname)
    _check_enough(counts, mult, coefficient)
    est = cc.conger_estimate(codes, mult, w)
    n_missing, notes = _missing_notes(counts, mult)
    notes = [SE_NOTE, *notes, *_weight_note(ag, wname),
             "Conger's kappa: chance agreement from each rater's own margins (over the "
             "subjects the rater rated), averaged over rater pairs."]
    return _finish(ag, est, coefficient=coefficient, symbol="κC", alternative=alternative,
                   confidence_level=confidence_level, notes=notes, n_missing=n_missing,
                   weights=wname, w=w)


def light_kappa(
    ag: Agreement,
    weights: Any = None,
    *,
    alternative: str = "two-sided",
    confidence_level: float = 0.95,
) -> ChanceCorrectedResult:
    """Light's kappa: the mean of the pairwise Cohen's kappas, linearised SE."""
    alternative, confidence_level, w, wname = _prepared(ag, weights, alternative, confidence_level)
    codes, mult = code_rows(ag, "Light's kappa")
    present = codes >= 0
    coefficient = _named("Light's kappa", wname)
    counts = np.column_stack([present.sum(axis=1), np.zeros(len(codes))])
    _check_enough(counts, mult, coefficient)
    m = codes.shape[1]
    shared = present.T.astype(float) @ (present * mult[:, None])
    lonely = [(ag.raters[g], ag.raters[h]) for g in range(m) for h in range(g + 1, m)
              if shared[g, h] == 0]
    if lonely:
        raise ValueError(
            f"Light's kappa needs every pair of raters to share a subject; these pairs "
            f"share none: {lonely[:5]!r}."
        )
    est = cc.light_estimate(codes, mult, w)
    n_missing = int(mult[present.sum(axis=1) < 2].sum())
    notes = [
        "SE: linearised (delta-method) variance of the mean of the pairwise kappas, "
        "sum_i psi_i^2 / (n(n - 1)) over subjects with two or more ratings (a documented "
        "approximation; request a bootstrap interval for small samples).",
        "Light's kappa: each pair of raters uses the subjects both rated.",
        *_weight_note(ag, wname),
    ]
    if n_missing:
        notes.append(f"{n_missing} subject(s) with fewer than two ratings were left out.")
    return _finish(ag, est, coefficient=coefficient, symbol="κL", alternative=alternative,
                   confidence_level=confidence_level, notes=notes, n_missing=n_missing,
                   weights=wname, w=w)


PAIRWISE_STATISTICS = ("kappa", "percent_agreement", "scott_pi", "gwet_ac",
                       "brennan_prediger")


def pairwise(ag: Agreement, statistic: str = "kappa", weights: Any = None) -> pd.DataFrame:
    """The raters x raters matrix of a two-rater statistic (complete pairs)."""
    check_choice(statistic, "statistic", PAIRWISE_STATISTICS)
    w, _ = _weights(ag, weights)
    codes, mult = code_rows(ag, "The pairwise matrix")
    m = codes.shape[1]
    if statistic == "kappa":
        matrix = cc.pairwise_kappas(codes, mult, w)[0]
    else:
        method = {"percent_agreement": "percent", "scott_pi": "fleiss",
                  "gwet_ac": "gwet", "brennan_prediger": "brennan_prediger"}[statistic]
        k = w.shape[0]
        matrix = np.ones((m, m))
        for g in range(m):
            for h in range(g + 1, m):
                pair = codes[:, [g, h]]
                keep = (pair >= 0).all(axis=1)
                counts = _count_rows(pair[keep], k)
                with np.errstate(invalid="ignore", divide="ignore"):
                    value = cc.counts_kernel(counts, mult[keep], w, method)[0]
                matrix[g, h] = matrix[h, g] = value
    labels = pd.Index(ag.raters, name="rater")
    return pd.DataFrame(matrix, index=labels, columns=labels.rename(None))


#: Rows of the multi-rater ``Agreement.summary()``: (method name, keyword arguments,
#: whether the method also works on subject x category counts). Add a coefficient with
#: one line here.
MULTIRATER_SUMMARY: list[tuple[str, dict[str, Any], bool]] = [
    ("percent_agreement", {}, True),
    ("fleiss_kappa", {}, True),
    ("conger_kappa", {}, False),
    ("light_kappa", {}, False),
    ("gwet_ac", {}, True),
    ("brennan_prediger", {}, True),
    # A fixed seed keeps the summary reproducible (alpha's interval is a bootstrap).
    ("krippendorff_alpha", {"level": "nominal", "rng": 0}, False),
]

#: Rows added when the categories have numeric scores (ordinal or interval ratings).
SCORED_SUMMARY: list[tuple[str, dict[str, Any], bool]] = [
    ("krippendorff_alpha", {"level": "interval", "rng": 0}, False),
    ("icc", {"model": "twoway", "type": "agreement", "unit": "single"}, False),
]


def summary_results(ag: Agreement, confidence_level: float) -> list[Result]:
    """The results of every applicable row of :data:`MULTIRATER_SUMMARY`."""
    on_counts = ag._given_counts is not None
    results = []
    rows = MULTIRATER_SUMMARY + (SCORED_SUMMARY if ag._ratings.scores is not None else [])
    for method, kwargs, counts_ok in rows:
        if on_counts and not counts_ok:
            continue
        results.append(getattr(ag, method)(confidence_level=confidence_level, **kwargs))
    return results


_KERNEL_METHODS = {
    "fleiss_kappa": "fleiss",
    "scott_pi": "fleiss",
    "gwet_ac": "gwet",
    "brennan_prediger": "brennan_prediger",
    "percent_agreement": "percent",
}


def bootstrap_kernel(
    ag: Agreement, coefficient: str, weights: Any = None, tolerance: float = 0
) -> tuple[np.ndarray, np.ndarray, Any]:
    """What the bootstrap engine needs to resample a multi-rater coefficient.

    Returns ``(patterns, multiplicity, statistic)``: the distinct subject patterns (count
    rows, or rater code rows for Conger and Light), how many subjects have each, and a
    pure function ``statistic(batch)`` mapping resampled pattern counts of shape (b, P)
    to the coefficient, shape (b,). ``statistic(multiplicity[None])`` is the estimate.

    Examples
    --------
    >>> import irr
    >>> ag = irr.Agreement.from_frame(irr.datasets.load("cac_raw4raters"))
    >>> patterns, multiplicity, statistic = bootstrap_kernel(ag, "gwet_ac")
    >>> round(float(statistic(multiplicity[None])[0]), 5)
    0.77544
    """
    names = (*_KERNEL_METHODS, "conger_kappa", "light_kappa")
    check_choice(coefficient, "coefficient", names)
    if coefficient == "percent_agreement":
        w = tolerance_weights(ag, tolerance)
    else:
        w, _ = _weights(ag, weights)
    if coefficient in _KERNEL_METHODS:
        method = _KERNEL_METHODS[coefficient]
        patterns, multiplicity = subject_counts(ag)

        def statistic(batch: np.ndarray) -> np.ndarray:
            with np.errstate(invalid="ignore", divide="ignore"):
                return cc.counts_kernel(patterns, batch, w, method)

        return patterns, multiplicity, statistic
    patterns, multiplicity = code_rows(ag, coefficient)
    kernel = cc.conger_kernel if coefficient == "conger_kappa" else cc.light_kernel

    def statistic(batch: np.ndarray) -> np.ndarray:
        with np.errstate(invalid="ignore", divide="ignore"):
            return kernel(patterns, batch, w)

    return patterns, multiplicity, statistic
