"""Every input form of :class:`irr.Agreement` as one :class:`Source`.

Rater columns, wide or long frames (optionally frequency-weighted), 2-D arrays, a k x k
table of counts and subject x category counts all become a ``Source``: per-row rater
codes (``-1`` = missing) with optional frequency weights, or a count matrix, together
with the category scale and the rater names. :meth:`irr._statistics.Statistics.from_source`
summarises it for the estimators; only the façade and the shortcut functions see user
input.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np
import pandas as pd

from irr._data import CHUNK, Ratings, encode_ratings, validate_table
from irr._long import pivot_long, split_array, validate_counts
from irr._validation import check_choice, check_label_kinds

__all__ = ["NAN_POLICIES", "Source", "frequency_weights"]

NAN_POLICIES = ("omit", "raise")


@dataclass(frozen=True, eq=False)
class Source:
    """Coded ratings of one input, before any statistic is computed.

    Attributes
    ----------
    ratings : Ratings
        Codes per rater (one per row), categories, scores and rater names. For subject x
        category counts the codes are empty and `counts` holds the data.
    weights : ndarray of int64 or None
        How many subjects each row stands for (a table's cells, frequency weights).
    counts : ndarray of shape (n, k) or None
        Subject x category counts (:meth:`irr.Agreement.from_counts`).
    frame : DataFrame or None
        The frame the ratings came from, for columns named by ``cluster=``/``strata=``.
    """

    ratings: Ratings
    weights: np.ndarray | None = None
    counts: np.ndarray | None = None
    frame: pd.DataFrame | None = None

    # -- constructors ---------------------------------------------------------------------
    @classmethod
    def from_columns(
        cls, columns: Sequence[Any], names: Sequence[str], categories: Any = None,
        argnames: Sequence[str] | None = None, frame: pd.DataFrame | None = None,
    ) -> Source:
        """One array-like per rater."""
        ratings = encode_ratings(list(columns), list(argnames or names), categories)
        return cls(_renamed(ratings, names), frame=frame)

    @classmethod
    def from_frame(
        cls, df: pd.DataFrame, raters: Sequence[Any] | None, categories: Any = None,
        freq_weights: Any = None,
    ) -> Source:
        """A wide frame: one row per subject (or per `freq_weights` subjects), a column
        per rater."""
        if not isinstance(df, pd.DataFrame):
            raise TypeError(f"`df` must be a pandas DataFrame; got {type(df).__name__}.")
        if raters is None:
            raters = [c for c in df.columns
                      if not (isinstance(freq_weights, str) and c == freq_weights)]
        raters = list(raters)
        unknown = [r for r in raters if r not in df.columns]
        if unknown:
            raise ValueError(
                f"`raters` names columns not in `df`: {unknown!r}; columns are {list(df.columns)!r}."
            )
        if len(raters) < 2:
            raise ValueError(f"`raters` must name at least two columns; got {raters!r}.")
        if len(set(raters)) < len(raters):
            raise ValueError(f"`raters` names a column twice: {raters!r}.")
        names = [str(r) for r in raters]
        weights = None if freq_weights is None else frequency_weights(df, freq_weights)
        source = cls.from_columns([df[r] for r in raters], names, categories, frame=df)
        if weights is None:
            return source
        return cls(source.ratings, weights=weights)

    @classmethod
    def from_table(
        cls, table: Any, categories: Sequence[Any] | None, names: Sequence[str]
    ) -> Source:
        """A k x k table of counts: its cells are the rows, the counts their weights."""
        counts = validate_table(table)
        k = counts.shape[0]
        if categories is None:
            categories = list(table.index) if isinstance(table, pd.DataFrame) else list(range(k))
        if len(categories) != k:
            raise ValueError(
                f"`categories` must have {k} labels for a {k} x {k} table; got {len(categories)}."
            )
        if counts.sum() == 0:
            raise ValueError("`table` has no subjects: every count is zero.")
        scale = encode_ratings([categories, categories], ["categories", "categories"], categories)
        cells = np.arange(k * k)
        codes = ((cells // k).astype(np.int32), (cells % k).astype(np.int32))
        ratings = Ratings(codes, scale.categories, scale.scores, True, tuple(names))
        return cls(ratings, weights=counts.ravel())

    @classmethod
    def from_counts(cls, counts: Any, categories: Sequence[Any] | None) -> Source:
        """Subject x category counts (Fleiss' layout)."""
        array, labels = validate_counts(counts, categories)
        scale = encode_ratings([labels], ["categories"], labels)
        ratings = Ratings((), scale.categories, scale.scores, True, ())
        return cls(ratings, counts=array)

    @classmethod
    def from_long(
        cls, df: pd.DataFrame, subject: Any, rater: Any, rating: Any, categories: Any = None
    ) -> Source:
        """Long data: one row per (subject, rater) rating."""
        columns, names, _ = pivot_long(df, subject, rater, rating)
        return cls.from_columns(columns, names, categories)

    @classmethod
    def from_array(
        cls, x: Any, raters: Sequence[str] | None, categories: Any = None
    ) -> Source:
        """A 2-D array of shape (n_subjects, n_raters)."""
        columns = split_array(x)
        m = len(columns)
        if raters is None:
            names = [f"rater{i}" for i in range(1, m + 1)]
        else:
            names = [str(r) for r in raters]
            if len(names) != m or len(set(names)) != m:
                raise ValueError(
                    f"`raters` must give {m} distinct names, one per column; got {list(raters)!r}."
                )
        return cls.from_columns(columns, names, categories)

    def missing_rows(self) -> np.ndarray:
        """Rows with a missing rating (and a positive weight), in order."""
        codes = self.ratings.codes
        if not codes or not any(
            (c[start : start + CHUNK] < 0).any() for c in codes
            for start in range(0, len(c), CHUNK)
        ):
            return np.zeros(0, dtype=np.int64)
        mask = codes[0] < 0
        for c in codes[1:]:
            mask |= c < 0
        if self.weights is not None:
            mask &= self.weights > 0
        return np.flatnonzero(mask)

    def check_nan_policy(self, nan_policy: str) -> None:
        """Raise under ``nan_policy='raise'`` when a subject has a missing rating."""
        check_choice(nan_policy, "nan_policy", NAN_POLICIES)
        if nan_policy == "omit":
            return
        rows = self.missing_rows()
        if len(rows):
            count = len(rows) if self.weights is None else int(self.weights[rows].sum())
            raise ValueError(
                f"{count} subject(s) have missing ratings (rows {rows[:5].tolist()}"
                f"{' ...' if len(rows) > 5 else ''}) and `nan_policy='raise'`."
            )

    # -- per-subject values (clusters, strata) -------------------------------------------------
    def per_subject(self, values: Any, name: str) -> np.ndarray:
        """One value per subject, from an array-like or a column of the source frame."""
        if self.weights is not None or not self.ratings.codes:
            raise ValueError(
                f"`{name}` needs one value per subject, but this Agreement was built from "
                "aggregated data (a table of counts, subject x category counts, "
                "frequency-weighted rows or statistics)."
            )
        if isinstance(values, str):
            if self.frame is None or values not in self.frame.columns:
                raise ValueError(
                    f"`{name}`={values!r} names no column of the data; pass an array with "
                    "one value per subject or a column of the DataFrame given to from_frame."
                )
            values = self.frame[values]
        check_label_kinds(values, name)
        array = np.asarray(values.to_numpy() if isinstance(values, pd.Series) else values)
        n = self.ratings.n_rows
        if array.ndim != 1 or len(array) != n:
            raise ValueError(
                f"`{name}` must have one value per subject ({n}); got shape {array.shape}."
            )
        missing = np.asarray(pd.isna(array), dtype=bool)
        if missing.any():
            raise ValueError(f"`{name}` has {missing.sum()} missing value(s); every subject needs one.")
        return array


def _renamed(ratings: Ratings, names: Sequence[str]) -> Ratings:
    return Ratings(ratings.codes, ratings.categories, ratings.scores, ratings.ordered,
                   tuple(str(n) for n in names))


def frequency_weights(df: pd.DataFrame, values: Any) -> np.ndarray:
    """Validated frequency weights: one non-negative integer per row of `df`.

    `values` is a column name of `df` or an array-like with one value per row.

    Examples
    --------
    >>> import pandas as pd
    >>> frequency_weights(pd.DataFrame({"n": [2, 0, 5]}), "n").tolist()
    [2, 0, 5]
    """
    if isinstance(values, str) or (np.isscalar(values) and values in df.columns):
        if values not in df.columns:
            raise ValueError(
                f"`freq_weights`={values!r} names no column of the data; columns are "
                f"{list(df.columns)!r}."
            )
        values = df[values]
    if isinstance(values, pd.Series):
        values = values.to_numpy(dtype=float, na_value=np.nan) if values.dtype != object \
            else values.to_numpy()
    array = np.asarray(values)
    if array.ndim != 1 or len(array) != len(df):
        raise ValueError(
            f"`freq_weights` must have one value per row ({len(df)}); got shape {array.shape}."
        )
    if array.dtype.kind not in "iubf":
        try:
            array = array.astype(float)
        except (TypeError, ValueError):
            raise TypeError(
                f"`freq_weights` must be numbers; got values of type {array.dtype}."
            ) from None
    as_float = array.astype(float)
    bad = ~np.isfinite(as_float) | (as_float < 0) | (as_float != np.round(as_float))
    if bad.any():
        rows = np.flatnonzero(bad)
        raise ValueError(
            f"`freq_weights` must be non-negative integers (how many subjects each row "
            f"stands for); got {float(as_float[rows[0]])!r} in row {int(rows[0])}"
            f"{f' and {len(rows) - 1} more' if len(rows) > 1 else ''}."
        )
    if as_float.sum() >= 2.0**53:
        raise ValueError("`freq_weights` total too large to count exactly (>= 2**53).")
    return as_float.astype(np.int64)

