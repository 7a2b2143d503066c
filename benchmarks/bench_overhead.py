"""Issue #17, fixed costs: weighted kappa at small n, ``import irr``, the first ``kendall_w()``.

    python benchmarks/bench_overhead.py [--quick]

``rows()`` returns one dict per measurement (the protocol ``benchmarks/run_all.py`` reads):
``row`` (the issue table's "what a user does"), ``case``, ``size``, ``ours_s``, ``ref_s``,
``ref``, ``ratio``, ``goal``, ``ok``, ``ours_mb``, ``ref_mb``, ``note``.

How it measures:

* Per-call rows (weighted kappa at n = 100 and 1000) time irr and scikit-learn's
  ``cohen_kappa_score`` back to back in each round (the order alternating), each call
  repeated until the round lasts about 0.2 s; the ratio is the median of the per-round
  ratios (>= 5 rounds). The goal holds for both ``irr.cohen_kappa(a, b,
  weights="quadratic")`` and ``Agreement(a, b).kappa("quadratic")``: the row reports the
  slower of the two.
* Start-up rows run whole ``python`` processes from the repository root (so the ``irr``
  imported is this checkout's), interleaved with the reference process, median of >= 5.
  Modules are imported from cached bytecode, as after ``pip install``: the processes get
  a private ``PYTHONPYCACHEPREFIX`` (warmed by one untimed run) and no
  ``PYTHONDONTWRITEBYTECODE``, which would recompile irr's ~100 modules (~0.1 s) on
  every start while pandas' installed bytecode is cached. Memory is the process's peak
  resident set (``ru_maxrss``).
* The first ``kendall_w()`` is timed inside a fresh process (after ``import irr`` and
  building the ``Agreement``) against the cost of ``import scipy.stats`` in a fresh
  process that has imported irr, numpy and pandas: what the first call used to pay on
  top of its own work. The row also checks that ``scipy.stats`` is not imported.
"""

from __future__ import annotations

import json
import os
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from functools import partial
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))  # this checkout's irr, whatever the working directory

import irr  # noqa: E402

ROW_KAPPA = "weighted kappa at n <= 1000"
ROW_IMPORT = "`import irr`"
ROW_KENDALL = "first `kendall_w()`"

_PYCACHE = tempfile.mkdtemp(prefix="irr-bench-pycache-")


def _repeat_for(func: Callable[[], object], seconds: float = 0.2) -> int:
    start = time.perf_counter()
    func()
    once = max(time.perf_counter() - start, 1e-7)
    return max(1, int(seconds / once))


def _per_call(func: Callable[[], object], calls: int) -> float:
    start = time.perf_counter()
    for _ in range(calls):
        func()
    return (time.perf_counter() - start) / calls


def interleaved(ours: Callable[[], float], ref: Callable[[], float],
                rounds: int) -> tuple[float, float, float]:
    """Median times of `ours` and `ref` (each returns its own time) and the median of the
    per-round ratios, the order alternating between rounds."""
    pairs = []
    for i in range(rounds):
        if i % 2:
            r = ref()
            o = ours()
        else:
            o = ours()
            r = ref()
        pairs.append((o, r))
    return (statistics.median(o for o, _ in pairs), statistics.median(r for _, r in pairs),
            statistics.median(o / r for o, r in pairs))


def _env() -> dict[str, str]:
    env = dict(os.environ)
    env.pop("PYTHONDONTWRITEBYTECODE", None)
    env["PYTHONPYCACHEPREFIX"] = _PYCACHE
    env.pop("PYTHONPATH", None)
    return env


def run_python(code: str) -> tuple[float, float, str]:
    """Wall time and peak RSS (MiB) of ``python -c code`` from the repository root, and
    its standard output."""
    launcher = (
        "import json, resource, subprocess, sys, time\n"
        "t = time.perf_counter()\n"
        "out = subprocess.run([sys.executable, '-c', sys.argv[1]], capture_output=True, "
        "text=True, check=True).stdout\n"
        "t = time.perf_counter() - t\n"
        "rss = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss / 1024\n"
        "print(json.dumps([t, rss, out]))\n"
    )
    done = subprocess.run([sys.executable, "-c", launcher, code], cwd=ROOT, env=_env(),
                          capture_output=True, text=True, check=True)
    t, rss, out = json.loads(done.stdout)
    return t, rss, out


def _kappa_row(n: int, rounds: int, cohen_kappa_score: Callable[..., float]) -> dict:
    rng = np.random.default_rng(n)
    a = rng.integers(1, 6, n)
    b = np.clip(a + rng.integers(-1, 2, n), 1, 5)

    def peer() -> object:
        return cohen_kappa_score(a, b, weights="quadratic")

    calls = _repeat_for(peer)
    results = {}
    for name, ours in (
        ("irr.cohen_kappa(a, b, weights='quadratic')",
         lambda: irr.cohen_kappa(a, b, weights="quadratic")),
        ("Agreement(a, b).kappa('quadratic')", lambda: irr.Agreement(a, b).kappa("quadratic")),
    ):
        results[name] = interleaved(partial(_per_call, ours, calls),
                                    partial(_per_call, peer, calls), rounds)
    worst = max(results, key=lambda name: results[name][2])
    ours_s, ref_s, ratio = results[worst]
    shown = "; ".join(f"{name}: {r[2]:.2f}x" for name, r in results.items())
    return {
        "row": ROW_KAPPA, "case": "quadratic, int labels 1..5", "size": f"n = {n}",
        "ours_s": ours_s, "ref_s": ref_s, "ref": "sklearn cohen_kappa_score",
        "ratio": ratio, "goal": "<= 1x", "ok": ratio <= 1.0,
        "ours_mb": None, "ref_mb": None, "note": f"slower of {shown}",
    }


def kappa_rows(rounds: int = 5) -> list[dict]:
    from sklearn.metrics import cohen_kappa_score

    rows = [_kappa_row(n, rounds, cohen_kappa_score) for n in (100, 1000)]
    # kappa_max by the closed form for linear and quadratic weights: no scipy.optimize
    code = ("import sys, numpy as np, irr\n"
            "a = np.arange(200) % 7; b = (a * 3 + np.arange(200) // 50) % 7\n"
            "for w in ('linear', 'quadratic'):\n"
            "    irr.Agreement(a, b).kappa(w).kappa_max\n"
            "print('scipy.optimize' in sys.modules)\n")
    _, _, out = run_python(code)
    imported = out.strip() == "True"
    rows.append({
        "row": ROW_KAPPA, "case": "kappa_max, linear and quadratic weights", "size": "n = 200",
        "ours_s": float("nan"), "ref_s": float("nan"), "ref": "-", "ratio": float("nan"),
        "goal": "no scipy.optimize import", "ok": not imported,
        "ours_mb": None, "ref_mb": None,
        "note": "scipy.optimize imported" if imported else "closed form; scipy.optimize not imported",
    })
    return rows


def import_rows(rounds: int = 7) -> list[dict]:
    run_python("import irr")  # warm the bytecode cache (untimed)
    runs = {"irr": [], "pandas": []}
    for i in range(rounds):
        for name in (("irr", "pandas") if i % 2 == 0 else ("pandas", "irr")):
            runs[name].append(run_python(f"import {name}"))
    ours_s = statistics.median(t for t, _, _ in runs["irr"])
    ref_s = statistics.median(t for t, _, _ in runs["pandas"])
    ratio = statistics.median(o[0] / r[0] for o, r in zip(runs["irr"], runs["pandas"],
                                                          strict=True))
    code = ("import sys, irr\nprint(sorted(m for m in ('scipy', 'scipy.optimize', "
            "'scipy.stats', 'numpy.f2py', 'numpy.testing', 'matplotlib') if m in sys.modules))")
    loaded = run_python(code)[2].strip()
    return [{
        "row": ROW_IMPORT, "case": "python -c 'import irr', cached bytecode", "size": "",
        "ours_s": ours_s, "ref_s": ref_s, "ref": "python -c 'import pandas'", "ratio": ratio,
        "goal": "<= pandas + 0.1 s", "ok": ours_s <= ref_s + 0.1,
        "ours_mb": statistics.median(m for _, m, _ in runs["irr"]),
        "ref_mb": statistics.median(m for _, m, _ in runs["pandas"]),
        "note": f"+{ours_s - ref_s:.3f} s; heavy modules loaded: {loaded}",
    }]


def kendall_rows(rounds: int = 5) -> list[dict]:
    first = (
        "import sys, time, json, numpy as np, pandas as pd, irr\n"
        "x = np.random.default_rng(0).integers(0, 5, (100, 5))\n"
        "ag = irr.Agreement.from_frame(pd.DataFrame(x))\n"
        "t = time.perf_counter(); ag.kendall_w(); t = time.perf_counter() - t\n"
        "print(json.dumps([t, 'scipy.stats' in sys.modules]))\n"
    )
    scipy_stats = (
        "import time, json, numpy, pandas, irr\n"
        "t = time.perf_counter(); import scipy.stats; t = time.perf_counter() - t\n"
        "print(json.dumps([t, True]))\n"
    )
    run_python(first)  # warm the bytecode cache (untimed)
    run_python(scipy_stats)
    seen = []

    def ours() -> float:
        t, stats_loaded = json.loads(run_python(first)[2])
        seen.append(stats_loaded)
        return t

    ours_s, ref_s, ratio = interleaved(ours, lambda: json.loads(run_python(scipy_stats)[2])[0],
                                       rounds)
    clean = not any(seen)
    return [{
        "row": ROW_KENDALL, "case": "Agreement.from_frame(100 x 5).kendall_w(), fresh process",
        "size": "100 x 5", "ours_s": ours_s, "ref_s": ref_s,
        "ref": "import scipy.stats (the old first-call cost)", "ratio": ratio,
        "goal": "no scipy.stats on that path", "ok": clean and ours_s < ref_s,
        "ours_mb": None, "ref_mb": None,
        "note": ("scipy.stats not imported" if clean else "scipy.stats imported")
        + "; the rest of the first call is scipy.special (chi-square p-value)",
    }]


def rows(quick: bool = False) -> list[dict]:
    rounds = 3 if quick else 5
    return [*kappa_rows(rounds), *import_rows(5 if quick else 7), *kendall_rows(rounds)]


if __name__ == "__main__":
    for r in rows(quick="--quick" in sys.argv):
        mb = "" if r["ours_mb"] is None else f"  {r['ours_mb']:.0f} / {r['ref_mb']:.0f} MiB"
        print(f"{r['row']} [{r['case']}; {r['size']}]: ours {r['ours_s']:.4g} s, "
              f"{r['ref']} {r['ref_s']:.4g} s, ratio {r['ratio']:.2f}{mb}; goal {r['goal']}: "
              f"{'ok' if r['ok'] else 'NOT MET'}  ({r['note']})")
