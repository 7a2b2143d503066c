"""Concordance of continuous measurements: Lin's CCC (two raters or methods), the overall
CCC of several raters (Barnhart, Haber & Song 2002), its variance-components form (Carrasco
& Jover 2003; with replicates, Carrasco, King & Chinchilli 2009), and the total deviation
index and coverage probability (Lin 2000; Lin, Hedayat, Sinha & Yang 2002).

Every estimate is a smooth function of sums of per-subject moments, so the bootstrap
resamples subjects through :class:`irr.inference.bootstrap.MomentStatistic` (a cost of one
pass over the data per resample, no statistic evaluated on a count matrix).
"""

from __future__ import annotations

import math
import warnings
from dataclasses import dataclass, replace
from functools import partial
from typing import Any, ClassVar

import numpy as np
import pandas as pd

from irr._frames import LazyMeasurements
from irr._measurements import Measurements
from irr._moments import PairMoments
from irr._validation import (
    DegenerateDataWarning,
    check_alternative,
    check_choice,
    check_confidence_level,
    check_open_unit,
    show_value,
)
from irr.coefficients.concordance import (
    ccc_moments,
    ccc_of_sums,
    ccc_parts,
    ccc_variance,
    coverage_of_normal,
    cp_logit_variance,
    msd_log_variance,
    overall_ccc_moments,
    overall_ccc_of_sums,
    tdi_approximate,
    tdi_exact,
)
from irr.coefficients.variance_components import (
    MAX_MOMENT_CELLS,
    fixed_rater_effects,
    henderson,
    subject_moments,
)
from irr.estimators.variance_components import cell_statistics, reml_components
from irr.inference.bootstrap import MomentStatistic, bootstrap_counts
from irr.inference.keywords import CCC_CIS, CCC_NOTES, CP_CIS, CP_NOTES, TDI_CIS, TDI_NOTES
from irr.inference.options import BOOTSTRAP_METHODS, InferenceOptions
from irr.results import (
    ConfidenceInterval,
    Result,
    normal_pvalue,
    normal_quantile,
)
from irr.summary import results_summary

__all__ = [
    "CCC_CIS",
    "CCC_METHODS",
    "CCC_NOTES",
    "CP_CIS",
    "CP_NOTES",
    "TDI_CIS",
    "TDI_NOTES",
    "ConcordanceResult",
    "CoverageResult",
    "TDIResult",
    "ccc",
    "ccc_measurements",
    "ccc_of_moments",
    "coverage_of_moments",
    "coverage_probability",
    "cp",
    "lin_ccc",
    "rater_variance",
    "tdi",
    "tdi_of_moments",
    "total_deviation_index",
    "vc_ccc_moments",
    "vc_ccc_of_sums",
]

#: The CCC estimators: Lin's (two raters), Barnhart et al.'s overall CCC (moments), and
#: the variance-components CCC of Carrasco & Jover (= ICC(A,1); replicates allowed).
CCC_METHODS = ("lin", "overall", "variance-components")
#: Above this many moments per subject (the overall CCC of about 60 raters and more) the
#: delta-method SE differentiates along each subject's moments, not each moment.
MAX_GRADIENT_MOMENTS = 2048

_NAMES = {
    "lin": "Lin's CCC",
    "overall": "Overall CCC",
    "variance-components": "CCC (variance components)",
}


# -- the variance-components CCC as a function of moments -----------------------------------


def vc_ccc_moments(means: np.ndarray, within: np.ndarray) -> np.ndarray:
    """Per-subject moments of the variance-components CCC: :func:`overall_ccc_moments` of
    the (n, J) cell means, then each subject's within-cell sum of squares (0 without
    replicates)."""
    return np.column_stack([overall_ccc_moments(means), within])


def vc_ccc_of_sums(sums: np.ndarray, k: int, replicates: int = 1) -> np.ndarray:
    r"""The variance-components CCC of (b, d) sums of :func:`vc_ccc_moments`.

    A two-way ANOVA of the (n, J) cell means gives mean squares for subjects (MSR), raters
    (MSC) and their interaction (MSE); with ``m`` balanced replicates per cell the
    within-cell mean square MSW estimates the error variance. Moment (ANOVA) estimators

    .. math::

        \sigma^2_\alpha = \frac{MSR - MSE}{J},\ \sigma^2_\beta = \frac{MSC - MSE}{n},\
        \sigma^2_{\alpha\beta} + \sigma^2_e = MSE - \frac{MSW}{m} + MSW

    and :math:`\rho_c = \sigma^2_\alpha / (\sigma^2_\alpha + \sigma^2_\beta +
    \sigma^2_{\alpha\beta} + \sigma^2_e)` (Carrasco & Jover 2003, eq. 7; with replicates
    Carrasco, King & Chinchilli 2009). Without replicates it is McGraw & Wong's ICC(A,1).
    On balanced data these are the REML estimates whenever none is negative; unbalanced
    designs are fitted by REML (:func:`ccc_measurements`, :func:`rater_variance`).
    """
    sums = np.atleast_2d(sums)
    n = sums[:, 0]
    jj, kk = np.triu_indices(k)
    m = float(replicates)
    with np.errstate(invalid="ignore", divide="ignore"):
        means = sums[:, 1:1 + k] / n[:, None]
        cross = sums[:, 1 + k:1 + k + jj.size]
        grand = means.mean(axis=1)
        total_sq = cross[:, jj == kk].sum(axis=1)
        row_sq = (total_sq + 2 * cross[:, jj != kk].sum(axis=1)) / k  # sum_i J * rowmean^2
        ss_total = total_sq - n * k * grand * grand
        ss_rows = row_sq - n * k * grand * grand
        ss_cols = n * ((means - grand[:, None]) ** 2).sum(axis=1)
        ss_error = ss_total - ss_rows - ss_cols
        msr = ss_rows / (n - 1)
        msc = ss_cols / (k - 1)
        mse = ss_error / ((n - 1) * (k - 1))
        msw = (sums[:, -1] / (n * k * (m - 1))) if m > 1 else np.zeros_like(n)
        subjects = (msr - mse) / k
        raters = (msc - mse) / n
        residual = mse - msw / m + msw  # interaction + error variance
        denominator = subjects + raters + residual
        return np.where(denominator != 0, subjects / np.where(denominator != 0, denominator, 1),
                        np.nan)


# -- results ---------------------------------------------------------------------------------


def _fisher_z_interval(estimate: float, se_z: float, level: float) -> ConfidenceInterval:
    """tanh(atanh(estimate) +- z * se_z): the interval on Fisher's z scale, back-transformed."""
    if not (np.isfinite(estimate) and np.isfinite(se_z)) or abs(estimate) >= 1:
        note = ("undefined: the estimate is +-1 or its standard error is undefined"
                if np.isfinite(estimate) else "")
        return ConfidenceInterval(math.nan, math.nan, level, "fisher-z", note)
    half = normal_quantile(level) * se_z
    z = math.atanh(estimate)
    return ConfidenceInterval(math.tanh(z - half), math.tanh(z + half), level, "fisher-z")


@dataclass(frozen=True, eq=False, kw_only=True, repr=False)
class ConcordanceResult(Result):
    """A concordance correlation coefficient with its Fisher-z interval.

    ``estimate`` is the CCC, ``se`` its asymptotic standard error and ``se_z`` that of its
    Fisher z, ``ci`` the interval on the z scale back-transformed (``method='fisher-z'``)
    or a bootstrap one; ``statistic`` and ``pvalue`` the z test of CCC = ``rho0``. The
    decomposition CCC = r * C_b: ``pearson_r`` (precision), ``bias_correction`` (C_b,
    accuracy), ``scale_shift`` (v = s_x / s_y) and ``location_shift``
    (u = (mean_x - mean_y) / sqrt(s_x s_y)), for two raters (nan otherwise). ``means``
    and ``sds`` hold each rater's mean and 1/n standard deviation; ``method`` says which
    estimator (:data:`CCC_METHODS`). The variance-components CCC of an unbalanced design
    (a reading missing: unequal replicates, or a subject not measured by every method) is
    fitted by REML on every reading: then ``estimator`` is ``'reml'`` (else
    ``'moments'``), ``n_readings`` the readings used and ``n_readings_missing`` how many
    of the complete design (subjects x methods x the most replicates of a cell) are
    missing, and ``sigma2`` the REML variance components (subjects, methods, interaction,
    error). :meth:`to_frame` has one row for the CCC and, for
    two raters, one for precision and one for accuracy.

    Examples
    --------
    >>> import irr
    >>> x = [120.5, 131.0, 99.5, 142.0, 110.5, 125.0, 118.0, 136.5]
    >>> y = [118.0, 133.5, 101.0, 139.0, 113.0, 121.5, 119.5, 140.0]
    >>> res = irr.concordance(x, y)
    >>> round(res.estimate, 4), round(res.pearson_r, 4), round(res.bias_correction, 4)
    (0.9784, 0.9791, 0.9993)
    >>> [round(v, 3) for v in res.ci]
    [0.899, 0.996]
    """

    scale: str | None = "mcbride"
    pearson_r: float
    bias_correction: float
    scale_shift: float
    location_shift: float
    se_z: float
    rho0: float
    method: str
    means: tuple[float, ...]
    sds: tuple[float, ...]
    n_raters: int
    replicates: int = 1
    estimator: str = "moments"
    n_readings: int = 0
    n_readings_missing: int = 0
    sigma2: tuple[float, ...] = ()

    interval_methods: ClassVar[tuple[str, ...]] = ("fisher-z", *Result.interval_methods)

    def _interval(self, level: float, method: str) -> ConfidenceInterval:
        if method == "fisher-z":
            return _fisher_z_interval(self.estimate, self.se_z, level)
        return super()._interval(level, method)

    def _extras(self) -> dict[str, Any]:
        return {
            "method": self.method,
            "pearson_r": self.pearson_r,
            "bias_correction": self.bias_correction,
            "scale_shift": self.scale_shift,
            "location_shift": self.location_shift,
            "se_z": self.se_z,
            "rho0": self.rho0,
            "means": list(self.means),
            "sds": list(self.sds),
            "replicates": self.replicates,
            **({"estimator": self.estimator, "n_readings": self.n_readings,
                "n_readings_missing": self.n_readings_missing,
                "sigma2_subjects": self.sigma2[0], "sigma2_methods": self.sigma2[1],
                "sigma2_interaction": self.sigma2[2], "sigma2_error": self.sigma2[3]}
               if self.estimator == "reml" else {}),
        }

    def parts(self) -> list[Result]:
        """:meth:`components`: the rows of tables."""
        return self.components()

    def components(self) -> list[Result]:
        """The CCC, then (two raters) its precision (Pearson r, with the Fisher-z interval
        on ``1/sqrt(n - 3)``) and accuracy (C_b, no interval) as results of their own."""
        rows: list[Result] = [self]
        if self.n_raters != 2 or not np.isfinite(self.pearson_r):
            return rows
        level = self.ci.confidence_level
        n = self.n_subjects
        se_z = 1 / math.sqrt(n - 3) if n > 3 else math.nan
        r = self.pearson_r
        rows.append(Result(
            coefficient="Precision (Pearson r)", symbol="r", estimate=r,
            se=(1 - r * r) * se_z, ci=_fisher_z_interval(r, se_z, level),
            n_subjects=n, n_missing=self.n_missing, raters=self.raters, scale=None,
        ))
        rows.append(Result(
            coefficient="Accuracy (C_b)", symbol="C_b", estimate=self.bias_correction,
            se=math.nan, ci=ConfidenceInterval(math.nan, math.nan, level, "none"),
            n_subjects=n, n_missing=self.n_missing, raters=self.raters, scale=None,
            bounds=(0.0, 1.0),
        ))
        return rows

    def to_frame(self) -> pd.DataFrame:
        """One row per quantity: the CCC and, for two raters, precision and accuracy.

        Examples
        --------
        >>> import irr
        >>> res = irr.concordance([1.0, 2.1, 2.9, 4.2, 5.1], [1.2, 2.0, 3.1, 3.9, 5.3])
        >>> res.to_frame()["estimate"].round(4)
        coefficient
        Lin's CCC                0.9895
        Precision (Pearson r)    0.9900
        Accuracy (C_b)           0.9995
        Name: estimate, dtype: float64
        """
        return pd.concat([Result.to_frame(r) for r in self.components()])

    def summary(self) -> Any:
        """A statsmodels ``Summary`` with a row for the CCC and, for two raters, its
        precision and accuracy."""
        return results_summary(self.components(), title=self.coefficient,
                               merge_coincident=False)


@dataclass(frozen=True, eq=False, kw_only=True, repr=False)
class TDIResult(Result):
    """The total deviation index TDI_p: the bound that contains a proportion ``p`` of the
    absolute differences between the two methods (Lin 2000).

    ``estimate`` is the approximate (``method='approximate'``) or exact TDI; ``ci`` for
    the approximate TDI is Lin's one-sided upper confidence bound (``ci.high``; ``ci.low``
    is 0), from the normal distribution of the log of the MSD. Also ``p``,
    ``tdi_approximate``, ``tdi_exact``, ``msd`` (mean squared difference, n - 1 divisor),
    ``mean_difference`` and ``sd_difference`` (n - 1).
    """

    bounds: tuple[float, float] = (0.0, math.inf)
    scale: str | None = None
    alternative: str = "less"
    statistic_name: str = "z"
    p: float
    method: str
    tdi_approximate: float
    tdi_exact: float
    msd: float
    mean_difference: float
    sd_difference: float
    se_log_msd: float

    interval_methods: ClassVar[tuple[str, ...]] = ("log-msd", *BOOTSTRAP_METHODS)

    def _interval(self, level: float, method: str) -> ConfidenceInterval:
        if method == "log-msd":
            if self.method != "approximate":
                raise ValueError(
                    "`method='log-msd'` (Lin 2000's upper bound) applies to the approximate "
                    "TDI; the exact TDI has bootstrap intervals ('percentile', 'basic', "
                    "'bca')."
                )
            return _tdi_bound(self.msd, self.se_log_msd, self.p, level)
        return super()._interval(level, method)

    def _extras(self) -> dict[str, Any]:
        return {"p": self.p, "method": self.method, "tdi_approximate": self.tdi_approximate,
                "tdi_exact": self.tdi_exact, "msd": self.msd,
                "mean_difference": self.mean_difference, "sd_difference": self.sd_difference,
                "se_log_msd": self.se_log_msd}


@dataclass(frozen=True, eq=False, kw_only=True, repr=False)
class CoverageResult(Result):
    """The coverage probability CP_delta: the probability that the absolute difference
    between the two methods is below ``delta`` (Lin, Hedayat, Sinha & Yang 2002), under
    normality of the differences.

    ``ci`` is the one-sided lower confidence bound (``ci.low``; ``ci.high`` is 1) from the
    normal distribution of logit(CP). Also ``delta``, ``mean_difference``,
    ``sd_difference`` (n - 1), ``se_logit`` and ``observed`` (the share of pairs whose
    absolute difference is below ``delta``, without the normal model).
    """

    bounds: tuple[float, float] = (0.0, 1.0)
    scale: str | None = None
    alternative: str = "greater"
    delta: float
    mean_difference: float
    sd_difference: float
    se_logit: float
    observed: float

    interval_methods: ClassVar[tuple[str, ...]] = ("logit", *BOOTSTRAP_METHODS)

    def _interval(self, level: float, method: str) -> ConfidenceInterval:
        if method == "logit":
            return _cp_bound(self.estimate, self.se_logit, level)
        return super()._interval(level, method)

    def _extras(self) -> dict[str, Any]:
        return {"delta": self.delta, "mean_difference": self.mean_difference,
                "sd_difference": self.sd_difference, "se_logit": self.se_logit,
                "observed": self.observed}


def _one_sided_quantile(level: float) -> float:
    """The standard-normal quantile of a one-sided bound of `level`."""
    return normal_quantile(2 * level - 1)


def _tdi_bound(msd: float, se_log: float, p: float, level: float) -> ConfidenceInterval:
    if not (msd > 0 and np.isfinite(se_log)):
        note = "undefined: the mean squared difference is 0 (every pair agrees exactly)"
        return ConfidenceInterval(math.nan, math.nan, level, "log-msd", note)
    upper = math.exp(math.log(msd) + _one_sided_quantile(level) * se_log)
    return ConfidenceInterval(0.0, float(tdi_approximate(np.array(upper), p)), level,
                              "log-msd", "one-sided: an upper confidence bound (the lower end is 0)")


def _cp_bound(cp: float, se_logit: float, level: float) -> ConfidenceInterval:
    if not (0 < cp < 1 and np.isfinite(se_logit)):
        note = (f"undefined: the estimated coverage is {cp:g} (the differences have no "
                "spread, or lie far inside or outside delta), so its logit is infinite")
        return ConfidenceInterval(math.nan, math.nan, level, "logit", note)
    logit = math.log(cp / (1 - cp)) - _one_sided_quantile(level) * se_logit
    return ConfidenceInterval(1 / (1 + math.exp(-logit)), 1.0, level, "logit",
                              "one-sided: a lower confidence bound (the upper end is 1)")


# -- inputs ----------------------------------------------------------------------------------


def _standardise(*columns: np.ndarray) -> tuple[list[np.ndarray], float, float]:
    """The columns minus their common mean over their common range (the CCC does not
    change under a common shift and positive rescaling): moments of order two then keep
    their digits. Two passes per column for the centre and range, one to transform."""
    total = sum(float(c.sum()) for c in columns)
    centre = total / sum(c.size for c in columns)
    spread = max(float(c.max()) for c in columns) - min(float(c.min()) for c in columns)
    spread = spread if spread > 0 else 1.0
    return _scaled(centre, spread, *columns), centre, spread


def _scaled(centre: float, spread: float, *columns: np.ndarray) -> list[np.ndarray]:
    """``(c - centre) / spread`` of each column, as :func:`_standardise` makes them."""
    scaled = []
    for c in columns:
        out = np.subtract(c, centre)
        out *= 1.0 / spread
        scaled.append(out)
    return scaled


def _standardised_ccc_moments(x: np.ndarray, y: np.ndarray) -> np.ndarray:
    """:func:`ccc_moments` of the columns standardised by :func:`_standardise` (for the
    bootstrap, made when drawn)."""
    return ccc_moments(*_standardise(x, y)[0])


def _check_common(options: InferenceOptions, methods: tuple[str, ...]) -> tuple[float, str, str]:
    """The level, alternative and interval method of `options` (the method one of
    `methods`)."""
    return (options.confidence_level, options.alternative,
            check_choice(options.ci, "ci", methods))


def _sandwich_se(moments: np.ndarray, finish: Any) -> float:
    """Delta-method SE of ``finish(sums)`` with the empirical covariance of the subjects'
    moments (no normality assumed; the moment form of Barnhart et al.'s GEE estimator):
    ``Var(sums) = n * Cov(moments)``. The gradient is a central difference, all 2d
    evaluations in one batched call."""
    n, d = moments.shape
    if d > MAX_GRADIENT_MOMENTS and n < d:
        return _directional_se(moments, finish)
    sums = moments.sum(axis=0)
    centred = moments - sums / n
    cov = centred.T @ centred / n
    step = 1e-6 * np.maximum(np.abs(sums), n * np.sqrt(np.diag(cov)) + 1.0)
    step[0] = 0.0  # the subject count is fixed
    batch = np.repeat(sums[None, :], 2 * d, axis=0)
    batch[np.arange(d), np.arange(d)] += step
    batch[d + np.arange(d), np.arange(d)] -= step
    values = np.asarray(finish(batch), dtype=float)
    with np.errstate(invalid="ignore", divide="ignore"):
        gradient = np.where(step > 0, (values[:d] - values[d:]) / np.where(step > 0, 2 * step, 1),
                            0.0)
    if not np.isfinite(gradient).all():
        return math.nan
    return float(math.sqrt(max(n * (gradient @ cov @ gradient), 0.0)))


def _directional_se(moments: np.ndarray, finish: Any) -> float:
    """:func:`_sandwich_se` for many moments (many raters): ``n Var(g'm) = sum_i (g'c_i)^2``
    with ``c_i`` subject i's centred moments, each ``g'c_i`` a central difference of
    ``finish`` along ``c_i``: 2n evaluations in chunks instead of 2d, and no d x d matrix."""
    n, d = moments.shape
    sums = moments.sum(axis=0)
    centred = moments - sums / n
    centred[:, 0] = 0.0  # the subject count is fixed
    size = np.maximum(np.abs(centred).max(axis=1), 1e-300)
    step = 1e-6 * np.maximum(np.abs(sums).max(), 1.0) / size
    chunk = max(1, (1 << 22) // d)
    slopes = np.empty(n)
    for start in range(0, n, chunk):
        c = centred[start:start + chunk] * step[start:start + chunk, None]
        values = np.asarray(finish(np.concatenate([sums + c, sums - c])), dtype=float)
        slopes[start:start + chunk] = (values[:len(c)] - values[len(c):]) / (
            2 * step[start:start + chunk])
    if not np.isfinite(slopes).all():
        return math.nan
    return float(math.sqrt(slopes @ slopes))


def _bootstrap(statistic: MomentStatistic, n: int, options: InferenceOptions) -> Any:
    """A recipe drawing the subject bootstrap of a moment statistic (pickles)."""
    return partial(bootstrap_counts, np.ones(n, dtype=np.int64), statistic,
                   n_resamples=options.n_resamples, rng=options.rng, progress=options.progress)


def _draw_moments(build: Any, columns: tuple[np.ndarray, ...], finish: Any,
                  options: InferenceOptions) -> Any:
    """Draw the subject bootstrap of ``finish`` over the moments ``build(*columns)``, built
    only now: a result that never bootstraps never holds the (n, d) moment matrix."""
    statistic = MomentStatistic(build(*columns), finish)
    return bootstrap_counts(np.ones(columns[0].size, dtype=np.int64), statistic,
                            n_resamples=options.n_resamples, rng=options.rng,
                            progress=options.progress)


def _finish_result(result: Any, recipe: Any, ci: str) -> Any:
    """Attach the bootstrap recipe; a bootstrap `ci` replaces the default interval."""
    return result.with_bootstrap(recipe, ci if ci in BOOTSTRAP_METHODS else None)


# -- Lin's CCC -------------------------------------------------------------------------------


def ccc(data: Measurements | LazyMeasurements, options: InferenceOptions,
        method: str | None = None, *, rho0: float = 0.0) -> ConcordanceResult:
    """The CCC of measurements, or Lin's CCC of the first two raters from the moments a
    lazy frame's engine sums (see :func:`irr.concordance`; `options.ci` None is the
    Fisher-z interval)."""
    if isinstance(data, LazyMeasurements):
        ci = options.ci or "fisher-z"
        if method not in (None, "lin") or len(data.raters) != 2 or ci != "fisher-z":
            # what was asked, in the user's words: no `method=None` they never passed
            asked = (f"The overall CCC of {len(data.raters)} raters"
                     if len(data.raters) != 2 else
                     f"The CCC with method={method!r}" if method not in (None, "lin")
                     else f"The CCC with ci={ci!r}")
            raise ValueError(data.rows_refused(
                f"{asked} (only Lin's CCC of two raters with its Fisher-z interval is "
                "summed by the engine)"))
        moments, n_one = PairMoments.of_lazy(data, 0, 1)
        if moments.n < 3:
            raise ValueError("Concordance needs at least three subjects measured by both "
                             f"raters; got {moments.n}.")
        return ccc_of_moments(moments, raters=data.raters, n_missing=n_one, rho0=rho0,
                              alternative=options.alternative,
                              confidence_level=options.confidence_level)
    return ccc_measurements(data, options, method, rho0=rho0)


def lin_ccc(
    x: np.ndarray,
    y: np.ndarray,
    options: InferenceOptions,
    *,
    raters: tuple[str, str] = ("x", "y"),
    n_missing: int = 0,
    rho0: float = 0.0,
    notes: tuple[str, ...] = (),
) -> ConcordanceResult:
    """Lin's CCC of complete pairs (see :func:`irr.concordance`): :func:`ccc_of_moments`
    of their moments, with the subject bootstrap attached."""
    level, alternative, ci = _check_common(_fisher(options), ConcordanceResult.interval_methods)
    moments = PairMoments.of_arrays(x, y, residuals=False)
    result = ccc_of_moments(moments, raters=raters, n_missing=n_missing,
                            rho0=rho0, alternative=alternative, confidence_level=level,
                            notes=notes)
    recipe = partial(_draw_moments, _standardised_ccc_moments, (x, y), ccc_of_sums, options)
    return _finish_result(result, recipe, ci)


def _fisher(options: InferenceOptions) -> InferenceOptions:
    """`options` with the CCC's default interval, Fisher's z, for `ci` None."""
    return options if options.ci is not None else replace(options, ci="fisher-z")


def ccc_of_moments(
    moments: PairMoments,
    *,
    raters: tuple[str, str] = ("x", "y"),
    n_missing: int = 0,
    rho0: float = 0.0,
    alternative: str = "two-sided",
    confidence_level: float = 0.95,
    notes: tuple[str, ...] = (),
) -> ConcordanceResult:
    """Lin's CCC, its decomposition, Lin's asymptotic SE and the Fisher-z interval from
    the moments of the pairs (:class:`irr._moments.PairMoments` of the differences
    ``x - y``): every number of :func:`lin_ccc` but the bootstrap, which needs the pairs.

    Examples
    --------
    >>> from irr._moments import PairMoments
    >>> x = np.array([1.0, 2.1, 2.9, 4.2, 5.1]); y = np.array([1.2, 2.0, 3.1, 3.9, 5.3])
    >>> res = ccc_of_moments(PairMoments.of_arrays(x, y))
    >>> round(res.estimate, 4), round(res.pearson_r, 4)
    (0.9895, 0.99)
    """
    level = check_confidence_level(confidence_level)
    alternative = check_alternative(alternative)
    rho0 = _check_rho0(rho0)
    n = moments.n
    mx, my, vxx, vyy, vxy = moments.xy()
    sx, sy = math.sqrt(max(vxx, 0.0)), math.sqrt(max(vyy, 0.0))
    parts = {k: float(v[0]) for k, v in ccc_parts(
        *(np.atleast_1d(v) for v in (mx, my, vxx, vyy, vxy))).items()}
    estimate = parts["ccc"]
    var, var_z = ccc_variance(estimate, parts["r"], parts["u"], n)
    lines = [
        "Lin's (1989) concordance correlation coefficient: variances and covariance with "
        "divisor n, as Lin; CCC = r x C_b (precision x accuracy).",
        "SE: Lin (1989) with the corrected variance of Fisher's z (Lin 2000), divisor n - 2; "
        "interval on the z scale, back-transformed.",
    ]
    _warn_undefined_ccc(estimate, sx, sy)
    if np.isfinite(estimate) and not np.isfinite(var_z):
        lines.append("Fisher-z SE undefined: the CCC is +-1 or the Pearson r is 0.")
    if n_missing:
        lines.append(f"{n_missing:,} pair(s) with a missing value left out.")
    return _ccc_result(
        estimate, var, var_z, rho0, alternative, level, n, n_missing, raters,
        (*lines, *notes), method="lin", parts=parts, means=(mx, my), sds=(sx, sy),
        n_raters=2)


def _check_rho0(rho0: Any) -> float:
    if isinstance(rho0, bool) or not isinstance(rho0, (int, float, np.floating, np.integer)):
        raise TypeError(f"`rho0` must be a real number in (-1, 1); got {show_value(rho0)}.")
    if not -1 < float(rho0) < 1:
        raise ValueError(f"`rho0` must be in (-1, 1); got {show_value(rho0)}.")
    return float(rho0)


def _warn_undefined_ccc(estimate: float, *sds: float) -> None:
    if math.isnan(estimate):
        warnings.warn(
            "The CCC is undefined (nan): every measurement is the same value, so there is "
            "no variation to agree on (0/0).", DegenerateDataWarning, stacklevel=4)
    elif any(s == 0 for s in sds):
        warnings.warn(
            "A rater's measurements are all the same value: the CCC is 0 and its precision "
            "(Pearson r) and accuracy are undefined.", DegenerateDataWarning, stacklevel=4)


def _ccc_result(estimate: float, var: float, var_z: float, rho0: float, alternative: str,
                level: float, n: int, n_missing: int, raters: tuple[str, ...],
                notes: tuple[str, ...], *, method: str, parts: dict[str, float],
                means: tuple[float, ...], sds: tuple[float, ...], n_raters: int,
                replicates: int = 1, **design: Any) -> ConcordanceResult:
    se_z = math.sqrt(var_z) if np.isfinite(var_z) else math.nan
    statistic = math.nan
    if np.isfinite(se_z) and se_z > 0 and abs(estimate) < 1:
        statistic = (math.atanh(estimate) - math.atanh(rho0)) / se_z
    test_note = (f"z test of CCC = {rho0:g} on Fisher's z scale ({alternative})."
                 if np.isfinite(statistic) else "")
    return ConcordanceResult(
        coefficient=_NAMES[method],
        symbol="ρc",
        estimate=estimate,
        se=math.sqrt(var) if np.isfinite(var) else math.nan,
        statistic=statistic,
        pvalue=normal_pvalue(statistic, alternative),
        alternative=alternative,
        ci=_fisher_z_interval(estimate, se_z, level),
        n_subjects=n,
        n_missing=n_missing,
        n_incomplete=n_missing,
        raters=tuple(raters),
        notes=tuple(x for x in (*notes, test_note) if x),
        pearson_r=parts.get("r", math.nan),
        bias_correction=parts.get("cb", math.nan),
        scale_shift=parts.get("v", math.nan),
        location_shift=parts.get("u", math.nan),
        se_z=se_z,
        rho0=rho0,
        method=method,
        means=tuple(float(m) for m in means),
        sds=tuple(float(s) for s in sds),
        n_raters=n_raters,
        replicates=replicates,
        **design,
    )


# -- several raters, replicates --------------------------------------------------------------


def ccc_measurements(
    m: Measurements,
    options: InferenceOptions,
    method: str | None = None,
    *,
    rho0: float = 0.0,
) -> ConcordanceResult:
    """The CCC of :class:`Measurements` (see :func:`irr.concordance`)."""
    if not isinstance(m, Measurements):
        raise TypeError(f"`m` must be a Measurements; got {type(m).__name__}.")
    m.check_magnitude("The concordance correlation coefficient")
    if method is None:
        method = ("variance-components" if m.has_replicates
                  else "lin" if m.n_raters == 2 else "overall")
    method = check_choice(method, "method", CCC_METHODS)
    if m.n_raters < 2:
        raise ValueError(f"Concordance needs at least two raters; got {m.n_raters}.")
    if method == "lin":
        if m.n_raters != 2:
            raise ValueError(f"`method='lin'` compares two raters; these are {m.n_raters}: "
                             f"{list(m.raters)}. Use method='overall' or "
                             "'variance-components'.")
        x, y, dropped = m.pair()
        if x.size < 3:
            raise ValueError(f"Concordance needs at least three subjects measured by both "
                             f"raters; got {x.size}.")
        notes = (("Replicates averaged per subject and rater before Lin's CCC (the CCC of "
                  "the means; method='variance-components' keeps the within-subject "
                  "error)."),) if m.has_replicates else ()
        return lin_ccc(x, y, options, raters=m.raters, n_missing=dropped, rho0=rho0,
                       notes=notes)
    level, alternative, ci = _check_common(_fisher(options), ConcordanceResult.interval_methods)
    rho0 = _check_rho0(rho0)
    counts = m.replicates
    measured = counts.sum(axis=1) > 0
    if method == "variance-components" and np.unique(counts[measured]).size > 1:
        return _vc_ccc_reml(m, rho0=rho0, alternative=alternative, level=level, ci=ci)
    complete = (counts > 0).all(axis=1)
    dropped = int((counts.sum(axis=1) > 0).sum() - complete.sum())
    k = m.n_raters
    n = int(complete.sum())
    if n < 3:
        raise ValueError(f"Concordance needs at least three subjects measured by every rater; "
                         f"got {n}.")
    replicates = 1
    width = k * (k + 1) // 2 + k + 1  # moments per subject, about k^2 / 2
    if n * width > MAX_MOMENT_CELLS:
        raise ValueError(
            f"The {method} CCC of {k:,} raters takes about {width:,} moments per subject "
            f"({n:,} x {width:,} in all, above the limit of {MAX_MOMENT_CELLS:,}): compare "
            "pairs of raters (method='lin' with two raters), or use the ICC."
        )
    if method == "overall":
        if m.has_replicates:
            raise ValueError("`method='overall'` takes one measurement per subject and rater; "
                             "these data have replicates. Use method='variance-components'.")
        values = m.wide()[complete]
        (scaled,), _, _ = _standardise(values)
        moments = overall_ccc_moments(scaled)
        finish = partial(overall_ccc_of_sums, k=k)
        lines = ["Overall CCC (Barnhart, Haber & Song 2002): pairwise squared differences "
                 "over their value under independence, moments with divisor n; for two "
                 "raters it is Lin's CCC."]
    else:
        replicates = int(counts[complete].max())  # balanced: every cell holds as many
        total, squares = m.cell_sums()
        values = m.wide()[complete]
        within = (squares[complete] - total[complete] ** 2 / replicates).sum(axis=1)
        (scaled,), _, spread = _standardise(values)
        moments = vc_ccc_moments(scaled, np.maximum(within, 0.0) / spread**2)
        finish = partial(vc_ccc_of_sums, k=k, replicates=replicates)
        lines = ["CCC by variance components (Carrasco & Jover 2003): subject variance over "
                 "the total of subject, rater, interaction and error variances, ANOVA "
                 "(moment) estimators; without replicates it equals McGraw & Wong's "
                 "ICC(A,1)."]
        if replicates > 1:
            lines.append(f"{replicates} replicates per subject and rater: error variance "
                         "from the within-cell mean square (Carrasco, King & Chinchilli "
                         "2009).")
    sums = moments.sum(axis=0)
    estimate = float(finish(sums)[0])
    se = _sandwich_se(moments, finish)
    one = 1 - estimate * estimate
    var = se * se
    var_z = var / (one * one) if np.isfinite(var) and one > 0 else math.nan
    lines.append("SE: delta method with the empirical covariance of the subjects' moments; "
                 "interval on Fisher's z scale, back-transformed.")
    if dropped:
        lines.append(f"{dropped} subject(s) not measured by every rater left out.")
    raw = m.wide()[complete]
    means = tuple(raw.mean(axis=0))
    sds = tuple(raw.std(axis=0))
    if math.isnan(estimate):
        _warn_undefined_ccc(estimate)
    result = _ccc_result(
        estimate, var, var_z, rho0, alternative, level, n, dropped, m.raters, tuple(lines),
        method=method, parts={}, means=means, sds=sds, n_raters=k, replicates=replicates)
    statistic = MomentStatistic(moments, finish)
    return _finish_result(result, _bootstrap(statistic, n, options), ci)


def rater_variance(beta: np.ndarray, cov: np.ndarray) -> float:
    r"""The variance of fixed method effects, estimated without bias from their GLS
    estimates :math:`\hat\beta` (covariance :math:`\Sigma`):

    .. math::

        \hat\sigma^2_\beta = \frac{\hat\beta' C \hat\beta - \operatorname{tr}(C\Sigma)}{J - 1},
        \quad C = I - \tfrac{1}{J} 11',

    i.e. :math:`\sum_{j<l} [(\hat\beta_j - \hat\beta_l)^2 - \operatorname{Var}(\hat\beta_j
    - \hat\beta_l)] / (J(J-1))`: the mean squared difference of two methods' effects,
    halved (Carrasco & Jover 2003). On balanced data, where :math:`\Sigma = MSE/n \cdot I`
    up to a multiple of :math:`11'`, it is the ANOVA estimator :math:`(MSC - MSE)/n`.

    Examples
    --------
    >>> float(rater_variance(np.array([0.0, 2.0]), np.eye(2) * 0.5))
    1.5
    """
    j = beta.size
    c = np.eye(j) - 1.0 / j
    return float((beta @ c @ beta - np.trace(c @ cov)) / (j - 1))


def _reml_ccc(theta: np.ndarray, beta: np.ndarray, counts: np.ndarray, sums: np.ndarray,
              squares: np.ndarray) -> float:
    """The CCC at the components (subjects, -, interaction, error) and method effects."""
    _, cov = fixed_rater_effects(theta[[0, 2, 3]], counts, sums, squares)
    s2b = rater_variance(beta, cov)
    total = theta[0] + s2b + theta[2] + theta[3]
    return float(theta[0] / total) if total != 0 else math.nan


def _no_reml_bootstrap() -> None:
    raise ValueError(
        "No bootstrap is offered for the variance-components CCC of an unbalanced design: "
        "it is fitted by REML, which a bootstrap would refit on every resample; its interval "
        "is the Fisher-z one (the default).")


def _vc_ccc_reml(m: Measurements, *, rho0: float, alternative: str, level: float,
                 ci: str) -> ConcordanceResult:
    """The variance-components CCC of an unbalanced design by REML on every reading:
    Carrasco & Jover's (2003) mixed model (subjects random, methods fixed, with replicates
    the subject x method interaction), its SE by the delta method on the observed REML
    information of the components and the GLS covariance of the method effects. Its
    interval is Fisher-z whatever `ci` asks (a note says so for a bootstrap method)."""
    k = m.n_raters
    counts, sums, squares, within, centre = cell_statistics(m)
    measured = counts.sum(axis=1) > 0
    counts, sums, squares, within = (x[measured] for x in (counts, sums, squares, within))
    n = int(measured.sum())
    if n < 3:
        raise ValueError(f"Concordance needs at least three measured subjects; got {n}.")
    rated = (counts > 0).sum(axis=0)
    if (rated == 0).any():
        raise ValueError(
            "`method='variance-components'`: every method must measure some subject; "
            f"{[m.raters[j] for j in np.flatnonzero(rated == 0)]} measured none.")
    if not np.any(m.value != m.value[0]):  # no variation at all: 0/0
        _warn_undefined_ccc(math.nan)
        return _ccc_result(
            math.nan, math.nan, math.nan, rho0, alternative, level, n, 0, m.raters,
            ("CCC by variance components: every reading is the same value.",),
            method="variance-components", parts={}, means=(float(m.value[0]),) * k,
            sds=(0.0,) * k, n_raters=k, replicates=int(counts.max()), estimator="reml",
            n_readings=int(counts.sum()),
            n_readings_missing=n * k * int(counts.max()) - int(counts.sum()),
            sigma2=(0.0, 0.0, 0.0, 0.0)).with_bootstrap(_no_reml_bootstrap)
    replicates = bool(m.has_replicates)
    start = henderson(subject_moments(counts, sums, within).sum(axis=0), k, "twoway",
                      replicates)
    theta, cov, note = reml_components(counts, sums, squares, "twoway", replicates, start,
                                       fixed_raters=True)
    beta, cov_beta = fixed_rater_effects(theta[[0, 2, 3]], counts, sums, squares)
    estimate = _reml_ccc(theta, beta, counts, sums, squares)
    sigma2 = (float(theta[0]), rater_variance(beta, cov_beta), float(theta[2]),
              float(theta[3]))
    var = math.nan
    if cov is not None and np.isfinite(estimate):
        # delta method: the components (observed REML information) and the method effects
        # (GLS covariance) are asymptotically independent
        grad = np.zeros(4)
        for j in np.flatnonzero(np.diag(cov) > 0):
            h = 1e-6 * max(abs(theta[j]), float(np.abs(theta).max()) * 1e-3, 1e-300)
            up, down = theta.copy(), theta.copy()
            up[j] += h
            down[j] -= h
            grad[j] = (_reml_ccc(up, beta, counts, sums, squares)
                       - _reml_ccc(down, beta, counts, sums, squares)) / (2 * h)
        total = theta[0] + rater_variance(beta, cov_beta) + theta[2] + theta[3]
        c = np.eye(k) - 1.0 / k
        grad_beta = -theta[0] / total**2 * 2 * (c @ beta) / (k - 1)
        var = float(grad @ cov @ grad + grad_beta @ cov_beta @ grad_beta)
    one = 1 - estimate * estimate
    var_z = var / (one * one) if np.isfinite(var) and one > 0 else math.nan
    n_readings = int(counts.sum())
    most = int(counts.max())
    full = n * k * most
    missing = full - n_readings
    empty = int((counts == 0).sum())
    lines = [
        "CCC by variance components (Carrasco & Jover 2003): subject variance over the "
        "total of subject, method, interaction and error variances, from the mixed model "
        "with subjects random and methods fixed, fitted by REML (random components >= 0) on every "
        "reading; the method variance is the variance of the GLS method means less its "
        "sampling part.",
        f"Unbalanced design: {missing:,} of {full:,} readings missing ({n:,} subjects x "
        f"{k} methods x {most} replicates); {n_readings:,} readings used, no subject left "
        "out" + (f" ({empty:,} subject x method cell(s) empty)" if empty else "") + ".",
        "Variance components: subjects {:.4g}, methods {:.4g}, interaction {:.4g}, error "
        "{:.4g}.".format(*sigma2) + (
            " The method variance is below 0 (the method means differ less than their "
            "sampling error would make them) and is used as it is, as the ANOVA estimator "
            "of a balanced design would be." if sigma2[1] < 0 else ""),
    ]
    if replicates:
        lines.append("Replicates separate the subject x method interaction from the error "
                     "variance (Carrasco, King & Chinchilli 2009).")
    if note:
        lines.append(note)
    if ci in BOOTSTRAP_METHODS:
        lines.append(f"Interval: Fisher z; no bootstrap (`ci='{ci}'`) is offered for the REML "
                     "fit of an unbalanced design, which would be refitted on every resample.")
    lines.append("SE: delta method on the observed REML information of the components and "
                 "the GLS covariance of the method means; interval on Fisher's z scale, "
                 "back-transformed." if np.isfinite(var) else
                 "SE undefined: a variance component estimated at 0 (the boundary) leaves "
                 "no Wald SE.")
    means = tuple(beta + centre)
    cell_mean = np.where(counts > 0, sums / np.maximum(counts, 1), np.nan)
    sds = tuple(float(np.nanstd(cell_mean[:, j])) for j in range(k))
    if math.isnan(estimate):
        _warn_undefined_ccc(estimate)
    result = _ccc_result(
        estimate, var, var_z, rho0, alternative, level, n, 0, m.raters, tuple(lines),
        method="variance-components", parts={}, means=means, sds=sds, n_raters=k,
        replicates=most, estimator="reml", n_readings=n_readings,
        n_readings_missing=missing, sigma2=sigma2)
    return result.with_bootstrap(_no_reml_bootstrap)


# -- TDI and CP ------------------------------------------------------------------------------


def _difference_summary(moments: PairMoments) -> tuple[float, float, float]:
    """The mean difference, the SD of the differences (n - 1) and the mean squared
    difference ``sum(d^2) / (n - 1)`` of the moments of the pairs."""
    n = moments.n
    mean = float(moments.mean_d)
    return mean, moments.sd, (moments.sdd + n * mean * mean) / (n - 1)


def _tdi_of_sums(sums: np.ndarray, p: float, method: str) -> np.ndarray:
    """TDI of (b, 3) sums of [1, d, d*d] over resamples."""
    sums = np.atleast_2d(sums)
    n = sums[:, 0]
    with np.errstate(invalid="ignore", divide="ignore"):
        if method == "approximate":
            return tdi_approximate(sums[:, 2] / (n - 1), p)
        mean = sums[:, 1] / n
        var = np.maximum((sums[:, 2] - n * mean * mean) / (n - 1), 0.0)
        return tdi_exact(mean, np.sqrt(var), p)


def _cp_of_sums(sums: np.ndarray, delta: float) -> np.ndarray:
    """CP of (b, 3) sums of [1, d, d*d] over resamples."""
    sums = np.atleast_2d(sums)
    n = sums[:, 0]
    with np.errstate(invalid="ignore", divide="ignore"):
        mean = sums[:, 1] / n
        var = np.maximum((sums[:, 2] - n * mean * mean) / (n - 1), 0.0)
    return coverage_of_normal(mean, np.sqrt(var), delta)


def _difference_moments(x: np.ndarray, y: np.ndarray) -> np.ndarray:
    """Each pair's ``[1, d, d*d]`` of ``d = x - y`` (for the bootstrap, made when drawn)."""
    d = x - y
    return np.column_stack([np.ones_like(d), d, d * d])


def tdi(data: Measurements | LazyMeasurements, options: InferenceOptions, p: float = 0.9,
        first: int = 0, second: int = 1, *, method: str = "approximate") -> TDIResult:
    """The TDI of raters `first` and `second` of measurements (replicates averaged), or
    from the moments a lazy frame's engine sums (the approximate TDI with Lin's bound).
    See :func:`irr.total_deviation_index`."""
    raters = (data.raters[first], data.raters[second])
    if isinstance(data, LazyMeasurements):
        if method != "approximate" or options.ci not in (None, "log-msd"):
            raise ValueError(data.rows_refused(
                f"The total deviation index with method={method!r}, ci={options.ci!r} (a "
                "bootstrap interval)"))
        moments, _ = PairMoments.of_lazy(data, first, second)
        return tdi_of_moments(moments, p, raters=raters, n_missing=data.n_rows - moments.n,
                              confidence_level=options.confidence_level)
    data.check_magnitude("The total deviation index")
    x, y = data.paired(first, second)
    return total_deviation_index(x, y, options, p, method=method, raters=raters,
                                 n_missing=data.n_subjects - x.size)


def total_deviation_index(
    x: np.ndarray,
    y: np.ndarray,
    options: InferenceOptions,
    p: float = 0.9,
    *,
    method: str = "approximate",
    raters: tuple[str, str] = ("x", "y"),
    n_missing: int = 0,
) -> TDIResult:
    """The TDI of complete pairs (see :func:`irr.total_deviation_index`): :func:`_tdi` of
    their moments, with the subject bootstrap attached."""
    p, method, level, ci = _tdi_options(p, method, options.confidence_level, options.ci)
    result = _tdi(PairMoments.of_arrays(x, y, residuals=False), p, method, raters, n_missing,
                  level, ci)
    recipe = partial(_draw_moments, _difference_moments, (x, y),
                     partial(_tdi_of_sums, p=p, method=method), options)
    return _finish_result(result, recipe, ci)


def tdi_of_moments(
    moments: PairMoments,
    p: float = 0.9,
    *,
    method: str = "approximate",
    raters: tuple[str, str] = ("x", "y"),
    n_missing: int = 0,
    confidence_level: float = 0.95,
) -> TDIResult:
    """The TDI from the moments of the pairs (:class:`irr._moments.PairMoments` of the
    differences ``x - y``): the approximate and exact TDI and, for the approximate one,
    Lin's upper confidence bound; the bootstrap intervals need the pairs.

    Examples
    --------
    >>> import irr
    >>> from irr._moments import PairMoments
    >>> pef = irr.datasets.load("pef")
    >>> m = PairMoments.of_arrays(pef["wright_1"].to_numpy(float), pef["mini_1"].to_numpy(float))
    >>> round(tdi_of_moments(m, 0.9).estimate, 1)
    63.9
    """
    p, method, level, ci = _tdi_options(p, method, confidence_level, "log-msd"
                                        if method == "approximate" else "percentile")
    return _tdi(moments, p, method, raters, n_missing, level, ci)


def _tdi_options(p: Any, method: Any, confidence_level: Any, ci: Any
                 ) -> tuple[float, str, float, str]:
    p = check_open_unit(p, "p")
    method = check_choice(method, "method", ("approximate", "exact"))
    level = check_confidence_level(confidence_level)
    ci = ("log-msd" if method == "approximate" else "percentile") if ci is None else ci
    ci = check_choice(ci, "ci", TDIResult.interval_methods)
    if ci == "log-msd" and method == "exact":
        raise ValueError("`ci='log-msd'` (Lin 2000's upper bound) applies to "
                         "method='approximate'; the exact TDI has bootstrap intervals.")
    return p, method, level, ci


def _tdi(moments: PairMoments, p: float, method: str, raters: tuple[str, str],
         n_missing: int, level: float, ci: str) -> TDIResult:
    mean, sd, msd = _difference_summary(moments)
    n = moments.n
    approx = float(tdi_approximate(np.array(msd), p))
    exact = float(tdi_exact(np.array(mean), np.array(sd), p))
    se_log = math.sqrt(msd_log_variance(mean, msd, n)) if msd > 0 else math.nan
    lines = [
        f"TDI_{p:g}: the bound on |{raters[0]} - {raters[1]}| containing {100 * p:g}% of the "
        "differences under normality; " + (
            "Lin's (2000) approximation z_(1-(1-p)/2) x sqrt(MSD), conservative when the "
            "mean difference is not 0" if method == "approximate" else
            "the exact folded-normal quantile (noncentral chi-square)") + ".",
        f"MSD = sum(d^2)/(n - 1) = {msd:.6g}; mean difference {mean:.6g}, SD {sd:.6g} "
        f"(n - 1); approximate TDI {approx:.6g}, exact {exact:.6g}.",
    ]
    if ci == "log-msd":
        lines.append(f"One-sided {100 * level:g}% upper bound (Lin 2000): log MSD normal with "
                     "variance 2/(n - 2) (1 - mean^4/MSD^2).")
    if n_missing:
        lines.append(f"{n_missing:,} pair(s) with a missing value left out.")
    estimate = approx if method == "approximate" else exact
    return TDIResult(
        coefficient=f"TDI ({100 * p:g}%)",
        symbol=f"TDI({100 * p:g}%)",
        estimate=estimate,
        se=math.nan,
        ci=(_tdi_bound(msd, se_log, p, level) if method == "approximate" else
            ConfidenceInterval(math.nan, math.nan, level, "percentile")),
        n_subjects=n,
        n_missing=n_missing,
        n_incomplete=n_missing,
        raters=tuple(raters),
        notes=tuple(lines),
        p=p,
        method=method,
        tdi_approximate=approx,
        tdi_exact=exact,
        msd=msd,
        mean_difference=mean,
        sd_difference=sd,
        se_log_msd=se_log,
    )


def cp(data: Measurements | LazyMeasurements, options: InferenceOptions, delta: float,
       first: int = 0, second: int = 1) -> CoverageResult:
    """The CP of raters `first` and `second` of measurements (replicates averaged), or
    from the moments and the count a lazy frame's engine sums (with the logit bound).
    See :func:`irr.coverage_probability`."""
    raters = (data.raters[first], data.raters[second])
    if isinstance(data, LazyMeasurements):
        if options.ci not in (None, "logit"):
            raise ValueError(data.rows_refused(
                f"The coverage probability with ci={options.ci!r} (a bootstrap interval)"))
        moments, _ = PairMoments.of_lazy(data, first, second)
        return coverage_of_moments(
            moments, delta, data.count_within(first, second, _check_delta(delta)),
            raters=raters, n_missing=data.n_rows - moments.n,
            confidence_level=options.confidence_level)
    data.check_magnitude("The coverage probability")
    x, y = data.paired(first, second)
    return coverage_probability(x, y, delta, options, raters=raters,
                                n_missing=data.n_subjects - x.size)


def coverage_probability(
    x: np.ndarray,
    y: np.ndarray,
    delta: float,
    options: InferenceOptions,
    *,
    raters: tuple[str, str] = ("x", "y"),
    n_missing: int = 0,
) -> CoverageResult:
    """The CP of complete pairs (see :func:`irr.coverage_probability`): :func:`_coverage`
    of their moments and observed share, with the subject bootstrap attached (`options.ci`
    None is the logit bound)."""
    delta = _check_delta(delta)
    ci = check_choice(options.ci or "logit", "ci", CoverageResult.interval_methods)
    within = int(np.count_nonzero(np.abs(x - y) < delta))
    result = _coverage(PairMoments.of_arrays(x, y, residuals=False), delta, within, raters,
                       n_missing, options.confidence_level, ci)
    recipe = partial(_draw_moments, _difference_moments, (x, y),
                     partial(_cp_of_sums, delta=delta), options)
    return _finish_result(result, recipe, ci)


def coverage_of_moments(
    moments: PairMoments,
    delta: float,
    within: int,
    *,
    raters: tuple[str, str] = ("x", "y"),
    n_missing: int = 0,
    confidence_level: float = 0.95,
) -> CoverageResult:
    """The CP from the moments of the pairs (:class:`irr._moments.PairMoments` of the
    differences ``x - y``) and the count of pairs whose absolute difference is below
    `delta` (`within`, for the observed share), with the logit lower bound; the bootstrap
    intervals need the pairs.

    Examples
    --------
    >>> import irr
    >>> from irr._moments import PairMoments
    >>> pef = irr.datasets.load("pef")
    >>> x, y = pef["wright_1"].to_numpy(float), pef["mini_1"].to_numpy(float)
    >>> res = coverage_of_moments(PairMoments.of_arrays(x, y), 50, int((abs(x - y) < 50).sum()))
    >>> round(res.estimate, 2), round(res.observed, 2)
    (0.8, 0.82)
    """
    delta = _check_delta(delta)
    level = check_confidence_level(confidence_level)
    return _coverage(moments, delta, int(within), raters, n_missing, level, "logit")


def _check_delta(delta: Any) -> float:
    if isinstance(delta, bool) or not isinstance(delta, (int, float, np.integer, np.floating)):
        raise TypeError(f"`delta` must be a positive real number; got {show_value(delta)}.")
    if not (math.isfinite(float(delta)) and float(delta) > 0):
        raise ValueError(f"`delta` must be positive and finite; got {show_value(delta)}.")
    return float(delta)


def _coverage(moments: PairMoments, delta: float, within: int, raters: tuple[str, str],
              n_missing: int, level: float, ci: str) -> CoverageResult:
    mean, sd, _ = _difference_summary(moments)
    n = moments.n
    observed = within / n
    cp = float(coverage_of_normal(np.array(mean), np.array(sd), delta))
    se_logit = cp_logit_variance(mean, sd, delta, n)
    se_logit = math.sqrt(se_logit) if np.isfinite(se_logit) else math.nan
    bound = _cp_bound(cp, se_logit, level)
    lines = [
        f"CP_{delta:g}: probability that |{raters[0]} - {raters[1]}| < {delta:g} under "
        f"normality of the differences (mean {mean:.6g}, SD {sd:.6g}, n - 1); observed "
        f"share {observed:.4g}.",
    ]
    if ci == "logit":
        lines.append(f"One-sided {100 * level:g}% lower bound: logit(CP) normal, delta-method "
                     "variance with divisor n - 2 (Lin et al. 2002).")
    if n_missing:
        lines.append(f"{n_missing:,} pair(s) with a missing value left out.")
    return CoverageResult(
        coefficient=f"CP (delta = {delta:g})",
        symbol="CP",
        estimate=cp,
        se=math.nan,
        ci=bound,
        n_subjects=n,
        n_missing=n_missing,
        n_incomplete=n_missing,
        raters=tuple(raters),
        notes=tuple(lines),
        delta=delta,
        mean_difference=mean,
        sd_difference=sd,
        se_logit=se_logit,
        observed=observed,
    )
