"""Issue 15, files and output: the command line writes only regular files, exclusively,
reads within a size limit; every renderer escapes what the data name; results pickle."""

import os
import re
import stat

import pandas as pd
import pytest

import irr
import irr.cli
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


# -- A3: every renderer escapes what the data name ----------------------------------------------
HOSTILE = ["<script>alert(1)</script>", "a|b", "50%_&"]
HOSTILE_FRAME = pd.DataFrame(dict(zip(HOSTILE, [[1, 2, 1, 2, 1, 3, 2, 1],
                                               [1, 2, 2, 2, 1, 3, 2, 1],
                                               [1, 2, 1, 1, 1, 3, 2, 2]], strict=True)))


def hostile_summaries():
    import warnings
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        ag = irr.Agreement.from_frame(HOSTILE_FRAME)
        two = irr.Agreement.from_frame(HOSTILE_FRAME, raters=HOSTILE[:2])
        return {
            "result": ag.fleiss_kappa().summary(),
            "agreement": ag.summary(),
            "compare": irr.compare(two.kappa(), ag.fleiss_kappa(), title="<b>t</b> 50%_&"),
            "error rate family": ag.error_rate_test(0.5, reference=HOSTILE[0]).summary(),
            "accessor": HOSTILE_FRAME.irr.summary(),
        }


@pytest.mark.parametrize("name", ["result", "agreement", "compare", "error rate family",
                                  "accessor"])
def test_html_escapes_rater_names_and_titles(name):
    summary = hostile_summaries()[name]
    for html in (summary.as_html(), summary._repr_html_()):
        assert "<script>" not in html
        assert "<b>" not in html
        assert "&lt;script&gt;alert(1)&lt;/script&gt;" in html
        assert "50%_&amp;" in html
        assert "a|b" in html


@pytest.mark.parametrize("name", ["result", "agreement", "compare", "error rate family",
                                  "accessor"])
def test_latex_escapes_rater_names_and_titles(name):
    latex = hostile_summaries()[name].as_latex()
    escaped = r"\textless{}script\textgreater{}alert(1)\textless{}/script\textgreater{}"
    assert escaped in latex
    assert "<script>" not in latex
    assert r"a\textbar{}b" in latex
    assert r"50\%\_\&" in latex
    # every unescaped & is a column separator: 50%_& must not add a column
    import re
    for line in latex.splitlines():
        if line.rstrip().endswith("\\\\"):
            assert len(re.split(r"(?<!\\)&", line)) in (3, 4, 7, 8, 9)  # 8: a CI method column


def test_result_repr_html_escapes():
    result = irr.Agreement.from_frame(HOSTILE_FRAME, raters=HOSTILE[:2]).kappa()
    assert "<script>" not in result._repr_html_()
    assert "&lt;script&gt;" in result._repr_html_()


@pytest.fixture
def hostile_csv(tmp_path):
    path = tmp_path / "hostile.csv"
    HOSTILE_FRAME.to_csv(path, index=False)
    return path


def test_cli_html_escapes(hostile_csv):
    out = run("multi", str(hostile_csv), "--format", "html")
    assert out.returncode == 0, out.stderr
    assert "<script>" not in out.stdout
    assert "&lt;script&gt;alert(1)&lt;/script&gt;" in out.stdout


def test_cli_markdown_escapes(hostile_csv):
    out = run("report", str(hostile_csv), "--format", "markdown")
    assert out.returncode == 0, out.stderr
    assert "<script>" not in out.stdout
    assert r"\<script\>alert(1)\</script\>" in out.stdout
    assert r"a\|b" in out.stdout
    assert r"50%\_&" in out.stdout
    # each table keeps its header's columns in every row: a|b adds no cell
    tables, block = [], []
    for line in [*out.stdout.splitlines(), ""]:
        if line.startswith("|"):
            block.append(len(__import__("re").split(r"(?<!\\)\|", line)))
        elif block:
            tables.append(block)
            block = []
    assert len(tables) == 2  # the results and the GRRAS checklist
    assert all(len(set(counts)) == 1 for counts in tables)


def test_cli_latex_escapes(hostile_csv):
    out = run("report", str(hostile_csv), "--format", "latex")
    assert out.returncode == 0, out.stderr
    assert "<script>" not in out.stdout
    assert r"\textless{}script\textgreater{}" in out.stdout
    assert r"50\%\_\&" in out.stdout


def test_escapers_on_every_special_character():
    from irr.summary import escape_latex, escape_markdown
    assert escape_latex("&%$#_{}~^\\<>|\n") == (
        r"\&\%\$\#\_\{\}\textasciitilde{}\textasciicircum{}\textbackslash{}\textless{}"
        r"\textgreater{}\textbar{} ")
    assert escape_markdown("a|b `c` *d* _e_ [f](g) <h>\ni") == (
        r"a\|b \`c\` \*d\* \_e\_ \[f\](g) \<h\> i")


# -- C10: results pickle ----------------------------------------------------------------------
ANXIETY = irr.datasets.load("anxiety")
BOOT = {"ci": "percentile", "n_resamples": 200, "rng": 1}


def _anxiety(raters=None):
    return irr.Agreement.from_frame(ANXIETY, raters=raters)


PICKLED = {
    "kappa": lambda: _anxiety(["rater1", "rater2"]).kappa(**BOOT),
    "weighted kappa": lambda: _anxiety(["rater1", "rater2"]).kappa("quadratic", **BOOT),
    "percent agreement": lambda: _anxiety().percent_agreement(**BOOT),
    "percent agreement of two": lambda: _anxiety(["rater1", "rater2"]).percent_agreement(**BOOT),
    "alpha": lambda: _anxiety().krippendorff_alpha("interval", **BOOT),
    "fleiss": lambda: _anxiety().fleiss_kappa(**BOOT),
    "conger": lambda: _anxiety().conger_kappa(**BOOT),
    "light": lambda: _anxiety().light_kappa(**BOOT),
    "gwet": lambda: _anxiety().gwet_ac(**BOOT),
    "brennan-prediger": lambda: _anxiety().brennan_prediger(**BOOT),
    "kendall": lambda: _anxiety().kendall_w(**BOOT),
    "auc": lambda: irr.ordinal.roc_auc_result([0, 0, 1, 1, 0, 1, 1, 0], [1, 2, 3, 4, 2, 3, 1, 2],
                                              **BOOT),
}


@pytest.mark.parametrize("name", list(PICKLED))
def test_bootstrapped_results_pickle_and_keep_every_interval(name):
    import pickle
    import warnings
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        result = PICKLED[name]()
        copy = pickle.loads(pickle.dumps(result))
        # the same replicates, so the same numbers for every method (BCa needs the
        # jackknife, materialised when its closure cannot be pickled)
        for method in ("percentile", "basic", "bca"):
            assert copy.conf_int(0.9, method) == result.conf_int(0.9, method)
    assert copy.estimate == result.estimate
    assert copy.ci == result.ci
    assert copy.bootstrap.se == result.bootstrap.se


@pytest.mark.parametrize("make", [
    lambda: _anxiety().icc(),
    lambda: _anxiety(["rater1", "rater2"]).error_rate_test(0.5),
    lambda: _anxiety().error_rate_test(0.5, reference="rater1"),
    lambda: _anxiety(["rater1", "rater2"]).symmetry_test(),
    lambda: _anxiety(["rater1", "rater2"]).kappa(),
], ids=["icc", "error rate", "error rate family", "symmetry", "wald kappa"])
def test_every_result_and_its_summary_pickle(make):
    import pickle
    result = make()
    copy = pickle.loads(pickle.dumps(result))
    assert copy.summary().as_text() == result.summary().as_text()
    summary = pickle.loads(pickle.dumps(result.summary()))
    assert summary.as_html() == result.summary().as_html()


def test_an_undrawn_bootstrap_is_drawn_after_unpickling():
    import pickle
    result = _anxiety(["rater1", "rater2"]).kappa(n_resamples=300)
    copy = pickle.loads(pickle.dumps(result))
    # the Wald interval needs no bootstrap: kappa's own numbers
    assert copy.conf_int(0.9) == result.conf_int(0.9)
    # the recipe pickles (tests/unit/test_results_pickle.py): the same seed, the same interval
    assert copy.conf_int(method="percentile") == result.conf_int(method="percentile")


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
