"""Issue 16, figures: forest plot with names, a text column and the statistic's own bands;
legends that name what they show; one journal style applied locally; reproducible SVG; the
figures of a reliability report."""

import math
import subprocess
import sys
import warnings
import xml.etree.ElementTree as ET

import numpy as np
import pandas as pd
import pytest

matplotlib = pytest.importorskip("matplotlib")
matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402
from matplotlib.text import Text  # noqa: E402

import irr  # noqa: E402
from irr import plotting  # noqa: E402
from irr._numbers import format_number  # noqa: E402

MINUS = "\u2212"


@pytest.fixture(autouse=True)
def _close():
    yield
    plt.close("all")


@pytest.fixture(scope="module")
def vision():
    return irr.Agreement.from_frame(irr.datasets.load("vision"))


@pytest.fixture(scope="module")
def anxiety_by_site():
    df = irr.datasets.load("anxiety").assign(site=["north", "south", "east", "west"] * 5)
    return irr.by(df, "site", raters=["rater1", "rater2"], weights="quadratic")


def texts_of(figure):
    """The non-empty texts drawn when the figure is rendered (tick labels beyond the
    view are kept by matplotlib but not drawn)."""
    drawn = []
    original = Text.draw

    def record(self, renderer):
        if self.get_visible() and self.get_text().strip():
            drawn.append(self)
        return original(self, renderer)

    Text.draw = record
    try:
        figure.canvas.draw()
    finally:
        Text.draw = original
    return drawn


def assert_inside(figure):
    """Every text drawn lies inside the figure: nothing is clipped."""
    texts = texts_of(figure)
    assert texts
    renderer = figure.canvas.get_renderer()
    box = figure.bbox
    for text in texts:
        extent = text.get_window_extent(renderer)
        assert extent.x0 >= box.x0 - 0.5, text.get_text()
        assert extent.x1 <= box.x1 + 0.5, text.get_text()
        assert extent.y0 >= box.y0 - 0.5, text.get_text()
        assert extent.y1 <= box.y1 + 0.5, text.get_text()


def bands_of(ax):
    """Names along the top axis of the bands, and the axis title (the scale's citation)."""
    if not ax.child_axes:
        return [], None
    (top,) = ax.child_axes
    return [t.get_text() for t in top.get_xticklabels()], top.get_xlabel()


# -- 1. forest plot ------------------------------------------------------------------------
def test_forest_of_results_names_rows_and_prints_n_and_interval(vision):
    results = [vision.kappa(), vision.kappa("quadratic")]
    ax = plotting.forest(results)
    assert [t.get_text() for t in ax.get_yticklabels()] == [
        "Cohen's kappa", "Weighted kappa (quadratic)"]
    assert ax.get_xlabel() == "Estimate"  # two coefficients: each row names its own
    expected = ["n", "Estimate [95% CI]"]
    for res in results:
        lo, hi = res.ci
        expected += ["7,477", f".{round(100 * res.estimate):02d} "
                              f"[.{round(100 * lo):02d}, .{round(100 * hi):02d}]"]
    assert [t.get_text() for t in ax.texts] == expected
    assert expected[3] == ".60 [.58, .61]"
    assert_inside(ax.figure)


def test_forest_by_group_names_the_coefficient_and_the_groups(anxiety_by_site):
    ax = plotting.forest(anxiety_by_site)
    assert [t.get_text() for t in ax.get_yticklabels()] == ["east", "north", "south", "west"]
    assert ax.get_ylabel() == "site"
    assert ax.get_xlabel() == "Weighted kappa (quadratic)"
    assert [t.get_text() for t in ax.texts] == [
        "n", "Estimate [95% CI]",
        "5", ".69 [.50, .88]",
        "5", f".19 [{MINUS}.39, .77]",
        "5", f".05 [{MINUS}.48, .57]",
        "5", f".18 [{MINUS}.55, .91]",
    ]
    names, citation = bands_of(ax)
    assert citation == "Landis & Koch, 1977"
    assert names == ["poor", "slight", "fair", "moderate", "substantial", "almost perfect"]
    assert_inside(ax.figure)


def test_forest_shades_the_icc_scale_not_landis_koch(vision):
    ax = plotting.forest([vision.icc()])
    names, citation = bands_of(ax)
    assert citation == "Koo & Li, 2016"
    assert names == ["poor", "moderate"]  # Koo & Li's bands in view (ICC 0.70)
    df = irr.datasets.load("anxiety").assign(site=["a", "b"] * 10)
    by_icc = irr.by(df, "site", statistic="icc")
    assert by_icc.attrs["scale"] == "koo-li"
    assert bands_of(plotting.forest(by_icc))[1] == "Koo & Li, 2016"


def test_forest_with_rows_of_different_scales_shades_nothing(vision):
    ax = plotting.forest([vision.kappa(), vision.icc()])
    assert bands_of(ax) == ([], None)
    assert len(ax.patches) == 0  # no band spans at all
    # a statistic without a scale (Kendall's W) has no bands either
    w = irr.Agreement.from_frame(irr.datasets.load("anxiety")).kendall_w()
    assert bands_of(plotting.forest([w])) == ([], None)
    # an explicit scale is drawn for every row; None draws none
    assert bands_of(plotting.forest([vision.kappa(), vision.icc()], scale="fleiss"))[1] == (
        "Fleiss, 1981")
    assert bands_of(plotting.forest([vision.kappa()], scale=None)) == ([], None)


def test_forest_leading_zero_follows_each_statistic_and_not_estimable_rows():
    anx = irr.Agreement.from_frame(irr.datasets.load("anxiety"))
    icc_k = anx.icc(unit="average")  # cannot exceed 1: no leading zero
    w = anx.kendall_w()
    ax = plotting.forest([icc_k, w])
    column = [t.get_text() for t in ax.texts][2:]
    assert column[1].startswith(format_number(icc_k.estimate, 2, leading_zero=False)
                                .replace("-", MINUS))
    assert column[3] == f"{format_number(w.estimate, 2, leading_zero=False)} (no interval)"
    df = irr.datasets.load("anxiety").assign(site=["a", "b", "c", "d"] * 5)
    df.loc[df.site == "d", ["rater1", "rater2"]] = 3
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", irr.DegenerateDataWarning)
        out = irr.by(df, "site", raters=["rater1", "rater2"])
    ax = plotting.forest(out)
    assert [t.get_text() for t in ax.texts][-2:] == ["5", "not estimable"]
    assert len(ax.containers[0].lines[0].get_xdata()) == 3


def test_forest_long_labels_are_not_clipped():
    ag = irr.Agreement.from_frame(irr.datasets.load("anxiety"))
    results = [ag.fleiss_kappa(), ag.krippendorff_alpha("ordinal"), ag.icc(),
               ag.gwet_ac(), ag.light_kappa()]
    ax = plotting.forest(results)
    assert "Krippendorff's alpha (ordinal)" in [t.get_text() for t in ax.get_yticklabels()]
    assert_inside(ax.figure)
    width = ax.figure.get_figwidth()
    assert plotting.COLUMN_WIDTH <= width <= 7.2


# -- 2. legends ----------------------------------------------------------------------------
def test_agreement_chart_has_a_legend_for_exact_and_partial_agreement(vision):
    ax = plotting.agreement_chart(vision)
    assert [t.get_text() for t in ax.get_legend().get_texts()] == [
        "exact agreement", "partial (±1 category)"]
    assert ax.get_title() == "Agreement chart: B = 0.511\nweighted B (±1 category) = 0.887"
    assert_inside(ax.figure)
    two = plotting.agreement_chart(vision, partial=2)
    assert two.get_legend().get_texts()[1].get_text() == "partial (±2 categories)"
    nominal = irr.Agreement(["a", "b", "a", "c"], ["a", "b", "b", "c"])
    assert [t.get_text() for t in plotting.agreement_chart(nominal).get_legend().get_texts()] \
        == ["exact agreement"]
    assert plotting.agreement_chart(nominal, legend=False).get_legend() is None


def test_bootstrap_legend_names_the_interval_method():
    ag = irr.Agreement.from_frame(irr.datasets.load("anxiety"), ["rater1", "rater2"])
    res = ag.kappa(ci="bca", n_resamples=999, rng=0)
    ax = plotting.bootstrap_distribution(res)
    lo, hi = res.ci
    fmt = format_number
    assert [t.get_text() for t in ax.get_legend().get_texts()] == [
        f"estimate {fmt(res.estimate, 2, leading_zero=False)}".replace("-", MINUS),
        f"95% BCa bootstrap interval [{fmt(lo, 2, leading_zero=False)}, "
        f"{fmt(hi, 2, leading_zero=False)}]".replace("-", MINUS),
    ]
    pct = plotting.bootstrap_distribution(res, method="percentile", confidence_level=0.9)
    assert pct.get_legend().get_texts()[1].get_text().startswith("90% percentile bootstrap interval [")
    assert ax.get_title() == "Bootstrap distribution\n999 resamples of subjects"
    assert_inside(ax.figure)


# -- 3. one style, applied locally -------------------------------------------------------
def test_style_is_local_readable_and_colour_blind_safe(vision):
    before = dict(matplotlib.rcParams)
    res = vision.kappa("quadratic", ci="percentile", n_resamples=199)
    figures = [
        plotting.agreement_chart(vision).figure,
        plotting.table_heatmap(vision).figure,
        plotting.bootstrap_distribution(res).figure,
        plotting.forest([res]).figure,
    ]
    assert dict(matplotlib.rcParams) == before  # the user's settings are untouched
    for figure in figures:
        figure.draw_without_rendering()
        sizes = {t.get_fontsize() for t in texts_of(figure)}
        assert min(sizes) >= 8, sizes
        assert figure.get_layout_engine() is not None  # constrained: nothing overlaps
        assert_inside(figure)
    assert figures[0].get_figwidth() == figures[2].get_figwidth() == plotting.COLUMN_WIDTH
    boot = figures[2].axes[0]
    dashed = [line for line in boot.lines if line.get_linestyle() == "--"]
    assert {line.get_color() for line in dashed} == {"#0072B2"}  # Okabe-Ito blue
    assert "#0072B2" in plotting.OKABE_ITO


def test_import_irr_does_not_import_matplotlib():
    code = "import sys, irr; print('matplotlib' in sys.modules)"
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                         check=True)
    assert out.stdout.strip() == "False"


# -- 4. to_svg -----------------------------------------------------------------------------
def test_to_svg_is_reproducible_valid_svg(vision):
    ax = plotting.agreement_chart(vision)
    first = plotting.to_svg(ax)
    assert plotting.to_svg(ax) == first  # a second render of the same figure
    second = plotting.to_svg(plotting.agreement_chart(vision).figure)
    assert first == second
    root = ET.fromstring(first.encode())
    assert root.tag == "{http://www.w3.org/2000/svg}svg"
    assert "<dc:date>" not in first
    assert first.startswith('<?xml version="1.0" encoding="utf-8" standalone="no"?>')


def test_to_svg_prefixes_every_id_and_reference(vision):
    svg = plotting.to_svg(plotting.forest([vision.kappa()]), id_prefix="irr-fig2-")
    root = ET.fromstring(svg.encode())
    ids = {e.get("id") for e in root.iter() if e.get("id")}
    assert len(ids) > 10
    assert all(i.startswith("irr-fig2-") for i in ids)
    refs = {e.get("{http://www.w3.org/1999/xlink}href")[1:] for e in root.iter()
            if e.get("{http://www.w3.org/1999/xlink}href")}
    clips = {e.get("clip-path")[5:-1] for e in root.iter() if e.get("clip-path")}
    assert refs
    assert refs <= ids
    assert clips <= ids


def test_to_svg_bad_input():
    with pytest.raises(TypeError, match="`figure` must be a matplotlib Figure or Axes; got str"):
        plotting.to_svg("figure.svg")
    _, ax = plt.subplots()
    with pytest.raises(ValueError, match=r"`id_prefix` must be .*; got '1 bad'"):
        plotting.to_svg(ax, id_prefix="1 bad")


# -- 5. report_figures -----------------------------------------------------------------------
def test_report_figures_two_raters(vision):
    results = [vision.kappa(), vision.kappa("quadratic", ci="bca", n_resamples=499)]
    figures = plotting.report_figures(vision, results)
    captions = [c for c, _ in figures]
    assert len(figures) == 3
    assert captions[0].startswith(
        "Agreement chart (Bangdiwala, 1985) of r.eye (rows) and l.eye (columns) for the "
        "7,477 subjects both rated.")
    assert captions[1] == (
        "Estimates of each coefficient, with their 95% confidence intervals; the column at "
        "the right gives the subjects used (n) and the estimate with its interval. Shaded "
        "bands show the benchmark scale (Landis & Koch, 1977), named along the top.")
    assert captions[2] == (
        "Bootstrap distribution of Weighted kappa (quadratic): a histogram of the estimates "
        "on 499 resamples of the data, with the estimate (solid line) and the BCa "
        "bootstrap confidence interval reported (dashed lines).")
    for number, (_, svg) in enumerate(figures, 1):
        root = ET.fromstring(svg.encode())
        assert all(e.get("id").startswith(f"irr-fig{number}-") for e in root.iter()
                   if e.get("id"))
    assert plt.get_fignums() == []  # every figure closed
    again = plotting.report_figures(vision, results)
    assert again == figures  # same input, same bytes


def test_report_figures_by_group_and_many_raters(anxiety_by_site):
    ag = irr.Agreement.from_frame(irr.datasets.load("anxiety"))
    results = [ag.fleiss_kappa(ci="percentile", n_resamples=199),
               ag.krippendorff_alpha("ordinal", ci="bca", n_resamples=199), ag.icc()]
    figures = plotting.report_figures(ag, results, by_frame=anxiety_by_site)
    captions = [c for c, _ in figures]
    assert len(figures) == 3  # no chart for three raters
    assert captions[0].startswith("Estimates of each coefficient,")
    assert "Shaded bands" not in captions[0]  # Landis-Koch and Koo-Li rows: no bands
    assert captions[1].startswith(
        "Estimates of Weighted kappa (quadratic) by site, with their 95% confidence "
        "intervals;")
    assert captions[2].startswith(
        "Bootstrap distributions of Fleiss' kappa and Krippendorff's alpha (ordinal): "
        "histograms")
    assert captions[2].endswith(
        "the confidence interval reported (dashed lines; each legend names its method).")


def test_report_figures_never_crash_on_legitimate_results():
    rng = np.random.default_rng(3)
    true = rng.normal(50, 10, 40)
    scores = pd.DataFrame({"patient_id": [f"P{i:03d}" for i in range(40)],
                           "a": (true + rng.normal(0, 3, 40)).round(1),
                           "b": (true + rng.normal(1, 3, 40)).round(1)})
    scores.loc[[3, 17], "b"] = np.nan
    ag = irr.Agreement.from_frame(scores, id="patient_id")
    assert ag.facts.continuous
    figures = plotting.report_figures(ag, [ag.icc(), ag.krippendorff_alpha("interval")])
    assert [c.split(":")[0].split(",")[0] for c, _ in figures] == [
        "Estimates of each coefficient",  # no chart of continuous scores
        "Bootstrap distribution of Krippendorff's alpha (interval)"]  # percentile default
    # many categorical labels: the heatmap instead of the chart
    many = irr.Agreement([f"c{i % 40:02d}" for i in range(200)],
                         [f"c{(i + i % 3) % 40:02d}" for i in range(200)])
    caption, svg = plotting.report_figures(many, [])[0]
    assert ET.fromstring(svg.encode()).tag.endswith("svg")
    assert caption.startswith("Agreement table of")
    assert "over 40 categories" in caption
    # an undefined estimate
    constant = irr.Agreement([1, 1, 1, 1], [1, 1, 1, 1])
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", irr.DegenerateDataWarning)
        res = constant.kappa()
    assert math.isnan(res.estimate)
    figures = plotting.report_figures(constant, [res])
    assert [c.split(" (")[0].split(",")[0] for c, _ in figures] == [
        "Agreement chart", "Estimates of Cohen's kappa"]
    assert figures[1][0].endswith('Rows marked "not estimable" have no defined estimate.')
    assert plotting.report_figures(constant, []) == figures[:1]


def test_report_figures_bad_input(vision):
    with pytest.raises(TypeError, match=r"`ag` must be an irr\.Agreement; got DataFrame"):
        plotting.report_figures(irr.datasets.load("vision"), [])
    with pytest.raises(TypeError, match=r"`results` must hold irr results; got \['float'\]"):
        plotting.report_figures(vision, [0.5])
    with pytest.raises(TypeError, match=r"`by_frame` must be the DataFrame of irr\.by; got list"):
        plotting.report_figures(vision, [], by_frame=[1, 2])
