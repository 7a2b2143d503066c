"""The result protocol shared by every statistic in the package.

A result is a frozen dataclass holding the numbers (never rounded), with methods to ask
for another interval, an interpretation, a statsmodels summary, or tidy pandas output.
"""

from __future__ import annotations

import math
import statistics
import warnings
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass, field, replace
from typing import TYPE_CHECKING, Any, ClassVar

import numpy as np

from irr._lazy import lazy_module
from irr._numbers import format_df, format_interval
from irr._validation import DegenerateDataWarning, check_choice, check_confidence_level
from irr.bands import Band, benchmark, benchmark_band, get_scale, interpret, normal_cdf
from irr.inference.options import ASYMPTOTIC_METHODS, BOOTSTRAP_METHODS
from irr.summary import results_summary
from irr.vocabulary import interval_name
from irr.weights import agreement_weights

#: APA sentences (Result.report): imported on the first sentence (irr._lazy)
pd = lazy_module("pandas")  # imported on first use: data streamed by DuckDB never need it
sentences = lazy_module("irr._sentences")
#: the bootstrap: imported when a result first draws or pickles one (a Wald interval never)
bootstrap_module = lazy_module("irr.inference.bootstrap")

if TYPE_CHECKING:
    from statsmodels.iolib.summary import Summary

__all__ = ["FRAME_COLUMNS", "ConfidenceInterval", "KappaResult", "ProportionResult", "Result",
           "labelled", "wald_pvalue", "wald_statistic", "warn_undefined", "weight_matrix_of"]

#: The columns of every result's ``to_frame()``, so results of any kind concatenate.
FRAME_COLUMNS = (
    "estimate",
    "se",
    "statistic",
    "pvalue",
    "ci_low",
    "ci_high",
    "confidence_level",
    "ci_method",
    "n_resamples",
    "seed",
    "n_subjects",
    "n_missing",
    "n_incomplete",
)

#: The standard normal law, for critical values.
_STANDARD_NORMAL = statistics.NormalDist()

#: Interval methods named after people or initials, as prose writes them.

@dataclass(frozen=True, eq=False)
class ConfidenceInterval(Sequence):
    """A confidence interval: a sequence of its two limits, ``(low, high)``.

    It unpacks, indexes, slices, has length 2 and equals the tuple of its limits (and hashes
    as it); two intervals are equal when their limits, level, method and note are.

    Examples
    --------
    >>> ci = ConfidenceInterval(0.2, 0.5, 0.95, "wald")
    >>> low, high = ci
    >>> ci[0], ci[1], len(ci), ci == (0.2, 0.5)
    (0.2, 0.5, 2, True)
    >>> print(ci)
    95% CI [0.2000, 0.5000] (Wald)
    """

    low: float
    high: float
    confidence_level: float
    method: str
    note: str = ""

    def __iter__(self) -> Iterator[float]:
        return iter((self.low, self.high))

    def __len__(self) -> int:
        return 2

    def __getitem__(self, index: Any) -> Any:
        return (self.low, self.high)[index]

    def __eq__(self, other: object) -> bool:
        if isinstance(other, ConfidenceInterval):
            return (self.low, self.high, self.confidence_level, self.method, self.note) == (
                other.low, other.high, other.confidence_level, other.method, other.note)
        if isinstance(other, tuple):
            return (self.low, self.high) == other
        return NotImplemented

    def __hash__(self) -> int:
        return hash((self.low, self.high))

    @property
    def method_name(self) -> str:
        """The method as prose names it: ``"Wald"``, ``"BCa bootstrap"``,
        ``"percentile bootstrap"``, ...

        >>> ConfidenceInterval(0.2, 0.5, 0.95, "bca").method_name
        'BCa bootstrap'
        """
        return interval_name(self.method)

    def __str__(self) -> str:
        return format_interval(self.low, self.high, self.confidence_level, self.method_name,
                               ends=lambda x: f"{x:.4f}")


def _within(value: float, scale: Any) -> bool:
    """Whether `value` lies in `scale`'s range (with the scale's boundary tolerance)."""
    snapped = float(scale.snap(np.array(float(value)))[()])
    return bool(scale.lower <= snapped <= scale.upper)


def normal_quantile(confidence_level: float) -> float:
    """The two-sided standard-normal critical value of `confidence_level` (Wichura's
    AS 241 through :class:`statistics.NormalDist`, accurate to about 1e-16 relative, the
    accuracy of scipy's ``ndtri``; no scipy import on the paths every result takes)."""
    return _STANDARD_NORMAL.inv_cdf(0.5 + confidence_level / 2)


def wald_interval(
    estimate: float,
    se: float,
    confidence_level: float,
    bounds: tuple[float, float] = (-math.inf, math.inf),
    df: float = math.inf,
    clip: bool = True,
    zero_se_reason: str | None = None,
) -> ConfidenceInterval:
    """Normal-theory interval ``estimate +- z * se``, clipped to the coefficient's `bounds`
    (not with ``clip=False``, kappaetc's ``nociclipped``: the note then says when a limit
    lies outside them); with finite `df` (a design's degrees of freedom) ``t`` quantiles on
    `df` replace ``z``.

    Examples
    --------
    >>> print(wald_interval(0.9, 0.1, 0.95, (-1.0, 1.0)).high)
    1.0
    >>> ci = wald_interval(0.9, 0.1, 0.95, (-1.0, 1.0), clip=False)
    >>> round(ci.high, 4), ci.note
    (1.096, 'not clipped to [-1, 1] (`ci_clip=False`)')
    """
    if not (np.isfinite(estimate) and np.isfinite(se)):
        return ConfidenceInterval(math.nan, math.nan, confidence_level, "wald")
    if se <= 0:
        why = zero_se_reason or (
            f"the data leave the estimate {estimate:.4g} no room to move: perfect agreement, "
            "a single category, no discordant pairs ...")
        note = (f"undefined: the standard error is 0 ({why}), so a Wald interval would have "
                "zero width")
        return ConfidenceInterval(math.nan, math.nan, confidence_level, "wald", note)
    if math.isfinite(df):
        from scipy.special import stdtrit

        half = float(stdtrit(df, 0.5 + confidence_level / 2)) * se
    else:
        half = normal_quantile(confidence_level) * se
    low, high = estimate - half, estimate + half
    clipped_low, clipped_high = max(low, bounds[0]), min(high, bounds[1])
    notes = [f"t quantiles on {format_df(df)} df"] if math.isfinite(df) else []
    if (clipped_low, clipped_high) != (low, high):
        if clip:
            notes.append(f"clipped {_range_words(bounds)}")
        else:
            notes.append(f"not clipped {_range_words(bounds)} (`ci_clip=False`)")
            clipped_low, clipped_high = low, high
    note = "; ".join(notes)
    return ConfidenceInterval(clipped_low, clipped_high, confidence_level, "wald", note)




def _range_words(bounds: tuple[float, float]) -> str:
    """Where a Wald interval is clipped: ``to [-1, 1]``, or ``at 1`` for a coefficient
    with no lower bound (Krippendorff's alpha), ``at 0`` for one with no upper bound.

    Examples
    --------
    >>> _range_words((-1.0, 1.0)), _range_words((-math.inf, 1.0))
    ('to [-1, 1]', 'at 1')
    """
    low, high = bounds
    if math.isinf(low):
        return f"at {high:g}"
    if math.isinf(high):
        return f"at {low:g}"
    return f"to [{low:g}, {high:g}]"


def labelled(interval: ConfidenceInterval, label: str) -> ConfidenceInterval:
    """`interval` with `label` (which SE it is built on) first in its note; an undefined
    interval keeps its note.

    Examples
    --------
    >>> labelled(wald_interval(0.5, 0.1, 0.95), "on the SE over raters (jackknife)").note
    'on the SE over raters (jackknife)'
    """
    if not label or interval.note.startswith("undefined"):
        return interval
    return replace(interval, note="; ".join(filter(None, [label, interval.note])))


def warn_undefined(interval: ConfidenceInterval, coefficient: str, stacklevel: int = 3) -> None:
    """Warn that `interval` is undefined, and why, when its note says so (an undefined
    estimate warns for itself)."""
    if interval.note.startswith("undefined"):
        warnings.warn(f"{interval.method_name} interval {interval.note} ({coefficient}).",
                      DegenerateDataWarning, stacklevel=stacklevel)


def wald_pvalue(statistic: float, alternative: str, df: float = math.inf) -> float:
    """P-value of a Wald statistic: standard normal, or Student's t on a finite `df`.

    Examples
    --------
    >>> round(wald_pvalue(2.0, "two-sided"), 4), round(wald_pvalue(2.0, "two-sided", 11), 4)
    (0.0455, 0.0708)
    """
    if math.isinf(df) or not np.isfinite(statistic):  # an infinite t: p as the normal's
        return normal_pvalue(statistic, alternative)
    from scipy.special import stdtr

    statistic = float(statistic)
    if alternative == "greater":
        return float(stdtr(df, -statistic))
    if alternative == "less":
        return float(stdtr(df, statistic))
    return float(min(1.0, 2 * stdtr(df, -abs(statistic))))


def wald_statistic(estimate: float, null: float, se: float, coefficient: str,
                   law: str = "z") -> float:
    """``(estimate - null) / se``; for a t test (irrCAC's, `law` ``'t'``) at ``se = 0``
    with the estimate away from `null`, +-inf with a DegenerateDataWarning (its p-value is
    then 0, as irrCAC reports it); nan when the estimate is the null value or undefined,
    and for a z test at ``se = 0`` (the interval's warning says the SE is 0).

    >>> wald_statistic(0.5, 0.0, 0.25, "kappa")
    2.0
    """
    if se > 0:
        return (estimate - null) / se
    if se == 0 and law == "t" and math.isfinite(estimate) and estimate != null:
        warnings.warn(
            f"The standard error is 0, so the {law} statistic is infinite and its p-value 0 "
            f"(as irrCAC reports it): the data leave the estimate {estimate:.4g} no room to "
            f"move, and it differs from the null value {null:g} ({coefficient}).",
            DegenerateDataWarning, stacklevel=4)
        return math.copysign(math.inf, estimate - null)
    return math.nan


def normal_pvalue(statistic: float, alternative: str) -> float:
    """P-value of a standard-normal test statistic (each tail computed directly); an
    infinite statistic (a zero standard error) has p 0 in its direction, 1 against it."""
    if math.isinf(statistic):
        toward = statistic > 0 if alternative == "greater" else statistic < 0
        return 0.0 if alternative == "two-sided" or toward else 1.0
    if not np.isfinite(statistic):
        return math.nan
    statistic = float(statistic)
    if alternative == "greater":
        return normal_cdf(-statistic)
    if alternative == "less":
        return normal_cdf(statistic)
    return min(1.0, 2 * normal_cdf(-abs(statistic)))


@dataclass(frozen=True, eq=False, kw_only=True, repr=False)
class Result:
    """One estimated coefficient with its inference.

    Attributes
    ----------
    coefficient : str
        Display name, e.g. ``"Cohen's kappa"``.
    symbol : str
        The symbol papers use, e.g. ``"κ"``.
    estimate, se : float
        The point estimate and its standard error (for intervals).
    statistic, pvalue : float
        The test of "no agreement beyond chance" (or of :attr:`null_value`) and its p-value
        (nan where no test applies).
    alternative : str
        ``'two-sided'``, ``'greater'`` or ``'less'``.
    ci : ConfidenceInterval
        The default interval.
    n_subjects : int
        Subjects the estimate uses.
    n_missing : int
        Subjects the estimator left out for their missing ratings (which ones depends
        on the coefficient: incomplete pairs for two-rater statistics, subjects with no
        rating for Fleiss-type coefficients, fewer than two for Light's kappa and alpha,
        any missing for the ICC and W; the notes say which).
    n_incomplete : int
        Subjects with at least one missing rating among the raters compared, whether or
        not the estimator left them out (Fleiss-type coefficients and alpha use their
        remaining ratings).
    raters : tuple of str
        The raters compared.
    unrated : tuple of str
        Raters in :attr:`raters` who gave no rating to any subject (coefficients that use
        every available rating keep them in the design; sentences do not name them).
    notes : tuple of str
        Conventions that matter for reading the numbers (which SE, clipping, dropped rows).
    scale : str or None
        The default benchmark scale of :meth:`interpret` (None: no conventional scale).
    statistic_name : str
        What :attr:`statistic` is: ``'z'`` (standard normal), ``'F'``, ``'chi2'``, ``'t'``.
    design_df : float
        Degrees of freedom of the t quantiles of the Wald interval and test (``inf``: the
        normal): n - 1 with ``distribution='t'``; clusters (or subjects) minus strata for
        a clustered or stratified design.
    se_label : str
        Which SE the Wald interval uses when it is not the usual one ("on the SE over
        raters (jackknife)", "... finite-population corrected (N = 80)"); it heads the
        Wald interval's note, so sentences name it. "" otherwise.
    null_value : float
        The coefficient's value under H0 of :attr:`statistic` and :attr:`pvalue` (0: no
        agreement beyond chance; another value with ``null=``, kappaetc's
        ``testvalue(#)``, R irr's ``r0=`` for the ICC). The summary, the sentence, and
        ``to_frame()`` (a ``null_value`` column) state it when it is not 0.
    ci_clip : bool
        Whether Wald intervals (the default one and :meth:`conf_int`'s) are clipped to
        :attr:`bounds` (False: kappaetc's ``nociclipped``).

    Examples
    --------
    >>> import irr
    >>> ag = irr.Agreement.from_frame(irr.datasets.load("vision"), raters=["r.eye", "l.eye"])
    >>> res = ag.kappa()
    >>> res  # doctest: +ELLIPSIS
    KappaResult(coefficient="Cohen's kappa", estimate=0.5954, se=0.007287, ...)
    >>> round(res.estimate, 4), round(res.se, 4), res.n_subjects
    (0.5954, 0.0073, 7477)
    >>> lo, hi = res.ci
    >>> round(lo, 3), round(hi, 3)
    (0.581, 0.61)
    """

    coefficient: str
    symbol: str
    estimate: float
    se: float
    statistic: float = math.nan
    pvalue: float = math.nan
    alternative: str = "two-sided"
    ci: ConfidenceInterval
    n_subjects: int
    n_missing: int = 0
    n_incomplete: int = 0
    raters: tuple[str, ...] = ()
    unrated: tuple[str, ...] = ()
    notes: tuple[str, ...] = ()
    bounds: tuple[float, float] = (-1.0, 1.0)
    scale: str | None = "landis-koch"
    statistic_name: str = "z"
    design_df: float = math.inf
    se_label: str = ""
    null_value: float = 0.0
    ci_clip: bool = True
    _bootstrap_source: Callable[[], Any] | None = field(default=None, repr=False)
    _cache: dict = field(default_factory=dict, repr=False)

    #: The interval methods :meth:`conf_int` accepts for this kind of result.
    interval_methods: ClassVar[tuple[str, ...]] = ASYMPTOTIC_METHODS + BOOTSTRAP_METHODS
    #: Whether :meth:`report` writes this result's own sentence (results of several
    #: quantities: limits of agreement, regression lines, measurement error), which reports
    #: then use instead of the shared one-coefficient sentence.
    own_sentence: ClassVar[bool] = False

    def parts(self) -> list[Result]:
        """The results this one shows as rows of tables: itself, or, for a result of
        several quantities (a bias and two limits; a slope and an intercept), one result
        per quantity.

        Examples
        --------
        >>> import irr
        >>> pef = irr.datasets.load("pef")
        >>> res = irr.limits_of_agreement(pef["wright_1"], pef["mini_1"])
        >>> [p.coefficient for p in res.parts()][:3]
        ['Bias (wright_1 - mini_1)', 'Lower limit (95%)', 'Upper limit (95%)']
        >>> len(irr.cohen_kappa([1, 2, 2], [1, 2, 1]).parts())
        1
        """
        return [self]

    # -- inference ---------------------------------------------------------------------
    def conf_int(
        self, confidence_level: float | None = None, method: str | None = None
    ) -> ConfidenceInterval:
        """Another confidence interval for the same estimate.

        Parameters
        ----------
        confidence_level : float, optional
            In (0, 1); defaults to that of :attr:`ci`.
        method : {'wald', 'percentile', 'basic', 'bca'}, optional
            Defaults to that of :attr:`ci`. The bootstrap methods draw the bootstrap
            distribution once, on first use, and reuse it for every later call.

        Returns
        -------
        ConfidenceInterval

        Examples
        --------
        >>> import irr
        >>> ag = irr.Agreement.from_frame(irr.datasets.load("vision"), raters=["r.eye", "l.eye"])
        >>> res = ag.kappa(weights="quadratic")
        >>> ci = res.conf_int(confidence_level=0.90)
        >>> round(ci.low, 4), round(ci.high, 4), ci.method
        (0.6885, 0.7161, 'wald')
        >>> ci = res.conf_int(method="percentile")  # bootstrap: drawn once, then reused
        >>> ci.method
        'percentile'
        """
        level = self.ci.confidence_level if confidence_level is None else confidence_level
        level = check_confidence_level(level)
        method = self.ci.method if method is None else method
        check_choice(method, "method", self.interval_methods)
        interval = self._interval(level, method)
        if method not in BOOTSTRAP_METHODS:  # the bootstrap warns for itself
            warn_undefined(interval, self.coefficient)
        return interval

    def _interval(self, level: float, method: str) -> ConfidenceInterval:
        """The interval of a validated level and method; subclasses add their own methods."""
        if method == "wald":  # t quantiles on a finite design_df
            return labelled(wald_interval(self.estimate, self.se, level, self.bounds,
                                          self.design_df, self.ci_clip), self.se_label)
        low, high, note = self.bootstrap.interval(confidence_level=level, method=method,
                                                  explain=True)
        return ConfidenceInterval(float(low), float(high), level, method, note)

    def with_bootstrap(
        self, source: Callable[[], Any], ci: str | None = None
    ) -> Result:
        """A copy whose bootstrap is drawn by `source` (on first use), with its ``ci``
        replaced by the bootstrap interval when `ci` names a bootstrap method (undefined,
        with that method's name, when the estimate is). A result built with
        ``_bootstrap_source=source`` that has drawn nothing is such a copy already, and
        is kept (no second copy of every field).

        `source` is kept to draw on first use; for the result to draw it after pickling
        (joblib, multiprocessing) it must pickle: a module-level function or a
        :func:`functools.partial` of one over picklable arguments. A lambda or local
        function is dropped on pickling (a bootstrap already drawn is kept).

        Parameters
        ----------
        source : callable
            A zero-argument callable that draws the bootstrap distribution.
        ci : {'percentile', 'basic', 'bca'}, optional
            A bootstrap method: the copy's ``ci`` becomes its interval. None keeps ``ci``.

        Examples
        --------
        >>> from irr.inference.bootstrap import bootstrap_counts
        >>> res = Result(coefficient="share", symbol="p", estimate=0.7, se=0.046,
        ...              ci=wald_interval(0.7, 0.046, 0.95, (0, 1)), n_subjects=100)
        >>> draw = lambda: bootstrap_counts([30, 70], lambda c: c[:, 1] / c.sum(axis=1),
        ...                                 n_resamples=500, rng=0)
        >>> res.with_bootstrap(draw, "percentile").ci.method
        'percentile'
        """
        # a result built with this source and nothing drawn yet is that copy already
        result = self if self._bootstrap_source is source and not self._cache else replace(
            self, _bootstrap_source=source, _cache={})
        if ci not in BOOTSTRAP_METHODS:
            warn_undefined(result.ci, result.coefficient, stacklevel=4)
            return result
        level = result.ci.confidence_level
        if not np.isfinite(result.estimate):  # nothing to resample around: an undefined interval
            return replace(result, ci=ConfidenceInterval(math.nan, math.nan, level, ci))
        return replace(result, ci=result.conf_int(level, ci))

    @property
    def n_resamples(self) -> float:
        """Bootstrap resamples behind :attr:`ci` (nan when the interval is asymptotic)."""
        if self.ci.method in BOOTSTRAP_METHODS and "bootstrap" in self._cache:
            return self._cache["bootstrap"].n_resamples
        return math.nan

    @property
    def seed(self) -> int | None:
        """The int seed of the bootstrap behind :attr:`ci` (None when the interval is
        asymptotic, or was drawn from a Generator or fresh entropy)."""
        if math.isnan(self.n_resamples):
            return None
        return self.bootstrap.seed

    @property
    def bootstrap(self) -> Any:
        """The bootstrap distribution of the estimate, drawn once on first use.

        An :class:`irr.inference.bootstrap.BootstrapDistribution`: ``replicates``,
        ``n_resamples``, ``n_undefined`` (resamples on which the statistic was undefined;
        left out of the intervals, see ``undefined_policy``), ``se`` and ``interval()``.
        """
        if "bootstrap" not in self._cache:
            if self._cache.get("unpickled_without_bootstrap"):
                raise ValueError(
                    f"This {self.coefficient} result was unpickled without its bootstrap: it "
                    "had not been drawn, and the source given to `with_bootstrap` (a lambda "
                    "or local function) does not pickle. Draw it before pickling "
                    "(`result.bootstrap`), pass a module-level function or a "
                    "functools.partial of one, or recompute the result."
                )
            if self._bootstrap_source is None:
                raise ValueError(
                    f"No bootstrap is available for this {self.coefficient} result: it was "
                    "not computed from resamplable subjects."
                )
            self._cache["bootstrap"] = self._bootstrap_source()
        return self._cache["bootstrap"]

    def __getstate__(self) -> dict[str, Any]:
        """The state to pickle (for joblib, multiprocessing): everything.

        Every result :mod:`irr` computes holds its bootstrap recipe as a
        :func:`functools.partial` of module-level functions over arrays, so it pickles,
        and after unpickling :meth:`conf_int` draws the bootstrap (when it had not been
        drawn) with the same replicates as the original would. The one exception is a
        source the caller gave :meth:`with_bootstrap` that does not pickle (a lambda or
        local function): it is dropped; a bootstrap already drawn is kept, one not drawn
        yet can then no longer be drawn (:attr:`bootstrap` says so)."""
        state = dict(self.__dict__)
        source = state.get("_bootstrap_source")
        if source is not None and not bootstrap_module.picklable(source):
            state["_bootstrap_source"] = None
            if "bootstrap" not in self._cache:
                state["_cache"] = {**self._cache, "unpickled_without_bootstrap": True}
        return state

    # -- interpretation ------------------------------------------------------------------
    def interpret(self, scale: Any = None) -> Any:
        """The band of the estimate on a benchmark scale (default: this result's scale).

        Parameters
        ----------
        scale : str or Scale, optional
            The benchmark scale (:func:`irr.list_scales`); default the result's own.

        Returns
        -------
        irr.bands.Band
            ``str(band)`` is the label, e.g. ``"substantial"``. A legitimate estimate
            outside the scale's range (an average-measure ICC below -1) gets the band
            ``"below the scale (< -1)"`` (or ``"above the scale"``), the open interval
            beyond the scale's end.

        Raises
        ------
        ValueError
            For an undefined (nan) estimate, or a result without a scale and no `scale`.

        Examples
        --------
        >>> import irr
        >>> ag = irr.Agreement.from_frame(irr.datasets.load("vision"), raters=["r.eye", "l.eye"])
        >>> res = ag.kappa()
        >>> res.interpret().label
        'moderate'
        >>> res.interpret(scale="fleiss").label
        'fair to good'
        """
        resolved = get_scale(self._scale(scale))
        if not np.isnan(self.estimate) and not _within(self.estimate, resolved):
            below = self.estimate < resolved.lower
            end = resolved.lower if below else resolved.upper
            return Band(f"{'below' if below else 'above'} the scale ({'<' if below else '>'} "
                        f"{end:g})", -math.inf if below else end, end if below else math.inf,
                        False, False, resolved.name, resolved.citation,
                        resolved.short_citation)
        self._check_bandable(resolved)
        return interpret(self.estimate, resolved)

    def _check_bandable(self, scale: Any) -> None:
        """Raise a ValueError saying why the estimate has no band on `scale`, if it has none."""
        if np.isnan(self.estimate):
            raise ValueError(
                f"{self.coefficient} is undefined (nan; its warning said why), so it has no "
                "band."
            )
        if not _within(self.estimate, scale):
            raise ValueError(
                f"{self.coefficient} = {self.estimate:.4g} lies outside the range of the "
                f"{scale.name!r} scale, [{scale.lower:g}, {scale.upper:g}], so it has no band "
                "(an ICC can, e.g. an average-measure ICC below -1; the result's notes say "
                "why)."
            )

    def benchmark(self, scale: Any = None, confidence_level: float | None = None) -> Any:
        """Gwet's probabilistic benchmark of the estimate (see :func:`irr.benchmark`).

        Uses the bootstrap replicates when a bootstrap has been drawn, else a normal
        distribution with the standard error :attr:`se`, truncated to [-1, 1] (a point
        mass at the estimate when ``se`` is 0).

        Parameters
        ----------
        scale : str or Scale, optional
            The benchmark scale (:func:`irr.list_scales`); default the result's own.
        confidence_level : float, optional
            The cumulative probability that picks the band (default the result's level).

        Raises
        ------
        ValueError
            When the estimate is undefined or outside the scale's range (an average-measure
            ICC below -1), or there is neither a standard error nor a bootstrap.

        Examples
        --------
        >>> import irr
        >>> ag = irr.Agreement.from_frame(irr.datasets.load("vision"), raters=["r.eye", "l.eye"])
        >>> bench = ag.kappa().benchmark()
        >>> bench.band.label
        'moderate'
        """
        level = self.ci.confidence_level if confidence_level is None else confidence_level
        resolved = get_scale(self._scale(scale))
        self._check_bandable(resolved)
        replicates = self._cache["bootstrap"].replicates if "bootstrap" in self._cache else None
        if replicates is None and not (np.isfinite(self.se) and self.se >= 0):
            raise ValueError(
                f"{self.coefficient} has no standard error (se is nan) and no bootstrap has "
                "been drawn, so Gwet's probabilistic benchmark is undefined; interpret() "
                "gives the band of the estimate."
            )
        return benchmark(
            self.estimate,
            self.se,
            scale=resolved,
            confidence_level=level,
            replicates=replicates,
        )

    def _scale(self, scale: Any) -> Any:
        chosen = self.scale if scale is None else scale
        if chosen is None:
            raise ValueError(
                f"{self.coefficient} has no default benchmark scale; pass `scale=`."
            )
        return chosen

    def interpretation_labels(self) -> tuple[str, str, str]:
        """Summary text: the band's label, the probabilistic benchmark's, and the citation.

        Labels are empty where they do not apply (no scale; no SE and no bootstrap),
        ``"undefined"`` for a nan estimate, and ``"none (outside [-1, 1])"`` for an estimate
        outside the scale's range (an average-measure ICC can fall below -1).

        Examples
        --------
        >>> import irr
        >>> ag = irr.Agreement.from_frame(irr.datasets.load("vision"), raters=["r.eye", "l.eye"])
        >>> ag.kappa().interpretation_labels()
        ('moderate', 'moderate', 'Landis & Koch, 1977')
        """
        if self.scale is None:
            return "", "", ""
        scale = get_scale(self.scale)
        if np.isnan(self.estimate):
            return "undefined", "", scale.attribution
        if not _within(self.estimate, scale):
            return f"none (outside [{scale.lower:g}, {scale.upper:g}])", "", scale.attribution
        band = interpret(self.estimate, scale).label
        replicates = self._cache["bootstrap"].replicates if "bootstrap" in self._cache else None
        if replicates is not None:  # undefined resamples: counted in the summary's notes
            replicates = replicates[~np.isnan(replicates)]
            if not replicates.size:
                return band, "", scale.attribution
        if replicates is None and not (np.isfinite(self.se) and self.se > 0):
            return band, "", scale.attribution
        chosen = benchmark_band(
            self.estimate,
            self.se,
            scale=scale,
            confidence_level=self.ci.confidence_level,
            replicates=replicates,
        ).label
        return band, chosen, scale.attribution

    # -- tidy output -------------------------------------------------------------------
    def to_dict(self) -> dict[str, Any]:
        """The numbers as a flat dict: the columns of :meth:`to_frame`, then extras.

        Examples
        --------
        >>> import irr
        >>> ag = irr.Agreement.from_frame(irr.datasets.load("vision"), raters=["r.eye", "l.eye"])
        >>> d = ag.kappa().to_dict()
        >>> d["coefficient"], round(d["se0"], 4)
        ("Cohen's kappa", 0.007)
        """
        out: dict[str, Any] = {
            "coefficient": self.coefficient,
            "estimate": self.estimate,
            "se": self.se,
            "statistic": self.statistic,
            "pvalue": self.pvalue,
            "ci_low": self.ci.low,
            "ci_high": self.ci.high,
            "confidence_level": self.ci.confidence_level,
            "ci_method": self.ci.method,
            "n_resamples": self.n_resamples,
            "seed": self.seed,
            "n_subjects": self.n_subjects,
            "n_missing": self.n_missing,
            "n_incomplete": self.n_incomplete,
            "alternative": self.alternative,
            "raters": list(self.raters),
        }
        if self.null_value != 0:
            out["null_value"] = self.null_value
        out.update(self._extras())
        return out

    def _extras(self) -> dict[str, Any]:
        return {}

    def to_frame(self) -> pd.DataFrame:
        """One row indexed by the coefficient's name, with :data:`FRAME_COLUMNS` (and a
        ``null_value`` column when the test is of a value other than 0).

        Examples
        --------
        >>> import irr
        >>> ag = irr.Agreement.from_frame(irr.datasets.load("vision"), raters=["r.eye", "l.eye"])
        >>> import pandas as pd
        >>> frame = pd.concat([ag.kappa().to_frame(), ag.kappa(weights="linear").to_frame()])
        >>> frame[["estimate", "ci_low", "ci_high"]].round(3).reset_index()
                       coefficient  estimate  ci_low  ci_high
        0            Cohen's kappa     0.595   0.581    0.610
        1  Weighted kappa (linear)     0.652   0.639    0.666
        """
        row = self.to_dict()
        columns = (*FRAME_COLUMNS, "null_value") if "null_value" in row else FRAME_COLUMNS
        frame = pd.DataFrame([{c: row[c] for c in columns}], index=[self.coefficient])
        frame.index.name = "coefficient"
        return frame

    def summary(self) -> Summary:
        """A statsmodels ``Summary`` table (``as_text()``, ``as_html()``, ``as_latex()``).

        Examples
        --------
        >>> import irr
        >>> ag = irr.Agreement.from_frame(irr.datasets.load("vision"), raters=["r.eye", "l.eye"])
        >>> summary = ag.kappa().summary()
        >>> print(summary.tables[1])
        =================================================================================
                        estimate    std err          z      P>|z|      [0.025      0.975]
        ---------------------------------------------------------------------------------
        Cohen's kappa     0.5954     0.0073     84.581    <0.0001       0.581       0.610
        =================================================================================
        >>> "tabular" in summary.as_latex()
        True
        """
        return results_summary([self], title=self.coefficient)

    def report(self, style: str = "apa", **options: Any) -> str:
        """One sentence for a paper, e.g. "... was substantial, Cohen's κw (quadratic
        weights) = .66, 95% CI [.54, .78] (Wald), n = 88." See :func:`irr._sentences.report`
        for `style` ('apa', 'plain') and options.

        Parameters
        ----------
        style : {'apa', 'plain'}, default 'apa'
            As for :func:`irr._report.report`.
        **options
            ``digits``, ``scale``, ``citation``, ``test``: as for :func:`irr._report.report`.

        Examples
        --------
        >>> import irr
        >>> ag = irr.Agreement.from_frame(irr.datasets.load("vision"), raters=["r.eye", "l.eye"])
        >>> ag.kappa(weights="quadratic").report()  # doctest: +NORMALIZE_WHITESPACE
        "Agreement between r.eye and l.eye was substantial, Cohen's κw (quadratic weights)
        = .70, 95% CI [.69, .72] (Wald), n = 7,477."
        """
        return sentences.report(self, style, **options)

    def __repr__(self) -> str:
        ci = f"[{self.ci.low:.4g}, {self.ci.high:.4g}]"
        return (
            f"{type(self).__name__}(coefficient={self.coefficient!r}, "
            f"estimate={self.estimate:.4g}, se={self.se:.4g}, ci={ci}, "
            f"n_subjects={self.n_subjects})"
        )

    def __str__(self) -> str:
        return self.summary().as_text()

    def _repr_html_(self) -> str:
        return self.summary().as_html()


def weight_matrix_of(spec: Any, n_categories: int, scores: np.ndarray | None) -> np.ndarray:
    """The agreement-weight matrix of a result's weight specification (None: identity).

    Results keep the specification, not the k x k matrix, so an unweighted result holds
    O(k) memory; the matrix is built when asked for.

    Examples
    --------
    >>> weight_matrix_of(None, 2, None)
    array([[1., 0.],
           [0., 1.]])
    """
    return agreement_weights(spec, n_categories, scores)


@dataclass(frozen=True, eq=False, kw_only=True, repr=False)
class KappaResult(Result):
    """Two-rater (weighted) kappa.

    Adds ``observed_agreement`` and ``expected_agreement`` (weighted when weights are
    used), ``kappa_max`` (the largest kappa the margins allow), ``se0`` (the standard error
    under H0, used for the z test), ``weights`` (the scheme's name),
    ``weight_matrix`` (the agreement weights used, built on request from ``weight_spec``
    and ``scores``: the results of unweighted kappa hold no k x k array) and ``design_df`` (with `cluster` or
    `strata`: the degrees of freedom of the design, clusters minus strata, or subjects
    minus strata, whose t quantiles the Wald interval and test use; inf otherwise).

    Examples
    --------
    >>> import irr
    >>> ag = irr.Agreement.from_frame(irr.datasets.load("vision"), raters=["r.eye", "l.eye"])
    >>> res = ag.kappa(weights="quadratic")
    >>> round(res.estimate, 4), round(res.se, 4), round(res.se0, 4)
    (0.7023, 0.0084, 0.0116)
    >>> round(res.observed_agreement, 4), round(res.expected_agreement, 4)
    (0.9376, 0.7903)
    >>> res.weights
    'quadratic'
    """

    observed_agreement: float
    expected_agreement: float
    kappa_max: float
    se0: float
    weights: str
    weight_spec: Any = field(default=None, repr=False)
    scores: np.ndarray | None = field(default=None, repr=False)
    categories: tuple = ()

    @property
    def weight_matrix(self) -> np.ndarray:
        """The k x k agreement weights used, built on request (bounded by
        :data:`irr.weights.MAX_SQUARE_CELLS`)."""
        return weight_matrix_of(self.weight_spec, len(self.categories), self.scores)

    def _extras(self) -> dict[str, Any]:
        return {
            "design_df": self.design_df,
            "observed_agreement": self.observed_agreement,
            "expected_agreement": self.expected_agreement,
            "kappa_max": self.kappa_max,
            "se0": self.se0,
            "weights": self.weights,
        }


@dataclass(frozen=True, eq=False, kw_only=True, repr=False)
class ProportionResult(Result):
    """A proportion (percent agreement) with a Wilson score interval.

    Examples
    --------
    >>> import irr
    >>> ag = irr.Agreement.from_frame(irr.datasets.load("vision"), raters=["r.eye", "l.eye"])
    >>> res = ag.percent_agreement()
    >>> round(res.estimate, 4), res.ci.method
    (0.7083, 'wilson')
    >>> [round(x, 4) for x in res.ci]
    [0.6979, 0.7185]
    """

    count: float
    bounds: tuple[float, float] = (0.0, 1.0)
    scale: str | None = None

    interval_methods: ClassVar[tuple[str, ...]] = ("wilson", *Result.interval_methods)

    def _interval(self, level: float, method: str) -> ConfidenceInterval:
        if method == "wilson":
            return wilson_interval(self.count, self.n_subjects, level)
        return super()._interval(level, method)

    def _extras(self) -> dict[str, Any]:
        return {"count": self.count}


def wilson_interval(count: float, n: int, confidence_level: float) -> ConfidenceInterval:
    """Wilson score interval for a binomial proportion ``count / n``.

    Examples
    --------
    >>> ci = wilson_interval(45, 88, 0.95)
    >>> round(ci.low, 4), round(ci.high, 4)
    (0.4087, 0.6131)
    """
    if n <= 0:
        return ConfidenceInterval(math.nan, math.nan, confidence_level, "wilson")
    z = normal_quantile(confidence_level)
    p = count / n
    centre = (p + z * z / (2 * n)) / (1 + z * z / n)
    half = z / (1 + z * z / n) * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n))
    return ConfidenceInterval(max(0.0, centre - half), min(1.0, centre + half),
                              confidence_level, "wilson")
