"""Plots of agreement: Bangdiwala's agreement chart, table heatmap, bootstrap distribution, forest.

matplotlib is an optional dependency (``pip install "irrstats[plot]"``), imported when a
function is called. Every function draws on `ax` (default: a new figure's axes) and returns
the matplotlib ``Axes``.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

import numpy as np
import pandas as pd

from irr.agreement import Agreement
from irr.bands import get_scale
from irr.inference.options import BOOTSTRAP_METHODS
from irr.pandas import BY_COLUMNS
from irr.results import Result

if TYPE_CHECKING:
    from matplotlib.axes import Axes

__all__ = [
    "ANNOTATE_CATEGORIES",
    "MAX_PLOT_CATEGORIES",
    "agreement_chart",
    "bootstrap_distribution",
    "forest",
    "table_heatmap",
]

#: Tables of at most this many categories get per-cell counts, outlined diagonal cells and
#: a tick per category; larger ones are drawn as an image with about 20 ticks.
ANNOTATE_CATEGORIES = 30
#: The most categories the table plots draw (a 2,000 x 2,000 image); beyond it they raise
#: (aggregate the categories first, e.g. round the scores).
MAX_PLOT_CATEGORIES = 2_000


def _pyplot() -> Any:
    try:
        import matplotlib.pyplot as plt
    except ImportError:  # pragma: no cover - depends on the environment
        raise ImportError(
            "irr.plotting needs matplotlib: pip install 'irrstats[plot]'."
        ) from None
    return plt


def _axes(ax: Axes | None, size: tuple[float, float]) -> Axes:
    if ax is not None:
        return ax
    _, ax = _pyplot().subplots(figsize=size)
    return ax


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
    ax.set_xticks(np.asarray(xticks)[keep], [str(table.columns[i]) for i in keep])
    ax.set_yticks(np.asarray(yticks)[keep], [str(table.index[i]) for i in keep])
    ax.set_xlabel(str(table.columns.name))
    ax.set_ylabel(str(table.index.name))


def agreement_chart(
    ag: Agreement,
    *,
    partial: int | None = None,
    ax: Axes | None = None,
    color: str = "0.15",
    partial_color: str = "0.7",
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

    Returns
    -------
    matplotlib.axes.Axes
        The title gives Bangdiwala's B (sum of squared agreements over the sum of the
        products of the margins) and, with partial agreement, the weighted B.

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
    Agreement chart
    B = 0.511; with 1-step partial agreement 0.887
    """
    from matplotlib.patches import Rectangle

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
    ax = _axes(ax, (5.5, 5.5))
    ax.add_patch(Rectangle((0, 0), n, n, fill=False, edgecolor="black", linewidth=1.2))
    for i in range(k):
        ax.add_patch(Rectangle((x0[i], y0[i]), cols[i], rows[i], facecolor="white",
                               edgecolor="black", linewidth=0.8))
        if step:
            lo, hi = max(0, i - step), min(k, i + step + 1)
            # the column i (second rater said i) is split by the first rater's ratings j;
            # the row i by the second rater's ratings j.
            x = x0[i] + counts[:lo, i].sum()
            y = y0[i] + counts[i, :lo].sum()
            ax.add_patch(Rectangle((x, y), counts[lo:hi, i].sum(), counts[i, lo:hi].sum(),
                                   facecolor=partial_color, edgecolor="none"))
        x = x0[i] + counts[:i, i].sum()
        y = y0[i] + counts[i, :i].sum()
        ax.add_patch(Rectangle((x, y), counts[i, i], counts[i, i], facecolor=color,
                               edgecolor="none"))
    ax.plot([0, n], [0, n], color="0.4", linestyle="--", linewidth=0.8)
    ax.set_xlim(0, n)
    ax.set_ylim(0, n)
    ax.set_aspect("equal")
    _label_table_axes(ax, table, x0 + cols / 2, y0 + rows / 2)
    products = float(np.sum(rows * cols))
    title = "Agreement chart"
    if products > 0:
        title += f"\nB = {np.sum(np.diag(counts) ** 2) / products:.3f}"
        if step:
            near = np.abs(np.subtract.outer(np.arange(k), np.arange(k))) <= step
            row_part = np.array([(counts[i] * near[i]).sum() for i in range(k)])
            col_part = np.array([(counts[:, i] * near[:, i]).sum() for i in range(k)])
            weighted = float(np.sum(row_part * col_part) / products)
            title += f"; with {step}-step partial agreement {weighted:.3f}"
    ax.set_title(title)
    return ax


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
    from matplotlib.patches import Rectangle

    table = _table(ag, "table_heatmap")
    values = table.to_numpy(dtype=float)
    if normalize:
        values = values / values.sum()
    k = values.shape[0]
    side = 0.8 * min(k, ANNOTATE_CATEGORIES // 2)
    ax = _axes(ax, (1.2 + side, 0.8 + side))
    image = ax.imshow(values, cmap=cmap, origin="upper", interpolation="nearest")
    top = values.max() if values.size else 0.0
    for i in range(k if k <= ANNOTATE_CATEGORIES else 0):
        for j in range(k):
            text = f"{values[i, j]:.1%}" if normalize else f"{int(values[i, j])}"
            dark = top > 0 and values[i, j] > 0.6 * top
            ax.text(j, i, text, ha="center", va="center",
                    color="white" if dark else "black", fontsize=9)
        ax.add_patch(Rectangle((i - 0.5, i - 0.5), 1, 1, fill=False, edgecolor="0.2",
                               linewidth=1.0))
    _label_table_axes(ax, table, range(k), range(k))
    ax.set_title("Agreement table" + (" (proportions)" if normalize else ""))
    if colorbar:
        ax.figure.colorbar(image, ax=ax, fraction=0.046, pad=0.04)
    return ax


def _band_colors(n: int) -> list[Any]:
    plt = _pyplot()
    cmap = plt.get_cmap("RdYlGn")
    return [cmap(0.15 + 0.7 * i / max(n - 1, 1)) for i in range(n)]


def _shade_bands(ax: Axes, scale: Any, low: float, high: float) -> None:
    """Shade the bands of `scale` that meet [low, high], labelled along the top."""

    resolved = get_scale(scale)
    colors = _band_colors(len(resolved.bands))
    for band, band_color in zip(resolved.bands, colors, strict=True):
        left, right = max(band.lower, low), min(band.upper, high)
        if right <= left:
            continue
        ax.axvspan(left, right, color=band_color, alpha=0.15, linewidth=0)
        ax.text((left + right) / 2, 0.98, band.label, transform=ax.get_xaxis_transform(),
                ha="center", va="top", fontsize=7, color="0.3")


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
        else 'percentile'.
    confidence_level : float, optional
        Default that of the result's interval.
    scale : str or Scale, optional
        Benchmark scale shaded behind the histogram; default the result's (none when it
        has none).
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
    """
    if not isinstance(result, Result):
        raise TypeError(f"`result` must be an irr result; got {type(result).__name__}.")
    if method is None:
        method = result.ci.method if result.ci.method in BOOTSTRAP_METHODS else "percentile"
    ci = result.conf_int(confidence_level, method)
    replicates = np.asarray(result.bootstrap.replicates, dtype=float).ravel()
    finite = replicates[np.isfinite(replicates)]
    ax = _axes(ax, (6.5, 4.0))
    ax.hist(finite, bins=bins, color="0.45", alpha=0.85, edgecolor="white", linewidth=0.3)
    low, high = (finite.min(), finite.max()) if finite.size else (-1.0, 1.0)
    pad = 0.05 * max(high - low, 1e-3)
    span = (min(low, ci.low if math.isfinite(ci.low) else low) - pad,
            max(high, ci.high if math.isfinite(ci.high) else high) + pad)
    chosen = result.scale if scale is None else scale
    if chosen is not None:
        _shade_bands(ax, chosen, *span)
    ax.axvline(result.estimate, color="black", linewidth=1.5,
               label=f"estimate {result.estimate:.3f}")
    level = f"{100 * ci.confidence_level:g}%"
    for end in (ci.low, ci.high):
        if math.isfinite(end):
            ax.axvline(end, color="tab:blue", linestyle="--", linewidth=1.2)
    ax.plot([], [], color="tab:blue", linestyle="--",
            label=f"{level} {method} CI [{ci.low:.3f}, {ci.high:.3f}]")
    ax.set_xlim(*span)
    ax.set_xlabel(result.coefficient)
    ax.set_ylabel("resamples")
    boot = result.bootstrap
    ax.set_title(f"Bootstrap distribution ({boot.n_resamples} resamples of {boot.resampling})")
    ax.legend(loc="upper left", fontsize=8, frameon=False, bbox_to_anchor=(0.0, 0.92))
    return ax


def _forest_rows(data: Any) -> pd.DataFrame:
    """Label, estimate, ci_low, ci_high (and reason) from irr.by output or results."""
    if isinstance(data, pd.DataFrame):
        needed = ["estimate", "ci_low", "ci_high"]
        missing = [c for c in needed if c not in data.columns]
        if missing:
            raise ValueError(
                f"`data` must have columns {needed!r} (the output of irr.by); missing "
                f"{missing!r}."
            )
        keys = [c for c in data.columns if c not in BY_COLUMNS and c != "statistic"
                and c not in ("pvalue", "n_resamples")]
        if keys:
            labels = data[keys].astype(str).agg(", ".join, axis=1)
        else:
            labels = pd.Series([str(i) for i in data.index], index=data.index)
        reason = data["reason"] if "reason" in data.columns else pd.Series(None, index=data.index)
        return pd.DataFrame({
            "label": labels.to_numpy(),
            "estimate": data["estimate"].to_numpy(dtype=float),
            "ci_low": data["ci_low"].to_numpy(dtype=float),
            "ci_high": data["ci_high"].to_numpy(dtype=float),
            "reason": reason.to_numpy(dtype=object),
        })
    if isinstance(data, Result):
        data = [data]
    if not isinstance(data, Sequence) or not data:
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
        "estimate": [r.estimate for r in data],
        "ci_low": [r.ci.low for r in data],
        "ci_high": [r.ci.high for r in data],
        "reason": [None if math.isfinite(r.estimate) else "undefined" for r in data],
    })


def forest(
    data: pd.DataFrame | Sequence[Result],
    *,
    scale: Any = "landis-koch",
    reference: float | None = 0.0,
    ax: Axes | None = None,
) -> Axes:
    """Forest plot: one estimate and interval per row, e.g. one kappa per site.

    Parameters
    ----------
    data : DataFrame or sequence of Result
        The output of :func:`irr.by` (labels from the group key columns) or results
        (labelled by coefficient). Rows without an estimate are listed with their
        reason instead of a point.
    scale : str, Scale or None, default 'landis-koch'
        Benchmark bands shaded behind the intervals; None for none.
    reference : float or None, default 0
        A vertical reference line (no agreement beyond chance).
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
    >>> [t.get_text() for t in ax.get_yticklabels()]
    ['a', 'b']
    """
    rows = _forest_rows(data)
    n = len(rows)
    ax = _axes(ax, (6.5, 1.2 + 0.45 * n))
    y = np.arange(n)[::-1]
    ok = np.isfinite(rows["estimate"].to_numpy())
    values = rows[["estimate", "ci_low", "ci_high"]].to_numpy(dtype=float)
    finite = values[np.isfinite(values)]
    low = min(finite.min() if finite.size else 0.0, reference if reference is not None else 0.0)
    high = max(finite.max() if finite.size else 1.0, reference if reference is not None else 0.0)
    pad = 0.08 * max(high - low, 0.1)
    span = (low - pad, high + pad)
    if scale is not None:
        _shade_bands(ax, scale, *span)
    if reference is not None:
        ax.axvline(reference, color="0.3", linewidth=0.8, linestyle=":")
    est = values[:, 0]
    lower = np.where(np.isfinite(values[:, 1]), est - values[:, 1], 0.0)
    upper = np.where(np.isfinite(values[:, 2]), values[:, 2] - est, 0.0)
    ax.errorbar(est[ok], y[ok], xerr=[lower[ok], upper[ok]], fmt="s", color="black",
                ecolor="black", elinewidth=1.2, capsize=3, markersize=5)
    for yi, reason in zip(y[~ok], rows["reason"].to_numpy()[~ok], strict=True):
        text = str(reason) if reason is not None and reason == reason else "undefined"
        ax.text(span[0] + pad / 2, yi, f"not estimable: {text}", va="center", fontsize=7,
                color="0.35")
    ax.set_yticks(y, rows["label"].tolist())
    ax.set_ylim(-0.7, n - 0.3)
    ax.set_xlim(*span)
    ax.set_xlabel("estimate and interval")
    return ax
