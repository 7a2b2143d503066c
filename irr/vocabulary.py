"""One vocabulary: the canonical spelling of every interval method, and the one resolver of
the other spellings users type.

Every name a user gives (a statistic for ``--statistics``, :func:`irr.report` and
:func:`irr.by`; an interval method; a benchmark scale; a method-comparison regression for
:func:`irr.plotting.method_comparison`) is matched by :func:`resolve`: case, surrounding
spaces, and ``-``, ``_`` or a space between words do not matter, and a table of aliases
maps other spellings to the canonical one. Only the canonical spelling is ever written
back (Python, the command line, figures, JSON and reports), and an unknown name is a
ValueError that lists the canonical names.

The statistics' names are declared in :mod:`irr.registry`, the scales' in
:data:`irr.bands.SCALES`; the interval methods, which every layer names, are declared here
(:data:`INTERVAL_METHODS`) with the words prose uses for them.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from types import MappingProxyType
from typing import Any, NamedTuple

from irr._validation import show_value

__all__ = ["INTERVAL_ALIASES", "INTERVAL_METHODS", "IntervalMethod", "interval_label",
           "interval_method", "interval_name", "lookup", "normalise", "resolve"]

class IntervalMethod(NamedTuple):
    """How an interval method is written: in sentences and the methods paragraph
    (`name`), and in a table's narrow column (`label`)."""

    name: str
    label: str


#: Every interval method by its canonical name (the value of ``Result.ci.method`` and of
#: the ``ci=`` keywords), with the words sentences and tables use for it. An F-based
#: ``"exact"`` interval (the ICC's) reads "exact F"; bootstrap resamples are added from the
#: result.
INTERVAL_METHODS: Mapping[str, IntervalMethod] = MappingProxyType({
    "wald": IntervalMethod("Wald", "Wald"),
    "wilson": IntervalMethod("Wilson score", "Wilson"),
    "newcombe": IntervalMethod("Newcombe", "Newcombe"),
    "percentile": IntervalMethod("percentile bootstrap", "percentile"),
    "basic": IntervalMethod("basic bootstrap", "basic"),
    "bca": IntervalMethod("BCa bootstrap", "BCa"),
    # an error rate's exact binomial interval
    "exact": IntervalMethod("Clopper-Pearson", "exact"),
    "satterthwaite": IntervalMethod("approximate F, Satterthwaite df", "approx. F"),  # ICC(A,.)
    # the ICC by variance components
    "approximate-f": IntervalMethod("approximate F, effective sizes", "approx. F"),
    "chi2": IntervalMethod("chi-square", "chi-square"),  # a standard deviation's interval
    "t": IntervalMethod("t distribution", "t"),
    "fisher-z": IntervalMethod("Fisher z", "Fisher z"),
    # the TDI's one-sided bound (Lin 2000)
    "log-msd": IntervalMethod("log MSD", "log MSD"),
    # the coverage probability's one-sided bound (Lin et al. 2002)
    "logit": IntervalMethod("logit", "logit"),
    "jackknife": IntervalMethod("jackknife", "jackknife"),
    "rank": IntervalMethod("rank-based", "rank"),
    # nonparametric limits of agreement
    "order statistics": IntervalMethod("order-statistic", "order statistics"),
    # a difference of two coefficients (Zou & Donner)
    "mover": IntervalMethod("MOVER", "MOVER"),
    "none": IntervalMethod("none", ""),
})

#: Other spellings of interval methods (keys as :func:`normalise` writes them).
INTERVAL_ALIASES: Mapping[str, str] = MappingProxyType({
    "bias_corrected_accelerated": "bca",
    "percentile_bootstrap": "percentile",
    "basic_bootstrap": "basic",
    "wilson_score": "wilson",
    "clopper_pearson": "exact",
    "fisher": "fisher-z",
    "fisherz": "fisher-z",
    "chisquare": "chi2",
    "chi_square": "chi2",
    "logmsd": "log-msd",
    "order_statistic": "order statistics",
})


def normalise(name: str) -> str:
    """The key a name is matched by: lowercase, stripped, words joined by ``_``.

    Examples
    --------
    >>> normalise(" Passing-Bablok "), normalise("order statistics")
    ('passing_bablok', 'order_statistics')
    """
    return "_".join(name.strip().lower().replace("-", " ").replace("_", " ").split())


def resolve(name: Any, canonical: Iterable[str], aliases: Mapping[str, str] | None = None, *,
            argument: str, what: str = "name", extra: Iterable[str] = ()) -> str:
    """The canonical spelling of `name` among `canonical`, or a ValueError listing them.

    Parameters
    ----------
    name : str
        What the user typed.
    canonical : iterable of str
        The canonical names, in the order the error message lists them.
    aliases : mapping of str to str, optional
        Other spellings (matched after :func:`normalise`) to canonical names.
    argument : str
        The argument `name` came in by, for the message (``"statistics"``, ``"ci"``,
        ``"method"``, ``"--statistics"``).
    what : str, default 'name'
        What the names are, for the message (``"statistic"``, ``"interval method"``).
    extra : iterable of str
        Words the caller accepts besides (``'all'``, ``'alpha'``), listed in the message.

    Returns
    -------
    str
        A member of `canonical`.

    Raises
    ------
    ValueError
        `name` is no spelling of a canonical name (the message lists them).
    TypeError
        `name` is not a string.

    Examples
    --------
    >>> resolve("Passing-Bablok", ("deming", "passing_bablok"), argument="method")
    'passing_bablok'
    >>> resolve("BCa", INTERVAL_METHODS, INTERVAL_ALIASES, argument="ci")
    'bca'
    >>> resolve("pb", ("deming", "passing_bablok"), argument="method", what="regression")
    Traceback (most recent call last):
    ...
    ValueError: `method` has unknown regression 'pb'; known: 'deming', 'passing_bablok'.
    """
    names = tuple(canonical)
    if not isinstance(name, str):
        raise TypeError(f"`{argument}` must be a string, one of {_listed(names, extra)}; "
                        f"got {show_value(name)}.")
    found = lookup(name, names, aliases)
    if found is None:
        raise ValueError(f"`{argument}` has unknown {what} {show_value(name)}; "
                         f"known: {_listed(names, extra)}.")
    return found


def lookup(name: str, canonical: Iterable[str],
           aliases: Mapping[str, str] | None = None) -> str | None:
    """The canonical spelling of `name` among `canonical`, or None: :func:`resolve` for a
    caller that gathers every unknown name before it says so.

    Examples
    --------
    >>> lookup("Fleiss-Kappa", ("fleiss", "gwet"), {"fleiss_kappa": "fleiss"})
    'fleiss'
    >>> lookup("ac9", ("fleiss", "gwet")) is None
    True
    """
    names = tuple(canonical)
    if name in names:
        return name
    key = normalise(name)
    by_key = {normalise(n): n for n in names}
    if key in by_key:
        return by_key[key]
    target = (aliases or {}).get(key)
    return target if target in names else None


def _listed(names: tuple[str, ...], extra: Iterable[str]) -> str:
    return ", ".join(repr(n) for n in (*names, *extra))


def interval_method(name: Any, argument: str = "ci",
                    choices: Iterable[str] | None = None) -> str:
    """The canonical name of an interval method (among `choices`, default all of them).

    Examples
    --------
    >>> interval_method("Fisher_Z"), interval_method("percentile-bootstrap")
    ('fisher-z', 'percentile')
    """
    return resolve(name, INTERVAL_METHODS if choices is None else choices, INTERVAL_ALIASES,
                   argument=argument, what="interval method")


def interval_name(method: str) -> str:
    """The words prose uses for an interval method: ``"Wald"``, ``"BCa bootstrap"``; an
    unknown method is named as it is spelled.

    Examples
    --------
    >>> interval_name("bca"), interval_name("satterthwaite")
    ('BCa bootstrap', 'approximate F, Satterthwaite df')
    """
    known = INTERVAL_METHODS.get(method)
    return method if known is None else known.name


def interval_label(method: str) -> str:
    """An interval method as a table's narrow column names it: ``"Wald"``, ``"BCa"``,
    ``"approx. F"``; an unknown method is named as it is spelled.

    Examples
    --------
    >>> interval_label("bca"), interval_label("satterthwaite"), interval_label("none")
    ('BCa', 'approx. F', '')
    """
    known = INTERVAL_METHODS.get(method)
    return method if known is None else known.label
