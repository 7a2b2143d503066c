"""The spine: additive statistics, one resampling plan, n_missing everywhere, one options
and one weights vocabulary (issue "One spine")."""

import json
import math
import re
import warnings

import numpy as np
import pandas as pd
import pytest

import irr
from irr import DegenerateDataWarning
from irr.cli import main
from irr.inference import bootstrap as bootstrap_module

RNG = np.random.default_rng(20261123)


def _ratings(n=300, m=4, k=4, missing=0.03, seed=0):
    rng = np.random.default_rng(seed)
    truth = rng.integers(1, k + 1, n)
    x = np.column_stack([np.where(rng.random(n) < 0.7, truth, rng.integers(1, k + 1, n))
                         for _ in range(m)]).astype(float)
    x[rng.random(x.shape) < missing] = np.nan
    return x


# -- one resampling plan ------------------------------------------------------------------
EVERY_COEFFICIENT = [
    ("percent_agreement", {"ci": "percentile"}),
    ("fleiss_kappa", {}),
    ("scott_pi", {}),
    ("conger_kappa", {}),
    ("light_kappa", {}),
    ("gwet_ac", {}),
    ("brennan_prediger", {}),
    ("krippendorff_alpha", {}),
    ("kendall_w", {"ci": "percentile"}),
]


def _recorded_draws(monkeypatch, ag, calls, seed):
    """The resampled fine-pattern counts each coefficient's bootstrap was evaluated on."""
    seen = {}
    real = bootstrap_module.bootstrap_counts

    def recording(pattern_counts, statistic, **kw):
        batches = []

        def wrapped(counts):
            batches.append(np.array(counts))
            return statistic(counts)

        dist = real(pattern_counts, wrapped, **kw)
        return dist, batches

    for method, options in calls:
        def record(pc, st, method=method, **kw):
            return seen.setdefault(method, recording(pc, st, **kw))[0]

        monkeypatch.setattr(bootstrap_module, "bootstrap_counts", record)
        with warnings.catch_warnings():
            warnings.simplefilter("ignore", DegenerateDataWarning)
            res = getattr(ag, method)(n_resamples=200, rng=seed, **options)
            res.bootstrap  # noqa: B018 - draws it
    # b[0] is the estimate's row; jackknife rows (BCa) come after the 200 resamples
    return {m: np.vstack(b[1:])[:200] for m, (_, b) in seen.items()}


def _check_same_subjects(ag, draws):
    """Every coefficient drew the same subjects: the same count-pattern counts, and (those
    that need rater identities) the same fine-pattern counts."""
    stats = ag.statistics
    fine_width, counts = len(stats.multiplicity), stats.count_patterns
    by_counts = {m: b if b.shape[1] == counts.size and b.shape[1] != fine_width
                 else counts.apply(b) for m, b in draws.items()}
    reference = next(iter(by_counts.values()))
    for method, batch in by_counts.items():
        np.testing.assert_array_equal(batch, reference, err_msg=method)
    fine = {m: b for m, b in draws.items() if b.shape[1] == fine_width}
    reference = next(iter(fine.values()))
    for method, batch in fine.items():
        np.testing.assert_array_equal(batch, reference, err_msg=method)
    return set(fine)


def test_every_coefficient_resamples_the_same_subjects(monkeypatch):
    # no missing rating: every coefficient uses every subject (with missing ratings each
    # resamples only the subjects it uses: tests/unit/inference/test_seeds_and_strata.py)
    ag = irr.Agreement.from_array(_ratings(missing=0))
    # many raters: drawn in two stages (count patterns, then rater codes)
    assert ag.statistics.count_patterns.size * 2 <= len(ag.statistics.multiplicity)
    draws = _recorded_draws(monkeypatch, ag, EVERY_COEFFICIENT, seed=3)
    assert set(draws) == {m for m, _ in EVERY_COEFFICIENT}
    fine = _check_same_subjects(ag, draws)
    assert fine == {"conger_kappa", "light_kappa", "kendall_w"}
    assert draws["fleiss_kappa"].shape == (200, ag.statistics.count_patterns.size)
    # and a different seed draws different subjects
    other = _recorded_draws(monkeypatch, ag, [("fleiss_kappa", {})], seed=4)["fleiss_kappa"]
    assert not np.array_equal(other, draws["fleiss_kappa"])


def test_two_rater_kappa_draws_the_same_subjects_as_the_multirater_coefficients(monkeypatch):
    ag = irr.Agreement.from_array(_ratings(m=2, missing=0))
    calls = [("kappa", {"weights": "quadratic"}), ("percent_agreement", {"ci": "bca"}),
             ("pabak", {"ci": "percentile"}), ("bangdiwala_b", {"ci": "percentile"}),
             ("specific_agreement", {"category": 2.0, "ci": "percentile"}),
             ("category_kappa", {"category": 3.0, "ci": "percentile"}),
             *EVERY_COEFFICIENT]
    draws = _recorded_draws(monkeypatch, ag, calls, seed=7)
    fine = _check_same_subjects(ag, draws)
    assert {"kappa", "pabak", "bangdiwala_b", "specific_agreement", "category_kappa"} <= fine


def test_two_stage_draws_have_the_distribution_of_one_stage():
    from irr.inference.bootstrap import bootstrap_counts

    ag = irr.Agreement.from_array(_ratings(n=150, m=5, missing=0))
    stats = ag.statistics
    mult = stats.multiplicity
    groups = stats.count_patterns.index
    ident = lambda c: c  # noqa: E731
    two = bootstrap_counts(mult, ident, n_resamples=4000, rng=1, groups=groups).replicates
    one = bootstrap_counts(mult, ident, n_resamples=4000, rng=2).replicates
    n, p = mult.sum(), mult / mult.sum()
    se = np.sqrt(n * p * (1 - p) / 4000)
    assert np.all(np.abs(two.mean(axis=0) - mult) < 5 * se + 1e-9)
    np.testing.assert_allclose(two.var(axis=0), n * p * (1 - p), rtol=0.2, atol=0.02)
    np.testing.assert_allclose(one.var(axis=0), n * p * (1 - p), rtol=0.2, atol=0.02)
    # batches reproduce one draw, and the first stage is the draw over the groups
    again = bootstrap_counts(mult, ident, n_resamples=4000, rng=1, groups=groups,
                             batch_size=33).replicates
    np.testing.assert_array_equal(two, again)
    first = bootstrap_counts(stats.count_patterns.multiplicity, ident, n_resamples=4000,
                             rng=1).replicates
    np.testing.assert_array_equal(stats.count_patterns.apply(two), first)


def test_replicates_of_coinciding_coefficients_are_identical():
    # Two raters, no missing rating: Conger's kappa is Cohen's kappa and Gwet's p_a is the
    # share of agreeing subjects, on every resample; Scott's pi is Fleiss' kappa.
    ag = irr.Agreement.from_array(_ratings(n=200, m=2, missing=0))
    pairs = [(ag.kappa(rng=5), ag.conger_kappa(rng=5)),
             (ag.scott_pi(rng=5), ag.fleiss_kappa(rng=5))]
    for a, b in pairs:
        ra, rb = a.bootstrap.replicates, b.bootstrap.replicates
        np.testing.assert_allclose(ra, rb, rtol=0, atol=1e-12)
        assert np.corrcoef(ra, rb)[0, 1] == pytest.approx(1, abs=1e-12)


def test_fleiss_and_conger_replicates_are_paired():
    # The case: 300 subjects x 4 raters, rng=3 gave r = -0.002 before the plan.
    ag = irr.Agreement.from_array(_ratings())
    f = ag.fleiss_kappa(rng=3).bootstrap.replicates
    c = ag.conger_kappa(rng=3).bootstrap.replicates
    a = ag.krippendorff_alpha(rng=3).bootstrap.replicates
    assert np.corrcoef(f, c)[0, 1] > 0.999
    assert np.corrcoef(f, a)[0, 1] > 0.99
    diff = f - c  # a paired interval for the difference is narrow
    assert np.std(diff) < 0.1 * np.std(f)


def test_two_rater_kappa_bootstrap_unchanged_on_complete_data():
    # The fine patterns of complete two-rater data are the nonzero table cells in cell
    # order, so kappa's resamples are those of a bootstrap over the table.
    from irr.coefficients.kappa import kappa_from_counts
    from irr.inference.bootstrap import bootstrap_counts

    ag = irr.Agreement.from_frame(irr.datasets.load("vision"))
    res = ag.kappa(ci="bca", n_resamples=500, rng=11)
    direct = bootstrap_counts(ag.statistics.pair_table.ravel(),
                              lambda c: kappa_from_counts(c, np.eye(4)), n_resamples=500, rng=11)
    np.testing.assert_allclose(res.bootstrap.replicates, direct.replicates, atol=1e-12)
    lo, hi = direct.interval(0.95, "bca")
    assert (res.ci.low, res.ci.high) == pytest.approx((lo, hi), abs=1e-12)


# -- additive statistics -------------------------------------------------------------------
def _split(n, parts, rng):
    return np.array_split(rng.permutation(n), parts)


def _sum(stats):
    total = stats[0]
    for s in stats[1:]:
        total = total + s
    return total


CATS = [1, 2, 3, 4]


@pytest.mark.parametrize("parts", [2, 3, 7])
def test_statistics_add_over_row_splits_for_every_input_form(parts):
    rng = np.random.default_rng(parts)
    x = _ratings(n=120, m=3, seed=parts)
    names = ["a", "b", "c"]
    frame = pd.DataFrame(x, columns=names)
    frame["w"] = rng.integers(0, 4, len(frame))
    long = frame[names].rename_axis("id").reset_index().melt(
        id_vars="id", var_name="rater", value_name="grade").dropna()
    builds = {
        "columns": lambda rows: irr.Agreement(*(frame[c].iloc[rows] for c in names),
                                              categories=CATS),
        "wide frame": lambda rows: irr.Agreement.from_frame(frame.iloc[rows], names,
                                                            categories=CATS),
        "weighted frame": lambda rows: irr.Agreement.from_frame(
            frame.iloc[rows], names, categories=CATS, freq_weights="w"),
        "array": lambda rows: irr.Agreement.from_array(x[rows], names, categories=CATS),
        "long frame": lambda rows: irr.Agreement.from_long(
            long[long["id"].isin(rows)], subject="id", rater="rater", rating="grade",
            categories=CATS),
    }
    pieces = _split(len(frame), parts, rng)
    for form, build in builds.items():
        whole = build(np.arange(len(frame)))
        pieces_ag = [build(p) for p in pieces]
        total = _sum([p.statistics for p in pieces_ag])
        assert total == whole.statistics, form
        assert total.multiplicity.dtype == np.int64
        assert (total.n_subjects, total.n_missing) == (whole.n_subjects, whole.n_missing)
        summed = irr.Agreement.from_statistics(total)
        for method in ("fleiss_kappa", "conger_kappa", "light_kappa", "gwet_ac"):
            a, b = getattr(summed, method)(), getattr(whole, method)()
            assert (a.estimate, a.se, a.n_missing) == (b.estimate, b.se, b.n_missing), form
        a, b = summed.krippendorff_alpha("interval", ci=None), whole.krippendorff_alpha(
            "interval", ci=None)
        assert a.estimate == pytest.approx(b.estimate, abs=1e-14)


def test_statistics_add_for_tables_and_counts():
    rng = np.random.default_rng(5)
    table = rng.integers(0, 30, (4, 4))
    parts = [rng.integers(0, 1 + table // 2) for _ in range(2)]
    parts.append(table - parts[0] - parts[1])
    assert (parts[2] >= 0).all()
    pieces = [irr.Agreement.from_table(p, categories=CATS) for p in parts if p.sum()]
    whole = irr.Agreement.from_table(table, categories=CATS)
    total = _sum([p.statistics for p in pieces])
    assert total == whole.statistics
    np.testing.assert_array_equal(total.pair_table, table)
    assert irr.Agreement.from_statistics(total).kappa("quadratic").estimate == (
        whole.kappa("quadratic").estimate)

    counts = rng.integers(0, 4, (40, 3))
    whole = irr.Agreement.from_counts(counts)
    pieces = [irr.Agreement.from_counts(counts[i::3], categories=[0, 1, 2]) for i in range(3)]
    total = _sum([p.statistics for p in pieces])
    assert total == whole.statistics
    summed = irr.Agreement.from_statistics(total)
    assert summed.fleiss_kappa().estimate == whole.fleiss_kappa().estimate


def test_statistics_refuse_to_add_different_scales_or_raters():
    a = irr.Agreement([1, 2, 2], [1, 2, 1])
    b = irr.Agreement([1, 3, 3], [1, 3, 1])
    with pytest.raises(ValueError, match=r"same categories.*declare the full scale"):
        a.statistics + b.statistics
    c = irr.Agreement([1, 2, 2], [1, 2, 1], names=["x", "y"])
    with pytest.raises(ValueError, match="same raters"):
        a.statistics + c.statistics
    with pytest.raises(TypeError, match="must be irr Statistics"):
        irr.Agreement.from_statistics(a.table)
    summed = irr.Agreement.from_statistics(a.statistics + a.statistics)
    with pytest.raises(ValueError, match="`cluster` needs one value per subject"):
        summed.kappa(ci="bca", cluster=[1, 2, 3, 4, 5, 6])


def test_statistics_of_many_rows_are_built_in_chunks():
    # 2**20 + 5 rows: two chunks, added.
    rng = np.random.default_rng(0)
    a = rng.integers(0, 3, (1 << 20) + 5)
    b = np.where(rng.random(len(a)) < 0.8, a, rng.integers(0, 3, len(a)))
    stats = irr.Agreement(a, b).statistics
    expected = np.zeros((3, 3), dtype=np.int64)
    np.add.at(expected, (a, b), 1)
    np.testing.assert_array_equal(stats.pair_table, expected)
    assert stats.n_subjects == len(a)


# -- n_missing is what each estimator left out ----------------------------------------------
def _left_out(x, method):
    """What each family leaves out, computed independently from the raw matrix."""
    present = ~np.isnan(x)
    r = present.sum(axis=1)
    if method in ("icc", "kendall_w"):
        return int((r < x.shape[1]).sum())
    if method in ("light_kappa", "krippendorff_alpha"):
        return int((r < 2).sum())
    return int((r == 0).sum())


FAMILY_CALLS = [
    ("percent_agreement", {}), ("fleiss_kappa", {}), ("scott_pi", {}),
    ("conger_kappa", {}), ("light_kappa", {}), ("gwet_ac", {}), ("brennan_prediger", {}),
    ("krippendorff_alpha", {"ci": None}), ("icc", {}), ("kendall_w", {}),
]


def test_n_missing_of_every_family_is_what_it_left_out():
    x = _ratings(n=60, m=4, missing=0.15, seed=2)
    x[3] = np.nan  # a subject with no rating
    x[4, 1:] = np.nan  # one with a single rating
    ag = irr.Agreement.from_array(x)
    incomplete = int(np.isnan(x).any(axis=1).sum())
    assert ag.n_missing == incomplete
    for method, options in FAMILY_CALLS:
        res = getattr(ag, method)(**options)
        assert res.n_missing == _left_out(x, method), method
        assert res.n_incomplete == incomplete, method
        frame = res.to_frame()
        assert frame["n_missing"].iloc[0] == res.n_missing
        assert res.to_dict()["n_incomplete"] == incomplete
        text = res.summary().as_text()
        line = next(ln for ln in text.splitlines() if "Subjects used:" in ln)
        used = line.split("Subjects used:")[1].split()
        assert used[:3] == [str(res.n_subjects), "of", str(len(x))], method
        assert (used[3:4] == ["(listwise)"]) == (res.n_missing == incomplete), method
        assert re.search(rf"Subjects missing a rating:\s+{incomplete}\s", text), method
    two = irr.Agreement.from_array(x[:, :2])
    res = two.kappa()
    assert res.n_missing == int(np.isnan(x[:, :2]).any(axis=1).sum()) == two.n_missing


def test_summaries_show_subjects_with_missing_ratings_and_rows_that_differ():
    x = _ratings(n=60, m=4, missing=0.1, seed=3)
    ag = irr.Agreement.from_array(x)
    text = ag.summary().as_text()
    incomplete = int(np.isnan(x).any(axis=1).sum())
    cells = int(np.isnan(x).sum())
    assert re.search(rf"Missing ratings:\s+{cells} in {incomplete} subjects\s", text)
    icc = ag.icc()
    assert (f"ICC(2,1): {icc.n_subjects} of {len(x)} subjects used (listwise).") in text
    assert re.search(rf"Subjects:\s+{len(x)}\s", text)
    assert "Subjects used:" not in text  # the rows left out different subjects


def test_n_missing_in_by_and_cli_json(tmp_path, capsys):
    x = _ratings(n=80, m=3, missing=0.1, seed=4)
    df = pd.DataFrame(x, columns=["a", "b", "c"]).assign(site=["n", "s"] * 40)
    for method, _ in FAMILY_CALLS[:3]:
        out = irr.by(df, "site", raters=["a", "b", "c"], statistic=method)
        for site, group in df.groupby("site"):
            values = group[["a", "b", "c"]].to_numpy()
            row = out[out["site"] == site].iloc[0]
            assert row["n_missing"] == _left_out(values, method), method
            assert row["n_incomplete"] == int(np.isnan(values).any(axis=1).sum())
    path = tmp_path / "ratings.csv"
    df[["a", "b", "c"]].to_csv(path, index=False)
    assert main(["multi", str(path), "--format", "json", "--seed", "1"]) == 0
    payload = json.loads(capsys.readouterr().out)
    for row in payload["results"]:
        method = {"Percent agreement (pairwise)": "percent_agreement",
                  "Percent agreement (all raters)": "icc",  # listwise, as the ICC
                  "Fleiss' kappa": "fleiss_kappa",
                  "Conger's kappa": "conger_kappa", "Light's kappa": "light_kappa",
                  "Gwet's AC1": "gwet_ac", "Brennan-Prediger": "brennan_prediger"}.get(
                      row["coefficient"], "krippendorff_alpha")
        assert row["n_missing"] == _left_out(x, method), row["coefficient"]
        assert row["n_incomplete"] == int(np.isnan(x).any(axis=1).sum())


# -- fixes ------------------------------------------------------------------------------------
def test_error_rate_test_counts_missing_weighted_subjects():
    frame = pd.DataFrame({"ref": [1, 1, 2, 2, 1], "other": [1, 2, 2, np.nan, 1],
                          "n": [10, 3, 7, 4, 0]})
    weighted = irr.Agreement.from_frame(frame, ["ref", "other"], freq_weights="n")
    res = weighted.error_rate_test(0.5)
    assert (res.errors, res.n, res.n_missing) == (3, 20, 4)
    expanded = frame.loc[frame.index.repeat(frame["n"])]
    ref = irr.Agreement.from_frame(expanded, ["ref", "other"]).error_rate_test(0.5)
    assert (res.errors, res.n, res.n_missing, res.pvalue) == (
        ref.errors, ref.n, ref.n_missing, ref.pvalue)
    assert any("4 subject(s) with a missing rating" in n for n in res.notes)


def test_percent_agreement_bootstrap_is_seeded_and_paired():
    two = irr.Agreement.from_array(_ratings(m=2))
    a = two.percent_agreement(ci="bca", n_resamples=300, rng=9)
    b = two.percent_agreement(ci="bca", n_resamples=300, rng=9)
    assert a.ci == b.ci
    assert (a.ci.method, a.n_resamples) == ("bca", 300)
    np.testing.assert_array_equal(a.bootstrap.replicates, b.bootstrap.replicates)
    assert two.percent_agreement().ci.method == "wilson"  # the default is unchanged
    assert two.percent_agreement(ci="wald").ci.method == "wald"
    many = irr.Agreement.from_array(_ratings())
    c = many.percent_agreement(ci="percentile", n_resamples=300, rng=9)
    d = many.percent_agreement(n_resamples=300, rng=9)
    assert (c.ci.method, d.ci.method) == ("percentile", "wald")
    np.testing.assert_array_equal(c.bootstrap.replicates, d.bootstrap.replicates)
    with pytest.raises(ValueError, match="`n_resamples` must be at least 1"):
        two.percent_agreement(n_resamples=0)


def test_kendall_conf_int_and_bootstrap():
    ag = irr.Agreement.from_frame(irr.datasets.load("anxiety"))
    res = ag.kendall_w()
    assert res.ci.method == "none"
    assert math.isnan(res.ci.low)
    ci = res.conf_int()
    assert ci.method == "none"
    assert math.isnan(ci.high)
    boot = ag.kendall_w(ci="percentile", n_resamples=400, rng=1)
    assert boot.estimate == res.estimate
    assert 0 <= boot.ci.low < res.estimate < boot.ci.high <= 1
    assert boot.conf_int(0.9, "bca").method == "bca"
    # each replicate is W of the resampled subjects, recomputed from scratch
    from irr.coefficients.kendall import kendall_w

    x = irr.datasets.load("anxiety").to_numpy(dtype=float)
    stats = ag.statistics
    scores = np.append(stats.scores, np.nan)[stats.patterns]
    counts = np.random.default_rng(0).multinomial(20, stats.multiplicity / 20, size=3)
    f = boot.bootstrap  # noqa: F841 - the distribution exists
    from irr.coefficients.kendall import kendall_kernel

    for row in counts:
        expanded = np.repeat(scores, row, axis=0)
        assert kendall_kernel(scores, row[None])[0] == pytest.approx(
            kendall_w(expanded).w, abs=1e-12)
    assert x.shape == (20, 3)
    with pytest.raises(ValueError, match="`method` must be one of 'none', 'percentile'"):
        res.conf_int(method="wald")


def test_one_weights_vocabulary():
    ag = irr.Agreement.from_frame(irr.datasets.load("anxiety"))
    two = irr.Agreement.from_frame(irr.datasets.load("anxiety"), ["rater1", "rater2"])
    schemes = ["linear", "quadratic", "ordinal", "radical", "ratio", "circular", "bipolar",
               "Fleiss-Cohen", "identity"]
    for scheme in schemes:
        w = irr.weights.agreement_weights(scheme, 6, two.statistics.scores)
        k = two.kappa(scheme)
        assert k.estimate == pytest.approx(two.kappa(w).estimate, abs=1e-14), scheme
        for method in ("fleiss_kappa", "conger_kappa", "light_kappa", "gwet_ac",
                       "brennan_prediger"):
            assert getattr(ag, method)(scheme).estimate == pytest.approx(
                getattr(ag, method)(w).estimate, abs=1e-14), (method, scheme)
    assert two.kappa("identity").estimate == two.kappa().estimate
    messages = set()
    for call in (lambda: two.kappa("cubic"), lambda: ag.fleiss_kappa("cubic"),
                 lambda: ag.gwet_ac("cubic"), lambda: ag.conger_kappa("cubic")):
        with pytest.raises(ValueError, match="`weights` must be None, one of") as info:
            call()
        messages.add(str(info.value))
    assert len(messages) == 1
    nominal = irr.Agreement(["a", "b", "a"], ["a", "b", "b"])
    for call in (lambda: nominal.kappa("ordinal"), lambda: nominal.gwet_ac("ordinal")):
        with pytest.raises(ValueError, match="needs ordered categories with scores"):
            call()


def test_inference_options_are_validated_once_with_the_same_messages():
    ag = irr.Agreement.from_array(_ratings(n=40))
    for method in ("fleiss_kappa", "conger_kappa", "gwet_ac", "kendall_w"):
        with pytest.raises(ValueError, match="`alternative` must be one of"):
            ag.fleiss_kappa(alternative="bigger")
        with pytest.raises(ValueError, match="`n_resamples` must be at least 1"):
            getattr(ag, method)(n_resamples=0)
        with pytest.raises(ValueError, match="`confidence_level` must be in"):
            getattr(ag, method)(confidence_level=1.5)
        with pytest.raises(TypeError, match="`rng` must be None"):
            getattr(ag, method)(rng="seed")
        with pytest.raises(TypeError, match="`progress` must be True, False or None"):
            getattr(ag, method)(progress="yes")


def test_results_do_not_keep_the_agreement_alive():
    import gc
    import weakref

    ag = irr.Agreement.from_array(_ratings(n=50))
    ref = weakref.ref(ag)
    res = ag.fleiss_kappa(rng=0)
    del ag
    gc.collect()
    assert ref() is None
    assert res.conf_int(method="percentile").method == "percentile"


def test_cli_report_is_reproducible_by_default_and_names_its_seed(capsys):
    outputs = []
    for _ in range(2):
        assert main(["report", "--dataset", "anxiety"]) == 0
        outputs.append(capsys.readouterr().out)
    assert outputs[0] == outputs[1]
    line = next(ln for ln in outputs[0].splitlines() if "Bootstrap seed:" in ln)
    assert line.split("Bootstrap seed:")[1].split()[0] == "0"
    assert main(["report", "--dataset", "anxiety", "--seed", "5"]) == 0
    assert capsys.readouterr().out != outputs[0]


def test_two_stage_draws_with_any_generator_and_zero_counts():
    from irr.inference.bootstrap import bootstrap_counts

    counts = np.array([4, 0, 3, 5, 2, 0])
    groups = np.array([0, 0, 1, 1, 2, 2])
    ident = lambda c: c  # noqa: E731
    for make in (lambda: np.random.Generator(np.random.SFC64(3)),  # no jumped()
                 lambda: np.random.Generator(np.random.MT19937(3)),
                 lambda: np.random.default_rng(3)):
        a = bootstrap_counts(counts, ident, n_resamples=300, rng=make(), groups=groups)
        b = bootstrap_counts(counts, ident, n_resamples=300, rng=make(), groups=groups,
                             batch_size=17)
        np.testing.assert_array_equal(a.replicates, b.replicates)
        assert (a.replicates[:, [1, 5]] == 0).all()  # patterns with no subject never drawn
        np.testing.assert_array_equal(a.replicates.sum(axis=1), np.full(300, 14))
    # the caller's generator is where a one-stage draw would leave it
    g1, g2 = np.random.default_rng(8), np.random.default_rng(8)
    bootstrap_counts(counts, ident, n_resamples=50, rng=g1, groups=groups)
    bootstrap_counts(np.bincount(groups, weights=counts).astype(int), ident, n_resamples=50,
                     rng=g2)
    assert g1.random() == g2.random()


def test_statistics_add_exactly_beyond_2_to_the_53_and_check_the_scale():
    from irr._statistics import Statistics

    big = 2**53 - 2
    cats = pd.Index([1, 2])
    a = Statistics(np.array([[0, 0]]), np.array([big]), cats, np.array([1.0, 2.0]), True,
                   ("x", "y"))
    b = Statistics(np.array([[0, 0], [1, 1]]), np.array([3, 1]), cats, np.array([1.0, 2.0]),
                   True, ("x", "y"))
    total = a + b
    assert total.multiplicity.tolist() == [2**53 + 1, 1]
    assert (b + a) == total
    unordered = Statistics(b.patterns, b.multiplicity, cats, None, False, ("x", "y"))
    with pytest.raises(ValueError, match="same categories, scores and order"):
        a + unordered
    with pytest.raises(ValueError, match="same categories, scores and order"):
        unordered + a
    assert unordered != b


def test_undefined_estimate_keeps_the_requested_interval_method():
    ag = irr.Agreement([1, 1, 1, 1], [1, 1, 1, 1], categories=[1, 2])
    with pytest.warns(DegenerateDataWarning):
        res = ag.kappa(ci="bca", n_resamples=50, rng=0)
    assert res.ci.method == "bca"
    assert math.isnan(res.ci.low)


def test_bca_counts_replicates_within_rounding_of_the_estimate_as_ties():
    from irr.inference.bootstrap import BootstrapDistribution

    reps = np.array([0.1, 0.2, 0.3 + 1e-16, 0.4, 0.5])
    dist = BootstrapDistribution(reps, 0.3, 5, 0, _jackknife=lambda: (
        np.array([0.29, 0.31]), np.array([1.0, 1.0])))
    exact = BootstrapDistribution(reps.round(12), 0.3, 5, 0, _jackknife=lambda: (
        np.array([0.29, 0.31]), np.array([1.0, 1.0])))
    assert dist.interval(0.5, "bca") == exact.interval(0.5, "bca")  # 5 resamples: level <= .6
