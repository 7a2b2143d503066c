"""Cronbach's alpha (coefficient alpha) with Feldt's F test and exact interval.

Coefficient alpha of k raters (or items) over n subjects is the two-way consistency ICC of
their average, ICC(C,k) = 1 - MSE/MSR (McGraw & Wong 1996, case 3A; Hoyt 1941), which on
complete data equals the covariance form k/(k - 1) (1 - sum of variances / variance of the
sum) (Cronbach 1951). Under normality (n - 1 = df1, (n - 1)(k - 1) = df2)
(1 - alpha)/(1 - alpha_hat) has an F(df1, df2) law (Feldt 1965; Feldt, Woodruff & Salih
1987, eq. 5), which gives the test of H0: alpha = alpha0, F = (1 - alpha0)/(1 - alpha_hat),
and the exact interval [1 - (1 - alpha_hat) F_{1-g/2}, 1 - (1 - alpha_hat) F_{g/2}]; both
are McGraw & Wong's (1996, Tables 7 and 8) for ICC(C,k), which is how they are computed
here (:mod:`irr.coefficients.icc`, no second formula).
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from typing import Any, ClassVar

import numpy as np

from irr._statistics import Statistics
from irr.coefficients.icc import MeanSquares, icc_interval
from irr.estimators.common import score_note, score_patterns
from irr.estimators.icc import icc_from_values
from irr.inference.keywords import CRONBACH_TEXTS
from irr.results import ConfidenceInterval, Result

__all__ = ["CRONBACH_TEXTS", "CronbachResult", "cronbach_alpha"]

#: The form of the ICC that coefficient alpha is (McGraw & Wong's ICC(C,k)).
_FORM = ("twoway", "consistency", "average")


@dataclass(frozen=True, eq=False, kw_only=True, repr=False)
class CronbachResult(Result):
    """Cronbach's alpha with Feldt's F test and exact F interval (``ci.method ==
    'feldt'``).

    ``statistic`` is Feldt's F = (1 - alpha0)/(1 - alpha_hat) of H0: alpha = alpha0
    (``null_value``, 0 by default) against alpha > alpha0, on ``df1`` = n - 1 and ``df2`` =
    (n - 1)(k - 1) degrees of freedom; ``n_items`` is k. Alpha is ICC(C,k) of the same
    data: the mean squares ``ms_rows`` (subjects) and ``ms_error`` (residual) give both.
    No interpretation scale by default: the thresholds in use (e.g. 0.7, George & Mallery's
    bands) are rules of thumb that depend on the use of the scores; pass one to
    :meth:`interpret` if a report calls for it.

    Examples
    --------
    >>> import irr
    >>> res = irr.Agreement.from_frame(irr.datasets.load("anxiety")).cronbach_alpha()
    >>> round(res.estimate, 4), res.df1, res.df2, res.ci.method
    (0.4526, 19, 38, 'feldt')
    >>> [round(x, 4) for x in res.ci]
    [-0.1529, 0.7663]
    """

    scale: str | None = None
    statistic_name: str = "F"
    bounds: tuple[float, float] = (-math.inf, 1.0)

    df1: int
    df2: int
    n_items: int
    ms_rows: float
    ms_error: float
    #: The mean squares as :class:`irr.coefficients.icc.MeanSquares` holds them (divided
    #: by a power of two), from which the interval at another level is computed.
    scaled_mean_squares: tuple[float, float, float, float] = field(default=(), repr=False)

    interval_methods: ClassVar[tuple[str, ...]] = ("feldt", *Result.interval_methods)

    def _interval(self, level: float, method: str) -> ConfidenceInterval:
        """Feldt's exact interval (the default) or the inherited methods."""
        if method == "feldt":
            ms = MeanSquares(*(np.float64(v) for v in self.scaled_mean_squares),
                             self.n_subjects, self.n_items)
            low, high, _ = icc_interval(ms, *_FORM, level)
            return ConfidenceInterval(float(low), float(high), level, "feldt")
        return super()._interval(level, method)

    def _extras(self) -> dict[str, Any]:
        return {"df1": self.df1, "df2": self.df2, "n_items": self.n_items,
                "ms_rows": self.ms_rows, "ms_error": self.ms_error}


def cronbach_alpha(
    stats: Statistics, confidence_level: float, null: float | None = None
) -> CronbachResult:
    """Cronbach's alpha of rated subjects (see :meth:`irr.Agreement.cronbach_alpha`):
    ICC(C,k) of the subjects rated by every rater (listwise), renamed, with Feldt's
    interval and test."""
    values, complete = score_patterns(stats, "Cronbach's alpha")
    icc = icc_from_values(values, complete, stats.raters, *_FORM, confidence_level,
                          score_note(stats), stats.multiplicity, null)
    k = icc.n_raters
    # the ICC's own notes (its form, listwise deletion, degenerate data) after alpha's
    notes = (
        f"Cronbach's alpha of {k} raters (items): ICC(C,k) = 1 - MSE/MSR (McGraw & Wong "
        "1996), which on complete data is k/(k - 1)(1 - sum of variances / variance of the "
        "sum) (Cronbach 1951).",
        f"Feldt's (1965) F test of alpha = {icc.null_value:g} (F({icc.df1}, {int(icc.df2)}), "
        "one-sided) and exact F interval under normality (Feldt, Woodruff & Salih 1987).",
        *icc.notes[2:],
    )
    return CronbachResult(
        coefficient="Cronbach's alpha",
        symbol="Cronbach's α",
        estimate=icc.estimate,
        se=math.nan,
        statistic=icc.statistic,
        pvalue=icc.pvalue,
        alternative="greater",
        ci=ConfidenceInterval(icc.ci.low, icc.ci.high, icc.ci.confidence_level, "feldt"),
        n_subjects=icc.n_subjects,
        n_missing=icc.n_missing,
        n_incomplete=icc.n_incomplete,
        raters=icc.raters,
        notes=notes,
        null_value=icc.null_value,
        df1=icc.df1,
        df2=int(icc.df2),
        n_items=k,
        ms_rows=icc.ms_rows,
        ms_error=icc.ms_error,
        scaled_mean_squares=icc.scaled_mean_squares,
    )
