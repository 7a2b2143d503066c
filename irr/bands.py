"""Benchmark scales that put a verbal label on an agreement coefficient.

A scale is data: an ordered tuple of :class:`Band` objects with explicit open or
closed ends, the published reference and what the authors meant it for. Three
ways to use one:

- :func:`interpret` names the band of a single value ("substantial");
- :func:`interpret_interval` names the bands of an estimate and of both ends of
  its confidence interval ("moderate (95% CI: fair to substantial)");
- :func:`benchmark` is Gwet's probabilistic benchmarking: the probability that
  the coefficient lies in each band, and the highest band reached with a stated
  confidence.

The built-in scales are in :data:`SCALES` (see also :func:`list_scales`); a
custom scale is a list of ``(upper bound, label)`` pairs or a :class:`Scale`.
"""

from __future__ import annotations

import itertools
import math
import numbers
import warnings
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from types import MappingProxyType
from typing import TYPE_CHECKING, Any

import numpy as np

from irr._html import escape_html
from irr._validation import (
    DegenerateDataWarning,
    check_confidence_level,
    show_value,
)
from irr.vocabulary import resolve

if TYPE_CHECKING:
    import pandas as pd

__all__ = [
    "BOUNDARY_TOLERANCE",
    "SCALES",
    "Band",
    "BenchmarkResult",
    "Scale",
    "benchmark",
    "benchmark_band",
    "benchmark_line",
    "get_scale",
    "interpret",
    "interpret_interval",
    "interpretation_line",
    "list_scales",
]

#: Values this close to a band boundary (or to an end of the scale) are banded as
#: if they were exactly on it, so that float noise such as ``0.1 + 0.2 - 0.1``
#: (``0.20000000000000004``) is banded like ``0.20``.
BOUNDARY_TOLERANCE = 1e-12

_GWET_2014 = (
    "Gwet, K. L. (2014). Handbook of Inter-Rater Reliability: The Definitive Guide to "
    "Measuring the Extent of Agreement Among Raters (4th ed.), chapter 6. Gaithersburg, MD: "
    "Advanced Analytics, LLC. ISBN 978-0-9708062-8-4."
)


def _fmt(x: float) -> str:
    """Render a bound compactly: 0.2 -> '0.2', -1.0 -> '-1', inf -> 'inf'."""
    return f"{x:g}"


# ---------------------------------------------------------------------------
# Bands and scales
# ---------------------------------------------------------------------------


@dataclass(frozen=True)
class Band:
    """One labelled interval of a benchmark scale.

    Parameters
    ----------
    label : str
        The verbal label, e.g. ``"substantial"``. ``str(band)`` returns it.
    lower, upper : float
        The ends of the interval, ``lower < upper``.
    lower_closed, upper_closed : bool
        Whether the interval contains its lower (upper) end.
    scale : str
        The name of the scale the band belongs to, e.g. ``"landis-koch"``.
    citation : str
        The full reference of the scale.
    short_citation : str
        The in-text citation, e.g. ``"Landis & Koch, 1977"``.

    Examples
    --------
    >>> from irr.bands import interpret
    >>> band = interpret(0.55)
    >>> str(band), band.interval, 0.60 in band, 0.40 in band
    ('moderate', '(0.4, 0.6]', True, False)
    """

    label: str
    lower: float
    upper: float
    lower_closed: bool
    upper_closed: bool
    scale: str = "custom"
    citation: str = ""
    short_citation: str = ""

    def __str__(self) -> str:
        return self.label

    @property
    def interval(self) -> str:
        """The interval in bracket notation, e.g. ``'(0.2, 0.4]'``."""
        left = "[" if self.lower_closed else "("
        right = "]" if self.upper_closed else ")"
        return f"{left}{_fmt(self.lower)}, {_fmt(self.upper)}{right}"

    def __contains__(self, value: object) -> bool:
        """Exact membership test (no tolerance; see :func:`interpret` for that)."""
        if isinstance(value, bool) or not isinstance(value, numbers.Real):
            return False
        x = float(value)
        above = x > self.lower or (self.lower_closed and x == self.lower)
        below = x < self.upper or (self.upper_closed and x == self.upper)
        return above and below


@dataclass(frozen=True)
class Scale:
    """A benchmark scale: contiguous labelled bands with a citation.

    Parameters
    ----------
    name : str
        Key of the scale, e.g. ``"landis-koch"``; custom scales default to ``"custom"``.
    bands : tuple of Band
        From lowest to highest. Consecutive bands must meet (``upper`` of one is
        ``lower`` of the next) with exactly one of them containing the shared end,
        so that every value of the range lies in exactly one band.
    citation : str
        Full reference, with DOI where one exists.
    short_citation : str
        In-text citation, e.g. ``"Landis & Koch, 1977"``.
    meant_for : str
        The coefficient(s) and setting the authors proposed the scale for.

    Raises
    ------
    ValueError
        If the bands are empty, overlap, leave a gap, repeat a label, or a band is
        empty (``lower >= upper``).

    See Also
    --------
    Scale.from_bounds : build a scale from ``(upper bound, label)`` pairs.

    Examples
    --------
    >>> from irr.bands import SCALES
    >>> lk = SCALES["landis-koch"]
    >>> lk.short_citation, lk.labels[-1], lk.lower, lk.upper
    ('Landis & Koch, 1977', 'almost perfect', -1.0, 1.0)
    """

    name: str
    bands: tuple[Band, ...]
    citation: str = ""
    short_citation: str = ""
    meant_for: str = ""

    def __post_init__(self) -> None:
        bands = tuple(self.bands)
        object.__setattr__(self, "bands", bands)
        if not bands:
            raise ValueError(f"scale {self.name!r} has no bands.")
        labels = [b.label for b in bands]
        if len(set(labels)) != len(labels):
            raise ValueError(f"scale {self.name!r} repeats a band label: {labels}.")
        for band in bands:
            if not band.lower < band.upper:
                raise ValueError(
                    f"band {band.label!r} of scale {self.name!r} is empty: "
                    f"lower {band.lower!r} is not below upper {band.upper!r}."
                )
        for below, above in itertools.pairwise(bands):
            if below.upper != above.lower:
                raise ValueError(
                    f"bands {below.label!r} and {above.label!r} of scale {self.name!r} do not "
                    f"meet: {below.interval} then {above.interval}."
                )
            if below.upper_closed == above.lower_closed:
                what = "both contain" if below.upper_closed else "both exclude"
                raise ValueError(
                    f"bands {below.label!r} and {above.label!r} of scale {self.name!r} {what} "
                    f"their shared end {_fmt(below.upper)}."
                )

    @classmethod
    def from_bounds(
        cls,
        bounds: Iterable[tuple[float, str]],
        *,
        name: str = "custom",
        lower: float = -1.0,
        citation: str = "",
        short_citation: str = "",
        meant_for: str = "",
    ) -> Scale:
        """Build a scale from ``(upper bound, label)`` pairs, upper ends inclusive.

        Parameters
        ----------
        bounds : iterable of (float, str)
            Upper bound and label of each band, from the lowest band up. Bounds must
            increase strictly; the last one is the top of the scale.
        name : str, default "custom"
            Name of the scale (shown in benchmark output).
        lower : float, default -1.0
            Bottom of the scale (closed).
        citation, short_citation, meant_for : str, optional
            As for :class:`Scale`.

        Returns
        -------
        Scale
            Bands ``[lower, b1], (b1, b2], ..., (b_{m-1}, b_m]``, the Landis–Koch
            convention: a value on a bound belongs to the band below it.

        Raises
        ------
        TypeError
            If a pair is not ``(real number, str)``.
        ValueError
            If `bounds` is empty, a bound is nan, the bounds do not increase strictly,
            or the first bound is not above `lower`.

        Examples
        --------
        >>> from irr.bands import Scale
        >>> s = Scale.from_bounds([(0.4, "low"), (0.7, "mid"), (1.0, "high")])
        >>> [b.interval for b in s.bands]
        ['[-1, 0.4]', '(0.4, 0.7]', '(0.7, 1]']
        """
        pairs = list(bounds)
        if not pairs:
            raise ValueError("`scale` must have at least one (upper bound, label) pair; got none.")
        uppers: list[float] = []
        labels: list[str] = []
        for pair in pairs:
            if not (isinstance(pair, Sequence) and not isinstance(pair, str) and len(pair) == 2):
                raise TypeError(
                    f"`scale` must be a sequence of (upper bound, label) pairs; "
                    f"got the item {show_value(pair)}."
                )
            bound, label = pair
            if isinstance(bound, bool) or not isinstance(bound, numbers.Real):
                raise TypeError(f"`scale` bounds must be real numbers; got {show_value(bound)}.")
            if not isinstance(label, str):
                raise TypeError(f"`scale` labels must be strings; got {show_value(label)}.")
            if math.isnan(float(bound)):
                raise ValueError(f"`scale` bound for {label!r} is nan.")
            uppers.append(float(bound))
            labels.append(label)
        lower = float(lower)
        if math.isnan(lower):
            raise ValueError("`lower` is nan.")
        edges = [lower, *uppers]
        for i in range(1, len(edges)):
            if not edges[i] > edges[i - 1]:
                if i == 1:
                    raise ValueError(
                        f"`scale` bounds must lie above the bottom of the scale, {_fmt(lower)}; "
                        f"got {_fmt(edges[1])} for {labels[0]!r}."
                    )
                raise ValueError(
                    f"`scale` bounds must increase strictly; got {_fmt(edges[i])} "
                    f"({labels[i - 1]!r}) after {_fmt(edges[i - 1])} ({labels[i - 2]!r})."
                )
        bands = tuple(
            Band(
                label=labels[i],
                lower=edges[i],
                upper=edges[i + 1],
                lower_closed=i == 0,
                upper_closed=True,
                scale=name,
                citation=citation,
                short_citation=short_citation,
            )
            for i in range(len(labels))
        )
        return cls(
            name=name,
            bands=bands,
            citation=citation,
            short_citation=short_citation,
            meant_for=meant_for,
        )

    @property
    def lower(self) -> float:
        """Bottom of the scale's range."""
        return self.bands[0].lower

    @property
    def upper(self) -> float:
        """Top of the scale's range."""
        return self.bands[-1].upper

    @property
    def labels(self) -> tuple[str, ...]:
        """Band labels, lowest band first."""
        return tuple(b.label for b in self.bands)

    @property
    def attribution(self) -> str:
        """Short citation, or ``"<name> scale"`` when the scale has none."""
        return self.short_citation or f"{self.name} scale"

    def to_frame(self) -> pd.DataFrame:
        """The bands as a DataFrame (lowest band first).

        Returns
        -------
        pandas.DataFrame
            Columns ``band, lower, upper, lower_closed, upper_closed, interval``.

        Examples
        --------
        >>> from irr.bands import SCALES
        >>> SCALES["fleiss"].to_frame()[["band", "interval"]]
                  band      interval
        0         poor     [-1, 0.4)
        1  fair to good  [0.4, 0.75]
        2    excellent    (0.75, 1]
        """
        import pandas as pd

        return pd.DataFrame(
            {
                "band": [b.label for b in self.bands],
                "lower": [b.lower for b in self.bands],
                "upper": [b.upper for b in self.bands],
                "lower_closed": [b.lower_closed for b in self.bands],
                "upper_closed": [b.upper_closed for b in self.bands],
                "interval": [b.interval for b in self.bands],
            }
        )

    # -- vectorised banding ----------------------------------------------------

    def _edges(self) -> np.ndarray:
        return np.array([self.bands[0].lower] + [b.upper for b in self.bands])

    def snap(self, values: np.ndarray) -> np.ndarray:
        """Move values within BOUNDARY_TOLERANCE of an edge onto that edge.

        Parameters
        ----------
        values : numpy.ndarray
            Values of the statistic.

        Examples
        --------
        >>> import irr
        >>> irr.get_scale("landis-koch").snap(np.array([0.6 - 1e-15, 0.5])).tolist()
        [0.6, 0.5]
        """
        out = np.array(values, dtype=float, copy=True)
        for edge in self._edges():
            if math.isfinite(edge):
                out[np.abs(out - edge) <= BOUNDARY_TOLERANCE] = edge
        return out

    def band_index(self, snapped: np.ndarray) -> np.ndarray:
        """Band index of each (snapped, in-range, non-nan) value; -1 where none.

        Parameters
        ----------
        snapped : numpy.ndarray
            Values already moved onto the edges by :meth:`snap`.

        Examples
        --------
        >>> import irr
        >>> irr.get_scale("landis-koch").band_index(np.array([0.1, 0.65, np.nan])).tolist()
        [1, 4, -1]
        """
        index = np.full(snapped.shape, -1, dtype=np.intp)
        for i, b in enumerate(self.bands):
            above = (snapped > b.lower) | (b.lower_closed & (snapped == b.lower))
            below = (snapped < b.upper) | (b.upper_closed & (snapped == b.upper))
            index[above & below] = i
        return index


ScaleLike = str | Scale | Sequence[tuple[float, str]]


def _scale(
    name: str,
    short_citation: str,
    citation: str,
    meant_for: str,
    rows: Sequence[tuple[str, float, float, bool, bool]],
) -> Scale:
    bands = tuple(
        Band(label, lo, hi, lo_c, hi_c, name, citation, short_citation)
        for label, lo, hi, lo_c, hi_c in rows
    )
    return Scale(name, bands, citation, short_citation, meant_for)


# (label, lower, upper, lower_closed, upper_closed), lowest band first.
_BUILTIN = (
    _scale(
        "landis-koch",
        "Landis & Koch, 1977",
        "Landis, J. R., & Koch, G. G. (1977). The measurement of observer agreement for "
        "categorical data. Biometrics, 33(1), 159–174. https://doi.org/10.2307/2529310",
        "Kappa-type coefficients for categorical ratings. The published table lists "
        "<0.00 poor, 0.00-0.20 slight, 0.21-0.40 fair, 0.41-0.60 moderate, 0.61-0.80 "
        "substantial, 0.81-1.00 almost perfect; the authors call the divisions arbitrary "
        "but useful benchmarks. Upper ends are inclusive.",
        [
            ("poor", -1.0, 0.0, True, False),
            ("slight", 0.0, 0.2, True, True),
            ("fair", 0.2, 0.4, False, True),
            ("moderate", 0.4, 0.6, False, True),
            ("substantial", 0.6, 0.8, False, True),
            ("almost perfect", 0.8, 1.0, False, True),
        ],
    ),
    _scale(
        "fleiss",
        "Fleiss, 1981",
        "Fleiss, J. L. (1981). Statistical Methods for Rates and Proportions (2nd ed.), "
        "p. 218. New York: John Wiley & Sons. ISBN 0-471-06428-9. (Retained in the 3rd ed.: "
        "Fleiss, J. L., Levin, B., & Paik, M. C. (2003), https://doi.org/10.1002/0471445428.)",
        "Kappa for most purposes: values below 0.40 poor, 0.40 to 0.75 fair to good, above "
        "0.75 excellent agreement beyond chance.",
        [
            ("poor", -1.0, 0.4, True, False),
            ("fair to good", 0.4, 0.75, True, True),
            ("excellent", 0.75, 1.0, False, True),
        ],
    ),
    _scale(
        "altman",
        "Altman, 1991",
        "Altman, D. G. (1991). Practical Statistics for Medical Research, p. 404. London: "
        "Chapman & Hall. ISBN 0-412-27630-5. https://doi.org/10.1201/9780429258589",
        "Kappa in medical research, after Landis & Koch: <0.20 poor, 0.21-0.40 fair, "
        "0.41-0.60 moderate, 0.61-0.80 good, 0.81-1.00 very good. Upper ends are inclusive.",
        [
            ("poor", -1.0, 0.2, True, True),
            ("fair", 0.2, 0.4, False, True),
            ("moderate", 0.4, 0.6, False, True),
            ("good", 0.6, 0.8, False, True),
            ("very good", 0.8, 1.0, False, True),
        ],
    ),
    _scale(
        "cicchetti-sparrow",
        "Cicchetti & Sparrow, 1981",
        "Cicchetti, D. V., & Sparrow, S. A. (1981). Developing criteria for establishing "
        "interrater reliability of specific items: applications to assessment of adaptive "
        "behavior. American Journal of Mental Deficiency, 86(2), 127–137. PMID 7315877. "
        "(Restated in Cicchetti, D. V. (1994), Psychological Assessment, 6(4), 284–290, "
        "doi:10.1037/1040-3590.6.4.284.)",
        "Kappa, weighted kappa and the ICC of clinical rating items: <0.40 poor, 0.40-0.59 "
        "fair, 0.60-0.74 good, 0.75-1.00 excellent. Lower ends are inclusive.",
        [
            ("poor", -1.0, 0.4, True, False),
            ("fair", 0.4, 0.6, True, False),
            ("good", 0.6, 0.75, True, False),
            ("excellent", 0.75, 1.0, True, True),
        ],
    ),
    _scale(
        "mchugh",
        "McHugh, 2012",
        "McHugh, M. L. (2012). Interrater reliability: the kappa statistic. Biochemia Medica, "
        "22(3), 276–282, Table 3. https://doi.org/10.11613/BM.2012.031",
        "Cohen's kappa in health research, stricter than Landis & Koch: 0-0.20 none, "
        "0.21-0.39 minimal, 0.40-0.59 weak, 0.60-0.79 moderate, 0.80-0.90 strong, above 0.90 "
        "almost perfect. The published table starts at 0; negative values are put in 'none'.",
        [
            ("none", -1.0, 0.2, True, True),
            ("minimal", 0.2, 0.4, False, False),
            ("weak", 0.4, 0.6, True, False),
            ("moderate", 0.6, 0.8, True, False),
            ("strong", 0.8, 0.9, True, True),
            ("almost perfect", 0.9, 1.0, False, True),
        ],
    ),
    _scale(
        "koo-li",
        "Koo & Li, 2016",
        "Koo, T. K., & Li, M. Y. (2016). A guideline of selecting and reporting intraclass "
        "correlation coefficients for reliability research. Journal of Chiropractic Medicine, "
        "15(2), 155–163. https://doi.org/10.1016/j.jcm.2016.02.012",
        "Intraclass correlation coefficients, judged on the 95% confidence interval: less "
        "than 0.5 poor, 0.5 to 0.75 moderate, 0.75 to 0.9 good, greater than 0.90 excellent. "
        "The shared end 0.75 is put in 'good'.",
        [
            ("poor", -1.0, 0.5, True, False),
            ("moderate", 0.5, 0.75, True, False),
            ("good", 0.75, 0.9, True, True),
            ("excellent", 0.9, 1.0, False, True),
        ],
    ),
    _scale(
        "mcbride",
        "McBride, 2005",
        "McBride, G. B. (2005). A proposal for strength-of-agreement criteria for Lin's "
        "concordance correlation coefficient. NIWA Client Report HAM2005-062. Hamilton, New "
        "Zealand: National Institute of Water & Atmospheric Research.",
        "Lin's concordance correlation coefficient of continuous measurements: less than "
        "0.90 poor, 0.90 to 0.95 moderate, 0.95 to 0.99 substantial, greater than 0.99 "
        "almost perfect. McBride proposes judging the lower one-sided 95% confidence limit "
        "of the CCC, not the estimate (interpret_interval gives both). Shared ends go to "
        "the upper band except 0.99, which is not 'greater than 0.99'.",
        [
            ("poor", -1.0, 0.9, True, False),
            ("moderate", 0.9, 0.95, True, False),
            ("substantial", 0.95, 0.99, True, True),
            ("almost perfect", 0.99, 1.0, False, True),
        ],
    ),
    _scale(
        "krippendorff",
        "Krippendorff, 2004",
        "Krippendorff, K. (2004). Content analysis: An introduction to its methodology "
        "(2nd ed.). Thousand Oaks, CA: Sage.",
        "Krippendorff's alpha, by its author (2004, p. 241): rely on variables with alpha >= .800; "
        "consider those between .667 and .800 only for tentative conclusions; discard "
        "data below .667. The default scale of Krippendorff's alpha.",
        [
            ("unacceptable", -1.0, 0.667, True, False),
            ("tentatively acceptable", 0.667, 0.8, True, False),
            ("acceptable", 0.8, 1.0, True, True),
        ],
    ),
)

#: The built-in scales by name (read-only). ``"landis-koch"`` is the default.
SCALES: Mapping[str, Scale] = MappingProxyType({s.name: s for s in _BUILTIN})


def get_scale(scale: ScaleLike) -> Scale:
    """Resolve a scale name, a :class:`Scale` or ``(upper bound, label)`` pairs.

    Parameters
    ----------
    scale : str, Scale or sequence of (float, str)
        A key of :data:`SCALES` (``"landis-koch"``, ``"fleiss"``, ``"altman"``,
        ``"cicchetti-sparrow"``, ``"mchugh"``, ``"koo-li"``, ``"mcbride"``; case and ``-``
        or ``_`` between words do not matter, see :func:`irr.vocabulary.resolve`), a
        :class:`Scale`, or pairs for :meth:`Scale.from_bounds`.

    Returns
    -------
    Scale

    Raises
    ------
    ValueError
        If a name is unknown (the message lists the canonical names) or the pairs are
        invalid.
    TypeError
        If `scale` is of another type.

    Examples
    --------
    >>> from irr.bands import get_scale
    >>> get_scale("koo-li").labels
    ('poor', 'moderate', 'good', 'excellent')
    """
    if isinstance(scale, Scale):
        return scale
    if isinstance(scale, str):  # any spelling: "Landis-Koch", "landis_koch"
        return SCALES[resolve(scale, SCALES, argument="scale", what="scale")]
    if isinstance(scale, Iterable) and not isinstance(scale, (bytes, Mapping)):
        return Scale.from_bounds(scale)
    raise TypeError(
        "`scale` must be a scale name, a Scale or a list of (upper bound, label) pairs; "
        f"got {show_value(scale)}."
    )


def list_scales() -> pd.DataFrame:
    """The built-in scales, one row each.

    Returns
    -------
    pandas.DataFrame
        Indexed by scale name, with columns ``short_citation``, ``bands`` (the band
        intervals and labels, lowest first), ``meant_for`` and ``citation``.

    Examples
    --------
    >>> from irr.bands import list_scales
    >>> list_scales()["short_citation"]
    name
    landis-koch                Landis & Koch, 1977
    fleiss                            Fleiss, 1981
    altman                            Altman, 1991
    cicchetti-sparrow    Cicchetti & Sparrow, 1981
    mchugh                            McHugh, 2012
    koo-li                          Koo & Li, 2016
    mcbride                          McBride, 2005
    krippendorff                Krippendorff, 2004
    Name: short_citation, dtype: str
    """
    import pandas as pd

    rows = [
        {
            "name": s.name,
            "short_citation": s.short_citation,
            "bands": "; ".join(f"{b.interval} {b.label}" for b in s.bands),
            "meant_for": s.meant_for,
            "citation": s.citation,
        }
        for s in SCALES.values()
    ]
    return pd.DataFrame(rows).set_index("name")


# ---------------------------------------------------------------------------
# Validation helpers (private to this module)
# ---------------------------------------------------------------------------


def _check_real(value: Any, name: str) -> float:
    """Return `value` as a float if it is a real scalar (not bool), else raise TypeError."""
    if isinstance(value, np.ndarray) and value.ndim == 0 and value.dtype.kind in "iuf":
        return float(value)
    if isinstance(value, bool) or not isinstance(value, numbers.Real):
        raise TypeError(f"`{name}` must be a real number; got {show_value(value)}.")
    return float(value)


def _check_value(value: Any, name: str, scale: Scale) -> float:
    """A real, non-nan value inside the scale's range, snapped onto nearby edges."""
    x = _check_real(value, name)
    if math.isnan(x):
        raise ValueError(
            f"`{name}` is nan: an undefined coefficient has no band (the statistic "
            "returned nan with a warning saying why)."
        )
    x = float(scale.snap(np.array(x))[()])
    if not scale.lower <= x <= scale.upper:
        raise ValueError(
            f"`{name}` must lie in the range of the {scale.name!r} scale, "
            f"[{_fmt(scale.lower)}, {_fmt(scale.upper)}]; got {x!r}."
        )
    return x


def _band_at(scale: Scale, snapped: float) -> Band:
    return scale.bands[int(scale.band_index(np.array(snapped))[()])]


def _level_text(confidence_level: float) -> str:
    return f"{100 * confidence_level:g}%"


# ---------------------------------------------------------------------------
# Deterministic interpretation
# ---------------------------------------------------------------------------


def interpret(value: float, scale: ScaleLike = "landis-koch") -> Band:
    """The band of a benchmark scale that a coefficient falls in.

    Parameters
    ----------
    value : float
        The coefficient, e.g. a kappa estimate.
    scale : str, Scale or sequence of (float, str), default "landis-koch"
        A built-in scale name (see :data:`SCALES`), a :class:`Scale`, or
        ``(upper bound, label)`` pairs with inclusive upper bounds from -1 up, e.g.
        ``[(0.4, "low"), (0.7, "mid"), (1.0, "high")]``.

    Returns
    -------
    Band
        ``str(band)`` is the label; ``band.short_citation`` says whose scale it is.

    Raises
    ------
    TypeError
        If `value` is not a real number, or `scale` is of an unknown type.
    ValueError
        If `value` is nan (an undefined coefficient has no band), lies outside the
        scale's range ([-1, 1] for every built-in scale, the ICC scale included), or
        `scale` is an unknown name (the message lists the known ones) or invalid pairs.

    Notes
    -----
    Each band states which of its ends it contains (``band.interval``); published
    tables are given to two decimals ("0.00-0.20 slight, 0.21-0.40 fair") and are
    read here so that every value has exactly one band: for Landis & Koch (1977)
    0.20 is slight and 0.2000001 fair. The per-scale choices are in
    ``SCALES[name].meant_for``.

    **Values near a boundary.** A value within ``BOUNDARY_TOLERANCE`` (1e-12) of a
    band boundary or of an end of the scale is banded as if it were exactly on it.
    Coefficients computed in floating point can miss a boundary by a rounding error
    (``0.1 + 0.2 - 0.1`` is ``0.20000000000000004``), and such a value is slight,
    not fair. No coefficient estimated from data is meaningful to 12 decimals, so
    the tolerance never changes a real conclusion.

    A single label ignores sampling error; report it with the interval
    (:func:`interpret_interval`) or use :func:`benchmark`.

    References
    ----------
    .. [1] Landis, J. R., & Koch, G. G. (1977). The measurement of observer agreement
       for categorical data. Biometrics, 33(1), 159–174. https://doi.org/10.2307/2529310

    Examples
    --------
    >>> from irr.bands import interpret
    >>> str(interpret(0.55))
    'moderate'
    >>> interpret(0.20).label, interpret(0.1 + 0.2 - 0.1).label, interpret(0.2000001).label
    ('slight', 'slight', 'fair')
    >>> interpret(0.82, scale="koo-li").label
    'good'
    >>> str(interpret(0.5, scale=[(0.4, "low"), (0.7, "mid"), (1.0, "high")]))
    'mid'
    """
    resolved = get_scale(scale)
    return _band_at(resolved, _check_value(value, "value", resolved))


def interpret_interval(
    estimate: float,
    low: float,
    high: float,
    *,
    confidence_level: float = 0.95,
    scale: ScaleLike = "landis-koch",
) -> str:
    """Name the bands of an estimate and of both ends of its confidence interval.

    Parameters
    ----------
    estimate : float
        The coefficient.
    low, high : float
        The ends of its confidence interval, ``low <= high``.
    confidence_level : float, default 0.95
        The interval's level, in (0, 1); only used in the text.
    scale : str, Scale or sequence of (float, str), default "landis-koch"
        As for :func:`interpret`.

    Returns
    -------
    str
        ``"moderate (95% CI: fair to substantial)"``, or ``"moderate (95% CI:
        moderate)"`` when the whole interval lies in one band.

    Raises
    ------
    TypeError
        If an argument is not a real number.
    ValueError
        If any argument is nan, `low` > `high`, `estimate` lies outside the scale's
        range, or `confidence_level` is outside (0, 1).

    Notes
    -----
    Interval ends outside the scale's range are banded as the end of the range: a
    Wald interval for kappa = 0.95 can reach 1.05, whose band is the top one. The
    boundary tolerance of :func:`interpret` applies. Koo & Li (2016) recommend
    judging an ICC by its 95% interval in this way.

    References
    ----------
    .. [1] Koo, T. K., & Li, M. Y. (2016). A guideline of selecting and reporting
       intraclass correlation coefficients for reliability research. Journal of
       Chiropractic Medicine, 15(2), 155–163. https://doi.org/10.1016/j.jcm.2016.02.012

    Examples
    --------
    >>> from irr.bands import interpret_interval
    >>> interpret_interval(0.55, 0.32, 0.71)
    'moderate (95% CI: fair to substantial)'
    >>> interpret_interval(0.932, 0.879, 0.965, scale="koo-li")
    'excellent (95% CI: good to excellent)'
    >>> interpret_interval(0.95, 0.85, 1.05, confidence_level=0.9)
    'almost perfect (90% CI: almost perfect)'
    """
    resolved = get_scale(scale)
    level = check_confidence_level(confidence_level)
    est = _check_value(estimate, "estimate", resolved)
    ends = []
    for name, end in (("low", low), ("high", high)):
        x = _check_real(end, name)
        if math.isnan(x):
            raise ValueError(f"`{name}` is nan: the confidence interval is undefined.")
        ends.append(x)
    if ends[0] > ends[1]:
        raise ValueError(f"`low` must not exceed `high`; got low={ends[0]!r}, high={ends[1]!r}.")
    lo, hi = (
        float(np.clip(resolved.snap(np.array(x))[()], resolved.lower, resolved.upper))
        for x in ends
    )
    label = _band_at(resolved, est).label
    lo_label, hi_label = _band_at(resolved, lo).label, _band_at(resolved, hi).label
    span = lo_label if lo_label == hi_label else f"{lo_label} to {hi_label}"
    return f"{label} ({_level_text(level)} CI: {span})"


def interpretation_line(
    value: float,
    scale: ScaleLike = "landis-koch",
    *,
    ci: tuple[float, float] | None = None,
    confidence_level: float = 0.95,
) -> str:
    """One-line interpretation for summaries, tolerant of an undefined estimate.

    Parameters
    ----------
    value : float
        The coefficient; nan gives ``"undefined (estimate is nan)"``.
    scale : str, Scale or sequence of (float, str), default "landis-koch"
        As for :func:`interpret`.
    ci : (float, float), optional
        The confidence interval; when given (and not nan) the line names the bands
        of its ends, as :func:`interpret_interval` does.
    confidence_level : float, default 0.95
        Level of `ci`, for the text.

    Returns
    -------
    str
        e.g. ``"substantial (Landis & Koch, 1977)"`` or
        ``"moderate (95% CI: fair to substantial; Landis & Koch, 1977)"``.

    Raises
    ------
    TypeError, ValueError
        As :func:`interpret` for a non-nan `value`, and as :func:`interpret_interval`
        for a non-nan `ci`.

    Notes
    -----
    Unlike :func:`interpret` this does not raise for a nan estimate or interval,
    because a summary of an undefined statistic should still print. Bands follow
    :func:`interpret`, including its boundary tolerance.

    Examples
    --------
    >>> from irr.bands import interpretation_line
    >>> interpretation_line(0.72)
    'substantial (Landis & Koch, 1977)'
    >>> interpretation_line(0.55, ci=(0.32, 0.71))
    'moderate (95% CI: fair to substantial; Landis & Koch, 1977)'
    >>> interpretation_line(float("nan"))
    'undefined (estimate is nan)'
    """
    resolved = get_scale(scale)
    if isinstance(value, numbers.Real) and math.isnan(float(value)):
        return "undefined (estimate is nan)"
    if ci is not None:
        low, high = ci
        if not any(isinstance(x, numbers.Real) and math.isnan(float(x)) for x in (low, high)):
            text = interpret_interval(
                value, low, high, confidence_level=confidence_level, scale=resolved
            )
            return f"{text[:-1]}; {resolved.attribution})"
    return f"{interpret(value, resolved).label} ({resolved.attribution})"


# ---------------------------------------------------------------------------
# Probabilistic benchmarking (Gwet, 2014, ch. 6)
# ---------------------------------------------------------------------------


@dataclass(frozen=True, eq=False)
class BenchmarkResult:
    """Probabilistic benchmarking of an agreement coefficient (Gwet, 2014).

    Attributes
    ----------
    band : Band
        The benchmark: the highest band whose cumulative probability (this band or
        any higher one) reaches `confidence_level`.
    table : pandas.DataFrame
        One row per band, top band first, with columns ``band`` (label), ``lower``,
        ``upper``, ``probability`` (that the coefficient lies in the band) and
        ``cumulative`` (that it lies in this band or a higher one).
    confidence_level : float
        The level the cumulative probability must reach.
    scale : Scale
        The benchmark scale.
    estimate : float
        The coefficient.
    se : float or None
        Its standard error (None when only bootstrap replicates were given).
    method : {'normal', 'bootstrap'}
        Truncated normal or bootstrap replicates.
    n_replicates : int or None
        Number of finite replicates used by the bootstrap method.

    Examples
    --------
    >>> import irr
    >>> ag = irr.Agreement.from_frame(irr.datasets.load("diagnoses"))
    >>> res = irr.benchmark(ag.fleiss_kappa().estimate, se=ag.fleiss_kappa().se)
    >>> res.band.label
    'fair'
    >>> res.table[["band", "probability", "cumulative"]].round(3)
                 band  probability  cumulative
    0  almost perfect        0.000       0.000
    1     substantial        0.001       0.001
    2        moderate        0.711       0.712
    3            fair        0.288       1.000
    4          slight        0.000       1.000
    5            poor        0.000       1.000
    """

    band: Band
    table: pd.DataFrame
    confidence_level: float
    scale: Scale
    estimate: float
    se: float | None
    method: str
    n_replicates: int | None = None

    def __repr__(self) -> str:
        return (
            f"BenchmarkResult(band={self.band.label!r}, confidence_level={self.confidence_level!r}"
            f", scale={self.scale.name!r}, method={self.method!r})"
        )

    def _header(self) -> list[str]:
        level = _level_text(self.confidence_level)
        if self.method == "normal":
            how = (
                f"normal with SE = {self.se:.4g}, truncated to "
                f"[{_fmt(max(self.scale.lower, -1.0))}, {_fmt(min(self.scale.upper, 1.0))}]"
            )
        else:
            how = f"{self.n_replicates} bootstrap replicates"
        return [
            f"Probabilistic benchmark (Gwet, 2014); scale: {self.scale.attribution}",
            f"estimate = {self.estimate:.4g}; {how}",
            f"{level} benchmark: {self.band.label}",
        ]

    def _display_frame(self) -> pd.DataFrame:
        import pandas as pd

        bands = self.scale.bands[::-1]
        return pd.DataFrame(
            {
                "band": [b.label for b in bands],
                "interval": [b.interval for b in bands],
                "probability": [f"{p:.5f}" for p in self.table["probability"]],
                "cumulative": [f"{c:.5f}" for c in self.table["cumulative"]],
            }
        )

    def summary_line(self) -> str:
        """One line for summaries.

        Returns
        -------
        str
            e.g. ``"fair (95% probabilistic benchmark, Gwet 2014; Landis & Koch, 1977)"``.

        Examples
        --------
        >>> import irr
        >>> irr.benchmark(0.43, se=0.054).summary_line()
        'fair (95% probabilistic benchmark, Gwet 2014; Landis & Koch, 1977)'
        """
        return (
            f"{self.band.label} ({_level_text(self.confidence_level)} probabilistic "
            f"benchmark, Gwet 2014; {self.scale.attribution})"
        )

    def __str__(self) -> str:
        body = self._display_frame().to_string(index=False)
        return "\n".join([*self._header(), "", body])

    def _repr_html_(self) -> str:
        head = "<br>".join(escape_html(line) for line in self._header())
        return f"<div><p>{head}</p>{self._display_frame().to_html(index=False)}</div>"


def normal_cdf(z: float) -> float:
    """Phi(z) as ``erfc(-z / sqrt 2) / 2``: accurate in both tails (the small tail
    probability is never 1 minus something), without importing scipy.

    Examples
    --------
    >>> round(normal_cdf(1.959963984540054), 6), normal_cdf(-30.0) > 0
    (0.975, True)
    """
    return 0.5 * math.erfc(-z / math.sqrt(2.0))


_ndtr = np.vectorize(normal_cdf, otypes=[float])


def _ndtr_interval(a: np.ndarray, b: np.ndarray) -> np.ndarray:
    """Phi(b) - Phi(a) for a <= b, computed in the tail where it is accurate (the bands
    of a scale: a few numbers, one ``math.erfc`` each)."""
    return np.where(a > 0, _ndtr(-a) - _ndtr(-b), _ndtr(b) - _ndtr(a))


def benchmark(
    estimate: float,
    se: float | None = None,
    *,
    scale: ScaleLike = "landis-koch",
    confidence_level: float = 0.95,
    replicates: Any = None,
) -> BenchmarkResult:
    r"""Gwet's probabilistic benchmarking of an agreement coefficient.

    Parameters
    ----------
    estimate : float
        The coefficient.
    se : float, optional
        Its standard error, >= 0 (0 puts all the probability on the estimate's band).
        Required unless `replicates` are given, and then only reported.
    scale : str, Scale or sequence of (float, str), default "landis-koch"
        As for :func:`interpret`.
    confidence_level : float, default 0.95
        Level the cumulative probability must reach, in (0, 1).
    replicates : array-like of shape (n_resamples,), optional
        Bootstrap replicates of the coefficient. When given they are used instead of
        the normal approximation (`se`, if also given, is only reported).

    Returns
    -------
    BenchmarkResult
        ``.band`` is the benchmark, ``.table`` the band probabilities.

    Raises
    ------
    TypeError
        If `estimate` or `se` is not a real number, `se` and `replicates` are both
        missing, or `confidence_level` is not a real number.
    ValueError
        If `estimate` is nan, `se` is negative or infinite (or nan without
        `replicates`), `estimate` lies outside the scale's range, `confidence_level` is
        outside (0, 1), the scale is invalid,
        or `replicates` has no finite value, is not one-dimensional, or has values
        outside the scale's range.

    Warns
    -----
    DegenerateDataWarning
        If some replicates are nan (resamples on which the statistic is undefined);
        they are dropped and the warning says how many.

    Notes
    -----
    A single label ("moderate") ignores sampling error. Gwet (2014, ch. 6) instead
    computes the probability that the coefficient lies in each band and reports the
    highest band that it reaches with the stated confidence:

    1. With a standard error, the coefficient is taken to be normal with mean
       `estimate` and standard deviation `se`, truncated to [-1, 1] (intersected with
       the scale's range); band probabilities are

       .. math::

          P(l < \kappa \le u) =
          \frac{\Phi((u - \hat\kappa)/se) - \Phi((l - \hat\kappa)/se)}
               {\Phi((1 - \hat\kappa)/se) - \Phi((-1 - \hat\kappa)/se)}

       with the bands clipped to [-1, 1]. Open and closed ends do not matter for a
       continuous distribution. With bootstrap replicates, the probability of a band
       is the share of replicates in it (banded as in :func:`interpret`, with its
       1e-12 boundary tolerance).
    2. Probabilities are accumulated from the top band down.
    3. The benchmark is the first band, going down from the top, whose cumulative
       probability reaches `confidence_level` (compared with a 1e-12 tolerance, so
       that 19 of 20 replicates reach 0.95).

    Gwet's example: Fleiss' kappa 0.430 with SE 0.0542 on the Fleiss (1971) data is
    "moderate" by Landis & Koch, but the coefficient exceeds 0.40 with probability
    only 0.71; it exceeds 0.20 with probability 0.99999, so the 95% benchmark is
    "fair".

    References
    ----------
    .. [1] Gwet, K. L. (2014). Handbook of Inter-Rater Reliability (4th ed.), chapter 6,
       "Benchmarking inter-rater reliability coefficients". Gaithersburg, MD: Advanced
       Analytics, LLC. ISBN 978-0-9708062-8-4.
    .. [2] Fleiss, J. L. (1971). Measuring nominal scale agreement among many raters.
       Psychological Bulletin, 76(5), 378–382. https://doi.org/10.1037/h0031619
    .. [3] Landis, J. R., & Koch, G. G. (1977). The measurement of observer agreement
       for categorical data. Biometrics, 33(1), 159–174. https://doi.org/10.2307/2529310

    Examples
    --------
    >>> from irr.bands import benchmark
    >>> res = benchmark(0.430, 0.0542)
    >>> res.band.label
    'fair'
    >>> res.table.round(5)
                 band  lower  upper  probability  cumulative
    0  almost perfect    0.8    1.0      0.00000     0.00000
    1     substantial    0.6    0.8      0.00085     0.00085
    2        moderate    0.4    0.6      0.70919     0.71004
    3            fair    0.2    0.4      0.28995     0.99999
    4          slight    0.0    0.2      0.00001     1.00000
    5            poor   -1.0    0.0      0.00000     1.00000
    >>> print(res.summary_line())
    fair (95% probabilistic benchmark, Gwet 2014; Landis & Koch, 1977)
    """
    import pandas as pd

    (resolved, level, est, se_value, bands, lowers, uppers, probability, cumulative,
     method, n_replicates, chosen) = _band_probabilities(estimate, se, scale,
                                                         confidence_level, replicates)
    table = pd.DataFrame(
        {
            "band": [b.label for b in bands],
            "lower": lowers,
            "upper": uppers,
            "probability": probability,
            "cumulative": cumulative,
        }
    )
    return BenchmarkResult(
        band=chosen,
        table=table,
        confidence_level=level,
        scale=resolved,
        estimate=est,
        se=se_value,
        method=method,
        n_replicates=n_replicates,
    )


def benchmark_band(
    estimate: float,
    se: float | None = None,
    *,
    scale: ScaleLike = "landis-koch",
    confidence_level: float = 0.95,
    replicates: Any = None,
) -> Band:
    """The band of :func:`benchmark` (its ``.band``), without its table of band
    probabilities: for summaries, which print the label only.

    Examples
    --------
    >>> benchmark_band(0.430, 0.0542).label
    'fair'
    """
    return _band_probabilities(estimate, se, scale, confidence_level, replicates)[-1]


def _band_probabilities(estimate: Any, se: Any, scale: ScaleLike, confidence_level: Any,
                        replicates: Any) -> tuple[Any, ...]:
    """The arguments of :func:`benchmark` checked, and each band's probability and
    cumulative probability, top band first: (scale, level, estimate, se, bands, lowers,
    uppers, probability, cumulative, method, n_replicates, the benchmark band)."""
    resolved = get_scale(scale)
    level = check_confidence_level(confidence_level)
    est = _check_value(estimate, "estimate", resolved)
    se_value: float | None = None
    if se is not None:
        se_value = _check_real(se, "se")
        if replicates is None and math.isnan(se_value):
            raise ValueError(
                "`se` is nan: the standard error is undefined, so the benchmark is too."
            )
        if not math.isnan(se_value) and not 0.0 <= se_value < math.inf:
            raise ValueError(f"`se` must be non-negative and finite; got {se_value!r}.")
    elif replicates is None:
        raise TypeError("`se` is required unless bootstrap `replicates` are given.")

    bands = resolved.bands[::-1]  # top band first
    lowers = np.array([b.lower for b in bands])
    uppers = np.array([b.upper for b in bands])

    if replicates is not None:
        reps = np.asarray(replicates, dtype=float)
        if reps.ndim != 1:
            raise ValueError(
                f"`replicates` must be one-dimensional; got an array of shape {reps.shape}."
            )
        nan = np.isnan(reps)
        if nan.all():
            raise ValueError("`replicates` has no finite value.")
        if nan.any():
            warnings.warn(
                f"{int(nan.sum())} of {reps.size} bootstrap replicates are nan (the statistic "
                "is undefined on those resamples); they are dropped from the benchmark.",
                DegenerateDataWarning,
                stacklevel=3,  # the caller of benchmark or benchmark_band
            )
            reps = reps[~nan]
        snapped = resolved.snap(reps)
        outside = (snapped < resolved.lower) | (snapped > resolved.upper)
        if outside.any():
            raise ValueError(
                f"`replicates` must lie in the range of the {resolved.name!r} scale, "
                f"[{_fmt(resolved.lower)}, {_fmt(resolved.upper)}]; got "
                f"{int(outside.sum())} outside it, e.g. {float(snapped[outside][0])!r}."
            )
        index = resolved.band_index(snapped)
        counts = np.bincount(index, minlength=len(resolved.bands))[::-1]
        n = int(counts.sum())
        probability = counts / n
        cumulative = np.cumsum(counts) / n
        method, n_replicates = "bootstrap", n
    elif se_value == 0.0:  # a point mass at the estimate: its band has probability 1
        probability = np.zeros(len(bands))
        probability[len(bands) - 1 - int(resolved.band_index(np.array(est))[()])] = 1.0
        cumulative = np.cumsum(probability)
        method, n_replicates = "normal", None
    else:
        sd = float(se_value)  # type: ignore[arg-type]  # set above when replicates is None
        t_lo, t_hi = max(resolved.lower, -1.0), min(resolved.upper, 1.0)
        lo = (np.clip(lowers, t_lo, t_hi) - est) / sd
        hi = (np.clip(uppers, t_lo, t_hi) - est) / sd
        top = np.full_like(lo, (t_hi - est) / sd)
        norm = _ndtr_interval(np.array((t_lo - est) / sd), np.array(top[0]))
        if not norm > 0.0:
            raise ValueError(
                f"`estimate` {est!r} with `se` {sd!r} puts no probability on "
                f"[{_fmt(t_lo)}, {_fmt(t_hi)}]; the truncated normal is undefined."
            )
        probability = _ndtr_interval(lo, hi) / norm
        cumulative = _ndtr_interval(lo, top) / norm
        method, n_replicates = "normal", None

    reached = np.flatnonzero(cumulative >= level - BOUNDARY_TOLERANCE)
    chosen = bands[int(reached[0])]
    return (resolved, level, est, se_value, bands, lowers, uppers, probability, cumulative,
            method, n_replicates, chosen)


def benchmark_line(
    estimate: float,
    se: float | None = None,
    *,
    scale: ScaleLike = "landis-koch",
    confidence_level: float = 0.95,
    replicates: Any = None,
) -> str:
    """One-line probabilistic benchmark for summaries, tolerant of undefined inputs.

    Parameters
    ----------
    estimate, se, scale, confidence_level, replicates
        As for :func:`benchmark`.

    Returns
    -------
    str
        :meth:`BenchmarkResult.summary_line`, or ``"undefined (estimate is nan)"`` /
        ``"undefined (standard error is nan)"``.

    Raises
    ------
    TypeError, ValueError
        As :func:`benchmark`, except for a nan `estimate` or `se`.

    Notes
    -----
    See :func:`benchmark` for the rule (Gwet, 2014, ch. 6).

    Examples
    --------
    >>> from irr.bands import benchmark_line
    >>> benchmark_line(0.430, 0.0542)
    'fair (95% probabilistic benchmark, Gwet 2014; Landis & Koch, 1977)'
    >>> benchmark_line(0.430, float("nan"))
    'undefined (standard error is nan)'
    """
    if isinstance(estimate, numbers.Real) and math.isnan(float(estimate)):
        return "undefined (estimate is nan)"
    if isinstance(se, numbers.Real) and math.isnan(float(se)):
        if replicates is None:
            return "undefined (standard error is nan)"
        se = None
    return benchmark(
        estimate, se, scale=scale, confidence_level=confidence_level, replicates=replicates
    ).summary_line()
