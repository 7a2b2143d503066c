"""Unit tests for irr.ordinal.KappaRegressor (Vaughn & Justice, eq. 8-14)."""

from __future__ import annotations

import subprocess
import sys

import numpy as np
import pytest
from scipy.optimize import minimize

from irr import DegenerateDataWarning
from irr.ordinal import KappaRegressor, continuous_kappa, kappa_loss, kappa_loss_gradient


def make_data(n=120, d=4, seed=0):
    rng = np.random.default_rng(seed)
    X = rng.normal(size=(n, d)) + rng.normal(size=d)
    beta = rng.normal(size=d)
    y = np.clip(np.rint(2.5 + X @ beta * 0.6 + rng.normal(size=n)), 0, 5)
    return X, y


def centred(X, y):
    return X - X.mean(axis=0), y - y.mean()


@pytest.mark.parametrize("seed", [0, 1, 2])
def test_no_other_scaling_of_least_squares_does_better(seed):
    X, y = make_data(seed=seed)
    model = KappaRegressor().fit(X, y)
    Xc, yc = centred(X, y)
    alpha_ls = np.linalg.lstsq(Xc, yc, rcond=None)[0]
    fitted_ls = Xc @ alpha_ls
    scales = np.linspace(0.05, 4.0, 400)
    kappas = [continuous_kappa(y, y.mean() + c * fitted_ls) for c in scales]
    assert max(kappas) <= model.kappa_ + 1e-12
    assert max(kappas) > model.kappa_ - 1e-4  # the grid gets close to the optimum
    # and the optimal scale is ||y|| / ||y_ls|| (eq. 9)
    np.testing.assert_allclose(
        model.coef_, np.linalg.norm(yc) / np.linalg.norm(fitted_ls) * alpha_ls, rtol=1e-12
    )


@pytest.mark.parametrize("seed", [0, 3])
def test_matches_numerical_maximisation_with_intercept(seed):
    X, y = make_data(seed=seed)
    model = KappaRegressor().fit(X, y)

    def loss(theta):
        return kappa_loss(y, X @ theta[:-1] + theta[-1])

    def grad(theta):
        g = kappa_loss_gradient(y, X @ theta[:-1] + theta[-1])
        return np.concatenate((X.T @ g, [g.sum()]))

    start = np.concatenate((np.full(X.shape[1], 0.1), [y.mean()]))
    res = minimize(loss, start, jac=grad, method="BFGS", options={"gtol": 1e-12, "maxiter": 5000})
    assert 1 - res.fun == pytest.approx(model.kappa_, abs=1e-10)
    np.testing.assert_allclose(res.x[:-1], model.coef_, atol=1e-6)
    assert res.x[-1] == pytest.approx(model.intercept_, abs=1e-6)


def test_matches_numerical_maximisation_without_intercept():
    X, y = make_data(seed=4)
    y = y - y.mean()  # the paper's setting: y centred, no intercept
    model = KappaRegressor(fit_intercept=False).fit(X, y)

    def loss(alpha):
        return kappa_loss(y, X @ alpha, centered=True)

    def grad(alpha):
        return X.T @ kappa_loss_gradient(y, X @ alpha, centered=True)

    res = minimize(
        loss,
        np.full(X.shape[1], 0.1),
        jac=grad,
        method="BFGS",
        options={"gtol": 1e-12, "maxiter": 5000},
    )
    np.testing.assert_allclose(res.x, model.coef_, atol=1e-6)
    assert 1 - res.fun == pytest.approx(model.kappa_, abs=1e-10)
    assert model.intercept_ == 0.0


@pytest.mark.parametrize("seed", [0, 5])
def test_kappa_equals_pearson_correlation_at_optimum(seed):
    X, y = make_data(seed=seed)
    model = KappaRegressor().fit(X, y)
    prediction = model.predict(X)
    r = np.corrcoef(y, prediction)[0, 1]
    assert model.kappa_ == pytest.approx(r, abs=1e-12)  # eq. 14
    assert model.score(X, y) == pytest.approx(model.kappa_, abs=1e-12)
    # eq. 8: kappa = ||y_ls|| / ||y|| = multiple correlation R
    Xc, yc = centred(X, y)
    fitted_ls = Xc @ np.linalg.lstsq(Xc, yc, rcond=None)[0]
    assert model.kappa_ == pytest.approx(np.linalg.norm(fitted_ls) / np.linalg.norm(yc), abs=1e-14)
    assert 0.3 < model.kappa_ < 1.0


def test_without_intercept_kappa_is_centred_form():
    X, y = make_data(seed=6)
    model = KappaRegressor(fit_intercept=False).fit(X, y)
    assert model.kappa_ == pytest.approx(
        continuous_kappa(y, model.predict(X), centered=True), abs=1e-12
    )


@pytest.mark.parametrize("sigma", [0.5, 5.0, 50.0])
def test_ridge_matches_eq_12_and_13(sigma):
    X, y = make_data(n=40, d=3, seed=8)
    model = KappaRegressor(sigma=sigma).fit(X, y)
    Xc, yc = centred(X, y)
    H = Xc @ np.linalg.solve(Xc.T @ Xc + sigma * np.eye(3), Xc.T)
    kappa12 = np.sqrt((2 * yc @ H @ yc - yc @ H @ H @ yc) / (yc @ yc))
    assert model.kappa_ == pytest.approx(kappa12, abs=1e-13)
    alpha_rr = np.linalg.solve(Xc.T @ Xc + sigma * np.eye(3), Xc.T @ yc)
    np.testing.assert_allclose(model.coef_, alpha_rr / kappa12, rtol=1e-12)
    # the fixed point is self-consistent: kappa of the predictions is kappa_ (eq. 11)
    assert model.score(X, y) == pytest.approx(model.kappa_, abs=1e-12)
    # the penalty costs kappa
    assert model.kappa_ < KappaRegressor().fit(X, y).kappa_


@pytest.mark.parametrize("sigma", [1.0, 20.0])
def test_ridge_matches_numerical_maximisation_of_penalised_objective(sigma):
    X, y = make_data(n=60, d=3, seed=9)
    model = KappaRegressor(sigma=sigma).fit(X, y)
    Xc, yc = centred(X, y)
    gamma = yc @ yc + np.sum((Xc @ model.coef_) ** 2)
    mu = sigma * model.kappa_ / gamma  # sigma = mu * gamma / kappa (eq. 10)

    def objective(alpha):
        fitted = Xc @ alpha
        return -(2 * yc @ fitted / (yc @ yc + fitted @ fitted) - mu * alpha @ alpha)

    def grad(alpha):
        fitted = Xc @ alpha
        den = yc @ yc + fitted @ fitted
        kappa = 2 * yc @ fitted / den
        return -(2 / den * Xc.T @ (yc - kappa * fitted) - 2 * mu * alpha)

    res = minimize(
        objective, np.zeros(3), jac=grad, method="BFGS", options={"gtol": 1e-13, "maxiter": 5000}
    )
    np.testing.assert_allclose(res.x, model.coef_, atol=1e-6)


def test_small_sigma_approaches_least_squares_solution():
    X, y = make_data(seed=10)
    np.testing.assert_allclose(
        KappaRegressor(sigma=1e-9).fit(X, y).coef_, KappaRegressor().fit(X, y).coef_, rtol=1e-8
    )


def test_no_signal_gives_zero_coefficients():
    X = np.array([[1.0], [-1.0], [1.0], [-1.0]])
    y = np.array([1.0, 1.0, 2.0, 2.0])  # orthogonal to the centred column
    model = KappaRegressor().fit(X, y)
    assert model.kappa_ == 0.0
    np.testing.assert_array_equal(model.coef_, [0.0])
    np.testing.assert_allclose(model.predict(X), 1.5)


def test_constant_y_warns_and_gives_nan_kappa():
    X, _ = make_data()
    with pytest.warns(DegenerateDataWarning, match=r"`y` is constant \(got 3.0 for every sample\)"):
        model = KappaRegressor().fit(X, np.full(X.shape[0], 3.0))
    assert np.isnan(model.kappa_)
    np.testing.assert_array_equal(model.predict(X[:3]), [3.0, 3.0, 3.0])


def test_params_repr_and_dataframe_input():
    pd = pytest.importorskip("pandas")
    model = KappaRegressor(sigma=2.0)
    assert model.get_params() == {"fit_intercept": True, "sigma": 2.0}
    assert repr(model) == "KappaRegressor(sigma=2.0)"
    assert model.set_params(fit_intercept=False) is model
    assert repr(model) == "KappaRegressor(sigma=2.0, fit_intercept=False)"
    with pytest.raises(ValueError, match="Invalid parameter 'alpha' for estimator KappaRegressor"):
        model.set_params(alpha=1)
    X, y = make_data(seed=11)
    frame = pd.DataFrame(X, columns=["a", "b", "c", "d"])
    fitted = KappaRegressor().fit(frame, pd.Series(y))
    assert fitted.n_features_in_ == 4
    assert fitted.feature_names_in_.tolist() == ["a", "b", "c", "d"]
    np.testing.assert_allclose(fitted.predict(frame), KappaRegressor().fit(X, y).predict(X))


def test_import_does_not_load_sklearn():
    code = "import sys, irr.ordinal; print('sklearn' in sys.modules)"
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "False"


def test_not_fitted_without_sklearn_is_value_and_attribute_error():
    code = (
        "import sys\n"
        "from irr.ordinal import KappaRegressor\n"
        "try:\n"
        "    KappaRegressor().predict([[1.0]])\n"
        "except ValueError as e:\n"
        "    print(isinstance(e, AttributeError), 'not fitted' in str(e))\n"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "True True"


@pytest.mark.filterwarnings("ignore:Estimator KappaRegressor does not inherit:UserWarning")
@pytest.mark.parametrize(
    "estimator", [KappaRegressor(), KappaRegressor(sigma=1.0, fit_intercept=False)], ids=repr
)
def test_sklearn_check_estimator(estimator):
    estimator_checks = pytest.importorskip("sklearn.utils.estimator_checks")
    # every applicable check passes: no expected failures are declared
    results = estimator_checks.check_estimator(estimator, on_skip=None)
    statuses = {r["check_name"]: r["status"] for r in results}
    assert "failed" not in statuses.values()
    assert statuses["check_regressors_train"] == "passed"
    assert statuses["check_estimators_unfitted"] == "passed"
    assert statuses["check_supervised_y_2d"] == "passed"


def test_sklearn_cross_validation_uses_kappa_score():
    model_selection = pytest.importorskip("sklearn.model_selection")
    X, y = make_data(n=200, seed=12)
    scores = model_selection.cross_val_score(KappaRegressor(), X, y, cv=4)
    assert scores.shape == (4,)
    assert np.all((scores > 0.2) & (scores < 1.0))


BAD_FIT = [
    (
        {},
        lambda X, y: (X[:-5], y),
        ValueError,
        r"`X` and `y` must have the same number of samples \(rows\); got 115 rows in `X` and 120",
    ),
    (
        {},
        lambda X, y: (np.column_stack([X, X[:, 0]]), y),
        ValueError,
        r"X\^T X of the centred `X` is singular \(rank 4 < 5 features\).*use a ridge penalty "
        r"`sigma` > 0",
    ),
    (
        {"fit_intercept": False},
        lambda X, y: (np.column_stack([X, 2 * X[:, 1]]), y),
        ValueError,
        r"X\^T X is singular \(rank 4 < 5 features\).*`sigma` > 0",
    ),
    (
        {},
        lambda X, y: (np.column_stack([X, np.ones(len(y))]), y),
        ValueError,
        r"singular \(rank 4 < 5 features\)",
    ),
    (
        {"sigma": -1.0},
        lambda X, y: (X, y),
        ValueError,
        r"`sigma` must be a finite number >= 0; got -1.0",
    ),
    (
        {"sigma": "big"},
        lambda X, y: (X, y),
        TypeError,
        r"`sigma` must be a real number >= 0; got 'big'",
    ),
    ({}, lambda X, y: (X, None), ValueError, r"requires y to be passed, but the target y is None"),
    (
        {},
        lambda X, y: (X[:, 0], y),
        ValueError,
        r"`X` must be 2-D .*got an array of shape \(120,\)",
    ),
    (
        {},
        lambda X, y: (X, np.column_stack([y, y])),
        ValueError,
        r"`y` must be 1-D of shape \(n_samples,\); got an array of shape \(120, 2\)",
    ),
    (
        {},
        lambda X, y: (np.where(X > 2.5, np.nan, X), y),
        ValueError,
        r"`X` must be finite \(no nan",
    ),
    ({}, lambda X, y: (X[:1], y[:1]), ValueError, r"at least 2 samples; got n_samples=1"),
]


@pytest.mark.parametrize(("params", "transform", "error", "message"), BAD_FIT)
def test_bad_fit_input(params, transform, error, message):
    X, y = make_data()
    with pytest.raises(error, match=message):
        KappaRegressor(**params).fit(*transform(X, y))


def test_singular_design_works_with_ridge():
    X, y = make_data()
    X = np.column_stack([X, X[:, 0]])
    model = KappaRegressor(sigma=1.0).fit(X, y)
    assert model.coef_[0] == pytest.approx(model.coef_[-1], rel=1e-10)  # penalty splits evenly


def test_predict_errors():
    X, y = make_data()
    with pytest.raises(ValueError, match="not fitted yet"):
        KappaRegressor().predict(X)
    model = KappaRegressor().fit(X, y)
    with pytest.raises(ValueError, match="X has 3 features, but KappaRegressor is expecting 4"):
        model.predict(X[:, :3])
    with pytest.raises(ValueError, match=r"`X` and `y` must have the same number of samples"):
        model.score(X, y[:-1])


def test_string_targets_are_rejected_like_everywhere_in_irr_ordinal():
    from irr.ordinal import KappaRegressor

    X = np.arange(8.0).reshape(4, 2)
    with pytest.raises(TypeError, match=r"`y` must contain real numbers; .*strings are not converted"):
        KappaRegressor().fit(X, np.array(["1", "2", "3", "4"]))
