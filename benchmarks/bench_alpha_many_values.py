"""Krippendorff's alpha's default call and ``irr report`` on many
values.

Run by hand (not a test)::

    PYTHONPATH=. python benchmarks/bench_alpha_many_values.py [--quick]

* Row 5: ``irr.krippendorff_alpha(df)``, the default call (nominal metric, a percentile
  interval from 9999 bootstrap resamples of units, seed 0), on a 0..100 integer scale
  with 10^4 / 3x10^4 / 10^5 units x 5 raters (a latent value per unit plus noise of
  +-11, 10% missing, so nearly every unit is a distinct pattern). The goal is absolute
  (< 1 s at 10^5 units); the floor printed beside it is what any bootstrap of this seed
  must do: draw 9999 x n uniform doubles and turn them into unit indices (``rng.random``,
  ``floor(u * n)``), with no statistic.
* Row 11: ``irr report FILE`` in-process (``irr.cli.main``) on a 10^4 x 5 CSV of the same
  data (ICC(A,1) and interval alpha with its 9999-resample interval), and with
  ``--statistics all`` (every ICC form, Kendall's W ...). The goal is absolute (< 3 s);
  the floor is ``pandas.read_csv`` of the file.

Times are medians of interleaved rounds (ours, floor, ours, floor ...); memory is the
``tracemalloc`` peak (numpy allocations included) of one further call.
"""

from __future__ import annotations

import argparse
import contextlib
import io
import os
import tempfile
import warnings

import numpy as np
import pandas as pd
from _timing import interleaved, peak_mb


def _data(n: int, seed: int = 0) -> pd.DataFrame:
    rng = np.random.default_rng(seed)
    truth = rng.integers(0, 101, size=n)
    noise = rng.integers(-11, 12, size=(n, 5))
    x = np.clip(truth[:, None] + noise, 0, 100).astype(float)
    x[rng.random(x.shape) < 0.1] = np.nan
    return pd.DataFrame(x, columns=[f"r{j + 1}" for j in range(5)])


def _index_floor(n: int, n_resamples: int = 9999) -> None:
    """The seed's draws alone: uniform doubles -> unit indices, in batches of ~4 MiB
    (the size that stays in cache on this machine kind)."""
    batch = max(1, 4 * 2**20 // (8 * n))
    rng = np.random.default_rng(0)
    for start in range(0, n_resamples, batch):
        u = rng.random((min(batch, n_resamples - start), n))
        u *= n
        u.astype(np.int64)


def _cli(args: list[str]) -> None:
    from irr.cli import main

    with contextlib.redirect_stdout(io.StringIO()), warnings.catch_warnings():
        warnings.simplefilter("ignore")
        code = main(args)
    if code not in (0, None):
        raise RuntimeError(f"irr {' '.join(args)} exited with {code}")


def rows(quick: bool = False, rounds: int = 3) -> list[dict]:
    import irr

    out = []
    sizes = (10_000,) if quick else (10_000, 30_000, 100_000)
    for n in sizes:
        df = _data(n)

        def ours(df=df):
            with warnings.catch_warnings():
                warnings.simplefilter("ignore")
                res = irr.krippendorff_alpha(df)
                return res.ci

        ours()  # warm-up (imports, caches)
        t_ours, t_ref, ratio = interleaved(ours, lambda n=n: _index_floor(n), rounds)
        out.append({
            "row": f"`krippendorff_alpha()` default call on a 0..100 scale, {n:,} units",
            "ours_s": t_ours, "ref_s": t_ref,
            "ref": "floor: the seed's 9999 x n unit indices (rng.random, floor), no statistic",
            "ratio": ratio, "goal": "< 1 s at 10^5 units",
            "ok": t_ours < 1.0,
            "ours_mb": peak_mb(ours) if n == 10_000 else None, "ref_mb": None,
        })
    with tempfile.TemporaryDirectory() as tmp:
        path = os.path.join(tmp, "scores.csv")
        _data(10_000).to_csv(path, index=False)
        for extra, label in (([], ""), (["--statistics", "all"], " --statistics all")):
            def report(extra=extra):
                _cli(["report", path, *extra])

            report()
            t_ours, t_ref, ratio = interleaved(report, lambda: pd.read_csv(path), rounds)
            out.append({
                "row": f"`irr report{label}` on a 10^4 x 5 CSV on a 0..100 scale",
                "ours_s": t_ours, "ref_s": t_ref, "ref": "floor: pandas.read_csv of the file",
                "ratio": ratio, "goal": "< 3 s", "ok": t_ours < 3.0,
                "ours_mb": peak_mb(report), "ref_mb": peak_mb(lambda: pd.read_csv(path)),
            })
    return out


def _show(value) -> str:
    if value is None:
        return "-"
    if isinstance(value, float):
        return f"{value:.3g}"
    return str(value)


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="10^4 units only")
    parser.add_argument("--rounds", type=int, default=3, help="interleaved rounds (median)")
    args = parser.parse_args()
    keys = ["row", "ours_s", "ref_s", "ratio", "goal", "ok", "ours_mb", "ref_mb", "ref"]
    print("| " + " | ".join(keys) + " |")
    print("|" + "---|" * len(keys))
    for r in rows(args.quick, args.rounds):
        print("| " + " | ".join(_show(r[k]) for k in keys) + " |")
