"""Issue 18's speed work: the chunked sufficient statistics of the limits of agreement
and Lin's CCC, and Measurements held as columns, give the numbers of the direct
computations (numpy on whole arrays, scipy's linregress), keep every validation, and do
not copy the data (the extra memory is checked with tracemalloc; times live in
benchmarks/bench_i18_continuous.py)."""

import math
import pickle
import tracemalloc

import numpy as np
import pandas as pd
import pytest
from scipy import stats

import irr
from irr._columns import choose_columns
from irr._measurements import CHUNK, Measurements
from irr.coefficients.limits import fit_line

N = 3 * CHUNK + 17  # several chunks and a ragged last one


def _pairs(n, seed=0, nan=0.0):
    rng = np.random.default_rng(seed)
    truth = rng.normal(120, 15, n)
    x, y = truth + rng.normal(0, 4, n), truth + 1.5 + rng.normal(0, 5, n)
    if nan:
        x[rng.random(n) < nan] = np.nan
        y[rng.random(n) < nan] = np.nan
    return x, y


def _direct(x, y, scale):
    """The statistics by numpy on whole arrays (and scipy's regression)."""
    keep = ~(np.isnan(x) | np.isnan(y))
    x, y = x[keep], y[keep]
    a = (x + y) / 2
    d = {"difference": x - y, "percent": 100 * (x - y) / a,
         "ratio": np.log(x) - np.log(y)}[scale]
    line = stats.linregress(a, d)
    return d.mean(), d.std(ddof=1), line.slope, line.stderr, keep.size - keep.sum()


@pytest.mark.parametrize("scale", ["difference", "percent", "ratio"])
@pytest.mark.parametrize("nan", [0.0, 0.05])
def test_chunked_limits_equal_the_whole_array_statistics(scale, nan):
    x, y = _pairs(N, seed=1, nan=nan)
    res = irr.limits_of_agreement(x, y, scale=scale)
    bias, sd, slope, slope_se, _ = _direct(x, y, scale)
    log = scale == "ratio"
    assert (math.log(res.estimate) if log else res.estimate) == pytest.approx(bias, rel=1e-12)
    assert res.sd == pytest.approx(sd, rel=1e-12)
    assert res.slope == pytest.approx(slope, rel=1e-10)
    assert res.slope_se == pytest.approx(slope_se, rel=1e-10)
    assert res.n_subjects == int((~(np.isnan(x) | np.isnan(y))).sum())
    assert res.n_missing == int((np.isnan(x) ^ np.isnan(y)).sum())


def test_strong_proportional_bias_uses_the_residuals():
    # the line explains nearly all the spread of the differences: the residual sum of
    # squares is taken from the residuals themselves, not as a difference of sums
    rng = np.random.default_rng(2)
    a = rng.uniform(50, 150, N)
    d = 0.2 * a + rng.normal(0, 1e-3, N)
    x, y = a + d / 2, a - d / 2
    res = irr.limits_of_agreement(x, y)
    line = stats.linregress((x + y) / 2, x - y)
    assert res.slope == pytest.approx(line.slope, rel=1e-10)
    assert res.slope_se == pytest.approx(line.stderr, rel=1e-8)


def test_one_chunk_gives_numpys_own_numbers_bit_for_bit():
    x, y = _pairs(500, seed=3)
    res = irr.limits_of_agreement(x, y)
    d, a = x - y, (x + y) / 2
    line = fit_line(a, d)
    assert res.estimate == float(d.mean())
    assert res.sd == float(d.std(ddof=1))
    assert (res.slope, res.slope_se) == (line.slope, line.slope_se)


def test_chunked_ccc_equals_lins_formula_on_whole_arrays():
    x, y = _pairs(N, seed=4, nan=0.02)
    res = irr.concordance(x, y)
    keep = ~(np.isnan(x) | np.isnan(y))
    a, b = x[keep], y[keep]
    sxy = np.mean((a - a.mean()) * (b - b.mean()))
    ccc = 2 * sxy / (a.var() + b.var() + (a.mean() - b.mean()) ** 2)
    assert res.estimate == pytest.approx(ccc, rel=1e-12)
    assert res.pearson_r == pytest.approx(np.corrcoef(a, b)[0, 1], rel=1e-12)


def test_ccc_bootstrap_is_drawn_from_the_measurements_and_reproducible():
    x, y = _pairs(2 * CHUNK, seed=5)
    first = irr.concordance(x, y, ci="percentile", n_resamples=50)
    again = pickle.loads(pickle.dumps(irr.concordance(x, y, ci="percentile", n_resamples=50)))
    assert np.array_equal(first.bootstrap.replicates, again.bootstrap.replicates)
    assert first.ci.low < first.estimate < first.ci.high
    assert abs(float(np.mean(first.bootstrap.replicates)) - first.estimate) < 1e-3


def test_means_and_differences_are_made_when_asked_and_pickle():
    x, y = _pairs(1000, seed=6, nan=0.1)
    res = irr.limits_of_agreement(x, y, scale="percent")
    keep = ~(np.isnan(x) | np.isnan(y))
    a = (x[keep] + y[keep]) / 2
    np.testing.assert_array_equal(res.means, a)
    np.testing.assert_array_equal(res.differences, 100 * (x[keep] - y[keep]) / a)
    back = pickle.loads(pickle.dumps(res))
    np.testing.assert_array_equal(back.differences, res.differences)
    assert back.to_frame().equals(res.to_frame())


def test_limits_and_ccc_of_complete_pairs_copy_no_column():
    x, y = _pairs(40 * CHUNK, seed=7)
    column_mb = x.nbytes / 2**20
    for call in (lambda: irr.limits_of_agreement(x, y), lambda: irr.concordance(x, y),
                 lambda: irr.Agreement(x, y, continuous=True).limits_of_agreement()):
        call()
        tracemalloc.start()
        try:
            call()
            peak = tracemalloc.get_traced_memory()[1] / 2**20
        finally:
            tracemalloc.stop()
        assert peak < column_mb / 2, peak


# -- Measurements held as columns ------------------------------------------------------------

def test_columns_give_the_long_forms_views():
    rng = np.random.default_rng(8)
    wide = rng.normal(10, 2, (40, 3))
    wide[rng.random(wide.shape) < 0.2] = np.nan
    wide[0, 0] = -0.0
    m = Measurements.from_wide(wide, raters=["a", "b", "c"])
    row, col = np.nonzero(~np.isnan(wide))
    long = Measurements(row.astype(np.int64), col.astype(np.int64), wide[row, col],
                        ("a", "b", "c"), pd.RangeIndex(40))
    np.testing.assert_array_equal(m.subject, row)
    np.testing.assert_array_equal(m.rater, col)
    np.testing.assert_array_equal(m.value, wide[row, col])
    assert m.n_measurements == long.n_measurements == row.size
    np.testing.assert_array_equal(m.replicates, long.replicates)
    np.testing.assert_array_equal(m.wide(), long.wide())
    assert str(m.wide()[0, 0]) == str(long.wide()[0, 0]) == "0.0"
    for got, want in zip(m.cell_sums(), long.cell_sums(), strict=True):
        np.testing.assert_array_equal(got, want)
    np.testing.assert_array_equal(m.missing_subjects(), long.missing_subjects())
    for g, h in ((0, 1), (2, 0)):
        for got, want in zip(m.pair(g, h), long.pair(g, h), strict=True):
            np.testing.assert_array_equal(got, want)
    assert not m.has_replicates
    assert "n_measurements=" in repr(m)


def test_complete_columns_are_paired_without_a_copy():
    x, y = _pairs(100, seed=9)
    a, b, one = Measurements.from_pair(x, y).pair()
    assert one == 0
    assert np.shares_memory(a, x)
    assert np.shares_memory(b, y)
    assert not a.flags.writeable


@pytest.mark.parametrize(("call", "message"), [
    (lambda: irr.limits_of_agreement([1.0, np.inf, 3.0], [1.0, 2.0, 3.0]),
     r"`x` holds infinite values: \[inf\]"),
    (lambda: irr.concordance([1.0, 2.0, 3.0, 4.0], [1.0, 2.0, -np.inf, np.nan]),
     r"`y` holds infinite values: \[-inf\]"),
    (lambda: Measurements.from_columns([np.array([1.0, 2.0]), np.array([np.inf, 1.0])],
                                       raters=["cuff", "device"]),
     r"rater 'device' holds infinite values: \[inf\]"),
    (lambda: irr.Agreement(np.array([1.5, 2.5, 3.5]), np.array([1.0, np.inf, 2.0]),
                           continuous=True),
     r"`rater_b` contains infinite ratings: \[inf\]"),
])
def test_infinities_are_refused_naming_the_argument(call, message):
    with pytest.raises(ValueError, match=message):
        call()


def test_a_sum_that_overflows_is_not_an_infinity():
    x = np.array([1e308, 1e308, 1e308, 1.0])
    m = Measurements.from_pair(x, x[::-1].copy())
    assert m.n_measurements == 8
    assert m.missing_subjects().size == 0


# -- column detection of wide frames ---------------------------------------------------------

def test_detection_reads_decimal_columns_from_their_first_rows():
    n = 5000
    rng = np.random.default_rng(10)
    df = pd.DataFrame({"id": np.arange(n), "a": rng.normal(100, 10, n),
                       "b": rng.normal(100, 10, n)})
    choice = choose_columns(df)
    assert choice.raters == ("a", "b")
    assert choice.ids == ("id",)
    # integers first, decimals after the first rows: still decimals (measurements)
    late = np.r_[np.arange(2000.0), rng.normal(5000, 10, n - 2000)]
    df = pd.DataFrame({"serial": np.arange(n) + 10**6, "a": late, "b": late + 0.5})
    assert choose_columns(df).raters == ("a", "b")
