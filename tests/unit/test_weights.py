"""Weight schemes and the tolerance rule shared by percent agreement and error rates."""

import numpy as np
import pytest

import irr
from irr.weights import agreement_weights, tolerance_agreement, weight_name


def test_named_schemes_and_aliases():
    x = np.array([1.0, 2.0, 4.0])
    lin = agreement_weights("linear", 3, x)
    np.testing.assert_allclose(lin, 1 - np.abs(np.subtract.outer(x, x)) / 3, rtol=0, atol=1e-15)
    quad = agreement_weights("Fleiss-Cohen", 3, x)
    np.testing.assert_allclose(quad, 1 - np.subtract.outer(x, x) ** 2 / 9, rtol=0, atol=1e-15)
    assert weight_name("Cicchetti-Allison") == "linear"
    assert weight_name("squared") == "quadratic"
    assert weight_name(np.eye(2)) == "custom"


def test_tolerance_is_one_rule_for_percent_agreement_and_error_rates():
    # Scores 0.1, 0.2, 0.3: |0.3 - 0.2| is 0.09999999999999998 in floating point and
    # |0.2 - 0.1| is 0.1; with tolerance 0.1 both pairs agree, in both functions.
    a = [0.1, 0.2, 0.3, 0.3]
    b = [0.2, 0.3, 0.3, 0.1]
    ag = irr.Agreement(a, b)
    assert ag.percent_agreement(tolerance=0.1).estimate == 0.75
    assert ag.error_rate_test(0.5, tolerance=0.1).errors == 1
    within = tolerance_agreement(0.1, 3, np.array([0.1, 0.2, 0.3]))
    assert within.tolist() == [[True, True, False], [True, True, True], [False, True, True]]


@pytest.mark.parametrize(
    ("tolerance", "error", "message"),
    [
        (-1, ValueError, r"`tolerance` must be a finite non-negative number; got -1.0"),
        (float("inf"), ValueError, r"`tolerance` must be a finite non-negative number; got inf"),
        ("1", TypeError, r"`tolerance` must be a non-negative number; got '1'"),
        (True, TypeError, r"`tolerance` must be a non-negative number; got True"),
        (1j, TypeError, r"`tolerance` must be a non-negative number; got 1j"),
    ],
)
def test_bad_tolerance(tolerance, error, message):
    with pytest.raises(error, match=message):
        tolerance_agreement(tolerance, 3, np.arange(3.0))


@pytest.mark.parametrize("scheme", ["linear", "quadratic", "ordinal", "radical", "ratio",
                                    "circular", "bipolar", "power:3", "circular:0.5",
                                    "circular:180"])
def test_agreement_weights_are_the_callers_own_array_on_every_call(scheme):
    """Remembered scales give each call its own writable matrix, equal to a fresh build:
    changing one returned matrix changes neither the next call's nor a later scale's."""
    from irr import weights as weights_module

    x = np.array([1.0, 2.0, 4.0, 7.0])
    first = agreement_weights(scheme, 4, x)
    weights_module._SCHEMES.clear()
    fresh = agreement_weights(scheme, 4, x)
    np.testing.assert_array_equal(first, fresh)
    first[0, 1] = 99.0
    second = agreement_weights(scheme, 4, x)
    assert second.flags.writeable
    assert second is not first
    np.testing.assert_array_equal(second, fresh)
    other = agreement_weights(scheme, 4, np.array([1.0, 2.0, 3.0, 9.0]))  # other scores
    np.testing.assert_array_equal(other, weights_module._scheme_weights(
        weight_name(scheme), 4, np.array([1.0, 2.0, 3.0, 9.0])))
    if scheme not in ("ordinal", "circular:0.5"):  # these depend on more than the ranks
        assert not np.array_equal(other, fresh)
