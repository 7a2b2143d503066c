r"""Variance components of real-valued ratings in a subjects x raters design with missing
cells and replicates: Henderson's method III moment estimators and the REML criterion.

The design is the crossed random-effects model

.. math::

    y_{ijr} = \mu + a_i + b_j + (ab)_{ij} + e_{ijr},

subjects :math:`a_i \sim (0, \sigma^2_s)`, raters :math:`b_j \sim (0, \sigma^2_r)`, their
interaction :math:`(ab)_{ij} \sim (0, \sigma^2_{sr})` (estimable only when some cell holds
replicates) and error :math:`e \sim (0, \sigma^2_e)`. Everything here is a function of
per-subject *moments* (:func:`subject_moments`) summed over subjects, so the bootstrap
resamples subjects by summing rows (:class:`irr.inference.bootstrap.MomentStatistic`) and
10^5 subjects cost one pass.

Henderson's method III (fitting constants; Searle, Casella & McCulloch 1992, §5.5) equates
the reductions :math:`R(a \mid \mu, b)`, :math:`R(b \mid \mu, a)`,
:math:`R(ab \mid \mu, a, b)` and the within-cell sum of squares to their expectations. The
reductions adjust each factor for the other, so the estimators are unbiased whether the
raters are random or fixed, and on balanced data without replicates they are the ANOVA
estimators behind McGraw & Wong's (1996) formulas.
"""

from __future__ import annotations

import functools
from typing import NamedTuple

import numpy as np

__all__ = [
    "Components",
    "components_icc",
    "fixed_rater_effects",
    "henderson",
    "icc_interval_effective",
    "moment_layout",
    "moment_sums",
    "reml_criterion",
    "reml_criterion_fixed",
    "replicate_squares",
    "single_moment_sums",
    "subject_moments",
]


class Components(NamedTuple):
    """Variance components and the mean squares behind them (each of the batch shape).

    ``subjects``, ``raters``, ``interaction`` and ``error`` are the variance components
    (``raters`` and ``interaction`` are 0 in the one-way model, whose ``error`` is the whole
    within-subject variance; ``interaction`` is 0 without replicates, where it cannot be told
    from error). ``ms_subjects``, ``ms_raters`` and ``ms_error`` are Henderson's adjusted mean
    squares, with expectations ``error + k0 * subjects``, ``error + n0 * raters`` and
    ``error`` (additive two-way model and one-way model), on ``df_subjects``, ``df_raters``
    and ``df_error`` degrees of freedom: ``k0`` and ``n0`` are the *effective* numbers of
    raters per subject and subjects per rater (``k`` and ``n`` when the design is balanced).
    """

    subjects: np.ndarray
    raters: np.ndarray
    interaction: np.ndarray
    error: np.ndarray
    ms_subjects: np.ndarray
    ms_raters: np.ndarray
    ms_error: np.ndarray
    df_subjects: np.ndarray
    df_raters: np.ndarray
    df_error: np.ndarray
    k0: np.ndarray
    n0: np.ndarray


@functools.lru_cache(maxsize=64)
def moment_layout(k: int) -> dict[str, slice]:
    """Columns of :func:`subject_moments` for `k` raters, by name (one dict per `k`,
    shared: do not modify it)."""
    names = [("n", 1), ("present", 1), ("total", 1), ("total2", 1), ("within", 1),
             ("between", 1), ("cells", 1), ("n2", 1), ("k3", 1), ("counts", k), ("sums", k),
             ("counts2", k), ("counts_total", k), ("outer", k * k), ("gg", k * k)]
    out, start = {}, 0
    for name, width in names:
        out[name] = slice(start, start + width)
        start += width
    out["width"] = slice(start, start)
    return out


#: The most subject moments (subjects x moments) the moment estimators (variance
#: components, the overall CCC) hold: 2**24 float64 values, 128 MiB.
MAX_MOMENT_CELLS = 1 << 24


def check_design_size(n: int, k: int, what: str) -> None:
    """Refuse a design whose :func:`subject_moments` would exceed :data:`MAX_MOMENT_CELLS`
    (the moments grow as k^2 per subject: thousands of raters), naming `what`.

    Examples
    --------
    >>> check_design_size(100_000, 5, "the ICC")  # 10^5 subjects x 5 raters: fine
    >>> check_design_size(3000, 4000, "the ICC")  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    ValueError: the ICC by variance components of 4,000 raters takes 32,016,009 moments ...
    """
    width = moment_layout(k)["width"].start
    if n * width > MAX_MOMENT_CELLS:
        raise ValueError(
            f"{what} by variance components of {k:,} raters takes {width:,} moments per "
            f"subject ({n:,} x {width:,} in all, above the limit of {MAX_MOMENT_CELLS:,}): "
            "use a random sample of the subjects"
            + (", fewer raters" if k > 2 else "")
            + " or the ANOVA ICC of the subjects rated by every rater (irr icc; "
            "Agreement.icc)."
        )


def subject_moments(counts: np.ndarray, sums: np.ndarray, within: np.ndarray) -> np.ndarray:
    """Per-subject moments (n, d) of a design whose sums over subjects give every estimator.

    Parameters
    ----------
    counts : ndarray of shape (n, k)
        Measurements in each (subject, rater) cell.
    sums : ndarray of shape (n, k)
        Their sums (of centred values: the estimators do not depend on the mean, and
        centring keeps the sums of squares accurate).
    within : ndarray of shape (n,)
        Each subject's within-cell sum of squares (deviations from the cell means).

    Examples
    --------
    >>> m = subject_moments(np.array([[1.0, 1.0]]), np.array([[1.0, -1.0]]), np.array([0.0]))
    >>> m.shape, float(m[0, 5])  # one subject, two raters; its between-cell sum of squares
    ((1, 25), 2.0)
    """
    n, k = counts.shape
    layout = moment_layout(k)
    out = np.zeros((n, layout["width"].start))
    total_n, size, total, deviation, squares, share = _subject_parts(counts, sums)
    out[:, layout["n"]] = total_n[:, None]
    out[:, layout["present"]] = (total_n > 0)[:, None]
    out[:, layout["total"]] = total[:, None]
    out[:, layout["total2"]] = (total * total / size)[:, None]
    out[:, layout["within"]] = within[:, None]
    # between cells within subject: sum_j s_ij^2 / n_ij - s_i^2 / n_i, from deviations
    out[:, layout["between"]] = np.einsum("ij,ij,ij->i", counts, deviation, deviation)[:, None]
    out[:, layout["cells"]] = (counts > 0).sum(axis=1)[:, None]
    out[:, layout["n2"]] = (total_n * total_n)[:, None]
    out[:, layout["k3"]] = (squares.sum(axis=1) / size)[:, None]
    out[:, layout["counts"]] = counts
    out[:, layout["sums"]] = sums
    out[:, layout["counts2"]] = squares
    out[:, layout["counts_total"]] = counts * (total / size)[:, None]
    out[:, layout["outer"]] = np.einsum("ij,il->ijl", counts, share).reshape(n, k * k)
    # sum_j n_ij^2 (e_j - p_i)(e_j - p_i)': the rater x rater form of the interaction's trace
    sq_total = squares.sum(axis=1)
    gg = -np.einsum("ij,il->ijl", squares, share)
    gg += gg.transpose(0, 2, 1)
    gg += sq_total[:, None, None] * np.einsum("ij,il->ijl", share, share)
    idx = np.arange(k)
    gg[:, idx, idx] += squares
    out[:, layout["gg"]] = gg.reshape(n, k * k)
    return out


def _subject_parts(counts: np.ndarray, sums: np.ndarray) -> tuple[np.ndarray, ...]:
    """Per subject: measurements, their number floored at 1, sum, the cells' deviations
    from the subject mean (0 in empty cells), squared cell counts, each cell's share."""
    total_n = counts.sum(axis=1)
    size = np.maximum(total_n, 1)
    total = sums.sum(axis=1)
    cell_mean = np.where(counts > 0, sums / np.maximum(counts, 1), 0.0)
    deviation = np.where(counts > 0, cell_mean - (total / size)[:, None], 0.0)
    return total_n, size, total, deviation, counts * counts, counts / size[:, None]


def moment_sums(counts: np.ndarray, sums: np.ndarray, within: np.ndarray) -> np.ndarray:
    """The sums over subjects of :func:`subject_moments` (d,), without the (n, d) moments:
    the rater x rater blocks as (k, k) matrix products, O(n k^2) time and O(n k) memory.

    Equal to ``subject_moments(counts, sums, within).sum(axis=0)`` up to rounding.
    Without replicates :func:`single_moment_sums` gives them in fewer passes.

    Examples
    --------
    >>> c, s = np.array([[1.0, 2.0], [1.0, 0.0]]), np.array([[1.0, -1.0], [0.5, 0.0]])
    >>> bool(np.allclose(moment_sums(c, s, np.zeros(2)),
    ...                  subject_moments(c, s, np.zeros(2)).sum(axis=0)))
    True
    """
    k = counts.shape[1]
    layout = moment_layout(k)
    out = np.empty(layout["width"].start)
    total_n, size, total, deviation, squares, share = _subject_parts(counts, sums)
    sq_total = squares.sum(axis=1)
    out[layout["n"]] = total_n.sum()
    out[layout["present"]] = np.count_nonzero(total_n > 0)
    out[layout["total"]] = total.sum()
    out[layout["total2"]] = (total * total / size).sum()
    out[layout["within"]] = within.sum()
    out[layout["between"]] = np.einsum("ij,ij,ij->", counts, deviation, deviation)
    out[layout["cells"]] = np.count_nonzero(counts > 0)
    out[layout["n2"]] = (total_n * total_n).sum()
    out[layout["k3"]] = (sq_total / size).sum()
    out[layout["counts"]] = counts.sum(axis=0)
    out[layout["sums"]] = sums.sum(axis=0)
    out[layout["counts2"]] = squares.sum(axis=0)
    out[layout["counts_total"]] = (total / size) @ counts
    out[layout["outer"]] = (counts.T @ share).reshape(-1)
    cross = squares.T @ share
    gg = (share * sq_total[:, None]).T @ share - cross - cross.T
    gg[np.arange(k), np.arange(k)] += squares.sum(axis=0)
    out[layout["gg"]] = gg.reshape(-1)
    return out


def single_moment_sums(observed: np.ndarray, values: np.ndarray) -> np.ndarray:
    """:func:`moment_sums` of a design with at most one measurement per cell (no
    replicates, no within-cell sum of squares), from the raters x subjects (k, n)
    matrices: `observed` (1.0 where measured, else 0.0) and the centred `values` (0.0
    where not measured).

    Rows are raters, so a subject's sum over raters adds k contiguous rows and a rater's
    sum over subjects reads one row, with no strided reduction; with counts of 0 and 1
    some moments equal others (cells = n, counts2 = counts, k3 = present), and the
    interaction's rater x rater form is ``diag(counts) - outer``. Equal to
    ``moment_sums(observed.T, values.T, 0)`` up to rounding.

    Examples
    --------
    >>> c, s = np.array([[1.0, 1.0], [1.0, 0.0]]), np.array([[1.0, -1.0], [0.5, 0.0]])
    >>> bool(np.allclose(single_moment_sums(c.T, s.T), moment_sums(c, s, np.zeros(2))))
    True
    """
    k = observed.shape[0]
    layout = moment_layout(k)
    out = np.empty(layout["width"].start)
    total_n = observed.sum(axis=0)  # per subject
    total = values.sum(axis=0)
    size = np.maximum(total_n, 1.0)
    mean = total / size
    deviation = values - mean  # from the subject's mean, 0.0 in empty cells
    deviation *= observed
    by_rater = observed.sum(axis=1)
    rater_sums = values.sum(axis=1)
    outer = observed @ (observed / size).T
    present = float(np.count_nonzero(total_n))
    out[layout["n"]] = by_rater.sum()
    out[layout["present"]] = present
    out[layout["total"]] = total.sum()
    out[layout["total2"]] = np.einsum("i,i->", total, mean)
    out[layout["within"]] = 0.0
    out[layout["between"]] = np.einsum("ij,ij->", deviation, deviation)
    out[layout["cells"]] = by_rater.sum()
    out[layout["n2"]] = np.einsum("i,i->", total_n, total_n)
    out[layout["k3"]] = present
    out[layout["counts"]] = by_rater
    out[layout["sums"]] = rater_sums
    out[layout["counts2"]] = by_rater
    # sum_i n_ij total_i / n_i: each rater's sum less its deviations from subject means
    out[layout["counts_total"]] = rater_sums - deviation.sum(axis=1)
    out[layout["outer"]] = outer.reshape(-1)
    gg = -outer
    gg[np.arange(k), np.arange(k)] += by_rater
    out[layout["gg"]] = gg.reshape(-1)
    return out


def replicate_squares(subject: np.ndarray, rater: np.ndarray, values: np.ndarray,
                      n_subjects: int, n_raters: int
                      ) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """The one-way analysis of variance of replicates within (subject, rater) cells, by
    rater: each rater's sum of squared deviations of its readings from their cell means,
    its degrees of freedom (readings less measured cells), and each reading's deviation.
    A rater's (method's) within-subject variance is its sum over its df (Bland & Altman
    1999, section 5).

    Examples
    --------
    >>> squares, dfs, _ = replicate_squares(np.array([0, 0, 1, 1, 0]), np.array([0, 0, 0, 0, 1]),
    ...                                     np.array([1.0, 3.0, 2.0, 2.0, 5.0]), 2, 2)
    >>> squares.tolist(), dfs.tolist()
    ([2.0, 0.0], [2.0, 0.0])
    """
    cell = subject * n_raters + rater
    size = n_subjects * n_raters
    counts = np.bincount(cell, minlength=size).astype(float)
    sums = np.bincount(cell, weights=values, minlength=size)
    mean = np.divide(sums, counts, out=np.zeros_like(sums), where=counts > 0)
    deviation = values - mean[cell]
    squares = np.bincount(rater, weights=deviation * deviation, minlength=n_raters)
    counts = counts.reshape(n_subjects, n_raters)
    return squares, counts.sum(axis=0) - (counts > 0).sum(axis=0), deviation


def _pinv_quadratic(c: np.ndarray, r: np.ndarray, m: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """``r' C^- r`` and ``tr(C^- M)`` for batches of k x k ``C`` (singular: its null space
    holds the vector of ones; a Moore-Penrose inverse is a g-inverse).

    Eigenvalues below 1e-10 of the largest are taken as 0. ``C`` sums n x k products, so
    its null eigenvalues come out of the eigensolver as about ``k * eps`` times the largest
    (1e-15 to 1e-13), sometimes above pinv's default cutoff (1e-15), whose inverse then
    multiplies the rounding of ``r . 1`` (0 in exact arithmetic) by about 1e13; a true
    eigenvalue is at least about 1/k (raters linked through one subject) over n."""
    inverse = np.linalg.pinv(c, rcond=1e-10, hermitian=True)
    quad = np.einsum("...i,...ij,...j->...", r, inverse, r)
    trace = np.einsum("...ij,...ji->...", inverse, m)
    return quad, trace


def henderson(sums: np.ndarray, k: int, model: str, replicates: bool) -> Components:
    """Henderson's method III components from the summed moments (batch, d).

    `model` is ``'oneway'`` (subjects random, all else within-subject error) or
    ``'twoway'`` (subjects and raters crossed); with `replicates` the subject x rater
    interaction is separated from error by the within-cell sum of squares.

    Examples
    --------
    >>> x = np.array([[9, 2, 5, 8], [6, 1, 3, 2], [8, 4, 6, 8],
    ...               [7, 1, 2, 6], [10, 5, 6, 9], [6, 2, 4, 7]], dtype=float)
    >>> m = subject_moments(np.ones_like(x), x - x.mean(), np.zeros(6))
    >>> c = henderson(m.sum(axis=0), 4, "twoway", False)
    >>> [round(float(v), 4) for v in (c.subjects, c.raters, c.error)]
    [2.5556, 5.2444, 1.0194]
    """
    layout = moment_layout(k)
    s = np.asarray(sums, dtype=float)

    def col(name: str) -> np.ndarray:
        return s[..., layout[name]]

    n_total = col("n")[..., 0]
    a = col("present")[..., 0]
    grand = col("total")[..., 0]
    with np.errstate(invalid="ignore", divide="ignore"):
        t_mu = grand * grand / n_total
        ss_subjects = col("total2")[..., 0] - t_mu
        within = col("within")[..., 0]
        between = col("between")[..., 0]
        if model == "oneway":
            df_a = a - 1
            df_e = n_total - a
            ms_e = (within + between) / df_e
            ms_a = ss_subjects / df_a
            k0 = (n_total - col("n2")[..., 0] / n_total) / df_a
            zero = np.zeros_like(ms_e)
            return Components((ms_a - ms_e) / k0, zero, zero, ms_e, ms_a, zero, ms_e,
                              df_a, zero, df_e, k0, zero)
        nj = col("counts")
        yj = col("sums")
        rated = nj > 0
        b = rated.sum(axis=-1).astype(float)
        safe = np.where(rated, nj, 1.0)
        ss_raters = np.where(rated, yj * yj / safe, 0.0).sum(axis=-1) - t_mu
        c = -col("outer").reshape(*s.shape[:-1], k, k)
        idx = np.arange(k)
        c[..., idx, idx] += nj
        r = yj - col("counts_total")
        gg = col("gg").reshape(*s.shape[:-1], k, k)
        r_b, tr_gg = _pinv_quadratic(c, r, gg)
        r_a = ss_subjects + r_b - ss_raters
        k3 = col("k3")[..., 0]
        k4 = np.where(rated, col("counts2") / safe, 0.0).sum(axis=-1)
        df_a, df_b = a - 1, b - 1
        cells = col("cells")[..., 0]
        rank = a + b - 1
        if replicates:
            t_abx = k3 + tr_gg
            error = within / (n_total - cells)
            r_ab = between - r_b
            inter = (r_ab - (cells - rank) * error) / (n_total - t_abx)
            raters = (r_b - df_b * error - (t_abx - k3) * inter) / (n_total - k3)
            subjects = (r_a - df_a * error - (t_abx - k4) * inter) / (n_total - k4)
            ms_e = (within + r_ab) / (n_total - rank)  # the additive model's residual
        else:
            ms_e = (within + between - r_b) / (n_total - rank)
            error = ms_e
            inter = np.zeros_like(error)
            raters = (r_b - df_b * error) / (n_total - k3)
            subjects = (r_a - df_a * error) / (n_total - k4)
        return Components(subjects, raters, inter, error, r_a / df_a, r_b / df_b, ms_e,
                          df_a, df_b, n_total - rank, (n_total - k4) / df_a,
                          (n_total - k3) / df_b)


def components_icc(subjects: np.ndarray, raters: np.ndarray, residual: np.ndarray,
                   model: str, type: str, unit: str, k: int) -> np.ndarray:
    r"""The ICC of one McGraw & Wong form from variance components.

    `residual` is what a single measurement adds to the subject's and rater's effects:
    interaction plus error (two-way), the whole within-subject variance (one-way, where
    `raters` is ignored). With :math:`\sigma^2_s` the subjects' component,

    .. math::

        ICC(A,1) = \frac{\sigma^2_s}{\sigma^2_s + \sigma^2_r + \sigma^2_{res}}, \quad
        ICC(C,1) = \frac{\sigma^2_s}{\sigma^2_s + \sigma^2_{res}}, \quad
        ICC(1) = \frac{\sigma^2_s}{\sigma^2_s + \sigma^2_w},

    and the average-of-`k` forms divide the non-subject variance by `k`.

    Examples
    --------
    >>> round(float(components_icc(2.5556, 5.2444, 1.0194, "twoway", "agreement",
    ...                            "single", 4)), 2)
    0.29
    """
    divisor = 1 if unit == "single" else k
    with np.errstate(invalid="ignore", divide="ignore"):
        if model == "oneway" or type == "consistency":
            return subjects / (subjects + residual / divisor)
        return subjects / (subjects + (raters + residual) / divisor)


def _step_up(rho: np.ndarray, k: int) -> np.ndarray:
    with np.errstate(invalid="ignore", divide="ignore"):
        return np.where(np.isfinite(rho), k * rho / (1 + (k - 1) * rho), rho)


def icc_interval_effective(c: Components, model: str, type: str, unit: str, k: int,
                           confidence_level: float) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    r"""Approximate F-based interval from Henderson's mean squares with effective sizes.

    McGraw & Wong's (1996, Table 7) intervals with the number of raters ``k`` replaced by
    the effective ``k0`` and the number of subjects ``n`` by ``n0`` in the coefficients of
    the expected mean squares, and the degrees of freedom by Henderson's: the one-way and
    consistency pivots are :math:`F = MS_s / MS_e` on (``df_subjects``, ``df_error``) df
    (the F test of :math:`\sigma^2_s = 0` is exact under the normal model on any connected
    design; the interval is approximate when the design is unbalanced, as the n0
    approximation of Searle 1971, §9.7), the agreement forms use Satterthwaite's df for
    :math:`a\,MS_r + b\,MS_e`. Average-measure bounds are the Spearman-Brown step-up
    (to `k` raters) of the single-measure ones. On balanced data this is Table 7 exactly.
    Returns ``(low, high, df)``.
    """
    from scipy.special import fdtri

    q = 0.5 + confidence_level / 2
    msa, msb, mse = c.ms_subjects, c.ms_raters, c.ms_error
    k0, n0 = c.k0, c.n0
    with np.errstate(invalid="ignore", divide="ignore", over="ignore"):
        if model == "oneway" or type == "consistency":
            f = msa / mse
            f_low = f / fdtri(c.df_subjects, c.df_error, q)
            f_high = f * fdtri(c.df_error, c.df_subjects, q)
            low = np.where(np.isposinf(f_low), 1.0, (f_low - 1) / (f_low + k0 - 1))
            high = np.where(np.isposinf(f_high), 1.0, (f_high - 1) / (f_high + k0 - 1))
            df = c.df_error
        else:
            rho = (msa - mse) / (msa + (k0 - 1) * mse + k0 * (msb - mse) / n0)
            aa = k0 * rho / (n0 * (1 - rho))
            bb = 1 + k0 * rho * (n0 - 1) / (n0 * (1 - rho))
            df = (aa * msb + bb * mse) ** 2 / (
                (aa * msb) ** 2 / c.df_raters + (bb * mse) ** 2 / c.df_error)
            f_star = fdtri(c.df_subjects, df, q)
            f_sub = fdtri(df, c.df_subjects, q)
            den_low = f_star * (k0 * msb + (k0 * n0 - k0 - n0) * mse) + n0 * msa
            den_high = k0 * msb + (k0 * n0 - k0 - n0) * mse + n0 * f_sub * msa
            low = np.where(den_low > 0, n0 * (msa - f_star * mse) / den_low, np.nan)
            high = np.where(den_high > 0, n0 * (f_sub * msa - mse) / den_high, np.nan)
    if unit == "average":
        low, high = _step_up(low, k), _step_up(high, k)
    return low, high, df


def _blocks(s2a: float, s2ab: float, s2e: float, counts: np.ndarray, sums: np.ndarray,
            squares: np.ndarray) -> tuple[float, float, float, float, np.ndarray, np.ndarray,
                                          np.ndarray]:
    r"""The subject blocks :math:`V_i = \sigma^2_e I + \sigma^2_{sr} \oplus_j J_{n_{ij}} +
    \sigma^2_s J` in closed form (within-cell blocks, then Sherman-Morrison for the subject
    effect): ``sum_i log|V_i|``, ``1'V^{-1}1``, ``1'V^{-1}y``, ``y'V^{-1}y``, and with the
    rater indicators ``Z`` (n_obs x k): ``Z'V^{-1}1``, ``Z'V^{-1}y`` and ``Z'V^{-1}Z``."""
    filled = counts > 0
    v = s2e + counts * s2ab
    one = np.where(filled, counts / v, 0.0)
    y1 = np.where(filled, sums / v, 0.0)
    yy = np.where(filled, (squares - s2ab * sums * sums / v) / s2e, 0.0)
    logdet = float(np.where(filled, (counts - 1) * np.log(s2e) + np.log(v), 0.0).sum())
    t = one.sum(axis=1)
    u = y1.sum(axis=1)
    h = s2a / (1 + s2a * t)
    logdet += float(np.log1p(s2a * t).sum())
    w11 = float((t - h * t * t).sum())
    w1y = float((u - h * t * u).sum())
    wyy = float((yy.sum(axis=1) - h * u * u).sum())
    z1 = (one - (h * t)[:, None] * one).sum(axis=0)
    zy = (y1 - (h * u)[:, None] * one).sum(axis=0)
    zz = np.diag(one.sum(axis=0)) - np.einsum("i,ij,il->jl", h, one, one)
    return logdet, w11, w1y, wyy, z1, zy, zz


def reml_criterion(theta: np.ndarray, counts: np.ndarray, sums: np.ndarray,
                   squares: np.ndarray) -> float:
    r"""-2 x the REML log-likelihood (without its constant) of the crossed model.

    `theta` = (subjects, raters, interaction, error) variances; `counts`, `sums` and
    `squares` are the (n, k) cell counts, sums and sums of squares of centred values.
    The covariance :math:`V = W + \sigma^2_r Z_r Z_r'` is never formed: the subject blocks
    :math:`W_i` are inverted in closed form (within-cell blocks, then Sherman-Morrison for
    the subject effect) and the rater effects by Woodbury's identity on a k x k system, so
    one evaluation costs O(n k^2).
    """
    s2a, s2b, s2ab, s2e = (float(t) for t in theta)
    logdet, w11, w1y, wyy, z1, zy, a = _blocks(s2a, s2ab, s2e, counts, sums, squares)
    k = counts.shape[1]
    m = np.eye(k) + s2b * a
    sign, logdet_m = np.linalg.slogdet(m)
    logdet += logdet_m
    solve_1, solve_y = np.linalg.solve(m, np.column_stack([z1, zy])).T
    v11 = w11 - s2b * z1 @ solve_1
    v1y = w1y - s2b * z1 @ solve_y
    vyy = wyy - s2b * zy @ solve_y
    if sign <= 0 or v11 <= 0:
        return np.inf
    return logdet + np.log(v11) + vyy - v1y * v1y / v11


def reml_criterion_fixed(theta: np.ndarray, counts: np.ndarray, sums: np.ndarray,
                         squares: np.ndarray) -> float:
    r"""-2 x the REML log-likelihood (without its constant) of the mixed model with the
    raters (methods) *fixed*: :math:`y_{ijr} = \beta_j + a_i + (ab)_{ij} + e_{ijr}`,
    the model of Carrasco & Jover's (2003) variance-components CCC.

    `theta` = (subjects, interaction, error) variances; `counts`, `sums`, `squares` as in
    :func:`reml_criterion`. The covariance is block-diagonal by subject, so with the rater
    indicators as the fixed-effects design ``X``, :math:`-2\ell_R = \sum_i \log|V_i| +
    \log|X'V^{-1}X| + y'V^{-1}y - y'V^{-1}X (X'V^{-1}X)^{-1} X'V^{-1}y`, O(n k^2).

    Examples
    --------
    One method, one reading per subject, total variance 1 (so V = I): log|V| = 0,
    log|X'X| = log 3 and the residual sum of squares 2.

    >>> y = np.array([[1.0], [3.0], [2.0]]) - 2
    >>> value = reml_criterion_fixed([0.5, 0.0, 0.5], np.ones((3, 1)), y, y ** 2)
    >>> bool(np.isclose(value, np.log(3) + 2, rtol=1e-12))
    True
    """
    s2a, s2ab, s2e = (float(t) for t in theta)
    logdet, _, _, wyy, _, zy, zz = _blocks(s2a, s2ab, s2e, counts, sums, squares)
    used = np.diag(zz) > 0
    zz, zy = zz[np.ix_(used, used)], zy[used]
    sign, logdet_x = np.linalg.slogdet(zz)
    if sign <= 0:
        return np.inf
    return logdet + logdet_x + wyy - float(zy @ np.linalg.solve(zz, zy))


def fixed_rater_effects(theta: np.ndarray, counts: np.ndarray, sums: np.ndarray,
                        squares: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    r"""The GLS rater (method) means :math:`\hat\beta = (X'V^{-1}X)^{-1} X'V^{-1} y` of
    the fixed-raters model of :func:`reml_criterion_fixed` at the variances `theta`
    (subjects, interaction, error), and their covariance :math:`(X'V^{-1}X)^{-1}`; the
    means are of the centred values that `sums` add up.

    Examples
    --------
    Balanced data: the GLS means are the raters' sample means.

    >>> counts = np.ones((2, 2)); sums = np.array([[1.0, 2.0], [3.0, 6.0]])
    >>> beta, cov = fixed_rater_effects([1.0, 0.0, 1.0], counts, sums, sums ** 2)
    >>> beta.tolist()
    [2.0, 4.0]
    """
    s2a, s2ab, s2e = (float(t) for t in theta)
    _, _, _, _, _, zy, zz = _blocks(s2a, s2ab, s2e, counts, sums, squares)
    cov = np.linalg.inv(zz)
    return cov @ zy, cov
