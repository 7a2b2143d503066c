"""Issue 16, "Tables and machine output": summary cosmetics and the CLI in the user's words.

- ICC rows in one order everywhere: single then average measures, each as one-way
  (ICC(1)), two-way agreement (ICC(A)), two-way consistency (ICC(C)), i.e. Shrout &
  Fleiss' ICC(1,.), ICC(2,.), ICC(3,.);
- the interval method as one readable header fact, or a "CI method" column when rows
  differ (never "CI method: wald, wilson, percentile, ...");
- header, coefficient and bands tables one width in text output;
- on two categories, weighted kappas equal to Cohen's (and ordinal/interval alpha equal to
  nominal) are one row and one note;
- ``repr()`` of a summary (``irr.compare``, ``ag.summary()``) is its text table;
- no z / P>|z| (or std err) columns when no row has one;
- header counts a reader can tell apart: "Subjects used: 11 of 12 (listwise)",
  "Missing ratings: 1 in 1 subject";
- ``irr COMMAND --help``: a one-line summary, a description and examples; ``irr icc --help``
  maps the options to ICC(1,1)/(2,1)/(3,1) and ICC(1)/ICC(A,1)/ICC(C,1);
- CLI errors name flags (--categories), not Python arguments (`categories=`).
"""

import contextlib
import io
import re
import subprocess
import sys
from pathlib import Path

import numpy as np
import pandas as pd
import pytest

import irr
from irr.cli import FLAGS, cli_words, main
from irr.coefficients.icc import FORMS, shrout_fleiss_name
from irr.registry import PANELS
from tests.support.cli_runner import cli

DOCS = Path(__file__).resolve().parents[3] / "docs"
ROOT = Path(__file__).resolve().parents[3]
ICC_ORDER = ["ICC(1,1)", "ICC(2,1)", "ICC(3,1)", "ICC(1,3)", "ICC(2,3)", "ICC(3,3)"]

RATINGS = """\
patient,nurse_a,nurse_b,nurse_c
P01,mild,mild,moderate
P02,severe,severe,severe
P03,none,,none
P04,moderate,moderate,mild
P05,mild,mild,
P06,none,none,none
P07,severe,moderate,severe
P08,,mild,mild
P09,moderate,moderate,moderate
P10,mild,none,mild
P11,none,none,none
P12,severe,severe,moderate
"""

BINARY = """\
id,r1,r2
1,yes,yes
2,no,no
3,yes,no
4,no,no
5,yes,yes
6,yes,yes
7,no,yes
8,no,no
9,yes,yes
10,no,no
11,,yes
12,yes,yes
"""

SCORES = """\
subject,judge1,judge2,judge3
s1,4.5,5.0,4.0
s2,2.0,2.5,3.0
s3,7.5,,7.0
s4,6.0,6.5,5.5
s5,3.5,3.0,4.0
s6,8.0,8.5,9.0
s7,5.0,4.5,
s8,1.5,2.0,2.5
s9,6.5,7.0,6.0
s10,9.0,9.5,8.5
"""


@pytest.fixture
def files(tmp_path):
    paths = {}
    for name, text in (("ratings", RATINGS), ("binary", BINARY), ("scores", SCORES)):
        paths[name] = tmp_path / f"{name}.csv"
        paths[name].write_text(text)
    return paths


def ok(*args):
    code, out, err = cli(*map(str, args))
    assert code == 0, err
    return out


def stubs(text, names):
    """The row labels of the coefficient table of `text` among `names`, in order."""
    lines = text.splitlines()
    start = next(i for i, line in enumerate(lines) if line.startswith("---"))
    end = next(i for i in range(start, len(lines)) if lines[i].startswith("==="))
    found = [line.split("  ")[0] for line in lines[start + 1:end]]
    return [s for s in found if s in names]


def tables(text):
    """The lines of the tables of a text summary (title to the last rule)."""
    lines = text.split("\n\n")[0].splitlines()
    return lines


# -- 1. ICC order ------------------------------------------------------------------------
def test_icc_forms_are_in_one_order_everywhere(files):
    assert [shrout_fleiss_name(*form, 3) for form in FORMS] == ICC_ORDER
    assert [tuple(row.options.values()) for row in PANELS["icc"]] == list(FORMS)
    report_forms = [tuple(row.options.values()) for row in PANELS["report"]
                    if row.method == "icc"]
    assert report_forms == list(FORMS)
    ag = irr.Agreement.from_frame(pd.read_csv(files["scores"], index_col=0))
    assert list(ag.icc_table().index) == ICC_ORDER
    assert list(ag.icc_table()["mcgraw_wong"]) == ["ICC(1)", "ICC(A,1)", "ICC(C,1)",
                                                    "ICC(k)", "ICC(A,k)", "ICC(C,k)"]
    # the CLI: icc (text and JSON), report, and one unit
    assert stubs(ok("icc", files["scores"]), ICC_ORDER) == ICC_ORDER
    assert stubs(ok("report", files["scores"], "--statistics", "all"), ICC_ORDER) == ICC_ORDER
    assert stubs(ok("icc", files["scores"], "--unit", "average"), ICC_ORDER) == ICC_ORDER[3:]
    payload = ok("icc", files["scores"], "--format", "csv")
    assert re.findall(r"ICC\(\d,\d\)", payload) == ICC_ORDER
    # the help and the guide's table list the forms in the same order
    helptext = help_of("icc")
    assert [helptext.index(n) for n in ("ICC(1,1)", "ICC(2,1)", "ICC(3,1)", "ICC(1,k)",
                                        "ICC(2,k)", "ICC(3,k)")] == sorted(
        helptext.index(n) for n in ("ICC(1,1)", "ICC(2,1)", "ICC(3,1)", "ICC(1,k)",
                                    "ICC(2,k)", "ICC(3,k)"))
    guide = (DOCS / "guide" / "choosing.md").read_text()
    table = guide[guide.index("## The ICC model"):]
    assert table.index("| ICC(1) |") < table.index("| ICC(A,1) |") < table.index("| ICC(C,1) |")


# -- 2. the interval method --------------------------------------------------------------
def test_the_interval_method_is_a_readable_fact_or_a_column():
    ag = irr.Agreement.from_frame(irr.datasets.load("vision"))
    text = ag.summary().as_text()
    assert "CI method:" not in text  # rows differ: a column, not a list of codes
    assert "wald, wilson" not in text
    lines = text.splitlines()
    head = next(line for line in lines if line.lstrip().startswith("estimate"))
    assert head.split() == ["estimate", "std", "err", "z", "P>|z|", "[0.025", "0.975]", "CI",
                            "method"]
    assert next(line for line in lines if line.startswith("Percent agreement")).endswith(
        "0.698       0.718     Wilson")
    assert next(line for line in lines if line.startswith("Cohen's kappa")).endswith(
        "0.581       0.610       Wald")
    # one method: one header fact, in words
    one = ag.kappa().summary().as_text()
    assert re.search(r"CI method:\s+Wald\s", one)
    assert " CI method\n" not in one
    anxiety = irr.Agreement.from_frame(irr.datasets.load("anxiety"))
    alpha = anxiety.krippendorff_alpha(level="interval").summary().as_text()
    assert re.search(r"CI method:\s+percentile bootstrap\s", alpha)
    bca = anxiety.light_kappa(ci="bca", n_resamples=999)
    assert re.search(r"CI method:\s+BCa bootstrap\s", bca.summary().as_text())
    icc = anxiety.icc("twoway", "consistency", "single").summary().as_text()
    assert re.search(r"CI method:\s+exact F\s", icc)
    icc = anxiety.icc("twoway", "agreement", "single").summary().as_text()
    assert re.search(r"CI method:\s+approx\. F\s", icc)


def test_icc_rows_name_exact_and_approximate_f_intervals(files):
    text = ok("icc", files["scores"])
    ends = {line.split()[0]: line.rsplit("  ", 1)[1].strip() for line in text.splitlines()
            if line.startswith("ICC(") and "0." in line}
    assert ends == {"ICC(1,1)": "exact F", "ICC(2,1)": "approx. F", "ICC(3,1)": "exact F",
                    "ICC(1,3)": "exact F", "ICC(2,3)": "approx. F", "ICC(3,3)": "exact F"}


# -- 3. one width ------------------------------------------------------------------------
@pytest.mark.parametrize("name", ["anxiety", "diagnoses", "vision", "video"])
def test_header_coefficients_and_bands_are_one_width(name):
    ag = irr.Agreement.from_frame(irr.datasets.load(name))
    text = ag.summary().as_text()
    widths = {len(line) for line in tables(text)}
    assert len(widths) == 1, sorted(widths)
    assert text.count("\n" + "=" * widths.pop() + "\n") >= 3  # rules run the full width


def test_short_label_with_a_wide_header_is_one_width():
    # "Cohen's kappa" is shorter than the bands' 16-character stub, and the header of a
    # listwise two-rater result is wider than the table: every line was 82 or 84 wide
    a = ["none", "mild", "mild", None, "severe", "none", "mild", "severe"] * 5
    b = ["none", "mild", "none", "mild", "severe", None, "mild", "mild"] * 5
    text = irr.Agreement(a, b).kappa().summary().as_text()
    widths = {len(line) for line in tables(text)}
    assert len(widths) == 1, sorted(widths)


def test_cli_tables_are_one_width(files):
    for args in (("multi", files["ratings"]), ("kappa", files["binary"]),
                 ("icc", files["scores"]), ("report", files["scores"])):
        text = ok(*args)
        assert len({len(line) for line in tables(text)}) == 1, args
    # the row labels of the bands table end where the coefficients' do
    text = ok("multi", files["ratings"])
    lines = tables(text)
    fleiss = [line for line in lines if line.startswith("Fleiss' kappa")]
    # the longest label, "Percent agreement (all raters)", is 30 characters; a space follows
    assert fleiss[0][:31] == fleiss[1][:31] == "Fleiss' kappa".ljust(31)
    assert fleiss[1][31:].startswith("substantial")


# -- 4. two categories -------------------------------------------------------------------
def test_weighted_kappa_rows_equal_to_cohens_are_one_row_on_binary_data(files):
    frame = pd.read_csv(files["binary"], index_col=0).replace({"yes": 1, "no": 0})
    ag = irr.Agreement.from_frame(frame)
    assert ag.kappa(weights="linear").estimate == pytest.approx(ag.kappa().estimate, abs=1e-15)
    text = ag.summary().as_text()
    assert "Weighted kappa" not in tables(text)[0] + "".join(tables(text))
    assert ("Weighted kappa (linear) and Weighted kappa (quadratic): not shown; with two "
            "categories linear and quadratic weights coincide with unweighted, so they equal "
            "Cohen's kappa exactly.") in text
    assert "Linear agreement weights" not in text  # the notes of rows not shown
    # three categories: three rows
    vision = irr.Agreement.from_frame(irr.datasets.load("vision")).summary().as_text()
    assert stubs(vision, ["Cohen's kappa", "Weighted kappa (linear)",
                          "Weighted kappa (quadratic)"]) == [
        "Cohen's kappa", "Weighted kappa (linear)", "Weighted kappa (quadratic)"]
    assert "not shown" not in vision
    # rows a user labels are kept
    both = irr.compare(ag.kappa(), ag.kappa(weights="linear"), labels=["kappa", "linear"])
    assert stubs(both.as_text(), ["kappa", "linear"]) == ["kappa", "linear"]


def test_alpha_levels_equal_to_nominal_are_one_row_on_binary_data(tmp_path):
    path = tmp_path / "bin.csv"
    path.write_text("a,b\n0,0\n1,1\n0,1\n1,1\n0,0\n1,0\n1,1\n")
    text = ok("report", path, "--statistics", "all")
    assert stubs(text, ["Krippendorff's alpha (nominal)", "Krippendorff's alpha (ordinal)",
                        "Krippendorff's alpha (interval)"]) == ["Krippendorff's alpha (nominal)"]
    assert ("Krippendorff's alpha (ordinal) and Krippendorff's alpha (interval): not shown; "
            "with two categories alpha's ordinal and interval distances coincide with the "
            "nominal one, so they equal Krippendorff's alpha (nominal) exactly.") in text
    # Gwet's AC1 and Brennan-Prediger are different coefficients, whatever their values
    assert "Brennan-Prediger: not shown" not in text
    assert stubs(text, ["Gwet's AC1", "Brennan-Prediger"]) == ["Gwet's AC1", "Brennan-Prediger"]


# -- 5. repr -----------------------------------------------------------------------------
def test_a_summary_shows_as_its_table_in_a_repl():
    ag = irr.Agreement.from_frame(irr.datasets.load("vision"))
    table = irr.compare(ag.kappa(), ag.percent_agreement())
    assert repr(table) == str(table) == table.as_text()
    assert repr(table).startswith(" " * 20)
    assert "Comparison of agreement coefficients" in repr(table).splitlines()[0]
    assert "<class" not in repr(table)
    summary = ag.summary()
    assert repr(summary) == summary.as_text()
    assert repr(summary).splitlines()[0].strip() == "Agreement between r.eye and l.eye"
    assert repr(ag.kappa().summary()).splitlines()[0].strip() == "Cohen's kappa"


# -- 6. no empty test columns ------------------------------------------------------------
def test_no_test_columns_without_a_test():
    ag = irr.Agreement.from_frame(irr.datasets.load("anxiety"))
    text = irr.compare(ag.percent_agreement(),
                       ag.percent_agreement(tolerance=1)).as_text()
    head = next(line for line in text.splitlines() if line.lstrip().startswith("estimate"))
    assert head.split() == ["estimate", "std", "err", "[0.025", "0.975]"]
    assert "P>|z|" not in text
    # ICCs have F tests and no standard error
    icc = irr.compare(ag.icc("oneway", "agreement", "single"),
                      ag.icc("twoway", "consistency", "single")).as_text()
    head = next(line for line in icc.splitlines() if line.lstrip().startswith("estimate"))
    assert head.split() == ["estimate", "F", "p-value", "[0.025", "0.975]"]


# -- 7. header counts --------------------------------------------------------------------
def test_header_counts_say_which_subjects_and_ratings(files):
    text = ok("kappa", files["binary"])
    assert re.search(r"\nSubjects used:\s+11 of 12 \(listwise\)\s", text)
    assert re.search(r"\nMissing ratings:\s+1 in 1 subject\s", text)
    assert "1 subject(s) with a missing rating were left out (listwise)." in text
    for old in ("Missing (dropped)", "With missing ratings"):
        assert old not in text
    multi = ok("multi", files["ratings"])
    assert re.search(r"\nSubjects:\s+12\s", multi)
    assert re.search(r"\nMissing ratings:\s+3 in 3 subjects\s", multi)
    assert "Percent agreement (all raters): 9 of 12 subjects used (listwise)." in multi
    # the Python summary counts the same
    frame = pd.read_csv(files["ratings"], index_col=0)
    text = irr.Agreement.from_frame(frame).summary().as_text()
    assert re.search(r"\nMissing ratings:\s+3 in 3 subjects\s", text)
    assert irr.summary.subjects_fact(13, 7) == ("Subjects used:", "13 of 20 (listwise)")
    assert irr.summary.subjects_fact(19, 1, listwise=False) == ("Subjects used:", "19 of 20")
    # alpha leaves out only units with fewer than two ratings: not "listwise"
    x = np.array([[1, 2, 2], [1, np.nan, np.nan], [2, 2, np.nan], [3, 3, 3], [1, 1, 2]])
    alpha = irr.Agreement.from_array(x).krippendorff_alpha().summary().as_text()
    assert re.search(r"\nSubjects used:\s+4 of 5\s", alpha)
    # alone, a result knows its incomplete subjects, not how many ratings are missing
    assert re.search(r"Subjects missing a rating:\s+2\s", alpha)
    assert "Missing ratings:" not in alpha
    a = ["none", "mild", "mild", None, "severe", "none", "mild", "severe"] * 5
    b = ["none", "mild", "none", "mild", "severe", None, "mild", "mild"] * 5
    kappa = irr.Agreement(a, b).kappa().summary().as_text()
    assert re.search(r"\nSubjects missing a rating:\s+10\s", kappa)
    assert " in 10 subjects" not in kappa


# -- 8. CLI help -------------------------------------------------------------------------
def help_of(*command):
    out = io.StringIO()
    with contextlib.redirect_stdout(out), pytest.raises(SystemExit) as stop:
        main([*command, "--help"])
    assert stop.value.code == 0
    return out.getvalue()


def test_max_bytes_help_says_files_are_streamed_not_refused():
    # `irr kappa parts/ --max-bytes 1000` streams the files through DuckDB: the help must
    # not promise a refusal, except for stdin
    text = " ".join(help_of("kappa").split())
    assert "Larger CSV, TSV and Parquet files (and directories of Parquet files) are " \
           "streamed through DuckDB instead of loaded; larger input on stdin is refused" in text
    assert "refuse larger text input" not in text


COMMANDS = ["kappa", "multi", "icc", "error-rate", "report", "agreement", "datasets"]
PLAN_TARGETS = ["kappa", "kappa-interval", "icc", "icc-interval", "limits", "ccc", "error-rate"]


def test_irr_icc_help_maps_the_options_to_the_icc_names():
    text = help_of("icc")
    for line in (
        "  one-way random, single rater           ICC(1,1)          ICC(1)",
        "  two-way, absolute agreement, single    ICC(2,1)          ICC(A,1)",
        "  two-way, consistency, single           ICC(3,1)          ICC(C,1)",
        "  one-way random, average of k raters    ICC(1,k)          ICC(k)",
        "  two-way, absolute agreement, average   ICC(2,k)          ICC(A,k)",
        "  two-way, consistency, average          ICC(3,k)          ICC(C,k)",
    ):
        assert line + "\n" in text
    flat = " ".join(text.split())
    assert "--model {oneway,twoway} oneway: ICC(1,.); twoway: ICC(2,.) or ICC(3,.) by --type" in flat
    assert "agreement: ICC(2,.) = ICC(A,.); consistency: ICC(3,.) = ICC(C,.) (two-way only)" in flat
    assert "single: ICC(.,1), one rater's score; average: ICC(.,k), the mean of the k raters" in flat


@pytest.mark.parametrize("command", COMMANDS)
def test_every_command_has_a_summary_a_description_and_examples(command):
    top = help_of()
    summary = re.search(rf"\n    {re.escape(command)}\s+(\S.*)\n", top)
    assert summary is not None, top
    assert len(summary.group(1)) > 10
    text = help_of(command)
    description = text.split("\n\n")[1]
    assert not description.startswith(("positional", "options"))
    assert len(description) > 40
    examples = text.split("examples:\n", 1)[1].splitlines()
    assert any(line.startswith("  irr ") for line in examples)


def test_the_bundled_data_examples_of_the_help_run():
    ran = 0
    for command in COMMANDS:
        for line in help_of(command).split("examples:\n", 1)[1].splitlines():
            words = line.split()
            if words[:2] == ["irr", "datasets"] or (words[:1] == ["irr"] and "--dataset" in words):
                args = [w for w in words[1:] if not w.startswith("--output")]
                if "--output" in words:  # to stdout instead of a file
                    args = [w for w in args if w != "reliability.md"]
                cut = next((i for i, w in enumerate(args) if w[0].isupper() or w == "all"),
                           len(args))
                ok(*args[:cut])
                ran += 1
    assert ran >= 6


# -- 8. CLI errors name flags ------------------------------------------------------------
@pytest.mark.parametrize(
    ("args", "message"),
    [
        (("kappa", "{xy}", "--categories", "x", "x", "y"),
         "--categories contains duplicates: ['x']."),
        (("kappa", "{xy}", "--weights", "linear"),
         "--weights linear needs ordered categories with scores, but these labels have no "
         "order (unordered strings would be ordered alphabetically, a silent trap). Pass "
         "--categories in scale order."),
        (("kappa", "{xy}", "--confidence-level", "95"),
         "--confidence-level must be in (0, 1); got 95.0."),
        (("kappa", "{xy}", "--ci", "bca", "--n-resamples", "20"),
         "--n-resamples must be at least 40 for a 95% bootstrap interval"),
        (("kappa", "{xy}", "--ci", "bca", "--seed", "-1"), "--seed must be non-negative; got -1."),
        (("icc", "{xy}"),
         "The ICC needs numeric or ordered ratings (category scores); the categories "
         "['x', 'y'] are unordered labels. Pass ordered categories with --categories or "
         "numeric ratings."),
        (("report", "{xy}", "--scale", "nope"),
         "--scale has unknown scale 'nope'; known: 'landis-koch'"),
        (("error-rate", "{xy}", "--epsilon0", "2"), "--epsilon0 must be in (0, 1); got 2.0."),
        (("error-rate", "{xy}", "--epsilon0", "0.1", "--alpha", "3"),
         "--alpha must be in (0, 1); got 3.0."),
        (("error-rate", "{xy}", "--epsilon0", "0.1", "--tolerance", "1"),
         "--tolerance must be 0 for unordered categories (got 1): the labels have no scores "
         "to measure |a - b|. Declare an order with --categories."),
        (("kappa", "{xy}", "--raters", "a", "a"), "--raters names a column twice: ['a', 'a']."),
        (("multi", "{xy}", "--raters", "a", "b", "--id", "a"),
         "--raters and --id share columns: ['a']."),
        (("kappa", "{typed}", "--categories", "a"),
         "'type' has labels outside --categories: ['b']; declared categories are ['a']."),
    ],
)
def test_cli_errors_name_flags_not_python_arguments(tmp_path, args, message):
    paths = {"xy": tmp_path / "xy.csv", "typed": tmp_path / "typed.csv"}
    paths["xy"].write_text("a,b\nx,y\nx,x\ny,y\n")
    paths["typed"].write_text("patient,type,rating\n1,a,b\n2,a,a\n3,b,b\n")
    code, out, err = cli(*(a.format(**paths) for a in args))
    assert code == 1
    assert out == ""
    assert err.startswith("irr: error: " + message), err
    assert "`" not in err


def test_cli_notes_name_flags(tmp_path):
    path = tmp_path / "xy.csv"
    path.write_text("a,b,c\nx,y,x\nx,x,x\ny,y,x\n")
    text = ok("multi", path, "--weights", "quadratic")
    assert ("fleiss_kappa not computed: --weights quadratic needs ordered categories") in text
    assert "`" not in text.split("\n\n", 1)[1].replace("`categories=`", "")


def test_cli_words():
    assert cli_words("Pass `categories=` in scale order, or use an ordered Categorical.") == (
        "Pass --categories in scale order.")
    assert cli_words("`weights='quadratic'` needs scores") == "--weights quadratic needs scores"
    assert cli_words("`level='ordinal'` needs ordered categories") == (
        "ordinal alpha needs ordered categories")
    assert cli_words("`n_resamples` must be") == "--n-resamples must be"
    assert cli_words("`rng` seed must be non-negative") == "--seed must be non-negative"
    assert cli_words("`rater1` has labels outside `categories`", {"rater1"}) == (
        "'rater1' has labels outside --categories")
    assert cli_words("`alpha` has labels", {"alpha"}) == "'alpha' has labels"
    assert cli_words("`estimate` with `se`") == "`estimate` with `se`"  # no flag: as it is
    helps = [help_of(c) for c in COMMANDS] + [help_of("plan", t) for t in PLAN_TARGETS]
    assert set(FLAGS.values()) <= {a for text in helps for a in re.findall(r"--[a-z0-9-]+", text)}


def test_t_quantiles_are_said_once():
    # distribution='t': the SE note says "t quantiles on n - 1 = 19 df"; a second note
    # "Fleiss' kappa: Wald interval t quantiles on 19 df." repeated it (without "with")
    ag = irr.Agreement.from_frame(irr.datasets.load("anxiety"))
    notes = ag.fleiss_kappa(distribution="t").summary().extra_txt
    assert notes.count("t quantiles") == 1
    assert "t quantiles on n - 1 = 19 df" in notes  # 20 subjects


# -- the text of a summary without statsmodels (irr.summary.TextTable) ----------------------

def test_text_formats_are_statsmodels_own():
    from statsmodels.iolib.table import default_txt_fmt
    from statsmodels.iolib.tableformatting import fmt_2cols, fmt_params

    from irr.summary import FMT_2COLS, FMT_PARAMS, TXT_DEFAULTS

    assert default_txt_fmt == TXT_DEFAULTS
    assert fmt_2cols == FMT_2COLS
    assert fmt_params == FMT_PARAMS


def _random_table(seed):
    """Cells, headers, stubs, title and text options of the kinds the summaries use:
    words of any length (empty too), dropped columns, a CI-method column, several header
    lines, widths, separators and alignments."""
    from irr.summary import FMT_2COLS, FMT_PARAMS

    rng = np.random.default_rng(seed)

    def word():
        return "".join(rng.choice(list("ab κ-[.0159"), int(rng.integers(0, 14))))

    rows, columns = int(rng.integers(1, 6)), int(rng.integers(1, 8))
    data = [[word() for _ in range(columns)] for _ in range(rows)]
    headers = ([("\n".join(word() for _ in range(int(rng.integers(1, 3)))) if seed % 5 == 0
                 else word()) for _ in range(columns)] if rng.random() < 0.8 else None)
    stubs = [word() or "x" for _ in range(rows)] if rng.random() < 0.8 else None
    fmt = dict(FMT_PARAMS if rng.random() < 0.6 else FMT_2COLS)
    if rng.random() < 0.5:
        fmt.update(data_fmts=["%s"], data_aligns=str(rng.choice(["l", "r", "rlr", "c"])),
                   header_align=str(rng.choice(["l", "r", "c"])),
                   colwidths=int(rng.integers(0, 20)), colsep=str(rng.choice([" ", "   "])))
    title = word() if rng.random() < 0.7 else ""
    return data, headers, stubs, title, fmt


@pytest.mark.parametrize("seed", range(60))
def test_text_table_lays_out_text_as_statsmodels_simple_table(seed):
    from statsmodels.iolib.table import SimpleTable

    from irr.summary import TextTable

    data, headers, stubs, title, fmt = _random_table(seed)
    ours = TextTable(data, headers=headers, stubs=stubs, title=title, txt_fmt=fmt)
    theirs = SimpleTable(data, headers=headers, stubs=stubs, title=title, txt_fmt=fmt)
    assert ours.get_colwidths("txt") == theirs.get_colwidths("txt")
    assert ours.as_text() == theirs.as_text()
    wider = [w + int(i % 3) for i, w in enumerate(theirs.get_colwidths("txt"))]
    assert ours.as_text(colwidths=wider) == theirs.as_text(colwidths=wider)


def _result_lists():
    """Rows as the summaries get them: one family or several, intervals of several
    methods, bootstrap rows, missing ratings, two categories (rows merged), bands."""
    ag = irr.Agreement.from_frame(irr.datasets.load("anxiety"))
    two = irr.Agreement.from_frame(irr.datasets.load("vision"))
    frame = irr.datasets.load("diagnoses").iloc[:, :3].copy()
    frame.iloc[::7, 1] = np.nan
    missing = irr.Agreement.from_frame(frame)
    binary = irr.Agreement((np.arange(40) % 3 == 0), (np.arange(40) % 4 == 0))
    yield [ag.fleiss_kappa(), ag.gwet_ac(), ag.icc(), ag.krippendorff_alpha("interval")], {}
    yield [two.kappa(), two.kappa("linear", ci="percentile", n_resamples=200)], {
        "info": [("Categories:", "4"), ("Bootstrap seed:", "0")], "notes": ["a note"]}
    yield [missing.fleiss_kappa(), missing.percent_agreement(), missing.light_kappa()], {
        "info": [("Missing ratings:", "7")]}
    yield [binary.kappa(), binary.kappa("linear"), binary.kappa("quadratic")], {}
    yield [binary.kappa()], {"merge_coincident": False}


@pytest.mark.parametrize("number", range(5))
def test_results_text_is_the_text_of_results_summary(number):
    from irr.summary import results_summary, results_text

    results, options = list(_result_lists())[number]
    title = f"Summary {number}"
    assert results_text(results, title, **options) == (
        results_summary(results, title, **options).as_text())


def test_printing_a_report_does_not_import_statsmodels_or_matplotlib():
    code = ("import numpy as np, irr\n"
            "a = np.arange(200) % 5; b = (a + (np.arange(200) % 7 == 0)) % 5\n"
            "text = irr.report(irr.Agreement(a, b), figures=False).to_text()\n"
            "assert 'Cohen' in text\n"
            "import sys\n"
            "print(' '.join(m for m in ('statsmodels', 'matplotlib', 'irr.plotting')\n"
            "               if m in sys.modules))\n")
    done = subprocess.run([sys.executable, "-c", code], cwd=ROOT, capture_output=True,
                          text=True, check=True)
    assert done.stdout.split() == []


@pytest.mark.parametrize("scale", [1e58, 1e-62])
def test_a_table_of_extreme_measurements_stays_narrow_and_keeps_its_digits(scale):
    # fixed decimals would print 60 digits (or only zeros): numbers of 10^10 or more, and
    # nonzero numbers the decimals would show as 0, are written in scientific notation
    rng = np.random.default_rng(1)
    x = rng.normal(100, 10, 30)
    y = x + rng.normal(0, 3, 30)
    result = irr.limits_of_agreement(x * scale, y * scale)
    text = str(result.summary())
    assert max(map(len, text.splitlines())) <= 125
    bias_row = next(line for line in text.splitlines() if line.startswith("Bias"))
    shown = float(bias_row.split(")", 1)[1].split()[0])
    assert shown == pytest.approx(result.estimate, rel=1e-4)
