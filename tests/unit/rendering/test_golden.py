"""Golden files of ``irr report`` on every bundled data set (issue #16): text, markdown,
JSON and HTML as a user gets them. A deliberate change of the output is re-pinned with
``python tests/golden/make_golden.py`` and read in the diff before it is committed.

Text, markdown and HTML (figures replaced by a placeholder: their SVG depends on the
matplotlib version) must match byte for byte; JSON must match key for key and string for
string, numbers to 1e-9 relative (the last bits of a float may differ between BLAS builds).
"""

import json
import math
import pathlib
import sys

import pytest

import irr

GOLDEN = pathlib.Path(__file__).parents[2] / "golden"
sys.path.insert(0, str(GOLDEN))
import make_golden  # noqa: E402

CASES = [(name, fmt) for name in sorted(irr.datasets.names()) for fmt in make_golden.FORMATS]


def _same(a, b, where="$"):
    """Assert two JSON values are equal, numbers to 1e-9 relative."""
    if isinstance(a, dict):
        assert isinstance(b, dict), where
        assert list(a) == list(b), f"{where}: keys {list(a)} != {list(b)}"
        for key in a:
            _same(a[key], b[key], f"{where}.{key}")
    elif isinstance(a, list):
        assert isinstance(b, list), where
        assert len(a) == len(b), f"{where}: length {len(a)} != {len(b)}"
        for i, (x, y) in enumerate(zip(a, b, strict=True)):
            _same(x, y, f"{where}[{i}]")
    elif isinstance(a, float) and not isinstance(b, bool) and isinstance(b, (int, float)):
        assert math.isclose(a, b, rel_tol=1e-9, abs_tol=1e-12), f"{where}: {a} != {b}"
    else:
        assert a == b, f"{where}: {a!r} != {b!r}"


def test_every_data_set_has_its_golden_files():
    expected = {f"{name}.{suffix}" for name in irr.datasets.names()
                for suffix in make_golden.FORMATS.values()}
    assert {p.name for p in (GOLDEN / "report").iterdir()} == expected


@pytest.mark.parametrize(("name", "fmt"), CASES)
def test_report_matches_its_golden_file(name, fmt):
    golden = (GOLDEN / "report" / f"{name}.{make_golden.FORMATS[fmt]}").read_text(
        encoding="utf-8")
    now = make_golden.render(name, fmt)
    if fmt == "json":
        _same(json.loads(now), json.loads(golden))
    else:
        assert now == golden, (
            f"irr report --dataset {name} --format {fmt} changed; if on purpose, run "
            "python tests/golden/make_golden.py and read the diff")
    if fmt == "html":
        assert now.count('src="data:image/svg+xml;base64,FIGURE"') >= 2  # figures embedded
