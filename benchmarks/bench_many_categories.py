"""Issue 31: coefficients on category counts with many categories, and the multi-rater
object build, each against the few numpy lines of the same arithmetic (pairwise equality
counts and one bincount), timed back to back in each round.

    python benchmarks/bench_many_categories.py [--quick]

or as part of ``python benchmarks/run_all.py``.

* Fleiss' kappa, Gwet's AC1 and Conger's kappa, ``irr.Agreement.from_array(X).<coefficient>()``
  with their default inference, k = 101 categories, 3 x 10^4 subjects x 5 raters (goal: at
  most 5x the floor).
* The multi-rater object build: ``from_array(X).fleiss_kappa()``, k = 5, 10^5 x 5 (at most
  1.5x the floor).

The floors (:func:`floor`): observed agreement from the pairwise equality counts of the
rater columns; chance agreement from one bincount of all ratings (Fleiss, Gwet) or one per
rater (Conger).
"""

from __future__ import annotations

import sys
import warnings
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent))
sys.path.insert(0, str(Path(__file__).resolve().parents[1]))  # this checkout's irr
from _timing import interleaved_with_cpu

ROW_K = "Fleiss / Gwet / Conger with k = 101 categories, 3x10^4 x 5"
ROW_BUILD = "multi-rater object build, k = 5, 10^5 x 5 (`from_array(X).fleiss_kappa()`)"


def data(n: int, k: int, m: int = 5, seed: int = 0) -> np.ndarray:
    rng = np.random.default_rng(seed)
    truth = rng.integers(0, k, n)
    return np.where(rng.random((n, m)) < 0.6, truth[:, None], rng.integers(0, k, (n, m)))


def floor(x: np.ndarray, k: int, coefficient: str) -> float:
    """The coefficient of complete ratings `x` (n, m) with codes 0..k-1, in numpy."""
    n, m = x.shape
    pairs = m * (m - 1) // 2
    agree = sum(int(np.count_nonzero(x[:, a] == x[:, b]))
                for a in range(m) for b in range(a + 1, m))  # a loop over rater pairs
    po = agree / (n * pairs)
    if coefficient == "conger":
        p = np.stack([np.bincount(x[:, a], minlength=k) for a in range(m)]) / n
        total = p.sum(axis=0)
        pe = float((total * total - (p * p).sum(axis=0)).sum()) / (m * (m - 1))
    else:
        p = np.bincount(x.ravel(), minlength=k) / x.size
        pe = float(p @ p) if coefficient == "fleiss" else float((p * (1 - p)).sum() / (k - 1))
    return (po - pe) / (1 - pe)


def _row(row, case, size, ours, ref, goal, rounds):
    ours(), ref()  # warm up
    t_ours, t_ref, ratio, cpu = interleaved_with_cpu(ours, ref, rounds)
    return {"row": row, "case": case, "size": size, "ours_s": t_ours, "ref_s": t_ref,
            "ref": "numpy: pairwise equality counts + bincount", "ratio": ratio,
            "goal": f"<= {goal:g}x", "ok": ratio <= goal, "ours_mb": None, "ref_mb": None,
            "note": f"CPU-time ratio {cpu:.2f}x"}


def rows(quick: bool = False, rounds: int = 11) -> list[dict]:
    import irr

    def ours(x, name):
        def call():
            with warnings.catch_warnings():
                warnings.simplefilter("ignore")  # ContinuousScoresWarning: 101 categories
                return getattr(irr.Agreement.from_array(x), name)()
        return call

    n = 3_000 if quick else 30_000
    x = data(n, 101)
    out = []
    for name, coefficient in (("fleiss_kappa", "fleiss"), ("gwet_ac", "gwet"),
                              ("conger_kappa", "conger")):
        out.append(_row(ROW_K, f"from_array(X).{name}()", f"{n:,} x 5, k = 101",
                        ours(x, name), lambda c=coefficient: floor(x, 101, c), 5, rounds))
    big = data(10**4 if quick else 10**5, 5)
    out.append(_row(ROW_BUILD, "from_array(X).fleiss_kappa()", f"{len(big):,} x 5, k = 5",
                    ours(big, "fleiss_kappa"), lambda: floor(big, 5, "fleiss"), 1.5, rounds))
    return out


if __name__ == "__main__":
    for r in rows(quick="--quick" in sys.argv):
        print(f"{r['case']:34s} {r['size']:>20s}  ours {r['ours_s'] * 1e3:8.1f} ms  "
              f"floor {r['ref_s'] * 1e3:8.1f} ms  {r['ratio']:6.2f}x  goal {r['goal']}  "
              f"{'ok' if r['ok'] else 'NO'}  {r['note']}")
