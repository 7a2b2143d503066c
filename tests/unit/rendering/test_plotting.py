"""Plots, drawn headless: sensible PNGs with the expected artists."""

import struct

import numpy as np
import pandas as pd
import pytest

matplotlib = pytest.importorskip("matplotlib")
matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402
from matplotlib.patches import Rectangle  # noqa: E402

import irr  # noqa: E402
from irr import plotting  # noqa: E402

SAS = [[10, 4, 1, 0], [5, 10, 12, 2], [2, 4, 12, 5], [0, 2, 6, 13]]


@pytest.fixture(autouse=True)
def _close():
    yield
    plt.close("all")


def png_size(path):
    with open(path, "rb") as handle:
        head = handle.read(24)
    assert head[:8] == b"\x89PNG\r\n\x1a\n"
    return struct.unpack(">II", head[16:24])


def save(ax, path, size=(6, 4), dpi=100):
    fig = ax.figure
    fig.set_size_inches(*size)
    fig.savefig(path, dpi=dpi)
    assert path.stat().st_size > 5000
    assert png_size(path) == (size[0] * dpi, size[1] * dpi)


@pytest.fixture
def ag():
    return irr.Agreement.from_table(SAS, names=["reader1", "reader2"])


def test_agreement_chart(ag, tmp_path):
    ax = plotting.agreement_chart(ag)
    rects = [p for p in ax.patches if isinstance(p, Rectangle)]
    # outer square + per category: marginal rectangle, partial area, agreement square
    assert len(rects) == 1 + 3 * 4
    n = 88
    assert rects[0].get_width() == rects[0].get_height() == n
    margins = rects[1::3]
    assert [r.get_width() for r in margins] == [17, 20, 31, 20]  # column totals
    assert [r.get_height() for r in margins] == [15, 29, 23, 21]  # row totals
    exact = rects[3::3]
    assert [r.get_width() for r in exact] == [10, 10, 12, 13]
    assert [t.get_text() for t in ax.get_xticklabels()] == ["0", "1", "2", "3"]
    assert ax.get_xlabel() == "reader2"
    assert ax.get_ylabel() == "reader1"
    b = sum(d * d for d in (10, 10, 12, 13)) / sum(
        r * c for r, c in zip([15, 29, 23, 21], [17, 20, 31, 20], strict=True))
    assert f"B = {b:.3f}" in ax.get_title()
    save(ax, tmp_path / "chart.png", size=(5, 5))


def _boxes(collection):
    """(x, y, width, height) of each rectangle of a PatchCollection, in data units."""
    out = []
    for path in collection.get_paths():
        (x_lo, y_lo), (x_hi, y_hi) = path.vertices.min(axis=0), path.vertices.max(axis=0)
        out.append((x_lo, y_lo, x_hi - x_lo, y_hi - y_lo))
    return np.array(out)


def test_agreement_chart_of_many_categories_draws_collections_of_the_same_areas(tmp_path):
    # more than ANNOTATE_CATEGORIES categories: margins, partial areas and exact squares
    # are three collections; their rectangles are those a patch per area would have
    k = plotting.ANNOTATE_CATEGORIES + 10
    rng = np.random.default_rng(3)
    counts = rng.integers(0, 4, (k, k)) + np.diag(rng.integers(5, 9, k))
    ag = irr.Agreement.from_table(counts, categories=list(range(k)))
    ax = plotting.agreement_chart(ag)
    assert len(ax.patches) == 1  # the outer square only
    margins, partial, exact = (_boxes(c) for c in ax.collections)
    rows, cols = counts.sum(axis=1), counts.sum(axis=0)
    x0 = np.concatenate([[0], np.cumsum(cols)[:-1]])
    y0 = np.concatenate([[0], np.cumsum(rows)[:-1]])
    np.testing.assert_allclose(margins, np.column_stack([x0, y0, cols, rows]))
    # written out per category, as in Bangdiwala's construction (partial: +-1 category)
    want_partial, want_exact = [], []
    for i in range(k):
        lo, hi = max(0, i - 1), min(k, i + 2)
        want_partial.append((x0[i] + counts[:lo, i].sum(), y0[i] + counts[i, :lo].sum(),
                             counts[lo:hi, i].sum(), counts[i, lo:hi].sum()))
        want_exact.append((x0[i] + counts[:i, i].sum(), y0[i] + counts[i, :i].sum(),
                           counts[i, i], counts[i, i]))
    np.testing.assert_allclose(partial, want_partial)
    np.testing.assert_allclose(exact, want_exact)
    assert ax.collections[1].get_facecolor()[0][:3] == pytest.approx([0.7] * 3)
    save(ax, tmp_path / "chart_many.png", size=(5, 5))


def test_agreement_chart_nominal_has_no_partial_areas(tmp_path):
    nominal = irr.Agreement(["a", "b", "a", "c", "b"], ["a", "b", "b", "c", "b"])
    ax = plotting.agreement_chart(nominal)
    assert len(ax.patches) == 1 + 2 * 3
    with pytest.raises(ValueError, match="`partial` must be a non-negative integer; got -1"):
        plotting.agreement_chart(nominal, partial=-1)


def test_agreement_chart_cuts_long_names_on_the_axes_only(tmp_path):
    # names long enough to squeeze the axes to nothing under constrained layout (which
    # then warns, an error here): the axes show their first characters and an ellipsis
    raters = ["first reader " + "x" * 60, "second reader " + "y" * 60]
    categories = ["category " + c * 50 for c in "abc"]
    ag = irr.Agreement.from_table([[5, 1, 0], [2, 6, 1], [0, 1, 7]], names=raters,
                                  categories=categories)
    ax = plotting.agreement_chart(ag)
    ticks = [t.get_text() for t in ax.get_xticklabels()]
    assert ticks == ["category " + c * 14 + "\u2026" for c in "abc"]
    assert all(len(t) == 24 for t in ticks)
    assert ax.get_xlabel() == raters[1][:47] + "\u2026"
    assert ax.get_ylabel() == raters[0][:47] + "\u2026"
    svg = plotting.to_svg(ax)  # lays the figure out without a warning
    assert svg.startswith("<?xml")


def test_table_heatmap(ag, tmp_path):
    ax = plotting.table_heatmap(ag)
    assert [t.get_text() for t in ax.texts] == [str(v) for row in SAS for v in row]
    assert len(ax.images) == 1
    assert len(ax.figure.axes) == 2  # with the colour bar
    save(ax, tmp_path / "heat.png", size=(5, 4))
    props = plotting.table_heatmap(ag, normalize=True, colorbar=False)
    assert props.texts[0].get_text() == f"{10 / 88:.1%}"


def test_bootstrap_distribution(ag, tmp_path):
    res = ag.kappa("quadratic", ci="bca", n_resamples=999, rng=0)
    ax = plotting.bootstrap_distribution(res)
    bars = list(ax.containers[0])
    assert len(bars) > 10  # the histogram
    assert sum(b.get_height() for b in bars) == 999
    spans = [p for p in ax.patches if p not in bars]
    (top,) = ax.child_axes  # the bands are named along a secondary axis at the top
    band_labels = [t.get_text() for t in top.get_xticklabels()]
    assert "substantial" in band_labels
    assert len(spans) == len(band_labels) >= 2  # one shaded span per band in view
    assert top.get_xlabel() == "Landis & Koch, 1977"
    lines = [line.get_xdata()[0] for line in ax.lines if len(line.get_xdata())]
    assert res.estimate in lines
    assert res.ci.low in lines
    assert res.ci.high in lines
    save(ax, tmp_path / "boot.png")


def test_bootstrap_distribution_needs_a_result():
    with pytest.raises(TypeError, match="`result` must be an irr result; got float"):
        plotting.bootstrap_distribution(0.5)


def test_forest_from_by_and_from_results(tmp_path):
    df = irr.datasets.load("anxiety").assign(site=["a", "b", "c", "d"] * 5)
    df.loc[df.site == "d", ["rater1", "rater2"]] = 3
    with pytest.warns(irr.DegenerateDataWarning):
        irr.Agreement.from_frame(df[df.site == "d"], ["rater1", "rater2"]).kappa()
    with pytest.warns(irr.DegenerateDataWarning):  # by() lets it through (issue 15)
        out = irr.by(df, "site", raters=["rater1", "rater2"], weights="quadratic")
    ax = plotting.forest(out)
    assert [t.get_text() for t in ax.get_yticklabels()] == ["a", "b", "c", "d"]
    assert [t.get_text() for t in ax.texts][-2:] == ["5", "not estimable"]
    assert len(ax.containers) == 1  # one errorbar container with the three estimates
    assert len(ax.containers[0].lines[0].get_xdata()) == 3
    save(ax, tmp_path / "forest.png")
    ag = irr.Agreement.from_frame(irr.datasets.load("vision"))
    ax2 = plotting.forest([ag.kappa(), ag.kappa("linear"), ag.kappa("quadratic")], scale=None)
    assert [t.get_text() for t in ax2.get_yticklabels()] == [
        "Cohen's kappa", "Weighted kappa (linear)", "Weighted kappa (quadratic)"]


def test_plots_draw_on_a_given_axes(ag):
    _, axes = plt.subplots(1, 2)
    assert plotting.agreement_chart(ag, ax=axes[0]) is axes[0]
    assert plotting.table_heatmap(ag, ax=axes[1], colorbar=False) is axes[1]


def test_bad_inputs():
    with pytest.raises(TypeError, match=r"`ag` must be an irr\.Agreement; got list"):
        plotting.agreement_chart([[1, 2], [3, 4]])
    frame = pd.DataFrame({"estimate": [0.5]})
    with pytest.raises(ValueError, match=r"missing \['ci_low', 'ci_high'\]"):
        plotting.forest(frame)
    with pytest.raises(TypeError, match=r"`data` must be the DataFrame of irr\.by"):
        plotting.forest(3)


def test_interactive_mode_turned_on_by_a_first_figure_survives_the_style():
    # IPython's inline backend is activated by the first figure, inside the style's
    # rc_context, and turns interactive mode on; restoring rcParams must not turn it off,
    # or a notebook shows no later figure
    import matplotlib.pyplot as plt

    from irr.plotting import _styled

    before = plt.isinteractive()
    try:
        plt.interactive(False)
        _styled(lambda: plt.interactive(True))()
        assert plt.isinteractive()
        plt.interactive(False)
        _styled(lambda: None)()
        assert not plt.isinteractive()
    finally:
        plt.interactive(before)


def test_bland_altman_takes_an_agreement_and_draws_its_limits():
    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    pef = irr.datasets.load("pef")
    ag = irr.Agreement.from_frame(pef, raters=["wright_1", "mini_1", "wright_2"])
    res = ag.limits_of_agreement(first="wright_1", second="mini_1")
    ax = irr.plotting.bland_altman(ag, first="wright_1", second="mini_1", units="l/min")
    levels = sorted(round(line.get_ydata()[0], 6) for line in ax.get_lines()
                    if len(set(line.get_ydata())) == 1)
    for value in (res.estimate, res.lower, res.upper):  # bias and the two limits
        assert round(value, 6) in levels
    assert ax.get_ylabel() == "wright_1 \u2212 mini_1 (l/min)"
    with pytest.raises(TypeError, match="only with arrays, not with an Agreement"):
        irr.plotting.bland_altman(ag, pef["mini_1"])
    plt.close("all")


def test_dir_lists_only_the_public_names():
    names = dir(plotting)
    assert names == sorted(plotting.__all__)
    assert not {"np", "pd", "math", "limits_of_agreement", "bangdiwala_b",
                "method_regression", "Agreement"} & set(names)


def _replicated_pef():
    pef = irr.datasets.load("pef", form="long")
    return irr.Agreement.from_long(pef, subject="subject", rater="rater", rating="rating",
                                   replicate="replicate")


@pytest.mark.parametrize("design", ["constant", "varying"])
def test_bland_altman_of_replicates_says_what_its_points_and_limits_are(design, tmp_path):
    # Bland & Altman (1999), section 5: with replicates the points are the subjects' mean
    # differences (true value constant) or the differences of readings made in pairs
    # (varying), and the limits drawn are those of single readings
    ag = _replicated_pef()
    res = ag.limits_of_agreement(replicates=design, units="l/min")
    ax = irr.plotting.bland_altman(res)
    points = ax.collections[0].get_offsets()
    assert len(points) == (17 if design == "constant" else 34)
    levels = sorted(round(line.get_ydata()[0], 6) for line in ax.get_lines()
                    if len(set(line.get_ydata())) == 1)
    for value in (res.lower, res.upper):  # the limits of single readings
        assert round(value, 6) in levels
    labels = [t.get_text() for t in ax.get_legend().get_texts()]
    assert labels[0] == ("Subject means (17)" if design == "constant"
                         else "Readings made in pairs (34)")
    assert "95% limits (single readings)" in labels
    caption, draw = plotting.report_figure_plan(ag, [res])[0]
    if design == "constant":
        assert "the 17 subjects' means (each method's mean of its readings" in caption
        assert "wider than the spread of the means plotted" in caption
    else:
        assert "of the 34 readings made in pairs" in caption
    assert "95% limits of agreement of single readings (dashed)" in caption
    assert "the 95% limits of agreement of single readings (bias ± 1.96 SD)" in res.report()
    assert "95% limits (single readings)" in draw()  # the report's figure, as SVG text
    ax.figure.savefig(tmp_path / "ba.png")
    assert png_size(tmp_path / "ba.png")[0] > 300


def test_bland_altman_of_single_readings_keeps_its_words():
    pef = irr.datasets.load("pef")
    ag = irr.Agreement.from_frame(pef, raters=["wright_1", "mini_1"])
    res = ag.limits_of_agreement()
    labels = [t.get_text() for t in irr.plotting.bland_altman(res).get_legend().get_texts()]
    assert labels == ["Bias", "95% limits of agreement", "95% CIs"]
    caption = plotting.report_figure_plan(ag, [res])[0][0]
    assert caption.startswith("Bland-Altman plot: the differences wright_1 - mini_1 against "
                              "the means of the two methods for the 17 subjects")
    assert "single readings" not in caption
