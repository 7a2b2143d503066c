"""Issue 15, dense categories and tables (B4, B6, B8): bounded time and memory in k and in
the counts, with the same numbers as the dense computations they replace."""

import time
import tracemalloc
import warnings
from fractions import Fraction

import numpy as np
import pytest
from scipy.optimize import linprog

import irr
from irr import DegenerateDataWarning
from irr.coefficients.chance_corrected import counts_estimate, counts_kernel
from irr.coefficients.icc import mean_squares
from irr.coefficients.kappa import (
    MAX_LP_CELLS,
    is_monge,
    kappa_from_cells,
    kappa_from_counts,
    kappa_max,
)
from irr.coefficients.kendall import kendall_w
from irr.ordinal import apply_thresholds, optimize_thresholds
from irr.weights import agreement_weights


def peak_mb(call):
    """(result, peak traced allocation in MB) of call()."""
    tracemalloc.start()
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            out = call()
        return out, tracemalloc.get_traced_memory()[1] / 1e6
    finally:
        tracemalloc.stop()


# -- exact references (Fractions over subject patterns: an independent implementation) --
def exact_mean_squares(rows, counts):
    """MSR, MSC, MSE, MSW of the rows repeated counts times (textbook two-way ANOVA)."""
    rows = [[Fraction(v) for v in r] for r in rows]
    c = [Fraction(int(x)) for x in counts]
    n, k = sum(c), len(rows[0])
    grand = sum(ci * sum(r) for ci, r in zip(c, rows, strict=True)) / (n * k)
    row_mean = [sum(r) / k for r in rows]
    col_mean = [sum(ci * r[j] for ci, r in zip(c, rows, strict=True)) / n for j in range(k)]
    ssr = k * sum(ci * (m - grand) ** 2 for ci, m in zip(c, row_mean, strict=True))
    ssc = n * sum((m - grand) ** 2 for m in col_mean)
    ssw = sum(ci * sum((v - m) ** 2 for v in r) for ci, r, m in zip(c, rows, row_mean, strict=True))
    sse = ssw - ssc
    return ssr / (n - 1), ssc / (k - 1), sse / ((n - 1) * (k - 1)), ssw / (n * (k - 1))


def exact_kendall(rows, counts):
    """Kendall's W (tie-corrected) of the rows repeated counts times, by mid-ranks."""
    c = [int(x) for x in counts]
    n, m = sum(c), len(rows[0])
    rank_sums = [Fraction(0)] * len(rows)
    ties = 0
    for j in range(m):
        values = sorted({r[j] for r in rows})
        below = 0
        for v in values:
            size = sum(ci for ci, r in zip(c, rows, strict=True) if r[j] == v)
            for p, r in enumerate(rows):
                if r[j] == v:
                    rank_sums[p] += below + Fraction(size + 1, 2)
            ties += size**3 - size
            below += size
    mean = Fraction(m * (n + 1), 2)
    s = sum(ci * (rs - mean) ** 2 for ci, rs in zip(c, rank_sums, strict=True))
    return 12 * s / (m * m * (n**3 - n) - m * ties)


def dense_lp_max(table, w):
    """max sum w_ij x_ij over tables with the margins of `table` (dense LP, as before)."""
    p = np.asarray(table, float) / np.sum(table)
    k = len(w)
    a_eq = np.vstack([np.kron(np.eye(k), np.ones(k)), np.kron(np.ones(k), np.eye(k))])
    sol = linprog(-w.ravel(), A_eq=a_eq, b_eq=np.r_[p.sum(1), p.sum(0)], bounds=(0, None),
                  method="highs")
    return -sol.fun


def kappa_max_by_lp(table, w):
    p = np.asarray(table, float) / np.sum(table)
    de = p.sum(1) @ (1 - w) @ p.sum(0)
    return 1 - (1 - dense_lp_max(table, w)) / de


# -- B6: ICC and Kendall's W of tables from weighted patterns -----------------------------
def test_icc_of_a_billion_subject_table_from_its_four_patterns():
    # before: one row per subject, a 14.9 GiB request; now 4 rows. Expected value: exact
    # Fraction ANOVA over the four patterns (independent of the code under test).
    ag = irr.Agreement.from_table([[10**9, 5], [7, 10**9]])
    res, peak = peak_mb(lambda: ag.icc("twoway", "agreement", "single"))
    msr, msc, mse, _ = exact_mean_squares([[0, 0], [0, 1], [1, 0], [1, 1]],
                                          [10**9, 5, 7, 10**9])
    n, k = 2 * 10**9 + 12, 2
    expected = (msr - mse) / (msr + (k - 1) * mse + Fraction(k, n) * (msc - mse))
    assert res.n_subjects == n
    assert res.estimate == pytest.approx(float(expected), rel=1e-12)
    assert peak < 20


@pytest.mark.parametrize("form", [("oneway", "agreement", "single"),
                                  ("twoway", "agreement", "average"),
                                  ("twoway", "consistency", "single")])
def test_icc_of_patterns_equals_icc_of_expanded_subjects(form):
    # the pattern path must give the numbers of the expanded computation (irr.icc on the
    # subjects' rows, the one-row-per-subject path) on a small table
    rng = np.random.default_rng(3)
    a = rng.integers(1, 5, 60)
    b = np.clip(a + rng.integers(-1, 2, 60), 1, 4)
    pattern = irr.Agreement(a, b).icc(*form)
    expanded = irr.icc(np.column_stack([a, b]), *form)
    for field in ("estimate", "statistic", "pvalue", "ms_rows", "ms_error", "ms_within"):
        assert getattr(pattern, field) == pytest.approx(getattr(expanded, field), rel=1e-12)
    assert tuple(pattern.ci)[:2] == pytest.approx(tuple(expanded.ci)[:2], rel=1e-10)


def test_mean_squares_with_multiplicities_match_exact_fractions():
    rows = np.array([[1.5, 2.0, 4.0], [3.0, 3.0, 2.5], [0.5, 1.0, 1.0]])
    counts = np.array([4, 1, 7])
    ms = mean_squares(rows, counts)
    got = [np.ldexp(float(v), 2 * int(ms.log2_scale)) for v in ms[:4]]
    assert got == pytest.approx([float(v) for v in exact_mean_squares(rows, counts)],
                                rel=1e-13)


def test_kendall_w_of_a_billion_subject_table_from_its_patterns():
    ag = irr.Agreement.from_table([[10**9, 5], [7, 10**9]])
    res, peak = peak_mb(ag.kendall_w)
    expected = exact_kendall([[0, 0], [0, 1], [1, 0], [1, 1]], [10**9, 5, 7, 10**9])
    assert res.estimate == pytest.approx(float(expected), rel=1e-12)
    assert res.n_subjects == 2 * 10**9 + 12
    assert peak < 20


def test_kendall_w_of_patterns_equals_rank_based_w_of_expanded_subjects():
    # scipy.stats.rankdata on the expanded rows (kendall_w without multiplicities) is the
    # independent computation
    rows = np.array([[1, 2, 2], [2, 2, 3], [3, 1, 1], [1, 1, 2]])
    counts = np.array([3, 1, 2, 5])
    got = kendall_w(rows, multiplicity=counts)
    want = kendall_w(np.repeat(rows, counts, axis=0))
    assert got.w == pytest.approx(want.w, rel=1e-13)
    assert got.chi2 == pytest.approx(want.chi2, rel=1e-13)
    assert got.ties == want.ties
    assert got.w == pytest.approx(float(exact_kendall(rows.tolist(), counts)), rel=1e-13)


# -- B4: kappa_max without a k^4 LP ---------------------------------------------------------
@pytest.mark.parametrize("scheme", ["linear", "quadratic", "ordinal"])
def test_kappa_max_by_northwest_corner_equals_the_transport_lp(scheme):
    # Hoffman (1963): the north-west-corner coupling is optimal for Monge costs; the dense
    # LP of the previous implementation is the independent check
    rng = np.random.default_rng(7)
    for _ in range(20):
        k = int(rng.integers(2, 7))
        table = rng.integers(0, 6, (k, k))
        table[0, 0] += 1
        scores = np.sort(rng.choice(np.arange(1.0, 20.0), k, replace=False))
        w = agreement_weights(scheme, k, scores)
        assert is_monge(1 - w)
        want = kappa_max_by_lp(table, w)
        if np.isfinite(want):
            assert kappa_max(table, w) == pytest.approx(want, abs=1e-9)


def test_kappa_max_linear_by_hand():
    # margins rows (2, 1, 1), columns (1, 1, 2), scores 1, 2, 3, linear weights
    # W = [[1, .5, 0], [.5, 1, .5], [0, .5, 1]]. The monotone coupling puts one subject in
    # each of (1,1), (1,2), (2,3), (3,3): p_o max = (1 + .5 + .5 + 1) / 4 = 3/4.
    # p_e = r W c / 16 = (2 * 1.5 + 1 * 2.5 + 1 * 2.5) / 16 = 1/2, so kappa_max = 1/2.
    table = np.array([[1, 1, 0], [0, 0, 1], [0, 0, 1]])
    w = agreement_weights("linear", 3, np.array([1.0, 2.0, 3.0]))
    assert kappa_max(table, w) == pytest.approx(0.5, rel=1e-14)


def test_kappa_max_of_a_non_monge_scheme_by_sparse_lp():
    rng = np.random.default_rng(11)
    for scheme in ("radical", "circular", "bipolar"):
        table = rng.integers(0, 5, (5, 5))
        table[2, 3] += 2
        w = agreement_weights(scheme, 5, np.array([1.0, 2.0, 4.0, 7.0, 8.0]))
        assert kappa_max(table, w) == pytest.approx(kappa_max_by_lp(table, w), abs=1e-9)


def test_weighted_kappa_with_hundreds_of_labels_needs_no_dense_lp():
    # 300 one-decimal scores: the dense LP asked for two 300 x 90,000 float matrices
    # (430 MB) and took seconds; the coupling is O(k log k)
    rng = np.random.default_rng(0)
    a = rng.integers(0, 300, 600) / 10
    b = a + rng.integers(-2, 3, 600) / 10
    ag = irr.Agreement(a, b, continuous=False)  # decimals as categories (issue 18)
    start = time.process_time()
    res, peak = peak_mb(lambda: ag.kappa(weights="linear"))
    assert time.process_time() - start < 10
    assert peak < 100
    table = ag.table.to_numpy()
    assert res.estimate <= res.kappa_max <= 1
    # the margins' monotone coupling, recomputed here from sorted subjects: pairing the
    # i-th smallest rating of rater a with the i-th smallest of rater b
    sa, sb = np.sort(a), np.sort(b)
    span = max(a.max(), b.max()) - min(a.min(), b.min())
    po_max = 1 - np.abs(sa - sb).mean() / span
    pe = res.expected_agreement
    assert res.kappa_max == pytest.approx((po_max - pe) / (1 - pe), rel=1e-9)
    assert table.sum() == 600


def test_kappa_max_beyond_the_lp_bound_is_nan_with_a_warning_naming_the_size():
    # radical weights lack the Monge property; 250 x 250 used cells > MAX_LP_CELLS
    assert MAX_LP_CELLS < 250 * 250
    a = np.arange(250) / 10.0
    b = np.roll(a, 1)
    with pytest.warns(DegenerateDataWarning, match=r"250 x 250 = 62,500 used cells"):
        res = irr.Agreement(np.r_[a, a], np.r_[a, b], continuous=False).kappa(weights="radical")
    assert np.isnan(res.kappa_max)
    assert np.isfinite(res.estimate)
    assert any("kappa_max is not computed" in note for note in res.notes)


# -- B6: the kappa bootstrap without dense (B, k^2) tables ---------------------------------
@pytest.mark.parametrize("weights", [None, "quadratic"])
def test_kappa_from_cells_equals_kappa_of_dense_tables(weights):
    rng = np.random.default_rng(5)
    k = 6
    rows, cols = np.divmod(rng.choice(k * k, 15, replace=False), k)
    counts = rng.integers(0, 9, (8, 15)).astype(float)
    w = agreement_weights(weights, k, np.arange(1.0, k + 1))
    dense = np.zeros((8, k * k))
    dense[:, rows * k + cols] = counts
    assert kappa_from_cells(counts, rows, cols, w, weights is None) == pytest.approx(
        kappa_from_counts(dense, w), rel=1e-12)


def _thousand_labels():
    """Two raters of 2,000 subjects on 1,000 labels, agreeing on about 60% of them."""
    rng = np.random.default_rng(1)
    a = rng.integers(0, 1000, 2000)
    b = np.where(rng.random(2000) < 0.6, a, rng.integers(0, 1000, 2000))
    return a, b, irr.Agreement(a, b, categories=list(range(1000)))


def test_kappa_percentile_interval_with_a_thousand_labels_is_bounded():
    # before: every resample a dense 1,000 x 1,000 table, (B, 1e6) floats (1.6 GB at
    # B = 200); now the resamples' cells and margins only
    a, b, ag = _thousand_labels()
    res, peak = peak_mb(lambda: ag.kappa(ci="percentile", n_resamples=200, rng=0))
    assert peak < 150
    assert res.ci.low < res.estimate < res.ci.high
    # the estimate itself: exact Fraction kappa would need the 1e6-cell table; use
    # Cohen's formula on the margins (integers): p_o = matches / n, p_e = r.c / n^2
    n = 2000
    po = Fraction(int((a == b).sum()), n)
    pe = Fraction(int(np.bincount(a, minlength=1000) @ np.bincount(b, minlength=1000)), n * n)
    assert res.estimate == pytest.approx(float((po - pe) / (1 - pe)), rel=1e-12)


# -- B6: unweighted coefficients on counts without the k x k product -----------------------
@pytest.mark.parametrize("method", ["fleiss", "gwet", "brennan_prediger", "percent"])
def test_identity_fast_path_equals_the_weighted_path(method):
    # eye with 1e-300 off the diagonal is not the identity (so the k x k product runs),
    # yet 1 - w is exactly that of the identity: both paths must agree
    rng = np.random.default_rng(2)
    k = 7
    patterns = rng.multinomial(4, np.full(k, 1 / k), size=30)
    mult = rng.integers(1, 5, 30)
    eye = np.eye(k)
    almost = eye.copy()
    almost[0, 1] = almost[1, 0] = 1e-300
    fast = counts_estimate(patterns, mult, eye, method)
    slow = counts_estimate(patterns, mult, almost, method)
    if method not in ("gwet", "brennan_prediger"):  # T_w differs by 2e-300: rounds away
        assert fast.estimate == pytest.approx(slow.estimate, rel=1e-13)
        assert fast.variance == pytest.approx(slow.variance, rel=1e-12)
    batch = rng.integers(0, 3, (4, 30))
    assert counts_kernel(patterns, batch, eye, method) == pytest.approx(
        counts_kernel(patterns, batch, almost, method), rel=1e-13)


def test_fleiss_kappa_of_many_categories_forms_no_k_by_k_temporary():
    # 3,000 categories, 300 subjects of 4 ratings: before, 1 - w (72 MB), its product with
    # the (P, k) patterns and two k x k matrix-vector products per call; now O(P k)
    rng = np.random.default_rng(4)
    k = 3000
    counts = rng.multinomial(4, np.full(k, 1 / k), size=300)
    eye = np.eye(k)
    est, peak = peak_mb(lambda: counts_estimate(counts, np.ones(300), eye, "fleiss"))
    assert peak < k * k * 8 / 2e6
    # Fleiss (1971) by hand from the counts: P_bar and P_e, in exact integers
    c = counts.astype(object)
    p_bar = Fraction(int((c * (c - 1)).sum()), 300 * 12)
    share = counts.sum(0).astype(object)
    p_e = Fraction(int((share * share).sum()), 1200**2)
    assert est.estimate == pytest.approx(float((p_bar - p_e) / (1 - p_e)), rel=1e-12)


# -- B8: optimize_thresholds and table_heatmap --------------------------------------------
def _kappa(y, labels, weights):
    """Weighted kappa of y vs labels, from the dense table (independent)."""
    values = np.unique(np.r_[y, labels])
    k = len(values)
    t = np.zeros((k, k))
    np.add.at(t, (np.searchsorted(values, y), np.searchsorted(values, labels)), 1)
    d = np.subtract.outer(values, values)
    d = (d != 0) * 1.0 if weights is None else (np.abs(d) if weights == "linear" else d**2)
    p = t / t.sum()
    return 1 - (p * d).sum() / (p.sum(1) @ d @ p.sum(0))


@pytest.mark.parametrize("weights", [None, "linear", "quadratic"])
def test_optimized_thresholds_are_a_local_optimum(weights):
    # no single cut point can move to another candidate and raise kappa (by > 1e-9)
    rng = np.random.default_rng(8)
    y = rng.integers(0, 5, 40)
    pred = y + rng.normal(0, 0.9, 40)
    labels = np.unique(y)
    cuts = optimize_thresholds(y, pred, weights=weights)
    best = _kappa(y, apply_thresholds(pred, cuts, labels), weights)
    sp = np.sort(pred)
    candidates = np.r_[-np.inf, (sp[1:] + sp[:-1]) / 2, np.inf]
    for j in range(len(cuts)):
        lo = cuts[j - 1] if j else -np.inf
        hi = cuts[j + 1] if j + 1 < len(cuts) else np.inf
        for c in candidates[(candidates >= lo) & (candidates <= hi)]:
            trial = cuts.copy()
            trial[j] = c
            assert _kappa(y, apply_thresholds(pred, trial, labels), weights) <= best + 1e-9


def test_optimize_thresholds_with_two_thousand_labels_is_fast():
    # before: a k x k table and O(n k) products per cut point, 53 s per pass at k = 2,000
    rng = np.random.default_rng(0)
    y = np.repeat(np.arange(2000), 2)
    pred = y + rng.normal(0, 20, y.size)
    start = time.process_time()
    cuts = optimize_thresholds(y, pred, max_iter=2)
    assert time.process_time() - start < 5
    assert cuts.shape == (1999,)
    assert np.all(cuts[1:] >= cuts[:-1])


def test_table_heatmap_of_many_categories_draws_an_image_without_cell_text():
    matplotlib = pytest.importorskip("matplotlib")
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    from irr.plotting import table_heatmap

    rng = np.random.default_rng(0)
    a = rng.integers(0, 60, 500)
    ag = irr.Agreement(a, np.where(rng.random(500) < 0.5, a, rng.integers(0, 60, 500)),
                       categories=list(range(60)))
    ax = table_heatmap(ag)
    try:
        assert len(ax.texts) == 0  # 3,600 cell labels before
        assert len(ax.get_xticks()) <= 20
        assert ax.images[0].get_array().shape == (60, 60)
        assert ax.images[0].get_array().sum() == 500
    finally:
        plt.close("all")


def test_percent_agreement_bootstrap_with_a_thousand_labels_is_bounded():
    # sibling of the kappa bootstrap: resamples were dense (B, 1e6) cell counts (3 GB at
    # B = 400); now each fine pattern's agreement, O(B x patterns)
    a, b, ag = _thousand_labels()
    res, peak = peak_mb(lambda: ag.percent_agreement(ci="percentile", n_resamples=200, rng=0))
    assert peak < 150
    assert res.estimate == (a == b).mean()  # the share of equal pairs, counted directly
    assert res.ci.low < res.estimate < res.ci.high
    # each resample is a share of agreeing subjects: a multiple of 1/2000
    replicates = res.bootstrap.replicates
    assert np.allclose(replicates * 2000, np.round(replicates * 2000), atol=1e-9)


def test_fleiss_per_category_kappas_equal_the_two_column_splits():
    # sibling (a Python loop over the categories, one counts_estimate each): the vectorised
    # kappas must be Fleiss' kappa of each category-vs-rest split, computed one by one
    from irr.coefficients.chance_corrected import fleiss_category_kappas

    rng = np.random.default_rng(9)
    counts = np.vstack([rng.multinomial(5, [0.5, 0.3, 0.15, 0.05, 0.0], size=40),
                        rng.multinomial(2, [0.2, 0.2, 0.2, 0.2, 0.2], size=5)])
    mult = rng.integers(1, 4, len(counts))
    kappa, variance = fleiss_category_kappas(counts, mult)
    r = counts.sum(axis=1)
    for j in range(counts.shape[1]):
        split = np.column_stack([counts[:, j], r - counts[:, j]])
        one = counts_estimate(split, mult, np.eye(2), "fleiss")
        if np.isnan(one.estimate):
            assert np.isnan(kappa[j])  # category 5 is never used
            assert np.isnan(variance[j])
        else:
            assert kappa[j] == pytest.approx(one.estimate, rel=1e-12)
            assert variance[j] == pytest.approx(one.variance, rel=1e-10)
    table = irr.Agreement.from_counts(counts[np.repeat(np.arange(len(counts)), mult)]
                                      ).fleiss_kappa().per_category
    assert table["kappa"].to_numpy() == pytest.approx(kappa, rel=1e-12, nan_ok=True)
