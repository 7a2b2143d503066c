"""Modules imported on first use: a module whose names only some calls need.

``kendall = lazy_module("irr.estimators.kendall")`` at the top of a module declares the
dependency where the imports are (``tests/unit/test_architecture.py`` counts it as an
import of that module, for the layers and the cycles), and imports the module the first
time one of its names is read: ``kendall.kendall(...)``. A script that computes one kappa
then does not pay for importing every other estimator (issue 31's first call).
"""

from __future__ import annotations

import importlib
from types import ModuleType
from typing import Any

__all__ = ["LazyModule", "lazy_module"]


class LazyModule:
    """Stands for the module `name`, imported when one of its attributes is first read.

    Examples
    --------
    >>> json = lazy_module("json")
    >>> json.dumps([1])
    '[1]'
    >>> json
    <lazy module 'json' (imported)>
    >>> import copy, pickle
    >>> copy.deepcopy(json), pickle.loads(pickle.dumps(json)).dumps([2])
    (<lazy module 'json' (not imported yet)>, '[2]')
    """

    __slots__ = ("_module", "_name")  # underscored: never a name of the module it stands for

    def __init__(self, name: str) -> None:
        self._name = name
        self._module: ModuleType | None = None

    def __getattr__(self, attribute: str) -> Any:
        # called only for names that are not the slots: the module's own
        module = self._module
        if module is None:
            module = self._module = importlib.import_module(self._name)
        return getattr(module, attribute)

    def __reduce__(self) -> tuple[Any, tuple[str]]:
        # copied or unpickled as the same declaration (a copy made without __init__ would
        # have no _module slot, and __getattr__ would look for it forever)
        return lazy_module, (self._name,)

    def __repr__(self) -> str:
        state = "imported" if self._module is not None else "not imported yet"
        return f"<lazy module {self._name!r} ({state})>"


def lazy_module(name: str) -> Any:
    """The module `name` (absolute), imported the first time one of its names is read.

    Examples
    --------
    >>> lazy_module("irr.estimators.kendall")
    <lazy module 'irr.estimators.kendall' (not imported yet)>
    """
    return LazyModule(name)
