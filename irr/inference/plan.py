"""One resampling plan for every coefficient of a data set.

Subjects are resampled as multinomial counts over their *finest* patterns (the distinct
rows of rater codes); each coefficient maps those counts down to its own coarser statistic
(a two-rater table, subject x category count patterns ...). So one seed gives every
coefficient the same resampled subjects, and replicates of different coefficients are
paired.

When the fine patterns are many more than the subject x category count patterns (many
raters), the draw is made in two stages: counts over the count patterns, then each count
split among the fine patterns of that count pattern. The counts have the same
distribution; the coefficients defined on count patterns (Fleiss, Gwet, Brennan-Prediger,
alpha ...) stop after the first stage, at a cost of B x count patterns, and stay paired with
those that need rater identities (Conger, Light, kappa, W), which take the second stage too.
"""

from __future__ import annotations

import warnings
from collections.abc import Callable
from dataclasses import dataclass, replace
from functools import partial
from typing import Any

import numpy as np

from irr._data import preview
from irr._lazy import lazy_module
from irr._statistics import MAX_COUNT_CELLS, Coarsening, Statistics
from irr._validation import DegenerateDataWarning, check_choice
from irr.inference.options import InferenceOptions

# imported when a plan first draws or groups: a Wald interval never loads it
pd = lazy_module("pandas")  # imported on first use: data streamed by DuckDB never need it
bootstrap = lazy_module("irr.inference.bootstrap")

__all__ = ["TWO_STAGE_RATIO", "ResamplingPlan"]

#: Draw in two stages when the fine patterns are at least this many times the count patterns.
TWO_STAGE_RATIO = 2


def _check_units(units: np.ndarray, name: str, unit: str) -> None:
    """Refuse strata that all hold one resampling unit; warn when some do.

    `units` counts the units (subjects, or clusters) of each stratum. A stratum of one
    unit is redrawn unchanged in every resample, so it adds nothing to the spread.
    """
    units = units[units > 0]
    single = int((units == 1).sum())
    if single == units.size:
        raise ValueError(
            f"Every stratum of `{name}` holds a single {unit} ({units.size} strata): resampling "
            f"within strata reproduces the data, so it gives no interval. Pass coarser strata."
        )
    if single:
        warnings.warn(
            f"{single} of {units.size} strata of `{name}` hold a single {unit}; they are "
            "redrawn unchanged in every resample and add nothing to the bootstrap spread.",
            DegenerateDataWarning,
            stacklevel=5,
        )


def _label_ranks(categories: Any) -> np.ndarray:
    """Each category code's rank among the category *labels* sorted (numbers, or strings;
    other mixes by type name and repr), so the rank of a label does not depend on the
    order the scale was declared in."""
    labels = list(categories)
    try:
        order = sorted(range(len(labels)), key=lambda i: labels[i])
    except TypeError:
        order = sorted(range(len(labels)),
                       key=lambda i: (type(labels[i]).__name__, repr(labels[i])))
    ranks = np.empty(len(labels), dtype=np.int64)
    ranks[order] = np.arange(len(labels))
    return ranks


def _canonical_orders(stats: Statistics, counts: Coarsening | None) -> tuple[Any, Any]:
    """Permutations putting the fine and the count patterns in the order of their category
    labels rather than of their codes (None: already in that order, or a sparse design).

    The multinomial draws depend on the order of the patterns; drawing in this order makes
    the resamples the same whatever order the categories were declared in (e.g. the CLI's
    ``--categories 6 5 4 3 2 1``), while the statistic still sees the codes' order.
    """
    ranks = _label_ranks(stats.categories)
    if np.array_equal(ranks, np.arange(ranks.size)) or (stats.by_rater
                                                          and stats.patterns is None):
        return None, None
    by_label = np.empty_like(ranks)
    by_label[ranks] = np.arange(ranks.size)  # the code of each rank
    count_order = None
    if counts is not None:
        count_rows = counts.patterns[:, by_label]
        count_order = np.lexsort(count_rows.T[::-1])
    if stats.by_rater:
        fine_rows = np.where(stats.patterns >= 0, ranks[np.maximum(stats.patterns, 0)], -1)
        fine_order = np.lexsort(fine_rows.T[::-1])
    else:  # counts data: the fine patterns are the count patterns
        fine_order = count_order
    return fine_order, count_order


def _two_stage(stats: Statistics, counts: Coarsening) -> bool:
    """Whether drawing count patterns first, then splitting, pays for these statistics."""
    return stats.by_rater and counts.size * TWO_STAGE_RATIO <= len(stats.multiplicity)


@dataclass(frozen=True, eq=False)
class ResamplingPlan:
    """What a bootstrap resamples: subjects of each fine pattern, or whole clusters.

    Attributes
    ----------
    multiplicity : ndarray of shape (P,)
        Subjects of each fine pattern.
    cluster : ndarray of shape (C, P) or None
        Pattern counts of each cluster; whole clusters are resampled.
    strata : ndarray or None
        Without clusters, pattern counts of each stratum, shape (S, P); with clusters,
        the stratum of each cluster, shape (C,).
    counts : Coarsening or None
        The map from fine patterns to subject x category count patterns (None: the fine
        patterns are the only level).
    two_stage : bool
        Whether resamples are drawn over the count patterns first (see the module).
    orders : (ndarray or None, ndarray or None)
        The order the fine and the count patterns are drawn in: by category label, so
        the declared order of the categories does not change the resamples (None: as
        they are).
    deferred : Statistics or None
        Set by :meth:`for_statistics` without clusters or strata: `counts`, `two_stage`
        and `orders` are left unset and found from these statistics when a recipe is
        drawn, so a call that never draws the bootstrap does not build the count
        patterns (the resamples are the same).

    Examples
    --------
    >>> plan = ResamplingPlan(np.array([30, 70]))  # two subject patterns, one level
    >>> draw = plan.recipe(lambda c: c[:, 1] / c.sum(axis=1), InferenceOptions(rng=0))
    >>> dist = draw()
    >>> bool(np.array_equal(dist.replicates, draw().replicates))  # an int seed redraws the same
    True
    """

    multiplicity: np.ndarray
    cluster: np.ndarray | None = None
    strata: np.ndarray | None = None
    counts: Coarsening | None = None
    two_stage: bool = False
    orders: tuple[Any, Any] = (None, None)
    deferred: Statistics | None = None

    @classmethod
    def for_statistics(
        cls,
        stats: Statistics,
        subject_pattern: Callable[[], np.ndarray] | None = None,
        cluster: np.ndarray | None = None,
        strata: np.ndarray | None = None,
    ) -> ResamplingPlan:
        """The plan over the fine patterns of `stats`, by cluster and/or stratum if given.

        `cluster` and `strata` hold one label per subject; `subject_pattern` returns each
        subject's fine pattern (asked only when one of them is given).
        """
        multiplicity = stats.multiplicity
        # subjects with no rating: left out of every estimate, so of resamples (rows of
        # codes that miss no rating of a subject hold none: no pattern to look for)
        if stats.n_missing or not stats.by_rater:
            empty = stats.ratings_per_pattern == 0
            if empty.any():
                multiplicity = np.where(empty, 0, multiplicity)
        if cluster is None and strata is None:  # the rest when a recipe is drawn
            return cls(multiplicity, deferred=stats)
        return cls._resolved(stats, multiplicity, subject_pattern, cluster, strata)

    @classmethod
    def _resolved(
        cls,
        stats: Statistics,
        multiplicity: np.ndarray,
        subject_pattern: Callable[[], np.ndarray] | None = None,
        cluster: np.ndarray | None = None,
        strata: np.ndarray | None = None,
    ) -> ResamplingPlan:
        """The plan with its count patterns, draw orders and design (see
        :meth:`for_statistics`); `multiplicity` already without subjects that have no
        rating."""
        # count patterns too large to build (many categories): one level, the fine patterns
        counts = stats.count_patterns if stats.count_cells <= MAX_COUNT_CELLS else None
        empty = stats.ratings_per_pattern == 0
        if empty.any() and counts is not None:
            empty_rows = counts.patterns.sum(axis=1) == 0 if stats.by_rater else empty
            counts = replace(counts, multiplicity=np.where(empty_rows, 0, counts.multiplicity))
        orders = _canonical_orders(stats, counts)
        if cluster is None and strata is None:
            return cls(multiplicity, counts=counts,
                       two_stage=counts is not None and _two_stage(stats, counts),
                       orders=orders)
        pattern = subject_pattern()
        n_patterns = len(multiplicity)
        if cluster is None:
            _, by_stratum = bootstrap.group_pattern_counts(pattern, strata, n_patterns=n_patterns)
            by_stratum[:, empty] = 0
            _check_units(by_stratum.sum(axis=1), "strata", "subject")
            return cls(multiplicity, strata=by_stratum, counts=counts, orders=orders)
        labels, by_cluster = bootstrap.group_pattern_counts(pattern, cluster, n_patterns=n_patterns)
        by_cluster[:, empty] = 0
        rated = _rated_clusters(by_cluster, "with ratings", labels)
        design = None
        if strata is not None:
            per_cluster = pd.Series(strata).groupby(cluster).agg(["nunique", "first"])
            if (per_cluster["nunique"] > 1).any():
                raise ValueError("`cluster` must be nested in `strata`: a cluster spans strata.")
            design = per_cluster["first"].reindex(labels).to_numpy()
            _, stratum_of_cluster = np.unique(design[rated], return_inverse=True)
            _check_units(np.bincount(stratum_of_cluster.reshape(-1)), "strata", "cluster")
        return cls(multiplicity, cluster=by_cluster, strata=design, counts=counts,
                   orders=orders)

    def resolved(self) -> ResamplingPlan:
        """This plan with its count patterns, draw orders and two-stage choice found from
        its `deferred` statistics (itself when it has none): the plan
        :meth:`for_statistics` builds eagerly with clusters or strata."""
        if self.deferred is None:
            return self
        return self._resolved(self.deferred, self.multiplicity)

    def restricted(self, keep: np.ndarray, on: str = "fine") -> ResamplingPlan:
        """This plan resampling only the subjects of the patterns `keep` marks.

        `keep` is a boolean mask over the fine patterns (``on='fine'``) or the count
        patterns (``on='counts'``): the subjects a coefficient leaves out of its estimate
        (alpha: units with fewer than two ratings; listwise coefficients: incomplete
        subjects) get zero multiplicity, so every resample has as many of the coefficient's
        own subjects as the data. The plan itself when nothing is left out (the same draws).
        """
        check_choice(on, "on", ("fine", "counts"))
        if self.deferred is not None:
            return self.resolved().restricted(keep, on)
        keep = np.asarray(keep, dtype=bool)
        if on == "counts" and self.counts is not None:
            keep = keep[self.counts.index]  # every fine pattern has a count pattern
        if not (self.multiplicity[~keep] > 0).any():
            return self
        multiplicity = np.where(keep, self.multiplicity, 0)
        counts = self.counts
        if counts is not None:
            mapped = counts.index >= 0
            coarse = np.bincount(counts.index[mapped], weights=multiplicity[mapped],
                                 minlength=counts.size)
            counts = replace(counts, multiplicity=np.rint(coarse).astype(np.int64))
        cluster, strata = self.cluster, self.strata
        if cluster is not None:
            cluster = np.where(keep, cluster, 0)
            _rated_clusters(cluster, "with subjects this coefficient uses")
        elif strata is not None:
            strata = np.where(keep, strata, 0)
        return replace(self, multiplicity=multiplicity, cluster=cluster, strata=strata,
                       counts=counts)

    def recipe(
        self,
        statistic: Callable[[np.ndarray], np.ndarray],
        options: InferenceOptions,
        on: str = "fine",
        keep: np.ndarray | None = None,
    ) -> Callable[[], bootstrap.BootstrapDistribution]:
        """A zero-argument callable drawing the bootstrap distribution of `statistic`.

        `statistic` maps resampled counts, shape (b, P), to values (b,): counts over the
        fine patterns (``on='fine'``) or over the subject x category count patterns
        (``on='counts'``, for coefficients that ignore rater identities). `keep` (a boolean
        mask over the patterns of that level) names the subjects the coefficient uses;
        the others are not resampled (:meth:`restricted`).
        """
        check_choice(on, "on", ("fine", "counts"))
        if self.deferred is not None:  # the count patterns are built when it is drawn
            return partial(_deferred_draw, self, statistic, options, on, keep)
        if keep is not None:
            return self.restricted(keep, on).recipe(statistic, options, on)
        pattern_counts, groups, depends_on, evaluate = self.multiplicity, None, None, statistic
        order = self.orders[0]
        if on == "counts" and self.two_stage:
            pattern_counts, order = self.counts.multiplicity, self.orders[1]
        elif on == "counts" and self.counts is not None:
            depends_on = self.counts.index
            if isinstance(statistic, bootstrap.MomentStatistic):  # each fine pattern its count row's sums
                evaluate = statistic.over(self.counts.index)
            else:
                evaluate = partial(_on_counts, self.counts, statistic)
        elif self.two_stage:
            groups = self.counts.index
        # a partial of module-level functions, not a closure: it pickles whenever
        # `statistic` does (results keep it to draw their bootstrap on first use)
        if order is not None:  # draw in label order; the statistic sees the codes' order
            inverse = np.argsort(order)
            relabel = (None if self.orders[1] is None
                       else np.argsort(self.orders[1]))  # count pattern -> its label rank
            groups, depends_on = (None if g is None else relabel[np.asarray(g)[order]]
                                  for g in (groups, depends_on))
            pattern_counts = np.asarray(pattern_counts)[order]
            if isinstance(evaluate, bootstrap.MomentStatistic):  # drawn pattern j is pattern order[j]
                evaluate = evaluate.over(order)
            else:
                evaluate = partial(_unordered, evaluate, inverse)
        return partial(_draw, self, pattern_counts, evaluate, options, groups, depends_on,
                       order)


def _deferred_draw(plan: ResamplingPlan, statistic: Callable[[np.ndarray], np.ndarray],
                   options: InferenceOptions, on: str, keep: np.ndarray | None
                   ) -> bootstrap.BootstrapDistribution:
    """Draw the recipe of a deferred plan: the plan that :meth:`ResamplingPlan.for_statistics`
    would have built eagerly, then its recipe."""
    return plan.resolved().recipe(statistic, options, on, keep)()


def _unordered(statistic: Callable[[np.ndarray], np.ndarray], inverse: np.ndarray,
               batch: np.ndarray) -> np.ndarray:
    """`statistic` of counts drawn in label order, put back in the codes' order."""
    return statistic(np.asarray(batch)[..., inverse])


def _on_counts(counts: Coarsening, statistic: Callable[[np.ndarray], np.ndarray],
               batch: np.ndarray) -> np.ndarray:
    """`statistic` of fine-pattern counts mapped down to the count patterns."""
    return statistic(counts.apply(batch))


def _draw(plan: ResamplingPlan, pattern_counts: np.ndarray, evaluate: Any,
          options: InferenceOptions, groups: Any, depends_on: Any,
          order: Any = None) -> bootstrap.BootstrapDistribution:
    cluster, strata = plan.cluster, plan.strata
    if order is not None and cluster is not None:
        cluster = cluster[:, order]
    elif order is not None and strata is not None:
        strata = strata[:, order]
    return bootstrap.bootstrap_counts(
        pattern_counts,
        evaluate,
        n_resamples=options.n_resamples,
        rng=options.rng,  # an int seed is recorded on the distribution
        cluster=cluster,
        strata=strata,
        progress=options.progress,
        groups=groups,
        depends_on=depends_on,
    )


def _rated_clusters(by_cluster: np.ndarray, which: str, labels: Any = None) -> np.ndarray:
    """The mask of clusters with subjects; at least two, else a ValueError (resampling
    one cluster reproduces the data, so it gives no interval)."""
    rated = by_cluster.sum(axis=1) > 0
    if rated.sum() < 2:
        shown = "" if labels is None else f" (labels {preview(np.asarray(labels)[rated])})"
        raise ValueError(
            f"`cluster` must give at least two clusters {which}; got {int(rated.sum())}"
            f"{shown}: resampling one cluster reproduces the data, so it gives no interval."
        )
    return rated
