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
