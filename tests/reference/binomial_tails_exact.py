"""Reference values for tests/unit/estimators/test_numerical_extremes.py, by exact rational arithmetic.

Run ``python tests/reference/binomial_tails_exact.py`` to print them. Binomial tails are
sums of exact integers (``epsilon0`` and ``alpha`` taken at their exact binary values,
as floats are), so the numbers printed are exact up to the final rounding to float.
The test file recomputes the small ones itself; this script is the record of how every
literal there was obtained.
"""

from __future__ import annotations

import math
from fractions import Fraction


def tail_above(n: int, epsilon0: float, c: int) -> Fraction:
    """P(X > c), X ~ Binomial(n, epsilon0), exactly."""
    eps = Fraction(epsilon0)
    a, d = eps.numerator, eps.denominator
    total = sum(math.comb(n, i) * a**i * (d - a) ** (n - i) for i in range(c + 1, n + 1))
    return Fraction(total, d**n)


def tail_at_most(n: int, epsilon0: float, c: int) -> Fraction:
    """P(X <= c), exactly."""
    return 1 - tail_above(n, epsilon0, c)


def _weights(n: int, epsilon0: float) -> tuple[list[int], int]:
    """The integer weights C(n, i) a^i (d - a)^(n - i) and their total d^n."""
    eps = Fraction(epsilon0)
    a, d = eps.numerator, eps.denominator
    return [math.comb(n, i) * a**i * (d - a) ** (n - i) for i in range(n + 1)], d**n


def upper_critical(n: int, epsilon0: float, alpha: float) -> int:
    """Smallest c with P(X > c) < alpha (the corrected eq. 2.27)."""
    weights, total = _weights(n, epsilon0)
    a = Fraction(alpha)
    above = 0  # sum of weights above c, built from the top down
    c = n
    while c > 0 and Fraction(above + weights[c], total) < a:
        above += weights[c]
        c -= 1
    return c


def lower_critical(n: int, epsilon0: float, alpha: float) -> int:
    """Largest c with P(X <= c) < alpha (-1 when none)."""
    weights, total = _weights(n, epsilon0)
    a = Fraction(alpha)
    below = 0
    c = -1
    while c < n and Fraction(below + weights[c + 1], total) < a:
        below += weights[c + 1]
        c += 1
    return c


def log10(x: Fraction) -> float:
    """log10 of a positive fraction far below the float range, to about 15 digits."""
    return (math.log10(x.numerator) - math.log10(x.denominator))


if __name__ == "__main__":
    print("upper critical count n=200 eps0=0.01 alpha=1e-300:", upper_critical(200, 0.01, 1e-300))
    print("lower critical count n=200 eps0=0.99 alpha=1e-300:", lower_critical(200, 0.99, 1e-300))
    p = tail_above(200, 0.01, 161)  # P(X >= 162)
    print("P(X >= 162), n=200, eps0=0.01:", float(p))
    print("ln P(X > 167), n=200, eps0=0.01:", log10(tail_above(200, 0.01, 167)) * math.log(10))
    print("ln P(X <= 0), n=200, eps0=0.99:", log10(tail_at_most(200, 0.99, 0)) * math.log(10))
