r"""Restricted maximum likelihood (REML) variance components of a G study with missing
scores or unequal nesting, for any design of crossed and nested facets.

The model is :math:`y = \mu + \sum_\alpha Z_\alpha u_\alpha`, one independent normal
effect per level of every effect :math:`\alpha` (the last one the residual). Effects that
involve the object of measurement are independent between objects: their covariance is a
block :math:`A_p` per object (its scores only). The other effects (facets crossed with the
objects: raters, occasions, their interactions) have few levels, collected in
:math:`Z\,G\,Z'`. So :math:`V = A + Z G Z'` and, with :math:`H = I + G^{1/2} Z' A^{-1} Z
G^{1/2}` (Woodbury),

.. math::
    V^{-1} = A^{-1} - A^{-1} Z G^{1/2} H^{-1} G^{1/2} Z' A^{-1}, \qquad
    \log|V| = \log|A| + \log|H|.

Objects with the same cells scored share :math:`A_p^{-1}`; every quantity the REML
criterion needs is then a sum over these *patterns* of their counts, score sums and
cross-products, computed once. One evaluation costs (patterns) x (cells)^3 plus
(facet levels)^3, whatever the number of objects. The residual variance is profiled out
and the other components, as ratios to it, are found by L-BFGS-B within [0, inf)
(Harville, 1977; Searle, Casella & McCulloch, 1992, ch. 6).
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Any

import numpy as np

from irr.gtheory.designs import Design

__all__ = ["RemlFit", "RemlProblem", "reml"]


@dataclass(frozen=True, eq=False)
class RemlFit:
    """REML components (the design's order), their covariance (inverse observed
    information; ``nan`` rows for components on the boundary 0), the criterion
    (-2 log restricted likelihood, up to a constant) and notes."""

    components: np.ndarray
    covariance: np.ndarray
    criterion: float
    notes: tuple[str, ...]


class RemlProblem:
    """The sufficient statistics of one data set for the REML criterion.

    Parameters
    ----------
    design : Design
    scores : ndarray, shape (n_objects, *sizes)
        ``nan`` where there is no score.
    exists : ndarray of bool, shape sizes
        The cells some object has (the others are left out of every block).
    """

    def __init__(self, design: Design, scores: np.ndarray, exists: np.ndarray) -> None:
        n = scores.shape[0]
        sizes = scores.shape[1:]
        cells = np.flatnonzero(exists.ravel())
        y = scores.reshape(n, -1)[:, cells]
        mask = ~np.isnan(y)
        self.n_scores = int(mask.sum())
        centre = float(np.nanmean(y))
        y = np.where(mask, y - centre, 0.0)
        m = cells.size
        codes = np.unravel_index(cells, sizes)
        axis = {f: i for i, f in enumerate(design.facets)}
        effects = design.effects
        self.effects = effects
        self.within: list[int] = []
        self.global_: list[int] = []
        kernels = []
        columns = []
        column_effect = []
        for j, e in enumerate(effects):
            key = np.zeros(m, dtype=np.int64)
            for f in e.facets:
                if f == design.object:
                    continue
                key = key * sizes[axis[f]] + codes[axis[f]]
            if design.object in e.facets:
                self.within.append(j)
                kernels.append((key[:, None] == key[None, :]).astype(float))
            else:
                self.global_.append(j)
                _, inverse = np.unique(key, return_inverse=True)
                z = np.zeros((m, int(inverse.max()) + 1))
                z[np.arange(m), inverse] = 1.0
                columns.append(z)
                column_effect.extend([len(self.global_) - 1] * z.shape[1])
        self.kernels = np.stack(kernels)  # (k_within, m, m)
        self.z = np.concatenate(columns, axis=1) if columns else np.zeros((m, 0))
        self.column_effect = np.array(column_effect, dtype=np.int64)
        # patterns of scored cells
        patterns, inverse, counts = np.unique(mask, axis=0, return_inverse=True,
                                              return_counts=True)
        inverse = inverse.ravel()
        order = np.argsort(inverse, kind="stable")
        starts = np.concatenate([[0], np.cumsum(counts)[:-1]])
        sorted_y = y[order]
        self.patterns = patterns.astype(float)  # (U, m)
        self.counts = counts.astype(float)
        self.sums = np.add.reduceat(sorted_y, starts, axis=0)  # (U, m)
        if n * m * m <= 50_000_000:
            outer = sorted_y[:, :, None] * sorted_y[:, None, :]
            self.products = np.add.reduceat(outer, starts, axis=0)
        else:  # one pattern at a time: the loop is over patterns, not objects
            self.products = np.stack([sorted_y[s:s + c].T @ sorted_y[s:s + c]
                                      for s, c in zip(starts, counts, strict=True)])
        self.observed = self.patterns[:, :, None] * self.patterns[:, None, :]
        self.n_objects = n

    @property
    def n_components(self) -> int:
        return len(self.effects)

    def _quantities(self, theta: np.ndarray) -> tuple[float, float, float, float]:
        """log|V|, 1'V⁻¹1, 1'V⁻¹y, y'V⁻¹y at components `theta` (design order)."""
        m = self.patterns.shape[1]
        a_full = np.tensordot(theta[self.within], self.kernels, axes=1)
        eye = np.eye(m)
        padded = a_full[None] * self.observed + (1 - self.observed) * eye[None]
        sign, logdets = np.linalg.slogdet(padded)
        if np.any(sign <= 0):
            return math.inf, math.nan, math.nan, math.nan
        b = np.linalg.inv(padded) * self.observed  # (U, m, m)
        w = self.patterns
        bw = np.einsum("uij,uj->ui", b, w)
        bs = np.einsum("uij,uj->ui", b, self.sums)
        log_a = float(self.counts @ logdets)
        a11 = float(np.einsum("u,ui,ui->", self.counts, w, bw))
        a1y = float(np.einsum("ui,ui->", bs, w))
        ayy = float(np.einsum("uij,uji->", b, self.products))
        if self.z.shape[1] == 0:
            return log_a, a11, a1y, ayy
        g = np.sqrt(np.maximum(theta[self.global_], 0.0))[self.column_effect]
        s = np.einsum("u,uij->ij", self.counts, b)
        zg = self.z * g[None, :]
        h = np.eye(zg.shape[1]) + zg.T @ s @ zg
        u1 = zg.T @ (self.counts @ bw)
        uy = zg.T @ bs.sum(axis=0)
        try:
            chol = np.linalg.cholesky(h)
        except np.linalg.LinAlgError:
            return math.inf, math.nan, math.nan, math.nan
        v1 = np.linalg.solve(chol, u1)
        vy = np.linalg.solve(chol, uy)
        log_h = 2 * float(np.log(np.diag(chol)).sum())
        return (log_a + log_h, a11 - float(v1 @ v1), a1y - float(v1 @ vy),
                ayy - float(vy @ vy))

    def criterion(self, theta: np.ndarray) -> float:
        """-2 log restricted likelihood (without its constant) at components `theta`.

        Examples
        --------
        >>> from irr.gtheory.designs import make_design
        >>> x = np.array([[9, 2, 5, 8], [6, 1, 3, 2], [8, 4, 6, 8.0]])
        >>> problem = RemlProblem(make_design("p", ["r"]), x, np.ones(4, bool))
        >>> round(problem.criterion(np.array([1.0, 5.0, 1.0])), 4)
        31.9424
        """
        log_v, v11, v1y, vyy = self._quantities(np.asarray(theta, dtype=float))
        if not math.isfinite(log_v) or v11 <= 0:
            return math.inf
        return log_v + math.log(v11) + vyy - v1y * v1y / v11

    def profiled(self, ratios: np.ndarray) -> tuple[float, float]:
        """The criterion with the residual variance profiled out, at the other components'
        `ratios` to it; and that residual variance."""
        theta = np.append(np.asarray(ratios, dtype=float), 1.0)
        log_v, v11, v1y, vyy = self._quantities(theta)
        if not math.isfinite(log_v) or v11 <= 0:
            return math.inf, math.nan
        dof = self.n_scores - 1
        q = vyy - v1y * v1y / v11
        if q <= 0:
            return math.inf, math.nan
        sigma2 = q / dof
        return dof * math.log(sigma2) + log_v + math.log(v11) + dof, sigma2


def _gradient(f, x: np.ndarray, step: float = 1e-6) -> np.ndarray:
    grad = np.empty_like(x)
    for i in range(x.size):
        h = step * max(1.0, abs(x[i]))
        up, down = x.copy(), x.copy()
        up[i] += h
        down[i] = max(x[i] - h, 0.0)
        grad[i] = (f(up) - f(down)) / (up[i] - down[i])
    return grad


def reml(problem: RemlProblem, start: np.ndarray | None = None) -> RemlFit:
    """Fit the REML components of `problem` (all >= 0).

    `start` (optional): components to start from (e.g. moment estimates).
    """
    from scipy.optimize import minimize

    k = problem.n_components - 1
    notes: list[str] = []
    if start is None or not np.all(np.isfinite(start)) or start[-1] <= 0:
        x0 = np.full(k, 0.5)
    else:
        x0 = np.maximum(np.asarray(start[:-1], dtype=float) / start[-1], 0.05)

    def objective(x: np.ndarray) -> float:
        value = problem.profiled(x)[0]
        return value if math.isfinite(value) else 1e300

    def fit_from(first: np.ndarray) -> Any:
        return minimize(objective, first, jac=lambda x: _gradient(objective, x),
                        method="L-BFGS-B", bounds=[(0.0, None)] * k,
                        options={"ftol": 1e-15, "gtol": 1e-9, "maxiter": 5000})

    best = fit_from(x0)
    for first in (np.full(k, 0.1), np.full(k, 1.0)):  # other starts only if one fails
        if best.success:
            break
        fit = fit_from(first)
        if fit.fun < best.fun - 1e-10:
            best = fit
    if not best.success:
        notes.append(f"The REML optimiser stopped early ({best.message}).")
    ratios = np.maximum(best.x, 0.0)
    ratios[ratios < 1e-9] = 0.0
    _, sigma2 = problem.profiled(ratios)
    theta = np.append(ratios, 1.0) * sigma2
    covariance = _covariance(problem, theta)
    if np.isnan(np.diag(covariance)).any():
        zero = [problem.effects[j] for j in range(problem.n_components)
                if theta[j] == 0]
        if zero:
            notes.append("REML estimated " + ", ".join(e.name() for e in zero)
                         + " at 0 (the boundary): no standard error or Wald interval for "
                         "it, and it is held at 0 in the information of the others.")
    return RemlFit(theta, covariance, problem.criterion(theta), tuple(notes))


def _covariance(problem: RemlProblem, theta: np.ndarray) -> np.ndarray:
    """Inverse observed information (the Hessian of -log L_R) of the components inside the
    parameter space, by central differences; ``nan`` for components at 0."""
    inside = [j for j in range(theta.size) if theta[j] > 0]
    p = len(inside)
    out = np.full((theta.size, theta.size), np.nan)
    if not p:
        return out
    step = 1e-4 * np.maximum(theta, 1e-3 * float(theta.max()))

    def f(delta: np.ndarray) -> float:
        return problem.criterion(theta + delta)

    hessian = np.empty((p, p))
    for a, i in enumerate(inside):
        for b in range(a, p):
            j = inside[b]
            ei = np.zeros_like(theta)
            ej = np.zeros_like(theta)
            ei[i], ej[j] = step[i], step[j]
            value = (f(ei + ej) - f(ei - ej) - f(-ei + ej) + f(-ei - ej)) / (4 * step[i] * step[j])
            hessian[a, b] = hessian[b, a] = value / 2
    try:
        cov = np.linalg.inv(hessian)
    except np.linalg.LinAlgError:
        return out
    if not np.all(np.linalg.eigvalsh((cov + cov.T) / 2) > 0):
        return out
    out[np.ix_(inside, inside)] = cov
    return out
