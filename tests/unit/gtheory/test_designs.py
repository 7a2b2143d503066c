"""Designs of G studies: the effects of crossed and nested designs (Brennan, 2001, ch. 3),
their notation, and declarations that are refused."""

import pytest

from irr.gtheory.designs import make_design

# the effects Brennan (2001) lists for each design (ch. 3 and 4), by letters
EFFECTS = [
    (("p", ["r"], None), "p × r", {"p", "r", "pr,e"}),
    (("p", ["r", "o"], None), "p × r × o", {"p", "r", "o", "pr", "po", "ro", "pro,e"}),
    (("p", ["r", "o"], {"r": "o"}), "p × (r:o)", {"p", "o", "r:o", "po", "pr:o,e"}),
    (("p", ["r"], {"r": "p"}), "(r:p)", {"p", "r:p,e"}),
    (("p", ["i", "r"], None), "p × i × r", {"p", "i", "r", "pi", "pr", "ir", "pir,e"}),
    (("p", ["i", "s", "r"], {"i": "s"}), "p × (i:s) × r",
     {"p", "s", "i:s", "r", "ps", "pi:s", "pr", "sr", "psr", "ir:s", "pir:s,e"}),
]


@pytest.mark.parametrize(("args", "notation", "effects"), EFFECTS)
def test_effects_and_notation_of_every_design(args, notation, effects):
    design = make_design(*args)
    assert design.notation == notation
    names = [e.name(design.letters) for e in design.effects]
    assert set(names) == effects
    assert len(names) == len(effects)
    assert design.effects[-1].residual
    assert all(not e.residual for e in design.effects[:-1])


def test_full_names_and_clashing_initials():
    design = make_design("patient", ["rater", "rubric"])  # r and r: names are used
    assert design.notation == "patient × rater × rubric"
    assert design.effects[-1].name() == "patient × rater × rubric, e"
    nested = make_design("patient", ["rater", "site"], {"rater": "site"})
    assert [e.name() for e in nested.effects] == [
        "patient", "site", "patient × site", "rater:site", "patient × rater:site, e"]


@pytest.mark.parametrize(("args", "message"), [
    (("p", ["r"], {"p": "r"}), "object of measurement 'p' cannot be nested"),
    (("p", ["r"], {"r": "s"}), "'r' is nested in 's', which is not a facet"),
    (("p", ["r", "s"], {"r": "s", "s": "r"}), "cycle"),
    (("p", ["r", "r"], None), "names a facet twice"),
    (("p", ["p", "r"], None), "also listed in `facets`"),
    (("p", [], None), "at least one facet"),
    (("p", ["r"], {"x": "p"}), "'x' is not a facet"),
    (("p", ["r"], {"r": "r"}), "nested in itself"),
])
def test_impossible_declarations_are_refused(args, message):
    with pytest.raises(ValueError, match=message):
        make_design(*args)
