r"""Chance-corrected agreement of two or more raters as pure, batch-vectorised kernels.

Every coefficient here has the form

.. math:: \kappa = \frac{p_a - p_e}{1 - p_e}

with a *percent agreement* :math:`p_a` shared by all of them (Gwet 2014, weighted) and a
*chance agreement* :math:`p_e` that tells them apart. They are functions of sums over
subjects, so each kernel takes

- ``patterns``: the distinct subject rows, either subject x category counts of shape
  ``(P, k)`` (Fleiss' layout: how many raters put the subject in each category) for the
  coefficients defined on counts, or rater codes of shape ``(P, m)`` (``-1`` = missing) for
  those that need to know which rater gave which rating (Conger, Light);
- ``batch``: how many subjects of each pattern a sample holds, shape ``(b, P)`` (one row
  for the data, B rows for B bootstrap resamples);
- agreement weights ``(k, k)`` with ones on the diagonal;

and returns shape ``(b,)``. Nothing loops over subjects or resamples.

Conventions (Gwet 2014, ch. 5), with :math:`r_{ik}` the number of raters who put subject
*i* in category *k*, :math:`r_i = \sum_k r_{ik}` and
:math:`r^\star_{ik} = \sum_l w_{kl} r_{il}`:

- :math:`p_a` averages
  :math:`\sum_k r_{ik}(r^\star_{ik} - 1) / (r_i(r_i - 1))` over the :math:`n'` subjects with
  at least two ratings;
- classification probabilities :math:`\pi_k = n^{-1}\sum_i r_{ik}/r_i` average over the
  :math:`n` subjects with at least one rating (subjects with no rating are left out);
- the linearised variance is the subject-sampling variance
  :math:`v = \frac{1}{n(n-1)}\sum_i (\kappa^\star_i - \kappa)^2` (divisor :math:`n - 1`,
  no finite-population correction) of Gwet (2008, 2014).
"""

from __future__ import annotations

from typing import NamedTuple

import numpy as np

__all__ = [
    "COUNT_METHODS",
    "MAX_PAIR_RATINGS",
    "CodeEntries",
    "CountEntries",
    "CountsEstimate",
    "PairCells",
    "RaterCodes",
    "code_entries",
    "conger_estimate",
    "conger_kernel",
    "count_entries",
    "counts_estimate",
    "counts_kernel",
    "fleiss_category_kappas",
    "fleiss_null_variance",
    "light_estimate",
    "light_kernel",
    "pair_cells",
    "pairwise_counts",
    "pairwise_kappas",
    "rater_codes",
]

#: Coefficients defined on subject x category counts.
COUNT_METHODS = ("fleiss", "gwet", "brennan_prediger", "percent")

_TINY = 1e-13


class CountsEstimate(NamedTuple):
    """A coefficient with its parts and Gwet's linearised variance."""

    estimate: float
    observed: float
    expected: float
    variance: float
    n_subjects: int
    n_paired: int
    #: Each pattern's linearised value kappa*_i (its mean over the rated subjects is the
    #: estimate); None where the coefficient is undefined.
    terms: np.ndarray | None = None
    #: The category shares pi_k of the coefficients on counts (the mean over rated
    #: subjects of r_ik / r_i), shape (k,); None where not computed.
    shares: np.ndarray | None = None


# -- shared pieces ---------------------------------------------------------------------
def _is_identity(w: np.ndarray) -> bool:
    """Whether agreement weights are the identity (unweighted): k nonzeros, all on a diagonal
    of ones. O(k^2) reads, no k x k temporary."""
    k = w.shape[0]
    return np.count_nonzero(w) == k and bool((np.diagonal(w) == 1).all())


def _others(pi: np.ndarray) -> np.ndarray:
    """``sum_{l != k} pi_l`` for each k (last axis), as sums of non-negative terms (exclusive
    cumulative sums from both ends), so no cancellation when one pi_k is near 1."""
    if pi.ndim == 1:  # one sample: the same cumulative sums written into place
        k = len(pi)
        before, after = np.zeros(k), np.zeros(k)
        np.cumsum(pi[:-1], out=before[1:])
        np.cumsum(pi[:0:-1], out=after[: k - 1][::-1])
        before += after
        return before
    zero = np.zeros((*pi.shape[:-1], 1))
    before = np.concatenate([zero, np.cumsum(pi[..., :-1], axis=-1)], axis=-1)
    after = np.concatenate([np.cumsum(pi[..., :0:-1], axis=-1)[..., ::-1], zero], axis=-1)
    return before + after


class CountEntries(NamedTuple):
    """Subject x category count rows (P, k) as their nonzero cells, in row then category
    order: ``row``, ``category`` (int64) and ``count`` (float), with ``r`` the ratings of
    each row (P,). Memory and work are those of the nonzero cells (at most the ratings),
    never P x k.
    """

    row: np.ndarray
    category: np.ndarray
    count: np.ndarray
    r: np.ndarray
    k: int

    @property
    def n_patterns(self) -> int:
        return len(self.r)

    @classmethod
    def from_cells(cls, row: np.ndarray, category: np.ndarray, count: np.ndarray,
                   n_patterns: int, k: int) -> CountEntries:
        """The entries of nonzero cells given in row then category order."""
        count = np.asarray(count, dtype=float)
        return cls(np.asarray(row, dtype=np.int64), np.asarray(category, dtype=np.int64),
                   count, np.bincount(row, weights=count, minlength=n_patterns), k)

    def matrix(self, values: np.ndarray | None = None):
        """The (P, k) scipy sparse matrix of `values` (one per cell; the counts if None)."""
        from scipy import sparse

        values = self.count if values is None else values
        return sparse.csr_matrix((values, (self.row, self.category)),
                                 shape=(self.n_patterns, self.k))


def count_entries(patterns: np.ndarray | CountEntries | RaterCodes
                  ) -> CountEntries | RaterCodes:
    """Dense subject x category count rows (P, k) as :class:`CountEntries` (entries and
    :class:`RaterCodes` are returned as they are).

    Examples
    --------
    >>> e = count_entries(np.array([[2, 0, 1], [0, 3, 0]]))
    >>> e.row.tolist(), e.category.tolist(), e.count.tolist(), e.r.tolist()
    ([0, 0, 1], [0, 2, 1], [2.0, 1.0, 3.0], [3.0, 3.0])
    """
    if isinstance(patterns, CountEntries | RaterCodes):
        return patterns
    x = np.asarray(patterns)
    row, category = np.nonzero(x)
    row, category = row.astype(np.int64), category.astype(np.int64)
    count = x[row, category].astype(float)
    r = np.bincount(row, weights=count, minlength=x.shape[0])
    return CountEntries(row, category, count, r, x.shape[1])


class RaterCodes(NamedTuple):
    r"""Dense rows of rater codes (P, m), ``-1`` = missing, read as their subject x category
    counts :math:`r_{ik}` (raters of row i who gave code k) without forming them.

    Every sum the unweighted coefficients on counts need is one over the ratings:
    :math:`\sum_k r_{ik}^2 = r_i + 2 e_i` with :math:`e_i` the rater pairs of row i who
    gave the same code (pairwise equality counts), the category shares a bincount of the
    codes, and :math:`\sum_k (r_{ik}/r_i) x_k` the mean of :math:`x` at the row's codes.
    No per-row sort and no (row, category) cells. Built by :func:`rater_codes`.

    ``columns`` holds the codes one rater per row (m, P), ``r`` the ratings of each row
    (float, exact integers; read-only when no rating is missing), ``same`` the pairs of
    raters of each row who gave the same code (:attr:`squares` is
    :math:`\sum_k r_{ik}^2 = r_i + 2 e_i`, made on request); ``complete`` whether no rating
    is missing.
    """

    columns: np.ndarray
    r: np.ndarray
    same: np.ndarray
    complete: bool
    k: int

    @property
    def n_patterns(self) -> int:
        return len(self.r)

    @property
    def squares(self) -> np.ndarray:
        r""":math:`\sum_k r_{ik}^2 = r_i + 2 e_i` of each row (float, exact integers), a new
        array (its caller's own)."""
        return self.r + 2.0 * self.same

    def by_category(self, per_row: np.ndarray) -> np.ndarray:
        """``sum_i per_row_i r_ik`` for each category k, shape (k,): one bincount per rater
        (a missing code counted in an extra bin, then dropped)."""
        per_row = np.asarray(per_row, dtype=float)
        total = np.zeros(self.k + 1)
        for column in self.columns:  # a loop over the raters
            total += np.bincount(column if self.complete else np.where(column < 0, self.k, column),
                                 weights=per_row, minlength=self.k + 1)
        return total[: self.k]

    def by_rater(self, per_row: np.ndarray) -> np.ndarray:
        """``sum_i per_row_i [code_ig = x]`` for each rater g and category x, shape (m, k):
        one bincount per rater (a missing code counted in an extra bin, then dropped)."""
        per_row = np.asarray(per_row, dtype=float)
        out = np.empty((len(self.columns), self.k))
        for g, column in enumerate(self.columns):  # a loop over the raters
            out[g] = np.bincount(column if self.complete else np.where(column < 0, self.k, column),
                                 weights=per_row, minlength=self.k + 1)[: self.k]
        return out

    def at_rater_codes(self, values: np.ndarray) -> np.ndarray:
        """``sum_g values[g, code_ig]`` for each row (a missing code adds 0), shape (P,):
        one rater at a time added into one buffer."""
        values = np.asarray(values, dtype=float)
        table = np.concatenate([values, np.zeros((len(values), 1))], axis=1)  # -1 reads 0
        if not len(self.columns):
            return np.zeros(self.n_patterns)
        # take: a plain gather (code -1 reads the last entry), twice as fast as indexing
        # (the method itself: no np.take wrapper per rater)
        total = table[0].take(self.columns[0])
        for row, column in zip(table[1:], self.columns[1:], strict=True):  # the raters
            total += row.take(column)
        return total

    def at_codes(self, values: np.ndarray) -> np.ndarray:
        """``sum_k r_ik values_k`` for each row, shape (P,): one rater's codes at a time
        added into one buffer (no (m, P) temporary)."""
        values = np.asarray(values, dtype=float)
        table = np.zeros(len(values) + 1)  # code -1 reads the 0
        table[:-1] = values
        if not len(self.columns):
            return np.zeros(self.n_patterns)
        # take: a plain gather (code -1 reads the 0), twice as fast as indexing (the method
        # itself: no np.take wrapper per rater)
        total = table.take(self.columns[0])
        for column in self.columns[1:]:  # a loop over the raters
            total += table.take(column)
        return total


def rater_codes(codes: np.ndarray, k: int) -> RaterCodes:
    """Dense rows of rater codes (P, m), ``-1`` = missing, as :class:`RaterCodes`.

    Examples
    --------
    >>> rc = rater_codes(np.array([[0, 0, 1], [2, -1, 2]]), 3)
    >>> rc.r.tolist(), rc.squares.tolist(), rc.by_category(np.ones(2)).tolist()
    ([3.0, 2.0], [5.0, 4.0], [2.0, 1.0, 2.0])
    """
    columns = np.ascontiguousarray(np.asarray(codes).T)
    m, size = columns.shape
    # rater pairs of each row with equal codes (two missing ones, -1 and -1, included),
    # compared in the narrowest integers that hold the codes -1..k-1 (same equalities;
    # whether one is missing read from them too: a fraction of the bytes)
    narrow = (columns.astype(np.int8) if k <= 127 else
              columns.astype(np.int16) if k <= 32767 else columns)
    complete = not size or bool(narrow.min() >= 0)
    # counted in the narrowest integers that hold m(m - 1)/2; in int8, each comparison's
    # booleans are added as their bytes (int8 0 and 1: one type, no cast of each pass)
    same = np.zeros(size, dtype=np.int8 if m <= 16 else np.int16 if m < 256 else np.int64)
    equal = np.empty(size, dtype=bool)
    increment = equal.view(np.int8) if same.dtype == np.int8 else equal
    for g in range(m - 1):  # a loop over the m(m - 1)/2 pairs of raters (whole columns)
        for h in range(g + 1, m):
            np.equal(narrow[g], narrow[h], out=equal)
            same += increment
    if complete:  # every row has m ratings: one read-only value, no array of n
        r = np.broadcast_to(np.float64(m), (size,))
    else:  # leave out the pairs of missing codes: C(m - r, 2)
        r = (columns >= 0).sum(axis=0).astype(float)
        same = same - (m - r) * (m - r - 1) / 2
    return RaterCodes(columns, r, same, complete, k)


def _subject_parts(e: CountEntries | RaterCodes, w: np.ndarray, identity: bool | None = None):
    """Per-pattern ratings count, pair agreement and (per nonzero cell) category shares.

    Also the pair *disagreement* ``sum_kl (1 - w_kl) r_ik r_il / (r_i (r_i - 1))``
    (``= 1 - agreement`` for subjects with two ratings, 0 otherwise), a sum of
    non-negative terms, from which the coefficients are evaluated without cancellation.
    ``share`` is ``r_ik / r_i`` of each cell of `e` (the other cells' shares are 0); for
    :class:`RaterCodes` (unweighted only) it is each row's ``r_i`` (1 for an unrated row),
    the shares' denominator: read the shares through :func:`_category_shares` and
    :func:`_share_sums`, which take either. `identity`: whether `w` is the identity
    (:func:`_is_identity`), when the caller has read it.
    """
    r = e.r
    if identity is None:
        identity = _is_identity(w)
    if isinstance(e, RaterCodes) and not identity:
        raise ValueError("Rows of rater codes (RaterCodes) serve unweighted coefficients "
                         "only; weighted ones take the count cells (CountEntries).")
    if isinstance(e, RaterCodes) and e.complete and len(e.columns) >= 2:
        # r_i = m >= 2 on every row: the operations below on scalars, value for value (the
        # same rounding), and read-only views for the constant arrays
        m = float(len(e.columns))
        # m^2 - sum_k r_ik^2 = m^2 - (m + 2 e_i) as (m^2 - m) - 2 e_i: the same integers,
        # exact in floats, in one pass fewer
        disagreement = np.multiply(e.same, -2.0, dtype=np.float64)
        disagreement += m * m - m
        disagreement /= m * (m - 1)
        every = np.ones(len(r), dtype=bool)  # (a contiguous array: reductions read it fast)
        return r, every, every, np.subtract(1.0, disagreement), r, disagreement
    paired = r >= 2
    rated = r >= 1
    pairs = np.where(paired, r * (r - 1), 1.0)
    if isinstance(e, RaterCodes):
        # r_i^2 - sum_k r_ik^2 is 0 on a row with fewer than two ratings (pairs 1 there)
        disagreement = r * r
        disagreement -= e.squares
        disagreement /= pairs
        agreement = np.subtract(paired, disagreement)  # 1 - d_i when paired, else 0 - 0
        return r, rated, paired, agreement, np.maximum(r, 1.0), disagreement
    if identity:
        # sum_{k != l} r_ik r_il = r_i^2 - sum_k r_ik^2, exact for integer counts, in
        # O(cells): no k x k product for unweighted coefficients
        cross = r * r - np.bincount(e.row, weights=e.count * e.count, minlength=len(r))
    else:
        # sum_k r_ik (D r_i)_k, D = 1 - W: a sparse product, O(cells x k)
        spread = np.asarray(e.matrix() @ (1.0 - w).T)[e.row, e.category]
        cross = np.bincount(e.row, weights=e.count * spread, minlength=len(r))
    disagreement = np.where(paired, cross / pairs, 0.0)
    agreement = np.where(paired, 1.0 - disagreement, 0.0)
    share = e.count / np.where(rated, r, 1.0)[e.row]
    return r, rated, paired, agreement, share, disagreement


_SUBSCRIPTS = {(1, 1): "i,i->", (2, 1): "ij,j->i", (1, 2): "i,ij->j", (2, 2): "ij,jk->ik"}


def _dot(a: np.ndarray, b: np.ndarray) -> np.ndarray:
    """``a @ b`` for the products of one sample (vectors, one row), in numpy's own loops
    when they are long.

    OpenBLAS splits a dot of more than 10,000 terms (or a matrix-vector product of more
    than 9,216 cells) over threads, and waking them costs milliseconds on a busy machine:
    more than these O(P) products themselves. Shorter products stay with BLAS as before.
    """
    if np.size(a) + np.size(b) < 8192:
        return a @ b
    return np.einsum(_SUBSCRIPTS[np.ndim(a), np.ndim(b)], a, b)


def _rated_counts(
    multiplicity: np.ndarray, rated: np.ndarray, paired: np.ndarray
) -> tuple[np.ndarray, float, float]:
    """(multiplicity of rated patterns, n subjects rated, n subjects with two or more ratings)."""
    c = np.array(multiplicity, dtype=float)  # a copy: the callers' own
    if not rated.all():
        c[~rated] = 0.0
    n = c.sum()
    return c, n, (n if paired.all() else (c * paired).sum())


def _linearised_variance(c: np.ndarray, deviation: np.ndarray, n: float) -> float:
    """Gwet's linearised variance sum_i c_i deviation_i^2 / (n(n - 1)); nan for n <= 1.
    `deviation` is squared in place (the callers pass a temporary)."""
    if n <= 1:
        return np.nan
    return float(_dot(c, np.square(deviation, out=deviation)) / (n * (n - 1)))


def _chance(method: str, pi: np.ndarray, w: np.ndarray) -> np.ndarray:
    """Chance agreement p_e of classification probabilities `pi` (..., k)."""
    k = w.shape[0]
    if method == "fleiss":
        return np.einsum("...k,kl,...l->...", pi, w, pi)
    if method == "gwet":
        if k < 2:
            return np.full(pi.shape[:-1], np.nan)
        return w.sum() / (k * (k - 1)) * (pi * (1 - pi)).sum(axis=-1)
    if method == "brennan_prediger":
        return np.full(pi.shape[:-1], w.sum() / k**2)
    return np.zeros(pi.shape[:-1])


def _expected_disagreement(method: str, pi: np.ndarray, w: np.ndarray,
                           others: np.ndarray | None = None) -> np.ndarray:
    """1 - p_e; for Fleiss as the sum of non-negative terms sum_kl (1 - w_kl) pi_k pi_l,
    accurate when p_e is within rounding of 1. `others`: ``_others(pi)`` when the caller
    has it (the weights are then the identity)."""
    if method == "fleiss":
        if others is not None or _is_identity(w):
            others = _others(pi) if others is None else others
            return (pi * others).sum(axis=-1)  # O(k), same non-negative terms
        return np.einsum("...k,kl,...l->...", pi, 1.0 - w, pi)
    return 1.0 - _chance(method, pi, w)


def _defined(method: str, de: np.ndarray) -> np.ndarray:
    """Where the coefficient is defined: d_e > 0 (a sum of non-negative terms, so exact
    zero means no variation) for Fleiss and Conger; beyond rounding of 0 otherwise."""
    return de > 0 if method in ("fleiss", "conger") else de > _TINY


def _ratio(do: np.ndarray, de: np.ndarray, method: str) -> np.ndarray:
    """kappa = 1 - d_o / d_e, nan where undefined."""
    with np.errstate(invalid="ignore", divide="ignore"):
        return np.where(_defined(method, de), 1.0 - do / de, np.nan)


def _row_sums(e: CountEntries, values: np.ndarray) -> np.ndarray:
    """Sums over each row's nonzero cells of `values` (one per cell): shape (P,)."""
    return np.bincount(e.row, weights=values, minlength=e.n_patterns)


def _category_shares(e: CountEntries | RaterCodes, share: np.ndarray,
                     c: np.ndarray) -> np.ndarray:
    """``sum_i c_i r_ik / r_i`` for each category k, shape (k,) (`share` from
    :func:`_subject_parts`)."""
    if isinstance(e, RaterCodes):
        return e.by_category(c / share)
    return np.bincount(e.category, weights=c[e.row] * share, minlength=e.k)


def _share_sums(e: CountEntries | RaterCodes, share: np.ndarray,
                values: np.ndarray) -> np.ndarray:
    """``sum_k (r_ik / r_i) values_k`` for each row, shape (P,) (`share` from
    :func:`_subject_parts`)."""
    if isinstance(e, RaterCodes):
        total = e.at_codes(values)
        total /= share
        return total
    return _row_sums(e, share * values[e.category])


# -- coefficients on counts (Fleiss, Gwet, Brennan-Prediger, percent agreement) --------
def counts_kernel(
    patterns: np.ndarray | CountEntries, batch: np.ndarray, weights: np.ndarray, method: str
) -> np.ndarray:
    r"""A coefficient on subject x category counts, for a batch of samples.

    Parameters
    ----------
    patterns : ndarray of shape (P, k), or CountEntries
        Distinct subject x category count rows (dense, or their nonzero cells).
    batch : ndarray of shape (b, P) or (P,)
        How many subjects of each pattern each sample holds.
    weights : ndarray of shape (k, k)
        Agreement weights.
    method : {'fleiss', 'gwet', 'brennan_prediger', 'percent'}
        Chance agreement: Fleiss' :math:`\sum_{kl} w_{kl}\pi_k\pi_l`; Gwet's
        :math:`T_w/(q(q-1))\sum_k\pi_k(1-\pi_k)` (:math:`T_w` the sum of the weights);
        Brennan-Prediger's :math:`T_w/q^2`; none (percent agreement :math:`p_a`).

    Returns
    -------
    ndarray of shape (b,)
        nan where the coefficient is undefined (no subject with two ratings, or
        :math:`p_e = 1`).

    Examples
    --------
    >>> counts = np.array([[3, 0], [0, 3], [2, 1], [1, 2]])
    >>> counts_kernel(counts, np.ones((1, 4)), np.eye(2), "fleiss").round(4)
    array([0.3333])
    """
    batch = np.atleast_2d(np.asarray(batch, dtype=float))
    e = count_entries(patterns)
    _, rated, paired, agreement, share, disagreement = _subject_parts(e, weights)
    n = batch @ rated
    n2 = batch @ paired
    with np.errstate(invalid="ignore", divide="ignore"):
        pa = (batch @ agreement) / n2
        do = (batch @ disagreement) / n2
        # (b, P) x (P, k) through the sparse shares: O(b x cells)
        pi = np.asarray((e.matrix(share).T @ batch.T).T) / n[:, None]
    if method == "percent":
        return pa
    return _ratio(do, _expected_disagreement(method, pi, weights), method)


def counts_estimate(
    patterns: np.ndarray | CountEntries | RaterCodes, multiplicity: np.ndarray,
    weights: np.ndarray, method: str,
) -> CountsEstimate:
    r"""A coefficient on counts with Gwet's (2008, 2014) linearised variance.

    Per subject, with :math:`\kappa_i = \frac{n}{n'}\,
    \frac{p_{a|i} - p_e\,[r_i \ge 2]}{1 - p_e}` (:math:`p_{a|i}` the subject's pair
    agreement) and :math:`p_{e|i}` its share of chance agreement,

    .. math::

        \kappa^\star_i = \kappa_i - 2(1 - \kappa)\frac{p_{e|i} - p_e}{1 - p_e},\qquad
        \hat v = \frac{1}{n(n-1)}\sum_i (\kappa^\star_i - \kappa)^2,

    where :math:`p_{e|i} = \sum_k (r_{ik}/r_i)\,\bar\pi_k` with
    :math:`\bar\pi_k = \sum_l (w_{kl} + w_{lk})\pi_l / 2` for Fleiss;
    :math:`p_{e|i} = T_w/(q(q-1))\sum_k (r_{ik}/r_i)(1 - \pi_k)` for Gwet; :math:`p_e` for
    Brennan-Prediger (its chance agreement is fixed). For percent agreement
    :math:`\kappa^\star_i = \frac{n}{n'}p_{a|i}`.

    Parameters
    ----------
    patterns : ndarray of shape (P, k), CountEntries, or RaterCodes
        The count rows (dense or their nonzero cells), or, unweighted only, the rows of
        rater codes they count (:func:`rater_codes`).
    multiplicity : ndarray of shape (P,)
        Subjects per pattern (ones when `patterns` are the subjects themselves).
    weights : ndarray of shape (k, k)
    method : {'fleiss', 'gwet', 'brennan_prediger', 'percent'}

    Returns
    -------
    CountsEstimate

    Examples
    --------
    >>> counts = np.array([[3, 0], [0, 3], [2, 1], [1, 2]])
    >>> est = counts_estimate(counts, np.ones(4), np.eye(2), "fleiss")
    >>> round(est.estimate, 4), round(float(np.sqrt(est.variance)), 4)
    (0.3333, 0.3849)
    """
    e = count_entries(patterns)
    identity = _is_identity(weights)  # read once
    _, rated, paired, agreement, share, disagreement = _subject_parts(e, weights, identity)
    c, n, n2 = _rated_counts(multiplicity, rated, paired)
    if n2 == 0:
        return CountsEstimate(np.nan, np.nan, np.nan, np.nan, int(n), 0)
    pa = float(_dot(c, agreement) / n2)
    k = weights.shape[0]
    scale = n / n2
    if method == "percent":
        star = scale * agreement
        var = _linearised_variance(c, star - pa, n)
        return CountsEstimate(pa, pa, 0.0, var, int(n), int(n2), star,
                              _category_shares(e, share, c) / n)
    del agreement  # not read again: one array of P fewer held
    pi = _category_shares(e, share, c) / n
    # Fleiss' unweighted d_e and each subject's shift both read sum_{l != k} pi_l: once
    others = _others(pi) if method == "fleiss" and identity else None
    de = float(_expected_disagreement(method, pi, weights, others))
    pe = 1.0 - de
    if not np.isfinite(de) or not _defined(method, de):
        return CountsEstimate(np.nan, pa, pe, np.nan, int(n), int(n2), shares=pi)
    do = float(_dot(c, disagreement) / n2)
    kappa = 1.0 - do / de
    # (a_i - p_e [r_i >= 2]) / (1 - p_e) in disagreement form: [r_i >= 2] - dis_i / d_e,
    # in the disagreements' own array (not read again)
    kappa_i = disagreement
    kappa_i /= de
    # (every subject paired: True is 1.0, subtracted without casting the booleans)
    np.subtract(1.0 if n2 == n and paired.all() else paired, kappa_i, out=kappa_i)
    if scale != 1.0:  # (x * 1.0 is x)
        kappa_i *= scale
    if method == "fleiss":
        # p_e|i - p_e = d_e - sum_k share_ik dbar_k (the shares of a rated subject sum to 1)
        dbar = (others if others is not None
                else (_dot(1.0 - weights, pi) + _dot((1.0 - weights).T, pi)) / 2)
        pe_shift = _share_sums(e, share, dbar)
        np.subtract(de, pe_shift, out=pe_shift)
    elif method == "gwet":
        pe_shift = _share_sums(e, share, 1 - pi)
        pe_shift *= weights.sum() / (k * (k - 1))
        pe_shift -= pe
    else:
        pe_shift = np.zeros(len(c))
    # kappa*_i = kappa_i - 2 (1 - kappa) shift_i / d_e, in place (one P-vector at a time)
    pe_shift *= 2 * (1 - kappa)
    pe_shift /= de
    star = kappa_i
    star -= pe_shift
    del pe_shift
    var = _linearised_variance(c, star - kappa, n)
    return CountsEstimate(kappa, pa, pe, var, int(n), int(n2), star, pi)


def fleiss_category_kappas(
    patterns: np.ndarray | CountEntries, multiplicity: np.ndarray
) -> tuple[np.ndarray, np.ndarray]:
    r"""Fleiss' (1971) category-vs-rest kappas and their linearised variances, shape (k,).

    Category j against the rest is Fleiss' kappa of the two-column counts
    :math:`(r_{ij}, r_i - r_{ij})`; all k at once, in O(cells + P + k) (`patterns` dense or
    :class:`CountEntries`; the cells the nonzero counts): with :math:`p_j, q_j` the
    shares of j and of the rest, :math:`d_{e,j} = 2 p_j q_j`, per-subject disagreement
    :math:`2 r_{ij}(r_i - r_{ij}) / (r_i(r_i - 1))`, and Gwet's linearisation as in
    :func:`counts_estimate` (whose values it reproduces for each split). nan where a
    category's kappa is undefined.

    Examples
    --------
    >>> kappa, _ = fleiss_category_kappas(np.array([[3, 0], [0, 3], [2, 1], [1, 2]]), np.ones(4))
    >>> kappa.round(4)
    array([0.3333, 0.3333])
    """
    e = count_entries(patterns)
    k, r, row, x = e.k, e.r, e.row, e.count
    paired, rated = r >= 2, r >= 1
    c, n, n2 = _rated_counts(multiplicity, rated, paired)
    if n2 == 0:
        return np.full(k, np.nan), np.full(k, np.nan)

    def by_category(values: np.ndarray) -> np.ndarray:
        return np.bincount(e.category, weights=values, minlength=k)

    # the nonzero cells (x_ij > 0); a subject's other cells have no disagreement, share
    # 0 and rest share 1 (a rated subject), so they enter through sums over subjects
    rest = r[row] - x
    pairs = np.where(paired, r * (r - 1), 1.0)[row]
    disagreement = np.where(paired[row], 2 * x * rest / pairs, 0.0)
    safe_r = np.where(rated, r, 1.0)[row]
    share, share_rest = x / safe_r, rest / safe_r
    cw = c[row]
    having = by_category(cw)  # subjects in category j at least once, exact (integer c)
    p = by_category(cw * share) / n
    q = ((n - having) + by_category(cw * share_rest)) / n
    de = 2 * p * q  # = p q + q p, the two-category sum of non-negative terms
    with np.errstate(invalid="ignore", divide="ignore"):
        kappa = np.where(de > 0, 1.0 - (by_category(cw * disagreement) / n2) / de, np.nan)
        scale = n / n2
        j = e.category
        kappa_i = scale * (paired[row] - disagreement / de[j])
        pe_shift = de[j] - (share * q[j] + share_rest * p[j])
        star = kappa_i - 2 * (1 - kappa[j]) * pe_shift / de[j]
        squares = by_category(cw * (star - kappa[j]) ** 2)
        # a rated subject without category j: star = scale [paired] - 2 (1 - kappa)
        # (d_e - p) / d_e, the same for all such subjects with (or without) two ratings
        away = 2 * (1 - kappa) * (de - p) / de
        c_paired = _dot(c, paired.astype(float))
        with_two = c_paired - by_category(cw * paired[row])
        with_one = (n - c_paired) - by_category(cw * ~paired[row])
        squares += with_two * ((scale - away) - kappa) ** 2
        squares += with_one * ((0.0 - away) - kappa) ** 2
        variance = squares / (n * (n - 1)) if n > 1 else np.full(k, np.nan)
    return kappa, np.where(de > 0, variance, np.nan)


def fleiss_null_variance(
    patterns: np.ndarray | CountEntries | RaterCodes, multiplicity: np.ndarray,
    shares: np.ndarray | None = None, n_subjects: int | None = None,
) -> tuple[float, np.ndarray]:
    r"""Variance of Fleiss' kappa and of the per-category kappas under H0 (no agreement).

    Fleiss, Nee & Landis (1979), for n subjects each rated by the same number m of raters,
    with :math:`p_j` the overall share of category j and :math:`q_j = 1 - p_j`:

    .. math::

        \operatorname{Var}_0(\hat\kappa) = \frac{2}{n m (m-1)}\,
            \frac{(\sum_j p_j q_j)^2 - \sum_j p_j q_j (q_j - p_j)}{(\sum_j p_j q_j)^2},
        \qquad \operatorname{Var}_0(\hat\kappa_j) = \frac{2}{n m (m - 1)}.

    Valid for the z test only, never for an interval. Returns nans when the subjects'
    numbers of ratings differ (the formula assumes one m). `shares`, when given, are the
    category shares of the same patterns (:attr:`CountsEstimate.shares` of
    :func:`counts_estimate`): with every rated subject rated m times they are the
    :math:`p_j`, so the categories are not counted again. `n_subjects`, when given, is the
    sum of integer `multiplicity` (:attr:`CountsEstimate.n_subjects` of the same rows), so
    complete rows of codes do not sum it again.

    Examples
    --------
    >>> counts = np.array([[3, 0], [0, 3], [2, 1], [1, 2]])
    >>> var0, _ = fleiss_null_variance(counts, np.ones(4))
    >>> est = counts_estimate(counts, np.ones(4), np.eye(2), "fleiss")
    >>> round(var0, 6), round(fleiss_null_variance(counts, np.ones(4), est.shares)[0], 6)
    (0.083333, 0.083333)
    """
    e = count_entries(patterns)
    k = e.k
    if isinstance(e, RaterCodes) and e.complete:  # every row rated m times: no copies of P
        mult = np.asarray(multiplicity)
        if n_subjects is not None and mult.dtype.kind in "iu":
            n = float(n_subjects)  # non-negative counts: some is positive when n > 0
            if not n > 0 or len(e.columns) < 2:
                return np.nan, np.full(k, np.nan)
        elif not (mult > 0).any() or len(e.columns) < 2:
            return np.nan, np.full(k, np.nan)
        else:  # the subjects: integer counts summed exactly (the zeros add nothing)
            n = float(mult.sum()) if mult.dtype.kind in "iu" else mult[mult > 0].sum()
        m, keep = float(len(e.columns)), None
    else:
        c = np.asarray(multiplicity, dtype=float)
        r = e.r
        keep = (c > 0) & (r >= 1)
        kept = r[keep]
        if not kept.size or kept.min() != kept.max() or kept[0] < 2:
            return np.nan, np.full(k, np.nan)
        m = float(kept[0])
        n = c[keep].sum()
    if shares is not None:  # sum_i c_i r_ij = m sum_i c_i r_ij / r_i = m n pi_j
        p = np.asarray(shares, dtype=float)
        q = _others(p)  # 1 - p_j as the other shares' sum: no cancellation near p_j = 1
        return _null_variances(p, q, n, m)
    if keep is None:  # complete rows of codes: every subject counted
        category_totals = e.by_category(multiplicity)
    elif isinstance(e, RaterCodes):
        category_totals = e.by_category(np.where(keep, c, 0.0))
    else:
        category_totals = np.bincount(e.category, minlength=k,
                                      weights=np.where(keep, c, 0.0)[e.row] * e.count)
    p = category_totals / (n * m)
    # q_j = 1 - p_j from the other categories' counts: no cancellation when p_j is near 1
    q = (category_totals.sum() - category_totals) / (n * m)
    return _null_variances(p, q, n, m)


def _null_variances(p: np.ndarray, q: np.ndarray, n: float, m: float
                    ) -> tuple[float, np.ndarray]:
    """Fleiss, Nee & Landis' (1979) null variances of the shares `p` (and 1 - p, `q`) of n
    subjects rated m times each (:func:`fleiss_null_variance`)."""
    k = len(p)
    pq = p * q
    base = 2 / (n * m * (m - 1))
    total = pq.sum()
    with np.errstate(invalid="ignore", divide="ignore"):
        var0 = base * (total**2 - (pq * (q - p)).sum()) / total**2
    return (float(max(var0, 0.0)) if total > 0 else np.nan), np.full(k, base)


# -- ratings by rater, one entry per rating ---------------------------------------------
#: Most rater-pair co-ratings (pairs of ratings of one pattern) Light's kappa and the
#: pairwise kappas enumerate, and most floats a batch block of per-rater or per-pair
#: margins may hold.
MAX_PAIR_RATINGS = 1 << 26
_BLOCK_FLOATS = 1 << 24


class CodeEntries(NamedTuple):
    """Rater codes of P patterns as one entry per rating (missing ratings absent).

    ``row``, ``rater``, ``code``: int64 arrays, ordered by row then rater; memory is
    proportional to the ratings, however many raters there are.
    """

    row: np.ndarray
    rater: np.ndarray
    code: np.ndarray
    n_patterns: int
    n_raters: int


def code_entries(codes: np.ndarray | CodeEntries) -> CodeEntries:
    """Dense rows of rater codes (P, m), ``-1`` = missing, as :class:`CodeEntries`.

    Examples
    --------
    >>> code_entries(np.array([[0, -1], [1, 1]])).code.tolist()
    [0, 1, 1]
    """
    if isinstance(codes, CodeEntries):
        return codes
    codes = np.asarray(codes)
    row, rater = np.nonzero(codes >= 0)
    return CodeEntries(row.astype(np.int64), rater.astype(np.int64),
                       codes[row, rater].astype(np.int64), codes.shape[0], codes.shape[1])


def _entry_counts(e: CodeEntries, k: int) -> CountEntries:
    """Subject x category count rows (P, k) of the entries, as their nonzero cells."""
    cell, count = np.unique(e.row * k + e.code, return_counts=True)
    row = cell // k
    r = np.bincount(e.row, minlength=e.n_patterns).astype(float)
    return CountEntries(row, cell % k, count.astype(float), r, k)


def _blocks(b: int, width: int):
    """Row slices of a batch of b samples, each holding at most _BLOCK_FLOATS / width."""
    step = max(1, _BLOCK_FLOATS // max(width, 1))
    return [slice(i, min(i + step, b)) for i in range(0, b, step)]


# -- Conger's kappa (rater-specific margins) -------------------------------------------
def _conger_chance(p: np.ndarray, w: np.ndarray) -> np.ndarray:
    """Mean over ordered rater pairs g != h of p_g' W p_h; p has shape (..., m, k)."""
    m = p.shape[-2]
    total = p.sum(axis=-2)
    both = np.einsum("...k,kl,...l->...", total, w, total)
    same = np.einsum("...gk,kl,...gl->...", p, w, p)
    return (both - same) / (m * (m - 1))


def conger_kernel(
    codes: np.ndarray | CodeEntries, batch: np.ndarray, weights: np.ndarray
) -> np.ndarray:
    r"""Conger's (1980) kappa for a batch of samples of code patterns.

    Parameters
    ----------
    codes : ndarray of shape (P, m), or CodeEntries
        Distinct subject rows of rater codes (``-1`` = missing), dense or one entry per
        rating (:func:`code_entries`; memory proportional to the ratings).
    batch : ndarray of shape (b, P) or (P,)
        Subjects of each pattern per sample.
    weights : ndarray of shape (k, k)

    Returns
    -------
    ndarray of shape (b,)

    Notes
    -----
    :math:`p_a` is that of :func:`counts_kernel`; chance agreement averages Cohen's over
    the :math:`m(m-1)` ordered rater pairs,
    :math:`p_e = \frac{1}{m(m-1)}\sum_{g \ne h}\sum_{kl} w_{kl} p_{gk} p_{hl}`, with
    :math:`p_{gk}` the share of rater g's ratings in category k (over the subjects g
    rated).

    Examples
    --------
    >>> codes = np.array([[0, 0, 1], [1, 1, 1], [0, 1, 0], [1, 1, -1]])
    >>> conger_kernel(codes, np.ones((1, 4)), np.eye(2)).round(4)
    array([0.2941])
    """
    from scipy import sparse

    batch = np.atleast_2d(np.asarray(batch, dtype=float))
    k = weights.shape[0]
    e = code_entries(codes)
    m = e.n_raters
    _, _, paired, _, _, disagreement = _subject_parts(_entry_counts(e, k), weights)
    hot = sparse.csr_matrix((np.ones(len(e.row)), (e.row, e.rater * k + e.code)),
                            shape=(e.n_patterns, m * k))
    out = np.empty(batch.shape[0])
    for rows in _blocks(batch.shape[0], m * k):
        part = batch[rows]
        with np.errstate(invalid="ignore", divide="ignore"):
            do = (part @ disagreement) / (part @ paired)
            per_rater = np.asarray((hot.T @ part.T).T).reshape(-1, m, k)
            p = per_rater / per_rater.sum(axis=-1, keepdims=True)
            # 1 - p_e as a sum of non-negative terms (each rater's shares sum to 1)
            de = _conger_chance(p, 1.0 - weights)
        out[rows] = _ratio(do, de, "conger")
    return out


def conger_estimate(
    codes: np.ndarray | CodeEntries | None, multiplicity: np.ndarray, weights: np.ndarray,
    counts: CountEntries | RaterCodes | None = None,
) -> CountsEstimate:
    r"""Conger's kappa with its linearised variance.

    The influence of subject i on chance agreement is, with
    :math:`u_{ig} = \frac{n}{n_g}[\text{g rated i}](\delta_{ig} - p_g)` (:math:`\delta_{ig}`
    the indicator vector of g's rating, :math:`n_g` the subjects g rated),
    :math:`e_i = \frac{1}{m(m-1)}\sum_{g\ne h}(u_{ig}^\top W p_h + p_g^\top W u_{ih})`, and

    .. math::

        \kappa^\star_i = \kappa_i - (1-\kappa)\frac{e_i}{1 - p_e},\qquad
        \hat v = \frac{1}{n(n-1)}\sum_i(\kappa^\star_i - \kappa)^2

    with :math:`\kappa_i` as in :func:`counts_estimate` (Gwet 2014's linearisation).
    `codes` are dense rows (P, m) or :class:`CodeEntries`; the influences are sums over
    the ratings given, so memory is proportional to the ratings. `counts`, when given, are
    the subject x category counts of the same patterns (:class:`CountEntries`), so they
    are not counted again from the codes; or, unweighted, the patterns' :class:`RaterCodes`,
    which then serve for every sum over the ratings (`codes` is not read).
    """
    k = weights.shape[0]
    dense = counts if isinstance(counts, RaterCodes) else None
    e = None if dense is not None else code_entries(codes)
    m = len(dense.columns) if dense is not None else e.n_raters
    counts = _entry_counts(e, k) if counts is None else counts
    _, rated, paired, agreement, _, disagreement = _subject_parts(counts, weights)
    c, n, n2 = _rated_counts(multiplicity, rated, paired)
    if n2 == 0:
        return CountsEstimate(np.nan, np.nan, np.nan, np.nan, int(n), 0)
    pa = float(_dot(c, agreement) / n2)
    del agreement  # not read again: one array of P fewer held
    if dense is not None:  # one bincount per rater
        per_rater = dense.by_rater(c)
    else:
        per_rater = np.bincount(e.rater * k + e.code, weights=c[e.row],
                                minlength=m * k).reshape(m, k)
    n_g = per_rater.sum(axis=1)
    with np.errstate(invalid="ignore", divide="ignore"):
        p = per_rater / n_g[:, None]
    if not (n_g > 0).all():
        return CountsEstimate(np.nan, pa, np.nan, np.nan, int(n), int(n2))
    dis_w = 1.0 - weights
    de = float(_conger_chance(p, dis_w))
    pe = 1.0 - de
    if not de > 0:
        return CountsEstimate(np.nan, pa, pe, np.nan, int(n), int(n2))
    kappa = 1.0 - float(_dot(c, disagreement) / n2) / de
    scale = n / n2
    kappa_i = disagreement  # in the disagreements' own array (not read again)
    kappa_i /= de
    np.subtract(paired, kappa_i, out=kappa_i)
    kappa_i *= scale
    # The influence on p_e through W equals minus that through 1 - W (each u_ig sums to
    # 0 over categories); the latter has no cancellation when p_e is near 1. With
    # v_g = D' P + D P - D p_g - D' p_g (P the sum of the raters' p, D = 1 - W) rater g's
    # term of e_i is u_ig' v_g = (n / n_g) (v_g[code] - p_g' v_g).
    total_p = p.sum(axis=0)
    v = (dis_w @ total_p + dis_w.T @ total_p)[None, :] - p @ dis_w.T - p @ dis_w  # (m, k)
    if dense is not None:  # the terms of each (rater, code) once, read at each rating
        terms = (n / n_g)[:, None] * (v - (p * v).sum(axis=1)[:, None])
        influence = dense.at_rater_codes(terms)
    else:
        term = (n / n_g[e.rater]) * (v[e.rater, e.code] - (p * v).sum(axis=1)[e.rater])
        influence = np.bincount(e.row, weights=term, minlength=e.n_patterns)
    # star = kappa_i - (1 - kappa) (-influence / (m (m - 1))) / d_e, operation by operation
    # in place (the same rounding as on new arrays)
    np.negative(influence, out=influence)
    influence /= m * (m - 1)
    influence *= 1 - kappa
    influence /= de
    star = kappa_i
    star -= influence
    del influence
    var = _linearised_variance(c, star - kappa, n)
    return CountsEstimate(kappa, pa, pe, var, int(n), int(n2))


# -- pairwise Cohen's kappas and Light's kappa -----------------------------------------
class PairCells(NamedTuple):
    """The rater pairs that rate a pattern together and their table cells.

    ``first``, ``second``: the raters of each pair sharing a subject (g < h), shape (Q,);
    ``pattern``, ``cell``: per co-rating (two ratings of one pattern, by rater g then h)
    its pattern and its cell ``(q * k + a) * k + b`` in the pairs' stacked k x k tables,
    as an index into ``cells`` (the distinct cells, shape (U,)).
    """

    first: np.ndarray
    second: np.ndarray
    pattern: np.ndarray
    cell: np.ndarray
    cells: np.ndarray
    k: int

    @property
    def n_pairs(self) -> int:
        return len(self.first)


def pair_cells(codes: np.ndarray | CodeEntries, k: int) -> PairCells:
    """Every pair of ratings of one pattern, grouped by rater pair and table cell.

    Only the rater pairs that share a subject appear; the work and memory are those of
    the co-ratings (``sum_p r_p (r_p - 1) / 2`` for r_p ratings in pattern p), at most
    :data:`MAX_PAIR_RATINGS` (else a ValueError).

    Examples
    --------
    >>> pc = pair_cells(np.array([[0, 1, -1], [1, 1, 0]]), 2)
    >>> pc.first.tolist(), pc.second.tolist(), pc.n_pairs
    ([0, 0, 1], [1, 2, 2], 3)
    """
    e = code_entries(codes)
    sizes = np.bincount(e.row, minlength=e.n_patterns)
    start = np.concatenate([[0], np.cumsum(sizes)[:-1]]).astype(np.int64)
    position = np.arange(len(e.row)) - start[e.row]
    later = sizes[e.row] - position - 1  # partners after each rating in its pattern
    total = int(later.sum())
    if total > MAX_PAIR_RATINGS:
        raise ValueError(
            f"The pairwise tables need {total} pairs of ratings of one subject (at most "
            f"{MAX_PAIR_RATINGS}): {e.n_raters} raters with up to {int(sizes.max())} "
            "ratings per subject. Use a coefficient on counts (fleiss_kappa, gwet_ac, "
            "krippendorff_alpha) or Conger's kappa, which grow with the ratings."
        )
    first = np.repeat(np.arange(len(e.row)), later)
    offset = np.arange(total) - np.repeat(np.cumsum(later) - later, later) + 1
    second = first + offset
    m = e.n_raters
    pair_key, pair = np.unique(e.rater[first] * m + e.rater[second], return_inverse=True)
    key = (pair.reshape(-1) * k + e.code[first]) * k + e.code[second]
    cells, cell = np.unique(key, return_inverse=True)
    return PairCells(pair_key // m, pair_key % m, e.row[first], cell.reshape(-1), cells, k)


def _pair_parts(
    pc: PairCells, cell_counts: np.ndarray, weights: np.ndarray
) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """Per pair: subjects, p_o, p_e, kappa, and the (b, Q, k) row and column shares.

    As :func:`irr.coefficients.kappa.kappa_parts` on each pair's table: kappa is
    ``1 - d_o / d_e`` with the disagreements sums of non-negative terms, nan where
    ``d_e == 0`` (or the pair has no subject in the sample).
    """
    k, q_count = pc.k, pc.n_pairs
    q, a, b = pc.cells // (k * k), pc.cells // k % k, pc.cells % k
    dis = 1.0 - weights
    n_q = _group_sum(cell_counts, q, q_count)
    with np.errstate(invalid="ignore", divide="ignore"):
        share = cell_counts / n_q[:, q]
        observed_dis = _group_sum(share * dis[a, b], q, q_count)
        # (b, Q, k) with b explicit: Q is 0 when no two raters share a subject
        row = _group_sum(share, q * k + a, q_count * k).reshape(len(share), q_count, k)
        col = _group_sum(share, q * k + b, q_count * k).reshape(len(share), q_count, k)
        expected_dis = np.einsum("bqi,ij,bqj->bq", row, dis, col)
        kappa = np.where(expected_dis > 0, 1.0 - observed_dis / expected_dis, np.nan)
    return n_q, 1.0 - observed_dis, 1.0 - expected_dis, kappa, (row, col)


def _group_sum(values: np.ndarray, group: np.ndarray, size: int) -> np.ndarray:
    """Sums of the columns of `values` (b, U) by `group` (U,): shape (b, size)."""
    from scipy import sparse

    summing = sparse.csr_matrix((np.ones(len(group)), (np.arange(len(group)), group)),
                                shape=(len(group), size))
    return np.asarray((summing.T @ values.T).T).reshape(values.shape[0], size)


def _cell_counts(pc: PairCells, batch: np.ndarray) -> np.ndarray:
    """Counts (b, U) in each pair's table cells of resampled pattern counts (b, P)."""
    from scipy import sparse

    n_patterns = batch.shape[1]
    hot = sparse.csr_matrix((np.ones(len(pc.cell)), (pc.pattern, pc.cell)),
                            shape=(n_patterns, len(pc.cells)))
    return np.asarray((hot.T @ batch.T).T)


#: Co-ratings from which a complete design (every rater rates every pattern) takes the
#: dense path of :func:`_dense_pair_parts`: O(P m^2) BLAS work and O(m^2 + m k) memory per
#: sample instead of one entry per co-rating.
DENSE_PAIR_RATINGS = 1 << 12


def _dense_design(e: CodeEntries) -> np.ndarray | None:
    """The (P, m) codes when every rater rated every pattern and the co-ratings reach
    :data:`DENSE_PAIR_RATINGS`; else None (the co-rating path)."""
    m, size = e.n_raters, e.n_patterns
    if len(e.row) != size * m or size * m * (m - 1) // 2 < DENSE_PAIR_RATINGS:
        return None
    return e.code.reshape(size, m)


def _dense_pair_parts(
    codes: np.ndarray, batch: np.ndarray, weights: np.ndarray
) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """:func:`_pair_parts` of a complete design as (b, m, m) matrices: n, p_o, p_e, kappa
    and the (b, m, k) rater margins, from a sparse one-hot product (the margins) and the
    patterns' pair disagreements in blocks (no P x m x k array), instead of co-ratings.
    p_o and kappa hold the pairs g < h above the diagonal; on and below it, p_o is 1
    and kappa is not a pair's kappa (callers read the upper triangle).

    Every pair shares every pattern, so a pair's row and column shares are its two
    raters' own margins; the disagreements stay sums of non-negative terms.
    """
    m = codes.shape[1]
    k = weights.shape[0]
    dis = 1.0 - weights
    n = batch.sum(axis=1)
    with np.errstate(invalid="ignore", divide="ignore"):
        share = batch / n[:, None]
        margins = np.asarray((_one_hot(codes, k).T @ share.T).T).reshape(-1, m, k)
        # d_o[g, h] = sum_p share_p dis[x_pg, x_ph] for g < h, from the patterns' pair
        # disagreements; 0 on and below the diagonal
        upper = np.zeros((batch.shape[0], m * (m - 1) // 2))
        product = _dot if batch.shape[0] == 1 else np.matmul
        for rows, pair_dis in _pair_values(codes, dis):
            upper += product(share[:, rows], pair_dis)
        observed_dis = np.zeros((batch.shape[0], m, m))
        g, h = np.triu_indices(m, 1)
        observed_dis[:, g, h] = upper
        expected_dis = np.einsum("bgi,ij,bhj->bgh", margins, dis, margins, optimize=True)
        kappa = np.where(expected_dis > 0, 1.0 - observed_dis / expected_dis, np.nan)
    return n, 1.0 - observed_dis, 1.0 - expected_dis, kappa, margins


def _pair_values(codes: np.ndarray, table: np.ndarray):
    """``table[x_pg, x_ph]`` of every pattern's rater pairs g < h (``np.triu_indices``
    order), shape (rows, m(m - 1)/2), in blocks of patterns of at most _BLOCK_FLOATS / 8
    values (no k axis)."""
    size, m = codes.shape
    g, h = np.triu_indices(m, 1)
    flat = table.reshape(-1)
    step = max(1, (_BLOCK_FLOATS // 8) // max(len(g), 1))
    for start in range(0, size, step):
        block = codes[start:start + step]
        yield slice(start, start + len(block)), flat[block[:, g] * table.shape[1] + block[:, h]]


def _one_hot(codes: np.ndarray, k: int):
    """The sparse (P, m k) indicator of rater g's code in column g k + code."""
    from scipy import sparse

    size, m = codes.shape
    columns = (np.arange(m) * k)[None, :] + codes
    return sparse.csr_matrix((np.ones(size * m), columns.reshape(-1),
                              np.arange(0, size * m + 1, m)), shape=(size, m * k))


def _dense_light_variance(
    codes: np.ndarray, c: np.ndarray, weights: np.ndarray, po: np.ndarray, pe: np.ndarray,
    kappa: np.ndarray, margins: np.ndarray,
) -> float:
    """:func:`light_estimate`'s variance of a complete design from (m, m) pair matrices.

    The sum over pairs g < h of each subject's influence splits into matrix products:
    with :math:`D_{gh} = 1/(1 - p_e)` and :math:`E_{gh} = (1 - \\kappa) D_{gh}` on the
    upper triangle (0 elsewhere), :math:`Q \\psi_p = \\sum D_{gh} w_{x_g x_h}
    - \\sum D p_o - \\sum_g (E R)_{g, x_g} - \\sum_h (E^\\top L)_{h, x_h}
    + 2 \\sum E p_e`, R and L the margins times W and its transpose.
    """
    size, m = codes.shape
    n = c.sum()
    upper = np.triu(np.ones((m, m), dtype=bool), 1)
    d = np.where(upper, 1.0 / (1.0 - pe), 0.0)
    e = np.where(upper, (1.0 - kappa) * d, 0.0)
    # sum_{g<h} D_gh w[x_pg, x_ph], from the patterns' pair weights (no k axis)
    agree = np.empty(size)
    for rows, pair_w in _pair_values(codes, weights):
        agree[rows] = _dot(pair_w, d[np.triu_indices(m, 1)])
    rows = np.arange(m)[None, :]
    chance = ((e @ (margins @ weights.T))[rows, codes]
              + (e.T @ (margins @ weights))[rows, codes]).sum(axis=1)
    psi = agree - (d * po).sum() - chance + 2 * (e * pe).sum()
    psi /= m * (m - 1) // 2
    return float(_dot(c, psi**2) / (n * (n - 1)))


def pairwise_kappas(
    codes: np.ndarray | CodeEntries, batch: np.ndarray, weights: np.ndarray
) -> np.ndarray:
    """Cohen's kappa of every rater pair: shape (b, m, m), ones on the diagonal.

    Each pair uses the subjects both raters rated (nan for a pair that shares none).

    Examples
    --------
    >>> codes = np.array([[0, 0, 1], [1, 1, 1], [0, 1, 0], [1, 1, 0]])
    >>> pairwise_kappas(codes, np.ones(4), np.eye(2))[0].round(2).tolist()
    [[1.0, 0.5, 0.0], [0.5, 1.0, -0.5], [0.0, -0.5, 1.0]]
    """
    e = code_entries(codes)
    batch = np.atleast_2d(np.asarray(batch, dtype=float))
    k, m = weights.shape[0], e.n_raters
    dense = _dense_design(e)
    if dense is not None:
        out = np.empty((batch.shape[0], m, m))
        for rows in _blocks(batch.shape[0], m * m * 3):
            kappa = _dense_pair_parts(dense, batch[rows], weights)[3]
            out[rows] = np.triu(kappa, 1) + np.swapaxes(np.triu(kappa, 1), 1, 2)
        out[:, np.arange(m), np.arange(m)] = 1.0
        return out
    pc = pair_cells(e, k)
    out = np.full((batch.shape[0], m, m), np.nan)
    out[:, np.arange(m), np.arange(m)] = 1.0
    for rows in _blocks(batch.shape[0], len(pc.cells) + 2 * pc.n_pairs * k):
        kappa = _pair_parts(pc, _cell_counts(pc, batch[rows]), weights)[3]
        out[rows, pc.first, pc.second] = kappa
        out[rows, pc.second, pc.first] = kappa
    return out


def pairwise_counts(
    codes: np.ndarray, multiplicity: np.ndarray, weights: np.ndarray, method: str
) -> np.ndarray:
    """A coefficient on counts (`method`, as :func:`counts_kernel`) of every rater pair:
    shape (m, m), ones on the diagonal.

    Each pair uses the patterns both raters rated; its count rows hold two ratings, so a
    pattern's pair disagreement is ``(D_aa + D_ab + D_ba + D_bb) / 2`` for codes a, b and
    D = 1 - W, and each rating has share 1/2. All pairs at once, in blocks of pairs
    (O(P) memory per pair, no (P, k) rows).

    Examples
    --------
    >>> codes = np.array([[0, 0, 1], [1, 1, 1], [0, 1, 0], [1, 1, 0]])
    >>> pairwise_counts(codes, np.ones(4), np.eye(2), "percent").tolist()
    [[1.0, 0.75, 0.5], [0.75, 1.0, 0.25], [0.5, 0.25, 1.0]]
    """
    codes = np.asarray(codes)
    size, m = codes.shape
    k = weights.shape[0]
    c = np.asarray(multiplicity, dtype=float)
    dis = 1.0 - weights
    identity = _is_identity(weights)
    out = np.ones((m, m))
    first, second = np.triu_indices(m, 1)
    step = max(1, (_BLOCK_FLOATS // 64) // max(size, 1))
    for start in range(0, len(first), step):  # blocks of rater pairs
        g, h = first[start:start + step], second[start:start + step]
        a, b = codes[:, g].T, codes[:, h].T  # (pairs, P)
        weight = np.where((a >= 0) & (b >= 0), c, 0.0)  # the patterns both rated
        a, b = np.maximum(a, 0), np.maximum(b, 0)
        if identity:  # r^2 - sum_k x_k^2 = 2 [a != b], over r (r - 1) = 2
            disagreement = (a != b).astype(float)
        else:
            disagreement = (dis[a, a] + dis[a, b] + dis[b, a] + dis[b, b]) / 2
        q = len(g)
        cell = np.arange(q)[:, None] * k
        half = (0.5 * weight).reshape(-1)
        shares = (np.bincount((cell + a).reshape(-1), weights=half, minlength=q * k)
                  + np.bincount((cell + b).reshape(-1), weights=half, minlength=q * k))
        n = weight.sum(axis=1)
        with np.errstate(invalid="ignore", divide="ignore"):
            pa = (weight * (1.0 - disagreement)).sum(axis=1) / n
            if method == "percent":
                value = pa
            else:
                pi = shares.reshape(q, k) / n[:, None]
                do = (weight * disagreement).sum(axis=1) / n
                value = _ratio(do, _expected_disagreement(method, pi, weights), method)
        out[g, h] = out[h, g] = value
    return out


def light_kernel(
    codes: np.ndarray | CodeEntries, batch: np.ndarray, weights: np.ndarray
) -> np.ndarray:
    r"""Light's (1971) kappa, the mean of the pairwise Cohen's kappas: shape (b,).

    .. math:: \kappa_L = \binom{m}{2}^{-1}\sum_{g<h}\kappa_{gh}

    nan when a pair of raters shares no subject of the sample. The work grows with the
    pairs of ratings of one subject (:func:`pair_cells`), not with the m(m-1)/2 pairs or
    the k x k cells.

    Examples
    --------
    >>> codes = np.array([[0, 0, 1], [1, 1, 1], [0, 1, 0], [1, 1, 0]])
    >>> light_kernel(codes, np.ones((1, 4)), np.eye(2)).round(4)
    array([0.])
    """
    e = code_entries(codes)
    batch = np.atleast_2d(np.asarray(batch, dtype=float))
    k, m = weights.shape[0], e.n_raters
    dense = _dense_design(e)
    if dense is not None:
        out = np.empty(batch.shape[0])
        upper = np.triu_indices(m, 1)
        for rows in _blocks(batch.shape[0], m * m * 3):
            out[rows] = _dense_pair_parts(dense, batch[rows], weights)[3][:, upper[0], upper[1]].mean(axis=1)
        return out
    pc = pair_cells(e, k)
    out = np.full(batch.shape[0], np.nan)
    if pc.n_pairs < m * (m - 1) // 2:
        return out
    for rows in _blocks(batch.shape[0], len(pc.cells) + 2 * pc.n_pairs * k):
        kappa = _pair_parts(pc, _cell_counts(pc, batch[rows]), weights)[3]
        out[rows] = kappa.mean(axis=1)
    return out


def light_estimate(
    codes: np.ndarray | CodeEntries, multiplicity: np.ndarray, weights: np.ndarray
) -> CountsEstimate:
    r"""Light's kappa with a linearised (delta-method) variance.

    Each pairwise Cohen's kappa is a smooth function of subject means, so its influence on
    subject i (among the :math:`n_{gh}` subjects both raters rated) is

    .. math::

        \phi^{gh}_i = \frac{(a_i - p_o) - (1-\kappa_{gh})
            (\delta_{ig}^\top W p_h + p_g^\top W \delta_{ih} - 2 p_e)}{1 - p_e},

    scaled by :math:`n/n_{gh}`; Light's influence is their mean over pairs and
    :math:`\hat v = \sum_i \psi_i^2 / (n(n-1))`, n the subjects with two or more ratings.
    For two raters without missing ratings this is the Fleiss-Cohen-Everitt variance
    times n/(n-1). All nan when a pair of raters shares no subject.
    """
    e = code_entries(codes)
    c = np.asarray(multiplicity, dtype=float)
    k, m = weights.shape[0], e.n_raters
    keep = np.bincount(e.row, minlength=e.n_patterns) >= 2
    c = np.where(keep, c, 0.0)
    n = c.sum()
    if n == 0:
        return CountsEstimate(np.nan, np.nan, np.nan, np.nan, 0, 0)
    dense = _dense_design(e)
    if dense is not None:
        _, po, pe, kappa, margins = (part[0] for part in _dense_pair_parts(dense, c[None],
                                                                          weights))
        upper = np.triu_indices(m, 1)
        estimate = float(np.mean(kappa[upper]))
        var = np.nan
        if n > 1 and np.isfinite(estimate):
            var = _dense_light_variance(dense, c, weights, po, pe, kappa, margins)
        return CountsEstimate(estimate, float(np.mean(po[upper])), float(np.mean(pe[upper])),
                              var, int(n), int(n))
    pc = pair_cells(e, k)
    if pc.n_pairs < m * (m - 1) // 2:
        return CountsEstimate(np.nan, np.nan, np.nan, np.nan, int(n), int(n))
    n_q, po, pe, kappa, (row, col) = _pair_parts(pc, _cell_counts(pc, c[None]), weights)
    n_q, po, pe, kappa, row, col = n_q[0], po[0], pe[0], kappa[0], row[0], col[0]
    estimate = float(np.mean(kappa))
    var = np.nan
    if n > 1 and np.isfinite(estimate):
        # per co-rating (pattern p, pair q, codes a and b): n / n_q * phi
        q = pc.cells[pc.cell] // (k * k)
        a, b = pc.cells[pc.cell] // k % k, pc.cells[pc.cell] % k
        # delta_a' W p_h + p_g' W delta_b: entries of the (Q, k) products, not (co-ratings, k)
        chance = (col @ weights.T)[q, a] + (row @ weights)[q, b]
        phi = ((weights[a, b] - po[q]) - (1 - kappa[q]) * (chance - 2 * pe[q])) / (1 - pe[q])
        psi = np.bincount(pc.pattern, weights=n / n_q[q] * phi, minlength=e.n_patterns)
        psi /= pc.n_pairs
        var = float(_dot(c, psi**2) / (n * (n - 1)))
    return CountsEstimate(estimate, float(np.mean(po)), float(np.mean(pe)), var, int(n), int(n))
