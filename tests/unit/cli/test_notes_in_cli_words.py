"""A user's review of this round's additions (null=, alternative=, sampling=, plan
method='flack', inter_intra_reliability, the CLI's new flags): each test pins a problem
found by reading the output as a journal reviewer would, and fails without its fix.

The numbers here are counts and formatting (what the output must say), not statistics;
the statistics themselves are checked against published values in their own test files.
"""

import contextlib
import io
import re

import numpy as np
import pandas as pd
import pytest

import irr
from irr.cli import main
from tests.support.cli_runner import cli

ANXIETY = irr.datasets.load("anxiety")
SEVERITY = ["none", "mild", "moderate", "severe"]


@pytest.fixture(scope="module")
def clinic_csv(tmp_path_factory):
    """A clinician's file: patient ids, a site, string labels, missing ratings."""
    rng = np.random.default_rng(42)
    n = 60
    truth = rng.integers(0, 4, n)

    def rate(p):
        r = np.clip(truth + rng.choice([-1, 0, 0, 0, 1], n), 0, 3)
        out = np.array(SEVERITY, dtype=object)[r]
        out[rng.random(n) < p] = None
        return out

    frame = pd.DataFrame({"patient_id": [f"P{i:03d}" for i in range(1, n + 1)],
                          "site": rng.choice(["Leeds", "York"], n),
                          "dr_smith": rate(0.05), "dr_jones": rate(0.08),
                          "nurse_lee": rate(0.1)})
    path = tmp_path_factory.mktemp("clinic") / "severity.csv"
    frame.to_csv(path, index=False)
    return str(path), frame


# -- the p-value column of a one-sided test ---------------------------------------------
@pytest.mark.parametrize(("alternative", "header"), [
    ("two-sided", "P>|z|"), ("greater", "P>z"), ("less", "P<z")])
def test_p_column_says_the_side_of_the_test(alternative, header):
    # statsmodels' P>|z| is a two-sided p-value; a one-sided test's column must not say so
    ag = irr.Agreement(ANXIETY["rater1"], ANXIETY["rater2"])
    text = ag.kappa(alternative=alternative).summary().as_text()
    assert header in text
    if alternative != "two-sided":
        assert "P>|z|" not in text


# -- notes that contradicted the numbers -------------------------------------------------
def test_percent_agreement_tested_and_unclipped_notes():
    ag = irr.Agreement.from_frame(ANXIETY)
    plain = ag.percent_agreement().notes
    assert "Percent agreement: no test; interval clipped to [0, 1]." in plain
    tested = ag.percent_agreement(null=0.2)
    assert np.isfinite(tested.pvalue)
    assert not any("no test" in n for n in tested.notes)
    assert "Percent agreement: interval clipped to [0, 1]." in tested.notes
    unclipped = ag.percent_agreement(ci_clip=False).notes
    assert not any("clipped to [0, 1]" in n for n in unclipped)
    assert "Percent agreement: no test." in unclipped


def test_light_kappa_t_note_under_rater_sampling():
    # with an SE over raters the test is on that SE, not "on the linearised SE"
    ag = irr.Agreement.from_frame(ANXIETY)
    res = ag.light_kappa(sampling="both", distribution="t")
    assert not any("the test on the linearised SE" in n for n in res.notes)
    assert any(n.startswith("SE: unconditional") and "t on n - 1 = 19 df" in n
               for n in res.notes)
    # subject sampling keeps the note
    assert any("the test on the linearised SE" in n
               for n in ag.light_kappa(distribution="t").notes)


# -- Python words on the command line -----------------------------------------------------
def test_cli_notes_name_flags_not_python_arguments(clinic_csv):
    path, _ = clinic_csv
    code, out, err = cli("kappa", path, "--raters", "dr_smith", "dr_jones", "--categories",
                         *SEVERITY, "--null", "0.6", "--alternative", "greater")
    assert code == 0, err
    assert "(--null 0.6)" in out
    assert "null=0.6" not in out
    assert "P>z" in out
    assert "P>|z|" not in out
    code, out, err = cli("multi", path, "--id", "patient_id,site")
    assert code == 0, err
    assert "definition=" not in out
    assert "percent agreement (all raters) is the share" in out


def test_cli_icc_null_notes(tmp_path):
    path = tmp_path / "scores.csv"
    ANXIETY.to_csv(path, index=False)
    code, out, err = cli("icc", str(path), "--null", "0.1")
    assert code == 0, err
    assert "(--null 0.1; R irr's r0)" in out
    assert "null=" not in out
    assert "method 'exact'" not in out
    assert "method 'satterthwaite'" not in out
    # Satterthwaite's df with two decimals, as the interval's (not 4 significant digits)
    res = irr.Agreement.from_frame(ANXIETY).icc(null=0.1)
    df2 = f"{res.df2:.2f}"
    assert f"F(19, {df2})" in res.notes[1]


def test_cli_rater_population_without_sampling(clinic_csv):
    path, _ = clinic_csv
    err = io.StringIO()
    with contextlib.redirect_stderr(err), pytest.raises(SystemExit) as stop:
        main(["multi", path, "--id", "patient_id,site", "--rater-population", "10"])
    assert stop.value.code == 2
    err = err.getvalue()
    assert "--sampling raters or --sampling both" in err
    assert "sampling=" not in err
    assert "rater_population=" not in err
    assert "got --rater-population 10." in err


def test_cli_plan_flack_error_names_its_flags():
    code, _, err = cli("plan", "kappa", "--kappa0", "0.4", "--kappa1", "0.6", "--method",
                       "flack", "--raters", "3")
    assert code == 1
    assert err.strip() == "irr: error: --method flack is for two raters; got --raters 3."
    code, _, err = cli("plan", "kappa", "--kappa0", "0.4", "--kappa1", "0.6", "--rates",
                       "0.2", "0.3")
    assert err.strip() == ("irr: error: --rates is only used by --method cantor or "
                           "--method wald.")


def test_cli_multi_sampling_both_keeps_alpha_and_names_rows(clinic_csv):
    # --sampling both: alpha takes the Wald interval (its only interval on an SE over
    # raters) rather than being dropped for a bootstrap the user never asked for
    path, _ = clinic_csv
    code, out, err = cli("multi", path, "--id", "patient_id,site", "--sampling", "both")
    assert code == 0, err
    assert "Krippendorff's alpha (nominal)" in out.split("[1]")[0]
    # the row left out is named as --statistics names it, not by Python arguments
    assert "percent_all not computed: --sampling both" in out
    assert "definition='all'" not in out
    assert "level=" not in out


def test_cli_multi_error_lists_reasons_once_punctuated(clinic_csv):
    path, _ = clinic_csv
    code, _, err = cli("multi", path, "--id", "patient_id,site", "--population", "30")
    assert code == 1
    assert ".;" not in err
    assert err.rstrip().endswith(".")


# -- counts with thousands separators ------------------------------------------------------
def test_missing_ratings_counts_have_separators():
    rng = np.random.default_rng(0)
    n = 3000
    frame = pd.DataFrame({r: rng.integers(1, 4, n).astype(float) for r in ("a", "b", "c")})
    frame.loc[: 1499, "c"] = np.nan
    text = irr.Agreement.from_frame(frame).summary().as_text()
    assert "1,500 in 1,500 subjects" in text


def test_cli_missing_ratings_of_a_file_have_separators(tmp_path):
    rng = np.random.default_rng(1)
    n = 3000
    a = rng.normal(50, 10, n)
    frame = pd.DataFrame({"id": range(n), "A": a, "B": a + rng.normal(0, 2, n)})
    frame.loc[: 1199, "A"] = np.nan
    path = tmp_path / "pairs.csv"
    frame.to_csv(path, index=False)
    code, out, err = cli("agreement", str(path), "--id", "id", "--raters", "A", "B",
                         "--statistics", "loa")
    assert code == 0, err
    assert "1,200 in 1,200 subjects" in out


# -- inter- and intra-rater reliability -------------------------------------------------
def test_inter_intra_title_and_sem_precision():
    rng = np.random.default_rng(3)
    rows = []
    for i in range(25):
        true = rng.normal(50, 10)
        for j, rater in enumerate("ABC"):
            for rep in (1, 2):
                rows.append((i, rater, rep, true + j + rng.normal(0, 3)))
    long = pd.DataFrame(rows, columns=["subject", "reader", "reading", "value"])
    res = irr.Agreement.from_long(long, subject="subject", rater="reader", rating="value",
                                  replicate="reading").inter_intra_reliability()
    text = res.summary().as_text()
    assert "reliability of 3 raters" in text.splitlines()[0]
    assert "A and B and C" not in text
    note = next(n for n in res.notes if n.startswith("Standard errors of measurement"))
    decimals = {len(x.split(".")[1]) for x in
                note.rstrip(".").replace(";", " ").split() if x[0].isdigit()}
    assert len(decimals) == 1  # one precision for every SEM


# -- a report's tests of a value other than 0, one-sided, stated outside the text table --
def test_report_markdown_and_methods_state_the_tests(clinic_csv):
    path, _ = clinic_csv
    args = ("report", path, "--id", "patient_id,site", "--categories", *SEVERITY,
            "--null", "0.3", "--alternative", "greater")
    code, out, err = cli(*args, "--format", "markdown")
    assert code == 0, err
    header = out.split("| Statistic")[0]
    assert "- Alternative: greater" in header
    assert "- H0: each coefficient = 0.3" in header
    code, out, err = cli(*args)
    assert code == 0, err
    methods = " ".join(out.split("Methods:")[1].split("References:")[0].split())
    assert ("Mean pairwise percent agreement, Krippendorff's ordinal α, and ICC(A,1) were "
            "tested against the null hypothesis that each equals .30 (one-sided; H1: greater "
            "than .30).") in methods


def test_report_of_default_tests_adds_nothing():
    rep = irr.report(ANXIETY, figures=False)
    assert [label for label, _ in rep.inference_facts()] == [
        "Confidence level", "Interval methods", "Bootstrap"]
    assert "null hypothesis" not in str(rep)


def test_kappa_on_t_names_its_statistic_t(clinic_csv):
    # the p-value and interval are on t(n - 1): the column and the CSV must not say z
    path, frame = clinic_csv
    ag = irr.Agreement.from_frame(frame, raters=["dr_smith", "dr_jones"], categories=SEVERITY)
    res = ag.kappa(weights="quadratic", distribution="t")
    assert res.statistic_name == "t"
    assert ag.kappa().statistic_name == "z"
    code, out, err = cli("kappa", path, "--raters", "dr_smith", "dr_jones", "--categories",
                         *SEVERITY, "--weights", "quadratic", "--distribution", "t")
    assert code == 0, err
    header = next(line for line in out.splitlines() if "estimate" in line)
    assert header.split()[:5] == ["estimate", "std", "err", "t", "p-value"]


def test_lazy_ccc_refusal_names_what_was_asked():
    duckdb = pytest.importorskip("duckdb")
    frame = pd.DataFrame({"a": [1.0, 2.0, 3.5, 4.0], "b": [1.2, 2.1, 3.0, 4.4],
                          "c": [0.9, 2.2, 3.1, 4.1]})
    relation = duckdb.from_df(frame)
    ag = irr.Agreement.from_frame(relation, continuous=True)
    with pytest.raises(ValueError, match="The overall CCC of 3 raters") as error:
        ag.concordance()
    assert "method=None" not in str(error.value)
    assert "rel.limit(100_000).df()" in str(error.value)  # DuckDB's call, not polars'
    two = irr.Agreement.from_frame(relation, raters=["a", "b"], continuous=True)
    with pytest.raises(ValueError, match="The CCC with ci='bca'"):
        two.concordance(ci="bca")


# -- interval notes on t: clipping said, unclipped limits said, in the CLI's words ----------
def test_clipped_note_survives_t_quantiles():
    code, out, err = cli("multi", "--dataset", "cac_raw4raters", "--distribution", "t")
    assert code == 0, err
    line = next(x for x in out.splitlines() if "Wald interval clipped" in x)
    for name in ("Fleiss' kappa", "Gwet's AC1", "Light's kappa"):
        assert name in line


def test_unclipped_limits_are_noted_for_every_row():
    code, out, err = cli("report", "--dataset", "cac_raw4raters", "--no-ci-clip",
                         "--statistics", "percent,gwet,alpha_nominal", "--ci", "wald",
                         "--distribution", "t")
    assert code == 0, err
    assert "Gwet's AC1: Wald interval not clipped to [-1, 1] (--no-ci-clip)." in out
    assert "Percent agreement (pairwise): Wald interval not clipped to [0, 1]" in out
    assert "ci_clip" not in out


def test_header_h0_is_not_each_coefficient_when_one_tests_zero(tmp_path):
    # the CCC takes no --null: its test is of 0, so "each coefficient = 0.5" would be wrong
    rng = np.random.default_rng(5)
    true = rng.normal(10, 3, 40)
    frame = pd.DataFrame({f"r{j}": np.round(true + rng.normal(0, 1, 40), 1) for j in range(3)})
    path = tmp_path / "scores.csv"
    frame.to_csv(path, index=False)
    code, out, err = cli("report", str(path), "--statistics", "icc_a1,ccc,alpha_interval",
                         "--null", "0.1")
    assert code == 0, err
    assert "each coefficient" not in out
    assert "ICC(A,1) = 0.1, α = 0.1" in out


# -- degrees of freedom: never 2e+06 -----------------------------------------------------
def test_large_df_are_whole_numbers_not_exponents():
    ag = irr.Agreement.from_table(np.array([[800_000, 200_000], [200_000, 800_000]]))
    res = ag.kappa(distribution="t", null=0.5)
    assert "t(1999999) = " in res.report()
    assert "e+" not in res.report()
    assert not any("e+" in note for note in res.notes)
    assert "e+" not in ag.gwet_ac(distribution="t").summary().as_text()


def test_plan_table_states_the_alternative():
    # 101 subjects one-sided, 153 two-sided: the table must say which
    one = irr.plan.kappa(0.4, 0.6, method="flack", proportions=[0.2, 0.25, 0.55],
                         alternative="greater")
    header = one.summary().as_text().split("kappa0")[0]
    assert "Alternative:" in header
    assert "greater" in header


def test_icc_bootstrap_note_once():
    code, out, err = cli("icc", "--dataset", "anxiety", "--ci", "bca")
    assert code == 0, err
    assert out.count("bootstrap intervals are not available") == 1


def test_scale_help_lists_names_not_a_python_call():
    out = io.StringIO()
    with contextlib.redirect_stdout(out), pytest.raises(SystemExit):
        main(["kappa", "--help"])
    text = " ".join(out.getvalue().split())
    assert "irr.list_scales()" not in text
    assert "landis-koch, fleiss, altman" in text


def test_listwise_note_in_cli_words(clinic_csv):
    path, _ = clinic_csv
    code, out, err = cli("multi", path, "--id", "patient_id,site", "--missing", "listwise")
    assert code == 0, err
    assert "Listwise deletion (--missing listwise, as R irr)" in out
    assert "missing='listwise'" not in out


def test_two_rater_percent_agreement_t_note_matches_its_interval():
    ag = irr.Agreement(ANXIETY["rater1"], ANXIETY["rater2"])
    wilson = ag.percent_agreement(distribution="t", null=0.2)
    assert wilson.ci.method == "wilson"
    assert not any(n.startswith("Wald interval") for n in wilson.notes)
    assert any(n.startswith("The Wilson interval has no t form") and "the test uses t on "
               "n - 1 = 19 df" in n for n in wilson.notes)
    wald = ag.percent_agreement(distribution="t", ci="wald")
    assert wald.ci.method == "wald"
    assert any(n.startswith("Wald interval (`ci='wald'`) with t quantiles") for n in wald.notes)


def test_kendall_note_in_cli_words():
    code, out, err = cli("report", "--dataset", "anxiety", "--statistics", "kendall")
    assert code == 0, err
    assert "(a bootstrap --ci: 'percentile', 'basic' or 'bca')" in out
    assert "ci=" not in out


def test_report_sampling_over_raters_gives_alpha_wald_not_kendall(clinic_csv):
    path, _ = clinic_csv
    code, out, err = cli("report", path, "--id", "patient_id,site", "--categories", *SEVERITY,
                         "--sampling", "both", "--statistics", "alpha_nominal,kendall")
    assert code == 0, err
    table = out.split("[1]")[0]
    assert "Krippendorff's alpha (nominal)" in table
    assert "Kendall's W" in table  # its bootstrap-only interval is not asked for 'wald'
    assert "not computed" not in out


def test_duplicate_cells_message_names_no_python_argument(tmp_path):
    path = tmp_path / "long.csv"
    pd.DataFrame({"subject": [1, 1, 1, 2, 2], "reader": ["a", "a", "b", "a", "b"],
                  "grade": [1, 2, 1, 2, 2]}).to_csv(path, index=False)
    code, _, err = cli("kappa", str(path), "--subject", "subject", "--rater", "reader",
                       "--rating", "grade")
    assert code == 1
    assert "`df`" not in err
    assert "The data rate some (subject, rater) pairs more than once: [(1, 'a')]" in err


def test_inter_intra_sentence_says_subjects_left_out():
    rng = np.random.default_rng(4)
    rows = [(i, r, rep, 50 + i + j + rng.normal(0, 2)) for i in range(12)
            for j, r in enumerate("AB") for rep in (1, 2)]
    long = pd.DataFrame(rows, columns=["subject", "reader", "reading", "value"]).iloc[1:]
    res = irr.Agreement.from_long(long, subject="subject", rater="reader", rating="value",
                                  replicate="reading").inter_intra_reliability()
    assert res.n_subjects == 11
    assert ("each measuring 11 subjects 2 times (1 subject left out for a missing "
            "measurement), ") in res.report()


def test_streamed_plot_refused_in_cli_words(tmp_path):
    pytest.importorskip("duckdb")
    pytest.importorskip("pyarrow")
    rng = np.random.default_rng(2)
    a = rng.normal(50, 5, 2000)
    path = tmp_path / "pairs.parquet"
    pd.DataFrame({"A": a, "B": a + rng.normal(0, 1, 2000)}).to_parquet(path)
    code, _, err = cli("agreement", str(path), "--raters", "A", "B", "--max-bytes", "1K",
                       "--plot", str(tmp_path / "ba.png"))
    assert code == 1
    assert "raise --max-bytes to read the file, or leave out --plot" in err
    assert "pandas frame" not in err
    assert not (tmp_path / "ba.png").exists()


@pytest.mark.parametrize(("args", "message"), [
    (["--kappa0", "0.6", "--kappa1", "0.4", "--alternative", "greater"],
     "irr: error: --kappa1 = 0.4 is on the wrong side of --kappa0 = 0.6 for --alternative "
     "greater."),
    (["--kappa0", "0.4", "--kappa1", "0.6", "--categories", "3", "--prevalence", "0.2"],
     "irr: error: --prevalence is for a binary rating; got --categories 3."),
])
def test_plan_errors_in_cli_words(args, message):
    code, _, err = cli("plan", "kappa", *args)
    assert code == 1
    assert err.strip() == message


def test_forest_reference_line_is_the_tested_value():
    import matplotlib

    matplotlib.use("Agg")
    from irr.plotting import forest

    ag = irr.Agreement.from_frame(irr.datasets.load("diagnoses"))
    tested = [ag.fleiss_kappa(null=0.3), ag.gwet_ac(null=0.3)]

    def lines(ax):
        return [line.get_xdata()[0] for line in ax.get_lines() if line.get_linestyle() == ":"]

    assert lines(forest(tested)) == [0.3]
    assert lines(forest([ag.fleiss_kappa(), ag.gwet_ac()])) == [0.0]
    assert lines(forest([ag.fleiss_kappa(null=0.3), ag.gwet_ac()])) == [0.0]  # no shared value
    assert lines(forest(tested, reference=0.5)) == [0.5]
    assert lines(forest(tested, reference=None)) == []
    with pytest.raises(ValueError, match="reference"):
        forest(tested, reference="null")


#: A flag in text: ``--replicates``, not ``a--b``, a path ``./--x`` or CSS ``var(--ink)``.
_FLAG = re.compile(r"(?<![\w\-/.(])--([a-z][a-z0-9]*(?:-[a-z0-9]+)*)(?![\w:-])")


def _parser_flags():
    """{command path: its --flags}, for ``irr`` and every subcommand."""
    import argparse

    from irr.cli import _parser

    def walk(parser, path=()):
        flags = {path: {o for a in parser._actions for o in a.option_strings
                        if o.startswith("--")}}
        for action in parser._actions:
            if isinstance(action, argparse._SubParsersAction):
                for name, sub in action.choices.items():
                    flags.update(walk(sub, (*path, name)))
        return flags

    return walk(_parser())


def test_every_flag_named_in_the_source_exists():
    # every --flag in a string of the package (notes, help, errors, docstrings, the
    # translations of Python arguments to flags) is an option of some command
    import ast
    import pathlib

    known = set().union(*_parser_flags().values())
    named: dict[str, list[str]] = {}
    for path in sorted(pathlib.Path(irr.__file__).parent.rglob("*.py")):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.Constant) and isinstance(node.value, str):
                for match in _FLAG.finditer(node.value):
                    named.setdefault(f"--{match.group(1)}", []).append(
                        f"{path.name}:{node.lineno}")
    assert len(named) > 50  # the scan reads the strings
    unknown = {flag: where for flag, where in named.items() if flag not in known}
    assert not unknown


@pytest.fixture(scope="module")
def replicated_csv(tmp_path_factory):
    """A clinician's long file: patient id, device, reading number, systolic pressure in
    mmHg with one decimal, a reading missing."""
    rng = np.random.default_rng(3)
    rows = [(f"P{p:03d}", device, r, round(true + bias + rng.normal(0, sd), 1))
            for p, true in enumerate(rng.normal(130, 15, 25), start=1)
            for device, sd, bias in (("cuff", 3.6, 0.0), ("wrist", 6.1, 3.0))
            for r in (1, 2, 3)]
    frame = pd.DataFrame(rows, columns=["patient_id", "device", "reading", "sbp"])
    frame.loc[4, "sbp"] = np.nan
    path = tmp_path_factory.mktemp("replicates") / "bp_long.csv"
    frame.to_csv(path, index=False)
    return path


def test_report_notes_name_only_the_report_commands_flags(replicated_csv):
    flags = _parser_flags()[("report",)]
    args = ("report", str(replicated_csv), "--subject", "patient_id", "--rater", "device",
            "--rating", "sbp", "--replicate", "reading", "--n-resamples", "50")
    status, out, err = cli(*args)
    assert status == 0, err
    named = {f"--{m}" for m in _FLAG.findall(out + err)}
    assert "--replicates" in named  # the limits of agreement need it: said so
    assert named <= flags, named - flags
    # and the flag it names works: the limits of replicated readings are reported
    status, out, err = cli(*args, "--replicates", "constant")
    assert status == 0, err
    assert "Lower limit (95%)" in out
    assert "limits_of_agreement not computed" not in out
    assert {f"--{m}" for m in _FLAG.findall(out + err)} <= flags
