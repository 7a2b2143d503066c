"""What the page does with the data: read a preview, detect the layout, and run ``irr``.

The page never computes a statistic itself. It reads the file only to show a preview and
what it detected (layout, identifier columns, raters, scale, missing-value codes,
replicates); the report is made by the command line, :func:`irr.cli.main`, on the same
file with the flags the user's choices spell (:func:`report_arguments`). So the page's
numbers, notes and one-line error messages are the command line's, and the page can show
the command that gives the same report.
"""

from __future__ import annotations

import contextlib
import io
import os
import re
import threading
import warnings
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

import pandas as pd

from irr import datasets
from irr._columns import choose_columns, replicate_columns
from irr.agreement import Agreement
from irr.app.vocabulary import recommended_statistics
from irr.cli import main as cli_main
from irr.registry import scale_type

__all__ = ["KINDS", "Choices", "CommandResult", "Detected", "detect", "missing_codes", "read_preview",
           "report_arguments", "run_command", "stored_name", "suffix_kind"]

#: File suffixes the page takes, by what reads them.
KINDS = {".csv": "csv", ".txt": "csv", ".tsv": "tsv", ".tab": "tsv", ".parquet": "parquet",
         ".pq": "parquet", ".xlsx": "excel", ".xlsm": "excel"}
#: Rows shown in the preview.
PREVIEW_ROWS = 8
#: Column names that mark long data: one row per rating.
_LONG_WORDS = {
    "subject": ("subject", "patient", "case", "item", "unit", "participant", "id"),
    "rater": ("rater", "coder", "observer", "judge", "reader", "annotator", "assessor",
              "examiner", "method"),
    "rating": ("rating", "score", "value", "grade", "label", "measurement"),
}

# One command at a time: the command line owns the process's warnings filters and its
# standard streams while it runs, so the threads serving several tabs take turns.
_LOCK = threading.Lock()


def suffix_kind(name: str) -> tuple[str, str]:
    """(suffix, kind) of an uploaded file's name: the kind reads it (``csv``, ``tsv``,
    ``parquet``, ``excel``); other suffixes read as text whose delimiter is sniffed.

    Examples
    --------
    >>> suffix_kind("Ratings.TSV"), suffix_kind("notes")
    (('.tsv', 'tsv'), ('.txt', 'csv'))
    """
    match = re.search(r"(\.[A-Za-z0-9]{1,8})$", name.strip())
    suffix = match.group(1).lower() if match else ""
    if suffix in KINDS:
        return suffix, KINDS[suffix]
    return ".txt", "csv"


def stored_name(name: str) -> str:
    """The name an uploaded file is stored under: its name with every character other
    than letters, digits, ``.``, ``_`` and ``-`` replaced by ``_``, its suffix one the
    page reads (:func:`suffix_kind`), never starting with ``-`` or ``.``.

    Examples
    --------
    >>> stored_name("Grades 2024.CSV"), stored_name("<b>x</b>.csv"), stored_name("-rf")
    ('Grades_2024.csv', '_b_x__b_.csv', 'data-rf.txt')
    """
    suffix, _ = suffix_kind(name)
    stem = re.sub(r"\.[A-Za-z0-9]{1,8}$", "", name.strip())
    stem = re.sub(r"[^A-Za-z0-9._-]", "_", stem)[:100] or "data"
    if stem[0] in "-.":
        stem = "data" + stem
    return stem + suffix


def read_preview(path: str | None, kind: str, na_values: Sequence[str] = (),
                 dataset: str | None = None) -> pd.DataFrame:
    """The data as the command line reads them (pandas' missing-value markers plus
    `na_values`), for the preview and the detection only."""
    if dataset is not None:
        return datasets.load(dataset)
    if kind == "parquet":
        return pd.read_parquet(path)
    sep = "\t" if kind == "tsv" else ","
    with open(path, encoding="utf-8-sig", errors="replace") as handle:
        first = handle.readline()
    if kind == "csv" and "\t" in first and "," not in first:
        sep = "\t"
    frame = pd.read_csv(path, sep=sep, na_values=list(na_values) or None,
                        encoding="utf-8-sig", encoding_errors="replace")
    return frame.loc[~frame.isna().all(axis=1)]


def missing_codes(frame: pd.DataFrame) -> list[str]:
    """Codes that look like missing ratings: the few (at most 3) non-numbers in columns
    that are otherwise numbers, such as SAS's ``.`` or ``n/a``, which the command line
    refuses until ``--na-values`` names them.

    Examples
    --------
    >>> df = pd.DataFrame({"a": ["1", "2", ".", "3"], "b": ["x", "y", "x", "z"]})
    >>> missing_codes(df)
    ['.']
    """
    codes: dict[str, None] = {}
    for column in frame.columns:
        values = frame[column]
        if pd.api.types.is_numeric_dtype(values.dtype) or isinstance(
                values.dtype, pd.CategoricalDtype):
            continue
        present = values.dropna()
        numbers = pd.to_numeric(present, errors="coerce")
        others = present[numbers.isna()].astype(str)
        tokens = sorted(set(others))
        if 0 < len(tokens) <= 3 and numbers.notna().sum() > len(others):
            codes.update(dict.fromkeys(tokens))
    return list(codes)


@dataclass
class Detected:
    """What the page found in the data, and what the user can correct."""

    layout: str  #: "wide" (one row per subject) or "long" (one row per rating)
    columns: list[str]
    ids: list[str] = field(default_factory=list)
    raters: list[str] = field(default_factory=list)
    subject: str | None = None
    rater: str | None = None
    rating: str | None = None
    scale: str = ""  #: nominal, ordinal or continuous
    categories: list[str] = field(default_factory=list)
    recommended: list[str] = field(default_factory=list)
    replicates: str = ""
    problem: str = ""  #: why the raters could not be found ("" when they were)

    def to_dict(self) -> dict[str, Any]:
        return dict(self.__dict__)


def _long_columns(columns: list[str]) -> dict[str, str] | None:
    """The subject, rater and rating columns of long data, found by their names."""
    found: dict[str, str] = {}
    for role, words in _LONG_WORDS.items():
        for column in columns:
            words_of = re.split(r"[^a-z]+", column.lower())
            if column not in found.values() and any(w in words_of for w in words):
                found[role] = column
                break
    return found if len(found) == 3 else None


def detect(frame: pd.DataFrame, layout: str | None = None, ids: Sequence[str] | None = None,
           raters: Sequence[str] | None = None, long: dict[str, str] | None = None
           ) -> Detected:
    """The layout, identifier and rater columns, scale and recommended statistics of
    `frame`, as the command line would find them; the arguments override the detection
    (the user's corrections).

    Examples
    --------
    >>> df = pd.DataFrame({"patient": ["a", "b", "c"], "x": [1, 2, 2], "y": [1, 2, 1]})
    >>> d = detect(df)
    >>> d.layout, d.ids, d.raters, d.scale, d.recommended
    ('wide', ['patient'], ['x', 'y'], 'nominal', ['percent', 'kappa', 'alpha_nominal'])
    """
    with _LOCK:  # its warnings filters must not meet a command's (see run_command)
        return _detect(frame, layout, ids, raters, long)


def _detect(frame: pd.DataFrame, layout: str | None, ids: Sequence[str] | None,
            raters: Sequence[str] | None, long: dict[str, str] | None) -> Detected:
    columns = [str(c) for c in frame.columns]
    frame = frame.set_axis(columns, axis=1)
    guess = _long_columns(columns) if len(columns) <= 5 else None
    layout = layout or ("long" if guess else "wide")
    out = Detected(layout=layout, columns=columns)
    if layout == "long":
        roles = {**(guess or {}), **(long or {})}
        out.subject, out.rater, out.rating = (roles.get(r) for r in _LONG_WORDS)
        if None in (out.subject, out.rater, out.rating):
            out.problem = "Choose the subject, rater and rating columns of the long data."
            return out
        pairs = frame.groupby([out.subject, out.rater], dropna=True).size()
        if (pairs > 1).any():
            out.replicates = (f"{int((pairs > 1).sum()):,} subject-rater pairs have more than "
                              "one rating (replicates)")
        try:
            with warnings.catch_warnings():
                warnings.simplefilter("ignore")
                ag = Agreement.from_long(frame, subject=out.subject, rater=out.rater,
                                         rating=out.rating, continuous=None)
        except (ValueError, TypeError) as exc:
            out.problem = str(exc).strip().splitlines()[0]
            return out
        out.raters = [str(r) for r in ag.raters]
        return _describe(out, ag, frame, out.raters, long=True)
    try:
        choice = choose_columns(frame, list(raters) if raters else None,
                                list(ids) if ids else None, raters_option="--raters",
                                id_option="--id")
    except ValueError as exc:
        out.ids = list(ids or [])
        out.raters = [c for c in columns if c not in out.ids]
        out.problem = str(exc).strip().splitlines()[0]
        return out
    out.ids = [str(c) for c in choice.ids]
    out.raters = [str(c) for c in choice.raters]
    groups = replicate_columns(out.raters)
    if groups:
        counts = sorted({len(c) for c in groups.values()})
        out.replicates = (f"{', '.join(out.raters)} look like {len(groups)} methods "
                          f"({', '.join(groups)}) read {' or '.join(map(str, counts))} "
                          "times each")
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            ag = Agreement.from_frame(frame, out.raters, continuous=None)
    except (ValueError, TypeError) as exc:
        out.problem = str(exc).strip().splitlines()[0]
        return out
    return _describe(out, ag, frame, out.raters, long=False)


def _describe(out: Detected, ag: Agreement, frame: pd.DataFrame, raters: list[str],
              long: bool) -> Detected:
    facts = ag.facts
    n_categories = 0 if ag.continuous or facts.continuous else len(ag.categories)
    out.scale = scale_type(facts, n_categories)
    if not (ag.continuous or facts.continuous):
        out.categories = [str(c) for c in ag.categories]
    out.recommended = list(recommended_statistics(facts, n_categories))
    return out


@dataclass
class Choices:
    """The user's choices on the page, as the command line's flags take them."""

    layout: str = "wide"
    ids: list[str] = field(default_factory=list)
    raters: list[str] = field(default_factory=list)
    subject: str = ""
    rater: str = ""
    rating: str = ""
    na_values: list[str] = field(default_factory=list)
    categories: list[str] = field(default_factory=list)
    statistics: list[str] = field(default_factory=list)  #: [] recommended; ["all"]
    ci: str = ""
    confidence_level: str = "0.95"
    n_resamples: str = "9999"
    seed: str = "0"
    scale: str = ""
    style: str = "apa"

    @classmethod
    def from_json(cls, data: Any) -> Choices:
        """The choices of a request's JSON body; unknown keys are refused."""
        if not isinstance(data, dict):
            raise ValueError("the request must be a JSON object of choices")
        known = set(cls.__dataclass_fields__)
        unknown = sorted(set(data) - known)
        if unknown:
            raise ValueError(f"unknown choice(s) {unknown}")
        values: dict[str, Any] = {}
        for key, value in data.items():
            default = cls.__dataclass_fields__[key].default
            if isinstance(default, str):
                if not isinstance(value, (str, int, float)) or isinstance(value, bool):
                    raise ValueError(f"choice {key!r} must be text")
                values[key] = str(value)
            else:
                if not isinstance(value, list) or not all(isinstance(v, str) for v in value):
                    raise ValueError(f"choice {key!r} must be a list of text")
                values[key] = list(value)
        return cls(**values)


def _clean(name: str) -> bool:
    """Whether the command line's --id can name this column (it splits at commas and
    strips blanks)."""
    return "," not in name and name == name.strip() and bool(name)


def report_arguments(source: list[str], choices: Choices, detected: Detected) -> list[str]:
    """The ``irr report`` arguments (after the subcommand) of `choices` on the data
    `source` names (a file, or ``--dataset NAME``); the output flags are added by the
    caller. Flags are given only where the choices differ from what the command line finds
    by itself, so the command stays short.

    Examples
    --------
    >>> d = Detected("wide", ["patient", "a", "b"], ids=["patient"], raters=["a", "b"])
    >>> report_arguments(["data.csv"], Choices(na_values=["."], statistics=["kappa"]), d)
    ['data.csv', '--na-values=.', '--statistics=kappa']
    >>> report_arguments(["data.csv"], Choices(ids=["patient", "a"], raters=["b", "c"]), d)
    ['data.csv', '--id=patient', '--id=a', '--raters', 'b', 'c']
    >>> report_arguments(["data.csv"], Choices(raters=["--force", "b"]), d)
    Traceback (most recent call last):
    ...
    ValueError: '--force' begins with '-', which the command line would read as an option...
    """
    for value in [*choices.raters, *choices.categories]:
        if value.startswith("-") and not re.fullmatch(r"-\d+(\.\d*)?", value):
            raise ValueError(f"{value!r} begins with '-', which the command line would read "
                             "as an option; rename it in the file")
    args = list(source)
    if choices.layout == "long":
        for flag, column in (("--subject", choices.subject), ("--rater", choices.rater),
                             ("--rating", choices.rating)):
            args.append(f"{flag}={column}")
        if choices.raters and choices.raters != detected.raters:
            args += ["--raters", *choices.raters]
    else:
        ids_changed = choices.ids != detected.ids
        raters_changed = bool(choices.raters) and choices.raters != detected.raters
        if ids_changed or raters_changed:
            args += [f"--id={c}" for c in choices.ids if _clean(c)]
            # columns --id cannot name (blanks around, commas): name the raters instead
            if raters_changed or not all(map(_clean, choices.ids)):
                args += ["--raters", *(choices.raters or detected.raters)]
    args += [f"--na-values={v}" for v in choices.na_values if v != ""]
    if choices.categories:
        args += ["--categories", *choices.categories]
    if choices.statistics:
        args.append(f"--statistics={','.join(choices.statistics)}")
    if choices.ci:
        args.append(f"--ci={choices.ci}")
    for flag, value, default in (("--confidence-level", choices.confidence_level, "0.95"),
                                 ("--n-resamples", choices.n_resamples, "9999"),
                                 ("--seed", choices.seed, "0"),
                                 ("--scale", choices.scale, ""),
                                 ("--style", choices.style, "apa")):
        if value.strip() and value.strip() != default:
            args.append(f"{flag}={value.strip()}")
    return args


@dataclass
class CommandResult:
    """What one run of the command line gave: its exit status, its one-line error (""
    when it succeeded) and its notes and warnings (``irr: note:`` lines)."""

    status: int
    error: str = ""
    notes: list[str] = field(default_factory=list)


def run_command(argv: list[str], names: dict[str, str] | None = None,
                cwd: str | os.PathLike[str] | None = None) -> CommandResult:
    """Run ``irr ARGV`` in this process, one command at a time (in the folder `cwd`, so a
    file is named as the user named it, never by its temporary path), and collect its
    one-line error and notes. `names` maps text in its messages to what the user knows
    (the stored file's name to the uploaded file's name).

    Examples
    --------
    >>> run_command(["report", "--dataset", "nonesuch"]).error  # doctest: +ELLIPSIS
    "Unknown data set 'nonesuch'; bundled ones are ..."
    """
    err, out = io.StringIO(), io.StringIO()
    with _LOCK, contextlib.redirect_stderr(err), contextlib.redirect_stdout(out), \
            warnings.catch_warnings():
        warnings.simplefilter("default")  # as in a terminal: the command prints warnings
        here = os.getcwd()
        try:
            if cwd is not None:  # every other path the app uses is absolute
                os.chdir(cwd)
            status = cli_main(argv)
        except SystemExit as exc:  # a usage error: argparse printed it
            status = exc.code if isinstance(exc.code, int) else 2
        finally:
            os.chdir(here)
    lines = err.getvalue().splitlines()
    for old, new in (names or {}).items():
        lines = [line.replace(repr(old), repr(new)).replace(old, new) for line in lines]
    error = ""
    notes = []
    for line in lines:
        if line.startswith("irr: error: "):
            error = line.removeprefix("irr: error: ")
        elif line.startswith(("irr: note: ", "irr: warning: ")):
            notes.append(line.split(": ", 2)[2])
        elif re.match(r"^irr [\w-]+( [\w-]+)?: error: ", line):  # argparse's usage error
            error = line.split(": error: ", 1)[1]
    if status and not error:
        error = next((line for line in reversed(lines) if line.strip()),
                     f"irr stopped with status {status}")
    return CommandResult(status, error, notes)
