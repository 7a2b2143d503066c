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


def exact_icc_a_k(x):
    """ICC(A,k) = (MSR - MSE) / (MSR + (MSC - MSE) / n) in exact Fractions (McGraw & Wong)."""
    n, k = len(x), len(x[0])
    x = [[Fraction(int(v)) for v in row] for row in x]
    grand = sum(map(sum, x)) / (n * k)
    rows = [sum(r) / k for r in x]
    cols = [sum(x[i][j] for i in range(n)) / n for j in range(k)]
    msr = k * sum((r - grand) ** 2 for r in rows) / (n - 1)
    msc = n * sum((c - grand) ** 2 for c in cols) / (k - 1)
    mse = sum((x[i][j] - rows[i] - cols[j] + grand) ** 2
              for i in range(n) for j in range(k)) / ((n - 1) * (k - 1))
    return (msr - mse) / (msr + (msc - mse) / n)
