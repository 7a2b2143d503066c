"""Issue 21: continuous measurements of lazy and distributed frames (polars LazyFrame,
DuckDB, Dask, a Dask cluster). Their engine sums the moments of two raters (shifted by
pilot values); the parametric limits of agreement, the proportional-bias line and Lin's
CCC computed from those sums equal the in-memory pandas results (the reference: their
own tests check them against Bland & Altman 1986 and Lin 1989) to 1e-12, on values near
1e6 with differences near 1, missing values included. What needs the rows is refused
with a message naming the statistic and the way out."""

import json
import math
import warnings

import numpy as np
import pandas as pd
import pytest

import irr
from irr._moments import PairMoments
from tests.support.cli_runner import cli

pl = pytest.importorskip("polars")
pa = pytest.importorskip("pyarrow")
duckdb = pytest.importorskip("duckdb")
dd = pytest.importorskip("dask.dataframe")

pytestmark = pytest.mark.filterwarnings("ignore::FutureWarning")


def _measurements(n=3000, seed=7, offset=1e6, slope=0.0):
    """Two devices measuring values near `offset` (subject SD 10) with differences near
    0.3 (SD 1; a proportional bias of `slope`), some measurements missing (nan), an id."""
    rng = np.random.default_rng(seed)
    truth = offset + rng.normal(0, 10, n)
    device = truth + rng.normal(0.3, 1, n) + slope * (truth - offset)
    cuff = truth + rng.normal(0, 1, n)
    device[rng.choice(n, 70, replace=False)] = np.nan
    cuff[rng.choice(n, 50, replace=False)] = np.nan
    return pd.DataFrame({"patient": np.arange(n), "site": np.where(np.arange(n) % 3, "a", "b"),
                         "device": device, "cuff": cuff})


DF = _measurements()
RATERS = ["device", "cuff"]
LAZY = {
    "polars-lazy": lambda df: pl.from_pandas(df).lazy(),
    "duckdb": duckdb.from_df,
    "dask": lambda df: dd.from_pandas(df, npartitions=4),
}
ALL = {**LAZY, "pyarrow": pa.Table.from_pandas}
TOL = {"rel": 1e-12, "abs": 1e-12}


def _close(got, expected, rel=1e-12):
    return got == pytest.approx(expected, nan_ok=True, rel=rel, abs=1e-12)


def _assert_same_limits(got, ref, rel=1e-12):
    assert (got.n_subjects, got.n_missing, got.difference) == (
        ref.n_subjects, ref.n_missing, ref.difference)
    for name in ("estimate", "se", "statistic", "pvalue", "sd", "lower", "upper", "slope",
                 "slope_se", "slope_pvalue", "log_se"):
        assert _close(getattr(got, name), getattr(ref, name), rel), name
    for name in ("ci", "lower_ci", "upper_ci", "slope_ci"):
        assert _close(tuple(getattr(got, name)), tuple(getattr(ref, name)), rel), name
        assert getattr(got, name).method == getattr(ref, name).method
    assert got.limit_ci_method == ref.limit_ci_method


def _assert_same_ccc(got, ref):
    assert (got.n_subjects, got.n_missing, got.raters) == (
        ref.n_subjects, ref.n_missing, ref.raters)
    for name in ("estimate", "se", "se_z", "statistic", "pvalue", "pearson_r",
                 "bias_correction", "scale_shift", "location_shift"):
        assert _close(getattr(got, name), getattr(ref, name)), name
    assert _close(tuple(got.ci), tuple(ref.ci))
    assert _close(got.means, ref.means)
    assert _close(got.sds, ref.sds)


@pytest.mark.parametrize("backend", sorted(ALL))
def test_limits_and_ccc_of_every_backend_equal_pandas(backend):
    ref = irr.Agreement.from_frame(DF, RATERS, continuous=True)
    ag = irr.Agreement.from_frame(ALL[backend](DF), RATERS, continuous=True)
    assert ag.continuous
    assert (ag.n_subjects, ag.n_missing, ag.raters) == (ref.n_subjects, ref.n_missing,
                                                         ref.raters)
    assert ag.n_missing == 120 - int((DF.device.isna() & DF.cuff.isna()).sum())
    _assert_same_limits(ag.limits_of_agreement(), ref.limits_of_agreement())
    _assert_same_limits(ag.limits_of_agreement(multiplier=2, ci_method="approximate",
                                               confidence_level=0.9),
                        ref.limits_of_agreement(multiplier=2, ci_method="approximate",
                                                confidence_level=0.9))
    _assert_same_ccc(ag.concordance(), ref.concordance())
    _assert_same_ccc(ag.concordance(rho0=0.9, alternative="greater"),
                     ref.concordance(rho0=0.9, alternative="greater"))
    # the pairs used and those left out, as the in-memory result reports them
    res = ag.limits_of_agreement()
    both = DF.device.notna() & DF.cuff.notna()
    assert res.n_subjects == int(both.sum())
    assert res.n_missing == int((DF.device.isna() ^ DF.cuff.isna()).sum())


@pytest.mark.parametrize("backend", sorted(LAZY))
def test_long_measurements_are_spread_by_the_engine_and_summed(backend):
    """Long data (a row per measurement): the engine makes one row per subject, a column
    per method (in sorted order of their labels), and sums its moments."""
    long = DF.melt(id_vars=["patient", "site"], value_vars=RATERS, var_name="method",
                   value_name="mmhg").sample(frac=1, random_state=0)
    long = long[long.mmhg.notna() | (long.patient % 2 == 0)]  # some missing rows absent
    ref = irr.Agreement.from_long(long, subject="patient", rater="method", rating="mmhg",
                                  continuous=True)
    ag = irr.Agreement.from_long(LAZY[backend](long), subject="patient", rater="method",
                                 rating="mmhg")
    assert ag.raters == ("cuff", "device") == ref.raters
    _assert_same_limits(ag.limits_of_agreement(), ref.limits_of_agreement())
    _assert_same_ccc(ag.concordance(), ref.concordance())
    twice = pd.concat([long, long.head(3)])
    with pytest.raises(ValueError, match=r"3 \(subject, rater\) pair\(s\) occur more than "
                                         r"once.*replicates\) need their rows"):
        irr.Agreement.from_long(LAZY[backend](twice), subject="patient", rater="method",
                                rating="mmhg")


@pytest.mark.parametrize("backend", sorted(LAZY))
@pytest.mark.parametrize("scale", ["percent", "ratio"])
def test_percent_and_ratio_scales_are_summed_by_the_engine(backend, scale):
    """Log ratios of values near 1e6 that differ by about 1 (log x - log y near 3e-7)
    keep 8 to 9 digits: the engines' logarithms and numpy's differ in the last bit of
    log x (about 1e-15), so ratios agree to 1e-8, percentages to 1e-12."""
    ref = irr.Agreement.from_frame(DF, RATERS, continuous=True).limits_of_agreement(
        scale=scale)
    got = irr.Agreement.from_frame(LAZY[backend](DF), RATERS, continuous=True
                                   ).limits_of_agreement(scale=scale)
    _assert_same_limits(got, ref, 1e-12 if scale == "percent" else 1e-8)


@pytest.mark.parametrize("backend", sorted(LAZY))
def test_a_strong_proportional_bias_takes_a_second_pass_for_the_residuals(backend):
    """When the line explains most of the variance of the differences, its residual sum
    of squares is summed over the residuals (a second pass), not taken from the moments."""
    df = _measurements(slope=0.5, seed=3)
    ref = irr.Agreement.from_frame(df, RATERS, continuous=True).limits_of_agreement()
    lazy = irr.Agreement.from_frame(LAZY[backend](df), RATERS, continuous=True)
    got = lazy.limits_of_agreement()
    _assert_same_limits(got, ref)
    assert got.slope == pytest.approx(0.5 / 1.25, abs=0.02)  # d = 0.5 t, a = 1.25 t


@pytest.mark.parametrize("backend", sorted(LAZY))
def test_first_rows_without_one_method_take_the_pilot_from_the_engine(backend):
    """When no value of a method is among the first 1,024 rows, the pilot values are the
    engine's means (one more pass), not 0: the digits are kept all the same."""
    df = DF.copy()
    df.loc[:1499, "cuff"] = np.nan
    ref = irr.Agreement.from_frame(df, RATERS, continuous=True)
    ag = irr.Agreement.from_frame(LAZY[backend](df), RATERS, continuous=True)
    _assert_same_limits(ag.limits_of_agreement(), ref.limits_of_agreement())
    _assert_same_ccc(ag.concordance(), ref.concordance())


def test_the_shift_keeps_the_digits_raw_sums_lose():
    """Sums of squares of values near 1e6 without a shift lose about 10 of the 16 digits
    of the SD of differences near 1; with the pilot shift they keep them."""
    both = DF.dropna(subset=RATERS)
    x, y = both.device.to_numpy(), both.cuff.to_numpy()
    ref = PairMoments.of_arrays(x, y)

    def summed(shift_a, shift_d):
        a, d = (x + y) / 2 - shift_a, (x - y) - shift_d
        return PairMoments.from_shifted_sums(x.size, shift_a, shift_d, a.sum(), d.sum(),
                                             a @ a, a @ d, d @ d)

    raw, shifted = summed(0.0, 0.0), summed(float(np.median((x + y) / 2)), 0.3)
    assert abs(raw.saa / ref.saa - 1) > 1e-9       # cancellation: digits lost
    assert shifted.saa == pytest.approx(ref.saa, rel=1e-13)
    assert shifted.line().slope_se == pytest.approx(ref.line().slope_se, rel=1e-12)
    # the reference itself: numpy's two-pass variance and least-squares line
    d = x - y
    assert ref.sd == pytest.approx(d.std(ddof=1), rel=1e-13)
    assert ref.line().slope == pytest.approx(np.polyfit((x + y) / 2, d, 1)[0], rel=1e-9)


@pytest.mark.parametrize("backend", sorted(LAZY))
def test_tdi_and_coverage_probability_from_the_sums_and_a_count(backend):
    """The approximate TDI with Lin's upper bound and the CP with its logit lower bound
    are functions of the moments (the CP's observed share: one count by the engine)."""
    ref = irr.Agreement.from_frame(DF, RATERS, continuous=True)
    ag = irr.Agreement.from_frame(LAZY[backend](DF), RATERS, continuous=True)
    for got, expected in ((ag.total_deviation_index(0.8), ref.total_deviation_index(0.8)),
                          (ag.coverage_probability(2.0), ref.coverage_probability(2.0))):
        assert (got.n_subjects, got.n_missing) == (expected.n_subjects, expected.n_missing)
        for name in ("estimate", "mean_difference", "sd_difference"):
            assert _close(getattr(got, name), getattr(expected, name)), name
        assert _close(tuple(got.ci), tuple(expected.ci))
        assert got.ci.method == expected.ci.method
    tdi, cp = ag.total_deviation_index(0.8), ag.coverage_probability(2.0)
    reference = ref.total_deviation_index(0.8)
    assert _close((tdi.msd, tdi.tdi_exact), (reference.msd, reference.tdi_exact))
    both = DF.dropna(subset=RATERS)
    assert cp.observed == float(((both.device - both.cuff).abs() < 2.0).mean())


def test_pair_moments_add_and_agree_with_numpy_and_the_ccc_formula():
    """PairMoments of parts add to those of the whole; the line, SD and (co)variances
    agree with numpy's least squares and Lin's (1989) CCC written out directly."""
    both = DF.dropna(subset=RATERS)
    x, y = both.device.to_numpy(), both.cuff.to_numpy()
    whole = PairMoments.of_arrays(x, y, chunk=512)  # several chunks
    parts = PairMoments.of_arrays(x[:1000], y[:1000]) + PairMoments.of_arrays(x[1000:],
                                                                              y[1000:])
    for name in ("n", "mean_a", "mean_d", "saa", "sdd"):
        assert getattr(parts, name) == pytest.approx(getattr(whole, name), rel=1e-12), name
    # a cross product is small beside the scale of its terms: compared on that scale
    assert parts.sad == pytest.approx(whole.sad, abs=1e-12 * math.sqrt(whole.saa * whole.sdd))
    a, d = (x + y) / 2, x - y
    slope, intercept = np.polyfit(a - 1e6, d, 1)
    line = whole.line()
    assert line.slope == pytest.approx(slope, rel=1e-9)
    assert line.intercept + line.slope * 1e6 == pytest.approx(intercept, rel=1e-6)
    mx, my, vxx, vyy, vxy = whole.xy()
    cov = np.cov(x, y, bias=True)
    assert (mx, my) == pytest.approx((x.mean(), y.mean()), rel=1e-15)
    assert (vxx, vyy, vxy) == pytest.approx((cov[0, 0], cov[1, 1], cov[0, 1]), rel=1e-10)
    lin = 2 * cov[0, 1] / (cov[0, 0] + cov[1, 1] + (x.mean() - y.mean()) ** 2)
    ccc = irr.concordance(x, y)
    assert ccc.estimate == pytest.approx(lin, rel=1e-10)
    empty = PairMoments.from_shifted_sums(0, 1.0, 0.0, 0, 0, 0, 0, 0)
    assert (empty + whole).n == whole.n
    assert math.isnan(empty.sd)


@pytest.mark.parametrize("backend", sorted(LAZY))
def test_what_needs_the_rows_is_refused_by_name(backend):
    ag = irr.Agreement.from_frame(LAZY[backend](DF), RATERS, continuous=True)
    refusals = {
        "method='nonparametric'": lambda: ag.limits_of_agreement(method="nonparametric"),
        "method='regression'": lambda: ag.limits_of_agreement(method="regression"),
        "replicates='constant'": lambda: ag.limits_of_agreement(replicates="constant"),
        "method='exact', ci=None (a bootstrap": lambda: ag.total_deviation_index(
            method="exact"),
        "ci='percentile' (a bootstrap": lambda: ag.total_deviation_index(ci="percentile"),
        "The coverage probability with ci='bca'": lambda: ag.coverage_probability(
            2.0, ci="bca"),
        "Deming regression": ag.deming,
        "Passing–Bablok regression": ag.passing_bablok,
        "The ICC by variance components": ag.icc_components,
        "The standard error of measurement": ag.measurement_error,
        "ci='bca'": lambda: ag.concordance(ci="bca"),
        "method='overall'": lambda: ag.concordance("overall"),
        "The ICC": ag.icc,
        "The summary of continuous measurements": ag.summary,
    }
    for what, call in refusals.items():
        with pytest.raises(ValueError, match="needs the rows") as info:
            call()
        message = str(info.value)
        assert what in message, (what, message)
        assert "Collect the rater columns, or a sample" in message
    with pytest.raises(ValueError, match="continuous measurements"):
        ag.kappa()


@pytest.mark.parametrize("backend", sorted(LAZY))
def test_a_bland_altman_plot_of_a_lazy_result_is_refused_not_collected(backend):
    pytest.importorskip("matplotlib")
    import matplotlib

    matplotlib.use("Agg")
    from irr import plotting

    ag = irr.Agreement.from_frame(LAZY[backend](DF), RATERS, continuous=True)
    res = ag.limits_of_agreement()
    for what in ("means", "differences"):
        with pytest.raises(ValueError, match="points of a Bland-Altman plot") as info:
            getattr(res, what)
        assert "never hands over its rows" in str(info.value)
    with pytest.raises(ValueError, match="points of a Bland-Altman plot"):
        plotting.bland_altman(ag)
    # a report draws no figure, and says why
    report = irr.report(ag)
    assert report.figures == ()
    assert any(note.startswith("No figures: the measurements were summed by the engine")
               for note in report.notes)
    # the summary and the sentence need no rows
    assert "Bias (device - cuff)" in res.summary().as_text()
    assert res.report().startswith("The mean difference device − cuff was ")


def test_infinite_values_and_undefined_differences_are_errors_as_in_memory():
    df = DF.copy()
    df.loc[5, "device"] = np.inf
    with pytest.raises(ValueError, match="infinite"):
        irr.Agreement.from_frame(df, RATERS, continuous=True)
    lazy = irr.Agreement.from_frame(duckdb.from_df(df), RATERS, continuous=True)
    with pytest.raises(ValueError, match="1 infinite value"):
        lazy.limits_of_agreement()
    signed = DF.assign(cuff=DF.cuff - 1e6)  # values near 0 of both signs
    with pytest.raises(ValueError, match="needs positive measurements"):
        irr.Agreement.from_frame(signed, RATERS, continuous=True).limits_of_agreement(
            scale="ratio")
    lazy = irr.Agreement.from_frame(pl.from_pandas(signed).lazy(), RATERS, continuous=True)
    with pytest.raises(ValueError, match=r"`scale='ratio'` needs positive measurements"):
        lazy.limits_of_agreement(scale="ratio")
    zero = pd.DataFrame({"x": [1.0, -2.0, 3.0, 4.5], "y": [1.5, 2.0, 2.0, 4.0]})
    with pytest.raises(ValueError, match="mean 0"):
        irr.Agreement.from_frame(duckdb.from_df(zero), continuous=True).limits_of_agreement(
            scale="percent")


def test_polars_nulls_and_nans_are_missing_measurements_as_in_pandas():
    frame = pl.from_pandas(DF, nan_to_null=False).with_columns(
        pl.when(pl.col("patient") == 3).then(None).otherwise(pl.col("cuff")).alias("cuff"))
    expected = DF.copy()
    expected.loc[3, "cuff"] = np.nan
    ref = irr.Agreement.from_frame(expected, RATERS, continuous=True)
    # polars keeps the pandas nan as nan (not null): both are missing measurements
    assert frame.select(pl.col("device").is_nan().sum()).item() == 70
    ag = irr.Agreement.from_frame(frame.lazy(), RATERS, continuous=True)
    assert ag.n_missing == ref.n_missing
    _assert_same_limits(ag.limits_of_agreement(), ref.limits_of_agreement())
    with pytest.raises(ValueError, match=f"{ref.n_missing} subject"):
        irr.Agreement.from_frame(frame.lazy(), RATERS, continuous=True, nan_policy="raise")


def test_too_few_pairs_and_constant_differences_behave_as_in_memory():
    tiny = pd.DataFrame({"x": [1.5, np.nan, 2.5], "y": [1.0, 2.0, np.nan]})
    for frame in (tiny, duckdb.from_df(tiny)):
        with pytest.raises(ValueError, match="at least two subjects measured by both"):
            irr.Agreement.from_frame(frame, continuous=True).limits_of_agreement()
        with pytest.raises(ValueError, match="at least three subjects"):
            irr.Agreement.from_frame(frame, continuous=True).concordance()
    flat = pd.DataFrame({"x": [1.5, 2.5, 3.5, 4.5], "y": [1.0, 2.0, 3.0, 4.0]})
    ref = irr.Agreement.from_frame(flat, continuous=True)
    lazy = irr.Agreement.from_frame(pl.from_pandas(flat).lazy(), continuous=True)
    with pytest.warns(irr.DegenerateDataWarning, match="Every difference is the same"):
        expected = ref.limits_of_agreement()
    with pytest.warns(irr.DegenerateDataWarning, match="Every difference is the same"):
        got = lazy.limits_of_agreement()
    assert (got.estimate, got.sd, got.lower, got.upper) == (0.5, 0.0, 0.5, 0.5)
    assert math.isnan(got.lower_ci.low)
    assert math.isnan(expected.lower_ci.low)


@pytest.mark.parametrize("backend", sorted(LAZY))
def test_by_group_sums_each_groups_moments(backend):
    for statistic in ("loa", "ccc"):
        ref = irr.by(DF, "site", RATERS, statistic)
        got = irr.by(LAZY[backend](DF), "site", RATERS, statistic)
        assert list(got.columns) == list(ref.columns)
        assert got[["site", "coefficient", "ci_method", "n_subjects", "n_missing"]].equals(
            ref[["site", "coefficient", "ci_method", "n_subjects", "n_missing"]])
        for column in ("estimate", "se", "ci_low", "ci_high"):
            assert got[column].to_numpy() == pytest.approx(ref[column].to_numpy(),
                                                           nan_ok=True, **TOL), column
    with pytest.raises(ValueError, match="The standard error of measurement needs the rows"):
        irr.by(LAZY[backend](DF), "site", RATERS, "sem")


def test_a_local_dask_cluster_with_two_workers_sums_the_same_moments():
    distributed = pytest.importorskip("distributed")
    ref = irr.Agreement.from_frame(DF, RATERS, continuous=True)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        cluster = distributed.LocalCluster(n_workers=2, threads_per_worker=1, processes=True,
                                           dashboard_address=None)
        client = distributed.Client(cluster)
    try:
        frame = dd.from_pandas(DF, npartitions=8).persist()
        ag = irr.Agreement.from_frame(frame, RATERS, continuous=True)
        _assert_same_limits(ag.limits_of_agreement(), ref.limits_of_agreement())
        _assert_same_ccc(ag.concordance(), ref.concordance())
    finally:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            client.close()
            cluster.close()


# -- Parquet beyond the memory limit from the command line --------------------------------
def test_irr_agreement_streams_parquet_measurements_and_equals_the_in_memory_report(tmp_path):
    path = tmp_path / "bp.parquet"
    DF.to_parquet(path, row_group_size=1000)
    ref = irr.Agreement.from_frame(DF, RATERS, continuous=True)
    loa, ccc = ref.limits_of_agreement(), ref.concordance()
    code, out, err = cli("agreement", str(path), "--raters", *RATERS, "--max-bytes", "10000",
                         "--format", "json")
    assert code == 0, err
    report = json.loads(out)
    rows = {r["coefficient"]: r for r in report["results"]}
    limits = rows["Limits of agreement"]
    for name, expected in (("estimate", loa.estimate), ("se", loa.se), ("sd", loa.sd),
                           ("upper_ci_high", loa.upper_ci.high), ("slope_se", loa.slope_se),
                           ("n_missing", loa.n_missing)):
        assert limits[name] == pytest.approx(expected, **TOL), name
    for name, expected in (("estimate", ccc.estimate), ("se", ccc.se), ("ci_low", ccc.ci.low)):
        assert rows["Lin's CCC"][name] == pytest.approx(expected, **TOL), name
    assert report["data"]["n_subjects"] == len(DF)
    assert report["data"]["n_incomplete"] == ref.n_missing
    assert report["data"]["ratings_per_rater"] == {"device": len(DF) - 70,
                                                   "cuff": len(DF) - 50}
    code, out, err = cli("agreement", str(path), "--raters", *RATERS, "--max-bytes", "10000")
    assert code == 0, err
    assert f"{len(DF):,} rows streamed by DuckDB, summed by the engine" in out
    assert "statistics that need the rows (the SEM, regressions" in out
    code, out, err = cli("agreement", str(path), "--raters", *RATERS, "--max-bytes", "10000",
                         "--statistics", "tdi,cp", "--delta", "2", "--format", "json")
    assert code == 0, err
    rows = {r["symbol"]: r for r in json.loads(out)["results"]}
    assert rows["CP"]["estimate"] == pytest.approx(ref.coverage_probability(2.0).estimate,
                                                   **TOL)
    code, _, err = cli("agreement", str(path), "--raters", *RATERS, "--max-bytes", "10000",
                       "--statistics", "sem")
    assert code == 1
    assert "The standard error of measurement needs the rows" in err
    long = tmp_path / "long.parquet"
    DF.melt(id_vars="patient", value_vars=RATERS, var_name="method").to_parquet(long)
    code, _, err = cli("agreement", str(long), "--subject", "patient", "--rater", "method",
                       "--rating", "value", "--max-bytes", "10000")
    assert code == 1
    assert "long data streamed from disk are not read by `irr agreement`" in err


def test_spark_measurements_when_java_and_pyspark_are_present():
    pyspark = pytest.importorskip(
        "pyspark", reason="pyspark is not installed: the Spark test is skipped")
    session = pyspark.sql.SparkSession.builder.master("local[1]").getOrCreate()
    try:
        frame = session.createDataFrame(DF[RATERS].astype(object).where(DF[RATERS].notna(),
                                                                        None))
        ref = irr.Agreement.from_frame(DF, RATERS, continuous=True)
        ag = irr.Agreement.from_frame(frame, RATERS, continuous=True)
        _assert_same_limits(ag.limits_of_agreement(), ref.limits_of_agreement())
        _assert_same_ccc(ag.concordance(), ref.concordance())
    finally:
        session.stop()
