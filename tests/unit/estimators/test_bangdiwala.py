"""Bangdiwala's B as a coefficient: an independent implementation from the definition,
the delta-method SE against simulation, the agreement chart's title, the workflows and
bad input. Published values are in tests/reference/test_bangdiwala_published.py."""

import math
import pickle

import numpy as np
import pandas as pd
import pytest

import irr
from irr.coefficients.bangdiwala import bangdiwala_b, bangdiwala_fit


def _b_by_definition(table, partial_weights=()):
    """B and weighted B written out with loops over the categories (Bangdiwala 1985;
    Friendly & Meyer 2016, sec. 4.5): each category's rectangle of partial agreement
    within s steps is (row i, columns within s) x (column i, rows within s)."""
    t = np.asarray(table, float)
    k = len(t)
    w = [1.0, *partial_weights]
    num = 0.0
    for i in range(k):
        previous = 0.0
        for s, weight in enumerate(w):
            lo, hi = max(0, i - s), min(k, i + s + 1)
            area = t[i, lo:hi].sum() * t[lo:hi, i].sum()
            num += weight * (area - previous)
            previous = area
    return num / sum(t[i].sum() * t[:, i].sum() for i in range(k))


@pytest.mark.parametrize("seed", range(6))
def test_kernel_equals_the_definition(seed):
    rng = np.random.default_rng(seed)
    k = int(rng.integers(2, 7))
    table = rng.integers(0, 9, size=(k, k)) * (rng.random((k, k)) < 0.7)
    table[0, 0] += 1
    steps = int(rng.integers(0, k))
    weights = np.sort(rng.random(steps))[::-1].tolist()
    ag = irr.Agreement.from_table(table, categories=list(range(1, k + 1)))
    res = ag.bangdiwala_b(weights or None, ci="wald")
    assert res.estimate == pytest.approx(_b_by_definition(table, weights), abs=1e-13)
    # batched kernel = one table at a time
    rows, cols = np.indices((k, k)).reshape(2, -1)
    batch = np.stack([table.ravel(), table.T.ravel(), 2 * table.ravel()])
    np.testing.assert_allclose(
        bangdiwala_b(batch, rows, cols, k, weights),
        [_b_by_definition(table, weights), _b_by_definition(table.T, weights),
         _b_by_definition(table, weights)], rtol=0, atol=1e-13)


def test_full_partial_credit_and_perfect_agreement():
    table = np.array([[5, 2, 0], [1, 6, 3], [0, 2, 4]])
    ag = irr.Agreement.from_table(table, categories=[1, 2, 3])
    # every disagreement within 2 steps counted in full: B^w = 1
    assert ag.bangdiwala_b([1.0, 1.0]).estimate == pytest.approx(1.0, abs=1e-15)
    # a zero weight adds nothing
    assert ag.bangdiwala_b([0.0]).estimate == pytest.approx(ag.bangdiwala_b().estimate,
                                                            abs=1e-15)
    with pytest.warns(irr.DegenerateDataWarning, match="zero width"):
        perfect = irr.Agreement([1, 2, 3, 1], [1, 2, 3, 1]).bangdiwala_b()
    assert perfect.estimate == 1.0
    assert perfect.se == 0.0


def test_delta_method_se_matches_simulation():
    # the SD of B over multinomial tables drawn from the observed proportions
    table = np.array([[30, 6, 2], [8, 40, 10], [3, 9, 42]])
    n = int(table.sum())
    rng = np.random.default_rng(1)
    draws = rng.multinomial(n, table.ravel() / n, size=20_000)
    rows, cols = np.indices((3, 3)).reshape(2, -1)
    for weights in ((), (0.5,)):
        sd = bangdiwala_b(draws, rows, cols, 3, weights).std()
        res = irr.Agreement.from_table(table, categories=[1, 2, 3]).bangdiwala_b(
            list(weights) or None)
        assert res.se == pytest.approx(sd, rel=0.03)


def test_influence_values_are_the_gradient():
    table = np.array([7.0, 7, 2, 3, 2, 8, 3, 7, 1, 5, 4, 9, 2, 8, 9, 14])
    rows, cols = np.indices((4, 4)).reshape(2, -1)
    p = table / table.sum()
    fit = bangdiwala_fit(table, rows, cols, 4, (0.8, 0.3))
    eps = 1e-6
    step = np.eye(16) * eps
    grad = (bangdiwala_b(p + step, rows, cols, 4, (0.8, 0.3))
            - bangdiwala_b(p - step, rows, cols, 4, (0.8, 0.3))) / (2 * eps)
    np.testing.assert_allclose(fit.influence, grad - p @ grad, rtol=0, atol=1e-8)


def test_raw_ratings_with_missing_values_use_the_complete_pairs():
    a = [1, 2, 2, 3, 3, np.nan, 1, 2, 3, 3, 1, 2]
    b = [1, 2, 3, 3, 2, 2, np.nan, 2, 3, 1, 1, 2]
    res = irr.Agreement(a, b).bangdiwala_b()
    complete = irr.Agreement.from_table(pd.crosstab(pd.Series(a), pd.Series(b)).to_numpy())
    assert res.estimate == pytest.approx(complete.bangdiwala_b().estimate, abs=1e-15)
    assert res.se == pytest.approx(complete.bangdiwala_b().se, abs=1e-15)
    assert (res.n_subjects, res.n_missing) == (10, 2)
    assert any("left out (listwise)" in note for note in res.notes)


def test_result_protocol():
    ag = irr.Agreement.from_frame(irr.datasets.load("vision"))
    res = ag.bangdiwala_b()
    assert res.coefficient == "Bangdiwala's B"
    assert res.symbol == "B"
    assert math.isnan(res.statistic)
    assert math.isnan(res.pvalue)
    assert res.bounds == (0.0, 1.0)
    assert res.to_frame().loc["Bangdiwala's B", "estimate"] == res.estimate
    assert res.report().startswith("Bangdiwala's B between r.eye and l.eye was .51, 95% CI")
    with pytest.raises(ValueError, match="no default benchmark scale"):
        res.interpret()
    boot = ag.bangdiwala_b(ci="percentile", n_resamples=500)
    assert boot.ci.method == "percentile"
    assert boot.ci.low < res.estimate < boot.ci.high
    assert boot.conf_int(method="bca").method == "bca"
    again = pickle.loads(pickle.dumps(ag.bangdiwala_b(ci="percentile", n_resamples=500)))
    np.testing.assert_array_equal(again.bootstrap.replicates, boot.bootstrap.replicates)
    weighted = ag.bangdiwala_b([8 / 9])
    assert weighted.coefficient == "Bangdiwala's weighted B"
    assert weighted.symbol == "Bw"
    assert weighted.report().startswith("Bangdiwala's weighted B between")
    clustered = ag.bangdiwala_b(cluster=np.arange(ag.n_subjects) // 2)
    assert clustered.se > 0
    assert "cluster" in clustered.notes[0]
    fpc = ag.bangdiwala_b(population=2 * ag.n_subjects)
    assert fpc.se == pytest.approx(res.se * math.sqrt(0.5))


def test_agreement_chart_title_is_the_coefficient():
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    ag = irr.Agreement.from_frame(irr.datasets.load("vision"))
    title = irr.plotting.agreement_chart(ag).get_title()
    b, bw = ag.bangdiwala_b().estimate, ag.bangdiwala_b([1.0]).estimate
    assert title == f"Agreement chart: B = {b:.3f}\nweighted B (±1 category) = {bw:.3f}"
    title = irr.plotting.agreement_chart(ag, partial=5).get_title()
    assert f"weighted B (±5 categories) = {ag.bangdiwala_b([1.0] * 3).estimate:.3f}" in title
    plt.close("all")


def test_workflows():
    vision = irr.datasets.load("vision")
    expected = irr.Agreement.from_frame(vision).bangdiwala_b()
    assert vision.irr.bangdiwala_b().estimate == expected.estimate
    rng = np.random.default_rng(0)
    df = pd.DataFrame({"site": np.repeat(["A", "B"], 50), "a": rng.integers(1, 4, 100)})
    df["b"] = np.where(rng.random(100) < 0.7, df["a"], rng.integers(1, 4, 100))
    out = irr.by(df, "site", statistic="bangdiwala_b", raters=["a", "b"])
    site_a = irr.Agreement.from_frame(df[df.site == "A"], raters=["a", "b"]).bangdiwala_b()
    assert out.loc[out.site == "A", "estimate"].item() == pytest.approx(site_a.estimate)
    assert irr.registry.statistic_row("bangdiwala").method == "bangdiwala_b"


@pytest.mark.parametrize(("kwargs", "error", "message"), [
    ({"partial_weights": 0.5}, TypeError, r"`partial_weights` must be a sequence"),
    ({"partial_weights": "0.5"}, TypeError, r"`partial_weights` must be a sequence"),
    ({"partial_weights": [True]}, TypeError, r"`partial_weights` must hold numbers"),
    ({"partial_weights": [1.5]}, ValueError, r"must lie in \[0, 1\]; got \[1.5\]"),
    ({"partial_weights": [0.2, 0.5]}, ValueError, r"must not increase.*\[0.2, 0.5\]"),
    ({"partial_weights": [0.5, 0.4, 0.3, 0.2]}, ValueError,
     r"has 4 weights, but 4 categories differ by at most 3"),
    ({"ci": "exact"}, ValueError, r"`ci` must be one of"),
])
def test_bad_arguments(kwargs, error, message):
    ag = irr.Agreement.from_frame(irr.datasets.load("vision"))
    with pytest.raises(error, match=message):
        ag.bangdiwala_b(**kwargs)


def test_bad_data():
    with pytest.raises(ValueError, match="Bangdiwala's B compares two raters; this "
                                         "Agreement has 6"):
        irr.Agreement.from_frame(irr.datasets.load("diagnoses")).bangdiwala_b()
    nominal = irr.Agreement(["a", "b", "a", "c"], ["a", "b", "b", "c"])
    assert nominal.bangdiwala_b().estimate == pytest.approx((1 + 1 + 1) / (2 * 1 + 1 * 2 + 1))
    with pytest.raises(ValueError, match="`partial_weights` needs ordered categories"):
        nominal.bangdiwala_b([0.5])
    with pytest.raises(ValueError, match="at least two subjects rated by both"):
        irr.Agreement([1, np.nan, 2], [1, 2, np.nan]).bangdiwala_b()
