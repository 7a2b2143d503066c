"""Planning the exact binomial test of an error rate (irr.plan.error_rate).

Reference values are computed here, independently of the package, from exact binomial
sums in rational arithmetic (``fractions.Fraction`` and ``math.comb``): the critical count
is found by scanning counts, not by bisection on log tails.
"""

import math
from fractions import Fraction

import numpy as np
import pytest

import irr
from irr.plan.error_rate_plan import error_rate_power


def _terms(n, p):
    """Exact binomial probabilities as integers over the common denominator D**n
    (p = a / D exactly, its binary value): comb(n, i) * a**i * (D - a)**(n - i).

    Built term by term, t[i + 1] = t[i] * (n - i) * a / ((i + 1) * (D - a)), a division
    that is exact (t[i + 1] is an integer) and by a small number, so the scan of every n
    up to 300 costs a fifth of the powers' (the same integers: see
    test_reference_terms_are_the_binomial_terms)."""
    p = Fraction(p)
    a, d = p.numerator, p.denominator
    if a == d:  # p = 1: all the mass on n
        return [0] * n + [1], 1
    terms = [(d - a) ** n]
    for i in range(n):
        terms.append(terms[-1] * (n - i) * a // ((i + 1) * (d - a)))
    return terms, d**n


@pytest.mark.parametrize("n", [1, 2, 20, 300])
@pytest.mark.parametrize("p", [0.0, 1e-9, 0.05, 0.10, 0.25, 0.5, 1.0])
def test_reference_terms_are_the_binomial_terms(n, p):
    # the recurrence gives the closed form's integers, over the same denominator
    q = Fraction(p)
    a, d = q.numerator, q.denominator
    assert _terms(n, p) == ([math.comb(n, i) * a**i * (d - a) ** (n - i)
                             for i in range(n + 1)], d**n)


def _below(numerator, denominator, alpha):
    alpha = Fraction(alpha)
    return numerator * alpha.denominator < alpha.numerator * denominator


def _exact_power_less(n, eps0, eps1, alpha):
    """P(reject H0: rate >= eps0 | rate = eps1), the critical count by scanning counts."""
    null, den = _terms(n, eps0)
    cdf, c = 0, -1
    for i in range(n + 1):
        cdf += null[i]
        if not _below(cdf, den, alpha):
            break
        c = i
    alt, den1 = _terms(n, eps1)
    return float(Fraction(sum(alt[: c + 1]), den1)), c


def _exact_power_greater(n, eps0, eps1, alpha):
    null, den = _terms(n, eps0)
    c = n
    for cand in range(n, -1, -1):  # smallest c with P(X > c) < alpha
        if not _below(sum(null[cand + 1:]), den, alpha):
            break
        c = cand
    alt, den1 = _terms(n, eps1)
    return float(Fraction(sum(alt[c + 1:]), den1)), c


@pytest.mark.parametrize("n", [1, 20, 59, 60, 100, 179, 180, 203, 250])
def test_power_equals_exact_rational_sum(n):
    expected, c = _exact_power_less(n, 0.10, 0.05, 0.05)
    assert error_rate_power(n, 0.10, 0.05, 0.05, "less") == pytest.approx(expected, rel=1e-9,
                                                                          abs=1e-15)
    res = irr.plan.error_rate(0.10, 0.05, n=n)
    assert int(res.table["critical_count"].iloc[0]) == c


@pytest.mark.parametrize("n", [10, 57, 100])
def test_power_greater_equals_exact_rational_sum(n):
    expected, _ = _exact_power_greater(n, 0.10, 0.25, 0.05)
    assert error_rate_power(n, 0.10, 0.25, 0.05, "greater") == pytest.approx(expected, rel=1e-9)


def test_first_and_stable_n_by_exhaustive_exact_scan():
    # every n up to the search bound, in exact rational arithmetic
    bound = 300
    powers = [_exact_power_less(n, 0.10, 0.05, 0.05)[0] for n in range(1, bound + 1)]
    above = [p >= 0.8 for p in powers]
    first = above.index(True) + 1
    stable = max(i for i, a in enumerate(above) if not a) + 2
    res = irr.plan.error_rate(0.10, 0.05, power=0.8, max_n=bound)
    assert int(res.n) == first
    assert int(res.table["n_stable"].iloc[0]) == stable
    assert stable > first  # the sawtooth: the first n is not safe here
    assert float(res.power) == pytest.approx(powers[first - 1], rel=1e-9)
    # the power falls below the target between them
    assert min(powers[first - 1: stable - 1]) < 0.8


def test_rule_of_three_anchor():
    # Hanley & Lippman-Hand (1983), JAMA 249:1743: with zero errors in n cases the exact
    # one-sided 95% upper bound is 1 - 0.05**(1/n) (about 3/n); to show an error rate
    # below 1% the test needs 0.99**n < 0.05, n = 299. A model that (almost) never errs
    # reaches (almost) full power exactly there.
    res = irr.plan.error_rate(0.01, 1e-9, power=0.99)
    assert int(res.n) == math.floor(math.log(0.05) / math.log(0.99)) + 1 == 299
    assert int(res.table["critical_count"].iloc[0]) == 0


def test_grid_has_one_row_per_combination():
    res = irr.plan.error_rate([0.10, 0.2], [0.05, 0.02], power=[0.8, 0.9])
    frame = res.to_frame()
    assert len(frame) == 8
    assert list(frame.columns[:5]) == ["epsilon0", "epsilon1", "alpha", "alternative",
                                       "target_power"]
    for row in frame.itertuples():
        p, _ = _exact_power_less(int(row.n), row.epsilon0, row.epsilon1, 0.05)
        assert p >= row.target_power
        assert p == pytest.approx(row.power, rel=1e-9)


def test_report_and_summary():
    res = irr.plan.error_rate(0.10, 0.05, power=0.8)
    text = res.report()
    assert text.startswith(f"With {int(res.n)} test cases, the exact binomial test at the 5%")
    assert "Chernick & Liu, 2002" in text
    assert f"n = {int(res.table['n_stable'].iloc[0])}" in text
    assert "n stable" in res.summary().as_text()
    curve = res.curve(np.arange(1, 301))
    assert curve.shape == (300, 3)
    assert curve.loc[curve["n"] == int(res.n), "power"].item() == pytest.approx(float(res.power))


@pytest.mark.parametrize(
    ("kwargs", "error", "message"),
    [
        ({"epsilon0": 0.1, "epsilon1": 0.1}, ValueError, "`epsilon1` must differ"),
        ({"epsilon0": 1.1, "epsilon1": 0.1}, ValueError, "`epsilon0` must be in"),
        ({"epsilon0": 0.1, "epsilon1": 0.2, "alternative": "less"}, ValueError, "wrong side"),
        ({"epsilon0": 0.1, "epsilon1": 0.05, "n": 10, "power": 0.8}, ValueError, "not both"),
        ({"epsilon0": 0.1, "epsilon1": 0.05, "n": 0}, ValueError, "`n`"),
        ({"epsilon0": 0.1, "epsilon1": 0.05, "alternative": "lower"}, ValueError,
         "`alternative`"),
        ({"epsilon0": [[0.1]], "epsilon1": 0.05}, ValueError, "1-D"),
        ({"epsilon0": "x", "epsilon1": 0.05}, TypeError, "`epsilon0`"),
    ],
)
def test_bad_arguments(kwargs, error, message):
    with pytest.raises(error, match=message):
        irr.plan.error_rate(**kwargs)


@pytest.mark.slow
@pytest.mark.parametrize(("n", "eps1"), [(179, 0.05), (190, 0.05), (120, 0.03)])
def test_power_matches_rejection_rate_of_the_package_test(n, eps1):
    """The claimed power against the rejection rate of irr.error_rate_test itself."""
    claimed = float(irr.plan.error_rate(0.10, eps1, n=n).power)
    rng = np.random.default_rng(20261126)
    reps = 4000
    errors = rng.binomial(n, eps1, size=reps)
    decisions = {e: irr.error_rate_test(int(e), n, 0.10, alternative="less").reject
                 for e in np.unique(errors)}
    rate = np.mean([decisions[e] for e in errors])
    assert abs(rate - claimed) < 4 * math.sqrt(claimed * (1 - claimed) / reps)


def test_power_curve_figure():
    matplotlib = pytest.importorskip("matplotlib")
    matplotlib.use("Agg")
    from irr.plotting import power_curve

    res = irr.plan.error_rate(0.10, [0.03, 0.05], power=0.8)
    ax = power_curve(res)
    lines = [line for line in ax.get_lines() if len(line.get_xdata()) > 10]
    assert len(lines) == 2
    # the drawn curve is the exact power at every n
    x, y = lines[1].get_xdata(), lines[1].get_ydata()
    assert y[list(x).index(179)] == pytest.approx(_exact_power_less(179, 0.10, 0.05, 0.05)[0])
    with pytest.raises(TypeError, match="`result`"):
        power_curve(0.8)
    matplotlib.pyplot.close("all")


def test_power_curve_legend_names_inputs_in_words():
    # two target powers: the legend said "target_power = 0.8" (the column's name)
    matplotlib = pytest.importorskip("matplotlib")
    matplotlib.use("Agg")
    from irr.plotting import power_curve

    ax = power_curve(irr.plan.error_rate(0.10, 0.05, power=[0.8, 0.9]))
    labels = [text.get_text() for text in ax.get_legend().get_texts()]
    assert labels[:2] == ["target power = 0.8", "target power = 0.9"]
    assert not any("_power" in label for label in labels)
    matplotlib.pyplot.close("all")


def test_plan_table_prints_a_computed_column_with_one_number_of_decimals():
    # the power at n = 100 and 200 printed as "0.436" and "0.7965", eps_bar as "0.04" and
    # "0.06": a column of one quantity keeps one number of decimals
    text = irr.plan.error_rate(0.10, 0.05, n=[100, 200]).summary().as_text()
    rows = [line.split() for line in text.splitlines() if line[:1] in ("1", "2")]
    assert [row[5] for row in rows] == ["0.4360", "0.7965"]  # power
    assert [row[7] for row in rows] == ["0.04000", "0.06000"]  # eps_bar = 4/100, 12/200
    assert [row[4] for row in rows] == ["100", "200"]  # integers stay integers


def test_an_unreachable_target_and_an_unstable_power_are_missing_not_minus_one():
    never = irr.plan.error_rate(0.10, 0.09, max_n=200)
    row = never.to_dict()["rows"][0]
    assert row["n"] is None
    assert row["n_stable"] is None
    assert row["critical_count"] is None
    assert never.n is None
    assert " -1 " not in never.summary().as_text()
    unstable = irr.plan.error_rate(0.10, 0.05, max_n=190)
    assert int(unstable.n) == 179
    assert unstable.to_frame()["n_stable"].isna().all()
    assert "falls below 80% again" in unstable.report()
