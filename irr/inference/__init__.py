"""Inference: bootstrap distributions and intervals."""

from __future__ import annotations

from typing import Any

from irr._lazy import lazy_module

__all__ = ["BootstrapDistribution", "bootstrap_counts", "group_pattern_counts"]

# imported when one of its names is first read: a Wald interval (irr.inference.options,
# irr.inference.plan) never loads the bootstrap
_bootstrap = lazy_module("irr.inference.bootstrap")


def __getattr__(name: str) -> Any:
    if name in __all__:
        return getattr(_bootstrap, name)
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
