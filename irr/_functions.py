"""One-call shortcuts: two-rater kappa, the classic QWK, the array forms of alpha and the ICC
(reliability data matrices and real-valued measurements), and the agreement of continuous
measurements (limits of agreement, concordance, TDI and CP, method-comparison regression,
variance-component ICC, measurement error)."""

from __future__ import annotations

import contextlib
import inspect
import warnings
from collections.abc import Callable, Sequence
from typing import Any, TypeVar

import numpy as np
import pandas as pd

from irr._columns import rating_frame
from irr._data import (
    CHUNK,
    MAX_CATEGORIES,
    Ratings,
    align_columns,
    as_1d,
    distinct_names,
    exact_reals,
    float_if_exact,
    integer_offsets,
    preview,
    refuse_nested,
)
from irr._measurements import Measurements
from irr._source import Source
from irr._statistics import Statistics
from irr._validation import DegenerateDataWarning, check_choice, check_integer
from irr.agreement import Agreement
from irr.coefficients.kappa import kappa_parts
from irr.estimators import concordance as concordance_estimator
from irr.estimators import iota as iota_estimator
from irr.estimators import krippendorff, limits, method_regression, variance_components
from irr.estimators import measurement_error as measurement_errors
from irr.estimators.concordance import (
    ConcordanceResult,
    CoverageResult,
    TDIResult,
    ccc_measurements,
    lin_ccc,
)
from irr.estimators.concordance import coverage_probability as coverage_probability_of
from irr.estimators.concordance import total_deviation_index as total_deviation_index_of
from irr.estimators.icc import ICC_TEXTS, ICCResult, check_form, icc_of_values
from irr.estimators.krippendorff import KrippendorffResult
from irr.estimators.limits import LimitsOfAgreementResult
from irr.estimators.measurement_error import MeasurementErrorResult
from irr.estimators.method_regression import MethodRegressionResult
from irr.estimators.pabak import PabakResult
from irr.estimators.variance_components import ComponentsICCResult
from irr.estimators.variance_ratio import VarianceRatioResult
from irr.inference.keywords import NO_SE_CI, NO_SE_CIS, inference_keywords
from irr.inference.options import InferenceOptions
from irr.inference.plan import ResamplingPlan
from irr.registry import COEFFICIENTS, Coefficient
from irr.results import KappaResult
from irr.weights import agreement_weights

__all__ = [
    "cohen_kappa",
    "concordance",
    "coverage_probability",
    "deming",
    "finn",
    "icc",
    "icc_components",
    "iota",
    "krippendorff_alpha",
    "limits_of_agreement",
    "maxwell_re",
    "mean_pearson",
    "mean_spearman",
    "measurement_error",
    "pabak",
    "passing_bablok",
    "quadratic_weighted_kappa",
    "robinson_a",
    "specific_agreement",
    "total_deviation_index",
]

_LAYOUTS = ("units-raters", "raters-units")

F = TypeVar("F", bound=Callable[..., Any])

_TWO_RATERS = """rater_a, rater_b : array-like of shape (n_subjects,)
    The two raters' ratings.{own}
**options
    ``categories`` and ``nan_policy`` go to :class:`Agreement`, the others to
    :meth:`Agreement.{method}`."""
_MATRIX = """ratings : array-like or DataFrame of shape (n_subjects, n_raters)
    The ratings, one column per rater (a DataFrame's identifier columns are set aside as
    by :meth:`Agreement.from_frame`).{own}
categories : sequence, optional
    The full rating scale, in order.
**options
    As for :meth:`Agreement.{method}`."""


def _forwarding(template: str, own: str = "") -> Callable[[F], F]:
    """Write the Parameters section of a shortcut that forwards to the Agreement method
    of its name (`template` with its `own` entries), before its Examples."""

    def decorate(function: F) -> F:
        block = template.format(own=f"\n{own}" if own else "", method=function.__name__)
        lines = ["Parameters", "----------", *block.splitlines(), ""]
        doc = function.__doc__ or ""
        at = doc.index("    Examples\n")
        function.__doc__ = (doc[:at] + "\n".join(f"    {ln}" if ln else "" for ln in lines)
                            + "\n" + doc[at:])
        return function

    return decorate


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


def _two_rater_call(method: str, rater_a: Any, rater_b: Any, options: dict[str, Any]) -> Any:
    """``Agreement(rater_a, rater_b, categories=, nan_policy=).method(**rest)``."""
    build = {key: options.pop(key) for key in ("categories", "nan_policy") if key in options}
    return getattr(Agreement(rater_a, rater_b, **build), method)(**options)


@_forwarding(_TWO_RATERS)
def pabak(rater_a: Any, rater_b: Any, **options: Any) -> PabakResult:
    """PABAK with the prevalence and bias indices: ``Agreement(a, b).pabak()``.

    Examples
    --------
    >>> res = pabak([1, 1, 1, 0, 1, 1, 0, 1], [1, 1, 0, 0, 1, 1, 1, 1])
    >>> res.estimate, res.prevalence_index, res.bias_index
    (0.5, 0.5, 0.0)
    """
    return _two_rater_call("pabak", rater_a, rater_b, options)


@_forwarding(_TWO_RATERS)
def maxwell_re(rater_a: Any, rater_b: Any, **options: Any) -> PabakResult:
    """Maxwell's RE of binary ratings (R irr ``maxwell``): ``Agreement(a, b).maxwell_re()``.

    Examples
    --------
    >>> maxwell_re([1, 1, 1, 0, 1, 1, 0, 1], [1, 1, 0, 0, 1, 1, 1, 1]).estimate
    0.5
    """
    return _two_rater_call("maxwell_re", rater_a, rater_b, options)


@_forwarding(_TWO_RATERS, 'category : label, optional\n    As for :meth:`Agreement.specific_agreement`.')
def specific_agreement(rater_a: Any, rater_b: Any, category: Any = None,
                       **options: Any) -> Any:
    """Specific (positive and negative) agreement: ``Agreement(a, b).specific_agreement()``.

    Examples
    --------
    >>> res = specific_agreement([1, 1, 1, 0, 1, 1, 0, 1], [1, 1, 0, 0, 1, 1, 1, 1])
    >>> [round(r.estimate, 4) for r in res.by_category]  # negative, positive
    [0.5, 0.8333]
    """
    return _two_rater_call("specific_agreement", rater_a, rater_b,
                           {"category": category, **options})


def _matrix_call(method: str, ratings: Any, categories: Any, options: dict[str, Any]) -> Any:
    """``Agreement`` of a subjects x raters matrix or wide frame, then `method`."""
    if isinstance(ratings, pd.DataFrame):
        ag = Agreement.from_frame(ratings, categories=categories)
    else:
        ag = Agreement.from_array(ratings, categories=categories)
    return getattr(ag, method)(**options)


@_forwarding(_MATRIX)
def robinson_a(ratings: Any, *, categories: Any = None, **options: Any) -> VarianceRatioResult:
    """Robinson's A of a subjects x raters matrix (R irr ``robinson(ratings)``):
    :meth:`Agreement.robinson_a`.

    Examples
    --------
    >>> import irr
    >>> round(irr.robinson_a(irr.datasets.load("anxiety")).estimate, 4)
    0.4774
    """
    return _matrix_call("robinson_a", ratings, categories, options)


@_forwarding(_MATRIX, 'levels, model\n    As for :meth:`Agreement.finn`.')
def finn(ratings: Any, levels: int | None = None, model: str = "oneway", *,
         categories: Any = None, **options: Any) -> VarianceRatioResult:
    """Finn's coefficient of a subjects x raters matrix (R irr ``finn(ratings, s.levels,
    model)``): :meth:`Agreement.finn`.

    Examples
    --------
    >>> import irr
    >>> round(irr.finn(irr.datasets.load("anxiety"), 6, "twoway").estimate, 4)
    0.5035
    """
    return _matrix_call("finn", ratings, categories,
                        {"model": model, "levels": levels, **options})


@_forwarding(_MATRIX, 'fisher : bool, default True\n    As for :meth:`Agreement.mean_spearman`.')
def mean_spearman(ratings: Any, fisher: bool = True, *, categories: Any = None,
                  **options: Any) -> VarianceRatioResult:
    """The mean pairwise Spearman rho of a subjects x raters matrix (R irr ``meanrho``):
    :meth:`Agreement.mean_spearman`.

    Examples
    --------
    >>> import irr
    >>> round(irr.mean_spearman(irr.datasets.load("anxiety"), fisher=False).estimate, 4)
    0.31
    """
    return _matrix_call("mean_spearman", ratings, categories, {"fisher": fisher, **options})


@_forwarding(_MATRIX, 'fisher : bool, default True\n    As for :meth:`Agreement.mean_pearson`.')
def mean_pearson(ratings: Any, fisher: bool = True, *, categories: Any = None,
                 **options: Any) -> VarianceRatioResult:
    """The mean pairwise Pearson r of a subjects x raters matrix (R irr ``meancor``):
    :meth:`Agreement.mean_pearson`.

    Examples
    --------
    >>> import irr
    >>> round(irr.mean_pearson(irr.datasets.load("anxiety")).estimate, 3)
    0.224
    """
    return _matrix_call("mean_pearson", ratings, categories, {"fisher": fisher, **options})


@inference_keywords("bootstrap", cis=NO_SE_CIS, ci=NO_SE_CI)
def iota(
    ratings: Any,
    level: str = "interval",
    standardize: bool = False,
    *,
    confidence_level: float = 0.95,
    ci: str | None = None,
    n_resamples: int = 9999,
    rng: Any = 0,
    progress: bool | None = None,
) -> VarianceRatioResult:
    r"""Janson & Olsson's (2001) iota: agreement of raters who rate each subject on several
    variables at once (R irr's ``iota``).

    Parameters
    ----------
    ratings : list of array-like of shape (n_subjects, n_raters), or array of shape
        (n_subjects, n_raters, n_variables)
        One matrix (or DataFrame, whose columns name the raters) per variable, as R irr
        takes them. Subjects with a missing rating on any variable are left out.
    level : {'interval', 'nominal'}, default 'interval'
        ``'nominal'`` codes each variable's labels as indicator vectors (scaled by
        :math:`1/\sqrt 2`, so that two different labels are at squared distance 1).
    standardize : bool, default False
        z-standardise each interval variable over all its ratings first (variables on
        different scales then weigh alike).

    Returns
    -------
    VarianceRatioResult

    Notes
    -----
    With :math:`x_{ij}` the vector of rater j's ratings of subject i,

    .. math:: \iota = 1 - \frac{\overline{|x_{ij} - x_{il}|^2}}
        {\overline{|x_{ij} - x_{i'l}|^2}},

    the numerator averaged over subjects and pairs of raters, the denominator over pairs
    of raters and all pairs of subjects (each rater's own distribution, as Conger's
    kappa). For one nominal variable iota is Conger's (1980) kappa (R irr's manual page
    "iota"; checked in the tests).

    References
    ----------
    Janson, H., & Olsson, U. (2001). A measure of agreement for interval or nominal
    multivariate observations. Educational and Psychological Measurement, 61, 277-289.
    https://doi.org/10.1177/00131640121971239

    Examples
    --------
    >>> import irr
    >>> anxiety = irr.datasets.load("anxiety")
    >>> res = irr.iota([anxiety, anxiety.iloc[::-1].reset_index(drop=True)])
    >>> res.coefficient, res.n_subjects
    ('iota (interval)', 20)
    """
    check_choice(level, "level", ("interval", "nominal"))
    if not isinstance(standardize, (bool, np.bool_)):
        raise TypeError(f"`standardize` must be True or False; got {standardize!r}.")
    if standardize and level == "nominal":
        raise ValueError("`standardize` applies to interval variables; level='nominal'.")
    if isinstance(ratings, np.ndarray) and ratings.ndim == 3:
        variables = [ratings[:, :, v] for v in range(ratings.shape[2])]
    elif isinstance(ratings, (list, tuple)) and ratings:
        variables = list(ratings)
    else:
        raise TypeError("`ratings` must be a non-empty list of (subjects x raters) matrices, "
                        "one per variable, or a 3-D array (subjects x raters x variables); "
                        f"got {type(ratings).__name__}.")
    frames = [pd.DataFrame(v) for v in variables]
    shapes = {f.shape for f in frames}
    if len(shapes) != 1 or frames[0].ndim != 2:
        raise ValueError("Every variable of `ratings` must be a (subjects x raters) matrix of "
                         f"one shape; got shapes {sorted(shapes)}.")
    n = frames[0].shape[0]
    missing = np.zeros(n, dtype=bool)
    for f in frames:
        missing |= f.isna().to_numpy().any(axis=1)
    blocks = []
    for v, f in enumerate(frames):
        kept = f.to_numpy()[~missing]
        if kept.dtype == object:  # lists would read as numbers or text ("[1, 2]") below
            refuse_nested(kept.ravel(), f"ratings[{v}]")
        if level == "interval":
            try:
                values = kept.astype(float)
            except (TypeError, ValueError):
                raise TypeError(f"`ratings[{v}]` must hold numbers for level='interval'; use "
                                "level='nominal' for labels.") from None
            if not np.isfinite(values).all():
                raise ValueError(f"`ratings[{v}]` holds inf; interval ratings must be finite.")
            if standardize:
                sd = values.std(ddof=1) if values.size > 1 else 0.0
                values = (values - values.mean()) / sd if sd > 0 else values - values.mean()
            blocks.append(values[:, :, None])
        else:
            labels, codes = np.unique(kept.astype(str), return_inverse=True)
            codes = codes.reshape(kept.shape)
            blocks.append((codes[:, :, None] == np.arange(labels.size)) / np.sqrt(2.0))
    x = np.concatenate(blocks, axis=2)
    raters = tuple(str(c) for c in frames[0].columns)
    notes = ["Each variable z-standardised over all its ratings."] if standardize else []
    options = InferenceOptions.from_keywords(
        confidence_level=confidence_level, ci=ci, n_resamples=n_resamples, rng=rng,
        progress=progress)
    return iota_estimator.iota(x, level, int(missing.sum()), raters, len(frames), options,
                               notes)


def _integer_ratings(values: Any, name: str) -> np.ndarray:
    array = as_1d(values, name)
    if not isinstance(array, np.ndarray) or array.dtype.kind not in "iufb":
        if isinstance(array, np.ndarray) and array.dtype.kind == "O":
            refuse_nested(array, name)
        raise TypeError(f"`{name}` must hold integer ratings; got {preview(np.asarray(array)[:3])}.")
    if array.dtype.kind == "f":
        if np.isnan(array).any():
            raise ValueError(
                f"`{name}` has missing ratings; use irr.Agreement(...).kappa('quadratic'), "
                "which leaves them out and reports how many."
            )
        fractional = array[array != np.round(array)]
        if fractional.size:
            raise ValueError(f"`{name}` has non-integer ratings: {preview(np.unique(fractional))}.")
        huge = array[np.abs(array) >= 2.0**63]
        if huge.size:
            raise ValueError(
                f"`{name}` has ratings outside the 64-bit integer range: {preview(np.unique(huge))}."
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
    (rater_a, rater_b), _ = align_columns([rater_a, rater_b], ["rater_a", "rater_b"])
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
            raise ValueError(f"`{name}` has ratings outside [{lo}, {hi}]: {preview(outside)}.")
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
            cells = integer_offsets(chunk_a, lo)
            cells *= k
            cells += integer_offsets(chunk_b, lo)
        table += np.bincount(cells, minlength=start + k * k)[start : start + k * k]
    table = table.reshape(k, k)
    weights = agreement_weights("quadratic", k, np.arange(k, dtype=float))
    kappa = kappa_parts(table, weights).kappa
    if np.isnan(kappa):
        warnings.warn(
            "quadratic weighted kappa is undefined (nan): expected agreement is 1.",
            DegenerateDataWarning,
            stacklevel=2,
        )
    return float(kappa)


@inference_keywords("rater_sampling", cis=krippendorff.ALPHA_CIS, **krippendorff.ALPHA_NOTES)
def krippendorff_alpha(
    data: Any = None,
    level: str | Callable[..., Any] | Any = "nominal",
    *,
    reliability_data: Any = None,
    layout: str | None = None,
    categories: Any = None,
    alternative: str = "two-sided",
    confidence_level: float = 0.95,
    ci: str | None = "auto",
    n_resamples: int = 9999,
    rng: Any = 0,
    progress: bool | None = None,
    distribution: str = "normal",
    population: float | None = None,
    null: float | None = None,
    ci_clip: bool = True,
    sampling: str = "subjects",
    rater_population: float | None = None,
) -> KrippendorffResult:
    r"""Krippendorff's alpha of a reliability data matrix with missing values.

    Parameters
    ----------
    data : array-like or DataFrame of shape (n_units, n_raters)
        The ratings, ``nan`` (or None / pd.NA) for a missing value: by default one row
        per unit (subject) and one column per rater, as everywhere in :mod:`irr`
        (:func:`irr.icc`, :meth:`irr.Agreement.from_frame`, :meth:`irr.Agreement.from_array`).
    level : {'nominal', 'ordinal', 'interval', 'ratio'}, callable or array-like, default 'nominal'
        The metric, as for :meth:`irr.Agreement.krippendorff_alpha`.
    reliability_data : array-like or DataFrame of shape (n_raters, n_units), optional
        The ratings under the ``krippendorff`` package's keyword, in that package's layout:
        one row per rater (coder), one column per unit (``layout='raters-units'`` unless
        `layout` says otherwise); give it or `data`, not both.
    layout : {'units-raters', 'raters-units'}, optional
        ``'units-raters'`` (the default for `data`): one row per unit (subject) and one
        column per rater, the layout of every other function of :mod:`irr`.
        ``'raters-units'`` (the default for `reliability_data`): one row per rater (coder)
        and one column per unit, the layout of Krippendorff's reliability data matrix and
        of the ``krippendorff`` package. Alpha is not symmetric in the two, so the layout
        is never guessed from the shape.
    categories : sequence, optional
        The full value domain in scale order (unobserved values too).

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
    >>> res = irr.krippendorff_alpha(data, "interval")
    >>> round(res.estimate, 3)
    0.849
    >>> round(irr.krippendorff_alpha(data.T, "ordinal", layout="raters-units").estimate, 3)
    0.815
    >>> # the krippendorff package's keyword, in its layout (raters in rows)
    >>> round(irr.krippendorff_alpha(reliability_data=data.T, level="ordinal").estimate, 3)
    0.815
    """
    if (data is None) == (reliability_data is None):
        raise TypeError("give the ratings as `data` (units in rows) or as `reliability_data` "
                        "(the krippendorff package's keyword: raters in rows), not both"
                        if data is not None else "krippendorff_alpha() needs the ratings: "
                        "`data` (units in rows) or `reliability_data` (raters in rows).")
    name = "data" if reliability_data is None else "reliability_data"
    if reliability_data is not None:
        data = reliability_data
        layout = "raters-units" if layout is None else layout
    layout = check_choice("units-raters" if layout is None else layout, "layout", _LAYOUTS)
    columns, names = _columns(data, layout, name)
    if len(columns) < 2:
        raise ValueError(
            f"Krippendorff's alpha needs at least two raters; `{name}` has "
            f"{len(columns)} (layout={layout!r}: raters are the "
            f"{'rows' if layout == 'raters-units' else 'columns'})."
        )
    if len(columns[0]) < 2:
        raise ValueError(
            f"Krippendorff's alpha needs at least two units (subjects); got {len(columns[0])}."
        )
    ci, auto = krippendorff.auto_ci(ci)
    options = InferenceOptions.from_keywords(
        alternative=alternative, confidence_level=confidence_level, ci=ci,
        n_resamples=n_resamples, rng=rng, progress=progress, distribution=distribution,
        population=population, null=null, ci_clip=ci_clip, sampling=sampling,
        rater_population=rater_population)
    ratings = _integral_ratings(columns, names) if categories is None else None
    if ratings is not None:
        source = Source(ratings)
    else:
        argnames = ["rater_a", "rater_b"] + [f"more_raters[{i}]" for i in range(len(columns) - 2)]
        source = Source.from_columns(columns, names, categories, argnames)
    stats = Statistics.from_source(source)
    return krippendorff.krippendorff_alpha(stats, level, options,
                                           ResamplingPlan.for_statistics(stats), auto=auto)


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
    if abs(float(lo)) >= 2.0**53 or abs(float(hi)) >= 2.0**53 or int(hi) - int(lo) > 1 << 16:
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
        # identifier columns are set aside (with a warning) as in Agreement.from_frame;
        # with raters in rows the columns are units, never identifiers
        frame = rating_frame(data, stacklevel=3) if layout == "units-raters" else data.T
        names = distinct_names(list(frame.columns), name)
        return [frame.iloc[:, j] for j in range(frame.shape[1])], names
    if isinstance(data, (str, bytes)) or np.isscalar(data):
        raise TypeError(f"`{name}` must be a 2-D array-like; got {data!r}.")
    array = np.asarray(data, dtype=object if not hasattr(data, "dtype") else None)
    if array.dtype == object and not any(isinstance(v, (str, bytes)) for v in array.ravel()):
        # numbers (and None) to float when exact; strings stay labels (astype(float) would
        # parse "1"); integers beyond 2**53 stay objects, coded exactly
        with contextlib.suppress(TypeError, ValueError):
            array = float_if_exact(array)
    if array.ndim != 2:
        raise ValueError(f"`{name}` must be 2-D; got an array of shape {array.shape}.")
    if layout == "raters-units":
        array = array.T
    return [array[:, j] for j in range(array.shape[1])], [
        f"rater{j}" for j in range(1, array.shape[1] + 1)
    ]


@inference_keywords("f_test", texts=ICC_TEXTS)
def icc(
    ratings: Any,
    model: str = "twoway",
    type: str = "agreement",
    unit: str = "single",
    *,
    confidence_level: float = 0.95,
    null: float | None = None,
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
    check_form(model, type, unit)
    raters: tuple[str, ...]
    if isinstance(ratings, pd.DataFrame):
        ratings = rating_frame(ratings, stacklevel=2)  # identifiers set aside, as from_frame
        raters = tuple(distinct_names(list(ratings.columns), "ratings"))
        floats = all(getattr(t, "kind", "O") == "f" for t in ratings.dtypes)
        values = ratings.to_numpy(dtype=float if floats else object, na_value=np.nan)
    else:
        values = np.asarray(ratings, dtype=None if hasattr(ratings, "dtype") else object)
        if values.dtype.kind not in "iufbO":
            raise TypeError("`ratings` must be a 2-D array of numbers.")
    # the ICC is unchanged by a common shift: integers beyond 2**53 are shifted exactly
    values = exact_reals(values, "ratings")
    if not isinstance(ratings, pd.DataFrame):
        raters = tuple(f"rater{j}" for j in range(1, values.shape[-1] + 1)) if values.ndim == 2 else ()
    if values.ndim != 2:
        raise ValueError(f"`ratings` must be 2-D (subjects x raters); got shape {values.shape}.")
    if values.shape[1] < 2:
        raise ValueError(f"The ICC needs at least two raters (columns); got {values.shape[1]}.")
    if np.isinf(values).any():
        raise ValueError("`ratings` contains infinite values.")
    return icc_of_values(values, raters, model, type, unit, confidence_level, null)


@inference_keywords("resampled", **variance_components.ICC_COMPONENTS_NOTES)
def icc_components(
    measurements: Measurements,
    model: str = "twoway",
    type: str = "agreement",
    unit: str = "single",
    *,
    estimator: str = "anova",
    confidence_level: float = 0.95,
    n_resamples: int = 9999,
    rng: Any = 0,
    progress: bool | None = None,
) -> ComponentsICCResult:
    r"""The ICC of real-valued measurements from variance components, using every
    measurement: missing cells, unbalanced designs and replicates allowed.

    Parameters
    ----------
    measurements : Measurements
        Long-form measurements (:meth:`Measurements.from_wide`, :meth:`Measurements.from_long`);
        those of a lazy frame raise (the components need the rows).
    model : {'oneway', 'twoway'}, default 'twoway'
        One-way: subjects random, every other source of variation is error. Two-way:
        subjects and raters crossed (raters random or fixed: the estimators are the same).
    type : {'agreement', 'consistency'}, default 'agreement'
        Absolute agreement counts the raters' variance as error, consistency does not.
    unit : {'single', 'average'}, default 'single'
        One measurement by one rater, or the mean of all ``n_raters`` raters.
    estimator : {'anova', 'reml'}, default 'anova'
        Henderson's method III moment estimators (fast; exact ANOVA on balanced data) or
        restricted maximum likelihood (components >= 0; large-sample Wald interval).
    Returns
    -------
    ComponentsICCResult

    Notes
    -----
    The components are those of :math:`y = \mu + a_i + b_j + (ab)_{ij} + e` (subjects,
    raters, interaction, error); each McGraw & Wong (1996) form is a ratio of them
    (:func:`irr.coefficients.variance_components.components_icc`). With replicates the
    within-cell variance is error and the interaction is estimated; a "single" measurement
    then carries interaction plus error. Henderson's method III (Searle, Casella &
    McCulloch 1992, §5.5) adjusts subjects for raters and raters for subjects, so
    missing cells do not bias the components; on complete data without replicates the
    estimates, F test and intervals are McGraw & Wong's exactly (Shrout & Fleiss 1979
    Table 4 reproduced in the tests). Negative moment estimates of a component are kept
    (truncating them would bias the ICC), as McGraw & Wong's formulas do. Intervals:
    ``'anova'`` without replicates: McGraw & Wong's Table 7 with Henderson's mean squares,
    df and effective sizes k0, n0 (method ``'exact'``/``'satterthwaite'`` on balanced
    data, ``'approximate-f'`` otherwise: the n0 approximation, Searle 1971); with
    replicates: percentile bootstrap of subjects (Ukoumunne et al. 2003). ``'reml'``:
    Wald interval with the delta-method SE from the observed REML information (Searle,
    Casella & McCulloch 1992, §6.3); none when a component is estimated at 0.

    References
    ----------
    McGraw, K. O., & Wong, S. P. (1996). Psychological Methods, 1(1), 30-46.
    Searle, S. R., Casella, G., & McCulloch, C. E. (1992). Variance Components. Wiley.
    Ukoumunne, O. C., Davison, A. C., Gulliford, M. C., & Chinn, S. (2003). Statistics
    in Medicine, 22(24), 3805-3821. https://doi.org/10.1002/sim.1643

    Examples
    --------
    >>> x = np.array([[9, 2, 5, 8], [6, 1, 3, 2], [8, 4, 6, 8],
    ...               [7, 1, 2, 6], [10, 5, 6, 9], [6, 2, 4, 7.0]])
    >>> res = icc_components(Measurements.from_wide(x))
    >>> res.coefficient, round(res.estimate, 2), res.ci.method
    ('ICC(2,1)', 0.29, 'satterthwaite')
    >>> x[0, 1] = np.nan  # a missing cell: every other measurement still counts
    >>> res = icc_components(Measurements.from_wide(x))
    >>> round(res.estimate, 3), res.n_cells_missing, res.ci.method
    (0.344, 1, 'satterthwaite')
    """
    options = InferenceOptions.from_keywords(
        confidence_level=confidence_level, n_resamples=n_resamples, rng=rng, progress=progress)
    return variance_components.icc_components(measurements, model, type, unit,
                                              estimator=estimator, options=options)


@inference_keywords("resampled", **measurement_errors.MEASUREMENT_ERROR_NOTES)
def measurement_error(
    measurements: Measurements,
    type: str = "agreement",
    *,
    units: str = "",
    confidence_level: float = 0.95,
    n_resamples: int = 9999,
    rng: Any = 0,
    progress: bool | None = None,
) -> MeasurementErrorResult:
    r"""Measurement error: within-subject SD, repeatability, SEM, SDC and CV with CIs.

    Parameters
    ----------
    measurements : Measurements
        Real-valued measurements; replicates (a rater measuring a subject more than once)
        give the within-subject SD, the repeatability coefficient and the CV.
    type : {'agreement', 'consistency'}, default 'agreement'
        SEM of agreement (the raters' systematic differences count as error:
        :math:`\sqrt{\sigma^2_r + \sigma^2_{sr} + \sigma^2_e}`) or of consistency
        (:math:`\sqrt{\sigma^2_{sr} + \sigma^2_e}`); de Vet et al. (2006). One rater: both
        are the within-subject SD.
    units : str, default ''
        The measurement's units, for the summary and the report sentence ("mmHg").
    Returns
    -------
    MeasurementErrorResult

    Notes
    -----
    *Within-subject SD* :math:`s_w`: the square root of the pooled within-cell variance
    (replicates of one subject by one rater; one-way ANOVA residual mean square), on
    :math:`N - \text{cells}` df, with the chi-square interval (Bland & Altman 1996).
    *Repeatability coefficient* :math:`z \sqrt{2}\, s_w` (:math:`2.77\, s_w` at 95%), interval
    scaled likewise. *SEM*: from Henderson's method III components
    (:func:`irr.estimators.variance_components.variance_components`); its interval is the
    chi-square one on the error df (consistency, no replicates: exact), on Satterthwaite's
    (1946) df for the agreement SEM :math:`\sqrt{MS_r/n_0 + (1 - 1/n_0) MS_e}`, and a
    percentile bootstrap of subjects with replicates. *SDC* :math:`z \sqrt{2}\, SEM`
    (de Vet et al. 2006), interval scaled. *SEM from the ICC*:
    :math:`SD \sqrt{1 - ICC}` with the SD of all measurements and the ICC of the same type
    (single measurement), shown for comparison (no interval). *CV* (with replicates and
    positive values): the log method, :math:`\sqrt{e^{s^2_{\log}} - 1}` with
    :math:`s_{\log}` the within-subject SD of the logs and its chi-square interval
    transformed, and the root mean square of the cells' CVs :math:`s_c / \bar y_c` with a
    percentile bootstrap interval (Bland 2006 describes both).

    References
    ----------
    Bland, J. M., & Altman, D. G. (1996). Measurement error. BMJ, 313(7059), 744.
    https://doi.org/10.1136/bmj.313.7059.744
    de Vet, H. C. W., Terwee, C. B., Knol, D. L., & Bouter, L. M. (2006). When to use
    agreement versus reliability measures. Journal of Clinical Epidemiology, 59(10),
    1033-1039. https://doi.org/10.1016/j.jclinepi.2005.10.015
    Satterthwaite, F. E. (1946). Biometrics Bulletin, 2(6), 110-114.

    Examples
    --------
    Bland & Altman's peak expiratory flow data: two readings with a Wright meter on each of
    17 subjects (Bland 2015, §20.2: :math:`s_w` = 15.3 l/min):

    >>> first = [494, 395, 516, 434, 476, 557, 413, 442, 650, 433, 417, 656, 267, 478, 178,
    ...          423, 427]
    >>> second = [490, 397, 512, 401, 470, 611, 415, 431, 638, 429, 420, 633, 275, 492, 165,
    ...           372, 421]
    >>> m = Measurements.from_long(np.repeat(np.arange(17), 2), ["wright"] * 34,
    ...                            np.column_stack([first, second]).ravel())
    >>> res = measurement_error(m, units="l/min")
    >>> round(res.quantity("s_w").estimate, 1), round(res.quantity("repeatability").estimate, 1)
    (15.3, 42.4)
    """
    options = InferenceOptions.from_keywords(
        confidence_level=confidence_level, n_resamples=n_resamples, rng=rng, progress=progress)
    return measurement_errors.measurement_error(measurements, type, units=units,
                                                options=options)




@inference_keywords("bootstrap", cis=method_regression.DEMING_CIS,
                    **method_regression.DEMING_NOTES)
def deming(
    x: Any,
    y: Any = None,
    *,
    error_ratio: float | None = None,
    confidence_level: float = 0.95,
    ci: str = "jackknife",
    n_resamples: int = 9999,
    rng: Any = 0,
    progress: bool | None = None,
    names: Sequence[str] | None = None,
    first: int = 0,
    second: int = 1,
) -> MethodRegressionResult:
    r"""Deming regression of a test method (y) on a comparison method (x).

    Fits ``y = intercept + slope * x`` when both methods measure with error, by maximum
    likelihood for normal errors whose variances have the known ratio `error_ratio`.

    Parameters
    ----------
    x : array-like of shape (n,), or Measurements
        The comparison method's measurements (``nan``: missing, the pair is left out); or
        an :class:`irr._measurements.Measurements` holding both methods (raters `first`
        and `second`), replicates allowed: each subject's mean measurement is used.
    y : array-like of shape (n,), optional
        The test method's measurements (not with a Measurements).
    error_ratio : float, optional
        lambda = var(error of x) / var(error of y), the convention of Linnet (1993), CLSI
        EP09 and R mcr's ``error.ratio`` (Wikipedia's and SAS's delta is its inverse).
        Default: estimated from the replicates of a Measurements that has them (the
        error variances of the subjects' mean measurements), else 1 (orthogonal
        regression).
    names : (str, str), optional
        The methods' names for summaries and plots (default: Series names, the raters'
        names, or "x" and "y").
    first, second : int, default 0 and 1
        With a Measurements: the raters compared (x and y).

    Returns
    -------
    MethodRegressionResult
        ``slope`` (= ``estimate``), ``intercept``, their SEs and intervals, the t tests of
        slope = 1 (``statistic``, ``pvalue``) and intercept = 0 (``intercept_statistic``,
        ``intercept_pvalue``).

    Raises
    ------
    ValueError
        Fewer than 3 complete pairs, arrays of different lengths or infinite values, an
        `error_ratio` that is not positive and finite.

    Warns
    -----
    DegenerateDataWarning
        When x and y have zero covariance (slope undefined, nan).

    Notes
    -----
    With :math:`S_{xx}, S_{yy}, S_{xy}` the centred sums of squares and products,

    .. math::

        b = \frac{\lambda S_{yy} - S_{xx} + \sqrt{(\lambda S_{yy} - S_{xx})^2
            + 4 \lambda S_{xy}^2}}{2 \lambda S_{xy}}, \qquad a = \bar y - b \bar x .

    lambda = 1 gives orthogonal regression (the first principal axis); lambda -> 0 gives
    ordinary least squares of y on x. The jackknife standard errors are computed in
    O(n) from rank-one updates of the sums (Linnet 1993 recommends them over the
    asymptotic formulas). Validated against Wicklin's (2019) SAS example and against
    orthogonal regression by singular value decomposition.

    References
    ----------
    Linnet, K. (1993). Evaluation of regression procedures for methods comparison studies.
    Clinical Chemistry, 39(3), 424–432. https://doi.org/10.1093/clinchem/39.3.424

    Cornbleet, P. J., & Gochman, N. (1979). Incorrect least-squares regression coefficients
    in method-comparison analysis. Clinical Chemistry, 25(3), 432–438.

    Examples
    --------
    >>> import irr
    >>> a = [7.2, 8.1, 9.5, 10.4, 12.0, 13.3, 14.9, 16.2]
    >>> b = [7.0, 8.4, 9.9, 10.2, 12.6, 13.9, 15.1, 17.0]
    >>> res = irr.deming(a, b, names=("lab", "device"))
    >>> round(res.slope, 3), round(res.intercept, 3)
    (1.076, -0.556)
    >>> [round(v, 3) for v in res.ci]
    [0.987, 1.165]
    """
    options = InferenceOptions.from_keywords(
        confidence_level=confidence_level, ci=ci, n_resamples=n_resamples, rng=rng,
        progress=progress)
    return method_regression.deming(x, y, options, error_ratio=error_ratio, names=names,
                                    first=first, second=second)


@inference_keywords("fixed_interval")
def passing_bablok(
    x: Any,
    y: Any = None,
    *,
    confidence_level: float = 0.95,
    names: Sequence[str] | None = None,
    first: int = 0,
    second: int = 1,
) -> MethodRegressionResult:
    r"""Passing–Bablok regression of a test method (y) on a comparison method (x).

    A robust, nonparametric line ``y = intercept + slope * x`` for methods that measure
    with error (Passing & Bablok 1983), with its rank-based confidence intervals and the
    cusum test of linearity.

    Parameters
    ----------
    x, y
        As for :func:`irr.deming` (with replicates, each subject's mean measurement).
    names, first, second
        As for :func:`irr.deming`.

    Returns
    -------
    MethodRegressionResult
        ``slope``, ``intercept`` and their rank-based intervals (``se`` nan: the method
        gives none), ``linearity_statistic`` and ``linearity_pvalue``.

    Raises
    ------
    ValueError
        Fewer than 3 complete pairs, or one method's measurements all equal (Kendall's
        tau undefined).

    Warns
    -----
    DegenerateDataWarning
        When a confidence limit's rank falls outside the slopes (too few pairs).

    Notes
    -----
    The slope is the shifted median of the pairwise slopes
    :math:`S_{ij} = (y_j - y_i)/(x_j - x_i)`: pairs with both differences 0 and slopes of
    exactly -1 are left out, a vertical pair counts as +inf (points ordered by x, then
    y), and with K slopes below -1 the median is shifted up by K ranks. The intercept is
    the median of :math:`y_i - b x_i`. The slope's limits are the slopes of ranks
    :math:`M_1 + K` and :math:`M_2 + K` with
    :math:`C = z_{1-\gamma/2}\sqrt{n(n-1)(2n+5)/18}`, :math:`M_1 = \mathrm{round}((N - C)/2)`,
    :math:`M_2 = N - M_1 + 1`; the intercept's limits are :math:`\mathrm{med}(y - b_U x)`
    and :math:`\mathrm{med}(y - b_L x)`. Linearity: points above the line score
    :math:`\sqrt{n_-/n_+}`, below :math:`-\sqrt{n_+/n_-}`, summed in the order of their
    projections on the line; :math:`\max|\mathrm{cusum}| / \sqrt{n_- + 1}` (:math:`n_-`
    the points below the line, as Passing & Bablok's rule
    :math:`\max|\mathrm{cusum}| > h_\gamma\sqrt{n_- + 1}`) is referred to Kolmogorov's
    distribution (p-value ``scipy.special.kolmogorov``).

    The slopes of the ranks needed are selected without forming all n (n - 1) / 2 of them
    (expected O(n log n) time and O(n) memory; the same floats as sorting them all).

    For a negative relation (Kendall's tau < 0) the procedure is Bablok et al. (1988)'s
    mirror image for a negative slope: slopes of exactly +1 are left out, vertical pairs
    count as -inf, and the median is shifted down by the number of slopes above +1 (the
    1983 estimator of (x, -y), negated); the notes give tau. Validated against
    the creatinine example of the R package mcr (Wicklin 2022 reproduces its output):
    slope 1.0880, 95% CI lower limit 1.0000, intercept -0.1172, upper limit -0.0200.

    References
    ----------
    Passing, H., & Bablok, W. (1983). A new biometrical procedure for testing the
    equality of measurements from two different analytical methods. Journal of Clinical
    Chemistry and Clinical Biochemistry, 21(11), 709–720.
    https://doi.org/10.1515/cclm.1983.21.11.709

    Bablok, W., Passing, H., Bender, R., & Schneider, B. (1988). A general regression
    procedure for method transformation. Application of linear regression procedures for
    method comparison studies in clinical chemistry, Part III. Journal of Clinical
    Chemistry and Clinical Biochemistry, 26(11), 783–790.

    Examples
    --------
    >>> import irr
    >>> a = [7.2, 8.1, 9.5, 10.4, 12.0, 13.3, 14.9, 16.2]
    >>> b = [7.0, 8.4, 9.9, 10.2, 12.6, 13.9, 15.1, 17.0]
    >>> res = irr.passing_bablok(a, b)
    >>> round(res.slope, 3), round(res.intercept, 3)
    (1.065, -0.264)
    """
    options = InferenceOptions.from_keywords(confidence_level=confidence_level)
    return method_regression.passing_bablok(x, y, options, names=names, first=first,
                                            second=second)


@inference_keywords("fixed_interval")
def limits_of_agreement(
    x: Any,
    y: Any,
    *,
    names: Any = None,
    scale: str = "difference",
    coverage: float | None = None,
    multiplier: float | None = None,
    method: str = "parametric",
    ci_method: str | None = None,
    replicates: str | None = None,
    units: str = "",
    confidence_level: float = 0.95,
) -> LimitsOfAgreementResult:
    """Bland-Altman limits of agreement of two methods measured on the same subjects.

    Parameters
    ----------
    x, y : array-like of shape (n_subjects,)
        The two methods' measurements (nan: missing; pairs with a missing value are left
        out). Differences are ``x - y``.
    names : sequence of two str, optional
        The methods' names; default the Series' names, else ``'x'`` and ``'y'``.
    scale, coverage, multiplier, method, ci_method, replicates, units
        See :func:`irr.estimators.limits.limits_of_agreement` (two arrays hold no
        replicates).

    Returns
    -------
    LimitsOfAgreementResult

    Examples
    --------
    >>> import irr
    >>> df = irr.datasets.load("pef")
    >>> res = irr.limits_of_agreement(df["wright_1"], df["mini_1"])
    >>> res.difference, round(res.estimate, 2), round(res.lower, 1), round(res.upper, 1)
    ('wright_1 - mini_1', -2.12, -78.1, 73.9)
    """
    measurements = Measurements.from_pair(x, y, names)
    options = InferenceOptions.from_keywords(confidence_level=confidence_level)
    return limits.limits_of_agreement(
        measurements, 0, 1, options, scale=scale, coverage=coverage, multiplier=multiplier,
        method=method, ci_method=ci_method, replicates=replicates, units=units)


def _two_methods(x: Any, y: Any) -> tuple[np.ndarray, np.ndarray, int, tuple[str, str]]:
    """Complete pairs of two measurement vectors (Series names become rater names), or of
    the two raters of a :class:`~irr._measurements.Measurements` (`y` None)."""
    if isinstance(x, Measurements):
        if y is not None:
            raise TypeError("Pass either Measurements or two arrays `x, y`, not both.")
        if x.n_raters != 2:
            raise ValueError(f"Two methods are compared; these Measurements hold "
                             f"{x.n_raters} raters: {list(x.raters)}.")
        m = x
        n = int((m.replicates.sum(axis=1) > 0).sum())  # subjects measured at all
    else:
        m = Measurements.from_pair(x, y)
        n = m.n_subjects  # every position of the vectors
    m.check_magnitude("Comparing two methods")
    a, b = m.paired()
    if a.size < 3:
        raise ValueError(f"Two methods are compared on at least three complete pairs; got "
                         f"{a.size} of {n}.")
    return a, b, n - a.size, (m.raters[0], m.raters[1])


@inference_keywords("tested_bootstrap", cis=concordance_estimator.CCC_CIS,
                    **concordance_estimator.CCC_NOTES)
def concordance(
    x: Any,
    y: Any = None,
    *,
    method: str | None = None,
    rho0: float = 0.0,
    alternative: str = "two-sided",
    confidence_level: float = 0.95,
    ci: str = "fisher-z",
    n_resamples: int = 9999,
    rng: Any = 0,
    progress: bool | None = None,
) -> ConcordanceResult:
    r"""Lin's concordance correlation coefficient, or its overall form for several raters.

    Parameters
    ----------
    x, y : array-like of shape (n_subjects,)
        Two methods' (raters') measurements of the same subjects; ``nan`` marks a missing
        one (its pair is left out). Or `x` alone: a
        :class:`~irr._measurements.Measurements` (two or more raters, replicates allowed)
        or a 2-D array / DataFrame of subjects x raters.
    method : {'lin', 'overall', 'variance-components'}, optional
        ``'lin'``: Lin's (1989) CCC of two raters (the default for two raters without
        replicates). ``'overall'``: Barnhart, Haber & Song's (2002) overall CCC of two or
        more raters (the default for more than two). ``'variance-components'``: Carrasco
        & Jover's (2003) CCC from a two-way ANOVA, equal to McGraw & Wong's ICC(A,1);
        with replicates the error variance comes from them (Carrasco, King & Chinchilli
        2009; the default with replicates). When readings are missing (replicates
        unequal in number, or a subject not measured by every method) it is fitted by
        REML on every reading (subjects random, methods fixed), the SE by the delta
        method on the REML information, with the Fisher-z interval only.
    rho0 : float, default 0
        The null value of the z test of CCC = rho0 (on Fisher's z scale).

    Returns
    -------
    ConcordanceResult
        The CCC, its SE, Fisher-z interval and z test; for two raters its precision
        (Pearson r) and accuracy (C_b); ``to_frame()`` has a row for each.

    Raises
    ------
    ValueError
        Fewer than three complete subjects, arrays of different lengths, infinite values,
        an unknown `method`, or one that does not fit the data.
    TypeError
        Non-numeric measurements.

    Warns
    -----
    DegenerateDataWarning
        When the CCC or its interval is undefined (every value the same; CCC = +-1).

    See Also
    --------
    total_deviation_index, coverage_probability, icc

    Notes
    -----
    .. math::

        \hat\rho_c = \frac{2 s_{xy}}{s_x^2 + s_y^2 + (\bar x - \bar y)^2} = r\,C_b

    with variances and covariance divided by ``n`` (Lin 1989; DescTools ``CCC`` and epiR
    ``epi.ccc`` do the same). The SE is Lin's (1989) asymptotic one under bivariate
    normality, with the corrected variance of Fisher's z (Lin 2000), both on ``n - 2``.
    The overall and variance-components forms take the SE by the delta method with the
    empirical covariance of the subjects' moments. Subjects not measured by every rater
    are left out, except by the variance-components CCC of an unbalanced design, whose
    REML fit uses every reading.

    The default interpretation scale is McBride's (2005): below 0.90 poor, 0.90-0.95
    moderate, 0.95-0.99 substantial, above 0.99 almost perfect (``res.interpret()``);
    ``irr.interpret_interval`` applies it to the interval.

    References
    ----------
    Lin, L. I.-K. (1989). A concordance correlation coefficient to evaluate
    reproducibility. Biometrics, 45(1), 255-268. https://doi.org/10.2307/2532051

    Lin, L. I.-K. (2000). A note on the concordance correlation coefficient. Biometrics,
    56(1), 324-325.

    Barnhart, H. X., Haber, M., & Song, J. (2002). Overall concordance correlation
    coefficient for evaluating agreement among multiple observers. Biometrics, 58(4),
    1020-1027. https://doi.org/10.1111/j.0006-341X.2002.01020.x

    Carrasco, J. L., & Jover, L. (2003). Estimating the generalized concordance
    correlation coefficient through variance components. Biometrics, 59(4), 849-858.
    https://doi.org/10.1111/j.0006-341X.2003.00099.x

    Examples
    --------
    >>> import irr
    >>> a = [120.5, 131.0, 99.5, 142.0, 110.5, 125.0, 118.0, 136.5]
    >>> b = [118.0, 133.5, 101.0, 139.0, 113.0, 121.5, 119.5, 140.0]
    >>> res = irr.concordance(a, b)
    >>> round(res.estimate, 4), res.interpret().label
    (0.9784, 'substantial')
    >>> [round(v, 3) for v in res.ci]  # McBride judges the lower limit: moderate
    [0.899, 0.996]
    """
    options = InferenceOptions.from_keywords(
        alternative=alternative, confidence_level=confidence_level, ci=ci,
        n_resamples=n_resamples, rng=rng, progress=progress)
    if y is None and not isinstance(x, Measurements):
        if isinstance(x, pd.DataFrame):
            x = Measurements.from_wide(x, raters=list(map(str, x.columns)), subjects=x.index)
        else:
            x = Measurements.from_wide(x)
    if isinstance(x, Measurements):
        if y is not None:
            raise TypeError("Pass either Measurements (or a 2-D table) or two arrays `x, y`.")
        return ccc_measurements(x, options, method, rho0=rho0)
    a, b, dropped, names = _two_methods(x, y)
    if method not in (None, "lin"):
        return ccc_measurements(
            Measurements.from_wide(np.column_stack([a, b]), raters=list(names)), options,
            method, rho0=rho0)
    return lin_ccc(a, b, options, raters=names, n_missing=dropped, rho0=rho0)


@inference_keywords("bootstrap", cis=concordance_estimator.TDI_CIS,
                    **concordance_estimator.TDI_NOTES)
def total_deviation_index(
    x: Any,
    y: Any = None,
    p: float = 0.9,
    *,
    method: str = "approximate",
    confidence_level: float = 0.95,
    ci: str | None = None,
    n_resamples: int = 9999,
    rng: Any = 0,
    progress: bool | None = None,
) -> TDIResult:
    r"""Lin's (2000) total deviation index: the bound containing a proportion `p` of the
    absolute differences between two methods.

    Parameters
    ----------
    x, y : array-like of shape (n_subjects,)
        Two methods' measurements (``nan``: missing; the pair is left out), or `x` a
        two-rater :class:`~irr._measurements.Measurements` (replicates averaged).
    p : float, default 0.9
        The proportion of differences the bound contains, in (0, 1).
    method : {'approximate', 'exact'}, default 'approximate'
        ``'approximate'``: Lin's :math:`\Phi^{-1}(1-(1-p)/2)\sqrt{\mathrm{MSD}}`, exact when
        the mean difference is 0 and conservative otherwise, with Lin's upper confidence
        bound. ``'exact'``: the p-quantile of the folded normal :math:`|D|`,
        :math:`D \sim N(\bar d, s_d^2)` (bootstrap intervals). Both are in the result.

    Returns
    -------
    TDIResult
        ``estimate``, ``ci.high`` (the upper bound), ``tdi_approximate``, ``tdi_exact``,
        ``msd``.

    Notes
    -----
    Differences are ``x - y``; the MSD is :math:`e^2 = \sum d_i^2/(n-1)` and the SD of the
    differences uses ``n - 1``. One function per quantity: the TDI fixes a proportion and
    returns a distance, :func:`coverage_probability` fixes a distance and returns a
    proportion; each has its own one-sided bound.

    References
    ----------
    Lin, L. I.-K. (2000). Total deviation index for measuring individual agreement with
    applications in laboratory performance and bioequivalence. Statistics in Medicine,
    19(2), 255-270.

    Examples
    --------
    >>> import irr
    >>> a = [120.5, 131.0, 99.5, 142.0, 110.5, 125.0, 118.0, 136.5]
    >>> b = [118.0, 133.5, 101.0, 139.0, 113.0, 121.5, 119.5, 140.0]
    >>> res = irr.total_deviation_index(a, b, p=0.9)
    >>> round(res.estimate, 2), round(res.ci.high, 2), round(res.tdi_exact, 2)
    (4.68, 7.53, 4.68)
    """
    options = InferenceOptions.from_keywords(
        confidence_level=confidence_level, ci=ci, n_resamples=n_resamples, rng=rng,
        progress=progress)
    a, b, dropped, names = _two_methods(x, y)
    return total_deviation_index_of(a, b, options, p, method=method, raters=names,
                                    n_missing=dropped)


@inference_keywords("bootstrap", cis=concordance_estimator.CP_CIS,
                    **concordance_estimator.CP_NOTES)
def coverage_probability(
    x: Any,
    y: Any = None,
    delta: float | None = None,
    *,
    confidence_level: float = 0.95,
    ci: str = "logit",
    n_resamples: int = 9999,
    rng: Any = 0,
    progress: bool | None = None,
) -> CoverageResult:
    r"""The coverage probability: the probability that two methods differ by less than
    `delta` (Lin, Hedayat, Sinha & Yang 2002), under normality of the differences.

    Parameters
    ----------
    x, y : array-like of shape (n_subjects,)
        Two methods' measurements (``nan``: missing), or `x` a two-rater
        :class:`~irr._measurements.Measurements`.
    delta : float
        The acceptable absolute difference, > 0, in the measurements' units.

    Returns
    -------
    CoverageResult
        ``estimate`` (CP), ``ci.low`` (the lower bound), ``observed`` (the share of
        pairs within `delta`, without the normal model).

    Notes
    -----
    :math:`CP_\delta = \Phi((\delta-\bar d)/s_d) - \Phi((-\delta-\bar d)/s_d)`, with the
    SD of the differences on ``n - 1``.

    References
    ----------
    Lin, L. I.-K., Hedayat, A. S., Sinha, B., & Yang, M. (2002). Statistical methods in
    assessing agreement: models, issues, and tools. Journal of the American Statistical
    Association, 97(457), 257-270. https://doi.org/10.1198/016214502753479392

    Examples
    --------
    >>> import irr
    >>> a = [120.5, 131.0, 99.5, 142.0, 110.5, 125.0, 118.0, 136.5]
    >>> b = [118.0, 133.5, 101.0, 139.0, 113.0, 121.5, 119.5, 140.0]
    >>> res = irr.coverage_probability(a, b, delta=5.0)
    >>> round(res.estimate, 3), round(res.ci.low, 3)
    (0.921, 0.623)
    """
    if delta is None:
        raise TypeError("`delta` is required: the acceptable absolute difference.")
    options = InferenceOptions.from_keywords(
        confidence_level=confidence_level, ci=ci, n_resamples=n_resamples, rng=rng,
        progress=progress)
    a, b, dropped, names = _two_methods(x, y)
    return coverage_probability_of(a, b, delta, options, raters=names, n_missing=dropped)



# -- the shortcuts the registry declares and this module does not write out -------------
def _declared_shortcut(entry: Coefficient) -> Callable[..., Any]:
    """The pass-through shortcut of `entry`: the Agreement of a subjects x raters matrix
    or wide frame, then its method with every keyword forwarded (as :func:`robinson_a`)."""
    if entry.columns != "all":
        raise TypeError(f"The shortcut {entry.shortcut!r} of {entry.method!r} (columns "
                        f"{entry.columns!r}) must be written out in irr/_functions.py.")
    method = getattr(Agreement, entry.method)

    def shortcut(ratings: Any, *, categories: Any = None, **options: Any) -> Any:
        return _matrix_call(entry.method, ratings, categories, options)

    summary = inspect.cleandoc(method.__doc__ or "").split("\n")[0].rstrip(".")
    shortcut.__name__ = shortcut.__qualname__ = entry.shortcut
    shortcut.__annotations__ = {**shortcut.__annotations__,
                                "return": inspect.signature(method).return_annotation}
    shortcut.__doc__ = f"""{summary}: :meth:`irr.Agreement.{entry.method}` of a subjects x
    raters matrix or wide frame.

    Built from its declaration in :data:`irr.registry.COEFFICIENTS`.

    Parameters
    ----------
    ratings : array-like or DataFrame of shape (n_subjects, n_raters)
        Subjects in rows, raters in columns; missing ratings as ``nan`` or ``None``.
    categories : sequence or None, default None
        The category scale, as for :meth:`irr.Agreement.from_array`.
    **options
        Every keyword of :meth:`irr.Agreement.{entry.method}`, with its defaults.

    Returns
    -------
    {inspect.signature(method).return_annotation}
        As :meth:`irr.Agreement.{entry.method}` returns.
    """
    return shortcut


#: The pass-through shortcuts built from the registry: every declared ``shortcut`` that
#: this module does not write out (exported by :mod:`irr` with the others).
FORWARDED: dict[str, Callable[..., Any]] = {
    c.shortcut: _declared_shortcut(c) for c in COEFFICIENTS
    if c.shortcut is not None and c.shortcut not in __all__}
globals().update(FORWARDED)
__all__ += list(FORWARDED)

