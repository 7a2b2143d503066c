"""Every input form of :class:`irr.Agreement` as one :class:`Source`.

Rater columns, wide or long frames (optionally frequency-weighted), 2-D arrays, a k x k
table of counts and subject x category counts all become a ``Source``: per-row rater
codes (``-1`` = missing) with optional frequency weights, or a count matrix, together
with the category scale and the rater names. :meth:`irr._statistics.Statistics.from_source`
summarises it for the estimators; only the façade and the shortcut functions see user
input.
"""

from __future__ import annotations

import dataclasses
import warnings
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any, NamedTuple

import numpy as np

from irr._columns import (
    ContinuousScoresWarning,
    choose_columns,
    refuse_missing_tokens,
    repeated_ids_note,
    subject_ids,
)
from irr._data import (
    CHUNK,
    MAX_CATEGORIES,
    Ratings,
    align_columns,
    align_to_index,
    continuous_values,
    decimal_text,
    distinct_names,
    encode_ratings,
    exact_counts,
    integer_pair_ratings,
    numeric_array,
    preview,
    real_values,
    refuse_nested,
    validate_table,
)
from irr._frames import (
    LazyMeasurements,
    is_foreign_frame,
    lazy_frame,
    lazy_long,
    lazy_wide,
    missing_values,
    to_pandas,
)
from irr._lazy import lazy_module
from irr._long import (
    cell_layout,
    check_replicate_labels,
    code_long,
    long_columns,
    pivot,
    require_one_per_cell,
    split_array,
    validate_counts,
)
from irr._measurements import Measurements, all_finite
from irr._validation import check_choice, check_label_kinds

pd = lazy_module("pandas")  # imported on first use: data streamed by DuckDB never need it

__all__ = [
    "DENSE_CELLS",
    "DENSE_PER_RATING",
    "NAN_POLICIES",
    "Entries",
    "Source",
    "continuous_columns",
    "frequency_weights",
    "table_counts",
]

NAN_POLICIES = ("omit", "raise")

#: Long data whose subjects x raters layout has at most DENSE_CELLS cells (or at most
#: DENSE_PER_RATING per rating) are pivoted to rater columns; larger, sparse designs (many raters,
#: few ratings per subject) stay one entry per rating (:class:`Entries`).
DENSE_CELLS = 1 << 22
DENSE_PER_RATING = 4


class Entries(NamedTuple):
    """Ratings of a sparse design, one entry per rating given (missing ratings absent).

    ``subject``, ``rater`` and ``code`` are int64 arrays of equal length: the subject
    (``0 .. n_subjects - 1``), the rater (an index into the raters' names) and the
    category code of each rating.
    """

    subject: np.ndarray
    rater: np.ndarray
    code: np.ndarray
    n_subjects: int


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
    index : pandas.Index or None
        The subjects' labels, one per row, when the input carried them (a frame's or a
        Series' index, the subjects of long data); per-subject Series given later
        (``cluster=``, ``strata=``) are aligned on them (:func:`align_to_index`).
    entries : Entries or None
        Long data of a sparse design (:data:`DENSE_CELLS`): one entry per rating, in
        memory proportional to the ratings; the codes of `ratings` are then empty.
    measurements : Measurements or None
        Continuous ratings (real values, no categories; replicates allowed): the codes of
        `ratings` are then empty and `ratings` only names the raters.
    missing : ndarray of int64 or None
        With `measurements`: the subjects (rows) with a missing measurement, when the
        input said so cheaply (wide data); None: found from the measurements when asked
        (:meth:`missing_rows`).
    lazy : LazyMeasurements or None
        Continuous ratings of a lazy frame, summed by its engine (no rows here): the codes
        of `ratings` are then empty and `ratings` only names the raters.
    ids : pandas.Index or None
        The subjects' labels that a wide frame's ``id=`` columns give, when they name
        each row once (:meth:`labelled`): the labels of :meth:`irr.Agreement.codes` and
        of the measurements' subjects, by which :func:`irr.difference` pairs these
        subjects with another Agreement's. Per-subject Series are still aligned on
        `index`, the frame's own.
    """

    ratings: Ratings
    weights: np.ndarray | None = None
    counts: np.ndarray | None = None
    frame: pd.DataFrame | None = None
    index: pd.Index | None = None
    entries: Entries | None = None
    measurements: Measurements | None = None
    missing: np.ndarray | None = None
    lazy: LazyMeasurements | None = None
    ids: pd.Index | None = None

    @property
    def continuous(self) -> bool:
        """Whether the ratings are continuous measurements (in memory or lazy)."""
        return self.measurements is not None or self.lazy is not None

    @property
    def labels(self) -> pd.Index | None:
        """The subjects' labels: `ids` when the input named them, else `index`."""
        return self.index if self.ids is None else self.ids

    def labelled(self, ids: pd.Index) -> Source:
        """These ratings with their subjects labelled by `ids`, one label per row (the
        measurements' subjects too)."""
        measurements = None if self.measurements is None else self.measurements.relabelled(ids)
        return dataclasses.replace(self, ids=ids, measurements=measurements)

    @property
    def n_rows(self) -> int:
        """Rows of the input: subjects, or cells of a table, or rows of counts."""
        if self.lazy is not None:
            return self.lazy.n_rows
        if self.measurements is not None:
            return self.measurements.n_subjects
        if self.entries is not None:
            return self.entries.n_subjects
        if self.counts is not None:
            return len(self.counts)
        return self.ratings.n_rows

    # -- constructors ---------------------------------------------------------------------
    @classmethod
    def from_columns(
        cls, columns: Sequence[Any], names: Sequence[str], categories: Any = None,
        argnames: Sequence[str] | None = None, frame: pd.DataFrame | None = None,
        continuous: bool | None = False, aggregated: bool = False,
        bounds: tuple[int, int] | None = None,
    ) -> Source:
        """One array-like per rater; pandas Series are aligned on their index
        (:func:`align_columns`). `continuous` (default False: categories): see
        :func:`continuous_columns`; `aggregated`: rows stand for several subjects;
        `bounds`: the smallest and largest value of integer columns, when known
        (:func:`irr._data.encode_ratings`)."""
        argnames = list(argnames or names)
        columns, index = align_columns(list(columns), argnames)
        reals = continuous_columns(columns, argnames, categories, continuous)
        if reals is not None:
            return cls.of_columns(reals, names, frame.index if frame is not None else index,
                                  frame)
        ratings = encode_ratings(columns, argnames, categories, aggregated, bounds)
        return cls(_renamed(ratings, names), frame=frame,
                   index=index if frame is None else frame.index)

    @classmethod
    def from_integer_pair(cls, a: Any, b: Any, names: Sequence[str]) -> Source | None:
        """Two raters given as 1-D integer ndarrays (no categories, names or `continuous`
        declared): the Source :meth:`from_columns` makes of them, found without its checks
        of the other input forms (:func:`irr._data.integer_pair_ratings`); None when they
        are not such arrays or span too wide a range (:meth:`from_columns` then decides).
        Integers within that range are categories (:func:`continuous_columns`)."""
        ratings = integer_pair_ratings(a, b, names)
        return None if ratings is None else cls(ratings)

    @classmethod
    def of_columns(
        cls, reals: Sequence[np.ndarray], names: Sequence[str], index: pd.Index | None = None,
        frame: pd.DataFrame | None = None,
    ) -> Source:
        """Continuous ratings: one float64 array per rater, nan where missing."""
        measurements = Measurements.from_columns(reals, names, index)
        return cls.of_measurements(measurements, frame, measurements.missing_subjects())

    @classmethod
    def of_measurements(
        cls, measurements: Measurements, frame: pd.DataFrame | None = None,
        missing: np.ndarray | None = None,
    ) -> Source:
        """Continuous ratings held as :class:`~irr._measurements.Measurements`."""
        if measurements.n_measurements == 0:
            raise ValueError("Every rating is missing: there are no measurements to compare.")
        ratings = Ratings((), pd.Index([]), None, False, measurements.raters,
                          rows=measurements.n_subjects)
        # `missing` None: found from the measurements when asked (missing_rows)
        return cls(ratings, frame=frame, index=measurements.subjects,
                   measurements=measurements, missing=missing)

    @classmethod
    def from_frame(
        cls, df: pd.DataFrame, raters: Sequence[Any] | None, categories: Any = None,
        freq_weights: Any = None, id: Any = None, continuous: bool | None = None,
        by: Sequence[Any] = (),
    ) -> Source:
        """A wide frame: one row per subject (or per `freq_weights` subjects), a column
        per rater; without `raters`, identifier columns are set aside (with a warning
        when `id` does not name them: :func:`irr._columns.choose_columns`). The grouping
        columns `by` are set aside like `id`; repeated `id` values are noted within a
        group (:func:`irr._columns.repeated_ids_note`). A polars,
        pyarrow, DuckDB, Dask or Spark frame is read through :mod:`irr._frames`: an eager
        one as its pandas conversion, a lazy one as the rating patterns its engine counts."""
        by = [by] if isinstance(by, (str, int)) else list(by)
        if is_foreign_frame(df):
            if not lazy_frame(df):
                return cls.from_frame(to_pandas(df), raters, categories, freq_weights, id,
                                      continuous, by)
            read = lazy_wide(df, raters, _with_groups(id, by), freq_weights, continuous)
            if isinstance(read, LazyMeasurements):
                return cls._of_lazy(read, categories)
            patterns, raters, count = read
            return cls.from_frame(patterns, raters, categories, count, None, False)
        if not isinstance(df, pd.DataFrame):
            raise TypeError(f"`df` must be a pandas DataFrame; got {type(df).__name__}.")
        weight_column = [freq_weights] if isinstance(freq_weights, str) else []
        choice = choose_columns(df, None if raters is None else list(raters),
                                _with_groups(id, by), weight_column)
        if choice.detected:
            warnings.warn(choice.describe(), UserWarning, stacklevel=3)
        explicit = [] if id is None else list(id) if isinstance(id, (list, tuple)) else [id]
        # the ids label the subjects when they name each row once; else a note says so
        ids = subject_ids(df, explicit, by)
        note = None if ids is not None else repeated_ids_note(df, explicit, "`id`", by)
        if note:
            warnings.warn(note, UserWarning, stacklevel=3)
        raters = list(choice.raters)
        unknown = [r for r in raters if r not in df.columns]
        if unknown:
            raise ValueError(
                f"`raters` names columns not in `df`: {unknown!r}; columns are {list(df.columns)!r}."
            )
        if len(raters) < 2:
            raise ValueError(f"`raters` must name at least two columns; got {raters!r}.")
        if len(set(raters)) < len(raters):
            raise ValueError(f"`raters` names a column twice: {raters!r}.")
        if categories is None:
            refuse_missing_tokens(df, raters)
        names = distinct_names(raters, "raters")
        if freq_weights is not None:
            if continuous:
                raise ValueError(
                    "`freq_weights` count subjects with the same categorical ratings; "
                    "continuous ratings (continuous=True) take one row per subject. Expand "
                    "the rows (df.loc[df.index.repeat(weights)]) or pass continuous=False."
                )
            continuous = False  # aggregated rows are patterns of categories
        weights = None if freq_weights is None else frequency_weights(df, freq_weights)
        if weights is not None and not weights.all():
            # rows standing for no subject are not data: the expanded data lack them,
            # so their labels must not enter the category scale (Gwet's and
            # Brennan-Prediger's chance agreement depend on its size)
            if not weights.any():
                raise ValueError("`freq_weights` are all zero: there are no subjects.")
            df = df[weights > 0]
            weights = weights[weights > 0]
        if weights is not None and weights.sum() == 1:
            raise ValueError("`freq_weights` stand for a single subject; agreement needs at "
                             "least two.")
        source = cls.from_columns([df[r] for r in raters], names, categories, frame=df,
                                  continuous=continuous, aggregated=weights is not None)
        if weights is None:
            return source if ids is None else source.labelled(ids)
        return cls(source.ratings, weights=weights, index=df.index)

    @classmethod
    def from_patterns(
        cls, columns: Mapping[Any, np.ndarray], counts: np.ndarray, categories: Any = None,
    ) -> Source:
        """Rating patterns of categories with their counts (a lazy frame's ``GROUP BY``):
        `columns` maps each rater to a 1-D numpy array (masked, or nan, where the rating
        is missing), `counts` says how many subjects have each pattern. The Source
        :meth:`from_frame` makes of the same rows with ``freq_weights=counts`` and
        ``continuous=False``: booleans, integers and floats are coded here with numpy
        (:func:`_numeric_pattern_ratings`; no pandas), anything else as a frame of the
        values pandas holds for them (None where missing)."""
        raters = list(columns)
        weights = np.asarray(counts, dtype=np.int64)
        ratings = _numeric_pattern_ratings([columns[r] for r in raters], raters, categories)
        if ratings is not None and len(weights) == len(ratings.codes[0]) and \
                (weights > 0).all() and weights.sum() > 1:
            return cls(ratings, weights=weights)
        frame = pd.DataFrame({r: _pandas_values(columns[r]) for r in raters})
        return cls.from_frame(frame, raters, categories, weights, None, False)

    @classmethod
    def _of_lazy(cls, lazy: LazyMeasurements, categories: Any) -> Source:
        """Continuous measurements of a lazy frame, summed by its engine."""
        if categories is not None:
            raise ValueError("`categories` declares a scale of categories; these ratings are "
                             "continuous measurements.")
        return cls(Ratings((), pd.Index([]), None, False, lazy.raters, rows=0), lazy=lazy)

    @classmethod
    def from_table(
        cls, table: Any, categories: Sequence[Any] | None, names: Sequence[str],
        name: str = "table",
    ) -> Source:
        """A k x k table of counts: its cells are the rows, the counts their weights.

        A DataFrame's rows and columns are matched by label (:func:`table_counts`).
        """
        counts, scale = table_counts(table, categories, name)
        k = counts.shape[0]
        if counts.sum() == 0:
            raise ValueError(f"`{name}` has no subjects: every count is zero.")
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
        cls, df: pd.DataFrame, subject: Any, rater: Any, rating: Any, categories: Any = None,
        continuous: bool | None = None, replicate: Any = None,
    ) -> Source:
        """Long data: one row per (subject, rater) rating, or per measurement.

        Continuous ratings (`continuous`, :func:`continuous_columns`) keep every row as a
        measurement: several rows of one (subject, rater) are replicates, and raters may
        measure different subjects. Categorical ratings take one row per (subject, rater)
        (a repeated pair raises). `replicate`, a column labelling the repeated
        measurements, is checked (present, unique within each (subject, rater)), never
        used as data.

        Categorical data are pivoted to one column per rater when the subjects x raters
        layout is small (:data:`DENSE_CELLS`, or :data:`DENSE_PER_RATING` cells per
        rating); otherwise (a sparse design: many raters, few ratings per subject) kept as
        one entry per rating.

        A lazy polars, DuckDB, Dask or Spark frame is reduced by its engine to counts of
        rating patterns (:func:`irr._frames.long_patterns`; raters in sorted order); an
        eager foreign frame is read as its pandas conversion.
        """
        if is_foreign_frame(df):
            if not lazy_frame(df):
                return cls.from_long(to_pandas(df), subject, rater, rating, categories,
                                     continuous, replicate)
            if replicate is not None:
                raise ValueError("`replicate` needs the rows of continuous measurements, which "
                                 "a lazy frame does not hand over; collect them first.")
            read = lazy_long(df, subject, rater, rating, continuous)
            if isinstance(read, LazyMeasurements):
                return cls._of_lazy(read, categories)
            patterns, raters, count = read
            return cls.from_frame(patterns, raters, categories, count, None, False)
        parts = long_columns(df, subject, rater, rating)
        layout = cell_layout(parts) if replicate is None else None
        if layout is not None:
            # every (subject, rater) cell once, in cell order: measurements none of which
            # is missing (nan; real_values refuses infinities) are that layout, read
            # without coding the labels
            column = parts.rating
            # a numpy float column as its ndarray (the values its .array gives, without
            # a pass looking for missing ones)
            values = column.to_numpy() if isinstance(column.dtype, np.dtype) and \
                column.dtype.kind == "f" else column.array
            reals = continuous_columns([values], ["rating"], categories, continuous)
            if reals is not None and all_finite(reals[0]):
                measurements = Measurements.from_layout(reals[0].reshape(layout.shape),
                                                        layout.raters, layout.subjects)
                return cls.of_measurements(measurements, frame=df)
        long = code_long(parts, replicates=True)
        if replicate is not None:
            check_replicate_labels(df, replicate, long)
        if layout is None:
            reals = continuous_columns([long.ratings], ["rating"], categories, continuous)
        if reals is not None:
            value = reals[0]
            missing = np.isnan(value)
            if not missing.any():
                measurements = Measurements(long.subject, long.rater, value,
                                            tuple(long.raters), long.subjects)
            else:
                keep = ~missing
                measurements = Measurements(long.subject[keep], long.rater[keep], value[keep],
                                            tuple(long.raters), long.subjects)
            return cls.of_measurements(measurements, frame=df)
        require_one_per_cell(long, "" if continuous is False else (
            " (repeated measurements of a continuous scale are replicates: pass "
            "continuous=True to keep them)"))
        if long.n_cells <= max(DENSE_CELLS, DENSE_PER_RATING * len(long.subject)):
            columns, names, subjects = pivot(long)
            source = cls.from_columns(columns, names, categories, continuous=False)
            return cls(source.ratings, index=subjects)
        name = str(rating)
        scale = encode_ratings([long.ratings], [name], categories)
        code = scale.codes[0].astype(np.int64)
        given = code >= 0  # a missing rating is no entry; its subject stays
        entries = Entries(long.subject[given], long.rater[given], code[given],
                          len(long.subjects))
        ratings = Ratings((), scale.categories, scale.scores, scale.ordered,
                          tuple(long.raters))
        return cls(ratings, index=long.subjects, entries=entries)

    @classmethod
    def from_array(
        cls, x: Any, raters: Sequence[str] | None, categories: Any = None,
        continuous: bool | None = None,
    ) -> Source:
        """A 2-D array of shape (n_subjects, n_raters)."""
        columns, bounds = split_array(x)
        m = len(columns)
        if raters is None:
            names = [f"rater{i}" for i in range(1, m + 1)]
        else:
            names = [str(r) for r in raters]
            if len(names) != m or len(set(names)) != m:
                raise ValueError(
                    f"`raters` must give {m} distinct names, one per column; got {list(raters)!r}."
                )
        return cls.from_columns(columns, names, categories, continuous=continuous,
                                bounds=bounds)

    def missing_rows(self) -> np.ndarray:
        """Rows with a missing rating (and a positive weight), in order (not for lazy
        measurements: :meth:`n_missing_rows` counts them)."""
        if self.lazy is not None:
            raise ValueError(self.rows_refused("The rows with a missing measurement"))
        if self.measurements is not None:
            return (self.measurements.missing_subjects() if self.missing is None
                    else self.missing)
        if self.entries is not None:
            given = np.bincount(self.entries.subject, minlength=self.entries.n_subjects)
            return np.flatnonzero(given < len(self.ratings.raters))
        if self.ratings.pair_counts is not None:  # two integer raters: nothing missing
            return np.zeros(0, dtype=np.int64)
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

    def n_missing_rows(self) -> int:
        """How many rows have a missing rating (counted by the engine for lazy data)."""
        if self.lazy is not None:
            return self.lazy.n_incomplete
        rows = self.missing_rows()
        return len(rows) if self.weights is None else int(self.weights[rows].sum())

    def rows_refused(self, what: str) -> str:
        """Why `what` is not available on measurements summed by a lazy frame's engine,
        and the way out (:meth:`LazyMeasurements.rows_refused`)."""
        if self.lazy is None:
            return f"{what} needs the rows of the measurements."
        return self.lazy.rows_refused(what)

    def numeric_measurements(self) -> Measurements:
        """The ratings as measurements: numeric category labels taken at their values.

        Continuous statistics (limits of agreement, CCC, ...) need real values, not
        categories; integer scores such as readings in l/min are held as categories unless
        ``continuous=True`` (:func:`continuous_columns`), and are measurements all the same.
        Labels that are not numbers (strings, booleans) and aggregated
        inputs (tables, counts, frequency-weighted rows) raise a ValueError saying why.
        """
        if self.measurements is not None:
            return self.measurements
        if self.lazy is not None:
            raise ValueError(self.rows_refused("This statistic"))
        ratings = self.ratings
        labels = ratings.categories
        if self.weights is not None or self.counts is not None or (
                not ratings.has_codes and self.entries is None):
            raise ValueError(
                "Continuous statistics need one measurement per subject and rater, but this "
                "Agreement was built from aggregated data (a table of counts, subject x "
                "category counts, frequency-weighted rows or statistics, or a lazy frame's "
                "counts of categories: build it with continuous=True to have the engine sum "
                "measurements)."
            )
        if (not pd.api.types.is_numeric_dtype(labels)
                or pd.api.types.is_bool_dtype(labels)):
            raise ValueError(
                "Continuous statistics need numeric ratings, but these are labels "
                f"({preview(labels)}); convert them to numbers first."
            )
        values = labels.to_numpy(dtype=float)
        if self.entries is not None:
            e = self.entries
            return Measurements(e.subject, e.rater, values[e.code], ratings.raters,
                                self.index if self.index is not None else pd.RangeIndex(e.n_subjects))
        padded = np.append(values, np.nan)  # code -1 (missing) reads the trailing nan
        return Measurements.from_columns([padded[c] for c in ratings.codes], ratings.raters,
                                         self.index)

    def check_nan_policy(self, nan_policy: str) -> None:
        """Raise under ``nan_policy='raise'`` when a subject has a missing rating."""
        check_choice(nan_policy, "nan_policy", NAN_POLICIES)
        if nan_policy == "omit":
            return
        if self.lazy is not None:
            if self.lazy.n_incomplete:
                raise ValueError(f"{self.lazy.n_incomplete} subject(s) have missing ratings "
                                 "and `nan_policy='raise'`.")
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
        if self.lazy is not None:
            raise ValueError(self.rows_refused(f"`{name}`"))
        if self.weights is not None or (not self.ratings.has_codes and self.entries is None
                                        and self.measurements is None):
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
        values = align_to_index(values, self.index, name, "the subjects")
        try:
            check_label_kinds(values, name)
        except TypeError:  # lists or arrays as labels are named as such
            refuse_nested(values, name)
            raise
        array = np.asarray(values.to_numpy() if isinstance(values, pd.Series) else values)
        n = self.n_rows
        if array.ndim != 1 or len(array) != n:
            raise ValueError(
                f"`{name}` must have one value per subject ({n}); got shape {array.shape}."
            )
        missing = np.asarray(pd.isna(array), dtype=bool)
        if missing.any():
            raise ValueError(f"`{name}` has {missing.sum()} missing value(s); every subject needs one.")
        return array


def _pandas_values(values: np.ndarray) -> Any:
    """A numpy column (masked where missing) as the values pandas holds for it, as Arrow
    converts a column with nulls: integers as floats with nan, booleans and other objects
    with None."""
    mask = np.ma.getmaskarray(values)
    data = np.ma.getdata(values)
    if not mask.any():
        return data
    if data.dtype.kind in "iuf":
        return np.where(mask, np.nan, data.astype(float))
    return np.where(mask, None, data.astype(object))


def _numeric_pattern_ratings(
    columns: Sequence[np.ndarray], raters: Sequence[Any], categories: Any,
) -> Ratings | None:
    """Boolean or numeric rater columns (numpy, masked or nan where missing) coded as
    :func:`irr._data.encode_ratings` codes their pandas form: the categories in value
    order (integer-valued floats as int64), each value scored by itself (booleans 0 and
    1), ordered; or against the declared numeric or boolean `categories`. None for any
    other input, or one whose coding raises an error (more categories than
    :data:`MAX_CATEGORIES`, labels outside `categories`, numbers beyond ``2**53``, an
    infinity, no rating at all, fewer than two raters): the general coding then decides,
    and its message names the problem."""
    names = [str(r) for r in raters]
    if len(columns) < 2 or len(set(names)) < len(names):
        return None
    kinds = {np.ma.getdata(c).dtype.kind for c in columns}
    sizes = {np.ma.getdata(c).dtype.itemsize for c in columns if c.dtype.kind == "f"}
    if not (kinds <= set("iuf") or kinds == {"b"}) or sizes - {8}:
        return None  # mixed labels, strings, single-precision floats: the general coding
    data = [np.ma.getdata(c) for c in columns]
    missing = [missing_values(c) for c in columns]
    present = np.concatenate([d[~m] for d, m in zip(data, missing, strict=True)])
    if not present.size:
        return None
    if categories is None:
        values = np.unique(present)
        if kinds != {"b"}:
            if not np.isfinite(values.astype(float)).all() or \
                    max(abs(float(values[0])), abs(float(values[-1]))) >= 2.0**53:
                return None
            if values.dtype.kind in "iu" or (values == np.round(values)).all():
                values = values.astype(np.int64)  # integer labels, as pandas' Index holds them
    else:
        labels = list(categories)
        if not (all(isinstance(c, bool) for c in labels) or all(
                isinstance(c, int | float) and not isinstance(c, bool) for c in labels)):
            return None
        values = np.array(labels)
        if (kinds == {"b"}) != (values.dtype.kind == "b") or not values.size or \
                len(np.unique(values)) < len(values) or \
                (values.dtype.kind == "f" and not np.isfinite(values).all()) or \
                (values.dtype.kind != "b" and np.abs(values).max() >= 2.0**53):
            return None
    if len(values) > MAX_CATEGORIES:
        return None
    order = np.argsort(values, kind="stable")
    ranked = values[order]
    codes = []
    for d, m in zip(data, missing, strict=True):
        at = np.minimum(np.searchsorted(ranked, d), len(ranked) - 1)
        found = ranked[at] == d
        if (~found & ~m).any():
            return None  # a label outside the declared categories: the general message
        codes.append(np.where(m, -1, order[at]).astype(np.int32))
    scores = values.astype(float)
    return Ratings(tuple(codes), values, scores, True, tuple(names))


def continuous_columns(
    columns: Sequence[Any], names: Sequence[str], categories: Any, continuous: bool | None
) -> list[np.ndarray] | None:
    """The raters' ratings as float64 arrays (nan missing) when they are continuous, else
    None (categories).

    `continuous` None detects: numeric ratings (not strings, booleans or Categoricals)
    with a non-integer value and more than ten distinct values, or more distinct values
    than a category scale may have (:func:`irr._data.continuous_values`); declared
    `categories` make them categories. True requires numeric ratings (TypeError naming
    the columns and showing bad values); False keeps categories.
    """
    if continuous is not None and not isinstance(continuous, (bool, np.bool_)):
        raise TypeError(f"`continuous` must be True, False or None; got {continuous!r}.")
    if continuous is False:
        return None
    if categories is not None:
        if continuous:
            raise ValueError(
                "`categories=` declares a scale of categories, but `continuous=True` asks for "
                "real-valued measurements (no categories); pass one or the other."
            )
        return None
    if continuous is None and all(_small_integer_range(c) for c in columns):
        return None  # integers within a category scale's range: categories, never copied
    reals = []
    for column, name in zip(columns, names, strict=True):
        values = real_values(column, name)
        if values is None:
            if not continuous:
                _warn_decimal_text(columns, names)
                return None
            shown = pd.Series(np.asarray(column, dtype=object)).dropna().unique()[:5]
            raise TypeError(
                f"`continuous=True` needs numeric ratings, but `{name}` holds "
                f"{getattr(column, 'dtype', type(column).__name__)} labels such as "
                f"{preview(shown)}; convert them to numbers (pd.to_numeric) or leave "
                "`continuous` unset to treat them as categories."
            )
        reals.append(values)
    lengths = {len(v) for v in reals}
    if len(lengths) > 1:
        shown = ", ".join(f"`{n}` has {len(v)}" for n, v in zip(names, reals, strict=True))
        raise ValueError(f"All raters must rate the same subjects: {shown} ratings.")
    if not reals or not len(reals[0]):
        raise ValueError(f"`{names[0]}` is empty: there are no subjects to compare.")
    if continuous or continuous_values(reals):
        return reals
    return None


def _warn_decimal_text(columns: Sequence[Any], names: Sequence[str]) -> None:
    """Warn when every rater's labels are decimal numbers written as text that, as
    numbers, would be continuous measurements (:func:`irr._data.decimal_text`): text is
    never read as a measurement, so each distinct text becomes a category."""
    numbers = []
    for column in columns:  # the first column that is not decimal text settles it
        values = decimal_text(column)
        if values is None:
            return
        numbers.append(values)
    if not continuous_values(numbers):
        return
    shown = pd.Series(np.asarray(columns[0], dtype=object)).dropna().unique()[:3]
    distinct = pd.concat([pd.Series(np.asarray(c, dtype=object)) for c in columns]).nunique()
    warnings.warn(
        f"{', '.join(f'`{n}`' for n in names)} hold numbers written as text (such as "
        f"{preview(shown)}): text is never read as a measurement, so each distinct text is "
        f"a category ({distinct:,} categories). For measurements convert them to numbers "
        "(pd.to_numeric); pass continuous=False to keep them as categories without this "
        "warning.", ContinuousScoresWarning, stacklevel=4)


def _small_integer_range(column: Any) -> bool:
    """Whether `column` is a numpy integer or bool array (or Series) whose values span at
    most :data:`irr._data.MAX_CATEGORIES` integers (so they cannot be continuous)."""
    array = column.to_numpy() if isinstance(column, pd.Series) and isinstance(
        column.dtype, np.dtype) else column
    if not isinstance(array, np.ndarray) or array.dtype.kind not in "iub":
        return False
    if array.dtype.kind == "b" or not array.size or 2 ** (8 * array.itemsize) <= MAX_CATEGORIES:
        return True  # (8-bit integers span at most 256 values)
    return int(array.max()) - int(array.min()) < MAX_CATEGORIES


def _default_labels(index: pd.Index) -> bool:
    return isinstance(index, pd.RangeIndex) and index.equals(pd.RangeIndex(len(index)))


def table_counts(table: Any, categories: Any, name: str = "table") -> tuple[np.ndarray, Ratings]:
    """A k x k table of counts (rows: first rater) and its category scale.

    An array, or a DataFrame with default labels (0..k-1 on both axes), is positional:
    row and column i are category i (`categories`, default 0..k-1). Any other DataFrame
    (``pd.crosstab(a, b)``) is read by label: its rows and columns are placed on the
    union of their labels, in the order of `categories` when given (a label outside
    them raises), else in the index's order when rows and columns carry the same labels
    in the same order, else in the order :func:`irr._data.encode_ratings` gives
    observed labels (numbers by value, strings sorted). Unobserved categories get zero
    counts; a repeated or missing label raises.

    Examples
    --------
    >>> t = pd.DataFrame([[2, 1], [0, 3]], index=["x", "y"], columns=["y", "x"])
    >>> counts, scale = table_counts(t, None)
    >>> counts.tolist(), list(scale.categories)
    ([[1, 2], [3, 0]], ['x', 'y'])
    """
    if not isinstance(table, pd.DataFrame) or (
        _default_labels(table.index) and _default_labels(table.columns)
    ):
        counts = validate_table(table, name)
        k = counts.shape[0]
        if categories is None:
            categories = list(range(k))
        if len(categories) != k:
            raise ValueError(
                f"`categories` must have {k} labels for a {k} x {k} table; got {len(categories)}."
            )
        scale = encode_ratings([categories, categories], ["categories", "categories"], categories)
        return counts, scale
    raw = numeric_array(table, name, "a k x k table of counts")
    if raw.size == 0:
        raise ValueError(f"`{name}` is empty.")
    raw = exact_counts(raw, name, "counts")
    rows, columns = table.index, table.columns
    for axis, labels in (("rows", rows), ("columns", columns)):
        if labels.has_duplicates:
            raise ValueError(
                f"`{name}` repeats {axis[:-1]} labels {preview(labels[labels.duplicated()].unique())}"
                "; each category must label one row and one column."
            )
        if labels.hasnans:
            raise ValueError(f"`{name}` has a missing {axis[:-1]} label: {preview(labels)}.")
    if categories is None and rows.equals(columns):
        categories = list(rows)
    labels = pd.Series(rows.append(columns))
    scale = encode_ratings([labels], [f"{name} labels"], categories)
    code = scale.codes[0]
    k = scale.n_categories
    counts = np.zeros((k, k), dtype=np.int64)
    counts[np.ix_(code[: len(rows)], code[len(rows):])] = raw
    return counts, scale


def _renamed(ratings: Ratings, names: Sequence[str]) -> Ratings:
    raters = tuple(str(n) for n in names)
    return ratings if raters == ratings.raters else dataclasses.replace(ratings, raters=raters)


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
    values = align_to_index(values, df.index, "freq_weights", "`df`")
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


def _with_groups(id: Any, by: Sequence[Any]) -> Any:
    """`id` with the grouping columns `by` added (None when there are neither)."""
    if not by:
        return id
    ids = [] if id is None else list(id) if isinstance(id, (list, tuple)) else [id]
    return [*ids, *(g for g in by if g not in ids)]
