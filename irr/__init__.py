"""irr: inter-rater reliability and agreement statistics.

Rater-agreement objects over two or more raters, kappa and its weighted forms with
asymptotic and bootstrap inference, interpretation bands and statsmodels-style summaries.
"""

from irr import datasets, plan, plotting  # plotting imports matplotlib only when it draws
from irr._functions import (
    FORWARDED,
    cohen_kappa,
    concordance,
    coverage_probability,
    deming,
    finn,
    icc,
    icc_components,
    iota,
    krippendorff_alpha,
    limits_of_agreement,
    maxwell_re,
    mean_pearson,
    mean_spearman,
    measurement_error,
    pabak,
    passing_bablok,
    quadratic_weighted_kappa,
    robinson_a,
    specific_agreement,
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
from irr.difference import difference, pool
from irr.estimators.categories import CategoryResults
from irr.estimators.concordance import ConcordanceResult, CoverageResult, TDIResult
from irr.estimators.cronbach import CronbachResult
from irr.estimators.difference import DifferenceResult, PooledResult
from irr.estimators.icc import ICCResult
from irr.estimators.inter_intra import InterIntraResult
from irr.estimators.kendall import KendallResult
from irr.estimators.krippendorff import KrippendorffResult
from irr.estimators.method_regression import MethodRegressionResult
from irr.estimators.pabak import PabakResult
from irr.estimators.variance_ratio import VarianceRatioResult
from irr.gtheory import DStudyResult, GStudyResult, gstudy
from irr.inference.error_rate import (
    CriticalErrorRate,
    ErrorRateTestFamily,
    ErrorRateTestResult,
    ErrorRateTTestResult,
    critical_error_rate,
    error_rate_test,
    error_rate_ttest,
)
from irr.inference.learners import (
    BiasVarianceResult,
    LearnerTTestResult,
    bias_variance,
    compare_classifiers,
    cv52_ttest,
    paired_ttest,
)
from irr.inference.paired import (
    PairedTestResult,
    bhapkar_test,
    bowker_test,
    cochrans_q,
    mcnemar,
    rater_bias,
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
    "BiasVarianceResult",
    "CategoryResults",
    "ConcordanceResult",
    "ConfidenceInterval",
    "CoverageResult",
    "CriticalErrorRate",
    "CronbachResult",
    "DStudyResult",
    "DegenerateDataWarning",
    "DifferenceResult",
    "ErrorRateTTestResult",
    "ErrorRateTestFamily",
    "ErrorRateTestResult",
    "GStudyResult",
    "ICCResult",
    "InterIntraResult",
    "KappaRegressor",
    "KappaResult",
    "KendallResult",
    "KrippendorffResult",
    "LearnerTTestResult",
    "MethodRegressionResult",
    "PabakResult",
    "PairedTestResult",
    "PooledResult",
    "ProportionResult",
    "ReliabilityReport",
    "Result",
    "Scale",
    "TDIResult",
    "VarianceRatioResult",
    "__version__",
    "apply_thresholds",
    "benchmark",
    "bhapkar_test",
    "bias_variance",
    "bowker_test",
    "by",
    "cochrans_q",
    "cohen_kappa",
    "compare",
    "compare_classifiers",
    "concordance",
    "continuous_kappa",
    "coverage_probability",
    "critical_error_rate",
    "cv52_ttest",
    "datasets",
    "deming",
    "difference",
    "distribution_thresholds",
    "error_rate_test",
    "error_rate_ttest",
    "finn",
    "get_scale",
    "gstudy",
    "icc",
    "icc_components",
    "interpret",
    "interpret_interval",
    "iota",
    "kappa_loss",
    "krippendorff_alpha",
    "limits_of_agreement",
    "list_scales",
    "maxwell_re",
    "mcnemar",
    "mean_pearson",
    "mean_spearman",
    "measurement_error",
    "optimize_thresholds",
    "pabak",
    "paired_ttest",
    "passing_bablok",
    "plan",
    "plotting",
    "pool",
    "quadratic_weighted_kappa",
    "rank_loss",
    "rater_bias",
    "report",
    "robinson_a",
    "roc_auc",
    "roc_auc_result",
    "roc_curve",
    "specific_agreement",
    "stuart_maxwell_test",
    "total_deviation_index",
]

# the pass-through shortcuts built from the registry's declarations (irr.cronbach_alpha, ...)
globals().update(FORWARDED)
__all__ += list(FORWARDED)
del FORWARDED
