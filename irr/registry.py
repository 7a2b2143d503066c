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

__all__ = ["COEFFICIENTS", "METHOD_COMPARISON", "PANELS", "STATISTICS", "Coefficient",
           "DataFacts", "Row", "recommended", "rows", "scale_type", "statistic_row",
           "statistic_rows"]


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
    Coefficient("mean_spearman", "mean_spearman", frozenset({"raters", "scores"})),
    Coefficient("mean_pearson", "mean_pearson", frozenset({"raters", "scores"})),
    Coefficient("robinson_a", "robinson_a", frozenset({"raters", "scores"})),
    Coefficient("finn", "finn", frozenset({"raters", "scores"})),
    Coefficient("error_rate_test", "error_rate_test", frozenset({"raters"})),
    # two raters: prevalence and bias, agreement on each category, tests of rater bias
    Coefficient("pabak", "pabak", frozenset({"raters", "two", "categorical"})),
    Coefficient("maxwell_re", "maxwell_re", frozenset({"raters", "two", "categorical"})),
    Coefficient("bangdiwala_b", "bangdiwala_b", frozenset({"raters", "two", "categorical"})),
    Coefficient("specific_agreement", "specific_agreement",
                frozenset({"raters", "two", "categorical"})),
    Coefficient("category_kappa", "category_kappa", frozenset({"raters", "two", "categorical"})),
    Coefficient("rater_bias", "rater_bias", frozenset({"raters", "two", "categorical"})),
    # continuous measurements (an Agreement built with continuous=True, or detected)
    *(Coefficient(method, method, frozenset({"raters", "continuous"})) for method in (
        "limits_of_agreement", "concordance", "total_deviation_index",
        "coverage_probability", "deming", "passing_bablok", "icc_components",
        "measurement_error", "inter_intra_reliability")),
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

# the statistics of measurements, by the names reports take (an Agreement of measurements)
_TWO = frozenset({"two"})
_MEASUREMENTS = {
    "loa": Row("limits_of_agreement", needs=_TWO),
    "ccc": Row("concordance"),
    "tdi": Row("total_deviation_index", needs=_TWO),
    # only by name: it needs the largest acceptable difference (``delta``)
    "cp": Row("coverage_probability", needs=_TWO),
    "deming": Row("deming", needs=_TWO),
    "passing_bablok": Row("passing_bablok", needs=_TWO),
    "icc_vc": Row("icc_components"),
    "sem": Row("measurement_error"),
}

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
        # ICC by variance components only by name (icc_vc): it is ICC(A,1) again; the
        # coverage probability only by name, with its `delta`
        *(row for name, row in _MEASUREMENTS.items() if name not in ("icc_vc", "cp")),
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


def statistic_row(name: Any, argument: str = "statistic") -> Row:
    """The row of a statistic named by its :class:`irr.Agreement` method (a family of
    :data:`COEFFICIENTS`: ``'limits_of_agreement'``, called with its defaults) or by its
    name in :data:`STATISTICS` (``'loa'``, ``'kappa_quadratic'``); the method wins where
    both have the name (``'icc'``).

    Examples
    --------
    >>> statistic_row("loa").method, statistic_row("kappa_quadratic").options
    ('limits_of_agreement', {'weights': 'quadratic'})
    >>> statistic_row("icc").options
    {}
    """
    key = name.strip() if isinstance(name, str) else name
    if isinstance(key, str) and key in _BY_METHOD:
        return Row(key)
    if isinstance(key, str) and key.lower() in STATISTICS:
        return STATISTICS[key.lower()]
    raise ValueError(f"`{argument}` must be one of the Agreement methods "
                     f"({', '.join(methods())}) or of the statistics' names "
                     f"({', '.join(STATISTICS)}); got {name!r}.")


def methods() -> tuple[str, ...]:
    """The Agreement methods of every coefficient family (what :func:`irr.by` accepts)."""
    return tuple(c.method for c in COEFFICIENTS)


# -- statistics by name: what ``irr report --statistics`` and ``irr.report(statistics=)`` take
_ICC_NAMES = {  # McGraw & Wong (1996) names -> the form's options
    "icc_1": ("oneway", "agreement", "single"),
    "icc_k": ("oneway", "agreement", "average"),
    "icc_a1": ("twoway", "agreement", "single"),
    "icc_ak": ("twoway", "agreement", "average"),
    "icc_c1": ("twoway", "consistency", "single"),
    "icc_ck": ("twoway", "consistency", "average"),
}

#: Every statistic a report can be asked for by name: name -> the row it computes. ``alpha``
#: and ``icc`` are shorthands (alpha at the level that suits the data, ICC(A,1)).
STATISTICS: Mapping[str, Row] = MappingProxyType({
    "percent": Row("percent_agreement"),
    "percent_all": Row("percent_agreement", {"definition": "all"}),
    "kappa": Row("kappa"),
    "kappa_linear": Row("kappa", {"weights": "linear"}, frozenset({"scores"})),
    "kappa_quadratic": Row("kappa", {"weights": "quadratic"}, frozenset({"scores"})),
    "fleiss": Row("fleiss_kappa"),
    "scott": Row("scott_pi", needs=frozenset({"two"})),
    "conger": Row("conger_kappa"),
    "light": Row("light_kappa"),
    "gwet": Row("gwet_ac"),
    "brennan_prediger": Row("brennan_prediger"),
    "alpha_nominal": Row("krippendorff_alpha", {"level": "nominal"}),
    "alpha_ordinal": Row("krippendorff_alpha", {"level": "ordinal"}, frozenset({"scores"})),
    "alpha_interval": Row("krippendorff_alpha", {"level": "interval"}, frozenset({"scores"})),
    **{name: Row("icc", {"model": m, "type": t, "unit": u})
       for name, (m, t, u) in _ICC_NAMES.items()},
    "kendall": Row("kendall_w"),
    "pabak": Row("pabak", needs=_TWO),
    "bangdiwala": Row("bangdiwala_b", needs=_TWO),
    "specific_agreement": Row("specific_agreement", needs=_TWO),
    "category_kappa": Row("category_kappa", needs=_TWO),
    "robinson": Row("robinson_a"),
    "finn": Row("finn"),
    "mean_spearman": Row("mean_spearman"),
    "mean_pearson": Row("mean_pearson"),
    **_MEASUREMENTS,
})
_SHORTHANDS = {"alpha": {"nominal": "alpha_nominal", "ordinal": "alpha_ordinal",
                         "continuous": "alpha_interval"},
               "icc": {"nominal": "icc_a1", "ordinal": "icc_a1", "continuous": "icc_a1"}}

#: The statistics a report shows when none are chosen, by scale type and by whether there
#: are two raters (with rater identities) or more: a small set that suits the data,
#: chosen before looking at the numbers (``statistics="all"`` shows every one that applies).
RECOMMENDED: Mapping[tuple[str, bool], tuple[str, ...]] = MappingProxyType({
    ("nominal", True): ("percent", "kappa", "alpha_nominal"),
    ("nominal", False): ("percent", "fleiss", "alpha_nominal"),
    ("ordinal", True): ("percent", "kappa_quadratic", "alpha_ordinal"),
    ("ordinal", False): ("percent", "alpha_ordinal", "icc_a1"),
    ("continuous", True): ("loa", "ccc", "icc_a1", "sem"),
    ("continuous", False): ("icc_a1", "ccc", "sem", "alpha_interval"),
})


#: The statistics of a method-comparison study (the CLI's ``agreement`` command) when none
#: are chosen: of two methods (``True``), the bias and limits of agreement, Lin's CCC and
#: the standard error of measurement; of all raters (``False``), the overall CCC, the ICC
#: by variance components (every measurement: missing ones, replicates) and the SEM.
METHOD_COMPARISON: Mapping[bool, tuple[str, ...]] = MappingProxyType({
    True: ("loa", "ccc", "sem"),
    False: ("ccc", "icc_vc", "sem"),
})


def scale_type(facts: DataFacts, n_categories: int) -> str:
    """``'continuous'``, ``'ordinal'`` (ordered, three or more categories) or ``'nominal'``.

    Examples
    --------
    >>> scale_type(DataFacts(2, True, ordered=True, numeric=True), 5)
    'ordinal'
    >>> scale_type(DataFacts(2, True, ordered=True, numeric=True), 2)  # binary
    'nominal'
    """
    if facts.continuous:
        return "continuous"
    return "ordinal" if facts.ordered and n_categories >= 3 else "nominal"


def recommended(facts: DataFacts, n_categories: int) -> tuple[str, ...]:
    """The names of the statistics a report shows by default for these data.

    Examples
    --------
    >>> recommended(DataFacts(3, True, ordered=False, numeric=False), 4)
    ('percent', 'fleiss', 'alpha_nominal')
    """
    two = facts.n_raters == 2 and facts.by_rater
    names = RECOMMENDED[scale_type(facts, n_categories), two]
    return tuple(n for n in names if STATISTICS[n].applies(facts))


def statistic_rows(
    names: Any, facts: DataFacts, n_categories: int, argument: str = "statistics"
) -> tuple[list[str], list[tuple[str, dict[str, Any]]], list[str]]:
    """(names, rows, notes) of the statistics `names` asks for.

    `names` is ``None`` (the recommended set), ``"all"`` (every statistic of the
    ``report`` panel that applies), or names of :data:`STATISTICS` (a list, or one string
    with commas). A name that does not apply to the data is left out with a note; an
    unknown name raises a ValueError that lists the known ones.

    Examples
    --------
    >>> facts = DataFacts(2, True, ordered=True, numeric=True)
    >>> names, chosen, notes = statistic_rows("kappa,alpha", facts, 5)
    >>> names, chosen
    (['kappa', 'alpha_ordinal'], [('kappa', {}), ('krippendorff_alpha', {'level': 'ordinal'})])
    """
    if names is None:
        names = list(recommended(facts, n_categories))
    elif isinstance(names, str) and names.strip().lower() == "all":
        return ["all"], rows("report", facts), []
    elif isinstance(names, str):
        names = [n for n in (part.strip() for part in names.split(",")) if n]
    else:
        names = [str(n).strip() for n in names]
    if not names:
        raise ValueError(f"`{argument}` is empty; name one or more of {', '.join(STATISTICS)} "
                         "(or 'all').")
    kind = scale_type(facts, n_categories)
    resolved = [_SHORTHANDS[n.lower()][kind] if n.lower() in _SHORTHANDS else n.lower()
                for n in names]
    unknown = [n for n, r in zip(names, resolved, strict=True) if r not in STATISTICS]
    if unknown:
        raise ValueError(f"`{argument}` has unknown statistic(s) {', '.join(map(repr, unknown))}; "
                         f"known: {', '.join(STATISTICS)}, alpha, icc (or 'all').")
    chosen, notes, kept = [], [], []
    # a shorthand the caller typed ('icc') is named as typed, with what it stands for
    typed = {r: (n if n.lower() == r else f"{n} ({r})")
             for n, r in reversed(list(zip(names, resolved, strict=True)))}
    for name in dict.fromkeys(resolved):
        row = STATISTICS[name]
        if row.applies(facts):
            kept.append(name)
            chosen.append((row.method, dict(row.options)))
        else:
            notes.append(f"{typed[name]} does not apply to these data "
                         f"({_why_not(row, facts)}); left out.")
    return kept, chosen, notes


def _why_not(row: Row, facts: DataFacts) -> str:
    needs = row.needs | _BY_METHOD[row.method].needs
    reasons = {
        "raters": "it needs to know which rater gave which rating, and counts do not say",
        "two": "it needs exactly two raters",
        "multi": "it needs three or more raters",
        "scores": "it needs ordered categories",
        "numeric": "it needs numeric ratings",
        "categorical": "the ratings are continuous scores",
        "continuous": "the ratings are categories",
    }
    return "; ".join(reasons[n] for n in sorted(needs) if not facts.allow(frozenset({n})))
