r"""D studies: the error variances and coefficients of a measurement design with other
numbers of levels of each facet, from the variance components of a G study.

Brennan's (2001, ch. 4) rules, for a random-effects G study and a D study of the same
structure with sizes :math:`n'_f` (a nested facet: levels within one parent) and some
facets fixed. Each component :math:`\sigma^2(\alpha)` enters divided by
:math:`\pi'(\alpha)`, the product of the D-study sizes of the facets in :math:`\alpha`
other than the object :math:`p`, and goes to

- the universe-score variance :math:`\sigma^2(\tau)` when :math:`\alpha` holds :math:`p`
  and, besides it, fixed facets only (:math:`\sigma^2(p)` itself);
- the relative error :math:`\sigma^2(\delta)` when :math:`\alpha` holds :math:`p` and a
  random facet;
- the absolute error :math:`\sigma^2(\Delta)`: :math:`\sigma^2(\delta)` plus the effects
  without :math:`p` that hold a random facet (effects of fixed facets only are
  constants and enter nothing).

Then :math:`E\rho^2 = \sigma^2(\tau) / (\sigma^2(\tau) + \sigma^2(\delta))` and
:math:`\Phi = \sigma^2(\tau) / (\sigma^2(\tau) + \sigma^2(\Delta))`; the standard errors of
measurement are :math:`\sigma(\delta)` and :math:`\sigma(\Delta)`. Everything
broadcasts over arrays of sizes and over a leading batch axis of components.
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from typing import Any

import numpy as np

from irr.gtheory.designs import Design

__all__ = ["coefficients", "cost_per_object", "error_variances", "harmonic_size", "roles"]


def roles(design: Design, fixed: tuple[str, ...] = ()) -> list[str]:
    """Where each component goes: ``'tau'``, ``'delta'`` (relative and absolute error),
    ``'Delta'`` (absolute error only) or ``''`` (nowhere: an effect of fixed facets).

    Examples
    --------
    >>> from irr.gtheory.designs import make_design
    >>> roles(make_design("p", ["i", "r"]))
    ['tau', 'Delta', 'Delta', 'delta', 'delta', 'Delta', 'delta']
    >>> roles(make_design("p", ["i", "r"]), fixed=("i",))
    ['tau', '', 'Delta', 'tau', 'delta', 'Delta', 'delta']
    """
    out = []
    for e in design.effects:
        others = [f for f in e.facets if f != design.object]
        random = [f for f in others if f not in fixed]
        if design.object in e.facets:
            out.append("delta" if random else "tau")
        else:
            out.append("Delta" if random else "")
    return out


def _divisor(design: Design, facets: tuple[str, ...], sizes: Mapping[str, Any]) -> Any:
    out: Any = 1.0
    for f in facets:
        if f != design.object:
            out = out * np.asarray(sizes[f], dtype=float)
    return out


def error_variances(design: Design, components: np.ndarray, sizes: Mapping[str, Any],
                    fixed: tuple[str, ...] = ()) -> tuple[Any, Any, Any]:
    """σ²(τ), σ²(δ), σ²(Δ) of the D study with `sizes` (facet -> n', arrays broadcast);
    `components` (..., E) in the design's order, already truncated at 0 as wanted.

    Examples
    --------
    Brennan (2001), p. 116: p × (r:t) with 3 tasks and 4 raters per task.

    >>> from irr.gtheory.designs import make_design
    >>> d = make_design("p", ["r", "t"], {"r": "t"})
    >>> c = np.array([.4731, .3252, .5596, .6475, 2.3802])  # p, t, pt, r:t, pr:t,e
    >>> tau, delta, Delta = error_variances(d, c, {"r": 4, "t": 3})
    >>> round(float(tau / (tau + delta)), 3), round(float(tau / (tau + Delta)), 3)
    (0.551, 0.464)
    """
    components = np.asarray(components, dtype=float)
    tau: Any = 0.0
    delta: Any = 0.0
    Delta: Any = 0.0
    for j, (e, role) in enumerate(zip(design.effects, roles(design, fixed), strict=True)):
        share = components[..., j] / _divisor(design, e.facets, sizes)
        if role == "tau":
            tau = tau + share
        elif role == "delta":
            delta = delta + share
        elif role == "Delta":
            Delta = Delta + share
    return tau, delta, delta + Delta


def coefficients(tau: Any, delta: Any, Delta: Any) -> tuple[Any, Any]:
    """Eρ² and Φ (``nan`` where the denominator is 0)."""
    tau, delta, Delta = (np.asarray(x, dtype=float) for x in (tau, delta, Delta))
    with np.errstate(invalid="ignore", divide="ignore"):
        g = np.where(tau + delta > 0, tau / (tau + delta), np.nan)
        phi = np.where(tau + Delta > 0, tau / (tau + Delta), np.nan)
    return g, phi


def cost_per_object(design: Design, sizes: Mapping[str, Any], cost: Mapping[str, float]) -> Any:
    """The cost of measuring one object: each facet's cost per level times the levels of it
    one object meets (a nested facet: its size times the sizes of its parents, the object
    excepted).

    Examples
    --------
    >>> from irr.gtheory.designs import make_design
    >>> d = make_design("p", ["r", "s"], {"r": "s"})
    >>> float(cost_per_object(d, {"r": 3, "s": 2}, {"r": 40, "s": 100}))
    440.0
    """
    total: Any = 0.0
    for f in design.facets:
        levels = np.asarray(sizes[f], dtype=float)
        for a in design.ancestors(f):
            if a != design.object:
                levels = levels * np.asarray(sizes[a], dtype=float)
        total = total + float(cost.get(f, 0.0)) * levels
    return total


def harmonic_size(per_parent: np.ndarray) -> float:
    """The harmonic mean of the levels of a nested facet in each of its parents (Brennan's
    ñ for unequal nesting, 2001, ch. 7)."""
    counts = np.asarray(per_parent, dtype=float)
    counts = counts[counts > 0]
    return float(counts.size / np.sum(1.0 / counts)) if counts.size else math.nan
