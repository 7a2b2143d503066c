"""Sufficient statistics: how many subjects share each rating pattern, exactly and additively.

Every coefficient in :mod:`irr` depends on the subjects only through how many of them
share each *pattern*: the row of rater codes of a subject (``-1`` for a missing rating),
or, when the data do not say which rater gave which rating, the subject's row of
category counts. :class:`Statistics` holds these distinct patterns with their integer
multiplicities; every other summary a coefficient needs (the two-rater table, the
subject x category count patterns, the category scores of each rating) is a cached view
of them, and each view maps the fine patterns to its own coarser ones with a
:class:`Coarsening`, so that a bootstrap resample drawn over the fine patterns gives every
coefficient the same resampled subjects.

Statistics are additive: ``stats_a + stats_b`` equals the statistics of the concatenated
data exactly (integer counts), so data can be summarised part by part.
"""

from __future__ import annotations

import sys
from collections.abc import Sequence
from dataclasses import dataclass, replace
from functools import cached_property
from typing import Any

import numpy as np

from irr._data import CHUNK, MAX_CATEGORIES, Ratings, preview
from irr._lazy import lazy_module
from irr._measurements import Measurements
from irr._source import Source
from irr.weights import check_square

pd = lazy_module("pandas")  # imported on first use: data streamed by DuckDB never need it

__all__ = ["MAX_COUNT_CELLS", "Coarsening", "SparseCodes", "Statistics", "code_keys",
           "coded_by_rank", "count_keys", "row_words", "sparse_patterns", "subject_patterns",
           "value_source"]

#: Largest array of distinct subject x category count rows (P' x k cells, 200 MB of int64)
#: built for the coefficients on counts; beyond it they raise a ValueError.
MAX_COUNT_CELLS = 25_000_000

#: Largest pattern-key space counted with ``np.bincount`` (else keys are sorted).
_BINCOUNT_KEYS = 1 << 22

_BIG_ENDIAN = sys.byteorder == "big"


# -- pattern keys -----------------------------------------------------------------------
def code_keys(codes: Sequence[np.ndarray], n_categories: int) -> np.ndarray | None:
    """Each row of rater codes as one integer in base ``k + 1``, or None if it overflows.

    Keys sort like the rows (lexicographically, ``-1`` first), so the patterns of
    :meth:`Statistics.from_codes` are in that order. Horner's rule: m vectorised
    multiply-adds, in int32 when the key space allows.

    Examples
    --------
    >>> code_keys([np.array([0, 1, -1]), np.array([1, -1, 0])], 2).tolist()
    [5, 6, 1]
    """
    m, base = len(codes), n_categories + 1
    bits = m * np.log2(base)
    if bits >= 62:
        return None
    dtype = np.int32 if bits < 31 else np.int64
    key = codes[0].astype(dtype)
    key += 1
    for rater in codes[1:]:
        key *= base
        key += rater
        key += 1
    return key


def _rows_of_keys(keys: np.ndarray, m: int, n_categories: int) -> np.ndarray:
    place = (n_categories + 1) ** np.arange(m - 1, -1, -1, dtype=np.int64)
    return (keys.astype(np.int64)[:, None] // place[None, :]) % (n_categories + 1) - 1


def count_keys(
    keys: np.ndarray, space: int, weights: np.ndarray | None = None
) -> tuple[np.ndarray, np.ndarray]:
    """Distinct non-negative integer keys below `space` (sorted) and their (weighted) counts.

    ``np.bincount`` when the key space is small, else ``np.unique``. Keys whose weights
    sum to zero are left out.

    Examples
    --------
    >>> values, counts = count_keys(np.array([3, 1, 3]), 4)
    >>> values.tolist(), counts.tolist()
    ([1, 3], [1, 2])
    """
    if space <= max(_BINCOUNT_KEYS, 4 * len(keys)):
        counts = np.bincount(keys, weights=weights, minlength=space)
        values = np.flatnonzero(counts)
    else:
        values, inverse = np.unique(keys, return_inverse=True)
        counts = np.bincount(inverse.reshape(-1), weights=weights, minlength=len(values))
        values = values[counts > 0]
        counts = counts[counts > 0]
        return values, np.rint(counts).astype(np.int64)
    return values, np.rint(counts[values]).astype(np.int64)


def row_words(rows: np.ndarray) -> list[np.ndarray]:
    """Integer rows (n, m) packed into a few int64 words per row, most significant first.

    Each column is shifted to start at 0 and given the bits its range needs; consecutive
    columns share a word while their bits stay below 63. Comparing the words in order
    (lexicographically) compares the rows lexicographically, so the distinct rows and
    their order come from a sort of a few 1-D keys instead of ``np.unique(axis=0)``'s
    sort of structured rows.

    Examples
    --------
    >>> [w.tolist() for w in row_words(np.array([[0, 5], [1, -1]]))]
    [[6, 8]]
    """
    rows = np.asarray(rows)
    n, m = rows.shape
    if n == 0 or m == 0:
        return [np.zeros(n, dtype=np.int64)]
    low = rows.min(axis=0).astype(np.int64)
    span = rows.max(axis=0).astype(np.int64) - low  # (max - min) fits in 63 bits: int64 rows
    bits = [max(int(s).bit_length(), 1) for s in span]
    words, word, used = [], None, 0
    for j in range(m):  # a loop over the columns (raters), not the rows
        column = rows[:, j].astype(np.int64) - low[j]
        if word is None or used + bits[j] > 62:
            if word is not None:
                words.append(word)
            word, used = column, bits[j]
        else:
            word = (word << bits[j]) | column
            used += bits[j]
    words.append(word)
    return words


def _unique_rows(
    rows: np.ndarray, weights: np.ndarray | None = None
) -> tuple[np.ndarray, np.ndarray]:
    """Distinct integer rows (lexicographic order) and their (weighted) counts, zero counts
    left out.

    The rows are packed into a few int64 words (:func:`row_words`) and sorted by them; the
    result equals ``np.unique(rows, axis=0)`` with the counts of each row.

    Examples
    --------
    >>> patterns, counts = _unique_rows(np.array([[1, 2], [0, 9], [1, 2]]))
    >>> patterns.tolist(), counts.tolist()
    ([[0, 9], [1, 2]], [1, 2])
    """
    rows = np.asarray(rows)
    if len(rows) == 0:
        return rows.reshape(0, *rows.shape[1:]), np.zeros(0, dtype=np.int64)
    words = row_words(rows)
    order = np.argsort(words[0])
    new = np.empty(len(order), dtype=bool)
    new[0] = True
    first = words[0][order]
    np.not_equal(first[1:], first[:-1], out=new[1:])
    if len(words) > 1 and not new.all():  # ties in the leading word: sort by all of them
        order = np.lexsort(words[::-1])
        new[1:] = False
        for word in words:
            sorted_word = word[order]
            new[1:] |= sorted_word[1:] != sorted_word[:-1]
    starts = np.flatnonzero(new)
    group = np.cumsum(new) - 1
    inverse = np.empty(len(order), dtype=np.int64)
    inverse[order] = group
    counts = np.bincount(inverse, weights=weights, minlength=len(starts))
    patterns = rows[order[starts]]
    keep = counts > 0
    return patterns[keep], np.rint(counts[keep]).astype(np.int64)


def _code_patterns(
    codes: Sequence[np.ndarray], n_categories: int, weights: np.ndarray | None,
    complete: bool | None = None,
) -> tuple[np.ndarray, np.ndarray]:
    """Distinct rows of rater codes (P, m) and how many subjects have each. `complete`:
    whether no code is -1, when the caller knows (else read when it helps)."""
    m, n = len(codes), len(codes[0])
    if m * np.log2(n_categories + 1) >= 62:  # no key of a row fits an int64
        return _unique_rows(np.column_stack(codes).astype(np.int64), weights)
    space = (n_categories + 1) ** m
    if space <= max(_BINCOUNT_KEYS, 4 * n):
        values, multiplicity = count_keys(code_keys(codes, n_categories), space, weights)
        return _rows_of_keys(values, len(codes), n_categories), multiplicity
    bits = max(int(n_categories).bit_length(), 1)  # code + 1 in 0..k
    if weights is None and m <= 7 and n_categories <= 255:
        if complete is None:
            complete = n > 0 and all(int(c.min()) >= 0 for c in codes)
        return _sorted_distinct_byte_rows(codes, complete)
    if weights is None and m * bits <= 62:
        return _sorted_distinct_rows(codes, bits)
    # a key space too large to count: sort the keys, and take each distinct row from the
    # codes (a gather, not m divisions of the keys)
    order, ordered = _sorted_code_keys(codes, n_categories)
    new = np.empty(n, dtype=bool)
    new[:1] = True
    np.not_equal(ordered[1:], ordered[:-1], out=new[1:])
    del ordered  # each buffer let go once read: fewer arrays of n held at once
    starts = np.flatnonzero(new)
    del new
    if weights is None:  # the lengths of the runs of equal keys
        multiplicity = np.empty(len(starts), dtype=np.int64)
        np.subtract(starts[1:], starts[:-1], out=multiplicity[:-1])
        multiplicity[-1:] = n - starts[-1:]
    else:
        multiplicity = np.rint(np.add.reduceat(np.asarray(weights, dtype=float)[order],
                                               starts)).astype(np.int64)
    first = np.take(order, starts)  # (plain gathers, faster than indexing)
    del order, starts
    # one rater per row of the buffer: its transpose (the rows, in Fortran order) hands the
    # kernels that read whole raters (RaterCodes) contiguous columns without a copy
    columns = np.empty((m, len(first)), dtype=np.int64)
    for j, column in enumerate(codes):  # a loop over the raters
        columns[j] = np.take(column, first)
    rows = columns.T
    keep = multiplicity > 0
    if not keep.all():
        rows, multiplicity = rows[keep], multiplicity[keep]
    return rows, multiplicity


def _sorted_distinct_rows(
    codes: Sequence[np.ndarray], bits: int
) -> tuple[np.ndarray, np.ndarray]:
    """:func:`_code_patterns` of unweighted rows whose codes + 1 fit `bits` bits each and
    ``m * bits <= 62``: each row as one int64 key, code + 1 of rater j in bit field j (the
    first rater's most significant, so the keys sort like the rows), the keys sorted (no
    positions: no weights to follow) and each distinct row read back from its key (a
    shift and a mask per rater, no gather of the codes).

    Examples
    --------
    >>> rows, counts = _sorted_distinct_rows([np.array([1, -1, 1]), np.array([0, 2, 0])], 2)
    >>> rows.tolist(), counts.tolist()
    ([[-1, 2], [1, 0]], [1, 2])
    """
    m = len(codes)
    keys = codes[0].astype(np.int64)
    for column in codes[1:]:  # a loop over the raters (Horner's rule in base 2^bits)
        keys *= 1 << bits
        keys += column
    keys += sum(1 << (bits * j) for j in range(m))  # the + 1 of every code, added once
    keys.sort()
    distinct, multiplicity = _runs(keys)
    del keys  # each buffer let go once read: fewer arrays of n held at once
    # one rater per row of the buffer: its transpose (the rows, in Fortran order) hands the
    # kernels that read whole raters (RaterCodes) contiguous columns without a copy
    columns = np.empty((m, len(distinct)), dtype=np.int64)
    for j, column in enumerate(columns):  # a loop over the raters
        np.right_shift(distinct, bits * (m - 1 - j), out=column)
        column &= (1 << bits) - 1
        column -= 1
    return columns.T, multiplicity


def _runs(keys: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """The distinct values of sorted `keys` and the lengths of their runs."""
    n = len(keys)
    new = np.empty(n, dtype=bool)
    new[:1] = True
    np.not_equal(keys[1:], keys[:-1], out=new[1:])
    starts = np.flatnonzero(new)
    del new  # each buffer let go once read: fewer arrays of n held at once
    multiplicity = np.empty(len(starts), dtype=np.int64)
    np.subtract(starts[1:], starts[:-1], out=multiplicity[:-1])
    multiplicity[-1:] = n - starts[-1:]
    return np.take(keys, starts), multiplicity  # (a plain gather, faster than indexing)


def _sorted_distinct_byte_rows(
    codes: Sequence[np.ndarray], complete: bool
) -> tuple[np.ndarray, np.ndarray]:
    """:func:`_sorted_distinct_rows` of at most 7 raters whose codes + 1 fit a byte (k <=
    255): each row as one int64 key with code + 1 of rater j in byte m - 1 - j (the first
    rater's most significant, so the keys sort like the rows), written byte by byte into
    the keys' own buffer (a strided copy of each rater's codes, no int64 arithmetic), the
    keys sorted and each distinct row read back from its key (a shift and a mask per
    rater). With `complete` (no code is -1) the bytes hold the codes themselves: no + 1
    and - 1. The same rows and counts as :func:`_sorted_distinct_rows`.

    Examples
    --------
    >>> rows, counts = _sorted_distinct_byte_rows([np.array([1, -1, 1]), np.array([0, 2, 0])],
    ...                                          False)
    >>> rows.tolist(), counts.tolist()
    ([[-1, 2], [1, 0]], [1, 2])
    """
    m, n = len(codes), len(codes[0])
    buffer = np.zeros((n, 8), dtype=np.uint8)
    fields = buffer[:, ::-1] if _BIG_ENDIAN else buffer  # byte j: 256^j of the int64
    for j, column in enumerate(codes):  # a loop over the raters
        field = fields[:, m - 1 - j]
        if complete:  # codes 0..255: the bytes themselves (a wrapping cast)
            np.copyto(field, column, casting="unsafe")
        else:  # code + 1 in 0..255, -1 to 0 (uint8 arithmetic wraps)
            np.add(column.view(np.uint8) if column.dtype.itemsize == 1 else
                   column.astype(np.uint8), np.uint8(1), out=field, casting="unsafe")
    keys = buffer.view(np.int64).reshape(n)
    keys.sort()
    distinct, multiplicity = _runs(keys)
    del keys, buffer  # each buffer let go once read: fewer arrays of n held at once
    # one rater per row of the buffer: its transpose (the rows, in Fortran order) hands the
    # kernels that read whole raters (RaterCodes) contiguous columns without a copy
    columns = np.empty((m, len(distinct)), dtype=np.int64)
    for j, column in enumerate(columns):  # a loop over the raters
        shift = 8 * (m - 1 - j)
        if j == 0:  # the most significant byte: nothing above it to mask
            np.right_shift(distinct, shift, out=column)
        elif shift == 0:
            np.bitwise_and(distinct, 0xFF, out=column)
        else:
            np.right_shift(distinct, shift, out=column)
            column &= 0xFF
        if not complete:
            column -= 1
    return columns.T, multiplicity


def _sorted_code_keys(
    codes: Sequence[np.ndarray], n_categories: int
) -> tuple[np.ndarray, np.ndarray]:
    """:func:`_sorted_keys` of the :func:`code_keys` of rows of codes, the keys packed with
    their positions as they are built.

    ``key * 2^b + position`` is ``position + sum_j (code_j + 1) (k + 1)^(m - 1 - j) 2^b``:
    one multiply-add per rater into a buffer that starts as the positions, one sort, and
    the order and the sorted keys split from it in place (two int64 buffers of n, where
    the keys, their packed copy, the positions and the two halves took six).

    Examples
    --------
    >>> order, ordered = _sorted_code_keys([np.array([1, 0, 1]), np.array([0, 1, 0])], 2)
    >>> order.tolist(), ordered.tolist()
    ([1, 0, 2], [5, 7, 7])
    """
    m, n, base = len(codes), len(codes[0]), n_categories + 1
    space = base**m
    shift = max(int(n - 1).bit_length(), 1)
    if int(space - 1).bit_length() + shift > 62:
        return _sorted_keys(code_keys(codes, n_categories), space)
    packed = np.arange(n, dtype=np.int64)
    scratch = np.empty(n, dtype=np.int64)
    place, offset = 1 << shift, 0
    for column in reversed(codes):  # a loop over the raters, the last one first
        np.multiply(column, np.int64(place), out=scratch)
        packed += scratch
        offset += place  # the + 1 of each code, added once
        place *= base
    packed += offset
    packed.sort()
    order = np.bitwise_and(packed, (1 << shift) - 1, out=scratch)
    return order, np.right_shift(packed, shift, out=packed)


def _sorted_keys(keys: np.ndarray, space: int) -> tuple[np.ndarray, np.ndarray]:
    """The order that sorts non-negative integer `keys` (below `space`), and the sorted keys.

    When a key and its position fit one int64 together, ``key * 2^b + position`` is sorted
    by value (``np.sort``, several times faster than ``np.argsort``) and split again: the
    same sorted keys, equal keys in increasing position. Else ``np.argsort``.

    Examples
    --------
    >>> order, ordered = _sorted_keys(np.array([7, 2, 7, 0]), 8)
    >>> order.tolist(), ordered.tolist()
    ([3, 1, 0, 2], [0, 2, 7, 7])
    """
    shift = max(int(len(keys) - 1).bit_length(), 1)
    if int(space - 1).bit_length() + shift > 62:
        order = np.argsort(keys)  # equal keys are equal rows: any order among them will do
        return order, keys[order]
    packed = keys.astype(np.int64) << shift
    packed |= np.arange(len(keys), dtype=np.int64)
    packed.sort()
    return packed & ((1 << shift) - 1), packed >> shift


# -- sparse patterns ------------------------------------------------------------------------
@dataclass(frozen=True, eq=False)
class SparseCodes:
    """Rows of rater codes in compressed form: memory proportional to the ratings.

    Pattern ``p`` has the ratings ``code[indptr[p]:indptr[p + 1]]`` by the raters
    ``rater[indptr[p]:indptr[p + 1]]`` (increasing); every other rater's code is missing.

    Examples
    --------
    >>> sc = SparseCodes(np.array([0, 1, 3]), np.array([2, 0, 1]), np.array([1, 0, 0]), 3)
    >>> sc.dense().tolist()
    [[-1, -1, 1], [0, 0, -1]]
    """

    indptr: np.ndarray
    rater: np.ndarray
    code: np.ndarray
    n_raters: int

    @property
    def n_patterns(self) -> int:
        return len(self.indptr) - 1

    @cached_property
    def row(self) -> np.ndarray:
        """The pattern of each rating."""
        return np.repeat(np.arange(self.n_patterns, dtype=np.int64), np.diff(self.indptr))

    def dense(self, rows: np.ndarray | None = None) -> np.ndarray:
        """The (selected) patterns as dense rows of codes, ``-1`` = missing."""
        rows = np.arange(self.n_patterns) if rows is None else np.asarray(rows)
        where = np.full(self.n_patterns, -1, dtype=np.int64)
        where[rows] = np.arange(len(rows))
        out = np.full((len(rows), self.n_raters), -1, dtype=np.int64)
        pick = where[self.row] >= 0
        out[where[self.row[pick]], self.rater[pick]] = self.code[pick]
        return out


def sparse_patterns(
    subject: np.ndarray, rater: np.ndarray, code: np.ndarray, n_subjects: int,
    n_raters: int, n_categories: int, weights: np.ndarray | None = None,
) -> tuple[SparseCodes, np.ndarray, np.ndarray]:
    """Distinct patterns of ratings given one entry per rating, in O(ratings) memory.

    Returns the patterns (ordered by number of ratings, then lexicographically by
    (rater, code)), how many subjects have each (int64, exact; `weights` gives how many
    subjects each of the `n_subjects` subjects stands for) and each subject's pattern.
    Subjects are grouped by their number of ratings (one vectorised pass per distinct
    number: at most ``sqrt(2 * ratings) + 1`` passes).

    Examples
    --------
    >>> sc, mult, index = sparse_patterns(np.array([0, 0, 2, 2]), np.array([0, 1, 1, 0]),
    ...                                   np.array([1, 0, 0, 1]), 3, 2, 2)
    >>> sc.dense().tolist(), mult.tolist(), index.tolist()
    ([[-1, -1], [1, 0]], [1, 2], [1, 0, 1])
    """
    subject = np.asarray(subject, dtype=np.int64)
    order = np.lexsort((rater, subject))
    k = max(n_categories, 1)
    value = np.asarray(rater, dtype=np.int64)[order] * k + np.asarray(code, dtype=np.int64)[order]
    length = np.bincount(subject, minlength=n_subjects)
    start = np.concatenate([[0], np.cumsum(length)[:-1]]).astype(np.int64)
    index = np.empty(n_subjects, dtype=np.int64)
    bits_per_rating = np.log2(n_raters * k + 1)
    sizes, rows_parts, offset = [], [], 0
    for size in np.unique(length):  # one pass per distinct number of ratings
        who = np.flatnonzero(length == size)
        rows = value[start[who][:, None] + np.arange(size)]
        if size == 0:
            distinct, inverse = rows[:1], np.zeros(len(who), dtype=np.int64)
        elif size * bits_per_rating < 62:  # each row one integer: a 1-D unique
            key = rows[:, 0].copy()
            for j in range(1, size):
                key *= n_raters * k + 1
                key += rows[:, j]
            _, first, inverse = np.unique(key, return_index=True, return_inverse=True)
            distinct = rows[first]
        else:
            distinct, inverse = np.unique(rows, axis=0, return_inverse=True)
        index[who] = offset + inverse.reshape(-1)
        offset += len(distinct)
        sizes.append(np.full(len(distinct), size, dtype=np.int64))
        rows_parts.append(distinct.ravel())
    flat = np.concatenate(rows_parts) if rows_parts else np.zeros(0, dtype=np.int64)
    indptr = np.concatenate([[0], np.cumsum(np.concatenate(sizes))]).astype(np.int64)
    if weights is None:
        multiplicity = np.bincount(index, minlength=offset).astype(np.int64)
    else:
        multiplicity = np.zeros(offset, dtype=np.int64)
        np.add.at(multiplicity, index, np.asarray(weights, dtype=np.int64))  # exact
    return SparseCodes(indptr, flat // k, flat % k, n_raters), multiplicity, index


def _select(codes: SparseCodes, rows: np.ndarray) -> SparseCodes:
    """The patterns `rows` (increasing) of `codes`."""
    sizes = np.diff(codes.indptr)[rows]
    pick = np.repeat(codes.indptr[rows], sizes) + (
        np.arange(sizes.sum()) - np.repeat(np.cumsum(sizes) - sizes, sizes))
    indptr = np.concatenate([[0], np.cumsum(sizes)]).astype(np.int64)
    return SparseCodes(indptr, codes.rater[pick], codes.code[pick], codes.n_raters)


# -- coarsening ---------------------------------------------------------------------------
@dataclass(frozen=True, eq=False)
class Coarsening:
    """A map from fine patterns to coarser ones, and the coarse patterns it gives.

    ``index[p]`` is the coarse pattern of fine pattern ``p`` (``-1``: left out, e.g. a
    subject with a missing rating in the two-rater table); :meth:`apply` turns counts
    over the fine patterns into counts over the coarse ones, for one or a batch of
    resamples. ``patterns`` are the coarse patterns (one row each) and ``multiplicity``
    how many subjects of the data have each.

    Examples
    --------
    >>> c = Coarsening(np.array([1, 0, 1, -1]), np.array([[0], [1]]))
    >>> c.apply(np.array([[1.0, 2.0, 3.0, 4.0]])).tolist()
    [[2.0, 4.0]]
    """

    index: np.ndarray
    patterns: np.ndarray
    multiplicity: np.ndarray | None = None

    @property
    def size(self) -> int:
        """Number of coarse patterns."""
        return len(self.patterns)

    @cached_property
    def _plan(self) -> tuple[np.ndarray, np.ndarray, bool]:
        kept = np.flatnonzero(self.index >= 0)
        order = kept[np.argsort(self.index[kept], kind="stable")]
        target = self.index[order]
        injective = len(np.unique(target)) == len(target)
        return order, target, injective

    @cached_property
    def _summing(self) -> object:
        """The sparse (P, size) 0/1 matrix that sums fine counts into coarse ones."""
        from scipy import sparse

        kept = np.flatnonzero(self.index >= 0)
        shape = (len(self.index), self.size)
        return sparse.csr_matrix((np.ones(len(kept)), (kept, self.index[kept])), shape=shape)

    def apply(self, counts: np.ndarray) -> np.ndarray:
        """Counts over the coarse patterns, shape ``(..., size)``, of counts ``(..., P)``."""
        order, target, injective = self._plan
        counts = np.asarray(counts, dtype=float)
        if injective and len(order) == self.size == counts.shape[-1]:
            return counts[..., order]  # a one-to-one map: one gather
        if injective:
            out = np.zeros((*counts.shape[:-1], self.size))
            out[..., target] = counts[..., order]
            return out
        rows = counts.reshape(-1, counts.shape[-1])
        summed = np.asarray((self._summing.T @ rows.T).T)  # O(rows x P)
        return summed.reshape(*counts.shape[:-1], self.size)


# -- the statistics -------------------------------------------------------------------------
@dataclass(frozen=True, eq=False)
class Statistics:
    """The distinct rating patterns of the subjects and how many subjects have each.

    Attributes
    ----------
    patterns : ndarray of int64
        ``by_rater``: shape (P, m), one row of rater codes per pattern (``-1`` = missing),
        in lexicographic order. Otherwise (data given as subject x category counts):
        shape (P, k), one row of category counts per pattern.
    multiplicity : ndarray of int64, shape (P,)
        How many subjects have each pattern (all positive).
    categories : pandas.Index or ndarray
        The categories, in scale order (an ndarray for rating patterns coded with numpy:
        :meth:`irr.Agreement.from_patterns`).
    scores : ndarray of shape (k,) or None
        The category scores (None for unordered labels).
    ordered : bool
        Whether the categories have an order.
    raters : tuple of str
        The raters' names (empty for counts).
    by_rater : bool
        Whether the patterns say which rater gave which rating.
    sparse : SparseCodes or None
        A sparse design (long data with many raters and few ratings per subject): the
        patterns in compressed form, and ``patterns`` is None. Every view a coefficient
        defined on sparse designs needs (:attr:`count_patterns`, :meth:`entries`,
        :meth:`pair_cells_of`) comes from it without a dense (P, m) array.

    Examples
    --------
    >>> import irr
    >>> ag = irr.Agreement([1, 2, 2, 1], [1, 2, 1, 1])
    >>> stats = ag.statistics
    >>> stats.patterns.tolist(), stats.multiplicity.tolist()
    ([[0, 0], [1, 0], [1, 1]], [2, 1, 1])
    >>> (stats + stats).pair_table.tolist()
    [[4, 0], [2, 2]]
    """

    patterns: np.ndarray
    multiplicity: np.ndarray
    categories: pd.Index
    scores: np.ndarray | None
    ordered: bool
    raters: tuple[str, ...]
    by_rater: bool = True
    sparse: SparseCodes | None = None

    # -- construction ------------------------------------------------------------------------
    @classmethod
    def from_codes(
        cls,
        codes: Sequence[np.ndarray],
        categories: pd.Index,
        scores: np.ndarray | None,
        ordered: bool,
        raters: Sequence[str],
        weights: np.ndarray | None = None,
    ) -> Statistics:
        """The statistics of per-rater code arrays (``-1`` = missing).

        `weights` gives how many subjects each row stands for (frequency weights). Rows
        are summarised in chunks (bounded memory for any n), and the chunks added.
        """
        k, n = len(categories), len(codes[0])
        # no rating missing: known from the (narrow) codes, so the int64 patterns need not
        # be read for it
        complete = bool(n) and all(int(c.min()) >= 0 for c in codes)
        parts = []
        for start in range(0, max(n, 1), CHUNK):
            block = [c[start : start + CHUNK] for c in codes]
            w = None if weights is None else weights[start : start + CHUNK]
            parts.append(_code_patterns(block, k, w, complete))
        if len(parts) == 1:
            stats = cls(*parts[0], categories, scores, ordered, tuple(raters))
            if complete:
                stats.__dict__["_complete"] = True  # the cached_property's own entry
            return stats
        # the chunks' distinct rows merged once (as ``+`` would, pairwise): lexicographic
        # rows, their counts summed in int64 (exact)
        rows = np.concatenate([p for p, _ in parts])
        counts = np.concatenate([c for _, c in parts])
        keys = code_keys(list(rows.T), k)  # one integer per row when it fits: a 1-D unique
        if keys is None:
            distinct, inverse = np.unique(rows, axis=0, return_inverse=True)
        else:
            values, inverse = np.unique(keys, return_inverse=True)
            distinct = _rows_of_keys(values, len(codes), k)
        inverse = inverse.reshape(-1)
        order = np.argsort(inverse, kind="stable")
        starts = np.flatnonzero(np.r_[True, np.diff(inverse[order]) != 0])
        return cls(distinct, np.add.reduceat(counts[order], starts), categories, scores,
                   ordered, tuple(raters))

    @classmethod
    def from_pair_counts(
        cls,
        table: np.ndarray,
        categories: pd.Index,
        scores: np.ndarray | None,
        ordered: bool,
        raters: Sequence[str],
    ) -> Statistics:
        """The statistics of two raters given as their k x k table of code pairs (no
        missing rating): the nonzero cells in row-major order are the patterns, in the
        lexicographic order of :meth:`from_codes`."""
        k = len(categories)
        cells = np.flatnonzero(table)
        patterns = np.empty((len(cells), 2), dtype=np.int64)
        np.floor_divide(cells, k, out=patterns[:, 0])
        np.remainder(cells, k, out=patterns[:, 1])
        multiplicity = table.ravel()[cells].astype(np.int64)
        stats = cls(patterns, multiplicity, categories, scores, ordered, tuple(raters))
        # no rating missing, and the patterns are the occupied cells: what
        # :attr:`_complete` and :attr:`pair_cells` would find, set here
        stats.__dict__["_complete"] = True  # the cached_property's own entry
        if len(cells):
            stats.__dict__["pair_cells"] = Coarsening(np.arange(len(cells)), patterns,
                                                      multiplicity)
        return stats

    @classmethod
    def from_counts(
        cls,
        counts: np.ndarray,
        categories: pd.Index,
        scores: np.ndarray | None,
        ordered: bool,
    ) -> Statistics:
        """The statistics of subject x category counts (no rater identities)."""
        patterns, multiplicity = _unique_rows(np.asarray(counts, dtype=np.int64))
        return cls(patterns, multiplicity, categories, scores, ordered, (), by_rater=False)

    @classmethod
    def from_entries(
        cls,
        subject: np.ndarray,
        rater: np.ndarray,
        code: np.ndarray,
        n_subjects: int,
        categories: pd.Index,
        scores: np.ndarray | None,
        ordered: bool,
        raters: Sequence[str],
        weights: np.ndarray | None = None,
    ) -> Statistics:
        """The (sparse) statistics of one entry per rating (:func:`sparse_patterns`)."""
        codes, multiplicity, _ = sparse_patterns(subject, rater, code, n_subjects,
                                                 len(raters), len(categories), weights)
        keep = multiplicity > 0
        if not keep.all():
            codes = _select(codes, np.flatnonzero(keep))
            multiplicity = multiplicity[keep]
        return cls(None, multiplicity, categories, scores, ordered, tuple(raters),
                   sparse=codes)

    @classmethod
    def from_source(cls, source: Source) -> Statistics:
        """The statistics of an input (:class:`irr._source.Source`)."""
        if source.measurements is not None:
            raise ValueError(
                "Continuous measurements have no patterns of categories; use "
                "value_source(measurements) for the statistics of scores."
            )
        r = source.ratings
        if source.entries is not None:
            e = source.entries
            return cls.from_entries(e.subject, e.rater, e.code, e.n_subjects, r.categories,
                                    r.scores, r.ordered, r.raters, source.weights)
        if source.counts is not None:
            return cls.from_counts(source.counts, r.categories, r.scores, r.ordered)
        if r.pair_counts is not None and source.weights is None:
            return cls.from_pair_counts(r.pair_counts, r.categories, r.scores, r.ordered,
                                        r.raters)
        return cls.from_codes(r.codes, r.categories, r.scores, r.ordered, r.raters,
                              source.weights)

    # -- algebra -----------------------------------------------------------------------------
    def __add__(self, other: Statistics) -> Statistics:
        """The statistics of both data sets' subjects together (exact)."""
        if not isinstance(other, Statistics):
            return NotImplemented
        if self.by_rater != other.by_rater or self.raters != other.raters:
            raise ValueError(
                "Statistics add only over the same raters: got "
                f"{preview(self.raters) if self.by_rater else 'counts'} and "
                f"{preview(other.raters) if other.by_rater else 'counts'}."
            )
        if not self.same_scale(other):
            raise ValueError(
                "Statistics add only over the same categories, scores and order: got "
                f"{preview(self.categories)} and {preview(other.categories)}; declare the "
                "full scale with `categories=` when summarising parts."
            )
        if self.sparse is not None or other.sparse is not None:
            parts = [s.entries() for s in (self, other)]
            offset = len(self.multiplicity)
            return Statistics.from_entries(
                np.concatenate([parts[0][0], parts[1][0] + offset]),
                np.concatenate([parts[0][1], parts[1][1]]),
                np.concatenate([parts[0][2], parts[1][2]]),
                offset + len(other.multiplicity), self.categories, self.scores,
                self.ordered, self.raters,
                np.concatenate([self.multiplicity, other.multiplicity]))
        rows = np.concatenate([self.patterns, other.patterns])
        counts = np.concatenate([self.multiplicity, other.multiplicity])
        # distinct rows in lexicographic order, their counts summed in int64 (exact)
        _, first, inverse = np.unique(rows, axis=0, return_index=True, return_inverse=True)
        inverse = inverse.reshape(-1)
        order = np.argsort(inverse, kind="stable")
        starts = np.flatnonzero(np.r_[True, np.diff(inverse[order]) != 0])
        return self._with(rows[first], np.add.reduceat(counts[order], starts))

    def same_scale(self, other: Statistics) -> bool:
        """Whether `other` has the same categories, category scores and order."""
        same_scores = (self.scores is None and other.scores is None) or (
            self.scores is not None and other.scores is not None
            and np.array_equal(self.scores, other.scores)
        )
        return (_same_labels(self.categories, other.categories) and same_scores
                and self.ordered == other.ordered)

    def _with(self, patterns: np.ndarray, multiplicity: np.ndarray) -> Statistics:
        return Statistics(patterns, multiplicity, self.categories, self.scores, self.ordered,
                          self.raters, self.by_rater)

    def entries(self) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        """Every rating of the patterns: (pattern, rater, code), int64, ordered by pattern
        then rater; memory proportional to the ratings of the distinct patterns."""
        self.require_raters("The ratings by rater")
        if self.sparse is not None:
            return self.sparse.row, self.sparse.rater, self.sparse.code
        row, rater = np.nonzero(self.patterns >= 0)
        return row.astype(np.int64), rater.astype(np.int64), self.patterns[row, rater]

    @property
    def n_patterns(self) -> int:
        """Number of distinct (fine) patterns."""
        return len(self.multiplicity)

    def rater_codes(self, g: int) -> np.ndarray:
        """Rater g's code in each pattern (``-1`` = missing), shape (P,)."""
        if self.sparse is None:
            return self.patterns[:, g]
        order, starts = self._by_rater
        pick = order[starts[g]:starts[g + 1]]
        out = np.full(self.n_patterns, -1, dtype=np.int64)
        out[self.sparse.row[pick]] = self.sparse.code[pick]
        return out

    @cached_property
    def _by_rater(self) -> tuple[np.ndarray, np.ndarray]:
        """Sparse ratings ordered by rater, and where each rater's start."""
        order = np.argsort(self.sparse.rater, kind="stable")
        counts = np.bincount(self.sparse.rater, minlength=self.sparse.n_raters)
        return order, np.concatenate([[0], np.cumsum(counts)])

    def require_complete_design(self, what: str) -> None:
        """Raise, without a dense allocation, when the patterns are a sparse design."""
        if self.sparse is None:
            return
        m = self.sparse.n_raters
        complete = int(self.multiplicity[self.ratings_per_pattern == m].sum())
        raise ValueError(
            f"{what} needs every rater to rate the subjects it uses, but these data are a "
            f"sparse design ({self.n_subjects} subjects, {m} raters, "
            f"{int(self.multiplicity @ self.ratings_per_pattern)} ratings; {complete} "
            "subject(s) rated by every rater). Select raters who rated the same subjects "
            "(Agreement.from_frame(df, raters=[...])), or use a coefficient defined on "
            "sparse designs (fleiss_kappa, gwet_ac, krippendorff_alpha, ...)."
        )

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, Statistics):
            return NotImplemented
        return (
            self.by_rater == other.by_rater
            and self.raters == other.raters
            and self.same_scale(other)
            and np.array_equal(self.multiplicity, other.multiplicity)
            and (self.sparse is None) == (other.sparse is None)
            and (np.array_equal(self.patterns, other.patterns) if self.sparse is None
                 else all(np.array_equal(getattr(self.sparse, f), getattr(other.sparse, f))
                          for f in ("indptr", "rater", "code")))
        )

    __hash__ = None  # type: ignore[assignment]

    # -- facts -------------------------------------------------------------------------------
    @property
    def n_categories(self) -> int:
        return len(self.categories)

    @property
    def n_raters(self) -> int:
        """Raters (by rater), or the most ratings any subject has (counts)."""
        if self.sparse is not None:
            return self.sparse.n_raters
        if self.by_rater:
            return self.patterns.shape[1]
        return int(self.patterns.sum(axis=1).max())

    @property
    def n_subjects(self) -> int:
        return int(self.multiplicity.sum())

    @cached_property
    def ratings_per_pattern(self) -> np.ndarray:
        """How many ratings the subjects of each pattern have, shape (P,) (read-only when
        no rating is missing: one value, not an array of P)."""
        if self.sparse is not None:
            return np.diff(self.sparse.indptr)
        if self.by_rater:
            if self._complete:
                return np.broadcast_to(np.int64(self.patterns.shape[1]), (len(self.patterns),))
            return (self.patterns >= 0).sum(axis=1)
        return self.patterns.sum(axis=1)

    @cached_property
    def _complete(self) -> bool:
        """Whether these are dense rows of codes with no rating missing (read once)."""
        return (self.by_rater and self.sparse is None
                and (not self.patterns.size or bool(self.patterns.min() >= 0)))

    @property
    def n_missing(self) -> int:
        """Subjects with at least one missing rating.

        For counts: subjects with fewer ratings than the most any subject has.
        """
        if self._complete:
            return 0
        r = self.ratings_per_pattern
        full = self.n_raters if self.by_rater else r.max()
        return int(self.multiplicity[r < full].sum())

    def listwise(self) -> Statistics:
        """These statistics with the subjects that miss a rating left out (listwise
        deletion, R irr's convention): the same patterns, in the same order (so a
        resampling plan over them still applies), the incomplete ones with multiplicity 0.
        For counts, a complete subject has as many ratings as the most any subject has.

        Examples
        --------
        >>> stats = Statistics.from_codes([np.array([0, 1, -1]), np.array([0, 1, 1])],
        ...                               pd.Index([0, 1]), None, False, ("a", "b"))
        >>> stats.n_subjects, stats.listwise().n_subjects, stats.listwise().n_missing
        (3, 2, 0)
        """
        r = self.ratings_per_pattern
        full = self.n_raters if self.by_rater else r.max()
        return replace(self, multiplicity=np.where(r == full, self.multiplicity, 0))

    def ratings_per_rater(self) -> np.ndarray | None:
        """How many subjects each rater rated, shape (m,); None for counts (no rater
        identities).

        Examples
        --------
        >>> import irr
        >>> irr.Agreement([1, 2, None], [2, 2, 1]).statistics.ratings_per_rater().tolist()
        [2, 3]
        """
        if not self.by_rater:
            return None
        row, rater, _ = self.entries()
        out = np.zeros(self.n_raters, dtype=np.int64)
        np.add.at(out, rater, self.multiplicity[row])  # exact integers, unlike bincount
        return out

    def subjects_by_ratings(self) -> dict[int, int]:
        """How many subjects have each number of ratings, ``{ratings: subjects}``, ascending.

        Examples
        --------
        >>> import irr
        >>> irr.Agreement([1, 2, None], [2, 2, 1]).statistics.subjects_by_ratings()
        {1: 1, 2: 2}
        """
        # over the distinct numbers of ratings (a counts row can have 4e8 ratings)
        values, inverse = np.unique(self.ratings_per_pattern, return_inverse=True)
        counts = np.zeros(len(values), dtype=np.int64)
        np.add.at(counts, inverse, self.multiplicity)
        return {int(r): int(c) for r, c in zip(values, counts, strict=True) if c}

    def subjects_with_fewer_ratings_than(self, ratings: int) -> int:
        """Subjects with fewer than `ratings` ratings."""
        return int(self.multiplicity[self.ratings_per_pattern < ratings].sum())

    # -- views ------------------------------------------------------------------------------
    def pair_cells_of(self, g: int, h: int) -> Coarsening:
        """Raters g and h: the occupied cells of their k x k table, as a Coarsening.

        ``patterns`` are the occupied cells ``(a, b)`` (rows: rater g's code, then h's) in
        row-major order, ``multiplicity`` their subject counts, and ``index[p]`` the cell of
        fine pattern ``p`` (``-1`` where either rating is missing). The k x k table is never
        formed: memory O(P + occupied cells), whatever k.
        """
        self.require_raters("The agreement table")
        k = self.n_categories
        if (g, h) == (0, 1) and self.sparse is None and self.patterns.shape[1] == 2 and \
                len(self.patterns) and self.patterns.min() >= 0:
            # two raters, no missing rating: the fine patterns are distinct code pairs in
            # lexicographic (row-major) order, so they are the occupied cells
            return Coarsening(np.arange(len(self.patterns)), self.patterns, self.multiplicity)
        a, b = self.rater_codes(g), self.rater_codes(h)
        complete = (a >= 0) & (b >= 0)
        cell = a[complete].astype(np.int64) * k + b[complete]
        occupied, inverse = np.unique(cell, return_inverse=True)
        index = np.full(len(a), -1, dtype=np.int64)
        index[complete] = inverse.reshape(-1)
        counts = np.bincount(index[complete], weights=self.multiplicity[complete],
                             minlength=len(occupied))
        return Coarsening(index, np.column_stack([occupied // k, occupied % k]),
                          np.rint(counts).astype(np.int64))

    @cached_property
    def pair_cells(self) -> Coarsening:
        """Two raters: :meth:`pair_cells_of` the first and the second."""
        self.require_raters("The agreement table", exactly=2)
        return self.pair_cells_of(0, 1)

    @property
    def pair_table(self) -> np.ndarray:
        """The k x k table of the two raters' complete pairs (int64), built on request
        (at most :data:`irr.weights.MAX_SQUARE_CELLS` cells)."""
        return self._dense_table(self.pair_cells)

    def pair_table_of(self, g: int, h: int) -> tuple[np.ndarray, int]:
        """Raters g and h: the k x k table of their complete pairs (rows: g) and how many
        subjects miss either rating."""
        cells = self.pair_cells_of(g, h)
        return self._dense_table(cells), self.n_subjects - int(cells.multiplicity.sum())

    def _dense_table(self, cells: Coarsening) -> np.ndarray:
        k = self.n_categories
        check_square(k, "The k x k agreement table")
        table = np.zeros((k, k), dtype=np.int64)
        table[cells.patterns[:, 0], cells.patterns[:, 1]] = cells.multiplicity
        return table

    @cached_property
    def count_patterns(self) -> Coarsening:
        """The distinct subject x category count rows (P', k), from the fine patterns.

        Subjects with the same counts contribute identically to every coefficient that
        ignores rater identities (Fleiss, Gwet, Brennan-Prediger, alpha ...).
        """
        if not self.by_rater:
            identity = np.arange(len(self.patterns))
            return Coarsening(identity, self.patterns, self.multiplicity)
        # distinct count rows found from the (pattern, category, count) triples, so the
        # dense (P, k) counts are never built: only the distinct rows are made dense
        # (bounded), in the order they have always had (see _sparse_count_rows)
        fine, rows = self._sparse_count_rows
        counts = self._dense_counts(rows)
        multiplicity = np.bincount(fine, weights=self.multiplicity, minlength=len(counts))
        return Coarsening(fine, counts, np.rint(multiplicity).astype(np.int64))

    @cached_property
    def count_pattern_cells(self) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        """The nonzero cells of :attr:`count_patterns`' rows: (row, category, count), int64,
        in row then category order, without reading the dense rows."""
        if not self.by_rater:
            patterns = self.count_patterns.patterns
            row, category = np.nonzero(patterns)
            return row.astype(np.int64), category.astype(np.int64), patterns[row, category]
        pairs = self._sparse_count_rows[1]
        used = pairs[:, 0::2] >= 0
        row = np.nonzero(used)[0].astype(np.int64)
        return row, pairs[:, 0::2][used], pairs[:, 1::2][used]

    @cached_property
    def category_cells(self) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        """The nonzero cells of each fine pattern's subject x category counts: (pattern,
        category, count), int64, in pattern then category order.

        The coefficients on counts are sums over subjects, so they need no distinct count
        rows (:attr:`count_patterns`): these cells, from a sort of each row of codes
        (O(ratings) memory, no P x k array), serve every fine pattern.

        Examples
        --------
        >>> stats = Statistics.from_codes([np.array([0, 1]), np.array([0, 0]),
        ...                                np.array([-1, 1])], pd.Index([0, 1]), None, False,
        ...                               ("a", "b", "c"))
        >>> [v.tolist() for v in stats.category_cells]
        [[0, 1, 1], [0, 0, 1], [2, 1, 2]]
        """
        if not self.by_rater:  # the fine patterns are the count rows
            return self.count_pattern_cells
        return self._category_runs()

    @property
    def count_cells(self) -> int:
        """Cells of the dense distinct subject x category count rows (P' x k) that
        :attr:`count_patterns` builds; above :data:`MAX_COUNT_CELLS` it raises instead."""
        if not self.by_rater:
            return self.patterns.size
        return len(self._sparse_count_rows[1]) * self.n_categories

    @cached_property
    def _sparse_count_rows(self) -> tuple[np.ndarray, np.ndarray]:
        """Each fine pattern's distinct count row (its index) and those rows as padded
        ``(category, count)`` pairs, shape (P'', 2 L), L the most categories of a row,
        ``-1`` padding, in the order :attr:`count_patterns` has always given them (which
        the bootstrap's draws depend on); O(ratings) memory.

        That order is lexicographic on the dense rows from the last category when
        ``k log2(m + 1) < 62`` (the rows were once sorted as integers in base m + 1 with
        category 0 the least significant digit), else from the first. Each row's pairs
        are read in that direction, a slot as (rank of its category, count) with (0, 0)
        for padding, the rank k - category from the first and category + 1 from the last:
        at the first category where two dense rows differ either both have it (the
        smaller count is smaller) or only one does, and the other's slot holds a category
        further on, or padding, whose rank is smaller.
        """
        owner, category, count = self._category_runs()
        k, p = self.n_categories, self.n_patterns
        width = np.bincount(owner, minlength=p)
        size = max(int(width.max()) if p else 0, 1)
        start = np.cumsum(width) - width
        slot = np.arange(len(owner)) - np.repeat(start, width)  # increasing category
        if k * np.log2(self.n_raters + 1) < 62:  # from the last category
            rank, place = category + 1, np.repeat(width, width) - 1 - slot
        else:
            rank, place = k - category, slot
        top = int(count.max()) + 1 if len(count) else 1
        base = (k + 1) * top  # slot values rank * top + count < base
        if size * np.log2(base) < 62:  # one integer per row: a 1-D unique
            value = (rank * top + count) * base ** (size - 1 - place)
            row_key = np.zeros(p, dtype=np.int64)
            rated = width > 0
            if rated.any():
                row_key[rated] = np.add.reduceat(value, start[rated])
            _, first, inverse = np.unique(row_key, return_index=True, return_inverse=True)
        else:
            ranked = np.zeros((p, 2 * size), dtype=np.int64)
            ranked[owner, 2 * place], ranked[owner, 2 * place + 1] = rank, count
            _, first, inverse = np.unique(ranked, axis=0, return_index=True,
                                          return_inverse=True)
        pairs = np.full((len(first), 2 * size), -1, dtype=np.int64)
        pick = np.full(p, -1, dtype=np.int64)
        pick[first] = np.arange(len(first))
        mine = pick[owner] >= 0
        at, col = pick[owner[mine]], 2 * slot[mine]
        pairs[at, col], pairs[at, col + 1] = category[mine], count[mine]
        return inverse.reshape(-1), pairs

    def _category_runs(self) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        """(pattern, category, count) of each category a fine pattern holds, in pattern
        then category order (int64): the nonzero cells of the count rows."""
        k = self.n_categories
        if self.sparse is not None:
            row, _, code = self.entries()
            key, count = np.unique(row * k + code, return_counts=True)
            return key // k, key % k, count
        # dense rows of codes: sort each row (missing -1 first), then read its runs
        size, m = self.patterns.shape
        if size * m == 0:
            empty = np.zeros(0, dtype=np.int64)
            return empty, empty, empty
        codes = np.sort(self.patterns, axis=1).reshape(-1)
        first = np.ones(codes.shape, dtype=bool)  # a run starts: a new row or a new code
        first[1:] = codes[1:] != codes[:-1]
        first[::m] = True
        at = np.flatnonzero(first)
        count = np.diff(np.append(at, codes.size))
        present = codes[at] >= 0
        at = at[present]
        return at // m, codes[at], count[present]

    def _dense_counts(self, pairs: np.ndarray) -> np.ndarray:
        """The padded ``(category, count)`` rows as dense (P'', k) count rows, bounded."""
        k, size = self.n_categories, len(pairs)
        if size * k > MAX_COUNT_CELLS:
            raise ValueError(
                f"Coefficients on category counts need a {size:,} x {k:,} array of distinct "
                f"subject x category counts ({size * k:,} cells); at most "
                f"{MAX_COUNT_CELLS:,} are built (irr._statistics.MAX_COUNT_CELLS). Fewer "
                "categories (declare or merge them) keep it within the bound."
            )
        dense = np.zeros((size, k), dtype=np.int64)
        used = pairs[:, 0::2] >= 0
        which = np.broadcast_to(np.arange(size)[:, None], used.shape)[used]
        dense[which, pairs[:, 0::2][used]] = pairs[:, 1::2][used]
        return dense

    def empty_raters(self) -> tuple[str, ...]:
        """The raters who gave no rating to any subject (every value missing); empty when
        the patterns carry no rater identities or the design is sparse.

        Examples
        --------
        >>> import irr
        >>> irr.Agreement([1, 2, 1], [2, 2, 1], [None, None, None]).statistics.empty_raters()
        ('rater3',)
        """
        if not self.by_rater or self.patterns is None or not len(self.patterns):
            return ()
        # (counts are non-negative: any nonzero one is positive, read without a mask)
        if self._complete and self.multiplicity.any():  # every rater rated them
            return ()
        used = self.patterns if (self.multiplicity > 0).all() else \
            self.patterns[self.multiplicity > 0]
        rated = used.max(axis=0) >= 0 if len(used) else np.zeros(used.shape[1], dtype=bool)
        return tuple(r for r, given in zip(self.raters, rated, strict=True) if not given)

    def require_raters(self, what: str, exactly: int | None = None) -> None:
        """Raise unless the patterns say which rater gave which rating (and, with
        ``exactly=2``, there are two raters)."""
        if not self.by_rater:
            raise ValueError(
                f"{what} needs to know which rater gave which rating, but this Agreement "
                "was built from subject x category counts (Agreement.from_counts). On counts "
                "use fleiss_kappa(), scott_pi(), gwet_ac(), brennan_prediger(), "
                "percent_agreement() or krippendorff_alpha()."
            )
        if exactly is not None and self.n_raters != exactly:
            raise ValueError(
                f"{what} compares two raters; this Agreement has {self.n_raters} "
                f"{preview(self.raters)}. Select two with "
                "Agreement.from_frame(df, raters=[a, b]) (long data: keep the two raters' "
                "rows)."
            )

    def require_scores(self, what: str) -> np.ndarray:
        """The category scores, or a TypeError saying `what` needs them."""
        if self.scores is None:
            raise TypeError(
                f"{what} needs numeric or ordered ratings (category scores); the categories "
                f"{preview(self.categories)} are unordered labels. Pass ordered categories "
                "with `categories=` or numeric ratings."
            )
        return self.scores



def _same_labels(first: Any, second: Any) -> bool:
    """Whether two scales hold the same labels in the same order: pandas Indexes (by
    ``Index.equals``), or numpy arrays (the categories of patterns coded with numpy,
    :meth:`irr.Agreement.from_patterns`) compared by value."""
    if isinstance(first, np.ndarray) or isinstance(second, np.ndarray):
        return len(first) == len(second) and bool(
            np.array_equal(np.asarray(first), np.asarray(second)))
    return bool(first.equals(second))


def value_source(measurements: Measurements) -> Source:
    """Continuous measurements as categories whose scores are their values, for the
    statistics of scores (ICC, Kendall's W, interval alpha) built on :class:`Statistics`.

    Each (subject, rater) cell holds its measurement (the mean of its replicates). With
    at most :data:`irr._data.MAX_CATEGORIES` distinct values the cells are coded exactly
    as ``continuous=False`` codes them (so every statistic gives the same numbers);
    beyond, by their rank among the distinct values (no limit on their number).

    Examples
    --------
    >>> m = Measurements.from_wide([[1.5, 2.25], [2.25, np.nan]], raters=["a", "b"])
    >>> source = value_source(m)
    >>> [c.tolist() for c in source.ratings.codes], source.ratings.scores.tolist()
    ([[0, 1], [1, -1]], [1.5, 2.25])
    """
    wide = measurements.wide()
    observed = ~np.isnan(wide)
    # the rank of each value among the distinct ones comes with the sort (a search of
    # each value in the sorted distinct values misses the cache at every step)
    values, rank = np.unique(wide[observed], return_inverse=True)
    names = measurements.raters
    if len(values) <= MAX_CATEGORIES:
        return Source.from_columns(list(wide.T), names, continuous=False)
    codes = np.full(wide.shape, -1, dtype=np.int32)
    codes[observed] = rank.reshape(-1)
    categories = pd.Index(values)
    return Source(Ratings(tuple(codes.T.copy()), categories, values, True, tuple(names)))


def coded_by_rank(values: np.ndarray) -> bool:
    """Whether :func:`value_source` codes these values (the observed cells) by their rank:
    more than :data:`irr._data.MAX_CATEGORIES` distinct values.

    A prefix of the values is looked at first: when it already holds more distinct values
    the answer is known without sorting them all.

    Examples
    --------
    >>> coded_by_rank(np.arange(20_000) / 7), coded_by_rank(np.array([1.5, 2.5, 1.5]))
    (True, False)
    """
    values = np.asarray(values, dtype=float).reshape(-1)
    if len(values) <= MAX_CATEGORIES:
        return False
    for size in (2 * MAX_CATEGORIES, 8 * MAX_CATEGORIES):  # real values: a short prefix
        prefix = values[:size]
        if len(np.unique(prefix[~np.isnan(prefix)])) > MAX_CATEGORIES:
            return True
        if size >= len(values):
            return False
    return len(np.unique(values[~np.isnan(values)])) > MAX_CATEGORIES


def subject_patterns(source: Source, stats: Statistics) -> np.ndarray:
    """The index in ``stats.patterns`` of each row of `source` (one row per subject)."""
    if source.entries is not None:
        e = source.entries
        _, _, index = sparse_patterns(e.subject, e.rater, e.code, e.n_subjects,
                                      stats.n_raters, stats.n_categories)
        return index
    codes = source.ratings.codes
    keys = code_keys(codes, stats.n_categories)
    if keys is None:
        rows = np.column_stack(codes).astype(np.int64)
        _, index = np.unique(np.concatenate([stats.patterns, rows]), axis=0,
                             return_inverse=True)
        index = index.reshape(-1)
        return np.argsort(index[: len(stats.patterns)])[index[len(stats.patterns):]]
    pattern_keys = code_keys(list(stats.patterns.T), stats.n_categories)
    return np.searchsorted(pattern_keys, keys)
