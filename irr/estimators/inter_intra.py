"""Inter- and intra-rater reliability of replicated measurements: every rater measures
every subject the same number of times (Eliasziw, Young, Woodbury & Fryday-Field, 1994).

The model is the two-way layout with replication, subjects random,

.. math:: y_{ijk} = \\mu + s_i + r_j + (sr)_{ij} + e_{ijk},

with ANOVA estimators of the variance components from the mean squares of subjects,
raters, subjects x raters and the replicates within each rater. Each reliability is a
ratio of linear combinations of independent mean squares; its test of
:math:`\\rho = \\rho_0` and its interval use the F approximation of Satterthwaite for
such ratios (:func:`ratio_f_test`).
"""

from __future__ import annotations

import math
import warnings
from dataclasses import dataclass
from typing import Any, ClassVar

import numpy as np
import pandas as pd

from irr._measurements import Measurements
from irr._numbers import format_df, format_interval, format_number, format_pvalue
from irr._validation import (
    DegenerateDataWarning,
    check_confidence_level,
    check_report_style,
    show_value,
)
from irr.estimators.variance_components import cell_statistics
from irr.results import FRAME_COLUMNS, ConfidenceInterval, Result
from irr.summary import results_summary
from irr.vocabulary import interval_name

__all__ = ["InterIntraPart", "InterIntraResult", "inter_intra_reliability", "ratio_f_test",
           "ratio_interval"]

ELIASZIW = (
    "Eliasziw, M., Young, S. L., Woodbury, M. G., & Fryday-Field, K. (1994). Statistical "
    "methodology for the concurrent assessment of interrater and intrarater reliability: "
    "using goniometric measurements as an example. Physical Therapy, 74(8), 777-788. "
    "https://doi.org/10.1093/ptj/74.8.777"
)


def _parts(coefficients: np.ndarray, ms: np.ndarray, df: np.ndarray
           ) -> tuple[float, float, float, float]:
    """The positive and the negative part of ``sum c_k MS_k`` and their Satterthwaite df."""
    terms = coefficients * ms
    out = []
    for sign in (1.0, -1.0):
        t = np.where(sign * coefficients > 0, sign * terms, 0.0)
        total = float(t.sum())
        squares = float((t * t / df).sum())
        out += [total, total * total / squares if squares > 0 else 1.0]
    return out[0], out[1], out[2], out[3]


def ratio_f_test(ms: Any, df: Any, numerator: Any, denominator: Any, rho0: float
                 ) -> tuple[float, float, float, float]:
    r"""The F test of :math:`\rho = \rho_0` against :math:`\rho > \rho_0` for a ratio
    :math:`\rho = a^\top M / b^\top M` of linear combinations of independent mean squares.

    With :math:`c = a - \rho_0 b`, :math:`\rho > \rho_0` exactly when
    :math:`c^\top E(M) > 0`; the statistic is the positive part of :math:`c^\top M` over
    its negative part, each referred to a scaled chi-square with Satterthwaite's degrees
    of freedom :math:`(\sum c_k M_k)^2 / \sum (c_k M_k)^2 / \nu_k` (exact when a part is
    one mean square).

    Returns
    -------
    (F, df1, df2, pvalue)

    Examples
    --------
    One mean square on each side is the exact one-way test:
    (MS_b / MS_w) (1 - rho0) / (1 + (m - 1) rho0) with m = 2 replicates:

    >>> f, df1, df2, p = ratio_f_test([10.0, 1.0], [9, 10], [1, -1], [1, 1], 0.5)
    >>> round(f, 4), df1, df2
    (3.3333, 9.0, 10.0)
    """
    from scipy.stats import f as f_dist

    ms, df = np.asarray(ms, float), np.asarray(df, float)
    c = np.asarray(numerator, float) - rho0 * np.asarray(denominator, float)
    up, df1, down, df2 = _parts(c, ms, df)
    if down <= 0:
        return math.inf, df1, df2, 0.0
    statistic = up / down
    return statistic, df1, df2, float(f_dist.sf(statistic, df1, df2))


def ratio_interval(ms: Any, df: Any, numerator: Any, denominator: Any, level: float,
                   bounds: tuple[float, float] = (-1.0, 1.0)) -> tuple[float, float]:
    """The two-sided interval that inverts :func:`ratio_f_test`: the values of rho0 not
    rejected by either one-sided test at level ``(1 - level) / 2`` (clipped to `bounds`).

    Examples
    --------
    >>> low, high = ratio_interval([10.0, 1.0], [9, 10], [1, -1], [1, 1], 0.95)
    >>> round(low, 4), round(high, 4)
    (0.4515, 0.9508)
    """
    from scipy.optimize import brentq

    tail = (1 - level) / 2

    def p_upper(rho: float) -> float:  # P(F >= observed) under rho: rises with rho
        return ratio_f_test(ms, df, numerator, denominator, rho)[3]

    def ends(target: float) -> float:
        lo, hi = bounds[0] + 1e-12, bounds[1] - 1e-12
        g_lo, g_hi = p_upper(lo) - target, p_upper(hi) - target
        if g_lo >= 0:
            return bounds[0]
        if g_hi <= 0:
            return bounds[1]
        return float(brentq(lambda r: p_upper(r) - target, lo, hi, xtol=1e-12))

    return ends(tail), ends(1 - tail)


@dataclass(frozen=True, eq=False, kw_only=True, repr=False)
class InterIntraPart(Result):
    """One reliability of :class:`InterIntraResult`: its estimate, the F test of
    ``rho = rho0`` against ``rho > rho0`` (``statistic`` on ``df1`` and ``df2`` degrees of
    freedom, ``alternative='greater'``), the interval that inverts it (method
    ``'satterthwaite'``) and the standard error of measurement ``sem`` of the scale it
    refers to."""

    rho0: float
    df1: float
    df2: float
    sem: float
    mean_squares: tuple[float, ...] = ()
    dfs: tuple[float, ...] = ()
    numerator: tuple[float, ...] = ()
    denominator: tuple[float, ...] = ()
    scale: str | None = None
    statistic_name: str = "F"

    interval_methods: ClassVar[tuple[str, ...]] = ("satterthwaite",)

    def _interval(self, level: float, method: str) -> ConfidenceInterval:
        low, high = ratio_interval(self.mean_squares, self.dfs, self.numerator,
                                   self.denominator, level, self.bounds)
        return ConfidenceInterval(low, high, level, "satterthwaite")

    def _extras(self) -> dict[str, Any]:
        return {"rho0": self.rho0, "df1": self.df1, "df2": self.df2, "sem": self.sem}


@dataclass(frozen=True, eq=False, kw_only=True, repr=False)
class InterIntraResult(Result):
    """Inter- and intra-rater reliability from one study in which every rater measured
    every subject ``n_replicates`` times (Eliasziw et al., 1994).

    ``estimate``, ``statistic``, ``pvalue`` and ``ci`` are the inter-rater reliability's
    with random raters; :meth:`parts` (and :meth:`to_frame`, :meth:`summary`) hold
    every reliability as an :class:`InterIntraPart`: inter-rater (raters random, raters
    fixed), intra-rater (raters random, raters fixed) and each rater's intra-rater
    reliability (fixed and random), each with its F test of ``rho0`` and its interval,
    and ``result[name]`` picks one. ``sigma2_subjects``, ``sigma2_raters``,
    ``sigma2_interaction``, ``sigma2_error`` are the ANOVA variance components,
    ``sigma2_error_by_rater`` each rater's replicate variance, ``anova`` the ANOVA table.

    Examples
    --------
    >>> import irr
    >>> long = irr.datasets.load("pef", form="long")  # subject, rater, replicate, rating
    >>> ag = irr.Agreement.from_long(long, subject="subject", rater="rater", rating="rating",
    ...                              replicate="replicate", continuous=True)
    >>> res = ag.inter_intra_reliability()
    >>> [p.coefficient for p in res.parts()][:4]  # doctest: +NORMALIZE_WHITESPACE
    ['Inter-rater reliability (raters random)', 'Inter-rater reliability (raters fixed)',
     'Intra-rater reliability (raters random)', 'Intra-rater reliability (raters fixed)']
    >>> round(res["Intra-rater reliability (mini)"].estimate, 3)
    0.97
    """

    rows: tuple[InterIntraPart, ...]
    n_replicates: int
    rho0_inter: float
    rho0_intra: float
    sigma2_subjects: float
    sigma2_raters: float
    sigma2_interaction: float
    sigma2_error: float
    sigma2_error_by_rater: tuple[float, ...]
    anova: pd.DataFrame
    scale: str | None = None
    statistic_name: str = "F"

    interval_methods: ClassVar[tuple[str, ...]] = ("satterthwaite",)
    own_sentence: ClassVar[bool] = True

    def __getitem__(self, name: str) -> InterIntraPart:
        for row in self.rows:
            if row.coefficient == name:
                return row
        raise KeyError(f"{name!r} is not a row; rows: {[r.coefficient for r in self.rows]!r}.")

    def parts(self) -> list[Result]:
        """Every reliability, the headline (inter-rater, raters random) first."""
        return list(self.rows)

    def _interval(self, level: float, method: str) -> ConfidenceInterval:
        return self.rows[0].conf_int(level, method)

    def to_frame(self) -> pd.DataFrame:
        """One row per reliability, with :data:`irr.results.FRAME_COLUMNS` and the null
        value ``rho0``, the F test's ``df1``, ``df2`` and the ``sem``.

        Examples
        --------
        >>> import irr
        >>> long = irr.datasets.load("pef", form="long")  # subject, rater, replicate, rating
        >>> res = irr.Agreement.from_long(long, subject="subject", rater="rater",
        ...     rating="rating", replicate="replicate", continuous=True).inter_intra_reliability()
        >>> res.to_frame()["estimate"].round(3).tolist()[:4]
        [0.948, 0.946, 0.976, 0.976]
        """
        frame = pd.concat([r.to_frame() for r in self.rows])[list(FRAME_COLUMNS)]
        for column in ("rho0", "df1", "df2", "sem"):
            frame[column] = [getattr(r, column) for r in self.rows]
        return frame

    def _extras(self) -> dict[str, Any]:
        return {"n_replicates": self.n_replicates, "rho0_inter": self.rho0_inter,
                "rho0_intra": self.rho0_intra, "sigma2_subjects": self.sigma2_subjects,
                "sigma2_raters": self.sigma2_raters,
                "sigma2_interaction": self.sigma2_interaction,
                "sigma2_error": self.sigma2_error,
                "by_row": {r.coefficient: r.estimate for r in self.rows}}

    def summary(self) -> Any:
        """A statsmodels ``Summary``: one row per reliability, F tests of ``rho0``.

        Examples
        --------
        >>> import irr
        >>> long = irr.datasets.load("pef", form="long")  # subject, rater, replicate, rating
        >>> res = irr.Agreement.from_long(long, subject="subject", rater="rater",
        ...     rating="rating", replicate="replicate", continuous=True).inter_intra_reliability()
        >>> print(res.summary().as_text().splitlines()[0].strip())
        Inter- and intra-rater reliability of wright and mini
        """
        info = [("Replicates:", f"{self.n_replicates} per subject and rater"),
                ("H0 inter / intra:", f"ρ = {self.rho0_inter:g} / {self.rho0_intra:g}")]
        # two raters by name; more by number (their names are in the header's Raters)
        who = (" and ".join(self.raters) if len(self.raters) == 2
               else f"{len(self.raters)} raters")
        return results_summary(self.rows, title=f"Inter- and intra-rater reliability of {who}",
                               info=info, notes=self.notes,
                               merge_coincident=False)

    def report(self, style: str = "apa", *, digits: int = 2, **options: Any) -> str:
        """One sentence: the inter-rater reliability (raters random) and the intra-rater
        reliability (raters fixed) with their intervals and tests.

        Parameters
        ----------
        style, digits, **options
            As for :meth:`irr.Result.report`; `digits` (default 2) for both reliabilities.

        Examples
        --------
        >>> import irr
        >>> long = irr.datasets.load("pef", form="long")  # subject, rater, replicate, rating
        >>> res = irr.Agreement.from_long(long, subject="subject", rater="rater",
        ...     rating="rating", replicate="replicate", continuous=True).inter_intra_reliability()
        >>> print(res.report())  # doctest: +NORMALIZE_WHITESPACE
        With 2 raters (wright, mini) each measuring 17 subjects 2 times, the inter-rater
        reliability (raters random) was .95, 95% CI [.88, .98] (approximate F, Satterthwaite
        df), F(16, 24.18) = 9.73, p < .001 against ρ = .60, and the intra-rater reliability
        (raters fixed) was .98, 95% CI [.95, .99] (approximate F, Satterthwaite df),
        F(16.69, 34) = 9.23, p < .001 against ρ = .80 (Eliasziw et al., 1994).
        """
        apa = check_report_style(style, options)

        def number(x: float) -> str:
            return format_number(x, digits, leading_zero=not apa)

        def piece(r: InterIntraPart) -> str:
            if not math.isfinite(r.estimate):
                return "undefined (the variance of a measurement is not positive)"
            if math.isfinite(r.ci.low) and math.isfinite(r.ci.high):
                ci = format_interval(r.ci.low, r.ci.high, r.ci.confidence_level,
                                     interval_name(r.ci.method), ends=number, apa=apa)
            else:
                ci = f"{100 * r.ci.confidence_level:g}% CI undefined"
            test = (f"F({format_df(r.df1)}, {format_df(r.df2)}) = {r.statistic:.2f}, "
                    f"{format_pvalue(r.pvalue, apa=apa)}")
            rho = "ρ" if apa else "rho"
            return f"{number(r.estimate)}, {ci}, {test} against {rho} = {number(r.rho0)}"

        inter, intra = self.rows[0], self.rows[3]
        n_raters = len(self.raters)
        # subjects left out (listwise) are said, as the other sentences' "n = 54 (6 left out)"
        left = self.n_missing
        dropped = (f" ({left:,} {'subject' if left == 1 else 'subjects'} left out for a "
                   "missing measurement)" if left else "")
        return (f"With {n_raters} raters ({', '.join(self.raters)}) each measuring "
                f"{self.n_subjects:,} subjects {self.n_replicates} times{dropped}, the "
                f"inter-rater reliability (raters random) was {piece(inter)}, and the intra-rater "
                f"reliability (raters fixed) was {piece(intra)} (Eliasziw et al., 1994).")


def _check_rho0(value: Any, name: str) -> float:
    if isinstance(value, bool) or not isinstance(value, int | float | np.integer | np.floating):
        raise TypeError(f"`{name}` must be a number in (-1, 1); got {show_value(value)}.")
    value = float(value)
    if not -1.0 < value < 1.0:
        raise ValueError(f"`{name}` must be in (-1, 1); got {show_value(value)}.")
    return value


def _balanced_cells(m: Measurements) -> tuple[np.ndarray, np.ndarray, np.ndarray, int, int]:
    """Cell means (n, t) and within-cell sums of squares (n, t) of the subjects with the
    same number of replicates in every cell; their mask over all subjects; replicates; and
    how many subjects were left out."""
    counts, sums, squares, _, _ = cell_statistics(m)
    if m.n_raters < 2:
        raise ValueError("Inter- and intra-rater reliability needs two or more raters; got "
                         f"{m.n_raters}.")
    replicates = int(counts.max()) if counts.size else 0
    if replicates < 2:
        raise ValueError("Inter- and intra-rater reliability needs replicates: every rater "
                         "measures every subject two or more times (give `replicate=` to "
                         "Agreement.from_long); no cell holds more than one measurement.")
    keep = np.all(counts == replicates, axis=1)
    n = int(keep.sum())
    if n < 2:
        raise ValueError(
            f"Inter- and intra-rater reliability needs a balanced design: two or more "
            f"subjects measured {replicates} times by each of the {m.n_raters} raters; "
            f"{n} subject(s) are.")
    counts, sums, squares = counts[keep], sums[keep], squares[keep]
    means = sums / counts
    within = np.maximum(squares - sums * means, 0.0)
    return means, within, keep, replicates, int((~keep).sum())


def _vectors(n: int, t: int, m: int) -> dict[str, np.ndarray]:
    """Coefficients (times t m) of the variance components on the mean squares
    ``[subjects, raters, subjects x raters, error of rater 1 .. t]``."""
    size = 3 + t
    s, r, sr = np.eye(size)[0], np.eye(size)[1], np.eye(size)[2]
    errors = np.eye(size)[3:]
    e = errors.mean(axis=0)
    return {"subjects": s - sr, "raters": t * (r - sr) / n, "interaction": t * (sr - e),
            "error": t * m * e, **{f"error{j}": t * m * errors[j] for j in range(t)}}


def inter_intra_reliability(
    measurements: Measurements,
    *,
    rho0_inter: float = 0.6,
    rho0_intra: float = 0.8,
    confidence_level: float = 0.95,
) -> InterIntraResult:
    r"""Inter- and intra-rater reliability when each rater measures each subject several
    times, with F tests of null values and confidence intervals (Eliasziw et al., 1994).

    Parameters
    ----------
    measurements : Measurements
        Long-form measurements with replicates: every rater measures every subject the
        same number ``m >= 2`` of times. Subjects with fewer (or more) measurements in
        some cell are left out (listwise), with a note.
    rho0_inter, rho0_intra : float, default 0.6 and 0.8
        The null values of the inter- and the intra-rater reliabilities (R irr's
        ``rho0inter``, ``rho0intra`` defaults).
    confidence_level : float, default 0.95
        Of the two-sided intervals.

    Returns
    -------
    InterIntraResult

    Raises
    ------
    ValueError
        Fewer than two raters, no replicates, fewer than two subjects with a complete
        balanced set of measurements, null values outside (-1, 1).

    Notes
    -----
    Model :math:`y_{ijk} = \mu + s_i + r_j + (sr)_{ij} + e_{ijk}` (subject i of n, rater j
    of t, replicate k of m), subjects random. With the mean squares of subjects
    :math:`M_S`, raters :math:`M_R`, subjects x raters :math:`M_{SR}` and replicates
    within rater j :math:`M_{E_j}` (:math:`M_E` their mean), the ANOVA estimators are
    :math:`\hat\sigma^2_s = (M_S - M_{SR}) / tm`,
    :math:`\hat\sigma^2_r = (M_R - M_{SR}) / nm`,
    :math:`\hat\sigma^2_{sr} = (M_{SR} - M_E) / m`, :math:`\hat\sigma^2_e = M_E`,
    :math:`\hat\sigma^2_{e_j} = M_{E_j}` (not truncated at 0), and

    - inter-rater reliability, the correlation of two raters' measurements of a subject:
      :math:`\sigma^2_s / (\sigma^2_s + \sigma^2_r + \sigma^2_{sr} + \sigma^2_e)` with
      raters random, without :math:`\sigma^2_r` with raters fixed;
    - intra-rater reliability, the correlation of one rater's two measurements of a
      subject: :math:`(\sigma^2_s + \sigma^2_{sr}) / (\sigma^2_s + \sigma^2_{sr} +
      \sigma^2_e)` with raters fixed, and with :math:`\sigma^2_r` added to numerator and
      denominator with raters random (the correlation over subjects and raters);
    - rater j's intra-rater reliability: the same with :math:`\sigma^2_{e_j}` in place
      of :math:`\sigma^2_e`;
    - the standard error of measurement of each: the square root of its error variance
      (:math:`\sigma^2_r + \sigma^2_{sr} + \sigma^2_e`, :math:`\sigma^2_{sr} +
      \sigma^2_e`, :math:`\sigma^2_e`, :math:`\sigma^2_{e_j}`).

    These are the estimates and standard errors of measurement of R irr's
    ``relInterIntra`` (checked to its 4 printed decimals on the goniometer data of
    Eliasziw et al.'s Table 4). Each reliability is a ratio
    :math:`a^\top M / b^\top M` of the independent mean squares
    :math:`M = (M_S, M_R, M_{SR}, M_{E_1}, \dots, M_{E_t})`; the F test of
    :math:`\rho = \rho_0` against :math:`\rho > \rho_0` and the interval that inverts
    it use Satterthwaite's approximation for the positive and negative parts of
    :math:`(a - \rho_0 b)^\top M` (:func:`ratio_f_test`). Where only one mean square is
    on a side (the raters-fixed inter-rater test: :math:`M_S` over a combination of
    :math:`M_{SR}` and :math:`M_E`) that side is exact. The published paper's own F
    statistics could not be consulted: R irr's printed F values for the inter-rater
    test (:math:`M_S / \{M_{SR}(1 + t\rho_0 / (1 - \rho_0))\}`, which leaves
    :math:`\sigma^2_e` out) and its one-sided intra-rater bounds differ from these.

    References
    ----------
    Eliasziw, M., Young, S. L., Woodbury, M. G., & Fryday-Field, K. (1994). Physical
    Therapy, 74(8), 777-788. https://doi.org/10.1093/ptj/74.8.777

    Examples
    --------
    >>> import numpy as np
    >>> from irr._measurements import Measurements
    >>> rng = np.random.default_rng(1)
    >>> subject = np.repeat(np.arange(30), 6)
    >>> rater = np.tile(np.repeat([0, 1], 3), 30)
    >>> value = rng.normal(size=30)[subject] * 3 + rng.normal(size=180)
    >>> res = inter_intra_reliability(Measurements.from_long(subject, rater, value))
    >>> round(res.estimate, 3), round(res["Intra-rater reliability (raters fixed)"].estimate, 3)
    (0.86, 0.86)
    """
    rho0_inter = _check_rho0(rho0_inter, "rho0_inter")
    rho0_intra = _check_rho0(rho0_intra, "rho0_intra")
    level = check_confidence_level(confidence_level)
    means, within, _, m, dropped = _balanced_cells(measurements)
    n, t = means.shape
    subject_mean = means.mean(axis=1)
    rater_mean = means.mean(axis=0)
    grand = float(means.mean())
    ms = np.array([
        t * m * float(((subject_mean - grand) ** 2).sum()) / (n - 1),
        n * m * float(((rater_mean - grand) ** 2).sum()) / (t - 1),
        m * float(((means - subject_mean[:, None] - rater_mean[None, :] + grand) ** 2).sum())
        / ((n - 1) * (t - 1)),
        *(within.sum(axis=0) / (n * (m - 1))),
    ])
    dfs = np.array([n - 1, t - 1, (n - 1) * (t - 1), *([n * (m - 1)] * t)], dtype=float)
    v = _vectors(n, t, m)
    scale_ = 1.0 / (t * m)
    sigma2 = {name: float(vec @ ms) * scale_ for name, vec in v.items()}
    raters = measurements.raters
    names = [str(r) for r in raters]

    pooled_ms = np.array([*ms[:3], float(ms[3:].mean())])
    pooled_dfs = np.array([*dfs[:3], float(dfs[3:].sum())])

    def row(name: str, numerator: np.ndarray, error: np.ndarray, rho0: float
            ) -> InterIntraPart:
        denominator = numerator + error
        total = float(denominator @ ms)
        if not total > 0:  # no variation at all, or a combination of mean squares <= 0
            undefined.append(name)
            return InterIntraPart(
                coefficient=name, symbol="ρ", estimate=math.nan, se=math.nan,
                statistic=math.nan, pvalue=math.nan, alternative="greater",
                ci=ConfidenceInterval(math.nan, math.nan, level, "satterthwaite"),
                n_subjects=n, n_missing=dropped, raters=tuple(names), rho0=rho0,
                df1=math.nan, df2=math.nan,
                sem=math.sqrt(max(float(error @ ms) * scale_, 0.0)))
        estimate = float(numerator @ ms) / total
        mean_squares, df_ = ms, dfs
        if np.ptp(numerator[3:]) == 0 and np.ptp(denominator[3:]) == 0:
            # the raters' replicate mean squares enter only through their pooled mean
            # M_E, a scaled chi-square on n t (m - 1) df under the model
            mean_squares, df_ = pooled_ms, pooled_dfs
            numerator = np.array([*numerator[:3], numerator[3:].sum()])
            denominator = np.array([*denominator[:3], denominator[3:].sum()])
        statistic, df1, df2, p = ratio_f_test(mean_squares, df_, numerator, denominator, rho0)
        low, high = ratio_interval(mean_squares, df_, numerator, denominator, level)
        return InterIntraPart(
            coefficient=name, symbol="ρ", estimate=estimate, se=math.nan,
            statistic=statistic, pvalue=p, alternative="greater",
            ci=ConfidenceInterval(low, high, level, "satterthwaite"), n_subjects=n,
            n_missing=dropped, raters=tuple(names), rho0=rho0, df1=df1, df2=df2,
            sem=math.sqrt(max(float(error @ ms) * scale_, 0.0)),
            mean_squares=tuple(mean_squares.tolist()), dfs=tuple(df_.tolist()),
            numerator=tuple(numerator.tolist()), denominator=tuple(denominator.tolist()))

    undefined: list[str] = []
    s, r, sr, e = v["subjects"], v["raters"], v["interaction"], v["error"]
    rows = [
        row("Inter-rater reliability (raters random)", s, r + sr + e, rho0_inter),
        row("Inter-rater reliability (raters fixed)", s, sr + e, rho0_inter),
        row("Intra-rater reliability (raters random)", s + r + sr, e, rho0_intra),
        row("Intra-rater reliability (raters fixed)", s + sr, e, rho0_intra),
    ]
    for j, label in enumerate(names):
        rows.append(row(f"Intra-rater reliability ({label})", s + sr, v[f"error{j}"],
                        rho0_intra))
    for j, label in enumerate(names):
        rows.append(row(f"Intra-rater reliability ({label}, raters random)", s + r + sr,
                        v[f"error{j}"], rho0_intra))
    notes = [
        f"ANOVA of {n} subjects x {t} raters x {m} replicates; every reliability with its "
        "one-sided F test of rho = rho0 (H1: rho > rho0, Satterthwaite df) and the "
        "two-sided interval that inverts it (Eliasziw et al., 1994).",
        f"Standard errors of measurement: {sigma2_text(rows)}.",
    ]
    if undefined:
        why = ("no variation in the measurements" if not np.any(ms > 0) else
               "the ANOVA estimates of its components sum to 0 or less")
        warnings.warn(
            f"{len(undefined)} reliabilit{'y is' if len(undefined) == 1 else 'ies are'} "
            f"undefined (nan): the estimated variance of a measurement is not positive "
            f"({why}): {', '.join(undefined)}.", DegenerateDataWarning, stacklevel=3)
    negative = [f"{name} {value:.4g}" for name, value in sigma2.items()
                if name in ("subjects", "raters", "interaction") and value < 0]
    if negative:
        notes.append("ANOVA estimates of variance components are not truncated at 0; "
                     f"here below 0: {', '.join(negative)}.")
    if dropped:
        notes.append(f"{dropped} subject(s) without {m} measurements by every rater were "
                     "left out (listwise).")
    anova = pd.DataFrame(
        {"df": [*dfs[:3].tolist(), float(n * t * (m - 1))],
         "mean_square": [*ms[:3].tolist(), float(ms[3:].mean())]},
        index=pd.Index(["subjects", "raters", "subjects x raters", "error"], name="source"))
    head = rows[0]
    return InterIntraResult(
        coefficient="Inter- and intra-rater reliability", symbol="ρ",
        estimate=head.estimate, se=math.nan, statistic=head.statistic, pvalue=head.pvalue,
        alternative="greater", ci=head.ci, n_subjects=n, n_missing=dropped,
        raters=tuple(names), notes=tuple(notes), bounds=(-1.0, 1.0), rows=tuple(rows),
        n_replicates=m, rho0_inter=rho0_inter, rho0_intra=rho0_intra,
        sigma2_subjects=sigma2["subjects"], sigma2_raters=sigma2["raters"],
        sigma2_interaction=sigma2["interaction"], sigma2_error=sigma2["error"],
        sigma2_error_by_rater=tuple(sigma2[f"error{j}"] for j in range(t)), anova=anova)


def sigma2_text(rows: list[InterIntraPart]) -> str:
    """The SEMs of the first four rows, for the summary's note."""
    labels = ("inter-rater, raters random", "inter-rater, raters fixed", "", "intra-rater")
    # one precision for the three, from the largest (3.07 and 2.931 read as unequally sure)
    sems = [r.sem for label, r in zip(labels, rows, strict=False) if label]
    largest = max((abs(v) for v in sems if math.isfinite(v)), default=0.0)
    places = max(0, 3 - math.floor(math.log10(largest))) if largest > 0 else 3
    return "; ".join(f"{label} {r.sem:.{places}f}" for label, r in zip(labels, rows, strict=False)
                     if label)
