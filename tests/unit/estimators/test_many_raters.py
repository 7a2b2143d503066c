"""Robinson's A, Finn's coefficient, mean Spearman rho, Kendall's F form: arguments,
missing ratings, bootstrap, output."""

import numpy as np
import pytest

import irr

ANXIETY = irr.datasets.load("anxiety")


@pytest.fixture
def ag():
    return irr.Agreement.from_frame(ANXIETY)


def test_bad_arguments(ag):
    with pytest.raises(ValueError, match="`model`"):
        ag.finn("random")
    with pytest.raises(ValueError, match="`levels`"):
        ag.finn(levels=1)
    with pytest.raises(TypeError, match="`fisher`"):
        ag.mean_spearman(fisher="yes")
    with pytest.raises(ValueError, match="`ci`"):
        ag.robinson_a(ci="wald")


def test_unordered_labels_are_refused():
    ag = irr.Agreement(["a", "b", "c"], ["b", "b", "c"], ["a", "c", "c"])
    for method in ("robinson_a", "finn", "mean_spearman"):
        with pytest.raises((TypeError, ValueError), match=r"order|scores"):
            getattr(ag, method)()


def test_missing_ratings_are_left_out_listwise():
    x = ANXIETY.to_numpy(float)
    x[[0, 5], [1, 2]] = np.nan
    ag = irr.Agreement.from_array(x)
    complete = irr.Agreement.from_array(np.delete(ANXIETY.to_numpy(float), [0, 5], axis=0))
    for method in ("robinson_a", "finn", "mean_spearman"):
        res = getattr(ag, method)()
        assert res.n_subjects == 18
        assert res.n_missing == 2
        assert res.estimate == pytest.approx(getattr(complete, method)().estimate)
        assert "2 subject(s) with a missing rating" in res.summary().as_text()


def test_bootstrap_on_request_and_later(ag):
    res = ag.finn(levels=6)
    assert res.ci.method == "none"
    assert np.isnan(res.ci.low)
    low, high = res.conf_int(method="percentile")
    assert low < res.estimate < high
    boot = ag.robinson_a(ci="bca", n_resamples=400)
    assert boot.ci.low < boot.estimate < boot.ci.high
    again = ag.robinson_a(ci="bca", n_resamples=400)
    assert (boot.ci.low, boot.ci.high) == (again.ci.low, again.ci.high)


def test_constant_ratings_are_undefined_with_a_warning():
    x = np.array([[1, 1, 1], [2, 2, 2], [3, 3, 3.0]])[:, [0, 0, 0]] * 0 + 2
    ag = irr.Agreement.from_array(x, categories=[1, 2, 3])
    with pytest.warns(irr.DegenerateDataWarning):
        assert np.isnan(ag.robinson_a().estimate)
    with pytest.warns(irr.DegenerateDataWarning):
        assert np.isnan(ag.mean_spearman().estimate)
    assert ag.finn().estimate == 1.0  # no variance at all: perfect agreement


def test_two_way_finn_uses_the_error_df(ag):
    res = ag.finn("twoway", levels=6)
    assert "(inf, 38)" in res.notes[1]  # (n - 1)(m - 1); R irr prints n(m - 1) = 40


def test_by_and_output(ag):
    df = ANXIETY.assign(site=["a", "b"] * 10)
    out = irr.by(df, "site", statistic="finn", levels=6)
    assert list(out["coefficient"]) == ["Finn's coefficient (oneway)"] * 2
    assert ag.robinson_a().report().startswith(
        "Robinson's A among rater1, rater2, and rater3 was .48")
    frame = ag.kendall_w().to_dict()
    assert frame["f_df1"] == pytest.approx(19 - 2 / 3)


def test_fleiss_kappa_with_a_varying_number_of_raters_is_gwets_generalisation():
    # Gwet (2014, ch. 2): p_a over subjects with >= 2 ratings, pi_k the mean of the
    # subjects' shares r_ik / r_i, p_e = sum pi_k^2; written here from the definitions
    c = np.array([[3, 0, 0], [1, 2, 0], [0, 1, 3], [2, 2, 0], [0, 0, 2], [1, 1, 1]], float)
    r = c.sum(axis=1)
    pa = np.mean((c * (c - 1)).sum(axis=1) / (r * (r - 1)))
    pe = ((c / r[:, None]).mean(axis=0) ** 2).sum()
    res = irr.Agreement.from_counts(c).fleiss_kappa()
    assert res.estimate == pytest.approx((pa - pe) / (1 - pe), abs=1e-12)
    assert any("raters per subject vary" in note for note in res.notes)


@pytest.mark.parametrize("method", ["fleiss_kappa", "gwet_ac", "conger_kappa"])
def test_listwise_with_no_complete_subject_says_no_subject_was_rated_by_every_rater(method):
    import pandas as pd
    frame = pd.DataFrame([[1, np.nan, 2], [np.nan, 1, 1], [2, 2, np.nan], [1, np.nan, 1]],
                         columns=["a", "b", "c"])
    with pytest.raises(ValueError, match=r"no subject was rated by every rater .*"
                                         r"missing='available'"):
        getattr(irr.Agreement.from_frame(frame), method)(missing="listwise")
