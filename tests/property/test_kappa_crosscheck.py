"""Two-rater kappa against statsmodels and scikit-learn on many random tables."""

import warnings

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from hypothesis.extra.numpy import arrays

import irr

sm_inter_rater = pytest.importorskip("statsmodels.stats.inter_rater")
sk_metrics = pytest.importorskip("sklearn.metrics")

tables = st.integers(2, 6).flatmap(
    lambda k: arrays(np.int64, (k, k), elements=st.integers(0, 40))
).filter(lambda t: t.sum() >= 2)


def _reference(table, **kw):
    """statsmodels' result; it warns (and gives nan) where a variance rounds below zero."""
    with warnings.catch_warnings(), np.errstate(all="ignore"):
        warnings.simplefilter("ignore", RuntimeWarning)
        return sm_inter_rater.cohens_kappa(table, **kw)


def _close(ours, theirs):
    # statsmodels takes sqrt of a variance that rounding made slightly negative (nan);
    # irr clips such variances at 0. Compare variances (a square root turns rounding
    # noise of 1e-14 in a zero variance into 1e-7), where statsmodels is finite.
    if np.isfinite(theirs):
        assert ours**2 == pytest.approx(theirs**2, abs=1e-12)


def _defined(table):
    t = np.asarray(table, float)
    p = t / t.sum()
    return 1 - p.sum(1) @ p.sum(0) > 1e-9


@pytest.mark.filterwarnings("ignore:Wald interval undefined:irr.DegenerateDataWarning")
@settings(max_examples=150, deadline=None)
@given(tables)
def test_unweighted_and_weighted_match_statsmodels(table):
    if not _defined(table):
        return
    k = len(table)
    ag = irr.Agreement.from_table(table)
    for ours, wt in ((None, None), ("linear", "linear"), ("quadratic", "quadratic")):
        res = ag.kappa(ours)
        # statsmodels' `wt` uses category index spacing, as our 0..k-1 categories do.
        ref = _reference(table, wt=wt)
        assert res.estimate == pytest.approx(ref.kappa, abs=1e-12)
        _close(res.se, ref.std_kappa)
        _close(res.se0, ref.std_kappa0)
    # A custom agreement matrix w is statsmodels' 2-D disagreement matrix 1 - w.
    rng = np.random.default_rng(int(table.sum()))
    w = rng.uniform(0, 1, (k, k))
    np.fill_diagonal(w, 1.0)
    res = ag.kappa(w)
    ref = _reference(table, weights=1 - w)
    assert res.estimate == pytest.approx(ref.kappa, abs=1e-12)
    _close(res.se0, ref.std_kappa0)


@pytest.mark.filterwarnings("ignore:Wald interval undefined:irr.DegenerateDataWarning")
@settings(max_examples=150, deadline=None)
@given(
    st.integers(2, 5).flatmap(
        lambda k: st.lists(st.tuples(st.integers(0, k - 1), st.integers(0, k - 1)), min_size=2)
    )
)
def test_matches_scikit_learn_on_raw_ratings(pairs):
    a, b = (np.array(x) for x in zip(*pairs, strict=True))
    labels = np.union1d(a, b)
    if len(labels) < 2:
        return
    ag = irr.Agreement(a, b)
    table = ag.table.to_numpy()
    if not _defined(table):
        return
    for weights in (None, "linear", "quadratic"):
        expected = sk_metrics.cohen_kappa_score(a, b, weights=weights)
        # scikit-learn weights by label index; our scores are the label values, so compare
        # on labels that are consecutive integers.
        if weights is not None and not np.array_equal(labels, np.arange(labels[0], labels[-1] + 1)):
            continue
        assert ag.kappa(weights).estimate == pytest.approx(expected, abs=1e-12)


@settings(max_examples=100, deadline=None)
@given(st.lists(st.tuples(st.integers(1, 5), st.integers(1, 5)), min_size=2))
def test_quadratic_weighted_kappa_shortcut_matches_scikit_learn(pairs):
    a, b = (np.array(x) for x in zip(*pairs, strict=True))
    labels = np.arange(1, 6)
    t = sk_metrics.confusion_matrix(a, b, labels=labels)
    if not _defined(t):
        return
    expected = sk_metrics.cohen_kappa_score(a, b, weights="quadratic", labels=labels)
    assert irr.quadratic_weighted_kappa(a, b, 1, 5) == pytest.approx(expected, abs=1e-12)
