"""Issue 14, the command line: identifier columns (A4), continuous scores (A5), a leading
delimiter-only line (A11), SAS-style missing values (--na-values), how intervals were drawn
in every format (D18), and `irr report` on 200 random data sets, twice, byte for byte.

The CLI runs in this process (``irr.cli.main``); expected numbers come from exact
fractions or independent formulas written here, never from the code under test.
"""

import io
import json
import re
import subprocess
import sys
import warnings
from fractions import Fraction
from pathlib import Path

import numpy as np
import pandas as pd
import pytest

import irr
from irr._columns import ContinuousScoresWarning, choose_columns, looks_continuous
from tests.support.cli_runner import cli

ROOT = Path(irr.__file__).resolve().parent.parent

# Three readers of eight patients at three sites (Fleiss' kappa of the readers is computed
# below in exact fractions).
READERS = {
    "reader1": [1, 2, 3, 1, 2, 3, 1, 2],
    "reader2": [1, 2, 3, 2, 2, 2, 1, 3],
    "reader3": [2, 2, 3, 1, 2, 3, 1, 2],
}



def exact_fleiss(columns):
    """Fleiss' (1971) kappa of complete ratings in exact fractions."""
    rows = list(zip(*columns, strict=True))
    m, n = len(columns), len(rows)
    labels = sorted({x for row in rows for x in row})
    counts = [[row.count(c) for c in labels] for row in rows]
    p_bar = sum(Fraction(sum(x * x for x in c) - m, m * (m - 1)) for c in counts) / n
    p = [Fraction(sum(c[j] for c in counts), n * m) for j in range(len(labels))]
    p_e = sum(x * x for x in p)
    return (p_bar - p_e) / (1 - p_e)


def exact_cohen(a, b):
    """Cohen's kappa of two complete raters in exact fractions."""
    n = len(a)
    labels = sorted(set(a) | set(b))
    p_o = Fraction(sum(x == y for x, y in zip(a, b, strict=True)), n)
    p_e = sum(Fraction(a.count(c) * b.count(c), n * n) for c in labels)
    return (p_o - p_e) / (1 - p_e)


def icc_a1(x):
    """McGraw & Wong (1996) ICC(A,1) from the two-way ANOVA mean squares (Table 4)."""
    x = np.asarray(x, dtype=float)
    n, k = x.shape
    grand = x.mean()
    ms_r = k * ((x.mean(axis=1) - grand) ** 2).sum() / (n - 1)
    ms_c = n * ((x.mean(axis=0) - grand) ** 2).sum() / (k - 1)
    resid = x - x.mean(axis=1, keepdims=True) - x.mean(axis=0) + grand
    ms_e = (resid**2).sum() / ((n - 1) * (k - 1))
    return (ms_r - ms_e) / (ms_r + (k - 1) * ms_e + k / n * (ms_c - ms_e))


def estimate(payload, coefficient):
    return next(r["estimate"] for r in payload["results"] if r["coefficient"] == coefficient)


# -- A4: identifier columns ----------------------------------------------------------------
@pytest.fixture
def patients(tmp_path):
    frame = pd.DataFrame({"patient": range(101, 109), "site": [1, 1, 2, 2, 3, 3, 1, 2],
                          **READERS})
    path = tmp_path / "ratings.csv"
    frame.to_csv(path, index=False)
    return path


def test_multi_leaves_a_numeric_patient_id_and_site_out(patients):
    code, out, _ = cli("multi", str(patients), "--format", "json")
    assert code == 0
    payload = json.loads(out)
    assert payload["title"] == "Agreement among 3 raters"  # was 5: patient and site as raters
    # the three readers only, Fleiss (1971) in exact fractions
    assert estimate(payload, "Fleiss' kappa") == pytest.approx(
        float(exact_fleiss(list(READERS.values()))), abs=1e-12)
    assert payload["info"]["Not raters"] == "patient, site"
    assert any("'patient' (its name), 'site' (its name) set aside" in n and "--id" in n
               for n in payload["notes"])


def test_csv_output_says_on_stderr_what_was_set_aside(patients):
    code, out, err = cli("multi", str(patients), "--format", "csv")
    assert code == 0
    assert "patient" not in out
    assert err.startswith("irr: note: Columns 'patient' (its name), 'site' (its name) set aside")


def test_kappa_with_string_patient_and_site_ids(tmp_path):
    frame = pd.DataFrame({"patient": [f"P{i:02d}" for i in range(8)],
                          "site": list("AABBCCAB"), **READERS})
    path = tmp_path / "ratings.csv"
    frame.to_csv(path, index=False)
    code, out, err = cli("kappa", str(path), "--format", "json")
    assert code == 0, err  # was: "The raters use different label types (number, str)"
    payload = json.loads(out)
    assert payload["title"] == "Agreement between reader1 and reader2"
    assert estimate(payload, "Cohen's kappa") == pytest.approx(
        float(exact_cohen(READERS["reader1"], READERS["reader2"])), abs=1e-12)
    assert any("the first 2 of the rating columns" in n for n in payload["notes"])


def test_id_option_names_an_identifier_the_rule_cannot_see(tmp_path):
    # 'code' repeats its values and is numeric: nothing marks it as an identifier but --id
    frame = pd.DataFrame({"code": [1, 1, 2, 2, 3, 3, 1, 2], **READERS})
    path = tmp_path / "ratings.csv"
    frame.to_csv(path, index=False)
    for option in (["--id", "code"], ["--id", "code,"]):
        code, out, _ = cli("multi", str(path), *option, "--format", "json")
        assert code == 0
        payload = json.loads(out)
        assert estimate(payload, "Fleiss' kappa") == pytest.approx(
            float(exact_fleiss(list(READERS.values()))), abs=1e-12)
        assert payload["info"]["Not raters"] == "code"
        assert not any("set aside" in n for n in payload["notes"])  # named: no message


def test_unnamed_running_number_is_set_aside(tmp_path):
    rng = np.random.default_rng(3)
    readers = rng.integers(1, 4, (12, 3))
    frame = pd.DataFrame({"n": np.arange(12) + 1, "a": readers[:, 0], "b": readers[:, 1],
                          "c": readers[:, 2]})
    path = tmp_path / "ratings.csv"
    frame.to_csv(path, index=False)
    code, out, _ = cli("multi", str(path), "--format", "json")
    assert code == 0
    payload = json.loads(out)
    assert payload["title"] == "Agreement among 3 raters"
    expected = exact_fleiss([readers[:, j].tolist() for j in range(3)])
    assert estimate(payload, "Fleiss' kappa") == pytest.approx(float(expected), abs=1e-12)
    assert any("'n' (a distinct value in every row)" in n for n in payload["notes"])


def test_ambiguous_columns_stop_with_the_options(tmp_path):
    frame = pd.DataFrame({"a": [1, 2, 1, 2], "b": [1, 2, 2, 2], "c": list("xyxy"),
                          "d": list("xyyy")})
    path = tmp_path / "ratings.csv"
    frame.to_csv(path, index=False)
    code, out, err = cli("multi", str(path))
    assert (code, out) == (1, "")
    assert "'a': number, 'b': number, 'c': string, 'd': string" in err
    assert "--raters" in err
    assert "--id" in err


def test_unknown_id_column_is_an_error(patients):
    code, _, err = cli("multi", str(patients), "--id", "nope")
    assert code == 1
    assert "unknown column(s) ['nope']" in err


def test_from_frame_warns_about_an_identifier_and_id_silences_it():
    df = pd.DataFrame({"patient": range(101, 109), **READERS})
    expected = float(exact_fleiss(list(READERS.values())))
    with pytest.warns(UserWarning, match=r"Column 'patient' \(its name\) set aside"):
        ag = irr.Agreement.from_frame(df)
    assert ag.raters == ("reader1", "reader2", "reader3")
    assert ag.fleiss_kappa().estimate == pytest.approx(expected, abs=1e-12)
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        ag = irr.Agreement.from_frame(df, id="patient")
    assert ag.fleiss_kappa().estimate == pytest.approx(expected, abs=1e-12)


def test_id_columns_stay_available_as_clusters():
    df = pd.DataFrame({"patient": range(101, 109), "site": [1, 1, 2, 2, 3, 3, 1, 2],
                       "reader1": READERS["reader1"], "reader2": READERS["reader2"]})
    ag = irr.Agreement.from_frame(df, id=["patient", "site"])
    assert ag.raters == ("reader1", "reader2")
    by_name = ag.kappa(ci="percentile", n_resamples=50, rng=0, cluster="site")
    by_values = ag.kappa(ci="percentile", n_resamples=50, rng=0, cluster=df["site"].to_numpy())
    assert by_name.ci == by_values.ci


def test_the_rule_keeps_rating_columns_that_merely_look_unique():
    # two raters whose ratings happen to be distinct: never an identifier (too few rows)
    df = pd.DataFrame({"reader1": [1, 2, 3], "reader2": [1, 2, 2]})
    assert choose_columns(df).raters == ("reader1", "reader2")
    # continuous totals are distinct too: no column is set aside
    scores = pd.DataFrame({"a": np.arange(20) * 3 + 1, "b": np.arange(20) * 3,
                           "c": np.arange(20) * 3 + 2})
    assert choose_columns(scores).ids == ()
    # a rater's name that merely contains an identifier word is a rater's name
    named = pd.DataFrame({"site A reader": [1, 2, 1], "reader_no_2": [1, 2, 2],
                          "Patient ID": [7, 8, 9], "study_id": [1, 1, 1]})
    choice = choose_columns(named)
    assert choice.raters == ("site A reader", "reader_no_2")
    assert choice.ids == ("Patient ID", "study_id")


def test_by_sets_an_identifier_aside_too():
    df = pd.DataFrame({"patient": range(101, 117), "site": ["A"] * 8 + ["B"] * 8,
                       "reader1": READERS["reader1"] * 2, "reader2": READERS["reader2"] * 2})
    with pytest.warns(UserWarning, match=r"Column 'patient' \(its name\) set aside"):
        table = irr.by(df, "site", statistic="kappa")
    # each site holds the readers' eight subjects: Cohen's kappa in exact fractions
    expected = float(exact_cohen(READERS["reader1"], READERS["reader2"]))
    assert table["estimate"].tolist() == pytest.approx([expected, expected], abs=1e-12)


# -- A5: continuous scores -----------------------------------------------------------------
@pytest.fixture
def totals(tmp_path):
    rng = np.random.default_rng(5)
    truth = rng.normal(60, 12, 30)
    frame = pd.DataFrame({f"r{j}": np.round(truth + rng.normal(0, 4, 30), 1) for j in (1, 2, 3)})
    path = tmp_path / "totals.csv"
    frame.to_csv(path, index=False)
    return frame, path


def test_report_on_decimal_totals_gives_the_score_statistics(totals):
    frame, path = totals
    code, out, _ = cli("report", str(path), "--n-resamples", "200")
    assert code == 0
    assert "Categories:" not in out  # was "Categories: 80"
    assert "Scale:" in out
    assert "continuous, 80 values" in out
    rows = [line.split("  ")[0] for line in out.splitlines()]
    for absent in ("Cohen's kappa", "Fleiss' kappa", "Gwet's AC1", "Percent agreement",
                   "Krippendorff's alpha (nominal)"):
        assert absent not in rows
    assert "Krippendorff's alpha (interval)" in out
    assert "look like continuous scores (non-integer values" in out
    code, out, _ = cli("report", str(path), "--n-resamples", "200", "--format", "json")
    icc = next(r for r in json.loads(out)["results"] if r["coefficient"] == "ICC(2,1)")
    # McGraw & Wong ICC(A,1) from the mean squares, computed above independently
    assert icc["estimate"] == pytest.approx(icc_a1(frame.to_numpy()), abs=1e-12)


def test_kappa_on_decimal_totals_is_computed_when_asked_with_a_note(totals):
    frame, path = totals
    code, out, _ = cli("kappa", str(path), "--format", "json")
    assert code == 0
    payload = json.loads(out)
    a, b = frame["r1"].tolist(), frame["r2"].tolist()
    assert estimate(payload, "Cohen's kappa") == pytest.approx(float(exact_cohen(a, b)),
                                                               abs=1e-12)
    assert any("Cohen's kappa takes each of the" in n and "continuous scores" in n
               for n in payload["notes"])


def test_api_kappa_on_decimal_scores_warns():
    a, b = [1.5, 2.25, 3.0, 4.5], [1.5, 2.0, 3.0, 4.5]
    ag = irr.Agreement(a, b)
    with pytest.warns(ContinuousScoresWarning, match=r"non-integer values such as 1\.5"):
        res = ag.kappa()
    # p_o = 3/4; each of the five values has p_e share (1/4)(1/4) where both use it: 3/16
    assert res.estimate == pytest.approx((3 / 4 - 3 / 16) / (1 - 3 / 16), abs=1e-12)
    for call in (ag.percent_agreement, ag.fleiss_kappa, ag.gwet_ac, ag.brennan_prediger,
                 lambda: ag.krippendorff_alpha(ci=None)):
        with pytest.warns(ContinuousScoresWarning):
            call()
    with pytest.warns(ContinuousScoresWarning, match="error-rate test"):
        ag.error_rate_test(0.1)
    with warnings.catch_warnings():
        warnings.simplefilter("error")  # scored statistics: no warning
        ag.error_rate_test(0.1, tolerance=0.5)
        ag.kappa(weights="quadratic")
        ag.krippendorff_alpha(level="interval", ci=None)
        ag.percent_agreement(tolerance=0.5)


def test_summary_of_continuous_scores():
    rng = np.random.default_rng(1)
    x = np.round(rng.normal(0, 1, (15, 2)) + rng.normal(0, 3, (15, 1)), 2)
    ag = irr.Agreement.from_array(x)
    text = ag.summary().as_text()
    assert "Scale:" in text
    assert "Cohen" not in text
    assert "ICC(2,1)" in text
    assert ag.icc().estimate == pytest.approx(icc_a1(x), abs=1e-12)


def test_the_continuity_rule():
    assert not looks_continuous([1, 2, 3, 4, 5, 6, 7, 8, 9, 10])  # ten levels: categories
    assert looks_continuous(range(11))  # eleven: scores
    assert looks_continuous([1.0, 2.0, 2.5])
    assert not looks_continuous([1.0, 2.0, 3.0])  # integral floats are integers
    assert not looks_continuous(list("abcdefghijklmnop"))  # strings are never scores


# -- A11: a leading delimiter-only line ----------------------------------------------------
def test_leading_delimiter_only_line_is_skipped_and_said():
    body = "r1,r2\n1,1\n2,2\n3,2\n1,1\n2,3\n"
    code, clean, _ = cli("kappa", "-", "--format", "json", stdin=body)
    assert code == 0
    code, out, _ = cli("kappa", "-", "--format", "json", stdin=",\n , \n" + body)
    assert code == 0
    payload = json.loads(out)
    # the real header is the header: 5 subjects, not 6 with "r1,r2" as a subject
    kappa = next(r for r in payload["results"] if r["coefficient"] == "Cohen's kappa")
    assert kappa["n_subjects"] == 5
    assert kappa["estimate"] == pytest.approx(
        float(exact_cohen([1, 2, 3, 1, 2], [1, 2, 2, 1, 3])), abs=1e-12)
    assert "Skipped 2 line(s) before the header that hold only delimiters." in payload["notes"]
    assert payload["results"] == json.loads(clean)["results"]


def test_delimiter_only_rows_inside_the_data_are_not_subjects():
    code, out, _ = cli("kappa", "-", "--format", "json",
                       stdin="r1,r2\n1,1\n,\n2,2\n3,2\n1,1\n2,3\n,\n")
    assert code == 0
    payload = json.loads(out)
    assert {r["n_subjects"] for r in payload["results"]} == {5}
    assert "Skipped 2 row(s) with no values at all (only delimiters)." in payload["notes"]


# -- --na-values: SAS-style missing values -------------------------------------------------
SAS = "patient,r1,r2\n1,1,1\n2,2,.\n3,3,3\n4,.,2\n5,2,2\n6,1,2\n7,3,3\n"


def test_sas_missing_values_need_na_values_and_are_reported():
    code, out, err = cli("kappa", "-", stdin=SAS)
    assert (code, out) == (1, "")
    assert "column 'r1' holds numbers and 1 other value(s) '.'" in err
    assert "--na-values '.'" in err
    # '.' declared a rating: the user's choice, string labels
    code, out, _ = cli("kappa", "-", "--categories", ".", "1", "2", "3", "--format", "json",
                       stdin=SAS)
    assert code == 0
    assert json.loads(out)["results"][0]["n_missing"] == 0
    code, _, err = cli("kappa", "--dataset", "anxiety", "--na-values", ".")
    assert code == 1
    assert "--na-values applies to CSV/TSV text" in err
    code, out, _ = cli("kappa", "-", "--na-values", ".", "--format", "json", stdin=SAS)
    assert code == 0
    payload = json.loads(out)
    assert payload["info"]["Missing ratings"] == "2"
    kappa = next(r for r in payload["results"] if r["coefficient"] == "Cohen's kappa")
    assert (kappa["n_subjects"], kappa["n_missing"]) == (5, 2)  # complete pairs, dropped
    # the five complete pairs: (1,1) (3,3) (2,2) (1,2) (3,3)
    assert kappa["estimate"] == pytest.approx(
        float(exact_cohen([1, 3, 2, 1, 3], [1, 3, 2, 2, 3])), abs=1e-12)
    code, text, _ = cli("kappa", "-", "--na-values", ".", stdin=SAS)
    assert re.search(r"Missing ratings:\s+2\s", text)


def test_na_values_in_long_data():
    long = "s,r,v\n1,a,1\n1,b,1\n2,a,2\n2,b,.\n3,a,2\n3,b,2\n4,a,1\n4,b,2\n"
    code, _, err = cli("kappa", "-", "--subject", "s", "--rater", "r", "--rating", "v",
                       stdin=long)
    assert code == 1
    assert "--na-values '.'" in err
    code, out, _ = cli("kappa", "-", "--subject", "s", "--rater", "r", "--rating", "v",
                       "--na-values", ".", "--format", "json", stdin=long)
    assert code == 0
    assert json.loads(out)["info"]["Missing ratings"] == "1"


# -- D18: reproducible output that says how its intervals were drawn -----------------------
FORMATS = ("text", "markdown", "html", "latex", "csv", "json")


@pytest.mark.parametrize("fmt", FORMATS)
def test_every_format_is_reproducible_and_names_the_seed(fmt):
    args = ("report", "--dataset", "anxiety", "--n-resamples", "300", "--format", fmt)
    first, second = cli(*args), cli(*args)
    assert first[0] == 0
    assert first == second
    other = cli(*args, "--seed", "7")
    assert other[1] != first[1]  # the alpha SEs come from the bootstrap: the seed matters
    if fmt in ("csv", "json", "markdown"):
        assert "seed" in first[1]
    else:
        assert "Bootstrap seed:" in first[1] or "seed 0" in first[1]
    if fmt != "csv":
        assert "7" in other[1]


def test_alpha_rows_say_one_thing_in_every_format():
    _, out, _ = cli("report", "--dataset", "anxiety", "--n-resamples", "300",
                    "--statistics", "all", "--format", "csv")
    table = pd.read_csv(io.StringIO(out))
    alpha = table[table["coefficient"].str.startswith("Krippendorff")]
    # the CLI's default interval is the API's default: alpha's percentile bootstrap
    assert set(alpha["ci_method"]) == {"percentile"}
    assert set(alpha["n_resamples"]) == {300}
    assert set(alpha["seed"]) == {0}
    kappa = table[table["coefficient"] == "Fleiss' kappa"]
    assert kappa["seed"].isna().all()  # nothing resampled: no seed claimed
    _, text, _ = cli("report", "--dataset", "anxiety", "--n-resamples", "300",
                     "--statistics", "all")
    assert "intervals come from the unit bootstrap" not in text  # the old, untrue footnote
    # se is Gwet's linearised SE (issue 20); the notes give the bootstrap's SD beside it
    assert "Bootstrap SE (standard deviation of the 300 replicates)" in text
    assert "SE: Gwet's (2011, 2014) linearised variance" in text
    # the bootstrap SE is the standard deviation of the replicates, the interval their
    # quantiles
    res = irr.datasets.load("anxiety").irr.agreement().krippendorff_alpha(
        level="interval", n_resamples=300, rng=0)
    reps = res.bootstrap.replicates
    assert res.bootstrap.se == pytest.approx(np.std(reps[np.isfinite(reps)], ddof=1),
                                             rel=1e-12)
    row = alpha[alpha["coefficient"] == "Krippendorff's alpha (interval)"].iloc[0]
    assert row["ci_low"] == pytest.approx(np.quantile(reps, 0.025), abs=1e-12)
    # --ci wald gives the normal interval around the linearised SE
    _, out, _ = cli("report", "--dataset", "anxiety", "--n-resamples", "300", "--ci", "wald",
                    "--statistics", "all", "--format", "csv")
    table = pd.read_csv(io.StringIO(out))
    row = table[table["coefficient"] == "Krippendorff's alpha (interval)"].iloc[0]
    assert row["ci_low"] == pytest.approx(res.estimate - 1.959963984540054 * res.se, abs=1e-12)


def test_bootstrap_intervals_carry_method_resamples_and_seed_in_csv():
    _, out, _ = cli("kappa", "--dataset", "anxiety", "--raters", "rater1", "rater2",
                       "--ci", "percentile", "--n-resamples", "250", "--seed", "3",
                       "--format", "csv")
    table = pd.read_csv(io.StringIO(out))
    assert set(table["ci_method"]) == {"percentile"}
    assert set(table["n_resamples"]) == {250}
    assert set(table["seed"]) == {3}


def test_error_rate_text_shows_what_reading_found(patients):
    code, out, _ = cli("error-rate", str(patients), "--epsilon0", "0.2")
    assert code == 0
    assert "Not raters: patient, site" in out
    assert "set aside as identifiers" in out


# -- `python -m irr` -----------------------------------------------------------------------
def test_python_dash_m_irr_runs_the_cli():
    done = subprocess.run([sys.executable, "-m", "irr", "--version"], capture_output=True,
                          text=True, cwd=ROOT, check=False)
    assert done.returncode == 0, done.stderr
    assert done.stdout.startswith("irr ")


# -- irr report on 200 random small data sets, twice ---------------------------------------
SCALES = ("binary", "ordinal", "nominal", "continuous")
PATTERNS = ("random", "perfect", "null", "noisy")


def random_dataset(i):
    """Data set `i`: 2..40 subjects, 2..6 raters, a scale, an agreement pattern, missing."""
    rng = np.random.default_rng([14, i])
    n, m = int(rng.integers(2, 41)), int(rng.integers(2, 7))
    scale, pattern = SCALES[i % 4], PATTERNS[(i // 4) % 4]
    if scale == "continuous":
        truth = rng.normal(50, 10, (n, 1))
        noise = {"perfect": 0.0, "null": 0.0, "random": 5.0, "noisy": 10.0}[pattern]
        x = truth + rng.normal(0, 1, (n, m)) * noise
        if pattern == "null":
            x = rng.normal(50, 10, (n, m))
        frame = pd.DataFrame(np.round(x, 1))
    else:
        k = {"binary": 2, "ordinal": 5, "nominal": 4}[scale]
        truth = rng.integers(0, k, (n, 1))
        flip = {"perfect": 0.0, "null": 1.0, "random": rng.uniform(), "noisy": 0.3}[pattern]
        codes = np.where(rng.random((n, m)) < flip, rng.integers(0, k, (n, m)), truth)
        labels = {"binary": np.array([0, 1]), "ordinal": np.arange(1, 6),
                  "nominal": np.array(["red", "green", "blue", "grey"])}[scale]
        frame = pd.DataFrame(labels[codes])
    frame.columns = [f"rater{j}" for j in range(1, m + 1)]
    share = (0.0, 0.0, 0.1, 0.3)[int(rng.integers(0, 4))]
    if share:
        mask = rng.random((n, m)) < share
        mask[:2] = False  # two complete subjects: the data define the statistics
        frame = frame.astype(object).mask(mask)
    return frame.to_csv(index=False), f"{i}-{scale}-{pattern}-n{n}-m{m}-missing{share}"


@pytest.mark.parametrize("i", range(200))
def test_report_on_random_data_exits_0_and_repeats_byte_for_byte(i):
    text, name = random_dataset(i)
    args = ("report", "-", "--n-resamples", "20")
    first = cli(*args, stdin=text)
    assert first[0] == 0, f"{name}: {first[2]}"
    assert first[1]
    assert cli(*args, stdin=text) == first, name
