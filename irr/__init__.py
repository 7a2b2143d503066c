"""irr: inter-rater reliability and agreement statistics.

Rater-agreement objects over two or more raters, kappa and its weighted forms with
asymptotic and bootstrap inference, interpretation bands and statsmodels-style summaries.
"""

from irr import datasets, plan, plotting  # plotting imports matplotlib only when it draws
from irr._functions import (
    cohen_kappa,
    concordance,
    coverage_probability,
    deming,
    icc,
    icc_components,
    krippendorff_alpha,
    limits_of_agreement,
    measurement_error,
    passing_bablok,
    quadratic_weighted_kappa,
    total_deviation_index,
)
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
from irr.comparison import compare
from irr.estimators.concordance import ConcordanceResult, CoverageResult, TDIResult
from irr.estimators.icc import ICCResult
from irr.estimators.kendall import KendallResult
from irr.estimators.krippendorff import KrippendorffResult
from irr.estimators.method_regression import MethodRegressionResult
from irr.inference.error_rate import (
    CriticalErrorRate,
    ErrorRateTestFamily,
    ErrorRateTestResult,
    ErrorRateTTestResult,
    critical_error_rate,
    error_rate_test,
    error_rate_ttest,
)
from irr.inference.paired import (
    PairedTestResult,
    bowker_test,
    cochrans_q,
    mcnemar,
    stuart_maxwell_test,
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
from irr.reliability import report
from irr.reporting import ReliabilityReport
from irr.results import ConfidenceInterval, KappaResult, ProportionResult, Result

__all__ = [
    "SCALES",
    "Agreement",
    "Band",
    "BenchmarkResult",
    "ConcordanceResult",
    "ConfidenceInterval",
    "CoverageResult",
    "CriticalErrorRate",
    "DegenerateDataWarning",
    "ErrorRateTTestResult",
    "ErrorRateTestFamily",
    "ErrorRateTestResult",
    "ICCResult",
    "KappaRegressor",
    "KappaResult",
    "KendallResult",
    "KrippendorffResult",
    "MethodRegressionResult",
    "PairedTestResult",
    "ProportionResult",
    "ReliabilityReport",
    "Result",
    "Scale",
    "TDIResult",
    "__version__",
    "apply_thresholds",
    "benchmark",
    "bowker_test",
    "by",
    "cochrans_q",
    "cohen_kappa",
    "compare",
    "concordance",
    "continuous_kappa",
    "coverage_probability",
    "critical_error_rate",
    "datasets",
    "deming",
    "distribution_thresholds",
    "error_rate_test",
    "error_rate_ttest",
    "get_scale",
    "icc",
    "icc_components",
    "interpret",
    "interpret_interval",
    "kappa_loss",
    "krippendorff_alpha",
    "limits_of_agreement",
    "list_scales",
    "mcnemar",
    "measurement_error",
    "optimize_thresholds",
    "passing_bablok",
    "plan",
    "plotting",
    "quadratic_weighted_kappa",
    "rank_loss",
    "report",
    "roc_auc",
    "roc_auc_result",
    "roc_curve",
    "stuart_maxwell_test",
    "total_deviation_index",
]
