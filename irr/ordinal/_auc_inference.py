"""The AUC with inference: DeLong's standard error and bootstrap intervals."""

from __future__ import annotations

import math
from dataclasses import dataclass
from functools import partial
from typing import Any, ClassVar

import numpy as np

from irr._validation import check_alternative, check_choice, check_confidence_level, check_integer, check_rng
from irr.inference.bootstrap import bootstrap_counts
from irr.ordinal._auc import level_counts, trapezoid_numerator
from irr.results import (
    ConfidenceInterval,
    Result,
    normal_pvalue,
    normal_quantile,
    wald_interval,
)

__all__ = ["AUCResult", "newcombe_interval", "roc_auc_result"]


def newcombe_interval(
    estimate: float, n_positive: int, n_negative: int, confidence_level: float
) -> ConfidenceInterval:
    r"""Newcombe's (2006) method 5 score interval for the AUC (Mann-Whitney parameter).

    The values of :math:`	heta` with :math:`|\hat	heta - 	heta| \le z \sqrt{V(	heta)}`,
    :math:`V` the Hanley & McNeil (1982) variance (exponential-model :math:`Q_1, Q_2`) with
    Newcombe's :math:`N^* = (m + n)/2 - 1` in place of :math:`m - 1` and :math:`n - 1`:

    .. math:: V(	heta) = rac{	heta(1-	heta)}{mn}\left[1 + N^*rac{1-	heta}{2-	heta}
        + N^*rac{	heta}{1+	heta}
ight].

    Unlike the Wald interval it has width at AUC = 0 or 1 (perfect separation), where
    DeLong's SE is 0 and every bootstrap resample repeats the estimate.

    References
    ----------
    Newcombe, R. G. (2006). Confidence intervals for an effect size measure based on the
    Mann-Whitney statistic. Part 2: asymptotic methods and evaluation. Statistics in
    Medicine, 25, 559-573. https://doi.org/10.1002/sim.2324

    Hanley, J. A., & McNeil, B. J. (1982). The meaning and use of the area under a receiver
    operating characteristic (ROC) curve. Radiology, 143, 29-36.

    Examples
    --------
    >>> ci = newcombe_interval(1.0, 5, 5, 0.95)
    >>> round(ci.low, 4), ci.high
    (0.6427, 1.0)
    """
    from scipy.optimize import brentq

    z2 = normal_quantile(confidence_level) ** 2
    n_star = (n_positive + n_negative) / 2 - 1

    def excess(theta: Any) -> Any:
        """(estimate - theta)^2 - z^2 V(theta): positive outside the interval."""
        v = theta * (1 - theta) * (1 + n_star * (1 - theta) / (2 - theta)
                                   + n_star * theta / (1 + theta))
        return (estimate - theta) ** 2 - z2 * v / (n_positive * n_negative)

    def end(outer: float) -> float:
        """The interval's end between `outer` and the estimate: the first grid point
        inside brackets the crossing (the estimate itself is always inside)."""
        grid = outer + (estimate - outer) * np.linspace(0.0, 1.0, 1025)
        first = int(np.argmax(excess(grid) <= 0))
        if first == 0:
            return outer
        return brentq(excess, grid[first - 1], grid[first], xtol=1e-14)

    low, high = end(0.0), end(1.0)
    return ConfidenceInterval(float(low), float(high), confidence_level, "newcombe")


@dataclass(frozen=True, eq=False, kw_only=True, repr=False)
class AUCResult(Result):
    """The AUC with DeLong's SE; ``conf_int`` also offers Newcombe's (2006) score interval
    (``method='newcombe'``), the default at perfect separation."""

    n_positive: int
    n_negative: int
    bounds: tuple[float, float] = (0.0, 1.0)
    scale: str | None = None

    interval_methods: ClassVar[tuple[str, ...]] = ("newcombe", *Result.interval_methods)

    def _interval(self, level: float, method: str) -> ConfidenceInterval:
        if method == "newcombe":
            return newcombe_interval(self.estimate, self.n_positive, self.n_negative, level)
        return super()._interval(level, method)

    def _extras(self) -> dict[str, Any]:
        return {"n_positive": self.n_positive, "n_negative": self.n_negative}


def _auc_from_counts(counts: np.ndarray) -> np.ndarray:
    """AUC of a batch of per-level counts: (b, 2L), positives then negatives by level."""
    half = counts.shape[-1] // 2
    pos, neg = counts[..., :half], counts[..., half:]
    with np.errstate(invalid="ignore", divide="ignore"):
        return trapezoid_numerator(pos, neg) / (2.0 * pos.sum(axis=-1) * neg.sum(axis=-1))


def _draw_auc(counts: np.ndarray, by_class: np.ndarray, n_resamples: int,
              rng: Any) -> Any:
    """The AUC's bootstrap: positives and negatives resampled separately (`by_class`)."""
    return bootstrap_counts(counts, _auc_from_counts, n_resamples=n_resamples,
                            rng=check_rng(rng), strata=by_class)


def _delong_variance(pos: np.ndarray, neg: np.ndarray) -> float:
    """DeLong, DeLong & Clarke-Pearson (1988) variance from counts at each score level.

    Levels are in decreasing score. A positive at level l beats the negatives below it and
    ties half of those at l; its structural component is that share of the negatives.
    """
    m_pos, m_neg = pos.sum(), neg.sum()
    neg_below = m_neg - np.cumsum(neg)
    pos_above = np.cumsum(pos) - pos
    v10 = (neg_below + 0.5 * neg) / m_neg  # one value per positive at each level
    v01 = (pos_above + 0.5 * pos) / m_pos  # one value per negative at each level
    auc = (pos * v10).sum() / m_pos
    s10 = (pos * (v10 - auc) ** 2).sum() / (m_pos - 1) if m_pos > 1 else math.nan
    s01 = (neg * (v01 - auc) ** 2).sum() / (m_neg - 1) if m_neg > 1 else math.nan
    return float(s10 / m_pos + s01 / m_neg)


def roc_auc_result(
    y_true: Any,
    scores: Any,
    *,
    pos_label: Any = None,
    alternative: str = "two-sided",
    confidence_level: float = 0.95,
    ci: str = "bca",
    n_resamples: int = 9999,
    rng: Any = 0,
) -> AUCResult:
    r"""The area under the ROC curve with its standard error, test and interval.

    For clinical users: how well a rating (or a model's score) separates a reference
    diagnosis, with the uncertainty a paper needs.

    Parameters
    ----------
    y_true : array-like of shape (n_samples,)
        Binary reference labels.
    scores : array-like of shape (n_samples,)
        Ratings or scores; higher means "more likely positive".
    pos_label : scalar, optional
        The positive label (see :func:`roc_auc`).
    alternative : {'two-sided', 'greater', 'less'}, default 'two-sided'
        Alternative of the z test of AUC = 0.5.
    confidence_level : float, default 0.95
    ci : {'bca', 'percentile', 'basic', 'wald', 'newcombe'}, default 'bca'
        The interval: a bootstrap that resamples positives and negatives separately (the
        class sizes stay fixed, so every resample has an AUC), the Wald interval with
        DeLong's SE, clipped to [0, 1], or Newcombe's (2006) method 5 score interval. At
        perfect separation (AUC 0 or 1) or all scores tied, where the others have zero
        width, the interval is Newcombe's whatever `ci` says, with a note.
    n_resamples : int, default 9999
    rng : int, numpy.random.Generator or None, default 0
        Randomness of the bootstrap: the fixed seed 0 by default (the same interval on
        every call); None explicitly for fresh OS entropy.

    Returns
    -------
    AUCResult
        ``estimate`` (the trapezoid AUC, equal to :func:`roc_auc`), ``se`` (DeLong),
        ``statistic`` and ``pvalue`` (z test of AUC = 0.5 with DeLong's SE), ``ci``.

    Notes
    -----
    DeLong's variance is :math:`S_{10}/m^+ + S_{01}/m^-` with :math:`S_{10}` and
    :math:`S_{01}` the sample variances of the structural components (each positive's share
    of negatives it outranks, ties counting half, and vice versa). The bootstrap works on
    counts at each distinct score and class, so it costs O(B x levels), not O(B x n).

    References
    ----------
    DeLong, E. R., DeLong, D. M., & Clarke-Pearson, D. L. (1988). Comparing the areas under
    two or more correlated receiver operating characteristic curves: a nonparametric
    approach. Biometrics, 44, 837-845. https://doi.org/10.2307/2531595

    Examples
    --------
    >>> from irr.ordinal import roc_auc_result
    >>> y = [1, 0, 1, 1, 0, 0, 1, 0]
    >>> s = [0.77, 0.62, 0.58, 0.47, 0.47, 0.33, 0.23, 0.15]
    >>> res = roc_auc_result(y, s, ci="wald")
    >>> round(res.estimate, 5), round(res.se, 4)
    (0.65625, 0.221)
    """
    alternative = check_alternative(alternative)
    confidence_level = check_confidence_level(confidence_level)
    check_choice(ci, "ci", AUCResult.interval_methods)
    n_resamples = check_integer(n_resamples, "n_resamples", 1)
    check_rng(rng)
    _, pos, neg = level_counts(y_true, scores, pos_label)
    counts = np.concatenate([pos, neg])
    estimate = float(_auc_from_counts(counts.astype(float)))
    se = math.sqrt(_delong_variance(pos.astype(float), neg.astype(float)))
    statistic = (estimate - 0.5) / se if se > 0 else math.nan
    zeros = np.zeros_like(pos)
    by_class = np.vstack([np.concatenate([pos, zeros]), np.concatenate([zeros, neg])])

    # a partial of a module-level function, not a closure: the recipe pickles, so an
    # unpickled result can still draw its bootstrap
    draw = partial(_draw_auc, counts, by_class, n_resamples, rng)

    # perfect separation, or every score tied: DeLong's SE is 0, no resample differs
    separated = not se > 0
    notes = [
        "AUC by the trapezoid rule (ties count half); SE: DeLong et al. (1988); z tests "
        "AUC = 0.5.",
        "Bootstrap: positives and negatives resampled separately (class sizes fixed).",
    ]
    if separated:
        why = "Perfect separation" if estimate in (0.0, 1.0) else "Every score tied"
        notes.append(
            f"{why} (AUC = {estimate:g}): DeLong's SE is 0 and every resample repeats the "
            "estimate, so the interval is Newcombe's (2006) method 5 score interval."
        )
    n_pos, n_neg = int(pos.sum()), int(neg.sum())
    result = AUCResult(
        coefficient="AUC",
        symbol="AUC",
        estimate=estimate,
        se=se,
        statistic=statistic,
        pvalue=normal_pvalue(statistic, alternative),
        alternative=alternative,
        ci=(newcombe_interval(estimate, n_pos, n_neg, confidence_level)
            if separated or ci == "newcombe"
            else wald_interval(estimate, se, confidence_level, (0.0, 1.0))),
        n_subjects=n_pos + n_neg,
        notes=tuple(notes),
        n_positive=n_pos,
        n_negative=n_neg,
    )
    return result.with_bootstrap(draw, None if separated else ci)
