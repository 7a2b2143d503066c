"""Independent computations of the limits-of-agreement numbers (issue #18), by other routes
than irr/estimators/limits.py: statsmodels regressions and ANOVA / mixed models, pandas
group-bys, brute-force binomial sums and Monte Carlo pivots. The tests import these
functions and compare; run this file to print the values.
"""

from __future__ import annotations

import math

import numpy as np
import pandas as pd


def exact_factor_by_simulation(n: int, z: float, q: float, draws: int = 2_000_000,
                               seed: int = 1) -> float:
    """The q-quantile of sqrt(n) (mu + z sigma - dbar) / s / sqrt(n), simulated from its
    definition (normal mean, chi-square variance) instead of the non-central t law."""
    rng = np.random.default_rng(seed)
    dbar = rng.standard_normal(draws) / math.sqrt(n)  # mu = 0, sigma = 1
    s = np.sqrt(rng.chisquare(n - 1, draws) / (n - 1))
    return float(np.quantile((z - dbar) / s, q))


def regression_limits_statsmodels(x, y, z: float) -> dict[str, float]:
    """Bland & Altman (1999, section 3.2) by statsmodels OLS: differences on means, then
    absolute residuals on means."""
    import statsmodels.api as sm

    x, y = np.asarray(x, float), np.asarray(y, float)
    a, d = (x + y) / 2, x - y
    design = sm.add_constant(a)
    first = sm.OLS(d, design).fit()
    second = sm.OLS(np.abs(first.resid), design).fit()
    return {"b0": first.params[0], "b1": first.params[1], "b1_se": first.bse[1],
            "b1_p": first.pvalues[1], "c0": second.params[0], "c1": second.params[1],
            "half0": z * math.sqrt(math.pi / 2) * second.params[0],
            "half1": z * math.sqrt(math.pi / 2) * second.params[1]}


def constant_design_pandas(long: pd.DataFrame, first: str, second: str) -> dict[str, float]:
    """Bland & Altman (2007), true value constant, by pandas group-bys on a long frame
    with columns subject, method, value."""
    g = long.groupby(["subject", "method"])["value"]
    stats = g.agg(["mean", "count", "var"]).unstack("method")
    means, counts = stats["mean"], stats["count"]
    d = means[first] - means[second]
    within = {}
    for m in (first, second):
        dev = long[long.method == m].groupby("subject")["value"].transform(
            lambda v: v - v.mean())
        ss = float((dev ** 2).sum())
        within[m] = ss / (counts[m].sum() - len(counts))
    variance = (d.var(ddof=1) + (1 - (1 / counts[first]).mean()) * within[first]
                + (1 - (1 / counts[second]).mean()) * within[second])
    return {"bias": d.mean(), "sd": math.sqrt(variance), "within_first": within[first],
            "within_second": within[second], "var_dbar": d.var(ddof=1)}


def varying_design_statsmodels(subject, difference) -> dict[str, float]:
    """One-way random-effects components of paired differences: the ANOVA table of
    statsmodels OLS with a subject factor, and REML from statsmodels MixedLM."""
    import statsmodels.formula.api as smf
    from statsmodels.stats.anova import anova_lm

    frame = pd.DataFrame({"subject": np.asarray(subject).astype(str), "d": difference})
    table = anova_lm(smf.ols("d ~ C(subject)", frame).fit())
    msb, msw = table["mean_sq"].iloc[0], table["mean_sq"].iloc[1]
    counts = frame.groupby("subject").size().to_numpy(float)
    big_n, n = counts.sum(), counts.size
    m0 = (big_n - (counts ** 2).sum() / big_n) / (n - 1)
    mixed = smf.mixedlm("d ~ 1", frame, groups=frame["subject"]).fit(reml=True)
    return {"msb": msb, "msw": msw, "m0": m0, "between_anova": (msb - msw) / m0,
            "between_reml": float(mixed.cov_re.iloc[0, 0]), "within_reml": float(mixed.scale)}


def order_statistic_coverage(n: int, p: float, r: int, s: int) -> float:
    """P(r <= B < s), B ~ Binomial(n, p), by summing the binomial terms."""
    return sum(math.comb(n, k) * p ** k * (1 - p) ** (n - k) for k in range(r, s))


def main() -> None:
    for n in (10, 17, 20):
        print(n, exact_factor_by_simulation(n, 1.959964, 0.975))


if __name__ == "__main__":
    main()
