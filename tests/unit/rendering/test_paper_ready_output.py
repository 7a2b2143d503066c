"""Review of issue #16 (paper-ready output): what a new user found still wrong, pinned."""

import json
import re

import pandas as pd

import irr
from tests.support.cli_runner import cli

SITES = pd.DataFrame({
    "patient": [f"P{i}" for i in range(12)],
    "site": ["Leeds"] * 6 + ["York"] * 6,
    "dr_a": ["absent", "mild", "severe", "mild", "absent", "severe",
             "mild", "mild", "absent", "severe", "severe", "absent"],
    "dr_b": ["absent", "mild", "severe", "absent", None, "severe",
             "mild", "severe", "absent", "severe", "mild", "absent"],
    "dr_c": ["absent", "severe", "severe", "mild", "absent", "severe",
             "mild", "mild", "absent", "mild", "severe", "absent"],
})


def _csv(tmp_path):
    path = tmp_path / "sites.csv"
    SITES.to_csv(path, index=False)
    return str(path)


# -- the table's n is the n of the sentence ------------------------------------------------
def test_table_n_is_the_subjects_the_estimate_used():
    # n_subjects already excludes the subjects left out; subtracting n_missing again gave
    # ICC n = 4 and alpha n = 10 on cac_raw4raters while the sentences say 8 and 11
    rep = irr.report(irr.datasets.load("cac_raw4raters"), figures=False)
    md = rep.to_markdown()
    table = md.split("\n\n")[2].splitlines()
    assert table[0].startswith("| Statistic | n | Estimate |")
    assert [row.split(" | ")[1] for row in table[2:]] == ["11", "11", "8"]
    assert rep.sentences[2].endswith("n = 8 (4 left out for a missing rating).")
    assert "n = 11 subjects with two or more ratings (of 12)" in rep.sentences[0]


def test_markdown_states_the_missing_ratings_once(tmp_path):
    code, out, _ = cli("report", "--dataset", "cac_raw4raters", "--format", "markdown")
    assert code == 0
    assert [line for line in out.splitlines() if line.startswith("- Missing ratings")] == [
        "- Missing ratings: 7 of 48 (14.6%), in 4 subject(s)"]


# -- --by: every format shows the groups ---------------------------------------------------
def test_text_report_shows_the_groups(tmp_path):
    code, out, _ = cli("report", _csv(tmp_path), "--id", "patient", "--by", "site",
                       "--statistics", "fleiss")
    assert code == 0
    block = out.split("By group:\n")[1].split("\n\n")[0].splitlines()
    # irr.Agreement.from_frame(<the site's rows>).fleiss_kappa(): .6571, SE .1921, ...
    assert block == [
        "site   Statistic      n  Estimate     SE  95% CI          CI method  Band",
        "-" * 80,
        "Leeds  Fleiss' kappa  6     0.657  0.192  [0.281, 1.000]  Wald       substantial",
        "York   Fleiss' kappa  6     0.495  0.218  [0.068, 0.922]  Wald       moderate",
    ]


def test_markdown_and_latex_show_the_groups():
    rep = irr.report(SITES.drop(columns="patient"), ["icc"], by="site", figures=False,
                     categories=["absent", "mild", "severe"])
    md = rep.to_markdown()
    assert "### By group" in md
    # Leeds: 5 of 6 subjects complete; ICC(A,1) = .8431, 95% CI [.4870, .9804]
    assert ("| Leeds | ICC(2,1) | 5 | 0.843 |  | \\[0.487, 0.980\\] | "
            "approximate F, Satterthwaite df | good |") in md
    assert ("Leeds & ICC(2,1) & 5 & 0.843 &  & [0.487, 0.980] & approximate F, Satterthwaite df "
            "& good \\\\") in rep.to_latex()
    html = rep.to_html()
    assert "<td>approximate F, Satterthwaite df</td>" in html
    assert "confidence_level" not in html  # a readable table, not the raw frame


def test_by_does_not_change_the_recommended_statistics(tmp_path):
    # --by used to declare the inferred labels as the scale, so 'absent < mild < severe'
    # (alphabetical) became ordinal and the report swapped Fleiss' kappa for an ICC
    path = _csv(tmp_path)
    plain = json.loads(cli("report", path, "--id", "patient,site", "--format", "json")[1])
    by = json.loads(cli("report", path, "--id", "patient", "--by", "site",
                        "--format", "json")[1])
    assert plain["statistics"] == by["statistics"] == ["percent", "fleiss", "alpha_nominal"]
    assert plain["data"]["scale_type"] == by["data"]["scale_type"] == "nominal"


# -- notes speak once, in the reader's words -----------------------------------------------
def test_continuous_note_names_the_flag_once_and_nests_no_parentheses(tmp_path):
    path = tmp_path / "counts.csv"
    pd.DataFrame({"c1": range(14), "c2": range(1, 15), "c3": range(14)}).to_csv(path,
                                                                              index=False)
    code, out, _ = cli("report", str(path), "--n-resamples", "200")
    assert code == 0
    assert ("The ratings look like continuous scores (15 distinct values, more than 10): the "
            "statistics that take each value as a category (percent agreement, kappa, AC1, "
            "nominal alpha) are left out; name them in --statistics to compute them.") in \
        " ".join(out.split())
    rep = irr.report(pd.read_csv(path), figures=False, n_resamples=200)
    assert rep.notes[-1].endswith("are left out; name them in `statistics` to compute them.")


# -- references: one APA style -------------------------------------------------------------
def test_reference_page_ranges_use_an_en_dash():
    import re

    from irr.reporting import GRRAS_REFERENCE

    rep = irr.report(irr.datasets.load("anxiety"), figures=False)
    assert ("Landis, J. R., & Koch, G. G. (1977). The measurement of observer agreement for "
            "categorical data. Biometrics, 33(1), 159–174. https://doi.org/10.2307/2529310"
            ) in rep.references
    assert any("Journal of Chiropractic Medicine, 15(2), 155–163." in r for r in rep.references)
    entries = [*rep.references, GRRAS_REFERENCE,
               *irr.list_scales()["citation"]]
    hyphenated = [e for e in entries if re.search(r"\), \d+-\d+[.,]", e)]
    assert hyphenated == []


def test_by_column_is_not_reported_as_a_guessed_identifier(tmp_path):
    # --by site named the column; the note "Column 'site' (its name) set aside as an
    # identifier ... Name the identifiers with --id" told the user to do what they had done
    code, out, _ = cli("report", _csv(tmp_path), "--id", "patient", "--by", "site",
                       "--statistics", "fleiss")
    assert code == 0
    assert "set aside as an identifier" not in out
    assert re.search(r"\nNot raters:\s+patient, site\s", out)
    # and the header is as wide as the coefficient table under it
    tables = out.split("\n\n")[0].splitlines()
    assert len({len(line) for line in tables}) == 1


# -- notes: true to the statistic, and only when they apply --------------------------------
def test_missing_rating_notes_only_with_missing_ratings_and_right_for_percent_agreement():
    complete = irr.Agreement.from_frame(irr.datasets.load("diagnoses"))
    assert not any(n.startswith("Missing ratings") for n in complete.fleiss_kappa().notes)
    assert not any(n.startswith("Missing ratings") for n in complete.percent_agreement().notes)
    cac = irr.Agreement.from_frame(irr.datasets.load("cac_raw4raters"))
    notes = cac.percent_agreement().notes
    # percent agreement has no chance agreement for a single rating to "enter"
    assert "Missing ratings (Gwet 2014): percent agreement uses the subjects with two or more " \
        "ratings." in notes
    assert "1 subject(s) with a single rating were left out (no pair of ratings)." in notes
    assert not any("chance agreement" in n for n in notes)
    assert "1 subject(s) with a single rating enter the chance agreement only." in \
        cac.fleiss_kappa().notes


# -- inference options: checked once, never ignored silently -------------------------------
def test_confidence_level_error_is_stated_once():
    code, _, err = cli("report", "--dataset", "anxiety", "--confidence-level", "95")
    assert code != 0
    assert err.strip() == "irr: error: --confidence-level must be in (0, 1); got 95.0."


def test_ci_the_icc_cannot_take_is_noted_not_ignored():
    rep = irr.report(irr.datasets.load("anxiety"), ["icc", "alpha"], ci="bca",
                     n_resamples=200, figures=False)
    assert rep.notes == ("ICC(2,1): `ci='bca'` does not apply; its own interval "
                         "(approximate F, Satterthwaite df) is reported.",)
    assert rep.results[1].ci.method == "bca"
    code, out, _ = cli("report", "--dataset", "anxiety", "--statistics", "icc", "--ci", "bca")
    assert code == 0
    assert ("ICC(2,1): --ci bca does not apply; its own interval (approximate F, "
            "Satterthwaite df) is reported.") in out
