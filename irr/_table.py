"""Sufficient statistics: sums over subjects, built with ``np.bincount`` on category codes.

Every coefficient is a function of one of these, so it is computed once from the data and
then reused by the estimate, its standard error and every bootstrap resample.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np

from irr._data import CHUNK

__all__ = ["agreement_table", "subject_category_counts", "unique_patterns"]


def agreement_table(codes_a: np.ndarray, codes_b: np.ndarray, n_categories: int) -> np.ndarray:
    """The k x k table of two raters' complete code pairs (codes ``-1`` are left out).

    Examples
    --------
    >>> agreement_table(np.array([0, 1, 1, -1]), np.array([0, 1, 0, 1]), 2)
    array([[1, 0],
           [1, 1]])
    """
    k = n_categories
    table = np.zeros(k * k, dtype=np.int64)
    # Chunks bound the int64 temporaries (bincount needs intp indices) to a few MiB.
    for start in range(0, len(codes_a), CHUNK):
        a = codes_a[start : start + CHUNK]
        b = codes_b[start : start + CHUNK]
        complete = (a >= 0) & (b >= 0)
        if not complete.all():
            a, b = a[complete], b[complete]
        cells = a.astype(np.int64) * k
        cells += b
        table += np.bincount(cells, minlength=k * k)
    return table.reshape(k, k)


def subject_category_counts(codes: Sequence[np.ndarray], n_categories: int) -> np.ndarray:
    """How many raters put each subject in each category: shape (n_subjects, k).

    This is Fleiss' layout; missing ratings (code ``-1``) are not counted.

    Examples
    --------
    >>> subject_category_counts([np.array([0, 1, -1]), np.array([0, 2, 2])], 3)
    array([[2, 0, 0],
           [0, 1, 1],
           [0, 0, 1]])
    """
    k = n_categories
    n = len(codes[0])
    counts = np.zeros(n * k, dtype=np.int64)
    base = np.arange(n, dtype=np.int64) * k
    for rater in codes:
        present = rater >= 0
        counts += np.bincount((base + rater)[present], minlength=n * k)
    return counts.reshape(n, k)


def unique_patterns(rows: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Distinct rows of a 2-D array, how often each occurs, and each row's pattern index.

    Subjects with the same pattern contribute identically to every coefficient, so the
    bootstrap resamples patterns (at most k*k for two raters) instead of subjects.

    Examples
    --------
    >>> patterns, multiplicity, inverse = unique_patterns(np.array([[2, 0], [1, 1], [2, 0]]))
    >>> patterns.tolist(), multiplicity.tolist(), inverse.tolist()
    ([[1, 1], [2, 0]], [1, 2], [1, 0, 1])
    """
    patterns, inverse, multiplicity = np.unique(
        rows, axis=0, return_inverse=True, return_counts=True
    )
    return patterns, multiplicity, inverse.reshape(-1)
