"""Issue 14, siblings found in review: what the outputs say.

- ``irr multi`` asked for weighted coefficients on continuous scores computes them (with a
  note), instead of silently dropping every one;
- report sentences name the ICC form and the alpha level, so six ICC sentences can be told
  apart;
- a multi-row summary whose rows left out different subjects has no "Subjects used"
  count that holds for one row only, and no listwise note without its rows;
- CSV output carries ``n_incomplete`` and integer ``n_resamples``.
"""

import io
import re

import numpy as np
import pandas as pd
import pytest

import irr
from tests.support.cli_runner import cli

SCORES = pd.DataFrame({
    "a": [10.5, 12.0, 14.5, 9.0, 11.5, 13.0, 15.5, 8.0],
    "b": [11.0, 12.5, 14.0, 9.5, 11.0, 13.5, 15.0, 8.5],
    "c": [10.0, 12.0, 15.0, 9.0, 12.0, 13.0, 16.0, 8.0],
})



def test_multi_with_weights_on_continuous_scores_computes_what_was_asked():
    code, out, err = cli("multi", "-", "--weights", "quadratic", stdin=SCORES.to_csv(index=False))
    assert code == 0, err
    # the quadratic Fleiss' kappa the command printed is the API's (continuity does not
    # change the statistic, only whether it is offered unasked)
    # (the CLI keeps them categories: continuous=False, as before issue 18)
    expected = irr.Agreement.from_frame(SCORES, continuous=False).fleiss_kappa(
        weights="quadratic").estimate
    line = next(ln for ln in out.splitlines() if ln.startswith("Fleiss' kappa (quadratic)"))
    assert float(line.split()[3]) == pytest.approx(expected, abs=5e-5)
    assert "look like continuous scores" in out  # the unweighted percent agreement rows say so


def test_report_sentences_name_the_icc_form_and_the_alpha_level():
    x = SCORES.to_numpy()
    forms = [irr.icc(x, model, kind, unit) for unit in ("single", "average")
             for model, kind in (("oneway", "agreement"), ("twoway", "consistency"),
                                 ("twoway", "agreement"))]
    sentences = [r.report() for r in forms]
    names = ["ICC(1,1)", "ICC(3,1)", "ICC(2,1)", "ICC(1,3)", "ICC(3,3)", "ICC(2,3)"]
    for sentence, name in zip(sentences, names, strict=True):
        assert f"; {name}) = " in sentence, sentence
    alpha = irr.krippendorff_alpha(x, "interval", ci=None)
    assert "Krippendorff's interval α = " in alpha.report()


def test_rows_that_leave_out_different_subjects_say_so_row_by_row():
    grades = pd.DataFrame({"r1": [1, 2, 3, 1, 2, 3, 1, 2], "r2": [1, 2, 3, 2, 2, np.nan, 1, 3],
                           "r3": [2, 2, 3, 1, np.nan, 3, 1, 2]})
    ag = irr.Agreement.from_frame(grades)
    text = ag.summary().as_text()
    # pa(pairwise) uses all 8 subjects; the listwise rows (pa(all), ICC) 6 of them
    assert "Subjects used:" not in text
    assert ("Percent agreement (all raters), ICC(2,1): 6 of 8 subjects used (listwise)."
            in text)
    assert "\n[1] 2 subject(s)" not in text
    assert "] 2 subject(s) with a missing rating" not in text
    # one result alone keeps its header count
    one = ag.percent_agreement(definition="all").summary().as_text()
    assert re.search(r"Subjects used:\s+6 of 8 \(listwise\)\s", one)
    assert "left out (listwise)" in one


def test_csv_has_n_incomplete_and_integer_resamples():
    grades = "r1,r2,r3\n1,1,2\n2,2,2\n3,3,3\n1,2,1\n2,2,\n3,,3\n1,1,1\n2,3,2\n"
    code, out, err = cli("report", "-", "--format", "csv", "--n-resamples", "200", stdin=grades)
    assert code == 0, err
    frame = pd.read_csv(io.StringIO(out))
    assert (frame["n_incomplete"] == 2).all()  # two subjects miss a rating, on every row
    resampled = frame["n_resamples"].dropna()
    assert len(resampled)
    assert (resampled == 200).all()
    assert ",200," in out
    assert ",200.0," not in out


def test_compare_of_error_rate_tests_labels_its_columns():
    ag = irr.Agreement.from_frame(irr.datasets.load("anxiety"))
    family = ag.error_rate_test(0.5, reference="rater1", tolerance=1)
    text = irr.compare(*family.results).as_text()
    header = next(ln for ln in text.splitlines() if "estimate" in ln)
    # the statistic is the count of errors and the p-value the exact binomial one; the
    # interval is one-sided (greater), so its ends are not the 2.5% and 97.5% points
    assert header.split() == ["estimate", "std", "err", "errors", "p-value", "[lower", "upper]"]
    row = next(ln for ln in text.splitlines() if ln.startswith("Error rate (rater2 vs rater1)"))
    # rater2 differs from rater1 by more than 1 on 7 of the 20 anxiety subjects
    assert row.split()[7] == "7"
    assert family.results[0].errors == 7
