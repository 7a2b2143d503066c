"""The ``irr`` command line: agreement statistics of a ratings file or a bundled data set.

Subcommands: ``kappa`` (two raters), ``multi`` (multi-rater coefficients), ``icc``,
``error-rate``, ``report`` (everything that applies), ``datasets``, ``app`` (the report in
a local web page, :mod:`irr.app`) and ``plan`` (sample size and power: ``irr plan
kappa|kappa-interval|icc|icc-interval|limits|ccc|error-rate``). Input is CSV/TSV (a
path or ``-`` for stdin), Parquet (with pyarrow) or ``--dataset NAME``; wide by default (one
row per subject, one column per rater), long with ``--subject/--rater/--rating``. Output is
text, markdown, html, latex, csv or json, to stdout or ``--output FILE`` (written atomically).
Errors are one line on stderr with exit status 1; usage errors exit 2.
"""

from __future__ import annotations

import argparse
import codecs
import contextlib
import csv
import dataclasses
import importlib
import importlib.util
import inspect
import io
import json
import math
import os
import re
import stat
import sys
import textwrap
import threading
import warnings
from collections.abc import Callable, Sequence
from typing import Any

import numpy as np

# the package: its subpackages irr.datasets, irr.plan and irr.plotting are imported when a
# command first uses them (irr.__getattr__), so `irr kappa` never loads them
import irr
from irr._columns import (
    ContinuousScoresWarning,
    choose_columns,
    missing_tokens,
    repeated_ids_note,
    scale_info,
)
from irr._data import is_pandas, may_hold_missing
from irr._files import Target, file_kind
from irr._frames import head as frame_head
from irr._frames import (
    is_foreign_frame,
    long_patterns,
    missing_values,
    numpy_relation,
    relation_head,
    relation_patterns,
    wide_patterns,
)
from irr._lazy import lazy_module
from irr._parquet import parquet_shape
from irr._validation import DegenerateDataWarning
from irr._version import __version__
from irr.agreement import Agreement
from irr.bands import SCALES, get_scale
from irr.inference.keywords import KEYWORDS, PROFILES, check_n_resamples
from irr.inference.options import InferenceOptions
from irr.registry import (
    ALIASES,
    COEFFICIENTS,
    METHOD_COMPARISON,
    PANELS,
    STATISTICS,
    STUDIES,
    rows,
    scale_type,
    study,
    study_hint,
)
from irr.reliability import call_method, replicate_note
from irr.reliability import report as reliability_report
from irr.reporting import DataDescription, ReliabilityReport, jsonable
from irr.summary import escape_latex, escape_markdown
from irr.vocabulary import lookup
from irr.weights import weight_name

pd = lazy_module("pandas")  # imported on first use: data streamed by DuckDB never need it
# modules only some commands use, imported on first use: `irr kappa FILE` loads none
difflib = lazy_module("difflib")  # near names, in the message of a misspelt column
html = lazy_module("irr._html")
limits = lazy_module("irr.estimators.limits")
gtheory = lazy_module("irr.gtheory")

__all__ = ["main"]

FORMATS = ("text", "markdown", "html", "latex", "csv", "json")
CI_METHODS = ("wald", "percentile", "basic", "bca")
BOOTSTRAP_CIS = ("percentile", "basic", "bca")
PLOT_SUFFIXES = (".png", ".svg", ".pdf")
_TSV_SUFFIXES = (".tsv", ".tab")
_PARQUET_SUFFIXES = (".parquet", ".pq")
#: Files of other formats, by suffix: what they are and the pandas call that reads them
#: (refused by name, not parsed as CSV).
_OTHER_FORMATS = {
    ".json": ("JSON", "pandas.read_json(path)"),
    ".jsonl": ("JSON lines", "pandas.read_json(path, lines=True)"),
    ".ndjson": ("JSON lines", "pandas.read_json(path, lines=True)"),
    ".xlsx": ("Excel", "pandas.read_excel(path)"), ".xls": ("Excel", "pandas.read_excel(path)"),
    ".ods": ("OpenDocument spreadsheet", "pandas.read_excel(path)"),
    ".feather": ("Feather", "pandas.read_feather(path)"),
    ".arrow": ("Arrow IPC", "pandas.read_feather(path)"),
    ".sav": ("SPSS", "pandas.read_spss(path)"), ".dta": ("Stata", "pandas.read_stata(path)"),
    ".sas7bdat": ("SAS", "pandas.read_sas(path)"),
    ".rds": ("R", "write.csv() in R"), ".rdata": ("R", "write.csv() in R"),
}


class CommandError(Exception):
    """An error to print as one line (exit status 1)."""


#: Input larger than this many bytes is refused unless --max-bytes or $IRR_MAX_BYTES says more.
DEFAULT_MAX_BYTES = 200 * 1000**2
MAX_BYTES_ENV = "IRR_MAX_BYTES"
_READ_CHUNK = 1 << 20
_UNITS = {"": 1, "K": 1000, "M": 1000**2, "G": 1000**3, "T": 1000**4}


def _size(text: str) -> int:
    """A byte count such as ``5000``, ``500K``, ``200M`` or ``2G`` (powers of 1000)."""
    value = str(text).strip().upper().removesuffix("B")
    unit = value[-1:] if value[-1:] in _UNITS else ""
    try:
        number = float(value[: len(value) - len(unit)])
    except ValueError:
        number = math.nan
    if not math.isfinite(number) or number < 1:
        raise argparse.ArgumentTypeError(
            f"must be a positive size such as 5000, 500K, 200M or 2G; got {text!r}")
    return int(number * _UNITS[unit])


def _resamples(text: str) -> int:
    """--n-resamples: an integer such as 9999 or 1e4, at most MAX_RESAMPLES."""
    try:
        value = float(text)
    except ValueError:
        value = math.nan
    if not (math.isfinite(value) and value.is_integer()):
        raise argparse.ArgumentTypeError(f"must be an integer; got {text!r}")
    try:
        return check_n_resamples(int(value))
    except ValueError as exc:
        raise argparse.ArgumentTypeError(str(exc).replace("`n_resamples` ", "")) from None


def _max_bytes(args: argparse.Namespace) -> int:
    if getattr(args, "max_bytes", None) is not None:
        return args.max_bytes
    value = os.environ.get(MAX_BYTES_ENV)
    if value is None or not value.strip():
        return DEFAULT_MAX_BYTES
    try:
        return _size(value)
    except argparse.ArgumentTypeError as exc:
        raise CommandError(f"${MAX_BYTES_ENV} {exc}") from None


def _too_large(where: str, limit: int) -> CommandError:
    return CommandError(
        f"cannot read {where}: larger than the input limit of {limit} bytes; raise it with "
        f"--max-bytes or ${MAX_BYTES_ENV}"
    )


# -- inference options -------------------------------------------------------------------
def _population(text: str) -> float:
    """--population: the number N of subjects in the population (a positive number;
    ``inf`` for an infinite one)."""
    try:
        value = float(text)
    except ValueError:
        value = math.nan
    if not value > 0:
        raise argparse.ArgumentTypeError(
            f"must be a positive number of subjects, e.g. 500; got {text!r}")
    return value


@dataclasses.dataclass(frozen=True)
class InferenceFlag:
    """A flag of an inference option that the statistics take as a keyword argument of
    the same name (``--distribution t`` -> ``distribution='t'``); its help and choices are
    the keyword's in :data:`irr.inference.keywords.KEYWORDS`.

    Default None: the flag is passed on only when given, to every statistic whose
    method accepts it; a statistic that does not gets a note (never a silent default).
    A switch is ``action="store_false"`` (or ``"store_true"``) with its `spelling`, e.g.
    ``InferenceFlag("ci_clip", action="store_false", spelling="--no-ci-clip")``.
    """

    name: str  #: the keyword argument of the Agreement methods (and of InferenceOptions)
    type: Any = None  #: an argparse type (raises ArgumentTypeError), for free values
    metavar: str | None = None
    commands: tuple[str, ...] = ("kappa", "multi", "report")  #: the subcommands that take it
    title: str = ""  #: its label in the output's header (default: the name, capitalised)
    action: str | None = None  #: "store_true"/"store_false" for a switch
    spelling: str = ""  #: the flag (default: --name with dashes)
    switched: str = ""  #: a switch's value in the output's header (``not clipped``)
    header: bool = True  #: False where the results' own header already shows it

    @property
    def flag(self) -> str:
        return self.spelling or "--" + self.name.replace("_", "-")

    @property
    def help(self) -> str:
        return KEYWORDS[self.name].cli_help

    @property
    def choices(self) -> tuple[str, ...] | None:
        return None if self.type is not None or self.action else KEYWORDS[self.name].choices

    @property
    def label(self) -> str:
        return self.title or self.name.replace("_", " ").capitalize()

    def add_to(self, group: Any) -> None:
        given = {"choices": self.choices, "type": self.type, "metavar": self.metavar,
                 "action": self.action}
        group.add_argument(self.flag, dest=self.name, default=None, help=self.help,
                           **{k: v for k, v in given.items() if v is not None})

    def shown(self, value: Any) -> str:
        """The flag as given: ``--population 500``, ``--no-ci-clip``."""
        if self.action is not None:
            return self.flag
        return f"{self.flag} {value:g}" if isinstance(value, float) else f"{self.flag} {value}"


#: The inference options every statistic that takes them gets from the command line, one
#: entry each (added to the "inference" group of its `commands` by :func:`_common`, passed
#: on by :func:`_inference`, named in messages through :data:`FLAGS`, checked together with
#: --ci by :func:`_check_inference`). A new option of the Agreement methods is one more line.
INFERENCE_FLAGS = (
    InferenceFlag("distribution"),
    InferenceFlag("sampling", commands=("multi", "report")),
    InferenceFlag("population", type=_population, metavar="N", title="Population N"),
    InferenceFlag("missing", commands=("multi", "report"), title="Missing ratings used"),
    InferenceFlag("null", type=float, metavar="VALUE",
                  commands=("kappa", "multi", "icc", "report"), header=False),
    InferenceFlag("alternative", header=False),
    InferenceFlag("ci_clip", action="store_false", spelling="--no-ci-clip",
                  title="Wald limits", switched="not clipped"),
    InferenceFlag("rater_population", type=_population, metavar="R",
                  commands=("multi", "report"), title="Rater population R"),
)


def _inference(args: argparse.Namespace) -> dict[str, Any]:
    """The options of :data:`INFERENCE_FLAGS` given on the command line, by keyword."""
    command = getattr(args, "command", None)  # a command's own flag of the name is its own
    return {f.name: getattr(args, f.name) for f in INFERENCE_FLAGS
            if getattr(args, f.name, None) is not None
            and (command is None or command in f.commands)}


def _check_inference(parser: argparse.ArgumentParser, args: argparse.Namespace) -> None:
    """A usage error (exit status 2) for inference options that cannot go together, e.g.
    --sampling raters with a bootstrap --ci: InferenceOptions checks them as the Python
    API does."""
    fields = {f.name for f in dataclasses.fields(InferenceOptions)}
    given = {k: v for k, v in _inference(args).items() if k in fields}
    if getattr(args, "ci", None) is not None:
        given["ci"] = args.ci
    try:
        InferenceOptions(**given)
    except (ValueError, TypeError) as exc:
        getattr(args, "command_parser", parser).error(cli_words(str(exc)))


def _inference_info(args: argparse.Namespace) -> list[tuple[str, str]]:
    """The header lines of the given inference flags (``Distribution: t``)."""
    flags = {f.name: f for f in INFERENCE_FLAGS}
    return [(f"{flags[name].label}:", (flags[name].switched or str(value)) if isinstance(value, bool)
             else f"{value:g}" if isinstance(value, float) else str(value))
            for name, value in _inference(args).items() if flags[name].header]


def _not_applicable(method: str, accepted: Any, args: argparse.Namespace) -> list[str]:
    """Notes for the given inference flags that `method` (its `accepted` parameters)
    does not take."""
    flags = {f.name: f.flag for f in INFERENCE_FLAGS}
    unused = [flags[name] for name in _inference(args) if name not in accepted]
    if not unused:
        return []
    if len(unused) == 1:
        return [f"{method}: {unused[0]} does not apply; not used."]
    return [f"{method}: {', '.join(unused[:-1])} and {unused[-1]} do not apply; not used."]


# -- parser ------------------------------------------------------------------------------
#: The flags of the inference keywords every command takes, from :data:`KEYWORDS`: keyword
#: -> (flag, type, metavar). `ci` is each command's own (its choices and help).
_KEYWORD_FLAGS = {
    "confidence_level": ("--confidence-level", float, "LEVEL"),
    "n_resamples": ("--n-resamples", _resamples, "B"),
    "rng": ("--seed", int, None),
}


def _keyword_flag(group: Any, name: str) -> None:
    """Add the flag of inference keyword `name` to `group`, with the table's default and
    help."""
    flag, type_, metavar = _KEYWORD_FLAGS[name]
    group.add_argument(flag, type=type_, default=KEYWORDS[name].default,
                       help=KEYWORDS[name].cli_help,
                       **({"metavar": metavar} if metavar else {}))


def _common(parser: argparse.ArgumentParser, *, raters: str = "+",
            measurements: bool = False) -> None:
    """The options every command has. `measurements`: a command of continuous
    measurements (no --categories; --ci only bootstrap intervals; its own --scale)."""
    source = parser.add_argument_group("input")
    source.add_argument("file", nargs="?",
                        help="CSV/TSV/Parquet file, one row per subject ('-' for stdin)")
    source.add_argument("--dataset", metavar="NAME", help="a bundled data set (irr datasets)")
    source.add_argument("--delimiter", metavar="CHAR",
                        help="field separator (default: tab for .tsv/.tab, else comma)")
    source.add_argument("--encoding", default="utf-8",
                        help="text encoding (default utf-8; a UTF-16/32 byte-order mark is "
                        "detected)")
    source.add_argument("--max-bytes", type=_size, default=None, metavar="SIZE",
                        help="load input up to this size, e.g. 500M or 2G (default: the "
                        f"{MAX_BYTES_ENV} environment variable, else 200M). Larger CSV, TSV "
                        "and Parquet files (and directories of Parquet files) are streamed "
                        "through DuckDB instead of loaded; larger input on stdin is refused")
    source.add_argument("--subject", metavar="COL", help="long format: the subject column")
    source.add_argument("--rater", metavar="COL", help="long format: the rater column")
    source.add_argument("--rating", metavar="COL", help="long format: the rating column")
    source.add_argument("--raters", nargs=raters, metavar="COL", help="the rater columns")
    source.add_argument("--id", action="append", metavar="COL",
                        help="an identifier column (subject, patient, site), never a rater; "
                        "repeat it or give a comma list")
    source.add_argument("--na-values", action="append", metavar="VALUE",
                        help="a value that marks a missing rating (e.g. '.' as in SAS), in "
                        "addition to pandas' defaults (empty, NA, NaN, ...); repeatable")
    if not measurements:
        source.add_argument("--categories", nargs="+", metavar="LABEL",
                            help="the full rating scale, in order (space-separated, or "
                            "one comma list)")
    stats = parser.add_argument_group("inference")
    _keyword_flag(stats, "confidence_level")
    if measurements:
        stats.add_argument("--ci", choices=BOOTSTRAP_CIS, default=None,
                           help="a bootstrap interval for the statistics that offer one "
                           "(CCC, TDI, CP, Deming); default: each statistic's own, as in "
                           "the Python API")
    else:
        command = parser.prog.split()[-1]
        help_ci = {  # the ICCs have F-based intervals only; kappa has no alpha
            "icc": "the ICCs' intervals are F-based (exact, or Satterthwaite's "
                   "approximation): a bootstrap --ci is noted and not used",
            "kappa": "interval method (bootstrap: percentile, basic, bca); default: each "
                     "coefficient's own (Wald; Wilson for percent agreement)",
        }.get(command, "interval method (bootstrap: percentile, basic, bca; wald also gives "
                       "Krippendorff's alpha its Wald interval); default: each coefficient's "
                       "own, as in the Python API")
        stats.add_argument("--ci", choices=CI_METHODS, default=None, help=help_ci)
    _keyword_flag(stats, "n_resamples")
    _keyword_flag(stats, "rng")
    for option in INFERENCE_FLAGS:
        if parser.prog.split()[-1] in option.commands:
            option.add_to(stats)
    parser.set_defaults(command_parser=parser)  # its usage errors after parsing
    if not measurements:
        stats.add_argument("--scale", metavar="NAME",
                           help="benchmark scale of the bands: " + ", ".join(SCALES)
                           + " (default: each coefficient's own)")
    out = parser.add_argument_group("output")
    out.add_argument("--format", choices=FORMATS, default="text",
                     help="text (default), markdown, html, latex, csv or json")
    out.add_argument("--output", "-o", metavar="FILE", help="write here instead of stdout")
    out.add_argument("--force", action="store_true", help="overwrite an existing --output")
    parser.add_argument("--debug", action="store_true", help="show tracebacks on errors")


_ICC_HELP = """\
The six ICC forms, by their names in the two notations papers use:

  form                                   Shrout & Fleiss   McGraw & Wong
  one-way random, single rater           ICC(1,1)          ICC(1)
  two-way, absolute agreement, single    ICC(2,1)          ICC(A,1)
  two-way, consistency, single           ICC(3,1)          ICC(C,1)
  one-way random, average of k raters    ICC(1,k)          ICC(k)
  two-way, absolute agreement, average   ICC(2,k)          ICC(A,k)
  two-way, consistency, average          ICC(3,k)          ICC(C,k)

--model oneway: each subject is rated by a different, random set of raters.
--model twoway: the same raters rate every subject. Shrout & Fleiss call ICC(2,.) two-way
  random and ICC(3,.) two-way mixed; random and fixed raters give the same estimates
  (McGraw & Wong), which name the two-way forms by --type instead.
--type agreement: a rater who scores everyone higher counts as disagreeing (absolute
  agreement). --type consistency: only the subjects' order and spacing count.
--unit single: the reliability of one rater's score. --unit average: of the mean of
  the k raters' scores (report it only when the mean is what you will use).

examples:
  irr icc --dataset anxiety                         all six forms
  irr icc scores.csv --id patient --model twoway --type agreement --unit single
                                                    ICC(2,1) = ICC(A,1) only
  irr icc scores.csv --unit average                 the three average-measure forms
"""


class _Unbuilt:
    """The stand-in for the parser of a subcommand that this run does not use: whatever
    builds a parser (``add_argument``, ``add_argument_group``, ``set_defaults``,
    ``add_subparsers``) does nothing and returns the stand-in, so a run builds the
    options of its own command only (argparse takes tens of milliseconds for them all)."""

    prog = "irr"

    def __getattr__(self, name: str) -> Any:
        return self._nothing

    def _nothing(self, *args: Any, **kwargs: Any) -> _Unbuilt:
        return self


def _subcommand(commands: Any, name: str, summary: str, description: str,
                examples: str) -> Any:
    """A subcommand whose help has a one-line summary, a description and examples (an
    :class:`_Unbuilt` stand-in when the parser is built for another command only)."""
    if isinstance(commands, _Unbuilt) or getattr(commands, "only", name) != name:
        return commands if isinstance(commands, _Unbuilt) else _Unbuilt()
    return commands.add_parser(
        name, help=summary, description=textwrap.fill(description, 88), epilog=examples,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )


def _command_of(argv: Sequence[str] | None) -> str | None:
    """The subcommand that `argv` (default ``sys.argv[1:]``) runs: its first word that is
    not an option (the top-level options take no value), if it names one; else None."""
    words = sys.argv[1:] if argv is None else argv
    first = next((word for word in words if not word.startswith("-")), None)
    return first if first in (*_COMMANDS, "app") else None


def _parser(only: str | None = None) -> argparse.ArgumentParser:
    """The ``irr`` parser; with `only`, the one subcommand `only` is built (the others
    are left out: a run of `only` never parses them)."""
    parser = argparse.ArgumentParser(
        prog="irr", description="Inter-rater reliability and agreement statistics.",
        epilog="Run 'irr COMMAND --help' for a command's options and examples, e.g. "
        "'irr icc --help' for which ICC form to choose.",
    )
    parser.add_argument("--version", action="version", version=_version())
    parser.add_argument("--debug", dest="debug_all", action="store_true",
                        help="show tracebacks on errors")
    commands = parser.add_subparsers(dest="command", required=True, metavar="COMMAND")
    if only is not None:
        commands.only = only  # read by _subcommand

    kappa = _subcommand(
        commands, "kappa", "Cohen's and weighted kappa of two raters",
        "Percent agreement and Cohen's, linear and quadratic kappa of two raters (default "
        "the first two rating columns), or one kappa with --weights. Weighted kappa needs "
        "ordered categories: numbers, or labels in order with --categories.",
        "examples:\n"
        "  irr kappa ratings.csv --id patient\n"
        "  irr kappa --dataset vision --weights quadratic\n"
        "  irr kappa ratings.csv --raters nurse_a nurse_b --categories none mild severe\n"
        "  irr kappa long.csv --subject patient --rater nurse --rating grade",
    )
    _common(kappa, raters=2)
    kappa.add_argument("--weights", type=_weights_argument, metavar="WEIGHTS",
                       help="report one kappa with these weights (default: all): "
                       f"{_WEIGHTS_HELP}")

    multi = _subcommand(
        commands, "multi", "multi-rater coefficients (Fleiss, Conger, Light, Gwet, ...)",
        "Percent agreement, Fleiss', Conger's and Light's kappa, Gwet's AC, "
        "Brennan-Prediger and Krippendorff's alpha of all rater columns. Missing ratings "
        "(empty cells) are allowed.",
        "examples:\n"
        "  irr multi ratings.csv --id patient\n"
        "  irr multi --dataset diagnoses --format markdown\n"
        "  irr multi grades.csv --categories A B C D --weights quadratic",
    )
    _common(multi)
    multi.add_argument("--weights", type=_weights_argument, metavar="WEIGHTS",
                       default="unweighted", help="weights of the chance-corrected "
                       f"coefficients: {_WEIGHTS_HELP}")

    icc = _subcommand(
        commands, "icc", "intraclass correlations (ICC(1,1) ... ICC(3,k))",
        "The intraclass correlations of numeric scores: all six forms, or those that "
        "--model, --type and --unit choose. Subjects with a missing score are left out "
        "(listwise).", _ICC_HELP,
    )
    _common(icc)
    icc.add_argument("--model", choices=["oneway", "twoway"],
                     help="oneway: ICC(1,.); twoway: ICC(2,.) or ICC(3,.) by --type")
    icc.add_argument("--type", choices=["agreement", "consistency"],
                     help="agreement: ICC(2,.) = ICC(A,.); consistency: ICC(3,.) = "
                     "ICC(C,.) (two-way only)")
    icc.add_argument("--unit", choices=["single", "average"],
                     help="single: ICC(.,1), one rater's score; average: ICC(.,k), the mean "
                     "of the k raters")

    error = _subcommand(
        commands, "error-rate", "is the disagreement (error) rate below a bound?",
        "Binomial test of the rate at which the second rater disagrees with the first "
        "(the reference), against the bound EPSILON0: with --alternative less, a "
        "significant result shows the rate is below it.",
        "examples:\n"
        "  irr error-rate --dataset vision --epsilon0 0.35 --alternative less\n"
        "  irr error-rate scores.csv --raters reference trainee --epsilon0 0.1 "
        "--tolerance 1",
    )
    _common(error, raters=2)
    error.add_argument("--epsilon0", type=float, required=True, help="the bound to beat")
    error.add_argument("--alpha", type=float, default=0.05, help="significance level")
    error.add_argument("--alternative", choices=["greater", "less", "two-sided"],
                       help="H1 of the test (default greater: the rate exceeds EPSILON0; "
                       "'less' shows that it is below)")
    error.add_argument("--tolerance", type=float, default=0,
                       help="ratings this far apart (in scores) are not errors")

    report = _subcommand(
        commands, "report", "a reliability report: chosen coefficients, sentences, methods",
        "A reliability report: the coefficients recommended for the data (or those named by "
        "--statistics) in one table, one APA-style sentence per coefficient, a methods "
        "paragraph with references and, with --format html, one self-contained page with "
        "figures and the GRRAS reporting checklist.",
        "examples:\n"
        "  irr report ratings.csv --id patient\n"
        "  irr report ratings.csv --statistics fleiss,alpha,icc --format html -o report.html\n"
        "  irr report --dataset diagnoses --statistics fleiss,gwet,alpha --format markdown",
    )
    _common(report)
    report.add_argument(
        "--statistics", metavar="NAMES", default=None,
        help="comma-separated statistics to report, e.g. fleiss,alpha,icc; 'all' for every "
        "one that applies. Names: " + ", ".join(STATISTICS) + "; alpha (at the level "
        "that suits the data) and icc (ICC(A,1)). Default: a recommended set for the data "
        "(nominal, ordinal or continuous; two raters or more)")
    report.add_argument("--replicate", metavar="COL",
                        help="long format: the column numbering a subject's repeated "
                        "readings by one rater or method (the measurements are then "
                        "continuous)")
    report.add_argument("--replicates", choices=["constant", "varying"],
                        help="with --replicate, for the limits of agreement: the true value "
                        "is constant between a subject's readings, or varies (the methods' "
                        "readings made in pairs; Bland & Altman 2007)")
    report.add_argument("--by", action="append", metavar="COL",
                        help="also report each statistic per group of this column (wide "
                        "data; repeat for several columns)")
    report.add_argument("--no-figures", action="store_true",
                        help="leave the figures out of --format html (no matplotlib needed)")
    report.add_argument("--style", choices=["apa", "plain"], default="apa",
                        help="apa (default): APA-style symbols and numbers; plain: the "
                        "coefficients' names, leading zeros, three decimals")

    _agreement_parser(commands)
    _gstudy_parser(commands)
    planning = _subcommand(
        commands, "plan", "sample size and power of a planned study",
        "How many subjects (or test cases) a reliability study needs, or the power of a "
        "given number: for a test of kappa, an interval for kappa, a test of the ICC, an "
        "interval for the ICC, agreement within limits (Bland-Altman), a test of the CCC, "
        "or the exact binomial test of an error rate. Every number "
        "flag takes several values: the output has one row per combination.",
        "examples:\n"
        "  irr plan kappa --kappa0 0.4 --kappa1 0.6 --raters 3 --categories 4 --power 0.8\n"
        "  irr plan kappa --kappa0 0.4 --kappa1 0.6 --prevalence 0.1 0.2 0.3 --raters 2 3\n"
        "  irr plan kappa-interval --kappa 0.6 --lower 0.4 --upper 0.8 --prevalence 0.3\n"
        "  irr plan icc --rho0 0.5 --rho1 0.75 --raters 3 --alternative greater\n"
        "  irr plan icc-interval --rho 0.85 --width 0.2 --raters 4\n"
        "  irr plan limits --bias 0.5 --sd 2.5 --delta 8\n"
        "  irr plan ccc --ccc0 0.8 --ccc1 0.9\n"
        "  irr plan error-rate --epsilon0 0.10 --epsilon1 0.05 --power 0.8 0.9",
    )
    targets = planning.add_subparsers(dest="plan_target", required=True, metavar="TARGET")

    def plan_parser(name: str, summary: str, description: str, examples: str
                    ) -> argparse.ArgumentParser:
        sub = _subcommand(targets, name, summary, description, "examples:\n" + examples)
        out = sub.add_argument_group("output")
        out.add_argument("--format", choices=FORMATS, default="text",
                         help="text (default), markdown, html, latex, csv or json")
        out.add_argument("--output", "-o", metavar="FILE", help="write here instead of stdout")
        out.add_argument("--force", action="store_true", help="overwrite an existing --output")
        sub.add_argument("--debug", action="store_true", help="show tracebacks on errors")
        sub.set_defaults(flags=PLAN_FLAGS)  # messages name `method`: --method here
        return sub

    def numbers(sub: argparse.ArgumentParser, flag: str, kind: Any, text: str,
                **kw: Any) -> None:
        sub.add_argument(flag, type=kind, nargs="+", metavar="X", help=text, **kw)

    def test_options(sub: argparse.ArgumentParser, two_sided: bool = True) -> None:
        """--power, --n, --alpha and (`two_sided`: default two-sided) --alternative."""
        numbers(sub, "--power", float, "target power (default 0.8); several give several rows")
        numbers(sub, "--n", int, "subjects: the power at this n instead of the sample size")
        numbers(sub, "--alpha", float, "significance level (default 0.05)", default=[0.05])
        if two_sided:
            sub.add_argument("--alternative", choices=["two-sided", "greater", "less"],
                             default="two-sided", help="the test (default two-sided)")

    pk = plan_parser(
        "kappa", "subjects for a test of kappa (Donner & Eliasziw; Rotondi & Donner; Cantor; "
        "Flack et al.)",
        "Subjects needed for a test of kappa = KAPPA0 to detect KAPPA1 (or the power at "
        "--n): the goodness-of-fit method for 2-10 raters and 2-10 categories (default), "
        "Cantor's z test or the Wald interval for two raters and a binary rating, Flack et "
        "al.'s z test (largest variance) for two raters and 2 or more categories.",
        "  irr plan kappa --kappa0 0.4 --kappa1 0.6 --raters 3 --categories 4 --power 0.8\n"
        "  irr plan kappa --kappa0 0.4 --kappa1 0.7 --prevalence 0.2 --method cantor\n"
        "  irr plan kappa --kappa0 0.4 --kappa1 0.6 --proportions 0.2 0.3 0.5 --n 60 80\n"
        "  irr plan kappa --kappa0 0.4 --kappa1 0.6 --proportions 0.2 0.25 0.55 "
        "--method flack --alternative greater")
    numbers(pk, "--kappa0", float, "kappa under the null hypothesis", required=True)
    numbers(pk, "--kappa1", float, "the kappa to detect", required=True)
    numbers(pk, "--raters", int, "raters per subject (default 2)", default=[2])
    numbers(pk, "--categories", int, "number of equally likely categories (default 2)")
    numbers(pk, "--prevalence", float, "binary rating: proportion of positive subjects")
    numbers(pk, "--proportions", float, "the proportion of subjects in each category "
            "(one vector, summing to 1)")
    test_options(pk)
    pk.add_argument("--method", choices=["goodness-of-fit", "cantor", "wald", "flack"],
                    default="goodness-of-fit", help="default goodness-of-fit")
    pk.add_argument("--rates", type=float, nargs=2, metavar=("R1", "R2"),
                    help="cantor/wald: each rater's positive rate")

    pki = plan_parser(
        "kappa-interval", "subjects for a confidence interval for kappa (Rotondi & Donner)",
        "Subjects needed so that the expected confidence interval for an anticipated "
        "kappa reaches down to --lower (and up to --upper).",
        "  irr plan kappa-interval --kappa 0.6 --lower 0.4 --upper 0.8 --prevalence 0.3\n"
        "  irr plan kappa-interval --kappa 0.7 --lower 0.5 --raters 3 --categories 3")
    numbers(pki, "--kappa", float, "the anticipated kappa", required=True)
    numbers(pki, "--lower", float, "the lower limit to reach", required=True)
    numbers(pki, "--upper", float, "the upper limit (two-sided; default one-sided)")
    numbers(pki, "--raters", int, "raters per subject (default 2)", default=[2])
    numbers(pki, "--categories", int, "number of equally likely categories (default 2)")
    numbers(pki, "--prevalence", float, "binary rating: proportion of positive subjects")
    numbers(pki, "--proportions", float, "the proportion of subjects in each category")
    numbers(pki, "--confidence-level", float, "default 0.95", default=[0.95])

    pi = plan_parser(
        "icc", "subjects for a test of the ICC (Walter, Eliasziw & Donner)",
        "Subjects needed for a test of ICC(1) = RHO0 to detect RHO1 with --raters ratings "
        "per subject (or the power at --n).",
        "  irr plan icc --rho0 0.5 --rho1 0.75 --raters 3 --alternative greater\n"
        "  irr plan icc --rho0 0.6 --rho1 0.8 --raters 2 3 4 --method exact")
    numbers(pi, "--rho0", float, "the ICC under the null hypothesis", required=True)
    numbers(pi, "--rho1", float, "the ICC to detect", required=True)
    numbers(pi, "--raters", int, "ratings per subject (default 2)", default=[2])
    test_options(pi)
    pi.add_argument("--method", choices=["walter", "exact"], default="walter",
                    help="walter (default): the closed form; exact: the F test's power")

    pii = plan_parser(
        "icc-interval", "subjects for a confidence interval for the ICC (Bonett)",
        "Subjects needed for a confidence interval for the ICC no wider than --width.",
        "  irr plan icc-interval --rho 0.85 --width 0.2 --raters 4")
    numbers(pii, "--rho", float, "the anticipated ICC", required=True)
    numbers(pii, "--width", float, "the full width of the interval", required=True)
    numbers(pii, "--raters", int, "ratings per subject (default 2)", default=[2])
    numbers(pii, "--confidence-level", float, "default 0.95", default=[0.95])

    pl = plan_parser(
        "limits", "subjects to show two methods agree within a limit (Bland-Altman)",
        "Subjects needed so that both confidence limits of the limits of agreement fall "
        "within -DELTA .. DELTA, for differences of mean BIAS and SD SD (or the power at "
        "--n).",
        "  irr plan limits --bias 0.5 --sd 2.5 --delta 8 --power 0.8\n"
        "  irr plan limits --bias 0.5 --sd 2.5 --delta 7 8 --ci-method approximate")
    numbers(pl, "--bias", float, "the anticipated mean difference", required=True)
    numbers(pl, "--sd", float, "the anticipated SD of the differences", required=True)
    numbers(pl, "--delta", float, "the largest acceptable difference", required=True)
    numbers(pl, "--power", float, "target power (default 0.8); several give several rows")
    numbers(pl, "--n", int, "subjects: the power at this n instead of the sample size")
    numbers(pl, "--coverage", float, "share of differences the limits hold (default 0.95)",
            default=[0.95])
    numbers(pl, "--confidence-level", float, "default 0.95", default=[0.95])
    pl.add_argument("--ci-method", choices=["exact", "approximate"], default="exact",
                    help="the limits' intervals: exact (default) or Bland & Altman's")

    pc = plan_parser(
        "ccc", "subjects for a test of Lin's concordance correlation (Lin 1992)",
        "Subjects needed for a test of CCC = CCC0 to detect CCC1 (or the power at --n), on "
        "Fisher's z, as the interval of 'irr report' for measurements.",
        "  irr plan ccc --ccc0 0.8 --ccc1 0.9 --power 0.8\n"
        "  irr plan ccc --ccc0 0.8 --ccc1 0.9 --shift 0 0.2 0.3")
    numbers(pc, "--ccc0", float, "the CCC under the null hypothesis", required=True)
    numbers(pc, "--ccc1", float, "the CCC to detect", required=True)
    numbers(pc, "--shift", float, "location shift in SD units (default 0)", default=[0.0])
    test_options(pc)

    pe = plan_parser(
        "error-rate", "test cases for the binomial error-rate test (exact)",
        "Test cases needed for the exact binomial test to declare the error rate below "
        "EPSILON0 when it is EPSILON1 (or the power at --n). The power of an exact test "
        "is a sawtooth in n: n_stable is where it stays above the target.",
        "  irr plan error-rate --epsilon0 0.10 --epsilon1 0.05 --power 0.8\n"
        "  irr plan error-rate --epsilon0 0.10 --epsilon1 0.03 0.05 --n 100 200")
    numbers(pe, "--epsilon0", float, "the bound to beat", required=True)
    numbers(pe, "--epsilon1", float, "the true error rate", required=True)
    test_options(pe, two_sided=False)
    pe.add_argument("--alternative", choices=["less", "greater", "two-sided"],
                    help="default: less when EPSILON1 < EPSILON0, else greater")
    pe.add_argument("--max-n", type=int, metavar="N", help="search bound for n_stable")

    data = _subcommand(
        commands, "datasets", "list or describe the bundled data sets",
        "The data sets bundled with irr (use one with --dataset NAME in any command).",
        "examples:\n"
        "  irr datasets\n"
        "  irr datasets anxiety\n"
        "  irr icc --dataset anxiety",
    )
    data.add_argument("name", nargs="?", help="describe this data set")
    data.add_argument("--format", choices=FORMATS, default="text",
                      help="text (default), markdown, html, latex, csv or json")
    data.add_argument("--output", "-o", metavar="FILE", help="write here instead of stdout")
    data.add_argument("--force", action="store_true", help="overwrite an existing --output")
    data.add_argument("--debug", action="store_true", help="show tracebacks on errors")

    app = _subcommand(
        commands, "app", "the report in the browser: a local page, no code needed",
        "Start a local web page (on this machine only, with a random token in its address) "
        "to upload a ratings file or pick a data set, check what was detected, choose the "
        "statistics, read and download the report, and plan a study. Its address is the "
        "first line of the output. Needs the app extra: pip install \"irrstats[app]\".",
        "examples:\n  irr app\n  irr app --dataset anxiety --port 8765 --no-browser",
    )
    app.add_argument("--port", type=int, default=None, help="port (default: a free one)")
    app.add_argument("--no-browser", action="store_true", help="do not open a browser")
    app.add_argument("--dataset", metavar="NAME", help="open with this bundled data set")
    app.add_argument("--max-upload", type=_size, default=DEFAULT_MAX_BYTES, metavar="SIZE",
                     help="refuse uploads larger than this, e.g. 50M (default 200M)")
    app.add_argument("--debug", action="store_true", help="show tracebacks on errors")
    return parser


_AGREEMENT_HELP = """\
Two methods (--raters A B: two rating columns, or with long data two labels of the
--rater column; default the first two): the bias (mean difference A - B) and the limits
of agreement with their confidence intervals (Bland & Altman), Lin's concordance
correlation coefficient (CCC) and the standard error of measurement (SEM). All raters
(--all-raters, or three or more --raters): the overall CCC, the ICC by variance
components and the SEM.

--statistics names any of:
  loa             bias and limits of agreement (--coverage, --loa-method, --scale,
                  --replicates, --units)
  ccc             Lin's CCC (two methods) or the overall CCC (all raters)
  tdi             total deviation index (--tdi-proportion)
  cp              coverage probability (needs --delta)
  deming          Deming regression of B on A (error ratio from replicates, else 1)
  passing_bablok  Passing-Bablok regression of B on A
  icc_vc          ICC(A,1) by variance components (missing readings, replicates)
  sem             standard error of measurement and smallest detectable change (--units)
or 'all' (every one that applies; cp with --delta).

Replicates (a method measured a subject more than once) need long data, one row per
reading: --subject, --rater, --rating and --replicate (the column numbering the
readings); the limits of agreement then need --replicates constant (the true value does
not change between a subject's readings) or varying (it does, and the methods' readings
were made in pairs). Subjects one method did not measure are left out of the
two-method statistics and said so.

examples:
  irr agreement --dataset pef --raters wright_1 mini_1 --units l/min
  irr agreement readings.csv --id patient --raters device_a device_b --plot ba.png
  irr agreement readings.csv --statistics loa,ccc,tdi,deming --loa-method regression
  irr agreement long.csv --subject patient --rater device --rating value \\
      --replicate reading --replicates constant --format markdown
  irr agreement readings.csv --all-raters --statistics ccc,icc_vc
"""


def _proportion(text: str) -> float:
    """--coverage, --tdi-proportion: a proportion strictly between 0 and 1."""
    try:
        value = float(text)
    except ValueError:
        value = math.nan
    if not 0 < value < 1:
        raise argparse.ArgumentTypeError(
            f"must be a proportion between 0 and 1 (e.g. 0.95, not 95); got {text!r}")
    return value


def _positive(text: str) -> float:
    """--delta: a positive finite number."""
    try:
        value = float(text)
    except ValueError:
        value = math.nan
    if not (math.isfinite(value) and value > 0):
        raise argparse.ArgumentTypeError(f"must be a positive number; got {text!r}")
    return value


def _agreement_parser(commands: Any) -> None:
    command = _subcommand(
        commands, "agreement", "agreement of continuous measurements (method comparison)",
        "Agreement of two methods (devices, raters, assays) that measure the same "
        "quantity on a continuous scale: Bland-Altman limits of agreement, concordance, "
        "total deviation index, coverage probability, Deming and Passing-Bablok "
        "regression, ICC and measurement error, with confidence intervals.",
        _AGREEMENT_HELP,
    )
    _common(command, measurements=True)
    command.add_argument("--all-raters", action="store_true",
                         help="every rating column (or rater of long data), for the overall "
                         "CCC, ICC and SEM; two-method statistics need --raters A B")
    command.add_argument("--replicate", metavar="COL",
                         help="long format: the column numbering a subject's repeated "
                         "readings by one method")
    command.add_argument(
        "--statistics", metavar="NAMES", default=None,
        help=f"comma-separated, from {', '.join(AGREEMENT_STATISTICS)} (or 'all'); default "
        f"{','.join(METHOD_COMPARISON[True])} for two methods and "
        f"{','.join(METHOD_COMPARISON[False])} for all raters")
    loa = command.add_argument_group("limits of agreement")
    loa.add_argument("--coverage", type=_proportion, default=0.95, metavar="P",
                     help="share of differences the limits should hold (default 0.95: bias "
                     "+/- 1.96 SD)")
    loa.add_argument("--loa-method", choices=["parametric", "regression", "nonparametric"],
                     default="parametric",
                     help="parametric (default): bias +/- z SD; regression: bias and SD "
                     "modelled on the mean (Bland & Altman 1999); nonparametric: the "
                     "empirical quantiles of the differences")
    loa.add_argument("--scale", choices=["difference", "percent", "ratio"],
                     default="difference", dest="loa_scale",
                     help="difference (default): A - B; percent: 100 (A - B) / mean; ratio: "
                     "A / B (on logs, back-transformed)")
    loa.add_argument("--replicates", choices=["constant", "varying"],
                     help="with replicates: the true value is constant between a subject's "
                     "readings, or varies (readings made in pairs)")
    loa.add_argument("--units", default="", metavar="TEXT",
                     help="the measurement's units for the tables and sentences, e.g. l/min")
    other = command.add_argument_group("other statistics")
    other.add_argument("--tdi-proportion", type=_proportion, default=0.9, metavar="P",
                       help="the share of absolute differences the TDI bounds (default 0.9)")
    other.add_argument("--delta", type=_positive, metavar="D",
                       help="the largest acceptable difference, for the coverage "
                       "probability (cp)")
    figure = command.add_argument_group("figure")
    figure.add_argument("--plot", metavar="FILE",
                        help="also write the Bland-Altman plot to FILE (.png, .svg or .pdf; "
                        "needs matplotlib); an existing file only with --force")
    figure.add_argument("--no-figures", action="store_true",
                        help="leave the figures out of --format html (no matplotlib needed)")
    command.set_defaults(flags=AGREEMENT_FLAGS)


def _version() -> str:
    return f"irr {__version__}"


# -- input -------------------------------------------------------------------------------
_BOMS = ((codecs.BOM_UTF32_LE, "utf-32"), (codecs.BOM_UTF32_BE, "utf-32"),
         (codecs.BOM_UTF16_LE, "utf-16"), (codecs.BOM_UTF16_BE, "utf-16"))


def _decode(raw: bytes, encoding: str, where: str) -> tuple[str, bool]:
    """The text of `raw`: a UTF-16/32 byte-order mark picks its codec (Excel's "Unicode
    text"), else `encoding`; NUL characters in the decoded text mean binary data. And
    whether `raw` is the text's UTF-8 encoding (UTF-8 without a byte-order mark)."""
    name = encoding.lower().replace("_", "-")
    bom = next((codec for mark, codec in _BOMS if raw.startswith(mark)), None)
    if bom is not None and name in ("utf-8", "utf8"):
        encoding = name = bom
    # decoded as UTF-8 from a start other than a byte-order mark: the text starts with
    # no U+FEFF to remove, so its UTF-8 encoding is `raw`
    utf8 = name in ("utf-8", "utf8") and not raw.startswith(codecs.BOM_UTF8)
    try:
        text = raw.decode("utf-8-sig" if name in ("utf-8", "utf8") else encoding)
    except UnicodeDecodeError as exc:
        if b"\x00" in raw[:65536] and not name.startswith(("utf-16", "utf-32")):
            raise _binary(raw, where) from None
        raise CommandError(
            f"cannot read {where}: not valid {encoding} text (byte {exc.start}); "
            "pass --encoding"
        ) from None
    except LookupError:
        raise CommandError(f"unknown --encoding {encoding!r}") from None
    if "\x00" in text[:65536]:
        raise _binary(raw, where)
    return text.removeprefix("\ufeff"), utf8


def _binary(raw: bytes, where: str) -> CommandError:
    sample = raw[:4096]  # UTF-16 text of ASCII characters: every other byte is NUL
    wide = max(sample[0::2].count(0), sample[1::2].count(0)) > len(sample) // 4
    return CommandError(f"cannot read {where}: binary data, not a CSV/TSV text file"
                        + (" (for UTF-16 text pass --encoding utf-16)" if wide else ""))


def _read_limited(read: Any, limit: int, where: str, first: int = _READ_CHUNK) -> bytes:
    """Everything `read(n)` gives until it returns no bytes, refused beyond `limit`; the
    first read asks for `first` bytes, the others for :data:`_READ_CHUNK`."""
    chunks, total, size = [], 0, first
    while True:
        chunk = read(min(size, limit + 1 - total))
        if not chunk:
            return b"".join(chunks)  # (one chunk: that chunk itself, not a copy)
        total += len(chunk)
        if total > limit:
            raise _too_large(where, limit)
        chunks.append(chunk)
        size = _READ_CHUNK


def _read_file(path: str, limit: int, where: str) -> bytes:
    """The bytes of a regular file or a pipe, within `limit`. Devices are refused; a FIFO
    is opened without blocking, so one with no writer reads as empty instead of hanging."""
    try:
        handle = os.open(path, os.O_RDONLY | getattr(os, "O_NONBLOCK", 0))
    except FileNotFoundError:
        raise CommandError(f"cannot read {where}: no such file") from None
    except IsADirectoryError:
        raise CommandError(f"cannot read {where}: it is a directory") from None
    except OSError as exc:
        raise CommandError(f"cannot read {where}: {exc.strerror or exc}") from None
    try:
        info = os.fstat(handle)
        if not (stat.S_ISREG(info.st_mode) or stat.S_ISFIFO(info.st_mode)):
            kind = file_kind(info.st_mode)
            raise CommandError(f"cannot read {where}: it is a {kind}, not a file" + (
                "" if kind == "directory" else "; pipe it to '-' (stdin) instead"))
        if stat.S_ISREG(info.st_mode) and info.st_size > limit:
            raise _too_large(where, limit)
        if stat.S_ISFIFO(info.st_mode):
            os.set_blocking(handle, True)  # a writer is there, or reads end at once
        # a regular file in one read as a rule (one buffer of its size, nothing joined)
        first = info.st_size + 1 if stat.S_ISREG(info.st_mode) else _READ_CHUNK
        raw = _read_limited(lambda n: os.read(handle, n), limit, where, first)
        if not raw and stat.S_ISFIFO(info.st_mode):
            raise CommandError(f"cannot read {where}: a named pipe with no data (no writer)")
        return raw
    except OSError as exc:
        raise CommandError(f"cannot read {where}: {exc.strerror or exc}") from None
    finally:
        os.close(handle)


def _read_parquet(path: str, limit: int, where: str) -> Any:
    """A Parquet file, refused before materialising when the file or the table its
    metadata describe (rows x columns at 8 bytes, or its uncompressed size) exceed `limit`."""
    import pyarrow.parquet as pq

    try:
        info = os.stat(path)
    except FileNotFoundError:
        raise CommandError(f"cannot read {where}: no such file") from None
    if not stat.S_ISREG(info.st_mode):
        raise CommandError(f"cannot read {where}: it is a {file_kind(info.st_mode)}, not a file")
    if info.st_size > limit:
        raise _too_large(where, limit)
    try:
        meta = pq.read_metadata(path)
        unpacked = sum(meta.row_group(i).total_byte_size for i in range(meta.num_row_groups))
        needed = max(unpacked, 8 * meta.num_rows * meta.num_columns)
        if needed > limit:
            raise CommandError(
                f"cannot read {where}: its {meta.num_rows} rows x {meta.num_columns} columns "
                f"take about {needed} bytes, more than the input limit of {limit}; raise it "
                f"with --max-bytes or ${MAX_BYTES_ENV}"
            )
        return pd.read_parquet(path)
    except CommandError:
        raise
    except Exception as exc:  # pyarrow raises its own error types
        raise CommandError(f"cannot read {where} as Parquet: {_first_line(exc)}") from None


def _parquet_size(path: str, limit: int) -> int:
    """The bytes a Parquet file takes in memory, from its metadata (0 if unreadable: the
    reader then says why; a lower bound when that exceeds `limit`): from its footer
    (:func:`irr._parquet.parquet_shape`, which spares a streamed file pyarrow's import),
    or by pyarrow when that cannot read it."""
    first = parquet_shape(path, row_groups=False)  # rows and columns: the footer's head
    if first is not None and 8 * first.num_rows * first.num_columns > limit:
        return 8 * first.num_rows * first.num_columns  # beyond `limit`, whatever the rest
    shape = parquet_shape(path) if first is not None else None
    if shape is not None and shape.total_byte_size is not None:
        return max(shape.total_byte_size, 8 * shape.num_rows * shape.num_columns)
    try:
        import pyarrow.parquet as pq

        meta = pq.read_metadata(path)
    except Exception:  # a missing pyarrow or a broken file: the eager reader explains
        return 0
    unpacked = sum(meta.row_group(i).total_byte_size for i in range(meta.num_row_groups))
    return max(unpacked, 8 * meta.num_rows * meta.num_columns)


def _require(package: str) -> None:
    """An ImportError when `package` is not installed, found without importing it (narwhals
    reads long data and measurements of a relation; DuckDB counts categories itself)."""
    if importlib.util.find_spec(package) is None:
        raise ImportError(package)


def _scan_parquet(pattern: str, where: str, args: argparse.Namespace) -> Any:
    """Parquet data larger than memory (a big file, a directory of files) as a lazy DuckDB
    relation: the engine streams the files and counts the rating patterns. Its connection
    is kept in ``args.engine`` (for the progress bar)."""
    try:
        import duckdb

        _require("narwhals")  # reads the relation (found, not imported: DuckDB counts)
    except ImportError:
        raise CommandError(
            f"cannot read {where}: Parquet data larger than memory are streamed by DuckDB "
            "(pip install duckdb 'irrstats[frames]'), or raise the limit with --max-bytes"
        ) from None
    try:
        args.engine = duckdb.connect()
        return args.engine.read_parquet(pattern)
    except Exception as exc:  # DuckDB raises its own error types
        raise CommandError(f"cannot read {where} as Parquet: {_first_line(exc)}") from None


def _scan_csv(path: str, default_sep: str, where: str, args: argparse.Namespace) -> Any:
    """A CSV/TSV file larger than the input limit as a lazy DuckDB relation (streamed, in
    bounded memory); `--delimiter` and `--na-values` apply, the text must be UTF-8."""
    if args.encoding.replace("-", "").lower() not in ("utf8", "utf8sig"):
        raise CommandError(f"cannot stream {where}: files above the input limit are read as "
                           "UTF-8; convert it, or raise the limit with --max-bytes")
    sep = args.delimiter or default_sep
    sep = "\t" if sep in ("\\t", "tab") else sep
    if len(sep) != 1:
        raise CommandError(f"--delimiter must be one character; got {sep!r}")
    try:
        import duckdb

        _require("narwhals")  # reads the relation (found, not imported: DuckDB counts)
    except ImportError:
        raise CommandError(
            f"cannot read {where}: files larger than the input limit are streamed by DuckDB "
            "(pip install duckdb 'irrstats[frames]'), or raise the limit with --max-bytes"
        ) from None
    try:
        args.engine = duckdb.connect()
        return args.engine.read_csv(path, sep=sep, header=True,
                                    na_values=list(args.na_values or ()) or None)
    except Exception as exc:  # DuckDB raises its own error types
        raise CommandError(f"cannot read {where} as CSV: {_first_line(exc)}") from None


def _with_progress(compute: Any, connection: Any) -> Any:
    """`compute()`, a query on a DuckDB `connection`, with a progress bar on stderr when it
    is a terminal and tqdm is installed (DuckDB's own bar would write to stdout)."""
    if not sys.stderr.isatty():
        return compute()
    try:
        from tqdm import tqdm
    except ImportError:
        return compute()
    outcome: dict[str, Any] = {}

    def work() -> None:
        try:
            outcome["value"] = compute()
        except BaseException as exc:  # handed to the calling thread
            outcome["error"] = exc

    thread = threading.Thread(target=work, daemon=True)
    thread.start()
    with tqdm(total=100, desc="Counting rating patterns", unit="%", file=sys.stderr,
              leave=False, bar_format="{desc}: {percentage:3.0f}%|{bar}| {elapsed}") as bar:
        while thread.is_alive():
            thread.join(0.2)
            done = connection.query_progress()  # percent, -1 before the query starts
            if done > bar.n:
                bar.update(min(done, 100) - bar.n)
    if "error" in outcome:
        raise outcome["error"]
    return outcome["value"]


def _skip_leading(text: str, sep: str) -> tuple[str, int]:
    """`text` without its leading lines that hold only delimiters and blanks (pandas would
    take the first of them as the header), and how many there were."""
    start = skipped = counted = 0
    while True:  # only the leading lines are looked at, not the whole text
        end = text.find("\n", start)
        if end < 0 or text[start:end].replace(sep, "").strip():
            break
        counted += bool(text[start:end].strip())
        skipped += 1
        start = end + 1
    return (text[start:] if skipped else text), counted


#: Whether each code point below it is blank for ``str.strip`` (``str.isspace``); no code
#: point at or above it is.
_SPACE_LIMIT = 0x3001
_SPACE: list[np.ndarray] = []


def _is_space(points: np.ndarray) -> np.ndarray:
    """Whether each code point of the uint8 or uint32 array `points` is white space."""
    if not _SPACE:
        _SPACE.append(np.array([chr(i).isspace() for i in range(_SPACE_LIMIT)]))
    if points.dtype == np.uint8:
        return _SPACE[0][points]
    return _SPACE[0][np.minimum(points, np.uint32(_SPACE_LIMIT - 1))]


def _check_rows(text: str, sep: str, where: str) -> None:
    """Refuse empty files, header-only files and ragged rows (pandas would pad them).

    Text without quotes (and whose carriage returns all end a line) is checked with
    vectorised counts over its characters: a line's fields are its delimiters plus one,
    and a line is blank when every character is a delimiter or white space. Any other
    text is read by :mod:`csv`, which knows quoting (:func:`_check_rows_csv`). Both give
    the same verdicts and messages.
    """
    if '"' in text or sep == '"' or ("\r" in text and text.count("\r") != text.count("\r\n")):
        _check_rows_csv(text, sep, where)
        return
    if text.isascii() and sep.isascii():
        chars = np.frombuffer(text.encode("ascii"), dtype=np.uint8)
    else:
        chars = np.frombuffer(text.encode("utf-32-le"), dtype=np.uint32)
    newline = np.flatnonzero(chars == 10)
    starts = np.append(0, newline + 1)  # each line's first character
    ends = np.append(newline, len(chars))  # and the end (exclusive) of its text
    lengths = ends - starts
    if lengths.max() > csv.field_size_limit():  # csv would refuse a field this long
        _check_rows_csv(text, sep, where)
        return
    # per line: its delimiters (differences of a running count) and its other blanks
    # (counted where they are, when there are any besides the newlines)
    is_sep = chars == ord(sep)
    running = np.zeros(len(chars) + 1, dtype=np.int32 if len(chars) < 2**31 else np.int64)
    np.cumsum(is_sep, out=running[1:])
    seps = running[ends] - running[starts]
    full = lengths - seps
    if np.count_nonzero(chars <= 32) > len(newline) or chars.dtype != np.uint8:
        # blanks other than newlines (every ASCII blank is at most 32)
        blank = _is_space(chars)
        blank[newline] = False
        if sep.isspace():  # a delimiter that is white space (a tab) is counted once
            blank[is_sep] = False
        full -= np.bincount(np.searchsorted(newline, np.flatnonzero(blank)),
                            minlength=len(starts))
    filled = full > 0
    if not filled.any():
        raise CommandError(f"cannot read {where}: the file is empty")
    header = int(np.argmax(filled))
    width = int(seps[header]) + 1
    filled[header] = False
    if not filled.any():
        raise CommandError(f"cannot read {where}: a header but no data rows")
    ragged = filled & (seps != width - 1)
    if ragged.any():
        line = int(np.argmax(ragged))
        raise CommandError(
            f"cannot read {where}: line {line + 1} has {int(seps[line]) + 1} fields, "
            f"the header has {width}"
        )


def _whole_rows(frame: pd.DataFrame, text: str) -> bool:
    """Whether pandas' frame of a CSV text shows that :func:`_check_rows` would pass it: at
    least two columns and one row, the default index, and in the last column no missing
    value and no text of blanks only. pandas refuses a row with more fields than the
    header (or, when the first row has one more, takes its first column as the index)
    and pads a shorter row with missing values up to the last column; a row whose last
    field holds more than blanks is not blank. So every row of such a frame is a line of
    the header's fields, and the check (a pass over every character) is needed only when
    the last column has a missing value or a blank text. Text with carriage returns
    that end no line (which pandas reads as line ends) or a line longer than the csv
    module's field limit goes to the check too, which refuses it as before."""
    if "\r" in text and text.count("\r") != text.count("\r\n"):
        return False
    # a line longer than the limit holds a whole block of limit // 2 characters (blocks
    # from the start): a block without a newline sends the text to the check
    block = max(csv.field_size_limit() // 2, 1)
    for start in range(0, len(text) - block + 1, block):
        if text.find("\n", start, start + block) < 0:
            return False
    index = frame.index
    if not (frame.shape[1] >= 2 and len(frame) > 0 and isinstance(index, pd.RangeIndex)
            and index.start == 0 and index.step == 1):
        return False
    last = frame.iloc[:, -1]
    if may_hold_missing(last.dtype) and last.isna().any():
        return False
    if pd.api.types.is_numeric_dtype(last.dtype) or pd.api.types.is_bool_dtype(last.dtype):
        return True
    return not last.astype(str).str.isspace().any()


def _check_rows_csv(text: str, sep: str, where: str) -> None:
    """:func:`_check_rows` by :mod:`csv` (quoted fields may hold delimiters and newlines)."""
    try:
        rows = csv.reader(io.StringIO(text), delimiter=sep)
        header = next(rows, None)
        while header is not None and not any(field.strip() for field in header):
            header = next(rows, None)
        if header is None:
            raise CommandError(f"cannot read {where}: the file is empty")
        width = len(header)
        count = 0
        for row in rows:
            if not row or not any(field.strip() for field in row):
                continue
            count += 1
            if len(row) != width:
                raise CommandError(
                    f"cannot read {where}: line {rows.line_num} has {len(row)} fields, "
                    f"the header has {width}"
                )
    except csv.Error as exc:
        raise CommandError(f"cannot read {where}: {exc}") from None
    if count == 0:
        raise CommandError(f"cannot read {where}: a header but no data rows")


def _read_frame(args: argparse.Namespace) -> Any:
    if args.na_values and (args.dataset is not None or os.path.splitext(
            args.file or "")[1].lower() in _PARQUET_SUFFIXES):
        raise CommandError("--na-values applies to CSV/TSV text; a data set or Parquet file "
                           "has typed missing values")
    if args.dataset is not None:
        if args.file is not None:
            raise CommandError("give either a FILE or --dataset, not both")
        return irr.datasets.load(args.dataset)
    if args.file is None:
        raise CommandError("no input: give a FILE ('-' for stdin) or --dataset NAME")
    where = "stdin" if args.file == "-" else repr(args.file)
    suffix = os.path.splitext(args.file)[1].lower()
    if suffix in _OTHER_FORMATS and not os.path.isdir(args.file):
        kind, reader = _OTHER_FORMATS[suffix]
        convert = reader if reader.endswith("in R") else \
            f"{reader}.to_csv('ratings.csv', index=False) in Python"
        raise CommandError(
            f"cannot read {where}: irr reads CSV, TSV and Parquet files, not {kind}; write "
            f"it as CSV first ({convert}), or pass it to irr.Agreement.from_frame as a "
            "DataFrame")
    if os.path.isdir(args.file):
        return _scan_parquet(os.path.join(args.file, "**", "*.parquet"), where, args)
    if suffix in _PARQUET_SUFFIXES and \
            _parquet_size(args.file, _max_bytes(args)) > _max_bytes(args):
        return _scan_parquet(args.file, where, args)
    if suffix in _PARQUET_SUFFIXES:
        try:
            import pyarrow  # noqa: F401
        except ImportError:
            raise CommandError(
                f"cannot read {where}: reading Parquet needs pyarrow (pip install pyarrow)"
            ) from None
        return _numbers_from_text(_read_parquet(args.file, _max_bytes(args), where), args)
    if (args.file != "-" and suffix in (".csv", *_TSV_SUFFIXES) and os.path.isfile(args.file)
            and os.path.getsize(args.file) > _max_bytes(args)):
        return _scan_csv(args.file, "\t" if suffix in _TSV_SUFFIXES else ",", where, args)
    if args.file == "-":
        raw = _read_limited(sys.stdin.buffer.read, _max_bytes(args), where)
    else:
        raw = _read_file(args.file, _max_bytes(args), where)
    text, utf8 = _decode(raw, args.encoding, where)
    sep = args.delimiter
    if sep is None:
        sep = "\t" if suffix in _TSV_SUFFIXES else ","
        head = text.lstrip()
        end = head.find("\n")  # the first line
        first = head if end < 0 else head[:end]
        if ((args.file == "-" or suffix not in (".csv", *_TSV_SUFFIXES))
                and "\t" in first and "," not in first):
            sep = "\t"
        if sep == "," and ";" in first and "," not in first:
            # a semicolon-separated file, as spreadsheets write where the decimal mark is
            # a comma
            sep = ";"
            args.input_notes.append(
                "The header holds ';' and no ',': the file was read as semicolon-separated "
                "(--delimiter ';').")
    if sep in ("\\t", "tab"):
        sep = "\t"
    if len(sep) != 1:
        raise CommandError(f"--delimiter must be one character; got {sep!r}")
    kept, skipped = _skip_leading(text, sep)
    utf8 = utf8 and kept is text  # no leading line left out: `raw` is still its UTF-8
    text = kept
    if skipped:
        args.input_notes.append(
            f"Skipped {skipped} line(s) before the header that hold only delimiters."
        )
    try:
        # as UTF-8 bytes: pandas' C parser reads them faster than a StringIO of the text
        # (the bytes read, when they are that text's UTF-8)
        data = raw if utf8 else text.encode("utf-8")
        frame = pd.read_csv(io.BytesIO(data), sep=sep, encoding="utf-8",
                            na_values=args.na_values or None)
    except (pd.errors.ParserError, pd.errors.EmptyDataError) as exc:
        _check_rows(text, sep, where)  # its message names the line, when a row is wrong
        raise CommandError(f"cannot read {where} as CSV: {_first_line(exc)}") from None
    except Exception:
        _check_rows(text, sep, where)
        raise
    if not _whole_rows(frame, text):
        _check_rows(text, sep, where)
    if frame.shape[1] == 1 and args.delimiter is None:  # no rater pair in one column
        header = str(frame.columns[0])
        other = next((c for c in ";|\t" if c in header and c != sep), None)
        if other is not None:
            shown = "\\t" if other == "\t" else other
            raise CommandError(
                f"cannot read {where}: one column only, and its header {header!r} holds "
                f"{shown!r}: pass --delimiter '{shown}'"
            )
    # a row is all missing only when every column can hold a missing value
    empty = frame.isna().all(axis=1).to_numpy() if all(
        map(may_hold_missing, frame.dtypes)) else np.zeros(len(frame), dtype=bool)
    if empty.any():
        frame = frame.loc[~empty]
        args.input_notes.append(
            f"Skipped {int(empty.sum())} row(s) with no values at all (only delimiters)."
        )
    if sep == ";":
        frame = _decimal_commas(frame, args)
    return _strip_headers(frame, args)


#: A number written with a decimal comma ("3,5", "-0,25", "12"), as in a semicolon-separated file.
_DECIMAL_COMMA = r"^\s*[-+]?\d+(,\d+)?\s*$"


def _decimal_commas(frame: pd.DataFrame, args: argparse.Namespace) -> pd.DataFrame:
    """`frame` (read from a semicolon-separated file) with its columns of numbers written
    with a decimal comma ("3,5") read as numbers, with a note naming them."""
    def read(values: pd.Series, present: pd.Series) -> pd.Series | None:
        if not present.astype(str).str.match(_DECIMAL_COMMA).all():
            return None
        return pd.to_numeric(values.astype(str).str.replace(",", ".")
                             .where(values.notna(), None))

    return _text_columns_as_numbers(frame, args, read,
                                    "hold numbers with a decimal comma; they are read as "
                                    "numbers.")


def _numbers_from_text(frame: pd.DataFrame, args: argparse.Namespace) -> pd.DataFrame:
    """`frame` with its columns of numbers stored as text (every present value a string
    that reads as a finite number: a Parquet file's string column) read as numbers, as a
    CSV file's are, with a note naming them."""
    def read(values: pd.Series, present: pd.Series) -> pd.Series | None:
        if not all(isinstance(v, str) for v in present):
            return None
        numbers = pd.to_numeric(present, errors="coerce")
        if numbers.isna().any() or not np.isfinite(numbers.to_numpy(dtype=float)).all():
            return None
        return pd.to_numeric(values.astype(object).where(values.notna(), None))

    return _text_columns_as_numbers(frame, args, read,
                                    "hold numbers stored as text; they are read as numbers, "
                                    "as in a CSV file.")


def _text_columns_as_numbers(frame: pd.DataFrame, args: argparse.Namespace,
                             read: Callable[[pd.Series, pd.Series], pd.Series | None],
                             said: str) -> pd.DataFrame:
    """`frame` with each text column that `read` turns into numbers (``read(values,
    present values)``, None to leave it) replaced by them, and a note "Column(s) ...
    `said`"."""
    converted = {}
    for column in frame.columns:
        values = frame[column]
        if not (values.dtype == object or isinstance(values.dtype, pd.StringDtype)):
            continue
        present = values.dropna()
        numbers = None if present.empty else read(values, present)
        if numbers is not None:
            converted[column] = numbers
    if not converted:
        return frame
    args.input_notes.append(f"Column(s) {', '.join(map(repr, converted))} {said}")
    frame = frame.copy()
    for column, numbers in converted.items():
        frame[column] = numbers
    return frame


def _strip_headers(frame: pd.DataFrame, args: argparse.Namespace) -> pd.DataFrame:
    """`frame` with the spaces around its column names removed (``'Dr Jones '`` is the
    column ``--raters 'Dr Jones'`` names, and the rater the sentences name), with a note;
    unchanged when stripping would make two names the same. Column names in `args` spelt
    as in the file (``--raters 'Dr Jones '``) are renamed to the stripped names."""
    names = [c.strip() if isinstance(c, str) else c for c in frame.columns]
    changed = [c for c, n in zip(frame.columns, names, strict=True) if c != n]
    if not changed or len(set(names)) < len(names):
        return frame
    args.input_notes.append(
        f"Spaces around the column name(s) {', '.join(map(repr, changed))} were removed: "
        f"{', '.join(repr(c.strip()) for c in changed)}.")
    # a column named as the file spells it (--raters 'Dr Jones ') is the stripped column
    renamed = {c: c.strip() for c in changed}
    for option in ("raters", "subject", "rater", "rating"):
        value = getattr(args, option, None)
        if isinstance(value, list):
            setattr(args, option, [renamed.get(v, v) for v in value])
        elif isinstance(value, str):
            setattr(args, option, renamed.get(value, value))
    return frame.set_axis(names, axis=1)


def _near_names(missing: list[Any], known: Any) -> str:
    """`` (for 'x' did you mean 'y'?)`` for each of `missing` with near names among
    `known` (difflib; spaces and case aside), or ``''``."""
    by_text = {str(c).strip().casefold(): c for c in known}
    hints = []
    for name in missing:
        text = str(name).strip().casefold()
        near = [by_text[m] for m in difflib.get_close_matches(text, list(by_text), n=3,
                                                              cutoff=0.6)]
        if near:
            hints.append(f"for {name!r} did you mean {' or '.join(map(repr, near))}?")
    return f" ({'; '.join(hints)})" if hints else ""


def _unknown_columns(missing: list[Any], columns: Any, option: str = "") -> str:
    """The message for column names not in `columns`: the columns, and the nearest names
    for each unknown one."""
    columns = list(columns)
    where = f"{option} names " if option else ""
    return (f"{where}unknown column(s) {missing}; the columns are {columns}"
            + _near_names(missing, columns))


def _check_missing_markers(frame: Any, columns: list[Any], measured: bool = False) -> None:
    """Refuse a column of numbers with a few other tokens (SAS's '.', 'n/a'): as read,
    the whole column would become string labels. `measured`: the command reads
    measurements (no --categories to suggest)."""
    for column in columns:
        tokens = missing_tokens(frame[column])
        if tokens:
            others = frame[column].dropna().astype(str)
            others = others[others.isin(tokens)]
            raise CommandError(
                f"column {column!r} holds numbers and {len(others)} other value(s) "
                f"{', '.join(map(repr, tokens))}; if they mark missing ratings pass "
                + " ".join(f"--na-values {t!r}" if not t.isalnum() else f"--na-values {t}"
                           for t in tokens)
                + ("" if measured else
                   "; if they are ratings, declare the scale with --categories")
            )


def _first_line(exc: BaseException | str, names: Any = (),
                flags: dict[str, str] | None = None) -> str:
    """The first line of a message, in the command line's words (:func:`cli_words`;
    `names` are the data's columns and raters, `flags` a command's own flags)."""
    text = str(exc).strip()
    if not text:
        return type(exc).__name__ if isinstance(exc, BaseException) else ""
    return cli_words(text.splitlines()[0], names, flags)


#: The Python arguments that messages name, as the command line's flags.
FLAGS = {
    "categories": "--categories", "weights": "--weights",
    "confidence_level": "--confidence-level", "n_resamples": "--n-resamples",
    "rng": "--seed", "seed": "--seed", "ci": "--ci", "method": "--ci",
    "raters": "--raters", "id": "--id", "ids": "--id", "subject": "--subject",
    "rater": "--rater", "rating": "--rating", "na_values": "--na-values",
    "scale": "--scale", "model": "--model", "type": "--type", "unit": "--unit",
    "epsilon0": "--epsilon0", "alpha": "--alpha", "tolerance": "--tolerance",
    "alternative": "--alternative", "style": "--style", "statistics": "--statistics",
    "by": "--by", "replicates": "--replicates", "replicate": "--replicate",
    "coverage": "--coverage", "units": "--units", "delta": "--delta",
    # irr plan
    "kappa0": "--kappa0", "kappa1": "--kappa1", "prevalence": "--prevalence",
    "proportions": "--proportions", "power": "--power", "n": "--n", "rates": "--rates",
    "epsilon1": "--epsilon1", "max_n": "--max-n", "rho0": "--rho0", "rho1": "--rho1",
    "rho": "--rho", "width": "--width", "kappa": "--kappa", "kappa_lower": "--lower",
    "kappa_upper": "--upper", "bias": "--bias", "sd": "--sd", "ci_method": "--ci-method",
    "ccc0": "--ccc0",
    "ccc1": "--ccc1", "shift": "--shift",
    **{option.name: option.flag for option in INFERENCE_FLAGS},
}
#: The ``agreement`` command's own words for arguments other commands name otherwise;
#: ``method`` is --loa-method only for the methods of the limits of agreement (the CCC's
#: ``method='variance-components'`` is no flag).
AGREEMENT_FLAGS = {"method": "--loa-method", "p": "--tdi-proportion",
                   "first": "--raters", "second": "--raters"}
#: ``irr plan``'s words: its targets take ``--method`` (an interval's is --ci-method).
PLAN_FLAGS = {"method": "--method"}
_FLAG_VALUES = {"--loa-method": ("parametric", "regression", "nonparametric")}
_QUOTED_FLAG = re.compile(r"`(--[\w-]+)`")
_PYTHON_NAME = re.compile(r"`(\w+)(=)?('?)([^`']*)\3`")
_PYTHON_ONLY = ((", or use an ordered Categorical", ""), (" or an ordered Categorical", ""),
                ("`rng` seed ", "`rng` "), ("use ci='wald'", "use --ci wald"),
                ("use sampling='subjects'", "use --sampling subjects"),
                ("`ci_clip=False`", "--no-ci-clip"))


def cli_words(message: str, names: Any = (), flags: dict[str, str] | None = None) -> str:
    """`message` with the Python arguments it names as command-line flags:
    ``Pass `categories=` `` -> ``Pass --categories``, `` `weights='linear'` `` ->
    ``--weights linear``, `` `confidence_level` `` -> ``--confidence-level``; alpha's
    `` `level='ordinal'` `` -> ``ordinal alpha``. A quoted name among `names` (the data's
    columns and raters, which messages quote the same way) is a name in quotes, never a
    flag: a rater column called ``type`` stays ``'type'``. Other names are left as they
    are. `flags` adds or overrides flags of one command (``agreement``'s ``method`` is
    --loa-method).

    Examples
    --------
    >>> cli_words("`rng` seed must be non-negative; got -1.")
    '--seed must be non-negative; got -1.'
    >>> cli_words("Pass `categories=` in scale order, or use an ordered Categorical.")
    'Pass --categories in scale order.'
    """
    def flag(match: re.Match[str]) -> str:
        name, equals, value = match.group(1), match.group(2), match.group(4)
        if name in names and not equals:
            return repr(name)
        if name == "level" and value:
            return f"{value} alpha"
        known = {**FLAGS, **(flags or {})}
        if name not in known or (equals and value and value not in _FLAG_VALUES.get(
                known[name], (value,))):
            return match.group(0)
        return f"{known[name]} {value}" if equals and value else known[name]

    for python, cli in _PYTHON_ONLY:
        message = message.replace(python, cli)
    return _PYTHON_NAME.sub(flag, _QUOTED_FLAG.sub(r"\1", message))


_BOOLEANS = {"true": True, "1": True, "false": False, "0": False}


def _label_number(text: str) -> int | float:
    """A --categories label as a number: ``2`` and ``2.0`` are the int 2 (so they match
    ratings read as floats or ints), ``2.5`` a float; anything else raises ValueError."""
    try:
        return int(text)
    except ValueError:
        value = float(text)
    if not math.isfinite(value):
        raise ValueError(text)
    return int(value) if value.is_integer() else value


def _column_kind(column: Any) -> str:
    """'bool', 'number' or 'other': what a column of ratings holds, by its dtype as
    pandas holds it (a pandas Series, or a numpy column of a relation's first rows, masked
    where NULL: Arrow gives integers with nulls as floats, booleans with nulls as
    objects)."""
    if isinstance(column, np.ndarray):
        kind = column.dtype.kind
        if kind == "b":
            return "other" if np.ma.getmaskarray(column).any() else "bool"
        return "number" if kind in "iufc" else "other"
    from pandas.api.types import is_bool_dtype, is_numeric_dtype

    return ("bool" if is_bool_dtype(column) else "number" if is_numeric_dtype(column)
            else "other")


def _coerce_categories(labels: list[str] | None, columns: list[Any]) -> list[Any] | None:
    """Read --categories as booleans or numbers when the rating columns are; one comma
    list (``--categories none,mild,severe``, as --id and --statistics take) is split, since
    a scale of one category cannot be meant."""
    if labels is None:
        return None
    if len(labels) == 1 and "," in labels[0]:
        labels = [x.strip() for x in labels[0].split(",") if x.strip()]
    if columns and all(_column_kind(c) == "bool" for c in columns):
        bad = [x for x in labels if x.strip().lower() not in _BOOLEANS]
        if bad:
            raise CommandError(
                f"--categories must be True and False for true/false ratings; got {labels}")
        return [_BOOLEANS[x.strip().lower()] for x in labels]
    if columns and all(_column_kind(c) in ("bool", "number") for c in columns):
        try:
            return [_label_number(x) for x in labels]
        except ValueError:
            raise CommandError(
                f"--categories must be numbers for numeric ratings; got {labels}"
            ) from None
    return labels


def _agreement(args: argparse.Namespace, frame: Any, n_raters: int | None,
               continuous: bool | None = False) -> Any:
    """The Agreement of the input; `continuous` as for :meth:`Agreement.from_frame`
    (False for the commands of categories: each value is a category)."""
    if is_foreign_frame(frame):
        return _streamed_agreement(args, frame, n_raters, continuous)
    long = [args.subject, args.rater, args.rating]
    # names of the data, which messages quote like arguments: never read as flags
    args.names = {str(c) for c in frame.columns}
    if args.rater is not None and args.rater in frame.columns:
        args.names.update(map(str, pd.unique(frame[args.rater].dropna())))
    if any(v is not None for v in long):
        if any(v is None for v in long):
            raise CommandError("long format needs all of --subject, --rater and --rating")
        missing = [c for c in long if c not in frame.columns]
        if missing:
            raise CommandError(_unknown_columns(missing, frame.columns))
        if args.id:
            raise CommandError("--id marks columns of wide data; with long data use --subject")
        if args.raters:  # labels of the --rater column, kept in the order given
            frame = _long_raters(args, frame, two=False)
        declared = getattr(args, "categories", None)
        if declared is None:
            _check_missing_markers(frame, [args.rating], continuous is True)
        categories = _coerce_categories(declared, [frame[args.rating]])
        replicate = getattr(args, "replicate", None)
        if replicate is not None and replicate not in frame.columns:
            raise CommandError(_unknown_columns([replicate], frame.columns, "--replicate"))
        ag = Agreement.from_long(frame, subject=args.subject, rater=args.rater,
                                 rating=args.rating, categories=categories,
                                 continuous=continuous, replicate=replicate)
        _count_missing(args, int(frame[args.rating].isna().sum()))
        if n_raters is not None and ag.n_raters != n_raters:
            raise CommandError(
                f"this command compares {n_raters} raters; the long data have {ag.n_raters}"
                + (f" ({', '.join(map(str, ag.raters))}): choose {n_raters} with --raters"
                   if ag.n_raters > n_raters else ""))
        return ag
    raters = list(args.raters) if args.raters else None
    ids = [c.strip() for value in args.id or () for c in value.split(",") if c.strip()]
    explicit = list(ids)
    # --by columns group the subjects: never raters, and named, so no note guesses them
    groups = [c for c in getattr(args, "by", None) or () if c in frame.columns]
    ids += [c for c in groups if c not in ids]
    named = [*(raters or ()), *ids]
    missing = [r for r in named if r not in frame.columns]
    if missing:
        raise CommandError(_unknown_columns(missing, frame.columns))
    declared = getattr(args, "categories", None)
    if declared is None:
        _check_missing_markers(frame, raters or [c for c in frame.columns if c not in ids],
                               continuous is True)
    choice = choose_columns(frame, raters, ids or None, raters_option="--raters",
                            id_option="--id")
    chosen = list(choice.raters)
    if choice.detected:
        args.input_notes.append(choice.describe("--raters", "--id"))
    if choice.ids:
        args.input_info.append(("Not raters:", ", ".join(map(str, choice.ids))))
    note = repeated_ids_note(frame, explicit, "--id", groups)
    if note:
        args.input_notes.append(note)
    if n_raters is not None and raters is None:
        if len(chosen) > n_raters:
            args.input_notes.append(
                f"This command compares {n_raters} raters: the first {n_raters} of the rating "
                f"columns {', '.join(map(repr, chosen))}; choose them with --raters"
                + (" (or all of them with --all-raters)." if hasattr(args, "all_raters")
                   else ".")
            )
        chosen = chosen[:n_raters]
    categories = _coerce_categories(declared, [frame[r] for r in chosen])
    _count_missing(args, _missing_values(frame[chosen]))
    # categories as before issue 18 until the CLI chooses the statistics of measurements
    return Agreement.from_frame(frame, chosen, categories=categories, continuous=continuous)


def _streamed_agreement(args: argparse.Namespace, frame: Any, n_raters: int | None,
                        continuous: bool | None) -> Any:
    """The Agreement of Parquet data streamed by DuckDB: the engine counts the rating
    patterns, and only that table is read (categories only). A relation of booleans,
    numbers and strings (:func:`irr._frames.numpy_relation`) is read as numpy columns,
    without pandas or pyarrow; another (dates, decimals) as pandas, by Arrow."""
    numpy_head = numpy_relation(frame)
    sample = relation_head(frame) if numpy_head else frame_head(frame)
    columns = list(sample) if numpy_head else list(sample.columns)
    args.names = {str(c) for c in columns}
    if getattr(args, "by", None):
        raise CommandError("--by is not available on Parquet data streamed from disk; "
                           "report one group at a time, or raise --max-bytes")
    if continuous and getattr(args, "categories", None) is not None:
        raise CommandError("continuous measurements have no categories: leave out "
                           "--categories")
    categories = _coerce_categories(getattr(args, "categories", None),
                                    [sample[c] for c in columns])
    # numpy columns: the wide patterns of a relation of booleans, numbers and strings, as
    # categories (continuous None: the first rows may look continuous, asked of pandas)
    numpy = numpy_head and continuous is False and (args.subject, args.rater, args.rating) == (
        None, None, None)
    try:
        if args.subject is not None or args.rater is not None or args.rating is not None:
            if None in (args.subject, args.rater, args.rating):
                raise CommandError("long format needs all of --subject, --rater and --rating")
            patterns, raters, count = _with_progress(lambda: long_patterns(
                frame, args.subject, args.rater, args.rating, continuous), args.engine)
        else:
            raters = list(args.raters) if args.raters else None
            if raters is None:
                ids = [c.strip() for value in args.id or () for c in value.split(",")
                       if c.strip()]
                choice = choose_columns(sample, None, ids or None, raters_option="--raters",
                                        id_option="--id")
                raters = list(choice.raters)
                if choice.detected:
                    args.input_notes.append(choice.describe("--raters", "--id"))
                if choice.ids:
                    args.input_info.append(("Not raters:", ", ".join(map(str, choice.ids))))
                if n_raters is not None and len(raters) > n_raters:
                    args.input_notes.append(
                        f"This command compares {n_raters} raters: the first {n_raters} of "
                        f"the rating columns {', '.join(map(repr, raters))}; choose them "
                        "with --raters.")
                    raters = raters[:n_raters]
            if continuous:  # the engine sums the moments of two methods when asked
                return _streamed_measurements(args, frame, raters)
            if numpy:
                rows, counts = _with_progress(lambda: relation_patterns(frame, raters),
                                              args.engine)
            else:
                patterns, raters, count = _with_progress(
                    lambda: wide_patterns(frame, raters, None, None, continuous), args.engine)
    except ValueError as exc:
        raise CommandError(cli_words(_first_line(exc), args.names)) from None
    if numpy:
        _read_patterns(args, counts, sum(missing_values(v) for v in rows.values()))
        return _raters_compared(Agreement.from_patterns(rows, counts, categories=categories),
                                n_raters)
    return _frame_agreement(args, n_raters, patterns, raters, count, categories)


def _frame_agreement(args: argparse.Namespace, n_raters: int | None, patterns: Any,
                     raters: list[Any], count: str, categories: list[Any] | None) -> Any:
    """The Agreement of the rating patterns an engine counted, read as a pandas frame
    (`count`: the column of their counts)."""
    weights = patterns[count].to_numpy()
    _read_patterns(args, weights, patterns[raters].isna().sum(axis=1).to_numpy())
    return _raters_compared(Agreement.from_frame(
        patterns, raters, categories=categories, freq_weights=count, continuous=False),
        n_raters)


def _read_patterns(args: argparse.Namespace, counts: np.ndarray, missing: Any) -> None:
    """The header lines of rating patterns an engine counted: rows read, patterns, and
    missing ratings (`missing`: per pattern)."""
    args.input_info.append(("Read:", f"{int(counts.sum()):,} rows streamed by DuckDB, "
                            f"{len(counts):,} rating pattern"
                            f"{'' if len(counts) == 1 else 's'}"))
    _count_missing(args, int((np.asarray(missing) * counts).sum()))


def _raters_compared(ag: Any, n_raters: int | None) -> Any:
    if n_raters is not None and ag.n_raters != n_raters:
        raise CommandError(f"this command compares {n_raters} raters; the data have "
                           f"{ag.n_raters}")
    return ag


def _streamed_measurements(args: argparse.Namespace, frame: Any, raters: Any) -> Any:
    """The Agreement of continuous measurements streamed by DuckDB: their rows are never
    read; the engine sums the moments of two methods when a statistic asks for them."""
    ag = Agreement.from_frame(frame, raters, continuous=True)
    n = _with_progress(lambda: ag.n_subjects, args.engine)
    args.input_info.append(("Read:", f"{n:,} rows streamed by DuckDB, summed by the engine"))
    _count_missing(args, ag.lazy.n_missing_values)
    return ag


def _missing_values(frame: pd.DataFrame) -> int:
    """How many values of `frame` are missing, counted in the columns that can hold one."""
    return sum(int(frame.iloc[:, j].isna().sum())
               for j, dtype in enumerate(frame.dtypes) if may_hold_missing(dtype))


def _count_missing(args: argparse.Namespace, count: int) -> None:
    if count:
        args.input_info.append(("Missing ratings:", f"{count:,}"))


# -- computing ---------------------------------------------------------------------------
@dataclasses.dataclass
class Output:
    """What a command produced: a titled list of results, or a plain frame."""

    title: str
    results: list[Any] = dataclasses.field(default_factory=list)
    info: list[tuple[str, str]] = dataclasses.field(default_factory=list)
    notes: list[str] = dataclasses.field(default_factory=list)
    sentences: list[str] = dataclasses.field(default_factory=list)
    frame: Any = None
    summary: Any = None
    seed: int | None = None
    data: DataDescription | None = None
    report: ReliabilityReport | None = None
    figure: bytes | None = None


def _options(args: argparse.Namespace) -> dict[str, Any]:
    return {
        "confidence_level": args.confidence_level,
        "ci": args.ci,
        "n_resamples": args.n_resamples,
        "rng": args.seed,
        **_inference(args),
    }


@contextlib.contextmanager
def _warnings_as_notes(notes: list[str], prefix: str = "", names: Any = (),
                       flags: dict[str, str] | None = None) -> Any:
    """Collect DegenerateDataWarnings and ContinuousScoresWarnings raised inside as notes
    (once each); other warnings are re-issued."""
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always", DegenerateDataWarning)
        warnings.simplefilter("always", ContinuousScoresWarning)
        yield
    for w in caught:
        if issubclass(w.category, (DegenerateDataWarning, ContinuousScoresWarning)):
            line = f"{prefix}{_first_line(str(w.message), names, flags)}"
            if line not in notes:
                notes.append(line)
        else:
            warnings.warn_explicit(w.message, w.category, w.filename, w.lineno)


def _call(ag: Any, method: str, out: Output, args: argparse.Namespace, *,
          optional: bool = False, **kwargs: Any) -> Any:
    """Call ``ag.<method>`` with the inference options it accepts; collect the result.

    With `optional`, a method that does not apply (ValueError) is noted rather than
    raised; DegenerateDataWarnings become notes.
    """
    accepted = inspect.signature(getattr(ag, method)).parameters
    unavailable = (f"{method}: bootstrap intervals are not available; its own interval is "
                   "used (see its CI method).")
    if args.ci not in (None, "wald") and "ci" not in accepted and unavailable not in out.notes:
        out.notes.append(unavailable)  # once, however many forms (the ICCs) are called
    out.notes.extend(n for n in _not_applicable(method, accepted, args) if n not in out.notes)
    with _warnings_as_notes(out.notes, f"{method}: ", args.names):
        try:
            result = call_method(ag, method, _options(args), **kwargs)
        except ValueError as exc:
            if not optional:
                raise
            out.notes.append(f"{_row_name(method, kwargs)} not computed: "
                             f"{_first_line(exc, args.names)}")
            return None
    if isinstance(result, (list, tuple)):
        collected = list(result)
    elif result is not None and hasattr(result, "estimate"):
        collected = [result]
    elif result is not None and hasattr(result, "results"):
        collected = list(result.results)
    else:
        collected = []
    out.results.extend(collected)
    seeded = ("Bootstrap seed:", str(args.seed))
    if seeded not in out.info and any(_seed(r, out) is not None for r in collected):
        out.info.append(seeded)
    return result


def _row_name(method: str, options: dict[str, Any]) -> str:
    """The method of a panel's row, or, when options other than flags pick the row (percent
    agreement's definition, alpha's level), its name in ``--statistics`` (``percent_all``,
    ``alpha_nominal``): never Python's ``definition='all'``.

    Examples
    --------
    >>> _row_name("percent_agreement", {"definition": "all"})
    'percent_all'
    >>> _row_name("fleiss_kappa", {"weights": "quadratic"})
    'fleiss_kappa'
    """
    given = {k: v for k, v in options.items() if v is not None and k not in FLAGS}
    if not given:  # the flags say the rest
        return method
    for name, row in STATISTICS.items():
        if row.method == method and dict(row.options) == given:
            return name
    return f"{method} ({', '.join(f'{k} {v}' for k, v in given.items())})"


def _with_scale(out: Output, scale: str | None) -> None:
    if scale is None:
        return
    scale = get_scale(scale).name  # validates the name; its canonical spelling
    out.results = [
        dataclasses.replace(r, scale=scale) if r.scale is not None else r for r in out.results
    ]


def _output(title: str, ag: Any, args: argparse.Namespace) -> Output:
    """An Output with the header lines of the data (scale, columns set aside, missing
    ratings) and the notes of reading them."""
    if ag.lazy is not None:  # streamed measurements: counts made by the engine
        return Output(title, info=[("Scale:", "continuous"), *args.input_info],
                      notes=list(args.input_notes), seed=args.seed,
                      data=DataDescription.from_lazy(ag.lazy))
    if ag.continuous:
        data = DataDescription.from_measurements(ag.measurements)
        low, high = data.value_range or (math.nan, math.nan)
        return Output(title, info=[("Scale:", f"continuous, {data.n_values:,} values from "
                                              f"{low:g} to {high:g}"),
                                   *args.input_info, *_inference_info(args)],
                      notes=list(args.input_notes), seed=args.seed, data=data)
    categories = ag.statistics.categories  # as coded: an ndarray for numpy-coded patterns
    kind = scale_type(ag.facts, len(categories))
    data = DataDescription.from_statistics(ag.statistics, kind)
    complete = data.n_subjects - data.n_incomplete  # what --missing listwise keeps
    info = [(label, f"{value} ({complete:,} subjects rated by every rater)"
             if value == "listwise" else value) for label, value in _inference_info(args)]
    return Output(title, info=[scale_info(categories), *args.input_info, *info],
                  notes=list(args.input_notes), seed=args.seed, data=data)


_WEIGHTS_HELP = ("unweighted (default), linear, quadratic, ordinal, radical, ratio, circular, "
                 "bipolar, power:R (exponent R >= 0), circular:U (Warrens & Pratiwi, "
                 "0 <= U < 1) or circular:180")


def _weights_argument(value: str) -> str:
    """A --weights value: a scheme name of irr.weights (validated), or 'unweighted'."""
    if value.lower() in ("unweighted", "none"):
        return "unweighted"
    try:
        weight_name(value)
    except ValueError as error:
        if ":" in value or value.lower() == "power":  # a scheme with a bad parameter
            raise argparse.ArgumentTypeError(cli_words(str(error))) from error
        raise argparse.ArgumentTypeError(
            f"invalid choice: {value!r} (choose from {_WEIGHTS_HELP})") from error
    return value


def _cmd_kappa(args: argparse.Namespace) -> Output:
    ag = _agreement(args, _read_frame(args), 2)
    out = _output(f"Agreement between {ag.raters[0]} and {ag.raters[1]}", ag, args)
    if args.weights is not None:
        _call(ag, "kappa", out, args,
              weights=None if args.weights == "unweighted" else args.weights)
        return out
    # asked for by name: the category statistics, even on continuous scores (with a note)
    for method, options in rows("summary", dataclasses.replace(ag.facts, continuous=False)):
        _call(ag, method, out, args, **options)
    return out


def _cmd_multi(args: argparse.Namespace) -> Output:
    ag = _agreement(args, _read_frame(args), None)
    out = _output(f"Agreement among {ag.n_raters} raters", ag, args)
    weights = None if args.weights == "unweighted" else args.weights
    # asked for by name: the category statistics, even on continuous scores (with a note)
    for method, options in rows("multi", dataclasses.replace(ag.facts, continuous=False),
                                weights):
        _call(ag, method, out, args, optional=True, **options)
    if not out.results:
        reasons = dict.fromkeys(note.split(" not computed: ", 1)[-1] for note in out.notes)
        raise CommandError("no multi-rater coefficient could be computed: " + "; ".join(
            n.rstrip(".") for n in (out.notes if len(reasons) > 2 else reasons)) + ".")
    return out


def _icc_forms(args: argparse.Namespace) -> list[dict[str, str]]:
    """The ICC forms that --model, --type and --unit select, in the registry's order."""
    forms = [
        row.options for row in PANELS["icc"]
        if (getattr(args, "model", None) in (None, row.options["model"]))
        and (getattr(args, "type", None) in (None, row.options["type"]))
        and (getattr(args, "unit", None) in (None, row.options["unit"]))
    ]
    if not forms:
        raise CommandError("no ICC form matches --model oneway --type consistency "
                           "(the one-way model has agreement only)")
    return forms


def _cmd_icc(args: argparse.Namespace) -> Output:
    ag = _agreement(args, _read_frame(args), None)
    out = _output(f"Intraclass correlation of {ag.n_raters} raters", ag, args)
    for form in _icc_forms(args):
        _call(ag, "icc", out, args, **form)
    return out


def _cmd_error_rate(args: argparse.Namespace) -> Output:
    ag = _agreement(args, _read_frame(args), 2)
    out = _output(f"Error rate of {ag.raters[1]} against {ag.raters[0]}", ag, args)
    extra = {} if args.alternative is None else {"alternative": args.alternative}
    result = _call(ag, "error_rate_test", out, args, epsilon0=args.epsilon0,
                   alpha=args.alpha, tolerance=args.tolerance, **extra)
    out.summary = result.summary()
    out.sentences = [result.report()]
    return out


def _figures(args: argparse.Namespace, out: Output) -> bool:
    """Whether the report draws its figures: --format html without --no-figures, and
    matplotlib installed (else a note says they were left out)."""
    if args.format != "html" or args.no_figures:
        return False
    try:
        import matplotlib  # noqa: F401  (the figures need it)
    except ImportError:
        out.notes.append("Figures left out: they need matplotlib "
                         "(pip install 'irrstats[plot]').")
        return False
    return True


def _cmd_report(args: argparse.Namespace) -> Output:
    frame = _read_frame(args)
    if (args.subject is None and args.raters is None and not args.id
            and is_pandas(frame, "DataFrame")):
        hint = study_hint(frame, command=True)  # a study's data (a G study's long file)
        if hint is not None:
            raise CommandError(hint)
    # measurements when the ratings are (decimal values, or numeric scores with more than
    # 10 distinct values and no --categories): limits of agreement, CCC, ICC, SEM
    read = len(args.input_info), len(args.input_notes)
    ag = _agreement(args, frame, None, continuous=None)
    if args.categories is None and not ag.continuous and ag.facts.continuous:
        del args.input_info[read[0]:], args.input_notes[read[1]:]  # read again, said once
        ag = _agreement(args, frame, None, continuous=True)
    out = _output("", ag, args)
    if args.by and args.subject is not None:
        raise CommandError("--by groups wide data; with long data leave it out")
    figures = _figures(args, out)
    notes: list[str] = []
    with _warnings_as_notes(notes, "", args.names):
        rep = reliability_report(
            frame if args.by else ag, args.statistics,
            raters=list(ag.raters) if args.by else None,
            # the declared scale only: inferred labels stay unordered, as without --by
            categories=list(ag.categories) if args.by and args.categories
            and not ag.continuous else None,
            by=args.by, confidence_level=args.confidence_level, ci=args.ci,
            n_resamples=args.n_resamples, rng=args.seed, inference=_inference(args),
            scale=args.scale, style=args.style, figures=figures, notes=out.notes, info=out.info,
            options={"loa": {"replicates": args.replicates}} if args.replicates else None)
    args.scale = None  # applied
    # rater columns that read as methods with replicates: the commands that analyse them so
    python_words = replicate_note(ag.raters)
    if python_words:
        ids = dict(args.input_info).get("Not raters:", "")
        source = (f"--dataset {args.dataset}" if args.dataset is not None
                  else "FILE" if args.file in (None, "-") else args.file)
        command_words = replicate_note(ag.raters, source, ids.split(", ")[0] or "subject")
        notes = [command_words if n == python_words else n for n in (*rep.notes, *notes)]
        rep = dataclasses.replace(rep, notes=())
    out.report = dataclasses.replace(
        rep, notes=tuple(cli_words(n, args.names) for n in (*rep.notes, *notes)))
    return out


#: Every statistic of ``irr agreement`` (the statistics of measurements the registry
#: declares), in the order ``--statistics all`` reports them.
AGREEMENT_STATISTICS = tuple(name for c in COEFFICIENTS if c.data == "continuous"
                             for name in (n.name for n in c.names))


def _long_raters(args: argparse.Namespace, frame: Any, two: bool) -> Any:
    """Long data of the raters --raters names (their labels in the --rater column), or of
    the first two when `two`; --raters is then cleared (it names wide columns elsewhere)."""
    if args.rater not in frame.columns:
        return frame  # _agreement names the unknown column
    labels = list(pd.unique(frame[args.rater].dropna()))
    shown = {str(label): label for label in labels}
    if args.raters:
        unknown = [r for r in args.raters if r not in shown]
        if unknown:
            raise CommandError(f"--raters names unknown rater(s) {unknown} of column "
                               f"{args.rater!r}; the raters are {list(shown)}"
                               + _near_names(unknown, shown))
        chosen = [shown[r] for r in args.raters]
    elif two and len(labels) > 2:
        chosen = labels[:2]
        args.input_notes.append(
            f"This command compares 2 methods: the first two raters of column "
            f"{args.rater!r}, {chosen[0]!r} and {chosen[1]!r}, of {len(labels)}; choose "
            "them with --raters (or all of them with --all-raters).")
    else:
        chosen = labels
    args.raters = None
    rater = frame[args.rater]
    kept = frame.loc[rater.isin(chosen) | rater.isna()]
    # raters in the order chosen (the Agreement takes them in order of appearance): the
    # difference is first minus second, as with wide columns
    order = kept[args.rater].map({label: i for i, label in enumerate(chosen)})
    return kept.iloc[np.argsort(order.fillna(len(chosen)).to_numpy(), kind="stable")]


def _agreement_statistics(args: argparse.Namespace, ag: Agreement) -> list[str]:
    """The statistics --statistics names (default: the method-comparison set)."""
    two = ag.n_raters == 2
    if args.statistics is None:
        return list(METHOD_COMPARISON[two])
    typed = [n.strip() for n in args.statistics.split(",") if n.strip()]
    if [n.lower() for n in typed] == ["all"]:
        return [n for n in AGREEMENT_STATISTICS if STATISTICS[n].applies(ag.facts)
                and (n != "cp" or args.delta is not None)]
    found = [lookup(n, AGREEMENT_STATISTICS, ALIASES) for n in typed]
    unknown = [n for n, name in zip(typed, found, strict=True) if name is None]
    names = [name for name in found if name is not None]
    if not names or unknown:
        raise CommandError(
            f"--statistics names unknown statistic(s) {', '.join(map(repr, unknown))}; "
            f"known: {', '.join(AGREEMENT_STATISTICS)} (or 'all')" if unknown else
            f"--statistics is empty; name one or more of {', '.join(AGREEMENT_STATISTICS)}")
    if "cp" in names and args.delta is None:
        raise CommandError("--statistics cp needs --delta, the largest acceptable "
                           "difference between the methods")
    return names


def _loa_options(args: argparse.Namespace) -> dict[str, Any]:
    """The options of the limits of agreement that the flags set."""
    options = {"coverage": args.coverage, "method": args.loa_method,
               "scale": args.loa_scale, "units": args.units}
    if args.replicates is not None:
        options["replicates"] = args.replicates
    return options


def _cmd_agreement(args: argparse.Namespace) -> Output:
    frame = _read_frame(args)
    long = any(v is not None for v in (args.subject, args.rater, args.rating))
    if args.replicate is not None and not long:
        raise CommandError("--replicate numbers the readings of long data; give --subject, "
                           "--rater and --rating too (wide data hold one reading per cell)")
    if args.all_raters and args.raters:
        raise CommandError("give either --raters or --all-raters, not both")
    if args.raters is not None and len(args.raters) < 2:
        raise CommandError(f"--raters names at least two methods; got {args.raters}")
    two = not args.all_raters and (args.raters is None or len(args.raters) == 2)
    if long and is_foreign_frame(frame):
        raise CommandError("long data streamed from disk are not read by `irr agreement`: "
                           "give the file one column per method (wide), or raise "
                           "--max-bytes to read it into memory")
    if long:
        frame = _long_raters(args, frame, two)
    ag = _agreement(args, frame, 2 if two and not long else None, continuous=True)
    names = _agreement_statistics(args, ag)
    loa = _loa_options(args)
    if ag.lazy is not None and args.statistics is None:  # what the engine's sums give
        names = [n for n in names if n in ("loa", "ccc")]
        args.input_notes.append(
            "Streamed data: the limits of agreement (parametric) and Lin's CCC come from "
            "sums made by DuckDB (also the TDI and CP with --statistics); statistics that "
            "need the rows (the SEM, regressions, --plot) are not computed: raise "
            "--max-bytes to read the file.")
    if (ag.lazy is None and ag.measurements.has_replicates and args.replicates is None
            and "loa" in names):
        raise CommandError(
            "the data hold replicates (a method measured a subject more than once): the "
            "limits of agreement need --replicates constant (the true value does not "
            "change between a subject's readings) or --replicates varying (it does, and "
            "the methods' readings were made in pairs)")
    if args.plot is not None and ag.n_raters != 2:
        raise CommandError(f"--plot draws the Bland-Altman plot of two methods; these are "
                           f"{ag.n_raters}: choose two with --raters")
    if args.plot is not None and ag.lazy is not None:  # before the sums, in the CLI's words
        raise CommandError("--plot needs each pair's mean and difference, which streamed data "
                           "(summed by DuckDB) do not hand over: raise --max-bytes to read the "
                           "file, or leave out --plot")
    out = _output("", ag, args)
    figures = _figures(args, out)
    options = {"loa": loa, "tdi": {"p": args.tdi_proportion}, "sem": {"units": args.units}}
    if args.delta is not None:
        options["cp"] = {"delta": args.delta}
    inference = {"confidence_level": args.confidence_level, "ci": args.ci,
                 "n_resamples": args.n_resamples, "rng": args.seed}
    notes: list[str] = []
    with _warnings_as_notes(notes, "", args.names, args.flags):
        rep = reliability_report(ag, names, **inference, figures=figures, notes=out.notes,
                                 info=out.info, options=options)
        if args.plot is not None:
            result = next((r for r in rep.results
                           if isinstance(r, limits.LimitsOfAgreementResult)), None)
            if result is None:  # not reported: the plot's limits with the same options
                result = call_method(ag, "limits_of_agreement", inference, **loa)
            out.figure = _figure_bytes(result, args.plot)
    out.report = dataclasses.replace(rep, notes=tuple(
        cli_words(n, args.names, args.flags) for n in (*rep.notes, *notes)))
    return out



# -- generalizability studies --------------------------------------------------------------
def _gstudy_parser(commands: Any) -> None:
    """``irr gstudy``: a G study (and a D study) of a long file of scores."""
    gs = _subcommand(
        commands, "gstudy", "generalizability (G) and decision (D) studies",
        "The variance components of a design with several facets (raters, occasions, "
        "items; crossed or nested), by ANOVA (balanced data) or REML (missing scores), and "
        "the generalizability (E rho^2) and dependability (Phi) coefficients; --dstudy "
        "projects other numbers of levels. The file is long: one score per row.",
        "examples:\n"
        "  irr gstudy scores.csv --object patient --facets rater occasion\n"
        "  irr gstudy scores.csv --object patient --facets rater site --nested rater:site\n"
        "  irr gstudy --dataset brennan_3_2 --object Person --facets Rater Task "
        "--nested Rater:Task --score Score --dstudy Rater=1,2,4 Task=3",
    )
    source = gs.add_argument_group("input")
    source.add_argument("file", nargs="?", help="CSV/TSV/Parquet file, one score per row "
                        "('-' for stdin)")
    source.add_argument("--dataset", metavar="NAME", help="a bundled data set (irr datasets)")
    source.add_argument("--delimiter", metavar="CHAR",
                        help="field separator (default: tab for .tsv/.tab, else comma)")
    source.add_argument("--encoding", default="utf-8", help="text encoding (default utf-8)")
    source.add_argument("--max-bytes", type=_size, default=None, metavar="SIZE",
                        help="load input up to this size (default 200M)")
    source.add_argument("--na-values", action="append", metavar="VALUE",
                        help="a value that marks a missing score (repeatable)")
    design = gs.add_argument_group("design")
    design.add_argument("--object", required=True, metavar="COL",
                        help="the objects of measurement (patients, persons, essays)")
    design.add_argument("--facets", required=True, nargs="+", metavar="COL",
                        help="the facets (raters, occasions, items, and the facets others "
                        "are nested in)")
    design.add_argument("--score", default="score", metavar="COL",
                        help="the score column (default 'score')")
    design.add_argument("--nested", action="append", metavar="CHILD:PARENT",
                        help="a facet nested in another facet or in the object, e.g. "
                        "rater:site (repeatable)")
    design.add_argument("--fixed", nargs="+", default=[], metavar="COL",
                        help="facets whose levels are the whole universe (Brennan's rules)")
    design.add_argument("--method", choices=["auto", "anova", "reml"], default="auto",
                        help="auto (default): ANOVA for balanced data, else REML")
    design.add_argument("--dstudy", nargs="+", metavar="FACET=N[,N...]",
                        help="a D study: sizes of facets (others keep their observed sizes)")
    declared = study("gstudy")
    stats = gs.add_argument_group("inference")
    for name in PROFILES[declared.profile]:  # its profile's keywords that have a flag
        if name == "ci":
            stats.add_argument("--ci", choices=[c for c in declared.cis if c is not None],
                               default=declared.ci,
                               help=f"the coefficients' interval (default {declared.ci}: the "
                               "delta method); with ANOVA also a bootstrap over objects "
                               "(percentile, basic, bca)")
        elif name in _KEYWORD_FLAGS:
            _keyword_flag(stats, name)
    out = gs.add_argument_group("output")
    out.add_argument("--format", choices=FORMATS, default="text",
                     help="text (default), markdown, html, latex, csv or json")
    out.add_argument("--output", "-o", metavar="FILE", help="write here instead of stdout")
    out.add_argument("--force", action="store_true", help="overwrite an existing --output")
    gs.add_argument("--debug", action="store_true", help="show tracebacks on errors")


def _gstudy_sizes(items: Sequence[str]) -> dict[str, list[float]]:
    """--dstudy FACET=N[,N...] as {facet: sizes}."""
    sizes: dict[str, list[float]] = {}
    for item in items:
        facet, _, values = item.partition("=")
        try:
            sizes[facet] = [float(v) for v in values.split(",") if v.strip()]
        except ValueError:
            sizes[facet] = []
        if not facet or not sizes[facet]:
            raise CommandError(f"--dstudy {item!r}: give FACET=N or FACET=N,N,... "
                               "(e.g. rater=1,2,3)")
    return sizes


def _cmd_gstudy(args: argparse.Namespace) -> Output:
    frame = _read_frame(args)
    if not is_pandas(frame, "DataFrame"):
        raise CommandError("irr gstudy reads the whole file into memory; this input is "
                           "streamed (too large): raise --max-bytes")
    args.names = {str(c) for c in frame.columns}
    nested = {}
    for item in args.nested or []:
        child, colon, parent = item.partition(":")
        if not colon or not child or not parent:
            raise CommandError(f"--nested {item!r}: give CHILD:PARENT, e.g. rater:site")
        nested[child] = parent
    ci = args.ci
    out = Output("G study")
    with _warnings_as_notes(out.notes, "", args.names):
        try:
            g = gtheory.gstudy(frame, score=args.score, object=args.object, facets=args.facets,
                       nested=nested or None, fixed=args.fixed, method=args.method,
                       confidence_level=args.confidence_level, ci=ci,
                       n_resamples=args.n_resamples, rng=args.seed)
        except (ValueError, TypeError) as exc:  # the Python arguments as the flags
            text = re.sub(r"nested=\{'([^']*)': '([^']*)'\}", r"--nested \1:\2", str(exc))
            text = re.sub(r"`(score|object|facets|nested|fixed|method|ci)`",
                          lambda m: "--" + m.group(1), text)
            raise CommandError(text) from None
    summary = g.summary()
    out.sentences = [g.report()]
    table = pd.concat([
        g.variance_components.assign(kind="component").rename(
            columns={"variance": "estimate"}),
        g.coefficients.rename(columns={"symbol": "effect"}).assign(kind="coefficient"),
    ])
    table.index.name = "name"
    if args.dstudy:
        d = g.dstudy(**_gstudy_sizes(args.dstudy))
        summary.tables.extend(d.summary().tables[1:])
        out.sentences.append(d.report())
        if args.format in ("csv", "json"):
            table = d.to_frame()
            table.index.name = "design"
    if args.input_notes or out.notes:  # after the summary's own notes
        summary.add_extra_txt([summary.extra_txt or "", *args.input_notes, *out.notes])
    out.sentences.append(g.methods().split("\n\nReferences")[0])
    if args.format in ("text", "html", "latex"):
        out.summary = summary
    else:
        out.frame = table
        out.title = f"G study: {g.long_design}, {g.design} ({g.method})"
    return out

def _figure_bytes(result: Any, path: str) -> bytes:
    """The Bland-Altman plot of `result` as the bytes of a .png, .svg or .pdf file (the
    same bytes on every run)."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    ax = irr.plotting.bland_altman(result)
    fig = ax.figure
    try:
        kind = os.path.splitext(path)[1].lower().lstrip(".")
        if kind == "svg":
            return irr.plotting.to_svg(fig).encode("utf-8")
        stream = io.BytesIO()
        metadata = ({"Software": None} if kind == "png"
                    else {"Creator": None, "Producer": None, "CreationDate": None})
        fig.savefig(stream, format=kind, dpi=200, metadata=metadata)
        return stream.getvalue()
    finally:
        plt.close(fig)


def _cmd_datasets(args: argparse.Namespace) -> Output:
    datasets = irr.datasets
    if args.name is None:
        rows = []
        for name in sorted(datasets.names()):
            frame = datasets.load(name)
            info = datasets.describe(name)
            rows.append({"name": name, "subjects": len(frame),
                         "raters": frame.shape[1] - len(info.id_columns),
                         "command": "report", "description": info.description})
        for declared in STUDIES:  # a study's long data: objects, and scores per object
            for name in sorted(datasets.names(declared.datasets)):
                frame = datasets.load(name)
                objects = frame[declared.detect(frame)[0]].nunique()
                rows.append({"name": name, "subjects": objects,
                             "raters": len(frame) // objects, "command": declared.command,
                             "description": datasets.describe(name).description})
        return Output("Bundled data sets", frame=pd.DataFrame(rows).set_index("name"))
    info = datasets.describe(args.name)
    frame = datasets.load(args.name)
    declared = next((d for d in STUDIES if args.name in datasets.names(d.datasets)), None)
    if declared is None:
        facts = {
            "name": info.name,
            "description": info.description,
            "subjects": len(frame),
            "raters": ", ".join(str(c) for c in frame.columns if c not in info.id_columns),
            "missing ratings": int(frame.drop(columns=list(info.id_columns)).isna().sum().sum()),
            "citation": info.citation,
        }
    else:  # a study's long data: its columns as the study's detector reads them
        found = dict(zip(declared.columns, declared.detect(frame), strict=True))
        facts = {
            "name": info.name,
            "description": info.description,
            "objects": f"{frame[found['object']].nunique()} ({found['object']})",
            "facets": ", ".join(map(str, found["facets"])),
            "nested": ", ".join(f"{c} in {p}" for c, p in found["nested"].items()) or "none",
            "scores": f"{len(frame)} ({found['score']})",
            "missing scores": int(frame[found["score"]].isna().sum()),
            "command": f"irr {declared.command}",
            "citation": info.citation,
        }
    if info.id_columns:
        facts["identifiers"] = ", ".join(info.id_columns)
    if info.layout:
        facts["layout"] = info.layout
    if info.published:
        facts["published values"] = info.published
    return Output(f"Data set {info.name}",
                  frame=pd.DataFrame({"value": list(facts.values())},
                                     index=pd.Index(list(facts), name="field")))


def _one(values: list[Any] | None) -> Any:
    """A flag's values: None, the one value, or the list."""
    if values is None:
        return None
    return values[0] if len(values) == 1 else values


def _cmd_plan(args: argparse.Namespace) -> Output:
    plan = irr.plan
    target = args.plan_target
    tests = ("kappa", "icc", "error-rate", "limits", "ccc")
    if target in tests and args.power is not None and args.n is not None:
        raise CommandError("give --power (to solve for n) or --n (the power at n), not both")
    test = {"power": _one(args.power), "n": _one(args.n)} if target in tests else {}
    if target == "kappa":
        result = plan.kappa(
            _one(args.kappa0), _one(args.kappa1), raters=_one(args.raters),
            categories=_one(args.categories), prevalence=_one(args.prevalence),
            proportions=args.proportions, alpha=_one(args.alpha),
            alternative=args.alternative, method=args.method, rates=args.rates, **test)
    elif target == "kappa-interval":
        result = plan.kappa_interval(
            _one(args.kappa), _one(args.lower), _one(args.upper), raters=_one(args.raters),
            categories=_one(args.categories), prevalence=_one(args.prevalence),
            proportions=args.proportions, confidence_level=_one(args.confidence_level))
    elif target == "icc":
        result = plan.icc(_one(args.rho0), _one(args.rho1), raters=_one(args.raters),
                          alpha=_one(args.alpha), alternative=args.alternative,
                          method=args.method, **test)
    elif target == "ccc":
        result = plan.concordance(_one(args.ccc0), _one(args.ccc1), shift=_one(args.shift),
                                  alpha=_one(args.alpha), alternative=args.alternative, **test)
    elif target == "limits":
        result = plan.limits_of_agreement(
            _one(args.bias), _one(args.sd), _one(args.delta), coverage=_one(args.coverage),
            confidence_level=_one(args.confidence_level), ci_method=args.ci_method, **test)
    elif target == "icc-interval":
        result = plan.icc_interval(_one(args.rho), _one(args.width), raters=_one(args.raters),
                                   confidence_level=_one(args.confidence_level))
    else:
        result = plan.error_rate(_one(args.epsilon0), _one(args.epsilon1),
                                 alpha=_one(args.alpha), alternative=args.alternative,
                                 max_n=args.max_n, **test)
    out = Output(result.title)
    if args.format in ("text", "html", "latex"):
        out.summary = result.summary()
        out.sentences = result.report().replace(". With ", ".\nWith ").split("\n")
    else:
        frame = result.to_frame()
        frame.index = pd.RangeIndex(1, len(frame) + 1, name="row")
        out.frame = frame
    return out


_COMMANDS = {
    "kappa": _cmd_kappa,
    "multi": _cmd_multi,
    "icc": _cmd_icc,
    "error-rate": _cmd_error_rate,
    "report": _cmd_report,
    "agreement": _cmd_agreement,
    "datasets": _cmd_datasets,
    "plan": _cmd_plan,
    "gstudy": _cmd_gstudy,
}


# -- rendering ---------------------------------------------------------------------------
def _seed(result: Any, out: Output) -> Any:
    """The bootstrap seed behind a result (None when nothing was resampled)."""
    if math.isnan(getattr(result, "n_resamples", math.nan)):
        return None
    return out.seed


def _markdown(frame: Any, index: bool = False) -> str:
    frame = frame.reset_index() if index else frame

    def cell(value: Any) -> str:
        if isinstance(value, float):
            return "" if math.isnan(value) else f"{value:.4g}"
        return "" if value is None else escape_markdown(value)

    lines = ["| " + " | ".join(map(escape_markdown, frame.columns)) + " |",
             "| " + " | ".join("---" for _ in frame.columns) + " |"]
    lines += ["| " + " | ".join(cell(v) for v in row) + " |"
              for row in frame.itertuples(index=False)]
    return "\n".join(lines)


def _render(out: Output, fmt: str) -> str:
    if out.frame is not None:
        frame = out.frame
        if fmt == "text":
            return f"{out.title}\n\n{_text_frame(frame)}\n"
        if fmt == "markdown":
            return f"## {escape_markdown(out.title)}\n\n{_markdown(frame, index=True)}\n"
        if fmt == "html":  # pandas escapes the cells and labels
            return html.html_page(out.title, frame.to_html())
        if fmt == "latex":
            return _latex_frame(frame.reset_index())
        if fmt == "csv":
            return frame.to_csv()
        return json.dumps(jsonable(frame.reset_index().to_dict(orient="records")), indent=2) + "\n"
    if out.summary is not None and fmt in ("text", "html", "latex"):
        # a result with a summary of its own (the error-rate test): add what reading found
        summary = out.summary
        if out.notes or out.info[1:]:
            summary.add_extra_txt([f"{k} {v}" for k, v in out.info[1:]] + out.notes)
        if fmt == "text":
            return summary.as_text() + "\n\nReport:\n" + "\n".join(
                f"- {s}" for s in out.sentences) + "\n"
        if fmt == "html":
            items = "".join(f"<li>{html.escape_html(s)}</li>" for s in out.sentences)
            return html.html_page(out.title,
                             summary.as_html() + f"\n<ul class=\"irr-report\">{items}</ul>")
        return summary.as_latex() + "\n\n\\begin{itemize}\n" + "\n".join(
            f"\\item {escape_latex(s)}" for s in out.sentences) + "\n\\end{itemize}\n"
    report = out.report or ReliabilityReport(
        title=out.title, data=out.data, results=tuple(out.results), info=tuple(out.info),
        notes=tuple(out.notes), narrative="sentences" if out.sentences else "none",
        seed=out.seed)
    # the results' notes name Python arguments (`distribution='t'`): the flags here
    report = dataclasses.replace(report, results=tuple(map(_cli_noted, report.results)))
    return report.render(fmt)


def _cli_noted(result: Any) -> Any:
    """`result` with the Python arguments its notes name as flags (:func:`cli_words`)."""
    notes = tuple(cli_words(note) for note in result.notes)
    ci_note = cli_words(result.ci.note)  # "not clipped ... (`ci_clip=False`)"
    if ci_note != result.ci.note:
        result = dataclasses.replace(result, ci=dataclasses.replace(result.ci, note=ci_note))
    return result if notes == tuple(result.notes) else dataclasses.replace(result, notes=notes)


def _text_frame(frame: Any, width: int = 100) -> str:
    """A plain frame as text: a one-column frame of fields as ``field: value`` lines wrapped
    to `width`, else a table with its text columns aligned left."""
    if list(frame.columns) == ["value"]:
        labels = [f"{field}:" for field in frame.index]
        indent = max(map(len, labels)) + 2
        return "\n".join(
            textwrap.fill(str(value), width, initial_indent=label.ljust(indent),
                          subsequent_indent=" " * indent)
            for label, value in zip(labels, frame["value"], strict=True))
    text = frame.copy()
    for column in frame.columns:
        if pd.api.types.is_string_dtype(frame[column]):  # left-aligned, header too
            wide = max(len(str(column)), *(len(str(v)) for v in frame[column]))
            text[column] = [str(v).ljust(wide) for v in frame[column]]
            text = text.rename(columns={column: str(column).ljust(wide)})
    return "\n".join(line.rstrip() for line in text.to_string().splitlines())


def _latex_frame(frame: Any) -> str:
    columns = list(frame.columns)
    lines = ["\\begin{tabular}{" + "l" * len(columns) + "}", "\\toprule",
             " & ".join(escape_latex(c) for c in columns) + " \\\\", "\\midrule"]
    for row in frame.itertuples(index=False):
        lines.append(" & ".join(escape_latex(v) for v in row) + " \\\\")
    lines += ["\\bottomrule", "\\end{tabular}"]
    return "\n".join(lines) + "\n"


# -- output ------------------------------------------------------------------------------
def _same_file(a: str, b: str) -> bool:
    try:
        return os.path.samefile(a, b)
    except OSError:
        return os.path.realpath(a) == os.path.realpath(b)


def _prepare_output(args: argparse.Namespace, option: str = "output") -> Target | None:
    """Check --output (or the file of another `option`, e.g. --plot) before any
    computation and create its temporary file (:class:`irr._files.Target`: a regular
    file, never a symbolic link, replaced only with --force); None for stdout."""
    flag = f"--{option}"
    shown = getattr(args, option, None)
    if shown is None or (shown == "-" and option == "output"):
        return None
    if not shown.strip():
        raise CommandError(f"{flag} is empty: give a file name"
                           + (", or '-' for stdout" if option == "output" else ""))
    target = Target(shown, flag, "pass --force to overwrite it", args.force)
    source = getattr(args, "file", None)
    same = source not in (None, "-") and os.path.lexists(shown) and _same_file(shown, source)
    try:
        target.check()
    except FileExistsError:
        if not same:
            raise
    if same:
        raise CommandError(f"refusing to overwrite the input file {source!r} with {flag}")
    target.reserve()
    return target


def _prepare_plot(args: argparse.Namespace) -> Target | None:
    """Check --plot (its suffix, matplotlib, that it is not --output) before any
    computation, as --output is checked."""
    shown = getattr(args, "plot", None)
    if shown is None:
        return None
    suffix = os.path.splitext(shown)[1].lower()
    if suffix not in PLOT_SUFFIXES:
        raise CommandError(f"--plot must name a {', '.join(PLOT_SUFFIXES)} file; got "
                           f"{shown!r}")
    output = getattr(args, "output", None)
    if output not in (None, "-") and (os.path.abspath(output) == os.path.abspath(shown)
                                      or _same_file(output, shown)):
        raise CommandError(f"--plot and --output name the same file {shown!r}")
    try:
        import matplotlib  # noqa: F401
    except ImportError:
        raise CommandError("--plot needs matplotlib (pip install 'irrstats[plot]')") from None
    return _prepare_output(args, "plot")


# -- main --------------------------------------------------------------------------------
def _show_warning(message: Any, category: type, filename: str, lineno: int,
                  file: Any = None, line: Any = None) -> None:
    print(f"irr: warning: {_first_line(str(message))}", file=sys.stderr)


def _cmd_app(args: argparse.Namespace) -> int:
    """``irr app``: serve the page until Ctrl-C (irr.app is imported only here: it needs
    the app extra)."""
    datasets = irr.datasets
    if args.dataset is not None and args.dataset not in datasets.names():
        try:
            datasets.load(args.dataset)  # its message names the bundled ones
        except (ValueError, KeyError) as exc:
            print(f"irr: error: {_first_line(exc)}", file=sys.stderr)
            return 1
    try:
        app = importlib.import_module("irr.app")
    except ImportError as exc:
        if args.debug or args.debug_all:
            raise
        print(f"irr: error: irr app needs {exc.name or 'its web server'}: pip install "
              "\"irrstats[app]\"", file=sys.stderr)
        return 1
    try:
        return app.serve(args.port, open_browser=not args.no_browser, dataset=args.dataset,
                         max_upload=args.max_upload)
    except OSError as exc:
        print(f"irr: error: cannot serve on port {args.port}: {exc.strerror or exc}",
              file=sys.stderr)
        return 1


def main(argv: Sequence[str] | None = None) -> int:
    """Run the ``irr`` command; returns the exit status (0 ok, 1 error, 2 usage, 130
    interrupted)."""
    parser = _parser(_command_of(argv))
    args = parser.parse_args(argv)
    if args.command == "app":
        return _cmd_app(args)
    _check_inference(parser, args)
    args.input_notes, args.input_info = [], []  # what reading the input found, for the header
    args.names = set()  # the data's columns and raters, once read
    debug = args.debug or args.debug_all
    target = plot = None
    try:
        # The one place warnings are caught process-wide (here and in _call): the command
        # owns its process, prints warnings as one line and turns data warnings into notes
        # of its output; the state is restored on return. Library code (irr.by) does not.
        with warnings.catch_warnings():
            if not debug:
                warnings.showwarning = _show_warning
            target = _prepare_output(args)
            plot = _prepare_plot(args)
            out = _COMMANDS[args.command](args)
            _with_scale(out, getattr(args, "scale", None))
            text = _render(out, args.format)
            if args.format == "csv":  # a table has no room for notes: what reading found
                for note in getattr(args, "input_notes", ()):
                    print(f"irr: note: {note}", file=sys.stderr)
                flags = {f.name: f for f in INFERENCE_FLAGS}
                for name, value in _inference(args).items():
                    print(f"irr: note: {flags[name].shown(value)} in effect; the text and "
                          "JSON output say which statistics it applies to", file=sys.stderr)
            if plot is not None and out.figure is not None:
                plot.commit(out.figure)
            if target is None:
                sys.stdout.write(text)
            else:
                target.commit(text)
    except KeyboardInterrupt:
        if debug:
            raise
        print("irr: interrupted", file=sys.stderr)
        return 130  # 128 + SIGINT, as a shell reports a process killed by Ctrl-C
    except MemoryError:
        if debug:
            raise
        print("irr: error: out of memory; the data (or --n-resamples) are too large for "
              "this machine", file=sys.stderr)
        return 1
    except (CommandError, ValueError, TypeError, OSError, ImportError, KeyError) as exc:
        if debug:
            raise
        message = _first_line(exc, args.names, getattr(args, "flags", None))
        if isinstance(exc, KeyError):
            message = f"unknown name {exc.args[0]!r}" if exc.args else "unknown name"
        elif isinstance(exc, OSError) and exc.strerror:
            message = f"{exc.strerror}: {exc.filename!r}" if exc.filename else exc.strerror
        print(f"irr: error: {message}", file=sys.stderr)
        return 1
    finally:
        for written in (target, plot):
            if written is not None:
                written.discard()
    return 0


if __name__ == "__main__":
    sys.exit(main())
