"""Issue 16, section "Docs": the documentation sources, checked without building them.

* The vignettes draw with ``irr.plotting`` and write their sentences with ``report()``: no
  matplotlib code and no result sentences assembled by hand in an f-string.
* Every page has a section navigation: pydata-sphinx-theme fills the left sidebar with the
  pages of the section (a child of the root toctree) the current page belongs to, so the root
  toctree lists section pages that have children of their own, and every other page is the
  child of one of them. A page listed directly in the root toctree (as the vignettes, the
  compatibility page and the reference pages were) is a section of its own, with an empty
  left sidebar.
* conf.py names the sidebars and the stylesheet that makes output blocks and tables fit a
  1,300 px window.
"""

from __future__ import annotations

import ast
import contextlib
import pathlib
import re

import pytest

ROOT = pathlib.Path(__file__).resolve().parents[2]
DOCS = ROOT / "docs"
VIGNETTES = sorted(
    p for p in (ROOT / "vignettes").glob("*.md") if p.name not in ("index.md", "README.md")
)

#: Drawing by hand: pyplot, matplotlib itself, pandas' .plot(), or drawing calls on an Axes.
HAND_DRAWING = re.compile(
    r"import matplotlib|from matplotlib|\bplt\.|\.plot\(|\.subplots\("
    r"|\bax(es)?(\[\d\])?\.(plot|bar|barh|hist|imshow|scatter|errorbar|step|axvline|axhline"
    r"|axvspan|text|fill_between|set_\w+|legend|invert_\w+)\("
)
#: A result sentence assembled by hand: an f-string that formats a number into prose.
HAND_SENTENCE = re.compile(r"""\bf(["'])[^"'\n]*[A-Za-z]{3,}[^"'\n]*\{[^}]*:[^}]*\}""")


def _code_cells(path: pathlib.Path) -> list[str]:
    return re.findall(r"```\{code-cell\}[^\n]*\n(.*?)```", path.read_text(), flags=re.S)


def _toctree_entries(path: pathlib.Path) -> list[str]:
    """The documents of every MyST toctree of a page, as docnames relative to docs/."""
    entries = []
    base = path.relative_to(DOCS).parent if path.is_relative_to(DOCS) else pathlib.Path(
        "vignettes"
    )
    for body in re.findall(r"```\{toctree\}[^\n]*\n(.*?)```", path.read_text(), flags=re.S):
        for line in body.splitlines():
            line = line.strip()
            if not line or line.startswith(":"):
                continue
            entries.append(line[1:] if line.startswith("/") else (base / line).as_posix())
    return entries


def _source(docname: str) -> pathlib.Path:
    if docname.startswith("vignettes/"):
        return ROOT / "vignettes" / (docname.split("/", 1)[1] + ".md")
    for suffix in (".md", ".rst"):
        if (DOCS / (docname + suffix)).exists():
            return DOCS / (docname + suffix)
    raise AssertionError(f"toctree entry {docname!r} has no source file")


def _conf_assignments() -> dict[str, object]:
    tree = ast.parse((DOCS / "conf.py").read_text())
    values = {}
    for node in tree.body:
        if isinstance(node, (ast.Assign, ast.AnnAssign)) and node.value is not None:
            targets = node.targets if isinstance(node, ast.Assign) else [node.target]
            for target in targets:
                if isinstance(target, ast.Name):
                    with contextlib.suppress(ValueError):
                        values[target.id] = ast.literal_eval(node.value)
    return values


def test_there_are_vignettes():
    assert [p.stem for p in VIGNETTES] == [
        "clinical_rating_study", "error_rate", "gtheory_planning", "many_raters_missing",
        "method_comparison", "ordinal_model_qwk", "pandas_multisite", "planning_study",
    ]


@pytest.mark.parametrize("path", VIGNETTES, ids=lambda p: p.stem)
def test_vignette_draws_with_irr_plotting_only(path):
    cells = _code_cells(path)
    assert cells, f"{path.name} has no code cells"
    hand = [m.group(0) for cell in cells for m in HAND_DRAWING.finditer(cell)]
    assert hand == [], f"{path.name} draws by hand: {hand}"
    assert any("irr.plotting." in cell for cell in cells), f"{path.name} draws no figure"


@pytest.mark.parametrize("path", VIGNETTES, ids=lambda p: p.stem)
def test_vignette_sentences_come_from_report(path):
    cells = _code_cells(path)
    hand = [m.group(0) for cell in cells for m in HAND_SENTENCE.finditer(cell)]
    assert hand == [], f"{path.name} writes result sentences by hand: {hand}"
    assert any(".report()" in cell for cell in cells), f"{path.name} never calls report()"


def test_hand_patterns_catch_what_the_vignettes_used_to_do():
    """The two patterns match the code the clinical and error-rate vignettes had."""
    drawn = 'fig, ax = plt.subplots(figsize=(6, 3))\nax.hist(reps, bins=60, color="0.6")'
    assert HAND_DRAWING.findall(drawn)
    assert HAND_DRAWING.search('ax = paradox.plot(marker="o", figsize=(6, 3))')
    assert not HAND_DRAWING.search("irr.plotting.forest(per_site, reference=0.1);")
    sentence = 'print(f"model A disagreed on {r.errors} ({r.estimate:.1%}) cases")'
    assert HAND_SENTENCE.search(sentence)
    assert not HAND_SENTENCE.search("print(res.report())")


def test_root_toctree_lists_sections_that_have_children():
    sections = _toctree_entries(DOCS / "index.md")
    assert sections == ["guide/index", "vignettes/index", "reference"]
    for section in sections:
        assert _toctree_entries(_source(section)), f"section {section!r} has no pages"


def test_every_page_belongs_to_a_section():
    sections = _toctree_entries(DOCS / "index.md")
    children = {c for s in sections for c in _toctree_entries(_source(s))}
    pages = {
        p.relative_to(DOCS).with_suffix("").as_posix()
        for p in DOCS.rglob("*")
        if p.suffix in (".md", ".rst") and p.parts[len(DOCS.parts)] not in (
            "_build", "_templates", "vignettes")
        and "generated" not in p.parts
    }
    pages |= {f"vignettes/{p.stem}" for p in VIGNETTES}
    pages -= {"index", *sections}
    assert sorted(pages - children) == []
    assert {"compat", "missing_and_degenerate", "cli", "architecture", "api/index"} <= children


def test_conf_names_the_sidebars_and_the_stylesheet():
    conf = _conf_assignments()
    assert conf["html_theme"] == "pydata_sphinx_theme"
    assert conf["html_sidebars"] == {"index": [], "**": ["sidebar-nav-bs"]}
    assert conf["html_theme_options"]["secondary_sidebar_items"][0] == "page-toc"
    assert conf["html_theme_options"]["show_toc_level"] == 2
    assert conf["html_static_path"] == ["_static"]
    assert conf["html_css_files"] == ["irr.css"]


def test_stylesheet_wraps_output_and_tables():
    css = (DOCS / "_static" / "irr.css").read_text()
    rules = dict(
        (selector.strip(), body)
        for selector, body in re.findall(r"([^{}]+)\{([^{}]*)\}", re.sub(r"/\*.*?\*/", "", css,
                                                                         flags=re.S))
    )
    output = rules[".bd-article div.cell_output pre"]
    assert "white-space: pre-wrap" in output
    assert "font-size: 0.68rem" in output
    tables = rules[
        ".bd-article table:not(.autosummary) code.literal,\n"
        ".bd-article table:not(.autosummary) code.literal span.pre"
    ]
    assert "overflow-wrap: anywhere" in tables
    assert "max-width: 100%" in rules[".bd-main .bd-content .bd-article-container"]
