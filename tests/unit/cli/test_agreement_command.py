"""``irr agreement``, the command of continuous agreement: every format, the same numbers
as the Python API, replicates, bad flags, --plot. (``irr.report(options=)``, ``irr.by`` and
``df.irr`` on measurements: tests/unit/test_pandas_measurements.py.)

Published values: Bland & Altman (1986), Lancet i:307-310, p. 308: the peak expiratory
flow of 17 subjects by the Wright and the mini Wright meter (first readings, the bundled
``pef`` data) differ by -2.1 l/min on average with SD 38.8 l/min, limits of agreement
(mean -/+ 2 SD) -79.7 and 75.5 l/min.
"""

import contextlib
import io
import json
import math

import numpy as np
import pandas as pd
import pytest

import irr
import irr.cli
from tests.support.cli_runner import cli

PEF = ["--dataset", "pef"]
PAIR = ["--raters", "wright_1", "mini_1"]


def _usage(*args):
    """``irr ARGS`` whose argparse usage error exits: (status, stdout, stderr)."""
    out, err = io.StringIO(), io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        try:
            code = irr.cli.main(list(args))
        except SystemExit as exc:
            code = exc.code
    return code, out.getvalue(), err.getvalue()


def _json(*args):
    code, out, err = cli("agreement", *args, "--format", "json")
    assert code == 0, err
    return json.loads(out)


def _by_name(doc):
    """Every row (parts included) of a JSON report by coefficient name."""
    rows = {}
    for entry in doc["results"]:
        rows[entry["coefficient"]] = entry
        for part in entry.get("parts", ()):
            rows.setdefault(part["coefficient"], part)
    return rows


def _pef_pair():
    return irr.Agreement.from_frame(irr.datasets.load("pef"), ["wright_1", "mini_1"],
                                    continuous=True)


def _pef_long():
    """The pef data in long form: two readings (replicates) by each meter."""
    pef = irr.datasets.load("pef")
    long = pef.melt(id_vars="subject", var_name="column", value_name="pef")
    long["meter"] = long["column"].str.split("_").str[0]
    long["reading"] = long["column"].str.split("_").str[1].astype(int)
    return long[["subject", "meter", "reading", "pef"]]


def _clinic_csv(tmp_path):
    """A clinician's file: patient ids, two devices, one-decimal readings, a few missing."""
    rng = np.random.default_rng(18)
    true = rng.normal(120, 15, 30)
    df = pd.DataFrame({"patient_id": [f"P{i:03d}" for i in range(1, 31)],
                       "cuff": np.round(true + rng.normal(0, 4, 30), 1),
                       "wrist": np.round(true * 1.02 + 1 + rng.normal(0, 5, 30), 1)})
    df.loc[[4, 11], "wrist"] = np.nan
    df.loc[20, "cuff"] = np.nan
    path = tmp_path / "bp.csv"
    df.to_csv(path, index=False)
    return path, df


# -- published values through the command line -------------------------------------------
def test_pef_limits_match_bland_altman_1986():
    rows = _by_name(_json(*PEF, *PAIR, "--coverage", "0.9545"))  # z = 2.000: mean +/- 2 SD
    assert rows["Bias (wright_1 - mini_1)"]["estimate"] == pytest.approx(-2.1, abs=0.05)
    lower = rows["Lower limit (95.45%)"]["estimate"]
    upper = rows["Upper limit (95.45%)"]["estimate"]
    assert (upper - lower) / 4 == pytest.approx(38.8, abs=0.05)  # the SD
    assert lower == pytest.approx(-79.7, abs=0.1)
    assert upper == pytest.approx(75.5, abs=0.15)  # the paper: -2.1 + 2 x 38.8 (rounded)


# -- the same numbers as the Python API --------------------------------------------------
def test_default_statistics_equal_the_api():
    doc = _json(*PEF, *PAIR)
    assert doc["statistics"] == ["loa", "ccc", "sem"]
    rows = _by_name(doc)
    ag = _pef_pair()
    loa, ccc, sem = ag.limits_of_agreement(), ag.concordance(), ag.measurement_error()
    for part in [*loa.parts(), *ccc.parts(), *sem.parts()]:
        row = rows[part.coefficient]
        for key, want in (("estimate", part.estimate), ("ci_low", part.ci.low),
                          ("ci_high", part.ci.high)):
            got = row[key]
            assert (got is None and math.isnan(want)) or got == pytest.approx(want, rel=1e-12)
    assert rows["Lower limit (95%)"]["estimate"] == pytest.approx(loa.lower, rel=1e-12)
    assert rows["Upper limit (95%)"]["ci_high"] == pytest.approx(loa.upper_ci.high, rel=1e-12)


def test_options_reach_the_statistics():
    args = [*PEF, *PAIR, "--statistics", "loa,tdi,cp,deming,passing_bablok,sem",
            "--coverage", "0.8", "--loa-method", "nonparametric", "--scale", "percent",
            "--units", "l/min", "--tdi-proportion", "0.8", "--delta", "40",
            "--confidence-level", "0.9"]
    rows = _by_name(_json(*args))
    ag = _pef_pair()
    loa = ag.limits_of_agreement(coverage=0.8, method="nonparametric", scale="percent",
                                 units="l/min", confidence_level=0.9)
    tdi = ag.total_deviation_index(0.8, confidence_level=0.9)
    cp = ag.coverage_probability(40, confidence_level=0.9)
    deming, pb = ag.deming(confidence_level=0.9), ag.passing_bablok(confidence_level=0.9)
    sem = ag.measurement_error(units="l/min", confidence_level=0.9)
    for result in (loa, tdi, cp, deming, pb, sem):
        for part in result.parts():
            assert rows[part.coefficient]["estimate"] == pytest.approx(part.estimate,
                                                                       rel=1e-12)
            assert rows[part.coefficient]["confidence_level"] == 0.9
    assert any(k.startswith("Median difference") for k in rows)
    # the sentence carries the units
    code, out, _ = cli("agreement", *args)
    assert code == 0
    assert "l/min" in out


def test_all_raters_overall_ccc_icc_sem():
    doc = _json(*PEF, "--all-raters")
    assert doc["statistics"] == ["ccc", "icc_vc", "sem"]
    assert doc["data"]["n_raters"] == 4
    pef = irr.datasets.load("pef")
    ag = irr.Agreement.from_frame(pef, list(pef.columns[1:]), continuous=True)
    rows = _by_name(doc)
    assert rows["Overall CCC"]["estimate"] == pytest.approx(ag.concordance().estimate,
                                                            rel=1e-12)
    assert rows["ICC(2,1)"]["estimate"] == pytest.approx(ag.icc_components().estimate,
                                                         rel=1e-12)
    code, _, err = cli("agreement", *PEF, "--all-raters", "--statistics", "loa")
    assert code == 1
    assert "loa does not apply" in err


def test_bootstrap_options_and_seed():
    args = [*PEF, *PAIR, "--statistics", "ccc,tdi", "--ci", "percentile",
            "--n-resamples", "499", "--seed", "3"]
    rows = _by_name(_json(*args))
    ag = _pef_pair()
    ccc = ag.concordance(ci="percentile", n_resamples=499, rng=3)
    assert rows["Lin's CCC"]["ci_low"] == pytest.approx(ccc.ci.low, rel=1e-12)
    assert rows["Lin's CCC"]["seed"] == 3
    other = _by_name(_json(*args[:-1], "4"))
    assert other["Lin's CCC"]["ci_low"] != rows["Lin's CCC"]["ci_low"]


# -- every format ----------------------------------------------------------------------
@pytest.mark.parametrize("fmt", ["text", "markdown", "html", "latex", "csv", "json"])
def test_every_format_shows_the_limits(fmt):
    code, out, err = cli("agreement", *PEF, *PAIR, "--format", fmt, "--no-figures")
    assert code == 0, err
    loa = _pef_pair().limits_of_agreement()
    shown = {"text": "%.4f", "latex": "%.4f", "csv": "%r", "json": "%r"}.get(fmt, "%.3f")
    for value in (loa.estimate, loa.lower, loa.upper):
        assert shown % value in out, (fmt, shown % value)
    assert ("Lower limit (95\\%)" if fmt == "latex" else "Lower limit (95%)") in out


def test_csv_rows_equal_the_api():
    _code, out, _ = cli("agreement", *PEF, *PAIR, "--format", "csv")
    table = pd.read_csv(io.StringIO(out)).set_index("coefficient")
    ag = _pef_pair()
    api = pd.concat([ag.limits_of_agreement().to_frame(), ag.concordance().to_frame(),
                     ag.measurement_error().to_frame()])
    np.testing.assert_allclose(table.loc[api.index, "estimate"], api["estimate"], rtol=1e-12)
    np.testing.assert_allclose(table.loc[api.index, "ci_low"], api["ci_low"], rtol=1e-12)


@pytest.mark.parametrize("fmt", ["text", "html", "json"])
def test_output_is_reproducible(fmt):
    # the same bytes twice, BCa intervals included: 199 resamples draw and jackknife as 999
    # do (the numbers themselves are asserted elsewhere), at a fifth of the bootstrap
    args = ["agreement", *PEF, *PAIR, "--statistics", "loa,ccc,tdi", "--ci", "bca",
            "--n-resamples", "199", "--format", fmt]
    first, second = cli(*args), cli(*args)
    assert first[0] == 0
    assert first == second


# -- replicates (long data) ------------------------------------------------------------
def test_long_data_with_replicates(tmp_path):
    path = tmp_path / "pef_long.csv"
    long = _pef_long()
    long.to_csv(path, index=False)
    source = [str(path), "--subject", "subject", "--rater", "meter", "--rating", "pef",
              "--replicate", "reading"]
    code, _, err = cli("agreement", *source)
    assert code == 1
    assert "--replicates constant" in err
    assert "--replicates varying" in err
    rows = _by_name(_json(*source, "--replicates", "constant"))
    ag = irr.Agreement.from_long(long, subject="subject", rater="meter", rating="pef",
                                 replicate="reading", continuous=True)
    loa = ag.limits_of_agreement(replicates="constant")
    assert rows["Lower limit (95%)"]["estimate"] == pytest.approx(loa.lower, rel=1e-12)
    assert rows["Lower limit (95%)"]["ci_method"] == loa.lower_ci.method
    varying = _by_name(_json(*source, "--replicates", "varying"))
    want = ag.limits_of_agreement(replicates="varying").upper
    assert varying["Upper limit (95%)"]["estimate"] == pytest.approx(want, rel=1e-12)
    sem = ag.measurement_error()
    assert rows["Within-subject SD (pooled)"]["estimate"] == pytest.approx(
        sem.quantity("s_w").estimate)
    for meter in ("wright", "mini"):  # and each meter's own
        assert rows[f"Within-subject SD ({meter})"]["estimate"] == pytest.approx(
            sem.quantity("s_w", meter).estimate)
    # replicates need the long form; the regression method is not available with them
    code, _, err = cli("agreement", *PEF, "--replicate", "reading")
    assert code == 1
    assert "--replicate" in err
    code, _, err = cli("agreement", *source, "--replicates", "constant", "--statistics",
                       "loa", "--loa-method", "regression")
    assert code == 1
    assert "--loa-method parametric" in err


def test_long_data_choose_two_of_more_raters(tmp_path):
    pef = irr.datasets.load("pef")
    long = pef.melt(id_vars="subject", var_name="meter", value_name="pef")
    path = tmp_path / "long.csv"
    long.to_csv(path, index=False)
    source = [str(path), "--subject", "subject", "--rater", "meter", "--rating", "pef"]
    code, out, err = cli("agreement", *source, "--format", "json")
    doc = json.loads(out)
    assert doc["data"]["raters"] == ["wright_1", "wright_2"]
    assert any("first two raters" in n for n in doc["notes"])
    chosen = _json(*source, "--raters", "mini_1", "wright_1")
    assert chosen["data"]["raters"] == ["mini_1", "wright_1"]  # in the order given
    ag = irr.Agreement.from_frame(pef, ["wright_1", "mini_1"], continuous=True)
    bias = _by_name(chosen)["Bias (mini_1 - wright_1)"]["estimate"]
    assert bias == pytest.approx(-ag.limits_of_agreement().estimate, rel=1e-12)
    code, _, err = cli("agreement", *source, "--raters", "wright_1", "peak")
    assert code == 1
    assert "--raters" in err
    assert "'peak'" in err


# -- a clinician's file ----------------------------------------------------------------
def test_clinic_file_with_ids_missing_readings_and_decimals(tmp_path):
    path, df = _clinic_csv(tmp_path)
    code, out, err = cli("agreement", str(path), "--units", "mmHg")
    assert code == 0, err
    assert "Not raters:" in out
    assert "patient_id" in out
    assert "Missing ratings:" in out
    assert "3 in 3 subjects" in out
    assert "27 of 30 subjects used" in out
    assert "mmHg" in out
    ag = irr.Agreement.from_frame(df, ["cuff", "wrist"], continuous=True)
    loa = ag.limits_of_agreement()
    assert f"{loa.lower:.4f}" in out
    assert loa.n_subjects == 27
    # the id column is never a method; --id says so without a note
    code, out2, _ = cli("agreement", str(path), "--id", "patient_id", "--units", "mmHg")
    assert code == 0
    assert "set aside as an identifier" not in out2


# -- bad input names the flag ----------------------------------------------------------
@pytest.mark.parametrize(("args", "status", "flag"), [
    (["--coverage", "95"], 2, "--coverage"),
    (["--coverage", "0"], 2, "--coverage"),
    (["--tdi-proportion", "1.5"], 2, "--tdi-proportion"),
    (["--delta", "-3"], 2, "--delta"),
    (["--loa-method", "robust"], 2, "--loa-method"),
    (["--scale", "log"], 2, "--scale"),
    (["--replicates", "some"], 2, "--replicates"),
    (["--ci", "wald"], 2, "--ci"),
    (["--statistics", "loa,kappa"], 1, "--statistics"),
    (["--statistics", ","], 1, "--statistics"),
    (["--statistics", "cp"], 1, "--delta"),
    (["--confidence-level", "95"], 1, "--confidence-level"),
    (["--plot", "figure.jpg"], 1, "--plot"),
    (["--all-raters", "--plot", "x.png"], 1, "--plot"),
    (["--raters", "wright_1"], 1, "--raters"),
    (["--raters", "wright_1", "peak"], 1, "'peak'"),
    (["--all-raters", "--raters", "wright_1", "mini_1"], 1, "--all-raters"),
    (["--scale", "ratio", "--statistics", "loa", "--confidence-level", "1.2"], 1,
     "--confidence-level"),
])
def test_bad_input_names_the_flag(args, status, flag):
    code, out, err = _usage("agreement", *PEF, *args)
    assert code == status
    assert out == ""
    assert flag in err.splitlines()[-1], err


def test_text_ratings_are_refused(tmp_path):
    path = tmp_path / "labels.csv"
    pd.DataFrame({"a": ["low", "high", "low"], "b": ["low", "low", "high"]}).to_csv(
        path, index=False)
    code, _, err = cli("agreement", str(path))
    assert code == 1
    assert err.startswith("irr: error:")
    assert len(err.splitlines()) == 1


# -- the Bland-Altman figure -------------------------------------------------------------
def test_plot_is_written_reproducibly_and_never_over_a_file(tmp_path):
    pytest.importorskip("matplotlib")
    svg = tmp_path / "ba.svg"
    code, _out, err = cli("agreement", *PEF, *PAIR, "--plot", str(svg))
    assert code == 0, err
    first = svg.read_bytes()
    assert first.startswith(b"<?xml")
    assert b"</svg>" in first
    code, _, err = cli("agreement", *PEF, *PAIR, "--plot", str(svg))
    assert code == 1
    assert "--plot" in err
    assert "--force" in err
    code, _, err = cli("agreement", *PEF, *PAIR, "--plot", str(svg), "--force")
    assert code == 0
    assert svg.read_bytes() == first
    for suffix, magic in ((".png", b"\x89PNG"), (".pdf", b"%PDF")):
        one, two = tmp_path / f"one{suffix}", tmp_path / f"two{suffix}"
        assert cli("agreement", *PEF, *PAIR, "--plot", str(one))[0] == 0
        assert cli("agreement", *PEF, *PAIR, "--plot", str(two))[0] == 0
        assert one.read_bytes().startswith(magic)
        assert one.read_bytes() == two.read_bytes()
    # never over the input, not even with --force; not the --output file either
    path, _ = _clinic_csv(tmp_path)
    before = path.read_bytes()
    code, _, err = cli("agreement", str(path), "--plot", str(path), "--force")
    assert code == 1
    assert "--plot" in err
    assert path.read_bytes() == before
    code, _, err = cli("agreement", *PEF, "--plot", str(tmp_path / "same.svg"),
                       "--output", str(tmp_path / "same.svg"))
    assert code == 1
    assert "same file" in err
    assert not (tmp_path / "same.svg").exists()


def test_plot_uses_the_chosen_limits(tmp_path):
    pytest.importorskip("matplotlib")
    svg = tmp_path / "regression.svg"
    code, _, err = cli("agreement", *PEF, *PAIR, "--statistics", "ccc", "--loa-method",
                       "regression", "--plot", str(svg))
    assert code == 0, err
    plain = tmp_path / "plain.svg"
    cli("agreement", *PEF, *PAIR, "--statistics", "ccc", "--plot", str(plain))
    assert svg.read_bytes() != plain.read_bytes()


def test_html_report_has_the_bland_altman_figure():
    pytest.importorskip("matplotlib")
    code, out, _ = cli("agreement", *PEF, *PAIR, "--format", "html")
    assert code == 0
    assert "Figure 1. Bland-Altman plot: the differences wright_1 - mini_1" in out
    # the forest holds the coefficients only (the apostrophe escaped, as every quote)
    assert "Estimates of Lin&#x27;s CCC" in out


def test_help_has_description_and_examples():
    buffer = io.StringIO()
    with contextlib.redirect_stdout(buffer), pytest.raises(SystemExit):
        irr.cli.main(["agreement", "--help"])
    text = buffer.getvalue()
    assert "Bland-Altman limits of agreement" in text
    assert "examples:\n  irr agreement --dataset pef" in text
    for flag in ("--coverage", "--loa-method", "--scale", "--replicates", "--replicate",
                 "--units", "--statistics", "--plot", "--all-raters", "--delta"):
        assert flag in text


def test_sas_missing_readings_need_na_values(tmp_path):
    path, _ = _clinic_csv(tmp_path)
    lines = path.read_text().splitlines()
    fields = lines[1].split(",")
    fields[1] = "."  # P001's cuff reading missing, as SAS writes it
    lines[1] = ",".join(fields)
    dotted = tmp_path / "dotted.csv"
    dotted.write_text("\n".join(lines) + "\n")
    code, _, err = cli("agreement", str(dotted))
    assert code == 1
    assert "--na-values '.'" in err
    assert "--categories" not in err  # no such flag in this command
    code, out, _ = cli("agreement", str(dotted), "--na-values", ".")
    assert code == 0
    assert "4 in 4 subjects" in out


def test_stdin_output_and_plot_together(tmp_path):
    pytest.importorskip("matplotlib")
    pef = irr.datasets.load("pef")
    text = pef.to_csv(index=False)
    report, figure = tmp_path / "report.md", tmp_path / "ba.svg"
    code, out, err = cli("agreement", "-", "--id", "subject", *PAIR, "--format", "markdown",
                         "--output", str(report), "--plot", str(figure), stdin=text)
    assert code == 0, err
    assert out == ""
    assert "| Lower limit (95%) | 17 | -78.096 |" in report.read_text()
    assert figure.read_bytes().startswith(b"<?xml")
