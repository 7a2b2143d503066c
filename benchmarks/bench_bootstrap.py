"""Benchmark: BCa bootstrap of quadratic weighted kappa, pattern engine vs scipy.stats.bootstrap.

Run by hand (not a test)::

    PYTHONPATH=. python benchmarks/bench_bootstrap.py [--n 1000000] [--resamples 10000]

(or without PYTHONPATH after ``pip install -e .``).

Prints a markdown table of median wall times and ratios. scipy resamples B * n subject indices,
so it is timed at a small `n_resamples` and scaled up linearly to B (stated in the output); its
BCa jackknife (n leave-one-out samples of size n - 1) is timed on a few of them and scaled to n.
"""

from __future__ import annotations

import argparse
import platform
import statistics
import time

import numpy as np
import scipy
from scipy import stats

import irr

K = 5
W = 1.0 - (np.subtract.outer(np.arange(K), np.arange(K)) / (K - 1)) ** 2  # agreement weights


def qwk_counts(counts: np.ndarray) -> np.ndarray:
    """Quadratic weighted kappa of (b, K*K) agreement-table counts, one per row."""
    n = counts.sum(axis=1)
    po = counts @ W.ravel() / n
    t = counts.reshape(-1, K, K)
    rows = t.sum(axis=2) / n[:, None]
    cols = t.sum(axis=1) / n[:, None]
    pe = np.einsum("bi,ij,bj->b", rows, W, cols)
    return (po - pe) / (1.0 - pe)


def qwk_codes(a: np.ndarray, b: np.ndarray, axis: int = -1) -> np.ndarray:
    """The same kappa from per-subject ratings, vectorised for scipy (leading batch axes)."""
    a = np.moveaxis(a, axis, -1)
    b = np.moveaxis(b, axis, -1)
    lead = a.shape[:-1]
    m = int(np.prod(lead))
    cell = (a * K + b).reshape(m, -1) + (np.arange(m) * K * K)[:, None]
    counts = np.bincount(cell.ravel(), minlength=m * K * K).reshape(m, K * K)
    return qwk_counts(counts.astype(float)).reshape(lead)


def simulate(n: int, rng: np.random.Generator) -> tuple[np.ndarray, np.ndarray]:
    """Two raters on a 0..4 scale: rater B is rater A plus a small integer error."""
    a = rng.choice(K, size=n, p=[0.1, 0.2, 0.35, 0.25, 0.1])
    b = np.clip(a + rng.choice([-2, -1, 0, 1, 2], size=n, p=[0.05, 0.15, 0.6, 0.15, 0.05]), 0, 4)
    return a, b


def median_time(fn, repeats: int) -> float:
    times = []
    for _ in range(repeats):
        tic = time.perf_counter()
        fn()
        times.append(time.perf_counter() - tic)
    return statistics.median(times)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--n", type=int, default=1_000_000, help="subjects")
    parser.add_argument("--resamples", type=int, default=10_000, help="bootstrap resamples B")
    parser.add_argument("--repeats", type=int, default=7, help="timed repeats (median)")
    parser.add_argument("--scipy-resamples", type=int, default=10, help="scipy's n_resamples")
    parser.add_argument("--scipy-jackknife", type=int, default=4, help="jackknife samples timed")
    args = parser.parse_args()
    n, big_b = args.n, args.resamples

    a, b = simulate(n, np.random.default_rng(0))
    counts = np.bincount(a * K + b, minlength=K * K)
    estimate = float(qwk_counts(counts[None, :].astype(float))[0])

    def ours() -> tuple[float, float]:
        # The public path, end to end: table from the raw ratings, kappa, SEs, BCa interval.
        res = irr.Agreement(a, b).kappa("quadratic", ci="bca", n_resamples=big_b, rng=1)
        return res.ci.low, res.ci.high

    ours()  # warm-up
    t_table = median_time(lambda: np.bincount(a * K + b, minlength=K * K), args.repeats)
    t_ours = median_time(ours, args.repeats)
    lo, hi = ours()

    # scipy: the same resampling of subjects, on the per-subject data
    m = args.scipy_resamples

    def scipy_run() -> object:
        return stats.bootstrap(
            (a, b),
            qwk_codes,
            paired=True,
            vectorized=True,
            n_resamples=m,
            method="percentile",
            rng=2,
        )

    scipy_run()
    t_scipy_m = median_time(scipy_run, max(1, args.repeats // 2))
    t_scipy_resample = t_scipy_m * big_b / m
    # scipy's BCa adds a jackknife over n leave-one-out samples (each of size n - 1), built
    # like scipy._resampling._jackknife_resample; time a few and scale to n.
    j = args.scipy_jackknife

    def jackknife_part() -> np.ndarray:
        keep = np.ones((j, n), dtype=bool)
        keep[np.arange(j), np.arange(j)] = False
        return qwk_codes(
            a[None, :].repeat(j, 0)[keep].reshape(j, n - 1),
            b[None, :].repeat(j, 0)[keep].reshape(j, n - 1),
        )

    t_jack = median_time(jackknife_part, max(1, args.repeats // 2)) * n / j
    t_scipy_bca = t_scipy_resample + t_jack

    print(
        f"# Bootstrap benchmark: quadratic weighted kappa, n = {n:,}, {K} categories, "
        f"B = {big_b:,}, 95% BCa\n"
    )
    print(
        f"python {platform.python_version()}, numpy {np.__version__}, scipy {scipy.__version__},"
        f" {platform.machine()}; medians of {args.repeats} runs.\n"
    )
    print(f"estimate {estimate:.6f}, BCa interval ({lo:.6f}, {hi:.6f})\n")
    print("| step | median time (s) | ratio to irr |")
    print("|---|---:|---:|")
    print(f"| irr: table of {n:,} subjects (np.bincount) | {t_table:.4f} | |")
    label = f"irr: Agreement(a, b).kappa('quadratic', ci='bca'), end to end (B = {big_b:,})"
    print(f"| {label} | {t_ours:.4f} | 1 |")
    print(
        f"| scipy.stats.bootstrap, percentile, measured at n_resamples = {m} | {t_scipy_m:.3f} | |"
    )
    print(
        f"| scipy percentile, scaled linearly to B = {big_b:,} | {t_scipy_resample:.1f} |"
        f" {t_scipy_resample / t_ours:,.0f}x |"
    )
    print(
        f"| scipy BCa jackknife, {j} of {n:,} samples timed, scaled to n | {t_jack:.0f} |"
        f" {t_jack / t_ours:,.0f}x |"
    )
    print(f"| scipy BCa total (estimated) | {t_scipy_bca:.0f} | {t_scipy_bca / t_ours:,.0f}x |")
    print()
    target = "met" if t_ours < 0.1 else "NOT met"
    print(
        f"Target irr < 0.1 s: {target}. Target >= 1000x scipy (percentile part alone): "
        f"{'met' if t_scipy_resample / t_ours >= 1000 else 'NOT met'}."
    )
    print(
        f"scipy times are scaled from n_resamples = {m} to {big_b:,} (x{big_b / m:,.0f}), "
        f"and its jackknife from {j} to {n:,} leave-one-out samples."
    )


if __name__ == "__main__":
    main()
