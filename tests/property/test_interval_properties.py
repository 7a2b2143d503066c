"""No estimate lies outside its own interval: every result type, on random designs (sizes,
raters, categories, missing ratings, perfect and null agreement, continuous scores at scales
from 1e-5 to 1e5), its parts, and differences of independent and paired coefficients."""

import math
import warnings

import numpy as np
import pandas as pd
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import irr
from irr import DegenerateDataWarning

CATEGORICAL = ("kappa", "percent_agreement", "fleiss_kappa", "scott_pi", "conger_kappa",
               "light_kappa", "gwet_ac", "brennan_prediger", "krippendorff_alpha", "icc",
               "pabak", "maxwell_re", "bangdiwala_b", "specific_agreement", "category_kappa")
CONTINUOUS = ("limits_of_agreement", "concordance", "total_deviation_index", "deming",
              "icc_components", "measurement_error", "icc", "krippendorff_alpha")
OPTIONS = {"krippendorff_alpha": {"n_resamples": 200}}


def _inside(result, where):
    for part in [result, *result.parts()]:
        estimate, low, high = part.estimate, part.ci.low, part.ci.high
        if not math.isfinite(estimate):
            continue
        slack = 1e-9 * max(1.0, abs(estimate))
        assert not (math.isfinite(low) and low > estimate + slack), (where, part)
        assert not (math.isfinite(high) and high < estimate - slack), (where, part)


def _design(seed, continuous):
    rng = np.random.default_rng(seed)
    n, m = int(rng.integers(4, 40)), int(rng.integers(2, 4))
    mode = ("perfect", "null", "mixed")[int(rng.integers(0, 3))]
    if continuous:
        scale = 10.0 ** int(rng.choice([-5, 0, 5]))
        subject = rng.normal(size=(n, 1))
        x = subject + (0.0 if mode == "perfect" else 0.3) * rng.normal(size=(n, m))
        if mode == "null":
            x = rng.normal(size=(n, m))
        return x * scale
    k = int(rng.integers(2, 5))
    truth = rng.integers(0, k, n)
    x = np.tile(truth[:, None], (1, m)).astype(float)
    if mode == "null":
        x = rng.integers(0, k, (n, m)).astype(float)
    elif mode == "mixed":
        flip = rng.random((n, m)) < 0.3
        x[flip] = rng.integers(0, k, int(flip.sum()))
    if rng.random() < 0.5:
        x[rng.random((n, m)) < 0.15] = np.nan
    return x


def _results(x, continuous):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", DegenerateDataWarning)
        warnings.simplefilter("ignore", UserWarning)  # the first two of three raters
        try:
            ag = irr.Agreement.from_array(x, continuous=continuous)
        except ValueError:
            return
        for method in CONTINUOUS if continuous else CATEGORICAL:
            options = dict(OPTIONS.get(method, {}))
            if continuous and method == "krippendorff_alpha":
                options["level"] = "interval"
            try:
                yield method, getattr(ag, method)(**options)
            except ValueError:  # a design the statistic refuses, with its reason
                continue


@settings(max_examples=40, deadline=None)
@given(st.integers(0, 2**32 - 1), st.booleans())
def test_no_estimate_lies_outside_its_interval(seed, continuous):
    x = _design(seed, continuous)
    for method, result in _results(x, continuous):
        _inside(result, (seed, continuous, method))


@settings(max_examples=30, deadline=None)
@given(st.integers(0, 2**32 - 1), st.sampled_from([-1.0, 1.0]), st.booleans())
def test_passing_bablok_estimates_lie_inside_their_intervals(seed, side, negative):
    # what the method guarantees: the slope inside its rank interval; the intercept inside
    # the intercepts at the slope's limits when x keeps one sign (each y - b x is monotone
    # in b, all the same way); with x on both sides of 0 that interval is nan, with a
    # warning (on x ~ N(0, 1) it missed the intercept, its ends even reversed, in 70% of
    # draws)
    rng = np.random.default_rng(seed)
    x = rng.normal(size=int(rng.integers(6, 40)))
    y = (-1.0 if negative else 1.0) * x + 0.4 * rng.normal(size=x.size)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", DegenerateDataWarning)
        res = irr.passing_bablok(side * (np.abs(x) + 1), y)
        _inside(res, seed)
        assert not res.intercept_ci.low > res.intercept_ci.high
    with pytest.warns(DegenerateDataWarning) as caught:
        both = irr.passing_bablok(x - np.median(x), y)
    assert math.isnan(both.intercept_ci.low)
    assert math.isnan(both.intercept_ci.high)
    if math.isfinite(both.ci.low) and math.isfinite(both.ci.high):  # else: too few points
        assert both.intercept_ci.note.startswith("undefined: x takes values on both sides")
        assert "both sides of 0" in str(caught[0].message)
        assert "no interval, as x lies on both sides of 0" in both.report()


@settings(max_examples=25, deadline=None)
@given(st.integers(0, 2**32 - 1))
def test_differences_lie_inside_their_intervals(seed):
    rng = np.random.default_rng(seed)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", DegenerateDataWarning)
        first, second = (_design(int(s), False) for s in rng.integers(0, 2**31, 2))
        try:
            a, b = (irr.Agreement.from_array(x).fleiss_kappa() for x in (first, second))
            _inside(irr.difference(a, b, independent=True), seed)
        except ValueError:
            pass
        try:
            ag = irr.Agreement.from_array(first)
            _inside(irr.difference(ag, statistic=("fleiss_kappa", "gwet_ac")), seed)
        except ValueError:
            pass
        x = rng.normal(size=(30, 2)) * 10.0 ** int(rng.integers(-3, 4))
        shift = float(rng.normal(scale=5))
        a = irr.limits_of_agreement(x[:15, 0] + shift, x[:15, 1])
        b = irr.limits_of_agreement(x[15:, 0] - shift, x[15:, 1])
        _inside(irr.difference(a, b, independent=True), seed)


@settings(max_examples=8, deadline=None, derandomize=True)
@given(st.integers(0, 2**32 - 1))
def test_differences_and_pools_of_measurements_lie_inside_their_intervals(seed):
    # continuous Agreements (any scale, perfect or null agreement): independent and paired
    # differences of the ICC and interval alpha, and pools of alpha. No call here is
    # refused on these designs, so every example reaches every check; the two refusals
    # (pools without a positive SE) are asserted, not skipped.
    rng = np.random.default_rng(seed)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", DegenerateDataWarning)
        first, second = (irr.Agreement.from_array(_design(int(s), True), continuous=True)
                         for s in rng.integers(0, 2**31, 2))
        # independent groups: each Agreement's coefficient, compared as its two results
        for statistic, options in (("icc", {}), ("krippendorff_alpha", {"level": "interval"})):
            res = irr.difference(first, second, statistic=statistic, options=options or None,
                                 independent=True, ci="wald")
            _inside(res, (seed, statistic))
            results = [getattr(ag, statistic)(**options, **(
                {"ci": "wald"} if statistic == "krippendorff_alpha" else {}))
                for ag in (first, second)]
            expected = irr.difference(*results, independent=True)
            assert np.array_equal([res.estimate, res.ci.low, res.ci.high, res.pvalue],
                                  [expected.estimate, expected.ci.low, expected.ci.high,
                                   expected.pvalue], equal_nan=True), (seed, statistic)
        # the same subjects: two forms of the ICC, and the ICC against interval alpha
        _inside(irr.difference(first, statistic="icc",
                               options=({"type": "agreement"}, {"type": "consistency"})), seed)
        _inside(irr.difference(first, statistic=("icc", "krippendorff_alpha"),
                               options=({}, {"level": "interval"})), seed)
        # pools: of alpha (inverse-variance weights need a positive SE: perfect agreement,
        # SE 0, is refused); of the ICC never (its interval is the F interval, no SE)
        alphas = [ag.krippendorff_alpha("interval", ci="wald") for ag in (first, second)]
        if all(r.se > 0 for r in alphas):
            _inside(irr.pool(alphas), seed)
        else:
            with pytest.raises(ValueError, match="positive standard error"):
                irr.pool(alphas)
        with pytest.raises(ValueError, match="positive standard error"):
            irr.pool([ag.icc() for ag in (first, second)])


def _frame(seed):
    """A wide frame as a user has it: a string id, then two to four raters' ratings (numbers,
    categories or decimals) with missing cells, perfect, null or mixed agreement."""
    rng = np.random.default_rng(seed)
    continuous = bool(rng.random() < 0.5)
    x = _design(seed, continuous)
    if continuous and rng.random() < 0.5:
        x[rng.random(x.shape) < 0.1] = np.nan
    raters = [f"rater_{chr(97 + j)}" for j in range(x.shape[1])]
    df = pd.DataFrame(x, columns=raters)
    df.insert(0, "patient", [f"P{i:03d}" for i in range(len(df))])
    return df, raters, continuous


@settings(max_examples=15, deadline=None, derandomize=True)
@given(st.integers(0, 2**32 - 1))
def test_frames_long_data_and_the_accessor_give_the_array_numbers_inside_intervals(seed):
    # from_frame (id detected and named), from_long of the same data melted, and the df.irr
    # accessor: one Agreement, the same estimates and intervals, every estimate inside
    df, raters, continuous = _frame(seed)
    method, options = ("icc", {}) if continuous else ("fleiss_kappa", {})
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", DegenerateDataWarning)
        warnings.simplefilter("ignore", UserWarning)  # the id set aside, said aloud
        try:
            reference = getattr(irr.Agreement.from_array(
                df[raters].to_numpy(), raters=raters, continuous=continuous), method)(**options)
        except ValueError:  # a design the statistic refuses, with its reason
            return
        long = df.melt(id_vars="patient", var_name="rater", value_name="rating")
        agreements = {
            "named id": irr.Agreement.from_frame(df, id="patient", continuous=continuous),
            "detected id": irr.Agreement.from_frame(df, continuous=continuous),
            "long": irr.Agreement.from_long(long, subject="patient", rater="rater",
                                            rating="rating", continuous=continuous),
        }
        got = {name: getattr(ag, method)(**options) for name, ag in agreements.items()}
        accessor = df.set_index("patient").irr  # and long data through the accessor too
        got["accessor"] = getattr(accessor, "icc" if continuous else "fleiss")(
            continuous=continuous)
        got["accessor, long"] = getattr(long.irr, "icc" if continuous else "fleiss")(
            subject="patient", rater="rater", rating="rating", continuous=continuous)
    for name, result in got.items():
        assert result.n_subjects == reference.n_subjects, (seed, name)
        assert result.estimate == pytest.approx(reference.estimate, rel=1e-9, abs=1e-12,
                                                nan_ok=True), (seed, name)
        assert (result.ci.low, result.ci.high) == pytest.approx(
            (reference.ci.low, reference.ci.high), rel=1e-9, abs=1e-12, nan_ok=True)
        _inside(result, (seed, name))
