"""Files and the command line: it writes only regular files, exclusively, reads within a
size limit, gives hints on reading, bounds the number of resamples, and ends with one-line
errors. (Escaping: tests/unit/rendering/test_escaping.py; pickling:
tests/unit/test_results_pickle.py.)"""

import functools
import json
import os
import re
import stat
import tempfile

import pandas as pd
import pytest

import irr
import irr.cli
from tests.support.cli_runner import cli
from tests.unit.cli.test_commands import RATINGS, run


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
    # a stand-in for /dev/null: os.lstat reports a character device for this one path
    fake = str(tmp_path / "null")
    real_lstat = os.lstat

    def fake_lstat(path, *args, **kwargs):
        if os.fspath(path) == fake:
            return os.stat_result((stat.S_IFCHR | 0o666, 0, 0, 1, 0, 0, 0, 0, 0, 0))
        return real_lstat(path, *args, **kwargs)

    monkeypatch.setattr(os, "lstat", fake_lstat)
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


def test_symlink_is_refused_never_written_through(csv_file, tmp_path):
    # issue 30: with --force, a link's target (as root, a system file) was overwritten;
    # tests/unit/cli/test_output_files.py covers --plot, dangling links and races
    real = tmp_path / "real.json"
    real.write_text("old")
    link = tmp_path / "link.json"
    link.symlink_to(real)
    out = run("kappa", str(csv_file), "--format", "json", "-o", str(link), "--force")
    assert out.returncode == 1
    assert out.stderr.strip() == (
        f"irr: error: --output {str(link)!r} is a symbolic link (to {str(real)!r}); irr "
        "never writes through a link: give the path of a regular file")
    assert link.is_symlink()
    assert real.read_text() == "old"
    assert sorted(p.name for p in tmp_path.iterdir()) == ["link.json", "ratings.csv",
                                                          "real.json"]


def test_symlink_to_the_input_is_refused(csv_file, tmp_path):
    original = csv_file.read_text()
    link = tmp_path / "out.csv"
    link.symlink_to(csv_file)
    out = run("kappa", str(csv_file), "-o", str(link), "--force")
    assert out.returncode == 1
    assert "is a symbolic link" in out.stderr
    assert csv_file.read_text() == original
    # the input named itself: refused with or without --force
    for force in ((), ("--force",)):
        out = run("kappa", str(csv_file), "-o", str(csv_file), *force)
        assert out.returncode == 1
        assert out.stderr.strip() == (
            f"irr: error: refusing to overwrite the input file {str(csv_file)!r} with --output")
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

    monkeypatch.setattr(tempfile, "mkstemp", refuse)
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
    out = run("kappa", str(csv_file), "--format", "json")  # beyond the limit: streamed
    assert out.returncode == 0, out.stderr
    import json
    assert json.loads(out.stdout)["results"][1]["estimate"] == pytest.approx(
        kappa_of_ratings(), abs=1e-12)
    assert "streamed by DuckDB" in run("kappa", str(csv_file)).stdout
    out = run("kappa", str(csv_file), "--max-bytes", "1K", "--format", "json")
    assert out.returncode == 0, out.stderr
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
    assert out.stderr.strip() == (
        f"irr: error: cannot read {str(fifo)!r}: a named pipe with no data (no writer)")


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
    # beyond the limit: streamed by DuckDB (issue 21), never materialised
    out = run("kappa", str(path), "--max-bytes", "10M")
    assert out.returncode == 0, out.stderr
    assert re.search(r"3,000,000 rows streamed by DuckDB, 1 rating pattern(?!s)", out.stdout)
    assert re.search(r"Subjects:\s+3,000,000", out.stdout)


def test_parquet_numbers_stored_as_text_are_read_as_a_csv_file_reads_them(tmp_path):
    # readings such as '12.3456789012' in a Parquet string column were 120 categories (a
    # nominal alpha of 0, and 'r0' set aside as an identifier); the CSV of the same table
    # is read as measurements, and so is the Parquet file now, with a note
    import json

    import numpy as np

    pytest.importorskip("pyarrow")
    rng = np.random.default_rng(2)
    truth = rng.normal(12, 3, 40)
    table = pd.DataFrame({"patient": [f"{i:03d}" for i in range(40)],
                          **{f"r{j}": [f"{v:.10f}" for v in truth + rng.normal(0, 1, 40)]
                             for j in range(3)}})
    table.loc[5, "r1"] = None
    table.to_parquet(tmp_path / "text.parquet")
    table.to_csv(tmp_path / "text.csv", index=False)
    reports = []
    for name in ("text.parquet", "text.csv"):
        code, out, err = cli("report", str(tmp_path / name), "--id", "patient",
                             "--format", "json", "--n-resamples", "200")
        assert code == 0, err
        assert err == ""
        reports.append(json.loads(out))
    parquet, csv = reports
    assert parquet["data"]["scale_type"] == "continuous"
    assert parquet["data"]["raters"] == ["r0", "r1", "r2"]
    assert parquet["results"] == csv["results"]
    assert ("Column(s) 'patient', 'r0', 'r1', 'r2' hold numbers stored as text; they are "
            "read as numbers, as in a CSV file.") in parquet["notes"]


def test_a_parquet_list_column_is_refused_by_name_in_memory_and_streamed(tmp_path):
    # a list column beside a patient id raised "unhashable type: 'numpy.ndarray'" from the
    # column rule; in memory and streamed by DuckDB (a directory), with the rule or --id
    pytest.importorskip("pyarrow")
    pytest.importorskip("duckdb")
    table = pd.DataFrame({"patient": range(101, 131), "tags": [[1, 2], [3]] * 15,
                          "r1": [1, 2, 3] * 10, "r2": [1, 2, 2] * 10})
    table.to_parquet(tmp_path / "tags.parquet")
    (tmp_path / "parts").mkdir()
    table.to_parquet(tmp_path / "parts" / "part-0.parquet")
    for path, options, held in [
            ("tags.parquet", [], r"'tags' holds arrays \(\[array\(\[1, 2\]\), array\(\[3\]\)"),
            ("tags.parquet", ["--raters", "tags", "r1"], r"'tags' holds arrays"),
            ("tags.parquet", ["--id", "patient"], r"'tags' holds arrays"),
            ("parts", [], r"'tags' holds arrays \(\[array\(\[1, 2\]\)"),
            ("parts", ["--id", "patient"], r"'tags' \(BIGINT\[\]\) holds lists or structs")]:
        code, out, err = cli("kappa", str(tmp_path / path), *options)
        assert (code, out) == (1, ""), err
        assert re.search(r"^irr: error: " + held + r".*, but every value must be a single label "
                         r"or number, not a collection\. Unnest or explode them first", err), err
        assert "unhashable" not in err
    # the rule's refusal names the options that leave the column out
    assert "name the rating columns with --raters or this column with --id" in cli(
        "kappa", str(tmp_path / "tags.parquet"))[2]
    code, out, err = cli("kappa", str(tmp_path / "tags.parquet"), "--id", "patient,tags")
    assert code == 0, err
    assert "Subjects:" in out


def test_a_list_column_written_to_csv_is_refused_by_name(tmp_path):
    # pandas writes a list column as text "['copd', 'hf']"; beside text grades the rule kept
    # it as a rater, and kappa compared it with reader_1 (13 categories, kappa 0)
    grades = ["none", "mild", "moderate", "severe"] * 6
    table = pd.DataFrame({"patient_id": [f"P{i:03d}" for i in range(24)],
                          "comorbidities": [["copd", "hf"], [], ["ckd"]] * 8,
                          "reader_1": grades, "reader_2": grades[1:] + grades[:1]})
    table.to_csv(tmp_path / "readings.csv", index=False)
    code, out, err = cli("kappa", str(tmp_path / "readings.csv"))
    assert (code, out) == (1, "")
    assert err == ("irr: error: 'comorbidities' holds lists written as text ([\"['copd', 'hf']\", "
                   "'[]', \"['ckd']\"]), but every value must be a single label or number, not a "
                   "collection. Read them as lists (ast.literal_eval) and explode them first (one "
                   "row per value: DataFrame.explode), or leave the column out of the ratings; if "
                   "they are labels, declare them with --categories.\n")
    code, out, err = cli("kappa", str(tmp_path / "readings.csv"), "--raters", "reader_1",
                         "reader_2")
    assert code == 0, err
    assert "Agreement between reader_1 and reader_2" in out


# -- B9: hints on reading ----------------------------------------------------------------------
def test_semicolon_file_is_read_as_such_with_a_note(tmp_path):
    path = tmp_path / "excel.csv"
    path.write_text("r1;r2\n1;2\n2;2\n1;1\n")
    out = run("kappa", str(path), "--format", "csv")
    assert out.returncode == 0, out.stderr
    table = pd.read_csv(__import__("io").StringIO(out.stdout)).set_index("coefficient")
    kappa = irr.Agreement([1, 2, 1], [2, 2, 1]).kappa().estimate
    assert table.loc["Cohen's kappa", "estimate"] == pytest.approx(kappa, abs=1e-12)
    notes = run("kappa", str(path)).stdout
    assert "The header holds ';' and no ',': the file was read as semicolon-separated" in notes


def test_pipe_separated_file_gets_a_delimiter_hint(tmp_path):
    path = tmp_path / "export.csv"
    path.write_text("r1|r2\n1|2\n2|2\n1|1\n")
    out = run("kappa", str(path))
    assert out.returncode == 1
    assert out.stderr.strip() == (
        f"irr: error: cannot read {str(path)!r}: one column only, and its header 'r1|r2' "
        "holds '|': pass --delimiter '|'")


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


# -- B8: a bounded number of resamples --------------------------------------------------------
@pytest.mark.parametrize("count", ["1000000000000", "300000000", "1e12"])
def test_cli_refuses_absurd_resample_counts_at_once(csv_file, count):
    out = run("kappa", str(csv_file), "--ci", "percentile", "--n-resamples", count)
    assert out.returncode == 2
    assert out.stderr.strip().splitlines()[-1] == (
        f"irr kappa: error: argument --n-resamples: must be at most 1000000 (MAX_RESAMPLES); "
        f"got {int(float(count))}.")


def test_cli_accepts_resamples_in_e_notation(csv_file):
    import json
    out = run("kappa", str(csv_file), "--ci", "percentile", "--n-resamples", "1e3",
              "--weights", "unweighted", "--format", "json")
    assert out.returncode == 0, out.stderr
    result = json.loads(out.stdout)["results"][0]
    assert result["n_resamples"] == 1000
    expected = irr.Agreement(RATINGS["r1"], RATINGS["r2"]).kappa(
        ci="percentile", n_resamples=1000, rng=0)  # the CLI's default seed is 0
    assert result["ci_low"] == pytest.approx(expected.ci.low, abs=1e-12)


def test_the_maximum_itself_is_allowed():
    from irr.inference.bootstrap import MAX_RESAMPLES, check_n_resamples
    assert check_n_resamples(MAX_RESAMPLES) == 10**6
    # a 2 x 2 table's kappa over a million resamples: batched, so quick and small
    result = irr.Agreement([1, 2, 1, 2, 1, 2], [1, 2, 2, 2, 1, 1]).kappa(
        ci="percentile", n_resamples=MAX_RESAMPLES, rng=0)
    assert result.bootstrap.n_resamples == 10**6


# -- C10: irr.by does not take other threads' warnings -----------------------------------------
def test_by_leaves_other_threads_warnings_alone(monkeypatch):
    import threading
    import warnings
    kappa = irr.Agreement.kappa

    @functools.wraps(kappa)  # by() reads the method's signature
    def kappa_while_another_thread_warns(self, *args, **kwargs):
        # another thread of the program warns while by() computes a group
        other = threading.Thread(target=warnings.warn, args=("from another thread",
                                                              irr.DegenerateDataWarning))
        other.start()
        other.join()
        return kappa(self, *args, **kwargs)

    monkeypatch.setattr(irr.Agreement, "kappa", kappa_while_another_thread_warns)
    frame = pd.DataFrame({"site": ["a"] * 4 + ["b"] * 4, "r1": [1, 2, 1, 2, 1, 2, 2, 1],
                          "r2": [1, 2, 2, 2, 1, 2, 1, 1]})
    # with warnings.catch_warnings(record=True) inside by(), the other thread's warning
    # was recorded as a reason of this table and never reached the program
    with pytest.warns(irr.DegenerateDataWarning, match="from another thread"):
        out = irr.by(frame, "site", raters=["r1", "r2"])
    assert out["reason"].isna().all()
    # group a: p_o = 3/4, p_e = 1/2 (margins 2/4 each): kappa = (3/4 - 1/2) / (1/2) = 1/2
    assert out.loc[0, "estimate"] == pytest.approx(0.5, abs=1e-15)


# -- B9: one-line errors and exit statuses, declarable scales -----------------------------------
@pytest.mark.parametrize(("error", "status", "message"), [
    (KeyboardInterrupt, 130, "irr: interrupted"),
    (MemoryError, 1, "irr: error: out of memory; the data (or --n-resamples) are too large "
                     "for this machine"),
])
def test_interrupt_and_memory_error_are_one_line(csv_file, tmp_path, monkeypatch, error,
                                                 status, message):
    def fail(*args, **kwargs):
        raise error

    monkeypatch.setattr(irr.cli, "_render", fail)
    out = run("kappa", str(csv_file), "-o", str(tmp_path / "out.txt"))
    assert out.returncode == status
    assert out.stderr == message + "\n"
    assert sorted(p.name for p in tmp_path.iterdir()) == ["ratings.csv"]  # no temporary left


def test_categories_with_decimal_points_match_numeric_ratings(tmp_path):
    import json
    path = tmp_path / "scores.csv"
    path.write_text("a,b\n1.0,2.0\n2.0,2.0\n3.0,1.0\n1.0,1.0\n")
    out = run("kappa", str(path), "--categories", "1.0", "2", "3", "4", "--weights",
              "unweighted", "--format", "json")
    assert out.returncode == 0, out.stderr
    payload = json.loads(out.stdout)
    # p_o = 2/4; margins a (2, 1, 1, 0), b (2, 2, 0, 0): p_e = 6/16; kappa = (1/2 - 3/8) / (5/8)
    assert payload["results"][0]["estimate"] == pytest.approx(0.2, abs=1e-15)
    assert "4" in payload["info"]["Categories"]


def test_boolean_columns_take_declared_categories(tmp_path):
    import json
    path = tmp_path / "yes-no.csv"
    path.write_text("a,b\nTrue,False\nFalse,False\nTrue,True\nTrue,False\n")
    out = run("kappa", str(path), "--categories", "false", "TRUE", "--weights", "unweighted",
              "--format", "json")
    assert out.returncode == 0, out.stderr
    # p_o = 2/4; margins a (1, 3), b (3, 1): p_e = 6/16; kappa = (1/2 - 3/8) / (5/8) = 0.2
    assert json.loads(out.stdout)["results"][0]["estimate"] == pytest.approx(0.2, abs=1e-15)
    out = run("kappa", str(path), "--categories", "yes", "no")
    assert out.stderr.strip() == (
        "irr: error: --categories must be True and False for true/false ratings; got "
        "['yes', 'no']")


# -- semicolon-separated files with decimal commas (a spreadsheet's CSV in many locales) ------
SEMICOLON = ("patient;dr_a;dr_b\np1;3,5;3,6\np2;4,1;4,0\np3;2,2;2,9\np4;5,0;4,8\n"
             "p5;3,3;3,1\np6;1,5;1,9\n")


def test_a_semicolon_file_with_decimal_commas_is_read_as_its_numbers(tmp_path):
    path = tmp_path / "bp.csv"
    path.write_text(SEMICOLON, encoding="utf-8")
    dotted = tmp_path / "bp_dots.csv"
    dotted.write_text(SEMICOLON.replace(",", ".").replace(";", ","), encoding="utf-8")
    code, out, err = cli("agreement", str(path), "--format", "json")
    assert code == 0, err
    code_dots, out_dots, _ = cli("agreement", str(dotted), "--format", "json")
    assert code_dots == 0
    ours, theirs = json.loads(out), json.loads(out_dots)
    # the same numbers as the file written with dots and commas
    assert [r["estimate"] for r in ours["results"]] == [r["estimate"] for r in theirs["results"]]
    notes = " ".join(ours["notes"])
    assert "read as semicolon-separated (--delimiter ';')" in notes
    assert "Column(s) 'dr_a', 'dr_b' hold numbers with a decimal comma" in notes


def test_a_semicolon_file_of_labels_keeps_its_labels(tmp_path):
    # text that is not numbers with a decimal comma stays categories
    path = tmp_path / "labels.csv"
    path.write_text("a;b\nyes;no\nno,maybe;no\nyes;yes\n", encoding="utf-8")
    code, out, err = cli("kappa", str(path), "--format", "json")
    assert code == 0, err
    assert "decimal comma" not in out
    assert "'no,maybe'" in out or "no,maybe" in out


# -- reading: one read of a regular file, its bytes handed to pandas as they are ----------
@pytest.mark.parametrize("size", [0, 1, 5000, (1 << 20) + 17, 3 * (1 << 20)])
def test_a_regular_file_is_read_whole(tmp_path, size):
    data = os.urandom(size)
    path = tmp_path / "data.bin"
    path.write_bytes(data)
    assert irr.cli._read_file(str(path), size + 10, "'data.bin'") == data
    assert irr.cli._read_file(str(path), size, "'data.bin'") == data  # the limit itself
    if size:
        with pytest.raises(irr.cli.CommandError, match="input limit"):
            irr.cli._read_file(str(path), size - 1, "'data.bin'")


def test_a_file_read_in_one_read_still_stops_at_the_limit(tmp_path, monkeypatch):
    """A file that grows after its size was read is read on, within the limit."""
    path = tmp_path / "growing.csv"
    path.write_bytes(b"r1,r2\n1,2\n")
    read = os.read
    grown = []

    def growing_read(handle, n):
        if not grown:  # the file grows between fstat and the first read
            grown.append(True)
            with open(path, "ab") as f:
                f.write(b"2,2\n" * 100)
        return read(handle, n)

    monkeypatch.setattr(irr.cli.os, "read", growing_read)
    assert irr.cli._read_file(str(path), 10**6, "'growing.csv'") == path.read_bytes()
    grown.clear()
    path.write_bytes(b"r1,r2\n1,2\n")
    with pytest.raises(irr.cli.CommandError, match="input limit"):
        irr.cli._read_file(str(path), 100, "'growing.csv'")


@pytest.mark.parametrize(("encoding", "bom"), [
    ("utf-8", b""), ("utf-8", b"\xef\xbb\xbf"), ("utf-8", b"\xef\xbb\xbf" * 2),
    ("utf-16", b""), ("utf-32", b""), ("latin-1", b""), ("cp1252", b""), ("cp037", b"")])
def test_decode_says_when_the_bytes_are_the_texts_utf8(encoding, bom):
    text = "rater ä,rater b\nMüller,Ünal\n1,2\n"
    raw = bom + text.encode(encoding)
    decoded, utf8 = irr.cli._decode(raw, encoding, "'x'")
    assert decoded.lstrip("\ufeff") == text.lstrip("\ufeff")
    assert utf8 == (encoding == "utf-8" and not bom)
    if utf8:
        assert decoded.encode("utf-8") == raw


@pytest.mark.parametrize("lead", ["", "\n", ",\n , \n"])
@pytest.mark.parametrize(("encoding", "bom"), [
    ("utf-8", b""), ("utf-8", b"\xef\xbb\xbf"), ("utf-16", b""), ("latin-1", b"")])
def test_a_file_reads_the_same_in_every_encoding(tmp_path, encoding, bom, lead):
    """The output of `irr kappa FILE` depends on the text, not on its encoding, its
    byte-order mark, or whether pandas got the file's bytes or the text encoded again."""
    table = ("coder é,coder ü\n" + "".join(f"{a},{b}\n" for a, b in (
        ("sí", "sí"), ("no", "sí"), ("no", "no"), ("sí", "sí"), ("ñ", "no"), ("ñ", "ñ"))))
    reference = tmp_path / "reference.csv"
    reference.write_bytes(table.encode("utf-8"))
    path = tmp_path / "ratings.csv"
    path.write_bytes(bom + (lead + table).encode(encoding))
    code, want, _ = cli("kappa", str(reference), "--format", "json")
    assert code == 0
    code, got, err = cli("kappa", str(path), "--format", "json", "--encoding", encoding)
    assert code == 0, err
    got, want = json.loads(got), json.loads(want)
    assert got["results"] == want["results"]
    assert len(got["results"]) == 2  # percent agreement and kappa of the labels
    assert [n for n in got["notes"] if not n.startswith("Skipped")] == want["notes"]


def test_missing_values_are_counted_in_the_columns_that_can_hold_them():
    """The count of missing ratings skips numpy integer and boolean columns (which hold
    none) and equals pandas' count of every column (its previous form)."""
    np = __import__("numpy")
    rng = np.random.default_rng(0)
    for _ in range(30):
        n = int(rng.integers(1, 50))
        columns = {
            "i": rng.integers(0, 5, n), "b": rng.random(n) < 0.5,
            "f": np.where(rng.random(n) < 0.3, np.nan, rng.random(n)),
            "o": pd.Series(rng.choice(["a", None, "b"], n), dtype=object),
            "I": pd.array(np.where(rng.random(n) < 0.3, None, 1), dtype="Int64"),
            "s": pd.Series(rng.choice(["x", None], n), dtype="str"),
        }
        chosen = list(rng.permutation(list(columns))[:int(rng.integers(1, 6))])
        frame = pd.DataFrame({c: columns[c] for c in chosen})
        assert irr.cli._missing_values(frame) == int(frame.isna().to_numpy().sum())


# -- Parquet streamed by DuckDB, read as numpy ---------------------------------------------
def _streamed_cases():
    """Parquet tables of each kind of rating column, and the arguments of a command on
    them (streamed: beyond --max-bytes)."""
    import numpy as np
    rng = np.random.default_rng(7)
    n = 400
    a = rng.integers(1, 6, n)
    b = np.clip(a + rng.integers(-1, 2, n), 1, 5)
    c = np.clip(a + rng.integers(-2, 2, n), 1, 5)
    missing = rng.random((3, n)) < 0.08

    def nullable(values, row):
        return [None if m else v for v, m in zip(values.tolist(), missing[row], strict=True)]

    labels = np.array(["none", "mild", "moderate", "severe", "extreme"])
    halves = (a / 2).tolist()
    halves[:3] = [float("nan")] * 3  # nan is missing too, as a null is
    tables = {
        "int8": {"a": ("int8", a), "b": ("int8", b)},
        "int64_nulls": {"r1": ("int64", nullable(a, 0)), "r2": ("int64", nullable(b, 1)),
                        "r3": ("int64", c)},
        "unsigned": {"a": ("uint8", a), "b": ("uint16", b), "c": ("int32", c)},
        "bool": {"p": ("bool", a > 2), "q": ("bool", b > 2)},
        "bool_nulls": {"p": ("bool", nullable(a > 2, 0)), "q": ("bool", b > 2)},
        "halves": {"u": ("float64", [None if m else h for h, m in zip(
            halves, missing[0], strict=True)]), "v": ("float64", b / 2)},
        "whole_floats": {"u": ("float64", nullable(a.astype(float), 0)),
                         "v": ("float64", b.astype(float))},
        "strings": {"x": ("string", nullable(labels[a - 1], 0)), "y": ("string", labels[b - 1])},
        "id": {"patient": ("int64", np.arange(n) + 1000), "r1": ("int64", a),
               "r2": ("int64", b), "r3": ("int64", c)},
    }
    return tables, [
        ("int8", ["kappa"]), ("int8", ["kappa", "--weights", "linear"]),
        ("int8", ["kappa", "--categories", "1,2,3,4,5,6"]),
        ("int8", ["kappa", "--categories", "5,4,3,2,1"]),
        ("int8", ["kappa", "--categories", "1,2,3"]),  # labels outside: the same error
        ("int8", ["kappa", "--ci", "percentile", "--n-resamples", "50", "--seed", "3"]),
        ("int64_nulls", ["kappa", "--raters", "r1", "r3"]),
        ("int64_nulls", ["multi"]), ("int64_nulls", ["multi", "--missing", "listwise"]),
        ("int64_nulls", ["multi", "--ci", "percentile", "--n-resamples", "50", "--seed", "3"]),
        ("unsigned", ["multi", "--weights", "quadratic"]),
        ("bool", ["kappa"]), ("bool", ["kappa", "--categories", "true,false"]),
        ("bool_nulls", ["kappa"]), ("bool_nulls", ["kappa", "--categories", "true,false"]),
        ("halves", ["kappa"]), ("halves", ["kappa", "--categories", "0.5,1,1.5,2,2.5"]),
        ("whole_floats", ["kappa", "--categories", "1,2,3,4,5"]),
        ("strings", ["kappa"]), ("strings", ["kappa", "--categories", "none,mild,moderate"]),
        ("id", ["kappa", "--id", "patient"]), ("id", ["multi"]), ("id", ["report"]),
    ]


_TABLES, _CASES = _streamed_cases()


@pytest.mark.parametrize(("table", "arguments"), _CASES,
                         ids=[f"{t}-{' '.join(a)}" for t, a in _CASES])
def test_streamed_numpy_patterns_give_the_output_of_the_pandas_patterns(
        tmp_path, monkeypatch, table, arguments):
    # the rating patterns DuckDB counts, read as numpy (Agreement.from_patterns), give the
    # bytes they gave read as pandas by Arrow (the route of other column types)
    pa = pytest.importorskip("pyarrow")
    pq = pytest.importorskip("pyarrow.parquet")
    pytest.importorskip("duckdb")
    path = tmp_path / f"{table}.parquet"
    pq.write_table(pa.table({name: pa.array(values, type=kind) for name, (kind, values)
                             in _TABLES[table].items()}), path)
    read = []
    numpy_patterns = irr.cli.relation_patterns

    def counted(*args):
        read.append(args[1])
        return numpy_patterns(*args)

    monkeypatch.setattr(irr.cli, "relation_patterns", counted)
    for fmt in ("text", "json", "markdown"):
        command = [arguments[0], str(path), *arguments[1:], "--max-bytes", "1K",
                   "--format", fmt]
        numpy_out = run(*command)
        with monkeypatch.context() as patched:
            patched.setattr(irr.cli, "numpy_relation", lambda frame: False)
            pandas_out = run(*command)
        assert (numpy_out.returncode, numpy_out.stdout, numpy_out.stderr) == (
            pandas_out.returncode, pandas_out.stdout, pandas_out.stderr), fmt
        assert "streamed by DuckDB" in numpy_out.stdout or numpy_out.returncode
    assert bool(read) == (arguments[0] != "report")  # report may find measurements: pandas


def test_streamed_long_data_keep_their_route(tmp_path):
    pytest.importorskip("duckdb")
    frame = pd.DataFrame({"subject": [1, 1, 2, 2, 3, 3, 4, 4] * 20, "rater": ["x", "y"] * 80,
                          "grade": [1, 1, 2, 2, 1, 2, 3, 3] * 20})
    frame["subject"] += frame.index // 8 * 4  # 80 subjects
    path = tmp_path / "long.parquet"
    frame.to_parquet(path)
    out = run("kappa", str(path), "--subject", "subject", "--rater", "rater", "--rating",
              "grade", "--max-bytes", "1K", "--format", "json")
    assert out.returncode == 0, out.stderr
    expected = irr.Agreement([1, 2, 1, 3] * 20, [1, 2, 2, 3] * 20).kappa().estimate
    assert json.loads(out.stdout)["results"][1]["estimate"] == pytest.approx(expected)


# what the command does: no module of irr imports pandas when imported, none reads its
# lazily imported pandas (`pd` of irr._lazy) while it runs, and neither pandas nor
# pyarrow is imported
_NO_PANDAS_RUN = """
import io, json, sys, types, contextlib
import irr.cli
from irr._lazy import LazyModule
def irr_modules():
    return {name: m for name, m in list(sys.modules.items()) if name.split(".")[0] == "irr"}
eager = sorted(name for name, m in irr_modules().items()
               if isinstance(getattr(m, "pd", None), types.ModuleType))
before = set(sys.modules)
with contextlib.redirect_stdout(io.StringIO()) as out:
    code = irr.cli.main(sys.argv[1:])
print(json.dumps({
    "code": code, "read": "rows streamed by DuckDB" in out.getvalue(), "eager": eager,
    "read_pandas": sorted(name for name, m in irr_modules().items()
                          if isinstance(getattr(m, "pd", None), LazyModule)
                          and "not imported yet" not in repr(m.pd)),
    "imported": sorted(n for n in set(sys.modules) - before
                       if n.split(".")[0] in ("pandas", "pyarrow")),
    "pandas": "pandas" in sys.modules, "pyarrow": "pyarrow" in sys.modules}))
"""


@pytest.mark.parametrize("arguments", [["kappa"], ["kappa", "--raters", "a", "b"],
                                       ["multi", "--raters", "a", "b", "--categories", "0,1,2,3,4,5"]])
def test_streamed_kappa_never_asks_pandas(tmp_path, arguments):
    # the whole process (a subprocess: this one has imported pandas)
    import subprocess
    import sys

    import numpy as np
    pytest.importorskip("duckdb")
    pa = pytest.importorskip("pyarrow")
    pq = pytest.importorskip("pyarrow.parquet")
    a = np.arange(1000) % 5
    path = tmp_path / "big.parquet"
    pq.write_table(pa.table({"a": a.astype(np.int8), "b": ((a * 3) % 5).astype(np.int8)}),
                   path)
    root = os.path.dirname(os.path.dirname(irr.__file__))
    done = subprocess.run(
        [sys.executable, "-c", _NO_PANDAS_RUN, arguments[0], str(path), *arguments[1:],
         "--max-bytes", "1K"],
        capture_output=True, text=True, cwd=root, check=False,
        env={**os.environ, "PYTHONPATH": root})
    assert done.returncode == 0, done.stderr
    facts = json.loads(done.stdout)
    assert facts["code"] in (0, None)
    assert facts["read"]
    assert facts["read_pandas"] == []
    assert facts["imported"] == []
    assert facts["eager"] == []
    assert not facts["pandas"]
    assert not facts["pyarrow"]


@pytest.mark.parametrize(("name", "what", "convert"), [
    ("ratings.json", "JSON", "pandas.read_json(path).to_csv('ratings.csv', index=False) in "
                             "Python"),
    ("ratings.XLSX", "Excel", "pandas.read_excel(path).to_csv('ratings.csv', index=False) in "
                              "Python"),
    ("ratings.dta", "Stata", "pandas.read_stata(path).to_csv('ratings.csv', index=False) in "
                             "Python"),
    ("ratings.rds", "R", "write.csv() in R")])
def test_files_of_other_formats_are_refused_by_name_not_parsed_as_csv(tmp_path, name, what,
                                                                      convert):
    # a JSON file was parsed as CSV ("line 3 has 2 fields, the header has 1"); the file is
    # not read at all, and the message names its format and how to convert it
    path = tmp_path / name
    RATINGS.to_json(path, orient="records")
    out = run("kappa", str(path))
    assert out.returncode == 1
    assert out.stderr.strip() == (
        f"irr: error: cannot read {str(path)!r}: irr reads CSV, TSV and Parquet files, not "
        f"{what}; write it as CSV first ({convert}), or pass it to irr.Agreement.from_frame "
        "as a DataFrame")
