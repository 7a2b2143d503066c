"""The inference options every coefficient takes, validated once."""

from __future__ import annotations

import math
import numbers
from dataclasses import dataclass
from typing import Any

import numpy as np

from irr._validation import (
    check_alternative,
    check_choice,
    check_confidence_level,
    check_rng,
    show_value,
)
from irr.inference.bootstrap import check_n_resamples

__all__ = [
    "ASYMPTOTIC_METHODS",
    "BOOTSTRAP_METHODS",
    "DISTRIBUTIONS",
    "SAMPLING",
    "InferenceOptions",
]

ASYMPTOTIC_METHODS = ("wald",)
BOOTSTRAP_METHODS = ("percentile", "basic", "bca")
#: The reference laws of a Wald test and interval: the standard normal, or Student's t on
#: n - 1 degrees of freedom (n the subjects), as irrCAC and Stata's kappaetc print them.
DISTRIBUTIONS = ("normal", "t")
#: What the standard error generalises over: the subjects (raters fixed; irrCAC, kappaetc's
#: default), the raters (subjects fixed; kappaetc's ``se(conditional subjects)``) or both
#: (kappaetc's ``se(unconditional)``; Gwet 2008, 2014 ch. 5).
SAMPLING = ("subjects", "raters", "both")


@dataclass(frozen=True)
class InferenceOptions:
    """How to test and bound a coefficient: the same options on every method.

    Parameters
    ----------
    alternative : {'two-sided', 'greater', 'less'}
        Alternative of the test of "no agreement beyond chance".
    confidence_level : float
        Level of the interval, in (0, 1).
    ci : {'wald', 'percentile', 'basic', 'bca'} or None
        The interval in the result's ``ci``; None (where a family allows it) skips it.
    n_resamples : int
        Bootstrap resamples, at most :data:`irr.inference.bootstrap.MAX_RESAMPLES` (10**6).
    rng : int, numpy.random.Generator or None, default 0
        Randomness of the bootstrap. The default is the fixed seed 0: every default output
        is reproducible. An int seed gives the same resampled subjects on every draw, so
        the replicates of the coefficients of one Agreement drawn with the same seed (over
        the same subjects) are paired. None, passed explicitly, draws from fresh OS entropy.
    progress : bool or None
        A tqdm progress bar: None only for slow runs on a terminal, True always, False never.
    distribution : {'normal', 't'}
        The law of the Wald test and interval: the standard normal (z), or Student's t on
        n - 1 degrees of freedom, n the subjects the coefficient uses (irrCAC's and
        kappaetc's default). With ``'t'`` the test uses the linearised SE (under the
        alternative), as those programs do, also where the normal test uses an SE under H0.
    population : int, float or None
        The number N of subjects in the finite population the n rated subjects were drawn
        from (irrCAC's ``N``): the linearised variance is multiplied by the finite-population
        correction 1 - n/N. None (or ``math.inf``): an infinite population, no correction.
    sampling : {'subjects', 'raters', 'both'}
        What the SE generalises over. ``'subjects'``: the subjects are a sample, the
        raters fixed (the linearised variance). ``'raters'``: the raters are a sample, the
        subjects fixed (the jackknife over raters, Gwet 2008). ``'both'``: the sum of the
        two variances (Gwet 2014, ch. 5; kappaetc's ``se(unconditional)``).

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
    """

    alternative: str = "two-sided"
    confidence_level: float = 0.95
    ci: str | None = "wald"
    n_resamples: int = 9999
    rng: Any = 0
    progress: bool | None = None
    distribution: str = "normal"
    population: float | None = None
    sampling: str = "subjects"

    def __post_init__(self) -> None:
        object.__setattr__(self, "alternative", check_alternative(self.alternative))
        object.__setattr__(self, "confidence_level",
                           check_confidence_level(self.confidence_level))
        if self.ci is not None:
            check_choice(self.ci, "ci", ASYMPTOTIC_METHODS + BOOTSTRAP_METHODS)
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
        if self.population is None:
            return 1.0
        if self.population < n:
            raise ValueError(
                f"`population` ({self.population:g}) must be at least the number of subjects "
                f"rated ({n:g})."
            )
        return 1.0 - n / self.population

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
        return label

    def population_note(self, n: float) -> str:
        """The note of a result whose SE carries the finite-population correction."""
        return (f"SE multiplied by the finite-population correction sqrt(1 - n/N) = "
                f"sqrt(1 - {n:g}/{self.population:g}) = {math.sqrt(self.fpc(n)):.4f} "
                "(irrCAC's N; bootstrap intervals carry no correction).")

    def generator(self) -> np.random.Generator:
        """A generator for one draw: a fresh one from an int seed (the same draws every
        time), the caller's own Generator otherwise."""
        return check_rng(self.rng)
