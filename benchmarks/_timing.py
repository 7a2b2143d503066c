"""Timing and memory helpers shared by the issue-17 benchmark parts."""

from __future__ import annotations

import statistics
import time
import tracemalloc
from collections.abc import Callable


def seconds(fn: Callable[[], object]) -> float:
    """Wall time of one call of `fn`."""
    tic = time.perf_counter()
    fn()
    return time.perf_counter() - tic


def peak_mb(fn: Callable[[], object]) -> float:
    """Peak memory traced by tracemalloc during one call of `fn`, in MiB."""
    tracemalloc.start()
    try:
        fn()
        return tracemalloc.get_traced_memory()[1] / 2**20
    finally:
        tracemalloc.stop()


def interleaved(ours: Callable[[], object], ref: Callable[[], object],
                rounds: int) -> tuple[float, float, float]:
    """Median times of `ours` and `ref` timed back to back in each round, and the median
    of the per-round ratios."""
    t_ours, t_ref, ratios = [], [], []
    for _ in range(rounds):
        a, b = seconds(ours), seconds(ref)
        t_ours.append(a)
        t_ref.append(b)
        ratios.append(a / b)
    return statistics.median(t_ours), statistics.median(t_ref), statistics.median(ratios)


def interleaved_with_cpu(ours: Callable[[], object], ref: Callable[[], object],
                         rounds: int) -> tuple[float, float, float, float]:
    """:func:`interleaved`, and the median of the per-round ratios of CPU time (the
    process's, all threads): on a machine shared with other work, wall time counts the
    time a call waits for a core, CPU time only the work it does."""
    t_ours, t_ref, ratios, cpu_ratios = [], [], [], []
    for _ in range(rounds):
        c0, w0 = time.process_time(), time.perf_counter()
        ours()
        c1, w1 = time.process_time(), time.perf_counter()
        ref()
        c2, w2 = time.process_time(), time.perf_counter()
        t_ours.append(w1 - w0)
        t_ref.append(w2 - w1)
        ratios.append((w1 - w0) / (w2 - w1))
        cpu_ratios.append((c1 - c0) / max(c2 - c1, 1e-9))
    return (statistics.median(t_ours), statistics.median(t_ref), statistics.median(ratios),
            statistics.median(cpu_ratios))
