"""`Agreement`: the ratings of a set of subjects by two or more raters (the façade).

Each constructor turns its input into one :class:`irr._source.Source`; each method
validates its options once into an :class:`~irr.inference.options.InferenceOptions`,
builds the :class:`~irr.inference.plan.ResamplingPlan` shared by every coefficient, and
calls the estimator of its family with the cached
:class:`~irr._statistics.Statistics`. No coefficient is computed here.
"""

from __future__ import annotations

import warnings
from collections.abc import Mapping, Sequence
from functools import cached_property
from typing import TYPE_CHECKING, Any

import numpy as np

from irr._columns import ContinuousScoresWarning, continuity, scale_info
from irr._data import Ratings, preview
from irr._frames import LazyMeasurements
from irr._lazy import lazy_module
from irr._measurements import Measurements
from irr._source import Source
from irr._statistics import Statistics, coded_by_rank, subject_patterns, value_source
from irr._validation import check_bool, check_confidence_level
from irr.estimators import kappa as kappa_estimator
from irr.inference.keywords import (
    ALPHA_CIS,
    ALPHA_NOTES,
    CCC_CIS,
    CCC_NOTES,
    CP_CIS,
    CP_NOTES,
    CRONBACH_TEXTS,
    DEMING_CIS,
    DEMING_NOTES,
    ICC_COMPONENTS_NOTES,
    ICC_TEXTS,
    MEASUREMENT_ERROR_NOTES,
    NO_SE_CI,
    NO_SE_CIS,
    NONE_IS_WALD,
    TDI_CIS,
    TDI_NOTES,
    WALD_CIS,
    WALD_OR_NONE_CIS,
    inference_keywords,
)
from irr.inference.options import InferenceOptions
from irr.inference.plan import ResamplingPlan
from irr.results import KappaResult, ProportionResult, Result
from irr.summary import design_fact, results_summary

pd = lazy_module("pandas")  # imported on first use: data streamed by DuckDB never need it
# the modules of statistics a call may never need: imported when first used (irr._lazy)
bangdiwala_estimator = lazy_module("irr.estimators.bangdiwala")
categories_estimator = lazy_module("irr.estimators.categories")
ccc_estimator = lazy_module("irr.estimators.concordance")
chance_corrected = lazy_module("irr.estimators.chance_corrected")
cronbach = lazy_module("irr.estimators.cronbach")
icc = lazy_module("irr.estimators.icc")
inter_intra = lazy_module("irr.estimators.inter_intra")
kendall = lazy_module("irr.estimators.kendall")
krippendorff = lazy_module("irr.estimators.krippendorff")
limits = lazy_module("irr.estimators.limits")
measurement_error = lazy_module("irr.estimators.measurement_error")
method_regression = lazy_module("irr.estimators.method_regression")
pabak_estimator = lazy_module("irr.estimators.pabak")
percent = lazy_module("irr.estimators.percent")
rank_correlation = lazy_module("irr.estimators.rank_correlation")
variance_components = lazy_module("irr.estimators.variance_components")
variance_ratio = lazy_module("irr.estimators.variance_ratio")
error_rate = lazy_module("irr.inference.error_rate")
paired = lazy_module("irr.inference.paired")
registry = lazy_module("irr.registry")

if TYPE_CHECKING:
    from statsmodels.iolib.summary import Summary

    from irr.estimators.categories import CategoryResults
    from irr.estimators.chance_corrected import ChanceCorrectedResult, FleissKappaResult
    from irr.estimators.concordance import ConcordanceResult, CoverageResult, TDIResult
    from irr.estimators.cronbach import CronbachResult
    from irr.estimators.icc import ICCResult
    from irr.estimators.inter_intra import InterIntraResult
    from irr.estimators.kendall import KendallResult
    from irr.estimators.krippendorff import KrippendorffResult
    from irr.estimators.limits import LimitsOfAgreementResult
    from irr.estimators.measurement_error import MeasurementErrorResult
    from irr.estimators.method_regression import MethodRegressionResult
    from irr.estimators.pabak import PabakResult
    from irr.estimators.variance_components import ComponentsICCResult
    from irr.estimators.variance_ratio import VarianceRatioResult
    from irr.inference.error_rate import ErrorRateTestFamily, ErrorRateTestResult
    from irr.inference.paired import PairedTestResult
    from irr.registry import DataFacts

__all__ = ["Agreement", "ReplicatesAveragedWarning"]

#: Continuous data with more subjects than this leave Krippendorff's interval alpha (a
#: bootstrap over subjects) out of :meth:`Agreement.summary`; the method computes it.
SUMMARY_ALPHA_SUBJECTS = 5000

#: What suits continuous ratings, for the messages refusing categorical statistics.
CONTINUOUS_ALTERNATIVES = (
    "limits_of_agreement(), concordance(), icc() or icc_components(), "
    "measurement_error(), deming(), passing_bablok(), krippendorff_alpha(level='interval') "
    "and kendall_w()"
)


class ReplicatesAveragedWarning(UserWarning):
    """A statistic that needs one value per (subject, rater) used the mean of replicates."""


# The methods' own sentences after the shared text of an inference keyword
# (irr.inference.keywords.KEYWORDS writes the rest of each entry).
PABAK_CI = "None (or 'wilson'): Wilson's interval of p_o, mapped to the coefficient."
DELTA_CI = "'wald': on the delta-method SE, clipped to [0, 1]."
PERCENT_NOTES = {
    "ci": "None keeps each form's default: Wilson for a share of subjects, Wald (clipped to "
          "[0, 1]) for the pairwise multi-rater form.",
    "alternative": "Percent agreement is tested only against `null`.",
    "distribution": "The Wilson interval has neither t quantiles nor the correction.",
    "null": "For percent agreement, a value in (0, 1); None gives no test (a share of "
            "agreeing ratings is not tested against 0).",
    "sampling": "The pairwise form of three or more raters only.",
    "missing": "The pairwise form; the other forms are listwise already.",
}


def _numeric_labels(categories: Any) -> bool:
    """Whether the categories (an Index, or an ndarray of numpy-coded patterns) are
    numbers (booleans among them, as pandas counts them)."""
    if isinstance(categories, np.ndarray):
        return categories.dtype.kind in "biufc"
    return bool(pd.api.types.is_numeric_dtype(categories.dtype))


class Agreement:
    """Ratings of the same subjects by two or more raters.

    Parameters
    ----------
    rater_a, rater_b : array-like of shape (n_subjects,)
        The two raters' ratings: lists, ndarrays, Series or Categoricals of integer,
        integral float, bool or string labels. Missing ratings are None, NaN or pd.NA.
        Series are matched by index label: the same labels in another order are aligned,
        different or repeated labels raise (a list or ndarray is positional).
    *more_raters : array-like of shape (n_subjects,)
        Further raters (multi-rater coefficients).
    categories : sequence, optional
        The full rating scale in order, unobserved levels included. Without it the
        categories are the observed labels: numbers in value order, an ordered
        Categorical's own order, strings as an unordered set.
    nan_policy : {'omit', 'raise'}, default 'omit'
        What to do with missing ratings. ``'omit'`` leaves out the subjects with a
        missing rating from two-rater statistics and reports how many (``n_missing``);
        ``'raise'`` raises a ValueError.
    names : sequence of str, optional
        Rater names; default the Series names, else ``rater1``, ``rater2`` ...
    continuous : bool or None, default None
        Whether the ratings are real-valued measurements rather than categories. None
        detects it: numeric ratings with a non-integer value and more than ten distinct
        values, or more distinct values than a category scale may have (10,000), are
        continuous (a half-point 1..5 scale stays categorical); strings, booleans and
        Categoricals never are. True requires numbers; False takes each distinct value as
        a category. See :meth:`from_frame`.

    Notes
    -----
    The category *scores* used by weighted coefficients are the numeric values of numeric
    labels (so an unused 4 on a 1..7 scale still counts in the distances) and positions
    0, 1, ... in the declared order otherwise. Unordered string labels have no scores:
    weighted kappa on them raises rather than silently ordering them alphabetically.

    Examples
    --------
    >>> import irr
    >>> ag = irr.Agreement([1, 2, 3, 3, 2, 1], [1, 2, 3, 2, 2, 1])
    >>> ag.n_subjects, ag.n_raters, list(ag.categories)
    (6, 2, [1, 2, 3])
    >>> round(ag.kappa().estimate, 4)
    0.75
    """

    def __init__(
        self,
        rater_a: Any,
        rater_b: Any,
        *more_raters: Any,
        categories: Sequence[Any] | None = None,
        nan_policy: str = "omit",
        names: Sequence[str] | None = None,
        continuous: bool | None = None,
    ) -> None:
        if not more_raters and categories is None and names is None and continuous is None:
            # two integer ndarrays: the Source from_columns makes, without its checks of
            # the other input forms (None for any other input)
            pair = Source.from_integer_pair(rater_a, rater_b, ("rater1", "rater2"))
            if pair is not None:
                self._init(pair, nan_policy)
                return
        columns = [rater_a, rater_b, *more_raters]
        if names is None:
            names = [
                c.name if isinstance(c, pd.Series) and isinstance(c.name, str) else f"rater{i}"
                for i, c in enumerate(columns, start=1)
            ]
            if len(set(names)) < len(names):
                names = [f"rater{i}" for i in range(1, len(columns) + 1)]
        elif len(names) != len(columns) or len(set(map(str, names))) != len(names):
            raise ValueError(
                f"`names` must give {len(columns)} distinct rater names; got {list(names)!r}."
            )
        argnames = ["rater_a", "rater_b"] + [f"more_raters[{i}]" for i in range(len(more_raters))]
        source = Source.from_columns(columns, [str(n) for n in names], categories, argnames,
                                     continuous=continuous)
        self._init(source, nan_policy)

    def _init(self, source: Source, nan_policy: str, statistics: Statistics | None = None) -> None:
        source.check_nan_policy(nan_policy)
        self._source = source
        self._statistics = statistics
        self._measurements = source.measurements

    @classmethod
    def _from_source(
        cls, source: Source, nan_policy: str = "omit", statistics: Statistics | None = None
    ) -> Agreement:
        agreement = cls.__new__(cls)
        cls._init(agreement, source, nan_policy, statistics)
        return agreement

    # -- alternative constructors ------------------------------------------------------
    @classmethod
    def from_frame(
        cls,
        df: pd.DataFrame,
        raters: Sequence[Any] | None = None,
        *,
        categories: Sequence[Any] | None = None,
        nan_policy: str = "omit",
        freq_weights: Any = None,
        id: Any = None,
        continuous: bool | None = None,
        by: Any = None,
    ) -> Agreement:
        """Build from a wide DataFrame: one row per subject, one column per rater.

        Any number of rater columns (two or more); missing ratings (NaN, None, pd.NA) are
        allowed and counted. For a 2-D ndarray use :meth:`from_array`, for long data
        :meth:`from_long`, for subject x category counts :meth:`from_counts`.

        Parameters
        ----------
        df : DataFrame
        raters : sequence of column labels, optional
            The rater columns (at least two). Default: every column but `freq_weights`,
            `id` and the columns that look like identifiers, which are set aside with a
            warning that names them: a name such as ``id``, ``subject``, ``patient``,
            ``site``, ``case`` or ``record``; labels of another type than most columns
            (strings among numbers); or a distinct value in every row while the other
            columns repeat theirs. When the columns cannot be told apart, a ValueError
            asks for `raters` or `id`.
        categories, nan_policy
            As for :class:`Agreement`.
        freq_weights : column label or array-like of non-negative integers, optional
            Aggregated data: how many subjects each row stands for (a Series is aligned
            on `df`'s index; rows of weight 0 are left out). Every statistic sees
            the expanded subjects (each row's rating pattern counts that many times):
            ``n_subjects`` and ``n_missing`` count weighted subjects, and the bootstrap
            resamples them. Any number of raters; cluster and strata bootstraps need one
            row per subject.
        id : column label or list of column labels, optional
            Identifier columns (subject, patient, site): never ratings. They stay
            available to ``cluster=`` and ``strata=`` by name. Their combination
            identifies a subject and labels it (in :meth:`codes`, the measurements'
            subjects, and :func:`irr.difference`, which pairs two Agreements' subjects
            by these labels, whatever the order of the rows); when it repeats on more
            than one row, a UserWarning says each row is counted as a separate subject,
            and the rows are labelled by `df`'s index.
        continuous : bool or None, default None
            Whether the ratings are continuous measurements (blood pressures, diameters,
            questionnaire totals) rather than categories. None detects it: numeric
            ratings with a non-integer value and more than ten distinct values, or more
            than 10,000 distinct values, are continuous (a half-point 1..5 scale stays a
            scale of categories, on which weighted kappa is legitimate); integer scores,
            strings, booleans and Categoricals stay categories. True forces it (the
            ratings must be numbers); False takes each distinct value as a category.
            Continuous ratings are held as :attr:`measurements`, with no limit on the
            number of distinct values; the statistics of scores (:meth:`icc`,
            :meth:`kendall_w`, :meth:`krippendorff_alpha` at the interval or ratio level)
            use them, and the categorical ones (kappa, percent agreement, Fleiss, Gwet
            ...) raise a ValueError. With `freq_weights` or `categories` the ratings are
            categories.
        by : column label or list of column labels, optional
            Grouping columns (sites, waves, as :func:`irr.report`'s ``by=``): never
            ratings, and not subject identifiers on their own; an `id` may recur across
            groups, so repeated ids are noted within a group only.

        Examples
        --------
        >>> import irr
        >>> vision = irr.datasets.load("vision")
        >>> ag = irr.Agreement.from_frame(vision, ["r.eye", "l.eye"])
        >>> ag.n_subjects
        7477
        >>> import pandas as pd
        >>> df = pd.DataFrame({"patient": [101, 102, 103, 104], "reader1": [1, 2, 2, 1],
        ...                    "reader2": [1, 2, 1, 1]})
        >>> irr.Agreement.from_frame(df, id="patient").raters
        ('reader1', 'reader2')

        Continuous measurements (systolic blood pressure by two nurses) are detected:

        >>> bp = pd.DataFrame({"patient": range(1, 13),
        ...                    "nurse_a": [121.5, 134.0, 118.5, 142.0, 127.5, 150.5,
        ...                                112.0, 138.5, 129.0, 145.5, 124.0, 131.5],
        ...                    "nurse_b": [119.0, 136.5, 121.0, 139.5, 128.0, 147.0,
        ...                                114.5, 141.0, 126.5, None, 122.5, 133.0]})
        >>> ag = irr.Agreement.from_frame(bp, id="patient")
        >>> ag
        Agreement(n_subjects=12, n_raters=2, continuous, n_incomplete=1)
        >>> round(ag.icc().estimate, 3)
        0.976
        """
        return cls._from_source(
            Source.from_frame(df, raters, categories, freq_weights, id, continuous,
                              () if by is None else by), nan_policy)

    @classmethod
    def from_patterns(
        cls,
        columns: Mapping[Any, Any],
        counts: Any,
        *,
        categories: Sequence[Any] | None = None,
    ) -> Agreement:
        """Build from rating patterns of categories and how many subjects have each.

        What a lazy frame's engine returns for ``GROUP BY`` over the rater columns
        (DuckDB's ``fetchnumpy()``, one array per column): the Agreement
        :meth:`from_frame` makes of the same rows with ``freq_weights=counts`` and
        ``continuous=False``. Boolean and numeric ratings are coded with numpy alone.

        Parameters
        ----------
        columns : mapping of rater name to 1-D ndarray
            One array per rater (two or more), one value per pattern; a masked array
            (or nan) marks a missing rating.
        counts : 1-D array-like of positive integers
            How many subjects have each pattern.
        categories : sequence, optional
            As for :class:`Agreement`.

        Examples
        --------
        >>> import numpy as np, irr
        >>> a = np.ma.masked_array([1, 1, 2, 2], mask=[False, False, False, True])
        >>> ag = irr.Agreement.from_patterns({"a": a, "b": np.array([1, 2, 2, 1])},
        ...                                  [40, 5, 30, 2])
        >>> ag.n_subjects, ag.n_incomplete, round(ag.kappa().estimate, 4)
        (77, 2, 0.8649)
        """
        return cls._from_source(Source.from_patterns(columns, counts, categories))

    @classmethod
    def from_table(
        cls,
        table: Any,
        categories: Sequence[Any] | None = None,
        *,
        names: Sequence[str] = ("rater1", "rater2"),
    ) -> Agreement:
        """Build from a k x k table of counts (rows: first rater, columns: second).

        Parameters
        ----------
        table : array-like or DataFrame of shape (k, k)
            Non-negative integral counts. A DataFrame (e.g. ``pd.crosstab(a, b)``) is read
            by label: its rows and columns go on the union of their labels, so raters who
            used different labels, or columns in another order, are matched correctly; a
            repeated label raises. An array (or a DataFrame with default labels 0..k-1)
            is positional.
        categories : sequence, optional
            The category labels in scale order. For an array: one per row, default
            0..k-1. For a DataFrame: the full scale (every label of the frame must be in
            it; unobserved ones get zero counts); default the frame's labels, in the
            index's order when rows and columns list the same labels in the same order,
            else numbers by value and strings sorted.
        names : (str, str)
            The two raters' names.

        Examples
        --------
        >>> import irr
        >>> ag = irr.Agreement.from_table([[10, 4, 1, 0], [5, 10, 12, 2],
        ...                                [2, 4, 12, 5], [0, 2, 6, 13]])
        >>> ag.n_subjects
        88
        """
        return cls._from_source(Source.from_table(table, categories, names))

    @classmethod
    def from_long(
        cls,
        df: pd.DataFrame,
        *,
        subject: Any,
        rater: Any,
        rating: Any,
        categories: Sequence[Any] | None = None,
        nan_policy: str = "omit",
        replicate: Any = None,
        continuous: bool | None = None,
    ) -> Agreement:
        """Build from long data: one row per (subject, rater) rating.

        Parameters
        ----------
        df : DataFrame
        subject, rater, rating : column labels
            The columns holding the subject, the rater and the rating. Subjects and raters
            keep their order of first appearance; a rater who did not rate a subject gives
            a missing rating. Missing ratings in `rating` are allowed (and counted).
        categories, nan_policy
            As for :class:`Agreement`.
        replicate : column label, optional
            A column numbering each (subject, rater)'s repeated measurements. It is only
            checked (every row has a label, none repeats within a (subject, rater)); the
            replicates are the rows themselves. Replicates are repeated measurements: with
            `replicate` the ratings are continuous unless `continuous=False`.
        continuous : bool or None, default None
            As for :meth:`from_frame` (detected from the `rating` column; True with
            `replicate`). Continuous
            ratings keep every row: several rows of one (subject, rater) are
            *replicates*, and raters may measure different subjects (unbalanced
            designs). Statistics that need one value per (subject, rater) (:meth:`icc`,
            :meth:`kendall_w`, :meth:`krippendorff_alpha`) then use the mean of each
            cell's replicates, with a :class:`ReplicatesAveragedWarning`.

        Raises
        ------
        ValueError
            If a (subject, rater) pair occurs twice in categorical data (the pairs are
            named), a column is not in `df`, a subject or rater label is missing, or there
            are fewer than two raters.

        Examples
        --------
        >>> import pandas as pd, irr
        >>> long = pd.DataFrame({"item": [1, 1, 1, 2, 2, 3, 3, 3],
        ...                      "coder": ["a", "b", "c", "a", "b", "a", "b", "c"],
        ...                      "code": ["x", "x", "y", "y", "y", "x", "x", "x"]})
        >>> ag = irr.Agreement.from_long(long, subject="item", rater="coder", rating="code")
        >>> ag.n_subjects, ag.raters, ag.n_missing
        (3, ('a', 'b', 'c'), 1)
        """
        if replicate is not None and continuous is None:
            continuous = True  # replicates are repeated measurements
        return cls._from_source(
            Source.from_long(df, subject, rater, rating, categories, continuous, replicate),
            nan_policy)

    @classmethod
    def from_array(
        cls,
        x: Any,
        raters: Sequence[str] | None = None,
        *,
        categories: Sequence[Any] | None = None,
        nan_policy: str = "omit",
        continuous: bool | None = None,
    ) -> Agreement:
        """Build from a 2-D array of shape (n_subjects, n_raters): one column per rater.

        Missing ratings are NaN or None. (DataFrames go to :meth:`from_frame`, which
        keeps their column names and dtypes.) `continuous` as for :meth:`from_frame`.

        Parameters
        ----------
        x : array-like of shape (n_subjects, n_raters)
            The ratings, one column per rater.
        raters : sequence of str, optional
            Rater names (default ``rater1``, ``rater2``, ...).
        categories, nan_policy, continuous
            As for :class:`Agreement` and :meth:`from_frame`.

        Examples
        --------
        >>> import numpy as np, irr
        >>> x = np.array([[1, 1, 2], [2, 2, 2], [3, 3, 3], [1, 2, np.nan]])
        >>> ag = irr.Agreement.from_array(x)
        >>> ag.n_raters, ag.n_missing, ag.raters
        (3, 1, ('rater1', 'rater2', 'rater3'))
        """
        return cls._from_source(Source.from_array(x, raters, categories, continuous),
                                nan_policy)

    @classmethod
    def from_counts(cls, counts: Any, categories: Sequence[Any] | None = None) -> Agreement:
        """Build from subject x category counts (Fleiss' layout).

        Row i gives how many raters put subject i in each category; rows may have
        different totals (missing ratings). Such data do not say which rater gave which
        rating, so only the coefficients defined on counts are available:
        :meth:`fleiss_kappa`, :meth:`scott_pi`, :meth:`gwet_ac`, :meth:`brennan_prediger`,
        :meth:`krippendorff_alpha` and :meth:`percent_agreement`; the others raise a
        ValueError saying so.

        Parameters
        ----------
        counts : array-like or DataFrame of shape (n_subjects, k)
            Non-negative integral counts. A DataFrame's columns give the categories.
        categories : sequence, optional
            The category labels in scale order; default the DataFrame's columns, else
            0..k-1. With a DataFrame whose columns carry labels, the columns are matched
            to `categories` by label (unobserved categories get zero counts; a column
            outside them raises); an array's columns are the categories in order.

        Examples
        --------
        >>> import irr
        >>> ag = irr.Agreement.from_counts([[0, 0, 6], [0, 3, 3], [1, 4, 1], [2, 2, 2]])
        >>> ag.n_subjects, ag.n_raters
        (4, 6)
        >>> round(ag.fleiss_kappa().estimate, 4)
        0.1579
        """
        return cls._from_source(Source.from_counts(counts, categories))

    @classmethod
    def from_statistics(cls, statistics: Statistics) -> Agreement:
        """Build from sufficient statistics, e.g. summed over parts of the data.

        Statistics add exactly (``a.statistics + b.statistics`` is the statistics of both
        data sets' subjects), so agreement over data summarised part by part equals
        agreement over all of it. Every coefficient is available; cluster and strata
        bootstraps need one row per subject.

        Parameters
        ----------
        statistics : Statistics
            The sufficient statistics (:attr:`statistics` of another Agreement, or a sum of
            them).

        Examples
        --------
        >>> import irr
        >>> a = irr.Agreement([1, 2, 2, 1], [1, 2, 1, 1], categories=[1, 2])
        >>> b = irr.Agreement([2, 1, 2], [2, 1, 1], categories=[1, 2])
        >>> both = irr.Agreement.from_statistics(a.statistics + b.statistics)
        >>> whole = irr.Agreement([1, 2, 2, 1, 2, 1, 2], [1, 2, 1, 1, 2, 1, 1])
        >>> both.kappa().estimate == whole.kappa().estimate
        True
        """
        if not isinstance(statistics, Statistics):
            raise TypeError(
                f"`statistics` must be irr Statistics (Agreement.statistics); got "
                f"{type(statistics).__name__}."
            )
        source = Source(Ratings((), statistics.categories, statistics.scores,
                                statistics.ordered, statistics.raters))
        return cls._from_source(source, statistics=statistics)

    # -- basic facts -------------------------------------------------------------------
    @property
    def statistics(self) -> Statistics:
        """The sufficient statistics: distinct rating patterns and how many subjects have
        each (additive: ``a.statistics + b.statistics`` summarises both data sets).

        Examples
        --------
        >>> import irr
        >>> ag = irr.Agreement([1, 2, 2], [1, 2, 1])
        >>> ag.statistics.multiplicity.tolist()
        [1, 1, 1]
        """
        if self.continuous:
            raise ValueError(self._categories_refused("`statistics` (patterns of categories)"))
        if self._statistics is None:
            self._statistics = Statistics.from_source(self._source)
        return self._statistics

    @property
    def continuous(self) -> bool:
        """Whether the ratings are continuous measurements (see :meth:`from_frame`)."""
        return self._source.continuous

    @property
    def lazy(self) -> LazyMeasurements | None:
        """The continuous measurements of a lazy or distributed frame (polars LazyFrame,
        DuckDB, Dask, Spark), summed by its engine (:class:`irr._frames.LazyMeasurements`:
        counts of rows and missing values); None for data held here. Statistics that need
        the rows of lazy measurements raise a ValueError saying so.

        Examples
        --------
        >>> import irr
        >>> irr.Agreement([1.25, 2.5, 3.75], [1.5, 2.25, 4.0], continuous=True).lazy is None
        True
        """
        return self._source.lazy

    @property
    def measurements(self) -> Measurements:
        """The ratings as measurements in long form (subject, rater, value; replicates
        kept): continuous ratings, or numeric category labels at their values (integer
        readings held as categories are measurements all the same).

        Examples
        --------
        >>> import irr
        >>> ag = irr.Agreement([1.25, 2.5, 3.75], [1.5, 2.25, 4.0], continuous=True)
        >>> m = ag.measurements
        >>> m.n_subjects, m.n_raters, m.value.tolist()
        (3, 2, [1.25, 1.5, 2.5, 2.25, 3.75, 4.0])
        """
        if self._measurements is None:
            self._measurements = self._source.numeric_measurements()
        return self._measurements

    def _measured(self, what: str) -> Measurements:
        """:attr:`measurements` for `what`; on a lazy frame a ValueError naming `what`
        (its rows never come here)."""
        if self._source.lazy is not None:
            raise ValueError(self._source.rows_refused(what))
        return self.measurements

    def _categories_refused(self, what: str) -> str:
        """Why `what` is not available on continuous ratings, and what is."""
        if self._source.lazy is not None:
            values = "summed by the engine of a lazy frame"
        else:
            values = f"values such as {preview(self._source.measurements.value[:3].tolist())}"
        return (
            f"{what} takes each rating as a category, but these ratings are continuous "
            f"measurements ({values}). For measurements use "
            f"{CONTINUOUS_ALTERNATIVES}; to treat each distinct value as a category instead, "
            "build the Agreement with `continuous=False`."
        )

    def _require_categorical(self, what: str) -> None:
        """Raise a ValueError naming `what` when the ratings are continuous."""
        if self.continuous:
            raise ValueError(self._categories_refused(what))

    @property
    def raters(self) -> tuple[str, ...]:
        """The raters' names."""
        return self._source.ratings.raters

    @property
    def n_raters(self) -> int:
        """Number of raters (for counts: the most ratings any subject has)."""
        if self.continuous:
            return len(self.raters)
        return self.statistics.n_raters

    @property
    def categories(self) -> pd.Index:
        """The categories, in scale order."""
        self._require_categorical("`categories`")
        categories = self._source.ratings.categories
        # rating patterns coded with numpy (from_patterns) hold them as an ndarray
        return pd.Index(categories) if isinstance(categories, np.ndarray) else categories

    @property
    def n_subjects(self) -> int:
        """Number of subjects, including those with missing ratings."""
        if self.continuous:
            return self._source.n_rows
        return self.statistics.n_subjects

    @property
    def n_incomplete(self) -> int:
        """Subjects with at least one missing rating (a count of subjects, not of ratings:
        the name results and reports give it).

        For an Agreement built from counts: subjects with fewer ratings than the most
        any subject has. For continuous measurements: subjects some rater did not measure.
        In a sparse design (each subject rated by a few of many raters) that is every
        subject.
        """
        if self.continuous:
            return self._source.n_missing_rows()
        return self.statistics.n_missing

    @property
    def n_missing(self) -> int:
        """Subjects with at least one missing rating: :attr:`n_incomplete` by its earlier
        name (a result's ``n_missing`` counts the subjects it left out)."""
        return self.n_incomplete

    def codes(self) -> pd.DataFrame:
        """The ratings as category codes: one row per subject, one column per rater.

        Code ``j`` is ``self.categories[j]``; ``-1`` is a missing rating. The index holds
        the subjects' labels when the input carried them (the ``id`` columns of
        :meth:`from_frame` when they name each row once, else a frame's or a Series'
        index; the subjects of long data), else ``0 .. n - 1``. Data given as a table or with
        frequency weights have one row per distinct row; their weights are in
        ``frame.attrs["freq_weights"]`` (absent for one row per subject).

        Raises
        ------
        ValueError
            For data without per-subject rater codes: subject x category counts
            (:meth:`from_counts`), continuous measurements, or sparse long data.

        Examples
        --------
        >>> import pandas as pd, irr
        >>> ag = irr.Agreement(pd.Series(["a", "b", None], index=["s1", "s2", "s3"]),
        ...                    pd.Series(["a", "a", "b"], index=["s1", "s2", "s3"]))
        >>> ag.codes()
            rater1  rater2
        s1       0       0
        s2       1       0
        s3      -1       1
        """
        source = self._source
        if self.continuous or not source.ratings.has_codes or source.entries is not None:
            raise ValueError(
                "`codes()` needs one row of rater codes per subject; these data are "
                + ("continuous measurements (build the Agreement with continuous=False to "
                   "code each distinct value as a category scored by its value)."
                   if self.continuous else
                   "subject x category counts or sparse long data, which keep no such rows.")
            )
        frame = pd.DataFrame(dict(zip(self.raters, source.ratings.codes, strict=True)))
        if source.labels is not None and len(source.labels) == len(frame):
            frame.index = source.labels
        if source.weights is not None:
            frame.attrs["freq_weights"] = source.weights
        return frame

    @property
    def table(self) -> pd.DataFrame:
        """The k x k agreement table (rows: first rater, columns: second), labelled."""
        self._require_categorical("The agreement `table`")
        counts = self.statistics.pair_table
        labels = self.categories
        return pd.DataFrame(
            counts,
            index=pd.Index(labels, name=self.raters[0]),
            columns=pd.Index(labels, name=self.raters[1]),
        )

    @cached_property
    def facts(self) -> DataFacts:
        """What these data allow (rater identities, ordered or numeric categories)."""
        if self.continuous:
            return registry.DataFacts(n_raters=self.n_raters, by_rater=True, ordered=True,
                                      numeric=True, continuous=True)
        stats = self.statistics
        return registry.DataFacts(
            n_raters=stats.n_raters,
            by_rater=stats.by_rater,
            ordered=stats.scores is not None,
            numeric=_numeric_labels(stats.categories),
            continuous=bool(self._continuity),
        )

    @cached_property
    def _continuity(self) -> str:
        """Why the categories look like continuous scores ("" when they look categorical:
        :func:`irr._columns.continuity`), read once for :attr:`facts` and the warning."""
        return continuity(self.statistics.categories)  # an Index, or an ndarray

    def _check_categorical(self, coefficient: str, scored: bool) -> None:
        """Raise when the ratings are continuous measurements; warn when a statistic that
        takes each value as a category (not `scored`: no weights, no tolerance) meets
        categorical ratings that look like continuous scores."""
        self._require_categorical(coefficient)
        if scored or not self.facts.continuous:
            return
        warnings.warn(
            f"{coefficient} takes each of the {len(self.categories)} distinct values as a "
            f"category, but these ratings look like continuous scores "
            f"({self._continuity}); the ICC or Krippendorff's alpha "
            "(level='interval') suit them.",
            ContinuousScoresWarning, stacklevel=3,
        )

    def __repr__(self) -> str:
        if self.continuous:
            return (f"Agreement(n_subjects={self.n_subjects}, n_raters={self.n_raters}, "
                    f"continuous, n_incomplete={self.n_incomplete})")
        return (
            f"Agreement(n_subjects={self.n_subjects}, n_raters={self.n_raters}, "
            f"categories={list(self.categories)!r}, n_incomplete={self.n_incomplete})"
        )

    # -- resampling --------------------------------------------------------------------
    def _plan(self, cluster: Any = None, strata: Any = None) -> ResamplingPlan:
        """The resampling plan over this Agreement's fine patterns (clusters, strata)."""
        source = self._source
        if self.continuous:
            scored, stats = self._scored
            return ResamplingPlan.for_statistics(stats, lambda: subject_patterns(scored, stats))
        return ResamplingPlan.for_statistics(
            self.statistics,
            lambda: subject_patterns(source, self.statistics),
            cluster=None if cluster is None else source.per_subject(cluster, "cluster"),
            strata=None if strata is None else source.per_subject(strata, "strata"),
        )

    @cached_property
    def _scored(self) -> tuple[Source, Statistics]:
        """Continuous ratings as categories scored by their values, and their statistics
        (:func:`irr._statistics.value_source`), for the statistics of scores."""
        source = value_source(self.measurements)
        return source, Statistics.from_source(source)

    def _score_statistics(self, what: str, warn: bool = True) -> Statistics:
        """The statistics of scores of these ratings: categorical ones as they are,
        continuous ones scored by their values (cell means of replicates, with a
        :class:`ReplicatesAveragedWarning` unless `warn` is False)."""
        if not self.continuous:
            return self.statistics
        if warn:
            self._warn_replicates(what, stacklevel=4)
        return self._scored[1]

    def _warn_replicates(self, what: str, stacklevel: int = 3) -> None:
        """A :class:`ReplicatesAveragedWarning` when continuous ratings hold replicates
        (each (subject, rater) cell's mean is used for `what`)."""
        if self._measured(what).has_replicates:
            counts = self.measurements.replicates
            warnings.warn(
                f"{what} needs one value per (subject, rater); {int((counts > 1).sum())} "
                f"(subject, rater) cell(s) hold replicates (up to {int(counts.max())}), so "
                "each cell's mean is used. Statistics of replicated measurements (variance "
                "components, repeatability) use every replicate.",
                ReplicatesAveragedWarning, stacklevel=stacklevel,
            )

    def _replicates_averaged(self) -> int:
        """The most replicates in one (subject, rater) cell of continuous ratings that the
        statistics of scores average (0: none)."""
        if not self.continuous or not self.measurements.has_replicates:
            return 0
        return int(self.measurements.replicates.max())

    # -- two raters --------------------------------------------------------------------
    @inference_keywords("wald_test")
    def kappa(
        self,
        weights: Any = None,
        *,
        alternative: str = "two-sided",
        confidence_level: float = 0.95,
        ci: str = "wald",
        n_resamples: int = 9999,
        rng: Any = 0,
        cluster: Any = None,
        strata: Any = None,
        progress: bool | None = None,
        distribution: str = "normal",
        population: float | None = None,
        null: float | None = None,
        ci_clip: bool = True,
    ) -> KappaResult:
        r"""Cohen's kappa, or weighted kappa, between the two raters.

        Parameters
        ----------
        weights : None, str or array-like of shape (k, k), default None
            None gives Cohen's (unweighted) kappa. ``'linear'`` (aliases ``'equal'``,
            ``'Cicchetti-Allison'``) and ``'quadratic'`` (aliases ``'squared'``,
            ``'Fleiss-Cohen'``) weight by the distance between category scores; Gwet's
            ``'ordinal'``, ``'radical'``, ``'ratio'``, ``'circular'`` and ``'bipolar'``
            schemes and kappaetc's ``'power:r'`` and ``'circular:u'`` are those of
            :func:`irr.weights.agreement_weights` (one vocabulary for every weighted
            coefficient); a matrix gives agreement weights directly (ones on the diagonal).
        cluster : array-like or column name, optional
            Cluster of each subject (e.g. patient of each lesion): the bootstrap resamples
            whole clusters, and ``se`` is the linearised cluster-robust SE (the sandwich
            over cluster totals of the subjects' influence values). At least two clusters;
            labels of one type (``[1, "1"]`` raises).
        strata : array-like or column name, optional
            Stratum of each subject (of each cluster, with `cluster`): the bootstrap keeps
            each stratum's size fixed, and ``se`` is the within-stratum linearised SE.
            Strata that all hold a single unit raise.

        Returns
        -------
        KappaResult
            ``estimate``, ``se`` (Fleiss, Cohen & Everitt 1969, under the alternative; used
            for the interval; cluster-robust with `cluster`/`strata`), ``se0`` (under H0;
            used for the z test; nan with `cluster`/`strata`, whose z uses ``se``),
            ``statistic``, ``pvalue``, ``ci`` (Wald, clipped to [-1, 1]; nan with a warning
            when ``se`` is 0), ``observed_agreement``, ``expected_agreement``,
            ``kappa_max``.

        Warns
        -----
        DegenerateDataWarning
            When expected agreement is 1 (both raters used one category only): kappa is
            undefined and returned as nan. When the interval would have zero width (``se``
            0, e.g. perfect agreement; bootstrap replicates all equal): it is nan.

        Notes
        -----
        .. math:: \kappa = \frac{p_o - p_e}{1 - p_e}

        with weighted observed and expected agreement
        :math:`p_o = \sum w_{ij} p_{ij}`, :math:`p_e = \sum w_{ij} p_{i\cdot}p_{\cdot j}`.
        The standard errors are those of SAS PROC FREQ (ASE and ASE under H0), vcd and
        statsmodels; validated against the SAS PROC FREQ documentation example.

        References
        ----------
        Cohen, J. (1960). A coefficient of agreement for nominal scales. Educational and
        Psychological Measurement, 20, 37-46. https://doi.org/10.1177/001316446002000104

        Fleiss, J. L., Cohen, J., & Everitt, B. S. (1969). Large sample standard errors of
        kappa and weighted kappa. Psychological Bulletin, 72, 323-327.
        https://doi.org/10.1037/h0028106

        Examples
        --------
        >>> import irr
        >>> ag = irr.Agreement.from_table([[10, 4, 1, 0], [5, 10, 12, 2],
        ...                                [2, 4, 12, 5], [0, 2, 6, 13]])
        >>> res = ag.kappa()
        >>> round(res.estimate, 4), round(res.se, 4), round(res.se0, 4)
        (0.3449, 0.0724, 0.0612)
        >>> round(ag.kappa(weights="quadratic").estimate, 4)
        0.6607
        """
        self._check_categorical("Cohen's kappa", weights is not None)
        options = InferenceOptions.from_keywords(
            alternative=alternative, confidence_level=confidence_level, ci=ci,
            n_resamples=n_resamples, rng=rng, progress=progress, distribution=distribution,
            population=population, null=null, ci_clip=ci_clip)
        return kappa_estimator.kappa(self.statistics, weights, options,
                                     self._plan(cluster, strata))

    @inference_keywords("bootstrap", cis=("wilson", *WALD_CIS, None), ci=PABAK_CI)
    def pabak(
        self,
        *,
        positive: Any = None,
        confidence_level: float = 0.95,
        ci: str | None = None,
        n_resamples: int = 9999,
        rng: Any = 0,
        progress: bool | None = None,
    ) -> PabakResult:
        r"""Prevalence-adjusted bias-adjusted kappa (PABAK), with the prevalence and bias
        indices of Byrt, Bishop & Carlin (1993).

        Parameters
        ----------
        positive : label, optional
            Two categories: the "yes" of the prevalence and bias indices (default the
            second: 1 of 0/1, True of False/True, the later declared label).

        Returns
        -------
        PabakResult
            ``estimate`` (PABAK), ``se``, ``ci``, ``observed_agreement``; for two
            categories ``prevalence_index`` :math:`(a - d)/n`, ``bias_index``
            :math:`(b - c)/n` (signed; a: both "yes", d: both "no", b: only the first
            rater "yes") and ``kappa`` (Cohen's).

        Notes
        -----
        PABAK replaces kappa's chance agreement by that of equally used categories,
        :math:`1/k`: :math:`\mathrm{PABAK} = (k p_o - 1)/(k - 1)`, which is
        :math:`2 p_o - 1` for two categories (Maxwell's RE, :meth:`maxwell_re`) and the
        Brennan-Prediger coefficient of two raters in general. For a 2 x 2 table, with
        prevalence index PI and bias index BI, Cohen's kappa is

        .. math:: \kappa = \frac{\mathrm{PABAK} - PI^2 + BI^2}{1 - PI^2 + BI^2}

        (Byrt et al. 1993), so reporting kappa, PABAK, PI and BI together shows how much
        of a low kappa is due to unbalanced prevalence (large \|PI\|) or to the raters'
        different margins (large \|BI\|). Subjects missing a rating are left out.

        References
        ----------
        Byrt, T., Bishop, J., & Carlin, J. B. (1993). Bias, prevalence and kappa. Journal
        of Clinical Epidemiology, 46, 423-429. https://doi.org/10.1016/0895-4356(93)90018-V

        Examples
        --------
        >>> import irr
        >>> res = irr.Agreement.from_table([[80, 10], [5, 5]]).pabak(positive=0)
        >>> round(res.estimate, 4), res.prevalence_index, res.bias_index, round(res.kappa, 4)
        (0.7, 0.75, 0.05, 0.3182)
        """
        self._require_categorical("PABAK")
        options = InferenceOptions.from_keywords(
            confidence_level=confidence_level, ci=None if ci == "wilson" else ci,
            n_resamples=n_resamples, rng=rng, progress=progress)
        return pabak_estimator.pabak(self.statistics, options, self._plan(),
                                     positive=positive)

    @inference_keywords("bootstrap", cis=("wilson", *WALD_CIS, None), ci=PABAK_CI)
    def maxwell_re(
        self,
        *,
        confidence_level: float = 0.95,
        ci: str | None = None,
        n_resamples: int = 9999,
        rng: Any = 0,
        progress: bool | None = None,
    ) -> PabakResult:
        """Maxwell's (1977) RE coefficient of two raters' binary ratings: ``2 p_o - 1``.

        R irr's ``maxwell(ratings)``. It is :meth:`pabak` for two categories, under its
        own name (same interval and options); more than two categories raise.

        References
        ----------
        Maxwell, A. E. (1977). Coefficients of agreement between observers and their
        interpretation. British Journal of Psychiatry, 130, 79-83.
        https://doi.org/10.1192/bjp.130.1.79

        Examples
        --------
        >>> import irr
        >>> ag = irr.Agreement([1, 0, 1, 1, 0, 0, 1, 1], [1, 0, 0, 1, 0, 1, 1, 1])
        >>> ag.maxwell_re().estimate
        0.5
        """
        self._require_categorical("Maxwell's RE")
        options = InferenceOptions.from_keywords(
            confidence_level=confidence_level, ci=None if ci == "wilson" else ci,
            n_resamples=n_resamples, rng=rng, progress=progress)
        return pabak_estimator.pabak(self.statistics, options, self._plan(), name="maxwell")

    @inference_keywords("wald", ci=DELTA_CI,
                        distribution="'t' is irrCAC's ``bangdiwala.table``.")
    def bangdiwala_b(
        self,
        partial_weights: Sequence[float] | None = None,
        *,
        confidence_level: float = 0.95,
        ci: str = "wald",
        n_resamples: int = 9999,
        rng: Any = 0,
        cluster: Any = None,
        strata: Any = None,
        progress: bool | None = None,
        distribution: str = "normal",
        population: float | None = None,
    ) -> Result:
        r"""Bangdiwala's B agreement statistic of two raters (the agreement chart's).

        Parameters
        ----------
        partial_weights : sequence of float, optional
            The weighted :math:`B^w`: weights :math:`w_1 \ge w_2 \ge \dots` in [0, 1] of
            the areas of disagreement by 1, 2, ... categories (ordered categories; vcd's
            ``agreementplot(weights=c(1, w1, w2, ...))``, whose default is
            ``[1 - 1 / (k - 1)**2]``). None: the unweighted B.
        cluster, strata : array-like or column name, optional
            The clusters and strata of the design, as for :meth:`kappa`.

        Returns
        -------
        Result
            ``estimate`` (B, in [0, 1]), ``se`` (delta method), ``ci``; no test
            (``statistic`` and ``pvalue`` are nan: B = 0 is no exact agreement at all,
            not agreement at chance level) and no default benchmark scale (``interpret``
            needs ``scale=``).

        Notes
        -----
        .. math:: B = \frac{\sum_i n_{ii}^2}{\sum_i n_{i\cdot} n_{\cdot i}}

        is the area of the black squares of Bangdiwala's agreement chart
        (:func:`irr.plotting.agreement_chart`, whose title prints it) over the area of
        the rectangles of the two raters' margins: 1 for perfect agreement, 0 when the
        raters never agree. The weighted :math:`B^w` adds the grey areas of partial
        agreement, the area added by disagreements of s categories weighted
        :math:`w_s` (Friendly & Meyer 2016, sec. 4.5). B is not corrected for chance
        agreement (Muñoz & Bangdiwala 1997 compare it with kappa). The SE is the delta
        method for the multinomial table, the SE irrCAC's ``bangdiwala.table`` prints;
        subjects missing a rating are left out.

        References
        ----------
        Bangdiwala, S. I. (1985). A graphical test for observer agreement. Proceedings of
        the 45th Session of the International Statistical Institute, 1, 307-308.

        Muñoz, S. R., & Bangdiwala, S. I. (1997). Interpretation of kappa and B
        statistics measures of agreement. Journal of Applied Statistics, 24, 105-112.
        https://doi.org/10.1080/02664769723918

        Friendly, M., & Meyer, D. (2016). Discrete Data Analysis with R, sec. 4.5. Boca
        Raton, FL: CRC Press.

        Examples
        --------
        >>> import irr
        >>> ag = irr.Agreement.from_table([[13, 0, 0], [0, 20, 7], [0, 4, 56]])
        >>> res = ag.bangdiwala_b()
        >>> round(res.estimate, 7), round(res.se, 8)  # irrCAC: 0.8059604, 0.05449465
        (0.8059604, 0.05449465)
        >>> lo, hi = ag.bangdiwala_b(distribution="t").ci
        >>> round(lo, 3), round(hi, 3)  # irrCAC: (0.698, 0.914)
        (0.698, 0.914)
        """
        self._require_categorical("Bangdiwala's B")
        options = InferenceOptions.from_keywords(
            confidence_level=confidence_level, ci=ci, n_resamples=n_resamples, rng=rng,
            progress=progress, distribution=distribution, population=population)
        return bangdiwala_estimator.bangdiwala(
            self.statistics, options, self._plan(cluster, strata),
            partial_weights=() if partial_weights is None else partial_weights)

    @inference_keywords("bootstrap", cis=WALD_OR_NONE_CIS, ci=f"{DELTA_CI} {NONE_IS_WALD}")
    def specific_agreement(
        self,
        category: Any = None,
        *,
        positive: Any = None,
        confidence_level: float = 0.95,
        ci: str = "wald",
        n_resamples: int = 9999,
        rng: Any = 0,
        progress: bool | None = None,
    ) -> CategoryResults | Result:
        r"""Specific agreement of two raters on each category: positive and negative
        agreement for two categories.

        Parameters
        ----------
        category : label, optional
            One category: its specific agreement alone (a :class:`irr.results.Result`).
            Default: every category (a :class:`CategoryResults`).
        positive : label, optional
            Two categories: which one is "positive" (default the second: 1 of 0/1, True
            of False/True, the later declared label).

        Returns
        -------
        CategoryResults or Result
            Every category: ``by_category`` (one result each; ``res[label]`` picks one),
            with the overall percent agreement as ``estimate``.

        Notes
        -----
        .. math:: p_s(j) = \frac{2 n_{jj}}{n_{j\cdot} + n_{\cdot j}}

        the conditional probability that one rater, chosen at random, uses category j
        given that the other does. For a 2 x 2 table (a both positive, d both negative)
        these are positive agreement :math:`2a/(2a + b + c)` and negative agreement
        :math:`2d/(2d + b + c)` (Cicchetti & Feinstein 1990). The SE is the delta method's
        on the multinomial table,
        :math:`\mathrm{Var} = [4 n_{jj}(1 - p_s)^2 + (D_j - 2n_{jj}) p_s^2] / D_j^2`,
        :math:`D_j = n_{j\cdot} + n_{\cdot j}`, which for 2 x 2 tables is Graham & Bull's
        (1998) :math:`4a(b + c)(a + b + c)/(2a + b + c)^4`. For small counts prefer a
        bootstrap (``ci='bca'``). Their mean weighted by :math:`D_j / 2n` is the percent
        agreement.

        References
        ----------
        Cicchetti, D. V., & Feinstein, A. R. (1990). High agreement but low kappa: II.
        Resolving the paradoxes. Journal of Clinical Epidemiology, 43, 551-558.
        https://doi.org/10.1016/0895-4356(90)90159-M

        Graham, P., & Bull, B. (1998). Approximate standard errors and confidence intervals
        for indices of positive and negative agreement. Journal of Clinical Epidemiology,
        51, 763-771. https://doi.org/10.1016/S0895-4356(98)00048-2

        Examples
        --------
        >>> import irr
        >>> res = irr.Agreement.from_table([[80, 10], [5, 5]], categories=["yes", "no"]
        ...                                ).specific_agreement(positive="yes")
        >>> [(r.coefficient, round(r.estimate, 4)) for r in res.by_category]
        [('Positive agreement (yes)', 0.9143), ('Negative agreement (no)', 0.4)]
        """
        self._require_categorical("Specific agreement")
        options = InferenceOptions.from_keywords(
            confidence_level=confidence_level, ci=ci, n_resamples=n_resamples, rng=rng,
            progress=progress)
        return categories_estimator.specific_agreement(self.statistics, options, self._plan(),
                                                       category, positive)

    @inference_keywords("tested_bootstrap", cis=WALD_OR_NONE_CIS, ci=NONE_IS_WALD)
    def category_kappa(
        self,
        category: Any = None,
        *,
        alternative: str = "two-sided",
        confidence_level: float = 0.95,
        ci: str = "wald",
        n_resamples: int = 9999,
        rng: Any = 0,
        progress: bool | None = None,
    ) -> CategoryResults | Result:
        r"""Category-wise kappa: Cohen's kappa of each category against the rest.

        Parameters
        ----------
        category : label, optional
            One category: its kappa alone. Default: every category (a
            :class:`CategoryResults` whose ``estimate`` is Cohen's kappa).

        Returns
        -------
        CategoryResults or Result
            ``by_category``: for each category j the kappa of the 2 x 2 table "j or not"
            of the two raters, with the Fleiss-Cohen-Everitt SE (interval) and the z test
            on the SE under H0.

        Notes
        -----
        Cohen's kappa is the mean of the category kappas weighted by
        :math:`p_{j\cdot} + p_{\cdot j} - 2 p_{j\cdot} p_{\cdot j}` (each one's chance
        disagreement), so the category kappas show which categories the raters agree on
        and which pull kappa down (Fleiss 1981, sec. 13.2).

        References
        ----------
        Fleiss, J. L. (1981). Statistical Methods for Rates and Proportions (2nd ed.).
        Wiley.

        Examples
        --------
        >>> import irr
        >>> ag = irr.Agreement.from_frame(irr.datasets.load("vision"))
        >>> res = ag.category_kappa()
        >>> [round(r.estimate, 4) for r in res.by_category]
        [0.7068, 0.5365, 0.5721, 0.5553]
        >>> round(res.estimate, 4) == round(ag.kappa().estimate, 4)
        True
        """
        self._require_categorical("Category-wise kappa")
        options = InferenceOptions.from_keywords(
            alternative=alternative, confidence_level=confidence_level, ci=ci,
            n_resamples=n_resamples, rng=rng, progress=progress)
        return categories_estimator.category_kappa(self.statistics, options, self._plan(),
                                                   category)

    @inference_keywords("multirater", cis=("wilson", *WALD_CIS, None), **PERCENT_NOTES)
    def percent_agreement(
        self,
        *,
        definition: str = "pairwise",
        tolerance: float = 0,
        weights: Any = None,
        alternative: str = "two-sided",
        confidence_level: float = 0.95,
        ci: str | None = None,
        n_resamples: int = 9999,
        rng: Any = 0,
        progress: bool | None = None,
        distribution: str = "normal",
        population: float | None = None,
        null: float | None = None,
        ci_clip: bool = True,
        sampling: str = "subjects",
        rater_population: float | None = None,
        missing: str = "available",
    ) -> ProportionResult | ChanceCorrectedResult:
        """Share of agreeing ratings, by one of two definitions named by `definition`.

        Parameters
        ----------
        definition : {'pairwise', 'all'}, default 'pairwise'
            ``'pairwise'``: Gwet's (2014) percent agreement, the mean over the subjects
            with two or more ratings of the share of rater pairs that agree.
            ``'all'``: the share of subjects on whom *all* raters agree, among the subjects
            rated by every rater (listwise), as R irr ``agree()``. The two coincide for
            two raters; with more they differ (anxiety: 0.183 pairwise, 0 all).
        tolerance : float, default 0
            Ratings whose category scores differ by at most `tolerance` count as agreeing
            (``|x_i - x_j| <= tolerance``); 0 is exact agreement. Needs ordered categories
            when positive. With ``definition='all'`` a subject agrees when its highest and
            lowest ratings are within `tolerance` (R irr ``agree(ratings, tolerance)``).
        weights : None, str or array-like of shape (k, k), default None
            Gwet's (2014) weighted percent agreement (irrCAC's ``pa.coeff.raw(weights=)``):
            a scheme of :func:`~irr.weights.agreement_weights` (``'linear'``,
            ``'quadratic'``, ``'ordinal'``, ...) or a matrix; a pair of ratings in
            categories k and l counts w_kl. The pairwise form for any number of raters
            (two included), with its linearised SE and Wald interval; not with a
            `tolerance` or ``definition='all'``. None: exact agreement.

        Returns
        -------
        ProportionResult or ChanceCorrectedResult
            Two raters (rater columns or a table): "Percent agreement", the share of
            subjects on whom they agree, with a Wilson score interval. Three or more
            raters, or counts: "Percent agreement (pairwise)", with its linearised SE and a
            Wald interval clipped to [0, 1]; or "Percent agreement (all raters)", a share of
            subjects with a Wilson interval.

        Examples
        --------
        >>> import irr
        >>> ag = irr.Agreement([1, 2, 3, 3], [1, 2, 3, 1])
        >>> ag.percent_agreement().estimate
        0.75
        >>> ag.percent_agreement(tolerance=2).estimate
        1.0
        >>> ag4 = irr.Agreement.from_frame(irr.datasets.load("cac_raw4raters"))
        >>> round(ag4.percent_agreement().estimate, 6)
        0.818182
        >>> anxiety = irr.Agreement.from_frame(irr.datasets.load("anxiety"))
        >>> res = anxiety.percent_agreement(definition="all", tolerance=1)
        >>> res.coefficient, res.estimate
        ('Percent agreement (all raters, tolerance 1)', 0.35)
        >>> res = ag4.percent_agreement(weights="quadratic")
        >>> res.coefficient, round(res.estimate, 4), round(res.se, 4)
        ('Percent agreement (pairwise, quadratic weights)', 0.9754, 0.0906)
        """
        self._check_categorical("Percent agreement", tolerance != 0 or weights is not None)
        options = InferenceOptions.from_keywords(
            alternative=alternative, confidence_level=confidence_level, ci=ci,
            n_resamples=n_resamples, rng=rng, progress=progress, distribution=distribution,
            population=population, null=null, ci_clip=ci_clip, sampling=sampling,
            rater_population=rater_population)
        return percent.percent_agreement(self.statistics, tolerance, options, self._plan(),
                                         definition, missing, weights)

    # -- chance-corrected coefficients of two or more raters -----------------------------
    @inference_keywords("multirater", cis=WALD_OR_NONE_CIS, ci=NONE_IS_WALD)
    def fleiss_kappa(
        self,
        weights: Any = None,
        *,
        alternative: str = "two-sided",
        confidence_level: float = 0.95,
        ci: str = "wald",
        n_resamples: int = 9999,
        rng: Any = 0,
        progress: bool | None = None,
        distribution: str = "normal",
        population: float | None = None,
        null: float | None = None,
        ci_clip: bool = True,
        sampling: str = "subjects",
        rater_population: float | None = None,
        missing: str = "available",
    ) -> FleissKappaResult:
        r"""Fleiss' (1971) kappa, with per-category kappas.

        Parameters
        ----------
        weights : None, str or array-like of shape (k, k), default None
            None for Fleiss' kappa; a scheme of :func:`~irr.weights.agreement_weights`
            (``'linear'``, ``'quadratic'``, ``'ordinal'``, ``'radical'``, ``'ratio'``,
            ``'circular'``, ``'bipolar'``, ``'power:r'``, ``'circular:u'``) or a matrix for
            Gwet's (2014) weighted generalisation.

        Returns
        -------
        FleissKappaResult
            ``estimate``; ``se``: Gwet's (2008) linearised SE (for the interval);
            ``se0``: the Fleiss, Nee & Landis (1979) SE under H0 (for the z test;
            unweighted, constant number of raters only); ``per_category``: a DataFrame of
            the category-vs-rest kappas (Fleiss 1971) with ``se``, ``se0``, ``z``,
            ``pvalue``; ``observed_agreement`` p_a and ``expected_agreement`` p_e.

        Notes
        -----
        .. math::

            p_a = \frac{1}{n'}\sum_{i: r_i\ge 2}\sum_k\frac{r_{ik}(r_{ik}-1)}{r_i(r_i-1)},
            \quad \pi_k = \frac{1}{n}\sum_i \frac{r_{ik}}{r_i},\quad
            p_e = \sum_k \pi_k^2,\quad \kappa = \frac{p_a - p_e}{1 - p_e}.

        With a constant number of raters this is Fleiss' (1971) kappa; with numbers that
        vary it is Gwet's (2014) generalisation: p_a over the n' subjects with two or
        more ratings, :math:`\pi_k` over the n subjects with at least one. For two raters
        it is Scott's (1955) pi. The interval never uses the null SE, which holds only at
        kappa = 0 and can be far off either way (less than half the linearised SE on
        ``diagnoses``, more than twice it for two raters on the table [[45, 2], [3, 50]]).
        Validated against Fleiss (1971)
        (0.430 on ``diagnoses``), irrCAC 1.0 (Gwet's SE, on ``cac_raw4raters``) and
        statsmodels' ``fleiss_kappa``.

        References
        ----------
        Fleiss, J. L. (1971). Measuring nominal scale agreement among many raters.
        Psychological Bulletin, 76, 378-382. https://doi.org/10.1037/h0031619

        Fleiss, J. L., Nee, J. C. M., & Landis, J. R. (1979). Large sample variance of
        kappa in the case of different sets of raters. Psychological Bulletin, 86,
        974-977. https://doi.org/10.1037/0033-2909.86.5.974

        Gwet, K. L. (2008). Computing inter-rater reliability and its variance in the
        presence of high agreement. British Journal of Mathematical and Statistical
        Psychology, 61, 29-48. https://doi.org/10.1348/000711006X126600

        Gwet, K. L. (2014). Handbook of Inter-Rater Reliability, 4th ed. Advanced
        Analytics.

        Examples
        --------
        >>> import irr
        >>> ag = irr.Agreement.from_frame(irr.datasets.load("diagnoses"))
        >>> res = ag.fleiss_kappa()
        >>> round(res.estimate, 4), round(res.se, 4), round(res.se0, 4)
        (0.4302, 0.0542, 0.0244)
        >>> res.per_category.round(3)[["category", "kappa"]]
                          category  kappa
        0            1. Depression  0.245
        1  2. Personality Disorder  0.245
        2         3. Schizophrenia  0.520
        3              4. Neurosis  0.471
        4                 5. Other  0.566
        """
        self._check_categorical("Fleiss' kappa", weights is not None)
        options = InferenceOptions.from_keywords(
            alternative=alternative, confidence_level=confidence_level, ci=ci,
            n_resamples=n_resamples, rng=rng, progress=progress, distribution=distribution,
            population=population, null=null, ci_clip=ci_clip, sampling=sampling,
            rater_population=rater_population)
        return chance_corrected.fleiss_kappa(self.statistics, weights, options, self._plan(),
                                             missing=missing)

    @inference_keywords("multirater", cis=WALD_OR_NONE_CIS, ci=NONE_IS_WALD)
    def scott_pi(
        self,
        weights: Any = None,
        *,
        alternative: str = "two-sided",
        confidence_level: float = 0.95,
        ci: str = "wald",
        n_resamples: int = 9999,
        rng: Any = 0,
        progress: bool | None = None,
        distribution: str = "normal",
        population: float | None = None,
        null: float | None = None,
        ci_clip: bool = True,
        sampling: str = "subjects",
        rater_population: float | None = None,
        missing: str = "available",
    ) -> FleissKappaResult:
        """Scott's (1955) pi and its multi-rater form, which is Fleiss' kappa.

        Fleiss (1971) generalised Scott's pi (pooled margins) to many raters; Gwet (2014)
        calls the result Fleiss' generalised kappa. So this is :meth:`fleiss_kappa`
        under Scott's name: for two raters without missing ratings it is exactly
        Scott's pi, for more raters Fleiss' kappa. Result as for :meth:`fleiss_kappa`.

        Parameters
        ----------
        weights : None, str or array-like of shape (k, k), default None
            As for :meth:`fleiss_kappa` (Gwet's weighted generalisation).

        Examples
        --------
        >>> import irr
        >>> ag = irr.Agreement([1, 2, 3, 3, 2, 1], [1, 2, 3, 2, 2, 1])
        >>> round(ag.scott_pi().estimate, 4)
        0.7447
        """
        self._check_categorical("Scott's pi", weights is not None)
        options = InferenceOptions.from_keywords(
            alternative=alternative, confidence_level=confidence_level, ci=ci,
            n_resamples=n_resamples, rng=rng, progress=progress, distribution=distribution,
            population=population, null=null, ci_clip=ci_clip, sampling=sampling,
            rater_population=rater_population)
        return chance_corrected.fleiss_kappa(self.statistics, weights, options, self._plan(),
                                             name="Scott's pi", symbol="π", missing=missing)

    @inference_keywords("multirater", cis=WALD_OR_NONE_CIS, ci=NONE_IS_WALD)
    def conger_kappa(
        self,
        weights: Any = None,
        *,
        alternative: str = "two-sided",
        confidence_level: float = 0.95,
        ci: str = "wald",
        n_resamples: int = 9999,
        rng: Any = 0,
        progress: bool | None = None,
        distribution: str = "normal",
        population: float | None = None,
        null: float | None = None,
        ci_clip: bool = True,
        sampling: str = "subjects",
        rater_population: float | None = None,
        missing: str = "available",
    ) -> ChanceCorrectedResult:
        r"""Conger's (1980) kappa: Cohen's kappa generalised to many raters.

        Observed agreement is Fleiss' p_a; chance agreement uses each rater's own
        margins, averaged over rater pairs (so for two raters it is Cohen's kappa):

        .. math::

            p_e = \frac{1}{m(m-1)}\sum_{g\ne h}\sum_{kl} w_{kl}\,p_{gk}\,p_{hl},

        :math:`p_{gk}` the share of rater g's ratings (over the subjects g rated) in
        category k. SE: Gwet's (2014) linearised variance (divisor n - 1); the z test
        uses it too. Validated against irrCAC 1.0 (``cac_raw4raters``: 0.76282, SE
        0.14917).

        Parameters
        ----------
        weights : None, str or array-like of shape (k, k), default None
            As for :meth:`fleiss_kappa` (Gwet's weighted generalisation).

        References
        ----------
        Conger, A. J. (1980). Integration and generalization of kappas for multiple
        raters. Psychological Bulletin, 88, 322-328. https://doi.org/10.1037/0033-2909.88.2.322

        Examples
        --------
        >>> import irr
        >>> ag = irr.Agreement.from_frame(irr.datasets.load("cac_raw4raters"))
        >>> res = ag.conger_kappa()
        >>> round(res.estimate, 5), round(res.se, 5)
        (0.76282, 0.14917)
        """
        self._check_categorical("Conger's kappa", weights is not None)
        options = InferenceOptions.from_keywords(
            alternative=alternative, confidence_level=confidence_level, ci=ci,
            n_resamples=n_resamples, rng=rng, progress=progress, distribution=distribution,
            population=population, null=null, ci_clip=ci_clip, sampling=sampling,
            rater_population=rater_population)
        return chance_corrected.conger_kappa(self.statistics, weights, options, self._plan(),
                                             missing)

    @inference_keywords("multirater", cis=WALD_OR_NONE_CIS, ci=NONE_IS_WALD)
    def light_kappa(
        self,
        weights: Any = None,
        *,
        alternative: str = "two-sided",
        confidence_level: float = 0.95,
        ci: str = "wald",
        n_resamples: int = 9999,
        rng: Any = 0,
        progress: bool | None = None,
        distribution: str = "normal",
        population: float | None = None,
        null: float | None = None,
        ci_clip: bool = True,
        sampling: str = "subjects",
        rater_population: float | None = None,
        missing: str = "available",
    ) -> ChanceCorrectedResult:
        """Light's (1971) kappa: the mean of the pairwise Cohen's kappas.

        Each pair of raters uses the subjects both rated. SE: the linearised
        (delta-method) variance of the mean, from each pairwise kappa's per-subject
        influence (scaled by n / n_gh for pairs with missing ratings), divided by
        n(n - 1). This is an approximation documented here, not a published formula;
        for two raters without missing ratings it equals the Fleiss-Cohen-Everitt
        variance times n / (n - 1). For small samples ask for a bootstrap interval.

        Parameters
        ----------
        weights : None, str or array-like of shape (k, k), default None
            As for :meth:`fleiss_kappa` (Gwet's weighted generalisation).

        References
        ----------
        Light, R. J. (1971). Measures of response agreement for qualitative data: Some
        generalizations and alternatives. Psychological Bulletin, 76, 365-377.
        https://doi.org/10.1037/h0031643

        Examples
        --------
        >>> import irr
        >>> ag = irr.Agreement.from_frame(irr.datasets.load("diagnoses"))
        >>> round(ag.light_kappa().estimate, 4)
        0.4594
        """
        self._check_categorical("Light's kappa", weights is not None)
        options = InferenceOptions.from_keywords(
            alternative=alternative, confidence_level=confidence_level, ci=ci,
            n_resamples=n_resamples, rng=rng, progress=progress, distribution=distribution,
            population=population, null=null, ci_clip=ci_clip, sampling=sampling,
            rater_population=rater_population)
        return chance_corrected.light_kappa(self.statistics, weights, options, self._plan(),
                                            missing)

    @inference_keywords("multirater", cis=WALD_OR_NONE_CIS, ci=NONE_IS_WALD)
    def gwet_ac(
        self,
        weights: Any = None,
        *,
        alternative: str = "two-sided",
        confidence_level: float = 0.95,
        ci: str = "wald",
        n_resamples: int = 9999,
        rng: Any = 0,
        progress: bool | None = None,
        distribution: str = "normal",
        population: float | None = None,
        null: float | None = None,
        ci_clip: bool = True,
        sampling: str = "subjects",
        rater_population: float | None = None,
        missing: str = "available",
    ) -> ChanceCorrectedResult:
        r"""Gwet's AC1 (unweighted) or AC2 (weighted) agreement coefficient.

        Parameters
        ----------
        weights : None, str or array-like of shape (k, k), default None
            None gives AC1. AC2 takes ``'linear'``, ``'quadratic'``, ``'ordinal'``,
            ``'radical'``, ``'ratio'``, ``'circular'``, ``'bipolar'`` (Gwet 2014, ch. 3),
            kappaetc's ``'power:r'`` and ``'circular:u'`` (see
            :func:`irr.weights.agreement_weights`) or an agreement-weight matrix.

        Notes
        -----
        .. math::

            p_e = \frac{T_w}{q(q-1)}\sum_k \pi_k(1 - \pi_k),

        with q the number of declared categories and :math:`T_w` the sum of the weights
        (q for AC1); p_a and :math:`\pi_k` as for :meth:`fleiss_kappa` (subjects with at
        least two / one rating). SE: Gwet's (2008, 2014) linearised variance, divisor
        n - 1; the z test uses it. Validated against irrCAC 1.0 on ``cac_raw4raters``
        (AC1 0.77544, SE 0.14295).

        References
        ----------
        Gwet, K. L. (2008). Computing inter-rater reliability and its variance in the
        presence of high agreement. British Journal of Mathematical and Statistical
        Psychology, 61, 29-48. https://doi.org/10.1348/000711006X126600

        Examples
        --------
        >>> import irr
        >>> ag = irr.Agreement.from_frame(irr.datasets.load("cac_raw4raters"))
        >>> res = ag.gwet_ac()
        >>> round(res.estimate, 5), round(res.se, 5)
        (0.77544, 0.14295)
        """
        self._check_categorical("Gwet's AC", weights is not None)
        options = InferenceOptions.from_keywords(
            alternative=alternative, confidence_level=confidence_level, ci=ci,
            n_resamples=n_resamples, rng=rng, progress=progress, distribution=distribution,
            population=population, null=null, ci_clip=ci_clip, sampling=sampling,
            rater_population=rater_population)
        return chance_corrected.gwet_ac(self.statistics, weights, options, self._plan(), missing)

    @inference_keywords("multirater", cis=WALD_OR_NONE_CIS, ci=NONE_IS_WALD)
    def brennan_prediger(
        self,
        weights: Any = None,
        *,
        alternative: str = "two-sided",
        confidence_level: float = 0.95,
        ci: str = "wald",
        n_resamples: int = 9999,
        rng: Any = 0,
        progress: bool | None = None,
        distribution: str = "normal",
        population: float | None = None,
        null: float | None = None,
        ci_clip: bool = True,
        sampling: str = "subjects",
        rater_population: float | None = None,
        missing: str = "available",
    ) -> ChanceCorrectedResult:
        """Brennan & Prediger's (1981) coefficient (Randolph's free-marginal kappa).

        Chance agreement is fixed by the number q of declared categories,
        :math:`p_e = T_w / q^2` (1/q unweighted); p_a as for :meth:`fleiss_kappa`. SE:
        Gwet's (2014) linearised variance, divisor n - 1. Unweighted it equals
        statsmodels' ``fleiss_kappa(method='randolph')`` on complete data. Validated
        against irrCAC 1.0 (``cac_raw4raters``: 0.77273, SE 0.14472).

        Parameters
        ----------
        weights : None, str or array-like of shape (k, k), default None
            As for :meth:`fleiss_kappa` (Gwet's weighted generalisation).

        References
        ----------
        Brennan, R. L., & Prediger, D. J. (1981). Coefficient kappa: Some uses, misuses,
        and alternatives. Educational and Psychological Measurement, 41, 687-699.
        https://doi.org/10.1177/001316448104100307

        Examples
        --------
        >>> import irr
        >>> ag = irr.Agreement.from_frame(irr.datasets.load("cac_raw4raters"))
        >>> round(ag.brennan_prediger().estimate, 5)
        0.77273
        """
        self._check_categorical("Brennan-Prediger", weights is not None)
        options = InferenceOptions.from_keywords(
            alternative=alternative, confidence_level=confidence_level, ci=ci,
            n_resamples=n_resamples, rng=rng, progress=progress, distribution=distribution,
            population=population, null=null, ci_clip=ci_clip, sampling=sampling,
            rater_population=rater_population)
        return chance_corrected.brennan_prediger(self.statistics, weights, options,
                                                 self._plan(), missing)

    def pairwise(self, statistic: str = "kappa", weights: Any = None) -> pd.DataFrame:
        """A two-rater statistic for every pair of raters, as a raters x raters DataFrame.

        Parameters
        ----------
        statistic : {'kappa', 'percent_agreement', 'scott_pi', 'gwet_ac', 'brennan_prediger'}
            ``'kappa'`` is Cohen's (weighted) kappa. Each pair uses the subjects both
            raters rated. The diagonal is 1.
        weights : None, str or array-like of shape (k, k)
            As for :meth:`gwet_ac`; for ``'percent_agreement'`` weighted agreement
            (Gwet's weighted p_a).

        Examples
        --------
        >>> import irr
        >>> ag = irr.Agreement.from_frame(irr.datasets.load("anxiety"))
        >>> ag.pairwise().round(3)
                rater1  rater2  rater3
        rater
        rater1   1.000   0.119  -0.166
        rater2   0.119   1.000  -0.006
        rater3  -0.166  -0.006   1.000
        """
        self._require_categorical(f"pairwise('{statistic}')")
        return chance_corrected.pairwise(self.statistics, statistic, weights)

    # -- Krippendorff's alpha, ICC, Kendall's W ------------------------------------------
    @inference_keywords("rater_sampling", cis=ALPHA_CIS, **ALPHA_NOTES)
    def krippendorff_alpha(
        self,
        level: Any = "nominal",
        *,
        alternative: str = "two-sided",
        confidence_level: float = 0.95,
        ci: str | None = "auto",
        n_resamples: int = 9999,
        rng: Any = 0,
        progress: bool | None = None,
        distribution: str = "normal",
        population: float | None = None,
        null: float | None = None,
        ci_clip: bool = True,
        sampling: str = "subjects",
        rater_population: float | None = None,
    ) -> KrippendorffResult:
        r"""Krippendorff's alpha of all raters, with missing ratings handled natively.

        Parameters
        ----------
        level : {'nominal', 'ordinal', 'interval', 'ratio'}, callable or array-like, default 'nominal'
            The metric (squared distance) between values. ``'ordinal'`` uses the rank
            order of the categories and their frequencies, ``'interval'`` and ``'ratio'``
            the category scores (the numeric values; positions 0, 1, ... for ordered
            non-numeric labels). A callable ``f(c, k)`` is applied to the category scores
            (as broadcasting arrays, e.g. ``lambda c, k: abs(c - k)``) and must return
            squared distances; an array-like is taken as the k x k matrix of squared
            distances in category order. Custom distances must be finite, non-negative,
            symmetric and zero on the diagonal.

        Returns
        -------
        KrippendorffResult
            ``estimate``, ``observed_disagreement`` D_o, ``expected_disagreement`` D_e,
            ``n_pairable`` (values n), ``coincidences`` and ``distances``; ``se`` is
            Gwet's linearised SE (the bootstrap's standard deviation is
            ``bootstrap.se``), ``statistic`` and ``pvalue`` the test of alpha = 0.
            ``n_subjects`` counts the
            pairable units, ``n_missing`` the units left out for having fewer than two
            ratings.

        Raises
        ------
        ValueError
            An unknown `level` (the message lists the valid ones); negative values at the
            ``'ratio'`` level; an invalid distance matrix; fewer than two units.
        TypeError
            ``'ordinal'``, ``'interval'`` or ``'ratio'`` on unordered labels.

        Warns
        -----
        DegenerateDataWarning
            When no unit has two ratings, or all pairable values are one category: alpha
            is nan.

        Notes
        -----
        With the coincidence matrix :math:`o_{ck} = \sum_u (n_{uc} n_{uk} - [c=k] n_{uc})
        / (m_u - 1)` over units with :math:`m_u \ge 2` values, its margins :math:`n_c`
        and :math:`n = \sum_c n_c`,

        .. math::

            \alpha = 1 - \frac{D_o}{D_e} = 1 - (n - 1) \frac{\sum_{ck} o_{ck}
            \delta^2_{ck}}{\sum_{ck} n_c n_k \delta^2_{ck}}

        with Krippendorff's (2011) metrics: nominal :math:`[c \ne k]`; ordinal
        :math:`(\sum_{g=c}^{k} n_g - (n_c + n_k)/2)^2`; interval :math:`(c - k)^2`;
        ratio :math:`((c - k)/(c + k))^2`. Validated against Krippendorff (2011), whose
        example (``cac_raw4raters``) gives 0.743, 0.815, 0.849 and 0.797, and against the
        ``krippendorff`` package on random data with missing values. Computed from the
        unit x category counts in O(units x categories) memory. Krippendorff's own
        bootstrap resamples pairs of values; this package resamples units.

        The SE is Gwet's (2011; 2014, ch. 4) linearisation of alpha written as a
        chance-corrected coefficient on the units with two or more values, in
        disagreement form (:func:`irr.coefficients.krippendorff.alpha_linearised`): the
        delta method's variance of alpha before its small-sample factor, as irrCAC's
        ``krippen.alpha.raw`` and Stata's kappaetc compute it. On irrCAC's
        ``cac.raw4raters`` it gives irrCAC's printed 0.14548 and, at the interval level
        (irrCAC's quadratic weights), 0.12905 (irrCAC 1.0 on CRAN prints 0.14557 and
        0.12913: it adjusted for the units' numbers of values with the corrected
        agreement); with every unit rated equally often it equals Fleiss' kappa's
        linearised SE. ``ci='wald', distribution='t'`` gives irrCAC's t test and
        interval, on n - 1 df for the n pairable units.

        References
        ----------
        Krippendorff, K. (2011). Computing Krippendorff's alpha-reliability. Annenberg
        School for Communication, University of Pennsylvania.
        https://repository.upenn.edu/asc_papers/43

        Hayes, A. F., & Krippendorff, K. (2007). Answering the call for a standard
        reliability measure for coding data. Communication Methods and Measures, 1, 77-89.
        https://doi.org/10.1080/19312450709336664

        Examples
        --------
        >>> import irr
        >>> ag = irr.Agreement.from_frame(irr.datasets.load("cac_raw4raters"))
        >>> [round(ag.krippendorff_alpha(lv).estimate, 3)
        ...  for lv in ("nominal", "ordinal", "interval", "ratio")]
        [0.743, 0.815, 0.849, 0.797]
        >>> res = ag.krippendorff_alpha("interval")
        >>> res.n_subjects, res.n_missing, res.n_pairable
        (11, 1, 40)
        >>> res = ag.krippendorff_alpha(ci="wald", distribution="t")  # as irrCAC prints it
        >>> round(res.se, 5), [round(x, 3) for x in res.ci], round(res.pvalue, 5)
        (0.14548, [0.419, 1.0], 0.00046)
        """
        ci, auto = krippendorff.auto_ci(ci)
        options = InferenceOptions.from_keywords(
            alternative=alternative, confidence_level=confidence_level, ci=ci,
            n_resamples=n_resamples, rng=rng, progress=progress, distribution=distribution,
            population=population, null=null, ci_clip=ci_clip, sampling=sampling,
            rater_population=rater_population)
        if self.continuous:
            if isinstance(level, str) and level in ("nominal", "ordinal"):
                values = self._measured("Krippendorff's alpha").value[:3].tolist()
                raise ValueError(
                    f"Krippendorff's alpha at the {level} level takes each rating as a "
                    f"{'category' if level == 'nominal' else 'rank of a category'}, but these "
                    f"ratings are continuous measurements (values such as {preview(values)}); "
                    "use `level='interval'` (or 'ratio' for a scale with an absolute zero), "
                    "or build the Agreement with `continuous=False` to treat each distinct value "
                    "as a category."
                )
            stats = self._score_statistics("Krippendorff's alpha")
            return krippendorff.krippendorff_alpha(stats, level, options, self._plan(),
                                                   auto=auto)
        self._check_categorical("Krippendorff's alpha (nominal)",
                                not (isinstance(level, str) and level == "nominal"))
        return krippendorff.krippendorff_alpha(self.statistics, level, options, self._plan(),
                                               auto=auto)

    @inference_keywords("f_test", texts=ICC_TEXTS)
    def icc(
        self,
        model: str = "twoway",
        type: str = "agreement",
        unit: str = "single",
        *,
        confidence_level: float = 0.95,
        null: float | None = None,
    ) -> ICCResult:
        """Intraclass correlation (McGraw & Wong 1996) with its F test and F-based interval.

        Parameters
        ----------
        model : {'twoway', 'oneway'}, default 'twoway'
            ``'oneway'``: each subject rated by different (random) raters; ``'twoway'``:
            the same raters rate every subject (random or fixed raters give the same
            numbers).
        type : {'agreement', 'consistency'}, default 'agreement'
            Absolute agreement, or consistency (rater mean differences removed). The
            one-way model measures agreement only; ``'consistency'`` with it raises.
        unit : {'single', 'average'}, default 'single'
            Reliability of one rater's rating, or of the mean of the k raters.

        Returns
        -------
        ICCResult
            ``estimate``, ``statistic`` (F of H0: ICC = 0, or = `null`), ``df1``, ``df2``,
            ``pvalue``
            (one-sided), ``ci`` (F-based: method ``'exact'`` for ICC(1), ICC(k) and the
            consistency forms, ``'satterthwaite'`` for the absolute-agreement forms), ``df_ci``,
            ``shrout_fleiss`` and ``mcgraw_wong`` names, the mean squares.

        Raises
        ------
        ValueError
            Unknown `model`, `type` or `unit`; ``oneway`` with ``consistency``; fewer than
            two subjects with complete ratings.
        TypeError
            Unordered labels (the ICC needs numeric category scores).

        Notes
        -----
        =========  ===========  ========  ===========  ===============
        model      type         unit      McGraw-Wong  Shrout-Fleiss
        =========  ===========  ========  ===========  ===============
        oneway     agreement    single    ICC(1)       ICC(1,1)
        twoway     agreement    single    ICC(A,1)     ICC(2,1)
        twoway     consistency  single    ICC(C,1)     ICC(3,1)
        oneway     agreement    average   ICC(k)       ICC(1,k)
        twoway     agreement    average   ICC(A,k)     ICC(2,k)
        twoway     consistency  average   ICC(C,k)     ICC(3,k)
        =========  ===========  ========  ===========  ===============

        From the mean squares between subjects (MSR), raters (MSC), residual (MSE) and
        within subjects (MSW), e.g. :math:`ICC(A,1) = (MSR - MSE) / (MSR + (k-1) MSE +
        k (MSC - MSE)/n)`. F = MSR/MSW (one-way) or MSR/MSE (two-way); intervals are the
        F-based ones of McGraw & Wong (1996, Table 7): exact under the model for the one-way
        and consistency forms, approximate (Satterthwaite-type df) for the
        absolute-agreement forms. Only subjects rated by every rater are used
        (listwise); how many were left out is in ``n_missing`` and the notes. Validated
        against Shrout & Fleiss (1979) and pingouin. For real-valued measurements (not
        categories) use :func:`irr.icc` on the array.

        References
        ----------
        McGraw, K. O., & Wong, S. P. (1996). Forming inferences about some intraclass
        correlation coefficients. Psychological Methods, 1, 30-46.
        https://doi.org/10.1037/1082-989X.1.1.30

        Shrout, P. E., & Fleiss, J. L. (1979). Intraclass correlations: uses in assessing
        rater reliability. Psychological Bulletin, 86, 420-428.
        https://doi.org/10.1037/0033-2909.86.2.420

        Examples
        --------
        >>> import irr
        >>> ag = irr.Agreement.from_frame(irr.datasets.load("anxiety"))
        >>> res = ag.icc("twoway", "agreement", "single")
        >>> round(res.estimate, 4), round(res.statistic, 3), res.df1, res.df2
        (0.198, 1.83, 19, 38)
        >>> round(res.ci.low, 3), round(res.ci.high, 3)
        (-0.039, 0.494)
        """
        result = self._icc(model, type, unit, confidence_level, null)
        return icc.of_replicate_means(result, self._replicates_averaged())

    def _icc(self, model: str, type: str, unit: str, confidence_level: float,
             null: float | None = None, warn: bool = True) -> ICCResult:
        """One ICC form: of the score patterns, or, for real values too many to be
        categories (:func:`irr._statistics.coded_by_rank`: rows all distinct, as a rule), of
        the values themselves as :func:`irr.icc` computes it, without grouping the rows
        into patterns."""
        if self.continuous:
            if warn:
                self._warn_replicates("The ICC", stacklevel=4)
            if self._coded_by_rank:
                icc.check_form(model, type, unit)
                return icc.icc_of_values(self._wide,
                                         tuple(self.measurements.raters), model, type, unit,
                                         confidence_level, null)
        return icc.icc(self._score_statistics("The ICC", warn=False), model, type, unit,
                       confidence_level, null)

    @cached_property
    def _coded_by_rank(self) -> bool:
        """Continuous ratings with more distinct values than categories can have."""
        return coded_by_rank(self._wide)

    @cached_property
    def _wide(self) -> Any:
        """Continuous ratings as (subjects, raters) cell means, nan where missing
        (read-only)."""
        wide = self.measurements.wide()
        wide.flags.writeable = False
        return wide

    @inference_keywords("f_test", texts=CRONBACH_TEXTS)
    def cronbach_alpha(
        self, *, confidence_level: float = 0.95, null: float | None = None
    ) -> CronbachResult:
        """Cronbach's alpha (coefficient alpha) with Feldt's F test and exact interval.

        Returns
        -------
        CronbachResult
            ``estimate``, ``statistic`` (Feldt's F), ``df1`` = n - 1, ``df2`` = (n - 1)(k
            - 1), ``pvalue`` (one-sided), ``ci`` (Feldt's exact interval, method
            ``'feldt'``), the mean squares.

        Raises
        ------
        ValueError
            Fewer than two subjects rated by every rater.
        TypeError
            Unordered labels (alpha needs numeric category scores).

        Notes
        -----
        Alpha of the k raters (or items) is ICC(C,k) = 1 - MSE/MSR, the consistency of
        their average (McGraw & Wong 1996), equal on complete data to Cronbach's (1951)
        k/(k - 1)(1 - sum of the raters' variances / variance of the subjects' sums).
        Feldt's interval, [1 - (1 - alpha) F(1 - g/2), 1 - (1 - alpha) F(g/2)] on (n - 1,
        (n - 1)(k - 1)) df, is exact under normality. Only subjects rated by every rater
        are used (listwise, as psych's ``alpha(use='complete.obs')`` and pingouin's
        ``nan_policy='listwise'``): covariances of different subsets of subjects
        (``'pairwise'``) do not make one alpha of one set of subjects, and ICC(C,k) needs
        complete rows. How many were left out is in ``n_missing`` and the notes. No
        interpretation scale by default (see :class:`irr.estimators.cronbach.CronbachResult`).

        References
        ----------
        Cronbach, L. J. (1951). Coefficient alpha and the internal structure of tests.
        Psychometrika, 16, 297-334. https://doi.org/10.1007/BF02310555

        Feldt, L. S. (1965). The approximate sampling distribution of Kuder-Richardson
        reliability coefficient twenty. Psychometrika, 30, 357-370.
        https://doi.org/10.1007/BF02289499

        Feldt, L. S., Woodruff, D. J., & Salih, F. A. (1987). Statistical inference for
        coefficient alpha. Applied Psychological Measurement, 11, 93-103.
        https://doi.org/10.1177/014662168701100107

        Examples
        --------
        >>> import irr
        >>> ag = irr.Agreement.from_frame(irr.datasets.load("anxiety"))
        >>> res = ag.cronbach_alpha()
        >>> round(res.estimate, 4), round(res.statistic, 3), res.df1, res.df2
        (0.4526, 1.827, 19, 38)
        >>> res.estimate == ag.icc("twoway", "consistency", "average").estimate
        True
        """
        return cronbach.cronbach_alpha(self._score_statistics("Cronbach's alpha"),
                                       confidence_level, null)

    @inference_keywords("fixed_interval")
    def icc_table(self, *, confidence_level: float = 0.95) -> pd.DataFrame:
        """All six ICC forms as a DataFrame indexed by Shrout & Fleiss' names.

        Columns: model, type, unit, mcgraw_wong, estimate, F, df1, df2, pvalue, ci_low,
        ci_high, confidence_level. See :meth:`icc`.

        Examples
        --------
        >>> import irr
        >>> ag = irr.Agreement.from_frame(irr.datasets.load("anxiety"))
        >>> ag.icc_table()["estimate"].round(3).tolist()
        [0.175, 0.198, 0.216, 0.389, 0.425, 0.453]
        """
        if self.continuous:
            self._warn_replicates("The ICC", stacklevel=3)
        r = self._replicates_averaged()
        return icc.icc_table([
            icc.of_replicate_means(self._icc(*form, confidence_level, warn=False), r)
            for form in icc.FORMS])

    @inference_keywords("bootstrap", cis=NO_SE_CIS, ci=NO_SE_CI)
    def kendall_w(
        self,
        correct_ties: bool = True,
        *,
        confidence_level: float = 0.95,
        ci: str | None = None,
        n_resamples: int = 9999,
        rng: Any = 0,
        progress: bool | None = None,
    ) -> KendallResult:
        r"""Kendall's coefficient of concordance W, with its chi-square test.

        Each rater ranks the subjects (ties get mid-ranks); only subjects rated by every
        rater are used.

        Parameters
        ----------
        correct_ties : bool, default True
            Correct W for ties within raters (Kendall 1948); ratings on a short scale are
            full of ties, so leave it on unless the raters gave true rankings.

        Returns
        -------
        KendallResult
            ``estimate`` (W), ``statistic`` (chi-square m (n - 1) W), ``df`` (n - 1),
            ``pvalue`` (upper tail), ``ties`` (the tie sum T). No standard error; the
            interval is the bootstrap's when asked for.

        Raises
        ------
        TypeError
            Unordered labels (they cannot be ranked).
        ValueError
            Fewer than two subjects with complete ratings.

        Notes
        -----
        .. math:: W = \frac{12 S}{m^2 (n^3 - n) - m T}

        with S the sum of squared deviations of the subjects' rank sums from their mean
        and :math:`T = \sum (t^3 - t)` over every rater's tie groups (0 uncorrected).
        The chi-square test is Friedman's (raters as blocks) and is a large-sample test.
        Validated against DescTools' ``KendallW(anxiety, TRUE)`` = 0.5396569 and against
        scipy's Friedman test.

        References
        ----------
        Kendall, M. G., & Babington Smith, B. (1939). The problem of m rankings. The
        Annals of Mathematical Statistics, 10, 275-287.
        https://doi.org/10.1214/aoms/1177732186

        Examples
        --------
        >>> import irr
        >>> res = irr.Agreement.from_frame(irr.datasets.load("anxiety")).kendall_w()
        >>> round(res.estimate, 4), round(res.statistic, 2), res.df
        (0.5397, 30.76, 19)
        """
        options = InferenceOptions.from_keywords(
            alternative="greater", confidence_level=confidence_level, ci=ci,
            n_resamples=n_resamples, rng=rng, progress=progress)
        stats = self._score_statistics("Kendall's W")
        return kendall.kendall(stats, correct_ties, options, self._plan())

    @inference_keywords("bootstrap", cis=NO_SE_CIS, ci=NO_SE_CI)
    def mean_spearman(
        self,
        fisher: bool = True,
        *,
        confidence_level: float = 0.95,
        ci: str | None = None,
        n_resamples: int = 9999,
        rng: Any = 0,
        progress: bool | None = None,
    ) -> VarianceRatioResult:
        r"""The mean of the raters' pairwise Spearman rank correlations (R irr's
        ``meanrho``).

        Parameters
        ----------
        fisher : bool, default True
            Average the correlations as Fisher z values and transform back, leaving out
            perfect correlations (R irr's default); False takes their plain mean.

        Returns
        -------
        VarianceRatioResult

        Notes
        -----
        Each rater's scores are ranked over the complete subjects (ties at mid-ranks).
        Without ties the plain mean is :math:`(mW - 1)/(m - 1)`, W Kendall's coefficient
        of concordance (:meth:`kendall_w`). R irr also gives a z test of the mean Fisher
        z; we give no test (its SE ignores that the pairs share raters).

        Examples
        --------
        >>> import irr
        >>> ag = irr.Agreement.from_frame(irr.datasets.load("anxiety"))
        >>> round(ag.mean_spearman(fisher=False).estimate, 4)
        0.31
        """
        options = InferenceOptions.from_keywords(
            confidence_level=confidence_level, ci=ci, n_resamples=n_resamples, rng=rng,
            progress=progress)
        stats = self._score_statistics("The mean Spearman correlation")
        return rank_correlation.mean_spearman(stats, fisher, options, self._plan())

    @inference_keywords("tested_bootstrap", cis=NO_SE_CIS, ci=NO_SE_CI,
                        alternative="R irr's z test of r = 0, with `fisher`.")
    def mean_pearson(
        self,
        fisher: bool = True,
        *,
        alternative: str = "two-sided",
        confidence_level: float = 0.95,
        ci: str | None = None,
        n_resamples: int = 9999,
        rng: Any = 0,
        progress: bool | None = None,
    ) -> VarianceRatioResult:
        r"""The mean of the raters' pairwise Pearson correlations (R irr's ``meancor``).

        Parameters
        ----------
        fisher : bool, default True
            Average the correlations as Fisher z values and transform back, leaving out
            perfect correlations, and test r = 0 as R irr does (its default); False takes
            their plain mean, with no test.

        Returns
        -------
        VarianceRatioResult
            ``statistic`` and ``pvalue`` are R irr's z test when `fisher` (nan otherwise).

        Notes
        -----
        Pearson's r of every pair of raters over the complete subjects (incomplete ones
        dropped listwise, as R irr), averaged as
        :math:`\bar r = \tanh(\frac{1}{p}\sum \operatorname{artanh} r_{jl})` over the p
        pairs with :math:`|r_{jl}| < 1`. R irr's test of r = 0 is
        :math:`z = \bar r \sqrt{n - 3}` on the normal law: it takes the mean as one
        correlation of n subjects and ignores that the pairs share raters, so read it as
        R irr's number rather than a calibrated test. The mean correlation ignores
        differences between the raters' means and variances; prefer an ICC when those
        matter. Checked against numpy's correlations averaged by hand and R irr's output
        for ``meancor(anxiety)`` (R = 0.224, z = 0.922, p = 0.357).

        Examples
        --------
        >>> import irr
        >>> res = irr.Agreement.from_frame(irr.datasets.load("anxiety")).mean_pearson()
        >>> round(res.estimate, 3), round(res.statistic, 3), round(res.pvalue, 3)
        (0.224, 0.922, 0.357)
        """
        options = InferenceOptions.from_keywords(
            alternative=alternative, confidence_level=confidence_level, ci=ci,
            n_resamples=n_resamples, rng=rng, progress=progress)
        stats = self._score_statistics("The mean Pearson correlation")
        return rank_correlation.mean_pearson(stats, fisher, options, self._plan())

    @inference_keywords("bootstrap", cis=NO_SE_CIS, ci=NO_SE_CI)
    def robinson_a(
        self,
        *,
        confidence_level: float = 0.95,
        ci: str | None = None,
        n_resamples: int = 9999,
        rng: Any = 0,
        progress: bool | None = None,
    ) -> VarianceRatioResult:
        r"""Robinson's (1957) A: the share of the subjects' and residual sums of squares
        that is between subjects (R irr's ``robinson``).

        Parameters
        ----------

        Returns
        -------
        VarianceRatioResult

        Notes
        -----
        With the two-way (subjects x raters) ANOVA of the complete subjects' scores,

        .. math:: A = \frac{SS_{subjects}}{SS_{subjects} + SS_{residual}}
            = \frac{1 + (m - 1)\,\mathrm{ICC}(C,1)}{m},

        so A is 1/m when the consistency ICC is 0 and 1 when it is 1. Subjects missing a
        rating are left out (listwise, as R irr).

        References
        ----------
        Robinson, W. S. (1957). The statistical measurement of agreement. American
        Sociological Review, 22, 17-25. https://doi.org/10.2307/2088760

        Examples
        --------
        >>> import irr
        >>> res = irr.Agreement.from_frame(irr.datasets.load("anxiety")).robinson_a()
        >>> round(res.estimate, 4)
        0.4774
        """
        options = InferenceOptions.from_keywords(
            confidence_level=confidence_level, ci=ci, n_resamples=n_resamples, rng=rng,
            progress=progress)
        stats = self._score_statistics("Robinson's A")
        return variance_ratio.robinson_a(stats, options, self._plan())

    @inference_keywords("bootstrap", cis=NO_SE_CIS, ci=NO_SE_CI)
    def finn(
        self,
        model: str = "oneway",
        levels: int | None = None,
        *,
        confidence_level: float = 0.95,
        ci: str | None = None,
        n_resamples: int = 9999,
        rng: Any = 0,
        progress: bool | None = None,
    ) -> VarianceRatioResult:
        r"""Finn's (1970) coefficient: 1 minus the ratio of the observed variance of the
        ratings within subjects to that of random ratings (R irr's ``finn``).

        Parameters
        ----------
        model : {'oneway', 'twoway'}, default 'oneway'
            ``'oneway'``: the mean square within subjects; ``'twoway'``: the residual
            mean square after the raters' means (raters also random).
        levels : int, optional
            The number of equally spaced rating levels s (R irr's ``s.levels``); the
            variance of random ratings is then :math:`(s^2 - 1)/12`. Default: the
            variance of the uniform distribution over the declared category scores
            (the same for a scale 1..s; declare unused levels with ``categories=``).

        Returns
        -------
        VarianceRatioResult
            ``estimate``, and ``statistic`` the F ratio expected / observed variance with
            ``pvalue`` on (inf, df) degrees of freedom: df = n(m - 1) one-way,
            (n - 1)(m - 1) two-way (R irr uses n(m - 1) for both).

        Notes
        -----
        Finn's coefficient suits scales on which raters agree closely, where the ICC is
        low only because the subjects hardly differ. It assumes equally spaced scores.

        References
        ----------
        Finn, R. H. (1970). A note on estimating the reliability of categorical data.
        Educational and Psychological Measurement, 30, 71-76.
        https://doi.org/10.1177/001316447003000106

        Examples
        --------
        >>> import irr
        >>> ag = irr.Agreement.from_frame(irr.datasets.load("anxiety"))
        >>> res = ag.finn(levels=6)
        >>> round(res.estimate, 4), round(res.statistic, 3)
        (0.4457, 1.804)
        """
        options = InferenceOptions.from_keywords(
            alternative="greater", confidence_level=confidence_level, ci=ci,
            n_resamples=n_resamples, rng=rng, progress=progress)
        stats = self._score_statistics("Finn's coefficient")
        return variance_ratio.finn(stats, model, levels, options, self._plan())

    # -- every applicable coefficient ----------------------------------------------------
    @inference_keywords("fixed_interval")
    def summary(self, *, confidence_level: float = 0.95) -> Summary:
        """Every applicable coefficient in one table.

        Two raters: percent agreement and Cohen's, linear and quadratic kappa (weighted
        kappas are left out when the categories have no order). Three or more raters (or
        counts): the coefficients of :data:`MULTIRATER_SUMMARY` that the input supports.
        Ratings that look like continuous scores (a non-integer value or more than 10
        distinct numbers) get Krippendorff's interval alpha and the ICC(A,1) only.

        Examples
        --------
        >>> import irr
        >>> ag = irr.Agreement.from_frame(irr.datasets.load("vision"))
        >>> text = ag.summary().as_text()
        >>> print(text.splitlines()[0].strip())
        Agreement between r.eye and l.eye
        >>> print(" ".join(next(ln for ln in text.splitlines() if ln.startswith("Cohen")).split()))
        Cohen's kappa 0.5954 0.0073 84.581 <0.0001 0.581 0.610 Wald
        """
        confidence_level = check_confidence_level(confidence_level)
        if self._source.lazy is not None:
            raise ValueError(self._source.rows_refused(
                "The summary of continuous measurements (Krippendorff's interval alpha, the "
                "ICC)") + " limits_of_agreement() and concordance() need only the sums.")
        facts = self.facts
        results: list[Result] = []
        skipped: list[str] = []
        for method, options in registry.rows("summary", facts):
            if (facts.continuous and method == "krippendorff_alpha"
                    and self.n_subjects > SUMMARY_ALPHA_SUBJECTS):
                skipped.append(
                    f"Krippendorff's interval alpha left out (its interval is a bootstrap over "
                    f"{self.n_subjects:,} subjects); krippendorff_alpha('interval') computes it."
                )
                continue
            try:
                results.append(getattr(self, method)(confidence_level=confidence_level,
                                                     **options))
            except ValueError as exc:  # too few usable subjects for this row: said in a note
                skipped.append(f"{method} not computed: {exc}")
        if not results:
            raise ValueError(" ".join(skipped))
        if self.continuous:
            m = self.measurements
            info = [("Scale:", "continuous"), ("Measurements:", f"{m.n_measurements:,}")]
            if self.n_missing:
                info.append(("Missing ratings:", f"{int((m.replicates == 0).sum()):,}"))
            if m.has_replicates:
                info.append(("Replicates:", f"up to {int(m.replicates.max())} per cell"))
                skipped.append("Replicates: each (subject, rater) cell's mean measurement "
                               "is used (one value per cell).")
        else:
            info = [scale_info(self.categories)]
        stats = None if self.continuous else self.statistics
        if stats is not None and facts.by_rater and stats.n_missing:  # the summary adds in how many subjects
            per_subject = list(stats.subjects_by_ratings())
            cells = ((stats.n_raters - stats.ratings_per_pattern) * stats.multiplicity).sum()
            # a sparse design (a few of many raters per subject) is said instead
            info.append(design_fact(stats.n_raters, per_subject[0], per_subject[-1])
                        or ("Missing ratings:", f"{int(cells):,}"))
        if facts.n_raters == 2 and facts.by_rater:
            title = f"Agreement between {self.raters[0]} and {self.raters[1]}"
        else:
            info.append(("Rater count:" if self.raters else "Raters (most):",
                         str(self.n_raters)))
            title = (f"Agreement among {self.n_raters} raters" if self.raters
                     else "Agreement from subject x category counts")
        return results_summary(results, title=title, info=info, notes=skipped)

    # -- hypothesis tests (irr.inference.error_rate, irr.inference.paired) ---------------
    def error_rate_test(
        self,
        epsilon0: float,
        alpha: float = 0.05,
        reference: str | None = None,
        tolerance: float = 0,
        alternative: str = "greater",
        *,
        confidence_level: float | None = None,
    ) -> ErrorRateTestResult | ErrorRateTestFamily:
        """Exact binomial test of the disagreement (error) rate against a reference.

        Parameters
        ----------
        epsilon0 : float
            The error rate under H0, in (0, 1).
        alpha : float, default 0.05
            Significance level.
        reference : str, optional
            The reference rater's name. Two raters: default the first; errors are the
            subjects on whom the two disagree. More raters: required; each other rater
            is tested against it, one row per rater.
        tolerance : float, default 0
            Ratings whose category scores differ by at most `tolerance` count as
            agreement (``tolerance=1``: off by one is not an error on an ordinal scale).
            Must be 0 for unordered labels.
        alternative : {'greater', 'less', 'two-sided'}, default 'greater'
            As for :func:`irr.error_rate_test`: 'greater' tests H0 "error rate <= eps0",
            'less' tests H0 "error rate >= eps0" (to show it is below eps0).
        confidence_level : float, optional
            Level of the Clopper–Pearson interval; default ``1 - alpha``.

        Returns
        -------
        ErrorRateTestResult or ErrorRateTestFamily
            One test when one pair is compared (two raters); a family with one test per
            rater when there are more. Subjects missing either rating are left out and
            counted (``n_missing``).

        Examples
        --------
        >>> import irr
        >>> ag = irr.Agreement.from_frame(irr.datasets.load("video"))
        >>> fam = ag.error_rate_test(0.5, reference="rater1", tolerance=0)
        >>> fam.to_frame()["reject"].tolist()
        [False, False, False]
        >>> res = ag.error_rate_test(0.20, reference="rater1", tolerance=1,
        ...                          alternative="less")["rater2"]
        >>> res.errors, res.n, res.reject
        (0, 20, True)
        """
        self._check_categorical("The error-rate test (exact disagreement)", tolerance != 0)
        return error_rate.error_rate_test_of_statistics(
            self.statistics, epsilon0, alpha, reference, tolerance, alternative,
            confidence_level,
        )

    @inference_keywords("fixed_interval")
    def mcnemar(
        self, *, exact: bool = True, correction: bool = True, confidence_level: float = 0.95
    ) -> PairedTestResult:
        """McNemar's test on the 2 x 2 table of two raters (see :func:`irr.mcnemar`).

        Parameters
        ----------
        exact, correction : bool, default True
            As for :func:`irr.mcnemar`.

        Examples
        --------
        >>> import irr
        >>> ag = irr.Agreement.from_table([[794, 86], [150, 570]])
        >>> ag.mcnemar().statistic
        86.0
        """
        exact = check_bool(exact, "exact")
        correction = check_bool(correction, "correction")
        self._require_categorical("McNemar's test")
        level = check_confidence_level(confidence_level)
        return paired.mcnemar_of_table(paired.paired_table(self.statistics), bool(exact),
                                       bool(correction), level)

    def symmetry_test(self, *, reduce_df: bool = False) -> PairedTestResult:
        """Bowker's test of symmetry of the two raters' table (see :func:`irr.bowker_test`).

        Parameters
        ----------
        reduce_df : bool, default False
            As for :func:`irr.bowker_test`.

        Examples
        --------
        >>> import irr
        >>> ag = irr.Agreement.from_frame(irr.datasets.load("vision"))
        >>> res = ag.symmetry_test()
        >>> round(res.statistic, 2), res.df
        (19.11, 6.0)
        """
        reduce_df = check_bool(reduce_df, "reduce_df")
        self._require_categorical("Bowker's symmetry test")
        return paired.bowker_of_table(paired.paired_table(self.statistics), bool(reduce_df))

    def marginal_homogeneity_test(self) -> PairedTestResult:
        """Stuart–Maxwell test of equal margins (see :func:`irr.stuart_maxwell_test`).

        Examples
        --------
        >>> import irr
        >>> ag = irr.Agreement.from_frame(irr.datasets.load("vision"))
        >>> res = ag.marginal_homogeneity_test()
        >>> round(res.statistic, 2), res.df
        (11.96, 3.0)
        """
        self._require_categorical("The Stuart-Maxwell marginal homogeneity test")
        return paired.stuart_maxwell_of_table(paired.paired_table(self.statistics))

    def bhapkar_test(self) -> PairedTestResult:
        """Bhapkar's test of equal margins (see :func:`irr.bhapkar_test`): the
        Stuart-Maxwell test with the covariance not restricted to H0.

        Examples
        --------
        >>> import irr
        >>> ag = irr.Agreement.from_frame(irr.datasets.load("vision"))
        >>> res = ag.bhapkar_test()
        >>> round(res.statistic, 2), res.df
        (11.98, 3.0)
        """
        self._require_categorical("Bhapkar's marginal homogeneity test")
        return paired.bhapkar_of_table(paired.paired_table(self.statistics))

    @inference_keywords("fixed_interval")
    def rater_bias(self, *, confidence_level: float = 0.95) -> PairedTestResult:
        """Rater bias, R irr's ``rater.bias`` (see :func:`irr.rater_bias`): the share of
        disagreements in which the first rater chose the lower category, and its
        chi-square test.

        Examples
        --------
        >>> import irr
        >>> ag = irr.Agreement.from_frame(irr.datasets.load("vision"))
        >>> res = ag.rater_bias()
        >>> round(res.estimate, 4), round(res.statistic, 2)
        (0.5369, 11.88)
        """
        self._require_categorical("Rater bias")
        level = check_confidence_level(confidence_level)
        return paired.rater_bias_of_statistics(self.statistics, level)

    def cochrans_q(self, reference: str, *, tolerance: float = 0) -> PairedTestResult:
        """Cochran's Q: do the raters other than `reference` agree with it equally often?

        Each rater's rating of each subject is a success when it matches `reference`'s
        (within `tolerance` on the category scores); subjects missing any rating are
        left out and counted. Needs at least three raters. See :func:`irr.cochrans_q`.

        Parameters
        ----------
        reference : str
            The reference rater's name.
        tolerance : float, default 0
            Ratings whose category scores differ by at most `tolerance` count as matching.

        Examples
        --------
        >>> import irr
        >>> ag = irr.Agreement.from_frame(irr.datasets.load("video"))
        >>> res = ag.cochrans_q(reference="rater1")
        >>> res.df, [round(p, 2) for p in res.proportions]
        (2.0, [0.7, 0.4, 0.85])
        """
        self._require_categorical("Cochran's Q")
        return paired.cochrans_q_of_statistics(self.statistics, reference, tolerance)

    # -- continuous measurements ---------------------------------------------------------
    def _pair(self, first: Any, second: Any, what: str) -> tuple[int, int]:
        """The rater indices of a two-method statistic (default: the first two raters)."""
        names = list(self.raters if self._source.lazy is not None
                     else self.measurements.raters)  # aggregated data: an error
        if len(names) < 2:
            raise ValueError(f"{what} compares two raters (methods); these data have "
                             f"{len(names)}.")
        chosen = []
        for argument, value, default in (("first", first, 0), ("second", second, 1)):
            if value is None:
                chosen.append(default)
            elif str(value) in names:
                chosen.append(names.index(str(value)))
            else:
                raise ValueError(f"`{argument}` must name a rater: one of {names}; got "
                                 f"{value!r}.")
        if chosen[0] == chosen[1]:
            raise ValueError(f"`first` and `second` name the same rater {names[chosen[0]]!r}.")
        if first is None and second is None and len(names) > 2:
            warnings.warn(
                f"{what} compares two raters: the first two, {names[0]!r} and {names[1]!r}, "
                f"of {len(names)}; choose them with first= and second=.", UserWarning,
                stacklevel=3)
        return chosen[0], chosen[1]

    @property
    def _continuous(self) -> Measurements | LazyMeasurements:
        """The measurements a continuous statistic takes: those a lazy frame's engine sums
        (each estimator says what it can compute from them), else :attr:`measurements`."""
        lazy = self._source.lazy
        return lazy if lazy is not None else self.measurements

    @inference_keywords("fixed_interval")
    def limits_of_agreement(
        self,
        first: str | None = None,
        second: str | None = None,
        *,
        scale: str = "difference",
        coverage: float | None = None,
        multiplier: float | None = None,
        method: str = "parametric",
        ci_method: str | None = None,
        replicates: str | None = None,
        units: str = "",
        confidence_level: float = 0.95,
    ) -> LimitsOfAgreementResult:
        """Bland–Altman limits of agreement of two raters (methods): `first` minus `second`.

        Parameters
        ----------
        first, second : str, optional
            The raters compared (default the first two).
        scale, coverage, multiplier, method, ci_method, replicates, units
            As for :func:`irr.estimators.limits.limits_of_agreement`: ``scale``
            ('difference', 'percent', 'ratio'), ``coverage`` or ``multiplier``, ``method``
            ('parametric', 'regression', 'nonparametric'), ``ci_method`` ('exact',
            'approximate'), ``replicates`` ('constant' or 'varying': required when the
            data hold replicates), ``units``. A lazy frame's engine sums what the
            parametric limits of single measurements need.

        Examples
        --------
        >>> import irr
        >>> pef = irr.datasets.load("pef")
        >>> ag = irr.Agreement.from_frame(pef, ["wright_1", "mini_1"], continuous=True)
        >>> res = ag.limits_of_agreement(units="l/min")
        >>> round(res.estimate, 1), round(res.lower, 1), round(res.upper, 1)
        (-2.1, -78.1, 73.9)
        """
        g, h = self._pair(first, second, "limits of agreement")
        options = InferenceOptions.from_keywords(confidence_level=confidence_level)
        return limits.limits_of_agreement(
            self._continuous, g, h, options, scale=scale, coverage=coverage,
            multiplier=multiplier, method=method, ci_method=ci_method, replicates=replicates,
            units=units)

    @inference_keywords("tested_bootstrap", cis=CCC_CIS, **CCC_NOTES)
    def concordance(
        self,
        method: str | None = None,
        *,
        rho0: float = 0.0,
        alternative: str = "two-sided",
        confidence_level: float = 0.95,
        ci: str = "fisher-z",
        n_resamples: int = 9999,
        rng: Any = 0,
        progress: bool | None = None,
    ) -> ConcordanceResult:
        """Lin's concordance correlation coefficient of two raters, or the overall CCC of
        all raters (see :func:`irr.concordance`).

        Parameters
        ----------
        method : {'lin', 'overall', 'variance-components'}, optional
            As for :func:`irr.concordance`. A lazy frame's engine sums what Lin's CCC of
            two raters and its Fisher-z interval need.
        rho0 : float, default 0
            The null value of the z test of CCC = rho0.

        Examples
        --------
        >>> import irr
        >>> pef = irr.datasets.load("pef")
        >>> ag = irr.Agreement.from_frame(pef, ["wright_1", "mini_1"], continuous=True)
        >>> round(ag.concordance().estimate, 4)
        0.9427
        """
        options = InferenceOptions.from_keywords(
            alternative=alternative, confidence_level=confidence_level, ci=ci,
            n_resamples=n_resamples, rng=rng, progress=progress)
        return ccc_estimator.ccc(self._continuous, options, method, rho0=rho0)

    @inference_keywords("bootstrap", cis=TDI_CIS, **TDI_NOTES)
    def total_deviation_index(
        self,
        p: float = 0.9,
        first: str | None = None,
        second: str | None = None,
        *,
        method: str = "approximate",
        confidence_level: float = 0.95,
        ci: str | None = None,
        n_resamples: int = 9999,
        rng: Any = 0,
        progress: bool | None = None,
    ) -> TDIResult:
        """Lin's (2000) total deviation index of two raters: the bound that holds a share
        `p` of their absolute differences, with its upper confidence bound (see
        :func:`irr.total_deviation_index`).

        Parameters
        ----------
        p : float, default 0.9
            The share of absolute differences the bound holds, in (0, 1).
        first, second : str, optional
            The raters compared (default the first two).
        method : {'approximate', 'exact'}, default 'approximate'
            As for :func:`irr.total_deviation_index`. A lazy frame's engine sums what the
            approximate TDI and Lin's bound need.

        Examples
        --------
        >>> import irr
        >>> pef = irr.datasets.load("pef")
        >>> ag = irr.Agreement.from_frame(pef, ["wright_1", "mini_1"], continuous=True)
        >>> round(ag.total_deviation_index(0.9).estimate, 1)
        63.9
        """
        g, h = self._pair(first, second, "the total deviation index")
        options = InferenceOptions.from_keywords(
            confidence_level=confidence_level, ci=ci, n_resamples=n_resamples, rng=rng,
            progress=progress)
        return ccc_estimator.tdi(self._continuous, options, p, g, h, method=method)

    @inference_keywords("bootstrap", cis=CP_CIS, **CP_NOTES)
    def coverage_probability(
        self,
        delta: float,
        first: str | None = None,
        second: str | None = None,
        *,
        confidence_level: float = 0.95,
        ci: str = "logit",
        n_resamples: int = 9999,
        rng: Any = 0,
        progress: bool | None = None,
    ) -> CoverageResult:
        """Lin et al.'s (2002) coverage probability of two raters: the share of absolute
        differences below `delta`, with its lower confidence bound (see
        :func:`irr.coverage_probability`).

        Parameters
        ----------
        delta : float
            The acceptable absolute difference, > 0, in the measurements' units.
        first, second : str, optional
            The raters compared (default the first two). A lazy frame's engine sums what
            the CP and its logit bound need.

        Examples
        --------
        >>> import irr
        >>> pef = irr.datasets.load("pef")
        >>> ag = irr.Agreement.from_frame(pef, ["wright_1", "mini_1"], continuous=True)
        >>> round(ag.coverage_probability(50).estimate, 2)
        0.8
        """
        g, h = self._pair(first, second, "the coverage probability")
        options = InferenceOptions.from_keywords(
            confidence_level=confidence_level, ci=ci, n_resamples=n_resamples, rng=rng,
            progress=progress)
        return ccc_estimator.cp(self._continuous, options, delta, g, h)

    @inference_keywords("bootstrap", cis=DEMING_CIS, **DEMING_NOTES)
    def deming(
        self,
        first: str | None = None,
        second: str | None = None,
        *,
        error_ratio: float | None = None,
        confidence_level: float = 0.95,
        ci: str = "jackknife",
        n_resamples: int = 9999,
        rng: Any = 0,
        progress: bool | None = None,
    ) -> MethodRegressionResult:
        """Deming regression of `second` (the test method) on `first` (the comparison
        method); with replicates the error ratio is estimated from them (see
        :func:`irr.deming`).

        Parameters
        ----------
        first, second : str, optional
            The comparison (x) and test (y) methods (default the first two raters).
        error_ratio : float, optional
            As for :func:`irr.deming`.

        Examples
        --------
        >>> import irr
        >>> pef = irr.datasets.load("pef")
        >>> ag = irr.Agreement.from_frame(pef, ["wright_1", "mini_1"], continuous=True)
        >>> round(ag.deming().slope, 3)
        0.971
        """
        g, h = self._pair(first, second, "Deming regression")
        options = InferenceOptions.from_keywords(
            confidence_level=confidence_level, ci=ci, n_resamples=n_resamples, rng=rng,
            progress=progress)
        return method_regression.deming(self._continuous, None, options,
                                        error_ratio=error_ratio, first=g, second=h)

    @inference_keywords("fixed_interval")
    def passing_bablok(
        self,
        first: str | None = None,
        second: str | None = None,
        *,
        confidence_level: float = 0.95,
    ) -> MethodRegressionResult:
        """Passing–Bablok regression of `second` on `first` (see :func:`irr.passing_bablok`).

        Parameters
        ----------
        first, second : str, optional
            The comparison (x) and test (y) methods (default the first two raters).

        Examples
        --------
        >>> import irr
        >>> pef = irr.datasets.load("pef")
        >>> ag = irr.Agreement.from_frame(pef, ["wright_1", "mini_1"], continuous=True)
        >>> round(ag.passing_bablok().slope, 2)
        1.06
        """
        g, h = self._pair(first, second, "Passing–Bablok regression")
        options = InferenceOptions.from_keywords(confidence_level=confidence_level)
        return method_regression.passing_bablok(self._continuous, None, options, first=g,
                                                second=h)

    @inference_keywords("resampled", **ICC_COMPONENTS_NOTES)
    def icc_components(
        self,
        model: str = "twoway",
        type: str = "agreement",
        unit: str = "single",
        *,
        estimator: str = "anova",
        confidence_level: float = 0.95,
        n_resamples: int = 9999,
        rng: Any = 0,
        progress: bool | None = None,
    ) -> ComponentsICCResult:
        """The ICC by variance components: every measurement used, with missing ratings,
        unbalanced designs and replicates (see :func:`irr.icc_components`); :meth:`icc`
        is the classical ANOVA ICC of the complete subjects.

        Parameters
        ----------
        model, type, unit : str
            The form, as for :meth:`icc`.
        estimator : {'anova', 'reml'}, default 'anova'
            As for :func:`irr.icc_components`.

        Examples
        --------
        >>> import irr
        >>> ag = irr.Agreement.from_frame(irr.datasets.load("anxiety"), continuous=True)
        >>> round(ag.icc_components().estimate, 3)  # complete data: McGraw & Wong's ICC(A,1)
        0.198
        """
        options = InferenceOptions.from_keywords(
            confidence_level=confidence_level, n_resamples=n_resamples, rng=rng,
            progress=progress)
        return variance_components.icc_components(self._continuous, model, type, unit,
                                                  estimator=estimator, options=options)

    @inference_keywords("resampled", **MEASUREMENT_ERROR_NOTES)
    def measurement_error(
        self,
        type: str = "agreement",
        *,
        units: str = "",
        confidence_level: float = 0.95,
        n_resamples: int = 9999,
        rng: Any = 0,
        progress: bool | None = None,
    ) -> MeasurementErrorResult:
        """The standard error of measurement, smallest detectable change, and (with
        replicates) the within-subject SD, repeatability coefficient and within-subject
        CV (see :func:`irr.measurement_error`).

        Parameters
        ----------
        type : {'agreement', 'consistency'}, default 'agreement'
            As for :func:`irr.measurement_error`.
        units : str, default ''
            The measurements' units, for the summary and the sentence.

        Examples
        --------
        >>> import irr
        >>> ag = irr.Agreement.from_frame(irr.datasets.load("anxiety"), continuous=True)
        >>> res = ag.measurement_error(units="points")
        >>> round(res.estimate, 2)
        1.27
        """
        options = InferenceOptions.from_keywords(
            confidence_level=confidence_level, n_resamples=n_resamples, rng=rng,
            progress=progress)
        return measurement_error.measurement_error(self._continuous, type, units=units,
                                                   options=options)

    @inference_keywords("fixed_interval")
    def inter_intra_reliability(
        self,
        *,
        rho0_inter: float = 0.6,
        rho0_intra: float = 0.8,
        confidence_level: float = 0.95,
    ) -> InterIntraResult:
        """Inter- and intra-rater reliability when every rater measures every subject
        several times, with F tests of `rho0_inter` and `rho0_intra` (Eliasziw et al.,
        1994; R irr's ``relInterIntra``; see
        :func:`irr.estimators.inter_intra.inter_intra_reliability`).

        Build the Agreement with ``Agreement.from_long(..., replicate=...,
        continuous=True)``.

        Parameters
        ----------
        rho0_inter, rho0_intra : float, default 0.6 and 0.8
            The inter- and intra-rater reliability under H0 of the two F tests.

        Examples
        --------
        >>> import irr
        >>> long = irr.datasets.load("pef", form="long")  # subject, rater, replicate, rating
        >>> ag = irr.Agreement.from_long(long, subject="subject", rater="rater",
        ...                              rating="rating", replicate="replicate", continuous=True)
        >>> res = ag.inter_intra_reliability(rho0_inter=0.6, rho0_intra=0.8)
        >>> round(res.estimate, 3), round(res.ci.low, 3), round(res.ci.high, 3)
        (0.948, 0.882, 0.979)
        """
        return inter_intra.inter_intra_reliability(
            self._measured("Inter- and intra-rater reliability"), rho0_inter=rho0_inter,
            rho0_intra=rho0_intra, confidence_level=confidence_level)
