"""Portable results: every result pickles with its bootstrap recipe, so a
result whose bootstrap was never drawn draws it after unpickling (or in another process)
with the same replicates, and so the same interval of every method, as the original."""

import io
import multiprocessing
import pickle
import threading
import types
import warnings
from concurrent.futures import ProcessPoolExecutor

import numpy as np
import pytest

import irr
import irr.cli
from irr.inference.bootstrap import bootstrap_counts

ANXIETY = irr.datasets.load("anxiety")
# Gwet's four raters with missing ratings: all-rater agreement is not 0 here (on anxiety no
# subject has three agreeing ratings, so its all-rater bootstrap has no spread)
CAC = irr.datasets.load("cac_raw4raters")
ANX = irr.Agreement.from_frame(ANXIETY)
TWO = irr.Agreement.from_frame(ANXIETY, raters=["rater1", "rater2"])
GWET = irr.Agreement.from_frame(CAC)
COUNTS = irr.Agreement.from_counts([[2, 1, 0], [1, 2, 0], [3, 0, 0], [0, 1, 2], [0, 0, 3],
                                    [1, 1, 1], [0, 3, 0], [2, 0, 1]])
# the Wald interval (or none): the bootstrap is not drawn before pickling
FEW = {"n_resamples": 400, "rng": 7}
CLUSTER = [i // 4 for i in range(20)]
STRATA = [i % 2 for i in range(20)]

# every result type from every Agreement method and irr.* function with a bootstrap,
# built so that its bootstrap has not been drawn when it is pickled
UNDRAWN = {
    "kappa": lambda: TWO.kappa(**FEW),
    "weighted kappa": lambda: TWO.kappa("quadratic", **FEW),
    "kappa by cluster": lambda: TWO.kappa(cluster=CLUSTER, **FEW),
    "kappa within strata": lambda: TWO.kappa(strata=STRATA, **FEW),
    # a Generator travels with its state: the copy draws what the original would
    "kappa from a Generator": lambda: TWO.kappa(n_resamples=400, rng=np.random.default_rng(5)),
    "cohen_kappa": lambda: irr.cohen_kappa(ANXIETY.rater1, ANXIETY.rater3, "linear", **FEW),
    "percent agreement of two": lambda: TWO.percent_agreement(**FEW),
    "percent agreement pairwise": lambda: GWET.percent_agreement(**FEW),
    "percent agreement all": lambda: GWET.percent_agreement(definition="all", **FEW),
    "percent agreement tolerance": lambda: ANX.percent_agreement(tolerance=1, **FEW),
    "fleiss": lambda: GWET.fleiss_kappa(**FEW),
    "scott": lambda: TWO.scott_pi(**FEW),
    "conger": lambda: GWET.conger_kappa(**FEW),
    "light": lambda: GWET.light_kappa(**FEW),
    "gwet AC1": lambda: GWET.gwet_ac(**FEW),
    "gwet AC2": lambda: ANX.gwet_ac(weights="quadratic", **FEW),
    "brennan-prediger": lambda: GWET.brennan_prediger(**FEW),
    "fleiss of counts": lambda: COUNTS.fleiss_kappa(**FEW),
    "gwet of counts": lambda: COUNTS.gwet_ac(**FEW),
    "percent agreement of counts": lambda: COUNTS.percent_agreement(**FEW),
    "kendall": lambda: ANX.kendall_w(**FEW),
    "alpha": lambda: ANX.krippendorff_alpha("ordinal", ci=None, **FEW),
    "alpha custom metric": lambda: ANX.krippendorff_alpha(
        lambda c, k: abs(c - k) ** 1.5, ci=None, **FEW),
    "irr.krippendorff_alpha": lambda: irr.krippendorff_alpha(
        ANXIETY.to_numpy().T, "interval", ci=None, **FEW),
    "alpha of counts": lambda: COUNTS.krippendorff_alpha(ci=None, **FEW),
    "auc": lambda: irr.roc_auc_result([0, 0, 1, 1, 0, 1, 1, 0, 1, 0],
                                      [1, 2, 3, 4, 2, 3, 1, 2, 4, 1], ci="wald", **FEW),
}


def _quiet(make):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        return make()


def _intervals(result):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        return [result.conf_int(0.9, method) for method in ("percentile", "basic", "bca")]


@pytest.mark.parametrize("name", list(UNDRAWN))
def test_an_unpickled_result_draws_the_bootstrap_the_original_would(name):
    result = _quiet(UNDRAWN[name])
    copy = pickle.loads(pickle.dumps(result))
    # the copy draws from the same recipe and seed: the same replicates, bit for bit, as
    # the original drawing after the copy was made, so the same interval of every method
    # (BCa's jackknife included)
    got = _intervals(copy)
    expected = _intervals(result)
    assert got == expected
    assert np.array_equal(copy.bootstrap.replicates, result.bootstrap.replicates,
                          equal_nan=True)
    assert copy.bootstrap.n_resamples == 400
    assert copy.estimate == result.estimate or np.isnan(result.estimate)


def test_the_unpickled_interval_is_the_bootstrap_of_the_data():
    # an independent check of the numbers a copy draws: percent agreement of two raters is
    # the mean of a 0/1 agreement indicator, so its bootstrap replicates are resampled means
    # of that indicator: multiples of 1/20 around the data's share
    agree = int((ANXIETY.rater1 == ANXIETY.rater2).sum())
    assert agree == 6  # anxiety: raters 1 and 2 give the same rating to 6 of 20 subjects
    result = TWO.percent_agreement(**FEW)
    copy = pickle.loads(pickle.dumps(result))
    reps = copy.bootstrap.replicates
    assert result.estimate == 6 / 20
    assert np.allclose(reps * 20, np.rint(reps * 20), rtol=0, atol=1e-12)
    # the mean of the resampled means is the data's share up to Monte Carlo error: the sd
    # of one replicate is sqrt(0.3 * 0.7 / 20) = 0.1025, of the mean of 400 of them 0.0051
    assert abs(reps.mean() - 0.3) < 4 * 0.0051
    # and their sd is that of a resampled mean, up to its own Monte Carlo error (~4%)
    assert abs(copy.bootstrap.se - 0.1025) < 0.2 * 0.1025
    interval = copy.conf_int(0.9, "percentile")
    assert interval.low < 0.3 < interval.high


def test_a_result_draws_its_bootstrap_in_another_process():
    # joblib and multiprocessing send results to worker processes by pickle: a spawned
    # worker (a fresh interpreter, nothing inherited) draws the same BCa interval
    result = TWO.kappa("quadratic", **FEW)
    context = multiprocessing.get_context("spawn")
    with ProcessPoolExecutor(max_workers=1, mp_context=context) as pool:
        remote = pool.submit(_bca_interval, result).result(timeout=120)
    assert remote == result.conf_int(0.9, "bca")


def _bca_interval(result):
    return result.conf_int(0.9, "bca")


def _everything_pickled(obj):
    """Every object pickle visits in `obj`."""
    seen = []

    class Recorder(pickle.Pickler):
        def persistent_id(self, item):
            seen.append(item)
            return None

    Recorder(io.BytesIO()).dump(obj)
    return seen


BUILT = {
    **UNDRAWN,
    "drawn kappa": lambda: TWO.kappa(ci="bca", **FEW),
    "icc": lambda: ANX.icc(),
    "irr.icc": lambda: irr.icc(ANXIETY, model="twoway", type="agreement"),
    "error rate": lambda: TWO.error_rate_test(0.5),
    "error rate family": lambda: ANX.error_rate_test(0.5, reference="rater1"),
    "mcnemar": lambda: irr.Agreement([1, 2, 1, 2, 1, 1], [1, 2, 2, 2, 1, 2]).mcnemar(),
    "symmetry": lambda: TWO.symmetry_test(),
    "marginal homogeneity": lambda: TWO.marginal_homogeneity_test(),
    "cochran": lambda: ANX.cochrans_q("rater1"),
    "critical error rate": lambda: irr.critical_error_rate(200, 0.1, 0.05),
    "error rate t test": lambda: irr.error_rate_ttest([0.1, 0.2, 0.15, 0.3], 0.5),
    "benchmark": lambda: TWO.kappa().benchmark(),
    "summary": lambda: ANX.summary(),
    "compare": lambda: irr.compare(TWO.kappa(), TWO.percent_agreement()),
    "agreement": lambda: GWET,
    "kappa regressor": lambda: irr.KappaRegressor().fit(
        ANXIETY[["rater2", "rater3"]].to_numpy(float), ANXIETY.rater1.to_numpy()),
}
LIVE = (io.IOBase, types.GeneratorType, type(threading.Lock()), type(threading.RLock()),
        threading.Condition, threading.Event, threading.Thread)


@pytest.mark.parametrize("name", list(BUILT))
def test_results_hold_no_handles_generators_locks_or_local_functions(name):
    result = _quiet(BUILT[name])
    # the attributes themselves, not the result's pickled state (which would leave out a
    # source that does not pickle): the recipe must pickle as it is
    held = _everything_pickled(getattr(result, "__dict__", result))
    live = [type(item).__name__ for item in held if isinstance(item, LIVE)]
    assert live == []
    local = [item.__qualname__ for item in held
             if callable(item) and "<" in getattr(item, "__qualname__", "")]
    assert local == []  # no lambda or local function: they would not pickle
    copy = pickle.loads(pickle.dumps(result))
    if hasattr(result, "summary"):
        assert copy.summary().as_text() == result.summary().as_text()


def test_a_callers_lambda_source_is_dropped_and_the_copy_says_why():
    # Result.with_bootstrap is public: a caller's lambda does not pickle, so a copy of a
    # result whose bootstrap was not drawn cannot draw it, and says why
    def draw():
        return bootstrap_counts([13, 7], lambda c: c[:, 0] / c.sum(axis=1), n_resamples=400,
                                rng=0)

    mine = TWO.kappa(**FEW).with_bootstrap(draw)
    copy = pickle.loads(pickle.dumps(mine))
    assert copy.conf_int(0.9) == mine.conf_int(0.9)  # Wald: no bootstrap needed
    with pytest.raises(ValueError, match=r"unpickled without its bootstrap: it had not been "
                                         r"drawn, and the source given to `with_bootstrap` "
                                         r"\(a lambda or local function\) does not pickle"):
        copy.conf_int(method="percentile")
    # drawn before pickling, the replicates and their jackknife values travel instead
    drawn = TWO.kappa(**FEW).with_bootstrap(draw, "percentile")
    copy = pickle.loads(pickle.dumps(drawn))
    assert copy.conf_int(0.9, "bca") == drawn.conf_int(0.9, "bca")
    assert copy.bootstrap.estimate == 13 / 20  # the share the lambda computes: 13 of 20


PLANS = {
    "kappa goodness of fit": lambda: irr.plan.kappa(0.4, 0.6),
    "kappa flack": lambda: irr.plan.kappa(0.4, 0.6, method="flack"),
    "kappa wald": lambda: irr.plan.kappa(0.4, 0.6, method="wald", rates=(0.3, 0.3)),
    "kappa power": lambda: irr.plan.kappa(0.4, 0.6, n=[50, 80]),
    "kappa interval": lambda: irr.plan.kappa_interval(0.6, 0.4),
    "icc": lambda: irr.plan.icc(0.5, 0.75, raters=3),
    "icc exact": lambda: irr.plan.icc(0.5, 0.75, raters=3, method="exact", n=30),
    "icc interval": lambda: irr.plan.icc_interval(0.7, 0.2, raters=3),
    "concordance": lambda: irr.plan.concordance(0.6, 0.8),
    "limits": lambda: irr.plan.limits_of_agreement(bias=0, sd=2.5, delta=8),
    "error rate": lambda: irr.plan.error_rate(0.10, 0.05),
    "simulation": lambda: irr.plan.simulate("fleiss_kappa", n=20, coefficient=0.6,
                                            null=0.2, n_simulations=10, rng=3),
}


@pytest.mark.parametrize("name", PLANS)
def test_every_plan_result_pickles_and_its_copy_draws_the_same_curve(name):
    res = PLANS[name]()
    copy = pickle.loads(pickle.dumps(res))
    assert copy.report() == res.report()
    assert copy.to_frame().equals(res.to_frame())
    assert copy.curve([25, 40]).equals(res.curve([25, 40]))


# -- bootstrapped and other results pickle, with their summaries --------------------------------
BOOT = {"ci": "percentile", "n_resamples": 200, "rng": 1}


def _anxiety(raters=None):
    return irr.Agreement.from_frame(ANXIETY, raters=raters)


PICKLED = {
    "kappa": lambda: _anxiety(["rater1", "rater2"]).kappa(**BOOT),
    "weighted kappa": lambda: _anxiety(["rater1", "rater2"]).kappa("quadratic", **BOOT),
    "percent agreement": lambda: _anxiety().percent_agreement(**BOOT),
    "percent agreement of two": lambda: _anxiety(["rater1", "rater2"]).percent_agreement(**BOOT),
    "alpha": lambda: _anxiety().krippendorff_alpha("interval", **BOOT),
    "fleiss": lambda: _anxiety().fleiss_kappa(**BOOT),
    "conger": lambda: _anxiety().conger_kappa(**BOOT),
    "light": lambda: _anxiety().light_kappa(**BOOT),
    "gwet": lambda: _anxiety().gwet_ac(**BOOT),
    "brennan-prediger": lambda: _anxiety().brennan_prediger(**BOOT),
    "kendall": lambda: _anxiety().kendall_w(**BOOT),
    "auc": lambda: irr.ordinal.roc_auc_result([0, 0, 1, 1, 0, 1, 1, 0], [1, 2, 3, 4, 2, 3, 1, 2],
                                              **BOOT),
}


@pytest.mark.parametrize("name", list(PICKLED))
def test_bootstrapped_results_pickle_and_keep_every_interval(name):
    import pickle
    import warnings
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        result = PICKLED[name]()
        copy = pickle.loads(pickle.dumps(result))
        # the same replicates, so the same numbers for every method (BCa needs the
        # jackknife, materialised when its closure cannot be pickled)
        for method in ("percentile", "basic", "bca"):
            assert copy.conf_int(0.9, method) == result.conf_int(0.9, method)
    assert copy.estimate == result.estimate
    assert copy.ci == result.ci
    assert copy.bootstrap.se == result.bootstrap.se


@pytest.mark.parametrize("make", [
    lambda: _anxiety().icc(),
    lambda: _anxiety(["rater1", "rater2"]).error_rate_test(0.5),
    lambda: _anxiety().error_rate_test(0.5, reference="rater1"),
    lambda: _anxiety(["rater1", "rater2"]).symmetry_test(),
    lambda: _anxiety(["rater1", "rater2"]).kappa(),
], ids=["icc", "error rate", "error rate family", "symmetry", "wald kappa"])
def test_every_result_and_its_summary_pickle(make):
    import pickle
    result = make()
    copy = pickle.loads(pickle.dumps(result))
    assert copy.summary().as_text() == result.summary().as_text()
    summary = pickle.loads(pickle.dumps(result.summary()))
    assert summary.as_html() == result.summary().as_html()


def test_an_undrawn_bootstrap_is_drawn_after_unpickling():
    import pickle
    result = _anxiety(["rater1", "rater2"]).kappa(n_resamples=300)
    copy = pickle.loads(pickle.dumps(result))
    # the Wald interval needs no bootstrap: kappa's own numbers
    assert copy.conf_int(0.9) == result.conf_int(0.9)
    # the recipe pickles (tests/unit/test_results_pickle.py): the same seed, the same interval
    assert copy.conf_int(method="percentile") == result.conf_int(method="percentile")
