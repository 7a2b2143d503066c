"""Planning a reliability study: sample size, power and expected interval width.

Each function answers "how many subjects (or test cases) do I need?" when given a target
``power``, or "how much power do I have?" when given ``n``; each design input may be a
sequence, and the :class:`PlanResult` has one row per combination, with ``summary()``,
``to_frame()``, ``report()`` (a sentence for a protocol) and ``curve(n)`` for
:func:`irr.plotting.power_curve`.
"""

from irr.plan.concordance_plan import concordance
from irr.plan.error_rate_plan import error_rate
from irr.plan.icc_plan import icc, icc_interval
from irr.plan.kappa_plan import kappa, kappa_interval
from irr.plan.limits_plan import limits_of_agreement
from irr.plan.plan_result import PlanResult
from irr.plan.simulation import simulate

__all__ = [
    "PlanResult",
    "concordance",
    "error_rate",
    "icc",
    "icc_interval",
    "kappa",
    "kappa_interval",
    "limits_of_agreement",
    "simulate",
]
