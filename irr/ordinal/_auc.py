"""ROC curve, AUC by the trapezoid rule and rank loss, in O(n log n)."""

from __future__ import annotations

from typing import Any

import numpy as np

from irr._data import align_columns
from irr.ordinal._checks import as_1d, as_1d_real, check_same_length

__all__ = ["rank_loss", "roc_auc", "roc_curve"]

_EXACT_LIMIT = 2**60  # integer arithmetic below this many positive-negative pairs


def _binary(y_true: Any, pos_label: Any) -> np.ndarray:
    """Boolean "is positive" array from a two-class `y_true`."""
    y = as_1d(y_true, "y_true")
    if y.dtype.kind == "f" and not np.isfinite(y).all():
        raise ValueError("`y_true` must not contain nan or inf.")
    try:
        classes = np.unique(y)
    except TypeError as exc:
        raise TypeError(f"`y_true` must hold labels of one sortable type; {exc}.") from None
    if classes.size > 2:
        raise ValueError(
            f"`y_true` must be binary (two classes); got {classes.size} distinct labels: "
            f"{classes.tolist()[:10]}."
        )
    if classes.size == 1:
        raise ValueError(
            f"`y_true` must contain both classes; got only {classes.tolist()}; ROC curve, AUC "
            "and rank loss need positives and negatives."
        )
    if pos_label is None:
        if y.dtype.kind == "b":
            pos_label = True
        elif (
            classes.dtype.kind in "iuf"
            and set(classes.tolist()) <= {0, 1, -1}
            and not ({0, -1} <= set(classes.tolist()))
        ):
            pos_label = 1
        else:
            raise ValueError(
                "`pos_label` must be given when `y_true` is not bool, {0, 1} or {-1, 1}; "
                f"got labels {classes.tolist()}."
            )
    elif pos_label not in classes.tolist():
        raise ValueError(
            f"`pos_label` must be one of the labels in `y_true` {classes.tolist()}; "
            f"got {pos_label!r}."
        )
    return y == pos_label


def level_counts(y_true: Any, scores: Any, pos_label: Any) -> tuple[np.ndarray, ...]:
    """Distinct scores in decreasing order with the positive and negative count at each."""
    (y_true, scores), _ = align_columns([y_true, scores], ["y_true", "scores"])
    positive = _binary(y_true, pos_label)
    s = as_1d_real(scores, "scores")
    check_same_length(positive, s, "y_true", "scores")
    levels, inverse = np.unique(-s, return_inverse=True)  # increasing -s = decreasing s
    inverse = inverse.ravel()
    pos = np.bincount(inverse[positive], minlength=levels.size)
    neg = np.bincount(inverse[~positive], minlength=levels.size)
    return -levels, pos, neg


def trapezoid_numerator(pos: np.ndarray, neg: np.ndarray) -> np.ndarray:
    """Twice the area under the count-scaled ROC curve, for levels in decreasing score.

    The trapezoid between consecutive ROC points has width ``neg_l`` and parallel sides
    ``TP_before_l`` and ``TP_before_l + pos_l``. Works on a leading batch axis and on
    (real-valued) resampling weights as well as integer counts, so it can serve a
    bootstrap over per-pattern counts.
    """
    tp_before = np.cumsum(pos, axis=-1) - pos
    return np.sum(neg * (2 * tp_before + pos), axis=-1)


def _auc_parts(pos: np.ndarray, neg: np.ndarray) -> tuple[Any, Any]:
    """(2 x trapezoid area, 2 m+ m-) as exact integers when small enough."""
    n_pos = int(pos.sum())
    n_neg = int(neg.sum())
    if n_pos * n_neg < _EXACT_LIMIT:
        return int(trapezoid_numerator(pos, neg)), 2 * n_pos * n_neg
    pos_f = pos.astype(np.float64)
    neg_f = neg.astype(np.float64)
    return float(trapezoid_numerator(pos_f, neg_f)), 2.0 * n_pos * n_neg


def roc_curve(
    y_true: Any, scores: Any, *, pos_label: Any = None
) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    r"""Receiver operating characteristic: false and true positive rates at every threshold.

    Parameters
    ----------
    y_true : array-like of shape (n_samples,)
        Two-class labels: bool, {0, 1}, {-1, 1} or any two labels with `pos_label`.
    scores : array-like of shape (n_samples,)
        Finite real scores, larger meaning "more likely positive".
    pos_label : scalar, optional
        The positive label. Default: True, or 1 for {0, 1} and {-1, 1} labels.

    Returns
    -------
    fpr : ndarray of shape (n_thresholds,)
        False positive rates, non-decreasing from 0 to 1.
    tpr : ndarray of shape (n_thresholds,)
        True positive rates, non-decreasing from 0 to 1.
    thresholds : ndarray of shape (n_thresholds,)
        ``inf`` followed by the distinct scores in decreasing order; point ``i`` classifies
        ``scores >= thresholds[i]`` as positive.

    Raises
    ------
    ValueError
        If `y_true` has one class or more than two, `pos_label` is needed or not a label,
        `scores` is not finite, or the lengths differ.

    See Also
    --------
    roc_auc, rank_loss

    Notes
    -----
    Following [1]_ (eq. 2.20), the threshold starts above every score (the point (0, 0)) and
    is lowered to each distinct score in turn; a score equal to the threshold counts as a
    positive prediction, so tied scores move the curve diagonally. With :math:`m^+`
    positives and :math:`m^-` negatives,

    .. math::

        \mathrm{fpr}_i = \frac{\#\{x^- : f(x^-) \ge t_i\}}{m^-},\qquad
        \mathrm{tpr}_i = \frac{\#\{x^+ : f(x^+) \ge t_i\}}{m^+}.

    All points are returned (no dropping of collinear points). Cost O(n log n).

    References
    ----------
    .. [1] 谢文睿, 秦州, 《机器学习公式详解》 (Formula derivations for "Machine Learning"),
       chapter 2, eq. 2.20-2.21.

    Examples
    --------
    The eight samples of [1]_:

    >>> from irr.ordinal import roc_curve
    >>> s = [0.77, 0.62, 0.58, 0.47, 0.47, 0.33, 0.23, 0.15]
    >>> y = [1, 0, 1, 1, 0, 0, 1, 0]
    >>> fpr, tpr, thresholds = roc_curve(y, s)
    >>> fpr
    array([0.  , 0.  , 0.25, 0.25, 0.5 , 0.75, 0.75, 1.  ])
    >>> tpr
    array([0.  , 0.25, 0.25, 0.5 , 0.75, 0.75, 1.  , 1.  ])
    >>> thresholds
    array([ inf, 0.77, 0.62, 0.58, 0.47, 0.33, 0.23, 0.15])
    """
    levels, pos, neg = level_counts(y_true, scores, pos_label)
    tp = np.concatenate(([0], np.cumsum(pos)))
    fp = np.concatenate(([0], np.cumsum(neg)))
    thresholds = np.concatenate(([np.inf], levels))
    return fp / fp[-1], tp / tp[-1], thresholds


def roc_auc(y_true: Any, scores: Any, *, pos_label: Any = None) -> float:
    r"""Area under the ROC curve by the trapezoid rule.

    Parameters
    ----------
    y_true : array-like of shape (n_samples,)
        Two-class labels: bool, {0, 1}, {-1, 1} or any two labels with `pos_label`.
    scores : array-like of shape (n_samples,)
        Finite real scores, larger meaning "more likely positive".
    pos_label : scalar, optional
        The positive label. Default: True, or 1 for {0, 1} and {-1, 1} labels.

    Returns
    -------
    float
        AUC in [0, 1]; ``1 - rank_loss(y_true, scores)``.

    Raises
    ------
    ValueError
        If `y_true` has one class or more than two, `pos_label` is needed or not a label,
        `scores` is not finite, or the lengths differ.

    See Also
    --------
    roc_curve, rank_loss

    Notes
    -----
    With the ROC points :math:`(x_i, y_i)` of :func:`roc_curve`, [1]_ eq. 2.20:

    .. math::

        \mathrm{AUC} = \frac12 \sum_{i=1}^{m-1} (x_{i+1} - x_i)(y_i + y_{i+1}).

    The sum is evaluated on the count scale (steps of one sample), in exact integer
    arithmetic up to :math:`2^{60}` positive-negative pairs, and divided once by
    :math:`2 m^+ m^-`: one pass over the distinct scores after an O(n log n) sort. It equals
    the Mann-Whitney probability :math:`P(f(x^+) > f(x^-)) + \frac12 P(f(x^+) = f(x^-))`.

    References
    ----------
    .. [1] 谢文睿, 秦州, 《机器学习公式详解》 (Formula derivations for "Machine Learning"),
       chapter 2, eq. 2.20-2.21.

    Examples
    --------
    >>> from irr.ordinal import roc_auc
    >>> s = [0.77, 0.62, 0.58, 0.47, 0.47, 0.33, 0.23, 0.15]
    >>> roc_auc([1, 0, 1, 1, 0, 0, 1, 0], s)
    0.65625
    >>> roc_auc(["spam", "ham", "spam", "ham"], [0.9, 0.1, 0.4, 0.4], pos_label="spam")
    0.875
    """
    _, pos, neg = level_counts(y_true, scores, pos_label)
    area2, pairs2 = _auc_parts(pos, neg)
    return area2 / pairs2


def rank_loss(y_true: Any, scores: Any, *, pos_label: Any = None) -> float:
    r"""Rank loss: the share of positive-negative pairs ranked the wrong way, ties half.

    Parameters
    ----------
    y_true : array-like of shape (n_samples,)
        Two-class labels: bool, {0, 1}, {-1, 1} or any two labels with `pos_label`.
    scores : array-like of shape (n_samples,)
        Finite real scores, larger meaning "more likely positive".
    pos_label : scalar, optional
        The positive label. Default: True, or 1 for {0, 1} and {-1, 1} labels.

    Returns
    -------
    float
        Rank loss in [0, 1]; ``1 - roc_auc(y_true, scores)``.

    Raises
    ------
    ValueError
        If `y_true` has one class or more than two, `pos_label` is needed or not a label,
        `scores` is not finite, or the lengths differ.

    See Also
    --------
    roc_auc, roc_curve

    Notes
    -----
    [1]_ eq. 2.21, with :math:`D^+`, :math:`D^-` the positives and negatives:

    .. math::

        \ell_{\mathrm{rank}} = \frac{1}{m^+ m^-} \sum_{x^+ \in D^+} \sum_{x^- \in D^-}
            \left(\mathbb{I}(f(x^+) < f(x^-)) + \tfrac12\,\mathbb{I}(f(x^+) = f(x^-))\right).

    The double sum is never formed: it equals :math:`2m^+m^-` minus twice the trapezoid
    area of :func:`roc_auc` on the count scale, computed in exact integer arithmetic, so
    ``rank_loss + roc_auc == 1`` up to one rounding of each division. O(n log n).

    References
    ----------
    .. [1] 谢文睿, 秦州, 《机器学习公式详解》 (Formula derivations for "Machine Learning"),
       chapter 2, eq. 2.20-2.21.

    Examples
    --------
    >>> from irr.ordinal import rank_loss
    >>> s = [0.77, 0.62, 0.58, 0.47, 0.47, 0.33, 0.23, 0.15]
    >>> rank_loss([1, 0, 1, 1, 0, 0, 1, 0], s)
    0.34375
    """
    _, pos, neg = level_counts(y_true, scores, pos_label)
    area2, pairs2 = _auc_parts(pos, neg)
    return (pairs2 - area2) / pairs2
