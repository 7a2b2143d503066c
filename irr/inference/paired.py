"""Paired tests on agreement tables: McNemar, Bowker's symmetry, Stuart–Maxwell, Cochran's Q.

Each takes a k x k table of two raters' counts (rows: first rater) or the two raters'
ratings, and returns a :class:`PairedTestResult`. They test *how* raters disagree
(systematically in one direction, or with different category margins), which kappa
does not.
"""

from __future__ import annotations

import math
import warnings
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

import numpy as np
import pandas as pd

from irr._columns import rating_frame
from irr._data import distinct_names, preview
from irr._numbers import format_df
from irr._source import Source
from irr._statistics import Statistics
from irr._validation import DegenerateDataWarning, check_confidence_level
from irr.inference._hypothesis_summary import fmt_number, fmt_pvalue, hypothesis_summary
from irr.inference.error_rate import check_reference, check_tolerance, error_mask
from irr.results import (
    ConfidenceInterval,
    Result,
    wald_interval,
    warn_undefined,
)
from irr.summary import listwise_note, subjects_fact

if TYPE_CHECKING:
    from statsmodels.iolib.summary import Summary

__all__ = [
    "MAX_STUART_MAXWELL_CATEGORIES",
    "PairedTestResult",
    "bhapkar_test",
    "bowker_test",
    "cochrans_q",
    "mcnemar",
    "rater_bias",
    "stuart_maxwell_test",
]


@dataclass(frozen=True, eq=False, kw_only=True, repr=False)
class PairedTestResult(Result):
    """A chi-square or exact test on paired ratings.

    ``statistic``, ``pvalue`` and ``df`` are the test's; ``estimate``, ``se`` and ``ci``
    are those of an effect size where the test has one (McNemar: the difference of the
    first category's marginal proportions, ``(n12 - n21) / n``) and nan otherwise. Adds
    ``test`` (name), ``method``, ``df``, ``null_hypothesis``, ``table`` (the counts
    tested), ``proportions`` (Cochran's Q: each rater's proportion of successes) and
    ``effect_name`` (what ``estimate`` is, in sentences; "" for McNemar's effect).

    Examples
    --------
    >>> import irr
    >>> ag = irr.Agreement.from_frame(irr.datasets.load("vision"), raters=["r.eye", "l.eye"])
    >>> res = ag.marginal_homogeneity_test()
    >>> round(res.statistic, 2), res.df, round(res.pvalue, 4)
    (11.96, 3.0, 0.0075)
    """

    test: str
    method: str
    df: float
    scale: str | None = None  # a test has no agreement band
    null_hypothesis: str
    table: np.ndarray = field(repr=False)
    proportions: tuple[float, ...] = ()
    categories: tuple = ()
    effect_name: str = ""

    def _extras(self) -> dict[str, Any]:
        out: dict[str, Any] = {"test": self.test, "method": self.method, "df": self.df,
                               "null_hypothesis": self.null_hypothesis}
        if self.proportions:
            out["proportions"] = dict(zip(self.raters, self.proportions, strict=True))
        return out

    def summary(self) -> Summary:
        """A statsmodels ``Summary``: H0, the statistic, df, p-value and notes.

        Examples
        --------
        >>> import irr
        >>> ag = irr.Agreement.from_frame(irr.datasets.load("vision"), raters=["r.eye", "l.eye"])
        >>> print(ag.symmetry_test().summary().tables[1])
        ==========================================================
                                   statistic         df    p-value
        ----------------------------------------------------------
        Bowker's test of symmetry    19.1066          6     0.0040
        ==========================================================
        """
        facts = [
            ("H0:", self.null_hypothesis),
            ("Method:", self.method),
            subjects_fact(self.n_subjects, self.n_missing),
        ]
        if self.raters:
            facts.append(("Raters:", ", ".join(self.raters)))
        if self.categories:
            facts.append(("Categories:", str(len(self.categories))))
        columns = ["statistic", "df", "p-value"]
        row = [fmt_number(self.statistic), format_df(self.df), fmt_pvalue(self.pvalue)]
        notes = list(self.notes)
        if not math.isnan(self.estimate):
            tail = (1 - self.ci.confidence_level) / 2
            columns += ["effect", "std err", f"[{tail:g}", f"{1 - tail:g}]"]
            row += [fmt_number(self.estimate), fmt_number(self.se),
                    fmt_number(self.ci.low, 3), fmt_number(self.ci.high, 3)]
        if self.proportions:
            shown = ", ".join(f"{r} {p:.4f}" for r, p in zip(self.raters, self.proportions,
                                                             strict=True))
            notes.append(f"Proportion of successes: {shown}.")
        return hypothesis_summary(self.test, facts, columns, [self.test], [row], notes)

    def __repr__(self) -> str:
        return (
            f"PairedTestResult(test={self.test!r}, statistic={self.statistic:.4g}, "
            f"df={self.df:g}, pvalue={self.pvalue:.4g}, n_subjects={self.n_subjects})"
        )


_NAN_CI = ConfidenceInterval(math.nan, math.nan, 0.95, "none")

#: Most categories of the Stuart-Maxwell test, which solves a dense (k - 1) x (k - 1)
#: system: O(k^3) time and several k x k arrays (2,000: under a second and 400 MB; 5,000
#: took 4.5 s and 1.4 GB).
MAX_STUART_MAXWELL_CATEGORIES = 2_000


# ---------------------------------------------------------------------------------------
# Input: a table, or two raters' ratings
# ---------------------------------------------------------------------------------------
@dataclass(frozen=True)
class PairedTable:
    """Two raters' k x k table of complete pairs, with what the paired tests report."""

    table: np.ndarray
    categories: tuple
    raters: tuple[str, ...]
    n_missing: int


def _paired(table_or_a: Any, b: Any, categories: Any) -> PairedTable:
    if b is None:
        source = Source.from_table(table_or_a, categories, ("rater1", "rater2"), "table_or_a")
        return paired_table(Statistics.from_source(source))
    source = Source.from_columns([table_or_a, b], ["rater1", "rater2"], categories,
                                 argnames=["rater_a", "rater_b"])
    return paired_table(Statistics.from_source(source))


def paired_table(stats: Statistics) -> PairedTable:
    """The :class:`PairedTable` of two raters' statistics (complete pairs)."""
    stats.require_raters("This paired test", exactly=2)
    table = stats.pair_table
    if table.sum() == 0:
        raise ValueError("No subject has ratings from both raters: the test needs at least one.")
    return PairedTable(table, tuple(stats.categories), stats.raters, stats.n_missing)


def _missing_note(paired: PairedTable) -> list[str]:
    if paired.n_missing:
        return listwise_note(paired.n_missing)
    return []


def _chi_square_result(
    paired: PairedTable,
    test: str,
    statistic: float,
    pvalue: float,
    df: int,
    notes: Sequence[str],
    null_hypothesis: str,
) -> PairedTestResult:
    """The result of a chi-square test on a k x k table that has no effect size."""
    return PairedTestResult(
        coefficient=test,
        symbol="χ²",
        estimate=math.nan,
        se=math.nan,
        statistic=statistic,
        pvalue=pvalue,
        alternative="two-sided",
        ci=_NAN_CI,
        n_subjects=int(paired.table.sum()),
        n_missing=paired.n_missing,
        raters=paired.raters,
        notes=tuple(notes),
        test=test,
        method="chi-square",
        df=float(df),
        null_hypothesis=null_hypothesis,
        table=paired.table,
        categories=paired.categories,
    )


# ---------------------------------------------------------------------------------------
# McNemar
# ---------------------------------------------------------------------------------------
def mcnemar(
    table_or_a: Any,
    b: Any = None,
    *,
    exact: bool = True,
    correction: bool = True,
    categories: Sequence[Any] | None = None,
    confidence_level: float = 0.95,
) -> PairedTestResult:
    """McNemar's test that two raters use the two categories equally often.

    Parameters
    ----------
    table_or_a : array-like of shape (2, 2), or array-like of shape (n_subjects,)
        A 2 x 2 table of counts (rows: first rater; a DataFrame's rows and columns are
        matched by label, as in :meth:`irr.Agreement.from_table`), or the first rater's
        ratings when `b` is given.
    b : array-like of shape (n_subjects,), optional
        The second rater's ratings.
    exact : bool, default True
        Exact binomial test on the discordant pairs; else the chi-square approximation.
    correction : bool, default True
        Continuity correction of the chi-square statistic (ignored when `exact`).
    categories : sequence, optional
        The two categories (for ratings where one category may be unobserved).
    confidence_level : float, default 0.95
        Level of the Wald interval for the marginal difference.

    Returns
    -------
    PairedTestResult
        ``statistic`` (exact: ``min(n12, n21)``; else the chi-square), ``df`` (1),
        ``pvalue``; ``estimate`` is the difference ``p1. - p.1 = (n12 - n21) / n`` of
        the first category's marginal proportions, with its standard error and a Wald
        interval.

    Raises
    ------
    ValueError
        When the table is not 2 x 2 (use :func:`bowker_test` or
        :func:`stuart_maxwell_test` for k x k) or holds invalid counts.

    Warns
    -----
    DegenerateDataWarning
        For the chi-square version when there are no discordant pairs (0 / 0): nan.

    Notes
    -----
    With discordant counts :math:`n_{12}, n_{21}`, the exact p-value is
    :math:`\\min(1, 2 P(B \\le \\min(n_{12}, n_{21})))`, :math:`B \\sim
    \\mathrm{Binomial}(n_{12} + n_{21}, 1/2)`; the chi-square statistic is
    :math:`(|n_{12} - n_{21}| - c)^2 / (n_{12} + n_{21})` with :math:`c = 1` for the
    continuity correction (applied as written, also when :math:`n_{12} = n_{21}`) and 0
    without. The standard error of the marginal difference is
    :math:`\\sqrt{n_{12} + n_{21} - (n_{12} - n_{21})^2 / n} / n` (Agresti, 2013,
    section 11.1). Validated against ``statsmodels.stats.contingency_tables.mcnemar``.

    References
    ----------
    McNemar, Q. (1947). Note on the sampling error of the difference between correlated
    proportions or percentages. Psychometrika, 12, 153-157.
    https://doi.org/10.1007/BF02295996

    Examples
    --------
    >>> from irr.inference.paired import mcnemar
    >>> res = mcnemar([[794, 86], [150, 570]])
    >>> res.statistic, f"{res.pvalue:.3e}"
    (86.0, '3.716e-05')
    >>> res = mcnemar([[794, 86], [150, 570]], exact=False, correction=False)
    >>> round(res.statistic, 2)
    17.36
    """
    level = check_confidence_level(confidence_level)
    paired = _paired(table_or_a, b, categories)
    return mcnemar_of_table(paired, bool(exact), bool(correction), level)


def mcnemar_of_table(paired: PairedTable, exact: bool, correction: bool, level: float) -> PairedTestResult:
    from scipy.stats import binom, chi2

    table = paired.table
    if table.shape != (2, 2):
        k = table.shape[0]
        raise ValueError(
            f"`table_or_a` must be a 2 x 2 table for McNemar's test; got a {k} x {k} table "
            f"(categories {preview(paired.categories)}). Use bowker_test (symmetry) or "
            "stuart_maxwell_test (marginal homogeneity) for k x k tables, or pass "
            "`categories=` with the two labels when one is unobserved."
        )
    n12, n21 = int(table[0, 1]), int(table[1, 0])
    n = int(table.sum())
    discordant = n12 + n21
    notes = _missing_note(paired)
    if exact:
        statistic = float(min(n12, n21))
        pvalue = float(min(1.0, 2.0 * binom.cdf(min(n12, n21), discordant, 0.5)))
        method = "exact binomial"
        notes.insert(0, "Exact two-sided p-value: twice the binomial tail at min(n12, n21), "
                        "p = 1/2 (statsmodels' convention).")
    else:
        method = "chi-square" + (" (continuity corrected)" if correction else "")
        if discordant == 0:
            warnings.warn(
                "McNemar's chi-square is undefined (nan): there are no discordant pairs "
                "(n12 + n21 = 0).",
                DegenerateDataWarning,
                stacklevel=3,
            )
            statistic = pvalue = math.nan
        else:
            statistic = (abs(n12 - n21) - int(correction)) ** 2 / discordant
            pvalue = float(chi2.sf(statistic, 1))
        if correction:
            notes.insert(0, "Statistic (|n12 - n21| - 1)^2 / (n12 + n21) (continuity corrected).")
    estimate = (n12 - n21) / n
    se = math.sqrt(max(discordant - (n12 - n21) ** 2 / n, 0.0)) / n
    ci = wald_interval(estimate, se, level, (-1.0, 1.0))
    warn_undefined(ci, "McNemar's effect p1. - p.1")
    return PairedTestResult(
        coefficient="McNemar's test",
        symbol="χ²" if not exact else "B",
        estimate=estimate,
        se=se,
        statistic=float(statistic),
        pvalue=pvalue,
        alternative="two-sided",
        ci=ci,
        n_subjects=n,
        n_missing=paired.n_missing,
        raters=paired.raters,
        notes=(*notes, "Effect: p1. - p.1, the difference of the first category's marginal "
                       "proportions (Wald interval)."),
        test="McNemar's test",
        method=method,
        df=1.0,
        null_hypothesis="P(first category) equal for both raters",
        table=table,
        categories=paired.categories,
    )


# ---------------------------------------------------------------------------------------
# Bowker
# ---------------------------------------------------------------------------------------
def bowker_test(
    table_or_a: Any,
    b: Any = None,
    *,
    reduce_df: bool = False,
    categories: Sequence[Any] | None = None,
) -> PairedTestResult:
    """Bowker's test of symmetry of a k x k agreement table.

    Parameters
    ----------
    table_or_a : array-like of shape (k, k), or array-like of shape (n_subjects,)
        A k x k table of counts (rows: first rater; a DataFrame's rows and columns are
        matched by label, as in :meth:`irr.Agreement.from_table`), or the first rater's
        ratings when `b` is given.
    b : array-like of shape (n_subjects,), optional
        The second rater's ratings.
    reduce_df : bool, default False
        Pairs of cells with :math:`n_{ij} + n_{ji} = 0` contribute nothing to the
        statistic. False (the default) keeps :math:`k(k-1)/2` degrees of freedom, as
        statsmodels' ``SquareTable.symmetry`` and SAS PROC FREQ do; True also drops those
        pairs from the degrees of freedom (df = number of pairs with at least one count).
    categories : sequence, optional
        The full scale, for ratings.

    Returns
    -------
    PairedTestResult
        ``statistic``, ``df``, ``pvalue``; ``estimate`` is nan (no effect size).

    Notes
    -----
    .. math:: Q_B = \\sum_{i<j,\\ n_{ij}+n_{ji}>0} \\frac{(n_{ij}-n_{ji})^2}{n_{ij}+n_{ji}}

    asymptotically chi-square under H0 :math:`p_{ij} = p_{ji}`. Conditional on the pair
    totals, a pair with no counts is fixed at 0 and carries no chi-square degree of
    freedom, which ``reduce_df=True`` applies; the default ``reduce_df=False`` gives the
    numbers of statsmodels (validated to 1e-10) and SAS. With no disagreements at all, df = 0 and
    p = 1. For 2 x 2 tables the statistic is McNemar's without continuity correction.

    References
    ----------
    Bowker, A. H. (1948). A test for symmetry in contingency tables. Journal of the
    American Statistical Association, 43, 572-574. https://doi.org/10.1080/01621459.1948.10483284

    Examples
    --------
    >>> from irr.inference.paired import bowker_test
    >>> table = [[10, 4, 1, 0], [5, 10, 12, 2], [2, 4, 12, 5], [0, 2, 6, 13]]
    >>> res = bowker_test(table)
    >>> round(res.statistic, 4), res.df
    (4.5354, 6.0)
    >>> bowker_test(table, reduce_df=True).df
    5.0
    """
    paired = _paired(table_or_a, b, categories)
    return bowker_of_table(paired, bool(reduce_df))


def bowker_of_table(paired: PairedTable, reduce_df: bool) -> PairedTestResult:
    from scipy.stats import chi2

    table = paired.table.astype(float)
    k = table.shape[0]
    upper = np.triu_indices(k, 1)
    nij, nji = table[upper], table.T[upper]
    total = nij + nji
    used = total > 0
    statistic = float(np.sum((nij[used] - nji[used]) ** 2 / total[used]))
    full_df = k * (k - 1) // 2
    df = int(used.sum()) if reduce_df else full_df
    notes = _missing_note(paired)
    empty = full_df - int(used.sum())
    if empty:
        if reduce_df:
            notes.append(f"{empty} of {full_df} category pairs have no counts "
                         f"(n_ij + n_ji = 0): left out, df reduced to {df}.")
        else:
            notes.append(f"{empty} of {full_df} category pairs have no counts "
                         "(n_ij + n_ji = 0): they add 0; df kept at k(k-1)/2 (statsmodels, SAS).")
    pvalue = float(chi2.sf(statistic, df)) if df > 0 else 1.0
    if df == 0:
        notes.append("No disagreements off the diagonal: df = 0 and p = 1.")
    return _chi_square_result(
        paired, "Bowker's test of symmetry", statistic, pvalue, df, notes,
        "p_ij = p_ji for all i, j",
    )


# ---------------------------------------------------------------------------------------
# Stuart–Maxwell
# ---------------------------------------------------------------------------------------
def stuart_maxwell_test(
    table_or_a: Any,
    b: Any = None,
    *,
    categories: Sequence[Any] | None = None,
) -> PairedTestResult:
    """Stuart–Maxwell test that the two raters' category margins are equal.

    Parameters
    ----------
    table_or_a : array-like of shape (k, k), or array-like of shape (n_subjects,)
        A k x k table of counts (rows: first rater; a DataFrame's rows and columns are
        matched by label, as in :meth:`irr.Agreement.from_table`), or the first rater's
        ratings when `b` is given.
    b : array-like of shape (n_subjects,), optional
        The second rater's ratings.
    categories : sequence, optional
        The full scale, for ratings.

    Returns
    -------
    PairedTestResult
        ``statistic``, ``df``, ``pvalue``; ``estimate`` is nan.

    Notes
    -----
    With :math:`d_i = n_{i\\cdot} - n_{\\cdot i}` and the covariance matrix
    :math:`V_{ii} = n_{i\\cdot} + n_{\\cdot i} - 2n_{ii}`,
    :math:`V_{ij} = -(n_{ij} + n_{ji})`, the statistic is :math:`d^T V^{-} d`,
    asymptotically chi-square under H0 :math:`p_{i\\cdot} = p_{\\cdot i}`.
    :math:`V` is the Laplacian of the graph joining categories i and j when
    :math:`n_{ij} + n_{ji} > 0`; one category per connected component is left out
    (statsmodels leaves out the last one), so ``df = k - (number of components)``, which
    is ``k - 1`` when every category is linked by disagreements. A category no subject
    was put in by one rater and not the other carries no information and reduces df
    (statsmodels instead returns nan when its reduced matrix is singular). With no
    disagreements at all, df = 0 and p = 1. For 2 x 2 tables the statistic is McNemar's
    without continuity correction. Validated against statsmodels'
    ``SquareTable.homogeneity()`` to 1e-10.

    References
    ----------
    Stuart, A. (1955). A test for homogeneity of the marginal distributions in a two-way
    classification. Biometrika, 42, 412-416. https://doi.org/10.1093/biomet/42.3-4.412

    Maxwell, A. E. (1970). Comparing the classification of subjects by two independent
    judges. British Journal of Psychiatry, 116, 651-655.
    https://doi.org/10.1192/bjp.116.535.651

    Examples
    --------
    >>> from irr.inference.paired import stuart_maxwell_test
    >>> table = [[10, 4, 1, 0], [5, 10, 12, 2], [2, 4, 12, 5], [0, 2, 6, 13]]
    >>> res = stuart_maxwell_test(table)
    >>> round(res.statistic, 4), res.df
    (3.2476, 3.0)
    """
    paired = _paired(table_or_a, b, categories)
    return stuart_maxwell_of_table(paired)


def stuart_maxwell_of_table(paired: PairedTable) -> PairedTestResult:
    from scipy.sparse.csgraph import connected_components
    from scipy.stats import chi2

    k = paired.table.shape[0]
    if k > MAX_STUART_MAXWELL_CATEGORIES:
        raise ValueError(
            f"The Stuart-Maxwell test solves a dense (k - 1) x (k - 1) system; these data have "
            f"k = {k:,} categories, at most {MAX_STUART_MAXWELL_CATEGORIES:,} are supported "
            "(irr.inference.paired.MAX_STUART_MAXWELL_CATEGORIES)."
        )
    table = paired.table.astype(float)
    pair_total = table + table.T
    np.fill_diagonal(pair_total, 0.0)
    laplacian = np.diag(pair_total.sum(axis=1)) - pair_total
    d = table.sum(axis=1) - table.sum(axis=0)
    n_components, labels = connected_components(pair_total > 0, directed=False)
    # leave out the last category of each component (statsmodels leaves out the last one)
    last = np.zeros(k, dtype=bool)
    for comp in range(n_components):
        last[np.flatnonzero(labels == comp)[-1]] = True
    keep = ~last
    df = int(keep.sum())
    notes = _missing_note(paired)
    if df > 0:
        v = laplacian[np.ix_(keep, keep)]
        dk = d[keep]
        statistic = float(dk @ np.linalg.solve(v, dk))
        pvalue = float(chi2.sf(statistic, df))
    else:
        statistic, pvalue = 0.0, 1.0
        notes.append("No disagreements off the diagonal: df = 0 and p = 1.")
    if 0 < df < k - 1:
        notes.append(
            f"The categories fall into {n_components} groups not linked by any disagreement "
            f"(n_ij + n_ji = 0 between groups): df = k - {n_components} = {df} "
            "(statsmodels returns nan here)."
        )
    return _chi_square_result(
        paired, "Stuart-Maxwell test", statistic, pvalue, df, notes,
        "p_i. = p_.i for all i (equal margins)",
    )


# ---------------------------------------------------------------------------------------
# Bhapkar
# ---------------------------------------------------------------------------------------
def bhapkar_test(
    table_or_a: Any,
    b: Any = None,
    *,
    categories: Sequence[Any] | None = None,
) -> PairedTestResult:
    """Bhapkar's test that the two raters' category margins are equal.

    Parameters
    ----------
    table_or_a : array-like of shape (k, k), or array-like of shape (n_subjects,)
        A k x k table of counts (rows: first rater), or the first rater's ratings when
        `b` is given.
    b : array-like of shape (n_subjects,), optional
        The second rater's ratings.
    categories : sequence, optional
        The full scale, for ratings.

    Returns
    -------
    PairedTestResult
        ``statistic``, ``df``, ``pvalue``; ``estimate`` is nan.

    Warns
    -----
    DegenerateDataWarning
        When the unrestricted covariance of the margin differences is singular (the
        Stuart-Maxwell statistic equals n: every disagreement says the same thing): nan.

    Notes
    -----
    The Wald statistic :math:`W = n\\, d^T S^{-1} d` with :math:`d_i = p_{i\\cdot} -
    p_{\\cdot i}` and the covariance estimated without assuming H0,
    :math:`S_{ii} = p_{i\\cdot} + p_{\\cdot i} - 2p_{ii} - d_i^2`,
    :math:`S_{ij} = -(p_{ij} + p_{ji}) - d_i d_j` (Bhapkar 1966). Since S is the
    Stuart-Maxwell covariance minus the rank-one :math:`d d^T`, the Sherman-Morrison
    formula gives :math:`W = X^2_{SM} / (1 - X^2_{SM} / n)` exactly (Keefe 1982), which is
    how it is computed: the same categories and degrees of freedom as
    :func:`stuart_maxwell_test`. W is always at least the Stuart-Maxwell statistic; the
    two agree for large n. Validated against statsmodels' ``SquareTable.homogeneity(
    method="bhapkar")`` and, on the vision data, Stata's ``bhapkar`` and R irr's
    ``bhapkar(vision)`` (chi-square 11.98 on 3 df).

    References
    ----------
    Bhapkar, V. P. (1966). A note on the equivalence of two test criteria for hypotheses in
    categorical data. Journal of the American Statistical Association, 61, 228-235.
    https://doi.org/10.1080/01621459.1966.10502021

    Keefe, T. J. (1982). On the relationship between two estimators of standard errors in
    the marginal homogeneity problem. Communications in Statistics - Theory and Methods,
    11, 1595-1600.

    Examples
    --------
    >>> from irr.inference.paired import bhapkar_test
    >>> table = [[1520, 266, 124, 66], [234, 1512, 432, 78],
    ...          [117, 362, 1772, 205], [36, 82, 179, 492]]
    >>> res = bhapkar_test(table)
    >>> round(res.statistic, 4), res.df, round(res.pvalue, 5)
    (11.9757, 3.0, 0.00747)
    """
    paired = _paired(table_or_a, b, categories)
    return bhapkar_of_table(paired)


def bhapkar_of_table(paired: PairedTable) -> PairedTestResult:
    from scipy.stats import chi2

    stuart = stuart_maxwell_of_table(paired)
    n = float(paired.table.sum())
    sm, df = stuart.statistic, int(stuart.df)
    notes = [f"W = X2_SM / (1 - X2_SM / n), X2_SM = {sm:.4f} the Stuart-Maxwell statistic "
             "(the covariance not restricted to H0)."]
    notes.extend(note for note in stuart.notes if not note.startswith("No disagreements"))
    if df == 0:
        statistic, pvalue = 0.0, 1.0
        notes.append("No disagreements off the diagonal: df = 0 and p = 1.")
    elif sm >= n * (1 - 1e-12):
        warnings.warn(
            "Bhapkar's statistic is undefined (nan): the unrestricted covariance of the margin "
            "differences is singular (the Stuart-Maxwell statistic equals n; e.g. every "
            "disagreement in the same direction). stuart_maxwell_test still applies.",
            DegenerateDataWarning, stacklevel=3)
        statistic = pvalue = math.nan
    else:
        statistic = sm / (1.0 - sm / n)
        pvalue = float(chi2.sf(statistic, df))
    return _chi_square_result(
        paired, "Bhapkar's test", statistic, pvalue, df, notes,
        "p_i. = p_.i for all i (equal margins)",
    )


# ---------------------------------------------------------------------------------------
# Rater bias
# ---------------------------------------------------------------------------------------
def rater_bias(
    table_or_a: Any,
    b: Any = None,
    *,
    categories: Sequence[Any] | None = None,
    confidence_level: float = 0.95,
) -> PairedTestResult:
    """Rater bias: the share of disagreements in which the first rater chose the lower
    category, with its chi-square test (R irr ``rater.bias``).

    Parameters
    ----------
    table_or_a : array-like of shape (k, k), or array-like of shape (n_subjects,)
        A k x k table of counts (rows: first rater, categories in their order), or the
        first rater's ratings when `b` is given.
    b : array-like of shape (n_subjects,), optional
        The second rater's ratings.
    categories : sequence, optional
        The full scale in order, for ratings.
    confidence_level : float, default 0.95
        Level of the Wald interval of the share.

    Returns
    -------
    PairedTestResult
        ``estimate``: the ratio :math:`B / (B + C)` of the sum B of the cells above the
        diagonal (first rater lower) to all off-diagonal counts, with its binomial SE and
        Wald interval; ``statistic``: :math:`(B - C)^2 / (B + C)`, chi-square on 1 df.

    Warns
    -----
    DegenerateDataWarning
        When there are no disagreements (B + C = 0): nan.

    Notes
    -----
    A ratio far from 0.5 with a significant chi-square says one rater systematically
    rates higher than the other (Bishop, Fienberg & Holland 1975, sec. 8.2). For a 2 x 2
    table this is McNemar's test without continuity correction. The categories must be
    ordered for "lower" to mean anything. The statistic and ratio are those of R irr's
    ``rater.bias`` (documented there: "the absolute value of the triangular off-diagonal
    sum ratio ... and the corresponding test statistic").

    References
    ----------
    Bishop, Y. M. M., Fienberg, S. E., & Holland, P. W. (1975). Discrete Multivariate
    Analysis: Theory and Practice. MIT Press.

    Examples
    --------
    >>> from irr.inference.paired import rater_bias
    >>> table = [[1520, 266, 124, 66], [234, 1512, 432, 78],
    ...          [117, 362, 1772, 205], [36, 82, 179, 492]]
    >>> res = rater_bias(table)
    >>> round(res.estimate, 4), round(res.statistic, 4), res.df
    (0.5369, 11.8849, 1.0)
    """
    level = check_confidence_level(confidence_level)
    if b is None:  # a table: its rows and columns are in the order given
        return rater_bias_of_table(_paired(table_or_a, b, categories), level)
    source = Source.from_columns([table_or_a, b], ["rater1", "rater2"], categories,
                                 argnames=["rater_a", "rater_b"])
    return rater_bias_of_statistics(Statistics.from_source(source), level)


def rater_bias_of_statistics(stats: Statistics, level: float) -> PairedTestResult:
    """Rater bias of two raters' statistics: their categories must be ordered (a scale)
    when there are more than two."""
    if stats.n_categories > 2 and stats.scores is None:
        raise TypeError(
            "Rater bias compares 'lower' with 'higher' categories, so it needs ordered "
            f"categories; these labels are unordered: {preview(stats.categories)}. Pass "
            "`categories=` in their order (or an ordered Categorical)."
        )
    return rater_bias_of_table(paired_table(stats), level)


def rater_bias_of_table(paired: PairedTable, level: float) -> PairedTestResult:
    from scipy.stats import chi2

    table = paired.table
    upper = float(np.triu(table, 1).sum())
    lower = float(np.tril(table, -1).sum())
    discordant = upper + lower
    notes = _missing_note(paired)
    if discordant == 0:
        warnings.warn("The rater bias ratio is undefined (nan): the raters never disagree.",
                      DegenerateDataWarning, stacklevel=3)
        ratio = statistic = pvalue = se = math.nan
    else:
        ratio = upper / discordant
        statistic = (upper - lower) ** 2 / discordant
        pvalue = float(chi2.sf(statistic, 1))
        se = math.sqrt(ratio * (1 - ratio) / discordant)
    first, second = paired.raters
    notes.insert(0, f"Ratio B / (B + C): B = {upper:g} subjects {first} put in a lower "
                    f"category than {second} (above the diagonal), C = {lower:g} in a higher "
                    "one; chi-square (B - C)^2 / (B + C) on 1 df (R irr rater.bias).")
    ci = wald_interval(ratio, se, level, (0.0, 1.0))
    return PairedTestResult(
        coefficient="Rater bias",
        symbol="χ²",
        estimate=ratio,
        se=se,
        statistic=statistic,
        pvalue=pvalue,
        alternative="two-sided",
        ci=ci,
        n_subjects=int(table.sum()),
        n_missing=paired.n_missing,
        raters=paired.raters,
        notes=(*notes, "Effect: the ratio B / (B + C) (0.5 without bias; Wald interval)."),
        test="Rater bias",
        method="chi-square",
        effect_name=f"share of disagreements with {first} lower",
        df=1.0,
        null_hypothesis=f"{first} lower as often as higher than {second} (ratio 0.5)",
        table=table,
        categories=paired.categories,
    )


# ---------------------------------------------------------------------------------------
# Cochran's Q
# ---------------------------------------------------------------------------------------
def _binary_matrix(x: Any) -> tuple[np.ndarray, tuple[str, ...], int]:
    """(complete rows as 0/1 ints, column names, rows dropped for missing values)."""
    if isinstance(x, pd.DataFrame):
        # identifier columns set aside, as from_frame; booleans are 0/1 outcomes here
        probe = x.astype({c: np.int64 for c, t in x.dtypes.items() if t.kind == "b"})
        x = x[list(rating_frame(probe, stacklevel=3).columns)]
        names = tuple(distinct_names(list(x.columns), "x"))
        values = x.to_numpy(dtype=object)
    else:
        if isinstance(x, (str, bytes)) or np.isscalar(x):
            raise TypeError(f"`x` must be a 2-D array-like of 0/1 outcomes; got {x!r}.")
        values = x if isinstance(x, np.ndarray) else np.asarray(x, dtype=object)
        names = ()
        if values.ndim == 2 and values.shape[1] >= 2 and values.dtype.kind in "biu":
            bad = values[(values != 0) & (values != 1)]
            if bad.size:
                raise ValueError(
                    f"`x` must hold 0/1 (or boolean) outcomes; got {preview(np.unique(bad))}."
                )
            names = tuple(f"rater{i}" for i in range(1, values.shape[1] + 1))
            return values.astype(np.int64), names, 0
    if values.ndim != 2:
        raise ValueError(
            f"`x` must be 2-D (subjects x raters); got an array of shape {values.shape}."
        )
    if not names:
        names = tuple(f"rater{i}" for i in range(1, values.shape[1] + 1))
    if values.shape[1] < 2:
        raise ValueError(f"`x` must have at least two columns (raters); got {values.shape[1]}.")
    missing = np.asarray(pd.isna(pd.DataFrame(values)), dtype=bool)
    flat = values[~missing]
    try:
        numeric = np.asarray(flat, dtype=float)
    except (TypeError, ValueError):
        raise TypeError(
            f"`x` must hold 0/1 (or boolean) outcomes; got {preview(pd.unique(flat)[:5])}."
        ) from None
    bad = numeric[(numeric != 0) & (numeric != 1)]
    if bad.size:
        raise ValueError(f"`x` must hold 0/1 (or boolean) outcomes; got {preview(np.unique(bad))}.")
    complete = ~missing.any(axis=1)
    out = np.zeros(values.shape, dtype=np.int64)
    out[~missing] = numeric.astype(np.int64)
    return out[complete], names, int((~complete).sum())


def cochrans_q(x: Any) -> PairedTestResult:
    """Cochran's Q test that several raters have the same probability of success.

    Parameters
    ----------
    x : array-like or DataFrame of shape (n_subjects, m)
        0/1 (or boolean) outcomes, one column per rater, e.g. whether each rater's rating
        agrees with a reference. Subjects with a missing outcome (None, NaN) are left
        out and counted.

    Returns
    -------
    PairedTestResult
        ``statistic`` (Q), ``df`` (m - 1), ``pvalue``, ``proportions`` (each rater's
        proportion of successes); ``estimate`` is nan.

    Warns
    -----
    DegenerateDataWarning
        When every subject has all successes or all failures: Q is 0 / 0, nan.

    Notes
    -----
    With column totals :math:`C_j`, row totals :math:`R_i` and :math:`N = \\sum R_i`,

    .. math:: Q = (m-1)\\frac{m \\sum_j C_j^2 - N^2}{m N - \\sum_i R_i^2},

    asymptotically chi-square on m - 1 df. With m = 2 it is McNemar's statistic without
    continuity correction. Validated against ``statsmodels.stats.contingency_tables.
    cochrans_q``.

    References
    ----------
    Cochran, W. G. (1950). The comparison of percentages in matched samples.
    Biometrika, 37, 256-266. https://doi.org/10.1093/biomet/37.3-4.256

    Examples
    --------
    >>> from irr.inference.paired import cochrans_q
    >>> x = [[1, 1, 0], [1, 0, 0], [1, 1, 1], [1, 0, 0], [0, 1, 0], [1, 1, 0]]
    >>> res = cochrans_q(x)
    >>> round(res.statistic, 4), res.df
    (5.2, 2.0)
    """
    data, names, dropped = _binary_matrix(x)
    return _cochran(data, names, dropped, ())


def _cochran(
    data: np.ndarray, names: tuple[str, ...], dropped: int, extra_notes: Sequence[str]
) -> PairedTestResult:
    from scipy.stats import chi2

    n, m = data.shape
    if n == 0:
        raise ValueError("`x` has no complete subjects: Cochran's Q needs at least one.")
    col = data.sum(axis=0).astype(float)
    row = data.sum(axis=1).astype(float)
    total = float(col.sum())
    denominator = m * total - float(np.sum(row**2))
    notes = list(extra_notes)
    if dropped:
        notes.append(f"{dropped} subject(s) with a missing outcome were left out.")
    if denominator == 0:
        warnings.warn(
            "Cochran's Q is undefined (nan): every subject has all successes or all "
            "failures, so no subject discriminates between raters.",
            DegenerateDataWarning,
            stacklevel=3,
        )
        statistic = pvalue = math.nan
    else:
        statistic = (m - 1) * (m * float(np.sum(col**2)) - total**2) / denominator
        pvalue = float(chi2.sf(statistic, m - 1))
    return PairedTestResult(
        coefficient="Cochran's Q",
        symbol="Q",
        estimate=math.nan,
        se=math.nan,
        statistic=statistic,
        pvalue=pvalue,
        alternative="two-sided",
        ci=_NAN_CI,
        n_subjects=n,
        n_missing=dropped,
        raters=names,
        notes=tuple(notes),
        test="Cochran's Q",
        method="chi-square",
        df=float(m - 1),
        null_hypothesis="equal success probability for every rater",
        table=data,
        proportions=tuple(float(c) / n for c in col),
    )


def cochrans_q_of_statistics(
    stats: Statistics, reference: str, tolerance: float = 0
) -> PairedTestResult:
    """Cochran's Q of the raters against `reference` (:meth:`irr.Agreement.cochrans_q`)."""
    stats.require_raters("Cochran's Q")
    raters = stats.raters
    check_reference(reference, raters)
    others = [r for r in raters if r != reference]
    if len(others) < 2:
        raise ValueError(
            "Cochran's Q compares at least two raters with the reference, so it needs at "
            f"least three raters; this Agreement has {len(raters)} ({', '.join(raters)}). "
            "Use mcnemar or error_rate_test for one rater against a reference."
        )
    tolerance = check_tolerance(tolerance, stats.scores)
    correct = ~error_mask(stats.scores, stats.n_categories, tolerance)
    stats.require_complete_design("Cochran's Q")
    codes = stats.patterns
    ref = codes[:, raters.index(reference)]
    present = ref >= 0
    columns = []
    for other in others:  # one column per rater
        c = codes[:, raters.index(other)]
        present = present & (c >= 0)
        columns.append(correct[np.maximum(ref, 0), np.maximum(c, 0)])
    rows = np.column_stack(columns).astype(np.int64)
    data = np.repeat(rows[present], stats.multiplicity[present], axis=0)
    dropped = int(stats.multiplicity[~present].sum())
    if tolerance > 0:
        note = f"Success: |rating - {reference}| <= {tolerance:g} on the category scores."
    else:
        note = f"Success: the rating equals {reference}'s."
    return _cochran(data, tuple(others), dropped, (note,))
