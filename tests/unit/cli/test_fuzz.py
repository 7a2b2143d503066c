"""The CLI on random and malformed input: exit 0 or a one-line error with status 1, never a
traceback and never a partial output file."""

import contextlib
import io
import json
import math
import tempfile
import warnings
from pathlib import Path

import numpy as np
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from irr.cli import main

cell = st.one_of(
    st.integers(-3, 6).map(str),
    st.sampled_from(["", "NA", "x", "1.5", "inf", "-inf", "nan", '"', "a,b", "\t", "é"]),
    st.text(max_size=5),
)
rows = st.lists(st.lists(cell, min_size=0, max_size=4), min_size=0, max_size=12)


def call(path: Path, *args: str) -> tuple[int, str, str]:
    out, err = io.StringIO(), io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err), warnings.catch_warnings():
        warnings.simplefilter("ignore")  # the CLI reports data warnings as notes
        code = main(["kappa", str(path), *args])
    return code, out.getvalue(), err.getvalue()


def check(code: int, stdout: str, stderr: str) -> None:
    assert code in (0, 1)
    if code == 1:
        assert stdout == ""
        assert stderr.startswith("irr: error: ")
        assert stderr.count("\n") == 1
        assert "Traceback" not in stderr


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(rows)
def test_random_csv_text(table):
    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / "in.csv"
        path.write_text("\n".join(",".join(r) for r in table), encoding="utf-8")
        target = Path(folder) / "out.json"
        code, stdout, stderr = call(path, "--format", "json", "--output", str(target))
        check(code, stdout, stderr)
        assert target.exists() == (code == 0)
        assert sorted(p.name for p in Path(folder).iterdir()) == (
            ["in.csv", "out.json"] if code == 0 else ["in.csv"]
        )


@settings(max_examples=40, deadline=None)
@given(st.binary(max_size=200))
def test_random_bytes(content):
    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / "in.csv"
        path.write_bytes(content)
        check(*call(path))


def test_huge_field(tmp_path):
    path = tmp_path / "huge.csv"
    huge = "x" * 5_000_000
    path.write_text(f"a,b\n{huge},y\nx,y\ny,x\n")
    code, stdout, stderr = call(path)
    check(code, stdout, stderr)
    assert code == 1
    assert stderr == (
        f"irr: error: cannot read {str(path)!r}: field larger than field limit (131072)\n"
    )


# -- random designs through `irr report`: exit 0, every estimate inside its interval, and the
# same bytes twice (continuous, replicated and planning surfaces; the Python surfaces of
# differences and frames: tests/property/test_interval_properties.py)
SCALES = [1e-60, 1e-3, 1.0, 1e4, 1e60]
KINDS = ["perfect", "null", "noisy"]


def _run_twice(*args: str) -> tuple[int, str, str]:
    """``irr ARGS`` twice in this process: the first run, after checking the second gave the
    same exit status and the same bytes on stdout and stderr."""
    runs = []
    for _ in range(2):
        out, err = io.StringIO(), io.StringIO()
        with (contextlib.redirect_stdout(out), contextlib.redirect_stderr(err),
              warnings.catch_warnings()):
            warnings.simplefilter("ignore")
            code = main(list(args))
        runs.append((code, out.getvalue(), err.getvalue()))
    assert runs[0] == runs[1]  # byte-identical on a second run
    return runs[0]


def _rows(report: dict) -> list[dict]:
    return [row for result in report["results"] for row in [result, *(result.get("parts") or [])]]


def _assert_inside(report: dict, where: object) -> None:
    """No finite estimate of a JSON report lies outside its own interval."""
    number = (int, float)
    for row in _rows(report):
        estimate, low, high = row.get("estimate"), row.get("ci_low"), row.get("ci_high")
        if not isinstance(estimate, number) or not math.isfinite(estimate):
            continue
        slack = 1e-9 * max(1.0, abs(estimate))
        assert not (isinstance(low, number) and low > estimate + slack), (where, row)
        assert not (isinstance(high, number) and high < estimate - slack), (where, row)


def _measurements(seed: int, n: int, k: int, kind: str, replicates: int = 1) -> np.ndarray:
    """(n, k, replicates) readings: one true value per subject, read by k methods."""
    rng = np.random.default_rng(seed)
    truth = rng.normal(100, 15, (n, 1, 1))
    if kind == "null":
        return rng.normal(100, 15, (n, k, replicates))
    return truth + rng.normal(0, 5 if kind == "noisy" else 0, (n, k, replicates))


@settings(max_examples=8, deadline=None, derandomize=True,
          suppress_health_check=[HealthCheck.too_slow])
@given(st.integers(0, 2**32 - 1), st.integers(5, 25), st.integers(2, 3),
       st.sampled_from(SCALES), st.sampled_from(KINDS), st.booleans())
def test_random_continuous_report_exits_0_inside_intervals_and_repeats_byte_for_byte(
        seed, n, k, scale, kind, missing):
    values = _measurements(seed, n, k, kind)[:, :, 0] * scale
    gaps = np.random.default_rng(seed + 1).random(values.shape) < (0.1 if missing else 0)
    lines = ["patient," + ",".join(f"m{j}" for j in range(k))]
    lines += [f"p{i}," + ",".join("" if gaps[i, j] else repr(float(values[i, j]))
                                  for j in range(k)) for i in range(n)]
    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / "in.csv"
        path.write_text("\n".join(lines), encoding="utf-8")
        code, stdout, stderr = _run_twice("report", str(path), "--id", "patient",
                                          "--n-resamples", "200", "--format", "json")
    assert code == 0, stderr
    assert "Traceback" not in stderr
    report = json.loads(stdout)
    assert report["data"]["scale_type"] == "continuous"
    _assert_inside(report, (seed, n, k, scale, kind, missing))


@settings(max_examples=6, deadline=None, derandomize=True,
          suppress_health_check=[HealthCheck.too_slow])
@given(st.integers(0, 2**32 - 1), st.integers(5, 15), st.integers(2, 3),
       st.sampled_from(SCALES), st.sampled_from(KINDS))
def test_random_replicated_report_exits_0_inside_intervals_and_repeats_byte_for_byte(
        seed, n, replicates, scale, kind):
    # long data, each of two methods reading each subject `replicates` times (--replicate)
    values = _measurements(seed, n, 2, kind, replicates) * scale
    lines = ["patient,method,reading,value"]
    lines += [f"p{i},{('cuff', 'device')[j]},{r + 1},{float(values[i, j, r])!r}"
              for i in range(n) for j in range(2) for r in range(replicates)]
    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / "long.csv"
        path.write_text("\n".join(lines), encoding="utf-8")
        code, stdout, stderr = _run_twice(
            "report", str(path), "--subject", "patient", "--rater", "method", "--rating",
            "value", "--replicate", "reading", "--n-resamples", "200", "--format", "json")
    assert code == 0, stderr
    report = json.loads(stdout)
    assert report["data"]["n_measurements"] == 2 * n * replicates
    _assert_inside(report, (seed, n, replicates, scale, kind))


PLANS = {
    "kappa": lambda d: ["--kappa0", f"{d(0.0, 0.6):.2f}", "--kappa1", f"{d(0.65, 0.95):.2f}",
                        "--raters", str(int(d(2, 5))), "--categories", str(int(d(2, 5)))],
    "kappa-interval": lambda d: ["--kappa", f"{d(0.3, 0.9):.2f}", "--lower",
                                 f"{d(0.05, 0.25):.2f}", "--prevalence", f"{d(0.1, 0.9):.2f}"],
    "icc": lambda d: ["--rho0", f"{d(0.0, 0.6):.2f}", "--rho1", f"{d(0.65, 0.95):.2f}",
                      "--raters", str(int(d(2, 6)))],
    "icc-interval": lambda d: ["--rho", f"{d(0.3, 0.95):.2f}", "--width", f"{d(0.05, 0.4):.2f}",
                               "--raters", str(int(d(2, 6)))],
    "limits": lambda d: (lambda bias, sd: [  # delta beyond the true limits: reachable
        "--bias", f"{bias:.2f}", "--sd", f"{sd:.2f}", "--delta",
        f"{abs(bias) + 1.96 * sd + d(0.2, 5):.2f}"])(d(-1, 1), d(0.5, 3)),
    "ccc": lambda d: ["--ccc0", f"{d(0.5, 0.85):.2f}", "--ccc1", f"{d(0.87, 0.99):.2f}"],
    "error-rate": lambda d: ["--epsilon0", f"{d(0.05, 0.3):.2f}", "--epsilon1",
                             f"{d(0.005, 0.04):.3f}"],
}


@settings(max_examples=14, deadline=None, derandomize=True,
          suppress_health_check=[HealthCheck.too_slow])
@given(st.sampled_from(sorted(PLANS)), st.integers(0, 2**32 - 1), st.booleans())
def test_random_plans_exit_0_reach_their_power_and_repeat_byte_for_byte(target, seed,
                                                                        given_n):
    rng = np.random.default_rng(seed)
    args = PLANS[target](lambda lo, hi: float(rng.uniform(lo, hi)))
    powered = not target.endswith("-interval")  # an interval's plan has no power
    given_n = given_n and powered
    if given_n:
        args += ["--n", str(int(rng.integers(10, 400)))]
    elif powered:
        args += ["--power", f"{rng.uniform(0.5, 0.95):.2f}"]
    code, stdout, stderr = _run_twice("plan", target, *args, "--format", "json")
    check(code, stdout, stderr)  # or a one-line error naming what cannot be planned
    if code == 1:
        return
    for row in json.loads(stdout):
        n = row.get("n")
        assert n is None or (isinstance(n, int) and n >= 2), (args, row)  # never a sentinel
        power = row.get("power")
        if isinstance(power, float) and math.isfinite(power):
            assert 0.0 <= power <= 1.0, (args, row)
            if powered and not given_n and n is not None:  # the n solved for reaches it
                assert power >= row["target_power"] - 1e-9, (args, row)
