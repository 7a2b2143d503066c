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

from irr import _multirater
from irr._data import CHUNK, Ratings, encode_ratings, validate_table
from irr._long import pivot_long, split_array, validate_counts
from irr._multirater import ChanceCorrectedResult, FleissKappaResult
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

    from irr._reliability import ICCResult, KendallResult, KrippendorffResult
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
        self._given_counts: np.ndarray | None = None
        missing = self._missing_mask
        if nan_policy == "raise" and missing is not None and missing.any():
            rows = np.flatnonzero(missing)
            raise ValueError(
                f"{missing.sum()} subject(s) have missing ratings (rows {rows[:5].tolist()}"
                f"{' ...' if len(rows) > 5 else ''}) and `nan_policy='raise'`."
            )

    # -- alternative constructors ------------------------------------------------------
    @classmethod
    def _from_ratings(cls, ratings: Ratings, nan_policy: str = "omit") -> Agreement:
        """An Agreement over already coded ratings (internal fast paths)."""
        agreement = cls.__new__(cls)
        agreement._init(ratings, list(ratings.raters), nan_policy)
        return agreement

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

        Any number of rater columns (two or more); missing ratings (NaN, None, pd.NA) are
        allowed and counted. For a 2-D ndarray use :meth:`from_array`, for long data
        :meth:`from_long`, for subject x category counts :meth:`from_counts`.

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
        """Subjects with a missing rating; None when there are none (or no rows).

        Checked in chunks first, so complete data (the common case, and 10^8 rows) cost
        no full-length temporary.
        """
        codes = self._ratings.codes
        n = len(codes[0])
        if n == 0:
            return None
        if not any(
            (c[start : start + CHUNK] < 0).any() for start in range(0, n, CHUNK) for c in codes
        ):
            return None
        mask = codes[0] < 0
        for c in codes[1:]:
            mask |= c < 0
        return mask

    @property
    def n_subjects(self) -> int:
        """Number of subjects (rows), including those with missing ratings."""
        if self._given_table is not None:
            return int(self._given_table.sum()) + self._missing_weight
        if self._given_counts is not None:
            return len(self._given_counts)
        return self._ratings.n_rows

    @property
    def n_missing(self) -> int:
        """Subjects with at least one missing rating.

        For an Agreement built from counts: subjects with fewer ratings than the most
        any subject has.
        """
        if self._given_counts is not None:
            totals = self._given_counts.sum(axis=1)
            return int((totals < totals.max()).sum())
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
        progress: bool | None = None,
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
                progress=progress,
            )

        return draw

    def _with_bootstrap(
        self,
        result: Any,
        patterns_and_statistic: Any,
        *,
        ci: str,
        n_resamples: int,
        rng: Any,
        progress: bool | None = None,
    ) -> Any:
        """Attach a subject bootstrap to a multi-rater `result`; draw it now if `ci` asks.

        `patterns_and_statistic` is a zero-argument callable returning the multiplicities
        of the distinct subject patterns and the coefficient as a function of resampled
        pattern counts, shape (b, P) -> (b,).
        """
        from irr.inference.bootstrap import bootstrap_counts

        if ci is not None:
            check_choice(ci, "ci", ASYMPTOTIC_METHODS + BOOTSTRAP_METHODS)
        n_resamples = check_integer(n_resamples, "n_resamples", 1)
        check_rng(rng)

        def draw() -> Any:
            multiplicity, statistic = patterns_and_statistic()
            return bootstrap_counts(
                multiplicity, statistic, n_resamples=n_resamples, rng=check_rng(rng),
                progress=progress,
            )

        result = dataclasses.replace(result, _bootstrap_source=draw)
        if ci in BOOTSTRAP_METHODS and np.isfinite(result.estimate):
            result = dataclasses.replace(
                result, ci=result.conf_int(result.ci.confidence_level, ci)
            )
        return result

    def _chance_corrected(
        self,
        coefficient: str,
        compute: Any,
        weights: Any,
        alternative: str,
        confidence_level: float,
        ci: str,
        n_resamples: int,
        rng: Any,
        progress: bool | None = None,
        **options: Any,
    ) -> Any:
        """A chance-corrected coefficient from `compute`, with its bootstrap attached."""
        result = compute(
            self, weights, alternative=alternative, confidence_level=confidence_level, **options
        )
        return self._with_bootstrap(
            result, self._chance_corrected_bootstrap(coefficient, weights),
            ci=ci, n_resamples=n_resamples, rng=rng, progress=progress,
        )

    def _chance_corrected_bootstrap(self, coefficient: str, weights: Any = None,
                                    tolerance: float = 0) -> Any:
        from irr._multirater import bootstrap_kernel

        def patterns_and_statistic() -> Any:
            _, multiplicity, statistic = bootstrap_kernel(self, coefficient, weights, tolerance)
            return multiplicity, statistic

        return patterns_and_statistic

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
        progress: bool | None = None,
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
        progress : bool or None, default None
            A tqdm progress bar for the bootstrap: None shows one only for runs that will
            take more than about two seconds and only on an interactive terminal; True
            always (if tqdm is installed), False never.
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
            progress=progress,
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

    def percent_agreement(
        self, *, tolerance: float = 0, confidence_level: float = 0.95
    ) -> ProportionResult | ChanceCorrectedResult:
        """Share of agreeing ratings: two raters exactly, or Gwet's multi-rater p_a.

        Parameters
        ----------
        tolerance : float, default 0
            Ratings whose category scores differ by at most `tolerance` count as agreeing
            (``|x_i - x_j| <= tolerance``); 0 is exact agreement. Needs ordered categories
            when positive.
        confidence_level : float, default 0.95

        Returns
        -------
        ProportionResult or ChanceCorrectedResult
            Two raters (rater columns or a table): the share of subjects on whom they
            agree, with a Wilson score interval. Three or more raters, or counts: Gwet's
            (2014) percent agreement, the mean over the subjects with two or more ratings
            of the share of agreeing rater pairs, with its linearised SE and a Wald
            interval clipped to [0, 1].

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
        """
        if self.n_raters != 2 or self._given_counts is not None:
            result = _multirater.percent_agreement(
                self, tolerance, confidence_level=confidence_level
            )
            return self._with_bootstrap(
                result, self._chance_corrected_bootstrap("percent_agreement", None, tolerance),
                ci="wald", n_resamples=9999, rng=None,
            )
        confidence_level = check_confidence_level(confidence_level)
        w = _multirater.tolerance_weights(self, tolerance)
        table = self._counts
        n = int(table.sum())
        if n == 0:
            raise ValueError(
                "Percent agreement needs at least one subject rated by both raters; none is "
                f"({self.n_missing} left out for missing ratings)."
            )
        agree = int((table * w).sum())
        p = agree / n
        return ProportionResult(
            coefficient="Percent agreement",
            symbol="po",
            estimate=p,
            se=math.sqrt(p * (1 - p) / n) if n else math.nan,
            ci=wilson_interval(agree, n, confidence_level),
            n_subjects=n,
            n_missing=self.n_missing,
            raters=self.raters,
            notes=("Percent agreement: Wilson score interval.",)
            + ((f"Ratings within {tolerance:g} count as agreeing.",) if tolerance else ()),
            count=agree,
            _bootstrap_source=self._resampler(
                lambda counts: counts @ w.ravel() / counts.sum(axis=1),
                n_resamples=9999,
                rng=None,
            ),
        )

    def summary(self, *, confidence_level: float = 0.95) -> Summary:
        """Every applicable coefficient in one table.

        Two raters: percent agreement and Cohen's, linear and quadratic kappa (weighted
        kappas are left out when the categories have no order). Three or more raters (or
        counts): the coefficients of :data:`MULTIRATER_SUMMARY` that the input supports.

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

        if self.n_raters != 2 or self._given_counts is not None:
            return self._multirater_summary(confidence_level)
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

    def symmetry_test(self, *, reduce_df: bool = False) -> PairedTestResult:
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


    # -- Krippendorff's alpha, ICC, Kendall's W (irr._reliability) -------------------------
    def krippendorff_alpha(
        self,
        level: Any = "nominal",
        *,
        confidence_level: float = 0.95,
        ci: str | None = "percentile",
        n_resamples: int = 9999,
        rng: Any = None,
        progress: bool | None = None,
    ) -> KrippendorffResult:
        """Krippendorff's alpha of all raters, with missing ratings handled natively.

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
        confidence_level : float, default 0.95
            Level of the interval.
        ci : {'percentile', 'basic', 'bca', 'wald'} or None, default 'percentile'
            Alpha has no analytic standard error, so every interval comes from the
            bootstrap over units (subjects): 'wald' is the normal interval around the
            bootstrap SE. None skips the bootstrap (``se`` and ``ci`` are nan until
            ``conf_int`` asks for one).
        n_resamples : int, default 9999
        rng : None, int or numpy.random.Generator
            Randomness of the bootstrap (an int seed makes the interval reproducible).
        progress : bool or None, default None
            A tqdm progress bar for the bootstrap: None shows one only for runs that will
            take more than about two seconds and only on an interactive terminal; True
            always (if tqdm is installed), False never.

        Returns
        -------
        KrippendorffResult
            ``estimate``, ``observed_disagreement`` D_o, ``expected_disagreement`` D_e,
            ``n_pairable`` (values n), ``coincidences`` and ``distances``; ``se`` is the
            standard deviation of the bootstrap replicates. ``n_subjects`` counts the
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
        With the coincidence matrix :math:`o_{ck} = \\sum_u (n_{uc} n_{uk} - [c=k] n_{uc})
        / (m_u - 1)` over units with :math:`m_u \\ge 2` values, its margins :math:`n_c`
        and :math:`n = \\sum_c n_c`,

        .. math::

            \\alpha = 1 - \\frac{D_o}{D_e} = 1 - (n - 1) \\frac{\\sum_{ck} o_{ck}
            \\delta^2_{ck}}{\\sum_{ck} n_c n_k \\delta^2_{ck}}

        with Krippendorff's (2011) metrics: nominal :math:`[c \\ne k]`; ordinal
        :math:`(\\sum_{g=c}^{k} n_g - (n_c + n_k)/2)^2`; interval :math:`(c - k)^2`;
        ratio :math:`((c - k)/(c + k))^2`. Validated against Krippendorff (2011), whose
        example (``cac_raw4raters``) gives 0.743, 0.815, 0.849 and 0.797, and against the
        ``krippendorff`` package on random data with missing values. Computed from the
        unit x category counts in O(units x categories) memory. Krippendorff's own
        bootstrap resamples pairs of values; this package resamples units.

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
        """
        from irr._reliability import alpha_patterns, alpha_result
        from irr.coefficients.krippendorff import alpha_kernel

        result = alpha_result(self._ratings, self._given_table, level, confidence_level)
        distance = "ordinal" if result.level == "ordinal" else result.distances

        def patterns_and_statistic() -> Any:
            patterns, multiplicity = alpha_patterns(self._ratings, self._given_table)
            return multiplicity, lambda batch: alpha_kernel(patterns, batch, distance)

        result = self._with_bootstrap(
            result, patterns_and_statistic, ci=ci, n_resamples=n_resamples, rng=rng,
            progress=progress,
        )
        if ci is not None and np.isfinite(result.estimate):
            se = float(result.bootstrap.se)
            result = dataclasses.replace(
                result,
                se=se,
                notes=(*result.notes, "SE: standard deviation of the bootstrap replicates."),
            )
            if ci == "wald":  # normal-theory interval around the bootstrap SE
                result = dataclasses.replace(
                    result, ci=wald_interval(result.estimate, se, confidence_level, (-1.0, 1.0))
                )
        return result

    def icc(
        self,
        model: str = "twoway",
        type: str = "agreement",
        unit: str = "single",
        *,
        confidence_level: float = 0.95,
    ) -> ICCResult:
        """Intraclass correlation (McGraw & Wong 1996) with its F test and exact interval.

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
        confidence_level : float, default 0.95

        Returns
        -------
        ICCResult
            ``estimate``, ``statistic`` (F of H0: ICC = 0), ``df1``, ``df2``, ``pvalue``
            (one-sided), ``ci`` (exact F-based, method ``'exact'``), ``df_ci``,
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
        exact F-based ones of McGraw & Wong (1996, Table 7), with the Satterthwaite-type
        df for the absolute-agreement forms. Only subjects rated by every rater are used
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
        from irr._reliability import icc_result

        return icc_result(self._ratings, self._given_table, model, type, unit,
                          confidence_level)

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
        from irr._reliability import FORMS, icc_table

        return icc_table([self.icc(*form, confidence_level=confidence_level)
                          for form in FORMS])

    def kendall_w(self, correct_ties: bool = True) -> KendallResult:
        """Kendall's coefficient of concordance W, with its chi-square test.

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
            ``pvalue`` (upper tail), ``ties`` (the tie sum T). No standard error or
            interval.

        Raises
        ------
        TypeError
            Unordered labels (they cannot be ranked).
        ValueError
            Fewer than two subjects with complete ratings.

        Notes
        -----
        .. math:: W = \\frac{12 S}{m^2 (n^3 - n) - m T}

        with S the sum of squared deviations of the subjects' rank sums from their mean
        and :math:`T = \\sum (t^3 - t)` over every rater's tie groups (0 uncorrected).
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
        from irr._reliability import kendall_result

        return kendall_result(self._ratings, self._given_table, correct_ties)


    # -- two or more raters: inputs and chance-corrected coefficients ------------------
    # (thin delegations; the work is in irr._long, irr._multirater and
    # irr.coefficients.chance_corrected)
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

        Raises
        ------
        ValueError
            If a (subject, rater) pair occurs twice (the pairs are named), a column is not
            in `df`, a subject or rater label is missing, or there are fewer than two
            raters.

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
        columns, names, _ = pivot_long(df, subject, rater, rating)
        ratings = encode_ratings(columns, names, categories)
        agreement = cls.__new__(cls)
        agreement._init(ratings, names, nan_policy)
        return agreement

    @classmethod
    def from_array(
        cls,
        x: Any,
        raters: Sequence[str] | None = None,
        *,
        categories: Sequence[Any] | None = None,
        nan_policy: str = "omit",
    ) -> Agreement:
        """Build from a 2-D array of shape (n_subjects, n_raters): one column per rater.

        Missing ratings are NaN or None. (DataFrames go to :meth:`from_frame`, which
        keeps their column names and dtypes.)

        Examples
        --------
        >>> import numpy as np, irr
        >>> x = np.array([[1, 1, 2], [2, 2, 2], [3, 3, 3], [1, 2, np.nan]])
        >>> ag = irr.Agreement.from_array(x)
        >>> ag.n_raters, ag.n_missing, ag.raters
        (3, 1, ('rater1', 'rater2', 'rater3'))
        """
        columns = split_array(x)
        m = len(columns)
        if raters is None:
            names = [f"rater{i}" for i in range(1, m + 1)]
        else:
            names = [str(r) for r in raters]
            if len(names) != m or len(set(names)) != m:
                raise ValueError(
                    f"`raters` must give {m} distinct names, one per column; got {list(raters)!r}."
                )
        ratings = encode_ratings(columns, names, categories)
        agreement = cls.__new__(cls)
        agreement._init(ratings, names, nan_policy)
        return agreement

    @classmethod
    def from_counts(cls, counts: Any, categories: Sequence[Any] | None = None) -> Agreement:
        """Build from subject x category counts (Fleiss' layout).

        Row i gives how many raters put subject i in each category; rows may have
        different totals (missing ratings). Such data do not say which rater gave which
        rating, so only the coefficients defined on counts are available:
        :meth:`fleiss_kappa`, :meth:`scott_pi`, :meth:`gwet_ac`, :meth:`brennan_prediger`
        and :meth:`percent_agreement`; the others raise a ValueError saying so.

        Parameters
        ----------
        counts : array-like or DataFrame of shape (n_subjects, k)
            Non-negative integral counts. A DataFrame's columns give the categories.
        categories : sequence of length k, optional
            The category labels in scale order; default the DataFrame's columns, else
            0..k-1.

        Examples
        --------
        >>> import irr
        >>> ag = irr.Agreement.from_counts([[0, 0, 6], [0, 3, 3], [1, 4, 1], [2, 2, 2]])
        >>> ag.n_subjects, ag.n_raters
        (4, 6)
        >>> round(ag.fleiss_kappa().estimate, 4)
        0.1579
        """
        array, labels = validate_counts(counts, categories)
        ratings = encode_ratings([labels], ["categories"], labels)
        m = int(array.sum(axis=1).max())
        placeholder = np.zeros(0, dtype=np.int32)
        agreement = cls.__new__(cls)
        agreement._init(
            Ratings((placeholder,) * m, ratings.categories, ratings.scores, True, ()), [],
            "omit",
        )
        agreement._given_counts = array
        return agreement

    def fleiss_kappa(
        self,
        weights: Any = None,
        *,
        alternative: str = "two-sided",
        confidence_level: float = 0.95,
        ci: str = "wald",
        n_resamples: int = 9999,
        rng: Any = None,
        progress: bool | None = None,
    ) -> FleissKappaResult:
        r"""Fleiss' (1971) kappa, with per-category kappas.

        Parameters
        ----------
        weights : None, str or array-like of shape (k, k), default None
            None for Fleiss' kappa; a scheme of :func:`~irr.coefficients.weight_schemes.
            gwet_weights` (``'linear'``, ``'quadratic'``, ``'ordinal'``, ``'radical'``,
            ``'ratio'``, ``'circular'``, ``'bipolar'``) or a matrix for Gwet's (2014)
            weighted generalisation.
        alternative : {'two-sided', 'greater', 'less'}
        confidence_level : float, default 0.95
        ci : {'wald', 'percentile', 'basic', 'bca'}, default 'wald'
            The interval in ``ci``. Bootstrap intervals resample subjects (as counts over
            the distinct rating patterns) and are drawn once, then reused by ``conf_int``.
        n_resamples : int, default 9999
            Bootstrap resamples.
        rng : None, int or numpy.random.Generator
            Randomness of the bootstrap; the same int seed gives the same resampled
            subjects for every coefficient of this Agreement (paired replicates).
        progress : bool or None, default None
            A tqdm progress bar for the bootstrap: None shows one only for runs that will
            take more than about two seconds and only on an interactive terminal; True
            always (if tqdm is installed), False never.

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
        it is Scott's (1955) pi. The interval never uses the null SE (that gives
        intervals about half as wide as they should be). Validated against Fleiss (1971)
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
        return self._chance_corrected(
            "fleiss_kappa", _multirater.fleiss_kappa, weights, alternative, confidence_level, ci,
            n_resamples, rng, progress=progress
        )

    def scott_pi(
        self,
        weights: Any = None,
        *,
        alternative: str = "two-sided",
        confidence_level: float = 0.95,
        ci: str = "wald",
        n_resamples: int = 9999,
        rng: Any = None,
        progress: bool | None = None,
    ) -> FleissKappaResult:
        """Scott's (1955) pi and its multi-rater form, which is Fleiss' kappa.

        Fleiss (1971) generalised Scott's pi (pooled margins) to many raters; Gwet (2014)
        calls the result Fleiss' generalised kappa. So this is :meth:`fleiss_kappa`
        under Scott's name: for two raters without missing ratings it is exactly
        Scott's pi, for more raters Fleiss' kappa. Parameters and result as for
        :meth:`fleiss_kappa`.

        Examples
        --------
        >>> import irr
        >>> ag = irr.Agreement([1, 2, 3, 3, 2, 1], [1, 2, 3, 2, 2, 1])
        >>> round(ag.scott_pi().estimate, 4)
        0.7447
        """
        return self._chance_corrected(
            "scott_pi", _multirater.fleiss_kappa, weights, alternative, confidence_level, ci,
            n_resamples, rng, progress=progress, name="Scott's pi", symbol="π",
        )

    def conger_kappa(
        self,
        weights: Any = None,
        *,
        alternative: str = "two-sided",
        confidence_level: float = 0.95,
        ci: str = "wald",
        n_resamples: int = 9999,
        rng: Any = None,
        progress: bool | None = None,
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
        return self._chance_corrected(
            "conger_kappa", _multirater.conger_kappa, weights, alternative, confidence_level, ci,
            n_resamples, rng, progress=progress
        )

    def light_kappa(
        self,
        weights: Any = None,
        *,
        alternative: str = "two-sided",
        confidence_level: float = 0.95,
        ci: str = "wald",
        n_resamples: int = 9999,
        rng: Any = None,
        progress: bool | None = None,
    ) -> ChanceCorrectedResult:
        r"""Light's (1971) kappa: the mean of the pairwise Cohen's kappas.

        Each pair of raters uses the subjects both rated. SE: the linearised
        (delta-method) variance of the mean, from each pairwise kappa's per-subject
        influence (scaled by n / n_gh for pairs with missing ratings), divided by
        n(n - 1). This is an approximation documented here, not a published formula;
        for two raters without missing ratings it equals the Fleiss-Cohen-Everitt
        variance times n / (n - 1). For small samples ask for a bootstrap interval.

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
        return self._chance_corrected(
            "light_kappa", _multirater.light_kappa, weights, alternative, confidence_level, ci,
            n_resamples, rng, progress=progress
        )

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
        return _multirater.pairwise(self, statistic, weights)

    def gwet_ac(
        self,
        weights: Any = None,
        *,
        alternative: str = "two-sided",
        confidence_level: float = 0.95,
        ci: str = "wald",
        n_resamples: int = 9999,
        rng: Any = None,
        progress: bool | None = None,
    ) -> ChanceCorrectedResult:
        r"""Gwet's AC1 (unweighted) or AC2 (weighted) agreement coefficient.

        Parameters
        ----------
        weights : None, str or array-like of shape (k, k), default None
            None gives AC1. AC2 takes ``'linear'``, ``'quadratic'``, ``'ordinal'``,
            ``'radical'``, ``'ratio'``, ``'circular'``, ``'bipolar'`` (Gwet 2014, ch. 3;
            see :mod:`irr.coefficients.weight_schemes`) or an agreement-weight matrix.
        alternative, confidence_level
            As for :meth:`fleiss_kappa`.

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
        return self._chance_corrected(
            "gwet_ac",
            lambda ag, w, **kw: _multirater.counts_coefficient(ag, "gwet", w, **kw),
            weights, alternative, confidence_level, ci, n_resamples, rng, progress=progress,
        )

    def brennan_prediger(
        self,
        weights: Any = None,
        *,
        alternative: str = "two-sided",
        confidence_level: float = 0.95,
        ci: str = "wald",
        n_resamples: int = 9999,
        rng: Any = None,
        progress: bool | None = None,
    ) -> ChanceCorrectedResult:
        r"""Brennan & Prediger's (1981) coefficient (Randolph's free-marginal kappa).

        Chance agreement is fixed by the number q of declared categories,
        :math:`p_e = T_w / q^2` (1/q unweighted); p_a as for :meth:`fleiss_kappa`. SE:
        Gwet's (2014) linearised variance, divisor n - 1. Unweighted it equals
        statsmodels' ``fleiss_kappa(method='randolph')`` on complete data. Validated
        against irrCAC 1.0 (``cac_raw4raters``: 0.77273, SE 0.14472).

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
        return self._chance_corrected(
            "brennan_prediger",
            lambda ag, w, **kw: _multirater.counts_coefficient(ag, "brennan_prediger", w, **kw),
            weights, alternative, confidence_level, ci, n_resamples, rng, progress=progress,
        )

    def _multirater_summary(self, confidence_level: float) -> Summary:
        from irr.summary import results_summary

        confidence_level = check_confidence_level(confidence_level)
        results = _multirater.summary_results(self, confidence_level)
        info = [("Categories:", str(len(self.categories))),
                ("Rater count:" if self.raters else "Raters (most):", str(self.n_raters))]
        title = (f"Agreement among {self.n_raters} raters" if self.raters
                 else "Agreement from subject x category counts")
        return results_summary(results, title=title, info=info)


def _describe_scores(scores: np.ndarray | None) -> str:
    if scores is None:
        return "(none)"
    shown = ", ".join(f"{s:g}" for s in scores[:8])
    return f"[{shown}{', ...' if len(scores) > 8 else ''}]"
