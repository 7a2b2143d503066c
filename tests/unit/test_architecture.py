"""The package's shape: imports go one way down the layers, and no module reaches into
another module's (or object's) underscore names. See docs/architecture.md."""

import ast
import pathlib

import pytest

import irr

ROOT = pathlib.Path(irr.__file__).parent

#: Every module's layer, bottom (0) to top. A module may import modules of its own layer
#: or lower ones, never higher; within a layer the imports must not form a cycle.
LAYERS = {
    0: [  # foundations: validation, scales, weights, pure formulas, data sets
        "irr._validation", "irr._version", "irr.weights", "irr.bands", "irr.datasets",
        "irr.coefficients", "irr.coefficients.*",
    ],
    1: ["irr._columns", "irr._data", "irr._frames", "irr._long", "irr._source",
        "irr._measurements"],  # input (Source holds continuous ratings as Measurements)
    2: ["irr._statistics", "irr._moments"],  # sufficient statistics (categories; moments)
    3: ["irr.inference", "irr.inference.options", "irr.inference.bootstrap",
        "irr.inference.plan"],  # inference engine
    4: ["irr._numbers", "irr.summary", "irr._report", "irr.inference._report", "irr.results",
        "irr.comparison", "irr.reporting"],  # results and rendering
    5: ["irr.estimators", "irr.estimators.*", "irr.inference.error_rate",
        "irr.inference.paired", "irr.inference.learners", "irr.ordinal",
        "irr.ordinal.*"],  # estimators and tests
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


def _imports(path, module, typing=True):
    """(imported irr module, line, at module level?) of every import in `path`; with
    ``typing=False`` without those under ``if TYPE_CHECKING:`` (annotations only)."""
    tree = ast.parse(path.read_text())
    top = set(map(id, tree.body))
    is_package = path.name == "__init__.py"
    out = []
    for node in ast.walk(tree):
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
        checking = _in_type_checking(tree, node)
        if checking and not typing:
            continue
        for name in names:
            if name == "irr" or name.startswith("irr."):
                out.append((name, node.lineno, id(node) in top or checking))
    return out


def _in_type_checking(tree, node):
    return any(
        isinstance(stmt, ast.If) and "TYPE_CHECKING" in ast.unparse(stmt.test)
        and any(child is node for child in ast.walk(stmt))
        for stmt in tree.body
    )


MODULES = dict(_modules())


def _resolve(name):
    """The module an import names (``irr.x.y`` may be module ``irr.x`` and attribute y)."""
    while name not in MODULES and "." in name:
        name = name.rsplit(".", 1)[0]
    return name


def test_every_module_has_a_layer():
    for module in MODULES:
        _layer(module)


@pytest.mark.parametrize("module", sorted(MODULES))
def test_imports_go_down_the_layers(module):
    level = _layer(module)
    for name, line, _ in _imports(MODULES[module], module, typing=False):
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
    graph = {m: {_resolve(n) for n, _, _ in _imports(p, m, typing=False)} - {m}
             for m, p in MODULES.items()}
    graph["irr"] = set()  # the package's __init__ only re-exports
    state = {}

    def visit(node, stack):
        state[node] = "active"
        for nxt in sorted(graph.get(node, ())):
            if nxt == "irr" or nxt not in graph:
                continue
            if state.get(nxt) == "active":
                raise AssertionError("import cycle: " + " -> ".join([*stack, node, nxt]))
            if nxt not in state:
                visit(nxt, [*stack, node])
        state[node] = "done"

    for module in sorted(graph):
        if module not in state:
            visit(module, [])


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
