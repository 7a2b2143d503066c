"""Sample size for kappa (irr.plan.kappa, irr.plan.kappa_interval) against published
values and independent computations.

Sources:

- R irr ``N.cohen.kappa`` (Cantor, 1996), documented example: ``N.cohen.kappa(0.5, 0.5,
  0.7, 0.85)`` prints 96 (irr 0.84.1 reference manual, "Example output"; k1 = 0.7 is
  the true kappa and k0 = 0.85 the null value, one-sided, alpha 0.05, power 0.8).
- kappaSize 1.2 ``PowerBinary(kappa0 = 0.4, kappa1 = 0.7, props = 0.5, raters = 2,
  alpha = 0.05, power = 0.8)``: N = 73.26, reported as 74 subjects; with props = 0.2,
  107; and ``N.cohen.kappa(0.5, 0.5, 0.7, 0.4, twosided = TRUE)`` = 64. These three are
  secondary: outputs of kappaSize 1.2 and irr quoted in a public repository's worked
  example (its "Check" line), not in the packages' manuals, whose examples do not print
  their output. No published value was found for 3 or more raters or categories; those
  are checked against independent computations below.
"""

import itertools
import math

import numpy as np
import pytest
from scipy.stats import chi2, dirichlet_multinomial, norm

import irr
from irr.plan.kappa_plan import cell_probabilities, gof_noncentrality


def test_n_cohen_kappa_documented_example():
    # R irr N.cohen.kappa(0.5, 0.5, k1 = 0.7, k0 = 0.85) -> 96 (one-sided)
    res = irr.plan.kappa(0.85, 0.7, method="cantor", rates=(0.5, 0.5), alternative="less")
    assert int(res.n) == 96


def test_n_cohen_kappa_two_sided_quoted():
    # N.cohen.kappa(0.5, 0.5, 0.7, 0.4, twosided = TRUE) -> 64 (secondary, see module)
    assert int(irr.plan.kappa(0.4, 0.7, method="cantor", rates=(0.5, 0.5)).n) == 64


@pytest.mark.parametrize(("prevalence", "expected"), [(0.5, 74), (0.2, 107)])
def test_kappasize_power_binary_quoted(prevalence, expected):
    # kappaSize::PowerBinary(0.4, 0.7, props, raters = 2): 73.26 -> 74; props 0.2 -> 107
    assert int(irr.plan.kappa(0.4, 0.7, prevalence=prevalence).n) == expected


def test_donner_eliasziw_two_rater_cells_by_hand():
    # Donner & Eliasziw (1992), eq. for two raters: P(both +) = p^2 + k p (1 - p),
    # P(split) = 2 (1 - k) p (1 - p), P(both -) = (1 - p)^2 + k p (1 - p)
    p, k0, k1 = 0.2, 0.4, 0.7

    def cells(k):
        return np.array([(1 - p) ** 2 + k * p * (1 - p), 2 * (1 - k) * p * (1 - p),
                         p**2 + k * p * (1 - p)])

    delta = ((cells(k1) - cells(k0)) ** 2 / cells(k0)).sum()
    n = (norm.isf(0.025) + norm.isf(0.2)) ** 2 / delta
    assert n == pytest.approx(106.894, abs=1e-3)
    assert float(gof_noncentrality(k0, k1, [p, 1 - p], 2)) == pytest.approx(delta, rel=1e-12)


@pytest.mark.parametrize("raters", [2, 3, 4, 6])
def test_binary_cells_by_enumerating_rating_vectors(raters):
    # the common correlation model, rater by rater: with probability kappa all raters
    # give one rating (positive with probability p), else independent ratings
    p, kappa = 0.3, 0.45
    expected = np.zeros(raters + 1)
    for ratings in itertools.product([0, 1], repeat=raters):
        s = sum(ratings)
        prob = (1 - kappa) * p**s * (1 - p) ** (raters - s)
        prob += kappa * (p if s == raters else (1 - p) if s == 0 else 0.0)
        expected[s] += prob
    assert cell_probabilities(kappa, [p, 1 - p], raters) == pytest.approx(expected, rel=1e-12)


@pytest.mark.parametrize(("raters", "props"), [(2, [0.2, 0.3, 0.5]), (3, [0.25] * 4),
                                               (5, [0.1, 0.2, 0.3, 0.2, 0.2])])
def test_unanimous_cells_equal_scipy_dirichlet_multinomial(raters, props):
    kappa = 0.35
    gamma = (1 - kappa) / kappa
    alpha = gamma * np.asarray(props)
    unanimous = [dirichlet_multinomial.pmf(raters * np.eye(len(props), dtype=int)[j],
                                           alpha, raters) for j in range(len(props))]
    cells = cell_probabilities(kappa, props, raters)
    assert cells[1:] == pytest.approx(unanimous, rel=1e-10)
    assert cells.sum() == pytest.approx(1.0)


def test_grid_rows_and_monotone_in_raters():
    res = irr.plan.kappa(0.4, 0.6, raters=[2, 3, 4, 5, 6], prevalence=0.3, power=[0.8, 0.9])
    frame = res.to_frame()
    assert len(frame) == 10
    n80 = frame.loc[frame["target_power"] == 0.8, "n"].to_numpy()
    assert np.all(np.diff(n80) < 0)  # more raters, fewer subjects
    for row in frame.itertuples():  # n is the smallest integer reaching the target
        delta = float(gof_noncentrality(0.4, 0.6, row.proportions, row.raters))
        z = norm.isf(0.025) + norm.isf(1 - row.target_power)
        assert row.n == math.ceil(z**2 / delta)


def test_power_at_given_n():
    res = irr.plan.kappa(0.4, 0.7, prevalence=0.5, n=[50, 74])
    delta = float(gof_noncentrality(0.4, 0.7, [0.5, 0.5], 2))
    expected = norm.cdf(np.sqrt(np.array([50, 74]) * delta) - norm.isf(0.025))
    assert res.table["power"].to_numpy() == pytest.approx(expected, rel=1e-12)


def test_report_sentence():
    res = irr.plan.kappa(0.4, 0.6, raters=3, categories=4, power=0.8)
    assert res.report() == (
        f"With {int(res.n)} subjects rated by 3 raters on a rating scale with 4 categories, a "
        "two-sided test of kappa = 0.4 against kappa = 0.6 has "
        f"{100 * float(res.power):.0f}% power at the 5% level (Rotondi & Donner, 2012). "
        f"The smallest expected cell count is {float(res.table['min_expected'].iloc[0]):.1f} "
        "(below 5), so this approximation may promise too much power; confirm it by "
        "simulation (irr.plan.simulate).")
    assert float(res.table["min_expected"].iloc[0]) < 5
    big = irr.plan.kappa(0.4, 0.6, raters=2, prevalence=0.5, power=0.8)  # cells >= 5
    assert "smallest expected" not in big.report()


@pytest.mark.parametrize(("upper", "raters", "props"), [(0.8, 2, [0.2, 0.8]),
                                                        (None, 3, [0.3, 0.7]),
                                                        (0.8, 4, [0.2, 0.3, 0.5])])
def test_interval_n_is_where_the_limit_is_reached(upper, raters, props):
    res = irr.plan.kappa_interval(0.6, 0.4, upper, raters=raters, proportions=props)
    n = int(res.n)
    p = res.table["proportions"].iloc[0]
    crit = chi2.isf(0.05 if upper is not None else 0.10, 1)
    p0 = cell_probabilities(0.6, p, raters)

    def stat(limit, size):
        pl = cell_probabilities(limit, p, raters)
        return size * ((p0 - pl) ** 2 / pl).sum()

    limits = [0.4] + ([upper] if upper is not None else [])
    assert all(stat(lim, n) >= crit for lim in limits)
    assert any(stat(lim, n - 1) < crit for lim in limits)
    assert res.table["lower_at_n"].iloc[0] == pytest.approx(0.4, abs=0.01)
    assert res.table["lower_at_n"].iloc[0] >= 0.4 - 1e-9


@pytest.mark.parametrize(
    ("kwargs", "error", "message"),
    [
        ({"kappa0": 0.4, "kappa1": 0.4}, ValueError, "`kappa1` must differ"),
        ({"kappa0": 1.2, "kappa1": 0.4}, ValueError, "`kappa0`"),
        ({"kappa0": 0.4, "kappa1": 0.6, "raters": 11}, ValueError, "`raters`"),
        ({"kappa0": 0.4, "kappa1": 0.6, "proportions": [0.5, 0.6, 0.1]}, ValueError,
         "`proportions`"),
        ({"kappa0": 0.4, "kappa1": 0.6, "categories": 3, "proportions": [0.5, 0.5]},
         ValueError, "`categories` = 3"),
        ({"kappa0": 0.4, "kappa1": 0.6, "method": "cantor", "raters": 3}, ValueError,
         "two raters"),
        ({"kappa0": 0.4, "kappa1": 0.6, "rates": (0.5, 0.5)}, ValueError, "`rates`"),
        ({"kappa0": 0.4, "kappa1": 0.6, "n": 10, "power": 0.8}, ValueError, "not both"),
        ({"kappa0": 0.4, "kappa1": 0.3, "alternative": "greater"}, ValueError, "wrong side"),
        ({"kappa0": 0.4, "kappa1": 0.6, "method": "gof"}, ValueError, "`method`"),
    ],
)
def test_bad_arguments(kwargs, error, message):
    with pytest.raises(error, match=message):
        irr.plan.kappa(**kwargs)


# ---------------------------------------------------------------------------------------
# Claimed power against simulated rejection rates
# ---------------------------------------------------------------------------------------
REPS = 2000


def _within_mc(rate, claimed, reps=REPS):
    return abs(rate - claimed) < 4 * math.sqrt(claimed * (1 - claimed) / reps)


@pytest.mark.slow
def test_wald_plan_matches_the_package_kappa_interval():
    from irr.plan.kappa_plan import _cantor_table

    # a design large enough (n = 211) for the large-sample variance to hold
    res = irr.plan.kappa(0.5, 0.65, method="wald", rates=(0.3, 0.4))
    n, claimed = int(res.n), float(res.power)
    cells = _cantor_table(0.65, 0.3, 0.4).ravel()
    rng = np.random.default_rng(7)
    rejected = 0
    for _ in range(REPS):
        table = rng.multinomial(n, cells).reshape(2, 2)
        res = irr.Agreement.from_table(table).kappa()
        rejected += res.ci.low > 0.5  # the two-sided 95% Wald interval excludes kappa0
    assert _within_mc(rejected / REPS, claimed)


@pytest.mark.slow
def test_cantor_plan_matches_its_z_test_on_the_package_estimate():
    from irr.plan.kappa_plan import _cantor_table, cantor_variance

    n = int(irr.plan.kappa(0.4, 0.7, method="cantor", rates=(0.5, 0.5)).n)
    claimed = float(irr.plan.kappa(0.4, 0.7, method="cantor", rates=(0.5, 0.5), n=n).power)
    se0 = math.sqrt(cantor_variance(0.4, 0.5, 0.5) / n)
    cells = _cantor_table(0.7, 0.5, 0.5).ravel()
    rng = np.random.default_rng(8)
    rejected = 0
    for _ in range(REPS):
        est = irr.Agreement.from_table(rng.multinomial(n, cells).reshape(2, 2)).kappa().estimate
        rejected += (est - 0.4) / se0 > norm.isf(0.025)
    assert _within_mc(rejected / REPS, claimed)


@pytest.mark.slow
def test_donner_eliasziw_plan_matches_their_goodness_of_fit_test():
    """Donner & Eliasziw's (1992) test of kappa = 0.4, two raters, binary: the prevalence
    estimated from the data, the chi-square on 1 degree of freedom."""
    res = irr.plan.kappa(0.4, 0.6, prevalence=0.3)
    n, claimed = int(res.n), float(res.power)
    truth = cell_probabilities(0.6, [0.3, 0.7], 2)  # 0, 1, 2 positive ratings
    rng = np.random.default_rng(9)
    rejected = 0
    for _ in range(REPS):
        m = rng.multinomial(n, truth)
        p = (m[1] + 2 * m[2]) / (2 * n)
        expected = n * cell_probabilities(0.4, [p, 1 - p], 2)
        rejected += ((m - expected) ** 2 / expected).sum() > chi2.isf(0.05, 1)
    assert _within_mc(rejected / REPS, claimed)


@pytest.mark.slow
@pytest.mark.parametrize(("raters", "props"), [(2, [0.5, 0.5]), (3, [0.25] * 4)])
def test_gof_plan_is_conservative_for_the_package_fleiss_interval(raters, props):
    """Ratings from the Dirichlet-multinomial model (its cells are the planned ones);
    the package's test is Fleiss' kappa's Wald interval excluding kappa0 = 0.4. It has at
    least the planned power (about 0.91 against 0.80 for two raters; equal for three
    raters and four categories): the goodness-of-fit plan is safe for it, not exact."""
    res = irr.plan.kappa(0.4, 0.6, raters=raters, proportions=props)
    n, claimed = int(res.n), float(res.power)
    gamma = (1 - 0.6) / 0.6
    rng = np.random.default_rng(10)
    rejected = 0
    for _ in range(REPS):
        theta = rng.dirichlet(gamma * np.asarray(props), size=n)
        counts = np.array([rng.multinomial(raters, t) for t in theta])
        rejected += irr.Agreement.from_counts(counts).fleiss_kappa().ci.low > 0.4
    assert rejected / REPS > claimed - 4 * math.sqrt(claimed * (1 - claimed) / REPS)


def test_interval_curve_is_the_expected_width():
    res = irr.plan.kappa_interval(0.6, 0.4, 0.8, prevalence=[0.3, 0.5])
    at_n = res.curve([int(n) for n in res.table["n"]])
    for i, row in res.table.iterrows():
        width = at_n.loc[(at_n["row"] == i) & (at_n["n"] == row["n"]), "width"].item()
        assert width == pytest.approx(row["upper_at_n"] - row["lower_at_n"], abs=1e-9)
    widths = res.curve([20, 50, 100, 400])["width"].to_numpy().reshape(2, 4)
    assert np.all(np.diff(widths, axis=1) < 0)


def test_min_expected_cell_count_and_note():
    res = irr.plan.kappa(0.0, 0.2, raters=6, categories=5)
    n = int(res.n)
    p0 = cell_probabilities(0.0, [0.2] * 5, 6)
    assert res.table["min_expected"].iloc[0] == pytest.approx(n * p0.min())
    assert any("chi-square approximation" in note for note in res.notes)
    # one row: "Below 5 (here)", not "(here in some rows)"; several: how many
    assert "Below 5 (here) the chi-square" in res.notes[0]
    rows = irr.plan.kappa(0.4, 0.6, raters=[2, 3], categories=4)
    low = int((rows.table["min_expected"] < 5).sum())
    assert low == 1  # 11.96 with 2 raters (n = 87), 4.57 with 3 (n = 49)
    assert "Below 5 (here in 1 of 2 rows) the chi-square" in rows.notes[0]
    fine = irr.plan.kappa(0.4, 0.6, prevalence=0.5)
    assert fine.table["min_expected"].iloc[0] >= 5
    assert fine.notes == ()
