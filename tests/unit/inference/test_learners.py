"""Comparing learners and the bias-variance decomposition (irr.inference.learners), against
scipy, statsmodels and the formulas written out here (Dietterich 1998; Zhou 2016,
eqs. 2.31, 2.34, 2.41)."""

import numpy as np
import pandas as pd
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from hypothesis.extra.numpy import arrays
from scipy import stats

import irr

rates = st.integers(2, 12).flatmap(
    lambda k: st.tuples(arrays(float, k, elements=st.floats(0, 1)),
                        arrays(float, k, elements=st.floats(0, 1))))


@pytest.mark.filterwarnings("ignore::irr.DegenerateDataWarning")
@settings(max_examples=80, deadline=None)
@given(rates, st.sampled_from(["two-sided", "greater", "less"]))
def test_paired_ttest_matches_scipy(ab, alternative):
    a, b = ab
    res = irr.paired_ttest(a, b, alternative=alternative)
    d = a - b
    if not d.std() > 1e-12 * max(1.0, abs(d).max()):
        return
    ref = stats.ttest_rel(a, b, alternative=alternative)
    assert res.statistic == pytest.approx(ref.statistic, rel=1e-8)
    assert res.pvalue == pytest.approx(ref.pvalue, rel=1e-8, abs=1e-300)
    assert res.df == a.size - 1
    if alternative == "two-sided":
        lo, hi = ref.confidence_interval(0.95)
        assert (res.ci.low, res.ci.high) == (pytest.approx(lo), pytest.approx(hi))


def test_error_rate_ttest_points_to_the_paired_test():
    a, b = np.array([0.12, 0.15, 0.11]), np.array([0.13, 0.12, 0.11])
    with pytest.raises(ValueError, match="paired_ttest"):
        irr.error_rate_ttest(a - b, 0)
    with pytest.raises(ValueError, match="paired_ttest"):
        irr.error_rate_ttest(a - b, 0.1)


def _dietterich(a, b):
    p = np.asarray(a) - np.asarray(b)
    s2 = [((p[i] - p[i].mean()) ** 2).sum() for i in range(5)]
    return p[0, 0] / np.sqrt(sum(s2) / 5)


@settings(max_examples=60, deadline=None)
@given(arrays(float, (5, 2), elements=st.floats(0, 1)),
       arrays(float, (5, 2), elements=st.floats(0, 1)))
def test_cv52_ttest_is_dietterichs_statistic(a, b):
    p = a - b
    if not ((p - p.mean(axis=1, keepdims=True)) ** 2).sum() > 1e-20:
        return
    res = irr.cv52_ttest(a, b)
    assert res.statistic == pytest.approx(_dietterich(a, b), rel=1e-9)
    assert res.df == 5
    assert res.pvalue == pytest.approx(2 * stats.t.sf(abs(res.statistic), 5), rel=1e-9)


def test_cv52_shape_is_checked():
    with pytest.raises(ValueError, match=r"shape \(5, 2\)"):
        irr.cv52_ttest(np.zeros((10,)), np.zeros((10,)))


def test_compare_classifiers_is_mcnemar_on_correct_and_wrong():
    contingency = pytest.importorskip("statsmodels.stats.contingency_tables")
    rng = np.random.default_rng(3)
    y = rng.integers(0, 3, 300)
    a = np.where(rng.random(300) < 0.8, y, rng.integers(0, 3, 300))
    b = np.where(rng.random(300) < 0.7, y, rng.integers(0, 3, 300))
    res = irr.compare_classifiers(y, a, b, names=["svm", "tree"])
    e10 = np.sum((a == y) & (b != y))  # a right, b wrong
    e01 = np.sum((a != y) & (b == y))
    assert res.statistic == pytest.approx((abs(e01 - e10) - 1) ** 2 / (e01 + e10))
    ref = contingency.mcnemar(res.table, exact=False, correction=True)
    assert res.pvalue == pytest.approx(ref.pvalue)
    assert res.estimate == pytest.approx(np.mean(a == y) - np.mean(b == y))
    assert "accuracy of svm minus that of tree" in res.report()
    with pytest.raises(ValueError, match="same length"):
        irr.compare_classifiers(y, a, b[:-1])


@settings(max_examples=50, deadline=None)
@given(st.integers(2, 6), st.integers(1, 8), st.integers(0, 2**32 - 1))
def test_bias_variance_parts_add_up_to_the_expected_error(r, n, seed):
    rng = np.random.default_rng(seed)
    f = rng.normal(size=(r, n))
    y = rng.normal(size=n)
    y_d = y + rng.normal(size=(r, n))
    res = irr.bias_variance(f, y, y_d)
    error = ((f - y_d) ** 2).mean()
    assert res.estimate == pytest.approx(error, rel=1e-12)
    assert res.bias2 + res.variance + res.noise + res.residual == pytest.approx(error)
    assert res.variance == pytest.approx(f.var(axis=0).mean())
    assert res.bias2 == pytest.approx(((f.mean(axis=0) - y) ** 2).mean())
    assert res.noise == pytest.approx(((y_d - y) ** 2).mean())


def test_bias_variance_of_a_shrunken_mean_in_expectation():
    # f(D) = c * mean of m draws of N(mu, s^2), labels y_D = mu + noise N(0, t^2):
    # variance c^2 s^2 / m, bias^2 (c - 1)^2 mu^2, noise t^2, and the residual -> 0
    rng = np.random.default_rng(0)
    mu, s, t, m, c, runs = 2.0, 1.5, 0.5, 10, 0.8, 200_000
    f = c * rng.normal(mu, s, (runs, m)).mean(axis=1)[:, None]
    res = irr.bias_variance(f, [mu], mu + rng.normal(0, t, (runs, 1)))
    assert res.variance == pytest.approx(c**2 * s**2 / m, rel=0.01)
    assert res.bias2 == pytest.approx((c - 1) ** 2 * mu**2, rel=0.01)
    assert res.noise == pytest.approx(t**2, rel=0.01)
    assert abs(res.residual) < 0.005


def test_bias_variance_bad_input_and_output():
    with pytest.raises(ValueError, match="one row per training set"):
        irr.bias_variance([1.0, 2.0], [1.0, 2.0])
    with pytest.raises(ValueError, match="`y` must have one value per test point"):
        irr.bias_variance([[1.0, 2.0], [1.0, 2.0]], [1.0])
    with pytest.raises(ValueError, match="`y_observed`"):
        irr.bias_variance([[1.0, 2.0], [1.0, 2.0]], [1.0, 2.0], [[1.0, 2.0, 3.0]])
    res = irr.bias_variance([[1.0, 2.0], [3.0, 2.0]], [1.5, 2.5])
    assert list(res.per_point.columns) == ["expected_error", "bias2", "variance", "noise",
                                           "residual"]
    assert "Bias^2" in res.summary().as_text()


def test_series_are_paired_by_their_index_labels():
    """Predictions or fold errors in another row order than the first Series (each Series
    labelled by case or fold): the same test as with the aligned arrays; different labels
    are refused by name."""
    rng = np.random.default_rng(3)
    cases = [f"case{i}" for i in range(60)]
    truth = rng.integers(0, 2, 60)
    a = np.where(rng.random(60) < 0.8, truth, 1 - truth)
    b = np.where(rng.random(60) < 0.7, truth, 1 - truth)
    y_s, a_s, b_s = (pd.Series(v, index=cases) for v in (truth, a, b))
    expected = irr.compare_classifiers(truth, a, b)
    got = irr.compare_classifiers(y_s, a_s.iloc[::-1], b_s.sample(frac=1, random_state=1))
    np.testing.assert_array_equal(got.table, expected.table)
    assert got.statistic == expected.statistic
    with pytest.raises(ValueError, match="index labels of `pred_b` and `y_true` differ"):
        irr.compare_classifiers(y_s, a_s, b_s.rename(index=lambda s: s + "x"))
    folds = [f"fold{i}" for i in range(10)]
    e1, e2 = rng.uniform(0.05, 0.2, 10), rng.uniform(0.05, 0.3, 10)
    expected = irr.paired_ttest(e1, e2)
    got = irr.paired_ttest(pd.Series(e1, index=folds), pd.Series(e2, index=folds)[::-1])
    assert got.statistic == pytest.approx(expected.statistic, rel=1e-14)
    assert got.pvalue == pytest.approx(expected.pvalue, rel=1e-12)
