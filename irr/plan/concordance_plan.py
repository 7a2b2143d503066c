"""Subjects needed for a test of Lin's concordance correlation coefficient (Lin, 1992):
the Fisher-z test of CCC = ccc0 that :func:`irr.concordance`'s interval carries out.
"""

from __future__ import annotations

import math
from functools import partial
from typing import Any

import numpy as np

from irr._numbers import format_significant
from irr._validation import check_choice, check_open_unit, show_value
from irr.coefficients.concordance import ccc_variance
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

__all__ = ["concordance", "concordance_power"]

LIN = (
    "Lin, L. I.-K. (1992). Assay validation using the concordance correlation "
    "coefficient. Biometrics, 48(2), 599-604. https://doi.org/10.2307/2532314"
)


def _precision(ccc: float, shift: float) -> float:
    """Pearson's r of a CCC with location shift u and equal scales: CCC = r * 2/(2 + u^2)."""
    return ccc * (2 + shift * shift) / 2


def concordance_power(n: Any, ccc0: Any, ccc1: Any, shift: Any, alpha: Any, sides: int
                      ) -> np.ndarray:
    """Power of the Fisher-z test of CCC = ccc0 when it is ccc1, arguments broadcast.

    ``z = atanh(CCC)`` has variance :func:`irr.coefficients.concordance.ccc_variance`
    (Lin 1989, corrected 2000) at ccc1, precision ``r = ccc1 (2 + u^2) / 2`` and shift
    ``u`` (equal scales); power ``Phi(|atanh ccc1 - atanh ccc0| / sd_z - z_{1-alpha/s})``.

    Examples
    --------
    >>> concordance_power([30, 60], 0.8, 0.9, 0.0, 0.05, 2).round(3).tolist()
    [0.507, 0.812]
    """
    from scipy.stats import norm

    n, c0, c1, u, a = np.broadcast_arrays(*(np.asarray(v, dtype=float)
                                            for v in (n, ccc0, ccc1, shift, alpha)))
    shape = n.shape
    n, c0, c1, u, a = (np.ravel(v) for v in (n, c0, c1, u, a))
    sd = np.array([math.sqrt(ccc_variance(float(c), _precision(float(c), float(s)), float(s),
                                          int(m))[1])
                   for c, s, m in zip(c1, u, n, strict=True)])
    distance = np.abs(np.arctanh(c1) - np.arctanh(c0))
    return norm.cdf(distance / sd - norm.isf(a / sides)).reshape(shape)


def _check_ccc(value: Any, name: str) -> float:
    if isinstance(value, bool) or not isinstance(value, int | float | np.integer | np.floating):
        raise TypeError(f"`{name}` must be a number in (-1, 1); got {show_value(value)}.")
    value = float(value)
    if not -1 < value < 1:
        raise ValueError(f"`{name}` must be in (-1, 1); got {show_value(value)}.")
    return value


def _check_shift(value: Any, name: str) -> float:
    if isinstance(value, bool) or not isinstance(value, int | float | np.integer | np.floating):
        raise TypeError(f"`{name}` must be a real number; got {show_value(value)}.")
    value = float(value)
    if not math.isfinite(value):
        raise ValueError(f"`{name}` must be finite; got {show_value(value)}.")
    return value


def _sentence(row: dict[str, Any]) -> str:
    sided = "two-sided" if row["alternative"] == "two-sided" else "one-sided"
    shift = (f" (one method reading {abs(row['shift']):g} SD "
             f"{'higher' if row['shift'] > 0 else 'lower'})" if row["shift"] else "")
    ccc0, ccc1 = format_significant(row["ccc0"]), format_significant(row["ccc1"])
    if not is_reached(row["n"]):
        return (f"No number of subjects up to {MAX_SUBJECTS:,} gives "
                f"{percent(row['target_power'])} power for the test of CCC = "
                f"{ccc0} against CCC = {ccc1}: the target cannot be reached (Lin, 1992).")
    return (f"With {int(row['n']):,} subjects measured by both methods, a {sided} test of "
            f"CCC = {ccc0} against CCC = {ccc1}{shift} has "
            f"{100 * row['power']:.0f}% power at the {percent(row['alpha'])} level "
            f"(Lin, 1992).")


def _evaluate(cols: dict[str, np.ndarray], sides: int, ns: np.ndarray,
              index: np.ndarray) -> np.ndarray:
    """The power of rows `index` at `ns` (a PlanResult's ``evaluate``, picklable)."""
    return concordance_power(ns, cols["ccc0"][index], cols["ccc1"][index],
                             cols["shift"][index], cols["alpha"][index], sides)


def concordance(
    ccc0: float | Any,
    ccc1: float | Any,
    *,
    shift: float | Any = 0.0,
    power: float | Any | None = None,
    n: int | Any | None = None,
    alpha: float | Any = 0.05,
    alternative: str = "two-sided",
) -> PlanResult:
    """Subjects needed for a test of Lin's CCC = ``ccc0`` to detect ``ccc1``, or the
    power of a given number of subjects.

    Parameters
    ----------
    ccc0, ccc1 : float or sequence of float
        The CCC under H0 and the CCC to detect, in (-1, 1).
    shift : float or sequence of float, default 0.0
        The anticipated location shift ``u = (mu1 - mu2) / sqrt(sigma1 sigma2)`` (the two
        methods' scales taken as equal): the CCC is ``r * 2 / (2 + u^2)``, so a shifted
        method needs a higher precision ``r`` for the same CCC, which changes the variance.
    power : float or sequence of float, optional
        Target power; default 0.8 when `n` is not given. Give `power` or `n`.
    n : int or sequence of int, optional
        Subjects: the power at these ``n``.
    alpha : float or sequence of float, default 0.05
    alternative : {'two-sided', 'greater', 'less'}, default 'two-sided'

    Returns
    -------
    PlanResult
        Columns: the inputs, ``n`` and ``power``.

    Notes
    -----
    Lin (1992): the test on Fisher's z, :math:`\\tanh^{-1}\\hat\\rho_c`, with Lin's (1989,
    2000) variance evaluated at the alternative; :math:`n` is the smallest integer with
    :math:`\\Phi(|z_1 - z_0| / \\sigma_z(n) - z_{1-\\alpha/s}) \\ge 1 - \\beta`. No published
    table was reproduced; the slow tests check the power against the rejection rate of
    :func:`irr.concordance`'s interval on simulated data.

    References
    ----------
    Lin, L. I.-K. (1992). Biometrics, 48(2), 599-604. https://doi.org/10.2307/2532314

    Examples
    --------
    >>> import irr
    >>> int(irr.plan.concordance(0.8, 0.9, power=0.8).n)
    59
    """
    alternative = check_choice(alternative, "alternative", ("two-sided", "greater", "less"))
    check_power_or_n(power, n)
    c0s = as_values(ccc0, "ccc0", _check_ccc)
    c1s = as_values(ccc1, "ccc1", _check_ccc)
    shifts = as_values(shift, "shift", _check_shift)
    check_hypotheses(c0s, c1s, ("ccc0", "ccc1"), alternative)
    for b in c1s:
        for u in shifts:
            if abs(_precision(b, u)) >= 1:
                raise ValueError(
                    f"a CCC of {b:g} with `shift` = {u:g} needs a correlation "
                    f"{_precision(b, u):.3g} >= 1: choose a smaller shift or CCC.")
    last = ("n", as_values(n, "n", lambda v, name: check_n(v, name, minimum=4))) \
        if n is not None else ("target_power", as_values(0.8 if power is None else power,
                                                         "power", check_open_unit))
    grid = design_grid(ccc0=c0s, ccc1=c1s, shift=shifts,
                       alpha=as_values(alpha, "alpha", check_open_unit),
                       **{last[0]: last[1]})
    grid["alternative"] = alternative
    sides = 2 if alternative == "two-sided" else 1
    cols = {c: grid[c].to_numpy() for c in ("ccc0", "ccc1", "shift", "alpha")}

    evaluate = partial(_evaluate, cols, sides)

    every = np.arange(len(grid))
    if n is not None:
        grid["power"] = evaluate(grid["n"].to_numpy(), every)
        outputs: tuple[str, ...] = ("power",)
    else:
        put_solved(grid, solve_n(lambda ns: evaluate(ns, every),
                                 grid["target_power"].to_numpy(), low=4),
                   lambda ns: evaluate(ns, every), low=4)
        outputs = ("n", "power")
    inputs = tuple(c for c in ("ccc0", "ccc1", "shift", "alpha", "target_power", "n")
                   if c in grid.columns and not (c == "n" and n is None))
    return PlanResult(
        title="Subjects for a test of the CCC" if n is None else "Power of a test of the CCC",
        method="Fisher z (Lin 1992)", table=grid, inputs=inputs, outputs=outputs,
        measure="power", citation="Lin, 1992", references=(LIN,), sentence=_sentence,
        evaluate=evaluate,
    )
