"""Issue #17, many categories: the rewritten kernels against their previous forms.

The coefficients on counts now work on the nonzero cells of the count rows
(:class:`irr.coefficients.chance_corrected.CountEntries`), Light's kappa without
(co-ratings x k) or P x m x k arrays, and the distinct count rows come from one integer
key per row. Each is checked here against a copy of the function it replaced (dense
P x k arithmetic) or a straightforward pair-by-pair implementation, on random data with
one category, missing ratings, subjects with no or one rating, ties and weights: to 1e-12,
or exactly where the old code was exact (the count patterns, their order and counts).
"""

from __future__ import annotations

import warnings

import numpy as np
import pytest

import irr
import irr._source
from irr.coefficients import chance_corrected as cc
from irr.estimators import chance_corrected as ecc

METHODS = ("fleiss", "gwet", "brennan_prediger", "percent")


# -- the previous (dense) forms, copied from the code before issue #17 -------------------
def _old_is_identity(w):
    return np.count_nonzero(w) == w.shape[0] and bool((np.diagonal(w) == 1).all())


def _old_others(pi):
    zero = np.zeros((*pi.shape[:-1], 1))
    before = np.concatenate([zero, np.cumsum(pi[..., :-1], axis=-1)], axis=-1)
    after = np.concatenate([np.cumsum(pi[..., :0:-1], axis=-1)[..., ::-1], zero], axis=-1)
    return before + after


def _old_subject_parts(patterns, w):
    patterns = np.asarray(patterns, dtype=float)
    r = patterns.sum(axis=1)
    paired, rated = r >= 2, r >= 1
    pairs = np.where(paired, r * (r - 1), 1.0)
    if _old_is_identity(w):
        cross = r * r - np.einsum("pk,pk->p", patterns, patterns)
    else:
        cross = (patterns * (patterns @ (1.0 - w).T)).sum(axis=1)
    disagreement = np.where(paired, cross / pairs, 0.0)
    agreement = np.where(paired, 1.0 - disagreement, 0.0)
    share = patterns / np.where(rated, r, 1.0)[:, None]
    return r, rated, paired, agreement, share, disagreement


def _old_chance(method, pi, w):
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


def _old_expected_disagreement(method, pi, w):
    if method == "fleiss":
        if _old_is_identity(w):
            return (pi * _old_others(pi)).sum(axis=-1)
        return np.einsum("...k,kl,...l->...", pi, 1.0 - w, pi)
    return 1.0 - _old_chance(method, pi, w)


def _old_defined(method, de):
    return de > 0 if method in ("fleiss", "conger") else de > 1e-13


def _old_counts_kernel(patterns, batch, weights, method):
    batch = np.atleast_2d(np.asarray(batch, dtype=float))
    _, rated, paired, agreement, share, disagreement = _old_subject_parts(patterns, weights)
    n, n2 = batch @ rated, batch @ paired
    with np.errstate(invalid="ignore", divide="ignore"):
        pa = (batch @ agreement) / n2
        do = (batch @ disagreement) / n2
        pi = (batch @ share) / n[:, None]
        if method == "percent":
            return pa
        de = _old_expected_disagreement(method, pi, weights)
        return np.where(_old_defined(method, de), 1.0 - do / de, np.nan)


def _old_counts_estimate(patterns, multiplicity, weights, method):
    _, rated, paired, agreement, share, disagreement = _old_subject_parts(patterns, weights)
    c = np.where(rated, np.asarray(multiplicity, dtype=float), 0.0)
    n, n2 = c.sum(), (c * paired).sum()
    nan = np.nan
    if n2 == 0:
        return (nan, nan, nan, nan, int(n), 0)

    def variance(deviation):
        return float(c @ deviation**2 / (n * (n - 1))) if n > 1 else nan

    pa = float(c @ agreement / n2)
    pi = c @ share / n
    scale = n / n2
    if method == "percent":
        return (pa, pa, 0.0, variance(scale * agreement - pa), int(n), int(n2))
    k = weights.shape[0]
    de = float(_old_expected_disagreement(method, pi, weights))
    pe = 1.0 - de
    if not np.isfinite(de) or not _old_defined(method, de):
        return (nan, pa, pe, nan, int(n), int(n2))
    do = float(c @ disagreement / n2)
    kappa = 1.0 - do / de
    kappa_i = scale * (paired - disagreement / de)
    if method == "fleiss":
        dbar = (_old_others(pi) if _old_is_identity(weights)
                else ((1.0 - weights) @ pi + (1.0 - weights).T @ pi) / 2)
        pe_shift = de - share @ dbar
    elif method == "gwet":
        pe_shift = weights.sum() / (k * (k - 1)) * (share @ (1 - pi)) - pe
    else:
        pe_shift = np.zeros(len(c))
    star = kappa_i - 2 * (1 - kappa) * pe_shift / de
    return (kappa, pa, pe, variance(star - kappa), int(n), int(n2))


def _old_fleiss_category_kappas(patterns, multiplicity):
    x = np.asarray(patterns, dtype=float)
    r = x.sum(axis=1)
    paired, rated = r >= 2, r >= 1
    c = np.where(rated, np.asarray(multiplicity, dtype=float), 0.0)
    n, n2 = c.sum(), (c * paired).sum()
    k = x.shape[1]
    if n2 == 0:
        return np.full(k, np.nan), np.full(k, np.nan)
    rest = r[:, None] - x
    pairs = np.where(paired, r * (r - 1), 1.0)[:, None]
    disagreement = np.where(paired[:, None], 2 * x * rest / pairs, 0.0)
    safe_r = np.where(rated, r, 1.0)[:, None]
    share, share_rest = x / safe_r, rest / safe_r
    p, q = c @ share / n, c @ share_rest / n
    de = 2 * p * q
    with np.errstate(invalid="ignore", divide="ignore"):
        kappa = np.where(de > 0, 1.0 - (c @ disagreement / n2) / de, np.nan)
        kappa_i = (n / n2) * (paired[:, None] - disagreement / de)
        pe_shift = de - (share * q + share_rest * p)
        star = kappa_i - 2 * (1 - kappa) * pe_shift / de
        variance = (c @ (star - kappa) ** 2 / (n * (n - 1)) if n > 1
                    else np.full(k, np.nan))
    return kappa, np.where(de > 0, variance, np.nan)


def _old_fleiss_null_variance(patterns, multiplicity):
    patterns = np.asarray(patterns, dtype=float)
    c = np.asarray(multiplicity, dtype=float)
    r = patterns.sum(axis=1)
    keep = (c > 0) & (r >= 1)
    k = patterns.shape[1]
    sizes = np.unique(r[keep])
    if len(sizes) != 1 or sizes[0] < 2:
        return np.nan, np.full(k, np.nan)
    m = float(sizes[0])
    n = c[keep].sum()
    totals = c[keep] @ patterns[keep]
    p = totals / (n * m)
    q = (totals.sum() - totals) / (n * m)
    pq = p * q
    base = 2 / (n * m * (m - 1))
    total = pq.sum()
    with np.errstate(invalid="ignore", divide="ignore"):
        var0 = base * (total**2 - (pq * (q - p)).sum()) / total**2
    return (float(max(var0, 0.0)) if total > 0 else np.nan), np.full(k, base)


def _old_count_patterns(stats):
    """The count patterns as built before: dense distinct rows, ordered by an integer key
    in base m + 1 (category 0 least significant) when it fits, else by np.unique(axis=0)."""
    row, _, code = stats.entries()
    k, p = stats.n_categories, stats.n_patterns
    dense = np.bincount(row * k + code, minlength=p * k).reshape(p, k)
    base = stats.n_raters + 1
    if k * np.log2(base) < 62:
        keys = dense @ base ** np.arange(k, dtype=np.int64)
        _, first, index = np.unique(keys, return_index=True, return_inverse=True)
        rows = dense[first]
    else:
        rows, index = np.unique(dense, axis=0, return_inverse=True)
    index = index.reshape(-1)
    multiplicity = np.bincount(index, weights=stats.multiplicity, minlength=len(rows))
    return index, rows, np.rint(multiplicity).astype(np.int64)


def _light_by_pairs(codes, c, w):
    """Light's kappa and its linearised variance, pair by pair on the expanded subjects
    (the definition in :func:`irr.coefficients.chance_corrected.light_estimate`)."""
    x = np.repeat(codes, c.astype(int), axis=0)
    x = x[(x >= 0).sum(axis=1) >= 2]
    n, m = x.shape
    k = w.shape[0]
    kappas, psi, count = [], np.zeros(n), 0
    for g in range(m):
        for h in range(g + 1, m):
            both = (x[:, g] >= 0) & (x[:, h] >= 0)
            a, b = x[both, g], x[both, h]
            n_q = both.sum()
            row = np.bincount(a, minlength=k) / n_q
            col = np.bincount(b, minlength=k) / n_q
            po = w[a, b].mean()
            pe = row @ w @ col
            kappa = (po - pe) / (1 - pe)
            chance = (w[a] @ col) + (row @ w[:, b])
            phi = ((w[a, b] - po) - (1 - kappa) * (chance - 2 * pe)) / (1 - pe)
            psi[both] += n / n_q * phi
            kappas.append(kappa)
            count += 1
    psi /= count
    return float(np.mean(kappas)), float(psi @ psi / (n * (n - 1)))


# -- random data ---------------------------------------------------------------------------
def _count_rows(rng, with_missing=True):
    n_rows, k = int(rng.integers(1, 40)), int(rng.integers(1, 12))
    m = int(rng.integers(1, 7))
    rows = rng.multinomial(m, rng.dirichlet(np.ones(k)), size=n_rows)
    if with_missing and rng.random() < 0.5:  # raters per subject vary; some rate none
        rows = rows * (rng.random((n_rows, k)) < 0.7)
    mult = rng.integers(0 if rng.random() < 0.3 else 1, 5, n_rows)
    return rows, mult


def _weights(k):
    out = [np.eye(k)]
    if k > 1:
        s = np.arange(k)
        out.append(1 - (s[:, None] - s[None]) ** 2 / (k - 1) ** 2)
        out.append(1 - np.abs(s[:, None] - s[None]) / (k - 1))
        asym = np.eye(k)
        asym[0, -1] = 0.5  # not symmetric
        out.append(asym)
    return out


def _close(new, old, rtol=1e-12):
    new, old = np.asarray(new, dtype=float), np.asarray(old, dtype=float)
    assert new.shape == old.shape
    assert np.array_equal(np.isnan(new), np.isnan(old))
    np.testing.assert_allclose(new[~np.isnan(new)], old[~np.isnan(old)], rtol=rtol,
                               atol=1e-14)


@pytest.mark.parametrize("seed", range(40))
def test_counts_kernels_equal_their_dense_forms(seed):
    rng = np.random.default_rng(seed)
    rows, mult = _count_rows(rng)
    batch = rng.integers(0, 4, (3, len(rows)))
    for w in _weights(rows.shape[1]):
        for method in METHODS:
            with np.errstate(all="ignore"):
                new = cc.counts_estimate(rows, mult, w, method)
                old = _old_counts_estimate(rows, mult, w, method)
                _close(new[:4], old[:4])
                assert new[4:6] == old[4:]  # n_subjects, n_paired (terms: new, checked below)
                entries = cc.count_entries(rows)  # the same from the nonzero cells
                _close(cc.counts_estimate(entries, mult, w, method)[:4], new[:4], rtol=0)
                _close(cc.counts_kernel(rows, batch, w, method),
                       _old_counts_kernel(rows, batch, w, method))


@pytest.mark.parametrize("seed", range(40))
def test_fleiss_per_category_and_null_variance_equal_their_dense_forms(seed):
    rng = np.random.default_rng(seed)
    rows, mult = _count_rows(rng, with_missing=seed % 2 == 0)
    with np.errstate(all="ignore"):
        for new, old in zip(cc.fleiss_category_kappas(rows, mult),
                            _old_fleiss_category_kappas(rows, mult), strict=True):
            _close(new, old)
        new0, old0 = cc.fleiss_null_variance(rows, mult), _old_fleiss_null_variance(rows, mult)
    _close(new0[0], old0[0])
    _close(new0[1], old0[1])


def test_one_category_and_no_pairs():
    one = np.array([[3], [2], [0], [1]])
    for method in METHODS:
        with np.errstate(all="ignore"):
            _close(cc.counts_estimate(one, np.ones(4), np.eye(1), method)[:4],
                   _old_counts_estimate(one, np.ones(4), np.eye(1), method)[:4])
    single = np.array([[1, 0], [0, 1]])  # no subject with two ratings
    assert np.isnan(cc.counts_estimate(single, np.ones(2), np.eye(2), "fleiss").estimate)
    kappa, var = cc.fleiss_category_kappas(single, np.ones(2))
    assert np.isnan(kappa).all()
    assert np.isnan(var).all()


@pytest.mark.parametrize("seed", range(30))
def test_subject_parts_of_rater_codes_equal_the_dense_count_rows(seed):
    # Conger's p_a comes from the count rows of the rater codes, now as nonzero cells
    rng = np.random.default_rng(seed)
    n_rows, m, k = int(rng.integers(1, 30)), int(rng.integers(2, 6)), int(rng.integers(1, 8))
    codes = rng.integers(-1, k, (n_rows, m))
    dense = np.zeros((n_rows, k), dtype=np.int64)
    for j in range(m):
        ok = codes[:, j] >= 0
        np.add.at(dense, (np.flatnonzero(ok), codes[ok, j]), 1)
    mult = rng.integers(1, 4, n_rows)
    for w in _weights(k):
        with np.errstate(all="ignore"):
            new = cc.conger_estimate(codes, mult, w)
            _, rated, paired, agreement, _, _ = _old_subject_parts(dense, w)
        c = np.where(rated, mult.astype(float), 0.0)
        if (c * paired).sum() > 0:
            _close(new.observed, c @ agreement / (c * paired).sum())


@pytest.mark.parametrize("seed", range(30))
def test_light_kappa_equals_the_pair_by_pair_definition(seed, monkeypatch):
    rng = np.random.default_rng(seed)
    n_rows, m, k = int(rng.integers(4, 40)), int(rng.integers(2, 6)), int(rng.integers(2, 7))
    codes = rng.integers(0, k, (n_rows, m))
    if seed % 3 == 0:  # missing ratings: the co-rating path
        codes[rng.random(codes.shape) < 0.15] = -1
    c = rng.integers(1, 4, n_rows).astype(float)
    for threshold in (1 << 62, 0):  # the co-rating path, the dense path
        monkeypatch.setattr(cc, "DENSE_PAIR_RATINGS", threshold)
        for w in _weights(k):
            with np.errstate(all="ignore"):
                est = cc.light_estimate(codes, c, w)
                kernel = cc.light_kernel(codes, c[None], w)[0]
                estimate, variance = _light_by_pairs(codes, c, w)
            if not np.isfinite(estimate):
                continue
            _close([est.estimate, kernel, est.variance], [estimate, estimate, variance])


def _designs():
    for seed in range(25):
        rng = np.random.default_rng(seed)
        n, m = int(rng.integers(2, 200)), int(rng.integers(2, 9))
        k = int(rng.choice([1, 2, 5, 20, 40, 100]))
        x = rng.integers(0, k, (n, m)).astype(float)
        x[rng.random((n, m)) < rng.random() * 0.4] = np.nan
        x[0] = 0  # every rater rates one subject
        yield x
    # many categories in a row: the fallback of np.unique on (rank, count) columns
    yield np.random.default_rng(1).integers(0, 60, (300, 20)).astype(float)


def test_count_patterns_equal_the_dense_rows_in_their_old_order():
    for x in _designs():
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            stats = irr.Agreement.from_array(x).statistics
        new = stats.count_patterns
        index, rows, mult = _old_count_patterns(stats)
        np.testing.assert_array_equal(new.index, index)
        np.testing.assert_array_equal(new.patterns, rows)
        np.testing.assert_array_equal(new.multiplicity, mult)
        row, category, count = stats.count_pattern_cells
        assert np.array_equal(np.column_stack(np.nonzero(rows)), np.column_stack([row, category]))
        np.testing.assert_array_equal(rows[row, category], count)


def test_count_patterns_of_a_sparse_design_equal_the_dense_rows(monkeypatch):
    monkeypatch.setattr(irr._source, "DENSE_CELLS", 0)  # keep the design sparse
    monkeypatch.setattr(irr._source, "DENSE_PER_RATING", 0)
    rng = np.random.default_rng(3)
    subject = np.repeat(np.arange(400), 3)
    rater = np.concatenate([rng.choice(300, 3, replace=False) for _ in range(400)])
    import pandas as pd

    long = pd.DataFrame({"subject": subject, "rater": rater,
                         "rating": rng.integers(0, 30, len(subject))})
    stats = irr.Agreement.from_long(long, subject="subject", rater="rater",
                                    rating="rating").statistics
    assert stats.sparse is not None
    new = stats.count_patterns
    index, rows, mult = _old_count_patterns(stats)
    np.testing.assert_array_equal(new.index, index)
    np.testing.assert_array_equal(new.patterns, rows)
    np.testing.assert_array_equal(new.multiplicity, mult)


def test_per_category_table_and_p_values():
    ag = irr.Agreement.from_frame(irr.datasets.load("diagnoses"))
    for alternative in ("two-sided", "greater", "less"):
        res = ag.fleiss_kappa(alternative=alternative)
        table = res.per_category
        from irr.results import normal_pvalue

        expected = [normal_pvalue(float(z), alternative) for z in table["z"]]
        # vectorised (scipy's ndtr) and scalar (math.erfc) tails agree to rounding
        np.testing.assert_allclose(table["pvalue"].to_numpy(), expected, rtol=1e-13, atol=0)
        assert list(table.columns) == ["category", "kappa", "se", "se0", "z", "pvalue"]


def test_bootstrap_replicates_unchanged_by_the_cells():
    # the bootstrap statistic on the count patterns is the dense kernel's, resample by
    # resample
    ag = irr.Agreement.from_frame(irr.datasets.load("diagnoses"))
    stats = ag.statistics
    counts = stats.count_patterns
    rng = np.random.default_rng(0)
    batch = rng.multinomial(counts.multiplicity.sum(), counts.multiplicity
                            / counts.multiplicity.sum(), size=50)
    for coefficient, method in (("fleiss_kappa", "fleiss"), ("gwet_ac", "gwet")):
        f = ecc.statistic(stats, coefficient, np.eye(stats.n_categories), on="counts")
        _close(f(batch), _old_counts_kernel(counts.patterns, batch, np.eye(stats.n_categories),
                                            method))


@pytest.mark.parametrize("seed", range(12))
def test_percent_agreement_of_all_raters_from_the_cells(seed):
    # R irr agree(): the share of the subjects rated by every rater whose highest and
    # lowest ratings are within the tolerance, straight from the (n, m) ratings
    rng = np.random.default_rng(seed)
    n, m, k = int(rng.integers(5, 120)), int(rng.integers(2, 6)), int(rng.integers(2, 30))
    x = rng.integers(1, k + 1, (n, m)).astype(float)
    x[:, 1] = np.where(rng.random(n) < 0.5, x[:, 0], x[:, 1])  # ties: agreeing subjects
    x[rng.random((n, m)) < 0.1] = np.nan
    x[0] = 1  # every rater rates one subject
    complete = ~np.isnan(x).any(axis=1)
    spread = np.where(complete, np.nan_to_num(x).max(axis=1) - np.nan_to_num(x).min(axis=1), 0)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        ag = irr.Agreement.from_array(x)
        for tolerance in (0, 1, 2.5):
            res = ag.percent_agreement(definition="all", tolerance=tolerance)
            agree = complete & (spread <= tolerance)
            assert res.count == int(agree.sum())
            assert res.n_subjects == int(complete.sum())


def _old_pairwise_counts(codes, mult, w, method):
    """The pairwise matrix as before: a loop over rater pairs, dense two-rater count rows."""
    m, k = codes.shape[1], w.shape[0]
    matrix = np.ones((m, m))
    for g in range(m):
        for h in range(g + 1, m):
            pair = codes[:, [g, h]]
            keep = (pair >= 0).all(axis=1)
            counts = np.zeros((int(keep.sum()), k))
            rows = np.arange(int(keep.sum()))
            np.add.at(counts, (rows, pair[keep, 0]), 1)
            np.add.at(counts, (rows, pair[keep, 1]), 1)
            with np.errstate(invalid="ignore", divide="ignore"):
                value = _old_counts_kernel(counts, mult[keep], w, method)[0]
            matrix[g, h] = matrix[h, g] = value
    return matrix


@pytest.mark.parametrize("seed", range(30))
def test_pairwise_counts_equal_the_loop_over_pairs(seed):
    rng = np.random.default_rng(seed)
    n_rows, m, k = int(rng.integers(1, 40)), int(rng.integers(2, 7)), int(rng.integers(1, 8))
    codes = rng.integers(0, k, (n_rows, m))
    if seed % 2:
        codes[rng.random(codes.shape) < 0.3] = -1
    mult = rng.integers(1, 4, n_rows).astype(float)
    for w in _weights(k):
        for method in METHODS:
            with np.errstate(all="ignore"):
                _close(cc.pairwise_counts(codes, mult, w, method),
                       _old_pairwise_counts(codes, mult, w, method))


def test_pairwise_matrix_through_the_api():
    ag = irr.Agreement.from_frame(irr.datasets.load("diagnoses"))
    stats = ag.statistics
    k = stats.n_categories
    for statistic, method in (("percent_agreement", "percent"), ("scott_pi", "fleiss"),
                              ("gwet_ac", "gwet"), ("brennan_prediger", "brennan_prediger")):
        _close(ag.pairwise(statistic).to_numpy(),
               _old_pairwise_counts(stats.patterns, stats.multiplicity.astype(float),
                                    np.eye(k), method))


def test_pairwise_with_raters_who_share_no_subject():
    # rater1 rated subjects 1-2, rater2 subjects 3-4: no shared subject. The pairwise kappa
    # raised a reshape ValueError (an empty (b, 0, k) block); now the pair is nan with a
    # warning naming it, and the diagonal stays 1
    ag = irr.Agreement([1, 2, None, None], [None, None, 1, 2])
    for statistic in ("kappa", "percent_agreement", "scott_pi", "gwet_ac", "brennan_prediger"):
        with pytest.warns(irr.DegenerateDataWarning, match=r"1 pair\(s\) of raters "
                          r"\(rater1-rater2\): they share no subject"):
            matrix = ag.pairwise(statistic)
        assert matrix.to_numpy()[0, 1] != matrix.to_numpy()[0, 1]  # nan
        assert np.diag(matrix.to_numpy()).tolist() == [1.0, 1.0]
    # a pair that shares subjects keeps its kappa: rater2 and rater3 share subjects 3 and 4
    ag3 = irr.Agreement([1, 2, None, None], [None, None, 1, 2], [1, None, 1, 2])
    with pytest.warns(irr.DegenerateDataWarning, match=r"2 pair\(s\)"):
        matrix = ag3.pairwise()
    assert matrix.loc["rater2", "rater3"] == pytest.approx(1.0)


# -- unweighted coefficients on counts read from the rows of codes -------------------------
@pytest.mark.parametrize("seed", range(5))
def test_rater_codes_match_the_count_cells(seed):
    """Fleiss, Gwet, Brennan-Prediger, percent agreement, the null variances and Conger's
    kappa from the rows of codes (RaterCodes: pairwise equality counts and bincounts) equal
    their values from the nonzero cells of the count rows (their previous form, still used
    for weights and sparse designs), to rounding: with missing ratings, subjects with no
    or one rating, listwise statistics and one category."""
    rng = np.random.default_rng(seed)
    for trial in range(12):
        n, m = int(rng.integers(2, 400)), int(rng.integers(2, 9))
        k = int(rng.choice([1, 2, 5, 40, 101]))
        truth = rng.integers(0, k, n)
        x = np.where(rng.random((n, m)) < 0.5, truth[:, None],
                     rng.integers(0, k, (n, m))).astype(float)
        if trial % 2:
            x[rng.random(x.shape) < 0.2] = np.nan
            x[0] = np.nan  # a subject with no rating
            x[1, 1:] = np.nan  # and one with a single rating
        x[-2:, 0] = [0, 0]  # the rater uses some category
        stats = irr.Agreement.from_array(x, categories=range(k)).statistics
        if trial % 4 == 3:
            stats = stats.listwise()
        cells = ecc._cells(stats)
        rows = cc.rater_codes(stats.patterns, k)
        np.testing.assert_array_equal(rows.r, cells.r)
        # the ratings per pattern (read as m when none is missing) count the codes given
        per_pattern = stats.ratings_per_pattern
        assert per_pattern.dtype == np.int64
        np.testing.assert_array_equal(per_pattern, (stats.patterns >= 0).sum(axis=1))
        mult, w = stats.multiplicity, np.eye(k)
        with warnings.catch_warnings(), np.errstate(invalid="ignore", divide="ignore"):
            warnings.simplefilter("ignore")
            for method in METHODS:
                got = cc.counts_estimate(rows, mult, w, method)
                want = cc.counts_estimate(cells, mult, w, method)
                np.testing.assert_allclose(got[:4], want[:4], rtol=1e-12, atol=1e-15)
                assert got[4:6] == want[4:6]
                if want.terms is None:
                    assert got.terms is None
                else:
                    np.testing.assert_allclose(got.terms, want.terms, rtol=1e-12, atol=1e-14)
            for got, want in zip(cc.fleiss_null_variance(rows, mult),
                                 cc.fleiss_null_variance(cells, mult), strict=True):
                np.testing.assert_array_equal(got, want)  # integer totals: exact
            # the null variances from the shares counts_estimate found equal them, to
            # rounding (the categories not counted again)
            shares = cc.counts_estimate(rows, mult, w, "fleiss").shares
            if shares is not None:
                for source in (rows, cells):
                    for got, want in zip(cc.fleiss_null_variance(source, mult, shares),
                                         cc.fleiss_null_variance(cells, mult), strict=True):
                        np.testing.assert_allclose(got, want, rtol=1e-12, atol=0)
            got = cc.conger_estimate(None, mult.astype(float), w, rows)
            want = cc.conger_estimate(ecc._codes(stats), mult.astype(float), w, cells)
            np.testing.assert_allclose(got[:4], want[:4], rtol=1e-12, atol=1e-15)


def _assert_same_values(got, want):
    """Every field equal, value for value (nan equals nan)."""
    assert len(got) == len(want)
    for a, b in zip(got, want, strict=True):
        if a is None or b is None:
            assert a is None
            assert b is None
        else:
            np.testing.assert_array_equal(a, b)


@pytest.mark.parametrize("seed", range(6))
def test_coefficients_on_counts_match_their_previous_forms(seed):
    """The coefficients on counts, their null variances and Conger's kappa with fewer arrays
    of P (complete rows of codes read r_i = m as a scalar, the linearised terms computed in
    place) equal their previous forms exactly, on rows of codes and on count cells, with
    and without missing ratings, weights, zero and fractional multiplicities."""
    from tests.reference import previous_kernels

    rng = np.random.default_rng(seed)
    for trial in range(10):
        n, m = int(rng.integers(2, 600)), int(rng.integers(2, 9))
        k = int(rng.choice([1, 2, 5, 40, 101]))
        truth = rng.integers(0, k, n)
        x = np.where(rng.random((n, m)) < 0.6, truth[:, None],
                     rng.integers(0, k, (n, m))).astype(float)
        if trial % 3 == 1:
            x[rng.random(x.shape) < 0.2] = np.nan
            x[0, 1:] = np.nan  # a subject with a single rating
        stats = irr.Agreement.from_array(x, categories=range(k)).statistics
        mult = stats.multiplicity
        if trial % 4 == 2:  # a resample: some patterns drawn no time, counts as floats
            mult = rng.integers(0, 3, len(mult)).astype(float)
            mult[:2] = 1.0
        rows = cc.rater_codes(stats.patterns, k)
        before = previous_kernels.rater_codes(stats.patterns, k)
        np.testing.assert_array_equal(rows.columns, before.columns)
        np.testing.assert_array_equal(rows.r, before.r)
        np.testing.assert_array_equal(rows.squares, before.squares)
        assert rows.complete == before.complete
        cells = ecc._cells(stats)
        quadratic = 1.0 - (np.subtract.outer(np.arange(k), np.arange(k)) / max(k - 1, 1)) ** 2
        with warnings.catch_warnings(), np.errstate(invalid="ignore", divide="ignore"):
            warnings.simplefilter("ignore")
            for new, old, w in ((rows, before, np.eye(k)), (cells, cells, np.eye(k)),
                                (cells, cells, quadratic)):
                for method in METHODS:
                    got = cc.counts_estimate(new, mult, w, method)
                    _assert_same_values(got, previous_kernels.counts_estimate(old, mult, w,
                                                                              method))
                est = cc.counts_estimate(new, mult, w, "fleiss")
                for given in (None, est.shares):
                    want = previous_kernels.fleiss_null_variance(old, mult, given)
                    _assert_same_values(cc.fleiss_null_variance(new, mult, given), want)
                    # the subjects handed over by the estimate, as the estimator does
                    _assert_same_values(
                        cc.fleiss_null_variance(new, mult, given, est.n_subjects), want)
            _assert_same_values(
                cc.conger_estimate(None, mult, np.eye(k), rows),
                previous_kernels.conger_estimate(None, np.asarray(mult, dtype=float),
                                                 np.eye(k), before))
            for w in (np.eye(k), quadratic):
                codes = ecc._codes(stats)
                _assert_same_values(
                    cc.conger_estimate(codes, mult, w, cells),
                    previous_kernels.conger_estimate(codes, np.asarray(mult, dtype=float),
                                                     w, cells))


@pytest.mark.parametrize("seed", range(4))
def test_pair_agreements_match_their_previous_form(seed):
    """RaterCodes.same, the rater pairs of each row who gave the same code (counted in int8
    up to 16 raters, in int16 beyond), equals its previous int16 count, and the squares
    and ratings read from it are the same floats, with and without missing codes."""
    from tests.reference import previous_kernels

    rng = np.random.default_rng(seed)
    for m in (2, 5, 16, 17, 40):
        n, k = int(rng.integers(1, 500)), int(rng.choice([1, 3, 101, 300]))
        codes = rng.integers(-1 if seed % 2 else 0, k, (n, m))
        codes[: n // 3] = codes[:1]  # every rater agreeing on some rows
        rows = cc.rater_codes(codes, k)
        want = previous_kernels.pair_agreements(codes, k)
        before = previous_kernels.rater_codes(codes, k)
        if rows.complete:
            np.testing.assert_array_equal(rows.same, want)
        np.testing.assert_array_equal(rows.same, before.same)
        np.testing.assert_array_equal(rows.squares, before.squares)
        np.testing.assert_array_equal(rows.r, before.r)


@pytest.mark.parametrize("seed", range(4))
def test_other_shares_match_their_previous_form(seed):
    """sum_{l != k} pi_l of one sample (cumulative sums written into place) equals its
    previous form bit for bit, for one category, shares near 1 and tiny ones; a batch
    takes the previous form itself."""
    from tests.reference import previous_kernels

    rng = np.random.default_rng(seed)
    for k in (1, 2, 3, 7, 101, 1000):
        pi = rng.random(k) ** rng.choice([1, 8, 40])
        pi /= pi.sum()
        if k > 1 and seed % 2:
            pi[0] = 1 - 1e-14  # one share within rounding of 1
        got = cc._others(pi)
        np.testing.assert_array_equal(got, previous_kernels.others(pi))
        assert got.shape == pi.shape
        assert got.dtype == np.float64
        batch = rng.random((3, k))
        np.testing.assert_array_equal(cc._others(batch), previous_kernels.others(batch))


def test_rater_codes_refuse_weights():
    rows = cc.rater_codes(np.array([[0, 1], [1, 1], [0, 0]]), 2)
    with pytest.raises(ValueError, match="unweighted coefficients only"):
        cc.counts_estimate(rows, np.ones(3), np.array([[1.0, 0.5], [0.5, 1.0]]), "fleiss")


def test_unweighted_multirater_estimators_read_the_rows_of_codes():
    """The default calls take the rows of codes; with weights, many raters or a sparse
    design the cells; the results are the same either way (to rounding)."""
    rng = np.random.default_rng(3)
    x = rng.integers(0, 4, (200, 4))
    stats = irr.Agreement.from_array(x).statistics
    assert isinstance(ecc._count_rows(stats, "unweighted"), cc.RaterCodes)
    assert isinstance(ecc._count_rows(stats, "quadratic"), cc.CountEntries)
    wide = irr.Agreement.from_array(rng.integers(0, 4, (50, ecc.PAIRWISE_RATERS + 1)))
    assert isinstance(ecc._count_rows(wide.statistics, "unweighted"), cc.CountEntries)
    ag = irr.Agreement.from_array(x)
    fleiss = ag.fleiss_kappa()
    # the same statistic through the cells: Fleiss' kappa with the identity as weights
    same = ag.fleiss_kappa(weights=np.eye(4))
    assert fleiss.estimate == pytest.approx(same.estimate, rel=1e-13)
    assert fleiss.se == pytest.approx(same.se, rel=1e-12)
    assert fleiss.per_category["kappa"].notna().all()
