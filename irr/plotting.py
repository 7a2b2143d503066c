"""Plots of agreement: Bangdiwala's agreement chart, table heatmap, bootstrap distribution,
forest plot, and the figures of a reliability report as reproducible SVG.

matplotlib is an optional dependency (``pip install "irrstats[plot]"``), imported when a
function is called. Every plotting function draws on `ax` (default: a new figure's axes,
sized for one journal column) and returns the matplotlib ``Axes``. All figures share one
style (:data:`STYLE`: 8-9 pt DejaVu Sans, the Okabe-Ito colour-blind-safe palette, thin
lines, constrained layout), applied with :func:`matplotlib.rc_context` while drawing: the
user's global ``rcParams`` are never changed.
"""

from __future__ import annotations

import functools
import io
import itertools
import math
import re
import textwrap
from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING, Any, TypeVar

import numpy as np
import pandas as pd

from irr._functions import limits_of_agreement
from irr._numbers import MINUS, format_number, format_pvalue, format_significant
from irr._validation import check_bool, check_choice
from irr.agreement import Agreement
from irr.bands import get_scale
from irr.coefficients.bangdiwala import bangdiwala_b
from irr.estimators import method_regression
from irr.estimators.limits import LimitsOfAgreementResult
from irr.gtheory.results import DStudyResult
from irr.inference.options import BOOTSTRAP_METHODS
from irr.pandas import BY_COLUMNS
from irr.plan import PlanResult
from irr.results import Result
from irr.vocabulary import resolve

if TYPE_CHECKING:
    from matplotlib.axes import Axes
    from matplotlib.figure import Figure

__all__ = [
    "ANNOTATE_CATEGORIES",
    "COLUMN_WIDTH",
    "MAX_BOOTSTRAP_PANELS",
    "MAX_PLOT_CATEGORIES",
    "OKABE_ITO",
    "STYLE",
    "agreement_chart",
    "bland_altman",
    "bootstrap_distribution",
    "dstudy",
    "forest",
    "method_comparison",
    "power_curve",
    "report_figure_plan",
    "report_figures",
    "table_heatmap",
    "to_svg",
]


def __dir__() -> list[str]:
    """The public names only (``dir(irr.plotting)``): the imported kernels, modules and
    helpers are not part of the plotting API."""
    return sorted(__all__)

#: Tables of at most this many categories get per-cell counts, outlined diagonal cells and
#: a tick per category; larger ones are drawn as an image with about 20 ticks.
ANNOTATE_CATEGORIES = 30
#: The most categories the table plots draw (a 2,000 x 2,000 image); beyond it they raise
#: (aggregate the categories first, e.g. round the scores).
MAX_PLOT_CATEGORIES = 2_000
#: Width of one journal column, in inches: the default width of every figure but the
#: forest plot (whose text column needs about one and a half columns).
COLUMN_WIDTH = 3.5
#: The Okabe-Ito palette (Okabe & Ito, 2008), distinguishable with every common colour
#: vision deficiency: black, orange, sky blue, bluish green, yellow, blue, vermillion,
#: reddish purple.
OKABE_ITO = ("#000000", "#E69F00", "#56B4E9", "#009E73", "#F0E442", "#0072B2", "#D55E00",
             "#CC79A7")
#: The ``rcParams`` every figure of this module is drawn with (in a
#: :func:`matplotlib.rc_context`, so the user's own settings are left as they are). Fonts
#: of 8 pt and more stay readable when a figure is printed one column wide; DejaVu Sans
#: ships with matplotlib, so the same figure has the same bytes on every machine.
STYLE: dict[str, Any] = {
    "font.family": "sans-serif",
    "font.sans-serif": ["DejaVu Sans"],
    "font.size": 8.0,
    "axes.titlesize": 9.0,
    "axes.labelsize": 8.0,
    "xtick.labelsize": 8.0,
    "ytick.labelsize": 8.0,
    "legend.fontsize": 8.0,
    "legend.frameon": False,
    "axes.linewidth": 0.6,
    "axes.edgecolor": "0.15",
    "axes.titlepad": 4.0,
    "lines.linewidth": 1.0,
    "xtick.major.width": 0.6,
    "ytick.major.width": 0.6,
    "xtick.major.size": 3.0,
    "ytick.major.size": 3.0,
    "patch.linewidth": 0.6,
    "svg.fonttype": "path",
    "pdf.fonttype": 42,
    "ps.fonttype": 42,
    "savefig.dpi": 300,
}
_STYLE_COLORS = "axes.prop_cycle"  # set from OKABE_ITO when the style is applied
_BLUE, _VERMILLION = OKABE_ITO[5], OKABE_ITO[6]
#: Text sizes of the style, in points (tick labels are set explicitly so that ticks
#: created later, at draw time outside the style's context, keep them).
_TEXT_SIZE = 8.0
_LABEL_CHARS = 24  # longest tick or axis label drawn from user text (rater, category, group)

F = TypeVar("F", bound=Callable[..., Any])


def _pyplot() -> Any:
    try:
        import matplotlib.pyplot as plt
    except ImportError:  # pragma: no cover - depends on the environment
        raise ImportError(
            "irr.plotting needs matplotlib: pip install 'irrstats[plot]'."
        ) from None
    return plt


def _style() -> dict[str, Any]:
    from cycler import cycler

    return {**STYLE, _STYLE_COLORS: cycler(color=list(OKABE_ITO))}


def _styled(function: F) -> F:
    """Run `function` inside ``rc_context(STYLE)``: its figures and artists get the style,
    the caller's rcParams are restored afterwards."""

    @functools.wraps(function)
    def wrapper(*args: Any, **kwargs: Any) -> Any:
        plt = _pyplot()
        with plt.rc_context(_style()):
            result = function(*args, **kwargs)
            # a backend that the first figure activates (IPython's inline one) turns
            # interactive mode on inside the context; restoring rcParams would turn it off
            # and the notebook would show no later figure
            interactive = plt.isinteractive()
        plt.interactive(interactive)
        return result

    return wrapper  # type: ignore[return-value]


def _axes(ax: Axes | None, size: tuple[float, float]) -> Axes:
    if ax is not None:
        return ax
    _, ax = _pyplot().subplots(figsize=size, layout="constrained")
    ax.tick_params(labelsize=_TEXT_SIZE)
    return ax


def _short(text: Any, limit: int = _LABEL_CHARS) -> str:
    """`text` as drawn on an axis: cut to `limit` characters, the last an ellipsis, so that
    long user names (raters, categories, groups) cannot crowd the axes out of the figure.
    Captions and alt text keep the full name."""
    text = str(text)
    return text if len(text) <= limit else text[:limit - 1].rstrip() + "\u2026"


def _root_figure(artist: Any) -> Figure:
    """The top-level Figure of an Axes, SubFigure or Figure."""
    from matplotlib.figure import Figure

    figure = artist
    while not isinstance(figure, Figure):
        figure = figure.figure
    return figure


def _crowded(labels: Sequence[Any]) -> bool:
    """Whether neighbouring labels (as drawn) overlap or nearly touch."""
    boxes = sorted((t.get_window_extent() for t in labels
                    if t.get_visible() and t.get_text()), key=lambda b: b.x0)
    return any(b.x0 < a.x1 + 2 for a, b in itertools.pairwise(boxes))


def _slant(axis: Any, angle: float, align: str) -> None:
    axis.set_tick_params(labelrotation=angle)
    for label in axis.get_ticklabels():
        label.set_horizontalalignment(align)
        label.set_rotation_mode("anchor")


def _finish(ax: Axes, top: Any = None, legend: Sequence[Any] = (), ncols: int = 1) -> None:
    """Lay out what depends on drawn sizes: slant crowded category or band names (x-axis
    and the band axis `top`), then put the `legend` handles just under the x-axis label,
    clear of the tick labels, inside the layout (sizes in points do not change when the
    layout resizes the axes)."""
    from matplotlib.transforms import ScaledTranslation

    figure = _root_figure(ax)
    figure.draw_without_rendering()
    if _crowded(ax.get_xticklabels()):
        _slant(ax.xaxis, 45, "right")
    for angle in (35, 60, 90):  # band names: as steep as it takes not to overlap
        if top is None or not _crowded(top.get_xticklabels()):
            break
        _slant(top.xaxis, angle, "left")
        figure.draw_without_rendering()
    if not legend:
        return
    figure.draw_without_rendering()
    below = ax.xaxis.get_tightbbox(figure.canvas.get_renderer())
    drop = 4.0 + (ax.bbox.y0 - below.y0) * 72 / figure.dpi if below is not None else 30.0
    ax.legend(handles=list(legend), loc="upper center", bbox_to_anchor=(0.5, 0.0),
              bbox_transform=ax.transAxes + ScaledTranslation(0, -drop / 72,
                                                              figure.dpi_scale_trans),
              ncols=ncols, borderaxespad=0.0, handlelength=1.5, columnspacing=1.2)


def _table(ag: Agreement, what: str) -> pd.DataFrame:
    if not isinstance(ag, Agreement):
        raise TypeError(f"`ag` must be an irr.Agreement; got {type(ag).__name__}.")
    k = len(ag.categories)
    if k > MAX_PLOT_CATEGORIES:
        raise ValueError(
            f"{what} draws at most {MAX_PLOT_CATEGORIES:,} categories "
            f"(irr.plotting.MAX_PLOT_CATEGORIES); this Agreement has {k:,}. Aggregate the "
            "categories first (e.g. round the scores)."
        )
    return ag.table


def _label_table_axes(ax: Axes, table: pd.DataFrame, xticks: Any, yticks: Any) -> None:
    """Category ticks and rater names of a two-rater table (columns on x, rows on y);
    about 20 evenly spaced ticks for more than ANNOTATE_CATEGORIES categories."""
    k = len(table.columns)
    keep = (np.arange(k) if k <= ANNOTATE_CATEGORIES
            else np.unique(np.linspace(0, k - 1, 20).round().astype(int)))
    ax.set_xticks(np.asarray(xticks)[keep], [_short(table.columns[i]) for i in keep])
    ax.set_yticks(np.asarray(yticks)[keep], [_short(table.index[i]) for i in keep])
    ax.set_xlabel(_short(table.columns.name, 2 * _LABEL_CHARS))
    ax.set_ylabel(_short(table.index.name, 2 * _LABEL_CHARS))


def _categories(step: int) -> str:
    return "category" if step == 1 else "categories"


@_styled
def agreement_chart(
    ag: Agreement,
    *,
    partial: int | None = None,
    ax: Axes | None = None,
    color: str = "0.15",
    partial_color: str = "0.7",
    legend: bool = True,
) -> Axes:
    """Bangdiwala's agreement chart of a two-rater table.

    An n x n square (n subjects). For each category i a white rectangle of width the
    column (second rater) total and height the row (first rater) total is placed along
    the diagonal; inside it, a black square of side n_ii shows exact agreement, and a grey
    rectangle the partial agreement of categories within `partial` steps. Perfect
    agreement fills the rectangles black and they are squares on the 45° line; marginal
    disagreement shows as rectangles off the line.

    Parameters
    ----------
    ag : Agreement
        Two raters.
    partial : int, optional
        Shade disagreements by up to this many categories (ordered scales); default 1
        when the categories are ordered, 0 otherwise.
    ax : matplotlib Axes, optional
    color, partial_color : matplotlib colours
        Of the exact- and partial-agreement areas.
    legend : bool, default True
        A legend under the chart naming the exact- (and partial-) agreement areas.

    Returns
    -------
    matplotlib.axes.Axes
        The title gives Bangdiwala's B (sum of squared agreements over the sum of the
        products of the margins) and, with partial agreement, the weighted B (partial
        agreements counted in full). Category names that would overlap are slanted.
        Each rectangle is a patch (``ax.patches``); with more than
        :data:`ANNOTATE_CATEGORIES` categories each kind of rectangle (margins, partial,
        exact) is one collection (``ax.collections``), which draws thousands at once.

    References
    ----------
    Bangdiwala, S. I. (1985). A graphical test for observer agreement. Proceedings of
    the 45th Session of the International Statistical Institute, 1, 307-308.

    Bangdiwala, S. I. (1987). Using SAS software graphical procedures for the observer
    agreement chart. Proceedings of the SAS Users Group International Conference, 12,
    1083-1088.

    Examples
    --------
    >>> import matplotlib
    >>> matplotlib.use("Agg")
    >>> import irr
    >>> from irr.plotting import agreement_chart
    >>> ax = agreement_chart(irr.Agreement.from_frame(irr.datasets.load("vision")))
    >>> print(ax.get_title())
    Agreement chart: B = 0.511
    weighted B (±1 category) = 0.887
    >>> [t.get_text() for t in ax.get_legend().get_texts()]
    ['exact agreement', 'partial (±1 category)']
    """
    legend = check_bool(legend, "legend")
    from matplotlib.patches import Patch, Rectangle

    table = _table(ag, "agreement_chart")
    counts = table.to_numpy(dtype=float)
    k = counts.shape[0]
    ordered = ag.facts.ordered
    step = (1 if ordered else 0) if partial is None else int(partial)
    if step < 0:
        raise ValueError(f"`partial` must be a non-negative integer; got {partial!r}.")
    n = counts.sum()
    rows, cols = counts.sum(axis=1), counts.sum(axis=0)
    x0 = np.concatenate([[0.0], np.cumsum(cols)[:-1]])
    y0 = np.concatenate([[0.0], np.cumsum(rows)[:-1]])
    ax = _axes(ax, (COLUMN_WIDTH, COLUMN_WIDTH + 0.35))
    ax.add_patch(Rectangle((0, 0), n, n, fill=False, edgecolor="black", linewidth=1.0))
    # above[r, i]: the first r rows of column i (the second rater said i, the first one of
    # the first r categories); left[i, r]: the first r columns of row i
    above = np.vstack([np.zeros((1, k)), np.cumsum(counts, axis=0)])
    left = np.hstack([np.zeros((k, 1)), np.cumsum(counts, axis=1)])
    cat = np.arange(k)
    diagonal = np.diag(counts)
    # per category: its margins, the partial area (ratings within `step` categories: the
    # column i split by the first rater's ratings, the row i by the second's) and the
    # exact-agreement square, as (x, y, width, height, style)
    unedged = {"edgecolor": "none"}
    areas = [(x0, y0, cols, rows,
              {"facecolor": "white", "edgecolor": "black", "linewidth": 0.6})]
    if step:
        lo, hi = np.maximum(cat - step, 0), np.minimum(cat + step + 1, k)
        areas.append((x0 + above[lo, cat], y0 + left[cat, lo], above[hi, cat] - above[lo, cat],
                      left[cat, hi] - left[cat, lo], {"facecolor": partial_color, **unedged}))
    areas.append((x0 + above[cat, cat], y0 + left[cat, cat], diagonal, diagonal,
                  {"facecolor": color, **unedged}))
    if k <= ANNOTATE_CATEGORIES:  # one patch per area, category by category
        for i in range(k):
            for x, y, width, height, style in areas:
                ax.add_patch(Rectangle((x[i], y[i]), width[i], height[i], **style))
    else:  # more categories: each kind of area one collection, drawn at once
        from matplotlib.collections import PatchCollection

        for x, y, width, height, style in areas:
            ax.add_collection(PatchCollection(
                [Rectangle((a, b), w, h) for a, b, w, h in zip(x, y, width, height,
                                                               strict=True)], **style))
    ax.plot([0, n], [0, n], color="0.4", linestyle="--", linewidth=0.8)
    ax.set_xlim(0, max(n, 1))
    ax.set_ylim(0, max(n, 1))
    ax.set_aspect("equal")
    _label_table_axes(ax, table, x0 + cols / 2, y0 + rows / 2)
    title = "Agreement chart"
    if float(np.sum(rows * cols)) > 0:
        # the statistic of Agreement.bangdiwala_b, on the drawn table's cells
        cell_rows, cell_cols = np.indices(counts.shape).reshape(2, -1)
        b_of = functools.partial(bangdiwala_b, counts.reshape(1, -1), cell_rows, cell_cols, k)
        title += f": B = {float(b_of()[0]):.3f}"
        if step:
            weighted = float(b_of([1.0] * min(step, k - 1))[0])
            title += f"\nweighted B (±{step} {_categories(step)}) = {weighted:.3f}"
    ax.set_title(title)
    handles = []
    if legend:
        handles = [Patch(facecolor=color, edgecolor="none", label="exact agreement")]
        if step:
            handles.append(Patch(facecolor=partial_color, edgecolor="none",
                                 label=f"partial (±{step} {_categories(step)})"))
    _finish(ax, legend=handles, ncols=len(handles))
    return ax


@_styled
def table_heatmap(
    ag: Agreement,
    *,
    ax: Axes | None = None,
    cmap: str = "Blues",
    normalize: bool = False,
    colorbar: bool = True,
) -> Axes:
    """Heatmap of the two-rater agreement table with every cell's count written in it.

    Tables of more than :data:`ANNOTATE_CATEGORIES` categories are drawn as an image
    without per-cell text or outlines, with about 20 ticks; more than
    :data:`MAX_PLOT_CATEGORIES` raise ValueError.

    Parameters
    ----------
    ag : Agreement
        Two raters.
    ax : matplotlib Axes, optional
    cmap : str, default 'Blues'
        A sequential colour map (the default reads in grey scale and with every common
        colour vision deficiency).
    normalize : bool, default False
        Colour and annotate proportions of all subjects instead of counts.
    colorbar : bool, default True

    Returns
    -------
    matplotlib.axes.Axes
        Rows: the first rater; columns: the second; agreement on the diagonal (outlined).

    Examples
    --------
    >>> import matplotlib
    >>> matplotlib.use("Agg")
    >>> import irr
    >>> from irr.plotting import table_heatmap
    >>> ax = table_heatmap(irr.Agreement.from_frame(irr.datasets.load("vision")))
    >>> len(ax.texts)
    16
    """
    normalize = check_bool(normalize, "normalize")
    colorbar = check_bool(colorbar, "colorbar")
    from matplotlib.patches import Rectangle

    table = _table(ag, "table_heatmap")
    values = table.to_numpy(dtype=float)
    if normalize:
        values = values / values.sum() if values.sum() > 0 else values
    k = values.shape[0]
    annotate = k <= ANNOTATE_CATEGORIES
    # a cell holds its number at 8 pt: about 0.3 in per category when annotated
    side = min(max(0.3 * k if annotate else 2.6, 2.4), 9.0)
    ax = _axes(ax, (side + 1.1, side + 0.7))
    image = ax.imshow(values, cmap=cmap, origin="upper", interpolation="nearest")
    top = values.max() if values.size else 0.0
    for i in range(k if annotate else 0):
        for j in range(k):
            text = f"{values[i, j]:.1%}" if normalize else f"{int(values[i, j])}"
            dark = top > 0 and values[i, j] > 0.6 * top
            ax.text(j, i, text, ha="center", va="center",
                    color="white" if dark else "black", fontsize=_TEXT_SIZE)
        ax.add_patch(Rectangle((i - 0.5, i - 0.5), 1, 1, fill=False, edgecolor="0.2",
                               linewidth=1.0))
    _label_table_axes(ax, table, range(k), range(k))
    ax.set_title("Agreement table" + (" (proportions)" if normalize else ""))
    if colorbar:
        bar = _root_figure(ax).colorbar(image, ax=ax, fraction=0.046, pad=0.04)
        bar.ax.tick_params(labelsize=_TEXT_SIZE)
        bar.set_label("proportion of subjects" if normalize else "subjects")
    _finish(ax)
    return ax


def _number(value: float, bounded: bool) -> str:
    """Two decimals; APA drops the leading zero of statistics that cannot exceed 1; a
    true minus sign."""
    return format_number(value, 2, leading_zero=not bounded)


def _is_bounded(bounds: Any) -> bool:
    """Whether a statistic of these bounds cannot exceed 1 (APA: no zero before the
    point)."""
    return bool(float(bounds[1]) <= 1.0)


def _shade_bands(ax: Axes, scale: Any, low: float, high: float) -> Any:
    """Shade the bands of `scale` that meet [low, high] in alternating greys, named on a
    secondary x-axis along the top (titled with the scale's citation); returns that axis.

    Labels are left out for slivers narrower than 4% of the axis (the shading still shows
    the boundary); :func:`_finish` slants them when they would overlap."""
    resolved = get_scale(scale)
    centres, labels, widths = [], [], []
    visible = 0
    for band in resolved.bands:
        left, right = max(band.lower, low), min(band.upper, high)
        if right <= left:
            continue
        ax.axvspan(left, right, facecolor="0.86" if visible % 2 else "0.94",
                   edgecolor="none", linewidth=0, zorder=0)
        visible += 1
        if right - left >= 0.04 * (high - low):
            centres.append((left + right) / 2)
            labels.append(band.label)
            widths.append(right - left)
    top = ax.secondary_xaxis("top")
    top.set_xticks(centres, labels)
    top.tick_params(length=0, pad=2, labelsize=_TEXT_SIZE, labelcolor="0.3")
    top.set_xlabel(resolved.short_citation or resolved.name, color="0.3", labelpad=4)
    for spine in top.spines.values():
        spine.set_visible(False)
    return top


@_styled
def bootstrap_distribution(
    result: Result,
    *,
    method: str | None = None,
    confidence_level: float | None = None,
    scale: Any = None,
    bins: int | str = "auto",
    ax: Axes | None = None,
) -> Axes:
    """Histogram of a result's bootstrap replicates, with the estimate, interval and bands.

    Parameters
    ----------
    result : Result
        A result that can be bootstrapped (drawn now if it has not been yet).
    method : {'percentile', 'basic', 'bca'}, optional
        The interval drawn; default the result's own when it is a bootstrap interval,
        else 'percentile'. The legend names it ("95% BCa interval").
    confidence_level : float, optional
        Default that of the result's interval.
    scale : str or Scale, optional
        Benchmark scale shaded behind the histogram and named along the top; default the
        result's (none when it has none).
    bins : int or str, default 'auto'
    ax : matplotlib Axes, optional

    Returns
    -------
    matplotlib.axes.Axes

    Examples
    --------
    >>> import matplotlib
    >>> matplotlib.use("Agg")
    >>> import irr
    >>> from irr.plotting import bootstrap_distribution
    >>> ag = irr.Agreement.from_frame(irr.datasets.load("anxiety"), ["rater1", "rater2"])
    >>> ax = bootstrap_distribution(ag.kappa(ci="bca", n_resamples=999, rng=0))
    >>> ax.get_xlabel()
    "Cohen's kappa"
    >>> [t.get_text() for t in ax.get_legend().get_texts()]
    ['estimate .12', '95% BCa bootstrap interval [−.10, .39]']
    """
    from matplotlib.lines import Line2D

    if not isinstance(result, Result):
        raise TypeError(f"`result` must be an irr result; got {type(result).__name__}.")
    if method is None:
        method = result.ci.method if result.ci.method in BOOTSTRAP_METHODS else "percentile"
    ci = result.conf_int(confidence_level, method)
    boot = result.bootstrap
    replicates = np.asarray(boot.replicates, dtype=float).ravel()
    finite = replicates[np.isfinite(replicates)]
    ax = _axes(ax, (COLUMN_WIDTH, 2.9))
    if finite.size:
        ax.hist(finite, bins=bins, color="0.55", edgecolor="white", linewidth=0.3,
                zorder=2)
    else:
        ax.text(0.5, 0.5, "no finite bootstrap replicates", transform=ax.transAxes,
                ha="center", va="center", color="0.3")
    ends = [x for x in (result.estimate, ci.low, ci.high) if math.isfinite(x)]
    points = np.concatenate([finite, ends]) if finite.size or ends else np.array([-1.0, 1.0])
    low, high = float(points.min()), float(points.max())
    pad = 0.05 * max(high - low, 1e-3)
    span = (low - pad, high + pad)
    chosen = result.scale if scale is None else scale
    top = _shade_bands(ax, chosen, *span) if chosen is not None else None
    bounded = _is_bounded(result.bounds)
    handles = []
    if math.isfinite(result.estimate):
        ax.axvline(result.estimate, color="black", linewidth=1.4, zorder=3)
        handles.append(Line2D([], [], color="black", linewidth=1.4,
                              label=f"estimate {_number(result.estimate, bounded)}"))
    for end in (ci.low, ci.high):
        if math.isfinite(end):
            ax.axvline(end, color=_BLUE, linestyle="--", linewidth=1.2, zorder=3)
    level = f"{100 * ci.confidence_level:g}%"
    interval = (f"[{_number(ci.low, bounded)}, {_number(ci.high, bounded)}]"
                if math.isfinite(ci.low) and math.isfinite(ci.high) else "undefined")
    handles.append(Line2D([], [], color=_BLUE, linestyle="--", linewidth=1.2,
                          label=f"{level} {ci.method_name} interval {interval}"))
    ax.set_xlim(*span)
    ax.set_xlabel(result.coefficient)
    ax.set_ylabel("resamples")
    ax.set_title(f"Bootstrap distribution\n{boot.n_resamples:,} resamples of {boot.resampling}")
    _finish(ax, top, legend=handles)
    return ax



#: The most rows of a plan :func:`power_curve` draws (one line each).
MAX_CURVES = 8


def _curve_label(row: dict[str, Any], varying: Sequence[str]) -> str:
    parts = []
    for name in varying:
        value = row[name]
        text = (", ".join(f"{v:g}" for v in value) if isinstance(value, tuple)
                else f"{value:g}" if isinstance(value, float) else str(value))
        parts.append(f"{name.replace('_', ' ')} = {text}")  # "target power", not a column
    return ", ".join(parts)



@_styled
def dstudy(
    result: DStudyResult,
    x: str | None = None,
    *,
    coefficient: str = "both",
    target: float | None = None,
    ax: Axes | None = None,
) -> Axes:
    """A D study: Eρ² and Φ against the number of levels of one facet, one line per level
    of the other facet(s).

    Parameters
    ----------
    result : DStudyResult
        From :meth:`irr.GStudyResult.dstudy` (or ``optimize``).
    x : str, optional
        The facet on the x-axis (default: the facet with the most sizes).
    coefficient : {'both', 'g', 'phi'}, default 'both'
        Eρ² (solid lines), Φ (dashed), or both.
    target : float, optional
        A reliability to reach, drawn as a horizontal line.
    ax : matplotlib Axes, optional

    Returns
    -------
    matplotlib.axes.Axes

    Examples
    --------
    >>> import matplotlib
    >>> matplotlib.use("Agg")
    >>> import irr
    >>> g = irr.gstudy(irr.datasets.load("brennan_3_2"), score="Score", object="Person",
    ...                facets=["Rater", "Task"], nested={"Rater": "Task"})
    >>> ax = irr.plotting.dstudy(g.dstudy(Rater=[1, 2, 3, 4, 6], Task=[2, 3, 5]))
    >>> ax.get_xlabel(), ax.get_ylabel()
    ('Rater per Task (levels)', 'coefficient')
    """
    from matplotlib.lines import Line2D

    if not isinstance(result, DStudyResult):
        raise TypeError(f"`result` must be a D study (GStudyResult.dstudy); got "
                        f"{type(result).__name__}.")
    check_choice(coefficient, "coefficient", ("both", "g", "phi"))
    frame = result.to_frame()
    facets = list(result.facets)
    counts = {f: frame[f].nunique() for f in facets}
    if x is None:
        x = max(facets, key=lambda f: counts[f])
    elif x not in facets:
        raise ValueError(f"`x`: {x!r} is not a facet; facets: {facets!r}.")
    others = [f for f in facets if f != x and counts[f] > 1]
    groups = (list(frame.groupby(others, sort=True)) if others else [((), frame)])
    if len(groups) > len(OKABE_ITO):
        raise ValueError(f"the D study has {len(groups)} lines (levels of {others}); "
                         f"dstudy draws at most {len(OKABE_ITO)}: choose fewer sizes.")
    ax = _axes(ax, (COLUMN_WIDTH, 2.6))
    wanted = [("g", "-", "Eρ²"), ("phi", "--", "Φ")]
    wanted = [w for w in wanted if coefficient in ("both", w[0])]
    handles = []
    for i, (key, part) in enumerate(groups):
        part = part.sort_values(x)
        colour = OKABE_ITO[(i + 5) % len(OKABE_ITO)] if len(groups) > 1 else _BLUE
        for column, style, _ in wanted:
            ax.plot(part[x], part[column], style, color=colour, linewidth=1.2, marker="o",
                    markersize=2.5)
        if others:
            values = key if isinstance(key, tuple) else (key,)
            label = ", ".join(f"{f} = {v:g}" for f, v in zip(others, values, strict=True))
            handles.append(Line2D([], [], color=colour, linewidth=1.2, label=label))
    if len(wanted) > 1:
        handles += [Line2D([], [], color="0.3", linestyle=style, linewidth=1.2, label=name)
                    for _, style, name in wanted]
    if target is not None:
        ax.axhline(target, color="0.4", linestyle=":", linewidth=0.9)
        handles.append(Line2D([], [], color="0.4", linestyle=":", linewidth=0.9,
                              label=f"target {target:g}"))
    ax.set_ylim(0, 1.0)
    parent = result.structure.parent.get(x)
    unit = f"{x} per {parent}" if parent is not None and parent != result.object else x
    ax.set_xlabel(f"{unit} (levels)")
    ax.set_ylabel("coefficient" if len(wanted) > 1 else wanted[0][2])
    ax.set_xticks(sorted(frame[x].unique()))
    ax.set_title(f"D study, {result.design}", fontsize=_TEXT_SIZE + 0.5)
    _finish(ax, None, legend=handles, ncols=2 if len(handles) > 3 else 1)
    return ax

@_styled
def power_curve(
    result: PlanResult,
    n: Sequence[int] | np.ndarray | None = None,
    *,
    ax: Axes | None = None,
) -> Axes:
    """Power (or expected interval width) of a planned study against the number of subjects.

    One line per row of the plan (at most :data:`MAX_CURVES`), the target power as a
    horizontal line and each row's planned ``n`` as a point. For the exact binomial test of
    an error rate (:func:`irr.plan.error_rate`) the power is drawn at every ``n``, so its
    sawtooth shows, with ``n_stable`` marked: from there on the power stays above the
    target.

    Parameters
    ----------
    result : PlanResult
        From a function of :mod:`irr.plan`.
    n : sequence of int, optional
        The numbers of subjects; default every integer from 2 to about 1.6 times the
        largest planned ``n`` (to ``n_stable`` and beyond when the plan has it).
    ax : matplotlib Axes, optional

    Returns
    -------
    matplotlib.axes.Axes

    Examples
    --------
    >>> import matplotlib
    >>> matplotlib.use("Agg")
    >>> import irr
    >>> from irr.plotting import power_curve
    >>> ax = power_curve(irr.plan.error_rate(0.10, 0.05, power=0.8))
    >>> ax.get_ylabel(), ax.get_xlabel()
    ('power', 'test cases (n)')
    """
    from matplotlib.lines import Line2D

    if not isinstance(result, PlanResult):
        raise TypeError(f"`result` must be an irr.plan result; got {type(result).__name__}.")
    table = result.table
    if len(table) > MAX_CURVES:
        raise ValueError(
            f"the plan has {len(table)} rows; power_curve draws at most {MAX_CURVES} "
            "(plan fewer combinations, or draw the rows' curves from result.curve(n)).")
    # a target no n reaches has a missing n (<NA>): no marker
    planned = (table["n"].to_numpy(dtype=float, na_value=np.nan) if "n" in table
               else np.array([np.nan]))
    stable = (table["n_stable"].to_numpy(dtype=float, na_value=np.nan) if "n_stable" in table
              else planned)
    if n is None:
        top = np.nanmax(np.concatenate([planned, stable, [10.0]]))
        n = np.arange(2, math.ceil(1.6 * top) + 1)
    curve = result.curve(n)
    varying = [c for c in result.inputs if c != "n" and table[c].astype(str).nunique() > 1]
    ax = _axes(ax, (COLUMN_WIDTH, 2.6))
    exact = "n_stable" in table
    handles = []
    for i, row in enumerate(table.to_dict("records")):
        part = curve[curve["row"] == i]
        colour = OKABE_ITO[(i + 5) % len(OKABE_ITO)] if len(table) > 1 else _BLUE
        if exact:
            ax.step(part["n"], part[result.measure], where="mid", color=colour, linewidth=0.8)
        else:
            ax.plot(part["n"], part[result.measure], color=colour, linewidth=1.2)
        label = _curve_label(row, varying) if varying else result.measure
        handles.append(Line2D([], [], color=colour, linewidth=1.2, label=label))
        at = row.get("n", -1)
        if at is not None and at > 0:  # on the curve (an adjusted n may sit past the target)
            value = result.curve([int(at)])[result.measure].to_numpy()[i]
            ax.plot([at], [value], "o", color=colour, markersize=3.5, zorder=4)
        if exact and row["n_stable"] is not None and row["n_stable"] > 0 \
                and row["n_stable"] != at:
            ax.axvline(row["n_stable"], color=colour, linestyle=":", linewidth=0.9)
    if "target_power" in table:
        for target in table["target_power"].unique():
            ax.axhline(target, color="0.4", linestyle="--", linewidth=0.8)
        handles.append(Line2D([], [], color="0.4", linestyle="--", linewidth=0.8,
                              label="target power"))
    if exact:
        handles.append(Line2D([], [], color="0.3", linestyle=":", linewidth=0.9,
                              label="n_stable: power stays above target"))
    handles.append(Line2D([], [], marker="o", color="0.2", linestyle="", markersize=3.5,
                          label="planned n"))
    if "width" in table and result.measure == "width":
        for target in table["width"].unique():
            ax.axhline(target, color="0.4", linestyle="--", linewidth=0.8)
        handles.append(Line2D([], [], color="0.4", linestyle="--", linewidth=0.8,
                              label="target width"))
    if result.measure == "power":
        ax.set_ylim(0, 1.02)
    else:  # widths explode at the smallest n: show the range around the targets
        top = float(np.nanmax(curve[result.measure]))
        ax.set_ylim(0, min(top, 3 * float(np.nanmax(curve[result.measure].median()))) * 1.05)
    ax.set_xlim(float(np.min(n)), float(np.max(n)))
    units = "test cases" if "epsilon0" in table else "subjects"
    ax.set_xlabel(f"{units} (n)")
    ax.set_ylabel("power" if result.measure == "power" else "expected CI width")
    ax.set_title("\n".join(textwrap.wrap(result.title, 48)), fontsize=_TEXT_SIZE + 0.5)
    _finish(ax, None, legend=handles, ncols=1)
    return ax


@_styled
def method_comparison(
    result_or_x: Any,
    y: Any = None,
    *,
    method: str = "deming",
    units: str | None = None,
    names: Sequence[str] | None = None,
    ax: Axes | None = None,
) -> Axes:
    """Scatter plot of a method comparison: the identity line, the fitted regression line
    and (Deming) its pointwise confidence band, on equal axes.

    Parameters
    ----------
    result_or_x : MethodRegressionResult or array-like
        A result of :func:`irr.deming` or :func:`irr.passing_bablok`; or the comparison
        method's measurements, fitted with `method`.
    y : array-like, optional
        The test method's measurements (with array `result_or_x`).
    method : {'deming', 'passing_bablok'}, default 'deming'
        The fit drawn for arrays (the statistics' names of ``irr report --statistics``;
        other spellings such as ``'passing-bablok'`` are accepted).
    units : str, optional
        Measurement units, added to both axis labels ("lab (mmHg)").
    names : (str, str), optional
        The methods' names (default: the result's).
    ax : matplotlib Axes, optional

    Returns
    -------
    matplotlib.axes.Axes

    Examples
    --------
    >>> import matplotlib
    >>> matplotlib.use("Agg")
    >>> import irr
    >>> from irr.plotting import method_comparison
    >>> a = [7.2, 8.1, 9.5, 10.4, 12.0, 13.3, 14.9, 16.2]
    >>> b = [7.0, 8.4, 9.9, 10.2, 12.6, 13.9, 15.1, 17.0]
    >>> ax = method_comparison(irr.deming(a, b, names=("lab", "device")), units="mmol/L")
    >>> ax.get_xlabel(), ax.get_ylabel()
    ('lab (mmol/L)', 'device (mmol/L)')
    """
    from matplotlib.lines import Line2D
    from matplotlib.patches import Patch

    result = result_or_x
    if not isinstance(result, Result):
        fits = {"deming": method_regression.deming,
                "passing_bablok": method_regression.passing_bablok}
        method = resolve(method, fits, argument="method", what="regression")
        result = fits[method](result_or_x, y, names=names)
    elif y is not None:
        raise TypeError("Pass `y` only with array `result_or_x`, not with a result.")
    if not isinstance(result, method_regression.MethodRegressionResult):
        raise TypeError("`result_or_x` must be a result of irr.deming or irr.passing_bablok, "
                        f"or an array; got {type(result).__name__}.")
    x_name, y_name = (names if names is not None else (result.x_name, result.y_name))
    x, yv = np.asarray(result.x), np.asarray(result.y)
    ax = _axes(ax, (COLUMN_WIDTH, COLUMN_WIDTH + 0.6))
    low = float(min(x.min(), yv.min()))
    high = float(max(x.max(), yv.max()))
    pad = 0.05 * max(high - low, 1e-9)
    span = (low - pad, high + pad)
    grid = np.linspace(*span, 200)
    fit, band_low, band_high = result.band(grid)
    handles = []
    if np.isfinite(band_low).any():
        ax.fill_between(grid, band_low, band_high, color=_BLUE, alpha=0.18, linewidth=0,
                        zorder=1)
        level = f"{100 * result.ci.confidence_level:g}%"
        handles.append(Patch(color=_BLUE, alpha=0.18, label=f"{level} confidence band"))
    ax.plot(span, span, color="0.45", linestyle="--", linewidth=0.9, zorder=2)
    handles.insert(0, Line2D([], [], color="0.45", linestyle="--", linewidth=0.9,
                             label="identity y = x"))
    ax.scatter(x, yv, s=10, color="0.15", alpha=0.7, linewidths=0, zorder=3)
    ax.plot(grid, fit, color=_BLUE, linewidth=1.4, zorder=4)
    kind = "Deming" if result.method == "deming" else "Passing–Bablok"
    sign = MINUS if result.intercept < 0 else "+"
    handles.insert(1, Line2D([], [], color=_BLUE, linewidth=1.4,
                             label=f"{kind}: y = {format_number(result.slope, 3)} x "
                                   f"{sign} {format_number(abs(result.intercept), 3)}"))
    ax.set_xlim(*span)
    ax.set_ylim(*span)
    ax.set_aspect("equal", adjustable="box")
    suffix = f" ({units})" if units else ""
    ax.set_xlabel(f"{x_name}{suffix}")
    ax.set_ylabel(f"{y_name}{suffix}")
    ax.set_title(f"{kind} regression\n{y_name} on {x_name}, n = {result.n_subjects:,}")
    _finish(ax, legend=handles)
    return ax


def _frame_rows(data: pd.DataFrame) -> tuple[pd.DataFrame, str]:
    needed = ["estimate", "ci_low", "ci_high"]
    missing = [c for c in needed if c not in data.columns]
    if missing:
        raise ValueError(
            f"`data` must have columns {needed!r} (the output of irr.by); missing "
            f"{missing!r}."
        )
    # the group keys: the columns before irr.by's own (BY_COLUMNS); the columns after them
    # (statistic, pvalue, n_resamples, the pooled row's test, ...) name no group
    first = next(i for i, c in enumerate(data.columns) if c in BY_COLUMNS)
    keys = list(data.columns[:first])
    if keys:
        labels = data[keys].astype(str).agg(", ".join, axis=1)
    else:
        labels = pd.Series([str(i) for i in data.index], index=data.index)
    coefficient = (data["coefficient"].astype(object).where(data["coefficient"].notna(), "")
                   if "coefficient" in data.columns else pd.Series("", index=data.index))
    named = coefficient[coefficient != ""]
    if named.nunique() > 1:  # several coefficients in one frame: say which on each row
        labels = labels + " (" + coefficient.astype(str) + ")"
    bounds = data.attrs.get("bounds")
    values = data[needed].to_numpy(dtype=float)
    finite = values[np.isfinite(values)]
    bounded = (_is_bounded(bounds) if bounds is not None
               else bool(finite.size == 0 or finite.max() <= 1.0))

    def column(name: str) -> Any:
        return data[name].to_numpy() if name in data.columns else [None] * len(data)

    rows = pd.DataFrame({
        "label": labels.to_numpy(dtype=object),
        "coefficient": coefficient.to_numpy(dtype=object),
        "estimate": values[:, 0],
        "ci_low": values[:, 1],
        "ci_high": values[:, 2],
        "n": column("n_subjects"),
        "level": column("confidence_level"),
        "reason": column("reason"),
        "scale": [data.attrs.get("scale")] * len(data),
        "bounded": [bounded] * len(data),
    })
    return rows, ", ".join(str(k) for k in keys)


def _result_rows(data: Any) -> pd.DataFrame:
    if isinstance(data, Result):
        data = [data]
    if not isinstance(data, Sequence) or isinstance(data, str) or not data:
        raise TypeError(
            "`data` must be the DataFrame of irr.by or a non-empty list of results; got "
            f"{type(data).__name__}."
        )
    bad = [type(r).__name__ for r in data if not isinstance(r, Result)]
    if bad:
        raise TypeError(f"`data` must hold irr results; got {bad!r}.")
    names = [r.coefficient for r in data]
    return pd.DataFrame({
        "label": [
            f"{r.coefficient} ({', '.join(r.raters)})" if names.count(r.coefficient) > 1
            else r.coefficient
            for r in data
        ],
        "coefficient": names,
        "estimate": [float(r.estimate) for r in data],
        "ci_low": [float(r.ci.low) for r in data],
        "ci_high": [float(r.ci.high) for r in data],
        "n": [r.n_subjects for r in data],
        "level": [r.ci.confidence_level for r in data],
        "reason": [None if math.isfinite(r.estimate) else "undefined" for r in data],
        "scale": [r.scale for r in data],
        "bounded": [_is_bounded(r.bounds) for r in data],
    })


def _forest_rows(data: Any) -> tuple[pd.DataFrame, str]:
    """Per row: label, coefficient, estimate, ci_low, ci_high, n, level, reason, scale and
    bounded (APA number style), from irr.by output or results; and the group key names."""
    if isinstance(data, pd.DataFrame):
        return _frame_rows(data)
    return _result_rows(data), ""


def _own_scale(rows: pd.DataFrame | dict[str, list[Any]]) -> Any:
    """The one scale all rows belong to; None when they differ or have none."""
    scales = set(rows["scale"])
    return scales.pop() if len(scales) == 1 else None


def _row_text(row: Any) -> str:
    est, lo, hi, bounded = row.estimate, row.ci_low, row.ci_high, bool(row.bounded)
    if not math.isfinite(est):
        return "not estimable"
    if math.isfinite(lo) and math.isfinite(hi):
        return f"{_number(est, bounded)} [{_number(lo, bounded)}, {_number(hi, bounded)}]"
    return f"{_number(est, bounded)} (no interval)"


def _count_text(n: Any) -> str:
    if n is None or (isinstance(n, float) and not math.isfinite(n)):
        return ""
    return f"{int(n):,}"


@_styled
def forest(
    data: pd.DataFrame | Sequence[Result],
    *,
    scale: Any = "auto",
    reference: float | str | None = "auto",
    ax: Axes | None = None,
) -> Axes:
    """Forest plot: one estimate and interval per row, e.g. one kappa per site.

    Rows are labelled by coefficient (results) or by group (the output of
    :func:`irr.by`); a column at the right gives each row's subjects n and
    "estimate [low, high]" (two decimals; APA style, without the leading zero, for
    coefficients bounded by 1); the x-axis is named after the coefficient when all rows
    share it.

    Parameters
    ----------
    data : DataFrame or sequence of Result
        The output of :func:`irr.by` (labels from the group key columns) or results
        (labelled by coefficient). Rows without an estimate read "not estimable". The
        pooled row of ``irr.by(..., test=True)`` is drawn as a diamond.
    scale : 'auto', str, Scale or None, default 'auto'
        Benchmark bands shaded behind the intervals and named along the top. 'auto': the
        scale that belongs to the statistic (each result's own ``scale``: Landis & Koch
        for kappas, Koo & Li for the ICC; for :func:`irr.by` output the scale of its
        statistic), and none when the rows' scales differ or the statistic has none
        (Kendall's W, percent agreement). None: no bands.
    reference : float, 'auto' or None, default 'auto'
        A vertical reference line. 'auto': the value the results were tested against
        when they share one (``null=``, e.g. 0.6), else 0 (no agreement beyond chance).
        None: no line.
    ax : matplotlib Axes, optional

    Returns
    -------
    matplotlib.axes.Axes

    Examples
    --------
    >>> import matplotlib
    >>> matplotlib.use("Agg")
    >>> import irr
    >>> from irr.plotting import forest
    >>> df = irr.datasets.load("anxiety").assign(site=["a", "b"] * 10)
    >>> ax = forest(irr.by(df, "site", raters=["rater1", "rater2"]))
    >>> [t.get_text() for t in ax.get_yticklabels()], ax.get_xlabel(), ax.get_ylabel()
    (['a', 'b'], "Cohen's kappa", 'site')
    >>> [t.get_text() for t in ax.texts]  # doctest: +NORMALIZE_WHITESPACE
    ['n', 'Estimate [95% CI]', '10', '.35 [.01, .69]', '10', '−.12 [−.38, .13]']

    With ``irr.by(..., test=True)`` the pooled estimate is the last row, a diamond:

    >>> ax = forest(irr.by(df, "site", raters=["rater1", "rater2"], test=True))
    >>> [t.get_text() for t in ax.get_yticklabels()]
    ['a', 'b', 'Pooled']
    """
    rows, group = _forest_rows(data)
    if isinstance(reference, str):
        check_choice(reference, "reference", ("auto",))
        nulls = {getattr(r, "null_value", 0.0) for r in data} if not isinstance(
            data, pd.DataFrame) else {0.0}
        reference = nulls.pop() if len(nulls) == 1 else 0.0
    n = len(rows)
    if isinstance(scale, str) and scale == "auto":
        scale = _own_scale(rows)
    texts = [_row_text(row) for row in rows.itertuples()]
    counts = [_count_text(v) for v in rows["n"]]
    levels = {float(v) for v in rows["level"] if v is not None and v == v}
    header = (f"Estimate [{100 * levels.pop():g}% CI]" if len(levels) == 1
              else "Estimate [CI]")
    labels = [_short(label, 2 * _LABEL_CHARS) for label in rows["label"]]
    char = 0.6 * _TEXT_SIZE / 72  # an average character's width, in inches
    column = char * (max(len(t) for t in [header, *texts]) + max(len(c) for c in counts) + 4)
    width = min(max(COLUMN_WIDTH, char * max(len(s) for s in labels) + column + 2.2), 7.2)
    ax = _axes(ax, (width, 1.0 + 0.26 * (n + 1) + (0.45 if scale is not None else 0.0)))
    y = np.arange(n)[::-1].astype(float)
    values = rows[["estimate", "ci_low", "ci_high"]].to_numpy(dtype=float)
    ok = np.isfinite(values[:, 0])
    finite = values[np.isfinite(values)]
    low = min(finite.min() if finite.size else 0.0, reference if reference is not None else 0.0)
    high = max(finite.max() if finite.size else 1.0, reference if reference is not None else 0.0)
    pad = 0.08 * max(high - low, 0.1)
    span = (low - pad, high + pad)
    top = _shade_bands(ax, scale, *span) if scale is not None else None
    if reference is not None:
        ax.axvline(reference, color="0.3", linewidth=0.8, linestyle=":", zorder=1)
    est = values[:, 0]
    lower = np.where(np.isfinite(values[:, 1]), est - values[:, 1], 0.0)
    upper = np.where(np.isfinite(values[:, 2]), values[:, 2] - est, 0.0)
    # the pooled row of irr.by(..., test=True): a diamond spanning its interval
    pooled = np.zeros(n, dtype=bool)
    if isinstance(data, pd.DataFrame) and data.attrs.get("overall_row") and n:
        pooled[-1] = True
        labels[-1] = "Pooled"
    square = ok & ~pooled
    ax.errorbar(est[square], y[square], xerr=[lower[square], upper[square]], fmt="s",
                color="black", ecolor="black", elinewidth=1.0, capsize=2.5, markersize=4,
                zorder=3)
    for i in np.flatnonzero(ok & pooled):
        lo, hi = est[i] - lower[i], est[i] + upper[i]
        ax.fill([lo, est[i], hi, est[i]], [y[i], y[i] + 0.3, y[i], y[i] - 0.3],
                color="black", zorder=3)
        ax.axhline(y[i] + 0.5, color="0.6", linewidth=0.6, zorder=1)
    # the text column: n right-aligned, then "estimate [low, high]" left-aligned
    n_end = 6 + 72 * char * max(len(c) for c in [*counts, "n"])
    place = {"xycoords": ("axes fraction", "data"), "textcoords": "offset points",
             "va": "center", "annotation_clip": False}
    ax.annotate("n", (1, n), xytext=(n_end, 0), ha="right", fontweight="bold", **place)
    ax.annotate(header, (1, n), xytext=(n_end + 10, 0), ha="left", fontweight="bold",
                **place)
    for yi, count, text in zip(y, counts, texts, strict=True):
        ax.annotate(count, (1, yi), xytext=(n_end, 0), ha="right", **place)
        ax.annotate(text, (1, yi), xytext=(n_end + 10, 0), ha="left", **place)
    ax.set_yticks(y, labels)
    ax.tick_params(axis="y", length=0)
    ax.set_ylim(-0.6, n + 0.5)
    ax.set_xlim(*span)
    coefficients = {c for c in rows["coefficient"] if c}
    label = coefficients.pop() if len(coefficients) == 1 else "Estimate"
    test = data.attrs.get("homogeneity") if isinstance(data, pd.DataFrame) else None
    if pooled.any() and test and math.isfinite(test.get("statistic", math.nan)):
        # the test of equal coefficients belongs with the pooled row it qualifies
        label += (f"\nTest of equal coefficients: \u03c7\u00b2({test['df']:g}) = "
                  f"{format_number(test['statistic'], 2)}, {format_pvalue(test['pvalue'])}")
    ax.set_xlabel(label)
    ax.set_ylabel(group)
    _finish(ax, top)
    return ax


@_styled
def bland_altman(
    result_or_x: Any,
    y: Any = None,
    ax: Axes | None = None,
    *,
    units: str | None = None,
    bands: bool = True,
    **options: Any,
) -> Axes:
    """Bland-Altman plot: the differences of two methods against their means, with the
    bias, the limits of agreement and their confidence intervals (shaded bands).

    Parameters
    ----------
    result_or_x : LimitsOfAgreementResult, Agreement or array-like
        A result of :func:`irr.limits_of_agreement` (or an estimator of limits), an
        :class:`irr.Agreement` (its :meth:`~irr.Agreement.limits_of_agreement` with
        `options`, such as ``first``, ``second``, ``units``), or the first method's
        measurements (with `y`).
    y : array-like, optional
        The second method's measurements, when `result_or_x` is the first's.
    ax : matplotlib Axes, optional
    units : str, optional
        The units for the axis labels (default: the result's ``units``).
    bands : bool, default True
        Shade the confidence intervals of the bias and the limits.
    **options
        With arrays: passed to :func:`irr.limits_of_agreement` (``names``, ``scale``,
        ``method``, ``multiplier`` ...).

    Returns
    -------
    matplotlib.axes.Axes

    Notes
    -----
    The bias line is solid black, the limits dashed vermillion, their intervals shaded
    in light tones of the same colours. Regression-based limits
    (``method='regression'``) are drawn as lines over the range of the means, without
    bands. Ratios (``scale='ratio'``) are plotted on a log axis.

    Examples
    --------
    >>> import matplotlib
    >>> matplotlib.use("Agg")
    >>> import irr
    >>> from irr.plotting import bland_altman
    >>> df = irr.datasets.load("pef")
    >>> ax = bland_altman(df["wright_1"], df["mini_1"], names=["Wright", "mini Wright"],
    ...                   units="l/min")
    >>> ax.get_xlabel(), ax.get_ylabel()
    ('Mean of Wright and mini Wright (l/min)', 'Wright − mini Wright (l/min)')
    >>> ag = irr.Agreement.from_frame(df, raters=["wright_1", "mini_1"])
    >>> bland_altman(ag, units="l/min").get_ylabel()
    'wright_1 − mini_1 (l/min)'
    """
    bands = check_bool(bands, "bands")
    if isinstance(result_or_x, LimitsOfAgreementResult):
        if y is not None or options:
            raise TypeError("Pass `y` and options only with arrays, not with a result.")
        res = result_or_x
    elif isinstance(result_or_x, Agreement):
        if y is not None:
            raise TypeError("Pass `y` only with arrays, not with an Agreement.")
        res = result_or_x.limits_of_agreement(**options)
    else:
        if y is None:
            raise TypeError("`y` is required when `result_or_x` is not a "
                            "LimitsOfAgreementResult or an Agreement.")
        res = limits_of_agreement(result_or_x, y, **options)
    unit = res.units if units is None else units
    ratio = res.measure == "ratio"
    a = np.asarray(res.means, dtype=float)
    d = np.exp(res.differences) if ratio else np.asarray(res.differences, dtype=float)
    ax = _axes(ax, (COLUMN_WIDTH, 2.8))
    black, vermillion, blue = OKABE_ITO[0], _VERMILLION, _BLUE
    points = ax.scatter(a, d, s=12, color=blue, alpha=0.8, linewidths=0, zorder=3)
    # replicates: the points are subjects' means (true value constant) or the readings
    # made in pairs (varying); the limits are those of single readings either way
    means = res.design == "constant"
    single = "" if res.design == "single" else " (single readings)"
    span = np.array([a.min(), a.max()]) if a.size else np.array([0.0, 1.0])
    pad = 0.04 * max(float(np.ptp(span)), 1e-12)
    ax.set_xlim(span[0] - pad, span[1] + pad)
    right = span[1] + pad
    level = f"{100 * res.ci.confidence_level:g}%"
    pct = f"{100 * res.coverage:g}%"
    handles = []
    if res.method == "regression":
        grid = np.linspace(span[0], span[1], 100)
        lower, bias, upper = res.limits_at(grid)
        handles.append(ax.plot(grid, bias, color=black, linewidth=1.0,
                               label="Bias (regression)")[0])
        ax.plot(grid, lower, color=vermillion, linestyle="--", linewidth=1.0)
        handles.append(ax.plot(grid, upper, color=vermillion, linestyle="--", linewidth=1.0,
                               label=f"{pct} limits (regression"
                               f"{', single readings' if single else ''})")[0])
    else:
        # the values at the right margin: three significant digits of the SD (as the
        # report sentence), so a bias of 0.054 g/dL is not shown as 0.1
        spread = float(np.std(d, ddof=1)) if d.size > 1 else 0.0
        digits = 3 if ratio else max(1, 2 - math.floor(math.log10(spread))) \
            if math.isfinite(spread) and spread > 0 else 1
        for value, interval, color, style, label in (
                (res.estimate, res.ci, black, "-",
                 "Median" if res.method == "nonparametric"
                 else "Geometric mean ratio" if ratio else "Bias"),
                (res.lower, res.lower_ci, vermillion, "--",
                 f"{pct} limits{single}" if single else f"{pct} limits of agreement"),
                (res.upper, res.upper_ci, vermillion, "--", None)):
            if not math.isfinite(value):
                continue
            line = ax.axhline(value, color=color, linestyle=style, linewidth=1.0, zorder=2)
            if label:
                line.set_label(label)
                handles.append(line)
            if bands and math.isfinite(interval.low) and math.isfinite(interval.high):
                ax.axhspan(interval.low, interval.high, color=color,
                           alpha=0.10 if color == black else 0.15, linewidth=0, zorder=1)
            ax.annotate(format_number(value, digits),
                        (right, value),
                        xytext=(2, 0), textcoords="offset points", va="center", ha="left",
                        fontsize=_TEXT_SIZE - 1, color=color, annotation_clip=False)
        if bands:
            from matplotlib.patches import Patch

            handles.append(Patch(color=vermillion, alpha=0.15, linewidth=0,
                                 label=f"{level} CIs"))
    ax.axhline(1.0 if ratio else 0.0, color="0.6", linewidth=0.6, linestyle=":", zorder=0)
    if ratio:
        from matplotlib.ticker import FuncFormatter

        ax.set_yscale("log")
        plain = FuncFormatter(lambda v, _: format_significant(v, 3))
        ax.yaxis.set_major_formatter(plain)
        ax.yaxis.set_minor_formatter(plain)
    first, second = res.raters
    suffix = f" ({unit})" if unit else ""
    if means:  # each method's mean of its readings of a subject
        points.set_label(f"Subject means ({len(d):,})")
        handles.insert(0, points)
    elif res.design != "single":
        points.set_label(f"Readings made in pairs ({len(d):,})")
        handles.insert(0, points)
    ax.set_xlabel(f"Mean of {first} and {second}{suffix}")
    if ratio:
        ax.set_ylabel(f"{first} / {second}")
    elif res.measure == "percent":
        ax.set_ylabel(f"{first} \u2212 {second} (% of mean)")
    else:
        ax.set_ylabel(f"{first} \u2212 {second}{suffix}")
    width = sum(len(h.get_label()) for h in handles)
    _finish(ax, legend=handles, ncols=min(len(handles), 3 if width <= 45 else 2))
    return ax


_ID = re.compile(r'\bid="([^"]+)"')
_PREFIX = re.compile(r"[A-Za-z][A-Za-z0-9_.-]*\Z")


def _freeze_layout(figure: Figure) -> None:
    """Lay the figure out once more and switch its layout engine off: constrained layout
    moves the axes a little on every draw, so without this each render would differ."""
    from matplotlib.layout_engine import PlaceHolderLayoutEngine

    engine = figure.get_layout_engine()
    if engine is not None and not isinstance(engine, PlaceHolderLayoutEngine):
        figure.draw_without_rendering()
        figure.set_layout_engine("none")


def to_svg(figure: Figure | Axes, *, id_prefix: str = "") -> str:
    """The figure as SVG text, the same bytes on every run.

    The date is left out of the metadata, the ids matplotlib derives from hashes use a
    fixed salt and text is drawn as glyph paths (no font needed to view it), so a report
    embedding the SVG is reproducible and self-contained. A figure with a layout engine
    (every figure of this module: constrained layout) is laid out one last time and its
    engine switched off, so that later renders of it keep the same positions.

    Parameters
    ----------
    figure : matplotlib Figure or Axes
        An Axes stands for the whole figure it is drawn in.
    id_prefix : str, default ''
        Put in front of every ``id`` (and every reference to one), so that several SVGs
        inlined in one HTML page have distinct ids. A letter, then letters, digits,
        ``_``, ``.`` or ``-``.

    Returns
    -------
    str
        A complete SVG document (XML declaration and doctype included).

    Examples
    --------
    >>> import matplotlib
    >>> matplotlib.use("Agg")
    >>> import irr
    >>> from irr.plotting import agreement_chart, to_svg
    >>> ax = agreement_chart(irr.Agreement.from_frame(irr.datasets.load("vision")))
    >>> svg = to_svg(ax)
    >>> svg == to_svg(ax.figure), svg.splitlines()[3][:4]
    (True, '<svg')
    """
    from matplotlib.axes import Axes
    from matplotlib.figure import Figure, SubFigure

    if not isinstance(figure, (Figure, SubFigure, Axes)):
        raise TypeError(
            f"`figure` must be a matplotlib Figure or Axes; got {type(figure).__name__}."
        )
    if not isinstance(id_prefix, str) or (id_prefix and not _PREFIX.match(id_prefix)):
        raise ValueError(
            "`id_prefix` must be empty or a letter followed by letters, digits, '_', '.' "
            f"or '-'; got {id_prefix!r}."
        )
    root = _root_figure(figure)
    _freeze_layout(root)
    buffer = io.StringIO()
    with _pyplot().rc_context({"svg.hashsalt": "irr", "svg.fonttype": "path",
                               "svg.image_inline": True}):
        root.savefig(buffer, format="svg", metadata={"Date": None})
    svg = buffer.getvalue()
    if id_prefix:
        ids = set(_ID.findall(svg))

        def rename(match: re.Match[str]) -> str:
            name = match.group(2)
            return match.group(1) + (id_prefix + name if name in ids else name)

        svg = re.sub(r'(\bid="|xlink:href="#|url\(#)([^")]+)', rename, svg)
    return svg


def _close(figure: Figure) -> None:
    _pyplot().close(figure)


def _draw(draw: Callable[[], Any], prefix: str) -> str:
    """SVG text of the figure `draw` makes, which is then closed."""
    ax = draw()
    figure = _root_figure(ax if not isinstance(ax, np.ndarray) else ax.flat[0])
    try:
        return to_svg(figure, id_prefix=prefix)
    finally:
        _close(figure)


def _raters(ag: Agreement) -> tuple[str, str]:
    table = ag.table
    return str(table.index.name), str(table.columns.name)


def _table_figure(ag: Agreement) -> tuple[str, Callable[[], Any]] | None:
    """Caption and drawing of the agreement chart (two raters, at most
    ANNOTATE_CATEGORIES categories, someone rated by both) or of the table heatmap (two
    raters with more categorical labels); None when neither fits."""
    if ag.n_raters != 2 or ag.facts.continuous:
        return None
    k = len(ag.categories)
    if k > MAX_PLOT_CATEGORIES or ag.table.to_numpy().sum() == 0:
        return None
    first, second = _raters(ag)
    n = int(ag.table.to_numpy().sum())
    if k <= ANNOTATE_CATEGORIES:
        partial = (" Grey areas add partial agreement, ratings one category apart on the "
                   "ordered scale." if ag.facts.ordered else "")
        caption = (
            f"Agreement chart (Bangdiwala, 1985) of {first} (rows) and {second} (columns) "
            f"for the {n:,} subjects both rated. Each rectangle's width and height are the "
            "two raters' counts in one category; the black square inside it shows the "
            f"subjects on which they agreed exactly.{partial} Rectangles off the dashed "
            "diagonal show that the raters used the categories with different frequencies."
        )
        return caption, lambda: agreement_chart(ag)
    caption = (
        f"Agreement table of {first} (rows) and {second} (columns) for the {n:,} subjects "
        f"both rated, as a heatmap of counts over {k:,} categories; agreement lies on the "
        "diagonal."
    )
    return caption, lambda: table_heatmap(ag)


def _forest_caption(rows: pd.DataFrame | dict[str, list[Any]], group: str, scale: Any) -> str:
    levels = {float(v) for v in rows["level"] if v is not None and v == v}
    level = f"{100 * levels.pop():g}% " if len(levels) == 1 else ""
    coefficients = sorted({c for c in rows["coefficient"] if c})
    what = ("each coefficient" if len(coefficients) > 1
            else coefficients[0] if coefficients else "the coefficient")
    if group:
        what += f" by {group}"
    text = (f"Estimates of {what}, with their {level}confidence intervals; the column at "
            "the right gives the subjects used (n) and the estimate with its interval.")
    if scale is not None:
        resolved = get_scale(scale)
        citation = resolved.short_citation or resolved.name
        text += (f" Shaded bands show the benchmark scale ({citation}), named along the "
                 "top.")
    if not np.isfinite(np.asarray(rows["estimate"], dtype=float)).all():
        text += " Rows marked \"not estimable\" have no defined estimate."
    return text


def _bland_altman_figure(results: Sequence[Result]) -> tuple[str, Callable[[], Any]] | None:
    """The Bland-Altman plot of the first limits of agreement among `results`."""
    loa = next((r for r in results if isinstance(r, LimitsOfAgreementResult)), None)
    if loa is None:
        return None
    single = "" if loa.design == "single" else " of single readings"
    lines = (f"the bias and the {100 * loa.coverage:g}% limits of agreement{single} "
             "modelled on the mean (Bland & Altman, 1999)" if loa.method == "regression" else
             f"the bias (solid line) and the {100 * loa.coverage:g}% limits of "
             f"agreement{single} (dashed), their {100 * loa.ci.confidence_level:g}% "
             "confidence intervals shaded")
    if loa.design == "constant":
        points = (f"the differences {loa.difference} of the {loa.n_subjects:,} subjects' "
                  "means (each method's mean of its readings of a subject) against the mean "
                  "of the two means")
        after = (". The limits are those of the difference of one reading by each method "
                 "(Bland & Altman, 1999, 2007): they add the within-subject variation of "
                 "single readings, so they are wider than the spread of the means plotted.")
    elif loa.design == "varying":
        points = (f"the differences {loa.difference} of the {len(loa.differences):,} "
                  f"readings made in pairs against the pairs' means, for the "
                  f"{loa.n_subjects:,} subjects both measured")
        after = " (Bland & Altman, 2007)."
    else:
        points = (f"the differences {loa.difference} against the means of the two methods "
                  f"for the {loa.n_subjects:,} subjects both measured")
        after = "."
    caption = f"Bland-Altman plot: {points}, with {lines}{after}"
    return caption, lambda: bland_altman(loa)


def _forest_figure(data: Any) -> tuple[str, Callable[[], Any]]:
    if isinstance(data, pd.DataFrame):
        rows, group = _forest_rows(data)
    else:  # results (checked by report_figure_plan): the columns the caption reads, as
        # lists (a DataFrame of them costs more than a small report's coefficients)
        rows, group = {"coefficient": [r.coefficient for r in data],
                       "estimate": [float(r.estimate) for r in data],
                       "level": [r.ci.confidence_level for r in data],
                       "scale": [r.scale for r in data]}, ""
    return _forest_caption(rows, group, _own_scale(rows)), lambda: forest(data)


#: The most bootstrap distributions :func:`report_figures` draws (one panel each).
MAX_BOOTSTRAP_PANELS = 4


@_styled
def _bootstrap_panels(results: Sequence[Result]) -> Any:
    plt = _pyplot()
    _, axes = plt.subplots(len(results), 1, figsize=(COLUMN_WIDTH, 3.1 * len(results)),
                           layout="constrained", squeeze=False)
    for result, ax in zip(results, axes[:, 0], strict=True):
        ax.tick_params(labelsize=_TEXT_SIZE)
        bootstrap_distribution(result, ax=ax)
    return axes


def _bootstrap_figure(results: Sequence[Result]) -> tuple[str, Callable[[], Any]] | None:
    drawn = [r for r in results if math.isfinite(r.n_resamples)][:MAX_BOOTSTRAP_PANELS]
    if not drawn:
        return None
    names = [r.coefficient for r in drawn]
    listed = names[0] if len(names) == 1 else ", ".join(names[:-1]) + " and " + names[-1]
    methods = sorted({r.ci.method_name for r in drawn})
    counts = {r.bootstrap.n_resamples for r in drawn}
    resamples = f"{counts.pop():,} resamples" if len(counts) == 1 else "resamples"
    interval = (f"the {methods[0]} confidence interval reported (dashed lines)"
                if len(methods) == 1 else
                "the confidence interval reported (dashed lines; each legend names its "
                "method)")
    caption = (
        f"Bootstrap distribution{'s' if len(drawn) > 1 else ''} of {listed}: "
        f"{'histograms' if len(drawn) > 1 else 'a histogram'} of the estimates on "
        f"{resamples} of the data, with the estimate (solid line) and {interval}."
    )
    return caption, lambda: _bootstrap_panels(drawn)


def report_figures(
    ag: Agreement,
    results: Sequence[Result],
    *,
    by_frame: pd.DataFrame | None = None,
) -> list[tuple[str, str]]:
    """The figures of a reliability report, as (caption, SVG text) pairs.

    In order: the agreement chart of two raters (at most :data:`ANNOTATE_CATEGORIES`
    categories; the table heatmap for more categorical labels; nothing for continuous
    scores or more than two raters), a forest plot of `results`, a forest plot by group
    when `by_frame` is given, and the bootstrap distributions of the results whose
    bootstrap was drawn (a bootstrap interval; at most :data:`MAX_BOOTSTRAP_PANELS`, in
    one figure). Figures that do not apply are left out, never an error; each SVG is
    reproducible (:func:`to_svg`) with ids prefixed ``irr-fig1-``, ``irr-fig2-``, ...

    Parameters
    ----------
    ag : Agreement
        The data.
    results : sequence of Result
        The coefficients reported (may be empty).
    by_frame : DataFrame, optional
        The output of :func:`irr.by`.

    Returns
    -------
    list of (str, str)
        Caption (full sentences) and SVG document of each figure.

    Examples
    --------
    >>> import matplotlib
    >>> matplotlib.use("Agg")
    >>> import irr
    >>> from irr.plotting import report_figures
    >>> ag = irr.Agreement.from_frame(irr.datasets.load("vision"))
    >>> figures = report_figures(ag, [ag.kappa(), ag.kappa("quadratic", ci="bca", n_resamples=999)])
    >>> [caption.split(",")[0].split(" (")[0] for caption, _ in figures]
    ['Agreement chart', 'Estimates of each coefficient', 'Bootstrap distribution of Weighted kappa']
    """
    return [(caption, svg()) for caption, svg in
            report_figure_plan(ag, results, by_frame=by_frame)]


def report_figure_plan(
    ag: Agreement,
    results: Sequence[Result],
    *,
    by_frame: pd.DataFrame | None = None,
) -> list[tuple[str, Callable[[], str]]]:
    """The figures of :func:`report_figures` as (caption, function drawing the SVG text)
    pairs: the captions without drawing (a report draws a figure when it is shown).

    Examples
    --------
    >>> import irr
    >>> from irr.plotting import report_figure_plan, report_figures
    >>> ag = irr.Agreement.from_frame(irr.datasets.load("vision"))
    >>> plan = report_figure_plan(ag, [ag.kappa()])
    >>> [caption for caption, _ in plan] == [c for c, _ in report_figures(ag, [ag.kappa()])]
    True
    """
    if not isinstance(ag, Agreement):
        raise TypeError(f"`ag` must be an irr.Agreement; got {type(ag).__name__}.")
    if isinstance(results, Result):
        results = [results]
    if not isinstance(results, Sequence) or isinstance(results, str):
        raise TypeError(f"`results` must be a list of irr results; got {type(results).__name__}.")
    bad = [type(r).__name__ for r in results if not isinstance(r, Result)]
    if bad:
        raise TypeError(f"`results` must hold irr results; got {bad!r}.")
    if by_frame is not None and not isinstance(by_frame, pd.DataFrame):
        raise TypeError(
            f"`by_frame` must be the DataFrame of irr.by; got {type(by_frame).__name__}."
        )
    # coefficients (bounded by 1) share a forest plot; quantities in the data's units
    # (a bias, an SEM) would stretch its axis, and the limits of agreement get their own
    # Bland-Altman plot
    coefficients = [r for r in results if _is_bounded(r.bounds)]
    planned = [
        _table_figure(ag),
        _bland_altman_figure(results),
        _forest_figure(coefficients) if coefficients else None,
        _forest_figure(by_frame) if by_frame is not None and len(by_frame) else None,
        _bootstrap_figure(results),
    ]
    figures = [p for p in planned if p is not None]
    return [(caption, functools.partial(_draw, draw, f"irr-fig{i}-"))
            for i, (caption, draw) in enumerate(figures, start=1)]
