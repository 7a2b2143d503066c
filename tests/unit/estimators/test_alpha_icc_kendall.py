"""Krippendorff's alpha, ICC and Kendall's W: kernels, result protocol, bad input."""

import math
import re

import numpy as np
import pandas as pd
import pytest

import irr
from irr import DegenerateDataWarning
from irr.coefficients.icc import mean_squares
from irr.coefficients.kendall import tie_sum
from irr.coefficients.krippendorff import (
    coincidences,
    coincidences_from_codes,
    ordinal_positions,
)
from irr.results import FRAME_COLUMNS

SF = np.array([[9, 2, 5, 8], [6, 1, 3, 2], [8, 4, 6, 8], [7, 1, 2, 6], [10, 5, 6, 9],
               [6, 2, 4, 7]])


@pytest.fixture(scope="module")
def cac():
    return irr.Agreement.from_frame(irr.datasets.load("cac_raw4raters"))


# -- kernels ----------------------------------------------------------------------------
def test_coincidences_two_ways_agree():
    rng = np.random.default_rng(1)
    codes = [np.where(rng.random(50) < 0.3, -1, rng.integers(0, 4, 50)) for _ in range(4)]
    counts = np.zeros((50, 4), dtype=np.int64)
    for c in codes:  # subject x category counts, by hand
        np.add.at(counts, (np.flatnonzero(c >= 0), c[c >= 0]), 1)
    by_pairs, m = coincidences_from_codes(codes, 4)
    np.testing.assert_allclose(by_pairs, coincidences(counts), atol=1e-12)
    np.testing.assert_array_equal(m, counts.sum(axis=1))


def test_ordinal_positions_give_krippendorff_ordinal_metric():
    n = np.array([9.0, 13, 10, 5, 3])
    t = ordinal_positions(n)
    for c in range(5):
        for k in range(c, 5):
            direct = (n[c : k + 1].sum() - (n[c] + n[k]) / 2) ** 2
            assert (t[c] - t[k]) ** 2 == pytest.approx(direct, abs=1e-12)


def test_mean_squares_batch_axis():
    batch = np.stack([SF, SF[::-1], SF * 2])
    ms = mean_squares(batch)
    one = mean_squares(SF)
    assert ms.rows[0] == pytest.approx(float(one.rows))
    assert ms.rows[1] == pytest.approx(float(one.rows))
    # mean squares come in units of 4**log2_scale (the ratings are divided by 2**log2_scale)
    assert np.ldexp(ms.rows[2], 2 * ms.log2_scale[2]) == pytest.approx(
        4 * float(np.ldexp(one.rows, 2 * one.log2_scale)))


def test_tie_sum():
    assert tie_sum(np.array([[1, 5], [1, 5], [1, 5], [2, 6]])) == 2 * (27 - 3)


# -- Krippendorff's alpha ---------------------------------------------------------------
def test_alpha_result_protocol(cac):
    bare = cac.krippendorff_alpha("ordinal", ci=None)
    assert isinstance(bare, irr.KrippendorffResult)
    assert bare.se > 0  # Gwet's linearised SE needs no bootstrap (issue 20)
    assert math.isnan(bare.ci.low)
    assert math.isnan(bare.ci.high)
    res = cac.krippendorff_alpha("ordinal", n_resamples=2000, rng=0)
    assert res.ci.method == "percentile"
    assert res.se == bare.se
    assert res.bootstrap.se == pytest.approx(res.se, rel=0.3)
    assert res.ci.low < res.estimate <= res.ci.high
    lo, hi = np.nanquantile(res.bootstrap.replicates, [0.025, 0.975])
    assert (res.ci.low, res.ci.high) == pytest.approx((lo, hi), abs=1e-12)
    assert bare.conf_int(method="percentile").method == "percentile"  # drawn on demand
    assert list(res.to_frame().columns) == list(FRAME_COLUMNS)
    d = res.to_dict()
    assert d["level"] == "ordinal"
    assert d["n_pairable"] == 40
    text = str(res)
    assert "Krippendorff's alpha" in text
    assert "0.8154" in text
    assert "1 unit(s) with fewer than two ratings" in text
    assert "3 missing rating(s)" not in text  # 12 * 4 - 40 - 1 = 7 missing
    assert "7 missing rating(s)" in text
    assert repr(res).startswith("KrippendorffResult(")


def test_alpha_custom_distances_equal_builtins(cac):
    interval = cac.krippendorff_alpha("interval", ci=None).estimate
    assert cac.krippendorff_alpha(lambda c, k: (c - k) ** 2, ci=None).estimate == pytest.approx(
        interval, abs=1e-15
    )
    scores = np.arange(1, 6, dtype=float)
    matrix = (scores[:, None] - scores[None, :]) ** 2
    assert cac.krippendorff_alpha(matrix, ci=None).estimate == pytest.approx(interval, abs=1e-15)
    assert cac.krippendorff_alpha(matrix.tolist(), ci=None).level == "custom"
    nominal = cac.krippendorff_alpha("nominal", ci=None).estimate
    assert cac.krippendorff_alpha(1 - np.eye(5), ci=None).estimate == pytest.approx(nominal, abs=1e-15)


def test_alpha_from_table_equals_raw():
    a = [0, 0, 1, 1, 2, 2, 0, 1, 2, 2]
    b = [0, 1, 1, 1, 2, 0, 0, 2, 2, 2]
    raw = irr.Agreement(a, b)
    table = irr.Agreement.from_table(raw.table)
    for level in ("nominal", "ordinal", "interval"):
        assert table.krippendorff_alpha(level, ci=None).estimate == pytest.approx(
            raw.krippendorff_alpha(level, ci=None).estimate, abs=1e-14
        )


def test_alpha_string_labels_nominal_only():
    ag = irr.Agreement(["a", "b", "a", "c"], ["a", "b", "b", "c"])
    assert ag.krippendorff_alpha(ci=None).estimate == pytest.approx(
        irr.Agreement([0, 1, 0, 2], [0, 1, 1, 2]).krippendorff_alpha(ci=None).estimate
    )


def test_alpha_ordered_categorical_interval_uses_positions():
    cats = pd.CategoricalDtype(["low", "mid", "high"], ordered=True)
    a = pd.Series(["low", "mid", "high", "high", "mid"], dtype=cats)
    b = pd.Series(["low", "high", "high", "mid", "mid"], dtype=cats)
    res = irr.Agreement(a, b).krippendorff_alpha("interval", ci=None)
    assert res.estimate == pytest.approx(
        irr.Agreement([0, 1, 2, 2, 1], [0, 2, 2, 1, 1]).krippendorff_alpha("interval", ci=None).estimate
    )
    assert any("positions" in n for n in res.notes)


def test_alpha_degenerate_single_value():
    ag = irr.Agreement([1, 1, 1], [1, 1, 1])
    with pytest.warns(DegenerateDataWarning, match="expected disagreement is 0"):
        res = ag.krippendorff_alpha(ci=None)
    assert math.isnan(res.estimate)


def test_alpha_degenerate_nothing_pairable():
    ag = irr.Agreement([1, np.nan, 2], [np.nan, 2, np.nan])
    with pytest.warns(DegenerateDataWarning, match="no unit has two or more ratings"):
        res = ag.krippendorff_alpha(ci=None)
    assert math.isnan(res.estimate)
    assert res.n_missing == 3


@pytest.mark.filterwarnings("ignore:.*look like continuous scores")
@pytest.mark.parametrize("raters", [2, 3])
def test_nominal_alpha_of_values_that_never_coincide_is_zero_without_an_interval(raters):
    # every pairable value is a category of its own: D_o = D_e = 1, so alpha = 0 by
    # Krippendorff's definition (the krippendorff package agrees); a resample of units only
    # adds coincidences between copies of a unit, so every bootstrap replicate was below 0
    # and the percentile interval ([-0.019, -0.008] here) missed its own estimate
    import krippendorff

    x = np.random.default_rng(2).normal(12, 3, (40, raters)).round(10)
    assert krippendorff.alpha(reliability_data=x.T, level_of_measurement="nominal") == \
        pytest.approx(0.0, abs=1e-12)
    ag = irr.Agreement.from_array(x, continuous=False)
    for ci in ("percentile", "wald", "bca"):
        with pytest.warns(DegenerateDataWarning,
                          match=rf"0 by construction: no two of the {40 * raters} pairable "
                                r"values are the same category.*level='interval'"):
            res = ag.krippendorff_alpha(ci=ci)
        assert res.estimate == 0.0
        assert (res.observed_disagreement, res.expected_disagreement) == (1.0, 1.0)
        assert np.isnan([res.se, res.pvalue, res.ci.low, res.ci.high]).all()
    # one repeated value is a coincidence: an ordinary alpha, its SE and Wald interval
    x[1, 0] = x[0, 0]
    res = irr.Agreement.from_array(x, continuous=False).krippendorff_alpha(ci="wald")
    assert res.ci.low < res.estimate < min(0.0, res.ci.high)


def test_alpha_array_function_layouts():
    data = np.array([[1, 2, 3, 3, np.nan], [1, 2, 2, 3, 4], [np.nan, 2, 3, 3, 4]])
    by_rows = irr.krippendorff_alpha(data, "interval", layout="raters-units", ci=None)
    by_cols = irr.krippendorff_alpha(data.T, "interval", ci=None)
    assert by_rows.estimate == pytest.approx(by_cols.estimate, abs=1e-15)
    assert by_rows.raters == ("rater1", "rater2", "rater3")
    frame = pd.DataFrame(data.T, columns=["ann", "bob", "cy"])
    assert irr.krippendorff_alpha(frame, ci=None).raters == ("ann", "bob", "cy")
    # non-integral values go through the general coder (also when offsets are integral)
    halves = np.array([[1.5, 2.5, 3.5, 1.5], [1.5, 3.5, 3.5, 2.5]]).T
    assert irr.krippendorff_alpha(halves, "interval", ci=None).estimate == pytest.approx(
        irr.krippendorff_alpha(halves * 2, "interval", ci=None).estimate, abs=1e-14
    )
    assert irr.krippendorff_alpha(halves, "ratio", ci=None).estimate == pytest.approx(
        irr.krippendorff_alpha(halves * 2, "ratio", ci=None).estimate, abs=1e-14
    )
    assert irr.krippendorff_alpha(halves, "ratio", ci=None).categories == (1.5, 2.5, 3.5)
    assert irr.krippendorff_alpha(data.T / 2, "interval", ci=None).estimate == pytest.approx(
        by_rows.estimate, abs=1e-14
    )


# -- ICC --------------------------------------------------------------------------------
def test_icc_result_protocol():
    res = irr.Agreement.from_frame(pd.DataFrame(SF)).icc()
    assert isinstance(res, irr.ICCResult)
    assert res.ci.method == "satterthwaite"  # ICC(A,1): approximate df (issue 14, C16)
    assert res.alternative == "greater"
    d = res.to_dict()
    assert d["df1"] == 5
    assert d["df2"] == 15
    assert d["mcgraw_wong"] == "ICC(A,1)"
    assert d["df_ci"] == pytest.approx(4.785, abs=1e-3)
    assert list(res.to_frame().columns) == list(FRAME_COLUMNS)
    assert "Satterthwaite" in str(res)
    ci90 = res.conf_int(0.90)
    assert ci90.method == "satterthwaite"
    assert res.ci.low < ci90.low < ci90.high < res.ci.high
    again = res.conf_int(0.95)
    assert (again.low, again.high) == pytest.approx((res.ci.low, res.ci.high), abs=1e-15)


def test_icc_listwise_missing():
    x = SF.astype(float).copy()
    x = np.vstack([x, [1, np.nan, 3, 4]])
    ag = irr.Agreement(*x.T)
    res = ag.icc("twoway", "consistency", "single")
    assert res.n_subjects == 6
    assert res.n_missing == 1
    assert res.estimate == pytest.approx(irr.icc(SF, "twoway", "consistency").estimate)
    assert any("listwise" in n for n in res.notes)
    assert irr.icc(x).n_missing == 1


def test_icc_table_six_forms():
    table = irr.Agreement.from_frame(pd.DataFrame(SF)).icc_table()
    assert list(table.index) == ["ICC(1,1)", "ICC(2,1)", "ICC(3,1)", "ICC(1,4)", "ICC(2,4)",
                                 "ICC(3,4)"]
    assert table.loc["ICC(3,4)", "estimate"] == pytest.approx(0.9093, abs=5e-5)
    assert table.loc["ICC(2,1)", "mcgraw_wong"] == "ICC(A,1)"


def test_icc_perfect_consistency_has_no_interval():
    # F is infinite: the F-based interval collapses to the point 1, which is not a 95%
    # interval (issue 14, C15): nan ends, with a warning and a note saying why
    x = np.array([[1.0, 2], [3, 4], [5, 6], [2, 3]])
    with pytest.warns(DegenerateDataWarning, match="No 95% F-based interval"):
        res = irr.icc(x, "twoway", "consistency", "single")
    assert res.estimate == 1.0
    assert math.isnan(res.ci.low)
    assert math.isnan(res.ci.high)


def test_icc_degenerate_constant():
    with pytest.warns(DegenerateDataWarning, match="ICC is undefined"):
        res = irr.icc(np.full((4, 3), 2.0))
    assert math.isnan(res.estimate)


# -- Kendall's W ------------------------------------------------------------------------
def test_kendall_perfect_and_result():
    ag = irr.Agreement([1, 2, 3, 4], [10, 20, 30, 40], [2, 3, 5, 9])
    res = ag.kendall_w()
    assert isinstance(res, irr.KendallResult)
    assert res.estimate == pytest.approx(1.0)
    assert res.df == 3
    assert res.ties == 0
    assert res.ci.method == "none"
    assert list(res.to_frame().columns) == list(FRAME_COLUMNS)


def test_kendall_listwise_missing():
    ag = irr.Agreement([1, 2, 3, np.nan], [1, 3, 2, 4])
    res = ag.kendall_w()
    assert res.n_subjects == 3
    assert res.n_missing == 1


def test_kendall_degenerate():
    with pytest.warns(DegenerateDataWarning, match="Kendall's W is undefined"):
        res = irr.Agreement([1, 1, 1], [2, 2, 2]).kendall_w()
    assert math.isnan(res.estimate)


# -- bad input --------------------------------------------------------------------------
TWO = irr.Agreement([1, 2, 3, 2], [1, 2, 2, 3])
ONE_COMPLETE = irr.Agreement([1, np.nan], [2, 3])
LABELS = irr.Agreement(["a", "b", "c"], ["a", "c", "c"])
NEGATIVE = irr.Agreement([-1, 2, 3], [1, 2, 3])

BAD = [
    (lambda: TWO.krippendorff_alpha("nominl", ci=None), ValueError,
     "`level` must be one of 'nominal', 'ordinal', 'interval', 'ratio', a callable distance "
     "or a k x k matrix of squared distances; got 'nominl'."),
    (lambda: TWO.krippendorff_alpha(None, ci=None), ValueError, "`level` must be one of"),
    (lambda: NEGATIVE.krippendorff_alpha("ratio", ci=None), ValueError,
     "`level='ratio'` needs non-negative values (a ratio scale has an absolute zero); got "
     "negative values [-1.0]."),
    (lambda: LABELS.krippendorff_alpha("interval", ci=None), TypeError,
     "`level='interval'` needs numeric or ordered categories"),
    (lambda: LABELS.krippendorff_alpha("ordinal", ci=None), TypeError,
     "`level='ordinal'` needs ordered categories"),
    (lambda: LABELS.krippendorff_alpha(lambda c, k: c != k, ci=None), TypeError,
     "A callable `level` is applied to category scores"),
    (lambda: TWO.krippendorff_alpha(np.ones((2, 2))), ValueError,
     "`level` as distances must be a 3 x 3 matrix"),
    (lambda: TWO.krippendorff_alpha(np.ones((3, 3))), ValueError,
     "`level` distances must be zero on the diagonal"),
    (lambda: TWO.krippendorff_alpha(np.triu(np.ones((3, 3)), 1)), ValueError,
     "`level` distances must be symmetric."),
    (lambda: TWO.krippendorff_alpha(-(1 - np.eye(3))), ValueError,
     "`level` distances must be finite and non-negative."),
    (lambda: TWO.krippendorff_alpha(confidence_level=1.5, ci=None), ValueError,
     "`confidence_level` must be in (0, 1); got 1.5."),
    (lambda: irr.krippendorff_alpha([[1, 2]], ci=None), ValueError,
     "Krippendorff's alpha needs at least two units (subjects); got 1."),
    (lambda: irr.krippendorff_alpha([[1.5, 2.5]], ci=None), ValueError,
     "Krippendorff's alpha needs at least two units (subjects); got 1."),
    (lambda: irr.krippendorff_alpha([[1, 2, 3]], layout="raters-units", ci=None), ValueError,
     "Krippendorff's alpha needs at least two raters; `data` has 1 "
     "(layout='raters-units': raters are the rows)."),
    (lambda: irr.krippendorff_alpha([[1], [2], [3]], ci=None), ValueError,
     "Krippendorff's alpha needs at least two raters; `data` has 1 "
     "(layout='units-raters': raters are the columns)."),
    (lambda: irr.krippendorff_alpha([[1, 2], [1, 2]], layout="wide", ci=None), ValueError,
     "`layout` must be one of 'units-raters', 'raters-units'; got 'wide'."),
    (lambda: irr.krippendorff_alpha([1, 2, 3], ci=None), ValueError,
     "`data` must be 2-D; got an array of shape (3,)."),
    (lambda: TWO.icc(model="threeway"), ValueError,
     "`model` must be one of 'oneway', 'twoway'; got 'threeway'."),
    (lambda: TWO.icc(type="absolute"), ValueError,
     "`type` must be one of 'agreement', 'consistency'; got 'absolute'."),
    (lambda: TWO.icc(unit="mean"), ValueError,
     "`unit` must be one of 'single', 'average'; got 'mean'."),
    (lambda: TWO.icc("oneway", "consistency"), ValueError,
     "`type='consistency'` needs `model='twoway'`"),
    (lambda: ONE_COMPLETE.icc(), ValueError,
     "The ICC needs at least two subjects with complete ratings; got 1."),
    (lambda: irr.icc([[1.0, 2.0]]), ValueError,
     "The ICC needs at least two subjects with complete ratings; got 1."),
    (lambda: LABELS.icc(), TypeError,
     "The ICC needs numeric or ordered ratings (category scores); the categories ['a', "
     "'b', 'c'] are unordered labels."),
    (lambda: irr.icc([[1.0], [2.0], [3.0]]), ValueError,
     "The ICC needs at least two raters (columns); got 1."),
    (lambda: irr.icc([1.0, 2.0]), ValueError,
     "`ratings` must be 2-D (subjects x raters); got shape (2,)."),
    (lambda: irr.icc([["a", "b"], ["c", "d"]]), TypeError,
     "`ratings` must be a 2-D array of numbers."),
    (lambda: ONE_COMPLETE.kendall_w(), ValueError,
     "Kendall's W needs at least two subjects with complete ratings; got 1."),
    (lambda: LABELS.kendall_w(), TypeError,
     "Kendall's W needs numeric or ordered ratings"),
    (lambda: TWO.kendall_w(correct_ties="yes"), TypeError,
     "`correct_ties` must be True or False; got 'yes'."),
]


@pytest.mark.parametrize(("call", "error", "message"), BAD)
def test_bad_input(call, error, message):
    with pytest.raises(error, match=re.escape(message)):
        call()


def test_icc_and_kendall_from_table_expand_subjects():
    a = [1, 1, 2, 2, 3, 3, 1, 2, 3, 3]
    b = [1, 2, 2, 2, 3, 1, 1, 3, 3, 3]
    raw = irr.Agreement(a, b)
    table = irr.Agreement.from_table(raw.table)
    assert table.icc().estimate == pytest.approx(raw.icc().estimate, abs=1e-14)
    assert table.kendall_w().estimate == pytest.approx(raw.kendall_w().estimate, abs=1e-14)


def test_alpha_note_when_every_unit_is_pairable():
    # 3 missing ratings, none leaving a unit with fewer than two: no "0 unit(s) ... were
    # left out"
    x = np.array([[1, 2, np.nan], [2, 2, 3], [3, np.nan, 3], [1, 1, np.nan], [2, 3, 3.0]])
    res = irr.Agreement.from_array(x).krippendorff_alpha(level="interval")
    assert res.n_subjects == 5
    assert "3 missing rating(s); every unit has two or more ratings (all pairable)." \
        in res.notes
    assert not any("0 unit(s)" in note for note in res.notes)
