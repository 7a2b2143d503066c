"""Intraclass correlations of real-valued measurements by variance components: every
measurement used, missing cells and replicates allowed (no listwise deletion).

Two estimators of the components of the crossed subjects x raters design
(:mod:`irr.coefficients.variance_components`):

- ``'anova'`` (default): Henderson's method III moment estimators, exact ANOVA estimators
  on balanced data (then every ICC equals McGraw & Wong's and :meth:`irr.Agreement.icc`),
  one pass over the data, with McGraw & Wong's F-based intervals computed from Henderson's
  adjusted mean squares and effective sizes (approximate when the design is unbalanced);
  with replicates a subject bootstrap interval.
- ``'reml'``: restricted maximum likelihood (components kept >= 0), computed in O(n k^2)
  per likelihood evaluation (closed-form subject blocks, Woodbury on the raters), with a
  large-sample Wald interval from the observed REML information (delta method).
"""

from __future__ import annotations

import math
import warnings
from dataclasses import dataclass
from functools import partial
from typing import Any, ClassVar

import numpy as np

from irr._frames import LazyMeasurements
from irr._measurements import Measurements
from irr._validation import DegenerateDataWarning, check_choice
from irr.coefficients.icc import form_description, shrout_fleiss_name
from irr.coefficients.variance_components import (
    Components,
    check_design_size,
    components_icc,
    henderson,
    icc_interval_effective,
    moment_layout,
    moment_sums,
    reml_criterion,
    reml_criterion_fixed,
    single_moment_sums,
    subject_moments,
)
from irr.estimators.icc import ICCResult, check_form
from irr.inference.bootstrap import MomentStatistic, bootstrap_counts
from irr.inference.keywords import ICC_COMPONENTS_NOTES
from irr.inference.options import BOOTSTRAP_METHODS, DEFAULT_OPTIONS, InferenceOptions
from irr.results import ConfidenceInterval, wald_interval

__all__ = [
    "ESTIMATORS",
    "ICC_COMPONENTS_NOTES",
    "MAX_REML_MEASUREMENTS",
    "ComponentsICCResult",
    "cell_statistics",
    "check_measurements",
    "icc_components",
    "moment_bootstrap",
    "reml_components",
    "single_cells",
    "variance_components",
]

#: The estimators of the variance components.
ESTIMATORS = ("anova", "reml")

#: REML above this many measurements is refused (the moment estimators are the fast route).
MAX_REML_MEASUREMENTS = 2_000_000

_MCGRAW_WONG = {
    ("oneway", "agreement", "single"): "ICC(1)",
    ("oneway", "agreement", "average"): "ICC(k)",
    ("twoway", "agreement", "single"): "ICC(A,1)",
    ("twoway", "agreement", "average"): "ICC(A,k)",
    ("twoway", "consistency", "single"): "ICC(C,1)",
    ("twoway", "consistency", "average"): "ICC(C,k)",
}


@dataclass(frozen=True, eq=False, kw_only=True, repr=False)
class ComponentsICCResult(ICCResult):
    """An ICC from variance components, with the components themselves.

    Everything of :class:`irr.estimators.icc.ICCResult` (the F test of ICC = 0 is
    Henderson's, exact under the normal model on any connected design; ``ms_rows``,
    ``ms_columns``, ``ms_error`` are Henderson's adjusted mean squares), plus
    ``estimator`` (``'anova'`` or ``'reml'``), the components ``sigma2_subjects``,
    ``sigma2_raters``, ``sigma2_interaction`` (0 without replicates: not separable from
    error), ``sigma2_error``, the effective sizes ``k0`` (raters per subject) and ``n0``
    (subjects per rater), ``n_measurements``, ``n_cells_missing`` (empty subject x rater
    cells) and ``replicates`` (whether some cell holds more than one measurement).
    """

    estimator: str
    sigma2_subjects: float
    sigma2_raters: float
    sigma2_interaction: float
    sigma2_error: float
    k0: float
    n0: float
    n_measurements: int
    n_cells_missing: int
    replicates: bool
    components: Components | None = None

    interval_methods: ClassVar[tuple[str, ...]] = (
        "approximate-f", "exact", "satterthwaite", "wald", *BOOTSTRAP_METHODS)

    def _interval(self, level: float, method: str) -> ConfidenceInterval:
        if method in ("approximate-f", "exact", "satterthwaite"):
            if self.components is None or self.replicates:
                raise ValueError(
                    f"`method='{method}'`: the F-based interval needs the ANOVA components of "
                    "a design without replicates; use method='wald' (REML) or a bootstrap "
                    "method ('percentile', 'basic', 'bca')."
                )
            low, high, _ = icc_interval_effective(self.components, self.model, self.type,
                                                  self.unit, self.n_raters, level)
            return ConfidenceInterval(float(low), float(high), level, self.ci.method
                                      if self.ci.method in ("approximate-f", "exact",
                                                            "satterthwaite") else method)
        if method == "wald":
            return wald_interval(self.estimate, self.se, level, (0.0, 1.0))
        return super()._interval(level, method)

    def _extras(self) -> dict[str, Any]:
        return {
            **super()._extras(),
            "estimator": self.estimator,
            "sigma2_subjects": self.sigma2_subjects,
            "sigma2_raters": self.sigma2_raters,
            "sigma2_interaction": self.sigma2_interaction,
            "sigma2_error": self.sigma2_error,
            "k0": self.k0,
            "n0": self.n0,
            "n_measurements": self.n_measurements,
            "n_cells_missing": self.n_cells_missing,
        }


def cell_statistics(m: Measurements) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray, float]:
    """Cell counts, sums and sums of squares of the centred values (n, k), each subject's
    within-cell sum of squares (n,), and the centre."""
    n, k = m.n_subjects, m.n_raters
    if not m.has_replicates:  # one value per measured cell: read from the (n, k) cells
        observed, values, centre = single_cells(m)
        sums = np.ascontiguousarray(values.T)
        return np.ascontiguousarray(observed.T), sums, sums * sums, np.zeros(n), centre
    centre = _median(m.value, m.value.size)
    y = m.value - centre
    cell = m.subject * k + m.rater
    counts = np.bincount(cell, minlength=n * k).astype(float)
    sums = np.bincount(cell, weights=y, minlength=n * k)
    mean = np.divide(sums, counts, out=np.zeros_like(sums), where=counts > 0)
    deviation = y - mean[cell]
    within = np.bincount(m.subject, weights=deviation * deviation, minlength=n)
    squares = np.bincount(cell, weights=y * y, minlength=n * k)
    return (counts.reshape(n, k), sums.reshape(n, k), squares.reshape(n, k), within, centre)


def single_cells(m: Measurements, by_rater: np.ndarray | None = None, *,
                 exact_median: bool = True) -> tuple[np.ndarray, np.ndarray, float]:
    """Of measurements without replicates, as raters x subjects (k, n) matrices: which
    cells are measured (1.0, else 0.0) and their values minus the centre (0.0 in empty
    cells, never -0.0); and the centre. `by_rater` is ``m.by_rater()`` when the caller has
    it: the values are written over it.

    The centre keeps the sums of squares accurate; the estimators do not depend on it.
    It is the median measurement (what :func:`cell_statistics` gives, transposed, and
    the bootstrap resamples), or without `exact_median` the median of 1,024 to 2,047
    evenly spaced cells (a pass less: for estimates from moment sums only)."""
    values = m.by_rater() if by_rater is None else by_rater
    missing = np.isnan(values)
    count = values.size - int(np.count_nonzero(missing))
    centre = _median(values, count) if exact_median else _sample_median(values, count)
    values -= centre  # never -0.0: by_rater() holds none and the median is never -0.0
    values.reshape(-1)[np.flatnonzero(missing)] = 0.0
    return (~missing).astype(float), values, centre


def _sample_median(values: np.ndarray, count: int) -> float:
    """The median of the cells that hold a value among every ``size // 1024``-th cell of
    `values` (1,024 to 2,047 cells; all of them when there are fewer), or of all `count`
    when none of those does."""
    flat = values.reshape(-1)
    sample = flat[:: max(1, flat.size // 1024)]
    held = sample.size - int(np.count_nonzero(np.isnan(sample)))
    return _median(sample, held) if held else _median(values, count)


def _median(values: np.ndarray, count: int) -> float:
    """``np.median`` of the `count` finite values of `values` (the others nan), 0.0 when
    there are none, by one partition: nan sorts last, and the lower middle value of an
    even count is the largest value below the upper one."""
    if count == 0:
        return 0.0
    half = count // 2
    part = np.partition(values.reshape(-1), half)
    if count % 2:
        return float(part[half])
    return float((part[:half].max() + part[half]) / 2)


def moment_bootstrap(counts: np.ndarray, sums: np.ndarray, within: np.ndarray,
                     finish: Any, **options: Any) -> Any:
    """The bootstrap of subjects of ``finish(summed moments)``: the per-subject moments
    (:func:`irr.coefficients.variance_components.subject_moments`) of the cell statistics,
    resampled by :func:`irr.inference.bootstrap.bootstrap_counts` with `options`."""
    moments = subject_moments(counts, sums, within)
    return bootstrap_counts(np.ones(len(counts), dtype=np.int64),
                            MomentStatistic(moments, finish), **options)


def _cell_bootstrap(m: Measurements, finish: Any, **options: Any) -> Any:
    """:func:`moment_bootstrap` of the :func:`cell_statistics` of `m`."""
    counts, sums, _, within, _ = cell_statistics(m)
    return moment_bootstrap(counts, sums, within, finish, **options)


def _finish(sums: np.ndarray, k: int, model: str, type: str, unit: str,
            replicates: bool) -> np.ndarray:
    """The ICC of a batch of summed subject moments (the bootstrap's statistic)."""
    c = henderson(sums, k, model, replicates)
    return components_icc(c.subjects, c.raters, c.interaction + c.error, model, type, unit, k)


def reml_components(counts: np.ndarray, sums: np.ndarray, squares: np.ndarray, model: str,
                    replicates: bool, start: Components, *, fixed_raters: bool = False
                    ) -> tuple[np.ndarray, np.ndarray | None, str]:
    """REML components (subjects, raters, interaction, error), the inverse observed
    information of the free ones (None when some lies on the boundary 0), and a note.

    `counts`, `sums`, `squares` are :func:`cell_statistics`' (n, k) arrays, `start` the
    moment estimates to start from. With `fixed_raters` the raters are fixed effects
    (:func:`irr.coefficients.variance_components.reml_criterion_fixed`: Carrasco & Jover's
    model of the variance-components CCC) and the raters' component is returned as 0.
    """
    from scipy.optimize import minimize

    if model == "oneway":  # one cell per subject: all within-subject variance is error
        counts, sums, squares = (x.sum(axis=1, keepdims=True) for x in (counts, sums, squares))
    if fixed_raters:
        free = [0, 2, 3] if replicates else [0, 3]
    else:
        free = [0, 3] if model == "oneway" else ([0, 1, 2, 3] if replicates else [0, 1, 3])
    scale = float(max(np.var(sums[counts > 0] / counts[counts > 0]), 1e-300)) if counts.any() \
        else 1.0
    scale = max(scale, float(start.error) if np.isfinite(start.error) else 0.0, 1e-300)
    initial = np.array([start.subjects, start.raters, start.interaction, start.error], float)
    initial = np.where(np.isfinite(initial), np.maximum(initial, 0.05 * scale), scale)

    def full(x: np.ndarray) -> np.ndarray:
        theta = np.zeros(4)
        theta[free] = x * scale
        return theta

    def objective(x: np.ndarray) -> float:
        if fixed_raters:
            return reml_criterion_fixed(full(x)[[0, 2, 3]], counts, sums, squares)
        return reml_criterion(full(x), counts, sums, squares)

    bounds = [(1e-10, None) if j == 3 else (0.0, None) for j in free]
    fit = minimize(objective, initial[free] / scale, method="L-BFGS-B", bounds=bounds,
                   options={"ftol": 1e-14, "gtol": 1e-10, "maxiter": 2000})
    theta = full(fit.x)
    note = "" if fit.success else f"the REML optimiser stopped early ({fit.message})."
    # observed information of -log L_R = criterion / 2, by central differences, over the
    # components inside the parameter space (one estimated at 0 is held there)
    x0 = fit.x
    inside = [i for i, j in enumerate(free) if j == 3 or x0[i] >= 1e-6]
    if len(inside) < len(free):
        note = (note + " " if note else "") + (
            "A variance component estimated at 0 (the boundary) is held fixed in the "
            "information matrix of the Wald interval.")
    p = len(inside)
    step = 1e-4 * np.maximum(np.abs(x0), 1e-3)
    hessian = np.empty((p, p))
    for a_, i in enumerate(inside):  # at most 4 parameters: a handful of evaluations
        for b_, j in enumerate(inside[a_:], start=a_):
            ei = np.zeros_like(x0)
            ej = np.zeros_like(x0)
            ei[i], ej[j] = step[i], step[j]
            value = (objective(x0 + ei + ej) - objective(x0 + ei - ej)
                     - objective(x0 - ei + ej) + objective(x0 - ei - ej)) / (4 * step[i] * step[j])
            hessian[a_, b_] = hessian[b_, a_] = value / 2
    try:
        cov = np.linalg.inv(hessian) * scale * scale
    except np.linalg.LinAlgError:
        return theta, None, note
    if not np.all(np.linalg.eigvalsh(cov) > 0):
        return theta, None, note
    free = [free[i] for i in inside]
    full_cov = np.zeros((4, 4))
    full_cov[np.ix_(free, free)] = cov
    return theta, full_cov, note


def _delta_se(theta: np.ndarray, cov: np.ndarray, model: str, type: str, unit: str,
              k: int) -> float:
    """Delta-method SE of the ICC from the covariance of the components."""
    def icc_of(t: np.ndarray) -> float:
        return float(components_icc(t[0], t[1], t[2] + t[3], model, type, unit, k))

    grad = np.empty(4)
    for j in range(4):
        h = 1e-6 * max(abs(theta[j]), float(np.abs(theta).max()) * 1e-3, 1e-300)
        up, down = theta.copy(), theta.copy()
        up[j] += h
        down[j] = max(down[j] - h, 0.0) if j != 3 else down[j] - h
        grad[j] = (icc_of(up) - icc_of(down)) / (up[j] - down[j])
    return float(math.sqrt(max(grad @ cov @ grad, 0.0)))


def variance_components(m: Measurements, model: str = "twoway",
                        estimator: str = "anova") -> Components:
    """The variance components of `m` (see :func:`icc_components`).

    Examples
    --------
    >>> x = np.array([[9, 2, 5, 8], [6, 1, 3, 2], [8, 4, 6, 8],
    ...               [7, 1, 2, 6], [10, 5, 6, 9], [6, 2, 4, 7]])
    >>> c = variance_components(Measurements.from_wide(x))
    >>> round(float(c.subjects), 4), round(float(c.raters), 4), round(float(c.error), 4)
    (2.5556, 5.2444, 1.0194)
    """
    check_choice(model, "model", ("oneway", "twoway"))
    check_choice(estimator, "estimator", ESTIMATORS)
    check_design_size(m.n_subjects, m.n_raters, "The variance components")
    counts, sums, squares, within, _ = cell_statistics(m)
    replicates = m.has_replicates and model == "twoway"
    c = henderson(moment_sums(counts, sums, within), m.n_raters, model, replicates)
    if estimator == "anova":
        return c
    theta, _, _ = reml_components(counts, sums, squares, model, replicates, c)
    return Components(*theta, *c[4:])  # REML components; Henderson's mean squares


def check_measurements(m: Any, what: str) -> Measurements:
    """`m` as the Measurements `what` needs: those of a lazy frame raise a ValueError
    naming `what` (it needs their rows), anything else a TypeError."""
    if isinstance(m, LazyMeasurements):
        raise ValueError(m.rows_refused(what))
    if not isinstance(m, Measurements):
        raise TypeError("`measurements` must be an irr Measurements (Measurements.from_wide, "
                        f".from_long); got {type(m).__name__}.")
    return m


def icc_components(
    measurements: Measurements,
    model: str = "twoway",
    type: str = "agreement",
    unit: str = "single",
    *,
    estimator: str = "anova",
    options: InferenceOptions = DEFAULT_OPTIONS,
) -> ComponentsICCResult:
    """The ICC by variance components of `measurements` (see :func:`irr.icc_components`,
    whose `confidence_level`, `n_resamples`, `rng` and `progress` are `options`).

    Examples
    --------
    >>> x = np.array([[9, 2, 5, 8], [6, 1, 3, 2], [8, 4, 6, 8],
    ...               [7, 1, 2, 6], [10, 5, 6, 9], [6, 2, 4, 7.0]])
    >>> res = icc_components(Measurements.from_wide(x))
    >>> res.coefficient, round(res.estimate, 2), res.ci.method
    ('ICC(2,1)', 0.29, 'satterthwaite')
    """
    from scipy.special import fdtrc

    m = check_measurements(measurements, "The ICC by variance components")
    model, type, unit = check_form(model, type, unit)
    check_choice(estimator, "estimator", ESTIMATORS)
    confidence_level = options.confidence_level
    n_resamples = options.n_resamples
    k = m.n_raters
    replicates = m.has_replicates
    cells = replicates or estimator == "reml"  # REML reads the (n, k) cell statistics
    if cells:
        counts, sums, squares, within, _ = cell_statistics(m)
        per_subject = counts.sum(axis=1)
    else:  # moments of one measurement per cell: the raters' rows are all it takes
        observed, values, _ = single_cells(m, exact_median=False)
        per_subject = observed.sum(axis=0)
    present = per_subject > 0
    if int(present.sum()) < 2 or (model == "twoway" and k < 2):
        raise ValueError(
            f"`measurements` must hold at least 2 measured subjects and, for the two-way "
            f"model, 2 raters; got {int(present.sum())} subjects and {k} raters."
        )
    if estimator == "reml" and m.n_measurements > MAX_REML_MEASUREMENTS:
        raise ValueError(
            f"`estimator='reml'` is refused for {m.n_measurements:,} measurements (above "
            f"{MAX_REML_MEASUREMENTS:,}); use estimator='anova' (Henderson's moment "
            "estimators: seconds at any size)."
        )
    check_design_size(m.n_subjects, k, "The ICC")
    moments = (moment_sums(counts, sums, within) if cells
               else single_moment_sums(observed, values))
    separate = replicates and model == "twoway"
    c = henderson(moments, k, model, separate)
    notes: list[str] = []
    if model == "twoway":
        # raters j and l share a subject where sum_i n_ij n_il / n_i > 0
        shared = moments[moment_layout(k)["outer"]].reshape(k, k) > 0
        if not _connected(shared):
            raise ValueError(
                "`measurements`: the subjects x raters design is not connected (some raters "
                "share no subject with the others, directly or through other raters), so "
                "subject and rater effects cannot be separated."
            )
    theta = np.array([c.subjects, c.raters, c.interaction, c.error], dtype=float)
    cov = None
    if estimator == "reml":
        theta, cov, note = reml_components(counts, sums, squares, model, separate, c)
        if note:
            notes.append(note)
    estimate = float(components_icc(theta[0], theta[1], theta[2] + theta[3], model, type,
                                    unit, k))
    if math.isnan(estimate):
        warnings.warn("The ICC is undefined (nan): no variance between subjects and none "
                      "within (every measurement the same).", DegenerateDataWarning,
                      stacklevel=2)
    with np.errstate(divide="ignore", invalid="ignore"):  # no error variance: F infinite
        f = float(np.float64(c.ms_subjects) / np.float64(c.ms_error))
    df1, df2 = float(c.df_subjects), float(c.df_error)
    pvalue = float(fdtrc(df1, df2, f)) if math.isfinite(f) else math.nan
    n_cells = m.n_subjects * k if model == "twoway" else m.n_subjects
    if model == "oneway":
        missing_cells = int((~present).sum())
    else:  # empty subject x rater cells
        filled = np.count_nonzero(counts) if cells else m.n_measurements
        missing_cells = m.n_subjects * k - int(filled)
    balanced = (not replicates) and missing_cells == 0
    se = math.nan
    # the cell statistics and per-subject moments are built when the bootstrap is drawn
    source = partial(_cell_bootstrap, m,
                     partial(_finish, k=k, model=model, type=type, unit=unit,
                             replicates=separate),
                     n_resamples=n_resamples, rng=options.rng, progress=options.progress)
    if estimator == "reml":
        if cov is not None:
            se = _delta_se(theta, cov, model, type, unit, k)
            ci = wald_interval(estimate, se, confidence_level, (0.0, 1.0))
            how = ("Wald interval, delta-method SE from the observed REML information "
                   "(Searle, Casella & McCulloch 1992, §6.3)")
        else:
            ci = ConfidenceInterval(math.nan, math.nan, confidence_level, "wald")
            how = ("no Wald interval: the observed REML information is not positive definite; "
                   "ask conf_int(method='percentile') for a bootstrap of the moment estimator")
        what = "REML (components constrained to be >= 0)"
    elif separate:
        ci = None
        how = (f"percentile bootstrap of subjects ({n_resamples:,} resamples; Ukoumunne et "
               "al. 2003)")
        what = "Henderson's method III moment estimators with the interaction (replicates)"
    else:
        low, high, _ = icc_interval_effective(c, model, type, unit, k, confidence_level)
        method = ("satterthwaite" if (model, type) == ("twoway", "agreement") else
                  ("exact" if balanced else "approximate-f"))
        ci = ConfidenceInterval(float(low), float(high), confidence_level, method)
        how = ("McGraw & Wong (1996) Table 7 F-based interval" + (
            "" if balanced else " from Henderson's mean squares with effective sizes "
            f"k0 = {float(c.k0):.3f}, n0 = {float(c.n0):.3f} (approximate: unbalanced design)"))
        what = ("ANOVA estimators (balanced: McGraw & Wong's)" if balanced else
                "Henderson's method III moment estimators (unbalanced design)")
    sf = shrout_fleiss_name(model, type, unit, k)
    mw = _MCGRAW_WONG[(model, type, unit)]
    lines = [
        f"{sf} (McGraw & Wong {mw}): {form_description(model, type, unit, k)}; variance "
        f"components by {what}.",
        f"{m.n_measurements:,} measurements; {missing_cells:,} of {n_cells:,} "
        + ("subject x rater cells" if model == "twoway" else "subjects")
        + " empty (no listwise deletion: every measurement is used)"
        + ("; replicates give the within-cell error" if separate else "") + ".",
        f"Interval: {how}.",
        f"F test of ICC = 0: F({df1:g}, {df2:g}) on Henderson's adjusted mean squares"
        + (" (approximate with replicates: its error term pools interaction and error)."
           if separate else "."),
    ]
    if unit == "average":
        lines.append(f"Average unit: the mean of one measurement by each of the {k} raters.")
    if np.any(theta[:3] < 0):
        lines.append("A variance component is estimated below 0 (moment estimators are "
                     "unbiased, not constrained); estimator='reml' constrains them.")
    lines.extend(notes)
    result = ComponentsICCResult(
        coefficient=sf, symbol=mw, estimate=estimate, se=se, statistic=f, pvalue=pvalue,
        alternative="greater",
        ci=ci if ci is not None else ConfidenceInterval(math.nan, math.nan,
                                                         confidence_level, "percentile"),
        n_subjects=int(present.sum()), n_missing=0,
        n_incomplete=int(np.count_nonzero(present & (np.count_nonzero(counts, axis=1) < k
                                                     if cells else per_subject < k))),
        raters=m.raters, notes=tuple(lines), model=model, type=type, unit=unit,
        shrout_fleiss=sf, mcgraw_wong=mw, df1=round(df1), df2=round(df2),
        df_ci=math.nan, ms_rows=float(c.ms_subjects), ms_columns=float(c.ms_raters),
        ms_error=float(c.ms_error), ms_within=math.nan, n_raters=k,
        scaled_mean_squares=(), estimator=estimator, sigma2_subjects=float(theta[0]),
        sigma2_raters=float(theta[1]), sigma2_interaction=float(theta[2]),
        sigma2_error=float(theta[3]), k0=float(c.k0), n0=float(c.n0),
        n_measurements=m.n_measurements, n_cells_missing=missing_cells,
        replicates=replicates, components=None if separate else c,
    )
    return result.with_bootstrap(source, "percentile" if ci is None else None)


def _connected(shared: np.ndarray) -> bool:
    """Whether the raters are linked through shared subjects (a connected design), from
    the (k, k) pattern of pairs of raters who measured a subject in common (its diagonal:
    the raters who measured any)."""
    k = len(shared)
    reach = np.eye(k, dtype=bool) | shared
    for _ in range(math.ceil(math.log2(max(k, 2))) + 1):  # squaring: log2(k) steps
        reach = (reach.astype(float) @ reach.astype(float)) > 0
    used = np.diagonal(shared)
    return bool(reach[np.ix_(used, used)].all())
