"""Bootstrap intervals for the multi-rater coefficients through the pattern engine."""

import numpy as np
import pytest

import irr

METHODS = ["fleiss_kappa", "scott_pi", "conger_kappa", "light_kappa", "gwet_ac", "brennan_prediger"]


@pytest.fixture(scope="module")
def diagnoses():
    return irr.Agreement.from_frame(irr.datasets.load("diagnoses"))


@pytest.mark.parametrize("method", METHODS)
def test_bootstrap_se_is_close_to_the_linearised_se(diagnoses, method):
    res = getattr(diagnoses, method)(ci="percentile", n_resamples=3000, rng=0)
    assert res.ci.method == "percentile"
    assert res.n_resamples == 3000
    # 30 subjects: the linearised (delta-method) SE and the bootstrap SE agree to ~15%.
    assert res.bootstrap.se == pytest.approx(res.se, rel=0.15)
    lo, hi = np.quantile(res.bootstrap.replicates, [0.025, 0.975])
    assert (res.ci.low, res.ci.high) == pytest.approx((lo, hi), abs=1e-12)
    bca = res.conf_int(method="bca")
    assert bca.low < res.estimate < bca.high


def test_same_seed_pairs_resamples_across_coefficients(diagnoses):
    fleiss = diagnoses.fleiss_kappa(ci="percentile", n_resamples=500, rng=3).bootstrap.replicates
    scott = diagnoses.scott_pi(ci="percentile", n_resamples=500, rng=3).bootstrap.replicates
    np.testing.assert_array_equal(fleiss, scott)  # same statistic, same resamples
    ac1 = diagnoses.gwet_ac(ci="percentile", n_resamples=500, rng=3).bootstrap.replicates
    assert np.corrcoef(fleiss, ac1)[0, 1] > 0.8


def test_krippendorff_alpha_bootstrap_by_default_and_reproducible():
    cac = irr.Agreement.from_frame(irr.datasets.load("cac_raw4raters"))
    one = cac.krippendorff_alpha("interval", rng=1, n_resamples=2000)
    two = cac.krippendorff_alpha("interval", rng=1, n_resamples=2000)
    assert (one.ci.low, one.ci.high) == (two.ci.low, two.ci.high)
    assert one.bootstrap.se == pytest.approx(np.nanstd(one.bootstrap.replicates, ddof=1),
                                             rel=1e-12)
    # se is Gwet's linearised SE whatever the interval (issue 20); 'wald' is built on it
    wald = cac.krippendorff_alpha("interval", ci="wald", rng=1, n_resamples=2000)
    assert wald.se == one.se
    assert wald.ci.low == pytest.approx(wald.estimate - 1.959963984540054 * wald.se)
    assert wald.ci.high == pytest.approx(min(1.0, wald.estimate + 1.959963984540054 * wald.se))


def test_percent_agreement_multirater_bootstrap(diagnoses):
    res = diagnoses.percent_agreement()
    assert res.conf_int(method="percentile").method == "percentile"
    assert res.bootstrap.se == pytest.approx(res.se, rel=0.15)


def test_bad_bootstrap_options(diagnoses):
    with pytest.raises(ValueError, match=r"`ci` must be one of 'wald', 'percentile', 'basic', 'bca'"):
        diagnoses.fleiss_kappa(ci="student")
    with pytest.raises(ValueError, match=r"`n_resamples` must be at least 1; got 0"):
        diagnoses.gwet_ac(ci="bca", n_resamples=0)
