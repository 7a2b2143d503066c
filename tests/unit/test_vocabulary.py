"""One vocabulary: one canonical spelling of every interval method, statistic and
regression, other spellings resolved by one resolver, and errors listing the canonical
names."""

import pathlib
import re

import pytest

import irr
from irr.vocabulary import (
    INTERVAL_METHODS,
    interval_label,
    interval_method,
    interval_name,
    lookup,
    normalise,
    resolve,
)


def test_normalise_ignores_case_spaces_and_word_separators():
    assert normalise(" Passing-Bablok ") == normalise("passing_bablok") == "passing_bablok"
    assert normalise("Fisher Z") == "fisher_z"


def test_interval_methods_resolve_from_any_spelling_to_the_canonical_one():
    assert interval_method("BCa") == "bca"
    assert interval_method("fisher_z") == "fisher-z"
    assert interval_method("Clopper-Pearson") == "exact"
    assert interval_method("order-statistics") == "order statistics"
    with pytest.raises(ValueError, match="`ci` has unknown interval method 'bootstrap'; "
                                         "known: 'wald', 'wilson', "):
        interval_method("bootstrap")
    with pytest.raises(ValueError, match=r"known: 'wald', 'bca'\.$"):
        interval_method("wilson", choices=("wald", "bca"))
    with pytest.raises(TypeError, match="`ci` must be a string"):
        interval_method(3)


def test_one_table_names_every_interval_method_in_prose_and_in_tables():
    assert interval_name("wilson") == "Wilson score"
    assert interval_label("wilson") == "Wilson"
    assert interval_name("satterthwaite") == "approximate F, Satterthwaite df"
    assert interval_label("satterthwaite") == "approx. F"
    assert interval_name("something new") == "something new"  # said as spelled
    # a result's interval is named by the table, in its summary and its sentence
    ci = irr.ConfidenceInterval(0.1, 0.2, 0.95, "bca")
    assert ci.method_name == INTERVAL_METHODS["bca"].name == "BCa bootstrap"


def test_no_other_module_keeps_a_table_of_interval_names():
    package = pathlib.Path(irr.__file__).parent
    pattern = re.compile(r'"bca":\s*"BCa')
    holders = [p.relative_to(package).as_posix() for p in package.rglob("*.py")
               if pattern.search(p.read_text())]
    assert holders == []  # the table holds IntervalMethod(...) values, not strings


def test_resolve_lists_extra_words_and_lookup_returns_none_for_unknown_names():
    with pytest.raises(ValueError, match=r"known: 'a', 'b', 'all'\.$"):
        resolve("c", ("a", "b"), argument="x", extra=("all",))
    assert lookup("B", ("a", "b")) == "b"
    assert lookup("z", ("a", "b"), {"z": "c"}) is None  # an alias of an unknown name


def test_method_comparison_takes_the_statistics_spelling():
    import matplotlib
    matplotlib.use("Agg")
    from irr.plotting import method_comparison
    x = [7.2, 8.1, 9.5, 10.4, 12.0, 13.3, 14.9, 16.2]
    y = [7.0, 8.4, 9.9, 10.2, 12.6, 13.9, 15.1, 17.0]
    ax = method_comparison(x, y, method="passing_bablok")
    assert irr.passing_bablok(x, y).method == "passing_bablok"
    assert ax.get_xlabel() == "x"


def test_scales_resolve_from_any_spelling_and_keep_their_canonical_name():
    for spelling in ("Landis-Koch", "landis_koch", " LANDIS KOCH "):
        assert irr.get_scale(spelling).name == "landis-koch"
        assert irr.interpret(0.5, scale=spelling) == irr.interpret(0.5, scale="landis-koch")
    with pytest.raises(ValueError, match="`scale` has unknown scale 'landis'; known: "
                                         "'landis-koch', "):
        irr.get_scale("landis")
