"""The package's shape: imports go one way down the layers, the modules' imports form no
cycle, and no module reaches into another module's (or object's) underscore names. Every
import of an irr module counts: at module level, inside a function, and under
``if TYPE_CHECKING:`` (an annotation is a dependency too). See docs/architecture.md."""

import ast
import dataclasses
import itertools
import pathlib

import pytest

import irr
from irr._result_protocol import IntervalLike, ResultLike
from irr.results import ConfidenceInterval, Result

ROOT = pathlib.Path(irr.__file__).parent

#: Every module's layer, bottom (0) to top. A module may import modules of its own layer
#: or lower ones, never higher; within a layer the imports must not form a cycle.
LAYERS = {
    0: [  # foundations: validation, scales, weights, pure formulas, data sets, HTML, files
        "irr._validation", "irr._version", "irr.vocabulary", "irr.weights", "irr.bands",
        "irr.datasets", "irr.coefficients", "irr.coefficients.*", "irr._html", "irr._files",
        "irr._parquet",  # the shape of a Parquet file, from its footer
        "irr._lazy",  # modules imported on first use (lazy_module), counted as imports here
        # generalizability theory: designs and the pure ANOVA, REML and D-study formulas
        "irr.gtheory.designs", "irr.gtheory.anova", "irr.gtheory.reml", "irr.gtheory.dstudy",
    ],
    1: ["irr._columns", "irr._data", "irr._frames", "irr._long", "irr._source",
        "irr._measurements", "irr.gtheory.data"],  # input (Source holds continuous ratings as Measurements)
    2: ["irr._statistics", "irr._moments"],  # sufficient statistics (categories; moments)
    3: ["irr.inference", "irr.inference.options", "irr.inference.keywords",
        "irr.inference.bootstrap", "irr.inference.plan"],  # inference engine
    4: ["irr._numbers", "irr._result_protocol", "irr.summary", "irr._sentences",
        "irr.inference._hypothesis_summary", "irr.results", "irr.comparison",
        "irr.reporting", "irr.gtheory.results"],  # rendering, then results (in that order: no cycle)
    5: ["irr.estimators", "irr.estimators.*", "irr.inference.error_rate",
        "irr.inference.paired", "irr.inference.learners", "irr.ordinal",
        "irr.ordinal.*", "irr.gtheory", "irr.gtheory.study"],  # estimators and tests
    6: ["irr.registry", "irr.agreement"],  # façade
    7: ["irr._functions", "irr.difference", "irr.pandas", "irr.plotting", "irr.cli", "irr",
        "irr.__main__", "irr.reliability", "irr.plan", "irr.plan.*",
        "irr.app", "irr.app.*"],  # irr.app: the page of `irr app` (runs irr.cli)  # workflows; planning
    # (sample size, power: its simulations analyse each simulated study with an Agreement)
}


def _modules():
    for path in sorted(ROOT.rglob("*.py")):
        parts = path.relative_to(ROOT.parent).with_suffix("").parts
        name = ".".join(parts[:-1] if parts[-1] == "__init__" else parts)
        yield name, path


def _layer(module):
    for level, patterns in LAYERS.items():
        for pattern in patterns:
            if module == pattern or (pattern.endswith(".*") and module.startswith(pattern[:-1])):
                return level
    raise AssertionError(f"{module} has no layer in tests/unit/test_architecture.py")


def _lazy_target(node):
    """The module a ``lazy_module("irr.x")`` call names (irr._lazy: imported on first
    use), else None."""
    if isinstance(node, ast.Call) and node.args and ast.unparse(node.func).endswith(
            "lazy_module") and isinstance(node.args[0], ast.Constant):
        return str(node.args[0].value)
    return None


def _imports(path, module):
    """(imported irr module, line, at module level?) of every import in `path`: at module
    level, inside functions, and under ``if TYPE_CHECKING:`` (which counts as module
    level). A module declared with ``lazy_module("irr.x")`` (imported on first use) counts
    as an import of it, at module level when the declaration is a module-level statement."""
    tree = ast.parse(path.read_text())
    top = set(map(id, tree.body))
    top_calls = {id(child) for stmt in tree.body if isinstance(stmt, ast.Assign | ast.Expr)
                 for child in ast.walk(stmt)}
    checking = _type_checking_nodes(tree)
    is_package = path.name == "__init__.py"
    out = []
    for node in ast.walk(tree):
        lazy = _lazy_target(node)
        if lazy is not None:
            if lazy == "irr" or lazy.startswith("irr."):
                out.append((lazy, node.lineno, id(node) in top_calls))
            continue
        if isinstance(node, ast.ImportFrom):
            if node.level:  # relative import
                base = module.split(".")
                base = base if is_package else base[:-1]
                base = base[: len(base) - (node.level - 1)]
                target = ".".join([*base, *([node.module] if node.module else [])])
            else:
                target = node.module or ""
            names = [target] + [f"{target}.{a.name}" for a in node.names]
        elif isinstance(node, ast.Import):
            names = [a.name for a in node.names]
        else:
            continue
        for name in names:
            if name == "irr" or name.startswith("irr."):
                out.append((name, node.lineno, id(node) in top or id(node) in checking))
    return out


def _type_checking_nodes(tree):
    """The ids of the nodes under a module-level ``if TYPE_CHECKING:`` (not its ``else``)."""
    return {id(child) for stmt in tree.body
            if isinstance(stmt, ast.If) and "TYPE_CHECKING" in ast.unparse(stmt.test)
            for body in stmt.body for child in ast.walk(body)}


MODULES = dict(_modules())


def _resolve(name, modules=MODULES):
    """The module an import names (``irr.x.y`` may be module ``irr.x`` and attribute y)."""
    while name not in modules and "." in name:
        name = name.rsplit(".", 1)[0]
    return name


def _import_graph(modules):
    """{module: {imported module: first line}} of `modules` ({name: path}), every import
    counted (see :func:`_imports`); the package ``irr`` itself only re-exports, so
    imports of it are not edges."""
    graph = {}
    for module, path in modules.items():
        edges = {}
        for name, line, _ in _imports(path, module):
            target = _resolve(name, modules)
            if target not in (module, "irr") and target in modules:
                edges.setdefault(target, line)
        graph[module] = edges
    graph.pop("irr", None)
    return graph


def _cycles(graph):
    """One cycle ``[a, b, ..., a]`` per strongly connected group of modules that import
    each other (directly or through others), found by Tarjan's algorithm."""
    index, low, stack, on_stack, groups = {}, {}, [], set(), []

    def connect(node):
        index[node] = low[node] = len(index)
        stack.append(node)
        on_stack.add(node)
        for nxt in sorted(graph.get(node, ())):
            if nxt not in graph:
                continue
            if nxt not in index:
                connect(nxt)
                low[node] = min(low[node], low[nxt])
            elif nxt in on_stack:
                low[node] = min(low[node], index[nxt])
        if low[node] == index[node]:
            group = set()
            while True:
                member = stack.pop()
                on_stack.discard(member)
                group.add(member)
                if member == node:
                    break
            if len(group) > 1:
                groups.append(group)

    for node in sorted(graph):
        if node not in index:
            connect(node)
    return [_cycle_in(graph, group) for group in groups]


def _cycle_in(graph, group):
    """A shortest cycle through the first module of `group` (breadth first, inside it)."""
    start = min(group)
    paths = {start: [start]}
    frontier = [start]
    while frontier:
        following = []
        for node in frontier:
            for nxt in sorted(graph[node]):
                if nxt == start:
                    return [*paths[node], start]
                if nxt in group and nxt not in paths:
                    paths[nxt] = [*paths[node], nxt]
                    following.append(nxt)
        frontier = following
    raise AssertionError(f"no cycle in {sorted(group)}")


def _cycle_text(graph, cycle):
    steps = [f"{a} (line {graph[a][b]})" for a, b in itertools.pairwise(cycle)]
    return " -> ".join([*steps, cycle[-1]])


def test_every_module_has_a_layer():
    for module in MODULES:
        _layer(module)


@pytest.mark.parametrize("module", sorted(MODULES))
def test_imports_go_down_the_layers(module):
    level = _layer(module)
    for name, line, _ in _imports(MODULES[module], module):
        target = _resolve(name)
        if target in (module, "irr") and module != "irr":
            assert target != "irr" or name == "irr", (
                f"{module}:{line} imports the package `irr` itself; import the module")
            continue
        assert _layer(target) <= level, (
            f"{module}:{line} imports {target} (layer {_layer(target)}) from layer {level}"
        )


@pytest.mark.parametrize("module", sorted(MODULES))
def test_irr_imports_are_at_module_level(module):
    # function-level imports are for optional or heavy third-party dependencies only
    for name, line, top in _imports(MODULES[module], module):
        assert top, f"{module}:{line} imports {name} inside a function"


def test_no_import_cycles():
    # within a layer too: e.g. results imports summary and sentences, which annotate with
    # the protocol of irr._result_protocol and never import results
    graph = _import_graph(MODULES)
    cycles = [_cycle_text(graph, c) for c in _cycles(graph)]
    assert cycles == [], "import cycles:\n" + "\n".join(cycles)


def _underscore_reads(path):
    tree = ast.parse(path.read_text())
    out = []
    for node in ast.walk(tree):
        if isinstance(node, ast.ImportFrom):
            out += [(node.lineno, a.name) for a in node.names
                    if a.name.startswith("_") and not a.name.startswith("__")
                    and (node.module or "").startswith("irr")]
        if isinstance(node, ast.Attribute) and node.attr.startswith("_") \
                and not node.attr.startswith("__"):
            value = node.value
            if isinstance(value, ast.Name) and value.id in ("self", "cls"):
                continue
            if isinstance(value, ast.Call) and ast.unparse(value.func) == "super":
                continue
            out.append((node.lineno, ast.unparse(node)))
    return out


@pytest.mark.parametrize("module", sorted(MODULES))
def test_no_module_reads_another_modules_underscore_names(module):
    assert _underscore_reads(MODULES[module]) == []


def test_the_checks_catch_what_they_should(tmp_path):
    bad = tmp_path / "bad.py"
    bad.write_text("from irr._data import _hidden\n\ndef f(ag):\n    return ag._source\n")
    assert [name for _, name in _underscore_reads(bad)] == ["_hidden", "ag._source"]
    lazy = tmp_path / "lazy.py"
    lazy.write_text("def f():\n    from irr.agreement import Agreement\n")
    assert _imports(lazy, "irr.lazy") == [("irr.agreement", 2, False),
                                         ("irr.agreement.Agreement", 2, False)]
    declared = tmp_path / "declared.py"
    declared.write_text("from irr._lazy import lazy_module\nkendall = lazy_module("
                        "'irr.estimators.kendall')\n\ndef f():\n    return lazy_module('irr.cli')\n")
    assert _imports(declared, "irr.declared") == [
        ("irr._lazy", 1, True), ("irr._lazy.lazy_module", 1, True),
        ("irr.estimators.kendall", 2, True), ("irr.cli", 5, False)]
    typed = tmp_path / "typed.py"
    typed.write_text("from typing import TYPE_CHECKING\nif TYPE_CHECKING:\n"
                     "    from irr.results import Result\nelse:\n    import irr.cli\n")
    assert _imports(typed, "irr.typed") == [("irr.results", 3, True),
                                           ("irr.results.Result", 3, True), ("irr.cli", 5, False)]


def test_the_cycle_check_counts_annotation_and_function_imports(tmp_path):
    # a module importing another only for annotations, which imports it back only inside a
    # function: a cycle all the same; a third module that both import is not in it
    files = {
        "irr.low": "import math\n",
        "irr.upper": "from typing import TYPE_CHECKING\nimport irr.low\n"
                     "if TYPE_CHECKING:\n    from irr.lower import Thing\n",
        "irr.lower": "import irr.low\n\ndef f():\n    from irr.upper import g\n",
    }
    modules = {}
    for name, text in files.items():
        modules[name] = tmp_path / f"{name.split('.')[-1]}.py"
        modules[name].write_text(text)
    graph = _import_graph(modules)
    assert graph == {"irr.low": {}, "irr.upper": {"irr.low": 2, "irr.lower": 4},
                     "irr.lower": {"irr.low": 1, "irr.upper": 4}}
    assert _cycles(graph) == [["irr.lower", "irr.upper", "irr.lower"]]
    assert _cycle_text(graph, ["irr.lower", "irr.upper", "irr.lower"]) == (
        "irr.lower (line 4) -> irr.upper (line 4) -> irr.lower")
    modules["irr.lower"].write_text("import irr.low\n")
    assert _cycles(_import_graph(modules)) == []


def _members(protocol):
    """The names a typing Protocol declares (its properties and methods)."""
    return {name for name, value in vars(protocol).items()
            if not name.startswith("_") and (isinstance(value, property) or callable(value))}


@pytest.mark.parametrize(("protocol", "cls"), [(ResultLike, Result),
                                               (IntervalLike, ConfidenceInterval)])
def test_every_result_has_what_the_renderers_read(protocol, cls):
    # summary and _sentences annotate with these protocols instead of importing results:
    # the class they stand for must have every member they declare
    assert _members(protocol)
    fields = {f.name for f in dataclasses.fields(cls)}
    missing = sorted(m for m in _members(protocol) if m not in fields and not hasattr(cls, m))
    assert missing == [], f"{cls.__name__} lacks {missing} of {protocol.__name__}"
