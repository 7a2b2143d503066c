"""The reliability report: one study's ratings described, its chosen coefficients estimated
and explained, in every format a paper and its supplement need.

A :class:`ReliabilityReport` holds what :func:`irr.report` (or ``irr report``) found: the
data description, the results, the notes, the sentences and the methods paragraph, and
(optionally) figures already rendered as SVG. It renders itself as text, markdown, LaTeX,
CSV (the columns of :meth:`ReliabilityReport.to_frame`), JSON (a versioned schema,
:data:`SCHEMA_VERSION`, documented in ``docs/guide/report.md``) and one self-contained HTML
page with a GRRAS checklist. Nothing here computes a statistic: every number comes from a
result's fields.
"""

from __future__ import annotations

import base64
import json
import math
import pathlib
import re
import sys
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

import numpy as np

from irr._files import write_file
from irr._frames import LazyMeasurements
from irr._html import escape_html, html_page
from irr._lazy import lazy_module
from irr._measurements import Measurements
from irr._numbers import format_number
from irr._sentences import (
    band_and_citation,
    methods_paragraph,
    references,
    report_sentences,
    statistic_label,
)
from irr._version import __version__
from irr.summary import (
    alternative_fact,
    design_fact,
    escape_latex,
    escape_markdown,
    null_fact,
    results_summary,
    results_tables,
    results_text,
)

pd = lazy_module("pandas")  # imported on first use: data streamed by DuckDB never need it

if TYPE_CHECKING:
    from statsmodels.iolib.summary import Summary

    from irr._statistics import Statistics
    from irr.results import Result

__all__ = ["GRRAS", "SCHEMA_VERSION", "ChecklistItem", "DataDescription", "Figure",
           "ReliabilityReport", "json_schema", "jsonable"]

#: The version of the JSON layout :meth:`ReliabilityReport.to_json` writes (``"schema"``
#: and ``"schema_version"`` open every document). A new key is a minor version; a key
#: renamed, removed or changed in meaning is a major one.
SCHEMA_VERSION = "1.1"
SCHEMA_NAME = "irr-report"
#: The keys of each of a result's ``parts`` in the JSON output.
_PART_KEYS = ("coefficient", "estimate", "se", "statistic", "pvalue", "ci_low", "ci_high",
              "confidence_level", "ci_method", "n_subjects", "n_missing")

SCHEMA_FILE = pathlib.Path(__file__).parent / "schemas" / "report-1.schema.json"

SCALE_TYPES = ("nominal", "ordinal", "continuous")
NARRATIVES = ("full", "sentences", "none")

#: The items of the Guidelines for Reporting Reliability and Agreement Studies (Kottner et
#: al., 2011, Table 1), in the checklist's order: (number, section, what to report).
GRRAS: tuple[tuple[int, str, str], ...] = (
    (1, "Title and abstract", "Say in the title or abstract that inter- or intrarater "
        "reliability or agreement was studied."),
    (2, "Introduction", "Name and describe the measurement instrument or diagnostic "
        "device."),
    (3, "Introduction", "Specify the population of subjects."),
    (4, "Introduction", "Specify the population of raters, where applicable."),
    (5, "Introduction", "Summarise what is known about its reliability and agreement and "
        "give the study's rationale, where applicable."),
    (6, "Methods", "Explain how the sample size was chosen; state the planned numbers of "
        "raters, subjects and replicate observations."),
    (7, "Methods", "Describe how subjects and raters were sampled."),
    (8, "Methods", "Describe the rating process (interval between repeated ratings, "
        "clinical information available, blinding)."),
    (9, "Methods", "State whether the ratings were made independently."),
    (10, "Methods", "Describe the statistical analysis."),
    (11, "Results", "State the numbers of raters and subjects included and of replicate "
         "observations made."),
    (12, "Results", "Describe the raters and subjects (e.g. the raters' training and "
         "experience)."),
    (13, "Results", "Report estimates of reliability and agreement with measures of "
         "statistical uncertainty."),
    (14, "Discussion", "Discuss the practical relevance of the results."),
    (15, "Auxiliary material", "Provide detailed results, e.g. online."),
)
GRRAS_REFERENCE = (
    "Kottner, J., Audigé, L., Brorson, S., Donner, A., Gajewski, B. J., Hróbjartsson, A., "
    "Roberts, C., Shoukri, M., & Streiner, D. L. (2011). Guidelines for Reporting "
    "Reliability and Agreement Studies (GRRAS) were proposed. Journal of Clinical "
    "Epidemiology, 64(1), 96–106. https://doi.org/10.1016/j.jclinepi.2010.03.002"
)


def json_schema() -> dict[str, Any]:
    """The JSON Schema (draft 2020-12) of :meth:`ReliabilityReport.to_json`'s output.

    Examples
    --------
    >>> json_schema()["properties"]["schema"]
    {'const': 'irr-report'}
    """
    return json.loads(SCHEMA_FILE.read_text(encoding="utf-8"))


@dataclass(frozen=True)
class DataDescription:
    """What the ratings are: how many subjects, raters and ratings, which are missing.

    Attributes
    ----------
    n_subjects : int
        Subjects (rows), including those with missing ratings.
    n_raters : int
        Raters (for counts: the most ratings any subject has).
    raters : tuple of str
        The raters' names (empty for counts, which carry no rater identity).
    categories : tuple of str
        The rating scale's labels, as text, in scale order.
    category_values : tuple
        The same labels with their types (numbers stay numbers), as JSON gives them;
        empty: :attr:`categories`.
    scale_type : {'nominal', 'ordinal', 'continuous'}
        How the ratings were treated.
    n_ratings : int
        Ratings given.
    n_missing_ratings : int
        Ratings missing (subject-rater cells with no rating; 0 for counts).
    n_incomplete : int
        Subjects with at least one missing rating.
    subjects_by_ratings : tuple of (int, int)
        (number of ratings, number of subjects with that many), ascending.
    ratings_per_rater : tuple of int
        How many subjects each rater rated (empty for counts).
    """

    n_subjects: int
    n_raters: int
    raters: tuple[str, ...]
    categories: tuple[str, ...]
    scale_type: str
    n_ratings: int
    n_missing_ratings: int
    n_incomplete: int
    subjects_by_ratings: tuple[tuple[int, int], ...]
    ratings_per_rater: tuple[int, ...] = ()
    #: Measurements of continuous data, replicates included (0: not continuous measurements).
    n_measurements: int = 0
    #: Distinct values of continuous measurements, and their (smallest, largest).
    n_values: int = 0
    value_range: tuple[float, ...] = ()
    category_values: tuple[Any, ...] = ()
    #: Measurements of one subject by one rater: (fewest, most) over the pairs measured,
    #: when some pair was measured more than once (replicates); else empty.
    replicates: tuple[int, ...] = ()

    @classmethod
    def from_statistics(cls, stats: Statistics, scale_type: str) -> DataDescription:
        """The description of the data `stats` summarises.

        Examples
        --------
        >>> import irr
        >>> ag = irr.Agreement([1, 2, None, 2], [2, 2, 1, 2])
        >>> d = DataDescription.from_statistics(ag.statistics, "nominal")
        >>> d.n_subjects, d.n_ratings, d.n_missing_ratings, d.subjects_by_ratings
        (4, 7, 1, ((1, 1), (2, 3)))
        """
        if scale_type not in SCALE_TYPES:
            raise ValueError(f"scale_type must be one of {SCALE_TYPES}, got {scale_type!r}")
        by_ratings = stats.subjects_by_ratings()
        n_ratings = sum(r * n for r, n in by_ratings.items())
        per_rater = stats.ratings_per_rater()
        return cls(
            n_subjects=stats.n_subjects,
            n_raters=stats.n_raters,
            raters=tuple(map(str, stats.raters)) if stats.by_rater else (),
            categories=tuple(map(str, stats.categories)),
            category_values=tuple(jsonable(list(stats.categories))),
            scale_type=scale_type,
            n_ratings=n_ratings,
            n_missing_ratings=(stats.n_subjects * stats.n_raters - n_ratings
                               if stats.by_rater else 0),
            n_incomplete=stats.n_missing,
            subjects_by_ratings=tuple(by_ratings.items()),
            ratings_per_rater=() if per_rater is None else tuple(map(int, per_rater)),
        )

    @classmethod
    def from_measurements(cls, measurements: Measurements) -> DataDescription:
        """The description of continuous measurements: a subject x rater cell with several
        measurements (replicates) counts once among the ratings given, and
        :attr:`n_measurements` counts every measurement.

        Examples
        --------
        >>> from irr._measurements import Measurements
        >>> m = Measurements.from_long([1, 1, 1, 2, 2, 3], ["a", "a", "b", "a", "b", "a"],
        ...                            [120.5, 121.0, 119.0, 98.0, 99.5, 110.0])
        >>> d = DataDescription.from_measurements(m)
        >>> d.n_subjects, d.n_ratings, d.n_missing_ratings, d.n_measurements
        (3, 5, 1, 6)
        >>> d.facts()[2:4]  # doctest: +NORMALIZE_WHITESPACE
        [('Scale', 'continuous, 6 distinct values from 98 to 121'),
         ('Subject-rater pairs measured', '5')]
        """
        rated = measurements.replicates > 0
        per_subject = rated.sum(axis=1)
        by_ratings = np.bincount(per_subject, minlength=measurements.n_raters + 1)
        n_ratings = int(rated.sum())
        values = measurements.value
        per_pair = measurements.replicates[rated]
        replicates = ((int(per_pair.min()), int(per_pair.max()))
                      if per_pair.size and per_pair.max() > 1 else ())
        return cls(
            n_subjects=measurements.n_subjects,
            n_raters=measurements.n_raters,
            raters=tuple(measurements.raters),
            categories=(),
            scale_type="continuous",
            n_ratings=n_ratings,
            n_missing_ratings=rated.size - n_ratings,
            n_incomplete=int((per_subject < measurements.n_raters).sum()),
            subjects_by_ratings=tuple((r, int(n)) for r, n in enumerate(by_ratings) if n),
            ratings_per_rater=tuple(map(int, rated.sum(axis=0))),
            n_measurements=measurements.n_measurements,
            n_values=int(np.unique(values).size),
            value_range=(float(values.min()), float(values.max())) if values.size else (),
            replicates=replicates,
        )

    @classmethod
    def from_lazy(cls, lazy: LazyMeasurements) -> DataDescription:
        """The description of continuous measurements summed by a lazy frame's engine:
        the counts it made (rows, missing measurements), no values."""
        n, k = lazy.n_rows, len(lazy.raters)
        return cls(n_subjects=n, n_raters=k, raters=tuple(lazy.raters), categories=(),
                   scale_type="continuous", n_ratings=n * k - lazy.n_missing_values,
                   n_missing_ratings=lazy.n_missing_values, n_incomplete=lazy.n_incomplete,
                   subjects_by_ratings=(),
                   ratings_per_rater=tuple(n - m for m in lazy.missing_per_rater))

    def design(self) -> tuple[str, str] | None:
        """The header fact of a sparse design (each subject rated by a few of many
        raters), None for another design or continuous measurements.

        Examples
        --------
        >>> import pandas as pd, irr
        >>> long = pd.DataFrame({"item": [1, 1, 1, 2, 2, 2], "who": list("abcdef"),
        ...                      "label": list("xxyyyx")})
        >>> ag = irr.Agreement.from_long(long, subject="item", rater="who", rating="label")
        >>> DataDescription.from_statistics(ag.statistics, "nominal").design()
        ('Design:', 'sparse, each subject rated by 3 of 6 raters')
        """
        if not (self.raters and self.subjects_by_ratings) or self.scale_type == "continuous":
            return None
        counts = [r for r, _ in self.subjects_by_ratings]
        return design_fact(self.n_raters, min(counts), max(counts))

    def facts(self) -> list[tuple[str, str]]:
        """The description as (label, value) lines, in reading order.

        Examples
        --------
        >>> import irr
        >>> d = DataDescription.from_statistics(irr.Agreement([1, 2], [2, 2]).statistics,
        ...                                     "nominal")
        >>> d.facts()[:3]
        [('Subjects', '2'), ('Raters', '2: rater1, rater2'), ('Scale', 'nominal, 2 categories')]
        """
        shown = list(self.raters[:10]) + (["..."] if len(self.raters) > 12 else
                                          list(self.raters[10:]))
        raters = f"{self.n_raters:,}: {', '.join(shown)}" if self.raters else \
            f"{self.n_raters:,} (counts: no rater identity)"
        k = len(self.categories)
        scale = f"{self.scale_type}, {k} categories"
        if self.value_range:
            low, high = self.value_range
            scale = f"continuous, {self.n_values:,} distinct values from {low:g} to {high:g}"
        elif self.scale_type == "continuous":
            scale = f"continuous, {k} distinct values" if k else "continuous"
        lines = [("Subjects", f"{self.n_subjects:,}"), ("Raters", raters), ("Scale", scale)]
        if self.scale_type != "continuous" and k <= 12:
            lines.append(("Categories", ", ".join(self.categories)))
        if self.n_measurements > self.n_ratings:
            # with replicates a "rating" is a (subject, rater) pair measured, not a reading
            lines.append(("Subject-rater pairs measured", f"{self.n_ratings:,}"))
            fewest, most = self.replicates or (2, 2)
            times = f"{fewest}" if fewest == most else f"{fewest}\u2013{most}"
            lines.append(("Measurements", f"{self.n_measurements:,} (replicates: {times} "
                          "measurements of a subject by one rater)"))
        else:
            lines.append(("Ratings", f"{self.n_ratings:,}"))
        design = self.design()
        if design is not None:  # a crowd's design: its empty cells are not missing ratings
            cells = self.n_subjects * self.n_raters
            lines.append(("Design", f"{design[1]} ({self.n_missing_ratings:,} of {cells:,} "
                          "subject-rater cells empty by design)"))
        elif self.raters and self.n_missing_ratings:
            share = self.n_missing_ratings / (self.n_subjects * self.n_raters)
            lines.append(("Missing ratings", f"{self.n_missing_ratings:,} of "
                          f"{self.n_subjects * self.n_raters:,} ({share:.1%}), in "
                          f"{self.n_incomplete:,} subject(s)"))
        elif self.raters:
            lines.append(("Missing ratings", "none"))
        if len(self.subjects_by_ratings) > 1 or not self.raters:
            lines.append(("Ratings per subject", "; ".join(
                f"{r}: {n:,} subject{'s' * (n != 1)}" for r, n in self.subjects_by_ratings)))
        counts = self.ratings_per_rater
        if counts and len(set(counts)) > 1 and len(counts) > 12:  # a summary, not a list
            lines.append(("Subjects rated by each rater", f"median {np.median(counts):g}, "
                          f"from {min(counts):,} to {max(counts):,}"))
        elif counts and len(set(counts)) > 1:
            lines.append(("Subjects rated by each rater", ", ".join(
                f"{name} {n:,}" for name, n in zip(self.raters, counts, strict=True))))
        return lines

    def to_dict(self) -> dict[str, Any]:
        return {
            "n_subjects": self.n_subjects,
            "n_raters": self.n_raters,
            "raters": list(self.raters),
            "scale_type": self.scale_type,
            "n_categories": len(self.categories),
            "categories": list(self.category_values or self.categories),
            "n_ratings": self.n_ratings,
            "n_missing_ratings": self.n_missing_ratings,
            "n_incomplete": self.n_incomplete,
            "subjects_by_ratings": [{"ratings": r, "subjects": n}
                                    for r, n in self.subjects_by_ratings],
            "ratings_per_rater": dict(zip(self.raters, self.ratings_per_rater, strict=True)),
            **({"n_measurements": self.n_measurements, "n_values": self.n_values,
                "value_range": list(self.value_range)} if self.value_range else {}),
        }


class Figure:
    """A figure of a report: its caption and the SVG text (from
    :func:`irr.plotting.to_svg`).

    Given `draw` instead of `svg` (a callable returning the SVG text), the figure is drawn
    the first time ``svg`` is read, once: a report that is only printed never draws its
    figures (the caption is known without drawing). Equal figures have equal captions
    and SVG; pickling draws the figure first.

    Examples
    --------
    >>> calls = []
    >>> fig = Figure("A chart.", draw=lambda: calls.append(1) or "<svg/>")
    >>> calls, fig.caption
    ([], 'A chart.')
    >>> fig.svg, fig.svg, calls
    ('<svg/>', '<svg/>', [1])
    >>> fig == Figure("A chart.", "<svg/>")
    True
    """

    __slots__ = ("_draw", "_svg", "caption")

    def __init__(self, caption: str, svg: str | None = None, *,
                 draw: Callable[[], str] | None = None) -> None:
        if (svg is None) == (draw is None):
            raise TypeError("Figure takes either `svg` or `draw`, not both or neither.")
        self.caption = caption
        self._svg = svg
        self._draw = draw

    @property
    def svg(self) -> str:
        """The SVG text (drawn now if it was not yet)."""
        if self._svg is None:
            self._svg = self._draw()
            self._draw = None
        return self._svg

    @property
    def drawn(self) -> bool:
        """Whether the SVG text exists yet."""
        return self._svg is not None

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, Figure):
            return NotImplemented
        return self.caption == other.caption and self.svg == other.svg

    __hash__ = None  # type: ignore[assignment]

    def __repr__(self) -> str:
        return f"Figure(caption={self.caption!r}, drawn={self.drawn})"

    def __getstate__(self) -> dict[str, Any]:
        return {"caption": self.caption, "svg": self.svg}

    def __setstate__(self, state: dict[str, Any]) -> None:
        self.caption, self._svg, self._draw = state["caption"], state["svg"], None


@dataclass(frozen=True)
class ChecklistItem:
    """One GRRAS item and whether the report covers it.

    ``status`` is ``'covered'`` (the report gives it), ``'partly'`` (the report gives part
    of it; ``detail`` says what the author adds) or ``'author'`` (only the author can).
    """

    number: int
    section: str
    item: str
    status: str
    detail: str


@dataclass(frozen=True)
class ReliabilityReport:
    """A reliability study's report: the data, the chosen coefficients, their intervals
    and bands, sentences for the results section, a methods paragraph, figures and a GRRAS
    checklist. Built by :func:`irr.report`; renders as text (``str(rep)``), markdown,
    LaTeX, CSV, JSON and a self-contained HTML page.

    Attributes
    ----------
    title : str
    data : DataDescription
    results : tuple of Result
        The coefficients, in the order asked for.
    statistics : tuple of str
        The names the results were chosen by (:data:`irr.registry.STATISTICS`), or
        ``("all",)``; empty when the results were given directly (the JSON then lists
        their ``coefficient`` names).
    selection : {'recommended', 'chosen', 'all'}
        How they were chosen: the default set for the data, by name, or every one that
        applies.
    info : tuple of (str, str)
        Further header facts (columns set aside as identifiers, the input's scale line).
    notes : tuple of str
        What reading the data and computing found (columns set aside, coefficients not
        computed and why, data warnings).
    style : {'apa', 'plain'}
        The style of the sentences.
    narrative : {'full', 'sentences', 'none'}
        What the renderings add to the tables: sentences, the methods paragraph and the
        checklist (``'full'``: ``irr report``), the sentences only, or nothing (``irr
        kappa``, ``irr multi``, ``irr icc``).
    figures : tuple of Figure
    groups : DataFrame, optional
        The per-group results (:func:`irr.by`) when the report was made by group.
    seed : int, optional
        The bootstrap seed of the results that were resampled.
    """

    title: str
    data: DataDescription
    results: tuple[Result, ...]
    statistics: tuple[str, ...] = ()
    selection: str = "chosen"
    info: tuple[tuple[str, str], ...] = ()
    notes: tuple[str, ...] = ()
    style: str = "apa"
    narrative: str = "full"
    figures: tuple[Figure, ...] = ()
    groups: pd.DataFrame | None = field(default=None, compare=False)
    seed: int | None = None

    def __post_init__(self) -> None:
        if self.narrative not in NARRATIVES:
            raise ValueError(f"narrative must be one of {NARRATIVES}, got {self.narrative!r}")

    @property
    def _sentences(self) -> bool:
        return self.narrative != "none"

    @property
    def _full(self) -> bool:
        return self.narrative == "full"

    # -- content ---------------------------------------------------------------------
    @property
    def sentences(self) -> list[str]:
        """One sentence per result, for the results section, each naming its interval's
        method (:func:`irr._sentences.report_sentences`)."""
        # each band with the scale it is read on: "poor (McBride, 2005)"
        return report_sentences(self.results, self.style, citation=True)

    @property
    def methods(self) -> str:
        """A methods paragraph: the data, the coefficients with their citations, weights,
        standard errors and interval methods, missing ratings, benchmark scales, software."""
        d = self.data
        return methods_paragraph(
            self.results, n_subjects=d.n_subjects, n_raters=d.n_raters, raters=d.raters,
            n_categories=None if d.scale_type == "continuous" else len(d.categories),
            scale_type=d.scale_type, n_missing_ratings=d.n_missing_ratings,
            n_incomplete_subjects=d.n_incomplete, style=self.style,
            ratings_per_subject=(min(r for r, _ in d.subjects_by_ratings),
                                 max(r for r, _ in d.subjects_by_ratings))
            if d.subjects_by_ratings else None, n_measurements=d.n_measurements,
            replicates=(d.replicates[0], d.replicates[-1]) if d.replicates else None)

    @property
    def references(self) -> list[str]:
        """The works the methods paragraph cites, as APA reference entries."""
        return references(self.results)

    def _band(self, result: Result) -> tuple[str, str]:
        return band_and_citation(result, None)

    def checklist(self) -> list[ChecklistItem]:
        """The GRRAS items (Kottner et al., 2011) and which of them this report covers.

        Examples
        --------
        >>> import irr
        >>> rep = irr.report(irr.datasets.load("anxiety"), figures=False)
        >>> [(i.number, i.status) for i in rep.checklist() if i.status != "author"]
        [(6, 'partly'), (10, 'covered'), (11, 'covered'), (13, 'covered'), (15, 'covered')]
        """
        d = self.data
        with_ci = [r for r in self.results
                   if math.isfinite(r.ci.low) or math.isfinite(r.ci.high)]
        per_subject = "; ".join(f"{n:,} subject(s) with {r} rating(s)"
                                for r, n in d.subjects_by_ratings)
        covered = {
            6: ("partly", f"The report states the numbers ({d.n_raters} raters, "
                          f"{d.n_subjects:,} subjects); the author explains how they were "
                          "chosen."),
            10: ("covered", "Methods paragraph and the notes under the results table."),
            11: ("covered", f"{d.n_raters} raters, {d.n_subjects:,} subjects: "
                            f"{per_subject}."),
            13: ("covered" if len(with_ci) == len(self.results) else "partly",
                 f"{len(with_ci)} of {len(self.results)} estimate(s) with a confidence "
                 "interval" + ("." if len(with_ci) == len(self.results)
                               else "; the others have none (see the notes).")),
            15: ("covered", "This report, or its CSV/JSON output, as supplementary "
                            "material."),
        }
        return [ChecklistItem(number, section, item,
                              *covered.get(number, ("author", "")))
                for number, section, item in GRRAS]

    # -- tables ----------------------------------------------------------------------
    def summary(self) -> Summary:
        """The results as a statsmodels ``Summary`` (header, coefficients, bands, notes)."""
        return results_summary(*self._summary_arguments())

    def _summary_arguments(self) -> tuple[list[Result], str, list[tuple[str, str]], list[str]]:
        """What :meth:`summary` is built from (its text needs no statsmodels:
        :func:`irr.summary.results_text`)."""
        design = self.data.design()  # a sparse design is said instead of missing ratings
        parts = [(r, r.parts()) for r in self.results]
        # a result of several rows (limits of agreement, measurement error) keeps its notes
        # (how the SD was formed, what the pooled SD assumes), which its rows do not carry
        whole = [n for r, rows in parts if rows != [r] for n in r.notes]
        return ([p for _, rows in parts for p in rows], self.title,
                [*self.info, *([design] if design else [])],
                list(dict.fromkeys([*whole, *self.notes])))

    def to_frame(self) -> pd.DataFrame:
        """One row per result: the columns of :meth:`irr.Result.to_frame` (``seed`` for
        every row; ``test`` after ``statistic``: what the statistic is, with its degrees of
        freedom, ``z``, ``t(11)``, ``F(19, 38)``), then ``raters`` and ``band``; the CSV
        output has exactly these.

        Examples
        --------
        >>> import irr
        >>> rep = irr.report(irr.datasets.load("anxiety"), figures=False)
        >>> list(rep.to_frame().columns[:4])
        ['coefficient', 'estimate', 'se', 'statistic']
        """
        rows = []
        for r in self.results:
            row = r.to_frame().reset_index()
            row["seed"] = pd.array([r.seed] * len(row), dtype="Int64")
            if "statistic" in row and len(r.parts()) == len(row):
                row.insert(list(row.columns).index("statistic") + 1, "test", [
                    statistic_label(p, self.style, sample_size=False)
                    if math.isfinite(p.statistic) else None for p in r.parts()])
            row["raters"] = ", ".join(r.raters)
            row["band"] = self._band(r)[0] or None
            rows.append(row)
        if not rows:
            return pd.DataFrame()
        table = pd.concat(rows, ignore_index=True)
        table["n_resamples"] = table["n_resamples"].astype("Int64")  # 9999, not 9999.0
        return table

    def to_csv(self) -> str:
        """The CSV text of :meth:`to_frame`."""
        return self.to_frame().to_csv(index=False)

    def _extra_info(self) -> list[tuple[str, str]]:
        """The header facts the data description and :meth:`inference_facts` do not
        already give, labels without their colon."""
        return [(k.rstrip(":"), v) for k, v in self.info
                if k.rstrip(":") not in ("Categories", "Scale", "Bootstrap seed",
                                         "Missing ratings")]

    def inference_facts(self) -> list[tuple[str, str]]:
        """The confidence level, the interval methods and the bootstrap (resamples, what
        was resampled, seed), as (label, value) lines.

        Examples
        --------
        >>> import irr
        >>> rep = irr.report(irr.datasets.load("anxiety"), figures=False)
        >>> for label, value in rep.inference_facts():
        ...     print(f"{label}: {value}")
        Confidence level: 95%
        Interval methods: Wald; percentile bootstrap; approximate F, Satterthwaite df
        Bootstrap: 9,999 resamples of subjects, seed 0
        """
        if not self.results:
            return []
        lines = [("Confidence level", f"{100 * self.results[0].ci.confidence_level:g}%")]
        methods = [_method(r) for r in self.results
                   if math.isfinite(r.ci.low) or math.isfinite(r.ci.high)]
        if methods:
            lines.append(("Interval methods", "; ".join(dict.fromkeys(methods))))
        drawn = [r for r in self.results if not math.isnan(r.n_resamples)]
        if drawn:
            boot = drawn[0].bootstrap
            seeds = ", ".join(dict.fromkeys(str(r.seed) for r in drawn))
            lines.append(("Bootstrap", f"{boot.n_resamples:,} resamples of "
                          f"{boot.resampling}, seed {seeds}"))
        # the table's Test and p columns read as two-sided tests of 0 unless said otherwise
        null = null_fact(self.results)
        one_sided = any(r.alternative != "two-sided" and r.statistic_name in ("z", "t")
                        and not math.isnan(r.pvalue) for r in self.results)
        if null or one_sided:
            lines.append(("Alternative", alternative_fact(self.results)))
        if null:
            lines.append(("H0", null))
        return lines

    def _all_notes(self) -> list[str]:
        """Every note the text summary prints under its tables, in its order."""
        extra = "\n".join(results_tables(*self._summary_arguments())[1])
        notes = []
        for line in extra.split("\n"):
            head, _, rest = line.partition("] ")
            if head.startswith("[") and head[1:].isdigit():
                notes.append(rest)
            elif notes:
                notes[-1] += " " + line.strip()
            elif line.strip():
                notes.append(line.strip())
        return notes

    def to_dict(self) -> dict[str, Any]:
        """Everything the text shows, as JSON-ready data (schema :data:`SCHEMA_VERSION`)."""
        level = self.results[0].ci.confidence_level if self.results else math.nan
        drawn = [r for r in self.results if not math.isnan(r.n_resamples)]
        results = []
        sentences = self.sentences if self._sentences else [None] * len(self.results)
        for r, sentence in zip(self.results, sentences, strict=True):
            band, attribution = self._band(r)
            entry = r.to_dict()
            entry.update({
                "seed": r.seed,
                "ci_method_name": _method(r),
                "ci_note": r.ci.note or None,
                "notes": list(r.notes),
                "band": band or None,
                "band_scale": attribution or None,
                "symbol": r.symbol,
            })
            parts = r.parts()
            if len(parts) > 1:  # the quantities of its rows: bias and limits, slope and ...
                entry["parts"] = [{key: value for key, value in p.to_dict().items()
                                   if key in _PART_KEYS} | {"symbol": p.symbol}
                                  for p in parts]
            if self._sentences:
                entry["sentence"] = sentence
            results.append(entry)
        payload: dict[str, Any] = {
            "schema": SCHEMA_NAME,
            "schema_version": SCHEMA_VERSION,
            "software": {"name": "irrstats", "version": __version__},
            "title": self.title,
            "data": self.data.to_dict(),
            "selection": self.selection,
            # a report of results given directly (irr kappa, irr icc) names its results
            "statistics": list(self.statistics) or [r.coefficient for r in self.results],
            "inference": {
                "confidence_level": level,
                "ci_methods": list(dict.fromkeys(r.ci.method for r in self.results)),
                "n_resamples": int(drawn[0].n_resamples) if drawn else None,
                "seed": self.seed if drawn else None,
                "resampling": drawn[0].bootstrap.resampling if drawn else None,
                # the header's words: "two-sided (ICC F tests: one-sided, greater)"
                "alternative": (alternative_fact([p for r in self.results for p in r.parts()])
                                or self.results[0].alternative) if self.results else None,
            },
            "info": {k.rstrip(":"): v for k, v in self.info},
            "results": results,
            "notes": self._all_notes(),
        }
        if self._sentences:
            payload["report"] = self.sentences
        if self._full:
            payload["methods"] = self.methods
            payload["references"] = self.references
            payload["checklist"] = [
                {"number": i.number, "section": i.section, "item": i.item,
                 "status": i.status, "detail": i.detail} for i in self.checklist()]
        if self.groups is not None:
            payload["groups"] = json.loads(self.groups.to_json(orient="records"))
        if self.figures:
            payload["figures"] = [f.caption for f in self.figures]
        return jsonable(payload)

    def to_json(self) -> str:
        """:meth:`to_dict` as JSON text (UTF-8, indented, ``null`` for undefined numbers)."""
        return json.dumps(self.to_dict(), indent=2, ensure_ascii=False) + "\n"

    # -- text ------------------------------------------------------------------------
    def to_text(self) -> str:
        """The statsmodels summary, then the sentences, the methods paragraph and the
        references."""
        text = results_text(*self._summary_arguments())
        if self.groups is not None:
            text += "\n\nBy group:\n" + self._group_text()
        if self._sentences:
            text += "\n\nReport:\n" + "\n".join(f"- {s}" for s in self.sentences)
        if self._full:
            text += "\n\nMethods:\n" + _wrap(self.methods)
            references = self.references  # a property: found once
            if references:
                text += "\n\nReferences:\n" + "\n".join(f"- {ref}" for ref in references)
        return text + "\n"

    def __str__(self) -> str:
        return self.to_text()

    def __repr__(self) -> str:
        return self.to_text()

    def to_latex(self) -> str:
        """The summary as LaTeX tabulars, then the sentences and the methods paragraph."""
        text = self.summary().as_latex()
        if self.groups is not None:
            header, rows = self._group_rows()
            text += ("\n\n\\begin{tabular}{" + "l" * len(header) + "}\n\\hline\n"
                     + " & ".join(map(escape_latex, header)) + " \\\\\n\\hline\n"
                     + "".join(" & ".join(map(escape_latex, row)) + " \\\\\n"
                               for row in rows)
                     + "\\hline\n\\end{tabular}")
        if self._sentences:
            text += "\n\n\\begin{itemize}\n" + "\n".join(
                f"\\item {escape_latex(s)}" for s in self.sentences) + "\n\\end{itemize}"
        if self._full:
            text += "\n\n" + escape_latex(self.methods)
        return text + "\n"

    def _table_rows(self) -> tuple[list[str], list[list[str]]]:
        """The results table of the markdown and HTML renderings: one number format
        (three decimals), the confidence level in the interval's header; a result of
        several quantities (bias and limits of agreement) gives a row for each, as in the
        text summary and the CSV."""
        level = f"{100 * self.results[0].ci.confidence_level:g}%" if self.results else ""
        parts = [p for r in self.results for p in r.parts()]
        tested = any(math.isfinite(r.pvalue) for r in parts)
        header = ["Statistic", "n", "Estimate", "SE", f"{level} CI", "CI method"]
        if tested:
            header += ["Test", "p"]
        header += ["Band"]
        rows = []
        for r in parts:
            ci = r.ci
            has_ci = math.isfinite(ci.low) or math.isfinite(ci.high)
            band, attribution = self._band(r)
            row = [r.coefficient, f"{_n_used(r):,}", _num(r.estimate),
                   _num(r.se), f"[{_num(ci.low)}, {_num(ci.high)}]" if has_ci else "",
                   _method(r) if has_ci else ""]
            if tested:
                row += [f"{statistic_label(r, self.style, sample_size=False)} = {r.statistic:.2f}"
                        if math.isfinite(r.statistic) else "",
                        _pvalue(r.pvalue)]
            row.append(f"{band} ({attribution})" if band else "")
            rows.append(row)
        return header, rows

    def _group_rows(self) -> tuple[list[str], list[list[str]]]:
        """The per-group table of every rendering: the group columns, then the statistic,
        n, the estimate and its interval in the results table's number format, the band
        and why a group has no estimate."""
        frame = self.groups
        if frame is None:
            return [], []
        keys = list(frame.columns[:list(frame.columns).index("coefficient")])
        level = (f"{100 * float(frame['confidence_level'].iloc[0]):g}% "
                 if len(frame) else "")
        header = [*map(str, keys), "Statistic", "n", "Estimate", "SE", f"{level}CI",
                  "CI method", "Band"]
        reasons = "reason" in frame.columns and frame["reason"].notna().any()
        if reasons:
            header.append("Not estimated")
        names = {p.coefficient: _method(p) for r in self.results for p in r.parts()}
        rows = []
        for row in frame.to_dict("records"):
            has_ci = math.isfinite(row["ci_low"]) or math.isfinite(row["ci_high"])
            cells = [*(str(row[k]) for k in keys), str(row["coefficient"]),
                     f"{int(row['n_subjects']):,}",
                     _num(row["estimate"]), _num(row["se"]),
                     f"[{_num(row['ci_low'])}, {_num(row['ci_high'])}]" if has_ci else "",
                     names.get(row["coefficient"], str(row["ci_method"])) if has_ci else "",
                     "" if row["band"] is None or row["band"] != row["band"]
                     else str(row["band"])]
            if reasons:
                reason = row.get("reason")
                cells.append("" if reason is None or reason != reason else str(reason))
            rows.append(cells)
        return header, rows

    def _group_text(self) -> str:
        """The per-group table as aligned plain text ("" without groups)."""
        header, rows = self._group_rows()
        if not header:
            return ""
        widths = [max(len(c) for c in col) for col in zip(header, *rows, strict=True)]
        right = {header.index(h) for h in ("n", "Estimate", "SE")}

        def line(cells: list[str]) -> str:
            return "  ".join(c.rjust(w) if i in right else c.ljust(w)
                             for i, (c, w) in enumerate(zip(cells, widths, strict=True))
                             ).rstrip()

        rule = "-" * sum(widths) + "-" * (2 * (len(widths) - 1))
        return "\n".join([line(header), rule, *map(line, rows)])

    def to_markdown(self) -> str:
        """A markdown document: the data, the results table, notes, sentences, methods,
        references and the GRRAS checklist."""
        esc = escape_markdown
        lines = [f"## {esc(self.title)}", ""]
        lines += [f"- {esc(k)}: {esc(v)}" for k, v in self.data.facts()]
        lines += [f"- {esc(k)}: {esc(v)}"
                  for k, v in [*self.inference_facts(), *self._extra_info()]]
        lines.append("")
        header, rows = self._table_rows()
        lines.append("| " + " | ".join(map(esc, header)) + " |")
        lines.append("| " + " | ".join("---" if i == 0 else "---:" if 0 < i < 5 else "---"
                                       for i in range(len(header))) + " |")
        lines += ["| " + " | ".join(map(esc, row)) + " |" for row in rows]
        notes = self._all_notes()
        if notes:
            lines += ["", "Notes:", ""]
            lines += [f"{i}. {esc(n)}" for i, n in enumerate(notes, start=1)]
        if self.groups is not None:
            header, rows = self._group_rows()
            numeric = {header.index(h) for h in ("n", "Estimate", "SE")}
            lines += ["", "### By group", ""]
            lines.append("| " + " | ".join(map(esc, header)) + " |")
            lines.append("| " + " | ".join("---:" if i in numeric else "---"
                                           for i in range(len(header))) + " |")
            lines += ["| " + " | ".join(map(esc, row)) + " |" for row in rows]
        if self._sentences:
            lines += ["", "### Results in words", ""]
            lines += [f"- {esc(s)}" for s in self.sentences]
        if self._full:
            lines += ["", "### Methods", "", esc(self.methods)]
            if self.references:
                lines += ["", "### References", ""]
                lines += [f"- {esc(ref)}" for ref in self.references]
            lines += ["", "### Reporting checklist (GRRAS)", "",
                      "| # | Item | This report |", "| ---: | --- | --- |"]
            lines += [f"| {i.number} | {esc(i.item)} | "
                      f"{esc(_STATUS[i.status] + (': ' + i.detail if i.detail else ''))} |"
                      for i in self.checklist()]
        return "\n".join(lines) + "\n"

    # -- HTML ------------------------------------------------------------------------
    def _repr_html_(self) -> str:
        return self.summary().as_html()

    def to_html(self) -> str:
        """One self-contained HTML page (no scripts, no network): the data, the results
        with intervals and bands, the sentences, the figures (embedded SVG), results by
        group, the methods paragraph with references, and the GRRAS checklist.

        Every text from the data (raters, categories, units, titles, notes) is escaped,
        and the page's Content-Security-Policy forbids script."""
        esc = escape_html
        parts = [f"<header><h1>{esc(self.title)}</h1>"
                 f"<p class=\"byline\">Reliability report made with irr (irrstats) "
                 f"{esc(__version__)}</p></header>", "<main>"]
        facts = [*self.data.facts(), *self.inference_facts(), *self._extra_info()]
        parts.append("<section id=\"data\"><h2>Data</h2><table class=\"facts\"><tbody>"
                     + "".join(f"<tr><th scope=\"row\">{esc(k)}</th><td>{esc(v)}</td></tr>"
                               for k, v in facts)
                     + "</tbody></table></section>")
        header, rows = self._table_rows()
        table = ("<table class=\"results\"><thead><tr>"
                 + "".join(f"<th scope=\"col\">{esc(h)}</th>" for h in header)
                 + "</tr></thead><tbody>"
                 + "".join("<tr>" + "".join(
                     f"<th scope=\"row\">{esc(c)}</th>" if i == 0 else
                     f"<td class=\"num\">{esc(c)}</td>" if 0 < i < 5 else f"<td>{esc(c)}</td>"
                     for i, c in enumerate(row)) + "</tr>" for row in rows)
                 + "</tbody></table>")
        notes = self._all_notes()
        note_list = ("<ol class=\"notes\">" + "".join(f"<li>{esc(n)}</li>" for n in notes)
                     + "</ol>") if notes else ""
        parts.append(f"<section id=\"results\"><h2>Results</h2>{table}"
                     f"{'<h3>Notes</h3>' + note_list if notes else ''}</section>")
        if self._sentences:
            parts.append("<section id=\"words\"><h2>Results in words</h2><ul>"
                         + "".join(f"<li>{esc(s)}</li>" for s in self.sentences)
                         + "</ul></section>")
        if self.groups is not None:
            parts.append("<section id=\"groups\"><h2>By group</h2>"
                         + _rows_html(*self._group_rows()) + "</section>")
        if self.figures:
            parts.append("<section id=\"figures\"><h2>Figures</h2>" + "".join(
                f"<figure><img alt=\"{esc(f.caption)}\"{_size_style(f.svg)} "
                f"src=\"data:image/svg+xml;base64,"
                f"{base64.b64encode(f.svg.encode()).decode()}\">"
                f"<figcaption>Figure {i}. {esc(f.caption)}</figcaption></figure>"
                for i, f in enumerate(self.figures, start=1)) + "</section>")
        if self._full:
            refs = "".join(f"<li>{esc(ref)}</li>" for ref in self.references)
            parts.append("<section id=\"methods\"><h2>Methods</h2>"
                         f"<p>{esc(self.methods)}</p>"
                         + (f"<h3>References</h3><ul class=\"refs\">{refs}</ul>" if refs
                            else "") + "</section>")
            parts.append(
                "<section id=\"checklist\"><h2>Reporting checklist (GRRAS)</h2>"
                "<p>The items of the Guidelines for Reporting Reliability and Agreement "
                "Studies (Kottner et al., 2011) and which of them this report covers.</p>"
                "<table class=\"checklist\"><thead><tr><th scope=\"col\">#</th>"
                "<th scope=\"col\">Section</th><th scope=\"col\">Item</th>"
                "<th scope=\"col\">This report</th></tr></thead><tbody>"
                + "".join(
                    f"<tr class=\"{i.status}\"><td class=\"num\">{i.number}</td>"
                    f"<td>{esc(i.section)}</td><td>{esc(i.item)}</td>"
                    f"<td><strong>{esc(_STATUS[i.status])}</strong>"
                    f"{'. ' + esc(i.detail) if i.detail else ''}</td></tr>"
                    for i in self.checklist())
                + f"</tbody></table><p class=\"ref\">{esc(GRRAS_REFERENCE)}</p></section>")
        parts.append("</main>")
        return html_page(self.title, "\n".join(parts), _CSS)

    def render(self, fmt: str) -> str:
        """The report in `fmt`: ``'text'``, ``'markdown'``, ``'html'``, ``'latex'``,
        ``'csv'`` or ``'json'``.

        Parameters
        ----------
        fmt : {'text', 'markdown', 'html', 'latex', 'csv', 'json'}
            The format.
        """
        renderers = {"text": self.to_text, "markdown": self.to_markdown, "html": self.to_html,
                     "latex": self.to_latex, "csv": self.to_csv, "json": self.to_json}
        if fmt not in renderers:
            raise ValueError(f"fmt must be one of {', '.join(renderers)}, got {fmt!r}")
        return renderers[fmt]()

    def save(self, path: Any, fmt: str | None = None, *, overwrite: bool = False) -> None:
        """Write the report to `path` in `fmt` (default: from the suffix, ``.html``,
        ``.md``, ``.json``, ``.csv``, ``.tex``, else text); an existing file is kept
        unless `overwrite` (FileExistsError).

        The file is written atomically (a temporary file renamed into place), and only a
        regular file: a symbolic link is refused (ValueError), never written through.

        Parameters
        ----------
        path : str or path-like
            The file to write.
        fmt : {'text', 'markdown', 'html', 'latex', 'csv', 'json'}, optional
            The format (default: from the suffix).
        overwrite : bool, default False
            Replace an existing file.
        """
        target = pathlib.Path(path)
        if fmt is None:
            fmt = _SUFFIXES.get(target.suffix.lower(), "text")
        write_file(target, self.render(fmt), overwrite=overwrite)


_SUFFIXES = {".html": "html", ".htm": "html", ".md": "markdown", ".json": "json",
             ".csv": "csv", ".tex": "latex", ".txt": "text"}
_STATUS = {"covered": "Covered", "partly": "Partly covered", "author": "Author to add"}


def _num(value: float, digits: int = 3) -> str:
    """A table cell: the ASCII minus of to_frame() and CSV, "" when undefined; an
    interval's open end is ∞ or −∞."""
    if value is not None and math.isinf(value):
        return format_number(value)
    return format_number(value, digits, minus="-", undefined="")


#: Figures are shown at this multiple of their size in CSS pixels (a 3.5 in figure: 538 px),
#: the same for every figure, so their fonts match.
FIGURE_ZOOM = 1.6
_SVG_WIDTH = re.compile(r'<svg[^>]*?\swidth="([\d.]+)pt"')


def _size_style(svg: str) -> str:
    """`` style="width: ...px"``: the figure's width in points, zoomed (empty when the SVG
    does not give its width in points)."""
    found = _SVG_WIDTH.search(svg)
    if not found:
        return ""
    return f" style=\"width: {float(found.group(1)) * 4 / 3 * FIGURE_ZOOM:.0f}px\""


def _n_used(result: Result) -> int:
    """The subjects the estimate used, as its sentence gives them: ``n_subjects`` (the
    subjects left out for missing ratings are already out of it), or for the Gwet family
    the subjects with two or more ratings."""
    paired = getattr(result, "n_paired", 0)
    return paired if 0 < paired < result.n_subjects else result.n_subjects


def _method(result: Result) -> str:
    """The interval's method in words (the ICC's exact interval is an F interval)."""
    if result.ci.method == "exact" and result.statistic_name == "F":
        return "exact F"
    return result.ci.method_name


def _pvalue(p: float) -> str:
    """A p-value to three decimals, ``<0.001`` below; empty when undefined."""
    if p is None or not math.isfinite(p):
        return ""
    return "<0.001" if p < 0.001 else f"{p:.3f}"


def _wrap(text: str, width: int = 100) -> str:
    import textwrap

    return "\n".join(textwrap.wrap(text, width))


def _rows_html(header: list[str], rows: list[list[str]]) -> str:
    """A table of the per-group rows (numbers right-aligned)."""
    esc = escape_html
    numeric = {header.index(h) for h in ("n", "Estimate", "SE", header[header.index("SE") + 1])}
    return ("<table class=\"groups\"><thead><tr>"
            + "".join(f"<th scope=\"col\">{esc(c)}</th>" for c in header)
            + "</tr></thead><tbody>"
            + "".join("<tr>" + "".join(
                f"<td class=\"num\">{esc(c)}</td>" if i in numeric else f"<td>{esc(c)}</td>"
                for i, c in enumerate(row)) + "</tr>" for row in rows)
            + "</tbody></table>")


def jsonable(value: Any) -> Any:
    """`value` as JSON-ready data: mappings and sequences recursively, numpy scalars as
    Python numbers, nan, inf and pd.NA as None, anything else as its text.

    Examples
    --------
    >>> jsonable({"a": [float("nan"), np.int64(3)], 2: pd.NA})
    {'a': [None, 3], '2': None}
    """
    if isinstance(value, Mapping):
        return {str(k): jsonable(v) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return [jsonable(v) for v in value]
    if isinstance(value, np.ndarray):
        return jsonable(value.tolist())
    if isinstance(value, np.generic):
        value = value.item()
    pandas = sys.modules.get("pandas")  # (only an object of pandas is NA)
    if pandas is not None and value is pandas.NA:
        return None
    if isinstance(value, float) and not math.isfinite(value):
        return None
    if value is None or isinstance(value, (str, int, float, bool)):
        return value
    return str(value)


_CSS = """
:root { --ink: #1b1b1b; --muted: #555; --rule: #c8c8c8; --accent: #0072b2; }
* { box-sizing: border-box; }
body { margin: 0; color: var(--ink); background: #fff;
  font: 15px/1.5 system-ui, -apple-system, "Segoe UI", Roboto, "Helvetica Neue", Arial, sans-serif; }
header, main { max-width: 1100px; margin: 0 auto; padding: 0 24px; }
header { border-bottom: 2px solid var(--ink); padding-top: 24px; }
h1 { font-size: 1.6rem; margin: 0 0 4px; }
h2 { font-size: 1.2rem; margin: 32px 0 8px; border-bottom: 1px solid var(--rule); }
h3 { font-size: 1rem; margin: 16px 0 4px; }
.byline, .ref { color: var(--muted); font-size: 0.9rem; }
table { border-collapse: collapse; width: 100%; font-size: 0.9rem; margin: 8px 0; }
th, td { text-align: left; padding: 4px 8px; border-bottom: 1px solid var(--rule);
  vertical-align: top; overflow-wrap: break-word; }
table.results thead th, table.results td { white-space: nowrap; }
table.results td:last-child { white-space: normal; }
table.checklist td:nth-child(2) { white-space: nowrap; }
thead th { border-bottom: 2px solid var(--ink); }
td.num, table.results td.num { text-align: right; font-variant-numeric: tabular-nums;
  white-space: nowrap; }
table.facts th { width: 16em; font-weight: 600; }
table.checklist tr.covered td:last-child { color: #006d2c; }
table.checklist tr.partly td:last-child { color: #8c5a00; }
figure { margin: 16px 0; }
figure img { max-width: 100%; height: auto; display: block; }
figcaption { color: var(--muted); font-size: 0.9rem; margin-top: 4px; }
ol.notes { font-size: 0.85rem; color: var(--muted); padding-left: 2em; }
@media print { body { font-size: 11pt; } h2 { break-after: avoid; } figure { break-inside: avoid; } }
"""
