"""Issue 14, the input layer: orientation, labels and indexes are honoured, never positions
silently; exact labels; frequency weights equal the expanded data; rater names stay distinct.
"""

import re
import warnings

import krippendorff
import numpy as np
import pandas as pd
import pytest

import irr
from tests.support.exact_formulas import exact_kappa


def quiet(call):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        return call()



# -- A1: krippendorff_alpha(df) reads subjects in rows ---------------------------------------
def test_the_krippendorff_packages_keyword_means_its_raters_by_units_layout():
    # krippendorff.alpha(reliability_data=X): X has one row per rater (coder)
    rng = np.random.default_rng(8)
    truth = rng.integers(0, 4, 30)
    units = np.column_stack([np.where(rng.random(30) < 0.8, truth, rng.integers(0, 4, 30))
                             for _ in range(3)]).astype(float)
    units[rng.random(units.shape) < 0.1] = np.nan
    x = units.T  # 3 raters x 30 units
    theirs = krippendorff.alpha(reliability_data=x, level_of_measurement="nominal")
    ours = irr.krippendorff_alpha(reliability_data=x, ci=None)
    assert ours.estimate == pytest.approx(theirs, abs=1e-12)
    assert ours.n_subjects == int(((~np.isnan(units)).sum(axis=1) >= 2).sum())  # pairable
    assert len(ours.raters) == 3
    # positional data keep irr's layout (units in rows); an explicit layout wins
    assert irr.krippendorff_alpha(units, ci=None).estimate == pytest.approx(theirs, abs=1e-12)
    assert irr.krippendorff_alpha(reliability_data=units, layout="units-raters",
                                  ci=None).estimate == pytest.approx(theirs, abs=1e-12)
    with pytest.raises(TypeError, match="not both"):
        irr.krippendorff_alpha(units, reliability_data=x)


def test_alpha_function_takes_subjects_in_rows_like_icc_and_from_frame():
    anxiety = irr.datasets.load("anxiety")  # 20 subjects x 3 raters
    res = irr.krippendorff_alpha(anxiety, "interval", ci=None)
    # Independent implementation: the `krippendorff` package on its raters x units matrix.
    theirs = krippendorff.alpha(reliability_data=anxiety.to_numpy(dtype=float).T,
                                level_of_measurement="interval")
    assert res.n_subjects == 20
    assert res.raters == ("rater1", "rater2", "rater3")
    assert res.estimate == pytest.approx(theirs, abs=1e-12)
    assert round(res.estimate, 3) == 0.170  # the value R irr's kripp.alpha(t(anxiety)) prints
    # the same numbers as the façade and the array form
    assert res.estimate == pytest.approx(
        irr.Agreement.from_frame(anxiety).krippendorff_alpha("interval", ci=None).estimate,
        abs=1e-15)
    assert irr.krippendorff_alpha(anxiety.to_numpy(), "interval", ci=None).estimate == \
        pytest.approx(theirs, abs=1e-12)
    # the other layout only when asked for
    transposed = irr.krippendorff_alpha(anxiety.T, "interval", layout="raters-units", ci=None)
    assert transposed.estimate == pytest.approx(theirs, abs=1e-12)
    assert transposed.raters == ("rater1", "rater2", "rater3")


# -- A3: pandas indexes are aligned, or refused -----------------------------------------------
# perfect agreement on purpose: the Wald interval is undefined and says so
@pytest.mark.filterwarnings("ignore::irr.DegenerateDataWarning")
def test_series_with_the_same_subjects_in_another_order_are_aligned():
    s1 = pd.Series([1, 2, 3, 1, 2], index=list("abcde"), name="r1")
    s2 = s1.sample(frac=1, random_state=3).rename("r2")
    assert list(s2.index) != list(s1.index)
    # aligned on the labels the two raters agree on every subject: kappa = 1 exactly
    ag = irr.Agreement(s1, s2)
    assert ag.kappa().estimate == 1.0
    assert ag.table.to_numpy().trace() == 5
    # sort_values() of a default-indexed Series permutes 0..n-1: aligned too
    t1 = pd.Series([3, 1, 2, 1])
    assert irr.Agreement(t1, t1.sort_values()).percent_agreement().estimate == 1.0


@pytest.mark.parametrize(("other", "message"), [
    (pd.Series([1, 2, 3], index=["a", "b", "z"]), r"\['z'\] only in `rater_b`; \['c'\] only in `rater_a`"),
    (pd.Series([1, 2, 3], index=["a", "a", "b"]), r"index of `rater_b` repeats labels \['a'\]"),
    (pd.Series([1, 2, 3]), r"\[0, 1, 2\] only in `rater_b`"),
])
def test_series_whose_labels_disagree_are_refused(other, message):
    s1 = pd.Series([1, 2, 3], index=["a", "b", "c"])
    with pytest.raises(ValueError, match=message):
        irr.Agreement(s1, other)
    # positions stay available on request
    assert irr.Agreement(s1, other.to_numpy()).n_subjects == 3


def test_default_indexes_and_arrays_stay_positional():
    a = pd.Series([1, 2, 2, 1])
    b = pd.Series([1, 2, 1, 1], index=pd.RangeIndex(10, 14))  # RangeIndex vs RangeIndex
    # by position: 3 of 4 agree
    assert irr.Agreement(a, b).percent_agreement().estimate == 0.75
    assert irr.Agreement(a, b.to_list()).percent_agreement().estimate == 0.75


def test_freq_weights_series_is_aligned_on_the_frame_index():
    df = pd.DataFrame({"a": [1, 2, 1, 2], "b": [1, 2, 2, 2]}, index=[10, 11, 12, 13])
    w = pd.Series([4, 3, 2, 1], index=[10, 11, 12, 13])[::-1]
    ag = irr.Agreement.from_frame(df, freq_weights=w)
    # row 10 (1, 1) x4, row 11 (2, 2) x3, row 12 (1, 2) x2, row 13 (2, 2) x1
    assert ag.table.to_numpy().tolist() == [[4, 2], [0, 4]]
    assert ag.kappa().estimate == pytest.approx(float(exact_kappa([[4, 2], [0, 4]])), abs=1e-15)
    with pytest.raises(ValueError, match=r"index labels of `freq_weights` and `df` differ"):
        irr.Agreement.from_frame(df, freq_weights=w.reset_index(drop=True))


def test_cluster_and_strata_series_are_aligned_on_the_subjects():
    rng = np.random.default_rng(0)
    df = pd.DataFrame({"a": rng.integers(1, 3, 40), "b": rng.integers(1, 3, 40)},
                      index=np.arange(100, 140))
    cluster = pd.Series(np.repeat(np.arange(10), 4), index=df.index)
    ag = irr.Agreement.from_frame(df)
    opts = dict(ci="percentile", n_resamples=300, rng=0)
    ordered = quiet(lambda: ag.kappa(cluster=cluster, **opts)).ci
    # the same clusters given in another row order: the same resamples, the same interval
    shuffled = quiet(lambda: ag.kappa(cluster=cluster.sample(frac=1, random_state=1), **opts)).ci
    assert (shuffled.low, shuffled.high) == (ordered.low, ordered.high)
    assert quiet(lambda: ag.kappa(cluster=cluster.to_numpy(), **opts)).ci.low == ordered.low
    with pytest.raises(ValueError, match=r"index labels of `cluster` and the subjects differ"):
        ag.kappa(cluster=cluster.reset_index(drop=True), **opts)
    strata = pd.Series(np.arange(40) % 2, index=df.index)
    base = quiet(lambda: ag.kappa(strata=strata, **opts)).ci
    again = quiet(lambda: ag.kappa(strata=strata[::-1], **opts)).ci
    assert (again.low, again.high) == (base.low, base.high)


# -- A2: tables given as DataFrames are read by label ------------------------------------------
def test_crosstab_of_raters_with_different_label_sets_is_aligned_by_label():
    a = [1, 1, 2, 2, 1, 2]
    b = [2, 3, 3, 2, 2, 2]
    ct = pd.crosstab(pd.Series(a, name="A"), pd.Series(b, name="B"))  # rows 1, 2; columns 2, 3
    assert ct.shape == (2, 2)
    ag = irr.Agreement.from_table(ct)
    assert list(ag.categories) == [1, 2, 3]
    # hand-built table on the union 1, 2, 3: (1,2) x2, (1,3) x1, (2,2) x2, (2,3) x1
    union = [[0, 2, 1], [0, 2, 1], [0, 0, 0]]
    assert ag.table.to_numpy().tolist() == union
    assert ag.kappa().estimate == pytest.approx(float(exact_kappa(union)), abs=1e-15)
    # the raw ratings give the same number
    assert ag.kappa().estimate == pytest.approx(irr.Agreement(a, b).kappa().estimate, abs=1e-15)


def test_reordering_a_tables_columns_changes_nothing():
    a = ["1", "2", "2", "3", "1", "3", "2", "1"]
    b = ["1", "2", "3", "3", "1", "2", "2", "2"]
    ct = pd.crosstab(pd.Series(a), pd.Series(b))
    shuffled = ct[["3", "1", "2"]]
    truth = irr.Agreement(a, b).kappa().estimate
    # exact: table [[2, 1, 0], [0, 2, 1], [0, 1, 1]]
    assert truth == pytest.approx(float(exact_kappa([[2, 1, 0], [0, 2, 1], [0, 1, 1]])), abs=1e-15)
    assert irr.Agreement.from_table(shuffled).kappa().estimate == pytest.approx(truth, abs=1e-15)
    # Bowker: off-diagonal pairs (1,2)=1 vs (2,1)=0, (2,3)=1 vs (3,2)=1:
    # (1 - 0)^2 / 1 + (1 - 1)^2 / 2 = 1 on the pairs with a positive sum
    assert irr.bowker_test(ct).statistic == pytest.approx(1.0, abs=1e-15)
    assert irr.bowker_test(shuffled).statistic == pytest.approx(1.0, abs=1e-15)
    sm = irr.stuart_maxwell_test(ct).statistic
    assert irr.stuart_maxwell_test(shuffled).statistic == pytest.approx(sm, abs=1e-12)
    assert irr.stuart_maxwell_test(a, b).statistic == pytest.approx(sm, abs=1e-12)
    # rows reordered too, and declared categories decide the order
    both = ct.loc[["2", "3", "1"], ["3", "1", "2"]]
    ag = irr.Agreement.from_table(both, categories=["1", "2", "3", "4"])
    assert list(ag.categories) == ["1", "2", "3", "4"]
    assert ag.kappa().estimate == pytest.approx(truth, abs=1e-15)


def test_table_frames_with_bad_labels_are_refused_and_arrays_stay_positional():
    with pytest.raises(ValueError, match=r"`table` repeats row labels \['a'\]"):
        irr.Agreement.from_table(pd.DataFrame([[1, 2], [3, 4]], index=["a", "a"],
                                              columns=["a", "b"]))
    with pytest.raises(ValueError, match=r"has labels outside `categories`: \['c'\]"):
        irr.Agreement.from_table(pd.DataFrame([[1, 2], [3, 4]], index=["a", "b"],
                                              columns=["a", "c"]), categories=["a", "b"])
    # a plain array, or a frame with default labels, is positional and takes `categories`
    table = [[3, 1], [2, 4]]
    for given in (table, np.array(table), pd.DataFrame(table)):
        ag = irr.Agreement.from_table(given, categories=["lo", "hi"])
        assert list(ag.categories) == ["lo", "hi"]
        assert ag.kappa().estimate == pytest.approx(float(exact_kappa(table)), abs=1e-15)


# -- A10: grouping columns and rater names ------------------------------------------------------
# perfect agreement on purpose: the Wald interval is undefined and says so
@pytest.mark.filterwarnings("ignore::irr.DegenerateDataWarning")
def test_by_with_multiindex_columns_never_takes_the_grouping_column_as_a_rater():
    rng = np.random.default_rng(0)
    ratings = rng.integers(1, 3, (10, 3))
    cols = pd.MultiIndex.from_tuples([("site", ""), ("r", "a"), ("r", "b"), ("r", "c")])
    df = pd.DataFrame(np.c_[np.repeat([1, 2], 5), ratings], columns=cols)
    for key in ("site", ("site", "")):
        out = irr.by(df, key, statistic="fleiss_kappa")
        for g, row in zip((1, 2), out.itertuples(), strict=True):
            # the truth: Fleiss' kappa of the three readers' columns of the group alone
            # (Fleiss with complete data checked against statsmodels in test_multirater)
            group = ratings[df[("site", "")].to_numpy() == g]
            truth = irr.Agreement.from_array(group).fleiss_kappa().estimate
            assert row.estimate == pytest.approx(truth, abs=1e-15)
            assert row.n_subjects == 5
    with pytest.raises(ValueError, match=r"`by` must name columns of `df`; got \['r'\] "
                                         r"\(it names 3 columns, not one\)"):
        irr.by(df, "r")


def test_rater_names_that_collide_as_text_are_refused():
    df = pd.DataFrame({1: [1, 2, 1, 2, 1, 1], "1": [1, 2, 2, 2, 1, 1], "c": [1, 2, 1, 1, 1, 2]})
    message = r"labels that are the same once written as text: 1 and '1'"
    with pytest.raises(ValueError, match=r"`raters` has " + message):
        irr.Agreement.from_frame(df)
    with pytest.raises(ValueError, match=r"`raters` has " + message):
        irr.by(df.assign(g=1), "g")
    with pytest.raises(ValueError, match=r"`x` has " + message):
        irr.cochrans_q((df == 1).astype(int))
    with pytest.raises(ValueError, match=r"`data` has " + message):
        irr.krippendorff_alpha(df)
    with pytest.raises(ValueError, match=r"`ratings` has " + message):
        irr.icc(df)
    long = pd.DataFrame({"s": [1, 1, 2, 2], "r": [1, "1", 1, "1"], "v": [1, 2, 1, 1]})
    with pytest.raises(ValueError, match=r"`rater` has " + message):
        irr.Agreement.from_long(long, subject="s", rater="r", rating="v")
    # distinct names: the error-rate test compares the right raters. Rater "1" against the
    # int-labelled column (renamed "one"): the rows are (1,1), (2,2), (1,2), (2,2), (1,1),
    # (1,1), so exactly one error, in the third row.
    fixed = df.rename(columns={1: "one"})
    res = irr.Agreement.from_frame(fixed).error_rate_test(0.1, reference="one")["1"]
    assert (res.errors, res.n) == (1, 6)


# -- A8: labels are exact or refused -------------------------------------------------------------
BIG = 2**53
BEYOND = "are beyond 2\\*\\*53 and float64 cannot represent them exactly"


@pytest.mark.parametrize("make", [
    # Int64 with NA: 2**53 + 1 used to become the float 2**53 and merge with 2**53
    lambda: irr.Agreement(pd.array([BIG + 1, BIG, BIG + 1, None], dtype="Int64"),
                          pd.array([BIG, BIG + 1, BIG + 1, BIG], dtype="Int64")),
    # lists with None
    lambda: irr.Agreement([BIG + 1, BIG, None, BIG + 1], [BIG, BIG + 1, BIG + 1, BIG + 1]),
    # long data: a rater who did not rate a subject
    lambda: irr.Agreement.from_long(
        pd.DataFrame({"s": [1, 1, 2, 2, 3], "r": ["a", "b", "a", "b", "a"],
                      "v": [BIG + 1, BIG, BIG, BIG + 1, BIG]}),
        subject="s", rater="r", rating="v"),
])
def test_integers_beyond_2_53_never_pass_through_float(make):
    with pytest.raises(ValueError, match=r"\[9007199254740993\] " + BEYOND):
        make()


def test_a_csv_mixing_int64_and_uint64_columns_is_exact_or_refused(tmp_path):
    path = tmp_path / "ids.csv"
    # rater b's last label exceeds the int64 range, so pandas reads b as uint64
    path.write_text("a,b\n9007199254740993,9007199254740992\n9007199254740992,"
                    "9007199254740993\n5,5\n7,18446744073709551615\n")
    df = pd.read_csv(path)
    assert (df["a"].dtype, df["b"].dtype) == (np.int64, np.uint64)
    with pytest.raises(ValueError, match=BEYOND):
        irr.Agreement.from_frame(df)
    # the same labels as strings are exact for unweighted statistics: one match in four
    exact = irr.Agreement.from_frame(pd.read_csv(path, dtype=str))
    assert exact.percent_agreement().estimate == 0.25


def test_large_integers_that_float64_holds_are_exact_with_missing_values():
    # 2**52 + 1 and 2**52 + 2 are exact float64 values: coded as two categories
    lo = 2**52
    a = pd.array([lo + 1, lo + 2, lo + 1, None, lo + 2], dtype="Int64")
    b = pd.array([lo + 1, lo + 1, lo + 1, lo + 2, lo + 2], dtype="Int64")
    ag = irr.Agreement(a, b)
    assert list(ag.categories) == [lo + 1, lo + 2]
    # complete pairs: (1,1), (2,1), (1,1), (2,2): three of four agree
    assert ag.percent_agreement().estimate == 0.75
    assert ag.n_missing == 1


# decimal labels taken as categories on purpose: the continuity warning is expected
@pytest.mark.filterwarnings("ignore::irr._columns.ContinuousScoresWarning")
def test_float32_and_float64_labels_of_the_same_decimal_match():
    a = np.array([0.1, 0.2, 0.3, 0.7], dtype=np.float32)
    b = np.array([0.1, 0.2, 0.4, 0.7])
    ag = irr.Agreement(a, b)
    # read as the decimals they print as: 0.1, 0.2, 0.3/0.4, 0.7, so 3 of 4 agree
    assert list(ag.categories) == [0.1, 0.2, 0.3, 0.4, 0.7]
    assert ag.percent_agreement().estimate == 0.75
    assert irr.Agreement.from_frame(pd.DataFrame({"a": a, "b": b})).percent_agreement().estimate \
        == 0.75
    # nullable Float32 with a missing rating, and lists of float32 scalars: the same rule
    nullable = pd.array([0.1, 0.2, None, 0.7], dtype="Float32")
    ag = irr.Agreement(nullable, b)
    assert list(ag.categories) == [0.1, 0.2, 0.4, 0.7]
    assert (ag.percent_agreement().estimate, ag.n_missing) == (1.0, 1)
    assert irr.Agreement(list(a), b).percent_agreement().estimate == 0.75


def test_alpha_fast_path_refuses_2_53_plus_1():
    # 2**53 + 1 is 2**53 as a float64: interval distances between the two would be 0
    x = np.array([[BIG, BIG + 1], [BIG + 1, BIG + 1], [BIG, BIG]])
    with pytest.raises(ValueError, match=r"\[9007199254740993\] " + BEYOND):
        irr.krippendorff_alpha(x, "interval", ci=None)
    # the same labels shifted by 2**53 - 1: exact, alpha by hand. Values 1, 2 / 2, 2 / 1, 1:
    # coincidences o11 = 2, o12 = o21 = 1, o22 = 2 (n = 6 pairable values); interval
    # D_o = 2 * 1 / 6, D_e = 2 * 3 * 3 / (6 * 5), so alpha = 1 - (1/3) / (3/5) = 4/9
    shifted = irr.krippendorff_alpha(x - (BIG - 1), "interval", ci=None)
    assert shifted.estimate == pytest.approx(4 / 9, abs=1e-15)


# -- A9: frequency weights with missing ratings equal the expanded data ---------------------------
WEIGHTED = pd.DataFrame({"a": [1, 1, 2, 2, None, 3], "b": [1, 2, 2, None, 1, 3],
                         "c": [1, 2, 2, 2, 2, 1], "n": [3, 1, 2, 2, 1, 0]})


def expanded(df):
    """The data the weights stand for: each row repeated `n` times (the definition)."""
    return df.loc[df.index.repeat(df["n"]), ["a", "b", "c"]].reset_index(drop=True)


@pytest.mark.parametrize("method", ["fleiss_kappa", "scott_pi", "gwet_ac", "conger_kappa",
                                    "brennan_prediger", "krippendorff_alpha"])
def test_frequency_weights_with_missing_ratings_equal_the_expanded_data(method):
    weighted = irr.Agreement.from_frame(WEIGHTED, ["a", "b", "c"], freq_weights="n")
    plain = irr.Agreement.from_frame(expanded(WEIGHTED))
    # the zero-weight row (3, 3, 1) stands for no subject: category 3 is not in the data
    assert list(weighted.categories) == list(plain.categories) == [1, 2]
    got = quiet(lambda: getattr(weighted, method)(ci=None))
    truth = quiet(lambda: getattr(plain, method)(ci=None))
    assert got.estimate == pytest.approx(truth.estimate, abs=1e-14)
    # 9 subjects; rows 4 and 5 (weights 2 and 1) miss one rating: 3 incomplete subjects
    assert (got.n_subjects, got.n_incomplete, got.n_missing) == \
        (truth.n_subjects, truth.n_incomplete, truth.n_missing)
    assert got.n_subjects == 9
    assert got.n_incomplete == 3


def test_frequency_weights_count_missing_subjects_in_two_rater_tests_and_summaries():
    df = WEIGHTED[["a", "b", "n"]]
    ag = irr.Agreement.from_frame(df, ["a", "b"], freq_weights="n")
    res = ag.error_rate_test(0.1)
    # complete pairs: (1,1) x3, (1,2) x1, (2,2) x2: 6 subjects, 1 error; rows with a
    # missing rating stand for 2 + 1 = 3 subjects
    assert (res.errors, res.n, res.n_missing) == (1, 6, 3)
    assert ag.n_missing == 3
    assert ag.kappa().n_missing == 3
    multi = irr.Agreement.from_frame(WEIGHTED, ["a", "b", "c"], freq_weights="n")
    text = quiet(lambda: multi.summary().as_text())
    assert re.search(r"Missing ratings:\s+\d+ in 3 subjects\s", text)


def test_all_zero_frequency_weights_are_refused():
    with pytest.raises(ValueError, match=r"`freq_weights` are all zero: there are no subjects"):
        irr.Agreement.from_frame(WEIGHTED.assign(n=0), ["a", "b", "c"], freq_weights="n")


# -- siblings ------------------------------------------------------------------------------------
def test_quadratic_weighted_kappa_aligns_series_on_their_index():
    s1 = pd.Series([1, 2, 3, 4, 2], index=list("abcde"))
    # the same ratings in another order: identical raters, QWK 1 exactly
    assert irr.quadratic_weighted_kappa(s1, s1[::-1]) == 1.0
    with pytest.raises(ValueError, match=r"index labels of `rater_b` and `rater_a` differ"):
        irr.quadratic_weighted_kappa(s1, s1.reset_index(drop=True))


def test_counts_frame_columns_are_matched_to_declared_categories_by_label():
    counts = [[0, 0, 6], [0, 3, 3], [1, 4, 1], [2, 2, 2]]
    frame = pd.DataFrame(counts, columns=["a", "b", "c"])
    shuffled = frame[["c", "a", "b"]]
    ag = irr.Agreement.from_counts(shuffled, categories=["a", "b", "c", "d"])
    # Fleiss' kappa does not depend on an unobserved category: the documented 0.1579
    # of these counts (from_counts' example, hand-checked against Fleiss 1971's formula)
    truth = irr.Agreement.from_counts(counts).fleiss_kappa().estimate
    assert round(truth, 4) == 0.1579
    assert ag.fleiss_kappa().estimate == pytest.approx(truth, abs=1e-15)
    assert list(ag.categories) == ["a", "b", "c", "d"]
    with pytest.raises(ValueError, match=r"`counts` has columns outside `categories`: \['c'\]"):
        irr.Agreement.from_counts(frame, categories=["a", "b"])


def test_ordinal_metrics_align_series_on_their_index():
    y = pd.Series([0, 0, 1, 1], index=list("abcd"))
    scores = pd.Series([0.1, 0.2, 0.8, 0.9], index=list("abcd"))
    # aligned: every positive scores above every negative, AUC 1 (by position reversed: 0)
    assert irr.roc_auc(y, scores[::-1]) == 1.0
    truth = pd.Series([1.0, 2.0, 3.0], index=list("abc"))
    # the same values in another order: perfect agreement, continuous kappa 1
    assert irr.continuous_kappa(truth, truth[::-1]) == pytest.approx(1.0, abs=1e-15)
    with pytest.raises(ValueError, match=r"index labels of `scores` and `y_true` differ"):
        irr.roc_auc(y, scores.reset_index(drop=True))
