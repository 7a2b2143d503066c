"""Inference: bootstrap distributions and intervals."""

from irr.inference.bootstrap import BootstrapDistribution, bootstrap_counts, group_pattern_counts

__all__ = ["BootstrapDistribution", "bootstrap_counts", "group_pattern_counts"]
