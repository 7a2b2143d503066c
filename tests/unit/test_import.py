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


def _run(code):
    root = Path(__file__).resolve().parents[2]
    return subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, check=True, cwd=root
    ).stdout.strip()


def test_import_irr_loads_only_the_package_and_its_version():
    # every other module is imported when its first public name is used
    out = _run("import sys, irr; print(sorted(m for m in sys.modules if m.startswith('irr')))")
    assert out == "['irr', 'irr._version']"


def test_every_public_name_resolves_to_its_definition():
    code = (
        "import types, irr\n"
        "bad = [n for n in irr.__all__ if n != '__version__'\n"
        "       and isinstance(getattr(irr, n), types.ModuleType)\n"
        "       != (n in ('datasets', 'plan', 'plotting'))]\n"
        "print(bad, irr.__version__ == __import__('irr._version').__version__)"
    )
    assert _run(code) == "[] True"


def test_the_function_difference_is_not_shadowed_by_its_module():
    code = (
        "import irr, irr.agreement, irr.difference\n"
        "from irr import difference\n"
        "print(callable(irr.difference), difference is irr.difference)"
    )
    assert _run(code) == "True True"


def test_the_dataframe_accessor_is_registered_on_import():
    code = (
        "import irr, pandas as pd\n"
        "df = pd.DataFrame({'a': [1, 2, 2, 1], 'b': [1, 2, 1, 1]})\n"
        "print(type(df.irr).__name__, round(df.irr.kappa('a', 'b').estimate, 4))"
    )
    assert _run(code) == "IrrAccessor 0.5"


def test_import_irr_does_not_import_pandas():
    assert _run("import sys, irr; print('pandas' in sys.modules)") == "False"


def test_the_column_rule_reads_numpy_columns_without_pandas():
    # the rater columns of DuckDB's numpy columns (irr kappa file.parquet) are chosen
    # without importing pandas (half a second of a streamed command)
    code = (
        "import sys, numpy as np, irr._columns, irr._data\n"
        "loaded = 'pandas' in sys.modules\n"
        "from irr._columns import choose_columns, looks_continuous\n"
        "n = 40; rng = np.random.default_rng(0)\n"
        "columns = {'accession': np.arange(n) + 7000, 'centre': np.array(['Leeds'] * n, object),\n"
        "           'code': np.array([f'{x:.3f}' for x in rng.normal(5, 1, n)], object),\n"
        "           'r1': np.ma.masked_array(rng.integers(1, 5, n), mask=rng.random(n) < .1),\n"
        "           'r2': rng.integers(1, 5, n).astype(np.int8),\n"
        "           'when': np.array(['2024-01-01'] * n, 'M8[us]'), 'x': np.full(n, 2.5)}\n"
        "choice = choose_columns(columns)\n"
        "print(loaded, choice.raters, choice.ids, looks_continuous(columns['x']),\n"
        "      'pandas' in sys.modules)"
    )
    assert _run(code) == ("False ('r1', 'r2', 'when', 'x') ('accession', 'centre', 'code') "
                          "True False")


def test_the_accessor_is_registered_when_pandas_was_imported_first():
    code = (
        "import warnings; warnings.simplefilter('error')\n"
        "import sys, pandas as pd, irr\n"
        "df = pd.DataFrame({'a': [1, 2, 2, 1], 'b': [1, 2, 1, 1]})\n"
        "print(type(df.irr).__name__, round(df.irr.kappa('a', 'b').estimate, 4),\n"
        "      [f for f in sys.meta_path if getattr(f, 'irr_accessor_hook', False)])"
    )
    assert _run(code) == "IrrAccessor 0.5 []"


def test_the_hook_registers_the_accessor_when_a_pandas_submodule_comes_first():
    # importing pandas.core.frame imports pandas first: the hook runs then, and leaves
    # sys.meta_path; pandas keeps its own loader
    code = (
        "import warnings; warnings.simplefilter('error')\n"
        "import sys, irr\n"
        "hooks = lambda: [f for f in sys.meta_path if getattr(f, 'irr_accessor_hook', False)]\n"
        "before = len(hooks())\n"
        "import pandas.core.frame\n"
        "import pandas as pd\n"
        "df = pd.DataFrame({'a': [1, 2, 2, 1], 'b': [1, 2, 1, 1]})\n"
        "print(before, len(hooks()), type(df.irr).__name__,\n"
        "      type(pd.__loader__).__name__, type(pd.__spec__.loader).__name__)"
    )
    assert _run(code) == "1 0 IrrAccessor SourceFileLoader SourceFileLoader"


def test_looking_pandas_up_before_importing_it_keeps_the_hook():
    # packages that check for optional dependencies find pandas' spec without importing
    # it (polars does at import): the hook stays until pandas' import runs
    code = (
        "import warnings; warnings.simplefilter('error')\n"
        "import importlib.util, sys, irr\n"
        "hooks = lambda: [f for f in sys.meta_path if getattr(f, 'irr_accessor_hook', False)]\n"
        "print(importlib.util.find_spec('pandas') is not None, len(hooks()))\n"
        "import pandas as pd\n"
        "print(len(hooks()), type(pd.DataFrame({'a': [1]}).irr).__name__)"
    )
    assert _run(code).split() == ["True", "1", "0", "IrrAccessor"]


def test_irr_imported_twice_before_pandas_registers_the_accessor_once():
    # a second import of irr (its modules removed from sys.modules) replaces the hook of
    # the first: pandas would warn of an accessor registered over another
    code = (
        "import warnings; warnings.simplefilter('error')\n"
        "import sys, irr\n"
        "for name in [m for m in sys.modules if m == 'irr' or m.startswith('irr.')]:\n"
        "    del sys.modules[name]\n"
        "import irr\n"
        "print(sum(getattr(f, 'irr_accessor_hook', False) for f in sys.meta_path))\n"
        "import pandas as pd\n"
        "print(type(pd.DataFrame({'a': [1]}).irr).__name__)"
    )
    assert _run(code).split() == ["1", "IrrAccessor"]


def test_every_shortcut_built_from_the_registry_is_a_public_name():
    import irr
    from irr._functions import FORWARDED

    assert FORWARDED  # Cronbach's alpha at least
    for name, function in FORWARDED.items():
        assert name in irr.__all__
        assert getattr(irr, name) is function
