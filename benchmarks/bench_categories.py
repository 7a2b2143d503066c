"""Issue #17, many categories: Fleiss, Gwet's AC1 and Light's kappa with k = 100 categories
on 3 x 10^4 subjects x 5 raters, against statsmodels and scikit-learn (run by hand).

    python benchmarks/bench_categories.py [n_subjects] [rounds]

Ours is what a user calls: ``irr.Agreement.from_array(x).<coefficient>()`` from the raw
(n, m) array, with the default inference (Gwet's linearised SE; Fleiss also the
Fleiss-Nee-Landis null SE and the per-category kappas; no bootstrap). The peers:
statsmodels' ``aggregate_raters`` + ``fleiss_kappa`` (estimate only) for Fleiss and Gwet,
scikit-learn's ``cohen_kappa_score`` averaged over the rater pairs for Light. Times are
per-round ratios against the peer timed right after in the same round (median of the
rounds); memory is the tracemalloc peak of one call.
"""

from __future__ import annotations

import statistics
import sys
import warnings
from pathlib import Path

import numpy as np
from _timing import peak_mb, seconds

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))  # this checkout's irr

ROW = "Fleiss / Gwet / Light with k ≈ 100 categories, 3x10^4 x 5"


def _data(n: int, m: int = 5, k: int = 100) -> np.ndarray:
    rng = np.random.default_rng(0)
    truth = rng.integers(0, k, n)
    return np.where(rng.random((n, m)) < 0.6, truth[:, None], rng.integers(0, k, (n, m)))


def _cases(x: np.ndarray):
    from sklearn.metrics import cohen_kappa_score
    from statsmodels.stats import inter_rater

    import irr

    m = x.shape[1]

    def statsmodels_fleiss():
        table, _ = inter_rater.aggregate_raters(x)
        return inter_rater.fleiss_kappa(table, method="fleiss")

    def sklearn_light():
        return np.mean([cohen_kappa_score(x[:, g], x[:, h])
                        for g in range(m) for h in range(g + 1, m)])

    def ours(name):
        def call():
            with warnings.catch_warnings():
                warnings.simplefilter("ignore")  # ContinuousScoresWarning: 100 categories
                return getattr(irr.Agreement.from_array(x), name)()
        return call

    return [
        ("Fleiss' kappa", ours("fleiss_kappa"), "statsmodels fleiss_kappa", statsmodels_fleiss),
        ("Gwet's AC1", ours("gwet_ac"), "statsmodels fleiss_kappa", statsmodels_fleiss),
        ("Light's kappa", ours("light_kappa"), "scikit-learn cohen_kappa_score, mean of pairs",
         sklearn_light),
    ]


def rows(n: int = 30_000, rounds: int = 5) -> list[dict]:
    """One row per coefficient: median over `rounds` interleaved rounds of ours / peer."""
    x = _data(n)
    out = []
    for what, ours, ref, peer in _cases(x):
        ours(), peer()  # warm up (imports, caches of the first call)
        times, ref_times, ratios = [], [], []
        for _ in range(rounds):
            t_ours, t_ref = seconds(ours), seconds(peer)
            times.append(t_ours)
            ref_times.append(t_ref)
            ratios.append(t_ours / t_ref)
        ratio = statistics.median(ratios)
        out.append({
            "row": f"{ROW}: {what}",
            "ours_s": statistics.median(times),
            "ref_s": statistics.median(ref_times),
            "ref": ref,
            "ratio": ratio,
            "goal": "< 1x (faster than the peer)",
            "ok": ratio < 1.0,
            "ours_mb": peak_mb(ours),
            "ref_mb": peak_mb(peer),
        })
    return out


if __name__ == "__main__":
    n = int(sys.argv[1]) if len(sys.argv) > 1 else 30_000
    rounds = int(sys.argv[2]) if len(sys.argv) > 2 else 5
    print("| what a user does | ours (s) | peer (s) | peer | ratio | goal | ok | ours MB | peer MB |")
    print("|---|---|---|---|---|---|---|---|---|")
    for r in rows(n, rounds):
        print(f"| {r['row']} | {r['ours_s']:.4f} | {r['ref_s']:.4f} | {r['ref']} | "
              f"{r['ratio']:.2f}x | {r['goal']} | {'yes' if r['ok'] else 'NO'} | "
              f"{r['ours_mb']:.0f} | {r['ref_mb']:.0f} |")
