"""The reliability report (issue #16): choosing statistics, the data description, machine
output (JSON schema, CSV), markdown and HTML tables, the GRRAS checklist."""

import io
import json
import re

import jsonschema
import numpy as np
import pandas as pd
import pytest

import irr
from irr.registry import DataFacts, statistic_rows
from irr.reporting import GRRAS, DataDescription, ReliabilityReport, json_schema
from tests.support.cli_runner import cli

ANXIETY = irr.datasets.load("anxiety")


def _clinic():
    """A clinician's file: patient ids, string labels, two missing ratings."""
    return pd.DataFrame({
        "patient": [101, 102, 103, 104, 105, 106, 107, 108],
        "dr_a": ["mild", "severe", "mild", None, "moderate", "mild", "severe", "moderate"],
        "dr_b": ["mild", "severe", "moderate", "mild", "moderate", None, "severe", "mild"],
        "dr_c": ["mild", "moderate", "mild", "mild", "moderate", "mild", "severe", "moderate"],
    })


# -- choosing what to report ---------------------------------------------------------------
@pytest.mark.parametrize(("facts", "k", "expected"), [
    (DataFacts(2, True, ordered=False, numeric=False), 3, ["percent", "kappa", "alpha_nominal"]),
    (DataFacts(4, True, ordered=False, numeric=False), 3, ["percent", "fleiss", "alpha_nominal"]),
    # binary numeric labels are nominal: weighted kappa would equal kappa
    (DataFacts(2, True, ordered=True, numeric=True), 2, ["percent", "kappa", "alpha_nominal"]),
    (DataFacts(2, True, ordered=True, numeric=True), 5,
     ["percent", "kappa_quadratic", "alpha_ordinal"]),
    (DataFacts(3, True, ordered=True, numeric=True), 6, ["percent", "alpha_ordinal", "icc_a1"]),
    (DataFacts(3, True, ordered=True, numeric=True, continuous=True), 40,
     ["icc_a1", "ccc", "sem", "alpha_interval"]),  # issue 18: measurements
    (DataFacts(2, True, ordered=True, numeric=True, continuous=True), 40,
     ["loa", "ccc", "icc_a1", "sem"]),
    (DataFacts(5, False, ordered=False, numeric=False), 3, ["percent", "fleiss"]),  # counts
])
def test_recommended_statistics_per_data_type(facts, k, expected):
    names, rows, notes = statistic_rows(None, facts, k)
    assert names == expected
    assert len(rows) == len(expected)
    assert notes == []


def test_statistics_by_name_and_shorthands():
    facts = DataFacts(3, True, ordered=True, numeric=True)
    names, rows, _notes = statistic_rows("fleiss, alpha,icc", facts, 6)
    assert names == ["fleiss", "alpha_ordinal", "icc_a1"]
    assert rows == [("fleiss_kappa", {}), ("krippendorff_alpha", {"level": "ordinal"}),
                    ("icc", {"model": "twoway", "type": "agreement", "unit": "single"})]
    # the same in Python and from the command line
    rep = irr.report(ANXIETY, ["fleiss", "alpha", "icc"], figures=False)
    assert [r.coefficient for r in rep.results] == [
        r.coefficient for r in (irr.Agreement.from_frame(ANXIETY).fleiss_kappa(),
                                irr.Agreement.from_frame(ANXIETY).krippendorff_alpha("ordinal"),
                                irr.Agreement.from_frame(ANXIETY).icc())]
    status, out, _ = cli("report", "--dataset", "anxiety", "--statistics", "fleiss,alpha,icc",
                         "--format", "json")
    assert status == 0
    assert json.loads(out)["statistics"] == ["fleiss", "alpha_ordinal", "icc_a1"]
    assert json.loads(out)["selection"] == "chosen"


def test_unknown_statistic_names_the_argument_and_the_values():
    with pytest.raises(ValueError, match=r"`statistics` has unknown statistic\(s\) 'fleis'"):
        irr.report(ANXIETY, "fleis,alpha", figures=False)
    status, _, err = cli("report", "--dataset", "anxiety", "--statistics", "kapa")
    assert status == 1
    assert "--statistics has unknown statistic(s) 'kapa'" in err
    assert "known: percent" in err


def test_a_statistic_that_does_not_apply_is_left_out_with_a_note():
    rep = irr.report(ANXIETY, "kappa,fleiss", figures=False)  # kappa needs two raters
    assert [r.coefficient for r in rep.results] == ["Fleiss' kappa"]
    assert "kappa does not apply to these data (it needs exactly two raters); left out." \
        in rep.notes


def test_a_shorthand_that_does_not_apply_is_named_as_typed():
    # unordered labels: 'icc' (which stands for icc_a1) needs ordered categories
    frame = pd.DataFrame({"a": ["x", "y", "z", "x"] * 3, "b": ["x", "y", "y", "x"] * 3})
    with pytest.raises(ValueError, match="no statistic could be computed") as info:
        irr.report(frame, "icc", figures=False)
    message = str(info.value)
    assert "icc (icc_a1) does not apply to these data (it needs ordered categories)" in message
    assert ".;" not in message
    rep = irr.report(frame, "icc,kappa", figures=False)
    assert "icc (icc_a1) does not apply to these data (it needs ordered categories); " \
        "left out." in rep.notes


def test_all_is_every_coefficient_that_applies():
    rep = irr.report(ANXIETY, "all", figures=False)
    assert rep.selection == "all"
    assert len(rep.results) == 17  # the full panel of three raters on an ordinal scale
    assert len(irr.report(ANXIETY, figures=False).results) == 3


def test_default_report_is_small_and_continuous_scores_get_scores_statistics():
    rng = np.random.default_rng(1)
    truth = rng.normal(50, 10, 40)
    scores = pd.DataFrame({f"r{j}": np.round(truth + rng.normal(0, 3, 40), 1) for j in range(3)})
    rep = irr.report(scores, figures=False)
    assert rep.data.scale_type == "continuous"
    assert rep.statistics == ("icc_a1", "ccc", "sem", "alpha_interval")
    assert [r.symbol for r in rep.results] == ["ICC(A,1)", "ρc", "SEM", "α"]
    assert any("continuous scores" in n for n in rep.notes)


# -- the data description ------------------------------------------------------------------
def test_data_description_counts_missing_ratings_exactly():
    with pytest.warns(UserWarning, match="patient"):
        rep = irr.report(_clinic(), figures=False)
    d = rep.data
    # 8 patients x 3 doctors = 24 cells, 2 empty; patients 104 and 106 have 2 ratings
    assert (d.n_subjects, d.n_raters, d.n_ratings, d.n_missing_ratings, d.n_incomplete) == (
        8, 3, 22, 2, 2)
    assert d.subjects_by_ratings == ((2, 2), (3, 6))
    assert d.ratings_per_rater == (7, 7, 8)
    assert d.raters == ("dr_a", "dr_b", "dr_c")
    assert d.scale_type == "nominal"
    facts = dict(d.facts())
    assert facts["Missing ratings"] == "2 of 24 (8.3%), in 2 subject(s)"
    assert facts["Ratings per subject"] == "2: 2 subjects; 3: 6 subjects"
    assert facts["Subjects rated by each rater"] == "dr_a 7, dr_b 7, dr_c 8"


def test_data_description_of_counts_has_no_rater_identity():
    ag = irr.Agreement.from_counts([[3, 0], [1, 2], [0, 3], [2, 1]])
    d = DataDescription.from_statistics(ag.statistics, "nominal")
    assert (d.raters, d.ratings_per_rater, d.n_missing_ratings) == ((), (), 0)
    assert dict(d.facts())["Raters"] == "3 (counts: no rater identity)"


# -- machine output ------------------------------------------------------------------------
SCHEMA = json_schema()


@pytest.mark.parametrize("command", [
    ("report", "--dataset", "anxiety"),
    ("report", "--dataset", "diagnoses", "--statistics", "all"),
    ("report", "--dataset", "vision", "--statistics", "all"),
    ("kappa", "--dataset", "vision"),
    ("multi", "--dataset", "diagnoses"),
    ("icc", "--dataset", "anxiety"),
])
def test_json_follows_the_schema_and_carries_what_the_text_shows(command):
    status, out, err = cli(*command, "--n-resamples", "200", "--format", "json")
    assert status == 0, err
    payload = json.loads(out)
    jsonschema.validate(payload, SCHEMA)
    assert payload["schema_version"] == "1.0"
    assert all(not key.endswith(":") for key in payload["info"])
    _, text, _ = cli(*command, "--n-resamples", "200")
    numbered = re.findall(r"^\[(\d+)\] ", text, re.M)
    assert len(payload["notes"]) == len(numbered) > 0  # every note of the text, no more
    assert payload["notes"][0] in " ".join(text.split())
    assert payload["data"]["n_subjects"] == int(re.search(r"Subjects:\s+([\d,]+)", text)
                                                .group(1).replace(",", ""))
    if payload["inference"]["n_resamples"] is not None:
        assert payload["inference"]["n_resamples"] == 200
        assert payload["inference"]["seed"] == 0
    if command[0] == "report":
        assert len(payload["report"]) == len(payload["results"])
        assert payload["methods"]
        assert len(payload["checklist"]) == 15


def test_csv_has_the_columns_of_to_frame():
    rep = irr.report(ANXIETY, figures=False, n_resamples=200)
    status, out, _ = cli("report", "--dataset", "anxiety", "--n-resamples", "200", "--format",
                         "csv")
    assert status == 0
    table = pd.read_csv(io.StringIO(out))
    assert list(table.columns) == list(rep.to_frame().columns)
    assert table["estimate"].to_numpy() == pytest.approx(
        rep.to_frame()["estimate"].to_numpy(), abs=1e-15)
    assert list(rep.to_frame().columns[-2:]) == ["raters", "band"]
    resampled = table["ci_method"] == "percentile"  # alpha's bootstrap: seeded; others: none
    assert resampled.sum() == 1
    assert table.loc[resampled, "seed"].eq(0).all()
    assert table.loc[~resampled, "seed"].isna().all()


def test_markdown_and_html_state_the_level_and_use_one_number_format():
    rep = irr.report(ANXIETY, figures=False, confidence_level=0.9, n_resamples=200)
    md = rep.to_markdown()
    assert "| Statistic | n | Estimate | SE | 90% CI | CI method |" in md
    assert "- Confidence level: 90%" in md
    row = next(line for line in md.splitlines() if line.startswith("| ICC"))
    numbers = re.findall(r"-?\d+\.\d+", row.split("|", 3)[3])
    assert numbers
    assert all(len(n.split(".")[1]) in (2, 3) for n in numbers)
    # estimates, SEs and interval ends to three decimals (test statistics to two)
    assert row == "| ICC(2,1) | 20 | 0.198 |  | \\[-0.005, 0.447\\] | approximate F, Satterthwaite df | " \
        "F(19, 38) = 1.83 | 0.056 | poor (Koo & Li, 2016) |"
    html = rep.to_html()
    assert "<th scope=\"col\">90% CI</th>" in html
    assert "Confidence level</th><td>90%" in html


@pytest.mark.filterwarnings("ignore::irr.DegenerateDataWarning")  # 5 subjects: some resamples
def test_html_is_self_contained_and_escapes_names():
    df = pd.DataFrame({"<b>x</b>": [1, 2, 3, 1, 2], "a&b": [1, 2, 3, 2, 2]})
    rep = irr.report(df, figures=False)
    html = rep.to_html()
    assert "<b>x</b>" not in html
    assert "&lt;b&gt;x&lt;/b&gt;" in html
    assert "<script" not in html
    assert "http://" not in html.replace("https://doi.org", "")
    assert html.startswith("<!DOCTYPE html>")
    assert html.rstrip().endswith("</html>")


def test_report_is_reproducible_and_save_never_overwrites(tmp_path):
    a = irr.report(ANXIETY, figures=False, n_resamples=200)
    b = irr.report(ANXIETY, figures=False, n_resamples=200)
    for fmt in ("text", "markdown", "json", "csv", "html", "latex"):
        assert a.render(fmt) == b.render(fmt)
    target = tmp_path / "report.md"
    a.save(target)
    assert target.read_text(encoding="utf-8") == a.to_markdown()
    with pytest.raises(FileExistsError):
        a.save(target)
    a.save(target, "json", overwrite=True)
    assert json.loads(target.read_text(encoding="utf-8"))["schema"] == "irr-report"
    with pytest.raises(ValueError, match="fmt must be one of"):
        a.render("pdf")


def test_by_group_reports_each_statistic_per_group():
    df = ANXIETY.assign(site=["north", "south"] * 10)
    rep = irr.report(df, ["fleiss", "icc"], by="site", figures=False)
    assert next(r.coefficient for r in rep.results) == "Fleiss' kappa"
    groups = rep.groups
    assert list(groups["site"]) == ["north", "south", "north", "south"]
    north = irr.Agreement.from_frame(df[df.site == "north"][["rater1", "rater2", "rater3"]],
                                     categories=list(range(1, 7)))
    assert groups["estimate"].iloc[0] == pytest.approx(north.fleiss_kappa().estimate, abs=1e-15)
    assert "By group" in rep.to_html()
    assert len(json.loads(rep.to_json())["groups"]) == 4
    with pytest.raises(ValueError, match="`by` names columns that are not in the data"):
        irr.report(df, by="clinic", figures=False)


# -- the GRRAS checklist -------------------------------------------------------------------
def test_checklist_has_the_fifteen_items_and_marks_what_the_report_covers():
    assert [n for n, _, _ in GRRAS] == list(range(1, 16))
    rep = irr.report(ANXIETY, figures=False)
    status = {i.number: i.status for i in rep.checklist()}
    assert [n for n, s in status.items() if s == "covered"] == [10, 11, 13, 15]
    assert status[6] == "partly"
    assert {status[n] for n in (1, 2, 3, 4, 5, 7, 8, 9, 12, 14)} == {"author"}
    item11 = next(i for i in rep.checklist() if i.number == 11)
    assert item11.detail == "3 raters, 20 subjects: 20 subject(s) with 3 rating(s)."


def test_checklist_marks_estimates_without_an_interval():
    rep = irr.report(ANXIETY, "all", figures=False)  # Kendall's W has no interval
    item13 = next(i for i in rep.checklist() if i.number == 13)
    assert item13.status == "partly"
    assert item13.detail.startswith("16 of 17 estimate(s) with a confidence interval")


def test_narrative_is_validated():
    rep = irr.report(ANXIETY, figures=False)
    with pytest.raises(ValueError, match="narrative must be one of"):
        ReliabilityReport(rep.title, rep.data, rep.results, narrative="some")


def test_table_n_is_the_subjects_each_estimate_rests_on():
    # cac_raw4raters: 12 subjects, one with a single rating (not pairable), four incomplete
    rep = irr.report(irr.datasets.load("cac_raw4raters"), figures=False, n_resamples=200)
    md = rep.to_markdown()
    n = [line.split(" | ")[1] for line in md.splitlines() if line.startswith("| ") and
         not line.startswith(("| Statistic", "| ---", "| #"))][:3]
    # pairwise agreement: 11 subjects with two or more ratings; alpha: 11 pairable units;
    # ICC(A,1): the 8 complete subjects (listwise), as the sentences and notes say
    assert n == ["11", "11", "8"]
    assert md.count("- Missing ratings:") == 1  # the header fact is not repeated


def test_header_alternative_is_that_of_the_tested_rows():
    # percent agreement (no test, two-sided interval) and ICC(A,1), whose F test is
    # one-sided: the header must not say two-sided
    text = irr.report(ANXIETY, ["percent", "icc"], figures=False).to_text()
    assert re.search(r"Alternative:\s+greater\n", text)
    both = irr.report(ANXIETY, ["fleiss", "icc"], figures=False).to_text()
    assert re.search(r"Alternative:\s+two-sided \(ICC F tests: one-sided, greater\)\n", both)
