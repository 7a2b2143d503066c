"""PABAK (prevalence-adjusted bias-adjusted kappa) of two raters, with Byrt, Bishop &
Carlin's prevalence and bias indices, and Maxwell's RE (its binary case)."""

from __future__ import annotations

import math
from dataclasses import dataclass, replace
from functools import partial
from typing import Any, ClassVar

import numpy as np

from irr._statistics import Statistics
from irr._validation import check_choice
from irr.inference.options import InferenceOptions
from irr.inference.plan import ResamplingPlan
from irr.results import ConfidenceInterval, Result, wilson_interval
from irr.summary import listwise_note

__all__ = ["PabakResult", "pabak", "pabak_of_share"]


def pabak_of_share(share: Any, n_categories: int) -> Any:
    """PABAK of the observed agreement `share` on `n_categories` categories:
    ``(k p_o - 1) / (k - 1)`` (``2 p_o - 1`` for two categories).

    Examples
    --------
    >>> pabak_of_share(0.85, 2)
    0.7
    >>> round(pabak_of_share(0.5, 3), 4)
    0.25
    """
    return (n_categories * share - 1.0) / (n_categories - 1.0)


@dataclass(frozen=True, eq=False, kw_only=True, repr=False)
class PabakResult(Result):
    """PABAK (or Maxwell's RE) with the prevalence and bias indices.

    Adds ``observed_agreement`` (p_o), ``count`` (agreeing subjects),
    ``n_categories``, ``prevalence_index`` ``(n_11 - n_22) / n`` and ``bias_index``
    ``(n_12 - n_21) / n`` (signed, first category as "positive"; nan unless there are two
    categories) and ``kappa`` (Cohen's kappa of the same table, which these three
    determine: see :meth:`irr.Agreement.pabak`).

    Examples
    --------
    >>> import irr
    >>> res = irr.Agreement.from_table([[40, 9], [6, 45]]).pabak(positive=0)
    >>> round(res.estimate, 4), round(res.prevalence_index, 4), round(res.bias_index, 4)
    (0.7, -0.05, 0.03)
    """

    observed_agreement: float
    count: int
    n_categories: int
    prevalence_index: float = math.nan
    bias_index: float = math.nan
    kappa: float = math.nan

    interval_methods: ClassVar[tuple[str, ...]] = ("wilson", *Result.interval_methods)

    def _interval(self, level: float, method: str) -> ConfidenceInterval:
        if method == "wilson":  # Wilson's interval of p_o, through the increasing map to PABAK
            low, high = wilson_interval(self.count, self.n_subjects, level)
            k = self.n_categories
            return ConfidenceInterval(pabak_of_share(low, k), pabak_of_share(high, k),
                                      level, "wilson")
        return super()._interval(level, method)

    def _extras(self) -> dict[str, Any]:
        return {"observed_agreement": self.observed_agreement, "count": self.count,
                "n_categories": self.n_categories, "prevalence_index": self.prevalence_index,
                "bias_index": self.bias_index, "kappa": self.kappa}


def pabak(
    stats: Statistics, options: InferenceOptions, plan: ResamplingPlan,
    name: str = "pabak", positive: Any = None,
) -> PabakResult:
    """PABAK of two raters (``name='pabak'``), or Maxwell's RE (``name='maxwell'``: two
    categories required). See :meth:`irr.Agreement.pabak`."""
    check_choice(name, "name", ("pabak", "maxwell"))
    stats.require_raters("PABAK" if name == "pabak" else "Maxwell's RE", exactly=2)
    ci = "wilson" if options.ci is None else options.ci
    check_choice(ci, "ci", PabakResult.interval_methods)
    k = stats.n_categories
    if name == "maxwell" and k != 2:
        raise ValueError(
            "Maxwell's RE is defined for binary ratings (two categories); these data have "
            f"{k}: {_plain(stats.categories)!r}. Use pabak() for k categories "
            "((k p_o - 1) / (k - 1), the Brennan-Prediger coefficient of two raters)."
        )
    if k < 2:
        raise ValueError(
            "PABAK needs at least two categories (declare the scale with `categories=`); "
            f"these data have {k}: {_plain(stats.categories)!r}."
        )
    cells = stats.pair_cells
    n = int(cells.multiplicity.sum())
    if n == 0:
        raise ValueError("PABAK needs at least one subject rated by both raters; none is "
                         f"({stats.n_missing} left out for missing ratings).")
    a_cell, b_cell = cells.patterns.T
    count = int(cells.multiplicity[a_cell == b_cell].sum())
    share = count / n
    estimate = float(pabak_of_share(share, k))
    se = k / (k - 1) * math.sqrt(share * (1 - share) / n)
    notes = []
    prevalence = bias = kappa = math.nan
    if k == 2:
        table = np.zeros((2, 2))
        np.add.at(table, (a_cell, b_cell), cells.multiplicity)
        p = table / n
        yes = 1 if positive is None else _index(positive, tuple(stats.categories))
        no = 1 - yes
        prevalence = float(p[yes, yes] - p[no, no])
        bias = float(p[yes, no] - p[no, yes])
        expected = float(p.sum(axis=1) @ p.sum(axis=0))
        kappa = (share - expected) / (1 - expected) if expected < 1 else math.nan
        label = stats.categories[yes]
        label = label.item() if isinstance(label, np.generic) else label  # 1, not np.int64(1)
        notes.append(f"Prevalence index (a - d)/n = {prevalence:.4f} and bias index "
                     f"(b - c)/n = {bias:.4f} (Byrt, Bishop & Carlin 1993), {label!r} the "
                     f"positive category: a both raters {label!r}, b only {stats.raters[0]}.")
    else:
        if positive is not None:
            raise ValueError("`positive` names the positive category of two categories; "
                             f"these data have {k}: {_plain(stats.categories)!r}.")
        notes.append(f"PABAK for {k} categories: (k p_o - 1) / (k - 1), the Brennan-Prediger "
                     "coefficient of two raters; the prevalence and bias indices are defined "
                     "for two categories only.")
    if name == "maxwell":
        notes.insert(0, "Maxwell's RE = 2 p_o - 1 (Maxwell 1977; PABAK of a 2 x 2 table).")
    notes.append("Interval: Wilson's interval of p_o, transformed; SE k/(k-1) sqrt(p_o(1 - "
                 "p_o)/n).")
    notes.extend(listwise_note(stats.n_missing))
    level = options.confidence_level
    low, high = wilson_interval(count, n, level)
    result = PabakResult(
        coefficient="PABAK" if name == "pabak" else "Maxwell's RE",
        symbol="PABAK" if name == "pabak" else "Maxwell's RE",
        estimate=estimate,
        se=se,
        ci=ConfidenceInterval(pabak_of_share(low, k), pabak_of_share(high, k), level,
                              "wilson"),
        n_subjects=n,
        n_missing=stats.n_missing,
        n_incomplete=stats.n_missing,
        raters=stats.raters,
        notes=tuple(notes),
        observed_agreement=share,
        count=count,
        n_categories=k,
        prevalence_index=prevalence,
        bias_index=bias,
        kappa=kappa,
    )
    complete = (stats.patterns >= 0).all(axis=1)
    agrees = (complete & (stats.patterns[:, 0] == stats.patterns[:, 1])).astype(float)
    recipe = plan.recipe(partial(_pabak_of_counts, agrees, complete.astype(float), k),
                         options, keep=complete)
    result = result.with_bootstrap(recipe, ci if ci != "wilson" else None)
    if ci == "wald":
        result = replace(result, ci=result.conf_int(level, "wald"))
    return result


def _plain(categories: Any) -> list[Any]:
    """The categories as Python values (``[0, 1]``, not ``[np.int64(0), np.int64(1)]``)."""
    return [c.item() if isinstance(c, np.generic) else c for c in categories]


def _index(category: Any, categories: tuple) -> int:
    for j, c in enumerate(categories):
        if c == category or (isinstance(category, str) and str(c) == category):
            return j
    raise ValueError(f"`positive` must be one of the categories {list(categories)!r}; got "
                     f"{category!r}.")


def _pabak_of_counts(agrees: np.ndarray, rated: np.ndarray, n_categories: int,
                     batch: np.ndarray) -> np.ndarray:
    """PABAK of resampled counts over the fine patterns, (b, P) -> (b,).

    Module-level (bound with :func:`functools.partial`), so the recipe pickles.
    """
    batch = np.asarray(batch, dtype=float)
    return pabak_of_share(batch @ agrees / (batch @ rated), n_categories)
