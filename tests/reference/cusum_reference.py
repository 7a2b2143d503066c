"""Passing & Bablok's (1983) cusum linearity test written out from the paper's steps,
one point at a time, for ``tests/reference/test_method_regression_published.py``.

Passing, H. & Bablok, W. (1983). J Clin Chem Clin Biochem 21:709-720, Appendix,
section 4. The paper itself was not readable here; the rule is as quoted in the source
comments of R SimplyAgree's pb_reg ("P(max|cusum(i)| < h_gamma sqrt(L+1)) = 1 -
gamma") and as applied to R mcr's calcCUSUM output (max.cusum / sqrt(nNeg + 1)) by
its users. l points lie above the fitted line y = a + b x, L below; each point
scores r_i = sqrt(L / l) above, -sqrt(l / L) below, 0 on the line; the scores are
summed in the order of D_i = (y_i + x_i / b - a) / sqrt(1 + 1 / b^2), the position of
the point's projection on the line; linearity is rejected at level gamma when
max_i |cusum_i| > h_gamma * sqrt(L + 1), with the Kolmogorov-Smirnov critical values
h_0.05 = 1.36 and h_0.01 = 1.63.

Run ``python tests/reference/cusum_reference.py`` for an example.
"""

from __future__ import annotations

import math

H_GAMMA = {0.05: 1.36, 0.01: 1.63}


def cusum_by_steps(x, y, a: float, b: float) -> tuple[float, int, list[float]]:
    """(max |cusum| / sqrt(L + 1), L, the cusums) by plain Python loops."""
    points = list(zip(x, y, strict=True))
    above = sum(1 for xi, yi in points if yi > a + b * xi)
    below = sum(1 for xi, yi in points if yi < a + b * xi)
    scored = []
    for xi, yi in points:
        fitted = a + b * xi
        r = math.sqrt(below / above) if yi > fitted else (
            -math.sqrt(above / below) if yi < fitted else 0.0)
        d = (yi + xi / b - a) / math.sqrt(1 + 1 / b**2)
        scored.append((d, xi, r))
    scored.sort(key=lambda t: (t[0], t[1]))
    total, sums = 0.0, []
    for _, _, r in scored:
        total += r
        sums.append(total)
    return max(abs(s) for s in sums) / math.sqrt(below + 1), below, sums


def rejects(x, y, a: float, b: float, gamma: float = 0.05) -> bool:
    """The paper's decision: max |cusum| > h_gamma sqrt(L + 1)."""
    statistic, _, _ = cusum_by_steps(x, y, a, b)
    return statistic > H_GAMMA[gamma]


if __name__ == "__main__":
    xs = [float(i) for i in range(1, 21)]
    ys = [v + 0.05 * (v - 10.5) ** 2 for v in xs]
    print(cusum_by_steps(xs, ys, 1.5, 1.0)[:2], rejects(xs, ys, 1.5, 1.0))
