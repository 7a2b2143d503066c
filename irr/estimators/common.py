"""Helpers shared by the estimators of reliability coefficients (alpha, ICC, W)."""

from __future__ import annotations

import math
from collections.abc import Sequence

import numpy as np

from irr._data import preview
from irr._statistics import Statistics
from irr.results import ConfidenceInterval

__all__ = ["complete_patterns", "complete_subjects", "nan_interval",
           "require_subjects", "score_note", "score_patterns"]


def nan_interval(confidence_level: float, method: str) -> ConfidenceInterval:
    """An undefined interval of `method`."""
    return ConfidenceInterval(math.nan, math.nan, confidence_level, method)


def require_subjects(n: int, what: str, which: str = "subjects") -> None:
    """Raise unless there are at least two subjects."""
    if n < 2:
        raise ValueError(f"{what} needs at least two {which}; got {n}.")


def _require_complete(n: int, values: np.ndarray, what: str, raters: Sequence[str]) -> None:
    """Raise unless at least two subjects are complete, naming any rater whose every
    rating is missing (the usual reason for none)."""
    if n >= 2:
        return
    empty = np.isnan(values).all(axis=0) if values.ndim == 2 and len(values) else []
    names = [r for r, e in zip(raters, empty, strict=False) if e]
    if names:
        raise ValueError(
            f"{what} needs at least two subjects with complete ratings; got {n}: rater(s) "
            f"{', '.join(map(repr, names))} gave no rating (every value is missing). "
            "Leave them out (name the other raters)."
        )
    require_subjects(n, what, "subjects with complete ratings")


def complete_subjects(
    values: np.ndarray, complete: np.ndarray, what: str, raters: Sequence[str] = ()
) -> tuple[np.ndarray, int]:
    """The rows of complete subjects (at least two, else raise) and how many were dropped."""
    x = values[complete] if not complete.all() else values
    _require_complete(x.shape[0], values, what, raters)
    return x, int((~complete).sum())


def score_patterns(stats: Statistics, what: str) -> tuple[np.ndarray, np.ndarray]:
    """Each subject pattern's row of scores (P, m), ``nan`` for missing, and the mask of
    the complete patterns; ``stats.multiplicity`` says how many subjects have each.

    Subjects stay grouped by pattern (never one row per subject), so a two-rater table
    of 2e9 subjects gives at most k * k rows.
    """
    stats.require_raters(what)
    stats.require_complete_design(what)  # a sparse design has no dense patterns
    scores = stats.require_scores(what)
    values = np.append(scores, np.nan)[stats.patterns]  # code -1 (missing) picks the nan
    return values, np.isfinite(values).all(axis=1)


def complete_patterns(
    values: np.ndarray, complete: np.ndarray, multiplicity: np.ndarray, what: str,
    raters: Sequence[str] = (),
) -> tuple[np.ndarray, np.ndarray, int]:
    """The complete rows and their multiplicities (at least two subjects, else raise),
    and how many subjects were dropped for a missing rating."""
    c = np.asarray(multiplicity, dtype=np.int64)
    _require_complete(int(c[complete].sum()), values, what, raters)
    return values[complete], c[complete], int(c[~complete].sum())




def score_note(stats: Statistics) -> list[str]:
    """The note saying non-numeric ordered labels were scored by their positions."""
    categories = stats.categories
    if stats.scores is not None and categories.dtype.kind not in "iufb" and not all(
        isinstance(c, (int, float)) for c in categories
    ):
        return [
            "Ratings scored by their positions 0..k-1 in the category order "
            f"{preview(categories)}."
        ]
    return []
