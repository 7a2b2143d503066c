"""Every public boolean option refuses a string such as "no" (truthy, so it would be taken
as True) with a TypeError naming the option."""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest

import irr

ANXIETY = irr.datasets.load("anxiety")
PAIR = irr.Agreement.from_frame(ANXIETY, raters=["rater1", "rater2"])
THREE = irr.Agreement.from_frame(ANXIETY)
_RNG = np.random.default_rng(3)
X = _RNG.normal(10, 2, 20)
Y = X + _RNG.normal(0, 1, 20)
LONG = pd.DataFrame({"subject": np.repeat(np.arange(10), 2), "rater": ["a", "b"] * 10,
                     "rating": [1, 1, 2, 2, 1, 2, 3, 3, 1, 1, 2, 2, 3, 2, 1, 1, 2, 2, 3, 3],
                     "site": ["s1"] * 10 + ["s2"] * 10})

CALLS = {
    "Agreement continuous": (lambda v: irr.Agreement(X, Y, continuous=v), "continuous"),
    "from_frame continuous": (lambda v: irr.Agreement.from_frame(ANXIETY, continuous=v),
                              "continuous"),
    "kappa progress": (lambda v: PAIR.kappa(progress=v), "progress"),
    "fleiss ci_clip": (lambda v: THREE.fleiss_kappa(ci_clip=v), "ci_clip"),
    "kendall correct_ties": (lambda v: THREE.kendall_w(correct_ties=v), "correct_ties"),
    "mean_spearman fisher": (lambda v: THREE.mean_spearman(fisher=v), "fisher"),
    "mean_pearson fisher": (lambda v: THREE.mean_pearson(fisher=v), "fisher"),
    "mcnemar exact": (lambda v: irr.Agreement([0, 1, 1, 0, 1] * 4, [0, 1, 0, 0, 1] * 4)
                      .mcnemar(exact=v), "exact"),
    "mcnemar correction": (lambda v: irr.Agreement([0, 1, 1, 0, 1] * 4, [0, 1, 0, 0, 1] * 4)
                           .mcnemar(correction=v), "correction"),
    "symmetry reduce_df": (lambda v: PAIR.symmetry_test(reduce_df=v), "reduce_df"),
    "iota standardize": (lambda v: irr.iota(ANXIETY, standardize=v), "standardize"),
    "by test": (lambda v: irr.by(LONG, "site", statistic="fleiss_kappa", test=v), "test"),
    "difference independent": (lambda v: irr.difference(PAIR.kappa(), PAIR.kappa(),
                                                        independent=v), "independent"),
    "plan icc adjust": (lambda v: irr.plan.icc_interval(0.7, 0.2, raters=3, adjust=v), "adjust"),
    "simulate continuous": (lambda v: irr.plan.simulate(
        "icc", n=20, coefficient=0.6, null=0.2, n_simulations=10, continuous=v), "continuous"),
    "report figures": (lambda v: irr.report(THREE, figures=v), "figures"),
    "bland_altman bands": (lambda v: irr.plotting.bland_altman(X, Y, bands=v), "bands"),
    "table_heatmap normalize": (lambda v: irr.plotting.table_heatmap(PAIR, normalize=v),
                                "normalize"),
    "table_heatmap colorbar": (lambda v: irr.plotting.table_heatmap(PAIR, colorbar=v),
                               "colorbar"),
    "agreement_chart legend": (lambda v: irr.plotting.agreement_chart(PAIR, legend=v),
                               "legend"),
}


@pytest.mark.parametrize("name", list(CALLS))
def test_every_public_boolean_option_refuses_the_string_no(name):
    call, option = CALLS[name]
    with pytest.raises(TypeError, match=rf"`{option}` must be True(,| or) False"):
        call("no")
