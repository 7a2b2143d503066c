"""`irr plan ...`: sample size and power from the command line (same numbers as irr.plan)."""

import io
import json

import pandas as pd
import pytest

import irr
from tests.support.cli_runner import cli


def test_plan_kappa_text():
    code, out, err = cli("plan", "kappa", "--kappa0", "0.4", "--kappa1", "0.6", "--raters",
                         "3", "--categories", "4", "--power", "0.8")
    assert code == 0, err
    expected = irr.plan.kappa(0.4, 0.6, raters=3, categories=4, power=0.8)
    assert "Subjects for a test of kappa" in out
    assert expected.report() in out


def test_plan_kappa_grid_csv():
    code, out, err = cli("plan", "kappa", "--kappa0", "0.4", "--kappa1", "0.7",
                         "--prevalence", "0.5", "0.2", "--format", "csv")
    assert code == 0, err
    frame = pd.read_csv(io.StringIO(out))
    assert frame["n"].tolist() == [74, 107]  # kappaSize PowerBinary, as in tests/reference


def test_plan_error_rate_json():
    code, out, err = cli("plan", "error-rate", "--epsilon0", "0.1", "--epsilon1", "0.05",
                         "--format", "json")
    assert code == 0, err
    rows = json.loads(out)
    res = irr.plan.error_rate(0.1, 0.05)
    assert rows[0]["n"] == int(res.n)
    assert rows[0]["n_stable"] == int(res.table["n_stable"].iloc[0])


@pytest.mark.parametrize(
    ("args", "expected"),
    [(("icc", "--rho0", "0.5", "--rho1", "0.75", "--raters", "3", "--alternative",
       "greater"), 24),
     (("icc-interval", "--rho", "0.85", "--width", "0.2", "--raters", "4"), 20),
     (("ccc", "--ccc0", "0.8", "--ccc1", "0.9"), lambda: int(irr.plan.concordance(0.8, 0.9).n)),
     (("limits", "--bias", "0.5", "--sd", "2.5", "--delta", "8"),
      lambda: int(irr.plan.limits_of_agreement(0.5, 2.5, 8.0).n)),
     (("kappa-interval", "--kappa", "0.6", "--lower", "0.4", "--upper", "0.8",
       "--prevalence", "0.3"),
      lambda: int(irr.plan.kappa_interval(0.6, 0.4, 0.8, prevalence=0.3).n))],
)
def test_plan_other_targets(args, expected):
    # the API's answers are computed in the test (a callable), not when the module is
    # collected: every xdist worker collects every module
    code, out, err = cli("plan", *args, "--format", "csv")
    assert code == 0, err
    expected = expected() if callable(expected) else expected
    assert pd.read_csv(io.StringIO(out))["n"].tolist() == [expected]


@pytest.mark.parametrize(
    ("args", "message"),
    [(("kappa", "--kappa0", "0.4", "--kappa1", "1.6"), "--kappa1 must be in [0, 1)"),
     (("kappa", "--kappa0", "0.4", "--kappa1", "0.6", "--proportions", "0.5", "0.6"),
      "--proportions must be"),
     (("kappa", "--kappa0", "0.4", "--kappa1", "0.6", "--power", "0.8", "--n", "50"),
      "not both"),
     (("error-rate", "--epsilon0", "0.1", "--epsilon1", "0.1"), "--epsilon1 must differ"),
     (("icc", "--rho0", "0.5", "--rho1", "0.7", "--raters", "1"), "--raters must be"),
     (("limits", "--bias", "1", "--sd", "2.5", "--delta", "5"), "--delta = 5 is within")],
)
def test_plan_errors_are_one_line_naming_the_flag(args, message):
    code, out, err = cli("plan", *args)
    assert code == 1
    assert out == ""
    assert err.startswith("irr: error: ")
    assert message in err
    assert err.count("\n") == 1


def test_plan_help_has_description_and_examples(capsys):
    from irr.cli import main

    with pytest.raises(SystemExit) as stop:
        main(["plan", "kappa", "--help"])
    assert stop.value.code == 0
    text = capsys.readouterr().out
    assert "goodness-of-fit method" in text
    assert "examples:\n  irr plan kappa --kappa0 0.4 --kappa1 0.6 --raters 3" in text
