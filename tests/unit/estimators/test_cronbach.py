"""Cronbach's alpha: the covariance formula, ICC(C,k), Feldt's interval and test, listwise
deletion, and every door (method, shortcut, accessor, statistics vocabulary)."""

import math
import pickle

import numpy as np
import pandas as pd
import pytest
from scipy.stats import f as f_dist

import irr
from irr import DegenerateDataWarning
from irr.registry import statistic_name, statistic_row

ANXIETY = irr.datasets.load("anxiety")


def covariance_alpha(x):
    """Cronbach's (1951) alpha, k/(k - 1) (1 - sum of item variances / variance of the sum)."""
    k = x.shape[1]
    c = np.cov(x, rowvar=False)
    return k / (k - 1) * (1 - np.trace(c) / c.sum())


def test_alpha_is_the_covariance_formula_and_icc_ck():
    ag = irr.Agreement.from_frame(ANXIETY)
    res = ag.cronbach_alpha()
    assert res.estimate == pytest.approx(covariance_alpha(ANXIETY.to_numpy(float)), abs=1e-12)
    icc = ag.icc("twoway", "consistency", "average")
    assert res.estimate == icc.estimate
    assert (res.statistic, res.pvalue, res.df1, res.df2) == (icc.statistic, icc.pvalue, 19, 38)
    assert (res.ci.low, res.ci.high) == (icc.ci.low, icc.ci.high)
    assert res.coefficient == "Cronbach's alpha"
    assert (res.ci.method, res.alternative, res.scale) == ("feldt", "greater", None)


@pytest.mark.parametrize("level", [0.8, 0.9, 0.99])
def test_feldts_interval_at_any_level(level):
    res = irr.Agreement.from_frame(ANXIETY).cronbach_alpha(confidence_level=level)
    a, g = res.estimate, 1 - level
    low = 1 - (1 - a) * f_dist.ppf(1 - g / 2, 19, 38)
    high = 1 - (1 - a) * f_dist.ppf(g / 2, 19, 38)
    assert (res.ci.low, res.ci.high) == pytest.approx((low, high), abs=1e-12)
    # and from a result of another level, by conf_int
    other = irr.Agreement.from_frame(ANXIETY).cronbach_alpha().conf_int(level)
    assert (other.low, other.high, other.method) == pytest.approx((low, high, "feldt"))


@pytest.mark.parametrize("null", [None, 0.3, -0.5])
def test_feldts_test_of_a_value(null):
    res = irr.Agreement.from_frame(ANXIETY).cronbach_alpha(null=null)
    a0 = 0.0 if null is None else null
    f = (1 - a0) / (1 - res.estimate)
    assert res.statistic == pytest.approx(f, rel=1e-12)
    assert res.pvalue == pytest.approx(f_dist.sf(f, 19, 38), rel=1e-10)
    assert res.null_value == a0


def test_listwise_deletion_counts_what_it_leaves_out():
    x = ANXIETY.to_numpy(float)
    x[[2, 5], [0, 2]] = np.nan
    res = irr.cronbach_alpha(x)
    kept = x[~np.isnan(x).any(axis=1)]
    assert res.estimate == pytest.approx(covariance_alpha(kept), abs=1e-12)
    assert (res.n_subjects, res.n_missing, res.df1, res.df2) == (18, 2, 17, 34)
    assert "2 subject(s) with a missing rating were left out (listwise)." in res.notes


def test_every_door_gives_the_same_alpha():
    method = irr.Agreement.from_frame(ANXIETY).cronbach_alpha(confidence_level=0.9)
    shortcut = irr.cronbach_alpha(ANXIETY, confidence_level=0.9)
    array = irr.cronbach_alpha(ANXIETY.to_numpy())
    accessor = ANXIETY.irr.cronbach_alpha(confidence_level=0.9)
    assert method.estimate == shortcut.estimate == array.estimate == accessor.estimate
    assert method.ci.low == shortcut.ci.low == accessor.ci.low
    assert shortcut.raters == ("rater1", "rater2", "rater3")
    for name in ("cronbach", "Cronbach-Alpha", "coefficient_alpha"):
        assert statistic_name(name) == "cronbach"
    assert statistic_row("cronbach").method == "cronbach_alpha"
    by = irr.by(ANXIETY.assign(site=["a", "b"] * 10), "site", statistic="cronbach",
                raters=["rater1", "rater2", "rater3"])
    first = irr.cronbach_alpha(ANXIETY.iloc[::2])
    assert by["estimate"].iloc[0] == pytest.approx(first.estimate)


def test_its_sentence_summary_and_frame():
    res = irr.Agreement.from_frame(ANXIETY).cronbach_alpha()
    assert res.report() == ("Cronbach's α among rater1, rater2, and rater3 was .45, 95% CI "
                            "[−.15, .77] (Feldt's exact F), n = 20.")
    text = res.summary().as_text()
    assert "Cronbach's alpha" in text
    assert "Feldt" in text
    row = res.to_dict()
    assert (row["df1"], row["df2"], row["n_items"], row["ci_method"]) == (19, 38, 3, "feldt")
    assert res.to_frame()["estimate"].iloc[0] == res.estimate
    again = pickle.loads(pickle.dumps(res))
    assert again.conf_int(0.9).low == res.conf_int(0.9).low


def test_unordered_labels_and_too_few_subjects_are_refused():
    with pytest.raises(TypeError):
        irr.Agreement(["a", "b", "a"], ["b", "b", "a"]).cronbach_alpha()
    with pytest.raises(ValueError, match="two subjects"):
        irr.cronbach_alpha(np.array([[1.0, 2.0], [np.nan, 3.0], [2.0, np.nan]]))


def test_no_variance_is_nan_with_a_warning():
    x = pd.DataFrame({"a": [2, 2, 2, 2], "b": [2, 2, 2, 2]})
    with pytest.warns(DegenerateDataWarning, match="undefined"):
        res = irr.cronbach_alpha(x)
    assert math.isnan(res.estimate)
