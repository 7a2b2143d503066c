"""Numbers in prose: the one formatter of every number a sentence of the package writes.

Report sentences (``result.report()``, :func:`irr.report`, ``irr report``), methods
paragraphs and figure annotations format their numbers here, so that one rule holds for all
of them. Machine-readable outputs (``to_frame()``, ``to_dict()``, CSV, JSON numbers and the
statsmodels summary tables) keep their own plain formats: ASCII hyphen-minus, leading zeros.

The rules (APA Publication Manual, 7th ed., sections 6.36, 6.41-6.44; APA Style,
"Numbers and statistics"):

=====================================  ======================================  ===========
what                                   call                                    text
=====================================  ======================================  ===========
statistic that cannot exceed 1 (a      ``format_number(0.6607, 2,              ``.66``
correlation, kappa, alpha, ICC, a      leading_zero=False)``
proportion, an error rate)
negative value                         ``format_number(-0.054, 2,              ``−.05``
                                       leading_zero=False)``
a value that can exceed 1 (a test      ``format_number(2.1, 2)``               ``2.10``
statistic, a slope, a measurement)
a measurement in its units, in the     ``format_number(-2.118, 1)``            ``−2.1``
data's precision (the caller's digits)
a fitted line's coefficient, a value   ``format_significant(-15.0712, 4)``     ``−15.07``
as the user gave it
a value that rounds to zero            ``format_number(-0.001, 2)``            ``0.00``
p-value (APA)                          ``format_pvalue(0.0032)``               ``p = .003``
small p-value (APA)                    ``format_pvalue(0.0002)``               ``p < .001``
p-value (plain style)                  ``format_pvalue(0.0032, apa=False)``    ``p = 0.003``
confidence interval (APA), named by    ``format_interval(.51, .73, .95,        ``95% CI [.51,
its level and its method (the words    "Wald", ends=...)``                     .73] (Wald)``
of :mod:`irr.vocabulary`)
=====================================  ======================================  ===========

- **No leading zero** before the decimal point for a statistic that cannot exceed 1 in
  absolute value (``leading_zero=False``: the caller knows the statistic, e.g. from its
  result's ``bounds``); a leading zero otherwise (``0.85 l/min``). The plain style keeps
  the leading zero everywhere (``leading_zero=True``).
- **Decimals**: the caller's `digits` (two for coefficients and test statistics; a
  measurement in the precision of its data). p-values to three decimals, ``p < .001``
  below .001 and ``p > .999`` above .999 (an exact p never reads ``1.000``).
- **Minus sign**: a negative number is written with the true minus sign U+2212
  (:data:`MINUS`), the typographic and APA convention, in both styles. A value that rounds
  to zero has no sign (``0.00``, not ``−0.00``). ``minus='-'`` gives the ASCII
  hyphen-minus, for cells of machine-readable tables.
- **Intervals**: every interval a sentence writes goes through :func:`format_interval`, and
  names its method in the same sentence (``95% CI [.51, .73] (percentile bootstrap, 9,999
  resamples)``), so that a sentence copied alone into a paper still says how its interval
  was computed.
- **Undefined**: nan is written as `undefined` (default ``'nan'``); infinities as ``∞`` and
  ``−∞``.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from typing import Any

__all__ = ["MINUS", "format_df", "format_interval", "format_number", "format_pvalue",
           "format_significant"]

#: The minus sign of prose: U+2212 MINUS SIGN, not the ASCII hyphen-minus.
MINUS = "\u2212"


def _special(value: Any, undefined: str, minus: str) -> str | None:
    """The text of an undefined or infinite value; None for a finite one."""
    if value is None or math.isnan(value):
        return undefined
    if math.isinf(value):
        return "∞" if value > 0 else f"{minus}∞"
    return None


def format_number(value: float | None, digits: int = 2, *, leading_zero: bool = True,
                  minus: str = MINUS, undefined: str = "nan") -> str:
    """`value` rounded to `digits` decimals, in the APA style of the module's rules.

    Parameters
    ----------
    value : float or None
        The number.
    digits : int, default 2
        Decimals.
    leading_zero : bool, default True
        False for a statistic that cannot exceed 1 in absolute value (correlations, kappas,
        ICCs, proportions): APA drops the zero before the decimal point.
    minus : str, default :data:`MINUS`
        The sign of a negative number: U+2212 in prose, ``'-'`` in a machine-readable cell.
    undefined : str, default 'nan'
        The text of None or nan.

    Returns
    -------
    str

    Examples
    --------
    >>> format_number(0.6607, 2, leading_zero=False), format_number(-0.054, 2, leading_zero=False)
    ('.66', '−.05')
    >>> format_number(1.0, 2, leading_zero=False), format_number(12.3456, 2)
    ('1.00', '12.35')
    >>> format_number(-2.118, 1), format_number(-0.001, 2), format_number(-0.5, 2, minus="-")
    ('−2.1', '0.00', '-0.50')
    >>> format_number(float("nan"), 2, undefined="undefined"), format_number(-math.inf)
    ('undefined', '−∞')
    """
    special = _special(value, undefined, minus)
    if special is not None:
        return special
    text = f"{value:.{digits}f}"
    negative = text.startswith("-")
    text = text.lstrip("-")
    if not leading_zero and text.startswith("0."):
        text = text[1:]
    # a value that rounds to zero has no sign
    return f"{minus}{text}" if negative and float(text) != 0 else text


def format_significant(value: float | None, figures: int = 6, *, minus: str = MINUS,
                       undefined: str = "nan") -> str:
    """`value` to `figures` significant digits (Python's ``g`` format: trailing zeros
    dropped), with the minus sign of prose: for values whose scale the data set (a fitted
    line's coefficients) and for values as the user gave them (a planned bias of -5).

    Examples
    --------
    >>> format_significant(-15.0712, 4), format_significant(0.028693, 4)
    ('−15.07', '0.02869')
    >>> format_significant(-5.0), format_significant(0.35), format_significant(-0.0001234, 2)
    ('−5', '0.35', '−0.00012')
    """
    special = _special(value, undefined, minus)
    if special is not None:
        return special
    return f"{value:.{figures}g}".replace("-", minus)


def format_pvalue(p: float | None, *, apa: bool = True) -> str:
    """A p-value with its symbol: ``p = .003``, ``p < .001``, ``p > .999`` (APA: three
    decimals, no leading zero) or ``p = 0.003``, ``p < 0.001`` (plain); ``p undefined``
    for nan.

    Examples
    --------
    >>> format_pvalue(0.0032), format_pvalue(0.0002), format_pvalue(0.04249)
    ('p = .003', 'p < .001', 'p = .042')
    >>> format_pvalue(0.99961), format_pvalue(0.0032, apa=False), format_pvalue(0.0002, apa=False)
    ('p > .999', 'p = 0.003', 'p < 0.001')
    >>> format_pvalue(float("nan"))
    'p undefined'
    """
    if p is None or math.isnan(p):
        return "p undefined"
    if apa:
        if p < 0.001:
            return "p < .001"
        if p > 0.999:
            return "p > .999"
        return f"p = {format_number(p, 3, leading_zero=False)}"
    return "p < 0.001" if p < 0.001 else f"p = {format_number(p, 3)}"


def format_df(df: float) -> str:
    """Degrees of freedom as prose and notes print them: whole ones as integers without
    thousands separators (APA 7, sec. 6.38 exempts degrees of freedom), Satterthwaite's and
    other fractional ones with two decimals; never ``2e+06`` (what ``:g`` gives).

    Examples
    --------
    >>> format_df(11.0), format_df(1999999.0), format_df(68.80113)
    ('11', '1999999', '68.80')
    """
    value = float(df)
    if not math.isfinite(value):
        return f"{value:g}"
    return f"{value:.0f}" if value.is_integer() else f"{value:.2f}"


def format_interval(low: float, high: float, confidence_level: float, how: str = "", *,
                    ends: Callable[[float], str], apa: bool = True, inside: bool = False,
                    side: str | None = None) -> str:
    """A confidence interval in prose, with its level and the words of its method: the
    one writer of every interval a sentence of the package gives.

    Parameters
    ----------
    low, high : float
        The interval's ends.
    confidence_level : float
        Its level, a proportion (0.95).
    how : str, default ''
        The method in words, from :func:`irr.vocabulary.interval_name` (with the caller's
        detail: ``"percentile bootstrap, 9,999 resamples"``). Empty only for an interval
        whose method the same sentence names at a later interval of that method.
    ends : callable
        Formats an end (the caller's decimals and leading zero).
    apa : bool, default True
        ``95% CI [.51, .73] (how)`` (APA) or ``95% CI 0.51 to 0.73 (how)`` (plain).
    inside : bool, default False
        The interval sits inside parentheses already (a plain sentence's ``(95% CI ...;
        n = 88)``): the method follows after a comma, not in nested parentheses.
    side : {'lower', 'upper'}, optional
        A one-sided bound: ``one-sided 95% lower confidence bound .80 (how)``.

    Returns
    -------
    str

    Examples
    --------
    >>> apa = lambda x: format_number(x, 2, leading_zero=False)
    >>> format_interval(0.512, 0.734, 0.95, "percentile bootstrap, 9,999 resamples", ends=apa)
    '95% CI [.51, .73] (percentile bootstrap, 9,999 resamples)'
    >>> format_interval(0.512, 0.734, 0.9, "Wald", ends=format_number, apa=False, inside=True)
    '90% CI 0.51 to 0.73, Wald'
    >>> format_interval(0.8, 1.0, 0.95, "logit", ends=apa, side="lower")
    'one-sided 95% lower confidence bound .80 (logit)'
    """
    level = f"{100 * confidence_level:g}%"
    if side is not None:
        text = f"one-sided {level} {side} confidence bound {ends(high if side == 'upper' else low)}"
    elif apa:
        text = f"{level} CI [{ends(low)}, {ends(high)}]"
    else:
        text = f"{level} CI {ends(low)} to {ends(high)}"
    if not how:
        return text
    return f"{text}, {how}" if inside else f"{text} ({how})"
