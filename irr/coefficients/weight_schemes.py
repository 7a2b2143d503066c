r"""Gwet's (2014, ch. 3) agreement-weight schemes beyond linear and quadratic.

All are agreement weights (``w[k, k] = 1``) computed from the category scores
:math:`x_1 < \dots < x_q` (numeric labels, or positions on an ordered scale), with
:math:`x_{\min}, x_{\max}` the ends of the declared scale:

- ``'ordinal'``: from ranks, not scores:
  :math:`w_{kl} = 1 - \binom{|k-l|+1}{2} / \binom{q}{2}`;
- ``'radical'``: :math:`w_{kl} = 1 - \sqrt{|x_k - x_l|}/\sqrt{x_{\max} - x_{\min}}`;
- ``'ratio'``: :math:`w_{kl} = 1 - \left(\frac{x_k - x_l}{x_k + x_l}\right)^2 \big/
  \left(\frac{x_{\max} - x_{\min}}{x_{\max} + x_{\min}}\right)^2` (scores must be
  non-negative);
- ``'circular'``: :math:`w_{kl} = 1 - \sin^2(\pi (x_k - x_l)/U) / \max_{kl}\sin^2(\cdot)`,
  :math:`U = x_{\max} - x_{\min} + 1`;
- ``'bipolar'``: :math:`d_{kl} = \frac{(x_k - x_l)^2}{(x_k + x_l - 2x_{\min})
  (2x_{\max} - x_k - x_l)}` for :math:`k \ne l`, and :math:`w = 1 - d / \max d`.

``None``, ``'identity'``, ``'linear'``, ``'quadratic'`` (and their aliases) and explicit
matrices are handled by :func:`irr.weights.agreement_weights`.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from irr.weights import WEIGHT_SCHEMES, agreement_weights, weight_name

__all__ = ["GWET_SCHEMES", "gwet_weight_name", "gwet_weights"]

#: Schemes defined here, in addition to those of :mod:`irr.weights`.
GWET_SCHEMES = ("ordinal", "radical", "ratio", "circular", "bipolar")


def gwet_weight_name(weights: Any) -> str:
    """Canonical name of a weight specification, Gwet's schemes included.

    Examples
    --------
    >>> gwet_weight_name("Radical"), gwet_weight_name("squared"), gwet_weight_name(None)
    ('radical', 'quadratic', 'unweighted')
    """
    if isinstance(weights, str):
        key = weights.lower()
        if key in GWET_SCHEMES:
            return key
        if key == "identity":
            return "unweighted"
        if key not in WEIGHT_SCHEMES:
            known = ", ".join(repr(k) for k in (*WEIGHT_SCHEMES, "identity", *GWET_SCHEMES))
            raise ValueError(
                f"`weights` must be None, one of {known}, or a k x k agreement-weight "
                f"matrix; got {weights!r}."
            )
    return weight_name(weights)


def gwet_weights(weights: Any, n_categories: int, scores: np.ndarray | None) -> np.ndarray:
    """The k x k agreement-weight matrix of any scheme of Gwet (2014).

    Parameters
    ----------
    weights : None, str or array-like of shape (k, k)
        ``None``/``'identity'``, ``'linear'``, ``'quadratic'``, ``'ordinal'``,
        ``'radical'``, ``'ratio'``, ``'circular'``, ``'bipolar'`` (case-insensitive), or an
        agreement-weight matrix.
    n_categories : int
    scores : ndarray of shape (k,) or None
        Category scores; required by every named scheme but identity.

    Returns
    -------
    ndarray of shape (k, k)

    Examples
    --------
    >>> gwet_weights("ordinal", 3, np.array([1.0, 2.0, 3.0]))
    array([[1.        , 0.66666667, 0.        ],
           [0.66666667, 1.        , 0.66666667],
           [0.        , 0.66666667, 1.        ]])
    """
    name = gwet_weight_name(weights)
    if name not in GWET_SCHEMES:
        return agreement_weights(None if name == "unweighted" else weights, n_categories, scores)
    k = n_categories
    if scores is None:
        raise ValueError(
            f"`weights={weights!r}` needs ordered categories with scores, but these labels "
            "have no order. Pass `categories=` in scale order, or use an ordered Categorical."
        )
    x = np.asarray(scores, dtype=float)
    if k < 2 or x.max() == x.min():
        return np.ones((k, k))
    lo, hi = x.min(), x.max()
    diff = x[:, None] - x[None, :]
    if name == "ordinal":
        rank = np.arange(k)
        steps = np.abs(rank[:, None] - rank[None, :]) + 1.0
        return 1.0 - steps * (steps - 1) / 2 / (k * (k - 1) / 2)
    if name == "radical":
        return 1.0 - np.sqrt(np.abs(diff)) / np.sqrt(hi - lo)
    if name == "ratio":
        if lo < 0:
            raise ValueError(
                f"`weights='ratio'` needs non-negative category scores; the smallest is {lo:g}."
            )
        total = x[:, None] + x[None, :]
        with np.errstate(invalid="ignore", divide="ignore"):
            ratio = np.where(total > 0, (diff / np.where(total > 0, total, 1.0)) ** 2, 0.0)
        return 1.0 - ratio / ((hi - lo) / (hi + lo)) ** 2
    if name == "circular":
        d = np.sin(np.pi * diff / (hi - lo + 1)) ** 2
        return 1.0 - d / d.max()
    # bipolar
    off = ~np.eye(k, dtype=bool)
    denominator = (x[:, None] + x[None, :] - 2 * lo) * (2 * hi - x[:, None] - x[None, :])
    d = np.zeros((k, k))
    d[off] = diff[off] ** 2 / denominator[off]
    return 1.0 - d / d.max()
