"""Issue 15 (B6), two raters with many categories: the pair table as its occupied cells,
implicit identity weights, results without a stored k x k identity, and bounded k x k
arrays where one is intrinsic."""

from __future__ import annotations

import subprocess
import sys
import textwrap
from pathlib import Path

import numpy as np
import pytest

import irr
from irr.coefficients.kappa import identity_kappa, kappa_max, kappa_parts, kappa_variances
from irr.estimators.kappa import kappa_influence
from irr.weights import MAX_SQUARE_CELLS

ROOT = Path(__file__).resolve().parents[3]


def _random_pair(seed: int, k: int, n: int = 60) -> tuple[np.ndarray, np.ndarray]:
    rng = np.random.default_rng(seed)
    a = rng.integers(0, k, n)
    b = np.where(rng.random(n) < 0.6, a, rng.integers(0, k, n))
    return a, b


@pytest.mark.parametrize("seed", range(8))
def test_identity_kappa_from_cells_equals_the_dense_formulas(seed):
    # independent implementation: the dense k x k formulas with w = I (kappa_parts,
    # kappa_variances, kappa_max, kappa_influence) on the same table
    k = 2 + seed
    a, b = _random_pair(seed, k)
    table = np.zeros((k, k), dtype=np.int64)
    np.add.at(table, (a, b), 1)
    rows, cols = np.nonzero(table)
    fit = identity_kappa(rows, cols, table[rows, cols], k)
    w = np.eye(k)
    parts = kappa_parts(table, w)
    _, var0 = kappa_variances(table, w)
    assert fit.kappa == pytest.approx(float(parts.kappa), abs=1e-12)
    assert fit.observed == pytest.approx(float(parts.observed), abs=1e-12)
    assert fit.expected == pytest.approx(float(parts.expected), abs=1e-12)
    assert fit.var0 == pytest.approx(float(var0), abs=1e-14)
    assert fit.kappa_max == pytest.approx(kappa_max(table, w), abs=1e-12)
    np.testing.assert_allclose(fit.influence, kappa_influence(table, w)[rows, cols],
                               rtol=0, atol=1e-12)


@pytest.mark.parametrize("seed", range(6))
def test_unweighted_kappa_equals_the_dense_identity_matrix_path(seed):
    # the custom matrix np.eye(k) goes through the dense k x k path; None through the
    # occupied cells with implicit identity weights: every number must agree
    k = 3 + seed
    a, b = _random_pair(seed, k, 80)
    ag = irr.Agreement(a, b, categories=list(range(k)))
    sparse, dense = ag.kappa(), ag.kappa(weights=np.eye(k))
    for field in ("estimate", "se", "se0", "statistic", "pvalue", "kappa_max",
                  "observed_agreement", "expected_agreement"):
        assert getattr(sparse, field) == pytest.approx(getattr(dense, field), abs=1e-12), field
    assert tuple(sparse.ci) == pytest.approx(tuple(dense.ci), abs=1e-12)
    cluster = np.arange(80) % 9  # the linearised (sandwich) variance over clusters
    assert ag.kappa(cluster=cluster).se == pytest.approx(
        ag.kappa(weights=np.eye(k), cluster=cluster).se, abs=1e-12)
    boot = ag.kappa(ci="percentile", n_resamples=200, rng=1)
    boot_dense = ag.kappa(weights=np.eye(k), ci="percentile", n_resamples=200, rng=1)
    assert tuple(boot.ci) == pytest.approx(tuple(boot_dense.ci), abs=1e-12)


def test_pair_cells_are_the_occupied_cells_only():
    # 1,000 categories, 3 distinct pairs: three cells, not 10^6
    a = np.array([0, 0, 999, 5, 5])
    b = np.array([0, 0, 1, 5, 5])
    ag = irr.Agreement(a, b, categories=list(range(1000)))
    cells = ag.statistics.pair_cells
    assert cells.patterns.tolist() == [[0, 0], [5, 5], [999, 1]]
    assert cells.multiplicity.tolist() == [2, 2, 1]
    table = ag.table.to_numpy()  # built on request, the same counts
    assert table.shape == (1000, 1000)
    assert table.sum() == 5
    assert table[999, 1] == 1


def test_unweighted_results_hold_no_k_by_k_matrix():
    a, b = _random_pair(3, 5)
    res = irr.Agreement(a, b).kappa()
    assert res.weight_spec is None
    np.testing.assert_array_equal(res.weight_matrix, np.eye(5))  # built on request
    lin = irr.Agreement(a, b).kappa(weights="linear")
    assert lin.weight_spec == "linear"
    assert lin.weight_matrix[0].tolist() == [1.0, 0.75, 0.5, 0.25, 0.0]  # 1 - |i - j| / 4
    gwet = irr.Agreement(a, b).gwet_ac()
    assert gwet.weight_spec is None
    np.testing.assert_array_equal(gwet.weight_matrix, np.eye(5))


@pytest.mark.filterwarnings("ignore")  # integer labels as categories; perfect agreement
def test_dense_arrays_are_bounded_with_a_clear_error():
    k = int(MAX_SQUARE_CELLS**0.5) + 1  # 5001 categories: 25,010,001 cells
    ag = irr.Agreement(np.arange(k), np.arange(k))
    with pytest.raises(ValueError, match=r"`weights='linear'` needs a 5001 x 5001 category "
                                         r"array \(25,010,001 cells\); at most 25,000,000"):
        ag.kappa(weights="linear")
    with pytest.raises(ValueError, match=r"The k x k agreement table needs a 5001 x 5001"):
        ag.table  # noqa: B018
    with pytest.raises(ValueError, match=r"agreement table needs a 5001 x 5001"):
        ag.symmetry_test()
    # unweighted kappa and percent agreement need no k x k array: perfect agreement
    assert ag.kappa().estimate == 1.0
    assert ag.percent_agreement().estimate == 1.0


@pytest.mark.filterwarnings("ignore")  # integer labels; every cell has the same influence
def test_count_patterns_beyond_the_bound_raise_and_kappa_still_runs():
    # 3,000 distinct count rows x 10,000 categories = 3e7 cells > MAX_COUNT_CELLS
    a = np.arange(3000) * 3
    b = (a + 3) % 9000  # the same 3,000 categories, shifted by one: no subject agrees
    ag = irr.Agreement(a, b, categories=list(range(10_000)))
    with pytest.raises(ValueError, match=r"Coefficients on category counts need a 3,000 x "
                                         r"10,000 array .*MAX_COUNT_CELLS"):
        ag.statistics.count_patterns  # noqa: B018
    # hand: p_o = 0; both raters use the same 3,000 categories once each, so
    # p_e = 3000 / 3000^2 = 1/3000 and kappa = -p_e / (1 - p_e) = -1/2999
    assert ag.kappa().estimate == pytest.approx(-1 / 2999, abs=1e-15)


@pytest.mark.parametrize("tolerance", [0, 1, 2.5])
def test_all_raters_percent_agreement_without_the_tolerance_matrix(tolerance):
    # independent: a subject agrees when the spread of its ratings is within the tolerance
    rng = np.random.default_rng(7)
    x = rng.integers(0, 6, (50, 3)).astype(float)
    x[rng.random((50, 3)) < 0.4] = x[:, :1].repeat(3, axis=1)[rng.random((50, 3)) < 0.4][:1]
    res = irr.Agreement.from_array(x).percent_agreement(definition="all", tolerance=tolerance)
    expected = np.mean(x.max(axis=1) - x.min(axis=1) <= tolerance)
    assert res.estimate == pytest.approx(expected, abs=1e-15)


def test_two_raters_ten_thousand_labels_under_two_gigabytes():
    # 20,000 subjects, 10,000 labels under RLIMIT_AS = 2 GB: kappa (with a bootstrap) and
    # percent agreement give the hand formulas; the coefficients with an intrinsic k x k
    # array give a one-line ValueError naming the bound
    script = textwrap.dedent("""
        import resource, warnings
        resource.setrlimit(resource.RLIMIT_AS, (2 * 1024**3, 2 * 1024**3))
        warnings.simplefilter("ignore")
        import numpy as np
        import irr
        rng = np.random.default_rng(0)
        n, k = 20_000, 10_000
        a = rng.integers(0, k, n)
        b = np.where(rng.random(n) < 0.5, a, rng.integers(0, k, n))
        ag = irr.Agreement(a, b)
        po = np.mean(a == b)
        pe = np.bincount(a, minlength=k) @ np.bincount(b, minlength=k) / n**2
        res = ag.kappa(ci="percentile", n_resamples=200)
        assert abs(res.estimate - (po - pe) / (1 - pe)) < 1e-12, res.estimate
        assert res.ci.low < res.estimate < res.ci.high
        assert abs(ag.percent_agreement(ci="percentile", n_resamples=200).estimate - po) < 1e-15
        for call in (lambda: ag.kappa(weights="linear"), lambda: ag.table,
                     lambda: ag.symmetry_test(), lambda: ag.marginal_homogeneity_test(),
                     lambda: ag.mcnemar(), lambda: ag.gwet_ac(), lambda: ag.scott_pi(),
                     lambda: ag.brennan_prediger(), lambda: ag.krippendorff_alpha(),
                     lambda: ag.fleiss_kappa(), lambda: ag.error_rate_test(0.5)):
            try:
                call()
            except ValueError as error:
                assert "\\n" not in str(error) and "at most" in str(error), error
        ag.summary()
        print("ok")
    """)
    done = subprocess.run([sys.executable, "-c", script], cwd=ROOT, capture_output=True,
                          text=True, timeout=300)
    assert done.returncode == 0, done.stderr[-2000:]
    assert done.stdout.strip() == "ok"


def test_sparse_count_rows_equal_the_dense_count_rows():
    # multi-rater with missing ratings: count_patterns (from the (pattern, category, count)
    # triples) equals the bincount of each subject's ratings, subject by subject
    rng = np.random.default_rng(11)
    x = rng.integers(0, 4, (40, 5)).astype(float)
    x[rng.random((40, 5)) < 0.3] = np.nan
    ag = irr.Agreement.from_array(x, categories=[0.0, 1.0, 2.0, 3.0])
    stats = ag.statistics
    counts = stats.count_patterns
    per_subject = np.array([np.bincount(r[~np.isnan(r)].astype(int), minlength=4) for r in x])
    expanded = np.repeat(counts.patterns, counts.multiplicity, axis=0)
    assert sorted(map(tuple, expanded)) == sorted(map(tuple, per_subject))
    assert len(np.unique(counts.patterns, axis=0)) == counts.size  # distinct rows


# -- weighted kappa of one table in one pass -----------------------------------------------
def _close(got, want, scale=None):
    """Equal within 1e-13 relative (nan where nan), relative to `scale` where given
    (values that cancel to ~0)."""
    got, want = np.asarray(got, dtype=float), np.asarray(want, dtype=float)
    np.testing.assert_array_equal(np.isnan(got), np.isnan(want))
    tol = 1e-13 * (np.abs(want) if scale is None else scale)
    assert (np.abs(got - want) <= tol)[~np.isnan(want)].all(), (got, want)


@pytest.mark.parametrize("seed", range(6))
def test_weighted_kappa_equals_its_previous_functions(seed):
    """weighted_kappa gives, within 1e-13 relative, kappa_parts, kappa_variances,
    kappa_max, the influence values of the previous kappa_influence and its own previous
    form (tests/reference/previous_kernels.py) on random tables and weights (Monge, not
    Monge, a single used category); without the variance under the alternative the rest
    is the same, bit for bit."""
    from irr.coefficients.kappa import weighted_kappa
    from irr.weights import agreement_weights
    from tests.reference import previous_kernels

    rng = np.random.default_rng(seed)
    for trial in range(60):
        k = int(rng.integers(2, 9))
        table = rng.integers(0, 6, (k, k)) * (rng.random((k, k)) < 0.7)
        if trial == 0:
            table = np.zeros((k, k), dtype=np.int64)
            table[1, 1] = 7  # one category: kappa undefined
        if trial == 1:
            table = rng.integers(0, 1000, (k, k))  # large counts
        if table.sum() == 0:
            table[0, -1] = 3
        scheme = ("linear", "quadratic", "ordinal", "radical", "circular")[trial % 5]
        scores = np.sort(rng.choice(50, k, replace=False)).astype(float)
        if trial % 7 == 3:
            scores = scores[rng.permutation(k)]  # categories out of score order
        w = agreement_weights(scheme, k, scores)
        got = weighted_kappa(table, w)
        previous = previous_kernels.weighted_kappa(table, w)
        parts = kappa_parts(table, w)
        var, var0 = kappa_variances(table, w)
        # agreements and kappas are 1 - a ratio: relative to 1; the variances are
        # differences of terms of the order of 1 / (n (1 - p_e)^2): relative to that
        unit = 1.0 / (table.sum() * max(1.0 - float(parts.expected), 1e-100) ** 2)
        for value, want, scale in (
                (got.observed, parts.observed, 1.0), (got.expected, parts.expected, 1.0),
                (got.kappa, parts.kappa, 1.0), (got.var, var, unit), (got.var0, var0, unit),
                (got.kappa_max, kappa_max(table, w), 1.0)):
            _close(value, want, scale=max(abs(float(want)), scale))
        for value, want, scale in zip(got[:5] + got[6:], previous[:5] + previous[6:],
                                      (1.0, 1.0, 1.0, unit, unit, 1.0), strict=True):
            _close(value, want, scale=max(abs(float(want)), scale))
        lean = weighted_kappa(table, w, alternative_variance=False)
        assert np.isnan(lean.var)
        np.testing.assert_array_equal(tuple(lean._replace(influence=0.0)),
                                      tuple(got._replace(var=np.nan, influence=0.0)))
        if np.isnan(parts.kappa):
            assert got.influence is None
            assert previous[5] is None
        else:
            np.testing.assert_array_equal(lean.influence, got.influence)
            want = previous_kernels.kappa_influence(table, w)
            np.testing.assert_array_equal(previous[5], want)
            # centred gradients: the tolerance is relative to the largest of them
            _close(got.influence, want, scale=np.abs(want).max())
            _close(kappa_influence(table, w), want, scale=np.abs(want).max())


@pytest.mark.parametrize("seed", range(4))
def test_two_rater_cells_and_codes_equal_their_general_forms(seed):
    """Two integer raters: the k x k table of codes (a selection of the used values) and
    the occupied cells of complete fine patterns (the patterns themselves) equal their
    previous forms (np.add.at; np.unique of the cell numbers)."""
    from irr._data import integer_pair_table
    from irr._statistics import Coarsening
    from tests.reference import previous_kernels

    rng = np.random.default_rng(seed)
    for _ in range(20):
        n, lo = int(rng.integers(2, 300)), int(rng.integers(-5, 5))
        span = int(rng.integers(1, 12))
        a, b = rng.integers(lo, lo + span, n), rng.integers(lo, lo + span, n)
        table, _, _ = integer_pair_table(a, b)
        used = table.any(axis=0) | table.any(axis=1)
        ag = irr.Agreement(a, b)
        np.testing.assert_array_equal(ag.statistics.pair_table,
                                      previous_kernels.integer_pair_codes(table, used))
        stats = ag.statistics
        cells = stats.pair_cells
        # the general form: unique cell numbers of the complete patterns
        k = stats.n_categories
        occupied, inverse = np.unique(stats.patterns[:, 0] * k + stats.patterns[:, 1],
                                      return_inverse=True)
        want = Coarsening(inverse.reshape(-1), np.column_stack([occupied // k, occupied % k]),
                          stats.multiplicity)
        for field in ("index", "patterns", "multiplicity"):
            np.testing.assert_array_equal(getattr(cells, field), getattr(want, field))


@pytest.mark.parametrize("seed", range(4))
def test_northwest_corner_equals_its_previous_form(seed):
    """The monotone coupling's weight sum (kappa_max for Monge weights) equals, within
    1e-13 relative, its previous form (distinct breakpoints, cells found from each
    segment's start) on random integer margins with empty rows and columns, shared
    breakpoints and a single category."""
    from irr.coefficients.kappa import _northwest_corner
    from irr.weights import agreement_weights
    from tests.reference import previous_kernels

    rng = np.random.default_rng(seed)
    for trial in range(200):
        k = int(rng.integers(1, 10))
        table = rng.integers(0, 4, (k, k)) * (rng.random((k, k)) < 0.5)
        if trial % 3 == 0:
            table = np.diag(rng.integers(0, 5, k))  # every breakpoint shared
        if table.sum() == 0:
            table[-1, 0] = 2
        row, col = table.sum(axis=1).astype(float), table.sum(axis=0).astype(float)
        w = agreement_weights(("linear", "quadratic", "ordinal")[trial % 3], k,
                              np.sort(rng.choice(30, k, replace=False)).astype(float))
        got = _northwest_corner(row, col, w)
        want = previous_kernels.northwest_corner(row, col, w)
        assert abs(got - want) <= 1e-13 * max(abs(want), 1.0)
