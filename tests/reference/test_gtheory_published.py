"""Generalizability theory against published values and an independent implementation.

- Brennan, R. L. (2001). Generalizability Theory. Springer. Table 3.2 (synthetic data
  set No. 4, p x (r:t)), p. 73: the G-study variance components; p. 116: the D study
  with 3 tasks and 4 raters per task (Eρ² .55, Φ .46).
- Rajaratnam, N., Cronbach, L. J., & Gleser, G. C. (1965), Psychometrika 30, 39-56,
  Table 2 (analysed in Brennan, 2001, p. 270): the unbalanced p x (i:s) design, whose
  components no table we can read prints; REML against statsmodels MixedLM.
- Every design of the G-study tests on unbalanced data: REML against statsmodels MixedLM
  (``gtheory_mixedlm.py`` beside this file wrote ``data/gtheory_mixedlm.json``; lme4 is
  not available here, MixedLM is the independent REML implementation). irr's restricted
  log-likelihood at MixedLM's estimates equals the maximum MixedLM reports (to 1e-8), so
  the likelihoods are the same function; where MixedLM reaches the maximum the components
  agree to 1e-4, and irr's maximum is never below MixedLM's.
"""

import json
import sys
from pathlib import Path

import numpy as np
import pytest

import irr
from irr.gtheory.data import read_long
from irr.gtheory.reml import RemlProblem

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))
from gtheory_mixedlm import DESIGNS, design_data  # noqa: E402

MIXEDLM = json.loads((HERE / "data" / "gtheory_mixedlm.json").read_text())


def _brennan(**kw):
    return irr.gstudy(irr.datasets.load("brennan_3_2"), score="Score", object="Person",
                      facets=["Rater", "Task"], nested={"Rater": "Task"}, **kw)


def test_brennan_2001_table_3_2_components_p_73():
    # Brennan (2001), Table 3.2, p. 73: σ²(p) .4731, σ²(t) .3252, σ²(r:t) .6475,
    # σ²(pt) .5596, σ²(pr:t,e) 2.3802
    g = _brennan()
    assert g.design == "p × (r:t)"
    assert g.method == "anova"
    published = {"p": .4731, "t": .3252, "r:t": .6475, "pt": .5596, "pr:t,e": 2.3802}
    got = dict(zip(g.variance_components["effect"], g.variance_components["variance"],
                   strict=True))
    for effect, value in published.items():
        assert got[effect] == pytest.approx(value, abs=5e-5)


def test_brennan_2001_d_study_p_116():
    # Brennan (2001), p. 116: 3 tasks, 4 raters per task: Eρ² ≈ .55, Φ ≈ .46
    g = _brennan()
    assert round(g.estimate, 2) == 0.55
    assert round(g["phi"].estimate, 2) == 0.46
    d = g.dstudy(Rater=4, Task=3).to_frame().iloc[0]
    assert round(d["g"], 2) == 0.55
    assert round(d["phi"], 2) == 0.46
    # the error variances of the same D study, from the published components:
    # σ²(δ) = .5596/3 + 2.3802/12, σ²(Δ) = σ²(δ) + .3252/3 + .6475/12
    assert d["relative_error"] == pytest.approx(.5596 / 3 + 2.3802 / 12, abs=1e-4)
    assert d["absolute_error"] == pytest.approx(.5596 / 3 + 2.3802 / 12 + .3252 / 3
                                                + .6475 / 12, abs=1e-4)


def test_brennan_2001_reml_equals_anova_on_the_balanced_table_3_2():
    # every ANOVA estimate is positive, so REML reproduces them (Searle et al. 1992, ch. 6)
    g = _brennan(method="reml")
    np.testing.assert_allclose(g.components_raw, _brennan().components_raw, rtol=1e-5)


def _reml_loglik(problem, components):
    """The REML log-likelihood as MixedLM reports it: -(criterion + (N - 1) log 2π) / 2."""
    return -0.5 * (problem.criterion(np.asarray(components, dtype=float))
                   + (problem.n_scores - 1) * np.log(2 * np.pi))


def _check_against_mixedlm(g, reference, problem):
    ref = reference["components"]
    ours = dict(zip(g.variance_components.index, g.components_raw, strict=True))
    assert set(ours) == set(ref)
    theirs = np.array([ref[name] for name in g.variance_components.index])
    # the likelihood itself: ours at MixedLM's estimates is MixedLM's reported maximum
    assert _reml_loglik(problem, theirs) == pytest.approx(reference["llf"], abs=1e-8)
    # our maximum is at least as high as MixedLM's
    best = _reml_loglik(problem, g.components_raw)
    assert best >= reference["llf"] - 1e-9
    if best - reference["llf"] > 1e-6:  # MixedLM stopped short (see the module notes)
        return best - reference["llf"]
    total = sum(ref.values())
    for name, value in ref.items():
        # lme4-level agreement: 1e-4 relative, or 1e-4 of the total variance
        assert ours[name] == pytest.approx(value, rel=1e-4, abs=1e-4 * total), name
    return 0.0


def test_rajaratnam_cronbach_gleser_1965_table_2_reml_against_mixedlm():
    # Rajaratnam, Cronbach & Gleser (1965), Table 2; Brennan (2001), p. 270: subtests of
    # 2, 4 and 2 items (labels restart in each subtest), unbalanced: REML
    df = irr.datasets.load("rajaratnam_2")
    g = irr.gstudy(df, score="Score", object="Person", facets=["Item", "Subtest"],
                   nested={"Item": "Subtest"})
    assert g.method == "reml"
    assert g.design == "p × (i:s)"
    assert not g.balanced
    assert g.sizes["Item"] == pytest.approx(3 / (1 / 2 + 1 / 4 + 1 / 2))  # ñ_i = 2.4
    data = read_long(df, "Score", "Person", ["Item", "Subtest"], {"Item": "Subtest"})
    problem = RemlProblem(data.design, data.scores, data.exists)
    reference = MIXEDLM["rajaratnam_2"]
    reference = {**reference, "components": {k.replace("patient", "Person"): v for k, v in
                                             reference["components"].items()}}
    assert _check_against_mixedlm(g, reference, problem) == 0.0


@pytest.mark.parametrize("name", list(DESIGNS))
def test_unbalanced_designs_reml_against_mixedlm(name):
    facets, nested = DESIGNS[name]
    frame = design_data(name)
    g = irr.gstudy(frame, score="score", object="patient", facets=facets, nested=nested)
    assert g.method == "reml"
    data = read_long(frame, "score", "patient", facets, nested)
    problem = RemlProblem(data.design, data.scores, data.exists)
    short = _check_against_mixedlm(g, MIXEDLM[name], problem)
    # MixedLM reaches irr's optimum on every design but p x (i:s) x r, where it stops
    # 0.010 below it in REML log-likelihood (rater and site x rater, two and six levels,
    # leave the likelihood flat; site is at the boundary 0)
    assert short == 0.0 or (name == "p x (i:s) x r" and short < 0.05)
