"""Independent computations of the concordance statistics of issue #18, for
``tests/unit/estimators/test_concordance.py``.

Each function computes a quantity another way than :mod:`irr.estimators.concordance`:

* Lin's CCC from ``numpy.cov`` (bias=True), and its asymptotic variance by the normal-theory
  delta method from the covariance of the five sample moments of a bivariate normal
  (means: Sigma/n; second moments: Cov(s_ab, s_cd) = (s_ac s_bd + s_ad s_bc)/n), with a
  numerical gradient of the CCC. Lin (1989) derived his closed form this way, with n - 2
  for n; the closed form must equal this value times n/(n - 2).
* The overall CCC of several raters from its definition (Barnhart, Haber & Song 2002, eq. 2):
  one minus the summed pairwise mean squared differences over their values under
  independence (means and 1/n variances).
* The variance-components CCC (Carrasco & Jover 2003) from a REML fit of statsmodels'
  MixedLM: subjects random, raters fixed; with replicates a subject x rater variance
  component too. The rater variance is the variance of the fitted rater effects (divisor
  J - 1) less its sampling part.
* The exact TDI by root finding on the folded-normal CDF (scipy.optimize.brentq) and the CP
  by ``scipy.stats.norm``.

Run ``python tests/reference/concordance_reference.py`` to print the values on the Bland & Altman
(1986) peak-flow data.
"""

from __future__ import annotations

import numpy as np

# Bland & Altman (1986, Lancet 1:307-310, Table 1): peak expiratory flow rate (l/min) of 17
# subjects, first reading with the large Wright and with the mini Wright meter.
WRIGHT = np.array([494, 395, 516, 434, 476, 557, 413, 442, 650, 433, 417, 656, 267, 478, 178,
                   423, 427], dtype=float)
MINI = np.array([512, 430, 520, 428, 500, 600, 364, 380, 658, 445, 432, 626, 260, 477, 259,
                 350, 451], dtype=float)


def ccc_direct(x: np.ndarray, y: np.ndarray) -> float:
    """Lin's CCC from numpy's biased (1/n) covariance matrix."""
    cov = np.cov(x, y, bias=True)
    return float(2 * cov[0, 1] / (cov[0, 0] + cov[1, 1] + (x.mean() - y.mean()) ** 2))


def _ccc_of_parameters(theta: np.ndarray) -> float:
    mx, my, sxx, syy, sxy = theta
    return 2 * sxy / (sxx + syy + (mx - my) ** 2)


def ccc_delta_variance(x: np.ndarray, y: np.ndarray) -> float:
    """Normal-theory delta-method variance of the CCC (divisor n)."""
    n = x.size
    cov = np.cov(x, y, bias=True)
    theta = np.array([x.mean(), y.mean(), cov[0, 0], cov[1, 1], cov[0, 1]])
    # covariance of (mx, my, sxx, syy, sxy) under bivariate normality
    pairs = [(0, 0), (1, 1), (0, 1)]
    moments = np.zeros((5, 5))
    moments[:2, :2] = cov / n
    for i, (a, b) in enumerate(pairs):
        for j, (c, d) in enumerate(pairs):
            moments[2 + i, 2 + j] = (cov[a, c] * cov[b, d] + cov[a, d] * cov[b, c]) / n
    gradient = np.empty(5)
    for k in range(5):
        h = 1e-6 * max(abs(theta[k]), 1.0)
        up, down = theta.copy(), theta.copy()
        up[k] += h
        down[k] -= h
        gradient[k] = (_ccc_of_parameters(up) - _ccc_of_parameters(down)) / (2 * h)
    return float(gradient @ moments @ gradient)


def overall_ccc_definition(values: np.ndarray) -> float:
    """Barnhart et al.'s overall CCC from pairwise expected squared differences."""
    _n, k = values.shape
    means = values.mean(axis=0)
    cov = np.cov(values, rowvar=False, bias=True)
    observed = independent = 0.0
    for j in range(k):
        for m in range(j + 1, k):
            observed += np.mean((values[:, j] - values[:, m]) ** 2)
            independent += cov[j, j] + cov[m, m] + (means[j] - means[m]) ** 2
    return float(1 - observed / independent)


def vc_ccc_mixedlm(subject: np.ndarray, rater: np.ndarray, value: np.ndarray,
                   interaction: bool = False) -> float:
    """The variance-components CCC from statsmodels' MixedLM (REML)."""
    import pandas as pd
    import statsmodels.formula.api as smf

    frame = pd.DataFrame({"s": subject, "r": rater.astype(str), "y": value})
    k = frame["r"].nunique()
    n = frame["s"].nunique()
    vc = {"sr": "0 + C(r)"} if interaction else None
    model = smf.mixedlm("y ~ 0 + C(r)", frame, groups=frame["s"], re_formula="1",
                        vc_formula=vc)
    fit = model.fit(reml=True, method=["lbfgs"])
    subject_var = float(fit.cov_re.iloc[0, 0])
    error_var = float(fit.scale)
    interaction_var = float(fit.vcomp[0]) if interaction else 0.0
    beta = fit.fe_params.to_numpy()
    per_cell = len(frame) / (n * k)
    # Var of a fitted rater mean's deviation: (interaction + error/m)/n per rater
    noise = (interaction_var + error_var / per_cell) / n
    rater_var = float(((beta - beta.mean()) ** 2).sum() / (k - 1)) - noise
    return subject_var / (subject_var + rater_var + interaction_var + error_var)


def tdi_exact_root(mean: float, sd: float, p: float) -> float:
    """The p-quantile of |D|, D ~ N(mean, sd^2), by root finding."""
    from scipy.optimize import brentq
    from scipy.stats import norm

    def excess(t: float) -> float:
        return norm.cdf((t - mean) / sd) - norm.cdf((-t - mean) / sd) - p

    return float(brentq(excess, 0.0, abs(mean) + 20 * sd, xtol=1e-14))


def cp_scipy(mean: float, sd: float, delta: float) -> float:
    from scipy.stats import norm

    return float(norm.cdf(delta, mean, sd) - norm.cdf(-delta, mean, sd))


if __name__ == "__main__":
    n = WRIGHT.size
    print("CCC", ccc_direct(WRIGHT, MINI))
    print("var (delta, 1/n)", ccc_delta_variance(WRIGHT, MINI))
    print("var (Lin, n - 2)", ccc_delta_variance(WRIGHT, MINI) * n / (n - 2))
    d = WRIGHT - MINI
    print("TDI0.9 exact", tdi_exact_root(d.mean(), d.std(ddof=1), 0.9))
    print("CP(50)", cp_scipy(d.mean(), d.std(ddof=1), 50.0))
