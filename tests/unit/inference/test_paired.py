"""Tests for irr.inference.paired: McNemar, Bowker, Stuart–Maxwell and Cochran's Q against
statsmodels (black-box cross-check) on random tables, conventions, and bad input."""

from __future__ import annotations

import math

import numpy as np
import pandas as pd
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from hypothesis.extra.numpy import arrays
from scipy import stats
from statsmodels.stats import contingency_tables as ct

import irr
from irr._validation import DegenerateDataWarning
from irr.inference.paired import (
    PairedTestResult,
    bowker_test,
    cochrans_q,
    mcnemar,
    stuart_maxwell_test,
)

TOL = {"rel": 1e-10, "abs": 1e-10}


def square_tables(min_k: int = 2, max_k: int = 6, max_count: int = 30):
    return st.integers(min_k, max_k).flatmap(
        lambda k: arrays(np.int64, (k, k), elements=st.integers(0, max_count))
    ).filter(lambda t: t.sum() > 0)


# ---------------------------------------------------------------------------------------
# Cross-checks against statsmodels
# ---------------------------------------------------------------------------------------
@pytest.mark.filterwarnings("ignore:Wald interval undefined:irr.DegenerateDataWarning")
@settings(max_examples=150, deadline=None)
@given(square_tables(2, 2, 60))
def test_mcnemar_matches_statsmodels(table):
    ours = mcnemar(table)
    ref = ct.mcnemar(table, exact=True)
    assert ours.statistic == pytest.approx(ref.statistic, **TOL)
    assert ours.pvalue == pytest.approx(ref.pvalue, **TOL)
    n12, n21 = table[0, 1], table[1, 0]
    for correction in (True, False):
        if n12 + n21 == 0:
            with pytest.warns(DegenerateDataWarning, match="no discordant pairs"):
                res = mcnemar(table, exact=False, correction=correction)
            assert math.isnan(res.statistic)
            assert math.isnan(res.pvalue)
            continue
        res = mcnemar(table, exact=False, correction=correction)
        ref = ct.mcnemar(table, exact=False, correction=correction)
        assert res.statistic == pytest.approx(ref.statistic, **TOL)
        assert res.pvalue == pytest.approx(ref.pvalue, **TOL)
    n = table.sum()
    assert ours.estimate == pytest.approx((n12 - n21) / n)


@settings(max_examples=200, deadline=None)
@given(square_tables(2, 6))
def test_bowker_matches_statsmodels(table):
    ref = ct.SquareTable(table, shift_zeros=False).symmetry()
    full = bowker_test(table)
    assert full.statistic == pytest.approx(ref.statistic, **TOL)
    assert full.df == ref.df
    assert full.pvalue == pytest.approx(ref.pvalue, **TOL)
    reduced = bowker_test(table, reduce_df=True)
    k = len(table)
    upper = np.triu_indices(k, 1)
    nonempty = int(((table + table.T)[upper] > 0).sum())
    assert reduced.statistic == full.statistic
    assert reduced.df == nonempty
    expected = stats.chi2.sf(ref.statistic, nonempty) if nonempty else 1.0
    assert reduced.pvalue == pytest.approx(expected, **TOL)


def _connected(table: np.ndarray) -> bool:
    from scipy.sparse.csgraph import connected_components

    s = table + table.T
    np.fill_diagonal(s, 0)
    return connected_components(s > 0, directed=False)[0] == 1


@settings(max_examples=200, deadline=None)
@given(square_tables(2, 6))
def test_stuart_maxwell_matches_statsmodels(table):
    ours = stuart_maxwell_test(table)
    k = len(table)
    if _connected(table):
        ref = ct.SquareTable(table, shift_zeros=False).homogeneity()
        assert ours.df == ref.df == k - 1
        assert ours.statistic == pytest.approx(ref.statistic, **TOL)
        assert ours.pvalue == pytest.approx(ref.pvalue, **TOL)
    # in every case: d' V^+ d with df = rank(V) (the generalised-inverse form)
    t = table.astype(float)
    s = t + t.T
    np.fill_diagonal(s, 0)
    v = np.diag(s.sum(1)) - s
    d = t.sum(1) - t.sum(0)
    rank = np.linalg.matrix_rank(v)
    assert ours.df == rank
    if rank:
        assert ours.statistic == pytest.approx(d @ np.linalg.pinv(v) @ d, rel=1e-8, abs=1e-8)
    else:
        assert (ours.statistic, ours.pvalue) == (0.0, 1.0)


@settings(max_examples=200, deadline=None)
@given(st.integers(2, 5).flatmap(
    lambda m: arrays(np.int64, st.tuples(st.integers(1, 40), st.just(m)),
                     elements=st.integers(0, 1))))
def test_cochrans_q_matches_statsmodels(x):
    rows = x.sum(1)
    if np.all((rows == 0) | (rows == x.shape[1])):
        with pytest.warns(DegenerateDataWarning, match="Cochran's Q is undefined"):
            res = cochrans_q(x)
        assert math.isnan(res.statistic)
        return
    ours = cochrans_q(x)
    ref = ct.cochrans_q(x)
    assert ours.statistic == pytest.approx(ref.statistic, **TOL)
    assert ours.pvalue == pytest.approx(ref.pvalue, **TOL)
    assert ours.df == ref.df == x.shape[1] - 1
    assert ours.proportions == pytest.approx(tuple(x.mean(0)))


def test_two_by_two_special_cases_agree():
    # Bowker and Stuart-Maxwell equal McNemar without continuity correction on 2 x 2;
    # Cochran's Q with two raters too.
    table = np.array([[20, 7], [15, 8]])
    m = mcnemar(table, exact=False, correction=False).statistic
    assert bowker_test(table).statistic == pytest.approx(m)
    assert stuart_maxwell_test(table).statistic == pytest.approx(m)
    a = np.repeat([1, 1, 0, 0], table.ravel())
    b = np.repeat([1, 0, 1, 0], table.ravel())
    assert cochrans_q(np.column_stack([a, b])).statistic == pytest.approx(m)


# ---------------------------------------------------------------------------------------
# Ratings, Agreement methods, conventions
# ---------------------------------------------------------------------------------------
def test_ratings_and_agreement_methods_agree_with_tables():
    vision = irr.datasets.load("vision")
    ag = irr.Agreement.from_frame(vision)
    table = ag.table.to_numpy()
    a, b = vision["r.eye"], vision["l.eye"]
    assert ag.symmetry_test().statistic == bowker_test(table).statistic
    assert bowker_test(a, b).statistic == bowker_test(table).statistic
    assert ag.marginal_homogeneity_test().statistic == stuart_maxwell_test(a, b).statistic
    ref = ct.SquareTable(table, shift_zeros=False)
    assert ag.symmetry_test(reduce_df=False).pvalue == pytest.approx(ref.symmetry().pvalue)
    assert ag.marginal_homogeneity_test().statistic == pytest.approx(ref.homogeneity().statistic)
    res = ag.symmetry_test()
    assert isinstance(res, PairedTestResult)
    text = res.summary().as_text()
    assert "p_ij = p_ji" in text
    assert "r.eye, l.eye" in text
    assert "PairedTestResult(test=\"Bowker's test of symmetry\"" in repr(res)
    assert list(res.to_frame().columns) == list(irr.results.FRAME_COLUMNS)
    assert res.to_dict()["df"] == res.df


@pytest.mark.filterwarnings("ignore:Wald interval undefined:irr.DegenerateDataWarning")
def test_mcnemar_from_ratings_and_agreement():
    a = ["yes", "yes", "no", "no", "yes", "no", "yes", None]
    b = ["yes", "no", "no", "yes", "no", "no", "no", "yes"]
    res = mcnemar(a, b)
    assert res.n_subjects == 7
    assert res.n_missing == 1
    assert res.table.tolist() == [[2, 1], [3, 1]]  # categories sorted: no, yes
    assert res.statistic == 1.0
    assert res.pvalue == pytest.approx(ct.mcnemar([[2, 1], [3, 1]]).pvalue)
    assert irr.Agreement(a, b).mcnemar().pvalue == res.pvalue
    assert "1 subject(s) with a missing rating were left out" in res.summary().as_text()
    # one category unobserved: declare both
    one = mcnemar(["yes", "yes"], ["yes", "yes"], categories=["no", "yes"])
    assert one.pvalue == 1.0


def test_bowker_zero_pairs_and_perfect_agreement():
    table = np.array([[5, 2, 0], [1, 5, 0], [0, 0, 5]])
    res = bowker_test(table, reduce_df=True)
    assert res.df == 1
    assert "df reduced to 1" in res.summary().as_text()
    assert bowker_test(table).df == 3
    perfect = np.diag([3, 4, 5])
    reduced = bowker_test(perfect, reduce_df=True)
    assert (reduced.df, reduced.pvalue) == (0.0, 1.0)
    sm = stuart_maxwell_test(perfect)
    assert (sm.statistic, sm.df, sm.pvalue) == (0.0, 0.0, 1.0)
    # disconnected categories reduce the Stuart-Maxwell df
    split = np.array([[5, 2, 0, 0], [1, 5, 0, 0], [0, 0, 5, 3], [0, 0, 1, 5]])
    res = stuart_maxwell_test(split)
    assert res.df == 2
    assert "statsmodels returns nan" in res.summary().as_text()


def test_agreement_cochrans_q_against_reference():
    video = irr.datasets.load("video")
    ag = irr.Agreement.from_frame(video)
    res = ag.cochrans_q(reference="rater1")
    x = np.column_stack([(video[r] == video["rater1"]).to_numpy() for r in
                         ("rater2", "rater3", "rater4")]).astype(int)
    ref = ct.cochrans_q(x)
    assert res.statistic == pytest.approx(ref.statistic, **TOL)
    assert res.raters == ("rater2", "rater3", "rater4")
    tol = ag.cochrans_q(reference="rater1", tolerance=1)
    x1 = np.column_stack([((video[r] - video["rater1"]).abs() <= 1).to_numpy() for r in
                          ("rater2", "rater3", "rater4")]).astype(int)
    assert tol.proportions == pytest.approx(tuple(x1.mean(0)))
    # missing ratings drop the subject
    cac = irr.datasets.load("cac_raw4raters")
    res = irr.Agreement.from_frame(cac).cochrans_q(reference="Rater1")
    assert res.n_missing == int(cac.isna().any(axis=1).sum())
    assert res.n_subjects == len(cac) - res.n_missing


def test_cochrans_q_dataframe_with_missing():
    df = pd.DataFrame({"a": [1, 0, 1, None, 1], "b": [True, False, False, True, True],
                       "c": [0, 0, 1, 1, 0]})
    res = cochrans_q(df)
    assert res.raters == ("a", "b", "c")
    assert res.n_missing == 1
    assert res.n_subjects == 4
    expected = ct.cochrans_q(np.array([[1, 1, 0], [0, 0, 0], [1, 0, 1], [1, 1, 0]]))
    assert res.statistic == pytest.approx(expected.statistic)


# ---------------------------------------------------------------------------------------
# Bad input
# ---------------------------------------------------------------------------------------
BAD_CALLS = [
    (lambda: mcnemar(np.ones((3, 3), dtype=int)), ValueError,
     r"`table_or_a` must be a 2 x 2 table for McNemar's test; got a 3 x 3 table"),
    (lambda: mcnemar([1, 2, 3], [1, 2, 2]), ValueError, r"`table_or_a` must be a 2 x 2 table"),
    (lambda: mcnemar([[1, 2, 3]]), ValueError,
     r"`table_or_a` must be a square k x k table; got shape \(1, 3\)"),
    (lambda: mcnemar([[1, -2], [3, 4]]), ValueError, r"`table_or_a` has negative counts: \[-2\]"),
    (lambda: mcnemar([[1, 2.5], [3, 4]]), ValueError, r"`table_or_a` has non-integer counts: \[2.5\]"),
    (lambda: mcnemar([[0, 0], [0, 0]]), ValueError, r"`table_or_a` has no subjects"),
    (lambda: mcnemar([["a", "b"], ["c", "d"]]), TypeError, r"`table_or_a` must hold numeric counts"),
    (lambda: mcnemar([[1, 2], [3, 4]], confidence_level=2), ValueError,
     r"`confidence_level` must be in \(0, 1\)"),
    (lambda: bowker_test(np.ones((2, 3))), ValueError, r"`table_or_a` must be a square k x k table"),
    (lambda: bowker_test([[1, 2], [3, 4]], categories=["a"]), ValueError,
     r"`categories` must have 2 labels for a 2 x 2 table; got 1"),
    (lambda: stuart_maxwell_test([1, 2], [1, 2, 3]), ValueError, r"All raters must rate the same subjects"),
    (lambda: cochrans_q([1, 0, 1]), ValueError,
     r"`x` must be 2-D \(subjects x raters\); got an array of shape \(3,\)"),
    (lambda: cochrans_q([[1], [0]]), ValueError, r"`x` must have at least two columns \(raters\); got 1"),
    (lambda: cochrans_q([[1, 2], [0, 1]]), ValueError,
     r"`x` must hold 0/1 \(or boolean\) outcomes; got \[2.0\]"),
    (lambda: cochrans_q([["a", "b"], ["c", "d"]]), TypeError, r"`x` must hold 0/1 \(or boolean\) outcomes"),
    (lambda: cochrans_q([[None, 1], [1, None]]), ValueError, r"`x` has no complete subjects"),
    (lambda: cochrans_q(3), TypeError, r"`x` must be a 2-D array-like"),
    (lambda: irr.Agreement([1, 2], [1, 1], [2, 2]).mcnemar(), ValueError, r"compares two raters"),
    (lambda: irr.Agreement([1, 2], [1, 1], [2, 2]).cochrans_q(reference="nobody"), ValueError,
     r"`reference` must be one of the raters \['rater1', 'rater2', 'rater3'\]; got 'nobody'"),
    (lambda: irr.Agreement([1, 2], [1, 1]).cochrans_q(reference="rater1"), ValueError,
     r"Cochran's Q compares at least two raters with the reference"),
    (lambda: irr.Agreement(["a", "b"], ["a", "a"], ["b", "b"]).cochrans_q("rater1", tolerance=1),
     ValueError, r"`tolerance` must be 0 for unordered categories"),
]


@pytest.mark.parametrize(("call", "error", "message"), BAD_CALLS)
def test_bad_input(call, error, message):
    with pytest.raises(error, match=message):
        call()
