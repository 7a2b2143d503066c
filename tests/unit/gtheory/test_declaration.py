"""The declarations of :data:`irr.registry.STUDIES` (the G study) against every door to
them: the function, its inference keywords and defaults, the CLI subcommand and its
flags, the vocabulary, the bundled data sets and the routing of ``irr.report``."""

import importlib
import inspect

import pandas as pd
import pytest

import irr
from irr.cli import _parser, main
from irr.inference.keywords import KEYWORDS, PROFILES
from irr.registry import STUDIES, study, study_hint
from irr.vocabulary import INTERVAL_METHODS, interval_method

DECLARED = pytest.mark.parametrize("declared", STUDIES, ids=lambda s: s.name)


def _subcommands():
    parser = _parser()
    action = next(a for a in parser._actions if a.__class__.__name__ == "_SubParsersAction")
    return action.choices


@DECLARED
def test_function_takes_the_declared_profile_and_defaults(declared):
    function = getattr(irr, declared.function)
    assert function.__inference_profile__ == declared.profile
    parameters = inspect.signature(function).parameters
    assert tuple(p for p in parameters if p in KEYWORDS) == PROFILES[declared.profile]
    assert parameters["ci"].default == declared.ci
    assert parameters["n_resamples"].default == declared.n_resamples
    for column in declared.columns:
        assert parameters[column].kind is inspect.Parameter.KEYWORD_ONLY
    with pytest.raises(ValueError, match="`ci` must be one of 'wald', 'percentile'"):
        function(None, score="s", object="o", facets=["f"], ci="fisher-z")


@DECLARED
def test_docstring_documents_the_keywords_from_the_table(declared):
    doc = getattr(irr, declared.function).__doc__
    assert f"n_resamples : int, default {declared.n_resamples}" in doc
    assert KEYWORDS["progress"].doc[:40] in doc
    assert doc.count("confidence_level :") == 1


@DECLARED
def test_names_resolve_through_the_vocabulary(declared):
    assert study(declared.name) is declared
    for alias in declared.aliases:
        assert study(alias.upper().replace("_", "-")) is declared
    for method in (declared.ci, declared.component_ci,
                   *(c for c in declared.cis if c is not None)):
        assert method in INTERVAL_METHODS
        assert interval_method(method) == method


@DECLARED
def test_interval_methods_are_the_functions(declared):
    # the registry declares them without importing the study's module
    module = importlib.import_module(getattr(irr, declared.function).__module__)
    assert declared.cis == module.CIS


def test_an_unknown_study_is_refused_with_the_names():
    with pytest.raises(ValueError, match="unknown study 'dstudy'; known: 'gstudy'"):
        study("dstudy")


@DECLARED
def test_cli_subcommand_has_the_profile_flags(declared):
    command = _subcommands()[declared.command]
    actions = {a.dest: a for a in command._actions}
    assert actions["confidence_level"].default == KEYWORDS["confidence_level"].default
    assert actions["n_resamples"].default == declared.n_resamples
    assert actions["seed"].default == KEYWORDS["rng"].default
    assert actions["ci"].default == declared.ci
    assert list(actions["ci"].choices) == [c for c in declared.cis if c is not None]
    assert actions["n_resamples"].help == KEYWORDS["n_resamples"].cli_help


@DECLARED
def test_result_datasets_and_detector(declared):
    names = irr.datasets.names(declared.datasets)
    assert names == ["brennan_3_2", "rajaratnam_2"]
    assert all(declared.detect(irr.datasets.load(name)) is not None for name in names)
    frame = irr.datasets.load("brennan_3_2")  # rater labels unique across tasks
    found = dict(zip(declared.columns, declared.detect(frame), strict=True))
    assert found == {"object": "Person", "facets": ["Task", "Rater"],
                     "nested": {"Rater": "Task"}, "score": "Score"}
    result = getattr(irr, declared.function)(frame, **found)
    assert isinstance(result, declared.result)
    assert result.variance_components["variance"].round(4).tolist() == [
        0.4731, 0.3252, 0.5596, 0.6475, 2.3802]  # Brennan (2001), Table 3.2, p. 73
    assert declared.detect(irr.datasets.load("anxiety")) is None


def test_cli_lists_the_study_data_sets(capsys):
    assert main(["datasets"]) == 0
    lines = capsys.readouterr().out.splitlines()
    brennan = next(line for line in lines if line.startswith("brennan_3_2 "))
    assert brennan.split()[1:4] == ["10", "12", "gstudy"]  # 10 persons, 12 scores each
    rajaratnam = next(line for line in lines if line.startswith("rajaratnam_2 "))
    assert rajaratnam.split()[1:4] == ["8", "8", "gstudy"]
    anxiety = next(line for line in lines if line.startswith("anxiety "))
    assert anxiety.split()[1:4] == ["20", "3", "report"]


def test_cli_describes_a_study_data_set_by_its_columns(capsys):
    assert main(["datasets", "brennan_3_2"]) == 0
    fields = dict(line.split(":  ", 1) for line in capsys.readouterr().out.splitlines()
                  if ":  " in line)
    described = {k: v.strip() for k, v in fields.items() if not k.startswith(" ")}
    assert {k: described[k] for k in ("objects", "facets", "nested", "scores",
                                      "missing scores", "command")} == {
        "objects": "10 (Person)", "facets": "Task, Rater", "nested": "Rater in Task",
        "scores": "120 (Score)", "missing scores": "0", "command": "irr gstudy"}
    assert "raters" not in described  # a long file's columns are not raters


def _long():
    """Long data of patients x raters x occasions, with string labels and decimals."""
    rows = [(f"P{p:02d}", rater, occasion, 3.0 + p % 4 + 0.5 * (rater == "b") + 0.25 * occasion)
            for p in range(8) for rater in ("a", "b", "c") for occasion in (1, 2)]
    return pd.DataFrame(rows, columns=["patient", "rater", "occasion", "score"])


def test_report_routes_multifacet_long_data_to_the_study():
    df = _long()
    with pytest.raises(ValueError, match=r"irr\.gstudy\(df, score='score', object='patient', "
                                         r"facets=\['rater', 'occasion'\]\)"):
        irr.report(df)
    assert study_hint(df) == STUDIES[0].hint(df)
    assert study_hint(df.pivot(index="patient", columns=["rater", "occasion"],
                               values="score")) is None


def test_cli_report_routes_multifacet_long_data_to_the_study(capsys):
    assert main(["report", "--dataset", "brennan_3_2"]) == 1
    err = capsys.readouterr().err
    assert "irr gstudy FILE --object Person --facets Task Rater --score Score" in err


@pytest.mark.parametrize("seed", range(20))
@pytest.mark.parametrize(("n", "levels"), [(25, 5), (14, 2)])
def test_wide_ratings_on_one_scale_are_not_multifacet_long_data(seed, n, levels):
    # the kind of data of the CLI's random-report fuzz seeds 49, 64, 137, 153 and 185:
    # subjects x six raters, small integer ratings, which read as long data have six
    # numeric columns that can identify the rows
    rng = pd.Series(range(n)).sample(frac=1, random_state=seed).to_numpy()
    frame = pd.DataFrame({f"rater{j}": (rng * (j + 2) + seed * j + rng // (j + 1)) % levels + 1
                          for j in range(1, 7)})
    assert study("gstudy").detect(frame) is None
    assert study_hint(frame) is None
