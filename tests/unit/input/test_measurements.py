"""Issue 18, data: continuous ratings in every input form (wide, long with replicates,
arrays), categorical statistics refused on them, statistics of scores unchanged."""

import re
import warnings

import numpy as np
import pandas as pd
import pytest

import irr
from irr.agreement import ReplicatesAveragedWarning
from tests.support.measurements import assert_same_views


def _bp(n=200, seed=0, missing=(3, 50, 77)):
    """Systolic blood pressure (mmHg, one decimal) by two nurses, a patient id beside."""
    rng = np.random.default_rng(seed)
    true = rng.normal(125, 15, n)
    df = pd.DataFrame({"patient": np.arange(1, n + 1),
                       "nurse_a": (true + rng.normal(0, 4, n)).round(1),
                       "nurse_b": (true + 2 + rng.normal(0, 4, n)).round(1)})
    df.loc[list(missing), "nurse_b"] = np.nan
    return df


# -- detection and the continuous Agreement -----------------------------------------------
def test_decimal_frame_is_continuous_with_measurements_and_repr():
    df = _bp()
    ag = irr.Agreement.from_frame(df, id="patient")
    assert ag.continuous
    assert repr(ag) == "Agreement(n_subjects=200, n_raters=2, continuous, n_incomplete=3)"
    m = ag.measurements
    assert (m.n_subjects, m.n_raters, m.n_measurements) == (200, 2, 397)
    assert m.raters == ("nurse_a", "nurse_b")
    np.testing.assert_array_equal(m.wide()[:, 0], df["nurse_a"].to_numpy())


def test_patient_id_beside_decimals_is_set_aside_not_a_rater():
    df = _bp().rename(columns={"patient": "k"})  # no identifier name: rule of distinct integers
    with pytest.warns(UserWarning, match="'k'"):
        ag = irr.Agreement.from_frame(df)
    assert ag.raters == ("nurse_a", "nurse_b")
    assert ag.continuous
    # a decimal column is never an identifier: a rater with a constant decimal reading
    df3 = _bp(missing=()).assign(nurse_c=0.5)
    with warnings.catch_warnings():
        warnings.simplefilter("error", UserWarning)
        ag3 = irr.Agreement.from_frame(df3, id="patient")
    assert ag3.raters == ("nurse_a", "nurse_b", "nurse_c")


@pytest.mark.parametrize(("values", "expected"), [
    ([1.0, 1.5, 2.0, 2.5, 3.0, 3.5, 4.0, 4.5, 5.0], False),  # half-point scale: categories
    (list(range(1, 40)), False),  # integer scores: categories
    ([0.5 + i for i in range(11)], True),  # eleven decimals
])
def test_detection_rule(values, expected):
    a = np.array(values, dtype=float)
    assert irr.Agreement(a, a[::-1].copy()).continuous is expected


def test_strings_booleans_categoricals_never_continuous_and_forcing_them_raises():
    assert not irr.Agreement(["1.5", "2.5"] * 10, ["2.5", "1.5"] * 10).continuous
    assert not irr.Agreement([True, False] * 10, [False, True] * 10).continuous
    with pytest.raises(TypeError, match=r"`rater_b` holds .* such as \['x', 'y'\]"):
        irr.Agreement([1.5, 2.5], ["x", "y"], continuous=True)
    with pytest.raises(ValueError, match="categories"):
        irr.Agreement([1.5, 2.5], [2.5, 1.5], categories=[1.5, 2.5], continuous=True)
    with pytest.raises(TypeError, match="`continuous` must be"):
        irr.Agreement([1.5, 2.5], [2.5, 1.5], continuous="yes")


def test_continuous_false_keeps_categories_and_integers_forced_continuous():
    df = _bp()
    ag = irr.Agreement.from_frame(df, id="patient", continuous=False)
    assert not ag.continuous
    assert len(ag.categories) > 100
    ints = irr.Agreement([1, 2, 3, 4], [1, 2, 4, 4], continuous=True)
    assert ints.continuous
    assert ints.measurements.value.dtype == np.float64


def test_more_integer_values_than_a_category_scale_are_continuous():
    # today's categorical path refused these (at most 10000 categories)
    rng = np.random.default_rng(1)
    a = rng.integers(0, 10**6, 20_000)
    ag = irr.Agreement(a, a + rng.integers(-5, 6, a.size))
    assert ag.continuous
    assert ag.icc().estimate > 0.99


# -- refusals ------------------------------------------------------------------------------
@pytest.mark.parametrize("call", [
    lambda ag: ag.kappa(), lambda ag: ag.kappa(weights="quadratic"),
    lambda ag: ag.percent_agreement(), lambda ag: ag.fleiss_kappa(), lambda ag: ag.scott_pi(),
    lambda ag: ag.conger_kappa(), lambda ag: ag.light_kappa(), lambda ag: ag.gwet_ac(),
    lambda ag: ag.brennan_prediger(), lambda ag: ag.pairwise(), lambda ag: ag.mcnemar(),
    lambda ag: ag.symmetry_test(), lambda ag: ag.marginal_homogeneity_test(),
    lambda ag: ag.error_rate_test(0.1), lambda ag: ag.categories, lambda ag: ag.table,
    lambda ag: ag.statistics,
])
def test_categorical_statistics_refused_with_examples_and_alternatives(call):
    ag = irr.Agreement.from_frame(_bp(), id="patient")
    with pytest.raises(ValueError, match=r"continuous measurements \(values such as "
                       r"\[12.*icc\(\).*continuous=False"):
        call(ag)


@pytest.mark.parametrize("level", ["nominal", "ordinal"])
def test_alpha_nominal_ordinal_refused(level):
    ag = irr.Agreement.from_frame(_bp(), id="patient")
    with pytest.raises(ValueError, match=f"{level} level .* `level='interval'`"):
        ag.krippendorff_alpha(level)


# -- statistics of scores: the same numbers as continuous=False -----------------------------
def _few_values(seed=2):
    rng = np.random.default_rng(seed)
    x = (rng.integers(0, 40, (60, 1)) + rng.integers(0, 4, (60, 3))) * 0.5 + 0.25
    x[rng.random(x.shape) < 0.1] = np.nan
    return x


def test_icc_kendall_alpha_identical_to_categorical_path():
    x = _few_values()
    cont = irr.Agreement.from_array(x)
    cat = irr.Agreement.from_array(x, continuous=False)
    assert cont.continuous
    assert not cat.continuous
    for form in (("twoway", "agreement", "single"), ("oneway", "agreement", "average"),
                 ("twoway", "consistency", "single")):
        a, b = cont.icc(*form), cat.icc(*form)
        assert (a.estimate, a.statistic, a.ci.low, a.ci.high, a.n_missing) == (
            b.estimate, b.statistic, b.ci.low, b.ci.high, b.n_missing)
    pd.testing.assert_frame_equal(cont.icc_table(), cat.icc_table())
    a, b = cont.kendall_w(ci="percentile", n_resamples=500), cat.kendall_w(ci="percentile",
                                                                          n_resamples=500)
    assert (a.estimate, a.statistic, a.ci.low, a.ci.high) == (b.estimate, b.statistic,
                                                                b.ci.low, b.ci.high)
    for level in ("interval", "ratio"):
        a = cont.krippendorff_alpha(level, n_resamples=500)
        b = cat.krippendorff_alpha(level, n_resamples=500)
        assert (a.estimate, a.se, a.ci.low, a.ci.high) == (b.estimate, b.se, b.ci.low, b.ci.high)


def test_icc_matches_published_shrout_fleiss_as_measurements():
    # Shrout & Fleiss (1979), Table 2 data; Table 4: ICC(1,1) .17, ICC(2,1) .29, ICC(3,1) .71
    x = np.array([[9, 2, 5, 8], [6, 1, 3, 2], [8, 4, 6, 8], [7, 1, 2, 6], [10, 5, 6, 9],
                  [6, 2, 4, 7]], dtype=float)
    ag = irr.Agreement.from_array(x, continuous=True)
    est = ag.icc_table()["estimate"].round(2).tolist()
    assert est == [0.17, 0.29, 0.71, 0.44, 0.62, 0.91]


def test_interval_alpha_without_matrix_matches_matrix_path_and_krippendorff_package():
    import irr.estimators.krippendorff as kr

    rng = np.random.default_rng(3)
    x = rng.normal(100, 10, (300, 1)) + rng.normal(0, 3, (300, 4))
    x[rng.random(x.shape) < 0.1] = np.nan
    full = irr.Agreement.from_array(x).krippendorff_alpha("interval", n_resamples=300)
    old = kr.MAX_MATRIX_VALUES
    kr.MAX_MATRIX_VALUES = 10  # force the path of many distinct values
    try:
        moments = irr.Agreement.from_array(x).krippendorff_alpha("interval", n_resamples=300)
        # the package's cross-check on the first 100 subjects (some 360 distinct values,
        # still the moments path): its cost grows with the cube of the subjects (about 16 s
        # of CPU for all 300, 0.4 s for 100); on all 300 the two paths agree, asserted below
        first = irr.Agreement.from_array(x[:100]).krippendorff_alpha("interval", ci=None)
    finally:
        kr.MAX_MATRIX_VALUES = old
    assert moments.coincidences.shape == (0, 0)
    np.testing.assert_allclose(moments.estimate, full.estimate, rtol=1e-12)
    np.testing.assert_allclose([moments.observed_disagreement, moments.expected_disagreement,
                                moments.se, *moments.ci],
                               [full.observed_disagreement, full.expected_disagreement,
                                full.se, *full.ci], rtol=1e-9)
    assert (moments.n_pairable, moments.n_subjects, moments.n_missing) == (
        full.n_pairable, full.n_subjects, full.n_missing)
    krippendorff = pytest.importorskip("krippendorff")  # an independent implementation
    assert first.coincidences.shape == (0, 0)
    np.testing.assert_allclose(
        first.estimate, krippendorff.alpha(x[:100].T, level_of_measurement="interval"),
        rtol=1e-12)


def test_large_continuous_data():
    rng = np.random.default_rng(4)
    n = 100_000
    x = rng.normal(100, 10, (n, 1)) + rng.normal(0, 3, (n, 5))
    ag = irr.Agreement.from_array(x)
    assert repr(ag) == "Agreement(n_subjects=100000, n_raters=5, continuous, n_incomplete=0)"
    # ICC(A,1) = 100 / (100 + 9) under the model
    assert abs(ag.icc().estimate - 100 / 109) < 0.005
    assert abs(ag.krippendorff_alpha("interval", ci=None).estimate - 100 / 109) < 0.005
    assert ag.kendall_w().estimate > 0.9
    with pytest.raises(ValueError, match="ratio level needs"):
        ag.krippendorff_alpha("ratio", ci=None)
    # 10^6 distinct values (two raters)
    y = rng.normal(0, 1, (500_000, 1)) + rng.normal(0, 0.5, (500_000, 2))
    big = irr.Agreement.from_array(y)
    assert abs(big.icc().estimate - 0.8) < 0.01


def test_ten_million_pairs_built():
    # its speed: benchmarks/bench_i18_continuous.py
    rng = np.random.default_rng(5)
    df = pd.DataFrame({"a": rng.normal(120, 10, 10**7)})
    df["b"] = df["a"] + 1.5
    ag = irr.Agreement.from_frame(df)
    assert ag.continuous
    assert ag.n_subjects == 10**7
    assert ag.n_missing == 0


def test_summary_shows_icc_and_alpha():
    ag = irr.Agreement.from_frame(_bp(), id="patient")
    text = ag.summary().as_text()
    assert "ICC(2,1)" in text
    assert "Krippendorff's alpha (interval)" in text
    assert "continuous" in text
    assert "Measurements:" in text
    assert "kappa" not in text.lower()


# -- long data, replicates, unbalanced designs ----------------------------------------------
def _long_replicates():
    rng = np.random.default_rng(6)
    rows = []
    for s in range(30):
        true = rng.normal(50, 8)
        for rater in ("x", "y", "z"):
            for rep in range(1 + (s % 3 == 0)):  # every third subject measured twice
                rows.append((f"s{s}", rater, rep, round(true + rng.normal(0, 2), 2)))
    rows = [r for r in rows if not (r[0] == "s1" and r[1] == "z")]  # unbalanced
    return pd.DataFrame(rows, columns=["subject", "rater", "rep", "value"])


def test_long_replicates_kept_and_cell_means_used_with_warning():
    df = _long_replicates()
    ag = irr.Agreement.from_long(df, subject="subject", rater="rater", rating="value",
                                 replicate="rep")
    m = ag.measurements
    assert ag.continuous
    assert m.has_replicates
    assert m.n_measurements == len(df)
    assert ag.n_missing == 1
    assert ag.n_subjects == 30
    with pytest.warns(ReplicatesAveragedWarning, match="30 .*cell.* mean"):
        res = ag.icc()
    means = df.groupby(["subject", "rater"], sort=False)["value"].mean().unstack()
    expected = irr.icc(means.loc[pd.Index(m.subjects), list(m.raters)].to_numpy())
    assert res.estimate == pytest.approx(expected.estimate, rel=1e-12)
    with pytest.warns(ReplicatesAveragedWarning):
        ag.kendall_w()


def test_long_continuous_beyond_the_category_limit():
    rng = np.random.default_rng(7)
    n = 6000
    df = pd.DataFrame({"subject": np.repeat(np.arange(n), 2), "rater": ["a", "b"] * n,
                       "score": np.repeat(rng.normal(0, 1, n), 2) + rng.normal(0, 0.3, 2 * n)})
    ag = irr.Agreement.from_long(df, subject="subject", rater="rater", rating="score")
    assert ag.continuous
    assert ag.n_subjects == n


def test_long_categorical_duplicates_still_raise_and_replicate_labels_checked():
    df = pd.DataFrame({"s": [1, 1, 1, 2, 2], "r": ["a", "a", "b", "a", "b"],
                       "y": [1, 2, 1, 2, 2]})
    with pytest.raises(ValueError, match=r"more than once: \[\(1, 'a'\)\].*continuous=True"):
        irr.Agreement.from_long(df, subject="s", rater="r", rating="y")
    df = _long_replicates()
    df.loc[1, "rep"] = 0  # subject s0, rater x: replicate 0 twice
    with pytest.raises(ValueError, match=r"\('s0', 'x', 0\)"):
        irr.Agreement.from_long(df, subject="subject", rater="rater", rating="value",
                                replicate="rep")


# -- irr.by and the accessor ----------------------------------------------------------------
def test_by_and_accessor_pass_continuous():
    df = _bp(missing=()).assign(site=["a", "b"] * 100)
    out = irr.by(df.drop(columns="patient"), "site", statistic="icc")
    assert out["estimate"].notna().all()
    assert out["n_subjects"].tolist() == [100, 100]
    ag = df.irr.agreement(["nurse_a", "nurse_b"], continuous=False)
    assert not ag.continuous
    long = _long_replicates()
    ag = long.irr.agreement(subject="subject", rater="rater", rating="value", replicate="rep")
    assert ag.continuous
    assert ag.measurements.has_replicates


# -- integer readings held as categories are measurements all the same -----------------
def test_integer_readings_held_as_categories_give_the_same_continuous_statistics():
    """PEF readings (l/min) are integers with few values per column, so they are held as
    categories; the continuous statistics read them at their values, identically."""
    pef = irr.datasets.load("pef")
    as_categories = irr.Agreement.from_frame(pef, raters=["wright_1", "mini_1"])
    as_measurements = irr.Agreement.from_frame(pef, raters=["wright_1", "mini_1"],
                                               continuous=True)
    assert not as_categories.continuous
    a, b = as_categories.limits_of_agreement(), as_measurements.limits_of_agreement()
    assert (a.estimate, a.lower, a.upper) == (b.estimate, b.lower, b.upper)
    diff = pef["wright_1"] - pef["mini_1"]
    assert a.estimate == pytest.approx(diff.mean(), rel=1e-13)  # -2.1 (Bland & Altman 1986)
    assert as_categories.concordance().estimate == as_measurements.concordance().estimate
    assert as_categories.table.to_numpy().sum() == 17  # the categories are still there


def test_numeric_categories_with_missing_and_long_sparse_data_as_measurements():
    ag = irr.Agreement([1, 2, None, 4, 5], [1, 3, 3, 4, 4])
    m = ag.measurements
    assert m.value.tolist() == [1, 1, 2, 3, 3, 4, 4, 5, 4]
    assert ag.concordance().n_subjects == 4
    long = pd.DataFrame({"id": [1, 1, 2, 2, 3], "who": ["a", "b", "a", "b", "a"],
                         "score": [3, 4, 5, 5, 2]})
    m = irr.Agreement.from_long(long, subject="id", rater="who", rating="score").measurements
    assert sorted(zip(m.subject.tolist(), m.rater.tolist(), m.value.tolist(), strict=True)) == [
        (0, 0, 3.0), (0, 1, 4.0), (1, 0, 5.0), (1, 1, 5.0), (2, 0, 2.0)]


@pytest.mark.parametrize(("make", "message"), [
    (lambda: irr.Agreement(["a", "b"], ["a", "a"]), r"numeric ratings.*\['a', 'b'\]"),
    (lambda: irr.Agreement([True, False], [True, True]), "numeric ratings"),
    (lambda: irr.Agreement.from_table([[3, 1], [1, 3]]), "aggregated data"),
    (lambda: irr.Agreement.from_counts([[2, 0], [1, 1]]), "aggregated data"),
])
def test_labels_and_aggregated_data_are_not_measurements(make, message):
    with pytest.raises(ValueError, match=message):
        make().limits_of_agreement()


def _replicated_bp(n=40, readings=3, seed=7):
    """A clinician's study: systolic pressure of `n` patients by two devices, `readings`
    readings each (cuff SD 3.6, wrist SD 6.1 and 3 mmHg higher), long, with a patient id."""
    rng = np.random.default_rng(seed)
    rows = []
    for p in range(n):
        true = rng.normal(130, 15)
        for device, sd, bias in (("cuff", 3.6, 0.0), ("wrist", 6.1, 3.0)):
            rows.extend({"patient_id": f"P{p + 1:03d}", "device": device, "reading": r,
                         "sbp": round(true + bias + rng.normal(0, sd), 1)}
                        for r in range(1, readings + 1))
    return pd.DataFrame(rows)


def test_icc_of_replicate_means_is_named_as_such_everywhere():
    df = _replicated_bp()
    ag = irr.Agreement.from_long(df, subject="patient_id", rater="device", rating="sbp",
                                 replicate="reading")
    with pytest.warns(ReplicatesAveragedWarning):
        res = ag.icc()
    components = ag.icc_components(n_resamples=200)
    # two different numbers under two different names
    assert res.estimate > components.estimate + 0.03
    assert res.coefficient == "ICC(2,1) of replicate means"
    assert components.coefficient == "ICC(2,1)"
    assert res.form_name == "ICC(A,1) of replicate means"
    assert res.to_dict()["replicate_means"] == 3
    assert "single rater's mean of up to 3 readings" in res.report()
    with pytest.warns(ReplicatesAveragedWarning):
        table = ag.icc_table()
    assert "ICC(2,1) of replicate means" in table.index
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", ReplicatesAveragedWarning)
        report = irr.report(ag, statistics=["icc", "sem"], n_resamples=200)
    text = str(report)
    assert "ICC(2,1) of replicate means" in text
    assert "ICC(A,1) of replicate means (two-way random effects" in text
    # the SEM row's ICC is the replicate-aware one, and says so
    assert "SEM from SD x sqrt(1 - ICC of single readings)" in text
    assert not re.search(r"ICC\(2,1\)\s+0\.9", text)


def test_replicated_study_says_so_in_the_report(tmp_path):
    from tests.support.cli_runner import cli

    df = _replicated_bp()
    whole = df.assign(sbp=df["sbp"].round().astype(int))  # integer mmHg: still readings
    ag = irr.Agreement.from_long(whole, subject="patient_id", rater="device", rating="sbp",
                                 replicate="reading")
    assert ag.continuous
    path = tmp_path / "bp.csv"
    df.to_csv(path, index=False)
    status, out, err = cli("report", str(path), "--subject", "patient_id", "--rater",
                           "device", "--rating", "sbp", "--replicate", "reading",
                           "--statistics", "ccc,sem", "--n-resamples", "200",
                           "--format", "markdown")
    assert status == 0, err
    text = " ".join(out.split())
    assert "Each rater or method measured each subject 3 times (240 measurements in all)." \
        in text
    # 80 (patient, device) pairs are not "80 ratings" beside 240 measurements
    assert "Subject-rater pairs measured" in text
    assert "| Ratings |" not in text


@pytest.mark.parametrize("call", [
    lambda x, y: irr.limits_of_agreement(x, y),
    lambda x, y: irr.concordance(x, y),
    lambda x, y: irr.deming(x, y),
    lambda x, y: irr.Agreement(x, y, continuous=True).limits_of_agreement(),
], ids=["limits", "concordance", "deming", "Agreement"])
def test_number_like_text_is_refused_as_measurements_everywhere(call):
    # one rule: text such as "1.5" is never parsed as a measurement
    x, y = ["1.5", "2.5", "3", "4"], ["1.4", "2.7", "3.1", "4.2"]
    with pytest.raises(TypeError, match=r"(?s)'1.5'.*pd.to_numeric"):
        call(x, y)


def _decimal_text(n=40, raters=3, seed=2):
    """Readings such as '12.3456789012' stored as text (a spreadsheet's text cells)."""
    rng = np.random.default_rng(seed)
    truth = rng.normal(12, 3, n)
    return pd.DataFrame({f"r{j}": [f"{v:.10f}" for v in truth + rng.normal(0, 1, n)]
                         for j in range(raters)})


@pytest.mark.parametrize("raters", [2, 3])
def test_decimal_text_is_categories_with_a_warning_and_never_an_identifier(raters):
    # text is never a measurement, but the user is told, and no column of readings is
    # taken for an identifier (it was: 'r0' set aside, a two-rater kappa on 80 categories)
    df = _decimal_text(raters=raters)
    with pytest.warns(UserWarning,
                      match=r"hold numbers written as text \(such as \['\d+\.\d{10}'.*"
                            rf"\({40 * raters} categories\).*pd\.to_numeric"):
        ag = irr.Agreement.from_frame(df)
    assert ag.raters == tuple(df.columns)
    assert not ag.continuous
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        assert not irr.Agreement.from_frame(df, continuous=False).continuous
        # converted, they are the measurements they are
        assert irr.Agreement.from_frame(df.apply(pd.to_numeric)).continuous
        # integer text and half-point text stay quiet categories
        irr.Agreement(["1", "2", "3"] * 5, ["1", "3", "3"] * 5)
        irr.Agreement(["1.5", "2.5"] * 10, ["2.5", "1.5"] * 10)


# -- real values too many to be categories: the ICC of the values themselves -----------------
@pytest.mark.parametrize("missing", [0.0, 0.1])
def test_icc_of_many_real_values_is_the_array_icc_and_the_pattern_icc(missing):
    from irr._statistics import Statistics, coded_by_rank, value_source
    from irr.estimators import icc as icc_estimator

    rng = np.random.default_rng(5)
    x = rng.normal(50, 10, (4000, 1)) + rng.normal(0, 3, (4000, 4))
    x[rng.random(x.shape) < missing] = np.nan
    ag = irr.Agreement.from_array(x, continuous=True)
    assert coded_by_rank(x)
    frame = pd.DataFrame({"s": np.repeat(np.arange(4000), 4), "r": np.tile(np.arange(4), 4000),
                          "v": x.ravel()})
    long = irr.Agreement.from_long(frame, subject="s", rater="r", rating="v", continuous=True)
    # the previous form: the statistics of the values coded by rank, grouped into patterns
    stats = Statistics.from_source(value_source(ag.measurements))
    for form in (("twoway", "agreement", "single"), ("oneway", "agreement", "average"),
                 ("twoway", "consistency", "single")):
        got, array, from_long = ag.icc(*form), irr.icc(x, *form), long.icc(*form)
        previous = icc_estimator.icc(stats, *form, 0.95)
        for res in (array, from_long):
            assert (got.estimate, got.statistic, got.ci.low, got.ci.high, got.n_missing) == (
                res.estimate, res.statistic, res.ci.low, res.ci.high, res.n_missing)
        np.testing.assert_allclose([got.estimate, got.statistic, got.ci.low, got.ci.high],
                                   [previous.estimate, previous.statistic, previous.ci.low,
                                    previous.ci.high], rtol=1e-12)
        assert (got.n_missing, got.df1, got.df2) == (previous.n_missing, previous.df1,
                                                      previous.df2)
    table = ag.icc_table()
    assert table.loc["ICC(2,1)", "estimate"] == ag.icc().estimate


def test_coded_by_rank_looks_at_every_value():
    from irr._data import MAX_CATEGORIES
    from irr._statistics import coded_by_rank

    few = np.tile(np.arange(MAX_CATEGORIES) / 4, 5)  # many values, few distinct
    assert not coded_by_rank(few)
    more = np.append(few, 0.3)  # one more distinct value after the prefix
    assert coded_by_rank(more)
    assert not coded_by_rank(np.full(50_000, np.nan))


# -- the measured values without the long form, coding by rank -----------------------------
@pytest.mark.parametrize("seed", range(4))
def test_measured_values_equal_the_long_form_values(seed):
    from irr._measurements import Measurements

    rng = np.random.default_rng(seed)
    for trial in range(10):
        n, k = int(rng.integers(1, 200)), int(rng.integers(2, 6))
        x = rng.normal(size=(n, k))
        if trial % 2:
            x[rng.random(x.shape) < 0.2] = np.nan
            x[0, 0] = 1.0  # at least one measurement
        if trial % 5 == 4:
            x[rng.random(x.shape) < 0.3] = -0.0
        got = Measurements.from_wide(x).measured_values()
        want = Measurements.from_wide(x).value
        np.testing.assert_array_equal(got, want)
        assert np.array_equal(np.signbit(got), np.signbit(want))


@pytest.mark.parametrize("seed", range(4))
def test_coded_by_rank_matches_its_previous_form(seed):
    from irr._statistics import coded_by_rank
    from tests.reference import previous_kernels

    rng = np.random.default_rng(seed)
    for trial in range(12):
        n = int(rng.choice([500, 10_001, 25_000, 90_000]))
        distinct = int(rng.choice([5, 9_000, 10_001, 30_000, 10**6]))
        values = rng.integers(0, distinct, n) / 7.0
        if trial % 3 == 1:
            values[rng.random(n) < 0.3] = np.nan
        if trial % 4 == 2:  # repeats first, new values late
            values = np.sort(values)
        assert coded_by_rank(values) == previous_kernels.coded_by_rank(values)


def _cells_in_order(rng, n, k):
    """Long measurements of every cell of `n` subjects by `k` raters once, in cell order
    (subject, then rater): normal values, about a fifth of them -0.0."""
    subject, rater = np.repeat(np.arange(n), k), np.tile(np.arange(k), n)
    value = rng.normal(size=n * k)
    value[rng.random(n * k) < 0.2] = -0.0
    return subject, rater, value


@pytest.mark.parametrize("seed", range(4))
def test_long_measurements_in_cell_order_match_the_placed_cells(seed):
    """Long measurements of every cell in cell order (reshaped) and in any other order
    (placed, counted) give the wide values and replicate counts of the previous form."""
    from irr._measurements import Measurements
    from tests.reference import previous_kernels

    rng = np.random.default_rng(seed)
    for trial in range(12):
        n, k = int(rng.integers(1, 50)), int(rng.integers(2, 5))
        subject, rater, value = _cells_in_order(rng, n, k)
        if trial % 3 == 1:  # shuffled rows
            order = rng.permutation(n * k)
            subject, rater, value = subject[order], rater[order], value[order]
        elif trial % 3 == 2 and n * k > 1:  # a cell missing
            keep = np.ones(n * k, dtype=bool)
            keep[int(rng.integers(0, n * k))] = False
            subject, rater, value = subject[keep], rater[keep], value[keep]
        m = Measurements(subject, rater, value, tuple(f"r{j}" for j in range(k)),
                         pd.Index(np.arange(n)))
        want = previous_kernels.wide(subject, rater, value, n, k)
        got = m.wide()
        np.testing.assert_array_equal(got, want)
        assert np.array_equal(np.signbit(got), np.signbit(want))
        counts = np.bincount(subject * k + rater, minlength=n * k).reshape(n, k)
        np.testing.assert_array_equal(m.replicates, counts)


@pytest.mark.parametrize("seed", range(3))
def test_long_measurements_in_cell_order_give_every_view_of_the_long_form(seed):
    """Long measurements of every cell once in cell order (held as the columns of the
    subjects x raters layout, codes not kept) and the same rows in another order (the
    long form) give the same long form, sizes, views and sums."""
    from irr._measurements import Measurements

    rng = np.random.default_rng(seed)
    for _ in range(10):
        n, k = int(rng.integers(1, 60)), int(rng.integers(1, 5))
        subject, rater, value = _cells_in_order(rng, n, k)
        raters, subjects = tuple(f"r{j}" for j in range(k)), pd.Index(np.arange(n) * 3)
        ordered = Measurements(subject, rater, value, raters, subjects)
        order = rng.permutation(n * k)
        if n * k > 1 and (order == np.arange(n * k)).all():
            order = order[::-1]
        other = Measurements(subject[order], rater[order], value[order], raters, subjects)
        for got, want in ((ordered.subject, subject), (ordered.rater, rater),
                          (ordered.value, value), (ordered.measured_values(), value)):
            np.testing.assert_array_equal(got, want)
        assert ordered.n_measurements == other.n_measurements == n * k
        assert not ordered.has_replicates
        assert not other.has_replicates or n * k == 1
        np.testing.assert_array_equal(ordered.replicates, other.replicates)
        np.testing.assert_array_equal(ordered.missing_subjects(), other.missing_subjects())
        for got, want in ((ordered.wide(), other.wide()), (ordered.by_rater(), other.by_rater()),
                          *zip(ordered.cell_sums(), other.cell_sums(), strict=True)):
            np.testing.assert_array_equal(got, want)
            assert np.array_equal(np.signbit(got), np.signbit(want))
        if k >= 2:
            for got, want in zip(ordered.pair(0, k - 1), other.pair(0, k - 1), strict=True):
                np.testing.assert_array_equal(got, want)
        # the wide matrix is a fresh array: writing to it leaves the user's values alone
        kept = value.copy()
        ordered.wide()[:] = 7.0
        np.testing.assert_array_equal(value, kept)
        np.testing.assert_array_equal(ordered.wide(), other.wide())
    # a code out of place, a missing cell or a replicate: the long form
    subject, rater = np.repeat(np.arange(3), 2), np.tile(np.arange(2), 3)
    for s, r in ((subject[[1, 0, 2, 3, 4, 5]], rater[[1, 0, 2, 3, 4, 5]]),
                 (subject[:-1], rater[:-1]), (np.r_[subject, 2], np.r_[rater, 1])):
        m = Measurements(s, r, np.arange(len(s), dtype=float), ("a", "b"), pd.Index(range(3)))
        np.testing.assert_array_equal(m.subject, s)
        np.testing.assert_array_equal(m.rater, r)


@pytest.mark.parametrize("seed", range(3))
def test_by_rater_is_wide_transposed(seed):
    """Each rater's row of measurements (nan where none, -0.0 as 0.0), from columns and
    from the long form; check_magnitude reads it as it reads the columns."""
    from irr._measurements import Measurements

    rng = np.random.default_rng(seed)
    for _ in range(10):
        n, k = int(rng.integers(1, 40)), int(rng.integers(1, 5))
        x = rng.normal(size=(n, k))
        x[rng.random(x.shape) < 0.3] = np.nan
        x[rng.random(x.shape) < 0.1] = -0.0
        x[0, 0] = 2.0
        row, col = np.nonzero(~np.isnan(x))
        for m in (Measurements.from_wide(x),
                  Measurements.from_long(row, col, x[row, col], raters=range(k))):
            got = m.by_rater()
            assert got.flags.c_contiguous
            assert got.shape == (k, m.n_subjects)
            np.testing.assert_array_equal(got, m.wide().T)
            assert not np.signbit(got[got == 0]).any()
    m = Measurements.from_wide([[1e120, 2e120], [np.nan, 3e120]])
    for wide in (None, m.by_rater(), m.wide()):
        with pytest.raises(ValueError, match="between 1e-100 and 1e100"):
            m.check_magnitude("The SEM", wide)


def _hostile_column(rng, n):
    """A column of n random and hostile measurements: nan, infinities of both signs,
    values whose sum overflows, the magnitude bounds and just past them, signed zeros, a
    tiny spread; sometimes all missing."""
    big, fine = 2.0**332, 2.0**-332
    specials = [np.nan, np.inf, -np.inf, 1e308, -1e308, big, np.nextafter(big, np.inf),
                -np.nextafter(big, np.inf), 0.0, -0.0, 1.0, 1.0 + fine / 2, 1e-300, 5e-324]
    column = rng.normal(scale=10.0 ** rng.integers(-120, 120), size=n)
    if rng.random() < 0.8:
        at = rng.random(n) < rng.random()
        column[at] = rng.choice(specials, size=int(at.sum()))
    if rng.random() < 0.1:
        column[:] = np.nan
    return column


def _outcome(function, *args, **kwargs):
    """``(None, value)`` of a call that returns, ``(message, None)`` of one that raises a
    ValueError."""
    try:
        return None, function(*args, **kwargs)
    except ValueError as error:
        return str(error), None


@pytest.mark.parametrize("seed", range(4))
def test_column_check_and_magnitude_equal_their_previous_form(seed):
    """from_columns / from_pair check each column by its smallest and largest value, which
    check_magnitude reuses: the missing cells, the ValueError of an infinity (its message)
    and check_magnitude's outcome (its message) are those of the previous form (one sum
    per column; fmin and fmax of every column on each check), on random and hostile
    columns (empty ones too)."""
    from irr._measurements import Measurements
    from tests.reference import previous_kernels

    rng = np.random.default_rng(seed)
    outcomes = []
    for _ in range(400):
        n, k = int(rng.integers(0, 12)), int(rng.integers(1, 4))
        columns = [_hostile_column(rng, n) for _ in range(k)]
        names = [f"m{j}" for j in range(k)]
        error, expected = _outcome(lambda cs, vs: [
            previous_kernels.column_missing(c, f"rater {v!r}")
            for c, v in zip(cs, vs, strict=True)], columns, names)
        got, m = _outcome(Measurements.from_columns, columns, raters=names)
        assert got == error
        if error is not None:
            outcomes.append("infinite")
            continue
        missing = np.column_stack([np.zeros(n, bool) if e is None else e for e in expected])
        np.testing.assert_array_equal(m.replicates == 0, missing)
        error, _ = _outcome(previous_kernels.check_magnitude, columns, "The test")
        got, _ = _outcome(m.check_magnitude, "The test")
        assert got == error
        outcomes.append("checked" if error is None else "magnitude")
        if k == 2:  # from_pair: the same check, the arguments named `x` and `y`
            np.testing.assert_array_equal(Measurements.from_pair(*columns).replicates == 0,
                                          missing)
    assert min(outcomes.count(v) for v in ("infinite", "checked", "magnitude")) > 20


@pytest.mark.parametrize("seed", range(2))
def test_known_extremes_are_each_complete_columns_smallest_and_largest(seed):
    """known_extremes gives a column's smallest and largest value where the column check
    found them (a column without missing values), None otherwise: a column with nan,
    measurements in long form, a rater out of range."""
    from irr._measurements import Measurements

    rng = np.random.default_rng(seed)
    for _ in range(100):
        n, k = int(rng.integers(1, 12)), int(rng.integers(1, 4))
        columns = [_hostile_column(rng, n) for _ in range(k)]
        if any(np.isinf(c).any() for c in columns):
            continue
        m = Measurements.from_columns(columns)
        for j, column in enumerate(columns):
            want = None if np.isnan(column).any() else (column.min(), column.max())
            assert m.known_extremes(j) == want
        assert m.known_extremes(k) is None
    long = Measurements.from_long([0, 0, 1, 1], ["a", "a", "a", "b"], [1.0, 2.0, 3.0, 4.0])
    assert long.known_extremes(0) is None


def test_pair_measurements_number_their_subjects_by_position():
    """from_pair's subjects are the positions 0 .. n - 1 (a RangeIndex, made when first
    read: n_subjects and the views do not need it), before and after pickling, with a
    missing value and with none."""
    import pickle

    from irr._measurements import Measurements

    for x, y in (([1.5, 2.0, 3.5, 4.0], [1.0, np.nan, 3.0, 4.5]), ([], []), ([2.0], [1.0])):
        m = Measurements.from_pair(x, y)
        assert m.n_subjects == len(x)
        assert m.paired()[0].size == np.isfinite(np.asarray(y, float)).sum()
        again = pickle.loads(pickle.dumps(m))
        for got in (again, m):
            assert got.n_subjects == len(x)
            pd.testing.assert_index_equal(got.subjects, pd.RangeIndex(len(x)), exact=True)
            assert got.subjects is got.subjects  # made once
        np.testing.assert_array_equal(again.wide(), m.wide())


def test_measurements_pickled_without_their_newer_attributes_still_load():
    """A pickle made before the layout and the columns' extremes were kept (their state
    without ``_layout`` and ``_extremes``) loads and gives the same views and checks."""
    import pickle

    from irr._measurements import Measurements

    rng = np.random.default_rng(4)
    n, k = 12, 3
    subject, rater = np.repeat(np.arange(n), k), np.tile(np.arange(k), n)
    value = rng.normal(10, 2, n * k)
    raters, subjects = ("a", "b", "c"), pd.Index(np.arange(n))
    for m in (Measurements(subject, rater, value, raters, subjects),
              Measurements.from_columns(list(value.reshape(n, k).T), raters, subjects)):
        state = dict(m.__dict__)
        del state["_layout"], state["_extremes"]
        old = Measurements.__new__(Measurements)
        old.__setstate__(state)
        again = pickle.loads(pickle.dumps(old))
        for got in (old, again):
            np.testing.assert_array_equal(got.wide(), m.wide())
            got.check_magnitude("The ICC")


@pytest.mark.parametrize("seed", range(3))
def test_measurements_from_layout_are_the_long_measurements_in_cell_order(seed):
    """A subjects x raters layout held as it is gives what its long form in cell order
    gives; a wrong shape or a value that is not finite is a ValueError."""
    from irr._measurements import Measurements

    rng = np.random.default_rng(seed)
    for trial in range(8):
        n, k = int(rng.integers(1, 60)), int(rng.integers(1, 5))
        layout = rng.normal(size=(n, k))
        layout[rng.random((n, k)) < 0.2] = -0.0
        if trial % 2:
            layout = np.asfortranarray(layout)  # held as it is, whatever its order
        raters, subjects = tuple(f"r{j}" for j in range(k)), pd.Index(np.arange(n) * 2)
        got = Measurements.from_layout(layout, list(raters), subjects)
        want = Measurements(np.repeat(np.arange(n), k), np.tile(np.arange(k), n),
                            layout.reshape(-1).copy(), raters, subjects)
        assert (got.raters, got.n_measurements, got.has_replicates) == (
            want.raters, want.n_measurements, want.has_replicates)
        assert got.subjects is subjects
        assert_same_views(got, want, ("measured_values",))
        assert got.wide().flags.c_contiguous
        if k >= 2:
            pairs = got.pair(0, k - 1), want.pair(0, k - 1)
            for a, b in zip(*pairs, strict=True):
                np.testing.assert_array_equal(a, b)
            assert np.shares_memory(pairs[0][0], layout)  # held as it is, not copied
    with pytest.raises(ValueError, match="shape"):
        Measurements.from_layout(np.ones((3, 2)), ["a", "b"], pd.Index(range(2)))
    for bad in (np.nan, np.inf):
        with pytest.raises(ValueError, match="finite"):
            Measurements.from_layout(np.array([[1.0, bad], [2.0, 3.0]]), ["a", "b"],
                                     pd.Index(range(2)))


# -- two methods' vectors: pandas labels pair the subjects -----------------------------------
TWO_METHOD_SHORTCUTS = {
    "deming": lambda x, y: irr.deming(x, y),
    "passing_bablok": lambda x, y: irr.passing_bablok(x, y),
    "concordance": lambda x, y: irr.concordance(x, y),
    "limits_of_agreement": lambda x, y: irr.limits_of_agreement(x, y),
}


def _numbers(result):
    """The result's estimate and interval limits (the limits of agreement too)."""
    values = [result.estimate, *result.ci]
    for name in ("lower", "upper", "intercept"):
        if hasattr(result, name):
            values.append(getattr(result, name))
    return values


@pytest.mark.parametrize("shortcut", sorted(TWO_METHOD_SHORTCUTS))
def test_two_series_are_paired_by_their_index_labels(shortcut):
    """Two Series of the same patients in different orders (a sorted frame's column beside
    an unsorted one): each patient's pair, never the pair of positions; labels that
    differ are refused by name."""
    call = TWO_METHOD_SHORTCUTS[shortcut]
    df = _bp(60, missing=(3, 50))
    lab = df.set_index("patient")["nurse_a"]
    device = df.set_index("patient")["nurse_b"]
    shuffled = device.sample(frac=1, random_state=4)
    assert not shuffled.index.equals(device.index)
    expected = _numbers(call(lab.to_numpy(), device.to_numpy()))
    got = _numbers(call(lab, shuffled))
    np.testing.assert_allclose(got, expected, rtol=1e-12, atol=1e-12)
    with pytest.raises(ValueError, match=r"index labels of `y` and `x` differ"):
        call(lab, device.rename(index=lambda p: p + 1000))


def test_a_series_pair_names_its_subjects_by_label():
    x = pd.Series([120.5, 131.0, 99.5], index=["p7", "p3", "p9"], name="lab")
    y = pd.Series([101.0, 118.0, 130.0], index=["p9", "p7", "p3"], name="device")
    from irr._measurements import Measurements

    m = Measurements.from_pair(x, y)
    assert m.subjects.tolist() == ["p7", "p3", "p9"]
    assert m.paired()[1].tolist() == [118.0, 130.0, 101.0]
    # a Series beside an array: by position, the Series' labels naming the subjects
    m = Measurements.from_pair(x, y.to_numpy())
    assert m.paired()[1].tolist() == [101.0, 118.0, 130.0]
