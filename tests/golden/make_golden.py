"""Write the golden files of ``irr report`` (tests/unit/rendering/test_golden.py compares with them).

Run from the repository root after a deliberate change of the report's output:

    python tests/golden/make_golden.py

then read the diff (``git diff tests/golden``) as a reviewer would before committing it.
Each bundled data set gets its text, markdown, JSON and HTML report, made by the command
line exactly as a user runs it (``irr report --dataset NAME --format FMT``). In the HTML the
embedded figures (SVG, which depends on the matplotlib version) are replaced by a placeholder;
their captions stay.
"""

from __future__ import annotations

import contextlib
import io
import pathlib
import re
import sys
import warnings

HERE = pathlib.Path(__file__).parent / "report"
FORMATS = {"text": "txt", "markdown": "md", "json": "json", "html": "html"}
FIGURE = re.compile(r'src="data:image/svg\+xml;base64,[A-Za-z0-9+/=]+"')


def normalise(text: str, fmt: str) -> str:
    """The output as pinned: figures in HTML replaced by a placeholder."""
    if fmt == "html":
        return FIGURE.sub('src="data:image/svg+xml;base64,FIGURE"', text)
    return text


def render(name: str, fmt: str) -> str:
    """``irr report --dataset NAME --format FMT``, run in this process."""
    from irr.cli import main

    out, err = io.StringIO(), io.StringIO()
    with warnings.catch_warnings(), contextlib.redirect_stdout(out), \
            contextlib.redirect_stderr(err):
        warnings.simplefilter("ignore")
        status = main(["report", "--dataset", name, "--format", fmt])
    if status != 0:
        raise RuntimeError(f"irr report --dataset {name} --format {fmt}: {err.getvalue()}")
    return normalise(out.getvalue(), fmt)


def main() -> int:
    import irr

    HERE.mkdir(parents=True, exist_ok=True)
    for name in sorted(irr.datasets.names()):
        for fmt, suffix in FORMATS.items():
            path = HERE / f"{name}.{suffix}"
            path.write_text(render(name, fmt), encoding="utf-8", newline="")
            print(path)
    return 0


if __name__ == "__main__":
    sys.exit(main())
