"""Comparing agreement coefficients: the difference of two coefficients on the same
subjects (correlated), of two coefficients of separate groups (independent), and the
pooled estimate of independent groups with the test that they are equal.

Correlated coefficients (Gwet 2016): each chance-corrected coefficient is, to first
order, the mean of per-subject *linearised* values :math:`\\kappa^\\star_i` (those behind
the package's Gwet and Fleiss-Cohen-Everitt standard errors), so the difference of two
coefficients on the same subjects is the mean of the paired differences
:math:`d_i = \\kappa^\\star_{1i} - \\kappa^\\star_{2i}` and

.. math:: \\widehat{V}(\\hat\\kappa_1 - \\hat\\kappa_2) = \\frac{1}{n(n-1)}
    \\sum_i (d_i - \\bar d)^2 .

The bootstrap resamples the subjects once for both coefficients (multinomial counts over
the distinct *pairs* of rating patterns), so its replicates of the two coefficients are
paired.
"""

from __future__ import annotations

import math
import warnings
from collections.abc import Sequence
from dataclasses import dataclass, field, replace
from functools import partial
from typing import Any, ClassVar

import numpy as np
import pandas as pd

from irr._numbers import format_interval, format_number, format_pvalue
from irr._validation import DegenerateDataWarning
from irr.coefficients import chance_corrected as cc
from irr.coefficients.icc import MeanSquares, icc_estimate
from irr.coefficients.kappa import kappa_from_cells
from irr.coefficients.krippendorff import alpha_kernel, distance_matrix
from irr.estimators.kappa import kappa_influence
from irr.inference.bootstrap import bootstrap_counts
from irr.inference.options import BOOTSTRAP_METHODS, InferenceOptions
from irr.results import ConfidenceInterval, Result, normal_pvalue, wald_interval
from irr.summary import results_summary

__all__ = ["LINEARISED", "DifferenceResult", "PooledResult", "Side", "difference_bounds",
           "fisher_z", "icc_kernel", "independent_difference", "paired_difference", "pooled"]

#: The statistics of a paired comparison, and the method of
#: :func:`irr.coefficients.chance_corrected.counts_estimate` of those on counts (None: its
#: own kernel).
LINEARISED: dict[str, str | None] = {
    "kappa": None,
    "fleiss_kappa": "fleiss",
    "scott_pi": "fleiss",
    "gwet_ac": "gwet",
    "brennan_prediger": "brennan_prediger",
    "percent_agreement": "percent",
    "conger_kappa": None,
    "light_kappa": None,
    "krippendorff_alpha": None,
    "icc": None,
}

#: Statistics whose linearised values are the closed forms of the package's own SEs; the
#: others' come from the empirical influence function of their batch kernel.
_CLOSED_FORM = ("kappa", "fleiss_kappa", "scott_pi", "gwet_ac", "brennan_prediger",
                "percent_agreement")

_SE_NOTE = ("SE of the difference: Gwet (2016) linearisation, sum_i (d_i - d)^2 / (n(n - 1)) "
            "over the paired subjects' linearised values; z test and Wald interval with "
            "normal quantiles.")

#: Relative step of the central differences of the influence function.
_STEP = 1e-6
#: Upper bound on the (rows x patterns) perturbed counts evaluated at once.
_INFLUENCE_CELLS = 1 << 22


@dataclass(frozen=True, eq=False)
class Side:
    """One coefficient of a paired comparison, on per-subject rater codes.

    Attributes
    ----------
    codes : ndarray of shape (n, m)
        Category codes (``-1`` missing) of the m raters this coefficient uses, one row
        per subject, in the order shared with the other side.
    weights : ndarray of shape (k, k)
        Agreement weights on this side's k categories (the identity where none apply).
    statistic : str
        A key of :data:`LINEARISED`.
    name : str
        The coefficient as sentences name it, e.g. ``"Cohen's κw (quadratic weights)"``.
    scores : ndarray of shape (k,) or None
        The category scores (Krippendorff's interval and ratio alpha, the ICC).
    form : tuple
        Krippendorff's alpha: ``(level,)``; the ICC: ``(model, type, unit)``.
    bounds : (float, float)
        The coefficient's range (its result's ``bounds``): the difference's interval is
        clipped to the range of differences, :func:`difference_bounds`.
    """

    codes: np.ndarray
    weights: np.ndarray
    statistic: str
    name: str
    scores: np.ndarray | None = None
    form: tuple = ()
    bounds: tuple[float, float] = (-1.0, 1.0)

    @property
    def n_categories(self) -> int:
        return self.weights.shape[0]

    def used(self) -> np.ndarray:
        """The subjects the coefficient uses: both ratings for Cohen's kappa, every
        rating for the ICC, two or more for Krippendorff's and Light's (pairable units),
        at least one for the coefficients on counts and Conger's (Gwet's rule for
        missing ratings)."""
        rated = self.codes >= 0
        if self.statistic in ("kappa", "icc"):
            return rated.all(axis=1)
        if self.statistic in ("krippendorff_alpha", "light_kappa"):
            return rated.sum(axis=1) >= 2
        return rated.any(axis=1)

    def patterns(self, rows: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        """(distinct patterns, each subject's pattern) of the subjects `rows`: cells
        ``(a, b)`` of the table for Cohen's kappa, rows of codes for Conger's and Light's
        kappa, rows of scores for the ICC, subject x category count rows otherwise."""
        codes = self.codes[rows]
        k = self.n_categories
        if self.statistic == "kappa":
            keys, inverse = np.unique(codes[:, 0] * k + codes[:, 1], return_inverse=True)
            return np.column_stack([keys // k, keys % k]), inverse.reshape(-1)
        if self.statistic in ("conger_kappa", "light_kappa", "icc"):
            patterns, inverse = np.unique(codes, axis=0, return_inverse=True)
            if self.statistic == "icc":
                patterns = self.scores[patterns]
            return patterns, inverse.reshape(-1)
        n, m = codes.shape
        rated = codes >= 0
        subject = np.repeat(np.arange(n), m).reshape(n, m)[rated]
        counts = np.bincount(subject * k + codes[rated], minlength=n * k).reshape(n, k)
        patterns, inverse = np.unique(counts, axis=0, return_inverse=True)
        return patterns, inverse.reshape(-1)


def icc_kernel(scores: np.ndarray, batch: np.ndarray, form: tuple[str, str, str]
               ) -> np.ndarray:
    """The ICC of `form` (model, type, unit) for a batch of resampled counts of the
    complete score rows `scores` (P, k): shape (b, P) -> (b,), from the weighted mean
    squares of the two-way layout (McGraw & Wong 1996, Table 4, as
    :func:`irr.coefficients.icc.icc_estimate`)."""
    batch = np.atleast_2d(np.asarray(batch, dtype=float))
    x = scores - scores.mean()
    k = x.shape[1]
    n = batch.sum(axis=1)
    row_mean = x.mean(axis=1)
    grand = (batch @ row_mean) / n
    columns = (batch @ x) / n[:, None]
    ss_total = batch @ (x * x).sum(axis=1) - n * k * grand**2
    ss_rows = k * (batch @ row_mean**2 - n * grand**2)
    ss_columns = n * ((columns - grand[:, None]) ** 2).sum(axis=1)
    ss_within = ss_total - ss_rows
    ss_error = ss_within - ss_columns
    with np.errstate(invalid="ignore", divide="ignore"):
        ms = MeanSquares(ss_rows / (n - 1), ss_columns / (k - 1),
                         ss_error / ((n - 1) * (k - 1)), ss_within / (n * (k - 1)), n, k)
        return np.asarray(icc_estimate(ms, *form), dtype=float)


def _side_statistic(side: Side, patterns: np.ndarray, batch: np.ndarray) -> np.ndarray:
    """The coefficient of a batch of pattern counts, shape (b, P) -> (b,)."""
    statistic = side.statistic
    if statistic == "kappa":
        return kappa_from_cells(batch, patterns[:, 0], patterns[:, 1], side.weights)
    if statistic == "conger_kappa":
        return cc.conger_kernel(patterns, batch, side.weights)
    if statistic == "light_kappa":
        return cc.light_kernel(patterns, batch, side.weights)
    if statistic == "krippendorff_alpha":
        level = side.form[0]
        distance = (distance_matrix(level, side.n_categories, side.scores)
                    if level == "ratio" else level)
        return alpha_kernel(patterns, batch, distance, scores=side.scores)
    if statistic == "icc":
        return icc_kernel(patterns, batch, side.form)
    return cc.counts_kernel(patterns, batch, side.weights, LINEARISED[statistic])


def _influence(side: Side, patterns: np.ndarray, multiplicity: np.ndarray) -> np.ndarray:
    """Each pattern's empirical influence on the coefficient: the derivative of the
    coefficient of ``(1 - e) F + e delta_p`` at e = 0 (F the patterns' shares), by central
    differences of the batch kernel, in chunks of perturbed count vectors."""
    c = np.asarray(multiplicity, dtype=float)
    n, size = c.sum(), len(c)
    # a step that keeps every perturbed count positive (millions of subjects)
    eps = min(_STEP, 0.5 * c[c > 0].min() / n)
    out = np.empty(size)
    step = max(1, _INFLUENCE_CELLS // max(1, 2 * size))
    for start in range(0, size, step):  # chunks of patterns, each one batched call
        stop = min(size, start + step)
        point = np.zeros((stop - start, size))
        point[np.arange(stop - start), np.arange(start, stop)] = n
        up = (1 - eps) * c + eps * point
        down = (1 + eps) * c - eps * point
        values = _side_statistic(side, patterns, np.concatenate([up, down]))
        out[start:stop] = (values[: stop - start] - values[stop - start:]) / (2 * eps)
    return out


def _estimate_and_terms(side: Side, patterns: np.ndarray, multiplicity: np.ndarray
                        ) -> tuple[float, np.ndarray]:
    """The coefficient and each pattern's linearised value (mean: the coefficient)."""
    if side.statistic == "kappa":
        k = side.n_categories
        table = np.bincount(patterns[:, 0] * k + patterns[:, 1], weights=multiplicity,
                            minlength=k * k).reshape(k, k)
        estimate = float(kappa_from_cells(multiplicity[None, :], patterns[:, 0],
                                          patterns[:, 1], side.weights)[0])
        if not math.isfinite(estimate):
            return math.nan, np.full(len(patterns), math.nan)
        h = kappa_influence(table, side.weights)
        return estimate, estimate + h[patterns[:, 0], patterns[:, 1]]
    if side.statistic in _CLOSED_FORM:
        est = cc.counts_estimate(patterns, multiplicity, side.weights,
                                 LINEARISED[side.statistic])
        if est.terms is None or not math.isfinite(est.estimate):
            return math.nan, np.full(len(patterns), math.nan)
        return float(est.estimate), est.terms
    estimate = float(_side_statistic(side, patterns, multiplicity[None, :])[0])
    if not math.isfinite(estimate):
        return math.nan, np.full(len(patterns), math.nan)
    return estimate, estimate + _influence(side, patterns, multiplicity)


def _difference_statistic(sides: tuple[Side, Side], patterns: tuple[np.ndarray, np.ndarray],
                          maps: tuple[tuple[np.ndarray, np.ndarray], ...],
                          batch: np.ndarray) -> np.ndarray:
    """First minus second coefficient of a batch of counts over the joint patterns."""
    values = []
    for side, pattern, (order, starts) in zip(sides, patterns, maps, strict=True):
        counts = np.add.reduceat(np.asarray(batch, dtype=float)[:, order], starts, axis=1)
        values.append(_side_statistic(side, pattern, counts))
    return values[0] - values[1]


def _coefficient(names: tuple[str, str], labels: tuple[str, str]) -> str:
    """The row name of a difference: ``"κ: after - before"``, ``"Fleiss' κ - Gwet's AC1"``
    or ``"κ (A-B) - AC1 (C-D)"``."""
    if names[0] == names[1]:
        return f"{names[0]}: {labels[0]} - {labels[1]}"
    if tuple(labels) == tuple(names):
        return f"{names[0]} - {names[1]}"
    return f"{names[0]} ({labels[0]}) - {names[1]} ({labels[1]})"


def _reduce_map(index: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """(order, starts) that sum joint-pattern columns into each side pattern with
    ``np.add.reduceat`` (every side pattern occurs among the joint patterns)."""
    order = np.argsort(index, kind="stable")
    starts = np.flatnonzero(np.r_[True, np.diff(index[order]) != 0])
    return order, starts


def difference_bounds(first: tuple[float, float], second: tuple[float, float]
                      ) -> tuple[float, float]:
    """The range of ``a - b`` for ``a`` in `first` and ``b`` in `second`: two kappas
    differ by at most 2 either way; an ICC (unbounded below) or a bias by any amount.

    >>> difference_bounds((-1.0, 1.0), (0.0, 1.0))
    (-2.0, 1.0)
    """
    return first[0] - second[1], first[1] - second[0]


def paired_difference(
    first: Side,
    second: Side,
    options: InferenceOptions,
    *,
    labels: tuple[str, str],
    freq_weights: np.ndarray | None = None,
) -> DifferenceResult:
    """The difference ``first - second`` of two coefficients on the same subjects.

    The subjects are those both coefficients use (rows of `first.codes` and
    `second.codes` are the same subjects, in the same order); `freq_weights` says how
    many subjects each row stands for. The standard error is Gwet's (2016)
    linearisation; the bootstrap (``options.ci`` a bootstrap method, or
    :meth:`DifferenceResult.conf_int` asked for one) resamples the subjects once for
    both coefficients.
    """
    n_rows = len(first.codes)
    weights = (np.ones(n_rows, dtype=np.int64) if freq_weights is None
               else np.asarray(freq_weights, dtype=np.int64))
    rows = first.used() & second.used() & (weights > 0)
    if rows.sum() == 0 or weights[rows].sum() < 2:
        raise ValueError(
            f"`first` and `second` share {int(weights[rows].sum())} subject(s) that both "
            "coefficients use; a paired comparison needs at least two."
        )
    weights = weights[rows]
    n = int(weights.sum())
    total = int(n_rows if freq_weights is None else np.sum(freq_weights))
    sides = (first, second)
    found = [side.patterns(rows) for side in sides]
    # the joint patterns: each subject's pair (pattern in first, pattern in second)
    joint, joint_index = np.unique(np.column_stack([f[1] for f in found]), axis=0,
                                   return_inverse=True)
    joint_index = joint_index.reshape(-1)
    joint_mult = np.bincount(joint_index, weights=weights, minlength=len(joint))
    side_mult = [np.bincount(inv, weights=weights, minlength=len(pat)) for pat, inv in found]
    estimates, terms = zip(*(_estimate_and_terms(side, pat, mult)
                             for side, (pat, _), mult in zip(sides, found, side_mult,
                                                             strict=True)), strict=True)
    # the paired differences of the linearised values, one per joint pattern
    d = terms[0][joint[:, 0]] - terms[1][joint[:, 1]]
    estimate = estimates[0] - estimates[1]
    if math.isfinite(estimate) and n > 1:
        centred = d - (joint_mult @ d) / n
        se = math.sqrt(float(joint_mult @ centred**2) / (n * (n - 1)))
    else:
        se = math.nan
    statistic = estimate / se if math.isfinite(estimate) and se > 0 else math.nan
    bounds = difference_bounds(first.bounds, second.bounds)
    notes = [_SE_NOTE]
    if n < total:
        notes.append(f"{total - n} of {total} subjects left out: a paired comparison uses "
                     "the subjects both coefficients use (both ratings for Cohen's kappa, "
                     "every rating for the ICC, two or more for alpha and Light's kappa, at "
                     "least one for the others).")
    result = DifferenceResult(
        coefficient=_coefficient((first.name, second.name), labels),
        symbol="Δ",
        estimate=estimate,
        se=se,
        statistic=statistic,
        pvalue=normal_pvalue(statistic, options.alternative),
        alternative=options.alternative,
        ci=wald_interval(estimate, se, options.confidence_level, bounds),
        bounds=bounds,
        n_subjects=n,
        n_missing=total - n,
        notes=tuple(notes),
        estimate_first=estimates[0],
        estimate_second=estimates[1],
        names=(first.name, second.name),
        labels=labels,
        paired=True,
    )
    maps = tuple(_reduce_map(joint[:, j]) for j in range(2))
    draw = partial(bootstrap_counts, joint_mult.astype(np.int64),
                   partial(_difference_statistic, sides, tuple(f[0] for f in found), maps),
                   n_resamples=options.n_resamples, rng=options.rng, progress=options.progress)
    return result.with_bootstrap(draw, options.ci)


def independent_difference(
    first: Result,
    second: Result,
    options: InferenceOptions,
    *,
    labels: tuple[str, str],
    names: tuple[str, str],
) -> DifferenceResult:
    """The difference ``first - second`` of coefficients of separate groups of subjects:
    ``z = (k1 - k2) / sqrt(se1^2 + se2^2)`` with each result's own standard error; for
    two ICCs, Fisher's z test and the MOVER interval (:func:`_icc_difference`)."""
    if hasattr(first, "mcgraw_wong") and hasattr(second, "mcgraw_wong"):
        return _icc_difference(first, second, options, labels=labels, names=names)
    for which, res in (("first", first), ("second", second)):
        if not (math.isfinite(res.estimate) and math.isfinite(res.se)):
            raise ValueError(
                f"`{which}` has no estimate and standard error to compare "
                f"(estimate {res.estimate}, se {res.se})."
            )
    estimate = first.estimate - second.estimate
    se = math.hypot(first.se, second.se)
    statistic = estimate / se if se > 0 else math.nan
    bounds = difference_bounds(first.bounds, second.bounds)
    return DifferenceResult(
        coefficient=_coefficient(names, labels),
        symbol="Δ",
        estimate=estimate,
        se=se,
        statistic=statistic,
        pvalue=normal_pvalue(statistic, options.alternative),
        alternative=options.alternative,
        ci=wald_interval(estimate, se, options.confidence_level, bounds),
        bounds=bounds,
        n_subjects=first.n_subjects + second.n_subjects,
        notes=("Independent groups: SE of the difference sqrt(se1^2 + se2^2) from each "
               "coefficient's own standard error; z test and Wald interval with normal "
               "quantiles.",),
        estimate_first=first.estimate,
        estimate_second=second.estimate,
        names=names,
        labels=labels,
        paired=False,
        group_sizes=(first.n_subjects, second.n_subjects),
    )


def fisher_z(icc: float, k: int, unit: str) -> float:
    """Fisher's (1925) z of an intraclass correlation of k raters,
    ``0.5 log((1 + (k - 1) rho) / (1 - rho))``, with the single-rater ICC ``rho`` of an
    average-measure ICC ``rho_k`` being ``rho_k / (k - (k - 1) rho_k)``. An ICC of 1 (no
    error variance) has z = inf."""
    icc = np.float64(icc)  # a float of numpy: division by zero gives inf, not an error
    with np.errstate(divide="ignore", invalid="ignore"):
        rho = icc / (k - (k - 1) * icc) if unit == "average" else icc
        return float(0.5 * np.log((1 + (k - 1) * rho) / (1 - rho)))


def _icc_difference(first: Any, second: Any, options: InferenceOptions, *,
                    labels: tuple[str, str], names: tuple[str, str]) -> DifferenceResult:
    r"""Two ICCs of independent groups: Fisher's z test and the MOVER interval.

    The test: :math:`z = (z_1 - z_2) / \sqrt{v_1 + v_2}` with Fisher's transformation
    :func:`fisher_z` and :math:`v = k / (2 (k - 1) (n - 2))` (Fisher's large-sample
    variance for the intraclass correlation; for the one-way design, an approximation for
    the two-way forms). The interval of
    :math:`\rho_1 - \rho_2`: the MOVER of Zou & Donner (2008) from each ICC's own
    interval :math:`(l_h, u_h)` at the same level,
    :math:`\hat\rho_1 - \hat\rho_2 \mp \sqrt{(\hat\rho_1 - l_1)^2 + (u_2 - \hat\rho_2)^2}`
    (lower) and :math:`\sqrt{(u_1 - \hat\rho_1)^2 + (\hat\rho_2 - l_2)^2}` (upper).
    """
    level = options.confidence_level
    zs, vs, cis = [], [], []
    for which, res in (("first", first), ("second", second)):
        k, n = res.n_raters, res.n_subjects
        if n < 3 or k < 2 or not math.isfinite(res.estimate):
            raise ValueError(f"`{which}` ({res.coefficient}) needs an estimate, two or more "
                             f"raters and three or more subjects; got n = {n}, k = {k}.")
        zs.append(fisher_z(res.estimate, k, res.unit))
        vs.append(k / (2 * (k - 1) * (n - 2)))
        cis.append(res.conf_int(level))
    estimate = first.estimate - second.estimate
    statistic = (zs[0] - zs[1]) / math.sqrt(vs[0] + vs[1])
    if not math.isfinite(statistic):
        warnings.warn("Fisher's z test of the two ICCs is undefined (p nan): an ICC of 1 "
                      "(no error variance) has an infinite z; the ICCs are "
                      f"{first.estimate:.4g} and {second.estimate:.4g}.",
                      DegenerateDataWarning, stacklevel=6)
    (l1, u1), (l2, u2) = cis
    low = estimate - math.sqrt((first.estimate - l1) ** 2 + (u2 - second.estimate) ** 2)
    high = estimate + math.sqrt((u1 - first.estimate) ** 2 + (second.estimate - l2) ** 2)
    ci = ConfidenceInterval(low, high, level, "mover")
    return DifferenceResult(
        coefficient=_coefficient(names, labels),
        symbol="Δ",
        estimate=estimate,
        se=math.nan,
        statistic=statistic,
        pvalue=normal_pvalue(statistic, options.alternative) if math.isfinite(statistic)
        else math.nan,
        alternative=options.alternative,
        ci=ci,
        n_subjects=first.n_subjects + second.n_subjects,
        notes=("Independent groups of ICCs: Fisher's (1925) z test, z_h = 0.5 log((1 + (k - 1)"
               " rho_h) / (1 - rho_h)) with variance k / (2 (k - 1) (n_h - 2)) (exact for the "
               "one-way ICC, approximate for the two-way forms); interval for the difference "
               "by the MOVER (Zou & Donner 2008) from each ICC's own interval.",),
        estimate_first=first.estimate,
        estimate_second=second.estimate,
        names=names,
        labels=labels,
        paired=False,
        group_sizes=(first.n_subjects, second.n_subjects),
    )


@dataclass(frozen=True, eq=False, kw_only=True, repr=False)
class DifferenceResult(Result):
    """The difference of two agreement coefficients, ``first - second``.

    Adds ``estimate_first`` and ``estimate_second`` (the two coefficients, on the
    subjects the comparison uses), ``names`` (the two coefficients' names), ``labels``
    (what the two sides are: ``("after", "before")``, two rater pairs, two scales),
    ``paired`` (True: the same subjects, Gwet's 2016 linearised SE and a paired
    bootstrap; False: separate groups) and ``group_sizes`` (independent groups: the two
    groups' subjects). ``statistic`` is the z test of no difference.

    Examples
    --------
    >>> import irr
    >>> ag = irr.Agreement.from_frame(irr.datasets.load("anxiety"))
    >>> res = irr.difference(ag, statistic=("fleiss_kappa", "gwet_ac"))
    >>> round(res.estimate, 4) == round(res.estimate_first - res.estimate_second, 4)
    True
    """

    estimate_first: float
    estimate_second: float
    names: tuple[str, str]
    labels: tuple[str, str]
    paired: bool
    group_sizes: tuple[int, int] | None = None
    bounds: tuple[float, float] = (-2.0, 2.0)
    scale: str | None = None

    interval_methods: ClassVar[tuple[str, ...]] = ("wald", *BOOTSTRAP_METHODS, "mover")
    own_sentence: ClassVar[bool] = True

    def _interval(self, level: float, method: str) -> ConfidenceInterval:
        if method == "mover" or self.ci.method == "mover":
            if self.ci.method != "mover" or method != "mover":
                raise ValueError(
                    "The MOVER interval is the one interval of a difference of two ICCs "
                    f"(method='mover'); got method={method!r} for {self.coefficient}."
                )
            if level != self.ci.confidence_level:
                raise ValueError(
                    f"The MOVER interval of two ICCs is at the level it was computed at "
                    f"({self.ci.confidence_level:g}); pass `confidence_level=` to "
                    "`irr.difference` for another."
                )
            return self.ci
        return super()._interval(level, method)

    def _extras(self) -> dict[str, Any]:
        return {"estimate_first": self.estimate_first, "estimate_second": self.estimate_second,
                "label_first": self.labels[0], "label_second": self.labels[1],
                "name_first": self.names[0], "name_second": self.names[1],
                "paired": self.paired}

    def summary(self) -> Any:
        """A statsmodels ``Summary``: the difference with its SE, z test and interval.

        Examples
        --------
        >>> import irr
        >>> ag = irr.Agreement.from_frame(irr.datasets.load("anxiety"))
        >>> res = irr.difference(ag, statistic=("fleiss_kappa", "gwet_ac"))
        >>> "Gwet (2016)" in res.summary().as_text()
        True
        """
        what = "paired: the same subjects" if self.paired else "independent groups"
        same = self.names[0] == self.names[1]
        info = [(label if same else name if name == label else f"{name} ({label})",
                 format_number(value, 4, minus="-"))
                for name, label, value in zip(self.names, self.labels,
                                              (self.estimate_first, self.estimate_second),
                                              strict=True)]
        info.append(("Design", what))
        return results_summary([self], title="Difference of agreement coefficients",
                               info=info)

    def report(self, style: str = "apa", *, digits: int | None = None, **_: Any) -> str:
        """One sentence: which coefficient was higher, both values, the difference with
        its interval, the z test and the subjects.

        Parameters
        ----------
        style, digits, **_
            As for :meth:`irr.Result.report`; `digits` (default 2 APA, 3 plain) for the
            difference and both values.

        Examples
        --------
        >>> import irr
        >>> ag = irr.Agreement.from_frame(irr.datasets.load("anxiety"))
        >>> irr.difference(ag, statistic=("fleiss_kappa", "gwet_ac")).report()  # doctest: +ELLIPSIS
        "Fleiss' κ was lower than Gwet's AC1 (−.04 vs .03), difference −.07, 95% CI ..."
        """
        apa = style == "apa"
        digits = 2 if digits is None else digits

        def num(x: float) -> str:
            return format_number(x, digits, leading_zero=not apa)

        if not math.isfinite(self.estimate):
            return (f"The difference of {self.names[0]} and {self.names[1]} is undefined "
                    f"(n = {self.n_subjects:,}).")
        word = "higher" if self.estimate > 0 else "lower" if self.estimate < 0 else "equal"
        than = "than" if word != "equal" else "to"
        if self.names[0] == self.names[1]:
            head = f"{self.names[0]} was {word} for {self.labels[0]} {than} for {self.labels[1]}"
        else:
            head = f"{self.names[0]} was {word} {than} {self.names[1]}"
        method = self.ci.method_name
        if self.ci.method in BOOTSTRAP_METHODS:
            method += f", {int(self.n_resamples):,} paired resamples"
        ci = format_interval(self.ci.low, self.ci.high, self.ci.confidence_level, method,
                             ends=num, apa=apa)
        test = (f"z = {format_number(self.statistic, 2)}, {format_pvalue(self.pvalue, apa=apa)}"
                if math.isfinite(self.statistic) else "no z test (SE undefined)")
        n = (f"n = {self.n_subjects:,} paired subjects" if self.paired
             else f"n = {self.group_sizes[0]:,} and {self.group_sizes[1]:,}")
        return (f"{head} ({num(self.estimate_first)} vs {num(self.estimate_second)}), "
                f"difference {num(self.estimate)}, {ci}, {test}, {n}.")

    def __repr__(self) -> str:
        return (f"DifferenceResult(coefficient={self.coefficient!r}, "
                f"estimate={self.estimate:.4g}, se={self.se:.4g}, "
                f"ci=[{self.ci.low:.4g}, {self.ci.high:.4g}], pvalue={self.pvalue:.4g}, "
                f"n_subjects={self.n_subjects})")


# -- independent groups: the pooled estimate and the test of equal coefficients ----------
@dataclass(frozen=True, eq=False, kw_only=True, repr=False)
class PooledResult(Result):
    """The inverse-variance weighted estimate of independent groups' coefficients, and
    the chi-square test that the groups' coefficients are equal (Fleiss 1981; the
    overall kappa and the "test for equal kappa coefficients" of SAS PROC FREQ).

    ``estimate`` is :math:`\\sum_h \\hat\\kappa_h / v_h \\,/\\, \\sum_h 1 / v_h` with
    :math:`v_h` the squared standard error of group h, ``se`` is
    :math:`(\\sum_h 1/v_h)^{-1/2}`, ``statistic``/``pvalue`` the z test of the pooled
    value against 0. ``homogeneity_statistic`` is
    :math:`Q = \\sum_h (\\hat\\kappa_h - \\hat\\kappa)^2 / v_h`, chi-square on
    ``homogeneity_df`` = groups - 1 under equal coefficients, with
    ``homogeneity_pvalue``. ``groups`` is a DataFrame of the groups' estimates, SEs and
    weights.

    Examples
    --------
    >>> import irr
    >>> a = irr.Agreement.from_table([[6, 16], [2, 4]]).kappa()
    >>> b = irr.Agreement.from_table([[2, 4], [6, 6]]).kappa()
    >>> res = irr.pool([a, b])
    >>> res.homogeneity_df
    1
    """

    homogeneity_statistic: float
    homogeneity_df: int
    homogeneity_pvalue: float
    groups: pd.DataFrame = field(repr=False)
    results: tuple[Result, ...] = field(default=(), repr=False)
    name: str = ""

    def _extras(self) -> dict[str, Any]:
        return {"homogeneity_statistic": self.homogeneity_statistic,
                "homogeneity_df": self.homogeneity_df,
                "homogeneity_pvalue": self.homogeneity_pvalue}

    def summary(self) -> Any:
        """The groups, the pooled estimate, and the test of equal coefficients.

        Examples
        --------
        >>> import irr
        >>> a = irr.Agreement.from_table([[6, 16], [2, 4]]).kappa()
        >>> b = irr.Agreement.from_table([[2, 4], [6, 6]]).kappa()
        >>> "equal" in irr.pool([a, b]).summary().as_text()
        True
        """
        rows = [replace(r, coefficient=str(label), notes=()) for label, r in
                zip(self.groups.index, self.results, strict=True)]
        info = [("Test of equal coefficients",
                 f"chi2({self.homogeneity_df}) = {self.homogeneity_statistic:.3f}"),
                ("P > chi2", f"{self.homogeneity_pvalue:.4f}")]
        return results_summary([*rows, self], title=f"Pooled {self.name}".strip(),
                               info=info, merge_coincident=False)

    def report(self, style: str = "apa", *, digits: int | None = None, **_: Any) -> str:
        """One sentence: the pooled estimate with its interval, and the test of equal
        coefficients.

        Parameters
        ----------
        style, digits, **_
            As for :meth:`irr.Result.report`; `digits` (default 2 APA, 3 plain) for the pooled estimate.

        Examples
        --------
        >>> import irr
        >>> a = irr.Agreement.from_table([[6, 16], [2, 4]]).kappa()
        >>> b = irr.Agreement.from_table([[2, 4], [6, 6]]).kappa()
        >>> irr.pool([a, b]).report()  # doctest: +ELLIPSIS
        "The pooled Cohen's κ of 2 groups was −.06, 95% CI [−.26, .14] ..."
        """
        apa = style == "apa"
        digits = 2 if digits is None else digits

        def num(x: float) -> str:
            return format_number(x, digits, leading_zero=not apa)

        ci = format_interval(self.ci.low, self.ci.high, self.ci.confidence_level,
                             f"inverse-variance weights, {self.ci.method_name}", ends=num,
                             apa=apa)
        chi = "χ²" if apa else "chi-square"
        return (f"The pooled {self.name} of {self.homogeneity_df + 1} groups was "
                f"{num(self.estimate)}, {ci}; the test "
                f"of equal coefficients gave {chi}({self.homogeneity_df}) = "
                f"{format_number(self.homogeneity_statistic, 2)}, "
                f"{format_pvalue(self.homogeneity_pvalue, apa=apa)}, "
                f"n = {self.n_subjects:,}.")

    own_sentence: ClassVar[bool] = True


def pooled(results: Sequence[Result], labels: Sequence[str], name: str,
           options: InferenceOptions) -> PooledResult:
    """The inverse-variance pooled estimate of independent `results` and the chi-square
    test that they are equal (see :class:`PooledResult`)."""
    estimates = np.array([r.estimate for r in results], dtype=float)
    se = np.array([r.se for r in results], dtype=float)
    usable = np.isfinite(estimates) & np.isfinite(se) & (se > 0)
    notes = ["Pooled estimate: inverse-variance weights 1/se_h^2 (Fleiss 1981; SAS PROC "
             "FREQ's overall kappa); test of equal coefficients Q = sum_h (k_h - k)^2 / "
             "se_h^2, chi-square on groups - 1 df; each se_h is the group's own SE (under "
             "the alternative)."]
    if (~usable).any():
        left = [str(labels[i]) for i in np.flatnonzero(~usable)]
        notes.append(f"Left out (no estimate or a zero or undefined SE): {', '.join(left)}.")
    if usable.sum() < 2:
        raise ValueError(
            f"`results` must hold at least two groups with an estimate and a positive "
            f"standard error; got {int(usable.sum())}."
        )
    w = 1.0 / se[usable] ** 2
    estimate = float(w @ estimates[usable] / w.sum())
    pooled_se = float(1.0 / math.sqrt(w.sum()))
    q = float(w @ (estimates[usable] - estimate) ** 2)
    df = int(usable.sum()) - 1
    from scipy.stats import chi2

    statistic = estimate / pooled_se
    groups = pd.DataFrame({"estimate": estimates, "se": se,
                           "weight": np.where(usable, 1.0 / np.where(usable, se, 1.0) ** 2,
                                              np.nan) / (w.sum())},
                          index=pd.Index([str(x) for x in labels], name="group"))
    return PooledResult(
        coefficient=f"Pooled ({df + 1} groups)",
        symbol=results[0].symbol,
        estimate=estimate,
        se=pooled_se,
        statistic=statistic,
        pvalue=normal_pvalue(statistic, options.alternative),
        alternative=options.alternative,
        ci=wald_interval(estimate, pooled_se, options.confidence_level, results[0].bounds),
        n_subjects=int(sum(r.n_subjects for r, u in zip(results, usable, strict=True) if u)),
        raters=results[0].raters if len({r.raters for r in results}) == 1 else (),
        notes=tuple(notes),
        bounds=results[0].bounds,
        scale=results[0].scale,
        homogeneity_statistic=q,
        homogeneity_df=df,
        homogeneity_pvalue=float(chi2.sf(q, df)),
        groups=groups,
        results=tuple(results),
        name=name,
    )

