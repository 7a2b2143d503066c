"""Two-rater kappa on 10^8 int8-coded pairs: time and extra memory.

Run by hand: ``python benchmarks/bench_large.py [n]`` (default n = 10**8; needs about
0.5 GiB for the inputs). Prints the wall time and the tracemalloc peak of
``irr.Agreement(a, b).kappa("quadratic")`` and of ``irr.quadratic_weighted_kappa(a, b)``.

Budget checked: the tracemalloc peak beyond the two int8 inputs stays below 64 MiB plus
the Agreement's own int8 category codes (one byte per rater per pair: 2n bytes), i.e. no
full-length int64 (8n bytes), bool (n bytes) or float temporary is made on this path:
integer coding, the missing-rating check and the table build all work in chunks of 2**20.
quadratic_weighted_kappa keeps no codes and builds its table in chunks: its budget is
64 MiB flat.
"""

from __future__ import annotations

import sys
import time
import tracemalloc

import numpy as np

import irr

MIB = 1 << 20


def measure(label: str, func, budget: float) -> bool:
    tracemalloc.start()
    start = time.perf_counter()
    value = func()
    elapsed = time.perf_counter() - start
    _, peak = tracemalloc.get_traced_memory()
    tracemalloc.stop()
    ok = peak <= budget
    print(f"{label:<45} {elapsed:8.2f} s   peak {peak / MIB:9.1f} MiB   "
          f"budget {budget / MIB:9.1f} MiB   {'OK' if ok else 'OVER'}   value {value:.6f}")
    return ok


def main(n: int = 10**8) -> int:
    rng = np.random.default_rng(0)
    a = rng.integers(1, 6, n, dtype=np.int8)
    b = np.clip(a + rng.integers(-1, 2, n, dtype=np.int8), 1, 5).astype(np.int8)
    print(f"n = {n:,} int8 pairs; inputs {2 * n / MIB:.0f} MiB")
    ok = measure("Agreement(a, b).kappa('quadratic')",
                 lambda: irr.Agreement(a, b).kappa("quadratic").estimate, 64 * MIB + 2 * n)
    ok &= measure("Agreement(a, b).kappa() (unweighted)",
                  lambda: irr.Agreement(a, b).kappa().estimate, 64 * MIB + 2 * n)
    ok &= measure("quadratic_weighted_kappa(a, b)",
                  lambda: irr.quadratic_weighted_kappa(a, b), 64 * MIB)
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main(int(float(sys.argv[1])) if len(sys.argv) > 1 else 10**8))
