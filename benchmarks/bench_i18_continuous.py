"""Issue 18's benchmarks: continuous agreement at scale.

Run by hand (not a test), from the repository root::

    python benchmarks/bench_i18_continuous.py [--quick]

* Limits of agreement and Lin's CCC of 10^7 pairs of real values (default options: the
  exact interval of the limits, Lin's asymptotic interval of the CCC), against the floor
  of one pass over the data: the five moment sums (sum x, sum y, sum x^2, sum y^2,
  sum xy) that any of these statistics needs. Goal: at most 3x the floor.
* The ICC by variance components (Henderson's moment estimators; REML too where it is
  the default) on 10^5 subjects x 5 raters with 10% of the cells missing: "seconds, not
  minutes" (goal: under 5 s), against the listwise ANOVA ICC on the complete subjects.

Times are medians of interleaved rounds; memory is the tracemalloc peak of one call.
``--quick`` divides the sizes by 10.
"""

from __future__ import annotations

import argparse
import sys
import warnings
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent))
from _timing import interleaved, peak_mb


def _pairs(n: int, seed: int = 0) -> tuple[np.ndarray, np.ndarray]:
    rng = np.random.default_rng(seed)
    truth = rng.normal(120, 15, n)
    return truth + rng.normal(0, 4, n), truth + 1.5 + rng.normal(0, 5, n)


def _moments(x: np.ndarray, y: np.ndarray) -> tuple[float, ...]:
    return x.sum(), y.sum(), x @ x, y @ y, x @ y


def _panel(n: int, raters: int = 5, missing: float = 0.1, seed: int = 1) -> np.ndarray:
    rng = np.random.default_rng(seed)
    values = rng.normal(50, 10, (n, 1)) + rng.normal(0, 2, (1, raters)) \
        + rng.normal(0, 4, (n, raters))
    values[rng.random(values.shape) < missing] = np.nan
    return values


def rows(quick: bool = False, rounds: int = 3) -> list[dict]:
    import irr
    from irr._measurements import Measurements

    out = []
    n = 10**6 if quick else 10**7
    x, y = _pairs(n)
    for name, call in (
        ("limits of agreement", lambda: irr.limits_of_agreement(x, y)),
        ("Lin's CCC", lambda: irr.concordance(x, y)),
    ):
        call()  # warm-up: imports
        t_ours, t_ref, ratio = interleaved(call, lambda: _moments(x, y), rounds)
        out.append({"row": f"{name}, {n:.0e} pairs", "ours_s": t_ours, "ref_s": t_ref,
                    "ref": "floor: the five moment sums (one pass)", "ratio": ratio,
                    "goal": "<= 3x the floor", "ok": ratio <= 3.0,
                    "ours_mb": peak_mb(call), "ref_mb": peak_mb(lambda: _moments(x, y))})
    subjects = 10**4 if quick else 10**5
    values = _panel(subjects)
    ag = irr.Agreement.from_array(values, continuous=True)
    m = Measurements.from_wide(values)

    def components() -> object:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            return irr.icc_components(m)

    def listwise() -> object:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            return ag.icc()

    components()
    t_ours, t_ref, ratio = interleaved(components, listwise, rounds)
    out.append({"row": f"ICC by variance components, {subjects:.0e} x 5, 10% missing",
                "ours_s": t_ours, "ref_s": t_ref,
                "ref": "the listwise ANOVA ICC(A,1) of the complete subjects",
                "ratio": ratio, "goal": "< 5 s", "ok": t_ours < 5.0,
                "ours_mb": peak_mb(components), "ref_mb": peak_mb(listwise)})
    return out


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="sizes divided by 10")
    options = parser.parse_args()
    table = rows(quick=options.quick)
    print(f"{'row':58} {'irr s':>8} {'ref s':>8} {'ratio':>6} {'irr MB':>8} {'ref MB':>8}  goal")
    for r in table:
        print(f"{r['row']:58} {r['ours_s']:8.3f} {r['ref_s']:8.3f} {r['ratio']:6.2f} "
              f"{r['ours_mb']:8.1f} {r['ref_mb']:8.1f}  {r['goal']} "
              f"{'ok' if r['ok'] else 'NOT MET'}")
    sys.exit(0 if all(r["ok"] for r in table) else 1)
