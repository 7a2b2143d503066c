"""Sparse designs (issue 15, B5): the crowdsourcing shape, 40k items x 4,000 workers x 3.

Run by hand: ``python benchmarks/bench_sparse.py``. Reports each step's time and peak
traced memory as ratios against a floor: ``np.unique`` of the ratings' (item, worker,
label) keys and the memory of the long frame's three columns.
"""

import time
import tracemalloc
import warnings

import numpy as np
import pandas as pd

import irr


def crowd(n=40_000, m=4_000, r=3, k=4, seed=1):
    rng = np.random.default_rng(seed)
    first = rng.integers(0, m, n)
    workers = (first[:, None] + rng.integers(1, 1000, (n, 1)) * np.arange(r)) % m
    truth = rng.integers(0, k, n)
    labels = np.where(rng.random((n, r)) < 0.3, rng.integers(0, k, (n, r)), truth[:, None])
    return pd.DataFrame({"item": np.repeat(np.arange(n), r), "worker": workers.ravel(),
                         "label": labels.ravel()})


def measure(call):
    tracemalloc.start()
    start = time.perf_counter()
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        out = call()
    seconds = time.perf_counter() - start
    peak = tracemalloc.get_traced_memory()[1]
    tracemalloc.stop()
    return out, seconds, peak


def main():
    df = crowd()
    keys = (df["item"].to_numpy() * 4000 + df["worker"].to_numpy()) * 4 + df["label"].to_numpy()
    _, floor_time, _ = measure(lambda: np.unique(keys))
    floor_memory = df.memory_usage(deep=True).sum()
    ag, t, peak = measure(lambda: irr.Agreement.from_long(df, subject="item", rater="worker",
                                                          rating="label"))
    steps = {"from_long + statistics": (lambda: ag.statistics)}
    steps.update({
        "fleiss_kappa": ag.fleiss_kappa, "gwet_ac": ag.gwet_ac,
        "brennan_prediger": ag.brennan_prediger, "percent_agreement": ag.percent_agreement,
        "krippendorff_alpha": ag.krippendorff_alpha, "conger_kappa": ag.conger_kappa,
        "summary": lambda: str(ag.summary()),
    })
    print(f"floor: np.unique of {len(keys)} keys {floor_time * 1e3:.1f} ms; "
          f"frame {floor_memory / 2**20:.1f} MiB")
    print(f"{'step':26s} {'seconds':>8s} {'x floor':>8s} {'peak MiB':>9s} {'x frame':>8s}")
    print(f"{'from_long':26s} {t:8.3f} {t / floor_time:8.1f} {peak / 2**20:9.1f} "
          f"{peak / floor_memory:8.1f}")
    for name, call in steps.items():
        _, t, peak = measure(call)
        print(f"{name:26s} {t:8.3f} {t / floor_time:8.1f} {peak / 2**20:9.1f} "
              f"{peak / floor_memory:8.1f}")


if __name__ == "__main__":
    main()
