"""The inference keywords, declared once: their defaults, choices, documentation and
command-line help, the profiles (the sets of them a statistic takes), and the decorator
that writes their entries into a function's numpydoc Parameters section.

Every method of :class:`irr.Agreement` and every shortcut that takes an inference keyword
is decorated with :func:`inference_keywords` and the name of its profile, so the text of,
say, `n_resamples` exists here only; the command line's inference flags read their help
from the same table (:attr:`Keyword.cli_help`).

Examples
--------
>>> KEYWORDS["n_resamples"].default
9999
>>> PROFILES["bootstrap"]
('confidence_level', 'ci', 'n_resamples', 'rng', 'progress')
>>> @inference_keywords("bootstrap", cis=(None, "percentile"))
... def f(x, *, confidence_level=0.95, ci=None, n_resamples=9999, rng=0, progress=None):
...     '''Summary.
...
...     Parameters
...     ----------
...     x : float
...         A number.
...     '''
>>> for line in f.__doc__.splitlines()[4:8]:
...     print(line)
    x : float
        A number.
    confidence_level : float, default 0.95
        Level of the interval, in (0, 1) (a proportion: 0.95, not 95).
"""

from __future__ import annotations

import functools
import inspect
import re
import textwrap
from collections.abc import Callable, Sequence
from dataclasses import dataclass, replace
from typing import Any, TypeVar

from irr._validation import check_integer, show_value

__all__ = [
    "ALPHA_CIS",
    "ALPHA_NOTES",
    "ASYMPTOTIC_METHODS",
    "BOOTSTRAP_METHODS",
    "CCC_CIS",
    "CCC_NOTES",
    "CP_CIS",
    "CP_NOTES",
    "CRONBACH_TEXTS",
    "DEFAULT_RESAMPLES",
    "DEMING_CIS",
    "DEMING_NOTES",
    "DISTRIBUTIONS",
    "FORMULA_METHODS",
    "ICC_COMPONENTS_NOTES",
    "ICC_TEXTS",
    "KEYWORDS",
    "MAX_RESAMPLES",
    "MEASUREMENT_ERROR_NOTES",
    "MISSING",
    "NONE_IS_WALD",
    "NO_SE_CI",
    "NO_SE_CIS",
    "PROFILES",
    "SAMPLING",
    "TDI_CIS",
    "TDI_NOTES",
    "WALD_CIS",
    "WALD_OR_NONE_CIS",
    "Keyword",
    "check_interval",
    "check_n_resamples",
    "inference_keywords",
    "keyword_entry",
]

#: The number of bootstrap resamples of every statistic, method, shortcut and command.
DEFAULT_RESAMPLES = 9999

#: The most bootstrap resamples any call draws (:func:`check_n_resamples`).
MAX_RESAMPLES = 10**6


def check_n_resamples(value: Any) -> int:
    """`value` as a number of bootstrap resamples: an integer from 1 to :data:`MAX_RESAMPLES`.

    The bootstrap batches its draws, so memory stays bounded whatever the count; the
    bound is on time: a million resamples give Monte Carlo errors of interval ends far
    below any reported digit, and more would only run for hours.

    Examples
    --------
    >>> check_n_resamples(10**12)
    Traceback (most recent call last):
    ...
    ValueError: `n_resamples` must be at most 1000000 (MAX_RESAMPLES); got 1000000000000.
    """
    value = check_integer(value, "n_resamples", 1)
    if value > MAX_RESAMPLES:
        raise ValueError(
            f"`n_resamples` must be at most {MAX_RESAMPLES} (MAX_RESAMPLES); got {value}."
        )
    return value


ASYMPTOTIC_METHODS = ("wald",)
BOOTSTRAP_METHODS = ("percentile", "basic", "bca")
#: Every interval computed from a formula: Wald's, Wilson's (a share), Fisher's z (the
#: CCC), log MSD (the TDI), logit (the CP) and the jackknife (Deming regression). Each
#: statistic offers its own few of them (its ``cis`` in :mod:`irr.inference.keywords`).
FORMULA_METHODS = (*ASYMPTOTIC_METHODS, "wilson", "fisher-z", "log-msd", "logit", "jackknife")
#: The reference laws of a Wald test and interval: the standard normal, or Student's t on
#: n - 1 degrees of freedom (n the subjects), as irrCAC and Stata's kappaetc print them.
DISTRIBUTIONS = ("normal", "t")
#: What the standard error generalises over: the subjects (raters fixed; irrCAC, kappaetc's
#: default), the raters (subjects fixed; kappaetc's ``se(conditional subjects)``) or both
#: (kappaetc's ``se(unconditional)``; Gwet 2008, 2014 ch. 5).
SAMPLING = ("subjects", "raters", "both")


#: The missing-rating policies of the multi-rater coefficients (`missing`).
MISSING = ("available", "listwise")

#: The sentence after `ci`'s shared text for the statistics without a standard error
#: (Kendall's W, the mean correlations, Robinson's A, Finn's coefficient, iota).
NO_SE_CIS = (None, *BOOTSTRAP_METHODS)
NO_SE_CI = ("The statistic has no standard error: None gives no interval, a bootstrap method "
            "resamples subjects now.")

#: The interval methods of the coefficients with a linearised SE (the Wald interval and
#: the bootstrap): the usual `ci` choices.
WALD_CIS = ASYMPTOTIC_METHODS + BOOTSTRAP_METHODS
#: The same where None, too, gives the Wald interval (the multi-rater coefficients,
#: specific agreement, category-wise kappa), and the sentence that says so.
WALD_OR_NONE_CIS = (*WALD_CIS, None)
NONE_IS_WALD = "None: the Wald interval, as 'wald'."

#: Krippendorff's alpha (irr.estimators.krippendorff): the intervals it offers, and its
#: sentences after the shared text of the inference keywords, for the method and the shortcut.
ALPHA_CIS = ("auto", "wald", *BOOTSTRAP_METHODS, None)
ALPHA_NOTES = {
    "ci": "Alpha's default, 'auto', is the percentile bootstrap over units up to 1,000 "
          "pairable units (alpha's sampling distribution is skewed near 1 and in small "
          "samples, where the percentile interval respects the bound at 1 without "
          "clipping) and the Wald interval above, where a bootstrap would draw B x n units "
          "and the Wald interval covers at its level (simulation on three designs, "
          "``benchmarks/coverage_alpha.py``; a note says which was used). 'wald': estimate "
          "+- z (or t) times Gwet's linearised SE, as irrCAC's ``krippen.alpha.raw`` "
          "reports it. None skips the bootstrap (``ci`` is nan until ``conf_int`` asks for "
          "one).",
    "alternative": "The test is on Gwet's linearised SE.",
    "distribution": "For alpha, n is the number of pairable units.",
    "null": "Alpha's must lie below 1.",
}

#: The CCC, the TDI and the CP (irr.estimators.concordance): their intervals, and their
#: sentences after the shared text of the inference keywords, for the methods and shortcuts.
CCC_CIS = ("fisher-z", *BOOTSTRAP_METHODS)
CCC_NOTES = {
    "alternative": "Here: of CCC = `rho0`, on Fisher's z scale.",
    "ci": "'fisher-z': the asymptotic interval on Fisher's z scale, back-transformed.",
}
TDI_CIS = (None, "log-msd", *BOOTSTRAP_METHODS)
TDI_NOTES = {
    "confidence_level": "Of the one-sided bound ('log-msd') or of the two-sided bootstrap "
                        "interval.",
    "ci": "None: 'log-msd' for the approximate TDI, Lin's (2000) one-sided upper bound from "
          "W = ln e^2 normal with variance 2(1 - mean^4/e^4)/(n - 2); 'percentile' for the "
          "exact one.",
}
CP_CIS = ("logit", *BOOTSTRAP_METHODS)
CP_NOTES = {
    "confidence_level": "Of the one-sided bound ('logit') or of the two-sided bootstrap "
                        "interval.",
    "ci": "'logit': the one-sided lower bound from logit(CP) normal, with the delta-method "
          "variance under normality on n - 2 (Lin et al. 2002).",
}

#: Deming regression (irr.estimators.method_regression): its intervals, and its sentence
#: after the shared text of `ci`, for the method and the shortcut.
DEMING_CIS = ("jackknife", *BOOTSTRAP_METHODS)
DEMING_NOTES = {
    "ci": "'jackknife': t intervals on n - 2 df with the leave-one-out jackknife standard "
          "errors (Linnet 1993); the bootstrap methods resample subjects (the error ratio "
          "held fixed).",
}

#: The ICC's own text of `null` (McGraw & Wong's F test, not a Wald test), in place of the
#: shared one, for the method and the shortcut (irr.estimators.icc).
ICC_TEXTS = {
    "null": "The ICC under H0 of the F test (R irr's ``r0``): ``statistic`` and ``pvalue`` "
            "test H0: ICC = `null` against ICC > `null` with McGraw & Wong's (1996, Table 8) "
            "F, for every form; for the absolute-agreement forms the denominator df ``df2`` "
            "are Satterthwaite's at `null` (not an integer). Must lie below 1 (and, for a "
            "single rater, above -1/(k - 1)). None: the test of ICC = 0. The summary and the "
            "sentence state a value other than 0.",
}

#: Cronbach's alpha's own text of the inference keyword `null` (irr.estimators.cronbach).
CRONBACH_TEXTS = {
    "null": "The alpha under H0 of Feldt's F test, F = (1 - `null`)/(1 - alpha), against "
            "alpha > `null`; below 1. None: the test of alpha = 0.",
}

#: What the bootstrap keywords draw for the measurement error, after their shared text
#: (irr.estimators.measurement_error).
MEASUREMENT_ERROR_NOTES = {
    "n_resamples": "Here they draw the intervals of the SEM with replicates and of the "
                   "root-mean-square CV.",
}

#: What the bootstrap keywords draw for the ICC from variance components, after their
#: shared text (irr.estimators.variance_components).
ICC_COMPONENTS_NOTES = {
    "n_resamples": "Here they draw the interval with replicates (its default there), or one "
                   "``conf_int(method='percentile' | 'basic' | 'bca')`` asks for.",
}


@dataclass(frozen=True)
class Keyword:
    """One inference keyword: what the signatures, the docstrings and the command line say
    of it.

    `default` is the default of every signature that takes the keyword (`ci`'s depends
    on the statistic: its signature says it); `type` the numpydoc type (for `ci`, the
    decorator writes the choices of the statistic); `doc` the description, one paragraph;
    `choices` the values a command-line flag offers (None: a free value); `cli_help` the
    flag's help, where the command line has one.
    """

    name: str
    default: Any
    type: str
    doc: str
    choices: tuple[str, ...] | None = None
    cli_help: str = ""

    def entry(self, default: Any, note: str = "", type: str | None = None) -> list[str]:
        """The lines of its numpydoc entry (unindented), with `default` and a statistic's
        own `note` after the shared text."""
        return list(_entry_lines(self.name, type or self.type, repr(default),
                                 f"{self.doc} {note}".strip()))


@functools.cache
def _entry_lines(name: str, type: str, default: str, text: str) -> tuple[str, ...]:
    """:meth:`Keyword.entry`'s lines, wrapped once for each distinct entry (the
    docstrings written at import repeat the same few entries many times)."""
    return (f"{name} : {type}, default {default}",
            *textwrap.wrap(text, 84, initial_indent="    ", subsequent_indent="    ",
                           break_on_hyphens=False))


def _choices(values: Sequence[Any]) -> str:
    listed = "{" + ", ".join(repr(v) for v in values if v is not None) + "}"
    return f"{listed} or None" if None in values else listed


#: Every inference keyword, in the order signatures list them.
KEYWORDS: dict[str, Keyword] = {k.name: k for k in (
    Keyword(
        "alternative", "two-sided", _choices(("two-sided", "greater", "less")),
        "Alternative of the test in ``statistic`` and ``pvalue``: of no agreement beyond "
        "chance (0), or of the value `null` where the method takes one.",
        choices=("two-sided", "greater", "less"),
        cli_help="the test's alternative: two-sided (the default), greater or less "
                 "(kappaetc's testvalue(> #) and testvalue(< #))"),
    Keyword(
        "confidence_level", 0.95, "float",
        "Level of the interval, in (0, 1) (a proportion: 0.95, not 95).",
        cli_help="confidence level of the intervals, a proportion (default 0.95; not 95)"),
    Keyword(
        "ci", "wald", _choices(WALD_CIS),
        "The interval in ``ci``. A bootstrap method ('percentile', 'basic', 'bca') "
        "resamples subjects (as multinomial counts over their distinct rating patterns, "
        "so any n is fast); the distribution is drawn once and reused by ``conf_int`` for "
        "other levels and methods, which also draws one later where `ci` chose none.",
        choices=WALD_CIS,
        cli_help="interval method; default: each statistic's own, as in the Python API"),
    Keyword(
        "n_resamples", DEFAULT_RESAMPLES, "int",
        "Bootstrap resamples (drawn only for a bootstrap interval, or when ``conf_int`` "
        "asks for one), at most :data:`irr.inference.bootstrap.MAX_RESAMPLES` (10**6).",
        cli_help=f"bootstrap resamples (default {DEFAULT_RESAMPLES}, at most 1000000)"),
    Keyword(
        "rng", 0, "int, numpy.random.Generator or None",
        "Randomness of the bootstrap. The default is the fixed seed 0, so the same call "
        "gives the same interval every time (the result's ``seed`` says which seed drew "
        "it); pass another int for other draws, a Generator to draw from its stream, or "
        "None explicitly for fresh OS entropy (not reproducible). The same int seed gives "
        "the same resampled subjects for every statistic of the same data that uses the "
        "same subjects, so their replicates are paired (e.g. for an interval of a "
        "difference of two coefficients).",
        cli_help="seed of the bootstrap (default 0: the same output every run)"),
    Keyword(
        "progress", None, "bool or None",
        "A tqdm progress bar for the bootstrap: None shows one only for runs that will "
        "take more than about two seconds and only on an interactive terminal; True "
        "always (if tqdm is installed), False never."),
    Keyword(
        "distribution", "normal", _choices(DISTRIBUTIONS),
        "The law of the test and the Wald interval. 't': Student's t on n - 1 degrees of "
        "freedom (n the subjects used) with the test on the linearised SE, as irrCAC and "
        "Stata's kappaetc print them (summaries and sentences then say t(n - 1)).",
        choices=DISTRIBUTIONS,
        cli_help="law of the Wald intervals and tests: normal (z; the default) or t on "
                 "n - 1 degrees of freedom (irrCAC, Stata's kappaetc)"),
    Keyword(
        "population", None, "int, float or None",
        "The number N of subjects in the population the rated subjects come from "
        "(irrCAC's ``N``): the SE is multiplied by the finite-population correction "
        "sqrt(1 - n/N), for a study that rates a large share of a finite population. "
        "None: infinite (no correction).",
        cli_help="the number N of subjects in the finite population the rated subjects "
                 "come from (irrCAC's N): the SE is multiplied by sqrt(1 - n/N)"),
    Keyword(
        "null", None, "float or None",
        "The value under H0 (kappaetc's ``testvalue(#)``): ``statistic`` and ``pvalue`` "
        "test H0: coefficient = `null` against `alternative` ('greater' is kappaetc's "
        "``testvalue(> #)``, 'less' its ``testvalue(< #)``), with (estimate - null) / se "
        "on the normal or t law, the SE under the alternative. Must lie inside the "
        "coefficient's range. None: the test of 0 (no agreement beyond chance). The "
        "summary, the sentence and ``to_frame()`` state a value other than 0.",
        cli_help="test H0: coefficient = VALUE instead of 0, on the Wald SE (kappaetc's "
                 "testvalue(#)); for the ICCs McGraw & Wong's F test of ICC = VALUE "
                 "(R irr's r0)"),
    Keyword(
        "ci_clip", True, "bool",
        "Clip the Wald interval's limits to the coefficient's range (the note says when "
        "they were). False is kappaetc's ``nociclipped``: estimate +- quantile x SE as "
        "computed.",
        cli_help="report Wald limits beyond the coefficient's range unclipped (kappaetc's "
                 "nociclipped)"),
    Keyword(
        "sampling", "subjects", _choices(SAMPLING),
        "What the SE generalises over. 'subjects' (irrCAC, kappaetc's default): Gwet's "
        "linearised variance, the raters taken as fixed. 'raters': the jackknife over "
        "raters, the subjects taken as fixed (Gwet 2008; kappaetc ``se(conditional "
        "subjects)``). 'both': the unconditional SE, sqrt of the sum of the two variances "
        "(Gwet 2014, ch. 5; kappaetc ``se(unconditional)``), for generalising to other "
        "raters and other subjects. Needs rater identities and at least three raters "
        "unless 'subjects'; 'raters' and 'both' give Wald intervals only.",
        choices=SAMPLING,
        cli_help="what the SE generalises over: subjects (the default; raters fixed), "
                 "raters (jackknife over raters; subjects fixed) or both (kappaetc's "
                 "unconditional SE); raters and both give Wald intervals (the default --ci "
                 "with them; no bootstrap)"),
    Keyword(
        "rater_population", None, "int, float or None",
        "With sampling 'raters' or 'both': the number R of raters in the population the r "
        "raters come from (kappaetc's ``nraters(#)``): the variance over raters is "
        "multiplied by 1 - r/R (R = r leaves the subject-sampling SE; None is an infinite "
        "population of raters).",
        cli_help="the number R of raters in a finite population of raters: with "
                 "--sampling raters or both, the variance over raters is multiplied by "
                 "1 - r/R (kappaetc's nraters(#))"),
    Keyword(
        "missing", "available", _choices(MISSING),
        "Missing ratings. 'available': every rating (Gwet 2014; irrCAC, kappaetc): "
        "observed agreement from the subjects with two or more ratings, chance agreement "
        "from all. 'listwise': only the subjects rated by every rater (R irr's "
        "``kappam.fleiss`` and ``kappam.light``, which drop incomplete rows); "
        "``n_missing`` and the notes say how many were left out.",
        choices=MISSING,
        cli_help="the multi-rater chance-corrected coefficients and percent agreement use "
                 "every available rating (the default) or only the subjects rated by every "
                 "rater (listwise, as R irr's kappam.fleiss)"),
)}

_BOOTSTRAP = ("confidence_level", "ci", "n_resamples", "rng", "progress")
_WALD_TEST = ("alternative", *_BOOTSTRAP, "distribution", "population", "null", "ci_clip")

#: The inference keywords a statistic takes, by what its inference is. Every method and
#: shortcut names its profile in :func:`inference_keywords`, which checks its signature.
PROFILES: dict[str, tuple[str, ...]] = {
    # an interval of one method (exact, F-based, rank-based): a level only
    "fixed_interval": ("confidence_level",),
    # an exact test and its interval of one method (the binomial test of an error rate)
    "exact_test": ("alternative", "confidence_level"),
    # McGraw & Wong's F test of ICC = null and its F-based interval
    "f_test": ("confidence_level", "null"),
    # formula intervals, with a bootstrap of subjects where the formula needs one
    "resampled": ("confidence_level", "n_resamples", "rng", "progress"),
    # a formula interval or a bootstrap one (`ci`), no test
    "bootstrap": _BOOTSTRAP,
    # the same with a test (its alternative)
    "tested_bootstrap": ("alternative", *_BOOTSTRAP),
    # a Wald interval on a linearised SE (t law, finite population), no test
    "wald": (*_BOOTSTRAP, "distribution", "population"),
    # a Wald test of `null` and its interval (Cohen's kappa)
    "wald_test": _WALD_TEST,
    # the Wald test with the SE over raters too (Krippendorff's alpha)
    "rater_sampling": (*_WALD_TEST, "sampling", "rater_population"),
    # the same with the missing-rating policy (Fleiss, Conger, Light, Gwet, B-P, percent)
    "multirater": (*_WALD_TEST, "sampling", "rater_population", "missing"),
}

F = TypeVar("F", bound=Callable[..., Any])

_HEADER = re.compile(r"^(?P<indent> *)(?P<title>[A-Z][A-Za-z ]+)\n(?P=indent)-{3,}$", re.M)


def keyword_entry(name: str, default: Any = inspect.Parameter.empty, note: str = "",
                  cis: Sequence[str | None] = WALD_CIS) -> str:
    """The numpydoc entry of keyword `name` (its table default unless `default` is
    given), as the decorator writes it.

    Examples
    --------
    >>> print(keyword_entry("ci", None, cis=(None, "percentile")))
    ci : {'percentile'} or None, default None
        The interval in ``ci``. A bootstrap method ('percentile', 'basic', 'bca') resamples
        subjects (as multinomial counts over their distinct rating patterns, so any n is
        fast); the distribution is drawn once and reused by ``conf_int`` for other levels
        and methods, which also draws one later where `ci` chose none.
    """
    keyword = KEYWORDS[name]
    given = keyword.default if default is inspect.Parameter.empty else default
    return "\n".join(keyword.entry(given, note, _choices(cis) if name == "ci" else None))


def _sections(doc: str) -> tuple[str, list[tuple[str, str, str]]]:
    """A docstring cut at its numpydoc section headers: the text before them and, for each
    section, (title, header lines, body)."""
    headers = list(_HEADER.finditer(doc))
    if not headers:
        return doc, []
    parts = []
    for i, match in enumerate(headers):
        end = headers[i + 1].start() if i + 1 < len(headers) else len(doc)
        parts.append((match.group("title"), doc[match.start():match.end()],
                      doc[match.end():end]))
    return doc[:headers[0].start()], parts


def _entries(body: str, indent: str) -> list[tuple[list[str], list[str]]]:
    """The entries of a Parameters body: (names, lines) each, the lines unindented."""
    entries: list[tuple[list[str], list[str]]] = []
    for line in body.strip("\n").splitlines():
        text = line[len(indent):] if line.startswith(indent) else line.lstrip()
        if line.strip() and not text.startswith(" "):
            names = [n.strip().lstrip("*") for n in text.split(" : ")[0].split(",")]
            entries.append((names, [text]))
        elif entries:
            entries[-1][1].append(text.rstrip())
    for _, lines in entries:
        while lines and not lines[-1]:
            lines.pop()
    return entries


def inference_keywords(profile: str | tuple[str, ...], *,
                       cis: Sequence[str | None] = WALD_CIS,
                       texts: dict[str, str] | None = None, **notes: str) -> Callable[[F], F]:
    """Write the Parameters entries of the inference keywords of `profile` (a name of
    :data:`PROFILES`, or the keywords themselves) into the decorated function's (or
    class's) docstring, from :data:`KEYWORDS`.

    The function's signature must take the profile's keywords, in the table's order, with
    the table's defaults (`ci`'s default: one of `cis`, the interval methods it offers).
    Each keyword's entry goes in signature order among the entries the docstring writes
    itself (an entry it writes for a keyword stays; prefer `texts`). `notes` add a
    statistic's own sentence to a keyword's shared text
    (``ci="'wald': on the linearised SE."``); `texts` replace it, for a keyword that means
    something else to the statistic (the ICC's `null`, an F test's value), and are kept
    with the statistic's module so that its method and shortcut say the same. A docstring
    without a Parameters section gets one. A parameter documented nowhere, or a documented
    name the function does not take, is an error when the module is imported. A function
    taking `ci` is wrapped to refuse, naming its choices, a `ci` outside `cis`.

    Raises
    ------
    TypeError
        When the signature, the profile and the docstring disagree.
    """
    wanted = PROFILES[profile] if isinstance(profile, str) else profile
    texts = texts or {}
    unknown = (set(notes) | set(texts)) - set(wanted)
    if unknown:
        raise TypeError(f"notes for keywords outside profile {profile!r}: {sorted(unknown)}")

    def decorate(function: F) -> F:
        where = function.__qualname__
        parameters = [p for p in inspect.signature(function).parameters.values()
                      if p.name not in ("self", "cls")]
        taken = [p.name for p in parameters if p.name in KEYWORDS]
        if tuple(taken) != wanted:
            raise TypeError(f"{where} takes the inference keywords {taken}; profile "
                            f"{profile!r} is {list(wanted)}.")
        defaults = {p.name: p.default for p in parameters}
        for name in wanted:
            if name == "ci":
                if defaults[name] not in cis:
                    raise TypeError(f"{where}: default ci={defaults[name]!r} is not one of "
                                    f"its choices {list(cis)}.")
            elif defaults[name] != KEYWORDS[name].default:
                raise TypeError(f"{where}: default {name}={defaults[name]!r}; the table's "
                                f"is {KEYWORDS[name].default!r}.")
        function.__doc__ = _document(function.__doc__ or "", parameters, wanted, cis, notes,
                                     texts, where)
        if "ci" not in wanted or inspect.isclass(function):
            function.__inference_profile__ = profile  # type: ignore[attr-defined]
            return function
        if next(p for p in parameters if p.name == "ci").kind is not inspect.Parameter.KEYWORD_ONLY:
            raise TypeError(f"{where}: `ci` must be keyword-only.")

        @functools.wraps(function)
        def checked(*args: Any, **kwargs: Any) -> Any:
            if "ci" in kwargs:
                check_interval(kwargs["ci"], cis)
            return function(*args, **kwargs)

        checked.__inference_profile__ = profile  # type: ignore[attr-defined]
        return checked  # type: ignore[return-value]

    return decorate


def check_interval(ci: Any, cis: Sequence[str | None]) -> None:
    """Raise the ValueError of a `ci` that is not one of a statistic's `cis`.

    Examples
    --------
    >>> check_interval("fisher-z", WALD_CIS)
    Traceback (most recent call last):
    ...
    ValueError: `ci` must be one of 'wald', 'percentile', 'basic', 'bca'; got 'fisher-z'.
    """
    if (ci is None and None in cis) or (isinstance(ci, str) and ci in cis):
        return
    listed = ", ".join(repr(c) for c in cis if c is not None)
    raise ValueError(f"`ci` must be one of {listed}{' or None' if None in cis else ''}; "
                     f"got {show_value(ci)}.")


def _document(doc: str, parameters: list[inspect.Parameter], wanted: tuple[str, ...],
              cis: Sequence[str | None], notes: dict[str, str], texts: dict[str, str],
              where: str) -> str:
    head, sections = _sections(doc)
    titles = [title for title, _, _ in sections]
    if "Parameters" in titles:
        at = titles.index("Parameters")
        indent = re.match(r" *", sections[at][1]).group()  # type: ignore[union-attr]
        written = _entries(sections[at][2], indent)
    else:
        body = [ln for ln in doc.splitlines()[1:] if ln.strip()]
        indent = min((re.match(r" *", ln).group() for ln in body), key=len,  # type: ignore[union-attr]
                     default="    ")
        at, written = 0, []
        sections.insert(0, ("Parameters", f"{indent}Parameters\n{indent}----------", ""))
        if not head.endswith("\n\n"):
            head = head.rstrip() + "\n\n"
    names = [p.name for p in parameters]
    extra = [n for entry_names, _ in written for n in entry_names if n not in names]
    if extra:
        raise TypeError(f"{where} documents parameters it does not take: {extra}.")
    lines: list[str] = []
    done: set[str] = set()
    for parameter in parameters:
        name = parameter.name
        if name in done:
            continue
        entry = next((e for e in written if name in e[0]), None)
        if entry is not None:
            lines += entry[1]
            done.update(entry[0])
        elif name in wanted:
            keyword = KEYWORDS[name]
            if name in texts:
                keyword = replace(keyword, doc=texts[name])
            lines += keyword.entry(parameter.default, notes.get(name, ""),
                                   _choices(cis) if name == "ci" else None)
            done.add(name)
        else:
            raise TypeError(f"{where} does not document its parameter {name!r}.")
    body = "\n" + "\n".join(f"{indent}{ln}" if ln else "" for ln in lines) + "\n"
    if at + 1 < len(sections) or head.strip():
        body += "\n"
    title, header, _ = sections[at]
    sections[at] = (title, header, body)
    text = head + "".join(h + b for _, h, b in sections)
    return text if at + 1 < len(sections) else text.rstrip() + "\n" + indent[:-4]
