"""The default ``irr.krippendorff_alpha(X, "interval")`` with its interval, on a 0..100
scale (3 raters, a latent score plus noise: nearly every unit a distinct pattern), at
10^3 / 10^4 / 10^5 units.

    python benchmarks/bench_alpha_interval.py [--quick]

Goal (absolute): the default call with its interval in <= 1 s at 10^5 units. The floor
is a few numpy lines doing alpha's arithmetic for the interval metric without an interval
(per-unit sums of values and of squares, D_o and D_e); the ratio says what the default
interval and the package's bookkeeping add. Up to 1,000 pairable units the default
interval is the percentile bootstrap (9,999 resamples), above it Wald on Gwet's
linearised SE (``benchmarks/coverage_alpha.py``).
"""

from __future__ import annotations

import sys
import warnings

import numpy as np
from _timing import interleaved


def data(n: int, seed: int = 0) -> np.ndarray:
    rng = np.random.default_rng(seed)
    truth = rng.normal(50, 15, (n, 1))
    return np.clip(np.round(truth + rng.normal(0, 10, (n, 3))), 0, 100)


def numpy_alpha(x: np.ndarray) -> float:
    """Interval alpha of complete units from per-unit sums (Krippendorff 2011)."""
    m = x.shape[1]
    s1, s2 = x.sum(axis=1), (x * x).sum(axis=1)
    within = (m * s2 - s1 * s1) * 2 / (m - 1)  # sum over ordered pairs of (a - b)^2 / (m - 1)
    n_values = x.size
    d_o = within.sum() / n_values
    total, squares = s1.sum(), s2.sum()
    d_e = 2 * (n_values * squares - total * total) / (n_values * (n_values - 1))
    return 1 - d_o / d_e


def rows(quick: bool = False, rounds: int = 3) -> list[dict]:
    import irr

    out = []
    for n in (1_000, 10_000) if quick else (1_000, 10_000, 100_000):
        x = data(n)

        def ours(x=x):
            with warnings.catch_warnings():
                warnings.simplefilter("ignore")
                return irr.krippendorff_alpha(x, "interval").ci

        ours()
        t_ours, t_ref, ratio = interleaved(ours, lambda x=x: numpy_alpha(x), rounds)
        out.append({
            "row": "`krippendorff_alpha(X, \"interval\")` default call with its interval, "
                   "0..100 scale",
            "size": f"{n:,} x 3", "ours_s": t_ours, "ref_s": t_ref,
            "ref": "numpy: interval alpha from per-unit sums, no interval",
            "ratio": ratio, "goal": "<= 1 s at 10^5 units",
            "ok": t_ours <= 1.0 if n == 100_000 else True,
            "ours_mb": None, "ref_mb": None,
        })
    return out


if __name__ == "__main__":
    for r in rows(quick="--quick" in sys.argv):
        print(f"{r['size']:>12}  ours {r['ours_s']:.3f} s  numpy {r['ref_s']:.4f} s  "
              f"ratio {r['ratio']:.1f}x  ok={r['ok']}")
