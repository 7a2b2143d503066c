"""Issue 16, sentences: every statistic named unambiguously, one APA style, the interval's
method named in every sentence, raters without ratings left unnamed, the methods paragraph."""

import numpy as np
import pandas as pd
import pytest

import irr
from irr._sentences import methods_paragraph, references, report, report_sentences, statistic_name


def _every_variant():
    """One result of every statistic family and variant with a sentence."""
    three = irr.Agreement.from_frame(irr.datasets.load("anxiety"))
    two = irr.Agreement.from_frame(irr.datasets.load("vision"))
    out = [two.kappa(), two.kappa(weights="linear"), two.kappa(weights="quadratic"),
           two.kappa(weights=np.eye(4)), two.percent_agreement(),
           two.percent_agreement(tolerance=1), two.symmetry_test(),
           two.marginal_homogeneity_test()]
    out += [three.fleiss_kappa(), three.fleiss_kappa(weights="quadratic"), three.scott_pi(),
            three.conger_kappa(), three.conger_kappa(weights="linear"), three.light_kappa(),
            three.light_kappa(weights="quadratic"), three.gwet_ac(),
            three.gwet_ac(weights="quadratic"), three.gwet_ac(weights="linear"),
            three.brennan_prediger(), three.brennan_prediger(weights="linear"),
            three.percent_agreement(), three.percent_agreement(definition="all"),
            three.percent_agreement(tolerance=1), three.kendall_w()]
    out += [three.krippendorff_alpha(level, n_resamples=200, rng=0)
            for level in ("nominal", "ordinal", "interval", "ratio")]
    out += [three.icc(model, type, unit) for model, type in
            [("oneway", "agreement"), ("twoway", "agreement"), ("twoway", "consistency")]
            for unit in ("single", "average")]
    table = irr.Agreement.from_table([[20, 5], [12, 30]], names=["A", "B"])
    out += [table.mcnemar(), table.mcnemar(exact=False)]
    return out


def test_every_family_and_variant_has_its_own_name_and_sentence():
    results = _every_variant()
    names = [statistic_name(r) for r in results]
    plain = [statistic_name(r, "plain") for r in results]
    sentences = [report(r) for r in results]
    assert len(set(names)) == len(names), names
    assert len(set(plain)) == len(plain), plain
    assert len(set(sentences)) == len(sentences)
    for name, sentence in zip(names, sentences, strict=True):
        assert name.lower() in sentence.lower()


@pytest.mark.parametrize(("index", "name"), [
    (0, "Cohen's κ"), (1, "Cohen's κw (linear weights)"), (2, "Cohen's κw (quadratic weights)"),
    (3, "Cohen's κw (custom weights)"), (4, "percent agreement"),
    (5, "percent agreement within ±1"), (8, "Fleiss' κ"),
    (9, "Fleiss' κw (quadratic weights)"), (10, "Scott's π"), (11, "Conger's κ"),
    (13, "Light's κ"), (15, "Gwet's AC1"), (16, "Gwet's AC2 (quadratic weights)"),
    (18, "Brennan-Prediger κ"), (20, "mean pairwise percent agreement"),
    (21, "percent agreement of all raters"), (23, "Kendall's W"),
    (24, "Krippendorff's nominal α"), (26, "Krippendorff's interval α"),
    (28, "ICC(1) (one-way random effects, absolute agreement, single rater; ICC(1,1))"),
    (29, "ICC(k) (one-way random effects, absolute agreement, average of 3 raters; ICC(1,3))"),
    (30, "ICC(A,1) (two-way random effects, absolute agreement, single rater; ICC(2,1))"),
    (31, "ICC(A,k) (two-way random effects, absolute agreement, average of 3 raters; "
         "ICC(2,3))"),
    (32, "ICC(C,1) (two-way mixed effects, consistency, single rater; ICC(3,1))"),
    (33, "ICC(C,k) (two-way mixed effects, consistency, average of 3 raters; ICC(3,3))"),
])
def test_representative_names(index, name):
    assert statistic_name(_VARIANTS[index]) == name


_VARIANTS = _every_variant()


def test_exact_sentences_of_a_representative_set():
    v = _VARIANTS
    assert report(v[2]) == ("Agreement between r.eye and l.eye was substantial, Cohen's κw "
                            "(quadratic weights) = .70, 95% CI [.69, .72] (Wald), n = 7,477.")
    assert report(v[30]) == (
        "Reliability among rater1, rater2, and rater3 was poor, ICC(A,1) (two-way random "
        "effects, absolute agreement, single rater; ICC(2,1)) = .20, 95% CI [−.04, .49] "
        "(approximate F, Satterthwaite df), n = 20.")
    assert report(v[26]) == (
        "Agreement among rater1, rater2, and rater3 was unacceptable, Krippendorff's interval α = "
        ".17, 95% CI [−.05, .39] (percentile bootstrap, 200 resamples), n = 20.")
    assert report(v[4]) == ("Percent agreement between r.eye and l.eye was .71, 95% CI "
                            "[.70, .72] (Wilson score), n = 7,477.")
    assert report(v[23], test=True) == ("Kendall's W among rater1, rater2, and rater3 was .54, "
                                        "χ²(19, N = 20) = 30.76, p = .043, n = 20.")
    assert report(v[6]) == ("Bowker's test of symmetry between r.eye and l.eye: "
                            "χ²(6, N = 7,477) = 19.11, p = .004.")
    assert report(v[34]) == ("The exact McNemar test between A and B: 5 of 17 discordant "
                             "pairs, p = .143; difference of the marginal proportions of 0 = "
                             "−.10, 95% CI [−.22, .01] (Wald), N = 67.")
    assert report(v[32], test=True).endswith("= .22, 95% CI [−.05, .52] (exact F), "
                                              "F(19, 38) = 1.83, p = .056, n = 20.")


def test_apa_drops_the_leading_zero_of_alpha_and_the_icc_and_separates_thousands():
    ag = irr.Agreement.from_frame(irr.datasets.load("vision"))
    alpha = ag.krippendorff_alpha("ordinal", n_resamples=300, rng=0)
    assert "Krippendorff's ordinal α = .71, 95% CI [.69, .72]" in report(alpha)
    assert "ICC(1) (one-way" in report(ag.icc("oneway"))
    assert "= .70, 95% CI [.69, .71] (exact F), n = 7,477." in report(ag.icc("oneway"))
    assert "0." not in report(alpha)
    assert "0." not in report(ag.icc("oneway"))


def test_every_sentence_names_its_interval_method_even_when_shared():
    # a sentence copied alone into a paper still says how its interval was computed
    ag = irr.Agreement.from_frame(irr.datasets.load("vision"))
    boot = dict(ci="bca", n_resamples=9999, rng=0)
    lines = report_sentences([ag.percent_agreement(), ag.kappa(**boot),
                              ag.kappa(weights="linear", **boot), ag.icc(),
                              ag.kappa(weights="quadratic", **boot)])
    assert lines[0].endswith("95% CI [.70, .72] (Wilson score), n = 7,477.")
    assert lines[1].endswith("95% CI [.58, .61] (BCa bootstrap, 9,999 resamples), n = 7,477.")
    assert lines[2].endswith("95% CI [.64, .67] (BCa bootstrap, 9,999 resamples), n = 7,477.")
    assert lines[3].endswith("(approximate F, Satterthwaite df), n = 7,477.")
    assert lines[4].endswith("95% CI [.69, .72] (BCa bootstrap, 9,999 resamples), n = 7,477.")
    # a sentence reads the same alone and among others; Result.report() is report()
    alone = [report(r) for r in (ag.kappa(weights="linear", **boot),
                                 ag.kappa(weights="quadratic", **boot))]
    assert alone == [lines[2], lines[4]]
    assert ag.kappa().report() == report(ag.kappa())
    # the plain style too, inside its parentheses
    plain = report_sentences([ag.kappa(), ag.kappa(weights="linear")], "plain")
    assert all("95% CI " in line and ", Wald; n = 7,477)" in line for line in plain)


def test_raters_who_gave_no_rating_are_not_named():
    df = irr.datasets.load("anxiety").astype(float).assign(rater4=np.nan)
    ag = irr.Agreement.from_frame(df)
    assert report(ag.fleiss_kappa()) == (
        "Agreement among rater1, rater2, and rater3 was poor, Fleiss' κ = −.04, 95% CI "
        "[−.13, .05] (Wald), n = 20.")
    assert ag.fleiss_kappa().unrated == ("rater4",)
    assert " among rater1, rater2, and rater3 " in report(
        ag.krippendorff_alpha(n_resamples=100, rng=0))


def test_bad_results_name_the_argument():
    with pytest.raises(TypeError, match=r"`results\[1\]` is not a result .* got 3"):
        report_sentences([_VARIANTS[0], 3])
    with pytest.raises(TypeError, match="`results` must be a sequence"):
        report_sentences("kappa")
    with pytest.raises(ValueError, match="scale_type"):
        methods_paragraph([], n_subjects=1, n_raters=1, raters=["a"], n_categories=2,
                          scale_type="interval", n_missing_ratings=0, n_incomplete_subjects=0)
    with pytest.raises(ValueError, match=r"`raters` must name the 2 raters .*\['a'\]"):
        methods_paragraph([], n_subjects=1, n_raters=2, raters=["a"], n_categories=2,
                          scale_type="nominal", n_missing_ratings=0, n_incomplete_subjects=0)


def test_methods_paragraph_two_raters_ordinal():
    ag = irr.Agreement.from_frame(irr.datasets.load("vision"))
    results = [ag.percent_agreement(), ag.kappa(), ag.kappa("linear"), ag.kappa("quadratic")]
    text = methods_paragraph(results, n_subjects=7477, n_raters=2, raters=ag.raters,
                             n_categories=4, scale_type="ordinal", n_missing_ratings=0,
                             n_incomplete_subjects=0)
    assert text == (
        "Ratings of 7,477 subjects by 2 raters (r.eye and l.eye) on an ordinal scale with 4 "
        "categories were analysed. No ratings were missing. Agreement was estimated with "
        "percent agreement, Cohen's κ (Cohen, 1960), Cohen's κw (linear weights; Cohen, "
        "1968), and Cohen's κw (quadratic weights; Cohen, 1968). Confidence intervals (95%) "
        "were Wilson score intervals (Wilson, 1927) for percent agreement; Wald intervals "
        "with the large-sample standard error of Fleiss et al. (1969) for Cohen's κ, Cohen's "
        "κw (linear weights), and Cohen's κw (quadratic weights). Estimates were interpreted "
        "on the benchmark scale of Landis & Koch (1977). Analyses used irr (irrstats) version "
        f"{irr.__version__} (The irr developers, n.d.).")
    entries = references(results)
    assert [e.split(" (")[0] for e in entries] == [
        "Cohen, J.", "Cohen, J.", "Fleiss, J. L., Cohen, J., & Everitt, B. S.",
        "Landis, J. R., & Koch, G. G.", "The irr developers.", "Wilson, E. B."]


def test_methods_paragraph_several_raters_with_missing_ratings():
    ag = irr.Agreement.from_frame(irr.datasets.load("cac_raw4raters"))
    results = [ag.fleiss_kappa(), ag.light_kappa(),
               ag.krippendorff_alpha("ordinal", n_resamples=1000, rng=1), ag.icc()]
    text = methods_paragraph(results, n_subjects=12, n_raters=4, raters=ag.raters,
                             n_categories=5, scale_type="ordinal", n_missing_ratings=9,
                             n_incomplete_subjects=4)
    assert text == (
        "Ratings of 12 subjects by 4 raters (Rater1, Rater2, Rater3, and Rater4) on an ordinal "
        "scale with 5 categories were analysed. In all, 9 ratings were missing; 4 subjects "
        "had at least one missing rating. Reliability and agreement were estimated with "
        "Fleiss' κ (Fleiss, 1971; Gwet, 2014), Light's κ (Light, 1971), Krippendorff's ordinal α "
        "(Krippendorff, 2011), and ICC(A,1) (two-way random effects, absolute agreement, "
        "single rater; ICC(2,1); McGraw & Wong, 1996; Shrout & Fleiss, 1979). Confidence "
        "intervals (95%) were Wald intervals with Gwet's (2008) linearised standard error for "
        "Fleiss' κ; Wald intervals with a linearised (delta-method) standard error for "
        "Light's κ; percentile bootstrap intervals (1,000 resamples; seed 1) for "
        "Krippendorff's ordinal α; approximate F intervals (Satterthwaite df; McGraw & Wong, "
        "1996) for ICC(A,1). Missing ratings: Fleiss' κ and Krippendorff's ordinal α used every "
        "available rating; Light's κ used, for each pair of raters, the subjects both rated; "
        "subjects with a missing rating were left out of ICC(A,1) (listwise). Estimates were "
        "interpreted on the benchmark scales of Landis & Koch (1977) for Fleiss' κ and Light's "
        "κ; Krippendorff (2004) for Krippendorff's ordinal α; Koo & Li (2016) for ICC(A,1). "
        "Analyses used irr (irrstats) version "
        f"{irr.__version__} (The irr developers, n.d.).")
    cited = " ".join(references(results))
    for author in ("Fleiss, J. L. (1971)", "Light, R. J. (1971)", "Krippendorff, K. (2011)",
                   "McGraw, K. O., & Wong", "Shrout, P. E., & Fleiss", "Koo, T. K., & Li",
                   "Gwet, K. L. (2008)"):
        assert author in cited


def test_a_realistic_csv_reads_well(tmp_path):
    frame = pd.DataFrame({"patient": ["p01", "p02", "p03", "p04", "p05", "p06"],
                          "nurse": ["mild", "severe", None, "mild", "moderate", "severe"],
                          "doctor": ["mild", "severe", "moderate", "moderate", "moderate",
                                     "severe"],
                          "resident": ["mild", "moderate", "moderate", "mild", None,
                                       "severe"]})
    ag = irr.Agreement.from_frame(frame.set_index("patient"),
                                  categories=["mild", "moderate", "severe"])
    line = report(ag.fleiss_kappa(weights="linear"))
    assert line.startswith("Agreement among nurse, doctor, and resident was ")
    assert "Fleiss' κw (linear weights) = ." in line
    assert "(Wald), n = 6." in line


def test_sparse_crowd_design_is_described_not_called_missing():
    """300 items, 50 annotators, 3 to 5 labels per item: the design, not 13,000 "missing"
    ratings; the annotators counted, not listed; Gwet's generalisation of Fleiss' kappa
    cited where it is used."""
    rng = np.random.default_rng(3)
    rows = []
    for item in range(300):
        truth = rng.choice(["cat", "dog", "bird"])
        for a in rng.choice(50, rng.integers(3, 6), replace=False):
            label = truth if rng.random() < 0.8 else rng.choice(["cat", "dog", "bird"])
            rows.append((f"item{item}", f"annotator_{a:02d}", label))
    long = pd.DataFrame(rows, columns=["item", "annotator", "label"])
    ag = irr.Agreement.from_long(long, subject="item", rater="annotator", rating="label")
    rep = irr.report(ag, statistics="fleiss,alpha", n_resamples=100, figures=False)
    methods = " ".join(rep.methods.split())
    missing = 300 * 50 - len(long)
    assert ("The design was sparse: each subject was rated by 3 to 5 of the 50 raters, so "
            f"the {missing:,} subject-by-rater combinations without a rating are by design, "
            "not missing data.") in methods
    assert "were missing" not in methods
    assert "annotator_0" not in methods
    assert "Fleiss' κ (Fleiss, 1971; Gwet, 2014)" in methods
    assert any(r.startswith("Gwet, K. L. (2014)") for r in rep.references)
