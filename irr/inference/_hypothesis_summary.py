"""statsmodels ``Summary`` tables for hypothesis tests; nothing here computes.

Test results (binomial error-rate tests, McNemar, Bowker ...) print the hypotheses, the
statistic and the decision rather than a coefficient's estimate and standard error, so they
share this builder instead of :func:`irr.summary.results_summary`.
"""

from __future__ import annotations

import copy
from collections.abc import Sequence
from typing import TYPE_CHECKING

from irr.summary import format_estimate as fmt_number
from irr.summary import format_pvalue as fmt_pvalue
from irr.summary import header_table, new_summary

if TYPE_CHECKING:
    from statsmodels.iolib.summary import Summary

__all__ = ["fmt_number", "fmt_pvalue", "hypothesis_summary"]


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
    from statsmodels.iolib.table import SimpleTable
    from statsmodels.iolib.tableformatting import fmt_params

    header = header_table(facts, title)
    body = SimpleTable([list(r) for r in rows], headers=list(columns), stubs=list(stubs),
                       txt_fmt=copy.deepcopy(fmt_params))
    summary = new_summary()
    summary.tables.extend([header, body])
    lines = list(dict.fromkeys(notes))
    if lines:
        summary.add_extra_txt([f"[{i}] {line}" for i, line in enumerate(lines, start=1)])
    return summary
