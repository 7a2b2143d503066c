"""kappaetc's parametric weights: ``'power:r'``, ``'circular:u'`` and ``'circular:180'``.

Definitions checked against the kappaetc help file (Klein 2018, SJ18-4 st0544, option
``wgt()``), which cites Warrens (2014, eq. 3, p. 2) for power weights and Warrens & Pratiwi
(2016, eq. 7, p. 513) for the circular weights with parameter u:

* power r:     1 - |k - l|^r / |q_max - q_min|^r           (r = 0, 0.5, 1, 2: identity,
               radical, linear, quadratic)
* circular u:  u * [(|k - l| == 1) + (|k - l| == q - 1)] for k != l, 1 on the diagonal
               (positions; kappaetc requires ``noabsolute``)
* circular 180: 1 - sin(180 (k - l) / (q_max - q_min + 1))^2 / M, the sine in radians
               (Mata's sin), M the largest of them.

No published coefficient value computed with these weights was found (the kappaetc help
examples print no output; Warrens & Pratiwi's example tables could not be retrieved), so
coefficients are checked against weighted kappa written out from its definition.
"""

import math
import subprocess
import sys

import numpy as np
import pytest

import irr
from irr.weights import PARAMETRIC_SCHEMES, agreement_weights, weight_name

SCORES = np.array([1.0, 2.0, 4.0, 7.0])  # unequal spacing: scores, not positions, count


@pytest.mark.parametrize("r", [0.0, 0.5, 1.0, 2.0, 3.0, 1.7])
def test_power_weights_are_warrens_2014(r):
    w = agreement_weights(f"power:{r:g}", 4, SCORES)
    for k in range(4):
        for j in range(4):
            expected = 1.0 if k == j else 1 - abs(SCORES[k] - SCORES[j]) ** r / 6.0**r
            assert w[k, j] == pytest.approx(expected, abs=1e-15)


@pytest.mark.parametrize(("r", "scheme"), [(0, None), (0.5, "radical"), (1, "linear"),
                                           (2, "quadratic")])
def test_power_weights_generalise_the_named_schemes(r, scheme):
    # kappaetc's help: identity (0), radical (0.5), linear (1), quadratic (2)
    np.testing.assert_allclose(agreement_weights(f"power:{r}", 4, SCORES),
                               agreement_weights(scheme, 4, SCORES), rtol=0, atol=1e-15)


def test_circular_u_weights_are_warrens_pratiwi_2016():
    w = agreement_weights("circular:0.5", 5, np.arange(1.0, 6.0))
    expected = np.eye(5)
    for k in range(5):  # neighbours on the circle: |k - l| = 1 or q - 1
        expected[k, (k + 1) % 5] = expected[k, (k - 1) % 5] = 0.5
    np.testing.assert_array_equal(w, expected)
    # positions, not scores: unequal scores give the same matrix (kappaetc's noabsolute)
    np.testing.assert_array_equal(
        agreement_weights("circular:0.5", 5, np.array([0.0, 1.0, 5.0, 6.0, 20.0])), expected)
    # u = 0 is the identity; two categories are neighbours both ways
    np.testing.assert_array_equal(agreement_weights("circular:0", 4, SCORES), np.eye(4))
    np.testing.assert_array_equal(agreement_weights("circular:0.3", 2, np.array([1.0, 2.0])),
                                  [[1.0, 0.3], [0.3, 1.0]])


def test_circular_180_is_kappaetcs_sine_argument():
    x = np.arange(1.0, 6.0)
    d = np.sin(180 * np.subtract.outer(x, x) / 5) ** 2  # radians, as Stata's sin()
    np.testing.assert_allclose(agreement_weights("circular:180", 5, x), 1 - d / d.max(),
                               rtol=0, atol=1e-15)
    # circular:pi is Gwet's (irrCAC's) circular, 1 - sin^2(pi (k - l)/U) / max
    np.testing.assert_array_equal(agreement_weights("circular:pi", 5, x),
                                  agreement_weights("circular", 5, x))


def test_names():
    assert PARAMETRIC_SCHEMES == ("power", "circular")
    assert weight_name("Power:3.0") == "power:3"
    assert weight_name("power: 0.5") == "power:0.5"
    assert weight_name("circular:.25") == "circular:0.25"
    assert weight_name("CIRCULAR:pi") == "circular"
    assert weight_name("circular:180") == "circular:180"


@pytest.mark.parametrize(("weights", "message"), [
    ("power", r"`weights='power'` needs its exponent r after a colon, e.g. 'power:3'"),
    ("power:-1", r"finite exponent r >= 0 .*got 'power:-1'"),
    ("power:inf", r"finite exponent r >= 0 .*got 'power:inf'"),
    ("power:x", r"finite exponent r >= 0 .*got 'power:x'"),
    ("circular:1", r"0 <= u < 1 .*got 'circular:1'"),
    ("circular:-0.1", r"0 <= u < 1 .*got 'circular:-0.1'"),
    ("circular:90", r"'circular:180' .*got 'circular:90'"),
    ("linear:2", r"`weights` must be None, one of .*'power:r'.*got 'linear:2'"),
])
def test_bad_names(weights, message):
    with pytest.raises(ValueError, match=message):
        weight_name(weights)


def _weighted_kappa(table, w):
    """Weighted kappa from its definition (Cohen 1968)."""
    p = np.asarray(table, float) / np.sum(table)
    po = (w * p).sum()
    pe = (w * np.outer(p.sum(axis=1), p.sum(axis=0))).sum()
    return (po - pe) / (1 - pe)


TABLE = np.array([[10, 4, 1, 0, 3], [5, 10, 12, 2, 0], [2, 4, 12, 5, 1], [0, 2, 6, 13, 4],
                  [5, 0, 1, 4, 9]])


@pytest.mark.parametrize("weights", ["power:3", "power:0.5", "circular:0.5", "circular:180"])
def test_weighted_kappa_with_the_new_schemes(weights):
    ag = irr.Agreement.from_table(TABLE, categories=[1, 2, 3, 4, 5])
    res = ag.kappa(weights)
    w = agreement_weights(weights, 5, np.arange(1.0, 6.0))
    assert res.estimate == pytest.approx(_weighted_kappa(TABLE, w), abs=1e-12)
    assert res.coefficient == f"Weighted kappa ({weight_name(weights)})"
    np.testing.assert_array_equal(res.weight_matrix, w)
    assert any("Warrens" in note or "kappaetc" in note for note in res.notes)


def test_circular_u_kappa_rewards_neighbours_across_the_ends():
    # 1 and 5 are neighbours on a circle (e.g. weekdays, wind directions): their
    # disagreements earn u, so the circular kappa exceeds Cohen's kappa
    ag = irr.Agreement.from_table(TABLE, categories=[1, 2, 3, 4, 5])
    kappa, circular = ag.kappa().estimate, ag.kappa("circular:0.5").estimate
    assert circular > kappa
    assert ag.kappa("circular:0").estimate == pytest.approx(kappa, abs=1e-12)


def test_multirater_coefficients_take_the_new_schemes():
    ag = irr.Agreement.from_frame(irr.datasets.load("cac_raw4raters"))
    w = agreement_weights("power:3", 5, np.arange(1.0, 6.0))
    for method in ("gwet_ac", "fleiss_kappa", "brennan_prediger", "conger_kappa"):
        by_name = getattr(ag, method)("power:3")
        by_matrix = getattr(ag, method)(w)
        assert by_name.estimate == pytest.approx(by_matrix.estimate, abs=1e-14)
        assert by_name.se == pytest.approx(by_matrix.se, abs=1e-14)
        assert "(power:3)" in by_name.coefficient


def _cli(*args):
    return subprocess.run([sys.executable, "-m", "irr", *args], capture_output=True,
                          text=True, check=False)


def test_cli_weights_take_every_scheme():
    out = _cli("kappa", "--dataset", "vision", "--weights", "power:3")
    assert out.returncode == 0, out.stderr
    assert "Weighted kappa (power:3)" in out.stdout
    expected = irr.Agreement.from_frame(irr.datasets.load("vision")).kappa("power:3")
    assert f"{expected.estimate:.4f}" in out.stdout
    bad = _cli("kappa", "--dataset", "vision", "--weights", "power")
    assert bad.returncode == 2
    assert "needs its exponent r after a colon" in bad.stderr
    assert not math.isnan(expected.se)
