"""Subjects needed for a study of the intraclass correlation: a test of rho = rho0
(Walter, Eliasziw & Donner, 1998, or the exact F power of Donner & Eliasziw, 1987), or an
interval of a given width (Bonett, 2002).

The model is the one-way random-effects ANOVA (each subject rated by ``raters``
interchangeable raters or measured ``raters`` times), ICC(1); its F test is the one of
:meth:`irr.Agreement.icc` with ``model='oneway'`` (the exact interval excludes rho0
exactly when the F test rejects).
"""

from __future__ import annotations

from functools import partial
from typing import Any

import numpy as np

from irr._validation import check_bool, check_choice, check_integer, check_open_unit, show_value
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

__all__ = ["icc", "icc_interval", "icc_power"]

WALTER = (
    "Walter, S. D., Eliasziw, M., & Donner, A. (1998). Sample size and optimal designs "
    "for reliability studies. Statistics in Medicine, 17(1), 101-110. "
    "https://doi.org/10.1002/(SICI)1097-0258(19980115)17:1<101::AID-SIM727>3.0.CO;2-E"
)
DONNER_ELIASZIW_1987 = (
    "Donner, A., & Eliasziw, M. (1987). Sample size requirements for reliability studies. "
    "Statistics in Medicine, 6(4), 441-448. https://doi.org/10.1002/sim.4780060404"
)
BONETT = (
    "Bonett, D. G. (2002). Sample size requirements for estimating intraclass correlations "
    "with desired precision. Statistics in Medicine, 21(9), 1331-1335. "
    "https://doi.org/10.1002/sim.1108"
)


def _check_rho(value: Any, name: str) -> float:
    if isinstance(value, bool) or not isinstance(value, int | float | np.integer | np.floating):
        raise TypeError(f"`{name}` must be a real number in [0, 1); got {show_value(value)}.")
    value = float(value)
    if not 0.0 <= value < 1.0:
        raise ValueError(f"`{name}` must be in [0, 1); got {show_value(value)}.")
    return value


def _check_raters(value: Any, name: str) -> int:
    return check_integer(value, name, minimum=2)


def icc_power(n: Any, rho0: Any, rho1: Any, raters: Any, alpha: Any, sides: Any,
              method: str = "exact") -> np.ndarray:
    """Power of the test of ICC(1) = rho0 when it is rho1, with n subjects and `raters`
    ratings each; arguments broadcast.

    ``'exact'``: the F test of the one-way ANOVA, whose ``MSB / MSW`` is
    ``(1 + k theta) F(n - 1, n (k - 1))`` with ``theta = rho / (1 - rho)`` (Donner &
    Eliasziw, 1987). ``'walter'``: the normal approximation of Walter, Eliasziw & Donner
    (1998) on ``log C0``, ``C0 = (1 + k theta0) / (1 + k theta1)``.

    Examples
    --------
    >>> icc_power([20, 40], 0.5, 0.75, 3, 0.05, 1).round(3).tolist()
    [0.756, 0.95]
    """
    from scipy.stats import f, norm

    n, r0, r1, k, a, s = np.broadcast_arrays(
        np.asarray(n, float), np.asarray(rho0, float), np.asarray(rho1, float),
        np.asarray(raters, float), np.asarray(alpha, float), np.asarray(sides, float))
    c0 = (1 + k * r0 / (1 - r0)) / (1 + k * r1 / (1 - r1))
    if method == "walter":
        z = np.sqrt((n - 1) * (k - 1) / (2 * k)) * np.abs(np.log(c0)) - norm.isf(a / s)
        return norm.cdf(z)
    d1, d2 = n - 1, n * (k - 1)
    upper = f.sf(f.isf(a / s, d1, d2) * c0, d1, d2)  # MSB/MSW above its H0 critical value
    lower = f.cdf(f.ppf(a / s, d1, d2) * c0, d1, d2)
    one = np.where(r1 > r0, upper, lower)
    return np.where(s == 2, upper + lower, one)


def _icc_sentence(row: dict[str, Any]) -> str:
    sided = "two-sided" if row["alternative"] == "two-sided" else "one-sided"
    cite = ("Walter, Eliasziw & Donner, 1998" if row["method"] == "walter"
            else "Donner & Eliasziw, 1987")
    if not is_reached(row["n"]):
        return (f"No number of subjects up to {MAX_SUBJECTS:,} gives "
                f"{percent(row['target_power'])} power for the test of ICC = "
                f"{row['rho0']:g}: the target cannot be reached ({cite}).")
    return (f"With {int(row['n']):,} subjects each rated by {int(row['raters'])} raters, a "
            f"{sided} test of ICC = {row['rho0']:g} against ICC = {row['rho1']:g} "
            f"(one-way model) has {100 * row['power']:.0f}% power at the "
            f"{percent(row['alpha'])} level ({cite}).")


def icc(
    rho0: float | Any,
    rho1: float | Any,
    *,
    raters: int | Any = 2,
    power: float | Any | None = None,
    n: int | Any | None = None,
    alpha: float | Any = 0.05,
    alternative: str = "two-sided",
    method: str = "walter",
) -> PlanResult:
    """Subjects needed for a test of ICC = ``rho0`` to detect ``rho1``, or the power of a
    given number of subjects (one-way model, ICC(1)).

    Each of `rho0`, `rho1`, `raters`, `power`, `n` and `alpha` may be a sequence: one row
    per combination.

    Parameters
    ----------
    rho0 : float or sequence of float
        The ICC under the null hypothesis, in [0, 1).
    rho1 : float or sequence of float
        The ICC the study should detect, in [0, 1).
    raters : int or sequence of int, default 2
        Ratings (raters or repeated measurements) per subject, at least 2.
    power : float or sequence of float, optional
        Target power; default 0.8 when `n` is not given. Give `power` or `n`.
    n : int or sequence of int, optional
        Subjects: the power at these ``n``.
    alpha : float or sequence of float, default 0.05
    alternative : {'two-sided', 'greater', 'less'}, default 'two-sided'
        One-sided tests put all of `alpha` in the direction of `rho1`.
    method : {'walter', 'exact'}, default 'walter'
        ``'walter'``: the closed form of Walter, Eliasziw & Donner (1998), as R's
        ICC.Sample.Size; ``'exact'``: the exact power of the F test (Donner & Eliasziw,
        1987), the test :meth:`irr.Agreement.icc` runs with ``model='oneway'``.

    Returns
    -------
    PlanResult
        Columns: the inputs, then ``n`` and ``power`` (or ``power`` at the given `n`).

    Notes
    -----
    With :math:`\\theta = \\rho / (1 - \\rho)`, :math:`k` ratings per subject and
    :math:`C_0 = (1 + k\\theta_0) / (1 + k\\theta_1)`, Walter, Eliasziw & Donner's (1998)
    approximation is

    .. math:: n = 1 + \\frac{2 k (z_{1-\\alpha/s} + z_{1-\\beta})^2}{(k - 1) (\\ln C_0)^2},

    rounded up (``s = 2`` two-sided). The exact power uses that the one-way ANOVA's
    ``MSB / MSW`` is :math:`(1 + k\\theta) F_{n-1, n(k-1)}`: the test rejects when it
    exceeds :math:`(1 + k\\theta_0)` times the F critical value, with probability
    :math:`P(F > C_0 F_{1-\\alpha/s})`; ``n`` is the smallest integer reaching the target.

    References
    ----------
    Walter, S. D., Eliasziw, M., & Donner, A. (1998). Statistics in Medicine, 17, 101-110.

    Donner, A., & Eliasziw, M. (1987). Statistics in Medicine, 6, 441-448.
    https://doi.org/10.1002/sim.4780060404

    Examples
    --------
    >>> import irr
    >>> res = irr.plan.icc(0.5, 0.75, raters=3, alternative="greater")
    >>> int(res.n)
    24
    >>> print(res.report())  # doctest: +NORMALIZE_WHITESPACE
    With 24 subjects each rated by 3 raters, a one-sided test of ICC = 0.5 against ICC =
    0.75 (one-way model) has 81% power at the 5% level (Walter, Eliasziw & Donner, 1998).
    """
    method = check_choice(method, "method", ("walter", "exact"))
    alternative = check_choice(alternative, "alternative", ("two-sided", "greater", "less"))
    r0s = as_values(rho0, "rho0", _check_rho)
    r1s = as_values(rho1, "rho1", _check_rho)
    check_power_or_n(power, n)
    check_hypotheses(r0s, r1s, ("rho0", "rho1"), alternative)
    last = ("n", as_values(n, "n", check_n)) if n is not None else (
        "target_power", as_values(0.8 if power is None else power, "power", check_open_unit))
    grid = design_grid(rho0=r0s, rho1=r1s, raters=as_values(raters, "raters", _check_raters),
                       alpha=as_values(alpha, "alpha", check_open_unit),
                       **{last[0]: last[1]})
    grid["alternative"] = alternative
    grid["method"] = method
    sides = 2 if alternative == "two-sided" else 1
    cols = {c: grid[c].to_numpy() for c in ("rho0", "rho1", "raters", "alpha")}

    evaluate = partial(_evaluate_power, cols, sides, method)

    every = np.arange(len(grid))
    if n is not None:
        grid["power"] = evaluate(grid["n"].to_numpy(), every)
        outputs: tuple[str, ...] = ("power",)
    else:
        put_solved(grid, solve_n(lambda ns: evaluate(ns, every),
                                 grid["target_power"].to_numpy()),
                   lambda ns: evaluate(ns, every), low=2)
        outputs = ("n", "power")
    inputs = tuple(c for c in ("rho0", "rho1", "raters", "alpha", "target_power", "n")
                   if c in grid.columns and not (c == "n" and n is None))
    return PlanResult(
        title="Subjects for a test of the ICC" if n is None else "Power of a test of the ICC",
        method=("Walter, Eliasziw & Donner (1998)" if method == "walter"
                else "exact F (Donner & Eliasziw 1987)"),
        table=grid, inputs=inputs, outputs=outputs, measure="power",
        citation=("Walter, Eliasziw & Donner, 1998" if method == "walter"
                  else "Donner & Eliasziw, 1987"),
        references=(WALTER,) if method == "walter" else (DONNER_ELIASZIW_1987,),
        sentence=_icc_sentence, evaluate=evaluate,
    )


def _evaluate_power(cols: dict[str, np.ndarray], sides: int, method: str, ns: np.ndarray,
                    index: np.ndarray) -> np.ndarray:
    """The power of rows `index` at `ns` (a PlanResult's ``evaluate``, picklable)."""
    return icc_power(ns, cols["rho0"][index], cols["rho1"][index], cols["raters"][index],
                     cols["alpha"][index], sides, method)


def _evaluate_width(cols: dict[str, np.ndarray], ns: np.ndarray,
                    index: np.ndarray) -> np.ndarray:
    """The expected width of rows `index` at `ns` (a PlanResult's ``evaluate``)."""
    return _bonett_width(np.asarray(ns, float), cols["rho"][index],
                         cols["raters"][index], cols["confidence_level"][index])


def _bonett_n(rho: np.ndarray, k: np.ndarray, width: np.ndarray, level: np.ndarray,
              adjust: bool) -> np.ndarray:
    from scipy.stats import norm

    z = norm.isf((1 - level) / 2)
    n = 1 + 8 * z**2 * (1 - rho) ** 2 * (1 + (k - 1) * rho) ** 2 / (k * (k - 1) * width**2)
    if adjust:
        n = n + np.where((k == 2) & (rho >= 0.7), 5 * rho, 0.0)
    return n


def _bonett_width(n: np.ndarray, rho: np.ndarray, k: np.ndarray, level: np.ndarray
                  ) -> np.ndarray:
    from scipy.stats import norm

    z = norm.isf((1 - level) / 2)
    with np.errstate(divide="ignore", invalid="ignore"):
        return np.sqrt(8 * z**2 * (1 - rho) ** 2 * (1 + (k - 1) * rho) ** 2
                       / (k * (k - 1) * (n - 1)))


def _interval_sentence(row: dict[str, Any]) -> str:
    return (f"With {int(row['n']):,} subjects each rated by {int(row['raters'])} raters, the "
            f"{percent(row['confidence_level'])} confidence interval for an anticipated ICC "
            f"of {row['rho']:g} is expected to be no wider than {row['width']:g} "
            "(Bonett, 2002).")


def icc_interval(
    rho: float | Any,
    width: float | Any,
    *,
    raters: int | Any = 2,
    confidence_level: float | Any = 0.95,
    adjust: bool = True,
) -> PlanResult:
    """Subjects needed for a confidence interval for the ICC of a given expected width
    (Bonett, 2002).

    Parameters
    ----------
    rho : float or sequence of float
        The anticipated ICC, in [0, 1).
    width : float or sequence of float
        The full width of the interval (upper minus lower limit), in (0, 1).
    raters : int or sequence of int, default 2
    confidence_level : float or sequence of float, default 0.95
    adjust : bool, default True
        Bonett's correction for two raters and ``rho >= 0.7``: add ``5 rho`` subjects,
        where the approximation is otherwise too small.

    Returns
    -------
    PlanResult
        Columns: the inputs and ``n``; ``curve(n)`` gives the expected width.

    Notes
    -----
    .. math:: n = 1 + \\frac{8 z^2_{1-\\alpha/2} (1-\\rho)^2 (1 + (k-1)\\rho)^2}
              {k (k-1) w^2},

    rounded up, from the large-sample variance of Fisher's transformation of the ICC;
    Bonett (2002) shows it is close to the width of the exact F interval for the one-way
    and two-way (consistency) ICCs.

    References
    ----------
    Bonett, D. G. (2002). Statistics in Medicine, 21(9), 1331-1335.
    https://doi.org/10.1002/sim.1108

    Examples
    --------
    >>> import irr
    >>> int(irr.plan.icc_interval(0.85, 0.2, raters=4).n)
    20
    """
    adjust = check_bool(adjust, "adjust")
    rhos = as_values(rho, "rho", _check_rho)
    widths = as_values(width, "width", check_open_unit)
    grid = design_grid(rho=rhos, width=widths,
                       raters=as_values(raters, "raters", _check_raters),
                       confidence_level=as_values(confidence_level, "confidence_level",
                                                  check_open_unit))
    raw = _bonett_n(grid["rho"].to_numpy(), grid["raters"].to_numpy(float),
                    grid["width"].to_numpy(), grid["confidence_level"].to_numpy(),
                    bool(adjust))
    if np.any(raw > MAX_SUBJECTS):
        i = int(np.argmax(raw > MAX_SUBJECTS))
        raise ValueError(
            f"more than {MAX_SUBJECTS:,} subjects would be needed for `width` = "
            f"{grid['width'].iloc[i]:g} at `rho` = {grid['rho'].iloc[i]:g}: widen the interval.")
    grid["n"] = np.ceil(raw - 1e-9).astype(np.int64)
    cols = {c: grid[c].to_numpy(float) for c in ("rho", "raters", "confidence_level")}

    evaluate = partial(_evaluate_width, cols)

    return PlanResult(
        title="Subjects for a confidence interval for the ICC", method="Bonett (2002)",
        table=grid, inputs=("rho", "width", "raters", "confidence_level"), outputs=("n",),
        measure="width", citation="Bonett, 2002", references=(BONETT,),
        sentence=_interval_sentence, evaluate=evaluate,
        notes=("Two raters and rho >= 0.7: 5 rho subjects added (Bonett, 2002).",)
        if adjust and bool(((grid["raters"] == 2) & (grid["rho"] >= 0.7)).any()) else (),
    )
