"""Every kind of sentence the package writes, on the bundled data sets: the corpus the
number-formatting tests (tests/unit/rendering/test_numbers.py) read.

``python tests/support/sentence_corpus.py STYLE`` prints them, one per line, so that the
sentences of two branches can be compared with ``diff``.
"""

from __future__ import annotations

import sys
import warnings

import numpy as np

import irr

#: Few resamples: the sentences' wording, not their precision, is under test.
RESAMPLES = 199


def _reports(style: str):
    """``irr.report`` of every bundled data set with every statistic that applies: its
    sentences, its methods paragraph and each result's own ``report()``."""
    for name in sorted(irr.datasets.names()):
        data = irr.datasets.load(name)
        rep = irr.report(data, "all", figures=False, n_resamples=RESAMPLES, style=style)
        yield from ((f"{name}: report", s) for s in rep.sentences)
        yield f"{name}: methods", rep.methods
        for result in rep.results:
            yield f"{name}: {type(result).__name__}", result.report(style)


def _replicates(pef):
    """The pef readings as two meters read twice each."""
    long = pef.melt(id_vars="subject", value_name="pef")
    long[["meter", "reading"]] = long["variable"].str.split("_", expand=True)
    return irr.Agreement.from_long(long, subject="subject", rater="meter", rating="pef",
                                   replicate="reading", continuous=True)


def _more(style: str):
    """Results that ``irr.report`` does not make: tests, differences, pooled estimates,
    regression-based and ratio limits, learners' comparisons, a G study, with negative numbers."""
    anxiety = irr.Agreement.from_frame(irr.datasets.load("anxiety"))
    video = irr.Agreement.from_frame(irr.datasets.load("video"))
    pef = irr.datasets.load("pef")
    a, b = pef["wright_1"], pef["mini_1"]
    two = irr.Agreement.from_table([[6, 16], [2, 4]])
    other = irr.Agreement.from_table([[2, 4], [6, 6]])
    pair = irr.Agreement.from_frame(irr.datasets.load("anxiety"), raters=["rater1", "rater2"])
    results = [
        irr.difference(anxiety, statistic=("fleiss_kappa", "gwet_ac"), n_resamples=RESAMPLES),
        irr.pool([two.kappa(), other.kappa()]),
        two.kappa(null=0.4),
        two.kappa(),
        video.error_rate_test(0.5, reference="rater1"),
        two.mcnemar(),
        pair.marginal_homogeneity_test(),
        irr.limits_of_agreement(a, b, names=["wright", "mini"], units="l/min"),
        irr.limits_of_agreement(a, b, method="regression"),
        irr.limits_of_agreement(a, b, scale="percent"),
        irr.limits_of_agreement(a, b, scale="ratio"),
        irr.limits_of_agreement(a, b, method="nonparametric"),
        irr.passing_bablok(a, b), irr.deming(a, b),
        irr.passing_bablok([1.0, 2.1, 2.9, 4.2, 5.1, 6.0], [1.2, 2.0, 3.1, 4.0, 5.3, 6.1]),
        irr.paired_ttest([0.10, 0.12, 0.11, 0.12, 0.10], [0.12, 0.15, 0.11, 0.14, 0.13]),
        irr.bias_variance([[1.0, 2.0], [3.0, 2.0]], y=[1.5, 2.5]),
        two.specific_agreement(), two.category_kappa(), two.bangdiwala_b(),
        two.kappa(weights="circular:0.5", null=0.1),
        _replicates(pef).inter_intra_reliability(),
    ]
    for result in results:
        yield type(result).__name__, result.report(style)
    g = irr.gstudy(irr.datasets.load("brennan_3_2"), score="Score", object="Person",
                   facets=["Rater", "Task"], nested={"Rater": "Task"}, n_resamples=RESAMPLES)
    yield type(g).__name__, g.report(style)
    plans = (irr.plan.limits_of_agreement(bias=-5, sd=10, delta=35, power=0.8),
             irr.plan.concordance(-0.2, 0.3, power=0.8))
    yield from (("PlanResult", plan.report()) for plan in plans)  # one style
    for result in (two.kappa(), anxiety.fleiss_kappa(), anxiety.icc()):
        yield f"{type(result).__name__} (test)", result.report(style, test=True)


def sentences(style: str = "apa") -> list[tuple[str, str]]:
    """(where, sentence) of every sentence of the corpus in `style`."""
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        np.seterr(all="ignore")
        return [*_reports(style), *_more(style)]


if __name__ == "__main__":
    for where, text in sentences(sys.argv[1] if len(sys.argv) > 1 else "apa"):
        print(f"{where}\t{text}")
