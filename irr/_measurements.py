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

from collections.abc import Sequence
from dataclasses import dataclass
from functools import cached_property
from typing import Any

import numpy as np
import pandas as pd

from irr._data import distinct_names, preview

__all__ = ["Measurements"]


@dataclass(frozen=True, eq=False)
class Measurements:
    """Measurements in long form: ``value[i]`` is a measurement of subject ``subject[i]``
    by rater ``rater[i]``.

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

    subject: np.ndarray
    rater: np.ndarray
    value: np.ndarray
    raters: tuple[str, ...]
    subjects: pd.Index

    def __post_init__(self) -> None:
        for name in ("subject", "rater", "value"):
            array = getattr(self, name)
            if array.ndim != 1 or array.shape != self.value.shape:
                raise ValueError(f"`{name}` must be 1-D like `value`; got shape {array.shape}.")
        if self.value.size and not np.isfinite(self.value).all():
            raise ValueError("`value` must be finite (leave missing measurements out).")

    # -- constructors --------------------------------------------------------------------
    @classmethod
    def from_wide(
        cls, values: Any, raters: Sequence[str] | None = None, subjects: Any = None
    ) -> Measurements:
        """Measurements of a subjects x raters matrix (nan: not measured; no replicates)."""
        matrix = np.asarray(values, dtype=float)
        if matrix.ndim != 2:
            raise ValueError(f"`values` must be 2-D (subjects x raters); got shape {matrix.shape}.")
        return cls.from_columns(list(matrix.T), raters, subjects)

    @classmethod
    def from_columns(
        cls, columns: Sequence[np.ndarray], raters: Sequence[str] | None = None,
        subjects: Any = None,
    ) -> Measurements:
        """Measurements of one float array per rater, one value per subject (nan: not
        measured; no replicates), in O(values) time and memory.

        Examples
        --------
        >>> m = Measurements.from_columns([np.array([1.5, 2.0]), np.array([1.0, np.nan])],
        ...                               raters=["a", "b"])
        >>> m.subject.tolist(), m.rater.tolist(), m.value.tolist()
        ([0, 0, 1], [0, 1, 0], [1.5, 1.0, 2.0])
        """
        columns = [np.asarray(c, dtype=float) for c in columns]
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
        matrix = np.column_stack(columns) if r else np.zeros((n, 0))  # subject-major order
        missing = np.isnan(matrix)
        if not missing.any():  # complete: no index arrays to search for
            # broadcast assignments: several times faster than np.repeat / np.tile
            subject = np.empty((n, r), dtype=np.int64)
            subject[:] = np.arange(n, dtype=np.int64)[:, None]
            rater = np.empty((n, r), dtype=np.int64)
            rater[:] = np.arange(r, dtype=np.int64)
            return cls(subject.reshape(-1), rater.reshape(-1), matrix.reshape(-1), names, index)
        row, col = np.nonzero(~missing)
        return cls(row.astype(np.int64), col.astype(np.int64), matrix[row, col], names, index)

    @classmethod
    def from_pair(cls, x: Any, y: Any, names: Any = None) -> Measurements:
        """Measurements of two methods' vectors, one subject per position (nan: not
        measured). The methods are named by `names`, else by the Series' names, else
        ``'x'`` and ``'y'``. The one check of two-method input for every shortcut.

        Examples
        --------
        >>> m = Measurements.from_pair(pd.Series([1.5, 2.0, np.nan], name="device"),
        ...                            pd.Series([1.0, 2.5, 3.0], name="cuff"))
        >>> m.raters, m.n_subjects, m.paired()[0].tolist()
        (('device', 'cuff'), 3, [1.5, 2.0])
        """
        if y is None:
            raise TypeError("`y` is required when `x` is an array (or pass a Measurements).")
        a, b = _measurement_vector(x, "x"), _measurement_vector(y, "y")
        if a.size != b.size:
            raise ValueError(f"`x` and `y` must have one length; got {a.size} and {b.size}.")
        if names is None:
            labels = [str(getattr(v, "name", None) or d) for v, d in ((x, "x"), (y, "y"))]
            names = labels if labels[0] != labels[1] else ["x", "y"]
        elif isinstance(names, str) or len(names) != 2:
            raise ValueError(f"`names` must name the two methods; got {preview(names)}.")
        return cls.from_wide(np.column_stack([a, b]), raters=distinct_names(names, "names"))

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

    # -- sizes ---------------------------------------------------------------------------
    @property
    def n_subjects(self) -> int:
        return len(self.subjects)

    @property
    def n_raters(self) -> int:
        return len(self.raters)

    @property
    def n_measurements(self) -> int:
        return int(self.value.size)

    @cached_property
    def replicates(self) -> np.ndarray:
        """(n_subjects, n_raters) int: how many measurements each rater made of each subject."""
        cells = self.subject * self.n_raters + self.rater
        counts = np.bincount(cells, minlength=self.n_subjects * self.n_raters)
        return counts.reshape(self.n_subjects, self.n_raters)

    @property
    def has_replicates(self) -> bool:
        """Whether some rater measured some subject more than once."""
        return bool(self.value.size) and int(self.replicates.max()) > 1

    # -- views ---------------------------------------------------------------------------
    def cell_sums(self) -> tuple[np.ndarray, np.ndarray]:
        """Per (subject, rater) cell: the sum of the measurements and of their squares,
        both (n_subjects, n_raters)."""
        cells = self.subject * self.n_raters + self.rater
        size = self.n_subjects * self.n_raters
        total = np.bincount(cells, weights=self.value, minlength=size)
        squares = np.bincount(cells, weights=self.value * self.value, minlength=size)
        shape = (self.n_subjects, self.n_raters)
        return total.reshape(shape), squares.reshape(shape)

    def wide(self) -> np.ndarray:
        """(n_subjects, n_raters) float: each rater's mean measurement of each subject
        (its only one without replicates); nan where the rater made none."""
        total, _ = self.cell_sums()
        count = self.replicates
        with np.errstate(invalid="ignore", divide="ignore"):
            return np.where(count > 0, total / np.maximum(count, 1), np.nan)

    def paired(self, first: int = 0, second: int = 1) -> tuple[np.ndarray, np.ndarray]:
        """The two raters' (mean) measurements of the subjects both measured, in subject order."""
        for name, g in (("first", first), ("second", second)):
            if not 0 <= g < self.n_raters:
                raise ValueError(f"`{name}` must be a rater index in 0 .. {self.n_raters - 1}; "
                                 f"got {g}.")
        matrix = self.wide()[:, [first, second]]
        both = ~np.isnan(matrix).any(axis=1)
        return matrix[both, 0], matrix[both, 1]


def _measurement_vector(values: Any, name: str) -> np.ndarray:
    """One method's measurements as a float64 vector (nan: missing), or a TypeError or
    ValueError naming the argument and the bad values."""
    if isinstance(values, pd.DataFrame):
        raise TypeError(f"`{name}` must be 1-D (one method's measurements); got a DataFrame.")
    array = values.to_numpy() if isinstance(values, pd.Series) else np.asarray(values)
    if array.ndim != 1:
        raise ValueError(f"`{name}` must be 1-D (one measurement per subject); got shape "
                         f"{array.shape}.")
    if array.dtype.kind not in "biuf":
        numbers = pd.to_numeric(pd.Series(array, dtype=object), errors="coerce")
        bad = array[numbers.isna().to_numpy() & ~pd.isna(array)]
        if bad.size:
            raise TypeError(f"`{name}` must hold real numbers (nan for missing); got "
                            f"{preview(bad)}.")
        array = numbers.to_numpy()
    array = array.astype(float)
    if np.isinf(array).any():
        raise ValueError(f"`{name}` holds infinite values: {preview(array[np.isinf(array)])}.")
    return array
