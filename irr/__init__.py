"""irr: inter-rater reliability and agreement statistics.

Rater-agreement objects over two or more raters, kappa and its weighted forms with
asymptotic and bootstrap inference, interpretation bands and statsmodels-style summaries.
"""

from irr import datasets
from irr._functions import cohen_kappa, quadratic_weighted_kappa
from irr._validation import DegenerateDataWarning
from irr._version import __version__
from irr.agreement import Agreement
from irr.bands import (
    SCALES,
    Band,
    BenchmarkResult,
    Scale,
    benchmark,
    get_scale,
    interpret,
    interpret_interval,
    list_scales,
)
from irr.results import ConfidenceInterval, KappaResult, ProportionResult, Result

__all__ = [
    "SCALES",
    "Agreement",
    "Band",
    "BenchmarkResult",
    "ConfidenceInterval",
    "DegenerateDataWarning",
    "KappaResult",
    "ProportionResult",
    "Result",
    "Scale",
    "__version__",
    "benchmark",
    "cohen_kappa",
    "datasets",
    "get_scale",
    "interpret",
    "interpret_interval",
    "list_scales",
    "quadratic_weighted_kappa",
]
