"""Helpers shared by the estimators of reliability coefficients (alpha, ICC, W)."""

from __future__ import annotations

import math

import numpy as np

from irr._data import preview
from irr._statistics import Statistics
from irr.results import ConfidenceInterval

__all__ = ["complete_subjects", "listwise_note", "nan_interval", "require_subjects",
           "score_note"]


def nan_interval(confidence_level: float, method: str) -> ConfidenceInterval:
    """An undefined interval of `method`."""
    return ConfidenceInterval(math.nan, math.nan, confidence_level, method)


def require_subjects(n: int, what: str, which: str = "subjects") -> None:
    """Raise unless there are at least two subjects."""
    if n < 2:
        raise ValueError(f"{what} needs at least two {which}; got {n}.")


def complete_subjects(
    values: np.ndarray, complete: np.ndarray, what: str
) -> tuple[np.ndarray, int]:
    """The rows of complete subjects (at least two, else raise) and how many were dropped."""
    x = values[complete] if not complete.all() else values
    require_subjects(x.shape[0], what, "subjects with complete ratings")
    return x, int((~complete).sum())


def listwise_note(dropped: int) -> list[str]:
    """The note on subjects left out for a missing rating, if any."""
    if dropped:
        return [f"{dropped} subject(s) with a missing rating were left out (listwise)."]
    return []


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
