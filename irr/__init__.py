"""irr: inter-rater reliability and agreement statistics.

Rater-agreement objects over two or more raters, kappa and its weighted forms with
asymptotic and bootstrap inference, interpretation bands and statsmodels-style summaries.
"""

from irr import datasets
from irr._functions import cohen_kappa, quadratic_weighted_kappa
from irr._report import compare
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
from irr.ordinal import (
    KappaRegressor,
    apply_thresholds,
    continuous_kappa,
    distribution_thresholds,
    kappa_loss,
    optimize_thresholds,
    rank_loss,
    roc_auc,
    roc_auc_result,
    roc_curve,
)
from irr.pandas import by  # also registers the DataFrame accessor df.irr
from irr.results import ConfidenceInterval, KappaResult, ProportionResult, Result

__all__ = [
    "SCALES",
    "Agreement",
    "Band",
    "BenchmarkResult",
    "ConfidenceInterval",
    "DegenerateDataWarning",
    "KappaRegressor",
    "KappaResult",
    "ProportionResult",
    "Result",
    "Scale",
    "__version__",
    "apply_thresholds",
    "benchmark",
    "by",
    "cohen_kappa",
    "compare",
    "continuous_kappa",
    "datasets",
    "distribution_thresholds",
    "get_scale",
    "interpret",
    "interpret_interval",
    "kappa_loss",
    "list_scales",
    "optimize_thresholds",
    "quadratic_weighted_kappa",
    "rank_loss",
    "roc_auc",
    "roc_auc_result",
    "roc_curve",
]
