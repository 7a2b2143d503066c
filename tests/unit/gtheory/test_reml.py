"""REML for G studies: the pattern-blocked Woodbury criterion against the dense
restricted likelihood, REML against ANOVA on balanced data, and its covariance against
the dense information."""

import numpy as np
import pytest

from irr.gtheory.anova import anova
from irr.gtheory.designs import make_design
from irr.gtheory.reml import RemlProblem, reml

DESIGNS = [
    ("p", ["r"], None, (14, 4)),
    ("p", ["r", "o"], None, (10, 3, 2)),
    ("p", ["o", "r"], {"r": "o"}, (10, 2, 3)),
    ("p", ["r"], {"r": "p"}, (12, 3)),
    ("p", ["i", "r"], None, (8, 3, 3)),
    ("p", ["i", "s", "r"], {"i": "s"}, (6, 3, 2, 2)),
]


def _scores(shape, seed=0, missing=0.0):
    rng = np.random.default_rng(seed)
    y = rng.normal(size=shape) + 1.5 * rng.normal(size=(shape[0],) + (1,) * (len(shape) - 1))
    y += 0.7 * rng.normal(size=(1, *shape[1:]))
    y = np.round(5 + y, 2)
    if missing:
        drop = rng.random(shape) < missing
        drop[0] = False
        y[drop] = np.nan
    return y


def _effects_scores(design, shape, seed):
    """A full array with a normal effect (sd 1) for every level of every effect."""
    rng = np.random.default_rng(seed)
    names = design.all_facets
    y = np.full(shape, 5.0)
    for effect in design.effects:
        sub = tuple(shape[names.index(f)] if f in effect.facets else 1 for f in names)
        y = y + rng.normal(size=sub)
    return y


def _dense_criterion(design, y, theta):
    """-2 log L_R from the n x n covariance of the scores, written from the model."""
    shape = y.shape
    index = np.indices(shape).reshape(len(shape), -1).T
    keep = ~np.isnan(y.ravel())
    index, values = index[keep], y.ravel()[keep]
    names = design.all_facets
    v = np.zeros((values.size, values.size))
    for t, effect in zip(theta, design.effects, strict=True):
        axes = [names.index(f) for f in effect.facets]
        key = [tuple(row[axes]) for row in index]
        same = np.array([[a == b for b in key] for a in key], dtype=float)
        v += t * same
    vi = np.linalg.inv(v)
    one = np.ones(values.size)
    beta = one @ vi @ values / (one @ vi @ one)
    r = values - beta
    return np.linalg.slogdet(v)[1] + np.log(one @ vi @ one) + r @ vi @ r


@pytest.mark.parametrize(("obj", "facets", "nested", "shape"), DESIGNS)
def test_criterion_equals_the_dense_restricted_likelihood(obj, facets, nested, shape):
    design = make_design(obj, facets, nested)
    y = _scores(shape, seed=1, missing=0.15)
    problem = RemlProblem(design, y, np.ones(shape[1:], bool))
    rng = np.random.default_rng(2)
    for _ in range(2):
        theta = rng.uniform(0.1, 2.0, size=len(design.effects))
        assert problem.criterion(theta) == pytest.approx(_dense_criterion(design, y, theta),
                                                         rel=1e-10)
    theta[0] = 0.0  # a component on the boundary
    assert problem.criterion(theta) == pytest.approx(_dense_criterion(design, y, theta),
                                                     rel=1e-10)


@pytest.mark.parametrize(("obj", "facets", "nested", "shape"), DESIGNS)
def test_reml_equals_anova_on_balanced_data_with_positive_estimates(obj, facets, nested,
                                                                     shape):
    design = make_design(obj, facets, nested)
    for seed in range(50):  # the first data set whose ANOVA estimates are all positive
        y = _effects_scores(design, (3 * shape[0], *shape[1:]), seed=seed)
        table = anova(design, y)
        if np.all(table.components > 0.02):
            break
    else:
        raise AssertionError("no data set with positive ANOVA estimates")
    fit = reml(RemlProblem(design, y, np.ones(shape[1:], bool)))
    np.testing.assert_allclose(fit.components, table.components, rtol=2e-5, atol=1e-6)


def test_cells_no_object_has_are_left_out():
    design = make_design("p", ["i", "s"], {"i": "s"})
    y = _scores((9, 3, 2), seed=5)
    y[:, 2, 0] = np.nan  # subtest 0 has 2 items, subtest 1 has 3
    exists = np.ones((3, 2), bool)
    exists[2, 0] = False
    padded = RemlProblem(design, y, np.ones((3, 2), bool))
    trimmed = RemlProblem(design, y, exists)
    theta = np.array([1.0, 0.5, 0.3, 0.4, 0.8])
    assert padded.criterion(theta) == pytest.approx(trimmed.criterion(theta), rel=1e-12)
    assert trimmed.patterns.shape[1] == 5


def test_covariance_is_the_inverse_half_hessian_of_the_criterion():
    design = make_design("p", ["r"])
    y = _scores((20, 4), seed=6, missing=0.1)
    problem = RemlProblem(design, y, np.ones(4, bool))
    fit = reml(problem)
    assert np.all(fit.components > 0)
    # the dense criterion's Hessian by a wider central difference
    t = fit.components
    h = 1e-3 * t
    hess = np.empty((3, 3))
    for i in range(3):
        for j in range(3):
            ei, ej = np.eye(3)[i] * h[i], np.eye(3)[j] * h[j]
            f = [_dense_criterion(design, y, t + s1 * ei + s2 * ej) for s1, s2 in
                 ((1, 1), (1, -1), (-1, 1), (-1, -1))]
            hess[i, j] = (f[0] - f[1] - f[2] + f[3]) / (4 * h[i] * h[j])
    np.testing.assert_allclose(fit.covariance, np.linalg.inv(hess / 2), rtol=1e-3)
