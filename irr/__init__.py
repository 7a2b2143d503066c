"""irr: inter-rater reliability and agreement statistics.

Rater-agreement objects over two or more raters, kappa and its weighted forms with
asymptotic and bootstrap inference, interpretation bands and statsmodels-style summaries.

``import irr`` is light: it does not import pandas, yet the DataFrame accessor ``df.irr`` is
there whenever pandas is (registered at once if pandas is already imported, else as soon as
pandas' own import finishes, by a one-time hook on :data:`sys.meta_path`); every public name
(and the subpackages :mod:`irr.datasets`, :mod:`irr.plan`, :mod:`irr.plotting`) is imported
from its module the first time it is used (PEP 562 module ``__getattr__``), so a script that
uses one function does not pay for the rest.
"""

from __future__ import annotations

import importlib
import importlib.util
import sys
import types
from typing import TYPE_CHECKING, Any

from irr._version import __version__

if TYPE_CHECKING:
    import pandas as pd

    from irr import datasets, plan, plotting
    from irr._functions import (
        cohen_kappa,
        concordance,
        coverage_probability,
        cronbach_alpha,
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
    from irr.pandas import by
    from irr.reliability import report
    from irr.reporting import ReliabilityReport
    from irr.results import ConfidenceInterval, KappaResult, ProportionResult, Result

# the public subpackages, and irr.ordinal (model evaluation: documented as a module)
_SUBPACKAGES = {"datasets", "plan", "plotting", "ordinal"}

# public name -> the module that defines it (imported on first use)
_LAZY = {
    # subpackages
    "datasets": "irr.datasets",
    "plan": "irr.plan",
    "plotting": "irr.plotting",
    "ordinal": "irr.ordinal",
    "cohen_kappa": "irr._functions",
    # a shortcut built from its registry declaration (irr._functions.FORWARDED)
    "cronbach_alpha": "irr._functions",
    "CronbachResult": "irr.estimators.cronbach",
    "gstudy": "irr.gtheory",
    "GStudyResult": "irr.gtheory",
    "DStudyResult": "irr.gtheory",
    "concordance": "irr._functions",
    "coverage_probability": "irr._functions",
    "deming": "irr._functions",
    "finn": "irr._functions",
    "icc": "irr._functions",
    "icc_components": "irr._functions",
    "iota": "irr._functions",
    "krippendorff_alpha": "irr._functions",
    "limits_of_agreement": "irr._functions",
    "maxwell_re": "irr._functions",
    "mean_pearson": "irr._functions",
    "mean_spearman": "irr._functions",
    "measurement_error": "irr._functions",
    "pabak": "irr._functions",
    "passing_bablok": "irr._functions",
    "quadratic_weighted_kappa": "irr._functions",
    "robinson_a": "irr._functions",
    "specific_agreement": "irr._functions",
    "total_deviation_index": "irr._functions",
    "DegenerateDataWarning": "irr._validation",
    "Agreement": "irr.agreement",
    "SCALES": "irr.bands",
    "Band": "irr.bands",
    "BenchmarkResult": "irr.bands",
    "Scale": "irr.bands",
    "benchmark": "irr.bands",
    "get_scale": "irr.bands",
    "interpret": "irr.bands",
    "interpret_interval": "irr.bands",
    "list_scales": "irr.bands",
    "compare": "irr.comparison",
    "difference": "irr.difference",
    "pool": "irr.difference",
    "CategoryResults": "irr.estimators.categories",
    "ConcordanceResult": "irr.estimators.concordance",
    "CoverageResult": "irr.estimators.concordance",
    "TDIResult": "irr.estimators.concordance",
    "DifferenceResult": "irr.estimators.difference",
    "PooledResult": "irr.estimators.difference",
    "ICCResult": "irr.estimators.icc",
    "InterIntraResult": "irr.estimators.inter_intra",
    "KendallResult": "irr.estimators.kendall",
    "KrippendorffResult": "irr.estimators.krippendorff",
    "MethodRegressionResult": "irr.estimators.method_regression",
    "PabakResult": "irr.estimators.pabak",
    "VarianceRatioResult": "irr.estimators.variance_ratio",
    "CriticalErrorRate": "irr.inference.error_rate",
    "ErrorRateTestFamily": "irr.inference.error_rate",
    "ErrorRateTestResult": "irr.inference.error_rate",
    "ErrorRateTTestResult": "irr.inference.error_rate",
    "critical_error_rate": "irr.inference.error_rate",
    "error_rate_test": "irr.inference.error_rate",
    "error_rate_ttest": "irr.inference.error_rate",
    "BiasVarianceResult": "irr.inference.learners",
    "LearnerTTestResult": "irr.inference.learners",
    "bias_variance": "irr.inference.learners",
    "compare_classifiers": "irr.inference.learners",
    "cv52_ttest": "irr.inference.learners",
    "paired_ttest": "irr.inference.learners",
    "PairedTestResult": "irr.inference.paired",
    "bhapkar_test": "irr.inference.paired",
    "bowker_test": "irr.inference.paired",
    "cochrans_q": "irr.inference.paired",
    "mcnemar": "irr.inference.paired",
    "rater_bias": "irr.inference.paired",
    "stuart_maxwell_test": "irr.inference.paired",
    "KappaRegressor": "irr.ordinal",
    "apply_thresholds": "irr.ordinal",
    "continuous_kappa": "irr.ordinal",
    "distribution_thresholds": "irr.ordinal",
    "kappa_loss": "irr.ordinal",
    "optimize_thresholds": "irr.ordinal",
    "rank_loss": "irr.ordinal",
    "roc_auc": "irr.ordinal",
    "roc_auc_result": "irr.ordinal",
    "roc_curve": "irr.ordinal",
    "by": "irr.pandas",
    "report": "irr.reliability",
    "ReliabilityReport": "irr.reporting",
    "ConfidenceInterval": "irr.results",
    "KappaResult": "irr.results",
    "ProportionResult": "irr.results",
    "Result": "irr.results",
}


def __getattr__(name: str) -> Any:
    """The public name `name`, imported from its module on first use and kept."""
    try:
        module = _LAZY[name]
    except KeyError:
        raise AttributeError(f"module 'irr' has no attribute {name!r}") from None
    value = importlib.import_module(module)
    if name not in _SUBPACKAGES:
        value = getattr(value, name)
    globals()[name] = value
    return value


def __dir__() -> list[str]:
    return sorted({*globals(), *_LAZY})


class _Package(types.ModuleType):
    """The package ``irr``, whose public function ``irr.difference`` shares its name with
    the module ``irr.difference``: importing that module (``sys.modules`` keeps it) does
    not bind it over the function."""

    def __setattr__(self, name: str, value: Any) -> None:
        if name in _SHADOWED and isinstance(value, types.ModuleType):
            return
        super().__setattr__(name, value)


_SHADOWED = {"difference"}  # public names that are also names of submodules
sys.modules[__name__].__class__ = _Package


def _irr_accessor(df: pd.DataFrame) -> Any:
    """``df.irr``: an :class:`irr.pandas.IrrAccessor` of `df` (its module is imported on
    first use)."""
    return importlib.import_module("irr.pandas").IrrAccessor(df)


class _AfterPandas:
    """A finder on :data:`sys.meta_path` for the import of pandas: it hands on the spec the
    other finders find, its loader wrapped so that ``df.irr`` is registered as soon as
    pandas' own module has run. It leaves the path when that import runs, not when pandas
    is only looked up (``importlib.util.find_spec("pandas")``, as packages that check for
    optional dependencies do); a failed import of pandas registers nothing."""

    irr_accessor_hook = True  # marks it on the path, whichever copy of irr installed it

    def find_spec(self, name: str, path: Any = None, target: Any = None) -> Any:
        if name != "pandas":
            return None
        for finder in sys.meta_path:  # the other finders, in their order
            find = getattr(finder, "find_spec", None)
            if getattr(finder, "irr_accessor_hook", False) or find is None:
                continue
            spec = find(name, path, target)
            if spec is not None:
                if spec.loader is not None:
                    spec.loader = _RegisteringLoader(spec.loader)
                return spec
        return None


def _remove_hooks() -> None:
    """Take every :class:`_AfterPandas` off :data:`sys.meta_path`, also one installed by an
    earlier import of irr (its modules removed from :data:`sys.modules` since)."""
    sys.meta_path[:] = [f for f in sys.meta_path if not getattr(f, "irr_accessor_hook", False)]


class _RegisteringLoader:
    """pandas' own loader, wrapped: it gives pandas its own loader back, runs pandas'
    module, then registers ``df.irr``; any other attribute is the wrapped loader's."""

    def __init__(self, loader: Any) -> None:
        self._loader = loader

    def create_module(self, spec: Any) -> Any:
        return self._loader.create_module(spec)

    def exec_module(self, module: types.ModuleType) -> None:
        _remove_hooks()
        module.__spec__.loader = module.__loader__ = self._loader
        self._loader.exec_module(module)
        _register_accessor(module)

    def __getattr__(self, name: str) -> Any:
        return getattr(self._loader, name)


def _register_accessor(pandas: types.ModuleType) -> None:
    """Register ``df.irr`` on the imported module `pandas`."""
    pandas.api.extensions.register_dataframe_accessor("irr")(_irr_accessor)


if "pandas" in sys.modules:
    _register_accessor(sys.modules["pandas"])
else:
    _remove_hooks()
    sys.meta_path.insert(0, _AfterPandas())


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
    "cronbach_alpha",
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
