"""Subjects needed to show that two methods agree within a clinical limit: both
confidence limits of the Bland-Altman limits of agreement inside ``[-delta, delta]``
(Lu et al., 2016, for Bland & Altman's approximate intervals; Shieh, 2019, for the exact
intervals that :func:`irr.limits_of_agreement` reports by default).
"""

from __future__ import annotations

from functools import cache, partial
from typing import Any

import numpy as np

from irr._numbers import format_significant
from irr._validation import check_choice, check_open_unit, show_value
from irr.coefficients.limits import approximate_limit_se, exact_limit_factors
from irr.plan.plan_result import (
    PlanResult,
    as_values,
    check_n,
    check_power_or_n,
    design_grid,
    is_reached,
    percent,
    put_solved,
    solve_n,
)

__all__ = ["MAX_LIMITS_SUBJECTS", "limits_of_agreement", "limits_power"]

LU = (
    "Lu, M.-J., Zhong, W.-H., Liu, Y.-X., Miao, H.-Z., Li, Y.-C., & Ji, M.-H. (2016). "
    "Sample size for assessing agreement between two methods of measurement by "
    "Bland-Altman method. The International Journal of Biostatistics, 12(2). "
    "https://doi.org/10.1515/ijb-2015-0039"
)
SHIEH = (
    "Shieh, G. (2019). Assessing agreement between two methods of quantitative "
    "measurements: exact test procedure and sample size calculation. Statistics in "
    "Biopharmaceutical Research, 12(3), 352-359."
)
#: The largest n searched (``n`` is -1 beyond it): the exact factors get slow at huge n.
MAX_LIMITS_SUBJECTS = 10_000_000
#: Gauss-Legendre nodes over the quantiles of the SD's distribution.
_NODES = 256


@cache
def _quadrature() -> tuple[np.ndarray, np.ndarray]:
    """The ``_NODES`` Gauss-Legendre nodes and weights on [-1, 1], computed once (an
    eigenvalue problem of that size; a search for n evaluates the power a dozen times)."""
    x, w = np.polynomial.legendre.leggauss(_NODES)
    x.flags.writeable = w.flags.writeable = False
    return x, w


def _factor(n: int, z: float, level: float, ci_method: str) -> float:
    """K with the outer confidence limits of the limits of agreement at dbar -+ K s."""
    from scipy.special import stdtrit

    if ci_method == "exact":
        return exact_limit_factors(n, z, level)[1]
    return z + float(stdtrit(n - 1, 0.5 + level / 2)) * approximate_limit_se(1.0, n, z)


def limits_power(n: Any, bias: Any, sd: Any, delta: Any, coverage: Any, level: Any,
                 ci_method: str = "exact") -> np.ndarray:
    """Probability that both outer confidence limits of the limits of agreement fall
    inside ``[-delta, delta]`` with n normal differences of mean `bias` and SD `sd`.

    The decision is ``|dbar| + K s < delta`` with ``K`` the factor of the interval
    (exact non-central t, or Bland & Altman's approximation); ``dbar`` and ``s`` are
    independent, so the power is the average over the distribution of ``s`` of
    ``Phi(sqrt(n) (delta - K s - bias) / sd) - Phi(sqrt(n) (-delta + K s - bias) / sd)``
    (where positive), computed by Gauss-Legendre quadrature on the quantiles of ``s``.

    Examples
    --------
    >>> limits_power([40, 100], 0.5, 2.5, 8.0, 0.95, 0.95).round(3).tolist()
    [0.877, 1.0]
    """
    from scipy.stats import chi2, norm

    n, b, s, d, c, lv = np.broadcast_arrays(
        np.asarray(n, dtype=np.int64), *(np.asarray(v, float)
                                         for v in (bias, sd, delta, coverage, level)))
    shape = n.shape
    n, b, s, d, c, lv = (np.ravel(v) for v in (n, b, s, d, c, lv))
    z = norm.isf((1 - c) / 2)
    k = np.array([_factor(int(ni), float(zi), float(li), ci_method)
                  for ni, zi, li in zip(n, z, lv, strict=True)])
    x, w = _quadrature()
    u = (x + 1) / 2  # quantile levels of the SD's distribution
    sample_sd = s[:, None] * np.sqrt(chi2.ppf(u[None, :], n[:, None] - 1) / (n[:, None] - 1))
    root = np.sqrt(n)[:, None] / s[:, None]
    with np.errstate(over="ignore"):  # a huge delta / sd: the arguments are +-inf, Phi 1 or 0
        upper = norm.cdf(root * (d[:, None] - k[:, None] * sample_sd - b[:, None]))
        lower = norm.cdf(root * (-d[:, None] + k[:, None] * sample_sd - b[:, None]))
    inside = np.clip(upper - lower, 0.0, None)
    return ((inside * w[None, :]).sum(axis=1) / 2).reshape(shape)


def _check_positive(value: Any, name: str) -> float:
    if isinstance(value, bool) or not isinstance(value, int | float | np.integer | np.floating):
        raise TypeError(f"`{name}` must be a positive number; got {show_value(value)}.")
    value = float(value)
    if not 0 < value < np.inf:
        raise ValueError(f"`{name}` must be positive and finite; got {show_value(value)}.")
    return value


def _check_real(value: Any, name: str) -> float:
    if isinstance(value, bool) or not isinstance(value, int | float | np.integer | np.floating):
        raise TypeError(f"`{name}` must be a real number; got {show_value(value)}.")
    value = float(value)
    if not np.isfinite(value):
        raise ValueError(f"`{name}` must be finite; got {show_value(value)}.")
    return value


def _sentence(row: dict[str, Any]) -> str:
    method = "exact" if row["ci_method"] == "exact" else "approximate"
    cite = "Shieh, 2019" if method == "exact" else "Lu et al., 2016"
    bias = format_significant(row["bias"])
    if not is_reached(row["n"]):
        return (f"Even {MAX_LIMITS_SUBJECTS:,} subjects do not give "
                f"{percent(row['target_power'])} power to show that the limits of agreement "
                f"lie within \u00b1{row['delta']:g} when the mean difference is "
                f"{bias} and the SD of the differences {row['sd']:g}: the target cannot be "
                f"reached ({cite}).")
    return (f"With {int(row['n']):,} subjects measured by both methods, the "
            f"{percent(row['confidence_level'])} confidence limits ({method}) of the "
            f"{percent(row['coverage'])} limits of agreement fall within "
            f"\u00b1{row['delta']:g} with {100 * row['power']:.0f}% power when the mean "
            f"difference is {bias} and the SD of the differences {row['sd']:g} "
            f"({cite}).")


def _evaluate(cols: dict[str, np.ndarray], ci_method: str, ns: np.ndarray,
              index: np.ndarray) -> np.ndarray:
    """The power of rows `index` at `ns` (a PlanResult's ``evaluate``, picklable)."""
    return limits_power(ns, *(cols[c][index] for c in ("bias", "sd", "delta", "coverage",
                                                        "confidence_level")), ci_method)


def limits_of_agreement(
    bias: float | Any,
    sd: float | Any,
    delta: float | Any,
    *,
    power: float | Any | None = None,
    n: int | Any | None = None,
    coverage: float | Any = 0.95,
    confidence_level: float | Any = 0.95,
    ci_method: str = "exact",
) -> PlanResult:
    """Subjects needed to show that two methods agree within ``delta`` (both confidence
    limits of the limits of agreement inside ``[-delta, delta]``), or the power of `n`.

    Each of `bias`, `sd`, `delta`, `power`, `n`, `coverage` and `confidence_level` may be
    a sequence: one row per combination.

    Parameters
    ----------
    bias : float or sequence of float
        The anticipated mean difference between the methods.
    sd : float or sequence of float
        The anticipated SD of the differences.
    delta : float or sequence of float
        The largest difference that is clinically acceptable.
    power : float or sequence of float, optional
        Target power; default 0.8 when `n` is not given. Give `power` or `n`.
    n : int or sequence of int, optional
        Subjects: the power at these ``n``.
    coverage : float, default 0.95
        The limits of agreement hold this share of differences (``bias -+ z sd``).
    confidence_level : float, default 0.95
        Of each limit's interval.
    ci_method : {'exact', 'approximate'}, default 'exact'
        The intervals of :func:`irr.limits_of_agreement`: exact (non-central t; Shieh,
        2019) or Bland & Altman's approximation (Lu et al., 2016).

    Returns
    -------
    PlanResult
        Columns: the inputs, ``n`` and ``power``; ``n`` is -1 when more than 10,000,000
        subjects would be needed.

    Raises
    ------
    ValueError
        When ``|bias| + z sd >= delta``: the true limits already reach beyond ``delta``,
        so no number of subjects can show agreement.

    Notes
    -----
    Agreement is shown when the upper confidence limit of the upper limit of agreement
    is below ``delta`` and the lower confidence limit of the lower limit is above
    ``-delta``: ``|dbar| + K s < delta``, with ``K`` the exact factor
    (:func:`irr.coefficients.limits.exact_limit_factors`) or ``z + t sqrt((1 + z^2/2)/n)``.
    The power is computed exactly for normal differences (:func:`limits_power`), not by
    Lu et al.'s non-central t approximation; ``n`` is the smallest integer reaching the
    target. No published table was reproduced; the slow tests check the power against the
    rejection rate of :func:`irr.limits_of_agreement` on simulated data.

    References
    ----------
    Lu, M.-J., et al. (2016). The International Journal of Biostatistics, 12(2).
    https://doi.org/10.1515/ijb-2015-0039

    Shieh, G. (2019). Statistics in Biopharmaceutical Research, 12(3), 352-359.

    Examples
    --------
    >>> import irr
    >>> res = irr.plan.limits_of_agreement(bias=0.5, sd=2.5, delta=8.0, power=0.8)
    >>> int(res.n)
    34
    """
    from scipy.stats import norm

    ci_method = check_choice(ci_method, "ci_method", ("exact", "approximate"))
    check_power_or_n(power, n)
    last = ("n", as_values(n, "n", lambda v, name: check_n(v, name, minimum=3))) \
        if n is not None else ("target_power", as_values(0.8 if power is None else power,
                                                         "power", check_open_unit))
    grid = design_grid(bias=as_values(bias, "bias", _check_real),
                       sd=as_values(sd, "sd", _check_positive),
                       delta=as_values(delta, "delta", _check_positive),
                       coverage=as_values(coverage, "coverage", check_open_unit),
                       confidence_level=as_values(confidence_level, "confidence_level",
                                                  check_open_unit),
                       **{last[0]: last[1]})
    grid["ci_method"] = ci_method
    z = norm.isf((1 - grid["coverage"].to_numpy()) / 2)
    reach = np.abs(grid["bias"].to_numpy()) + z * grid["sd"].to_numpy()
    bad = reach >= grid["delta"].to_numpy()
    if bad.any():
        i = int(np.flatnonzero(bad)[0])
        raise ValueError(
            f"`delta` = {grid['delta'].iloc[i]:g} is within the true limits of agreement "
            f"(|bias| + z sd = {reach[i]:.4g}): no number of subjects can show agreement.")
    cols = {c: grid[c].to_numpy() for c in ("bias", "sd", "delta", "coverage",
                                            "confidence_level")}

    evaluate = partial(_evaluate, cols, ci_method)

    every = np.arange(len(grid))
    if n is not None:
        grid["power"] = evaluate(grid["n"].to_numpy(), every)
        outputs: tuple[str, ...] = ("power",)
    else:
        put_solved(grid, solve_n(lambda ns: evaluate(ns, every),
                                 grid["target_power"].to_numpy(), low=3,
                                 high=MAX_LIMITS_SUBJECTS),
                   lambda ns: evaluate(ns, every), low=3)
        outputs = ("n", "power")
    inputs = tuple(c for c in ("bias", "sd", "delta", "coverage", "confidence_level",
                               "target_power", "n")
                   if c in grid.columns and not (c == "n" and n is None))
    exact = ci_method == "exact"
    return PlanResult(
        title="Subjects to show agreement within limits" if n is None
        else "Power to show agreement within limits",
        method="exact limits CI (Shieh 2019)" if exact else "approximate CI (Lu et al. 2016)",
        table=grid, inputs=inputs, outputs=outputs, measure="power",
        citation="Shieh, 2019" if exact else "Lu et al., 2016",
        references=(SHIEH, LU) if exact else (LU,), sentence=_sentence, evaluate=evaluate,
    )
