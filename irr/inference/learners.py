"""Comparing two learners (the paired t test over folds, Dietterich's 5x2cv t test,
McNemar's test on one test set) and the bias-variance decomposition of a learner's
expected error (Zhou, *Machine Learning*, 2016, sec. 2.4-2.5)."""

from __future__ import annotations

import math
import warnings
from dataclasses import dataclass, field, replace
from typing import TYPE_CHECKING, Any, ClassVar

import numpy as np
import pandas as pd

from irr._data import align_columns, align_to_index
from irr._numbers import format_interval, format_number, format_pvalue
from irr._validation import (
    DegenerateDataWarning,
    check_alternative,
    check_confidence_level,
    check_open_unit,
)
from irr.inference._hypothesis_summary import fmt_number, fmt_pvalue, hypothesis_summary
from irr.inference.paired import PairedTable, PairedTestResult, mcnemar_of_table
from irr.results import FRAME_COLUMNS, ConfidenceInterval, Result

if TYPE_CHECKING:
    from statsmodels.iolib.summary import Summary

__all__ = ["BiasVarianceResult", "LearnerTTestResult", "bias_variance",
           "compare_classifiers", "cv52_ttest", "paired_ttest"]

_H1 = {"greater": ">", "less": "<", "two-sided": "!="}


@dataclass(frozen=True, eq=False, kw_only=True, repr=False)
class LearnerTTestResult(Result):
    """A t test of the difference of two learners' error rates.

    ``estimate`` is the mean difference ``a - b`` of the error rates (for the 5x2cv
    test, Dietterich's numerator: the difference on the first fold of the first
    replication), ``se`` its standard error, ``statistic`` t on ``df`` degrees of
    freedom, ``ci`` the t interval. Adds ``test``, ``learners`` (the two names), ``k``
    (folds), ``df``, ``alpha``, ``critical_value``, ``reject`` and ``differences``.

    Examples
    --------
    >>> import irr
    >>> res = irr.paired_ttest([0.12, 0.15, 0.11, 0.14, 0.13], [0.10, 0.12, 0.11, 0.12, 0.10])
    >>> round(res.estimate, 3), res.df, round(res.statistic, 3)
    (0.02, 4, 3.651)
    """

    test: str
    learners: tuple[str, str]
    k: int
    df: int
    alpha: float
    critical_value: float
    reject: bool
    differences: np.ndarray = field(repr=False)
    scale: str | None = None
    bounds: tuple[float, float] = (-1.0, 1.0)
    statistic_name: str = "t"

    interval_methods: ClassVar[tuple[str, ...]] = ("t",)
    own_sentence: ClassVar[bool] = True

    def _interval(self, level: float, method: str) -> ConfidenceInterval:
        return _t_interval(self.estimate, self.se, self.df, level, self.alternative)

    def _extras(self) -> dict[str, Any]:
        return {"test": self.test, "learners": list(self.learners), "k": self.k,
                "df": self.df, "alpha": self.alpha, "critical_value": self.critical_value,
                "reject": self.reject}

    @property
    def decision(self) -> str:
        """The decision in words."""
        a, b = self.learners
        verb = "rejected" if self.reject else "not rejected"
        return (f"H0 (equal error rates of {a} and {b}) {verb} at alpha = {self.alpha:g} "
                f"({self.alternative}).")

    def summary(self) -> Summary:
        """A statsmodels ``Summary``: hypotheses, t, df, p-value and decision.

        Examples
        --------
        >>> import irr
        >>> res = irr.paired_ttest([0.12, 0.15, 0.11], [0.10, 0.12, 0.12], names=["svm", "tree"])
        >>> "svm - tree" in res.summary().as_text()
        True
        """
        a, b = self.learners
        facts = [("H0:", f"error rate of {a} = that of {b}"),
                 ("H1:", f"error({a}) - error({b}) {_H1[self.alternative]} 0"),
                 ("Folds:", str(self.k)), ("df:", str(self.df)),
                 ("CI:", f"{100 * self.ci.confidence_level:g}% t"),
                 ("Critical t:", fmt_number(self.critical_value, 3))]
        columns = ["difference", "std err", "t", "p-value", "ci low", "ci high", "reject"]
        row = [fmt_number(self.estimate), fmt_number(self.se), fmt_number(self.statistic, 3),
               fmt_pvalue(self.pvalue), fmt_number(self.ci.low, 3),
               fmt_number(self.ci.high, 3), "yes" if self.reject else "no"]
        return hypothesis_summary(self.test, facts, columns, [f"{a} - {b}"], [row],
                                  [self.decision, *self.notes])

    def report(self, style: str = "apa", *, digits: int = 3, **options: Any) -> str:
        """One sentence: the difference, its interval, t, df and p.

        Parameters
        ----------
        style, digits, **options
            As for :meth:`irr.Result.report`; `digits` (default 3) for the difference and its interval.

        Examples
        --------
        >>> import irr
        >>> res = irr.paired_ttest([0.12, 0.15, 0.11, 0.14, 0.13], [0.10, 0.12, 0.11, 0.12, 0.10])
        >>> print(res.report())  # doctest: +NORMALIZE_WHITESPACE
        Over 5 folds the error rate of learner_a minus that of learner_b was .020, 95% CI
        [.005, .035] (t distribution); paired t test, t(4) = 3.65, p = .022.
        """
        if style not in ("apa", "plain") or options:
            raise ValueError(f"`style` must be 'apa' or 'plain' (no other options); got "
                             f"{style!r} {sorted(options)}.")
        apa = style == "apa"

        def num(x: float) -> str:  # a difference of error rates: at most 1 in absolute value
            return format_number(x, digits, leading_zero=not apa)

        a, b = self.learners
        ci = format_interval(self.ci.low, self.ci.high, self.ci.confidence_level,
                             self.ci.method_name, ends=num, apa=apa)
        p = format_pvalue(self.pvalue, apa=apa)
        what = ("on the first fold of the first replication" if "5x2cv" in self.test
                else f"over {self.k} folds")
        return (f"{what[0].upper() + what[1:]} the error rate of {a} minus that of {b} was "
                f"{num(self.estimate)}, {ci}; {self.test}, t({self.df}) = "
                f"{format_number(self.statistic, 2)}, {p}.")


def _t_interval(centre: float, se: float, df: int, level: float,
                alternative: str) -> ConfidenceInterval:
    from scipy.stats import t

    if not (math.isfinite(se) and se > 0):
        return ConfidenceInterval(math.nan, math.nan, level, "t")
    if alternative == "two-sided":
        half = float(t.isf((1 - level) / 2, df)) * se
        return ConfidenceInterval(centre - half, centre + half, level, "t")
    half = float(t.isf(1 - level, df)) * se
    if alternative == "greater":
        return ConfidenceInterval(centre - half, math.inf, level, "t")
    return ConfidenceInterval(-math.inf, centre + half, level, "t")


def _rates(values: Any, name: str, shape: tuple[int, ...] | None = None) -> np.ndarray:
    if isinstance(values, (str, bytes)) or np.isscalar(values):
        raise TypeError(f"`{name}` must be an array-like of error rates; got {values!r}.")
    array = np.asarray(values.to_numpy() if isinstance(values, (pd.Series, pd.DataFrame))
                       else values)
    if array.dtype.kind not in "iuf":
        raise TypeError(f"`{name}` must be numeric; got dtype {array.dtype}.")
    rates = array.astype(float)
    if shape is not None and rates.shape != shape:
        raise ValueError(f"`{name}` must have shape {shape} (replications x folds); got "
                         f"{rates.shape}.")
    if shape is None and rates.ndim != 1:
        raise ValueError(f"`{name}` must be 1-D (one error rate per fold); got shape "
                         f"{rates.shape}.")
    bad = rates[~np.isfinite(rates) | (rates < 0) | (rates > 1)]
    if bad.size:
        raise ValueError(f"`{name}` must hold finite error rates in [0, 1]; got "
                         f"{np.unique(bad)[:5].tolist()}.")
    return rates


def _names(names: Any) -> tuple[str, str]:
    if names is None:
        return "learner_a", "learner_b"
    names = [str(n) for n in names]
    if len(names) != 2 or names[0] == names[1]:
        raise ValueError(f"`names` must give two distinct names; got {names!r}.")
    return names[0], names[1]


def _t_result(test: str, estimate: float, se: float, df: int, k: int, alpha: float,
              alternative: str, level: float, differences: np.ndarray,
              learners: tuple[str, str], notes: list[str]) -> LearnerTTestResult:
    from scipy.stats import t

    if se > 0:
        statistic = estimate / se
        if alternative == "greater":
            pvalue = float(t.sf(statistic, df))
        elif alternative == "less":
            pvalue = float(t.cdf(statistic, df))
        else:
            pvalue = float(min(1.0, 2 * t.sf(abs(statistic), df)))
    else:
        warnings.warn(f"The {test} is undefined (nan): the differences of the error rates do "
                      "not vary (their standard deviation is 0).", DegenerateDataWarning,
                      stacklevel=3)
        statistic = pvalue = math.nan
    tail = alpha / 2 if alternative == "two-sided" else alpha
    critical = float(t.isf(tail, df))
    reject = bool({"greater": statistic > critical, "less": statistic < -critical,
                   "two-sided": abs(statistic) > critical}[alternative])
    return LearnerTTestResult(
        coefficient=f"Error rate difference ({learners[0]} - {learners[1]})", symbol="Δε",
        estimate=estimate, se=se, statistic=statistic, pvalue=pvalue,
        alternative=alternative, ci=_t_interval(estimate, se, df, level, alternative),
        n_subjects=k, notes=tuple(notes), test=test, learners=learners, k=k, df=df,
        alpha=alpha, critical_value=critical, reject=reject, differences=differences)


def paired_ttest(
    errors_a: Any,
    errors_b: Any,
    alpha: float = 0.05,
    alternative: str = "two-sided",
    *,
    names: Any = None,
    confidence_level: float | None = None,
) -> LearnerTTestResult:
    """Paired t test of two learners' error rates over the same k folds (or hold-out runs).

    Parameters
    ----------
    errors_a, errors_b : array-like of shape (k,)
        The two learners' test error rates on the same k folds, in [0, 1].
    alpha : float, default 0.05
        Significance level.
    alternative : {'two-sided', 'greater', 'less'}, default 'two-sided'
        H1 on the mean of ``a - b``.
    names : sequence of two str, optional
        The learners' names (default ``learner_a``, ``learner_b``).
    confidence_level : float, optional
        Level of the t interval of the mean difference; default ``1 - alpha``.

    Returns
    -------
    LearnerTTestResult

    Notes
    -----
    With the differences :math:`\\Delta_i = \\epsilon^A_i - \\epsilon^B_i`, their mean
    :math:`\\mu` and standard deviation :math:`\\sigma` (divisor k - 1),
    :math:`\\tau_t = \\sqrt{k}\\,\\mu/\\sigma` is compared with Student's t on k - 1 df
    (Zhou 2016, sec. 2.4.2, eq. 2.31). Cross-validation folds share training data, so
    the differences are not independent and the test is liberal (Dietterich 1998):
    prefer :func:`cv52_ttest`. Validated against ``scipy.stats.ttest_rel``.

    Examples
    --------
    >>> import irr
    >>> res = irr.paired_ttest([0.12, 0.15, 0.11, 0.14, 0.13], [0.10, 0.12, 0.11, 0.12, 0.10])
    >>> round(res.pvalue, 4), res.reject
    (0.0217, True)
    """
    alpha = check_open_unit(alpha, "alpha")
    alternative = check_alternative(alternative)
    level = 1 - alpha if confidence_level is None else check_confidence_level(confidence_level)
    (errors_a, errors_b), _ = align_columns([errors_a, errors_b], ["errors_a", "errors_b"])
    a, b = _rates(errors_a, "errors_a"), _rates(errors_b, "errors_b")
    if a.size != b.size:
        raise ValueError(f"`errors_a` and `errors_b` must have one rate per fold each; got "
                         f"{a.size} and {b.size}.")
    if a.size < 2:
        raise ValueError(f"The paired t test needs at least two folds; got {a.size}.")
    d = a - b
    k = d.size
    se = float(d.std(ddof=1)) / math.sqrt(k)
    return _t_result("paired t test", float(d.mean()), se, k - 1, k, alpha, alternative,
                     level, d, _names(names),
                     ["Differences a - b over the folds treated as independent (k - 1 df); "
                      "folds sharing training data make this liberal (Dietterich 1998)."])


def cv52_ttest(
    errors_a: Any,
    errors_b: Any,
    alpha: float = 0.05,
    alternative: str = "two-sided",
    *,
    names: Any = None,
    confidence_level: float | None = None,
) -> LearnerTTestResult:
    """Dietterich's (1998) 5x2cv paired t test of two learners' error rates.

    Parameters
    ----------
    errors_a, errors_b : array-like of shape (5, 2)
        The learners' test error rates in 5 replications (rows) of 2-fold
        cross-validation (columns), the same splits for both.
    alpha, alternative, names, confidence_level
        As for :func:`paired_ttest`.

    Returns
    -------
    LearnerTTestResult
        ``estimate`` :math:`p_1^{(1)}`, ``se`` :math:`\\sqrt{\\sum_i s_i^2 / 5}`, t on 5 df.

    Notes
    -----
    With the differences :math:`p_i^{(j)}` on fold j of replication i, their replication
    means :math:`\\bar p_i` and variances :math:`s_i^2 = (p_i^{(1)} - \\bar p_i)^2 +
    (p_i^{(2)} - \\bar p_i)^2`,

    .. math:: \\tilde t = \\frac{p_1^{(1)}}{\\sqrt{\\frac15 \\sum_{i=1}^5 s_i^2}}

    has approximately Student's t distribution on 5 df under H0 (Dietterich 1998,
    eq. on p. 1905); its type I error is close to nominal where the k-fold paired t test's
    is not.

    References
    ----------
    Dietterich, T. G. (1998). Approximate statistical tests for comparing supervised
    classification learning algorithms. Neural Computation, 10, 1895-1923.
    https://doi.org/10.1162/089976698300017197

    Examples
    --------
    >>> import irr
    >>> a = [[0.10, 0.12], [0.11, 0.13], [0.09, 0.12], [0.10, 0.11], [0.12, 0.10]]
    >>> b = [[0.08, 0.11], [0.10, 0.10], [0.09, 0.10], [0.08, 0.10], [0.10, 0.09]]
    >>> res = irr.cv52_ttest(a, b)
    >>> round(res.statistic, 3), res.df  # 0.02 / sqrt(0.00055 / 5)
    (1.907, 5)
    """
    alpha = check_open_unit(alpha, "alpha")
    alternative = check_alternative(alternative)
    level = 1 - alpha if confidence_level is None else check_confidence_level(confidence_level)
    if isinstance(errors_a, pd.DataFrame):  # replications matched by their labels
        errors_b = align_to_index(errors_b, errors_a.index, "errors_b", "`errors_a`")
    a = _rates(errors_a, "errors_a", (5, 2))
    b = _rates(errors_b, "errors_b", (5, 2))
    p = a - b
    s2 = ((p - p.mean(axis=1, keepdims=True)) ** 2).sum(axis=1)
    se = math.sqrt(float(s2.mean()))
    return _t_result("5x2cv paired t test", float(p[0, 0]), se, 5, 10, alpha, alternative,
                     level, p, _names(names),
                     ["Dietterich (1998): numerator p_1^(1), the first fold of the first "
                      "replication; variance the mean of the 5 replications' s_i^2; t on 5 "
                      "df."])


def compare_classifiers(
    y_true: Any,
    pred_a: Any,
    pred_b: Any,
    *,
    exact: bool = False,
    correction: bool = True,
    names: Any = None,
    confidence_level: float = 0.95,
) -> PairedTestResult:
    """McNemar's test that two classifiers have the same error rate on one test set.

    Parameters
    ----------
    y_true, pred_a, pred_b : array-like of shape (n,)
        The true labels and the two classifiers' predictions on the same n cases.
    exact : bool, default False
        Exact binomial test on the discordant cases; default the chi-square with
        continuity correction, the form of Dietterich (1998) and Zhou (2016, eq. 2.34).
    correction : bool, default True
        Continuity correction (ignored when `exact`).
    names : sequence of two str, optional
    confidence_level : float, default 0.95
        Level of the interval of the difference of the two accuracies.

    Returns
    -------
    PairedTestResult
        McNemar's test on the 2 x 2 table of (a correct?, b correct?), categories
        ``'correct'`` and ``'wrong'``: ``estimate`` is accuracy(a) - accuracy(b), the
        difference of the two error rates b - a.

    Notes
    -----
    Only the cases on which exactly one classifier errs count: with :math:`e_{01}` (a
    wrong, b right) and :math:`e_{10}` (a right, b wrong),
    :math:`\\tau_{\\chi^2} = (|e_{01} - e_{10}| - 1)^2 / (e_{01} + e_{10})` on 1 df.

    Examples
    --------
    >>> import irr
    >>> y = [0, 1, 1, 0, 1, 0, 1, 1, 0, 0, 1, 1]
    >>> a = [0, 1, 1, 0, 1, 1, 1, 1, 0, 0, 1, 1]
    >>> b = [0, 0, 1, 1, 0, 1, 0, 1, 0, 1, 1, 0]
    >>> res = irr.compare_classifiers(y, a, b)
    >>> res.table.tolist(), round(res.statistic, 3)  # (|0 - 6| - 1)^2 / 6
    ([[5, 6], [0, 1]], 4.167)
    """
    level = check_confidence_level(confidence_level)
    columns, _ = align_columns([y_true, pred_a, pred_b], ["y_true", "pred_a", "pred_b"])
    arrays = [np.asarray(v.to_numpy() if isinstance(v, pd.Series) else v, dtype=object)
              for v in columns]
    for name, v in zip(("y_true", "pred_a", "pred_b"), arrays, strict=True):
        if v.ndim != 1:
            raise ValueError(f"`{name}` must be 1-D; got shape {v.shape}.")
        if pd.isna(v).any():
            raise ValueError(f"`{name}` has missing values; drop those cases first.")
    if not arrays[0].size == arrays[1].size == arrays[2].size:
        raise ValueError("`y_true`, `pred_a` and `pred_b` must have the same length; got "
                         f"{[v.size for v in arrays]}.")
    right_a, right_b = arrays[1] == arrays[0], arrays[2] == arrays[0]
    table = np.array([[np.sum(right_a & right_b), np.sum(right_a & ~right_b)],
                      [np.sum(~right_a & right_b), np.sum(~right_a & ~right_b)]])
    first, second = _names(names)
    paired = PairedTable(table, ("correct", "wrong"), (first, second), 0)
    result = mcnemar_of_table(paired, bool(exact), bool(correction), level)
    notes = [n for n in result.notes if not n.startswith("Effect:")]
    notes.append(f"Rows: {first} correct / wrong; columns: {second}. Effect: accuracy of "
                 f"{first} minus that of {second} (Wald interval).")
    return replace(result, null_hypothesis=f"equal accuracy of {first} and {second}",
                   effect_name=f"accuracy of {first} minus that of {second}",
                   notes=tuple(notes))


@dataclass(frozen=True, eq=False, kw_only=True, repr=False)
class BiasVarianceResult(Result):
    """The bias-variance decomposition of a learner's expected squared error.

    ``estimate`` is the expected error :math:`E(f; D)` averaged over the test points;
    ``bias2``, ``variance`` and ``noise`` its three parts (Zhou 2016, eq. 2.41);
    ``residual`` the part of the empirical error the three leave (the sample's cross
    terms, 0 in expectation); ``per_point`` a DataFrame of the parts at each test point.

    Examples
    --------
    >>> import irr
    >>> res = irr.bias_variance([[1.0, 2.0], [3.0, 2.0]], y=[1.5, 2.5])
    >>> res.bias2, res.variance, res.noise  # mean prediction (2, 2)
    (0.25, 0.5, 0.0)
    """

    bias2: float
    variance: float
    noise: float
    residual: float
    n_training_sets: int
    per_point: pd.DataFrame = field(repr=False)
    scale: str | None = None
    bounds: tuple[float, float] = (0.0, math.inf)

    own_sentence: ClassVar[bool] = True
    interval_methods: ClassVar[tuple[str, ...]] = ("none",)

    def _interval(self, level: float, method: str) -> ConfidenceInterval:
        return ConfidenceInterval(math.nan, math.nan, level, "none")

    def _extras(self) -> dict[str, Any]:
        return {"bias2": self.bias2, "variance": self.variance, "noise": self.noise,
                "residual": self.residual, "n_training_sets": self.n_training_sets}

    def parts(self) -> list[Result]:
        """The expected error, then bias², variance, noise and the residual."""
        none = ConfidenceInterval(math.nan, math.nan, self.ci.confidence_level, "none")
        common = {"se": math.nan, "ci": none, "n_subjects": self.n_subjects, "scale": None,
                  "bounds": (-math.inf, math.inf)}
        return [Result(coefficient=name, symbol=symbol, estimate=value, **common)
                for name, symbol, value in (
                    ("Expected error E(f; D)", "E", self.estimate),
                    ("Bias^2", "bias2", self.bias2), ("Variance", "var", self.variance),
                    ("Noise", "noise", self.noise),
                    ("Residual (cross terms)", "residual", self.residual))]

    def to_frame(self) -> pd.DataFrame:
        """One row per part, with :data:`irr.results.FRAME_COLUMNS`.

        Examples
        --------
        >>> import irr
        >>> res = irr.bias_variance([[1.0, 2.0], [3.0, 2.0]], y=[1.5, 2.5])
        >>> res.to_frame()["estimate"].tolist()
        [0.75, 0.25, 0.5, 0.0, 0.0]
        """
        return pd.concat([r.to_frame() for r in self.parts()])[list(FRAME_COLUMNS)]

    def summary(self) -> Summary:
        """A statsmodels ``Summary`` of the parts.

        Examples
        --------
        >>> import irr
        >>> res = irr.bias_variance([[1.0, 2.0], [3.0, 2.0]], y=[1.5, 2.5])
        >>> "Variance" in res.summary().as_text()
        True
        """
        facts = [("Training sets:", str(self.n_training_sets)),
                 ("Test points:", str(self.n_subjects))]
        rows = [[fmt_number(r.estimate)] for r in self.parts()]
        return hypothesis_summary("Bias-variance decomposition", facts, ["value"],
                                  [r.coefficient for r in self.parts()], rows,
                                  list(self.notes))

    def report(self, style: str = "apa", *, digits: int = 3, **options: Any) -> str:
        """One sentence with the expected error and its parts.

        Parameters
        ----------
        style, digits, **options
            As for :meth:`irr.Result.report`; `digits` (default 3) for the error and its parts.

        Examples
        --------
        >>> import irr
        >>> print(irr.bias_variance([[1.0, 2.0], [3.0, 2.0]], y=[1.5, 2.5]).report())
        ... # doctest: +NORMALIZE_WHITESPACE
        Over 2 training sets and 2 test points the expected squared error was 0.750:
        bias² 0.250, variance 0.500, noise 0.000 (residual 0.000).
        """
        if style not in ("apa", "plain") or options:
            raise ValueError(f"`style` must be 'apa' or 'plain' (no other options); got "
                             f"{style!r} {sorted(options)}.")
        square = "²" if style == "apa" else "^2"
        estimate, bias2, variance, noise, residual = (
            format_number(x, digits) for x in (self.estimate, self.bias2, self.variance,
                                                self.noise, self.residual))
        return (f"Over {self.n_training_sets} training sets and {self.n_subjects} test points "
                f"the expected squared error was {estimate}: bias{square} {bias2}, variance "
                f"{variance}, noise {noise} (residual {residual}).")


def bias_variance(predictions: Any, y: Any, y_observed: Any = None) -> BiasVarianceResult:
    """The bias-variance decomposition of a learner's expected squared error.

    Parameters
    ----------
    predictions : array-like of shape (n_training_sets, n_points)
        The learner's predictions :math:`f(x; D)` at n test points, one row per training
        set D (of the same size, drawn from the same distribution).
    y : array-like of shape (n_points,)
        The true (noise-free) values :math:`y` at the test points.
    y_observed : array-like of shape (n_training_sets, n_points) or (n_points,), optional
        The observed, noisy labels :math:`y_D` (one row per training set, or the same for
        all). Default: ``y`` (no noise).

    Returns
    -------
    BiasVarianceResult

    Notes
    -----
    At each test point x (Zhou 2016, eqs. 2.37-2.41), with :math:`\\bar f(x)` the mean
    prediction over the training sets,

    .. math::
        E(f; D) = \\mathbb{E}_D[(f(x; D) - y_D)^2]
        = \\underbrace{\\mathbb{E}_D[(f(x; D) - \\bar f(x))^2]}_{\\mathrm{var}(x)}
        + \\underbrace{(\\bar f(x) - y)^2}_{\\mathrm{bias}^2(x)}
        + \\underbrace{\\mathbb{E}_D[(y_D - y)^2]}_{\\varepsilon^2},

    the expectations being means over the training sets (divisor n_training_sets), and
    every part is then averaged over the test points. The identity holds in expectation
    when the noise has mean 0 and is independent of the learner; in a finite sample the
    cross terms :math:`2\\,\\mathbb{E}_D[(f - \\bar f)(\\bar f - y_D)]` and
    :math:`2\\,\\mathbb{E}_D[(\\bar f - y)(y - y_D)]` are reported as ``residual``, so
    that the parts add up to the empirical expected error exactly.

    Examples
    --------
    >>> import numpy as np, irr
    >>> rng = np.random.default_rng(0)
    >>> x = np.linspace(0, 1, 20)
    >>> y = np.sin(2 * np.pi * x)
    >>> fits = []
    >>> for _ in range(200):  # a straight line fitted to 10 noisy points, 200 times
    ...     xs = rng.uniform(0, 1, 10)
    ...     fits.append(np.polyval(np.polyfit(xs, np.sin(2 * np.pi * xs)
    ...                                       + rng.normal(0, 0.3, 10), 1), x))
    >>> res = irr.bias_variance(np.array(fits), y, y + rng.normal(0, 0.3, (200, 20)))
    >>> res.bias2 > res.variance
    True
    """
    f = np.asarray(predictions, dtype=float)
    truth = np.asarray(y, dtype=float)
    if f.ndim != 2 or f.shape[0] < 2:
        raise ValueError("`predictions` must be 2-D, one row per training set (at least "
                         f"two); got shape {f.shape}.")
    if truth.shape != (f.shape[1],):
        raise ValueError(f"`y` must have one value per test point ({f.shape[1]}); got shape "
                         f"{truth.shape}.")
    observed = truth[None, :] if y_observed is None else np.asarray(y_observed, dtype=float)
    if observed.ndim == 1:
        observed = observed[None, :]
    if observed.shape not in ((1, f.shape[1]), f.shape):
        raise ValueError(f"`y_observed` must have shape {f.shape} or ({f.shape[1]},); got "
                         f"{np.asarray(y_observed).shape}.")
    for name, values in (("predictions", f), ("y", truth), ("y_observed", observed)):
        if not np.isfinite(values).all():
            raise ValueError(f"`{name}` must be finite; it holds nan or inf.")
    observed = np.broadcast_to(observed, f.shape)
    with np.errstate(over="ignore", invalid="ignore"):
        mean = f.mean(axis=0)
        variance = ((f - mean) ** 2).mean(axis=0)
        bias2 = (mean - truth) ** 2
        noise = ((observed - truth) ** 2).mean(axis=0)
        error = ((f - observed) ** 2).mean(axis=0)
        residual = error - (variance + bias2 + noise)
    if not all(np.isfinite(v).all() for v in (variance, bias2, noise, error, residual)):
        raise ValueError("The squared errors overflow the float range (values near 1e154 "
                         "or beyond); rescale `predictions`, `y` and `y_observed`.")
    per_point = pd.DataFrame({"expected_error": error, "bias2": bias2, "variance": variance,
                              "noise": noise, "residual": residual})
    per_point.index.name = "point"
    notes = ["Zhou (2016) eq. 2.41: E(f; D) = bias^2 + variance + noise, expectations as "
             "means over the training sets (divisor n_training_sets), then averaged over "
             "the test points; residual: the sample's cross terms (0 in expectation)."]
    if y_observed is None:
        notes.append("No observed labels given: the noise is 0 (y_D = y).")
    return BiasVarianceResult(
        coefficient="Expected squared error", symbol="E", estimate=float(error.mean()),
        se=math.nan, ci=ConfidenceInterval(math.nan, math.nan, 0.95, "none"),
        n_subjects=int(f.shape[1]), notes=tuple(notes), bias2=float(bias2.mean()),
        variance=float(variance.mean()), noise=float(noise.mean()),
        residual=float(residual.mean()), n_training_sets=int(f.shape[0]),
        per_point=per_point)
