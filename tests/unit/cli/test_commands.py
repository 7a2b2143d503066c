"""The `irr` command.

Most tests run ``irr.cli.main`` in this process through `run`, which reproduces what a
subprocess sees (stdin, stdout, stderr, exit status, working directory, program name,
default warning filters); a handful run ``python -m irr.cli`` as a real subprocess through
`run_subprocess`, like a user would: the entry point, a real stdin pipe, the interpreter's
exit status and traceback, and byte-for-byte equality with the in-process runner.
"""

import contextlib
import io
import json
import os
import subprocess
import sys
import traceback
import warnings

import pandas as pd
import pytest

import irr
from irr.cli import main

HAS_PYARROW = True
try:
    import pyarrow  # noqa: F401
except ImportError:
    HAS_PYARROW = False


RATINGS = pd.DataFrame({"r1": [1, 2, 3, 3, 2, 1, 4, 4], "r2": [1, 2, 3, 2, 2, 1, 4, 3],
                        "x": 0})


ROOT = os.path.dirname(os.path.dirname(os.path.abspath(irr.__file__)))


def run_subprocess(*args, stdin=None, cwd=None):
    """``python -m irr.cli ARGS`` in a new interpreter (slow: use for end-to-end tests only)."""
    path = [p for p in (ROOT, os.environ.get("PYTHONPATH")) if p]
    env = {**os.environ, "PYTHONPATH": os.pathsep.join(path)}
    return subprocess.run(
        [sys.executable, "-m", "irr.cli", *args],
        capture_output=True,
        text=isinstance(stdin, str) or stdin is None,
        input=stdin,
        check=False,
        cwd=cwd,
        env=env,
    )


def _default_warning_filters():
    """The warning filters of a fresh ``python -m irr.cli`` (no -W, no PYTHONWARNINGS), in
    place of pytest's filterwarnings=error: a warning prints ``irr: warning: ...``, as for
    a user. Run as ``-m``, the CLI module is ``__main__``, so its DeprecationWarnings show."""
    warnings.resetwarnings()
    warnings.filterwarnings("default", category=DeprecationWarning,
                            module=r"(__main__|irr\.cli)\Z", append=True)
    for category in (DeprecationWarning, PendingDeprecationWarning, ImportWarning,
                     ResourceWarning):
        warnings.filterwarnings("ignore", category=category, append=True)


def _captured(stream, binary):
    data = stream.buffer.getvalue()
    if binary:
        return data
    # what subprocess.run(text=True) does with the bytes of a pipe
    return data.decode("utf-8").replace("\r\n", "\n").replace("\r", "\n")


def run(*args, stdin=None, cwd=None):
    """``irr ARGS`` in this process: a `subprocess.CompletedProcess` like `run_subprocess`.

    `stdin` is str or bytes (None: empty, like /dev/null); as with subprocess.run, stdout
    and stderr are str, or bytes when `stdin` is bytes. SystemExit (argparse usage errors,
    --help, --version) becomes the return code and an uncaught exception prints its
    traceback with status 1, as the interpreter does. sys.stdin, sys.argv, the working
    directory and the warnings module (filters and showwarning) are restored afterwards.
    """
    binary = isinstance(stdin, (bytes, bytearray))
    raw = bytes(stdin) if binary else (stdin or "").encode("utf-8")
    fake_stdin = io.TextIOWrapper(io.BytesIO(raw), encoding="utf-8")
    # TextIOWrappers rather than StringIO: sys.stdout.buffer / sys.stderr.buffer exist too.
    fake_stdout = io.TextIOWrapper(io.BytesIO(), encoding="utf-8", write_through=True)
    fake_stderr = io.TextIOWrapper(io.BytesIO(), encoding="utf-8", errors="backslashreplace",
                                   write_through=True)
    saved_stdin, saved_argv, saved_cwd = sys.stdin, sys.argv, os.getcwd()
    try:
        sys.stdin = fake_stdin
        sys.argv = ["irr", *args]  # argparse's default prog is os.path.basename(sys.argv[0])
        if cwd is not None:
            os.chdir(cwd)
        with (contextlib.redirect_stdout(fake_stdout), contextlib.redirect_stderr(fake_stderr),
              warnings.catch_warnings()):
            _default_warning_filters()
            try:
                sys.exit(main(list(args)))  # as `if __name__ == "__main__"` in irr/cli.py
            except SystemExit as exc:
                if exc.code is None or isinstance(exc.code, int):
                    returncode = exc.code or 0
                else:  # sys.exit("message"): the interpreter prints it, status 1
                    print(exc.code, file=sys.stderr)
                    returncode = 1
            except Exception:
                traceback.print_exc()
                returncode = 1
    finally:
        sys.stdin, sys.argv = saved_stdin, saved_argv
        os.chdir(saved_cwd)
    return subprocess.CompletedProcess(["irr", *args], returncode,
                                       _captured(fake_stdout, binary),
                                       _captured(fake_stderr, binary))


def expected_kappa(weights=None, categories=None):
    ag = irr.Agreement(RATINGS["r1"], RATINGS["r2"], categories=categories)
    return ag.kappa(weights).estimate


@pytest.fixture
def csv_file(tmp_path):
    path = tmp_path / "ratings.csv"
    RATINGS.to_csv(path, index=False)
    return path


# -- inputs ------------------------------------------------------------------------------
def test_kappa_on_a_bundled_dataset_prints_the_summary():
    out = run("kappa", "--dataset", "vision")
    assert out.returncode == 0, out.stderr
    assert "Agreement between r.eye and l.eye" in out.stdout
    assert "Cohen's kappa                  0.5954" in out.stdout
    assert "Weighted kappa (quadratic)     0.7023" in out.stdout


def test_kappa_on_a_csv_file_with_weights_and_categories(csv_file):
    out = run("kappa", str(csv_file), "--raters", "r1", "r2", "--weights", "linear",
              "--categories", "1", "2", "3", "4", "5")
    assert out.returncode == 0, out.stderr
    assert "Weighted kappa (linear)" in out.stdout
    assert f"{expected_kappa('linear', [1, 2, 3, 4, 5]):.4f}" in out.stdout
    assert csv_file.read_text().startswith("r1,r2,x")  # the input is untouched


def test_categories_as_one_comma_list(tmp_path):
    # "--categories none,mild,severe" was read as one label 'none,mild,severe' and refused
    # every rating; it is the scale of three, like the space-separated form
    path = tmp_path / "grades.csv"
    pd.DataFrame({"a": ["none", "mild", "severe", "mild", "none", "severe"] * 4,
                  "b": ["none", "severe", "severe", "mild", "mild", "severe"] * 4}
                 ).to_csv(path, index=False)
    spaced = run("kappa", str(path), "--weights", "quadratic", "--format", "json",
                 "--categories", "none", "mild", "severe")
    commas = run("kappa", str(path), "--weights", "quadratic", "--format", "json",
                 "--categories", "none,mild,severe")
    assert commas.returncode == 0, commas.stderr
    assert json.loads(commas.stdout) == json.loads(spaced.stdout)
    # the order is the declared one: scores 0, 1, 2 for none, mild, severe (scikit-learn)
    metrics = pytest.importorskip("sklearn.metrics")
    score = {"none": 0, "mild": 1, "severe": 2}
    a = [score[x] for x in ["none", "mild", "severe", "mild", "none", "severe"] * 4]
    b = [score[x] for x in ["none", "severe", "severe", "mild", "mild", "severe"] * 4]
    qwk = metrics.cohen_kappa_score(a, b, weights="quadratic")
    assert f"{qwk:.4f}" in run("kappa", str(path), "--weights", "quadratic",
                               "--categories", "none,mild,severe").stdout


def test_long_data_of_three_raters_take_two_with_raters(tmp_path):
    # `irr kappa long.csv --subject --rater --rating` on 3 raters had no way out: --raters
    # was refused for long data. It names two labels of the --rater column, as in
    # `irr agreement`, and gives the kappa of the same two raters' wide columns
    wide = pd.DataFrame({"id": range(12), "r1": [1, 2, 3, 1, 2, 3, 1, 2, 3, 1, 2, 3],
                         "r2": [1, 2, 3, 1, 3, 3, 1, 2, 2, 1, 2, 3],
                         "r3": [2, 2, 3, 1, 2, 1, 1, 3, 3, 1, 2, 3]})
    long = wide.melt(id_vars="id", var_name="reader", value_name="grade")
    path = tmp_path / "long.csv"
    long.to_csv(path, index=False)
    three = run("kappa", str(path), "--subject", "id", "--rater", "reader", "--rating", "grade")
    assert three.returncode == 1
    assert "the long data have 3 (r1, r2, r3): choose 2 with --raters" in three.stderr
    two = run("kappa", str(path), "--subject", "id", "--rater", "reader", "--rating", "grade",
              "--raters", "r1", "r3", "--format", "json")
    assert two.returncode == 0, two.stderr
    metrics = pytest.importorskip("sklearn.metrics")
    kappa = metrics.cohen_kappa_score(wide["r1"], wide["r3"])
    estimates = {r["coefficient"]: r["estimate"] for r in json.loads(two.stdout)["results"]}
    assert estimates["Cohen's kappa"] == pytest.approx(kappa, rel=1e-12)
    unknown = run("kappa", str(path), "--subject", "id", "--rater", "reader", "--rating",
                  "grade", "--raters", "r1", "r9")
    assert unknown.returncode == 1
    assert "unknown rater(s) ['r9']" in unknown.stderr


def test_tsv_by_suffix_and_by_sniffing_stdin(tmp_path):
    path = tmp_path / "ratings.tsv"
    RATINGS.to_csv(path, sep="\t", index=False)
    by_suffix = run("kappa", str(path), "--format", "json")
    assert by_suffix.returncode == 0, by_suffix.stderr
    estimates = [r["estimate"] for r in json.loads(by_suffix.stdout)["results"]]
    assert estimates[1] == pytest.approx(expected_kappa())
    piped = run("kappa", "-", "--format", "json", stdin=path.read_text())
    assert json.loads(piped.stdout) == json.loads(by_suffix.stdout)


def test_kappa_reads_stdin():
    # end to end: a real pipe on the stdin of a real process
    out = run_subprocess("kappa", "-", stdin="a,b\nx,x\ny,y\nx,y\ny,y\n")
    assert out.returncode == 0, out.stderr
    assert "Cohen's kappa" in out.stdout


def test_long_format(tmp_path):
    long = RATINGS.reset_index().melt(id_vars="index", value_vars=["r1", "r2"],
                                      var_name="who", value_name="grade")
    path = tmp_path / "long.csv"
    long.to_csv(path, index=False)
    out = run("kappa", str(path), "--subject", "index", "--rater", "who", "--rating", "grade",
              "--weights", "unweighted", "--format", "csv")
    assert out.returncode == 0, out.stderr
    frame = pd.read_csv(io.StringIO(out.stdout))
    assert frame["estimate"].iloc[0] == pytest.approx(expected_kappa())


@pytest.mark.skipif(not HAS_PYARROW, reason="pyarrow is not installed")
def test_parquet(tmp_path):
    path = tmp_path / "ratings.parquet"
    RATINGS.to_parquet(path)
    out = run("kappa", str(path), "--weights", "quadratic", "--format", "json")
    assert out.returncode == 0, out.stderr
    assert json.loads(out.stdout)["results"][0]["estimate"] == pytest.approx(
        expected_kappa("quadratic"))


def test_parquet_without_pyarrow_is_a_clear_error(tmp_path, monkeypatch):
    # Hide pyarrow (`import pyarrow` raises ImportError), so this runs whether or not it is
    # installed.
    monkeypatch.setitem(sys.modules, "pyarrow", None)
    path = tmp_path / "ratings.parquet"
    path.write_bytes(b"PAR1")
    out = run("kappa", str(path))
    assert out.returncode == 1
    assert out.stderr.strip() == (
        f"irr: error: cannot read {str(path)!r}: reading Parquet needs pyarrow "
        "(pip install pyarrow)"
    )


# -- formats -----------------------------------------------------------------------------
def test_every_format_parses_back(csv_file):
    outputs = {fmt: run("kappa", str(csv_file), "--format", fmt) for fmt in
               ("text", "markdown", "html", "latex", "csv", "json")}
    for fmt, out in outputs.items():
        assert out.returncode == 0, (fmt, out.stderr)
    payload = json.loads(outputs["json"].stdout)
    assert [r["coefficient"] for r in payload["results"]] == [
        "Percent agreement", "Cohen's kappa", "Weighted kappa (linear)",
        "Weighted kappa (quadratic)"]
    assert payload["results"][3]["estimate"] == pytest.approx(expected_kappa("quadratic"))
    frame = pd.read_csv(io.StringIO(outputs["csv"].stdout))
    assert list(frame.columns[:3]) == ["coefficient", "estimate", "se"]
    assert frame["estimate"].iloc[1] == pytest.approx(expected_kappa())
    latex = outputs["latex"].stdout
    assert latex.count("\\begin{tabular}") == latex.count("\\end{tabular}") >= 2
    assert "Fleiss, Cohen \\& Everitt" in latex
    html = outputs["html"].stdout
    assert "<table" in html
    assert html.count("<table") == html.count("</table>")
    lines = outputs["markdown"].stdout.splitlines()
    header = next(i for i, line in enumerate(lines) if line.startswith("| Statistic"))
    assert set(lines[header + 1].replace("|", "").split()) == {"---", "---:"}
    assert "Cohen's kappa" in outputs["text"].stdout


def test_json_has_no_nan_tokens(csv_file):
    out = run("kappa", str(csv_file), "--format", "json")
    assert "NaN" not in out.stdout
    assert json.loads(out.stdout)["results"][0]["statistic"] is None


def test_bootstrap_options_are_reproducible(csv_file):
    args = ("kappa", str(csv_file), "--weights", "quadratic", "--ci", "bca",
            "--n-resamples", "499", "--seed", "3", "--confidence-level", "0.9",
            "--format", "json")
    first, second = run(*args), run(*args)
    assert first.returncode == 0, first.stderr
    row = json.loads(first.stdout)["results"][0]
    assert row["ci_method"] == "bca"
    assert row["confidence_level"] == 0.9
    assert row["n_resamples"] == 499
    assert first.stdout == second.stdout


def test_scale_option_changes_the_band(csv_file):
    out = run("kappa", str(csv_file), "--weights", "unweighted", "--scale", "fleiss",
              "--format", "json")
    assert out.returncode == 0, out.stderr
    band = json.loads(out.stdout)["results"][0]["band"]
    assert band == irr.interpret(expected_kappa(), "fleiss").label


def test_datasets_lists_and_describes():
    listing = run("datasets")
    assert listing.returncode == 0, listing.stderr
    for name in irr.datasets.names():
        assert name in listing.stdout
    described = run("datasets", "vision", "--format", "json")
    fields = {row["field"]: row["value"] for row in json.loads(described.stdout)}
    assert fields["subjects"] == 7477
    assert "Stuart" in fields["citation"]


def test_datasets_count_raters_not_identifiers_and_read_as_text():
    listing = run("datasets").stdout.splitlines()
    pef = next(line for line in listing if line.startswith("pef "))
    assert pef.split()[1:3] == ["17", "4"]  # subject is an identifier, not a fifth rater
    header = next(line for line in listing if "description" in line)
    assert header.index("description") == pef.index("Peak expiratory")  # text aligned left
    assert all(line == line.rstrip() for line in listing)
    described = run("datasets", "pef").stdout.splitlines()
    assert "raters:            wright_1, wright_2, mini_1, mini_2" in described
    assert "identifiers:       subject" in described
    assert max(map(len, described)) <= 100  # fields wrapped
    fields = {row["field"]: row["value"]
              for row in json.loads(run("datasets", "pef", "--format", "json").stdout)}
    assert fields["raters"] == "wright_1, wright_2, mini_1, mini_2"
    assert fields["identifiers"] == "subject"


def test_report_on_two_raters_gives_sentences():
    out = run("report", "--dataset", "vision")
    assert out.returncode == 0, out.stderr
    assert ("Agreement between r.eye and l.eye was substantial (Landis & Koch, 1977), "
            "Cohen's κw (quadratic weights) = .70, 95% CI [.69, .72] (Wald), n = 7,477."
            ) in out.stdout


def test_report_on_many_raters_shows_multirater_coefficients_and_icc():
    # end to end, and the in-process runner gives the same bytes (seeded: Krippendorff's
    # alpha has a bootstrap SE)
    args = ("report", "--dataset", "anxiety", "--format", "json", "--seed", "1",
            "--statistics", "all")
    out = run_subprocess(*args)
    assert out.returncode == 0, out.stderr
    names = [r["coefficient"] for r in json.loads(out.stdout)["results"]]
    assert any("Fleiss" in n for n in names)
    assert any("Krippendorff" in n for n in names)
    assert any("ICC" in n for n in names)
    same = run(*args)
    assert (same.returncode, same.stdout, same.stderr) == (out.returncode, out.stdout, out.stderr)


def test_multi_on_diagnoses():
    out = run("multi", "--dataset", "diagnoses", "--format", "csv")
    assert out.returncode == 0, out.stderr
    frame = pd.read_csv(io.StringIO(out.stdout)).set_index("coefficient")
    fleiss = irr.Agreement.from_frame(irr.datasets.load("diagnoses")).fleiss_kappa()
    assert frame.loc[fleiss.coefficient, "estimate"] == pytest.approx(fleiss.estimate)


def test_icc_one_form():
    out = run("icc", "--dataset", "anxiety", "--model", "twoway", "--type", "agreement",
              "--unit", "single", "--format", "json")
    assert out.returncode == 0, out.stderr
    expected = irr.Agreement.from_frame(irr.datasets.load("anxiety")).icc()
    assert json.loads(out.stdout)["results"][0]["estimate"] == pytest.approx(expected.estimate)


def test_error_rate(csv_file):
    out = run("error-rate", str(csv_file), "--epsilon0", "0.5", "--format", "json")
    assert out.returncode == 0, out.stderr
    assert json.loads(out.stdout)["results"][0]["estimate"] == pytest.approx(2 / 8)


# -- output files ------------------------------------------------------------------------
def test_output_file_is_written_and_protected(csv_file, tmp_path):
    target = tmp_path / "out.json"
    first = run("kappa", str(csv_file), "--format", "json", "--output", str(target))
    assert first.returncode == 0, first.stderr
    assert first.stdout == ""
    assert json.loads(target.read_text())["title"].startswith("Agreement between r1 and r2")
    again = run("kappa", str(csv_file), "--format", "csv", "--output", str(target))
    assert again.returncode == 1
    assert again.stderr.strip() == (
        f"irr: error: --output {str(target)!r} exists; pass --force to overwrite it")
    assert target.read_text().startswith("{")
    forced = run("kappa", str(csv_file), "--format", "csv", "--output", str(target), "--force")
    assert forced.returncode == 0, forced.stderr
    assert target.read_text().startswith("coefficient,")
    assert sorted(p.name for p in tmp_path.iterdir()) == ["out.json", "ratings.csv"]


def test_input_file_is_never_overwritten_even_via_another_path(csv_file, tmp_path):
    original = csv_file.read_text()
    (tmp_path / "sub").mkdir()
    sneaky = os.path.join("sub", "..", "ratings.csv")
    out = run("kappa", "ratings.csv", "--output", sneaky, "--force", cwd=tmp_path)
    assert out.returncode == 1
    assert out.stderr.strip() == (
        "irr: error: refusing to overwrite the input file 'ratings.csv' with --output")
    assert csv_file.read_text() == original


def test_error_leaves_no_partial_output(tmp_path):
    bad = tmp_path / "bad.csv"
    bad.write_text("a,b\n1,2\n3\n")
    target = tmp_path / "out.txt"
    out = run("kappa", str(bad), "--output", str(target))
    assert out.returncode == 1
    assert not target.exists()
    assert sorted(p.name for p in tmp_path.iterdir()) == ["bad.csv"]


# -- errors ------------------------------------------------------------------------------
MALFORMED = [
    (b"a,b\n1,2\n3\n", "line 3 has 1 fields, the header has 2"),
    (b"a,b\n1,2\n3,4,5\n", "line 3 has 3 fields, the header has 2"),
    (b"\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR", "binary data, not a CSV/TSV text file"),
    (b"a,b\n\xe9t\xe9,1\n", "not valid utf-8 text (byte 4); pass --encoding"),
    (b"a,b\n", "a header but no data rows"),
    (b"", "the file is empty"),
]


@pytest.mark.parametrize(("content", "message"), MALFORMED)
def test_malformed_csv_is_a_one_line_error(tmp_path, content, message):
    path = tmp_path / "bad.csv"
    path.write_bytes(content)
    out = run("kappa", str(path))
    assert out.returncode == 1
    assert out.stdout == ""
    assert out.stderr == f"irr: error: cannot read {str(path)!r}: {message}\n"


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (("kappa", "/no/such/file.csv"), "irr: error: cannot read '/no/such/file.csv': no such file"),
        (("kappa", "--dataset", "vision", "--raters", "a", "b"),
         "irr: error: unknown column(s) ['a', 'b']; the columns are ['r.eye', 'l.eye']"),
        (("kappa", "--dataset", "nope"), "irr: error: Unknown data set 'nope'"),
        (("kappa",), "irr: error: no input: give a FILE ('-' for stdin) or --dataset NAME"),
        (("kappa", "--dataset", "vision", "--confidence-level", "1.5"),
         "irr: error: --confidence-level must be in (0, 1); got 1.5."),
        (("kappa", "--dataset", "vision", "--scale", "astrology"), "irr: error: "),
        (("report", "--dataset", "vision", "--subject", "r.eye"),
         "irr: error: long format needs all of --subject, --rater and --rating"),
        (("datasets", "nope"), "irr: error: Unknown data set 'nope'"),
    ],
)
def test_errors_are_one_line_with_exit_status_1(args, message):
    out = run(*args)
    assert out.returncode == 1
    assert out.stdout == ""
    assert out.stderr.startswith(message)
    assert len(out.stderr.strip().splitlines()) == 1
    assert "Traceback" not in out.stderr


def test_header_spaces_are_stripped_with_a_note_and_unknown_names_get_near_matches(tmp_path):
    path = tmp_path / "ratings.csv"
    path.write_text("patient,Dr Jones ,Dr Smith\n1,2,2\n2,3,3\n3,1,2\n4,2,2\n5,3,1\n"
                    "6,1,1\n")
    out = run("kappa", str(path), "--raters", "Dr Jones", "Dr Smith")
    assert out.returncode == 0, out.stderr
    assert "Agreement between Dr Jones and Dr Smith" in out.stdout
    assert "Dr Jones ," not in out.stdout
    assert "Dr Jones  " not in out.stdout
    assert "Spaces around the column name(s) 'Dr Jones ' were removed: 'Dr Jones'." in \
        " ".join(out.stdout.split())
    out = run("kappa", str(path), "--raters", "Dr Jone", "dr smith")
    assert out.returncode == 1
    assert out.stderr.strip().endswith(
        "(for 'Dr Jone' did you mean 'Dr Jones'?; for 'dr smith' did you mean 'Dr Smith'?)")
    long = tmp_path / "long.csv"
    long.write_text("subject,rater,rating\n1,cuff,1\n1,wrist,2\n2,cuff,2\n2,wrist,2\n")
    out = run("kappa", str(long), "--subject", "subject", "--rater", "rater", "--rating",
              "rating", "--raters", "cuf", "wrist")
    assert out.returncode == 1
    assert "did you mean 'cuff'?" in out.stderr


def test_error_end_to_end_is_one_line_with_exit_status_1():
    out = run_subprocess("kappa", "/no/such/file.csv")
    assert out.returncode == 1
    assert out.stdout == ""
    assert out.stderr == "irr: error: cannot read '/no/such/file.csv': no such file\n"
    same = run("kappa", "/no/such/file.csv")
    assert (same.returncode, same.stdout, same.stderr) == (out.returncode, out.stdout, out.stderr)


def test_debug_shows_the_traceback():
    # end to end: the interpreter prints the traceback and exits 1
    out = run_subprocess("kappa", "--dataset", "nope", "--debug")
    assert out.returncode == 1
    assert "Traceback" in out.stderr


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (("kappa", "--dataset", "vision", "--weights", "cubic"), "invalid choice: 'cubic'"),
        (("kappa", "--dataset", "vision", "--format", "xml"), "invalid choice: 'xml'"),
        (("kappa", "--dataset", "vision", "--n-resamples", "many"),
         "--n-resamples: must be an integer; got 'many'"),
        (("frobnicate",), "invalid choice: 'frobnicate'"),
        (("error-rate", "--dataset", "vision"), "the following arguments are required: --epsilon0"),
    ],
)
def test_usage_errors_exit_2(args, message):
    out = run(*args)
    assert out.returncode == 2
    assert message in out.stderr


def test_version_end_to_end():
    out = run_subprocess("--version")
    assert out.returncode == 0, out.stderr
    assert out.stdout == f"irr {irr.__version__}\n"
    assert out.stderr == ""
    same = run("--version")
    assert (same.returncode, same.stdout, same.stderr) == (out.returncode, out.stdout, out.stderr)


def test_in_process_runner_restores_global_state(tmp_path):
    before = (sys.stdin, sys.stdout, sys.stderr, sys.argv, os.getcwd(),
              warnings.showwarning, list(warnings.filters))
    assert run("kappa", "-", stdin="a,b\nx,x\ny,y\n", cwd=tmp_path).returncode in (0, 1)
    assert run("kappa", "--dataset", "nope", "--debug").returncode == 1
    assert run("kappa", "--weights", "cubic").returncode == 2
    assert (sys.stdin, sys.stdout, sys.stderr, sys.argv, os.getcwd(),
            warnings.showwarning, list(warnings.filters)) == before


def test_main_in_process(capsys):
    from irr.cli import main

    assert main(["kappa", "--dataset", "vision", "--weights", "quadratic"]) == 0
    assert "0.7023" in capsys.readouterr().out


# -- a run builds the parser of its own subcommand only ------------------------------------

def _subparser(parser, name):
    import argparse

    action = next(a for a in parser._actions if isinstance(a, argparse._SubParsersAction))
    return action.choices[name]


@pytest.mark.parametrize("name", ["kappa", "multi", "icc", "error-rate", "report",
                                  "agreement", "gstudy", "plan", "datasets", "app"])
def test_parser_of_one_subcommand_is_the_full_parsers(name):
    from irr.cli import _parser

    full, one = _subparser(_parser(), name), _subparser(_parser(name), name)
    assert one.format_help() == full.format_help()
    assert [[*a.option_strings, a.dest, a.default] for a in one._actions] == [
        [*a.option_strings, a.dest, a.default] for a in full._actions]
    assert list(_subparser(_parser(name), name)._defaults) == list(full._defaults)


@pytest.mark.parametrize(("argv", "command"), [
    (["kappa", "x.csv"], "kappa"), (["--debug", "icc", "--dataset", "anxiety"], "icc"),
    (["plan", "kappa"], "plan"), (["-h"], None), ([], None), (["kapa"], None),
    (["--version"], None), (["app"], "app")])
def test_command_of_argv(argv, command):
    from irr.cli import _command_of

    assert _command_of(argv) == command


@pytest.mark.parametrize("argv", [["kapa"], ["kappa", "--bogus"], ["plan"], ["-h"]])
def test_usage_messages_are_those_of_the_full_parser(argv, capsys):
    from irr.cli import _command_of, _parser

    outputs = []
    for parser in (_parser(), _parser(_command_of(argv))):
        with pytest.raises(SystemExit):
            parser.parse_args(argv)
        outputs.append(capsys.readouterr())
    assert outputs[0] == outputs[1]
