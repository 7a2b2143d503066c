"""The one formatter of numbers in prose (irr/_numbers.py), and the sentences that use it.

The rules are APA 7's (Publication Manual, 7th ed., sections 6.36 and 6.41-6.44): no zero
before the decimal point for a statistic that cannot exceed 1, one otherwise; exact
p-values to three decimals, ``p < .001`` below; a negative number with the minus sign
U+2212 in prose. Machine-readable outputs keep the ASCII hyphen-minus.
"""

import math
import pathlib
import re

import pytest

import irr
from irr._numbers import MINUS, format_interval, format_number, format_pvalue, format_significant
from irr.vocabulary import INTERVAL_METHODS
from tests.support.sentence_corpus import sentences

NAN = float("nan")

#: (value, kind, text): the rules table. A kind is how the sentence builders call the
#: formatter for that kind of number.
KINDS = {
    "bounded": lambda v: format_number(v, 2, leading_zero=False),  # kappa, ICC, proportion
    "bounded3": lambda v: format_number(v, 3, leading_zero=False),  # an error rate, digits=3
    "statistic": lambda v: format_number(v, 2),  # z, t, F, chi-square, a slope
    "measurement": lambda v: format_number(v, 1),  # l/min in the data's precision
    "plain": lambda v: format_number(v, 2),  # plain style: leading zeros
    "table": lambda v: format_number(v, 4, minus="-"),  # a machine-readable cell
    "p": format_pvalue,
    "p plain": lambda v: format_pvalue(v, apa=False),
    "line": lambda v: format_significant(v, 4),  # a fitted line's coefficient
    "given": format_significant,  # a value as the user gave it
}

RULES = [
    (0.6607, "bounded", ".66"),
    (0.85, "bounded", ".85"),
    (-0.054, "bounded", "\u2212.05"),
    (1.0, "bounded", "1.00"),
    (-1.0, "bounded", "\u22121.00"),
    (0.996, "bounded", "1.00"),  # rounds to 1: nothing to drop
    (-0.001, "bounded", ".00"),  # rounds to zero: no sign
    (0.0204, "bounded3", ".020"),
    (-0.0204, "bounded3", "\u2212.020"),
    (2.1, "statistic", "2.10"),
    (-2.4703, "statistic", "\u22122.47"),
    (0.23, "statistic", "0.23"),  # a chi-square can exceed 1: its leading zero stays
    (-0.29, "statistic", "\u22120.29"),
    (-2.118, "measurement", "\u22122.1"),
    (12.34, "measurement", "12.3"),
    (-0.04, "measurement", "0.0"),
    (0.66, "plain", "0.66"),
    (-0.054, "plain", "\u22120.05"),
    (-0.054, "table", "-0.0540"),
    (-0.00001, "table", "0.0000"),
    (NAN, "bounded", "nan"),
    (math.inf, "statistic", "\u221e"),
    (-math.inf, "statistic", "\u2212\u221e"),
    (0.003, "p", "p = .003"),
    (0.0032, "p", "p = .003"),
    (0.04249, "p", "p = .042"),
    (0.05, "p", "p = .050"),
    (0.001, "p", "p = .001"),
    (0.000999, "p", "p < .001"),
    (0.0, "p", "p < .001"),
    (0.999, "p", "p = .999"),
    (0.9996, "p", "p > .999"),
    (1.0, "p", "p > .999"),
    (NAN, "p", "p undefined"),
    (0.0032, "p plain", "p = 0.003"),
    (0.0002, "p plain", "p < 0.001"),
    (-15.0712, "line", "\u221215.07"),
    (0.028693, "line", "0.02869"),
    (-5.0, "given", "\u22125"),
    (0.4, "given", "0.4"),
]


@pytest.mark.parametrize(("value", "kind", "text"), RULES)
def test_rules(value, kind, text):
    assert KINDS[kind](value) == text


def test_minus_is_u2212():
    assert MINUS == "\u2212" == chr(0x2212)
    assert format_number(-0.5, 2, minus="-") == "-0.50"


def test_undefined_text():
    assert format_number(NAN, 2, undefined="undefined") == "undefined"
    assert format_number(None, 2, undefined="") == ""


# A hyphen-minus where a number is meant: "-.05", "-2.1", "[-.13", "= -0.29". Not a
# hyphen inside a word or between numbers (a range "1-5", pages "307-310", "ICC(2,1)"),
# nor one standing alone ("n - 1").
HYPHEN_NUMBER = re.compile(r"(?<![\w.)\]-])-\.?\d")


def test_hyphen_pattern():
    for text in ("κ = -.05", "[-0.13, .05]", "(-.04 vs .03)", "was -2.1 l/min", "z = -2.47"):
        assert HYPHEN_NUMBER.search(text), text
    for text in ("pp. 307-310", "ratings 1-5", "n - 1 df", "ICC(2,1)", "e71-e80",
                 "S0140-6736(86)90837-8", "1082-989X.1.1.30", "κ = \u2212.05"):
        assert not HYPHEN_NUMBER.search(text), text


@pytest.fixture(scope="module", params=["apa", "plain"])
def corpus(request):
    return sentences(request.param)


def test_no_hyphen_minus_in_sentences(corpus):
    """No sentence of irr.report (every bundled data set, every statistic that applies),
    of its methods paragraph or of any result's report() writes a negative number with a
    hyphen-minus; and the corpus does hold negative numbers, with the true minus sign."""
    offending = [(where, text) for where, text in corpus if HYPHEN_NUMBER.search(text)]
    assert not offending, offending[:5]
    with_minus = [text for _, text in corpus if re.search(f"{MINUS}\\.?\\d", text)]
    assert len(with_minus) >= 20  # anxiety's negative kappas, limits, differences ...
    assert len(corpus) >= 150


#: The words a sentence names an interval's method by: the vocabulary's, the ICC's "exact F"
#: and the limits of agreement's own (exact non-central t, Bland & Altman's approximation).
METHOD_WORDS = (*(m.name for key, m in INTERVAL_METHODS.items() if key != "none"), "exact F",
                "non-central t", "Bland & Altman's approximation", "order statistics")
INTERVAL = re.compile(r"\d+(\.\d+)?% (CI|lower confidence bound|upper confidence bound)")


def test_every_sentence_names_the_method_of_its_intervals(corpus):
    """A sentence copied alone into a paper says how its intervals were computed: a method
    follows its last interval (two intervals of one method in a sentence share the name),
    even when the sentence before it has the same method."""
    unnamed = []
    for where, text in corpus:
        ends = list(INTERVAL.finditer(text))
        if ends and not any(word in text[ends[-1].end():] for word in METHOD_WORDS):
            unnamed.append((where, text))
    assert not unnamed, unnamed[:5]
    assert sum(bool(INTERVAL.search(text)) for _, text in corpus) >= 100


def test_every_interval_in_prose_is_written_by_format_interval():
    """No module writes ``95% CI [`` or ``95% CI a to b`` itself (docstrings aside): one
    function gives every sentence's interval its level, ends and method."""
    package = pathlib.Path(irr.__file__).parent
    own = re.compile(r'f".*(% CI|CI) (\[\{|\{)')
    writers = {str(path.relative_to(package)) for path in package.rglob("*.py")
               if any(own.search(line) for line in path.read_text("utf-8").splitlines())}
    assert writers == {"_numbers.py"}


def test_format_interval_names_level_ends_and_method():
    apa = lambda x: format_number(x, 2, leading_zero=False)  # noqa: E731
    assert format_interval(-0.051, 0.734, 0.9, "Wald", ends=apa) == (
        f"90% CI [{MINUS}.05, .73] (Wald)")
    assert format_interval(0.5, 0.7, 0.95, "Wald", ends=format_number, apa=False,
                           inside=True) == "95% CI 0.50 to 0.70, Wald"
    assert format_interval(0.5, 0.7, 0.95, "", ends=apa) == "95% CI [.50, .70]"
    assert format_interval(0.5, math.inf, 0.95, "t distribution", ends=apa, side="lower") == (
        "one-sided 95% lower confidence bound .50 (t distribution)")


def test_apa_leading_zeros_in_sentences():
    """A kappa drops its leading zero, a test statistic and a measurement keep theirs."""
    # kappa of [[6, 16], [2, 4]]: po = 10/28, pe = (22 * 8 + 6 * 20) / 28**2, so
    # kappa = (po - pe) / (1 - pe) = -0.0328
    two = irr.Agreement.from_table([[6, 16], [2, 4]])
    res = two.kappa()
    assert res.estimate == pytest.approx(-0.0328, abs=1e-4)
    low, high = res.ci
    assert low < 0 < high
    assert res.statistic < 0
    lo, hi = f"{abs(low):.2f}"[1:], f"{high:.2f}"[1:]  # '.26', '.20'
    text = res.report(test=True)
    assert f"κ = {MINUS}.03, 95% CI [{MINUS}{lo}, {hi}]" in text
    assert f"z = {MINUS}{abs(res.statistic):.2f}, p = ." in text  # z keeps its zero
    plain = res.report("plain", test=True)
    assert f"= {MINUS}0.033 (95% CI {MINUS}{abs(low):.3f} to {high:.3f}" in plain
    assert f"z = {MINUS}{abs(res.statistic):.2f}, p = 0." in plain
    # Bland & Altman (1986, Lancet, Table 1): Wright - mini mean difference -2.1 l/min
    pef = irr.datasets.load("pef")
    loa = irr.limits_of_agreement(pef["wright_1"], pef["mini_1"], units="l/min").report()
    assert f"was {MINUS}2.1 l/min, 95% CI [{MINUS}" in loa


def test_tables_keep_the_ascii_minus():
    """Machine-readable outputs are unchanged: a summary table, to_frame and CSV write the
    hyphen-minus."""
    anxiety = irr.Agreement.from_frame(irr.datasets.load("anxiety"))
    res = anxiety.fleiss_kappa()
    assert MINUS not in res.summary().as_text()
    assert "-0.04" in res.summary().as_text()
    assert res.to_frame()["estimate"].iloc[0] < 0
    rep = irr.report(irr.datasets.load("anxiety"), "fleiss", figures=False)
    assert MINUS not in rep.to_csv()
    assert "-0.0" in rep.to_csv()
    diff = irr.difference(anxiety, statistic=("fleiss_kappa", "gwet_ac"))
    assert MINUS not in diff.summary().as_text()
