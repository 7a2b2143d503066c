"""Two-rater kappa: irr against a bare np.bincount and scikit-learn, in the same run.

Run by hand: ``python benchmarks/bench_kappa.py``. Prints a markdown table of medians.
Targets (issue 2): quadratic kappa on 10^7 integer pairs within 1.5x of a bare
``np.bincount(a * k + b)``, and >= 20x faster than ``sklearn.metrics.cohen_kappa_score``;
string labels at 10^6 pairs >= 20x faster than scikit-learn given the same label order.
"""

from __future__ import annotations

import statistics
import time

import numpy as np

import irr


def median_time(func, repeat: int) -> float:
    times = []
    for _ in range(repeat):
        start = time.perf_counter()
        func()
        times.append(time.perf_counter() - start)
    return statistics.median(times)


def main() -> None:
    from sklearn.metrics import cohen_kappa_score

    rng = np.random.default_rng(0)
    k = 5
    n = 10**7
    a = rng.integers(1, k + 1, n)
    b = np.clip(a + rng.integers(-1, 2, n), 1, k)
    rows = []

    bare = median_time(lambda: np.bincount(a * k + b, minlength=k * k + k + 1), 7)
    qwk = median_time(lambda: irr.quadratic_weighted_kappa(a, b), 7)
    agreement = median_time(lambda: irr.Agreement(a, b).kappa("quadratic"), 5)
    sklearn = median_time(lambda: cohen_kappa_score(a, b, weights="quadratic"), 3)
    rows += [
        ("10^7 int pairs", "np.bincount(a*k+b) (floor)", bare, 1.0),
        ("10^7 int pairs", "irr.quadratic_weighted_kappa", qwk, qwk / bare),
        ("10^7 int pairs", "irr.Agreement(a, b).kappa('quadratic') (+SEs)", agreement, agreement / bare),
        ("10^7 int pairs", "sklearn cohen_kappa_score", sklearn, sklearn / bare),
    ]

    m = 10**6
    labels = np.array(["none", "mild", "moderate", "severe", "critical"], dtype=object)
    sa = labels[a[:m] - 1]
    sb = labels[b[:m] - 1]
    order = list(labels)
    ours = median_time(lambda: irr.Agreement(sa, sb, categories=order).kappa("quadratic"), 5)
    theirs = median_time(
        lambda: cohen_kappa_score(sa, sb, labels=order, weights="quadratic"), 3
    )
    rows += [
        ("10^6 string pairs", "irr.Agreement(..., categories=order).kappa('quadratic')", ours, 1.0),
        ("10^6 string pairs", "sklearn cohen_kappa_score(labels=order)", theirs, theirs / ours),
    ]

    print("| data | method | median (s) | ratio |")
    print("| --- | --- | ---: | ---: |")
    for data, method, seconds, ratio in rows:
        print(f"| {data} | {method} | {seconds:.4f} | {ratio:.2f} |")
    print()
    print(f"irr.quadratic_weighted_kappa / bare bincount: {qwk / bare:.2f}x (target <= 1.5)")
    print(f"scikit-learn / irr.quadratic_weighted_kappa (ints): {sklearn / qwk:.1f}x (target >= 20)")
    print(f"scikit-learn / irr (strings): {theirs / ours:.1f}x (target >= 20)")


if __name__ == "__main__":
    main()
