"""Unit tests: multi-rater inputs, coefficients, summaries and bad input."""

import math

import numpy as np
import pandas as pd
import pytest

import irr
from irr import registry
from irr.coefficients.weight_schemes import gwet_weights
from irr.estimators import chance_corrected

DIAG = irr.datasets.load("diagnoses")
RAW = irr.datasets.load("cac_raw4raters")


# -- inputs ------------------------------------------------------------------------------
def test_from_frame_any_number_of_raters():
    ag = irr.Agreement.from_frame(DIAG)
    assert (ag.n_subjects, ag.n_raters, len(ag.categories)) == (30, 6, 5)
    assert ag.raters == tuple(DIAG.columns)


def test_from_long_pivots_and_keeps_categorical_dtype():
    long = DIAG.assign(subject=np.arange(30)).melt(
        id_vars="subject", var_name="who", value_name="dx"
    )
    assert isinstance(long["dx"].dtype, pd.CategoricalDtype)
    long = long.iloc[::-1]  # order of rows must not matter
    ag = irr.Agreement.from_long(long, subject="subject", rater="who", rating="dx")
    assert ag.n_subjects == 30
    assert list(ag.categories) == list(DIAG["rater1"].cat.categories)
    assert ag.fleiss_kappa().estimate == pytest.approx(
        irr.Agreement.from_frame(DIAG).fleiss_kappa().estimate, abs=1e-15
    )


def test_from_long_unrated_pairs_are_missing():
    long = pd.DataFrame({"s": [1, 1, 2, 2, 2, 3, 3], "r": list("abab" "cab"),
                         "y": [1, 1, 2, 2, 1, 1, 2]})
    ag = irr.Agreement.from_long(long, subject="s", rater="r", rating="y")
    assert ag.raters == ("a", "b", "c")
    assert ag.n_missing == 2
    res = ag.fleiss_kappa()
    assert res.n_subjects == 3
    assert res.n_paired == 3
    assert math.isnan(res.se0)  # raters per subject vary
    assert any("raters per subject vary" in n for n in res.notes)


def test_from_array():
    x = np.array([[1, 1, 2], [2, 2, 2], [3, 3, 3], [1, 2, np.nan]])
    ag = irr.Agreement.from_array(x, raters=["a", "b", "c"])
    assert ag.raters == ("a", "b", "c")
    assert ag.n_missing == 1
    assert list(ag.categories) == [1, 2, 3]


def test_from_counts_matches_raw_data():
    ag = irr.Agreement.from_frame(RAW)
    counts = ag.statistics.count_patterns
    patterns, multiplicity = counts.patterns, counts.multiplicity
    assert multiplicity.sum() == 12
    rows = np.repeat(patterns, multiplicity.astype(int), axis=0)
    counts = pd.DataFrame(rows, columns=list(ag.categories))
    from_counts = irr.Agreement.from_counts(counts)
    assert list(from_counts.categories) == [1, 2, 3, 4, 5]
    assert from_counts.n_subjects == 12
    assert from_counts.n_raters == 4
    assert from_counts.raters == ()
    for method in ("fleiss_kappa", "gwet_ac", "brennan_prediger", "percent_agreement",
                   "scott_pi"):
        a, b = getattr(ag, method)(), getattr(from_counts, method)()
        assert (a.estimate, a.se) == pytest.approx((b.estimate, b.se), abs=1e-15)


@pytest.mark.parametrize("method", ["conger_kappa", "light_kappa", "pairwise"])
def test_from_counts_refuses_rater_coefficients(method):
    ag = irr.Agreement.from_counts([[2, 1], [3, 0], [1, 2]])
    with pytest.raises(ValueError, match=r"built from subject x category counts.*fleiss_kappa"):
        getattr(ag, method)()
    # counts carry no rater identities (issue 15: not "this Agreement has 3 ()")
    with pytest.raises(ValueError, match="kappa needs to know which rater gave which rating"):
        ag.kappa()


def test_from_table_supports_multirater_coefficients():
    table = np.array([[10, 4, 1], [5, 10, 12], [2, 4, 12]])
    codes = np.array([(i, j) for i in range(3) for j in range(3) for _ in range(table[i, j])])
    a = irr.Agreement.from_table(table)
    b = irr.Agreement(codes[:, 0], codes[:, 1])
    for method in ("fleiss_kappa", "gwet_ac", "conger_kappa", "light_kappa",
                   "brennan_prediger"):
        ra, rb = getattr(a, method)(), getattr(b, method)()
        assert (ra.estimate, ra.se) == pytest.approx((rb.estimate, rb.se), abs=1e-14)


# -- missing ratings ---------------------------------------------------------------------
def test_subject_with_no_rating_is_left_out_and_counted():
    frame = RAW.copy()
    frame.loc[len(frame)] = np.nan
    res = irr.Agreement.from_frame(frame).fleiss_kappa()
    ref = irr.Agreement.from_frame(RAW).fleiss_kappa()
    assert res.estimate == ref.estimate
    assert res.se == ref.se
    assert res.n_subjects == 12
    assert res.n_missing == 1
    assert "1 subject(s) with no rating were left out." in res.notes
    assert "1 subject(s) with a single rating enter the chance agreement only." in res.notes
    assert any(n.startswith("Missing ratings (Gwet 2014)") for n in res.notes)


def test_light_leaves_out_subjects_with_fewer_than_two_ratings():
    res = irr.Agreement.from_frame(RAW).light_kappa()
    assert res.n_subjects == 11
    assert res.n_missing == 1


# -- coefficients ------------------------------------------------------------------------
def test_fleiss_result_fields_and_frame():
    res = irr.Agreement.from_frame(DIAG).fleiss_kappa()
    assert isinstance(res, irr.Result)
    assert res.coefficient == "Fleiss' kappa"
    assert res.statistic == pytest.approx(res.estimate / res.se0)
    row = res.to_dict()
    assert {"observed_agreement", "expected_agreement", "se0", "n_paired"} <= set(row)
    both = pd.concat([res.to_frame(), irr.Agreement.from_frame(DIAG).gwet_ac().to_frame()])
    assert list(both.index) == ["Fleiss' kappa", "Gwet's AC1"]
    assert res.per_category.shape == (5, 6)


def test_weighted_fleiss_has_no_per_category_and_no_null_se():
    res = irr.Agreement.from_frame(RAW).fleiss_kappa("quadratic")
    assert res.per_category is None
    assert math.isnan(res.se0)
    assert res.coefficient == "Fleiss' kappa (quadratic)"
    assert res.statistic == pytest.approx(res.estimate / res.se)


def test_gwet_names_ac1_and_ac2():
    ag = irr.Agreement.from_frame(RAW)
    assert ag.gwet_ac().coefficient == "Gwet's AC1"
    assert ag.gwet_ac("ordinal").coefficient == "Gwet's AC2 (ordinal)"
    for scheme in ("linear", "quadratic", "ordinal", "radical", "ratio", "circular",
                   "bipolar"):
        assert -1 <= ag.gwet_ac(scheme).estimate <= 1


def test_scott_pi_is_fleiss_kappa():
    ag = irr.Agreement.from_frame(DIAG)
    assert ag.scott_pi().estimate == ag.fleiss_kappa().estimate
    assert ag.scott_pi().coefficient == "Scott's pi"


def test_percent_agreement_tolerance():
    ag = irr.Agreement.from_frame(RAW)
    exact, loose = ag.percent_agreement(), ag.percent_agreement(tolerance=1)
    assert exact.estimate == pytest.approx(0.8181818, abs=5e-8)
    assert loose.estimate > exact.estimate
    assert math.isnan(loose.statistic)
    assert loose.bounds == (0.0, 1.0)
    two = irr.Agreement([1, 2, 3, 4], [2, 2, 4, 1])
    assert two.percent_agreement().estimate == 0.25
    assert two.percent_agreement(tolerance=1).estimate == 0.75
    assert isinstance(two.percent_agreement(), irr.ProportionResult)


def test_degenerate_data_warn_and_give_nan():
    ag = irr.Agreement.from_array(np.ones((5, 3), dtype=int), categories=[1, 2])
    with pytest.warns(irr.DegenerateDataWarning, match="p_e is 1"):
        res = ag.fleiss_kappa()
    assert math.isnan(res.estimate)
    assert math.isnan(res.ci.low)
    ag = irr.Agreement.from_array(np.ones((5, 3), dtype=int))
    with pytest.warns(irr.DegenerateDataWarning, match="only one category"):
        assert math.isnan(ag.gwet_ac().estimate)


def test_pairwise_matrix():
    ag = irr.Agreement.from_frame(DIAG)
    matrix = ag.pairwise()
    assert matrix.shape == (6, 6)
    assert list(matrix.index) == list(ag.raters)
    assert np.allclose(matrix.to_numpy(), matrix.to_numpy().T)
    pa = ag.pairwise("percent_agreement")
    assert pa.iloc[0, 1] == pytest.approx(
        (DIAG["rater1"] == DIAG["rater2"]).mean(), abs=1e-15
    )


# -- weights -----------------------------------------------------------------------------
# irrCAC 1.0 weighting vignette, printed matrices for categories 1:3.
@pytest.mark.parametrize(
    ("scheme", "off1", "off2"),
    [("radical", 0.2928932, 0.0), ("ordinal", 0.6666667, 0.0), ("linear", 0.5, 0.0),
     ("quadratic", 0.75, 0.0), ("circular", 0.0, 0.0), ("bipolar", 0.6666667, 0.0)],
)
def test_gwet_weight_schemes(scheme, off1, off2):
    w = gwet_weights(scheme, 3, np.array([1.0, 2.0, 3.0]))
    assert np.allclose(np.diag(w), 1.0)
    assert w[0, 1] == pytest.approx(off1, abs=5e-8)
    assert w[1, 2] == pytest.approx(off1, abs=5e-8)
    assert w[0, 2] == pytest.approx(off2, abs=1e-12)


def test_ratio_weights():
    w = gwet_weights("ratio", 3, np.array([1.0, 2.0, 3.0]))
    # 1 - ((x_k - x_l) / (x_k + x_l))^2 / ((3 - 1) / (3 + 1))^2
    assert w[0, 1] == pytest.approx(1 - (1 / 3) ** 2 / 0.25)
    assert w[0, 2] == pytest.approx(0.0)


# -- summaries ---------------------------------------------------------------------------
def test_multirater_summary_rows():
    text = irr.Agreement.from_frame(DIAG).summary().as_text()
    assert text.splitlines()[0].strip() == "Agreement among 6 raters"
    for name in ("Percent agreement", "Fleiss' kappa", "Conger's kappa", "Light's kappa",
                 "Gwet's AC1", "Brennan-Prediger"):
        assert any(line.startswith(name) for line in text.splitlines()), name
    assert "n(n - 1)" in text


def test_counts_summary_has_only_count_rows():
    text = irr.Agreement.from_counts([[2, 1], [3, 0], [1, 2]]).summary().as_text()
    assert "Conger" not in text
    assert "Light" not in text
    assert "Fleiss' kappa" in text


def test_summary_rows_are_one_line_to_add(monkeypatch):
    panels = dict(registry.PANELS)
    panels["summary"] = (*panels["summary"], registry.Row("scott_pi", needs=frozenset({"multi"})))
    monkeypatch.setattr(registry, "PANELS", panels)
    text = irr.Agreement.from_frame(DIAG).summary().as_text()
    assert any(line.startswith("Scott's pi") for line in text.splitlines())


def test_two_rater_summary_unchanged():
    text = irr.Agreement.from_frame(irr.datasets.load("vision")).summary().as_text()
    assert text.splitlines()[0].strip() == "Agreement between r.eye and l.eye"
    assert next(line for line in text.splitlines() if line.startswith("Cohen")) == (
        "Cohen's kappa                  0.5954     0.0073     84.581    <0.0001       0.581"
        "       0.610       Wald"
    )


# -- bad input ---------------------------------------------------------------------------
LONG = pd.DataFrame({"s": [1, 1, 2, 2], "r": ["a", "b", "a", "b"], "y": [1, 2, 1, 1]})


def _one_subject():
    """Two subjects, only one of them rated more than once."""
    return irr.Agreement.from_array([[1, 2, 1], [3, np.nan, np.nan]])


BAD = [
    (lambda: irr.Agreement.from_array([[1, 2, 1]]), ValueError,
     r"`rater1` has a single subject; agreement needs at least two"),
    (lambda: irr.Agreement.from_frame(RAW, ["Rater1"]), ValueError,
     r"`raters` must name at least two columns; got \['Rater1'\]"),
    (lambda: irr.Agreement.from_frame(RAW, ["Rater1", "nope"]), ValueError,
     r"`raters` names columns not in `df`: \['nope'\]"),
    (lambda: irr.Agreement.from_array([[1], [2]]), ValueError,
     r"`x` must have at least two columns \(raters\); got shape \(2, 1\)"),
    (lambda: irr.Agreement.from_array([1, 2, 3]), ValueError, "`x` must be 2-D"),
    (lambda: irr.Agreement.from_array(RAW), TypeError, "use Agreement.from_frame"),
    (lambda: irr.Agreement.from_array([[1, 2]], raters=["a"]), ValueError,
     "`raters` must give 2 distinct names"),
    (lambda: irr.Agreement.from_long(LONG, subject="s", rater="r", rating="nope"),
     ValueError, r"`rating` must name a column of `df`; got 'nope'"),
    (lambda: irr.Agreement.from_long(LONG, subject="s", rater="s", rating="y"),
     ValueError, "three different columns"),
    (lambda: irr.Agreement.from_long(LONG.assign(r="a").iloc[::2], subject="s", rater="r",
                                     rating="y"),
     ValueError, "at least two raters"),
    (lambda: irr.Agreement.from_long(pd.concat([LONG, LONG.iloc[[1]]]), subject="s",
                                     rater="r", rating="y"),
     ValueError, r"more than once: \[\(1, 'b'\)\]"),
    (lambda: irr.Agreement.from_long(LONG.assign(s=[1, None, 2, 2]), subject="s", rater="r",
                                     rating="y"),
     ValueError, "`subject` column 's' has missing labels"),
    (lambda: irr.Agreement.from_long(LONG.to_numpy(), subject="s", rater="r", rating="y"),
     TypeError, "`df` must be a pandas DataFrame; got ndarray"),
    (lambda: irr.Agreement.from_counts([[1, 0], [0, 1]]), ValueError,
     "at most one rating per subject"),
    (lambda: irr.Agreement.from_counts([[1, -2], [0, 3]]), ValueError,
     r"`counts` has negative entries: \[-2\]"),
    (lambda: irr.Agreement.from_counts([[1.5, 2], [0, 3]]), ValueError,
     r"`counts` has non-integer entries: \[1.5\]"),
    (lambda: irr.Agreement.from_counts([["a", "b"]]), TypeError, "numeric counts"),
    (lambda: irr.Agreement.from_counts([1, 2, 3]), ValueError, "must be 2-D"),
    (lambda: irr.Agreement.from_counts([[1, 2]], categories=["x"]), ValueError,
     "`categories` must have 2 labels"),
    (lambda: _one_subject().fleiss_kappa(), ValueError,
     "needs at least two subjects with two or more ratings; these data have 1"),
    (lambda: _one_subject().percent_agreement(), ValueError, "at least two subjects"),
    (lambda: irr.Agreement.from_frame(DIAG).gwet_ac("linear"), ValueError,
     "needs ordered categories with scores"),
    (lambda: irr.Agreement.from_frame(RAW).gwet_ac("cubic"), ValueError,
     r"`weights` must be None, one of .*'bipolar'.*; got 'cubic'"),
    (lambda: irr.Agreement.from_array([[-1, 0], [1, 1], [0, 0]]).gwet_ac("ratio"),
     ValueError, "non-negative category scores; the smallest is -1"),
    (lambda: irr.Agreement.from_frame(RAW).percent_agreement(tolerance=-1), ValueError,
     "`tolerance` must be a finite non-negative number; got -1.0"),
    (lambda: irr.Agreement.from_frame(RAW).percent_agreement(tolerance="1"), TypeError,
     "`tolerance` must be a non-negative number; got '1'"),
    (lambda: irr.Agreement.from_frame(DIAG).percent_agreement(tolerance=1), ValueError,
     r"`tolerance` must be 0 for unordered categories \(got 1\)"),
    (lambda: irr.Agreement.from_frame(RAW).pairwise("alpha"), ValueError,
     "`statistic` must be one of 'kappa'"),
    (lambda: irr.Agreement.from_frame(RAW).fleiss_kappa(alternative="bigger"), ValueError,
     "`alternative` must be one of"),
    (lambda: irr.Agreement.from_frame(RAW).conger_kappa(confidence_level=2), ValueError,
     "`confidence_level` must be in"),
    (lambda: irr.Agreement.from_array([[1, 2, np.nan], [1, np.nan, 2], [2, 2, np.nan]])
     .light_kappa(), ValueError, r"share none: \[\('rater2', 'rater3'\)\]"),
]


@pytest.mark.parametrize(("call", "error", "message"), BAD)
def test_bad_input(call, error, message):
    with pytest.raises(error, match=message):
        call()


@pytest.mark.parametrize(
    "coefficient",
    ["fleiss_kappa", "scott_pi", "gwet_ac", "brennan_prediger", "percent_agreement",
     "conger_kappa", "light_kappa"],
)
def test_bootstrap_kernel_reproduces_the_estimate(coefficient):
    ag = irr.Agreement.from_frame(RAW)
    stats = ag.statistics
    patterns, multiplicity = stats.patterns, stats.multiplicity
    statistic = chance_corrected.statistic(stats, coefficient, np.eye(stats.n_categories))
    assert len(patterns) == len(multiplicity) <= 12
    rng = np.random.default_rng(1)
    batch = rng.multinomial(int(multiplicity.sum()), multiplicity / multiplicity.sum(), 50)
    values = statistic(np.vstack([multiplicity, batch]))
    assert values.shape == (51,)
    assert values[0] == pytest.approx(getattr(ag, coefficient)().estimate, abs=1e-14)


# -- coefficients on counts from the fine patterns' cells ----------------------------------
@pytest.mark.parametrize("seed", range(5))
def test_counts_coefficients_on_fine_cells_match_their_previous_form(seed):
    """Fleiss, Gwet, Brennan-Prediger, percent agreement, the per-category and null
    variances and Conger's kappa from the fine patterns' cells equal their values on the
    distinct count rows (the previous form), with missing ratings and weights."""
    from irr.coefficients import chance_corrected as cc
    from irr.weights import agreement_weights
    from tests.reference import previous_kernels

    rng = np.random.default_rng(seed)
    for trial in range(6):
        n, m, k = int(rng.integers(20, 400)), int(rng.integers(2, 7)), int(rng.integers(2, 40))
        truth = rng.integers(0, k, n)
        x = np.where(rng.random((n, m)) < 0.5, truth[:, None], rng.integers(0, k, (n, m)))
        x = x.astype(float)
        if trial % 2:
            x[rng.random(x.shape) < 0.15] = np.nan
        stats = irr.Agreement.from_array(x, categories=range(k)).statistics
        if trial % 3 == 2:
            stats = stats.listwise()
        cells = chance_corrected._cells(stats)
        old, old_mult = previous_kernels.count_pattern_entries(stats)
        w = np.eye(k) if trial < 3 else agreement_weights("quadratic", k, np.arange(k, dtype=float))
        for method in ("fleiss", "gwet", "brennan_prediger", "percent"):
            got = cc.counts_estimate(cells, stats.multiplicity, w, method)
            want = cc.counts_estimate(old, old_mult, w, method)
            np.testing.assert_allclose(
                [got.estimate, got.observed, got.expected, got.variance],
                [want.estimate, want.observed, want.expected, want.variance],
                rtol=1e-12, atol=1e-14)
            assert (got.n_subjects, got.n_paired) == (want.n_subjects, want.n_paired)
        for got, want in zip(cc.fleiss_category_kappas(cells, stats.multiplicity),
                             cc.fleiss_category_kappas(old, old_mult), strict=True):
            np.testing.assert_allclose(got, want, rtol=1e-12, atol=1e-14)
        got0, want0 = (cc.fleiss_null_variance(cells, stats.multiplicity),
                       cc.fleiss_null_variance(old, old_mult))
        np.testing.assert_allclose(got0[0], want0[0], rtol=1e-12)
        np.testing.assert_allclose(got0[1], want0[1], rtol=1e-12)
        codes = chance_corrected._codes(stats)
        mult = stats.multiplicity.astype(float)
        got = cc.conger_estimate(codes, mult, w, cells)
        want = cc.conger_estimate(codes, mult, w)
        np.testing.assert_allclose([got.estimate, got.variance], [want.estimate, want.variance],
                                   rtol=1e-12, atol=1e-14)


def test_coefficients_on_counts_build_no_count_rows_until_a_bootstrap_is_drawn():
    """The default (Wald) call leaves the distinct count rows unbuilt; a bootstrap interval
    draws the same resamples as ever (the recipe built when drawn)."""
    ag = irr.Agreement.from_frame(RAW)
    for name in ("fleiss_kappa", "gwet_ac", "brennan_prediger", "conger_kappa"):
        fresh = irr.Agreement.from_frame(RAW)
        getattr(fresh, name)()
        assert "count_patterns" not in fresh.statistics.__dict__
    boot = ag.fleiss_kappa(ci="percentile", n_resamples=300, rng=1)
    stats = ag.statistics
    w = np.eye(stats.n_categories)
    from irr.inference.options import InferenceOptions

    options = InferenceOptions.from_keywords(ci="percentile", n_resamples=300, rng=1)
    eager = chance_corrected._built_recipe(stats, "fleiss_kappa", w, options, ag._plan())()
    np.testing.assert_array_equal(boot.bootstrap.replicates, eager.replicates)
