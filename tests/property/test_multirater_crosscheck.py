"""Multi-rater coefficients against statsmodels, scikit-learn and hand formulas."""

import math
import warnings

import numpy as np
import pandas as pd
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from hypothesis.extra.numpy import arrays

import irr
from irr.coefficients import chance_corrected as cc

sm = pytest.importorskip("statsmodels.stats.inter_rater")
sk_metrics = pytest.importorskip("sklearn.metrics")


def ratings(min_raters=2, max_raters=6, missing=False):
    """Random (n, m) integer ratings with 2..5 categories (-1 = missing when allowed)."""

    def build(shape_k):
        (n, m), k = shape_k
        low = -1 if missing else 0
        return arrays(np.int64, (n, m), elements=st.integers(low, k - 1))

    shapes = st.tuples(st.integers(3, 25), st.integers(min_raters, max_raters))
    return st.tuples(shapes, st.integers(2, 5)).flatmap(build)


def _agreement(x):
    return irr.Agreement.from_array(np.where(x < 0, np.nan, x.astype(float)))


def _quiet(fn, *args, **kwargs):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", irr.DegenerateDataWarning)
        return fn(*args, **kwargs)


@settings(max_examples=120, deadline=None)
@given(ratings())
def test_fleiss_and_randolph_match_statsmodels(x):
    ag = _agreement(x)
    counts, _ = sm.aggregate_raters(x)
    with np.errstate(all="ignore"):
        ref = sm.fleiss_kappa(counts, method="fleiss")
        ref_randolph = sm.fleiss_kappa(counts, method="randolph")
    ours = _quiet(ag.fleiss_kappa).estimate
    if np.isfinite(ref):
        assert ours == pytest.approx(ref, abs=1e-12)
    else:
        assert math.isnan(ours)
    # statsmodels' randolph uses the observed categories; ours the declared ones, which
    # here (from_array without `categories`) are the observed ones too.
    randolph = _quiet(ag.brennan_prediger).estimate
    if np.isfinite(ref_randolph):
        assert randolph == pytest.approx(ref_randolph, abs=1e-12)
    else:
        assert math.isnan(randolph)


@settings(max_examples=60, deadline=None)
@given(ratings())
def test_per_category_kappa_is_fleiss_of_the_split(x):
    ag = _agreement(x)
    res = _quiet(ag.fleiss_kappa)
    counts, _ = sm.aggregate_raters(x)
    m = x.shape[1]
    for j, kappa in enumerate(res.per_category["kappa"]):
        split = np.column_stack([counts[:, j], m - counts[:, j]])
        with np.errstate(all="ignore"):
            ref = sm.fleiss_kappa(split, method="fleiss")
        if np.isfinite(ref):
            assert kappa == pytest.approx(ref, abs=1e-12)


@settings(max_examples=100, deadline=None)
@given(ratings(2, 2))
def test_two_raters_fleiss_is_scott_pi_and_ac1_is_gwets_formula(x):
    ag = _agreement(x)
    k = len(ag.categories)
    table = ag.table.to_numpy() / len(x)
    po = np.trace(table)
    pooled = (table.sum(axis=1) + table.sum(axis=0)) / 2
    pe_scott = (pooled**2).sum()
    fleiss = _quiet(ag.fleiss_kappa).estimate
    scott = _quiet(ag.scott_pi).estimate
    if 1 - pe_scott > 1e-9:
        assert fleiss == pytest.approx((po - pe_scott) / (1 - pe_scott), abs=1e-12)
    assert scott == fleiss or (math.isnan(scott) and math.isnan(fleiss))
    # Gwet (2008), two raters: pe = sum_k pi_k (1 - pi_k) / (q - 1), pi_k pooled margins
    pe_gwet = (pooled * (1 - pooled)).sum() / max(k - 1, 1)
    if k > 1:
        ac1 = _quiet(ag.gwet_ac).estimate
        assert ac1 == pytest.approx((po - pe_gwet) / (1 - pe_gwet), abs=1e-12)
    # Conger's kappa with two raters is Cohen's kappa
    cohen = _quiet(ag.kappa).estimate
    conger = _quiet(ag.conger_kappa).estimate
    if np.isfinite(cohen):
        assert conger == pytest.approx(cohen, abs=1e-12)


@settings(max_examples=60, deadline=None)
@given(ratings(2, 2))
def test_two_rater_light_variance_is_fce_times_n_over_n_minus_1(x):
    ag = _agreement(x)
    cohen = _quiet(ag.kappa)
    if not (np.isfinite(cohen.estimate) and cohen.se > 1e-8):
        return
    light = ag.light_kappa()
    n = len(x)
    assert light.estimate == pytest.approx(cohen.estimate, abs=1e-12)
    assert light.se**2 == pytest.approx(cohen.se**2 * n / (n - 1), rel=1e-9, abs=1e-12)


@settings(max_examples=80, deadline=None)
@given(ratings(2, 6, missing=True))
def test_light_is_mean_of_pairwise_and_pairwise_is_sklearn(x):
    if (x >= 0).sum(axis=1).max(initial=0) < 2:
        return
    ag = _agreement(x)
    present = x >= 0
    m = x.shape[1]
    shared = present.T.astype(int) @ present.astype(int)
    if (shared[~np.eye(m, dtype=bool)] == 0).any() or ((x >= 0).sum(axis=1) >= 2).sum() < 2:
        return
    matrix = _quiet(ag.pairwise)
    assert list(matrix.index) == list(ag.raters) == list(matrix.columns)
    assert np.allclose(np.diag(matrix), 1.0)
    upper = matrix.to_numpy()[np.triu_indices(m, 1)]
    light = _quiet(ag.light_kappa).estimate
    if np.isfinite(upper).all():
        assert light == pytest.approx(upper.mean(), abs=1e-12)
    g, h = 0, 1
    both = present[:, g] & present[:, h]
    if both.sum() >= 1:
        a, b = x[both, g], x[both, h]
        if len(np.unique(np.concatenate([a, b]))) > 1:
            with warnings.catch_warnings(), np.errstate(all="ignore"):
                warnings.simplefilter("ignore", RuntimeWarning)
                ref = sk_metrics.cohen_kappa_score(a, b)
            if np.isfinite(ref):
                assert matrix.iloc[g, h] == pytest.approx(ref, abs=1e-12)


@settings(max_examples=60, deadline=None)
@given(ratings(2, 5, missing=True), st.integers(0, 2**32 - 1))
def test_batch_kernels_equal_one_at_a_time(x, seed):
    if ((x >= 0).sum(axis=1) >= 1).sum() == 0:
        return
    ag = _agreement(x)
    rng = np.random.default_rng(seed)
    patterns = ag.statistics.count_patterns.patterns
    multiplicity = ag.statistics.count_patterns.multiplicity
    batch = rng.multinomial(multiplicity.sum(), multiplicity / multiplicity.sum(), size=4)
    batch = np.vstack([multiplicity, batch]).astype(float)
    k = patterns.shape[1]
    w = np.eye(k) if k < 3 else irr.weights.agreement_weights("linear", k, np.arange(k))
    with np.errstate(all="ignore"):
        for method in cc.COUNT_METHODS:
            together = cc.counts_kernel(patterns, batch, w, method)
            for row, value in zip(batch, together, strict=True):
                alone = cc.counts_kernel(patterns, row, w, method)[0]
                est = cc.counts_estimate(patterns, row, w, method).estimate
                np.testing.assert_allclose([alone, est], value, atol=1e-12, equal_nan=True)
        cpatterns, cmult = ag.statistics.patterns, ag.statistics.multiplicity
        codes = np.repeat(cpatterns, cmult, axis=0)  # one row per subject
        cbatch = np.vstack(
            [cmult, rng.multinomial(cmult.sum(), cmult / cmult.sum(), size=3)]
        ).astype(float)
        for kernel, estimate in ((cc.conger_kernel, cc.conger_estimate),
                                 (cc.light_kernel, cc.light_estimate)):
            together = kernel(cpatterns, cbatch, w)
            for row, value in zip(cbatch, together, strict=True):
                alone = kernel(cpatterns, row, w)[0]
                np.testing.assert_allclose(alone, value, atol=1e-12, equal_nan=True)
            # the data row equals the estimate built from all subjects
            full = estimate(codes, np.ones(len(codes)), w).estimate
            np.testing.assert_allclose(together[0], full, atol=1e-12, equal_nan=True)


@settings(max_examples=40, deadline=None)
@given(ratings(2, 5, missing=True), st.integers(0, 2**32 - 1))
def test_from_long_equals_from_frame_and_order_does_not_matter(x, seed):
    if ((x >= 0).sum(axis=1) >= 2).sum() < 2:
        return
    frame = pd.DataFrame(np.where(x < 0, np.nan, x), columns=[f"r{j}" for j in range(x.shape[1])])
    frame["subject"] = np.arange(len(frame))
    long = frame.melt(id_vars="subject", var_name="rater", value_name="rating")
    long = long.sample(frac=1.0, random_state=seed % 2**31)
    # the raters named: a column of one value far from the others' could be set aside as
    # an identifier (from_frame's column rule), which is not what this test is about
    wide = irr.Agreement.from_frame(frame, raters=[f"r{j}" for j in range(x.shape[1])])
    from_long = irr.Agreement.from_long(long, subject="subject", rater="rater", rating="rating")
    for method in ("fleiss_kappa", "gwet_ac", "brennan_prediger", "percent_agreement"):
        a = _quiet(getattr(wide, method))
        b = _quiet(getattr(from_long, method))
        np.testing.assert_allclose([a.estimate, a.se], [b.estimate, b.se], atol=1e-12,
                                   equal_nan=True)
