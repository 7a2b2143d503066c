"""Tests for irr.interpret: benchmark scales, interpretation and probabilistic benchmarking."""

from __future__ import annotations

import math
import re

import numpy as np
import pandas as pd
import pytest
from hypothesis import given
from hypothesis import strategies as st
from scipy import stats

import irr
from irr._validation import DegenerateDataWarning
from irr.bands import (
    BOUNDARY_TOLERANCE,
    SCALES,
    Band,
    BenchmarkResult,
    Scale,
    benchmark,
    benchmark_band,
    benchmark_line,
    get_scale,
    interpret,
    interpret_interval,
    interpretation_line,
    list_scales,
)

EPS = 1e-9  # far above BOUNDARY_TOLERANCE, far below any published cut point spacing
NAN = float("nan")

# ---------------------------------------------------------------------------
# Published cut points, typed in independently of irr/interpret.py.
# Labels lowest first; boundaries as (cut point, label at it, label just below, label just above).
# ---------------------------------------------------------------------------

PUBLISHED_LABELS = {
    "landis-koch": ["poor", "slight", "fair", "moderate", "substantial", "almost perfect"],
    "fleiss": ["poor", "fair to good", "excellent"],
    "altman": ["poor", "fair", "moderate", "good", "very good"],
    "cicchetti-sparrow": ["poor", "fair", "good", "excellent"],
    "mchugh": ["none", "minimal", "weak", "moderate", "strong", "almost perfect"],
    "koo-li": ["poor", "moderate", "good", "excellent"],
    "mcbride": ["poor", "moderate", "substantial", "almost perfect"],
}

PUBLISHED_CUTS = {
    # Landis & Koch (1977): <0.00 poor, 0.00-0.20 slight, 0.21-0.40 fair, 0.41-0.60 moderate,
    # 0.61-0.80 substantial, 0.81-1.00 almost perfect.
    "landis-koch": [
        (0.0, "slight", "poor", "slight"),
        (0.2, "slight", "slight", "fair"),
        (0.4, "fair", "fair", "moderate"),
        (0.6, "moderate", "moderate", "substantial"),
        (0.8, "substantial", "substantial", "almost perfect"),
    ],
    # Fleiss (1981): below 0.40 poor, 0.40 to 0.75 fair to good, above 0.75 excellent.
    "fleiss": [
        (0.4, "fair to good", "poor", "fair to good"),
        (0.75, "fair to good", "fair to good", "excellent"),
    ],
    # Altman (1991): <0.20 poor, 0.21-0.40 fair, 0.41-0.60 moderate, 0.61-0.80 good,
    # 0.81-1.00 very good.
    "altman": [
        (0.2, "poor", "poor", "fair"),
        (0.4, "fair", "fair", "moderate"),
        (0.6, "moderate", "moderate", "good"),
        (0.8, "good", "good", "very good"),
    ],
    # Cicchetti & Sparrow (1981): <0.40 poor, 0.40-0.59 fair, 0.60-0.74 good, 0.75-1.00 excellent.
    "cicchetti-sparrow": [
        (0.4, "fair", "poor", "fair"),
        (0.6, "good", "fair", "good"),
        (0.75, "excellent", "good", "excellent"),
    ],
    # McHugh (2012), Table 3: 0-0.20 none, 0.21-0.39 minimal, 0.40-0.59 weak, 0.60-0.79 moderate,
    # 0.80-0.90 strong, above 0.90 almost perfect.
    "mchugh": [
        (0.2, "none", "none", "minimal"),
        (0.4, "weak", "minimal", "weak"),
        (0.6, "moderate", "weak", "moderate"),
        (0.8, "strong", "moderate", "strong"),
        (0.9, "strong", "strong", "almost perfect"),
    ],
    # Koo & Li (2016): <0.5 poor, 0.5-0.75 moderate, 0.75-0.9 good, >0.90 excellent.
    "koo-li": [
        (0.5, "moderate", "poor", "moderate"),
        (0.75, "good", "moderate", "good"),
        (0.9, "good", "good", "excellent"),
    ],
    # McBride (2005): <0.90 poor, 0.90-0.95 moderate, 0.95-0.99 substantial, >0.99 almost
    # perfect.
    "mcbride": [
        (0.9, "moderate", "poor", "moderate"),
        (0.95, "substantial", "moderate", "substantial"),
        (0.99, "substantial", "substantial", "almost perfect"),
    ],
    # Krippendorff (2004, p. 241): rely on alpha >= .800, tentative conclusions for
    # .667 <= alpha < .800, discard below .667.
    "krippendorff": [
        (0.667, "tentatively acceptable", "unacceptable", "tentatively acceptable"),
        (0.8, "acceptable", "tentatively acceptable", "acceptable"),
    ],
}

PUBLISHED_CASES = [
    pytest.param(name, cut, at, below, above, id=f"{name}-{cut}")
    for name, rows in PUBLISHED_CUTS.items()
    for cut, at, below, above in rows
]


def test_scale_names():
    assert list(SCALES) == [
        "landis-koch",
        "fleiss",
        "altman",
        "cicchetti-sparrow",
        "mchugh",
        "koo-li",
        "mcbride",
        "krippendorff",
    ]


@pytest.mark.parametrize("name", list(PUBLISHED_LABELS))
def test_scale_matches_published_labels_and_cut_points(name):
    scale = SCALES[name]
    assert scale.labels == tuple(PUBLISHED_LABELS[name])
    inner = [b.upper for b in scale.bands[:-1]]
    assert inner == [cut for cut, *_ in PUBLISHED_CUTS[name]]
    assert (scale.lower, scale.upper) == (-1.0, 1.0)
    assert scale.bands[0].lower_closed
    assert scale.bands[-1].upper_closed


@pytest.mark.parametrize(("name", "cut", "at", "below", "above"), PUBLISHED_CASES)
def test_published_cut_points(name, cut, at, below, above):
    assert interpret(cut, scale=name).label == at
    assert interpret(cut - EPS, scale=name).label == below
    assert interpret(cut + EPS, scale=name).label == above


@pytest.mark.parametrize("name", list(PUBLISHED_LABELS))
def test_ends_of_every_scale(name):
    labels = PUBLISHED_LABELS[name]
    assert interpret(-1.0, scale=name).label == labels[0]
    assert interpret(-1.0 + EPS, scale=name).label == labels[0]
    assert interpret(1.0, scale=name).label == labels[-1]
    assert interpret(1.0 - EPS, scale=name).label == labels[-1]
    for outside in (-1.0 - EPS, 1.0 + EPS):
        with pytest.raises(ValueError, match=re.escape(f"got {outside!r}")):
            interpret(outside, scale=name)


BAND_CASES = [
    pytest.param(scale, i, id=f"{scale.name}-{band.label}")
    for scale in SCALES.values()
    for i, band in enumerate(scale.bands)
]


@pytest.mark.parametrize(("scale", "i"), BAND_CASES)
def test_every_band_boundary_from_scale_data(scale, i):
    band = scale.bands[i]
    assert interpret(band.lower + EPS, scale.name) == band
    assert interpret(band.upper - EPS, scale.name) == band
    assert interpret((band.lower + band.upper) / 2, scale.name) == band
    if i > 0:
        expected = band if band.lower_closed else scale.bands[i - 1]
        assert interpret(band.lower, scale.name) == expected
    if i < len(scale.bands) - 1:
        expected = band if band.upper_closed else scale.bands[i + 1]
        assert interpret(band.upper, scale.name) == expected


def test_band_fields_and_str():
    band = interpret(0.72)
    assert isinstance(band, Band)
    assert str(band) == "substantial"
    assert (band.lower, band.upper, band.lower_closed, band.upper_closed) == (0.6, 0.8, False, True)
    assert band.scale == "landis-koch"
    assert band.short_citation == "Landis & Koch, 1977"
    assert "https://doi.org/10.2307/2529310" in band.citation
    assert band.interval == "(0.6, 0.8]"
    assert 0.8 in band
    assert 0.6 not in band
    assert "0.7" not in band


def test_every_scale_has_citation_and_purpose():
    dois = {
        "landis-koch": "10.2307/2529310",
        "fleiss": "10.1002/0471445428",
        "mchugh": "10.11613/BM.2012.031",
        "koo-li": "10.1016/j.jcm.2016.02.012",
        "cicchetti-sparrow": "PMID 7315877",
    }
    for name, scale in SCALES.items():
        assert scale.citation
        assert scale.meant_for
        assert re.search(r"\d{4}", scale.short_citation)
        if name in dois:
            assert dois[name] in scale.citation
    assert SCALES["koo-li"].short_citation == "Koo & Li, 2016"
    assert "intraclass" in SCALES["koo-li"].meant_for.lower()


# ---------------------------------------------------------------------------
# Float noise at a boundary
# ---------------------------------------------------------------------------


def test_rounding_error_at_inclusive_upper_bound():
    noisy = 0.1 + 0.2 - 0.1
    assert noisy > 0.2
    assert interpret(noisy).label == "slight"
    assert interpret(0.2 + 0.5 * BOUNDARY_TOLERANCE).label == "slight"
    assert interpret(0.2 + 2 * BOUNDARY_TOLERANCE).label == "fair"
    assert interpret(0.2000001).label == "fair"


def test_rounding_error_at_inclusive_lower_bound():
    # Cicchetti & Sparrow: 0.40 is fair, 0.40 minus float noise is fair too.
    assert interpret(0.4 - 1e-15, "cicchetti-sparrow").label == "fair"
    assert interpret(0.4 - 2 * BOUNDARY_TOLERANCE, "cicchetti-sparrow").label == "poor"
    assert interpret(0.7 + 0.05 - 1e-16, "cicchetti-sparrow").label == "excellent"


def test_rounding_error_at_ends_of_range():
    assert interpret(1.0 + 1e-14).label == "almost perfect"
    assert interpret(-1.0 - 1e-14).label == "poor"


def test_numpy_scalars_accepted():
    assert interpret(np.float64(0.5)).label == "moderate"
    assert interpret(np.float32(0.5)).label == "moderate"
    assert interpret(np.array(0.5)).label == "moderate"
    assert interpret(1).label == "almost perfect"


@given(st.floats(-1.0, 1.0), st.floats(-1.0, 1.0), st.sampled_from(list(SCALES)))
def test_banding_is_monotone(x, y, name):
    scale = SCALES[name]
    lo, hi = min(x, y), max(x, y)
    band_lo, band_hi = interpret(lo, name), interpret(hi, name)
    assert scale.bands.index(band_lo) <= scale.bands.index(band_hi)
    assert lo in band_lo or min(abs(lo - band_lo.lower), abs(lo - band_lo.upper)) <= 1e-12


# ---------------------------------------------------------------------------
# Custom scales
# ---------------------------------------------------------------------------


def test_custom_scale_from_pairs():
    pairs = [(0.4, "low"), (0.7, "mid"), (1.0, "high")]
    assert str(interpret(0.5, scale=pairs)) == "mid"
    assert interpret(0.4, scale=pairs).label == "low"
    assert interpret(0.4 + EPS, scale=pairs).label == "mid"
    assert interpret(-1.0, scale=pairs).label == "low"
    assert interpret(1.0, scale=pairs).label == "high"
    assert interpret(0.9, scale=tuple(pairs)).label == "high"


def test_scale_from_bounds():
    scale = Scale.from_bounds(
        [(0.0, "worse than chance"), (1.0, "better than chance")],
        name="sign",
        citation="Nobody (2024).",
        short_citation="Nobody, 2024",
    )
    assert scale.name == "sign"
    assert [b.interval for b in scale.bands] == ["[-1, 0]", "(0, 1]"]
    assert interpret(0.0, scale).label == "worse than chance"
    assert interpret(1e-6, scale).label == "better than chance"
    assert interpretation_line(0.3, scale) == "better than chance (Nobody, 2024)"
    assert get_scale(scale) is scale


def test_scale_from_bounds_other_range():
    scale = Scale.from_bounds([(0.5, "low"), (1.0, "high")], lower=0.0)
    assert (scale.lower, scale.upper) == (0.0, 1.0)
    with pytest.raises(ValueError, match=re.escape("[0, 1]; got -0.1")):
        interpret(-0.1, scale)


def test_custom_scale_without_citation_line():
    assert interpretation_line(0.5, [(0.4, "low"), (1.0, "high")]) == "high (custom scale)"


def test_scale_to_frame_and_list_scales():
    frame = SCALES["landis-koch"].to_frame()
    assert list(frame.columns) == [
        "band",
        "lower",
        "upper",
        "lower_closed",
        "upper_closed",
        "interval",
    ]
    assert frame["interval"].tolist() == [
        "[-1, 0)",
        "[0, 0.2]",
        "(0.2, 0.4]",
        "(0.4, 0.6]",
        "(0.6, 0.8]",
        "(0.8, 1]",
    ]
    listing = list_scales()
    assert listing.index.tolist() == list(SCALES)
    assert listing.loc["mchugh", "short_citation"] == "McHugh, 2012"
    assert (
        listing.loc["fleiss", "bands"]
        == "[-1, 0.4) poor; [0.4, 0.75] fair to good; (0.75, 1] excellent"
    )


def test_scales_mapping_is_read_only():
    with pytest.raises(TypeError):
        SCALES["mine"] = SCALES["fleiss"]  # type: ignore[index]


# ---------------------------------------------------------------------------
# Interval interpretation and summary lines
# ---------------------------------------------------------------------------


def test_interpret_interval():
    assert interpret_interval(0.55, 0.32, 0.71) == "moderate (95% CI: fair to substantial)"
    assert interpret_interval(0.5, 0.45, 0.58) == "moderate (95% CI: moderate)"
    assert (
        interpret_interval(0.5, 0.45, 0.58, confidence_level=0.9, scale="fleiss")
        == "fair to good (90% CI: fair to good)"
    )
    assert (
        interpret_interval(0.932, 0.879, 0.965, scale="koo-li", confidence_level=0.975)
        == "excellent (97.5% CI: good to excellent)"
    )


def test_interpret_interval_ends_outside_range_are_clipped():
    assert interpret_interval(0.95, 0.85, 1.05) == "almost perfect (95% CI: almost perfect)"
    assert interpret_interval(-0.9, -1.2, -0.5) == "poor (95% CI: poor)"


def test_interpret_interval_boundaries_follow_interpret():
    # 0.20 is slight, so an interval ending at 0.20 (or 0.1 + 0.2 - 0.1) stays slight.
    assert interpret_interval(0.1, 0.0, 0.1 + 0.2 - 0.1) == "slight (95% CI: slight)"
    assert interpret_interval(0.1, -0.01, 0.2000001) == "slight (95% CI: poor to fair)"


def test_interpretation_line():
    assert interpretation_line(0.72) == "substantial (Landis & Koch, 1977)"
    assert interpretation_line(0.72, "koo-li") == "moderate (Koo & Li, 2016)"
    assert (
        interpretation_line(0.55, ci=(0.32, 0.71))
        == "moderate (95% CI: fair to substantial; Landis & Koch, 1977)"
    )
    assert (
        interpretation_line(0.55, "altman", ci=(0.32, 0.71), confidence_level=0.9)
        == "moderate (90% CI: fair to good; Altman, 1991)"
    )
    assert interpretation_line(NAN) == "undefined (estimate is nan)"
    assert interpretation_line(0.55, ci=(NAN, NAN)) == "moderate (Landis & Koch, 1977)"


# ---------------------------------------------------------------------------
# Probabilistic benchmarking
# ---------------------------------------------------------------------------


def test_gwet_published_example():
    # Gwet (2014), ch. 6: Fleiss' kappa 0.430, SE 0.0542 (Fleiss 1971 data), Landis-Koch scale.
    res = benchmark(0.430, 0.0542, scale="landis-koch", confidence_level=0.95)
    cumulative = dict(zip(res.table["band"], res.table["cumulative"], strict=True))
    assert round(cumulative["moderate"], 2) == 0.71
    assert round(cumulative["fair"], 5) == 0.99999
    assert res.band.label == "fair"
    assert interpret(0.430).label == "moderate"
    assert isinstance(res, BenchmarkResult)
    assert res.method == "normal"
    assert res.confidence_level == 0.95
    assert res.scale is SCALES["landis-koch"]
    assert (res.estimate, res.se) == (0.430, 0.0542)


def test_gwet_example_at_lower_confidence():
    # P(kappa > 0.40) = 0.710: the 70% benchmark is moderate, the 75% one fair.
    assert benchmark(0.430, 0.0542, confidence_level=0.70).band.label == "moderate"
    assert benchmark(0.430, 0.0542, confidence_level=0.75).band.label == "fair"


def test_table_layout():
    res = benchmark(0.430, 0.0542)
    table = res.table
    assert isinstance(table, pd.DataFrame)
    assert list(table.columns) == ["band", "lower", "upper", "probability", "cumulative"]
    assert table["band"].tolist() == PUBLISHED_LABELS["landis-koch"][::-1]
    assert table["lower"].tolist() == [0.8, 0.6, 0.4, 0.2, 0.0, -1.0]
    assert table["upper"].tolist() == [1.0, 0.8, 0.6, 0.4, 0.2, 0.0]
    np.testing.assert_allclose(table["probability"].sum(), 1.0, rtol=0, atol=1e-14)
    np.testing.assert_allclose(
        table["cumulative"], np.cumsum(table["probability"]), rtol=0, atol=1e-14
    )
    assert table["cumulative"].iloc[-1] == 1.0


@pytest.mark.parametrize(
    ("estimate", "se", "name"),
    [
        (0.430, 0.0542, "landis-koch"),
        (0.9, 0.1, "landis-koch"),
        (-0.2, 0.3, "altman"),
        (0.05, 0.5, "mchugh"),
        (0.8, 0.07, "koo-li"),
        (0.99, 0.02, "cicchetti-sparrow"),
        (0.6, 0.2, "fleiss"),
    ],
)
def test_truncated_normal_probabilities_match_scipy_truncnorm(estimate, se, name):
    res = benchmark(estimate, se, scale=name)
    dist = stats.truncnorm(a=(-1 - estimate) / se, b=(1 - estimate) / se, loc=estimate, scale=se)
    expected = dist.cdf(res.table["upper"]) - dist.cdf(res.table["lower"])
    np.testing.assert_allclose(res.table["probability"], expected, rtol=1e-9, atol=1e-12)
    expected_cumulative = dist.sf(res.table["lower"])
    np.testing.assert_allclose(res.table["cumulative"], expected_cumulative, rtol=1e-9, atol=1e-12)
    # the benchmark is the first band from the top reaching 95%
    first = int(np.argmax(expected_cumulative >= 0.95))
    assert res.band.label == res.table["band"].iloc[first]


def test_truncation_to_narrower_custom_range():
    scale = Scale.from_bounds([(0.5, "low"), (1.0, "high")], lower=0.0)
    res = benchmark(0.45, 0.2, scale=scale)
    dist = stats.truncnorm(a=(0 - 0.45) / 0.2, b=(1 - 0.45) / 0.2, loc=0.45, scale=0.2)
    np.testing.assert_allclose(
        res.table["probability"], [dist.sf(0.5), dist.cdf(0.5)], rtol=1e-12, atol=0
    )


def test_far_tail_probabilities_are_accurate():
    # estimate far above a band: P must not be lost to cancellation near Phi = 1
    res = benchmark(0.95, 0.01, scale="landis-koch")
    p_substantial = res.table.set_index("band").loc["substantial", "probability"]
    expected = stats.truncnorm(a=-195, b=5, loc=0.95, scale=0.01)
    np.testing.assert_allclose(
        p_substantial, expected.cdf(0.8) - expected.cdf(0.6), rtol=1e-6, atol=0
    )
    assert 0 < p_substantial < 1e-40


def test_bootstrap_replicates_known_answer():
    # 3 replicates in fair (0.40 is fair: upper end inclusive), 30 moderate, 67 substantial.
    reps = np.array([0.40] * 3 + [0.5] * 30 + [0.61] * 67)
    np.random.default_rng(0).shuffle(reps)
    res = benchmark(0.58, replicates=reps)
    table = res.table.set_index("band")
    assert table["probability"].tolist() == [0.0, 0.67, 0.30, 0.03, 0.0, 0.0]
    np.testing.assert_allclose(table["cumulative"], [0.0, 0.67, 0.97, 1.0, 1.0, 1.0], atol=1e-15)
    assert res.band.label == "moderate"
    assert res.method == "bootstrap"
    assert res.n_replicates == 100
    assert res.se is None
    assert benchmark(0.58, replicates=reps, confidence_level=0.98).band.label == "fair"
    assert benchmark(0.58, replicates=reps, confidence_level=0.6).band.label == "substantial"


def test_bootstrap_cumulative_exactly_at_level():
    # 19 of 20 replicates substantial: the cumulative probability is exactly 0.95.
    reps = [0.7] * 19 + [0.5]
    assert benchmark(0.7, replicates=reps).band.label == "substantial"
    assert benchmark(0.7, replicates=reps, confidence_level=0.96).band.label == "moderate"
    # 7 of 20 = 0.35, and 0.35 * 20 = 7.000000000000001 in floating point
    reps = [0.7] * 7 + [0.5] * 13
    assert benchmark(0.6, replicates=reps, confidence_level=0.35).band.label == "substantial"


def test_bootstrap_replicates_take_precedence_over_se():
    reps = [0.9] * 10
    res = benchmark(0.9, 0.3, replicates=reps)
    assert res.method == "bootstrap"
    assert res.se == 0.3
    assert res.band.label == "almost perfect"


def test_bootstrap_nan_replicates_dropped_with_warning():
    reps = [0.9] * 8 + [NAN, NAN]
    with pytest.warns(DegenerateDataWarning, match="2 of 10 bootstrap replicates are nan"):
        res = benchmark(0.9, replicates=reps)
    assert res.n_replicates == 8
    assert res.table["probability"].iloc[0] == 1.0


def test_benchmark_str_and_html():
    res = benchmark(0.430, 0.0542)
    text = str(res)
    assert "Probabilistic benchmark (Gwet, 2014); scale: Landis & Koch, 1977" in text
    assert "95% benchmark: fair" in text
    assert "(0.4, 0.6]" in text
    assert "0.71004" in text
    assert "0.99999" in text
    html = res._repr_html_()
    assert "<table" in html
    assert "95% benchmark: fair" in html
    assert "Landis &amp; Koch, 1977" in html
    assert repr(res) == (
        "BenchmarkResult(band='fair', confidence_level=0.95, scale='landis-koch', method='normal')"
    )
    boot = benchmark(0.5, replicates=[0.5, 0.55])
    assert "2 bootstrap replicates" in str(boot)


def test_benchmark_lines():
    assert (
        benchmark(0.430, 0.0542).summary_line()
        == "fair (95% probabilistic benchmark, Gwet 2014; Landis & Koch, 1977)"
    )
    assert (
        benchmark_line(0.85, 0.02, scale="koo-li", confidence_level=0.9)
        == "good (90% probabilistic benchmark, Gwet 2014; Koo & Li, 2016)"
    )
    assert benchmark_line(NAN, 0.05) == "undefined (estimate is nan)"
    assert benchmark_line(0.4, NAN) == "undefined (standard error is nan)"
    assert benchmark_line(0.9, NAN, replicates=[0.9, 0.95]).startswith("almost perfect")


# ---------------------------------------------------------------------------
# Bad input: exception type and message
# ---------------------------------------------------------------------------

INF = float("inf")

BAD_CALLS = [
    # interpret
    (lambda: interpret(NAN), ValueError, "`value` is nan: an undefined coefficient has no band"),
    (lambda: interpret(1.5), ValueError, re.escape("'landis-koch' scale, [-1, 1]; got 1.5.")),
    (
        lambda: interpret(-1.01, "koo-li"),
        ValueError,
        re.escape("'koo-li' scale, [-1, 1]; got -1.01"),
    ),
    (lambda: interpret(INF), ValueError, "got inf"),
    (lambda: interpret("0.5"), TypeError, "`value` must be a real number; got '0.5'"),
    (lambda: interpret(True), TypeError, "`value` must be a real number; got True"),
    (lambda: interpret(None), TypeError, "`value` must be a real number; got None"),
    (
        lambda: interpret(0.5, scale="landis"),
        ValueError,
        re.escape(
            "`scale` has unknown scale 'landis'; known: 'landis-koch', 'fleiss', 'altman', "
            "'cicchetti-sparrow', 'mchugh', 'koo-li', 'mcbride', 'krippendorff'."
        ),
    ),
    (lambda: interpret(0.5, scale=3), TypeError, "`scale` must be a scale name, a Scale or a list"),
    # custom scales
    (
        lambda: interpret(0.5, scale=[(0.7, "a"), (0.4, "b"), (1.0, "c")]),
        ValueError,
        re.escape("`scale` bounds must increase strictly; got 0.4 ('b') after 0.7 ('a')."),
    ),
    (
        lambda: interpret(0.5, scale=[(0.4, "a"), (0.4, "b"), (1.0, "c")]),
        ValueError,
        "`scale` bounds must increase strictly; got 0.4",
    ),
    (
        lambda: interpret(0.5, scale=[(-2.0, "a"), (1.0, "b")]),
        ValueError,
        re.escape("`scale` bounds must lie above the bottom of the scale, -1; got -2 for 'a'."),
    ),
    (lambda: interpret(0.5, scale=[]), ValueError, "at least one"),
    (lambda: interpret(0.5, scale=[(0.5,)]), TypeError, re.escape("got the item (0.5,)")),
    (lambda: interpret(0.5, scale=[("0.5", "a")]), TypeError, "bounds must be real numbers"),
    (lambda: interpret(0.5, scale=[(1.0, 3)]), TypeError, "labels must be strings; got 3"),
    (lambda: interpret(0.5, scale=[(NAN, "a")]), ValueError, "bound for 'a' is nan"),
    (lambda: interpret(0.5, scale=[(0.5, "a"), (1.0, "a")]), ValueError, "repeats a band label"),
    (
        lambda: interpret(0.9, scale=[(0.5, "a"), (0.7, "b")]),
        ValueError,
        re.escape("[-1, 0.7]; got 0.9"),
    ),
    # interpret_interval
    (
        lambda: interpret_interval(0.5, 0.6, 0.4),
        ValueError,
        "`low` must not exceed `high`; got low=0.6, high=0.4",
    ),
    (lambda: interpret_interval(0.5, NAN, 0.6), ValueError, "`low` is nan"),
    (lambda: interpret_interval(0.5, 0.4, NAN), ValueError, "`high` is nan"),
    (lambda: interpret_interval(NAN, 0.4, 0.6), ValueError, "`estimate` is nan"),
    (lambda: interpret_interval(1.2, 0.4, 0.6), ValueError, "got 1.2"),
    (
        lambda: interpret_interval(0.5, 0.4, 0.6, confidence_level=95),
        ValueError,
        re.escape("`confidence_level` must be in (0, 1); got 95"),
    ),
    # benchmark
    (lambda: benchmark(NAN, 0.05), ValueError, "`estimate` is nan"),
    (lambda: benchmark(0.4, NAN), ValueError, "`se` is nan: the standard error is undefined"),
    # se = 0 is a point mass (issue 14, B14): see tests/unit/estimators/test_numerical_extremes.py
    (lambda: benchmark(0.4, -0.1), ValueError, "`se` must be non-negative and finite; got -0.1"),
    (lambda: benchmark(0.4, INF), ValueError, "`se` must be non-negative and finite; got inf"),
    (lambda: benchmark(0.4, "0.1"), TypeError, "`se` must be a real number"),
    (lambda: benchmark(0.4), TypeError, "`se` is required unless bootstrap `replicates`"),
    (lambda: benchmark(1.2, 0.05), ValueError, re.escape("[-1, 1]; got 1.2")),
    (
        lambda: benchmark(0.4, 0.05, confidence_level=1.0),
        ValueError,
        re.escape("`confidence_level` must be in (0, 1); got 1.0"),
    ),
    (
        lambda: benchmark(0.4, 0.05, confidence_level=0.0),
        ValueError,
        re.escape("`confidence_level` must be in (0, 1); got 0.0"),
    ),
    (
        lambda: benchmark(0.4, 0.05, confidence_level="95%"),
        TypeError,
        "`confidence_level` must be a real number",
    ),
    (lambda: benchmark(0.4, 0.05, scale="cohen"), ValueError, "unknown scale 'cohen'"),
    (
        lambda: benchmark(5.0, 0.01, scale=Scale.from_bounds([(0, "a"), (INF, "b")], lower=-INF)),
        ValueError,
        "puts no probability on",
    ),
    (lambda: benchmark(0.4, replicates=[NAN, NAN]), ValueError, "`replicates` has no finite value"),
    (
        lambda: benchmark(0.4, replicates=[[0.4, 0.5]]),
        ValueError,
        re.escape("`replicates` must be one-dimensional; got an array of shape (1, 2)"),
    ),
    (
        lambda: benchmark(0.4, replicates=[0.4, 1.5]),
        ValueError,
        re.escape("[-1, 1]; got 1 outside it, e.g. 1.5."),
    ),
]


@pytest.mark.parametrize(("call", "exc", "match"), BAD_CALLS)
def test_bad_input(call, exc, match):
    with pytest.raises(exc, match=match):
        call()


def _band(label, lo, hi, lo_c, hi_c):
    return Band(label, lo, hi, lo_c, hi_c)


@pytest.mark.parametrize(
    ("bands", "match"),
    [
        ((), "has no bands"),
        ((_band("a", -1, 0, True, True), _band("b", 0.1, 1, False, True)), "do not meet"),
        ((_band("a", -1, 0, True, True), _band("b", 0, 1, True, True)), "both contain"),
        ((_band("a", -1, 0, True, False), _band("b", 0, 1, False, True)), "both exclude"),
        ((_band("a", 0.5, 0.5, True, True),), "is empty: lower 0.5 is not below upper 0.5"),
    ],
)
def test_invalid_scale_construction(bands, match):
    with pytest.raises(ValueError, match=match):
        Scale("broken", bands)


def test_nan_is_rejected_not_banded():
    # documented choice: nan has no band, so interpret raises rather than guessing
    assert math.isnan(NAN)
    with pytest.raises(ValueError, match="nan"):
        interpret(np.float64("nan"))


def test_krippendorff_thresholds_are_a_scale_and_alphas_default():
    from irr.bands import SCALES

    scale = SCALES["krippendorff"]
    assert [(b.label, b.lower, b.upper) for b in scale.bands] == [
        ("unacceptable", -1.0, 0.667), ("tentatively acceptable", 0.667, 0.8),
        ("acceptable", 0.8, 1.0)]
    assert [irr.interpret(x, "krippendorff").label for x in (0.666, 0.667, 0.799, 0.8)] == [
        "unacceptable", "tentatively acceptable", "tentatively acceptable", "acceptable"]
    ag = irr.Agreement.from_frame(irr.datasets.load("diagnoses"))
    alpha = ag.krippendorff_alpha(n_resamples=100)
    assert alpha.scale == "krippendorff"
    assert alpha.interpret().label == "unacceptable"  # .433


def test_every_band_names_its_scale_in_the_table_and_the_sentence():
    ag = irr.Agreement.from_frame(irr.datasets.load("diagnoses"))
    report = irr.report(ag, statistics=["fleiss", "alpha_nominal"], n_resamples=100)
    text = str(report)
    header = next(line for line in text.splitlines() if line.split()[:2] == ["band", "scale"])
    assert header
    assert re.search(r"Fleiss' kappa\s+moderate\s+Landis & Koch, 1977", text)
    assert re.search(r"Krippendorff's alpha \(nominal\)\s+unacceptable\s+Krippendorff, 2004",
                     text)
    assert "was moderate (Landis & Koch, 1977), Fleiss' κ" in text
    assert "was unacceptable (Krippendorff, 2004), Krippendorff's nominal α" in text
    # one scale for every row
    one = str(irr.report(ag, statistics=["fleiss", "alpha_nominal"], n_resamples=100,
                         scale="landis-koch"))
    assert "Krippendorff, 2004" not in one
    assert "was moderate (Landis & Koch, 1977), Krippendorff's nominal α" in one


def test_normal_cdf_equals_scipy_ndtr_in_both_tails():
    from scipy.special import ndtr

    from irr.bands import normal_cdf

    z = np.concatenate([np.linspace(-37, 37, 2001), [-1e-300, 0.0, 1e-300, 8.3, -8.3]])
    ours = np.array([normal_cdf(v) for v in z])
    # the two differ by rounding only (at most ~2.5e-13 relative, deep in the tails)
    np.testing.assert_allclose(ours, ndtr(z), rtol=1e-12, atol=0)


@pytest.mark.parametrize("seed", range(5))
def test_benchmark_band_is_the_band_of_benchmark(seed):
    # summaries read the band alone (benchmark_band): the band benchmark's table gives,
    # on every built-in scale, by the normal law and by replicates
    rng = np.random.default_rng(seed)
    for name, scale in SCALES.items():
        lo, hi = max(scale.lower, -1.0), min(scale.upper, 1.0)
        for _ in range(8):
            estimate = float(rng.uniform(lo, hi))
            se = float(rng.choice([0.0, rng.uniform(0.001, 0.3)]))
            level = float(rng.choice([0.8, 0.9, 0.95, 0.99]))
            want = benchmark(estimate, se, scale=name, confidence_level=level)
            got = benchmark_band(estimate, se, scale=name, confidence_level=level)
            assert got == want.band
            reps = np.clip(estimate + rng.normal(0, 0.1, 50), lo, hi)
            want = benchmark(estimate, se, scale=name, confidence_level=level, replicates=reps)
            assert benchmark_band(estimate, se, scale=name, confidence_level=level,
                                  replicates=reps) == want.band


def test_benchmark_band_warns_of_nan_replicates_at_its_caller():
    reps = np.array([0.5, 0.6, np.nan, 0.55])
    for function in (benchmark, benchmark_band):
        with pytest.warns(DegenerateDataWarning, match="1 of 4 bootstrap replicates") as got:
            function(0.5, replicates=reps)
        assert got[0].filename == __file__
