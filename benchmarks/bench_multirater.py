"""Fleiss' kappa on 10^6 subjects x 5 raters: irr against statsmodels (run by hand).

    python benchmarks/bench_multirater.py [n_subjects] [n_raters]

Prints a markdown table of the best of 3 wall-clock times. irr's time includes building
the Agreement from the raw (n, m) array, Gwet's linearised SE, the Fleiss-Nee-Landis null
SE and the per-category kappas; statsmodels' is ``aggregate_raters`` + ``fleiss_kappa``
(estimate only).
"""

from __future__ import annotations

import sys
import time
from pathlib import Path

import numpy as np
import pandas as pd

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))  # this checkout's irr


def best_of(fn, repeat=3):
    times = []
    value = None
    for _ in range(repeat):
        start = time.perf_counter()
        value = fn()
        times.append(time.perf_counter() - start)
    return min(times), value


def main(n: int = 1_000_000, m: int = 5, k: int = 5) -> None:
    from statsmodels.stats import inter_rater

    import irr

    rng = np.random.default_rng(0)
    truth = rng.integers(0, k, n)
    x = np.where(rng.random((n, m)) < 0.6, truth[:, None], rng.integers(0, k, (n, m)))

    def ours():
        return irr.Agreement.from_array(x).fleiss_kappa().estimate

    def build():
        return irr.Agreement.from_array(x), None

    def theirs():
        table, _ = inter_rater.aggregate_raters(x)
        return inter_rater.fleiss_kappa(table, method="fleiss")

    t_build, (ag, _) = best_of(build)
    t_fit, _ = best_of(lambda: ag.fleiss_kappa().estimate)
    t_ours, k_ours = best_of(ours)
    frame = pd.DataFrame(x, columns=[f"rater{g}" for g in range(m)])
    t_frame, _ = best_of(lambda: irr.Agreement.from_frame(frame).fleiss_kappa().estimate)
    t_theirs, k_theirs = best_of(theirs)
    if abs(k_ours - k_theirs) > 1e-12:
        raise SystemExit(f"estimates differ: {k_ours!r} vs {k_theirs!r}")
    print(f"Fleiss' kappa, {n:,} subjects x {m} raters, {k} categories (best of 3)\n")
    print("| step | seconds | speed-up vs statsmodels |")
    print("|---|---:|---:|")
    print(f"| statsmodels aggregate_raters + fleiss_kappa | {t_theirs:.3f} | 1.0x |")
    print(f"| irr Agreement.from_array + fleiss_kappa (SE, se0, per category) | {t_ours:.3f} "
          f"| {t_theirs / t_ours:.1f}x |")
    print(f"| irr Agreement.from_frame (DataFrame) + fleiss_kappa | {t_frame:.3f} "
          f"| {t_theirs / t_frame:.1f}x |")
    print(f"| irr Agreement.from_array alone | {t_build:.3f} | |")
    print(f"| irr fleiss_kappa alone | {t_fit:.3f} | |")
    print(f"\nkappa = {k_ours:.10f} (both)")


if __name__ == "__main__":
    main(*(int(a) for a in sys.argv[1:]))
