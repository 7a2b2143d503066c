"""The HTML reliability report in a real browser (issue #16): headless Chromium loads the
page with no error (a breach of its Content-Security-Policy is one), every figure has a
non-zero size, and the page fits 1,300 px.

Chromium is Debian's package (``.ci/run`` installs it when missing). Outside CI the test is
skipped on a machine without it; in CI a missing browser fails the test. One Chromium,
driven by selenium, opens every report of the module.
"""

import base64
import hashlib
import json
import re

import pytest

from tests.support.chromium import loaded_dom, session
from tests.support.cli_runner import cli

PROBE = """
window.__errors = [];
document.addEventListener("securitypolicyviolation", function (e) {
  window.__errors.push("CSP violation: " + e.violatedDirective + " " + e.blockedURI);
});
window.addEventListener("error", function (e) {
  var t = e.target;
  window.__errors.push(String(e.message || (t && (t.src || t.href || t.tagName)) || "error"));
}, true);
window.addEventListener("unhandledrejection", function (e) {
  window.__errors.push("unhandled rejection: " + String(e.reason));
});
["error", "warn"].forEach(function (level) {
  var original = console[level];
  console[level] = function () {
    window.__errors.push(level + ": " + Array.prototype.join.call(arguments, " "));
    original.apply(console, arguments);
  };
});
window.addEventListener("load", function () {
  var figures = Array.prototype.map.call(document.querySelectorAll("figure img"), function (img) {
    var box = img.getBoundingClientRect();
    return {natural: [img.naturalWidth, img.naturalHeight], shown: [box.width, box.height],
            complete: img.complete};
  });
  var probe = document.createElement("pre");
  probe.id = "irr-probe";
  probe.textContent = JSON.stringify({
    errors: window.__errors, figures: figures, title: document.title,
    scrollWidth: document.documentElement.scrollWidth,
    sections: Array.prototype.map.call(document.querySelectorAll("section h2"),
                                       function (h) { return h.textContent; })
  });
  document.body.appendChild(probe);
});
"""
POLICY = re.compile(r'<meta http-equiv="Content-Security-Policy" content="([^"]*)">')


@pytest.fixture(scope="module")
def browser():
    """One headless Chromium, 1,300 px wide, for every report of the module (skips without
    one, fails in CI)."""
    with session("--window-size=1300,900") as driver:
        yield driver


def _load(browser, path):
    """Open `path` (with the probe script) in headless Chromium; the probe's findings."""
    html = path.read_text(encoding="utf-8")
    # the page's policy forbids script: it is kept, and the probe alone allowed by its
    # hash, placed after the policy (a meta policy governs only what follows it)
    policy = POLICY.search(html)
    assert policy, "the page has no Content-Security-Policy"
    digest = base64.b64encode(hashlib.sha256(PROBE.encode()).digest()).decode()
    allowed = policy.group(0).replace(
        policy.group(1), f"{policy.group(1)}; script-src 'sha256-{digest}'")
    probed = path.with_name("probed-" + path.name)
    probed.write_text(html.replace(policy.group(0), f"{allowed}\n<script>{PROBE}</script>", 1),
                      encoding="utf-8")
    dom = loaded_dom(browser, probed)  # the probe runs at the load event
    found = re.search(r'<pre id="irr-probe">(.*?)</pre>', dom, re.S)
    assert found, f"the page did not finish loading: {dom[-2000:]}"
    text = found.group(1).replace("&quot;", '"').replace("&lt;", "<").replace(
        "&gt;", ">").replace("&amp;", "&")
    return json.loads(text)


@pytest.mark.parametrize("args", [
    ("--dataset", "anxiety"),
    ("--dataset", "diagnoses", "--statistics", "all"),
    ("--dataset", "vision"),
])
def test_html_report_renders_in_chromium(browser, tmp_path, args):
    # the browser fixture skips (fails in CI) before the report is computed
    page = tmp_path / "report.html"
    status, _, err = cli("report", *args, "--n-resamples", "200", "--format", "html",
                         "--output", str(page))
    assert status == 0, err
    html = page.read_text(encoding="utf-8")
    assert "<script" not in html  # a self-contained page: no scripts
    assert not re.search(r"""(src|href)=["']https?:""", html)  # nothing from the network
    found = _load(browser, page)
    assert found["errors"] == []
    assert found["sections"][:2] == ["Data", "Results"]
    assert "Reporting checklist (GRRAS)" in found["sections"]
    assert found["figures"], "the report has no figure"
    for figure in found["figures"]:
        assert figure["complete"]
        assert min(figure["natural"]) > 0, figure
        assert min(figure["shown"]) > 0, figure
    assert found["scrollWidth"] <= 1300  # fits the page: nothing behind a horizontal scroll
