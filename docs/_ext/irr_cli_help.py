"""``.. irr-cli-help::``: the ``irr --help`` texts, generated from the parser at build time."""

from __future__ import annotations

import argparse

from docutils import nodes
from sphinx.application import Sphinx
from sphinx.util.docutils import SphinxDirective


def _sections(parser: argparse.ArgumentParser) -> list[tuple[str, str]]:
    out = [(parser.prog, parser.format_help())]
    for action in parser._actions:
        if isinstance(action, argparse._SubParsersAction):
            for name, sub in action.choices.items():
                out.append((f"{parser.prog} {name}", sub.format_help()))
    return out


class CliHelp(SphinxDirective):
    """One section with a literal block per command and sub-command."""

    has_content = False

    def run(self) -> list[nodes.Node]:
        import os

        from irr.cli import _parser

        os.environ["COLUMNS"] = "90"

        result: list[nodes.Node] = []
        for title, text in _sections(_parser()):
            ident = nodes.make_id(f"cli-{title}")
            section = nodes.section(ids=[ident])
            section += nodes.title(text=title)
            section += nodes.literal_block(text, text, language="none")
            self.state.document.note_implicit_target(section)
            result.append(section)
        return result


def setup(app: Sphinx) -> dict[str, bool]:
    app.add_directive("irr-cli-help", CliHelp)
    return {"parallel_read_safe": True, "parallel_write_safe": True}
