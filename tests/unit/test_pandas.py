"""pandas workflows: df.irr accessor, irr.by, frequency weights, concatenation of results."""


import numpy as np
import pandas as pd
import pytest

import irr
from irr.pandas import BY_COLUMNS


@pytest.fixture
def sites():
    """Three sites: a normal one, one where both raters used one category, one subject."""
    return pd.DataFrame({
        "site": ["a"] * 6 + ["b"] * 4 + ["c"],
        "arm": ["x", "y"] * 5 + ["x"],
        "r1": [1, 2, 3, 3, 2, 1, 2, 2, 2, 2, 1],
        "r2": [1, 2, 3, 2, 2, 1, 2, 2, 2, 2, 3],
    })


def test_accessor_delegates_to_agreement():
    anxiety = irr.datasets.load("anxiety")
    via = anxiety.irr.kappa("rater1", "rater2", weights="quadratic")
    direct = irr.Agreement.from_frame(anxiety, ["rater1", "rater2"]).kappa("quadratic")
    assert via.estimate == direct.estimate
    assert via.se == direct.se
    assert anxiety.irr.agreement().n_raters == 3
    assert anxiety.irr.agreement(["rater1", "rater3"]).raters == ("rater1", "rater3")
    pa = anxiety[["rater1", "rater2"]].irr.percent_agreement()
    assert pa.estimate == irr.Agreement.from_frame(
        anxiety, ["rater1", "rater2"]).percent_agreement().estimate


def test_accessor_multirater_methods():
    diagnoses = irr.datasets.load("diagnoses")
    ag = irr.Agreement.from_frame(diagnoses)
    assert diagnoses.irr.fleiss().estimate == ag.fleiss_kappa().estimate
    assert diagnoses.irr.krippendorff().estimate == ag.krippendorff_alpha().estimate
    anxiety = irr.datasets.load("anxiety")
    assert anxiety.irr.icc().estimate == irr.Agreement.from_frame(anxiety).icc().estimate
    assert diagnoses.irr.gwet().estimate == ag.gwet_ac().estimate


def test_by_returns_every_group_with_reasons(sites):
    # the DegenerateDataWarning of group b reaches the caller (not caught: issue 15)
    with pytest.warns(irr.DegenerateDataWarning, match="kappa is undefined .*: expected "
                      "agreement is 1"):
        out = irr.by(sites, "site", raters=["r1", "r2"])
    assert list(out.columns) == ["site", *BY_COLUMNS]
    assert out["site"].tolist() == ["a", "b", "c"]
    a = irr.Agreement(sites["r1"][:6], sites["r2"][:6], categories=[1, 2, 3]).kappa()
    assert out.loc[0, "estimate"] == a.estimate
    assert out.loc[0, "se"] == a.se
    assert out.loc[0, "band"] == "substantial"
    assert pd.isna(out.loc[0, "reason"])
    assert np.isnan(out.loc[1, "estimate"])
    assert out.loc[1, "reason"] == (
        "Cohen's kappa is undefined (nan; its DegenerateDataWarning says why)")
    assert out.loc[1, "n_subjects"] == 4
    assert np.isnan(out.loc[2, "estimate"])
    assert out.loc[2, "reason"] == "fewer than two subjects"
    assert out.loc[2, "n_subjects"] == 1


@pytest.mark.filterwarnings("ignore::irr.DegenerateDataWarning")
def test_by_keeps_the_whole_category_set_for_weighted_kappa(sites):
    out = irr.by(sites[sites.site == "a"].assign(site=["p", "q"] * 3), "site",
                 raters=["r1", "r2"], weights="linear")
    # group p has only ratings 1..3 of the full 1..3 scale; the declared scale is used.
    group = sites[sites.site == "a"].iloc[::2]
    expected = irr.Agreement(group.r1, group.r2, categories=[1, 2, 3]).kappa("linear")
    assert out.loc[0, "estimate"] == pytest.approx(expected.estimate)
    wide = sites.copy()
    wide.loc[0, "r1"] = 7  # a category seen only in site a
    out = irr.by(wide, "site", raters=["r1", "r2"], weights="quadratic")
    group = wide[wide.site == "b"]
    declared = irr.Agreement(group.r1, group.r2, categories=[1, 2, 3, 7])
    assert out.loc[1, "reason"].startswith("Weighted kappa (quadratic) is undefined")
    assert list(declared.categories) == [1, 2, 3, 7]


@pytest.mark.filterwarnings("ignore::irr.DegenerateDataWarning")
def test_by_several_keys_and_options(sites):
    out = irr.by(sites, ["site", "arm"], raters=["r1", "r2"], weights="quadratic",
                 confidence_level=0.9)
    assert list(out.columns[:2]) == ["site", "arm"]
    assert len(out) == 5
    assert set(out["confidence_level"].dropna()) == {0.9}
    assert out["coefficient"].dropna().unique().tolist() == ["Weighted kappa (quadratic)"]


def test_by_bad_arguments_raise_once(sites):
    with pytest.raises(ValueError, match=r"`by` must name columns of `df`; got \['nope'\]"):
        irr.by(sites, "nope", raters=["r1", "r2"])
    with pytest.raises(ValueError, match="`statistic` must be one of"):
        irr.by(sites, "site", raters=["r1", "r2"], statistic="kapa")
    with pytest.raises(ValueError, match="weights"):
        irr.by(sites, "site", raters=["r1", "r2"], weights="cubic")
    with pytest.raises(ValueError, match=r"`raters` and `by` share columns: \['site'\]"):
        irr.by(sites, "site", raters=["site", "r2"])
    with pytest.raises(TypeError, match="`df` must be a pandas DataFrame; got list"):
        irr.by([1, 2], "site")


@pytest.mark.filterwarnings("ignore::irr.DegenerateDataWarning")
def test_accessor_by(sites):
    pd.testing.assert_frame_equal(
        sites.irr.by("site", raters=["r1", "r2"]), irr.by(sites, "site", raters=["r1", "r2"])
    )


# -- frequency weights -------------------------------------------------------------------
@pytest.fixture
def aggregated():
    sas = [[10, 4, 1, 0], [5, 10, 12, 2], [2, 4, 12, 5], [0, 2, 6, 13]]
    rows = [(i + 1, j + 1, sas[i][j]) for i in range(4) for j in range(4)]
    frame = pd.DataFrame(rows, columns=["r1", "r2", "count"])
    frame = pd.concat([frame, pd.DataFrame({"r1": [1.0, np.nan], "r2": [np.nan, 2.0],
                                            "count": [3, 0]})], ignore_index=True)
    return frame


@pytest.mark.parametrize("weights", [None, "linear", "quadratic"])
def test_weighted_frame_equals_the_expanded_frame(aggregated, weights):
    expanded = aggregated.loc[aggregated.index.repeat(aggregated["count"])]
    direct = irr.Agreement.from_frame(expanded, ["r1", "r2"]).kappa(weights)
    weighted = irr.Agreement.from_frame(aggregated, ["r1", "r2"], freq_weights="count")
    res = weighted.kappa(weights)
    assert res.estimate == pytest.approx(direct.estimate, rel=1e-14)
    assert res.se == pytest.approx(direct.se, rel=1e-14)
    assert res.se0 == pytest.approx(direct.se0, rel=1e-14)
    assert res.n_subjects == direct.n_subjects == 88
    assert weighted.n_subjects == 91
    assert weighted.n_missing == res.n_missing == 3
    pd.testing.assert_frame_equal(weighted.table, irr.Agreement.from_frame(
        expanded, ["r1", "r2"]).table)


@pytest.mark.parametrize(
    "method",
    ["percent_agreement", "fleiss_kappa", "scott_pi", "conger_kappa", "light_kappa", "gwet_ac",
     "brennan_prediger", "krippendorff_alpha", "icc", "kendall_w"],
)
def test_weighted_two_rater_frame_gives_every_coefficient_of_the_expanded_one(aggregated, method):
    complete = aggregated.dropna()
    expanded = complete.loc[complete.index.repeat(complete["count"])]
    # Alpha's SE is a bootstrap SE (random); compare its estimate alone.
    options = {"ci": None} if method == "krippendorff_alpha" else {}
    weighted = getattr(irr.Agreement.from_frame(complete, ["r1", "r2"], freq_weights="count"),
                       method)(**options)
    direct = getattr(irr.Agreement.from_frame(expanded, ["r1", "r2"]), method)(**options)
    assert weighted.estimate == pytest.approx(direct.estimate, rel=1e-12)
    assert weighted.se == pytest.approx(direct.se, rel=1e-12, nan_ok=True)
    assert weighted.n_subjects == direct.n_subjects


def test_weighted_bootstrap_matches_the_expanded_one(aggregated):
    expanded = aggregated.loc[aggregated.index.repeat(aggregated["count"])]
    direct = irr.Agreement.from_frame(expanded, ["r1", "r2"]).kappa(
        ci="percentile", n_resamples=500, rng=1)
    weighted = irr.Agreement.from_frame(aggregated, ["r1", "r2"], freq_weights="count").kappa(
        ci="percentile", n_resamples=500, rng=1)
    np.testing.assert_allclose(weighted.bootstrap.replicates, direct.bootstrap.replicates)


def test_weighted_by_and_accessor(aggregated):
    frame = aggregated.assign(site=["a", "b"] * 9)
    out = irr.by(frame, "site", raters=["r1", "r2"], freq_weights="count")
    for i, site in enumerate("ab"):
        part = frame[frame.site == site]
        expanded = part.loc[part.index.repeat(part["count"])]
        expected = irr.Agreement.from_frame(expanded, ["r1", "r2"],
                                            categories=[1, 2, 3, 4]).kappa()
        assert out.loc[i, "estimate"] == pytest.approx(expected.estimate)
        assert out.loc[i, "n_subjects"] == expected.n_subjects
    res = aggregated.irr.kappa("r1", "r2", freq_weights="count")
    assert res.n_subjects == 88
    assert aggregated.irr.agreement(freq_weights="count").raters == ("r1", "r2")


@pytest.mark.parametrize(
    ("weights", "error", "message"),
    [
        ([1, -1], ValueError, r"`freq_weights` must be non-negative integers .*; got -1.0 in row 1"),
        ([1, 1.5], ValueError, r"got 1.5 in row 1"),
        ([1, np.nan], ValueError, r"got nan in row 1"),
        ([1, 2, 3], ValueError, r"`freq_weights` must have one value per row \(2\); got shape \(3,\)"),
        ("nope", ValueError, r"`freq_weights`='nope' names no column of the data"),
        (["a", "b"], TypeError, r"`freq_weights` must be numbers"),
    ],
)
def test_bad_frequency_weights(weights, error, message):
    frame = pd.DataFrame({"r1": [1, 2], "r2": [1, 2]})
    with pytest.raises(error, match=message):
        irr.Agreement.from_frame(frame, ["r1", "r2"], freq_weights=weights)


def test_frequency_weights_with_many_raters_equal_the_expanded_rows():
    # (Two raters only before the statistics became weighted patterns; now any number.)
    frame = pd.DataFrame({"r1": [1, 2, 1, 3], "r2": [1, 2, 2, np.nan], "r3": [2, 2, 1, 3],
                          "w": [3, 2, 0, 4]})
    weighted = irr.Agreement.from_frame(frame, ["r1", "r2", "r3"], freq_weights="w")
    expanded = irr.Agreement.from_frame(frame.loc[frame.index.repeat(frame["w"])],
                                        ["r1", "r2", "r3"])
    assert weighted.statistics == expanded.statistics
    assert (weighted.n_subjects, weighted.n_missing) == (9, 4)
    for method in ("fleiss_kappa", "conger_kappa", "light_kappa", "gwet_ac"):
        a, b = getattr(weighted, method)(), getattr(expanded, method)()
        assert (a.estimate, a.se, a.n_missing) == (b.estimate, b.se, b.n_missing)


# -- results concatenate -----------------------------------------------------------------
def _all_results():
    anxiety = irr.datasets.load("anxiety")
    two = irr.Agreement.from_frame(anxiety, ["rater1", "rater2"])
    results = [two.kappa(), two.kappa("quadratic", ci="bca", n_resamples=199, rng=0),
               two.percent_agreement(), two.error_rate_test(0.5)]
    many = irr.Agreement.from_frame(anxiety)
    for name in ("fleiss_kappa", "conger_kappa", "light_kappa", "gwet_ac",
                 "brennan_prediger", "krippendorff_alpha", "icc", "kendall_w"):
        if hasattr(many, name):
            results.append(getattr(many, name)())
    return results


def test_every_result_frame_has_the_same_columns():
    frames = [r.to_frame() for r in _all_results()]
    columns = {tuple(f.columns) for f in frames}
    assert len(columns) == 1
    combined = pd.concat(frames)
    assert len(combined) == len(frames)
    assert combined.index.name == "coefficient"
    assert not combined["estimate"].isna().any()


def test_compare_has_one_row_per_result():
    results = _all_results()
    summary = irr.compare(*results, title="Anxiety")
    text = summary.as_text()
    assert text.splitlines()[0].strip() == "Anxiety"
    assert len(summary.tables[1].data) == len(results) + 1  # header row
    assert irr.compare(results).as_text() == irr.compare(*results).as_text()
    with pytest.raises(ValueError, match="`results` must hold at least one result"):
        irr.compare()
    with pytest.raises(TypeError, match=r"`results` must be irr result objects; got \['float'\]"):
        irr.compare(0.5)
    with pytest.raises(ValueError, match=r"`labels` must give one label per result \(1\); got 2"):
        irr.compare(results[0], labels=["a", "b"])


def test_compare_labels_duplicates_by_raters():
    vision = irr.datasets.load("vision")
    anxiety = irr.datasets.load("anxiety")
    a = irr.Agreement.from_frame(vision).kappa()
    b = irr.Agreement.from_frame(anxiety, ["rater1", "rater2"]).kappa()
    text = irr.compare(a, b).as_text()
    assert "Cohen's kappa (r.eye, l.eye)" in text
    assert "Cohen's kappa (rater1, rater2): 20 subjects." in text
