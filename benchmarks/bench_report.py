"""``irr.report(df)`` on 10^4 x 3: k = 5 categories and a 0..100 scale.

    python benchmarks/bench_report.py [--quick]

Goals: the printed report (``str(irr.report(df))``) <= 1.5x the statistics alone (the
same coefficients called on an ``Agreement``, the reference here), and the HTML report
with its figures <= 3 s.
"""

from __future__ import annotations

import sys
import warnings

import numpy as np
import pandas as pd
from _timing import interleaved, seconds


def data(kind: str, n: int = 10_000, seed: int = 0) -> pd.DataFrame:
    rng = np.random.default_rng(seed)
    if kind == "k=5":
        truth = rng.integers(0, 5, (n, 1))
        x = np.where(rng.random((n, 3)) < 0.7, truth, rng.integers(0, 5, (n, 3)))
    else:
        truth = rng.normal(50, 15, (n, 1))
        x = np.clip(np.round(truth + rng.normal(0, 10, (n, 3))), 0, 100)
    return pd.DataFrame(x, columns=["r1", "r2", "r3"])


def rows(quick: bool = False, rounds: int = 3) -> list[dict]:
    import irr

    out = []
    n = 2_000 if quick else 10_000
    for kind in ("k=5", "0..100"):
        df = data(kind, n)

        def printed(df=df):
            with warnings.catch_warnings():
                warnings.simplefilter("ignore")
                return str(irr.report(df))

        def html(df=df):
            with warnings.catch_warnings():
                warnings.simplefilter("ignore")
                return irr.report(df).to_html()

        printed()
        t_ours, t_ref, ratio = interleaved(printed, lambda df=df: _direct(df), rounds)
        out.append({"row": "`irr.report(df)` printed", "case": kind, "size": f"{n:,} x 3",
                    "ours_s": t_ours, "ref_s": t_ref,
                    "ref": "the report's coefficients called on an Agreement",
                    "ratio": ratio, "goal": "<= 1.5x", "ok": ratio <= 1.5,
                    "ours_mb": None, "ref_mb": None})
        t_html = min(seconds(html) for _ in range(rounds))
        out.append({"row": "`irr.report(df).to_html()` with figures", "case": kind,
                    "size": f"{n:,} x 3", "ours_s": t_html, "ref_s": t_ref,
                    "ref": "the report's coefficients called on an Agreement",
                    "ratio": t_html / t_ref, "goal": "<= 3 s", "ok": t_html <= 3.0,
                    "ours_mb": None, "ref_mb": None})
    return out


def _direct(df: pd.DataFrame) -> list:
    """The statistics of the default report (the registry's choice for these data),
    each called directly on an Agreement built as the report builds it, with its default
    interval."""
    import irr
    from irr.registry import statistic_rows
    from irr.reliability import call_method

    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        ag = irr.Agreement.from_frame(df)
        if ag.facts.continuous:  # as the report: many integer scores are measurements
            ag = irr.Agreement.from_frame(df, continuous=True)
        n_categories = 0 if ag.continuous else len(ag.categories)
        _, chosen, _ = statistic_rows(None, ag.facts, n_categories)
        return [call_method(ag, method, {"ci": None}, **options) for method, options in chosen]


if __name__ == "__main__":
    for r in rows(quick="--quick" in sys.argv):
        print(f"{r['row']:<45} {r['case']:<7} ours {r['ours_s']:.2f} s  ref {r['ref_s']:.2f} s "
              f" ratio {r['ratio']:.2f}x  ok={r['ok']}")
