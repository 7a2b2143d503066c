"""Quadratic weighted kappa for model evaluation.

Table-free (continuous) kappa and a loss built on it, the closed-form kappa-optimal linear
model, threshold rules that turn continuous predictions into ordinal labels, and the ROC
curve, AUC and rank loss.
"""

from irr.ordinal._auc import rank_loss, roc_auc, roc_curve
from irr.ordinal._auc_inference import roc_auc_result
from irr.ordinal._kappa import continuous_kappa, kappa_loss, kappa_loss_gradient
from irr.ordinal._regressor import KappaRegressor
from irr.ordinal._thresholds import (
    apply_thresholds,
    distribution_thresholds,
    optimize_thresholds,
)

__all__ = [
    "KappaRegressor",
    "apply_thresholds",
    "continuous_kappa",
    "distribution_thresholds",
    "kappa_loss",
    "kappa_loss_gradient",
    "optimize_thresholds",
    "rank_loss",
    "roc_auc",
    "roc_auc_result",
    "roc_curve",
]
