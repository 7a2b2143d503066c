"""PABAK, specific agreement, category-wise kappa, Bhapkar and rater bias on random tables,
against statsmodels and against implementations written here from the definitions
(a numerical-Jacobian delta method for the specific-agreement SE, a loop over categories
for the category kappas)."""

import warnings

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from hypothesis.extra.numpy import arrays

import irr

contingency = pytest.importorskip("statsmodels.stats.contingency_tables")
inter_rater = pytest.importorskip("statsmodels.stats.inter_rater")

tables = st.integers(2, 5).flatmap(
    lambda k: arrays(np.int64, (k, k), elements=st.integers(0, 30))
).filter(lambda t: t.sum() >= 2)

quiet = pytest.mark.filterwarnings("ignore::irr.DegenerateDataWarning")


@quiet
@settings(max_examples=100, deadline=None)
@given(tables)
def test_pabak_is_brennan_prediger_of_two_raters(table):
    ag = irr.Agreement.from_table(table)
    k = len(table)
    po = np.trace(table) / table.sum()
    assert ag.pabak().estimate == pytest.approx((k * po - 1) / (k - 1), abs=1e-12)
    assert ag.pabak().estimate == pytest.approx(ag.brennan_prediger().estimate, abs=1e-12)


@quiet
@settings(max_examples=100, deadline=None)
@given(arrays(np.int64, (2, 2), elements=st.integers(0, 50)).filter(lambda t: t.sum() > 0))
def test_byrt_decomposition_of_kappa(table):
    res = irr.Agreement.from_table(table).pabak(positive=0)
    (a, b), (c, d) = table / table.sum()
    pi, bi = a - d, b - c
    assert res.prevalence_index == pytest.approx(pi, abs=1e-12)
    assert res.bias_index == pytest.approx(bi, abs=1e-12)
    if np.isfinite(res.kappa):
        assert res.kappa == pytest.approx(
            (res.estimate - pi**2 + bi**2) / (1 - pi**2 + bi**2), abs=1e-10)
    # the other category as "positive" flips the sign of both indices
    other = irr.Agreement.from_table(table).pabak(positive=1)
    assert other.prevalence_index == pytest.approx(-pi, abs=1e-12)
    assert other.bias_index == pytest.approx(-bi, abs=1e-12)


def _specific(p, j):
    """Specific agreement of category j from a flat vector of cell proportions."""
    k = round(np.sqrt(p.size))
    t = p.reshape(k, k)
    return 2 * t[j, j] / (t[j].sum() + t[:, j].sum())


def _delta_se(table, j):
    """Delta method with a numerical gradient: sqrt(g' (diag(p) - p p') g / n)."""
    n = table.sum()
    p = (table / n).ravel()
    h = 1e-6
    grad = np.array([(_specific(p + h * e, j) - _specific(p - h * e, j)) / (2 * h)
                     for e in np.eye(p.size)])
    cov = np.diag(p) - np.outer(p, p)
    return float(np.sqrt(max(grad @ cov @ grad, 0.0) / n))


@quiet
@settings(max_examples=60, deadline=None)
@given(tables)
def test_specific_agreement_estimate_and_delta_method_se(table):
    res = irr.Agreement.from_table(table).specific_agreement()
    for j, part in enumerate(res.by_category):
        used = table[j].sum() + table[:, j].sum()
        if used == 0:
            assert np.isnan(part.estimate)
            continue
        assert part.estimate == pytest.approx(2 * table[j, j] / used, abs=1e-12)
        assert part.se == pytest.approx(_delta_se(table, j), abs=1e-6)
    # overall: percent agreement, the D_j-weighted mean of the specific agreements
    assert res.estimate == pytest.approx(np.trace(table) / table.sum(), abs=1e-12)


@quiet
@settings(max_examples=80, deadline=None)
@given(tables)
def test_category_kappa_matches_statsmodels_on_collapsed_tables(table):
    ag = irr.Agreement.from_table(table)
    res = ag.category_kappa()
    n = table.sum()
    weights, values = [], []
    for j, part in enumerate(res.by_category):
        a = table[j, j]
        b = table[j].sum() - a
        c = table[:, j].sum() - a
        collapsed = np.array([[a, b], [c, n - a - b - c]])
        with warnings.catch_warnings(), np.errstate(all="ignore"):
            warnings.simplefilter("ignore", RuntimeWarning)
            ref = inter_rater.cohens_kappa(collapsed)
        r, s = (a + b) / n, (a + c) / n
        if r * (1 - s) + s * (1 - r) == 0:  # undefined: one side only
            assert np.isnan(part.estimate)
            continue
        assert part.estimate == pytest.approx(ref.kappa, abs=1e-12)
        if np.isfinite(ref.std_kappa):
            assert part.se**2 == pytest.approx(ref.std_kappa**2, abs=1e-12)
        weights.append(r + s - 2 * r * s)
        values.append(part.estimate)
    kappa = ag.kappa().estimate
    if np.isfinite(kappa):
        assert res.estimate == pytest.approx(kappa, abs=1e-12)
        # Cohen's kappa is the chance-disagreement-weighted mean of the category kappas
        assert np.average(values, weights=weights) == pytest.approx(kappa, abs=1e-10)


@quiet
@settings(max_examples=100, deadline=None)
@given(tables)
def test_bhapkar_matches_statsmodels(table):
    res = irr.bhapkar_test(table)
    with warnings.catch_warnings(), np.errstate(all="ignore"):
        warnings.simplefilter("ignore")
        ref = contingency.SquareTable(table, shift_zeros=False).homogeneity("bhapkar")
    if not (np.isfinite(ref.statistic) and np.isfinite(res.statistic)) or res.df < len(table) - 1:
        return  # statsmodels gives nan (or inf) where the reduced covariance is singular
    assert res.statistic == pytest.approx(ref.statistic, rel=1e-8, abs=1e-10)
    assert res.df == ref.df
    assert res.statistic >= irr.stuart_maxwell_test(table).statistic - 1e-12


@quiet
@settings(max_examples=100, deadline=None)
@given(tables)
def test_rater_bias_counts_the_triangles(table):
    res = irr.rater_bias(table)
    upper = sum(table[i, j] for i in range(len(table)) for j in range(i + 1, len(table)))
    lower = sum(table[j, i] for i in range(len(table)) for j in range(i + 1, len(table)))
    if upper + lower == 0:
        assert np.isnan(res.estimate)
        return
    assert res.estimate == pytest.approx(upper / (upper + lower), abs=1e-12)
    assert res.statistic == pytest.approx((upper - lower) ** 2 / (upper + lower), abs=1e-9)
    if len(table) == 2:  # McNemar without continuity correction
        mc = irr.mcnemar(table, exact=False, correction=False)
        assert res.statistic == pytest.approx(mc.statistic, abs=1e-9)
