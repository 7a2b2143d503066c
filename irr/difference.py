"""Is the agreement different? :func:`difference` of two coefficients (the same subjects,
or separate groups) and :func:`pool` of independent groups with the test that they are
equal."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace
from typing import Any

import numpy as np
import pandas as pd

from irr._data import preview
from irr._sentences import statistic_name
from irr._validation import check_bool
from irr.agreement import Agreement
from irr.estimators.difference import (
    LINEARISED,
    DifferenceResult,
    PooledResult,
    Side,
    independent_difference,
    paired_difference,
    pooled,
)
from irr.inference.keywords import inference_keywords
from irr.inference.options import InferenceOptions
from irr.results import Result

__all__ = ["difference", "pool"]


def _per_side(value: Any, name: str) -> tuple[Any, Any]:
    """`value` for both sides, or a tuple of one value per side."""
    if isinstance(value, tuple):
        if len(value) != 2:
            raise ValueError(f"`{name}` as a tuple must give one value per side (2); "
                             f"got {len(value)}: {value!r}.")
        return value
    return value, value


def _per_side_raters(raters: Any) -> tuple[Any, Any]:
    """`raters` for both sides (a list of names), or one list per side (a tuple of two
    lists)."""
    if raters is None:
        return None, None
    if isinstance(raters, tuple) and len(raters) == 2 and all(
            isinstance(r, (list, tuple, pd.Index)) for r in raters):
        return raters
    if isinstance(raters, str):
        raise TypeError(f"`raters` must be a sequence of rater names; got the string "
                        f"{raters!r}.")
    return list(raters), list(raters)


#: The statistics of a paired comparison that use the ratings' values (scores), so that
#: continuous measurements take part with each distinct value a category scored by it.
_SCORED = ("icc", "krippendorff_alpha")


def _scored(ag: Agreement, statistic: str, which: str) -> Agreement:
    """A continuous Agreement as one of codes (each distinct value a category scored by its
    value), which the linearisation of the ICC and of alpha reads; other statistics take
    categories and are refused."""
    if statistic not in _SCORED:
        raise ValueError(
            f"{statistic} takes each rating as a category, but the {which} side holds "
            "continuous measurements: compare their ICCs (`statistic='icc'`) or interval "
            "alpha (`statistic='krippendorff_alpha'`, `options={'level': 'interval'}`), or "
            "build the Agreement with continuous=False to code each distinct value as a "
            "category.")
    measured = ag.measurements
    if measured.has_replicates:
        raise ValueError(
            f"The {which} side holds replicated measurements; a paired comparison takes one "
            "measurement per subject and rater (average the replicates first).")
    wide = pd.DataFrame(measured.wide(), index=measured.subjects, columns=list(measured.raters))
    return Agreement.from_frame(wide, raters=list(measured.raters), continuous=False)


def _sub_agreement(ag: Agreement, raters: Any, which: str) -> Agreement:
    """The Agreement of `raters` (all when None): of categories, or of continuous
    measurements (one per subject and rater)."""
    if raters is None:
        return ag
    raters = list(raters)
    unknown = [r for r in raters if r not in ag.raters]
    if unknown:
        raise ValueError(f"`raters` of the {which} side names raters {unknown!r} that are "
                         f"not among its raters {list(ag.raters)!r}.")
    if len(raters) < 2:
        raise ValueError(f"`raters` of the {which} side must name at least two raters; "
                         f"got {raters!r}.")
    if raters == list(ag.raters):
        return ag
    if ag.continuous:
        measured = ag.measurements
        if measured.has_replicates:
            raise ValueError(
                f"The {which} side holds replicated measurements; choosing its `raters` "
                "takes one measurement per subject and rater (average the replicates "
                "first, or build the Agreement of those raters).")
        wide = pd.DataFrame(measured.wide(), index=measured.subjects,
                            columns=list(measured.raters))
        return Agreement.from_frame(wide[raters], raters=raters, continuous=True)
    codes = ag.codes()
    categories = ag.categories
    labels = pd.DataFrame({r: pd.Series(categories.take(np.maximum(codes[r].to_numpy(), 0)),
                                        index=codes.index).where(codes[r].to_numpy() >= 0)
                           for r in raters}, index=codes.index)
    weights = codes.attrs.get("freq_weights")
    return Agreement.from_frame(labels, raters=raters, categories=list(categories),
                                freq_weights=weights)


#: Options of each statistic's Agreement method that a comparison takes (the inference
#: options are the comparison's own).
_FORM_OPTIONS = {"krippendorff_alpha": ("level",), "icc": ("model", "type", "unit"),
                 "percent_agreement": ()}


def _method_options(statistic: str, weights: Any, options: dict[str, Any] | None,
                    which: str, independent: bool) -> dict[str, Any]:
    """The keywords of one side's Agreement method of `statistic`: its form options and
    weights, checked."""
    if statistic not in LINEARISED:
        design = ("two Agreements of separate groups" if independent
                  else "coefficients on the same subjects")
        other = ("Another coefficient of separate groups: compute it on each group and pass "
                 "the two results" if independent
                 else "Independent groups: pass them (two Agreements or two results)")
        raise ValueError(
            f"`statistic` must be one of {sorted(LINEARISED)} for {design}; got "
            f"{statistic!r}. ({other} with `independent=True`.)"
        )
    allowed = _FORM_OPTIONS.get(statistic)
    options = dict(options or {})
    unknown = sorted(set(options) - set(allowed or ()))
    if unknown:
        raise ValueError(
            f"`options` of the {which} side must be among {list(allowed or ())!r} for "
            f"{statistic}; got {unknown!r}."
        )
    if allowed is None:
        options["weights"] = weights
    elif weights is not None:
        raise ValueError(f"`weights` do not apply to {statistic}; got {weights!r}"
                         + (" (give `options={'level': ...}`)." if statistic ==
                            "krippendorff_alpha" else "."))
    if statistic == "krippendorff_alpha":
        # its own bootstrap is not needed: a comparison reads the estimate and the
        # linearised SE (or the paired values)
        options["ci"] = None
    return options


def _check_two(ag: Agreement, statistic: str, which: str) -> None:
    if statistic == "kappa" and ag.n_raters != 2:
        raise ValueError(
            f"Cohen's kappa compares two raters; the {which} side has {ag.n_raters} "
            f"({list(ag.raters)!r}): name two with `raters`."
        )


def _side(ag: Agreement, statistic: str, weights: Any, options: dict[str, Any] | None,
          raters: Any, which: str) -> tuple[Side, pd.DataFrame]:
    options = _method_options(statistic, weights, options, which, independent=False)
    if ag.continuous:
        ag = _scored(ag, statistic, which)
    sub = _sub_agreement(ag, raters, which)
    _check_two(sub, statistic, which)
    codes = sub.codes()
    result = getattr(sub, statistic)(**options)
    matrix = getattr(result, "weight_matrix", None)
    if matrix is None:
        matrix = np.eye(len(sub.categories))
    form: tuple = ()
    if statistic == "krippendorff_alpha":
        form = (result.level,)
        if form[0] not in ("nominal", "ordinal", "interval", "ratio"):
            raise ValueError("A paired comparison of Krippendorff's alpha takes the levels "
                             "'nominal', 'ordinal', 'interval' and 'ratio'; got a custom "
                             "metric.")
    elif statistic == "icc":
        form = (result.model, result.type, result.unit)
    side = Side(codes.to_numpy(dtype=np.int64), np.asarray(matrix, dtype=float), statistic,
                statistic_name(result), scores=sub.statistics.scores, form=form,
                bounds=result.bounds)
    return side, codes


def _group_result(ag: Agreement, statistic: str, weights: Any,
                  options: dict[str, Any] | None, raters: Any, which: str,
                  inference: InferenceOptions) -> Result:
    """The coefficient of one independent group, as its Agreement method gives it."""
    options = _method_options(statistic, weights, options, which, independent=True)
    sub = _sub_agreement(ag, raters, which)
    _check_two(sub, statistic, which)
    return getattr(sub, statistic)(confidence_level=inference.confidence_level, **options)


@inference_keywords("tested_bootstrap",
                    alternative="Here: of the z test of no difference ('greater': first > "
                                "second).",
                    ci="The bootstrap methods apply to the same subjects only.")
def difference(
    first: Agreement | Result,
    second: Agreement | Result | None = None,
    *,
    statistic: str | tuple[str, str] = "kappa",
    weights: Any = None,
    options: dict[str, Any] | tuple[dict[str, Any], dict[str, Any]] | None = None,
    raters: Any = None,
    labels: Sequence[str] | None = None,
    independent: bool = False,
    alternative: str = "two-sided",
    confidence_level: float = 0.95,
    ci: str = "wald",
    n_resamples: int = 9999,
    rng: Any = 0,
    progress: bool | None = None,
) -> DifferenceResult:
    r"""The difference of two agreement coefficients, ``first - second``, with its
    standard error, z test and confidence interval.

    Two designs:

    * **The same subjects** (correlated coefficients): `first` and `second` are
      :class:`irr.Agreement` objects rating the same subjects (before and after training,
      two rating scales, two reader pairs), or one Agreement and two coefficients or two
      rater sets of it. Subjects are matched by their labels (the frames' indexes, the
      subjects of long data). The SE is Gwet's (2016) linearisation; the bootstrap
      (``ci='percentile'``, ``'basic'``, ``'bca'``) resamples the subjects once for both
      coefficients, so the replicates are paired.
    * **Independent groups** (two sites, two studies), with ``independent=True``:
      `first` and `second` are two results of one coefficient, or two Agreements of
      separate subjects, on each of which `statistic` is computed (with its side's
      `weights`, `options` and `raters`) and the two results compared;
      ``z = (k1 - k2) / sqrt(se1^2 + se2^2)`` with each coefficient's own SE (for two
      ICCs, Fisher's z test and the MOVER interval from each ICC's F interval).

    Parameters
    ----------
    first : Agreement or Result
    second : Agreement or Result, optional
        Default `first` (two coefficients, or two rater sets, of one Agreement).
    statistic : str or (str, str), default 'kappa'
        The coefficient computed on Agreements: ``'kappa'``, ``'fleiss_kappa'``,
        ``'scott_pi'``, ``'gwet_ac'``, ``'brennan_prediger'``, ``'percent_agreement'``,
        ``'conger_kappa'``, ``'light_kappa'``, ``'krippendorff_alpha'``, ``'icc'``;
        a tuple gives one per side, e.g. ``("fleiss_kappa", "gwet_ac")`` (same subjects
        only: independent groups are compared on one coefficient).
    weights : None, str, ndarray or tuple, default None
        Agreement weights as the coefficient takes them (``'linear'``,
        ``'quadratic'``, ...); a tuple gives one per side (pass a weight matrix as an
        ndarray, not a tuple).
    options : dict or (dict, dict), optional
        The form of Krippendorff's alpha (``{"level": "ordinal"}``) or of the ICC
        (``{"model": "twoway", "type": "agreement", "unit": "single"}``); a tuple gives
        one per side.
    raters : sequence of names, or (sequence, sequence), optional
        The raters each coefficient uses (default all of its Agreement); a tuple of two
        lists gives one per side, e.g. ``(["A", "B"], ["C", "D"])`` for two reader pairs.
    labels : (str, str), optional
        What the two sides are, for tables and sentences, e.g. ``("after", "before")``.
    independent : bool, default False
        True: `first` and `second` are separate groups of subjects (their subjects are
        not matched, and may differ in number and labels). Required when they are
        results: results do not carry their subjects, so the caller says the groups are
        independent. With two Agreements, each group's coefficient is computed as its
        Agreement method gives it (Krippendorff's alpha without its bootstrap: the
        comparison uses its linearised SE) and the two are compared as two results are;
        one Agreement (`second` omitted, or `first` itself) is refused, as its subjects
        are not two independent groups. Only ``ci='wald'`` applies.

    Returns
    -------
    DifferenceResult
        ``estimate`` (first - second), ``se``, ``statistic`` (z), ``pvalue``, ``ci``,
        ``estimate_first``, ``estimate_second``; ``conf_int(method='bca')`` draws the
        paired bootstrap; ``report()`` writes the sentence.

    Raises
    ------
    ValueError
        For Agreements whose subjects cannot be matched (different labels, different
        numbers of unlabelled subjects, frequency-weighted rows), fewer than two shared
        subjects, an unsupported statistic, or results without ``independent=True``;
        with ``independent=True``, one Agreement given twice, two statistics, a
        bootstrap `ci`, or sides whose coefficients differ (other weights or form).

    Notes
    -----
    With missing ratings the comparison uses the subjects both coefficients use (both
    ratings for kappa; at least one rating for the coefficients on counts), so its two
    estimates can differ slightly from the coefficients of all subjects; the notes say
    how many were left out. The linearised variance of the difference is

    .. math:: \widehat{V}(\hat\kappa_1 - \hat\kappa_2) = \frac{1}{n(n-1)}
        \sum_i (d_i - \bar d)^2, \qquad d_i = \kappa^\star_{1i} - \kappa^\star_{2i},

    with :math:`\kappa^\star_{i}` each subject's linearised value (Gwet 2016; for Cohen's
    kappa the Fleiss-Cohen-Everitt influence values, so that a coefficient compared with a
    constant gets its own SE times :math:`\sqrt{n/(n-1)}`). For Conger's and Light's kappa,
    Krippendorff's alpha and the ICC the linearised values are the coefficient plus its
    empirical influence function, computed from the coefficient's own batch formula by
    central differences; for Conger's kappa and alpha they reproduce Gwet's pairedCAC.

    References
    ----------
    Gwet, K. L. (2016). Testing the difference of correlated agreement coefficients for
    statistical significance. Educational and Psychological Measurement, 76(4), 609-637.
    https://doi.org/10.1177/0013164415596420

    Examples
    --------
    >>> import pandas as pd, irr
    >>> before = pd.DataFrame({"a": [1, 2, 2, 3, 1, 2, 3, 3, 1, 2],
    ...                        "b": [1, 2, 3, 3, 2, 2, 3, 2, 1, 1]})
    >>> after = pd.DataFrame({"a": [1, 2, 2, 3, 1, 2, 3, 3, 1, 2],
    ...                       "b": [1, 2, 2, 3, 1, 2, 3, 3, 1, 1]})
    >>> res = irr.difference(irr.Agreement.from_frame(after),
    ...                      irr.Agreement.from_frame(before), labels=("after", "before"))
    >>> round(res.estimate_first, 3), round(res.estimate_second, 3), round(res.estimate, 3)
    (0.851, 0.394, 0.457)
    >>> res.report()  # doctest: +NORMALIZE_WHITESPACE
    "Cohen's κ was higher for after than for before (.85 vs .39), difference .46, 95% CI
    [−.01, .92] (Wald), z = 1.94, p = .053, n = 10 paired subjects."
    >>> lo, hi = res.conf_int(method="bca")   # the paired bootstrap, 9,999 resamples
    >>> round(lo, 2), round(hi, 2)
    (0.13, 1.0)

    Two clinics rating their own patients (independent groups of different sizes):

    >>> north = pd.DataFrame({"r1": [1, 2, 3, 3, 1, 2, 2, 3, 1, 3, 2, 1],
    ...                       "r2": [1, 2, 3, 2, 1, 2, 2, 3, 1, 3, 2, 1],
    ...                       "r3": [1, 2, 3, 3, 1, 1, 2, 3, 2, 3, 2, 1]})
    >>> south = pd.DataFrame({"r1": [1, 2, 3, 1, 2, 3, 1, 2],
    ...                       "r2": [2, 2, 3, 1, 3, 3, 2, 2],
    ...                       "r3": [1, 3, 2, 1, 2, 3, 1, 1]})
    >>> res = irr.difference(irr.Agreement.from_frame(north),
    ...                      irr.Agreement.from_frame(south), statistic="fleiss_kappa",
    ...                      independent=True, labels=("north", "south"))
    >>> res.report()  # doctest: +NORMALIZE_WHITESPACE
    "Fleiss' κ was higher for north than for south (.75 vs .25), difference .50, 95% CI
    [.07, .94] (Wald), z = 2.28, p = .022, n = 12 and 8."
    """
    independent = check_bool(independent, "independent")
    inference = InferenceOptions.from_keywords(
        alternative=alternative, confidence_level=confidence_level, ci=ci,
        n_resamples=n_resamples, rng=rng, progress=progress)
    second = first if second is None else second
    if labels is not None:
        labels = tuple(str(x) for x in labels)
        if len(labels) != 2:
            raise ValueError(f"`labels` must give two labels; got {len(labels)}.")
    if independent and inference.ci != "wald":
        raise ValueError(f"`ci` must be 'wald' for independent groups (no paired "
                         f"resamples); got {inference.ci!r}.")
    if isinstance(first, Result) or isinstance(second, Result):
        return _independent(first, second, inference, labels, independent)
    for which, value in (("first", first), ("second", second)):
        if not isinstance(value, Agreement):
            raise TypeError(f"`{which}` must be an irr.Agreement or an irr result; got "
                            f"{type(value).__name__}.")
    statistics = _per_side(statistic, "statistic")
    weight_specs = _per_side(weights, "weights")
    form_options = _per_side(options, "options")
    rater_sets = _per_side_raters(raters)
    if independent:
        if first is second:
            raise ValueError(
                "`first` and `second` are the same Agreement, so their subjects are not "
                "independent groups. For two coefficients or two rater sets of its subjects "
                "leave `independent=False` (the paired comparison); for separate groups "
                "pass the Agreement of each group.")
        if statistics[0] != statistics[1]:
            raise ValueError(
                f"Independent groups are compared on one coefficient; `statistic` gives "
                f"two, {statistics!r}. (Two coefficients of the same subjects: leave "
                "`independent=False`.)")
        results = [_group_result(ag, stat, w, o, r, which, inference)
                   for which, ag, stat, w, o, r in zip(
                       ("first", "second"), (first, second), statistics, weight_specs,
                       form_options, rater_sets, strict=True)]
        return _independent(results[0], results[1], inference, labels, independent,
                            computed=True)
    sides = []
    frames = []
    for which, ag, stat, w, o, r in zip(("first", "second"), (first, second), statistics,
                                        weight_specs, form_options, rater_sets, strict=True):
        side, codes = _side(ag, stat, w, o, r, which)
        sides.append(side)
        frames.append(codes)
    freq = _match(first, second, frames)
    sides[1] = replace(sides[1], codes=frames[1].to_numpy(dtype=np.int64))
    if labels is None:
        labels = _default_labels(first, second, sides, rater_sets, frames)
    return paired_difference(sides[0], sides[1], inference, labels=labels, freq_weights=freq)


def _match(first: Agreement, second: Agreement, frames: list[pd.DataFrame]
           ) -> np.ndarray | None:
    """Put the second side's rows (``frames[1]``) in the first's subject order, or raise
    when the subjects cannot be matched; the frequency weights (same Agreement only)."""
    freq = [f.attrs.get("freq_weights") for f in frames]
    if first is second:
        return freq[0]
    if freq[0] is not None or freq[1] is not None:
        raise ValueError(
            "`first` and `second` are different Agreements and one holds frequency-weighted "
            "rows (a table or aggregated data), which have no subject labels, so their "
            "subjects cannot be paired; give one row per subject with its label."
        )
    a, b = frames
    if len(a) != len(b) and isinstance(a.index, pd.RangeIndex) and isinstance(
            b.index, pd.RangeIndex):
        raise ValueError(
            f"`first` has {len(a)} subjects and `second` {len(b)}, without subject labels "
            "to match them: paired coefficients need the same subjects (give both frames "
            "an index of subject ids, or pass `independent=True` if they are separate "
            "groups)."
        )
    if a.index.equals(b.index) or (isinstance(a.index, pd.RangeIndex)
                                   and isinstance(b.index, pd.RangeIndex)):
        return None
    for which, index in (("first", a.index), ("second", b.index)):
        if index.has_duplicates:
            raise ValueError(f"The subjects of `{which}` repeat labels "
                             f"{preview(index[index.duplicated()].unique())}, so they cannot "
                             "be paired with the other side's.")
    extra, lacking = b.index.difference(a.index, sort=False), a.index.difference(b.index,
                                                                                 sort=False)
    if len(extra) or len(lacking):
        found = [f"{preview(x)} only in `{which}`" for x, which in
                 ((lacking, "first"), (extra, "second")) if len(x)]
        unlabelled = [which for which, index in (("first", a.index), ("second", b.index))
                      if isinstance(index, pd.RangeIndex)]
        hint = (f" `{unlabelled[0]}` has no subject labels (positions 0 .. n - 1): build "
                "both Agreements with the same `id=` column (or index)." if len(unlabelled) == 1
                else "")
        raise ValueError(
            f"`first` and `second` must rate the same subjects, matched by their labels; "
            f"{'; '.join(found)}.{hint} Keep the shared subjects in both (e.g. build each "
            "Agreement from `df.loc[shared]`), or, for separate groups, pass "
            "`independent=True`."
        )
    frames[1] = b.iloc[b.index.get_indexer(a.index)]
    return None


def _default_labels(first: Agreement, second: Agreement, sides: list[Side],
                    rater_sets: tuple[Any, Any], frames: list[pd.DataFrame]
                    ) -> tuple[str, str]:
    if first is not second:
        return "first", "second"
    if rater_sets[0] is not None and list(rater_sets[0]) != list(rater_sets[1]):
        return tuple("-".join(map(str, r)) for r in rater_sets)  # type: ignore[return-value]
    return sides[0].name, sides[1].name


def _independent(first: Any, second: Any, options: InferenceOptions,
                 labels: tuple[str, str] | None, independent: bool, *,
                 computed: bool = False) -> DifferenceResult:
    """Two results of independent groups compared; `computed`: the results are the
    coefficients `difference` computed on two Agreements."""
    for which, value in (("first", first), ("second", second)):
        if not isinstance(value, Result):
            raise TypeError(f"`{which}` must be a result like the other side; got "
                            f"{type(value).__name__}.")
    if not independent:
        raise ValueError(
            "Two results do not carry their subjects, so `difference` cannot tell whether "
            "they come from the same subjects. For separate groups (sites, studies) pass "
            "`independent=True`; for the same subjects pass the two Agreements (and "
            "`statistic=`), so that the subjects are paired."
        )
    if first is second:
        raise ValueError("`first` and `second` are the same result; independent groups "
                         "need two.")
    names = (statistic_name(first), statistic_name(second))
    if names[0] != names[1]:
        hint = ("give both sides the same `weights` and `options`" if computed
                else "two coefficients of the same subjects: pass the Agreements with "
                "`statistic=(a, b)`")
        raise ValueError(f"`first` and `second` must be results of one coefficient to "
                         f"compare independent groups (as irr.pool); got {names[0]!r} and "
                         f"{names[1]!r}. ({hint[0].upper() + hint[1:]}.)")
    # as irr.pool names unlabelled groups (not "lower for first than for second")
    return independent_difference(first, second, options,
                                  labels=labels or ("group 1", "group 2"), names=names)


def pool(
    results: Sequence[Result] | pd.Series,
    labels: Sequence[Any] | None = None,
    *,
    alternative: str = "two-sided",
    confidence_level: float = 0.95,
) -> PooledResult:
    r"""The pooled (inverse-variance weighted) coefficient of independent groups, and the
    chi-square test that the groups' coefficients are equal.

    The overall kappa and the "test for equal kappa coefficients" of SAS PROC FREQ
    (``AGREE`` on stratified tables; Fleiss 1981, sec. 13.2):

    .. math:: \hat\kappa = \frac{\sum_h \hat\kappa_h / v_h}{\sum_h 1 / v_h}, \qquad
        \mathrm{SE} = \Big(\sum_h 1/v_h\Big)^{-1/2}, \qquad
        Q = \sum_h \frac{(\hat\kappa_h - \hat\kappa)^2}{v_h} \sim \chi^2_{H-1},

    with :math:`v_h` the squared SE of group h (under the alternative).

    Parameters
    ----------
    results : sequence of Result, or Series of results
        One result per group, of the same coefficient (a Series' index gives the labels).
    labels : sequence, optional
        The groups' names; default ``group 1``, ``group 2``, ...
    alternative, confidence_level
        Of the z test and interval of the pooled coefficient.

    Returns
    -------
    PooledResult
        ``estimate``, ``se``, ``ci``, ``statistic`` (z of the pooled value against 0),
        ``homogeneity_statistic``, ``homogeneity_df``, ``homogeneity_pvalue``, ``groups``.

    Raises
    ------
    ValueError
        Fewer than two groups with an estimate and a positive SE; results of different
        coefficients; labels of the wrong length.

    References
    ----------
    Fleiss, J. L. (1981). Statistical Methods for Rates and Proportions (2nd ed.), Wiley.

    Examples
    --------
    >>> import irr
    >>> fav = irr.Agreement.from_table([[6, 16], [2, 4]]).kappa()    # drug A favourable
    >>> unf = irr.Agreement.from_table([[2, 4], [6, 6]]).kappa()     # drug A unfavourable
    >>> res = irr.pool([fav, unf], labels=["favourable", "unfavourable"])
    >>> round(res.estimate, 4), round(res.se, 4), round(res.homogeneity_statistic, 4)
    (-0.0588, 0.1034, 0.2314)
    """
    if isinstance(results, pd.Series):
        labels = list(results.index) if labels is None else labels
        results = list(results)
    results = list(results)
    bad = [type(r).__name__ for r in results if not isinstance(r, Result)]
    if bad:
        raise TypeError(f"`results` must be irr results; got {bad!r}.")
    names = {statistic_name(r) for r in results}
    if len(names) > 1:
        raise ValueError(f"`results` must be of one coefficient to pool; got "
                         f"{preview(sorted(names))}.")
    labels = [f"group {i}" for i in range(1, len(results) + 1)] if labels is None \
        else list(labels)
    if len(labels) != len(results):
        raise ValueError(f"`labels` must give one label per result ({len(results)}); got "
                         f"{len(labels)}.")
    options = InferenceOptions.from_keywords(alternative=alternative,
                                             confidence_level=confidence_level)
    return pooled(results, labels, names.pop() if names else "", options)
