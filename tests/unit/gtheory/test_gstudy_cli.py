"""``irr gstudy`` on the command line, and ``irr.report`` / ``irr report`` pointing long
data of several facets to the G study."""

import json

import pytest

import irr
from irr.cli import main
from irr.gtheory.data import multifacet_columns

BRENNAN = ["gstudy", "--dataset", "brennan_3_2", "--object", "Person", "--facets", "Rater",
           "Task", "--nested", "Rater:Task", "--score", "Score"]


def test_text_output_has_the_tables_and_sentences(capsys):
    assert main([*BRENNAN, "--dstudy", "Rater=1,2,4", "Task=3"]) == 0
    out = capsys.readouterr().out
    for piece in ("G study: Person × (Rater:Task), p × (r:t)", "Variance components",
                  "0.4731", "2.3802", "D study: sizes of Rater × Task", "4 × 3",
                  "Eρ² = .55", "Φ = .46", "Report:"):
        assert piece in out


def test_json_output_is_the_components_and_coefficients(capsys):
    assert main([*BRENNAN, "--format", "json"]) == 0
    rows = json.loads(capsys.readouterr().out)
    by_name = {r["name"]: r for r in rows}
    assert by_name["Person"]["estimate"] == pytest.approx(0.4731, abs=5e-5)
    assert by_name["Dependability coefficient"]["estimate"] == pytest.approx(0.4637, abs=1e-4)


def test_errors_name_the_flags(capsys):
    assert main(["gstudy", "--dataset", "brennan_3_2", "--object", "Person", "--facets",
                 "Rater", "Task", "--score", "Score"]) == 1
    err = capsys.readouterr().err
    assert "declare --nested Rater:Task" in err
    assert main([*BRENNAN[:-2], "--score", "Nope"]) == 1
    assert "--score: no column 'Nope'" in capsys.readouterr().err
    assert main([*BRENNAN, "--dstudy", "Rater"]) == 1
    assert "--dstudy 'Rater': give FACET=N" in capsys.readouterr().err
    assert main([*BRENNAN[:-4], "--nested", "RaterTask", "--score", "Score"]) == 1
    assert "give CHILD:PARENT" in capsys.readouterr().err


def test_report_points_long_multifacet_data_to_the_g_study(capsys):
    df = irr.datasets.load("brennan_3_2")
    assert multifacet_columns(df) == ("Person", ["Task", "Rater"], {"Rater": "Task"},
                                      "Score")
    with pytest.raises(ValueError, match=r"irr\.gstudy\(df, score='Score', object='Person'"):
        irr.report(df, figures=False)
    assert main(["report", "--dataset", "brennan_3_2"]) == 1
    assert "irr gstudy FILE --object Person" in capsys.readouterr().err
    for name in irr.datasets.names():  # rating data are not taken for long data
        assert multifacet_columns(irr.datasets.load(name)) is None
