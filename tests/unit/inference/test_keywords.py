"""The inference keywords declared once (:mod:`irr.inference.keywords`): the table and its
profiles, the decorator that writes their Parameters entries, the methods and shortcuts
that declare them, and every public docstring's Parameters section against its signature.
"""

from __future__ import annotations

import dataclasses
import importlib
import inspect
import math
import pathlib
import re
import warnings

import numpy as np
import pytest
from numpydoc.docscrape import NumpyDocString

import irr
from irr.inference.keywords import (
    KEYWORDS,
    NONE_IS_WALD,
    PROFILES,
    WALD_CIS,
    WALD_OR_NONE_CIS,
    check_interval,
    inference_keywords,
    keyword_entry,
)
from irr.inference.options import DEFAULT_RESAMPLES, InferenceOptions

ROOT = pathlib.Path(__file__).resolve().parents[3]
API_PAGE = ROOT / "docs" / "api" / "index.rst"
#: df.irr's methods pass ``**options`` on to Agreement's; the registry declares them (issue
#: 29, item 1), so their docstrings are checked with the registry, not here.
GENERATED: set[str] = set()


# -- the public API: every name the API reference lists, and irr.__all__ -------------------
def _api_names() -> list[str]:
    names = re.findall(r"^   ([A-Za-z_][\w.]*)$", API_PAGE.read_text(), flags=re.M)
    return sorted(set(names) | set(irr.__all__))


def _resolve(name: str):
    module, obj = irr, None
    parts = name.split(".")
    for i, part in enumerate(parts):
        try:
            obj = getattr(module if obj is None else obj, part)
        except AttributeError:
            obj = importlib.import_module("irr." + ".".join(parts[: i + 1]))
        if inspect.ismodule(obj):
            module, obj = obj, None
    return obj


def _public_callables() -> dict[str, object]:
    found = {}
    for name in _api_names():
        obj = _resolve(name)
        if inspect.isfunction(obj):
            found[f"irr.{name}"] = obj
        elif inspect.isclass(obj) and f"irr.{name}" not in GENERATED:
            for attr, member in vars(obj).items():
                if isinstance(member, (classmethod, staticmethod)):
                    member = member.__func__
                if not attr.startswith("_") and inspect.isfunction(member):
                    found[f"irr.{name}.{attr}"] = member
    return found


PUBLIC = _public_callables()


def _documented(function) -> list[str]:
    """The names of the numpydoc Parameters section, in order (``a, b : int`` gives a, b;
    ``**options`` gives options)."""
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # numpydoc warns of sections it does not know
        doc = NumpyDocString(inspect.getdoc(function) or "")
    return [n.strip().lstrip("*") for p in doc["Parameters"] for n in p.name.split(",")]


def _parameters(function) -> list:
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        return NumpyDocString(inspect.getdoc(function) or "")["Parameters"]


def _taken(function) -> list[str]:
    return [p for p in inspect.signature(function).parameters if p not in ("self", "cls")]


def test_the_public_api_is_found():
    assert len(PUBLIC) > 150
    for name in ("irr.Agreement.kappa", "irr.Agreement.concordance", "irr.concordance",
                 "irr.plan.kappa", "irr.plotting.bland_altman", "irr.datasets.load",
                 "irr.weights.agreement_weights", "irr.Result.report"):
        assert name in PUBLIC, name


@pytest.mark.parametrize("name", sorted(PUBLIC))
def test_every_public_docstring_documents_its_signature_in_order(name):
    function = PUBLIC[name]
    assert _documented(function) == _taken(function)


def test_the_docstring_check_reads_numpydoc_sections():
    def f(a, b, *more, c=1, **options):
        """Summary.

        Parameters
        ----------
        a, b : int
            Two.
        *more
            More.
        c : int, default 1
        **options
            The rest.

        Returns
        -------
        int
        """

    def g(a, b):
        """Summary.

        Parameters
        ----------
        b : int
        a : int
        """

    assert _documented(f) == _taken(f) == ["a", "b", "more", "c", "options"]
    assert _documented(g) != _taken(g)  # order counts


# -- the table -------------------------------------------------------------------------------
def test_the_table_defaults_are_the_options_defaults():
    fields = {f.name: f.default for f in dataclasses.fields(InferenceOptions)}
    assert set(fields) <= set(KEYWORDS)
    for name, default in fields.items():
        assert KEYWORDS[name].default == default, name
    assert KEYWORDS["n_resamples"].default == DEFAULT_RESAMPLES == 9999
    assert set(KEYWORDS) - set(fields) == {"missing"}


def test_profiles_list_table_keywords_in_table_order():
    order = list(KEYWORDS)
    for profile, names in PROFILES.items():
        assert list(names) == sorted(names, key=order.index), profile
    assert len(PROFILES) == len(set(PROFILES.values()))  # no two profiles alike


def test_every_keyword_text_stands_in_the_package_once():
    sources = {p: p.read_text() for p in (ROOT / "irr").rglob("*.py")}
    for keyword in KEYWORDS.values():
        opening = " ".join(keyword.doc.split()[:9])
        holders = [p.relative_to(ROOT).as_posix() for p, text in sources.items()
                   if opening in " ".join(text.split())]
        assert holders == ["irr/inference/keywords.py"], (keyword.name, holders)


def test_the_generated_entry_is_the_table_text_with_the_signature_default():
    doc = inspect.getdoc(irr.Agreement.fleiss_kappa)
    for name in PROFILES["multirater"]:
        if name != "ci":
            assert keyword_entry(name) in doc, name
    assert keyword_entry("ci", "wald", NONE_IS_WALD, WALD_OR_NONE_CIS) in doc
    assert keyword_entry("ci") in inspect.getdoc(irr.Agreement.kappa)
    pabak = " ".join(inspect.getdoc(irr.Agreement.pabak).split())
    assert ("ci : {'wilson', 'wald', 'percentile', 'basic', 'bca'} or None, default None"
            in pabak)
    assert "None (or 'wilson'): Wilson's interval of p_o" in pabak


# -- the methods and shortcuts that take them --------------------------------------------------
def _declared():
    return {name: f for name, f in PUBLIC.items() if hasattr(f, "__inference_profile__")}


def test_every_statistic_taking_inference_keywords_declares_its_profile():
    exempt = {  # their own defaults: a level of 1 - alpha; no bootstrap (F, exact or t tests)
        "irr.Agreement.error_rate_test", "irr.error_rate_test", "irr.error_rate_ttest",
        "irr.critical_error_rate", "irr.paired_ttest", "irr.cv52_ttest",
        "irr.compare_classifiers", "irr.pool", "irr.benchmark", "irr.interpret_interval",
        "irr.mcnemar", "irr.rater_bias", "irr.roc_auc_result", "irr.report",
    }
    for name, function in PUBLIC.items():
        if not (name.startswith("irr.Agreement.") or re.fullmatch(r"irr\.[a-z_]+", name)):
            continue  # result classes (conf_int and the like), plan, plotting, ordinal
        taken = [p for p in _taken(function) if p in KEYWORDS]
        if taken and name not in exempt:
            assert hasattr(function, "__inference_profile__"), (name, taken)


def test_declared_signatures_take_their_profile_with_the_table_defaults():
    declared = _declared()
    assert len(declared) >= 45
    for name, function in declared.items():
        profile = PROFILES[function.__inference_profile__]
        parameters = inspect.signature(function).parameters
        assert tuple(p for p in parameters if p in KEYWORDS) == profile, name
        for keyword in profile:
            if keyword != "ci":
                assert parameters[keyword].default == KEYWORDS[keyword].default, (name, keyword)


def test_shortcuts_and_methods_take_the_same_keywords_and_defaults():
    declared = _declared()
    pairs = [(name, f"irr.Agreement.{name[4:]}") for name in declared
             if name.count(".") == 1 and f"irr.Agreement.{name[4:]}" in declared]
    assert len(pairs) >= 8
    for shortcut, method in pairs:
        a, b = declared[shortcut], declared[method]
        assert a.__inference_profile__ == b.__inference_profile__, shortcut
        for name, parameter in inspect.signature(a).parameters.items():
            other = inspect.signature(b).parameters.get(name)
            if other is not None and name in KEYWORDS:
                assert parameter.default == other.default, (shortcut, name)
        entries = [{p.name: (p.type, p.desc) for p in _parameters(f) if p.name in KEYWORDS}
                   for f in (a, b)]
        assert entries[0] == entries[1], shortcut  # the same text, notes included


def test_one_default_number_of_resamples_everywhere():
    for name, function in PUBLIC.items():
        parameter = inspect.signature(function).parameters.get("n_resamples")
        if parameter is not None:
            assert parameter.default == DEFAULT_RESAMPLES, name


def test_the_command_line_reads_the_table(capsys):
    from irr.cli import INFERENCE_FLAGS, main

    for flag in INFERENCE_FLAGS:
        assert flag.help == KEYWORDS[flag.name].cli_help != ""
        if flag.type is None and flag.action is None:
            assert flag.choices == KEYWORDS[flag.name].choices
    with pytest.raises(SystemExit):
        main(["report", "--help"])
    shown = " ".join(capsys.readouterr().out.split())
    for name in ("confidence_level", "n_resamples", "rng", *(f.name for f in INFERENCE_FLAGS)):
        assert " ".join(KEYWORDS[name].cli_help.split()) in shown, name
    assert f"default {DEFAULT_RESAMPLES}" in shown


def test_the_same_sem_interval_by_every_door():
    """measurement_error drew 1,999 resamples, the CLI and irr.report 9,999: the SEM with
    replicates had two intervals by the door used. One default gives one interval."""
    long = irr.datasets.load("pef", form="long")
    ag = irr.Agreement.from_long(long, subject="subject", rater="rater", rating="rating",
                                 replicate="replicate", continuous=True)
    method = ag.measurement_error()
    shortcut = irr.measurement_error(ag.measurements)
    assert method.quantity("SEM").ci == shortcut.quantity("SEM").ci
    assert "(9,999 resamples)" in " ".join(method.notes)
    icc = ag.icc_components()
    assert icc.ci == irr.icc_components(ag.measurements).ci
    assert "9,999 resamples" in " ".join(icc.notes)


# -- the decorator ---------------------------------------------------------------------------
def test_the_decorator_writes_entries_in_signature_order():
    @inference_keywords("bootstrap", cis=(None, "percentile"), ci="None: none.")
    def f(x, *, confidence_level=0.95, ci=None, n_resamples=9999, rng=0, progress=None,
          extra=1):
        """Summary.

        Parameters
        ----------
        x : float
            A number.
        extra : int, default 1
            Last.
        """

    assert _documented(f) == _taken(f)
    assert "ci : {'percentile'} or None, default None" in f.__doc__
    assert "None: none." in f.__doc__
    assert f.__inference_profile__ == "bootstrap"


@pytest.mark.parametrize(("source", "message"), [
    ("def f(*, confidence_level=0.95):\n    '''S.'''", "profile 'f_test' is"),
    ("def f(*, confidence_level=0.9, null=None):\n    '''S.'''",
     "default confidence_level=0.9; the table's is 0.95"),
    ("def f(y, *, confidence_level=0.95, null=None):\n    '''S.'''",
     "does not document its parameter 'y'"),
    ("def f(*, confidence_level=0.95, null=None):\n    '''S.\n\n    Parameters\n"
     "    ----------\n    z : int\n    '''", "documents parameters it does not take: ['z']"),
])
def test_the_decorator_refuses_a_signature_its_profile_and_docstring_disagree_with(source,
                                                                                    message):
    namespace: dict = {}
    exec(source, namespace)
    with pytest.raises(TypeError, match=re.escape(message)):
        inference_keywords("f_test")(namespace["f"])


def test_a_ci_outside_the_statistic_choices_is_refused_naming_them():
    ag = irr.Agreement([1, 2, 3, 3, 2, 1], [1, 2, 3, 2, 2, 1])
    with pytest.raises(ValueError, match=re.escape(
            "`ci` must be one of 'wald', 'percentile', 'basic', 'bca'; got 'fisher-z'.")):
        ag.kappa(ci="fisher-z")
    with pytest.raises(ValueError, match=re.escape(
            "`ci` must be one of 'fisher-z', 'percentile', 'basic', 'bca'; got 'wald'.")):
        irr.concordance([1.0, 2.5, 3.1, 4.2], [1.1, 2.4, 3.3, 4.0], ci="wald")
    with pytest.raises(ValueError, match=re.escape("or None; got 'logit'.")):
        ag.kendall_w(ci="logit")
    assert ag.fleiss_kappa(ci=None).ci == ag.fleiss_kappa().ci  # None: the Wald interval
    with pytest.raises(ValueError, match=re.escape("got None.")):
        ag.kappa(ci=None)
    check_interval(None, (None, "percentile"))
    with pytest.raises(ValueError, match=re.escape("must be one of 'wald', 'percentile', "
                                                   "'basic', 'bca'; got None.")):
        check_interval(None, WALD_CIS)


def test_from_keywords_names_a_keyword_that_is_not_an_option():
    assert InferenceOptions.from_keywords(ci="bca", rng=3) == InferenceOptions(ci="bca", rng=3)
    with pytest.raises(TypeError, match="`missing` is not an inference option"):
        InferenceOptions.from_keywords(missing="listwise")


def test_progress_reaches_the_continuous_bootstraps():
    a = np.array([120.5, 131.0, 99.5, 142.0, 110.5, 125.0, 118.0, 136.5])
    b = np.array([118.0, 133.5, 101.0, 139.0, 113.0, 121.5, 119.5, 140.0])
    quiet = irr.concordance(a, b, ci="percentile", n_resamples=500, progress=False)
    default = irr.concordance(a, b, ci="percentile", n_resamples=500)
    assert quiet.ci == default.ci  # the bar never changes the draws
    with pytest.raises(TypeError, match="`progress` must be True, False or None"):
        irr.deming(a, b, progress="yes")


def test_default_keywords_give_the_shared_default_options_and_others_are_checked():
    """Every keyword at its default (of the default's own type) gives DEFAULT_OPTIONS, the
    options a full check of the same values builds; a value equal to a default but of
    another type (False for 0, a numpy float) is checked as before."""
    from irr.inference.options import DEFAULT_OPTIONS, InferenceOptions

    defaults = {f.name: getattr(DEFAULT_OPTIONS, f.name) for f in dataclasses.fields(
        InferenceOptions)}
    assert InferenceOptions.from_keywords(**defaults) is DEFAULT_OPTIONS
    assert InferenceOptions.from_keywords(**defaults) == InferenceOptions(**defaults)
    assert InferenceOptions.from_keywords(ci="wald", rng=0) is DEFAULT_OPTIONS
    with pytest.raises(TypeError, match="`rng` must be None"):
        InferenceOptions.from_keywords(rng=False)
    level = InferenceOptions.from_keywords(confidence_level=np.float64(0.95))
    assert level is not DEFAULT_OPTIONS
    assert level == DEFAULT_OPTIONS
    with pytest.raises(TypeError, match="`level` is not an inference option"):
        InferenceOptions.from_keywords(level=0.95)
    assert InferenceOptions.from_keywords(ci="bca").ci == "bca"


def test_options_built_from_constant_keywords_are_kept_and_equal_a_fresh_check():
    """Keywords of constant values (str, bool, int, float, None) give the options built
    from them the first time (the same instance, equal to InferenceOptions(**keywords));
    a float keeps its sign of zero in the key, values of other types (a numpy float, a
    Generator) are checked on every call, and a bad value raises every time."""
    keywords = dict(confidence_level=0.9, ci="jackknife", n_resamples=9999, rng=0,
                    progress=None)
    first = InferenceOptions.from_keywords(**keywords)
    assert InferenceOptions.from_keywords(**keywords) is first
    assert first == InferenceOptions(**keywords)
    assert InferenceOptions.from_keywords(**{**keywords, "confidence_level": 0.8}) == (
        InferenceOptions(**{**keywords, "confidence_level": 0.8}))
    assert InferenceOptions.from_keywords(**{**keywords, "confidence_level": 0.8}) is not first
    zero, negative_zero = (InferenceOptions.from_keywords(null=v) for v in (0.0, -0.0))
    assert (math.copysign(1, zero.null), math.copysign(1, negative_zero.null)) == (1, -1)
    assert InferenceOptions.from_keywords(rng=1) is InferenceOptions.from_keywords(rng=1)
    level = np.float64(0.9)
    assert InferenceOptions.from_keywords(confidence_level=level) is not (
        InferenceOptions.from_keywords(confidence_level=level))
    generator = np.random.default_rng(5)
    drawn = InferenceOptions.from_keywords(rng=generator)
    assert drawn.rng is generator
    assert InferenceOptions.from_keywords(rng=generator) is not drawn
    for _ in range(2):
        with pytest.raises(ValueError, match="`ci` must be one of"):
            InferenceOptions.from_keywords(ci="jacknife")
        with pytest.raises(TypeError, match="`rng` must be None"):
            InferenceOptions.from_keywords(rng=False)

