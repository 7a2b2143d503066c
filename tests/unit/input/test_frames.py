"""Issue 21: dataframes other than pandas. Eager frames (polars, pyarrow) are read as their
pandas conversion; lazy and distributed ones (polars LazyFrame, DuckDB, Dask, a Dask
cluster, Spark) are reduced by their engine to counts of rating patterns, and every
coefficient equals the in-memory pandas result (to 1e-12; the bootstrap replicates too)."""

import json
import re
import warnings

import numpy as np
import pandas as pd
import pytest

import irr
from tests.support.cli_runner import cli

pl = pytest.importorskip("polars")
pa = pytest.importorskip("pyarrow")
duckdb = pytest.importorskip("duckdb")
dd = pytest.importorskip("dask.dataframe")

# narwhals announces that its Dask support moves to a separate package; dask itself may
# warn about its query planner: neither is irr's concern
pytestmark = pytest.mark.filterwarnings("ignore::FutureWarning")


def _ratings(n=400, raters=4, seed=3):
    """Wide ordinal ratings 1-4 by `raters` raters with an id column and missing ratings."""
    rng = np.random.default_rng(seed)
    truth = rng.integers(1, 5, n)
    columns = {f"reader{j}": np.clip(truth + rng.integers(-1, 2, n), 1, 4).astype(float)
               for j in range(1, raters + 1)}
    df = pd.DataFrame({"case_id": np.arange(1000, 1000 + n), **columns})
    df.loc[rng.choice(n, 30, replace=False), "reader3"] = np.nan
    df["site"] = np.where(df["case_id"] % 3 == 0, "north", "south")
    return df


DF = _ratings()
RATERS = ["reader1", "reader2", "reader3", "reader4"]

EAGER = {"polars": pl.from_pandas, "pyarrow": pa.Table.from_pandas}
LAZY = {
    "polars-lazy": lambda df: pl.from_pandas(df).lazy(),
    "duckdb": duckdb.from_df,
    "dask": lambda df: dd.from_pandas(df, npartitions=3),
}
ALL = {**EAGER, **LAZY}


def _coefficients(ag):
    return {
        "fleiss": ag.fleiss_kappa(),
        "alpha_ordinal": ag.krippendorff_alpha("ordinal", n_resamples=200),
        "gwet": ag.gwet_ac(),
        "conger": ag.conger_kappa(),
    }


def _assert_same(ag, ref):
    assert ag.n_subjects == ref.n_subjects
    assert ag.raters == ref.raters
    for name, expected in _coefficients(ref).items():
        got = _coefficients(ag)[name]
        assert got.estimate == pytest.approx(expected.estimate, abs=1e-12), name
        assert got.se == pytest.approx(expected.se, abs=1e-12, nan_ok=True), name
        assert tuple(got.ci) == pytest.approx(tuple(expected.ci), abs=1e-12), name


@pytest.mark.parametrize("backend", sorted(ALL))
def test_wide_frame_of_every_backend_equals_pandas(backend):
    ref = irr.Agreement.from_frame(DF, RATERS)
    _assert_same(irr.Agreement.from_frame(ALL[backend](DF), RATERS), ref)


@pytest.mark.parametrize("backend", sorted(ALL))
def test_two_raters_quadratic_kappa_equals_pandas(backend):
    ref = irr.Agreement.from_frame(DF, ["reader1", "reader3"]).kappa(weights="quadratic")
    got = irr.Agreement.from_frame(ALL[backend](DF), ["reader1", "reader3"]).kappa(
        weights="quadratic")
    assert (got.estimate, got.se, got.se0) == pytest.approx(
        (ref.estimate, ref.se, ref.se0), abs=1e-12)
    assert got.n_subjects == ref.n_subjects == 370
    assert got.n_missing == 30


@pytest.mark.parametrize("backend", sorted(LAZY))
def test_lazy_frame_chooses_raters_on_its_head_and_names_what_it_set_aside(backend):
    with pytest.warns(UserWarning, match=r"'case_id'.*'site'|'site'.*'case_id'"):
        ag = irr.Agreement.from_frame(LAZY[backend](DF))
    assert ag.raters == tuple(RATERS)


@pytest.mark.parametrize("backend", sorted(LAZY))
def test_long_lazy_frame_pivoted_by_its_engine(backend):
    long = DF.melt(id_vars=["case_id", "site"], value_vars=RATERS, var_name="reader",
                   value_name="grade")
    ref = irr.Agreement.from_long(long, subject="case_id", rater="reader", rating="grade")
    ag = irr.Agreement.from_long(LAZY[backend](long), subject="case_id", rater="reader",
                                 rating="grade")
    _assert_same(ag, ref)


@pytest.mark.parametrize("backend", sorted(LAZY))
def test_long_lazy_frame_with_a_repeated_pair_is_refused(backend):
    long = pd.DataFrame({"s": [1, 1, 1, 2, 2], "r": ["a", "b", "b", "a", "b"],
                         "y": [1, 2, 2, 1, 1]})
    with pytest.raises(ValueError, match=r"1 \(subject, rater\) pair\(s\) occur more than once"):
        irr.Agreement.from_long(LAZY[backend](long), subject="s", rater="r", rating="y")


@pytest.mark.parametrize("backend", sorted(ALL))
def test_by_group_equals_pandas(backend):
    ref = irr.by(DF.drop(columns="case_id"), "site", RATERS, "fleiss_kappa")
    got = irr.by(ALL[backend](DF), "site", RATERS, "fleiss_kappa")
    assert got["site"].tolist() == ["north", "south"]
    np.testing.assert_allclose(got["estimate"], ref["estimate"], rtol=0, atol=1e-12)
    np.testing.assert_allclose(got["ci_low"], ref["ci_low"], rtol=0, atol=1e-12)
    assert got["n_subjects"].tolist() == ref["n_subjects"].tolist() == [133, 267]


@pytest.mark.parametrize("backend", ["polars-lazy", "duckdb"])
def test_lazy_frame_with_frequency_weights_sums_them(backend):
    counts = DF.groupby(RATERS[:2]).size().rename("n").reset_index()
    ref = irr.Agreement.from_frame(DF, RATERS[:2]).kappa()
    got = irr.Agreement.from_frame(LAZY[backend](counts), RATERS[:2],
                                   freq_weights="n").kappa()
    assert (got.estimate, got.se) == pytest.approx((ref.estimate, ref.se), abs=1e-12)


def test_duckdb_relation_counts_patterns_of_columns_with_quotes_and_spaces_in_their_names():
    # a relation's patterns are counted by DuckDB's own GROUP BY (quoted names), missing
    # ratings a key of their own, as the pandas frame counts them
    df = DF.rename(columns={"reader1": 'first "reader"', "reader3": "third reader"})
    raters = ['first "reader"', "third reader"]
    ref = irr.Agreement.from_frame(df, raters).kappa(weights="quadratic")
    got = irr.Agreement.from_frame(duckdb.from_df(df), raters).kappa(weights="quadratic")
    assert (got.estimate, got.se, got.n_subjects, got.n_missing) == pytest.approx(
        (ref.estimate, ref.se, ref.n_subjects, ref.n_missing), abs=1e-12)
    assert got.n_missing == 30


def test_eager_frames_keep_continuous_measurements():
    bp = pd.DataFrame({"patient": range(40),
                       "nurse_a": np.linspace(100, 160, 40).round(1),
                       "nurse_b": (np.linspace(100, 160, 40) + np.sin(np.arange(40))).round(1)})
    ref = irr.Agreement.from_frame(bp, id="patient").limits_of_agreement()
    got = irr.Agreement.from_frame(pl.from_pandas(bp), id="patient").limits_of_agreement()
    assert (got.estimate, got.lower, got.upper) == (ref.estimate, ref.lower, ref.upper)


@pytest.mark.parametrize("backend", sorted(LAZY))
def test_lazy_continuous_ratings_are_summed_not_collected(backend):
    """Continuous measurements of a lazy frame, wide or long, are kept lazy (their engine
    sums moments: tests/unit/input/test_frames_continuous.py); categorical statistics are
    refused with a message saying what to do."""
    bp = pd.DataFrame({"a": np.linspace(100, 160, 40).round(1),
                       "b": np.linspace(101, 161, 40).round(1)})
    ag = irr.Agreement.from_frame(LAZY[backend](bp))
    assert ag.continuous
    assert ag.n_subjects == 40
    with pytest.raises(ValueError, match="continuous measurements"):
        ag.kappa()
    assert irr.Agreement.from_frame(LAZY[backend](bp.round(0)), continuous=True).continuous
    long = bp.reset_index().melt(id_vars="index", var_name="rater", value_name="value")
    assert irr.Agreement.from_long(LAZY[backend](long), subject="index", rater="rater",
                                   rating="value").continuous


def test_bad_columns_and_objects_are_named():
    lazy = pl.from_pandas(DF).lazy()
    with pytest.raises(ValueError, match=r"`raters` names columns not in `df`: \['nobody'\]"):
        irr.Agreement.from_frame(lazy, ["reader1", "nobody"])
    with pytest.raises(ValueError, match=r"`subject` names columns not in `df`: \['id'\]"):
        irr.Agreement.from_long(lazy, subject="id", rater="reader", rating="grade")
    with pytest.raises(ValueError, match="`cluster` and `strata` need one row per subject"):
        irr.by(lazy, "site", RATERS, "fleiss_kappa", cluster="case_id")


def test_a_local_dask_cluster_with_two_workers_gives_the_in_memory_numbers():
    distributed = pytest.importorskip("distributed")
    ref = irr.Agreement.from_frame(DF, RATERS)
    pair_ref = irr.Agreement.from_frame(DF, RATERS[:2]).kappa(weights="quadratic")
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # the cluster's own start-up notices
        cluster = distributed.LocalCluster(n_workers=2, threads_per_worker=1, processes=True,
                                           dashboard_address=None)
        client = distributed.Client(cluster)
    try:
        frame = dd.from_pandas(DF, npartitions=8).persist()
        _assert_same(irr.Agreement.from_frame(frame, RATERS), ref)
        kappa = irr.Agreement.from_frame(frame, RATERS[:2]).kappa(weights="quadratic")
        assert kappa.estimate == pytest.approx(pair_ref.estimate, abs=1e-12)
        assert kappa.se == pytest.approx(pair_ref.se, abs=1e-12)
    finally:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            client.close()
            cluster.close()


def test_spark_frames_when_java_and_pyspark_are_present():
    pyspark = pytest.importorskip(
        "pyspark", reason="pyspark is not installed: the Spark test is skipped")
    session = pyspark.sql.SparkSession.builder.master("local[1]").getOrCreate()
    try:
        frame = session.createDataFrame(DF[RATERS].astype(object).where(DF[RATERS].notna(), None))
        _assert_same(irr.Agreement.from_frame(frame, RATERS),
                     irr.Agreement.from_frame(DF, RATERS))
    finally:
        session.stop()


# -- Parquet larger than memory from the command line ------------------------------------
@pytest.fixture(scope="module")
def parquet_data(tmp_path_factory):
    """Essay grades 0-4 of a human and a model (int8, some missing), one file and a
    directory of four files."""
    rng = np.random.default_rng(11)
    n = 60_000
    human = rng.integers(0, 5, n).astype("int8")
    model = np.clip(human + rng.integers(-1, 2, n), 0, 4).astype("float32")
    model[::97] = np.nan
    df = pd.DataFrame({"essay_id": np.arange(n), "human": human, "model": model})
    root = tmp_path_factory.mktemp("parquet")
    df.to_parquet(root / "grades.parquet", row_group_size=10_000)
    (root / "parts").mkdir()
    for i in range(4):
        df.iloc[i::4].to_parquet(root / "parts" / f"part{i}.parquet")
    return df, root


def test_parquet_beyond_the_memory_limit_is_streamed_and_equals_the_in_memory_kappa(
        parquet_data):
    df, root = parquet_data
    expected = irr.Agreement.from_frame(df, ["human", "model"]).kappa(weights="quadratic")
    for path in (root / "grades.parquet", root / "parts"):
        code, out, err = cli("kappa", str(path), "--weights", "quadratic", "--max-bytes",
                             "100000", "--format", "json")
        assert code == 0, err
        result = json.loads(out)["results"][0]
        assert result["estimate"] == pytest.approx(expected.estimate, abs=1e-12)
        assert result["se"] == pytest.approx(expected.se, abs=1e-12)
        assert json.loads(out)["data"]["n_subjects"] == 60_000
    code, out, err = cli("kappa", str(root / "grades.parquet"), "--max-bytes", "100000")
    assert code == 0, err
    assert "60,000 rows streamed by DuckDB, " in out
    assert re.search(r"Missing ratings:\s+619 in 619 subjects", out)
    assert "'essay_id' (its name) set aside as an identifier" in out


def test_streamed_parquet_refuses_what_needs_rows(parquet_data):
    _, root = parquet_data
    code, _, err = cli("report", str(root / "parts"), "--by", "human")
    assert code == 1
    assert "--by is not available on Parquet data streamed from disk" in err
    code, _, err = cli("kappa", str(root / "parts"), "--raters", "human", "nobody")
    assert code == 1
    assert "nobody" in err


def test_streaming_shows_engine_progress_on_a_terminal_only(monkeypatch):
    import io
    import time

    import irr.cli

    class Terminal(io.StringIO):
        def isatty(self):
            return True

    class Connection:  # DuckDB's query_progress: -1 before the query, then percent
        def __init__(self):
            self.calls = 0

        def query_progress(self):
            self.calls += 1
            return -1.0 if self.calls == 1 else 60.0

    def compute():
        time.sleep(0.7)
        return "patterns"

    terminal = Terminal()
    monkeypatch.setattr("sys.stderr", terminal)
    connection = Connection()
    assert irr.cli._with_progress(compute, connection) == "patterns"
    assert "Counting rating patterns:  60%" in terminal.getvalue()
    assert connection.calls >= 2
    piped = io.StringIO()
    monkeypatch.setattr("sys.stderr", piped)
    assert irr.cli._with_progress(compute, Connection()) == "patterns"
    assert piped.getvalue() == ""

    def broken():
        raise ValueError("column 'grade' not found")

    monkeypatch.setattr("sys.stderr", Terminal())
    with pytest.raises(ValueError, match="column 'grade' not found"):
        irr.cli._with_progress(broken, Connection())


def test_csv_beyond_the_memory_limit_is_streamed_with_its_missing_markers(tmp_path):
    rng = np.random.default_rng(12)
    n = 20_000
    a = rng.integers(1, 5, n)
    b = np.clip(a + rng.integers(-1, 2, n), 1, 4).astype(object)
    b[::40] = "."
    path = tmp_path / "readings.tsv"
    pd.DataFrame({"patient": np.arange(n), "reader_a": a, "reader_b": b}).to_csv(
        path, sep="\t", index=False)
    streamed = cli("kappa", str(path), "--weights", "quadratic", "--na-values", ".",
                   "--max-bytes", "50K", "--format", "json")
    in_memory = cli("kappa", str(path), "--weights", "quadratic", "--na-values", ".",
                    "--format", "json")
    assert streamed[0] == in_memory[0] == 0, (streamed[2], in_memory[2])
    got, expected = (json.loads(out[1])["results"][0] for out in (streamed, in_memory))
    assert got["estimate"] == pytest.approx(expected["estimate"], abs=1e-12)
    assert got["se"] == pytest.approx(expected["se"], abs=1e-12)
    assert json.loads(streamed[1])["data"]["n_missing_ratings"] == 500
    code, _, err = cli("kappa", str(path), "--max-bytes", "50K", "--encoding", "latin-1")
    assert code == 1
    assert "files above the input limit are read as UTF-8" in err


def test_a_lazy_frame_with_list_or_struct_ratings_names_the_columns():
    frame = pl.DataFrame({"id": [1, 2, 3, 4], "r1": [[1], [2], [1], [2]], "r2": [1, 2, 1, 1],
                          "r3": [{"a": 1}] * 4})
    with pytest.raises(TypeError, match=r"`r1` \(List\(Int64\)\), `r3` \(Struct.*lists or "
                                        r"structs"):
        irr.Agreement.from_frame(frame.lazy(), id="id")
    relation = duckdb.sql("SELECT * FROM (VALUES (1, [1], 1), (2, [2], 2)) t(id, r1, r2)")
    with pytest.raises(TypeError, match=r"`r1` \(INTEGER\[\]\) holds lists or structs"):
        irr.Agreement.from_frame(relation, ["r1", "r2"])


def _relation_of_kinds():
    """A DuckDB relation of every column type read as numpy: integers with NULLs, an
    unsigned one, doubles with NaN and NULL, booleans with NULL, strings with NULL."""
    rng = np.random.default_rng(5)
    n = 300
    a = rng.integers(1, 4, n)
    nulls = rng.random((4, n)) < 0.1
    table = pa.table({
        "i": pa.array([None if m else int(v) for v, m in zip(a, nulls[0], strict=True)],
                      pa.int16()),
        "u": pa.array(rng.integers(0, 3, n), pa.uint32()),
        "f": pa.array([None if m else (float("nan") if v == 3 else v / 2)
                       for v, m in zip(a, nulls[1], strict=True)], pa.float64()),
        "b": pa.array([None if m else bool(v > 1) for v, m in zip(a, nulls[2], strict=True)]),
        "s": pa.array([None if m else "xyz"[v - 1] for v, m in zip(a, nulls[3], strict=True)]),
    })
    return duckdb.connect().from_arrow(table)


def test_relation_patterns_are_the_rows_and_counts_of_wide_patterns():
    # the same patterns and counts as numpy columns, in the order of the pandas pattern
    # table (sorted, missing last), made reproducible: rows tied there (nan in one, NULL in
    # the other), which that table leaves in the engine's varying order, in a fixed order
    from irr._frames import missing_values, numpy_relation, relation_patterns, wide_patterns
    rel = _relation_of_kinds()
    assert numpy_relation(rel)
    raters = ["i", "u", "f", "b", "s"]
    rows, counts = relation_patterns(rel, raters)
    table, chosen, count = wide_patterns(rel, raters, None, None, False)
    assert chosen == raters
    assert counts.dtype == np.int64

    def key(value):  # missing (None, NA, nan) alike; numbers as floats (pandas' ints
        # with NULL are floats)
        if value is None or value is pd.NA or (isinstance(value, float) and value != value):
            return "missing"
        if isinstance(value, (bool, np.bool_)):
            return bool(value)
        return float(value) if isinstance(value, (int, float, np.number)) else value

    numpy_rows = [tuple(key(None if np.ma.is_masked(v) else v) for v in pattern)
                  for pattern in zip(*rows.values(), strict=True)]
    pandas_rows = [tuple(key(v) for v in pattern)
                   for pattern in table[raters].astype(object).itertuples(index=False)]
    assert sorted(zip(numpy_rows, counts.tolist(), strict=True), key=repr) == sorted(
        zip(pandas_rows, table[count].tolist(), strict=True), key=repr)
    as_pandas = pd.DataFrame({name: np.where(missing_values(v), None, np.ma.getdata(v))
                              for name, v in rows.items()})
    order = as_pandas.sort_values(raters, na_position="last", kind="stable").index
    assert order.tolist() == list(range(len(counts)))  # sorted as the pandas table is
    again, again_counts = relation_patterns(rel, raters)
    assert again_counts.tolist() == counts.tolist()
    for name in raters:
        assert missing_values(again[name]).tolist() == missing_values(rows[name]).tolist()
        assert np.ma.getmaskarray(again[name]).tolist() == \
            np.ma.getmaskarray(rows[name]).tolist()


def test_relation_head_is_the_first_rows_as_numpy():
    from irr._frames import missing_values, relation_head
    rel = _relation_of_kinds()
    head = relation_head(rel, 10)
    assert list(head) == ["i", "u", "f", "b", "s"]
    expected = rel.limit(10).df()
    for name, values in head.items():
        assert len(values) == 10
        missing = missing_values(values)  # NULL (masked) or nan
        assert missing.tolist() == expected[name].isna().tolist(), name
        assert np.ma.getdata(values)[~missing].tolist() == \
            expected[name][~missing].tolist(), name


def test_numpy_relation_is_booleans_numbers_and_strings_only():
    from irr._frames import numpy_relation
    con = duckdb.connect()
    assert numpy_relation(con.sql("SELECT 1::TINYINT a, 'x' b, true c, 1.5::DOUBLE d, 2::UBIGINT e"))
    assert not numpy_relation(con.sql("SELECT 1 a, DATE '2020-01-01' b"))
    assert not numpy_relation(con.sql("SELECT 1 a, 1.5::DECIMAL(4, 2) b"))
    assert not numpy_relation(con.sql("SELECT 1 a, [1] b"))
    assert not numpy_relation(pd.DataFrame({"a": [1]}))


def test_relation_patterns_refuse_unknown_and_nested_raters():
    from irr._frames import relation_patterns
    con = duckdb.connect()
    rel = con.sql("SELECT 1 a, 2 b, [1, 2] c")
    with pytest.raises(ValueError, match="names columns not in"):
        relation_patterns(rel, ["a", "nope"])
    with pytest.raises(TypeError, match="lists or structs"):
        relation_patterns(rel, ["a", "c"])
