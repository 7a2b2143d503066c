"""Bootstrap of multi-rater coefficients on one resampling plan, against the draw floor.

Run by hand (not a test)::

    python benchmarks/bench_paired_bootstrap.py

Every coefficient of an Agreement resamples the same subjects (one plan over the rater-code
patterns; with many raters a two-stage draw whose first stage is over the subject x category
count patterns). The floor is the cheapest draw a coefficient could make in the same run:
B multinomial draws of n subjects over the count patterns (for Fleiss, Gwet, alpha) or over
the rater-code patterns (for Conger and Light, which need rater identities). Prints a
markdown table of best-of-3 wall times (B = 9999 resamples, percentile intervals) and the
ratio to the floor.
"""

from __future__ import annotations

import sys
import time
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))  # this checkout's irr

import irr

B = 9999


def best_of(fn, repeat=3):
    times = []
    for _ in range(repeat):
        start = time.perf_counter()
        fn()
        times.append(time.perf_counter() - start)
    return min(times)


def ratings(n, m, k, seed=0):
    rng = np.random.default_rng(seed)
    truth = rng.integers(0, k, n)
    return np.column_stack([np.where(rng.random(n) < 0.6, truth, rng.integers(0, k, n))
                            for _ in range(m)])


def floor(multiplicity):
    rng = np.random.default_rng(0)
    p = multiplicity / multiplicity.sum()
    return best_of(lambda: rng.multinomial(int(multiplicity.sum()), p, size=B))


def main():
    print("| n x raters x categories | rater-code / count patterns | coefficient | irr (s) "
          "| floor (s) | ratio |")
    print("|---|---|---|---:|---:|---:|")
    for n, m, k in [(100_000, 5, 5), (10_000, 10, 4), (2_000, 20, 5)]:
        ag = irr.Agreement.from_array(ratings(n, m, k))
        stats = ag.statistics
        fine, counts = stats.multiplicity, stats.count_patterns.multiplicity
        floors = {"counts": floor(counts), "fine": floor(fine)}
        shape = f"{len(fine)} / {len(counts)}"
        calls = [("fleiss_kappa", "counts", {}), ("gwet_ac", "counts", {}),
                 ("krippendorff_alpha", "counts", {}), ("conger_kappa", "fine", {}),
                 ("light_kappa", "fine", {})]
        for method, level, extra in calls:
            def run(ag=ag, method=method, extra=extra):
                getattr(ag, method)(ci="percentile", n_resamples=B, rng=0, **extra)

            seconds = best_of(run)
            print(f"| {n:,} x {m} x {k} | {shape} | {method} | {seconds:.3f} | "
                  f"{floors[level]:.3f} ({level}) | {seconds / floors[level]:.1f}x |")


if __name__ == "__main__":
    main()
