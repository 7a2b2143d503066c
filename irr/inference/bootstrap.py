"""Vectorised bootstrap over subject patterns.

Every coefficient in :mod:`irr` is a function of a sufficient statistic that is a sum over
subjects. Subjects fall into ``P`` distinct *patterns* (for two raters with ``k`` categories, at
most ``k * k`` cells of the agreement table) with counts ``c``. Drawing ``n`` subjects with
replacement is one multinomial draw of counts over the patterns with probabilities ``c / n``, so
``B`` resamples are a ``(B, P)`` count matrix and a single batch-vectorised call of the
coefficient's kernel evaluates all of them. The cost is ``B * P``, not ``B * n``.

The jackknife needed by the BCa interval works on patterns too: removing one subject of pattern
``p`` gives the same value for every subject of that pattern, so ``P`` evaluations weighted by
``c`` replace ``n`` of them.
"""

from __future__ import annotations

import hashlib
import math
import numbers
import pickle
import sys
import time
import warnings
from collections.abc import Callable
from dataclasses import dataclass, field
from functools import cached_property, partial
from typing import Any

import numpy as np

from irr._validation import (
    DegenerateDataWarning,
    check_choice,
    check_confidence_level,
    check_integer,
    check_label_kinds,
    check_rng,
    show_value,
)

# the bound of n_resamples lives with the keyword table (InferenceOptions checks it
# without importing this module); named here too, where the bootstrap uses it
from irr.inference.keywords import MAX_RESAMPLES, check_n_resamples

__all__ = [
    "INTERVAL_METHODS",
    "MAX_RESAMPLES",
    "UNDEFINED_WARN_SHARE",
    "BootstrapDistribution",
    "MomentStatistic",
    "bootstrap_counts",
    "check_n_resamples",
    "group_pattern_counts",
    "min_resamples",
    "picklable",
]

#: Interval methods understood by :meth:`BootstrapDistribution.interval`.
INTERVAL_METHODS = ("percentile", "basic", "bca")

#: Share of undefined (nan/inf) replicates above which a `DegenerateDataWarning` is issued.
UNDEFINED_WARN_SHARE = 0.01

# Upper bound on the memory of one batch of resampled counts (and the draws behind them).
_BATCH_BYTES = 32 * 2**20
# A run estimated to take longer than this (seconds) shows a progress bar when `progress=None`.
_PROGRESS_SECONDS = 2.0
# Units are drawn by index, not by multinomial counts, when there are fewer than this many
# units per distinct unit type: a multinomial costs about 100 ns per type and resample, an
# index draw about 20-40 ns per unit and resample.
_INDEX_RATIO = 3

# Moment statistics drawn by index: the moments are put in unit order (no gather of each
# drawn unit's pattern) when there are at most this many units per pattern, and a batch's
# draws take about this many bytes (arrays of a few MiB are reused by the allocator and
# stay in cache; 32 MiB ones cost page faults and cache misses, 3-4x per draw).
_UNIT_ROWS_RATIO = 1.5
_SUMS_BATCH_BYTES = 4 * 2**20

#: Replicates this close (relative) to the estimate are ties in the BCa bias correction.
_TIE_RTOL = 1e-12

Statistic = Callable[[np.ndarray], np.ndarray]


# --------------------------------------------------------------------------------------------
# result
# --------------------------------------------------------------------------------------------


@dataclass(frozen=True, eq=False)
class BootstrapDistribution:
    """Bootstrap replicates of one or more statistics, and the intervals they give.

    Returned by :func:`bootstrap_counts`; not meant to be built by hand. Asking for another
    confidence level or interval method reuses the replicates and never resamples.

    Attributes
    ----------
    replicates : ndarray of shape (n_resamples,) or (n_resamples, q)
        The statistic on every resample, undefined values (``nan``/``inf``) included.
    estimate : float or ndarray of shape (q,)
        The statistic on the original counts.
    n_resamples : int
        Number of resamples drawn.
    n_undefined : int or ndarray of shape (q,)
        Number of replicates that are ``nan`` or infinite (per statistic).
    jackknife_values : ndarray of shape (m,) or (m, q)
        The statistic with one resampling unit left out, one row per distinct unit (a pattern,
        or a distinct cluster). Computed on first use (BCa intervals, `acceleration`) and
        cached: ``m`` batched evaluations, which matter only when ``P`` is large.
    jackknife_weights : ndarray of shape (m,)
        How many units each jackknife row stands for; they sum to the number of units.
    resampling : str
        What was resampled: ``"subjects"``, ``"clusters"``, ``"subjects within strata"`` or
        ``"clusters within strata"``.
    seed : int or None
        The int seed the resamples were drawn with (None: a Generator or fresh entropy).
    undefined_policy : str
        ``"omit"``: undefined replicates are left out of `se` and of every interval, and
        counted in `n_undefined`; :func:`bootstrap_counts` warns when more than
        ``UNDEFINED_WARN_SHARE`` (1%) of them are undefined.
    """

    replicates: np.ndarray
    estimate: float | np.ndarray
    n_resamples: int
    n_undefined: int | np.ndarray
    resampling: str = "subjects"
    undefined_policy: str = "omit"
    seed: int | None = None
    _jackknife: Callable[[], tuple[np.ndarray, np.ndarray]] | None = field(default=None, repr=False)

    def __getstate__(self) -> dict[str, Any]:
        """The state to pickle. The jackknife of every :mod:`irr` coefficient is a
        :func:`functools.partial` of module-level functions and pickles as it is; one over a
        caller's statistic that does not pickle (a lambda given to
        :func:`bootstrap_counts`) is replaced by its values, so BCa intervals still work
        after unpickling."""
        state = dict(self.__dict__)
        if self._jackknife is not None and not picklable(self._jackknife):
            state["_jackknife_result"] = self._jackknife_result
            state["_jackknife"] = None
        return state

    @cached_property
    def _jackknife_result(self) -> tuple[np.ndarray, np.ndarray]:
        if self._jackknife is None:
            return np.empty((0, *self.replicates.shape[1:])), np.empty(0)
        return self._jackknife()

    @property
    def jackknife_values(self) -> np.ndarray:
        """Leave-one-unit-out values of the statistic, one row per distinct unit."""
        return self._jackknife_result[0]

    @property
    def jackknife_weights(self) -> np.ndarray:
        """Number of units each row of `jackknife_values` stands for."""
        return self._jackknife_result[1]

    @property
    def _columns(self) -> np.ndarray:
        """Replicates as (B, q) with undefined values set to nan."""
        reps = self.replicates.reshape(self.n_resamples, -1)
        return np.where(np.isfinite(reps), reps, np.nan)

    def _shape(self, values: np.ndarray) -> float | np.ndarray:
        values = np.asarray(values, dtype=float)
        return values[0] if self.replicates.ndim == 1 else values

    @property
    def se(self) -> float | np.ndarray:
        """Standard deviation (``ddof=1``) of the defined replicates."""
        reps = self._columns
        n_defined = np.sum(~np.isnan(reps), axis=0)
        centred = reps - _nanmean(reps)
        ss = np.nansum(centred**2, axis=0)
        with np.errstate(divide="ignore", invalid="ignore"):
            se = np.where(n_defined > 1, np.sqrt(ss / (n_defined - 1)), np.nan)
        return self._shape(se)

    @property
    def acceleration(self) -> float | np.ndarray:
        r"""BCa acceleration from the weighted jackknife.

        .. math::

            \hat a = \frac{\sum_j w_j (\bar\theta - \theta_j)^3}
                          {6 \left(\sum_j w_j (\bar\theta - \theta_j)^2\right)^{3/2}},
            \qquad \bar\theta = \frac{\sum_j w_j \theta_j}{\sum_j w_j}.

        ``nan`` when a jackknife value is undefined; ``0`` when all jackknife values are equal.
        """
        return self._shape(_acceleration(self.jackknife_values, self.jackknife_weights))

    def interval(
        self, confidence_level: float = 0.95, method: str = "percentile", *, explain: bool = False
    ) -> tuple[Any, ...]:
        """Two-sided bootstrap confidence interval.

        Parameters
        ----------
        confidence_level : float, default=0.95
            Coverage of the interval, in (0, 1).
        method : {'percentile', 'basic', 'bca'}, default='percentile'
            ``'percentile'``: quantiles of the replicates at ``alpha/2`` and ``1 - alpha/2``;
            ``'basic'``: ``2 * estimate`` minus those quantiles, swapped; ``'bca'``:
            bias-corrected and accelerated (Efron & Tibshirani 1993, eq. 14.10) with the bias
            ``z0`` from the mid-rank share of replicates below the estimate and the
            acceleration from the jackknife. The definitions are those of
            `scipy.stats.bootstrap`, quantiles are numpy's ``'linear'`` ones.
        explain : bool, default=False
            Also return, per statistic, a note saying why its interval is undefined or
            why it excludes the estimate (``""`` when there is nothing to say).

        Returns
        -------
        low, high : float or ndarray of shape (q,)
            Interval ends, one per statistic when several statistics were bootstrapped.
            Undefined replicates are omitted.
        notes : str or ndarray of str
            Only with ``explain=True``.

        Raises
        ------
        ValueError
            If `confidence_level` is outside (0, 1), `method` is unknown, or there were
            fewer resamples than the level needs (:func:`min_resamples`: each tail must
            hold at least one replicate).

        Warns
        -----
        DegenerateDataWarning
            If the interval is undefined (ends ``nan``): all defined replicates equal (the
            bootstrap distribution has no spread, so it would be a zero-width interval),
            too few defined replicates for the level, or for BCa all replicates on one side
            of the estimate or an undefined jackknife value; and if the interval excludes
            the estimate.

        Examples
        --------
        >>> import numpy as np
        >>> from irr.inference.bootstrap import bootstrap_counts
        >>> mean = lambda counts: counts[:, 1] / counts.sum(axis=1)
        >>> dist = bootstrap_counts([30, 70], mean, n_resamples=2000, rng=1)
        >>> lo, hi = dist.interval(0.95, method="bca")
        >>> bool(lo < 0.7 < hi)
        True
        """
        level = check_confidence_level(confidence_level)
        method = check_choice(method, "method", INTERVAL_METHODS)
        needed = min_resamples(level)
        if self.n_resamples < needed:
            raise ValueError(
                f"`n_resamples` must be at least {needed} for a {100 * level:g}% bootstrap "
                f"interval (each tail needs at least one replicate); got {self.n_resamples}."
            )
        alpha = (1.0 - level) / 2.0
        reps = self._columns
        estimate = np.reshape(np.asarray(self.estimate, dtype=float), -1)
        q = reps.shape[1]
        low = np.full(q, np.nan)
        high = np.full(q, np.nan)
        notes = np.full(q, "", dtype=object)
        if method == "bca":
            accel = np.reshape(_acceleration(self.jackknife_values, self.jackknife_weights), -1)
        for j in range(q):  # loop over statistics, not resamples
            which = "" if q == 1 else f" (statistic {j})"
            col = reps[:, j]
            col = col[~np.isnan(col)]
            if col.size < needed:
                notes[j] = (
                    f"undefined: {col.size} of {self.n_resamples} bootstrap replicates are "
                    f"defined, fewer than the {needed} a {100 * level:g}% interval needs"
                )
            elif col.min() == col.max():
                notes[j] = (
                    f"undefined: all {col.size} defined bootstrap replicates equal "
                    f"{col[0]:.6g}, so the bootstrap distribution has no spread (an estimate "
                    "at the boundary of its range, or a design with a single resampling unit)"
                )
            else:
                levels = (alpha, 1.0 - alpha)
                if method == "bca":
                    levels, notes[j] = _bca_levels(col, estimate[j], accel[j], alpha)
                if levels is not None:
                    low[j], high[j] = np.quantile(col, levels)
                    if method == "basic":
                        low[j], high[j] = 2.0 * estimate[j] - high[j], 2.0 * estimate[j] - low[j]
                    if not low[j] <= estimate[j] <= high[j]:
                        notes[j] = (
                            f"excludes the estimate {estimate[j]:.6g}: the bootstrap "
                            "replicates lie mostly to one side of it (a biased or discrete "
                            "statistic); read it with care"
                        )
            if notes[j]:
                warnings.warn(
                    f"{'BCa' if method == 'bca' else method + ' bootstrap'} "
                    f"interval{which} {notes[j]}.",
                    DegenerateDataWarning,
                    stacklevel=2,
                )
        if explain:
            return self._shape(low), self._shape(high), notes[0] if self.replicates.ndim == 1 \
                else notes
        return self._shape(low), self._shape(high)




def picklable(obj: Any) -> bool:
    """Whether `obj` pickles (closures and lambdas do not).

    Examples
    --------
    >>> picklable(partial(np.add, 1)), picklable(lambda x: x)
    (True, False)
    """
    try:
        pickle.dumps(obj)
    except (pickle.PicklingError, AttributeError, TypeError):
        return False
    return True


def min_resamples(confidence_level: float) -> int:
    """The fewest resamples a two-sided interval of `confidence_level` needs: each tail,
    a share ``(1 - level) / 2`` of them, must hold at least one replicate.

    Examples
    --------
    >>> min_resamples(0.95), min_resamples(0.99)
    (40, 200)
    """
    return math.ceil(2.0 / (1.0 - confidence_level) - 1e-9)


def _nanmean(reps: np.ndarray) -> np.ndarray:
    """Column means over non-nan values, nan for an all-nan column, without warnings."""
    n_defined = np.sum(~np.isnan(reps), axis=0)
    total = np.nansum(reps, axis=0)
    with np.errstate(divide="ignore", invalid="ignore"):
        return np.where(n_defined > 0, total / n_defined, np.nan)


def _acceleration(values: np.ndarray, weights: np.ndarray) -> np.ndarray:
    values = values.reshape(values.shape[0], -1)
    w = weights[:, None]
    with np.errstate(invalid="ignore", over="ignore"):
        finite = np.all(np.isfinite(values), axis=0)
        mean = np.sum(w * values, axis=0) / np.sum(weights)
        d = mean - values
        num = np.sum(w * d**3, axis=0)
        den = np.sum(w * d**2, axis=0)
        accel = np.where(den > 0, num / (6.0 * np.abs(den) ** 1.5), 0.0)
    return np.where(finite, accel, np.nan)


def _bca_levels(
    col: np.ndarray, estimate: float, accel: float, alpha: float
) -> tuple[tuple[float, float] | None, str]:
    """Adjusted quantile levels of the BCa interval, or None and why it is undefined."""
    from scipy.special import ndtr, ndtri  # imported here: scipy.special costs ~0.2 s at import

    if not np.isfinite(accel):
        return None, (
            "undefined: the statistic is undefined when a resampling unit is left out "
            "(jackknife), so the acceleration is nan"
        )
    # mid-rank share of replicates below the estimate, as scipy.stats.bootstrap; replicates
    # within rounding (relative 1e-12) of the estimate are ties, so that a resample equal to
    # the data counts half however its floating-point sums were ordered
    tolerance = _TIE_RTOL * max(1.0, abs(estimate))
    below = np.count_nonzero(col < estimate - tolerance)
    ties = np.count_nonzero(np.abs(col - estimate) <= tolerance)
    share = (2 * below + ties) / (2.0 * col.size)
    z0 = ndtri(share)
    if not np.isfinite(z0):
        side = "above" if share == 0 else "below"
        return None, (
            f"undefined: all {col.size} defined replicates lie {side} the estimate "
            f"{estimate!r}, so the bias correction z0 is infinite"
        )
    z_alpha = float(ndtri(alpha))
    num1 = z0 + z_alpha
    num2 = z0 - z_alpha
    level1 = float(ndtr(z0 + num1 / (1.0 - accel * num1)))
    level2 = float(ndtr(z0 + num2 / (1.0 - accel * num2)))
    if not (np.isfinite(level1) and np.isfinite(level2)):
        return None, (
            f"undefined: the adjusted quantile levels are not finite (acceleration {accel!r})"
        )
    return (level1, level2), ""


# --------------------------------------------------------------------------------------------
# validation
# --------------------------------------------------------------------------------------------


def _count_array(value: Any, name: str, ndim: int) -> np.ndarray:
    """Validate an array of non-negative integer counts with `ndim` dimensions."""
    try:
        arr = np.asarray(value)
    except (TypeError, ValueError) as exc:
        raise TypeError(f"`{name}` must be an array of counts; got {show_value(value)}.") from exc
    if arr.dtype == bool or not (
        np.issubdtype(arr.dtype, np.integer) or np.issubdtype(arr.dtype, np.floating)
    ):
        raise TypeError(
            f"`{name}` must be an array of non-negative integer counts; got dtype {arr.dtype}."
        )
    if arr.ndim != ndim:
        shape = "(n_patterns,)" if ndim == 1 else "(n_groups, n_patterns)"
        raise ValueError(
            f"`{name}` must be a {ndim}-D array of shape {shape}; got shape {arr.shape}."
        )
    if arr.size == 0:
        raise ValueError(f"`{name}` must not be empty.")
    arr = arr.astype(float)
    if not np.all(np.isfinite(arr)):
        raise ValueError(f"`{name}` must be finite; got {show_value(arr.tolist())}.")
    if np.any(arr < 0):
        raise ValueError(f"`{name}` must be non-negative; got {show_value(arr.tolist())}.")
    if np.any(arr != np.round(arr)):
        raise ValueError(f"`{name}` must hold integer counts; got {show_value(arr.tolist())}.")
    if arr.sum() == 0:
        raise ValueError(f"`{name}` must not be all zero.")
    return arr.astype(np.int64)


def _check_grouping(counts: np.ndarray, value: Any, name: str) -> np.ndarray:
    """Validate a (G, P) matrix of counts per group whose columns sum to `counts`."""
    arr = _count_array(value, name, 2)
    if arr.shape[1] != counts.size:
        raise ValueError(
            f"`{name}` must have one column per pattern, shape (n_groups, {counts.size}); "
            f"got shape {arr.shape}."
        )
    if not np.array_equal(arr.sum(axis=0), counts):
        raise ValueError(
            f"The columns of `{name}` must sum to `pattern_counts` {show_value(counts.tolist())}; "
            f"got {show_value(arr.sum(axis=0).tolist())}."
        )
    return arr


def _evaluate(statistic: Statistic, counts: np.ndarray) -> np.ndarray:
    out = np.asarray(statistic(counts), dtype=float)
    if out.ndim not in (1, 2) or out.shape[0] != counts.shape[0]:
        raise ValueError(
            f"`statistic` must return an array of shape (b,) or (b, q) for counts of shape "
            f"(b, P) = {counts.shape}; got shape {out.shape}."
        )
    return out


@dataclass(frozen=True, eq=False)
class MomentStatistic:
    """A statistic of pattern counts through linear sums: ``finish(counts @ moments)``.

    `moments` (P, d) holds pattern-only quantities, a numpy array or a scipy sparse
    matrix; `finish` maps the (b, d) sums of a batch of resamples to values (b,). The
    bootstrap then never evaluates a statistic on a (b, P) count matrix: when units are
    drawn by index it adds up the drawn units' rows of `moments` directly, and the BCa
    jackknife subtracts one pattern's row from the data's sums. A callable like any
    statistic: ``statistic(counts)`` is ``finish(counts @ moments)``.

    Examples
    --------
    The mean of a 0/1 variable, from the sums of the ones and of the subjects:

    >>> mean = MomentStatistic(np.array([[0.0, 1.0], [1.0, 1.0]]),
    ...                        partial(np.divide.reduce, axis=1))
    >>> float(bootstrap_counts([30, 70], mean, n_resamples=100, rng=0).estimate)
    0.7
    """

    moments: Any
    finish: Callable[[np.ndarray], np.ndarray]

    def __call__(self, counts: np.ndarray) -> np.ndarray:
        return self.finish(self.sums(np.atleast_2d(np.asarray(counts, dtype=float))))

    def sums(self, counts: np.ndarray) -> np.ndarray:
        """``counts @ moments`` as a dense (b, d) array."""
        return np.asarray(self.moments.T @ counts.T).T

    def over(self, index: np.ndarray) -> MomentStatistic:
        """The statistic of counts over other patterns: pattern j stands for this one's
        pattern ``index[j]`` (``-1``: none; such patterns must never be drawn)."""
        index = np.asarray(index)
        return MomentStatistic(self.moments[np.maximum(index, 0)], self.finish)


# --------------------------------------------------------------------------------------------
# resampling design
# --------------------------------------------------------------------------------------------


@dataclass(frozen=True)
class _Design:
    """Resampling units grouped by stratum.

    Units of type ``t`` appear ``multiplicity[t]`` times. Stratum ``s`` holds the types
    ``types[s, :n_types[s]]``; a resample draws ``sizes[s]`` units of stratum ``s`` with
    replacement. A unit is one subject of a pattern (``unit_patterns is None``; ``columns[t]``
    is its pattern) or a cluster with pattern counts ``unit_patterns[t]``.

    When there are few units per type (``P`` close to ``n``, e.g. continuous ratings) units
    are drawn by index instead (``unit_type`` set): unit ``i`` has type ``unit_type[i]`` and is
    drawn uniformly from ``unit_low[i] + 0 .. unit_high[i] - 1``, its stratum's block.
    """

    sizes: np.ndarray  # (S,)
    probs: np.ndarray  # (S, Tmax), zero padded
    types: np.ndarray  # (S, Tmax) type index, padded with 0
    n_types: np.ndarray  # (S,)
    multiplicity: np.ndarray  # (T,)
    columns: np.ndarray | None  # (T,) pattern of each subject type
    unit_patterns: np.ndarray | None  # (T, P) pattern counts of each cluster type
    unit_type: np.ndarray | None = None  # (N,) type of each unit, strata in blocks
    unit_low: np.ndarray | None = None  # (N,) first unit of the stratum of each unit
    unit_high: np.ndarray | None = None  # (N,) size of the stratum of each unit

    @property
    def row_bytes(self) -> int:
        """Memory of the draws behind one resample, in bytes."""
        if self.unit_type is not None:
            return 16 * self.unit_type.size + 8 * self.multiplicity.size
        return 8 * (self.probs.size + self.multiplicity.size)


def _design(strata_of_type: np.ndarray, multiplicity: np.ndarray, **units: Any) -> _Design:
    labels, stratum = np.unique(strata_of_type, return_inverse=True)
    n_strata = labels.size
    n_types = np.bincount(stratum, minlength=n_strata)
    order = np.argsort(stratum, kind="stable")
    starts = np.concatenate(([0], np.cumsum(n_types)[:-1]))
    rank = np.arange(order.size) - np.repeat(starts, n_types)
    t_max = int(n_types.max())
    types = np.zeros((n_strata, t_max), dtype=np.int64)
    types[stratum[order], rank] = order
    sizes = np.bincount(stratum, weights=multiplicity, minlength=n_strata).astype(np.int64)
    probs = np.zeros((n_strata, t_max))
    probs[stratum[order], rank] = multiplicity[order] / sizes[stratum[order]]
    if sizes.sum() >= _INDEX_RATIO * multiplicity.size:
        return _Design(sizes, probs, types, n_types, multiplicity, **units)
    unit_type = np.repeat(order, multiplicity[order])
    unit_stratum = np.repeat(stratum[order], multiplicity[order])
    starts = np.concatenate(([0], np.cumsum(sizes)[:-1]))
    return _Design(
        sizes,
        probs,
        types,
        n_types,
        multiplicity,
        **units,
        unit_type=unit_type,
        unit_low=starts[unit_stratum],
        unit_high=sizes[unit_stratum],
    )


def _subject_design(by_stratum: np.ndarray) -> _Design:
    """Subjects of each pattern, resampled within strata (rows of `by_stratum`)."""
    s, p = np.nonzero(by_stratum)
    return _design(s, by_stratum[s, p], columns=p, unit_patterns=None)


def _cluster_design(cluster: np.ndarray, strata: np.ndarray) -> _Design:
    """Clusters (rows of `cluster`) resampled within strata, identical clusters merged."""
    keep = cluster.sum(axis=1) > 0
    cluster, strata = cluster[keep], strata[keep]
    _, stratum_code = np.unique(strata, return_inverse=True)
    keyed = np.column_stack([stratum_code.reshape(-1), cluster])
    unique_rows, multiplicity = np.unique(keyed, axis=0, return_counts=True)
    return _design(unique_rows[:, 0], multiplicity, columns=None, unit_patterns=unique_rows[:, 1:])


def _draw(design: _Design, rng: np.random.Generator, size: int, n_patterns: int) -> np.ndarray:
    """A (size, n_patterns) float matrix of resampled pattern counts.

    One multinomial call draws the rows in order (all strata of row 0, then row 1, ...), so
    consecutive batches reproduce one large draw exactly.
    """
    if design.unit_type is not None:
        return _draw_by_index(design, rng, size, n_patterns)
    n_strata = design.sizes.size
    draws = rng.multinomial(design.sizes, design.probs, size=(size, n_strata))
    if design.unit_patterns is None:
        if n_strata == 1 and design.n_types[0] == n_patterns:
            counts = np.empty((size, n_patterns))
            counts[:, design.columns[design.types[0]]] = draws[:, 0, :]
            return counts
        counts = np.zeros((size, n_patterns))
        for s in range(n_strata):  # loop over strata, not subjects
            m = design.n_types[s]
            counts[:, design.columns[design.types[s, :m]]] += draws[:, s, :m]
        return counts
    weights = np.zeros((size, design.multiplicity.size))
    for s in range(n_strata):
        m = design.n_types[s]
        weights[:, design.types[s, :m]] = draws[:, s, :m]
    return weights @ design.unit_patterns


@dataclass(frozen=True)
class _Bucket:
    """Groups of similar size: group ``groups[r]`` holds the patterns ``members[r]``
    (where ``valid[r]``) with conditional probabilities ``probs[r]`` (zero padded)."""

    groups: np.ndarray  # (R,)
    members: np.ndarray  # (R, W) pattern index, padded with 0
    probs: np.ndarray  # (R, W)
    valid: np.ndarray  # (R, W)


@dataclass(frozen=True)
class _Split:
    """The second stage of a two-stage draw: each group's count split among its patterns.

    Groups are bucketed by size (1, 2, 3-4, 5-8, ...) and each bucket padded to its widest
    group, so the multinomial draws cost at most twice the number of patterns per
    resample. Each bucket draws from its own stream, row after row, so batches of any size
    reproduce one large draw.
    """

    buckets: tuple[_Bucket, ...]
    n_patterns: int

    @classmethod
    def of(cls, groups: np.ndarray, counts: np.ndarray) -> _Split:
        n_groups = int(groups.max()) + 1
        order = np.argsort(groups, kind="stable")
        sizes = np.bincount(groups, minlength=n_groups)
        starts = np.concatenate(([0], np.cumsum(sizes)[:-1]))
        totals = np.bincount(groups, weights=counts, minlength=n_groups)
        size_class = np.ceil(np.log2(np.maximum(sizes, 1))).astype(np.int64)
        buckets = []
        for width_class in np.unique(size_class[sizes > 0]):  # a few size classes
            members_of = np.flatnonzero((size_class == width_class) & (sizes > 0))
            width = int(sizes[members_of].max())
            rank = np.arange(width)
            valid = rank[None, :] < sizes[members_of, None]
            position = np.where(valid, starts[members_of, None] + rank[None, :], 0)
            members = np.where(valid, order[position], 0)
            total = totals[members_of, None]
            probs = np.where(valid, counts[members] / np.where(total > 0, total, 1.0), 0.0)
            probs[total[:, 0] == 0, 0] = 1.0  # a group never drawn: any valid probabilities
            buckets.append(_Bucket(members_of, members, probs, valid))
        return cls(tuple(buckets), counts.size)

    @property
    def row_bytes(self) -> int:
        """Memory of the second stage's draws behind one resample, in bytes."""
        return 16 * sum(b.members.size for b in self.buckets)

    def apply(self, streams: list[np.random.Generator], by_group: np.ndarray) -> np.ndarray:
        """Pattern counts (size, P) of group counts (size, G): one stream per bucket."""
        out = np.empty((by_group.shape[0], self.n_patterns))
        for bucket, rng in zip(self.buckets, streams, strict=True):  # a few buckets
            n = by_group[:, bucket.groups].astype(np.int64)
            draws = rng.multinomial(n, bucket.probs)  # (size, R, W)
            out[:, bucket.members[bucket.valid]] = draws[:, bucket.valid]
        return out


def _second_streams(generator: np.random.Generator, count: int) -> list[np.random.Generator]:
    """`count` generators for the second stage, determined by `generator`'s state, which
    they leave as it is (so the first stage draws what a one-stage bootstrap with it would)."""
    bit_generator = generator.bit_generator
    jumped = getattr(bit_generator, "jumped", None)
    if jumped is not None:  # PCG64 (the default), MT19937, Philox: far ahead of the state
        return [np.random.Generator(jumped(j)) for j in range(1, count + 1)]
    state = repr(bit_generator.state).encode()
    return [
        np.random.default_rng(int.from_bytes(hashlib.sha256(state + bytes([j])).digest()[:16],
                                             "little"))
        for j in range(1, count + 1)
    ]


def _unit_index(design: _Design, rng: np.random.Generator, size: int) -> np.ndarray:
    """The units drawn for `size` resamples, (size, N) indices into ``design.unit_type``."""
    n_units = design.unit_type.size
    # One double per unit: `Generator.integers` buffers 32-bit halves within a call, which
    # would make the stream depend on the batch size. floor(u * N) is uniform on 0 .. N-1 up
    # to a relative error of N / 2**53.
    uniform = rng.random((size, n_units))
    if design.sizes.size == 1:
        uniform *= n_units
        return uniform.astype(np.int64)
    return design.unit_low + (uniform * design.unit_high).astype(np.int64)


def _draw_by_index(
    design: _Design, rng: np.random.Generator, size: int, n_patterns: int
) -> np.ndarray:
    """`_draw` by drawing unit indices (row after row, so batches reproduce one draw)."""
    index = _unit_index(design, rng, size)
    offsets = np.arange(size)[:, None]
    if design.unit_patterns is None:
        codes = design.columns[design.unit_type][index] + offsets * n_patterns
        flat = np.bincount(codes.ravel(), minlength=size * n_patterns)
        return flat.reshape(size, n_patterns).astype(float)
    n_types = design.multiplicity.size
    codes = design.unit_type[index] + offsets * n_types
    weights = np.bincount(codes.ravel(), minlength=size * n_types).reshape(size, n_types)
    return weights.astype(float) @ design.unit_patterns


def _draw_sums(
    design: _Design, rng: np.random.Generator, statistic: MomentStatistic,
    unit_moments: tuple[Any, np.ndarray | None] | None, size: int, n_patterns: int,
) -> np.ndarray:
    """The (size, d) sums of `statistic`'s moments over `size` resamples: the same
    resamples as :func:`_draw`. When units are drawn by index, `unit_moments` is the
    transposed (d, R) moments and each unit's row among them (None: unit i is row i), and
    the drawn units are counted straight into an (R, size) matrix: no (size, P) count
    matrix, no coarsening, no statistic of one."""
    if unit_moments is None:
        return statistic.sums(_draw(design, rng, size, n_patterns))
    moments_t, unit_row = unit_moments
    keys = _unit_index(design, rng, size)
    if unit_row is not None:
        keys = unit_row[keys]
    # counts laid out (R, size), so the sparse product streams one row's resamples
    keys *= size
    keys += np.arange(size)[:, None]
    n_rows = moments_t.shape[1]
    counts_t = np.bincount(keys.ravel(), minlength=size * n_rows).reshape(n_rows, size)
    return np.asarray(moments_t @ counts_t.astype(float)).T


def _jackknife(
    design: _Design, counts: np.ndarray, statistic: Statistic, batch_size: int,
    depends_on: np.ndarray | None = None,
) -> tuple[np.ndarray, np.ndarray]:
    """Leave one unit out of each distinct unit type: values and weights.

    With `depends_on` (the statistic depends on the counts only through their sums over
    these groups of patterns) one unit of each group is left out, weighted by the group.
    """
    if design.unit_patterns is None:
        patterns = np.flatnonzero(counts)
        weights = counts[patterns]
        if depends_on is not None:
            group = depends_on[patterns]
            _, first = np.unique(group, return_index=True)
            weights = np.bincount(group, weights=weights)[group[first]]
            patterns = patterns[first]
    else:
        weights = design.multiplicity
    values = []
    moments = isinstance(statistic, MomentStatistic) and design.unit_patterns is None
    total = statistic.sums(counts[None, :]) if moments else None
    for start in range(0, weights.size, batch_size):  # loop over batches of units
        stop = min(start + batch_size, weights.size)
        if moments:  # the data's sums less one subject of each pattern's moments
            removed = statistic.moments[patterns[start:stop]]
            removed = removed.toarray() if hasattr(removed, "toarray") else removed
            values.append(_evaluate(statistic.finish, total - removed))
            continue
        if design.unit_patterns is None:
            rows = np.repeat(counts[None, :], stop - start, axis=0)
            rows[np.arange(stop - start), patterns[start:stop]] -= 1.0
        else:
            rows = counts[None, :] - design.unit_patterns[start:stop]
        values.append(_evaluate(statistic, rows))
    return np.concatenate(values), weights.astype(float)


# --------------------------------------------------------------------------------------------
# public functions
# --------------------------------------------------------------------------------------------


def bootstrap_counts(
    pattern_counts: Any,
    statistic: Statistic,
    *,
    n_resamples: int = 9999,
    rng: int | np.random.Generator | None = 0,
    cluster: Any = None,
    strata: Any = None,
    batch_size: int | None = None,
    progress: bool | None = None,
    groups: Any = None,
    depends_on: Any = None,
) -> BootstrapDistribution:
    r"""Bootstrap a statistic that is a function of pattern counts.

    Subjects fall into ``P`` distinct patterns (cells of an agreement table, rows of a rating
    matrix, ...) with counts ``pattern_counts``. Resampling the ``n`` subjects with replacement
    is a multinomial draw of ``n`` over the patterns with probabilities ``pattern_counts / n``;
    all resamples are evaluated by vectorised calls of `statistic` on batches of count rows.

    Parameters
    ----------
    pattern_counts : array-like of shape (P,)
        Non-negative integer number of subjects with each pattern; not all zero.
    statistic : callable
        ``statistic(counts) -> values``: `counts` is a float array of shape ``(b, P)``, one
        resample per row; `values` has shape ``(b,)``, or ``(b, q)`` for ``q`` statistics
        that share the resamples (which gives paired intervals, e.g. for a difference of two
        coefficients). Rows sum to ``n`` for plain and stratified resampling, and vary when
        clusters are resampled. Undefined values are returned as ``nan``.
    n_resamples : int, default=9999
        Number of bootstrap resamples ``B``.
    rng : {int, numpy.random.Generator, None}, default=0
        Source of randomness: an int seed (0 by default, so a call is reproducible), a
        Generator, or None for fresh OS entropy. An int is recorded as the result's
        ``seed``. The resampled counts depend on `rng` only, never on
        `batch_size` (so are the replicates, if `statistic` computes each row independently
        of the batch shape; a BLAS matrix product may differ by an ulp).
    cluster : array-like of shape (C, P), optional
        Pattern counts of each cluster (e.g. the lesions of one patient); whole clusters are
        resampled with replacement (identical clusters are merged and drawn with their
        multiplicity). Columns must sum to `pattern_counts`. Build it from per-subject
        pattern codes and cluster ids with :func:`group_pattern_counts`.
    strata : array-like, optional
        Strata whose sizes stay fixed in every resample (independent multinomial draws per
        stratum, summed). Without `cluster`: an array of shape ``(S, P)`` with the pattern
        counts of each stratum, columns summing to `pattern_counts`. With `cluster`: an array
        of shape ``(C,)`` with the stratum label of each cluster (clusters per stratum fixed).
    batch_size : int, optional
        Number of resamples evaluated per call of `statistic`. By default as many as fit in
        about 32 MiB of counts.
    progress : bool, optional
        ``True`` shows a `tqdm` progress bar (if tqdm is installed), ``False`` never does,
        ``None`` shows one only when the run is estimated, after the first batch, to take
        more than 2 s and standard error is a terminal.
    groups : array-like of int, shape (P,), optional
        A group of each pattern (e.g. the subject x category count row of each row of
        rater codes). Resamples are then drawn in two stages: counts over the groups,
        then each group's count split among its patterns (multinomially, with the
        patterns' shares). The counts have the same distribution as without `groups`,
        and the first stage draws exactly what ``bootstrap_counts(group_counts, ...,
        rng=rng)`` draws, so a statistic of the group counts bootstrapped that way is
        paired with this one at a cost of B x groups. Not with `cluster` or `strata`.
    depends_on : array-like of int, shape (P,), optional
        Groups of patterns such that `statistic` depends on the counts only through their
        sums over each group (e.g. a coefficient of count rows evaluated on rater-code
        patterns). The BCa jackknife then leaves one subject of each group out instead of
        one of each pattern: the same values, one evaluation per group.

    Returns
    -------
    BootstrapDistribution
        Replicates, estimate, standard error and jackknife values; call its
        :meth:`~BootstrapDistribution.interval` for percentile, basic or BCa intervals.

    Raises
    ------
    TypeError
        If `pattern_counts`, `cluster` or `strata` is not numeric, `n_resamples` or
        `batch_size` is not an integer, `rng` is not a seed or Generator, or `progress` is not
        a bool or None.
    ValueError
        If counts are negative, non-integer or all zero, `cluster`/`strata` have the wrong
        shape or do not add up to `pattern_counts`, `n_resamples` or `batch_size` is below 1,
        or `statistic` returns the wrong shape.

    Warns
    -----
    DegenerateDataWarning
        If more than 1% of the replicates are undefined (``nan``/``inf``, e.g. kappa of a
        resample whose expected agreement is 1). They are omitted from the standard error and
        the intervals (``undefined_policy="omit"``) and counted in ``n_undefined``.

    See Also
    --------
    scipy.stats.bootstrap : The same intervals from per-subject data, at cost ``B * n``.

    Notes
    -----
    With ``P == n`` (all subjects distinct, e.g. continuous ratings) this is ordinary index
    resampling; batching keeps the memory bounded. The BCa acceleration uses the jackknife
    by patterns: one leave-one-subject-out value per pattern with ``c_p > 0``, weighted by
    ``c_p``,

    .. math::

        \hat a = \frac{\sum_p c_p (\bar\theta - \theta_{(p)})^3}
                      {6 \left(\sum_p c_p (\bar\theta - \theta_{(p)})^2\right)^{3/2}},

    which equals the leave-one-subject-out jackknife on the expanded data at cost ``P``
    instead of ``n``. With clusters one cluster is left out (weighted by its multiplicity);
    with strata one subject is left out as without them.

    References
    ----------
    .. [1] B. Efron and R. J. Tibshirani (1993), *An Introduction to the Bootstrap*,
       Chapman & Hall, ch. 13-14. https://doi.org/10.1201/9780429246593

    Examples
    --------
    The mean of a 0/1 variable observed 30 times as 0 and 70 times as 1:

    >>> import numpy as np
    >>> from irr.inference.bootstrap import bootstrap_counts
    >>> def mean(counts):
    ...     return counts[:, 1] / counts.sum(axis=1)
    >>> dist = bootstrap_counts([30, 70], mean, n_resamples=5000, rng=0)
    >>> float(dist.estimate)
    0.7
    >>> dist.replicates.shape
    (5000,)
    >>> round(float(dist.se), 2)  # sqrt(0.7 * 0.3 / 100) = 0.046
    0.05
    >>> lo, hi = dist.interval(0.95, method="percentile")
    >>> bool(0.59 < lo < 0.62 and 0.78 < hi < 0.80)
    True

    Two statistics on the same resamples give a paired interval for their difference:

    >>> def both(counts):
    ...     p = counts[:, 1] / counts.sum(axis=1)
    ...     return np.column_stack([p, p * (1 - p)])
    >>> bootstrap_counts([30, 70], both, n_resamples=100, rng=0).replicates.shape
    (100, 2)
    """
    counts = _count_array(pattern_counts, "pattern_counts", 1)
    if not callable(statistic):
        raise TypeError(f"`statistic` must be callable; got {show_value(statistic)}.")
    n_resamples = check_n_resamples(n_resamples)
    generator = check_rng(rng)
    if batch_size is not None:
        batch_size = check_integer(batch_size, "batch_size", 1)
    if progress is not None and not isinstance(progress, bool):
        raise TypeError(f"`progress` must be True, False or None; got {show_value(progress)}.")

    n_patterns = counts.size
    split = None
    if groups is not None:
        if cluster is not None or strata is not None:
            raise ValueError("`groups` cannot be combined with `cluster` or `strata`.")
        groups = np.asarray(groups)
        if groups.shape != counts.shape or groups.dtype.kind not in "iu" or groups.min() < 0:
            raise ValueError(
                f"`groups` must hold one non-negative integer group per pattern, shape "
                f"{counts.shape}; got {show_value(groups)}."
            )
        _, groups = np.unique(groups, return_inverse=True)
        groups = groups.reshape(-1)
        split = _Split.of(groups, counts.astype(float))
        by_group = np.bincount(groups, weights=counts).astype(np.int64)
    if cluster is not None:
        by_cluster = _check_grouping(counts, cluster, "cluster")
        if strata is None:
            labels = np.zeros(by_cluster.shape[0], dtype=np.int64)
            resampling = "clusters"
        else:
            labels = np.asarray(strata)
            if labels.shape != (by_cluster.shape[0],):
                raise ValueError(
                    "With `cluster`, `strata` must hold one stratum label per cluster, shape "
                    f"({by_cluster.shape[0]},); got shape {labels.shape}."
                )
            resampling = "clusters within strata"
        design = _cluster_design(by_cluster, labels)
    elif strata is not None:
        design = _subject_design(_check_grouping(counts, strata, "strata"))
        resampling = "subjects within strata"
    else:
        design = _subject_design((counts if split is None else by_group)[None, :])
        resampling = "subjects"

    batch_given = batch_size is not None
    if batch_size is None:
        per_row = 8 * n_patterns + design.row_bytes + (0 if split is None else split.row_bytes)
        batch_size = max(1, min(n_resamples, _BATCH_BYTES // per_row))

    estimate = _evaluate(statistic, counts[None, :].astype(float))[0]
    evaluate = statistic
    if split is None and isinstance(statistic, MomentStatistic):
        # sums of the moments, then `finish`: no statistic of a (b, P) count matrix
        unit_moments = None
        if design.unit_type is not None and design.unit_patterns is None:
            unit_pattern = design.columns[design.unit_type]
            if unit_pattern.size <= _UNIT_ROWS_RATIO * n_patterns:  # moments in unit order
                unit_moments = (statistic.over(unit_pattern).moments.T, None)
            else:
                unit_moments = (statistic.moments.T, unit_pattern)
            if not batch_given:  # the draws' arrays small enough to stay in cache
                batch_size = max(1, min(n_resamples,
                                        _SUMS_BATCH_BYTES // (8 * unit_pattern.size)))
        draw = partial(_draw_sums, design, generator, statistic, unit_moments,
                       n_patterns=n_patterns)
        evaluate = statistic.finish
    elif split is None:
        draw = partial(_draw, design, generator, n_patterns=n_patterns)
    else:
        streams = _second_streams(generator, len(split.buckets))
        n_groups = int(groups.max()) + 1

        def draw(size: int) -> np.ndarray:
            return split.apply(streams, _draw(design, generator, size, n_groups))

    replicates = _resample(draw, evaluate, n_resamples, batch_size, progress)
    if replicates.shape[1:] != estimate.shape:
        raise ValueError(
            "`statistic` must return the same number of columns for every batch; got "
            f"{estimate.shape} on the original counts and {replicates.shape[1:]} on resamples."
        )
    undefined = np.sum(~np.isfinite(replicates), axis=0)
    worst = int(np.max(undefined))
    if worst > UNDEFINED_WARN_SHARE * n_resamples:
        warnings.warn(
            f"{worst} of {n_resamples} bootstrap replicates ({100 * worst / n_resamples:.1f}%) "
            "are undefined (nan or inf); they are omitted from the standard error and the "
            "intervals.",
            DegenerateDataWarning,
            stacklevel=2,
        )
    return BootstrapDistribution(
        replicates=replicates,
        estimate=estimate[()] if estimate.ndim == 0 else estimate,
        n_resamples=n_resamples,
        n_undefined=int(undefined) if undefined.ndim == 0 else undefined,
        _jackknife=partial(_jackknife, design, counts.astype(float), statistic, batch_size,
                           None if depends_on is None else np.asarray(depends_on)),
        resampling=resampling,
        seed=int(rng) if isinstance(rng, numbers.Integral) and not isinstance(rng, bool) else None,
    )


def _resample(
    draw: Callable[[int], np.ndarray],
    statistic: Statistic,
    n_resamples: int,
    batch_size: int,
    progress: bool | None,
) -> np.ndarray:
    starts = range(0, n_resamples, batch_size)
    out: np.ndarray | None = None
    bar = None
    try:
        for i, start in enumerate(starts):
            size = min(batch_size, n_resamples - start)
            if i == 0:
                tic = time.perf_counter()
            values = _evaluate(statistic, draw(size))
            if out is None:
                out = np.empty((n_resamples, *values.shape[1:]))
            elif values.shape[1:] != out.shape[1:]:
                raise ValueError(
                    "`statistic` must return the same number of columns for every batch; "
                    f"got {out.shape[1:]} and {values.shape[1:]}."
                )
            out[start : start + size] = values
            if i == 0 and (len(starts) > 1 or progress):
                bar = _progress_bar(
                    progress, (time.perf_counter() - tic) * len(starts), n_resamples
                )
            if bar is not None:
                bar.update(size)
    finally:
        if bar is not None:
            bar.close()
    return out


def _progress_bar(progress: bool | None, estimated_seconds: float, total: int) -> Any:
    if progress is False:
        return None
    if progress is None and not (
        estimated_seconds > _PROGRESS_SECONDS and sys.stderr is not None and sys.stderr.isatty()
    ):
        return None
    try:
        from tqdm.auto import tqdm
    except ImportError:
        return None
    return tqdm(total=total, desc="bootstrap", unit="resample")


def group_pattern_counts(
    pattern_codes: Any, groups: Any, *, n_patterns: int | None = None
) -> tuple[np.ndarray, np.ndarray]:
    """Count the subjects of each pattern within each group (cluster or stratum).

    Parameters
    ----------
    pattern_codes : array-like of int, shape (n,)
        Pattern of each subject, in ``0 .. n_patterns - 1`` (for two raters with ``k``
        categories, ``k * code_a + code_b``).
    groups : array-like, shape (n,)
        Cluster or stratum label of each subject (any sortable labels).
    n_patterns : int, optional
        Number of patterns ``P``; default ``max(pattern_codes) + 1``.

    Returns
    -------
    labels : ndarray of shape (G,)
        The distinct group labels, sorted.
    counts : ndarray of int64, shape (G, P)
        ``counts[g, p]`` subjects of group ``labels[g]`` have pattern ``p``; pass it as
        `cluster` or `strata` to :func:`bootstrap_counts`.

    Raises
    ------
    ValueError
        If the codes are not integers in range or the two arrays differ in length.

    Examples
    --------
    >>> from irr.inference.bootstrap import group_pattern_counts
    >>> labels, counts = group_pattern_counts([0, 1, 1, 2, 0], ["a", "b", "a", "b", "b"])
    >>> labels.tolist()
    ['a', 'b']
    >>> counts.tolist()
    [[1, 1, 0], [1, 1, 1]]
    """
    codes = np.asarray(pattern_codes)
    check_label_kinds(groups, "groups")
    groups = np.asarray(groups)
    if codes.ndim != 1 or codes.dtype == bool or not np.issubdtype(codes.dtype, np.integer):
        raise ValueError(
            f"`pattern_codes` must be a 1-D array of integer codes; got {show_value(pattern_codes)}."
        )
    if groups.shape != codes.shape:
        raise ValueError(
            f"`groups` must have one label per subject, shape {codes.shape}; got shape "
            f"{groups.shape}."
        )
    if codes.size == 0:
        raise ValueError("`pattern_codes` must not be empty.")
    if n_patterns is None:
        n_patterns = int(codes.max()) + 1
    n_patterns = check_integer(n_patterns, "n_patterns", 1)
    if codes.min() < 0 or codes.max() >= n_patterns:
        raise ValueError(
            f"`pattern_codes` must lie in 0 .. {n_patterns - 1}; got values from "
            f"{int(codes.min())} to {int(codes.max())}."
        )
    labels, index = np.unique(groups, return_inverse=True)
    flat = np.bincount(index.reshape(-1) * n_patterns + codes, minlength=labels.size * n_patterns)
    return labels, flat.reshape(labels.size, n_patterns).astype(np.int64)
