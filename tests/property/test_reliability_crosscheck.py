"""Krippendorff's alpha, ICC and Kendall's W against independent implementations.

* ``krippendorff`` (PyPI, GPL; called as a black box) on random data with missing values,
  every level, to 1e-10.
* ``pingouin.intraclass_corr`` on random complete data, all six forms: ICC, F, df and p to
  1e-8; pingouin rounds its 95% interval to 2 decimals, so the bounds are compared to
  5e-3.
* Kendall's W against scipy: ``friedmanchisquare`` (W = chi2 / (m (n - 1))) and a direct
  rank-sum computation with ``scipy.stats.rankdata``.
* Exact identities: Krippendorff's alpha of two raters without missing data is
  ``1 - (1 - pi) (2n - 1) / (2n)`` with Scott's pi; batch kernels equal one-at-a-time.
"""

import warnings

import numpy as np
import pandas as pd
import pytest
from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st
from hypothesis.extra.numpy import arrays

import irr
from irr.coefficients.icc import FORMS
from irr.coefficients.krippendorff import LEVELS, alpha_kernel, distance_matrix

krippendorff = pytest.importorskip("krippendorff")

LEVEL_NAMES = {"nominal": "nominal", "ordinal": "ordinal", "interval": "interval",
               "ratio": "ratio"}


@st.composite
def reliability_data(draw):
    raters = draw(st.integers(2, 5))
    units = draw(st.integers(2, 25))
    values = draw(arrays(np.float64, (raters, units), elements=st.integers(0, 6).map(float)))
    missing = draw(arrays(np.bool_, (raters, units)))
    data = np.where(missing, np.nan, values)
    return data


def _pairable_variety(data):
    present = ~np.isnan(data)
    pairable = present.sum(axis=0) >= 2
    return len(np.unique(data[:, pairable][present[:, pairable]])) >= 2


# nominal alpha of values that never coincide is 0 by construction, with a warning that no SE
# or interval is given (tests/unit/estimators/test_alpha_icc_kendall.py tests that warning)
NEVER_COINCIDE = "ignore:Krippendorff's nominal alpha is 0 by construction"


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(data=reliability_data(), level=st.sampled_from(LEVELS))
@pytest.mark.filterwarnings(NEVER_COINCIDE)
def test_alpha_matches_krippendorff_package(data, level):
    assume(_pairable_variety(data))
    if level == "ratio":
        data = data + 1.0  # krippendorff's ratio metric divides by c + k
    ours = irr.krippendorff_alpha(data, level, layout="raters-units", ci=None).estimate
    theirs = krippendorff.alpha(reliability_data=data, level_of_measurement=LEVEL_NAMES[level])
    assert ours == pytest.approx(theirs, abs=1e-10)
    # the general coder (through Agreement) gives the same number as the fast path
    general = irr.krippendorff_alpha(
        data.T, level, categories=sorted(set(data[~np.isnan(data)])), ci=None
    )
    assert general.estimate == pytest.approx(ours, abs=1e-12)


@settings(max_examples=100, deadline=None)
@given(
    pairs=arrays(np.int64, st.tuples(st.integers(2, 40), st.just(2)),
                 elements=st.integers(0, 4))
)
@pytest.mark.filterwarnings(NEVER_COINCIDE)
def test_alpha_of_two_raters_is_rescaled_scott_pi(pairs):
    a, b = pairs[:, 0], pairs[:, 1]
    n = len(a)
    pooled = np.bincount(np.concatenate([a, b]), minlength=5) / (2 * n)
    p_e = float((pooled**2).sum())
    assume(p_e < 1)
    p_o = float(np.mean(a == b))
    pi = (p_o - p_e) / (1 - p_e)
    alpha = irr.Agreement(a, b).krippendorff_alpha(ci=None).estimate
    assert alpha == pytest.approx(1 - (1 - pi) * (2 * n - 1) / (2 * n), abs=1e-12)


@settings(max_examples=60, deadline=None)
@given(data=reliability_data(), level=st.sampled_from(LEVELS),
       seed=st.integers(0, 2**32 - 1))
@pytest.mark.filterwarnings(NEVER_COINCIDE)
def test_alpha_kernel_batch_equals_one_at_a_time(data, level, seed):
    assume(_pairable_variety(data))
    data = data + 1.0
    ag = irr.Agreement(*data)
    patterns = ag.statistics.count_patterns.patterns
    multiplicity = ag.statistics.count_patterns.multiplicity
    scores = ag.statistics.scores
    k = len(scores)
    rng = np.random.default_rng(seed)
    batch = rng.multinomial(multiplicity.sum(), multiplicity / multiplicity.sum(), size=6)
    batch[0] = multiplicity
    metric = "ordinal" if level == "ordinal" else distance_matrix(level, k, scores)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        batched = alpha_kernel(patterns, batch, metric)
        for row, value in zip(batch, batched, strict=True):
            one = alpha_kernel(patterns, row, metric)[0]
            np.testing.assert_allclose(value, one, rtol=1e-12, atol=1e-12)
    assert batched[0] == pytest.approx(ag.krippendorff_alpha(level, ci=None).estimate, abs=1e-12)


@pytest.mark.parametrize("seed", range(6))
def test_icc_matches_pingouin_all_forms(seed):
    pingouin = pytest.importorskip("pingouin")
    rng = np.random.default_rng(seed)
    n, k = rng.integers(5, 40), rng.integers(2, 6)
    x = rng.normal(size=(n, 1)) * rng.uniform(0.2, 2) + rng.normal(size=(n, k)) + rng.normal(
        size=k
    )
    x = np.round(x, 1)
    long = pd.DataFrame(x).rename_axis("subject").reset_index().melt(
        id_vars="subject", var_name="rater", value_name="rating"
    )
    with warnings.catch_warnings():  # pingouin's own pandas deprecations
        warnings.simplefilter("ignore")
        table = pingouin.intraclass_corr(long, targets="subject", raters="rater",
                                         ratings="rating").set_index("Type")
    # pingouin 0.7 labels the forms McGraw & Wong's way
    names = dict(zip(FORMS, ["ICC(1,1)", "ICC(A,1)", "ICC(C,1)", "ICC(1,k)", "ICC(A,k)",
                             "ICC(C,k)"], strict=True))
    for form, name in names.items():
        row = table.loc[name]
        res = irr.icc(x, *form)
        assert res.estimate == pytest.approx(row["ICC"], abs=1e-8)
        assert res.statistic == pytest.approx(row["F"], rel=1e-8)
        assert (res.df1, res.df2) == (row["df1"], row["df2"])
        assert res.pvalue == pytest.approx(row["pval"], rel=1e-6, abs=1e-12)
        low, high = row["CI95"]
        assert res.ci.low == pytest.approx(low, abs=5e-3 + 1e-9)
        assert res.ci.high == pytest.approx(high, abs=5e-3 + 1e-9)


def _kendall_w_direct(x, correct):
    from scipy.stats import rankdata

    n, m = x.shape
    ranks = rankdata(x, axis=0)
    s = ((ranks.sum(axis=1) - m * (n + 1) / 2) ** 2).sum()
    ties = 0.0
    if correct:
        for column in x.T:
            _, t = np.unique(column, return_counts=True)
            ties += (t**3 - t).sum()
    return 12 * s / (m**2 * (n**3 - n) - m * ties)


@settings(max_examples=100, deadline=None)
@given(x=arrays(np.int64, st.tuples(st.integers(3, 25), st.integers(2, 6)),
                elements=st.integers(1, 6)))
def test_kendall_w_matches_scipy(x):
    from scipy.stats import friedmanchisquare

    assume(all(len(np.unique(c)) > 1 for c in x.T))
    res = irr.Agreement(*x.T).kendall_w()
    assert res.estimate == pytest.approx(_kendall_w_direct(x, True), rel=1e-12)
    friedman = friedmanchisquare(*x)
    n, m = x.shape
    assert res.statistic == pytest.approx(friedman.statistic, rel=1e-10)
    assert res.pvalue == pytest.approx(friedman.pvalue, rel=1e-8, abs=1e-300)
    assert res.estimate == pytest.approx(friedman.statistic / (m * (n - 1)), rel=1e-10)
    plain = irr.Agreement(*x.T).kendall_w(correct_ties=False)
    assert plain.estimate == pytest.approx(_kendall_w_direct(x, False), rel=1e-12)


@settings(max_examples=50, deadline=None)
@given(data=reliability_data(), seed=st.integers(0, 2**32 - 1))
def test_alpha_ignores_unit_order(data, seed):
    assume(_pairable_variety(data))
    perm = np.random.default_rng(seed).permutation(data.shape[1])
    a = irr.krippendorff_alpha(data.T, "interval", ci=None).estimate
    b = irr.krippendorff_alpha(data[:, perm].T, "interval", ci=None).estimate
    assert a == pytest.approx(b, abs=1e-12)
