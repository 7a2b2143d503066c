"""What a journal reviewer reads in a report: the header's alternative, the df of the
table's tests, the methods paragraph's SE and interval clauses, alpha's clipping note,
docstrings that document only parameters a method takes, notes that point to the option
that gives irrCAC's t, and data sets whose columns are methods with replicates."""

import io
import json
import re

import numpy as np
import pandas as pd
import pytest

import irr
from irr._sentences import methods_paragraph, references
from irr.cli import cli_words
from tests.support.cli_runner import cli

ANXIETY = irr.datasets.load("anxiety")
PEF = irr.datasets.load("pef")
LABELS = ["absent", "mild", "severe"]


def _clinic() -> pd.DataFrame:
    """A clinic's file: patient ids, sites (10 clusters of 5 patients), string grades with
    two missing, decimal scores."""
    rng = np.random.default_rng(3)
    truth = rng.integers(0, 3, 50)
    grade = [np.clip(truth + rng.choice([-1, 0, 0, 0, 1], 50), 0, 2) for _ in range(2)]
    frame = pd.DataFrame({
        "patient_id": [f"P{i:03d}" for i in range(50)],
        "site": np.repeat(list("ABCDEFGHIJ"), 5),
        "reader_1": np.array(LABELS, dtype=object)[grade[0]],
        "reader_2": np.array(LABELS, dtype=object)[grade[1]],
        "score": np.round(truth * 2.5 + rng.normal(0, 1, 50), 1),
    })
    frame.loc[[3, 17], "reader_2"] = None
    return frame


CLINIC = _clinic()


def _clinic_agreement() -> irr.Agreement:
    return irr.Agreement.from_frame(CLINIC, raters=["reader_1", "reader_2"], categories=LABELS)


def _methods(results: list) -> str:
    return methods_paragraph(results, n_subjects=50, n_raters=2, raters=["reader_1", "reader_2"],
                             n_categories=3, scale_type="ordinal", n_missing_ratings=2,
                             n_incomplete_subjects=2)


def _interval_sentence(paragraph: str) -> str:
    return next(s for s in re.split(r"(?<=\.) (?=[A-Z])", paragraph)
                if s.startswith("Confidence intervals"))


def _depth(text: str) -> int:
    """The deepest nesting of parentheses in `text`."""
    depth = deepest = 0
    for char in text:
        depth += {"(": 1, ")": -1}.get(char, 0)
        deepest = max(deepest, depth)
    return deepest


# -- 1. the header's alternative ------------------------------------------------------------
def test_header_names_the_one_sided_icc_f_test_beside_two_sided_kappas():
    text = irr.report(ANXIETY, ["fleiss", "icc"], figures=False).to_text()
    assert re.search(r"Alternative:\s+two-sided \(ICC F tests: one-sided, greater\)\n", text)
    assert "two-sided, greater" not in text
    code, out, _ = cli("report", "--dataset", "anxiety")
    assert code == 0
    assert re.search(r"Alternative:\s+two-sided \(ICC F tests: one-sided, greater\)", out)
    # the JSON says what the header says, not the first row's alternative (pef: the ICC's)
    code, out, _ = cli("report", "--dataset", "pef", "--format", "json")
    assert code == 0
    assert (json.loads(out)["inference"]["alternative"]
            == "two-sided (ICC F tests: one-sided, greater)")


def test_header_alternative_of_rows_that_differ_otherwise_names_each_rows():
    from irr.summary import alternative_fact

    ag = irr.Agreement.from_frame(ANXIETY)
    assert alternative_fact([ag.fleiss_kappa(), ag.fleiss_kappa()]) == "two-sided"
    assert alternative_fact([ag.icc()]) == "greater"
    mixed = [ag.fleiss_kappa(alternative="greater"), ag.gwet_ac(), ag.icc()]
    assert alternative_fact(mixed) == "greater (κF, ICC(A,1)); two-sided (AC1)"
    # Kendall's W's chi-square test is upper-tailed too
    assert (alternative_fact([ag.fleiss_kappa(), ag.kendall_w()])
            == "two-sided (chi-square tests: one-sided, greater)")


# -- 2. the table's test column with its degrees of freedom --------------------------------
def test_markdown_and_html_test_column_give_the_degrees_of_freedom():
    n, k = len(ANXIETY), 3
    rep = irr.report(ANXIETY, ["fleiss", "kendall", "icc"], figures=False)
    md = rep.to_markdown()
    fleiss = rep.results[0]
    assert f"| z = {fleiss.statistic:.2f} |" in md  # z has no df
    assert f"| χ²({n - 1}) = {rep.results[1].statistic:.2f} |" in md
    assert f"| F({n - 1}, {(n - 1) * (k - 1)}) = {rep.results[2].statistic:.2f} |" in md
    assert f"<td>F({n - 1}, {(n - 1) * (k - 1)}) = " in rep.to_html()
    plain = irr.report(ANXIETY, ["kendall"], figures=False, style="plain").to_markdown()
    assert f"| chi2({n - 1}) = " in plain


def test_a_z_statistic_on_t_quantiles_is_a_t_with_its_df_in_the_table():
    rep = irr.report(CLINIC, ["kappa"], raters=["reader_1", "reader_2"], categories=LABELS,
                     id=["patient_id", "site"], inference={"distribution": "t"}, figures=False)
    used = int(CLINIC[["reader_1", "reader_2"]].notna().all(axis=1).sum())  # 48
    row = next(line for line in rep.to_markdown().splitlines() if "Cohen's kappa" in line)
    assert f"| t({used - 1}) = {rep.results[0].statistic:.2f} |" in row


def test_the_t_tests_of_the_bias_and_of_a_regression_give_their_df():
    n = len(PEF)
    ag = irr.Agreement.from_frame(PEF, raters=["wright_1", "mini_1"])
    rep = irr.report(ag, ["loa", "deming"], figures=False)
    md = rep.to_markdown()
    loa, deming = rep.results
    bias, slope = loa.parts()[0], loa.parts()[-1]
    assert f"| t({n - 1}) = {bias.statistic:.2f} |" in md  # the bias: n - 1 df
    assert f"| t({n - 2}) = {slope.statistic:.2f} |" in md  # the proportional bias: n - 2
    assert f"| t({n - 2}) = {deming.statistic:.2f} |" in md  # jackknife t on n - 2 df
    # the p-values printed are those of these df
    from scipy import stats

    assert bias.pvalue == pytest.approx(2 * stats.t.sf(abs(bias.statistic), n - 1), rel=1e-9)
    assert deming.pvalue == pytest.approx(2 * stats.t.sf(abs(deming.statistic), n - 2),
                                          rel=1e-9)


def test_csv_names_each_statistic_with_its_df():
    rep = irr.report(ANXIETY, ["fleiss", "kendall", "icc"], figures=False)
    frame = pd.read_csv(io.StringIO(rep.to_csv()))
    assert list(frame.columns[3:6]) == ["statistic", "test", "pvalue"]
    assert list(frame["test"]) == ["z", "χ²(19)", "F(19, 38)"]
    rep = irr.report(ANXIETY, ["percent", "icc"], figures=False)
    assert pd.isna(pd.read_csv(io.StringIO(rep.to_csv()))["test"][0])  # no test


# -- 3. a clustered kappa's SE in the methods paragraph ------------------------------------
def test_methods_paragraph_names_the_cluster_robust_se_of_a_clustered_kappa():
    ag = _clinic_agreement()
    clustered = ag.kappa(cluster=CLINIC["site"])
    clause = _interval_sentence(_methods([clustered]))
    assert "Fleiss et al. (1969)" not in clause
    assert "with the cluster-robust linearised (sandwich) standard error (Cameron & Miller, " \
           "2015) for Cohen's κ" in clause
    assert "t quantiles on 9 df" in clause  # 10 sites - 1
    assert any(ref.startswith("Cameron, A. C., & Miller, D. L. (2015)")
               for ref in references([clustered]))
    # without clusters the SE is still Fleiss, Cohen & Everitt's
    assert "Fleiss et al. (1969)" in _interval_sentence(_methods([ag.kappa()]))
    stratified = ag.kappa(strata=CLINIC["site"].isin(list("ABCDE")))
    text = _methods([stratified])
    assert "stratified linearised (sandwich) standard error for Cohen's κ" in text
    # strata without clusters: 48 subjects minus 2 strata, not "clusters minus strata"
    assert ("Tests (and Wald intervals) of Cohen's κ used the t distribution with the "
            "stratified design's degrees of freedom, subjects minus strata: 46 for Cohen's "
            "κ.") in text
    assert "cluster" not in text


# -- 4. alpha has no lower bound -----------------------------------------------------------
def test_alphas_clipped_wald_interval_says_clipped_at_1():
    ag = irr.Agreement([1, 2, 3, 1, 2, 3, 1], [1, 2, 3, 1, 2, 3, 2])
    alpha = ag.krippendorff_alpha(ci="wald")
    assert alpha.estimate + 1.96 * alpha.se > 1  # so the upper limit is clipped
    assert alpha.ci.high == 1.0
    assert alpha.ci.note == "clipped at 1"
    assert ag.krippendorff_alpha(ci="wald", ci_clip=False).ci.note == \
        "not clipped at 1 (`ci_clip=False`)"
    assert "inf" not in str(alpha.summary())
    assert ag.kappa().ci.note == "clipped to [-1, 1]"  # two bounds: both named


# -- 5. the interval clause without nested parentheses -------------------------------------
def test_interval_clause_and_sentence_have_no_nested_parentheses():
    ag = _clinic_agreement()
    kappa = ag.kappa(distribution="t", population=500)
    results = [kappa, ag.percent_agreement(distribution="t", population=500, ci="wald"),
               ag.gwet_ac(population=500)]
    clause = _interval_sentence(_methods(results))
    assert _depth(clause) == 1, clause
    assert ("Wald intervals (on the SE corrected for a finite population of N = 500; "
            "t quantiles on 47 df) for Cohen's κ and percent agreement") in clause
    assert _depth(kappa.report()) == 1
    diagnoses = irr.Agreement.from_frame(irr.datasets.load("diagnoses"))
    both = diagnoses.fleiss_kappa(sampling="both", population=80)
    assert "(Wald, on the unconditional SE over subjects and raters, corrected for a finite " \
           "population of N = 80)" in both.report()
    finite = diagnoses.fleiss_kappa(sampling="both", population=80, rater_population=10)
    assert "(Wald, on the unconditional SE over subjects and raters, corrected for finite " \
           "populations of N = 80 subjects and R = 10 raters)" in finite.report()
    assert "(Wald, on the jackknife SE over raters)" in \
        diagnoses.fleiss_kappa(sampling="raters").report()


# -- 6. documented parameters are the parameters: tests/unit/inference/test_keywords.py


# -- 7. the note that points to irrCAC's t -------------------------------------------------
def test_gwet_and_percent_se_notes_point_to_distribution_t():
    ag = irr.Agreement.from_frame(ANXIETY)
    for result in (ag.gwet_ac(), ag.percent_agreement()):
        note = next(n for n in result.notes if n.startswith("SE: Gwet"))
        assert "(`distribution='t'` gives irrCAC's t on n - 1 df)" in note
        assert "irrCAC uses t" not in note
    # and the option does what the note says: t on n - 1 df
    assert ag.gwet_ac(distribution="t").design_df == len(ANXIETY) - 1
    assert cli_words("(`distribution='t'` gives irrCAC's t on n - 1 df)") == \
        "(--distribution t gives irrCAC's t on n - 1 df)"
    for fmt in ("text", "markdown", "json"):
        code, out, _ = cli("report", "--dataset", "anxiety", "--format", fmt)
        assert code == 0
        assert "--distribution t gives irrCAC's t on n - 1 df" in out
        assert "distribution='t'" not in out


# -- 8. columns that are methods read twice ------------------------------------------------
def test_replicate_columns_are_methods_read_more_than_once():
    from irr._columns import replicate_columns

    assert replicate_columns(list(PEF.columns[1:])) == {
        "wright": ["wright_1", "wright_2"], "mini": ["mini_1", "mini_2"]}
    assert replicate_columns(["a.1", "a.2", "b.1", "b.2", "b.3"]) == {
        "a": ["a.1", "a.2"], "b": ["b.1", "b.2", "b.3"]}
    for names in (["rater_1", "rater_2", "rater_3"], ["reader_1", "reader_2", "score"],
                  ["a_1", "b_1"], ["r1", "r2", "s1", "s2"]):
        assert replicate_columns(names) == {}


def test_pef_report_says_how_to_analyse_two_methods_with_replicates(tmp_path):
    rep = irr.report(PEF, id="subject", figures=False)
    python = next(n for n in rep.notes if "look like 2 methods" in n)
    assert python.startswith("wright_1, wright_2, mini_1, mini_2 look like 2 methods (wright, "
                             "mini) read 2 times each; this report takes them as 4 raters.")
    assert "replicates='constant'" in python
    assert "`raters=['wright_1', 'mini_1']`" in python
    assert "irr agreement" not in python
    assert not any("look like" in n and "methods" in n
                   for n in irr.report(ANXIETY, figures=False).notes)

    code, out, _ = cli("report", "--dataset", "pef")
    assert code == 0
    command = ("irr agreement long.csv --subject subject --rater method --rating value "
               "--replicate replicate --replicates constant")
    assert command in out
    assert "irr agreement --dataset pef --raters wright_1 mini_1." in out
    assert "from_long" not in out  # the Python wording is replaced, not repeated

    # the commands the note gives run, and give the replicate analysis: the bias is the
    # mean over subjects of the difference of each method's mean reading
    long = PEF.melt(id_vars="subject", var_name="reading")
    long[["method", "replicate"]] = long.pop("reading").str.split("_", expand=True)
    path = tmp_path / "long.csv"
    long.to_csv(path, index=False)
    words = command.replace("long.csv", str(path)).split()[1:]
    code, out, err = cli(*words, "--format", "json")
    assert code == 0, err
    bias = ((PEF.wright_1 + PEF.wright_2) / 2 - (PEF.mini_1 + PEF.mini_2) / 2).mean()
    loa = json.loads(out)["results"][0]
    assert loa["coefficient"] == "Limits of agreement"
    assert loa["parts"][0]["coefficient"] == "Bias (wright - mini)"
    assert loa["estimate"] == pytest.approx(bias, abs=1e-12)
    assert loa["n_subjects"] == 17
    code, _, err = cli("agreement", "--dataset", "pef", "--raters", "wright_1", "mini_1")
    assert code == 0, err
