"""pandas workflows: the ``df.irr`` accessor and grouped analysis (:func:`by`).

Importing :mod:`irr` registers the accessor ``df.irr`` (when pandas is imported, before or
after :mod:`irr`), which builds an :class:`IrrAccessor` and imports this module on first
use. Everything here delegates to :class:`irr.Agreement`; no coefficient is computed in
this module.
"""

from __future__ import annotations

import inspect
import math
import re
import warnings
from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING, Any, NamedTuple

import numpy as np
import pandas as pd

from irr._columns import choose_columns
from irr._data import align_to_index
from irr._frames import (
    count_distinct,
    head,
    is_foreign_frame,
    lazy_frame,
    lazy_groups,
    long_patterns,
    subjects_in_several_groups,
    to_pandas,
    wide_patterns,
)
from irr._long import LongRatings, long_ratings, pivot
from irr._numbers import format_number, format_pvalue
from irr._sentences import band_and_citation
from irr._source import DENSE_CELLS, DENSE_PER_RATING, frequency_weights
from irr._validation import check_bool
from irr.agreement import Agreement
from irr.difference import pool
from irr.registry import COEFFICIENTS, Coefficient, methods, statistic_row
from irr.results import Result

if TYPE_CHECKING:
    from statsmodels.iolib.summary import Summary

__all__ = ["BY_COLUMNS", "IrrAccessor", "by"]

#: Columns of :func:`by`'s output after the group keys.
BY_COLUMNS = (
    "coefficient",
    "estimate",
    "se",
    "ci_low",
    "ci_high",
    "confidence_level",
    "ci_method",
    "band",
    "n_subjects",
    "n_missing",
    "n_incomplete",
    "reason",
)

#: Agreement methods :func:`by` accepts as `statistic`: every family of the registry.
STATISTICS = methods()

#: The methods of continuous measurements (they build the Agreement with
#: ``continuous=True`` unless told otherwise).
MEASUREMENT_METHODS = tuple(c.method for c in COEFFICIENTS if "continuous" in c.needs)


# -- grouped analysis --------------------------------------------------------------------
def _as_list(value: Any) -> list[Any]:
    if isinstance(value, (list, tuple, pd.Index)):
        return list(value)
    return [value]


def _column_label(df: pd.DataFrame, key: Any, argument: str) -> Any:
    """The full label of the one column of `df` that `key` names, or raise.

    With MultiIndex columns a top-level key (``"site"``) names the column
    ``("site", "")`` when that is the only one under it.
    """
    try:
        loc = df.columns.get_loc(key)
    except (KeyError, TypeError, pd.errors.InvalidIndexError):
        loc = None
    positions = np.atleast_1d(np.arange(df.shape[1])[loc]) if loc is not None else []
    if len(positions) != 1:
        found = f" (it names {len(positions)} columns, not one)" if len(positions) else ""
        raise ValueError(
            f"`{argument}` must name columns of `df`; got [{key!r}]{found}; columns are "
            f"{list(df.columns)!r}."
        )
    return df.columns[positions[0]]


def _first_line(text: str) -> str:
    text = str(text).strip()
    return text.splitlines()[0] if text else ""


def _band(result: Result) -> Any:
    label, _ = band_and_citation(result, None)
    return label or None


def _failed_row(n_subjects: int, n_missing: int, reason: str) -> dict[str, Any]:
    """A row with no estimate; `n_missing` subjects have a missing rating."""
    return {
        "coefficient": None,
        "estimate": math.nan,
        "se": math.nan,
        "ci_low": math.nan,
        "ci_high": math.nan,
        "confidence_level": math.nan,
        "ci_method": None,
        "band": None,
        "n_subjects": n_subjects,
        "n_missing": n_missing,
        "n_incomplete": n_missing,
        "reason": reason,
    }


def _result_rows(result: Result) -> list[dict[str, Any]]:
    """The rows of `result` in :func:`by`'s table: one, or one per quantity of a result of
    several (the bias and the limits of agreement; a slope and an intercept), as its
    ``to_frame()`` lists them. The result's band and reasons go with its own estimate."""
    parts = result.parts()
    if len(parts) == 1:
        return [_result_row(result)]
    rows = []
    for part in parts:
        row = _result_row(part)
        own = part.estimate == result.estimate or (
            math.isnan(part.estimate) and math.isnan(result.estimate))
        row["band"] = _band(result) if own and not rows else None
        row["n_incomplete"] = result.n_incomplete
        rows.append(row)
    return rows


def _result_row(result: Result) -> dict[str, Any]:
    return {
        "coefficient": result.coefficient,
        "estimate": result.estimate,
        "se": result.se,
        "ci_low": result.ci.low,
        "ci_high": result.ci.high,
        "confidence_level": result.ci.confidence_level,
        "ci_method": result.ci.method,
        "band": _band(result),
        "n_subjects": result.n_subjects,
        "n_missing": result.n_missing,
        "n_incomplete": result.n_incomplete,
        "reason": "; ".join(_reasons(result)) or None,
    }


def _reasons(result: Result) -> list[str]:
    """Why a group's numbers are undefined, read from its result.

    Warnings are not caught to find out: ``warnings.catch_warnings`` swaps the
    process-wide filters and ``showwarning``, so it would take (and hide) warnings of other
    threads; the DegenerateDataWarning saying why reaches the caller as any warning does.
    """
    reasons = []
    if not math.isfinite(result.estimate):
        reasons.append(f"{result.coefficient} is undefined (nan; its DegenerateDataWarning "
                       "says why)")
    if result.ci.note.startswith("undefined"):
        reasons.append(f"{result.ci.method_name} interval {result.ci.note}")
    return reasons


def by(
    df: pd.DataFrame,
    by: Any,
    raters: Sequence[Any] | None = None,
    statistic: str = "kappa",
    *,
    categories: Sequence[Any] | None = None,
    freq_weights: Any = None,
    nan_policy: str = "omit",
    continuous: bool | None = None,
    test: bool = False,
    subject: Any = None,
    rater: Any = None,
    rating: Any = None,
    replicate: Any = None,
    **options: Any,
) -> pd.DataFrame:
    """One coefficient per group of subjects, as a tidy DataFrame.

    Parameters
    ----------
    df : DataFrame
        Wide data: one row per subject, one column per rater, plus the grouping
        column(s). Or long data (one row per rating) with `subject`, `rater` and
        `rating`. Or a polars, pyarrow, DuckDB, Dask or Spark frame of either form (a
        lazy one is summarised by its engine; see the big data guide).
    by : column label or list of column labels
        The grouping column(s), e.g. ``"site"`` or ``["site", "prompt"]``. With long
        data each must be constant within a subject (groups are groups of subjects).
    raters : sequence of column labels, optional
        The rater columns of wide data; default every column that is not a grouping
        column, the `freq_weights` column or an identifier (set aside with a warning by
        the rule of :meth:`irr.Agreement.from_frame`). Not for long data, whose raters
        are the labels in the `rater` column.
    statistic : str, default 'kappa'
        The :class:`irr.Agreement` method of a statistic the registry declares
        (:data:`irr.registry.COEFFICIENTS`: ``'fleiss_kappa'``, ``'krippendorff_alpha'``,
        ``'limits_of_agreement'``, ...), called with its defaults; or a statistic's name as
        :func:`irr.report` takes it (:data:`irr.registry.STATISTICS`: ``'loa'``,
        ``'ccc'``, ``'kappa_quadratic'``, ``'alpha_interval'``, ...), with its options, in
        any spelling (``'Kappa-Quadratic'``) or alias (:data:`irr.registry.ALIASES`).
    categories : sequence, optional
        The rating scale. Default: the categories of the **whole** data, declared to
        every group, so that a group missing a category still uses the same scale (the
        same weights for weighted kappa, the same category count for chance agreement
        of Brennan-Prediger or Gwet).
    freq_weights : column label or array-like, optional
        How many subjects each row stands for (aggregated data); see
        :meth:`irr.Agreement.from_frame`.
    nan_policy : {'omit', 'raise'}, default 'omit'
        As for :class:`irr.Agreement`.
    continuous : bool or None, default None
        As for :meth:`irr.Agreement.from_frame`, decided on the **whole** data, so that
        every group treats its ratings alike; the statistics of continuous measurements
        (limits of agreement, CCC, ...) read the ratings as measurements unless it is
        False.
    test : bool, default False
        Treat the groups as independent strata (sites, studies): add a last row
        ``"Pooled"`` with the inverse-variance pooled coefficient (SAS PROC FREQ's
        overall kappa; of limits of agreement, the pooled bias, named as the groups' bias
        rows) and the chi-square test that the groups' coefficients are equal, printed in
        a last column ``test`` on that row (``'chi2(1) = 0.30, p = 0.586'``) and given in
        ``attrs["homogeneity"]`` (``statistic``, ``df``, ``pvalue``), with the
        :class:`irr.PooledResult` in ``attrs["pooled"]`` (see :func:`irr.pool`).
        :func:`irr.plotting.forest` draws the overall row as a diamond.
    subject, rater, rating : column label, optional
        Long data: the columns holding each rating's subject, rater and rating, as for
        :meth:`irr.Agreement.from_long` (a rater who did not rate a subject, or a
        missing rating, is a missing rating).
    replicate : column label, optional
        Long data with repeated measurements: the column numbering each (subject,
        rater)'s replicates, as for :meth:`irr.Agreement.from_long`. The statistics of
        measurements use them (``'inter_intra_reliability'``, ``'measurement_error'``,
        ``'icc_components'``, ``'concordance'``, ``'deming'``, ...;
        ``'limits_of_agreement'`` with ``replicates='constant'`` or ``'varying'``);
        those that need one value per (subject, rater) (``'icc'``, ``'kendall_w'``)
        use each cell's mean, with a :class:`irr.agreement.ReplicatesAveragedWarning`.
    **options
        Passed to the statistic, e.g. ``weights="quadratic"``, ``ci="bca"``, ``rng=0``.
        ``cluster=`` and ``strata=`` may name a column, or hold one value per row of `df`
        (a Series is aligned on the index): each group gets its own rows' values.

    Returns
    -------
    DataFrame
        One row per group (sorted by the keys; missing keys form their own group; a
        statistic of several quantities, such as the bias and the two limits of
        agreement, gives a row for each quantity, as its ``to_frame()``), with
        the group key column(s) then :data:`BY_COLUMNS`: ``coefficient``, ``estimate``,
        ``se``, ``ci_low``, ``ci_high``, ``confidence_level``, ``ci_method``, ``band``
        (of the result's default scale), ``n_subjects``, ``n_missing`` (subjects the
        coefficient left out for missing ratings), ``n_incomplete`` (subjects with a
        missing rating, used or not) and ``reason`` (why the estimate is missing or
        undefined; None when all is well). ``attrs`` holds the statistic's benchmark
        ``scale`` (None when it has none) and ``bounds``, which
        :func:`irr.plotting.forest` uses.

    Raises
    ------
    ValueError
        For bad arguments: unknown columns or statistic, and any option the statistic
        rejects on the whole data (the statistic is computed on the whole data first, so
        a mistyped option fails once rather than in every group). With long data, also
        when a subject's rows fall in several groups (the first few subjects are named),
        or when a lazy frame would have to hand over its rows (replicates, `cluster`,
        `strata`).

    Notes
    -----
    A group that is too small or degenerate never stops the table: its row has nan
    numbers and the reason ("fewer than two subjects", the ValueError's message, or
    "... is undefined"). Why a coefficient is undefined (e.g. expected agreement is 1) is
    said by its DegenerateDataWarning, issued as usual: warnings are not caught, since
    catching them (``warnings.catch_warnings``) is process-wide and would hide other
    threads' warnings. Silence them with
    ``warnings.filterwarnings("ignore", category=irr.DegenerateDataWarning)``.

    **Long data.** Without replicates, long data are made wide once (one row per
    subject, a column per rater in order of first appearance, the group keys from the
    subject's rows) and analysed as wide data: the table is that of the same data in
    wide form, with the same degenerate groups, pooled row and categories of the whole
    data; `cluster` and `strata` then name columns constant within a subject. With
    replicates (a `replicate` column, or measurements repeated within a (subject,
    rater)), or a sparse design (many raters, few ratings per subject, kept as one entry
    per rating by :meth:`irr.Agreement.from_long`), each group's rows are read by
    :meth:`irr.Agreement.from_long`, the raters kept in the whole data's order (so that
    "first minus second" means the same in every group); a group's Agreement holds the
    raters who rated in it, and `cluster` and `strata` are refused. A lazy frame's long
    data are made one row per subject by its engine, its raters in sorted order of their
    labels (choose the order of two methods with ``first=`` and ``second=``):
    categorical ratings as counts of (keys, rating pattern) in one ``GROUP BY``;
    measurements as each group's moments.

    A grouping column whose value changes within a subject describes the rating rather
    than the subject (a prompt version, a session) and is refused: groups sharing
    subjects are not independent (``test=True`` would pool them as if they were), and
    a subject's ratings split between groups are not the subject rated by every rater.
    Make such a column part of the rater (``rater = model + prompt``: the raters then
    compare within each subject), or analyse each value's rows, with the ratings they
    are to be compared with, by :meth:`irr.Agreement.from_long`.

    Examples
    --------
    >>> import irr
    >>> df = irr.datasets.load("anxiety").assign(site=["a", "b"] * 10)
    >>> out = irr.by(df, "site", raters=["rater1", "rater2"], weights="quadratic")
    >>> out[["site", "estimate", "n_subjects"]].round(4)
      site  estimate  n_subjects
    0    a    0.2963          10
    1    b    0.1143          10
    >>> out = irr.by(df, "site", raters=["rater1", "rater2"], weights="quadratic", test=True)
    >>> out[["site", "estimate", "n_subjects"]].round(4)
          site  estimate  n_subjects
    0        a    0.2963          10
    1        b    0.1143          10
    2   Pooled    0.2075          20
    >>> out["test"].iloc[-1]
    'chi2(1) = 0.30, p = 0.586'
    >>> {k: round(v, 4) for k, v in out.attrs["homogeneity"].items()}
    {'statistic': 0.2971, 'df': 1, 'pvalue': 0.5857}

    Limits of agreement of two methods per group, one row per quantity:

    >>> pef = irr.datasets.load("pef").assign(visit=[1, 2] * 8 + [1])
    >>> out = irr.by(pef, "visit", raters=["wright_1", "mini_1"], statistic="loa")
    >>> out[["visit", "coefficient", "estimate"]].head(3).round(1)  # bias -/+ 1.96 SD
       visit               coefficient  estimate
    0      1  Bias (wright_1 - mini_1)     -13.1
    1      1         Lower limit (95%)     -79.7
    2      1         Upper limit (95%)      53.5

    Long data, one row per rating (here 20 patients graded by three readers; patient
    P01's first grade is missing, its row absent):

    >>> anxiety = irr.datasets.load("anxiety").assign(
    ...     patient=[f"P{i:02d}" for i in range(1, 21)], site=["a", "b"] * 10)
    >>> long = anxiety.melt(id_vars=["patient", "site"], var_name="reader",
    ...                     value_name="grade").iloc[1:]
    >>> long.head(3)
      patient site  reader  grade
    1     P02    b  rater1      3
    2     P03    a  rater1      3
    3     P04    b  rater1      4
    >>> out = irr.by(long, "site", statistic="krippendorff_alpha", level="ordinal",
    ...              subject="patient", rater="reader", rating="grade")
    >>> out[["site", "estimate", "n_subjects", "n_incomplete"]].round(4)
      site  estimate  n_subjects  n_incomplete
    0    a    0.1549          10             1
    1    b    0.1665          10             0

    Repeated measurements (two readings per meter), per group of subjects:

    >>> pef = irr.datasets.load("pef", form="long")  # subject, rater, replicate, rating
    >>> pef["visit"] = 1 + pef["subject"] % 2
    >>> out = irr.by(pef, "visit", statistic="limits_of_agreement", replicates="constant",
    ...              subject="subject", rater="rater", rating="rating", replicate="replicate")
    >>> out[["visit", "coefficient", "estimate", "n_subjects"]].round(1)
       visit           coefficient  estimate  n_subjects
    0      1  Bias (wright - mini)       6.2           8
    1      1     Lower limit (95%)     -63.3           8
    2      1     Upper limit (95%)      75.8           8
    3      2  Bias (wright - mini)     -16.9           9
    4      2     Lower limit (95%)     -90.6           9
    5      2     Upper limit (95%)      56.7           9
    """
    test = check_bool(test, "test")
    if any(v is not None for v in (subject, rater, rating, replicate)):
        return _by_long(df, by, raters, statistic, LongColumns(subject, rater, rating, replicate),
                        categories=categories, freq_weights=freq_weights,
                        nan_policy=nan_policy, continuous=continuous, test=test,
                        options=options)
    if is_foreign_frame(df):
        if not lazy_frame(df):
            df = to_pandas(df)
        else:  # the engine counts the rating patterns of every group
            if "cluster" in options or "strata" in options:
                raise ValueError("`cluster` and `strata` need one row per subject, which a lazy "
                                 "frame does not hand over; collect the columns first.")
            keys = _as_list(by)
            if statistic_row(statistic).method in MEASUREMENT_METHODS and continuous is not False:
                return _by_lazy_measurements(df, keys, raters, statistic, nan_policy, test,
                                             options)
            patterns, raters, count = wide_patterns(df, raters, None, freq_weights, continuous,
                                                    by=keys)
            return _by_pandas(patterns, keys, raters, statistic, categories=categories,
                              freq_weights=count, nan_policy=nan_policy, continuous=False,
                              test=test, **options)
    return _by_pandas(df, by, raters, statistic, categories=categories,
                      freq_weights=freq_weights, nan_policy=nan_policy, continuous=continuous,
                      test=test, **options)


def _by_pandas(
    df: pd.DataFrame,
    by: Any,
    raters: Sequence[Any] | None = None,
    statistic: str = "kappa",
    *,
    categories: Sequence[Any] | None = None,
    freq_weights: Any = None,
    nan_policy: str = "omit",
    continuous: bool | None = None,
    test: bool = False,
    **options: Any,
) -> pd.DataFrame:
    """:func:`by` on a pandas DataFrame."""
    if not isinstance(df, pd.DataFrame):
        raise TypeError(f"`df` must be a pandas DataFrame; got {type(df).__name__}.")
    keys = [by] if isinstance(by, tuple) and by in df.columns else _as_list(by)
    if not keys:
        raise ValueError(f"`by` must name columns of `df`; got {by!r}.")
    # full labels: with MultiIndex columns "site" is the column ("site", ""), which must
    # not also be taken as a rater
    keys = [_column_label(df, k, "by") for k in keys]
    row = statistic_row(statistic)
    statistic = row.method
    options = {**row.options, **options}
    if continuous is None and statistic in MEASUREMENT_METHODS:
        continuous = True
    weight_column = (_column_label(df, freq_weights, "freq_weights")
                     if isinstance(freq_weights, str) else None)
    if weight_column is not None:
        freq_weights = weight_column
    if raters is None:  # the rating columns by the rule of Agreement.from_frame
        choice = choose_columns(df, exclude=[*keys, *([weight_column] if weight_column else [])])
        if choice.detected:
            warnings.warn(choice.describe(), UserWarning, stacklevel=2)
        raters = choice.raters
    raters = list(raters)
    overlap = [r for r in raters if r in keys]
    if overlap:
        raise ValueError(f"`raters` and `by` share columns: {overlap!r}.")
    weights = None if freq_weights is None else frequency_weights(df, freq_weights)

    def agreement(frame: pd.DataFrame, w: np.ndarray | None, cats: Any) -> Agreement:
        return Agreement.from_frame(
            frame, raters, categories=cats, nan_policy=nan_policy, freq_weights=w,
            continuous=continuous,
        )

    whole = agreement(df, weights, categories)
    continuous = whole.continuous
    if categories is None and not continuous:
        categories = list(whole.categories)
    overall = getattr(whole, statistic)(**options)  # bad options fail here, once
    per_row = _per_row_options(df, options)

    rows = []
    results: list[tuple[Any, Result]] = []
    positions = np.arange(len(df))
    grouped = pd.Series(positions, index=df.index).groupby(
        [df[k] for k in keys], sort=True, dropna=False, observed=True
    )
    for key, members in grouped:
        index = members.to_numpy()
        group = df.iloc[index]
        w = None if weights is None else weights[index]
        split = {name: values[index] for name, values in per_row.items()}
        rows.extend(_group_rows(
            keys, key, int(len(group) if w is None else w.sum()),
            lambda group=group, w=w: _missing_rows(group, raters, w),
            lambda group=group, w=w, split=split: getattr(
                agreement(group, w, categories), statistic)(**{**options, **split}),
            results))
    return _by_table(rows, keys, results, overall, test)


def _group_rows(keys: list[Any], key: Any, n_subjects: int, n_missing: Callable[[], int],
                compute: Callable[[], Result],
                results: list[tuple[Any, Result]]) -> list[dict[str, Any]]:
    """The rows of one group of :func:`by`: those of its result (`compute`, appended to
    `results`), or one row saying why there is none (fewer than two subjects; the
    ValueError's message), with `n_subjects` and the subjects with a missing rating."""
    key_values = dict(zip(keys, key if isinstance(key, tuple) else (key,), strict=True))
    try:
        if n_subjects < 2:
            found = [_failed_row(n_subjects, n_missing(), "fewer than two subjects")]
        else:
            result = compute()
            found = _result_rows(result)
            results.append((key, result))
    except ValueError as exc:
        found = [_failed_row(n_subjects, n_missing(), _first_line(exc))]
    return [{**key_values, **row} for row in found]


def _by_lazy_measurements(df: Any, keys: list[Any], raters: Any, statistic: str,
                          nan_policy: str, test: bool, options: dict[str, Any]) -> pd.DataFrame:
    """:func:`by` of a statistic of continuous measurements on a lazy frame: each group's
    moments summed by the engine (one pass over the group's rows), never its rows; the
    whole frame's first, so that options the engine cannot serve fail once."""
    row = statistic_row(statistic)
    options = {**row.options, **options}
    if raters is None:  # the rating columns by the rule of Agreement.from_frame, keys aside
        choice = choose_columns(head(df), exclude=keys)
        if choice.detected:
            warnings.warn(choice.describe(), UserWarning, stacklevel=3)
        raters = choice.raters
    raters = list(raters)

    def agreement(frame: Any) -> Agreement:
        return Agreement.from_frame(frame, raters, nan_policy=nan_policy, continuous=True)

    return _lazy_measurement_groups(df, keys, agreement, row.method, test, options)


def _lazy_measurement_groups(df: Any, keys: list[Any], agreement: Callable[[Any], Agreement],
                             method: str, test: bool, options: dict[str, Any],
                             subject: Any = None) -> pd.DataFrame:
    """The table of :func:`by` of a statistic of measurements of a lazy frame: the
    Agreement of each group's rows (a filter of `df`), by `agreement`, whose engine sums
    the moments. Long data (`subject` names their subject column) may have a group where
    fewer than two raters measured: its row says so, with every subject incomplete."""
    overall = getattr(agreement(df), method)(**options)
    rows = []
    results: list[tuple[Any, Result]] = []
    for key, frame in lazy_groups(df, keys):
        key_values = dict(zip(keys, key, strict=True))
        try:
            ag = agreement(frame)
        except ValueError as exc:
            if subject is None:
                raise
            n = count_distinct(frame, subject)
            rows.append({**key_values, **_failed_row(n, n, _first_line(exc))})
            continue
        rows.extend(_group_rows(keys, key if len(key) > 1 else key[0], ag.n_subjects,
                                lambda ag=ag: ag.n_missing,
                                lambda ag=ag: getattr(ag, method)(**options), results))
    return _by_table(rows, keys, results, overall, test)


class LongColumns(NamedTuple):
    """The columns of long data (one row per rating) given to :func:`by`."""

    subject: Any
    rater: Any
    rating: Any
    replicate: Any = None


def _by_long(df: Any, by: Any, raters: Any, statistic: str, columns: LongColumns, *,
             categories: Any, freq_weights: Any, nan_policy: str, continuous: bool | None,
             test: bool, options: dict[str, Any]) -> pd.DataFrame:
    """:func:`by` of long data: checks the arguments, then the pandas or lazy path."""
    absent = [name for name in ("subject", "rater", "rating") if getattr(columns, name) is None]
    if absent:
        raise ValueError(
            f"Long data (one row per rating) need `subject`, `rater` and `rating`; "
            f"{', '.join(f'`{a}`' for a in absent)} not given.")
    if raters is not None:
        raise ValueError(
            f"`raters` names the rater columns of wide data; long data name the column of "
            f"rater labels with `rater=` (got raters={raters!r}, rater={columns.rater!r}).")
    if freq_weights is not None:
        raise ValueError("`freq_weights` counts the subjects of a wide row; long data have "
                         "one row per rating: aggregate to wide rows, or drop it.")
    keys = ([by] if isinstance(by, tuple) and isinstance(df, pd.DataFrame) and by in df.columns
            else _as_list(by))
    if not keys:
        raise ValueError(f"`by` must name columns of `df`; got {by!r}.")
    named = {v for v in columns if v is not None}
    shared = [k for k in keys if k in named]
    if shared:
        raise ValueError(f"`by` names columns of the long data's subject, rater, rating or "
                         f"replicate: {shared!r}; group by another column.")
    if is_foreign_frame(df):
        if lazy_frame(df):
            return _by_lazy_long(df, keys, statistic, columns, categories=categories,
                                 nan_policy=nan_policy, continuous=continuous, test=test,
                                 options=options)
        df = to_pandas(df)
    if not isinstance(df, pd.DataFrame):
        raise TypeError(f"`df` must be a pandas DataFrame; got {type(df).__name__}.")
    keys = [_column_label(df, k, "by") for k in keys]
    long = long_ratings(df, columns.subject, columns.rater, columns.rating, replicates=True)
    grouped = pd.Series(np.arange(len(df)), index=df.index).groupby(
        [df[k] for k in keys], sort=True, dropna=False, observed=True)
    _require_one_group(long, grouped.ngroup().to_numpy(), f"`by` column(s) {keys!r}")
    if (columns.replicate is None
            and long.n_cells <= max(DENSE_CELLS, DENSE_PER_RATING * len(long.subject))
            and np.bincount(long.subject * len(long.raters) + long.rater).max() == 1):
        # one rating per (subject, rater) in a dense layout: the wide table, one row per
        # subject
        carried = keys + _per_subject_columns(df, long, options)
        return _by_pandas(_pivot_with(df, long, carried), keys, list(long.raters), statistic,
                          categories=categories, nan_policy=nan_policy,
                          continuous=continuous, test=test, **options)
    return _by_long_groups(df, keys, grouped, long, statistic, columns,
                           categories=categories, nan_policy=nan_policy,
                           continuous=continuous, test=test, options=options)


def _several_groups(what: str, n: int, subjects: list[Any]) -> ValueError:
    few = [v.item() if isinstance(v, np.generic) else v for v in subjects[:5]]
    return ValueError(
        f"{what} must be constant within each subject (the groups are groups of "
        f"subjects); {n} subject(s) have rows in several groups: {few!r}"
        f"{' ...' if n > len(few) else ''}. A property of each rating (a prompt version, a "
        "session) does not split the subjects: make it part of the rater (e.g. rater = "
        "model + prompt), or analyse each value's rows with Agreement.from_long.")


def _require_one_group(long: LongRatings, code: np.ndarray, what: str) -> None:
    """Raise when a subject's rows have different integer `code` (one per row of long
    data): a ValueError naming the first few such subjects."""
    n = len(long.subjects)
    low = np.full(n, np.iinfo(np.int64).max, dtype=np.int64)
    high = np.full(n, np.iinfo(np.int64).min, dtype=np.int64)
    np.minimum.at(low, long.subject, code)
    np.maximum.at(high, long.subject, code)
    several = np.flatnonzero(low != high)
    if len(several):
        raise _several_groups(what, len(several), list(long.subjects[several[:5]]))


def _per_subject_columns(df: pd.DataFrame, long: LongRatings,
                         options: dict[str, Any]) -> list[Any]:
    """The columns `cluster` and `strata` name, checked constant within each subject (long
    data's one value per subject)."""
    out = []
    for name in ("cluster", "strata"):
        value = options.get(name)
        if value is None:
            continue
        if not (isinstance(value, str) or np.isscalar(value)) or value not in df.columns:
            raise ValueError(f"With long data, `{name}` must name a column of `df` (one value "
                             f"per subject); got {type(value).__name__}.")
        code = pd.factorize(df[value], use_na_sentinel=False)[0]
        _require_one_group(long, code, f"`{name}` column {value!r}")
        out.append(value)
    return out


def _pivot_with(df: pd.DataFrame, long: LongRatings, carried: list[Any]) -> pd.DataFrame:
    """Long data with one rating per (subject, rater) as a wide frame: one row per subject
    (in order of first appearance, indexed by the subject labels), the `carried` columns
    (constant within a subject) from its first row, then one column per rater."""
    values, names, subjects = pivot(long)
    clash = [c for c in carried if c in names]
    if clash:
        raise ValueError(f"Column(s) {clash!r} of `df` are also raters' names: rename them.")
    # subjects are coded in order of first appearance: a subject's first row is where
    # the running maximum of the codes grows
    first = np.flatnonzero(np.diff(np.maximum.accumulate(long.subject), prepend=-1) > 0)
    wide = df[carried].iloc[first].reset_index(drop=True)
    for name, column in zip(names, values, strict=True):
        wide[name] = column
    return wide.set_axis(subjects, axis=0)


def _by_long_groups(df: pd.DataFrame, keys: list[Any], grouped: Any, long: LongRatings,
                    statistic: str, columns: LongColumns, *, categories: Any,
                    nan_policy: str, continuous: bool | None, test: bool,
                    options: dict[str, Any]) -> pd.DataFrame:
    """:func:`by` of long data with replicates (a `replicate` column, or measurements
    repeated within a (subject, rater)) or of a sparse design (too many subjects x
    raters to lay out densely): each group's rows read by
    :meth:`irr.Agreement.from_long`, its raters in the whole data's order."""
    row = statistic_row(statistic)
    options = {**row.options, **options}
    if continuous is None and row.method in MEASUREMENT_METHODS:
        continuous = True
    for name in ("cluster", "strata"):
        if options.get(name) is not None:
            raise ValueError(f"`{name}` is not available for long data with replicates or "
                             "of a sparse design (many raters, few ratings per subject): "
                             "collapse them to one rating per (subject, rater) first.")

    def agreement(frame: pd.DataFrame, cats: Any) -> Agreement:
        return Agreement.from_long(
            frame, subject=columns.subject, rater=columns.rater, rating=columns.rating,
            replicate=columns.replicate, categories=cats, nan_policy=nan_policy,
            continuous=continuous)

    whole = agreement(df, categories)
    if categories is None and not whole.continuous:
        categories = list(whole.categories)
    overall = getattr(whole, row.method)(**options)  # bad options fail here, once
    n, m = len(long.subjects), len(long.raters)
    given = ~pd.isna(df[columns.rating]).to_numpy()
    rated = np.unique(long.subject[given] * m + long.rater[given])
    incomplete = np.bincount(rated // m, minlength=n) < m
    rows = []
    results: list[tuple[Any, Result]] = []
    for key, members in grouped:
        index = _raters_first(members.to_numpy(), long.rater)
        subjects = np.unique(long.subject[index])
        rows.extend(_group_rows(
            keys, key, len(subjects),
            lambda subjects=subjects: int(incomplete[subjects].sum()),
            lambda index=index: getattr(agreement(df.iloc[index], categories),
                                        row.method)(**options),
            results))
    return _by_table(rows, keys, results, overall, test)


def _raters_first(index: np.ndarray, rater: np.ndarray) -> np.ndarray:
    """Rows `index` of long data ordered so that the raters first appear in the whole
    data's order (`rater` codes), as :meth:`irr.Agreement.from_long` takes them (so that
    "first minus second" means the same in every group): unchanged when they already do,
    else sorted by rater (stably)."""
    codes = rater[index]
    first = np.unique(codes, return_index=True)[1]
    if np.all(np.diff(first) > 0):
        return index
    return index[np.argsort(codes, kind="stable")]


def _by_lazy_long(df: Any, keys: list[Any], statistic: str, columns: LongColumns, *,
                  categories: Any, nan_policy: str, continuous: bool | None, test: bool,
                  options: dict[str, Any]) -> pd.DataFrame:
    """:func:`by` of long data in a lazy frame: categorical ratings as the engine's counts
    of (keys, rating pattern); measurements as each group's moments summed by the
    engine."""
    if "cluster" in options or "strata" in options:
        raise ValueError("`cluster` and `strata` need one row per subject, which a lazy "
                         "frame does not hand over; collect the columns first.")
    if columns.replicate is not None:
        raise ValueError("`replicate` needs the rows of continuous measurements, which a "
                         "lazy frame does not hand over; collect them first.")
    present = list(head(df, 0).columns)
    for argument, name in (("subject", columns.subject), ("rater", columns.rater),
                           ("rating", columns.rating), *(("by", k) for k in keys)):
        if name not in present:
            raise ValueError(f"`{argument}` must name a column of `df`; got {name!r}, columns "
                             f"are {present!r}.")
    n, few = subjects_in_several_groups(df, columns.subject, keys)
    if n:
        raise _several_groups(f"`by` column(s) {keys!r}", n, few)
    row = statistic_row(statistic)
    if row.method in MEASUREMENT_METHODS and continuous is not False:
        options = {**row.options, **options}

        def agreement(frame: Any) -> Agreement:
            return Agreement.from_long(frame, subject=columns.subject, rater=columns.rater,
                                       rating=columns.rating, nan_policy=nan_policy,
                                       continuous=True)

        return _lazy_measurement_groups(df, keys, agreement, row.method, test, options,
                                        subject=columns.subject)
    patterns, raters, count = long_patterns(df, columns.subject, columns.rater,
                                            columns.rating, continuous, by=keys)
    return _by_pandas(patterns, keys, raters, statistic, categories=categories,
                      freq_weights=count, nan_policy=nan_policy, continuous=False, test=test,
                      **options)


def _by_table(rows: list[dict[str, Any]], keys: list[Any],
              results: list[tuple[Any, Result]], overall: Any, test: bool) -> pd.DataFrame:
    """The table of :func:`by` from its group rows: the pooled row and homogeneity test
    with `test`, and in ``attrs`` what a forest plot needs (the statistic's benchmark
    scale and range, from the whole data's result `overall`)."""
    if test:
        rows.append(_pooled_row(keys, results, out_attrs := {}))
    # with `test`, a last column holds the test of equal coefficients on the pooled row,
    # so that printing the table shows it (it is also in attrs["homogeneity"])
    out = pd.DataFrame(rows, columns=[*keys, *BY_COLUMNS, *(["test"] if test else [])])
    if test:
        out["test"] = out["test"].fillna("")
        out.attrs.update(out_attrs)
    out.attrs.update(scale=getattr(overall, "scale", None),
                     bounds=tuple(getattr(overall, "bounds", (-math.inf, math.inf))))
    return out


def _pooled_row(keys: list[Any], results: list[tuple[Any, Result]],
                attrs: dict[str, Any]) -> dict[str, Any]:
    """The "Pooled" row of :func:`by` with ``test=True``: the pooled coefficient of the
    groups; the test of equal coefficients and the pooled result go to `attrs`."""
    usable = [(k, r) for k, r in results if math.isfinite(r.estimate)
              and math.isfinite(r.se) and r.se > 0]
    if len(usable) < 2:
        if results and not any(math.isfinite(r.se) for _, r in results):
            raise ValueError(
                f"`test=True` pools the groups with inverse-variance weights, and "
                f"{results[0][1].coefficient} has no standard error (its interval is not "
                "a Wald interval): compare two groups with irr.difference(..., "
                "independent=True) instead."
            )
        raise ValueError(
            f"`test=True` needs at least two groups with an estimate and a positive "
            f"standard error; got {len(usable)}."
        )
    res = pool([r for _, r in usable], labels=[str(k) for k, _ in usable],
               confidence_level=usable[0][1].ci.confidence_level)
    attrs.update(pooled=res, overall_row=True,
                 homogeneity={"statistic": res.homogeneity_statistic,
                              "df": res.homogeneity_df, "pvalue": res.homogeneity_pvalue})
    row = _result_row(res)
    # the pooled quantity is each group's estimate (of limits of agreement: the bias),
    # named as the groups' rows name it
    first = usable[0][1].to_frame()
    row["coefficient"] = str(first.index[0]) if len(first) > 1 else usable[0][1].coefficient
    row["test"] = (f"chi2({res.homogeneity_df:g}) = "
                   f"{format_number(res.homogeneity_statistic, 2)}, "
                   f"{format_pvalue(res.homogeneity_pvalue, apa=False)}")
    row["n_missing"] = sum(r.n_missing for _, r in usable)
    row["n_incomplete"] = sum(r.n_incomplete for _, r in usable)
    return {keys[0]: "Pooled", **{k: None for k in keys[1:]}, **row}


def _per_row_options(df: pd.DataFrame, options: dict[str, Any]) -> dict[str, np.ndarray]:
    """`cluster` and `strata` given as one value per row of `df` (a Series aligned on its
    index, or an array), to be split per group like `freq_weights`; a column name passes
    through (each group's Agreement reads its own rows of the column)."""
    out = {}
    for name in ("cluster", "strata"):
        values = options.get(name)
        if values is None or isinstance(values, str) or (
                np.isscalar(values) and values in df.columns):
            continue
        array = np.asarray(align_to_index(values, df.index, name, "`df`"), dtype=object)
        if array.ndim != 1 or len(array) != len(df):
            raise ValueError(
                f"`{name}` must be a column of `df` or hold one value per row of `df` "
                f"({len(df)}); got shape {array.shape}."
            )
        out[name] = array
    return out


def _missing_rows(group: pd.DataFrame, raters: list[Any], w: np.ndarray | None) -> int:
    missing = group[raters].isna().any(axis=1).to_numpy()
    return int(missing.sum() if w is None else w[missing].sum())


# -- the accessor ------------------------------------------------------------------------
class IrrAccessor:
    """``df.irr``: agreement statistics of a DataFrame's rater columns.

    Every method builds an :class:`irr.Agreement` with :meth:`agreement` and calls the
    method of the same meaning; keyword options pass through.

    Examples
    --------
    >>> import irr
    >>> anxiety = irr.datasets.load("anxiety")
    >>> round(anxiety.irr.kappa("rater1", "rater2", weights="quadratic").estimate, 4)
    0.2968
    >>> anxiety.irr.agreement().n_raters
    3
    """

    def __init__(self, df: pd.DataFrame) -> None:
        self._df = df

    def agreement(
        self,
        raters: Sequence[Any] | None = None,
        *,
        categories: Sequence[Any] | None = None,
        nan_policy: str = "omit",
        freq_weights: Any = None,
        subject: Any = None,
        rater: Any = None,
        rating: Any = None,
        continuous: bool | None = None,
        replicate: Any = None,
    ) -> Agreement:
        """An :class:`irr.Agreement` of the rater columns (default: all columns).

        Long data (one row per rating) is read with ``subject=``, ``rater=`` and
        ``rating=`` (:meth:`irr.Agreement.from_long`).

        Parameters
        ----------
        raters : sequence of column labels, optional
            The rater columns of wide data; default every column but identifiers (set
            aside with a warning, as :meth:`irr.Agreement.from_frame` does).
        categories, nan_policy, freq_weights : optional
            How the columns are read, as for :meth:`irr.Agreement.from_frame`
            (`freq_weights`: wide data only).
        subject, rater, rating : column label, optional
            Long data: the columns of the subject, the rater and the rating
            (:meth:`irr.Agreement.from_long`).
        continuous : bool, optional
            Read the ratings as continuous measurements (default: detected).
        replicate : column label, optional
            Long data: the column numbering a rater's repeated readings of a subject.

        Returns
        -------
        Agreement

        Examples
        --------
        >>> import irr
        >>> anxiety = irr.datasets.load("anxiety")
        >>> ag = anxiety.irr.agreement(["rater1", "rater2"])
        >>> ag.n_raters, ag.n_subjects
        (2, 20)
        """
        if subject is not None or rater is not None or rating is not None:
            return Agreement.from_long(
                self._df, subject=subject, rater=rater, rating=rating,
                categories=categories, nan_policy=nan_policy, replicate=replicate,
                continuous=continuous,
            )
        return Agreement.from_frame(
            self._df, raters, categories=categories, nan_policy=nan_policy,
            freq_weights=freq_weights, continuous=continuous,
        )

    def _call(self, method: str, raters: Any, build: dict[str, Any], options: dict) -> Any:
        return getattr(self.agreement(raters, **build), method)(**options)

    def summary(self, raters: Sequence[Any] | None = None, **options: Any) -> Summary:
        """Every applicable coefficient in one table (:meth:`irr.Agreement.summary`).

        Parameters
        ----------
        raters : sequence of column labels, optional
            The rater columns; default every column but identifiers.
        **options
            How the frame is read (the keywords of :meth:`agreement`), then the keywords
            of :meth:`irr.Agreement.summary`.

        Returns
        -------
        statsmodels.iolib.summary.Summary

        Examples
        --------
        >>> import irr
        >>> anxiety = irr.datasets.load("anxiety")
        >>> text = anxiety.irr.summary().as_text()
        >>> "Fleiss' kappa" in text, "ICC" in text
        (True, True)
        """
        build = {name: options.pop(name) for name, _ in _READ if name in options}
        return self._call("summary", raters, build, options)

    def by(self, by: Any, raters: Sequence[Any] | None = None, statistic: str = "kappa",
           **options: Any) -> pd.DataFrame:
        """One coefficient per group: :func:`irr.by` on this frame (wide data, or long
        data with ``subject=``, ``rater=``, ``rating=`` and ``replicate=``).

        Parameters
        ----------
        by : column label or list of column labels
            The grouping column(s).
        raters : sequence of column labels, optional
            The rater columns; default every column but identifiers and `by`.
        statistic : str, default 'kappa'
            The statistic, by its :class:`irr.Agreement` method or its name in the
            statistics vocabulary (``'fleiss'``, ``'alpha_ordinal'``, ``'loa'``).
        **options
            The keywords of :func:`irr.by` (``test=``, long data's columns) and of the
            statistic's method.

        Returns
        -------
        pandas.DataFrame
            One row per group, as :func:`irr.by`.

        Examples
        --------
        >>> import irr
        >>> anxiety = irr.datasets.load("anxiety")
        >>> df = anxiety.assign(site=["a", "b"] * 10)
        >>> df.irr.by("site", raters=["rater1", "rater2"])[["site", "estimate", "n_subjects"]].round(4)
          site  estimate  n_subjects
        0    a    0.3506          10
        1    b   -0.1250          10
        """
        return globals()["by"](self._df, by, raters, statistic, **options)


# -- the accessor's statistics, one method per registry entry that declares an accessor -
#: The keywords that say how the frame is read (:meth:`IrrAccessor.agreement`), which every
#: statistic's accessor method takes after its method's own.
_READ = (("categories", None), ("nan_policy", "omit"), ("freq_weights", None),
         ("continuous", None), ("subject", None), ("rater", None), ("rating", None),
         ("replicate", None))
_SECTION = re.compile(r"^(\w[\w ]*)\n-+\n", re.MULTILINE)


def _sections(doc: str | None) -> tuple[str, dict[str, str]]:
    """The summary paragraph and the numpydoc sections (title -> body) of a docstring."""
    text = inspect.cleandoc(doc or "")
    parts = _SECTION.split(text)
    sections = {title: body.strip("\n") for title, body in zip(parts[1::2], parts[2::2],
                                                               strict=True)}
    return parts[0].strip().split("\n\n")[0], sections


def _entries(section: str) -> list[tuple[tuple[str, ...], str]]:
    """The entries of a numpydoc Parameters section: (the names it documents, its text)."""
    entries: list[tuple[tuple[str, ...], str]] = []
    for line in section.splitlines():
        if line and not line.startswith(" "):
            names = tuple(n.strip() for n in line.split(" : ")[0].split(","))
            entries.append((names, line))
        elif entries:
            names, text = entries[-1]
            entries[-1] = (names, f"{text}\n{line}")
    return entries


def _accessor_signature(entry: Coefficient, method: Callable[..., Any]) -> inspect.Signature:
    """``df.irr.<accessor>``'s signature: the columns (``raters``, or the pair), the
    Agreement method's own parameters, then the keywords that read the frame."""
    signature = inspect.signature(method)
    own = [p for name, p in signature.parameters.items() if name != "self"]
    positional = inspect.Parameter.POSITIONAL_OR_KEYWORD
    keyword = inspect.Parameter.KEYWORD_ONLY
    head = [inspect.Parameter("self", positional)]
    if entry.columns == "pair" and "first" not in signature.parameters:
        head += [inspect.Parameter("rater_a", positional, annotation="Any"),
                 inspect.Parameter("rater_b", positional, annotation="Any")]
    elif entry.columns != "pair":  # required parameters (a bound to test) come first
        required = [p for p in own if p.default is inspect.Parameter.empty]
        head += [*required, inspect.Parameter("raters", positional, default=None,
                                              annotation="Sequence[Any] | None")]
        own = [p.replace(kind=keyword) for p in own if p not in required]
    measured = entry.data == "continuous"
    read = [inspect.Parameter(name, keyword, default=True if name == "continuous" and measured
                              else default, annotation="Any")
            for name, default in _READ]
    return signature.replace(parameters=[*head, *own, *read])


def _accessor_doc(entry: Coefficient, method: Callable[..., Any]) -> str:
    """``df.irr.<accessor>``'s docstring: the Agreement method's summary, parameters and
    returns, with the columns and the keywords that read the frame."""
    summary, sections = _sections(method.__doc__)
    measured = entry.data == "continuous"
    if entry.columns == "pair" and "first" not in inspect.signature(method).parameters:
        columns = "rater_a, rater_b : column label\n    The two rater columns."
    elif entry.columns == "pair":
        columns = ""  # the method's own `first` and `second` name the columns
    else:
        columns = ("raters : sequence of column labels, optional\n"
                   "    The rater columns; default every column but identifiers (set aside "
                   "with a\n    warning, as :meth:`irr.Agreement.from_frame` does).")
    read = ("categories, nan_policy, freq_weights, continuous : optional\n"
            "    How the columns are read, as for :meth:`irr.Agreement.from_frame`"
            + (" (measurements:\n    ``continuous=True`` unless given)." if measured else ".")
            + "\nsubject, rater, rating, replicate : column label, optional\n"
            "    Long data (one row per rating), as for :meth:`irr.Agreement.from_long`.")
    entries = _entries(columns) + _entries(sections.get("Parameters", "")) + _entries(read)
    missing = [name for name in _accessor_signature(entry, method).parameters
               if name != "self" and not any(name in names for names, _ in entries)]
    if missing:  # the method's docstring does not list them: point to it
        entries += [((name,), f"{name}\n    As for :meth:`irr.Agreement.{entry.method}`.")
                    for name in missing]
    ordered: list[str] = []  # in the signature's order, each entry once
    for name in _accessor_signature(entry, method).parameters:
        text = next((text for names, text in entries if name in names), None)
        if text is not None and text not in ordered:
            ordered.append(text)
    parameters = "\n".join(ordered)
    blocks = [f"{summary}\n\n``df.irr.{entry.accessor}(...)`` is :meth:`irr.Agreement."
              f"{entry.method}` of the frame's\ncolumns, read by :meth:`agreement`.",
              f"Parameters\n----------\n{parameters}"]
    if "Returns" in sections:
        blocks.append(f"Returns\n-------\n{sections['Returns']}")
    blocks.append(f"See Also\n--------\nirr.Agreement.{entry.method}")
    return "\n\n".join(blocks)


def _accessor_method(entry: Coefficient) -> Callable[..., Any]:
    """``df.irr.<accessor>`` of a registry entry: an Agreement of the frame's columns (or
    of its long data), then the Agreement method with the caller's keywords."""
    method = getattr(Agreement, entry.method)
    signature = _accessor_signature(entry, method)
    names = [name for name, _ in _READ]
    measured = entry.data == "continuous"

    def statistic(self: IrrAccessor, *args: Any, **kwargs: Any) -> Any:
        try:
            given = signature.bind(self, *args, **kwargs).arguments
        except TypeError as exc:  # name the method: bind's message does not
            raise TypeError(f"df.irr.{statistic.__name__}(): {exc}") from None
        given.pop("self")
        read = {name: given.pop(name) for name in names if name in given}
        if measured:
            read.setdefault("continuous", True)
        raters = given.pop("raters", None)
        if "rater_a" in given:
            raters = [given.pop("rater_a"), given.pop("rater_b")]
        long = any(read.get(k) is not None for k in ("subject", "rater", "rating"))
        first, second = given.get("first"), given.get("second")
        if first is not None and second is not None and raters is None and not long:
            raters = [first, second]  # the pair of wide columns
        return self._call(entry.method, raters, read, given)

    statistic.__name__ = entry.accessor or entry.method
    statistic.__qualname__ = f"IrrAccessor.{statistic.__name__}"
    statistic.__module__ = __name__
    statistic.__doc__ = _accessor_doc(entry, method)
    statistic.__signature__ = signature  # type: ignore[attr-defined]
    statistic.__wrapped_method__ = method  # type: ignore[attr-defined]
    return statistic


for _entry in COEFFICIENTS:
    if _entry.accessor is not None:
        setattr(IrrAccessor, _entry.accessor, _accessor_method(_entry))
