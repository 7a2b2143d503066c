"""The inference options of the Python API on the command line: --distribution, --sampling,
--population, --missing (and --ci wald for Krippendorff's alpha).

Every number the command prints is compared with the same Agreement method called with the
same option (to 1e-12), and with the default, to show the flag changes it.
"""

import contextlib
import inspect
import io
import json
import math
import re

import numpy as np
import pandas as pd
import pytest

import irr
from irr import cli
from irr.agreement import Agreement
from irr.inference.options import InferenceOptions
from tests.support.cli_runner import cli as run

TOL = 1e-12
NUMBERS = ("estimate", "se", "statistic", "pvalue", "ci_low", "ci_high")


@pytest.fixture(scope="module")
def ratings_csv(tmp_path_factory):
    """A realistic file: patient ids, four raters, grades 1-4 with missing ratings."""
    rng = np.random.default_rng(20)
    n = 40
    truth = rng.integers(1, 5, n)
    grades = {}
    for rater in ("ana", "ben", "chloe", "dev"):
        noise = rng.choice([-1, 0, 0, 0, 1], n)
        grades[rater] = np.clip(truth + noise, 1, 4).astype(float)
        grades[rater][rng.random(n) < 0.1] = np.nan
    frame = pd.DataFrame({"patient": [f"P{i:03d}" for i in range(n)], **grades})
    path = tmp_path_factory.mktemp("ratings") / "grades.csv"
    frame.to_csv(path, index=False)
    return str(path), frame


def _usage(*args):
    """``irr ARGS`` that stops in argparse: (exit status, stdout, stderr)."""
    out, err = io.StringIO(), io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err), \
            pytest.raises(SystemExit) as stop:
        cli.main(list(args))
    return stop.value.code, out.getvalue(), err.getvalue()


def _json(*args):
    code, out, err = run(*args, "--format", "json")
    assert code == 0, err
    return json.loads(out)


def _calls(ag, options, alpha_options, share=True):
    """The API result of every row of ``irr multi``, by its coefficient name (`share`: with
    the share of subjects on whom all raters agree)."""
    return {
        "Percent agreement (pairwise)": ag.percent_agreement(**options),
        **({"Percent agreement (all raters)": ag.percent_agreement(definition="all", **options)}
           if share else {}),
        "Fleiss' kappa": ag.fleiss_kappa(**options),
        "Conger's kappa": ag.conger_kappa(**options),
        "Light's kappa": ag.light_kappa(**options),
        "Gwet's AC1": ag.gwet_ac(**options),
        "Brennan-Prediger": ag.brennan_prediger(**options),
        **{f"Krippendorff's alpha ({level})": ag.krippendorff_alpha(level, **alpha_options)
           for level in ("nominal", "ordinal", "interval")},
    }


def _same(row, result):
    expected = result.to_dict()
    for key in NUMBERS:
        want, got = expected[key], row[key]
        if want is None or (isinstance(want, float) and math.isnan(want)):
            assert got is None, (row["coefficient"], key)
        else:
            assert got == pytest.approx(want, rel=TOL, abs=TOL), (row["coefficient"], key)


def _differs(rows, default_rows, key):
    return any(r[key] is not None and d[key] is not None and abs(r[key] - d[key]) > 1e-9
               for r, d in zip(rows, default_rows, strict=True))


# -- each flag gives the API's numbers ----------------------------------------------------
@pytest.mark.parametrize(("flags", "options", "alpha_options"), [
    (["--distribution", "t"], {"distribution": "t"}, {"distribution": "t"}),
    (["--sampling", "both"], {"sampling": "both"}, {"sampling": "both"}),
    (["--sampling", "raters"], {"sampling": "raters"}, {"sampling": "raters"}),
    (["--population", "120"], {"population": 120}, {"population": 120}),
    (["--missing", "listwise"], {"missing": "listwise"}, {}),
    (["--distribution", "t", "--sampling", "both", "--population", "60",
      "--missing", "listwise"],
     {"distribution": "t", "sampling": "both", "population": 60, "missing": "listwise"},
     {"distribution": "t", "sampling": "both", "population": 60}),
])
def test_multi_flags_give_the_api_numbers(ratings_csv, flags, options, alpha_options):
    path, frame = ratings_csv
    got = _json("multi", path, "--id", "patient", "--ci", "wald", *flags)
    default = _json("multi", path, "--id", "patient", "--ci", "wald")
    ag = Agreement.from_frame(frame, id="patient")
    ci = {"ci": "wald"}
    over_raters = options.get("sampling", "subjects") != "subjects"
    expected = _calls(ag, {**ci, **options}, {**ci, **alpha_options}, share=not over_raters)
    rows = {r["coefficient"]: r for r in got["results"]}
    computed = set(rows)
    if over_raters:
        # a share of subjects has no SE over raters: noted, not computed (as the API raises)
        with pytest.raises(ValueError, match="sampling"):
            ag.percent_agreement(definition="all", **ci, **options)
        assert any(n.startswith("percent_all not computed: "
                                f"--sampling {options['sampling']}") for n in got["notes"])
    assert computed == set(expected)
    for name, result in expected.items():
        _same(rows[name], result)
    shared = [r for r in default["results"] if r["coefficient"] in computed]
    assert _differs(got["results"], shared, "ci_low" if "--missing" not in flags else "estimate")


def test_alpha_gets_the_wald_interval_of_ci_wald(ratings_csv):
    path, frame = ratings_csv
    ag = Agreement.from_frame(frame, id="patient")
    got = _json("multi", path, "--id", "patient", "--ci", "wald", "--distribution", "t")
    rows = {r["coefficient"]: r for r in got["results"]}
    alpha = ag.krippendorff_alpha("nominal", ci="wald", distribution="t")
    row = rows["Krippendorff's alpha (nominal)"]
    _same(row, alpha)
    assert row["ci_method"] == "wald"
    assert "t quantiles on" in row["ci_note"]
    # the interval is estimate +- t(0.975, n - 1) SE (clipped at 1), by hand
    from scipy.stats import t
    half = t.ppf(0.975, alpha.design_df) * alpha.se
    assert row["ci_low"] == pytest.approx(alpha.estimate - half, abs=TOL)
    pairable = int((frame[["ana", "ben", "chloe", "dev"]].notna().sum(axis=1) >= 2).sum())
    assert alpha.design_df == pairable - 1


def test_kappa_distribution_and_population_give_the_api_numbers():
    got = _json("kappa", "--dataset", "vision", "--distribution", "t", "--population", "20000")
    ag = Agreement.from_frame(irr.datasets.load("vision"), raters=["r.eye", "l.eye"])
    options = {"distribution": "t", "population": 20000}
    expected = {
        "Percent agreement": ag.percent_agreement(**options),
        "Cohen's kappa": ag.kappa(**options),
        "Weighted kappa (linear)": ag.kappa(weights="linear", **options),
        "Weighted kappa (quadratic)": ag.kappa(weights="quadratic", **options),
    }
    rows = {r["coefficient"]: r for r in got["results"]}
    assert set(rows) == set(expected)
    for name, result in expected.items():
        _same(rows[name], result)
    kappa = expected["Cohen's kappa"]
    assert kappa.se == pytest.approx(ag.kappa().se * math.sqrt(1 - 7477 / 20000), rel=1e-12)
    assert got["info"]["Distribution"] == "t"
    assert got["info"]["Population N"] == "20000"


def test_report_with_the_t_distribution(ratings_csv):
    path, frame = ratings_csv
    got = _json("report", path, "--id", "patient", "--statistics", "fleiss,gwet,alpha,icc",
                "--ci", "wald", "--distribution", "t")
    ag = Agreement.from_frame(frame, id="patient")
    rep = irr.report(frame, "fleiss,gwet,alpha,icc", id="patient", ci="wald",
                     inference={"distribution": "t"}, figures=False)
    expected = {r.coefficient: r for r in rep.results}
    assert expected["Fleiss' kappa"].pvalue == ag.fleiss_kappa(distribution="t").pvalue
    rows = {r["coefficient"]: r for r in got["results"]}
    assert set(rows) == set(expected)
    for name, result in expected.items():
        _same(rows[name], result)
    # and, independently of irr.report, the Agreement methods themselves
    _same(rows["Fleiss' kappa"], ag.fleiss_kappa(ci="wald", distribution="t"))
    _same(rows["Gwet's AC1"], ag.gwet_ac(ci="wald", distribution="t"))
    alpha = rows["Krippendorff's alpha (ordinal)"]
    _same(alpha, ag.krippendorff_alpha("ordinal", ci="wald", distribution="t"))
    assert alpha["ci_method"] == "wald"
    _same(rows["ICC(2,1)"], ag.icc("twoway", "agreement", "single"))
    fleiss = rows["Fleiss' kappa"]
    df = ag.fleiss_kappa(distribution="t").design_df
    assert df == ag.n_subjects - 1
    from scipy.stats import t
    assert fleiss["pvalue"] == pytest.approx(2 * t.sf(abs(fleiss["statistic"]), df), rel=1e-12)
    methods = got["methods"]
    assert ("used the t distribution rather than the normal distribution, with n − 1 degrees "
            "of freedom") in methods
    assert "Tests (and Wald intervals) of Fleiss' κ" in methods
    assert f": {df:g} for Fleiss' κ" in methods
    assert "ICC" not in methods.split("t distribution")[0].rsplit(".", 1)[-1]
    assert any("t quantiles on" in s for s in got["report"] if "κ" in s)
    assert "ICC(2,1): --distribution does not apply; not used." in got["notes"]
    code, out, _ = run("report", path, "--id", "patient", "--statistics", "icc",
                       "--distribution", "t", "--population", "500")
    assert code == 0
    assert "ICC(2,1): --distribution and --population do not apply; not used." in out


def test_report_methods_name_the_finite_population_correction():
    got = _json("report", "--dataset", "cac_raw4raters", "--statistics", "fleiss,alpha,icc",
                "--population", "50", "--n-resamples", "200")
    methods = got["methods"]
    # the Wald interval's clause names its corrected SE; the bootstrap's test gets a sentence
    assert ("Wald intervals (on the SE corrected for a finite population of N = 50)"
            in methods)
    assert ("The standard errors (and tests) of Krippendorff's ordinal α were multiplied by "
            "the finite-population correction √(1 − n/N), N = 50 subjects in the population; "
            "their bootstrap intervals carry no correction.") in methods
    assert "t distribution" not in methods
    assert "ICC(2,1): --population does not apply; not used." in got["notes"]
    ag = Agreement.from_frame(irr.datasets.load("cac_raw4raters"))
    alpha = ag.krippendorff_alpha("ordinal", population=50, n_resamples=200)
    row = next(r for r in got["results"] if r["coefficient"].startswith("Krippendorff"))
    _same(row, alpha)
    assert row["se"] != pytest.approx(ag.krippendorff_alpha("ordinal", ci="wald").se)


def test_report_missing_listwise_and_by_group(ratings_csv, tmp_path):
    _, frame = ratings_csv
    frame = frame.assign(site=["north", "south"] * (len(frame) // 2))
    grouped = tmp_path / "sites.csv"
    frame.to_csv(grouped, index=False)
    got = _json("report", str(grouped), "--id", "patient", "--statistics", "fleiss",
                "--missing", "listwise", "--by", "site")
    ag = Agreement.from_frame(frame, id=["patient", "site"])
    assert got["results"][0]["estimate"] == pytest.approx(
        ag.fleiss_kappa(missing="listwise").estimate, abs=TOL)
    north = frame[frame.site == "north"]
    want = Agreement.from_frame(north, id=["patient", "site"]).fleiss_kappa(missing="listwise")
    group = next(g for g in got["groups"] if g["site"] == "north")
    # the groups' table is written by pandas' to_json, with 10 significant digits
    assert group["estimate"] == pytest.approx(want.estimate, rel=1e-9)
    assert group["estimate"] != pytest.approx(
        Agreement.from_frame(north, id=["patient", "site"]).fleiss_kappa().estimate, rel=1e-6)


def test_header_and_csv_say_which_options_were_used(ratings_csv):
    path, _ = ratings_csv
    code, out, err = run("multi", path, "--id", "patient", "--ci", "wald", "--sampling", "both",
                         "--missing", "listwise")
    assert code == 0, err
    head = out.split("estimate")[0]
    assert re.search(r"Sampling: +both", head)
    assert re.search(r"Missing ratings used: +listwise", head)
    code, out, err = run("multi", path, "--id", "patient", "--ci", "wald",
                         "--population", "500", "--format", "csv")
    assert code == 0
    assert "irr: note: --population 500 in effect" in err


# -- options that do not apply --------------------------------------------------------------
def test_an_option_a_statistic_does_not_take_is_noted(ratings_csv):
    path, _ = ratings_csv
    got = _json("multi", path, "--id", "patient", "--ci", "wald", "--missing", "listwise")
    assert "krippendorff_alpha: --missing does not apply; not used." in got["notes"]
    rep = irr.report(irr.datasets.load("anxiety"), "icc", inference={"sampling": "both"},
                     figures=False)
    assert "ICC(2,1): `sampling` does not apply; not used." in rep.notes


def test_sampling_over_raters_with_a_bootstrap_interval_is_a_usage_error(ratings_csv):
    path, _ = ratings_csv
    for command in ("multi", "report"):
        code, out, err = _usage(command, path, "--id", "patient", "--sampling", "raters",
                                "--ci", "bca")
        assert code == 2
        assert out == ""
        assert "Traceback" not in err
        assert err.splitlines()[0].startswith(f"usage: irr {command} ")
        assert err.splitlines()[-1] == (
            f"irr {command}: error: --sampling raters gives an SE over raters, but --ci bca resamples "
            "subjects only; use --ci wald (the interval on that SE).")
    with pytest.raises(ValueError, match="resamples subjects only"):
        InferenceOptions(sampling="raters", ci="bca")


def test_sampling_over_raters_gives_alpha_its_wald_interval():
    # an SE over raters has only a Wald interval: without --ci, --sampling both gives alpha
    # that interval (its default bootstrap would be refused), as the API's ci='wald'
    got = _json("multi", "--dataset", "cac_raw4raters", "--sampling", "both",
                "--n-resamples", "200")
    notes = " ".join(got["notes"])
    assert "alpha_nominal not computed" not in notes
    assert "use --ci wald" not in notes
    row = next(r for r in got["results"] if r["coefficient"] == "Krippendorff's alpha (nominal)")
    ag = Agreement.from_frame(irr.datasets.load("cac_raw4raters"))
    _same(row, ag.krippendorff_alpha("nominal", ci="wald", sampling="both"))


@pytest.mark.parametrize(("args", "message"), [
    (["multi", "--dataset", "diagnoses", "--distribution", "student"],
     "argument --distribution: invalid choice: 'student'"),
    (["multi", "--dataset", "diagnoses", "--sampling", "everyone"],
     "argument --sampling: invalid choice: 'everyone'"),
    (["multi", "--dataset", "diagnoses", "--missing", "drop"],
     "argument --missing: invalid choice: 'drop'"),
    (["multi", "--dataset", "diagnoses", "--population", "0"],
     "argument --population: must be a positive number of subjects, e.g. 500; got '0'"),
    (["multi", "--dataset", "diagnoses", "--population", "many"],
     "argument --population: must be a positive number of subjects, e.g. 500; got 'many'"),
    (["kappa", "--dataset", "vision", "--sampling", "both"],
     "unrecognized arguments: --sampling"),
    (["kappa", "--dataset", "vision", "--missing", "listwise"],
     "unrecognized arguments: --missing"),
    (["icc", "--dataset", "anxiety", "--distribution", "t"],
     "unrecognized arguments: --distribution"),
])
def test_usage_errors(args, message):
    code, out, err = _usage(*args)
    assert code == 2
    assert out == ""
    assert "Traceback" not in err
    assert message in err.splitlines()[-1]


def test_a_population_smaller_than_the_sample_is_a_one_line_error():
    code, out, err = run("kappa", "--dataset", "vision", "--population", "100")
    assert code == 1
    assert out == ""
    assert err == ("irr: error: --population (100) must be at least the number of subjects "
                   "rated (7477).\n")


def test_an_infinite_population_is_no_correction():
    got = _json("kappa", "--dataset", "vision", "--weights", "linear", "--population", "inf")
    ag = Agreement.from_frame(irr.datasets.load("vision"), raters=["r.eye", "l.eye"])
    _same(got["results"][0], ag.kappa(weights="linear"))


# -- help and the table of flags -------------------------------------------------------------
def test_help_lists_the_flags_where_they_apply(capsys):
    helps = {}
    for command in ("kappa", "multi", "report", "icc"):
        with pytest.raises(SystemExit) as exit_:
            cli.main([command, "--help"])
        assert exit_.value.code == 0
        helps[command] = capsys.readouterr().out
    for flag in ("--distribution {normal,t}", "--sampling {subjects,raters,both}",
                 "--population N", "--missing {available,listwise}"):
        assert flag in helps["multi"]
        assert flag in helps["report"]
        assert flag not in helps["icc"]
    assert "--distribution {normal,t}" in helps["kappa"]
    assert "--population N" in helps["kappa"]
    assert "--sampling" not in helps["kappa"]
    assert "--missing" not in helps["kappa"]
    assert "t on n - 1 degrees of freedom" in " ".join(helps["multi"].split())


def test_every_flag_is_an_option_of_some_statistic_and_named_in_messages():
    parameters = {name for method in ("kappa", "fleiss_kappa", "krippendorff_alpha", "icc")
                  for name in inspect.signature(getattr(Agreement, method)).parameters}
    for option in cli.INFERENCE_FLAGS:
        assert option.name in parameters
        assert cli.FLAGS[option.name] == option.flag
        assert cli.cli_words(f"`{option.name}` is bad") == f"{option.flag} is bad"


def test_report_inference_argument_is_checked():
    data = irr.datasets.load("anxiety")
    with pytest.raises(TypeError, match="`inference` must map option names"):
        irr.report(data, inference="t", figures=False)
    with pytest.raises(ValueError, match="pass them as arguments of their own"):
        irr.report(data, inference={"ci": "wald"}, figures=False)
    with pytest.raises(ValueError, match="options no coefficient takes: \\['distributon'\\]"):
        irr.report(data, inference={"distributon": "t"}, figures=False)


def test_the_sampling_note_names_the_law_in_use():
    """With --distribution t the note of an SE over raters says t, not z (it said z)."""
    code, out, err = run("multi", "--dataset", "cac_raw4raters", "--ci", "wald",
                         "--sampling", "both", "--distribution", "t")
    assert code == 0, err
    assert "z test" not in out
    assert "the Wald interval and the test use t on n - 1 = 11 df." in out
    code, out, _ = run("multi", "--dataset", "cac_raw4raters", "--ci", "wald",
                       "--sampling", "both")
    assert "the Wald interval and the z test use it." in out


def test_one_more_flag_is_one_entry_of_the_table(monkeypatch):
    """How another option reaches the command line: one InferenceFlag (here a switch) naming
    a keyword of irr.inference.keywords.KEYWORDS (its help), parsed, passed on and shown;
    --alternative is one such entry."""
    extra = (
        cli.InferenceFlag("progress", action="store_false", spelling="--no-progress",
                          commands=("multi",)),
    )
    monkeypatch.setattr(cli, "INFERENCE_FLAGS", (*cli.INFERENCE_FLAGS, *extra))
    got = _json("multi", "--dataset", "diagnoses", "--ci", "wald", "--alternative", "greater",
                "--no-progress")
    ag = Agreement.from_frame(irr.datasets.load("diagnoses"))
    fleiss = next(r for r in got["results"] if r["coefficient"] == "Fleiss' kappa")
    _same(fleiss, ag.fleiss_kappa(alternative="greater"))
    assert fleiss["pvalue"] == pytest.approx(ag.fleiss_kappa().pvalue / 2, rel=1e-9)
    assert fleiss["alternative"] == "greater"  # each row's, not repeated in the header
    assert "Alternative" not in got["info"]
    assert got["info"]["Progress"] == "False"
    assert not any("--alternative does not apply" in note for note in got["notes"])


def test_methods_paragraph_tells_n_minus_1_from_a_clustered_design():
    from irr._sentences import methods_paragraph

    data = irr.datasets.load("vision").sample(300, random_state=1)
    ag = Agreement.from_frame(data, raters=["r.eye", "l.eye"])
    clustered = ag.kappa(cluster=np.arange(300) // 3)  # 100 clusters of 3 subjects
    t_based = ag.kappa(weights="linear", distribution="t")
    text = methods_paragraph([clustered, t_based, ag.kappa(weights="quadratic")],
                             n_subjects=300, n_raters=2, raters=["r.eye", "l.eye"],
                             n_categories=4, scale_type="ordinal", n_missing_ratings=0,
                             n_incomplete_subjects=0)
    assert ("Tests (and Wald intervals) of Cohen's κw (linear weights) used the t distribution "
            "rather than the normal distribution, with n − 1 degrees of freedom, n the "
            "subjects each coefficient used: 299 for Cohen's κw (linear weights).") in text
    assert ("Tests (and Wald intervals) of Cohen's κ used the t distribution with the "
            "clustered design's degrees of freedom, clusters minus strata: 99 for Cohen's "
            "κ.") in text
    assert "quadratic weights) used the t" not in text


# -- the options of a test value, unclipped limits and a finite rater population ----------
def test_kappa_null_alternative_and_unclipped_limits_give_the_api_numbers():
    got = _json("kappa", "--dataset", "vision", "--null", "0.5", "--alternative", "greater",
                "--no-ci-clip")
    ag = Agreement.from_frame(irr.datasets.load("vision"), raters=["r.eye", "l.eye"])
    options = {"null": 0.5, "alternative": "greater"}
    expected = {
        "Percent agreement": ag.percent_agreement(**options),
        "Cohen's kappa": ag.kappa(**options, ci_clip=False),
        "Weighted kappa (linear)": ag.kappa(weights="linear", **options, ci_clip=False),
        "Weighted kappa (quadratic)": ag.kappa(weights="quadratic", **options, ci_clip=False),
    }
    rows = {r["coefficient"]: r for r in got["results"]}
    assert set(rows) == set(expected)
    for name, result in expected.items():
        _same(rows[name], result)
    kappa = rows["Cohen's kappa"]
    # one-sided test of kappa = 0.5 on the SE under the alternative, by hand
    from scipy.stats import norm
    k = ag.kappa()
    assert kappa["statistic"] == pytest.approx((k.estimate - 0.5) / k.se, rel=1e-12)
    assert kappa["pvalue"] == pytest.approx(norm.sf((k.estimate - 0.5) / k.se), rel=1e-12)
    assert got["info"]["Wald limits"] == "not clipped"
    assert "H0 value" not in got["info"]  # the summary's own H0 line says it


def test_icc_null_gives_the_api_f_tests():
    got = _json("icc", "--dataset", "anxiety", "--null", "0.3")
    ag = Agreement.from_frame(irr.datasets.load("anxiety"))
    rows = {r["coefficient"]: r for r in got["results"]}
    for model, kind, unit, label in [("oneway", "agreement", "single", "ICC(1,1)"),
                                     ("twoway", "agreement", "single", "ICC(2,1)"),
                                     ("twoway", "consistency", "average", "ICC(3,3)")]:
        _same(rows[label], ag.icc(model, kind, unit, null=0.3))
        assert rows[label]["pvalue"] != pytest.approx(ag.icc(model, kind, unit).pvalue)


def test_multi_rater_population_gives_the_api_numbers(ratings_csv):
    path, frame = ratings_csv
    got = _json("multi", path, "--id", "patient", "--ci", "wald", "--sampling", "both",
                "--rater-population", "10")
    ag = Agreement.from_frame(frame, id="patient")
    options = {"ci": "wald", "sampling": "both", "rater_population": 10}
    rows = {r["coefficient"]: r for r in got["results"]}
    _same(rows["Fleiss' kappa"], ag.fleiss_kappa(**options))
    _same(rows["Gwet's AC1"], ag.gwet_ac(**options))
    assert rows["Fleiss' kappa"]["se"] < ag.fleiss_kappa(ci="wald", sampling="both").se
    assert got["info"]["Rater population R"] == "10"
    code, _, err = run("multi", path, "--id", "patient", "--rater-population", "2",
                       "--sampling", "both", "--ci", "wald")
    assert code == 1
    assert err.count("--rater-population (2) must be at least the number of raters") == 1


def test_methods_paragraph_says_irrcac_counts_subjects_rated_once():
    """cac_raw4raters: 12 subjects, one rated once; the t df are 12 - 1 = 11 (irrCAC's
    count), which the methods paragraph must not call the subjects the coefficient used."""
    once = irr.report(irr.datasets.load("cac_raw4raters"), "gwet", ci="wald",
                      inference={"distribution": "t"}, figures=False)
    assert once.results[0].n_paired == 11
    assert once.results[0].design_df == 11
    assert ("n the subjects rated, including those rated only once (as irrCAC counts "
            "them): 11 for Gwet's AC1") in once.methods
    complete = irr.report(irr.datasets.load("anxiety"), "gwet", ci="wald",
                          inference={"distribution": "t"}, figures=False)
    assert "n the subjects each coefficient used: 19 for Gwet's AC1" in complete.methods


def test_listwise_header_says_how_many_subjects_are_kept():
    got = _json("multi", "--dataset", "cac_raw4raters", "--missing", "listwise")
    frame = irr.datasets.load("cac_raw4raters")
    complete = int(frame.notna().all(axis=1).sum())
    assert complete == 8
    assert got["info"]["Missing ratings used"] == (
        f"listwise ({complete} subjects rated by every rater)")
    fleiss = next(r for r in got["results"] if r["coefficient"] == "Fleiss' kappa")
    assert fleiss["estimate"] == pytest.approx(
        Agreement.from_frame(frame).fleiss_kappa(missing="listwise").estimate, rel=1e-12)
