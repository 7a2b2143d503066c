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


# -- A7: bounded reads -------------------------------------------------------------------------
def test_stdin_beyond_the_limit_is_a_one_line_error():
    # `yes 1,2 | irr kappa -`: an endless stream is cut at the limit, not read to the end
    stream = b"a,b\n" + b"1,2\n" * 300_000  # 1.2 MB
    out = run("kappa", "-", "--max-bytes", "1M", stdin=stream)
    assert out.returncode == 1
    assert out.stderr.strip() == (
        b"irr: error: cannot read stdin: larger than the input limit of 1000000 bytes; raise "
        b"it with --max-bytes or $IRR_MAX_BYTES")


def test_limit_from_the_environment_and_its_override(csv_file, monkeypatch):
    monkeypatch.setenv("IRR_MAX_BYTES", "20")
    out = run("kappa", str(csv_file))
    assert out.returncode == 1
    assert "larger than the input limit of 20 bytes" in out.stderr
    out = run("kappa", str(csv_file), "--max-bytes", "1K", "--format", "json")
    assert out.returncode == 0, out.stderr
    import json
    assert json.loads(out.stdout)["results"][1]["estimate"] == pytest.approx(
        kappa_of_ratings(), abs=1e-12)


def test_bad_max_bytes_is_a_usage_error(csv_file):
    out = run("kappa", str(csv_file), "--max-bytes", "lots")
    assert out.returncode == 2
    assert "must be a positive size such as 5000, 500K, 200M or 2G; got 'lots'" in out.stderr


def test_dev_zero_is_refused_at_once():
    out = run("kappa", "/dev/zero")
    assert out.returncode == 1
    assert out.stderr.strip() == (
        "irr: error: cannot read '/dev/zero': it is a character device, not a file; pipe it "
        "to '-' (stdin) instead")


def test_fifo_without_a_writer_does_not_block(tmp_path):
    fifo = tmp_path / "in.csv"
    os.mkfifo(fifo)
    out = run("kappa", str(fifo))  # would hang for ever on a blocking open
    assert out.returncode == 1
    assert out.stderr.strip() == f"irr: error: cannot read {str(fifo)!r}: the file is empty"


def test_pipe_with_a_writer_is_read(tmp_path):
    import threading
    fifo = tmp_path / "in.csv"
    os.mkfifo(fifo)
    text = RATINGS.to_csv(index=False).encode()
    ready = threading.Event()

    def write():
        with open(fifo, "wb") as handle:  # blocks until the reader opens
            ready.set()
            handle.write(text)

    writer = threading.Thread(target=write)
    writer.start()
    # open a reader first so the writer's open returns, then let irr read the FIFO
    keep = os.open(fifo, os.O_RDONLY | os.O_NONBLOCK)
    ready.wait(10)
    try:
        out = run("kappa", str(fifo), "--weights", "unweighted", "--format", "csv")
    finally:
        writer.join(10)
        os.close(keep)
    assert out.returncode == 0, out.stderr
    estimate = pd.read_csv(__import__("io").StringIO(out.stdout))["estimate"][0]
    assert estimate == pytest.approx(kappa_of_ratings(), abs=1e-12)


@pytest.mark.skipif(pytest.importorskip("pyarrow") is None, reason="needs pyarrow")
def test_parquet_metadata_is_checked_before_materialising(tmp_path):
    import numpy as np
    # 3 million zeros compress to a few kB, but take 48 MB as two int64 columns
    frame = pd.DataFrame({"a": np.zeros(3_000_000, np.int64), "b": np.zeros(3_000_000, np.int64)})
    path = tmp_path / "big.parquet"
    frame.to_parquet(path)
    assert path.stat().st_size < 1_000_000
    out = run("kappa", str(path), "--max-bytes", "10M")
    assert out.returncode == 1
    assert out.stderr.strip() == (
        f"irr: error: cannot read {str(path)!r}: its 3000000 rows x 2 columns take about "
        "48000000 bytes, more than the input limit of 10000000; raise it with --max-bytes or "
        "$IRR_MAX_BYTES")


# -- B9: hints on reading ----------------------------------------------------------------------
def test_semicolon_file_gets_a_delimiter_hint(tmp_path):
    path = tmp_path / "excel.csv"
    path.write_text("r1;r2\n1;2\n2;2\n1;1\n")
    out = run("kappa", str(path))
    assert out.returncode == 1
    assert out.stderr.strip() == (
        f"irr: error: cannot read {str(path)!r}: one column only, and its header 'r1;r2' "
        "holds ';': pass --delimiter ';'")


@pytest.mark.parametrize("encoding", ["utf-16", "utf-16-le", "utf-32"])
def test_utf16_text_is_read(tmp_path, encoding):
    # Excel's "Unicode text": UTF-16 with a byte-order mark (utf-16, utf-32), or without
    path = tmp_path / "unicode.txt"
    path.write_bytes(RATINGS.to_csv(index=False, sep="\t").encode(encoding))
    out = run("kappa", str(path), "--encoding", encoding, "--weights", "unweighted",
              "--format", "csv")
    assert out.returncode == 0, out.stderr
    estimate = pd.read_csv(__import__("io").StringIO(out.stdout))["estimate"][0]
    assert estimate == pytest.approx(kappa_of_ratings(), abs=1e-12)
    if encoding != "utf-16-le":  # a byte-order mark is found without --encoding
        out = run("kappa", str(path), "--weights", "unweighted", "--format", "csv")
        assert out.returncode == 0, out.stderr


def test_utf16_without_encoding_gets_a_hint(tmp_path):
    path = tmp_path / "unicode.txt"
    path.write_bytes(RATINGS.to_csv(index=False, sep="\t").encode("utf-16-le"))
    out = run("kappa", str(path))
    assert out.returncode == 1
    assert out.stderr.strip().endswith(
        "binary data, not a CSV/TSV text file (for UTF-16 text pass --encoding utf-16)")
