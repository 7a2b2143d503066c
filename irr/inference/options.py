"""The inference options every coefficient takes, validated once."""

from __future__ import annotations

import math
import numbers
from dataclasses import dataclass, fields
from typing import Any

import numpy as np

from irr._validation import (
    check_alternative,
    check_choice,
    check_confidence_level,
    check_rng,
    show_value,
)
from irr.inference.keywords import (
    ASYMPTOTIC_METHODS,
    BOOTSTRAP_METHODS,
    DEFAULT_RESAMPLES,
    DISTRIBUTIONS,
    FORMULA_METHODS,
    KEYWORDS,
    SAMPLING,
    check_n_resamples,
    inference_keywords,
)

__all__ = [
    "ASYMPTOTIC_METHODS",
    "BOOTSTRAP_METHODS",
    "DEFAULT_OPTIONS",
    "DEFAULT_RESAMPLES",
    "DISTRIBUTIONS",
    "FORMULA_METHODS",
    "SAMPLING",
    "InferenceOptions",
]

@inference_keywords(tuple(k for k in KEYWORDS if k != "missing"),
                    cis=(*FORMULA_METHODS, *BOOTSTRAP_METHODS, None),
                    ci="Each statistic offers a few of these (its own `ci`); None leaves the "
                       "choice to the statistic, or skips the interval where it has one.")
@dataclass(frozen=True, kw_only=True)
class InferenceOptions:
    """How to test and bound a coefficient: the same options on every method, by keyword
    (:meth:`from_keywords`), each validated once.

    Examples
    --------
    >>> opts = InferenceOptions(ci="bca", rng=1)
    >>> opts.confidence_level, opts.ci
    (0.95, 'bca')
    >>> InferenceOptions(alternative="bigger")
    Traceback (most recent call last):
    ...
    ValueError: `alternative` must be one of 'two-sided', 'greater', 'less'; got 'bigger'.
    >>> InferenceOptions(distribution="t").t_df(12)
    11.0
    >>> InferenceOptions().t_df(12)
    inf
    >>> InferenceOptions(null=0.4).null_for((-1.0, 1.0), "Fleiss' kappa")
    0.4
    >>> InferenceOptions(null=1.5).null_for((-1.0, 1.0), "Fleiss' kappa")
    Traceback (most recent call last):
    ...
    ValueError: `null` must lie inside the range of Fleiss' kappa, (-1, 1); got 1.5.
    """

    alternative: str = "two-sided"
    confidence_level: float = 0.95
    ci: str | None = "wald"
    n_resamples: int = DEFAULT_RESAMPLES
    rng: Any = 0
    progress: bool | None = None
    distribution: str = "normal"
    population: float | None = None
    null: float | None = None
    ci_clip: bool = True
    sampling: str = "subjects"
    rater_population: float | None = None

    def __post_init__(self) -> None:
        object.__setattr__(self, "alternative", check_alternative(self.alternative))
        object.__setattr__(self, "confidence_level",
                           check_confidence_level(self.confidence_level))
        if self.ci is not None:
            check_choice(self.ci, "ci", FORMULA_METHODS + BOOTSTRAP_METHODS)
        object.__setattr__(self, "n_resamples", check_n_resamples(self.n_resamples))
        rng = self.rng
        if not (isinstance(rng, (int, np.integer)) and not isinstance(rng, bool) and rng >= 0):
            check_rng(rng)  # builds a Generator; a valid int seed needs no check beyond this
        if self.progress is not None and not isinstance(self.progress, bool):
            raise TypeError(
                f"`progress` must be True, False or None; got {show_value(self.progress)}."
            )
        check_choice(self.distribution, "distribution", DISTRIBUTIONS)
        check_choice(self.sampling, "sampling", SAMPLING)
        if self.sampling != "subjects" and self.ci in BOOTSTRAP_METHODS:
            raise ValueError(
                f"`sampling={self.sampling!r}` gives an SE over raters, but `ci={self.ci!r}` "
                "resamples subjects only; use ci='wald' (the interval on that SE)."
            )
        population = self.population
        if population is not None:
            if isinstance(population, bool) or not isinstance(population, numbers.Real):
                raise TypeError("`population` must be a number of subjects (a positive "
                                f"number or None); got {show_value(population)}.")
            if not population > 0:  # nan fails too
                raise ValueError("`population` must be a positive number of subjects (or "
                                 f"None for an infinite population); got {show_value(population)}.")
            object.__setattr__(self, "population",
                               None if math.isinf(population) else float(population))
        null = self.null
        if null is not None:
            if isinstance(null, bool) or not isinstance(null, numbers.Real):
                raise TypeError("`null` must be a number (the coefficient's value under H0) "
                                f"or None; got {show_value(null)}.")
            if not math.isfinite(null):
                raise ValueError(f"`null` must be a finite number; got {show_value(null)}.")
            object.__setattr__(self, "null", float(null))
        if not isinstance(self.ci_clip, (bool, np.bool_)):
            raise TypeError(f"`ci_clip` must be True or False; got {show_value(self.ci_clip)}.")
        object.__setattr__(self, "ci_clip", bool(self.ci_clip))
        raters = self.rater_population
        if raters is not None:
            if isinstance(raters, bool) or not isinstance(raters, numbers.Real):
                raise TypeError("`rater_population` must be a number of raters (a positive "
                                f"number or None); got {show_value(raters)}.")
            if not raters > 0:
                raise ValueError("`rater_population` must be a positive number of raters (or "
                                 f"None for an infinite population); got {show_value(raters)}.")
            if self.sampling == "subjects":
                raise ValueError(
                    "`rater_population` corrects the variance over raters, which "
                    "`sampling='subjects'` does not use; pass `sampling='raters'` or "
                    f"`sampling='both'` with it; got `rater_population` {raters:g}."
                )
            object.__setattr__(self, "rater_population",
                               None if math.isinf(raters) else float(raters))

    @classmethod
    def from_keywords(cls, **keywords: Any) -> InferenceOptions:
        """The options of a method's inference keywords, by name (those it does not take
        keep their defaults).

        Raises
        ------
        TypeError
            A name that is not an inference option (the message lists them).

        Examples
        --------
        >>> InferenceOptions.from_keywords(confidence_level=0.9, ci="bca").ci
        'bca'
        >>> InferenceOptions.from_keywords(level=0.9)
        Traceback (most recent call last):
        ...
        TypeError: `level` is not an inference option; they are alternative, confidence_level, \
ci, n_resamples, rng, progress, distribution, population, null, ci_clip, sampling, rater_population.
        """
        key = _constant_key(keywords) if cls is InferenceOptions else None
        built = _BUILT.get(key)
        if built is not None:
            return built
        if cls is InferenceOptions and all(
                type(value) is type(_DEFAULTS.get(name, _UNSET)) and value == _DEFAULTS[name]
                for name, value in keywords.items()):
            built = DEFAULT_OPTIONS  # every value a default of its own type: nothing to check
        else:
            names = [f.name for f in fields(cls)]
            for name in keywords:
                if name not in names:
                    raise TypeError(f"`{name}` is not an inference option; they are "
                                    f"{', '.join(names)}.")
            built = cls(**keywords)
        if key is not None and len(_BUILT) < _BUILT_MAX:
            _BUILT[key] = built
        return built

    def null_for(self, bounds: tuple[float, float], coefficient: str) -> float:
        """The value under H0 of a coefficient whose range is `bounds` (0 without
        `null`).

        Raises
        ------
        ValueError
            When `null` does not lie strictly inside `bounds` (a test at an end of the
            range is not a Wald test: the coefficient cannot fall on both sides of it).
        """
        if self.null is None:
            return 0.0
        low, high = bounds
        if not low < self.null < high:
            raise ValueError(
                f"`null` must lie inside the range of {coefficient}, ({low:g}, {high:g}); "
                f"got {self.null:g}."
            )
        return self.null

    def null_note(self, symbol: str, se: str) -> str:
        """The note of a test of a value other than 0 (kappaetc's ``testvalue(#)``),
        naming the SE it is on.

        Examples
        --------
        >>> InferenceOptions(null=0.4).null_note("κF", "the SE above")
        'Test of H0: κF = 0.4 (`null=0.4`): statistic (estimate - 0.4) / SE, on the SE above.'
        """
        return (f"Test of H0: {symbol} = {self.null:g} (`null={self.null:g}`): statistic "
                f"(estimate - {self.null:g}) / SE, on {se}.")

    def clip(self, bounds: tuple[float, float]) -> tuple[float, float]:
        """The range a Wald interval is clipped to: `bounds`, or the whole line with
        ``ci_clip=False``."""
        return bounds if self.ci_clip else (-math.inf, math.inf)

    def rater_fpc(self, m: float) -> float:
        """The finite-population correction of the variance over `m` raters, ``1 - m/R``
        (1 without `rater_population`).

        Raises
        ------
        ValueError
            When the rater population is smaller than the `m` raters who rated.
        """
        return _finite_correction(m, self.rater_population, "rater_population",
                                  "raters who rated")

    def t_df(self, n: float) -> float:
        """Degrees of freedom of the Wald test and interval on `n` subjects: ``n - 1``
        with ``distribution='t'``, ``inf`` (the normal) otherwise."""
        return float(n) - 1.0 if self.distribution == "t" else math.inf

    def fpc(self, n: float) -> float:
        """The finite-population correction of a variance on `n` subjects, ``1 - n/N``
        (1 without `population`).

        Raises
        ------
        ValueError
            When the population is smaller than the `n` subjects rated.
        """
        return _finite_correction(n, self.population, "population", "subjects rated")

    def se_label(self) -> str:
        """Which SE a Wald interval uses, as its note and the report sentence name it;
        "" for the usual subject-sampling SE without correction.

        Examples
        --------
        >>> InferenceOptions(sampling="both", population=80).se_label()
        'on the unconditional SE (subjects and raters), finite-population corrected (N = 80)'
        >>> InferenceOptions().se_label()
        ''
        """
        label = {"raters": "on the SE over raters (jackknife)",
                 "both": "on the unconditional SE (subjects and raters)"}.get(self.sampling, "")
        if self.population is not None:
            corrected = f"finite-population corrected (N = {self.population:g})"
            label = f"{label}, {corrected}" if label else f"on the SE {corrected}"
        if self.rater_population is not None:
            label = f"{label}, raters finite-population corrected (R = {self.rater_population:g})"
        return label

    def population_note(self, n: float, under_h0: bool = False) -> str:
        """The note of a result whose SE (and, with `under_h0`, the SE under H0 its test
        uses) carries the finite-population correction.

        Examples
        --------
        >>> InferenceOptions(population=80).population_note(20, under_h0=True)
        ... # doctest: +NORMALIZE_WHITESPACE
        "SE and the SE under H0 of the test multiplied by the finite-population correction
        sqrt(1 - n/N) = sqrt(1 - 20/80) = 0.8660 (irrCAC's N; bootstrap intervals carry no
        correction)."
        """
        which = "SE and the SE under H0 of the test" if under_h0 else "SE"
        return (f"{which} multiplied by the finite-population correction sqrt(1 - n/N) = "
                f"sqrt(1 - {n:g}/{self.population:g}) = {math.sqrt(self.fpc(n)):.4f} "
                "(irrCAC's N; bootstrap intervals carry no correction).")

    def generator(self) -> np.random.Generator:
        """A generator for one draw: a fresh one from an int seed (the same draws every
        time), the caller's own Generator otherwise."""
        return check_rng(self.rng)


#: The options of a call that gives none (every default; a 95% level).
DEFAULT_OPTIONS = InferenceOptions()

#: Each option's default, by name (:meth:`InferenceOptions.from_keywords`).
_DEFAULTS = {f.name: getattr(DEFAULT_OPTIONS, f.name) for f in fields(InferenceOptions)}
_UNSET = object()

#: Options :meth:`InferenceOptions.from_keywords` built and checked from constant values
#: (str, bool, int, float, None), by :func:`_constant_key`: a shortcut called again with
#: the same keywords (``irr.deming``'s ``ci='jackknife'``) skips the checks. An
#: InferenceOptions is frozen, so one instance serves every call; at most _BUILT_MAX kept.
_BUILT: dict[tuple, InferenceOptions] = {}
_BUILT_MAX = 256
_CONSTANT_TYPES = frozenset({str, bool, int, float, type(None)})


def _constant_key(keywords: dict[str, Any]) -> tuple | None:
    """The keywords as a key of :data:`_BUILT` (name, exact type and value; a float by its
    exact hex form, so that -0.0 is not 0.0), or None when a value is of another type (a
    Generator, a numpy scalar: those are checked on every call)."""
    key = []
    for name, value in keywords.items():
        kind = type(value)
        if kind not in _CONSTANT_TYPES:
            return None
        key.append((name, kind, value.hex() if kind is float else value))
    return tuple(key)


def _finite_correction(size: float, population: float | None, name: str, what: str) -> float:
    """``1 - size/population`` (1 without a population); a population smaller than the
    sample is an error naming the argument `name` and the sample (`what`)."""
    if population is None:
        return 1.0
    if population < size:
        raise ValueError(
            f"`{name}` ({population:g}) must be at least the number of {what} ({size:g})."
        )
    return 1.0 - size / population
