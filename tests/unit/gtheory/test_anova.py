"""ANOVA variance components of balanced G studies: the general EMS rules against the
textbook formulas written out for one design, the bootstrap's moment route against the
direct one, Satterthwaite's intervals, and the p × r consistency with the ICC."""

import numpy as np
import pytest
from scipy.stats import chi2

from irr.gtheory.anova import (
    anova,
    component_se,
    object_moments,
    satterthwaite,
    sums_to_components,
)
from irr.gtheory.designs import make_design

DESIGNS = [
    ("p", ["r"], None, (30, 4)),
    ("p", ["r", "o"], None, (20, 3, 2)),
    ("p", ["r", "o"], {"r": "o"}, (20, 3, 2)),
    ("p", ["r"], {"r": "p"}, (25, 3)),
    ("p", ["i", "r"], None, (15, 4, 3)),
    ("p", ["i", "s", "r"], {"i": "s"}, (12, 3, 2, 2)),
]


def _scores(shape, seed=0):
    rng = np.random.default_rng(seed)
    y = rng.normal(size=shape)
    y += 1.5 * rng.normal(size=(shape[0],) + (1,) * (len(shape) - 1))  # objects
    return np.round(5 + y, 1)


def test_p_x_r_x_o_matches_the_textbook_formulas():
    # three-way crossed random ANOVA written out (Brennan, 2001, Table 3.3 / Shavelson &
    # Webb, 1991, Table 3.x): mean squares from marginal means, then the EMS solutions
    y = _scores((12, 3, 4), seed=3)
    n_p, n_r, n_o = y.shape
    m = y.mean()
    mp, mr, mo = y.mean((1, 2)), y.mean((0, 2)), y.mean((0, 1))
    mpr, mpo, mro = y.mean(2), y.mean(1), y.mean(0)
    ms = {
        "p": n_r * n_o * np.sum((mp - m) ** 2) / (n_p - 1),
        "r": n_p * n_o * np.sum((mr - m) ** 2) / (n_r - 1),
        "o": n_p * n_r * np.sum((mo - m) ** 2) / (n_o - 1),
        "pr": n_o * np.sum((mpr - mp[:, None] - mr[None, :] + m) ** 2)
        / ((n_p - 1) * (n_r - 1)),
        "po": n_r * np.sum((mpo - mp[:, None] - mo[None, :] + m) ** 2)
        / ((n_p - 1) * (n_o - 1)),
        "ro": n_p * np.sum((mro - mr[:, None] - mo[None, :] + m) ** 2)
        / ((n_r - 1) * (n_o - 1)),
    }
    resid = (y - mpr[:, :, None] - mpo[:, None, :] - mro[None] + mp[:, None, None]
             + mr[None, :, None] + mo[None, None, :] - m)
    ms["pro"] = np.sum(resid ** 2) / ((n_p - 1) * (n_r - 1) * (n_o - 1))
    e = ms["pro"]
    expected = [
        (ms["p"] - ms["pr"] - ms["po"] + e) / (n_r * n_o),
        (ms["r"] - ms["pr"] - ms["ro"] + e) / (n_p * n_o),
        (ms["o"] - ms["po"] - ms["ro"] + e) / (n_p * n_r),
        (ms["pr"] - e) / n_o,
        (ms["po"] - e) / n_r,
        (ms["ro"] - e) / n_p,
        e,
    ]
    table = anova(make_design("p", ["r", "o"]), y)
    np.testing.assert_allclose(table.ms, [ms[k] for k in ("p", "r", "o", "pr", "po", "ro",
                                                         "pro")], rtol=1e-12)
    np.testing.assert_allclose(table.components, expected, rtol=1e-10, atol=1e-12)


def test_nested_p_x_r_in_o_matches_the_textbook_formulas():
    # p x (r:o): SS(r:o) = n_p Σ (mean_ro - mean_o)^2, df n_o (n_r - 1) (Brennan 2001, ch. 3)
    y = _scores((10, 2, 3), seed=4)  # axes p, o, r (r within o)
    n_p, n_o, n_r = y.shape
    m = y.mean()
    mp, mo, mpo, mro = y.mean((1, 2)), y.mean((0, 2)), y.mean(2), y.mean(0)
    ms_p = n_o * n_r * np.sum((mp - m) ** 2) / (n_p - 1)
    ms_o = n_p * n_r * np.sum((mo - m) ** 2) / (n_o - 1)
    ms_ro = n_p * np.sum((mro - mo[:, None]) ** 2) / (n_o * (n_r - 1))
    ms_po = n_r * np.sum((mpo - mp[:, None] - mo[None, :] + m) ** 2) / ((n_p - 1) * (n_o - 1))
    resid = y - mpo[:, :, None] - mro[None] + mo[None, :, None]
    ms_e = np.sum(resid ** 2) / ((n_p - 1) * n_o * (n_r - 1))
    design = make_design("p", ["o", "r"], {"r": "o"})
    table = anova(design, y)
    names = [e.name(design.letters) for e in design.effects]
    assert names == ["p", "o", "po", "r:o", "pr:o,e"]
    np.testing.assert_allclose(table.ms, [ms_p, ms_o, ms_po, ms_ro, ms_e], rtol=1e-12)
    np.testing.assert_allclose(table.components, [
        (ms_p - ms_po) / (n_o * n_r), (ms_o - ms_ro - ms_po + ms_e) / (n_p * n_r),
        (ms_po - ms_e) / n_r, (ms_ro - ms_e) / n_p, ms_e], rtol=1e-10)


@pytest.mark.parametrize(("obj", "facets", "nested", "shape"), DESIGNS)
def test_moment_route_of_the_bootstrap_equals_the_direct_anova(obj, facets, nested, shape):
    design = make_design(obj, facets, nested)
    y = _scores(shape)
    direct = anova(design, y)
    moments = object_moments(design, y)
    comps, ms = sums_to_components(design, shape[1:], moments.sum(axis=0))
    np.testing.assert_allclose(ms[0], direct.ms, rtol=1e-10)
    np.testing.assert_allclose(comps[0], direct.components, rtol=1e-9, atol=1e-12)
    # a resample with repeated objects: the same as the ANOVA of the repeated array
    pick = np.array([0, 0, 1, 3, 3, 3, *list(range(4, shape[0]))])
    counts = np.bincount(pick, minlength=shape[0]).astype(float)
    comps, _ = sums_to_components(design, shape[1:], counts @ moments)
    np.testing.assert_allclose(comps[0], anova(design, y[pick]).components, rtol=1e-9,
                               atol=1e-12)


def test_satterthwaite_interval_and_se_follow_their_formulas():
    design = make_design("p", ["r"])
    y = _scores((15, 4), seed=8)
    table = anova(design, y)
    low, high, nu = satterthwaite(table, 0.90)
    # σ²(p) = (MS_p - MS_pr) / n_r
    a, b = table.ms[0] / 4, table.ms[2] / 4
    estimate = a - b
    dof = estimate ** 2 / (a ** 2 / table.df[0] + b ** 2 / table.df[2])
    assert nu[0] == pytest.approx(dof, rel=1e-12)
    assert low[0] == pytest.approx(dof * estimate / chi2.ppf(0.95, dof), rel=1e-10)
    assert high[0] == pytest.approx(dof * estimate / chi2.ppf(0.05, dof), rel=1e-10)
    se = component_se(table)
    assert se[0] == pytest.approx(np.sqrt(2 * a ** 2 / (table.df[0] + 2)
                                          + 2 * b ** 2 / (table.df[2] + 2)), rel=1e-12)
    # the residual: an exact chi-square interval on its own df
    assert nu[2] == pytest.approx(table.df[2])


def test_non_positive_estimate_has_no_satterthwaite_interval():
    y = np.array([[1.0, 2, 3], [1.1, 2.1, 2.9], [0.9, 2.0, 3.1], [1.0, 1.9, 3.0]])
    y[:, :] += np.array([[0.3, -0.3, 0.0], [-0.2, 0.2, 0.0], [0.1, 0.1, -0.2],
                         [0.0, 0.0, 0.0]])
    table = anova(make_design("p", ["r"]), y)
    low, high, _ = satterthwaite(table, 0.95)
    assert table.components[0] < 0
    assert np.isnan(low[0])
    assert np.isnan(high[0])
