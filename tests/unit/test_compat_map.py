"""The function map of docs/compat.md: every R irr, irrCAC and kappaetc name is listed,
and every call in the "ours" column runs on the bundled data sets."""

import re
from pathlib import Path

import numpy as np
import pandas as pd
import pytest

import irr

PAGE = Path(__file__).resolve().parents[2] / "docs" / "compat.md"

#: What each table must list (R irr 0.84.1's functions, irrCAC 1.0's functions and
#: options, kappaetc's options), as they appear in the first column.
REQUIRED = {
    "R irr": ["agree", "bhapkar", "finn", "icc", "iota", "kappa2", "kappam.fleiss",
              "kappam.light", "kendall", "kripp.alpha", "maxwell", "meancor", "meanrho",
              "N.cohen.kappa", "N2.cohen.kappa", "rater.bias", "relInterIntra", "robinson",
              "stuart.maxwell.mh", "tolerance=", "model=", "type=", "unit=", "r0=",
              "conf.level=", "scaledata=", "standardize=", "weight=", "sort.levels=",
              "exact=", "detail=", "correct=", "method=", "fisher=", "twosided="],
    "irrCAC": [*(f"{name}.raw" for name in ("pa.coeff", "gwet.ac1", "fleiss.kappa",
                                             "krippen.alpha", "conger.kappa", "bp.coeff")),
               *(f"{name}.dist" for name in ("pa.coeff", "gwet.ac1", "fleiss.kappa",
                                              "krippen.alpha", "bp.coeff")),
               *(f"{name}.table" for name in ("kappa2", "scott2", "gwet.ac1", "bp2",
                                               "krippen2", "pa2", "bangdiwala")),
               "bangdiwala2RR.fn",
               *(f"{name}.weights" for name in ("identity", "linear", "quadratic",
                                                 "ordinal", "radical", "ratio", "circular",
                                                 "bipolar")),
               "altman.bf", "fleiss.bf", "landis.koch.bf", "conflev", "N=", "weights=",
               "categ.labels"],
    "Stata kappaetc": ["wgt(", "wgt(power", "wgt(circular #", "wgt(circular 180)",
                       "se(conditional raters)", "se(conditional subjects)",
                       "se(unconditional)", "listwise", "casewise", "testvalue(",
                       "largesample", "nociclipped", "level(", "benchmark", "showscale",
                       "ttest", "icc(", "frequency", "categories(", "nsubjects(",
                       "nraters(", "showweights", "loa", "specific"],
}


def _cells(line):
    """The cells of a markdown table row, not splitting inside code spans."""
    cells, current, in_code = [], "", False
    for char in line.strip().strip("|"):
        if char == "`":
            in_code = not in_code
        if char == "|" and not in_code:
            cells.append(current.strip())
            current = ""
        else:
            current += char
    cells.append(current.strip())
    return cells


def _tables():
    text = PAGE.read_text(encoding="utf-8")
    section = text.split("\n## Function map\n", 1)[1].split("\n## ", 1)[0]
    tables = {}
    for block in section.split("\n### ")[1:]:
        title, _, body = block.partition("\n")
        rows = [_cells(line) for line in body.splitlines() if line.startswith("| ")]
        tables[title.strip()] = rows[2:]  # drop the header and the separator
    return tables


TABLES = _tables()


def _namespaces():
    anxiety = irr.datasets.load("anxiety")
    raw = irr.datasets.load("cac_raw4raters")
    diagnoses = irr.datasets.load("diagnoses")
    pef = irr.datasets.load("pef")
    long = pef.melt(id_vars="subject", value_name="rating").assign(
        rater=lambda d: d["variable"].str[:-2], replicate=lambda d: d["variable"].str[-1])
    labels = sorted(set(diagnoses.stack()))
    counts = np.stack([(diagnoses == c).sum(axis=1) for c in labels], axis=1)
    common = {"irr": irr, "np": np, "pd": pd, "long": long, "counts": counts,
              "table": np.array([[13, 0, 0], [0, 20, 7], [0, 4, 56]]),  # cont3x3abstractors
              "a": anxiety["rater1"], "b": anxiety["rater2"],
              "ag2": irr.Agreement(anxiety["rater1"], anxiety["rater2"]),
              "df": anxiety.assign(site=[1, 2] * 10)}

    def on(ratings):
        ag = irr.Agreement.from_frame(ratings)
        s = np.asarray(ag.categories, dtype=float)
        return {**common, "ratings": ratings, "ag": ag, "x": ratings.T, "s": s,
                "res": ag.gwet_ac(), "W": irr.weights.agreement_weights("quadratic", s.size, s),
                "other": irr.Agreement.from_frame(ratings.iloc[:, :3])}

    return {"R irr": on(anxiety), "irrCAC": on(raw), "Stata kappaetc": on(raw)}


NAMESPACES = _namespaces()
CALLS = [(table, row[0], code) for table, rows in TABLES.items() for row in rows
         for code in re.findall(r"`([^`]+)`", row[1])]


def _namespace(table, theirs):
    namespace = dict(NAMESPACES[table])
    if theirs.startswith("`maxwell"):  # Maxwell's RE is for binary ratings, as irr's
        namespace.update(a=namespace["a"] > 3, b=namespace["b"] > 3,
                         ag2=irr.Agreement(namespace["a"] > 3, namespace["b"] > 3))
    return namespace


def test_the_page_has_the_three_tables_with_three_columns():
    assert set(TABLES) == set(REQUIRED)
    for table, rows in TABLES.items():
        assert len(rows) >= 20, table
        for row in rows:
            assert len(row) == 3, (table, row)
            assert re.search(r"`[^`]+`", row[1]), (table, row)  # a call, or the nearest


@pytest.mark.parametrize("table", sorted(REQUIRED))
def test_every_function_and_option_has_a_row(table):
    listed = " ".join(row[0] for row in TABLES[table])
    missing = [name for name in REQUIRED[table] if name not in listed]
    assert not missing, f"{table}: no row for {missing}"


def test_not_available_rows_give_a_reason_and_an_alternative():
    for table, rows in TABLES.items():
        for row in rows:
            if row[1].startswith("not available"):
                assert ":" in row[1], (table, row)  # the reason follows the colon
                assert re.search(r"Nearest|pass the matrix", row[1]), (table, row)


@pytest.mark.parametrize(("table", "theirs", "code"), CALLS,
                         ids=[f"{t}:{c}" for t, _, c in CALLS])
def test_every_call_runs(table, theirs, code):
    result = eval(code, _namespace(table, theirs))  # the page's own calls, nothing else
    assert result is not None
    if "plotting" in code:
        import matplotlib.pyplot as plt

        plt.close("all")


def test_n2_cohen_kappa_and_rel_inter_intra_rows():
    # R irr's N2.cohen.kappa(c(0.2, 0.25, 0.55), k1 = 0.6, k0 = 0.4) = 101 (manual example,
    # value as a port of irr records it; tests/reference/test_plan_flack_published.py)
    assert int(irr.plan.kappa(0.4, 0.6, method="flack", proportions=[0.2, 0.25, 0.55],
                              alternative="greater").n) == 101
    # relInterIntra: the inter-rater reliability with raters random is the two-way
    # agreement ICC of the variance components (irr's estimates on Eliasziw et al.'s Table
    # 4 are checked in tests/reference/test_inter_intra_published.py)
    rep = irr.Agreement.from_long(NAMESPACES["R irr"]["long"], subject="subject",
                                  rater="rater", rating="rating", replicate="replicate",
                                  continuous=True)
    assert rep.inter_intra_reliability().estimate == pytest.approx(
        rep.icc_components().estimate, rel=1e-10)


def test_the_calls_are_the_coefficients_they_name():
    ns = NAMESPACES["irrCAC"]
    ag = ns["ag"]
    # irrCAC's alpha with a weight matrix W: alpha on the squared distances 1 - W
    assert ag.krippendorff_alpha(1 - ns["W"], ci=None).estimate == pytest.approx(
        ag.krippendorff_alpha("interval", ci=None).estimate, abs=1e-12)
    # irrCAC's identity.weights: the unweighted AC1
    assert ag.gwet_ac(np.eye(len(ag.categories))).estimate == pytest.approx(
        ag.gwet_ac().estimate, abs=1e-12)
    # irrCAC's README on cont3x3abstractors: krippen2.table 0.7972585; pa2.table 0.89
    # with SE 0.03128898; bangdiwala.table 0.8059604
    two = irr.Agreement.from_table(ns["table"])
    assert two.krippendorff_alpha(ci=None).estimate == pytest.approx(0.7972585, abs=5e-8)
    pa = two.percent_agreement()
    assert pa.estimate == pytest.approx(0.89)
    assert pa.se == pytest.approx(0.03128898, abs=5e-9)
    b = two.bangdiwala_b(distribution="t")
    assert b.estimate == pytest.approx(0.8059604, abs=5e-8)
    assert b.se == pytest.approx(0.05449465, abs=5e-9)
    assert (round(b.ci.low, 3), round(b.ci.high, 3)) == (0.698, 0.914)
    chart = irr.plotting.agreement_chart(two)
    assert "B = 0.806" in chart.get_title()
    # kappaetc's power weights by name: the matrix of Warrens (2014)
    s = ns["s"]
    cubic = 1 - (np.abs(np.subtract.outer(s, s)) / np.ptp(s)) ** 3
    assert ag.gwet_ac("power:3").estimate == pytest.approx(ag.gwet_ac(cubic).estimate,
                                                           abs=1e-14)
    import matplotlib.pyplot as plt

    plt.close("all")
    r = NAMESPACES["R irr"]
    assert r["ag"].mean_pearson().estimate == pytest.approx(0.2235, abs=1e-4)
    # R irr's documented N.cohen.kappa(0.5, 0.5, k1 = 0.7, k0 = 0.85) = 96
    assert int(irr.plan.kappa(0.85, 0.7, method="cantor", rates=(0.5, 0.5),
                              alternative="less").n) == 96


def test_the_inference_option_rows_are_available_and_do_what_they_name():
    """kappaetc's testvalue, nociclipped and nraters and R irr's icc r0 (issue 20)."""
    rows = {row[0]: row[1] for rows in TABLES.values() for row in rows}
    for theirs in ("`testvalue(#)`", "`nociclipped`", "`nraters(#)`", "`icc(..., r0=0.3)`"):
        row = next(v for k, v in rows.items() if k.startswith(theirs))
        assert not row.startswith("not available"), theirs
    ns = NAMESPACES["Stata kappaetc"]
    ag = ns["ag"]
    tested = ag.gwet_ac(null=0.4, alternative="greater", distribution="t")
    assert (tested.null_value, tested.alternative) == (0.4, "greater")
    assert tested.statistic == pytest.approx((tested.estimate - 0.4) / tested.se)
    assert ag.gwet_ac(ci_clip=False, distribution="t").ci.high > 1  # clipped: 1 (irrCAC)
    assert ag.gwet_ac(sampling="both", rater_population=4).se == pytest.approx(ag.gwet_ac().se)
    icc = NAMESPACES["R irr"]["ag"].icc("oneway", null=0.3)
    assert icc.null_value == 0.3
    assert icc.statistic == pytest.approx(
        NAMESPACES["R irr"]["ag"].icc("oneway").statistic * 0.7 / 1.6)  # (1 - r0)/(1 + 2 r0)


def test_compat_page_states_what_the_package_reproduces_where_r_differs():
    """The compatibility page's corrections, each checked against the package."""
    text = " ".join(PAGE.read_text(encoding="utf-8").split())
    # relInterIntra's one-sided bounds are not our 90% interval's lower ends
    assert "is the lower end of our `confidence_level=0.90`" not in text
    assert "are **not** the lower ends of our `confidence_level=0.90` intervals" in text
    # mcr equals ours only with slope.measure="tangent"
    assert 'slope.measure="tangent"' in text
    # irr::icc's ICC(A,k) interval: ours is psych's and Spearman-Brown's
    sf = np.array([[9, 2, 5, 8], [6, 1, 3, 2], [8, 4, 6, 8], [7, 1, 2, 6], [10, 5, 6, 9],
                   [6, 2, 4, 7]])
    avg = irr.icc(sf, "twoway", "agreement", "average")
    single = irr.icc(sf, "twoway", "agreement", "single")
    assert (round(avg.ci.low, 3), round(avg.ci.high, 3), round(avg.df_ci, 2)) == (
        0.071, 0.927, 4.79)

    def step_up(r):
        return 4 * r / (1 + 3 * r)

    assert step_up(single.ci.low) == pytest.approx(avg.ci.low, rel=1e-9)
    assert step_up(single.ci.high) == pytest.approx(avg.ci.high, rel=1e-9)
    assert "(0.071, 0.927)" in text
    assert "(0.039, 0.929)" in text
    # kripp.alpha without the per-unit divisor on complete data: the reproduction
    x = irr.datasets.load("anxiety").to_numpy()
    assert round(irr.krippendorff_alpha(x, "interval").estimate, 4) == 0.1701
    m = x.shape[1]
    d = (x[:, :, None] - x[:, None, :]).astype(float) ** 2
    observed = d.sum()  # every ordered pair of a unit, without 1 / (m - 1)
    values = x.ravel().astype(float)
    total = values.size * (m - 1)  # the inflated n
    expected = (m - 1) ** 2 * ((values[:, None] - values[None, :]) ** 2).sum()
    assert round(1 - (total - 1) * observed / expected, 4) == 0.1631
    assert "0.1631" in text
    assert "0.1701" in text


def test_from_counts_docstring_lists_every_coefficient_of_counts():
    doc = " ".join(irr.Agreement.from_counts.__doc__.split())
    assert ":meth:`krippendorff_alpha`" in doc
    counts = irr.Agreement.from_counts(np.array([[0, 3, 1], [2, 2, 0], [1, 1, 2], [4, 0, 0]]))
    assert np.isfinite(counts.krippendorff_alpha(n_resamples=50).estimate)
