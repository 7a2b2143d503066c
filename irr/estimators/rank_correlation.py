"""The mean of the raters' pairwise Spearman rank correlations (R irr ``meanrho``)."""

from __future__ import annotations

import math
import warnings
from functools import partial

import numpy as np

from irr._statistics import Statistics
from irr._validation import DegenerateDataWarning, check_choice
from irr.estimators.common import complete_patterns, nan_interval, score_patterns
from irr.estimators.variance_ratio import VarianceRatioResult
from irr.inference.options import InferenceOptions
from irr.inference.plan import ResamplingPlan
from irr.summary import listwise_note

__all__ = ["mean_spearman", "pairwise_spearman", "pattern_ranks"]


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


def pairwise_spearman(x: np.ndarray, counts: np.ndarray) -> np.ndarray:
    """Spearman's rho of every pair of raters (Pearson's r of the mid-ranks), shape
    (b, pairs), pairs in the order of ``numpy.triu_indices(m, 1)``; nan for a rater whose
    ranks do not vary."""
    counts = np.atleast_2d(np.asarray(counts, dtype=float))
    ranks = pattern_ranks(x, counts)
    n = counts.sum(axis=1)
    mean = np.einsum("bp,bpj->bj", counts, ranks) / n[:, None]
    centred = ranks - mean[:, None, :]
    cov = np.einsum("bp,bpj,bpl->bjl", counts, centred, centred)
    sd = np.sqrt(np.einsum("bjj->bj", cov))
    upper = np.triu_indices(x.shape[1], 1)
    with np.errstate(invalid="ignore", divide="ignore"):
        r = cov[:, upper[0], upper[1]] / (sd[:, upper[0]] * sd[:, upper[1]])
    # rounding leaves a perfect correlation at 1 - 1e-16: snap it (Fisher z leaves it out)
    return np.where(np.abs(r) > 1 - 1e-12, np.sign(r), r)


def _average(r: np.ndarray, fisher: bool) -> np.ndarray:
    """Mean of the pairwise correlations (b, pairs) -> (b,): plain, or through Fisher's z
    leaving out perfect correlations (as R irr)."""
    if not fisher:
        return r.mean(axis=1)
    finite = np.abs(r) < 1
    with np.errstate(invalid="ignore", divide="ignore"):
        z = np.where(finite, np.arctanh(np.where(finite, r, 0.0)), 0.0)
        return np.tanh(z.sum(axis=1) / finite.sum(axis=1))


def mean_spearman(
    stats: Statistics, fisher: bool, options: InferenceOptions, plan: ResamplingPlan
) -> VarianceRatioResult:
    """The mean Spearman correlation of the raters (see :meth:`irr.Agreement.mean_spearman`)."""
    if not isinstance(fisher, (bool, np.bool_)):
        raise TypeError(f"`fisher` must be True or False; got {fisher!r}.")
    if options.ci is not None:
        check_choice(options.ci, "ci", VarianceRatioResult.interval_methods)
    what = "The mean Spearman correlation"
    values, complete = score_patterns(stats, what)
    x, multiplicity, dropped = complete_patterns(values, complete, stats.multiplicity, what,
                                                 stats.raters)
    r = pairwise_spearman(x, multiplicity[None, :])
    estimate = float(_average(r, bool(fisher))[0])
    if math.isnan(estimate):
        warnings.warn(f"{what} is undefined (nan): a rater gave every subject the same "
                      "rating, or (Fisher z) every correlation is perfect.",
                      DegenerateDataWarning, stacklevel=3)
    n, m = int(multiplicity.sum()), x.shape[1]
    tied = any(np.unique(col).size < col.size or (multiplicity > 1).any() for col in x.T)
    notes = [f"Mean of the {m * (m - 1) // 2} pairwise Spearman correlations (Pearson's r of "
             "the raters' mid-ranks)" + (", averaged as Fisher z values, perfect correlations "
                                         "left out (R irr's default)" if fisher else "")
             + "; no standard error: an interval, when asked for, is the subject "
             "bootstrap's."]
    if tied:
        notes.append("Some raters gave tied ratings: the correlations use mid-ranks (R irr "
                     "warns that the mean rank correlation is then not recommended).")
    notes.extend(listwise_note(dropped))
    result = VarianceRatioResult(
        coefficient="Mean Spearman rho" + (" (Fisher z)" if fisher else ""), symbol="mean Spearman ρ",
        estimate=estimate, se=math.nan, ci=nan_interval(options.confidence_level, "none"),
        n_subjects=n, n_missing=dropped, n_incomplete=stats.n_missing, raters=stats.raters,
        notes=tuple(notes), bounds=(-1.0, 1.0))
    recipe = plan.recipe(partial(_mean_rho_of_counts, x, np.flatnonzero(complete),
                                 bool(fisher)), options, keep=complete)
    return result.with_bootstrap(recipe, options.ci)


def _mean_rho_of_counts(x: np.ndarray, rows: np.ndarray, fisher: bool,
                        fine: np.ndarray) -> np.ndarray:
    """The mean Spearman rho of resampled counts over the fine patterns, (b, P) -> (b,)."""
    return _average(pairwise_spearman(x, np.asarray(fine, dtype=float)[:, rows]), fisher)
