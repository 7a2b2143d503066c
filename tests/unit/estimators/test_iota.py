"""Janson & Olsson's iota: against Conger's kappa (one nominal variable, R irr's manual
page "iota") and a brute-force double loop over subjects and raters written here."""

import itertools

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from hypothesis.extra.numpy import arrays

import irr


def _brute(x):
    n, m, _ = x.shape
    pairs = list(itertools.combinations(range(m), 2))
    observed = np.mean([np.mean([((x[i, j] - x[i, r]) ** 2).sum() for j, r in pairs])
                        for i in range(n)])
    expected = np.mean([np.mean([((x[i, j] - x[k, r]) ** 2).sum()
                                 for i in range(n) for k in range(n)]) for j, r in pairs])
    return 1 - observed / expected if expected > 0 else np.nan


@settings(max_examples=40, deadline=None)
@given(st.tuples(st.integers(2, 8), st.integers(2, 4), st.integers(1, 3)).flatmap(
    lambda shape: arrays(float, shape, elements=st.floats(-5, 5, allow_subnormal=False))))
def test_interval_iota_is_the_brute_force_ratio(x):
    expected = _brute(x)
    if not np.isfinite(expected):
        with pytest.warns(irr.DegenerateDataWarning):
            assert np.isnan(irr.iota(x).estimate)
        return
    if abs(expected) > 1e6:
        return
    ours = irr.iota(x).estimate
    assert ours == pytest.approx(expected, rel=1e-8, abs=1e-8)


@pytest.mark.filterwarnings("ignore::irr.DegenerateDataWarning")
@settings(max_examples=40, deadline=None)
@given(st.tuples(st.integers(3, 15), st.integers(2, 5)).flatmap(
    lambda shape: arrays(np.int64, shape, elements=st.integers(1, 4))))
def test_one_nominal_variable_is_congers_kappa(x):
    conger = irr.Agreement.from_array(x, categories=[1, 2, 3, 4]).conger_kappa().estimate
    ours = irr.iota([x], level="nominal").estimate
    if np.isnan(conger):
        assert np.isnan(ours)
    else:
        assert ours == pytest.approx(conger, abs=1e-10)


def test_diagnoses_nominal_iota_is_congers_kappa():
    d = irr.datasets.load("diagnoses")
    assert irr.iota([d], level="nominal").estimate == pytest.approx(
        irr.Agreement.from_frame(d).conger_kappa().estimate, abs=1e-12)


def test_missing_standardize_and_bad_input():
    a = irr.datasets.load("anxiety").astype(float)
    b = a * 10 + 3
    holed = a.copy()
    holed.iloc[2, 1] = np.nan
    res = irr.iota([holed, b])
    assert res.n_subjects == 19
    assert res.n_missing == 1
    # standardising makes a rescaled copy of a variable weigh like the original
    assert irr.iota([a, b], standardize=True).estimate == pytest.approx(
        irr.iota([a, a], standardize=True).estimate)
    with pytest.raises(TypeError, match="list of"):
        irr.iota(a)
    with pytest.raises(ValueError, match="one shape"):
        irr.iota([a, a.iloc[:, :2]])
    with pytest.raises(ValueError, match="`level`"):
        irr.iota([a], level="ordinal")
    with pytest.raises(TypeError, match="level='nominal'"):
        irr.iota([a.astype(str).radd("x")])
    boot = irr.iota([a, b], ci="percentile", n_resamples=300)
    assert boot.ci.low < boot.estimate < boot.ci.high
