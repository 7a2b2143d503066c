"""The `irr` command: run as a subprocess, like a user would."""

import subprocess
import sys

import pandas as pd
import pytest


def run(*args, stdin=None):
    return subprocess.run(
        [sys.executable, "-m", "irr.cli", *args],
        capture_output=True,
        text=True,
        input=stdin,
        check=False,
    )


def test_kappa_on_a_bundled_dataset_prints_the_summary():
    out = run("kappa", "--dataset", "vision")
    assert out.returncode == 0, out.stderr
    assert "Agreement between r.eye and l.eye" in out.stdout
    assert "Cohen's kappa                  0.5954" in out.stdout
    assert "Weighted kappa (quadratic)     0.7023" in out.stdout


def test_kappa_on_a_csv_file_with_weights_and_categories(tmp_path):
    path = tmp_path / "ratings.csv"
    pd.DataFrame({"r1": [1, 2, 3, 3, 2, 1], "r2": [1, 2, 3, 2, 2, 1], "x": 0}).to_csv(
        path, index=False
    )
    out = run("kappa", str(path), "--raters", "r1", "r2", "--weights", "linear",
              "--categories", "1", "2", "3", "4")
    assert out.returncode == 0, out.stderr
    assert "Weighted kappa (linear)" in out.stdout
    # Linear weights on the declared 1..4 scale: scores 1..4, span 3.
    import irr

    expected = irr.Agreement([1, 2, 3, 3, 2, 1], [1, 2, 3, 2, 2, 1], categories=[1, 2, 3, 4])
    assert f"{expected.kappa('linear').estimate:.4f}" in out.stdout
    assert path.read_text().startswith("r1,r2,x")  # the input is untouched


def test_kappa_reads_stdin():
    out = run("kappa", "-", stdin="a,b\nx,x\ny,y\nx,y\ny,y\n")
    assert out.returncode == 0, out.stderr
    assert "Cohen's kappa" in out.stdout


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (("kappa", "/no/such/file.csv"), "irr: error: cannot read '/no/such/file.csv': no such file"),
        (("kappa", "--dataset", "vision", "--raters", "a", "b"),
         "irr: error: `raters` names columns not in `df`: ['a', 'b']"),
        (("kappa", "--dataset", "nope"), "irr: error: Unknown data set 'nope'"),
    ],
)
def test_errors_are_one_line_with_exit_status_1(args, message):
    out = run(*args)
    assert out.returncode == 1
    assert out.stdout == ""
    assert out.stderr.startswith(message)
    assert len(out.stderr.strip().splitlines()) == 1
    assert "Traceback" not in out.stderr


def test_usage_errors_exit_2():
    out = run("kappa", "--dataset", "vision", "--weights", "cubic")
    assert out.returncode == 2
    assert "invalid choice: 'cubic'" in out.stderr
