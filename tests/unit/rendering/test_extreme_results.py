"""Rendering never crashes on a legitimate result, however extreme: average-measure ICCs
below -1 or above 1, perfect agreement, every result of random small data in every
renderer, the CLI on such data; irr.plotting is an attribute after ``import irr`` without
loading matplotlib; the error-rate family and t test report every rater."""

from __future__ import annotations

import math
import sys
import warnings
from fractions import Fraction
from pathlib import Path

import numpy as np
import pytest

import irr
from tests.support.exact_formulas import exact_icc_a_k

# ---------------------------------------------------------------------------------------
# rendering never crashes on a legitimate result
# ---------------------------------------------------------------------------------------
#: 12 subjects x 3 raters (the 16th draw of default_rng(0) integers 1..5): raters disagree
#: more than chance, so the average-measure ICCs fall below -1.
NEGATIVE = np.array([[3, 4, 2], [5, 1, 1], [2, 4, 2], [5, 1, 5], [1, 5, 1], [3, 2, 5],
                     [4, 5, 3], [3, 3, 4], [3, 5, 1], [3, 2, 5], [1, 4, 5], [2, 2, 4]])


def _render_all(result):
    """Every renderer of a result; returns their outputs (raises on any crash)."""
    out = [str(result), repr(result), result.summary().as_text(), result.summary().as_html(),
           result.summary().as_latex(), result._repr_html_(), result.to_frame().to_string(),
           result.report(), result.report("plain", test=True), str(irr.compare([result]))]
    return out


def test_average_icc_below_minus_one_renders():
    # ICC(A,3) = -150/37 = -4.054 by exact Fractions: below -1, legitimate (MSR < MSE)
    res = irr.icc(NEGATIVE, "twoway", "agreement", "average")
    assert exact_icc_a_k(NEGATIVE.tolist()) == Fraction(-150, 37)
    assert res.estimate == pytest.approx(-150 / 37, rel=1e-12)
    text = "\n".join(_render_all(res))
    assert "none (outside [-1, 1])" in text
    assert "lies below -1" in text
    assert res.report() == ("ICC(A,k) (two-way random effects, absolute agreement, average of "
                            "3 raters; ICC(2,3)) among rater1, rater2, and rater3 was −4.05, "
                            "95% CI [−44.86, −.22] (approximate F, Satterthwaite df), n = 12.")
    # a legitimate result never raises when interpreted: its band says it lies below
    band = res.interpret()
    assert band.label == "below the scale (< -1)"
    assert (band.lower, band.upper, band.scale) == (-math.inf, -1.0, "koo-li")
    assert res.estimate in band
    assert -1.0 not in band
    assert str(res.interpret(scale="cicchetti-sparrow")) == "below the scale (< -1)"
    # every form, side by side
    table = irr.compare([irr.icc(NEGATIVE, *form) for form in
                         [("twoway", "agreement", "single"), ("twoway", "agreement", "average"),
                          ("twoway", "consistency", "average")]])
    assert "ICC(2,3)" in str(table)


# the Wald intervals are undefined at se = 0 and warn so
# (tested in tests/unit/inference/test_clusters_and_boundaries.py)
@pytest.mark.filterwarnings("ignore::irr.DegenerateDataWarning")
def test_perfect_agreement_renders_and_benchmarks():
    # identical raters: every kappa is 1 with se = 0; a zero SE is a point mass at the
    # estimate, so the benchmark is the estimate's band with probability 1 (Gwet's rule)
    ag = irr.Agreement([1, 2, 3, 1, 2, 3], [1, 2, 3, 1, 2, 3])
    assert "almost perfect" in ag.summary().as_text()
    bench = ag.kappa().benchmark()
    assert bench.band.label == "almost perfect"
    assert bench.table["cumulative"].tolist() == [1.0] * 6
    alpha = ag.krippendorff_alpha(n_resamples=200, rng=1)
    # alpha is read on Krippendorff's own scale (.667, .800)
    assert "acceptable" in alpha.summary().as_text()
    assert alpha.benchmark().band.label == "acceptable"


def _results(ag):
    """Every result an Agreement gives for these data (rows that need more are skipped)."""
    calls = [
        ("percent_agreement", {}), ("fleiss_kappa", {}), ("gwet_ac", {}),
        ("brennan_prediger", {}), ("conger_kappa", {}), ("light_kappa", {}), ("scott_pi", {}),
        ("krippendorff_alpha", {"n_resamples": 40, "rng": 1}),
        ("krippendorff_alpha", {"level": "interval", "n_resamples": 40, "rng": 1}),
        ("kendall_w", {}),
        *[("icc", dict(zip(("model", "type", "unit"), f, strict=True))) for f in (
            ("oneway", "agreement", "single"), ("twoway", "agreement", "average"),
            ("twoway", "consistency", "average"), ("twoway", "agreement", "single"))],
    ]
    if ag.n_raters == 2:
        calls += [("kappa", {}), ("kappa", {"weights": "quadratic"}),
                  ("kappa", {"ci": "bca", "n_resamples": 40, "rng": 1}),
                  ("mcnemar", {}), ("symmetry_test", {}), ("marginal_homogeneity_test", {}),
                  ("error_rate_test", {"epsilon0": 0.3})]
    else:
        calls += [("error_rate_test", {"epsilon0": 0.3, "reference": ag.raters[0]})]
    out = []
    for method, options in calls:
        result, refusal = _attempt(lambda m=method, o=options: getattr(ag, m)(**o))
        if refusal is None:
            out.append(result)
        else:  # too few usable subjects, say: a clear refusal is fine, a crash is not
            assert "`" in refusal or "need" in refusal or "No subject" in refusal, refusal
    return out


def _attempt(call):
    """(result, None), or (None, the message) when `call` raises a ValueError."""
    try:
        return call(), None
    except ValueError as exc:
        return None, str(exc)


def _render(result):
    texts = [str(result), repr(result)]
    if hasattr(result, "summary"):
        summary = result.summary()
        texts += [summary.as_text(), summary.as_html(), summary.as_latex()]
    for name in ("_repr_html_", "to_frame", "report", "to_dict"):
        if hasattr(result, name):
            texts.append(str(getattr(result, name)()))
    if isinstance(result, irr.Result):
        texts.append(str(irr.compare([result])))
        texts.append(result.report("plain", test=True))
        if result.scale is not None:
            for method in (result.interpret, result.benchmark):
                # a clear refusal when there is no band or no SE, never a crash
                answer, refusal = _attempt(method)
                assert refusal is None or "has no band" in refusal or \
                    "no standard error" in refusal, refusal
                texts.append(str(answer))
    return texts


def _random_small_data(count=30, seed=14):
    """`count` random small data sets, drawn in turn from one stream: sizes, raters, scales,
    missing ratings, perfect agreement and continuous scores."""
    rng = np.random.default_rng(seed)
    sets = []
    for _ in range(count):
        n, k, c = int(rng.integers(2, 12)), int(rng.integers(2, 5)), int(rng.integers(2, 6))
        kind = int(rng.integers(0, 4))
        x = rng.integers(1, c + 1, size=(n, k)).astype(float)
        if kind == 1:
            x = np.repeat(x[:, :1], k, axis=1)
        elif kind == 2:
            x[rng.random((n, k)) < 0.2] = np.nan
        elif kind == 3:
            x = np.round(rng.normal(size=(n, k)), 1)
        sets.append(x)
    return sets


# one case a data set (the same 30 draws as one loop gave): xdist spreads them over the
# workers instead of one worker rendering all of them at the end of the run
@pytest.mark.parametrize("x", _random_small_data(),
                         ids=[f"draw{i}" for i in range(30)])
def test_every_renderer_of_every_result_on_random_small_data(x):
    # every result type x every renderer must give text, twice the same
    ag = irr.Agreement.from_array(x)  # every one of the 30 draws is data irr accepts
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        first, refusal = _attempt(lambda: ag.summary().as_text())
        if refusal is None:
            assert ag.summary().as_text() == first
        else:  # nothing computable at all: a clear refusal
            assert "not computed" in refusal, refusal
        for result in _results(ag):
            assert _render(result) == _render(result)


# ---------------------------------------------------------------------------------------
# irr.plotting after `import irr` (without loading matplotlib); the family's report()
# ---------------------------------------------------------------------------------------
def test_plotting_is_an_attribute_without_loading_matplotlib():
    import subprocess

    code = ("import sys, irr; print(callable(irr.plotting.agreement_chart), "
            "'matplotlib' in sys.modules)")
    root = Path(__file__).resolve().parents[3]
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                         check=True, cwd=root)
    assert out.stdout.split() == ["True", "False"]


def test_error_rate_family_reports_every_rater():
    # video: rater2 made 6 errors against rater1 in 20 subjects (ErrorRateTestFamily doctest)
    ag = irr.Agreement.from_frame(irr.datasets.load("video"))
    family = ag.error_rate_test(0.5, reference="rater1")
    text = family.report()
    for res in family:
        assert res.report() in text
    assert text.count("The error rate between") == 3
    assert "6 errors in n = 20" in text
    assert text.endswith("Each of the 3 tests is at alpha = 0.05, with no adjustment for "
                         "multiple comparisons.")
    assert family.report("plain", digits=3).startswith("Error rate (rater1 vs rater2) = 0.300")


def test_error_rate_ttest_reports():
    # sibling of the render crashes: report() of the t test read a binomial field (errors).
    # mean 0.082, s = 0.01924, t = (0.082 - 0.10) / (s / sqrt 5) = -2.092 on 4 df, one-sided
    # p = 0.0523 (the ErrorRateTTestResult doctest; scipy.stats.ttest_1samp)
    res = irr.error_rate_ttest([0.08, 0.11, 0.07, 0.09, 0.06], epsilon0=0.10, alternative="less")
    # the one-sided interval is an upper bound (no "[-inf, .10]"): 0.082 + t_.95(4) s/sqrt 5
    # = 0.1003 (scipy.stats.t.ppf)
    assert res.report() == ("The mean error rate over 5 runs was ε = .08, one-sided 95% upper "
                            "confidence bound .10 (t distribution); t test of ε0 = .10 (less), "
                            "t(4) = −2.09, p = .052.")
    assert res.ci.high == pytest.approx(0.10034, abs=5e-5)
    assert res.report("plain").startswith("Mean error rate = 0.082 over 5 runs")
    with pytest.warns(irr.DegenerateDataWarning):
        flat = irr.error_rate_ttest([0.1, 0.1, 0.1], 0.1)
    assert "no 95% CI" in flat.report()


@pytest.mark.parametrize("command", [["report", "--statistics", "all"], ["icc"],
                                     ["icc", "--format", "csv"]])
def test_cli_renders_an_icc_below_minus_one(tmp_path, command, capsys):
    # `irr report` and `irr icc` crashed on ICC(A,3) = -150/37 (the data of NEGATIVE)
    from irr.cli import main

    path = tmp_path / "negative.csv"
    path.write_text("a,b,c\n" + "\n".join(",".join(map(str, row)) for row in NEGATIVE) + "\n")
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        assert main([*command, str(path)]) == 0
        first = capsys.readouterr().out
        assert main([*command, str(path)]) == 0
        assert capsys.readouterr().out == first
    assert "-4.05" in first


def test_agreement_summary_notes_a_row_it_cannot_compute():
    # one subject has all three ratings, so the ICC (listwise) cannot be computed; the
    # summary crashed instead of showing the other coefficients and saying why
    nan = np.nan
    ag = irr.Agreement.from_array([[1, 2, 3], [2, nan, 3], [nan, 1, 2], [3, 3, nan]])
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        text = ag.summary().as_text()
    assert "icc not computed: The ICC needs at least two subjects with complete ratings; " \
        "got 1." in text
    assert "Fleiss' kappa" in text
    with pytest.raises(ValueError, match=r"`confidence_level` must be in \(0, 1\); got 2.0"):
        ag.summary(confidence_level=2)


def test_icc_ak_above_one_warns_and_renders():
    # MSR = 4/9, MSC = 7/9, MSE = 41/18: ICC(A,k) = (-33/18) / (-1/18) = 33 (exact Fractions):
    # the denominator MSR + (MSC - MSE)/n is negative, so the value is not a correlation
    x = [[5, 3, 3], [1, 4, 4], [2, 4, 3]]
    assert exact_icc_a_k(x) == 33
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        res = irr.icc(x, "twoway", "agreement", "average")
    assert any("exceeds 1" in str(w.message) for w in caught)
    assert res.estimate == pytest.approx(33, rel=1e-12)
    text = "\n".join(_render_all(res))
    assert "none (outside [-1, 1])" in text
    assert "is negative" in text
    assert "excellent" not in text
