"""Dataframes other than pandas: polars (eager and lazy), pyarrow Tables, DuckDB relations,
Dask and PySpark DataFrames, through narwhals (``pip install "irrstats[frames]"``).

Every categorical statistic depends on the subjects only through how many of them share
each rating pattern. So a *lazy* or distributed frame is never collected row by row: its
engine computes the distinct patterns and their counts (one ``GROUP BY`` over the rater
columns; for long data first one row per subject, by a conditional column per rater and a
``GROUP BY subject``), and only that small table comes back as pandas, to be read as
frequency-weighted rows. An *eager* frame (a polars DataFrame, a pyarrow Table) already sits
in this process's memory: its columns are converted to pandas and read as a pandas frame
would be, continuous measurements included.
"""

from __future__ import annotations

import warnings
from collections.abc import Sequence
from typing import Any

import pandas as pd

from irr._columns import choose_columns, looks_continuous

__all__ = ["FOREIGN_PACKAGES", "head", "is_foreign_frame", "lazy_frame", "long_patterns",
           "to_pandas", "wide_patterns"]

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
    if isinstance(obj, (pd.DataFrame, pd.Series)):
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


def _collect(frame: Any) -> pd.DataFrame:
    """A narwhals frame, computed by its engine if lazy, as a pandas DataFrame."""
    nw = _narwhals()
    if isinstance(frame, nw.LazyFrame):
        frame = frame.collect()
    return frame.to_pandas()


def _is_lazy(frame: Any) -> bool:
    return isinstance(frame, _narwhals().LazyFrame)


def lazy_frame(native: Any) -> bool:
    """Whether a foreign frame is lazy or distributed (polars LazyFrame, DuckDB, Dask,
    Spark): computed by its engine, never collected row by row."""
    return _is_lazy(_wrap(native, "df"))


def _columns(frame: Any) -> list[str]:
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


def _refuse_continuous(native: Any, sample: pd.DataFrame, raters: Sequence[Any],
                       continuous: bool | None) -> None:
    """Lazy frames are reduced to counts of categories: continuous ratings cannot be."""
    if continuous is False:
        return
    if continuous or any(looks_continuous(sample[r].dropna().unique()) for r in raters):
        raise ValueError(
            f"The ratings of this lazy {type(native).__name__} look like continuous "
            "measurements, which are not reduced to counts of rating patterns: pass "
            "continuous=False to take each value as a category, or collect the rater "
            "columns and pass the collected frame."
        )


def head(native: Any, rows: int = SAMPLE_ROWS) -> pd.DataFrame:
    """The first `rows` rows of a foreign frame as pandas (to look at its columns)."""
    return _collect(_wrap(native, "df").head(rows))


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
    frame = _wrap(native, "df")
    columns = _columns(frame)
    weight = [freq_weights] if isinstance(freq_weights, str) else []
    if freq_weights is not None and not weight:
        raise ValueError("`freq_weights` must name a column of a lazy frame; got an array.")
    _check_columns([*weight, *by], columns, "freq_weights" if weight else "by")
    sample = _collect(frame.head(SAMPLE_ROWS))
    if raters is None:
        choice = choose_columns(sample.drop(columns=list(by)), None, id, weight)
        if choice.detected:
            warnings.warn(choice.describe(), UserWarning, stacklevel=4)
        raters = choice.raters
    chosen = list(raters)
    _check_columns(chosen, columns, "raters")
    _refuse_continuous(native, sample, chosen, continuous)
    count = _count_name([*chosen, *by])
    nw = _narwhals()
    size = nw.col(weight[0]).sum() if weight else nw.len()
    keys = [*by, *chosen]
    patterns = frame.group_by(keys, drop_null_keys=False).agg(size.alias(count))
    table = _collect(patterns).sort_values(keys, na_position="last", kind="stable")
    return table.reset_index(drop=True), chosen, count


def long_patterns(
    native: Any, subject: Any, rater: Any, rating: Any, continuous: bool | None,
) -> tuple[pd.DataFrame, list[Any], str]:
    """A lazy long frame's rating patterns with their counts, raters in sorted order.

    The engine makes one row per subject (a column per rater holding that rater's rating,
    null where none) and counts the distinct rows; a (subject, rater) pair given twice is
    an error naming how many there are.
    """
    nw = _narwhals()
    frame = _wrap(native, "df")
    columns = _columns(frame)
    for argument, name in (("subject", subject), ("rater", rater), ("rating", rating)):
        _check_columns([name], columns, argument)
    sample = _collect(frame.select(rating).head(SAMPLE_ROWS))
    _refuse_continuous(native, sample, [rating], continuous)
    labels = _collect(frame.select(nw.col(rater)).unique())[rater]
    if labels.isna().any():
        raise ValueError(f"`rater` column {rater!r} has missing labels; every rating needs a rater.")
    raters = sorted(labels.tolist())
    if len(raters) < 2:
        raise ValueError(f"Long data need at least two raters; column {rater!r} names {raters!r}.")
    cells = frame.group_by([subject, rater]).agg(nw.len().alias("n"))
    repeated = _collect(cells.filter(nw.col("n") > 1).select(nw.len().alias("pairs")))
    if int(repeated["pairs"].iloc[0]):
        raise ValueError(
            f"{int(repeated['pairs'].iloc[0])} (subject, rater) pair(s) occur more than once "
            f"in columns {subject!r}, {rater!r}: categorical ratings take one row per pair."
        )
    names = [str(r) for r in raters]
    count = _count_name(names)
    spread = frame.with_columns(**{
        name: nw.when(nw.col(rater) == label).then(nw.col(rating))
        for name, label in zip(names, raters, strict=True)})
    per_subject = spread.group_by(subject).agg(*(nw.col(name).max() for name in names))
    patterns = per_subject.group_by(names, drop_null_keys=False).agg(nw.len().alias(count))
    table = _collect(patterns).sort_values(names, na_position="last", kind="stable")
    return table.reset_index(drop=True), names, count
