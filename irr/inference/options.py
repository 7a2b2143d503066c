"""The inference options every coefficient takes, validated once."""

from __future__ import annotations

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

__all__ = ["ASYMPTOTIC_METHODS", "BOOTSTRAP_METHODS", "InferenceOptions"]

ASYMPTOTIC_METHODS = ("wald",)
BOOTSTRAP_METHODS = ("percentile", "basic", "bca")


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

    Examples
    --------
    >>> opts = InferenceOptions(ci="bca", rng=1)
    >>> opts.confidence_level, opts.ci
    (0.95, 'bca')
    >>> InferenceOptions(alternative="bigger")
    Traceback (most recent call last):
    ...
    ValueError: `alternative` must be one of 'two-sided', 'greater', 'less'; got 'bigger'.
    """

    alternative: str = "two-sided"
    confidence_level: float = 0.95
    ci: str | None = "wald"
    n_resamples: int = 9999
    rng: Any = 0
    progress: bool | None = None

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

    def generator(self) -> np.random.Generator:
        """A generator for one draw: a fresh one from an int seed (the same draws every
        time), the caller's own Generator otherwise."""
        return check_rng(self.rng)
