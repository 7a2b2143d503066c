"""irr.difference (correlated and independent coefficients) and irr.pool (independent
groups), against direct re-implementations written here: Gwet's (2016) per-subject
linearisation of Cohen's kappa and Fleiss' kappa with explicit loops over subjects, a
per-subject paired bootstrap drawing subject indices, and the inverse-variance formulas."""

import math
import pickle
import re

import numpy as np
import pandas as pd
import pytest
from scipy import stats

import irr
from irr.estimators.difference import fisher_z


# -- data --------------------------------------------------------------------------------
def _panel(n=80, seed=11):
    """Four readers grading n cases on 1..4, two noisy and two careful, with ids."""
    rng = np.random.default_rng(seed)
    truth = rng.integers(1, 5, n)

    def reader(sd):
        return np.clip(np.rint(truth + rng.normal(0, sd, n)), 1, 4).astype(int)

    ids = [f"case{i:03d}" for i in range(n)]
    return pd.DataFrame({"A": reader(0.5), "B": reader(0.5), "C": reader(1.0),
                         "D": reader(1.0)}, index=pd.Index(ids, name="case"))


@pytest.fixture(scope="module")
def panel():
    return _panel()


# -- independent implementations -----------------------------------------------------------
def _cohen_terms(a, b, k, w):
    """Gwet's linearised values of (weighted) Cohen's kappa, subject by subject:
    kappa*_i = (pa_i - pe)/(1 - pe) - 2 (1 - kappa) (pe_i - pe)/(1 - pe)."""
    n = len(a)
    p_row = np.array([np.mean(a == c) for c in range(k)])
    p_col = np.array([np.mean(b == c) for c in range(k)])
    pa_i = np.array([w[a[i], b[i]] for i in range(n)])
    pa = pa_i.mean()
    pe = sum(w[x, y] * p_row[x] * p_col[y] for x in range(k) for y in range(k))
    kappa = (pa - pe) / (1 - pe)
    pe_i = np.array([(sum(w[a[i], y] * p_col[y] for y in range(k))
                      + sum(w[x, b[i]] * p_row[x] for x in range(k))) / 2 for i in range(n)])
    return kappa, (pa_i - pe) / (1 - pe) - 2 * (1 - kappa) * (pe_i - pe) / (1 - pe)


def _fleiss_terms(codes, k):
    """Gwet's linearised values of Fleiss' kappa (complete data), subject by subject."""
    n, r = codes.shape
    counts = np.array([[np.sum(codes[i] == c) for c in range(k)] for i in range(n)])
    pi = counts.sum(axis=0) / (n * r)
    pa_i = np.array([sum(counts[i, c] * (counts[i, c] - 1) for c in range(k)) / (r * (r - 1))
                     for i in range(n)])
    pe = float(pi @ pi)
    kappa = (pa_i.mean() - pe) / (1 - pe)
    pe_i = np.array([sum(counts[i, c] / r * pi[c] for c in range(k)) for i in range(n)])
    return kappa, (pa_i - pe) / (1 - pe) - 2 * (1 - kappa) * (pe_i - pe) / (1 - pe)


def _variance(d):
    n = len(d)
    return float(np.sum((d - d.mean()) ** 2) / (n * (n - 1)))


def _quadratic(k):
    i, j = np.meshgrid(np.arange(k), np.arange(k), indexing="ij")
    return 1 - (i - j) ** 2 / (k - 1) ** 2


# -- correlated coefficients: the linearisation ----------------------------------------------
@pytest.mark.parametrize("weights", [None, "quadratic"])
def test_two_reader_pairs_match_a_direct_linearisation(panel, weights):
    ag = irr.Agreement.from_frame(panel)
    res = irr.difference(ag, raters=(["A", "B"], ["C", "D"]), weights=weights)
    codes = panel.to_numpy() - 1
    w = np.eye(4) if weights is None else _quadratic(4)
    k1, t1 = _cohen_terms(codes[:, 0], codes[:, 1], 4, w)
    k2, t2 = _cohen_terms(codes[:, 2], codes[:, 3], 4, w)
    assert res.estimate_first == pytest.approx(k1, abs=1e-12)
    assert res.estimate_second == pytest.approx(k2, abs=1e-12)
    assert res.estimate == pytest.approx(k1 - k2, abs=1e-12)
    assert res.se == pytest.approx(math.sqrt(_variance(t1 - t2)), rel=1e-10)
    assert res.labels == ("A-B", "C-D")
    assert res.statistic == pytest.approx(res.estimate / res.se)
    assert res.pvalue == pytest.approx(2 * stats.norm.sf(abs(res.statistic)))


def test_two_coefficients_of_one_agreement_match_a_direct_linearisation(panel):
    ag = irr.Agreement.from_frame(panel)
    res = irr.difference(ag, statistic=("fleiss_kappa", "kappa"),
                         raters=(["A", "B", "C", "D"], ["A", "B"]))
    codes = panel.to_numpy() - 1
    kf, tf = _fleiss_terms(codes, 4)
    kc, tc = _cohen_terms(codes[:, 0], codes[:, 1], 4, np.eye(4))
    assert res.estimate == pytest.approx(kf - kc, abs=1e-12)
    assert res.se == pytest.approx(math.sqrt(_variance(tf - tc)), rel=1e-10)


def test_a_coefficient_against_itself_differs_by_nothing(panel):
    ag = irr.Agreement.from_frame(panel)
    with pytest.warns(irr.DegenerateDataWarning, match="standard error is 0"):
        res = irr.difference(ag, statistic="fleiss_kappa", n_resamples=500)
    assert res.estimate == 0
    assert res.se == 0
    assert math.isnan(res.statistic)
    assert math.isnan(res.ci.low)
    assert np.all(res.bootstrap.replicates == 0)  # the two sides see the same resamples


def test_linearised_se_of_a_difference_with_a_constant_is_the_coefficients_own(panel):
    """Against a coefficient that cannot move (perfect agreement: kappa* = 1 for every
    subject), the difference's SE is the coefficient's own Gwet SE (Fleiss: the same
    n(n - 1) divisor) or its FCE SE times sqrt(n / (n - 1)) (Cohen)."""
    perfect = panel.assign(E=panel["A"], F=panel["A"])
    ag = irr.Agreement.from_frame(perfect)
    n = len(panel)
    with pytest.warns(irr.DegenerateDataWarning, match="standard error is 0"):
        fleiss = irr.difference(ag, statistic="fleiss_kappa",
                                raters=(["A", "B", "C", "D"], ["E", "F"]))
    assert fleiss.estimate_second == 1
    assert fleiss.se == pytest.approx(
        irr.Agreement.from_frame(panel).fleiss_kappa().se, rel=1e-10)
    with pytest.warns(irr.DegenerateDataWarning, match="standard error is 0"):
        cohen = irr.difference(ag, raters=(["A", "C"], ["E", "F"]))
    own = irr.Agreement.from_frame(panel, raters=["A", "C"]).kappa().se
    assert cohen.se == pytest.approx(own * math.sqrt(n / (n - 1)), rel=1e-10)


# -- correlated coefficients: the paired bootstrap -------------------------------------------
def _weighted_kappa_of_resamples(a, b, index, w):
    """Weighted kappa of the pairs (a[i], b[i]) of each row of subject indices `index`
    (B, n): tables by np.bincount, then (p_o - p_e) / (1 - p_e), directly."""
    k = w.shape[0]
    reps, n = index.shape
    cells = (np.arange(reps)[:, None] * k * k + a[index] * k + b[index]).ravel()
    p = np.bincount(cells, minlength=reps * k * k).reshape(reps, k, k) / n
    po = (p * w).sum(axis=(1, 2))
    pe = np.einsum("bi,ij,bj->b", p.sum(axis=2), w, p.sum(axis=1))
    return (po - pe) / (1 - pe)


def test_paired_bootstrap_matches_a_per_subject_bootstrap(panel):
    """The engine draws multinomial counts over joint patterns; this draws subject
    indices and recomputes both kappas directly. Same law, other draws: the SEs agree
    within Monte Carlo error (B = 4000 each: ~3%), and both are close to the linearised
    SE."""
    ag = irr.Agreement.from_frame(panel)
    res = irr.difference(ag, raters=(["A", "B"], ["C", "D"]), weights="quadratic",
                         ci="percentile", n_resamples=4000, rng=5)
    x = panel.to_numpy() - 1
    index = np.random.default_rng(1).integers(0, len(x), (4000, len(x)))
    w = _quadratic(4)
    reps = (_weighted_kappa_of_resamples(x[:, 0], x[:, 1], index, w)
            - _weighted_kappa_of_resamples(x[:, 2], x[:, 3], index, w))
    brute = np.std(reps, ddof=1)
    assert res.bootstrap.se == pytest.approx(brute, rel=0.08)
    assert res.bootstrap.se == pytest.approx(res.se, rel=0.2)
    lo, hi = np.quantile(res.bootstrap.replicates, [0.025, 0.975])
    assert (res.ci.low, res.ci.high) == pytest.approx((lo, hi), abs=1e-12)
    assert np.quantile(reps, 0.025) == pytest.approx(lo, abs=0.03)
    assert np.quantile(reps, 0.975) == pytest.approx(hi, abs=0.03)
    assert res.ci.method == "percentile"
    assert res.n_resamples == 4000
    bca = res.conf_int(method="bca")
    assert bca.low < res.estimate < bca.high


def test_bootstrap_is_reproducible_and_pickles(panel):
    ag = irr.Agreement.from_frame(panel)
    one = irr.difference(ag, statistic=("fleiss_kappa", "gwet_ac"), ci="bca",
                         n_resamples=999)
    two = irr.difference(ag, statistic=("fleiss_kappa", "gwet_ac"), ci="bca",
                         n_resamples=999)
    assert one.to_frame().equals(two.to_frame())
    assert one.report() == two.report()
    undrawn = irr.difference(ag, statistic=("fleiss_kappa", "gwet_ac"), n_resamples=999)
    again = pickle.loads(pickle.dumps(undrawn))
    np.testing.assert_array_equal(again.bootstrap.replicates, one.bootstrap.replicates)


# -- two Agreements on the same subjects -----------------------------------------------------
def test_two_agreements_are_matched_by_subject_label(panel):
    before = irr.Agreement.from_frame(panel[["C", "D"]])
    after = irr.Agreement.from_frame(panel[["A", "B"]])
    shuffled = irr.Agreement.from_frame(panel[["C", "D"]].sample(frac=1, random_state=2))
    res = irr.difference(after, before, labels=("after", "before"))
    same = irr.difference(after, shuffled, labels=("after", "before"))
    assert same.estimate == pytest.approx(res.estimate, abs=1e-12)
    assert same.se == pytest.approx(res.se, rel=1e-12)
    positional = irr.difference(
        irr.Agreement.from_frame(panel[["A", "B"]].reset_index(drop=True)),
        irr.Agreement.from_frame(panel[["C", "D"]].reset_index(drop=True)))
    assert positional.se == pytest.approx(res.se, rel=1e-12)


def test_two_agreements_are_matched_by_their_id_columns(panel):
    """Frames whose subjects are named by an `id=` column (a default RangeIndex), in two
    row orders: paired by the ids, as frames indexed by them are."""
    frame = panel.reset_index()  # the ids in a column "case"
    before = irr.Agreement.from_frame(frame[["case", "C", "D"]], id="case")
    after = irr.Agreement.from_frame(frame[["case", "A", "B"]], id="case")
    shuffled = irr.Agreement.from_frame(
        frame[["case", "C", "D"]].sample(frac=1, random_state=3).reset_index(drop=True),
        id="case")
    assert list(shuffled.codes().index[:2]) != list(before.codes().index[:2])
    assert shuffled.codes().index.name == "case"
    indexed = irr.difference(irr.Agreement.from_frame(panel[["A", "B"]]),
                             irr.Agreement.from_frame(panel[["C", "D"]]))
    for second in (before, shuffled):
        res = irr.difference(after, second)
        assert res.estimate == pytest.approx(indexed.estimate, abs=1e-12)
        assert res.se == pytest.approx(indexed.se, rel=1e-12)
    # one side without labels: refused, saying which
    with pytest.raises(ValueError, match=r"`second` has no subject labels.*same `id=`"):
        irr.difference(after, irr.Agreement.from_frame(frame[["C", "D"]]))


def test_continuous_agreements_are_matched_by_their_id_columns():
    rng = np.random.default_rng(5)
    truth = rng.normal(120, 15, 40)
    frame = pd.DataFrame({"patient": [f"p{i}" for i in range(40)],
                          "a": truth + rng.normal(0, 3, 40), "b": truth + rng.normal(0, 3, 40),
                          "c": truth + rng.normal(0, 6, 40), "d": truth + rng.normal(0, 6, 40)})
    first = irr.Agreement.from_frame(frame[["patient", "a", "b"]], id="patient")
    assert first.measurements.subjects.tolist() == frame["patient"].tolist()
    second = frame[["patient", "c", "d"]]
    ordered = irr.difference(first, irr.Agreement.from_frame(second, id="patient"),
                             statistic="icc")
    shuffled = irr.difference(
        first, irr.Agreement.from_frame(second.iloc[::-1], id="patient"), statistic="icc")
    direct = irr.difference(irr.Agreement.from_frame(frame[["a", "b"]]),
                            irr.Agreement.from_frame(frame[["c", "d"]]), statistic="icc")
    for res in (ordered, shuffled):
        assert res.estimate == pytest.approx(direct.estimate, abs=1e-12)
        assert res.se == pytest.approx(direct.se, rel=1e-10)


def test_two_scales_with_different_categories(panel):
    """A 4-point scale and its collapse to 2 points, on the same cases."""
    binary = (panel >= 3).astype(int).replace({0: "low", 1: "high"})
    four = irr.Agreement.from_frame(panel[["A", "B"]])
    two = irr.Agreement.from_frame(binary[["A", "B"]], categories=["low", "high"])
    res = irr.difference(four, two, labels=("4-point", "2-point"))
    codes4, codes2 = panel.to_numpy() - 1, (panel.to_numpy() >= 3).astype(int)
    k1, t1 = _cohen_terms(codes4[:, 0], codes4[:, 1], 4, np.eye(4))
    k2, t2 = _cohen_terms(codes2[:, 0], codes2[:, 1], 2, np.eye(2))
    assert res.estimate == pytest.approx(k1 - k2, abs=1e-12)
    assert res.se == pytest.approx(math.sqrt(_variance(t1 - t2)), rel=1e-10)


def test_missing_ratings_use_the_subjects_both_sides_use(panel):
    gappy = panel.copy()
    gappy.iloc[:7, 0] = np.nan  # A missing for 7 cases: kappa(A, B) uses 73
    gappy.iloc[70:, 2] = np.nan  # C missing for 10 others
    ag = irr.Agreement.from_frame(gappy)
    res = irr.difference(ag, raters=(["A", "B"], ["C", "D"]))
    assert res.n_subjects == 63
    assert res.n_missing == 17
    assert any("17 of 80 subjects left out" in note for note in res.notes)
    complete = irr.Agreement.from_frame(gappy.dropna())
    ref = irr.difference(complete, raters=(["A", "B"], ["C", "D"]))
    assert res.estimate == pytest.approx(ref.estimate, abs=1e-12)
    assert res.se == pytest.approx(ref.se, rel=1e-12)


@pytest.mark.parametrize(("first", "second", "kwargs", "error", "match"), [
    ("ids", "other_ids", {}, ValueError, "must rate the same subjects"),
    ("ids", "plain", {}, ValueError, "only in `second`"),
    ("dup", "ids", {}, ValueError, "repeat labels"),
    ("plain", "short", {}, ValueError, "without subject labels"),
    ("table", "table2", {}, ValueError, "frequency-weighted"),
    ("multi", None, {}, ValueError, "name two with `raters`"),
    ("multi", None, {"statistic": "kendall_w"}, ValueError, "`statistic` must be one of"),
    ("multi", None, {"statistic": "icc", "options": {"level": "ordinal"}}, ValueError,
     "must be among"),
    ("multi", None, {"statistic": "krippendorff_alpha", "weights": "linear"}, ValueError,
     "give `options="),
    ("multi", None, {"raters": (["A", "Z"], ["C", "D"])}, ValueError, "not among its raters"),
    ("multi", None, {"raters": "AB"}, TypeError, "sequence of rater names"),
    ("multi", None, {"labels": ("x",)}, ValueError, "two labels"),
    ("multi", None, {"statistic": ("kappa",)}, ValueError, "one value per side"),
    ("multi", None, {"statistic": "percent_agreement", "weights": "linear"}, ValueError,
     "do not apply"),
    ("res", "res2", {}, ValueError, "independent=True"),
    ("res", "multi", {"independent": True}, TypeError, "must be a result"),
    ("multi", "frame", {}, TypeError, "irr.Agreement or an irr result"),
])
def test_bad_arguments(panel, first, second, kwargs, error, match):
    objects = {
        "ids": irr.Agreement.from_frame(panel[["A", "B"]]),
        "other_ids": irr.Agreement.from_frame(panel[["A", "B"]].rename(index=lambda s: s + "x")),
        "plain": irr.Agreement([1, 2, 3, 1], [1, 2, 2, 1]),
        "short": irr.Agreement([1, 2, 3], [1, 2, 2]),
        "table": irr.Agreement.from_table([[5, 1], [2, 6]]),
        "table2": irr.Agreement.from_table([[5, 1], [2, 6]]),
        "multi": irr.Agreement.from_frame(panel),
        "dup": irr.Agreement.from_frame(panel[["A", "B"]].rename(index=lambda s: s[:-1])),
        "res": irr.Agreement.from_frame(panel[["A", "B"]]).kappa(),
        "res2": irr.Agreement.from_frame(panel[["C", "D"]]).kappa(),
        "frame": panel,
        None: None,
    }
    with pytest.raises(error, match=match):
        irr.difference(objects[first], objects[second], **kwargs)


def test_a_table_agreement_compares_its_own_coefficients():
    """One Agreement from a table: two of its coefficients share its (weighted) rows."""
    ag = irr.Agreement.from_table([[10, 4, 1, 0], [5, 10, 12, 2], [2, 4, 12, 5],
                                   [0, 2, 6, 13]])
    res = irr.difference(ag, weights=("quadratic", None))
    assert res.estimate_first == pytest.approx(ag.kappa(weights="quadratic").estimate)
    assert res.estimate_second == pytest.approx(ag.kappa().estimate)
    assert res.n_subjects == 88


# -- result protocol -------------------------------------------------------------------------
def test_result_protocol(panel):
    before = irr.Agreement.from_frame(panel[["C", "D"]])
    after = irr.Agreement.from_frame(panel[["A", "B"]])
    res = irr.difference(after, before, weights="quadratic", labels=("after", "before"))
    frame = res.to_frame()
    assert list(frame.columns[:4]) == ["estimate", "se", "statistic", "pvalue"]
    d = res.to_dict()
    assert d["label_first"] == "after"
    assert d["paired"] is True
    text = res.summary().as_text()
    assert "after - before" in text
    assert "Gwet (2016)" in text
    sentence = res.report()
    assert sentence.startswith("Cohen's κw (quadratic weights) was higher for after than "
                               "for before (")
    assert "paired subjects." in sentence
    assert "z = " in sentence
    plain = res.report(style="plain")
    assert "95% CI 0." in plain
    assert " to " in plain
    assert "DifferenceResult(" in repr(res)
    assert "<table" in res._repr_html_()


# -- independent groups ------------------------------------------------------------------------
def test_independent_difference_is_the_z_test_of_two_results(panel):
    a = irr.Agreement.from_frame(panel.iloc[:40][["A", "B"]]).kappa()
    b = irr.Agreement.from_frame(panel.iloc[40:][["A", "B"]]).kappa()
    res = irr.difference(a, b, independent=True, labels=("site 1", "site 2"))
    z = (a.estimate - b.estimate) / math.sqrt(a.se**2 + b.se**2)
    assert res.statistic == pytest.approx(z)
    assert res.pvalue == pytest.approx(2 * stats.norm.sf(abs(z)))
    assert res.ci.low == pytest.approx(a.estimate - b.estimate
                                       - 1.959963984540054 * math.hypot(a.se, b.se))
    assert res.report().endswith("n = 40 and 40.")
    assert not res.paired
    # unlabelled groups are named as irr.pool names them, not "for first than for second"
    bare = irr.difference(a, b, independent=True)
    assert " for group 1 than for group 2 " in bare.report()
    assert re.search(r"\ngroup 1:?\s+" + f"{a.estimate:.4f}", bare.summary().as_text())


def test_independent_difference_refuses_different_statistics(panel):
    # as irr.pool: a kappa minus a bias (or minus Gwet's AC) is no difference of one quantity
    kappa = irr.Agreement.from_frame(panel.iloc[:40][["A", "B"]]).kappa()
    gwet = irr.Agreement.from_frame(panel.iloc[40:][["A", "B"]]).gwet_ac()
    x = np.random.default_rng(0).normal(size=(40, 2))
    limits = irr.limits_of_agreement(x[:, 0], x[:, 1])
    for other in (gwet, limits):
        with pytest.raises(ValueError, match="of one coefficient"):
            irr.difference(kappa, other, independent=True)


def _clinics():
    """Two clinics' measurements of their own patients (31 and 14, three raters each), as
    frames with the default 0.. index, so that their unlabelled subjects cannot be paired:
    the property test's case that found two Agreements ignored `independent=True`."""
    rng = np.random.default_rng(7)

    def clinic(n, noise):
        x = rng.normal(50, 10, size=(n, 1)) + rng.normal(0, noise, size=(n, 3))
        return pd.DataFrame(x.round(1), columns=["r1", "r2", "r3"])

    return clinic(31, 3.0), clinic(14, 6.0)


def _same_numbers(got, expected):
    for name in ("estimate", "se", "statistic", "pvalue", "estimate_first",
                 "estimate_second"):
        a, b = getattr(got, name), getattr(expected, name)
        assert a == b or (math.isnan(a) and math.isnan(b)), (name, a, b)
    for name in ("n_subjects", "group_sizes", "names", "labels", "coefficient"):
        assert getattr(got, name) == getattr(expected, name), name
    assert got.ci == expected.ci  # limits, level, method and note
    assert got.report() == expected.report()
    assert not got.paired


@pytest.mark.parametrize(("statistic", "options", "method_options"), [
    ("icc", None, {}),
    ("icc", {"model": "oneway", "unit": "average"}, {"model": "oneway", "unit": "average"}),
    ("krippendorff_alpha", {"level": "interval"}, {"level": "interval", "ci": "wald"}),
])
def test_two_agreements_of_separate_groups_of_measurements_compare_as_their_results(
        statistic, options, method_options):
    north, south = _clinics()
    first = irr.Agreement.from_frame(north, continuous=True)
    second = irr.Agreement.from_frame(south, continuous=True)
    for level in (0.95, 0.9):
        got = irr.difference(first, second, statistic=statistic, options=options,
                             independent=True, confidence_level=level)
        expected = irr.difference(
            *(getattr(ag, statistic)(confidence_level=level, **method_options)
              for ag in (first, second)), independent=True, confidence_level=level)
        _same_numbers(got, expected)
        assert got.group_sizes == (31, 14)
        assert got.labels == ("group 1", "group 2")
    if statistic == "icc":  # two ICCs: Fisher's z and the MOVER from each F interval
        assert got.ci.method == "mover"
    else:  # alpha's linearised SE, whatever its own interval
        assert got.se == math.hypot(first.krippendorff_alpha("interval", ci=None).se,
                                    second.krippendorff_alpha("interval", ci=None).se)
    # each side's raters: the Agreements of those columns
    got = irr.difference(first, second, statistic=statistic, options=options,
                         raters=(["r1", "r2"], ["r2", "r3"]), independent=True,
                         labels=("north", "south"))
    expected = irr.difference(
        getattr(irr.Agreement.from_frame(north[["r1", "r2"]], continuous=True),
                statistic)(**method_options),
        getattr(irr.Agreement.from_frame(south[["r2", "r3"]], continuous=True),
                statistic)(**method_options),
        independent=True, labels=("north", "south"))
    _same_numbers(got, expected)


def test_two_agreements_of_separate_groups_of_categories_compare_as_their_results(panel):
    # two sites of different sizes whose case labels overlap (each numbers its own cases):
    # labels are not matched between independent groups
    site1 = irr.Agreement.from_frame(panel.iloc[:50])
    site2 = irr.Agreement.from_frame(panel.iloc[50:].set_axis(panel.index[:30]))
    got = irr.difference(site1, site2, statistic="fleiss_kappa", independent=True,
                         labels=("site 1", "site 2"))
    expected = irr.difference(site1.fleiss_kappa(), site2.fleiss_kappa(), independent=True,
                              labels=("site 1", "site 2"))
    _same_numbers(got, expected)
    z = (site1.fleiss_kappa().estimate - site2.fleiss_kappa().estimate) / math.hypot(
        site1.fleiss_kappa().se, site2.fleiss_kappa().se)
    assert got.statistic == pytest.approx(z, rel=1e-12)
    assert got.report().endswith("n = 50 and 30.")
    # weights, and a pair of raters per side
    got = irr.difference(site1, site2, weights="quadratic", raters=(["A", "B"], ["C", "D"]),
                         independent=True)
    expected = irr.difference(
        irr.Agreement.from_frame(panel.iloc[:50][["A", "B"]]).kappa(weights="quadratic"),
        irr.Agreement.from_frame(panel.iloc[50:][["C", "D"]]).kappa(weights="quadratic"),
        independent=True)
    _same_numbers(got, expected)
    gwet = irr.difference(site1, site2, statistic="gwet_ac", weights="linear",
                          independent=True, alternative="greater")
    _same_numbers(gwet, irr.difference(site1.gwet_ac(weights="linear"),
                                       site2.gwet_ac(weights="linear"), independent=True,
                                       alternative="greater"))


@pytest.mark.parametrize(("second", "kwargs", "match"), [
    ("same", {}, "same Agreement, so their subjects are not independent"),
    (None, {}, "same Agreement, so their subjects are not independent"),
    ("other", {"statistic": ("fleiss_kappa", "gwet_ac")}, "compared on one coefficient"),
    ("other", {"statistic": "kendall_w"},
     r"separate groups; got 'kendall_w'\. \(Another coefficient of separate groups: "
     "compute it on each group and pass the two results"),
    ("other", {"ci": "bca"}, "must be 'wald' for independent groups"),
    ("other", {"statistic": "krippendorff_alpha", "options": {"level": "interval",
                                                              "ci": "wald"}},
     r"must be among \['level'\]"),
    ("other", {"weights": ("linear", "quadratic")}, "same `weights` and `options`"),
    ("other", {"statistic": "kappa"}, "name two with `raters`"),
    ("other", {"raters": (["A", "Z"], ["A", "B"])}, "not among its raters"),
])
def test_two_agreements_of_separate_groups_bad_arguments(panel, second, kwargs, match):
    first = irr.Agreement.from_frame(panel.iloc[:50])
    others = {"same": first, None: None, "other": irr.Agreement.from_frame(panel.iloc[50:])}
    kwargs = {"statistic": "fleiss_kappa", **kwargs}
    with pytest.raises(ValueError, match=match) as caught:
        irr.difference(first, others[second], independent=True, **kwargs)
    # never the advice to pass the flag the caller passed
    assert "`independent=True`" not in str(caught.value) or "results" in str(caught.value)


def test_separate_groups_with_replicates_take_all_their_raters():
    rng = np.random.default_rng(5)
    long = pd.DataFrame({"subject": np.repeat(np.arange(10), 6),
                         "rater": np.tile(np.repeat(["a", "b", "c"], 2), 10),
                         "value": rng.normal(size=60).round(2)})
    replicated = irr.Agreement.from_long(long, subject="subject", rater="rater",
                                         rating="value", continuous=True)
    north, _ = _clinics()
    other = irr.Agreement.from_frame(north, continuous=True)
    with pytest.raises(ValueError, match="replicated measurements; choosing its `raters`"):
        irr.difference(replicated, other, statistic="icc", independent=True,
                       raters=(["a", "b"], ["r1", "r2"]))


def test_separate_groups_without_the_flag_are_told_of_it():
    north, south = _clinics()
    first = irr.Agreement.from_frame(north, continuous=True)
    second = irr.Agreement.from_frame(south, continuous=True)
    with pytest.raises(ValueError, match="pass `independent=True` if they are separate"):
        irr.difference(first, second, statistic="icc")


def test_independent_difference_of_measurement_scale_results_is_not_clipped():
    # two biases of 5 and -5: their difference, 10, lies inside its own interval
    rng = np.random.default_rng(1)
    x = rng.normal(size=(60, 2))
    first = irr.limits_of_agreement(x[:30, 0] + 5, x[:30, 1])
    second = irr.limits_of_agreement(x[30:, 0] - 5, x[30:, 1])
    res = irr.difference(first, second, independent=True)
    assert res.estimate == pytest.approx(first.estimate - second.estimate)
    assert res.ci.low < res.estimate < res.ci.high
    assert res.ci.low == pytest.approx(res.estimate - 1.959963984540054 * res.se)


# -- pooling independent groups ------------------------------------------------------------------
def _drugs():
    """SAS/STAT User's Guide, PROC FREQ Example "Cochran's Q Test" (Example 40.10 in
    SAS/STAT 13.2): drugs B and C within each response to drug A."""
    favourable = irr.Agreement.from_table([[6, 16], [2, 4]], categories=["F", "U"])
    unfavourable = irr.Agreement.from_table([[2, 4], [6, 6]], categories=["F", "U"])
    return favourable.kappa(), unfavourable.kappa()


def test_pool_matches_the_inverse_variance_formulas():
    fav, unf = _drugs()
    res = irr.pool([fav, unf], labels=["F", "U"])
    w = np.array([1 / fav.se**2, 1 / unf.se**2])
    k = np.array([fav.estimate, unf.estimate])
    pooled = w @ k / w.sum()
    q = w @ (k - pooled) ** 2
    assert res.estimate == pytest.approx(pooled, abs=1e-12)
    assert res.se == pytest.approx(1 / math.sqrt(w.sum()), rel=1e-12)
    assert res.homogeneity_statistic == pytest.approx(q, rel=1e-12)
    assert res.homogeneity_df == 1
    assert res.homogeneity_pvalue == pytest.approx(stats.chi2.sf(q, 1), rel=1e-12)
    # the kappas of the two strata, from the tables by hand
    assert fav.estimate == pytest.approx((10 / 28 - (22 * 8 + 6 * 20) / 28**2)
                                         / (1 - (22 * 8 + 6 * 20) / 28**2))
    assert res.n_subjects == 46
    assert list(res.groups.index) == ["F", "U"]
    assert res.groups["weight"].sum() == pytest.approx(1.0)
    assert "χ²(1) = " in res.report()
    assert "test of equal coefficients" in res.report()
    assert "favourable" not in res.summary().as_text()
    assert "F " in res.summary().as_text()


def test_pool_refuses_mixed_or_too_few_results():
    fav, unf = _drugs()
    gwet = irr.Agreement.from_table([[6, 16], [2, 4]]).gwet_ac()
    with pytest.raises(ValueError, match="of one coefficient"):
        irr.pool([fav, gwet])
    with pytest.raises(ValueError, match="at least two groups"):
        irr.pool([fav])
    with pytest.raises(ValueError, match="one label per result"):
        irr.pool([fav, unf], labels=["a"])
    with pytest.raises(TypeError, match="irr results"):
        irr.pool([fav, 0.3])
    series = irr.pool(pd.Series([fav, unf], index=["F", "U"]))
    assert list(series.groups.index) == ["F", "U"]


def test_by_with_test_adds_the_pooled_row_and_the_homogeneity_test(panel):
    df = panel.assign(site=np.repeat(["north", "south", "west", "east"], 20))
    out = irr.by(df, "site", raters=["A", "C"], weights="quadratic", test=True)
    assert list(out["site"]) == ["east", "north", "south", "west", "Pooled"]
    groups = [irr.Agreement.from_frame(df[df.site == s], raters=["A", "C"],
                                       categories=[1, 2, 3, 4]).kappa(weights="quadratic")
              for s in ["east", "north", "south", "west"]]
    ref = irr.pool(groups)
    last = out.iloc[-1]
    assert last["estimate"] == pytest.approx(ref.estimate, abs=1e-12)
    assert last["se"] == pytest.approx(ref.se, rel=1e-12)
    assert last["n_subjects"] == 80
    assert out.attrs["homogeneity"]["df"] == 3
    assert out.attrs["homogeneity"]["statistic"] == pytest.approx(ref.homogeneity_statistic)
    plain = irr.by(df, "site", raters=["A", "C"], weights="quadratic")
    assert len(plain) == 4
    assert "homogeneity" not in plain.attrs


def test_forest_draws_the_pooled_row_as_a_diamond(panel, tmp_path):
    matplotlib = pytest.importorskip("matplotlib")
    matplotlib.use("Agg")
    df = panel.assign(site=np.repeat(["north", "south"], 40))
    out = irr.by(df, "site", raters=["A", "C"], test=True)
    ax = irr.plotting.forest(out)
    assert [t.get_text() for t in ax.get_yticklabels()] == ["north", "south", "Pooled"]
    diamonds = [p for p in ax.patches if len(p.get_xy()) == 5]  # closed 4-gon
    assert len(diamonds) == 1
    test = out.attrs["homogeneity"]
    assert 0.001 < test["pvalue"] < 0.999
    expected_p = "p = " + f"{test['pvalue']:.3f}".lstrip("0")  # APA: no leading zero
    assert ax.get_xlabel().splitlines()[1] == (
        f"Test of equal coefficients: \u03c7\u00b2(1) = {test['statistic']:.2f}, {expected_p}")
    matplotlib.pyplot.close("all")


# -- intra-rater (test-retest) reliability ---------------------------------------------------------
def test_test_retest_occasions_as_raters_and_two_raters_compared():
    """Each rater grades the same 30 cases twice; occasions are the 'raters' of
    Agreement.from_long, and the two raters' test-retest kappas are paired by case."""
    rng = np.random.default_rng(4)
    truth = rng.integers(1, 4, 30)
    rows = []
    for rater, sd in (("ann", 0.3), ("bob", 0.8)):
        for occasion in ("first", "second"):
            grade = np.clip(np.rint(truth + rng.normal(0, sd, 30)), 1, 3).astype(int)
            rows += [{"case": c, "rater": rater, "occasion": occasion, "grade": g}
                     for c, g in enumerate(grade)]
    long = pd.DataFrame(rows)
    ann = irr.Agreement.from_long(long[long.rater == "ann"], subject="case",
                                  rater="occasion", rating="grade")
    bob = irr.Agreement.from_long(long[long.rater == "bob"], subject="case",
                                  rater="occasion", rating="grade")
    assert ann.raters == ("first", "second")
    assert ann.n_subjects == 30
    res = irr.difference(ann, bob, weights="quadratic", labels=("ann", "bob"))
    wide = long.pivot_table(index="case", columns=["rater", "occasion"], values="grade")
    k_ann = irr.cohen_kappa(wide["ann"]["first"], wide["ann"]["second"], weights="quadratic",
                            categories=[1, 2, 3]).estimate
    assert res.estimate_first == pytest.approx(k_ann, abs=1e-12)
    assert res.estimate > 0


# -- independent ICCs: Fisher's z and the MOVER interval ------------------------------------------
@pytest.mark.parametrize("unit", ["single", "average"])
def test_two_independent_iccs(unit):
    anx = irr.datasets.load("anxiety")
    a = irr.Agreement.from_frame(anx.iloc[:10]).icc("oneway", "agreement", unit)
    b = irr.Agreement.from_frame(anx.iloc[10:]).icc("oneway", "agreement", unit)
    res = irr.difference(a, b, independent=True, labels=("first ten", "last ten"))
    k = 3

    def z(r):  # Fisher (1925): the single-rater ICC, then z
        rho = r if unit == "single" else r / (k - (k - 1) * r)
        return 0.5 * math.log((1 + (k - 1) * rho) / (1 - rho))

    v = k / (2 * (k - 1) * (10 - 2))
    expected = (z(a.estimate) - z(b.estimate)) / math.sqrt(2 * v)
    assert res.statistic == pytest.approx(expected, rel=1e-12)
    assert res.pvalue == pytest.approx(2 * stats.norm.sf(abs(expected)), rel=1e-12)
    (l1, u1), (l2, u2) = a.ci, b.ci
    d = a.estimate - b.estimate
    assert res.ci.low == pytest.approx(d - math.hypot(a.estimate - l1, u2 - b.estimate))
    assert res.ci.high == pytest.approx(d + math.hypot(u1 - a.estimate, b.estimate - l2))
    assert res.ci.method == "mover"
    assert math.isnan(res.se)
    assert "(MOVER)" in res.report()
    with pytest.raises(ValueError, match="MOVER interval is the one interval"):
        res.conf_int(method="wald")


def test_two_independent_iccs_one_of_them_perfect():
    # an ICC of 1 (identical raters) has Fisher's z infinite: the test is undefined, said
    # with a warning (it divided by zero before)
    rng = np.random.default_rng(3)
    subject = rng.normal(size=(12, 1))
    perfect = irr.Agreement.from_array(np.hstack([subject] * 3), continuous=True)
    noisy = irr.Agreement.from_array(rng.normal(size=(9, 1)) + 0.5 * rng.normal(size=(9, 3)),
                                     continuous=True)
    with pytest.warns(irr.DegenerateDataWarning, match="F-based interval"):
        one = perfect.icc()
    assert one.estimate == 1.0
    assert fisher_z(1.0, 3, "single") == math.inf
    assert fisher_z(1.0, 3, "average") == math.inf
    with pytest.warns(irr.DegenerateDataWarning) as caught:
        res = irr.difference(perfect, noisy, statistic="icc", independent=True)
    assert any("infinite z" in str(w.message) for w in caught)
    assert res.estimate == pytest.approx(1.0 - noisy.icc().estimate, rel=1e-12)
    assert math.isnan(res.pvalue)
    assert "no z test" in res.report()


# -- docs/guide/comparing.md quotes these outputs --------------------------------------------------
def _guide_text():
    import pathlib
    root = pathlib.Path(__file__).resolve().parents[2]
    return " ".join((root / "docs" / "guide" / "comparing.md").read_text()
                    .replace("#  ", " ").replace("# ", " ").split())


def _flat(text):
    return " ".join(text.split())


def test_guide_quotes_the_training_example():
    rng = np.random.default_rng(7)
    cases = pd.Index([f"xr-{i:03d}" for i in range(1, 81)], name="case")
    truth = rng.integers(0, 4, len(cases))

    def grades(sd):
        return np.clip(np.rint(truth + rng.normal(0, sd, len(cases))), 0, 3)

    before = pd.DataFrame({"reader1": grades(0.9), "reader2": grades(0.9)}, index=cases)
    after = pd.DataFrame({"reader1": grades(0.5), "reader2": grades(0.5)}, index=cases)
    before.loc[["xr-004", "xr-018"], "reader2"] = np.nan
    guide = _guide_text()
    kwargs = {"weights": "quadratic", "labels": ("after training", "before training")}
    res = irr.difference(irr.Agreement.from_frame(after), irr.Agreement.from_frame(before),
                         **kwargs)
    assert _flat(res.report()) in guide
    independent = math.hypot(
        irr.Agreement.from_frame(after).kappa(weights="quadratic").se,
        irr.Agreement.from_frame(before).kappa(weights="quadratic").se)
    assert (f"paired SE is {irr._numbers.format_number(res.se, 3, leading_zero=False)} against "
            f"{irr._numbers.format_number(independent, 3, leading_zero=False)}") in guide
    boot = irr.difference(irr.Agreement.from_frame(after), irr.Agreement.from_frame(before),
                          ci="bca", **kwargs)
    assert boot.report().split("difference .23, ")[1] in guide
    anx = irr.Agreement.from_frame(irr.datasets.load("anxiety"))
    assert irr.difference(anx, statistic=("fleiss_kappa", "gwet_ac")).report() in guide


def test_guide_quotes_the_sites_and_test_retest_examples():
    rng = np.random.default_rng(3)
    n = 240
    truth = rng.integers(1, 5, n)
    site = rng.choice(["Leeds", "Lyon", "Oslo", "Turin"], n)
    noise = pd.Series({"Leeds": 0.5, "Lyon": 0.6, "Oslo": 0.9, "Turin": 1.3})[site].to_numpy()

    def reader():
        return np.clip(np.rint(truth + rng.normal(0, noise)), 1, 4)

    df = pd.DataFrame({"site": site, "reader1": reader(), "reader2": reader()})
    out = irr.by(df, "site", raters=["reader1", "reader2"], weights="quadratic", test=True)
    guide = _guide_text()
    table = out[["site", "estimate", "ci_low", "ci_high", "n_subjects"]].round(3).to_string()
    assert _flat(table) in guide
    assert _flat(out.attrs["pooled"].report()) in guide
    leeds, turin = (irr.Agreement.from_frame(df[df.site == s], raters=["reader1", "reader2"])
                    .kappa(weights="quadratic") for s in ("Leeds", "Turin"))
    assert _flat(irr.difference(leeds, turin, independent=True,
                                labels=("Leeds", "Turin")).report()) in guide
    rows = []
    truth = rng.integers(1, 4, 40)
    for rater, sd in (("ann", 0.35), ("bob", 0.8)):
        for occasion in ("week 0", "week 2"):
            grade = np.clip(np.rint(truth + rng.normal(0, sd, 40)), 1, 3).astype(int)
            rows += [{"patient": f"p{c:02d}", "rater": rater, "occasion": occasion,
                      "grade": g} for c, g in enumerate(grade)]
    long = pd.DataFrame(rows)
    ann, bob = (irr.Agreement.from_long(long[long.rater == r], subject="patient",
                                        rater="occasion", rating="grade") for r in ("ann", "bob"))
    assert _flat(ann.kappa(weights="quadratic").report()) in guide
    assert _flat(irr.difference(ann, bob, weights="quadratic",
                                labels=("Ann", "Bob")).report()) in guide


# -- the coefficients linearised through their influence function ---------------------------------
@pytest.mark.parametrize("form", [("oneway", "agreement", "single"),
                                  ("oneway", "agreement", "average"),
                                  ("twoway", "consistency", "single"),
                                  ("twoway", "consistency", "average"),
                                  ("twoway", "agreement", "single"),
                                  ("twoway", "agreement", "average")])
def test_icc_kernel_reproduces_the_icc_of_each_form(panel, form):
    from irr.estimators.difference import icc_kernel

    ag = irr.Agreement.from_frame(panel)
    own = ag.icc(*form).estimate
    scores = panel.to_numpy(dtype=float)
    assert icc_kernel(scores, np.ones((1, len(scores))), form)[0] == pytest.approx(own,
                                                                                 rel=1e-12)
    # resampled counts: the ICC of the rows repeated
    counts = np.random.default_rng(0).multinomial(len(scores), np.full(len(scores),
                                                                       1 / len(scores)))
    repeated = np.repeat(scores, counts, axis=0)
    expected = irr.Agreement.from_array(repeated).icc(*form).estimate
    assert icc_kernel(scores, counts[None, :], form)[0] == pytest.approx(expected, rel=1e-10)


def _jackknife_free_influence(statistic, x):
    """The empirical influence of a statistic of the subjects' rows, by re-weighting one
    subject at a time (the weights as frequency weights of an Agreement): slow and direct."""
    n = len(x)
    base = statistic(np.ones(n))
    eps = 1e-5
    out = []
    for i in range(n):
        w = np.full(n, 1 - eps)
        w[i] += eps * n
        out.append((statistic(w) - base) / eps)
    return base, np.array(out)


@pytest.mark.parametrize("statistic", ["conger_kappa", "light_kappa", "icc"])
def test_influence_linearisation_matches_a_direct_reweighting(panel, statistic):
    """The influence values from the batch kernels against a forward difference of the
    kernels with one subject up-weighted (each subject its own pattern); the SE of the
    difference of two reader sets from both."""
    from irr.estimators.difference import Side, _side_statistic

    x = panel.to_numpy() - 1
    scores = np.arange(1.0, 5.0)
    form = ("twoway", "agreement", "single") if statistic == "icc" else ()

    def side(cols):
        return Side(x[:, cols], np.eye(4), statistic, statistic, scores=scores, form=form)

    def stat(s):
        patterns = scores[s.codes] if statistic == "icc" else s.codes
        return lambda w: float(_side_statistic(s, patterns, w[None, :])[0])

    first, second = side([0, 1, 2]), side([1, 2, 3])
    k1, h1 = _jackknife_free_influence(stat(first), x)
    k2, h2 = _jackknife_free_influence(stat(second), x)
    ag = irr.Agreement.from_frame(panel)
    res = irr.difference(ag, statistic=statistic, raters=(["A", "B", "C"], ["B", "C", "D"]))
    assert res.estimate == pytest.approx(k1 - k2, abs=1e-12)
    assert res.se == pytest.approx(math.sqrt(_variance(h1 - h2)), rel=1e-4)


def test_alpha_levels_and_the_paired_bootstrap(panel):
    ag = irr.Agreement.from_frame(panel)
    for level in ("nominal", "ordinal", "interval", "ratio"):
        res = irr.difference(ag, statistic="krippendorff_alpha", options={"level": level},
                             raters=(["A", "B"], ["C", "D"]), ci="percentile",
                             n_resamples=2000)
        own = [irr.Agreement.from_frame(panel[c]).krippendorff_alpha(level, ci=None).estimate
               for c in (["A", "B"], ["C", "D"])]
        assert res.estimate_first == pytest.approx(own[0], abs=1e-12)
        assert res.estimate_second == pytest.approx(own[1], abs=1e-12)
        assert res.bootstrap.se == pytest.approx(res.se, rel=0.2)


def test_by_test_refuses_coefficients_without_a_standard_error():
    df = irr.datasets.load("anxiety").assign(site=["a", "b"] * 10)
    with pytest.raises(ValueError, match="has no standard error"):
        irr.by(df, "site", statistic="icc", test=True)


def test_continuous_agreements_compare_their_iccs_and_alphas():
    x = np.random.default_rng(0).normal(size=(30, 2)).round(3)
    ag = irr.Agreement.from_array(x)
    assert ag.continuous
    coded = irr.Agreement.from_array(x, continuous=False)
    forms = ({"type": "agreement"}, {"type": "consistency"})
    for which in (ag, coded):
        res = irr.difference(which, statistic="icc", options=forms)
        assert res.estimate_first == pytest.approx(ag.icc(type="agreement").estimate)
        assert res.estimate_second == pytest.approx(ag.icc(type="consistency").estimate)
    # two continuous Agreements of the same subjects (explicitly continuous=True)
    y = x + np.random.default_rng(1).normal(scale=0.5, size=x.shape)
    first = irr.Agreement.from_array(x, continuous=True)
    second = irr.Agreement.from_array(y, continuous=True)
    res = irr.difference(first, second, statistic="icc")
    assert res.estimate_first == pytest.approx(first.icc().estimate)
    assert res.estimate_second == pytest.approx(second.icc().estimate)
    alpha = irr.difference(first, second, statistic="krippendorff_alpha",
                           options={"level": "interval"})
    assert alpha.estimate_first == pytest.approx(
        first.krippendorff_alpha("interval", ci=None).estimate)
    # a coefficient of categories says why it does not apply
    with pytest.raises(ValueError, match="continuous=False"):
        irr.difference(first, second, statistic="fleiss_kappa")
    res = irr.difference(coded, coded, statistic="icc",
                         options=({"type": "agreement"}, {"type": "consistency"}))
    assert res.estimate_first == pytest.approx(ag.icc("twoway", "agreement").estimate)
    assert res.estimate_second == pytest.approx(ag.icc("twoway", "consistency").estimate)


@pytest.mark.slow
@pytest.mark.parametrize("statistic", ["kappa", "fleiss_kappa", "krippendorff_alpha"])
def test_paired_z_test_holds_its_level_by_simulation(statistic):
    """Under H0 (two reader pairs from one law, sharing the cases) the linearised z test
    rejects about 5% of the time: 1,000 data sets of 80 cases, Monte Carlo SE 0.7%."""
    rng = np.random.default_rng(2016)
    rejections = 0
    reps = 1000
    for _ in range(reps):
        truth = rng.integers(1, 5, 80)
        x = np.clip(np.rint(truth[:, None] + rng.normal(0, 0.8, (80, 4))), 1, 4)
        ag = irr.Agreement.from_array(x, ["A", "B", "C", "D"], categories=[1, 2, 3, 4])
        res = irr.difference(ag, statistic=statistic, raters=(["A", "B"], ["C", "D"]))
        rejections += res.pvalue < 0.05
    assert 0.03 <= rejections / reps <= 0.075


@pytest.mark.parametrize("statistic", ["kappa", "fleiss_kappa", "gwet_ac", "brennan_prediger"])
def test_influence_of_the_kernel_equals_the_closed_form_terms(panel, statistic):
    """The numerical influence function (used for Conger, Light, alpha, ICC) against the
    closed-form linearised values (Gwet; Fleiss-Cohen-Everitt) on the same patterns."""
    from irr.estimators.difference import Side, _estimate_and_terms, _influence

    codes = panel.to_numpy()[:, :2 if statistic == "kappa" else 4] - 1
    w = _quadratic(4)
    side = Side(codes, w, statistic, statistic)
    patterns, inverse = side.patterns(np.ones(len(codes), dtype=bool))
    mult = np.bincount(inverse).astype(float)
    estimate, terms = _estimate_and_terms(side, patterns, mult)
    np.testing.assert_allclose(estimate + _influence(side, patterns, mult), terms,
                               rtol=0, atol=1e-8)


def test_guide_quotes_the_paired_and_independent_ses():
    anx = irr.Agreement.from_frame(irr.datasets.load("anxiety"))
    res = irr.difference(anx, statistic=("fleiss_kappa", "gwet_ac"))
    independent = math.hypot(anx.fleiss_kappa().se, anx.gwet_ac().se)
    guide = _guide_text()
    assert (f"anxiety data {irr._numbers.format_number(res.se, 3, leading_zero=False)} against "
            f"{irr._numbers.format_number(independent, 3, leading_zero=False)}") in guide
