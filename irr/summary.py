"""statsmodels ``Summary`` tables built from result objects; nothing here computes.

Every number printed comes from a result's fields (the same ones ``to_frame()`` returns),
so the text and the data cannot drift apart.
"""

from __future__ import annotations

import copy
import html
import math
import re
from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

import numpy as np

if TYPE_CHECKING:
    from statsmodels.iolib.summary import Summary

    from irr.results import Result

__all__ = ["escape_html", "escape_latex", "escape_markdown", "listwise_note", "new_summary",
           "results_summary"]


def listwise_note(dropped: int) -> list[str]:
    """The note on subjects left out for a missing rating, if any (one wording for
    every coefficient, so a summary can tell it from other notes)."""
    if dropped:
        return [f"{dropped} subject(s) with a missing rating were left out (listwise)."]
    return []


def format_estimate(value: float | None, digits: int = 4) -> str:
    """A float with `digits` decimals; empty for None or nan."""
    if value is None or (isinstance(value, float) and math.isnan(value)):
        return ""
    return f"{value:.{digits}f}"


def format_pvalue(value: float | None) -> str:
    """A p-value with four decimals, ``<0.0001`` below that; empty for nan."""
    if value is None or math.isnan(value):
        return ""
    return "<0.0001" if value < 0.0001 else f"{value:.4f}"


def header_table(facts: Sequence[tuple[str, str]], title: str) -> Any:
    """The facts as a two-column statsmodels ``SimpleTable`` (key: value, key: value)."""
    from statsmodels.iolib.table import SimpleTable
    from statsmodels.iolib.tableformatting import fmt_2cols

    facts = list(facts)
    half = (len(facts) + 1) // 2
    left, right = facts[:half], facts[half:]
    right += [("", "")] * (len(left) - len(right))
    header_rows = [[lv, rk, rv] for (_, lv), (rk, rv) in zip(left, right, strict=True)]
    header_format = copy.deepcopy(fmt_2cols)
    header_format.update(data_fmts=["%s"], data_aligns="rlr", colsep="   ")
    return SimpleTable(
        header_rows,
        stubs=[k for k, _ in left],
        title=title,
        txt_fmt=header_format,
    )


def _level(level: float) -> str:
    return f"{100 * level:g}%"


_LATEX_SPECIAL = {"\\": r"\textbackslash{}", "&": r"\&", "%": r"\%", "$": r"\$", "#": r"\#",
                  "_": r"\_", "{": r"\{", "}": r"\}", "~": r"\textasciitilde{}",
                  "^": r"\textasciicircum{}", "<": r"\textless{}", ">": r"\textgreater{}",
                  "|": r"\textbar{}", "\n": " ", "\r": " "}
# what Markdown (or the HTML it passes through) would interpret: emphasis, code, links
# (brackets suffice: "(" only matters after "]"), tags, headings, table cells, strikethrough;
# "&" only where it would begin an entity
_MARKDOWN_SPECIAL = frozenset("\\`*_[]<>#|~")
_ENTITY = re.compile(r"&(?=#?[A-Za-z0-9]+;)")


def escape_latex(text: Any) -> str:
    """`text` as LaTeX source that prints it literally (``& % $ # _ { } ~ ^ \\ < > |``
    escaped, line breaks as spaces).

    Examples
    --------
    >>> print(escape_latex("50%_&"))
    50\\%\\_\\&
    """
    return "".join(_LATEX_SPECIAL.get(ch, ch) for ch in str(text))


def escape_markdown(text: Any) -> str:
    """`text` as Markdown that prints it literally: punctuation that Markdown (or the
    HTML it passes through) would interpret is backslash-escaped, line breaks become
    spaces, so a table cell stays one cell.

    Examples
    --------
    >>> print(escape_markdown("a|b <script> (Landis & Koch) &amp;"))
    a\\|b \\<script\\> (Landis & Koch) \\&amp;
    """
    text = str(text).replace("\r\n", " ").replace("\n", " ").replace("\r", " ")
    text = "".join("\\" + ch if ch in _MARKDOWN_SPECIAL else ch for ch in text)
    return _ENTITY.sub(r"\\&", text)


def escape_html(text: Any) -> str:
    """`text` as HTML element content that prints it literally (``< > &`` as entities).

    Examples
    --------
    >>> escape_html("<script>")
    '&lt;script&gt;'
    """
    return html.escape(str(text), quote=False)


def _escaped(table: Any, escape: Any) -> Any:
    """A copy of a statsmodels ``SimpleTable`` with every text cell and the title escaped."""
    table = copy.deepcopy(table)
    for row in table:
        for cell in row:
            if isinstance(cell.data, str):
                cell.data = escape(cell.data)
    if table.title:
        table.title = escape(table.title)
    return table


def _summary_class() -> type:
    """statsmodels' Summary, with LaTeX output that keeps each table's own columns and
    HTML and LaTeX that escape every text (rater names, titles, notes)."""
    from statsmodels.iolib.summary import Summary

    class AgreementSummary(Summary):
        """A statsmodels ``Summary``; ``as_latex()`` gives one tabular per table.

        (statsmodels merges all tables into one tabular, which breaks when they have
        different numbers of columns.) ``as_html()`` and ``as_latex()`` escape the text
        of every cell, the titles and the notes, so a rater named ``<script>`` or
        ``50%_&`` prints as itself.
        """

        def as_latex(self) -> str:
            # statsmodels' own replacements are partial (no braces, ~, ^, backslash, <):
            # cells are escaped here, and its replacements turned off
            latex = "\n".join(_escaped(table, escape_latex).as_latex_tabular(replacements={})
                               for table in self.tables)
            if self.extra_txt is not None:
                lines = self.extra_txt.split("\n")
                latex += "\n\n" + " \\newline\n ".join(map(escape_latex, lines))
            return latex

        def as_html(self) -> str:
            text = "\n".join(_escaped(table, escape_html).as_html() for table in self.tables)
            if self.extra_txt is not None:
                lines = self.extra_txt.split("\n")
                text += "<br/><br/>" + "<br/>".join(map(escape_html, lines))
            return text

        def _repr_html_(self) -> str:
            return self.as_html()

        def __reduce__(self) -> tuple[Any, ...]:  # a local class: rebuilt by new_summary
            return (new_summary, (), self.__dict__)

    return AgreementSummary


def new_summary() -> Summary:
    """An empty statsmodels ``Summary`` whose HTML and LaTeX escape their text."""
    return _summary_class()()


def results_summary(
    results: Sequence[Result],
    title: str,
    info: Sequence[tuple[str, str]] = (),
    notes: Sequence[str] = (),
) -> Summary:
    """One statsmodels ``Summary``: a header of facts, one row per result, then notes.

    Parameters
    ----------
    results : sequence of Result
        The rows, in order.
    title : str
        The table's title.
    info : sequence of (str, str)
        Extra facts for the header (subjects, raters, categories ...). The number of
        subjects, the missing ratings and the interval method are added from the results.
    notes : sequence of str
        Lines printed under the table, after the results' own notes.

    Notes
    -----
    The header's subjects are the first row's, and so is "Missing (dropped)" when every
    row left out the same subjects; otherwise each row that left subjects out (or used
    another number of subjects) gets a note saying its own counts. A row whose raters
    differ from the first row's gets a note too, and
    when some subjects have missing ratings that a row used in part (Fleiss-type
    coefficients, alpha) the header also counts the subjects with missing ratings.
    """
    from statsmodels.iolib.table import SimpleTable
    from statsmodels.iolib.tableformatting import fmt_params

    first = results[0]
    facts = list(info)
    # rows that leave out different subjects share no "Missing (dropped)" count: the
    # header gives the first row's subjects and a note each row's own counts
    uniform = all((r.n_subjects, r.n_missing) == (first.n_subjects, first.n_missing)
                  for r in results)
    facts.append(("Subjects:", str(first.n_subjects)))
    if uniform:
        facts.append(("Missing (dropped):", str(first.n_missing)))
    incomplete = max(r.n_incomplete for r in results)
    if incomplete and any(r.n_incomplete != r.n_missing for r in results):
        facts.append(("With missing ratings:", str(incomplete)))
    if first.raters:
        facts.append(("Raters:", ", ".join(first.raters)))
    level = first.ci.confidence_level
    facts.append(("CI level:", _level(level)))
    facts.append(("CI method:", ", ".join(dict.fromkeys(r.ci.method for r in results))))
    drawn = [r for r in results if not math.isnan(r.n_resamples)]
    if drawn:
        boot = drawn[0].bootstrap
        facts.append(("Bootstrap:", f"{boot.n_resamples} resamples of {boot.resampling}"))
        if not any(name == "Bootstrap seed:" for name, _ in facts):  # the CLI states it
            facts.append(("Bootstrap seed:", ", ".join(dict.fromkeys(str(r.seed) for r in drawn))))
    if any(not math.isnan(r.pvalue) for r in results):
        facts.append(("Alternative:", first.alternative))
    header = header_table(facts, title)

    tail = (1 - level) / 2
    kinds = {r.statistic_name for r in results if not math.isnan(r.statistic)}
    stat = kinds.pop() if len(kinds) == 1 else "stat" if kinds else "z"
    # a one-sided interval has one end at the parameter's bound, not at a quantile
    ends = (["[lower", "upper]"] if any(r.ci.note.startswith("one-sided") for r in results)
            else [f"[{tail:g}", f"{1 - tail:g}]"])
    columns = ["estimate", "std err", stat, f"P>|{stat}|" if stat == "z" else "p-value", *ends]
    rows = [
        [
            format_estimate(r.estimate),
            format_estimate(r.se),
            format_estimate(r.statistic, 0 if r.statistic_name == "errors" else 3),
            format_pvalue(r.pvalue),
            format_estimate(r.ci.low, 3),
            format_estimate(r.ci.high, 3),
        ]
        for r in results
    ]
    body = SimpleTable(
        rows,
        headers=columns,
        stubs=[r.coefficient for r in results],
        txt_fmt=copy.deepcopy(fmt_params),
    )

    summary = new_summary()
    summary.tables.extend([header, body])
    bands = [(r.coefficient, *r.interpretation_labels()) for r in results]
    bands = [row for row in bands if row[1]]
    band_notes = []
    if bands:
        with_benchmark = any(row[2] for row in bands)
        headers = ["band", f"{_level(level)} benchmark"][: 1 + with_benchmark]
        band_format = copy.deepcopy(fmt_params)
        band_format.update(data_fmts=["%s"], data_aligns="l", header_align="l", colwidths=16)
        summary.tables.append(
            SimpleTable(
                [list(row[1 : 1 + len(headers)]) for row in bands],
                headers=headers,
                stubs=[row[0] for row in bands],
                txt_fmt=band_format,
            )
        )
        for citation in dict.fromkeys(row[3] for row in bands):
            band_notes.append(f"Bands: {citation}.")
        if with_benchmark:
            band_notes.append(
                "Benchmark: the highest band whose cumulative probability reaches the CI "
                "level (Gwet, 2014), from the normal law with the SE truncated to [-1, 1], or "
                "from the bootstrap replicates."
            )
    lines: list[str] = []
    # rows that left out different subjects: each row's own count note below replaces
    # the listwise notes, which do not say which rows they belong to
    replaced = set() if uniform else {n for r in results for n in listwise_note(r.n_missing)}
    for r in results:
        lines.extend(n for n in r.notes if n not in lines and n not in replaced)
        if not math.isnan(r.n_resamples) and np.any(r.bootstrap.n_undefined):
            lines.append(
                f"{r.coefficient}: {int(np.sum(r.bootstrap.n_undefined))} of "
                f"{r.bootstrap.n_resamples} bootstrap resamples were undefined and left out."
            )
    differ: dict[str, list[str]] = {}
    for r in results:
        if not uniform and (r.n_missing or r.n_subjects != first.n_subjects):
            fact = (f"{r.n_subjects} subjects, {r.n_missing} left out for a missing rating"
                    " (listwise)."
                    if r.n_missing else f"{r.n_subjects} subjects.")
            differ.setdefault(fact, []).append(r.coefficient)
        if tuple(r.raters) != tuple(first.raters):
            differ.setdefault(f"raters {', '.join(r.raters) or '(none named)'}.", []).append(
                r.coefficient)
    lines.extend(f"{', '.join(names)}: {fact}" for fact, names in differ.items())
    clipped = [r.coefficient for r in results if r.ci.note.startswith("clipped")]
    if clipped:
        lines.append(f"Wald interval clipped to the coefficient's range: {', '.join(clipped)}.")
    for r in results:  # why an interval is undefined or excludes its estimate
        if r.ci.note and not r.ci.note.startswith("clipped"):
            lines.append(f"{r.coefficient}: {r.ci.method_name} interval {r.ci.note}.")
    lines.extend(band_notes)
    lines.extend(notes)
    if lines:
        summary.add_extra_txt([f"[{i}] {line}" for i, line in enumerate(lines, start=1)])
    return summary
