"""The family registry: which coefficients exist and which apply to which data.

One table drives every place that lists coefficients: :meth:`irr.Agreement.summary`, the
``multi`` and ``report`` commands of the CLI, :func:`irr.by` and the ``df.irr``
accessor. A new coefficient is one estimator module, one :class:`irr.Agreement` method
and one line in :data:`COEFFICIENTS` (plus a line in a panel to show it in summaries).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from types import MappingProxyType
from typing import Any

from irr.coefficients.icc import FORMS

__all__ = ["COEFFICIENTS", "PANELS", "Coefficient", "DataFacts", "Row", "rows"]


@dataclass(frozen=True)
class Coefficient:
    """One coefficient family as users call it.

    Attributes
    ----------
    method : str
        The :class:`irr.Agreement` method.
    accessor : str
        The ``df.irr`` method's name.
    needs : frozenset of str
        What the data must have: ``'raters'`` (which rater gave which rating: not from
        counts), ``'two'`` (exactly two raters), ``'scores'`` (ordered categories),
        ``'numeric'`` (numeric labels), ``'categorical'`` (labels that are categories, not
        continuous scores), ``'continuous'`` (continuous scores).
    on_counts : bool
        Whether it is defined on subject x category counts.
    """

    method: str
    accessor: str
    needs: frozenset[str] = frozenset()


#: Every coefficient family, in the order tables list them.
COEFFICIENTS: tuple[Coefficient, ...] = (
    Coefficient("kappa", "kappa", frozenset({"raters", "two"})),
    Coefficient("percent_agreement", "percent_agreement"),
    Coefficient("fleiss_kappa", "fleiss"),
    Coefficient("scott_pi", "scott_pi"),
    Coefficient("conger_kappa", "conger", frozenset({"raters"})),
    Coefficient("light_kappa", "light", frozenset({"raters"})),
    Coefficient("gwet_ac", "gwet"),
    Coefficient("brennan_prediger", "brennan_prediger"),
    Coefficient("krippendorff_alpha", "krippendorff", frozenset({"raters"})),
    Coefficient("icc", "icc", frozenset({"raters", "scores"})),
    Coefficient("kendall_w", "kendall_w", frozenset({"raters", "scores"})),
    Coefficient("error_rate_test", "error_rate_test", frozenset({"raters"})),
)

_BY_METHOD = {c.method: c for c in COEFFICIENTS}


@dataclass(frozen=True)
class DataFacts:
    """What the data allow: rater identities, number of raters, ordered or numeric labels,
    continuous scores.

    ``continuous`` is :func:`irr._columns.looks_continuous` of the categories (a
    non-integer value, or more than 10 distinct numeric values): such data get the
    statistics of scores (ICC, interval alpha, Kendall's W), and the rows that treat each
    value as a category (``needs={'categorical'}``) are left out of the panels.
    """

    n_raters: int
    by_rater: bool
    ordered: bool
    numeric: bool
    continuous: bool = False

    def allow(self, needs: frozenset[str]) -> bool:
        """Whether data with these facts have everything in `needs`."""
        checks = {
            "raters": self.by_rater,
            "two": self.n_raters == 2 and self.by_rater,
            "multi": self.n_raters != 2 or not self.by_rater,
            "scores": self.ordered,
            "numeric": self.numeric,
            "categorical": not self.continuous,
            "continuous": self.continuous,
        }
        return all(checks[need] for need in needs)


@dataclass(frozen=True)
class Row:
    """One row of a panel: a method called with `options`, when the data allow it.

    ``weighted`` rows receive the caller's ``weights`` (the CLI's ``--weights``).
    """

    method: str
    options: Mapping[str, Any] = field(default_factory=dict)
    needs: frozenset[str] = frozenset()
    weighted: bool = False

    def applies(self, facts: DataFacts) -> bool:
        return facts.allow(self.needs | _BY_METHOD[self.method].needs)


def _alpha(level: str, *needs: str, seeded: bool = False) -> Row:
    # a fixed seed keeps a summary reproducible (alpha's interval is a bootstrap)
    options = {"level": level, **({"rng": 0} if seeded else {})}
    return Row("krippendorff_alpha", options, frozenset(needs))


_CATEGORICAL = frozenset({"categorical"})
_KAPPAS = (
    Row("kappa", needs=_CATEGORICAL),
    Row("kappa", {"weights": "linear"}, frozenset({"scores", "categorical"})),
    Row("kappa", {"weights": "quadratic"}, frozenset({"scores", "categorical"})),
)
# percent agreement by both definitions (they differ for three or more raters)
_PERCENT_ALL = Row("percent_agreement", {"definition": "all"}, frozenset({"multi", "categorical"}))
_MULTI = (
    Row("percent_agreement", needs=_CATEGORICAL),
    _PERCENT_ALL,
    *(Row(m, needs=_CATEGORICAL, weighted=True) for m in (
        "fleiss_kappa", "conger_kappa", "light_kappa", "gwet_ac", "brennan_prediger")),
    _alpha("nominal", "categorical"),
    _alpha("ordinal", "scores", "categorical"),
    _alpha("interval", "scores"),
)
# one order everywhere (CLI, report, Agreement.icc_table): single then average measures,
# each as ICC(1) one-way, ICC(A) two-way agreement, ICC(C) two-way consistency, which is
# Shrout & Fleiss' ICC(1,.), ICC(2,.), ICC(3,.)
_ICC_FORMS = FORMS
_ICC_A1 = {"model": "twoway", "type": "agreement", "unit": "single"}

#: Named lists of rows: ``summary`` (:meth:`irr.Agreement.summary`), ``multi`` and
#: ``report`` (the CLI's commands), ``icc`` (every ICC form, in the order of
#: :data:`irr.coefficients.icc.FORMS`). On
#: continuous scores ``summary`` and ``report`` leave out the category statistics.
PANELS: Mapping[str, tuple[Row, ...]] = MappingProxyType({
    "summary": (
        Row("percent_agreement", needs=_CATEGORICAL),
        _PERCENT_ALL,
        *(Row(r.method, r.options, r.needs | {"two"}) for r in _KAPPAS),
        *(Row(m, needs=frozenset({"multi", "categorical"})) for m in (
            "fleiss_kappa", "conger_kappa", "light_kappa", "gwet_ac", "brennan_prediger")),
        _alpha("nominal", "multi", "categorical", seeded=True),
        _alpha("interval", "multi", "scores", seeded=True),
        _alpha("interval", "two", "continuous", seeded=True),
        Row("icc", _ICC_A1, frozenset({"multi"})),
        Row("icc", _ICC_A1, frozenset({"two", "continuous"})),
    ),
    "multi": _MULTI,
    "report": (
        *(Row(r.method, r.options, r.needs | {"two"}) for r in
          (Row("percent_agreement", needs=_CATEGORICAL), *_KAPPAS)),
        *(Row(m, needs=frozenset({"two", "categorical"}))
          for m in ("gwet_ac", "brennan_prediger")),
        *(Row(r.method, r.options, r.needs | {"two"}) for r in _MULTI[-3:]),
        *(Row(r.method, r.options, r.needs | {"multi"}, r.weighted) for r in _MULTI),
        *(Row("icc", {"model": f[0], "type": f[1], "unit": f[2]}, frozenset({"numeric"}))
          for f in _ICC_FORMS),
        Row("kendall_w"),
    ),
    "icc": tuple(Row("icc", {"model": f[0], "type": f[1], "unit": f[2]}) for f in _ICC_FORMS),
})


def rows(panel: str, facts: DataFacts, weights: Any = None) -> list[tuple[str, dict[str, Any]]]:
    """The (method, keyword arguments) of the rows of `panel` that apply to `facts`.

    Examples
    --------
    >>> facts = DataFacts(n_raters=2, by_rater=True, ordered=False, numeric=False)
    >>> [m for m, _ in rows("summary", facts)]
    ['percent_agreement', 'kappa']
    >>> scores = DataFacts(n_raters=2, by_rater=True, ordered=True, numeric=True,
    ...                    continuous=True)
    >>> [(m, o.get("level")) for m, o in rows("summary", scores)]
    [('krippendorff_alpha', 'interval'), ('icc', None)]
    """
    out = []
    for row in PANELS[panel]:
        if row.applies(facts):
            options = dict(row.options)
            if row.weighted:
                options["weights"] = weights
            out.append((row.method, options))
    return out


def methods() -> tuple[str, ...]:
    """The Agreement methods of every coefficient family (what :func:`irr.by` accepts)."""
    return tuple(c.method for c in COEFFICIENTS)
