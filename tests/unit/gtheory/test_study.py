"""irr.gstudy: every design on balanced and unbalanced data, design detection and the
errors of impossible declarations, fixed facets, negative estimates, D studies and the
optimiser, and the result protocol."""

import math
import sys
from pathlib import Path

import numpy as np
import pandas as pd
import pytest

import irr
from irr.gtheory.results import DStudyResult, GStudyResult

sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "reference"))
from gtheory_mixedlm import DESIGNS, design_data


def _balanced(name, n=24, seed=11):
    """The reference generator's design with no missing score and equal nesting."""
    frame = design_data(name, seed=seed, n=n, missing=0.0)
    if name == "(r:p)":
        frame = frame.groupby("patient").head(2)  # two raters for every patient
    if name == "p x (i:s) x r":  # 2 items in both sites
        frame = frame[frame["item"] < 2]
    return frame.reset_index(drop=True)


@pytest.mark.parametrize("name", list(DESIGNS))
def test_balanced_data_of_every_design_use_anova(name):
    facets, nested = DESIGNS[name]
    g = irr.gstudy(_balanced(name), score="score", object="patient", facets=facets,
                   nested=nested)
    assert g.method == "anova"
    assert g.balanced
    assert g.design == name.replace(" x ", " × ").replace("rater", "r")
    table = g.variance_components
    assert list(table.columns) == ["effect", "variance", "se", "ci_low", "ci_high",
                                   "ci_method", "percent", "df", "mean_square"]
    assert table["ci_method"].eq("satterthwaite").all()
    assert table["percent"].sum() == pytest.approx(100)
    assert np.all(table["df"] > 0)
    assert np.all(table["mean_square"] > 0)
    reml = irr.gstudy(_balanced(name), score="score", object="patient", facets=facets,
                      nested=nested, method="reml")
    positive = table["variance"].to_numpy() > 0.01
    if positive.all():  # REML = ANOVA when no ANOVA estimate is negative
        np.testing.assert_allclose(reml.components_raw, g.components_raw, rtol=1e-4,
                                   atol=1e-6)
    assert 0 <= g.estimate <= 1
    assert 0 <= g["phi"].estimate <= g.estimate + 1e-12


@pytest.mark.parametrize("name", list(DESIGNS))
def test_unbalanced_data_of_every_design_use_reml(name):
    facets, nested = DESIGNS[name]
    frame = design_data(name)
    g = irr.gstudy(frame, score="score", object="patient", facets=facets, nested=nested)
    assert g.method == "reml"
    assert not g.balanced
    assert g.n_scores == len(frame)
    table = g.variance_components
    assert table["ci_method"].eq("wald").all()
    assert np.all(table["variance"] >= 0)
    assert g.ci.method == "wald"
    assert "delta method" in g.ci.note
    assert g.ci.low <= g.estimate <= g.ci.high
    with pytest.raises(ValueError, match="needs balanced data"):
        irr.gstudy(frame, score="score", object="patient", facets=facets, nested=nested,
                   method="anova")


def test_p_x_r_coefficients_equal_mcgraw_wong_average_iccs():
    # Eρ² with the observed raters is ICC(C,k), Φ is ICC(A,k) (McGraw & Wong, 1996)
    rng = np.random.default_rng(4)
    x = np.round(rng.normal(size=(30, 1)) * 2 + rng.normal(size=(1, 4)) + rng.normal(
        size=(30, 4)), 1)
    long = pd.DataFrame({"patient": np.repeat(np.arange(30), 4),
                         "rater": np.tile(["a", "b", "c", "d"], 30), "score": x.ravel()})
    g = irr.gstudy(long, score="score", object="patient", facets=["rater"])
    assert np.all(g.components_raw > 0)
    assert g.estimate == pytest.approx(irr.icc(x, "twoway", "consistency", "average").estimate,
                                       rel=1e-12)
    assert g["phi"].estimate == pytest.approx(
        irr.icc(x, "twoway", "agreement", "average").estimate, rel=1e-12)
    # the delta-method SE of Eρ² = 1 - MS_pr / MS_p, with Var(MS) = 2 MS² / df:
    # 2 (MS_pr / MS_p)² (1/df_pr + 1/df_p)
    ms_p, ms_e = g.mean_squares[0], g.mean_squares[2]
    se = math.sqrt(2 * (ms_e / ms_p) ** 2 * (1 / g.dfs[2] + 1 / g.dfs[0]))
    assert g.se == pytest.approx(se, rel=1e-6)
    # one rater: the single-measure ICCs
    d = g.dstudy(rater=1).to_frame().iloc[0]
    assert d["g"] == pytest.approx(irr.icc(x, "twoway", "consistency", "single").estimate)
    assert d["phi"] == pytest.approx(irr.icc(x, "twoway", "agreement", "single").estimate)


def test_one_way_r_in_p_is_the_one_way_icc():
    # (r:p): Eρ² = Φ = ICC(k) of the one-way model (McGraw & Wong, 1996, Case 1)
    rng = np.random.default_rng(5)
    x = np.round(rng.normal(size=(25, 1)) + rng.normal(size=(25, 3)), 1)
    long = pd.DataFrame({"patient": np.repeat(np.arange(25), 3),
                         "rater": np.arange(75), "score": x.ravel()})
    g = irr.gstudy(long, score="score", object="patient", facets=["rater"],
                   nested={"rater": "patient"})
    assert g.design == "(r:p)"
    expected = irr.icc(x, "oneway", "agreement", "average").estimate
    assert g.estimate == pytest.approx(expected, rel=1e-12)
    assert g["phi"].estimate == pytest.approx(expected, rel=1e-12)


def test_fixed_facet_follows_brennans_rules():
    # p x i x r with items fixed: σ²(τ) = σ²(p) + σ²(pi)/n_i, σ²(δ) = σ²(pr)/n_r +
    # σ²(pir,e)/(n_i n_r), σ²(Δ) = σ²(δ) + σ²(r)/n_r + σ²(ir)/(n_i n_r) (Brennan 2001, ch. 4)
    frame = _balanced("p x i x r")
    g = irr.gstudy(frame, score="score", object="patient", facets=["item", "rater"],
                   fixed=["item"])
    c = dict(zip([e.name(g.structure.letters) for e in g.structure.effects], g.components,
                 strict=True))
    n_i, n_r = 4, 3
    tau = c["p"] + c["pi"] / n_i
    delta = c["pr"] / n_r + c["pir,e"] / (n_i * n_r)
    Delta = delta + c["r"] / n_r + c["ir"] / (n_i * n_r)
    assert g.estimate == pytest.approx(tau / (tau + delta), rel=1e-12)
    assert g["phi"].estimate == pytest.approx(tau / (tau + Delta), rel=1e-12)
    with pytest.raises(ValueError, match="'item' is fixed"):
        g.dstudy(item=2)
    assert "fixed in the D study" in g.methods()


def test_negative_estimates_are_kept_raw_and_set_to_zero_for_coefficients():
    x = np.array([[5.0, 6, 7], [5.2, 6.1, 6.8], [4.9, 6.2, 7.1], [5.1, 5.8, 7.0]])
    long = pd.DataFrame({"p": np.repeat(np.arange(4), 3), "r": np.tile([1, 2, 3], 4),
                         "y": x.ravel()})
    g = irr.gstudy(long, score="y", object="p", facets=["r"])
    assert g.components_raw[0] < 0
    assert g.variance_components["variance"].iloc[0] == g.components_raw[0]
    assert g.estimate == 0
    assert g["phi"].estimate == 0
    assert any(n.startswith("Negative estimates, set to 0") and "σ²(p)" in n for n in g.notes)
    assert "set to 0 for the coefficients" in g.report()


def test_dstudy_at_the_observed_sizes_repeats_the_coefficients_and_broadcasts():
    frame = _balanced("p x r x o")
    g = irr.gstudy(frame, score="score", object="patient", facets=["rater", "occasion"])
    d = g.dstudy(rater=[1, 2, 3, 4], occasion=[1, 2])
    assert isinstance(d, DStudyResult)
    assert len(d.to_frame()) == 8
    observed = d.to_frame().query("rater == 3 and occasion == 2").iloc[0]
    assert observed["g"] == pytest.approx(g.estimate, rel=1e-12)
    assert observed["phi"] == pytest.approx(g["phi"].estimate, rel=1e-12)
    assert observed["sem_absolute"] == pytest.approx(g["phi"].sem, rel=1e-12)
    single = g.dstudy(rater=2)
    assert single.to_frame()[["rater", "occasion"]].values.tolist() == [[2, 2]]
    for bad, message in (({"rater": 0}, "must be a number >= 1"),
                         ({"rater": "two"}, "must be a number >= 1"),
                         ({"judge": 2}, "not facets of this G study")):
        with pytest.raises(ValueError, match=message):
            g.dstudy(**bad)


def test_optimize_finds_the_cheapest_design_by_brute_force():
    frame = _balanced("p x r x o")
    g = irr.gstudy(frame, score="score", object="patient", facets=["rater", "occasion"])
    cost = {"rater": 40, "occasion": 15}
    best = g.optimize(target=0.8, coefficient="phi", cost=cost, max_levels=8)
    c = dict(zip([e.name(g.structure.letters) for e in g.structure.effects], g.components,
                 strict=True))
    cheapest = None
    for nr in range(1, 9):
        for no in range(1, 9):
            tau = c["p"]
            Delta = (c["r"] / nr + c["o"] / no + c["pr"] / nr + c["po"] / no
                     + c["ro"] / (nr * no) + c["pro,e"] / (nr * no))
            phi = tau / (tau + Delta)
            price = 40 * nr + 15 * no
            if phi >= 0.8 and (cheapest is None or (price, -phi) < cheapest[:2]):
                cheapest = (price, -phi, {"rater": nr, "occasion": no})
    assert cheapest is not None
    assert best.best == cheapest[2]
    assert best.to_frame()["cost"].iloc[0] == cheapest[0]
    assert best.to_frame()["cost"].is_monotonic_increasing
    within = g.optimize(coefficient="g", cost=cost, budget=150)
    assert within.to_frame()["cost"].max() <= 150
    assert within.to_frame()["g"].is_monotonic_decreasing
    with pytest.raises(ValueError, match="reaches"):
        g.optimize(target=0.999, max_levels=3)
    with pytest.raises(ValueError, match="needs a `target`"):
        g.optimize()


def test_facet_with_one_level_is_refused():
    frame = _balanced("p x r x o")
    frame = frame[frame["occasion"] == 0]
    with pytest.raises(ValueError, match="'occasion' has one level only"):
        irr.gstudy(frame, score="score", object="patient", facets=["rater", "occasion"])


def test_nesting_the_data_contradict_is_refused():
    frame = _balanced("p x (r:o)")  # raters 0-2 in occasion 0, 10-12 in occasion 1
    with pytest.raises(ValueError, match=r"'occasion' has one level within each level of "
                                         r"'rater'.*nest 'rater' in 'occasion'"):
        irr.gstudy(frame, score="score", object="patient", facets=["rater", "occasion"],
                   nested={"occasion": "rater"})
    with pytest.raises(ValueError, match=r"declared crossed.*nested=\{'rater': 'occasion'\}"):
        irr.gstudy(frame, score="score", object="patient", facets=["rater", "occasion"])
    rp = design_data("(r:p)")
    with pytest.raises(ValueError, match=r"nested=\{'rater': 'patient'\}"):
        irr.gstudy(rp, score="score", object="patient", facets=["rater"])


def test_score_column_that_is_not_numeric_is_refused():
    frame = _balanced("p x r")
    frame["score"] = frame["score"].map(lambda v: "high" if v > 5 else "low")
    with pytest.raises(TypeError, match="`score`: column 'score' must hold numbers"):
        irr.gstudy(frame, score="score", object="patient", facets=["rater"])


@pytest.mark.parametrize(("kwargs", "error", "message"), [
    ({"score": "nope"}, ValueError, "`score`: no column 'nope'"),
    ({"facets": ["judge"]}, ValueError, "`facets`: no column 'judge'"),
    ({"method": "henderson"}, ValueError, "`method` must be one of"),
    ({"fixed": ["item"]}, ValueError, "`fixed`: \\['item'\\] are not facets"),
    ({"fixed": ["rater"]}, ValueError, "every facet is fixed"),
    ({"ci": "exact"}, ValueError, "`ci` must be one of"),
])
def test_bad_arguments_name_the_argument(kwargs, error, message):
    args = {"score": "score", "object": "patient", "facets": ["rater"], **kwargs}
    with pytest.raises(error, match=message):
        irr.gstudy(_balanced("p x r"), **args)


def test_duplicate_cells_and_missing_labels_are_refused():
    frame = _balanced("p x r")
    with pytest.raises(ValueError, match="more than one score"):
        irr.gstudy(pd.concat([frame, frame.head(1)]), score="score", object="patient",
                   facets=["rater"])
    broken = frame.astype({"rater": object})
    broken.loc[3, "rater"] = None
    with pytest.raises(ValueError, match="'rater' has missing labels"):
        irr.gstudy(broken, score="score", object="patient", facets=["rater"])


def test_rows_without_a_score_are_left_out_and_said():
    frame = _balanced("p x r").astype({"rater": str})
    frame.loc[[2, 5], "score"] = np.nan
    g = irr.gstudy(frame, score="score", object="patient", facets=["rater"])
    assert g.method == "reml"
    assert g.n_scores == len(frame) - 2
    assert "2 rows with a missing score left out." in g.notes


def test_restarting_labels_of_a_nested_facet_are_read_within_the_parent():
    frame = _balanced("p x (r:o)")
    restarted = frame.assign(rater=frame["rater"] % 10)  # raters 0-2 in both occasions
    a = irr.gstudy(frame, score="score", object="patient", facets=["rater", "occasion"],
                   nested={"rater": "occasion"})
    b = irr.gstudy(restarted, score="score", object="patient", facets=["rater", "occasion"],
                   nested={"rater": "occasion"})
    np.testing.assert_array_equal(a.components_raw, b.components_raw)
    assert any("repeat across levels of 'occasion'" in n for n in b.notes)


def test_result_protocol_and_reproducible_bootstrap():
    frame = _balanced("p x r x o")
    kw = {"score": "score", "object": "patient", "facets": ["rater", "occasion"]}
    g = irr.gstudy(frame, **kw)
    assert isinstance(g, GStudyResult)
    assert isinstance(g, irr.Result)
    assert g.ci.method == "wald"
    assert "normal-theory variances of the mean squares" in g.ci.note
    assert g.ci.low < g.estimate < g.ci.high
    boot = irr.gstudy(frame, ci="percentile", n_resamples=499, **kw)
    again = irr.gstudy(frame, ci="percentile", n_resamples=499, **kw)
    assert (boot.ci.low, boot.ci.high) == (again.ci.low, again.ci.high)
    assert boot.ci.method == "percentile"
    assert boot.rows[0].n_resamples == 499
    assert boot.ci.low < boot.estimate < boot.ci.high
    # the bootstrap and the delta method roughly agree on 24 objects
    assert abs(boot.ci.low - g.ci.low) < 0.15
    assert abs(boot.ci.high - g.ci.high) < 0.15
    bca = g.rows[0].conf_int(method="bca")
    assert bca.method == "bca"
    assert bca.low < bca.high
    frame_out = g.to_frame()
    assert list(frame_out.index) == ["Generalizability coefficient",
                                     "Dependability coefficient"]
    assert frame_out["sem"].tolist() == [g.rows[0].sem, g.rows[1].sem]
    text = g.summary().as_text()
    for piece in ("G study: patient × rater × occasion, p × r × o", "Variance components",
                  "patient × rater × occasion, e", "Satterthwaite", "delta-method Wald"):
        assert piece in text
    assert "<table" in g._repr_html_()
    sentence = g.report()
    assert "p × r × o design" in sentence
    assert "Eρ² = ." in sentence
    assert "Φ = ." in sentence
    assert "E rho^2 = 0." in g.report(style="plain")
    assert "Shavelson & Webb, 1991" in g.methods()
    coef = g.coefficients
    assert list(coef.index) == ["Generalizability coefficient", "Dependability coefficient"]
    assert coef.loc["Dependability coefficient", "error"] == "absolute"
    assert math.isclose(coef["sem"].iloc[0] ** 2, coef["error_variance"].iloc[0])
    d = g.dstudy(rater=[1, 2])
    assert "Eρ²" in str(d)
    assert "<table" in d._repr_html_()
    assert d.report().startswith("With 1 rater, 2 occasions, Eρ² = .")


def test_reml_result_has_wald_intervals_only():
    g = irr.gstudy(design_data("p x r"), score="score", object="patient", facets=["rater"])
    assert g.method == "reml"
    with pytest.raises(ValueError, match="has intervals \\['wald'\\]"):
        g.rows[0].conf_int(method="percentile")
    assert "REML" in g.summary().as_text()
    assert "Wald" in g.summary().as_text()
