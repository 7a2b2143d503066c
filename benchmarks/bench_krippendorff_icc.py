"""Benchmark: Krippendorff's alpha vs the `krippendorff` package, ICC vs pingouin.

Run by hand (not a test)::

    PYTHONPATH=. python benchmarks/bench_krippendorff_icc.py [--repeats 5]

Prints a markdown table of median wall times, the ratio to the peer, and the peak memory
traced by ``tracemalloc`` (numpy allocations included). Cases:

* Krippendorff's alpha, nominal, 10^5 units x 5 coders on a 1..5 scale, 10% missing;
  ours is ``irr.krippendorff_alpha(data, layout="raters-units")`` from the same raters x
  units array.
* Krippendorff's alpha, interval, 10^4 units x 5 coders on a 0..100 scale, 10% missing.
* ICC(2,1), 10^5 subjects x 5 raters. pingouin's ``intraclass_corr`` gets the long frame
  (subject, rater, rating) and computes all six forms (it has no option for one).
  ``Agreement.from_long`` is not on main yet, so ours starts from the wide frame:
  ``irr.icc(wide)`` on real-valued ratings, and ``Agreement.from_frame(wide).icc()`` on
  the ratings rounded to integers 0..100 (Agreement codes ratings as categories, at most
  10^4 distinct values). A third row adds the pandas ``pivot`` from long to wide to ours.
"""

from __future__ import annotations

import argparse
import platform
import statistics
import time
import tracemalloc
import warnings

import numpy as np
import pandas as pd

import irr


def median_time(fn, repeats: int) -> float:
    times = []
    for _ in range(repeats):
        tic = time.perf_counter()
        fn()
        times.append(time.perf_counter() - tic)
    return statistics.median(times)


def peak_mib(fn) -> float:
    tracemalloc.start()
    fn()
    peak = tracemalloc.get_traced_memory()[1]
    tracemalloc.stop()
    return peak / 2**20


def coded(units: int, coders: int, values: int, rng: np.random.Generator) -> np.ndarray:
    """Raters x units: a latent value per unit plus coder noise, 10% missing."""
    truth = rng.integers(0, values, size=units)
    noise = rng.integers(-values // 10 - 1, values // 10 + 2, size=(coders, units))
    data = np.clip(truth + noise, 0, values - 1).astype(float)
    data[rng.random(data.shape) < 0.1] = np.nan
    return data


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeats", type=int, default=5, help="timed repeats (median)")
    args = parser.parse_args()
    import krippendorff
    import pingouin

    rng = np.random.default_rng(0)
    rows = []

    def case(name, ours, peer, peer_name, check):
        ours_value, peer_value = check()
        t_ours = median_time(ours, args.repeats)
        t_peer = median_time(peer, max(1, args.repeats // 2))
        rows.append((name, t_ours, t_peer, peer_name, peak_mib(ours), peak_mib(peer),
                     abs(ours_value - peer_value)))

    # Krippendorff, nominal, 1e5 x 5
    small = coded(100_000, 5, 5, rng) + 1
    case(
        "alpha nominal, 1e5 units x 5 coders, 5 values",
        lambda: irr.krippendorff_alpha(small, "nominal", layout="raters-units"),
        lambda: krippendorff.alpha(reliability_data=small, level_of_measurement="nominal"),
        "krippendorff",
        lambda: (irr.krippendorff_alpha(small, "nominal", layout="raters-units").estimate,
                 krippendorff.alpha(reliability_data=small, level_of_measurement="nominal")),
    )
    # Krippendorff, 0..100 scale, 1e4 x 5
    wide = coded(10_000, 5, 101, rng)
    for level in ("interval", "ordinal"):
        case(
            f"alpha {level}, 1e4 units x 5 coders, 0..100 scale",
            lambda level=level: irr.krippendorff_alpha(wide, level, layout="raters-units"),
            lambda level=level: krippendorff.alpha(reliability_data=wide,
                                                   level_of_measurement=level),
            "krippendorff",
            lambda level=level: (
                irr.krippendorff_alpha(wide, level, layout="raters-units").estimate,
                krippendorff.alpha(reliability_data=wide, level_of_measurement=level),
            ),
        )

    # ICC, 1e5 x 5, long format
    n, k = 100_000, 5
    x = rng.normal(size=(n, 1)) * 2 + rng.normal(size=(n, k)) + rng.normal(size=k)
    long = pd.DataFrame({
        "subject": np.repeat(np.arange(n), k),
        "rater": np.tile([f"r{j}" for j in range(k)], n),
        "rating": x.ravel(),
    })
    integral = long.assign(rating=np.clip(np.round(long["rating"] * 10 + 50), 0, 100))

    wide_real = long.pivot(index="subject", columns="rater", values="rating")
    wide_integral = integral.pivot(index="subject", columns="rater", values="rating")

    def ours_array():
        return irr.icc(wide_real, "twoway", "agreement", "single")

    def ours_agreement():
        return irr.Agreement.from_frame(wide_integral).icc("twoway", "agreement", "single")

    def ours_pivot():
        frame = long.pivot(index="subject", columns="rater", values="rating")
        return irr.icc(frame, "twoway", "agreement", "single")

    def peer(frame=long):
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            return pingouin.intraclass_corr(frame, targets="subject", raters="rater",
                                            ratings="rating")

    def peer_value(frame):
        return float(peer(frame).set_index("Type").loc["ICC(A,1)", "ICC"])

    real_value = peer_value(long)
    case("ICC(2,1), 1e5 x 5: irr.icc(wide frame)", ours_array, peer, "pingouin (long)",
         lambda: (ours_array().estimate, real_value))
    case("ICC(2,1), 1e5 x 5, 0..100: Agreement.from_frame(wide) + icc()", ours_agreement,
         lambda: peer(integral), "pingouin (long)",
         lambda: (ours_agreement().estimate, peer_value(integral)))
    case("ICC(2,1), 1e5 x 5: DataFrame.pivot(long) + irr.icc", ours_pivot, peer,
         "pingouin (long)", lambda: (ours_pivot().estimate, real_value))

    print(f"Python {platform.python_version()}, numpy {np.__version__}, "
          f"pingouin {pingouin.__version__}, {platform.machine()}; median of "
          f"{args.repeats} runs (peer: {max(1, args.repeats // 2)}).\n")
    print("| case | irr (s) | peer | peer (s) | speed-up | irr peak MiB | peer peak MiB "
          "| abs diff |")
    print("|---|---:|---|---:|---:|---:|---:|---:|")
    for name, t_ours, t_peer, peer_name, m_ours, m_peer, diff in rows:
        print(f"| {name} | {t_ours:.4f} | {peer_name} | {t_peer:.4f} | "
              f"{t_peer / t_ours:.1f}x | {m_ours:.1f} | {m_peer:.1f} | {diff:.1e} |")


if __name__ == "__main__":
    main()
