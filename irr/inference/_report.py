"""statsmodels ``Summary`` tables for hypothesis tests; nothing here computes.

Test results (binomial error-rate tests, McNemar, Bowker ...) print the hypotheses, the
statistic and the decision rather than a coefficient's estimate and standard error, so they
share this builder instead of :func:`irr.summary.results_summary`.
"""

from __future__ import annotations

import copy
import math
from collections.abc import Sequence
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from statsmodels.iolib.summary import Summary

__all__ = ["fmt_number", "fmt_pvalue", "hypothesis_summary"]


def fmt_number(value: float | None, digits: int = 4) -> str:
    """A float with `digits` decimals; empty for None or nan."""
    if value is None or (isinstance(value, float) and math.isnan(value)):
        return ""
    return f"{value:.{digits}f}"


def fmt_pvalue(value: float | None) -> str:
    """A p-value with four decimals, ``<0.0001`` below that; empty for nan."""
    if value is None or math.isnan(value):
        return ""
    return "<0.0001" if value < 0.0001 else f"{value:.4f}"


def hypothesis_summary(
    title: str,
    facts: Sequence[tuple[str, str]],
    columns: Sequence[str],
    stubs: Sequence[str],
    rows: Sequence[Sequence[str]],
    notes: Sequence[str] = (),
) -> Summary:
    """A header of facts in two columns, one row per test, then numbered notes.

    Parameters
    ----------
    title : str
        The table's title.
    facts : sequence of (str, str)
        Header facts (hypotheses, levels, counts ...), already formatted.
    columns : sequence of str
        Headers of the body table.
    stubs, rows : sequences
        The row labels and the rows of formatted cells.
    notes : sequence of str
        Lines printed under the table, numbered; duplicates are printed once.
    """
    from statsmodels.iolib.summary import Summary
    from statsmodels.iolib.table import SimpleTable
    from statsmodels.iolib.tableformatting import fmt_2cols, fmt_params

    facts = list(facts)
    half = (len(facts) + 1) // 2
    left, right = facts[:half], facts[half:]
    right += [("", "")] * (len(left) - len(right))
    header_rows = [[lv, rk, rv] for (_, lv), (rk, rv) in zip(left, right, strict=True)]
    header_format = copy.deepcopy(fmt_2cols)
    header_format.update(data_fmts=["%s"], data_aligns="rlr", colsep="   ")
    header = SimpleTable(header_rows, stubs=[k for k, _ in left], title=title,
                         txt_fmt=header_format)
    body = SimpleTable([list(r) for r in rows], headers=list(columns), stubs=list(stubs),
                       txt_fmt=copy.deepcopy(fmt_params))
    summary = Summary()
    summary.tables.extend([header, body])
    lines = list(dict.fromkeys(notes))
    if lines:
        summary.add_extra_txt([f"[{i}] {line}" for i, line in enumerate(lines, start=1)])
    return summary
