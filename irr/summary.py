"""statsmodels ``Summary`` tables built from result objects; nothing here computes.

Every number printed comes from a result's fields (the same ones ``to_frame()`` returns),
so the text and the data cannot drift apart.
"""

from __future__ import annotations

import copy
import math
import re
from collections.abc import Sequence
from itertools import zip_longest
from typing import TYPE_CHECKING, Any

import numpy as np

from irr._html import escape_html
from irr._result_protocol import ResultLike
from irr.vocabulary import interval_label

if TYPE_CHECKING:
    from statsmodels.iolib.summary import Summary

__all__ = ["TextTable", "coincident", "design_fact", "escape_latex", "escape_markdown",
           "listwise_note", "new_summary", "results_summary", "results_tables", "results_text",
           "sparse_design", "subjects_fact", "summary_text"]


def listwise_note(dropped: int) -> list[str]:
    """The note on subjects left out for a missing rating, if any (one wording for
    every coefficient, so a summary can tell it from other notes)."""
    if dropped:
        return [f"{dropped} subject(s) with a missing rating were left out (listwise)."]
    return []


def _subjects(count: int) -> str:
    return f"{count:,} subject" if count == 1 else f"{count:,} subjects"


def subjects_fact(used: int, dropped: int, listwise: bool = True) -> tuple[str, str]:
    """The header fact on the subjects a statistic used: ``("Subjects:", "20")``, or
    with subjects left out ``("Subjects used:", "13 of 20 (listwise)")``: "listwise"
    (the word of :func:`listwise_note`) when every subject with a missing rating was
    left out, not when only some were (alpha leaves out units with fewer than two).

    Examples
    --------
    >>> subjects_fact(20, 0), subjects_fact(13, 7)
    (('Subjects:', '20'), ('Subjects used:', '13 of 20 (listwise)'))
    >>> subjects_fact(19, 1, listwise=False), subjects_fact(7477, 0)
    (('Subjects used:', '19 of 20'), ('Subjects:', '7,477'))
    """
    if dropped:
        return ("Subjects used:",
                f"{used:,} of {used + dropped:,}" + (" (listwise)" if listwise else ""))
    return ("Subjects:", f"{used:,}")


def sparse_design(n_raters: int, fewest: int, most: int) -> bool:
    """Whether each subject was rated by a few of many raters by design (a crowd's
    annotations): more than two raters and none of the subjects rated by more than half of
    them. Its empty subject-by-rater cells are the design, not missing ratings.

    Examples
    --------
    >>> sparse_design(50, 3, 5), sparse_design(4, 3, 4), sparse_design(6, 2, 3)
    (True, False, True)
    """
    return n_raters > 2 and most <= n_raters / 2


def design_fact(n_raters: int, fewest: int, most: int) -> tuple[str, str] | None:
    """The header fact of a sparse design (None for another): each subject's number of
    raters among all of them, said instead of missing ratings.

    Examples
    --------
    >>> design_fact(50, 3, 5), design_fact(3, 2, 3)
    (('Design:', 'sparse, each subject rated by 3 to 5 of 50 raters'), None)
    """
    if not sparse_design(n_raters, fewest, most):
        return None
    each = f"{fewest}" if fewest == most else f"{fewest} to {most}"
    return ("Design:", f"sparse, each subject rated by {each} of {n_raters:,} raters")


def format_estimate(value: float | None, digits: int = 4) -> str:
    """A float with `digits` decimals; empty for None or nan. A number of 10^10 or more, or
    a nonzero one that the decimals would show as 0, in scientific notation with `digits`
    decimals (measurements on an extreme scale keep a table readable and their digits).

    Examples
    --------
    >>> format_estimate(0.61234), format_estimate(-2.5e60), format_estimate(3e-61, 3)
    ('0.6123', '-2.5000e+60', '3.000e-61')
    """
    if value is None or (isinstance(value, float) and math.isnan(value)):
        return ""
    size = abs(value)
    if math.isfinite(size) and (size >= 1e10 or 0 < size < 0.5 * 10.0**-digits):
        return f"{value:.{digits}e}"
    return f"{value:.{digits}f}"


def format_pvalue(value: float | None) -> str:
    """A p-value with four decimals, ``<0.0001`` below that; empty for nan."""
    if value is None or math.isnan(value):
        return ""
    return "<0.0001" if value < 0.0001 else f"{value:.4f}"


#: statsmodels' text defaults for a ``SimpleTable`` (``statsmodels.iolib.table.
#: default_txt_fmt``) and the two formats the tables here start from (``fmt_2cols`` and
#: ``fmt_params`` of ``statsmodels.iolib.tableformatting``), copied so that the text is laid
#: out without importing statsmodels (tests/unit/rendering/test_summary.py checks that
#: they are still statsmodels' own).
TXT_DEFAULTS: dict[str, Any] = {
    "fmt": "txt", "table_dec_above": "=", "table_dec_below": "-", "title_align": "c",
    "row_pre": "", "row_post": "", "header_dec_below": "-", "row_dec_below": None,
    "colwidths": None, "colsep": " ", "data_aligns": "r", "data_fmts": ["%s"],
    "stub_align": "l", "header_align": "c", "header_fmt": "%s", "stub_fmt": "%s",
    "header": "%s", "stub": "%s", "empty_cell": "", "empty": "", "missing": "--",
}
_FMT_BASE: dict[str, Any] = {
    "data_fmts": ["%s", "%s", "%s", "%s", "%s"], "empty_cell": "", "colwidths": 10,
    "colsep": " ", "row_pre": "", "row_post": "", "table_dec_above": "=",
    "table_dec_below": "=", "header_dec_below": "-", "header_fmt": "%s", "stub_fmt": "%s",
    "title_align": "c", "header_align": "r", "data_aligns": "r", "stubs_align": "l",
    "fmt": "txt",
}
FMT_2COLS: dict[str, Any] = {**_FMT_BASE, "data_fmts": ["%18s", "-%19s", "%18s", "%19s"],
                             "colsep": " ", "colwidths": 18, "stub_fmt": "-%21s"}
FMT_PARAMS: dict[str, Any] = {**_FMT_BASE,
                              "data_fmts": ["%s", "%s", "%8s", "%s", "%11s", "%11s"]}


def _pad(text: str, width: int, align: str) -> str:
    if align == "l":
        return text.ljust(width)
    if align == "r":
        return text.rjust(width)
    return text.center(width)


class TextTable:
    """A table of cells (rows of data, column headers, row labels called stubs, a
    title) laid out as text exactly as statsmodels' ``SimpleTable`` lays it out, without
    importing statsmodels; :meth:`simple_table` builds the ``SimpleTable`` itself (for
    HTML, LaTeX and the ``Summary`` objects the public ``summary()`` methods return).

    `txt_fmt` are ``SimpleTable``'s text options (over :data:`TXT_DEFAULTS`); the ones
    read here are those the tables of this package use: column widths, separator,
    decorations, data formats and alignments by column, stub and header formats.

    Examples
    --------
    >>> t = TextTable([["0.5", "0.1"]], headers=["estimate", "std err"], stubs=["kappa"],
    ...               txt_fmt=FMT_PARAMS)
    >>> print(t.as_text())
    ================================
              estimate    std err
    --------------------------------
    kappa          0.5        0.1
    ================================
    """

    def __init__(self, data: Sequence[Sequence[Any]], headers: Sequence[str] | None = None,
                 stubs: Sequence[Any] | None = None, title: str = "",
                 txt_fmt: dict[str, Any] | None = None):
        self.data = [list(row) for row in data]
        self.headers = list(headers) if headers else None
        self.stubs = list(stubs) if stubs else None
        self.title = title
        self.txt_fmt = copy.deepcopy(txt_fmt or {})
        self.output_formats = {"txt": {**TXT_DEFAULTS, **self.txt_fmt}}
        # the rows as SimpleTable holds them: (datatype, value) cells, where a data cell's
        # datatype is its column, a header row's stub cell is "empty"; and the option
        # that names the rule below the row (only the last header line has one)
        rows: list[tuple[str | None, list[tuple[Any, Any]]]] = []
        if self.headers:
            lines = list(zip_longest(*(h.split("\n") for h in self.headers), fillvalue=""))
            for i, line in enumerate(lines):
                rows.append(("header_dec_below" if i == len(lines) - 1 else None,
                             [("header", h) for h in line]))
        for row in self.data:
            rows.append(("row_dec_below", list(enumerate(row))))
        if self.stubs:
            stubs_left = iter(self.stubs)
            for _, cells in rows:
                header = bool(cells) and cells[0][0] == "header"
                cells.insert(0, ("empty", "") if header else ("stub", next(stubs_left)))
        self._rows = rows

    @staticmethod
    def _cell(kind: Any, value: Any, width: int, fmt: dict[str, Any]) -> str:
        if isinstance(kind, int):
            formats = fmt.get("data_fmts") or [fmt.get("data_fmt") or "%s"]
            content = formats[kind % len(formats)] % (value,)
            aligns = fmt.get("data_aligns", "c")
            align = aligns[kind % len(aligns)]
        else:
            try:
                content = fmt[kind] % (value,)
            except TypeError:  # a format with no placeholder ("" for the empty cell)
                content = fmt[kind]
            align = ((fmt.get("stubs_align") or fmt.get("stub_align", "l")) if kind == "stub"
                     else fmt.get(f"{kind}_align", "c"))
        return _pad(content, width, align)

    def get_colwidths(self, output_format: str = "txt", **fmt_dict: Any) -> list[int]:
        """The width of each column: its widest cell, at least the requested
        ``colwidths`` (one number, or one per column, repeated)."""
        fmt = {**self.output_formats["txt"], **fmt_dict}
        ncols = max(len(cells) for _, cells in self._rows)
        request = fmt.get("colwidths")
        if request == 0:
            return [0] * ncols
        if request is None:
            request = [0] * ncols
        elif isinstance(request, int):
            request = [request] * ncols
        elif len(request) < ncols:
            request = [request[i % len(request)] for i in range(ncols)]
        widest = [max(len(self._cell(*cell, 0, fmt)) for cell in column)
                  for column in zip(*(cells for _, cells in self._rows), strict=False)]
        return [max(a, b) for a, b in zip(widest, request, strict=False)]

    def as_text(self, **fmt_dict: Any) -> str:
        """The table as text (``colwidths=`` sets the column widths, as for
        ``SimpleTable.as_text``)."""
        fmt = {**self.output_formats["txt"], **fmt_dict}
        widths = self.get_colwidths("txt", **fmt)
        lines = []
        for below, cells in self._rows:
            line = (fmt.get("row_pre", "") + fmt["colsep"].join(
                self._cell(*cell, width, fmt) for cell, width in zip(cells, widths, strict=True))
                + fmt.get("row_post", ""))
            rule = None if below is None else fmt.get(below)
            if rule is not None:
                repeat, rest = divmod(len(line), len(rule))
                line += "\n" + rule * repeat + rule[:rest]
            lines.append(line)
        length = len(lines[-1])
        if fmt.get("table_dec_above", "="):
            lines.insert(0, fmt.get("table_dec_above", "=") * length)
        if self.title:
            lines.insert(0, _pad(self.title, length, fmt.get("title_align", "c")))
        if fmt.get("table_dec_below", "-"):
            lines.append(fmt.get("table_dec_below", "-") * length)
        return "\n".join(lines)

    def simple_table(self) -> Any:
        """The statsmodels ``SimpleTable`` of the same cells and options."""
        from statsmodels.iolib.table import SimpleTable

        return SimpleTable(self.data, headers=self.headers, stubs=self.stubs,
                           title=self.title, txt_fmt=copy.deepcopy(self.txt_fmt))


def header_facts(facts: Sequence[tuple[str, str]], title: str) -> TextTable:
    """The facts as a two-column table (key: value, key: value)."""
    facts = list(facts)
    half = (len(facts) + 1) // 2
    left, right = facts[:half], facts[half:]
    right += [("", "")] * (len(left) - len(right))
    header_rows = [[lv, rk, rv] for (_, lv), (rk, rv) in zip(left, right, strict=True)]
    header_format = {**copy.deepcopy(FMT_2COLS), "data_fmts": ["%s"], "data_aligns": "rlr",
                     "colsep": "   "}
    return TextTable(header_rows, stubs=[k for k, _ in left], title=title,
                     txt_fmt=header_format)


def header_table(facts: Sequence[tuple[str, str]], title: str) -> Any:
    """The facts as a two-column statsmodels ``SimpleTable`` (key: value, key: value)."""
    return header_facts(facts, title).simple_table()


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


def _width(widths: Sequence[int], table: Any) -> int:
    """The width of a text table with these column widths."""
    return sum(widths) + len(table.output_formats["txt"].get("colsep", " ")) * (len(widths) - 1)


def one_width(tables: Sequence[Any]) -> list[str]:
    """The texts of the tables of a summary, each as wide as the widest.

    The first table is the header of facts: its two value columns take the extra width
    evenly. The others (coefficients, bands) get one stub width, so their row labels end
    in the same place, and then any remaining width in their last column. The tables are
    not changed (the widths are passed to ``as_text``).
    """
    widths = [list(t.get_colwidths("txt")) for t in tables]
    if len(tables) < 2:
        return [t.as_text() for t in tables]
    totals = [_width(w, t) for w, t in zip(widths, tables, strict=True)]
    target = max(totals)
    rest = range(1, len(tables))
    stub = max(widths[i][0] for i in rest)
    longest = max(totals[i] + stub - widths[i][0] for i in rest)
    # a short row label widened to the bands' stub can make a table the widest: the
    # others grow to it (a column never narrows below its text)
    target = max(target, longest)
    stub += max(0, target - longest)
    header = widths[0]
    extra = target - totals[0]
    value_columns = [c for c in (1, 3) if c < len(header)] or [len(header) - 1]
    for n, column in enumerate(value_columns):
        header[column] += extra // len(value_columns) + (n < extra % len(value_columns))
    for i in rest:
        columns = widths[i]
        grown = stub - columns[0]
        columns[0] = stub
        columns[-1] += target - (totals[i] + grown)
    return [t.as_text(colwidths=w) for t, w in zip(tables, widths, strict=True)]


def summary_text(tables: Sequence[Any], extra_txt: str | None = None) -> str:
    """The text of a summary: its tables at one width (:func:`one_width`), each table's
    closing rule the next one's opening (as statsmodels joins them), then `extra_txt`."""
    texts = one_width(tables)
    text = "\n".join([t.rsplit("\n", 1)[0] for t in texts[:-1]] + texts[-1:])
    if extra_txt is not None:
        text += "\n\n" + extra_txt
    return text


def _summary_class() -> type:
    """statsmodels' Summary, with LaTeX output that keeps each table's own columns and
    HTML and LaTeX that escape every text (rater names, titles, notes)."""
    from statsmodels.iolib.summary import Summary

    class AgreementSummary(Summary):
        """A statsmodels ``Summary`` that prints as its text; ``as_latex()`` gives one
        tabular per table.

        (statsmodels merges all tables into one tabular, which breaks when they have
        different numbers of columns.) ``as_text()`` sets every table to one width, and
        ``repr()`` is that text, so a summary shows as a table in a REPL. ``as_html()``
        and ``as_latex()`` escape the text of every cell, the titles and the notes, so a
        rater named ``<script>`` or ``50%_&`` prints as itself.
        """

        def as_text(self) -> str:
            return summary_text(self.tables, self.extra_txt)

        def __repr__(self) -> str:
            return self.as_text()

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


_BOOTSTRAP = frozenset({"percentile", "basic", "bca"})


def ci_label(result: ResultLike) -> str:
    """The interval method of `result` as a table names it: ``'Wald'``, ``'Wilson'``,
    ``'exact F'`` (an ICC's exact F-based interval), ``'approx. F'`` (Satterthwaite's),
    ``'BCa'`` ...; empty when there is no interval."""
    method = result.ci.method
    if method == "exact" and result.statistic_name == "F":
        return "exact F"
    return interval_label(method)


def _variant(r: ResultLike) -> tuple[Any, ...]:
    """The coefficient (its result type and symbol: κ for κw, AC for AC1 and AC2, α for
    α (ordinal)) and the weights or level of `r`."""
    symbol = r.symbol.split(" (")[0].removesuffix("w").rstrip("0123456789")
    return (type(r), symbol), (getattr(r, "weights", None), getattr(r, "level", None))


def _same_numbers(a: ResultLike, b: ResultLike) -> bool:
    """Whether two rows are one coefficient with other weights (or another alpha level)
    that prints the same: the same subjects, raters and interval method, with equal
    numbers (to rounding error)."""
    (family_a, options_a), (family_b, options_b) = _variant(a), _variant(b)
    if family_a != family_b or options_a == options_b:
        return False
    if (a.n_subjects, a.n_missing, tuple(a.raters), a.ci.method) != (
            b.n_subjects, b.n_missing, tuple(b.raters), b.ci.method):
        return False
    x = np.array([a.estimate, a.se, a.statistic, a.pvalue, a.ci.low, a.ci.high], dtype=float)
    y = np.array([b.estimate, b.se, b.statistic, b.pvalue, b.ci.low, b.ci.high], dtype=float)
    return bool(np.allclose(x, y, rtol=1e-12, atol=1e-15, equal_nan=True))


def coincident(results: Sequence[ResultLike]) -> tuple[list[ResultLike], list[str]]:
    """The rows without those that repeat an earlier row on two categories (linear and
    quadratic weights, alpha's ordinal and interval levels, all reduce to the
    unweighted/nominal coefficient there), and a note naming them."""
    kept: list[ResultLike] = []
    merged: dict[str, list[str]] = {}
    for r in results:
        twin = next((k for k in kept if len(getattr(r, "categories", ())) == 2
                     and _same_numbers(k, r)), None)
        if twin is None:
            kept.append(r)
        else:
            merged.setdefault(twin.coefficient, []).append(r.coefficient)
    notes = []
    for shown, names in merged.items():
        reason = ("alpha's ordinal and interval distances coincide with the nominal one"
                  if "alpha" in shown else
                  "linear and quadratic weights coincide with unweighted")
        notes.append(f"{' and '.join(names)}: not shown; with two categories {reason}, so "
                     f"{'it equals' if len(names) == 1 else 'they equal'} {shown} exactly.")
    return kept, notes


def rater_list(raters: Sequence[str]) -> str:
    """The raters for a header: all of up to four, else the first two, "..." and the last
    (the full list is in ``result.raters``, the count in the "Rater count" fact).

    Examples
    --------
    >>> rater_list(["a", "b", "c"]), rater_list([f"rater{i}" for i in range(1, 7)])
    ('a, b, c', 'rater1, rater2, ..., rater6')
    """
    shown = list(raters) if len(raters) <= 4 else [*raters[:2], "...", raters[-1]]
    return ", ".join(map(str, shown))


def _listwise(r: ResultLike) -> bool:
    """Whether `r` left out every subject with a missing rating."""
    return r.n_missing >= r.n_incomplete


#: Tests upper-tailed by construction, by statistic: what the header calls them.
_UPPER_TAILED = {"F": "F tests", "chi2": "chi-square tests"}


def alternative_fact(results: Sequence[ResultLike]) -> str:
    """The header's alternative hypothesis of the rows that have a test: one word when
    every row shares it; else the other tests' alternative, with the upper-tailed F and
    chi-square tests (an ICC's, Kendall's W's) named in parentheses; else each alternative
    with the rows that use it.

    Examples
    --------
    >>> import irr
    >>> ag = irr.Agreement.from_frame(irr.datasets.load("anxiety"))
    >>> alternative_fact([ag.fleiss_kappa(), ag.icc()])
    'two-sided (ICC F tests: one-sided, greater)'
    >>> alternative_fact([ag.icc()])
    'greater'
    """
    tested = [r for r in results if not math.isnan(r.pvalue)]
    alternatives = list(dict.fromkeys(r.alternative for r in tested))
    if len(alternatives) <= 1:
        return ", ".join(alternatives)
    upper = [r for r in tested if r.statistic_name in _UPPER_TAILED]
    others = list(dict.fromkeys(r.alternative for r in tested
                                if r.statistic_name not in _UPPER_TAILED))
    kinds = list(dict.fromkeys(r.statistic_name for r in upper))
    upper_alternatives = list(dict.fromkeys(r.alternative for r in upper))
    if len(others) == 1 and len(upper_alternatives) == 1:
        what = " and ".join(_UPPER_TAILED[k] for k in kinds)
        if all(hasattr(r, "mcgraw_wong") for r in upper):
            what = f"ICC {what}"
        return f"{others[0]} ({what}: one-sided, {upper_alternatives[0]})"
    rows = {alternative: ", ".join(dict.fromkeys(r.symbol for r in tested
                                                  if r.alternative == alternative))
            for alternative in alternatives}
    return "; ".join(f"{alternative} ({symbols})" for alternative, symbols in rows.items())


def null_fact(results: Sequence[ResultLike]) -> str:
    """The header's H0 of the tested rows that test a value other than 0 (``null=``,
    kappaetc's testvalue, irr's r0); "" when every test is of 0.

    Examples
    --------
    >>> import irr
    >>> ag = irr.Agreement.from_frame(irr.datasets.load("anxiety"))
    >>> null_fact([ag.fleiss_kappa(null=0.2), ag.gwet_ac(null=0.2)])
    'each coefficient = 0.2'
    >>> null_fact([ag.fleiss_kappa(null=0.2), ag.gwet_ac()])
    'κF = 0.2'
    >>> null_fact([ag.fleiss_kappa(null=0.2), ag.gwet_ac(null=0.2), ag.light_kappa()])
    'κF = 0.2, AC1 = 0.2'
    >>> null_fact([ag.fleiss_kappa()])
    ''
    """
    tested = [r for r in results if not math.isnan(r.pvalue)]
    nulls = [r for r in tested if r.null_value != 0]
    values = {r.null_value for r in nulls}
    # one value for every tested row (a row whose test ignores `null` tests 0: named apart)
    if len(nulls) > 1 and len(values) == 1 and len(nulls) == len(tested):
        return f"each coefficient = {values.pop():g}"
    return ", ".join(dict.fromkeys(f"{r.symbol} = {r.null_value:g}" for r in nulls))


def _missing_fact(ratings: str | None, incomplete: int) -> tuple[str, str]:
    """The "Missing ratings:" fact: how many ratings (when the caller counted them) in how
    many subjects."""
    if ratings is None:  # a result alone knows its incomplete subjects, not the ratings
        return ("Subjects missing a rating:", f"{incomplete:,}")
    return ("Missing ratings:", f"{ratings} in {_subjects(incomplete)}")


def results_summary(
    results: Sequence[ResultLike],
    title: str,
    info: Sequence[tuple[str, str]] = (),
    notes: Sequence[str] = (),
    *,
    merge_coincident: bool = True,
) -> Summary:
    """One statsmodels ``Summary``: a header of facts, one row per result, then notes.

    The tables and notes are those of :func:`results_tables` (the parameters are its);
    :func:`results_text` is the same summary's text without importing statsmodels.
    """
    tables, lines = results_tables(results, title, info, notes,
                                   merge_coincident=merge_coincident)
    summary = new_summary()
    summary.tables.extend(table.simple_table() for table in tables)
    if lines:
        summary.add_extra_txt(lines)
    return summary


def results_text(
    results: Sequence[ResultLike],
    title: str,
    info: Sequence[tuple[str, str]] = (),
    notes: Sequence[str] = (),
    *,
    merge_coincident: bool = True,
) -> str:
    """The text of :func:`results_summary` (``results_summary(...).as_text()``), laid out
    here without importing statsmodels."""
    tables, lines = results_tables(results, title, info, notes,
                                   merge_coincident=merge_coincident)
    return summary_text(tables, "\n".join(lines) if lines else None)


def results_tables(
    results: Sequence[ResultLike],
    title: str,
    info: Sequence[tuple[str, str]] = (),
    notes: Sequence[str] = (),
    *,
    merge_coincident: bool = True,
) -> tuple[list[TextTable], list[str]]:
    """The tables of a summary (a header of facts, one row per result, the bands) and
    its numbered notes (``"[1] ..."``).

    Parameters
    ----------
    results : sequence of Result
        The rows, in order.
    title : str
        The table's title.
    info : sequence of (str, str)
        Extra facts for the header (categories, raters, ``("Missing ratings:", "12")``
        ...). The subjects, the missing ratings and the interval method are added from
        the results.
    notes : sequence of str
        Lines printed under the table, after the results' own notes.
    merge_coincident : bool, default True
        Show one row for rows that print the same numbers on two categories (weighted
        and unweighted kappa, ordinal and nominal alpha on binary data), with a note.

    Notes
    -----
    The header says "Subjects: 20", or "Subjects used: 13 of 20 (listwise)" when every
    row left out the same subjects for a missing rating; rows that left out other
    subjects get a note with their own count. "Missing ratings:" counts the ratings (when
    the caller knows them) and the subjects they fall in. A row whose raters differ from
    the first row's gets a note too. The interval method is a header fact when every
    row shares it, else a column. Columns that are empty in every row (no SE, no test)
    are left out.
    """
    results = list(results)
    merged_notes: list[str] = []
    if merge_coincident:
        results, merged_notes = coincident(results)
    first = results[0]
    # the caller's facts, then the subjects and missing ratings, then the inference (a
    # seed the caller states goes with the bootstrap)
    seed = [fact for fact in info if fact[0] == "Bootstrap seed:"]
    facts = [fact for fact in info if fact[0] not in ("Bootstrap seed:", "Missing ratings:")]
    missing = [fact for fact in info if fact[0] == "Missing ratings:"]
    # rows that leave out different subjects share no "Subjects used": the header gives
    # every subject and a note each row's own counts
    uniform = all((r.n_subjects, r.n_missing) == (first.n_subjects, first.n_missing)
                  for r in results)
    total = first.n_subjects + first.n_missing
    facts.append(subjects_fact(first.n_subjects, first.n_missing, _listwise(first)) if uniform
                 else ("Subjects:", f"{total:,}"))
    incomplete = max(max(r.n_incomplete, r.n_missing) for r in results)
    # a sparse design's empty cells are its design (the caller's "Design:" fact), not missing
    sparse = any(fact[0] == "Design:" for fact in facts)
    if incomplete and not sparse:
        facts.append(_missing_fact(missing[0][1] if missing else None, incomplete))
    elif not sparse:
        facts.extend(missing)
    if first.raters:
        facts.append(("Raters:", rater_list(first.raters)))
    level = first.ci.confidence_level
    facts.append(("CI level:", _level(level)))
    methods = list(dict.fromkeys(ci_label(r) for r in results if ci_label(r)))
    per_row = len(methods) > 1
    if len(methods) == 1:
        bootstrap = any(r.ci.method in _BOOTSTRAP for r in results)
        facts.append(("CI method:", f"{methods[0]} bootstrap" if bootstrap else methods[0]))
    drawn = [r for r in results if not math.isnan(r.n_resamples)]
    if drawn:
        boot = drawn[0].bootstrap
        facts.append(("Bootstrap:", f"{boot.n_resamples:,} resamples of {boot.resampling}"))
        facts.extend(seed or [("Bootstrap seed:",
                               ", ".join(dict.fromkeys(str(r.seed) for r in drawn)))])
    tested = any(not math.isnan(r.pvalue) for r in results)
    if tested:
        facts.append(("Alternative:", alternative_fact(results)))
        null = null_fact(results)
        if null:
            facts.append(("H0:", null))
    header = header_facts(facts, title)

    tail = (1 - level) / 2
    kinds = {r.statistic_name for r in results if not math.isnan(r.statistic)}
    stat = kinds.pop() if len(kinds) == 1 else "stat" if kinds else "z"
    # a one-sided interval has one end at the parameter's bound, not at a quantile
    ends = (["[lower", "upper]"] if any(r.ci.note.startswith("one-sided") for r in results)
            else [f"[{tail:g}", f"{1 - tail:g}]"])
    # statsmodels' P>|z| is a two-sided p; one-sided z tests have P>z (greater) or P<z (less)
    sides = {r.alternative for r in results if not math.isnan(r.pvalue)}
    pname = ("p-value" if stat != "z" or len(sides) > 1 else
             {"greater": "P>z", "less": "P<z"}.get(sides.pop() if sides else "", "P>|z|"))
    columns = ["estimate", "std err", stat, pname, *ends]
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
    if per_row:
        columns.append("CI method")
        for row, r in zip(rows, results, strict=True):
            row.append(ci_label(r))
    # no column that is empty in every row (no SE, no test: no "z" and "P>|z|" headers)
    shown = [j for j in range(len(columns)) if j == 0 or any(row[j] for row in rows)]
    body = TextTable(
        [[row[j] for j in shown] for row in rows],
        headers=[columns[j] for j in shown],
        stubs=[r.coefficient for r in results],
        txt_fmt=FMT_PARAMS,
    )
    tables = [header, body]
    bands = [(r.coefficient, *r.interpretation_labels()) for r in results]
    bands = [row for row in bands if row[1]]
    band_notes = []
    if bands:
        with_benchmark = any(row[2] for row in bands)
        # every band names the scale it is read on (one number is "poor" as a CCC and
        # "good" as an ICC)
        headers = ["band", "scale", f"{_level(level)} benchmark"][: 2 + with_benchmark]
        band_format = {**copy.deepcopy(FMT_PARAMS), "data_fmts": ["%s"], "data_aligns": "l",
                       "header_align": "l", "colwidths": 16}
        tables.append(
            TextTable(
                [[row[1], row[3], row[2]][: len(headers)] for row in bands],
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
    lines.extend(merged_notes)
    differ: dict[str, list[str]] = {}
    for r in results:
        if not uniform and r.n_subjects != total:
            fact = (f"{r.n_subjects} of {r.n_subjects + r.n_missing} subjects used"
                    + (" (listwise)." if _listwise(r) else ".")
                    if r.n_missing else f"{_subjects(r.n_subjects)}.")
            differ.setdefault(fact, []).append(r.coefficient)
        if tuple(r.raters) != tuple(first.raters):
            differ.setdefault(f"raters {', '.join(r.raters) or '(none named)'}.", []).append(
                r.coefficient)
    lines.extend(f"{', '.join(names)}: {fact}" for fact, names in differ.items())
    # a note's parts ("t quantiles on 11 df; clipped to [-1, 1]"): each is said once
    parts = {id(r): [p for p in r.ci.note.split("; ") if p] for r in results}
    clipped = [r.coefficient for r in results
               if any(p.startswith("clipped") for p in parts[id(r)])]
    if clipped:
        lines.append(f"Wald interval clipped to the coefficient's range: {', '.join(clipped)}.")
    for r in results:  # why an interval is undefined or excludes its estimate
        said = [p for p in parts[id(r)] if not p.startswith("clipped")]
        if any("t quantiles" in note for note in r.notes):
            # the result's own note says it (and why n - 1)
            said = [p for p in said if not p.startswith("t quantiles")]
        if said:
            t = said[0].startswith("t quantiles")
            lines.append(f"{r.coefficient}: {r.ci.method_name} interval "
                         f"{'with ' if t else ''}{'; '.join(said)}.")
    lines.extend(band_notes)
    # the caller's notes may repeat a row's own (a result of several rows passes its notes)
    lines.extend(n for n in dict.fromkeys(notes) if n not in lines)
    return tables, [f"[{i}] {line}" for i, line in enumerate(lines, start=1)]
