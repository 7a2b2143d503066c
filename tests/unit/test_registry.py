"""The registry is the one declaration of every statistic: each entry has its Agreement
method, accessor method, shortcut and names, and they agree with the declaration and with
the method (keywords, defaults, docstrings)."""

import contextlib
import inspect
import io
import warnings

import numpy as np
import pandas as pd
import pytest

import irr
from irr import cli, registry
from irr.inference.keywords import PROFILES
from irr.pandas import IrrAccessor
from irr.registry import ALIASES, COEFFICIENTS, PANELS, STATISTICS, statistic_name, statistic_row
from irr.vocabulary import INTERVAL_METHODS, normalise
from tests.support.cli_runner import cli as run_cli

ENTRIES = {c.method: c for c in COEFFICIENTS}
WITH_ACCESSOR = [c for c in COEFFICIENTS if c.accessor is not None]
WITH_SHORTCUT = [c for c in COEFFICIENTS if c.shortcut is not None]

#: The keywords of inference (what an inference profile chooses among).
INFERENCE = {"alternative", "confidence_level", "ci", "n_resamples", "rng", "cluster", "strata",
             "progress", "distribution", "population", "null", "ci_clip", "sampling",
             "rater_population", "missing"}


def _own(function):
    return {name: p for name, p in inspect.signature(function).parameters.items()
            if name != "self" and p.kind not in (p.VAR_KEYWORD, p.VAR_POSITIONAL)}


def _agreement(entry):
    """A small Agreement of data the statistic applies to, and the arguments it needs."""
    if entry.data == "continuous":
        long = irr.datasets.load("pef", form="long")
        if entry.method == "inter_intra_reliability":
            return irr.Agreement.from_long(long, subject="subject", rater="rater",
                                           rating="rating", replicate="replicate",
                                           continuous=True), {}
        pef = irr.datasets.load("pef")
        ag = irr.Agreement.from_frame(pef[["wright_1", "mini_1"]], continuous=True)
        return ag, ({"delta": 50} if entry.method == "coverage_probability" else {})
    if entry.raters == "two":
        vision = irr.datasets.load("vision")
        binary = vision.eq("1st grade")  # Maxwell's RE needs two categories
        return irr.Agreement(binary["r.eye"], binary["l.eye"]), {}
    ag = irr.Agreement.from_frame(irr.datasets.load("anxiety"))
    if entry.method == "error_rate_test":
        return ag, {"epsilon0": 0.5, "reference": "rater1"}
    return ag, {}


def _first(result):
    """One result of a family of results (per category, per rater)."""
    for name in ("results", "by_category"):
        parts = getattr(result, name, None)
        if parts:
            return parts[0]
    return result


@pytest.fixture(scope="module")
def results():
    out = {}
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # degenerate categories of the small data sets
        for entry in COEFFICIENTS:
            ag, arguments = _agreement(entry)
            out[entry.method] = getattr(ag, entry.method)(**arguments)
    return out


@pytest.mark.parametrize("entry", COEFFICIENTS, ids=lambda c: c.method)
def test_every_entry_has_its_agreement_method_and_declared_defaults(entry):
    method = getattr(irr.Agreement, entry.method)
    own = _own(method)
    if entry.n_resamples is None:
        assert "n_resamples" not in own
    else:
        assert own["n_resamples"].default == entry.n_resamples
    if "ci" in own and own["ci"].default is not None:
        assert own["ci"].default == entry.ci
    assert entry.ci in INTERVAL_METHODS
    assert entry.columns in ("all", "pair")
    assert entry.sentence in ("coefficient", "categories", "measurement", "test")
    assert entry.needs <= {"raters", "two", "scores", "numeric", "categorical", "continuous"}
    if entry.scale is not None:
        assert entry.scale in irr.bands.SCALES


@pytest.mark.parametrize("entry", COEFFICIENTS, ids=lambda c: c.method)
def test_its_default_result_is_as_declared(entry, results):
    result = _first(results[entry.method])
    assert result.ci.method == entry.ci
    assert getattr(result, "scale", None) == entry.scale
    text = results[entry.method].report()
    assert isinstance(text, str)
    assert len(text) > 20


@pytest.mark.parametrize("entry", COEFFICIENTS, ids=lambda c: c.method)
def test_the_declared_profile_is_the_methods_profile(entry):
    method = getattr(irr.Agreement, entry.method)
    assert entry.profile in PROFILES
    keywords = frozenset(_own(method)) & INFERENCE
    assert keywords - {"cluster", "strata"} == frozenset(PROFILES[entry.profile])
    decorated = getattr(method, "__inference_profile__", None)
    assert decorated in (None, entry.profile)


def test_a_profile_names_one_set_of_inference_keywords():
    seen = {}
    for entry in COEFFICIENTS:
        keywords = frozenset(_own(getattr(irr.Agreement, entry.method))) & INFERENCE
        seen.setdefault(entry.profile, {})[entry.method] = keywords
    for profile, methods in seen.items():
        assert profile is not None
        assert len(set(methods.values())) == 1, (profile, methods)


@pytest.mark.parametrize("entry", WITH_ACCESSOR, ids=lambda c: c.method)
def test_the_accessor_has_every_declared_method_with_the_methods_keywords(entry):
    accessor = getattr(IrrAccessor, entry.accessor)
    method = getattr(irr.Agreement, entry.method)
    mine = _own(accessor)
    for name, parameter in _own(method).items():
        assert name in mine, name
        assert mine[name].default == parameter.default, name
        assert mine[name].annotation == parameter.annotation, name
    read = {"categories", "nan_policy", "freq_weights", "continuous", "subject", "rater",
            "rating", "replicate"}
    assert read <= set(mine)
    columns = set(mine) - set(_own(method)) - read
    if entry.columns == "all":
        assert columns == {"raters"}
    else:
        assert columns in (set(), {"rater_a", "rater_b"})
    assert inspect.signature(accessor).return_annotation == \
        inspect.signature(method).return_annotation
    # the docstring is the method's: its summary and every parameter it documents
    doc, source = accessor.__doc__, inspect.cleandoc(method.__doc__)
    assert source.split("\n")[0] in doc
    assert f"irr.Agreement.{entry.method}" in doc
    for name in _own(method):
        if f"\n{name} :" in source or f"\n{name}, " in source:
            assert f"\n{name}" in doc, name
    # its Parameters section lists every parameter of its signature, and no other
    body = inspect.cleandoc(doc).split("Parameters\n----------\n")[1].split("\n\n")[0]
    listed = {name.strip() for line in body.splitlines() if line and not line.startswith(" ")
              for name in line.split(" : ")[0].split(",")}
    assert listed == set(mine)


def test_the_accessor_has_no_statistic_the_registry_does_not_declare():
    declared = {c.accessor for c in WITH_ACCESSOR}
    public = {name for name in vars(IrrAccessor) if not name.startswith("_")}
    assert public - declared == {"agreement", "summary", "by"}


@pytest.mark.parametrize(("frame", "call", "expected"), [
    ("anxiety", lambda df: df.irr.kappa("rater1", "rater2", weights="quadratic").estimate,
     0.2968),
    ("anxiety", lambda df: df.irr.percent_agreement().estimate, 0.1833),
    ("anxiety", lambda df: df.irr.percent_agreement(tolerance=1).estimate, 0.5833),
    ("anxiety", lambda df: df.irr.fleiss().estimate, -0.0411),
    ("anxiety", lambda df: df.irr.conger().estimate, -0.0187),
    ("anxiety", lambda df: df.irr.light().estimate, -0.0175),
    ("anxiety", lambda df: df.irr.scott_pi(["rater1", "rater2"]).estimate, 0.0968),
    ("anxiety", lambda df: df.irr.gwet().estimate, 0.0314),
    ("anxiety", lambda df: df.irr.gwet(weights="quadratic").estimate, 0.5353),
    ("anxiety", lambda df: df.irr.brennan_prediger().estimate, 0.02),
    ("anxiety", lambda df: df.irr.krippendorff(level="interval", n_resamples=1000,
                                              rng=0).estimate, 0.1701),
    ("anxiety", lambda df: df.irr.icc(model="twoway", type="agreement").estimate, 0.198),
    ("anxiety", lambda df: df.irr.mean_spearman(fisher=False).estimate, 0.31),
    ("anxiety", lambda df: df.irr.mean_pearson().estimate, 0.224),
    ("anxiety", lambda df: df.irr.robinson_a().estimate, 0.4774),
    ("anxiety", lambda df: df.irr.finn(levels=6).estimate, 0.4457),
    ("anxiety", lambda df: df.irr.icc_components().estimate, 0.198),
    ("anxiety", lambda df: df.irr.measurement_error().estimate, 1.27),
    ("vision", lambda df: df.irr.pabak().estimate, 0.6111),
    ("vision", lambda df: df.irr.bangdiwala_b().estimate, 0.5114),
    ("vision", lambda df: df.irr.specific_agreement().by_category[0].estimate, 0.7829),
    ("vision", lambda df: df.irr.category_kappa().by_category[0].estimate, 0.7068),
    ("vision", lambda df: df.irr.rater_bias().estimate, 0.5369),
    ("pef", lambda df: df.irr.limits_of_agreement("wright_1", "mini_1").lower, -78.1),
    ("pef", lambda df: df.irr.limits_of_agreement("wright_1", "mini_1").upper, 73.9),
    ("pef", lambda df: df.irr.concordance(["wright_1", "mini_1"]).estimate, 0.9427),
    ("pef", lambda df: df.irr.total_deviation_index(0.9, "wright_1", "mini_1").estimate, 63.9),
    ("pef", lambda df: df.irr.coverage_probability(50, "wright_1", "mini_1").estimate, 0.8),
    ("pef", lambda df: df.irr.deming("wright_1", "mini_1").slope, 0.971),
    ("pef", lambda df: df.irr.passing_bablok("wright_1", "mini_1").slope, 1.06),
])
def test_the_accessor_gives_the_agreement_numbers(frame, call, expected):
    # the numbers the hand-written accessor's examples showed (R irr and the Agreement
    # tests give them)
    decimals = len(str(expected).split(".")[1]) if "." in str(expected) else 0
    assert round(call(irr.datasets.load(frame)), decimals) == pytest.approx(expected)


def test_the_accessor_reads_binary_columns_long_data_and_refuses_unknown_keywords():
    assert pd.DataFrame({"a": [1, 0, 1, 1], "b": [1, 0, 0, 1]}).irr.maxwell_re().estimate == 0.5
    long = irr.datasets.load("pef", form="long")
    res = long.irr.inter_intra_reliability(subject="subject", rater="rater", rating="rating",
                                           replicate="replicate")
    assert round(res.estimate, 3) == 0.948
    anxiety = irr.datasets.load("anxiety")
    family = anxiety.irr.error_rate_test(0.5, reference="rater1")
    direct = irr.Agreement.from_frame(anxiety).error_rate_test(0.5, reference="rater1")
    assert [(r.errors, r.n, r.pvalue) for r in family.results] == \
        [(r.errors, r.n, r.pvalue) for r in direct.results]
    kendall = anxiety.irr.kendall_w()
    assert kendall.estimate == irr.Agreement.from_frame(anxiety).kendall_w().estimate
    with pytest.raises(TypeError, match=r"df.irr.fleiss\(\): got an unexpected keyword "
                                        "argument 'wieghts'"):
        anxiety.irr.fleiss(wieghts="linear")


#: Parameters of a method a shortcut replaces by its data arguments (the columns).
_COLUMNS = {"first", "second"}


@pytest.mark.parametrize("entry", WITH_SHORTCUT, ids=lambda c: c.method)
def test_the_shortcut_forwards_the_methods_keywords_with_its_defaults(entry):
    shortcut = getattr(irr, entry.shortcut)
    method = getattr(irr.Agreement, entry.method)
    parameters = inspect.signature(shortcut).parameters
    forwards = any(p.kind == p.VAR_KEYWORD for p in parameters.values())
    for name, parameter in _own(method).items():
        if name in _COLUMNS:
            continue
        if name in parameters:
            if parameter.default is not inspect.Parameter.empty:
                assert parameters[name].default == parameter.default, name
        else:
            assert forwards, f"irr.{entry.shortcut} does not take `{name}`"


def test_the_alpha_shortcut_takes_progress_as_the_method_does():
    data = irr.datasets.load("cac_raw4raters")
    quiet = irr.krippendorff_alpha(data, "interval", n_resamples=200, progress=False)
    method = irr.Agreement.from_frame(data).krippendorff_alpha(
        "interval", n_resamples=200, progress=False)
    assert quiet.ci.low == pytest.approx(method.ci.low)
    assert quiet.ci.high == pytest.approx(method.ci.high)


def test_every_name_computes_its_entrys_method_and_every_alias_resolves():
    for entry in COEFFICIENTS:
        for name in entry.names:
            row = statistic_row(name.name)
            assert (row.method, dict(row.options)) == (entry.method, dict(name.options))
            assert statistic_name(name.name) == name.name
        for alias in entry.aliases:
            target = statistic_name(alias)
            if target not in ("alpha", "icc"):
                assert STATISTICS[target].method == entry.method
            assert statistic_name(alias.upper().replace("_", "-")) == target
    assert len(STATISTICS) == sum(len(c.names) for c in COEFFICIENTS)  # no name twice
    # an alias never shadows a canonical name of another statistic
    canonical = {normalise(n): n for n in registry.NAMES}
    for key, target in ALIASES.items():
        assert canonical.get(key, target) == target, key


def test_an_unknown_name_lists_the_canonical_ones():
    with pytest.raises(ValueError, match="`statistics` has unknown statistic 'fleis'; known: "
                                         "'percent', 'percent_all', 'kappa'"):
        statistic_name("fleis")


def test_the_cli_vocabulary_is_the_registrys():
    measured = [n.name for c in COEFFICIENTS if c.data == "continuous" for n in c.names]
    assert list(cli.AGREEMENT_STATISTICS) == measured
    with pytest.raises(SystemExit) as exit_, contextlib.redirect_stdout(io.StringIO()) as help_:
        cli.main(["report", "--help"])
    assert exit_.value.code == 0
    flat = " ".join(help_.getvalue().split())
    for name in STATISTICS:
        assert name in flat, name
    # any spelling of a name, in the report and in the agreement command
    code, out, _ = run_cli("report", "--dataset", "anxiety", "--statistics", "Fleiss-Kappa",
                           "--format", "json")
    assert code == 0
    assert '"fleiss"' not in out.split('"statistics"')[0]
    code, out, _ = run_cli("agreement", "--dataset", "pef", "--raters", "wright_1", "mini_1",
                           "--statistics", "limits_of_agreement,CCC")
    assert code == 0
    assert "Lower limit" in out
    assert "CCC" in out


def test_the_rows_a_report_may_show_are_declared_statistics():
    for row in PANELS["report"]:
        entry = ENTRIES[row.method]
        options = {k: v for k, v in row.options.items() if k != "weights" or not row.weighted}
        assert not options or any(dict(n.options) == options for n in entry.names), row


def test_the_registry_properties_read_the_needs():
    kappa, fleiss, loa = ENTRIES["kappa"], ENTRIES["fleiss_kappa"], ENTRIES["limits_of_agreement"]
    assert (kappa.raters, kappa.on_counts, kappa.data) == ("two", False, "categorical")
    assert (fleiss.raters, fleiss.on_counts) == ("many", True)
    assert loa.data == "continuous"
    assert ENTRIES["icc"].data == "scores"
    assert registry.coefficient("fleiss_kappa") is fleiss
    assert np.all([c.method in registry.methods() for c in COEFFICIENTS])
