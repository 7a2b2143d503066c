"""Coverage of alpha's large-sample default interval (Wald on Gwet's linearised SE).

Run by hand (not a test)::

    python benchmarks/coverage_alpha.py            # the numbers in docs/guide/inference.md
    python benchmarks/coverage_alpha.py --quick    # fewer replications

``krippendorff_alpha``'s default ``ci='auto'`` is the percentile bootstrap (9,999
resamples) up to :data:`irr.estimators.krippendorff.AUTO_BOOTSTRAP_UNITS` pairable units
and, above, the Wald interval ``alpha +- 1.96 SE`` on Gwet's linearised SE (clipped at 1).
This script checks that switch: the coverage of the Wald interval just above the
threshold (100 units above, so that every design has more pairable units than
the threshold, and at 4x it), on three designs.

Designs (one replication draws n units; the true alpha is the alpha of 2 x 10^6 units of
the same design, whose Monte Carlo error is below 0.001):

* ``interval-3``: a 0..100 scale, 3 raters; a unit's true score ~ N(50, 15), each rating
  that plus N(0, 10), rounded and clipped to 0..100 (alpha about .67).
* ``nominal-4-missing``: 5 categories with unequal prevalences (.4, .25, .15, .12, .08),
  4 raters, each rating the unit's category with probability .6 and a uniform draw
  otherwise, 20% of ratings missing at random (alpha about .5).
* ``interval-2-skewed``: 2 raters on a 0..100 scale, true score 100 x Beta(0.7, 3)
  (skewed), ratings that plus N(0, 3), rounded and clipped (alpha about .97, near its
  bound).

Coverage is the share of replications whose interval contains the true alpha. Monte Carlo
SE near .95 is sqrt(.95 x .05 / R): .0069 at R = 1000. Seeds are fixed, so the output is
the same on every run.
"""

from __future__ import annotations

import argparse
import functools
import sys
import time
import warnings
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

import irr
from irr.estimators.krippendorff import AUTO_BOOTSTRAP_UNITS

PREVALENCE = np.array([0.4, 0.25, 0.15, 0.12, 0.08])


def interval_3(rng: np.random.Generator, n: int) -> np.ndarray:
    truth = rng.normal(50, 15, (n, 1))
    return np.clip(np.round(truth + rng.normal(0, 10, (n, 3))), 0, 100)


def nominal_4_missing(rng: np.random.Generator, n: int) -> np.ndarray:
    truth = rng.choice(5, size=(n, 1), p=PREVALENCE)
    other = rng.integers(0, 5, (n, 4))
    x = np.where(rng.random((n, 4)) < 0.6, truth, other).astype(float)
    x[rng.random((n, 4)) < 0.2] = np.nan
    return x


def interval_2_skewed(rng: np.random.Generator, n: int) -> np.ndarray:
    truth = 100 * rng.beta(0.7, 3, (n, 1))
    return np.clip(np.round(truth + rng.normal(0, 3, (n, 2))), 0, 100)


DESIGNS = {
    "interval-3": (interval_3, "interval"),
    "nominal-4-missing": (nominal_4_missing, "nominal"),
    "interval-2-skewed": (interval_2_skewed, "interval"),
}


@functools.cache
def true_alpha(name: str) -> float:
    make, level = DESIGNS[name]
    x = make(np.random.default_rng(12345), 2_000_000)
    return irr.krippendorff_alpha(x, level, ci=None).estimate


def coverage(name: str, n: int, replications: int, seed: int = 2024) -> tuple[float, float]:
    """Coverage of the default interval at n units and the median width."""
    make, level = DESIGNS[name]
    truth = true_alpha(name)
    rng = np.random.default_rng([seed, n])
    hits, widths = 0, []
    for _ in range(replications):  # one replication per call of the estimator
        res = irr.krippendorff_alpha(make(rng, n), level)  # the default interval
        assert res.ci.method == "wald", res.ci.method  # above the threshold
        lower, upper = res.ci
        hits += lower <= truth <= upper
        widths.append(upper - lower)
    return hits / replications, float(np.median(widths))


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true")
    parser.add_argument("--design", choices=list(DESIGNS), action="append",
                        help="only these designs (default: all three)")
    args = parser.parse_args(argv)
    reps = 200 if args.quick else 1000
    warnings.simplefilter("ignore")
    print(f"Wald interval (Gwet's linearised SE) of the default krippendorff_alpha, 95%, "
          f"{reps} replications per cell (Monte Carlo SE about "
          f"{np.sqrt(.95 * .05 / reps):.4f})")
    print(f"{'design':<20} {'true alpha':>10} {'n':>7} {'coverage':>9} {'median width':>13}")
    for name in args.design or DESIGNS:
        for n in (AUTO_BOOTSTRAP_UNITS + 100, 4 * AUTO_BOOTSTRAP_UNITS):
            start = time.perf_counter()
            cov, width = coverage(name, n, reps)
            print(f"{name:<20} {true_alpha(name):>10.4f} {n:>7} {cov:>9.3f} {width:>13.4f}"
                  f"   ({time.perf_counter() - start:.0f} s)", flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
