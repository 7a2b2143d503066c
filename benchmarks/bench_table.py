"""Issue #17's table, every row measured on this machine: irr against its floor or peer.

    python benchmarks/bench_table.py [--quick] [--only PATTERN]

``rows(quick=False, only=None)`` returns one dict per measurement (the protocol that
``benchmarks/run_all.py`` reads from every ``benchmarks/bench_*.py`` that defines ``rows()``)::

    {"row": <the issue table's "what a user does" text>, "case": <variant or "">,
     "size": <data size>, "ours_s": float, "ref_s": float, "ref": <floor or peer>,
     "ratio": ours_s / ref_s, "goal": "<= 1.3x" etc, "ok": bool,
     "ours_mb": float | None, "ref_mb": float | None, "note": str}

How it measures:

* Times are ratios taken in the same run: each round times irr and its floor or peer
  back to back (the order alternates between rounds), the ratio of that round is kept,
  and the row reports the median ratio and the median times over >= 3 rounds. A call
  faster than 50 ms is repeated within a round until the round lasts about 0.2 s.
* A call still running after ``IRR_BENCH_LIMIT`` seconds (default 60) is stopped; the
  row then reports that limit as a lower bound (``note`` says so) and fails its goal.
  Rows whose call takes more than 20 s run fewer rounds (at least one).
* Memory is the peak resident set of a subprocess that builds the data and runs the
  call, minus that of a subprocess that only builds the data (same imports), both read
  as ``getrusage(RUSAGE_CHILDREN).ru_maxrss`` in a small launcher process: MiB of extra
  memory, for the rows whose goal names memory or whose "now" cell reports it.
* Start-up rows (``import irr``, the command line) time whole ``python`` processes
  run from the repository root, so the ``irr`` imported is this checkout's.

``--quick`` (or ``IRR_BENCH_QUICK=1``) uses smaller sizes; ``--only PATTERN`` (or
``IRR_BENCH_ONLY``) measures only the rows whose text matches the regular expression
(case-insensitive).
"""

from __future__ import annotations

import json
import math
import os
import re
import signal
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parents[1]
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))  # this checkout's irr, whatever the working directory

import irr  # noqa: E402

MIB = float(1 << 20)
LIMIT = float(os.environ.get("IRR_BENCH_LIMIT", "60"))
ROUNDS = 3
CLI = "import sys; from irr.cli import main; sys.exit(main())"

ROW_KAPPA = '`Agreement(a, b).kappa("quadratic")`, 10^7 int pairs'
ROW_CATS = "same with `categories=range(5)`"
ROW_FRAME = "`from_frame` with string labels and `categories=`, 10^7"
ROW_SMALL = "weighted kappa at n <= 1000"
ROW_ALPHA = "`krippendorff_alpha()` default call on a 0..100 scale, 10^4 / 3x10^4 / 10^5 units"
ROW_MANY = "Fleiss / Gwet / Light with k ≈ 100 categories, 3x10^4 x 5"
ROW_LONG = "`from_long` 10^5 x 5"
ROW_IMPORT = "`import irr`"
ROW_KENDALL = "first `kendall_w()`"
ROW_CLI = "`irr kappa FILE` on a 10^6-row CSV"
ROW_REPORT = "`irr report` on a 10^4 x 5 CSV on a 0..100 scale"


# -- timing -----------------------------------------------------------------------------
class _Stopped(Exception):
    pass


def _alarm(signum, frame):
    raise _Stopped


def _once(func: Callable[[], object], limit: float) -> float:
    """Wall time of one call; ``inf`` when it was stopped after ``limit`` seconds."""
    previous = signal.signal(signal.SIGALRM, _alarm)
    signal.setitimer(signal.ITIMER_REAL, limit)
    start = time.perf_counter()
    try:
        func()
    except _Stopped:
        return math.inf
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)
        signal.signal(signal.SIGALRM, previous)
    return time.perf_counter() - start


def _calls_per_round(func: Callable[[], object]) -> tuple[int, float]:
    """How many calls make a round of about 0.2 s, from one warm-up call (and its time)."""
    first = _once(func, LIMIT)
    if first >= 0.05:
        return 1, first
    return max(1, min(10_000, int(0.2 / max(first, 1e-6)))), first


def _timed(func: Callable[[], object], calls: int, limit: float) -> float:
    if calls == 1:
        return _once(func, limit)

    def many():
        for _ in range(calls):
            func()

    return _once(many, limit) / calls


def interleaved(ours: Callable[[], object], ref: Callable[[], object],
                rounds: int = ROUNDS) -> tuple[float, float, float, str]:
    """Median time of ``ours``, of ``ref`` and of their per-round ratio, and a note.

    A call stopped at ``LIMIT`` seconds counts as ``LIMIT`` (a lower bound) and ends the
    rounds; so does a total over 60 s after the first round."""
    n_ours, warm_ours = _calls_per_round(ours)
    n_ref, warm_ref = _calls_per_round(ref)
    t_ours: list[float] = []
    t_ref: list[float] = []
    if math.isinf(warm_ours) or math.isinf(warm_ref):  # no second call past the limit
        t_ours.append(warm_ours)
        t_ref.append(warm_ref)
    else:
        spent = 0.0
        for r in range(rounds):
            if r % 2 == 0:
                a = _timed(ours, n_ours, LIMIT)
                b = _timed(ref, n_ref, LIMIT)
            else:
                b = _timed(ref, n_ref, LIMIT)
                a = _timed(ours, n_ours, LIMIT)
            t_ours.append(a)
            t_ref.append(b)
            spent += a + b
            if math.isinf(a) or math.isinf(b) or spent > 60.0:
                break
    notes = []
    if any(math.isinf(t) for t in t_ours):
        notes.append(f"stopped after {LIMIT:g} s: ours_s is a lower bound")
    if any(math.isinf(t) for t in t_ref):
        notes.append(f"reference stopped after {LIMIT:g} s")
    t_ours = [min(t, LIMIT) for t in t_ours]
    t_ref = [min(t, LIMIT) for t in t_ref]
    ratios = [a / b for a, b in zip(t_ours, t_ref, strict=True)]
    if len(t_ours) < ROUNDS and not notes:
        notes.append(f"{len(t_ours)} round(s): slow call")
    return (statistics.median(t_ours), statistics.median(t_ref), statistics.median(ratios),
            "; ".join(notes))


# -- subprocesses -----------------------------------------------------------------------
def run_python(code: str, args: tuple[str, ...] = (), timeout: float | None = None
               ) -> tuple[float, float, str]:
    """Run ``python -c code args`` from the repository root: (wall seconds, its
    ru_maxrss in MiB, stdout); ``inf`` seconds when it ran past ``timeout``. The
    ru_maxrss includes this process's resident set at the fork: use :func:`peak_mb`."""
    with tempfile.TemporaryFile("w+") as out, tempfile.TemporaryFile("w+") as err:
        start = time.perf_counter()
        proc = subprocess.Popen([sys.executable, "-c", code, *args], cwd=ROOT, stdout=out,
                                stderr=err)
        deadline = None if timeout is None else start + timeout
        while True:
            pid, status, usage = os.wait4(proc.pid, 0 if deadline is None else os.WNOHANG)
            if pid:
                break
            if time.perf_counter() > deadline:
                proc.kill()
                os.wait4(proc.pid, 0)
                proc.returncode = -9
                return math.inf, math.nan, ""
            time.sleep(0.005)
        elapsed = time.perf_counter() - start
        proc.returncode = os.waitstatus_to_exitcode(status)
        out.seek(0)
        text = out.read()
        if proc.returncode != 0:
            err.seek(0)
            raise RuntimeError(f"subprocess exited {proc.returncode}: {code[:120]!r} "
                               f"{' '.join(args)[:80]}: {err.read()[-400:]}")
    return elapsed, usage.ru_maxrss / 1024.0, text  # Linux: ru_maxrss in KiB


# A child's ru_maxrss starts at its parent's resident set at fork (Linux keeps the larger
# of the old and new address spaces' high-water marks across exec), so the measured
# process is started by a small launcher interpreter, whose own resident set is a few MiB,
# and the launcher reports the child's peak: getrusage(RUSAGE_CHILDREN).ru_maxrss.
LAUNCHER = (
    "import resource, subprocess, sys\n"
    "code = subprocess.call([sys.executable, '-c', sys.argv[1]], stdout=subprocess.DEVNULL)\n"
    "print(resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss, code)"
)


def peak_mb(code: str) -> float:
    """Peak resident set of ``python -c code`` in MiB, measured through the launcher."""
    maxrss, status = run_python(LAUNCHER, (code,))[2].split()
    if status != "0":
        raise RuntimeError(f"subprocess exited {status}: {code[-200:]!r}")
    return int(maxrss) / 1024.0  # Linux: ru_maxrss in KiB


def extra_mb(setup: str, op: str) -> float:
    """Peak RSS of ``setup; op`` minus that of ``setup`` alone, in MiB (fresh processes)."""
    prelude = f"import sys; sys.path.insert(0, {str(ROOT)!r})\n"
    base = peak_mb(prelude + setup)
    peak = peak_mb(prelude + setup + "\n" + op)
    return max(peak - base, 0.0)


def interleaved_processes(ours: Callable[[], float], ref: Callable[[], float],
                          rounds: int = 5) -> tuple[float, float, float]:
    t_ours, t_ref = [], []
    for r in range(rounds):
        if r % 2 == 0:
            t_ours.append(ours())
            t_ref.append(ref())
        else:
            t_ref.append(ref())
            t_ours.append(ours())
    ratios = [a / b for a, b in zip(t_ours, t_ref, strict=True)]
    return statistics.median(t_ours), statistics.median(t_ref), statistics.median(ratios)


def row(text: str, ours_s: float, ref_s: float, ref: str, ratio: float, goal: str,
        ok: bool, *, case: str = "", size: str = "", ours_mb: float | None = None,
        ref_mb: float | None = None, note: str = "") -> dict:
    if "ours_s is a lower bound" in note:
        ok = False  # a call stopped at the limit fails its goal
    return {"row": text, "case": case, "size": size, "ours_s": float(ours_s),
            "ref_s": float(ref_s), "ref": ref, "ratio": float(ratio), "goal": goal,
            "ok": bool(ok), "ours_mb": ours_mb, "ref_mb": ref_mb, "note": note}


def _pow10(n: int) -> str:
    e = round(math.log10(n))
    if 10**e == n:
        return f"10^{e}"
    return f"{n:,}"


# -- data -------------------------------------------------------------------------------
def int_pairs(n: int, k: int = 5, dtype=np.int64, seed: int = 0):
    """Two raters' codes 0..k-1 that mostly agree, built in chunks (no full-length
    temporaries beyond the two outputs)."""
    rng = np.random.default_rng(seed)
    a = np.empty(n, dtype)
    b = np.empty(n, dtype)
    step = 1 << 16
    for lo in range(0, n, step):
        hi = min(n, lo + step)
        x = rng.integers(0, k, hi - lo)
        a[lo:hi] = x
        b[lo:hi] = np.clip(x + rng.integers(-1, 2, hi - lo), 0, k - 1)
    return a, b


def scores(n: int, m: int = 5, seed: int = 0, missing: float = 0.1) -> np.ndarray:
    """(n, m) scores on a 0..100 scale, rater noise +-10, a share of them missing."""
    rng = np.random.default_rng(seed)
    truth = rng.integers(0, 101, n)
    x = np.clip(truth[:, None] + rng.integers(-10, 11, (n, m)), 0, 100).astype(float)
    x[rng.random((n, m)) < missing] = np.nan
    return x


def many_categories(n: int, m: int = 5, k: int = 100, seed: int = 0) -> np.ndarray:
    rng = np.random.default_rng(seed)
    truth = rng.integers(0, k, n)
    return np.where(rng.random((n, m)) < 0.6, truth[:, None], rng.integers(0, k, (n, m)))


def kappa_floor(a: np.ndarray, b: np.ndarray, k: int) -> np.ndarray:
    return np.bincount(a * k + b, minlength=k * k)


# -- rows -------------------------------------------------------------------------------
def row_kappa(quick: bool) -> list[dict]:
    n = 10**6 if quick else 10**7
    a, b = int_pairs(n)
    out = []
    for text, cats in ((ROW_KAPPA, None), (ROW_CATS, range(5))):
        ours_s, ref_s, ratio, note = interleaved(
            lambda c=cats: irr.Agreement(a, b, categories=c).kappa("quadratic"),
            lambda: kappa_floor(a, b, 5))
        out.append(row(text, ours_s, ref_s, "np.bincount(a*k+b)", ratio, "<= 1.3x",
                       ratio <= 1.3, size=f"{_pow10(n)} int64", note=note))
    return out


def row_cats_int8(quick: bool) -> list[dict]:
    """10^8 int8 pairs with declared categories: time and extra memory against the floor."""
    n = 10**7 if quick else 10**8
    a, b = int_pairs(n, dtype=np.int8)
    ours_s, ref_s, ratio, note = interleaved(
        lambda: irr.Agreement(a, b, categories=range(5)).kappa("quadratic"),
        lambda: kappa_floor(a, b, 5))
    setup = ("import numpy as np, irr\nfrom bench_table import int_pairs\n"
             f"a, b = int_pairs({n}, dtype=np.int8)")
    setup = f"import sys; sys.path.insert(0, {str(ROOT / 'benchmarks')!r})\n" + setup
    ours_mb = extra_mb(setup, "irr.Agreement(a, b, categories=range(5)).kappa('quadratic')")
    ref_mb = extra_mb(setup, "np.bincount(a * 5 + b, minlength=25)")
    ok = ratio <= 1.3 and ours_mb <= 2 * max(ref_mb, 1.0)
    return [row(ROW_CATS, ours_s, ref_s, "np.bincount(a*k+b)", ratio,
                "<= 1.3x, memory <= 2x the floor's", ok, size=f"{_pow10(n)} int8",
                ours_mb=ours_mb, ref_mb=ref_mb, note=note)]


def row_frame(quick: bool) -> list[dict]:
    import pandas as pd

    n = 10**6 if quick else 10**7
    a, b = int_pairs(n)
    labels = np.array(["none", "mild", "moderate", "severe", "extreme"], dtype=object)
    df = pd.DataFrame({"rater1": labels[a], "rater2": labels[b]})
    del a, b
    cats = list(labels)

    def floor():
        c1, u1 = pd.factorize(df["rater1"])
        c2, u2 = pd.factorize(df["rater2"])
        return np.bincount(c1 * len(u2) + c2, minlength=len(u1) * len(u2))

    out = []
    for case, options in (("categories= given", {"categories": cats}),
                          ("without categories", {})):
        ours_s, ref_s, ratio, note = interleaved(
            lambda o=options: irr.Agreement.from_frame(df, **o).kappa(), floor)
        out.append(row(ROW_FRAME, ours_s, ref_s, "pd.factorize per column + np.bincount",
                       ratio, "<= 2x", ratio <= 2.0, case=f"{case}; .kappa()",
                       size=f"{_pow10(n)} x 2 str", note=note))
    return out


def row_small(quick: bool) -> list[dict]:  # the same size in both modes
    from sklearn.metrics import cohen_kappa_score

    n = 1000
    a, b = int_pairs(n)
    a, b = a + 1, b + 1
    out = []
    for weights in ("quadratic", "linear"):
        ours_s, ref_s, ratio, note = interleaved(
            lambda w=weights: irr.Agreement(a, b).kappa(w),
            lambda w=weights: cohen_kappa_score(a, b, weights=w))
        out.append(row(ROW_SMALL, ours_s, ref_s, "sklearn cohen_kappa_score", ratio,
                       "<= 1x", ratio <= 1.0, case=f'kappa("{weights}") per call',
                       size=f"n={n}", note=note))
    # the first call in a fresh process, its imports included: `import irr` no longer
    # imports pandas, so the first Agreement does; timing the call alone would charge
    # irr for pandas' import and scikit-learn for none of its own
    setup = ("import time, numpy as np\nrng = np.random.default_rng(0)\n"
             "a = rng.integers(1, 6, 1000); b = np.clip(a + rng.integers(-1, 2, 1000), 1, 5)\n")
    ours_code = setup + ("t = time.perf_counter(); import irr; irr.Agreement(a, b)"
                         ".kappa('quadratic'); print(time.perf_counter() - t)")
    ref_code = setup + ("t = time.perf_counter(); from sklearn.metrics import cohen_kappa_score;"
                        " cohen_kappa_score(a, b, weights='quadratic');"
                        " print(time.perf_counter() - t)")
    ours_s, ref_s, ratio = interleaved_processes(
        lambda: float(run_python(ours_code)[2]), lambda: float(run_python(ref_code)[2]))
    out.append(row(ROW_SMALL, ours_s, ref_s, "sklearn: import + cohen_kappa_score", ratio,
                   "<= 1x", ratio <= 1.0,
                   case='import + first kappa("quadratic") call, fresh process',
                   size=f"n={n}"))
    return out


def row_alpha(quick: bool) -> list[dict]:
    """The default call is level="nominal" (101 categories here); "interval" is the level
    that suits the scale. Both with the default percentile bootstrap (9999 resamples)."""
    sizes = (3000,) if quick else (10**4, 3 * 10**4, 10**5)
    out = []
    for level in ("nominal", "interval"):
        for n in sizes:
            x = scores(n)
            ours_s, ref_s, ratio, note = interleaved(
                lambda x=x, lv=level: irr.krippendorff_alpha(x, lv),
                lambda x=x, lv=level: irr.krippendorff_alpha(x, lv, ci=None))
            size = "3x10^4" if n == 3 * 10**4 else _pow10(n)
            case = "krippendorff_alpha(x)" if level == "nominal" else \
                'krippendorff_alpha(x, "interval")'
            out.append(row(ROW_ALPHA, ours_s, ref_s, "the estimate alone (ci=None)", ratio,
                           "< 1 s (default bootstrap CI)", ours_s < 1.0, case=case,
                           size=f"{size} x 5, 10% missing", note=note))
    return out


def row_many(quick: bool) -> list[dict]:
    from sklearn.metrics import cohen_kappa_score
    from statsmodels.stats.inter_rater import aggregate_raters, fleiss_kappa

    n = 3000 if quick else 3 * 10**4
    x = many_categories(n)

    def statsmodels_fleiss():
        return fleiss_kappa(aggregate_raters(x)[0])

    def sklearn_pairwise():
        m = x.shape[1]
        return np.mean([cohen_kappa_score(x[:, i], x[:, j])
                        for i in range(m) for j in range(i + 1, m)])

    sm_s, sk_s, _, _ = interleaved(statsmodels_fleiss, sklearn_pairwise)
    faster = "statsmodels fleiss_kappa(aggregate_raters)" if sm_s <= sk_s else \
        "sklearn pairwise cohen_kappa_score"
    faster_func = statsmodels_fleiss if sm_s <= sk_s else sklearn_pairwise
    setup = ("import numpy as np, irr\n"
             f"sys.path.insert(0, {str(ROOT / 'benchmarks')!r})\n"
             f"from bench_table import many_categories\nx = many_categories({n})")
    ref_mb = extra_mb(setup, "from statsmodels.stats.inter_rater import aggregate_raters, "
                             "fleiss_kappa\nfleiss_kappa(aggregate_raters(x)[0])")
    out = []
    for name in ("fleiss_kappa", "gwet_ac", "light_kappa"):
        ours_s, ref_s, ratio, note = interleaved(
            lambda nm=name: getattr(irr.Agreement.from_array(x), nm)(), faster_func)
        ours_mb = extra_mb(setup, f"irr.Agreement.from_array(x).{name}()")
        out.append(row(ROW_MANY, ours_s, ref_s, f"{faster} (the faster peer; "
                       f"statsmodels {sm_s:.3g} s, sklearn {sk_s:.3g} s)", ratio,
                       "< 1x both peers", ratio < 1.0, case=f"from_array(x).{name}()",
                       size=f"{n:,} x 5, k=100", ours_mb=ours_mb, ref_mb=ref_mb, note=note))
    return out


def row_long(quick: bool) -> list[dict]:
    import pandas as pd

    n, m = (10**4 if quick else 10**5), 5
    rng = np.random.default_rng(0)
    truth = rng.integers(1, 6, n)
    rating = np.clip(np.repeat(truth, m) + rng.integers(-1, 2, n * m), 1, 5)
    df = pd.DataFrame({"subject": np.repeat(np.arange(n), m),
                       "rater": np.tile(np.array([f"r{j}" for j in range(1, m + 1)],
                                                 dtype=object), n),
                       "rating": rating})

    def floor():
        s, us = pd.factorize(df["subject"])
        pd.factorize(df["rater"])
        r, ur = pd.factorize(df["rating"])
        return np.bincount(s * len(ur) + r, minlength=len(us) * len(ur))

    ours_s, ref_s, ratio, note = interleaved(
        lambda: irr.Agreement.from_long(df, subject="subject", rater="rater",
                                        rating="rating").statistics, floor)
    return [row(ROW_LONG, ours_s, ref_s, "pd.factorize x3 + np.bincount", ratio, "<= 3x",
                ratio <= 3.0, case="from_long(...).statistics",
                size=f"{_pow10(n)} x {m} (long: {n * m:,} rows)", note=note)]


def row_import(quick: bool) -> list[dict]:
    rounds = 3 if quick else 7
    ours_s, ref_s, ratio = interleaved_processes(
        lambda: run_python("import irr")[0], lambda: run_python("import pandas")[0], rounds)
    return [row(ROW_IMPORT, ours_s, ref_s, "python -c 'import pandas'", ratio,
                "<= pandas + 0.1 s", ours_s <= ref_s + 0.1, size="python -c, whole process")]


def row_kendall(quick: bool) -> list[dict]:
    code = ("import sys, time, numpy as np, irr\nrng = np.random.default_rng(0)\n"
            "x = np.round(rng.normal(50, 10, (1000, 5)), 1)\n"
            "before = 'scipy.stats' in sys.modules\n"
            "ag1, ag2 = irr.Agreement.from_array(x), irr.Agreement.from_array(x)\n"
            "t0 = time.perf_counter(); ag1.kendall_w(); t1 = time.perf_counter()\n"
            "ag2.kendall_w(); t2 = time.perf_counter()\n"
            "print(t1 - t0, t2 - t1, before, 'scipy.stats' in sys.modules)")
    firsts, seconds, loaded = [], [], False
    for _ in range(3 if quick else 5):
        first, second, _, after = run_python(code)[2].split()
        firsts.append(float(first))
        seconds.append(float(second))
        loaded = loaded or after == "True"
    ratio = statistics.median([a / b for a, b in zip(firsts, seconds, strict=True)])
    return [row(ROW_KENDALL, statistics.median(firsts), statistics.median(seconds),
                "the second kendall_w() call", ratio, "no scipy.stats on that path",
                not loaded, size="1000 x 5",
                note="scipy.stats imported" if loaded else "scipy.stats not imported")]


def row_cli(quick: bool, tmp: Path) -> list[dict]:
    n = 10**5 if quick else 10**6
    a, b = int_pairs(n)
    path = tmp / "kappa.csv"
    with open(path, "w") as f:
        f.write("id,rater1,rater2\n")
        np.savetxt(f, np.column_stack([np.arange(1, n + 1), a + 1, b + 1]), fmt="%d",
                   delimiter=",")
    script = ("import sys, numpy as np, pandas as pd\n"
              "d = pd.read_csv(sys.argv[1]); a = d.iloc[:, 1].to_numpy(); "
              "b = d.iloc[:, 2].to_numpy()\n"
              "lo = min(a.min(), b.min()); k = max(a.max(), b.max()) - lo + 1\n"
              "t = np.bincount((a - lo) * k + (b - lo), minlength=k * k).reshape(k, k) / len(a)\n"
              "po = np.trace(t); pe = t.sum(1) @ t.sum(0); print((po - pe) / (1 - pe))")
    ours_s, ref_s, ratio = interleaved_processes(
        lambda: run_python(CLI, ("kappa", str(path)))[0],
        lambda: run_python(script, (str(path),))[0], 3 if quick else 5)
    return [row(ROW_CLI, ours_s, ref_s, "python pandas script: read_csv + np.bincount kappa",
                ratio, "<= 1.3x", ratio <= 1.3, size=f"{_pow10(n)} rows, id + 2 raters")]


def row_report(quick: bool, tmp: Path) -> list[dict]:
    n = 2000 if quick else 10**4
    x = scores(n, missing=0.0)
    path = tmp / "report.csv"
    with open(path, "w") as f:
        f.write("id,r1,r2,r3,r4,r5\n")
        np.savetxt(f, np.column_stack([np.arange(1, n + 1), x]), fmt="%d", delimiter=",")
    times = []
    for _ in range(ROUNDS):
        t = run_python(CLI, ("report", str(path)), timeout=max(LIMIT, 3.0))[0]
        times.append(t)
        if sum(times) > 40 or math.isinf(t):
            break
    note = ""
    if math.isinf(max(times)):
        times, note = [LIMIT], f"stopped after {LIMIT:g} s: ours_s is a lower bound"
    elif len(times) < ROUNDS:
        note = f"{len(times)} round(s): slow call"
    ours_s = statistics.median(times)
    return [row(ROW_REPORT, ours_s, 3.0, "the goal: 3 s", ours_s / 3.0, "< 3 s",
                ours_s < 3.0, size=f"{_pow10(n)} x 5, whole process", note=note)]


ROWS: list[tuple[str, Callable[..., list[dict]]]] = [
    (ROW_KAPPA + " | " + ROW_CATS, row_kappa),
    (ROW_CATS + " int8 memory", row_cats_int8),
    (ROW_FRAME, row_frame),
    (ROW_SMALL, row_small),
    (ROW_ALPHA, row_alpha),
    (ROW_MANY, row_many),
    (ROW_LONG, row_long),
    (ROW_IMPORT, row_import),
    (ROW_KENDALL, row_kendall),
    (ROW_CLI, row_cli),
    (ROW_REPORT, row_report),
]


def rows(quick: bool | None = None, only: str | None = None) -> list[dict]:
    """Measure every row (those matching ``only``, a case-insensitive regular expression)."""
    if quick is None:
        quick = os.environ.get("IRR_BENCH_QUICK", "") not in ("", "0")
    if only is None:
        only = os.environ.get("IRR_BENCH_ONLY") or None
    pattern = re.compile(only, re.IGNORECASE) if only else None
    out: list[dict] = []
    with tempfile.TemporaryDirectory() as tmpdir:
        for key, func in ROWS:
            if pattern and not pattern.search(key):
                continue
            try:
                tmp = (Path(tmpdir),) if func in (row_cli, row_report) else ()
                got = func(quick, *tmp)
            except Exception as exc:  # a failing row is reported, not fatal
                text = key.split(" | ")[0].replace(" int8 memory", "")
                got = [row(text, math.nan, math.nan, "", math.nan, "", False,
                           note=f"error: {type(exc).__name__}: {exc}")]
            out.extend(got)
            print(f"  measured: {key[:60]}", file=sys.stderr, flush=True)
    return out


if __name__ == "__main__":
    import argparse

    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true")
    parser.add_argument("--only", metavar="PATTERN")
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args()
    result = rows(quick=args.quick or None, only=args.only)
    if args.json:
        print(json.dumps(result, indent=1))
    else:
        for r in result:
            mem = ("" if r["ours_mb"] is None else
                   f"  mem {r['ours_mb']:.0f} / {r['ref_mb']:.0f} MiB")
            print(f"{r['row']} [{r['case']}; {r['size']}]: {r['ours_s']:.4g} s vs "
                  f"{r['ref']} {r['ref_s']:.4g} s = {r['ratio']:.2f}x{mem}  goal {r['goal']}: "
                  f"{'OK' if r['ok'] else 'NOT MET'} {r['note']}")
