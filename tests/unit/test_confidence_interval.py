"""ConfidenceInterval behaves as the tuple (low, high) it unpacks to, and keeps its level,
method and note."""

import math
import pickle

import numpy as np
import pytest

import irr
from irr import ConfidenceInterval


def test_an_interval_indexes_counts_and_iterates_as_its_two_limits():
    ci = ConfidenceInterval(0.2, 0.5, 0.95, "wald")
    assert ci[0] == 0.2
    assert ci[1] == 0.5
    assert ci[-1] == 0.5
    assert ci[:] == (0.2, 0.5)
    assert len(ci) == 2
    assert list(ci) == [0.2, 0.5]
    low, high = ci
    assert (low, high) == (0.2, 0.5)
    assert tuple(ci) == (0.2, 0.5)
    assert np.asarray(ci).tolist() == [0.2, 0.5]
    with pytest.raises(IndexError):
        ci[2]


def test_an_interval_equals_the_tuple_of_its_limits():
    ci = ConfidenceInterval(0.2, 0.5, 0.95, "wald")
    assert ci == (0.2, 0.5)
    assert (0.2, 0.5) == ci  # noqa: SIM300 (the reflected comparison)
    assert ci != (0.2, 0.6)
    assert ci != [0.2, 0.5, 1.0]
    assert hash(ci) == hash((0.2, 0.5))
    # two intervals are equal only with the same level, method and note
    assert ci == ConfidenceInterval(0.2, 0.5, 0.95, "wald")
    assert ci != ConfidenceInterval(0.2, 0.5, 0.90, "wald")
    assert ci != ConfidenceInterval(0.2, 0.5, 0.95, "bca")


def test_an_interval_pickles_and_keeps_its_repr_and_text():
    ci = ConfidenceInterval(0.2, 0.5, 0.95, "wald", "clipped to [-1, 1]")
    copy = pickle.loads(pickle.dumps(ci))
    assert copy == ci
    assert copy.note == ci.note
    assert repr(ci) == ("ConfidenceInterval(low=0.2, high=0.5, confidence_level=0.95, "
                        "method='wald', note='clipped to [-1, 1]')")
    assert str(ci) == "95% CI [0.2000, 0.5000] (Wald)"  # the vocabulary's words


def test_a_results_interval_indexes():
    res = irr.cohen_kappa([1, 2, 2, 1, 2, 1, 1, 2], [1, 2, 1, 1, 2, 2, 1, 2])
    assert res.ci[0] == res.ci.low
    assert res.ci[1] == res.ci.high
    assert math.isfinite(res.ci[0])
