"""Properties of the multi-rater coefficients on random data (hypothesis).

Which coefficient has which invariance:

- subject order: all of them.
- rater order: all of them (Fleiss, Conger, Light, Gwet AC1/AC2, Brennan-Prediger,
  Krippendorff's alpha at every level, the six ICC forms, Kendall's W) are symmetric in
  the raters. Only an *asymmetric* custom weight matrix would make Conger's and Light's
  kappa (through Cohen's pairwise kappas) depend on rater order; none is used here.
- relabelling categories: the unweighted ones (Fleiss, Conger, Light, AC1,
  Brennan-Prediger, nominal alpha), not weighted, ordinal/interval/ratio alpha, ICC or W.
- duplicating every subject: Fleiss, Conger, Light, AC1/AC2, Brennan-Prediger, percent
  agreement and the consistency ICCs are unchanged. Krippendorff's alpha is not (its
  small-sample factor n - 1 counts pairable values): 1 - alpha scales by exactly
  (2n - 1) / (2(n - 1)). The absolute-agreement and one-way ICCs change with their
  degrees of freedom, and Kendall's W with the ties duplication creates.
- perfect agreement with two or more categories used gives exactly 1 for all of them.
"""

import warnings

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import irr
from irr import DegenerateDataWarning
from irr.coefficients import chance_corrected as cc
from irr.coefficients.krippendorff import alpha_from_coincidences, alpha_kernel, coincidences

EXAMPLES = 25
COUNT_METHODS = ("fleiss_kappa", "gwet_ac", "brennan_prediger", "percent_agreement")
UNWEIGHTED = ("fleiss_kappa", "conger_kappa", "light_kappa", "gwet_ac", "brennan_prediger",
              "alpha_nominal")
ALL = (*UNWEIGHTED, "gwet_ac2", "percent_agreement", "alpha_ordinal", "alpha_interval",
       "alpha_ratio", "icc_a1", "icc_c1", "icc_1", "icc_ck", "kendall_w")


@st.composite
def ratings(draw, missing=True, min_raters=2):
    """A subjects x raters float matrix of category scores 1..k, nan for missing."""
    k = draw(st.integers(2, 4))
    m = draw(st.integers(min_raters, 4))
    n = draw(st.integers(4, 25))
    cells = st.integers(1, k)
    x = np.array(draw(st.lists(st.lists(cells, min_size=m, max_size=m), min_size=n, max_size=n)),
                 dtype=float)
    if missing:
        holes = np.array(draw(st.lists(st.lists(st.booleans(), min_size=m, max_size=m),
                                       min_size=n, max_size=n)))
        holes &= np.arange(m)[None, :] >= 2  # the first two raters always rate
        x[holes] = np.nan
    return x


def _call(function):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", DegenerateDataWarning)
        try:
            return function()
        except ValueError as exc:  # e.g. too few complete subjects for the ICC
            return str(exc)


def estimates(x, names=None, categories=None):
    ag = irr.Agreement.from_array(x, categories=categories)
    if names is not None:
        ag = irr.Agreement.from_array(x, raters=names, categories=categories)
    out = {
        "fleiss_kappa": lambda: ag.fleiss_kappa().estimate,
        "conger_kappa": lambda: ag.conger_kappa().estimate,
        "light_kappa": lambda: ag.light_kappa().estimate,
        "gwet_ac": lambda: ag.gwet_ac().estimate,
        "gwet_ac2": lambda: ag.gwet_ac("quadratic").estimate,
        "brennan_prediger": lambda: ag.brennan_prediger().estimate,
        "percent_agreement": lambda: ag.percent_agreement().estimate,
        "alpha_nominal": lambda: ag.krippendorff_alpha("nominal", ci=None).estimate,
        "alpha_ordinal": lambda: ag.krippendorff_alpha("ordinal", ci=None).estimate,
        "alpha_interval": lambda: ag.krippendorff_alpha("interval", ci=None).estimate,
        "alpha_ratio": lambda: ag.krippendorff_alpha("ratio", ci=None).estimate,
        "icc_a1": lambda: ag.icc("twoway", "agreement", "single").estimate,
        "icc_c1": lambda: ag.icc("twoway", "consistency", "single").estimate,
        "icc_ck": lambda: ag.icc("twoway", "consistency", "average").estimate,
        "icc_1": lambda: ag.icc("oneway", "agreement", "single").estimate,
        "kendall_w": lambda: ag.kendall_w().estimate,
    }
    return {name: _call(f) for name, f in out.items()}


def assert_same(one, other, names, tol=1e-10, errors_may_differ=False):
    for name in names:
        a, b = one[name], other[name]
        if errors_may_differ and (isinstance(a, str) or isinstance(b, str)):
            continue  # e.g. one complete subject (an error) becomes two when duplicated
        if isinstance(a, str) or isinstance(b, str):
            assert isinstance(a, str), (name, a, b)
            assert isinstance(b, str), (name, a, b)
        else:
            assert a == pytest.approx(b, abs=tol, nan_ok=True), name


@settings(max_examples=EXAMPLES, deadline=None, derandomize=True)
@given(ratings(), st.randoms(use_true_random=False))
def test_subject_order_never_matters(x, random):
    order = list(range(len(x)))
    random.shuffle(order)
    assert_same(estimates(x[order]), estimates(x), ALL)


@settings(max_examples=EXAMPLES, deadline=None, derandomize=True)
@given(ratings(), st.randoms(use_true_random=False))
def test_rater_order_never_matters(x, random):
    order = list(range(x.shape[1]))
    random.shuffle(order)
    assert_same(estimates(x[:, order]), estimates(x), ALL)


@settings(max_examples=EXAMPLES, deadline=None, derandomize=True)
@given(ratings(), st.randoms(use_true_random=False))
def test_relabelling_categories_leaves_unweighted_coefficients_unchanged(x, random):
    labels = [1, 2, 3, 4]
    shuffled = labels[:]
    random.shuffle(shuffled)
    relabelled = x.copy()
    for old, new in zip(labels, shuffled, strict=True):
        relabelled[x == old] = new
    # Declared categories keep the number of categories q (Gwet, Brennan-Prediger) fixed.
    assert_same(estimates(relabelled, categories=labels), estimates(x, categories=labels),
                UNWEIGHTED)


@settings(max_examples=EXAMPLES, deadline=None, derandomize=True)
@given(ratings())
def test_duplicating_every_subject(x):
    once, twice = estimates(x), estimates(np.vstack([x, x]))
    assert_same(twice, once, ("fleiss_kappa", "conger_kappa", "light_kappa", "gwet_ac",
                              "gwet_ac2", "brennan_prediger", "percent_agreement", "icc_c1",
                              "icc_ck"), errors_may_differ=True)
    ag = irr.Agreement.from_array(x)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", DegenerateDataWarning)
        res = ag.krippendorff_alpha(ci=None)
    if np.isfinite(res.estimate):
        n = res.n_pairable
        expected = 1 - (1 - res.estimate) * (2 * n - 1) / (2 * (n - 1))
        assert twice["alpha_nominal"] == pytest.approx(expected, abs=1e-10)


@settings(max_examples=EXAMPLES, deadline=None, derandomize=True)
@given(ratings(missing=False))
def test_perfect_agreement_gives_exactly_one(x):
    truth = x[:, :1]
    perfect = np.repeat(truth, x.shape[1], axis=1)
    if len(np.unique(truth)) < 2:
        perfect[0, :] = 1.0 if truth[0, 0] != 1.0 else 2.0
    values = estimates(perfect)
    for name in ALL:
        assert values[name] == 1.0, (name, values[name])


@settings(max_examples=EXAMPLES, deadline=None, derandomize=True)
@given(ratings(missing=False, min_raters=2))
def test_fleiss_with_two_raters_is_scotts_pi(x):
    a, b = x[:, 0], x[:, 1]
    cats = np.union1d(a, b)
    po = np.mean(a == b)
    pi = np.array([(np.sum(a == c) + np.sum(b == c)) / (2 * len(a)) for c in cats])
    pe = np.sum(pi**2)
    ag = irr.Agreement(a, b)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", DegenerateDataWarning)
        fleiss, scott = ag.fleiss_kappa().estimate, ag.scott_pi().estimate
    expected = (po - pe) / (1 - pe) if pe < 1 else np.nan
    assert fleiss == pytest.approx(expected, abs=1e-12, nan_ok=True)
    assert scott == pytest.approx(expected, abs=1e-12, nan_ok=True)


batches = st.integers(1, 6).flatmap(
    lambda p: st.lists(st.lists(st.integers(0, 5), min_size=p, max_size=p), min_size=1, max_size=5)
)


@settings(max_examples=EXAMPLES, deadline=None, derandomize=True)
@given(ratings(), st.data())
def test_batch_kernels_equal_one_at_a_time(x, data):
    ag = irr.Agreement.from_array(x)
    k = len(ag.categories)
    codes = np.repeat(ag.statistics.patterns, ag.statistics.multiplicity, axis=0)
    patterns, inverse = np.unique(codes, axis=0, return_inverse=True)
    inverse = inverse.ravel()
    n_patterns = len(patterns)
    batch = np.array(data.draw(st.lists(
        st.lists(st.integers(0, 4), min_size=n_patterns, max_size=n_patterns),
        min_size=1, max_size=4)), dtype=float)
    counts = (patterns[..., None] == np.arange(k)).sum(axis=1)
    w2 = 1 - (np.subtract.outer(np.arange(k), np.arange(k)) / max(k - 1, 1)) ** 2
    with np.errstate(invalid="ignore", divide="ignore"), warnings.catch_warnings():
        warnings.simplefilter("ignore", RuntimeWarning)
        for weights in (np.eye(k), w2):
            for method in ("fleiss", "gwet", "brennan_prediger", "percent"):
                together = cc.counts_kernel(counts, batch, weights, method)
                alone = [cc.counts_estimate(counts, row, weights, method).estimate for row in batch]
                np.testing.assert_allclose(together, alone, atol=1e-12, equal_nan=True)
            together = cc.conger_kernel(patterns, batch, weights)
            alone = [cc.conger_estimate(patterns, row, weights).estimate for row in batch]
            np.testing.assert_allclose(together, alone, atol=1e-12, equal_nan=True)
            together = cc.light_kernel(patterns, batch, weights)
            alone = [cc.light_estimate(patterns, row, weights).estimate for row in batch]
            np.testing.assert_allclose(together, alone, atol=1e-12, equal_nan=True)
        distance = 1 - np.eye(k)
        together = alpha_kernel(counts, batch, distance)
        alone = [alpha_from_coincidences(coincidences(counts, row), distance)[0] for row in batch]
        np.testing.assert_allclose(together, alone, atol=1e-12, equal_nan=True)
    # The data themselves are one row of the batch.
    multiplicity = np.bincount(inverse, minlength=n_patterns).astype(float)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", DegenerateDataWarning)
        fleiss = ag.fleiss_kappa().estimate
    assert cc.counts_kernel(counts, multiplicity[None], np.eye(k), "fleiss")[0] == pytest.approx(
        fleiss, abs=1e-12, nan_ok=True)
