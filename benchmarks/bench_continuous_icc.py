"""Issue 31: the ICC of real-valued ratings and the variance-components statistics, each
against an independent numpy floor or irr's array ICC, timed back to back in each round.

    python benchmarks/bench_continuous_icc.py [--quick]

or as part of ``python benchmarks/run_all.py``.

* ``Agreement.from_array(X, continuous=True).icc()`` and ``Agreement.from_long(df, ...,
  continuous=True).icc()`` on 10^5 subjects x 5 raters of distinct real values, against
  ``irr.icc(X)`` (goal: at most 1.5x); the note gives the ratio to the numpy two-way
  ANOVA (:func:`anova_floor`).
* ``icc_components()`` with 10% of the cells missing, 10^5 x 5 (goal: at most 10x), and
  ``measurement_error()``, 10^4 x 5 (at most 3x), against the listwise ANOVA floor: the
  same few numpy lines on the subjects rated by every rater.

Ratios are medians of per-round ratios (ours, then the floor, in each round).
"""

from __future__ import annotations

import sys
import warnings
from pathlib import Path

import numpy as np
import pandas as pd

sys.path.insert(0, str(Path(__file__).resolve().parent))
sys.path.insert(0, str(Path(__file__).resolve().parents[1]))  # this checkout's irr
from _timing import interleaved, interleaved_with_cpu

ROW_ICC = "`Agreement.from_array(X, continuous=True).icc()` / `from_long(...).icc()`, 10^5 x 5"
ROW_VC = ("`icc_components` with 10% missing, 10^5 x 5; `measurement_error`, 10^4 x 5")


def anova_floor(x: np.ndarray) -> float:
    """ICC(A,1) of the complete rows of `x` by the two-way ANOVA, in a few numpy lines."""
    x = x[~np.isnan(x).any(axis=1)]
    n, k = x.shape
    grand, rows, cols = x.mean(), x.mean(axis=1), x.mean(axis=0)
    msr = k * ((rows - grand) ** 2).sum() / (n - 1)
    msc = n * ((cols - grand) ** 2).sum() / (k - 1)
    mse = ((x - rows[:, None] - cols + grand) ** 2).sum() / ((n - 1) * (k - 1))
    return (msr - mse) / (msr + (k - 1) * mse + k * (msc - mse) / n)


def _panel(n: int, k: int = 5, missing: float = 0.0, seed: int = 1) -> np.ndarray:
    rng = np.random.default_rng(seed)
    x = rng.normal(50, 10, (n, 1)) + rng.normal(0, 2, (1, k)) + rng.normal(0, 3, (n, k))
    x[rng.random(x.shape) < missing] = np.nan
    return x


def _quiet(call):
    def run():
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            return call()
    return run


def _row(row, case, size, ours, ref, ref_name, goal, rounds, note=""):
    ours(), ref()  # warm up
    t_ours, t_ref, ratio, cpu = interleaved_with_cpu(ours, ref, rounds)
    note = "; ".join(filter(None, (note, f"CPU-time ratio {cpu:.2f}x")))
    return {"row": row, "case": case, "size": size, "ours_s": t_ours, "ref_s": t_ref,
            "ref": ref_name, "ratio": ratio, "goal": f"<= {goal:g}x", "ok": ratio <= goal,
            "ours_mb": None, "ref_mb": None, "note": note}


def rows(quick: bool = False, rounds: int = 7) -> list[dict]:
    import irr

    n = 10**4 if quick else 10**5
    x = _panel(n)
    frame = pd.DataFrame({"subject": np.repeat(np.arange(n), 5),
                          "rater": np.tile(np.arange(5), n), "value": x.ravel()})
    array_icc = _quiet(lambda: irr.icc(x))
    out = []
    for case, call in (
        ("from_array(X, continuous=True).icc()",
         lambda: irr.Agreement.from_array(x, continuous=True).icc()),
        ("from_long(df, continuous=True).icc()",
         lambda: irr.Agreement.from_long(frame, subject="subject", rater="rater",
                                         rating="value", continuous=True).icc()),
    ):
        ours = _quiet(call)
        _, _, to_floor = interleaved(ours, lambda: anova_floor(x), rounds)
        out.append(_row(ROW_ICC, case, f"{n:,} x 5", ours, array_icc, "irr.icc(X)", 1.5,
                        rounds, f"{to_floor:.1f}x the numpy two-way ANOVA"))
    missing = _panel(n, missing=0.1)
    out.append(_row(ROW_VC, "Agreement(...).icc_components(), 10% missing", f"{n:,} x 5",
                    _quiet(lambda: irr.Agreement.from_array(missing, continuous=True)
                           .icc_components()),
                    lambda: anova_floor(missing), "numpy listwise two-way ANOVA", 10,
                    rounds))
    small = _panel(n // 10, missing=0.1)
    out.append(_row(ROW_VC, "Agreement(...).measurement_error(), 10% missing",
                    f"{n // 10:,} x 5",
                    _quiet(lambda: irr.Agreement.from_array(small, continuous=True)
                           .measurement_error()),
                    lambda: anova_floor(small), "numpy listwise two-way ANOVA", 3,
                    3 * rounds))  # calls of a few milliseconds: more rounds
    return out


if __name__ == "__main__":
    for r in rows(quick="--quick" in sys.argv):
        print(f"{r['case']:50s} {r['size']:>12s}  ours {r['ours_s'] * 1e3:8.1f} ms  "
              f"{r['ref']:30s} {r['ref_s'] * 1e3:8.1f} ms  {r['ratio']:6.2f}x  goal {r['goal']}"
              f"  {'ok' if r['ok'] else 'NO'}  {r['note']}")
