"""Issue 17, the input path: each rewritten kernel against its previous form on random data."""

from __future__ import annotations

import numpy as np
import pytest

import irr.cli
from irr.cli import CommandError


# -- the CLI's row check: vectorised counts against the csv module ------------------------
def _verdict(check, text: str, sep: str) -> str | None:
    try:
        check(text, sep, "'f'")
    except CommandError as exc:
        return str(exc)
    return None


_PIECES = ["1", "2", "ab", "é", " ", "\t", "", "\u3000", "x y", "\xa0", "3.5", "NA", "\x1c"]


@pytest.mark.parametrize("seed", range(6))
@pytest.mark.parametrize("sep", [",", ";", "\t", " ", "|"])
def test_row_check_matches_the_csv_module(seed, sep):
    rng = np.random.default_rng(seed)
    for _ in range(150):
        lines = []
        for _ in range(int(rng.integers(0, 7))):
            width = int(rng.integers(0, 4))
            lines.append(sep.join(str(rng.choice(_PIECES)) for _ in range(width)))
        newline = "\r\n" if rng.random() < 0.2 else "\n"
        text = newline.join(lines) + (newline if rng.random() < 0.5 else "")
        fast = _verdict(irr.cli._check_rows, text, sep)
        assert fast == _verdict(irr.cli._check_rows_csv, text, sep), repr(text)


@pytest.mark.parametrize("text", [
    "", "\n", "a,b", "a,b\n", "a,b\n\n , \n", "a,b\n1,2", "a,b\n1,2,3\n", "a,b\n1\n",
    ",\na,b\n1,2\n", "a,b\n1,2\n3\n4,5,6\n", "a,b\r\n1,2\r\n", "a,b\n1,2\n\n\n",
    'a,b\n"1,2",3\n', "a,b\r1,2\r", "\u3000\na\n1\n", "a;b\n1;2\n",
])
def test_row_check_edge_cases(text):
    assert _verdict(irr.cli._check_rows, text, ",") == _verdict(irr.cli._check_rows_csv, text, ",")


def _skip_leading_old(text: str, sep: str) -> tuple[str, int]:
    lines = text.split("\n")
    skipped = 0
    while skipped < len(lines) - 1 and not lines[skipped].replace(sep, "").strip():
        skipped += 1
    return "\n".join(lines[skipped:]), sum(1 for line in lines[:skipped] if line.strip())


@pytest.mark.parametrize("text", ["", "\n", ",,\n,\na,b\n1,2", " \n\n,\na", ",\n,", "a\n,\n",
                                  ",\r\n,\r\na,b\r\n"])
def test_skip_leading_matches_its_previous_form(text):
    assert irr.cli._skip_leading(text, ",") == _skip_leading_old(text, ",")
