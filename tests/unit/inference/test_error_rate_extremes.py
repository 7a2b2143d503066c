"""The critical error rate and the exact binomial test of an error rate at the extremes: tiny
alpha (1e-300) and p-values, huge n, in bounded CPU time; counts exact.

Reference values: exact rational arithmetic in ``tests/reference/binomial_tails_exact.py``,
recomputed here where cheap."""

from __future__ import annotations

import math
import time
from fractions import Fraction

import pytest

import irr
from tests.reference.binomial_tails_exact import (
    lower_critical,
    tail_above,
    tail_at_most,
    upper_critical,
)


# ---------------------------------------------------------------------------------------
# critical error rate and the binomial test at tiny alpha, and in bounded time
# ---------------------------------------------------------------------------------------
def test_critical_count_at_alpha_1e_300_is_exact():
    # exact: smallest c with P(X > c) < 1e-300 by integer sums (tests/reference/binomial_tails_exact.py);
    # scipy's tail underflows to 0 near 1e-284, which gave 161
    assert upper_critical(200, 0.01, 1e-300) == 168
    crit = irr.critical_error_rate(200, 0.01, 1e-300)
    assert crit.critical_count == 168
    assert tail_above(200, 0.01, 168) < Fraction(1e-300) <= tail_above(200, 0.01, 167)
    assert crit.size == pytest.approx(float(tail_above(200, 0.01, 168)), rel=1e-9)


def test_lower_critical_count_at_alpha_1e_300_is_exact():
    # the mirror: largest c with P(X <= c) < 1e-300 for eps0 = 0.99, by integer sums
    assert lower_critical(200, 0.99, 1e-300) == 31
    assert irr.critical_error_rate(200, 0.99, 1e-300, "less").critical_count == 31


def test_tiny_pvalue_is_not_zero():
    # exact P(X >= 162 | n = 200, eps0 = 0.01) = 8.3894261280837e-284 (integer sum): above
    # alpha = 1e-300, so H0 is not rejected; the float tail said p = 0 and rejected
    exact = float(tail_above(200, 0.01, 161))
    res = irr.error_rate_test(162, 200, 0.01, 1e-300)
    assert not res.reject
    assert res.pvalue == pytest.approx(exact, rel=1e-10)
    # 'less' mirrors it: P(X <= 38 | eps0 = 0.99) is the same sum
    res = irr.error_rate_test(38, 200, 0.99, 1e-300, alternative="less")
    assert res.pvalue == pytest.approx(float(tail_at_most(200, 0.99, 38)), rel=1e-10)


def test_log_tails_match_exact_sums():
    from irr.inference.error_rate import log_cdf, log_sf

    # ln P(X > 167) and ln P(X <= 0) from exact fractions (tests/reference/binomial_tails_exact.py)
    assert float(log_sf(167, 200, 0.01)) == pytest.approx(-688.6216250378072, rel=1e-12)
    assert float(log_cdf(0, 200, 0.99)) == pytest.approx(-921.0340371976183, rel=1e-12)
    # the ends are exact: P(X > -1) = 1, P(X > n) = 0
    assert log_sf([-1, 200], 200, 0.3).tolist() == [0.0, -math.inf]


@pytest.mark.parametrize("n", [50, 200, 400])
@pytest.mark.parametrize("eps0", [0.001, 0.3, 0.9])
@pytest.mark.parametrize("alpha", [1e-200, 1e-280, 1e-305])
def test_tiny_alpha_counts_exact(n, eps0, alpha):
    # every count checked against the exact integer-sum definition
    assert irr.critical_error_rate(n, eps0, alpha).critical_count == upper_critical(n, eps0, alpha)
    assert irr.critical_error_rate(n, eps0, alpha, "less").critical_count == \
        lower_critical(n, eps0, alpha)


def test_huge_n_is_answered_in_bounded_time():
    # n = 2**53 used to step the critical count one at a time (hours); bisection takes
    # at most 54 steps. The mean is 2**52 and 12345 errors are far below it: p = 1.
    start = time.process_time()
    res = irr.error_rate_test(12345, 2**53, 0.5)
    crit = irr.critical_error_rate(2**53, 0.5, 1e-300, "two-sided")
    assert time.process_time() - start < 20
    assert res.pvalue == 1.0
    assert not res.reject
    # the critical count lies above the mean (2**52) by about 37 sd (sd = 2**25.5 ~ 4.7e7)
    low, high = crit.critical_count
    sd = math.sqrt(2**53 * 0.25)
    assert 36 < (high - 2**52) / sd < 38
    assert 36 < (2**52 - low) / sd < 38
