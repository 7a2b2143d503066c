"""Continuous measurements through the Python workflows: ``irr.report(options=)`` by statistic
or method name, ``irr.by`` by statistic name (and its forest plot), and the ``df.irr`` methods
(published values: Bland & Altman 1986, through the command line in
tests/unit/cli/test_agreement_command.py)."""

import numpy as np
import pandas as pd
import pytest

import irr


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


# -- irr.report(options=) ------------------------------------------------------------------
def test_report_options_by_statistic_or_method_name():
    pef = irr.datasets.load("pef")
    by_name = irr.report(pef, "loa", raters=["wright_1", "mini_1"], figures=False,
                         options={"loa": {"coverage": 0.9}})
    by_method = irr.report(pef, "loa", raters=["wright_1", "mini_1"], figures=False,
                           options={"limits_of_agreement": {"coverage": 0.9}})
    want = _pef_pair().limits_of_agreement(coverage=0.9).upper
    assert by_name.results[0].upper == by_method.results[0].upper == pytest.approx(want)
    with pytest.raises(ValueError, match="`options` must be one of"):
        irr.report(pef, "loa", raters=["wright_1", "mini_1"], options={"lao": {}})
    with pytest.raises(TypeError, match=r"`options\['loa'\]` must be a dict"):
        irr.report(pef, "loa", raters=["wright_1", "mini_1"], options={"loa": 0.9})
    with pytest.raises(ValueError, match="'cp' needs `delta`"):
        irr.report(pef, "cp", raters=["wright_1", "mini_1"], figures=False)


# -- irr.by on measurements ------------------------------------------------------------
def _sites():
    pef = irr.datasets.load("pef")
    return pef.assign(site=["north", "south"] * 8 + ["north"])


def test_by_limits_of_agreement_per_group():
    df = _sites()
    out = irr.by(df, "site", raters=["wright_1", "mini_1"], statistic="loa")
    assert out["coefficient"].tolist()[:3] == [
        "Bias (wright_1 - mini_1)", "Lower limit (95%)", "Upper limit (95%)"]
    for site, group in df.groupby("site"):
        d = (group["wright_1"] - group["mini_1"]).to_numpy(dtype=float)
        rows = out[out["site"] == site].set_index("coefficient")
        z = 1.959963984540054  # independent: mean -/+ z SD of the group's differences
        assert rows.loc["Bias (wright_1 - mini_1)", "estimate"] == pytest.approx(d.mean())
        assert rows.loc["Lower limit (95%)", "estimate"] == pytest.approx(
            d.mean() - z * d.std(ddof=1))
        assert rows.loc["Upper limit (95%)", "n_subjects"] == len(d)
    same = irr.by(df, "site", raters=["wright_1", "mini_1"], statistic="limits_of_agreement")
    pd.testing.assert_frame_equal(out, same)


@pytest.mark.parametrize(("statistic", "method", "options"), [
    ("ccc", "concordance", {}),
    ("tdi", "total_deviation_index", {}),
    ("cp", "coverage_probability", {"delta": 40}),
    ("deming", "deming", {}),
    ("passing_bablok", "passing_bablok", {}),
    ("icc_vc", "icc_components", {}),
    ("sem", "measurement_error", {}),
])
def test_by_every_measurement_statistic(statistic, method, options):
    df = _sites()
    out = irr.by(df, "site", raters=["wright_1", "mini_1"], statistic=statistic, **options)
    north = df[df["site"] == "north"]
    ag = irr.Agreement.from_frame(north, ["wright_1", "mini_1"], continuous=True)
    want = getattr(ag, method)(**options)
    rows = out[out["site"] == "north"]
    assert rows["coefficient"].tolist() == [p.coefficient for p in want.parts()]
    np.testing.assert_allclose(rows["estimate"], [p.estimate for p in want.parts()],
                               rtol=1e-12)
    assert out["reason"].isna().all()


def test_by_measurements_with_missing_readings_and_small_groups():
    df = _sites()
    df.loc[[0, 2], "mini_1"] = np.nan
    df.loc[16, "site"] = "east"  # one subject
    out = irr.by(df, "site", raters=["wright_1", "mini_1"], statistic="ccc")
    east = out[out["site"] == "east"]
    assert len(east) == 1
    assert east["reason"].iloc[0] == "fewer than two subjects"
    north = out[(out["site"] == "north") & (out["coefficient"] == "Lin's CCC")]
    assert north["n_subjects"].iloc[0] == 6  # 8 subjects, two without a mini reading


def test_by_output_feeds_the_forest_plot():
    matplotlib = pytest.importorskip("matplotlib")
    matplotlib.use("Agg")
    from irr.plotting import forest

    out = irr.by(_sites(), "site", raters=["wright_1", "mini_1"], statistic="loa")
    ax = forest(out)
    labels = [t.get_text() for t in ax.get_yticklabels()]
    assert "north (Lower limit (95%))" in labels
    assert len(labels) == len(out)
    ccc = irr.by(_sites(), "site", raters=["wright_1", "mini_1"], statistic="ccc")
    assert ccc.attrs["scale"] == "mcbride"
    ax = forest(ccc[ccc["coefficient"] == "Lin's CCC"])
    assert [t.get_text() for t in ax.get_yticklabels()] == ["north", "south"]
    matplotlib.pyplot.close("all")


def test_by_measurement_statistics_on_numeric_categories_read_their_values():
    # numeric labels held as categories are measurements all the same (Source.numeric_measurements)
    as_categories = irr.by(_sites(), "site", raters=["wright_1", "mini_1"], statistic="loa",
                           continuous=False)
    as_measurements = irr.by(_sites(), "site", raters=["wright_1", "mini_1"], statistic="loa")
    pd.testing.assert_frame_equal(as_categories, as_measurements)
    labels = _sites().assign(wright_1=lambda d: d["wright_1"].map("v{}".format),
                             mini_1=lambda d: d["mini_1"].map("v{}".format))
    with pytest.raises(TypeError, match="needs numeric ratings, but `wright_1` holds str"):
        irr.by(labels, "site", raters=["wright_1", "mini_1"], statistic="loa")
    with pytest.raises(ValueError, match=r"need numeric ratings, but these are labels"):
        irr.by(labels, "site", raters=["wright_1", "mini_1"], statistic="loa",
               continuous=False)
    with pytest.raises(ValueError, match="`statistic` must be one of"):
        irr.by(_sites(), "site", raters=["wright_1", "mini_1"], statistic="lao")


# -- df.irr ----------------------------------------------------------------------------------
def test_accessor_methods_equal_the_agreement_methods():
    pef = irr.datasets.load("pef")
    ag = _pef_pair()
    pair = ("wright_1", "mini_1")
    assert pef.irr.limits_of_agreement(*pair).lower == ag.limits_of_agreement().lower
    assert pef.irr.limits_of_agreement(*pair, coverage=0.9, units="l/min").upper == \
        ag.limits_of_agreement(coverage=0.9).upper
    assert pef.irr.concordance(list(pair)).estimate == ag.concordance().estimate
    assert pef.irr.total_deviation_index(0.8, *pair).estimate == \
        ag.total_deviation_index(0.8).estimate
    assert pef.irr.coverage_probability(30, *pair).estimate == \
        ag.coverage_probability(30).estimate
    assert pef.irr.deming(*pair).slope == ag.deming().slope
    assert pef.irr.passing_bablok(*pair).intercept == ag.passing_bablok().intercept
    assert pef.irr.icc_components(list(pair)).estimate == ag.icc_components().estimate
    assert pef.irr.measurement_error(list(pair)).estimate == ag.measurement_error().estimate
    # reversed pair: the difference changes sign
    assert pef.irr.limits_of_agreement("mini_1", "wright_1").estimate == pytest.approx(
        -ag.limits_of_agreement().estimate)


def test_accessor_long_data_with_replicates():
    long = _pef_long()
    res = long.irr.limits_of_agreement(subject="subject", rater="meter", rating="pef",
                                       replicate="reading", replicates="constant")
    ag = irr.Agreement.from_long(long, subject="subject", rater="meter", rating="pef",
                                 replicate="reading", continuous=True)
    assert res.lower == ag.limits_of_agreement(replicates="constant").lower
    sem = long.irr.measurement_error(subject="subject", rater="meter", rating="pef")
    assert sem.estimate == ag.measurement_error().estimate
    with pytest.raises(ValueError, match="replicates"):
        long.irr.limits_of_agreement(subject="subject", rater="meter", rating="pef")


def test_report_by_group_on_measurements_names_each_interval():
    rep = irr.report(_sites(), "loa,ccc", raters=["wright_1", "mini_1"], by="site",
                     figures=False)
    table = rep.groups
    assert set(table["coefficient"]) >= {"Lower limit (95%)", "Precision (Pearson r)"}
    text = rep.to_markdown()
    rows = [line for line in text.splitlines() if "Precision (Pearson r)" in line]
    assert len(rows) == 3  # the results table and the two groups
    assert all("Fisher z" in line for line in rows)
    assert "fisher-z" not in text


def test_report_options_reach_the_groups():
    rep = irr.report(_sites(), "cp", raters=["wright_1", "mini_1"], by="site",
                     figures=False, options={"cp": {"delta": 40}})
    assert rep.groups["coefficient"].unique().tolist() == ["CP (delta = 40)"]
    north = _sites().query("site == 'north'")
    ag = irr.Agreement.from_frame(north, ["wright_1", "mini_1"], continuous=True)
    got = rep.groups.loc[rep.groups["site"] == "north", "estimate"].iloc[0]
    assert got == pytest.approx(ag.coverage_probability(40).estimate, rel=1e-12)
