"""Results side by side: one summary table of any results (:func:`irr.compare`)."""

from __future__ import annotations

import dataclasses
from collections.abc import Sequence
from typing import TYPE_CHECKING

from irr.results import Result
from irr.summary import results_summary

if TYPE_CHECKING:
    from statsmodels.iolib.summary import Summary

__all__ = ["compare"]


def compare(
    *results: Result,
    title: str | None = None,
    labels: Sequence[str] | None = None,
) -> Summary:
    """One statsmodels ``Summary`` with a row per result, for results of any kind.

    Parameters
    ----------
    *results : Result
        The rows, in order (e.g. kappa, Fleiss' kappa and Krippendorff's alpha of one
        data set, or one coefficient per site).
    title : str, optional
        The table's title; default ``"Comparison of agreement coefficients"``.
    labels : sequence of str, optional
        Row labels; default the coefficients' names, with the raters added when two rows
        would otherwise have the same name.

    Returns
    -------
    statsmodels.iolib.summary.Summary
        ``as_text()``, ``as_html()``, ``as_latex()``; it prints (and shows in a REPL) as
        its text table. The header facts (subjects, raters) are those of the first
        result; rows whose subjects or raters differ are listed in the notes. Nothing is
        recomputed: the rows are the results' own numbers. Without `labels`, a row that
        repeats another's numbers on two categories (linear or quadratic kappa equal to
        Cohen's on binary data) is shown once, with a note.

    See Also
    --------
    irr.difference : whether two coefficients differ (a test and an interval of the
        difference, paired on the same subjects or for independent groups).

    Examples
    --------
    >>> import irr
    >>> ag = irr.Agreement.from_frame(irr.datasets.load("vision"))
    >>> table = irr.compare(ag.kappa(), ag.kappa(weights="quadratic"), ag.percent_agreement())
    >>> print(table.tables[1].as_text())
    =========================================================================================================
                                 estimate    std err          z      P>|z|      [0.025      0.975]  CI method
    ---------------------------------------------------------------------------------------------------------
    Cohen's kappa                  0.5954     0.0073     84.581    <0.0001       0.581       0.610       Wald
    Weighted kappa (quadratic)     0.7023     0.0084     60.760    <0.0001       0.686       0.719       Wald
    Percent agreement              0.7083     0.0053                             0.698       0.718     Wilson
    =========================================================================================================
    """
    if len(results) == 1 and isinstance(results[0], (list, tuple)):
        results = tuple(results[0])
    if not results:
        raise ValueError("`results` must hold at least one result; got none.")
    bad = [type(r).__name__ for r in results if not isinstance(r, Result)]
    if bad:
        raise TypeError(f"`results` must be irr result objects; got {bad!r}.")
    labels_given = labels
    if labels is None:
        names = [r.coefficient for r in results]
        labels = [
            f"{r.coefficient} ({', '.join(r.raters)})"
            if names.count(r.coefficient) > 1 and r.raters else r.coefficient
            for r in results
        ]
    else:
        labels = [str(label) for label in labels]
        if len(labels) != len(results):
            raise ValueError(
                f"`labels` must give one label per result ({len(results)}); got {len(labels)}."
            )
    rows = [
        dataclasses.replace(r, coefficient=label) if label != r.coefficient else r
        for r, label in zip(results, labels, strict=True)
    ]
    return results_summary(rows, title=title or "Comparison of agreement coefficients",
                           merge_coincident=labels_given is None)
