"""Argument validation shared by every public function.

Each checker names the offending argument in backticks and echoes the bad value, so
that a user can see at once what to change.
"""

from __future__ import annotations

import numbers
from collections.abc import Iterable
from typing import Any

import numpy as np

__all__ = [
    "DegenerateDataWarning",
    "check_alternative",
    "check_bool",
    "check_choice",
    "check_confidence_level",
    "check_integer",
    "check_label_kinds",
    "check_open_unit",
    "check_report_style",
    "check_rng",
]

ALTERNATIVES = ("two-sided", "greater", "less")


class DegenerateDataWarning(RuntimeWarning):
    """The data do not define the statistic; the result is ``nan``.

    Examples
    --------
    >>> import warnings
    >>> import irr
    >>> with warnings.catch_warnings(record=True) as caught:
    ...     warnings.simplefilter("always")
    ...     res = irr.cohen_kappa(["a", "a", "a"], ["a", "a", "a"])
    >>> res.estimate
    nan
    >>> caught[0].category.__name__
    'DegenerateDataWarning'
    """


def show_value(value: Any) -> str:
    text = repr(value)
    return text if len(text) <= 80 else text[:77] + "..."


def check_choice(value: Any, name: str, choices: Iterable[str]) -> str:
    """Return `value` if it is one of `choices` (exact, case-sensitive), else raise."""
    choices = tuple(choices)
    if not isinstance(value, str) or value not in choices:
        listed = ", ".join(repr(c) for c in choices)
        raise ValueError(f"`{name}` must be one of {listed}; got {show_value(value)}.")
    return value


def check_alternative(alternative: Any) -> str:
    """Validate a scipy-style `alternative`."""
    return check_choice(alternative, "alternative", ALTERNATIVES)


def check_report_style(style: Any, options: dict[str, Any]) -> bool:
    """Validate a ``report(style, digits)`` call: True for the APA style, False for
    plain; any other keyword in `options` is a TypeError naming it."""
    check_choice(style, "style", ("apa", "plain"))
    if options:
        raise TypeError(f"Unknown option(s) {sorted(options)}; `report` takes `style` "
                        "and `digits`.")
    return style == "apa"


def check_bool(value: Any, name: str) -> bool:
    """Return `value` if it is a boolean (Python's or numpy's), else raise a TypeError: a
    string such as ``"no"`` is truthy, so it is refused rather than taken as True.

    >>> check_bool(False, "test")
    False
    """
    if isinstance(value, (bool, np.bool_)):
        return bool(value)
    raise TypeError(f"`{name}` must be True or False; got {show_value(value)}.")


def check_open_unit(value: Any, name: str) -> float:
    """Return `value` as a float if it lies strictly inside (0, 1), else raise."""
    if isinstance(value, bool) or not isinstance(value, numbers.Real):
        raise TypeError(f"`{name}` must be a real number in (0, 1); got {show_value(value)}.")
    value = float(value)
    if not 0.0 < value < 1.0:
        raise ValueError(f"`{name}` must be in (0, 1); got {show_value(value)}.")
    return value


def check_confidence_level(confidence_level: Any) -> float:
    """Validate a confidence level in (0, 1)."""
    return check_open_unit(confidence_level, "confidence_level")


def check_integer(value: Any, name: str, minimum: int | None = None) -> int:
    """Return `value` as an int if it is integral (and at least `minimum`), else raise."""
    if isinstance(value, (bool, np.bool_)):
        raise TypeError(f"`{name}` must be an integer, not a boolean; got {show_value(value)}.")
    if not isinstance(value, numbers.Integral):
        if isinstance(value, numbers.Real) and float(value).is_integer():
            value = int(value)
        else:
            raise TypeError(f"`{name}` must be an integer; got {show_value(value)}.")
    value = int(value)
    if minimum is not None and value < minimum:
        raise ValueError(f"`{name}` must be at least {minimum}; got {value}.")
    return value


def check_label_kinds(values: Any, name: str) -> None:
    """Refuse group labels (clusters, strata) that mix strings with numbers.

    numpy would turn ``[1, "1"]`` into two equal strings and merge two groups; which of
    them the user meant is not ours to guess.

    Examples
    --------
    >>> check_label_kinds([1, "1"], "cluster")
    Traceback (most recent call last):
    ...
    TypeError: `cluster` mixes label types (mixed-integer): ids such as 1 and '1' ...
    """
    from pandas.api.types import infer_dtype

    raw = values.to_numpy() if hasattr(values, "to_numpy") else values
    if isinstance(raw, np.ndarray) and raw.dtype != object:
        return
    raw = np.asarray(raw, dtype=object)
    if raw.ndim != 1:
        return  # the caller reports the shape
    kind = infer_dtype(raw, skipna=True)
    if kind in ("mixed", "mixed-integer"):
        raise TypeError(
            f"`{name}` mixes label types ({kind}): ids such as 1 and '1' would be ambiguous; "
            "give every label the same type."
        )


def check_rng(rng: Any) -> np.random.Generator:
    """Turn `rng` (None, an int seed or a Generator) into a numpy Generator."""
    if rng is None or isinstance(rng, np.random.Generator):
        return np.random.default_rng(rng)
    if isinstance(rng, numbers.Integral) and not isinstance(rng, bool):
        if int(rng) < 0:
            raise ValueError(f"`rng` seed must be non-negative; got {int(rng)}.")
        return np.random.default_rng(int(rng))
    raise TypeError(
        f"`rng` must be None, a non-negative int seed or a numpy.random.Generator; got {show_value(rng)}."
    )
