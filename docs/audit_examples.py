"""List public names whose docstring has no Examples section.

Run from the repository root: ``python docs/audit_examples.py``. Covers ``irr.__all__``,
``irr.ordinal.__all__``, ``irr.datasets.__all__``, ``irr.pandas.__all__`` and
``irr.plotting.__all__``, the public methods of ``Agreement`` and of every public class
(results, scales, the regressor, the DataFrame accessor), and every subclass of
``irr.Result`` defined in ``irr`` (the result classes that methods return). Properties and
dataclass fields are described in their class's docstring and are not listed. Exits 1 when any name lacks one.
"""

from __future__ import annotations

import contextlib
import importlib
import inspect
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))  # this checkout's irr

import irr


def _has_examples(obj: object) -> bool:
    doc = inspect.getdoc(obj) or ""
    return "Examples\n--------" in doc or ">>>" in doc


def _public(module: object) -> list[tuple[str, object]]:
    names = getattr(module, "__all__", [])
    return [(f"{module.__name__}.{n}", getattr(module, n)) for n in names if not n.startswith("__")]


def main() -> int:
    modules = [irr, irr.ordinal, irr.datasets]
    for optional in ("irr.pandas", "irr.plotting"):
        with contextlib.suppress(ImportError):
            modules.append(importlib.import_module(optional))
    seen: dict[int, str] = {}
    items: list[tuple[str, object]] = []
    for module in modules:
        for name, obj in _public(module):
            if inspect.ismodule(obj) or id(obj) in seen:
                continue
            seen[id(obj)] = name
            items.append((name, obj))
    # result classes returned by methods but not exported (e.g. FleissKappaResult)
    stack = list(irr.Result.__subclasses__())
    while stack:
        cls = stack.pop()
        stack.extend(cls.__subclasses__())
        if cls.__module__.startswith("irr") and id(cls) not in seen:
            seen[id(cls)] = f"{cls.__module__}.{cls.__qualname__}"
            items.append((seen[id(cls)], cls))
    missing = []
    for name, obj in items:
        if not (callable(obj) or inspect.isclass(obj)):
            continue
        if not _has_examples(obj):
            missing.append(name)
        if inspect.isclass(obj):
            for attr, member in vars(obj).items():
                if attr.startswith("_"):
                    continue
                target = member.fget if isinstance(member, property) else member
                if isinstance(target, (classmethod, staticmethod)):
                    target = target.__func__
                if not callable(target) or isinstance(member, property):
                    continue  # properties and fields are described in the class docstring
                if not _has_examples(target):
                    missing.append(f"{name}.{attr}")
    for name in missing:
        print(name)
    print(f"{len(missing)} of the public names lack an Examples section.", file=sys.stderr)
    return 1 if missing else 0


if __name__ == "__main__":
    sys.exit(main())
