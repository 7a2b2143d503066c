"""The variance components of an unbalanced crossed subjects x raters design (REML) against an
independent reference producer: statsmodels MixedLM (``mixedlm_reference.py``, which also
explains why an earlier comparison agreed only to 2e-3: MixedLM's default stopping rule)."""

from __future__ import annotations

import pytest

import tests.reference.mixedlm_reference as mixed_ref
from irr._measurements import Measurements
from irr.estimators.variance_components import icc_components

# -- ICC by REML on an unbalanced design: statsmodels MixedLM ------------------------------

DESIGNS = [dict(seed=3), dict(seed=11, n=25, k=5, missing=0.4)]


@pytest.mark.parametrize("design", DESIGNS, ids=["30x4-20%", "25x5-40%"])
def test_reml_components_match_mixedlm_tightly(design):
    s, r, y = mixed_ref.unbalanced_design(**design)
    res = icc_components(Measurements.from_long(s, r, y), estimator="reml")
    ref = mixed_ref.mixedlm_reml(s, r, y)
    assert ref["converged"]
    assert res.sigma2_subjects == pytest.approx(ref["subjects"], rel=1e-6)
    assert res.sigma2_raters == pytest.approx(ref["raters"], rel=1e-6)
    assert res.sigma2_error == pytest.approx(ref["error"], rel=1e-6)
    assert res.estimate == pytest.approx(ref["icc"], rel=1e-6)
    # irr's components are a REML maximum by MixedLM's own likelihood
    llf = mixed_ref.mixedlm_reml_loglike(s, r, y, res.sigma2_subjects, res.sigma2_raters,
                                         res.sigma2_error)
    assert llf == pytest.approx(ref["llf"], abs=1e-8)
    assert llf >= ref["llf"] - 1e-9
