r"""Variance components of a balanced G study by expected mean squares, for any design of
crossed and nested facets.

The rules are general (Cornfield & Tukey, 1956; Brennan, 2001, ch. 3), so no design has
code of its own. With :math:`n_f` the levels of facet :math:`f` in the array (a nested
facet: its levels within one parent), :math:`N` the number of scores, an effect
:math:`\alpha` with primary facets :math:`P(\alpha)` and nesting facets :math:`N(\alpha)`:

- :math:`T(\beta) = \pi(\bar\beta) \sum_{\text{levels of } \beta} \bar X_\beta^2`, with
  :math:`\pi(\bar\beta)` the product of the sizes of the facets not in :math:`\beta`;
- :math:`SS(\alpha) = \sum_{S \subseteq P(\alpha)} (-1)^{|P(\alpha)| - |S|}\,
  T(S \cup N(\alpha))`;
- :math:`df(\alpha) = \prod_{f \in P(\alpha)} (n_f - 1) \prod_{f \in N(\alpha)} n_f`;
- :math:`EMS(\alpha) = \sum_{\beta \supseteq \alpha} \pi(\bar\beta)\, \sigma^2(\beta)`,
  a triangular system solved for the components.

Every function takes a leading batch axis where it says so, so a bootstrap over objects
evaluates all its resamples in one call.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from itertools import combinations

import numpy as np

from irr.gtheory.designs import Design, Effect

__all__ = ["AnovaTable", "anova", "component_se", "ems_matrix", "object_moments",
           "satterthwaite", "sums_to_components"]


@dataclass(frozen=True, eq=False)
class AnovaTable:
    """The ANOVA of a balanced G study: per effect (the design's order) the sum of squares,
    degrees of freedom, mean square, the EMS coefficients ``ems`` (E x E: EMS = ems @ σ²),
    and the estimated components (raw: negative estimates kept)."""

    effects: tuple[Effect, ...]
    ss: np.ndarray
    df: np.ndarray
    ms: np.ndarray
    ems: np.ndarray
    components: np.ndarray

    @property
    def weights(self) -> np.ndarray:
        """``W`` with ``components = W @ ms`` (the inverse of ``ems``)."""
        return np.linalg.inv(self.ems)


def _axes(design: Design) -> dict[str, int]:
    return {f: i for i, f in enumerate(design.all_facets)}


def ems_matrix(design: Design, sizes: tuple[int, ...]) -> np.ndarray:
    """``C`` with ``EMS(α) = Σ_β C[α, β] σ²(β)``: ``π(β̄)`` when β contains α.

    Examples
    --------
    >>> from irr.gtheory.designs import make_design
    >>> ems_matrix(make_design("p", ["r"]), (10, 3))  # p, r, pr,e
    array([[ 3.,  0.,  1.],
           [ 0., 10.,  1.],
           [ 0.,  0.,  1.]])
    """
    axes = _axes(design)
    effects = design.effects
    total = math.prod(sizes)
    c = np.zeros((len(effects), len(effects)))
    for i, a in enumerate(effects):
        for j, b in enumerate(effects):
            if set(a.facets) <= set(b.facets):
                c[i, j] = total / math.prod(sizes[axes[f]] for f in b.facets)
    return c


def _dfs(design: Design, sizes: tuple[int, ...]) -> np.ndarray:
    axes = _axes(design)
    return np.array([math.prod(sizes[axes[f]] - 1 for f in e.primary)
                     * math.prod(sizes[axes[f]] for f in e.nesting)
                     for e in design.effects], dtype=float)


def _ss_terms(design: Design) -> list[list[tuple[int, frozenset[str]]]]:
    """For each effect, the (sign, facet set) terms of its SS in T values."""
    out = []
    for e in design.effects:
        terms = []
        p = len(e.primary)
        for size in range(p + 1):
            for subset in combinations(e.primary, size):
                terms.append(((-1) ** (p - size), frozenset(subset) | frozenset(e.nesting)))
        out.append(terms)
    return out


def _needed_sets(design: Design) -> list[frozenset[str]]:
    """Every facet set whose T the SS need (each effect's and the sets its terms use)."""
    seen: dict[frozenset[str], None] = {}
    for terms in _ss_terms(design):
        for _, s in terms:
            seen.setdefault(s, None)
    return list(seen)


def _ss_from_t(design: Design, t: dict[frozenset[str], np.ndarray]) -> np.ndarray:
    """(..., E) sums of squares from the T values (each (...,))."""
    return np.stack([sum(sign * t[s] for sign, s in terms) for terms in _ss_terms(design)],
                    axis=-1)


def anova(design: Design, scores: np.ndarray) -> AnovaTable:
    """The ANOVA of a complete array of scores (``scores.shape = (n_objects, *sizes)``).

    Examples
    --------
    Brennan (2001), Table 3.2 (synthetic data set No. 4, p × (r:t)) is checked in the
    tests; a small p × r:

    >>> from irr.gtheory.designs import make_design
    >>> x = np.array([[9, 2, 5, 8], [6, 1, 3, 2], [8, 4, 6, 8],
    ...               [7, 1, 2, 6], [10, 5, 6, 9], [6, 2, 4, 7.0]])
    >>> table = anova(make_design("p", ["r"]), x)
    >>> table.ms.round(4).tolist()
    [11.2417, 32.4861, 1.0194]
    >>> table.components.round(4).tolist()
    [2.5556, 5.2444, 1.0194]
    """
    y = scores - scores.mean()
    sizes = y.shape
    axes = _axes(design)
    t = {}
    for s in _needed_sets(design):
        keep = tuple(axes[f] for f in s)
        drop = tuple(i for i in range(y.ndim) if i not in keep)
        means = y.mean(axis=drop) if drop else y
        t[s] = np.float64((y.size / means.size) * np.sum(means * means))
    ss = _ss_from_t(design, t)
    df = _dfs(design, sizes)
    ms = ss / df
    c = ems_matrix(design, sizes)
    return AnovaTable(design.effects, ss, df, ms, c, np.linalg.solve(c, ms))


def object_moments(design: Design, scores: np.ndarray) -> np.ndarray:
    """(n_objects, d) per-object sums whose totals over (resampled) objects give every T
    value: a 1, the object's centred scores, and, for each facet set with the object, the
    object's share of T. :func:`sums_to_components` maps the totals to the components."""
    y = scores - scores.mean()
    n = y.shape[0]
    axes = _axes(design)
    columns = [np.ones((n, 1)), y.reshape(n, -1)]
    for s in _needed_sets(design):
        if design.object not in s:
            continue
        keep = tuple(axes[f] for f in s)
        drop = tuple(i for i in range(y.ndim) if i not in keep)
        means = y.mean(axis=drop) if drop else y
        factor = y[0].size / (means.size / n)  # π(β̄): sizes of the facets not in β
        columns.append((factor * (means * means).reshape(n, -1).sum(axis=1))[:, None])
    return np.concatenate(columns, axis=1)


def sums_to_components(design: Design, sizes: tuple[int, ...], sums: np.ndarray
                       ) -> tuple[np.ndarray, np.ndarray]:
    """Components (b, E) and mean squares (b, E) of a batch of :func:`object_moments`
    totals (b, d); ``sizes`` are the facets' (the object's count is the totals' first
    column)."""
    sums = np.atleast_2d(sums)
    axes = _axes(design)
    n = sums[:, 0]
    m = math.prod(sizes)
    cells = sums[:, 1:1 + m].reshape((-1, *sizes))
    t: dict[frozenset[str], np.ndarray] = {}
    column = 1 + m
    for s in _needed_sets(design):
        if design.object in s:
            t[s] = sums[:, column]
            column += 1
            continue
        keep = tuple(axes[f] for f in s)  # axes of `cells` (the batch first)
        drop = tuple(i for i in range(1, cells.ndim) if i not in keep)
        totals = cells.sum(axis=drop) if drop else cells
        per_level = m / (totals[0].size if totals.ndim > 1 else 1)
        denominator = n * per_level  # scores in each level
        flat = totals.reshape(totals.shape[0], -1)
        t[s] = (flat * flat).sum(axis=1) / denominator
    ss = _ss_from_t(design, t)
    full = tuple(int(x) for x in sizes)
    dfs = np.stack([_dfs(design, (int(k), *full)) for k in n])
    ms = ss / dfs
    weights = np.stack([np.linalg.inv(ems_matrix(design, (int(k), *full))) for k in
                        np.unique(n)])
    index = np.searchsorted(np.unique(n), n)
    components = np.einsum("bij,bj->bi", weights[index], ms)
    return components, ms


def satterthwaite(table: AnovaTable, confidence_level: float
                  ) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Satterthwaite's (1946) interval of each component (Brennan, 2001, ch. 6): the
    estimate as a linear combination of mean squares, its effective degrees of freedom
    ``ν = σ̂⁴ / Σ (w MS)² / df`` and ``[ν σ̂² / χ²(1 - a/2; ν), ν σ̂² / χ²(a/2; ν)]``;
    ``nan`` for an estimate that is not positive. Returns (low, high, ν).

    Examples
    --------
    >>> from irr.gtheory.designs import make_design
    >>> x = np.array([[9, 2, 5, 8], [6, 1, 3, 2], [8, 4, 6, 8],
    ...               [7, 1, 2, 6], [10, 5, 6, 9], [6, 2, 4, 7.0]])
    >>> low, high, nu = satterthwaite(anova(make_design("p", ["r"]), x), 0.95)
    >>> nu.round(2).tolist()
    [4.12, 2.81, 15.0]
    """
    from scipy.special import chdtri

    w = table.weights
    terms = w * table.ms[None, :]
    estimate = terms.sum(axis=1)
    nu = estimate ** 2 / np.sum(terms ** 2 / table.df[None, :], axis=1)
    a = 1 - confidence_level
    positive = estimate > 0
    with np.errstate(invalid="ignore", divide="ignore"):
        low = np.where(positive, nu * estimate / chdtri(nu, a / 2), np.nan)
        high = np.where(positive, nu * estimate / chdtri(nu, 1 - a / 2), np.nan)
    return low, high, nu


def component_se(table: AnovaTable) -> np.ndarray:
    """Standard errors of the components, ``sqrt(Σ 2 (w MS)² / (df + 2))`` (Brennan,
    2001, ch. 6: the unbiased estimate of the variance of a linear combination of
    mean squares under normality)."""
    terms = table.weights * table.ms[None, :]
    return np.sqrt(np.sum(2 * terms ** 2 / (table.df[None, :] + 2), axis=1))
