"""Sphinx configuration for the irr documentation.

Build with ``sphinx-build -j auto -W --keep-going -b html docs docs/_build/html`` from the
repository root (``-j auto``: one process per core; see ``_spread_executed`` below). The
vignettes in ``../vignettes`` (reached through the ``docs/vignettes`` symlink) are MyST markdown
notebooks that myst-nb executes on every build; a failing cell fails the build.
Nothing is fetched from the network: intersphinx is not used.
"""

from __future__ import annotations

import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE / "_ext"))
sys.path.insert(0, str(HERE.parent))  # the package itself, when it is not installed

import irr  # noqa: E402

project = "irr"
author = "The irr developers"
copyright = "The irr developers, BSD-3-Clause"
release = irr.__version__
version = ".".join(release.split(".")[:2])

extensions = [
    "sphinx.ext.autodoc",
    "sphinx.ext.autosummary",
    "sphinx.ext.mathjax",
    "numpydoc",
    "myst_nb",
    "irr_cli_help",
]

templates_path = ["_templates"]
exclude_patterns = [
    "_build",
    "**/.ipynb_checkpoints",
    ".venv*",
    "**/.venv*",
    "audit_examples.py",
    "check_layout.py",
    "vignettes/README.md",
]
root_doc = "index"
source_suffix = {".rst": "restructuredtext", ".md": "myst-nb", ".ipynb": "myst-nb"}

# -- API reference ----------------------------------------------------------------------
autosummary_generate = True
autosummary_imported_members = True
autodoc_typehints = "none"  # the numpydoc Parameters sections carry the types
autodoc_member_order = "groupwise"
numpydoc_show_class_members = False
numpydoc_class_members_toctree = False
numpydoc_xref_param_type = False
numpydoc_attributes_as_param_list = False

# -- MyST and notebooks -----------------------------------------------------------------
myst_enable_extensions = ["dollarmath", "amsmath", "colon_fence", "deflist"]
myst_heading_anchors = 3
nb_execution_mode = "force"  # run every vignette on every build
nb_execution_timeout = 300
nb_execution_raise_on_error = True
nb_execution_show_tb = True
nb_merge_streams = True
nb_kernel_rgx_aliases = {".*": "python3"}

# -- HTML -------------------------------------------------------------------------------
# The root toctree (index.md) has three sections: the user guide, the vignettes and the
# reference. pydata-sphinx-theme puts them in the header and fills the left sidebar
# ("Section navigation") with the pages of the section the current page belongs to, so every
# page sits under one of them; a page listed directly in the root toctree would be a section
# of its own, with an empty left sidebar. The right sidebar lists the page's own headings.
html_theme = "pydata_sphinx_theme"
html_title = f"irr {release}"
html_theme_options = {
    "navigation_with_keys": False,
    "header_links_before_dropdown": 4,
    "show_nav_level": 1,
    "show_toc_level": 2,
    "secondary_sidebar_items": ["page-toc", "sourcelink"],
}
html_sidebars = {
    "index": [],  # the home page lists every section in its body
    "**": ["sidebar-nav-bs"],
}
html_static_path = ["_static"]
# Output blocks and tables fit a 1,300 px window: see _static/irr.css.
html_css_files = ["irr.css"]


# -- Parallel build -----------------------------------------------------------------------
# With ``-j``, Sphinx reads the documents in contiguous slices of its sorted list, one process
# per slice. The executed notebooks (guide pages with code cells and every vignette) are most
# of the build's time and sit together near the end of that list (guide/, vignettes/), so a
# few slices would hold all of them while the other processes idle. Spreading them evenly
# through the reading order gives every process its share. The order changes nothing in the
# output: the processes' results are merged, and the HTML is byte for byte a serial build's.


def _spread_executed(app, env, docnames: list[str]) -> None:
    if app.parallel <= 1:
        return
    executed = [d for d in docnames if "{code-cell}" in Path(env.doc2path(d)).read_text("utf-8")]
    if not executed:
        return
    skipped = set(executed)
    rest = iter([d for d in docnames if d not in skipped])
    n, k = len(docnames), len(executed)
    slot = {int((j + 0.5) * n / k): d for j, d in enumerate(executed)}
    docnames[:] = [slot[i] if i in slot else next(rest) for i in range(n)]


def setup(app):
    app.connect("env-before-read-docs", _spread_executed)
