"""Whole processes: ``import irr``, ``irr kappa pairs.csv`` and ``irr kappa pairs.parquet``.

    python benchmarks/bench_cli_process.py [--quick]

Each contender is a fresh ``python`` process started from the repository root, timed
from start to exit, once per round with rounds interleaved; memory is the peak RSS of the
process (``os.wait4``), MiB. Each is started by a small launcher process (no numpy): on
Linux a child's peak RSS includes the RSS of the process that forked it, so started from
this one (which holds the data it wrote) both contenders would report this process's
memory (the Parquet row once read ~274 MiB for DuckDB and irr alike). The note gives
the median CPU seconds (user + system) of both and their ratio: on a machine shared with
other work the wall-clock ratio wanders with the load, the CPU ratio much less (DuckDB's
threads count in both).

* ``import irr`` against ``import pandas``: goal ``irr - pandas <= 0.1 s``.
* ``irr kappa pairs.csv`` (10^6 rows of two integer columns 1..5) against a script that
  reads the file with ``pandas.read_csv`` and counts the pairs with ``numpy.bincount``
  (the table kappa needs): goal <= 1.3x.
* ``irr kappa pairs.parquet`` (10^8 int8 pairs; ``--quick`` or ``IRR_BENCH_PARQUET_ROWS``
  smaller) against DuckDB's own ``GROUP BY a, b`` count of the same file: goal <= 1.3x and
  <= 256 MiB.
"""

from __future__ import annotations

import json
import os
import statistics
import subprocess
import sys
import tempfile
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parent.parent


# Starts argv[1:], waits, prints its seconds, exit status, peak RSS (KiB), CPU seconds and
# the tail of its stderr as JSON.
LAUNCHER = """
import json, os, subprocess, sys, time
start = time.perf_counter()
proc = subprocess.Popen(sys.argv[1:], stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
error = proc.stderr.read()
_, status, usage = os.wait4(proc.pid, 0)
elapsed = time.perf_counter() - start
print(json.dumps([elapsed, status, usage.ru_maxrss, usage.ru_utime + usage.ru_stime,
                  error.decode(errors="replace")[-300:]]))
"""


def run(code: list[str]) -> tuple[float, float, float]:
    """Seconds, peak RSS (MiB) and CPU seconds (user + system) of one process."""
    env = dict(os.environ, PYTHONPATH=str(ROOT))
    # bytecode cached as for an installed package (pip compiles it); without this an
    # inherited PYTHONDONTWRITEBYTECODE makes every run compile irr's sources again
    env.pop("PYTHONDONTWRITEBYTECODE", None)
    done = subprocess.run([sys.executable, "-c", LAUNCHER, *code], cwd=ROOT, env=env,
                          capture_output=True, text=True, check=True)
    elapsed, status, rss, cpu, error = json.loads(done.stdout)
    if status != 0:
        raise RuntimeError(f"{' '.join(code)} exited with {status}: {error}")
    return elapsed, rss / 1024, cpu


def interleave(ours: list[str], ref: list[str], rounds: int) -> dict:
    run(ours), run(ref)  # warm the bytecode and file caches (untimed)
    a, b = [], []
    for _ in range(rounds):
        a.append(run(ours))
        b.append(run(ref))
    ratios = [x[0] / y[0] for x, y in zip(a, b, strict=True)]
    cpu = statistics.median(x[2] for x in a), statistics.median(y[2] for y in b)
    return {"ours_s": statistics.median(x[0] for x in a),
            "ref_s": statistics.median(y[0] for y in b), "ratio": statistics.median(ratios),
            "ours_mb": max(x[1] for x in a), "ref_mb": max(y[1] for y in b),
            "diff": statistics.median(x[0] - y[0] for x, y in zip(a, b, strict=True)),
            "note": f"CPU {cpu[0]:.2f} s vs {cpu[1]:.2f} s, {cpu[0] / cpu[1]:.2f}x"}


PANDAS_KAPPA = """
import sys, numpy as np, pandas as pd
d = pd.read_csv(sys.argv[1])
a, b = d.iloc[:, 0].to_numpy(), d.iloc[:, 1].to_numpy()
t = np.bincount((a - 1) * 5 + (b - 1), minlength=25).reshape(5, 5) / a.size
po, pe = np.trace(t), t.sum(1) @ t.sum(0)
print((po - pe) / (1 - pe))
"""

DUCKDB_GROUP = """
import sys, duckdb
print(duckdb.sql(f"SELECT a, b, count(*) FROM read_parquet('{sys.argv[1]}') GROUP BY a, b").fetchall())
"""


def rows(quick: bool = False, rounds: int = 5) -> list[dict]:
    out = []
    py = sys.executable
    r = interleave([py, "-c", "import irr"], [py, "-c", "import pandas"], rounds)
    out.append({"row": "`import irr`", "case": "fresh process, cached bytecode", "size": "",
                **r, "ref": "python -c 'import pandas'",
                "goal": "<= pandas + 0.1 s", "ok": r["diff"] <= 0.1,
                "note": f"median difference {r['diff']:.3f} s; {r['note']}"})
    rng = np.random.default_rng(0)
    with tempfile.TemporaryDirectory() as tmp:
        n = 100_000 if quick else 1_000_000
        a = rng.integers(1, 6, n)
        b = np.where(rng.random(n) < 0.6, a, rng.integers(1, 6, n))
        csv = Path(tmp) / "pairs.csv"
        np.savetxt(csv, np.column_stack([a, b]), fmt="%d", delimiter=",", header="a,b",
                   comments="")
        r = interleave([py, "-m", "irr", "kappa", str(csv)],
                       [py, "-c", PANDAS_KAPPA, str(csv)], rounds)
        out.append({"row": "`irr kappa pairs.csv`, whole process", "size": f"{n:,} rows",
                    **r, "ref": "python: pandas.read_csv + numpy.bincount kappa",
                    "goal": "<= 1.3x", "ok": r["ratio"] <= 1.3})
        import pyarrow as pa
        import pyarrow.parquet as pq

        n = int(os.environ.get("IRR_BENCH_PARQUET_ROWS", 10**6 if quick else 10**8))
        path = Path(tmp) / "pairs.parquet"
        with pq.ParquetWriter(path, pa.schema([("a", pa.int8()), ("b", pa.int8())])) as w:
            for start in range(0, n, 10**7):  # written in chunks: 10^8 rows in ~200 MB
                m = min(10**7, n - start)
                x = rng.integers(1, 6, m, dtype=np.int8)
                y = np.where(rng.random(m) < 0.6, x, rng.integers(1, 6, m, dtype=np.int8))
                w.write_table(pa.table({"a": x, "b": y.astype(np.int8)}))
        r = interleave([py, "-m", "irr", "kappa", str(path)],
                       [py, "-c", DUCKDB_GROUP, str(path)], max(5, rounds))
        out.append({"row": "10^8 int8 pairs in Parquet, `irr kappa file.parquet`",
                    "size": f"{n:,} rows", **r, "ref": "python: DuckDB GROUP BY a, b",
                    "goal": "<= 1.3x, <= 256 MiB",
                    "ok": r["ratio"] <= 1.3 and r["ours_mb"] <= 256})
    for row in out:
        row.pop("diff", None)
    return out


if __name__ == "__main__":
    for r in rows(quick="--quick" in sys.argv):
        print(f"{r['row']:<55} {r.get('size', ''):>14}  ours {r['ours_s']:.2f} s "
              f"{r['ours_mb']:.0f} MiB  ref {r['ref_s']:.2f} s {r['ref_mb']:.0f} MiB  "
              f"ratio {r['ratio']:.2f}x  ok={r['ok']}  ({r.get('note', '')})")
