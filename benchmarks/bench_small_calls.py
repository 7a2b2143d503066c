"""Issue 31: small calls, where the fixed cost of a call is what a user waits for.

    python benchmarks/bench_small_calls.py

or as part of ``python benchmarks/run_all.py``.

* Weighted kappa on 100 pairs, ``irr.Agreement(a, b).kappa("quadratic")``, against
  scikit-learn's ``cohen_kappa_score(a, b, weights="quadratic")`` timed right after it in
  each round: goal at least 5x faster (a ratio <= 0.2); the note gives the time per call
  (goal <= 0.5 ms on an unloaded machine; CPU time, which a loaded machine inflates less
  than wall time) and the median ratio of CPU times.
"""

from __future__ import annotations

import sys
import time
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent))
sys.path.insert(0, str(Path(__file__).resolve().parents[1]))  # this checkout's irr
from _timing import interleaved_with_cpu

ROW = 'weighted kappa on 100 pairs, `Agreement(a, b).kappa("quadratic")`'


def _repeat(call, times: int):
    def run():
        for _ in range(times):  # a batch of calls: each is well under a millisecond
            call()
    return run


def rows(quick: bool = False, rounds: int = 15) -> list[dict]:
    from sklearn.metrics import cohen_kappa_score

    import irr

    rng = np.random.default_rng(0)
    a = rng.integers(0, 5, 100)
    b = np.clip(a + rng.integers(-1, 2, 100), 0, 4)
    calls = 50 if quick else 200
    ours = _repeat(lambda: irr.Agreement(a, b).kappa("quadratic"), calls)
    peer = _repeat(lambda: cohen_kappa_score(a, b, weights="quadratic"), calls)
    ours(), peer()  # warm up
    t_ours, t_ref, ratio, cpu = interleaved_with_cpu(ours, peer, rounds)
    start = time.process_time()
    ours()
    per_call = (time.process_time() - start) / calls
    return [{"row": ROW, "case": 'Agreement(a, b).kappa("quadratic")', "size": "100 pairs",
             "ours_s": t_ours / calls, "ref_s": t_ref / calls,
             "ref": "scikit-learn cohen_kappa_score", "ratio": ratio,
             "goal": "<= 0.2x (5x faster)", "ok": ratio <= 0.2, "ours_mb": None,
             "ref_mb": None, "note": f"{per_call * 1e3:.2f} ms of CPU per call (goal <= 0.5 ms "
                                     f"unloaded); CPU-time ratio {cpu:.2f}x"}]


if __name__ == "__main__":
    for r in rows():
        print(f"{r['case']}  ours {r['ours_s'] * 1e3:.3f} ms  {r['ref']} "
              f"{r['ref_s'] * 1e3:.3f} ms  {r['ratio']:.2f}x  goal {r['goal']}  "
              f"{'ok' if r['ok'] else 'NO'}  {r['note']}")
