"""Previous forms of kernels rewritten for speed (issue 31), kept as reference
implementations: each test in tests/unit compares the new kernel with its previous form on
random data. They are the code as it stood before the rewrite, not used by the package."""

from __future__ import annotations

import numpy as np
import pandas as pd


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
