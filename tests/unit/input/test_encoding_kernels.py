"""Issue 17, the input path: each rewritten kernel against its previous form on random data."""

from __future__ import annotations

import io

import numpy as np
import pandas as pd
import pytest

import irr._columns
import irr.cli
from irr.cli import CommandError
from tests.support.measurements import assert_same_views


# -- the CLI's row check: vectorised counts against the csv module ------------------------
def _verdict(check, text: str, sep: str) -> str | None:
    try:
        check(text, sep, "'f'")
    except CommandError as exc:
        return str(exc)
    return None


_PIECES = ["1", "2", "ab", "é", " ", "\t", "", "\u3000", "x y", "\xa0", "3.5", "NA", "\x1c"]


@pytest.mark.parametrize("seed", range(6))
@pytest.mark.parametrize("sep", [",", ";", "\t", " ", "|"])
def test_row_check_matches_the_csv_module(seed, sep):
    rng = np.random.default_rng(seed)
    for _ in range(150):
        lines = []
        for _ in range(int(rng.integers(0, 7))):
            width = int(rng.integers(0, 4))
            lines.append(sep.join(str(rng.choice(_PIECES)) for _ in range(width)))
        newline = "\r\n" if rng.random() < 0.2 else "\n"
        text = newline.join(lines) + (newline if rng.random() < 0.5 else "")
        fast = _verdict(irr.cli._check_rows, text, sep)
        assert fast == _verdict(irr.cli._check_rows_csv, text, sep), repr(text)


@pytest.mark.parametrize("text", [
    "", "\n", "a,b", "a,b\n", "a,b\n\n , \n", "a,b\n1,2", "a,b\n1,2,3\n", "a,b\n1\n",
    ",\na,b\n1,2\n", "a,b\n1,2\n3\n4,5,6\n", "a,b\r\n1,2\r\n", "a,b\n1,2\n\n\n",
    'a,b\n"1,2",3\n', "a,b\r1,2\r", "\u3000\na\n1\n", "a;b\n1;2\n",
])
def test_row_check_edge_cases(text):
    assert _verdict(irr.cli._check_rows, text, ",") == _verdict(irr.cli._check_rows_csv, text, ",")


@pytest.mark.parametrize("seed", range(6))
@pytest.mark.parametrize("sep", [",", ";", "\t", " ", "|"])
def test_a_frame_of_whole_rows_passes_the_row_check(seed, sep):
    # the CLI runs the row check only when pandas' frame does not show whole rows: every
    # frame it trusts must be one the check passes (short and long rows, blank lines,
    # blanks Python's str.isspace knows and pandas does not, quotes, carriage returns)
    rng = np.random.default_rng(100 + seed)
    pieces = [*_PIECES, '"', '"1,2"', "9", '"a\nb"', '""', "'", "nan", "\x1c\x1d", "  "]
    trusted = 0
    for _ in range(300):
        width = int(rng.integers(1, 4))
        lines = [sep.join(f"c{j}" for j in range(width))]
        for _ in range(int(rng.integers(0, 6))):
            fields = width + int(rng.choice([0, 0, 0, -1, 1]))
            lines.append(sep.join(str(rng.choice(pieces)) for _ in range(max(fields, 0))))
        if rng.random() < 0.3:
            lines.insert(int(rng.integers(0, len(lines) + 1)),
                         str(rng.choice(["", " ", "\u3000", sep * 2])))
        newline = str(rng.choice(["\n", "\n", "\n", "\r\n", "\r"]))
        text = newline.join(lines) + (newline if rng.random() < 0.5 else "")
        text, _ = irr.cli._skip_leading(text, sep)  # as the CLI reads it
        try:
            frame = pd.read_csv(io.BytesIO(text.encode("utf-8")), sep=sep)
        except (pd.errors.ParserError, pd.errors.EmptyDataError):
            continue
        if irr.cli._whole_rows(frame, text):
            trusted += 1
            assert _verdict(irr.cli._check_rows, text, sep) is None, repr(text)
    assert trusted >= 3  # the property was put to the test


@pytest.mark.parametrize("text", [
    "a,b\n1,2,3\n4,5,6\n", "a,b\n1\n2,3\n", "a,b\n1,2\n3,\n", "a,b\n", "a\n1\n",
    "a,b\n1,2\n,\n", "a,b\n1, \n", "a,b\n1,\u3000\n", "a,b\r1,2\r",
    f"a,b\n{'x' * 200_000},y\nx,y\n",  # a field beyond the csv module's limit
])
def test_frames_that_do_not_show_whole_rows_are_checked(text):
    try:
        frame = pd.read_csv(io.BytesIO(text.encode("utf-8")))
    except pd.errors.EmptyDataError:
        return
    assert not irr.cli._whole_rows(frame, text)


def _skip_leading_old(text: str, sep: str) -> tuple[str, int]:
    lines = text.split("\n")
    skipped = 0
    while skipped < len(lines) - 1 and not lines[skipped].replace(sep, "").strip():
        skipped += 1
    return "\n".join(lines[skipped:]), sum(1 for line in lines[:skipped] if line.strip())


@pytest.mark.parametrize("text", ["", "\n", ",,\n,\na,b\n1,2", " \n\n,\na", ",\n,", "a\n,\n",
                                  ",\r\n,\r\na,b\r\n"])
def test_skip_leading_matches_its_previous_form(text):
    assert irr.cli._skip_leading(text, ",") == _skip_leading_old(text, ",")


# -- two integer raters: the one-pass pair table against the general coding ------------------
import irr  # noqa: E402
import irr._data  # noqa: E402
from irr._source import Source  # noqa: E402
from irr._statistics import Statistics  # noqa: E402


def _both(monkeypatch, columns, categories=None):
    """The Source of `columns` by the pair table and by the general coding (before issue 17);
    when one raises, the other must raise the same error (then None, None)."""
    outcomes = []
    for fast in (True, False):
        with monkeypatch.context() as m:
            if not fast:
                m.setattr(irr._data, "_encode_integer_pair", lambda *args: None)
            try:
                outcomes.append(Source.from_columns(columns, ["a", "b"], categories))
            except (ValueError, TypeError) as exc:
                outcomes.append((type(exc), str(exc)))
    if isinstance(outcomes[1], tuple):
        assert outcomes[0] == outcomes[1]
        return None, None
    return outcomes


def _assert_same(new, old, code_dtype=True):
    if old is None:
        return
    rn, ro = new.ratings, old.ratings
    assert rn.categories.equals(ro.categories)
    assert rn.categories.dtype == ro.categories.dtype
    assert (rn.scores is None) == (ro.scores is None)
    if ro.scores is not None:
        np.testing.assert_array_equal(rn.scores, ro.scores)
    assert rn.ordered == ro.ordered
    assert rn.raters == ro.raters
    assert rn.n_rows == ro.n_rows
    for cn, co in zip(rn.codes, ro.codes, strict=True):
        assert cn.dtype == co.dtype or not code_dtype
        np.testing.assert_array_equal(cn, co)
    assert Statistics.from_source(new) == Statistics.from_source(old)
    np.testing.assert_array_equal(new.missing_rows(), old.missing_rows())


_CASES = [
    (np.int64, 0, 5), (np.int8, -3, 4), (np.int16, 100, 140), (np.uint8, 250, 256),
    (np.uint64, 2**64 - 20, 2**64), (np.int64, -(2**63), -(2**63) + 9), (np.int64, 7, 8),
    (np.int32, 0, 300),  # too wide a range for the pair table: the general coding
]


@pytest.mark.parametrize("seed", range(4))
@pytest.mark.parametrize(("dtype", "lo", "hi"), _CASES)
@pytest.mark.parametrize("chunk", [7, 1 << 18])
@pytest.mark.filterwarnings("ignore::irr._columns.ContinuousScoresWarning")
@pytest.mark.filterwarnings("ignore::irr._validation.DegenerateDataWarning")
def test_integer_pair_coding_matches_the_general_coding(monkeypatch, seed, dtype, lo, hi, chunk):
    monkeypatch.setattr(irr._data, "_PAIR_CHUNK", chunk)
    rng = np.random.default_rng(seed)
    n = int(rng.integers(2, 200))
    values = np.array([lo + int(v) for v in rng.integers(0, hi - lo, 2 * n)], dtype=object)
    a, b = values[:n].astype(dtype), values[n:].astype(dtype)
    if seed == 1:  # ranges that grow chunk by chunk
        a, b = np.sort(a), np.sort(b)[::-1].copy()
    new, old = _both(monkeypatch, [a, b])
    _assert_same(new, old)
    if old is None:
        return
    for weights in (None, "linear", "quadratic"):
        k_new = irr.Agreement(a, b).kappa(weights).estimate
        with monkeypatch.context() as m:
            m.setattr(irr._data, "_encode_integer_pair", lambda *args: None)
            k_old = irr.Agreement(a, b).kappa(weights).estimate
        assert k_new == k_old or (np.isnan(k_new) and np.isnan(k_old))


@pytest.mark.parametrize("seed", range(3))
@pytest.mark.parametrize("categories", [range(5), range(-2, 9), [0.0, 1.0, 2.0, 3.0, 4.0],
                                        [4, 3, 2, 1, 0], np.arange(5, dtype=np.uint8)])
@pytest.mark.parametrize("dtype", [np.int64, np.int8, np.uint16, np.uint64])
def test_declared_categories_match_the_general_coding(monkeypatch, seed, categories, dtype):
    rng = np.random.default_rng(seed)
    n = 50
    a = rng.integers(0, 5, n).astype(dtype)
    b = np.clip(a.astype(int) + rng.integers(-1, 2, n), 0, 4).astype(dtype)
    _assert_same(*_both(monkeypatch, [a, b], categories))


def test_one_category_and_mixed_dtypes(monkeypatch):
    _assert_same(*_both(monkeypatch, [np.full(9, 3, np.int8), np.full(9, 3, np.int64)]))
    _assert_same(*_both(monkeypatch, [np.array([1, 2, 3], np.int8),
                                      np.array([3, 2, 2**63 + 1], np.uint64)]))
    _assert_same(*_both(monkeypatch, [np.array([1, 2, 3], np.int8),
                                      np.array([3, 2, 1], np.uint64)], range(1, 4)))


@pytest.mark.parametrize("categories", [range(4), ["a", "b"], [1.5, 2.5], [True, False]])
def test_labels_outside_categories_raise_as_before(monkeypatch, categories):
    a, b = np.array([0, 1, 2, 3, 7, 9]), np.array([0, 1, 2, 8, 3, 3])
    messages = []
    for fast in (True, False):
        with monkeypatch.context() as m:
            if not fast:
                m.setattr(irr._data, "_encode_integer_pair", lambda *args: None)
            with pytest.raises((ValueError, TypeError)) as info:
                Source.from_columns([a, b], ["a", "b"], categories)
            messages.append((info.type, str(info.value)))
    assert messages[0] == messages[1]


def test_lazy_codes_serve_the_bootstrap_and_clusters(monkeypatch):
    rng = np.random.default_rng(5)
    a = rng.integers(1, 4, 300)
    b = np.clip(a + rng.integers(-1, 2, 300), 1, 3)
    cluster = np.repeat(np.arange(30), 10)
    fits = []
    for fast in (True, False):
        with monkeypatch.context() as m:
            if not fast:
                m.setattr(irr._data, "_encode_integer_pair", lambda *args: None)
            ag = irr.Agreement(a, b, nan_policy="raise")
            fits.append((ag.kappa("quadratic", ci="bca", n_resamples=200, rng=1),
                         ag.kappa(ci="bca", n_resamples=100, rng=2,
                                  cluster=cluster)))
    for new, old in zip(*fits, strict=True):
        assert new.estimate == old.estimate
        assert new.ci.low == old.ci.low
        assert new.ci.high == old.ci.high


# -- string raters: factorised first, against the general coding -----------------------------
import warnings  # noqa: E402


def _outcome(columns, categories, fast, monkeypatch, names=("a", "b", "c")):
    with monkeypatch.context() as m:
        if not fast:
            m.setattr(irr._data, "_factorize_strings", lambda columns: None)
        with warnings.catch_warnings(record=True) as caught:
            warnings.simplefilter("always")
            try:
                source = Source.from_columns(columns, list(names[: len(columns)]), categories)
            except (ValueError, TypeError) as exc:
                return (type(exc), str(exc)), []
        return source, [(w.category, str(w.message), w.filename) for w in caught]


def _compare_strings(monkeypatch, columns, categories=None):
    (new, new_w), (old, old_w) = (_outcome(columns, categories, fast, monkeypatch)
                                  for fast in (True, False))
    assert new_w == old_w
    if isinstance(old, tuple):
        assert new == old
    else:
        _assert_same(new, old)


_LABELS = ["mild", "severe", ".", "NA", "é", "b", "a", "A", ""]


@pytest.mark.parametrize("seed", range(5))
@pytest.mark.parametrize("form", ["object", "str", "string[python]", "series-object", "U"])
@pytest.mark.parametrize("declared", [None, ["a", "b", "mild", "severe", "é", ".", "NA", "A", ""],
                                      ["severe", "mild", "a", "b"]])
def test_string_coding_matches_the_general_coding(monkeypatch, seed, form, declared):
    rng = np.random.default_rng(seed)
    n, m = int(rng.integers(2, 60)), int(rng.integers(2, 4))
    pool = _LABELS[: int(rng.integers(1, len(_LABELS) + 1))]
    columns = []
    for _ in range(m):
        values = np.array([pool[i] for i in rng.integers(0, len(pool), n)], dtype=object)
        if form != "U" and seed % 2:
            values[rng.random(n) < 0.2] = None if seed == 1 else np.nan
        if form == "object":
            columns.append(values)
        elif form == "U":
            columns.append(values.astype(str))
        elif form == "series-object":
            columns.append(pd.Series(values, dtype=object))
        else:
            columns.append(pd.Series(values, dtype=form))
    _compare_strings(monkeypatch, columns, declared)


@pytest.mark.parametrize("columns", [
    [np.array(["a", "b"], dtype=object), np.array([None, None], dtype=object)],
    [pd.Series(["a", "b"], dtype="str"), pd.Series([None, None], dtype="str")],
    [np.array(["a", "b", "c"], dtype=object), np.array(["a", "b"], dtype=object)],
    [np.array(["a"], dtype=object), np.array(["a"], dtype=object)],
    [np.array(["a", 1], dtype=object), np.array(["a", "b"], dtype=object)],
    [np.array(["a", "b"], dtype=object), np.array([1, 2])],
    [np.array([True, 1], dtype=object), np.array(["a", "b"], dtype=object)],
])
@pytest.mark.parametrize("declared", [None, ["a", "b"]])
def test_string_edge_cases_match_the_general_coding(monkeypatch, columns, declared):
    _compare_strings(monkeypatch, columns, declared)


def test_frame_with_string_labels_matches_the_general_coding(monkeypatch):
    rng = np.random.default_rng(3)
    labels = np.array(["absent", "mild", "moderate", "severe"], dtype=object)
    df = pd.DataFrame({"r1": labels[rng.integers(0, 4, 500)], "r2": labels[rng.integers(0, 4, 500)]})
    results = []
    for fast in (True, False):
        with monkeypatch.context() as m:
            if not fast:
                m.setattr(irr._data, "_factorize_strings", lambda columns: None)
            results.append((irr.Agreement.from_frame(df).kappa().estimate,
                            irr.Agreement.from_frame(df, categories=list(labels))
                            .kappa("quadratic").estimate))
    assert results[0] == results[1]


# -- the label-kind check: pandas' type inference against the per-label check ---------------
import decimal  # noqa: E402
import fractions  # noqa: E402


def _check_label_kinds_old(labels, name):
    """irr._data._check_label_kinds before issue 17 (one Python call per label), with the
    refusal of nested cells (tuples, the one nested kind of the pool) first."""
    if labels.dtype.kind != "O":
        return "bool" if labels.dtype.kind == "b" else "number"
    if len(labels) == 0:
        return "number"
    preview = irr._data.preview
    nested = [v for v in labels if isinstance(v, tuple)]
    if nested:
        raise TypeError(f"`{name}` holds tuples ({preview(nested)}), but every value must be a "
                        "single label or number, not a collection. Unnest or explode them "
                        "first (one row per value: DataFrame.explode), or join each into one "
                        "label.")
    kinds = pd.Series(labels).map(irr._data._label_kind)
    found = pd.unique(kinds)
    if "inf" in found:
        raise ValueError(f"`{name}` contains infinite ratings: {preview(labels[kinds == 'inf'])}.")
    if len(found) > 1:
        examples = [labels[kinds == kind][0] for kind in found[:3]]
        raise TypeError(
            f"`{name}` mixes label types ({', '.join(found)}): for example {preview(examples)}; "
            "convert the ratings to one type first."
        )
    kind = found[0]
    if kind not in ("number", "str", "bool"):
        raise TypeError(f"`{name}` holds labels of unsupported type {kind}: {preview(labels[:3])}.")
    return kind


_KIND_POOL = [1, 2, -7, 2**70, 1.5, np.float32(0.1), np.int8(3), np.uint64(2**64 - 1), True,
              np.bool_(False), "a", np.str_("b"), float("inf"), -float("inf"), 1e308,
              decimal.Decimal("1.5"), fractions.Fraction(1, 3), complex(1, 2), b"x",
              pd.Timestamp("2020-01-01"), (1, 2), 10**400]


def _kind_outcome(check, labels):
    try:
        return check(labels, "x")
    except (TypeError, ValueError) as exc:
        return type(exc), str(exc)


@pytest.mark.parametrize("seed", range(40))
def test_label_kind_check_matches_the_per_label_check(seed):
    rng = np.random.default_rng(seed)
    groups = [[*_KIND_POOL[:4], np.int8(3), 2 ** 70], [1.5, np.float32(0.1), 1, 1e308],
              [True, np.bool_(False)], ["a", np.str_("b")], _KIND_POOL]
    pool = groups[seed % len(groups)]
    labels = np.empty(int(rng.integers(0, 12)), dtype=object)
    for i in range(len(labels)):
        labels[i] = pool[int(rng.integers(0, len(pool)))]
    assert _kind_outcome(irr._data._check_label_kinds, labels) == \
        _kind_outcome(_check_label_kinds_old, labels)


# -- nullable integer raters (long data with unrated cells) against the general coding -------
@pytest.mark.parametrize("seed", range(6))
@pytest.mark.parametrize("dtype", ["Int64", "Int8", "UInt16", "UInt64"])
def test_nullable_integers_match_the_general_coding(monkeypatch, seed, dtype):
    rng = np.random.default_rng(seed)
    n = int(rng.integers(2, 80))
    lo = {"Int64": -(2**53) + 10 if seed == 3 else -5, "Int8": -100, "UInt16": 60000,
          "UInt64": 2**53 - 20 if seed == 3 else 0}[dtype]
    columns = []
    for j in range(int(rng.integers(2, 4))):
        values = pd.array([lo + int(v) for v in rng.integers(0, 15, n)], dtype=dtype)
        values[rng.random(n) < (1.0 if seed == 4 and j == 0 else 0.3)] = pd.NA
        columns.append(pd.Series(values) if j % 2 else values)
    if seed == 5:
        columns.append(rng.integers(-5, 10, n))  # a plain integer rater among them
    outcomes = []
    for fast in (True, False):
        with monkeypatch.context() as m:
            if not fast:
                m.setattr(irr._data, "_masked_integer_codes", lambda columns: None)
            try:
                outcomes.append(Source.from_columns(columns, [f"r{j}" for j in range(
                    len(columns))]))
            except (ValueError, TypeError) as exc:
                outcomes.append((type(exc), str(exc)))
    if isinstance(outcomes[1], tuple):
        assert outcomes[0] == outcomes[1]
    else:
        _assert_same(*outcomes, code_dtype=False)


def test_long_data_with_unrated_cells_match_the_general_coding(monkeypatch):
    rng = np.random.default_rng(7)
    df = pd.DataFrame({"s": np.repeat(np.arange(200), 4), "r": np.tile(list("wxyz"), 200),
                       "v": rng.integers(1, 6, 800)})
    df = df[rng.random(800) > 0.2]
    fits = []
    for fast in (True, False):
        with monkeypatch.context() as m:
            if not fast:
                m.setattr(irr._data, "_masked_integer_codes", lambda columns: None)
            ag = irr.Agreement.from_long(df, subject="s", rater="r", rating="v")
            fits.append((ag.fleiss_kappa().estimate, ag.krippendorff_alpha(
                level="ordinal", ci=None).estimate, ag.statistics))
    assert fits[0] == fits[1]


def _numbers_old(column):
    """irr._columns._numbers before issue 17."""
    if irr._columns._kind(column) != "number":
        return np.zeros(0)
    categorical = isinstance(column.dtype, pd.CategoricalDtype)
    values = column.cat.categories if categorical else column.dropna()
    numbers = np.asarray(pd.to_numeric(pd.Series(values), errors="coerce"), dtype=float)
    return numbers[np.isfinite(numbers)]


@pytest.mark.parametrize("values", [
    np.array([1, 2, 3]), np.array([2**64 - 1, 3], dtype=np.uint64), np.array([1.5, np.nan, np.inf]),
    np.array([0.1, 2.5], dtype=np.float32), np.array([np.nan, np.nan]), np.array([], dtype=int),
    np.array([True, False]), np.array([1, None], dtype=object),
])
def test_numbers_of_a_column_match_their_previous_form(values):
    column = pd.Series(values)
    np.testing.assert_array_equal(irr._columns._numbers(column), _numbers_old(column))


def test_two_integer_raters_pickle_and_ignore_later_changes_to_the_arrays():
    import pickle

    rng = np.random.default_rng(11)
    a = rng.integers(1, 5, 400)
    b = np.clip(a + rng.integers(-1, 2, 400), 1, 4)
    ag = irr.Agreement(a, b)
    reference = irr.Agreement(a.copy(), b.copy())
    a[:] = 1  # the Agreement holds its own coding of the ratings
    copy = pickle.loads(pickle.dumps(ag))
    for fitted in (ag, copy):
        new = fitted.kappa(ci="bca", n_resamples=200, rng=3)
        old = reference.kappa(ci="bca", n_resamples=200, rng=3)
        assert new.estimate == old.estimate
        assert new.ci.low == old.ci.low
        assert new.ci.high == old.ci.high


def test_integer_pair_table_refuses_empty_arrays():
    from irr._data import integer_pair_table

    with pytest.raises(ValueError, match="at least one pair of ratings; got empty arrays"):
        integer_pair_table(np.array([], dtype=np.int64), np.array([], dtype=np.int64))


# -- distinct rows, label coding, the wide view of measurements ----------------------------
@pytest.mark.parametrize("seed", range(8))
def test_unique_rows_matches_np_unique_on_rows(seed):
    from irr._statistics import _unique_rows
    from tests.reference import previous_kernels

    rng = np.random.default_rng(seed)
    for trial in range(40):
        n, m = int(rng.integers(0, 400)), int(rng.integers(1, 9))
        high = int(rng.choice([2, 5, 1000, 2**20, 2**40]))
        rows = rng.integers(-1, high, size=(n, m)).astype(np.int64)
        if n and trial % 3:
            rows = np.concatenate([rows, rows[rng.integers(0, n, size=n)]])  # repeats
        weights = rng.integers(0, 3, size=len(rows)).astype(float) if trial % 2 else None
        got, want = _unique_rows(rows, weights), previous_kernels.unique_rows(rows, weights)
        np.testing.assert_array_equal(got[0], want[0])
        np.testing.assert_array_equal(got[1], want[1])
        assert got[1].dtype == want[1].dtype == np.int64


def _same_integer_factorization(values: np.ndarray) -> None:
    """factorize_labels of a Series of integer `values` gives its previous form's codes and
    labels, with their dtypes, and codes that are not a view of `values`."""
    import pandas as pd

    from irr._long import factorize_labels
    from tests.reference import previous_kernels

    column = pd.Series(values)
    got, want = factorize_labels(column), previous_kernels.factorize(column)
    assert not np.shares_memory(got[0], values)
    np.testing.assert_array_equal(got[0], want[0])
    np.testing.assert_array_equal(got[1], want[1])
    assert (got[0].dtype, got[1].dtype) == (want[0].dtype, want[1].dtype)


@pytest.mark.parametrize("seed", range(6))
def test_factorize_labels_matches_pandas(seed):
    import pandas as pd

    from irr._long import factorize_labels
    from tests.reference import previous_kernels

    rng = np.random.default_rng(seed)
    for trial in range(60):
        n = int(rng.integers(1, 3000))
        dtype = rng.choice([np.int8, np.int16, np.int32, np.int64])
        info = np.iinfo(dtype)
        low = max(int(rng.choice([-100, 0, 50])), int(info.min))
        high = min(low + int(rng.choice([1, 3, 50, 1000, 10**6, 10**12])), int(info.max))
        values = rng.integers(low, high + 1, size=n).astype(dtype)
        if trial % 4 == 0:
            values = np.sort(values)
        elif trial % 4 == 1:
            values = np.tile(values[:5], n // 5 + 1)[:n]
        elif trial % 4 == 2:  # every label of a range, in order: the codes are the offsets
            values = np.tile(np.arange(low, low + 7).astype(dtype), n // 7 + 1)[:n]
        _same_integer_factorization(values)
    # labels in order: every label of a range (the offsets), with gaps, negative, at the
    # ends of their type, one label, many rows per label (subject ids of sorted long data)
    for values in (np.repeat(np.arange(seed, seed + 50), 5), np.repeat([-7, -3, 0, 4, 90], 3),
                   np.repeat(np.arange(-3, 3) * 10**15, 2), np.array([5] * 9),
                   np.array([-128, -128, 0, 127], dtype=np.int8),
                   np.array([126, 127, 127], dtype=np.int8),
                   np.array([2**63 - 2, 2**63 - 2, 2**63 - 1, 2**63 - 1]),  # int64's largest
                   np.array([-(2**63), -(2**63) + 1]),
                   np.sort(rng.integers(-(2**62), 2**62, 500)),
                   np.repeat(np.arange(1000), 7)[rng.random(7000) < 0.9]):
        _same_integer_factorization(values)
    for other in (pd.Series(["b", "a", "b"]), pd.Series([1.5, 0.5, 1.5]),
                  pd.Series([3, None, 3], dtype="Int64")):
        got, want = factorize_labels(other), previous_kernels.factorize(other)
        np.testing.assert_array_equal(got[0], want[0])
        assert list(got[1]) == list(want[1])


@pytest.mark.parametrize("replicates", [False, True])
def test_measurements_wide_matches_cell_means(replicates):
    from irr._measurements import Measurements
    from tests.reference import previous_kernels

    rng = np.random.default_rng(4)
    n, k = 300, 4
    subject = np.repeat(np.arange(n), k)
    rater = np.tile(np.arange(k), n)
    if replicates:
        subject = np.concatenate([subject, subject[:50]])
        rater = np.concatenate([rater, rater[:50]])
    value = rng.normal(size=len(subject))
    value[::7] = -0.0
    keep = rng.random(len(value)) > 0.1
    m = Measurements(subject[keep], rater[keep], value[keep], tuple("abcd"),
                     __import__("pandas").Index(range(n)))
    got = m.wide()
    want = previous_kernels.wide(subject[keep], rater[keep], value[keep], n, k)
    assert m.has_replicates == replicates
    np.testing.assert_array_equal(got, want)
    assert not np.signbit(got[got == 0]).any()  # -0.0 read as 0.0, as a cell's sum


@pytest.mark.parametrize("seed", range(6))
def test_code_patterns_match_their_previous_form(seed):
    from irr._statistics import _code_patterns
    from tests.reference import previous_kernels

    rng = np.random.default_rng(seed)
    for trial in range(30):
        n, m = int(rng.integers(0, 3000)), int(rng.integers(2, 9))
        k = int(rng.choice([2, 5, 30, 101, 400]))
        codes = [rng.integers(-1, k, n) for _ in range(m)]
        if n and trial % 3:  # repeated rows
            pick = rng.integers(0, n, n)
            codes = [np.concatenate([c, c[pick]]) for c in codes]
        weights = rng.integers(0, 3, len(codes[0])).astype(float) if trial % 2 else None
        got = _code_patterns(codes, k, weights)
        want = previous_kernels.code_patterns(codes, k, weights)
        np.testing.assert_array_equal(got[0], want[0])
        np.testing.assert_array_equal(got[1], want[1])
        assert got[1].dtype == want[1].dtype == np.int64


@pytest.mark.parametrize("seed", range(6))
def test_pair_count_statistics_match_their_previous_form(seed):
    """Statistics.from_pair_counts: its patterns and multiplicities against the previous
    column_stack, and the views it sets itself (ratings per pattern, the occupied cells)
    against those the Statistics finds from its patterns."""
    from irr._statistics import Statistics
    from tests.reference import previous_kernels

    rng = np.random.default_rng(seed)
    for trial in range(30):
        k = int(rng.integers(1, 40))
        table = rng.integers(0, 4, (k, k)) * (rng.random((k, k)) < rng.random())
        if trial == 0:
            table[:] = 0
        table = table.astype(np.int64)
        categories = pd.Index(np.arange(k) + int(rng.integers(-5, 5)))
        stats = Statistics.from_pair_counts(table, categories, None, True, ("a", "b"))
        patterns, multiplicity = previous_kernels.pair_count_patterns(table)
        np.testing.assert_array_equal(stats.patterns, patterns)
        np.testing.assert_array_equal(stats.multiplicity, multiplicity)
        assert stats.patterns.dtype == stats.multiplicity.dtype == np.int64
        assert stats.patterns.shape == patterns.shape
        found = Statistics(patterns, multiplicity, categories, None, True, ("a", "b"))
        np.testing.assert_array_equal(stats.ratings_per_pattern, found.ratings_per_pattern)
        assert stats.ratings_per_pattern.dtype == found.ratings_per_pattern.dtype
        assert stats.n_missing == found.n_missing == 0
        if not len(patterns):
            continue
        for got, want in ((stats.pair_cells, found.pair_cells),
                          (stats.pair_cells, found.pair_cells_of(0, 1))):
            for name in ("index", "patterns", "multiplicity"):
                np.testing.assert_array_equal(getattr(got, name), getattr(want, name))
                assert getattr(got, name).dtype == getattr(want, name).dtype
        np.testing.assert_array_equal(stats.pair_table, table)


def test_integer_scale_gives_each_call_its_own_index():
    from irr._data import _integer_scale

    first, scores = _integer_scale(np.array([2, 4, 7], dtype=np.int64))
    first.name = "mine"
    second, again = _integer_scale(np.array([2, 4, 7], dtype=np.int64))
    assert second.name is None
    assert first is not second
    assert again is scores
    assert second.tolist() == [2, 4, 7]
    assert scores.tolist() == [2.0, 4.0, 7.0]


@pytest.mark.parametrize("seed", range(4))
def test_sorted_code_keys_match_the_sorted_keys(seed):
    """The keys of rows of codes packed with their positions as they are built sort as the
    keys themselves (:func:`code_keys`, then ``_sorted_keys``): the same order and sorted
    keys, also where key and position do not fit one int64 together."""
    from irr._statistics import _sorted_code_keys, _sorted_keys, code_keys

    rng = np.random.default_rng(seed)
    for trial in range(20):
        n, m = int(rng.integers(1, 5000)), int(rng.integers(2, 8))
        k = int(rng.choice([2, 30, 101, 400]))
        dtype = (np.int8, np.int16, np.int64)[trial % 3 if k < 127 else 1 + trial % 2]
        codes = [rng.integers(-1, k, n).astype(dtype) for _ in range(m)]
        if m * np.log2(k + 1) >= 62:
            continue
        if trial % 2:  # repeated rows
            pick = rng.integers(0, n, n)
            codes = [np.concatenate([c, c[pick]]) for c in codes]
        order, ordered = _sorted_code_keys(codes, k)
        want = _sorted_keys(code_keys(codes, k), (k + 1) ** m)
        np.testing.assert_array_equal(order, want[0])
        np.testing.assert_array_equal(ordered, want[1])


@pytest.mark.parametrize("seed", range(3))
def test_complete_pattern_facts_match_their_previous_form(seed):
    """Rows of codes with no rating missing: ratings per pattern (a read-only value), the
    subjects missing a rating and the raters who rated nothing equal their previous form
    (an array of m, a comparison of every pattern, the largest code of each rater), with
    zero multiplicities too."""
    from dataclasses import replace

    import pandas as pd

    from irr._statistics import Statistics

    rng = np.random.default_rng(seed)
    for trial in range(10):
        n, m, k = int(rng.integers(1, 400)), int(rng.integers(2, 6)), int(rng.integers(1, 9))
        codes = [rng.integers(-1 if trial % 2 else 0, k, n) for _ in range(m)]
        stats = Statistics.from_codes(codes, pd.Index(range(k)), None, False,
                                      tuple(f"r{g}" for g in range(m)))
        if trial % 3 == 2:
            stats = replace(stats, multiplicity=np.where(rng.random(stats.n_patterns) < 0.5,
                                                         0, stats.multiplicity))
        patterns = stats.patterns
        complete = bool(patterns.min() >= 0)
        per_pattern = (np.full(len(patterns), m, dtype=np.int64) if complete
                       else (patterns >= 0).sum(axis=1))
        np.testing.assert_array_equal(stats.ratings_per_pattern, per_pattern)
        assert stats.ratings_per_pattern.dtype == np.int64
        assert stats.n_missing == int(stats.multiplicity[per_pattern < m].sum())
        used = patterns[stats.multiplicity > 0]
        rated = used.max(axis=0) >= 0 if len(used) else np.zeros(m, dtype=bool)
        assert stats.empty_raters() == tuple(f"r{g}" for g in range(m) if not rated[g])


@pytest.mark.parametrize("seed", range(4))
def test_small_integer_codes_match_the_offset_coding(seed):
    """Non-negative 8- and 16-bit raters coded from a table of their values give the codes
    and categories of the offset coding (their previous form, still used for wider types)."""
    from irr._data import _dense_integer_codes

    rng = np.random.default_rng(seed)
    for trial in range(20):
        n, m = int(rng.integers(1, 500)), int(rng.integers(1, 6))
        dtype = (np.uint8, np.uint16, np.int8, np.int16)[trial % 4]
        hi = int(rng.choice([1, 4, 100, 126])) if np.dtype(dtype).itemsize == 1 else \
            int(rng.choice([5, 300, 30_000]))
        lo = int(rng.integers(0, hi + 1)) if trial % 3 else 0
        columns = [rng.integers(lo, hi + 1, n).astype(dtype) for _ in range(m)]
        if trial % 5 == 4:  # every value of a range: codes are the values
            columns[0][: hi + 1 - lo] = np.arange(lo, hi + 1)[:n]
        got = _dense_integer_codes(columns)
        want = _dense_integer_codes([c.astype(np.int64) for c in columns])
        if want is None:
            assert got is None
            continue
        assert got[1].equals(want[1])
        assert got[1].dtype == want[1].dtype
        for a, b in zip(got[0], want[0], strict=True):
            np.testing.assert_array_equal(a, b)
            assert a.dtype == b.dtype


@pytest.mark.parametrize("seed", range(4))
def test_small_integer_codes_of_wide_ranges_beyond_the_first_rows(seed):
    """Non-negative 8- and 16-bit raters spanning more than 64 values, longer than the rows
    read first: the values present (every one of the range in the first rows, one only
    after them, one never) give the codes and categories of the offset coding."""
    from irr._data import _PRESENT_PREFIX, _dense_integer_codes

    rng = np.random.default_rng(seed)
    for trial in range(12):
        n, m = int(rng.integers(_PRESENT_PREFIX + 1, 4 * _PRESENT_PREFIX)), int(rng.integers(1, 6))
        dtype = (np.uint8, np.uint16)[trial % 2]
        lo = int(rng.integers(0, 20))
        hi = lo + int(rng.choice([64, 100, 200]))
        columns = [rng.integers(lo, hi + 1, n).astype(dtype) for _ in range(m)]
        if trial % 3 == 1:  # a value missing from the first rows, present later
            late = lo + 7
            for c in columns:
                c[c == late] = lo
            columns[-1][-1] = late
        elif trial % 3 == 2:  # a value of the range that never occurs
            for c in columns:
                c[c == lo + 7] = lo
        got = _dense_integer_codes(columns)
        want = _dense_integer_codes([c.astype(np.int64) for c in columns])
        assert got[1].equals(want[1])
        assert got[1].dtype == want[1].dtype
        for a, b in zip(got[0], want[0], strict=True):
            np.testing.assert_array_equal(a, b)
            assert a.dtype == b.dtype


@pytest.mark.parametrize("seed", range(3))
def test_values_present_beyond_the_first_rows(seed):
    """The values present in small non-negative raters, read from the first rows when they
    hold the whole range and from every row otherwise (a value that occurs only late, or
    never), are those of a count of every value."""
    from irr._data import _PRESENT_PREFIX, _values_present

    rng = np.random.default_rng(seed)
    for trial in range(12):
        n, m = int(rng.integers(1, 4 * _PRESENT_PREFIX)), int(rng.integers(1, 5))
        lo, width = int(rng.integers(0, 40)), int(rng.choice([1, 3, 8, 9, 33, 64]))
        columns = [rng.integers(lo, lo + width, n).astype(np.uint8 if lo + width < 256
                                                            else np.uint16) for _ in range(m)]
        if trial % 3 == 1:  # a value missing from the first rows, present later
            late = lo + width - 1
            for c in columns:
                c[c == late] = lo
            columns[-1][-1] = late
        elif trial % 3 == 2:  # a value of the range that never occurs
            for c in columns:
                c[c == lo + width // 2] = lo
        hi = max(int(c.max()) for c in columns)
        got = _values_present(columns, lo, width, hi)
        want = np.zeros(hi + 1, dtype=bool)
        for c in columns:
            want[np.unique(c)] = True
        np.testing.assert_array_equal(got, want)


def test_integer_ratings_spanning_64_values_are_coded():
    """Integer ratings 0..63 (the 64th value sets the top bit of the presence word) are
    coded like any others (they raised OverflowError)."""
    x = np.array([[0, 63, 0], [63, 0, 63], [5, 5, 5]])
    ag = irr.Agreement.from_array(x)
    assert ag.categories.tolist() == [0, 5, 63]
    want = irr.Agreement.from_array(x.astype(str)).fleiss_kappa().estimate
    assert ag.fleiss_kappa().estimate == pytest.approx(want, rel=1e-14)


# -- two integer ndarrays: Agreement's lean construction against the general path ------------
import contextlib  # noqa: E402


@contextlib.contextmanager
def _general_path(monkeypatch, coding: bool):
    """A context in which Agreement builds two integer ndarrays through from_columns (and,
    with `coding`, through the general coding rather than the pair table)."""
    with monkeypatch.context() as m:
        m.setattr(Source, "from_integer_pair", classmethod(lambda cls, a, b, names: None))
        if coding:
            m.setattr(irr._data, "_encode_integer_pair", lambda *args: None)
        yield


def _kappa_fits(ag, specs):
    """Each (weights, ci) of `specs` fitted, with the warnings it gave (their text)."""
    out = []
    for weights, ci in specs:
        with warnings.catch_warnings(record=True) as caught:
            warnings.simplefilter("always")
            res = ag.kappa(weights, ci=ci, n_resamples=200, rng=1)
        out.append((res, [f"{w.category.__name__}: {w.message}" for w in caught]))
    return out


def _assert_same_fit(new, old):
    (got, got_warnings), (want, want_warnings) = new, old
    assert got_warnings == want_warnings
    for field in ("estimate", "se", "se0", "statistic", "pvalue", "observed_agreement",
                  "expected_agreement", "kappa_max", "n_subjects", "n_missing", "design_df"):
        a, b = getattr(got, field), getattr(want, field)
        assert a == b or (np.isnan(a) and np.isnan(b)), (field, a, b)
    assert (got.ci.method, got.ci.note, got.ci.confidence_level) == (
        want.ci.method, want.ci.note, want.ci.confidence_level)
    np.testing.assert_array_equal([got.ci.low, got.ci.high], [want.ci.low, want.ci.high])
    assert got.notes == want.notes
    assert got.categories == want.categories
    assert type(got.categories[0]) is type(want.categories[0])
    np.testing.assert_array_equal(got.scores, want.scores)
    assert repr(got) == repr(want)
    assert str(got) == str(want)  # the summary's text
    assert got.summary().as_html() == want.summary().as_html()


@pytest.mark.parametrize("seed", range(8))
def test_two_integer_arrays_give_the_results_of_the_general_path(monkeypatch, seed):
    """Agreement(a, b) of two integer ndarrays takes the lean construction
    (Source.from_integer_pair); every kappa (unweighted, linear, quadratic, a custom
    matrix; Wald and percentile intervals) equals that of the same arrays through
    from_columns, and through the general coding: estimates, SEs, intervals, notes,
    warnings, repr and summary."""
    rng = np.random.default_rng(seed)
    for trial in range(5):
        n = int(rng.integers(2, 120))
        k = int(rng.integers(1, 7))
        lo = int(rng.integers(-4, 6)) if seed % 4 else 0
        dtype = (np.int64, np.int8, np.int32, np.uint16)[trial % 4]
        lo = max(lo, 0) if dtype == np.uint16 else lo
        a = rng.integers(lo, lo + k, n)
        b = np.where(rng.random(n) < rng.random(), a, rng.integers(lo, lo + k, n))
        if trial == 4:  # perfect agreement: SE 0, an undefined interval
            b = a.copy()
        a, b = a.astype(dtype), b.astype(dtype)
        assert Source.from_integer_pair(a, b, ("rater1", "rater2")) is not None
        new_ag = irr.Agreement(a, b)
        k_used = len(new_ag.categories)
        custom = 1.0 - np.abs(np.subtract.outer(np.arange(k_used), np.arange(k_used))) / max(
            k_used, 1) ** 0.5 / max(k_used - 1, 1) ** 0.5
        np.fill_diagonal(custom, 1.0)
        custom = np.clip(custom, 0.0, 1.0)
        specs = [(None, "wald"), ("linear", "wald"), ("quadratic", "wald"),
                 (custom, "wald"), ("quadratic", "percentile"), (None, "percentile")]
        new = _kappa_fits(new_ag, specs)
        for coding in (False, True):
            with _general_path(monkeypatch, coding):
                old_ag = irr.Agreement(a, b)
                old = _kappa_fits(old_ag, specs)
            assert repr(new_ag) == repr(old_ag)
            assert new_ag.statistics == old_ag.statistics
            assert new_ag.categories.equals(old_ag.categories)
            assert new_ag.categories.dtype == old_ag.categories.dtype
            for got, want in zip(new, old, strict=True):
                _assert_same_fit(got, want)
        # declared categories (the observed values) take the general path: same results
        declared = irr.Agreement(a, b, categories=list(new_ag.categories))
        for got, want in zip(new, _kappa_fits(declared, specs), strict=True):
            _assert_same_fit(got, want)


def test_two_integer_arrays_summary_equals_the_general_path(monkeypatch):
    rng = np.random.default_rng(4)
    a = rng.integers(1, 6, 80)
    b = np.clip(a + rng.integers(-1, 2, 80), 1, 5)
    new = irr.Agreement(a, b)
    with _general_path(monkeypatch, True):
        old = irr.Agreement(a, b)
    assert new.summary().as_text() == old.summary().as_text()


@pytest.mark.parametrize("columns", [
    ([1, 2, 3], [1, 2, 2]),  # lists
    (pd.Series([1, 2, 3]), pd.Series([1, 2, 2])),  # Series (aligned on their index)
    (np.array([1.0, 2.0, np.nan]), np.array([1.0, 2.0, 2.0])),  # missing ratings
    (np.array(["a", "b", "c"]), np.array(["a", "b", "b"])),  # strings
    (np.array([1, 2, 3], dtype=object), np.array([1, 2, 2], dtype=object)),
    (np.array([True, False, True]), np.array([True, True, False])),  # booleans
    (np.array([[1, 2], [3, 4]]), np.array([[1, 2], [3, 3]])),  # 2-D
    (np.array([1, 2, 3]), np.array([1, 2])),  # unequal lengths
    (np.array([1]), np.array([2])),  # a single subject
    (np.array([0, 1000]), np.array([0, 1])),  # too wide a range for the pair table
    (np.ma.array([1, 2, 3]), np.ma.array([1, 2, 2])),  # an ndarray subclass
])
def test_lean_construction_declines_every_other_input(columns):
    assert Source.from_integer_pair(*columns, ("rater1", "rater2")) is None


def test_lean_construction_keeps_the_errors_of_the_general_path():
    for a, b, message in ((np.array([1, 2, 3]), np.array([1, 2]), "same subjects"),
                          (np.array([1]), np.array([2]), "single subject")):
        with pytest.raises(ValueError, match=message):
            irr.Agreement(a, b)
    with pytest.raises(ValueError, match="nan_policy"):
        irr.Agreement(np.array([1, 2]), np.array([1, 2]), nan_policy="drop")


@pytest.mark.parametrize("text", [["12.5", None, "13.25", "7"], ["a", "1.5"], ["1.5", "a"],
                                  ["1", "2"], [None, None], ["x"] * 300 + ["1.5"]])
def test_pandas_text_columns_read_as_object_text(text):
    """pandas' string dtype (arrow-backed) is read without converting the column to
    Python objects, with the answers of the same text as object arrays."""
    from irr._data import decimal_text, real_values

    for column in (pd.Series(text, dtype="string"), pd.array(text, dtype="string")):
        expected = decimal_text(np.array(text, dtype=object))
        got = decimal_text(column)
        assert (got is None) == (expected is None)
        if expected is not None:
            np.testing.assert_array_equal(got, expected)
        assert real_values(column, "r") is None


@pytest.mark.parametrize("seed", range(4))
def test_decimal_text_matches_its_previous_form(seed):
    """decimal_text parses text as pd.to_numeric did (its previous form: ASCII digits,
    sign, point, exponent and spaces; not "1_0", other scripts' digits, "inf"), on object
    arrays, masked arrays, numpy text and pandas' text columns."""
    from irr._data import decimal_text
    from tests.reference import previous_kernels

    rng = np.random.default_rng(seed)
    pool = np.array(["1.5", " 2.25", "3.125 ", "\t4.5\n", "-.5", "+6.", "1e3", "2.5E-2",
                     "7", "007", "1_0.5", "\u0661.\u0665", "\uff11.5", "\xa01.5", "inf",
                     "nan", "1e400", "1.5e", ".", "", "x", "1,5", None, float("nan")],
                    dtype=object)
    for _ in range(400):
        size = int(rng.integers(1, 8)) if rng.random() < 0.9 else int(rng.integers(60, 300))
        texts = pool[rng.integers(0, int(rng.integers(1, len(pool) + 1)), size)]
        expected = previous_kernels.decimal_text(texts)
        plain = texts[[v is not None and v == v for v in texts]].astype(str)
        mask = np.array([v is None or v != v for v in texts])
        masked = np.ma.masked_array(np.where(mask, "", texts).astype(object), mask=mask)
        for got in (decimal_text(texts), decimal_text(masked),
                    decimal_text(pd.Series(texts, dtype="string"))):
            assert (got is None) == (expected is None), texts
            if expected is not None:
                np.testing.assert_array_equal(got, expected)
        want = previous_kernels.decimal_text(plain.astype(object))
        got = decimal_text(plain)
        assert (got is None) == (want is None), plain
        if want is not None:
            np.testing.assert_array_equal(got, want)


def test_missing_objects_are_those_of_pandas():
    """object_missing marks what pd.isna marks in object arrays: None, NaN of each type,
    NaT, pandas' NA, and nothing else (arrays and tuples as cells are present)."""
    from decimal import Decimal

    from irr._data import object_missing

    cells = [None, np.nan, float("nan"), np.float32("nan"), complex(np.nan, 0),
             Decimal("NaN"), np.datetime64("NaT"), np.timedelta64("NaT"), pd.NaT, 0, 1.5,
             "", "NA", "nan", Decimal("2"), (np.nan,), True, np.datetime64("2024-01-01")]
    values = np.empty(len(cells), dtype=object)
    values[:] = cells
    np.testing.assert_array_equal(object_missing(values), pd.isna(values))
    with_na = np.array([pd.NA, 1, None, "a"], dtype=object)
    np.testing.assert_array_equal(object_missing(with_na), [True, False, True, False])
    cell_arrays = np.empty(2, dtype=object)
    cell_arrays[:] = [np.array([1, 2]), None]
    np.testing.assert_array_equal(object_missing(cell_arrays), [False, True])


def test_remembered_integer_scales_are_not_shared_between_agreements():
    """The scale of integer labels is remembered between calls, but a user's change to one
    Agreement's categories (their name) does not reach the next Agreement of those labels,
    and their values cannot be written."""
    first = irr.Agreement(np.array([1, 2, 3, 3, 2, 1]), np.array([1, 2, 3, 2, 2, 1]))
    first.categories.name = "grade"
    second = irr.Agreement(np.array([3, 2, 1, 1]), np.array([1, 2, 3, 3]))
    assert second.categories is not first.categories
    assert second.categories.name is None
    assert first.categories.name == "grade"
    with pytest.raises(ValueError, match="read-only"):
        second.categories.values[0] = 99
    assert list(second.categories) == [1, 2, 3]


@pytest.mark.parametrize("seed", range(3))
def test_continuity_of_integer_labels_matches_its_previous_form(seed):
    """The continuity rule on integer labels (increasing ones counted without np.unique)
    says what its previous form says: sorted or not, repeated or not, beyond 2**53 (where
    floats merge them), signed and unsigned, as an Index or an array."""
    from tests.reference import previous_kernels

    rng = np.random.default_rng(seed)
    for trial in range(40):
        size = int(rng.choice([1, 2, 10, 11, 101]))
        base = int(rng.choice([0, -50, 2**53 - 5, -(2**53) - 5, 2**62]))
        labels = base + np.cumsum(rng.integers(0 if trial % 4 == 3 else 1, 3, size))
        if trial % 5 == 4:
            labels = rng.permutation(labels)
        dtype = np.uint64 if base >= 0 and trial % 2 else np.int64
        for values in (pd.Index(labels.astype(dtype)), labels.astype(dtype)):
            assert irr._columns.continuity(values) == previous_kernels.continuity(values), values


@pytest.mark.parametrize("seed", range(3))
def test_integer_array_bounds_are_read_once_and_code_alike(seed):
    """split_array hands on the min and max of an integer array; coding with them gives the
    codes and categories of coding without them (the bounds read per column)."""
    from irr._data import _dense_integer_codes
    from irr._long import split_array

    rng = np.random.default_rng(seed)
    for _ in range(12):
        n, m = int(rng.integers(1, 3000)), int(rng.integers(2, 6))
        lo = int(rng.choice([0, 3, -7, 2**40]))
        x = lo + rng.integers(0, int(rng.choice([2, 60, 101, 300, 70_000])), (n, m))
        columns, bounds = split_array(x)
        assert bounds == (int(x.min()), int(x.max()))
        got, want = _dense_integer_codes(columns, bounds), _dense_integer_codes(columns)
        if want is None:
            assert got is None
            continue
        assert got[1].equals(want[1])
        for a, b in zip(got[0], want[0], strict=True):
            np.testing.assert_array_equal(a, b)
            assert a.dtype == b.dtype
    assert split_array(np.array([[1.5, 2.0], [0.0, 1.0]]))[1] is None


@pytest.mark.parametrize("seed", range(4))
def test_integer_array_split_matches_its_previous_form(seed):
    """split_array's integer columns and bounds (the type from the OR of the values when
    none is negative, the bounds read from the small copy) as before: the same values,
    dtypes and (min, max), across the powers of two where the type widens."""
    from irr._long import split_array
    from tests.reference import previous_kernels

    rng = np.random.default_rng(seed)
    edges = [0, 1, 127, 128, 255, 256, 65535, 65536, 2**31, 2**32, 2**62, 2**63 - 1]
    for trial in range(40):
        n, m = int(rng.integers(1, 500)), int(rng.integers(2, 6))
        top = int(rng.choice(edges[1:]))
        lo = int(rng.choice([0, 0, 1, -1, -300, top // 2]))
        x = rng.integers(lo, top, (n, m), endpoint=True) if lo < top else np.full((n, m), lo)
        if trial % 3 == 0:
            x.flat[int(rng.integers(0, x.size))] = top  # the largest value present
        for dtype in (np.int64, np.uint64, np.int32, np.uint16, np.int8):
            info = np.iinfo(dtype)
            if x.min() < info.min or x.max() > info.max:
                continue
            a = x.astype(dtype)
            for array in (a, np.asfortranarray(a)):
                columns, bounds = split_array(array)
                want, want_bounds = previous_kernels.split_integer_array(array)
                assert bounds == want_bounds
                for got, ref in zip(columns, want, strict=True):
                    assert got.dtype == ref.dtype
                    assert got.flags.c_contiguous
                    np.testing.assert_array_equal(got, ref)


@pytest.mark.parametrize("seed", range(6))
def test_byte_row_patterns_match_their_previous_form(seed):
    """Unweighted rows of at most 7 raters with k <= 255, one byte per code (complete or
    not, codes of any integer width): the same distinct rows, in the same order, and
    counts as the int64 keys of Horner's rule (previous form) and as every key counted."""
    from irr._statistics import _code_patterns
    from tests.reference import previous_kernels

    rng = np.random.default_rng(seed)
    sorted_keys = 0  # trials whose key space is sorted (too large to count)
    for trial in range(40):
        n, m = int(rng.integers(1, 4000)), int(rng.integers(2, 8))
        k = int(rng.choice([1, 2, 5, 101, 126, 127, 200, 255, 255]))
        complete = trial % 2 == 0
        codes = [rng.integers(0 if complete else -1, k, n) for _ in range(m)]
        if trial % 3:  # repeated rows
            pick = rng.integers(0, n, n)
            codes = [np.concatenate([c, c[pick]]) for c in codes]
        if trial == 1:  # the largest code, and -1, in the first rater
            codes[0][:2] = [k - 1, -1]
        dtype = (np.int8 if k < 127 else np.int16) if trial % 4 < 2 else np.int64
        codes = [c.astype(dtype) for c in codes]
        bits = max(int(k).bit_length(), 1)
        want = previous_kernels.sorted_distinct_rows(codes, bits)
        for given in (complete, None):
            got = _code_patterns(codes, k, None, given)
            np.testing.assert_array_equal(got[0], want[0])
            np.testing.assert_array_equal(got[1], want[1])
            assert got[0].dtype == got[1].dtype == np.int64
        sorted_keys += (k + 1) ** m > max(1 << 22, 4 * len(codes[0]))
        counted = previous_kernels.code_patterns([c.astype(np.int64) for c in codes], k, None)
        np.testing.assert_array_equal(want[0], counted[0])
        np.testing.assert_array_equal(want[1], counted[1])
    assert sorted_keys >= 5


def _long_frame(rng, trial):
    """Long data in cell order (subjects sorted, the same raters in the same order for
    each), or, on some trials, disturbed so that they are not."""
    n, r = int(rng.integers(1, 400)), int(rng.integers(2, 7))
    dtype = rng.choice([np.int8, np.int16, np.int32, np.int64, np.uint8, np.uint32,
                        np.uint64])
    step = int(rng.choice([1, 1, 3]))
    low = 0 if np.dtype(dtype).kind == "u" else int(rng.choice([-50, 0, 7]))
    subjects = (low + step * np.arange(n)) if np.iinfo(dtype).max >= low + step * n \
        else np.arange(n)
    raters = rng.permutation(np.arange(r) * int(rng.choice([1, 2])) + 1)
    subject = np.repeat(subjects, r).astype(dtype)
    rater = np.tile(raters, n).astype(dtype)
    value = rng.normal(100, 10, n * r).round(int(rng.choice([1, 6])))
    value[rng.random(n * r) < 0.1] = -0.0
    kind = trial % 7
    if kind == 1:
        value[rng.random(n * r) < 0.05] = np.nan  # missing measurements: dropped
    elif kind == 2 and n * r > 2:  # two rows swapped
        i = int(rng.integers(0, n * r - 1))
        for a in (subject, rater, value):
            a[[i, i + 1]] = a[[i + 1, i]]
    elif kind == 3 and n > 1:  # a cell missing
        keep = np.ones(n * r, dtype=bool)
        keep[int(rng.integers(0, n * r))] = False
        subject, rater, value = subject[keep], rater[keep], value[keep]
    elif kind == 4 and n > 2:  # a subject's rows in two places (labels not increasing)
        subject[-r:] = subject[0]
    elif kind == 5:  # a replicate: one cell twice
        subject, rater, value = (np.r_[a, a[-1:]] for a in (subject, rater, value))
    frame = pd.DataFrame({"s": subject, "r": rater, "v": value})
    if trial % 5 == 4:
        frame["v"] = frame["v"].astype(np.float32)
    return frame


def _icc_outcome(frame, **columns):
    """The ICC of ``Agreement.from_long(frame, **columns)``: its repr and numbers, or the
    ValueError's message (one subject)."""
    import warnings

    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # few complete subjects, replicates averaged
        try:
            res = irr.Agreement.from_long(frame, **columns).icc()
        except ValueError as exc:
            return str(exc)
    return repr(res), [float(v) for v in (res.estimate, res.ci.low, res.ci.high, res.pvalue,
                                          res.statistic, res.ms_rows, res.ms_error)]


@pytest.mark.parametrize("seed", range(5))
def test_long_measurements_in_cell_layout_match_the_coded_long_data(seed):
    """Continuous long data read by their cell layout (no coding of the labels) and by
    the previous coding of every label give the same measurements, views and ICC."""
    from irr._long import cell_layout, long_columns
    from irr._source import Source
    from tests.reference import previous_kernels

    rng = np.random.default_rng(seed)
    laid_out = 0
    for trial in range(40):
        frame = _long_frame(rng, trial)
        want = previous_kernels.long_measurements(frame, "s", "r", "v", True)
        got = Source.from_long(frame, "s", "r", "v", None, True).measurements
        laid_out += cell_layout(long_columns(frame, "s", "r", "v")) is not None
        assert got.raters == want.raters
        assert got.subjects.equals(want.subjects)
        assert got.subjects.dtype == want.subjects.dtype
        assert type(got.subjects) is type(want.subjects)
        assert (got.n_subjects, got.n_raters, got.n_measurements, got.has_replicates) == (
            want.n_subjects, want.n_raters, want.n_measurements, want.has_replicates)
        assert_same_views(got, want, ("missing_subjects",))
        ours = _icc_outcome(frame, subject="s", rater="r", rating="v", continuous=True)
        # a replicate column makes from_long code every label, as before the cell layout
        theirs = _icc_outcome(frame.assign(k=np.arange(len(frame))), subject="s",
                              rater="r", rating="v", continuous=True, replicate="k")
        assert ours == theirs
    assert laid_out >= 10  # the layout was read on many trials


def test_cell_layout_reads_only_long_data_in_cell_order():
    """The cell layout names the subjects and raters in order of first appearance, and is
    None unless every block of rows is one subject rated by the same raters in the same
    order, the subjects' integer labels increasing."""
    from irr._long import cell_layout, long_columns

    def layout(s, r, dtypes=None):
        frame = pd.DataFrame({"s": s, "r": r, "v": np.arange(len(s), dtype=float)})
        return cell_layout(long_columns(frame.astype(dtypes or {}), "s", "r", "v"))

    got = layout([5, 5, 5, 9, 9, 9], [3, 1, 2, 3, 1, 2])
    assert got.raters == ["3", "1", "2"]
    assert got.subjects.equals(pd.Index([5, 9]))
    assert got.shape == (2, 3)
    got = layout([-3, -3, 2**62, 2**62], [7, 0, 7, 0])
    assert got.subjects.tolist() == [-3, 2**62]
    assert got.raters == ["7", "0"]
    for s, r, dtypes in (
        ([1, 1, 2, 2], [0, 1, 1, 0], {}),  # raters in another order
        ([1, 1, 2, 2, 2], [0, 1, 0, 1, 0], {}),  # a replicate
        ([1, 1, 2], [0, 1, 0], {}),  # a cell missing
        ([2, 2, 1, 1], [0, 1, 0, 1], {}),  # subjects not increasing
        ([1, 1, 2, 2, 1, 1], [0, 1, 0, 1, 0, 1], {}),  # a subject in two blocks
        ([1, 1, 2, 3, 4, 4], [0, 1, 0, 1, 0, 1], {}),  # a block of two subjects
        ([1, 1, 1, 1], [0, 1, 0, 1], {}),  # one subject (rated twice)
        ([1, 1, 2, 2], [0, 0, 0, 0], {}),  # one rater
        ([1, 1, 1, 2, 2, 3], [0, 1, 2, 0, 1, 0], {}),  # blocks of several sizes
        ([1, 1, 2, 2], [0, 1, 0, 1], {"s": float}),  # float labels (may be missing)
        ([1, 1, 2, 2], [0, 1, 0, 1], {"r": "Int64"}),  # nullable labels
        ([1, 1, 2, 2], [0, 1, 0, 1], {"r": str}),  # text labels
    ):
        assert layout(s, r, dtypes) is None, (s, r, dtypes)


def test_long_measurements_in_cell_layout_are_checked_as_the_coded_long_data():
    """Infinite values, text and categories of long data in cell order give what the
    coded long data give."""
    frame = pd.DataFrame({"s": [1, 1, 2, 2, 3, 3], "r": [0, 1, 0, 1, 0, 1],
                          "v": [1.5, 2.0, np.inf, 3.0, 4.0, 4.5]})
    with pytest.raises(ValueError, match="infinite"):
        irr.Agreement.from_long(frame, subject="s", rater="r", rating="v", continuous=True)
    text = frame.assign(v=["a", "b", "a", "b", "c", "a"])
    with pytest.raises(TypeError, match="numeric ratings"):
        irr.Agreement.from_long(text, subject="s", rater="r", rating="v", continuous=True)
    coded = irr.Agreement.from_long(text, subject="s", rater="r", rating="v")
    assert not coded.continuous
    assert (coded.raters, coded.n_subjects) == (("0", "1"), 3)
    whole = frame.assign(v=[1, 2, 1, 2, 2, 2])  # small integers: categories
    assert not irr.Agreement.from_long(whole, subject="s", rater="r", rating="v").continuous


# -- three or more plain integer arrays: the dense codes without the general checks -------
@pytest.mark.parametrize("seed", range(4))
@pytest.mark.parametrize(("dtype", "lo", "hi"), [
    (np.uint8, 0, 101), (np.int64, -5, 40), (np.uint16, 300, 310), (np.int32, 0, 10**6),
    (np.int8, 3, 4),
])
@pytest.mark.filterwarnings("ignore::irr._columns.ContinuousScoresWarning")
def test_integer_array_coding_matches_the_general_coding(seed, dtype, lo, hi):
    from irr._data import encode_ratings
    from irr._long import split_array

    rng = np.random.default_rng(seed)
    n, m = int(rng.integers(2, 300)), int(rng.integers(3, 7))
    x = rng.integers(lo, hi, (n, m)).astype(dtype)
    names = [f"r{g}" for g in range(m)]
    columns, bounds = split_array(x)
    for new in (encode_ratings(columns, names, bounds=bounds), encode_ratings(columns, names)):
        # as Series: the general path (strings, masks, as_1d) on the same values
        old = encode_ratings([pd.Series(c) for c in columns], names)
        assert new.categories.equals(old.categories)
        assert new.categories.dtype == old.categories.dtype
        np.testing.assert_array_equal(new.scores, old.scores)
        assert (new.ordered, new.raters) == (old.ordered, old.raters)
        for cn, co in zip(new.codes, old.codes, strict=True):
            np.testing.assert_array_equal(cn, co)


def test_integer_arrays_of_unequal_or_single_rows_raise_as_before():
    from irr._data import encode_ratings

    three = [np.arange(3), np.arange(3), np.arange(2)]
    with pytest.raises(ValueError, match="same subjects"):
        encode_ratings(three, ["a", "b", "c"])
    one = [np.arange(1)] * 3
    with pytest.raises(ValueError, match="single subject"):
        encode_ratings(one, ["a", "b", "c"])
    assert encode_ratings(one, ["a", "b", "c"], aggregated=True).codes[0].tolist() == [0]
