"""One resampling plan for every coefficient of a data set.

Subjects are resampled as multinomial counts over their *finest* patterns (the distinct
rows of rater codes); each coefficient maps those counts down to its own coarser
statistic (a two-rater table, subject x category count patterns ...) inside its
bootstrap statistic. So one seed gives every coefficient the same resampled subjects, and
replicates of different coefficients are paired.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import numpy as np
import pandas as pd

from irr.inference.bootstrap import BootstrapDistribution, bootstrap_counts, group_pattern_counts
from irr.inference.options import InferenceOptions

__all__ = ["ResamplingPlan"]


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

    Examples
    --------
    >>> plan = ResamplingPlan(np.array([30, 70]))
    >>> draw = plan.recipe(lambda c: c[:, 1] / c.sum(axis=1), InferenceOptions(rng=0))
    >>> dist = draw()
    >>> bool(np.array_equal(dist.replicates, draw().replicates))  # an int seed redraws the same
    True
    """

    multiplicity: np.ndarray
    cluster: np.ndarray | None = None
    strata: np.ndarray | None = None

    @classmethod
    def for_subjects(
        cls,
        multiplicity: np.ndarray,
        subject_pattern: Callable[[], np.ndarray] | None = None,
        cluster: np.ndarray | None = None,
        strata: np.ndarray | None = None,
    ) -> ResamplingPlan:
        """A plan over the fine patterns, by cluster and/or stratum when given.

        `cluster` and `strata` hold one label per subject; `subject_pattern` returns each
        subject's fine pattern (asked only when one of them is given).
        """
        if cluster is None and strata is None:
            return cls(np.asarray(multiplicity))
        pattern = subject_pattern()
        n_patterns = len(multiplicity)
        if cluster is None:
            _, by_stratum = group_pattern_counts(pattern, strata, n_patterns=n_patterns)
            return cls(np.asarray(multiplicity), strata=by_stratum)
        labels, by_cluster = group_pattern_counts(pattern, cluster, n_patterns=n_patterns)
        design = None
        if strata is not None:
            per_cluster = pd.Series(strata).groupby(cluster).agg(["nunique", "first"])
            if (per_cluster["nunique"] > 1).any():
                raise ValueError("`cluster` must be nested in `strata`: a cluster spans strata.")
            design = per_cluster["first"].reindex(labels).to_numpy()
        return cls(np.asarray(multiplicity), cluster=by_cluster, strata=design)

    def recipe(
        self, statistic: Callable[[np.ndarray], np.ndarray], options: InferenceOptions
    ) -> Callable[[], BootstrapDistribution]:
        """A zero-argument callable drawing the bootstrap distribution of `statistic`.

        `statistic` maps resampled fine-pattern counts, shape (b, P), to values (b,).
        """

        def draw() -> Any:
            return bootstrap_counts(
                self.multiplicity,
                statistic,
                n_resamples=options.n_resamples,
                rng=options.generator(),
                cluster=self.cluster,
                strata=self.strata,
                progress=options.progress,
            )

        return draw
