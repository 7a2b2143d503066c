"""Krippendorff's alpha, intraclass correlations and Kendall's W: validation and results.

The formulas live in :mod:`irr.coefficients.krippendorff`, :mod:`irr.coefficients.icc` and
:mod:`irr.coefficients.kendall`; this module turns coded ratings into their sufficient
statistics, calls them and builds the result objects. :class:`irr.Agreement` delegates
here, and the module-level :func:`krippendorff_alpha` and :func:`icc` accept plain arrays.
"""

from __future__ import annotations

import contextlib
import math
import warnings
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any, ClassVar

import numpy as np
import pandas as pd

from irr._data import Ratings, _preview
from irr._table import subject_category_counts, unique_patterns
from irr._validation import DegenerateDataWarning, check_choice, check_confidence_level
from irr.coefficients.icc import (
    FORMS,
    MeanSquares,
    icc_estimate,
    icc_f_test,
    icc_interval,
    mean_squares,
    shrout_fleiss_name,
)
from irr.coefficients.kendall import kendall_w
from irr.coefficients.krippendorff import (
    LEVELS,
    alpha_from_coincidences,
    coincidences,
    coincidences_from_codes,
    distance_matrix,
)
from irr.results import ConfidenceInterval, Result

__all__ = [
    "FORMS",
    "ICCResult",
    "KendallResult",
    "KrippendorffResult",
    "alpha_patterns",
    "icc",
    "krippendorff_alpha",
]

_MODELS = ("oneway", "twoway")
_TYPES = ("agreement", "consistency")
_UNITS = ("single", "average")
_LAYOUTS = ("raters-units", "units-raters")
_MCGRAW_WONG = {
    ("oneway", "agreement", "single"): "ICC(1)",
    ("oneway", "agreement", "average"): "ICC(k)",
    ("twoway", "agreement", "single"): "ICC(A,1)",
    ("twoway", "agreement", "average"): "ICC(A,k)",
    ("twoway", "consistency", "single"): "ICC(C,1)",
    ("twoway", "consistency", "average"): "ICC(C,k)",
}
_DESCRIPTIONS = {
    "oneway": "one-way random effects",
    "twoway": "two-way effects",
}


def _nan_interval(confidence_level: float, method: str) -> ConfidenceInterval:
    return ConfidenceInterval(math.nan, math.nan, confidence_level, method)


# -- result classes ---------------------------------------------------------------------
@dataclass(frozen=True, eq=False, kw_only=True, repr=False)
class KrippendorffResult(Result):
    """Krippendorff's alpha.

    Adds ``level`` (``'nominal'``, ``'ordinal'``, ``'interval'``, ``'ratio'`` or
    ``'custom'``), ``observed_disagreement`` (D_o), ``expected_disagreement`` (D_e),
    ``n_pairable`` (pairable values n), ``coincidences`` (the k x k coincidence matrix)
    and ``distances`` (the k x k squared distances used).

    Examples
    --------
    >>> import irr
    >>> ag = irr.Agreement.from_frame(irr.datasets.load("cac_raw4raters"))
    >>> res = ag.krippendorff_alpha("interval", n_resamples=1000, rng=0)
    >>> res.level, round(res.estimate, 3), res.n_pairable
    ('interval', 0.849, 40)
    >>> res.coincidences.shape
    (5, 5)
    """

    level: str
    observed_disagreement: float
    expected_disagreement: float
    n_pairable: int
    coincidences: np.ndarray = field(repr=False)
    distances: np.ndarray = field(repr=False)
    categories: tuple = ()
    bounds: tuple[float, float] = (-math.inf, 1.0)

    def _extras(self) -> dict[str, Any]:
        return {
            "level": self.level,
            "observed_disagreement": self.observed_disagreement,
            "expected_disagreement": self.expected_disagreement,
            "n_pairable": self.n_pairable,
        }


@dataclass(frozen=True, eq=False, kw_only=True, repr=False)
class ICCResult(Result):
    """An intraclass correlation with its F test and exact F-based interval.

    ``statistic`` is the F statistic of H0: ICC = 0 on ``df1`` and ``df2`` degrees of
    freedom (one-sided, ``alternative='greater'``); ``ci`` is the exact interval of
    McGraw & Wong (1996), ``df_ci`` the denominator df it used (Satterthwaite-type for
    absolute agreement). Also ``model``, ``type``, ``unit``, ``shrout_fleiss`` (e.g.
    ``'ICC(2,1)'``), ``mcgraw_wong`` (e.g. ``'ICC(A,1)'``) and the mean squares
    ``ms_rows``, ``ms_columns``, ``ms_error``, ``ms_within``.

    Examples
    --------
    >>> import irr
    >>> ag = irr.Agreement.from_frame(irr.datasets.load("anxiety"))
    >>> res = ag.icc("twoway", "agreement", "single")
    >>> res.coefficient, res.shrout_fleiss, round(res.estimate, 3)
    ('ICC(2,1)', 'ICC(2,1)', 0.198)
    >>> round(res.statistic, 2), res.df1, res.df2
    (1.83, 19, 38)
    >>> [round(x, 4) for x in res.ci]
    [-0.0389, 0.4936]
    """

    scale: str | None = "koo-li"
    statistic_name: str = "F"

    model: str
    type: str
    unit: str
    shrout_fleiss: str
    mcgraw_wong: str
    df1: int
    df2: int
    df_ci: float
    ms_rows: float
    ms_columns: float
    ms_error: float
    ms_within: float
    n_raters: int
    bounds: tuple[float, float] = (-math.inf, 1.0)

    interval_methods: ClassVar[tuple[str, ...]] = ("exact", *Result.interval_methods)

    def _interval(self, level: float, method: str) -> ConfidenceInterval:
        """``'exact'`` (the default, F-based) or the inherited methods."""
        if method == "exact":
            ms = MeanSquares(
                np.float64(self.ms_rows), np.float64(self.ms_columns),
                np.float64(self.ms_error), np.float64(self.ms_within),
                self.n_subjects, self.n_raters,
            )
            low, high, _ = icc_interval(ms, self.model, self.type, self.unit, level)
            return ConfidenceInterval(float(low), float(high), level, "exact")
        return super()._interval(level, method)

    def _extras(self) -> dict[str, Any]:
        return {
            "model": self.model,
            "type": self.type,
            "unit": self.unit,
            "shrout_fleiss": self.shrout_fleiss,
            "mcgraw_wong": self.mcgraw_wong,
            "df1": self.df1,
            "df2": self.df2,
            "df_ci": self.df_ci,
            "ms_rows": self.ms_rows,
            "ms_columns": self.ms_columns,
            "ms_error": self.ms_error,
            "ms_within": self.ms_within,
        }


@dataclass(frozen=True, eq=False, kw_only=True, repr=False)
class KendallResult(Result):
    """Kendall's W with its chi-square test (``statistic``, ``df``, ``pvalue``).

    Adds ``df`` (n - 1), ``correct_ties`` and ``ties`` (the tie sum T).

    Examples
    --------
    >>> import irr
    >>> res = irr.Agreement.from_frame(irr.datasets.load("anxiety")).kendall_w()
    >>> round(res.estimate, 4), res.df, round(res.statistic, 2)
    (0.5397, 19, 30.76)
    """

    scale: str | None = None
    statistic_name: str = "chi2"

    df: int
    correct_ties: bool
    ties: float
    bounds: tuple[float, float] = (0.0, 1.0)

    def _extras(self) -> dict[str, Any]:
        return {"df": self.df, "correct_ties": self.correct_ties, "ties": self.ties}


# -- shared data access -----------------------------------------------------------------
def _code_matrix(ratings: Ratings, given_table: np.ndarray | None) -> np.ndarray:
    """Codes as an (n, m) int array; a two-rater table is expanded to its subjects."""
    if given_table is not None:
        k = given_table.shape[0]
        cells = np.repeat(np.arange(k * k), given_table.ravel())
        return np.column_stack([cells // k, cells % k])
    return np.column_stack(ratings.codes)


def _require_subjects(n: int, what: str, which: str = "subjects") -> None:
    if n < 2:
        raise ValueError(f"{what} needs at least two {which}; got {n}.")


def _numeric_matrix(
    ratings: Ratings, given_table: np.ndarray | None, what: str
) -> tuple[np.ndarray, np.ndarray]:
    """Scores (n, m) with nan for missing, and the mask of complete subjects."""
    if ratings.scores is None:
        raise TypeError(
            f"{what} needs numeric or ordered ratings (category scores); the categories "
            f"{_preview(ratings.categories)} are unordered labels. Pass ordered categories "
            "with `categories=` or numeric ratings."
        )
    codes = _code_matrix(ratings, given_table)
    values = np.append(ratings.scores, np.nan)[codes]  # code -1 (missing) picks the nan
    return values, np.isfinite(values @ np.ones(values.shape[1]))


def _complete_subjects(
    values: np.ndarray, complete: np.ndarray, what: str
) -> tuple[np.ndarray, int]:
    """The rows of complete subjects (at least two, else raise) and how many were dropped."""
    x = values[complete] if not complete.all() else values
    _require_subjects(x.shape[0], what, "subjects with complete ratings")
    return x, int((~complete).sum())


def _listwise_note(dropped: int) -> list[str]:
    """The note on subjects left out for a missing rating, if any."""
    if dropped:
        return [f"{dropped} subject(s) with a missing rating were left out (listwise)."]
    return []


def _score_note(ratings: Ratings) -> list[str]:
    if ratings.scores is not None and ratings.categories.dtype.kind not in "iufb" and not all(
        isinstance(c, (int, float)) for c in ratings.categories
    ):
        return [
            "Ratings scored by their positions 0..k-1 in the category order "
            f"{_preview(ratings.categories)}."
        ]
    return []


# -- Krippendorff's alpha ---------------------------------------------------------------
def _check_level(level: Any, k: int, scores: np.ndarray | None) -> tuple[str, Any]:
    """Validate `level`; return (name, level or validated distance matrix/callable)."""
    if isinstance(level, str) or not (callable(level) or isinstance(level, (list, tuple,
                                                                            np.ndarray))):
        if not isinstance(level, str) or level not in LEVELS:
            listed = ", ".join(repr(v) for v in LEVELS)
            raise ValueError(
                f"`level` must be one of {listed}, a callable distance or a k x k matrix of "
                f"squared distances; got {level!r}."
            )
        name = level
        if name in ("interval", "ratio") and scores is None:
            raise TypeError(
                f"`level='{name}'` needs numeric or ordered categories; these are unordered "
                "labels."
            )
        if name == "ordinal" and scores is None:
            raise TypeError(
                "`level='ordinal'` needs ordered categories; these are unordered labels. "
                "Pass `categories=` in scale order."
            )
        if name == "ratio" and (scores < 0).any():
            raise ValueError(
                "`level='ratio'` needs non-negative values (a ratio scale has an absolute "
                f"zero); got negative values {_preview(scores[scores < 0])}."
            )
        return name, name
    if callable(level):
        if scores is None:
            raise TypeError(
                "A callable `level` is applied to category scores, but these categories are "
                "unordered labels without scores; pass a k x k matrix instead."
            )
        try:
            matrix = np.asarray(level(scores[:, None], scores[None, :]), dtype=float)
        except (TypeError, ValueError) as exc:
            raise ValueError(f"The `level` callable failed on the category scores: {exc}") from None
        if matrix.shape != (k, k):
            matrix = np.broadcast_to(matrix, (k, k)) if matrix.ndim == 0 else matrix
    else:
        matrix = np.asarray(level, dtype=float)
    if matrix.shape != (k, k):
        raise ValueError(
            f"`level` as distances must be a {k} x {k} matrix (one row per category); got "
            f"shape {matrix.shape}."
        )
    if not np.isfinite(matrix).all() or (matrix < 0).any():
        raise ValueError("`level` distances must be finite and non-negative.")
    if np.abs(np.diag(matrix)).max() > 0:
        raise ValueError("`level` distances must be zero on the diagonal (a value vs itself).")
    if not np.allclose(matrix, matrix.T, rtol=1e-12, atol=0):
        raise ValueError("`level` distances must be symmetric.")
    return "custom", matrix


def alpha_patterns(
    ratings: Ratings, given_table: np.ndarray | None
) -> tuple[np.ndarray, np.ndarray]:
    """Distinct unit patterns (P, k) and their multiplicities, for the bootstrap engine."""
    k = ratings.n_categories
    if given_table is not None:
        cells = np.flatnonzero(given_table.ravel())
        patterns = np.zeros((len(cells), k), dtype=np.int64)
        np.add.at(patterns, (np.arange(len(cells)), cells // k), 1)
        np.add.at(patterns, (np.arange(len(cells)), cells % k), 1)
        return patterns, given_table.ravel()[cells]
    patterns, multiplicity, _ = unique_patterns(subject_category_counts(ratings.codes, k))
    return patterns, multiplicity


def alpha_result(
    ratings: Ratings,
    given_table: np.ndarray | None,
    level: Any,
    confidence_level: float,
) -> KrippendorffResult:
    """Krippendorff's alpha of coded ratings (see :meth:`irr.Agreement.krippendorff_alpha`)."""
    confidence_level = check_confidence_level(confidence_level)
    k = ratings.n_categories
    name, metric = _check_level(level, k, ratings.scores)
    if given_table is not None:
        counts, multiplicity = alpha_patterns(ratings, given_table)
        n_units = int(multiplicity.sum())
        n_pairable_units = n_units
        n_ratings_missing = 0
        o = coincidences(counts, multiplicity)
    else:
        n_raters = len(ratings.codes)
        if n_raters * (n_raters - 1) // 2 <= k * k:
            o, values = coincidences_from_codes(ratings.codes, k)
        else:
            counts = subject_category_counts(ratings.codes, k)
            o, values = coincidences(counts), counts.sum(axis=1)
        n_units = len(values)
        n_pairable_units = int((values >= 2).sum())
        n_ratings_missing = int(n_raters * n_units - values.sum())
    _require_subjects(n_units, "Krippendorff's alpha", "units (subjects)")
    margins = o.sum(axis=1)
    distances = distance_matrix(metric, k, ratings.scores, margins)
    alpha, observed, expected = alpha_from_coincidences(o, distances)
    n_pairable = round(float(margins.sum()))
    if n_pairable_units == 0:
        warnings.warn(
            "Krippendorff's alpha is undefined (nan): no unit has two or more ratings to pair.",
            DegenerateDataWarning, stacklevel=3,
        )
    elif math.isnan(alpha):
        warnings.warn(
            "Krippendorff's alpha is undefined (nan): expected disagreement is 0 because every "
            "pairable value is the same category (no variation to agree on).",
            DegenerateDataWarning, stacklevel=3,
        )
    dropped = n_units - n_pairable_units
    notes = [
        f"Krippendorff's alpha ({name} metric) uses every pairable value (Krippendorff 2011); "
        "no analytic SE: intervals come from the unit bootstrap."
    ]
    if n_ratings_missing or dropped:
        notes.append(
            f"{n_ratings_missing} missing rating(s); {dropped} unit(s) with fewer than two "
            "ratings were left out (not pairable)."
        )
    if name in ("interval", "ratio") or (name == "custom" and callable(level)):
        notes.extend(_score_note(ratings))
    return KrippendorffResult(
        coefficient=f"Krippendorff's alpha ({name})",
        symbol="α",
        estimate=alpha,
        se=math.nan,
        ci=_nan_interval(confidence_level, "percentile"),
        n_subjects=n_pairable_units,
        n_missing=dropped,
        raters=ratings.raters,
        notes=tuple(notes),
        level=name,
        observed_disagreement=observed,
        expected_disagreement=expected,
        n_pairable=n_pairable,
        coincidences=o,
        distances=distances,
        categories=tuple(ratings.categories),
    )


def krippendorff_alpha(
    reliability_data: Any,
    level: str | Callable[..., Any] | Any = "nominal",
    *,
    layout: str = "raters-units",
    categories: Any = None,
    confidence_level: float = 0.95,
    ci: str | None = "percentile",
    n_resamples: int = 9999,
    rng: Any = None,
) -> KrippendorffResult:
    r"""Krippendorff's alpha of a reliability data matrix with missing values.

    Parameters
    ----------
    reliability_data : array-like or DataFrame of shape (n_raters, n_units) or (n_units, n_raters)
        The ratings, ``nan`` (or None / pd.NA) for a missing value. Which axis holds the
        raters is set by `layout`.
    level : {'nominal', 'ordinal', 'interval', 'ratio'}, callable or array-like, default 'nominal'
        The metric, as for :meth:`irr.Agreement.krippendorff_alpha`.
    layout : {'raters-units', 'units-raters'}, default 'raters-units'
        ``'raters-units'``: one row per rater (coder) and one column per unit, the layout
        of Krippendorff's reliability data matrix and of the ``krippendorff`` package's
        ``reliability_data``. ``'units-raters'``: one row per unit (subject) and one
        column per rater, the layout of :meth:`irr.Agreement.from_frame`. Alpha is not
        symmetric in the two, so the layout is never guessed.
    categories : sequence, optional
        The full value domain in scale order (unobserved values too).
    confidence_level : float, default 0.95
    ci, n_resamples, rng
        The bootstrap interval over units, as for :meth:`irr.Agreement.krippendorff_alpha`
        (``ci=None``: the estimate only).

    Returns
    -------
    KrippendorffResult

    Raises
    ------
    ValueError
        An unknown `level` or `layout`, fewer than two raters or units, negative values at
        the ratio level.

    See Also
    --------
    irr.Agreement.krippendorff_alpha

    Examples
    --------
    >>> import irr
    >>> data = irr.datasets.load("cac_raw4raters")          # 12 units x 4 raters
    >>> res = irr.krippendorff_alpha(data, "interval", layout="units-raters")
    >>> round(res.estimate, 3)
    0.849
    >>> round(irr.krippendorff_alpha(data.T, "ordinal").estimate, 3)
    0.815
    """
    from irr.agreement import Agreement

    check_choice(layout, "layout", _LAYOUTS)
    columns, names = _columns(reliability_data, layout, "reliability_data")
    if len(columns) < 2:
        raise ValueError(
            f"Krippendorff's alpha needs at least two raters; `reliability_data` has "
            f"{len(columns)} (layout={layout!r}: raters are the "
            f"{'rows' if layout == 'raters-units' else 'columns'})."
        )
    _require_subjects(len(columns[0]), "Krippendorff's alpha", "units (subjects)")
    ratings = _integral_ratings(columns, names) if categories is None else None
    if ratings is not None:
        ag = Agreement._from_ratings(ratings)
    else:
        ag = Agreement(*columns, categories=categories, names=names)
    return ag.krippendorff_alpha(
        level, confidence_level=confidence_level, ci=ci, n_resamples=n_resamples, rng=rng
    )


def _integral_ratings(columns: list[Any], names: list[str]) -> Ratings | None:
    """Fast coding of integral numeric columns (``nan`` missing) by offset; else None."""
    if not all(isinstance(c, np.ndarray) and c.dtype.kind in "iuf" for c in columns):
        return None
    array = np.stack(columns)
    if array.shape[1] == 0:
        return None
    with np.errstate(invalid="ignore"):
        lo, hi = np.fmin.reduce(array, axis=None), np.fmax.reduce(array, axis=None)
    if not (np.isfinite(lo) and np.isfinite(hi)) or lo != np.floor(lo):
        return None
    # Python numbers: no wrap-around of int64 extremes; labels beyond 2**53 (inexact as
    # floats) go to the general coder, which checks them.
    if abs(float(lo)) > 2.0**53 or abs(float(hi)) > 2.0**53 or int(hi) - int(lo) > 1 << 16:
        return None
    missing = np.isnan(array) if array.dtype.kind == "f" else np.zeros(array.shape, bool)
    shifted = array - lo
    offsets = np.where(missing, 0, shifted).astype(np.int64)
    if not ((offsets == shifted) | missing).all():
        return None  # non-integral values (or infinities): the general coder handles them
    used = np.bincount(offsets.ravel(), minlength=int(hi - lo) + 1) > 0  # 0 is lo: used
    remap = (np.cumsum(used) - 1).astype(np.int32)
    codes = np.where(missing, -1, remap[offsets])
    categories = pd.Index(np.flatnonzero(used) + int(lo))
    return Ratings(tuple(codes), categories, categories.to_numpy(dtype=float), True,
                   tuple(names))


def _columns(data: Any, layout: str, name: str) -> tuple[list[Any], list[str]]:
    """One array per rater from a 2-D array-like or DataFrame in `layout`."""
    if isinstance(data, pd.DataFrame):
        frame = data if layout == "units-raters" else data.T
        names = [str(c) for c in frame.columns]
        if len(set(names)) < len(names):
            names = [f"rater{i}" for i in range(1, len(names) + 1)]
        return [frame.iloc[:, j] for j in range(frame.shape[1])], names
    if isinstance(data, (str, bytes)) or np.isscalar(data):
        raise TypeError(f"`{name}` must be a 2-D array-like; got {data!r}.")
    array = np.asarray(data, dtype=object if not hasattr(data, "dtype") else None)
    if array.dtype == object and not any(isinstance(v, (str, bytes)) for v in array.ravel()):
        # numbers (and None) to float; strings stay labels (astype(float) would parse "1")
        with contextlib.suppress(TypeError, ValueError):
            array = array.astype(float)
    if array.ndim != 2:
        raise ValueError(f"`{name}` must be 2-D; got an array of shape {array.shape}.")
    if layout == "raters-units":
        array = array.T
    return [array[:, j] for j in range(array.shape[1])], [
        f"rater{j}" for j in range(1, array.shape[1] + 1)
    ]


# -- intraclass correlation -------------------------------------------------------------
def _check_form(model: Any, type: Any, unit: Any) -> tuple[str, str, str]:
    model = check_choice(model, "model", _MODELS)
    type = check_choice(type, "type", _TYPES)
    unit = check_choice(unit, "unit", _UNITS)
    if model == "oneway" and type == "consistency":
        raise ValueError(
            "`type='consistency'` needs `model='twoway'`: the one-way model cannot separate "
            "rater effects from error, so its ICC measures absolute agreement; use "
            "`type='agreement'` (Shrout & Fleiss ICC(1,1) / ICC(1,k))."
        )
    return model, type, unit


def icc_from_values(
    values: np.ndarray,
    complete: np.ndarray,
    raters: tuple[str, ...],
    model: str,
    type: str,
    unit: str,
    confidence_level: float,
    notes: list[str] | None = None,
) -> ICCResult:
    """The ICC result of an (n, k) score matrix with its complete-subject mask."""
    from scipy.special import fdtrc

    model, type, unit = _check_form(model, type, unit)
    confidence_level = check_confidence_level(confidence_level)
    x, dropped = _complete_subjects(values, complete, "The ICC")
    n, k = x.shape
    largest = float(np.abs(x).max())
    if largest > 2.0**200:
        raise ValueError(
            f"The ICC needs ratings below 2**200 in magnitude; the largest is {largest:.3g}: "
            "its interval squares the mean squares, which would overflow float64. Rescale "
            "the ratings (the ICC does not change under rescaling)."
        )
    ms = mean_squares(x)
    estimate = float(icc_estimate(ms, model, type, unit))
    f, df1, df2 = icc_f_test(ms, model)
    f = float(f)
    low, high, df_ci = icc_interval(ms, model, type, unit, confidence_level)
    if math.isnan(estimate):
        warnings.warn(
            "The ICC is undefined (nan): there is no variance between subjects and none "
            "left to compare it with (0/0; e.g. every rating is the same, or every subject "
            "has the same ratings).",
            DegenerateDataWarning, stacklevel=3,
        )
    sf = shrout_fleiss_name(model, type, unit, k)
    mw = _MCGRAW_WONG[(model, type, unit)]
    effects = _DESCRIPTIONS[model]
    if model == "twoway":
        effects = "two-way random effects" if type == "agreement" else "two-way mixed effects"
    kind = "absolute agreement" if type == "agreement" else "consistency"
    of = "single rater" if unit == "single" else f"average of {k} raters"
    lines = [
        f"{sf} (McGraw & Wong {mw}): {effects}, {kind}, {of}.",
        f"F test of ICC = 0: F({df1}, {df2}), one-sided; exact F-based interval"
        + (f" (Satterthwaite df {float(df_ci):.2f})." if type == "agreement" and model == "twoway"
           else "."),
    ]
    lines.extend(_listwise_note(dropped))
    lines.extend(notes or [])
    return ICCResult(
        coefficient=sf,
        symbol="ICC",
        estimate=estimate,
        se=math.nan,
        statistic=f,
        pvalue=float(fdtrc(df1, df2, f)) if not math.isnan(f) else math.nan,
        alternative="greater",
        ci=ConfidenceInterval(float(low), float(high), confidence_level, "exact"),
        n_subjects=n,
        n_missing=dropped,
        raters=raters,
        notes=tuple(lines),
        model=model,
        type=type,
        unit=unit,
        shrout_fleiss=sf,
        mcgraw_wong=mw,
        df1=df1,
        df2=df2,
        df_ci=float(df_ci),
        ms_rows=float(ms.rows),
        ms_columns=float(ms.columns),
        ms_error=float(ms.error),
        ms_within=float(ms.within),
        n_raters=k,
    )


def icc_result(
    ratings: Ratings,
    given_table: np.ndarray | None,
    model: str,
    type: str,
    unit: str,
    confidence_level: float,
) -> ICCResult:
    """The ICC of coded ratings (see :meth:`irr.Agreement.icc`)."""
    _check_form(model, type, unit)
    values, complete = _numeric_matrix(ratings, given_table, "The ICC")
    return icc_from_values(values, complete, ratings.raters, model, type, unit,
                           confidence_level, _score_note(ratings))


def icc_table(results: list[ICCResult]) -> pd.DataFrame:
    """The six forms as one DataFrame, indexed by Shrout & Fleiss' names."""
    rows = []
    for r in results:
        rows.append({
            "model": r.model, "type": r.type, "unit": r.unit, "mcgraw_wong": r.mcgraw_wong,
            "estimate": r.estimate, "F": r.statistic, "df1": r.df1, "df2": r.df2,
            "pvalue": r.pvalue, "ci_low": r.ci.low, "ci_high": r.ci.high,
            "confidence_level": r.ci.confidence_level,
        })
    frame = pd.DataFrame(rows, index=pd.Index([r.shrout_fleiss for r in results], name="icc"))
    return frame


def icc(
    ratings: Any,
    model: str = "twoway",
    type: str = "agreement",
    unit: str = "single",
    *,
    confidence_level: float = 0.95,
) -> ICCResult:
    r"""Intraclass correlation of numeric ratings: subjects in rows, raters in columns.

    The array form of :meth:`irr.Agreement.icc` for measurements that are not categories
    (any real values, no limit on distinct values).

    Parameters
    ----------
    ratings : array-like or DataFrame of shape (n_subjects, n_raters)
        Real-valued ratings; ``nan`` marks a missing one (its subject is left out).
    model, type, unit : str
        As for :meth:`irr.Agreement.icc`.
    confidence_level : float, default 0.95

    Returns
    -------
    ICCResult

    Examples
    --------
    >>> import numpy as np, irr
    >>> x = np.array([[9, 2, 5, 8], [6, 1, 3, 2], [8, 4, 6, 8],
    ...               [7, 1, 2, 6], [10, 5, 6, 9], [6, 2, 4, 7]])
    >>> round(irr.icc(x, "twoway", "consistency", "single").estimate, 4)
    0.7148
    """
    _check_form(model, type, unit)
    raters: tuple[str, ...]
    if isinstance(ratings, pd.DataFrame):
        raters = tuple(str(c) for c in ratings.columns)
        try:
            values = ratings.to_numpy(dtype=float, na_value=np.nan)
        except (TypeError, ValueError):
            raise TypeError("`ratings` must hold numbers; convert the columns first.") from None
    else:
        try:
            values = np.asarray(ratings, dtype=float)
        except (TypeError, ValueError):
            raise TypeError("`ratings` must be a 2-D array of numbers.") from None
        raters = tuple(f"rater{j}" for j in range(1, values.shape[-1] + 1)) if values.ndim == 2 else ()
    if values.ndim != 2:
        raise ValueError(f"`ratings` must be 2-D (subjects x raters); got shape {values.shape}.")
    if values.shape[1] < 2:
        raise ValueError(f"The ICC needs at least two raters (columns); got {values.shape[1]}.")
    if np.isinf(values).any():
        raise ValueError("`ratings` contains infinite values.")
    complete = ~np.isnan(values).any(axis=1)
    return icc_from_values(values, complete, raters, model, type, unit, confidence_level)


# -- Kendall's W ------------------------------------------------------------------------
def kendall_result(
    ratings: Ratings, given_table: np.ndarray | None, correct_ties: bool,
) -> KendallResult:
    """Kendall's W of coded ratings (see :meth:`irr.Agreement.kendall_w`)."""
    from scipy.special import chdtrc

    if not isinstance(correct_ties, (bool, np.bool_)):
        raise TypeError(f"`correct_ties` must be True or False; got {correct_ties!r}.")
    values, complete = _numeric_matrix(ratings, given_table, "Kendall's W")
    x, dropped = _complete_subjects(values, complete, "Kendall's W")
    n = x.shape[0]
    parts = kendall_w(x, bool(correct_ties))
    if math.isnan(parts.w):
        warnings.warn(
            "Kendall's W is undefined (nan): every rater gave every subject the same rank.",
            DegenerateDataWarning, stacklevel=3,
        )
    df = n - 1
    notes = [
        "Raters rank the subjects (ties get mid-ranks); chi-square test of W = 0: "
        f"m (n - 1) W on {df} df (large-sample)."
        + (" Tie-corrected." if correct_ties else " Not corrected for ties."),
        "No standard error or interval for W.",
    ]
    notes.extend(_listwise_note(dropped))
    return KendallResult(
        coefficient="Kendall's W",
        symbol="W",
        estimate=parts.w,
        se=math.nan,
        statistic=parts.chi2,
        pvalue=float(chdtrc(df, parts.chi2)) if not math.isnan(parts.chi2) else math.nan,
        alternative="greater",
        ci=_nan_interval(0.95, "none"),
        n_subjects=n,
        n_missing=dropped,
        raters=ratings.raters,
        notes=tuple(notes),
        df=df,
        correct_ties=bool(correct_ties),
        ties=parts.ties,
    )

