"""The HTML the package writes: one escaper for every text it puts into a page (element
content and attribute values alike) and one page skeleton whose Content-Security-Policy
forbids script.

A rater, a category, a title or a file name is data, never markup: every page, table and
``_repr_html_`` of the package passes such text through :func:`escape_html`. The policy
is a second wall: a page that has no script, loads nothing from the network and needs only
its own ``<style>``, ``style`` attributes and ``data:`` images (the embedded figures) says
so, and a browser then runs no script even if text were to escape into markup.
"""

from __future__ import annotations

from typing import Any

__all__ = ["CONTENT_SECURITY_POLICY", "escape_html", "html_page"]

#: What a page of the package may load or run: nothing by default, images only from
#: ``data:`` URIs (its figures), styles only inline (its ``<style>`` and ``style``
#: attributes); no script, no ``<base>`` and no form target.
CONTENT_SECURITY_POLICY = ("default-src 'none'; img-src data:; style-src 'unsafe-inline'; "
                           "base-uri 'none'; form-action 'none'")

_HEAD = """<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta http-equiv="Content-Security-Policy" content="{policy}">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="generator" content="irr (irrstats)">
<title>{title}</title>
<style>{css}</style>
</head>
<body>"""


def escape_html(text: Any) -> str:
    """`text` as HTML that prints it literally, in element content or in a quoted
    attribute value (``& < > " '`` as character references).

    Examples
    --------
    >>> escape_html("<script>")
    '&lt;script&gt;'
    >>> escape_html('x" onload="alert(1)')
    'x&quot; onload=&quot;alert(1)'
    """
    # html.escape(text, quote=True)'s replacements, in its order (``&`` first, so no
    # reference is escaped again), without importing html and its table of entities
    return (str(text).replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;")
            .replace('"', "&quot;").replace("'", "&#x27;"))


def html_page(title: str, body: str, css: str = "") -> str:
    """A complete HTML document: `title` (escaped here) and the markup `body` (escaped by
    its maker) under the head every page of the package has, with its
    :data:`CONTENT_SECURITY_POLICY` and `css` as its one style sheet.

    Examples
    --------
    >>> page = html_page("<b>", "<p>1</p>")
    >>> "<title>&lt;b&gt;</title>" in page, page.endswith("<p>1</p>\\n</body></html>\\n")
    (True, True)
    """
    head = _HEAD.format(policy=CONTENT_SECURITY_POLICY, title=escape_html(title), css=css)
    return f"{head}\n{body}\n</body></html>\n"
