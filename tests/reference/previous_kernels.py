"""Previous forms of kernels rewritten for speed (issue 31), kept as reference
implementations: each test in tests/unit compares the new kernel with its previous form on
random data. They are the code as it stood before the rewrite, not used by the package."""

from __future__ import annotations

import math
from collections.abc import Sequence
from typing import Any, NamedTuple

import numpy as np
import pandas as pd

from irr import _data
from irr._columns import MAX_CATEGORIES, ColumnChoice, _named_as_id
from irr._data import may_hold_missing
from irr.coefficients import chance_corrected as cc
from irr.coefficients import method_regression as mr


def unique_rows(rows: np.ndarray, weights: np.ndarray | None = None
                ) -> tuple[np.ndarray, np.ndarray]:
    """irr._statistics._unique_rows before: ``np.unique(axis=0)`` on structured rows."""
    patterns, inverse = np.unique(rows, axis=0, return_inverse=True)
    counts = np.bincount(inverse.reshape(-1), weights=weights, minlength=len(patterns))
    keep = counts > 0
    return patterns[keep], np.rint(counts[keep]).astype(np.int64)


def factorize(column: pd.Series) -> tuple[np.ndarray, np.ndarray]:
    """irr._long's coding of subject and rater labels before: pandas' hash table."""
    return pd.factorize(column, sort=False)


def wide(subject: np.ndarray, rater: np.ndarray, value: np.ndarray, n_subjects: int,
         n_raters: int) -> np.ndarray:
    """Measurements.wide() of long measurements before: cell sums over cell counts."""
    cells = subject * n_raters + rater
    size = n_subjects * n_raters
    total = np.bincount(cells, weights=value, minlength=size).reshape(n_subjects, n_raters)
    count = np.bincount(cells, minlength=size).reshape(n_subjects, n_raters)
    with np.errstate(invalid="ignore", divide="ignore"):
        return np.where(count > 0, total / np.maximum(count, 1), np.nan)


def subject_moments(counts: np.ndarray, sums: np.ndarray, within: np.ndarray) -> np.ndarray:
    """irr.coefficients.variance_components.subject_moments before: six einsums and their
    temporaries, copied into a zeroed (n, d) array."""
    from irr.coefficients.variance_components import moment_layout

    n, k = counts.shape
    layout = moment_layout(k)
    total_n = counts.sum(axis=1)
    size = np.maximum(total_n, 1)
    total = sums.sum(axis=1)
    out = np.zeros((n, layout["width"].start))
    out[:, layout["n"]] = total_n[:, None]
    out[:, layout["present"]] = (total_n > 0)[:, None]
    out[:, layout["total"]] = total[:, None]
    out[:, layout["total2"]] = (total * total / size)[:, None]
    out[:, layout["within"]] = within[:, None]
    cell_mean = np.where(counts > 0, sums / np.maximum(counts, 1), 0.0)
    subject_mean = total / size
    deviation = np.where(counts > 0, cell_mean - subject_mean[:, None], 0.0)
    out[:, layout["between"]] = np.einsum("ij,ij,ij->i", counts, deviation, deviation)[:, None]
    out[:, layout["cells"]] = (counts > 0).sum(axis=1)[:, None]
    out[:, layout["n2"]] = (total_n * total_n)[:, None]
    squares = counts * counts
    out[:, layout["k3"]] = (squares.sum(axis=1) / size)[:, None]
    out[:, layout["counts"]] = counts
    out[:, layout["sums"]] = sums
    out[:, layout["counts2"]] = squares
    out[:, layout["counts_total"]] = counts * (total / size)[:, None]
    share = counts / size[:, None]
    out[:, layout["outer"]] = np.einsum("ij,il->ijl", counts, share).reshape(n, k * k)
    sq_total = squares.sum(axis=1)
    gg = -np.einsum("ij,il->ijl", squares, share)
    gg += gg.transpose(0, 2, 1)
    gg += sq_total[:, None, None] * np.einsum("ij,il->ijl", share, share)
    idx = np.arange(k)
    gg[:, idx, idx] += squares
    out[:, layout["gg"]] = gg.reshape(n, k * k)
    return out


def cell_statistics(m) -> tuple:
    """irr.estimators.variance_components.cell_statistics before: every (n, k) array by
    bincounts over the long form, with or without replicates."""
    n, k = m.n_subjects, m.n_raters
    centre = float(np.median(m.value)) if m.value.size else 0.0
    y = m.value - centre
    cell = m.subject * k + m.rater
    counts = np.bincount(cell, minlength=n * k).astype(float)
    sums = np.bincount(cell, weights=y, minlength=n * k)
    mean = np.divide(sums, counts, out=np.zeros_like(sums), where=counts > 0)
    deviation = y - mean[cell]
    within = np.bincount(m.subject, weights=deviation * deviation, minlength=n)
    squares = np.bincount(cell, weights=y * y, minlength=n * k)
    return (counts.reshape(n, k), sums.reshape(n, k), squares.reshape(n, k), within, centre)


def code_patterns(codes, n_categories: int, weights: np.ndarray | None
                  ) -> tuple[np.ndarray, np.ndarray]:
    """irr._statistics._code_patterns before: every key space counted by ``count_keys``
    and the distinct rows decoded from their keys (m divisions of each key)."""
    from irr._statistics import _rows_of_keys, _unique_rows, code_keys, count_keys

    keys = code_keys(codes, n_categories)
    if keys is None:
        return _unique_rows(np.column_stack(codes).astype(np.int64), weights)
    values, multiplicity = count_keys(keys, (n_categories + 1) ** len(codes), weights)
    return _rows_of_keys(values, len(codes), n_categories), multiplicity


def count_pattern_entries(stats):
    """The coefficients on counts before (irr.estimators.chance_corrected._cells): the
    nonzero cells of the distinct subject x category count rows
    (``Statistics.count_patterns``), with those rows' multiplicities."""
    from irr.coefficients import chance_corrected as cc

    row, category, count = stats.count_pattern_cells
    counts = stats.count_patterns
    cells = cc.CountEntries.from_cells(row, category, count, counts.size, stats.n_categories)
    return cells, counts.multiplicity


def kappa_influence(table: np.ndarray, w: np.ndarray) -> np.ndarray:
    """irr.estimators.kappa.kappa_influence before (its own arithmetic, now
    irr.coefficients.kappa.cell_influence's)."""
    n = table.sum()
    p = table / n
    row, col = p.sum(axis=1), p.sum(axis=0)
    do = float((p * (1.0 - w)).sum())
    de = float(row @ (1.0 - w) @ col)
    both = (w @ col)[:, None] + (row @ w)[None, :]
    g = (w * de - both * do) / de**2
    h = g - (p * g).sum()
    return np.where(np.abs(h) <= 1e-12 * np.abs(g).max(), 0.0, h)


def integer_pair_codes(table: np.ndarray, used: np.ndarray) -> np.ndarray:
    """irr._data._encode_integer_pair's k x k table of codes before: the occupied cells
    added at their codes (``np.add.at``)."""
    to_code = np.cumsum(used) - 1
    k = int(used.sum())
    rows, columns = np.nonzero(table)
    pair = np.zeros((k, k), dtype=np.int64)
    np.add.at(pair, (to_code[rows], to_code[columns]), table[rows, columns])
    return pair


def coded_by_rank(values: np.ndarray) -> bool:
    """irr._statistics.coded_by_rank before: a prefix of 4 MAX_CATEGORIES values, then all."""
    from irr._data import MAX_CATEGORIES

    values = np.asarray(values, dtype=float).reshape(-1)
    if len(values) <= MAX_CATEGORIES:
        return False
    prefix = values[: 4 * MAX_CATEGORIES]
    if len(np.unique(prefix[~np.isnan(prefix)])) > MAX_CATEGORIES:
        return True
    return len(np.unique(values[~np.isnan(values)])) > MAX_CATEGORIES


def connected(filled: np.ndarray) -> bool:
    """irr.estimators.variance_components._connected before: from the (n, k) pattern of
    measured cells, by its own rater x rater product."""
    import math

    k = filled.shape[1]
    shared = (filled.T.astype(float) @ filled.astype(float)) > 0
    reach = np.eye(k, dtype=bool) | shared
    for _ in range(math.ceil(math.log2(max(k, 2))) + 1):
        reach = (reach.astype(float) @ reach.astype(float)) > 0
    used = filled.any(axis=0)
    return bool(reach[np.ix_(used, used)].all())


def measurement_error_summary(m) -> dict:
    """What irr.estimators.measurement_error.measurement_error computed without replicates
    before: the (n, k) cell statistics, the generic moment sums, pinv-based Henderson
    components and the SD of all measurements by np.std."""
    from irr.coefficients.variance_components import henderson, moment_sums

    counts, sums, _, within, _ = cell_statistics(m)
    k = m.n_raters
    model = "twoway" if k >= 2 else "oneway"
    c = henderson(moment_sums(counts, sums, within), k, model, False)
    values = m.value
    return {"n": int((counts.sum(axis=1) > 0).sum()), "components": c,
            "sd": float(np.std(values, ddof=1)) if values.size > 1 else float("nan")}


def moment_bootstrap_interval(m, n_resamples: int) -> tuple[float, float]:
    """The 95% percentile bootstrap interval of ICC(A,1) by variance components as
    icc_components drew it before: from the previous (n, k) cell statistics, seed 0."""
    from functools import partial

    from irr.estimators.variance_components import _finish, moment_bootstrap

    counts, sums, _, within, _ = cell_statistics(m)
    finish = partial(_finish, k=m.n_raters, model="twoway", type="agreement", unit="single",
                     replicates=False)
    boot = moment_bootstrap(counts, sums, within, finish, n_resamples=n_resamples, rng=0,
                            progress=False)
    low, high = boot.interval(confidence_level=0.95, method="percentile")
    return float(low), float(high)


def measurement_error_rater_squares(m) -> tuple[np.ndarray, np.ndarray]:
    """irr.estimators.measurement_error's per-rater sums of squares of replicates about
    their cell means and their df before (written out there)."""
    counts, sums, _, _, centre = cell_statistics(m)
    k = m.n_raters
    cell = m.subject * k + m.rater
    cell_mean = np.divide(sums, counts, out=np.zeros_like(sums), where=counts > 0)
    deviation = (m.value - centre) - cell_mean.ravel()[cell]
    squares = np.bincount(m.rater, weights=deviation * deviation, minlength=k)
    return squares, counts.sum(axis=0) - (counts > 0).sum(axis=0)


def limits_within_variances(subject: np.ndarray, is_x: np.ndarray, value: np.ndarray,
                            size: int) -> tuple[float, float]:
    """irr.estimators.limits' within-subject variances of the two methods' replicates
    (true value constant) before: raw sums of squares less sum times mean, clipped at 0,
    over the subjects both methods measured."""
    mx = np.bincount(subject[is_x], minlength=size).astype(float)
    my = np.bincount(subject[~is_x], minlength=size).astype(float)
    used = (mx > 0) & (my > 0)
    n = int(used.sum())
    sx = np.bincount(subject[is_x], value[is_x], size)
    sy = np.bincount(subject[~is_x], value[~is_x], size)
    qx = np.bincount(subject[is_x], value[is_x] ** 2, size)
    qy = np.bincount(subject[~is_x], value[~is_x] ** 2, size)
    mx, my, sx, sy, qx, qy = (v[used] for v in (mx, my, sx, sy, qx, qy))
    xbar, ybar = sx / mx, sy / my
    df_x, df_y = float(mx.sum() - n), float(my.sum() - n)
    within_x = float(np.sum(np.maximum(qx - sx * xbar, 0))) / df_x if df_x else 0.0
    within_y = float(np.sum(np.maximum(qy - sy * ybar, 0))) / df_y if df_y else 0.0
    return within_x, within_y


def _bisect_near(lo: np.ndarray, hi: np.ndarray, ok, guess: np.ndarray) -> np.ndarray:
    """irr.inference.error_rate's search before: the bisection started in scipy's quantile
    -+ 4, calling the tail at every step (two calls to check the bracket, one per halving)."""
    from irr.inference.error_rate import _BRACKET, _bisect

    guess = np.where(np.isfinite(guess), guess, lo).astype(np.int64)
    a = np.clip(guess - _BRACKET, lo, hi)
    b = np.clip(guess + _BRACKET, lo, hi)
    valid = ok(b) & ((a == lo) | ~ok(np.maximum(a - 1, lo)))
    return _bisect(np.where(valid, a, lo), np.where(valid, b, hi), ok)


def upper_critical_count(n, epsilon0, alpha) -> np.ndarray:
    """irr.inference.error_rate.upper_critical_count before (its tails called a dozen
    times, once per step of the search)."""
    from irr.inference.error_rate import (
        _EXACT_MAX_N,
        _broadcast,
        _exact_sf_below,
        _near,
        _quantile_guess,
        log_sf,
    )

    n, p, a = _broadcast(n, epsilon0, alpha)
    shape = n.shape
    n, p, a = (np.array(v, ndmin=1) for v in (n, p, a))
    log_a = np.log(a)
    guess = _quantile_guess("isf", a, n, p)
    c = _bisect_near(np.zeros_like(n), n, lambda c: log_sf(c, n, p) < log_a, guess)
    tie = (_near(log_sf(c, n, p), log_a) | _near(log_sf(c - 1, n, p), log_a)) \
        & (n <= _EXACT_MAX_N)
    for i in map(tuple, np.argwhere(tie)):
        ni, pi, ai, ci = int(n[i]), float(p[i]), float(a[i]), int(c[i])
        while ci > 0 and _exact_sf_below(ni, ci - 1, pi, ai):
            ci -= 1
        while ci < ni and not _exact_sf_below(ni, ci, pi, ai):
            ci += 1
        c[i] = ci
    return c.reshape(shape)


def lower_critical_count(n, epsilon0, alpha) -> np.ndarray:
    """irr.inference.error_rate.lower_critical_count before (see upper_critical_count)."""
    from irr.inference.error_rate import (
        _EXACT_MAX_N,
        _broadcast,
        _exact_cdf_below,
        _near,
        _quantile_guess,
        log_cdf,
    )

    n, p, a = _broadcast(n, epsilon0, alpha)
    shape = n.shape
    n, p, a = (np.array(v, ndmin=1) for v in (n, p, a))
    log_a = np.log(a)
    guess = _quantile_guess("ppf", a, n, p)
    c = _bisect_near(np.zeros_like(n), n + 1, lambda c: ~(log_cdf(c, n, p) < log_a),
                     guess) - 1
    tie = (_near(log_cdf(c, n, p), log_a) | _near(log_cdf(c + 1, n, p), log_a)) \
        & (n <= _EXACT_MAX_N)
    for i in map(tuple, np.argwhere(tie)):
        ni, pi, ai, ci = int(n[i]), float(p[i]), float(a[i]), int(c[i])
        while ci < ni and _exact_cdf_below(ni, ci + 1, pi, ai):
            ci += 1
        while ci >= 0 and not _exact_cdf_below(ni, ci, pi, ai):
            ci -= 1
        c[i] = ci
    return c.reshape(shape)


def weighted_kappa(table: np.ndarray, weights: np.ndarray):
    """irr.coefficients.kappa.weighted_kappa before its arithmetic was fused: the
    expressions of kappa_parts (einsums), _fce_variances (both variances, elementwise sums
    over the k x k table), cell_influence (its own 1 - w, margins' weighted means and
    disagreements) and kappa_max (margins of the counts, its own 1 - p_e). Returns the
    fields of WeightedKappa as a tuple."""
    from irr.coefficients.kappa import _kappa_max, is_monge

    counts = np.asarray(table, dtype=float)
    n = counts.sum()
    p = counts / n if n > 0 else np.full(counts.shape, np.nan)
    row, col = p.sum(axis=-1), p.sum(axis=-2)
    disagreement = 1.0 - weights
    identity = bool(np.array_equal(weights, np.eye(len(weights))))
    monge = is_monge(disagreement)
    do = float(np.einsum("...ij,ij->...", p, disagreement))
    de = float(np.einsum("...i,ij,...j->...", row, disagreement, col))
    nan = float("nan")
    if not de > 0:
        return (1.0 - do, 1.0 - de, nan, nan, nan, None, nan)
    expected = 1.0 - de
    row_mean = np.einsum("ij,...j->...i", weights, col)
    col_mean = np.einsum("...i,ij->...j", row, weights)
    both = row_mean[..., :, None] + col_mean[..., None, :]
    spread = (p * (weights * de - both * do) ** 2).sum(axis=(-2, -1))
    var = float((spread - (do * de + de - 2 * do) ** 2) / (n * de**4))
    null_spread = (row[:, None] * col[None, :] * (weights - both) ** 2).sum(axis=(-2, -1))
    var0 = float((null_spread - expected**2) / (n * de**2))
    h = kappa_influence(table, weights)
    row_n, col_n = counts.sum(axis=1), counts.sum(axis=0)
    de_max = float((row_n / n) @ disagreement @ (col_n / n))
    best = (_kappa_max(row_n, col_n, n, weights, disagreement, de_max, identity, monge)
            if de_max > 0 else nan)
    return (1.0 - do, expected, 1.0 - do / de, max(var, 0.0), max(var0, 0.0), h, best)


def northwest_corner(row: np.ndarray, col: np.ndarray, weights: np.ndarray) -> float:
    """irr.coefficients.kappa._northwest_corner before: the distinct breakpoints of the two
    cumulative sums (as np.unique), each segment's cell from its start."""
    row_end, col_end = np.cumsum(row), np.cumsum(col)
    breaks = np.unique(np.concatenate(([0.0], row_end, col_end)))
    start, length = breaks[:-1], np.diff(breaks)
    i = np.searchsorted(row_end, start, side="right")
    j = np.searchsorted(col_end, start, side="right")
    return float(length @ weights[i, j]) / float(row_end[-1])


def missing_tokens(values: pd.Series) -> list[str]:
    """irr._columns.missing_tokens before it parsed the distinct values instead of every
    row (pandas' text columns were converted value by value: a minute at 10^7 rows)."""
    if pd.api.types.is_numeric_dtype(values.dtype) or isinstance(values.dtype,
                                                                 pd.CategoricalDtype):
        return []
    present = values.dropna()
    numbers = pd.to_numeric(present, errors="coerce")
    others = present[numbers.isna()].astype(str)
    tokens = sorted(set(others))
    return tokens if 0 < len(tokens) <= 3 and numbers.notna().sum() > len(others) else []


def pair_count_patterns(table: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """irr._statistics.Statistics.from_pair_counts before: the patterns (code pairs of the
    nonzero cells, row-major) and their multiplicities, by column_stack."""
    k = len(table)
    cells = np.flatnonzero(table)
    patterns = np.column_stack([cells // k, cells % k]).astype(np.int64)
    return patterns, table.ravel()[cells].astype(np.int64)


# -- coefficients on counts before their arrays of P were cut (issue 31, k = 101) --------


def rater_codes(codes: np.ndarray, k: int) -> cc.RaterCodes:
    """irr.coefficients.chance_corrected.rater_codes before: complete rows with an array
    of r_i = m, completeness read from the int64 codes."""
    columns = np.ascontiguousarray(np.asarray(codes).T)
    m, size = columns.shape
    complete = not size or bool(columns.min() >= 0)
    # rater pairs of each row with equal codes (two missing ones, -1 and -1, included),
    # compared in the narrowest integers that hold the codes -1..k-1 (same equalities)
    narrow = (columns.astype(np.int8) if k <= 127 else
              columns.astype(np.int16) if k <= 32767 else columns)
    same = np.zeros(size, dtype=np.int16 if m < 256 else np.int64)
    equal = np.empty(size, dtype=bool)
    for g in range(m - 1):  # a loop over the m(m - 1)/2 pairs of raters (whole columns)
        for h in range(g + 1, m):
            np.equal(narrow[g], narrow[h], out=equal)
            same += equal
    if complete:
        r = np.full(size, float(m))
    else:  # leave out the pairs of missing codes: C(m - r, 2)
        r = (columns >= 0).sum(axis=0).astype(float)
        same = same - (m - r) * (m - r - 1) / 2
    return cc.RaterCodes(columns, r, same, complete, k)  # squares: r + 2 same


def subject_parts(e: cc.CountEntries | cc.RaterCodes, w: np.ndarray):
    """irr.coefficients.chance_corrected._subject_parts before: complete rows of codes on
    the general path (arrays of r, pairs, shares)."""
    r = e.r
    paired = r >= 2
    rated = r >= 1
    pairs = np.where(paired, r * (r - 1), 1.0)
    if isinstance(e, cc.RaterCodes):
        if not cc._is_identity(w):
            raise ValueError("Rows of rater codes (cc.RaterCodes) serve unweighted coefficients "
                             "only; weighted ones take the count cells (CountEntries).")
        # r_i^2 - sum_k r_ik^2 is 0 on a row with fewer than two ratings (pairs 1 there)
        disagreement = r * r
        disagreement -= e.squares
        disagreement /= pairs
        agreement = np.subtract(paired, disagreement)  # 1 - d_i when paired, else 0 - 0
        return r, rated, paired, agreement, np.maximum(r, 1.0), disagreement
    if cc._is_identity(w):
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


def counts_estimate(
    patterns: np.ndarray | cc.CountEntries | cc.RaterCodes, multiplicity: np.ndarray,
    weights: np.ndarray, method: str,
) -> cc.CountsEstimate:
    """irr.coefficients.chance_corrected.counts_estimate before: each linearised term in a
    new array (the same operations, now in place)."""
    e = cc.count_entries(patterns)
    _, rated, paired, agreement, share, disagreement = subject_parts(e, weights)
    c, n, n2 = cc._rated_counts(multiplicity, rated, paired)
    if n2 == 0:
        return cc.CountsEstimate(np.nan, np.nan, np.nan, np.nan, int(n), 0)
    pa = float(cc._dot(c, agreement) / n2)
    k = weights.shape[0]
    pi = cc._category_shares(e, share, c) / n
    scale = n / n2
    if method == "percent":
        star = scale * agreement
        var = cc._linearised_variance(c, star - pa, n)
        return cc.CountsEstimate(pa, pa, 0.0, var, int(n), int(n2), star, pi)
    de = float(cc._expected_disagreement(method, pi, weights))
    pe = 1.0 - de
    if not np.isfinite(de) or not cc._defined(method, de):
        return cc.CountsEstimate(np.nan, pa, pe, np.nan, int(n), int(n2), shares=pi)
    do = float(cc._dot(c, disagreement) / n2)
    kappa = 1.0 - do / de
    # (a_i - p_e [r_i >= 2]) / (1 - p_e) in disagreement form: [r_i >= 2] - dis_i / d_e
    kappa_i = disagreement / de
    np.subtract(paired, kappa_i, out=kappa_i)
    kappa_i *= scale
    if method == "fleiss":
        # p_e|i - p_e = d_e - sum_k share_ik dbar_k (the shares of a rated subject sum to 1)
        dbar = (cc._others(pi) if cc._is_identity(weights)
                else (cc._dot(1.0 - weights, pi) + cc._dot((1.0 - weights).T, pi)) / 2)
        pe_shift = np.subtract(de, cc._share_sums(e, share, dbar))
    elif method == "gwet":
        pe_shift = weights.sum() / (k * (k - 1)) * cc._share_sums(e, share, 1 - pi)
        pe_shift -= pe
    else:
        pe_shift = np.zeros(len(c))
    # kappa*_i = kappa_i - 2 (1 - kappa) shift_i / d_e, in place (one P-vector at a time)
    pe_shift *= 2 * (1 - kappa)
    pe_shift /= de
    star = kappa_i
    star -= pe_shift
    var = cc._linearised_variance(c, star - kappa, n)
    return cc.CountsEstimate(kappa, pa, pe, var, int(n), int(n2), star, pi)


def fleiss_null_variance(
    patterns: np.ndarray | cc.CountEntries | cc.RaterCodes, multiplicity: np.ndarray,
    shares: np.ndarray | None = None,
) -> tuple[float, np.ndarray]:
    """irr.coefficients.chance_corrected.fleiss_null_variance before: complete rows of
    codes on the general path (copies of the multiplicities and ratings)."""
    e = cc.count_entries(patterns)
    c = np.asarray(multiplicity, dtype=float)
    r, k = e.r, e.k
    keep = (c > 0) & (r >= 1)
    kept = r[keep]
    if not kept.size or kept.min() != kept.max() or kept[0] < 2:
        return np.nan, np.full(k, np.nan)
    m = float(kept[0])
    n = c[keep].sum()
    if shares is not None:  # sum_i c_i r_ij = m sum_i c_i r_ij / r_i = m n pi_j
        p = np.asarray(shares, dtype=float)
        q = cc._others(p)  # 1 - p_j as the other shares' sum: no cancellation near p_j = 1
        return cc._null_variances(p, q, n, m)
    if isinstance(e, cc.RaterCodes):
        category_totals = e.by_category(np.where(keep, c, 0.0))
    else:
        category_totals = np.bincount(e.category, minlength=k,
                                      weights=np.where(keep, c, 0.0)[e.row] * e.count)
    p = category_totals / (n * m)
    # q_j = 1 - p_j from the other categories' counts: no cancellation when p_j is near 1
    q = (category_totals.sum() - category_totals) / (n * m)
    return cc._null_variances(p, q, n, m)


def conger_estimate(
    codes: np.ndarray | cc.CodeEntries | None, multiplicity: np.ndarray, weights: np.ndarray,
    counts: cc.CountEntries | cc.RaterCodes | None = None,
) -> cc.CountsEstimate:
    """irr.coefficients.chance_corrected.conger_estimate before: each linearised term in a
    new array (the same operations, now in place)."""
    k = weights.shape[0]
    dense = counts if isinstance(counts, cc.RaterCodes) else None
    e = None if dense is not None else cc.code_entries(codes)
    m = len(dense.columns) if dense is not None else e.n_raters
    counts = cc._entry_counts(e, k) if counts is None else counts
    _, rated, paired, agreement, _, disagreement = subject_parts(counts, weights)
    c, n, n2 = cc._rated_counts(multiplicity, rated, paired)
    if n2 == 0:
        return cc.CountsEstimate(np.nan, np.nan, np.nan, np.nan, int(n), 0)
    pa = float(cc._dot(c, agreement) / n2)
    if dense is not None:  # one bincount per rater
        per_rater = dense.by_rater(c)
    else:
        per_rater = np.bincount(e.rater * k + e.code, weights=c[e.row],
                                minlength=m * k).reshape(m, k)
    n_g = per_rater.sum(axis=1)
    with np.errstate(invalid="ignore", divide="ignore"):
        p = per_rater / n_g[:, None]
    if not (n_g > 0).all():
        return cc.CountsEstimate(np.nan, pa, np.nan, np.nan, int(n), int(n2))
    dis_w = 1.0 - weights
    de = float(cc._conger_chance(p, dis_w))
    pe = 1.0 - de
    if not de > 0:
        return cc.CountsEstimate(np.nan, pa, pe, np.nan, int(n), int(n2))
    kappa = 1.0 - float(cc._dot(c, disagreement) / n2) / de
    scale = n / n2
    kappa_i = disagreement / de
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
        influence = -dense.at_rater_codes(terms) / (m * (m - 1))
    else:
        term = (n / n_g[e.rater]) * (v[e.rater, e.code] - (p * v).sum(axis=1)[e.rater])
        influence = -np.bincount(e.row, weights=term, minlength=e.n_patterns) / (m * (m - 1))
    star = kappa_i - (1 - kappa) * influence / de
    var = cc._linearised_variance(c, star - kappa, n)
    return cc.CountsEstimate(kappa, pa, pe, var, int(n), int(n2))


def deming_jackknife(x: np.ndarray, y: np.ndarray, error_ratio: float
                     ) -> tuple[np.ndarray, np.ndarray, float, float]:
    """irr.coefficients.method_regression.deming_jackknife before (the leave-one-out
    sums in place, the root by np.hypot), with the jackknife standard errors
    irr.estimators.method_regression.deming computed from its slopes and intercepts."""
    n = x.size
    mx, my = x.mean(), y.mean()
    xc, yc = x - mx, y - my
    shrink = n / (n - 1)
    lam = float(error_ratio)
    sxx = xc * xc
    sxx *= -shrink
    sxx += xc @ xc
    syy = yc * yc
    syy *= -shrink
    syy += yc @ yc
    sxy = xc * yc
    sxy *= -shrink
    sxy += xc @ yc
    d = syy
    d *= lam
    d -= sxx
    root = np.multiply(sxy, 2 * np.sqrt(lam), out=sxx)
    np.hypot(d, root, out=root)
    with np.errstate(divide="ignore", invalid="ignore"):
        if np.all(d >= 0):
            slopes = d + root
            slopes /= sxy
            slopes /= 2 * lam
        else:
            slopes = root - d
            np.divide(2 * sxy, slopes, out=slopes)
            up = d >= 0
            if up.any():
                slopes[up] = (d[up] + root[up]) / (2 * lam * sxy[up])
    slopes[sxy == 0] = np.nan
    intercepts = xc / -(n - 1)
    intercepts += mx
    intercepts *= slopes
    np.subtract(my - yc / (n - 1), intercepts, out=intercepts)
    scale = (n - 1) / n
    se_s = float(np.sqrt(scale * ((slopes - slopes.mean()) ** 2).sum()))
    se_i = float(np.sqrt(scale * ((intercepts - intercepts.mean()) ** 2).sum()))
    return slopes, intercepts, se_s, se_i


# -- the continuity rule before its integer labels were counted without np.unique --------


def continuity(values) -> str:
    """irr._columns.continuity before: every label as a float, distinct ones by np.unique."""
    if isinstance(values, pd.Index | np.ndarray) and values.dtype.kind in "iuf":
        numbers = np.asarray(values, dtype=float)
        numbers = numbers[np.isfinite(numbers)]
    else:
        series = (values if isinstance(values, pd.Series)
                  else pd.Series(list(values), dtype=object))
        numbers = _numbers(series)
    fractional = numbers[numbers != np.round(numbers)]
    if fractional.size:
        return f"non-integer values such as {fractional[0]:g}"
    distinct = np.unique(numbers).size
    if distinct > MAX_CATEGORIES:
        return f"{distinct} distinct values, more than {MAX_CATEGORIES}"
    return ""


def column_missing(column: np.ndarray, label: str) -> np.ndarray | None:
    """irr._measurements.Measurements._of_columns's check of one column before (one sum:
    finite means no nan and no infinity): the column's nan mask (None when it has none),
    or the ValueError naming `label` of an infinite value."""
    from irr._data import preview

    with np.errstate(over="ignore", invalid="ignore"):
        total = np.add.reduce(column)
    if np.isfinite(total):
        return None
    infinite = np.isinf(column)
    if infinite.any():
        raise ValueError(f"{label} holds infinite values: {preview(column[infinite])} "
                         "(measurements must be finite; nan marks a missing one).")
    nan = np.isnan(column)
    return nan if nan.any() else None


def check_magnitude(arrays: list[np.ndarray], what: str) -> None:
    """irr._measurements.Measurements.check_magnitude before (fmin and fmax of every
    column, on every call)."""
    largest, finest = 2.0**332, 2.0**-332
    arrays = [a for a in arrays if a.size]
    lows = [float(np.fmin.reduce(a, axis=None)) for a in arrays]
    highs = [float(np.fmax.reduce(a, axis=None)) for a in arrays]
    lows, highs = [v for v in lows if v == v], [v for v in highs if v == v]
    if not lows:
        return
    low, high = min(lows), max(highs)
    top = max(abs(low), abs(high))
    spread = high - low
    if top > largest or 0 < spread < finest:
        raise ValueError(
            f"{what} needs measurements between 1e-100 and 1e100 in size and spread; "
            f"these reach {top:.3g} with a range of {spread:.3g}, where sums of squares "
            "overflow or underflow. Express them in other units (multiply or divide by "
            "a power of ten) and convert the result back.")


# -- Deming's fit before its passes were cut (issue 31, deming at 10^5) ---------------------


class PreviousDemingFit(NamedTuple):
    """irr.coefficients.method_regression.DemingFit before the leave-one-out intercepts
    were left to deming_jackknife_intercepts."""

    slope: float
    intercept: float
    slopes: np.ndarray
    intercepts: np.ndarray
    se_slope: float
    se_intercept: float


def deming_fit(x: np.ndarray, y: np.ndarray, error_ratio: float) -> PreviousDemingFit:
    """irr.coefficients.method_regression.deming_fit before its leave-one-out sums were
    formed from the centred data times -1/(n - 1) (which the intercepts reuse) and its
    standard errors' sums of squares as dot products: about 30 passes over n-vectors."""
    n = x.size
    lam = float(error_ratio)
    mx, my = np.add.reduce(x) / n, np.add.reduce(y) / n  # x.mean(), y.mean()
    work = np.empty((4, n))  # the four n-vectors in one allocation
    u, v, w, d = work
    np.subtract(x, mx, out=u)
    np.subtract(y, my, out=v)
    sxx, syy, sxy = u @ u, v @ v, u @ v
    slope = float(mr.deming_slope(sxx, syy, sxy, lam))
    intercept = float(my - slope * mx)
    top = lam * syy + sxx
    s = math.ldexp(1.0, -math.frexp(top)[1]) if 0 < top < math.inf else 1.0
    c = n / (n - 1)
    out = np.empty((2, n))
    slopes, intercepts = out
    np.multiply(u, v, out=w)
    w *= -2 * math.sqrt(lam) * s * c
    w += 2 * math.sqrt(lam) * s * sxy  # s w
    np.multiply(v, v, out=d)
    if lam != 1.0:
        d *= lam
    np.multiply(u, u, out=slopes)
    np.subtract(slopes, d, out=d)
    d *= s * c
    d += (lam * syy - sxx) * s  # s d
    root = slopes
    np.multiply(d, d, out=root)
    np.multiply(w, w, out=intercepts)
    root += intercepts
    np.sqrt(root, out=root)
    # the branches are equal in exact arithmetic: (d + root) (root - d) = w**2
    with np.errstate(divide="ignore", invalid="ignore"):
        if d.max() < 0:
            root -= d
            np.divide(w, root, out=slopes)
        elif d.min() >= 0:
            root += d
            np.divide(root, w, out=slopes)
        else:
            up = d >= 0
            root_up = root[up]
            root -= d
            np.divide(w, root, out=slopes)
            slopes[up] = (d[up] + root_up) / w[up]
        if lam != 1.0:
            slopes /= math.sqrt(lam)
    if not w.all():
        slopes[w == 0] = np.nan
    # intercepts: the means without point i are mean - centred_i / (n - 1)
    np.multiply(u, -1.0 / (n - 1), out=intercepts)
    intercepts += mx
    intercepts *= slopes
    np.multiply(v, -1.0 / (n - 1), out=d)
    d += my
    np.subtract(d, intercepts, out=intercepts)
    deviations = work[:2]
    np.subtract(out, np.add.reduce(out, axis=1, keepdims=True) / n, out=deviations)
    deviations *= deviations
    se_slope, se_intercept = np.sqrt((n - 1) / n * np.add.reduce(deviations, axis=1)).tolist()
    return PreviousDemingFit(slope, intercept, slopes, intercepts, se_slope, se_intercept)


def sorted_distinct_rows(codes, bits: int) -> tuple[np.ndarray, np.ndarray]:
    """irr._statistics._sorted_distinct_rows, the path of every unweighted row of at most
    62 bits before rows of k <= 255 and m <= 7 took one byte per code: keys by Horner's
    rule in int64 (a multiply and a mixed-type add per rater), code + 1 decoded by a
    shift, a mask and a subtraction per rater."""
    m, n = len(codes), len(codes[0])
    keys = codes[0].astype(np.int64)
    for column in codes[1:]:
        keys *= 1 << bits
        keys += column
    keys += sum(1 << (bits * j) for j in range(m))
    keys.sort()
    new = np.empty(n, dtype=bool)
    new[:1] = True
    np.not_equal(keys[1:], keys[:-1], out=new[1:])
    starts = np.flatnonzero(new)
    multiplicity = np.empty(len(starts), dtype=np.int64)
    np.subtract(starts[1:], starts[:-1], out=multiplicity[:-1])
    multiplicity[-1:] = n - starts[-1:]
    distinct = np.take(keys, starts)
    columns = np.empty((m, len(distinct)), dtype=np.int64)
    for j, column in enumerate(columns):
        np.right_shift(distinct, bits * (m - 1 - j), out=column)
        column &= (1 << bits) - 1
        column -= 1
    return columns.T, multiplicity


def pair_agreements(codes: np.ndarray, k: int) -> np.ndarray:
    """The pairwise equality counts of irr.coefficients.chance_corrected.rater_codes before
    (``RaterCodes.same``): each pair's booleans added into int16 (a cast on every pass)."""
    columns = np.ascontiguousarray(np.asarray(codes).T)
    m, size = columns.shape
    narrow = (columns.astype(np.int8) if k <= 127 else
              columns.astype(np.int16) if k <= 32767 else columns)
    same = np.zeros(size, dtype=np.int16 if m < 256 else np.int64)
    equal = np.empty(size, dtype=bool)
    for g in range(m - 1):
        for h in range(g + 1, m):
            np.equal(narrow[g], narrow[h], out=equal)
            same += equal
    return same


def others(pi: np.ndarray) -> np.ndarray:
    """irr.coefficients.chance_corrected._others before (every shape): exclusive cumulative
    sums from both ends, concatenated with zeros."""
    zero = np.zeros((*pi.shape[:-1], 1))
    before = np.concatenate([zero, np.cumsum(pi[..., :-1], axis=-1)], axis=-1)
    after = np.concatenate([np.cumsum(pi[..., :0:-1], axis=-1)[..., ::-1], zero], axis=-1)
    return before + after

def long_measurements(df: pd.DataFrame, subject, rater, rating, continuous=None):
    """irr._source.Source.from_long's continuous measurements before the cell layout (long
    data in cell order read without coding their labels): every label coded
    (irr._long.long_ratings), nan rows dropped, then irr._measurements.Measurements of the
    codes; None for categories."""
    from irr._long import long_ratings
    from irr._measurements import Measurements
    from irr._source import continuous_columns

    long = long_ratings(df, subject, rater, rating, replicates=True)
    reals = continuous_columns([long.ratings], ["rating"], None, continuous)
    if reals is None:
        return None
    keep = ~np.isnan(reals[0])
    return Measurements(long.subject[keep], long.rater[keep], reals[0][keep],
                        tuple(long.raters), long.subjects)


def plan_multiplicity(stats) -> np.ndarray:
    """irr.inference.plan.ResamplingPlan.for_statistics' multiplicity before it looked for
    patterns with no rating only where a subject misses one: every pattern's count of
    ratings compared with 0."""
    multiplicity = stats.multiplicity
    empty = stats.ratings_per_pattern == 0
    if empty.any():
        multiplicity = np.where(empty, 0, multiplicity)
    return multiplicity


def split_integer_array(array: np.ndarray) -> tuple[list[np.ndarray], tuple[int, int]]:
    """irr._long.split_array's integer branch before: the min and max of the wide values,
    the type that holds both, the cast copy transposed to contiguous columns."""
    lo, hi = array.min(), array.max()
    small = np.result_type(np.min_scalar_type(lo), np.min_scalar_type(hi))
    return list(np.ascontiguousarray(array.astype(small, copy=False).T)), (int(lo), int(hi))


# -- the column rule (irr._columns.choose_columns) before it ran on numpy columns ----------
# its helpers on pandas Series, and irr._data.decimal_text before it parsed text without
# pandas: the code as it stood, with `looks_continuous` written as `continuity` above


_PREFIX = 1024


def _kind(column: pd.Series) -> str:
    """'number', 'string', 'bool', 'empty' or 'other': the type of a column's labels."""
    values = column
    if not may_hold_missing(column.dtype):
        # numpy integers or booleans: what infer_dtype would say, without
        # its passes over the values (a frame of thousands of rater columns asks per column)
        return "empty" if column.empty else "bool" if column.dtype.kind == "b" else "number"
    if not (column.iloc[:_PREFIX].notna().any() or column.notna().any()):
        return "empty"
    if isinstance(column.dtype, pd.CategoricalDtype):
        values = pd.Series(column.cat.categories)
    inferred = pd.api.types.infer_dtype(values, skipna=True)
    if inferred == "empty":
        return "empty"
    if inferred in ("integer", "floating", "mixed-integer-float", "decimal"):
        return "number"
    if inferred == "boolean":
        return "bool"
    if inferred == "string":
        return "string"
    return "other"


def _numbers(column: pd.Series) -> np.ndarray:
    """The finite values of a numeric column (a categorical's levels) as float64; empty
    when the column is not numeric."""
    if _kind(column) != "number":
        return np.zeros(0)
    if isinstance(column.dtype, np.dtype) and column.dtype.kind in "iuf":
        numbers = column.to_numpy(dtype=float)  # numpy numbers: no missing but nan
        return numbers[np.isfinite(numbers)]
    categorical = isinstance(column.dtype, pd.CategoricalDtype)
    values = column.cat.categories if categorical else column.dropna()
    numbers = np.asarray(pd.to_numeric(pd.Series(values), errors="coerce"), dtype=float)
    return numbers[np.isfinite(numbers)]


def _prefix_repeats(column: pd.Series) -> tuple[bool, bool]:
    """Whether the first :data:`_PREFIX` values of `column` repeat a value, and whether
    they hold two different values (missing values count as one value)."""
    distinct = column.iloc[:_PREFIX].nunique(dropna=False)
    return distinct < min(len(column), _PREFIX), distinct > 1


def _unique_id(column: pd.Series) -> bool:
    """Every value present and distinct, integers or strings, in more rows than a category
    scale has levels (identifiers)."""
    n = len(column)
    if n <= MAX_CATEGORIES or _prefix_repeats(column)[0]:
        return False
    kind = _kind(column)
    if kind not in ("string", "number") or (kind == "number" and _fractional(column)):
        return False  # decimals are measurements, never identifiers (and not hashed)
    if column.isna().any():
        return False
    return bool(column.nunique(dropna=False) == n)


def _numpy_numbers(column: pd.Series) -> bool:
    return isinstance(column.dtype, np.dtype) and column.dtype.kind in "iuf"


def _fractional(column: pd.Series) -> bool:
    """Whether a column holds a non-integer number (numpy numbers: the first rows first,
    which settle it for measurements without a pass over the column)."""
    if _numpy_numbers(column) and len(column) > _PREFIX:
        head = _numbers(column.iloc[:_PREFIX])
        if (head != np.round(head)).any():
            return True
    numbers = _numbers(column)
    return bool((numbers != np.round(numbers)).any())


def _finite_range(column: pd.Series) -> tuple[float, float] | None:
    """(min, max) of a numeric column's finite values (None when it has none); numpy
    floats without nan or infinity are read in place."""
    if _numpy_numbers(column) and column.dtype.kind == "f":
        values = column.to_numpy()
        with np.errstate(over="ignore", invalid="ignore"):
            total = np.add.reduce(values)
        if np.isfinite(total):
            return (float(values.min()), float(values.max())) if values.size else None
    numbers = _numbers(column)
    return (float(numbers.min()), float(numbers.max())) if numbers.size else None


def choose_columns(
    df: pd.DataFrame,
    raters: Sequence[Any] | None = None,
    id: Any = None,
    exclude: Sequence[Any] = (),
    *,
    raters_option: str = "raters=",
    id_option: str = "id=",
) -> ColumnChoice:
    """The rating columns of `df` (see the module docstring for the rule).

    Parameters
    ----------
    df : DataFrame
    raters : sequence of column labels, optional
        The rating columns; when given they are used as they are.
    id : column label or sequence of them, optional
        Identifier columns: never ratings.
    exclude : sequence of column labels
        Other columns that are not ratings (frequency weights).
    raters_option, id_option : str
        How the caller's options are spelled in messages (``--raters`` on the CLI).

    Examples
    --------
    >>> import pandas as pd
    >>> df = pd.DataFrame({"case": ["a", "b", "c", "d"], "r1": [1, 2, 2, 1],
    ...                    "r2": [1, 2, 1, 1]})
    >>> choice = choose_columns(df)
    >>> choice.raters, choice.ids, choice.reasons["case"]
    (('r1', 'r2'), ('case',), 'its name')
    """
    ids = _id_list(id, df, id_option)
    if raters is not None:
        both = [r for r in raters if r in ids]
        if both:
            raise ValueError(
                f"`{raters_option.rstrip('=')}` and `{id_option.rstrip('=')}` share columns: "
                f"{both!r}."
            )
        return ColumnChoice(tuple(raters), tuple(ids), dict.fromkeys(ids, "named"))
    if ids:  # the caller named the identifiers: every other column is a rating
        return ColumnChoice(tuple(c for c in df.columns if c not in ids and c not in
                                  set(exclude)), tuple(ids), dict.fromkeys(ids, "named"))
    reasons: dict[Any, str] = dict.fromkeys(ids, "named")
    candidates = [c for c in df.columns if c not in ids and c not in set(exclude)]

    def set_aside(columns: list[Any], why: str) -> None:
        for c in columns:
            reasons[c] = why
        candidates[:] = [c for c in candidates if c not in columns]

    set_aside([c for c in candidates if _named_as_id(c)], "its name")
    kinds = {c: _kind(df[c]) for c in candidates}
    present = [k for k in kinds.values() if k not in ("empty", "other")]
    if present:
        tally = pd.Series(present).value_counts(sort=True)
        top = tally.index[0]
        if len(tally) > 1 and tally.iloc[0] == tally.iloc[1]:
            raise ValueError(
                f"Cannot tell the rating columns from identifiers: the columns "
                f"{candidates!r} hold labels of different types "
                f"({', '.join(f'{c!r}: {k}' for c, k in kinds.items())}). Name the rating "
                f"columns with {raters_option} or the identifier columns with {id_option}."
            )
        for c in [c for c in candidates if kinds[c] not in (top, "empty", "other")]:
            set_aside([c], f"{kinds[c]} labels among {top} ratings")
    unique = [c for c in candidates if _unique_id(df[c])]
    others = [c for c in candidates if c not in unique]
    if unique and len(others) >= 2:
        repeat = all(
            df[c].nunique(dropna=True) < df[c].notna().sum() and not continuity(df[c])
            for c in others
        )
        decimals = all(_fractional(df[c]) for c in others)
        if repeat or decimals:
            set_aside(unique, "a distinct value in every row")
    # (rules 5-7 set a column aside only while more than two candidates remain)
    for c, why in (_foreign_columns(df, candidates) if len(candidates) > 2 else {}).items():
        if len(candidates) > 2:
            set_aside([c], why)
    if len(candidates) < 2:
        raise ValueError(
            f"Cannot find two rating columns in {list(df.columns)!r}: "
            f"{', '.join(f'{c!r} ({why})' for c, why in reasons.items())} look like "
            f"identifiers. Name the rating columns with {raters_option} (and the identifiers "
            f"with {id_option})."
        )
    aside = tuple(c for c in df.columns if c in reasons)
    return ColumnChoice(tuple(candidates), aside, reasons,
                        tuple(c for c in aside if c not in ids))


def _integers(column: pd.Series) -> np.ndarray | None:
    """The values of a numeric column with every value present and integral, as float64
    (exact for identifiers below 2**53); None otherwise."""
    if column.isna().any() or _kind(column) != "number":
        return None
    numbers = _numbers(column)
    if len(numbers) != len(column) or (numbers != np.round(numbers)).any():
        return None
    return numbers


def _distinct_or_constant(column: pd.Series) -> str:
    """"distinct" (a different value in every row), "constant" (one value in every row,
    more than one row) or "" for a column with every value present."""
    n = len(column)
    kind = "" if n < 2 else _kind(column)
    if kind not in ("number", "string", "bool"):
        return ""
    if all(_prefix_repeats(column)):  # neither distinct nor constant
        return ""
    if kind == "number" and _fractional(column):
        return ""  # decimals: measurements, never identifiers (rules 5-7)
    if column.isna().any():
        return ""
    distinct = column.nunique(dropna=False)
    return "distinct" if distinct == n else "constant" if distinct == 1 else ""


def _foreign_columns(df: pd.DataFrame, candidates: list[Any]) -> dict[Any, str]:
    """Rules 5-7 of the module docstring: identifier-like columns (distinct or constant)
    whose values are foreign to the other columns', with the reason for each."""
    found: dict[Any, str] = {}
    shape = {c: _distinct_or_constant(df[c]) for c in candidates}
    numeric = {c: _finite_range(df[c]) for c in candidates if _kind(df[c]) == "number"}
    ranges = {c: v for c, v in numeric.items() if v is not None}
    # rule 5: group the numeric ranges; a distinct-integer or constant column outside the
    # largest group lies far from the ratings
    groups: list[list[Any]] = []
    bounds: list[list[float]] = []
    for c in sorted(ranges, key=lambda c: ranges[c]):
        lo, hi = ranges[c]
        if groups:
            g_lo, g_hi = bounds[-1]
            width = g_hi - g_lo
            gap = lo - g_hi
            if gap <= max(width if hi == lo else min(width, hi - lo), 1):
                groups[-1].append(c)
                bounds[-1][1] = max(g_hi, hi)
                continue
        groups.append([c])
        bounds.append([lo, hi])
    sizes = sorted((len(g) for g in groups), reverse=True)
    if len(groups) > 1 and sizes[0] > sizes[1]:
        main = max(range(len(groups)), key=lambda i: len(groups[i]))
        m_lo, m_hi = bounds[main]
        outside = [c for i, group in enumerate(groups) if i != main for c in group]
        for c in outside:
            integral = _integers(df[c]) is not None
            # decimals are measurements, never identifiers
            if shape[c] in ("distinct", "constant") and integral:
                lo, hi = ranges[c]
                values = f"{lo:g}" if lo == hi else f"{lo:g}..{hi:g}"
                found[c] = (f"values {values} far from the range {m_lo:g}..{m_hi:g} of "
                            "the other numeric columns")
    # rule 6: a run of consecutive integers, one per row, when no other column is one
    runs = []
    for c in candidates:
        values = _integers(df[c]) if shape[c] == "distinct" else None
        if values is not None and len(values) > MAX_CATEGORIES and (
                values.max() - values.min() == len(values) - 1):
            runs.append(c)
    if len(runs) == 1 and runs[0] not in found:
        lo, hi = ranges[runs[0]]
        found[runs[0]] = f"consecutive numbers {lo:g}..{hi:g}, one per row"
    # rule 7: one label, or a distinct label per row, that no other column uses
    for c in candidates:
        if not shape[c] or _kind(df[c]) != "string":
            continue  # numbers: rule 5 decides by range
        if shape[c] == "distinct" and decimal_text(df[c]) is not None:
            continue  # decimals written as text are measurements, never identifiers
        others = [o for o in candidates if o != c and o not in found]
        if len(others) < 2:
            continue
        used = pd.unique(pd.concat([df[o] for o in others], ignore_index=True).dropna())
        if not pd.Series(df[c].unique()).isin(used).any():
            what = (f"the label {df[c].iloc[0]!r} in every row" if shape[c] == "constant"
                    else "a distinct label in every row")
            found[c] = f"{what}, used by no other column"
    return found


def _id_list(id: Any, df: pd.DataFrame, id_option: str) -> list[Any]:
    if id is None:
        return []
    ids = list(id) if isinstance(id, (list, tuple)) else [id]
    unknown = [c for c in ids if c not in df.columns]
    if unknown:
        raise ValueError(
            f"`{id_option.rstrip('=')}` names columns not in the data: {unknown!r}; columns are "
            f"{list(df.columns)!r}."
        )
    return ids


def decimal_text(values: Any) -> np.ndarray | None:
    """irr._data.decimal_text before: text parsed by pd.to_numeric, distinct texts found by
    pd.factorize."""
    if isinstance(getattr(values, "dtype", None), pd.StringDtype):
        # pandas' text columns: labels fail on the first values, read without converting
        # the column to Python objects
        first = values.iloc if isinstance(values, pd.Series) else values
        head = pd.Series(first[:4 * 64]).dropna()[:64]
        if head.size and not np.isfinite(np.asarray(
                pd.to_numeric(head, errors="coerce"), dtype=float)).all():
            return None
    array = _data.as_1d(values, "values")
    if isinstance(array, pd.Categorical) or array.dtype.kind not in "OU" or not array.size:
        return None
    missing = np.asarray(pd.isna(array), dtype=bool)
    present = array[~missing]
    head = present[:64]  # labels fail on the first values, before any hashing
    if not head.size or not all(isinstance(v, str) for v in head) or not np.isfinite(
            np.asarray(pd.to_numeric(pd.Series(head), errors="coerce"), dtype=float)).all():
        return None
    codes, distinct = pd.factorize(present)  # each distinct text parsed once
    if not all(isinstance(v, str) for v in distinct):
        return None
    numbers = np.asarray(pd.to_numeric(pd.Series(distinct), errors="coerce"), dtype=float)
    if not np.isfinite(numbers).all() or not (numbers != np.round(numbers)).any():
        return None
    out = np.full(array.shape, np.nan)
    out[~missing] = numbers[codes]
    return out
