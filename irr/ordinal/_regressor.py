"""The closed-form kappa-optimal linear model (Vaughn & Justice, eq. 9 and 13)."""

from __future__ import annotations

import sys
import warnings
from typing import Any

import numpy as np

from irr._validation import DegenerateDataWarning
from irr.ordinal._checks import as_2d_real, check_nonnegative_real, to_float
from irr.ordinal._kappa import continuous_kappa

__all__ = ["KappaRegressor"]


class _NotFittedError(ValueError, AttributeError):
    """Stand-in for scikit-learn's NotFittedError when scikit-learn is not loaded."""


class _DataConversionWarning(UserWarning):
    """Stand-in for scikit-learn's DataConversionWarning when scikit-learn is not loaded."""


def _sklearn_class(name: str, fallback: type) -> type:
    """Return ``sklearn.exceptions.<name>`` if scikit-learn is already imported.

    Anyone able to catch scikit-learn's class has imported it, so checking
    ``sys.modules`` keeps scikit-learn optional and never imports it.
    """
    module = sys.modules.get("sklearn.exceptions")
    return getattr(module, name, fallback) if module is not None else fallback


def _target(y: Any, n_rows: int) -> np.ndarray:
    if y is None:
        raise ValueError(
            "KappaRegressor requires y to be passed, but the target y is None; "
            "`y` must be a 1-D array-like of shape (n_samples,)."
        )
    array = np.asarray(y)
    if array.ndim == 2 and array.shape[1] == 1:
        warnings.warn(
            "A column-vector y was passed when a 1d array was expected; `y` was raveled "
            "to shape (n_samples,).",
            _sklearn_class("DataConversionWarning", _DataConversionWarning),
            stacklevel=3,
        )
        array = array.ravel()
    if array.ndim != 1:
        raise ValueError(
            f"`y` must be 1-D of shape (n_samples,); got an array of shape {array.shape}."
        )
    values = to_float(array, "y")
    bad = ~np.isfinite(values)
    if bad.any():
        first = int(np.flatnonzero(bad)[0])
        raise ValueError(
            f"`y` must be finite (no nan or inf); got {int(bad.sum())} value(s), the first "
            f"at position {first} ({float(values[first])!r})."
        )
    if values.shape[0] != n_rows:
        raise ValueError(
            f"`X` and `y` must have the same number of samples (rows); got {n_rows} rows in "
            f"`X` and {values.shape[0]} values in `y`."
        )
    return values


class KappaRegressor:
    r"""Linear model that maximises the (continuous) quadratic weighted kappa in closed form.

    Vaughn & Justice show that the coefficients maximising quadratic weighted kappa over
    linear predictions are the least-squares (or ridge) coefficients, rescaled, so the
    predictions are an increasing affine transform of the least-squares (or ridge) ones. The
    model
    follows scikit-learn's estimator conventions (``fit``/``predict``/``score``,
    ``get_params``/``set_params``, trailing-underscore fitted attributes) without importing
    scikit-learn, so it can be used in its pipelines, grid searches and cross-validation.

    Parameters
    ----------
    sigma : float, default=0.0
        Ridge penalty :math:`\sigma \ge 0` added to the diagonal of :math:`X^\top X`
        (eq. 10). 0 gives the unregularised solution (eq. 9), which needs :math:`X^\top X`
        (of the centred `X` when `fit_intercept`) to be non-singular. Like scikit-learn's
        ``Ridge(alpha=...)``, it is not scaled by the number of samples and the intercept is
        not penalised. Like ridge, ``sigma > 0`` shrinks the predictions towards the mean:
        their spread is then below that of `y` (at ``sigma = 0`` they have the spread of
        `y`) and tends to 0 as `sigma` grows; see Notes.
    fit_intercept : bool, default=True
        Centre `X` and `y` before solving and fit an intercept. If False, the data are used as
        given and the model maximises the centred form (eq. 2), which the paper derives
        assuming `y` has mean zero.

    Attributes
    ----------
    coef_ : ndarray of shape (n_features,)
        Kappa-optimal coefficients :math:`\hat\alpha_\kappa`.
    intercept_ : float
        :math:`\bar y - \bar x^\top \hat\alpha_\kappa` if `fit_intercept`, else 0.0.
    kappa_ : float
        In-sample optimum :math:`\hat\kappa` (eq. 8, or eq. 12 when ``sigma > 0``). With
        `fit_intercept` it equals ``continuous_kappa(y, self.predict(X))`` on the training
        data; without, the centred form ``continuous_kappa(y, ..., centered=True)``.
    n_features_in_ : int
        Number of features seen in `fit`.
    feature_names_in_ : ndarray of shape (``n_features_in_``,)
        Column names, when `X` was a DataFrame with string column names.

    See Also
    --------
    continuous_kappa : the score being maximised.

    Notes
    -----
    Let :math:`X` and :math:`y` be centred (when `fit_intercept`),
    :math:`\hat\alpha_{rr} = (X^\top X + \sigma I)^{-1} X^\top y` and
    :math:`\hat y_{rr} = X\hat\alpha_{rr}`. Then (eq. 11-13)

    .. math::

        \hat\kappa = \frac{\sqrt{2\,y^\top\hat y_{rr} - \lVert\hat y_{rr}\rVert^2}}{\lVert y\rVert},
        \qquad
        \hat\alpha_\kappa = \frac{1}{\hat\kappa}\,\hat\alpha_{rr}.

    With :math:`\sigma = 0` this is the least-squares fit scaled so that the prediction has the
    norm of :math:`y` (eq. 8-9): :math:`\hat\kappa = \lVert\hat y_{ls}\rVert / \lVert y\rVert`
    and :math:`\hat\alpha_\kappa = (\lVert y\rVert / \lVert\hat y_{ls}\rVert)\,\hat\alpha_{ls}`.
    The centred kappa :math:`\kappa(\alpha) = 2y^\top X\alpha / (\lVert y\rVert^2 +
    \lVert X\alpha\rVert^2)` is strictly quasiconcave on the half-space
    :math:`y^\top X\alpha > 0` (its superlevel sets at positive levels are convex), not on
    the whole space: with one feature, :math:`X^\top X = y^\top y = y^\top X = 1`, the
    midpoint of :math:`\alpha = -3` (kappa -0.6) and :math:`\alpha = 0` (kappa 0) has kappa
    :math:`-12/13 < -0.6`. Kappa is :math:`\le 0` outside that half-space, so the stationary
    point inside it is the global maximiser; at it, kappa equals the Pearson correlation of
    :math:`y` and the prediction (eq. 14), i.e. the multiple correlation :math:`R`.
    With :math:`\sigma > 0` the solution is the stationary point of the penalised
    objective :math:`\kappa(\alpha) - \mu\lVert\alpha\rVert^2` with
    :math:`\mu = \sigma\hat\kappa/(\lVert y\rVert^2 + \lVert X\hat\alpha_\kappa\rVert^2)`
    (eq. 10); its kappa is below the unpenalised optimum. The centred predictions
    :math:`\hat y_{rr} / \hat\kappa` then have norm
    :math:`\lVert y\rVert\,\lVert\hat y_{rr}\rVert / \sqrt{2\,y^\top\hat y_{rr} -
    \lVert\hat y_{rr}\rVert^2} < \lVert y\rVert` (ridge gives
    :math:`y^\top\hat y_{rr} > \lVert\hat y_{rr}\rVert^2` when :math:`X^\top y \ne 0`), which
    tends to 0 as :math:`\sigma \to \infty`: the penalty shrinks the predictions' scale as
    well as their direction, so rounding them to the nearest grade under-uses the extreme
    grades. The least-squares problem is solved by :func:`numpy.linalg.lstsq` (SVD); a
    rank-deficient design with ``sigma=0`` raises. If :math:`X^\top y = 0` every linear
    prediction has kappa 0; the model then returns zero coefficients and ``kappa_ = 0``.

    The predictions are :math:`\bar y + (\hat y_{ls} - \bar y)/\hat\kappa` (ridge in place
    of least squares when :math:`\sigma > 0`; :math:`\hat y_{ls}/\hat\kappa`, least squares
    through the origin, without `fit_intercept`), an increasing affine transform of the
    least-squares predictions. They therefore rank the samples exactly as least squares does,
    and cut points fitted on the training predictions (:func:`optimize_thresholds`,
    :func:`distribution_thresholds`) give the same labels as the same rule applied to least
    squares. The rescaling helps only where the scale of the predictions is used as it is:
    continuous QWK (``score``, and model selection on it), and fixed cut points such as
    rounding to the nearest grade, which least squares' shrunken predictions under-use at
    the ends of the scale.

    ``score(X, y)`` is the general :func:`continuous_kappa` of `y` and ``predict(X)``, so
    scikit-learn's model selection maximises kappa. Threshold the predictions with
    :func:`optimize_thresholds` or :func:`distribution_thresholds` to obtain ordinal labels.

    References
    ----------
    .. [1] D. Vaughn and D. Justice, "On the direct maximization of quadratic weighted
       kappa", arXiv:1509.07107, 2015.

    Examples
    --------
    >>> import numpy as np
    >>> from irr.ordinal import KappaRegressor
    >>> rng = np.random.default_rng(0)
    >>> X = rng.normal(size=(200, 3))
    >>> y = np.clip(np.rint(2 + X @ [0.8, -0.5, 0.3] + rng.normal(size=200)), 0, 4)
    >>> model = KappaRegressor().fit(X, y)
    >>> round(model.kappa_, 4), round(model.score(X, y), 4)
    (0.6749, 0.6749)
    >>> model.coef_
    array([ 0.9628..., -0.7184...,  0.4444...])
    >>> round(float(np.corrcoef(y, model.predict(X))[0, 1]), 4)  # eq. 14
    0.6749
    """

    def __init__(self, sigma: float = 0.0, fit_intercept: bool = True) -> None:
        self.sigma = sigma
        self.fit_intercept = fit_intercept

    # -- scikit-learn estimator protocol -------------------------------------------------

    def get_params(self, deep: bool = True) -> dict[str, Any]:
        """Get the parameters of this estimator.

        Parameters
        ----------
        deep : bool, default=True
            Ignored (the model has no sub-estimators); kept for scikit-learn compatibility.

        Returns
        -------
        dict
            ``{"sigma": ..., "fit_intercept": ...}``.

        Examples
        --------
        >>> from irr.ordinal import KappaRegressor
        >>> KappaRegressor(sigma=2.0).get_params()
        {'fit_intercept': True, 'sigma': 2.0}
        """
        return {"fit_intercept": self.fit_intercept, "sigma": self.sigma}

    def set_params(self, **params: Any) -> KappaRegressor:
        """Set the parameters of this estimator.

        Parameters
        ----------
        **params
            ``sigma`` and/or ``fit_intercept``.

        Returns
        -------
        KappaRegressor
            The estimator itself.

        Raises
        ------
        ValueError
            If a name is not a parameter of the estimator.

        Examples
        --------
        >>> from irr.ordinal import KappaRegressor
        >>> KappaRegressor().set_params(sigma=0.5)
        KappaRegressor(sigma=0.5)
        """
        valid = self.get_params()
        for key, value in params.items():
            if key not in valid:
                raise ValueError(
                    f"Invalid parameter {key!r} for estimator KappaRegressor; valid parameters "
                    f"are {sorted(valid)}."
                )
            setattr(self, key, value)
        return self

    def __repr__(self) -> str:
        defaults = {"sigma": 0.0, "fit_intercept": True}
        shown = ", ".join(
            f"{key}={value!r}"
            for key, value in (("sigma", self.sigma), ("fit_intercept", self.fit_intercept))
            if not (type(value) is type(defaults[key]) and value == defaults[key])
        )
        return f"KappaRegressor({shown})"

    def __sklearn_tags__(self) -> Any:
        """Estimator tags for scikit-learn >= 1.6 (imports scikit-learn only when called)."""
        from sklearn.utils import RegressorTags, Tags, TargetTags

        return Tags(
            estimator_type="regressor",
            target_tags=TargetTags(required=True),
            regressor_tags=RegressorTags(),
        )

    def _more_tags(self) -> dict[str, Any]:
        return {"requires_y": True}

    # -- fitting ------------------------------------------------------------------------

    def _check_X(self, X: Any, *, reset: bool) -> np.ndarray:
        columns = getattr(X, "columns", None)
        array = as_2d_real(X, "X")
        if reset:
            self.n_features_in_ = array.shape[1]
            if columns is not None and all(isinstance(c, str) for c in columns):
                self.feature_names_in_ = np.asarray(list(columns), dtype=object)
            elif hasattr(self, "feature_names_in_"):
                del self.feature_names_in_
        elif array.shape[1] != self.n_features_in_:
            raise ValueError(
                f"X has {array.shape[1]} features, but KappaRegressor is expecting "
                f"{self.n_features_in_} features as input."
            )
        return array

    def fit(self, X: Any, y: Any) -> KappaRegressor:
        """Fit the kappa-optimal linear model.

        Parameters
        ----------
        X : array-like of shape (n_samples, n_features)
            Finite real features.
        y : array-like of shape (n_samples,)
            Finite real targets (typically integer grades).

        Returns
        -------
        KappaRegressor
            The fitted estimator.

        Raises
        ------
        ValueError
            If `X` and `y` differ in length, contain nan/inf, have fewer than 2 samples,
            `sigma` is negative, or ``sigma == 0`` and :math:`X^\\top X` is singular.
        TypeError
            If an input is not numeric or `sigma` is not a real number.

        Warns
        -----
        DegenerateDataWarning
            If `y` is constant (all zero without `fit_intercept`): kappa is undefined for any
            prediction, so ``kappa_`` is nan and the coefficients are zero.

        Examples
        --------
        >>> import numpy as np
        >>> from irr.ordinal import KappaRegressor
        >>> rng = np.random.default_rng(0)
        >>> X = rng.normal(size=(200, 3))
        >>> y = np.clip(np.rint(2 + X @ [0.8, -0.5, 0.3] + rng.normal(size=200)), 0, 4)
        >>> model = KappaRegressor(sigma=1.0).fit(X, y)
        >>> model.coef_.round(3), round(model.kappa_, 4)
        (array([ 0.958, -0.715,  0.442]), 0.6749)
        """
        sigma = check_nonnegative_real(self.sigma, "sigma")
        X_arr = self._check_X(X, reset=True)
        y_arr = _target(y, X_arr.shape[0])
        n_samples, n_features = X_arr.shape
        if n_samples < 2:
            raise ValueError(f"KappaRegressor needs at least 2 samples; got n_samples={n_samples}.")
        if self.fit_intercept:
            x_mean = X_arr.mean(axis=0)
            y_mean = float(y_arr.mean())
            Xc = X_arr - x_mean
            yc = y_arr - y_mean
        else:
            x_mean = np.zeros(n_features)
            y_mean = 0.0
            Xc, yc = X_arr, y_arr
        y_norm2 = float(np.dot(yc, yc))
        if y_norm2 == 0.0:
            what = "constant" if self.fit_intercept else "all zero"
            warnings.warn(
                f"`y` is {what} (got {float(y_arr[0])!r} for every sample), so kappa is "
                "undefined for every prediction; kappa_ is nan and the model predicts "
                f"{float(y_mean)!r}.",
                DegenerateDataWarning,
                stacklevel=2,
            )
            self.coef_ = np.zeros(n_features)
            self.intercept_ = y_mean
            self.kappa_ = float("nan")
            return self
        if sigma == 0.0:
            alpha, _, rank, _ = np.linalg.lstsq(Xc, yc, rcond=None)
            if rank < n_features:
                where = "of the centred `X` " if self.fit_intercept else ""
                raise ValueError(
                    f"X^T X {where}is singular (rank {rank} < {n_features} features), so the "
                    "sigma=0 solution is not unique; use a ridge penalty `sigma` > 0 or drop "
                    "collinear/constant columns."
                )
            fitted = Xc @ alpha
            q = float(np.dot(fitted, fitted))  # = y^T H y, eq. 7-8
        else:
            gram = Xc.T @ Xc
            gram[np.diag_indices_from(gram)] += sigma
            alpha = np.linalg.solve(gram, Xc.T @ yc)
            fitted = Xc @ alpha
            q = float(2.0 * np.dot(yc, fitted) - np.dot(fitted, fitted))  # eq. 11
        if q > 0.0:
            kappa = float(np.sqrt(q / y_norm2))
            coef = alpha / kappa
        else:
            kappa = 0.0
            coef = np.zeros(n_features)
        self.coef_ = coef
        self.intercept_ = float(y_mean - x_mean @ coef) if self.fit_intercept else 0.0
        self.kappa_ = kappa
        return self

    def _check_fitted(self) -> None:
        if not hasattr(self, "coef_"):
            error = _sklearn_class("NotFittedError", _NotFittedError)
            raise error(
                "This KappaRegressor instance is not fitted yet. Call 'fit' with appropriate "
                "arguments before using this estimator."
            )

    def predict(self, X: Any) -> np.ndarray:
        """Predict continuous scores :math:`X\\hat\\alpha_\\kappa + b`.

        Parameters
        ----------
        X : array-like of shape (n_samples, n_features)
            Finite real features, with as many columns as in `fit`.

        Returns
        -------
        ndarray of shape (n_samples,)
            Real-valued predictions; see :func:`optimize_thresholds` to turn them into labels.

        Raises
        ------
        NotFittedError
            If called before `fit` (scikit-learn's class if scikit-learn is loaded, else a
            subclass of ValueError and AttributeError).
        ValueError
            If `X` has the wrong number of features or contains nan/inf.

        Examples
        --------
        >>> import numpy as np
        >>> from irr.ordinal import KappaRegressor
        >>> rng = np.random.default_rng(0)
        >>> X = rng.normal(size=(200, 3))
        >>> y = np.clip(np.rint(2 + X @ [0.8, -0.5, 0.3] + rng.normal(size=200)), 0, 4)
        >>> model = KappaRegressor().fit(X, y)
        >>> model.predict(X[:3]).round(3)
        array([2.51 , 2.656, 2.272])
        """
        self._check_fitted()
        X_arr = self._check_X(X, reset=False)
        return X_arr @ self.coef_ + self.intercept_

    def score(self, X: Any, y: Any) -> float:
        """Continuous quadratic weighted kappa of ``predict(X)`` against `y`.

        Parameters
        ----------
        X : array-like of shape (n_samples, n_features)
            Features.
        y : array-like of shape (n_samples,)
            Reference scores.

        Returns
        -------
        float
            ``continuous_kappa(y, self.predict(X))`` (general form).

        Raises
        ------
        ValueError
            As for :meth:`predict` and :func:`continuous_kappa`.

        Examples
        --------
        >>> import numpy as np
        >>> from irr.ordinal import KappaRegressor
        >>> rng = np.random.default_rng(0)
        >>> X = rng.normal(size=(300, 3))
        >>> y = np.clip(np.rint(2 + X @ [0.8, -0.5, 0.3] + rng.normal(size=300)), 0, 4)
        >>> model = KappaRegressor().fit(X[:200], y[:200])
        >>> round(model.score(X[200:], y[200:]), 4)  # held-out continuous QWK
        0.6719
        """
        prediction = self.predict(X)
        return continuous_kappa(_target(y, prediction.shape[0]), prediction)
