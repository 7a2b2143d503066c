"""Real-valued ratings: one entry per measurement, replicates and unbalanced designs allowed.

Categorical statistics summarise subjects by their pattern of category codes
(:mod:`irr._statistics`); continuous measurements (blood pressure, tumour diameters,
questionnaire totals) have no categories, so they are kept as what they are: for each
measurement its subject, its rater (or method) and its value. A subject may be measured
several times by the same rater (*replicates*) and raters may measure different numbers
of subjects. Estimators for continuous agreement (limits of agreement, concordance,
variance components) read these arrays; :meth:`Measurements.wide` and
:meth:`Measurements.paired` give the usual subjects x raters and paired views.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from functools import cached_property
from typing import Any

import numpy as np

from irr._data import (
    align_columns,
    distinct_names,
    is_pandas,
    preview,
    refuse_nested,
    refuse_nested_rows,
)
from irr._lazy import lazy_module

pd = lazy_module("pandas")  # imported on first use: data streamed by DuckDB never need it

__all__ = ["CHUNK", "Measurements", "all_finite"]

#: Values per chunk of the estimators' passes over long columns of measurements: the
#: chunk's temporaries stay in the cache, so a pass costs one read of the columns. Below
#: OpenBLAS's threading threshold (10,000): a dot product of a chunk runs on one thread,
#: so its sum (and every result) is the same on every machine, and no thread waits on a
#: busy core.
CHUNK = 8192


#: Bounds of :meth:`Measurements.check_magnitude` (powers of two: about 8.7e99, 1.1e-100).
_LARGEST = 2.0**332
_FINEST = 2.0**-332


class Measurements:
    """Measurements in long form: ``value[i]`` is a measurement of subject ``subject[i]``
    by rater ``rater[i]``.

    Built from one column per rater (:meth:`from_columns`, :meth:`from_wide`,
    :meth:`from_pair`: no replicates), the columns are kept as given (float64 arrays are
    not copied: do not modify them afterwards) and the long form is made only when asked
    for; the views (:meth:`paired`, :meth:`pair`, :meth:`wide`, :attr:`replicates`) then
    come from the columns directly. Long measurements of every (subject, rater) once in
    cell order (long data sorted by subject, then rater) are held the same way: as the
    columns of ``value`` laid out subjects x raters (views of a float64 ``value``).

    Attributes
    ----------
    subject, rater : ndarray of int64
        Codes ``0 .. n_subjects - 1`` and ``0 .. n_raters - 1``.
    value : ndarray of float64
        The measurements, all finite (missing measurements are absent).
    raters : tuple of str
        The raters' (methods') names, in code order.
    subjects : pandas.Index
        The subjects' labels, in code order (subjects with no measurement included).

    Examples
    --------
    >>> m = Measurements.from_wide([[120.5, 118.0], [131.0, np.nan], [99.5, 101.0]],
    ...                            raters=["nurse_a", "nurse_b"])
    >>> m.n_subjects, m.n_raters, m.n_measurements, m.has_replicates
    (3, 2, 5, False)
    >>> x, y = m.paired()
    >>> x.tolist(), y.tolist()
    ([120.5, 99.5], [118.0, 101.0])
    """

    def __setstate__(self, state: dict[str, Any]) -> None:
        # pickles of versions before _layout and _extremes: neither known
        columns = state.get("_columns")
        state.setdefault("_layout", None)
        state.setdefault("_extremes", (None,) * len(columns) if columns is not None else ())
        self.__dict__.update(state)

    def __init__(self, subject: np.ndarray, rater: np.ndarray, value: np.ndarray,
                 raters: tuple[str, ...], subjects: pd.Index) -> None:
        for name, array in (("subject", subject), ("rater", rater), ("value", value)):
            if array.ndim != 1 or array.shape != value.shape:
                raise ValueError(f"`{name}` must be 1-D like `value`; got shape {array.shape}.")
        if value.size and not all_finite(value):
            raise ValueError("`value` must be finite (leave missing measurements out).")
        self._long: tuple[np.ndarray, np.ndarray, np.ndarray] | None = (subject, rater, value)
        self._columns: tuple[np.ndarray, ...] | None = None
        # the (n_subjects, n_raters) matrix whose columns are _columns, when they are views
        # of one: a copy of it is one sequential pass, a column_stack a strided gather
        self._layout: np.ndarray | None = None
        self._missing: tuple[np.ndarray | None, ...] = ()
        # per column: its (smallest, largest) value when known (complete columns checked
        # by _of_columns), else None
        self._extremes: tuple[tuple[float, float] | None, ...] = ()
        self._raters = raters
        self._subjects: pd.Index | int = subjects  # int n: positions (see subjects)
        n, r = len(subjects), len(raters)
        if value.dtype == np.float64 and _in_cell_order(subject, rater, n, r):
            # every cell once, in cell order (long data sorted by subject, then rater): the
            # codes, implied by the order, are not kept
            self._hold_layout(value.reshape(n, r))

    def _hold_layout(self, layout: np.ndarray) -> None:
        """Hold measurements of every cell once as the columns of their (n_subjects,
        n_raters) float64 `layout` (views, no copy), as :meth:`from_columns` holds
        columns."""
        self._long = None
        self._layout = layout
        self._columns = tuple(layout.T)
        self._missing = (None,) * layout.shape[1]
        self._extremes = (None,) * layout.shape[1]

    @classmethod
    def from_layout(cls, layout: np.ndarray, raters: Sequence[str],
                    subjects: pd.Index) -> Measurements:
        """Measurements of every (subject, rater) cell once: ``layout[i, j]`` is rater
        ``j``'s measurement of subject ``i``, all finite (else a ValueError). A float64
        `layout` is held as it is (not copied: do not modify it afterwards), as long
        measurements in cell order are (long data sorted by subject, then rater).

        Examples
        --------
        >>> m = Measurements.from_layout(np.array([[1.5, 2.0], [3.0, 2.5]]), ["a", "b"],
        ...                              pd.Index(["s1", "s2"]))
        >>> m.subject.tolist(), m.rater.tolist(), m.value.tolist()
        ([0, 0, 1, 1], [0, 1, 0, 1], [1.5, 2.0, 3.0, 2.5])
        """
        layout = np.asarray(layout, dtype=np.float64)
        shape = (len(subjects), len(raters))
        if layout.shape != shape:
            raise ValueError(f"`layout` must have shape {shape} (subjects, raters); got "
                             f"{layout.shape}.")
        if layout.size and not all_finite(layout):
            raise ValueError("`layout` must be finite (every cell measured once).")
        self = cls.__new__(cls)
        self._raters = tuple(raters)
        self._subjects = subjects
        self._hold_layout(layout)
        return self

    @classmethod
    def _of_columns(cls, columns: Sequence[np.ndarray], raters: tuple[str, ...],
                    subjects: pd.Index | int, labels: Sequence[str]) -> Measurements:
        """Measurements held as their float64 columns (nan: missing), checked by the
        column's smallest and largest value (two reading passes, which
        :meth:`check_magnitude` reuses): both finite means no nan and no infinity;
        otherwise the nan are found and an infinity is a ValueError naming
        ``labels[j]``. `subjects` as an int n: positions 0 .. n - 1 (a RangeIndex made
        when :attr:`subjects` is first read)."""
        missing, extremes = [], []
        for column, label in zip(columns, labels, strict=True):
            if column.size:
                low, high = float(np.minimum.reduce(column)), float(np.maximum.reduce(column))
                if -math.inf < low and high < math.inf:  # nan fails too (it propagates)
                    missing.append(None)
                    extremes.append((low, high))
                    continue
            infinite = np.isinf(column)
            if infinite.any():
                raise ValueError(f"{label} holds infinite values: {preview(column[infinite])} "
                                 "(measurements must be finite; nan marks a missing one).")
            nan = np.isnan(column)
            missing.append(nan if nan.any() else None)  # an empty column
            extremes.append(None)
        self = cls.__new__(cls)
        self._long = None
        self._layout = None
        self._columns = tuple(columns)
        self._missing = tuple(missing)
        self._extremes = tuple(extremes)
        self._raters = raters
        self._subjects = subjects
        return self

    def __repr__(self) -> str:
        return (f"Measurements(n_subjects={self.n_subjects}, n_raters={self.n_raters}, "
                f"n_measurements={self.n_measurements}, raters={self.raters!r})")

    # -- constructors --------------------------------------------------------------------
    @classmethod
    def from_wide(
        cls, values: Any, raters: Sequence[str] | None = None, subjects: Any = None
    ) -> Measurements:
        """Measurements of a subjects x raters matrix (nan: not measured; no replicates)."""
        matrix = _real_array(values, "values")
        if matrix.ndim != 2:
            raise ValueError(f"`values` must be 2-D (subjects x raters); got shape {matrix.shape}.")
        return cls.from_columns(list(matrix.T), raters, subjects)

    @classmethod
    def from_columns(
        cls, columns: Sequence[np.ndarray], raters: Sequence[str] | None = None,
        subjects: Any = None,
    ) -> Measurements:
        """Measurements of one float array per rater, one value per subject (nan: not
        measured; no replicates), in O(values) time; float64 columns are not copied.

        Examples
        --------
        >>> m = Measurements.from_columns([np.array([1.5, 2.0]), np.array([1.0, np.nan])],
        ...                               raters=["a", "b"])
        >>> m.subject.tolist(), m.rater.tolist(), m.value.tolist()
        ([0, 0, 1], [0, 1, 0], [1.5, 1.0, 2.0])
        """
        columns = [_real_array(c, "columns") for c in columns]
        r = len(columns)
        n = len(columns[0]) if r else 0
        if any(c.ndim != 1 or len(c) != n for c in columns):
            raise ValueError(
                "`columns` must be 1-D arrays of one length; got shapes "
                f"{[c.shape for c in columns]}."
            )
        names = tuple(str(j) for j in range(r)) if raters is None else tuple(map(str, raters))
        if len(names) != r:
            raise ValueError(f"`raters` names {len(names)} raters for {r} columns.")
        index = pd.RangeIndex(n) if subjects is None else pd.Index(subjects)
        if len(index) != n:
            raise ValueError(f"`subjects` has {len(index)} labels for {n} rows.")
        return cls._of_columns(columns, names, index, [f"rater {v!r}" for v in names])

    @classmethod
    def from_pair(cls, x: Any, y: Any, names: Any = None) -> Measurements:
        """Measurements of two methods' vectors, one subject per position, or per index
        label when both are Series: `y` is put in the order of `x`'s labels, and labels
        that differ are a ValueError (:func:`irr._data.align_to_index`); a Series' labels
        name the subjects (nan: not measured). The methods are named by `names`, else by
        the Series' names, else ``'x'`` and ``'y'``. The one check of two-method input
        for every shortcut.

        Examples
        --------
        >>> m = Measurements.from_pair(pd.Series([1.5, 2.0, np.nan], name="device"),
        ...                            pd.Series([1.0, 2.5, 3.0], name="cuff"))
        >>> m.raters, m.n_subjects, m.paired()[0].tolist()
        (('device', 'cuff'), 3, [1.5, 2.0])
        >>> m = Measurements.from_pair(pd.Series([1.5, 2.0], index=["p1", "p2"]),
        ...                            pd.Series([2.5, 1.0], index=["p2", "p1"]))
        >>> m.subjects.tolist(), m.paired()[1].tolist()
        (['p1', 'p2'], [1.0, 2.5])
        """
        if y is None:
            raise TypeError("`y` is required when `x` is an array (or pass a Measurements).")
        (x, y), index = align_columns([x, y], ["x", "y"])
        a, b = _measurement_vector(x, "x"), _measurement_vector(y, "y")
        if a.size != b.size:
            raise ValueError(f"`x` and `y` must have one length; got {a.size} and {b.size}.")
        if names is None:
            labels = [str(getattr(v, "name", None) or d) for v, d in ((x, "x"), (y, "y"))]
            names = labels if labels[0] != labels[1] else ["x", "y"]
        elif isinstance(names, str) or len(names) != 2:
            raise ValueError(f"`names` must name the two methods; got {preview(names)}.")
        return cls._of_columns([a, b], tuple(distinct_names(names, "names")),
                               a.size if index is None else index, ["`x`", "`y`"])

    @classmethod
    def from_long(
        cls, subject: Any, rater: Any, value: Any, raters: Sequence[Any] | None = None
    ) -> Measurements:
        """Measurements of long arrays of labels; rows whose value is nan are left out
        (a subject with no measurement left keeps its label). `raters` fixes the raters'
        order (default: order of first appearance)."""
        subject = np.asarray(subject)
        rater = np.asarray(rater)
        value = np.asarray(value, dtype=float)
        if not (subject.shape == rater.shape == value.shape) or value.ndim != 1:
            raise ValueError(
                "`subject`, `rater` and `value` must be 1-D of one length; got shapes "
                f"{subject.shape}, {rater.shape}, {value.shape}."
            )
        subject_code, subject_labels = pd.factorize(subject)
        if raters is None:
            rater_code, rater_labels = pd.factorize(rater)
        else:
            rater_labels = pd.Index(list(raters))
            rater_code = rater_labels.get_indexer(rater)
            if (rater_code < 0).any():
                unknown = pd.unique(rater[rater_code < 0])[:5].tolist()
                raise ValueError(f"`rater` holds raters not in `raters`: {unknown}.")
        keep = ~np.isnan(value)
        return cls(subject_code[keep].astype(np.int64), rater_code[keep].astype(np.int64),
                   value[keep], tuple(map(str, rater_labels)), pd.Index(subject_labels))

    def measured_values(self) -> np.ndarray:
        """Every measurement's value, subject-major (as :attr:`value`), without making the
        subject and rater arrays of the long form for measurements held as columns.

        Examples
        --------
        >>> m = Measurements.from_wide([[1.5, np.nan], [2.0, 3.0]], raters=["a", "b"])
        >>> m.measured_values().tolist() == m.value.tolist() == [1.5, 2.0, 3.0]
        True
        """
        if self._columns is None or "_long_form" in self.__dict__:
            return self.value
        matrix = self._matrix(False)
        return matrix[~np.isnan(matrix)] if any(m is not None for m in self._missing) \
            else matrix.reshape(-1)

    # -- the long form -------------------------------------------------------------------
    @cached_property
    def _long_form(self) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        """(subject, rater, value), subject-major; made from the columns on first use."""
        if self._long is not None:
            return self._long
        r, n = self.n_raters, self.n_subjects
        if not any(m is not None for m in self._missing):  # complete: no index arrays
            # broadcast assignments: several times faster than np.repeat / np.tile
            subject = np.empty((n, r), dtype=np.int64)
            subject[:] = np.arange(n, dtype=np.int64)[:, None]
            rater = np.empty((n, r), dtype=np.int64)
            rater[:] = np.arange(r, dtype=np.int64)
            return subject.reshape(-1), rater.reshape(-1), self._matrix(False).reshape(-1)
        matrix = self._matrix(False)
        row, col = np.nonzero(~np.isnan(matrix))
        return row.astype(np.int64), col.astype(np.int64), matrix[row, col]

    def _matrix(self, sums: bool = True) -> np.ndarray:
        """The columns as a fresh (n_subjects, n_raters) matrix, nan where missing; as
        sums of measurements (`sums`: -0.0 becomes 0.0, as a cell's sum gives it)."""
        if not self._columns:
            return np.zeros((self.n_subjects, 0))
        layout = self._layout
        if layout is not None:  # one pass: the sums made as the copy is
            return np.add(layout, 0.0, order="C") if sums else layout.copy()
        matrix = np.column_stack(self._columns)
        if sums:
            matrix += 0.0
        return matrix

    @property
    def subject(self) -> np.ndarray:
        return self._long_form[0]

    @property
    def rater(self) -> np.ndarray:
        return self._long_form[1]

    @property
    def value(self) -> np.ndarray:
        return self._long_form[2]

    def check_magnitude(self, what: str, wide: np.ndarray | None = None) -> None:
        """Refuse measurements too large or too finely spread for sums of squares.

        Variances and sums of squared differences of values beyond about 1e150 overflow,
        and of values spread over less than about 1e-150 underflow, so a statistic built
        on them would be infinite, zero or nan without saying why. Measurements whose
        largest absolute value exceeds ``2**332`` (about 8.7e99), or whose nonzero range
        is below ``2**-332``, are a ValueError naming `what` and suggesting other units.
        `wide` is :meth:`wide` or :meth:`by_rater` when the caller has it (one contiguous
        reading pass instead of one per column).

        Examples
        --------
        >>> Measurements.from_pair([1e120, 2e120, 3e120], [1e120, 2e120, 2e120]).check_magnitude(
        ...     "The limits of agreement")  # doctest: +ELLIPSIS
        Traceback (most recent call last):
        ...
        ValueError: The limits of agreement needs measurements between 1e-100 and 1e100 ...
        """
        if wide is not None:
            arrays, known = (wide,), (None,)
        elif self._columns is not None:
            arrays, known = self._columns, self._extremes
        else:
            arrays, known = (self.value,), (None,)
        lows, highs = [], []
        for a, extremes in zip(arrays, known, strict=True):
            if extremes is None:
                if not a.size:
                    continue
                # fmin/fmax skip nan (missing) and copy no column
                extremes = (float(np.fmin.reduce(a, axis=None)),
                            float(np.fmax.reduce(a, axis=None)))
            low, high = extremes
            if low == low:  # all missing: nan
                lows.append(low)
                highs.append(high)
        if not lows:
            return
        low, high = min(lows), max(highs)
        top = max(abs(low), abs(high))
        spread = high - low
        if top > _LARGEST or 0 < spread < _FINEST:
            raise ValueError(
                f"{what} needs measurements between 1e-100 and 1e100 in size and spread; "
                f"these reach {top:.3g} with a range of {spread:.3g}, where sums of squares "
                "overflow or underflow. Express them in other units (multiply or divide by "
                "a power of ten) and convert the result back.")

    @property
    def raters(self) -> tuple[str, ...]:
        return self._raters

    @property
    def subjects(self) -> pd.Index:
        subjects = self._subjects
        if isinstance(subjects, int):  # positions (from_pair): the index made when asked for
            subjects = self._subjects = pd.RangeIndex(subjects)
        return subjects

    def relabelled(self, subjects: pd.Index) -> Measurements:
        """These measurements with their subjects labelled by `subjects`, one label per
        subject in code order (the arrays are shared, not copied).

        Examples
        --------
        >>> m = Measurements.from_pair([1.5, 2.0], [1.0, 2.5])
        >>> m.relabelled(pd.Index(["p7", "p3"], name="patient")).subjects.tolist()
        ['p7', 'p3']
        """
        if len(subjects) != self.n_subjects:
            raise ValueError(f"`subjects` has {len(subjects)} labels for {self.n_subjects} "
                             "subjects.")
        other = object.__new__(type(self))
        other.__setstate__({**vars(self), "_subjects": subjects})
        return other

    # -- sizes ---------------------------------------------------------------------------
    @property
    def n_subjects(self) -> int:
        subjects = self._subjects
        return subjects if isinstance(subjects, int) else len(subjects)

    @property
    def n_raters(self) -> int:
        return len(self.raters)

    @cached_property
    def n_measurements(self) -> int:
        if self._columns is not None:
            return sum(self.n_subjects - (0 if m is None else int(np.count_nonzero(m)))
                       for m in self._missing)
        return int(self.value.size)

    @cached_property
    def replicates(self) -> np.ndarray:
        """(n_subjects, n_raters) int: how many measurements each rater made of each subject."""
        if self._columns is not None:
            counts = np.ones((self.n_subjects, self.n_raters), dtype=np.int64)
            for j, m in enumerate(self._missing):
                if m is not None:
                    counts[m, j] = 0
            return counts
        counts = np.bincount(self._cells, minlength=self.n_subjects * self.n_raters)
        return counts.reshape(self.n_subjects, self.n_raters)

    @cached_property
    def _cells(self) -> np.ndarray:
        """Each measurement's (subject, rater) cell, ``subject * n_raters + rater``."""
        cells = self.subject * self.n_raters
        cells += self.rater
        return cells

    @property
    def has_replicates(self) -> bool:
        """Whether some rater measured some subject more than once."""
        if self._columns is not None:
            return False
        return bool(self.value.size) and int(self.replicates.max()) > 1

    def known_extremes(self, rater: int) -> tuple[float, float] | None:
        """The smallest and largest measurement of `rater`, when the constructor found them
        (a column measured for every subject, whose extremes its check read); None
        otherwise. For kernels that can skip a reading pass with them.

        Examples
        --------
        >>> Measurements.from_pair([1.5, 3.0, 2.0], [1.0, np.nan, 2.5]).known_extremes(0)
        (1.5, 3.0)
        >>> Measurements.from_pair([1.5, 3.0, 2.0], [1.0, np.nan, 2.5]).known_extremes(1) is None
        True
        """
        if self._columns is None or not 0 <= rater < len(self._extremes):
            return None
        return self._extremes[rater]

    def missing_subjects(self) -> np.ndarray:
        """The codes of the subjects that some rater did not measure, in order."""
        if self._columns is not None:
            present = [m for m in self._missing if m is not None]
            if not present:
                return np.zeros(0, dtype=np.int64)
            return np.flatnonzero(np.logical_or.reduce(present))
        return np.flatnonzero((self.replicates == 0).any(axis=1))

    # -- views ---------------------------------------------------------------------------
    def cell_sums(self) -> tuple[np.ndarray, np.ndarray]:
        """Per (subject, rater) cell: the sum of the measurements and of their squares,
        both (n_subjects, n_raters)."""
        if self._columns is not None:
            total = self._matrix()
            total[np.isnan(total)] = 0.0
            return total, total * total
        size = self.n_subjects * self.n_raters
        total = np.bincount(self._cells, weights=self.value, minlength=size)
        squares = np.bincount(self._cells, weights=self.value * self.value, minlength=size)
        shape = (self.n_subjects, self.n_raters)
        return total.reshape(shape), squares.reshape(shape)

    def wide(self) -> np.ndarray:
        """(n_subjects, n_raters) float: each rater's mean measurement of each subject
        (its only one without replicates); nan where the rater made none."""
        if self._columns is not None:
            return self._matrix()
        count = self.replicates
        if not self.has_replicates:  # one value per measured cell: placed, not summed
            size = self.n_subjects * self.n_raters
            # every cell measured once (in another order) fills the whole matrix
            out = np.empty(size) if self.value.size == size else np.full(size, np.nan)
            out[self._cells] = self.value
            out += 0.0  # -0.0 becomes 0.0, as a cell's sum gives it
            return out.reshape(self.n_subjects, self.n_raters)
        total = np.bincount(self._cells, weights=self.value,  # the sums of cell_sums()
                            minlength=self.n_subjects * self.n_raters)
        total = total.reshape(self.n_subjects, self.n_raters)
        with np.errstate(invalid="ignore", divide="ignore"):
            return np.where(count > 0, total / np.maximum(count, 1), np.nan)

    def by_rater(self) -> np.ndarray:
        """(n_raters, n_subjects) float: :meth:`wide` transposed, each rater's row
        contiguous (per-subject sums over raters add rows; per-rater sums read one row).

        Examples
        --------
        >>> m = Measurements.from_wide([[1.5, np.nan], [2.0, -0.0]], raters=["a", "b"])
        >>> m.by_rater().tolist()
        [[1.5, 2.0], [nan, 0.0]]
        """
        if self._columns is None:
            return np.ascontiguousarray(self.wide().T)
        if not self._columns:
            return np.zeros((0, self.n_subjects))
        matrix = np.stack(self._columns)
        matrix += 0.0  # -0.0 becomes 0.0, as a cell's sum gives it
        return matrix

    def paired(self, first: int = 0, second: int = 1) -> tuple[np.ndarray, np.ndarray]:
        """The two raters' (mean) measurements of the subjects both measured, in subject order."""
        x, y, _ = self.pair(first, second)
        return x, y

    def pair(self, first: int = 0, second: int = 1) -> tuple[np.ndarray, np.ndarray, int]:
        """:meth:`paired`, and how many subjects only one of the two raters measured.
        Complete columns are returned as they are (read-only views, no copy).

        Examples
        --------
        >>> m = Measurements.from_pair([1.5, 2.0, np.nan, 4.0], [1.0, np.nan, 3.0, 4.5])
        >>> x, y, one = m.pair()
        >>> x.tolist(), y.tolist(), one
        ([1.5, 4.0], [1.0, 4.5], 2)
        """
        for name, g in (("first", first), ("second", second)):
            if not 0 <= g < self.n_raters:
                raise ValueError(f"`{name}` must be a rater index in 0 .. {self.n_raters - 1}; "
                                 f"got {g}.")
        if self._columns is not None:
            a, b = self._columns[first], self._columns[second]
            ma, mb = self._missing[first], self._missing[second]
            if ma is None and mb is None:
                return _read_only(a), _read_only(b), 0
            ma = np.zeros(a.size, dtype=bool) if ma is None else ma
            mb = np.zeros(b.size, dtype=bool) if mb is None else mb
            both = ~(ma | mb)
            return a[both], b[both], int(np.count_nonzero(ma ^ mb))
        counts = self.replicates[:, [first, second]] > 0
        matrix = self.wide()[:, [first, second]]
        both = ~np.isnan(matrix).any(axis=1)
        one = int((counts.any(axis=1) & ~counts.all(axis=1)).sum())
        return matrix[both, 0], matrix[both, 1], one


def _in_cell_order(subject: np.ndarray, rater: np.ndarray, n: int, r: int) -> bool:
    """Whether measurement ``i`` is of subject ``i // r`` by rater ``i % r`` for every
    ``i < n * r``: the first ``r`` codes are subject 0's by raters 0, 1, ..., and each code
    ``r`` places on is the same rater's and the next subject's (whole-array comparisons
    of shifted codes, with no array of cells)."""
    if len(subject) != n * r or not len(subject) or r < 1:
        return False
    if not ((rater[:r] == np.arange(r)).all() and (subject[:r] == 0).all()):
        return False
    step = CHUNK * r  # whole subjects per block: the blocks' temporaries stay small
    for start in range(r, n * r, step):
        stop = min(start + step, n * r)
        if not ((rater[start:stop] == rater[start - r:stop - r]).all()
                and (subject[start:stop] == subject[start - r:stop - r] + 1).all()):
            return False
    return True


def all_finite(values: np.ndarray) -> bool:
    """Whether every value is finite: a finite sum (one reading pass, no temporary) says
    so; otherwise (a nan, an infinity, or a sum that overflowed) each value is checked."""
    with np.errstate(over="ignore", invalid="ignore"):
        total = np.add.reduce(values, axis=None)
    return bool(np.isfinite(total) or np.isfinite(values).all())


def _read_only(array: np.ndarray) -> np.ndarray:
    view = array.view()
    view.flags.writeable = False
    return view


def _real_array(values: Any, name: str) -> np.ndarray:
    """`values` as a float64 array; cells that hold collections (lists, arrays) are named
    (:func:`irr._data.refuse_nested`), other values numpy cannot convert raise its error."""
    frame = is_pandas(values, "DataFrame")
    try:
        return values.to_numpy(dtype=float) if frame else np.asarray(values, dtype=float)
    except (TypeError, ValueError):
        if frame:  # each column by its name
            for column in values.columns:
                refuse_nested(values[column].to_numpy(dtype=object), str(column))
        elif isinstance(values, np.ndarray) and values.ndim == 1:
            refuse_nested(values, name)
        else:
            refuse_nested_rows(values, name)
        raise


def _measurement_vector(values: Any, name: str) -> np.ndarray:
    """One method's measurements as a float64 vector (nan: missing), or a TypeError or
    ValueError naming the argument and the bad values."""
    if isinstance(values, pd.DataFrame):
        raise TypeError(f"`{name}` must be 1-D (one method's measurements); got a DataFrame.")
    try:
        array = values.to_numpy() if isinstance(values, pd.Series) else np.asarray(values)
    except ValueError:  # cells of unequal lengths
        refuse_nested(values, name)
        raise
    if array.dtype.kind in "US" and not isinstance(values, np.ndarray):
        array = np.asarray(values, dtype=object)  # numpy made [1.0, "a"] all text: keep types
    if array.ndim != 1:
        raise ValueError(f"`{name}` must be 1-D (one measurement per subject); got shape "
                         f"{array.shape}.")
    if array.dtype.kind not in "biuf":
        refuse_nested(array, name)  # (lists, arrays: pandas would raise its own error)
        # one rule with Agreement(continuous=True): text is refused, never parsed
        text = np.array([isinstance(v, (str, bytes)) for v in array.ravel()], dtype=bool)
        if text.any():
            raise TypeError(f"`{name}` must hold real numbers (nan for missing), not text; got "
                            f"{preview(array[text])}: convert them to numbers first "
                            "(pd.to_numeric).")
        numbers = pd.to_numeric(pd.Series(array, dtype=object), errors="coerce")
        bad = array[numbers.isna().to_numpy() & ~pd.isna(array)]
        if bad.size:
            raise TypeError(f"`{name}` must hold real numbers (nan for missing); got "
                            f"{preview(bad)}.")
        array = numbers.to_numpy()
    return np.asarray(array, dtype=float)  # infinities: Measurements._of_columns
