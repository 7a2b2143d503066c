"""Coercion of every input form to integer category codes; input validation lives here.

Every input form (:mod:`irr._source`) is coded here. The result is a :class:`Ratings`:
one integer code array per rater (``-1`` marks a missing rating), the category labels,
their numeric scores (or ``None`` when the labels have no order) and the rater names.
Kernels downstream assume these arrays are valid and never see a DataFrame.
"""

from __future__ import annotations

import numbers
import re
import sys
from collections.abc import Callable, Collection, Sequence
from dataclasses import dataclass
from decimal import Decimal
from functools import cached_property
from typing import Any

import numpy as np

from irr._lazy import lazy_module

# pandas is imported when a function that needs it first runs: choosing the rating columns
# of numpy columns (irr._columns, DuckDB's relations) reads text and missing values here
pd = lazy_module("pandas")

__all__ = ["MISSING_MARKERS", "UNNEST", "Ratings", "align_columns", "align_to_index",
           "decimal_text", "distinct_names",
           "encode_ratings", "exact_reals", "float_if_exact", "integer_pair_ratings",
           "is_pandas", "may_hold_missing", "missing_markers", "nested_cells", "nested_message",
           "nested_type", "object_missing", "refuse_nested", "refuse_nested_rows",
           "validate_table"]

#: Most categories an agreement table may have before its k x k allocation is refused.
MAX_CATEGORIES = 10_000

#: Text that marks a missing value in common software (SAS ".", R "NA", Excel "#N/A"),
#: compared after stripping spaces; in a string column such a label is most likely not a
#: rating, so it is named in a warning (pass `categories=` including it to keep it quietly).
MISSING_MARKERS = frozenset({
    ".", "", "NA", "N/A", "n/a", "na", "NaN", "nan", "NULL", "null", "-",
    "?", "#N/A", "missing", "Missing", "MISSING",
})

#: The largest int64, as a Python int.
_INT64_MAX = int(np.iinfo(np.int64).max)

#: Integer labels whose range is at most this wide are coded by offset, not by hashing.
_DENSE_RANGE = 1 << 16

#: Elements processed at once where a full-length temporary would cost too much memory.
CHUNK = 1 << 20


@dataclass(frozen=True, eq=False)
class Ratings:
    """Ratings of n subjects by m raters, coded against one category set.

    ``coded`` is the tuple of code arrays, or a function that makes it on first use of
    :attr:`codes` (two integer raters are summarised by their k x k table, `pair_counts`,
    and their per-subject codes are made only when a view needs them: a bootstrap, a
    per-subject cluster). ``pair_counts``, when set, is that table of the codes (rows: the
    first rater), every rating given; ``rows`` the number of subjects.
    """

    coded: tuple[np.ndarray, ...] | Callable[[], tuple[np.ndarray, ...]]
    categories: pd.Index
    scores: np.ndarray | None
    ordered: bool
    raters: tuple[str, ...]
    pair_counts: np.ndarray | None = None
    rows: int | None = None

    @cached_property
    def codes(self) -> tuple[np.ndarray, ...]:
        """One int code array per rater (``-1`` = missing)."""
        return self.coded() if callable(self.coded) else self.coded

    @property
    def has_codes(self) -> bool:
        """Whether there are per-rater codes (not for counts or a sparse design)."""
        return callable(self.coded) or bool(self.coded)

    @property
    def n_categories(self) -> int:
        return len(self.categories)

    @property
    def n_rows(self) -> int:
        return self.rows if self.rows is not None else len(self.codes[0])


def may_hold_missing(dtype: Any) -> bool:
    """Whether a column of `dtype` can hold a missing value: numpy integers and booleans
    cannot (floats, objects, categoricals and pandas' nullable types can).

    Examples
    --------
    >>> may_hold_missing(np.dtype("int8")), may_hold_missing(np.dtype(float))
    (False, True)
    """
    return not (isinstance(dtype, np.dtype) and dtype.kind in "iub")


def preview(values: Any, limit: int = 5) -> str:
    values = list(values)
    shown = ", ".join(repr(v.item() if isinstance(v, np.generic) else v) for v in values[:limit])
    more = f", ... ({len(values)} in all)" if len(values) > limit else ""
    return f"[{shown}{more}]"


#: How a message names the cells of a nested type (other collections: by type name).
_NESTED_WORDS = {list: "lists", tuple: "tuples", dict: "dicts", set: "sets",
                 frozenset: "sets", np.ndarray: "arrays"}


def nested_type(kind: type) -> bool:
    """Whether a value of type `kind` holds several values: a collection (a list, tuple,
    dict, set, numpy array, pandas Series) other than text. JSON and Parquet list columns
    are read into such cells. A tuple is one too: it is hashable, but it holds several
    values (pandas makes an Index of tuples a MultiIndex), never one rating.

    Examples
    --------
    >>> nested_type(list), nested_type(tuple), nested_type(np.ndarray), nested_type(str)
    (True, True, True, False)
    """
    return issubclass(kind, Collection) and not issubclass(kind, str | bytes | bytearray)


def nested_cells(values: Any) -> np.ndarray:
    """Which values of a 1-D sequence are nested (:func:`nested_type`), as a boolean
    array; the types are read once each, so labels of one type cost one pass.

    Examples
    --------
    >>> nested_cells(np.array([1, [2, 3], "a", (4,)], dtype=object)).tolist()
    [False, True, False, True]
    """
    objects = _objects(values)
    nested = {kind for kind in set(map(type, objects)) if nested_type(kind)}
    if not nested:
        return np.zeros(objects.size, dtype=bool)
    return np.fromiter((type(v) in nested for v in objects), dtype=bool, count=objects.size)


def _objects(values: Any) -> np.ndarray:
    """A 1-D sequence as a 1-D object array whose cells are its values as they are (numpy
    would make a list of equal-length lists 2-D)."""
    if isinstance(values, np.ndarray) and values.ndim == 1:
        return values if values.dtype == object else values.astype(object)
    values = list(values)
    return np.fromiter(values, dtype=object, count=len(values))


#: What to do with ratings that hold collections (:func:`nested_message`).
UNNEST = ("Unnest or explode them first (one row per value: DataFrame.explode), or join each "
          "into one label.")


def nested_message(held: str, remedy: str = UNNEST) -> str:
    """The one wording of a refusal of nested values: `held` says who holds what
    (``"`a` holds lists ([[1, 2], [3]])"``, ``"`r1` (List(Int64)) holds lists or
    structs"``), `remedy` what to do.

    Examples
    --------
    >>> print(nested_message("`a` holds lists ([[1, 2]])"))  # doctest: +NORMALIZE_WHITESPACE
    `a` holds lists ([[1, 2]]), but every value must be a single label or number, not a
    collection. Unnest or explode them first (one row per value: DataFrame.explode), or
    join each into one label.
    """
    return f"{held}, but every value must be a single label or number, not a collection. {remedy}"


def refuse_nested(values: Any, name: str, column: Any = None, remedy: str = UNNEST) -> None:
    """A TypeError naming `name` (an argument or column, in backticks; with `column`, the
    argument that names that column) and showing the nested values of the 1-D `values`
    (:func:`nested_cells`), if any; `remedy` says what to do (:func:`nested_message`).

    Examples
    --------
    >>> refuse_nested(np.array([[1, 2], None], dtype=object), "a")
    Traceback (most recent call last):
    ...
    TypeError: `a` holds lists ([[1, 2]]), but every value must be a single label ...
    """
    objects = _objects(values)
    found = nested_cells(objects)
    if not found.any():
        return
    bad = objects[found]
    kinds = dict.fromkeys(_NESTED_WORDS.get(type(v), f"{type(v).__name__} objects")
                          for v in bad)
    who = f"`{name}`" if column is None else f"The `{name}` column {column!r}"
    raise TypeError(nested_message(f"{who} holds {' and '.join(kinds)} ({preview(bad)})",
                                   remedy))


#: Text as a list, dict or set prints ("[1, 2]", "['copd', 'hf']", "[]", "{'a': 1}"): what a
#: CSV file holds where a pandas list column was written.
_COLLECTION_TEXT = re.compile(r"\s*(\[.*\]|\{.*\})\s*", re.DOTALL)
#: The label of an interval closed on both sides ("[0, 10]", "[1.5, 2.5]"): a category.
_INTERVAL_TEXT = re.compile(r"\s*\[\s*[-+]?[\d.]+(e[-+]?\d+)?\s*,\s*[-+]?[\d.]+(e[-+]?\d+)?\s*\]\s*",
                            re.IGNORECASE)


def _refuse_collection_text(labels: np.ndarray, name: str) -> None:
    """The TypeError of :func:`refuse_nested` when every one of the distinct text `labels`
    of `name` is the text of a list, dict or set as Python prints one (a pandas list
    column written to CSV), unless each is an interval's two numbers ("[0, 10]"). The
    first label settles it for any other text."""
    if not len(labels) or not all(isinstance(v, str) and _COLLECTION_TEXT.fullmatch(v)
                                  for v in labels):
        return
    if all(_INTERVAL_TEXT.fullmatch(v) for v in labels):
        return
    kinds = dict.fromkeys("lists" if v.lstrip()[0] == "[" else "dicts or sets" for v in labels)
    raise TypeError(nested_message(
        f"`{name}` holds {' and '.join(kinds)} written as text ({preview(labels)})",
        "Read them as lists (ast.literal_eval) and explode them first (one row per value: "
        "DataFrame.explode), or leave the column out of the ratings; if they are labels, "
        "declare them with `categories=`."))


def refuse_nested_rows(rows: Any, name: str) -> None:
    """:func:`refuse_nested` of the cells of a 2-D `rows` (a sequence of rows) that numpy
    could not make an array of (cells of unequal lengths)."""
    try:
        cells = [cell for row in rows for cell in row]
    except TypeError:  # a row that is no sequence: the caller's message says why
        return
    refuse_nested(cells, name)


def distinct_names(labels: Sequence[Any], argument: str) -> list[str]:
    """The raters' labels as names (str), or raise if two labels give the same name.

    Rater names are strings everywhere (results, tables, ``reference=``), so labels such
    as ``1`` and ``"1"`` would make one rater indistinguishable from the other.

    Examples
    --------
    >>> distinct_names([1, "b"], "raters")
    ['1', 'b']
    """
    names = [str(label) for label in labels]
    if len(set(names)) < len(names):
        seen: dict[str, Any] = {}
        clash = []
        for label, name in zip(labels, names, strict=True):
            if name in seen:
                clash.append((seen[name], label))
            seen.setdefault(name, label)
        raise ValueError(
            f"`{argument}` has labels that are the same once written as text: "
            f"{', '.join(f'{a!r} and {b!r}' for a, b in clash[:3])}; rater names must be "
            "distinct strings, so rename one of each."
        )
    return names


def as_1d(values: Any, name: str) -> np.ndarray | pd.Categorical:
    """Return `values` as a 1-D ndarray or Categorical, or raise naming `name`."""
    if isinstance(values, pd.DataFrame):
        raise TypeError(f"`{name}` must be 1-D (one rater's ratings); got a DataFrame.")
    if isinstance(values, pd.Series):
        # numpy-backed Series as ndarrays (their .array would go through object dtype)
        values = values.to_numpy() if isinstance(values.dtype, np.dtype) else values.array
    if isinstance(values, pd.CategoricalDtype) or isinstance(
        getattr(values, "dtype", None), pd.CategoricalDtype
    ):
        categorical = pd.Categorical(values)
        levels = categorical.categories
        if levels.dtype.kind == "f" and levels.dtype.itemsize < 8:
            # float32 levels as the decimals they print as, like float32 arrays
            # (_as_float64): 0.1 then matches a float64 rater's 0.1
            categorical = categorical.rename_categories(
                _as_float64(np.asarray(levels)))
        return categorical
    if isinstance(values, (str, bytes)) or np.isscalar(values):
        raise TypeError(f"`{name}` must be a 1-D array-like of ratings; got {values!r}.")
    if isinstance(values, pd.api.extensions.ExtensionArray):
        kind = getattr(values.dtype, "kind", "O")
        if kind == "f":  # nullable floats (Float32 too): their own width, then float64 below
            array = values.to_numpy(dtype=values.dtype.numpy_dtype, na_value=np.nan)
        elif kind in "iu" and not values.isna().any():
            array = values.to_numpy(dtype=values.dtype.numpy_dtype)  # exact integers
        else:  # with missing values: objects, coded exactly
            array = values.to_numpy(dtype=object, na_value=np.nan)
    elif not isinstance(values, np.ndarray):
        array = _from_sequence(values, name)
    else:
        try:
            array = np.asarray(values)
        except ValueError as exc:  # ragged nested lists
            raise ValueError(f"`{name}` must be a 1-D array-like of ratings: {exc}") from None
    if array.ndim != 1:
        raise ValueError(
            f"`{name}` must be 1-D (one rater's ratings); got an array of shape {array.shape}."
        )
    if array.dtype.kind in "iub":
        return array
    if array.dtype.kind == "f":
        # a finite sum (one reading pass, no temporary) rules out every infinity
        with np.errstate(over="ignore", invalid="ignore"):
            total = np.add.reduce(array, axis=None)
        if not np.isfinite(total) and np.isinf(array).any():
            bad = array[np.isinf(array)]
            raise ValueError(f"`{name}` contains infinite ratings: {preview(bad)}.")
        return _as_float64(array)
    if array.dtype.kind in "USO":
        return array.astype(object)
    raise TypeError(f"`{name}` has unsupported dtype {array.dtype}; ratings must be labels.")


def _as_float64(array: np.ndarray) -> np.ndarray:
    """Float labels as float64; narrower floats read as their shortest decimal form.

    A float32 0.1 is 0.10000000149011612 as a float64, so a float32 rater and a float64
    rater who both wrote 0.1 would never match; each distinct narrow value is read as
    the decimal that prints it (``str``), which is the label the rater gave. Wider
    floats (longdouble) are kept only if float64 holds them exactly.
    """
    if array.dtype == np.float64:
        return array
    if array.dtype.itemsize > 8:
        wide = array.astype(np.float64)
        if not np.array_equal(wide, array, equal_nan=True):
            raise TypeError(
                f"Ratings of dtype {array.dtype} hold values float64 cannot represent "
                "exactly; round them or pass them as strings."
            )
        return wide
    values, inverse = np.unique(array, return_inverse=True)
    decimal = np.array([float(str(v)) for v in values], dtype=np.float64)  # distinct values
    return decimal[inverse.reshape(-1)]


def _exactly_float(objects: np.ndarray, missing: np.ndarray) -> bool:
    """Whether every non-missing number of `objects` is exact as a float64.

    Integers beyond 2**53 are not: 2**53 + 1 would become 2**53 and merge with it.
    """
    present = objects[~missing]
    magnitude = np.abs(present.astype(float))
    suspects = present[magnitude >= 2.0**53]
    return all(not isinstance(v, numbers.Integral) or int(float(v)) == int(v)
               for v in suspects)


def float_if_exact(objects: np.ndarray) -> np.ndarray:
    """Numeric `objects` (None or nan missing) as float64 when every integer among them is
    exact as a float64; otherwise `objects` unchanged, so that integers beyond 2**53 are
    coded exactly (2**53 + 1 as a float would merge with 2**53).

    Examples
    --------
    >>> float_if_exact(np.array([1, None, 2], dtype=object))
    array([ 1., nan,  2.])
    >>> float_if_exact(np.array([2**53, 2**53 + 1], dtype=object)).dtype
    dtype('O')
    """
    missing = np.asarray(pd.isna(objects), dtype=bool)
    if not _exactly_float(objects, missing):
        return objects
    return np.where(missing, np.nan, objects).astype(float)


def exact_reals(values: np.ndarray, name: str) -> np.ndarray:
    """Numeric 2-D `values` as float64 for a statistic that a common shift leaves unchanged
    (the ICC), exactly: integers beyond 2**53 are shifted by the smallest value first, in
    integer arithmetic, then converted. Missing values (None, nan) become nan.

    Raises
    ------
    TypeError
        Non-numeric values.
    ValueError
        Integers beyond 2**53 mixed with non-integral floats, or spread over more than
        2**53 (no float64 holds their differences exactly).

    Examples
    --------
    >>> b = 2**53
    >>> exact_reals(np.array([[b, b + 1], [b + 2, b + 4]]), "x")
    array([[0., 1.],
           [2., 4.]])
    """
    if values.dtype.kind == "f":
        return values.astype(np.float64)
    if values.dtype.kind in "iub":
        if values.dtype.kind == "b" or not values.size or (
                max(abs(int(values.min())), abs(int(values.max()))) < 2**53):
            return values.astype(np.float64)
        values = values.astype(object)
    if values.dtype.kind != "O" or pd.api.types.infer_dtype(values.ravel(), skipna=True) not in (
            "integer", "floating", "mixed-integer-float", "empty", "decimal", "boolean"):
        if values.dtype.kind == "O":
            refuse_nested(values.ravel(), name)
        raise TypeError(f"`{name}` must be a 2-D array of numbers. Got {preview(values.ravel()[:3])}.")
    missing = np.asarray(pd.isna(values), dtype=bool)
    if _exactly_float(values, missing):
        return np.where(missing, np.nan, values).astype(np.float64)
    present = values[~missing]
    integral = np.frompyfunc(lambda v: isinstance(v, numbers.Integral) or float(v).is_integer(),
                             1, 1)(present).astype(bool)
    if not integral.all():
        raise ValueError(
            f"`{name}` mixes integers beyond 2**53 with non-integral numbers such as "
            f"{preview(present[~integral][:3])}; float64 cannot hold them exactly. Subtract a "
            "baseline first."
        )
    as_int = np.frompyfunc(int, 1, 1)
    lo = min(as_int(present))
    shifted = as_int(np.where(missing, lo, values)) - lo
    if max(shifted.ravel()) >= 2**53:
        raise ValueError(
            f"`{name}` holds integers beyond 2**53 that differ by more than 2**53; float64 "
            "cannot hold their differences exactly. Rescale them first."
        )
    out = shifted.astype(np.float64)
    out[missing] = np.nan
    return out


def _stack(arrays: list[np.ndarray]) -> np.ndarray:
    """The raters' arrays end to end, without numpy's casts of int64 + uint64 to float and
    of integers beyond 2**53 + floats to float (objects then: coded exactly)."""
    kinds = {a.dtype.kind for a in arrays}
    if "f" in kinds and kinds & set("iu") and any(
            a.dtype.kind in "iu" and a.size and (
                int(a.max()) >= 2**53 or int(a.min()) <= -(2**53)) for a in arrays):
        return np.concatenate([a.astype(object) for a in arrays])
    if len({a.dtype for a in arrays}) > 1 and all(a.dtype.kind in "iu" for a in arrays):
        if all(a.dtype.kind == "i" or a.max(initial=0) <= np.iinfo(np.int64).max
               for a in arrays):
            return np.concatenate([a.astype(np.int64) for a in arrays])
        if all(a.dtype.kind == "u" or a.min(initial=0) >= 0 for a in arrays):
            return np.concatenate([a.astype(np.uint64) for a in arrays])
        return np.concatenate([a.astype(object) for a in arrays])
    return np.concatenate(arrays)


def _from_sequence(values: Any, name: str) -> np.ndarray:
    """A list or tuple of labels as an array, without numpy's silent cast of 1 to "1"."""
    try:
        objects = np.asarray(values, dtype=object)
    except ValueError as exc:
        refuse_nested(values, name)
        raise ValueError(f"`{name}` must be a 1-D array-like of ratings: {exc}") from None
    if objects.ndim != 1:
        raise ValueError(
            f"`{name}` must be 1-D (one rater's ratings); got an array of shape {objects.shape}."
        )
    kind = pd.api.types.infer_dtype(objects, skipna=True)
    missing = np.asarray(pd.isna(objects), dtype=bool) if objects.size else np.zeros(0, bool)
    if kind == "integer" and not missing.any():
        try:
            return objects.astype(np.int64)
        except OverflowError:
            big = [v for v in objects if not -(2**63) <= v < 2**63]
            raise ValueError(
                f"`{name}` has integer labels outside the 64-bit range: {preview(big)}; "
                "recode them or pass them as strings."
            ) from None
    if kind == "boolean" and not missing.any():
        return objects.astype(bool)
    if kind in ("integer", "floating", "mixed-integer-float", "empty"):
        if kind != "integer" and any(isinstance(v, np.float32 | np.float16) for v in objects):
            # narrow floats as the decimals they print as (see _as_float64)
            objects = np.array([float(str(v)) if isinstance(v, np.float32 | np.float16)
                                else v for v in objects], dtype=object)
        if not _exactly_float(objects, missing):
            return objects  # coded exactly as objects (integers beyond 2**53)
        return np.where(missing, np.nan, objects).astype(float)
    return objects


def _missing(values: np.ndarray | pd.Categorical) -> np.ndarray:
    if isinstance(values, pd.Categorical):
        return values.codes < 0
    if values.dtype.kind == "f":
        return np.isnan(values)
    if values.dtype.kind == "O":
        return np.asarray(pd.isna(values), dtype=bool)
    return np.zeros(len(values), dtype=bool)


def _label_kind(value: Any) -> str:
    if isinstance(value, (bool, np.bool_)):
        return "bool"
    if isinstance(value, numbers.Real):
        if isinstance(value, float | np.floating) and np.isinf(value):
            return "inf"
        return "number"
    if isinstance(value, str):
        return "str"
    return type(value).__name__


#: The label kind of a whole object array from pandas' type inference, when it settles
#: it: only strings, only bools, or only real numbers (ints and floats, numpy's too).
_LABEL_KINDS = {"string": "str", "boolean": "bool", "integer": "number", "floating": "number",
                "mixed-integer-float": "number"}


def _check_label_kinds(labels: np.ndarray, name: str) -> str:
    """Return the one kind of the non-missing `labels`; raise if they mix kinds."""
    if labels.dtype.kind != "O":
        return "bool" if labels.dtype.kind == "b" else "number"
    if len(labels) == 0:
        return "number"
    known = _LABEL_KINDS.get(pd.api.types.infer_dtype(labels, skipna=False))
    if known == "str" or known == "bool":
        return known
    if known == "number":
        try:
            finite = np.isfinite(labels.astype(np.float64)).all()
        except (OverflowError, TypeError, ValueError):
            finite = False
        if finite:
            return known
    # mixed kinds, infinities or other types: per label, to name them
    refuse_nested(labels, name)
    kinds = pd.Series(labels).map(_label_kind)
    found = pd.unique(kinds)
    if "inf" in found:
        raise ValueError(f"`{name}` contains infinite ratings: {preview(labels[kinds == 'inf'])}.")
    if len(found) > 1:
        examples = [labels[kinds == kind][0] for kind in found[:3]]
        raise TypeError(
            f"`{name}` mixes label types ({', '.join(found)}): for example {preview(examples)}; "
            "convert the ratings to one type first."
        )
    kind = found[0]
    if kind not in ("number", "str", "bool"):
        raise TypeError(f"`{name}` holds labels of unsupported type {kind}: {preview(labels[:3])}.")
    return kind


def _check_categories(categories: Any) -> pd.Index:
    if isinstance(categories, (str, bytes)) or np.isscalar(categories):
        raise TypeError(f"`categories` must be a sequence of labels; got {categories!r}.")
    labels = list(categories)
    refuse_nested(labels, "categories", remedy="Declare each category as one label.")
    try:
        index = pd.Index(labels)
        _ = index.has_duplicates  # hashes every label
    except TypeError as exc:
        raise TypeError(
            f"`categories` must hold hashable labels: {exc} in {preview(labels)}."
        ) from None
    if len(index) == 0:
        raise ValueError("`categories` must not be empty.")
    if index.hasnans:
        raise ValueError("`categories` must not contain missing values.")
    if index.has_duplicates:
        dups = index[index.duplicated()].unique()
        raise ValueError(f"`categories` contains duplicates: {preview(dups)}.")
    _check_label_kinds(np.asarray(index, dtype=object), "categories")
    if len(index) > MAX_CATEGORIES:
        raise ValueError(
            f"`categories` has {len(index)} labels; at most {MAX_CATEGORIES} are supported."
        )
    return index


#: Labels above this magnitude are named when the spread of the labels overflows float64.
_MAX_SCORE = 2.0**400


def _numeric_scores(categories: pd.Index) -> np.ndarray | None:
    """Category scores of numeric labels (None for other labels), or raise if inexact.

    Integer labels beyond 2**53 that float64 cannot hold exactly, and floats so large that
    their squared distances overflow, would give silently wrong weights and distances.
    """
    if categories.dtype.kind in "iufb":
        scores = categories.to_numpy(dtype=float)
    elif categories.dtype == object and all(isinstance(c, numbers.Real) for c in categories):
        scores = np.asarray(list(categories), dtype=float)
    else:
        return None
    if scores.size and np.abs(scores).max() >= 2.0**53:  # 2**53 + 1 rounds down to 2**53
        labels = list(categories)
        inexact = [c for c, x in zip(labels, scores, strict=True)
                   if isinstance(c, numbers.Integral) and int(c) != int(x)]
        if inexact:
            raise ValueError(
                f"The integer labels {preview(inexact)} are beyond 2**53 and float64 cannot "
                "represent them exactly, so distances between categories would be wrong; "
                "recode them (e.g. subtract a baseline), or pass them as strings for "
                "unweighted statistics."
            )
        # differences of scores must be finite; estimators divide them by the spread (a
        # power of two for alpha) before squaring, so large labels themselves are fine
        # (the ICC and alpha are scale-invariant: x * 1e200 gives the estimates of x)
        with np.errstate(over="ignore"):
            spread = scores.max() - scores.min()
        huge = scores[np.abs(scores) > _MAX_SCORE] if not np.isfinite(spread) else scores[:0]
        if huge.size:
            raise ValueError(
                f"The labels {preview(huge)} are too large to score: squared distances "
                "between them overflow float64; rescale them, or pass them as strings for "
                "unweighted statistics."
            )
    return scores


def integer_offsets(values: np.ndarray, lo: int) -> np.ndarray:
    """``values - lo`` as int64, exact for any int64/uint64 `values` within 2**16 of `lo`."""
    if values.dtype == np.uint64:
        if lo >= 0:
            return np.subtract(values, np.uint64(lo)).astype(np.int64)
        return values.astype(np.int64) - lo  # all values < lo + 2**16 < 2**16 here
    # int64 wrap-around is harmless: the true difference lies in [0, 2**16).
    return np.subtract(values, lo, dtype=np.int64)


def _dense_integer_codes(
    columns: list[np.ndarray], bounds: tuple[int, int] | None = None,
) -> tuple[list[np.ndarray], pd.Index] | None:
    """Code integer columns by offset from their minimum, keeping only used values.
    `bounds`: the smallest and largest value of all columns, when known."""
    lo, hi = bounds if bounds is not None else (min(int(c.min()) for c in columns),
                                                max(int(c.max()) for c in columns))
    width = hi - lo + 1
    if width > _DENSE_RANGE:
        return None
    # Non-negative values of at most 16 bits (uint8/uint16 from split_array) index a table
    # of hi + 1 entries themselves: no offsets are computed.
    direct = lo >= 0 and hi < 1 << 16 and all(
        c.dtype.kind in "iu" and c.dtype.itemsize <= 2 for c in columns)
    # Work in chunks so that no full-length int64 temporary is made: int8 codes of 10^8
    # ratings cost 10^8 bytes per rater, plus a few MiB of scratch.
    if direct and width <= 64:  # the values present as the bits of one word
        return _direct_integer_codes(columns, _values_present(columns, lo, width, hi))
    used = np.zeros(hi + 1 if direct else width, dtype=bool)
    if direct:  # the first rows first: when they hold every value of the range (lo..hi,
        # known), the rest need not be counted
        used |= np.bincount(np.concatenate([c[:_PRESENT_PREFIX] for c in columns]),
                            minlength=len(used)).astype(bool)
        if used[lo:].all():
            return _direct_integer_codes(columns, used)
    for column in columns:
        for start in range(0, len(column), CHUNK):
            offset = (column[start : start + CHUNK] if direct
                      else integer_offsets(column[start : start + CHUNK], lo))
            used |= np.bincount(offset, minlength=len(used)).astype(bool)
    if direct:
        return _direct_integer_codes(columns, used)
    code_dtype = _code_dtype(int(used.sum()))
    remap = (np.cumsum(used) - 1).astype(code_dtype)
    codes = []
    for column in columns:
        code = np.empty(len(column), dtype=code_dtype)
        for start in range(0, len(column), CHUNK):
            code[start : start + CHUNK] = remap[integer_offsets(column[start : start + CHUNK], lo)]
        codes.append(code)
    label_type = np.uint64 if hi > np.iinfo(np.int64).max else np.int64
    categories = pd.Index(np.flatnonzero(used).astype(label_type) + label_type(lo))
    return codes, categories


def _code_dtype(n_used: int) -> type[np.signedinteger]:
    """The smallest signed integer type of codes 0 .. `n_used` - 1 (with room for -1);
    a ValueError beyond `MAX_CATEGORIES` labels."""
    if n_used > MAX_CATEGORIES:
        raise ValueError(
            f"The ratings hold {n_used} distinct labels; at most {MAX_CATEGORIES} categories "
            "are supported (are these continuous scores rather than categories?)."
        )
    return np.int8 if n_used < 127 else np.int16 if n_used < 32767 else np.int32


#: Rows of each rater :func:`_values_present` reads first: when they hold every value of
#: the range, the rest need not be read.
_PRESENT_PREFIX = 1024


def _values_present(columns: list[np.ndarray], lo: int, width: int, hi: int) -> np.ndarray:
    """``used[v]``: whether value v (``0 <= v <= hi``) occurs in the columns, for values
    within `width` <= 64 of `lo`: each chunk ORs ``1 << (value - lo)`` into a word (an
    unsigned type of at least `width` bits), a shift and a reduction in that small type
    instead of a count of every value."""
    bits = next(t for t in (np.uint8, np.uint16, np.uint32, np.uint64)
                if np.dtype(t).itemsize * 8 >= width)
    one, word = bits(1), bits(0)
    every = (1 << width) - 1  # the word when every value within the width occurs

    def values_of(chunk: np.ndarray) -> np.generic:
        chunk = chunk.view(np.dtype(f"u{chunk.dtype.itemsize}"))  # values >= 0
        if lo:
            chunk = chunk - chunk.dtype.type(lo)
        return np.bitwise_or.reduce(np.left_shift(one, chunk, dtype=bits))

    for column in columns:  # the first rows first: they often hold every value already
        word |= values_of(column[:_PRESENT_PREFIX])
    if int(word) != every:
        for column in columns:
            for start in range(0, len(column), CHUNK):
                word |= values_of(column[start : start + CHUNK])
    used = np.zeros(hi + 1, dtype=bool)
    # the word's bits, least significant first (a shift of a Python int overflows C long
    # when the 64th value, bit 63, occurs)
    little = np.array([word]).astype(f"<u{np.dtype(bits).itemsize}").view(np.uint8)
    used[lo:] = np.unpackbits(little, bitorder="little")[:width].astype(bool)
    return used


def _direct_integer_codes(
    columns: list[np.ndarray], used: np.ndarray,
) -> tuple[list[np.ndarray], pd.Index]:
    """:func:`_dense_integer_codes` of non-negative columns of at most 16 bits whose used
    values (``used[v]``: value v occurs) are known: each code read from a table indexed
    by the value, or the value itself when the values are 0, 1, ... with none skipped."""
    code_dtype = _code_dtype(int(used.sum()))
    categories = pd.Index(np.flatnonzero(used).astype(np.int64))
    if used.all():  # the values are their own codes
        return [column.astype(code_dtype) for column in columns], categories
    remap = (np.cumsum(used) - 1).astype(code_dtype)
    return [remap[column] for column in columns], categories


#: Most cells of the table of value pairs of two integer raters (the squared width of their
#: range) counted in one pass (:func:`integer_pair_table`); wider ranges are coded first.
_PAIR_CELLS = 1 << 16

#: Ratings per chunk of that pass: a chunk of two int64 raters (1 MiB) stays in cache
_PAIR_CHUNK = 1 << 16


def integer_pair_table(
    a: np.ndarray, b: np.ndarray,
) -> tuple[np.ndarray, int, tuple[np.ndarray, np.ndarray]] | None:
    """How many positions hold each pair of values of the integer arrays `a` and `b`.

    Returns the table (w, w) of int64 counts over the values ``lo .. lo + w - 1`` (rows:
    `a`), ``lo`` (the smallest value of both), and each array's values modulo 256 (uint8;
    with w <= 256 they identify the values: ``(residue - lo) mod 256`` is ``value - lo``);
    None when ``w * w`` exceeds :data:`_PAIR_CELLS`. One pass in chunks: each chunk's range
    is read, the table widened when the chunk goes beyond it, the residues stored (a
    truncating cast to uint8 is the value modulo 256, for every integer dtype) and the
    chunk's cells ``(x - lo) * w + (y - lo)`` counted from them.

    Examples
    --------
    >>> table, lo, residues = integer_pair_table(np.array([3, 4, 4]), np.array([4, 4, 3]))
    >>> table.tolist(), lo, residues[0].tolist()
    ([[0, 1], [1, 1]], 3, [3, 4, 4])
    """
    table: np.ndarray | None = None
    lo = hi = 0
    residues = (np.empty(len(a), dtype=np.uint8), np.empty(len(b), dtype=np.uint8))
    for start in range(0, len(a), _PAIR_CHUNK):
        x, y = a[start : start + _PAIR_CHUNK], b[start : start + _PAIR_CHUNK]
        chunk_lo = min(int(np.minimum.reduce(x)), int(np.minimum.reduce(y)))
        chunk_hi = max(int(np.maximum.reduce(x)), int(np.maximum.reduce(y)))
        if table is None:  # the first chunk's range; its counts are the table
            lo, hi = chunk_lo, chunk_hi
            if (hi - lo + 1) ** 2 > _PAIR_CELLS:
                return None
        elif chunk_lo < lo or chunk_hi > hi:
            new_lo, new_hi = min(lo, chunk_lo), max(hi, chunk_hi)
            width = new_hi - new_lo + 1
            if width * width > _PAIR_CELLS:
                return None
            wider = np.zeros((width, width), dtype=np.int64)
            at = lo - new_lo
            wider[at : at + len(table), at : at + len(table)] = table
            table, lo, hi = wider, new_lo, new_hi
        width, shift = hi - lo + 1, np.uint8(lo % 256)
        rx, ry = residues[0][start : start + len(x)], residues[1][start : start + len(x)]
        np.copyto(rx, x, casting="unsafe")
        np.copyto(ry, y, casting="unsafe")
        if shift:  # x - lo and y - lo: uint8 differences wrap modulo 256
            rx, ry = np.subtract(rx, shift), np.subtract(ry, shift)
        cells = np.multiply(rx, width, dtype=np.int16 if width < 181 else np.int32)
        cells += ry
        counts = np.bincount(cells, minlength=width * width).reshape(width, width)
        if table is None:
            table = counts.astype(np.int64, copy=False)  # intp: int64 on 64-bit platforms
        else:
            table += counts
    if table is None:  # the callers pass at least one rating; empty arrays are an error
        raise ValueError("integer_pair_table needs at least one pair of ratings; got empty "
                         "arrays.")
    return table, lo, residues


@dataclass(frozen=True, eq=False)
class _ResidueCodes:
    """The codes of integer raters, made when called: ``to_code[(residue - shift) mod 256]``
    per rater, from the uint8 residues of :func:`integer_pair_table` (shift = lo mod 256).
    The residues are our own copy, so later changes to the caller's arrays change nothing;
    a class, not a closure, so that a :class:`Ratings` holding it pickles."""

    residues: tuple[np.ndarray, ...]
    shift: int
    to_code: np.ndarray

    def __call__(self) -> tuple[np.ndarray, ...]:
        out = []
        for residue in self.residues:
            code = np.empty(len(residue), dtype=self.to_code.dtype)
            for start in range(0, len(residue), CHUNK):
                offset = np.subtract(residue[start : start + CHUNK], np.uint8(self.shift))
                code[start : start + CHUNK] = self.to_code[offset]
            out.append(code)
        return tuple(out)


def _encode_integer_pair(
    arrays: list[np.ndarray], names: Sequence[str], categories: Any
) -> Ratings | None:
    """Two integer raters coded through the table of their value pairs, in one pass.

    The categories and codes are those of the general coding (observed values in order, or
    `categories`); the k x k table of codes is kept (:attr:`Ratings.pair_counts`), and the
    per-subject codes are made only when asked for. None when the values span too wide a
    range (:func:`integer_pair_table`) or a value lies outside `categories` (the general
    coding then names it).
    """
    index = None if categories is None else _check_categories(categories)
    counted = integer_pair_table(arrays[0], arrays[1])
    if counted is None:
        return None
    table, lo, residues = counted
    used = np.logical_or.reduce(table, axis=0) | np.logical_or.reduce(table, axis=1)
    label_type = np.uint64 if lo + len(table) - 1 > _INT64_MAX else np.int64
    n_used = int(np.count_nonzero(used))
    if n_used == len(table):  # every value of the range used (the range is at most 256)
        values = np.arange(len(table), dtype=label_type) + label_type(lo)
    else:
        values = np.flatnonzero(used).astype(label_type) + label_type(lo)
    if index is None:
        code_dtype = np.int8 if n_used < 127 else np.int16 if n_used < 32767 else np.int32
        to_code = (np.arange(n_used, dtype=code_dtype) if n_used == len(table)
                   else (np.cumsum(used) - 1).astype(code_dtype))
        index, scores = _integer_scale(values)
    else:
        found = index.get_indexer(values)
        if (found < 0).any():
            return None
        to_code = np.full(len(table), -1, dtype=np.int32)
        to_code[used] = found
        scores = _numeric_scores(index)
        if scores is None:
            scores = np.arange(len(index), dtype=float)
    k = len(index)
    if categories is None:  # the used values in order are the codes 0, 1, ...
        # (every value of the range used: the table itself, our own int64 array)
        pair = table if len(index) == len(table) else np.ascontiguousarray(
            table[np.ix_(used, used)], dtype=np.int64)
    else:
        rows, columns = np.nonzero(table)
        pair = np.zeros((k, k), dtype=np.int64)
        np.add.at(pair, (to_code[rows], to_code[columns]), table[rows, columns])
    coded = _ResidueCodes(residues, lo % 256, to_code)
    return Ratings(coded, index, scores, True, tuple(names), pair, len(arrays[0]))


#: The categories and scores of the last few scales of integer labels (:func:`_integer_scale`).
_SCALES: dict[tuple[str, bytes], tuple[pd.Index, np.ndarray | None]] = {}


def _integer_scale(values: np.ndarray) -> tuple[pd.Index, np.ndarray | None]:
    """The categories (an Index of `values`) and their scores (:func:`_numeric_scores`,
    read-only) of the used integer labels `values` (at most 256 of them), remembered for
    the last few scales: building an Index costs more than a small call's arithmetic. The
    values and scores are read-only and shared; each call gets its own Index object over
    them, so a caller's change to its Index (its name) stays its own.

    Examples
    --------
    >>> index, scores = _integer_scale(np.array([1, 3], dtype=np.int64))
    >>> list(index), scores.tolist(), scores.flags.writeable
    ([1, 3], [1.0, 3.0], False)
    """
    key = (values.dtype.str, values.tobytes())
    scale = _SCALES.get(key)
    if scale is None:
        values = values.copy()
        values.flags.writeable = False
        index = pd.Index(values, copy=False)
        scores = _numeric_scores(index)
        if scores is not None:
            scores.flags.writeable = False
        if len(_SCALES) >= 64:
            _SCALES.clear()
        scale = _SCALES[key] = (index, scores)
    index, scores = scale
    return index.view(), scores  # a new Index object over the same read-only values


def integer_pair_ratings(a: Any, b: Any, names: Sequence[str]) -> Ratings | None:
    """Two raters given as 1-D integer ndarrays of one length (two or more), with no
    declared categories, coded as :func:`encode_ratings` codes them (the table of their
    value pairs, :func:`_encode_integer_pair`) without its checks of every other input
    form, under the rater names `names`; None for any other input, or values spanning too
    wide a range for the table (the general coding then decides, and names any problem).

    Examples
    --------
    >>> ratings = integer_pair_ratings(np.array([1, 2, 2]), np.array([1, 2, 3]), ["a", "b"])
    >>> list(ratings.categories), ratings.pair_counts.tolist(), ratings.raters
    ([1, 2, 3], [[1, 0, 0], [0, 1, 1], [0, 0, 0]], ('a', 'b'))
    >>> integer_pair_ratings([1, 2, 2], [1, 2, 3], ["a", "b"]) is None  # lists: general coding
    True
    """
    if not (type(a) is np.ndarray and type(b) is np.ndarray and a.ndim == 1 and b.ndim == 1
            and a.dtype.kind in "iu" and b.dtype.kind in "iu" and len(a) == len(b) >= 2):
        return None
    return _encode_integer_pair([a, b], names, None)


def _factorize_strings(
    columns: Sequence[Any],
) -> tuple[list[np.ndarray], list[np.ndarray]] | None:
    """Each column of string labels factorised: codes (``-1`` missing) and its distinct
    labels (objects, in order of first appearance); None unless every column is a pandas
    string column, or an object or str array (or Series) of strings only, with a label.

    Factorising first leaves every later step (label checks, the category scale, declared
    categories) to the few distinct labels instead of every rating.
    """
    codes, uniques = [], []
    for column in columns:
        dtype = getattr(column, "dtype", None)
        if not isinstance(column, pd.Series | np.ndarray | pd.api.extensions.ExtensionArray) \
                or getattr(column, "ndim", 1) != 1:
            return None
        if isinstance(dtype, pd.StringDtype):
            pass
        elif isinstance(dtype, np.dtype) and dtype.kind in "OU":
            values = np.asarray(column)
            if dtype.kind == "O" and pd.api.types.infer_dtype(values, skipna=True) != "string":
                return None
        else:
            return None
        code, labels = pd.factorize(column, use_na_sentinel=True)
        if len(labels) == 0:
            return None
        codes.append(code)
        uniques.append(np.asarray(labels, dtype=object))
    return codes, uniques


def _masked_integer_codes(
    columns: Sequence[Any],
) -> tuple[list[np.ndarray], pd.Index] | None:
    """Nullable integer raters (``Int64``, as long data with unrated cells are pivoted to)
    coded from their values and masks, as :func:`_dense_integer_codes` codes integers.

    None unless every column is a nullable integer or numpy integer Series or array, one
    holds a missing value, all have the same length (two or more), and every value lies
    within ``2**53`` and a range of :data:`_DENSE_RANGE`: the general coding then decides,
    reading the values as Python objects. Missing values are filled with a present value
    for the coding (so they add no label) and then coded ``-1``.
    """
    pairs = []
    for column in columns:
        values = column.array if isinstance(column, pd.Series) else column
        if isinstance(values, pd.arrays.IntegerArray):
            data, mask = values.to_numpy(dtype=values.dtype.numpy_dtype, na_value=0), values.isna()
        elif isinstance(values, pd.arrays.NumpyExtensionArray | np.ndarray) and \
                values.dtype.kind in "iu" and np.ndim(values) == 1:
            data, mask = np.asarray(values), None
        else:
            return None
        pairs.append((data, mask))
    masks = [mask for _, mask in pairs if mask is not None and mask.any()]
    n = len(pairs[0][0])
    if not masks or n < 2 or any(len(data) != n for data, _ in pairs):
        return None
    present = [data[~mask] if mask is not None else data for data, mask in pairs]
    present = [values for values in present if len(values)]
    if not present:
        return None
    lo = min(int(values.min()) for values in present)
    hi = max(int(values.max()) for values in present)
    if lo <= -(2**53) or hi >= 2**53 or hi - lo >= _DENSE_RANGE:
        return None
    fill = present[0][0]
    filled = []
    for data, mask in pairs:
        if mask is not None and mask.any():
            data = data.copy()
            data[mask] = fill
        filled.append(data)
    dense = _dense_integer_codes(filled)
    if dense is None:
        return None
    codes, index = dense
    for code, (_, mask) in zip(codes, pairs, strict=True):
        if mask is not None:
            code[mask] = -1
    return codes, index


def _encode_factorized(
    codes: list[np.ndarray], uniques: list[np.ndarray], names: Sequence[str], categories: Any
) -> Ratings | None:
    """String raters from their factorised columns (:func:`_factorize_strings`), with the
    categories, codes and messages of the general coding; None when it must decide (raters
    of unequal length, fewer than two subjects)."""
    n = len(codes[0])
    if n < 2 or any(len(code) != n for code in codes):
        return None
    if categories is not None:
        index = _check_categories(categories)
        coded = []
        for code, labels, name in zip(codes, uniques, names, strict=True):
            found = index.get_indexer(labels)
            if (found < 0).any():  # labels are in order of first appearance, as pd.unique
                raise ValueError(
                    f"`{name}` has labels outside `categories`: {preview(labels[found < 0])}; "
                    f"declared categories are {preview(index)}."
                )
            coded.append(np.append(found, -1).astype(np.int32)[code])
        scores = _numeric_scores(index)
        if scores is None:
            scores = np.arange(len(index), dtype=float)
        return Ratings(tuple(coded), index, scores, True, tuple(names))
    for labels, name in zip(uniques, names, strict=True):
        _refuse_collection_text(labels, name)
    union, sorted_labels = pd.factorize(np.concatenate(uniques), sort=True)
    if len(sorted_labels) > MAX_CATEGORIES:
        raise ValueError(
            f"The ratings hold {len(sorted_labels)} distinct labels; at most {MAX_CATEGORIES} "
            "categories are supported (are these continuous scores rather than categories?)."
        )
    index = pd.Index(sorted_labels)
    bounds = np.cumsum([0] + [len(labels) for labels in uniques])
    coded = [np.append(union[start:stop], -1).astype(np.int32)[code]
             for code, start, stop in zip(codes, bounds[:-1], bounds[1:], strict=True)]
    _warn_missing_markers(index, coded, names, n, stacklevel=6)
    return Ratings(tuple(coded), index, _numeric_scores(index), False, tuple(names))


def encode_ratings(
    columns: Sequence[Any],
    names: Sequence[str],
    categories: Any = None,
    aggregated: bool = False,
    bounds: tuple[int, int] | None = None,
) -> Ratings:
    """Code the raters' `columns` against one category set.

    Parameters
    ----------
    columns : sequence of 1-D array-likes
        One per rater, all of the same length.
    names : sequence of str
        The argument (or rater) name of each column, used in messages and labels.
    categories : sequence, optional
        The full, ordered scale. Without it the categories are the observed labels: in
        value order for numbers, in their own order for Categoricals, sorted (and
        unordered) for strings.
    aggregated : bool, default False
        Whether each row stands for several subjects (frequency weights), so that a
        single row is data.
    bounds : (int, int), optional
        The smallest and largest value of integer `columns`, when the caller has read
        them (:func:`irr._long.split_array`): not read again.

    Returns
    -------
    Ratings
    """
    if categories is None and len(columns) > 2 and all(
            type(c) is np.ndarray and c.ndim == 1 and c.dtype.kind in "iu" for c in columns):
        # plain integer arrays of equal length (a 2-D array's columns,
        # :func:`irr._long.split_array`): no strings to factorise, no mask, each its own
        # 1-D array, so the dense codes the general path below comes to, without its checks
        n = len(columns[0])
        if n >= 2 and all(len(c) == n for c in columns):
            dense = _dense_integer_codes(list(columns), bounds)
            if dense is not None:
                codes, index = dense
                return Ratings(tuple(codes), index, _numeric_scores(index), True, tuple(names))
    factorized = _factorize_strings(columns)
    if factorized is not None:
        ratings = _encode_factorized(*factorized, names, categories)
        if ratings is not None:
            return ratings
    if categories is None:
        masked = _masked_integer_codes(columns)
        if masked is not None:
            codes, index = masked
            return Ratings(tuple(codes), index, _numeric_scores(index), True, tuple(names))
    arrays = [as_1d(column, name) for column, name in zip(columns, names, strict=True)]
    lengths = {name: len(a) for a, name in zip(arrays, names, strict=True)}
    if len(set(lengths.values())) > 1:
        shown = ", ".join(f"`{n}` has {m}" for n, m in lengths.items())
        raise ValueError(f"All raters must rate the same subjects: {shown} ratings.")
    if next(iter(lengths.values())) == 0:
        raise ValueError(f"`{names[0]}` is empty: there are no subjects to compare.")
    if next(iter(lengths.values())) == 1 and not aggregated:
        raise ValueError(f"`{names[0]}` has a single subject; agreement needs at least two.")

    if len(arrays) == 2 and all(
            isinstance(a, np.ndarray) and a.dtype.kind in "iu" for a in arrays):
        paired = _encode_integer_pair(arrays, names, categories)
        if paired is not None:
            return paired

    if categories is not None:
        index = _check_categories(categories)
        codes = []
        for array, name in zip(arrays, names, strict=True):
            values = np.asarray(array, dtype=object) if isinstance(array, pd.Categorical) else array
            missing = _missing(array)
            try:
                code = index.get_indexer(values)
            except TypeError:  # unhashable values: collections, named here
                refuse_nested(values, name)
                raise
            outside = (code < 0) & ~missing
            if outside.any():
                refuse_nested(values[outside], name)  # tuples are hashable
                bad = pd.unique(np.asarray(values, dtype=object)[outside])
                raise ValueError(
                    f"`{name}` has labels outside `categories`: {preview(bad)}; "
                    f"declared categories are {preview(index)}."
                )
            codes.append(code.astype(np.int32))
        scores = _numeric_scores(index)
        if scores is None:
            scores = np.arange(len(index), dtype=float)
        return Ratings(tuple(codes), index, scores, True, tuple(names))

    if all(isinstance(a, pd.Categorical) for a in arrays):
        return _encode_categoricals(arrays, names)
    arrays = [
        np.asarray(a, dtype=object) if isinstance(a, pd.Categorical) else a for a in arrays
    ]

    if all(a.dtype.kind in "iu" for a in arrays):
        dense = _dense_integer_codes(arrays, bounds)
        if dense is not None:
            codes, index = dense
            return Ratings(tuple(codes), index, _numeric_scores(index), True, tuple(names))

    by_rater = {name: _check_label_kinds(array[~_missing(array)], name)
                for array, name in zip(arrays, names, strict=True)}
    kinds = set(by_rater.values())
    if len(kinds) > 1:
        shown = ", ".join(f"`{name}`: {kind}" for name, kind in by_rater.items())
        raise TypeError(
            f"The raters use different label types ({shown}); convert them to one type "
            "first, or leave out a column that holds no ratings (an identifier)."
        )
    kind = kinds.pop()
    stacked = _stack(arrays)
    if kind in ("number", "bool") and stacked.dtype == object:
        missing = np.asarray(pd.isna(stacked), dtype=bool)
        if kind == "bool" or _exactly_float(stacked, missing):
            stacked = np.where(missing, np.nan, stacked).astype(float)
        else:  # integers beyond 2**53: factorised as Python numbers, exactly
            stacked = np.where(missing, None, stacked)
    codes_all, uniques = pd.factorize(stacked, sort=True, use_na_sentinel=True)
    if len(uniques) == 0:
        raise ValueError("Every rating is missing: there are no labels to compare.")
    if len(uniques) > MAX_CATEGORIES:
        raise ValueError(
            f"The ratings hold {len(uniques)} distinct labels; at most {MAX_CATEGORIES} "
            "categories are supported (are these continuous scores rather than categories?)."
        )
    index = pd.Index(uniques)
    if kind == "str":
        n = len(arrays[0])
        # each rater's labels, when its first one is a list as text (read only when some
        # distinct label begins as one does)
        if any(label.lstrip().startswith(("[", "{")) for label in uniques):
            for i, name in enumerate(names):
                code = codes_all[i * n : (i + 1) * n]
                first = code[np.argmax(code >= 0)]
                if first >= 0 and _COLLECTION_TEXT.fullmatch(uniques[first]):
                    _refuse_collection_text(np.asarray(uniques, dtype=object)[
                        np.unique(code[code >= 0])], name)
        _warn_missing_markers(index, codes_all, names, n)
    if kind == "bool":
        index = index.astype(bool)
    elif (
        kind == "number"
        and index.dtype.kind == "f"
        and np.all(np.mod(index, 1) == 0)
        and np.abs(index).max() < 2.0**63
    ):
        index = index.astype(np.int64)
    n = len(arrays[0])
    codes = tuple(codes_all[i * n : (i + 1) * n].astype(np.int32) for i in range(len(arrays)))
    scores = _numeric_scores(index)
    return Ratings(codes, index, scores, scores is not None, tuple(names))


def missing_markers(labels: Any) -> list[str]:
    """The labels of `labels` that look like missing-value markers (:data:`MISSING_MARKERS`).

    Examples
    --------
    >>> missing_markers(["mild", ".", "severe", " NA "])
    ['.', ' NA ']
    """
    return [v for v in labels if isinstance(v, str) and v.strip() in MISSING_MARKERS]


def _warn_missing_markers(index: pd.Index, codes: np.ndarray | Sequence[np.ndarray],
                          names: Sequence[str], n: int, stacklevel: int = 5) -> None:
    """Warn, naming the raters, when string labels look like missing-value markers.

    `codes` are the raters' codes end to end (n each), or one array per rater."""
    import warnings

    markers = missing_markers(index)
    if not markers:
        return
    marked = np.flatnonzero(np.isin(index, markers))
    per_rater = ([codes[i * n : (i + 1) * n] for i in range(len(names))]
                 if isinstance(codes, np.ndarray) else codes)
    holders = [name for name, code in zip(names, per_rater, strict=True)
               if np.isin(code, marked).any()]
    warnings.warn(
        f"The labels {preview(markers)} (in {', '.join(f'`{h}`' for h in holders)}) look like "
        "missing-value markers but are counted as categories; mark them missing (None/NaN, "
        "or --na-values on the command line), or pass `categories=` including them to keep "
        "them as categories.",
        UserWarning,
        stacklevel=stacklevel,
    )


def _encode_categoricals(arrays: list[pd.Categorical], names: Sequence[str]) -> Ratings:
    first = arrays[0]
    ordered = any(a.ordered for a in arrays)
    same = all(a.categories.equals(first.categories) for a in arrays)
    if same:
        index = first.categories
        codes = tuple(a.codes.astype(np.int32) for a in arrays)
    else:
        if ordered:
            raise ValueError(
                "The raters' ordered Categoricals have different categories "
                f"({preview(first.categories)} and others); pass `categories=` to fix one scale."
            )
        index = pd.Index(sorted(set().union(*(a.categories for a in arrays))))
        codes = tuple(
            index.get_indexer(np.asarray(a, dtype=object)).astype(np.int32) for a in arrays
        )
    if len(index) > MAX_CATEGORIES:
        raise ValueError(f"The ratings hold {len(index)} categories; at most {MAX_CATEGORIES}.")
    scores = _numeric_scores(index)
    if scores is None and ordered:
        scores = np.arange(len(index), dtype=float)
    return Ratings(codes, index, scores, ordered or scores is not None, tuple(names))


def validate_table(table: Any, name: str = "table") -> np.ndarray:
    """Return a square table of non-negative integral counts as int64, or raise."""
    array = numeric_array(table, name, "a k x k table of counts")
    if array.ndim != 2 or array.shape[0] != array.shape[1]:
        raise ValueError(f"`{name}` must be a square k x k table; got shape {array.shape}.")
    if array.shape[0] < 1:
        raise ValueError(f"`{name}` is empty.")
    if array.shape[0] > MAX_CATEGORIES:
        raise ValueError(f"`{name}` has {array.shape[0]} categories; at most {MAX_CATEGORIES}.")
    return exact_counts(array, name, "counts")


def numeric_array(values: Any, name: str, expected: str) -> np.ndarray:
    """`values` (a DataFrame's values) as a numeric ndarray, or raise naming `expected`."""
    if isinstance(values, pd.DataFrame):
        values = values.to_numpy()
    try:
        array = np.asarray(values)
    except ValueError as exc:
        refuse_nested_rows(values, name)
        raise ValueError(f"`{name}` must be {expected}: {exc}") from None
    if array.dtype.kind not in "iufb":
        if array.dtype.kind == "O":
            refuse_nested(array.ravel(), name)
        raise TypeError(f"`{name}` must hold numeric counts; got dtype {array.dtype}.")
    return array


def exact_counts(array: np.ndarray, name: str, noun: str) -> np.ndarray:
    """Numeric `array` as exact non-negative int64 counts with a bounded total, or raise.

    `noun` names the elements in the messages (``"counts"`` or ``"entries"``).
    """
    if array.dtype.kind == "u" and array.max(initial=0) >= 2**63:
        raise ValueError(
            f"`{name}` has {noun} too large to represent exactly: "
            f"{preview(np.unique(array[array >= 2**63]))}."
        )
    if array.dtype.kind == "f":
        bad = array[~np.isfinite(array)]
        if bad.size:
            raise ValueError(f"`{name}` has non-finite {noun}: {preview(np.unique(bad))}.")
        fractional = array[array != np.round(array)]
        if fractional.size:
            raise ValueError(
                f"`{name}` has non-integer {noun}: {preview(np.unique(fractional))}."
            )
        if np.abs(array).max(initial=0) >= 2.0**63:
            raise ValueError(f"`{name}` has {noun} too large to represent exactly.")
    array = array.astype(np.int64)
    if (array < 0).any():
        raise ValueError(
            f"`{name}` has negative {noun}: {preview(np.unique(array[array < 0]))}."
        )
    check_total(array, name)
    return array


#: Largest total count accepted: int64 sums of counts stay exact below it.
MAX_TOTAL = 2**62


def check_total(counts: np.ndarray, name: str) -> None:
    """Raise if non-negative int64 `counts` sum to more than :data:`MAX_TOTAL`."""
    total = float(counts.sum(dtype=np.float64))
    if total > MAX_TOTAL:
        raise ValueError(
            f"`{name}` counts sum to {total:.4g}; at most 2**62 (about 4.6e18) subjects are "
            "supported, so that totals stay exact in 64-bit integers."
        )


# -- real-valued (continuous) ratings ------------------------------------------------------
#: Continuous ratings: numeric ratings with a non-integer value and more than this many
#: distinct values (irr._columns.MAX_CATEGORIES: a half-point 1..5 scale stays a scale of
#: categories), or more distinct values than a category scale may have (MAX_CATEGORIES).
CONTINUOUS_DISTINCT = 10

#: Values looked at first when counting distinct values: enough of them settle it.
_SAMPLE = 1 << 16


def real_values(values: Any, name: str) -> np.ndarray | None:
    """One rater's numeric ratings as float64 (nan = missing), or None when they are not
    numbers (strings, booleans, Categoricals: labels, never continuous).

    Integers beyond 2**53 (no float64 holds them exactly) are not real values either.

    Examples
    --------
    >>> real_values([1.5, None, 2], "x")
    array([1.5, nan, 2. ])
    >>> real_values(["a", "b"], "x") is None, real_values([True, False], "x") is None
    (True, True)
    """
    if isinstance(getattr(values, "dtype", None), pd.StringDtype):
        return None  # text, read without converting the column to Python objects
    array = as_1d(values, name)
    if isinstance(array, pd.Categorical):
        return None
    kind = array.dtype.kind
    if kind == "f":
        return array
    if kind in "iu":
        if array.size and max(abs(int(array.min())), abs(int(array.max()))) >= 2**53:
            return None
        return array.astype(np.float64)
    inferred = pd.api.types.infer_dtype(array, skipna=True) if kind == "O" else None
    if inferred not in ("integer", "floating", "mixed-integer-float", "decimal"):
        if inferred in ("mixed", "mixed-integer"):  # (only these may hold collections)
            refuse_nested(array, name)
        return None
    missing = np.asarray(pd.isna(array), dtype=bool)
    if not _exactly_float(array, missing):
        return None
    out = np.where(missing, np.nan, array).astype(np.float64)
    if np.isinf(out).any():
        raise ValueError(f"`{name}` contains infinite ratings: {preview(out[np.isinf(out)])}.")
    return out


def decimal_text(values: Any) -> np.ndarray | None:
    """Text that reads as decimal numbers, as float64 (nan = missing), or None.

    Every present value is a string that reads as a finite number, and one of them has a
    fraction (``'12.3456789012'``): measurements written as text. Integer text
    (``'1'``, ``'007'``), Categoricals and any other label give None. Text is never read as a
    measurement (:func:`real_values`); this is for the messages that say so. A 1-D numpy
    array of text (masked values missing too) is read without pandas.

    Examples
    --------
    >>> decimal_text(["12.5", None, "13.25"])
    array([12.5 ,   nan, 13.25])
    >>> decimal_text(["1", "2"]) is None, decimal_text(["1.5", "x"]) is None
    (True, True)
    >>> decimal_text(np.ma.masked_array(["2.5", "x", "3"], mask=[False, True, False]))
    array([2.5, nan, 3. ])
    """
    if isinstance(values, np.ndarray) and values.ndim == 1 and values.dtype.kind in "OU":
        array = np.asarray(values).astype(object, copy=False)  # masked: the mask below
        missing = object_missing(array) | np.ma.getmaskarray(values)
    else:
        if is_pandas(getattr(values, "dtype", None), "StringDtype"):
            # pandas' text columns: labels fail on the first values, read without
            # converting the column to Python objects
            first = values.iloc if isinstance(values, pd.Series) else values
            head = pd.Series(first[:4 * _PREFIX_TEXT]).dropna()[:_PREFIX_TEXT]
            if head.size and _text_numbers(head.to_numpy(dtype=object)) is None:
                return None
        array = as_1d(values, "values")
        if isinstance(array, pd.Categorical) or array.dtype.kind not in "OU":
            return None
        missing = object_missing(array)
    present = array[~missing]
    head = present[:_PREFIX_TEXT]  # labels fail on the first values, before any hashing
    if not head.size or not _all_text(head) or _text_numbers(head) is None \
            or not _all_text(present):
        return None
    # each distinct text parsed once: its index in order of first appearance
    distinct = dict.fromkeys(present)
    numbers = _text_numbers(np.fromiter(distinct, dtype=object, count=len(distinct)))
    if numbers is None or not (numbers != np.round(numbers)).any():
        return None
    position = dict(zip(distinct, range(len(distinct)), strict=True))
    codes = np.fromiter(map(position.__getitem__, present), dtype=np.intp, count=present.size)
    out = np.full(array.shape, np.nan)
    out[~missing] = numbers[codes]
    return out


#: A finite decimal number as pd.to_numeric reads text: ASCII digits, an optional sign,
#: point and exponent, ASCII spaces around (float() alone would also read "1_000", other
#: scripts' digits, "inf" and "nan").
_NUMBER_TEXT = re.compile(r"\s*[+-]?(?:\d+\.?\d*|\.\d+)(?:[eE][+-]?\d+)?\s*", re.ASCII)


def _all_text(values: np.ndarray) -> bool:
    return all(issubclass(t, str) for t in set(map(type, values)))


def _text_numbers(texts: np.ndarray) -> np.ndarray | None:
    """Strings as float64 when each is a finite number written in decimal, else None."""
    if not all(map(_NUMBER_TEXT.fullmatch, texts)):
        return None
    numbers = np.fromiter(map(float, texts), dtype=float, count=len(texts))
    return numbers if np.isfinite(numbers).all() else None


def object_missing(objects: np.ndarray) -> np.ndarray:
    """Which values of a 1-D object array are missing, as ``pd.isna`` says: None and NaN
    (float, complex, Decimal), NaT, and pandas' NA; pandas is imported only for an NA
    (an object only pandas makes).

    Examples
    --------
    >>> object_missing(np.array(["a", None, float("nan"), 2, np.datetime64("NaT")], object))
    array([False,  True,  True, False,  True])
    """
    try:
        with np.errstate(invalid="ignore"):
            return np.asarray(np.equal(objects, None) | np.not_equal(objects, objects),
                              dtype=bool)
    except Exception:  # pandas' NA has no truth value; a signalling NaN; arrays as cells
        if "pandas" in sys.modules:
            return np.asarray(pd.isna(objects), dtype=bool)
        return np.fromiter(map(_missing_object, objects), dtype=bool, count=objects.size)


def _missing_object(value: Any) -> bool:
    if value is None:
        return True
    if isinstance(value, Decimal):
        return value.is_nan()
    try:
        return bool(value != value)
    except Exception:  # an array or another object with no truth value: present
        return False


def is_pandas(value: Any, name: str) -> bool:
    """Whether `value` is an instance of pandas' class `name` (``"DataFrame"``,
    ``"Series"``, ``"StringDtype"``, ...), without importing pandas: nothing is one before
    pandas was imported.

    Examples
    --------
    >>> is_pandas(np.arange(3), "Series")
    False
    """
    pandas = sys.modules.get("pandas")
    return pandas is not None and isinstance(value, getattr(pandas, name))


#: Values looked at before a whole column of text is parsed (:func:`decimal_text`).
_PREFIX_TEXT = 64


def _more_distinct_than(values: Sequence[np.ndarray], limit: int) -> bool:
    """Whether the finite values of the float arrays hold more than `limit` distinct
    values; a sample first, then one hashing pass when the sample does not settle it."""
    seen: np.ndarray = np.zeros(0)
    for v in values:
        seen = np.unique(np.concatenate([seen, v[: _SAMPLE]]))
        if np.count_nonzero(~np.isnan(seen)) > limit:
            return True
    total = sum(v.size for v in values)
    if total <= _SAMPLE:
        return False
    finite = [v[~np.isnan(v)] for v in values]
    lo = min((float(v.min()) for v in finite if v.size), default=0.0)
    hi = max((float(v.max()) for v in finite if v.size), default=0.0)
    if hi - lo < limit and all((v == np.round(v)).all() for v in finite):
        return False  # integers within a range of `limit`: at most `limit` values
    return len(pd.unique(np.concatenate(finite))) > limit


def fractional_value(values: Sequence[np.ndarray]) -> float | None:
    """The first non-integer finite value of the float arrays, or None."""
    for v in values:
        for start in range(0, v.size, CHUNK):
            block = v[start : start + CHUNK]
            frac = block != np.floor(block)
            frac &= ~np.isnan(block)
            if frac.any():
                return float(block[np.argmax(frac)])
    return None


def continuous_values(values: Sequence[np.ndarray]) -> bool:
    """Whether real-valued ratings are continuous measurements rather than categories.

    Non-integer values and more than :data:`CONTINUOUS_DISTINCT` distinct values, or more
    distinct values than a category scale may have (:data:`MAX_CATEGORIES`).

    Examples
    --------
    >>> continuous_values([np.array([1.0, 1.5, 2.0, 2.5, 3.0])])   # a half-point scale
    False
    >>> continuous_values([np.linspace(100.5, 140.5, 41)])
    True
    >>> continuous_values([np.arange(20.0)])                       # integer scores
    False
    """
    if fractional_value(values) is not None:
        return _more_distinct_than(values, CONTINUOUS_DISTINCT)
    return _more_distinct_than(values, MAX_CATEGORIES)


# -- pandas labels -----------------------------------------------------------------------------
def align_to_index(values: Any, index: pd.Index | None, name: str, against: str) -> Any:
    """`values` in the order of `index` when both carry subject labels, or raise.

    The one rule of :mod:`irr` for pandas labels: a Series whose index differs from the
    subjects' `index` is reordered to it when the two hold the same labels, each once
    (``s.sort_values()`` against ``s``); different labels, or a repeated label, raise a
    ValueError naming `name` and echoing the labels, since matching by position would
    pair values with the wrong subjects. Positions are used when either side has no
    labels (a list or ndarray, or `index` None), when the indexes are equal, and when
    both are RangeIndexes (default labels, as after ``reset_index``).

    Examples
    --------
    >>> s = pd.Series([10, 20], index=["b", "a"])
    >>> align_to_index(s, pd.Index(["a", "b"]), "x", "the subjects").tolist()
    [20, 10]
    """
    if index is None or not isinstance(values, pd.Series | pd.DataFrame):
        return values
    labels = values.index
    if labels.equals(index) or (
        isinstance(labels, pd.RangeIndex) and isinstance(index, pd.RangeIndex)
    ):
        return values
    hint = (f"align them first (e.g. `{name}.reindex(...)`), or pass `.to_numpy()` to "
            "match by position")
    for side, idx in ((f"`{name}`", labels), (against, index)):
        if idx.has_duplicates:
            raise ValueError(
                f"The index of {side} repeats labels {preview(idx[idx.duplicated()].unique())},"
                f" so `{name}` cannot be matched to {against} by label; {hint}."
            )
    extra = labels.difference(index, sort=False)
    lacking = index.difference(labels, sort=False)
    if len(extra) or len(lacking):
        found = []
        if len(extra):
            found.append(f"{preview(extra)} only in `{name}`")
        if len(lacking):
            found.append(f"{preview(lacking)} only in {against}")
        raise ValueError(
            f"The index labels of `{name}` and {against} differ ({'; '.join(found)}); "
            f"pandas objects are matched by index label, never by position: {hint}."
        )
    return values.reindex(index)


def align_columns(columns: list[Any], names: Sequence[str]) -> tuple[list[Any], pd.Index | None]:
    """The raters' columns with every pandas Series aligned on the first one's index.

    Returns the columns and the subjects' labels (the first Series' index; None when no
    column is a Series). See :func:`align_to_index` for the rule.

    Examples
    --------
    >>> a = pd.Series([1, 2, 3], index=[7, 8, 9])
    >>> columns, index = align_columns([a, a[::-1]], ["a", "b"])
    >>> columns[1].tolist(), index.tolist()
    ([1, 2, 3], [7, 8, 9])
    """
    labelled = [j for j, c in enumerate(columns) if isinstance(c, pd.Series)]
    if not labelled:
        return columns, None
    first = labelled[0]
    index = columns[first].index
    out = list(columns)
    for j in labelled[1:]:
        out[j] = align_to_index(columns[j], index, names[j], f"`{names[first]}`")
    return out, index
