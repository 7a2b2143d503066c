"""Issue 15, files and output: the command line writes only regular files, exclusively,
reads within a size limit; every renderer escapes what the data name; results pickle."""

import os
import stat

import pandas as pd
import pytest
from test_cli import RATINGS, run

import irr
import irr.cli


@pytest.fixture
def csv_file(tmp_path):
    path = tmp_path / "ratings.csv"
    RATINGS.to_csv(path, index=False)
    return path


def kappa_of_ratings():
    # the CLI's Cohen's kappa must be the API's on the same two columns
    return irr.Agreement(RATINGS["r1"], RATINGS["r2"]).kappa().estimate


# -- A1: only regular files ------------------------------------------------------------------
def test_output_fifo_is_refused_even_with_force(csv_file, tmp_path):
    fifo = tmp_path / "pipe"
    os.mkfifo(fifo)
    out = run("kappa", str(csv_file), "-o", str(fifo), "--force")
    assert out.returncode == 1
    assert out.stderr.strip() == (
        f"irr: error: --output {str(fifo)!r} is a FIFO (named pipe); irr writes only "
        "regular files")
    assert stat.S_ISFIFO(os.lstat(fifo).st_mode)  # not replaced by a regular file


def test_output_directory_is_refused(csv_file, tmp_path):
    out = run("kappa", str(csv_file), "-o", str(tmp_path), "--force")
    assert out.returncode == 1
    assert out.stderr.strip() == (
        f"irr: error: --output {str(tmp_path)!r} is a directory; irr writes only regular files")


def test_output_device_is_refused(csv_file, tmp_path, monkeypatch):
    # a stand-in for /dev/null: os.stat reports a character device for this one path
    fake = str(tmp_path / "null")
    real_stat = os.stat

    def fake_stat(path, *args, **kwargs):
        if os.fspath(path) == fake:
            return os.stat_result((stat.S_IFCHR | 0o666, 0, 0, 1, 0, 0, 0, 0, 0, 0))
        return real_stat(path, *args, **kwargs)

    monkeypatch.setattr(os, "stat", fake_stat)
    out = run("kappa", str(csv_file), "-o", fake, "--force")
    assert out.returncode == 1
    assert out.stderr.strip() == (
        f"irr: error: --output {fake!r} is a character device; irr writes only regular files")
    monkeypatch.undo()
    assert not os.path.lexists(fake)


def test_dev_null_is_refused_and_stays_a_device(csv_file):
    out = run("kappa", str(csv_file), "-o", "/dev/null", "--force")
    assert out.returncode == 1
    assert "is a character device; irr writes only regular files" in out.stderr
    assert stat.S_ISCHR(os.lstat("/dev/null").st_mode)  # read-only check


def test_symlink_to_a_regular_file_is_followed_and_said(csv_file, tmp_path):
    real = tmp_path / "real.json"
    real.write_text("old")
    link = tmp_path / "link.json"
    link.symlink_to(real)
    out = run("kappa", str(csv_file), "--format", "json", "-o", str(link), "--force")
    assert out.returncode == 0, out.stderr
    assert out.stderr.strip() == (
        f"irr: note: --output {str(link)!r} is a symbolic link: writing to its target "
        f"{str(real)!r}")
    assert link.is_symlink()  # the link is kept, its target rewritten
    import json
    results = json.loads(real.read_text())["results"]
    assert results[1]["estimate"] == pytest.approx(kappa_of_ratings(), abs=1e-12)
    assert sorted(p.name for p in tmp_path.iterdir()) == ["link.json", "ratings.csv",
                                                          "real.json"]


def test_symlink_to_the_input_is_refused(csv_file, tmp_path):
    original = csv_file.read_text()
    link = tmp_path / "out.csv"
    link.symlink_to(csv_file)
    out = run("kappa", str(csv_file), "-o", str(link), "--force")
    assert out.returncode == 1
    assert "refusing to overwrite the input file" in out.stderr
    assert csv_file.read_text() == original


# -- A2: created exclusively, at the end ------------------------------------------------------
def test_output_that_appears_during_the_run_is_not_overwritten(csv_file, tmp_path, monkeypatch):
    target = tmp_path / "out.txt"
    render = irr.cli._render

    def render_and_race(out, fmt):  # another process creates the file mid-run
        target.write_text("theirs")
        return render(out, fmt)

    monkeypatch.setattr(irr.cli, "_render", render_and_race)
    out = run("kappa", str(csv_file), "-o", str(target))
    assert out.returncode == 1
    assert out.stderr.strip() == (
        f"irr: error: --output {str(target)!r} appeared during the run; pass --force to "
        "overwrite it")
    assert target.read_text() == "theirs"
    assert sorted(p.name for p in tmp_path.iterdir()) == ["out.txt", "ratings.csv"]


def test_unwritable_directory_is_found_before_reading(tmp_path, monkeypatch):
    # root ignores permission bits, so the refusal of the directory is simulated
    def refuse(*args, **kwargs):
        raise PermissionError(13, "Permission denied")

    monkeypatch.setattr(irr.cli.tempfile, "mkstemp", refuse)
    missing = tmp_path / "not-there.csv"  # reading it would fail: the check comes first
    out = run("kappa", str(missing), "-o", str(tmp_path / "out.txt"))
    assert out.returncode == 1
    assert out.stderr.strip() == (
        f"irr: error: cannot write {str(tmp_path / 'out.txt')!r}: the directory "
        f"{str(tmp_path)!r} is not writable (Permission denied)")


def test_empty_output_name_is_a_clear_error(csv_file):
    out = run("kappa", str(csv_file), "-o", "")
    assert out.returncode == 1
    assert out.stderr.strip() == "irr: error: --output is empty: give a file name, or '-' for stdout"
