"""The mean of the raters' pairwise correlations: Spearman's rho (R irr ``meanrho``) and
Pearson's r (R irr ``meancor``)."""

from __future__ import annotations

import math
import warnings
from functools import partial
from typing import Any

import numpy as np

from irr._statistics import Statistics
from irr._validation import DegenerateDataWarning, check_choice
from irr.estimators.common import complete_patterns, nan_interval, score_patterns
from irr.estimators.variance_ratio import VarianceRatioResult
from irr.inference.options import InferenceOptions
from irr.inference.plan import ResamplingPlan
from irr.results import normal_pvalue
from irr.summary import listwise_note

__all__ = ["mean_pearson", "mean_spearman", "pairwise_pearson", "pairwise_spearman",
           "pattern_ranks"]


def pattern_ranks(x: np.ndarray, counts: np.ndarray) -> np.ndarray:
    """Mid-ranks within each rater of subject patterns `x` (P, m) in resamples `counts`
    (b, P): shape (b, P, m); a pattern's subjects share its rank (ties at mid-ranks).

    Examples
    --------
    >>> pattern_ranks(np.array([[1.0], [2.0], [1.0]]), np.array([[1, 2, 1]]))[0, :, 0]
    array([1.5, 3.5, 1.5])
    """
    counts = np.atleast_2d(np.asarray(counts, dtype=float))
    ranks = np.empty((counts.shape[0], *x.shape))
    for j, column in enumerate(x.T):  # one pass per rater
        order = np.argsort(column, kind="stable")
        ordered = column[order]
        new = np.r_[True, ordered[1:] != ordered[:-1]]
        starts = np.flatnonzero(new)
        group = np.empty(column.size, dtype=np.int64)
        group[order] = np.cumsum(new) - 1
        sizes = np.add.reduceat(counts[:, order], starts, axis=1)  # (b, groups)
        below = np.cumsum(sizes, axis=1) - sizes
        ranks[:, :, j] = (below + (sizes + 1) / 2)[:, group]
    return ranks


def pairwise_pearson(x: np.ndarray, counts: np.ndarray) -> np.ndarray:
    """Pearson's r of every pair of raters' values `x` (P, m) or (b, P, m) over subject
    patterns weighted by `counts` (b, P): shape (b, pairs), pairs in the order of
    ``numpy.triu_indices(m, 1)``; nan for a rater whose values do not vary.

    Examples
    --------
    >>> x = np.array([[1.0, 2.0], [2.0, 1.0], [3.0, 3.0]])
    >>> pairwise_pearson(x, np.array([[1, 1, 1]]))
    array([[0.5]])
    """
    counts = np.atleast_2d(np.asarray(counts, dtype=float))
    values = np.broadcast_to(x, (counts.shape[0], *x.shape[-2:]))
    n = counts.sum(axis=1)
    mean = np.einsum("bp,bpj->bj", counts, values) / n[:, None]
    centred = values - mean[:, None, :]
    cov = np.einsum("bp,bpj,bpl->bjl", counts, centred, centred)
    sd = np.sqrt(np.einsum("bjj->bj", cov))
    upper = np.triu_indices(x.shape[-1], 1)
    with np.errstate(invalid="ignore", divide="ignore"):
        r = cov[:, upper[0], upper[1]] / (sd[:, upper[0]] * sd[:, upper[1]])
    # rounding leaves a perfect correlation at 1 - 1e-16: snap it (Fisher z leaves it out)
    return np.where(np.abs(r) > 1 - 1e-12, np.sign(r), r)


def pairwise_spearman(x: np.ndarray, counts: np.ndarray) -> np.ndarray:
    """Spearman's rho of every pair of raters (Pearson's r of the mid-ranks), shape
    (b, pairs), pairs in the order of ``numpy.triu_indices(m, 1)``; nan for a rater whose
    ranks do not vary."""
    return pairwise_pearson(pattern_ranks(x, counts), counts)


def _average(r: np.ndarray, fisher: bool) -> np.ndarray:
    """Mean of the pairwise correlations (b, pairs) -> (b,): plain, or through Fisher's z
    leaving out perfect correlations (as R irr); nan if any correlation is nan."""
    if not fisher:
        return r.mean(axis=1)
    finite = np.abs(r) < 1
    with np.errstate(invalid="ignore", divide="ignore"):
        z = np.where(finite, np.arctanh(np.where(finite, r, 0.0)), 0.0)
        mean = np.tanh(z.sum(axis=1) / finite.sum(axis=1))
    return np.where(np.isnan(r).any(axis=1), np.nan, mean)  # an undefined r: undefined


#: Each kind of correlation: its pairwise function, its name in notes and its result title.
_KINDS = {
    "spearman": (pairwise_spearman, "The mean Spearman correlation", "Spearman correlations "
                 "(Pearson's r of the raters' mid-ranks)", "Mean Spearman rho",
                 "mean Spearman ρ"),
    "pearson": (pairwise_pearson, "The mean Pearson correlation", "Pearson correlations",
                "Mean Pearson r", "mean Pearson r"),
}


def mean_spearman(
    stats: Statistics, fisher: bool, options: InferenceOptions, plan: ResamplingPlan
) -> VarianceRatioResult:
    """The mean Spearman correlation of the raters (see :meth:`irr.Agreement.mean_spearman`)."""
    return _mean_correlation("spearman", stats, fisher, options, plan)


def mean_pearson(
    stats: Statistics, fisher: bool, options: InferenceOptions, plan: ResamplingPlan
) -> VarianceRatioResult:
    """The mean Pearson correlation of the raters, with R irr's ``meancor`` z test when
    `fisher` (see :meth:`irr.Agreement.mean_pearson`)."""
    return _mean_correlation("pearson", stats, fisher, options, plan)


def _mean_correlation(
    kind: str, stats: Statistics, fisher: bool, options: InferenceOptions,
    plan: ResamplingPlan,
) -> VarianceRatioResult:
    pairwise, what, plural, title, symbol = _KINDS[kind]
    if not isinstance(fisher, (bool, np.bool_)):
        raise TypeError(f"`fisher` must be True or False; got {fisher!r}.")
    if options.ci is not None:
        check_choice(options.ci, "ci", VarianceRatioResult.interval_methods)
    values, complete = score_patterns(stats, what)
    x, multiplicity, dropped = complete_patterns(values, complete, stats.multiplicity, what,
                                                 stats.raters)
    r = pairwise(x, multiplicity[None, :])
    estimate = float(_average(r, bool(fisher))[0])
    if math.isnan(estimate):
        warnings.warn(f"{what} is undefined (nan): a rater gave every subject the same "
                      "rating, or (Fisher z) every correlation is perfect.",
                      DegenerateDataWarning, stacklevel=4)
    n, m = int(multiplicity.sum()), x.shape[1]
    test = kind == "pearson" and bool(fisher)
    statistic = pvalue = math.nan
    if test and n > 3:
        # R irr's meancor: the back-transformed mean r over its null SE 1/sqrt(n - 3)
        statistic = estimate * math.sqrt(n - 3)
        pvalue = float(normal_pvalue(statistic, options.alternative))
    perfect = int((np.abs(r[0]) == 1).sum()) if fisher else 0
    notes = [f"Mean of the {m * (m - 1) // 2} pairwise {plural}"
             + (", averaged as Fisher z values, perfect correlations left out (R irr's "
                "default)" if fisher else "")
             + "; no standard error: an interval, when asked for, is the subject "
             "bootstrap's."]
    if perfect:
        notes.append(f"{perfect} perfect correlation{'s were' if perfect > 1 else ' was'} "
                     "left out of the Fisher z average.")
    if test:
        notes.append("z = mean r × sqrt(n − 3) (R irr's meancor test of r = 0); it treats "
                     "the mean as one correlation of n subjects, ignoring that the pairs "
                     "share raters.")
    if kind == "spearman" and any(np.unique(col).size < col.size or (multiplicity > 1).any()
                                  for col in x.T):
        notes.append("Some raters gave tied ratings: the correlations use mid-ranks (R irr "
                     "warns that the mean rank correlation is then not recommended).")
    notes.extend(listwise_note(dropped))
    result = VarianceRatioResult(
        coefficient=title + (" (Fisher z)" if fisher else ""), symbol=symbol,
        estimate=estimate, se=math.nan, statistic=statistic, pvalue=pvalue,
        alternative=options.alternative, ci=nan_interval(options.confidence_level, "none"),
        n_subjects=n, n_missing=dropped, n_incomplete=stats.n_missing, raters=stats.raters,
        notes=tuple(notes), bounds=(-1.0, 1.0))
    recipe = plan.recipe(partial(_mean_r_of_counts, pairwise, x, np.flatnonzero(complete),
                                 bool(fisher)), options, keep=complete)
    return result.with_bootstrap(recipe, options.ci)


def _mean_r_of_counts(pairwise: Any, x: np.ndarray, rows: np.ndarray, fisher: bool,
                      fine: np.ndarray) -> np.ndarray:
    """The mean correlation of resampled counts over the fine patterns, (b, P) -> (b,)."""
    return _average(pairwise(x, np.asarray(fine, dtype=float)[:, rows]), fisher)
