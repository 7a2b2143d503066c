"""irr: inter-rater reliability and agreement statistics.

Rater-agreement objects over two or more raters, kappa and its weighted forms with
asymptotic and bootstrap inference, interpretation bands and statsmodels-style summaries.
"""

from irr import datasets
from irr._functions import cohen_kappa, quadratic_weighted_kappa
from irr._reliability import ICCResult, KendallResult, KrippendorffResult, icc, krippendorff_alpha
from irr._validation import DegenerateDataWarning
from irr._version import __version__
from irr.agreement import Agreement
from irr.results import ConfidenceInterval, KappaResult, ProportionResult, Result

__all__ = [
    "Agreement",
    "ConfidenceInterval",
    "DegenerateDataWarning",
    "ICCResult",
    "KappaResult",
    "KendallResult",
    "KrippendorffResult",
    "ProportionResult",
    "Result",
    "__version__",
    "cohen_kappa",
    "datasets",
    "icc",
    "krippendorff_alpha",
    "quadratic_weighted_kappa",
]
