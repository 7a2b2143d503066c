"""Parsing of the multi-rater input forms: long data, 2-D arrays, subject x category counts.

Each returns plain rater columns (or a validated count matrix) for
:func:`irr._data.encode_ratings`; no Python loop runs over subjects.
"""

from __future__ import annotations

from typing import Any, NamedTuple

import numpy as np

from irr._data import (
    CHUNK,
    MAX_CATEGORIES,
    distinct_names,
    exact_counts,
    may_hold_missing,
    numeric_array,
    preview,
    refuse_nested,
    refuse_nested_rows,
)
from irr._lazy import lazy_module

pd = lazy_module("pandas")  # imported on first use: data streamed by DuckDB never need it

__all__ = ["CellLayout", "LongColumns", "LongRatings", "cell_layout", "check_replicate_labels",
           "code_long", "factorize_labels", "long_columns", "long_ratings", "pivot", "pivot_long",
           "require_one_per_cell", "split_array", "validate_counts"]


def _nondecreasing(values: np.ndarray) -> bool:
    """Whether `values` never decrease; a short prefix is compared first, so unsorted
    labels (a rater column of long data, as a rule) cost no full pass."""
    head = values[:4096]
    if not (head[1:] >= head[:-1]).all():
        return False
    return bool((values[1:] >= values[:-1]).all())


def factorize_labels(column: Any) -> tuple[np.ndarray, Any]:
    """``pd.factorize(column, sort=False)``: codes in order of first appearance and the
    distinct labels, with the same result.

    Integer labels in order (subject ids of long data sorted by subject) are coded from
    where they change: the codes are the offsets from the first label when every label
    of the range is present, else a running count of the changes (no hashing, any
    range). Integer labels of a small range (at most twice the number of rows), such as
    rater numbers, are coded through a table over their range (one scatter of the first
    positions, no hashing); other labels go to pandas.

    Examples
    --------
    >>> codes, labels = factorize_labels(pd.Series([7, 3, 7, 5]))
    >>> codes.tolist(), labels.tolist()
    ([0, 1, 0, 2], [7, 3, 5])
    >>> codes, labels = factorize_labels(pd.Series([10, 10, 12, 40, 40]))
    >>> codes.tolist(), labels.tolist()
    ([0, 0, 1, 2, 2], [10, 12, 40])
    """
    values = column.to_numpy() if isinstance(column, pd.Series) and \
        isinstance(column.dtype, np.dtype) else None
    if values is None or values.dtype.kind != "i" or values.ndim != 1 or not len(values):
        return pd.factorize(column, sort=False)
    offset = values.astype(np.int64, copy=False)
    if _nondecreasing(offset):  # first appearance is value order
        low = int(offset[0])
        change = offset[1:] != offset[:-1]
        distinct = int(np.count_nonzero(change)) + 1
        if distinct == int(offset[-1]) - low + 1:  # every label of the range: offsets
            codes = offset - low if low else offset.copy() if offset is values else offset
            # low + offsets (np.arange(low, low + distinct) would stop at 2**63 when the
            # largest label is int64's largest, and go through floats)
            labels = np.arange(distinct, dtype=np.int64)
            labels += low
            return codes, labels.astype(values.dtype, copy=False)
        starts = np.empty(distinct, dtype=np.int64)
        starts[0] = 0
        starts[1:] = np.flatnonzero(change) + 1
        codes = np.empty(len(offset), dtype=np.int64)
        codes[0] = 0
        np.cumsum(change, out=codes[1:])
        return codes, values[starts]
    low, high = int(values.min()), int(values.max())
    span = high - low + 1
    if span > 2 * len(values) + 1024:
        return pd.factorize(column, sort=False)
    if low:
        offset = offset - low
    seen = np.bincount(offset, minlength=span) > 0
    # the first positions, from the shortest prefix (doubling) holding every label
    size = min(4 * int(seen.sum()) + 64, len(offset))
    while size < len(offset) and not np.array_equal(
            np.bincount(offset[:size], minlength=span) > 0, seen):
        size = min(4 * size, len(offset))
    first = np.full(span, size, dtype=np.int64)
    np.minimum.at(first, offset[:size], np.arange(size, dtype=np.int64))
    present = np.flatnonzero(seen)
    order = present[np.argsort(first[present], kind="stable")]  # by first appearance
    labels = (order + low).astype(values.dtype)
    if len(order) == span and (order == np.arange(span)).all():  # codes are the offsets
        return offset.copy() if offset is values else offset, labels
    table = np.empty(span, dtype=np.int64)
    table[order] = np.arange(len(order), dtype=np.int64)
    return table[offset], labels


def _column(df: pd.DataFrame, label: Any, argument: str) -> pd.Series:
    if label not in df.columns:
        raise ValueError(
            f"`{argument}` must name a column of `df`; got {label!r}, columns are "
            f"{list(df.columns)!r}."
        )
    column = df[label]
    if isinstance(column, pd.DataFrame):
        raise ValueError(f"`{argument}`={label!r} names more than one column of `df`.")
    return column


class LongRatings(NamedTuple):
    """Validated long data: per rating its subject and rater code, and the ratings."""

    subject: np.ndarray  # (N,) int64 subject codes, 0..n-1 in order of first appearance
    rater: np.ndarray  # (N,) int64 rater codes, 0..m-1 in order of first appearance
    ratings: Any  # the rating column's values (an ExtensionArray or ndarray), one per row
    raters: list[str]  # the raters' names
    subjects: pd.Index  # the subjects' labels

    @property
    def n_cells(self) -> int:
        """Cells of the dense subjects x raters layout."""
        return len(self.subjects) * len(self.raters)


class LongColumns(NamedTuple):
    """The subject, rater and rating columns of long data (:func:`long_columns`)."""

    subject: pd.Series
    rater: pd.Series
    rating: pd.Series
    labels: dict[str, Any]  # each argument's column label, for messages


def long_columns(df: Any, subject: Any, rater: Any, rating: Any) -> LongColumns:
    """The three columns of long data: `df` a pandas DataFrame, three different labels each
    naming one of its columns, and at least one row (else a TypeError or ValueError)."""
    if not isinstance(df, pd.DataFrame):
        raise TypeError(f"`df` must be a pandas DataFrame; got {type(df).__name__}.")
    names = {"subject": subject, "rater": rater, "rating": rating}
    if len({repr(v) for v in names.values()}) < 3:
        raise ValueError(
            f"`subject`, `rater` and `rating` must name three different columns; got {names!r}."
        )
    columns = LongColumns(_column(df, subject, "subject"), _column(df, rater, "rater"),
                          _column(df, rating, "rating"), names)
    if len(df) == 0:
        raise ValueError("`df` is empty: there are no ratings.")
    return columns


def long_ratings(
    df: Any, subject: Any, rater: Any, rating: Any, replicates: bool = False
) -> LongRatings:
    """Long data (one row per rating), validated and coded, without pivoting.

    Raises when a column is missing, a subject or rater label is missing, there are
    fewer than two raters, or (unless `replicates`) a (subject, rater) pair is rated
    twice (:func:`require_one_per_cell`).
    """
    return code_long(long_columns(df, subject, rater, rating), replicates)


def code_long(columns: LongColumns, replicates: bool = False) -> LongRatings:
    """:func:`long_ratings` of the columns :func:`long_columns` checked."""
    for argument, column in (("subject", columns.subject), ("rater", columns.rater)):
        if not may_hold_missing(column.dtype):
            continue
        if column.isna().any():
            rows = np.flatnonzero(column.isna().to_numpy())
            raise ValueError(
                f"The `{argument}` column {columns.labels[argument]!r} has missing labels "
                f"(rows {preview(rows)}); every rating needs a {argument}."
            )
    s_code, s_labels = _factorized(columns, "subject")
    r_code, r_labels = _factorized(columns, "rater")
    m = len(r_labels)
    if m < 2:
        raise ValueError(
            f"Agreement needs at least two raters; the `rater` column "
            f"{columns.labels['rater']!r} holds {m}: {preview(r_labels)}."
        )
    long = LongRatings(s_code.astype(np.int64, copy=False), r_code.astype(np.int64, copy=False),
                       columns.rating.array,
                       distinct_names(list(r_labels), "rater"), pd.Index(s_labels))
    if not replicates:
        require_one_per_cell(long)
    return long


def _factorized(columns: LongColumns, argument: str) -> tuple[np.ndarray, Any]:
    """:func:`factorize_labels` of the `argument` column; unhashable labels (lists,
    arrays) are named (hashable tuples are labels: a composite identifier)."""
    column = getattr(columns, argument)
    try:
        return factorize_labels(column)
    except TypeError:
        refuse_nested(column, argument, columns.labels[argument])
        raise


class CellLayout(NamedTuple):
    """Long data whose rows are every (subject, rater) cell once, in cell order."""

    raters: list[str]  # the raters' names, in the order they rate each subject
    subjects: pd.Index  # the subjects' labels, in row order

    @property
    def shape(self) -> tuple[int, int]:
        """(subjects, raters): row ``i * raters + j`` of the data is cell ``(i, j)``."""
        return len(self.subjects), len(self.raters)


#: Rows of long data read at first to find how many rows the first subject has.
_FIRST_RUN = 4096


def cell_layout(columns: LongColumns) -> CellLayout | None:
    """The subjects and raters of long data laid out cell by cell, or None.

    Rows laid out cell by cell (long data sorted by subject, then rater, every subject
    rated once by each of the same ``r >= 2`` raters) are blocks of ``r`` rows, one per
    subject, each holding one subject label and the raters' labels in the same order.
    Numpy integer labels are recognised so by whole-array comparisons, with no coding:
    the subject labels increase from block to block (so they are distinct) and are
    constant within one, and every block repeats the first block's raters, which are
    distinct. The raters' names and the subjects' labels are those :func:`code_long`
    gives (in order of first appearance); None for any other long data, which it codes.

    Examples
    --------
    >>> df = pd.DataFrame({"s": [3, 3, 8, 8], "r": [2, 1, 2, 1], "v": [1.0, 2, 3, 4]})
    >>> cell_layout(long_columns(df, "s", "r", "v"))
    CellLayout(raters=['2', '1'], subjects=Index([3, 8], dtype='int64'))
    >>> cell_layout(long_columns(df.iloc[[1, 0, 2, 3]], "s", "r", "v")) is None
    True
    """
    if not all(isinstance(column.dtype, np.dtype) and column.dtype.kind in "iu"
               for column in (columns.subject, columns.rater)):
        return None  # labels that may be missing, or that compare slowly
    subject, rater = columns.subject.to_numpy(), columns.rater.to_numpy()
    size = len(subject)
    change = np.flatnonzero(subject[:_FIRST_RUN] != subject[0])
    if not len(change):
        return None  # one subject, or more than _FIRST_RUN rows of the first
    r = int(change[0])
    if r < 2 or size % r:
        return None
    first = rater[:r]
    if len(np.unique(first)) < r:
        return None
    labels = subject[::r]
    if not (labels[1:] > labels[:-1]).all():
        return None
    step = max(CHUNK // r, 1) * r  # whole blocks per slice, so the temporaries stay small
    for start in range(0, size, step):
        stop = min(start + step, size)
        # row p starts a block exactly where its subject label changes: the changes in
        # rows start + 1 .. stop are the rows start + r, start + 2r, ...
        later = subject[start + 1:stop + 1]
        change = later != subject[start:start + len(later)]
        bounds = change[r - 1::r]
        if not (bounds.all() and np.count_nonzero(change) == len(bounds)):
            return None
        low = max(start, r)  # every row repeats the rater r rows above
        if not (rater[low:stop] == rater[low - r:stop - r]).all():
            return None
    return CellLayout(distinct_names(list(first), "rater"), pd.Index(labels, copy=True))


def _repeated_cells(keys: np.ndarray) -> np.ndarray:
    """The distinct integer keys that occur more than once (sorted)."""
    ordered = np.sort(keys, kind="stable")
    return np.unique(ordered[1:][ordered[1:] == ordered[:-1]])


def require_one_per_cell(long: LongRatings, hint: str = "") -> None:
    """Raise, naming the pairs, when a (subject, rater) pair has more than one rating."""
    m = len(long.raters)
    dup_cells = _repeated_cells(long.subject * m + long.rater)  # < n * m: fits in int64
    if not len(dup_cells):
        return
    pairs = [(long.subjects[c // m], long.raters[c % m]) for c in dup_cells[:5]]
    pairs = [tuple(v.item() if isinstance(v, np.generic) else v for v in p) for p in pairs]
    more = f" ... ({len(dup_cells)} in all)" if len(dup_cells) > 5 else ""
    raise ValueError(
        f"The data rate some (subject, rater) pairs more than once: {pairs}{more}; "
        f"aggregate or drop the duplicates first{hint}."
    )


def check_replicate_labels(df: pd.DataFrame, replicate: Any, long: LongRatings) -> None:
    """The `replicate` column labels each (subject, rater)'s repeated measurements: every
    row has one, and no (subject, rater, replicate) occurs twice (else ValueError)."""
    labels = _column(df, replicate, "replicate")
    if labels.isna().any():
        rows = np.flatnonzero(labels.isna().to_numpy())
        raise ValueError(
            f"The `replicate` column {replicate!r} has missing labels (rows {preview(rows)}); "
            "every measurement needs one."
        )
    code, uniques = pd.factorize(labels, sort=False)
    m, r = len(long.raters), max(len(uniques), 1)
    dup = _repeated_cells((long.subject * m + long.rater) * r + code)
    if len(dup):
        cells = [(long.subjects[c // r // m], long.raters[c // r % m], uniques[c % r])
                 for c in dup[:5]]
        cells = [tuple(v.item() if isinstance(v, np.generic) else v for v in c) for c in cells]
        raise ValueError(
            f"The `replicate` column {replicate!r} repeats a label within one (subject, "
            f"rater): (subject, rater, replicate) {cells}"
            f"{f' ... ({len(dup)} in all)' if len(dup) > 5 else ''} occur more than once."
        )


def pivot_long(
    df: Any, subject: Any, rater: Any, rating: Any
) -> tuple[list[Any], list[str], pd.Index]:
    """Long data (one row per rating) to one column per rater.

    Returns the rater columns (missing where a rater did not rate a subject, in the
    ratings' own dtype where pandas can hold missing values in it), the rater names and
    the subject labels (in order of first appearance). The dense layout has one cell per
    subject and rater: use :func:`long_ratings` for sparse designs.
    """
    return pivot(long_ratings(df, subject, rater, rating))


def pivot(long: LongRatings) -> tuple[list[Any], list[str], pd.Index]:
    """:func:`pivot_long` of validated long data."""
    n, m = len(long.subjects), len(long.raters)
    position = np.full(n * m, -1, dtype=np.int64)
    position[long.subject * m + long.rater] = np.arange(len(long.subject))
    position = position.reshape(n, m)
    values = long.ratings
    if values.dtype.kind in "iu" and (position < 0).any():
        # a rater who did not rate a subject is missing: nullable integers hold that
        # exactly (numpy's fill would turn every label into a float, merging big ones)
        values = pd.array(values.to_numpy(), dtype=f"{'U' if values.dtype.kind == 'u' else ''}Int64")
    columns = [
        pd.api.extensions.take(values, position[:, g], allow_fill=True) for g in range(m)
    ]
    return columns, long.raters, long.subjects


def split_array(x: Any) -> tuple[list[np.ndarray], tuple[int, int] | None]:
    """A 2-D array-like (subjects x raters) to one 1-D array per rater, and for an integer
    array its smallest and largest value (read once here, handed on to the encoding:
    :func:`irr._data.encode_ratings`); None for other arrays."""
    if isinstance(x, pd.DataFrame):
        raise TypeError("`x` is a DataFrame; use Agreement.from_frame(df) instead.")
    try:
        array = np.asarray(x)
    except ValueError as exc:  # rows of unequal lengths, or cells that hold collections
        refuse_nested_rows(x, "x")
        raise ValueError(f"`x` must be a 2-D array of ratings: {exc}") from None
    if array.ndim != 2:
        raise ValueError(
            f"`x` must be 2-D (subjects x raters); got an array of shape {array.shape}."
        )
    if array.shape[1] < 2:
        raise ValueError(
            f"`x` must have at least two columns (raters); got shape {array.shape}."
        )
    if array.shape[0] == 0:
        raise ValueError("`x` has no rows: there are no subjects.")
    if array.dtype.kind in "iu":
        # Contiguous columns in the smallest integer type that holds the values: encoding
        # strided int64 columns is several times slower. Cast first, then transpose the
        # small copy (faster than transposing and casting in one strided pass).
        word = int(np.bitwise_or.reduce(array, axis=None))
        if word >= 0:
            # no value negative (a negative one sets the sign bit), none above the OR of
            # all, which has the largest value's highest bit: the type that holds the
            # largest value holds it, and the bounds are read from the small copy (one
            # pass over the wide values fewer)
            columns = np.ascontiguousarray(array.astype(np.min_scalar_type(word), copy=False).T)
            return list(columns), (int(columns.min()), int(columns.max()))
        lo, hi = array.min(), array.max()
        small = np.result_type(np.min_scalar_type(lo), np.min_scalar_type(hi))
        return list(np.ascontiguousarray(array.astype(small, copy=False).T)), (int(lo), int(hi))
    if array.dtype.kind in "bf":
        # one transposing pass to contiguous columns: every later pass over a rater's
        # values (checks, encoding, the measurements' sums) then reads it sequentially
        return list(np.ascontiguousarray(array.T)), None
    return [array[:, g] for g in range(array.shape[1])], None


def _columns_by_label(array: np.ndarray, labels: pd.Index, categories: Any) -> np.ndarray:
    """Count columns labelled `labels` placed under `categories` (zeros for the others)."""
    if labels.has_duplicates:
        raise ValueError(
            f"`counts` repeats column labels {preview(labels[labels.duplicated()].unique())}; "
            "each category must label one column."
        )
    scale = pd.Index(list(categories))
    if len(scale) > MAX_CATEGORIES:
        raise ValueError(f"`categories` has {len(scale)} labels; at most {MAX_CATEGORIES}.")
    position = scale.get_indexer(labels)
    if (position < 0).any():
        raise ValueError(
            f"`counts` has columns outside `categories`: {preview(labels[position < 0])}; "
            f"declared categories are {preview(scale)}."
        )
    out = np.zeros((array.shape[0], len(scale)), dtype=array.dtype)
    out[:, position] = array
    return out


def validate_counts(counts: Any, categories: Any = None) -> tuple[np.ndarray, list[Any]]:
    """Validate a subjects x categories count matrix (Fleiss' layout)."""
    labels = None
    if isinstance(counts, pd.DataFrame):
        labels = list(counts.columns)
    array = numeric_array(counts, "counts", "a subjects x categories matrix")
    if array.ndim != 2:
        raise ValueError(
            f"`counts` must be 2-D (subjects x categories); got shape {array.shape}."
        )
    n, k = array.shape
    if k < 1 or n < 1:
        raise ValueError(f"`counts` is empty; got shape {array.shape}.")
    if k > MAX_CATEGORIES:
        raise ValueError(f"`counts` has {k} categories; at most {MAX_CATEGORIES}.")
    array = exact_counts(array, "counts", "entries")
    if array.sum(axis=1).max() < 2:
        raise ValueError(
            "`counts` has at most one rating per subject; agreement needs two or more raters."
        )
    if categories is None:
        categories = labels if labels is not None else list(range(k))
    elif labels is not None and not pd.Index(labels).equals(pd.RangeIndex(k)):
        array = _columns_by_label(array, pd.Index(labels), categories)
        k = array.shape[1]
    categories = list(categories)
    if len(categories) != k:
        raise ValueError(
            f"`categories` must have {k} labels, one per column of `counts`; got "
            f"{len(categories)}."
        )
    return array, categories
