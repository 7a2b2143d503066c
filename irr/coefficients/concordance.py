"""Concordance of continuous measurements: Lin's concordance correlation coefficient (CCC),
its overall form for several raters, the total deviation index (TDI) and the coverage
probability (CP).

Pure formulas of sums over subjects, vectorised over a leading batch axis so that one call
evaluates every bootstrap resample. Moments use Lin's (1989) convention: variances and the
covariance divide by ``n``, not ``n - 1``.
"""

from __future__ import annotations

import numpy as np

__all__ = [
    "ccc_moments",
    "ccc_of_sums",
    "ccc_parts",
    "ccc_variance",
    "coverage_of_normal",
    "cp_logit_variance",
    "msd_log_variance",
    "overall_ccc_moments",
    "overall_ccc_of_sums",
    "tdi_approximate",
    "tdi_exact",
]


def ccc_moments(x: np.ndarray, y: np.ndarray) -> np.ndarray:
    """Each subject's moments ``[1, x, y, x*x, y*y, x*y]``, shape (n, 6): their sums over
    any resample of subjects give its CCC (:func:`ccc_of_sums`).

    >>> ccc_moments(np.array([1.0, 2.0]), np.array([2.0, 2.0])).tolist()
    [[1.0, 1.0, 2.0, 1.0, 4.0, 2.0], [1.0, 2.0, 2.0, 4.0, 4.0, 4.0]]
    """
    return np.column_stack([np.ones_like(x), x, y, x * x, y * y, x * y])


def _second_moments(sums: np.ndarray) -> tuple[np.ndarray, ...]:
    """Means and 1/n (co)variances of (b, 6) sums of :func:`ccc_moments`."""
    sums = np.atleast_2d(sums)
    n = sums[:, 0]
    with np.errstate(invalid="ignore", divide="ignore"):
        mx, my = sums[:, 1] / n, sums[:, 2] / n
        sxx = sums[:, 3] / n - mx * mx
        syy = sums[:, 4] / n - my * my
        sxy = sums[:, 5] / n - mx * my
    return mx, my, np.maximum(sxx, 0.0), np.maximum(syy, 0.0), sxy


def ccc_parts(
    mx: np.ndarray, my: np.ndarray, sxx: np.ndarray, syy: np.ndarray, sxy: np.ndarray
) -> dict[str, np.ndarray]:
    r"""Lin's CCC and its decomposition from means and (co)variances.

    .. math::

        \rho_c = \frac{2 s_{xy}}{s_x^2 + s_y^2 + (\bar x - \bar y)^2} = r\,C_b,\qquad
        C_b = \frac{2}{v + 1/v + u^2},\quad v = \frac{s_x}{s_y},\quad
        u = \frac{\bar x - \bar y}{\sqrt{s_x s_y}}

    Returns a dict of arrays: ``ccc``, ``r`` (Pearson: precision), ``cb`` (bias correction
    factor: accuracy), ``v`` (scale shift), ``u`` (location shift). Undefined values
    (a constant variable, or both constant and equal) are nan.

    >>> p = ccc_parts(*(np.array([v]) for v in (10.0, 11.0, 4.0, 4.0, 3.0)))
    >>> round(float(p["ccc"][0]), 4), float(p["r"][0]), round(float(p["cb"][0]), 4)
    (0.6667, 0.75, 0.8889)
    """
    mx, my, sxx, syy, sxy = (np.asarray(a, dtype=float) for a in (mx, my, sxx, syy, sxy))
    sx, sy = np.sqrt(sxx), np.sqrt(syy)
    shift = mx - my
    with np.errstate(invalid="ignore", divide="ignore"):
        denominator = sxx + syy + shift * shift
        ccc = np.where(denominator > 0, 2 * sxy / np.where(denominator > 0, denominator, 1),
                       np.nan)
        spread = sx * sy
        r = np.where(spread > 0, sxy / np.where(spread > 0, spread, 1), np.nan)
        r = np.clip(r, -1.0, 1.0)
        v = np.where(spread > 0, sx / np.where(sy > 0, sy, 1), np.nan)
        u = np.where(spread > 0, shift / np.sqrt(np.where(spread > 0, spread, 1)), np.nan)
        cb = 2.0 / (v + 1.0 / v + u * u)
    return {"ccc": ccc, "r": r, "cb": cb, "v": v, "u": u}


def ccc_of_sums(sums: np.ndarray) -> np.ndarray:
    """Lin's CCC of (b, 6) sums of :func:`ccc_moments` over resamples, shape (b,).

    >>> x = np.array([1.0, 2.0, 3.0, 4.0]); y = x + 0.5
    >>> round(float(ccc_of_sums(ccc_moments(x, y).sum(axis=0))[0]), 4)
    0.9091
    """
    return ccc_parts(*_second_moments(sums))["ccc"]


def ccc_variance(ccc: float, r: float, u: float, n: int) -> tuple[float, float]:
    r"""Lin's asymptotic variances of the CCC and of its Fisher z, ``(var_ccc, var_z)``.

    Lin (1989, eq. 6) for :math:`\hat\rho_c`, and its Fisher z transform with the correction
    of Lin (2000, Biometrics 56:324-325):

    .. math::

        \sigma^2_{\hat\rho_c} = \frac{1}{n-2}\Big[\frac{(1-r^2)\rho_c^2(1-\rho_c^2)}{r^2}
            + \frac{2\rho_c^3(1-\rho_c)u^2}{r} - \frac{\rho_c^4u^4}{2r^2}\Big],\qquad
        \sigma^2_{z} = \frac{\sigma^2_{\hat\rho_c}}{(1-\rho_c^2)^2}

    (the delta method: Lin's 2000 note corrects the z variance printed in 1989 to this).
    nan where undefined (r = 0, or \|CCC\| = 1 for z).

    >>> [round(v, 6) for v in ccc_variance(0.9, 0.95, 0.2, 52)]
    [0.000444, 0.01229]
    """
    if not (np.isfinite(ccc) and np.isfinite(r) and np.isfinite(u)) or r == 0 or n <= 2:
        return float("nan"), float("nan")
    var = ((1 - r * r) * ccc * ccc * (1 - ccc * ccc) / (r * r)
           + 2 * ccc**3 * (1 - ccc) * u * u / r
           - ccc**4 * u**4 / (2 * r * r)) / (n - 2)
    var = max(var, 0.0)
    one = 1 - ccc * ccc
    var_z = var / (one * one) if one > 0 else float("nan")
    return float(var), float(var_z)


# -- several raters -------------------------------------------------------------------------


def overall_ccc_moments(values: np.ndarray) -> np.ndarray:
    """Each subject's moments ``[1, y_1..y_J, y_j*y_k (j <= k)]`` of a complete (n, J)
    matrix: their sums give the overall CCC (:func:`overall_ccc_of_sums`).

    >>> overall_ccc_moments(np.array([[1.0, 2.0]])).tolist()
    [[1.0, 1.0, 2.0, 1.0, 2.0, 4.0]]
    """
    n, k = values.shape
    upper_j, upper_k = np.triu_indices(k)
    return np.column_stack([np.ones(n), values, values[:, upper_j] * values[:, upper_k]])


def overall_ccc_of_sums(sums: np.ndarray, k: int) -> np.ndarray:
    r"""Barnhart, Haber & Song's (2002) overall CCC of (b, 1 + J + J(J+1)/2) sums of
    :func:`overall_ccc_moments` over resamples, shape (b,):

    .. math::

        \rho_c^o = \frac{2\sum_{j<k}\sigma_{jk}}
            {(J-1)\sum_j\sigma_j^2 + \sum_{j<k}(\mu_j-\mu_k)^2}

    with 1/n moments (Lin's convention); for J = 2 it is Lin's CCC.

    >>> x = np.array([[1.0, 1.5], [2.0, 2.5], [3.0, 3.5], [4.0, 4.5]])
    >>> round(float(overall_ccc_of_sums(overall_ccc_moments(x).sum(axis=0), 2)[0]), 4)
    0.9091
    """
    sums = np.atleast_2d(sums)
    n = sums[:, :1]
    upper_j, upper_k = np.triu_indices(k)
    with np.errstate(invalid="ignore", divide="ignore"):
        means = sums[:, 1:1 + k] / n
        cross = sums[:, 1 + k:] / n - means[:, upper_j] * means[:, upper_k]
        diagonal = upper_j == upper_k
        variances = np.maximum(cross[:, diagonal], 0.0)
        covariances = cross[:, ~diagonal].sum(axis=1)
        pj, pk = np.triu_indices(k, 1)
        shifts = ((means[:, pj] - means[:, pk]) ** 2).sum(axis=1)
        denominator = (k - 1) * variances.sum(axis=1) + shifts
        return np.where(denominator > 0,
                        2 * covariances / np.where(denominator > 0, denominator, 1), np.nan)


# -- total deviation index and coverage probability -----------------------------------------


def _normal_quantile(q: np.ndarray) -> np.ndarray:
    from scipy.special import ndtri

    return ndtri(q)


def tdi_approximate(msd: np.ndarray, p: float) -> np.ndarray:
    r"""Lin's (2000) approximate TDI: :math:`\Phi^{-1}(1-(1-p)/2)\sqrt{\mathrm{MSD}}`,
    exact when the mean difference is 0, conservative otherwise (Lin 2000, Table I).

    >>> round(float(tdi_approximate(np.array(4.0), 0.95)), 4)
    3.9199
    """
    return _normal_quantile(1 - (1 - p) / 2) * np.sqrt(np.asarray(msd, dtype=float))


def coverage_of_normal(mean: np.ndarray, sd: np.ndarray, delta: float) -> np.ndarray:
    r"""Coverage probability :math:`P(|D| < \delta)` of :math:`D \sim N(\mu, \sigma^2)`:
    :math:`\Phi((\delta-\mu)/\sigma) - \Phi((-\delta-\mu)/\sigma)`.

    >>> round(float(coverage_of_normal(np.array(0.0), np.array(1.0), 1.959964)), 4)
    0.95
    """
    from scipy.special import ndtr

    mean = np.asarray(mean, dtype=float)
    sd = np.asarray(sd, dtype=float)
    with np.errstate(invalid="ignore", divide="ignore"):
        upper = ndtr((delta - mean) / sd)
        lower = ndtr((-delta - mean) / sd)
    degenerate = np.where(np.abs(mean) < delta, 1.0, 0.0)  # sd == 0: a point mass
    return np.where(sd > 0, upper - lower, degenerate)


def tdi_exact(mean: np.ndarray, sd: np.ndarray, p: float) -> np.ndarray:
    r"""The exact TDI under normality: the p-quantile of :math:`|D|`, the folded normal
    of :math:`D \sim N(\mu, \sigma^2)`, i.e. :math:`\sigma\sqrt{\chi^2_{1,p}(\mu^2/\sigma^2)}`
    (the noncentral chi-square quantile on 1 df; Lin 2000, eq. 3).

    >>> round(float(tdi_exact(np.array(0.0), np.array(2.0), 0.95)), 4)
    3.9199
    """
    from scipy.stats import ncx2

    mean = np.asarray(mean, dtype=float)
    sd = np.asarray(sd, dtype=float)
    with np.errstate(invalid="ignore", divide="ignore"):
        nc = (mean / sd) ** 2
        central = sd * np.abs(_normal_quantile(np.asarray(0.5 + p / 2)))
        # ncx2 with a zero noncentrality is the central chi-square (scipy accepts nc=0)
        quantile = sd * np.sqrt(ncx2.ppf(p, 1, np.where(np.isfinite(nc), nc, 0.0)))
    return np.where(sd > 0, np.where(nc > 0, quantile, central), np.abs(mean))


def msd_log_variance(mean: float, msd: float, n: int) -> float:
    r"""Lin's (2000) variance of :math:`W = \ln e^2`, the log of the estimated MSD:
    :math:`\frac{2}{n-2}\big(1 - \bar d^4/e^4\big)` (normal-theory delta method, n - 2
    as Lin for small samples).

    >>> round(msd_log_variance(1.0, 2.0, 12), 4)
    0.15
    """
    if n <= 2 or not msd > 0:
        return float("nan")
    return float(2.0 / (n - 2) * (1.0 - (mean * mean / msd) ** 2))  # no overflow of mean**4


def cp_logit_variance(mean: float, sd: float, delta: float, n: int) -> float:
    r"""Variance of :math:`\mathrm{logit}(\widehat{CP}_\delta)` by the normal-theory delta
    method (Lin, Hedayat, Sinha & Yang 2002): with :math:`a_\pm = (\pm\delta - \mu)/\sigma`,

    .. math::

        \sigma^2_{CP} = \frac{[\phi(a_+) - \phi(a_-)]^2
            + [a_+\phi(a_+) - a_-\phi(a_-)]^2/2}{n-2},\qquad
        \sigma^2_{\mathrm{logit}} = \frac{\sigma^2_{CP}}{[CP(1-CP)]^2}

    >>> round(cp_logit_variance(0.0, 1.0, 1.0, 52), 4)
    0.0499
    """
    if n <= 2 or not sd > 0:
        return float("nan")
    upper, lower = (delta - mean) / sd, (-delta - mean) / sd
    phi_u = np.exp(-upper * upper / 2) / np.sqrt(2 * np.pi)
    phi_l = np.exp(-lower * lower / 2) / np.sqrt(2 * np.pi)
    var_cp = ((phi_u - phi_l) ** 2 + (upper * phi_u - lower * phi_l) ** 2 / 2) / (n - 2)
    cp = float(coverage_of_normal(np.array(mean), np.array(sd), delta))
    if not 0 < cp < 1:
        return float("nan")
    return float(var_cp / (cp * (1 - cp)) ** 2)
