"""Issue 31's method-comparison rows: Passing–Bablok by slope selection, Deming with its
default jackknife.

Run by hand (not a test), from the repository root::

    python benchmarks/bench_method_regression.py [--quick] [--rounds N] [--deming-only]

(``--deming-only``: the Deming row alone, without the slow Passing–Bablok rows; prefix
``OPENBLAS_NUM_THREADS=1`` to time both sides' dot products on one thread.)

``rows()`` follows the protocol of ``benchmarks/run_all.py``'s parts.

* ``irr.passing_bablok(x, y)`` at 3,000 pairs against the previous implementation (every
  one of the n (n - 1) / 2 slopes formed and partitioned:
  ``shifted_median(passing_bablok_slopes(x, y))``, the same floats), and at 10^6 pairs
  (10^5 with ``--quick``), whose goal is a time (<= 10 s); its floor, for scale, is one
  numpy ``argsort`` of the n values ``y - x`` (an O(n log n) step the selection repeats a
  few times), and the memory column shows that no n**2 array is formed.
* ``irr.deming(x, y)`` (its default jackknife standard errors) at 10^5 pairs against the
  closed-form Deming fit in numpy (means, centred sums of squares and products, the
  slope formula): goal <= 5x.

Times are medians of interleaved rounds and the ratio the median of per-round ratios;
memory is the tracemalloc peak of one call.
"""

from __future__ import annotations

import argparse
import math
import sys
import time
import warnings
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))  # this checkout's irr
sys.path.insert(0, str(Path(__file__).resolve().parent))
from _timing import interleaved, peak_mb

PB_ROW = ("`passing_bablok`: exact estimate and interval by slope selection, O(n log n) "
          "time and O(n) memory, no cap")
DEMING_ROW = "`deming` with its default jackknife, 10^5"
PB_SECONDS = 10.0
DEMING_GOAL = 5.0


def _pairs(n: int, seed: int = 0) -> tuple[np.ndarray, np.ndarray]:
    rng = np.random.default_rng(seed)
    truth = rng.uniform(50, 150, n)
    return truth + rng.normal(0, 4, n), 2 + 0.97 * truth + rng.normal(0, 5, n)


def deming_floor(x: np.ndarray, y: np.ndarray, lam: float = 1.0) -> tuple[float, float]:
    """The closed-form Deming fit in numpy."""
    mx, my = x.mean(), y.mean()
    xc, yc = x - mx, y - my
    sxx, syy, sxy = xc @ xc, yc @ yc, xc @ yc
    d = lam * syy - sxx
    slope = (d + math.sqrt(d * d + 4 * lam * sxy * sxy)) / (2 * lam * sxy)
    return slope, my - slope * mx


def _quiet(call):
    def run():
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            return call()
    return run


def rows(quick: bool = False, rounds: int = 3, passing_bablok: bool = True) -> list[dict]:
    import irr

    out = passing_bablok_rows(quick, rounds) if passing_bablok else []
    # Deming with its jackknife against the closed form
    x, y = _pairs(10**5, seed=2)
    ours = _quiet(lambda: irr.deming(x, y))
    floor = lambda: deming_floor(x, y)  # noqa: E731
    ours()
    # a round takes about a millisecond: many rounds steady the median ratio
    t_ours, t_ref, ratio = interleaved(ours, floor, max(rounds, 41))
    out.append({"row": DEMING_ROW, "case": "irr.deming(x, y)",
                "size": f"{x.size:.0e} pairs".replace("e+0", "e"), "ours_s": t_ours,
                "ref_s": t_ref, "ref": "numpy: the closed-form Deming fit", "ratio": ratio,
                "goal": f"<= {DEMING_GOAL:g}x the floor", "ok": ratio <= DEMING_GOAL,
                "ours_mb": peak_mb(ours), "ref_mb": peak_mb(floor)})
    return out


def passing_bablok_rows(quick: bool, rounds: int) -> list[dict]:
    import irr
    from irr.coefficients.method_regression import passing_bablok_slopes, shifted_median

    out = []
    # Passing–Bablok at 3,000 pairs against the previous implementation
    x, y = _pairs(3000)
    ours = _quiet(lambda: irr.passing_bablok(x, y))
    previous = _quiet(lambda: shifted_median(passing_bablok_slopes(x, y), x.size, 1.96))
    ours()
    t_ours, t_ref, ratio = interleaved(ours, previous, rounds)
    out.append({"row": PB_ROW, "case": "irr.passing_bablok(x, y)", "size": "3,000 pairs",
                "ours_s": t_ours, "ref_s": t_ref,
                "ref": "previous: shifted_median(passing_bablok_slopes(x, y)), all slopes",
                "ratio": ratio, "goal": "<= 1x the previous", "ok": ratio <= 1.0,
                "ours_mb": peak_mb(ours), "ref_mb": peak_mb(previous),
                "note": "the previous whole call (slopes built twice) took 9.7 s in issue 31"})
    # Passing–Bablok at 10^6 pairs, continuous and rounded as clinical data are (integers,
    # one decimal: large blocks of equal slopes): a time goal; one argsort for scale
    n = 10**5 if quick else 10**6
    for decimals in (None, 0, 1):
        x, y = _pairs(n, seed=1)
        if decimals is not None:
            x, y = np.round(x, decimals), np.round(y, decimals)
        ours = _quiet(lambda x=x, y=y: irr.passing_bablok(x, y))
        tic, cpu = time.perf_counter(), time.process_time()
        ours()
        t_ours, cpu = time.perf_counter() - tic, time.process_time() - cpu
        floor = lambda x=x, y=y: np.argsort(y - x)  # noqa: E731
        tic = time.perf_counter()
        floor()
        t_ref = time.perf_counter() - tic
        kind = "continuous" if decimals is None else f"rounded to {decimals} decimals"
        out.append({"row": PB_ROW, "case": "irr.passing_bablok(x, y)",
                    "size": f"{n:.0e} pairs, {kind}".replace("e+0", "e"), "ours_s": t_ours,
                    "ref_s": t_ref, "ref": "one np.argsort(y - x), for scale",
                    "ratio": t_ours / t_ref,
                    "goal": f"<= {PB_SECONDS:g} s", "ok": t_ours <= PB_SECONDS,
                    "ours_mb": peak_mb(ours) if quick else None, "ref_mb": None,
                    "note": f"CPU time {cpu:.1f} s (wall time counts other processes' load)"
                            + ("" if n >= 10**6 else "; the goal is set at 1e6 pairs")})
    return out


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="Passing–Bablok at 10^5")
    parser.add_argument("--rounds", type=int, default=3, help="interleaved rounds (3)")
    parser.add_argument("--deming-only", action="store_true",
                        help="the Deming row alone (no Passing–Bablok rows)")
    options = parser.parse_args()
    table = rows(quick=options.quick, rounds=options.rounds,
                 passing_bablok=not options.deming_only)
    for r in table:
        mb = "-" if r["ours_mb"] is None else f"{r['ours_mb']:.0f}"
        print(f"{r['case']:28} {r['size']:>12} {r['ours_s']:8.3f} s  {r['ref_s']:8.3f} s "
              f"{r['ratio']:7.2f}x  {mb:>6} MB  {r['goal']}: {'yes' if r['ok'] else 'NO'}"
              f"   [{r['ref']}]")
    return 0 if all(r["ok"] for r in table) else 1


if __name__ == "__main__":
    sys.exit(main())
