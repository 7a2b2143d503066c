"""Sentences, methods paragraph and references of the statistics of continuous
measurements (issue 18): one-sided bounds read as bounds, every statistic is named and
cited, every in-text citation has its reference entry."""

from __future__ import annotations

import re
import warnings

import numpy as np
import pandas as pd
import pytest

import irr
from irr._sentences import REFERENCES, methods_paragraph, references, report_sentences


@pytest.fixture(scope="module")
def pair():
    pef = irr.datasets.load("pef")
    return irr.Agreement.from_frame(pef, ["wright_1", "mini_1"], continuous=True)


@pytest.fixture(scope="module")
def results(pair):
    return [pair.limits_of_agreement(units="l/min"), pair.concordance(),
            pair.total_deviation_index(), pair.coverage_probability(50), pair.deming(),
            pair.passing_bablok(), pair.measurement_error(units="l/min")]


def _paragraph(results, missing=0):
    return methods_paragraph(results, n_subjects=17, n_raters=2, raters=["wright_1", "mini_1"],
                             n_categories=None, scale_type="continuous",
                             n_missing_ratings=missing, n_incomplete_subjects=missing)


def test_tdi_sentence_is_an_upper_bound(pair):
    res = pair.total_deviation_index()
    text = res.report()
    assert "one-sided 95% upper confidence bound 86.23 (log MSD)" in text
    assert "CI [" not in text
    assert "0.00" not in text
    assert "upper confidence bound 86.234" in res.report("plain")


def test_cp_sentence_is_a_lower_bound(pair):
    res = pair.coverage_probability(50)
    text = res.report()
    assert text.startswith("CP(δ = 50) between wright_1 and mini_1 was .80")
    assert "one-sided 95% lower confidence bound .63 (logit)" in text
    assert "1.00" not in text


def test_exact_tdi_keeps_its_two_sided_bootstrap_interval(pair):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        res = pair.total_deviation_index(method="exact", n_resamples=200)
    assert "95% CI [" in res.report()
    assert "bound" not in res.report()


def test_every_statistic_named_and_cited(results):
    text = _paragraph(results)
    for phrase in ("Bland–Altman 95% limits of agreement (Bland & Altman, 1986)",
                   "Lin's concordance correlation coefficient (ρc; Lin, 1989, 2000a)",
                   "(TDI(90%); Lin, 2000b; Lin et al., 2002)",
                   "Deming regression (Linnet, 1993)",
                   "Passing–Bablok regression (Passing & Bablok, 1983)",
                   "(SDC; de Vet et al., 2006)",
                   "exact intervals (non-central t; Carkeet, 2015; Shieh, 2018) for the limits",
                   "one-sided upper confidence bounds (log MSD; Lin, 2000b) for TDI(90%)",
                   "one-sided lower confidence bounds (logit; Lin et al., 2002)",
                   "jackknife t intervals (Linnet, 1993) for Deming regression",
                   "chi-square intervals (Satterthwaite df; Satterthwaite, 1946)"):
        assert phrase in text, phrase
    assert text.startswith("Measurements of 17 subjects by 2 raters or methods")
    assert "Every subject was measured by every rater or method." in text


def test_every_citation_has_its_entry(results):
    """Each (Author, year) of the paragraph matches one reference entry, letters included."""
    text = _paragraph(results)
    entries = references(results)
    years = {m for e in entries for m in re.findall(r"\((\d{4}[ab]?)\)\.", e)}
    cited = set(re.findall(r"\b(\d{4}[ab]?)\b", text)) - {"0.1"}
    assert {"2000a", "2000b"} <= cited
    assert cited <= years | {"0"}
    assert sum("Lin, L. I.-K. (2000a)" in e for e in entries) == 1
    assert sum("Lin, L. I.-K. (2000b)" in e for e in entries) == 1


def test_one_work_of_a_year_is_not_lettered(pair):
    res = [pair.concordance()]
    assert "Lin, 1989, 2000)" in _paragraph(res)
    assert any(e.startswith("Lin, L. I.-K. (2000). A note") for e in references(res))


def test_missing_measurements_rules(pair, results):
    text = _paragraph(results, missing=2)
    assert "left out of the limits of agreement, ρc" in text
    assert "the SEM and SDC used every available measurement" in text
    pef = irr.datasets.load("pef").astype(float)
    pef.loc[2, "mini_1"] = np.nan
    ag = irr.Agreement.from_frame(pef, ["wright_1", "wright_2", "mini_1", "mini_2"],
                                  continuous=True)
    icc = ag.icc_components()
    text = methods_paragraph([icc], n_subjects=17, n_raters=4, raters=list(ag.raters),
                             n_categories=None, scale_type="continuous", n_missing_ratings=1,
                             n_incomplete_subjects=1)
    assert "ICC(A,1) used every available measurement" in text
    assert "Henderson, 1953" in text


def test_reference_keys_have_entries():
    from irr._sentences import _CITE

    assert set(_CITE) == set(REFERENCES)


def test_regression_and_sem_sentences(pair, results):
    deming, pb, sem = results[4], results[5], results[6]
    assert "slope of 0.97, 95% CI [0.67, 1.27], and an intercept" in deming.report()
    assert "(jackknife SE, t on 15 df), n = 17." in deming.report()
    assert "(rank-based)" in pb.report()
    # APA p without its leading zero, plain with it (the cusum p itself is tested elsewhere)
    assert re.search(r"linearity \(p = \.\d{3}\)\.$", pb.report())
    assert re.search(r"linearity \(p = 0\.\d{3}\)\.$", pb.report("plain"))
    assert sem.report().endswith("(chi-square, Satterthwaite df), n = 17.")
    sentences = report_sentences(results)
    assert len(sentences) == len(results)


def test_limits_sentences_say_what_is_undefined(pair):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        res = pair.limits_of_agreement(method="nonparametric")
    text = res.report()
    assert "could not be estimated (nonparametric 95% limits need at least 39 pairs" in text
    assert "nan" not in text
    reg = pair.limits_of_agreement(method="regression").report()
    assert "where A is the mean of the two methods" in reg
    assert "p = .749" in reg


def test_methods_of_nonparametric_and_regression_limits():
    rng = np.random.default_rng(1)
    x = rng.normal(100, 10, 80)
    y = x + rng.normal(1, 3, 80)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        results = [irr.limits_of_agreement(x, y, method="nonparametric"),
                   irr.limits_of_agreement(x, y, method="regression")]
    text = methods_paragraph(results, n_subjects=80, n_raters=2, raters=["x", "y"],
                             n_categories=None, scale_type="continuous", n_missing_ratings=0,
                             n_incomplete_subjects=0)
    assert ("order-statistic intervals for the median difference and order-statistic "
            "intervals for the limits of agreement") in text
    assert ("t intervals for the bias of the limits of agreement (the limits themselves have "
            "no interval)") in text
    assert "Bland–Altman regression-based 95% limits of agreement (Bland & Altman, 1986, " \
           "1999)" in text


def _replicated_long(drop=()):
    """Two devices read each of 30 patients 3 times (cuff SD 3.6, wrist SD 6.1 mmHg); the
    rows in `drop` are readings that were not taken."""
    rng = np.random.default_rng(11)
    rows = [(f"P{p:02d}", device, r, round(true + bias + rng.normal(0, sd), 1))
            for p, true in enumerate(rng.normal(130, 15, 30))
            for device, sd, bias in (("cuff", 3.6, 0.0), ("wrist", 6.1, 3.0))
            for r in (1, 2, 3)]
    keep = [row for i, row in enumerate(rows) if i not in set(drop)]
    frame = pd.DataFrame(keep, columns=["patient", "device", "reading", "sbp"])
    return irr.Agreement.from_long(frame, subject="patient", rater="device", rating="sbp",
                                   replicate="reading")


@pytest.mark.parametrize(("drop", "often"), [
    ((), "each subject 3 times (180 measurements in all)."),
    ((2, 10, 100), "each subject 2–3 times (177 measurements in all)."),
    ((3, 4, 5), "each of its subjects 3 times (177 measurements in all)."),
], ids=["balanced", "unequal", "a missing pair"])
def test_methods_say_how_often_each_method_measured_each_subject(drop, often):
    ag = _replicated_long(drop)
    rep = irr.report(ag, "sem", n_resamples=50, figures=False)
    text = " ".join(rep.methods.split())
    assert f"Each rater or method measured {often}" in text
    assert "on average" not in text
    facts = dict(rep.data.facts())
    times = "3" if "2–3" not in often else "2–3"
    assert facts["Measurements"].startswith(
        f"{ag.measurements.n_measurements} (replicates: {times} measurements")


def test_report_gives_the_within_subject_sd_of_each_method():
    ag = _replicated_long((2, 10, 100))
    rep = irr.report(ag, "sem", n_resamples=50, figures=False)
    res = rep.results[0]
    text = " ".join(rep.methods.split())
    assert ("the within-subject SD and the repeatability coefficient of each rater or method "
            "and pooled over them (de Vet et al., 2006; Bland & Altman, 1996, 1999)") in text
    assert ("percentile bootstrap intervals for the SEM and SDC, and "
            "chi-square intervals (on the n(m − 1) df of the replicates) for the "
            "within-subject SD and the repeatability coefficient") in text
    assert any(r.startswith("Bland, J. M., & Altman, D. G. (1999)") for r in rep.references)
    table = str(rep)
    # the result's own notes are printed under the table (its rows do not carry them)
    assert "the pooled SD assumes they share one within-subject variance" in table
    for device in ("cuff", "wrist"):
        s_w = res.quantity("s_w", device)
        assert re.search(rf"Within-subject SD \({device}\)\s+{s_w.estimate:.4f}", table)
        assert f"Repeatability coefficient ({device})" in table
        assert f"{s_w.estimate:.2f}, 95% CI [{s_w.ci.low:.2f}, {s_w.ci.high:.2f}], " \
               f"for {device}" in " ".join(rep.sentences[0].split())
    # JSON: a part per row, with the method in its name and symbol
    import json
    parts = json.loads(rep.to_json())["results"][0]["parts"]
    wrist = next(p for p in parts if p["symbol"] == "s_w[wrist]")
    assert wrist["coefficient"] == "Within-subject SD (wrist)"
    assert wrist["estimate"] == pytest.approx(res.quantity("s_w", "wrist").estimate)
