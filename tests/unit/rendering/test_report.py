"""Report sentences (APA and plain) and paper-ready LaTeX/HTML summaries."""

import re

import pytest

import irr
from tests.support.crowd import crowd_labels

SAS = [[10, 4, 1, 0], [5, 10, 12, 2], [2, 4, 12, 5], [0, 2, 6, 13]]


@pytest.fixture
def ag():
    return irr.Agreement.from_table(SAS, names=["reader1", "reader2"])


@pytest.mark.parametrize(
    ("weights", "sentence"),
    [
        (None, "Agreement between reader1 and reader2 was fair, Cohen's κ = .34, 95% CI "
               "[.20, .49] (Wald), n = 88."),
        ("linear", "Agreement between reader1 and reader2 was moderate, Cohen's κw (linear "
                   "weights) = .51, 95% CI [.38, .64] (Wald), n = 88."),
        ("quadratic", "Agreement between reader1 and reader2 was substantial, Cohen's κw "
                      "(quadratic weights) = .66, 95% CI [.54, .78] (Wald), n = 88."),
    ],
)
def test_apa_sentences_for_the_sas_table(ag, weights, sentence):
    assert ag.kappa(weights).report() == sentence
    assert ag.kappa(weights).report(style="apa") == sentence


def test_apa_options(ag):
    res = ag.kappa("quadratic")
    assert res.report(citation=True, test=True) == (
        "Agreement between reader1 and reader2 was substantial (Landis & Koch, 1977), "
        "Cohen's κw (quadratic weights) = .66, 95% CI [.54, .78] (Wald), z = 6.20, p < .001, "
        "n = 88.")
    assert res.report(digits=3) == (
        "Agreement between reader1 and reader2 was substantial, Cohen's κw (quadratic "
        "weights) = .661, 95% CI [.540, .782] (Wald), n = 88.")
    assert res.report(scale="fleiss") == (
        "Agreement between reader1 and reader2 was fair to good, Cohen's κw (quadratic "
        "weights) = .66, 95% CI [.54, .78] (Wald), n = 88.")


def test_plain_sentences(ag):
    assert ag.kappa().report("plain") == (
        "Cohen's kappa between reader1 and reader2 = 0.345 (95% CI 0.203 to 0.487, Wald; "
        "n = 88): fair agreement.")
    assert ag.kappa("quadratic").report("plain", citation=True, test=True) == (
        "Cohen's weighted kappa (quadratic weights) between reader1 and reader2 = 0.661 (95% CI "
        "0.540 to 0.782, Wald; z = 6.20, p < 0.001; n = 88): substantial agreement (Landis & "
        "Koch, 1977).")
    assert ag.percent_agreement().report("plain") == (
        "Percent agreement between reader1 and reader2 = 0.511 (95% CI 0.409 to 0.613, Wilson "
        "score; n = 88).")


def test_results_without_a_band_and_bootstrap_intervals(ag):
    assert ag.percent_agreement().report() == (
        "Percent agreement between reader1 and reader2 was .51, 95% CI [.41, .61] (Wilson "
        "score), n = 88.")
    boot = ag.kappa(ci="bca", n_resamples=999, rng=0)
    assert re.fullmatch(
        r"Agreement between reader1 and reader2 was fair, Cohen's κ = \.34, 95% CI "
        r"\[\.\d\d, \.\d\d\] \(BCa bootstrap, 999 resamples\), n = 88\.", boot.report())


def test_missing_and_undefined_and_many_raters():
    with pytest.warns(irr.DegenerateDataWarning):
        res = irr.Agreement([1, 1, 1, None], [1, 1, 1, 1]).kappa()
    assert res.report() == (
        "Agreement between rater1 and rater2 could not be estimated: Cohen's κ is undefined "
        "(n = 3 (1 left out for a missing rating)).")
    ok = irr.Agreement([1, 2, 2, 1, None], [1, 2, 1, 1, 2]).kappa()
    assert ok.report().endswith("n = 4 (1 left out for a missing rating).")


def test_error_rate_sentence():
    res = irr.Agreement.from_frame(irr.datasets.load("vision")).error_rate_test(
        0.35, alternative="less")
    assert res.report() == (
        "The error rate between r.eye and l.eye was ε = .29, one-sided 95% upper confidence "
        "bound .30 (Clopper-Pearson), 2,181 errors in n = 7,477; exact binomial test of "
        "ε0 = .35 (less), p < .001.")
    # scipy.stats.beta.ppf(0.95, 2182, 5296) = 0.30047: the one-sided Clopper-Pearson bound
    assert res.ci.high == pytest.approx(0.30047, abs=5e-5)
    # 'greater': a lower bound, not "95% CI [.01, 1.00]"; beta.ppf(0.05, 2, 56) = 0.00627
    two = irr.error_rate_test(errors=2, n=57, epsilon0=0.10, alternative="greater")
    assert "one-sided 95% lower confidence bound .01 (Clopper-Pearson)" in two.report()
    assert "CI [" not in two.report()


def test_bad_report_arguments(ag):
    with pytest.raises(ValueError, match="`style` must be one of"):
        ag.kappa().report("mla")
    with pytest.raises(ValueError, match="`digits`"):
        ag.kappa().report(digits=-1)


def test_latex_and_html_are_paper_ready():
    ag = irr.Agreement([1, 2, 3, 3, 2, 1, 1], [1, 2, 3, 2, 2, 1, 3],
                       names=["reader_1", "r&2%"])
    latex = ag.summary().as_latex()
    assert latex.count("\\begin{tabular}") == latex.count("\\end{tabular}") == 3
    assert latex.count("\\begin{center}") == latex.count("\\end{center}")
    body = "\n".join(line for line in latex.splitlines() if not line.startswith("%"))
    assert "reader\\_1, r\\&2\\%" in body
    for line in body.splitlines():
        if line.rstrip().endswith("\\\\") and "&" in line:
            cells = re.split(r"(?<!\\)&", line)
            assert len(cells) in (4, 7, 8, 3)  # 8: a CI method column
    vision = irr.Agreement.from_frame(irr.datasets.load("vision")).summary()
    assert "\\textless{}0.0001" in vision.as_latex()  # a bare < is ¡ in OT1 fonts
    html = vision.as_html()
    assert "&lt;0.0001" in html
    assert "<td><0.0001" not in html
    assert html.count("<table") == html.count("</table>") == 3


def test_sparse_design_is_the_header_fact_not_missing_ratings():
    """50 annotators, 3 to 5 per item: the text header, the data facts and the methods
    paragraph describe the design; none counts its 13,000 empty cells as missing ratings,
    and no count is named by a word that means another count."""
    long = crowd_labels()
    ag = irr.Agreement.from_long(long, subject="item", rater="annotator", rating="label")
    rep = irr.report(ag, statistics="fleiss,percent", figures=False)
    text = str(rep)
    header = text.split("estimate")[0]
    assert "Design: sparse, each subject rated by 3 to 5 of 50 raters" in " ".join(
        header.split())
    assert "Missing ratings" not in header
    assert "missing a rating" not in header
    empty = 300 * 50 - len(long)
    facts = dict(rep.data.facts())
    assert "Missing ratings" not in facts
    assert facts["Design"] == (f"sparse, each subject rated by 3 to 5 of 50 raters ({empty:,} "
                               "of 15,000 subject-rater cells empty by design)")
    assert f"Ratings: {len(long):,}" in rep.to_markdown()
    methods = " ".join(rep.methods.split())
    assert "Missing ratings:" not in methods
    assert ("Subject-by-rater combinations without a rating: Fleiss' κ and mean pairwise "
            "percent agreement used every available rating.") in methods
    # a design where a few ratings are missing still says so
    dense = irr.report(irr.datasets.load("cac_raw4raters"), statistics="fleiss",
                       figures=False)
    assert "Missing ratings" in dict(dense.data.facts())
    assert "Design" not in dict(dense.data.facts())
