"""Agreement.inter_intra_reliability: arguments, unbalanced designs and the result protocol."""

import math

import numpy as np
import pandas as pd
import pytest

import irr


def _long(n=12, t=3, m=2, seed=0):
    rng = np.random.default_rng(seed)
    truth = rng.normal(50, 8, n)
    rows = [(f"s{i:02d}", f"nurse {chr(65 + j)}", k + 1,
             round(truth[i] + 1.5 * j + rng.normal(0, 2), 1))
            for i in range(n) for j in range(t) for k in range(m)]
    return pd.DataFrame(rows, columns=["patient", "nurse", "visit", "sbp"])


def _ag(long):
    return irr.Agreement.from_long(long, subject="patient", rater="nurse", rating="sbp",
                                   replicate="visit", continuous=True)


@pytest.mark.parametrize(("kwargs", "error", "match"), [
    ({"rho0_inter": 1.0}, ValueError, "`rho0_inter` must be in"),
    ({"rho0_intra": -1.5}, ValueError, "`rho0_intra` must be in"),
    ({"rho0_intra": "0.8"}, TypeError, "`rho0_intra` must be a number"),
    ({"rho0_inter": True}, TypeError, "`rho0_inter` must be a number"),
    ({"confidence_level": 1.5}, ValueError, "confidence_level"),
])
def test_bad_arguments(kwargs, error, match):
    with pytest.raises(error, match=match):
        _ag(_long()).inter_intra_reliability(**kwargs)


def test_needs_replicates():
    one = _long(m=1)
    ag = irr.Agreement.from_long(one, subject="patient", rater="nurse", rating="sbp",
                                 continuous=True)
    with pytest.raises(ValueError, match="needs replicates"):
        ag.inter_intra_reliability()


def test_unbalanced_subjects_are_left_out_with_a_note():
    long = _long()
    # patient s00 lost one visit of nurse A; s01 lost all of nurse B's measurements
    long = long.drop(index=[0, 8, 9]).reset_index(drop=True)
    res = _ag(long).inter_intra_reliability()
    assert res.n_subjects == 10
    assert res.n_missing == 2
    assert any("2 subject(s)" in note for note in res.notes)
    complete = _long().query("patient not in ['s00', 's01']")
    assert res.estimate == pytest.approx(_ag(complete).inter_intra_reliability().estimate,
                                         abs=1e-12)


def test_too_few_balanced_subjects():
    long = _long(n=3).drop(index=[0, 8])
    with pytest.raises(ValueError, match="balanced design"):
        _ag(long).inter_intra_reliability()


def test_protocol():
    res = _ag(_long()).inter_intra_reliability(confidence_level=0.9)
    frame = res.to_frame()
    assert len(frame) == 4 + 2 * 3
    assert list(frame.columns[-4:]) == ["rho0", "df1", "df2", "sem"]
    assert frame["confidence_level"].eq(0.9).all()
    assert frame.loc["Inter-rater reliability (raters random)", "rho0"] == 0.6
    assert frame.loc["Intra-rater reliability (nurse B)", "rho0"] == 0.8
    text = res.summary().as_text()
    assert "Intra-rater reliability (nurse C)" in text
    assert "Replicates:" in text
    sentence = res.report()
    assert sentence.startswith("With 3 raters (nurse A, nurse B, nurse C) each measuring 12 "
                               "subjects 2 times")
    assert "90% CI" in sentence
    assert res.conf_int(0.95).low < res.ci.low
    assert res["Inter-rater reliability (raters fixed)"].conf_int(0.5).method == "satterthwaite"
    with pytest.raises(KeyError, match="not a row"):
        res["kappa"]
    assert math.isnan(res.se)
    # the same bytes for the same input
    assert res.summary().as_text() == _ag(_long()).inter_intra_reliability(
        confidence_level=0.9).summary().as_text()


def test_rater_and_subject_order_do_not_matter():
    long = _long()
    a = _ag(long).inter_intra_reliability().to_frame()
    b = _ag(long.sample(frac=1, random_state=3)).inter_intra_reliability().to_frame()
    pd.testing.assert_frame_equal(a.sort_index(), b.sort_index(), rtol=1e-10)


def test_no_variation_is_undefined_with_a_warning():
    long = _long().assign(sbp=120.0)
    with pytest.warns(irr.DegenerateDataWarning, match="no variation"):
        res = _ag(long).inter_intra_reliability()
    assert math.isnan(res.estimate)
    assert math.isnan(res.ci.low)
    assert res["Intra-rater reliability (nurse A)"].sem == 0.0
    assert "was undefined" in res.report()
