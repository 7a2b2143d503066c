"""Robinson's A, Finn's coefficient, the mean Spearman rho and Kendall's F form against
scipy and against sums of squares computed here from the definitions (R irr's manual
pages "robinson", "finn", "meanrho" describe the same quantities)."""

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from hypothesis.extra.numpy import arrays
from scipy import stats

import irr
from irr.estimators.variance_ratio import batch_sums_of_squares

ratings = st.tuples(st.integers(3, 25), st.integers(2, 5)).flatmap(
    lambda shape: arrays(np.int64, shape, elements=st.integers(1, 5)))

quiet = pytest.mark.filterwarnings("ignore::irr.DegenerateDataWarning")


def _anova(x):
    n, m = x.shape
    grand = x.mean()
    ss_rows = m * ((x.mean(axis=1) - grand) ** 2).sum()
    ss_cols = n * ((x.mean(axis=0) - grand) ** 2).sum()
    ss_total = ((x - grand) ** 2).sum()
    ss_within = ss_total - ss_rows
    return ss_rows, ss_cols, ss_within - ss_cols, ss_within


def _agreement(x):
    return irr.Agreement.from_array(x, categories=[1, 2, 3, 4, 5])


@quiet
@settings(max_examples=80, deadline=None)
@given(ratings)
def test_robinson_and_finn_from_sums_of_squares(x):
    n, m = x.shape
    ss_rows, _, ss_error, ss_within = _anova(x.astype(float))
    ag = _agreement(x)
    if ss_rows + ss_error > 0:
        assert ag.robinson_a().estimate == pytest.approx(ss_rows / (ss_rows + ss_error),
                                                         abs=1e-10)
        icc = ag.icc("twoway", "consistency", "single").estimate
        if np.isfinite(icc):  # Stata's robinson help: ICC = (m A - 1) / (m - 1)
            assert ag.robinson_a().estimate == pytest.approx((1 + (m - 1) * icc) / m,
                                                             abs=1e-10)
    expected = (5**2 - 1) / 12  # five levels 1..5: (s^2 - 1) / 12
    oneway = ag.finn()
    assert oneway.estimate == pytest.approx(1 - ss_within / (n * (m - 1)) / expected,
                                            abs=1e-10)
    assert ag.finn(levels=5).estimate == pytest.approx(oneway.estimate, abs=1e-12)
    twoway = ag.finn("twoway")
    assert twoway.estimate == pytest.approx(
        1 - ss_error / ((n - 1) * (m - 1)) / expected, abs=1e-10)
    if ss_within > 1e-9:  # F(inf, d) = 1 / (chi2_d / d); float residue of 0 is 0
        f = expected / (ss_within / (n * (m - 1)))
        assert oneway.statistic == pytest.approx(f, rel=1e-10)
        assert oneway.pvalue == pytest.approx(stats.chi2.cdf(n * (m - 1) / f, n * (m - 1)),
                                              rel=1e-8)


@settings(max_examples=50, deadline=None)
@given(ratings, st.integers(0, 2**32 - 1))
def test_batched_sums_of_squares_are_those_of_the_repeated_rows(x, seed):
    counts = np.random.default_rng(seed).integers(0, 4, (3, x.shape[0]))
    counts[:, 0] += 2  # at least two subjects
    got = batch_sums_of_squares(x.astype(float), counts)
    for b in range(3):
        full = np.repeat(x.astype(float), counts[b], axis=0)
        for ours, theirs in zip(got, _anova(full), strict=True):
            assert ours[b] == pytest.approx(theirs, abs=1e-8)


@quiet
@pytest.mark.filterwarnings("ignore::scipy.stats.ConstantInputWarning")
@settings(max_examples=80, deadline=None)
@given(ratings)
def test_mean_spearman_matches_scipy(x):
    ag = _agreement(x)
    m = x.shape[1]
    pairs = np.array([stats.spearmanr(x[:, j], x[:, k]).statistic
                      for j, k in zip(*np.triu_indices(m, 1), strict=True)])
    plain = ag.mean_spearman(fisher=False).estimate
    if np.isnan(pairs).any():
        assert np.isnan(plain)
        return
    assert plain == pytest.approx(pairs.mean(), abs=1e-10)
    kept = pairs[np.abs(pairs) < 1 - 1e-12]  # scipy may miss a perfect -1 by an ulp
    fisher = ag.mean_spearman().estimate
    if kept.size:
        assert fisher == pytest.approx(np.tanh(np.arctanh(kept).mean()), abs=1e-10)
    else:
        assert np.isnan(fisher)


@settings(max_examples=40, deadline=None)
@given(st.integers(4, 15), st.integers(2, 5), st.integers(0, 2**32 - 1))
def test_mean_spearman_without_ties_is_a_function_of_kendalls_w(n, m, seed):
    rng = np.random.default_rng(seed)
    x = np.column_stack([rng.permutation(n) + 1 for _ in range(m)])
    ag = irr.Agreement.from_array(x)
    w = ag.kendall_w().estimate
    assert ag.mean_spearman(fisher=False).estimate == pytest.approx((m * w - 1) / (m - 1),
                                                                    abs=1e-10)


@quiet
@settings(max_examples=60, deadline=None)
@given(ratings)
def test_kendall_f_form(x):
    n, m = x.shape
    res = _agreement(x).kendall_w()
    if not (np.isfinite(res.estimate) and res.estimate < 1):
        return
    df1 = n - 1 - 2 / m
    f = (m - 1) * res.estimate / (1 - res.estimate)
    assert res.f_statistic == pytest.approx(f, rel=1e-12)
    assert res.f_df1 == pytest.approx(df1)
    assert res.f_df2 == pytest.approx((m - 1) * df1)
    assert res.f_pvalue == pytest.approx(stats.f.sf(f, df1, (m - 1) * df1), rel=1e-8)
