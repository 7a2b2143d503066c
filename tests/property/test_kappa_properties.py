"""Properties every two-rater kappa must have, on random data (hypothesis)."""

import warnings

import numpy as np
import pytest
from hypothesis import assume, given, settings
from hypothesis import strategies as st

import irr
from irr import DegenerateDataWarning
from irr.coefficients.kappa import kappa_from_counts, kappa_parts, kappa_variances

pairs = st.integers(2, 5).flatmap(
    lambda k: st.lists(st.tuples(st.integers(0, k - 1), st.integers(0, k - 1)), min_size=3, max_size=80)
)


def split(data):
    a = np.array([x for x, _ in data])
    b = np.array([y for _, y in data])
    return a, b


def defined(a, b):
    return len(np.union1d(a, b)) >= 2 and not (len(set(a)) == 1 and len(set(b)) == 1 and a[0] == b[0])


def kappa(a, b, weights=None, **kw):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", DegenerateDataWarning)
        return irr.Agreement(a, b, **kw).kappa(weights)


@settings(max_examples=120, deadline=None)
@given(pairs)
def test_swapping_raters_leaves_symmetric_kappas_unchanged(data):
    a, b = split(data)
    assume(defined(a, b))
    for weights in (None, "linear", "quadratic"):
        one, other = kappa(a, b, weights), kappa(b, a, weights)
        assert one.estimate == pytest.approx(other.estimate, abs=1e-12)
        # Variances, not SEs: sqrt turns rounding noise in a zero variance into 1e-8.
        assert one.se**2 == pytest.approx(other.se**2, abs=1e-12)
        assert one.se0**2 == pytest.approx(other.se0**2, abs=1e-12)


@settings(max_examples=120, deadline=None)
@given(pairs, st.randoms(use_true_random=False))
def test_relabelling_changes_weighted_but_not_unweighted_kappa(data, random):
    a, b = split(data)
    assume(defined(a, b))
    labels = sorted(set(a) | set(b))
    shuffled = labels[:]
    random.shuffle(shuffled)
    mapping = dict(zip(labels, shuffled, strict=True))
    ra = np.array([mapping[x] for x in a])
    rb = np.array([mapping[x] for x in b])
    assert kappa(ra, rb).estimate == pytest.approx(kappa(a, b).estimate, abs=1e-12)


def test_relabelling_does_change_weighted_kappa():
    a = np.array([0, 1, 2, 2, 1, 0, 2])
    b = np.array([0, 2, 2, 1, 1, 0, 0])
    swap = {0: 1, 1: 0, 2: 2}
    ra, rb = np.vectorize(swap.get)(a), np.vectorize(swap.get)(b)
    assert kappa(ra, rb).estimate == pytest.approx(kappa(a, b).estimate, abs=1e-12)
    assert abs(kappa(ra, rb, "quadratic").estimate - kappa(a, b, "quadratic").estimate) > 0.05


@settings(max_examples=80, deadline=None)
@given(pairs, st.randoms(use_true_random=False))
def test_subject_order_never_matters(data, random):
    a, b = split(data)
    assume(defined(a, b))
    order = list(range(len(a)))
    random.shuffle(order)
    for weights in (None, "quadratic"):
        x, y = kappa(a[order], b[order], weights), kappa(a, b, weights)
        assert (x.estimate, x.se, x.se0) == pytest.approx((y.estimate, y.se, y.se0), abs=1e-12)


@settings(max_examples=80, deadline=None)
@given(pairs)
def test_duplicating_subjects_keeps_estimates_and_divides_se_by_sqrt2(data):
    a, b = split(data)
    assume(defined(a, b))
    for weights in (None, "linear", "quadratic"):
        one = kappa(a, b, weights)
        two = kappa(np.tile(a, 2), np.tile(b, 2), weights)
        assert two.estimate == pytest.approx(one.estimate, abs=1e-12)
        if np.isfinite(one.se):
            assert two.se**2 == pytest.approx(one.se**2 / 2, abs=1e-12)
            assert two.se0**2 == pytest.approx(one.se0**2 / 2, abs=1e-12)


@settings(max_examples=80, deadline=None)
@given(st.lists(st.integers(0, 4), min_size=2, max_size=50))
def test_perfect_agreement_is_exactly_one(ratings):
    a = np.array(ratings)
    assume(len(set(ratings)) >= 2)
    for weights in (None, "linear", "quadratic"):
        res = kappa(a, a, weights)
        assert res.estimate == 1.0
        assert res.kappa_max == pytest.approx(1.0, abs=1e-12)


@settings(max_examples=80, deadline=None)
@given(pairs)
def test_kappa_at_most_kappa_max_at_most_one_and_identity_weights(data):
    a, b = split(data)
    assume(defined(a, b))
    for weights in (None, "linear", "quadratic"):
        res = kappa(a, b, weights)
        if np.isfinite(res.estimate):
            assert res.estimate <= res.kappa_max + 1e-9
            assert res.kappa_max <= 1 + 1e-9
    k = len(irr.Agreement(a, b).categories)
    plain, identity = kappa(a, b), kappa(a, b, np.eye(k))
    assert identity.estimate == pytest.approx(plain.estimate, abs=1e-15)
    assert identity.se == pytest.approx(plain.se, abs=1e-15)


@settings(max_examples=40, deadline=None)
@given(st.integers(2, 5), st.integers(1, 30), st.integers(0, 2**32 - 1))
def test_batched_kernels_equal_one_at_a_time(k, batch, seed):
    rng = np.random.default_rng(seed)
    tables = rng.integers(0, 20, (batch, k, k)).astype(float)
    w = irr.weights.agreement_weights("quadratic", k, np.arange(k, dtype=float))
    batched = kappa_parts(tables, w).kappa
    var, var0 = kappa_variances(tables, w)
    flat = kappa_from_counts(tables.reshape(batch, k * k), w)
    for i in range(batch):
        single = kappa_parts(tables[i], w).kappa
        v, v0 = kappa_variances(tables[i], w)
        np.testing.assert_allclose([batched[i], flat[i], var[i], var0[i]], [single, single, v, v0],
                                   rtol=1e-13, atol=1e-15, equal_nan=True)


def test_same_rng_same_interval_whatever_the_batch_size():
    from irr.inference.bootstrap import bootstrap_counts

    table = np.array([[10, 4, 1, 0], [5, 10, 12, 2], [2, 4, 12, 5], [0, 2, 6, 13]])
    w = irr.weights.agreement_weights("quadratic", 4, np.arange(4.0))
    intervals = {
        size: bootstrap_counts(table.ravel(), lambda c: kappa_from_counts(c, w), n_resamples=999,
                               rng=5, batch_size=size).interval(0.95, "bca")
        for size in (1, 10, 333, 999)
    }
    assert len(set(intervals.values())) == 1
