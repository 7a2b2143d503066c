"""Independent implementations for the method-comparison regression tests.

- Passing–Bablok by an explicit double loop over the pairs, sorting the slopes in
  Python (Passing & Bablok 1983, section 3), for small n.
- Deming with lambda = 1 as orthogonal regression: the first principal axis of the
  centred (x, y) cloud from numpy.linalg.svd.
- The jackknife SE by a direct leave-one-out loop refitting on n - 1 points.

Data with published results:
- CREATININE: serum (x) and plasma (y) creatinine in mg/dL of 110 heart-surgery patients
  (two plasma values missing), the `creatinine` data of the R package mcr, as printed in
  Wicklin (2022), "Passing-Bablok regression in SAS", The DO Loop blog, SAS program,
  with mcr's output (PaBa, analytical CI): slope 1.0880089 [1.0000000, 1.173005],
  intercept -0.1171729 [-0.2001149, -0.020000].
- BLOODTEST: 65 hypothetical lab test (x, ug/dL) and device (y, kOhm) pairs of Wicklin
  (2019), "Deming regression for comparing different measurement methods", The DO Loop
  blog: Deming with delta = var(y error) / var(x error) set to Sxx / Syy gives
  intercept -10.56415 and slope 0.354463.
"""

from __future__ import annotations

import math
import statistics

import numpy as np

CREATININE = """0.82 0.79  1.83 1.62  1.39 1.36  0.81 1.3   1.72 1.88
3.23 3.35  1.23 1.06  1.37 1.34  1.72 1.56  0.96 0.94
0.76 0.69  1.15 1.16  0.95 0.71  1 0.83     1.52 1.44
1.56 1.26  2.45 2.36  1.85 1.9   0.89 0.95  0.82 0.77
1.01 0.82  0.96 0.88  3.38 3.42  1.31 1.15  1.1 0.96
1.26 1.12  1.15 1.02  1.2 1.29   1.01 0.87  1.33 1.13
0.87 0.82  1.66 1.33  1.41 1.14  1.08 0.93  1.17 1.09
0.82 .     1.77 1.89  1.33 1.57  1.23 1.29  1.21 1.13
1.2 1.11   1.49 1.61  0.89 0.79  1.09 1.19  1.03 0.96
1.07 1.25  0.89 0.87  1.39 1.36  0.96 0.86  1.06 1.03
1.17 0.86  0.9 0.8    1.39 1.22  0.91 0.86  2.28 2.25
0.9 0.87   0.83 .     1.34 1.3   1.32 1.04  1.02 0.92
1.04 1.01  1.27 1.21  1.08 1.11  1.1 1.21   1.39 1.54
1.07 0.99  0.79 0.79  1.02 1.06  0.94 1.02  1.99 2.15
0.7 0.56   0.84 1.01  0.66 0.59  1.1 1.17   0.9 0.82
2.06 2.09  1.31 1.44  1.03 1.22  1.61 1.77  1.52 1.6
1.11 1.13  0.85 1.06  1.2 1.38   1.09 1.24  1.27 1.29
2.06 2.08  1.21 1.31  0.77 0.82  1.06 1.28  1.02 1.15
1 1.04     1.47 1.51  0.97 1.13  1.7 1.84   1.78 1.94
0.93 1.32  0.92 1.36  1.59 1.88  0.68 0.73  0.7 0.78
1.08 1.01  0.83 0.9   1.17 1.3   0.98 0.96  0.77 0.61
0.91 1.27  1.1 1.05   0.8 1.12   0.85 0.72  0.82 0.87"""

BLOODTEST = """169.0 45.5 130.8 33.4 109.0 23.8 94.1 19.8 86.3 20.4 78.4 18.7
 76.1 16.1  72.2 16.7  70.0 11.9 69.8 14.6 69.5 10.6 68.7 12.7 67.3 16.9
174.7 57.8 137.9 39.0 114.6 30.4 99.8 21.1 90.1 21.7 85.1 25.2
 80.7 20.6 78.1 19.3  77.8 20.9  76.0 18.2 77.8 18.3 74.2 15.7 73.1 13.9
182.5 55.5 144.0 38.7 123.8 35.1 107.6 30.6 96.9 25.7 92.8 19.2
 87.2 22.4  86.3 18.4  84.4 20.7  83.7 20.6 83.3 20.0 83.9 18.8 82.7 21.8
160.8 49.9 122.7 32.2 102.6 19.2 86.6 14.7 76.1 16.6 69.6 18.8
 66.7  7.4  64.4  8.2  63.0 15.5 61.7 13.7 61.2 9.2 62.4 12.0 58.4 15.2
171.3 48.7 136.3 36.1 111.9 28.6 96.5 21.8 90.3 25.6 82.9 16.8
 78.1 14.1  76.5 14.2  73.5 11.9 74.4 17.7 73.9 17.6 71.9 10.2 72.0 15.6"""


def pairs(text: str) -> tuple[np.ndarray, np.ndarray]:
    """x and y columns of whitespace-separated pairs ('.' is missing: nan)."""
    values = [math.nan if t == "." else float(t) for t in text.split()]
    arr = np.array(values).reshape(-1, 2)
    return arr[:, 0], arr[:, 1]


def brute_passing_bablok(x, y, z=1.959963984540054):
    """Slope, its limits and intercept by explicit loops (Passing & Bablok 1983)."""
    n = len(x)
    slopes = []
    for i in range(n):
        for j in range(n):
            if not (x[i], y[i]) < (x[j], y[j]):  # each pair once, ordered by (x, y)
                continue
            dx, dy = x[j] - x[i], y[j] - y[i]
            if dx == 0 and dy == 0:
                continue
            if dx == 0:
                slopes.append(math.inf)
            elif dy == -dx:
                continue
            else:
                slopes.append(dy / dx)
    slopes.sort()
    big_n = len(slopes)
    k = sum(1 for s in slopes if s < -1)
    if big_n % 2:
        b = slopes[(big_n + 1) // 2 + k - 1]
    else:
        b = (slopes[big_n // 2 + k - 1] + slopes[big_n // 2 + k]) / 2
    c = z * math.sqrt(n * (n - 1) * (2 * n + 5) / 18)
    m1 = math.floor((big_n - c) / 2 + 0.5)
    m2 = big_n - m1 + 1
    low = slopes[m1 + k - 1] if 1 <= m1 + k <= big_n else math.nan
    high = slopes[m2 + k - 1] if 1 <= m2 + k <= big_n else math.nan
    a = statistics.median([y[i] - b * x[i] for i in range(n)])
    return b, low, high, a


def orthogonal_svd(x, y):
    """Slope and intercept of the first principal axis (total least squares)."""
    centred = np.column_stack([x - x.mean(), y - y.mean()])
    _, _, vt = np.linalg.svd(centred, full_matrices=False)
    dx, dy = vt[0]
    slope = dy / dx
    return slope, y.mean() - slope * x.mean()


def deming_direct(x, y, lam):
    """Deming slope and intercept from the sample covariance matrix (lam: var(err x)/var(err y))."""
    s = np.cov(x, y)
    sxx, syy, sxy = s[0, 0], s[1, 1], s[0, 1]
    delta = 1 / lam  # Wikipedia's convention
    slope = (syy - delta * sxx + math.sqrt((syy - delta * sxx) ** 2 + 4 * delta * sxy**2)) / (
        2 * sxy)
    return slope, y.mean() - slope * x.mean()


def jackknife_loop(x, y, lam):
    """Jackknife SEs of slope and intercept by refitting with each point left out."""
    n = len(x)
    fits = np.array([deming_direct(np.delete(x, i), np.delete(y, i), lam) for i in range(n)])
    return np.sqrt((n - 1) / n * ((fits - fits.mean(axis=0)) ** 2).sum(axis=0))
