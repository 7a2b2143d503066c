"""Issue 14, numerics and rendering: tiny binomial tails, scale invariance of the ICC and
alpha, rendering of every legitimate result, honest ICC intervals, irr.plotting.

Reference values: exact rational arithmetic in ``i14_numerics_reference.py`` (beside this
file), recomputed here where cheap.
"""

from __future__ import annotations

import math
import sys
import time
import warnings
from fractions import Fraction
from pathlib import Path

import numpy as np
import pytest

import irr

sys.path.insert(0, str(Path(__file__).parent))
from i14_numerics_reference import (
    lower_critical,
    tail_above,
    tail_at_most,
    upper_critical,
)


# ---------------------------------------------------------------------------------------
# A12: critical error rate and the binomial test at tiny alpha, and in bounded time
# ---------------------------------------------------------------------------------------
def test_critical_count_at_alpha_1e_300_is_exact():
    # exact: smallest c with P(X > c) < 1e-300 by integer sums (i14_numerics_reference.py);
    # scipy's tail underflows to 0 near 1e-284, which gave 161
    assert upper_critical(200, 0.01, 1e-300) == 168
    crit = irr.critical_error_rate(200, 0.01, 1e-300)
    assert crit.critical_count == 168
    assert tail_above(200, 0.01, 168) < Fraction(1e-300) <= tail_above(200, 0.01, 167)
    assert crit.size == pytest.approx(float(tail_above(200, 0.01, 168)), rel=1e-9)


def test_lower_critical_count_at_alpha_1e_300_is_exact():
    # the mirror: largest c with P(X <= c) < 1e-300 for eps0 = 0.99, by integer sums
    assert lower_critical(200, 0.99, 1e-300) == 31
    assert irr.critical_error_rate(200, 0.99, 1e-300, "less").critical_count == 31


def test_tiny_pvalue_is_not_zero():
    # exact P(X >= 162 | n = 200, eps0 = 0.01) = 8.3894261280837e-284 (integer sum): above
    # alpha = 1e-300, so H0 is not rejected; the float tail said p = 0 and rejected
    exact = float(tail_above(200, 0.01, 161))
    res = irr.error_rate_test(162, 200, 0.01, 1e-300)
    assert not res.reject
    assert res.pvalue == pytest.approx(exact, rel=1e-10)
    # 'less' mirrors it: P(X <= 38 | eps0 = 0.99) is the same sum
    res = irr.error_rate_test(38, 200, 0.99, 1e-300, alternative="less")
    assert res.pvalue == pytest.approx(float(tail_at_most(200, 0.99, 38)), rel=1e-10)


def test_log_tails_match_exact_sums():
    from irr.inference.error_rate import log_cdf, log_sf

    # ln P(X > 167) and ln P(X <= 0) from exact fractions (i14_numerics_reference.py)
    assert float(log_sf(167, 200, 0.01)) == pytest.approx(-688.6216250378072, rel=1e-12)
    assert float(log_cdf(0, 200, 0.99)) == pytest.approx(-921.0340371976183, rel=1e-12)
    # the ends are exact: P(X > -1) = 1, P(X > n) = 0
    assert log_sf([-1, 200], 200, 0.3).tolist() == [0.0, -math.inf]


@pytest.mark.parametrize("n", [50, 200, 400])
@pytest.mark.parametrize("eps0", [0.001, 0.3, 0.9])
@pytest.mark.parametrize("alpha", [1e-200, 1e-280, 1e-305])
def test_tiny_alpha_counts_exact(n, eps0, alpha):
    # every count checked against the exact integer-sum definition
    assert irr.critical_error_rate(n, eps0, alpha).critical_count == upper_critical(n, eps0, alpha)
    assert irr.critical_error_rate(n, eps0, alpha, "less").critical_count == \
        lower_critical(n, eps0, alpha)


def test_huge_n_is_answered_in_bounded_time():
    # n = 2**53 used to step the critical count one at a time (hours); bisection takes
    # at most 54 steps. The mean is 2**52 and 12345 errors are far below it: p = 1.
    start = time.perf_counter()
    res = irr.error_rate_test(12345, 2**53, 0.5)
    crit = irr.critical_error_rate(2**53, 0.5, 1e-300, "two-sided")
    assert time.perf_counter() - start < 20
    assert res.pvalue == 1.0
    assert not res.reject
    # the critical count lies above the mean (2**52) by about 37 sd (sd = 2**25.5 ~ 4.7e7)
    low, high = crit.critical_count
    sd = math.sqrt(2**53 * 0.25)
    assert 36 < (high - 2**52) / sd < 38
    assert 36 < (2**52 - low) / sd < 38


# ---------------------------------------------------------------------------------------
# A13: scale and shift invariance (centre and scale before forming sums of squares)
# ---------------------------------------------------------------------------------------
ANXIETY = irr.datasets.load("anxiety").to_numpy().astype(float)


@pytest.mark.parametrize("factor", [1e-160, 1e-200, 1e-300, 1e300])
@pytest.mark.parametrize("form", [
    ("twoway", "agreement", "single"), ("twoway", "consistency", "single"),
    ("oneway", "agreement", "average"), ("twoway", "agreement", "average")])
def test_icc_is_scale_invariant(factor, form):
    # anxiety ICC(A,1) = 0.198, 95% CI [-0.039, 0.494] (R irr::icc documentation; McGraw &
    # Wong's formulas): every ICC, F and interval is a ratio of mean squares, so multiplying
    # the ratings by any factor changes nothing. Before: digits lost at 1e-160, nan at 1e-200.
    base = irr.icc(ANXIETY, *form)
    scaled = irr.icc(ANXIETY * factor, *form)
    assert scaled.estimate == pytest.approx(base.estimate, rel=1e-12)
    assert scaled.statistic == pytest.approx(base.statistic, rel=1e-12)
    assert list(scaled.ci) == pytest.approx(list(base.ci), rel=1e-12)
    assert list(scaled.conf_int(0.9)) == pytest.approx(list(base.conf_int(0.9)), rel=1e-12)
    if form == ("twoway", "agreement", "single"):
        assert base.estimate == pytest.approx(0.198, abs=5e-4)
        assert list(base.ci) == pytest.approx([-0.039, 0.494], abs=5e-4)


def test_icc_is_shift_invariant():
    # ICC(C,1) of anxiety is 0.216 (R irr::icc); adding 1e15 (integers stay exact) must not
    # move it: the grand mean of x + 1e15 was off by a few units in the last place, biasing
    # MSR. Centring on one rating first makes the shifted data exact again.
    base = irr.icc(ANXIETY, "twoway", "consistency", "single")
    assert base.estimate == pytest.approx(0.216, abs=5e-4)
    for shift in (1e8, 1e15, -1e15):
        shifted = irr.icc(ANXIETY + shift, "twoway", "consistency", "single")
        assert shifted.estimate == pytest.approx(base.estimate, rel=1e-12)
        assert shifted.ms_rows == pytest.approx(base.ms_rows, rel=1e-12)


@pytest.mark.parametrize("factor", [1e-160, 1e-200, 1e-300])
def test_interval_alpha_is_scale_invariant(factor):
    # interval alpha of anxiety (subjects in rows) is 0.170 (krippendorff's interval
    # metric; the "truth"); alpha is a ratio of squared-difference sums, so a
    # common factor cancels. Before: digits lost at 1e-160 and nan at 1e-200.
    base = irr.Agreement.from_array(ANXIETY).krippendorff_alpha(level="interval", ci=None)
    scaled = irr.Agreement.from_array(ANXIETY * factor).krippendorff_alpha(
        level="interval", ci=None)
    assert base.estimate == pytest.approx(0.1701, abs=5e-5)
    assert scaled.estimate == pytest.approx(base.estimate, rel=1e-12)


def test_continuous_kappa_is_scale_and_shift_invariant():
    # sibling: the table-free kappa is a ratio of quadratic forms (2 cov / (var + var +
    # mean difference^2)); a common factor cancels, and the general form ignores a common
    # shift. Before: nan at 1e-200 and 1e200.
    y = np.array([0.0, 1, 2, 3, 4, 2, 1, 3])
    p = np.array([0.5, 1, 2.5, 2, 4, 1.5, 1, 3.5])
    base = irr.continuous_kappa(y, p)
    for factor in (1e-200, 1e200):
        assert irr.continuous_kappa(y * factor, p * factor) == pytest.approx(base, rel=1e-12)
        assert irr.continuous_kappa(y * factor, p * factor, centered=True) == pytest.approx(
            irr.continuous_kappa(y, p, centered=True), rel=1e-12)
    # quarters are exact at 1e15 (ulp 0.125), so the shifted data are the same data
    assert irr.continuous_kappa(y + 1e15, p + 1e15) == pytest.approx(base, rel=1e-12)


# ---------------------------------------------------------------------------------------
# B14: rendering never crashes on a legitimate result
# ---------------------------------------------------------------------------------------
#: 12 subjects x 3 raters (the 16th draw of default_rng(0) integers 1..5): raters disagree
#: more than chance, so the average-measure ICCs fall below -1.
NEGATIVE = np.array([[3, 4, 2], [5, 1, 1], [2, 4, 2], [5, 1, 5], [1, 5, 1], [3, 2, 5],
                     [4, 5, 3], [3, 3, 4], [3, 5, 1], [3, 2, 5], [1, 4, 5], [2, 2, 4]])


def _exact_icc_ak(x):
    """ICC(A,k) = (MSR - MSE) / (MSR + (MSC - MSE) / n) in exact Fractions (McGraw & Wong)."""
    n, k = len(x), len(x[0])
    x = [[Fraction(int(v)) for v in row] for row in x]
    grand = sum(map(sum, x)) / (n * k)
    rows = [sum(r) / k for r in x]
    cols = [sum(x[i][j] for i in range(n)) / n for j in range(k)]
    msr = k * sum((r - grand) ** 2 for r in rows) / (n - 1)
    msc = n * sum((c - grand) ** 2 for c in cols) / (k - 1)
    mse = sum((x[i][j] - rows[i] - cols[j] + grand) ** 2
              for i in range(n) for j in range(k)) / ((n - 1) * (k - 1))
    return (msr - mse) / (msr + (msc - mse) / n)


def _render_all(result):
    """Every renderer of a result; returns their outputs (raises on any crash)."""
    out = [str(result), repr(result), result.summary().as_text(), result.summary().as_html(),
           result.summary().as_latex(), result._repr_html_(), result.to_frame().to_string(),
           result.report(), result.report("plain", test=True), str(irr.compare([result]))]
    return out


def test_average_icc_below_minus_one_renders():
    # ICC(A,3) = -150/37 = -4.054 by exact Fractions: below -1, legitimate (MSR < MSE)
    res = irr.icc(NEGATIVE, "twoway", "agreement", "average")
    assert _exact_icc_ak(NEGATIVE.tolist()) == Fraction(-150, 37)
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


# the Wald intervals are undefined at se = 0 and warn so (tested in test_i14_inference)
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
    assert "almost perfect" in alpha.summary().as_text()
    assert alpha.benchmark().band.label == "almost perfect"


def test_negative_weights_are_refused():
    # agreement weights lie in [0, 1] with ones on the diagonal (Cohen 1968; Fleiss, Levin &
    # Paik 2003, sec. 18.1); -5 gave kappa far below -1 with crossed interval ends
    w = [[1, -5, -5], [-5, 1, -5], [-5, -5, 1]]
    ag = irr.Agreement([1, 2, 3, 1, 2, 3, 1, 2], [1, 2, 3, 2, 3, 1, 1, 2])
    for call in (lambda: ag.kappa(weights=w), lambda: ag.gwet_ac(weights=w),
                 lambda: irr.cohen_kappa([1, 2, 3], [1, 3, 2], weights=w)):
        with pytest.raises(ValueError, match=r"`weights` matrix entries must lie in \[0, 1\]"):
            call()


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


def test_every_renderer_of_every_result_on_random_small_data():
    # random small data sets: sizes, raters, scales, missing ratings, perfect agreement and
    # continuous scores; every result type x every renderer must give text, twice the same
    rng = np.random.default_rng(14)
    for _ in range(30):
        n, k, c = int(rng.integers(2, 12)), int(rng.integers(2, 5)), int(rng.integers(2, 6))
        kind = int(rng.integers(0, 4))
        x = rng.integers(1, c + 1, size=(n, k)).astype(float)
        if kind == 1:
            x = np.repeat(x[:, :1], k, axis=1)
        elif kind == 2:
            x[rng.random((n, k)) < 0.2] = np.nan
        elif kind == 3:
            x = np.round(rng.normal(size=(n, k)), 1)
        try:
            ag = irr.Agreement.from_array(x)
        except ValueError:
            continue
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            first, refusal = _attempt(lambda ag=ag: ag.summary().as_text())
            if refusal is None:
                assert ag.summary().as_text() == first
            else:  # nothing computable at all: a clear refusal
                assert "not computed" in refusal, refusal
            for result in _results(ag):
                assert _render(result) == _render(result)


# ---------------------------------------------------------------------------------------
# C15 (ICC half): never an inverted or zero-width F-based interval; C16: honest labels
# ---------------------------------------------------------------------------------------
def test_icc_ak_interval_is_never_inverted():
    # McGraw & Wong's ICC(A,k) lower bound n(MSR - F* MSE) / (F*(MSC - MSE) + n MSR) has a
    # negative denominator here (n = 3, MSC < MSE): the formula gave [3.46, 0.97], an
    # "interval" whose low end exceeds its high end and 1. No interval exists: nan ends.
    x = [[4, 3, 1], [1, 5, 4], [5, 3, 5]]
    with pytest.warns(irr.DegenerateDataWarning, match="No 95% F-based interval"):
        res = irr.icc(x, "twoway", "agreement", "average")
    assert res.estimate == pytest.approx(-2.2, rel=1e-12)  # exact: -11/5 (Fractions below)
    assert _exact_icc_ak(x) == Fraction(-11, 5)
    assert math.isnan(res.ci.low)
    assert math.isnan(res.ci.high)
    assert any("No 95% F-based interval" in note for note in res.notes)
    assert "No 95% F-based interval" in str(res)


def test_icc_intervals_are_proper_on_random_small_data():
    # every form and level: either both ends nan or low < high with the estimate inside
    rng = np.random.default_rng(15)
    forms = [("oneway", "agreement", "single"), ("oneway", "agreement", "average"),
             ("twoway", "agreement", "single"), ("twoway", "agreement", "average"),
             ("twoway", "consistency", "single"), ("twoway", "consistency", "average")]
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        for _ in range(300):
            x = rng.integers(1, 6, size=(int(rng.integers(2, 8)), int(rng.integers(2, 5))))
            for form in forms:
                res = irr.icc(x, *form)
                for ci in (res.ci, res.conf_int(0.8)):
                    if math.isnan(ci.low) or math.isnan(ci.high):
                        assert math.isnan(ci.low)
                        assert math.isnan(ci.high)
                    else:
                        assert ci.low < ci.high
                        assert ci.low <= res.estimate <= ci.high


def test_absolute_agreement_interval_is_labelled_approximate():
    # McGraw & Wong (1996, Table 7): the ICC(A,.) intervals use Satterthwaite's approximate
    # df (39.75 on anxiety ICC(A,1)); the one-way and consistency ones are exact F intervals
    anxiety = irr.datasets.load("anxiety")
    single = irr.icc(anxiety, "twoway", "agreement", "single")
    assert single.ci.method == "satterthwaite"
    assert single.df_ci == pytest.approx(39.75, abs=5e-3)
    assert single.conf_int(0.9).method == "satterthwaite"
    assert irr.icc(anxiety, "twoway", "agreement", "average").ci.method == "satterthwaite"
    assert irr.icc(anxiety, "twoway", "consistency", "single").ci.method == "exact"
    assert irr.icc(anxiety, "oneway", "agreement", "average").ci.method == "exact"
    assert single.to_frame()["ci_method"].iloc[0] == "satterthwaite"
    assert "approximate F-based interval with Satterthwaite's df" in str(single)
    assert "exact F-based" not in str(single)
    assert "95% CI [−.04, .49] (approximate F, Satterthwaite df)" in single.report()
    with pytest.raises(ValueError, match=r"`method='exact'` does not apply to ICC\(2,1\)"):
        single.conf_int(method="exact")
    table = irr.Agreement.from_frame(anxiety).icc_table()
    assert table["ci_method"].tolist() == ["exact", "satterthwaite", "exact", "exact",
                                           "satterthwaite", "exact"]


def test_compat_icc_f_test_differs_from_r_irr_only_in_df():
    # docs/compat.md: R irr tests ICC(A,1) = 0 on anxiety with F(19, 39.7), p = .0543 (the
    # interval's Satterthwaite df); we use F(19, 38), p = .0562 as McGraw & Wong (Table 8
    # at rho0 = 0), psych and pingouin; irr's p is recovered from our df_ci
    from scipy.special import fdtrc

    res = irr.icc(irr.datasets.load("anxiety"), "twoway", "agreement", "single")
    assert (res.df1, res.df2) == (19, 38)
    assert res.statistic == pytest.approx(1.8268, abs=5e-5)
    assert res.pvalue == pytest.approx(0.0562, abs=5e-5)
    assert res.df_ci == pytest.approx(39.7, abs=0.05)
    assert fdtrc(res.df1, res.df_ci, res.statistic) == pytest.approx(0.0543, abs=5e-5)


# ---------------------------------------------------------------------------------------
# D19: irr.plotting after `import irr` (without loading matplotlib); the family's report()
# ---------------------------------------------------------------------------------------
def test_plotting_is_an_attribute_without_loading_matplotlib():
    import subprocess

    code = ("import sys, irr; print(callable(irr.plotting.agreement_chart), "
            "'matplotlib' in sys.modules)")
    root = Path(__file__).resolve().parents[2]
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
    assert family.report("plain", digits=3).startswith("Error rate (rater2 vs rater1) = 0.300")


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
    assert _exact_icc_ak(x) == 33
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        res = irr.icc(x, "twoway", "agreement", "average")
    assert any("exceeds 1" in str(w.message) for w in caught)
    assert res.estimate == pytest.approx(33, rel=1e-12)
    text = "\n".join(_render_all(res))
    assert "none (outside [-1, 1])" in text
    assert "is negative" in text
    assert "excellent" not in text
