"""The names the page offers: statistics, interval methods, benchmark scales, data sets.

The statistics come from the registry, the vocabulary the command line's ``--statistics``
takes, through :func:`statistic_names` and :func:`recommended_statistics` alone, so the
page and ``irr report`` never disagree on a name.
"""

from __future__ import annotations

from irr import datasets
from irr.bands import SCALES
from irr.registry import STATISTICS, DataFacts, recommended

__all__ = ["CI_METHODS", "STYLES", "dataset_names", "recommended_statistics",
           "scale_names", "statistic_names"]

#: The interval methods of ``irr report --ci`` ("" leaves each statistic its own).
CI_METHODS = ("", "wald", "percentile", "basic", "bca")
#: The sentence styles of ``irr report --style``.
STYLES = ("apa", "plain")


def statistic_names() -> tuple[str, ...]:
    """Every statistic ``irr report --statistics`` takes, in the registry's order.

    Examples
    --------
    >>> names = statistic_names()
    >>> "kappa" in names and "alpha_ordinal" in names and "icc_a1" in names
    True
    """
    return tuple(STATISTICS)


def recommended_statistics(facts: DataFacts, n_categories: int) -> tuple[str, ...]:
    """The statistics ``irr report`` shows by default for data with these facts.

    Examples
    --------
    >>> recommended_statistics(DataFacts(3, True, ordered=True, numeric=True), 5)
    ('percent', 'alpha_ordinal', 'icc_a1')
    """
    return recommended(facts, n_categories)


def scale_names() -> tuple[str, ...]:
    """The benchmark scales of ``--scale`` (the bands' names).

    Examples
    --------
    >>> "landis-koch" in scale_names()
    True
    """
    return tuple(SCALES)


def dataset_names() -> tuple[str, ...]:
    """The bundled data sets, sorted.

    Examples
    --------
    >>> dataset_names()[:2]
    ('anxiety', 'cac_raw4raters')
    """
    return tuple(sorted(datasets.names()))
