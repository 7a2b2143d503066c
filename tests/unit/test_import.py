"""`import irr` stays light: heavy dependencies load only when first needed."""

import subprocess
import sys
from pathlib import Path

HEAVY = ("scipy.stats", "scipy.optimize", "scipy.special", "scipy.sparse", "statsmodels",
         "matplotlib", "sklearn", "tqdm", "numpy.f2py", "numpy.testing")


def test_import_irr_loads_no_heavy_module():
    code = (
        "import sys, irr; "
        f"print(sorted(m for m in {HEAVY!r} if m in sys.modules))"
    )
    root = Path(__file__).resolve().parents[2]
    out = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, check=True, cwd=root
    )
    assert out.stdout.strip() == "[]"
