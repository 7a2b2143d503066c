"""Dataframes other than pandas: polars (eager and lazy), pyarrow Tables, DuckDB relations,
Dask and PySpark DataFrames, through narwhals (``pip install "irrstats[frames]"``).

Every categorical statistic depends on the subjects only through how many of them share
each rating pattern. So a *lazy* or distributed frame is never collected row by row: its
engine computes the distinct patterns and their counts (one ``GROUP BY`` over the rater
columns; for long data first one row per subject, by a conditional column per rater and a
``GROUP BY subject``), and only that small table comes back as pandas, to be read as
frequency-weighted rows. Continuous measurements of a lazy frame are held as
:class:`LazyMeasurements`: the engine adds up, for two raters, the pairs' count and the
sums, squares and products of their means and differences (shifted by pilot values
from the first rows, so large values keep their digits), and only those few numbers come
back. An *eager* frame (a polars DataFrame, a pyarrow Table) already sits in this
process's memory: its columns are converted to pandas and read as a pandas frame would be,
continuous measurements included. A DuckDB relation's first rows and its wide rating
patterns are read with DuckDB's own API, without narwhals (whose import would cost a
streamed ``irr kappa`` about 0.1 s): as numpy columns (``fetchnumpy``) when every column
is a boolean, a number or a string (:func:`numpy_relation`), so that neither pandas nor
pyarrow is imported, else converted to pandas by Arrow as narwhals does.
"""

from __future__ import annotations

import math
import warnings
from collections.abc import Sequence
from functools import cached_property
from typing import Any

import numpy as np

from irr._columns import choose_columns, looks_continuous
from irr._data import is_pandas, nested_message
from irr._lazy import lazy_module

pd = lazy_module("pandas")  # imported on first use: data streamed by DuckDB never need it

__all__ = [
    "FOREIGN_PACKAGES",
    "LazyMeasurements",
    "count_distinct",
    "head",
    "is_foreign_frame",
    "lazy_frame",
    "lazy_groups",
    "lazy_long",
    "lazy_wide",
    "long_patterns",
    "missing_values",
    "numpy_relation",
    "relation_head",
    "relation_patterns",
    "subjects_in_several_groups",
    "to_pandas",
    "wide_patterns",
]

#: Packages whose dataframes are read through narwhals.
FOREIGN_PACKAGES = frozenset({"polars", "pyarrow", "duckdb", "dask", "dask_expr", "pyspark",
                              "sqlframe", "ibis", "modin", "cudf", "narwhals"})

#: Rows read from the head of a lazy frame to tell rater columns from identifiers and
#: categories from continuous measurements (:func:`irr._columns.choose_columns`).
SAMPLE_ROWS = 1024


def is_foreign_frame(obj: Any) -> bool:
    """Whether `obj` is a dataframe of another library than pandas (read through narwhals).

    Examples
    --------
    >>> import pandas as pd
    >>> is_foreign_frame(pd.DataFrame({"a": [1]})), is_foreign_frame([[1, 2]])
    (False, False)
    """
    if is_pandas(obj, "DataFrame") or is_pandas(obj, "Series"):
        return False
    return type(obj).__module__.split(".")[0] in FOREIGN_PACKAGES


def _narwhals() -> Any:
    try:
        import narwhals.stable.v2 as nw
    except ImportError:  # pragma: no cover - depends on the installation
        raise ImportError(
            "Reading polars, pyarrow, DuckDB, Dask or Spark data needs narwhals: "
            'pip install "irrstats[frames]".'
        ) from None
    return nw


def _wrap(native: Any, argument: str) -> Any:
    nw = _narwhals()
    with warnings.catch_warnings():
        # narwhals announces that its Dask support moves to a separate package
        warnings.filterwarnings("ignore", message="Dask support is moving", category=FutureWarning)
        try:
            return nw.from_native(native)
        except TypeError:
            raise TypeError(
                f"`{argument}` must be a pandas DataFrame or a dataframe narwhals reads "
                f"(polars, pyarrow, DuckDB, Dask, PySpark); got {type(native).__name__}."
            ) from None


def _is_relation(obj: Any) -> bool:
    """Whether `obj` is a DuckDB relation (the CLI's streamed files): its head and its
    rating patterns are read with DuckDB's own API, which spares a command narwhals'
    import (about 0.1 s), and converted to pandas as narwhals converts them (by Arrow)."""
    return type(obj).__name__ == "DuckDBPyRelation" and is_foreign_frame(obj)


def _collect(frame: Any) -> pd.DataFrame:
    """A narwhals frame (computed by its engine if lazy) or a DuckDB relation as a pandas
    DataFrame."""
    if _is_relation(frame):  # to_arrow_table from DuckDB 1.5, fetch_arrow_table before
        fetch = getattr(frame, "to_arrow_table", None) or frame.fetch_arrow_table
        return fetch().to_pandas()
    nw = _narwhals()
    if isinstance(frame, nw.LazyFrame):
        frame = frame.collect()
    return frame.to_pandas()


def _head(frame: Any, rows: int) -> pd.DataFrame:
    """The first `rows` rows of a narwhals frame or a DuckDB relation as pandas."""
    return _collect(frame.limit(rows) if _is_relation(frame) else frame.head(rows))


def _counted(native: Any, weight: list[Any]) -> Any:
    """The frame whose rating patterns are counted: a DuckDB relation as it is (DuckDB's
    GROUP BY), any other frame, or a relation with frequency weights (summed), wrapped by
    narwhals."""
    return native if _is_relation(native) and not weight else _wrap(native, "df")


def _is_lazy(frame: Any) -> bool:
    return isinstance(frame, _narwhals().LazyFrame)


def lazy_frame(native: Any) -> bool:
    """Whether a foreign frame is lazy or distributed (polars LazyFrame, DuckDB, Dask,
    Spark): computed by its engine, never collected row by row."""
    return _is_lazy(_wrap(native, "df"))


def _columns(frame: Any) -> list[str]:
    if _is_relation(frame):
        return list(frame.columns)
    return list(frame.collect_schema().names())


def _check_columns(names: Sequence[Any], columns: list[str], argument: str) -> None:
    unknown = [c for c in names if c not in columns]
    if unknown:
        raise ValueError(f"`{argument}` names columns not in `df`: {unknown!r}; columns are "
                         f"{columns!r}.")


def _count_name(taken: Sequence[Any]) -> str:
    name = "n_subjects"
    while name in taken:
        name = f"_{name}"
    return name


def to_pandas(native: Any, columns: Sequence[Any] | None = None) -> pd.DataFrame:
    """The columns of an eager foreign frame (all by default) as a pandas DataFrame; a lazy
    frame raises a ValueError (its rows are never collected)."""
    frame = _wrap(native, "df")
    if _is_lazy(frame):
        raise ValueError(
            f"A lazy {type(native).__name__} is summarised by its engine, not collected; "
            "this operation needs its rows (collect the columns you need first)."
        )
    if columns is not None:
        _check_columns(columns, _columns(frame), "df")
        frame = frame.select(list(columns))
    return frame.to_pandas()


def _is_continuous(sample: pd.DataFrame, raters: Sequence[Any],
                   continuous: bool | None) -> bool:
    """Whether the ratings are continuous measurements: `continuous`, or (None) what the
    first rows look like (:func:`irr._columns.looks_continuous`)."""
    if continuous is not None:
        return bool(continuous)
    return any(looks_continuous(sample[r].dropna().unique()) for r in raters)


def _refuse_continuous(native: Any, sample: pd.DataFrame, raters: Sequence[Any],
                       continuous: bool | None, what: str) -> None:
    """Continuous ratings where only patterns of categories can be counted (`what`
    says where): an error."""
    if _is_continuous(sample, raters, continuous):
        raise ValueError(
            f"The ratings of this lazy {type(native).__name__} look like continuous "
            f"measurements, which are not reduced to counts of rating patterns ({what}): "
            "pass continuous=False to take each value as a category, or collect the rater "
            "columns and pass the collected frame.")


def head(native: Any, rows: int = SAMPLE_ROWS) -> pd.DataFrame:
    """The first `rows` rows of a foreign frame as pandas (to look at its columns)."""
    return _head(native if _is_relation(native) else _wrap(native, "df"), rows)


#: DuckDB column types whose values numpy holds as pandas holds them (by Arrow), so the
#: first rows and the rating patterns of a relation of only such columns are read as numpy
#: (:func:`relation_head`, :func:`relation_patterns`) without importing pandas or pyarrow.
NUMPY_TYPES = frozenset({"boolean", "tinyint", "smallint", "integer", "bigint", "utinyint",
                         "usmallint", "uinteger", "ubigint", "float", "double", "varchar"})


def numpy_relation(native: Any) -> bool:
    """Whether `native` is a DuckDB relation whose columns are all of :data:`NUMPY_TYPES`
    (booleans, integers, floats, strings)."""
    return _is_relation(native) and all(t.id in NUMPY_TYPES for t in native.types)


def relation_head(native: Any, rows: int = SAMPLE_ROWS) -> dict[str, np.ndarray]:
    """The first `rows` rows of a :func:`numpy_relation` as numpy columns, in column
    order: ``{name: array}``, a masked array where a column holds NULL (DuckDB's
    ``fetchnumpy``; strings as object arrays)."""
    return dict(native.limit(rows).fetchnumpy())


def relation_patterns(native: Any, raters: Sequence[Any],
                      ) -> tuple[dict[str, np.ndarray], np.ndarray]:
    """The distinct rating patterns of the rater columns of a :func:`numpy_relation` and
    how many rows have each (DuckDB's ``GROUP BY``, NULL a value of its own), as numpy
    columns (masked where NULL) and int64 counts, in the order :func:`wide_patterns`
    gives them: sorted by the raters' values in turn, missing last (rows that differ
    only by nan or NULL, which that order leaves as the engine returns them, by where
    their nan and NULL are). Unknown and nested rater
    columns are refused as :func:`wide_patterns` refuses them."""
    chosen = list(raters)
    _check_columns(chosen, _columns(native), "raters")
    _refuse_nested(native, chosen)
    count = _count_name(chosen)
    quoted = ['"{}"'.format(str(name).replace('"', '""')) for name in [*chosen, count]]
    table = native.aggregate(", ".join([*quoted[:-1], f"count(*) AS {quoted[-1]}"]),
                             ", ".join(quoted[:-1])).fetchnumpy()
    columns = {name: table[name] for name in chosen}
    # np.lexsort: the last key first. Missing (nan or NULL) sorts last, the two tied as
    # pandas ties them; rows that differ only there (nan here, NULL there) come in the
    # engine's order of its groups, which varies from run to run: the least significant
    # keys, NULL after nan, make their order reproducible
    ranks = [np.ma.getmaskarray(columns[name]) for name in reversed(chosen)]
    for name in reversed(chosen):
        values = columns[name]
        missing = missing_values(values)
        present = np.ma.getdata(values)[~missing]
        rank = np.full(len(values), len(present), dtype=np.int64)
        rank[~missing] = np.unique(present, return_inverse=True)[1].reshape(-1)
        ranks.append(rank)
    order = np.lexsort(ranks) if ranks else np.arange(0)
    counts = np.asarray(table[count], dtype=np.int64)[order]
    return {name: values[order] for name, values in columns.items()}, counts


def missing_values(values: np.ndarray) -> np.ndarray:
    """Where a numpy column is missing: masked (NULL) or nan, as pandas' isna reads it."""
    missing = np.ma.getmaskarray(values).copy()
    data = np.ma.getdata(values)
    if data.dtype.kind == "f":
        missing |= np.isnan(data)
    return missing


def _choose(frame: Any, raters: Sequence[Any] | None, id: Any, weight: list[Any],
            by: Sequence[Any]) -> tuple[pd.DataFrame, list[Any]]:
    """The first :data:`SAMPLE_ROWS` rows and the rater columns (given, or chosen on those
    rows by :func:`irr._columns.choose_columns`, whose warning names what was set aside)."""
    columns = _columns(frame)
    _check_columns([*weight, *by], columns, "freq_weights" if weight else "by")
    sample = _head(frame, SAMPLE_ROWS)
    if raters is None:
        choice = choose_columns(sample.drop(columns=list(by)), None, id, weight)
        if choice.detected:
            warnings.warn(choice.describe(), UserWarning, stacklevel=5)
        raters = choice.raters
    chosen = list(raters)
    _check_columns(chosen, columns, "raters")
    _refuse_nested(frame, chosen)
    return sample, chosen


def _refuse_nested(frame: Any, raters: Sequence[Any]) -> None:
    """A TypeError naming the rater columns of nested type (lists, arrays, structs) read
    from the schema: each rating is one label or one number, never a collection."""
    if _is_relation(frame):  # DuckDB's types: their id, and shown as DuckDB spells them
        types = dict(zip(frame.columns, frame.types, strict=True))
        nested = [f"`{name}` ({types[name]})" for name in raters
                  if types[name].id in ("list", "array", "struct")]
    else:
        schema = frame.collect_schema()
        nested = [f"`{name}` ({schema[name]})" for name in raters
                  if type(schema[name]).__name__ in ("List", "Array", "Struct")]
    if nested:
        raise TypeError(nested_message(f"{', '.join(nested)} hold{'s' if len(nested) == 1 else ''}"
                                       " lists or structs"))


def wide_patterns(
    native: Any, raters: Sequence[Any] | None, id: Any, freq_weights: Any,
    continuous: bool | None, by: Sequence[Any] = (),
) -> tuple[pd.DataFrame, list[Any], str]:
    """A lazy wide frame's distinct rating patterns (and `by` keys) with their counts.

    Returns the collected pattern table, the rater columns and the name of its count
    column (to be read as ``freq_weights``). Without `raters`, the rater columns are
    chosen on the first :data:`SAMPLE_ROWS` rows by the rule of
    :func:`irr._columns.choose_columns` (its warning names what was set aside).
    """
    weight = [freq_weights] if isinstance(freq_weights, str) else []
    if freq_weights is not None and not weight:
        raise ValueError("`freq_weights` must name a column of a lazy frame; got an array.")
    frame = _counted(native, weight)
    sample, chosen = _choose(frame, raters, id, weight, by)
    what = ("frequency weights count categorical ratings" if weight else
            "a grouped frame's moments are not summed yet" if by else
            "Agreement.from_frame and `irr agreement` sum the moments of measurements")
    _refuse_continuous(native, sample, chosen, continuous, what)
    return _patterns(frame, chosen, weight, by)


def _patterns(frame: Any, chosen: list[Any], weight: list[Any], by: Sequence[Any],
              ) -> tuple[pd.DataFrame, list[Any], str]:
    count = _count_name([*chosen, *by])
    keys = [*by, *chosen]
    if _is_relation(frame):  # GROUP BY keeps missing values as a key, as narwhals is told
        quoted = ['"{}"'.format(str(name).replace('"', '""')) for name in [*keys, count]]
        patterns = frame.aggregate(", ".join([*quoted[:-1], f"count(*) AS {quoted[-1]}"]),
                                   ", ".join(quoted[:-1]))
    else:
        nw = _narwhals()
        size = nw.col(weight[0]).sum() if weight else nw.len()
        patterns = frame.group_by(keys, drop_null_keys=False).agg(size.alias(count))
    table = _collect(patterns).sort_values(keys, na_position="last", kind="stable")
    return table.reset_index(drop=True), chosen, count


def long_patterns(
    native: Any, subject: Any, rater: Any, rating: Any, continuous: bool | None,
    by: Sequence[Any] = (),
) -> tuple[pd.DataFrame, list[Any], str]:
    """A lazy long frame's rating patterns (and `by` keys) with their counts, raters in
    sorted order.

    The engine makes one row per subject (a column per rater holding that rater's rating,
    null where none; the `by` columns, constant within a subject, alongside) and counts
    the distinct rows; a (subject, rater) pair given twice is an error naming how many
    there are. Continuous ratings are an error (:func:`lazy_long` keeps them as
    :class:`LazyMeasurements`). Check that the `by` columns are constant within each
    subject first (:func:`subjects_in_several_groups`): a subject whose rows differ
    there would count once per key.
    """
    return _long(native, subject, rater, rating, continuous,  # type: ignore[return-value]
                 measurements=False, by=by)


def subjects_in_several_groups(native: Any, subject: Any, by: Sequence[Any],
                               limit: int = 5) -> tuple[int, list[Any]]:
    """How many subjects of a long frame have rows with different values of the `by`
    columns (missing counts as a value), and the first `limit` of them (sorted): one
    ``GROUP BY`` of the engine over the distinct (subject, keys)."""
    nw = _narwhals()
    frame = _wrap(native, "df")
    keys = list(by)
    _check_columns(keys, _columns(frame), "by")
    _check_columns([subject], _columns(frame), "subject")
    count = _count_name([subject, *keys])
    pairs = frame.select(subject, *keys).unique()
    several = pairs.group_by(subject, drop_null_keys=False).agg(nw.len().alias(count)).filter(
        nw.col(count) > 1)
    n = int(_collect(several.select(nw.len().alias(count)))[count].iloc[0])
    if not n:
        return 0, []
    found = _collect(several.select(subject).sort(subject).head(limit))[subject]
    return n, found.tolist()


def lazy_long(
    native: Any, subject: Any, rater: Any, rating: Any, continuous: bool | None,
) -> LazyMeasurements | tuple[pd.DataFrame, list[Any], str]:
    """A lazy long frame: its continuous measurements (:class:`LazyMeasurements` of the
    engine's one row per subject, a column per rater) when `continuous`, or when None and
    its first rows look continuous; else its rating patterns (:func:`long_patterns`)."""
    return _long(native, subject, rater, rating, continuous, measurements=True)


def _long(native: Any, subject: Any, rater: Any, rating: Any, continuous: bool | None,
          measurements: bool, by: Sequence[Any] = (),
          ) -> LazyMeasurements | tuple[pd.DataFrame, list[Any], str]:
    nw = _narwhals()
    frame = _wrap(native, "df")
    columns = _columns(frame)
    for argument, name in (("subject", subject), ("rater", rater), ("rating", rating)):
        _check_columns([name], columns, argument)
    keys = list(by)
    _check_columns(keys, columns, "by")
    sample = _collect(frame.select(subject, rater, rating).head(SAMPLE_ROWS))
    if not measurements:
        _refuse_continuous(native, sample, [rating], continuous,
                           "Agreement.from_long sums the moments of measurements")
    real = _is_continuous(sample, [rating], continuous)
    labels = _collect(frame.select(nw.col(rater)).unique())[rater]
    if labels.isna().any():
        raise ValueError(f"`rater` column {rater!r} has missing labels; every rating needs a rater.")
    raters = sorted(labels.tolist())
    if len(raters) < 2:
        raise ValueError(f"Long data need at least two raters; column {rater!r} names {raters!r}.")
    cells = frame.group_by([subject, rater]).agg(nw.len().alias("n"))
    repeated = _collect(cells.filter(nw.col("n") > 1).select(nw.len().alias("pairs")))
    if int(repeated["pairs"].iloc[0]):
        why = ("repeated measurements (replicates) need their rows, which a lazy frame does "
               "not hand over: collect the columns first" if real else
               "categorical ratings take one row per pair")
        raise ValueError(
            f"{int(repeated['pairs'].iloc[0])} (subject, rater) pair(s) occur more than once "
            f"in columns {subject!r}, {rater!r}: {why}.")
    names = [str(r) for r in raters]
    clash = [k for k in keys if k in names or k == subject]
    if clash:
        raise ValueError(f"`by` names column(s) {clash!r}, which are also the subject or a "
                         f"rater's name in column {rater!r}: rename them first.")
    spread = frame.with_columns(**{
        name: nw.when(nw.col(rater) == label).then(nw.col(rating))
        for name, label in zip(names, raters, strict=True)})
    per_subject = spread.group_by([subject, *keys], drop_null_keys=False).agg(
        *(nw.col(name).max() for name in names))
    if real:
        # the pilot values: the pairs among the first rows (the engine's rows per subject
        # would cost a pass over the data)
        first = sample.dropna(subset=[subject, rater]).drop_duplicates([subject, rater])
        wide = first.pivot(index=subject, columns=rater, values=rating)
        wide = wide.reindex(columns=raters).set_axis(names, axis=1)
        kind = f"{type(native).__module__.split('.')[0]} {type(native).__name__}"
        return LazyMeasurements(per_subject, names, kind, wide.reset_index(drop=True))
    count = _count_name([*keys, *names])
    patterns = per_subject.group_by([*keys, *names], drop_null_keys=False).agg(
        nw.len().alias(count))
    table = _collect(patterns).sort_values([*keys, *names], na_position="last", kind="stable")
    return table.reset_index(drop=True), names, count


def lazy_wide(
    native: Any, raters: Sequence[Any] | None, id: Any, freq_weights: Any,
    continuous: bool | None,
) -> LazyMeasurements | tuple[pd.DataFrame, list[Any], str]:
    """A lazy wide frame: its continuous measurements (:class:`LazyMeasurements`) when
    `continuous`, or when None and its first rows look continuous; else its rating
    patterns as :func:`wide_patterns` gives them. The first rows are read once."""
    weight = [freq_weights] if isinstance(freq_weights, str) else []
    if freq_weights is not None and not weight:
        raise ValueError("`freq_weights` must name a column of a lazy frame; got an array.")
    frame = _counted(native, weight)
    sample, chosen = _choose(frame, raters, id, weight, ())
    if weight or not _is_continuous(sample, chosen, continuous):
        if weight and continuous:
            raise ValueError(
                "`freq_weights` count subjects with the same categorical ratings; "
                "continuous ratings (continuous=True) take one row per subject. Pass "
                "continuous=False.")
        return _patterns(frame, chosen, weight, ())
    kind = f"{type(native).__module__.split('.')[0]} {type(native).__name__}"
    # summed by narwhals' expressions, a DuckDB relation's too
    return LazyMeasurements(_wrap(native, "df"), chosen, kind, sample)


def lazy_groups(native: Any, by: Sequence[Any]) -> list[tuple[tuple[Any, ...], Any]]:
    """The groups of a lazy frame by the columns `by`: each key (in sorted order, missing
    last) with the native lazy frame of its rows (a filter: nothing is collected but the
    distinct keys)."""
    nw = _narwhals()
    frame = _wrap(native, "df")
    keys = list(by)
    _check_columns(keys, _columns(frame), "by")
    table = _collect(frame.select(keys).unique()).sort_values(keys, na_position="last",
                                                             kind="stable")
    out = []
    for values in table.itertuples(index=False, name=None):
        condition = None
        for name, value in zip(keys, values, strict=True):
            term = nw.col(name).is_null() if pd.isna(value) else nw.col(name) == value
            condition = term if condition is None else condition & term
        out.append((tuple(values), frame.filter(condition).to_native()))
    return out


def count_distinct(native: Any, column: Any) -> int:
    """How many distinct values (missing one among them) a foreign frame's `column` holds,
    counted by its engine."""
    nw = _narwhals()
    frame = _wrap(native, "df")
    return int(_collect(frame.select(column).unique().select(nw.len().alias("n")))["n"].iloc[0])


def _finite(name: Any) -> Any:
    """A column as float64, null where it is null, nan or infinite."""
    nw = _narwhals()
    value = nw.col(name).cast(nw.Float64)
    return nw.when(value.is_finite()).then(value)


def _count(condition: Any) -> Any:
    """How many rows meet `condition` (null counts as not)."""
    nw = _narwhals()
    return nw.when(condition).then(1).otherwise(0).sum()


class LazyMeasurements:
    """Continuous measurements of a lazy frame, one column per rater, summed by its engine.

    Nothing is collected row by row: :meth:`pair_sums` has the engine add up, for two
    raters, the count of complete pairs and the sums of the pair means ``a = (x + y) / 2``
    and differences ``d`` (``x - y``; percentage differences; log ratios), of their
    squares and of their product, each value shifted by a pilot value: the median of
    ``a`` and of ``d`` over the complete pairs of the first :data:`SAMPLE_ROWS` rows (read
    when the frame was chosen). A shift close to the mean keeps the digits that raw sums
    of squares of large values (1e6 with differences of 1) would lose. A null, nan or
    infinite value is a missing measurement, as in a pandas frame, except that an
    infinite one is an error (:meth:`pair_sums`).

    Attributes
    ----------
    columns : list
        The rater columns.
    raters : tuple of str
        Their names.
    kind : str
        The frame's package and type, for messages (``'duckdb DuckDBPyRelation'``).
    """

    def __init__(self, frame: Any, columns: list[Any], kind: str, sample: pd.DataFrame):
        if len(columns) < 2:
            raise ValueError(f"`raters` must name at least two columns; got {columns!r}.")
        if len(set(columns)) < len(columns):
            raise ValueError(f"`raters` names a column twice: {columns!r}.")
        self._frame = frame
        self.columns = list(columns)
        self.raters = tuple(str(c) for c in columns)
        self.kind = kind
        self._sample = sample
        self._sums: dict[tuple[int, int, str], dict[str, float]] = {}
        self._rows: int | None = None
        self._pair_counts: tuple[int, ...] = ()

    def __repr__(self) -> str:
        return f"LazyMeasurements({self.kind}, raters={self.raters!r})"

    def rows_refused(self, what: str) -> str:
        """Why `what` is not available on measurements summed by this frame's engine, and
        the way out."""
        # a sample in the frame's own words (polars' hint is no DuckDB or Dask call)
        library = self.kind.split()[0]
        sample = {"duckdb": "`rel.limit(100_000).df()`", "dask": "`ddf.head(100_000)`",
                  "pyspark": "`sdf.limit(100_000).toPandas()`"}.get(
            library, "`lf.select([...]).head(100_000).collect()`")
        return (f"{what} needs the rows of the measurements, which this lazy {self.kind} "
                "does not hand over (its engine sums the moments of two raters for the "
                "parametric limits of agreement, Lin's CCC, the TDI and the CP). "
                f"Collect the rater columns, or a sample of them (e.g. {sample}), and build "
                "the Agreement from that frame.")

    @property
    def where(self) -> str:
        """What sums the measurements, for messages (``'the engine of a lazy duckdb
        DuckDBPyRelation'``)."""
        return f"the engine of a lazy {self.kind}"

    @cached_property
    def _counts(self) -> tuple[int, int, tuple[int, ...]]:
        """(rows, rows with some rater's measurement missing, missing measurements of
        each rater): one pass of the engine (for two raters, that of their sums)."""
        if len(self.columns) == 2:  # the pass of the two methods' sums counts them too
            self.pair_sums(0, 1)
            rows, n_x, n_y, n_both = self._pair_counts
            return rows, rows - n_both, (rows - n_x, rows - n_y)
        nw = _narwhals()
        present = [_finite(c).is_null() for c in self.columns]
        some = present[0]
        for p in present[1:]:
            some = some | p
        row = _collect(self._frame.select(
            nw.len().alias("rows"), _count(some).alias("incomplete"),
            *(_count(p).alias(f"missing{j}") for j, p in enumerate(present))))
        missing = tuple(int(row[f"missing{j}"].iloc[0]) for j in range(len(present)))
        return int(row["rows"].iloc[0]), int(row["incomplete"].iloc[0]), missing

    @property
    def n_rows(self) -> int:
        """Rows of the frame (subjects), counted by the engine (in the pass of the sums,
        if one was made)."""
        return self._rows if self._rows is not None else self._counts[0]

    @property
    def n_incomplete(self) -> int:
        """Rows with a rater's measurement missing (null, nan)."""
        return self._counts[1]

    @property
    def n_missing_values(self) -> int:
        """Missing measurements over all rater columns."""
        return sum(self._counts[2])

    @property
    def missing_per_rater(self) -> tuple[int, ...]:
        """Missing measurements of each rater."""
        return self._counts[2]

    def _pilot(self, first: int, second: int, scale: str) -> tuple[float, float]:
        """Medians of the pair means and differences over the first rows' complete pairs;
        without any, the pair mean and difference of the two methods' medians there, or,
        when a method has no value among the first rows, of their means computed by the
        engine (a pass over the data: the one case where the first rows cannot serve)."""
        x = pd.to_numeric(self._sample[self.columns[first]], errors="coerce").to_numpy(float)
        y = pd.to_numeric(self._sample[self.columns[second]], errors="coerce").to_numpy(float)
        keep = np.isfinite(x) & np.isfinite(y)
        if not keep.any():
            fx, fy = x[np.isfinite(x)], y[np.isfinite(y)]
            if not (fx.size and fy.size):
                row = _collect(self._frame.select(
                    _finite(self.columns[first]).mean().alias("x"),
                    _finite(self.columns[second]).mean().alias("y"))).iloc[0]
                fx, fy = (np.array([v]) if pd.notna(v) else np.zeros(1)
                          for v in (row["x"], row["y"]))
            x, y = np.array([np.median(fx)]), np.array([np.median(fy)])
        else:
            x, y = x[keep], y[keep]
        with np.errstate(all="ignore"):
            a = (x + y) / 2
            d = {"difference": x - y, "percent": 100 * (x - y) / a,
                 "ratio": np.log(x) - np.log(y)}[scale]
        keep = np.isfinite(a) & np.isfinite(d)
        if not keep.any():
            return (float(np.median(a)) if np.isfinite(a).any() else 0.0), 0.0
        return float(np.median(a[keep])), float(np.median(d[keep]))

    def _pair(self, first: int, second: int, scale: str, gated: bool = True) -> Any:
        """The frame of columns ``x``, ``y`` (null when missing: null, nan or infinite),
        ``raw_x``, ``raw_y`` (the values as given), ``a`` (the pair mean, null unless both
        are present), ``d`` (the difference on `scale`, null unless both are present and
        it is defined) and ``bad`` (a complete pair whose difference is undefined).
        Without `gated`, ``x`` and ``y`` are the values as given (nan and infinities
        kept: cheaper, for data that hold none)."""
        nw = _narwhals()
        cx = nw.col(self.columns[first]).cast(nw.Float64)
        cy = nw.col(self.columns[second]).cast(nw.Float64)
        if gated:
            values = self._frame.select(
                nw.when(cx.is_finite()).then(cx).alias("x"),
                nw.when(cy.is_finite()).then(cy).alias("y"), cx.alias("raw_x"),
                cy.alias("raw_y"))
        else:
            values = self._frame.select(cx.alias("x"), cy.alias("y"), cx.alias("raw_x"),
                                        cy.alias("raw_y"))
        x, y = nw.col("x"), nw.col("y")
        both = ~x.is_null() & ~y.is_null()
        a = (x + y) / 2
        if scale == "difference":
            d, bad = x - y, both & nw.lit(False)
        elif scale == "percent":
            d, bad = 100 * (x - y) / nw.when(a != 0).then(a), both & (a == 0)
        else:
            positive = (x > 0) & (y > 0)
            d = nw.when(positive).then(x).log() - nw.when(positive).then(y).log()
            bad = both & ~positive
        return values.select(x, y, "raw_x", "raw_y", a.alias("a"), d.alias("d"),
                             bad.alias("bad"))

    def pair_sums(self, first: int, second: int, scale: str = "difference") -> dict[str, float]:
        """One pass of the engine over raters `first` and `second`: ``n`` (complete
        pairs), ``n_one`` (rows measured by one of the two only), ``shift_a``,
        ``shift_d`` (the pilot values) and the sums ``sum_a``, ``sum_d``, ``sum_aa``,
        ``sum_ad``, ``sum_dd`` of the shifted pair means and differences (the arguments
        of :meth:`irr._moments.PairMoments.from_shifted_sums`). A ValueError names an
        infinite measurement, and, for `scale` 'percent' or 'ratio', pairs whose
        difference is undefined (mean 0; a value not positive)."""
        key = (first, second, scale)
        if key in self._sums:
            return self._sums[key]
        nw = _narwhals()
        shift_a, shift_d = self._pilot(first, second, scale)
        # differences first without the test of finite values (a third cheaper): when
        # the sums of all the given values of x and of y are finite, they hold no nan nor
        # infinity; otherwise the pass is made again, with the test
        gated = scale != "difference"  # the other scales test their values anyway
        row = self._sums_row(first, second, scale, shift_a, shift_d, gated)
        if not gated and not all(math.isfinite(float(row[k])) for k in (
                "all_x", "all_y", "sum_a", "sum_d", "sum_aa", "sum_ad", "sum_dd")):
            row = self._sums_row(first, second, scale, shift_a, shift_d, gated=True)
        names = (self.raters[first], self.raters[second])
        if int(row["raw_x"]) + int(row["raw_y"]) > int(row["n_x"]) + int(row["n_y"]):
            infinite = int(_collect(self._pair(first, second, scale).select(_count(
                (nw.col("raw_x").abs() == math.inf) | (nw.col("raw_y").abs() == math.inf)
            ).alias("infinite")))["infinite"].iloc[0])
            if infinite:
                raise ValueError(
                    f"Raters {names[0]!r} and {names[1]!r} hold {infinite} infinite value(s) "
                    "(measurements must be finite; null or nan marks a missing one).")
        if scale != "difference" and int(row["bad"]):
            why = ("divides by the mean of each pair; some pairs have mean 0"
                   if scale == "percent" else
                   "needs positive measurements (it takes logs); some are not")
            raise ValueError(f"`scale={scale!r}` {why}: {int(row['bad'])} pair(s) of "
                             f"{names[0]} and {names[1]}.")
        n_one = int(row["n_x"]) + int(row["n_y"]) - 2 * int(row["n_both"])
        self._rows = int(row["rows"])
        if (first, second) == (0, 1) and scale == "difference":
            self._pair_counts = tuple(int(row[k]) for k in ("rows", "n_x", "n_y", "n_both"))
        n = int(row["n"])
        sums = {"n": n, "n_one": n_one, "shift_a": shift_a, "shift_d": shift_d,
                **{k: float(row[k]) if n and pd.notna(row[k]) else 0.0
                   for k in ("sum_a", "sum_d", "sum_aa", "sum_ad", "sum_dd")}}
        self._sums[key] = sums
        return sums

    def _sums_row(self, first: int, second: int, scale: str, shift_a: float, shift_d: float,
                  gated: bool) -> pd.Series:
        """One pass of the engine: counts of the values given and of the pairs, and the
        sums of the shifted pair means and differences (see :meth:`pair_sums`)."""
        nw = _narwhals()
        x, y, a, d = nw.col("x"), nw.col("y"), nw.col("a"), nw.col("d")
        shifted = self._pair(first, second, scale, gated).select(
            x, y, a, "raw_x", "raw_y", "bad", (d - shift_d).alias("ds"),
            # a difference is null exactly when a mean is, except where it is undefined
            ((a - shift_a) if scale == "difference" else
             nw.when(~d.is_null()).then(a - shift_a)).alias("as"))
        ds, as_ = nw.col("ds"), nw.col("as")
        # counts of non-null values (cheap): rows with one of the two measurements are
        # count(x) + count(y) - 2 count(a); values that are given but not finite are
        # count(raw) - count(finite), told apart (nan: missing; infinite: an error) by a
        # second pass only when there are some
        return _collect(shifted.select(
            nw.len().alias("rows"), ds.count().alias("n"), x.count().alias("n_x"), y.count().alias("n_y"),
            a.count().alias("n_both"), nw.col("raw_x").count().alias("raw_x"),
            nw.col("raw_y").count().alias("raw_y"),
            *(() if scale == "difference" else (_count(nw.col("bad")).alias("bad"),)),
            *(() if gated else (x.sum().alias("all_x"), y.sum().alias("all_y"))),
            as_.sum().alias("sum_a"), ds.sum().alias("sum_d"),
            (as_ * as_).sum().alias("sum_aa"), (as_ * ds).sum().alias("sum_ad"),
            (ds * ds).sum().alias("sum_dd"),
        )).iloc[0]

    def count_within(self, first: int, second: int, delta: float) -> int:
        """A pass of the engine: how many complete pairs differ by less than `delta`
        (``|x - y| < delta``)."""
        nw = _narwhals()
        row = _collect(self._pair(first, second, "difference").select(
            _count(nw.col("d").abs() < delta).alias("within")))
        return int(row["within"].iloc[0])

    def residual_sum(self, first: int, second: int, scale: str, intercept: float,
                     slope: float) -> float:
        """A second pass: the residual sum of squares of the differences about the line
        ``intercept + slope * mean`` (when the line explains most of their variance, its
        moments alone would lose digits)."""
        nw = _narwhals()
        residual = nw.col("d") - intercept - slope * nw.col("a")
        row = _collect(self._pair(first, second, scale).select(
            (residual * residual).sum().alias("rss")))
        return float(row["rss"].iloc[0])
