"""The CLI on random and malformed input: exit 0 or a one-line error with status 1, never a
traceback and never a partial output file."""

import contextlib
import io
import tempfile
import warnings
from pathlib import Path

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


# -- continuous measurements: random designs at several scales -----------------------------
@settings(max_examples=8, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.integers(0, 2**32 - 1), st.integers(5, 25), st.integers(2, 3),
       st.sampled_from([1e-60, 1e-3, 1.0, 1e4, 1e60]),
       st.sampled_from(["perfect", "null", "noisy"]))
def test_random_continuous_report_exits_0_and_repeats_byte_for_byte(seed, n, k, scale, kind):
    import numpy as np

    rng = np.random.default_rng(seed)
    truth = rng.normal(100, 15, n)
    noise = {"perfect": 0.0, "null": 1e6, "noisy": 5.0}[kind]
    columns = [truth + rng.normal(0, 1, n) * noise if kind != "null" else rng.normal(100, 15, n)
               for _ in range(k)]
    lines = ["patient," + ",".join(f"m{j}" for j in range(k))]
    lines += [f"p{i}," + ",".join(repr(float(c[i] * scale)) for c in columns) for i in range(n)]
    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / "in.csv"
        path.write_text("\n".join(lines), encoding="utf-8")
        runs = []
        for _ in range(2):
            out, err = io.StringIO(), io.StringIO()
            with (contextlib.redirect_stdout(out), contextlib.redirect_stderr(err),
                  warnings.catch_warnings()):
                warnings.simplefilter("ignore")
                code = main(["report", str(path), "--id", "patient",
                             "--n-resamples", "200"])
            runs.append((code, out.getvalue(), err.getvalue()))
        assert runs[0] == runs[1]  # byte-identical on a second run
        assert runs[0][0] == 0, runs[0][2]
        assert "Traceback" not in runs[0][2]
