"""One-call shortcuts for the most common two-rater statistics."""

from __future__ import annotations

from typing import Any

import numpy as np

from irr._data import CHUNK, MAX_CATEGORIES, _as_1d, _offsets, _preview
from irr._validation import check_integer
from irr.agreement import Agreement
from irr.coefficients.kappa import kappa_parts
from irr.results import KappaResult
from irr.weights import agreement_weights

__all__ = ["cohen_kappa", "quadratic_weighted_kappa"]


def cohen_kappa(rater_a: Any, rater_b: Any, weights: Any = None, **options: Any) -> KappaResult:
    """Cohen's (or weighted) kappa of two raters: ``Agreement(a, b).kappa(weights)``.

    Parameters
    ----------
    rater_a, rater_b : array-like of shape (n_subjects,)
        The two raters' ratings.
    weights : {None, 'linear', 'quadratic'} or array-like of shape (k, k), default None
        As for :meth:`Agreement.kappa`.
    **options
        ``categories`` and ``nan_policy`` go to :class:`Agreement`; ``alternative`` and
        ``confidence_level`` to :meth:`Agreement.kappa`.

    Returns
    -------
    KappaResult

    Examples
    --------
    >>> res = cohen_kappa(["a", "b", "b", "c"], ["a", "b", "c", "c"])
    >>> round(res.estimate, 4)
    0.6364
    """
    build = {key: options.pop(key) for key in ("categories", "nan_policy") if key in options}
    return Agreement(rater_a, rater_b, **build).kappa(weights, **options)


def _integer_ratings(values: Any, name: str) -> np.ndarray:
    array = _as_1d(values, name)
    if not isinstance(array, np.ndarray) or array.dtype.kind not in "iufb":
        raise TypeError(f"`{name}` must hold integer ratings; got {_preview(np.asarray(array)[:3])}.")
    if array.dtype.kind == "f":
        if np.isnan(array).any():
            raise ValueError(
                f"`{name}` has missing ratings; use irr.Agreement(...).kappa('quadratic'), "
                "which leaves them out and reports how many."
            )
        fractional = array[array != np.round(array)]
        if fractional.size:
            raise ValueError(f"`{name}` has non-integer ratings: {_preview(np.unique(fractional))}.")
        huge = array[np.abs(array) >= 2.0**63]
        if huge.size:
            raise ValueError(
                f"`{name}` has ratings outside the 64-bit integer range: {_preview(np.unique(huge))}."
            )
        array = array.astype(np.int64)
    return array


def quadratic_weighted_kappa(
    rater_a: Any,
    rater_b: Any,
    min_rating: int | None = None,
    max_rating: int | None = None,
) -> float:
    """Quadratic weighted kappa of integer ratings on the scale ``min_rating..max_rating``.

    The signature of the widely copied reference function: the categories are every
    integer from `min_rating` to `max_rating` (default: the smallest and largest rating
    seen), and the quadratic weights use those integer values.

    Parameters
    ----------
    rater_a, rater_b : array-like of int, shape (n_subjects,)
    min_rating, max_rating : int, optional

    Returns
    -------
    float
        Quadratic weighted kappa; nan (with a warning) when it is undefined.

    See Also
    --------
    Agreement.kappa : the same estimate with standard errors, tests and intervals.

    Examples
    --------
    >>> round(quadratic_weighted_kappa([1, 2, 3, 4, 4], [1, 2, 4, 4, 3]), 12)
    0.852941176471
    """
    a = _integer_ratings(rater_a, "rater_a")
    b = _integer_ratings(rater_b, "rater_b")
    if len(a) != len(b):
        raise ValueError(f"`rater_a` has {len(a)} ratings but `rater_b` has {len(b)}.")
    if len(a) == 0:
        raise ValueError("`rater_a` is empty: there are no subjects to compare.")
    seen = {"rater_a": (int(a.min()), int(a.max())), "rater_b": (int(b.min()), int(b.max()))}
    lo = min(s[0] for s in seen.values())
    hi = max(s[1] for s in seen.values())
    if min_rating is not None:
        lo = check_integer(min_rating, "min_rating")
    if max_rating is not None:
        hi = check_integer(max_rating, "max_rating")
    if hi < lo:
        raise ValueError(f"`max_rating` ({hi}) must not be below `min_rating` ({lo}).")
    for (name, (smallest, largest)), array in zip(seen.items(), (a, b), strict=True):
        if smallest < lo or largest > hi:
            outside = np.unique(array[(array < lo) | (array > hi)])
            raise ValueError(f"`{name}` has ratings outside [{lo}, {hi}]: {_preview(outside)}.")
    # Python ints above: no int64 wrap-around, and the range is refused before any
    # allocation that depends on it.
    k = hi - lo + 1
    if k > MAX_CATEGORIES:
        raise ValueError(
            f"The rating range {lo}..{hi} spans {k} values; at most {MAX_CATEGORIES}."
        )
    # Cell (i, j) of the table sits at index lo*(k+1) + i*k + j of a*k + b, so for small
    # ratings the table is a window of the bincount: no offset pass needed. Otherwise
    # (large or negative labels) the ratings are first offset by `lo`, exactly. Chunks
    # bound the int64 cell index to a few MiB (10^8 pairs: 17 MiB, not 763 MiB).
    start = lo * (k + 1)
    window = 0 <= start <= 4 * k * k
    if not window:
        start = 0
    table = np.zeros(k * k, dtype=np.int64)
    for first in range(0, len(a), CHUNK):
        chunk_a, chunk_b = a[first : first + CHUNK], b[first : first + CHUNK]
        if window:
            cells = np.multiply(chunk_a, k, dtype=np.int64)
            cells += chunk_b
        else:
            cells = _offsets(chunk_a, lo)
            cells *= k
            cells += _offsets(chunk_b, lo)
        table += np.bincount(cells, minlength=start + k * k)[start : start + k * k]
    table = table.reshape(k, k)
    weights = agreement_weights("quadratic", k, np.arange(k, dtype=float))
    kappa = kappa_parts(table, weights).kappa
    if np.isnan(kappa):
        import warnings

        from irr._validation import DegenerateDataWarning

        warnings.warn(
            "quadratic weighted kappa is undefined (nan): expected agreement is 1.",
            DegenerateDataWarning,
            stacklevel=2,
        )
    return float(kappa)
