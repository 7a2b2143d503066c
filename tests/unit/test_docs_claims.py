"""Issue 14, section E: the claims the docs make are true of the code.

Each test checks a statement of docs/guide or of the irr.ordinal docstrings against numbers
computed independently (exact fractions, a plain least-squares fit, the blog's own rule).
"""

from __future__ import annotations

import importlib.util
import inspect
import pathlib
import re
from fractions import Fraction

import numpy as np
import pytest

import irr
from irr.ordinal import (
    KappaRegressor,
    apply_thresholds,
    continuous_kappa,
    distribution_thresholds,
    optimize_thresholds,
)

ROOT = pathlib.Path(__file__).resolve().parents[2]
GUIDE = ROOT / "docs" / "guide"


def _load_coverage_script():
    spec = importlib.util.spec_from_file_location(
        "coverage_kappa", ROOT / "benchmarks" / "coverage_kappa.py"
    )
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


# -- docs/guide/inference.md: the null SE can be wider or narrower than the interval SE -------


def _fraction_kappa_ses(table):
    """Unweighted kappa's two variances for a 2 x 2 table, in exact fractions.

    Fleiss, Cohen & Everitt (1969) in the unweighted form (Fleiss, Levin & Paik, 2003,
    eq. 18.12 and 18.13), a different expression from the weighted one irr evaluates:
      Var  = [sum_i p_ii (1 - (p_i. + p_.i)(1 - k))^2
              + (1 - k)^2 sum_{i != j} p_ij (p_.i + p_j.)^2 - (k - p_e (1 - k))^2] / (n (1 - p_e)^2)
      Var0 = [p_e + p_e^2 - sum_i p_i. p_.i (p_i. + p_.i)] / (n (1 - p_e)^2)
    """
    n = sum(sum(row) for row in table)
    p = [[Fraction(c, n) for c in row] for row in table]
    r = [sum(row) for row in p]
    c = [p[0][j] + p[1][j] for j in range(2)]
    po = p[0][0] + p[1][1]
    pe = r[0] * c[0] + r[1] * c[1]
    kappa = (po - pe) / (1 - pe)
    diag = sum(p[i][i] * (1 - (r[i] + c[i]) * (1 - kappa)) ** 2 for i in range(2))
    off = sum(p[i][j] * (c[i] + r[j]) ** 2 for i in range(2) for j in range(2) if i != j)
    var = (diag + (1 - kappa) ** 2 * off - (kappa - pe * (1 - kappa)) ** 2) / (n * (1 - pe) ** 2)
    var0 = (pe + pe**2 - sum(r[i] * c[i] * (r[i] + c[i]) for i in range(2))) / (n * (1 - pe) ** 2)
    return kappa, var, var0


def test_null_se_larger_than_interval_se_as_the_guide_says():
    table = [[45, 2], [3, 50]]
    kappa, var, var0 = _fraction_kappa_ses(table)
    res = irr.Agreement.from_table(np.array(table)).kappa()
    assert res.estimate == pytest.approx(float(kappa), abs=1e-14)
    assert res.se == pytest.approx(float(var) ** 0.5, rel=1e-12)
    assert res.se0 == pytest.approx(float(var0) ** 0.5, rel=1e-12)
    # The exact values: se 0.0437, se0 0.0999 -- the null SE is more than twice the other.
    assert round(res.se, 3) == 0.044
    assert round(res.se0, 3) == 0.100
    assert res.se0 > 2 * res.se
    text = (GUIDE / "inference.md").read_text()
    assert "far too narrow when there is real agreement" not in text
    paragraph = text[text.index("`[[45, 2], [3, 50]]`") :][:300]
    assert "`se` is 0.044" in paragraph
    assert "`se0`\n0.100" in paragraph


def test_fleiss_null_se_smaller_on_diagnoses_as_the_guide_says():
    res = irr.Agreement.from_frame(irr.datasets.load("diagnoses")).fleiss_kappa()
    # quoted in the guide: null SE 0.0244, linearised SE 0.0542
    assert (round(res.se0, 4), round(res.se, 4)) == (0.0244, 0.0542)


# -- the coverage simulation behind the inference guide's table ------------------------------


def test_coverage_script_wald_is_the_estimators_interval():
    script = _load_coverage_script()
    rng = np.random.default_rng(7)
    for _name, (rho, cuts, shift) in script.DESIGNS.items():
        population = script.population_table(rho, cuts, shift)
        # a probability table, rater 1's margins as quoted in the guide's table
        assert population.sum() == pytest.approx(1.0, abs=1e-12)
        tables = rng.multinomial(50, population.ravel(), size=3).reshape(-1, 5, 5)
        for table in tables:
            script.check_against_estimator(table)  # asserts equality to 1e-12
    truths = {
        name: round(float(script.kappa_parts(script.population_table(*d), script.WEIGHTS).kappa), 3)
        for name, d in script.DESIGNS.items()
    }
    assert truths == {
        "symmetric margins": 0.629, "skewed margins": 0.810, "very skewed margins": 0.636
    }


def _guide_coverage_rows():
    text = (GUIDE / "inference.md").read_text()
    pattern = r"^\|[^|]*\| (\d+) \| (\.\d+) \| (\.\d+) \| (\.\d+) \|$"
    return [
        (int(m.group(1)), *(float(g) for g in m.groups()[1:]))
        for m in re.finditer(pattern, text, re.M)
    ]


@pytest.mark.slow
def test_inference_guide_coverage_table_is_the_scripts_output(capsys):
    # Runs the full simulation (two to four minutes): the guide quotes its output verbatim.
    script = _load_coverage_script()
    script.main([])
    out = capsys.readouterr().out
    measured = [
        (int(m.group(1)), *(float(g) for g in m.groups()[1:]))
        for m in re.finditer(
            r"^\|[^|]*\|[^|]*\|[^|]*\| (\d+) \| ([\d.]+) \| ([\d.]+) \| ([\d.]+) \|$", out, re.M
        )
    ]
    assert measured == _guide_coverage_rows()


def test_inference_guide_coverage_sentence_quotes_the_table():
    rows = _guide_coverage_rows()
    assert [n for n, *_ in rows] == [50, 100, 200, 400] * 3
    text = " ".join((GUIDE / "inference.md").read_text().split())
    for n in (50, 200):
        wald = [w for m, w, *_ in rows if m == n]
        low, high = f"{min(wald):.3f}"[1:], f"{max(wald):.3f}"[1:]  # ".850", as printed
        assert f"{low}–{high} at n = {n}" in text


# -- docs/guide/choosing.md: linear weights assume equally spaced categories too -------------


def _fraction_weighted_kappa(a, b, scores, power):
    """Weighted kappa 1 - sum v p_ij / sum v p_i. p_.j with v = |x_i - x_j|**power, exactly."""
    n = len(a)
    observed = sum(Fraction(abs(scores[i] - scores[j])) ** power for i, j in zip(a, b, strict=True)) / n
    expected = sum(
        Fraction(abs(scores[i] - scores[j])) ** power for i in a for j in b
    ) / (n * n)
    return 1 - observed / expected


@pytest.mark.parametrize(("weights", "power"), [("linear", 1), ("quadratic", 2)])
def test_linear_and_quadratic_weights_both_depend_on_the_spacing(weights, power):
    # Codes 0..3 of two raters; read once as equally spaced grades 1, 2, 3, 4 and once as
    # 1, 2, 3, 5: the same table, different kappa for linear as for quadratic weights.
    a = [0, 1, 2, 3, 3, 2, 1, 0, 2, 3]
    b = [0, 1, 3, 2, 3, 2, 0, 1, 3, 3]
    for scores in ([1, 2, 3, 4], [1, 2, 3, 5]):
        x = np.array(scores)
        res = irr.Agreement(x[a], x[b]).kappa(weights)
        assert res.estimate == pytest.approx(float(_fraction_weighted_kappa(a, b, scores, power)))
    equal = irr.Agreement(np.array([1, 2, 3, 4])[a], np.array([1, 2, 3, 4])[b]).kappa(weights)
    gap = irr.Agreement(np.array([1, 2, 3, 5])[a], np.array([1, 2, 3, 5])[b]).kappa(weights)
    assert equal.estimate != pytest.approx(gap.estimate, abs=1e-3)
    text = (GUIDE / "choosing.md").read_text()
    assert "steps are not of equal importance" not in text
    assert "linear weights as\nmuch as quadratic ones" in text


# -- KappaRegressor: an increasing affine transform of least squares --------------------------


def _problem(seed, n=300, p=4):
    rng = np.random.default_rng(seed)
    X = rng.normal(size=(n, p))
    y = np.clip(np.rint(2 + X @ (0.7 * rng.normal(size=p)) + rng.normal(size=n)), 0, 4)
    return X[:200], y[:200], X[200:], y[200:]


def _least_squares(X, y, sigma, fit_intercept):
    """Plain (ridge) least squares, intercept unpenalised, as a prediction function."""
    x_mean = X.mean(axis=0) if fit_intercept else np.zeros(X.shape[1])
    y_mean = y.mean() if fit_intercept else 0.0
    Xc = X - x_mean
    beta = np.linalg.solve(Xc.T @ Xc + sigma * np.eye(X.shape[1]), Xc.T @ (y - y_mean))
    return lambda Z: y_mean + (Z - x_mean) @ beta


@pytest.mark.parametrize("seed", range(5))
@pytest.mark.parametrize(("sigma", "fit_intercept"), [(0.0, True), (5.0, True), (0.0, False)])
def test_kappa_regressor_with_fitted_cut_points_gives_the_least_squares_labels(
    seed, sigma, fit_intercept
):
    X, y, X_new, _ = _problem(seed)
    model = KappaRegressor(sigma=sigma, fit_intercept=fit_intercept).fit(X, y)
    ls = _least_squares(X, y, sigma, fit_intercept)
    shift = y.mean() if fit_intercept else 0.0
    # predictions = ybar + (least squares - ybar) / kappa_, kappa_ > 0: increasing, affine
    np.testing.assert_allclose(
        model.predict(X_new), shift + (ls(X_new) - shift) / model.kappa_, rtol=1e-10
    )
    assert model.kappa_ > 0
    labels = np.unique(y)
    for rule in (
        lambda pred: optimize_thresholds(y, pred),
        lambda pred: optimize_thresholds(y, pred, weights="linear"),
        lambda pred: distribution_thresholds(pred, y),
    ):
        cuts_model, cuts_ls = rule(model.predict(X)), rule(ls(X))
        for Z in (X, X_new):
            np.testing.assert_array_equal(
                apply_thresholds(model.predict(Z), cuts_model, labels),
                apply_thresholds(ls(Z), cuts_ls, labels),
            )


def test_kappa_regressor_helps_when_predictions_are_rounded():
    # Where the scale is used as it is (rounding to the nearest grade), the rescaled
    # predictions differ from least squares' and here score a higher QWK on new data.
    X, y, X_new, y_new = _problem(0)
    model = KappaRegressor().fit(X, y)
    ls = _least_squares(X, y, 0.0, True)
    rounded_model = np.clip(np.rint(model.predict(X_new)), 0, 4)
    rounded_ls = np.clip(np.rint(ls(X_new)), 0, 4)
    assert not np.array_equal(rounded_model, rounded_ls)
    assert irr.quadratic_weighted_kappa(y_new, rounded_model, 0, 4) > (
        irr.quadratic_weighted_kappa(y_new, rounded_ls, 0, 4) + 0.05
    )
    doc = inspect.getdoc(KappaRegressor)
    assert "increasing affine transform" in doc
    assert "give the same labels" in doc


def test_ridge_penalty_shrinks_the_predictions_scale():
    X, y, _, _ = _problem(3)
    spread = {
        sigma: float(np.linalg.norm(KappaRegressor(sigma=sigma).fit(X, y).predict(X) - y.mean()))
        for sigma in (0.0, 1.0, 10.0, 100.0, 1e4, 1e8)
    }
    y_norm = float(np.linalg.norm(y - y.mean()))
    assert spread[0.0] == pytest.approx(y_norm, rel=1e-12)  # eq. 8-9: the norm of y
    assert all(spread[s] < y_norm * (1 - 1e-6) for s in spread if s > 0)
    assert spread[1e8] < 1e-2 * y_norm  # tends to 0 as sigma grows
    # the closed form in the Notes: ||y|| ||y_rr|| / sqrt(2 y'y_rr - ||y_rr||^2)
    ridge = _least_squares(X, y, 10.0, True)(X) - y.mean()
    yc = y - y.mean()
    closed = y_norm * np.linalg.norm(ridge) / np.sqrt(2 * yc @ ridge - ridge @ ridge)
    assert spread[10.0] == pytest.approx(closed, rel=1e-10)
    assert "shrinks the predictions towards the mean" in " ".join(
        inspect.getdoc(KappaRegressor).split()
    )


def test_kappa_of_alpha_is_not_quasiconcave_where_it_is_negative():
    # One feature with X'X = y'y = y'X = 1: kappa(a) = 2a / (1 + a^2).
    y = np.array([-1.0, 1.0]) / np.sqrt(2.0)
    X = y[:, None]

    def kappa(alpha):
        return continuous_kappa(y, X @ np.atleast_1d(alpha), centered=True)

    assert kappa(-3.0) == pytest.approx(-0.6)
    assert kappa(0.0) == 0.0
    assert kappa(-1.5) == pytest.approx(-12 / 13)  # below min(-0.6, 0): not quasiconcave
    # where y'X alpha > 0 every point between two others is above the smaller of them
    rng = np.random.default_rng(1)
    Xr = rng.normal(size=(40, 3))
    yr = Xr @ [1.0, -0.5, 0.2] + rng.normal(size=40)
    yr -= yr.mean()
    pairs = rng.normal(size=(200, 2, 3))
    pairs *= np.sign(np.einsum("i,ij,pkj->pk", yr, Xr, pairs))[..., None]  # y'X alpha > 0
    for u, v in pairs:
        ku = continuous_kappa(yr, Xr @ u, centered=True)
        kv = continuous_kappa(yr, Xr @ v, centered=True)
        for theta in (0.25, 0.5, 0.75):
            w = theta * u + (1 - theta) * v
            assert continuous_kappa(yr, Xr @ w, centered=True) > min(ku, kv) - 1e-12
    doc = inspect.getdoc(KappaRegressor)
    assert "strictly quasiconcave on the half-space" in doc
    assert "maximiser of the strictly quasiconcave kappa" not in doc


# -- optimize_thresholds / distribution_thresholds: sources ---------------------------------


def test_optimize_thresholds_does_not_credit_vaughn_and_justice_with_thresholding():
    references = inspect.getdoc(optimize_thresholds).split("References")[1].split("Examples")[0]
    assert "Vaughn" not in references
    assert "Cohen" in references


def _blog_labels(pred, reference, k):
    """The blog's rule: cut at np.percentile(pred, 100 * cumulative share), x <= cut goes low."""
    reference = np.asarray(reference)
    shares = np.array([np.mean(reference == i) for i in range(k)])
    bounds = np.percentile(pred, 100 * np.cumsum(shares)[:-1])
    return np.searchsorted(bounds, pred, side="left")  # number of bounds strictly below x


@pytest.mark.parametrize("seed", range(6))
def test_blog_rule_equals_distribution_thresholds_when_lengths_agree(seed):
    rng = np.random.default_rng(seed)
    n = int(rng.integers(20, 200))
    reference = rng.integers(0, 4, size=n)
    reference[:4] = [0, 1, 2, 3]  # every label present
    pred = rng.normal(size=n)  # continuous: no ties
    ours = apply_thresholds(pred, distribution_thresholds(pred, reference), np.arange(4))
    np.testing.assert_array_equal(ours, _blog_labels(pred, reference, 4))
    # and both reproduce the reference counts exactly
    np.testing.assert_array_equal(np.bincount(ours, minlength=4), np.bincount(reference))


def test_blog_rule_differs_by_at_most_one_per_cut_when_lengths_differ():
    # 10 predictions, reference share of label 0 = 17/50 = 0.34: the blog's virtual index
    # (10 - 1) * 0.34 = 3.06 puts 4 predictions at or below its cut; round(3.4) = 3 here.
    pred = np.arange(10.0)
    reference = np.repeat([0, 1], [17, 33])
    ours = apply_thresholds(pred, distribution_thresholds(pred, reference), [0, 1])
    assert np.bincount(ours).tolist() == [3, 7]
    assert np.bincount(_blog_labels(pred, reference, 2)).tolist() == [4, 6]
    rng = np.random.default_rng(3)
    for _ in range(50):
        n, m = rng.integers(5, 60, size=2)
        reference = np.r_[np.arange(4), rng.integers(0, 4, size=m)]
        pred = rng.normal(size=n)
        ours = apply_thresholds(pred, distribution_thresholds(pred, reference), np.arange(4))
        blog = _blog_labels(pred, reference, 4)
        below = np.cumsum(np.bincount(ours, minlength=4))[:-1]
        below_blog = np.cumsum(np.bincount(blog, minlength=4))[:-1]
        assert np.abs(below - below_blog).max() <= 1
    doc = inspect.getdoc(distribution_thresholds)
    assert "Only\nwhen the lengths differ" in doc


def test_fleiss_null_se_can_also_be_larger_as_its_docstring_says():
    # Two raters, table [[45, 2], [3, 50]]: Fleiss' kappa (Scott's pi) 0.8997, linearised SE
    # 0.0439, null SE 0.1000 (the null SE of Fleiss, Nee & Landis for two raters and two
    # categories is sqrt(2 / (n m (m - 1))) = sqrt(2 / 200) = 0.1 exactly, whatever the table).
    a = np.repeat([0, 0, 1, 1], [45, 2, 3, 50])
    b = np.repeat([0, 1, 0, 1], [45, 2, 3, 50])
    res = irr.Agreement(a, b).fleiss_kappa()
    assert res.se0 == pytest.approx(0.1, abs=1e-12)
    assert res.se0 > 2 * res.se
    doc = " ".join(inspect.getdoc(irr.Agreement.fleiss_kappa).split())
    assert "about half as wide as they should be" not in doc
    assert "more than twice it" in doc
