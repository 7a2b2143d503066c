"""Subjects needed for a study of kappa: a test of kappa = kappa0, or an interval of a
given lower (and upper) limit.

Two methods:

- ``'goodness-of-fit'`` (Donner & Eliasziw, 1992; 2 to 10 raters and 2 to 10 categories
  as Rotondi & Donner, 2012): each subject's ratings are summarised by how many raters
  chose each category, in the cells of :func:`cell_probabilities` (for a binary rating,
  how many raters said positive; for more categories, unanimous in each category or
  not), and the chi-square goodness-of-fit test of
  ``kappa = kappa0`` has non-centrality ``n * sum (P(kappa1) - P(kappa0))**2 / P(kappa0)``.
- ``'cantor'`` (Cantor, 1996): two raters, a binary rating, each rater with their own
  positive rate; the z test of Cohen's kappa with the Fleiss, Cohen & Everitt (1969)
  variance evaluated at ``kappa0`` (for the critical value) and at ``kappa1``.
- ``'flack'`` (Flack, Afifi, Lachenbruch & Schouten, 1988): two raters, two or more
  categories with the same anticipated marginal proportions for both raters; the same z
  test, each variance the largest Fleiss–Cohen–Everitt variance over every table with
  those margins and that kappa (:func:`flack_variance`), as R irr's ``N2.cohen.kappa``.
"""

from __future__ import annotations

import math
from functools import partial
from typing import Any

import numpy as np

from irr._validation import check_choice, check_integer, check_open_unit, show_value
from irr.coefficients.kappa import kappa_variances
from irr.plan.plan_result import (
    MAX_SUBJECTS,
    PlanResult,
    as_values,
    check_hypotheses,
    check_n,
    check_power_or_n,
    design_grid,
    is_reached,
    percent,
    put_solved,
    solve_n,
)

__all__ = [
    "MAX_CATEGORIES",
    "MAX_RATERS",
    "cantor_variance",
    "cell_probabilities",
    "flack_table",
    "flack_variance",
    "gof_noncentrality",
    "kappa",
    "kappa_interval",
]

#: The most raters and categories of the goodness-of-fit method.
MAX_RATERS = 10
MAX_CATEGORIES = 10

DONNER_ELIASZIW = (
    "Donner, A., & Eliasziw, M. (1992). A goodness-of-fit approach to inference procedures "
    "for the kappa statistic: confidence interval construction, significance-testing and "
    "sample size estimation. Statistics in Medicine, 11(11), 1511-1519. "
    "https://doi.org/10.1002/sim.4780111109"
)
ROTONDI_DONNER = (
    "Rotondi, M. A., & Donner, A. (2012). A confidence interval approach to sample size "
    "estimation for interobserver agreement studies with multiple raters and outcomes. "
    "Journal of Clinical Epidemiology, 65(7), 778-784. "
    "https://doi.org/10.1016/j.jclinepi.2011.10.019"
)
CANTOR = (
    "Cantor, A. B. (1996). Sample-size calculations for Cohen's kappa. Psychological "
    "Methods, 1(2), 150-153. https://doi.org/10.1037/1082-989X.1.2.150"
)
FLACK = (
    "Flack, V. F., Afifi, A. A., Lachenbruch, P. A., & Schouten, H. J. A. (1988). Sample "
    "size determinations for the two rater kappa statistic. Psychometrika, 53(3), 321-325. "
    "https://doi.org/10.1007/BF02294215"
)


def cell_probabilities(kappa: Any, proportions: Any, raters: int) -> np.ndarray:
    r"""Probabilities of the goodness-of-fit cells of Rotondi & Donner (2012), per subject.

    Binary rating (two proportions ``(p, 1 - p)``, ``p`` the prevalence): the cells are
    "exactly j of the R raters say positive", ``j = 0 .. R``, under the common
    correlation model, a mixture of independent ratings and perfect agreement:

    .. math:: P_j = (1 - \kappa) \binom{R}{j} p^j (1-p)^{R-j}
              + \kappa\,[p \text{ if } j = R;\ 1 - p \text{ if } j = 0].

    Three or more categories: the cells are "all R raters choose category j" (the
    exchangeable Dirichlet-multinomial probability
    :math:`\prod_{i=0}^{R-1} ((1-\kappa) p_j + i\kappa) / ((1-\kappa) + i\kappa)`)
    and one pooled cell "the raters disagree". With two raters both give Donner &
    Eliasziw's (1992) cells ``p**2 + kappa p (1 - p)`` and ``2 (1 - kappa) p (1 - p)``.
    `kappa` may be an array (leading axes); the cells are the last axis.

    Examples
    --------
    >>> cell_probabilities(0.6, [0.3, 0.7], 2).round(4).tolist()
    [0.616, 0.168, 0.216]
    """
    kappa = np.asarray(kappa, dtype=float)[..., None]
    p = np.asarray(proportions, dtype=float)
    if p.size == 2:
        j = np.arange(raters + 1)
        binomial = np.array([math.comb(raters, int(i)) for i in j]) * p[0] ** j \
            * p[1] ** (raters - j)
        perfect = np.where(j == raters, p[0], np.where(j == 0, p[1], 0.0))
        return (1 - kappa) * binomial + kappa * perfect
    i = np.arange(raters)
    k = kappa[..., None]  # (..., 1, 1)
    agree = np.prod(((1 - k) * p[:, None] + i * k) / ((1 - k) + i * k), axis=-1)
    return np.concatenate([1 - agree.sum(axis=-1, keepdims=True), agree], axis=-1)


def gof_noncentrality(kappa0: Any, kappa1: Any, proportions: Any, raters: int) -> np.ndarray:
    """Per-subject non-centrality of the goodness-of-fit test of kappa = kappa0 when the
    true value is kappa1: ``sum (P(kappa1) - P(kappa0))**2 / P(kappa0)`` over the cells
    of :func:`cell_probabilities` (Donner & Eliasziw, 1992).

    Examples
    --------
    >>> round(float(gof_noncentrality(0.4, 0.7, [0.5, 0.5], 2)), 5)
    0.10713
    """
    p0 = cell_probabilities(kappa0, proportions, raters)
    p1 = cell_probabilities(kappa1, proportions, raters)
    return ((p1 - p0) ** 2 / p0).sum(axis=-1)


def _cantor_table(kappa: float, rate1: float, rate2: float) -> np.ndarray:
    """The 2 x 2 cell probabilities with these positive rates and Cohen's kappa."""
    expected = rate1 * rate2 + (1 - rate1) * (1 - rate2)
    observed = expected + kappa * (1 - expected)
    both = (observed - 1 + rate1 + rate2) / 2  # p11: p11 + p22 = observed, margins fixed
    return np.array([[both, rate1 - both], [rate2 - both, 1 - rate1 - rate2 + both]])


def cantor_variance(kappa: float, rate1: float, rate2: float) -> float:
    """n times the large-sample variance of Cohen's kappa (Fleiss, Cohen & Everitt, 1969)
    at the 2 x 2 table with positive rates `rate1`, `rate2` and kappa `kappa`.

    Examples
    --------
    >>> round(cantor_variance(0.7, 0.5, 0.5), 4)
    0.51
    """
    table = _cantor_table(kappa, rate1, rate2)
    if np.any(table < 0):
        raise ValueError(
            f"no 2 x 2 table has positive rates {rate1:g} and {rate2:g} and kappa "
            f"{kappa:g} (a cell would be negative); choose a smaller kappa or closer rates.")
    var, _ = kappa_variances(table, np.eye(2))
    return float(var)


def flack_table(kappa: float, proportions: Any) -> np.ndarray:
    r"""The k x k table of cell probabilities with both raters' margins `proportions` and
    Cohen's kappa `kappa` at which the large-sample variance of kappa is largest
    (Flack, Afifi, Lachenbruch & Schouten, 1988).

    With the margins and kappa fixed, so are :math:`p_e = \sum_i p_i^2` and
    :math:`p_o = p_e + \kappa (1 - p_e)`, and the Fleiss, Cohen & Everitt (1969) variance
    is linear in the cells: :math:`\sum_{ij} \pi_{ij} [\delta_{ij} (1 - p_e) - (p_i + p_j)
    (1 - p_o)]^2` plus a constant. Its maximum over the tables with these margins and
    diagonal sum :math:`p_o` is a linear programme (solved by HiGHS).

    Examples
    --------
    >>> t = flack_table(0.6, [0.2, 0.25, 0.55])
    >>> t.sum(axis=0).round(6).tolist(), round(float(np.trace(t)), 6)
    ([0.2, 0.25, 0.55], 0.762)
    """
    from scipy.optimize import linprog

    p = np.asarray(proportions, dtype=float)
    k = p.size
    expected = float(p @ p)
    observed = expected + kappa * (1 - expected)
    eye = np.eye(k)
    cost = (eye * (1 - expected) - (p[:, None] + p[None, :]) * (1 - observed)) ** 2
    rows = np.kron(eye, np.ones((1, k)))  # row sums of the flattened table
    cols = np.kron(np.ones((1, k)), eye)  # column sums
    equalities = np.vstack([rows, cols, eye.reshape(1, -1)])
    targets = np.concatenate([p, p, [observed]])
    solution = linprog(-cost.ravel(), A_eq=equalities, b_eq=targets, bounds=(0, None),
                       method="highs")
    if solution.status != 0:
        raise ValueError(f"no table has margins {show_value(p.tolist())} and kappa "
                         f"{kappa:g}; choose another kappa.")
    return np.maximum(solution.x.reshape(k, k), 0.0)


def flack_variance(kappa: float, proportions: Any) -> float:
    """n times the largest large-sample variance of Cohen's kappa (Fleiss, Cohen &
    Everitt, 1969) over the tables with both raters' margins `proportions` and kappa
    `kappa` (:func:`flack_table`).

    Examples
    --------
    >>> round(flack_variance(0.6, [0.2, 0.25, 0.55]), 4)
    0.5442
    """
    var, _ = kappa_variances(flack_table(kappa, proportions), np.eye(len(proportions)))
    return float(var)


def _check_kappa(value: Any, name: str) -> float:
    if isinstance(value, bool) or not isinstance(value, int | float | np.floating | np.integer):
        raise TypeError(f"`{name}` must be a real number in (0, 1); got {show_value(value)}.")
    value = float(value)
    if not 0.0 <= value < 1.0:
        raise ValueError(f"`{name}` must be in [0, 1); got {show_value(value)}.")
    return value


def _check_proportions(value: Any, categories: int | None, name: str = "proportions"
                       ) -> tuple[float, ...]:
    try:
        p = np.asarray(value, dtype=float).ravel()
    except (TypeError, ValueError):
        p = np.array([np.nan])
    if p.size < 2 or np.any(~np.isfinite(p)) or np.any(p <= 0) or abs(p.sum() - 1) > 1e-6:
        raise ValueError(f"`{name}` must be two or more positive category proportions "
                         f"summing to 1 (for a binary rating, give `prevalence`); got "
                         f"{show_value(value)}.")
    if categories is not None and p.size != categories:
        raise ValueError(f"`{name}` has {p.size} entries but `categories` = {categories}.")
    if p.size > MAX_CATEGORIES:
        raise ValueError(f"`{name}`: at most {MAX_CATEGORIES} categories; got {p.size}.")
    return tuple(float(v) for v in p / p.sum())


def _proportion_list(proportions: Any, categories: Any, prevalence: Any = None
                     ) -> list[tuple[float, ...]]:
    """One category-proportion vector per row: from `prevalence` (binary; a number or a
    sequence), `proportions` (one vector or a sequence of vectors) or `categories`
    (equally likely; a number or a sequence); default a binary rating, prevalence 0.5."""
    given = [name for name, v in (("prevalence", prevalence), ("proportions", proportions))
             if v is not None]
    if len(given) > 1:
        raise ValueError("give `prevalence` (a binary rating) or `proportions`, not both.")
    if prevalence is not None:
        if categories not in (None, 2):
            raise ValueError(f"`prevalence` is for a binary rating; got "
                             f"`categories={categories!r}`.")
        return [(v, 1 - v) for v in as_values(prevalence, "prevalence", check_open_unit)]
    if proportions is None:
        ks = as_values(2 if categories is None else categories, "categories",
                       lambda v, name: check_integer(v, name, minimum=2))
        for k in ks:
            if k > MAX_CATEGORIES:
                raise ValueError(f"`categories` must be at most {MAX_CATEGORIES}; got {k}.")
        return [tuple([1.0 / k] * k) for k in ks]
    k = None if categories is None else check_integer(categories, "categories", minimum=2)
    nested = not isinstance(proportions, str | bytes) and np.ndim(proportions) >= 1 and len(
        proportions) > 0 and np.ndim(proportions[0] if not hasattr(proportions, "iloc")
                                     else proportions.iloc[0]) == 1
    if nested:
        return [_check_proportions(v, k) for v in proportions]
    return [_check_proportions(proportions, k)]


def _check_raters(value: Any, name: str) -> int:
    r = check_integer(value, name, minimum=2)
    if r > MAX_RATERS:
        raise ValueError(f"`{name}` must be at most {MAX_RATERS}; got {r}.")
    return r


def _gof_power(n: np.ndarray, delta: np.ndarray, alpha: np.ndarray, sides: np.ndarray
               ) -> np.ndarray:
    from scipy.stats import norm

    lam = np.asarray(n, dtype=float) * delta
    return norm.cdf(np.sqrt(lam) - norm.isf(alpha / sides))


def _z_power(n: np.ndarray, diff: np.ndarray, v0: np.ndarray, v1: np.ndarray,
             alpha: np.ndarray, sides: np.ndarray) -> np.ndarray:
    from scipy.stats import norm

    z = norm.isf(alpha / sides)
    return norm.cdf((np.abs(diff) * np.sqrt(np.asarray(n, float)) - z * np.sqrt(v0))
                    / np.sqrt(v1))


def _kappa_sentence(row: dict[str, Any]) -> str:
    raters = int(row["raters"])
    k = len(row["proportions"])
    scale = "a binary rating" if k == 2 else f"a rating scale with {k} categories"
    sided = "two-sided" if row["alternative"] == "two-sided" else "one-sided"
    cite = {"goodness-of-fit": "Donner & Eliasziw, 1992" if raters == 2 and k == 2 else
            "Rotondi & Donner, 2012", "flack": "Flack et al., 1988"}.get(row["method"],
                                                                       "Cantor, 1996")
    if not is_reached(row["n"]):
        return (f"No number of subjects up to {MAX_SUBJECTS:,} gives "
                f"{percent(row['target_power'])} power for the test of kappa = "
                f"{row['kappa0']:g} against kappa = {row['kappa1']:g}: the target cannot be "
                f"reached ({cite}).")
    n = int(row["n"])
    sentence = (f"With {n:,} subjects rated by {raters} raters on {scale}, a {sided} test of "
                f"kappa = {row['kappa0']:g} against kappa = {row['kappa1']:g} has "
                f"{100 * row['power']:.0f}% power at the {percent(row['alpha'])} level "
                f"({cite}).")
    if row.get("min_expected", math.inf) < 5:
        sentence += (f" The smallest expected cell count is {row['min_expected']:.1f} (below "
                     "5), so this approximation may promise too much power; confirm it by "
                     "simulation (irr.plan.simulate).")
    return sentence


def kappa(
    kappa0: float | Any,
    kappa1: float | Any,
    *,
    raters: int | Any = 2,
    categories: int | Any | None = None,
    proportions: Any = None,
    prevalence: float | Any | None = None,
    power: float | Any | None = None,
    n: int | Any | None = None,
    alpha: float | Any = 0.05,
    alternative: str = "two-sided",
    method: str = "goodness-of-fit",
    rates: Any = None,
) -> PlanResult:
    """Subjects needed for a test of kappa = ``kappa0`` to detect ``kappa1``, or the
    power of a given number of subjects.

    Each of `kappa0`, `kappa1`, `raters`, `categories` (or several `proportions`),
    `power`, `n` and `alpha` may be a sequence: one row per combination.

    Parameters
    ----------
    kappa0 : float or sequence of float
        Kappa under the null hypothesis, in [0, 1).
    kappa1 : float or sequence of float
        The kappa the study should detect, in [0, 1).
    raters : int or sequence of int, default 2
        Raters per subject, 2 to 10 (``'goodness-of-fit'``; ``'cantor'`` needs 2).
    categories : int or sequence of int, optional
        Number of categories, 2 to 10, equally likely; or give `proportions` or
        `prevalence`. Default: a binary rating with prevalence 0.5.
    proportions : sequence of float, or sequence of sequences, optional
        The anticipated proportion of subjects in each category (summing to 1).
        Several vectors give one row each.
    prevalence : float or sequence of float, optional
        For a binary rating, the anticipated proportion of positive subjects (instead
        of `proportions`).
    power : float or sequence of float, optional
        Target power; default 0.8 when `n` is not given. Give `power` or `n`.
    n : int or sequence of int, optional
        Subjects: the power at these ``n``.
    alpha : float or sequence of float, default 0.05
        Significance level.
    alternative : {'two-sided', 'greater', 'less'}, default 'two-sided'
        ``'two-sided'``: the chi-square goodness-of-fit test (Donner & Eliasziw's, and
        kappaSize's, "two-sided significance level"); one-sided: its signed square root
        (the z test for ``'cantor'``), at level `alpha` in the direction of `kappa1`.
    method : {'goodness-of-fit', 'cantor', 'wald', 'flack'}, default 'goodness-of-fit'
        See the Notes. ``'cantor'`` and ``'wald'`` are two raters and a binary rating;
        ``'wald'`` plans for the test the package itself runs (the Wald interval of
        :meth:`irr.Agreement.kappa` excluding ``kappa0``); ``'flack'`` is two raters and
        two or more categories, `proportions` being both raters' margins (R irr's
        ``N2.cohen.kappa(mrg, k1, k0)``).
    rates : (float, float), optional
        ``'cantor'`` and ``'wald'`` only: each rater's positive rate (default both equal
        to `prevalence`, else 0.5).

    Returns
    -------
    PlanResult
        Columns: the inputs, then ``n`` (subjects) and ``power`` (at that n), or
        ``power`` alone when `n` was given; for the goodness-of-fit method also
        ``min_expected``, the smallest expected cell count under ``kappa0`` at ``n``
        (below 5 a note says the chi-square approximation is poor, as kappaSize warns).

    Raises
    ------
    TypeError, ValueError
        For kappas outside [0, 1), ``kappa1 == kappa0``, proportions that are not
        positive or do not sum to 1, raters or categories out of range, both `power` and
        `n`, ``method='cantor'`` with more than two raters or categories,
        ``method='flack'`` with more than two raters.

    Notes
    -----
    Goodness of fit: with :math:`P_l(\\kappa)` the cell probabilities
    (:func:`cell_probabilities`), the test of :math:`\\kappa = \\kappa_0` has, when
    :math:`\\kappa = \\kappa_1`, non-centrality
    :math:`\\lambda = n \\sum_l (P_l(\\kappa_1) - P_l(\\kappa_0))^2 / P_l(\\kappa_0)` on 1
    degree of freedom, and power :math:`\\Phi(\\sqrt\\lambda - z_{1-\\alpha/s})` (``s = 2``
    two-sided, 1 one-sided; the chance of rejecting in the wrong direction is left out),
    so that :math:`n = (z_{1-\\alpha/s} + z_{1-\\beta})^2 / \\sum_l \\dots`, rounded up:
    Donner & Eliasziw (1992) for two raters and a binary rating, and Rotondi & Donner's
    (2012) cells for 2 to 10 raters and 2 to 10 categories, as R's kappaSize
    (``PowerBinary``, ``Power3Cats`` ...).

    Cantor: :math:`n = [(z_{\\alpha} \\sqrt{Q_0} + z_\\beta \\sqrt{Q_1}) /
    (\\kappa_1 - \\kappa_0)]^2`, with :math:`Q` the Fleiss–Cohen–Everitt variance
    (:func:`cantor_variance`) at the table with the raters' positive rates and kappa
    :math:`\\kappa_0` or :math:`\\kappa_1`. It reproduces R irr's ``N.cohen.kappa``
    documented example (96 subjects).

    Flack: as Cantor, for two raters with the same margins on k categories, each
    :math:`Q` the largest Fleiss–Cohen–Everitt variance over every table with these
    margins and that kappa (:func:`flack_variance`, a linear programme): the plan holds
    whatever the pattern of disagreements (Flack, Afifi, Lachenbruch & Schouten, 1988).
    It reproduces R irr's ``N2.cohen.kappa`` (101, 136 and 18 subjects for its three
    documented examples). With two categories the table is determined and it equals
    Cantor's plan with equal rates.

    Wald: as Cantor with :math:`Q_1` in place of :math:`Q_0`: the power of the Wald
    interval of :meth:`irr.Agreement.kappa` (SE of Fleiss, Cohen & Everitt at the
    estimate) excluding :math:`\\kappa_0`. For the same design it needs fewer subjects
    than the goodness-of-fit or Cantor plans when :math:`\\kappa_1 > \\kappa_0`, because
    the variance of kappa falls as kappa grows; the simulation tests of the package check
    each plan against the test it is for.

    References
    ----------
    Donner, A., & Eliasziw, M. (1992). Statistics in Medicine, 11, 1511-1519.
    https://doi.org/10.1002/sim.4780111109

    Rotondi, M. A., & Donner, A. (2012). Journal of Clinical Epidemiology, 65, 778-784.
    https://doi.org/10.1016/j.jclinepi.2011.10.019

    Cantor, A. B. (1996). Psychological Methods, 1, 150-153.
    https://doi.org/10.1037/1082-989X.1.2.150

    Flack, V. F., Afifi, A. A., Lachenbruch, P. A., & Schouten, H. J. A. (1988).
    Psychometrika, 53, 321-325. https://doi.org/10.1007/BF02294215

    Examples
    --------
    >>> import irr
    >>> res = irr.plan.kappa(0.4, 0.6, raters=3, categories=4, power=0.8)
    >>> int(res.n)
    49
    >>> print(res.report())  # doctest: +NORMALIZE_WHITESPACE
    With 49 subjects rated by 3 raters on a rating scale with 4 categories, a two-sided test
    of kappa = 0.4 against kappa = 0.6 has 81% power at the 5% level (Rotondi & Donner,
    2012). The smallest expected cell count is 4.6 (below 5), so this approximation may
    promise too much power; confirm it by simulation (irr.plan.simulate).
    >>> irr.plan.kappa(0.85, 0.7, method="cantor", rates=(0.5, 0.5),
    ...                alternative="less").n.item()
    96
    >>> irr.plan.kappa(0.4, 0.6, method="flack", proportions=[0.2, 0.25, 0.55],
    ...                alternative="greater").n.item()
    101
    """
    method = check_choice(method, "method", ("goodness-of-fit", "cantor", "wald", "flack"))
    alternative = check_choice(alternative, "alternative", ("two-sided", "greater", "less"))
    k0s = as_values(kappa0, "kappa0", _check_kappa)
    k1s = as_values(kappa1, "kappa1", _check_kappa)
    check_power_or_n(power, n)
    check_hypotheses(k0s, k1s, ("kappa0", "kappa1"), alternative)
    props = _proportion_list(proportions, categories, prevalence)
    rater_list = as_values(raters, "raters", _check_raters)
    if method in ("cantor", "wald"):
        if any(r != 2 for r in rater_list) or any(len(p) != 2 for p in props):
            raise ValueError(f"`method={method!r}` is for two raters and a binary rating; "
                             f"got `raters={raters!r}` and {len(props[0])} categories.")
        if rates is not None:
            r = np.asarray(rates, dtype=float)
            if r.shape != (2,) or np.any(~(r > 0)) or np.any(~(r < 1)):
                raise ValueError("`rates` must be two positive rates in (0, 1), one per "
                                 f"rater; got {show_value(rates)}.")
            props = [(float(r[0]), 1 - float(r[0]))]
            rate_pair = (float(r[0]), float(r[1]))
        else:
            rate_pair = None
    elif rates is not None:
        raise ValueError("`rates` is only used by `method='cantor'` or `method='wald'`.")
    if method == "flack" and any(r != 2 for r in rater_list):
        raise ValueError(f"`method='flack'` is for two raters; got `raters={raters!r}`.")
    alphas = as_values(alpha, "alpha", check_open_unit)
    last = ("n", as_values(n, "n", check_n)) if n is not None else (
        "target_power", as_values(0.8 if power is None else power, "power", check_open_unit))
    grid = design_grid(kappa0=k0s, kappa1=k1s, raters=rater_list,
                       proportions=props, alpha=alphas, **{last[0]: last[1]})
    grid["alternative"] = alternative
    grid["method"] = method
    sides = 2 if alternative == "two-sided" else 1
    alphas_ = grid["alpha"].to_numpy()

    if method == "flack":
        v0 = np.array([flack_variance(k, p) for k, p in zip(grid["kappa0"],
                                                             grid["proportions"], strict=True)])
        v1 = np.array([flack_variance(k, p) for k, p in zip(grid["kappa1"],
                                                             grid["proportions"], strict=True)])
        diff = (grid["kappa1"] - grid["kappa0"]).to_numpy()

        evaluate = partial(_evaluate_z, diff, v0, v1, alphas_, sides)
    elif method in ("cantor", "wald"):
        pairs = [rate_pair or (p[0], p[0]) for p in grid["proportions"]]
        v0 = np.array([cantor_variance(k, *rp) for k, rp in zip(grid["kappa0"], pairs,
                                                                   strict=True)])
        v1 = np.array([cantor_variance(k, *rp) for k, rp in zip(grid["kappa1"], pairs,
                                                                   strict=True)])
        if method == "wald":  # the interval's SE, at the estimate (about kappa1)
            v0 = v1
        if rate_pair is not None:
            grid["rates"] = [rate_pair] * len(grid)

        diff = (grid["kappa1"] - grid["kappa0"]).to_numpy()
        evaluate = partial(_evaluate_z, diff, v0, v1, alphas_, sides)
    else:
        delta = np.array([float(gof_noncentrality(k0, k1, p, r)) for k0, k1, p, r in zip(
            grid["kappa0"], grid["kappa1"], grid["proportions"], grid["raters"],
            strict=True)])

        evaluate = partial(_evaluate_gof, delta, alphas_, sides)

    every = np.arange(len(grid))
    if n is not None:
        grid["power"] = evaluate(grid["n"].to_numpy(), every)
        outputs: tuple[str, ...] = ("power",)
    else:
        put_solved(grid, solve_n(lambda ns: evaluate(ns, every),
                                 grid["target_power"].to_numpy()),
                   lambda ns: evaluate(ns, every), low=1)
        outputs = ("n", "power")
    notes: tuple[str, ...] = ()
    if method == "goodness-of-fit":
        smallest = np.array([float(np.min(cell_probabilities(k0, p, r))) for k0, p, r in zip(
            grid["kappa0"], grid["proportions"], grid["raters"], strict=True)])
        grid["min_expected"] = smallest * grid["n"].to_numpy()
        outputs = (*outputs, "min_expected")
        low = int((grid["min_expected"] < 5).sum())
        if low:
            where = ("here" if len(grid) == 1 else
                     f"here in {low} of {len(grid)} rows" if low > 1 else
                     f"here in 1 of {len(grid)} rows")
            notes = ("min_expected: the smallest expected count of a cell under kappa0 at n. "
                     f"Below 5 ({where}) the chi-square approximation behind the "
                     "goodness-of-fit plan is poor and its n too small: check the design "
                     "with irr.plan.simulate.",)
    table = grid
    inputs = tuple(c for c in ("kappa0", "kappa1", "raters", "proportions", "rates",
                               "alpha", "target_power", "n")
                   if c in table.columns and not (c == "n" and n is None))

    refs = {"goodness-of-fit": (DONNER_ELIASZIW, ROTONDI_DONNER), "flack": (FLACK,)}.get(
        method, (CANTOR,))
    if method == "flack":
        notes = ("Flack et al. (1988): each variance is the largest over the tables with "
                 "these margins (both raters) and that kappa, so n is enough whatever the "
                 "pattern of disagreements.",)
    return PlanResult(
        title=("Subjects for a test of kappa" if n is None else "Power of a test of kappa"),
        method={"cantor": "Cantor (1996) z test", "wald": "Wald interval (FCE 1969 SE)",
                "goodness-of-fit": "goodness of fit (Donner & Eliasziw 1992)",
                "flack": "Flack et al. (1988) z test, largest variance"}[method],
        table=table, inputs=inputs, outputs=outputs, measure="power",
        citation={"goodness-of-fit": "Rotondi & Donner, 2012",
                  "flack": "Flack et al., 1988"}.get(method, "Cantor, 1996"),
        references=refs, sentence=_kappa_sentence, evaluate=evaluate, notes=notes,
    )


# ---------------------------------------------------------------------------------------
# Interval approach
# ---------------------------------------------------------------------------------------
def _evaluate_z(diff: np.ndarray, v0: np.ndarray, v1: np.ndarray, alphas: np.ndarray,
                sides: int, ns: np.ndarray, index: np.ndarray) -> np.ndarray:
    """The power of the z test of rows `index` at `ns` (a PlanResult's ``evaluate``,
    picklable)."""
    return _z_power(ns, diff[index], v0[index], v1[index], alphas[index], sides)


def _evaluate_gof(delta: np.ndarray, alphas: np.ndarray, sides: int, ns: np.ndarray,
                  index: np.ndarray) -> np.ndarray:
    """The power of the goodness-of-fit test of rows `index` at `ns`."""
    return _gof_power(ns, delta[index], alphas[index], sides)


def _evaluate_width(records: list[dict[str, Any]], n_values: np.ndarray,
                    index: np.ndarray) -> np.ndarray:
    """The expected interval width of rows `index` (`records`) at `n_values`."""
    from scipy.stats import chi2

    out = np.empty(len(index))
    for at in np.unique(index):  # each row's limits at all its n at once
        row, sel = records[at], index == at
        two = not math.isnan(row["kappa_upper"])
        a = 1 - row["confidence_level"]
        crit = chi2.isf(a if two else 2 * a, 1)
        args = (np.asarray(n_values)[sel], row["kappa"], row["proportions"],
                row["raters"], crit)
        low = _interval_limit(*args, True)
        high = _interval_limit(*args, False) if two else row["kappa"]
        out[sel] = high - low
    return out


def _interval_limit(n: np.ndarray, kappa0: float, p: tuple[float, ...], raters: int,
                    crit: float, lower: bool) -> np.ndarray:
    """The expected confidence limit at n: the kappa whose goodness-of-fit statistic,
    with the data equal to their expectation under kappa0, equals the critical value."""
    n = np.asarray(n, dtype=float)
    floor = _kappa_floor(p, raters)
    lo = np.full(n.shape, floor if lower else kappa0)
    hi = np.full(n.shape, kappa0 if lower else 1 - 1e-9)
    p0 = cell_probabilities(kappa0, p, raters)

    def statistic(k: np.ndarray) -> np.ndarray:
        pk = cell_probabilities(k, p, raters)
        return n * ((p0 - pk) ** 2 / pk).sum(axis=-1)

    for _ in range(60):
        mid = (lo + hi) / 2
        inside = statistic(mid) < crit  # mid is still in the interval
        if lower:
            hi = np.where(inside, mid, hi)
            lo = np.where(inside, lo, mid)
        else:
            lo = np.where(inside, mid, lo)
            hi = np.where(inside, hi, mid)
    return (lo + hi) / 2


def _kappa_floor(p: tuple[float, ...], raters: int) -> float:
    """The smallest kappa (above -1 / (R - 1)) at which every cell probability is positive."""
    lo, hi = -1.0 / (raters - 1), 0.0
    for _ in range(60):
        mid = (lo + hi) / 2
        with np.errstate(all="ignore"):
            cells = cell_probabilities(mid, p, raters)
        if np.all(np.isfinite(cells)) and np.min(cells) > 0:
            hi = mid
        else:
            lo = mid
    return hi


def _interval_sentence(row: dict[str, Any]) -> str:
    k = len(row["proportions"])
    scale = "a binary rating" if k == 2 else f"a rating scale with {k} categories"
    level = percent(row["confidence_level"])
    two = not math.isnan(row["kappa_upper"])
    if two:
        expected = f"[{row['lower_at_n']:.2f}, {row['upper_at_n']:.2f}]"
        required = f"{row['kappa_lower']:g} to {row['kappa_upper']:g}"
    else:
        expected = f"[{row['lower_at_n']:.2f}, 1]"
        required = f"lower limit {row['kappa_lower']:g}"
    sided = "two-sided" if two else "one-sided"
    return (f"With {int(row['n']):,} subjects rated by {int(row['raters'])} raters on "
            f"{scale}, the expected {sided} {level} confidence interval for an anticipated "
            f"kappa of {row['kappa']:g} is {expected}, within the required {required} "
            f"(Rotondi & Donner, 2012).")


def kappa_interval(
    kappa: float | Any,
    kappa_lower: float | Any,
    kappa_upper: float | Any | None = None,
    *,
    raters: int | Any = 2,
    categories: int | Any | None = None,
    proportions: Any = None,
    prevalence: float | Any | None = None,
    confidence_level: float | Any = 0.95,
) -> PlanResult:
    """Subjects needed so that the expected confidence interval for kappa reaches down to
    `kappa_lower` (and up to `kappa_upper`): the interval approach of Rotondi & Donner
    (2012), as kappaSize's ``CIBinary``/``CI3Cats``...

    Parameters
    ----------
    kappa : float or sequence of float
        The anticipated kappa, in (0, 1).
    kappa_lower : float or sequence of float
        The lower limit the interval should not go below, ``< kappa``.
    kappa_upper : float or sequence of float, optional
        The upper limit (two-sided interval at `confidence_level`); without it the
        interval is one-sided (its lower limit at `confidence_level`).
    raters, categories, proportions, prevalence
        As for :func:`kappa`.
    confidence_level : float or sequence of float, default 0.95

    Returns
    -------
    PlanResult
        Columns: the inputs, ``n`` and the expected limits at that n (``lower_at_n``,
        ``upper_at_n``); ``curve(n)`` gives the expected width (upper - lower limit, or
        kappa - lower limit when one-sided).

    Notes
    -----
    The goodness-of-fit interval (Donner & Eliasziw, 1992) holds every kappa whose
    chi-square statistic is below :math:`\\chi^2_{1, 1-\\alpha}` (two-sided) or
    :math:`\\chi^2_{1, 1-2\\alpha}` (one-sided). With data equal to their expectation
    under the anticipated :math:`\\kappa`, the limit :math:`\\kappa_L` is reached at

    .. math:: n = \\chi^2 \\Big/ \\sum_l \\frac{(P_l(\\kappa) - P_l(\\kappa_L))^2}
              {P_l(\\kappa_L)},

    and likewise for :math:`\\kappa_U`; ``n`` is the larger, rounded up.

    Examples
    --------
    >>> import irr
    >>> res = irr.plan.kappa_interval(0.6, 0.4, 0.8, prevalence=0.3)
    >>> int(res.n)
    94
    >>> print(res.report())  # doctest: +NORMALIZE_WHITESPACE
    With 94 subjects rated by 2 raters on a binary rating, the expected two-sided 95%
    confidence interval for an anticipated kappa of 0.6 is [0.40, 0.75], within the
    required 0.4 to 0.8 (Rotondi & Donner, 2012).
    """
    from scipy.stats import chi2

    ks = as_values(kappa, "kappa", _check_kappa)
    lows = as_values(kappa_lower, "kappa_lower", _check_kappa)
    highs = [math.nan] if kappa_upper is None else as_values(kappa_upper, "kappa_upper",
                                                            _check_kappa)
    levels = as_values(confidence_level, "confidence_level", check_open_unit)
    props = _proportion_list(proportions, categories, prevalence)
    rater_list = as_values(raters, "raters", _check_raters)
    for k in ks:
        for lo in lows:
            if not lo < k:
                raise ValueError(f"`kappa_lower` must be below `kappa`; got {lo:g} and {k:g}.")
        for hi in highs:
            if not math.isnan(hi) and not hi > k:
                raise ValueError(f"`kappa_upper` must be above `kappa`; got {hi:g} and {k:g}.")
    grid = design_grid(kappa=ks, kappa_lower=lows, kappa_upper=highs, raters=rater_list,
                       proportions=props, confidence_level=levels)
    ns, at_low, at_high = [], [], []
    for row in grid.to_dict("records"):
        two = not math.isnan(row["kappa_upper"])
        a = 1 - row["confidence_level"]
        crit = chi2.isf(a if two else 2 * a, 1)
        p, r, k = row["proportions"], row["raters"], row["kappa"]
        p0 = cell_probabilities(k, p, r)
        need = []
        for limit in ([row["kappa_lower"], row["kappa_upper"]] if two else [row["kappa_lower"]]):
            pl = cell_probabilities(limit, p, r)
            need.append(crit / float(((p0 - pl) ** 2 / pl).sum()))
        if max(need) > MAX_SUBJECTS:
            upper = "" if not two else f" and `kappa_upper` = {row['kappa_upper']:g}"
            raise ValueError(
                f"more than {MAX_SUBJECTS:,} subjects would be needed for `kappa_lower` = "
                f"{row['kappa_lower']:g}{upper} around `kappa` = {k:g}: widen the limits.")
        size = math.ceil(max(need) - 1e-9)
        ns.append(size)
        at_low.append(float(_interval_limit(np.array([size]), k, p, r, crit, True)[0]))
        at_high.append(float(_interval_limit(np.array([size]), k, p, r, crit, False)[0])
                       if two else math.nan)
    grid["n"] = ns
    grid["lower_at_n"] = at_low
    grid["upper_at_n"] = at_high
    table = grid

    evaluate = partial(_evaluate_width, table.to_dict("records"))

    return PlanResult(
        title="Subjects for a confidence interval for kappa",
        method="goodness-of-fit interval (Rotondi & Donner 2012)", table=table,
        inputs=("kappa", "kappa_lower", "kappa_upper", "raters", "proportions",
                "confidence_level"),
        outputs=("n", "lower_at_n", "upper_at_n"), measure="width",
        citation="Rotondi & Donner, 2012", references=(DONNER_ELIASZIW, ROTONDI_DONNER),
        sentence=_interval_sentence, evaluate=evaluate,
    )

