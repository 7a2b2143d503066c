"""Issue 15, B5: sparse designs (many raters, few ratings per subject) in memory
proportional to the ratings, and Light's kappa without O(k^2) one-hots or loops over pairs.
"""

import subprocess
import sys
import textwrap
import warnings

import numpy as np
import pandas as pd
import pytest

import irr
import irr._source
from irr._statistics import Statistics
from irr.coefficients import chance_corrected as cc


def _run_limited(code: str, limit_gb: float = 2.0, timeout: int = 240) -> str:
    """Run `code` in a subprocess whose address space is capped (RLIMIT_AS)."""
    prelude = textwrap.dedent(f"""
        import resource
        cap = int({limit_gb} * 2**30)
        resource.setrlimit(resource.RLIMIT_AS, (cap, cap))
    """)
    done = subprocess.run([sys.executable, "-c", prelude + textwrap.dedent(code)],
                          capture_output=True, text=True, timeout=timeout, cwd=".")
    assert done.returncode == 0, done.stderr[-3000:]
    return done.stdout


def _crowd(n_items, n_workers, per_item, k, seed):
    """Long crowdsourcing data: each item rated by `per_item` distinct random workers."""
    rng = np.random.default_rng(seed)
    workers = np.argsort(rng.random((n_items, n_workers)), axis=1)[:, :per_item] \
        if n_items * n_workers <= 1e6 else _distinct(rng, n_items, n_workers, per_item)
    truth = rng.integers(0, k, n_items)
    noisy = rng.random((n_items, per_item)) < 0.3
    labels = np.where(noisy, rng.integers(0, k, (n_items, per_item)), truth[:, None])
    return pd.DataFrame({"item": np.repeat(np.arange(n_items), per_item),
                         "worker": workers.ravel(), "label": labels.ravel()})


def _distinct(rng, n_items, n_workers, per_item):
    first = rng.integers(0, n_workers, n_items)
    steps = rng.choice(np.arange(1, n_workers // per_item), size=(n_items, 1))
    return (first[:, None] + steps * np.arange(per_item)) % n_workers


def _both(df, monkeypatch):
    """The same long data pivoted densely and kept sparse."""
    dense = irr.Agreement.from_long(df, subject="item", rater="worker", rating="label")
    monkeypatch.setattr(irr._source, "DENSE_CELLS", 0)
    monkeypatch.setattr(irr._source, "DENSE_PER_RATING", 0)
    sparse = irr.Agreement.from_long(df, subject="item", rater="worker", rating="label")
    monkeypatch.undo()
    assert dense.statistics.sparse is None
    return dense, sparse


# -- Light's kappa: many labels, few raters (was 45 s and 8.7 GB) ----------------------------
def test_light_kappa_with_a_thousand_labels_fits_in_2gb():
    # 1,000 subjects x 3 raters with ~1,000 distinct labels: the one-hot (P, k*k) pair
    # tables asked for 8.7 GB. Expected: Light's kappa is by definition the mean of the
    # three pairwise Cohen's kappas, each computed here by cohen_kappa on its own pair
    # (the two-rater table path, independent of the pairwise kernel).
    out = _run_limited("""
        import numpy as np, irr
        rng = np.random.default_rng(5)
        truth = rng.integers(0, 1000, 1000)
        x = np.column_stack([np.where(rng.random(1000) < 0.2, rng.integers(0, 1000, 1000), truth)
                             for _ in range(3)])
        ag = irr.Agreement.from_array(x)
        light = ag.light_kappa().estimate
        pairs = [irr.cohen_kappa(x[:, g], x[:, h], categories=list(ag.categories)).estimate
                 for g, h in ((0, 1), (0, 2), (1, 2))]
        print(light, np.mean(pairs))
    """)
    light, mean = map(float, out.split())
    assert light == pytest.approx(mean, abs=1e-12)
    assert 0.5 < light < 0.9


# -- the crowdsourcing shape under a 2 GB limit ------------------------------------------------
def test_crowdsourcing_shape_runs_every_coefficient_in_2gb():
    # 40k items, 4,000 workers, 3 ratings each: the dense pivot alone is 40k x 4,000
    # cells (the dense pattern matrix 1.3 GB, the rater columns several GB more).
    # Expected numbers: Fleiss' kappa from the count rows computed here directly
    # (Fleiss 1971 with three ratings per item), against the package's value.
    out = _run_limited("""
        import warnings, numpy as np, pandas as pd, irr
        rng = np.random.default_rng(1)
        n, m, r, k = 40_000, 4_000, 3, 4
        first = rng.integers(0, m, n)
        workers = (first[:, None] + rng.integers(1, 1000, (n, 1)) * np.arange(r)) % m
        truth = rng.integers(0, k, n)
        labels = np.where(rng.random((n, r)) < 0.3, rng.integers(0, k, (n, r)), truth[:, None])
        df = pd.DataFrame({"item": np.repeat(np.arange(n), r), "worker": workers.ravel(),
                           "label": labels.ravel()})
        ag = irr.Agreement.from_long(df, subject="item", rater="worker", rating="label")
        assert ag.statistics.sparse is not None and ag.statistics.patterns is None
        counts = np.zeros((n, k)); np.add.at(counts, (np.repeat(np.arange(n), r), labels.ravel()), 1)
        p = counts.sum(0) / counts.sum(); pe = (p ** 2).sum()
        po = ((counts * (counts - 1)).sum(1) / (r * (r - 1))).mean()
        print((po - pe) / (1 - pe))
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            values = [ag.fleiss_kappa().estimate, ag.gwet_ac().estimate,
                      ag.brennan_prediger().estimate, ag.percent_agreement().estimate,
                      ag.conger_kappa().estimate, ag.conger_kappa(weights="quadratic").estimate]
            values += [ag.krippendorff_alpha(level=lv).estimate
                       for lv in ("nominal", "ordinal", "interval", "ratio")]
            print(*values)
            for call in (ag.icc, ag.kendall_w, ag.light_kappa,
                         lambda: ag.percent_agreement(definition="all"),
                         lambda: ag.error_rate_test(0.2, reference="0")):
                try:
                    call()
                    raise AssertionError("should refuse")
                except ValueError as exc:
                    print("refused:", str(exc).splitlines()[0][:60])
            text = str(ag.summary())
            assert "Fleiss" in text
    """, timeout=400)
    lines = out.splitlines()
    fleiss_direct = float(lines[0])
    values = [float(v) for v in lines[1].split()]
    assert values[0] == pytest.approx(fleiss_direct, abs=1e-12)
    assert all(np.isfinite(values))
    assert sum(line.startswith("refused:") for line in lines) == 5


# -- the sparse path equals the dense one -------------------------------------------------------
COEFFICIENTS = [
    ("fleiss", lambda a: a.fleiss_kappa()),
    ("gwet", lambda a: a.gwet_ac()),
    ("gwet ordinal", lambda a: a.gwet_ac(weights="ordinal")),
    ("bp", lambda a: a.brennan_prediger()),
    ("percent", lambda a: a.percent_agreement()),
    ("conger", lambda a: a.conger_kappa()),
    ("conger quadratic", lambda a: a.conger_kappa(weights="quadratic")),
    ("alpha nominal", lambda a: a.krippendorff_alpha()),
    ("alpha ordinal", lambda a: a.krippendorff_alpha(level="ordinal")),
    ("alpha interval", lambda a: a.krippendorff_alpha(level="interval")),
    ("alpha ratio", lambda a: a.krippendorff_alpha(level="ratio")),
]


@pytest.mark.parametrize("seed", range(6))
def test_sparse_statistics_give_the_dense_numbers(seed, monkeypatch):
    # Independent check: the dense path (pivot to rater columns) is the reference; the
    # sparse path must give the same estimates and standard errors within 1e-12.
    rng = np.random.default_rng(seed)
    df = _crowd(int(rng.integers(30, 80)), int(rng.integers(4, 9)), int(rng.integers(2, 4)),
                int(rng.integers(2, 5)), seed)
    dense, sparse = _both(df, monkeypatch)
    assert sparse.statistics.sparse is not None
    assert sparse.statistics.n_subjects == dense.statistics.n_subjects
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        for name, call in COEFFICIENTS:
            a, b = call(dense), call(sparse)
            assert b.estimate == pytest.approx(a.estimate, abs=1e-12, nan_ok=True), name
            if not name.startswith("alpha"):  # alpha's SE is drawn over the patterns,
                # whose order differs between the two forms; its estimate is exact
                assert b.se == pytest.approx(a.se, abs=1e-12, nan_ok=True), name


def test_sparse_light_kappa_and_reference_tests_match_dense(monkeypatch):
    # Every pair shares subjects (6 raters, 4 ratings per item, 300 items): Light's kappa,
    # its SE, the pairwise matrix and the error-rate tests against a reference agree.
    df = _crowd(300, 6, 4, 3, 11)
    dense, sparse = _both(df, monkeypatch)
    a, b = dense.light_kappa(), sparse.light_kappa()
    assert b.estimate == pytest.approx(a.estimate, abs=1e-12)
    assert b.se == pytest.approx(a.se, abs=1e-12)
    np.testing.assert_allclose(sparse.pairwise().to_numpy(), dense.pairwise().to_numpy(),
                               atol=1e-12)
    ta = dense.error_rate_test(0.2, reference="0")
    tb = sparse.error_rate_test(0.2, reference="0")
    assert [t.estimate for t in tb] == pytest.approx([t.estimate for t in ta], abs=1e-12)


def test_sparse_bootstrap_runs_with_clusters(monkeypatch):
    df = _crowd(60, 8, 3, 3, 2)
    monkeypatch.setattr(irr._source, "DENSE_CELLS", 0)
    monkeypatch.setattr(irr._source, "DENSE_PER_RATING", 0)
    ag = irr.Agreement.from_long(df, subject="item", rater="worker", rating="label")
    ci = ag.fleiss_kappa(ci="percentile", n_resamples=200, rng=1).ci
    again = ag.fleiss_kappa(ci="percentile", n_resamples=200, rng=1).ci
    assert (ci.low, ci.high) == (again.low, again.high)  # same input, same bytes
    assert ci.low < ag.fleiss_kappa().estimate < ci.high
    conger = ag.conger_kappa(ci="percentile", n_resamples=100, rng=1).ci
    assert np.isfinite(conger.low)


def test_sparse_statistics_add_exactly():
    # Two halves of a sparse design add to the statistics of the whole (int64, exact).
    rng = np.random.default_rng(3)
    subject = np.repeat(np.arange(50), 2)
    rater = (np.repeat(rng.integers(0, 10, 50), 2) + np.tile([0, 3], 50)) % 10
    code = rng.integers(0, 3, 100)
    kw = dict(categories=pd.Index([0, 1, 2]), scores=np.arange(3.0), ordered=True,
              raters=[str(i) for i in range(10)])
    whole = Statistics.from_entries(subject, rater, code, 50, **kw)
    half = 50
    a = Statistics.from_entries(subject[:half], rater[:half], code[:half], 25, **kw)
    b = Statistics.from_entries(subject[half:] - 25, rater[half:], code[half:], 25, **kw)
    assert a + b == whole
    big = Statistics(None, whole.multiplicity * (2**61 // 50), whole.categories, whole.scores,
                     True, whole.raters, sparse=whole.sparse)
    assert (big + big).multiplicity.tolist() == [2 * v for v in big.multiplicity.tolist()]
    # a dense statistics adds to a sparse one
    dense = Statistics(whole.sparse.dense(), whole.multiplicity, whole.categories,
                       whole.scores, True, whole.raters)
    assert (dense + whole).count_patterns.multiplicity.sum() == 100


def test_kernels_take_entries_or_dense_codes_alike():
    # Independent: the dense (P, m) codes and their entries give the same kernels.
    rng = np.random.default_rng(0)
    codes = rng.integers(-1, 3, (40, 5))
    codes[:, :2] = rng.integers(0, 3, (40, 2))
    batch = rng.integers(0, 3, (4, 40)).astype(float)
    w = 1 - np.abs(np.subtract.outer(np.arange(3), np.arange(3))) / 2
    entries = cc.code_entries(codes)
    for kernel in (cc.conger_kernel, cc.light_kernel):
        np.testing.assert_allclose(kernel(entries, batch, w), kernel(codes, batch, w),
                                   atol=1e-13, equal_nan=True)
