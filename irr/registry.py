"""The registry: the one declaration of every statistic, and which apply to which data.

Each entry of :data:`COEFFICIENTS` declares a statistic once: its Agreement method, family,
the data it needs, the columns it uses, its inference profile and defaults, its
interpretation scale, how reports render it, its ``df.irr`` accessor method, its shortcut
function and its names in the statistics vocabulary (with aliases). From it are built the
``df.irr`` accessor methods (:mod:`irr.pandas`), the statistics vocabulary of
``--statistics``, :func:`irr.report` and :func:`irr.by` (:data:`STATISTICS`,
:data:`ALIASES`), and what ``irr agreement --statistics all`` means;
``tests/unit/test_registry.py`` checks every entry against its Agreement method, accessor,
shortcut and CLI name. The panels (:data:`PANELS`) say which rows
:meth:`irr.Agreement.summary` and the CLI's ``multi`` and ``report`` (``'all'``) show.

Each entry of :data:`STUDIES` declares a study: a workflow on its own kind of data with
its own result, not an Agreement method (the generalizability study, :func:`irr.gstudy`):
its function, CLI subcommand, data, inference profile and defaults, result class, bundled
data sets, and the detector :func:`irr.report` and ``irr report`` use to send its data to
it (:func:`study_hint`).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from types import MappingProxyType
from typing import Any

from irr._lazy import lazy_module
from irr.coefficients.icc import FORMS
from irr.inference.keywords import DEFAULT_RESAMPLES, WALD_OR_NONE_CIS
from irr.vocabulary import lookup, normalise, resolve

# a study's code, imported when a study runs or its data are tested (a report or a
# command that reads no such data does not pay for it)
_gdata = lazy_module("irr.gtheory.data")
_gresults = lazy_module("irr.gtheory.results")

__all__ = ["ALIASES", "COEFFICIENTS", "METHOD_COMPARISON", "NAMES", "PANELS", "STATISTICS",
           "STUDIES", "Coefficient", "DataFacts", "Name", "Row", "Study", "coefficient",
           "recommended", "rows", "scale_type", "statistic_name", "statistic_row",
           "statistic_rows", "study", "study_hint"]


# -- statistics by name: what ``irr report --statistics`` and ``irr.report(statistics=)`` take
_ICC_NAMES = {  # McGraw & Wong (1996) names -> the form's options
    "icc_1": ("oneway", "agreement", "single"),
    "icc_k": ("oneway", "agreement", "average"),
    "icc_a1": ("twoway", "agreement", "single"),
    "icc_ak": ("twoway", "agreement", "average"),
    "icc_c1": ("twoway", "consistency", "single"),
    "icc_ck": ("twoway", "consistency", "average"),
}


@dataclass(frozen=True)
class Name:
    """A statistic's name in the statistics vocabulary (``irr report --statistics``,
    :func:`irr.report`, :func:`irr.by`, JSON): the options it calls its method with, and
    what the data must have besides the method's own `needs`."""

    name: str
    options: Mapping[str, Any] = field(default_factory=dict)
    needs: frozenset[str] = frozenset()


@dataclass(frozen=True)
class Coefficient:
    """The one declaration of a statistic, every door to it is built or checked from.

    Attributes
    ----------
    method : str
        The :class:`irr.Agreement` method (written out there, with its docstring).
    family : str
        What kind of statistic it is: ``'percent'``, ``'chance-corrected'``, ``'alpha'``,
        ``'icc'``, ``'rank'``, ``'correlation'``, ``'variance ratio'``, ``'two raters'``,
        ``'test'``, ``'measurement'``.
    needs : frozenset of str
        What the data must have: ``'raters'`` (which rater gave which rating: not from
        counts), ``'two'`` (exactly two raters), ``'scores'`` (ordered categories),
        ``'numeric'`` (numeric labels), ``'categorical'`` (labels that are categories, not
        continuous scores), ``'continuous'`` (continuous scores).
    columns : {'all', 'pair'}
        The rater columns it uses: every one given (``df.irr.<accessor>(raters)``), or a
        pair named positionally (``df.irr.kappa(a, b)``; the measurement methods' own
        `first` and `second`).
    profile : str or None
        The name of its inference profile: the set of inference keywords its method takes,
        a key of :data:`irr.inference.keywords.PROFILES` (the method's
        ``@inference_keywords`` decorator names the same profile).
    ci : str
        The interval method of its default result, a key of
        :data:`irr.vocabulary.INTERVAL_METHODS` (``'none'``: no interval unless one is
        asked for); the method's ``ci=`` default where it has one.
    n_resamples : int or None
        The method's default number of bootstrap resamples (None: it takes none).
    scale : str or None
        Its results' default interpretation scale (a key of :data:`irr.bands.SCALES`).
    sentence : {'coefficient', 'categories', 'measurement', 'test'}
        How :func:`irr.report` renders it: a coefficient's sentence (named by its symbol),
        one per category, a statistic of measurements, or a test.
    accessor : str or None
        The ``df.irr`` method's name (None: no accessor method).
    shortcut : str or None
        The :mod:`irr` function of arrays that calls it (None: no shortcut).
    names : tuple of Name
        Its names in the statistics vocabulary, with the options each stands for.
    aliases : tuple of str
        Other spellings accepted for its first name (or for its shorthand, alpha's
        ``'alpha'`` and the ICC's ``'icc'``).
    """

    method: str
    family: str
    needs: frozenset[str] = frozenset()
    columns: str = "all"
    profile: str | None = None
    ci: str = "none"
    n_resamples: int | None = None
    scale: str | None = None
    sentence: str = "coefficient"
    accessor: str | None = None
    shortcut: str | None = None
    names: tuple[Name, ...] = ()
    aliases: tuple[str, ...] = ()

    @property
    def data(self) -> str:
        """``'continuous'``, ``'categorical'`` or ``'scores'`` (ordered categories or
        continuous scores)."""
        if "continuous" in self.needs:
            return "continuous"
        return "scores" if "scores" in self.needs else "categorical"

    @property
    def raters(self) -> str:
        """``'two'`` or ``'many'`` (two or more)."""
        return "two" if "two" in self.needs else "many"

    @property
    def on_counts(self) -> bool:
        """Whether it is defined on subject x category counts (no rater identities)."""
        return "raters" not in self.needs


def _names(*names: str | Name) -> tuple[Name, ...]:
    return tuple(n if isinstance(n, Name) else Name(n) for n in names)


_RATERS = frozenset({"raters"})
_TWO_RATERS = frozenset({"raters", "two"})
_SCORES = frozenset({"raters", "scores"})
_TWO_CATEGORICAL = frozenset({"raters", "two", "categorical"})
_MEASURED = frozenset({"raters", "continuous"})
_PAIR = frozenset({"two"})
_ORDERED = frozenset({"scores"})
_BOOT = {"ci": "none", "n_resamples": DEFAULT_RESAMPLES}  # a bootstrap interval on request


def _chance(method: str, family: str, accessor: str, *names: str | Name,
            aliases: tuple[str, ...] = (), needs: frozenset[str] = frozenset()) -> Coefficient:
    """A coefficient of the chance-corrected family (many raters, Wald interval)."""
    return Coefficient(method, family, needs, profile="multirater", ci="wald",
                       n_resamples=DEFAULT_RESAMPLES, scale="landis-koch", accessor=accessor,
                       names=_names(*names), aliases=aliases)


#: Every statistic, in the order the statistics vocabulary lists them.
COEFFICIENTS: tuple[Coefficient, ...] = (
    Coefficient("percent_agreement", "percent", profile="multirater", ci="wald",
                n_resamples=DEFAULT_RESAMPLES, accessor="percent_agreement",
                names=_names("percent", Name("percent_all", {"definition": "all"})),
                aliases=("percent_agreement", "agreement")),
    Coefficient("kappa", "chance-corrected", _TWO_RATERS, columns="pair",
                profile="wald_test", ci="wald", n_resamples=DEFAULT_RESAMPLES,
                scale="landis-koch", accessor="kappa", shortcut="cohen_kappa",
                names=_names("kappa", Name("kappa_linear", {"weights": "linear"}, _ORDERED),
                             Name("kappa_quadratic", {"weights": "quadratic"}, _ORDERED)),
                aliases=("cohen_kappa", "cohen")),
    _chance("fleiss_kappa", "chance-corrected", "fleiss", "fleiss", aliases=("fleiss_kappa",)),
    _chance("scott_pi", "chance-corrected", "scott_pi", Name("scott", needs=_PAIR),
            aliases=("scott_pi",)),
    _chance("conger_kappa", "chance-corrected", "conger", "conger", needs=_RATERS,
            aliases=("conger_kappa",)),
    _chance("light_kappa", "chance-corrected", "light", "light", needs=_RATERS,
            aliases=("light_kappa",)),
    _chance("gwet_ac", "chance-corrected", "gwet", "gwet", aliases=("gwet_ac", "ac1", "ac2")),
    _chance("brennan_prediger", "chance-corrected", "brennan_prediger", "brennan_prediger",
            aliases=("bp",)),
    # ci='auto': the percentile bootstrap on small data, Wald above 1,000 pairable units
    Coefficient("krippendorff_alpha", "alpha", _RATERS, profile="rater_sampling", ci="percentile",
                n_resamples=DEFAULT_RESAMPLES, scale="krippendorff", accessor="krippendorff",
                shortcut="krippendorff_alpha",
                names=_names(Name("alpha_nominal", {"level": "nominal"}),
                             Name("alpha_ordinal", {"level": "ordinal"}, _ORDERED),
                             Name("alpha_interval", {"level": "interval"}, _ORDERED)),
                aliases=("krippendorff_alpha", "krippendorff")),
    Coefficient("icc", "icc", _SCORES, profile="f_test", ci="satterthwaite", scale="koo-li",
                accessor="icc", shortcut="icc",
                names=tuple(Name(name, {"model": m, "type": t, "unit": u})
                            for name, (m, t, u) in _ICC_NAMES.items()),
                aliases=("intraclass",)),
    Coefficient("cronbach_alpha", "icc", _SCORES, profile="f_test", ci="feldt",
                accessor="cronbach_alpha", shortcut="cronbach_alpha", names=_names("cronbach"),
                aliases=("cronbach_alpha", "coefficient_alpha")),
    Coefficient("kendall_w", "rank", _SCORES, profile="bootstrap", **_BOOT,
                accessor="kendall_w", names=_names("kendall"), aliases=("kendall_w",)),
    Coefficient("pabak", "two raters", _TWO_CATEGORICAL, profile="bootstrap", ci="wilson",
                n_resamples=DEFAULT_RESAMPLES,
                scale="landis-koch", accessor="pabak", shortcut="pabak",
                names=_names(Name("pabak", needs=_PAIR))),
    Coefficient("maxwell_re", "two raters", _TWO_CATEGORICAL, profile="bootstrap",
                ci="wilson", n_resamples=DEFAULT_RESAMPLES,
                scale="landis-koch", accessor="maxwell_re", shortcut="maxwell_re"),
    Coefficient("bangdiwala_b", "two raters", _TWO_CATEGORICAL, profile="wald",
                ci="wald", n_resamples=DEFAULT_RESAMPLES, accessor="bangdiwala_b",
                names=_names(Name("bangdiwala", needs=_PAIR)), aliases=("bangdiwala_b",)),
    Coefficient("specific_agreement", "two raters", _TWO_CATEGORICAL, profile="bootstrap",
                ci="wald", n_resamples=DEFAULT_RESAMPLES, sentence="categories",
                accessor="specific_agreement", shortcut="specific_agreement",
                names=_names(Name("specific_agreement", needs=_PAIR))),
    Coefficient("category_kappa", "two raters", _TWO_CATEGORICAL, profile="tested_bootstrap",
                ci="wald", n_resamples=DEFAULT_RESAMPLES, scale="landis-koch", sentence="categories",
                accessor="category_kappa",
                names=_names(Name("category_kappa", needs=_PAIR))),
    Coefficient("rater_bias", "test", _TWO_CATEGORICAL, profile="fixed_interval", ci="wald",
                sentence="test", accessor="rater_bias"),
    Coefficient("robinson_a", "variance ratio", _SCORES, profile="bootstrap", **_BOOT,
                accessor="robinson_a", shortcut="robinson_a", names=_names("robinson"),
                aliases=("robinson_a",)),
    Coefficient("finn", "variance ratio", _SCORES, profile="bootstrap", **_BOOT,
                accessor="finn", shortcut="finn", names=_names("finn")),
    Coefficient("mean_spearman", "correlation", _SCORES, profile="bootstrap", **_BOOT,
                accessor="mean_spearman", shortcut="mean_spearman",
                names=_names("mean_spearman")),
    Coefficient("mean_pearson", "correlation", _SCORES, profile="tested_bootstrap", **_BOOT,
                accessor="mean_pearson", shortcut="mean_pearson", names=_names("mean_pearson")),
    Coefficient("error_rate_test", "test", _RATERS, profile="exact_test", ci="exact",
                sentence="test",
                accessor="error_rate_test"),
    # continuous measurements (an Agreement built with continuous=True, or detected)
    Coefficient("limits_of_agreement", "measurement", _MEASURED, columns="pair",
                profile="fixed_interval", ci="t", sentence="measurement",
                accessor="limits_of_agreement", shortcut="limits_of_agreement",
                names=_names(Name("loa", needs=_PAIR)),
                aliases=("limits_of_agreement", "bland_altman")),
    Coefficient("concordance", "measurement", _MEASURED, profile="tested_bootstrap",
                ci="fisher-z", n_resamples=DEFAULT_RESAMPLES, scale="mcbride", sentence="measurement",
                accessor="concordance", shortcut="concordance", names=_names("ccc"),
                aliases=("concordance", "lin_ccc")),
    Coefficient("total_deviation_index", "measurement", _MEASURED, columns="pair",
                profile="bootstrap", ci="log-msd", n_resamples=DEFAULT_RESAMPLES, sentence="measurement",
                accessor="total_deviation_index", shortcut="total_deviation_index",
                names=_names(Name("tdi", needs=_PAIR)), aliases=("total_deviation_index",)),
    # only by name in reports: it needs the largest acceptable difference (``delta``)
    Coefficient("coverage_probability", "measurement", _MEASURED, columns="pair",
                profile="bootstrap", ci="logit", n_resamples=DEFAULT_RESAMPLES, sentence="measurement",
                accessor="coverage_probability", shortcut="coverage_probability",
                names=_names(Name("cp", needs=_PAIR)), aliases=("coverage_probability",)),
    Coefficient("deming", "measurement", _MEASURED, columns="pair", profile="bootstrap",
                ci="jackknife", n_resamples=DEFAULT_RESAMPLES, sentence="measurement", accessor="deming",
                shortcut="deming", names=_names(Name("deming", needs=_PAIR))),
    Coefficient("passing_bablok", "measurement", _MEASURED, columns="pair", profile="fixed_interval",
                ci="rank", sentence="measurement", accessor="passing_bablok",
                shortcut="passing_bablok", names=_names(Name("passing_bablok", needs=_PAIR))),
    Coefficient("icc_components", "measurement", _MEASURED, profile="resampled",
                ci="satterthwaite", n_resamples=DEFAULT_RESAMPLES, scale="koo-li", sentence="measurement",
                accessor="icc_components", shortcut="icc_components", names=_names("icc_vc"),
                aliases=("icc_components",)),
    Coefficient("measurement_error", "measurement", _MEASURED, profile="resampled",
                ci="chi2", n_resamples=DEFAULT_RESAMPLES, sentence="measurement",
                accessor="measurement_error", shortcut="measurement_error",
                names=_names("sem"), aliases=("measurement_error",)),
    Coefficient("inter_intra_reliability", "measurement", _MEASURED, profile="fixed_interval",
                ci="satterthwaite", sentence="measurement", accessor="inter_intra_reliability"),
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
_MEASUREMENTS = {n.name: Row(c.method, n.options, n.needs)
                 for c in COEFFICIENTS if c.data == "continuous" for n in c.names}

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
    found = lookup(key, STATISTICS, ALIASES) if isinstance(key, str) else None
    if found is not None:
        return STATISTICS[found]
    raise ValueError(f"`{argument}` must be one of the Agreement methods "
                     f"({', '.join(methods())}) or of the statistics' names "
                     f"({', '.join(STATISTICS)}); got {name!r}.")


def coefficient(method: str) -> Coefficient:
    """The declaration of the statistic computed by the Agreement method `method`.

    Examples
    --------
    >>> coefficient("fleiss_kappa").accessor
    'fleiss'
    """
    return _BY_METHOD[method]


def methods() -> tuple[str, ...]:
    """The Agreement methods of every coefficient family (what :func:`irr.by` accepts)."""
    return tuple(c.method for c in COEFFICIENTS)


#: Every statistic a report can be asked for by name: name -> the row it computes, from
#: the names each entry of :data:`COEFFICIENTS` declares. ``alpha`` and ``icc`` are
#: shorthands (alpha at the level that suits the data, ICC(A,1)).
STATISTICS: Mapping[str, Row] = MappingProxyType({
    n.name: Row(c.method, n.options, n.needs) for c in COEFFICIENTS for n in c.names})
_SHORTHANDS = {"alpha": {"nominal": "alpha_nominal", "ordinal": "alpha_ordinal",
                         "continuous": "alpha_interval"},
               "icc": {"nominal": "icc_a1", "ordinal": "icc_a1", "continuous": "icc_a1"}}
_SHORTHAND_OF = {"krippendorff_alpha": "alpha", "icc": "icc"}

#: Other spellings of the statistics' names (keys as :func:`irr.vocabulary.normalise`
#: writes them): each entry's aliases stand for its first name (alpha's and the ICC's for
#: their shorthands).
ALIASES: Mapping[str, str] = MappingProxyType({
    normalise(alias): _SHORTHAND_OF.get(c.method, c.names[0].name if c.names else "")
    for c in COEFFICIENTS for alias in c.aliases})

#: Every name the statistics vocabulary knows, canonical spellings in order.
NAMES: tuple[str, ...] = (*STATISTICS, *_SHORTHANDS)


def statistic_name(name: Any, argument: str = "statistics") -> str:
    """The canonical name of a statistic (a key of :data:`STATISTICS`, or the shorthand
    ``'alpha'`` or ``'icc'``), from any of its spellings; a ValueError lists the names.

    Examples
    --------
    >>> statistic_name("Fleiss-Kappa"), statistic_name("limits_of_agreement")
    ('fleiss', 'loa')
    """
    return resolve(name, NAMES, ALIASES, argument=argument, what="statistic",
                   extra=("all",))

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
    canonical = [lookup(n, NAMES, ALIASES) for n in names]
    unknown = [n for n, c in zip(names, canonical, strict=True) if c is None]
    if unknown:
        raise ValueError(f"`{argument}` has unknown statistic(s) {', '.join(map(repr, unknown))}; "
                         f"known: {', '.join(STATISTICS)}, alpha, icc (or 'all').")
    resolved = [_SHORTHANDS[c][kind] if c in _SHORTHANDS else c for c in canonical]
    chosen, notes, kept = [], [], []
    # a shorthand the caller typed ('icc') is named as typed, with what it stands for
    typed = {r: (n if normalise(n) == normalise(r) else f"{n} ({r})")
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


@dataclass(frozen=True)
class Study:
    """The declaration of a study: a workflow on its own kind of data, returning its own
    result (not an :class:`irr.Agreement` method), every door to it is built or checked
    from.

    Attributes
    ----------
    name : str
        Its canonical name, in the vocabulary of :func:`study`.
    function : str
        The :mod:`irr` function that runs it (written out, with its docstring).
    command : str
        The CLI subcommand (``irr <command>``).
    data : str
        The data it applies to, in words.
    columns : tuple of str
        The function's keywords that name the data's columns.
    profile : str
        Its inference profile, a key of :data:`irr.inference.keywords.PROFILES` (the
        function's ``@inference_keywords`` decorator names the same profile).
    ci : str
        The interval method of its coefficients by default, a key of
        :data:`irr.vocabulary.INTERVAL_METHODS`; the function's ``ci=`` default.
    cis : tuple of str or None
        The interval methods `ci` offers (the function's and the CLI's ``--ci`` choices).
    component_ci : str
        The interval method of its variance components (ANOVA), a key of
        :data:`irr.vocabulary.INTERVAL_METHODS`.
    n_resamples : int
        The function's default number of bootstrap resamples.
    result_class : callable
        ``result_class()``: the class of its result (:attr:`result`), its module imported
        on first use.
    datasets : str
        The `kind` of :func:`irr.datasets.names` that lists its bundled data sets.
    detect : callable
        Data -> the column keywords' values (in the order of `columns`) when the data look
        like its data, else None.
    hint : callable
        ``hint(data, command=False)``: the message that sends such data to it (the Python
        call, or with `command` the CLI line), else None.
    aliases : tuple of str
        Other spellings of its name.
    """

    name: str
    function: str
    command: str
    data: str
    columns: tuple[str, ...]
    profile: str
    ci: str
    cis: tuple[str | None, ...]
    component_ci: str
    n_resamples: int
    result_class: Callable[[], type]
    datasets: str
    detect: Callable[[Any], Any]
    hint: Callable[..., str | None]
    aliases: tuple[str, ...] = ()

    @property
    def result(self) -> type:
        """The class of its result."""
        return self.result_class()


#: Every study, in the order listings show them.
STUDIES: tuple[Study, ...] = (
    Study("gstudy", "gstudy", "gstudy",
          "long data, one score per row: an object of measurement, two or more facets "
          "(crossed or nested) and a numeric score",
          columns=("object", "facets", "nested", "score"), profile="bootstrap", ci="wald",
          cis=WALD_OR_NONE_CIS, component_ci="satterthwaite", n_resamples=DEFAULT_RESAMPLES,
          result_class=lambda: _gresults.GStudyResult, datasets="gstudy",
          detect=lambda data: _gdata.multifacet_columns(data),
          hint=lambda data, command=False: _gdata.gstudy_hint(data, command=command),
          aliases=("g_study", "generalizability", "generalizability_theory", "g_theory")),
)

_STUDY_ALIASES = MappingProxyType({normalise(a): s.name for s in STUDIES for a in s.aliases})
_BY_STUDY = {s.name: s for s in STUDIES}


def study(name: Any, argument: str = "study") -> Study:
    """The declaration of a study, by its name or any of its spellings.

    Examples
    --------
    >>> study("G-study").function, study("generalizability").command
    ('gstudy', 'gstudy')
    """
    return _BY_STUDY[resolve(name, _BY_STUDY, _STUDY_ALIASES, argument=argument,
                             what="study")]


def study_hint(data: Any, command: bool = False) -> str | None:
    """The message of the first study whose detector recognises `data` (a rating report
    was asked for data of another kind), else None.

    Examples
    --------
    >>> import irr
    >>> "irr gstudy FILE --object Person" in study_hint(irr.datasets.load("brennan_3_2"),
    ...                                                 command=True)
    True
    >>> study_hint(irr.datasets.load("anxiety")) is None
    True
    """
    for declared in STUDIES:
        hint = declared.hint(data, command=command)  # its detector's finding, as a message
        if hint is not None:
            return hint
    return None
