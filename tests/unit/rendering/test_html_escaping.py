"""Text from the data is never markup: every HTML page, table and ``_repr_html_`` of irr
escapes the raters, categories, units, titles, group names, notes and file names it shows,
in element content and in attribute values (a figure's ``alt``), and every full page carries
a Content-Security-Policy that forbids script.

Each hostile text would, if it became markup, run ``document.title=113*997``; the page is
parsed (only the package's own tags and attributes, no event handler) and opened in headless
Chromium, with its policy and without it, and the number 112661 must never appear. One
Chromium, driven by selenium, opens every page of the module.
"""

import functools
import html.parser
import re
import warnings

import numpy as np
import pandas as pd
import pytest

import irr
from irr._html import CONTENT_SECURITY_POLICY, escape_html, html_page
from tests.support.chromium import loaded_dom, session
from tests.support.cli_runner import cli

RUN = "document.title=113*997"
MARKER = str(113 * 997)  # in the page only if a hostile text ran as script

# one hostile text per place user text reaches a page, each breaking out a different way
RATERS = [f'r1" onload="{RUN}" x="', f"r2' onerror='{RUN}' x='"]
CATEGORIES = [f"<img src=x onerror={RUN}>", f"</title><script>{RUN}</script>",
              f"<svg onload={RUN}>"]
TITLE = f'</title><script>{RUN}</script><b title="'
GROUPS = [f'g" onmouseover="{RUN}', f"<svg/onload={RUN}>"]
UNITS = f'mmHg" onload="{RUN}" x="<script>{RUN}</script>'
NOTE = f"<iframe srcdoc='<script>{RUN}</script>'></iframe>"
FILE_NAME = f'f" onload="{RUN}" y="<svg onload={RUN}>'  # no "/": a file name

# the markup irr writes, and nothing else
TAGS = {"html", "head", "meta", "title", "style", "body", "header", "h1", "h2", "h3", "p",
        "main", "section", "table", "thead", "tbody", "tr", "th", "td", "ol", "ul", "li",
        "figure", "img", "figcaption", "strong", "caption", "br", "div"}
ATTRIBUTES = {"lang", "charset", "http-equiv", "content", "name", "class", "id", "scope",
              "alt", "src", "style", "border"}


class _Page(html.parser.HTMLParser):
    """The tags, attributes and decoded text of a page."""

    def __init__(self, text):
        super().__init__(convert_charrefs=True)
        self.tags, self.attributes, self.texts = [], [], []
        self.feed(text)
        self.close()

    def handle_starttag(self, tag, attrs):
        self.tags.append(tag)
        for name, value in attrs:
            self.attributes.append((tag, name, value))
            self.texts.append(value or "")

    def handle_data(self, data):
        self.texts.append(data)


def assert_inert(text, shown=(), page=True):
    """`text` is irr's markup only, each of `shown` appears literally (as text or an
    attribute's value), and a full page has the policy first in its head."""
    parsed = _Page(text)
    assert set(parsed.tags) <= TAGS, set(parsed.tags) - TAGS
    bad = [(t, n) for t, n, _ in parsed.attributes if n not in ATTRIBUTES or n.startswith("on")]
    assert not bad, bad
    decoded = "\n".join(parsed.texts)
    for hostile in shown:
        assert hostile in decoded, f"{hostile!r} does not reach the page"
    if page:
        assert parsed.tags[:4] == ["html", "head", "meta", "meta"]
        assert parsed.attributes[2:4] == [("meta", "http-equiv", "Content-Security-Policy"),
                                          ("meta", "content", CONTENT_SECURITY_POLICY)]
        assert parsed.tags.count("title") == 1


def categorical_frame():
    rng = np.random.default_rng(30)
    first = rng.integers(0, 3, 40)
    second = np.where(rng.random(40) < 0.7, first, rng.integers(0, 3, 40))
    labels = np.array(CATEGORIES, dtype=object)
    return pd.DataFrame({"site": np.repeat(GROUPS, 20), RATERS[0]: labels[first],
                         RATERS[1]: labels[second]})


def continuous_frame():
    rng = np.random.default_rng(31)
    truth = rng.normal(120, 15, 40)
    return pd.DataFrame({RATERS[0]: np.round(truth + rng.normal(0, 4, 40), 1),
                         RATERS[1]: np.round(truth + rng.normal(2, 4, 40), 1)})


@functools.cache  # the pages fixture and the alt-text test read the same two reports
def api_pages():
    """Pages of the Python API: {name: (html, the hostile texts it shows)}; computed once,
    the callers only read them."""
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        categorical = irr.report(categorical_frame(), raters=RATERS, by="site", title=TITLE,
                                 notes=[NOTE], n_resamples=200)
        continuous = irr.report(continuous_frame(), options={"loa": {"units": UNITS}},
                                n_resamples=200)
    return {"categorical report": (categorical.to_html(),
                                   [*RATERS, *CATEGORIES, TITLE, *GROUPS, NOTE]),
            "continuous report": (continuous.to_html(), [*RATERS, UNITS])}


@pytest.fixture(scope="module")
def pages(tmp_path_factory):
    """Every page: the API's and the command line's, as files."""
    folder = tmp_path_factory.mktemp("pages")
    found = {}
    for n, (name, (text, shown)) in enumerate(api_pages().items()):
        found[name] = (folder / f"api-{n}.html", shown)
        found[name][0].write_text(text, encoding="utf-8")
    rng = np.random.default_rng(32)
    first = rng.integers(1, 33, 80)  # 32 categories: the table heatmap, whose alt names the raters
    wide = pd.DataFrame({RATERS[0]: first,
                         RATERS[1]: np.where(rng.random(80) < 0.6, first, rng.integers(1, 33, 80))})
    data = folder / f"{FILE_NAME}.csv"
    wide.to_csv(data, index=False)
    measured = folder / "measured.csv"
    continuous_frame().to_csv(measured, index=False)
    # columns read as methods with replicates: the note names the file
    replicates = folder / f"{FILE_NAME}-replicates.csv"
    frame = continuous_frame()
    pd.DataFrame({"cuff_1": frame[RATERS[0]], "cuff_2": frame[RATERS[0]] + 1,
                  "line_1": frame[RATERS[1]], "line_2": frame[RATERS[1]] - 1}).to_csv(
        replicates, index=False)
    commands = {
        "cli report": (("report", str(data), "--n-resamples", "200"), RATERS),
        "cli agreement": (("agreement", str(measured), "--units", UNITS), [*RATERS, UNITS]),
        "cli file name": (("report", str(replicates), "--no-figures"), [str(replicates)]),
        "cli error rate": (("error-rate", str(data), "--epsilon0", "0.3"), RATERS),
        "cli datasets": (("datasets",), []),
    }
    for n, (name, (args, shown)) in enumerate(commands.items()):
        path = folder / f"cli-{n}.html"
        status, _, err = cli(*args, "--format", "html", "--output", str(path))
        assert status == 0, (name, err)
        found[name] = (path, shown)
    return found


PAGES = ["categorical report", "continuous report", "cli report", "cli agreement",
         "cli file name", "cli error rate", "cli datasets"]


@pytest.mark.parametrize("name", PAGES)
def test_every_page_shows_hostile_text_as_text_under_a_policy(pages, name):
    path, shown = pages[name]
    text = path.read_text(encoding="utf-8")
    assert_inert(text, shown)
    assert not re.search(r"<(script|svg|iframe)", text)


def test_figure_alt_text_escapes_quotes():
    # the report's figures: the agreement chart's alt text names the raters
    text, _ = api_pages()["categorical report"]
    alts = [value for tag, name, value in _Page(text).attributes if name == "alt"]
    assert any(RATERS[0] in alt and RATERS[1] in alt for alt in alts), alts
    assert 'alt="Agreement chart (Bangdiwala, 1985) of r1&quot; onload=&quot;' in text


def test_fragments_escape_hostile_names():
    # the tables of a notebook (_repr_html_) and of summary().as_html(): fragments, no page
    frame = categorical_frame().drop(columns="site")
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        ag = irr.Agreement.from_frame(frame)
        result = ag.kappa()
        fragments = [result._repr_html_(), result.summary().as_html(), ag.summary().as_html(),
                     ag.error_rate_test(0.3, reference=RATERS[0])._repr_html_(),
                     irr.compare(result, ag.percent_agreement(), title=TITLE).as_html(),
                     irr.benchmark(0.4, se=0.1, scale=[(0.5, RATERS[0]), (1.0, RATERS[1])]
                                   )._repr_html_()]
    for fragment in fragments:
        assert_inert(fragment, page=False)
        assert not re.search(r"<(script|svg|iframe)", fragment)


def test_escape_html_is_safe_in_text_and_in_either_attribute_quote():
    assert escape_html(""""'<>&""") == "&quot;&#x27;&lt;&gt;&amp;"
    for hostile in [*RATERS, *CATEGORIES, TITLE, UNITS, NOTE, FILE_NAME]:
        for quote in "\"'":
            parsed = _Page(f"<p><img alt={quote}{escape_html(hostile)}{quote}>"
                           f"{escape_html(hostile)}</p>")
            assert parsed.tags == ["p", "img"]
            assert parsed.attributes == [("img", "alt", hostile)]
            assert parsed.texts == [hostile, hostile]


@pytest.mark.parametrize("seed", range(4))
def test_escape_html_matches_the_standard_library(seed):
    # escape_html makes html.escape(quote=True)'s replacements without importing html
    import html as stdlib_html

    rng = np.random.default_rng(seed)
    alphabet = [*"&<>\"'a b;#x27amplgtquot\u00e9\u2264\n\t", "&amp;", "&#x27;", "<<"]
    for _ in range(300):
        text = "".join(rng.choice(alphabet, int(rng.integers(0, 30))))
        assert escape_html(text) == stdlib_html.escape(text, quote=True)
    for value in (None, 3.5, ["<a>"], b"&"):
        assert escape_html(value) == stdlib_html.escape(str(value), quote=True)


def test_every_page_has_one_policy_that_forbids_script():
    page = html_page("t", "<p>x</p>")
    policy = dict(d.strip().split(" ", 1) for d in CONTENT_SECURITY_POLICY.split(";"))
    # no script-src: default-src 'none' forbids script, inline handlers and javascript: URLs
    assert policy == {"default-src": "'none'", "img-src": "data:",
                      "style-src": "'unsafe-inline'", "base-uri": "'none'",
                      "form-action": "'none'"}
    head = page[:page.index("<title>")]
    assert head.count('http-equiv="Content-Security-Policy"') == 1
    assert page.index("Content-Security-Policy") < page.index("<style>")


# -- in a browser --------------------------------------------------------------------------------
POLICY = re.compile(r'<meta http-equiv="Content-Security-Policy" content="[^"]*">\n?')


@pytest.fixture(scope="module")
def browser():
    """One headless Chromium for every page of the module (skips without one, fails in CI)."""
    with session() as driver:
        yield driver


def _dom(browser, path):
    """The DOM of `path` after Chromium has loaded it and run whatever it would run."""
    dom = loaded_dom(browser, path)
    assert dom.endswith("</html>"), f"the page did not load: {dom[-2000:]}"
    return dom


def test_the_browser_check_sees_script_that_runs(browser, tmp_path):
    # the check can fail: a hostile name pasted unescaped runs without a policy, and the
    # policy alone stops it
    unescaped = f'<figure><img alt="{RATERS[0]}" src="data:image/gif;base64,R0lGODlhAQABAAAAACw=">' \
                f"</figure><p>{CATEGORIES[1]}</p>"
    bare = tmp_path / "bare.html"
    bare.write_text(POLICY.sub("", html_page("t", unescaped)), encoding="utf-8")
    assert MARKER in _dom(browser, bare)
    guarded = tmp_path / "guarded.html"
    guarded.write_text(html_page("t", unescaped), encoding="utf-8")
    assert MARKER not in _dom(browser, guarded)


@pytest.mark.parametrize("name", PAGES)
def test_no_hostile_text_runs_in_chromium(pages, browser, name, tmp_path):
    path, shown = pages[name]
    text = path.read_text(encoding="utf-8")
    dom = _dom(browser, path)
    assert MARKER not in dom
    # as the browser built it: irr's elements only, no handler, the hostile texts as text
    assert_inert(dom, shown)
    # escaping alone: the same page without its policy runs nothing either
    bare = tmp_path / path.name
    bare.write_text(POLICY.sub("", text), encoding="utf-8")
    assert "Content-Security-Policy" not in bare.read_text(encoding="utf-8")
    dom = _dom(browser, bare)
    assert MARKER not in dom
    assert_inert(dom, shown, page=False)


def test_a_plot_file_with_hostile_names_runs_nothing(browser, tmp_path):
    # an SVG file opened by itself is a document that could run script (the browser
    # fixture skips, or fails in CI, before the plot is drawn)
    data = tmp_path / "measured.csv"
    continuous_frame().to_csv(data, index=False)
    plot = tmp_path / "plot.svg"
    status, _, err = cli("agreement", str(data), "--units", UNITS, "--plot", str(plot))
    assert status == 0, err
    # the names are in the SVG (as comments and glyphs): as XML, no script and no handler
    from xml.etree import ElementTree
    elements = list(ElementTree.parse(plot).getroot().iter())
    assert {e.tag.rsplit("}", 1)[-1] for e in elements} <= {
        "svg", "metadata", "RDF", "Work", "type", "date", "format", "creator", "Agent",
        "title", "defs", "style", "g", "path", "use", "clipPath", "rect", "text"}
    assert not [a for e in elements for a in e.attrib if a.rsplit("}", 1)[-1].startswith("on")]
    assert RATERS[0] in plot.read_text(encoding="utf-8")  # the names reach the file, inert
    dom = loaded_dom(browser, plot)
    assert dom.endswith("</svg>"), dom[-2000:]
    assert MARKER not in dom
