"""Number of test cases for the exact binomial test of an error rate, and its power.

The test is the package's (:func:`irr.error_rate_test`, with the corrected critical bound
of :func:`irr.critical_error_rate`). Its power is an exact binomial sum, and it is not
monotone in ``n``: the critical count moves by whole errors, so the power rises and falls
in a sawtooth (Chernick & Liu, 2002). Both the first ``n`` that reaches the target and the
smallest ``n`` after which the power never falls below it again (up to a stated bound) are
returned.
"""

from __future__ import annotations

import math
from functools import partial
from typing import Any

import numpy as np
import pandas as pd

from irr._validation import check_choice, check_integer, check_open_unit
from irr.inference.error_rate import (
    MAX_N,
    log_cdf,
    log_sf,
    lower_critical_count,
    upper_critical_count,
)
from irr.plan.plan_result import (
    PlanResult,
    as_values,
    check_hypotheses,
    check_n,
    check_power_or_n,
    design_grid,
    is_reached,
    percent,
    unreached,
)

__all__ = ["MAX_SEARCH", "error_rate", "error_rate_power"]

#: The power is evaluated at this many n at a time (bounded memory for tiny tails).
_CHUNK = 4096
#: The largest search bound (`max_n`) accepted: the power is evaluated at every n up to it.
MAX_SEARCH = 200_000

CHERNICK_LIU = (
    "Chernick, M. R., & Liu, C. Y. (2002). The saw-toothed behavior of power versus sample "
    "size and software solutions: single binomial proportion using exact methods. The "
    "American Statistician, 56(2), 149-155. https://doi.org/10.1198/000313002317572835"
)
_ALTERNATIVES = ("less", "greater", "two-sided")


def error_rate_power(n: Any, epsilon0: Any, epsilon1: Any, alpha: Any,
                     alternative: str) -> np.ndarray:
    """Exact power of the binomial test of an error rate at `n` test cases.

    Arguments broadcast. ``'less'`` (H0: error rate >= eps0): ``P(X <= c | eps1)`` with
    ``c`` the :func:`~irr.inference.error_rate.lower_critical_count`; ``'greater'``:
    ``P(X > c | eps1)`` with the upper critical count; ``'two-sided'``: the sum of both
    at ``alpha / 2``. ``X ~ Binomial(n, eps1)``.

    Examples
    --------
    >>> error_rate_power([100, 179], 0.10, 0.05, 0.05, "less").round(4).tolist()
    [0.436, 0.8129]
    """
    n, e0, e1, a = np.broadcast_arrays(np.asarray(n, dtype=np.int64), np.asarray(epsilon0, float),
                                       np.asarray(epsilon1, float), np.asarray(alpha, float))
    tail = a / 2 if alternative == "two-sided" else a
    power = np.zeros(n.shape)
    if alternative in ("less", "two-sided"):
        low = lower_critical_count(n, e0, tail)
        power = power + np.exp(log_cdf(low, n, e1))
    if alternative in ("greater", "two-sided"):
        high = upper_critical_count(n, e0, tail)
        power = power + np.exp(log_sf(high, n, e1))
    return np.minimum(power, 1.0)


def _critical(n: np.ndarray, e0: np.ndarray, a: np.ndarray, alternative: str) -> np.ndarray:
    if alternative == "less":
        return lower_critical_count(n, e0, a)
    if alternative == "greater":
        return upper_critical_count(n, e0, a)
    return np.full(np.shape(n), -2, dtype=np.int64)  # a pair: not shown in the table


def _normal_n(e0: float, e1: float, alpha: float, power: float, two_sided: bool) -> float:
    from scipy.stats import norm

    z = norm.isf(alpha / 2 if two_sided else alpha) * math.sqrt(e0 * (1 - e0)) \
        + norm.isf(1 - power) * math.sqrt(e1 * (1 - e1))
    return (z / (e0 - e1)) ** 2


def _search(e0: float, e1: float, alpha: float, target: float, alternative: str,
            max_n: int) -> tuple[int, int, np.ndarray]:
    """First n reaching the target, smallest n staying at or above it up to max_n."""
    ns = np.arange(1, max_n + 1, dtype=np.int64)
    power = np.concatenate([error_rate_power(chunk, e0, e1, alpha, alternative)
                            for chunk in np.array_split(ns, -(-max_n // _CHUNK))])
    above = power >= target
    first = int(ns[np.argmax(above)]) if above.any() else -1
    if not above[-1]:
        return first, -1, power
    below = np.flatnonzero(~above)
    stable = 1 if below.size == 0 else int(ns[below[-1]] + 1)
    return first, stable, power


def _evaluate(alts: np.ndarray, e0_: np.ndarray, e1_: np.ndarray, a_: np.ndarray,
              ns: np.ndarray, index: np.ndarray) -> np.ndarray:
    """The power of rows `index` at `ns` (a PlanResult's ``evaluate``, picklable)."""
    out = np.empty(len(index))
    for alt in np.unique(alts[index]):
        sel = alts[index] == alt
        at = index[sel]
        out[sel] = error_rate_power(ns[sel], e0_[at], e1_[at], a_[at], alt)
    return out


def _check_rate(value: Any, name: str) -> float:
    return check_open_unit(value, name)


def _sentence(row: dict[str, Any]) -> str:
    alt = row["alternative"]
    claim = {"less": f"an error rate below {percent(row['epsilon0'])}",
             "greater": f"an error rate above {percent(row['epsilon0'])}",
             "two-sided": f"an error rate different from {percent(row['epsilon0'])}"}[alt]
    sided = "two-sided" if alt == "two-sided" else "one-sided"
    if not is_reached(row["n"]):
        return (f"Up to {int(row['max_n']):,} test cases, the exact binomial test at the "
                f"{percent(row['alpha'])} level ({sided}) never reaches "
                f"{percent(row['target_power'])} power to declare {claim} when the true "
                f"error rate is {percent(row['epsilon1'])}: the target cannot be reached "
                "(Chernick & Liu, 2002).")
    n = int(row["n"])
    text = (f"With {n:,} test cases, the exact binomial test at the {percent(row['alpha'])} "
            f"level ({sided}) declares {claim} with {100 * row['power']:.1f}% power when the "
            f"true error rate is {percent(row['epsilon1'])}")
    if "n_stable" in row:
        stable = int(row["n_stable"]) if is_reached(row["n_stable"]) else -1
        if stable < 0:
            text += (f"; the power falls below {percent(row['target_power'])} again at some "
                     f"n up to {int(row['max_n']):,}")
        elif stable != n:
            text += (f"; because the power of an exact test is not monotone in n, only from "
                     f"n = {stable:,} (checked up to {int(row['max_n']):,}) does it stay at "
                     f"{percent(row['target_power'])} or more")
        else:
            text += (f", and it stays at {percent(row['target_power'])} or more for every "
                     f"larger n checked (up to {int(row['max_n']):,})")
    return text + " (Chernick & Liu, 2002)."


def error_rate(
    epsilon0: float | Any,
    epsilon1: float | Any,
    *,
    power: float | Any | None = None,
    n: int | Any | None = None,
    alpha: float | Any = 0.05,
    alternative: str | None = None,
    max_n: int | None = None,
) -> PlanResult:
    """Test cases needed to show an error rate is below (or above) ``epsilon0``, or the
    power of a given number of test cases; exact binomial.

    Each of `epsilon0`, `epsilon1`, `power`, `n` and `alpha` may be a sequence: the
    result has one row per combination.

    Parameters
    ----------
    epsilon0 : float or sequence of float
        The error rate of the null hypothesis, in (0, 1).
    epsilon1 : float or sequence of float
        The true error rate the study should detect, in (0, 1).
    power : float or sequence of float, optional
        Target power; default 0.8 when `n` is not given. Give `power` or `n`, not both.
    n : int or sequence of int, optional
        Test cases: the power at these ``n`` instead of the sample size.
    alpha : float or sequence of float, default 0.05
        Significance level of the test.
    alternative : {'less', 'greater', 'two-sided'}, optional
        The test (as :func:`irr.error_rate_test`). Default: ``'less'`` (declare the error
        rate *below* ``epsilon0``: H0 "error rate >= eps0") when ``epsilon1 < epsilon0``,
        ``'greater'`` otherwise.
    max_n : int, optional
        The search bound for `n_stable` (the power is computed at every n up to it), at
        most 200,000. Default ten times the normal-approximation sample size, at least
        1,000 and at most 200,000.

    Returns
    -------
    PlanResult
        With `power` (solving for n): columns ``n`` (the first n whose power reaches the
        target), ``power`` (at that n), ``n_stable`` (the smallest n from which the
        power stays at or above the target for every n up to ``max_n``; -1 if it does
        not), ``critical_count`` and ``eps_bar`` at ``n``, and ``max_n``. With `n`:
        ``power``, ``critical_count`` and ``eps_bar``. ``-1`` in ``n`` means the target
        is not reached up to ``max_n``.

    Raises
    ------
    TypeError, ValueError
        For rates or levels outside (0, 1), ``epsilon1 == epsilon0``, an `epsilon1` on
        the wrong side of `epsilon0` for `alternative`, both `power` and `n`.

    Notes
    -----
    The test rejects H0 "error rate >= eps0" when at most ``c`` errors are seen, ``c``
    the largest count with :math:`P(X \\le c \\mid \\epsilon_0) < \\alpha`
    (:func:`irr.critical_error_rate` with ``alternative='less'``). Its power at ``n`` is

    .. math:: \\pi(n) = \\sum_{i=0}^{c(n)} \\binom{n}{i}\\epsilon_1^i(1-\\epsilon_1)^{n-i}.

    Because ``c(n)`` is an integer that steps up only every few ``n``, :math:`\\pi(n)`
    falls between the steps (a sawtooth; Chernick & Liu, 2002): an ``n`` just above the
    first one that reaches the target can have less power. ``n_stable`` is the answer
    that is safe against that (checked up to ``max_n``); plot the curve with
    :func:`irr.plotting.power_curve`. ``'greater'`` mirrors this with the upper
    critical count; ``'two-sided'`` uses both at ``alpha / 2``.

    References
    ----------
    Chernick, M. R., & Liu, C. Y. (2002). The saw-toothed behavior of power versus
    sample size and software solutions: single binomial proportion using exact methods.
    The American Statistician, 56(2), 149-155. https://doi.org/10.1198/000313002317572835

    Examples
    --------
    >>> import irr
    >>> res = irr.plan.error_rate(epsilon0=0.10, epsilon1=0.05, power=0.8)
    >>> int(res.n), round(float(res.power), 4), int(res.table["n_stable"].iloc[0])
    (179, 0.8129, 203)
    >>> irr.plan.error_rate(0.10, 0.05, n=[100, 200]).table["power"].round(3).tolist()
    [0.436, 0.796]
    """
    e0s = as_values(epsilon0, "epsilon0", _check_rate)
    e1s = as_values(epsilon1, "epsilon1", _check_rate)
    alphas = as_values(alpha, "alpha", check_open_unit)
    check_power_or_n(power, n)
    if alternative is not None:
        check_choice(alternative, "alternative", _ALTERNATIVES)
    check_hypotheses(e0s, e1s, ("epsilon0", "epsilon1"), alternative,
                     ": the test could never detect it")
    if max_n is not None:
        max_n = check_integer(max_n, "max_n", minimum=1)
        if max_n > MAX_SEARCH:
            raise ValueError(f"`max_n` must be at most {MAX_SEARCH:,}; got {max_n}.")
    if n is not None:
        grid = design_grid(epsilon0=e0s, epsilon1=e1s, alpha=alphas,
                           n=as_values(n, "n", lambda v, name: check_n(v, name, minimum=1)))
    else:
        targets = as_values(0.8 if power is None else power, "power", check_open_unit)
        grid = design_grid(epsilon0=e0s, epsilon1=e1s, alpha=alphas, target_power=targets)
    grid.insert(3, "alternative", [
        alternative or ("less" if e1 < e0 else "greater")
        for e0, e1 in zip(grid["epsilon0"], grid["epsilon1"], strict=True)])

    if n is not None:
        rows = []
        for row in grid.to_dict("records"):
            ns = np.asarray([row["n"]], dtype=np.int64)
            p = float(error_rate_power(ns, row["epsilon0"], row["epsilon1"], row["alpha"],
                                       row["alternative"])[0])
            c = int(_critical(ns, np.float64(row["epsilon0"]), np.float64(row["alpha"]),
                              row["alternative"])[0])
            rows.append({"power": p, "critical_count": c})
        table = pd.concat([grid, pd.DataFrame(rows)], axis=1)
        outputs: tuple[str, ...] = ("power", "critical_count")
    else:
        rows = []
        for row in grid.to_dict("records"):
            e0, e1, a, t, alt = (row["epsilon0"], row["epsilon1"], row["alpha"],
                                 row["target_power"], row["alternative"])
            bound = max_n or max(1000, math.ceil(10 * _normal_n(e0, e1, a, t,
                                                                alt == "two-sided")))
            bound = min(bound, MAX_SEARCH, MAX_N)
            first, stable, curve = _search(e0, e1, a, t, alt, bound)
            at = max(first, 1)
            c = int(_critical(np.asarray([at]), np.float64(e0), np.float64(a), alt)[0])
            rows.append({"n": first, "power": float(curve[at - 1]) if first > 0 else math.nan,
                         "n_stable": stable, "critical_count": c if first > 0 else -1,
                         "max_n": bound})
        table = pd.concat([grid, pd.DataFrame(rows)], axis=1)
        outputs = ("n", "power", "n_stable", "critical_count")
    if set(table["alternative"]) == {"two-sided"}:
        table = table.drop(columns="critical_count")
        outputs = tuple(o for o in outputs if o != "critical_count")
    else:
        with np.errstate(invalid="ignore", divide="ignore"):
            eps_bar = table["critical_count"] / table["n"]
        table["eps_bar"] = np.where((table["critical_count"] >= 0)
                                    & (table["alternative"] != "two-sided"), eps_bar, np.nan)
        outputs = (*outputs, "eps_bar")
    for column in ("n", "n_stable", "critical_count"):  # -1: none (not reached)
        if n is None and column in table.columns:
            table[column] = unreached(table[column])
    inputs = tuple(c for c in table.columns if c in grid.columns and c != "n"
                   and (c != "alternative" or alternative is not None))
    if n is not None:
        inputs = (*inputs, "n")

    alts, e0_, e1_, a_ = (table[c].to_numpy() for c in ("alternative", "epsilon0",
                                                         "epsilon1", "alpha"))

    evaluate = partial(_evaluate, alts, e0_, e1_, a_)

    return PlanResult(
        title="Test cases for the exact binomial test of an error rate" if n is None
        else "Power of the exact binomial test of an error rate",
        method="exact binomial (corrected eps_bar)", table=table, inputs=inputs,
        outputs=outputs, measure="power", citation="Chernick & Liu, 2002",
        references=(CHERNICK_LIU,), sentence=_sentence, evaluate=evaluate,
        notes=("n: the first n whose exact power reaches the target; n_stable: the "
               "smallest n from which it never falls below the target again, checked up "
               "to max_n.",) if n is None else (),
    )
