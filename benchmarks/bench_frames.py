"""Issue 21's benchmarks: agreement where the data live, against the engine's own GROUP BY.

    python benchmarks/bench_frames.py [--quick] [--dir DIR]

Row 1: quadratic weighted kappa with its SE on int8 rating pairs in a Parquet file
(10^9 pairs; --quick 10^8), read by DuckDB through ``Agreement.from_frame``, against
DuckDB's ``SELECT a, b, COUNT(*) ... GROUP BY a, b`` on the same file. Goal: within 2x of
the engine's time, peak memory (the process's resident high-water mark, VmHWM) under 1 GiB.

Row 2: Fleiss' kappa and Gwet's AC1 on a Dask DataFrame of 10^8 subjects x 5 raters
(--quick 10^7) persisted on a local cluster of two workers, against Dask's
``groupby(raters, dropna=False).size()`` on the same frame (missing ratings kept as
keys, as irr needs them). Goal: within 2x of the engine's time.

Row 3: parametric limits of agreement (bias, SD, limits with exact intervals, proportional
bias) and Lin's CCC with its SE of two float64 methods near 1e6 in a Parquet file (10^8
pairs, 1% of each method's values missing; --quick 10^7), read by DuckDB through
``Agreement.from_frame(..., continuous=True)`` (the engine sums the shifted moments),
against DuckDB's own ``SELECT count(*), sum(x), sum(y), sum(x*x), sum(y*y), sum(x*y)`` of
the complete pairs. Goal: within 2x of the engine's time, peak memory under 1 GiB.

Each measurement runs in a fresh process (so memory is that call's alone); rounds alternate
irr and the engine, and the ratio is the median of the per-round ratios. The Parquet file
is written once into DIR (default: the system's temporary folder) and kept for later runs.
``rows()`` follows the protocol of ``run_all.py``.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile
import textwrap
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent

GENERATE = """
import numpy as np, pyarrow as pa, pyarrow.parquet as pq
n, path = {n}, {path!r}
rng = np.random.default_rng(0)
writer = None
step = 10_000_000
for start in range(0, n, step):
    m = min(step, n - start)
    a = rng.integers(0, 5, m, dtype=np.int8)
    b = np.clip(a + rng.integers(-1, 2, m, dtype=np.int8), 0, 4).astype(np.int8)
    table = pa.table({{"a": a, "b": b}})
    writer = writer or pq.ParquetWriter(path + ".part", table.schema)
    writer.write_table(table, row_group_size=1_000_000)
writer.close()
import os; os.replace(path + ".part", path)
"""

GENERATE_FLOATS = """
import numpy as np, pyarrow as pa, pyarrow.parquet as pq
n, path = {n}, {path!r}
rng = np.random.default_rng(0)
writer = None
step = 5_000_000
for start in range(0, n, step):
    m = min(step, n - start)
    truth = 1e6 + rng.normal(0, 10, m)
    x = truth + rng.normal(0.3, 1, m)
    y = truth + rng.normal(0, 1, m)
    table = pa.table({{"x": pa.array(x, mask=rng.random(m) < 0.01),
                       "y": pa.array(y, mask=rng.random(m) < 0.01)}})
    writer = writer or pq.ParquetWriter(path + ".part", table.schema)
    writer.write_table(table, row_group_size=1_000_000)
writer.close()
import os; os.replace(path + ".part", path)
"""

# a child: run one timed call, print its seconds and the process's peak resident memory
CHILD = """
import json, time, warnings
warnings.simplefilter("ignore", FutureWarning)
{setup}
tic = time.perf_counter()
{call}
seconds = time.perf_counter() - tic
peak = next(int(line.split()[1]) for line in open("/proc/self/status") if line.startswith("VmHWM"))
print(json.dumps({{"seconds": seconds, "peak_mb": peak / 1024}}))
"""

PARQUET_SETUP = "import duckdb, irr\ncon = duckdb.connect()\nrel = con.read_parquet({path!r})"
PARQUET_OURS = ("res = irr.Agreement.from_frame(rel, ['a', 'b']).kappa(weights='quadratic')\n"
                "assert res.n_subjects == {n}")
PARQUET_REF = ("out = con.sql(\"SELECT a, b, COUNT(*) FROM read_parquet({path!r}) "
               "GROUP BY a, b\").fetchall()")

MOMENTS_OURS = ("ag = irr.Agreement.from_frame(rel, ['x', 'y'], continuous=True)\n"
                "res = (ag.limits_of_agreement(), ag.concordance())\n"
                "assert res[0].n_subjects + res[0].n_missing < {n}")
MOMENTS_REF = ("out = con.sql(\"SELECT count(*), sum(x), sum(y), sum(x * x), sum(y * y), "
               "sum(x * y) FROM read_parquet({path!r}) WHERE x IS NOT NULL AND y IS NOT "
               "NULL\").fetchall()")

DASK_SETUP = """
import dask.array as da, dask.dataframe as dd, distributed, irr
cluster = distributed.LocalCluster(n_workers=2, threads_per_worker=1, dashboard_address=None,
                                   memory_limit="8GiB")
client = distributed.Client(cluster)
x = da.random.default_rng(0).integers(0, 5, size=({n}, 5), chunks=(1_000_000, 5)).astype("int8")
frame = dd.from_dask_array(x, columns=[f"r{{j}}" for j in range(5)]).persist()
distributed.wait(frame)
"""
DASK_OURS = ("ag = irr.Agreement.from_frame(frame, [f'r{{j}}' for j in range(5)])\n"
             "res = (ag.fleiss_kappa(), ag.gwet_ac())\nassert ag.n_subjects == {n}")
DASK_REF = "out = frame.groupby([f'r{j}' for j in range(5)], dropna=False).size().compute()"


def _child(setup: str, call: str) -> dict:
    code = CHILD.format(setup=setup, call=textwrap.indent(call, ""))
    done = subprocess.run([sys.executable, "-c", code], cwd=ROOT, capture_output=True,
                          text=True, check=False)
    if done.returncode:
        raise RuntimeError(done.stderr[-2000:])
    return json.loads(done.stdout.strip().splitlines()[-1])


def _rounds(setup: str, ours: str, ref: str, rounds: int) -> tuple[dict, dict, float]:
    mine, theirs, ratios = [], [], []
    for _ in range(rounds):
        a, b = _child(setup, ours), _child(setup, ref)
        mine.append(a)
        theirs.append(b)
        ratios.append(a["seconds"] / b["seconds"])
    pick = lambda runs: {k: statistics.median(r[k] for r in runs) for k in runs[0]}  # noqa: E731
    return pick(mine), pick(theirs), statistics.median(ratios)


def parquet_file(n: int, folder: Path, kind: str = "pairs") -> Path:
    path = folder / f"irr-bench-{kind}-{n}.parquet"
    if not path.exists():
        script = GENERATE if kind == "pairs" else GENERATE_FLOATS
        subprocess.run([sys.executable, "-c", script.format(n=n, path=str(path))], check=True)
    return path


def moments_row(n: int, folder: str | None, rounds: int) -> dict:
    """Row 3: limits of agreement and CCC of n float pairs in Parquet, via DuckDB."""
    path = str(parquet_file(n, Path(folder or tempfile.gettempdir()), "floats"))
    mine, theirs, ratio = _rounds(PARQUET_SETUP.format(path=path), MOMENTS_OURS.format(n=n),
                                  MOMENTS_REF.format(path=path), rounds)
    return {"row": "LoA + CCC, float64 pairs near 1e6 in Parquet, via DuckDB",
            "size": f"{n:.0e} pairs", "ours_s": mine["seconds"],
            "ref": "DuckDB SELECT count, sum(x), sum(y), sum(x*x), sum(y*y), sum(x*y)",
            "ref_s": theirs["seconds"], "ratio": ratio, "ours_mb": mine["peak_mb"],
            "ref_mb": theirs["peak_mb"], "goal": "<= 2x, peak < 1 GiB",
            "ok": ratio <= 2 and mine["peak_mb"] < 1024}


def rows(quick: bool = False, folder: str | None = None, rounds: int = 3,
         only: str | None = None, size: int | None = None) -> list[dict]:
    if only == "moments":
        return [moments_row(size or (10**7 if quick else 10**8), folder, rounds)]
    out = []
    n = 10**8 if quick else 10**9
    path = str(parquet_file(n, Path(folder or tempfile.gettempdir())))
    mine, theirs, ratio = _rounds(PARQUET_SETUP.format(path=path), PARQUET_OURS.format(n=n),
                                  PARQUET_REF.format(path=path), rounds)
    out.append({"row": "quadratic kappa + SE, int8 pairs in Parquet, via DuckDB",
                "size": f"{n:.0e} pairs", "ours_s": mine["seconds"],
                "ref": "DuckDB GROUP BY a, b COUNT(*)", "ref_s": theirs["seconds"],
                "ratio": ratio, "ours_mb": mine["peak_mb"], "ref_mb": theirs["peak_mb"],
                "goal": "<= 2x, peak < 1 GiB",
                "ok": ratio <= 2 and mine["peak_mb"] < 1024})
    n = 10**7 if quick else 10**8
    setup = DASK_SETUP.format(n=n)
    mine, theirs, ratio = _rounds(setup, DASK_OURS.format(n=n), DASK_REF, rounds)
    out.append({"row": "Fleiss + Gwet AC1, Dask local cluster (2 workers), 5 raters",
                "size": f"{n:.0e} subjects", "ours_s": mine["seconds"],
                "ref": "Dask groupby(raters, dropna=False).size()", "ref_s": theirs["seconds"],
                "ratio": ratio, "ours_mb": mine["peak_mb"], "ref_mb": theirs["peak_mb"],
                "goal": "<= 2x", "ok": ratio <= 2})
    out.append(moments_row(size or (10**7 if quick else 10**8), folder, rounds))
    return out


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true")
    parser.add_argument("--dir", default=None, help="where the Parquet file is kept")
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--only", choices=["moments"], default=None,
                        help="run row 3 only (limits of agreement and CCC)")
    parser.add_argument("--size", type=int, default=None, help="pairs of row 3")
    args = parser.parse_args()
    table = rows(args.quick, args.dir, args.rounds, args.only, args.size)
    for r in table:
        print(f"{r['row']} [{r['size']}]: irr {r['ours_s']:.2f} s ({r['ours_mb']:.0f} MiB), "
              f"{r['ref']} {r['ref_s']:.2f} s ({r['ref_mb']:.0f} MiB): {r['ratio']:.2f}x, "
              f"goal {r['goal']}: {'holds' if r['ok'] else 'DOES NOT HOLD'}")
    return 0 if all(r["ok"] for r in table) else 1


if __name__ == "__main__":
    os.environ.setdefault("PYTHONWARNINGS", "ignore::FutureWarning")
    sys.exit(main())
