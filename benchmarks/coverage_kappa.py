"""Coverage of 95% intervals for quadratic weighted kappa: Wald (FCE SE) against the bootstrap.

Run by hand (not a test)::

    python benchmarks/coverage_kappa.py            # the numbers in docs/guide/inference.md
    python benchmarks/coverage_kappa.py --quick    # fewer replications, a few seconds

Design. Two raters grade subjects on a 5-point scale (scores 0..4) by cutting a latent
bivariate normal with correlation ``rho`` at thresholds; rater 2's thresholds are those of
rater 1 shifted up by ``shift`` (a systematic difference between the raters). The population
k x k table P is computed exactly from the bivariate normal CDF, and the *true* quadratic
kappa is the kappa of P. Each replication draws a table of n subjects from
Multinomial(n, P).

* Wald: the default interval of ``Agreement.kappa(weights="quadratic")``, estimate
  +- 1.96 x the Fleiss-Cohen-Everitt SE, clipped to [-1, 1]. It is evaluated for all
  replications at once with the same batch functions the estimator uses
  (:mod:`irr.coefficients.kappa`); the first replication of every cell is checked against
  the estimator itself.
* BCa and percentile: ``Agreement.from_table(table).kappa("quadratic", ci="bca",
  n_resamples=B, rng=seed)`` on each replication, and ``conf_int(method="percentile")`` on the
  same resamples.

Coverage is the share of replications whose interval contains the true kappa; a
replication whose kappa is undefined (every subject in one category) counts as a miss.
Monte Carlo SE of a coverage near .95 is sqrt(.95 x .05 / R): .0015 for the Wald column
(R_WALD = 20000) and .0049 for the bootstrap columns (R_BOOT = 2000). Seeds are fixed, so
the output is the same on every run. Runtime: two to four minutes on one core.
"""

from __future__ import annotations

import argparse
import sys
import time
import warnings
from pathlib import Path

import numpy as np
from scipy.stats import multivariate_normal

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))  # this checkout's irr

import irr
from irr.coefficients.kappa import kappa_parts, kappa_variances
from irr.weights import agreement_weights

K = 5
SCORES = np.arange(K, dtype=float)
WEIGHTS = agreement_weights("quadratic", K, SCORES)
SIZES = (50, 100, 200, 400)
R_WALD = 20_000
R_BOOT = 2_000
N_RESAMPLES = 999
SEED = 20261123
Z = 1.959963984540054  # normal 97.5% quantile

#: name -> (latent correlation, rater 1 thresholds, shift of rater 2's thresholds)
DESIGNS = {
    "symmetric margins": (0.7, (-1.5, -0.5, 0.5, 1.5), 0.2),
    "skewed margins": (0.9, (0.0, 0.7, 1.3, 1.9), 0.2),
    "very skewed margins": (0.8, (0.5, 1.2, 1.7, 2.2), 0.3),
}


def population_table(rho: float, cuts: tuple[float, ...], shift: float) -> np.ndarray:
    """Cell probabilities of the two raters' grades under the latent bivariate normal."""
    big = 12.0  # stands in for infinity in the CDF (normal tail mass beyond 12 is < 1e-32)
    edges1 = np.r_[-big, cuts, big]
    edges2 = np.r_[-big, np.add(cuts, shift), big]
    grid = np.stack(np.meshgrid(edges1, edges2, indexing="ij"), axis=-1)
    cdf = multivariate_normal(mean=[0.0, 0.0], cov=[[1.0, rho], [rho, 1.0]]).cdf(grid)
    table = np.diff(np.diff(cdf, axis=0), axis=1)
    return table / table.sum()


def wald_coverage(tables: np.ndarray, truth: float) -> float:
    with np.errstate(invalid="ignore", divide="ignore"):
        kappa = kappa_parts(tables, WEIGHTS).kappa
        var, _ = kappa_variances(tables, WEIGHTS)
    se = np.sqrt(var)
    low = np.clip(kappa - Z * se, -1.0, 1.0)
    high = np.clip(kappa + Z * se, -1.0, 1.0)
    return float(np.mean((low <= truth) & (truth <= high)))  # nan bounds compare False


def estimator(table: np.ndarray, **options):
    ag = irr.Agreement.from_table(table, categories=list(SCORES))
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        return ag.kappa("quadratic", **options)


def bootstrap_coverage(tables: np.ndarray, truth: float, seeds: np.ndarray) -> tuple[float, float]:
    hits = np.zeros((tables.shape[0], 2), dtype=bool)
    for i, (table, seed) in enumerate(zip(tables, seeds, strict=True)):
        res = estimator(table, ci="bca", n_resamples=N_RESAMPLES, rng=int(seed))
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            percentile = res.conf_int(method="percentile")
        for j, (low, high) in enumerate((res.ci, percentile)):
            hits[i, j] = bool(low <= truth <= high)
    return float(hits[:, 0].mean()), float(hits[:, 1].mean())


def check_against_estimator(table: np.ndarray) -> None:
    """The vectorised Wald interval is the estimator's default interval."""
    res = estimator(table)
    with np.errstate(invalid="ignore", divide="ignore"):
        kappa = float(kappa_parts(table, WEIGHTS).kappa)
        se = float(np.sqrt(kappa_variances(table, WEIGHTS)[0]))
    expected = (max(kappa - Z * se, -1.0), min(kappa + Z * se, 1.0))
    np.testing.assert_allclose(tuple(res.ci), expected, rtol=0, atol=1e-12)


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="R = 2000 Wald, 200 bootstrap")
    args = parser.parse_args(argv)
    r_wald, r_boot = (2_000, 200) if args.quick else (R_WALD, R_BOOT)

    start = time.perf_counter()
    print(
        f"Quadratic weighted kappa, {K} categories, nominal 95%; Wald R = {r_wald}, "
        f"bootstrap R = {r_boot} with B = {N_RESAMPLES}; seed {SEED}.\n"
    )
    print("| design | true kappa | margins (rater 1) | n | Wald | BCa | percentile |")
    print("| --- | --- | --- | --- | --- | --- | --- |")
    root = np.random.SeedSequence(SEED)
    design_seqs = root.spawn(len(DESIGNS))
    for (name, (rho, cuts, shift)), design_seq in zip(DESIGNS.items(), design_seqs, strict=True):
        population = population_table(rho, cuts, shift)
        truth = float(kappa_parts(population, WEIGHTS).kappa)
        margins = "/".join(f"{p:.2f}" for p in population.sum(axis=1))
        for n, seq in zip(SIZES, design_seq.spawn(len(SIZES)), strict=True):
            rng = np.random.default_rng(seq)
            tables = rng.multinomial(n, population.ravel(), size=r_wald).reshape(-1, K, K)
            check_against_estimator(tables[0])
            wald = wald_coverage(tables, truth)
            seeds = rng.integers(0, 2**32, size=r_boot)
            bca, percentile = bootstrap_coverage(tables[:r_boot], truth, seeds)
            print(
                f"| {name} (rho {rho}) | {truth:.3f} | {margins} | {n} | {wald:.3f} | "
                f"{bca:.3f} | {percentile:.3f} |",
                flush=True,
            )
    print(f"\n{time.perf_counter() - start:.0f} s")


if __name__ == "__main__":
    main()
