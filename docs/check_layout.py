"""Check the built HTML docs in headless Chromium at a 1,300 px window.

Usage (after ``python -m sphinx -b html docs docs/_build/html``)::

    python docs/check_layout.py docs/_build/html

For every page it appends a small script to a temporary copy, loads it with
``chromium --headless --dump-dom`` and reads back (1) the blocks of the article that scroll
sideways (tables, code and output blocks whose content is wider than the page) and (2) how
many links the left sidebar ("Section navigation") holds. It prints one line per problem and
exits with status 1 if a block scrolls sideways or a page other than the home, index and
search pages has an empty section navigation.
"""

from __future__ import annotations

import argparse
import json
import pathlib
import re
import subprocess
import sys

PROBE = """<script>
window.addEventListener('load', () => {
  const wide = [];
  const blocks = '.bd-article .pst-scrollable-table-container, .bd-article pre, '
    + '.bd-article div.cell_output, .bd-article table';
  document.querySelectorAll(blocks).forEach(e => {
    if (e.scrollWidth > e.clientWidth + 1) {
      wide.push(e.scrollWidth + ' > ' + e.clientWidth + ' px: '
        + (e.innerText || '').trim().slice(0, 60).replace(/\\s+/g, ' '));
    }
  });
  const nav = document.querySelectorAll('.bd-sidebar-primary nav.bd-docs-nav a').length;
  const out = document.createElement('div');
  out.id = 'IRR-LAYOUT';
  out.textContent = JSON.stringify({nav, wide});
  document.body.appendChild(out);
});
</script>"""
NO_NAVIGATION = {"index.html", "genindex.html", "search.html", "py-modindex.html"}


def probe(page: pathlib.Path, chromium: str) -> dict:
    copy = page.with_name("_layout_probe_" + page.name)
    copy.write_text(page.read_text(encoding="utf-8").replace("</body>", PROBE + "</body>"),
                    encoding="utf-8")
    try:
        dom = subprocess.run(
            [chromium, "--headless", "--no-sandbox", "--disable-gpu", "--window-size=1300,900",
             "--virtual-time-budget=5000", "--dump-dom", copy.as_uri()],
            capture_output=True, text=True, timeout=120, check=False,
        ).stdout
    finally:
        copy.unlink()
    found = re.search(r'<div id="IRR-LAYOUT">(.*?)</div>', dom)
    if found is None:
        raise RuntimeError(f"{page}: the probe did not run (is {chromium!r} installed?)")
    return json.loads(found.group(1).replace("&gt;", ">").replace("&lt;", "<")
                      .replace("&amp;", "&"))


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("html", type=pathlib.Path, help="the Sphinx HTML output directory")
    parser.add_argument("--chromium", default="chromium", help="the Chromium executable")
    args = parser.parse_args(argv)
    pages = sorted(p for p in args.html.rglob("*.html")
                   if not any(part.startswith("_") for part in p.relative_to(args.html).parts))
    problems = 0
    for page in pages:
        name = page.relative_to(args.html).as_posix()
        result = probe(page, args.chromium)
        for block in result["wide"]:
            print(f"{name}: scrolls sideways: {block}")
            problems += 1
        if result["nav"] == 0 and name not in NO_NAVIGATION:
            print(f"{name}: empty section navigation")
            problems += 1
    print(f"{len(pages)} pages, {problems} problems")
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
