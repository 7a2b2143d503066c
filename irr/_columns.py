"""Which columns of a wide frame are ratings, and whether numeric ratings look continuous.

One rule for the API (:meth:`irr.Agreement.from_frame`) and the command line, so that an
identifier column (a patient number, a site code) is never taken as a rater silently and
decimal scores are never treated as categories silently.

Identifier columns
    When the rater columns are not named, a column is set aside as an identifier when

    1. it is named as one (``id=`` / ``--id``);
    2. its name is an identifier's: a word of :data:`ID_WORDS` (``id``, ``subject``,
       ``patient``, ``site``, ``case``, ``record``, ...) alone or followed by ``id``,
       ``no``, ``number``, ``code`` ... (``Patient ID``, ``case_no``, ``patientid``), or a
       name whose last word is ``id`` (``study_id``); words are split at ``_``, ``-``,
       ``.``, spaces and camelCase;
    3. its label type (number, string or bool) differs from the type most of the other
       columns share (strings among numbers, numbers among strings);
    4. every value is present and distinct (integers or strings) in more than
       :data:`MAX_CATEGORIES` rows, while at least two other columns remain and each
       repeats its values and looks categorical, or each holds non-integer decimals;
    5. it is numeric, distinct in every row (integers) or one value in every row, and its
       values lie far from the range most numeric columns share: the gap exceeds the
       smaller of the two ranges' widths (the group's width for a constant column), and
       at least 1 (accession numbers 5000..5039 beside scores 20..80; a patient number
       11..18 beside grades 1..3; ``year`` = 2020 beside grades 1..5). Ranges are grouped
       where they overlap or lie close; the group with the most columns holds the ratings
       (no group is preferred on a tie);
    6. its integers run consecutively, one per row (lo, lo+1, ..., lo+n-1 in any order),
       in more than :data:`MAX_CATEGORIES` rows, and no other column does (rankings of
       every rater are all runs);
    7. it holds one label in every row, or a distinct label in every row, that no other
       column uses (a site name beside grades, case codes beside grades); decimal numbers
       written as text (``'12.3456789012'``) are measurements, never identifiers.

    A rater who gives every subject the same rating, or a distinct one, is not set aside:
    rules 5-7 ask that the column's values be foreign to the others'. Rules 2, 5 and 7
    apply to files of any size.

    When the label types split evenly (no majority), or fewer than two columns would be
    left, the columns cannot be told apart and a ValueError names them and the options.

Columns
    :func:`choose_columns` reads a pandas DataFrame, or a mapping of column names (in
    column order) to 1-D numpy arrays: what DuckDB's ``relation.fetchnumpy()`` returns. In
    an array, a ``numpy.ma.MaskedArray``'s masked values, NaN, NaT and None are missing.
    A DataFrame's columns are read in that form (a categorical keeps its levels, which
    decide its label type and range), so one set of rules serves both, and pandas is not
    imported for numpy columns.

Continuous scores
    Numeric ratings look continuous when a value is not an integer, or when there are more
    than :data:`MAX_CATEGORIES` (10) distinct values: beyond that, a scale is read as scores
    (ICC, interval alpha) rather than categories (kappa, AC1), whatever the number of
    subjects. Category statistics on such data are computed only when asked for, with a
    warning.
"""

from __future__ import annotations

import re
import sys
import warnings
from collections import Counter
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from decimal import Decimal
from functools import cached_property
from typing import Any

import numpy as np

from irr._data import (
    UNNEST,
    decimal_text,
    is_pandas,
    nested_type,
    object_missing,
    refuse_nested,
)
from irr._lazy import lazy_module

# imported by the functions that take pandas objects: the rules read numpy columns
pd = lazy_module("pandas")

__all__ = ["ID_WORDS", "MAX_CATEGORIES", "ColumnChoice", "ContinuousScoresWarning",
           "choose_columns", "continuity", "looks_continuous", "missing_tokens", "rating_frame",
           "refuse_missing_tokens", "replicate_columns", "scale_info"]

#: Words that name an identifier, not a rater (compared in lower case).
ID_WORDS = frozenset({
    "id", "ids", "uid", "uuid", "index", "idx", "row", "subject", "subjects", "subj",
    "patient", "patients", "participant", "person", "respondent", "site", "sites", "centre",
    "center", "hospital", "clinic", "case", "cases", "record", "records", "item", "items",
    "unit", "units", "study", "visit", "specimen", "sample", "slide", "mrn", "encounter",
    "pid", "sid",
})
#: Words that may follow an identifier word in an identifier's name ("patient_no").
_ID_SUFFIXES = frozenset({"id", "ids", "no", "nr", "num", "number", "code", "key", "label"})

#: Names made of these words alone are a row number's ("no", "No.", "#", "number").
_NUMBER_NAMES = frozenset({"no", "nr", "num", "number"})

#: An identifier word of three letters or more and a suffix written as one word
#: ("patientid", "caseno").
_JOINED_IDS = frozenset(word + suffix for word in ID_WORDS if len(word) > 2
                        for suffix in _ID_SUFFIXES)

#: More distinct numeric values than this make numeric ratings look continuous.
MAX_CATEGORIES = 10
#: The most rating columns a message lists by name; more are counted.
_LISTED_RATERS = 10


class ContinuousScoresWarning(UserWarning):
    """A statistic that takes each value as a category was asked of continuous scores."""


@dataclass(frozen=True)
class ColumnChoice:
    """The rating columns of a wide frame and the columns set aside as identifiers.

    Attributes
    ----------
    raters : tuple
        The rating columns, in the frame's order.
    ids : tuple
        Columns set aside (named by the caller or detected), in the frame's order.
    reasons : Mapping
        Why each column of `ids` was set aside.
    detected : tuple
        The columns of `ids` that the caller did not name (they deserve a message).
    """

    raters: tuple[Any, ...]
    ids: tuple[Any, ...] = ()
    reasons: Mapping[Any, str] = field(default_factory=dict)
    detected: tuple[Any, ...] = ()

    def describe(self, raters_option: str = "raters=", id_option: str = "id=") -> str:
        """One sentence on the detected identifier columns and how to override ("" if none).

        Examples
        --------
        >>> import pandas as pd
        >>> df = pd.DataFrame({"patient": [1, 2, 3], "a": [1, 2, 2], "b": [1, 2, 1]})
        >>> print(choose_columns(df).describe())  # doctest: +ELLIPSIS
        Column 'patient' (its name) set aside as an identifier; the ratings are columns ...
        """
        if not self.detected:
            return ""
        aside = ", ".join(f"{c!r} ({self.reasons[c]})" for c in self.detected)
        plural = "s" if len(self.detected) > 1 else ""
        # many raters (a crowd) are counted, with the first and the last, not all listed
        raters = (", ".join(map(repr, self.raters)) if len(self.raters) <= _LISTED_RATERS
                  else f"{self.raters[0]!r}, {self.raters[1]!r}, ..., {self.raters[-1]!r} "
                  f"({len(self.raters):,} columns)")
        return (
            f"Column{plural} {aside} set aside as {'identifiers' if plural else 'an identifier'}; "
            f"the ratings are columns {raters}. Name the rating "
            f"columns with {raters_option} (or the identifiers with {id_option}) to choose "
            "otherwise."
        )


def _words(name: Any) -> list[str]:
    text = re.sub(r"([a-z0-9])([A-Z])", r"\1 \2", str(name))
    return [w for w in re.split(r"[^0-9A-Za-z]+", text.lower()) if w]


def _named_as_id(name: Any) -> bool:
    """A name that is an identifier's: an identifier word alone or followed by id/no/code
    ("patient", "Patient ID", "case_no", "patientid"), or any name ending in "id"
    ("study_id"). A rater's name that merely contains such a word ("site A reader") is
    not one."""
    if str(name).strip() == "#":
        return True
    words = _words(name)
    if not words:
        return False
    if len(words) == 1 and words[0] in _NUMBER_NAMES:
        return True
    if words[-1] in ("id", "ids", "uid", "uuid"):
        return True
    if words[0] in ID_WORDS and all(w in _ID_SUFFIXES for w in words[1:]):
        return True
    return "".join(words) in _JOINED_IDS


#: Rows looked at first when asking whether a column's values are all distinct or all
#: equal: a repeat and a change among them settle both questions without a full pass.
_PREFIX = 1024


class _Column:
    """One column in numpy form: its values (labels as Python objects), the values known
    to be missing (`mask`: a masked array's mask; None when none is known) and a
    categorical's levels (None for other columns). Missing values are those masked and
    NaN, NaT and None (:attr:`missing`). What the rules ask of a column is worked out once,
    on the first :data:`_PREFIX` rows (:attr:`head`) where they settle it."""

    levels: np.ndarray | None = None

    def __init__(self, values: np.ndarray, mask: np.ndarray | None = None) -> None:
        self.values = values
        self.mask = mask

    @property
    def n(self) -> int:
        return len(self.values)

    @cached_property
    def missing(self) -> np.ndarray | None:
        """Which values are missing (None when none is)."""
        values = self.values
        kind = values.dtype.kind
        found = (np.isnan(values) if kind in "fc" else np.isnat(values) if kind in "mM"
                 else object_missing(values) if kind == "O" else None)
        missing = self.mask if found is None else found if self.mask is None \
            else found | self.mask
        return missing if missing is not None and missing.any() else None

    @cached_property
    def present(self) -> np.ndarray:
        return self.values if self.missing is None else self.values[~self.missing]

    @property
    def count(self) -> int:
        """How many values are present."""
        return self.n - (0 if self.missing is None else int(self.missing.sum()))

    @cached_property
    def head(self) -> _Column:
        """The first :data:`_PREFIX` rows."""
        if self.n <= _PREFIX:
            return self
        return _Column(self.values[:_PREFIX], None if self.mask is None else
                       self.mask[:_PREFIX])

    @cached_property
    def kind(self) -> str:
        """'number', 'string', 'bool', 'empty', 'nested' (lists, arrays: never labels)
        or 'other': the type of the labels (a categorical's: of its levels)."""
        if not self.n:
            return "empty"
        values = self.values
        if self.levels is None and values.dtype.kind != "O" and self.head is not self \
                and self.head.kind != "empty":
            return self.head.kind  # a value present in the first rows: the dtype says
        if self.levels is None and self.mask is None:
            if values.dtype.kind in "iub":  # never missing: the dtype says
                return "bool" if values.dtype.kind == "b" else "number"
            if values.dtype.kind == "O":
                types = set(map(type, values))
                types.discard(type(None))
                if all(issubclass(t, _NEVER_MISSING) and not issubclass(t, np.timedelta64)
                       for t in types):  # only None can be missing: no pass to find them
                    return _kind_of_types(types) if types else "empty"
        if self.missing is not None and self.missing.all():
            return "empty"
        if self.levels is not None or values.dtype.kind != "O":
            return _label_kind(self.present if self.levels is None else self.levels)
        types = set(map(type, self.present))
        if self.missing is not None:
            # as pandas' infer_dtype: NaT and Decimal('NaN') are missing but typed (NaT
            # among numbers makes them mixed); None, NaN and NA are skipped (masked values
            # are fillers, never typed)
            own = self.missing if self.mask is None else self.missing & ~self.mask
            types |= {t for t in set(map(type, values[own])) if not _skipped_missing(t)}
        return _kind_of_types(types)

    @cached_property
    def numbers(self) -> np.ndarray:
        """The finite values of a numeric column (a categorical's levels) as float64; empty
        when the column is not numeric."""
        if self.kind != "number":
            return np.zeros(0)
        numbers = (self.present if self.levels is None else self.levels).astype(float)
        return numbers[np.isfinite(numbers)]

    @cached_property
    def distinct(self) -> int:
        """How many distinct values are present."""
        return _count_distinct(self.present)

    @cached_property
    def prefix_repeats(self) -> tuple[bool, bool]:
        """Whether the first :data:`_PREFIX` values repeat a value, and whether they hold
        two different values (missing values count as one value)."""
        head = self.head
        distinct = head.distinct + (head.missing is not None)
        return distinct < min(self.n, _PREFIX), distinct > 1

    @cached_property
    def repeats(self) -> bool:
        """Whether a present value repeats (the first rows first)."""
        head = self.head
        return head.distinct < head.count or self.distinct < self.count

    @cached_property
    def fractional(self) -> bool:
        """Whether a value is a non-integer number (numpy numbers: the first rows first,
        which settle it for measurements without a pass over the column)."""
        kind = self.values.dtype.kind
        if self.levels is None and kind in "iu":
            return False  # integers (as float64 too)
        if self.levels is None and kind == "f" and self.head is not self:
            head = self.head.numbers
            if (head != np.round(head)).any():
                return True
        numbers = self.numbers
        return bool((numbers != np.round(numbers)).any())


class _SeriesColumn(_Column):
    """A pandas Series in numpy form, converted on first use: its missing values as pandas
    says, nullable numbers and booleans as numpy ones, other extension types as Python
    objects, a categorical's values (with its levels). Text, nullable numbers and booleans
    are typed by their dtype, and distinct values counted by pandas, without converting
    the column."""

    def __init__(self, series: Any) -> None:
        self.series = series
        dtype = series.dtype
        if isinstance(dtype, pd.CategoricalDtype):
            levels = dtype.categories.to_numpy()
            self.levels = levels.astype(object) if levels.dtype.kind in "US" else levels

    @property
    def n(self) -> int:
        return len(self.series)

    @cached_property
    def mask(self) -> np.ndarray | None:  # type: ignore[override]
        return self.series.isna().to_numpy(dtype=bool)

    @cached_property
    def missing(self) -> np.ndarray | None:
        return self.mask if self.mask.any() else None

    @cached_property
    def values(self) -> np.ndarray:  # type: ignore[override]
        series, dtype = self.series, self.series.dtype
        if self.levels is not None:
            codes = series.cat.codes.to_numpy()
            return (self.levels.take(codes) if self.levels.size  # (-1: a level, missing)
                    else np.full(codes.size, None, dtype=object))
        numeric = getattr(dtype, "numpy_dtype", None)
        if isinstance(numeric, np.dtype) and numeric.kind in "iubf":
            fill = np.nan if numeric.kind == "f" else False if numeric.kind == "b" else 0
            return series.to_numpy(dtype=numeric, na_value=fill)
        return series.to_numpy(dtype=object, na_value=None)

    @cached_property
    def head(self) -> _Column:
        return self if self.n <= _PREFIX else _series_column(self.series.iloc[:_PREFIX])

    @cached_property
    def kind(self) -> str:
        dtype = self.series.dtype
        numeric = getattr(dtype, "numpy_dtype", None)
        known = ("string" if isinstance(dtype, pd.StringDtype)
                 else None if self.levels is not None or not isinstance(numeric, np.dtype)
                 else "number" if numeric.kind in "iuf" else "bool" if numeric.kind == "b"
                 else None)
        if known is None:
            return super().kind
        return "empty" if not self.n or (self.missing is not None and self.missing.all()) \
            else known

    @cached_property
    def distinct(self) -> int:
        return int(self.series.nunique(dropna=True))


def _numpy_column(array: np.ndarray, name: Any = None) -> _Column:
    """A 1-D numpy array in column form (masked values missing; text as Python strings)."""
    values = np.asarray(array)
    if values.ndim != 1:
        raise ValueError(f"Column {name!r} must be a 1-D array; got an array of shape "
                         f"{values.shape}.")
    if values.dtype.kind in "US":
        values = values.astype(object)
    return _Column(values, np.ma.getmaskarray(array) if np.ma.is_masked(array) else None)


def _series_column(series: Any) -> _Column:
    """A pandas Series in column form (numpy dtypes read in place)."""
    if isinstance(series.dtype, np.dtype):
        return _numpy_column(series.to_numpy())
    return _SeriesColumn(series)


def _as_column(column: Any) -> _Column:
    """A column (a pandas Series or a 1-D numpy array) in numpy form."""
    if isinstance(column, _Column):
        return column
    return _series_column(column) if is_pandas(column, "Series") else _numpy_column(column)


def _kind(column: Any) -> str:
    """'number', 'string', 'bool', 'empty', 'nested' or 'other': the type of a column's
    labels."""
    return _as_column(column).kind


def _numbers(column: Any) -> np.ndarray:
    """The finite values of a numeric column (a categorical's levels) as float64; empty
    when the column is not numeric."""
    return _as_column(column).numbers


#: Python and numpy types whose values are never missing (booleans are integers).
_NEVER_MISSING = (str, int, np.integer, np.bool_)


def _label_kind(values: np.ndarray) -> str:
    """The label type of present values (what pandas' infer_dtype says, as
    'number', 'string', 'bool', 'nested' or 'other')."""
    kind = values.dtype.kind
    if kind in "iuf":
        return "number"
    if kind == "b":
        return "bool"
    if kind != "O":
        return "other"  # complex numbers, dates and times, bytes
    return _kind_of_types(set(map(type, values)))


def _kind_of_types(types: set[type]) -> str:
    """The label type of Python objects of `types` (none missing); 'nested' when one of
    them holds several values (:func:`irr._data.nested_type`: lists, arrays, ...)."""
    if any(map(nested_type, types)):
        return "nested"
    if all(issubclass(t, str) for t in types):
        return "string"
    if all(issubclass(t, bool | np.bool_) for t in types):
        return "bool"
    if all(issubclass(t, int | float | np.integer | np.floating)
           and not issubclass(t, bool | np.timedelta64) for t in types):
        return "number"
    if all(issubclass(t, Decimal) for t in types):
        return "number"
    return "other"


def _skipped_missing(kind: type) -> bool:
    """Whether a missing value of type `kind` is left out when labels are typed: None, a
    NaN float or complex number, pandas' NA (infer_dtype's skipna)."""
    pandas = sys.modules.get("pandas")
    return (issubclass(kind, type(None) | float | complex | np.floating | np.complexfloating)
            or (pandas is not None and kind is type(pandas.NA)))


def _count_distinct(values: np.ndarray) -> int:
    """How many distinct values (none missing) an array holds; objects compare as Python
    compares them (1 == 1.0)."""
    if values.dtype.kind == "O":
        return len(set(values))
    # sorted neighbours, not np.unique: numpy 2.4 hashes integers, at 1.5 s per 10**6
    ordered = np.sort(values)
    return int(np.count_nonzero(ordered[1:] != ordered[:-1])) + bool(ordered.size)


def _continuity(numbers: np.ndarray) -> str:
    """:func:`continuity` of finite float64 numbers."""
    fractional = numbers[numbers != np.round(numbers)]
    if fractional.size:
        return f"non-integer values such as {fractional[0]:g}"
    if numbers.size and numbers.max() - numbers.min() < MAX_CATEGORIES:
        return ""  # whole numbers within a range of 10: at most 10 distinct ones
    distinct = np.unique(numbers).size
    if distinct > MAX_CATEGORIES:
        return f"{distinct} distinct values, more than {MAX_CATEGORIES}"
    return ""


def continuity(values: Any) -> str:
    """Why numeric `values` look continuous ("" when they look categorical).

    The rule: a non-integer value, or more than :data:`MAX_CATEGORIES` distinct values.

    Examples
    --------
    >>> continuity([1, 2, 3, 2])
    ''
    >>> continuity([1.5, 2.0, 3.25])
    'non-integer values such as 1.5'
    >>> continuity(range(12))
    '12 distinct values, more than 10'
    >>> continuity(np.ma.masked_array([1, 2, 0], mask=[False, False, True]))
    ''
    """
    if isinstance(values, np.ma.MaskedArray):
        values = values.compressed()  # the present values (a numpy column's)
    array = isinstance(values, np.ndarray) or is_pandas(values, "Index")
    if array and values.dtype.kind in "iu" and len(values):
        labels = np.asarray(values)
        # increasing integers (the categories of integer ratings) within 2**53 of 0: whole
        # numbers, as many distinct ones as labels, as floats too
        if (int(labels[0]) >= -(2**53) and int(labels[-1]) <= 2**53
                and bool((labels[1:] > labels[:-1]).all())):
            return (f"{len(labels)} distinct values, more than {MAX_CATEGORIES}"
                    if len(labels) > MAX_CATEGORIES else "")
    if array and values.dtype.kind in "iuf":
        numbers = np.asarray(values, dtype=float)  # numeric labels: no conversion per value
        numbers = numbers[np.isfinite(numbers)]
    elif is_pandas(values, "Series"):
        numbers = _series_column(values).numbers
    else:
        numbers = _numpy_column(np.fromiter(values, dtype=object)).numbers
    return _continuity(numbers)


#: A rater column named as a method's numbered reading: ``wright_1``, ``mini.2``, ``A-3``.
_REPLICATE_NAME = re.compile(r"^(.*\S)[_.\-](\d+)$")


def replicate_columns(names: Sequence[Any]) -> dict[str, list[Any]]:
    """The rater columns grouped by method when every name is a method's numbered reading
    (``wright_1, wright_2, mini_1, mini_2``): two or more methods, each read two or more
    times; ``{}`` otherwise (``rater_1, rater_2, rater_3`` are one method: raters).

    Examples
    --------
    >>> replicate_columns(["wright_1", "wright_2", "mini_1", "mini_2"])
    {'wright': ['wright_1', 'wright_2'], 'mini': ['mini_1', 'mini_2']}
    >>> replicate_columns(["rater_1", "rater_2", "rater_3"])
    {}
    """
    groups: dict[str, list[Any]] = {}
    for name in names:
        found = _REPLICATE_NAME.match(str(name))
        if found is None:
            return {}
        groups.setdefault(found.group(1), []).append(name)
    if len(groups) < 2 or any(len(columns) < 2 for columns in groups.values()):
        return {}
    return groups


def looks_continuous(values: Any) -> bool:
    """Whether numeric `values` (labels or ratings) look like continuous scores.

    Examples
    --------
    >>> looks_continuous([0.5, 1.0]), looks_continuous(["a", "b"]), looks_continuous([1, 5])
    (True, False, False)
    """
    return bool(continuity(values))


def scale_info(categories: Any) -> tuple[str, str]:
    """The header line that describes the rating scale of a summary.

    Examples
    --------
    >>> scale_info([1, 2, 3])
    ('Categories:', '3')
    >>> scale_info([0.5, 1.25, 2.0])
    ('Scale:', 'continuous, 3 values')
    """
    labels = list(categories)
    if looks_continuous(labels):
        return ("Scale:", f"continuous, {len(labels)} values")
    return ("Categories:", str(len(labels)))


def _unique_id(column: _Column) -> bool:
    """Every value present and distinct, integers or strings, in more rows than a category
    scale has levels (identifiers)."""
    if column.n <= MAX_CATEGORIES or column.prefix_repeats[0]:
        return False
    kind = column.kind
    if kind not in ("string", "number") or (kind == "number" and column.fractional):
        return False  # decimals are measurements, never identifiers (and not hashed)
    if column.missing is not None:
        return False
    return column.distinct == column.n


def _finite_range(column: _Column) -> tuple[float, float] | None:
    """(min, max) of a numeric column's finite values (None when it has none); numpy
    numbers without a missing value, nan or infinity are read in place."""
    values = column.values
    if column.levels is None and column.missing is None and values.dtype.kind in "iuf":
        if values.dtype.kind == "f":
            with np.errstate(over="ignore", invalid="ignore"):
                finite = np.isfinite(np.add.reduce(values))
        if values.dtype.kind in "iu" or finite:
            return (float(values.min()), float(values.max())) if values.size else None
    numbers = column.numbers
    return (float(numbers.min()), float(numbers.max())) if numbers.size else None


def choose_columns(
    df: pd.DataFrame | Mapping[Any, np.ndarray],
    raters: Sequence[Any] | None = None,
    id: Any = None,
    exclude: Sequence[Any] = (),
    *,
    raters_option: str = "raters=",
    id_option: str = "id=",
) -> ColumnChoice:
    """The rating columns of `df` (see the module docstring for the rule).

    Parameters
    ----------
    df : DataFrame or mapping
        A pandas DataFrame, or a mapping of column names (in column order) to 1-D numpy
        arrays of equal length (``relation.fetchnumpy()`` of DuckDB): a masked array's
        masked values, NaN, NaT and None are missing. Both give the same choice.
    raters : sequence of column labels, optional
        The rating columns; when given they are used as they are.
    id : column label or sequence of them, optional
        Identifier columns: never ratings.
    exclude : sequence of column labels
        Other columns that are not ratings (frequency weights).
    raters_option, id_option : str
        How the caller's options are spelled in messages (``--raters`` on the CLI).

    Examples
    --------
    >>> import pandas as pd
    >>> df = pd.DataFrame({"case": ["a", "b", "c", "d"], "r1": [1, 2, 2, 1],
    ...                    "r2": [1, 2, 1, 1]})
    >>> choice = choose_columns(df)
    >>> choice.raters, choice.ids, choice.reasons["case"]
    (('r1', 'r2'), ('case',), 'its name')
    >>> import numpy as np
    >>> columns = {"mrn": np.arange(5001, 5013), "r1": np.arange(12) % 3,
    ...            "r2": np.ma.masked_array(np.arange(12) % 4, mask=[True] + [False] * 11)}
    >>> choose_columns(columns).raters
    ('r1', 'r2')
    """
    names = _names(df)
    ids = _id_list(id, names, id_option)
    if raters is not None:
        both = [r for r in raters if r in ids]
        if both:
            raise ValueError(
                f"`{raters_option.rstrip('=')}` and `{id_option.rstrip('=')}` share columns: "
                f"{both!r}."
            )
        return ColumnChoice(tuple(raters), tuple(ids), dict.fromkeys(ids, "named"))
    if ids:  # the caller named the identifiers: every other column is a rating
        return ColumnChoice(tuple(c for c in names if c not in ids and c not in
                                  set(exclude)), tuple(ids), dict.fromkeys(ids, "named"))
    reasons: dict[Any, str] = dict.fromkeys(ids, "named")
    candidates = [c for c in names if c not in ids and c not in set(exclude)]

    def set_aside(columns: list[Any], why: str) -> None:
        for c in columns:
            reasons[c] = why
        candidates[:] = [c for c in candidates if c not in columns]

    set_aside([c for c in candidates if _named_as_id(c)], "its name")
    columns = _numpy_columns(df, candidates)
    kinds = {c: columns[c].kind for c in candidates}
    for c in candidates:  # a rating column unless named: refused before any rule reads it
        if kinds[c] == "nested":
            refuse_nested(columns[c].present, str(c), remedy=(
                f"{UNNEST} If it holds no ratings, name the rating columns with "
                f"{raters_option} or this column with {id_option}."))
    present = [k for k in kinds.values() if k not in ("empty", "other")]
    if present:
        tally = Counter(present).most_common()
        top = tally[0][0]
        if len(tally) > 1 and tally[0][1] == tally[1][1]:
            raise ValueError(
                f"Cannot tell the rating columns from identifiers: the columns "
                f"{candidates!r} hold labels of different types "
                f"({', '.join(f'{c!r}: {k}' for c, k in kinds.items())}). Name the rating "
                f"columns with {raters_option} or the identifier columns with {id_option}."
            )
        for c in [c for c in candidates if kinds[c] not in (top, "empty", "other")]:
            set_aside([c], f"{kinds[c]} labels among {top} ratings")
    unique = [c for c in candidates if _unique_id(columns[c])]
    others = [c for c in candidates if c not in unique]
    if unique and len(others) >= 2:
        # (continuity first: measurements settle it without counting distinct values)
        repeat = all(not _continuity(columns[c].numbers) and columns[c].repeats
                     for c in others)
        decimals = all(columns[c].fractional for c in others)
        if repeat or decimals:
            set_aside(unique, "a distinct value in every row")
    # (rules 5-7 set a column aside only while more than two candidates remain)
    for c, why in (_foreign_columns(columns, candidates) if len(candidates) > 2
                   else {}).items():
        if len(candidates) > 2:
            set_aside([c], why)
    if len(candidates) < 2:
        raise ValueError(
            f"Cannot find two rating columns in {list(names)!r}: "
            f"{', '.join(f'{c!r} ({why})' for c, why in reasons.items())} look like "
            f"identifiers. Name the rating columns with {raters_option} (and the identifiers "
            f"with {id_option})."
        )
    aside = tuple(c for c in names if c in reasons)
    return ColumnChoice(tuple(candidates), aside, reasons,
                        tuple(c for c in aside if c not in ids))


def _names(df: Any) -> Any:
    """The column names of a DataFrame (its columns) or of a mapping of numpy columns."""
    if is_pandas(df, "DataFrame"):
        return df.columns
    if isinstance(df, Mapping):
        return list(df)
    raise TypeError("`df` must be a pandas DataFrame or a mapping of column names to 1-D "
                    f"numpy arrays; got {type(df).__name__}.")


def _numpy_columns(df: Any, names: list[Any]) -> dict[Any, _Column]:
    """The columns `names` of `df` in numpy form."""
    repeated = [repr(c) for c, count in Counter(names).items() if count > 1]
    if repeated:
        raise ValueError(f"Column names repeat: {', '.join(repeated)}; give each column its "
                         "own name.")
    if is_pandas(df, "DataFrame"):
        return {c: _series_column(df[c]) for c in names}
    columns = {c: _series_column(df[c]) if is_pandas(df[c], "Series")
               else _numpy_column(df[c], c) if isinstance(df[c], np.ndarray)
               else _refuse_column(c, df[c]) for c in names}
    lengths = {len(column.values) for column in columns.values()}
    if len(lengths) > 1:
        shown = ", ".join(f"{c!r}: {len(column.values)}" for c, column in columns.items())
        raise ValueError(f"The columns have different lengths ({shown}).")
    return columns


def _refuse_column(name: Any, values: Any) -> _Column:
    raise TypeError(f"Column {name!r} must be a 1-D numpy array (masked where values are "
                    f"missing) or a pandas Series; got {type(values).__name__}.")


def _integers(column: _Column) -> np.ndarray | None:
    """The values of a numeric column with every value present and integral, as float64
    (exact for identifiers below 2**53); None otherwise."""
    if column.missing is not None or column.kind != "number":
        return None
    numbers = column.numbers
    if len(numbers) != column.n or column.fractional:
        return None
    return numbers


def _distinct_or_constant(column: _Column) -> str:
    """"distinct" (a different value in every row), "constant" (one value in every row,
    more than one row) or "" for a column with every value present."""
    n = column.n
    kind = "" if n < 2 else column.kind
    if kind not in ("number", "string", "bool"):
        return ""
    if all(column.prefix_repeats):  # neither distinct nor constant
        return ""
    if kind == "number" and column.fractional:
        return ""  # decimals: measurements, never identifiers (rules 5-7)
    if column.missing is not None:
        return ""
    distinct = column.distinct
    return "distinct" if distinct == n else "constant" if distinct == 1 else ""


def _foreign_columns(columns: Mapping[Any, _Column], candidates: list[Any]) -> dict[Any, str]:
    """Rules 5-7 of the module docstring: identifier-like columns (distinct or constant)
    whose values are foreign to the other columns', with the reason for each."""
    found: dict[Any, str] = {}
    shape = {c: _distinct_or_constant(columns[c]) for c in candidates}
    numeric = {c: _finite_range(columns[c]) for c in candidates if columns[c].kind == "number"}
    ranges = {c: v for c, v in numeric.items() if v is not None}
    # rule 5: group the numeric ranges; a distinct-integer or constant column outside the
    # largest group lies far from the ratings
    groups: list[list[Any]] = []
    bounds: list[list[float]] = []
    for c in sorted(ranges, key=lambda c: ranges[c]):
        lo, hi = ranges[c]
        if groups:
            g_lo, g_hi = bounds[-1]
            width = g_hi - g_lo
            gap = lo - g_hi
            if gap <= max(width if hi == lo else min(width, hi - lo), 1):
                groups[-1].append(c)
                bounds[-1][1] = max(g_hi, hi)
                continue
        groups.append([c])
        bounds.append([lo, hi])
    sizes = sorted((len(g) for g in groups), reverse=True)
    if len(groups) > 1 and sizes[0] > sizes[1]:
        main = max(range(len(groups)), key=lambda i: len(groups[i]))
        m_lo, m_hi = bounds[main]
        outside = [c for i, group in enumerate(groups) if i != main for c in group]
        for c in outside:
            integral = _integers(columns[c]) is not None
            # decimals are measurements, never identifiers
            if shape[c] in ("distinct", "constant") and integral:
                lo, hi = ranges[c]
                values = f"{lo:g}" if lo == hi else f"{lo:g}..{hi:g}"
                found[c] = (f"values {values} far from the range {m_lo:g}..{m_hi:g} of "
                            "the other numeric columns")
    # rule 6: a run of consecutive integers, one per row, when no other column is one
    runs = []
    for c in candidates:
        values = _integers(columns[c]) if shape[c] == "distinct" else None
        if values is not None and len(values) > MAX_CATEGORIES and (
                values.max() - values.min() == len(values) - 1):
            runs.append(c)
    if len(runs) == 1 and runs[0] not in found:
        lo, hi = ranges[runs[0]]
        found[runs[0]] = f"consecutive numbers {lo:g}..{hi:g}, one per row"
    # rule 7: one label, or a distinct label per row, that no other column uses
    for c in candidates:
        column = columns[c]
        if not shape[c] or column.kind != "string":
            continue  # numbers: rule 5 decides by range
        if shape[c] == "distinct" and column.levels is None and \
                decimal_text(column.values) is not None:
            continue  # decimals written as text are measurements, never identifiers
        others = [o for o in candidates if o != c and o not in found]
        if len(others) < 2:
            continue
        # the labels of the other columns (a label equals only a label: numbers, booleans
        # and dates in numpy arrays are left out)
        used = set().union(*(columns[o].present for o in others
                             if columns[o].present.dtype.kind == "O"))
        if used.isdisjoint(column.values):
            what = (f"the label {column.values[0]!r} in every row" if shape[c] == "constant"
                    else "a distinct label in every row")
            found[c] = f"{what}, used by no other column"
    return found


def missing_tokens(values: pd.Series) -> list[str]:
    """The few (one to three) distinct non-numeric tokens of a column that otherwise holds
    numbers (SAS's ``'.'``, ``'n/a'``), which would make its every value a string label;
    ``[]`` for a numeric or categorical column or one of labels.

    >>> missing_tokens(pd.Series(["1", "2", ".", "3"]))
    ['.']
    >>> missing_tokens(pd.Series(["a", "b", "c"]))
    []
    """
    if values.dtype != object and not pd.api.types.is_string_dtype(values.dtype):
        return []  # numbers, categoricals, Arrow lists: no text among them
    def non_numbers(column: pd.Series) -> tuple[pd.Series, pd.Series, set[str]] | None:
        # the distinct values are parsed, not every row (a column of labels has a few);
        # a marker of a missing value is text (other values, such as tuples, are labels
        # of another type: refused when coded)
        distinct = pd.Series(pd.unique(column), dtype=object).dropna()
        others = distinct[pd.to_numeric(distinct, errors="coerce").isna()]
        if not all(isinstance(v, str) for v in others):
            return None
        return distinct, others, set(others)

    try:
        # more than three distinct non-numbers among the first rows: labels, no tokens
        head = non_numbers(values.iloc[:256])
        whole = None if head is None or len(head[2]) > 3 else non_numbers(values)
    except TypeError:  # unhashable cells (lists): not labels, refused when coded
        return []
    if whole is None:
        return []
    distinct, others, found = whole
    tokens = sorted(found)
    if not 0 < len(tokens) <= 3 or len(others) == len(distinct):
        return []
    present = values.dropna()
    n_others = int(present.isin(others.to_numpy()).sum())
    return tokens if len(present) - n_others > n_others else []


def refuse_missing_tokens(df: pd.DataFrame, columns: Sequence[Any]) -> None:
    """Refuse, naming `na_values`, a rating column of numbers with a few other tokens
    (:func:`missing_tokens`): read as it is, its numbers would become string labels and
    the token a category."""
    for column in columns:
        tokens = missing_tokens(df[column])
        if tokens:
            count = int(df[column].astype(str).isin(tokens).sum())
            raise ValueError(
                f"column {column!r} holds numbers and {count} other value(s) "
                f"{', '.join(map(repr, tokens))}; if they mark missing ratings, read the file "
                f"with pd.read_csv(..., na_values={tokens!r}) or replace them with None; if "
                "they are ratings, declare the scale with `categories=`.")


def rating_frame(df: pd.DataFrame, stacklevel: int = 2) -> pd.DataFrame:
    """The rating columns of `df` by :func:`choose_columns`, with a UserWarning naming
    the columns set aside (the rule of every function that takes a wide frame without
    naming its raters: :func:`irr.icc`, :func:`irr.krippendorff_alpha`, ...).

    Examples
    --------
    >>> import warnings
    >>> df = pd.DataFrame({"mrn": [7, 19, 2], "r1": [1, 2, 2], "r2": [1, 2, 1]})
    >>> with warnings.catch_warnings():
    ...     warnings.simplefilter("ignore")
    ...     list(rating_frame(df).columns)
    ['r1', 'r2']
    """
    choice = choose_columns(df)
    if choice.detected:
        warnings.warn(choice.describe(), UserWarning, stacklevel=stacklevel + 1)
    return df[list(choice.raters)] if choice.ids else df


def _id_list(id: Any, names: Any, id_option: str) -> list[Any]:
    if id is None:
        return []
    ids = list(id) if isinstance(id, (list, tuple)) else [id]
    unknown = [c for c in ids if c not in names]
    if unknown:
        raise ValueError(
            f"`{id_option.rstrip('=')}` names columns not in the data: {unknown!r}; columns are "
            f"{list(names)!r}."
        )
    return ids


def _id_columns(df: pd.DataFrame, ids: Sequence[Any], groups: Sequence[Any]
                ) -> tuple[list[Any], list[Any]]:
    """The identifier columns that identify a subject within its group, and the grouping
    columns of `df` (a grouping column is never an id on its own)."""
    groups = [g for g in groups if g in df.columns]
    return [c for c in ids if c not in groups], groups


def subject_ids(df: pd.DataFrame, ids: Sequence[Any], groups: Sequence[Any] = ()
                ) -> pd.Index | None:
    """The subjects' labels that the identifier columns `ids` give, one per row: the
    values of one column (an Index named after it), or a MultiIndex of several, the
    grouping columns `groups` first (an id may recur across groups, as in
    :func:`repeated_ids_note`); None without `ids`, and when a label repeats (each row
    is then a subject of its own, which :func:`repeated_ids_note` says) or holds lists.

    Examples
    --------
    >>> frame = pd.DataFrame({"pid": [7, 3], "site": ["n", "s"], "a": [1, 2], "b": [1, 1]})
    >>> subject_ids(frame, ["pid"]).tolist()
    [7, 3]
    >>> subject_ids(frame, ["pid"], groups=["site"]).tolist()
    [('n', 7), ('s', 3)]
    >>> print(subject_ids(frame.assign(pid=[7, 7]), ["pid"]))
    None
    """
    ids, groups = _id_columns(df, ids, groups)
    if not ids:
        return None
    columns = [*groups, *ids]
    try:
        labels = (pd.Index(df[columns[0]]) if len(columns) == 1
                  else pd.MultiIndex.from_frame(df[columns]))
        if labels.has_duplicates:
            return None
    except TypeError:  # lists or arrays as identifiers: not labels
        return None
    return labels


def repeated_ids_note(df: pd.DataFrame, ids: Sequence[Any], option: str,
                      groups: Sequence[Any] = ()) -> str | None:
    """A note when the identifier columns `ids` (named by the user through `option`)
    repeat on more than one row: each row is still counted as a subject; None otherwise.

    The combination of the `ids` identifies a subject, within its group of the grouping
    columns `groups` (``by=``, ``--by``): a subject id may recur across groups, and a
    grouping column is never taken as an id on its own (without `ids`, no note).

    Examples
    --------
    >>> frame = pd.DataFrame({"pid": [1, 1, 2], "a": [1, 2, 1], "b": [1, 2, 2]})
    >>> print(repeated_ids_note(frame, ["pid"], "--id"))  # doctest: +NORMALIZE_WHITESPACE
    --id pid repeats on more than one row for 1 id(s) (1); each row is counted as a
    separate subject. If rows of one id are repeated readings, give the data in long form
    with a replicate column.
    >>> sites = frame.assign(site=["north", "south", "north"])
    >>> print(repeated_ids_note(sites, ["site"], "--id", groups=["site"]))
    None
    >>> print(repeated_ids_note(sites, ["pid"], "--id", groups=["site"]))
    None
    """
    ids, groups = _id_columns(df, ids, groups)
    if not ids:
        return None
    frame = df[[*ids, *groups]]
    try:
        repeated = frame[frame.duplicated(keep=False)]
    except TypeError:
        # identifiers that hold lists or arrays (never ratings) are compared by what they
        # print, as pandas compares one column of lists by value
        frame = frame.apply(lambda column: column.map(
            lambda v: repr(v) if nested_type(type(v)) else v))  # (DataFrame.map: pandas 2.1)
        repeated = frame[frame.duplicated(keep=False)]
    if not len(repeated):
        return None
    keys = repeated.drop_duplicates()
    shown = ", ".join(str(tuple(row) if len(row) > 1 else row[0])
                      for row in keys.head(5).itertuples(index=False))
    more = f" ... ({len(keys)} in all)" if len(keys) > 5 else ""
    within = f" within {', '.join(map(str, groups))}" if groups else ""
    return (f"{option} {', '.join(map(str, ids))} repeats on more than one row{within} for "
            f"{len(keys)} id(s) ({shown}{more}); each row is counted as a separate subject. "
            "If rows of one id are repeated readings, give the data in long form with a "
            "replicate column.")
