"""irr.by of long data (one row per rating: subject=, rater=, rating=, replicate=).

Long data and the same data in wide form give the same table: the wide path is the
reference (it is tested against published values in test_pandas and the estimators'
own tests); data with replicates are checked group by group against
Agreement.from_long of the group's rows.
"""

import numpy as np
import pandas as pd
import pytest

import irr

pl = pytest.importorskip("polars")
duckdb = pytest.importorskip("duckdb")

TOL = {"rtol": 0, "atol": 1e-12}
RATERS = ["r1", "r2", "r3"]
LONG = {"subject": "patient", "rater": "reader", "rating": "grade"}
LAZY = {
    "polars-lazy": lambda df: pl.from_pandas(df).lazy(),
    "duckdb": duckdb.from_df,
}


@pytest.fixture
def wide():
    """40 patients at three sites (one site has a single patient), three readers grading
    1-4 with a few missing grades, and a continuous measurement per reader."""
    rng = np.random.default_rng(7)
    n = 40
    truth = rng.integers(1, 5, n)
    df = pd.DataFrame({"patient": [f"P{i:03d}" for i in range(n)],
                       "site": np.where(np.arange(n) == n - 1, "solo",
                                        rng.choice(["north", "south"], n))})
    for j, r in enumerate(RATERS):
        grade = np.clip(truth + rng.integers(-1, 2, n) * (rng.random(n) < 0.4), 1, 4)
        df[r] = pd.array(grade, dtype="Int64")
        df[f"m{j + 1}"] = np.round(50 + 10 * truth + rng.normal(j, 2.5, n), 1)
    df.loc[[3, 11, 20], "r3"] = pd.NA
    df.loc[5, "r2"] = pd.NA
    return df


def melt(wide, columns, drop_missing=True):
    """The long form of the wide frame's `columns` (one row per rating; missing ratings'
    rows dropped, as an export of an annotation platform would have them)."""
    long = wide.melt(id_vars=["patient", "site"], value_vars=columns, var_name="reader",
                     value_name="grade")
    return long.dropna(subset=["grade"]).reset_index(drop=True) if drop_missing else long


def same(left, right, tol=TOL):
    pd.testing.assert_frame_equal(left, right, check_exact=False, check_dtype=False, **tol)


@pytest.mark.parametrize(("statistic", "columns", "options"), [
    ("kappa", ["r1", "r2"], {}),
    ("kappa", ["r1", "r2"], {"weights": "quadratic"}),
    ("kappa", ["r1", "r2"], {"ci": "percentile", "n_resamples": 200, "rng": 3}),
    ("fleiss_kappa", RATERS, {}),
    ("krippendorff_alpha", RATERS, {"level": "ordinal"}),
    ("icc", RATERS, {"model": "twoway", "type": "agreement"}),
    ("gwet_ac", RATERS, {"weights": "linear"}),
])
def test_long_equals_wide_for_categorical_statistics(wide, statistic, columns, options):
    want = irr.by(wide, "site", raters=columns, statistic=statistic, **options)
    got = irr.by(melt(wide, columns), "site", statistic=statistic, **LONG, **options)
    same(got, want)
    reason = got.set_index("site")["reason"]
    assert reason["solo"] == "fewer than two subjects"  # the one-patient site
    assert reason[["north", "south"]].isna().all()


def test_missing_rows_and_missing_ratings_are_alike(wide):
    kept = melt(wide, RATERS, drop_missing=False)  # a row with a missing grade
    got = irr.by(kept, "site", statistic="krippendorff_alpha", **LONG)
    same(got, irr.by(melt(wide, RATERS), "site", statistic="krippendorff_alpha", **LONG))
    assert got["n_incomplete"].sum() == 4


@pytest.mark.parametrize(("statistic", "options"), [
    ("loa", {}), ("ccc", {}), ("icc_components", {}), ("tdi", {"p": 0.9}),
])
def test_long_equals_wide_for_measurements(wide, statistic, options):
    columns = ["m1", "m2"]
    want = irr.by(wide, "site", raters=columns, statistic=statistic, **options)
    long = melt(wide, columns)
    got = irr.by(long, "site", statistic=statistic, **LONG, **options)
    same(got, want)
    assert "Bias (m1 - m2)" in got["coefficient"].tolist() or statistic != "loa"


def test_pooled_row_and_homogeneity_test(wide):
    keep = wide[wide["site"] != "solo"]
    want = irr.by(keep, "site", raters=RATERS, statistic="fleiss_kappa", test=True)
    got = irr.by(melt(keep, RATERS), "site", statistic="fleiss_kappa", test=True, **LONG)
    same(got, want)
    assert got["site"].iloc[-1] == "Pooled"
    assert got.attrs["homogeneity"] == want.attrs["homogeneity"]


def test_pooled_row_prints_the_test_of_equality_and_names_the_bias(wide):
    keep = wide[wide["site"] != "solo"]
    out = irr.by(keep, "site", raters=RATERS, statistic="fleiss_kappa", test=True)
    test = out.attrs["homogeneity"]
    assert list(out.columns)[-1] == "test"
    assert out["test"].iloc[-1] == (f"chi2({test['df']}) = {test['statistic']:.2f}, "
                                    f"p = {test['pvalue']:.3f}")
    assert out["test"].iloc[:-1].eq("").all()
    assert "chi2(" in out.to_string()
    loa = irr.by(keep, "site", raters=["m1", "m2"], statistic="limits_of_agreement",
                 test=True)
    pooled = loa.iloc[-1]
    assert pooled["coefficient"] == "Bias (m1 - m2)"
    biases = loa[loa["coefficient"] == "Bias (m1 - m2)"].iloc[:-1]
    w = 1 / biases["se"] ** 2
    assert pooled["estimate"] == pytest.approx((w * biases["estimate"]).sum() / w.sum(),
                                               rel=1e-12)
    assert irr.by(keep, "site", raters=RATERS, statistic="fleiss_kappa").columns[-1] != "test"


def test_categories_of_the_whole_data_reach_every_group(wide):
    """A site that never uses grade 4 keeps the 1-4 scale (Brennan-Prediger's chance
    agreement is one over the number of categories)."""
    df = wide.copy()
    south = (df["site"] == "south").to_numpy()
    for r in RATERS:
        df[r] = df[r].where(~south, df[r].clip(upper=3))
    long = melt(df, ["r1", "r2"])
    got = irr.by(long, "site", statistic="brennan_prediger", **LONG)
    south = long[long["site"] == "south"]
    alone = irr.Agreement.from_long(south, **LONG, categories=[1, 2, 3, 4]).brennan_prediger()
    assert got.loc[got["site"] == "south", "estimate"].item() == pytest.approx(
        alone.estimate, abs=1e-12)
    narrow = irr.Agreement.from_long(south, **LONG).brennan_prediger()
    assert abs(narrow.estimate - alone.estimate) > 1e-3  # the scale matters here


def test_several_keys_cluster_column_and_accessor(wide):
    df = wide.assign(arm=np.arange(len(wide)) % 2, ward=np.arange(len(wide)) // 4)
    want = irr.by(df, ["site", "arm"], raters=["r1", "r2"], cluster="ward",
                  ci="percentile", n_resamples=100)
    long = df.melt(id_vars=["patient", "site", "arm", "ward"], value_vars=["r1", "r2"],
                   var_name="reader", value_name="grade").dropna(subset=["grade"])
    got = long.irr.by(["site", "arm"], statistic="kappa", cluster="ward", ci="percentile",
                      n_resamples=100, **LONG)
    same(got, want)


@pytest.fixture
def sparse(monkeypatch):
    """Every long data set read as a sparse design (one entry per rating), as many raters
    with few ratings each (a crowd) are."""
    import irr._source

    for module in (irr.pandas, irr._source):
        monkeypatch.setattr(module, "DENSE_CELLS", 0)
        monkeypatch.setattr(module, "DENSE_PER_RATING", 0)


@pytest.mark.parametrize("statistic", ["krippendorff_alpha", "fleiss_kappa"])
def test_sparse_designs_are_read_group_by_group_alike(wide, sparse, statistic):
    want = irr.by(wide, "site", raters=RATERS, statistic=statistic)
    got = irr.by(melt(wide, RATERS), "site", statistic=statistic, **LONG)
    # the estimates; a bootstrap draws over the sparse design's own patterns
    columns = ["site", "coefficient", "estimate", "n_subjects", "n_incomplete", "reason"]
    same(got[columns], want[columns])
    if statistic == "fleiss_kappa":
        same(got, want)


def test_sparse_design_refuses_a_cluster(wide, sparse):
    with pytest.raises(ValueError, match="`cluster` is not available for long data with "
                                         "replicates or of a sparse design"):
        irr.by(melt(wide, RATERS), "site", statistic="fleiss_kappa", cluster="site", **LONG)


# -- replicates -----------------------------------------------------------------------
@pytest.fixture
def pef_long():
    """Bland & Altman's (1986) peak flow data, two meters with two readings each, in
    long form; subjects split in two visits, the second visit's rows first (wright
    first), then the first visit's with the mini meter's first."""
    pef = irr.datasets.load("pef")
    long = pef.melt(id_vars="subject", value_name="pef")
    long[["meter", "reading"]] = long["variable"].str.split("_", expand=True)
    long["visit"] = np.where(long["subject"] <= 8, "first", "second")
    first = long["visit"] == "first"
    # the first visit's rows with the mini meter's first: the groups' raters keep the
    # whole data's order (wright then mini), so "first minus second" means one thing
    return pd.concat([long[~first], long[first & (long["meter"] == "mini")],
                      long[first & (long["meter"] == "wright")]], ignore_index=True)


REPLICATES = {"subject": "subject", "rater": "meter", "rating": "pef", "replicate": "reading"}


@pytest.mark.parametrize(("statistic", "options"), [
    ("inter_intra_reliability", {}),
    ("limits_of_agreement", {"replicates": "constant"}),
    ("measurement_error", {}),
    ("icc_components", {}),
    ("concordance", {}),
    ("deming", {}),
])
def test_replicates_each_group_as_from_long_of_its_rows(pef_long, statistic, options):
    got = irr.by(pef_long, "visit", statistic=statistic, **REPLICATES, **options)
    for visit, rows in got.groupby("visit"):
        part = pef_long[pef_long["visit"] == visit]
        # the group's rows in the whole data's rater order (wright first)
        part = pd.concat([part[part["meter"] == "wright"], part[part["meter"] == "mini"]])
        ag = irr.Agreement.from_long(part, **REPLICATES, continuous=True)
        res = getattr(ag, statistic)(**options)
        want = [p.estimate for p in res.parts()]
        np.testing.assert_allclose(rows["estimate"], want, **TOL)
        assert (rows["n_subjects"] == part["subject"].nunique()).all()
    assert pef_long["meter"].iloc[0] == "wright"
    assert pef_long.loc[pef_long["visit"] == "first", "meter"].iloc[0] == "mini"
    if statistic == "limits_of_agreement":
        assert set(got["coefficient"][::3]) == {"Bias (wright - mini)"}


def test_replicated_categorical_pairs_are_refused_once(wide):
    long = pd.concat([melt(wide, RATERS)] * 2)
    with pytest.raises(ValueError, match="more than once"):
        irr.by(long, "site", statistic="fleiss_kappa", **LONG)


# -- lazy frames ----------------------------------------------------------------------
@pytest.mark.parametrize("backend", sorted(LAZY))
@pytest.mark.parametrize(("statistic", "columns", "options"), [
    ("kappa", ["r1", "r2"], {"weights": "quadratic"}),
    ("fleiss_kappa", RATERS, {}),
    ("krippendorff_alpha", RATERS, {}),
])
def test_lazy_categorical_equals_pandas(wide, backend, statistic, columns, options):
    long = melt(wide, columns).astype({"grade": "int64"})
    want = irr.by(long, "site", statistic=statistic, **LONG, **options)
    got = irr.by(LAZY[backend](long), "site", statistic=statistic, **LONG, **options)
    same(got, want)


@pytest.mark.parametrize("backend", sorted(LAZY))
@pytest.mark.parametrize("statistic", ["loa", "ccc"])
def test_lazy_measurements_equal_pandas(wide, backend, statistic):
    long = melt(wide, ["m1", "m2"])
    want = irr.by(long, "site", statistic=statistic, **LONG)
    got = irr.by(LAZY[backend](long), "site", statistic=statistic, **LONG)
    same(got, want, {"rtol": 1e-9, "atol": 1e-9})


@pytest.mark.parametrize("backend", sorted(LAZY))
@pytest.mark.parametrize(("statistic", "columns"), [("fleiss_kappa", RATERS),
                                                    ("ccc", ["m1", "m2"])])
def test_lazy_pooled_row_equals_pandas(wide, backend, statistic, columns):
    long = melt(wide[wide["site"] != "solo"], columns)
    if statistic == "fleiss_kappa":
        long = long.astype({"grade": "int64"})
    want = irr.by(long, "site", statistic=statistic, test=True, **LONG)
    got = irr.by(LAZY[backend](long), "site", statistic=statistic, test=True, **LONG)
    same(got, want, {"rtol": 1e-9, "atol": 1e-9})
    assert got["site"].iloc[-1] == "Pooled"
    assert got.attrs["homogeneity"]["pvalue"] == pytest.approx(
        want.attrs["homogeneity"]["pvalue"], rel=1e-9)


@pytest.mark.parametrize("backend", sorted(LAZY))
def test_lazy_methods_come_sorted_and_first_second_choose(wide, backend):
    """A lazy frame has no row order: the methods come in sorted order (m1, m2), and
    ``first=``/``second=`` choose which is subtracted, as with pandas."""
    long = melt(wide, ["m2", "m1"])  # m2's rows first: pandas takes m2 - m1
    pandas = irr.by(long, "site", statistic="loa", **LONG)
    assert pandas["coefficient"].iloc[0] == "Bias (m2 - m1)"
    lazy = irr.by(LAZY[backend](long), "site", statistic="loa", **LONG)
    assert lazy["coefficient"].iloc[0] == "Bias (m1 - m2)"
    chosen = irr.by(LAZY[backend](long), "site", statistic="loa", first="m2", second="m1",
                    **LONG)
    same(chosen, pandas, {"rtol": 1e-9, "atol": 1e-9})


@pytest.mark.parametrize("backend", sorted(LAZY))
def test_lazy_group_with_one_method_says_why(wide, backend):
    long = melt(wide, ["m1", "m2"])
    long = long[~((long["site"] == "south") & (long["reader"] == "m2"))]
    got = irr.by(LAZY[backend](long), "site", statistic="loa", **LONG)
    south = got[got["site"] == "south"]
    assert len(south) == 1
    assert np.isnan(south["estimate"].item())
    n_south = int((wide["site"] == "south").sum())
    assert south["n_subjects"].item() == n_south == south["n_incomplete"].item()
    assert "two raters" in south["reason"].item()


# -- errors ---------------------------------------------------------------------------
@pytest.mark.parametrize("backend", ["pandas", *sorted(LAZY)])
def test_a_subject_in_two_groups_is_named(wide, backend):
    long = melt(wide, RATERS)
    moved = long["patient"].isin(["P004", "P017"]) & (long["reader"] == "r3")
    long.loc[moved, "site"] = "elsewhere"
    frame = long if backend == "pandas" else LAZY[backend](long)
    with pytest.raises(ValueError, match=r"2 subject\(s\) have rows in several groups: "
                                         r"\['P004', 'P017'\]"):
        irr.by(frame, "site", statistic="fleiss_kappa", **LONG)


@pytest.mark.parametrize("backend", ["pandas", *sorted(LAZY)])
@pytest.mark.parametrize(("argument", "value"), [
    ("subject", "id"), ("rater", "coder"), ("rating", "score")])
def test_missing_columns_are_named(wide, backend, argument, value):
    long = melt(wide, RATERS)
    frame = long if backend == "pandas" else LAZY[backend](long)
    with pytest.raises(ValueError, match=rf"`{argument}` must name a column of `df`; "
                                         rf"got '{value}'"):
        irr.by(frame, "site", statistic="fleiss_kappa", **{**LONG, argument: value})


@pytest.mark.parametrize(("change", "message"), [
    ({"rater": None}, "`rater` not given"),
    ({"raters": ["r1", "r2"]}, "`raters` names the rater columns of wide data"),
    ({"freq_weights": "n"}, "`freq_weights` counts the subjects of a wide row"),
    ({"by": "patient"}, r"`by` names columns of the long data's subject"),
    ({"by": "hospital"}, r"`by` must name columns of `df`; got \['hospital'\]"),
    ({"cluster": np.ones(3)}, "`cluster` must name a column of `df`"),
])
def test_bad_arguments(wide, change, message):
    arguments = {"by": "site", **LONG, **change}
    with pytest.raises(ValueError, match=message):
        irr.by(melt(wide, RATERS), statistic="fleiss_kappa", **arguments)


def test_what_a_lazy_frame_cannot_push_down_is_refused(pef_long):
    lazy = pl.from_pandas(pef_long).lazy()
    with pytest.raises(ValueError, match="`replicate` needs the rows"):
        irr.by(lazy, "visit", statistic="inter_intra_reliability", **REPLICATES)
    with pytest.raises(ValueError, match=r"pair.* occur more than once"):
        irr.by(lazy, "visit", statistic="loa", **{**REPLICATES, "replicate": None})
    with pytest.raises(ValueError, match="`cluster` and `strata` need one row per subject"):
        irr.by(lazy, "visit", statistic="loa", cluster="visit",
               **{**REPLICATES, "replicate": None})


def test_many_raters_are_summarised_not_listed():
    """A sparse design of 195 raters: the report's data section and the two-rater error
    name a few raters and summarise the rest, rather than list every one."""
    from irr.reporting import DataDescription

    rng = np.random.default_rng(0)
    n = 300
    subject = np.repeat(np.arange(n), 3)
    rater = np.concatenate([rng.choice(200, 3, replace=False) for _ in range(n)])
    long = pd.DataFrame({"s": subject, "r": rater, "y": rng.integers(0, 3, 3 * n)})
    ag = irr.Agreement.from_long(long, subject="s", rater="r", rating="y")
    facts = dict(DataDescription.from_statistics(ag.statistics, "ordinal").facts())
    counts = long.groupby("r").size()
    assert facts["Raters"].startswith(f"{ag.n_raters}: ")
    assert facts["Raters"].endswith(", ...")
    assert facts["Raters"].count(",") == 10
    assert facts["Subjects rated by each rater"] == (
        f"median {counts.median():g}, from {counts.min()} to {counts.max()}")
    with pytest.raises(ValueError, match=r"has 195 \[.*\.\.\. \(195 in all\)\]") as error:
        ag.kappa()
    assert len(str(error.value)) < 300


def test_a_boolean_option_refuses_strings():
    # "no" is truthy: taken as True it would pool the groups; it is refused instead
    df = irr.datasets.load("anxiety").assign(site=["a", "b"] * 10)
    with pytest.raises(TypeError, match="`test` must be True or False; got 'no'"):
        irr.by(df, "site", statistic="fleiss_kappa", test="no")
    a = irr.Agreement.from_frame(df.iloc[:10][["rater1", "rater2"]]).kappa()
    b = irr.Agreement.from_frame(df.iloc[10:][["rater1", "rater2"]]).kappa()
    with pytest.raises(TypeError, match="`independent` must be True or False"):
        irr.difference(a, b, independent="yes")
