"""The mean pairwise Pearson correlation (R irr's ``meancor``): R irr's printed output, an
independent computation with scipy, missing ratings, degenerate data and every entry point."""

import numpy as np
import pytest
from scipy import stats

import irr

ANXIETY = irr.datasets.load("anxiety")


def _by_hand(x, fisher=True):
    """scipy's pearsonr of every pair, averaged (through Fisher's z) by hand."""
    m = x.shape[1]
    r = np.array([stats.pearsonr(x[:, j], x[:, k]).statistic
                  for j in range(m) for k in range(j + 1, m)])
    if not fisher:
        return r.mean(), np.nan, np.nan
    kept = r[np.abs(r) < 1 - 1e-12]
    mean = np.tanh(np.arctanh(kept).mean())
    z = mean * np.sqrt(x.shape[0] - 3)
    return mean, z, 2 * stats.norm.sf(abs(z))


def test_r_irr_meancor_anxiety():
    # R irr 0.84.1, meancor(anxiety) (the example of its help page) prints
    # R = 0.224, z = 0.922, p-value = 0.357; quoted from R's output in the tests of
    # sophiedkk/pyirr (tests/test_meancor.py and the comment in pyirr's meancor).
    res = irr.Agreement.from_frame(ANXIETY).mean_pearson()
    assert round(res.estimate, 3) == 0.224
    assert round(res.statistic, 3) == 0.922
    assert round(res.pvalue, 3) == 0.357
    assert res.n_subjects == 20


@pytest.mark.parametrize("seed", range(6))
@pytest.mark.parametrize("fisher", [True, False])
def test_matches_scipy_pearsonr_averaged_by_hand(seed, fisher):
    gen = np.random.default_rng(seed)
    n, m = gen.integers(5, 40), gen.integers(2, 7)
    x = np.round(gen.normal(size=(n, 1)) + gen.normal(size=(n, m)), 1)
    res = irr.Agreement.from_array(x).mean_pearson(fisher=fisher)
    mean, z, p = _by_hand(x, fisher)
    assert res.estimate == pytest.approx(mean, abs=1e-12)
    if fisher:
        assert res.statistic == pytest.approx(z, abs=1e-10)
        assert res.pvalue == pytest.approx(p, abs=1e-12)
    else:
        assert np.isnan(res.statistic)
        assert np.isnan(res.pvalue)


def test_one_sided_alternative_halves_the_p_value():
    ag = irr.Agreement.from_frame(ANXIETY)
    two, greater = ag.mean_pearson(), ag.mean_pearson(alternative="greater")
    assert greater.pvalue == pytest.approx(two.pvalue / 2)
    assert greater.statistic == two.statistic


def test_missing_ratings_are_left_out_listwise_and_weights_count():
    x = ANXIETY.to_numpy(float)
    with_gaps = x.copy()
    with_gaps[[0, 5], [1, 2]] = np.nan
    res = irr.Agreement.from_array(with_gaps).mean_pearson()
    complete = np.delete(x, [0, 5], axis=0)
    assert res.n_subjects == 18
    assert res.n_missing == 2
    assert res.estimate == pytest.approx(_by_hand(complete)[0], abs=1e-12)
    assert res.statistic == pytest.approx(_by_hand(complete)[1], abs=1e-10)
    # duplicated subjects: the same as a frame that holds every copy
    doubled = irr.Agreement.from_array(np.vstack([x, x])).mean_pearson()
    assert doubled.estimate == pytest.approx(_by_hand(np.vstack([x, x]))[0], abs=1e-12)
    assert doubled.statistic == pytest.approx(0.22350203 * np.sqrt(37), abs=1e-6)


def test_perfect_correlation_is_left_out_of_the_fisher_average():
    gen = np.random.default_rng(3)
    a, b = gen.normal(size=12), gen.normal(size=12)
    x = np.column_stack([a, 2 * a + 1, b])  # raters 1 and 2 correlate perfectly
    res = irr.Agreement.from_array(x).mean_pearson()
    r = stats.pearsonr(a, b).statistic
    assert res.estimate == pytest.approx(r, abs=1e-12)  # two equal pairs left: tanh(artanh r)
    assert "1 perfect correlation was left out" in res.summary().as_text()
    assert irr.Agreement.from_array(x).mean_pearson(fisher=False).estimate == pytest.approx(
        (1 + 2 * r) / 3, abs=1e-12)


def test_pearson_differs_from_spearman_and_entry_points_agree():
    ag = irr.Agreement.from_frame(ANXIETY)
    res = ag.mean_pearson()
    assert res.estimate != pytest.approx(ag.mean_spearman().estimate, abs=1e-3)
    assert irr.mean_pearson(ANXIETY).estimate == res.estimate
    assert ANXIETY.irr.mean_pearson().estimate == res.estimate
    assert irr.mean_pearson(ANXIETY, fisher=False).estimate == pytest.approx(
        _by_hand(ANXIETY.to_numpy(float), fisher=False)[0], abs=1e-12)
    text = res.summary().as_text()
    assert "Mean Pearson r (Fisher z)" in text
    assert "sqrt(n − 3)" in text


def test_bad_arguments_and_degenerate_data():
    ag = irr.Agreement.from_frame(ANXIETY)
    with pytest.raises(TypeError, match="`fisher`"):
        ag.mean_pearson(fisher="yes")
    with pytest.raises(ValueError, match="`ci`"):
        ag.mean_pearson(ci="wald")
    with pytest.raises(ValueError, match="`alternative`"):
        ag.mean_pearson(alternative="bigger")
    constant = irr.Agreement.from_array(np.array([[1.0, 2, 3], [1, 3, 2], [1, 1, 1]]))
    with pytest.warns(irr.DegenerateDataWarning, match="Pearson"):
        assert np.isnan(constant.mean_pearson().estimate)  # rater 1 constant, as R's NA
    with pytest.warns(irr.DegenerateDataWarning, match="Spearman"):
        assert np.isnan(constant.mean_spearman().estimate)


def test_bootstrap_on_request_is_reproducible():
    ag = irr.Agreement.from_frame(ANXIETY)
    res = ag.mean_pearson(ci="percentile", n_resamples=500)
    assert res.ci.low < res.estimate < res.ci.high
    again = ag.mean_pearson(ci="percentile", n_resamples=500)
    assert (res.ci.low, res.ci.high) == (again.ci.low, again.ci.high)
