"""PABAK, Maxwell's RE, specific agreement, category-wise kappa, Bhapkar, rater bias:
arguments, degenerate data, missing ratings, bootstrap, output."""

import pickle
import re

import numpy as np
import pandas as pd
import pytest

import irr

VISION = irr.datasets.load("vision")


@pytest.fixture
def binary():
    a = [1, 1, 0, 0, 1, 0, 1, 1, 0, 1, None, 1]
    b = [1, 0, 0, 1, 1, 0, 1, 1, 1, 1, 1, None]
    return irr.Agreement(a, b, names=["ann", "bob"])


# -- bad arguments ------------------------------------------------------------------------
def test_maxwell_refuses_more_than_two_categories():
    with pytest.raises(ValueError, match=r"binary ratings.*4"):
        irr.Agreement.from_frame(VISION).maxwell_re()


@pytest.mark.parametrize("method", ["pabak", "specific_agreement"])
def test_positive_needs_two_categories_and_a_known_label(method, binary):
    with pytest.raises(ValueError, match=r"`positive`.*two categories"):
        getattr(irr.Agreement.from_frame(VISION), method)(positive="1st grade")
    with pytest.raises(ValueError, match="`positive` must be one of the categories"):
        getattr(binary, method)(positive=7)


def test_unknown_category(binary):
    with pytest.raises(ValueError, match="`category` must be one of the categories"):
        binary.specific_agreement(category="yes")
    with pytest.raises(ValueError, match="`category`"):
        binary.category_kappa(category=3)


def test_two_rater_statistics_refuse_three_raters():
    ag = irr.Agreement.from_frame(irr.datasets.load("video"))
    for method in ("pabak", "specific_agreement", "category_kappa", "bhapkar_test",
                   "rater_bias"):
        with pytest.raises(ValueError, match=r"two raters|exactly 2"):
            getattr(ag, method)()


def test_bad_ci(binary):
    with pytest.raises(ValueError, match="`ci`"):
        binary.pabak(ci="exact")
    with pytest.raises(ValueError, match="`ci`"):
        binary.specific_agreement(ci="wilson")


# -- missing ratings -----------------------------------------------------------------------
def test_missing_ratings_are_left_out_and_counted(binary):
    for res in (binary.pabak(), binary.specific_agreement(), binary.category_kappa(),
                binary.rater_bias(), binary.bhapkar_test()):
        assert res.n_subjects == 10
        assert res.n_missing == 2
    assert binary.pabak().estimate == pytest.approx(2 * 0.7 - 1)
    assert "2 subject(s) with a missing rating" in binary.pabak().summary().as_text()


# -- degenerate data -----------------------------------------------------------------------
def test_rater_bias_without_disagreements_is_nan_with_a_warning():
    with pytest.warns(irr.DegenerateDataWarning, match="never disagree"):
        res = irr.rater_bias([[5, 0], [0, 5]])
    assert np.isnan(res.estimate)
    assert np.isnan(res.statistic)


def test_bhapkar_singular_covariance_is_nan_with_a_warning():
    # every subject a disagreement in one direction: Stuart-Maxwell = 5^2 / 5 = n
    with pytest.warns(irr.DegenerateDataWarning, match="singular"):
        res = irr.bhapkar_test([[0, 5], [0, 0]])
    assert np.isnan(res.statistic)
    assert irr.stuart_maxwell_test([[0, 5], [0, 0]]).statistic == pytest.approx(5.0)
    assert irr.bhapkar_test([[3, 4], [0, 3]]).statistic == pytest.approx(4 / (1 - 4 / 10))


def test_bhapkar_without_disagreements():
    res = irr.bhapkar_test([[5, 0], [0, 5]])
    assert (res.statistic, res.df, res.pvalue) == (0.0, 0.0, 1.0)


def test_unused_category_gives_nan_specific_agreement_with_a_warning():
    ag = irr.Agreement([1, 2, 2, 1], [1, 2, 1, 1], categories=[1, 2, 3])
    with pytest.warns(irr.DegenerateDataWarning, match="neither rater used"):
        res = ag.specific_agreement()
    assert np.isnan(res[3].estimate)
    assert res[1].estimate == pytest.approx(2 * 2 / (2 + 3))  # n11 = 2, n1. = 2, n.1 = 3


def test_category_kappa_undefined_when_one_side_only():
    ag = irr.Agreement([1, 1, 2, 2], [1, 1, 2, 2], categories=[1, 2, 3])
    with pytest.warns(irr.DegenerateDataWarning):
        res = ag.category_kappa()
    assert np.isnan(res[3].estimate)
    assert res[1].estimate == pytest.approx(1.0)


# -- inference ------------------------------------------------------------------------------
def test_bootstrap_intervals_are_reproducible(binary):
    first = binary.pabak(ci="percentile", n_resamples=500)
    again = binary.pabak(ci="percentile", n_resamples=500)
    assert first.ci.method == "percentile"
    assert (first.ci.low, first.ci.high) == (again.ci.low, again.ci.high)
    # PABAK replicates are 2 x the percent agreement's (same seed, same subjects)
    po = binary.percent_agreement(ci="percentile", n_resamples=500)
    np.testing.assert_allclose(first.bootstrap.replicates, 2 * po.bootstrap.replicates - 1)
    assert first.conf_int(method="wilson").method == "wilson"


def test_specific_agreement_bootstrap_by_category():
    ag = irr.Agreement.from_frame(VISION)
    res = ag.specific_agreement(category="2nd grade", ci="bca", n_resamples=400)
    assert res.ci.method == "bca"
    assert res.ci.low < res.estimate < res.ci.high
    one = ag.category_kappa(category="2nd grade", ci="percentile", n_resamples=400)
    assert one.ci.low < one.estimate < one.ci.high
    assert one.estimate == pytest.approx(ag.category_kappa()["2nd grade"].estimate)


def test_results_pickle_and_draw_after(binary):
    res = pickle.loads(pickle.dumps(binary.specific_agreement(category=1)))
    assert np.isfinite(res.conf_int(method="percentile").low)


# -- output --------------------------------------------------------------------------------
def test_report_sentences_name_the_statistic(binary):
    assert binary.pabak().report().startswith("Agreement between ann and bob was")
    assert "PABAK = .40" in binary.pabak().report()
    text = binary.specific_agreement().report()
    assert "positive agreement (1) was" in text
    assert "negative agreement (0) was" in text
    bias = binary.rater_bias().report()
    assert "Rater bias between ann and bob" in bias
    # disagreements (ann, bob): (1, 0) once, (0, 1) twice: ann lower in 2 of 3
    assert "share of disagreements with ann lower = .67" in bias


def test_frames_have_one_row_per_category():
    ag = irr.Agreement.from_frame(VISION)
    frame = ag.category_kappa().to_frame()
    assert list(frame.index) == ["Cohen's kappa (overall)", *(
        f"Kappa ({c} vs rest)" for c in ag.categories)]
    assert frame.loc["Cohen's kappa (overall)", "estimate"] == pytest.approx(
        ag.kappa().estimate)
    text = ag.specific_agreement().summary().as_text()
    assert text.count("Specific agreement of category j") == 1  # notes printed once


def test_by_and_accessor():
    df = VISION.assign(site=["a", "b"] * 3738 + ["a"])
    out = irr.by(df, "site", statistic="pabak")
    assert list(out["coefficient"]) == ["PABAK", "PABAK"]
    whole = df.irr.pabak(raters=["r.eye", "l.eye"])
    assert whole.estimate == pytest.approx(
        irr.Agreement.from_frame(VISION).brennan_prediger().estimate)
    out = irr.by(df, "site", statistic="specific_agreement", category="1st grade")
    assert list(out["coefficient"]) == ["Specific agreement (1st grade)"] * 2
    frame = pd.DataFrame({"a": [1, 0, 1, 1], "b": [1, 0, 0, 1]})
    assert frame.irr.maxwell_re().estimate == 0.5


def test_rater_bias_needs_ordered_categories_beyond_two():
    a, b = ["x", "y", "z", "x"], ["y", "y", "x", "z"]
    with pytest.raises(TypeError, match="ordered categories"):
        irr.rater_bias(a, b)
    with pytest.raises(TypeError, match="ordered categories"):
        irr.Agreement(a, b).rater_bias()
    res = irr.rater_bias(a, b, categories=["x", "y", "z"])  # declared order: x < y < z
    assert res.estimate == pytest.approx(2 / 3)  # x<y, z>x, x<z
    assert irr.rater_bias(["x", "y"], ["y", "y"]).estimate == 1.0  # two categories: fine


def test_reports_take_the_new_statistics_by_name():
    ag = irr.Agreement.from_frame(VISION)
    text = irr.report(ag, statistics="pabak,specific_agreement,category_kappa").render("text")
    assert "Kappa (2nd grade vs rest)" in text
    assert "specific agreement (1st grade) was .78" in text
    assert "PABAK, specific agreement, and category-wise κ" in " ".join(text.split())
    anxiety = irr.Agreement.from_frame(irr.datasets.load("anxiety"))
    text = irr.report(anxiety, statistics="robinson,finn,mean_spearman").render("text")
    assert "Robinson's A" in text
    assert "Finn's coefficient (oneway)" in text


def test_category_kappa_overall_row_is_banded_like_cohens_kappa():
    # the overall row is Cohen's kappa: interpret() and the bands table as ag.kappa(),
    # not "has no default benchmark scale" and a missing band
    ag = irr.Agreement.from_frame(irr.datasets.load("vision"))
    res = ag.category_kappa()
    assert res.estimate == pytest.approx(ag.kappa().estimate, rel=1e-12)
    assert str(res.interpret()) == str(ag.kappa().interpret()) == "moderate"  # 0.5954
    bands = res.summary().as_text().split("band ")[1]
    assert re.search(r"\nCohen's kappa \(overall\)\s+moderate\s", bands)
    # specific agreement's overall row is a percent agreement: no Landis-Koch band
    assert ag.specific_agreement().scale is None
    assert "band" not in ag.specific_agreement().summary().as_text()
