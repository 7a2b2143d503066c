"""Agreement on each category of two raters: specific agreement (positive and negative
agreement for two categories) and category-wise kappa (each category against the rest)."""

from __future__ import annotations

import math
import warnings
from dataclasses import dataclass
from functools import partial
from typing import Any, ClassVar

import numpy as np

from irr._lazy import lazy_module
from irr._numbers import format_interval, format_number
from irr._statistics import Statistics
from irr._validation import DegenerateDataWarning, check_report_style
from irr.coefficients.kappa import identity_kappa, kappa_parts, kappa_variances
from irr.inference.options import BOOTSTRAP_METHODS, InferenceOptions
from irr.inference.plan import ResamplingPlan
from irr.results import FRAME_COLUMNS, Result, normal_pvalue, wald_interval
from irr.summary import listwise_note, results_summary

pd = lazy_module("pandas")  # imported on first use: data streamed by DuckDB never need it

__all__ = ["CategoryResults", "category_kappa", "specific_agreement"]

#: What each family is called.
_TITLES = {"specific": "Specific agreement", "kappa": "Category-wise kappa"}


@dataclass(frozen=True, eq=False, kw_only=True, repr=False)
class CategoryResults(Result):
    """One statistic per category of two raters, with an overall value.

    ``estimate``, ``se`` and ``ci`` are the overall value's: the percent agreement
    ``p_o`` for specific agreement (the mean of the specific agreements weighted by
    ``(n_j. + n_.j) / 2n``), Cohen's kappa for category-wise kappa (the mean of the
    category kappas weighted by ``p_j. + p_.j - 2 p_j. p_.j``). ``categories`` and
    ``by_category`` (one :class:`irr.results.Result` per category) hold the rest;
    :meth:`parts`, :meth:`to_frame` and :meth:`summary` show every row, and
    ``result[category]`` picks one.

    Examples
    --------
    >>> import irr
    >>> res = irr.Agreement.from_table([[40, 9], [6, 45]], categories=["yes", "no"]
    ...                                ).specific_agreement(positive="yes")
    >>> [round(r.estimate, 4) for r in res.by_category]
    [0.8421, 0.8571]
    >>> res["yes"].coefficient
    'Positive agreement (yes)'
    """

    family: str
    categories: tuple
    by_category: tuple[Result, ...]
    scale: str | None = None

    own_sentence: ClassVar[bool] = True

    def __getitem__(self, category: Any) -> Result:
        for label, result in zip(self.categories, self.by_category, strict=True):
            if label == category or str(label) == str(category):
                return result
        raise KeyError(f"{category!r} is not a category; categories: {list(self.categories)!r}.")

    def parts(self) -> list[Result]:
        """The overall row, then one row per category."""
        overall = Result(coefficient=self.coefficient, symbol=self.symbol,
                         estimate=self.estimate, se=self.se, statistic=self.statistic,
                         pvalue=self.pvalue, ci=self.ci, n_subjects=self.n_subjects,
                         n_missing=self.n_missing, n_incomplete=self.n_incomplete,
                         raters=self.raters, scale=self.scale, bounds=self.bounds,
                         statistic_name=self.statistic_name)
        return [overall, *self.by_category]

    def to_frame(self) -> pd.DataFrame:
        """One row per :meth:`parts` entry, with :data:`irr.results.FRAME_COLUMNS`.

        Examples
        --------
        >>> import irr
        >>> res = irr.Agreement.from_table([[40, 9], [6, 45]]).category_kappa()
        >>> res.to_frame()["estimate"].round(4).tolist()
        [0.6995, 0.6995, 0.6995]
        """
        return pd.concat([r.to_frame() for r in self.parts()])[list(FRAME_COLUMNS)]

    def _extras(self) -> dict[str, Any]:
        return {"family": self.family,
                "by_category": {str(c): r.estimate
                                for c, r in zip(self.categories, self.by_category, strict=True)}}

    def summary(self) -> Any:
        """A statsmodels ``Summary`` with the overall row and one row per category.

        Examples
        --------
        >>> import irr
        >>> ag = irr.Agreement.from_frame(irr.datasets.load("vision"))
        >>> text = ag.specific_agreement().summary().as_text()
        >>> print(text.splitlines()[0].strip())
        Specific agreement between r.eye and l.eye
        """
        title = f"{_TITLES[self.family]} between {' and '.join(self.raters)}"
        return results_summary(self.parts(), title=title, notes=self.notes,
                               merge_coincident=False)

    def report(self, style: str = "apa", *, digits: int = 2, **options: Any) -> str:
        """One sentence: each category's value with its interval, then the overall value.

        Parameters
        ----------
        style, digits, **options
            As for :meth:`irr.Result.report`; `digits` (default 2) for every category's value.

        Examples
        --------
        >>> import irr
        >>> res = irr.Agreement.from_table([[40, 9], [6, 45]], categories=["yes", "no"]
        ...                                ).specific_agreement(positive="yes")
        >>> print(res.report())  # doctest: +NORMALIZE_WHITESPACE
        Between rater1 and rater2, positive agreement (yes) was .84, 95% CI [.76, .92]
        (Wald), and negative agreement (no) was .86, 95% CI [.79, .93] (Wald); percent
        agreement was .85, n = 100.
        """
        apa = check_report_style(style, options)

        def number(x: float) -> str:
            return format_number(x, digits, leading_zero=not apa)

        def interval(r: Result) -> str:
            if not (math.isfinite(r.ci.low) and math.isfinite(r.ci.high)):
                return f"{100 * r.ci.confidence_level:g}% CI undefined"
            how = r.ci.method_name
            if math.isfinite(r.n_resamples):
                how += f", {int(r.n_resamples):,} resamples"
            return format_interval(r.ci.low, r.ci.high, r.ci.confidence_level, how,
                                   ends=number, apa=apa)

        pieces = []
        for r in self.by_category:
            name = r.coefficient[0].lower() + r.coefficient[1:]
            pieces.append(f"{name} was {number(r.estimate)}, {interval(r)}")
        joined = (", and ".join(pieces) if len(pieces) == 2
                  else "; ".join(pieces[:-1]) + "; and " + pieces[-1])
        overall = "percent agreement" if self.family == "specific" else "Cohen's kappa"
        return (f"Between {' and '.join(self.raters)}, {joined}; {overall} was "
                f"{number(self.estimate)}, n = {self.n_subjects:,}.")

    def __repr__(self) -> str:
        shown = ", ".join(f"{c!r}: {r.estimate:.4g}"
                          for c, r in zip(self.categories, self.by_category, strict=True))
        return (f"CategoryResults(family={self.family!r}, estimate={self.estimate:.4g}, "
                f"by_category={{{shown}}}, n_subjects={self.n_subjects})")


# ---------------------------------------------------------------------------------------
def _cells(stats: Statistics, what: str) -> tuple[np.ndarray, np.ndarray, np.ndarray, int]:
    """Rater A's codes, rater B's codes and the counts of the occupied cells; n."""
    stats.require_raters(what, exactly=2)
    cells = stats.pair_cells
    n = int(cells.multiplicity.sum())
    if n < 1:
        raise ValueError(f"{what} needs at least one subject rated by both raters; none is "
                         f"({stats.n_missing} left out for missing ratings).")
    a, b = cells.patterns.T
    return a, b, np.asarray(cells.multiplicity, dtype=float), n


def _indicators(stats: Statistics) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Each fine pattern's complete flag and its two codes (0 where missing)."""
    complete = (stats.patterns >= 0).all(axis=1)
    a, b = np.where(complete[:, None], stats.patterns, 0).T
    return complete, a, b


def _finish(result: Result, recipe: Any, options: InferenceOptions) -> Result:
    ci = options.ci if options.ci in BOOTSTRAP_METHODS else None
    return result.with_bootstrap(recipe, ci)


def _label(category: Any) -> str:
    return str(category)


def specific_agreement(
    stats: Statistics, options: InferenceOptions, plan: ResamplingPlan,
    category: Any = None, positive: Any = None,
) -> Result:
    """Specific agreement of two raters: see :meth:`irr.Agreement.specific_agreement`."""
    a, b, m, n = _cells(stats, "Specific agreement")
    k = stats.n_categories
    cats = tuple(stats.categories)
    rows = np.bincount(a, m, k)
    cols = np.bincount(b, m, k)
    diag = np.bincount(a[a == b], m[a == b], k)
    both = rows + cols  # D_j = n_j. + n_.j
    with np.errstate(invalid="ignore", divide="ignore"):
        share = np.where(both > 0, 2 * diag / both, np.nan)
        # delta method (Graham & Bull 1998): [4 n_jj (1 - p_j)^2 + (D_j - 2 n_jj) p_j^2] / D_j^2
        var = (4 * diag * (1 - share) ** 2 + (both - 2 * diag) * share**2) / both**2
    if k == 2:
        positive_index = _positive(positive, cats)
        names = {positive_index: f"Positive agreement ({_label(cats[positive_index])})",
                 1 - positive_index: f"Negative agreement ({_label(cats[1 - positive_index])})"}
        symbols = {j: names[j][0].lower() + names[j][1:] for j in (0, 1)}
    else:
        if positive is not None:
            raise ValueError("`positive` names the positive category of two categories; "
                             f"these data have {k}: {list(cats)!r}. Use `category=`.")
        names = {j: f"Specific agreement ({_label(c)})" for j, c in enumerate(cats)}
        symbols = {j: f"specific agreement ({_label(c)})" for j, c in enumerate(cats)}
    unused = [cats[j] for j in range(k) if both[j] == 0]
    complete, fa, fb = _indicators(stats)
    missing = stats.n_missing
    notes = ["Specific agreement of category j: 2 n_jj / (n_j. + n_.j) (Dice); SE by the "
             "delta method (Graham & Bull 1998); Wald interval clipped to [0, 1]."]
    if k == 2:
        notes.append(f"Positive category: {cats[positive_index]!r} (set with `positive=`).")
    notes.extend(listwise_note(stats.n_missing))
    level = options.confidence_level
    parts = []
    wanted = range(k) if category is None else [_category_index(category, cats)]
    for j in wanted:
        if both[j] == 0:
            warnings.warn(f"Specific agreement of category {cats[j]!r} is undefined (nan): "
                          "neither rater used it.", DegenerateDataWarning, stacklevel=4)
        se = math.sqrt(var[j]) if np.isfinite(var[j]) else math.nan
        part = Result(
            coefficient=names[j], symbol=symbols[j], estimate=float(share[j]), se=se,
            ci=wald_interval(float(share[j]), se, level, (0.0, 1.0)), n_subjects=n,
            n_missing=missing, n_incomplete=missing, raters=stats.raters,
            notes=tuple(notes) if category is not None else (), bounds=(0.0, 1.0),
            scale=None)
        recipe = plan.recipe(partial(_specific_of_counts, fa, fb, complete, j), options,
                             keep=complete)
        parts.append(_finish(part, recipe, options))
    if category is not None:
        return parts[0]
    observed = float(diag.sum()) / n
    se = math.sqrt(observed * (1 - observed) / n)
    if unused:
        notes.append(f"Undefined (nan) for categories neither rater used: {list(unused)!r}.")
    return CategoryResults(
        coefficient="Percent agreement (overall)", symbol="specific agreement",
        estimate=observed, se=se,
        ci=wald_interval(observed, se, level, (0.0, 1.0)), n_subjects=n,
        n_missing=stats.n_missing, n_incomplete=stats.n_missing, raters=stats.raters,
        notes=tuple(notes), bounds=(0.0, 1.0), family="specific", categories=cats,
        by_category=tuple(parts))


def category_kappa(
    stats: Statistics, options: InferenceOptions, plan: ResamplingPlan, category: Any = None,
) -> Result:
    """Category-wise kappa of two raters: see :meth:`irr.Agreement.category_kappa`."""
    a, b, m, n = _cells(stats, "Category-wise kappa")
    k = stats.n_categories
    cats = tuple(stats.categories)
    if k < 2:
        raise ValueError("Category-wise kappa needs at least two categories; these data have "
                         f"{k}: {list(cats)!r} (declare the scale with `categories=`).")
    rows = np.bincount(a, m, k)
    cols = np.bincount(b, m, k)
    diag = np.bincount(a[a == b], m[a == b], k)
    # each category against the rest: a (k, 2, 2) batch of collapsed tables
    tables = np.empty((k, 2, 2))
    tables[:, 0, 0] = diag
    tables[:, 0, 1] = rows - diag
    tables[:, 1, 0] = cols - diag
    tables[:, 1, 1] = n - rows - cols + diag
    eye = np.eye(2)
    fit = kappa_parts(tables, eye)
    var, var0 = kappa_variances(tables, eye)
    level = options.confidence_level
    complete, fa, fb = _indicators(stats)
    missing = stats.n_missing
    notes = ["Kappa of category j against the rest: Cohen's kappa of the 2 x 2 table "
             "collapsed on j; SE Fleiss, Cohen & Everitt (1969) under the alternative "
             "(interval), z on the SE under H0."]
    notes.extend(listwise_note(stats.n_missing))
    parts = []
    wanted = range(k) if category is None else [_category_index(category, cats)]
    for j in wanted:
        estimate = float(fit.kappa[j])
        if not np.isfinite(estimate):
            warnings.warn(f"Kappa of category {cats[j]!r} against the rest is undefined "
                          "(nan): both raters put every subject on the same side.",
                          DegenerateDataWarning, stacklevel=4)
        se, se0 = (math.sqrt(v) if np.isfinite(v) else math.nan for v in (var[j], var0[j]))
        z = estimate / se0 if se0 > 0 else math.nan
        part = Result(
            coefficient=f"Kappa ({_label(cats[j])} vs rest)",
            symbol=f"κ ({_label(cats[j])} vs rest)", estimate=estimate,
            se=se, statistic=z, pvalue=normal_pvalue(z, options.alternative),
            alternative=options.alternative,
            ci=wald_interval(estimate, se, level, (-1.0, 1.0)), n_subjects=n,
            n_missing=missing, n_incomplete=missing, raters=stats.raters,
            notes=tuple(notes) if category is not None else ())
        recipe = plan.recipe(partial(_kappa_of_counts, fa, fb, complete, j), options,
                             keep=complete)
        parts.append(_finish(part, recipe, options))
    if category is not None:
        return parts[0]
    overall = identity_kappa(a, b, m, k)
    se = (math.sqrt(float(m @ overall.influence**2)) / n if np.isfinite(overall.kappa)
          else math.nan)
    z = overall.kappa / math.sqrt(overall.var0) if overall.var0 > 0 else math.nan
    notes.append("Overall: Cohen's kappa, the mean of the category kappas weighted by "
                 "p_j. + p_.j - 2 p_j. p_.j." + (
                     " With two categories each category-vs-rest table is the table itself, "
                     "so every row is Cohen's kappa." if k == 2 else ""))
    return CategoryResults(
        coefficient="Cohen's kappa (overall)", symbol="category-wise κ",
        estimate=float(overall.kappa),
        se=se, statistic=z, pvalue=normal_pvalue(z, options.alternative),
        alternative=options.alternative,
        ci=wald_interval(float(overall.kappa), se, level, (-1.0, 1.0)), n_subjects=n,
        n_missing=stats.n_missing, n_incomplete=stats.n_missing, raters=stats.raters,
        notes=tuple(notes), family="kappa", categories=cats, by_category=tuple(parts),
        scale="landis-koch")  # the overall row is Cohen's kappa: banded as ag.kappa() is


def _positive(positive: Any, categories: tuple) -> int:
    """The index of the positive category of two (default the second: 1 of 0/1, True of
    False/True, the later of two declared labels)."""
    if positive is None:
        return 1
    return _category_index(positive, categories, "positive")


def _category_index(category: Any, categories: tuple, argument: str = "category") -> int:
    for j, c in enumerate(categories):
        if c == category or (not isinstance(category, (int, float)) and str(c) == str(category)):
            return j
    raise ValueError(f"`{argument}` must be one of the categories {list(categories)!r}; "
                     f"got {category!r}.")


def _specific_of_counts(first: np.ndarray, second: np.ndarray, complete: np.ndarray,
                        category: int, batch: np.ndarray) -> np.ndarray:
    """Specific agreement of `category` in resampled counts over the fine patterns (codes
    `first`, `second`; `complete` marks the patterns rated by both), (b, P) -> (b,).

    The pattern indicators are built here, when the bootstrap is drawn, so that a result
    of k categories costs O(k) to build, not O(k x patterns).
    """
    a, b = (first == category) & complete, (second == category) & complete
    batch = np.asarray(batch, dtype=float)
    top = 2.0 * (batch @ (a & b).astype(float))
    bottom = batch @ a.astype(float) + batch @ b.astype(float)
    with np.errstate(invalid="ignore", divide="ignore"):
        return np.where(bottom > 0, top / bottom, np.nan)


def _kappa_of_counts(first: np.ndarray, second: np.ndarray, complete: np.ndarray,
                     category: int, batch: np.ndarray) -> np.ndarray:
    """Kappa of `category` against the rest in resampled counts, (b, P) -> (b,)."""
    a, b = (first == category) & complete, (second == category) & complete
    batch = np.asarray(batch, dtype=float)
    n = batch @ complete.astype(float)
    x, y, xy = (batch @ a.astype(float) / n, batch @ b.astype(float) / n,
                batch @ (a & b).astype(float) / n)
    disagree = x + y - 2 * xy  # 1 - p_o
    expected = x * (1 - y) + y * (1 - x)  # 1 - p_e
    with np.errstate(invalid="ignore", divide="ignore"):
        return np.where(expected > 0, 1.0 - disagree / expected, np.nan)
