"""The benchmark table of issues #17, #18 and #31: every row, irr against its floor or peer,
on this machine.

    python benchmarks/run_all.py [--quick] [--only PATTERN] [--json] [--list]

Runs ``rows()`` of every ``benchmarks/bench_*.py`` that defines one (the parts, named by
what they measure), each module in a fresh
``python`` process started from the repository root (so the ``irr`` measured is this
checkout's, and memory and import times are not shared between modules), and prints one
table: the row of the issue, the case and size, irr's time, the floor or peer and its
time, their ratio (the median of per-round ratios from interleaved rounds), the extra
memory of both where measured, the goal and whether it holds. Rows of several modules
that measure the same line of the issue are printed together, one per module (the
``source`` column).

``--quick`` measures at smaller sizes (a few minutes instead of about a quarter of an
hour); the full run uses the sizes the issue states. ``--only PATTERN`` (a
case-insensitive regular expression) keeps the rows whose text, case or module name
match; modules whose name does not match get the pattern too, as ``rows(only=...)`` or
``IRR_BENCH_ONLY``, so they can skip the other measurements; a module whose source
never matches the pattern (so none of its rows' texts can) is not run at all. ``--json``
prints the rows as JSON instead. The exit status is 0 when every printed goal holds, 1 otherwise.

Protocol of a part: ``rows()`` returns a list of dicts with the keys ``row``, ``ours_s``,
``ref_s``, ``ref``, ``ratio``, ``goal``, ``ok``, ``ours_mb``, ``ref_mb`` (and optionally
``case``, ``size``, ``note``). ``rows`` may take ``quick`` (or ``scale``: 0.1 with
``--quick``) and ``only`` keyword arguments; the runner also sets ``IRR_BENCH_QUICK``
(1 or 0) and ``IRR_BENCH_ONLY``.
"""

from __future__ import annotations

import argparse
import json
import math
import os
import re
import subprocess
import sys
import tempfile
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent

# The "what a user does" column of issue #17, in its order (rows are printed in it).
ISSUE_ROWS = [
    '`Agreement(a, b).kappa("quadratic")`, 10^7 int pairs',
    "same with `categories=range(5)`",
    "`from_frame` with string labels and `categories=`, 10^7",
    "weighted kappa at n <= 1000",
    "`krippendorff_alpha()` default call on a 0..100 scale, 10^4 / 3x10^4 / 10^5 units",
    "Fleiss / Gwet / Light with k ≈ 100 categories, 3x10^4 x 5",
    "`from_long` 10^5 x 5",
    "`import irr`",
    "first `kendall_w()`",
    "`irr kappa FILE` on a 10^6-row CSV",
    "`irr report` on a 10^4 x 5 CSV on a 0..100 scale",
    # issue #18's benchmark line (bench_continuous.py)
    "limits of agreement and CCC at 10^7 pairs near the cost of one pass over the data",
    "ICC by variance components on 10^5 subjects x 5 raters with 10% missing in seconds, "
    "not minutes",
    # issue #31's rows measured by bench_report.py, bench_alpha_interval.py and
    # bench_cli_process.py
    "`irr.report(df)` printed",
    "`irr.report(df).to_html()` with figures",
    "`krippendorff_alpha(X, \"interval\")` default call with its interval, 0..100 scale",
    "`irr kappa pairs.csv`, whole process",
    "10^8 int8 pairs in Parquet, `irr kappa file.parquet`",
    # bench_continuous_icc.py, bench_many_categories.py, bench_small_calls.py
    "`Agreement.from_array(X, continuous=True).icc()` / `from_long(...).icc()`, 10^5 x 5",
    "`icc_components` with 10% missing, 10^5 x 5; `measurement_error`, 10^4 x 5",
    "Fleiss / Gwet / Conger with k = 101 categories, 3x10^4 x 5",
    "multi-rater object build, k = 5, 10^5 x 5 (`from_array(X).fleiss_kappa()`)",
    'weighted kappa on 100 pairs, `Agreement(a, b).kappa("quadratic")`',
]

# Run in a fresh interpreter: import one part by path, call rows(), write JSON to a file.
CHILD = r"""
import importlib.util, inspect, json, sys
root, path, out, quick, only = sys.argv[1:6]
sys.path[:0] = [root, str(__import__("pathlib").Path(path).parent)]
spec = importlib.util.spec_from_file_location(__import__("pathlib").Path(path).stem, path)
module = importlib.util.module_from_spec(spec)
sys.modules[spec.name] = module
spec.loader.exec_module(module)
params = inspect.signature(module.rows).parameters
kwargs = {}
if "quick" in params:
    kwargs["quick"] = quick == "1"
elif "scale" in params and quick == "1":
    kwargs["scale"] = 0.1
if "only" in params and only:
    kwargs["only"] = only
result = module.rows(**kwargs)
with open(out, "w") as f:
    json.dump(result, f, default=float)
"""

KEYS = ("row", "ours_s", "ref_s", "ref", "ratio", "goal", "ok", "ours_mb", "ref_mb")


def parts() -> list[Path]:
    """Every benchmarks/bench_*.py that defines ``rows()``, the parts first and the
    table part (bench_table.py) last."""
    found = sorted(p for p in HERE.glob("bench_*.py")
                   if re.search(r"^def rows\(", p.read_text(), re.MULTILINE))
    return sorted(found, key=lambda p: (p.stem == "bench_table", p.stem))


def run_part(path: Path, quick: bool, only: str | None, timeout: float | None) -> list[dict]:
    env = dict(os.environ, IRR_BENCH_QUICK="1" if quick else "0")
    if only:
        env["IRR_BENCH_ONLY"] = only
    else:
        env.pop("IRR_BENCH_ONLY", None)
    source = re.sub(r"^bench_", "", path.stem)
    with tempfile.TemporaryDirectory() as tmp:
        out = Path(tmp) / "rows.json"
        start = time.perf_counter()
        try:
            proc = subprocess.run(
                [sys.executable, "-c", CHILD, str(ROOT), str(path), str(out),
                 "1" if quick else "0", only or ""],
                cwd=ROOT, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE,
                text=True, timeout=timeout)
        except subprocess.TimeoutExpired:
            return [_failed(source, f"timed out after {timeout:g} s")]
        elapsed = time.perf_counter() - start
        if proc.returncode != 0 or not out.exists():
            tail = proc.stderr.strip().splitlines()[-1:] or [f"exit {proc.returncode}"]
            return [_failed(source, f"failed: {tail[0][:200]}")]
        result = json.loads(out.read_text())
    print(f"  {source}: {len(result)} row(s) in {elapsed:.0f} s", file=sys.stderr, flush=True)
    for r in result:
        r["source"] = source
        for key in KEYS:
            r.setdefault(key, None)
        for key in ("case", "size", "note"):
            r.setdefault(key, "")
    return result


def _failed(source: str, note: str) -> dict:
    return {"row": f"({source})", "case": "", "size": "", "ours_s": math.nan,
            "ref_s": math.nan, "ref": "", "ratio": math.nan, "goal": "", "ok": False,
            "ours_mb": None, "ref_mb": None, "note": note, "source": source}


def order(r: dict) -> tuple[int, str]:
    text = r["row"] or ""
    for i, issue_row in enumerate(ISSUE_ROWS):
        if _norm(text) == _norm(issue_row):
            return i, r["source"]
    for i, issue_row in enumerate(ISSUE_ROWS):  # a part that shortened the row's text
        if _norm(text) and (_norm(text) in _norm(issue_row) or _norm(issue_row) in _norm(text)):
            return i, r["source"]
    return len(ISSUE_ROWS), r["source"]


def _norm(text: str) -> str:
    return re.sub(r"[`\s]+", " ", text).strip().lower()


def _seconds(x) -> str:
    if x is None or (isinstance(x, float) and math.isnan(x)):
        return "-"
    if x < 1e-3:
        return f"{x * 1e6:.0f} us"
    if x < 1:
        return f"{x * 1e3:.1f} ms"
    return f"{x:.2f} s"


def _mb(x) -> str:
    return "-" if x is None or (isinstance(x, float) and math.isnan(x)) else f"{x:,.0f}"


def _cut(text: str, width: int) -> str:
    text = text or ""
    return text if len(text) <= width else text[: width - 1] + "…"


def table(result: list[dict]) -> str:
    header = ("#", "what a user does", "case", "size", "src", "ours", "floor or peer", "ref",
              "ratio", "MiB ours/ref", "goal", "ok")
    widths = (2, 40, 36, 26, 10, 9, 34, 9, 7, 13, 24, 3)
    lines = ["  ".join(h.ljust(w) for h, w in zip(header, widths, strict=True))]
    lines.append("  ".join("-" * w for w in widths))
    notes = []
    for r in result:
        index = order(r)[0]
        case = r.get("case") or ""
        mem = "-" if r["ours_mb"] is None and r["ref_mb"] is None else \
            f"{_mb(r['ours_mb'])}/{_mb(r['ref_mb'])}"
        ratio = "-" if r["ratio"] is None or math.isnan(r["ratio"]) else f"{r['ratio']:.2f}x"
        cells = (str(index + 1) if index < len(ISSUE_ROWS) else "?", _cut(r["row"], 40),
                 _cut(case, 36), _cut(r.get("size") or "", 26), _cut(r["source"], 10), _seconds(r["ours_s"]),
                 _cut(r["ref"], 34), _seconds(r["ref_s"]), ratio, mem, _cut(r["goal"], 24),
                 "yes" if r["ok"] else "NO")
        lines.append("  ".join(c.ljust(w) for c, w in zip(cells, widths, strict=True)))
        said = [x for x in (r["ref"] if len(r["ref"] or "") > 34 else "", r.get("note")) if x]
        if said:
            where = "; ".join(x for x in (_cut(r["row"], 40), case, r.get("size")) if x)
            notes.append(f"  [{cells[0]} {r['source']}: {where}] " + "; ".join(said))
    if notes:
        lines += ["", "Notes:", *notes]
    return "\n".join(lines)


def _cannot_match(path: Path, pattern: re.Pattern) -> bool:
    """Whether a module need not run for ``--only``: nowhere in its source does the
    pattern match, so none of its rows, whose texts are written in it, can match either
    (a module's ``rows(only=...)`` may not filter by every pattern, and some measure for
    many minutes)."""
    return pattern.search(path.read_text()) is None


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="smaller sizes")
    parser.add_argument("--only", metavar="PATTERN",
                        help="rows whose text, case or module match this regular expression")
    parser.add_argument("--json", action="store_true", help="print the rows as JSON")
    parser.add_argument("--list", action="store_true", help="list the modules and exit")
    parser.add_argument("--timeout", type=float, default=None, metavar="S",
                        help="stop a module after S seconds (default: no limit)")
    args = parser.parse_args(argv)
    modules = parts()
    if args.list:
        print("\n".join(str(p.relative_to(ROOT)) for p in modules))
        return 0
    pattern = re.compile(args.only, re.IGNORECASE) if args.only else None
    result: list[dict] = []
    for path in modules:
        whole = pattern is not None and pattern.search(path.stem) is not None
        if pattern and not whole and _cannot_match(path, pattern):
            print(f"  {path.stem}: skipped (no row can match --only)", file=sys.stderr)
            continue
        got = run_part(path, args.quick, None if whole else args.only, args.timeout)
        if pattern and not whole:
            got = [r for r in got if r["row"].startswith("(") or pattern.search(
                " ".join(str(r.get(k) or "") for k in ("row", "case", "size")))]
        result.extend(got)
    result.sort(key=order)
    if args.json:
        print(json.dumps(result, indent=1, default=float))
    else:
        mode = "quick sizes" if args.quick else "the issue's sizes"
        print(f"Issues #17, #18 and #31 benchmarks at {mode}; ratios are medians of per-round ratios "
              f"(interleaved rounds); memory is extra peak RSS of a subprocess (MiB).")
        print(table(result))
    return 0 if result and all(r["ok"] for r in result) else 1


if __name__ == "__main__":
    sys.exit(main())
