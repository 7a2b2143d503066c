"""Results in words and side by side: report sentences for papers and comparison tables.

Nothing here computes a statistic: every number comes from a result's fields.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

from irr._validation import check_choice, check_integer
from irr.bands import get_scale, interpret

if TYPE_CHECKING:

    from irr.results import Result

__all__ = ["band_and_citation", "format_number", "report"]

STYLES = ("apa", "plain")

_CI_NAMES = {
    "wald": "",
    "wilson": "Wilson ",
    "percentile": "percentile bootstrap ",
    "basic": "basic bootstrap ",
    "bca": "BCa bootstrap ",
    "satterthwaite": "approximate F ",  # ICC(A,.): F-based with Satterthwaite's df
}


def format_number(value: float, digits: int, *, leading_zero: bool = True) -> str:
    """`value` rounded to `digits` decimals; APA style drops the zero before the point.

    ``-0.00`` is shown as ``0.00`` (``.00``): a sign on a value that rounds to zero says
    nothing. An undefined value is ``"nan"``.

    Examples
    --------
    >>> format_number(0.6607, 2, leading_zero=False), format_number(-0.054, 2, leading_zero=False)
    ('.66', '-.05')
    >>> format_number(1.0, 2, leading_zero=False), format_number(12.3456, 2)
    ('1.00', '12.35')
    """
    if value is None or not math.isfinite(value):
        return "nan" if value is None or math.isnan(value) else ("inf" if value > 0 else "-inf")
    text = f"{value:.{digits}f}"
    if float(text) == 0:
        text = text.lstrip("-")
    if not leading_zero:
        if text.startswith("0."):
            text = text[1:]
        elif text.startswith("-0."):
            text = "-" + text[2:]
    return text


def _apa_pvalue(p: float) -> str:
    if p < 0.001:
        return "p < .001"
    if p > 0.999:
        return "p > .999"
    return f"p = {format_number(p, 3, leading_zero=False)}"


def _who(raters: Sequence[str], max_names: int = 3) -> str:
    raters = list(raters)
    if len(raters) == 2:
        return f" between {raters[0]} and {raters[1]}"
    if 2 < len(raters) <= max_names:
        return f" among {', '.join(raters[:-1])}, and {raters[-1]}"
    if len(raters) > max_names:
        return f" among the {len(raters)} raters"
    return ""


def band_and_citation(result: Result, scale: Any) -> tuple[str, str]:
    """The band label and the scale's in-text citation ("" when there is no scale)."""
    chosen = result.scale if scale is None else scale
    if chosen is None or not math.isfinite(result.estimate):
        return "", ""
    resolved = get_scale(chosen)
    if not resolved.lower <= result.estimate <= resolved.upper:
        return "", ""
    return interpret(result.estimate, resolved).label, resolved.attribution


def report(
    result: Result,
    style: str = "apa",
    *,
    digits: int | None = None,
    scale: Any = None,
    citation: bool = False,
    test: bool = False,
) -> str:
    """One sentence reporting a result, ready for a paper.

    Parameters
    ----------
    result : Result
        Any result of the package.
    style : {'apa', 'plain'}, default 'apa'
        ``'apa'``: APA 7 numbers. Statistics that cannot exceed 1 in absolute value
        (kappas, alpha, ICC, proportions, p-values; those whose ``bounds`` lie in
        [-1, 1]) lose the zero before the decimal point (κ = .66); confidence intervals
        are ``95% CI [.54, .78]``; p-values are exact to three decimals or ``p < .001``.
        ``'plain'``: the coefficient's name, leading zeros, ``95% CI 0.542 to 0.779``.
    digits : int, optional
        Decimals of the estimate and interval; default 2 (APA) or 3 (plain).
    scale : str or Scale, optional
        The benchmark scale naming the band; default the result's own (Landis & Koch
        for kappas). Results without a scale get no band.
    citation : bool, default False
        Cite the scale after the band, e.g. "substantial (Landis & Koch, 1977)".
    test : bool, default False
        Add the test of no agreement beyond chance (``z = ..., p ...``) when the result
        has one.

    Returns
    -------
    str

    Notes
    -----
    The band is that of the point estimate; the interval says how sure it is. An
    undefined estimate (nan) is reported as such, with the number of subjects. A
    non-Wald interval is named (``95% BCa bootstrap CI``). Subjects left out for a
    missing rating are counted after ``n``. The absolute-agreement ICC's F-based interval
    is approximate (Satterthwaite's df) and named so (``95% approximate F CI``).

    Examples
    --------
    >>> import irr
    >>> ag = irr.Agreement.from_table([[10, 4, 1, 0], [5, 10, 12, 2],
    ...                                [2, 4, 12, 5], [0, 2, 6, 13]],
    ...                               names=["reader1", "reader2"])
    >>> ag.kappa(weights="quadratic").report()
    'Agreement between reader1 and reader2 was substantial, κw = .66, 95% CI [.54, .78], n = 88.'
    """
    check_choice(style, "style", STYLES)
    apa = style == "apa"
    digits = (2 if apa else 3) if digits is None else check_integer(digits, "digits", 0)
    low_bound, high_bound = result.bounds
    bounded = low_bound >= -1.0 and high_bound <= 1.0
    leading = not (apa and bounded)

    def num(x: float, places: int = digits, lead: bool = leading) -> str:
        return format_number(x, places, leading_zero=lead)

    if hasattr(result, "epsilon0") and hasattr(result, "errors"):
        return _error_rate_sentence(result, apa, num, digits)
    if hasattr(result, "epsilon0"):  # the t test of a mean error rate over k runs
        return _error_rate_ttest_sentence(result, apa, num, digits)
    noun = "Reliability" if "ICC" in result.coefficient or "intraclass" in result.coefficient.lower() \
        else "Agreement"
    who = _who(result.raters)
    n_text = f"n = {result.n_subjects}"
    paired = getattr(result, "n_paired", 0)  # Gwet family: p_a on subjects with a pair
    if 0 < paired < result.n_subjects:
        n_text = f"n = {paired} subjects with two or more ratings (of {result.n_subjects})"
    if result.n_missing:
        n_text += f" ({result.n_missing} left out for a missing rating)"
    if not math.isfinite(result.estimate):
        name = result.symbol if apa else result.coefficient
        return f"{noun}{who} could not be estimated: {name} is undefined ({n_text})."
    band, attribution = band_and_citation(result, scale)
    cite = f" ({attribution})" if citation and band else ""
    ci = result.ci
    level = f"{100 * ci.confidence_level:g}%"
    method = _CI_NAMES.get(ci.method, f"{ci.method} ")
    has_ci = math.isfinite(ci.low) and math.isfinite(ci.high)
    has_test = test and math.isfinite(result.statistic) and math.isfinite(result.pvalue)
    if apa:
        parts = [f"{result.symbol} = {num(result.estimate)}"]
        if has_ci:
            parts.append(f"{level} {method}CI [{num(ci.low)}, {num(ci.high)}]")
        if has_test:
            parts.append(f"z = {num(result.statistic, 2, True)}, {_apa_pvalue(result.pvalue)}")
        parts.append(n_text)
        numbers = ", ".join(parts)
        if band:
            return f"{noun}{who} was {band}{cite}, {numbers}."
        return f"{noun}{who}: {numbers}."
    text = f"{result.coefficient}{who} = {num(result.estimate)}"
    inner = []
    if has_ci:
        inner.append(f"{level} {method}CI {num(ci.low)} to {num(ci.high)}")
    if has_test:
        p = "p < 0.001" if result.pvalue < 0.001 else f"p = {result.pvalue:.3f}"
        inner.append(f"z = {result.statistic:.2f}, {p}")
    inner.append(n_text)
    text += f" ({'; '.join(inner)})"
    if band:
        text += f": {band} agreement{cite}"
    return text + "."


def _interval_text(ci: Any, apa: bool, num: Any) -> str:
    """``95% CI [.05, .11]`` (APA) or ``95% CI 0.05 to 0.11``; one-sided ends as inf."""
    level = f"{100 * ci.confidence_level:g}%"
    if not (math.isfinite(ci.low) or math.isfinite(ci.high)):
        return f"no {level} CI"
    if apa:
        return f"{level} CI [{num(ci.low)}, {num(ci.high)}]"
    return f"{level} CI {num(ci.low)} to {num(ci.high)}"


def _error_rate_ttest_sentence(result: Any, apa: bool, num: Any, digits: int) -> str:
    """The t test of a mean error rate: the mean, its interval, t, df, p."""
    eps0 = format_number(result.epsilon0, max(digits, 2), leading_zero=not apa)
    t = format_number(result.statistic, 2)
    interval = _interval_text(result.ci, apa, num)
    if apa:
        p = _apa_pvalue(result.pvalue) if math.isfinite(result.pvalue) else "p undefined"
        return (f"The mean error rate over {result.k} runs was ε = {num(result.estimate)}, "
                f"{interval}; t test of ε0 = {eps0} ({result.alternative}), "
                f"t({result.df}) = {t}, {p}.")
    p = ("p undefined" if not math.isfinite(result.pvalue)
         else "p < 0.001" if result.pvalue < 0.001 else f"p = {result.pvalue:.3f}")
    return (f"{result.coefficient} = {num(result.estimate)} over {result.k} runs ({interval}); "
            f"t test of {eps0} ({result.alternative}): t({result.df}) = {t}, {p}.")


def _error_rate_sentence(result: Any, apa: bool, num: Any, digits: int) -> str:
    """An error-rate test: the rate, its interval, the exact p-value and the decision."""
    ci = result.ci
    level = f"{100 * ci.confidence_level:g}%"
    rate = num(result.estimate)
    eps0 = format_number(result.epsilon0, max(digits, 2), leading_zero=not apa)
    if apa:
        p = _apa_pvalue(result.pvalue)
        return (f"The error rate{_who(result.raters)} was ε = {rate}, {level} CI "
                f"[{num(ci.low)}, {num(ci.high)}], {result.errors} errors in n = "
                f"{result.n_subjects}; exact binomial test of ε0 = {eps0} ({result.alternative}), "
                f"{p}.")
    p = "p < 0.001" if result.pvalue < 0.001 else f"p = {result.pvalue:.3f}"
    return (f"{result.coefficient} = {rate} ({result.errors} of {result.n_subjects}; {level} "
            f"CI {num(ci.low)} to {num(ci.high)}); exact binomial test of {eps0} "
            f"({result.alternative}): {p}.")
