"""Every renderer (HTML, LaTeX, markdown; summaries, results, the CLI's formats) escapes what
the data name: rater names and titles are shown, never interpreted."""

import re

import pandas as pd
import pytest

import irr
import irr.cli
from tests.unit.cli.test_commands import run

# -- hostile rater names and titles ---------------------------------------------------------------
HOSTILE = ["<script>alert(1)</script>", "a|b", "50%_&"]
HOSTILE_FRAME = pd.DataFrame(dict(zip(HOSTILE, [[1, 2, 1, 2, 1, 3, 2, 1],
                                               [1, 2, 2, 2, 1, 3, 2, 1],
                                               [1, 2, 1, 1, 1, 3, 2, 2]], strict=True)))


def hostile_summaries():
    import warnings
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        ag = irr.Agreement.from_frame(HOSTILE_FRAME)
        two = irr.Agreement.from_frame(HOSTILE_FRAME, raters=HOSTILE[:2])
        return {
            "result": ag.fleiss_kappa().summary(),
            "agreement": ag.summary(),
            "compare": irr.compare(two.kappa(), ag.fleiss_kappa(), title="<b>t</b> 50%_&"),
            "error rate family": ag.error_rate_test(0.5, reference=HOSTILE[0]).summary(),
            "accessor": HOSTILE_FRAME.irr.summary(),
        }


@pytest.mark.parametrize("name", ["result", "agreement", "compare", "error rate family",
                                  "accessor"])
def test_html_escapes_rater_names_and_titles(name):
    summary = hostile_summaries()[name]
    for html in (summary.as_html(), summary._repr_html_()):
        assert "<script>" not in html
        assert "<b>" not in html
        assert "&lt;script&gt;alert(1)&lt;/script&gt;" in html
        assert "50%_&amp;" in html
        assert "a|b" in html


@pytest.mark.parametrize("name", ["result", "agreement", "compare", "error rate family",
                                  "accessor"])
def test_latex_escapes_rater_names_and_titles(name):
    latex = hostile_summaries()[name].as_latex()
    escaped = r"\textless{}script\textgreater{}alert(1)\textless{}/script\textgreater{}"
    assert escaped in latex
    assert "<script>" not in latex
    assert r"a\textbar{}b" in latex
    assert r"50\%\_\&" in latex
    # every unescaped & is a column separator: 50%_& must not add a column
    for line in latex.splitlines():
        if line.rstrip().endswith("\\\\"):
            assert len(re.split(r"(?<!\\)&", line)) in (3, 4, 7, 8, 9)  # 8: a CI method column


def test_result_repr_html_escapes():
    result = irr.Agreement.from_frame(HOSTILE_FRAME, raters=HOSTILE[:2]).kappa()
    assert "<script>" not in result._repr_html_()
    assert "&lt;script&gt;" in result._repr_html_()


@pytest.fixture
def hostile_csv(tmp_path):
    path = tmp_path / "hostile.csv"
    HOSTILE_FRAME.to_csv(path, index=False)
    return path


def test_cli_html_escapes(hostile_csv):
    out = run("multi", str(hostile_csv), "--format", "html")
    assert out.returncode == 0, out.stderr
    assert "<script>" not in out.stdout
    assert "&lt;script&gt;alert(1)&lt;/script&gt;" in out.stdout


def test_cli_markdown_escapes(hostile_csv):
    out = run("report", str(hostile_csv), "--format", "markdown")
    assert out.returncode == 0, out.stderr
    assert "<script>" not in out.stdout
    assert r"\<script\>alert(1)\</script\>" in out.stdout
    assert r"a\|b" in out.stdout
    assert r"50%\_&" in out.stdout
    # each table keeps its header's columns in every row: a|b adds no cell
    tables, block = [], []
    for line in [*out.stdout.splitlines(), ""]:
        if line.startswith("|"):
            block.append(len(__import__("re").split(r"(?<!\\)\|", line)))
        elif block:
            tables.append(block)
            block = []
    assert len(tables) == 2  # the results and the GRRAS checklist
    assert all(len(set(counts)) == 1 for counts in tables)


def test_cli_latex_escapes(hostile_csv):
    out = run("report", str(hostile_csv), "--format", "latex")
    assert out.returncode == 0, out.stderr
    assert "<script>" not in out.stdout
    assert r"\textless{}script\textgreater{}" in out.stdout
    assert r"50\%\_\&" in out.stdout


def test_escapers_on_every_special_character():
    from irr.summary import escape_latex, escape_markdown
    assert escape_latex("&%$#_{}~^\\<>|\n") == (
        r"\&\%\$\#\_\{\}\textasciitilde{}\textasciicircum{}\textbackslash{}\textless{}"
        r"\textgreater{}\textbar{} ")
    assert escape_markdown("a|b `c` *d* _e_ [f](g) <h>\ni") == (
        r"a\|b \`c\` \*d\* \_e\_ \[f\](g) \<h\> i")
