"""Results of G studies and D studies: the package's result protocol (``summary()``,
``report()``, ``to_frame()``, ``_repr_html_``) for variance components, the coefficients
of the observed design, and the coefficients of the designs a D study projects."""

from __future__ import annotations

import itertools
import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, ClassVar

import numpy as np
import pandas as pd

from irr._numbers import format_interval, format_number
from irr._validation import check_choice, check_report_style, show_value
from irr.gtheory.designs import Design
from irr.gtheory.dstudy import coefficients, cost_per_object, error_variances
from irr.inference.options import BOOTSTRAP_METHODS
from irr.results import FRAME_COLUMNS, ConfidenceInterval, Result, wald_interval
from irr.summary import format_estimate, header_table, new_summary
from irr.vocabulary import interval_name

__all__ = ["DStudyResult", "GCoefficient", "GStudyResult"]

#: The coefficients' names in tables, sentences and ``coefficient=`` arguments.
_NAMES = {"g": ("Generalizability coefficient", "Eρ²"),
          "phi": ("Dependability coefficient", "Φ")}

_METHOD_TEXT = {"anova": "ANOVA (expected mean squares)",
                "reml": "REML (restricted maximum likelihood)"}


def _ci_text(method: str) -> str:
    """A coefficient's interval method in prose, by the vocabulary's name: the Wald
    interval uses the delta-method SE, the bootstrap resamples the objects of measurement."""
    if method == "wald":
        return f"delta-method {interval_name(method)}"
    if method in BOOTSTRAP_METHODS:
        return f"{interval_name(method)} over objects"
    return interval_name(method)


@dataclass(frozen=True, eq=False, kw_only=True, repr=False)
class GCoefficient(Result):
    """Eρ² or Φ of the observed design, with its error variance and SEM (``error``:
    ``'relative'`` or ``'absolute'``). Intervals: Wald with the delta-method SE (from the
    normal-theory variances of the mean squares with ANOVA, from the REML information
    with REML); with ANOVA also percentile, basic or BCa bootstrap over objects."""

    error: str
    error_variance: float
    universe_variance: float
    bounds: tuple[float, float] = (0.0, 1.0)
    scale: str | None = None
    methods: tuple[str, ...] = BOOTSTRAP_METHODS

    interval_methods: ClassVar[tuple[str, ...]] = ("wald", *BOOTSTRAP_METHODS)

    def _interval(self, level: float, method: str) -> ConfidenceInterval:
        if method not in self.methods:
            raise ValueError(f"`method`: {self.coefficient} of this G study has intervals "
                             f"{list(self.methods)!r}; got {method!r}.")
        return super()._interval(level, method)

    @property
    def sem(self) -> float:
        """The standard error of measurement: the square root of the error variance."""
        return math.sqrt(self.error_variance) if self.error_variance >= 0 else math.nan

    def _extras(self) -> dict[str, Any]:
        return {"error": self.error, "error_variance": self.error_variance, "sem": self.sem,
                "universe_variance": self.universe_variance}


def _num(x: float, digits: int, apa: bool) -> str:
    return format_number(x, digits, leading_zero=not apa)


def _sizes_text(sizes: Mapping[str, Any], design: Design, object_name: str = "") -> str:
    """``'2 raters × 3 occasions'`` (plural by -s; nested: ``'per site'``)."""
    parts = []
    parent = design.parent
    for f in design.facets:
        n = sizes[f]
        count = f"{n:g}" if isinstance(n, float) else str(n)
        word = str(f) if isinstance(n, int | float) and float(n) == 1 else _plural(str(f))
        where = f" per {parent[f]}" if f in parent and parent[f] != design.object else ""
        if f in parent and parent[f] == design.object:
            where = f" per {object_name or design.object}"
        parts.append(f"{count} {word}{where}")
    return ", ".join(parts)


def _plural(word: str) -> str:
    if word.endswith(("s", "x", "ch", "sh")):
        return word + "es"
    if word.endswith("y") and word[-2:-1] not in "aeiou":
        return word[:-1] + "ies"
    return word + "s"


@dataclass(frozen=True, eq=False, kw_only=True, repr=False)
class GStudyResult(Result):
    """A generalizability (G) study: the variance components of every facet and
    interaction, and the generalizability (Eρ²) and dependability (Φ) coefficients of the
    observed design.

    ``estimate``, ``ci`` are Eρ²'s; :meth:`parts` holds Eρ² and Φ
    (:class:`GCoefficient`). ``variance_components`` and ``coefficients`` are tables;
    :meth:`dstudy` projects other designs and :meth:`optimize` finds the cheapest one that
    reaches a target.
    """

    design: str
    structure: Design
    method: str
    fixed: tuple[str, ...]
    sizes: dict[str, float]
    levels: dict[str, int]
    components_raw: np.ndarray
    components_se: np.ndarray
    components_ci: tuple[np.ndarray, np.ndarray]
    components_ci_method: str
    mean_squares: np.ndarray | None
    dfs: np.ndarray | None
    rows: tuple[GCoefficient, GCoefficient]
    n_scores: int
    n_cells_missing: int
    balanced: bool
    per_parent: dict[str, tuple[int, int]] = field(default_factory=dict)
    bounds: tuple[float, float] = (0.0, 1.0)
    scale: str | None = None
    statistic_name: str = ""

    own_sentence: ClassVar[bool] = True
    interval_methods: ClassVar[tuple[str, ...]] = ("wald", *BOOTSTRAP_METHODS)

    # -- the numbers ---------------------------------------------------------------------
    @property
    def components(self) -> np.ndarray:
        """The components the coefficients use: negative estimates set to 0 (Brennan,
        2001, ch. 3)."""
        return np.maximum(self.components_raw, 0.0)

    @property
    def variance_components(self) -> pd.DataFrame:
        """One row per component: its Brennan notation, the estimate (negative ANOVA
        estimates kept, as estimated), its SE and interval (``ci_method`` names it), its
        percentage of the total variance (of the estimates set to 0 when negative), and,
        for ANOVA, its degrees of freedom and mean square.

        Examples
        --------
        >>> import irr
        >>> g = irr.gstudy(irr.datasets.load("brennan_3_2"), score="Score", object="Person",
        ...                facets=["Rater", "Task"], nested={"Rater": "Task"})
        >>> g.variance_components["variance"].round(4).tolist()
        [0.4731, 0.3252, 0.5596, 0.6475, 2.3802]
        """
        letters = self.structure.letters
        effects = self.structure.effects
        used = self.components
        total = used.sum()
        low, high = self.components_ci
        frame = pd.DataFrame({
            "effect": [e.name(letters) for e in effects],
            "variance": self.components_raw,
            "se": self.components_se,
            "ci_low": low,
            "ci_high": high,
            "ci_method": self.components_ci_method,
            "percent": 100 * used / total if total > 0 else np.nan,
            "df": self.dfs if self.dfs is not None else np.nan,
            "mean_square": self.mean_squares if self.mean_squares is not None else np.nan,
        }, index=pd.Index([e.name() for e in effects], name="component"))
        return frame

    @property
    def coefficients(self) -> pd.DataFrame:
        """Eρ² and Φ of the observed design: estimate, interval, the universe-score
        variance, the relative (Eρ²) and absolute (Φ) error variance and SEM."""
        rows = []
        for r in self.rows:
            rows.append({"coefficient": r.coefficient, "symbol": r.symbol,
                         "estimate": r.estimate, "se": r.se, "ci_low": r.ci.low,
                         "ci_high": r.ci.high,
                         "confidence_level": r.ci.confidence_level, "ci_method": r.ci.method,
                         "universe_variance": r.universe_variance, "error": r.error,
                         "error_variance": r.error_variance, "sem": r.sem})
        return pd.DataFrame(rows).set_index("coefficient")

    def __getitem__(self, name: str) -> GCoefficient:
        for r in self.rows:
            if name in (r.coefficient, r.symbol, {"Eρ²": "g", "Φ": "phi"}[r.symbol]):
                return r
        raise KeyError(f"{name!r}: the coefficients are 'g' (Eρ²) and 'phi' (Φ).")

    def parts(self) -> list[Result]:
        """Eρ² and Φ."""
        return list(self.rows)

    def _interval(self, level: float, method: str) -> ConfidenceInterval:
        return self.rows[0].conf_int(level, method)

    # -- D studies -----------------------------------------------------------------------
    def _check_sizes(self, sizes: Mapping[str, Any]) -> dict[str, np.ndarray]:
        facets = self.structure.facets
        unknown = [f for f in sizes if f not in facets]
        if unknown:
            raise ValueError(f"D-study sizes: {unknown!r} are not facets of this G study; "
                             f"facets: {list(facets)!r}.")
        out = {}
        for f in facets:
            value = sizes.get(f, self.sizes[f])
            array = np.atleast_1d(np.asarray(value))
            if array.dtype.kind not in "iuf" or array.size == 0 or np.any(array < 1) \
                    or not np.all(np.isfinite(array)):
                raise ValueError(f"D-study size of {f!r} must be a number >= 1 or a list of "
                                 f"them; got {show_value(value)}.")
            if f in self.fixed and not np.all(array == self.sizes[f]):
                raise ValueError(f"{f!r} is fixed: the D study keeps its {self.sizes[f]:g} "
                                 f"levels (the universe of a fixed facet); got "
                                 f"{show_value(value)}.")
            out[f] = array.astype(float)
        return out

    def dstudy(self, **sizes: Any) -> DStudyResult:
        """A decision (D) study: Eρ², Φ, error variances and SEMs of designs with other
        numbers of levels of each facet (a nested facet: levels within each parent).

        Each keyword is a facet with one size or a list of sizes; every combination is a
        row. Facets not given keep their observed sizes; fixed facets keep theirs.

        Parameters
        ----------
        **sizes : int, float or sequence of them
            ``facet=size`` or ``facet=[sizes]``, by the facets' column names.

        Examples
        --------
        >>> import irr
        >>> g = irr.gstudy(irr.datasets.load("brennan_3_2"), score="Score", object="Person",
        ...                facets=["Rater", "Task"], nested={"Rater": "Task"})
        >>> d = g.dstudy(Rater=[1, 2, 4], Task=3)
        >>> d.to_frame()[["Rater", "Task", "g", "phi"]].round(3)
           Rater  Task      g    phi
        0      1     3  0.326  0.266
        1      2     3  0.448  0.372
        2      4     3  0.551  0.464
        """
        checked = self._check_sizes(sizes)
        facets = self.structure.facets
        grid = list(itertools.product(*(checked[f] for f in facets)))
        columns = {f: np.array([row[i] for row in grid]) for i, f in enumerate(facets)}
        return self._project(columns, title="D study")

    def _project(self, columns: dict[str, np.ndarray], title: str,
                 cost: Mapping[str, float] | None = None, extra: Sequence[str] = ()
                 ) -> DStudyResult:
        tau, delta, Delta = error_variances(self.structure, self.components, columns,
                                            self.fixed)
        g, phi = coefficients(tau, delta, Delta)
        size = len(next(iter(columns.values())))
        frame = pd.DataFrame({f: _whole(v) for f, v in columns.items()})
        frame["universe_variance"] = np.broadcast_to(tau, (size,))
        frame["relative_error"] = np.broadcast_to(delta, (size,))
        frame["absolute_error"] = np.broadcast_to(Delta, (size,))
        frame["sem_relative"] = np.sqrt(frame["relative_error"])
        frame["sem_absolute"] = np.sqrt(frame["absolute_error"])
        frame["g"] = np.broadcast_to(g, (size,))
        frame["phi"] = np.broadcast_to(phi, (size,))
        if cost is not None:
            frame["cost"] = cost_per_object(self.structure, columns, cost)
        return DStudyResult(frame=frame, design=self.design, structure=self.structure,
                            fixed=self.fixed, object=self.structure.object,
                            method=self.method, title=title, notes=tuple(extra))

    def optimize(self, target: float | None = None, coefficient: str = "g", *,
                 cost: Mapping[str, float] | None = None, budget: float | None = None,
                 max_levels: int | Mapping[str, int] = 10, n_best: int = 10) -> DStudyResult:
        """The cheapest design whose coefficient reaches `target` (or, with `budget` and no
        target, the design with the largest coefficient within the budget).

        Every design with 1 to `max_levels` levels of each random facet is evaluated at
        once (fixed facets keep their levels).

        Parameters
        ----------
        target : float, optional
            The coefficient to reach, in (0, 1).
        coefficient : {'g', 'phi'}, default 'g'
            Eρ² (relative decisions) or Φ (absolute decisions).
        cost : dict, optional
            Cost of one level of each facet for one object (e.g. ``{'rater': 40,
            'occasion': 15}``); a design costs the sum over facets of cost times the levels
            of it one object meets. By default each score costs 1.
        budget : float, optional
            The most a design may cost per object.
        max_levels : int or dict, default 10
            The largest size tried for each facet (one for all, or per facet).
        n_best : int, default 10
            Designs kept in the result, best first.

        Returns
        -------
        DStudyResult
            The best designs, best first (``best`` is the first one's sizes).

        Examples
        --------
        >>> import irr
        >>> g = irr.gstudy(irr.datasets.load("brennan_3_2"), score="Score", object="Person",
        ...                facets=["Rater", "Task"], nested={"Rater": "Task"})
        >>> best = g.optimize(target=0.70, coefficient="g", cost={"Rater": 20, "Task": 50})
        >>> best.best, round(float(best.to_frame()["g"].iloc[0]), 3)
        ({'Rater': 3, 'Task': 7}, 0.71)
        """
        check_choice(coefficient, "coefficient", ("g", "phi"))
        if target is None and budget is None:
            raise ValueError("`optimize` needs a `target` (the coefficient to reach), a "
                             "`budget`, or both.")
        if target is not None and not (isinstance(target, int | float) and 0 < target < 1):
            raise ValueError(f"`target` must be a number in (0, 1); got {show_value(target)}.")
        facets = self.structure.facets
        if cost is None:
            cost_of = None
        else:
            unknown = [f for f in cost if f not in facets]
            if unknown:
                raise ValueError(f"`cost`: {unknown!r} are not facets; facets: "
                                 f"{list(facets)!r}.")
            cost_of = {f: float(cost.get(f, 0.0)) for f in facets}
        limits = {f: int(max_levels[f] if isinstance(max_levels, Mapping) and f in max_levels
                         else (max_levels if not isinstance(max_levels, Mapping) else 10))
                  for f in facets}
        ranges = [np.array([self.sizes[f]]) if f in self.fixed
                  else np.arange(1, limits[f] + 1, dtype=float) for f in facets]
        mesh = np.meshgrid(*ranges, indexing="ij")
        columns = {f: m.ravel() for f, m in zip(facets, mesh, strict=True)}
        if cost_of is None:
            price = np.ones_like(mesh[0].ravel())
            for f in facets:
                price = price * columns[f]
        else:
            price = np.broadcast_to(cost_per_object(self.structure, columns, cost_of),
                                    mesh[0].ravel().shape)
        tau, delta, Delta = error_variances(self.structure, self.components, columns,
                                            self.fixed)
        g, phi = coefficients(tau, delta, Delta)
        value = np.broadcast_to(g if coefficient == "g" else phi, price.shape)
        ok = np.isfinite(value)
        if target is not None:
            ok &= value >= target
        if budget is not None:
            ok &= price <= budget
        symbol = _NAMES[coefficient][1]
        if not ok.any():
            reach = float(np.nanmax(value)) if np.isfinite(value).any() else math.nan
            raise ValueError(
                f"No design with up to {limits} levels reaches {symbol} >= {target}"
                + (f" within a budget of {budget:g}" if budget is not None else "")
                + f"; the largest {symbol} there is {reach:.3f}. Raise `max_levels` or the "
                "budget, or lower the target.")
        index = np.flatnonzero(ok)
        if target is not None:  # cheapest first, then the larger coefficient
            order = np.lexsort((-value[index], price[index]))
        else:  # largest coefficient within the budget, then the cheaper
            order = np.lexsort((price[index], -value[index]))
        chosen = index[order][:n_best]
        result = self._project({f: columns[f][chosen] for f in facets},
                               title="Optimal designs", cost=cost_of)
        if cost_of is None:
            result.frame["cost"] = price[chosen]
        goal = (f"the cheapest designs reaching {symbol} >= {target:g}" if target is not None
                else f"the designs with the largest {symbol} costing at most {budget:g}")
        if target is not None and budget is not None:
            goal += f" within a budget of {budget:g}"
        what = ("cost per object: " + ", ".join(f"{f} {cost_of[f]:g} per level"
                                                for f in facets)
                if cost_of is not None else "cost per object: its number of scores")
        return DStudyResult(frame=result.frame, design=self.design, structure=self.structure,
                            fixed=self.fixed, object=self.structure.object,
                            method=self.method, title="Optimal designs",
                            notes=(f"Rows: {goal} ({what}), best first.",),
                            coefficient=coefficient, target=target, budget=budget)

    # -- rendering -----------------------------------------------------------------------
    def summary(self) -> Any:
        """A statsmodels ``Summary``: the design, the variance components table, and Eρ²
        and Φ with their error variances and SEMs.

        Examples
        --------
        >>> import irr
        >>> g = irr.gstudy(irr.datasets.load("brennan_3_2"), score="Score", object="Person",
        ...                facets=["Rater", "Task"], nested={"Rater": "Task"})
        >>> print(g.summary().as_text().splitlines()[0].strip())
        G study: Person × (Rater:Task), p × (r:t)
        """
        from statsmodels.iolib.table import SimpleTable

        s = new_summary()
        level = self.rows[0].ci.confidence_level
        facts = [("Design:", self.design), ("Estimation:", _METHOD_TEXT[self.method]),
                 ("Objects:", f"{self.n_subjects:,} ({self.structure.object})"),
                 ("Scores:", f"{self.n_scores:,}"),
                 ("Facets:", _sizes_text(self.levels_display, self.structure)),
                 ("Fixed:", ", ".join(self.fixed) or "none"),
                 ("Missing cells:", f"{self.n_cells_missing:,}"),
                 ("Balanced:", "yes" if self.balanced else "no")]
        s.tables.append(header_table(facts, f"G study: {self.long_design}, {self.design}"))
        frame = self.variance_components
        pct = f"[{(1 - level) / 2:.3f}"
        rows = []
        for _, r in frame.iterrows():
            rows.append([r["effect"], format_estimate(r["variance"]), format_estimate(r["se"]),
                         format_estimate(r["ci_low"]), format_estimate(r["ci_high"]),
                         f"{r['percent']:.1f}" if np.isfinite(r["percent"]) else "",
                         f"{r['df']:g}" if np.isfinite(r["df"]) else "",
                         format_estimate(r["mean_square"])])
        s.tables.append(SimpleTable(
            rows, headers=["effect", "variance", "std err", pct, f"{1 - (1 - level) / 2:.3f}]",
                           "% total", "df", "mean sq"],
            stubs=list(frame.index), title="Variance components"))
        crows = []
        for r in self.rows:
            crows.append([r.symbol, format_estimate(r.estimate), format_estimate(r.ci.low),
                          format_estimate(r.ci.high), format_estimate(r.error_variance),
                          format_estimate(r.sem)])
        s.tables.append(SimpleTable(
            crows, headers=["", "estimate", pct, f"{1 - (1 - level) / 2:.3f}]",
                            "error var", "SEM"],
            stubs=[r.coefficient for r in self.rows],
            title=f"Coefficients ({_sizes_text(self.sizes, self.structure)})"))
        components = ("Satterthwaite" if self.components_ci_method == "satterthwaite"
                      else "Wald from the REML information, clipped at 0")
        notes = [f"Intervals ({100 * level:g}%): components {components}; coefficients "
                 f"{_ci_text(self.rows[0].ci.method)}.",
                 *self.notes]
        s.add_extra_txt(notes)
        return s

    @property
    def long_design(self) -> str:
        """The design written with the facets' names: ``'Person × (Rater:Task)'``."""
        return _notation(self.structure, {f: str(f) for f in self.structure.all_facets})

    @property
    def levels_display(self) -> dict[str, Any]:
        """Each facet's levels (a nested facet: per parent, its observed size)."""
        parent = self.structure.parent
        out: dict[str, Any] = {}
        for f in self.structure.facets:
            low, high = self.per_parent.get(f, (0, 0))
            out[f] = (self.levels[f] if f not in parent else
                      f"{low}-{high}" if low != high else low)
        return out

    def to_frame(self) -> pd.DataFrame:
        """Eρ² and Φ, one row each, with :data:`irr.results.FRAME_COLUMNS` and the error
        variance and SEM (the components: :attr:`variance_components`)."""
        frame = pd.concat([r.to_frame() for r in self.rows])[list(FRAME_COLUMNS)]
        frame["error_variance"] = [r.error_variance for r in self.rows]
        frame["sem"] = [r.sem for r in self.rows]
        return frame

    def _extras(self) -> dict[str, Any]:
        return {"design": self.design, "method": self.method, "fixed": list(self.fixed),
                "components": dict(zip(self.variance_components.index,
                                       self.components_raw.tolist(), strict=True)),
                "phi": self.rows[1].estimate}

    def report(self, style: str = "apa", *, digits: int = 2, **options: Any) -> str:
        """APA-style sentences: the design, the largest sources of variance, and Eρ² and Φ
        with their intervals.

        Parameters
        ----------
        style : {'apa', 'plain'}, default 'apa'
            APA style (Eρ², Φ, no leading zero) or plain text (E rho^2, Phi).
        digits : int, default 2
            Decimals of the coefficients, their limits and the SEMs.
        **options
            None taken (the signature of every result's ``report``); any is a TypeError.

        Examples
        --------
        >>> import irr
        >>> g = irr.gstudy(irr.datasets.load("brennan_3_2"), score="Score", object="Person",
        ...                facets=["Rater", "Task"], nested={"Rater": "Task"})
        >>> print(g.report())  # doctest: +ELLIPSIS, +NORMALIZE_WHITESPACE
        A generalizability study of 10 objects of measurement (Person) in a p × (r:t)
        design (Rater nested in Task; 4 Raters per Task, 3 Tasks; 120 scores)...
        """
        apa = check_report_style(style, options)
        d = self.structure
        nest = "; ".join(f"{c} nested in {p}" for c, p in d.parents)
        frame = self.variance_components
        top = frame.sort_values("percent", ascending=False).head(3)
        shares = ", ".join(f"{name} {r['percent']:.0f}%" for name, r in top.iterrows()
                           if np.isfinite(r["percent"]))
        symbol_g = "Eρ²" if apa else "E rho^2"
        symbol_phi = "Φ" if apa else "Phi"

        def coef(r: GCoefficient, symbol: str) -> str:
            text = f"{symbol} = {_num(r.estimate, digits, apa)}"
            if math.isfinite(r.ci.low) and math.isfinite(r.ci.high):
                # both coefficients' intervals share one method, named after the second
                text += ", " + format_interval(r.ci.low, r.ci.high, r.ci.confidence_level,
                                               ends=lambda x: _num(x, digits, apa), apa=apa)
            return text

        g, phi = self.rows
        where = f"{nest}; " if nest else ""
        first = (f"A generalizability study of {self.n_subjects:,} objects of measurement "
                 f"({d.object}) in a {self.design} design ({where}"
                 f"{_sizes_text(self.levels_display, d)}; {self.n_scores:,} scores) estimated "
                 f"the variance components by {_METHOD_TEXT[self.method]}.")
        second = f"The largest shares of the variance were {shares}."
        third = (f"For the observed design ({_sizes_text(self.sizes, d)}"
                 + (f"; {', '.join(self.fixed)} fixed" if self.fixed else "")
                 + f"), the generalizability coefficient was {coef(g, symbol_g)} and the "
                 f"dependability coefficient {coef(phi, symbol_phi)} "
                 f"(intervals: {_ci_text(g.ci.method)}); the SEM was "
                 f"{_num(g.sem, digits, True)} for relative and {_num(phi.sem, digits, True)} "
                 "for absolute decisions (Brennan, 2001).")
        negative = [name for name, v in zip(frame.index, self.components_raw, strict=True)
                    if v < 0]
        fourth = (f" The negative estimate{'s' if len(negative) > 1 else ''} of "
                  f"{', '.join(negative)} {'were' if len(negative) > 1 else 'was'} set to 0 "
                  "for the coefficients." if negative else "")
        return f"{first} {second} {third}{fourth}"

    def methods(self) -> str:
        """A methods paragraph: the design, the estimation, the intervals and the
        coefficients, with references (Brennan, 2001; Shavelson & Webb, 1991)."""
        g = self.rows[0]
        est = ("by expected mean squares (ANOVA; Brennan, 2001, ch. 3), exact for balanced "
               "data" if self.method == "anova" else
               "by restricted maximum likelihood (REML; Searle, Casella & McCulloch, 1992), "
               "which uses every score of unbalanced or incomplete data")
        comp_ci = ("Satterthwaite's (1946) approximation" if self.components_ci_method ==
                   "satterthwaite" else "the Wald method with the REML information")
        source = ("the REML information" if self.method == "reml" else
                  "the normal-theory variances of the mean squares")
        coef_ci = (f"a delta-method Wald interval from {source}" if g.ci.method == "wald"
                   else f"a {_ci_text(g.ci.method)} "
                   f"({self._n_resamples_text()})")
        fixed = (f" {', '.join(self.fixed)} {'was' if len(self.fixed) == 1 else 'were'} "
                 "treated as fixed in the D study by Brennan's (2001, ch. 4) rules."
                 if self.fixed else "")
        return (f"Reliability was analysed with generalizability theory (Shavelson & Webb, "
                f"1991; Brennan, 2001). The variance components of the {self.design} design "
                f"({self.long_design}) were estimated {est}"
                + ("; negative estimates were set to 0 for the coefficients (Brennan, 2001)"
                   if self.method == "anova" else "")
                + ". Intervals for the components used "
                f"{comp_ci}. The generalizability coefficient Eρ² (relative decisions) and the "
                f"dependability coefficient Φ (absolute decisions) were computed for the "
                f"observed design, with {coef_ci}.{fixed}\n\nReferences\n"
                "Brennan, R. L. (2001). Generalizability theory. Springer.\n"
                + ("Satterthwaite, F. E. (1946). An approximate distribution of estimates of "
                   "variance components. Biometrics Bulletin, 2(6), 110-114.\n"
                   if self.method == "anova" else
                   "Searle, S. R., Casella, G., & McCulloch, C. E. (1992). Variance "
                   "components. Wiley.\n")
                + "Shavelson, R. J., & Webb, N. M. (1991). Generalizability theory: A primer. "
                "Sage.")

    def _n_resamples_text(self) -> str:
        n = self.rows[0].n_resamples
        return f"{int(n):,} resamples" if np.isfinite(n) else "resamples drawn on request"

    def __repr__(self) -> str:
        g, phi = self.rows
        return (f"GStudyResult(design={self.design!r}, method={self.method!r}, "
                f"g={g.estimate:.4g}, phi={phi.estimate:.4g}, n_objects={self.n_subjects})")


def _notation(design: Design, names: dict[str, str]) -> str:
    """The design's notation with other labels for its facets."""
    letters = design.letters
    text = design.notation
    # replace letter tokens by names, longest first (letters are single characters or,
    # when initials clash, the names themselves)
    out = []
    for ch in _tokens(text):
        inverse = {v: k for k, v in letters.items()}
        out.append(names[inverse[ch]] if ch in inverse else ch)
    return "".join(out)


def _tokens(text: str) -> list[str]:
    out, word = [], ""
    for ch in text:
        if ch in " ×():":
            if word:
                out.append(word)
                word = ""
            out.append(ch)
        else:
            word += ch
    if word:
        out.append(word)
    return out


def _whole(values: np.ndarray) -> np.ndarray:
    """Sizes as integers when they are whole numbers."""
    values = np.asarray(values, dtype=float)
    if np.all(values == np.round(values)):
        return values.astype(np.int64)
    return values


@dataclass(frozen=True, eq=False, kw_only=True, repr=False)
class DStudyResult:
    """A decision (D) study: one row per design (its facet sizes), with the universe-score
    variance, relative and absolute error variances, their SEMs, Eρ² (``g``) and Φ
    (``phi``), and, from :meth:`GStudyResult.optimize`, the cost per object."""

    frame: pd.DataFrame
    design: str
    structure: Design
    fixed: tuple[str, ...]
    object: str
    method: str
    title: str = "D study"
    notes: tuple[str, ...] = ()
    coefficient: str | None = None
    target: float | None = None
    budget: float | None = None
    _cache: dict = field(default_factory=dict, repr=False)

    @property
    def facets(self) -> tuple[str, ...]:
        return self.structure.facets

    @property
    def best(self) -> dict[str, Any]:
        """The first row's sizes (the optimum of :meth:`GStudyResult.optimize`)."""
        row = self.frame.iloc[0]
        return {f: _scalar(row[f]) for f in self.facets}

    def to_frame(self) -> pd.DataFrame:
        """The designs' table (a copy)."""
        return self.frame.copy()

    def summary(self) -> Any:
        """A statsmodels ``Summary`` with one row per design."""
        from statsmodels.iolib.table import SimpleTable

        s = new_summary()
        facts = [("Design:", self.design), ("Object:", self.object),
                 ("Fixed:", ", ".join(self.fixed) or "none"),
                 ("G study by:", _METHOD_TEXT[self.method])]
        s.tables.append(header_table(facts, self.title))
        has_cost = "cost" in self.frame
        headers = ["σ²(δ)", "σ²(Δ)", "SEM(δ)", "SEM(Δ)", "Eρ²", "Φ"]
        if has_cost:
            headers.append("cost")
        rows, stubs = [], []
        for _, r in self.frame.iterrows():
            stubs.append(" × ".join(f"{_scalar(r[f]):g}" for f in self.facets))
            row = [format_estimate(r[c]) for c in ("relative_error", "absolute_error",
                                                   "sem_relative", "sem_absolute", "g",
                                                   "phi")]
            if has_cost:
                row.append(f"{r['cost']:g}")
            rows.append(row)
        s.tables.append(SimpleTable(rows, headers=headers, stubs=stubs,
                                    title=f"{self.title}: sizes of {' × '.join(self.facets)}"))
        if self.notes:
            s.add_extra_txt(list(self.notes))
        return s

    def report(self, style: str = "apa", *, digits: int = 2, **options: Any) -> str:
        """A sentence per design (the first when there are more than three, with the
        range of the others).

        Parameters
        ----------
        style : {'apa', 'plain'}, default 'apa'
            APA style (Eρ², Φ, no leading zero) or plain text (E rho^2, Phi).
        digits : int, default 2
            Decimals of the coefficients.
        **options
            None taken (the signature of every result's ``report``); any is a TypeError.

        Examples
        --------
        >>> import irr
        >>> g = irr.gstudy(irr.datasets.load("brennan_3_2"), score="Score", object="Person",
        ...                facets=["Rater", "Task"], nested={"Rater": "Task"})
        >>> print(g.dstudy(Rater=4, Task=3).report())
        With 4 Raters per Task, 3 Tasks, Eρ² = .55 and Φ = .46.
        """
        apa = check_report_style(style, options)
        g_sym, phi_sym = ("Eρ²", "Φ") if apa else ("E rho^2", "Phi")
        sentences = []
        many = len(self.frame) > 3 and self.coefficient is None
        rows = (self.frame if len(self.frame) <= 3 else
                self.frame.iloc[:1] if not many else
                self.frame.iloc[[int(np.nanargmax(self.frame["phi"].to_numpy()))]])
        for _, r in rows.iterrows():
            sizes = _sizes_text({f: _scalar(r[f]) for f in self.facets}, self.structure)
            text = (f"With {sizes}, {g_sym} = {_num(r['g'], digits, apa)} and {phi_sym} = "
                    f"{_num(r['phi'], digits, apa)}")
            if "cost" in self.frame:
                text += f" (cost {r['cost']:g} per {self.object})"
            sentences.append(text + ".")
        if self.coefficient is not None and len(self.frame):
            symbol = g_sym if self.coefficient == "g" else phi_sym
            goal = (f"reaching {symbol} >= {_num(self.target, digits, apa)}"
                    if self.target is not None else
                    f"with the largest {symbol} for at most {self.budget:g} per {self.object}")
            sentences[0] = "The cheapest design " + goal + " has " + sentences[0][5:] \
                if self.target is not None else "The design " + goal + " has " + \
                sentences[0][5:]
        elif many:
            lo, hi = self.frame["g"].min(), self.frame["g"].max()
            plo, phi_ = self.frame["phi"].min(), self.frame["phi"].max()
            sentences = [f"Across the {len(self.frame)} designs of the D study, {g_sym} "
                         f"ranged from {_num(lo, digits, apa)} to {_num(hi, digits, apa)} and "
                         f"{phi_sym} from {_num(plo, digits, apa)} to "
                         f"{_num(phi_, digits, apa)}; the largest, "
                         + sentences[0][0].lower() + sentences[0][1:]]
        return " ".join(sentences)

    def __str__(self) -> str:
        return self.summary().as_text()

    def __repr__(self) -> str:
        return f"DStudyResult(design={self.design!r}, designs={len(self.frame)})"

    def _repr_html_(self) -> str:
        return self.summary().as_html()


def _scalar(value: Any) -> Any:
    value = float(value)
    return int(value) if value == round(value) else value


def coefficient_interval_wald(estimate: float, se: float, level: float) -> ConfidenceInterval:
    """Wald interval of a coefficient clipped to [0, 1]."""
    return wald_interval(estimate, se, level, (0.0, 1.0))
