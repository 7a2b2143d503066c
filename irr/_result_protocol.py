"""What the renderers read of a result: the typing protocol of summaries and sentences.

:mod:`irr.summary` (statsmodels tables) and :mod:`irr._sentences` (report sentences, the
methods paragraph, references) sit below :mod:`irr.results`, which imports them to give
every result its ``summary()`` and ``report()``. They annotate their arguments with
:class:`ResultLike`, declared here, instead of importing :class:`irr.results.Result`, so
the imports go one way: ``_numbers``, ``_result_protocol`` -> ``summary``,
``_sentences`` -> ``results``. :class:`irr.results.Result`, and so every result of the
package, has every member of the protocol (``tests/unit/test_architecture.py`` checks it);
results of particular kinds have fields of their own, which the renderers read after
testing for them (``hasattr(result, "mcgraw_wong")``: an ICC).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, Protocol

__all__ = ["IntervalLike", "ResultLike"]


class IntervalLike(Protocol):
    """A confidence interval as the renderers read it
    (:class:`irr.results.ConfidenceInterval`)."""

    @property
    def low(self) -> float: ...
    @property
    def high(self) -> float: ...
    @property
    def confidence_level(self) -> float: ...
    @property
    def method(self) -> str:
        """The method's key: ``'wald'``, ``'bca'``, ``'exact'`` ..."""
    @property
    def note(self) -> str:
        """Why the interval is undefined, clipped, one-sided, or on which SE ("" if none)."""
    @property
    def method_name(self) -> str:
        """The method as prose names it: ``'Wald'``, ``'BCa bootstrap'`` ..."""


class ResultLike(Protocol):
    """One estimated statistic as summaries and sentences read it: the fields of
    :class:`irr.results.Result` (see it for their meaning) that every result has."""

    @property
    def coefficient(self) -> str: ...
    @property
    def symbol(self) -> str: ...
    @property
    def estimate(self) -> float: ...
    @property
    def se(self) -> float: ...
    @property
    def statistic(self) -> float: ...
    @property
    def pvalue(self) -> float: ...
    @property
    def alternative(self) -> str: ...
    @property
    def statistic_name(self) -> str: ...
    @property
    def null_value(self) -> float: ...
    @property
    def ci(self) -> IntervalLike: ...
    @property
    def bounds(self) -> tuple[float, float]: ...
    @property
    def scale(self) -> str | None: ...
    @property
    def n_subjects(self) -> int: ...
    @property
    def n_missing(self) -> int: ...
    @property
    def n_incomplete(self) -> int: ...
    @property
    def raters(self) -> Sequence[str]: ...
    @property
    def notes(self) -> Sequence[str]: ...
    @property
    def n_resamples(self) -> float: ...
    @property
    def seed(self) -> int | None: ...
    @property
    def bootstrap(self) -> Any: ...
    @property
    def own_sentence(self) -> bool:
        """Whether :meth:`report` writes the result's own sentence (results of several
        quantities), which the sentence builders then use instead of theirs."""

    def interpretation_labels(self) -> tuple[str, str, str]:
        """The band's label, the probabilistic benchmark's, and the scale's citation."""

    def report(self, style: str = "apa", **options: Any) -> str:
        """The result's sentence for a paper."""
