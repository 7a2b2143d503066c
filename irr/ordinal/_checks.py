"""Array validation for :mod:`irr.ordinal`.

These complement the scalar checkers in :mod:`irr._validation`; every message names the
argument in backticks and shows the offending value.
"""

from __future__ import annotations

import numbers
from typing import Any

import numpy as np

from irr._validation import show_value

__all__ = [
    "as_1d",
    "as_1d_real",
    "as_2d_real",
    "check_nonnegative_real",
    "check_same_length",
]


def _first_bad(mask: np.ndarray) -> str:
    """Describe the first flagged position of a boolean array."""
    index = np.flatnonzero(mask.ravel())
    position = np.unravel_index(index[0], mask.shape) if mask.ndim > 1 else int(index[0])
    if isinstance(position, tuple):
        position = tuple(int(p) for p in position)
    return f"{index.size} value(s), the first at position {position}"


def as_1d(values: Any, name: str) -> np.ndarray:
    """Return `values` as a non-empty 1-D array (any dtype)."""
    if values is None:
        raise TypeError(f"`{name}` must be a 1-D array-like; got None.")
    array = np.asarray(values)
    if array.ndim != 1:
        what = "a scalar" if array.ndim == 0 else f"an array of shape {array.shape}"
        raise ValueError(f"`{name}` must be 1-D; got {what}.")
    if array.size == 0:
        raise ValueError(f"`{name}` must not be empty.")
    return array


def to_float(array: np.ndarray, name: str) -> np.ndarray:
    if array.dtype.kind == "c":
        raise ValueError(
            f"`{name}` must be real. Complex data not supported; got dtype {array.dtype}."
        )
    if array.dtype.kind in "biuf":
        return array.astype(np.float64, copy=False)
    if array.dtype.kind in "USO":
        strings = [str(v) for v in array.ravel() if isinstance(v, (str, bytes))]
        if strings:
            raise TypeError(
                f"`{name}` must contain real numbers; got dtype {array.dtype} holding strings "
                f"{show_value(strings[:3])} (strings are not converted to numbers)."
            )
    try:
        return array.astype(np.float64)
    except (TypeError, ValueError) as exc:
        raise TypeError(
            f"`{name}` must contain real numbers; got dtype {array.dtype} ({exc})."
        ) from None


def _check_finite(array: np.ndarray, name: str) -> None:
    bad = ~np.isfinite(array)
    if bad.any():
        raise ValueError(
            f"`{name}` must be finite (no nan or inf); got {_first_bad(bad)} "
            f"({float(array[bad].ravel()[0])!r})."
        )


def as_1d_real(values: Any, name: str) -> np.ndarray:
    """Return `values` as a non-empty, finite, 1-D float64 array."""
    array = to_float(as_1d(values, name), name)
    _check_finite(array, name)
    return array


def as_2d_real(values: Any, name: str) -> np.ndarray:
    """Return `values` as a finite 2-D float64 array with at least one row and column."""
    if values is None:
        raise TypeError(f"`{name}` must be a 2-D array-like; got None.")
    if hasattr(values, "toarray") or type(values).__module__.startswith("scipy.sparse"):
        raise TypeError(
            f"`{name}` must be dense; sparse input is not supported; got {type(values)}."
        )
    array = np.asarray(values)
    if array.ndim != 2:
        what = "a scalar" if array.ndim == 0 else f"an array of shape {array.shape}"
        raise ValueError(
            f"`{name}` must be 2-D of shape (n_samples, n_features); got {what}. "
            "Reshape your data with X.reshape(-1, 1) if it holds a single feature."
        )
    for axis, what in ((0, "sample"), (1, "feature")):
        if array.shape[axis] == 0:
            raise ValueError(
                f"`{name}` has 0 {what}(s) (shape={array.shape}) while a minimum of 1 is required."
            )
    array = to_float(array, name)
    _check_finite(array, name)
    return array


def check_same_length(a: np.ndarray, b: np.ndarray, name_a: str, name_b: str) -> None:
    """Raise if two arrays differ in their first dimension."""
    if a.shape[0] != b.shape[0]:
        raise ValueError(
            f"`{name_a}` and `{name_b}` must have the same length; "
            f"got {a.shape[0]} and {b.shape[0]}."
        )


def check_nonnegative_real(value: Any, name: str) -> float:
    """Return `value` as a float if it is a finite real number >= 0, else raise."""
    if isinstance(value, bool) or not isinstance(value, numbers.Real):
        raise TypeError(f"`{name}` must be a real number >= 0; got {show_value(value)}.")
    value = float(value)
    if not (np.isfinite(value) and value >= 0.0):
        raise ValueError(f"`{name}` must be a finite number >= 0; got {show_value(value)}.")
    return value
