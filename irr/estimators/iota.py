"""Janson & Olsson's (2001) iota: agreement of multivariate (interval or nominal) ratings."""

from __future__ import annotations

import math
import warnings
from functools import partial

import numpy as np

from irr._validation import DegenerateDataWarning, check_choice
from irr.estimators.common import nan_interval
from irr.estimators.variance_ratio import VarianceRatioResult
from irr.inference.bootstrap import bootstrap_counts
from irr.inference.options import InferenceOptions
from irr.summary import listwise_note

__all__ = ["IOTA_LEVELS", "iota", "iota_of_weights"]

#: The scales iota is defined on.
IOTA_LEVELS = ("interval", "nominal")


def iota_of_weights(x: np.ndarray, weights: np.ndarray) -> np.ndarray:
    """Iota of subject vectors `x` (n, m, p) with subject weights (b, n) -> (b,).

    Observed disagreement: the weighted mean over subjects of the mean squared Euclidean
    distance between two raters' vectors; expected: the mean over rater pairs (j, l) and
    all pairs of subjects (i, i') of ``|x_ij - x_i'l|^2``.

    Examples
    --------
    >>> x = np.array([[[1.0], [1.0]], [[2.0], [2.0]], [[3.0], [2.0]]])
    >>> round(float(iota_of_weights(x, np.ones((1, 3)))[0]), 4)  # 1 - (1/3) / 1
    0.6667
    """
    w = np.atleast_2d(np.asarray(weights, dtype=float))
    # distances do not move under a common shift: centre first, so that the expected
    # disagreement of identical vectors is exactly 0, not the rounding of a difference
    x = x - x.mean(axis=(0, 1))
    m = x.shape[1]
    total = w.sum(axis=1)
    upper = np.triu_indices(m, 1)
    # each subject's mean squared distance over rater pairs, (n,)
    diff = x[:, upper[0], :] - x[:, upper[1], :]
    within = (diff**2).sum(axis=2).mean(axis=1)
    observed = w @ within / total
    sums = np.einsum("bi,ijp->bjp", w, x)  # (b, m, p)
    squares = w @ (x**2).sum(axis=2)  # (b, m)
    cross = np.einsum("bjp,bjp->bj", sums[:, upper[0], :], sums[:, upper[1], :])
    pair = (squares[:, upper[0]] + squares[:, upper[1]]) * total[:, None] - 2 * cross
    expected = pair.mean(axis=1) / total**2
    with np.errstate(invalid="ignore", divide="ignore"):
        return np.where(expected > 0, 1.0 - observed / expected, np.nan)


def iota(
    x: np.ndarray, level: str, dropped: int, raters: tuple[str, ...], variables: int,
    options: InferenceOptions, notes: list[str],
) -> VarianceRatioResult:
    """Iota of complete subject vectors `x` (n, m, p): see :func:`irr.iota`."""
    check_choice(level, "level", IOTA_LEVELS)
    if options.ci is not None:
        check_choice(options.ci, "ci", VarianceRatioResult.interval_methods)
    n, m, _ = x.shape
    if n < 2 or m < 2:
        raise ValueError(f"iota needs at least two complete subjects and two raters; got {n} "
                         f"subject(s) and {m} rater(s) ({dropped} left out for missing "
                         "ratings).")
    estimate = float(iota_of_weights(x, np.ones((1, n)))[0])
    if math.isnan(estimate):
        warnings.warn("iota is undefined (nan): no expected disagreement (every rating is "
                      "the same).", DegenerateDataWarning, stacklevel=3)
    notes = [f"Janson & Olsson (2001) iota of {variables} {level} variable(s): 1 - observed / "
             "expected mean squared Euclidean distance between two raters' vectors"
             + (" (nominal variables as indicator vectors scaled by 1/sqrt 2, so one "
                "variable gives Conger's kappa)" if level == "nominal" else "")
             + "; no standard error: an interval, when asked for, is the subject "
             "bootstrap's.", *notes, *listwise_note(dropped)]
    result = VarianceRatioResult(
        coefficient=f"iota ({level})", symbol="ι", estimate=estimate, se=math.nan,
        ci=nan_interval(options.confidence_level, "none"), n_subjects=n, n_missing=dropped,
        n_incomplete=dropped, raters=raters, notes=tuple(notes), bounds=(-math.inf, 1.0))
    source = partial(bootstrap_counts, np.ones(n, dtype=np.int64),
                     partial(iota_of_weights, x), n_resamples=options.n_resamples,
                     rng=options.rng, progress=options.progress)
    return result.with_bootstrap(source, options.ci)
