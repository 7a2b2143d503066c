"""Results in words: report sentences, a methods paragraph and references for papers.

Nothing here computes a statistic: every number and every clause comes from a result's
fields (its symbol, weights, level, ICC form, interval, counts and notes).
"""

from __future__ import annotations

import math
import re
from collections.abc import Sequence
from typing import Any, NamedTuple

from irr._numbers import format_df, format_interval, format_number, format_pvalue
from irr._result_protocol import ResultLike
from irr._validation import check_choice, check_integer
from irr._version import __version__
from irr.bands import get_scale, interpret
from irr.coefficients.icc import form_description, shrout_fleiss_name
from irr.summary import sparse_design
from irr.vocabulary import interval_name

__all__ = ["band_and_citation", "methods_paragraph", "references", "report", "report_sentences",
           "statistic_name"]

STYLES = ("apa", "plain")
SCALE_TYPES = ("nominal", "ordinal", "continuous")

#: The package as the methods paragraph and the reference list cite it.
SOFTWARE_AUTHOR = "The irr developers"  # pyproject.toml's authors
SOFTWARE_CITATION = f"{SOFTWARE_AUTHOR}, n.d."
SOFTWARE_REFERENCE = (f"{SOFTWARE_AUTHOR}. (n.d.). irr (irrstats): Inter-rater reliability "
                      f"and agreement (Version {__version__}) [Computer software].")

#: Full APA 7 entries of the works sentences and paragraphs cite, by key.
REFERENCES = {
    "cohen1960": "Cohen, J. (1960). A coefficient of agreement for nominal scales. Educational "
                 "and Psychological Measurement, 20(1), 37–46. "
                 "https://doi.org/10.1177/001316446002000104",
    "cohen1968": "Cohen, J. (1968). Weighted kappa: Nominal scale agreement provision for "
                 "scaled disagreement or partial credit. Psychological Bulletin, 70(4), "
                 "213–220. https://doi.org/10.1037/h0026256",
    "cameron2015": "Cameron, A. C., & Miller, D. L. (2015). A practitioner's guide to "
                   "cluster-robust inference. Journal of Human Resources, 50(2), 317–372. "
                   "https://doi.org/10.3368/jhr.50.2.317",
    "fce1969": "Fleiss, J. L., Cohen, J., & Everitt, B. S. (1969). Large sample standard "
               "errors of kappa and weighted kappa. Psychological Bulletin, 72(5), 323–327. "
               "https://doi.org/10.1037/h0028106",
    "fleiss1971": "Fleiss, J. L. (1971). Measuring nominal scale agreement among many raters. "
                  "Psychological Bulletin, 76(5), 378–382. https://doi.org/10.1037/h0031619",
    "scott1955": "Scott, W. A. (1955). Reliability of content analysis: The case of nominal "
                 "scale coding. Public Opinion Quarterly, 19(3), 321–325. "
                 "https://doi.org/10.1086/266577",
    "conger1980": "Conger, A. J. (1980). Integration and generalization of kappas for multiple "
                  "raters. Psychological Bulletin, 88(2), 322–328. "
                  "https://doi.org/10.1037/0033-2909.88.2.322",
    "light1971": "Light, R. J. (1971). Measures of response agreement for qualitative data: "
                 "Some generalizations and alternatives. Psychological Bulletin, 76(5), "
                 "365–377. https://doi.org/10.1037/h0031643",
    "gwet2008": "Gwet, K. L. (2008). Computing inter-rater reliability and its variance in "
                "the presence of high agreement. British Journal of Mathematical and "
                "Statistical Psychology, 61(1), 29–48. "
                "https://doi.org/10.1348/000711006X126600",
    "gwet2014": "Gwet, K. L. (2014). Handbook of inter-rater reliability (4th ed.). Advanced "
                "Analytics, LLC.",
    "bangdiwala1985": "Bangdiwala, S. I. (1985). A graphical test for observer agreement. "
                      "Proceedings of the 45th Session of the International Statistical "
                      "Institute, 1, 307–308.",
    "brennan1981": "Brennan, R. L., & Prediger, D. J. (1981). Coefficient kappa: Some uses, "
                   "misuses, and alternatives. Educational and Psychological Measurement, "
                   "41(3), 687–699. https://doi.org/10.1177/001316448104100307",
    "krippendorff2011": "Krippendorff, K. (2011). Computing Krippendorff's alpha-reliability. "
                        "University of Pennsylvania. https://repository.upenn.edu/asc_papers/43",
    "cronbach1951": "Cronbach, L. J. (1951). Coefficient alpha and the internal structure of "
                    "tests. Psychometrika, 16(3), 297–334. https://doi.org/10.1007/BF02310555",
    "feldt1987": "Feldt, L. S., Woodruff, D. J., & Salih, F. A. (1987). Statistical inference "
                 "for coefficient alpha. Applied Psychological Measurement, 11(1), 93–103. "
                 "https://doi.org/10.1177/014662168701100107",
    "mcgraw1996": "McGraw, K. O., & Wong, S. P. (1996). Forming inferences about some "
                  "intraclass correlation coefficients. Psychological Methods, 1(1), 30–46. "
                  "https://doi.org/10.1037/1082-989X.1.1.30",
    "shrout1979": "Shrout, P. E., & Fleiss, J. L. (1979). Intraclass correlations: Uses in "
                  "assessing rater reliability. Psychological Bulletin, 86(2), 420–428. "
                  "https://doi.org/10.1037/0033-2909.86.2.420",
    "kendall1939": "Kendall, M. G., & Babington Smith, B. (1939). The problem of m rankings. "
                   "The Annals of Mathematical Statistics, 10(3), 275–287. "
                   "https://doi.org/10.1214/aoms/1177732186",
    "efron1987": "Efron, B. (1987). Better bootstrap confidence intervals. Journal of the "
                 "American Statistical Association, 82(397), 171–185. "
                 "https://doi.org/10.1080/01621459.1987.10478410",
    "wilson1927": "Wilson, E. B. (1927). Probable inference, the law of succession, and "
                  "statistical inference. Journal of the American Statistical Association, "
                  "22(158), 209–212. https://doi.org/10.1080/01621459.1927.10502953",
    # continuous measurements
    "ba1986": "Bland, J. M., & Altman, D. G. (1986). Statistical methods for assessing "
              "agreement between two methods of clinical measurement. The Lancet, "
              "327(8476), 307–310. https://doi.org/10.1016/S0140-6736(86)90837-8",
    "ba1996": "Bland, J. M., & Altman, D. G. (1996). Measurement error. BMJ, 313(7059), 744. "
              "https://doi.org/10.1136/bmj.313.7059.744",
    "ba1999": "Bland, J. M., & Altman, D. G. (1999). Measuring agreement in method comparison "
              "studies. Statistical Methods in Medical Research, 8(2), 135–160. "
              "https://doi.org/10.1177/096228029900800204",
    "ba2007": "Bland, J. M., & Altman, D. G. (2007). Agreement between methods of measurement "
              "with multiple observations per individual. Journal of Biopharmaceutical "
              "Statistics, 17(4), 571–582. https://doi.org/10.1080/10543400701329422",
    "barnhart2002": "Barnhart, H. X., Haber, M., & Song, J. (2002). Overall concordance "
                    "correlation coefficient for evaluating agreement among multiple "
                    "observers. Biometrics, 58(4), 1020–1027. "
                    "https://doi.org/10.1111/j.0006-341X.2002.01020.x",
    "carkeet2015": "Carkeet, A. (2015). Exact parametric confidence intervals for "
                   "Bland-Altman limits of agreement. Optometry and Vision Science, 92(3), "
                   "e71–e80. https://doi.org/10.1097/OPX.0000000000000513",
    "carrasco2003": "Carrasco, J. L., & Jover, L. (2003). Estimating the generalized "
                    "concordance correlation coefficient through variance components. "
                    "Biometrics, 59(4), 849–858. "
                    "https://doi.org/10.1111/j.0006-341X.2003.00099.x",
    "carrasco2009": "Carrasco, J. L., King, T. S., & Chinchilli, V. M. (2009). The "
                    "concordance correlation coefficient for repeated measures estimated by "
                    "variance components. Journal of Biopharmaceutical Statistics, 19(1), "
                    "90–105. https://doi.org/10.1080/10543400802527890",
    "devet2006": "de Vet, H. C. W., Terwee, C. B., Knol, D. L., & Bouter, L. M. (2006). When "
                 "to use agreement versus reliability measures. Journal of Clinical "
                 "Epidemiology, 59(10), 1033–1039. "
                 "https://doi.org/10.1016/j.jclinepi.2005.10.015",
    "henderson1953": "Henderson, C. R. (1953). Estimation of variance and covariance "
                     "components. Biometrics, 9(2), 226–252.",
    "lin1989": "Lin, L. I.-K. (1989). A concordance correlation coefficient to evaluate "
               "reproducibility. Biometrics, 45(1), 255–268. https://doi.org/10.2307/2532051",
    "lin2000ccc": "Lin, L. I.-K. (2000). A note on the concordance correlation coefficient. "
                  "Biometrics, 56(1), 324–325. "
                  "https://doi.org/10.1111/j.0006-341X.2000.00324.x",
    "lin2000tdi": "Lin, L. I.-K. (2000). Total deviation index for measuring individual "
                  "agreement with applications in laboratory performance and "
                  "bioequivalence. Statistics in Medicine, 19(2), 255–270.",
    "lin2002": "Lin, L., Hedayat, A. S., Sinha, B., & Yang, M. (2002). Statistical methods in "
               "assessing agreement: Models, issues, and tools. Journal of the American "
               "Statistical Association, 97(457), 257–270. "
               "https://doi.org/10.1198/016214502753479392",
    "linnet1993": "Linnet, K. (1993). Evaluation of regression procedures for methods "
                  "comparison studies. Clinical Chemistry, 39(3), 424–432. "
                  "https://doi.org/10.1093/clinchem/39.3.424",
    "passing1983": "Passing, H., & Bablok, W. (1983). A new biometrical procedure for testing "
                   "the equality of measurements from two different analytical methods. "
                   "Journal of Clinical Chemistry and Clinical Biochemistry, 21(11), "
                   "709–720. https://doi.org/10.1515/cclm.1983.21.11.709",
    "satterthwaite1946": "Satterthwaite, F. E. (1946). An approximate distribution of "
                         "estimates of variance components. Biometrics Bulletin, 2(6), "
                         "110–114. https://doi.org/10.2307/3002019",
    "shieh2018": "Shieh, G. (2018). The appropriateness of Bland-Altman's approximate "
                 "confidence intervals for limits of agreement. BMC Medical Research "
                 "Methodology, 18, Article 45. https://doi.org/10.1186/s12874-018-0505-y",
    "zou2013": "Zou, G. Y. (2013). Confidence interval estimation for the Bland-Altman limits "
               "of agreement with multiple observations per individual. Statistical Methods "
               "in Medical Research, 22(6), 630–642. "
               "https://doi.org/10.1177/0962280211402548",
}

#: In-text citations of the REFERENCES keys.
_CITE = {
    "cohen1960": "Cohen, 1960", "cohen1968": "Cohen, 1968", "fce1969": "Fleiss et al., 1969",
    "cameron2015": "Cameron & Miller, 2015",
    "fleiss1971": "Fleiss, 1971", "scott1955": "Scott, 1955", "conger1980": "Conger, 1980",
    "light1971": "Light, 1971", "gwet2008": "Gwet, 2008", "gwet2014": "Gwet, 2014",
    "bangdiwala1985": "Bangdiwala, 1985",
    "brennan1981": "Brennan & Prediger, 1981", "krippendorff2011": "Krippendorff, 2011",
    "mcgraw1996": "McGraw & Wong, 1996", "shrout1979": "Shrout & Fleiss, 1979",
    "cronbach1951": "Cronbach, 1951", "feldt1987": "Feldt et al., 1987",
    "kendall1939": "Kendall & Babington Smith, 1939", "efron1987": "Efron, 1987",
    "wilson1927": "Wilson, 1927",
    "ba1986": "Bland & Altman, 1986", "ba1996": "Bland & Altman, 1996",
    "ba1999": "Bland & Altman, 1999", "ba2007": "Bland & Altman, 2007",
    "barnhart2002": "Barnhart et al., 2002", "carkeet2015": "Carkeet, 2015",
    "carrasco2003": "Carrasco & Jover, 2003", "carrasco2009": "Carrasco et al., 2009",
    "devet2006": "de Vet et al., 2006", "henderson1953": "Henderson, 1953",
    "lin1989": "Lin, 1989", "lin2000ccc": "Lin, 2000", "lin2000tdi": "Lin, 2000",
    "lin2002": "Lin et al., 2002", "linnet1993": "Linnet, 1993",
    "passing1983": "Passing & Bablok, 1983", "satterthwaite1946": "Satterthwaite, 1946",
    "shieh2018": "Shieh, 2018", "zou2013": "Zou, 2013",
}

#: Works of one author and year: APA tells them apart by a letter when both are cited.
_SAME_YEAR = {"lin2000ccc": "a", "lin2000tdi": "b"}


def _cite(key: str, cited: Any = ()) -> str:
    """The in-text citation of `key`, with its year's letter when the works `cited` hold
    another of the same author and year (``Lin, 2000a``)."""
    text = _CITE[key]
    if key in _SAME_YEAR and all(k in cited for k in _SAME_YEAR):
        text += _SAME_YEAR[key]
    return text


def _entry(key: str, cited: Any = ()) -> str:
    """The reference entry of `key`, its year lettered as :func:`_cite` letters it."""
    entry = REFERENCES[key]
    if key in _SAME_YEAR and all(k in cited for k in _SAME_YEAR):
        head, sep, tail = entry.partition("). ")
        entry = f"{head}{_SAME_YEAR[key]}{sep}{tail}"
    return entry


class _Family(NamedTuple):
    """A statistic family: its APA and plain names (unweighted, weighted), its citations,
    and how its estimator treats a missing rating."""

    apa: str
    apa_weighted: str
    plain: str
    plain_weighted: str
    cites: tuple[str, ...]
    missing: str  # 'listwise', 'pairs' (each rater pair), 'available' (every rating)


#: Families by the symbol their estimators set.
_FAMILIES = {
    "κ": _Family("Cohen's κ", "Cohen's κw", "Cohen's kappa", "Cohen's weighted kappa",
                 ("cohen1960",), "listwise"),
    "κw": _Family("Cohen's κ", "Cohen's κw", "Cohen's kappa", "Cohen's weighted kappa",
                  ("cohen1968",), "listwise"),
    "κF": _Family("Fleiss' κ", "Fleiss' κw", "Fleiss' kappa", "Fleiss' weighted kappa",
                  ("fleiss1971",), "available"),
    "π": _Family("Scott's π", "Scott's πw", "Scott's pi", "Scott's weighted pi",
                 ("scott1955",), "available"),
    "κC": _Family("Conger's κ", "Conger's κw", "Conger's kappa", "Conger's weighted kappa",
                  ("conger1980",), "available"),
    "κL": _Family("Light's κ", "Light's κw", "Light's kappa", "Light's weighted kappa",
                  ("light1971",), "pairs"),
    "AC1": _Family("Gwet's AC1", "Gwet's AC2", "Gwet's AC1", "Gwet's AC2", ("gwet2008",),
                   "available"),
    "AC2": _Family("Gwet's AC1", "Gwet's AC2", "Gwet's AC1", "Gwet's AC2", ("gwet2014",),
                   "available"),
    "κBP": _Family("Brennan-Prediger κ", "Brennan-Prediger κw", "Brennan-Prediger kappa",
                   "Brennan-Prediger weighted kappa", ("brennan1981",), "available"),
    "B": _Family("Bangdiwala's B", "Bangdiwala's weighted B", "Bangdiwala's B",
                 "Bangdiwala's weighted B", ("bangdiwala1985",), "listwise"),
    "Bw": _Family("Bangdiwala's weighted B", "Bangdiwala's weighted B",
                  "Bangdiwala's weighted B", "Bangdiwala's weighted B",
                  ("bangdiwala1985",), "listwise"),
    "W": _Family("Kendall's W", "Kendall's W", "Kendall's W", "Kendall's W", ("kendall1939",),
                 "listwise"),
    "po": _Family("percent agreement", "percent agreement", "percent agreement",
                  "percent agreement", (), "listwise"),
    "pa(pairwise)": _Family("mean pairwise percent agreement",
                            "mean pairwise weighted percent agreement",
                            "mean pairwise percent agreement",
                            "mean pairwise weighted percent agreement", ("gwet2014",),
                            "available"),
    "Cronbach's α": _Family("Cronbach's α", "", "Cronbach's alpha", "",
                            ("cronbach1951", "feldt1987"), "listwise"),
    "pa(all)": _Family("percent agreement of all raters", "", "percent agreement of all "
                       "raters", "", (), "listwise"),
}

class _Measure(NamedTuple):
    """A statistic of continuous measurements: its full name for the methods paragraph
    (APA, plain), its short name for sentences and later mentions (APA, plain), its
    citations, and how its estimator treats a missing measurement."""

    full: str
    full_plain: str
    short: str
    short_plain: str
    cites: tuple[str, ...]
    missing: str


def _measure(result: Any) -> _Measure | None:
    """The description of a result of continuous measurements (None for the others);
    results are recognised by their fields, as everywhere in this module."""
    if hasattr(result, "limit_ci_method"):  # Bland-Altman limits of agreement
        what = {"percent": " of the percentage differences",
                "ratio": " of the ratios"}.get(result.measure, "")
        kind = {"regression": "regression-based ", "nonparametric": "nonparametric "}.get(
            result.method, "")
        cites = ["ba1986"]
        if result.method != "parametric" or result.measure != "difference":
            cites.append("ba1999")
        if result.design != "single":
            cites.append("ba2007")
        pct = f"{100 * result.coverage:g}%"
        single = "" if result.design == "single" else " of single readings"  # replicates
        full = f"Bland–Altman {kind}{pct} limits of agreement{what}{single}"
        return _Measure(full, full, "the limits of agreement", "the limits of agreement",
                        tuple(cites), "listwise")
    if hasattr(result, "se_z") and hasattr(result, "pearson_r"):  # a CCC
        if result.method == "overall" and result.n_raters > 2:
            return _Measure("the overall concordance correlation coefficient (overall ρc)",
                            "the overall concordance correlation coefficient",
                            "overall ρc", "overall CCC", ("lin1989", "barnhart2002"),
                            "listwise")
        if result.method == "variance-components":
            cites = ("carrasco2003", "carrasco2009") if result.replicates > 1 else (
                "carrasco2003",)
            return _Measure("the concordance correlation coefficient by variance components "
                            "(ρc)", "the concordance correlation coefficient by variance "
                            "components", "ρc", "CCC", cites, "available")
        return _Measure("Lin's concordance correlation coefficient (ρc)",
                        "Lin's concordance correlation coefficient", "ρc", "Lin's CCC",
                        ("lin1989", "lin2000ccc"), "listwise")
    if hasattr(result, "tdi_exact"):
        pct = f"{100 * result.p:g}%"
        return _Measure(f"the total deviation index ({result.symbol})",
                        f"the {pct} total deviation index", result.symbol,
                        f"TDI ({pct})", ("lin2000tdi", "lin2002"), "listwise")
    if hasattr(result, "delta") and hasattr(result, "observed"):  # coverage probability
        delta = f"{result.delta:g}"
        return _Measure(f"the coverage probability of |difference| < {delta} "
                        f"(CP(δ = {delta}))",
                        f"the coverage probability of |difference| < {delta}",
                        f"CP(δ = {delta})", f"CP (delta = {delta})", ("lin2002",),
                        "listwise")
    if hasattr(result, "linearity_pvalue"):  # method-comparison regression
        if result.method == "deming":
            return _Measure("Deming regression", "Deming regression", "Deming regression",
                            "Deming regression", ("linnet1993",), "listwise")
        return _Measure("Passing–Bablok regression", "Passing–Bablok regression",
                        "Passing–Bablok regression", "Passing–Bablok regression",
                        ("passing1983",), "listwise")
    if hasattr(result, "quantities") and hasattr(result, "sigma2_error"):  # SEM
        symbols = {q.symbol for q in result.quantities}
        full = (f"the standard error of measurement (SEM; {result.type}) with its smallest "
                "detectable change (SDC)")
        cites: tuple[str, ...] = ("devet2006",)
        if "s_w" in symbols:
            full = (f"the standard error of measurement (SEM; {result.type}), its smallest "
                    "detectable change (SDC), the within-subject SD and the repeatability "
                    "coefficient")
            cites = ("devet2006", "ba1996")
        if any(symbol.startswith("s_w[") for symbol in symbols):  # per rater and pooled
            full += " of each rater or method and pooled over them"
            cites = ("devet2006", "ba1996", "ba1999")
        return _Measure(full, full, "the SEM and SDC", "the SEM and SDC", cites, "available")
    return None


def _count(n: float) -> str:
    """A count with thousands separators: ``7,477``."""
    return f"{int(n):,}"


def _list(names: Sequence[str]) -> str:
    """``a``, ``a and b``, ``a, b, and c``."""
    names = list(names)
    if len(names) <= 2:
        return " and ".join(names)
    return f"{', '.join(names[:-1])}, and {names[-1]}"


def _who(raters: Sequence[str], unrated: Sequence[str] = (), max_names: int = 3) -> str:
    """`` between a and b`` / `` among a, b, and c`` / `` among the 5 raters``, leaving out
    the raters who gave no rating."""
    raters = [r for r in raters if r not in set(unrated)]
    if len(raters) == 2:
        return f" between {raters[0]} and {raters[1]}"
    if 2 < len(raters) <= max_names:
        return f" among {_list(raters)}"
    if len(raters) > max_names:
        return f" among the {len(raters)} raters"
    return ""


def band_and_citation(result: ResultLike, scale: Any) -> tuple[str, str]:
    """The band label and the scale's in-text citation ("" when there is no scale)."""
    chosen = result.scale if scale is None else scale
    if chosen is None or not math.isfinite(result.estimate):
        return "", ""
    resolved = get_scale(chosen)
    if not resolved.lower <= result.estimate <= resolved.upper:
        return "", ""
    return interpret(result.estimate, resolved).label, resolved.attribution


def _tolerance(symbol: str) -> tuple[str, str]:
    """A percent-agreement symbol without its tolerance, and the tolerance (``"±1"``)."""
    if "±" not in symbol:
        return symbol, ""
    head, within = symbol.split("±", 1)
    within = "±" + within.rstrip(")")
    base = head.rstrip(", (")
    return (base + ")" if "(" in base else base), within


def _family(result: Any) -> _Family | None:
    return _FAMILIES.get(_tolerance(result.symbol)[0])


def _weights(result: Any) -> str:
    """The weight scheme of a weighted result (``""`` when unweighted)."""
    weights = getattr(result, "weights", "unweighted")
    if weights in ("unweighted", "tolerance", None):
        return ""
    # kappaetc's words for its parametric schemes: power:3 -> "power 3"
    return str(weights).replace(":", " ")


def statistic_name(result: ResultLike, style: str = "apa") -> str:
    """The statistic's name as a sentence gives it, unambiguous within a report.

    The weights of a weighted coefficient, the level of Krippendorff's alpha, the ICC form
    (McGraw & Wong's notation, its words, and Shrout & Fleiss' name), the definition and
    tolerance of percent agreement: two results of different forms never share a name.

    Parameters
    ----------
    result : Result
        Any result of the package.
    style : {'apa', 'plain'}, default 'apa'
        ``'apa'`` uses symbols (``"Cohen's κw (quadratic weights)"``), ``'plain'`` words
        (``"Cohen's weighted kappa (quadratic weights)"``).

    Returns
    -------
    str

    Examples
    --------
    >>> import irr
    >>> ag = irr.Agreement.from_frame(irr.datasets.load("anxiety"))
    >>> statistic_name(ag.icc("twoway", "agreement", "single"))
    'ICC(A,1) (two-way random effects, absolute agreement, single rater; ICC(2,1))'
    >>> statistic_name(ag.fleiss_kappa(weights="linear"))
    "Fleiss' κw (linear weights)"
    >>> statistic_name(ag.krippendorff_alpha("interval", n_resamples=100, rng=0), "plain")
    "Krippendorff's interval alpha"
    """
    check_choice(style, "style", STYLES)
    apa = style == "apa"
    if hasattr(result, "mcgraw_wong"):  # an ICC
        k = result.n_raters
        sf = shrout_fleiss_name(result.model, result.type, result.unit, k)
        words = form_description(result.model, result.type, result.unit, k)
        if getattr(result, "replicate_means", 0):
            words += (f"'s mean of up to {result.replicate_means} readings"
                      if result.unit == "single"
                      else f"' means of up to {result.replicate_means} readings each")
        return f"{result.form_name} ({words}; {sf})"
    if hasattr(result, "level") and result.symbol == "α":
        level = "custom-metric" if result.level == "custom" else result.level
        return f"Krippendorff's {level} {'α' if apa else 'alpha'}"
    if hasattr(result, "null_hypothesis"):  # McNemar, Bowker, Stuart-Maxwell, Cochran's Q
        return _test_name(result)
    measure = _measure(result)
    if measure is not None:
        return (measure.short if apa else measure.short_plain).removeprefix("the ")
    family = _family(result)
    if family is None:  # results without a family: their own name
        return result.symbol if apa else result.coefficient
    weights = _weights(result)
    if weights:
        name = family.apa_weighted if apa else family.plain_weighted
        return f"{name} ({weights} weights)"
    name = family.apa if apa else family.plain
    within = _tolerance(result.symbol)[1]
    return f"{name} within {within}" if within else name


def _interval_method(result: Any) -> str:
    """The interval's method in words, with the bootstrap's resamples and a design's t
    quantiles: ``"BCa bootstrap, 9,999 resamples"``, ``"Wald"``, ``"exact F"``."""
    ci = result.ci
    name = interval_name(ci.method)
    if ci.method == "exact" and hasattr(result, "mcgraw_wong"):  # one-way, consistency ICC
        name = "exact F"
    resamples = result.n_resamples
    if ci.method == "wald" and math.isfinite(resamples):  # alpha: a bootstrap SE
        name += f", bootstrap SE from {_count(resamples)} resamples"
    elif math.isfinite(resamples):
        name += f", {_count(resamples)} resamples"
    details = [_unnested(part) for part in ci.note.split("; ")  # t quantiles, another SE
               if part.startswith("t quantiles") or (part.startswith("on the ") and " SE" in part)]
    if details:  # the method's own detail after a comma, the others after semicolons
        name += ("; " if ", " in name else ", ") + "; ".join(details)
    return name


def _unnested(label: str) -> str:
    """An SE label without parentheses, for a clause that sits in parentheses:
    ``on the SE corrected for a finite population of N = 80`` for ``on the SE
    finite-population corrected (N = 80)``.

    Examples
    --------
    >>> _unnested("on the unconditional SE (subjects and raters), finite-population "
    ...           "corrected (N = 80)")
    'on the unconditional SE over subjects and raters, corrected for a finite population of N = 80'
    >>> _unnested("on the SE over raters (jackknife)")
    'on the jackknife SE over raters'
    >>> _unnested("on the SE finite-population corrected (N = 80), raters finite-population "
    ...           "corrected (R = 10)")
    'on the SE corrected for finite populations of N = 80 subjects and R = 10 raters'
    """
    label = re.sub(r"finite-population corrected \(N = ([^()]*)\), raters finite-population "
                   r"corrected \(R = ([^()]*)\)",
                   r"corrected for finite populations of N = \1 subjects and R = \2 raters", label)
    label = re.sub(r"raters finite-population corrected \(R = ([^()]*)\)",
                   r"corrected for a finite population of R = \1 raters", label)
    label = re.sub(r"finite-population corrected \(N = ([^()]*)\)",
                   r"corrected for a finite population of N = \1", label)
    label = label.replace("SE over raters (jackknife)", "jackknife SE over raters")
    return label.replace("SE (subjects and raters)", "SE over subjects and raters")


def _interval_key(result: Any) -> tuple[float, str] | None:
    """What a sentence's interval is (level and method), None when it has none."""
    ci = result.ci
    if not (math.isfinite(ci.low) or math.isfinite(ci.high)):
        return None
    return ci.confidence_level, _interval_method(result)


def report(
    result: ResultLike,
    style: str = "apa",
    *,
    digits: int | None = None,
    scale: Any = None,
    citation: bool = False,
    test: bool = False,
) -> str:
    """One sentence reporting a result, ready for a paper.

    Parameters
    ----------
    result : Result
        Any result of the package.
    style : {'apa', 'plain'}, default 'apa'
        ``'apa'``: APA 7 numbers. Statistics that cannot exceed 1 (kappas, alpha, the ICC,
        AC1/AC2, W, proportions; those whose ``bounds`` end at 1 or below) lose the zero
        before the decimal point (κ = .66); confidence intervals are ``95% CI [.54, .78]``
        followed by their method; p-values are exact to three decimals or ``p < .001``;
        counts have thousands separators. ``'plain'``: words, leading zeros,
        ``95% CI 0.542 to 0.779``.
    digits : int, optional
        Decimals of the estimate and interval; default 2 (APA) or 3 (plain).
    scale : str or Scale, optional
        The benchmark scale naming the band; default the result's own (Landis & Koch
        for kappas). Results without a scale get no band.
    citation : bool, default False
        Cite the scale after the band, e.g. "substantial (Landis & Koch, 1977)".
    test : bool, default False
        Add the result's test (``z``, ``F``, ``χ²`` or ``t`` with its degrees of freedom,
        and the p-value) when it has one. A test of a value other than 0 (``null=``,
        ``r0=``) is always added, with its H0 (e.g. "(H0: κ = .40)").

    Returns
    -------
    str

    Notes
    -----
    The statistic is named so that no two forms read alike (:func:`statistic_name`);
    the interval states its level and method (``95% CI [.54, .78] (Wald)``,
    ``(BCa bootstrap, 9,999 resamples)``, ``(approximate F, Satterthwaite df)``). The band
    is that of the point estimate; the interval says how sure it is. An undefined estimate
    (nan) is reported as such, with the number of subjects. Subjects left out for a
    missing rating are counted after ``n``. :func:`report_sentences` reports several
    results.

    Examples
    --------
    >>> import irr
    >>> ag = irr.Agreement.from_table([[10, 4, 1, 0], [5, 10, 12, 2],
    ...                                [2, 4, 12, 5], [0, 2, 6, 13]],
    ...                               names=["reader1", "reader2"])
    >>> ag.kappa(weights="quadratic").report()  # doctest: +NORMALIZE_WHITESPACE
    "Agreement between reader1 and reader2 was substantial, Cohen's κw (quadratic weights)
    = .66, 95% CI [.54, .78] (Wald), n = 88."
    """
    return report_sentences([result], style, digits=digits, scale=scale, citation=citation,
                            test=test)[0]


def report_sentences(
    results: Sequence[ResultLike],
    style: str = "apa",
    *,
    digits: int | None = None,
    scale: Any = None,
    citation: bool = False,
    test: bool = False,
) -> list[str]:
    """One sentence per result, in one style, each naming its interval's method.

    Every sentence states its interval's level and method (``95% CI [.58, .61] (Wald)``,
    ``(BCa bootstrap, 9,999 resamples)``), even when the sentences before it share that
    method: a sentence copied alone into a paper still says how its interval was computed.

    Parameters
    ----------
    results : sequence of Result
        The results, in the order of the sentences.
    style, digits, scale, citation, test
        As for :func:`report`.

    Returns
    -------
    list of str

    Examples
    --------
    >>> import irr
    >>> ag = irr.Agreement.from_frame(irr.datasets.load("vision"), raters=["r.eye", "l.eye"])
    >>> for line in report_sentences([ag.kappa(), ag.kappa(weights="linear"),
    ...                               ag.percent_agreement()]):  # doctest: +NORMALIZE_WHITESPACE
    ...     print(line)
    Agreement between r.eye and l.eye was moderate, Cohen's κ = .60, 95% CI [.58, .61]
    (Wald), n = 7,477.
    Agreement between r.eye and l.eye was substantial, Cohen's κw (linear weights) = .65,
    95% CI [.64, .67] (Wald), n = 7,477.
    Percent agreement between r.eye and l.eye was .71, 95% CI [.70, .72] (Wilson score),
    n = 7,477.
    """
    check_choice(style, "style", STYLES)
    apa = style == "apa"
    digits = (2 if apa else 3) if digits is None else check_integer(digits, "digits", 0)
    results = _check_results(results)
    out = []
    for result in results:
        if getattr(result, "own_sentence", False):  # several quantities: its own sentence
            out.append(result.report(style))
            continue
        out.append(_sentence(result, apa, digits, scale, citation, test))
    return out


def _check_results(results: Any) -> list[Any]:
    """`results` as a list, or a TypeError naming the item that is not a result."""
    if isinstance(results, (str, bytes)) or not isinstance(results, Sequence):
        raise TypeError(f"`results` must be a sequence of results; got {results!r}.")
    for position, result in enumerate(results):
        if not all(hasattr(result, f) for f in ("symbol", "estimate", "ci", "n_subjects")):
            raise TypeError(f"`results[{position}]` is not a result of this package; got "
                            f"{result!r}.")
    return list(results)


def _bounded(result: Any) -> bool:
    """Whether the statistic cannot exceed 1, so APA drops its leading zero."""
    return result.bounds[1] <= 1.0


def statistic_label(result: Any, style: str = "apa", sample_size: bool = True) -> str:
    """The test statistic's symbol with its degrees of freedom, as APA writes it: ``z``,
    ``t(11)`` (a z statistic referred to t on a design's or n - 1 df is a t),
    ``F(19, 38)``, ``χ²(19, N = 20)`` (``chi2(19)`` in the plain style; without
    `sample_size` the N is left to the table's n column).

    Examples
    --------
    >>> import irr
    >>> ag = irr.Agreement.from_frame(irr.datasets.load("anxiety"))
    >>> statistic_label(ag.fleiss_kappa()), statistic_label(ag.fleiss_kappa(distribution="t"))
    ('z', 't(19)')
    >>> statistic_label(ag.icc()), statistic_label(ag.kendall_w(), sample_size=False)
    ('F(19, 38)', 'χ²(19)')
    """
    check_choice(style, "style", STYLES)
    kind = result.statistic_name
    design_df = getattr(result, "design_df", math.inf)
    if kind in ("z", "t") and math.isfinite(design_df):  # t(n - 1), or a design's df
        return f"t({format_df(design_df)})"
    if kind == "F" and hasattr(result, "df1"):
        df2 = result.df2  # Satterthwaite's (not whole) for an ICC(A) test of r0 != 0
        return f"F({format_df(result.df1)}, {format_df(df2)})"
    if kind == "chi2" and hasattr(result, "df"):
        if style == "plain":
            return f"chi2({format_df(result.df)})"
        n = f", N = {_count(result.n_subjects)}" if sample_size else ""
        return f"χ²({format_df(result.df)}{n})"
    return kind


def _test_text(result: Any, apa: bool, num: Any) -> str:
    """``z = 6.20, p < .001``, ``F(19, 38) = 1.83, p = .056``, ``χ²(19, N = 20) = 30.76,
    p = .043``, ``t(11) = 2.10, p = .060``; "" when the result has no test."""
    if not (math.isfinite(result.statistic) and math.isfinite(result.pvalue)):
        return ""
    value = format_number(result.statistic, 2)
    p = format_pvalue(result.pvalue, apa=apa)
    kind = result.statistic_name
    label = statistic_label(result, "apa" if apa else "plain")
    # F and chi-square tests are upper-tailed by construction; z and t say when one-sided
    sided = "" if result.alternative == "two-sided" or kind in ("F", "chi2") else ", one-sided"
    null = getattr(result, "null_value", 0.0)
    # a test of a value other than 0 names it (null=, kappaetc's testvalue, irr's r0)
    against = f" (H0: {result.symbol} = {num(null)})" if null else ""
    return f"{label} = {value}, {p}{sided}{against}"


def _sentence(result: Any, apa: bool, digits: int, scale: Any, citation: bool,
              test: bool) -> str:
    """One result's sentence, its interval named by its method."""
    leading = not (apa and _bounded(result))

    def num(x: float, places: int = digits, lead: bool = leading) -> str:
        return format_number(x, places, leading_zero=lead)

    if hasattr(result, "epsilon0") and hasattr(result, "errors"):
        return _error_rate_sentence(result, apa, num, digits)
    if hasattr(result, "epsilon0"):  # the t test of a mean error rate over k runs
        return _error_rate_ttest_sentence(result, apa, num, digits)
    if hasattr(result, "null_hypothesis"):  # McNemar, Bowker, Stuart-Maxwell, Cochran's Q
        return _paired_sentence(result, apa, num)
    name = statistic_name(result, "apa" if apa else "plain")
    noun = "Reliability" if hasattr(result, "mcgraw_wong") else "Agreement"
    who = _who(result.raters, getattr(result, "unrated", ()))
    n_text = f"n = {_count(result.n_subjects)}"
    paired = getattr(result, "n_paired", 0)  # Gwet family: p_a on subjects with a pair
    if 0 < paired < result.n_subjects:
        n_text = (f"n = {_count(paired)} subjects with two or more ratings "
                  f"(of {_count(result.n_subjects)})")
    if result.n_missing:
        what = "measurement" if _measure(result) is not None else "rating"
        n_text += f" ({_count(result.n_missing)} left out for a missing {what})"
    if not math.isfinite(result.estimate):
        return f"{noun}{who} could not be estimated: {name} is undefined ({n_text})."
    band, attribution = band_and_citation(result, scale)
    cite = f" ({attribution})" if citation and band else ""
    interval = _ci_text(result, apa, num)
    # a test of a value other than 0 was asked for: the sentence reports it
    tested = test or bool(getattr(result, "null_value", 0.0))
    test_text = _test_text(result, apa, num) if tested else ""
    if apa:
        parts = [p for p in (interval, test_text, n_text) if p]
        numbers = ", ".join(parts)
        if band:
            return f"{noun}{who} was {band}{cite}, {name} = {num(result.estimate)}, {numbers}."
        return f"{name[0].upper()}{name[1:]}{who} was {num(result.estimate)}, {numbers}."
    text = f"{name[0].upper()}{name[1:]}{who} = {num(result.estimate)}"
    inner = [p for p in (interval, test_text, n_text) if p]
    text += f" ({'; '.join(inner)})"
    if band:
        text += f": {band} {noun.lower()}{cite}"
    return text + "."


def _ci_text(result: Any, apa: bool, num: Any) -> str:
    """``95% CI [.05, .11] (Wald)`` (APA) or ``95% CI 0.05 to 0.11, Wald`` (plain, inside
    the sentence's parentheses); "" when there is no interval. One-sided ends are inf."""
    ci = result.ci
    if not (math.isfinite(ci.low) or math.isfinite(ci.high)):
        return ""
    side = None
    if ci.note.startswith("one-sided"):
        # the TDI's upper and the CP's lower bound, a one-sided test's interval (an error
        # rate's 'less': an upper bound): the other end is the parameter's limit
        upper = "upper confidence bound" in ci.note or ci.note == "one-sided (less)"
        side = "upper" if upper else "lower"
    return format_interval(ci.low, ci.high, ci.confidence_level, _interval_method(result),
                           ends=num, apa=apa, inside=not apa, side=side)


def _test_name(result: Any) -> str:
    """A paired test's name, with McNemar's variant (exact, continuity-corrected)."""
    if result.method == "exact binomial":
        return "the exact McNemar test"
    if result.test == "McNemar's test" and "corrected" in result.method:
        return "McNemar's test with continuity correction"
    return result.test


def _paired_sentence(result: Any, apa: bool, num: Any) -> str:
    """A test on paired ratings: its statistic on df, p, n, and McNemar's effect."""
    who = _who(result.raters, getattr(result, "unrated", ()))
    name = _test_name(result)
    name = name[0].upper() + name[1:]
    n = f"N = {_count(result.n_subjects)}" if apa else f"n = {_count(result.n_subjects)}"
    if not (math.isfinite(result.statistic) and math.isfinite(result.pvalue)):
        return f"{name}{who} could not be computed ({n})."
    p = format_pvalue(result.pvalue, apa=apa)
    if result.method == "exact binomial":
        stat = f"{result.statistic:g} of {_count(result.table[0, 1] + result.table[1, 0])} " \
               "discordant pairs, " + p
    else:
        symbol = "Q" if result.test == "Cochran's Q" else ("χ²" if apa else "chi2")
        value = format_number(result.statistic, 2)
        stat = (f"{symbol}({format_df(result.df)}, {n}) = {value}, {p}"
                if apa else f"{symbol}({format_df(result.df)}) = {value}, {p}, {n}")
    text = f"{name}{who}: {stat}"
    if math.isfinite(result.estimate):  # McNemar's effect: p1. - p.1
        interval = _ci_text(result, apa, num)
        effect = (getattr(result, "effect_name", "")
                  or f"difference of the marginal proportions of {result.categories[0]}")
        text += f"; {effect} = {num(result.estimate)}" + (f", {interval}" if interval else "")
    if result.method == "exact binomial" and apa:
        text += f", {n}"
    return text + "."


def _error_rate_ttest_sentence(result: Any, apa: bool, num: Any, digits: int) -> str:
    """The t test of a mean error rate: the mean, its interval, t, df, p."""
    eps0 = format_number(result.epsilon0, max(digits, 2), leading_zero=not apa)
    t = format_number(result.statistic, 2)
    interval = _ci_text(result, apa, num) or f"no {100 * result.ci.confidence_level:g}% CI"
    if apa:
        p = format_pvalue(result.pvalue)
        return (f"The mean error rate over {result.k} runs was ε = {num(result.estimate)}, "
                f"{interval}; t test of ε0 = {eps0} ({result.alternative}), "
                f"t({result.df}) = {t}, {p}.")
    p = format_pvalue(result.pvalue, apa=False)
    return (f"{result.coefficient} = {num(result.estimate)} over {result.k} runs ({interval}); "
            f"t test of {eps0} ({result.alternative}): t({result.df}) = {t}, {p}.")


def _error_rate_sentence(result: Any, apa: bool, num: Any, digits: int) -> str:
    """An error-rate test: the rate, its interval, the exact p-value and the decision."""
    rate = num(result.estimate)
    eps0 = format_number(result.epsilon0, max(digits, 2), leading_zero=not apa)
    interval = _ci_text(result, apa, num)
    who = _who(result.raters, getattr(result, "unrated", ()))
    if apa:
        p = format_pvalue(result.pvalue)
        return (f"The error rate{who} was ε = {rate}, {interval}, {_count(result.errors)} "
                f"errors in n = {_count(result.n_subjects)}; exact binomial test of ε0 = "
                f"{eps0} ({result.alternative}), {p}.")
    return (f"{result.coefficient} = {rate} ({_count(result.errors)} of "
            f"{_count(result.n_subjects)}; {interval}); exact binomial test of {eps0} "
            f"({result.alternative}): {format_pvalue(result.pvalue, apa=False)}.")


#: The standard error behind a Wald interval, by family symbol: (citation key, words).
_SE = {
    "κ": ("fce1969", "the large-sample standard error of Fleiss et al. (1969)"),
    "κw": ("fce1969", "the large-sample standard error of Fleiss et al. (1969)"),
    "κL": ("", "a linearised (delta-method) standard error"),
}
for _symbol in ("κF", "π", "κC", "AC1", "AC2", "κBP", "pa(pairwise)"):
    _SE[_symbol] = ("gwet2008", "Gwet's (2008) linearised standard error")


def _cites(result: Any) -> list[str]:
    """The citation keys of a result's statistic."""
    if hasattr(result, "mcgraw_wong"):
        if getattr(result, "estimator", "") == "anova":  # variance components by moments
            return ["mcgraw1996", "shrout1979", "henderson1953"]
        return ["mcgraw1996", "shrout1979"]
    if hasattr(result, "level") and result.symbol == "α":
        return ["krippendorff2011"]
    measure = _measure(result)
    if measure is not None:
        return list(measure.cites)
    family = _family(result)
    if family is None:
        return []
    keys = list(family.cites)
    if _weights(result) and result.symbol not in ("κw", "AC2"):  # weighted multi-rater forms
        keys.append("gwet2014")
    # Fleiss' kappa of subjects rated by different numbers of raters: Gwet's (2014)
    # generalisation, which uses every available rating
    if ("fleiss1971" in keys and getattr(result, "n_incomplete", 0)
            and not getattr(result, "n_missing", 0) and "gwet2014" not in keys):
        keys.append("gwet2014")
    return keys


#: The intervals of the limits of agreement: (name, detail, citation keys).
_LIMIT_INTERVALS = {
    "exact": ("exact", "non-central t", ("carkeet2015", "shieh2018")),
    "approximate": ("approximate", "", ("ba1999",)),
    "mover": ("MOVER", "", ("zou2013",)),
    "order statistics": ("order-statistic", "", ()),
}


def _measure_interval(result: Any, cited: Any) -> tuple[str, tuple[str, ...]] | None:
    """The words and citation keys of the interval of a statistic of measurements whose
    interval is not a generic one; None for the others."""
    ci = result.ci
    if hasattr(result, "limit_ci_method"):
        centre = "the median difference" if result.method == "nonparametric" else "the bias"
        bias = ("t intervals" if ci.method == "t" else f"{interval_name(ci.method)} "
                "intervals") + f" for {centre}"
        ends = (*result.lower_ci, *result.upper_ci)
        if not any(math.isfinite(end) for end in ends):
            return f"{bias} of {{}} (the limits themselves have no interval)", ()
        name, detail, keys = _LIMIT_INTERVALS.get(result.limit_ci_method,
                                                  (result.limit_ci_method, "", ()))
        inner = [d for d in (detail, *(_cite(k, cited) for k in keys)) if d]
        words = f"{name} intervals" + (f" ({'; '.join(inner)})" if inner else "")
        return f"{bias} and {words} for {{}}", keys
    if ci.method == "log-msd":
        return (f"one-sided upper confidence bounds (log MSD; {_cite('lin2000tdi', cited)})",
                ("lin2000tdi",))
    if ci.method == "logit" and hasattr(result, "observed"):
        return (f"one-sided lower confidence bounds (logit; {_cite('lin2002', cited)})",
                ("lin2002",))
    if ci.method == "fisher-z" and hasattr(result, "se_z"):
        if result.method == "lin":
            return "Fisher z intervals", ()
        return "Fisher z intervals with a delta-method standard error", ()
    if ci.method == "jackknife":
        return f"jackknife t intervals ({_cite('linnet1993', cited)})", ("linnet1993",)
    if ci.method == "rank":
        return f"rank-based intervals ({_cite('passing1983', cited)})", ("passing1983",)
    if ci.method == "chi2" and hasattr(result, "quantities"):
        if any("Satterthwaite" in note for note in result.notes):
            return (f"chi-square intervals (Satterthwaite df; "
                    f"{_cite('satterthwaite1946', cited)})", ("satterthwaite1946",))
        return "chi-square intervals", ()
    return None


def _design_se(result: Any, cited: Any = ()) -> tuple[str, str] | None:
    """(citation key, words) of a Wald interval's SE from a clustered or stratified design
    (``cluster=``, ``strata=``: the linearised sandwich), None for an SE of independent
    subjects."""
    note = next((n for n in result.notes if "delta-method sandwich" in n), None)
    if note is None:
        return None
    if re.search(r"over [\d,]+ clusters", note):
        return ("cameron2015", "the cluster-robust linearised (sandwich) standard error "
                f"({_cite('cameron2015', cited)})")
    return "", "the stratified linearised (sandwich) standard error"


def _interval_clause(result: Any, cited: Any = ()) -> tuple[str, str, tuple[str, ...]]:
    """(level, ``"Wald intervals with ..."`` / ``"percentile bootstrap intervals (1,000
    resamples, seed 1)"``, citation keys) of a result's interval; `cited`, every key the
    paragraph cites (to letter works of one author and year)."""
    ci = result.ci
    level = f"{100 * ci.confidence_level:g}%"
    measure = _measure_interval(result, cited)
    if measure is not None:
        return level, measure[0], measure[1]
    words, keys = _generic_interval(result, cited)
    if ci.method != "chi2" and any(q.symbol == "s_w" for q in getattr(result, "quantities", ())):
        # the SEM's own interval, and the within-subject SDs' chi-square intervals
        words = (f"{words} for {{}}, and chi-square intervals (on the n(m − 1) df of the "
                 "replicates) for the within-subject SD and the repeatability coefficient")
    return level, words, keys


def _generic_interval(result: Any, cited: Any = ()) -> tuple[str, tuple[str, ...]]:
    """The words and citation keys of an interval named by its method (Wald with its SE,
    bootstrap with its resamples and seed, ...)."""
    ci = result.ci
    head, _, detail = _interval_method(result).partition(", ")
    details = [detail] if detail else []
    if result.seed is not None:
        details.append(f"seed {result.seed}")
    keys: tuple[str, ...] = ()
    se = ""
    if (ci.method == "wald" and not math.isfinite(result.n_resamples)
            and " SE" not in ci.note):  # an SE of its own is named in the details
        key, se = _design_se(result, cited) or _SE.get(_tolerance(result.symbol)[0], ("", ""))
        keys = (key,) if key else ()
    elif ci.method == "wilson":
        keys = ("wilson1927",)
    elif ci.method == "bca":
        keys = ("efron1987",)
    elif hasattr(result, "mcgraw_wong") and ci.method in ("exact", "satterthwaite",
                                                          "approximate-f"):
        keys = ("mcgraw1996",)
    if ci.method != "wald":
        details.extend(_cite(k, cited) for k in keys)
    words = f"{head} intervals" + (f" ({'; '.join(details)})" if details else "")
    return words + (f" with {se}" if se else ""), keys


def _grouped(items: Sequence[tuple[Any, str]]) -> list[tuple[Any, list[str]]]:
    """Names grouped by key, in order of first appearance."""
    groups: dict[Any, list[str]] = {}
    for key, name in items:
        groups.setdefault(key, []).append(name)
    return list(groups.items())


#: The most raters a methods paragraph names; more are counted only.
_MAX_NAMED_RATERS = 10


def methods_paragraph(
    results: Sequence[ResultLike],
    *,
    n_subjects: int,
    n_raters: int,
    raters: Sequence[str],
    n_categories: int | None,
    scale_type: str,
    n_missing_ratings: int,
    n_incomplete_subjects: int,
    style: str = "apa",
    ratings_per_subject: tuple[int, int] | None = None,
    n_measurements: int = 0,
    replicates: tuple[int, int] | None = None,
) -> str:
    """The paragraph a methods section needs: data, coefficients, intervals, missing
    ratings, benchmarks and software, every clause from a field.

    Parameters
    ----------
    results : sequence of Result
        The reported results.
    n_subjects, n_raters : int
        Subjects and raters of the data.
    raters : sequence of str
        The raters' names (``n_raters`` of them).
    n_categories : int or None
        Declared categories; None for continuous ratings.
    scale_type : {'nominal', 'ordinal', 'continuous'}
        The rating scale.
    n_missing_ratings, n_incomplete_subjects : int
        Missing ratings, and subjects with at least one.
    style : {'apa', 'plain'}, default 'apa'
        Names with symbols (``Cohen's κw``) or words (``Cohen's weighted kappa``).
    ratings_per_subject : (int, int), optional
        The fewest and most raters of a subject (a sparse design is described as such).
    n_measurements : int, default 0
        Measurements of continuous data, replicates included.
    replicates : (int, int), optional
        The fewest and most measurements of a subject by one rater or method, when some
        were replicated: "each subject 3 times" or "2–3 times".

    Returns
    -------
    str
        One paragraph; :func:`references` lists the works it cites.

    Examples
    --------
    >>> import irr
    >>> ag = irr.Agreement.from_frame(irr.datasets.load("vision"), raters=["r.eye", "l.eye"])
    >>> text = methods_paragraph([ag.kappa(weights="quadratic")], n_subjects=7477,
    ...                          n_raters=2, raters=["r.eye", "l.eye"], n_categories=4,
    ...                          scale_type="ordinal", n_missing_ratings=0,
    ...                          n_incomplete_subjects=0)
    >>> print(text)  # doctest: +NORMALIZE_WHITESPACE
    Ratings of 7,477 subjects by 2 raters (r.eye and l.eye) on an ordinal scale with 4
    categories were analysed. No ratings were missing. Agreement was estimated with Cohen's
    κw (quadratic weights; Cohen, 1968). Confidence intervals (95%) were Wald intervals with
    the large-sample standard error of Fleiss et al. (1969) for Cohen's κw (quadratic
    weights). Estimates were interpreted on the benchmark scale of Landis & Koch (1977).
    Analyses used irr (irrstats) version 0.1.0 (The irr developers, n.d.).
    """
    check_choice(style, "style", STYLES)
    check_choice(scale_type, "scale_type", SCALE_TYPES)
    n_subjects = check_integer(n_subjects, "n_subjects", 0)
    n_raters = check_integer(n_raters, "n_raters", 1)
    n_missing_ratings = check_integer(n_missing_ratings, "n_missing_ratings", 0)
    n_incomplete_subjects = check_integer(n_incomplete_subjects, "n_incomplete_subjects", 0)
    if n_categories is not None:
        n_categories = check_integer(n_categories, "n_categories", 1)
    if isinstance(raters, str) or len(list(raters)) != n_raters:
        raise ValueError(f"`raters` must name the {n_raters} raters (`n_raters`); got "
                         f"{raters!r}.")
    results = _check_results(results)
    names = [statistic_name(r, style) for r in results]
    measures = [_measure(r) for r in results]
    unread = [r for r in results if getattr(r, "n_readings_missing", 0)]
    keys = {k for r in results for k in (*_cites(r), *_interval_clause(r)[2])}
    # continuous data are measurements (a rater may be a method or a device)
    unit = "measurement" if scale_type == "continuous" else "rating"
    who = "raters or methods" if scale_type == "continuous" else "raters"

    article = "an" if scale_type == "ordinal" else "a"
    categories = "" if n_categories is None else f" with {n_categories} categories"
    # a sparse design (each subject rated by a few of many raters) is described as such,
    # not as missing data, and its raters are counted, not listed
    fewest, most = ratings_per_subject or (n_raters, n_raters)
    sparse = sparse_design(n_raters, fewest, most)
    named = "" if n_raters > _MAX_NAMED_RATERS else f" ({_list(list(raters))})"
    sentences = [f"{unit.capitalize()}s of {_count(n_subjects)} subjects by {n_raters} {who}"
                 f"{named} on {article} {scale_type} scale{categories} were analysed."]
    cells = n_subjects * n_raters - n_missing_ratings
    if scale_type == "continuous" and n_measurements > cells > 0:
        # replicates: say how often each rater or method measured each subject
        times = n_measurements / cells
        fewest, most = replicates or (times, times)
        often = (f"{fewest}–{most} times" if replicates and fewest != most
                 else f"{int(times)} times" if times.is_integer()
                 else f"{times:.1f} times on average")
        whom = "each of its subjects" if n_missing_ratings else "each subject"
        sentences.append(f"Each rater or method measured {whom} {often} "
                         f"({_count(n_measurements)} measurements in all).")
    if sparse and scale_type != "continuous":
        each = f"{fewest}" if fewest == most else f"{fewest} to {most}"
        sentences.append(f"The design was sparse: each subject was rated by {each} of the "
                         f"{n_raters} raters, so the {_count(n_missing_ratings)} subject-by-rater "
                         "combinations without a rating are by design, not missing data.")
    elif n_missing_ratings and scale_type == "continuous":
        # missing cells, not missing replicates: a cell may hold several measurements
        cells = ("subject-by-rater combination had" if n_missing_ratings == 1
                 else "subject-by-rater combinations had")
        were = "subject was" if n_incomplete_subjects == 1 else "subjects were"
        sentences.append(f"In all, {_count(n_missing_ratings)} {cells} no measurement; "
                         f"{_count(n_incomplete_subjects)} {were} not measured by every "
                         "rater or method.")
    elif n_missing_ratings:
        were = f"{unit} was" if n_missing_ratings == 1 else f"{unit}s were"
        had = "subject had" if n_incomplete_subjects == 1 else "subjects had"
        sentences.append(f"In all, {_count(n_missing_ratings)} {were} missing; "
                         f"{_count(n_incomplete_subjects)} {had} at least one missing {unit}.")
    elif scale_type == "continuous" and not unread:  # replicates may still differ in number
        sentences.append("Every subject was measured by every rater or method.")
    elif scale_type != "continuous":
        sentences.append(f"No {unit}s were missing.")
    if unread:  # readings missing from a replicated design (a REML fit reports them)
        r = unread[0]
        total = r.n_readings + r.n_readings_missing
        design = (f"{_count(r.n_subjects)} subjects × {r.n_raters} raters or methods × "
                  f"{r.replicates} readings")
        lead = ("Every subject was measured by every rater or method, but not always the same "
                "number of times: of" if not n_missing_ratings else "Of")
        sentences.append(f"{lead} the {_count(total)} readings of the complete design "
                         f"({design}), {_count(r.n_readings_missing)} were missing.")
    if results:
        full = [name if m is None else (m.full if style == "apa" else m.full_plain)
                for m, name in zip(measures, names, strict=True)]
        cited = [_with_citation(name, [_cite(k, keys) for k in _cites(r)])
                 for r, name in zip(results, full, strict=True)]
        noun = "Reliability and agreement were" if any(hasattr(r, "mcgraw_wong")
                                                       for r in results) \
            and not all(hasattr(r, "mcgraw_wong") for r in results) else (
            "Reliability was" if all(hasattr(r, "mcgraw_wong") for r in results)
            else "Agreement was")
        sentences.append(f"{noun} estimated with {_list(cited)}.")
    # named in full (ICC: its form in words) once, by the short name after that
    short = [getattr(r, "form_name", None) or (
        name if m is None else (m.short if style == "apa" else m.short_plain))
        for r, m, name in zip(results, measures, names, strict=True)]
    intervals = [(_interval_clause(r, keys)[:2], name)
                 for r, name in zip(results, short, strict=True) if _interval_key(r) is not None]
    groups = _grouped(intervals)
    if groups:
        clauses = [words.format(_list(group)) if "{}" in words
                   else f"{words} for {_list(group)}" for (_, words), group in groups]
        levels = sorted({level for (level, _), _ in groups})
        sentences.append(f"Confidence intervals ({' and '.join(levels)}) were "
                         f"{'; '.join(clauses)}.")
    sentences.extend(_distribution_sentences(results, short))
    sentences.extend(_test_sentences(results, short))
    without = [name for r, name in zip(results, short, strict=True) if _interval_key(r) is None]
    if without:
        sentences.append(f"No interval was computed for {_list(without)}.")
    if n_missing_ratings:
        by_rule = _grouped([(_missing_rule(r), name)
                            for r, name in zip(results, short, strict=True)])
        rules = {"listwise": f"subjects with a missing {unit} were left out of {{}} (listwise)",
                 "available": f"{{}} used every available {unit}",
                 "pairs": "{} used, for each pair of raters, the subjects both rated"}
        clauses = [rules[rule].format(_list(group)) for rule, group in by_rule if rule]
        if clauses:
            text = "; ".join(clauses)
            # a sparse design's empty cells were called its design above, not missing data
            lead = ("Subject-by-rater combinations without a rating" if sparse
                    and scale_type != "continuous" else f"Missing {unit}s")
            sentences.append(f"{lead}: {text}.")
    used = _grouped([(_count(r.n_readings), name)
                     for r, name in zip(results, short, strict=True) if r in unread])
    for n_used, group in used:  # the REML fit of readings missing from a replicated design
        sentences.append(f"The variance components of {_list(group)} were fitted by "
                         f"restricted maximum likelihood (REML), which uses all {n_used} "
                         "available readings without imputing any or leaving out a subject.")
    scales = _grouped([(get_scale(r.scale).attribution, name)
                       for r, name in zip(results, short, strict=True) if r.scale is not None])
    if len(scales) == 1:
        sentences.append("Estimates were interpreted on the benchmark scale of "
                         f"{_narrative(scales[0][0])}.")
    elif scales:
        clauses = [f"{_narrative(cite)} for {_list(group)}" for cite, group in scales]
        sentences.append(f"Estimates were interpreted on the benchmark scales of "
                         f"{'; '.join(clauses)}.")
    sentences.append(f"Analyses used irr (irrstats) version {__version__} "
                     f"({SOFTWARE_CITATION}).")
    return " ".join(sentences)


def _distribution_sentences(results: Sequence[Any], names: Sequence[str]) -> list[str]:
    """What the methods paragraph says of Wald tests and intervals on t quantiles
    (``distribution='t'``: n - 1 df; a clustered design: clusters minus strata) and of
    finite-population corrected SEs (``population=N``)."""
    out = []
    # the design's SE: the cluster-robust one (key "cameron2015"), the stratified one ("")
    t_based = [(r, name, (_design_se(r) or ("none",))[0])
               for r, name in zip(results, names, strict=True)
               if math.isfinite(getattr(r, "design_df", math.inf))]
    design = [(r, n) for r, n, kind in t_based if kind == "cameron2015"]
    strata = [(r, n) for r, n, kind in t_based if kind == ""]
    subjects = [(r, n) for r, n, kind in t_based if kind == "none"]
    # irrCAC's n counts a subject rated only once, which the coefficient itself cannot use
    once = any(getattr(r, "n_paired", None) is not None and r.n_paired < r.design_df + 1
               for r, _ in subjects)
    counted = ("the subjects rated, including those rated only once (as irrCAC counts them)"
               if once else "the subjects each coefficient used")
    for group, law in ((subjects, "rather than the normal distribution, with n − 1 degrees "
                                  f"of freedom, n {counted}: {{}}"),
                       (design, "with the clustered design's degrees of freedom, clusters "
                                "minus strata: {}"),
                       (strata, "with the stratified design's degrees of freedom, subjects "
                                "minus strata: {}")):
        if group:
            dfs = _grouped([(format_df(r.design_df), name) for r, name in group])
            shown = "; ".join(f"{df} for {_list(names_)}" for df, names_ in dfs)
            out.append(f"Tests (and Wald intervals) of {_list([n for _, n in group])} used "
                       f"the t distribution {law.format(shown)}.")
    # a Wald interval's clause names its corrected SE; the others' tests use it unnamed
    corrected = _grouped([(r.se_label.rpartition("(")[2].rstrip(")"), name)
                          for r, name in zip(results, names, strict=True)
                          if "finite-population corrected" in getattr(r, "se_label", "")
                          and r.ci.method != "wald"])
    for population, group in corrected:
        out.append(f"The standard errors (and tests) of {_list(group)} were multiplied by the "
                   f"finite-population correction √(1 − n/N), {population} subjects in the "
                   "population; their bootstrap intervals carry no correction.")
    return out


def _test_sentences(results: Sequence[Any], names: Sequence[str]) -> list[str]:
    """What the methods paragraph says of tests other than the default: a value other than 0
    under H0 (``null=``, kappaetc's testvalue, irr's r0) or a one-sided z or t test. The
    F and chi-square tests are one-sided by construction and not named for that alone.

    Examples
    --------
    >>> import irr
    >>> ag = irr.Agreement.from_frame(irr.datasets.load("anxiety"))
    >>> _test_sentences([ag.fleiss_kappa(null=0.2, alternative="greater")], ["Fleiss' κ"])
    ["Fleiss' κ was tested against the null hypothesis that it equals .20 (one-sided; H1: greater than .20)."]
    """
    items = []
    for r, name in zip(results, names, strict=True):
        if math.isnan(r.pvalue):
            continue
        null = getattr(r, "null_value", 0.0) or 0.0
        upper = r.statistic_name not in ("z", "t")  # F, chi-square: upper-tailed
        side = "greater" if upper else r.alternative
        if null == 0 and (upper or side == "two-sided"):
            continue
        items.append(((null, side), name))
    out = []
    for (null, side), group in _grouped(items):
        value = format_number(null, 2, leading_zero=abs(null) >= 1) if null else "0"
        kind = "two-sided" if side == "two-sided" else "one-sided"
        h1 = {"two-sided": "different from", "greater": "greater than",
              "less": "less than"}[side]
        subject = ("it equals" if len(group) == 1 else "each equals")
        text = (f"{_list(group)} {'was' if len(group) == 1 else 'were'} tested against the "
                f"null hypothesis that {subject} {value} ({kind}; H1: {h1} {value}).")
        out.append(text[:1].upper() + text[1:])  # a sentence of "mean pairwise ..."
    return out


def _with_citation(name: str, cites: Sequence[str]) -> str:
    """``Cohen's κw (quadratic weights; Cohen, 1968)``: citations in the name's own
    parentheses when it ends with some."""
    if not cites:
        return name
    merged: list[str] = []  # one author's works joined: "Lin, 1989, 2000a"
    for cite in cites:
        author, _, year = cite.rpartition(", ")
        if merged and merged[-1].rpartition(", ")[0].split(", ")[0] == author:
            merged[-1] += f", {year}"
        else:
            merged.append(cite)
    if name.endswith(")"):
        return f"{name[:-1]}; {'; '.join(merged)})"
    return f"{name} ({'; '.join(merged)})"


def _narrative(citation: str) -> str:
    """``Landis & Koch, 1977`` as a narrative citation: ``Landis & Koch (1977)``."""
    head, sep, year = citation.rpartition(", ")
    return f"{head} ({year})" if sep else citation


def _missing_rule(result: Any) -> str:
    """How the result's estimator treats a missing rating ("" when not known)."""
    if hasattr(result, "mcgraw_wong"):  # variance components use every measurement
        return "available" if hasattr(result, "n_cells_missing") else "listwise"
    measure = _measure(result)
    if measure is not None:
        return measure.missing
    if hasattr(result, "level") and result.symbol == "α":
        return "available"
    family = _family(result)
    return "" if family is None else family.missing


def references(results: Sequence[ResultLike]) -> list[str]:
    """Full APA reference entries of every work :func:`methods_paragraph` cites for
    `results` (statistics, standard errors, intervals, benchmark scales, this package),
    in alphabetical order.

    Examples
    --------
    >>> import irr
    >>> ag = irr.Agreement.from_frame(irr.datasets.load("vision"), raters=["r.eye", "l.eye"])
    >>> for entry in references([ag.kappa()]):
    ...     print(entry[:60])
    Cohen, J. (1960). A coefficient of agreement for nominal sca
    Fleiss, J. L., Cohen, J., & Everitt, B. S. (1969). Large sam
    Landis, J. R., & Koch, G. G. (1977). The measurement of obse
    The irr developers. (n.d.). irr (irrstats): Inter-rater reli
    """
    results = _check_results(results)
    cited = {k for r in results for k in (*_cites(r), *_interval_clause(r)[2])}
    entries = []
    for result in results:
        keys = [*_cites(result), *_interval_clause(result)[2]]
        entries.extend(_entry(k, cited) for k in keys)
        if result.scale is not None and get_scale(result.scale).citation:
            entries.append(get_scale(result.scale).citation)
    entries.append(SOFTWARE_REFERENCE)
    return sorted(dict.fromkeys(entries), key=str.lower)
