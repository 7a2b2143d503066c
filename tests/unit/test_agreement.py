"""Agreement construction, the two-rater table and kappa: behaviour and bad input."""

import math
import re
import warnings

import numpy as np
import pandas as pd
import pytest

import irr
from irr import DegenerateDataWarning
from irr._columns import ContinuousScoresWarning
from tests.support.crowd import crowd_labels


def test_table_is_labelled_and_built_from_codes():
    ag = irr.Agreement(["b", "a", "b", "c"], ["b", "b", "b", "c"])
    assert list(ag.categories) == ["a", "b", "c"]
    expected = pd.DataFrame(
        [[0, 1, 0], [0, 2, 0], [0, 0, 1]],
        index=pd.Index(["a", "b", "c"], name="rater1"),
        columns=pd.Index(["a", "b", "c"], name="rater2"),
    )
    pd.testing.assert_frame_equal(ag.table, expected)


def test_declared_categories_include_unobserved_levels():
    ag = irr.Agreement([1, 2, 2], [1, 2, 3], categories=[1, 2, 3, 4, 5])
    assert ag.table.shape == (5, 5)
    assert list(ag.categories) == [1, 2, 3, 4, 5]


def test_numeric_labels_are_scores_so_unused_levels_count_as_distance():
    # Scores are the values 1, 2, 7: linear weights use |x_i - x_j| / 6, not index spacing.
    a, b = [1, 2, 7, 7, 1], [2, 2, 7, 1, 1]
    res = irr.Agreement(a, b).kappa("linear")
    w = 1 - np.abs(np.subtract.outer([1, 2, 7], [1, 2, 7])) / 6
    np.testing.assert_allclose(res.weight_matrix, w, rtol=0, atol=1e-15)
    declared = irr.Agreement(a, b, categories=[1, 2, 3, 4, 5, 6, 7]).kappa("linear")
    assert declared.estimate == pytest.approx(res.estimate, abs=1e-15)


def test_ordered_categorical_gives_order_and_position_scores():
    dtype = pd.CategoricalDtype(["low", "mid", "high"], ordered=True)
    a = pd.Series(["low", "mid", "high", "high"], dtype=dtype)
    b = pd.Series(["low", "high", "high", "mid"], dtype=dtype)
    ag = irr.Agreement(a, b)
    assert list(ag.categories) == ["low", "mid", "high"]
    res = ag.kappa("quadratic")
    np.testing.assert_allclose(res.weight_matrix[0], [1, 0.75, 0])


def test_weighted_kappa_on_unordered_strings_raises():
    ag = irr.Agreement(["x", "y", "z"], ["x", "z", "z"])
    with pytest.raises(ValueError, match=r"`weights='linear'` needs ordered categories"):
        ag.kappa("linear")
    declared = irr.Agreement(["x", "y", "z"], ["x", "z", "z"], categories=["z", "y", "x"])
    assert declared.kappa("linear").weights == "linear"


def test_bool_and_float_integral_labels():
    ag = irr.Agreement([True, False, True, True], [True, False, False, True])
    assert list(ag.categories) == [False, True]
    ag = irr.Agreement([1.0, 2.0, 3.0], [1.0, 2.0, 2.0])
    assert list(ag.categories) == [1, 2, 3]


def test_missing_ratings_are_dropped_counted_and_reported():
    a = [1, 2, None, 3, 2, np.nan]
    b = [1, 2, 3, pd.NA, 2, 1]
    ag = irr.Agreement(a, b)
    assert ag.n_subjects == 6
    assert ag.n_missing == 3
    with pytest.warns(DegenerateDataWarning, match="Wald interval undefined"):
        res = ag.kappa()  # the 3 complete pairs agree: se = 0, no Wald interval
    assert res.n_subjects == 3
    assert res.n_missing == 3
    assert "3 subject(s) with a missing rating were left out (listwise)." in res.notes
    with pytest.warns(DegenerateDataWarning, match="Wald interval undefined"):
        text = ag.summary().as_text()
    assert re.search(r"Subjects used:\s+3 of 6 \(listwise\)\s", text)
    assert re.search(r"Missing ratings:\s+3 in 3 subjects\s", text)
    with pytest.raises(ValueError, match=r"3 subject\(s\) have missing ratings \(rows \[2, 3, 5\]\)"):
        irr.Agreement(a, b, nan_policy="raise")


def test_series_names_become_rater_names():
    df = pd.DataFrame({"reader1": [1, 2, 3], "reader2": [1, 2, 2]})
    assert irr.Agreement(df["reader1"], df["reader2"]).raters == ("reader1", "reader2")
    assert irr.Agreement.from_frame(df).raters == ("reader1", "reader2")


def test_undefined_kappa_is_nan_with_a_warning():
    ag = irr.Agreement([1, 1, 1], [1, 1, 1])
    with pytest.warns(DegenerateDataWarning, match="expected agreement is 1"):
        res = ag.kappa()
    assert math.isnan(res.estimate)
    assert math.isnan(res.ci.low)
    assert math.isnan(res.pvalue)


@pytest.mark.filterwarnings("ignore:Wald interval undefined:irr.DegenerateDataWarning")
def test_perfect_agreement_is_one_and_kappa_at_most_kappa_max():
    res = irr.Agreement([1, 2, 3, 1], [1, 2, 3, 1]).kappa("quadratic")
    assert res.estimate == 1.0
    assert res.kappa_max == pytest.approx(1.0, abs=1e-12)
    res = irr.Agreement([1, 2, 3, 1, 2], [1, 3, 3, 2, 2]).kappa("linear")
    assert res.estimate <= res.kappa_max + 1e-12 <= 1 + 1e-12


def test_weighted_kappa_max_solves_the_transport_problem():
    # Brute force over all 2x2 tables with the margins fixed (n = 10): the best p_o.
    table = np.array([[3, 4], [1, 2]])
    w = np.array([[1.0, 0.3], [0.3, 1.0]])
    res = irr.Agreement.from_table(table).kappa(w)
    row, col, n = table.sum(1), table.sum(0), table.sum()
    best = max(
        (w * np.array([[x, row[0] - x], [col[0] - x, row[1] - col[0] + x]])).sum() / n
        for x in range(0, min(row[0], col[0]) + 1)
        if row[1] - col[0] + x >= 0
    )
    pe = row @ w @ col / n**2
    assert res.kappa_max == pytest.approx((best - pe) / (1 - pe), abs=1e-9)


def test_conf_int_other_level_and_clipping():
    ag = irr.Agreement.from_table([[10, 4, 1, 0], [5, 10, 12, 2], [2, 4, 12, 5], [0, 2, 6, 13]])
    res = ag.kappa()
    ci90 = res.conf_int(confidence_level=0.90)
    assert ci90.low == pytest.approx(res.estimate - 1.6448536269514722 * res.se, rel=1e-12)
    assert ci90.confidence_level == 0.90
    near_one = irr.Agreement.from_table([[30, 0], [1, 1]]).kappa()
    assert near_one.ci.high == 1.0
    assert near_one.ci.note == "clipped to [-1, 1]"
    assert "Wald interval clipped to the coefficient's range: Cohen's kappa." in (
        near_one.summary().as_text()
    )


def test_result_protocol():
    res = irr.cohen_kappa([1, 2, 3, 3, 2], [1, 2, 3, 2, 2])
    lo, hi = res.ci
    assert lo < res.estimate < hi
    assert repr(res).startswith("KappaResult(coefficient=\"Cohen's kappa\", estimate=0.6875")
    assert str(res) == res.summary().as_text()
    assert "<table" in res._repr_html_()
    assert r"\begin{tabular}" in res.summary().as_latex()
    frame = res.to_frame()
    assert list(frame.columns) == list(irr.results.FRAME_COLUMNS)
    assert frame.loc["Cohen's kappa", "estimate"] == res.estimate
    d = res.to_dict()
    assert d["se0"] == res.se0
    assert d["observed_agreement"] == pytest.approx(0.8)
    both = pd.concat([res.to_frame(), irr.Agreement([1, 2], [1, 1]).percent_agreement().to_frame()])
    assert both.shape == (2, len(irr.results.FRAME_COLUMNS))
    assert str(res.interpret()) == "substantial"


def test_summary_is_deterministic_and_has_no_date():
    ag = irr.Agreement.from_frame(irr.datasets.load("vision"))
    text = ag.summary().as_text()
    assert text == ag.summary().as_text()
    assert "Date" not in text
    assert "Time" not in text
    for name in ("Percent agreement", "Cohen's kappa", "Weighted kappa (linear)",
                 "Weighted kappa (quadratic)"):
        assert name in text


def test_summary_of_unordered_labels_leaves_out_weighted_kappas():
    text = irr.Agreement(["x", "y", "z", "x"], ["x", "z", "z", "x"]).summary().as_text()
    assert "Cohen's kappa" in text
    assert "Weighted" not in text


BAD_INPUT = [
    (lambda: irr.Agreement([1, 2, 3], [1, 2]), ValueError,
     r"All raters must rate the same subjects: `rater_a` has 3, `rater_b` has 2 ratings"),
    (lambda: irr.Agreement([], []), ValueError, r"`rater_a` is empty"),
    (lambda: irr.Agreement([[1, 2], [3, 4]], [1, 2]), ValueError,
     r"`rater_a` must be 1-D .* shape \(2, 2\)"),
    (lambda: irr.Agreement(5, [1]), TypeError, r"`rater_a` must be a 1-D array-like"),
    (lambda: irr.Agreement([1, "1"], [1, 1]), TypeError, r"`rater_a` mixes label types"),
    (lambda: irr.Agreement([1, np.inf], [1, 1]), ValueError, r"`rater_a` contains infinite ratings"),
    (lambda: irr.Agreement([1, 9], [1, 2], categories=[1, 2, 3]), ValueError,
     r"`rater_a` has labels outside `categories`: \[9\]"),
    (lambda: irr.Agreement([1, 2], [1, 2], categories=[1, 2, 2]), ValueError,
     r"`categories` contains duplicates: \[2\]"),
    (lambda: irr.Agreement([1, 2], [1, 2], categories=[[1], [2]]), TypeError,
     r"`categories` holds lists \(\[\[1\], \[2\]\]\), but every value must be a single label"),
    (lambda: irr.Agreement([1, 2], [1, 2], nan_policy="drop"), ValueError,
     r"`nan_policy` must be one of 'omit', 'raise'; got 'drop'"),
    (lambda: irr.Agreement([None, None], [None, None]), ValueError, r"Every rating is missing"),
    (lambda: irr.Agreement.from_table([[1, 2, 3], [4, 5, 6]]), ValueError,
     r"`table` must be a square k x k table; got shape \(2, 3\)"),
    (lambda: irr.Agreement.from_table([[1, -2], [3, 4]]), ValueError, r"`table` has negative counts"),
    (lambda: irr.Agreement.from_table([[1, np.nan], [3, 4]]), ValueError,
     r"`table` has non-finite counts"),
    (lambda: irr.Agreement.from_table([[1, 0.5], [3, 4]]), ValueError,
     r"`table` has non-integer counts: \[0.5\]"),
    (lambda: irr.Agreement.from_table([[0, 0], [0, 0]]), ValueError, r"`table` has no subjects"),
    (lambda: irr.Agreement.from_table([[1, 2], [3, 4]], categories=[1, 2, 3]), ValueError,
     r"`categories` must have 2 labels for a 2 x 2 table; got 3"),
    (lambda: irr.Agreement.from_frame(pd.DataFrame({"a": [1]}), ["a", "b"]), ValueError,
     r"`raters` names columns not in `df`: \['b'\]"),
    (lambda: irr.Agreement.from_frame([[1, 2]]), TypeError, r"`df` must be a pandas DataFrame"),
    (lambda: irr.Agreement([1, 2], [1, 2]).kappa("cubic"), ValueError,
     r"`weights` must be None, one of 'linear', .*; got 'cubic'"),
    (lambda: irr.Agreement([1, 2], [1, 2]).kappa(np.ones((3, 3))), ValueError,
     r"`weights` matrix must have shape \(2, 2\); got \(3, 3\)"),
    (lambda: irr.Agreement([1, 2], [1, 2]).kappa([[0.5, 0], [0, 1]]), ValueError,
     r"ones on the diagonal; got diagonal \[0.5, 1.0\]"),
    (lambda: irr.Agreement([1, 2], [1, 2]).kappa([[1, 2], [0, 1]]), ValueError,
     r"entries must lie in \[0, 1\] \(agreement weights.*got \[2.0\]"),
    (lambda: irr.Agreement([1, 2], [1, 2]).kappa([[1, np.nan], [0, 1]]), ValueError,
     r"`weights` matrix must be finite"),
    (lambda: irr.Agreement([1, 2], [1, 2]).kappa(alternative="bigger"), ValueError,
     r"`alternative` must be one of 'two-sided', 'greater', 'less'; got 'bigger'"),
    (lambda: irr.Agreement([1, 2], [1, 2]).kappa(confidence_level=1.5), ValueError,
     r"`confidence_level` must be in \(0, 1\); got 1.5"),
    (lambda: irr.Agreement([1, 2, 2], [1, 2, 1]).kappa().conf_int(method="exact"), ValueError,
     r"`method` must be one of 'wald', 'percentile', 'basic', 'bca'; got 'exact'"),
    (lambda: irr.Agreement([1, 2], [1, 2], [1, 1]).kappa(), ValueError,
     r"kappa compares two raters; this Agreement has 3"),
    (lambda: irr.quadratic_weighted_kappa([1, 2.5], [1, 2]), ValueError,
     r"`rater_a` has non-integer ratings: \[2.5\]"),
    (lambda: irr.quadratic_weighted_kappa([1, 6], [1, 2], 1, 5), ValueError,
     r"`rater_a` has ratings outside \[1, 5\]: \[6\]"),
    (lambda: irr.quadratic_weighted_kappa([1, np.nan], [1, 2]), ValueError,
     r"`rater_a` has missing ratings"),
    (lambda: irr.quadratic_weighted_kappa(["a"], ["b"]), TypeError,
     r"`rater_a` must hold integer ratings"),
]


@pytest.mark.parametrize(("call", "error", "message"), BAD_INPUT)
def test_bad_input_raises_a_clear_error(call, error, message):
    with pytest.raises(error, match=message):
        call()


def test_one_subject_is_an_error():
    with pytest.raises(ValueError, match=r"`rater_a` has a single subject"):
        irr.Agreement([1], [2])
    with pytest.raises(ValueError, match=r"kappa needs at least two subjects rated by both"):
        irr.Agreement([1, None, 2], [1, 2, None]).kappa()


def test_quadratic_weighted_kappa_with_negative_and_offset_ratings():
    from sklearn.metrics import cohen_kappa_score

    a, b = [-2, -1, 0, 1, 1, -2], [-2, 0, 0, 1, -1, -1]
    expected = cohen_kappa_score(a, b, weights="quadratic", labels=[-2, -1, 0, 1])
    assert irr.quadratic_weighted_kappa(a, b) == pytest.approx(expected, abs=1e-12)
    a, b = [7, 8, 9, 9], [7, 9, 9, 8]
    expected = cohen_kappa_score(a, b, weights="quadratic", labels=[6, 7, 8, 9, 10])
    assert irr.quadratic_weighted_kappa(a, b, 6, 10) == pytest.approx(expected, abs=1e-12)


def test_explicit_ids_switch_the_identifier_heuristic_off():
    # with id= given, every other column is a rater, even one that looks like an id
    df = pd.DataFrame({"patient_id": [1, 2, 3, 4, 5, 6], "site": list("aabbcc"),
                       "r1": [101, 102, 103, 104, 105, 106], "r2": [1, 2, 3, 3, 2, 2],
                       "r3": [1, 2, 2, 3, 2, 1]})
    with warnings.catch_warnings():
        warnings.simplefilter("error")  # and no warning about columns set aside
        ag = irr.Agreement.from_frame(df, id=["patient_id", "site"])
    assert ag.raters == ("r1", "r2", "r3")


def test_a_missing_marker_among_numbers_is_refused_naming_na_values():
    # as read_csv reads a SAS export: '.' makes r1 a column of strings
    df = pd.DataFrame({"patient_id": [1, 2, 3, 4, 5, 6], "site": list("aabbcc"),
                       "r1": ["1", "2", "3", ".", "2", "1"], "r2": [1, 2, 3, 3, 2, 2],
                       "r3": [1, 2, 2, 3, 2, 1]})
    with pytest.raises(ValueError, match=r"column 'r1' holds numbers and 1 other value\(s\) "
                                         r"'\.'.*na_values=\['\.'\]"):
        irr.Agreement.from_frame(df, id=["patient_id", "site"])
    mixed = df.assign(r1=[1, 2, 3, ".", 2, 1])
    with pytest.raises(ValueError, match="na_values"):
        irr.Agreement.from_frame(mixed, id=["patient_id", "site"])
    # marked missing, it is a three-rater study
    fixed = df.replace({"r1": {".": None}}).astype({"r1": float})
    assert irr.Agreement.from_frame(fixed, id=["patient_id", "site"]).n_raters == 3


def test_sparse_agreement_names_its_counts_and_design():
    """n_incomplete counts subjects, by the name results use; the repr shows it by that name
    and the summary's header gives the sparse design, not "Missing ratings"."""
    ag = irr.Agreement.from_long(crowd_labels(), subject="item", rater="annotator",
                                 rating="label")
    assert ag.n_incomplete == ag.n_missing == 300
    assert repr(ag).endswith("n_incomplete=300)")
    assert "n_missing" not in repr(ag)
    header = " ".join(ag.summary().as_text().split("estimate")[0].split())
    assert "Design: sparse, each subject rated by 3 to 5 of 50 raters" in header
    assert "Missing ratings" not in header


# -- from_patterns: rating patterns and their counts, as numpy ------------------------------
def _as_arrow_gives(values):
    """A numpy column (masked where missing) as pandas holds it after Arrow's own
    conversion (integers with nulls as floats, booleans and strings with nulls as objects)."""
    pa = pytest.importorskip("pyarrow")
    mask = np.ma.getmaskarray(values)
    return pa.array(np.ma.getdata(values), mask=mask if mask.any() else None).to_pandas()


def _patterns(kind):
    rng = np.random.default_rng(11)
    a = rng.integers(1, 6, 60)
    b = np.clip(a + rng.integers(-1, 2, 60), 1, 5)
    c = np.clip(a + rng.integers(-2, 2, 60), 1, 5)
    mask = rng.random((3, 60)) < 0.1
    labels = np.array(["none", "mild", "moderate", "severe", "extreme"], dtype=object)
    columns = {
        "int8": {"a": a.astype(np.int8), "b": b.astype(np.int8)},
        "masked_int64": {"r1": np.ma.masked_array(a, mask[0]), "r2": b,
                         "r3": np.ma.masked_array(c, mask[2])},
        "unsigned": {"a": a.astype(np.uint8), "b": b.astype(np.uint16), "c": c.astype(np.int32)},
        "halves": {"u": np.ma.masked_array(np.where(mask[1], np.nan, a / 2), mask[0]),
                   "v": b / 2},
        "whole_floats": {"u": np.ma.masked_array(a.astype(float), mask[0]),
                         "v": b.astype(float)},
        "bool": {"p": a > 2, "q": b > 2},
        "masked_bool": {"p": np.ma.masked_array(a > 2, mask[0]), "q": b > 2},
        "strings": {"x": np.ma.masked_array(labels[a - 1], mask[0]), "y": labels[b - 1]},
        "float32": {"a": a.astype(np.float32), "b": b.astype(np.float32)},
        "beyond_2_53": {"a": a * 2**53, "b": b * 2**53},
    }[kind]
    return columns, rng.integers(1, 40, 60)


@pytest.mark.parametrize(("kind", "categories"), [
    ("int8", None), ("int8", [1, 2, 3, 4, 5, 6]), ("int8", [5, 4, 3, 2, 1]),
    ("masked_int64", None), ("masked_int64", [0, 1, 2, 3, 4, 5]), ("unsigned", None),
    ("halves", None), ("halves", [0.5, 1, 1.5, 2, 2.5]), ("whole_floats", None),
    ("whole_floats", [1, 2, 3, 4, 5]), ("bool", None), ("bool", [True, False]),
    ("masked_bool", None), ("strings", None),
    ("strings", ["none", "mild", "moderate", "severe", "extreme"]), ("float32", None),
    ("beyond_2_53", None),
])
def test_from_patterns_is_from_frame_with_the_counts_as_weights(kind, categories):
    columns, counts = _patterns(kind)
    ag = irr.Agreement.from_patterns(columns, counts, categories=categories)
    frame = pd.DataFrame({name: _as_arrow_gives(values) for name, values in columns.items()})
    expected = irr.Agreement.from_frame(frame, list(columns), categories=categories,
                                        freq_weights=counts, continuous=False)
    assert ag.statistics == expected.statistics
    pd.testing.assert_index_equal(ag.categories, expected.categories)
    np.testing.assert_array_equal(ag.statistics.scores, expected.statistics.scores)
    assert ag.statistics.ordered == expected.statistics.ordered
    assert (ag.n_subjects, ag.n_incomplete, ag.raters) == (
        expected.n_subjects, expected.n_incomplete, expected.raters)
    assert ag.facts == expected.facts
    weights = "quadratic" if ag.statistics.scores is not None else None
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", ContinuousScoresWarning)  # halves: both warn
        if ag.n_raters == 2:
            assert ag.kappa(weights=weights).estimate == expected.kappa(weights=weights).estimate
        assert ag.fleiss_kappa().estimate == expected.fleiss_kappa().estimate
        assert ag.gwet_ac(weights=weights).estimate == expected.gwet_ac(weights=weights).estimate


def test_from_patterns_codes_numbers_with_numpy():
    # numbers and booleans never build a pandas Index: their categories stay numpy until
    # asked for (Agreement.categories), so a streamed command need not import pandas
    columns, counts = _patterns("masked_int64")
    ag = irr.Agreement.from_patterns(columns, counts)
    assert isinstance(ag.statistics.categories, np.ndarray)
    assert ag.statistics.categories.tolist() == [1, 2, 3, 4, 5]
    assert ag.statistics.categories.dtype == np.int64
    assert isinstance(ag.categories, pd.Index)
    # they add to the statistics of a frame on the same scale (pandas categories)
    frame = pd.DataFrame({name: _as_arrow_gives(v) for name, v in columns.items()})
    other = irr.Agreement.from_frame(frame, list(columns), freq_weights=counts,
                                     continuous=False).statistics
    both = ag.statistics + other
    assert both.n_subjects == 2 * int(counts.sum())
    assert both.multiplicity.tolist() == (2 * other.multiplicity).tolist()


@pytest.mark.parametrize(("columns", "counts", "categories"), [
    ({"a": np.array([1, 2]), "b": np.array([1, 3])}, [1, 1], [1, 2]),  # outside
    ({"a": np.array([1]), "b": np.array([1])}, [1], None),  # a single subject
    ({"a": np.ma.masked_all(2, dtype=np.int64), "b": np.ma.masked_all(2, dtype=np.int64)},
     [3, 4], None),  # no rating
    ({"a": np.array([1, 2])}, [1, 1], None),  # one rater
    ({"a": np.array([1.0, np.inf]), "b": np.array([1.0, 2.0])}, [2, 3], None),
])
def test_from_patterns_errors_are_from_frames(columns, counts, categories):
    frame = pd.DataFrame({name: _as_arrow_gives(values) for name, values in columns.items()})
    try:
        irr.Agreement.from_frame(frame, list(columns), categories=categories,
                                 freq_weights=np.asarray(counts), continuous=False)
    except (TypeError, ValueError) as exc:
        expected = exc
    else:
        expected = None
    if expected is None:
        irr.Agreement.from_patterns(columns, counts, categories=categories)
    else:
        with pytest.raises(type(expected)) as raised:
            irr.Agreement.from_patterns(columns, counts, categories=categories)
        assert str(raised.value) == str(expected)
