"""Issue 17, the input path: rows 1, 2, 3, 7 and 10 of the table, against their floors.

Each row times what a user does and a floor doing the least work that gives the same
answer in the same run, interleaved (ours, floor, ours, floor, ...), and reports the median
of the per-round ratios (the machine is shared: absolute times are noisy, ratios less so).
Memory rows measure the tracemalloc peak (numpy registers its buffers with tracemalloc).

Run: ``python benchmarks/bench_input.py [scale]`` (scale 1 = the issue's sizes; 0.1
for a quick look). The lead's runner imports :func:`rows`.
"""

from __future__ import annotations

import contextlib
import io
import os
import statistics
import subprocess
import sys
import tempfile
import time
import tracemalloc
from collections.abc import Callable

import numpy as np
import pandas as pd

import irr
from irr.cli import main as cli_main

MIB = 1 << 20
ROUNDS = 5


def _time(func: Callable[[], object]) -> float:
    start = time.perf_counter()
    func()
    return time.perf_counter() - start


def _peak(func: Callable[[], object]) -> float:
    tracemalloc.start()
    func()
    _, peak = tracemalloc.get_traced_memory()
    tracemalloc.stop()
    return peak / MIB


def _compare(row: str, ours: Callable[[], object], ref: Callable[[], object], ref_name: str,
             goal: float, rounds: int = ROUNDS, memory: float | None = None) -> dict:
    """Interleaved rounds; the median ratio, and the median times for display."""
    ours(), ref()  # warm-up (first-call imports, caches)
    ours_t, ref_t, ratios = [], [], []
    for _ in range(rounds):
        o, r = _time(ours), _time(ref)
        ours_t.append(o)
        ref_t.append(r)
        ratios.append(o / r)
    ratio = statistics.median(ratios)
    ours_mb = ref_mb = None
    ok = ratio <= goal
    goal_text = f"<= {goal:g}x"
    if memory is not None:
        ours_mb, ref_mb = _peak(ours), _peak(ref)
        ok = ok and ours_mb <= memory * ref_mb
        goal_text += f", memory <= {memory:g}x"
    return {"row": row, "ours_s": statistics.median(ours_t), "ref_s": statistics.median(ref_t),
            "ref": ref_name, "ratio": ratio, "goal": goal_text, "ok": bool(ok),
            "ours_mb": ours_mb, "ref_mb": ref_mb}


def _pairs(n: int, dtype: type = np.int64) -> tuple[np.ndarray, np.ndarray]:
    rng = np.random.default_rng(0)
    a = rng.integers(0, 5, n).astype(dtype)
    b = np.clip(a + rng.integers(-1, 2, n), 0, 4).astype(dtype)
    return a, b


def _bincount_floor(a: np.ndarray, b: np.ndarray, k: int = 5) -> Callable[[], object]:
    return lambda: np.bincount(a * k + b, minlength=k * k)


def kappa_rows(scale: float = 1.0) -> list[dict]:
    n = int(10**7 * scale)
    a, b = _pairs(n)
    out = [
        _compare(f"Agreement(a, b).kappa('quadratic'), {n:.0e} int pairs",
                 lambda: irr.Agreement(a, b).kappa("quadratic").estimate,
                 _bincount_floor(a, b), "np.bincount(a*k+b)", 1.3),
        _compare(f"same with categories=range(5), {n:.0e} int pairs",
                 lambda: irr.Agreement(a, b, categories=range(5)).kappa("quadratic").estimate,
                 _bincount_floor(a, b), "np.bincount(a*k+b)", 1.3),
    ]
    n8 = int(10**8 * scale)
    a8, b8 = _pairs(n8, np.int8)
    out.append(_compare(
        f"same with categories=range(5), {n8:.0e} int8 pairs",
        lambda: irr.Agreement(a8, b8, categories=range(5)).kappa("quadratic").estimate,
        _bincount_floor(a8, b8), "np.bincount(a*k+b)", 1.3, rounds=3, memory=2.0))
    return out


def _string_frame(n: int) -> pd.DataFrame:
    a, b = _pairs(n)
    labels = np.array(["absent", "mild", "moderate", "severe", "critical"], dtype=object)
    return pd.DataFrame({"r1": labels[a], "r2": labels[b]})


def frame_rows(scale: float = 1.0) -> list[dict]:
    n = int(10**7 * scale)
    df = _string_frame(n)
    scale_labels = ["absent", "mild", "moderate", "severe", "critical"]

    def floor() -> object:
        return [pd.factorize(df[c]) for c in ("r1", "r2")]

    return [
        _compare(f"from_frame, string labels, categories=, {n:.0e} rows",
                 lambda: irr.Agreement.from_frame(df, categories=scale_labels).kappa().estimate,
                 floor, "pd.factorize of the columns", 2.0, rounds=3),
        _compare(f"from_frame, string labels, no categories, {n:.0e} rows",
                 lambda: irr.Agreement.from_frame(df).kappa().estimate,
                 floor, "pd.factorize of the columns", 2.0, rounds=3),
    ]


def long_rows(scale: float = 1.0) -> list[dict]:
    n, m = int(10**5 * scale), 5
    rng = np.random.default_rng(1)
    truth = rng.integers(1, 6, n)
    ratings = np.clip(truth[:, None] + rng.integers(-1, 2, (n, m)), 1, 5)
    full = pd.DataFrame({"subject": np.repeat(np.arange(n), m),
                         "rater": np.tile([f"r{j}" for j in range(m)], n),
                         "rating": ratings.ravel()})
    out = []
    for what, df in (("every cell rated", full),
                     ("5% of cells unrated", full[rng.random(len(full)) > 0.05])):

        def floor(df: pd.DataFrame = df) -> object:
            # the least a long-format reader does: code the three columns, scatter the codes
            s, subjects = pd.factorize(df["subject"])
            r, raters = pd.factorize(df["rater"])
            c, _ = pd.factorize(df["rating"], sort=True)
            wide = np.full((len(subjects), len(raters)), -1, dtype=np.int64)
            wide[s, r] = c
            return wide

        def ours(df: pd.DataFrame = df) -> object:
            return irr.Agreement.from_long(df, subject="subject", rater="rater", rating="rating")

        out.append(_compare(f"from_long, {n:.0e} x {m}, {what}", ours, floor,
                            "factorize + scatter", 3.0))
    return out


_SCRIPT = """
import sys
import numpy as np
import pandas as pd
frame = pd.read_csv(sys.argv[1])
x, y = frame.iloc[:, 0].to_numpy(), frame.iloc[:, 1].to_numpy()
lo = min(x.min(), y.min())
k = max(x.max(), y.max()) - lo + 1
table = np.bincount((x - lo) * k + (y - lo), minlength=k * k).reshape(k, k)
p = table / table.sum()
chance = p.sum(1) @ p.sum(0)
print((np.trace(p) - chance) / (1 - chance))
"""


def cli_rows(scale: float = 1.0) -> list[dict]:
    """``irr kappa FILE`` as users run it (a new process, imports included) and in-process
    (the reading and checking alone), against a pandas script doing the same."""
    n = int(10**6 * scale)
    a, b = _pairs(n)
    root = os.path.dirname(os.path.dirname(os.path.abspath(irr.__file__)))
    env = {**os.environ, "PYTHONPATH": root + os.pathsep + os.environ.get("PYTHONPATH", "")}
    with tempfile.TemporaryDirectory() as tmp:
        path = os.path.join(tmp, "pairs.csv")
        script = os.path.join(tmp, "script.py")
        with open(script, "w") as f:
            f.write(_SCRIPT)
        pd.DataFrame({"r1": a + 1, "r2": b + 1}).to_csv(path, index=False)

        def ours_process() -> object:
            return subprocess.run(
                [sys.executable, "-c", "import sys; from irr.cli import main; sys.exit(main())",
                 "kappa", path], env=env, check=True, capture_output=True, cwd=tmp)

        def script_process() -> object:
            return subprocess.run([sys.executable, script, path], env=env, check=True,
                                  capture_output=True, cwd=tmp)

        def ours() -> object:
            with contextlib.redirect_stdout(io.StringIO()):
                return cli_main(["kappa", path])

        def script_inline() -> object:
            frame = pd.read_csv(path)
            x, y = frame["r1"].to_numpy(), frame["r2"].to_numpy()
            lo, k = min(x.min(), y.min()), max(x.max(), y.max()) - min(x.min(), y.min()) + 1
            table = np.bincount((x - lo) * k + (y - lo), minlength=k * k).reshape(k, k)
            p = table / table.sum()
            return (np.trace(p) - p.sum(1) @ p.sum(0)) / (1 - p.sum(1) @ p.sum(0))

        return [
            _compare(f"irr kappa FILE, {n:.0e}-row CSV", ours_process, script_process,
                     "pandas script (python script.py FILE)", 1.3),
            _compare(f"irr kappa FILE, {n:.0e}-row CSV, in-process (no start-up)", ours,
                     script_inline, "the script's body in-process", 1.3,
                     rounds=3 * ROUNDS),  # half a second a call: more rounds steady it
        ]


def rows(scale: float = 1.0) -> list[dict]:
    """Every row of this part at the issue's sizes (`scale` shrinks them)."""
    return [*kappa_rows(scale), *frame_rows(scale), *long_rows(scale), *cli_rows(scale)]


def _show(results: list[dict]) -> None:
    for r in results:
        memory = ("" if r["ours_mb"] is None else
                  f"  memory {r['ours_mb']:.0f} MiB vs {r['ref_mb']:.0f} MiB")
        print(f"{r['row']:<58} ours {r['ours_s']:7.3f} s  {r['ref']}: {r['ref_s']:7.3f} s  "
              f"ratio {r['ratio']:5.2f} (goal {r['goal']}) {'OK' if r['ok'] else 'MISSED'}"
              f"{memory}")


if __name__ == "__main__":
    _show(rows(float(sys.argv[1]) if len(sys.argv) > 1 else 1.0))
