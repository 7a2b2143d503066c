"""Threshold rules that turn continuous predictions into ordinal labels."""

from __future__ import annotations

from typing import Any

import numpy as np

from irr._data import align_columns
from irr._validation import check_choice, check_integer
from irr.ordinal._checks import as_1d, as_1d_real, check_same_length

__all__ = ["apply_thresholds", "distribution_thresholds", "optimize_thresholds"]

_WEIGHTS = ("linear", "quadratic")
_TOLERANCE = 1e-12


def _labels(values: Any, name: str) -> tuple[np.ndarray, np.ndarray]:
    """Sorted distinct labels of `values` and the code of each value."""
    array = as_1d(values, name)
    if array.dtype.kind == "f" and not np.isfinite(array).all():
        raise ValueError(f"`{name}` must not contain nan or inf.")
    try:
        labels, codes = np.unique(array, return_inverse=True)
    except TypeError as exc:
        raise TypeError(f"`{name}` must hold sortable labels of one type; {exc}.") from None
    return labels, codes.ravel()


def _scores(labels: np.ndarray) -> np.ndarray:
    """Category scores: the numeric values of numeric labels, else positions."""
    if labels.dtype.kind in "biuf":
        return labels.astype(np.float64)
    return np.arange(labels.size, dtype=np.float64)


def _disagreement(a: np.ndarray, b: np.ndarray, weights: str | None) -> np.ndarray:
    """Disagreement weights d(a, b) of scores, elementwise, up to a positive factor (kappa
    is invariant to it): ``[a != b]``, ``|a - b|`` or ``(a - b)**2``."""
    diff = a - b
    if weights is None:
        return (diff != 0).astype(np.float64)
    if weights == "linear":
        return np.abs(diff)
    return diff**2


def _expected_per_column(scores: np.ndarray, margin: np.ndarray, weights: str | None
                         ) -> np.ndarray:
    """``g_j = sum_i r_i d(x_i, x_j)`` for every label j, in O(k) (scores sorted).

    Unweighted: ``n - r_j``. Linear: ``x_j R_<j - S_<j + S_>j - x_j R_>j`` with R and S
    the counts and score sums of the labels below and above j. Quadratic: ``n x_j^2 -
    2 x_j S + Q`` around the weighted mean (centred scores, so no large cancellation).
    """
    r = margin.astype(np.float64)
    n = r.sum()
    if weights is None:
        return n - r
    if weights == "linear":
        count_below = np.cumsum(r) - r
        sum_below = np.cumsum(r * scores) - r * scores
        count_above = n - count_below - r
        sum_above = (r * scores).sum() - sum_below - r * scores
        return scores * count_below - sum_below + sum_above - scores * count_above
    centred = scores - (r @ scores) / n
    return n * centred**2 + (r @ centred**2)


def _check_thresholds(thresholds: Any, n_cuts: int | None) -> np.ndarray:
    cuts = np.asarray(thresholds)
    if cuts.ndim != 1:
        raise ValueError(f"`thresholds` must be 1-D; got an array of shape {cuts.shape}.")
    if cuts.dtype.kind not in "biuf":
        raise TypeError(f"`thresholds` must be real numbers; got dtype {cuts.dtype}.")
    cuts = cuts.astype(np.float64)
    if np.isnan(cuts).any():
        raise ValueError(f"`thresholds` must not contain nan; got {cuts.tolist()}.")
    if n_cuts is not None and cuts.size != n_cuts:
        raise ValueError(
            f"`thresholds` must have one fewer element than there are labels ({n_cuts}); "
            f"got {cuts.size}."
        )
    drops = np.flatnonzero(cuts[1:] < cuts[:-1])
    if drops.size:
        i = int(drops[0])
        raise ValueError(
            f"`thresholds` must be non-decreasing; got {float(cuts[i])!r} followed by "
            f"{float(cuts[i + 1])!r} at positions {i} and {i + 1}."
        )
    return cuts


def _cut_values(sorted_pred: np.ndarray, positions: np.ndarray) -> np.ndarray:
    """Cut points that put exactly the first `p` sorted predictions below each cut.

    Interior positions give the midpoint of the neighbouring order statistics (kept strictly
    below the upper one); position 0 gives -inf and position n gives +inf.
    """
    n = sorted_pred.size
    inner = np.clip(positions, 1, n - 1) if n > 1 else np.ones_like(positions)
    if n > 1:
        lower = sorted_pred[inner - 1]
        upper = sorted_pred[inner]
        mid = lower + (upper - lower) / 2.0
        mid = np.where(mid < upper, mid, lower)
    else:
        mid = np.full(positions.shape, sorted_pred[0])
    out = np.where(positions <= 0, -np.inf, mid)
    return np.where(positions >= n, np.inf, out)


def apply_thresholds(y_pred: Any, thresholds: Any, labels: Any) -> np.ndarray:
    r"""Map continuous predictions to ordinal labels with cut points.

    Parameters
    ----------
    y_pred : array-like of shape (n_samples,)
        Finite real predictions.
    thresholds : array-like of shape (n_labels - 1,)
        Non-decreasing cut points; ``-inf``/``inf`` are allowed (an empty extreme class),
        equal neighbours leave the class between them empty.
    labels : array-like of shape (n_labels,)
        Labels in increasing order of the scale, one more than there are thresholds.

    Returns
    -------
    ndarray of shape (n_samples,)
        ``labels[i]`` for every prediction in class ``i``, with the dtype of `labels`.

    Raises
    ------
    ValueError
        If `y_pred` is empty, not 1-D or not finite; if `thresholds` decrease, contain nan
        or do not have ``len(labels) - 1`` elements.

    See Also
    --------
    distribution_thresholds, optimize_thresholds

    Notes
    -----
    With cut points :math:`t_1 \le \dots \le t_{k-1}` (and :math:`t_0 = -\infty`,
    :math:`t_k = +\infty`), a prediction goes to class :math:`i` when

    .. math::

        t_{i-1} < \hat y \le t_i ,

    i.e. the class index is the number of cut points strictly below the prediction. A
    prediction *equal to* a cut point goes to the lower class, the convention of the
    threshold rule in [1]_ (``x <= bound``). The map is monotone: a larger prediction never
    gets a lower label.

    References
    ----------
    .. [1] "Kappa系数只需要看这一篇就够了" (threshold rule for QWK evaluation), CSDN blog,
       section 3.

    Examples
    --------
    >>> from irr.ordinal import apply_thresholds
    >>> apply_thresholds([0.2, 1.5, 1.6, 3.7], [1.5, 2.5], labels=[1, 2, 3])
    array([1, 1, 2, 3])
    """
    pred = as_1d_real(y_pred, "y_pred")
    label_array = as_1d(labels, "labels")
    cuts = _check_thresholds(thresholds, label_array.size - 1)
    return label_array[np.searchsorted(cuts, pred, side="left")]


def distribution_thresholds(y_pred: Any, reference_labels: Any) -> np.ndarray:
    r"""Cut points that give the predictions the label distribution of a reference.

    The rule of [1]_: take the proportion of each label in `reference_labels` (e.g. the
    training targets) and cut the predictions at the quantiles with those cumulative
    proportions, so that the predicted labels have the reference distribution.

    Parameters
    ----------
    y_pred : array-like of shape (n_samples,)
        Finite real predictions.
    reference_labels : array-like of shape (n_reference,)
        Labels whose distribution is to be reproduced; their distinct sorted values are the
        labels (pass them as `labels` to :func:`apply_thresholds`).

    Returns
    -------
    ndarray of shape (n_labels - 1,)
        Non-decreasing cut points for :func:`apply_thresholds`.

    Raises
    ------
    ValueError
        If an input is empty or not 1-D, or `y_pred` is not finite.

    See Also
    --------
    apply_thresholds, optimize_thresholds

    Notes
    -----
    With :math:`n` predictions sorted as :math:`\hat y_{(1)} \le \dots \le \hat y_{(n)}` and
    reference proportions :math:`p_1, \dots, p_k`, the target cumulative counts are
    :math:`c_i = \operatorname{round}(n \sum_{j \le i} p_j)` (half to even) and

    .. math::

        t_i = \tfrac12\left(\hat y_{(c_i)} + \hat y_{(c_i + 1)}\right),
        \qquad t_i = -\infty \text{ if } c_i = 0,\ \ t_i = +\infty \text{ if } c_i = n .

    So, without ties, exactly :math:`c_i - c_{i-1}` predictions receive label :math:`i`
    (with the tie rule of :func:`apply_thresholds`); with ``len(y_pred) ==
    len(reference_labels)`` the label counts are reproduced exactly. Tied predictions always
    share a label, so with ties the counts are matched only as closely as the ties allow.

    The blog's code cuts at ``np.percentile(y_pred, 100 * P_i)`` (linear interpolation,
    :math:`P_i = \sum_{j \le i} p_j`) and gives ``x <= cut`` the lower label. Its virtual
    index :math:`(n - 1)P_i` puts, without ties, :math:`\lfloor (n - 1)P_i\rfloor + 1`
    predictions at or below the cut, where this function puts :math:`c_i`. With as many
    predictions as reference labels, :math:`nP_i` is an integer strictly between 0 and
    :math:`n`, both counts equal :math:`nP_i` and the two rules give the same labels. Only
    when the lengths differ can they differ, by one prediction per cut point: 10 predictions
    and a reference proportion :math:`P_1 = 0.34` give 4 predictions below the blog's cut and
    :math:`c_1 = \operatorname{round}(3.4) = 3` here.

    References
    ----------
    .. [1] "Kappa系数只需要看这一篇就够了" (threshold rule for QWK evaluation), CSDN blog,
       section 3.

    Examples
    --------
    >>> from irr.ordinal import apply_thresholds, distribution_thresholds
    >>> reference = [0, 0, 1, 1, 1, 2]
    >>> pred = [0.3, -0.2, 1.4, 0.9, 2.2, 1.1]
    >>> cuts = distribution_thresholds(pred, reference)
    >>> cuts
    array([0.6, 1.8])
    >>> apply_thresholds(pred, cuts, labels=[0, 1, 2])
    array([0, 0, 1, 1, 2, 1])
    """
    pred = as_1d_real(y_pred, "y_pred")
    _, codes = _labels(reference_labels, "reference_labels")
    counts = np.bincount(codes)
    cumulative = np.cumsum(counts)[:-1] / codes.size
    positions = np.rint(cumulative * pred.size).astype(np.int64)
    return _cut_values(np.sort(pred), positions)


def optimize_thresholds(
    y_true: Any,
    y_pred: Any,
    weights: str | None = "quadratic",
    initial: Any = None,
    *,
    max_iter: int = 100,
) -> np.ndarray:
    r"""Cut points that maximise weighted kappa of the thresholded predictions.

    A deterministic coordinate-ascent search: each cut point in turn is moved to the best of
    all candidate positions between its neighbours (midpoints of consecutive distinct sorted
    predictions), all candidates being scored at once with prefix sums; passes repeat until
    no cut point moves.

    Parameters
    ----------
    y_true : array-like of shape (n_samples,)
        Reference labels; their distinct sorted values are the labels.
    y_pred : array-like of shape (n_samples,)
        Finite real predictions, e.g. from :class:`KappaRegressor`.
    weights : {'linear', 'quadratic'} or None, default='quadratic'
        Kappa weighting; None for unweighted (Cohen's) kappa. Category scores are the
        numeric label values; non-numeric labels get their positions in sorted order (for
        strings, alphabetical order, which is rarely the scale's order: recode them to
        numbers before using weights).
    initial : array-like of shape (n_labels - 1,), optional
        Starting cut points (non-decreasing). Default:
        ``distribution_thresholds(y_pred, y_true)``.
    max_iter : int, default=100
        Maximum number of passes over the cut points.

    Returns
    -------
    ndarray of shape (n_labels - 1,)
        Non-decreasing cut points for ``apply_thresholds(y_pred, cuts, np.unique(y_true))``.
        Never worse (in kappa on these data) than `initial`.

    Raises
    ------
    ValueError
        If inputs are empty, not 1-D, of different lengths or not finite, `weights` is not
        one of the choices, or `initial` is invalid.

    See Also
    --------
    apply_thresholds, distribution_thresholds

    Notes
    -----
    With disagreement weights :math:`d_{ij}` (:math:`|x_i - x_j|`, :math:`(x_i - x_j)^2` or
    :math:`[i \ne j]` for scores :math:`x`), observed table :math:`u_{ij}` and margins
    :math:`r_i, c_j`, the objective is weighted kappa (Cohen, 1968 [1]_)

    .. math::

        \kappa = 1 - \frac{n\sum_{ij} d_{ij} u_{ij}}{\sum_{ij} d_{ij} r_i c_j}.

    Moving one cut point changes only the two columns it separates, and both sums are linear
    in the prefix counts of the sorted predictions, so all candidate positions of one cut
    point are evaluated in one vectorised step from cumulative sums over the predictions
    between its neighbours: O(n + k^2) per pass over all cut points, after an O(n log n)
    sort. A cut point
    moves only if kappa improves by more than 1e-12; the start is thus a lower bound and the
    search terminates. If no cut point moves, `initial` is returned unchanged; otherwise
    every cut point is reported as the midpoint of the order statistics it falls between
    (``-inf``/``inf`` when a class at the end of the scale is left empty). The result is a
    local optimum with respect to moving one cut point at a time, not necessarily the global
    one.

    With the default `initial`, only the order of the predictions enters the search (which
    predictions fall between two cut points), so a strictly increasing transform of `y_pred`
    gives the same labels on these data, and an increasing affine one transforms the cut
    points with it (up to rounding). In particular the
    predictions of :class:`KappaRegressor` are an increasing affine transform of least
    squares (ridge when ``sigma > 0``), so with cut points fitted here on each model's
    training predictions the two give the same labels, on the training data and on new data.

    Fitting the cut points of a regression model's output to maximise kappa on training data
    is common practice where models are scored by QWK, usually with a general-purpose
    optimiser (e.g. Nelder-Mead) over the cut points; the search above is this package's own.
    Vaughn & Justice's paper (see :class:`KappaRegressor`) derives the kappa-optimal linear
    predictor and does not threshold it.

    References
    ----------
    .. [1] J. Cohen, "Weighted kappa: nominal scale agreement with provision for scaled
       disagreement or partial credit", Psychological Bulletin 70(4), 213-220, 1968.

    Examples
    --------
    >>> import numpy as np
    >>> from irr.ordinal import apply_thresholds, distribution_thresholds, optimize_thresholds
    >>> y = np.array([0, 0, 1, 1, 1, 2, 2, 3])
    >>> pred = np.array([0.1, 0.8, 0.7, 1.2, 1.9, 1.7, 2.6, 2.4])
    >>> cuts = optimize_thresholds(y, pred)
    >>> distribution_thresholds(pred, y)  # the starting point
    array([0.75, 1.8 , 2.5 ])
    >>> cuts
    array([1.  , 1.45, 2.15])
    >>> apply_thresholds(pred, cuts, labels=np.unique(y))
    array([0, 0, 0, 1, 2, 2, 3, 3])
    """
    (y_true, y_pred), _ = align_columns([y_true, y_pred], ["y_true", "y_pred"])
    true_labels, true_codes = _labels(y_true, "y_true")
    pred = as_1d_real(y_pred, "y_pred")
    check_same_length(true_codes, pred, "y_true", "y_pred")
    if weights is not None:
        check_choice(weights, "weights", _WEIGHTS)
    max_iter = check_integer(max_iter, "max_iter", minimum=1)
    k = true_labels.size
    if initial is None:
        cuts = distribution_thresholds(pred, true_labels[true_codes])
    else:
        cuts = _check_thresholds(initial, k - 1).copy()
    if k < 2:
        return cuts

    n = pred.size
    order = np.argsort(pred, kind="stable")
    sorted_pred = pred[order]
    scores = _scores(true_labels)
    sorted_scores = scores[true_codes[order]]  # the true label's score, in prediction order
    valid = np.ones(n + 1, dtype=bool)
    valid[1:n] = sorted_pred[1:] > sorted_pred[:-1]
    expected_per_column = _expected_per_column(
        scores, np.bincount(true_codes, minlength=k), weights)

    bounds = np.concatenate(([0], np.searchsorted(sorted_pred, cuts, side="right"), [n]))
    # observed disagreement of each predicted column: one bincount over the samples
    column = np.repeat(np.arange(k), np.diff(bounds))
    column_obs = np.bincount(
        column, _disagreement(sorted_scores, scores[column], weights), minlength=k)
    moved = np.zeros(k - 1, dtype=bool)  # whether each cut point left its start
    # Each cut point j moves within [bounds[j], bounds[j + 2]]; every candidate position is
    # scored at once from cumulative sums over that stretch of the sorted samples, so a
    # pass costs O(n + k^2) (the k^2 from the other columns' sums), never O(n k) or O(k^3).
    for _ in range(max_iter):
        changed = False
        for j in range(k - 1):
            lo, hi = bounds[j], bounds[j + 2]
            column_count = np.diff(bounds).astype(np.float64)
            other = np.ones(k, dtype=bool)
            other[[j, j + 1]] = False
            obs_other = column_obs[other].sum()
            exp_other = expected_per_column[other] @ column_count[other]

            stretch = sorted_scores[lo:hi]
            below = np.concatenate(([0.0], np.cumsum(_disagreement(stretch, scores[j], weights))))
            above = np.concatenate(
                ([0.0], np.cumsum(_disagreement(stretch, scores[j + 1], weights))))
            positions = np.arange(lo, hi + 1)
            positions = positions[valid[positions]]
            offset = positions - lo
            lower_obs, upper_obs = below[offset], above[-1] - above[offset]
            observed = obs_other + lower_obs + upper_obs
            expected = (
                exp_other
                + (positions - lo) * expected_per_column[j]
                + (hi - positions) * expected_per_column[j + 1]
            )
            kappa = 1.0 - n * observed / expected
            current = kappa[positions == bounds[j + 1]][0]
            best = int(np.argmax(kappa))
            if kappa[best] > current + _TOLERANCE:
                bounds[j + 1] = positions[best]
                column_obs[j], column_obs[j + 1] = lower_obs[best], upper_obs[best]
                moved[j] = True
                changed = True
        if not changed:
            break
    if not moved.any():
        return cuts
    return _cut_values(sorted_pred, bounds[1:-1])
