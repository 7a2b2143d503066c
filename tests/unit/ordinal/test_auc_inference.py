"""AUC with DeLong's SE and bootstrap intervals."""

import math

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import irr
from irr.ordinal import roc_auc_result


def delong_by_definition(y, s):
    """DeLong et al. (1988) from all positive-negative pairs, O(n^2), for checking."""
    pos, neg = s[y == 1], s[y == 0]
    psi = (pos[:, None] > neg[None, :]) + 0.5 * (pos[:, None] == neg[None, :])
    v10, v01 = psi.mean(axis=1), psi.mean(axis=0)
    var = v10.var(ddof=1) / len(pos) + v01.var(ddof=1) / len(neg)
    return psi.mean(), math.sqrt(var)


@settings(max_examples=60, deadline=None)
@given(st.lists(st.tuples(st.booleans(), st.integers(0, 6)), min_size=4, max_size=60))
def test_delong_se_matches_the_pairwise_definition(data):
    y = np.array([d[0] for d in data], dtype=int)
    s = np.array([d[1] for d in data], dtype=float)
    if min(y.sum(), (1 - y).sum()) < 2:
        return
    res = roc_auc_result(y, s, ci="wald")
    auc, se = delong_by_definition(y, s)
    assert res.estimate == pytest.approx(auc, abs=1e-12)
    assert res.estimate == pytest.approx(irr.roc_auc(y, s), abs=1e-15)
    assert res.se == pytest.approx(se, abs=1e-12)


def test_bootstrap_se_agrees_with_delong_and_classes_stay_fixed():
    rng = np.random.default_rng(0)
    y = rng.integers(0, 2, 400)
    s = y * 0.8 + rng.normal(size=400)
    res = roc_auc_result(y, s, ci="bca", n_resamples=4000, rng=1)
    assert res.bootstrap.resampling == "subjects within strata"
    assert res.bootstrap.se == pytest.approx(res.se, rel=0.08)
    assert res.ci.low < res.estimate < res.ci.high
    assert res.ci.method == "bca"
    wald = res.conf_int(method="wald")
    assert wald.low == pytest.approx(res.estimate - 1.959963984540054 * res.se, rel=1e-12)
    assert res.statistic == pytest.approx((res.estimate - 0.5) / res.se, rel=1e-12)
    from scipy.stats import norm

    assert res.pvalue == pytest.approx(2 * norm.sf(res.statistic), rel=1e-9)


def test_bad_input():
    with pytest.raises(ValueError, match=r"`y_true` must contain both classes; got only \[1\]"):
        roc_auc_result([1, 1, 1], [0.1, 0.2, 0.3])
    with pytest.raises(ValueError, match=r"`ci` must be one of"):
        roc_auc_result([1, 0], [0.1, 0.2], ci="delong")
