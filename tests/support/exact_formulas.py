"""Reference formulas in exact rational arithmetic, shared by the tests.

Each is written from the published definition, independently of the package's code.
"""

from fractions import Fraction


def exact_kappa(table):
    """Cohen's (1960) kappa of a k x k table of counts."""
    t = [[Fraction(int(x)) for x in row] for row in table]
    n = sum(map(sum, t))
    k = len(t)
    po = sum(t[i][i] for i in range(k)) / n
    pe = sum(sum(t[i]) * sum(t[j][i] for j in range(k)) for i in range(k)) / n / n
    return (po - pe) / (1 - pe)
