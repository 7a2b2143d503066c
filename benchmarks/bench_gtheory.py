"""Benchmark: generalizability studies (``irr.gstudy``), ANOVA and REML.

Run by hand (not a test)::

    python benchmarks/bench_gtheory.py [--quick] [--json]

Rows (the protocol of ``benchmarks/run_all.py``: ``rows()`` returns dicts with ``row``,
``ours_s``, ``ref_s``, ``ref``, ``ratio``, ``goal``, ``ok``, ``ours_mb``, ``ref_mb``):

* ANOVA, balanced p x r x o (3 raters, 2 occasions), 10^5 objects, from the long frame
  (600,000 rows) to the components, Eρ² and Φ with their delta-method intervals. Goal:
  at most 1 s. The floor: pandas factorizing the three label columns and one numpy
  bincount of the scores per object (reading the frame, nothing estimated).
* REML, p x r x o, 10^4 objects, 10% of the scores missing. Goal: at most 10 s. The peer:
  statsmodels MixedLM on the closest model it fits at this size (objects as groups, the
  object x rater and object x occasion components as variance components, raters and
  occasions as fixed effects: MixedLM cannot cross random raters with 10^4 groups).
* REML, the same crossed model exactly, 150 objects: MixedLM with every effect a variance
  component of one group (dense), against ours.
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
import time
import warnings
from pathlib import Path

import numpy as np
import pandas as pd

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
import irr


def _seconds(fn, repeats: int = 3) -> float:
    times = []
    for _ in range(repeats):
        tic = time.perf_counter()
        fn()
        times.append(time.perf_counter() - tic)
    return statistics.median(times)


def _frame(n: int, missing: float, seed: int = 0) -> pd.DataFrame:
    rng = np.random.default_rng(seed)
    nr, no = 3, 2
    p = np.repeat(np.arange(n), nr * no)
    r = np.tile(np.repeat(np.arange(nr), no), n)
    o = np.tile(np.arange(no), n * nr)
    y = (rng.normal(size=n)[p] + 0.5 * rng.normal(size=nr)[r]
         + 0.3 * rng.normal(size=(n, nr))[p, r] + 0.2 * rng.normal(size=(n, no))[p, o]
         + rng.normal(size=p.size))
    frame = pd.DataFrame({"patient": p, "rater": r, "occasion": o, "score": np.round(y, 2)})
    if missing:
        keep = rng.random(len(frame)) > missing
        keep[: nr * no] = True
        frame = frame[keep].reset_index(drop=True)
    return frame


def _gstudy(frame: pd.DataFrame, method: str = "auto"):
    return irr.gstudy(frame, score="score", object="patient", facets=["rater", "occasion"],
                      method=method)


def _floor(frame: pd.DataFrame) -> None:
    codes = [pd.factorize(frame[c], sort=True)[0] for c in ("patient", "rater", "occasion")]
    np.bincount(codes[0], weights=frame["score"].to_numpy())


def _mixedlm_groups(frame: pd.DataFrame) -> None:
    import statsmodels.api as sm

    model = sm.MixedLM.from_formula(
        "score ~ C(rater) + C(occasion)", groups="patient", re_formula="1",
        vc_formula={"pr": "0 + C(rater)", "po": "0 + C(occasion)"}, data=frame)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        model.fit(reml=True)


def _mixedlm_crossed(frame: pd.DataFrame) -> None:
    import statsmodels.api as sm

    frame = frame.assign(g=1, pr=frame["patient"].astype(str) + "|" + frame["rater"].astype(str),
                         po=frame["patient"].astype(str) + "|" + frame["occasion"].astype(str),
                         ro=frame["rater"].astype(str) + "|" + frame["occasion"].astype(str))
    vc = {"p": "0 + C(patient)", "r": "0 + C(rater)", "o": "0 + C(occasion)",
          "pr": "0 + C(pr)", "po": "0 + C(po)", "ro": "0 + C(ro)"}
    model = sm.MixedLM.from_formula("score ~ 1", groups="g", re_formula="0", vc_formula=vc,
                                    data=frame)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        model.fit(reml=True)


def rows(quick: bool = False, only: str | None = None) -> list[dict]:
    scale = 10 if quick else 1
    out = []
    big = _frame(100_000 // scale, 0.0)
    _gstudy(big.head(600))  # imports and first calls outside the timing
    ours = _seconds(lambda: _gstudy(big))
    floor = _seconds(lambda: _floor(big))
    print(f"ANOVA: ours {ours:.3f} s, floor {floor:.3f} s", file=sys.stderr, flush=True)
    out.append({"row": "G study ANOVA, balanced p x r x o", "size": f"{len(big) // 6:,} objects",
                "ours_s": ours, "ref": "numpy floor (factorize + bincount)", "ref_s": floor,
                "ratio": ours / floor, "goal": "<= 1 s", "ok": ours <= 1.0,
                "ours_mb": None, "ref_mb": None})
    mid = _frame(10_000 // scale, 0.1)
    ours = _seconds(lambda: _gstudy(mid), repeats=1)
    print(f"REML: ours {ours:.3f} s", file=sys.stderr, flush=True)
    peer = _seconds(lambda: _mixedlm_groups(mid), repeats=1)
    print(f"REML: MixedLM {peer:.3f} s", file=sys.stderr, flush=True)
    out.append({"row": "G study REML, p x r x o, 10% missing", "size":
                f"{mid['patient'].nunique():,} objects", "ours_s": ours,
                "ref": "statsmodels MixedLM (objects as groups; raters, occasions fixed)",
                "ref_s": peer, "ratio": ours / peer, "goal": "<= 10 s", "ok": ours <= 10.0,
                "ours_mb": None, "ref_mb": None})
    small = _frame(150 // (3 if quick else 1), 0.1, seed=1)
    ours = _seconds(lambda: _gstudy(small), repeats=1)
    peer = _seconds(lambda: _mixedlm_crossed(small), repeats=1)
    out.append({"row": "G study REML, the same crossed model", "size":
                f"{small['patient'].nunique():,} objects", "ours_s": ours,
                "ref": "statsmodels MixedLM (one group, every effect a component)",
                "ref_s": peer, "ratio": ours / peer, "goal": "faster than the peer",
                "ok": ours < peer, "ours_mb": None, "ref_mb": None})
    return out


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true")
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args()
    result = rows(quick=args.quick)
    if args.json:
        print(json.dumps(result, indent=1))
        return
    print("| row | size | irr (s) | reference | ref (s) | ratio | goal | ok |")
    print("|---|---|---|---|---|---|---|---|")
    for r in result:
        print(f"| {r['row']} | {r['size']} | {r['ours_s']:.3f} | {r['ref']} | "
              f"{r['ref_s']:.3f} | {r['ratio']:.2f} | {r['goal']} | {r['ok']} |")


if __name__ == "__main__":
    main()
