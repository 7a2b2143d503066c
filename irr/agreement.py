"""`Agreement`: the ratings of a set of subjects by two or more raters."""

from __future__ import annotations

import dataclasses
import math
import warnings
from collections.abc import Sequence
from functools import cached_property
from typing import TYPE_CHECKING, Any

import numpy as np
import pandas as pd

from irr._data import Ratings, encode_ratings, validate_table
from irr._table import agreement_table
from irr._validation import (
    DegenerateDataWarning,
    check_alternative,
    check_choice,
    check_confidence_level,
    check_integer,
    check_rng,
)
from irr.coefficients.kappa import kappa_from_counts, kappa_max, kappa_parts, kappa_variances
from irr.results import (
    ASYMPTOTIC_METHODS,
    BOOTSTRAP_METHODS,
    KappaResult,
    ProportionResult,
    normal_pvalue,
    wald_interval,
    wilson_interval,
)
from irr.weights import agreement_weights, weight_name

if TYPE_CHECKING:
    from statsmodels.iolib.summary import Summary

    from irr.inference.error_rate import ErrorRateTestFamily, ErrorRateTestResult
    from irr.inference.paired import PairedTestResult

__all__ = ["Agreement"]

_NAN_POLICIES = ("omit", "raise")
_SYMBOLS = {"unweighted": "κ", "linear": "κw", "quadratic": "κw", "custom": "κw"}


def _coefficient_name(weights: str) -> str:
    if weights == "unweighted":
        return "Cohen's kappa"
    return f"Weighted kappa ({weights})"


class Agreement:
    """Ratings of the same subjects by two or more raters.

    Parameters
    ----------
    rater_a, rater_b : array-like of shape (n_subjects,)
        The two raters' ratings: lists, ndarrays, Series or Categoricals of integer,
        integral float, bool or string labels. Missing ratings are None, NaN or pd.NA.
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
    ) -> None:
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
        ratings = encode_ratings(columns, argnames, categories)
        self._init(ratings, [str(n) for n in names], nan_policy)

    def _init(self, ratings: Ratings, names: list[str], nan_policy: str) -> None:
        check_choice(nan_policy, "nan_policy", _NAN_POLICIES)
        self._ratings = Ratings(
            ratings.codes, ratings.categories, ratings.scores, ratings.ordered, tuple(names)
        )
        self._given_table: np.ndarray | None = None
        self._frame: pd.DataFrame | None = None
        missing = self._missing_mask
        if nan_policy == "raise" and missing is not None and missing.any():
            rows = np.flatnonzero(missing)
            raise ValueError(
                f"{missing.sum()} subject(s) have missing ratings (rows {rows[:5].tolist()}"
                f"{' ...' if len(rows) > 5 else ''}) and `nan_policy='raise'`."
            )

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
    ) -> Agreement:
        """Build from a wide DataFrame: one row per subject, one column per rater.

        Parameters
        ----------
        df : DataFrame
        raters : sequence of column labels, optional
            The rater columns (at least two); default all columns (but `freq_weights`).
        categories, nan_policy
            As for :class:`Agreement`.
        freq_weights : column label or array-like of non-negative integers, optional
            Aggregated data: how many subjects each row stands for. The two-rater table
            is the weighted count of the rows' cells, ``n_subjects`` and ``n_missing``
            count weighted subjects, and the bootstrap resamples the weighted subjects
            (it works on table cells). Supported for two raters; cluster and strata
            bootstraps need one row per subject.

        Examples
        --------
        >>> import irr
        >>> vision = irr.datasets.load("vision")
        >>> ag = irr.Agreement.from_frame(vision, ["r.eye", "l.eye"])
        >>> ag.n_subjects
        7477
        """
        if not isinstance(df, pd.DataFrame):
            raise TypeError(f"`df` must be a pandas DataFrame; got {type(df).__name__}.")
        if raters is None:
            raters = [c for c in df.columns if not (isinstance(freq_weights, str) and c == freq_weights)]
        raters = list(raters)
        unknown = [r for r in raters if r not in df.columns]
        if unknown:
            raise ValueError(
                f"`raters` names columns not in `df`: {unknown!r}; columns are {list(df.columns)!r}."
            )
        if len(raters) < 2:
            raise ValueError(f"`raters` must name at least two columns; got {raters!r}.")
        if len(set(raters)) < len(raters):
            raise ValueError(f"`raters` names a column twice: {raters!r}.")
        if freq_weights is not None:
            from irr.pandas import weighted_from_frame

            check_choice(nan_policy, "nan_policy", _NAN_POLICIES)
            return weighted_from_frame(cls, df, raters, categories, nan_policy, freq_weights)
        columns = [df[r] for r in raters]
        ratings = encode_ratings(columns, [str(r) for r in raters], categories)
        agreement = cls.__new__(cls)
        agreement._init(ratings, [str(r) for r in raters], nan_policy)
        agreement._frame = df
        return agreement

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
            Non-negative integral counts. A DataFrame's index gives the categories.
        categories : sequence of length k, optional
            The category labels in scale order; default the DataFrame index, else 0..k-1.
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
        counts = validate_table(table)
        k = counts.shape[0]
        if categories is None:
            labelled = isinstance(table, pd.DataFrame)
            categories = list(table.index) if labelled else list(range(k))
        if len(categories) != k:
            raise ValueError(
                f"`categories` must have {k} labels for a {k} x {k} table; got {len(categories)}."
            )
        if counts.sum() == 0:
            raise ValueError("`table` has no subjects: every count is zero.")
        placeholder = np.zeros(0, dtype=np.int32)
        ratings = encode_ratings([categories, categories], ["categories", "categories"],
                                 categories)
        ratings = Ratings((placeholder, placeholder), ratings.categories, ratings.scores,
                          True, tuple(names))
        agreement = cls.__new__(cls)
        agreement._init(ratings, list(names), "omit")
        agreement._given_table = counts
        return agreement

    # -- basic facts -------------------------------------------------------------------
    @property
    def raters(self) -> tuple[str, ...]:
        """The raters' names."""
        return self._ratings.raters

    @property
    def n_raters(self) -> int:
        """Number of raters."""
        return len(self._ratings.codes)

    @property
    def categories(self) -> pd.Index:
        """The categories, in scale order."""
        return self._ratings.categories

    @cached_property
    def _missing_mask(self) -> np.ndarray | None:
        codes = self._ratings.codes
        if len(codes[0]) == 0:
            return None
        mask = codes[0] < 0
        for c in codes[1:]:
            mask = mask | (c < 0)
        return mask

    @property
    def n_subjects(self) -> int:
        """Number of subjects (rows), including those with missing ratings."""
        if self._given_table is not None:
            return int(self._given_table.sum()) + self._missing_weight
        return self._ratings.n_rows

    @property
    def n_missing(self) -> int:
        """Subjects with at least one missing rating."""
        mask = self._missing_mask
        return self._missing_weight if mask is None else int(mask.sum())

    def _require_two(self, what: str) -> None:
        if self.n_raters != 2:
            raise ValueError(
                f"{what} compares two raters; this Agreement has {self.n_raters} "
                f"({', '.join(self.raters)}). Select two with Agreement.from_frame(df, "
                "raters=[a, b])."
            )

    @cached_property
    def _counts(self) -> np.ndarray:
        """The k x k table as an int64 array (complete pairs only)."""
        self._require_two("The agreement table")
        if self._given_table is not None:
            return self._given_table
        return agreement_table(*self._ratings.codes, self._ratings.n_categories)

    @property
    def table(self) -> pd.DataFrame:
        """The k x k agreement table (rows: first rater, columns: second), labelled."""
        labels = self.categories
        return pd.DataFrame(
            self._counts,
            index=pd.Index(labels, name=self.raters[0]),
            columns=pd.Index(labels, name=self.raters[1]),
        )

    # -- resampling --------------------------------------------------------------------
    def _per_subject(self, values: Any, name: str) -> np.ndarray:
        """One value per subject (row), from an array-like or a column of the source frame."""
        if self._given_table is not None:
            raise ValueError(
                f"`{name}` needs one value per subject, but this Agreement was built from a "
                "table of counts."
            )
        if isinstance(values, str):
            if self._frame is None or values not in self._frame.columns:
                raise ValueError(
                    f"`{name}`={values!r} names no column of the data; pass an array with "
                    "one value per subject or a column of the DataFrame given to from_frame."
                )
            values = self._frame[values]
        array = np.asarray(values.to_numpy() if isinstance(values, pd.Series) else values)
        n = self._ratings.n_rows
        if array.ndim != 1 or len(array) != n:
            raise ValueError(
                f"`{name}` must have one value per subject ({n}); got shape {array.shape}."
            )
        missing = np.asarray(pd.isna(array), dtype=bool)
        if missing.any():
            raise ValueError(f"`{name}` has {missing.sum()} missing value(s); every subject needs one.")
        return array

    def _resampler(
        self,
        statistic: Any,
        *,
        n_resamples: int,
        rng: Any,
        cluster: Any = None,
        strata: Any = None,
    ) -> Any:
        """A zero-argument callable drawing the bootstrap distribution of `statistic`.

        Subjects are resampled as multinomial counts over the k*k cells of the table (or
        whole clusters, or within strata). An int `rng` gives the same resamples on every
        call, so coefficients drawn with the same seed are paired.
        """
        from irr.inference.bootstrap import bootstrap_counts, group_pattern_counts

        n_resamples = check_integer(n_resamples, "n_resamples", 1)
        check_rng(rng)
        counts = self._counts.ravel()
        cluster_counts = stratum_design = None
        if cluster is not None or strata is not None:
            k = self._ratings.n_categories
            a, b = self._ratings.codes
            mask = self._missing_mask
            keep = slice(None) if mask is None else ~mask
            cells = (a.astype(np.int64) * k + b)[keep]
            if cluster is not None:
                ids = self._per_subject(cluster, "cluster")[keep]
                labels, cluster_counts = group_pattern_counts(cells, ids, n_patterns=k * k)
                if strata is not None:
                    stratum = pd.Series(self._per_subject(strata, "strata")[keep])
                    per_cluster = stratum.groupby(ids).agg(["nunique", "first"])
                    if (per_cluster["nunique"] > 1).any():
                        raise ValueError("`cluster` must be nested in `strata`: a cluster spans strata.")
                    stratum_design = per_cluster["first"].reindex(labels).to_numpy()
            else:
                stratum = self._per_subject(strata, "strata")[keep]
                _, stratum_design = group_pattern_counts(cells, stratum, n_patterns=k * k)

        def draw() -> Any:
            return bootstrap_counts(
                counts,
                statistic,
                n_resamples=n_resamples,
                rng=check_rng(rng),
                cluster=cluster_counts,
                strata=stratum_design,
            )

        return draw

    # -- coefficients ------------------------------------------------------------------
    def kappa(
        self,
        weights: Any = None,
        *,
        alternative: str = "two-sided",
        confidence_level: float = 0.95,
        ci: str = "wald",
        n_resamples: int = 9999,
        rng: Any = None,
        cluster: Any = None,
        strata: Any = None,
    ) -> KappaResult:
        """Cohen's kappa, or weighted kappa, between the two raters.

        Parameters
        ----------
        weights : {None, 'linear', 'quadratic'} or array-like of shape (k, k), default None
            None gives Cohen's (unweighted) kappa. ``'linear'`` (aliases ``'equal'``,
            ``'Cicchetti-Allison'``) and ``'quadratic'`` (aliases ``'squared'``,
            ``'Fleiss-Cohen'``) weight by the distance between category scores; a matrix
            gives agreement weights directly (ones on the diagonal).
        alternative : {'two-sided', 'greater', 'less'}, default 'two-sided'
            Alternative of the z test of kappa = 0.
        confidence_level : float, default 0.95
            Level of the interval.
        ci : {'wald', 'percentile', 'basic', 'bca'}, default 'wald'
            The interval in :attr:`KappaResult.ci`. Bootstrap intervals resample subjects
            (as multinomial counts over the k*k cells, so any n is fast); the distribution
            is drawn once and reused by ``conf_int`` for other levels and methods.
        n_resamples : int, default 9999
            Bootstrap resamples.
        rng : None, int or numpy.random.Generator
            Randomness of the bootstrap. The same int seed gives the same resampled
            subjects for every coefficient of this Agreement, so their replicates are
            paired (e.g. for an interval of a difference of two kappas).
        cluster : array-like or column name, optional
            Cluster of each subject (e.g. patient of each lesion): the bootstrap resamples
            whole clusters.
        strata : array-like or column name, optional
            Stratum of each subject: the bootstrap keeps each stratum's size fixed.

        Returns
        -------
        KappaResult
            ``estimate``, ``se`` (Fleiss, Cohen & Everitt 1969, under the alternative; used
            for the interval), ``se0`` (under H0; used for the z test), ``statistic``
            (``estimate / se0``), ``pvalue``, ``ci`` (Wald, clipped to [-1, 1]),
            ``observed_agreement``, ``expected_agreement``, ``kappa_max``.

        Warns
        -----
        DegenerateDataWarning
            When expected agreement is 1 (both raters used one category only): kappa is
            undefined and returned as nan.

        Notes
        -----
        .. math:: \\kappa = \\frac{p_o - p_e}{1 - p_e}

        with weighted observed and expected agreement
        :math:`p_o = \\sum w_{ij} p_{ij}`, :math:`p_e = \\sum w_{ij} p_{i\\cdot}p_{\\cdot j}`.
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
        alternative = check_alternative(alternative)
        confidence_level = check_confidence_level(confidence_level)
        check_choice(ci, "ci", ASYMPTOTIC_METHODS + BOOTSTRAP_METHODS)
        self._require_two("kappa")
        k = self._ratings.n_categories
        w = agreement_weights(weights, k, self._ratings.scores)
        name = weight_name(weights)
        table = self._counts
        n = int(table.sum())
        if n < 2:
            raise ValueError(
                f"kappa needs at least two subjects rated by both raters; {n} are "
                f"({self.n_missing} left out for missing ratings)."
            )
        parts = kappa_parts(table, w)
        estimate = float(parts.kappa)
        var, var0 = kappa_variances(table, w)
        se, se0 = math.sqrt(float(var)), math.sqrt(float(var0))
        notes = [
            "SE: Fleiss, Cohen & Everitt (1969), under the alternative (for the interval); "
            "z uses the SE under H0."
        ]
        if math.isnan(estimate):
            warnings.warn(
                "kappa is undefined (nan): expected agreement is 1 because both raters "
                "used a single category.",
                DegenerateDataWarning,
                stacklevel=2,
            )
            statistic = math.nan
            best = math.nan
        else:
            statistic = estimate / se0 if se0 > 0 else math.nan
            best = kappa_max(table, w)
        if name in ("linear", "quadratic"):
            notes.append(
                f"{name.capitalize()} agreement weights on category scores "
                f"{_describe_scores(self._ratings.scores)}."
            )
        if self.n_missing:
            notes.append(f"{self.n_missing} subject(s) with a missing rating were left out.")
        source = self._resampler(
            lambda counts: kappa_from_counts(counts, w),
            n_resamples=n_resamples,
            rng=rng,
            cluster=cluster,
            strata=strata,
        )
        result = KappaResult(
            coefficient=_coefficient_name(name),
            symbol=_SYMBOLS[name],
            estimate=estimate,
            se=se,
            se0=se0,
            statistic=statistic,
            pvalue=normal_pvalue(statistic, alternative),
            alternative=alternative,
            ci=wald_interval(estimate, se, confidence_level, (-1.0, 1.0)),
            n_subjects=n,
            n_missing=self.n_missing,
            raters=self.raters,
            notes=tuple(notes),
            observed_agreement=float(parts.observed),
            expected_agreement=float(parts.expected),
            kappa_max=best,
            weights=name,
            weight_matrix=w,
            categories=tuple(self.categories),
            _bootstrap_source=source,
        )
        if ci in BOOTSTRAP_METHODS:
            result = dataclasses.replace(result, ci=result.conf_int(confidence_level, ci))
        return result

    def percent_agreement(self, *, confidence_level: float = 0.95) -> ProportionResult:
        """Share of subjects on whom the two raters agree exactly, with a Wilson interval.

        Examples
        --------
        >>> import irr
        >>> ag = irr.Agreement([1, 2, 3, 3], [1, 2, 3, 1])
        >>> ag.percent_agreement().estimate
        0.75
        """
        confidence_level = check_confidence_level(confidence_level)
        self._require_two("percent agreement")
        table = self._counts
        n = int(table.sum())
        agree = int(np.trace(table))
        p = agree / n if n else math.nan
        return ProportionResult(
            coefficient="Percent agreement",
            symbol="po",
            estimate=p,
            se=math.sqrt(p * (1 - p) / n) if n else math.nan,
            ci=wilson_interval(agree, n, confidence_level),
            n_subjects=n,
            n_missing=self.n_missing,
            raters=self.raters,
            notes=("Percent agreement: Wilson score interval.",),
            count=agree,
            _bootstrap_source=self._resampler(
                lambda counts: counts[:, :: len(table) + 1].sum(axis=1) / counts.sum(axis=1),
                n_resamples=9999,
                rng=None,
            ),
        )

    def summary(self, *, confidence_level: float = 0.95) -> Summary:
        """Percent agreement and Cohen's, linear and quadratic kappa in one table.

        Weighted kappas are left out when the categories have no order.

        Examples
        --------
        >>> import irr
        >>> ag = irr.Agreement.from_frame(irr.datasets.load("vision"))
        >>> text = ag.summary().as_text()
        >>> print(text.splitlines()[0].strip())
        Agreement between r.eye and l.eye
        >>> print(next(line for line in text.splitlines() if line.startswith("Cohen")))
        Cohen's kappa                  0.5954     0.0073     84.581    <0.0001       0.581       0.610
        """
        from irr.summary import results_summary

        self._require_two("summary")
        results = [self.percent_agreement(confidence_level=confidence_level)]
        schemes = [None] + (["linear", "quadratic"] if self._ratings.scores is not None else [])
        results += [self.kappa(w, confidence_level=confidence_level) for w in schemes]
        info = [("Categories:", str(len(self.categories)))]
        return results_summary(
            results, title=f"Agreement between {self.raters[0]} and {self.raters[1]}", info=info
        )

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
        from irr.inference.error_rate import agreement_error_rate_test

        return agreement_error_rate_test(
            self, epsilon0, alpha, reference, tolerance, alternative, confidence_level
        )

    def mcnemar(
        self, *, exact: bool = True, correction: bool = True, confidence_level: float = 0.95
    ) -> PairedTestResult:
        """McNemar's test on the 2 x 2 table of two raters (see :func:`irr.mcnemar`).

        Examples
        --------
        >>> import irr
        >>> ag = irr.Agreement.from_table([[794, 86], [150, 570]])
        >>> ag.mcnemar().statistic
        86.0
        """
        from irr.inference.paired import _from_agreement, _mcnemar

        level = check_confidence_level(confidence_level)
        return _mcnemar(_from_agreement(self), bool(exact), bool(correction), level)

    def symmetry_test(self, *, reduce_df: bool = True) -> PairedTestResult:
        """Bowker's test of symmetry of the two raters' table (see :func:`irr.bowker_test`).

        Examples
        --------
        >>> import irr
        >>> ag = irr.Agreement.from_frame(irr.datasets.load("vision"))
        >>> res = ag.symmetry_test()
        >>> round(res.statistic, 2), res.df
        (19.11, 6.0)
        """
        from irr.inference.paired import _bowker, _from_agreement

        return _bowker(_from_agreement(self), bool(reduce_df))

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
        from irr.inference.paired import _from_agreement, _stuart_maxwell

        return _stuart_maxwell(_from_agreement(self))

    def cochrans_q(self, reference: str, *, tolerance: float = 0) -> PairedTestResult:
        """Cochran's Q: do the raters other than `reference` agree with it equally often?

        Each rater's rating of each subject is a success when it matches `reference`'s
        (within `tolerance` on the category scores); subjects missing any rating are
        left out and counted. Needs at least three raters. See :func:`irr.cochrans_q`.

        Examples
        --------
        >>> import irr
        >>> ag = irr.Agreement.from_frame(irr.datasets.load("video"))
        >>> res = ag.cochrans_q(reference="rater1")
        >>> res.df, [round(p, 2) for p in res.proportions]
        (2.0, [0.7, 0.4, 0.85])
        """
        from irr.inference.paired import agreement_cochrans_q

        return agreement_cochrans_q(self, reference, tolerance)

    # -- workflows (irr.pandas, irr.plotting) --------------------------------------------
    #: Weighted subjects with a missing rating (frequency-weighted frames only).
    _missing_weight = 0

    def __repr__(self) -> str:
        return (
            f"Agreement(n_subjects={self.n_subjects}, n_raters={self.n_raters}, "
            f"categories={list(self.categories)!r}, n_missing={self.n_missing})"
        )


def _describe_scores(scores: np.ndarray | None) -> str:
    if scores is None:
        return "(none)"
    shown = ", ".join(f"{s:g}" for s in scores[:8])
    return f"[{shown}{', ...' if len(scores) > 8 else ''}]"
