"""Power of any coefficient's test by simulation, with the package's own estimators.

The user describes the population (category proportions and the population kappa, a full
joint distribution of the raters' ratings, or continuous ratings with a given ICC), the
design (subjects, raters, missing ratings) and the test (the coefficient's interval
excluding a null value); :func:`simulate` draws whole studies, analyses each with
:class:`irr.Agreement`, and counts how often the interval excludes the null value.
"""

from __future__ import annotations

import functools
import math
import warnings
from dataclasses import dataclass
from typing import Any

import numpy as np

from irr._numbers import format_significant
from irr._validation import (
    DegenerateDataWarning,
    check_bool,
    check_choice,
    check_integer,
    check_open_unit,
    check_rng,
    show_value,
)
from irr.agreement import Agreement
from irr.plan.plan_result import PlanResult, as_values, check_n, design_grid, percent

__all__ = ["MAX_RATINGS", "MAX_SIMULATIONS", "SIMULATED", "draw_ratings", "simulate"]

#: The most simulated studies per row.
MAX_SIMULATIONS = 100_000
#: The most ratings (subjects x raters) in one simulated study.
MAX_RATINGS = 10_000_000

_NAMES = {"kappa": "Cohen's kappa", "fleiss_kappa": "Fleiss' kappa",
          "conger_kappa": "Conger's kappa", "light_kappa": "Light's kappa",
          "krippendorff_alpha": "Krippendorff's alpha", "gwet_ac": "Gwet's AC",
          "icc": "the ICC", "percent_agreement": "percent agreement",
          "brennan_prediger": "Brennan-Prediger", "scott_pi": "Scott's pi",
          "concordance": "Lin's CCC", "kendall_w": "Kendall's W",
          "mean_spearman": "the mean Spearman correlation",
          "mean_pearson": "the mean Pearson correlation", "robinson_a": "Robinson's A",
          "finn": "Finn's coefficient", "pabak": "PABAK", "maxwell_re": "Maxwell's RE",
          "bangdiwala_b": "Bangdiwala's B"}

#: The statistics a simulation can test: coefficients with one estimate and an interval.
SIMULATED = tuple(_NAMES)

# why the other methods of Agreement have no power here
_WHY_NOT = {
    **dict.fromkeys(("limits_of_agreement",), "its estimate, the bias, is in the "
                    "measurements' units, and the simulated ratings have no bias"),
    **dict.fromkeys(("total_deviation_index", "coverage_probability"),
                    "its value depends on the measurements' units, which the model does "
                    "not set"),
    **dict.fromkeys(("deming", "passing_bablok"), "it estimates a regression line, not a "
                    "coefficient"),
    **dict.fromkeys(("measurement_error", "icc_components", "inter_intra_reliability",
                     "specific_agreement", "category_kappa", "icc_table", "pairwise"),
                    "it gives several estimates, not one coefficient"),
    **dict.fromkeys(("mcnemar", "bhapkar_test", "marginal_homogeneity_test",
                     "symmetry_test", "cochrans_q", "rater_bias", "error_rate_test"),
                    "it is a test of rater bias or error rates, not a coefficient of "
                    "agreement"),
}


def draw_ratings(n: int, raters: int, rng: np.random.Generator, *, coefficient: float = 0.0,
                 proportions: Any = None, joint: Any = None, continuous: bool = False,
                 missing: float = 0.0) -> np.ndarray:
    """One simulated study: an (n, raters) float array of ratings (NaN = missing).

    Categories (codes 0 .. k-1): with `joint`, each subject's ratings are one cell of the
    joint distribution of the raters (an array of shape ``(k,) * raters`` summing to 1);
    otherwise the exchangeable model with category `proportions` and intraclass kappa
    `coefficient`: the subject's category probabilities are Dirichlet with parameters
    ``(1 - kappa) / kappa * proportions`` and the raters rate independently given them,
    so that any two raters agree beyond chance by ``coefficient`` (Fleiss' kappa in the
    population). Continuous: ``subject + error``, normal with variances ``coefficient``
    and ``1 - coefficient`` (ICC(1) = `coefficient`). Each rating is then missing with
    probability `missing`, independently.

    Examples
    --------
    >>> import numpy as np
    >>> x = draw_ratings(5, 3, np.random.default_rng(0), coefficient=0.6,
    ...                  proportions=[0.5, 0.5])
    >>> x.shape
    (5, 3)
    """
    if joint is not None:
        p = np.asarray(joint, dtype=float)
        cells = rng.multinomial(n, p.ravel() / p.sum())
        flat = np.repeat(np.arange(p.size), cells)
        rng.shuffle(flat)
        x = np.column_stack(np.unravel_index(flat, p.shape)).astype(float)
    elif continuous:
        subject = rng.normal(0.0, math.sqrt(coefficient), size=(n, 1))
        x = subject + rng.normal(0.0, math.sqrt(1.0 - coefficient), size=(n, raters))
    else:
        p = np.asarray(proportions, dtype=float)
        if coefficient >= 1.0:
            theta = np.eye(p.size)[rng.choice(p.size, size=n, p=p)]
        elif coefficient <= 0.0:
            theta = np.broadcast_to(p, (n, p.size))
        else:
            theta = rng.dirichlet((1 - coefficient) / coefficient * p, size=n)
        # each rater's category: inverse CDF of the subject's probabilities
        u = rng.random((n, raters, 1))
        x = (u > np.cumsum(theta, axis=1)[:, None, :-1]).sum(axis=-1).astype(float)
    if missing > 0:
        x[rng.random(x.shape) < missing] = np.nan
    return x


def _interval(res: Any) -> tuple[float, float] | None:
    """The study's interval for the decision, or None when it is undefined.

    A defined estimate whose interval is undefined because the data leave it no room to
    move (standard error 0, as at perfect agreement; or an estimate of exactly 1, the top
    of every coefficient's scale, where the ICC's F interval has a zero error mean square)
    has the zero-width interval at the estimate: every resample of such a study gives the
    same value, so it rejects a null on the other side of it.
    """
    estimate = float(res.estimate)
    if not math.isfinite(estimate):
        return None
    low, high = float(res.ci.low), float(res.ci.high)
    if math.isfinite(low) and math.isfinite(high):
        return low, high
    se = getattr(res, "se", math.nan)
    if (se is not None and float(se) == 0.0) or estimate == 1.0:
        return estimate, estimate
    return None


def _decision(interval: tuple[float, float], null: float, alternative: str) -> bool:
    low, high = interval
    if alternative == "greater":
        return low > null
    if alternative == "less":
        return high < null
    return low > null or high < null


def _check_missing(value: Any, name: str) -> float:
    if isinstance(value, bool) or not isinstance(value, int | float | np.integer | np.floating):
        raise TypeError(f"`{name}` must be a proportion in [0, 1); got {show_value(value)}.")
    value = float(value)
    if not 0.0 <= value < 1.0:
        raise ValueError(f"`{name}` must be in [0, 1); got {show_value(value)}.")
    return value


def _check_coefficient(value: Any, name: str) -> float:
    if isinstance(value, bool) or not isinstance(value, int | float | np.integer | np.floating):
        raise TypeError(f"`{name}` must be a number in [0, 1]; got {show_value(value)}.")
    value = float(value)
    if not 0.0 <= value <= 1.0:
        raise ValueError(f"`{name}` must be in [0, 1]; got {show_value(value)}.")
    return value


def _check_statistic(statistic: Any) -> str:
    if isinstance(statistic, str) and statistic in SIMULATED:
        return statistic
    why = _WHY_NOT.get(statistic) if isinstance(statistic, str) else None
    reason = (f"; got {show_value(statistic)}, which has no population value in the "
              "simulation's model (it sets only a coefficient: the population kappa, or the "
              f"ICC of continuous ratings): {why}" if why else f"; got {show_value(statistic)}")
    raise ValueError(f"`statistic` must be a coefficient of agreement whose interval a "
                     f"simulation can test: one of {', '.join(SIMULATED)}{reason}.")


def _sentence(row: dict[str, Any], population_name: str) -> str:
    name = _NAMES.get(row["statistic"], row["statistic"])
    missing = (f" ({percent(row['missing'])} of ratings missing)"
               if row["missing"] > 0 else "")
    population = ("" if row["coefficient"] is None or math.isnan(row["coefficient"]) else
                  f" when the population {population_name} was "
                  f"{format_significant(row['coefficient'])}")
    undefined = (f"; in {int(row['undefined']):,} studies the coefficient or its interval "
                 "was undefined, counted as not rejecting" if row["undefined"] else "")
    level = percent(1 - row["alpha"] if row["alternative"] == "two-sided"
                    else 1 - 2 * row["alpha"])
    return (f"In {int(row['n_simulations']):,} simulated studies of {int(row['n']):,} "
            f"subjects rated by {int(row['raters'])} raters{missing}, the {level} "
            f"interval of {name} excluded {format_significant(row['null'])} in "
            f"{100 * row['power']:.1f}% of studies (Monte Carlo SE "
            f"{100 * row['mc_se']:.1f}%){population}{undefined} (simulation with irr).")


@dataclass(frozen=True)
class _Study:
    """How each simulated study is drawn and analysed (picklable, for PlanResult.curve)."""

    statistic: str
    sims: int
    joint: np.ndarray | None
    proportions: tuple[float, ...] | None
    continuous: bool
    level: float
    options: dict[str, Any]
    null: float
    alternative: str

    def run(self, size: int, row: dict[str, Any], seed: int) -> tuple[float, float, int]:
        """The power, mean estimate and undefined studies of one row at `size` subjects."""
        local = np.random.default_rng(seed)
        rejected, estimates, undefined = 0, [], 0
        first_error: ValueError | None = None
        joint, continuous = self.joint, self.continuous
        categories = None if continuous else list(range(
            joint.shape[0] if joint is not None else len(self.proportions or ())))
        for _ in range(self.sims):
            x = draw_ratings(size, int(row["raters"]), local,
                             coefficient=row["coefficient"], proportions=self.proportions,
                             joint=joint, continuous=continuous, missing=row["missing"])
            with warnings.catch_warnings():
                warnings.simplefilter("ignore", DegenerateDataWarning)
                warnings.simplefilter("ignore", RuntimeWarning)
                try:
                    ag = Agreement.from_array(x, categories=categories,
                                              continuous=continuous or None)
                    res = getattr(ag, self.statistic)(confidence_level=self.level,
                                                      **self.options)
                except ValueError as exc:  # a study too degenerate to analyse
                    first_error = first_error or exc
                    undefined += 1
                    continue
            if res.ci.method == "none":
                raise ValueError(f"{_NAMES[self.statistic]} gives no interval by default, so "
                                 "no study could reject: pass a bootstrap interval (ci='bca' "
                                 "or ci='percentile').")
            interval = _interval(res)
            if interval is None:
                undefined += 1
                continue
            estimates.append(res.estimate)
            rejected += _decision(interval, self.null, self.alternative)
        if undefined == self.sims and first_error is not None:  # the call itself is wrong
            raise ValueError(f"every simulated study failed: {first_error}")
        mean = float(np.mean(estimates)) if estimates else math.nan
        return rejected / self.sims, mean, undefined


def _evaluate(study: _Study, records: list[dict[str, Any]], seeds: np.ndarray, ns: np.ndarray,
              index: np.ndarray) -> np.ndarray:
    """The power of rows `index` at `ns` (a PlanResult's ``evaluate``, picklable)."""
    return np.array([study.run(int(size), records[i], int(seeds[i]))[0]
                     for size, i in zip(ns, index, strict=True)])


def simulate(
    statistic: str = "fleiss_kappa",
    *,
    n: int | Any,
    null: float = 0.0,
    coefficient: float | Any | None = None,
    raters: int | Any = 2,
    categories: int | None = None,
    proportions: Any = None,
    joint: Any = None,
    continuous: bool = False,
    missing: float | Any = 0.0,
    alpha: float = 0.05,
    alternative: str = "two-sided",
    n_simulations: int = 1000,
    rng: Any = 0,
    **options: Any,
) -> PlanResult:
    """Power of a coefficient's test by simulating whole studies and analysing each with
    the package's own estimator.

    Parameters
    ----------
    statistic : str, default 'fleiss_kappa'
        A coefficient of :class:`irr.Agreement` with one estimate and an interval
        (:data:`SIMULATED`): ``'kappa'``, ``'fleiss_kappa'``, ``'conger_kappa'``,
        ``'light_kappa'``, ``'krippendorff_alpha'``, ``'gwet_ac'``, ``'icc'``,
        ``'concordance'`` ... Statistics whose value the model does not set (the bias and
        limits of agreement, TDI, regression lines, tests of rater bias) are refused; a
        coefficient without a default interval (Kendall's W, the mean correlations) needs
        a bootstrap interval (``ci='bca'``).
    n : int or sequence of int
        Subjects per study; one row per value.
    null : float, default 0.0
        The value of the coefficient under H0: the test rejects when the coefficient's
        interval excludes it (in the direction of `alternative`).
    coefficient : float or sequence of float, optional
        The population kappa (categories) or ICC (continuous) of the exchangeable model;
        not with `joint`.
    raters : int or sequence of int, default 2
    categories : int, optional
        Equally likely categories (default 2); or give `proportions`.
    proportions : sequence of float, optional
        The category proportions (summing to 1).
    joint : array-like of shape (k,) * raters, optional
        The full joint distribution of the raters' ratings (any marginals, any pattern of
        agreement): each subject's ratings are one of its cells.
    continuous : bool, default False
        Normal ratings with ICC(1) = `coefficient` instead of categories.
    missing : float or sequence of float, default 0.0
        Probability that a rating is missing (independently).
    alpha : float, default 0.05
        ``'two-sided'``: the ``1 - alpha`` interval; one-sided: the ``1 - 2 alpha``
        interval's limit in the direction of `alternative`.
    alternative : {'two-sided', 'greater', 'less'}, default 'two-sided'
    n_simulations : int, default 1000
        Studies per row.
    rng : int or numpy.random.Generator, default 0
        Seed: the same seed gives the same output.
    **options
        Passed to the method (``weights='quadratic'``, ``model='oneway'``, ``level`` ...).

    Returns
    -------
    PlanResult
        Columns: the design, ``power`` (share of studies whose interval excludes `null`),
        ``mc_se`` (its Monte Carlo standard error), ``mean_estimate`` and ``undefined``
        (studies whose coefficient or interval was nan, counted as not rejecting).

    Notes
    -----
    The decision in each study: reject when its interval excludes `null` in the direction
    of `alternative`. A study whose estimate is defined but whose interval is not because
    the data leave the estimate no room to move (a standard error of 0, as at perfect
    agreement, where every resample gives the same value; or an estimate of exactly 1, the
    top of the scale, as the ICC with no error variance) has the zero-width interval at its
    estimate: perfect agreement rejects a null below 1 and never rejects 1 itself. Other
    studies whose coefficient or interval is undefined count as not rejecting (column
    ``undefined``), which makes the power conservative.

    The simulation checks a design where no closed form applies (missing ratings, any
    coefficient, a bootstrap interval) and checks the closed forms: with the models of
    :func:`irr.plan.kappa` and :func:`irr.plan.icc` it reproduces their power within
    Monte Carlo error (the package's slow tests do this).

    Examples
    --------
    >>> import irr
    >>> res = irr.plan.simulate("fleiss_kappa", n=60, null=0.4, coefficient=0.7,
    ...                         raters=3, categories=3, missing=0.1, n_simulations=200)
    >>> 0.5 < float(res.power) <= 1.0
    True
    """
    continuous = check_bool(continuous, "continuous")
    statistic = _check_statistic(statistic)
    alternative = check_choice(alternative, "alternative", ("two-sided", "greater", "less"))
    alpha = check_open_unit(alpha, "alpha")
    level = 1 - alpha if alternative == "two-sided" else 1 - 2 * alpha
    if not 0 < level < 1:
        raise ValueError(f"`alpha` must be below 0.5 for a one-sided test; got {alpha:g}.")
    sims = check_integer(n_simulations, "n_simulations", minimum=10)
    if sims > MAX_SIMULATIONS:
        raise ValueError(f"`n_simulations` must be at most {MAX_SIMULATIONS:,}; got {sims}.")
    generator = check_rng(rng)
    if joint is not None:
        if coefficient is not None or proportions is not None or continuous:
            raise ValueError("give `joint` or (`coefficient` with `proportions`/"
                             "`categories`, or `continuous`), not both.")
        table = np.asarray(joint, dtype=float)
        if table.ndim < 2 or len(set(table.shape)) != 1 or np.any(~(table >= 0)) \
                or not table.sum() > 0:
            raise ValueError("`joint` must be a non-negative (k, k, ...) array, one axis per "
                             f"rater; got shape {table.shape}.")
        raters, coefficients, props = table.ndim, [math.nan], [None]
    else:
        if coefficient is None:
            raise ValueError("give the population `coefficient` (or a `joint` distribution).")
        coefficients = as_values(coefficient, "coefficient", _check_coefficient)
        if continuous:
            props = [None]
        elif proportions is not None:
            p = np.asarray(proportions, dtype=float).ravel()
            if p.size < 2 or np.any(~(p > 0)) or abs(p.sum() - 1) > 1e-6:
                raise ValueError("`proportions` must be two or more positive proportions "
                                 f"summing to 1; got {show_value(proportions)}.")
            props = [tuple(float(v) for v in p)]
        else:
            k = 2 if categories is None else check_integer(categories, "categories", minimum=2)
            props = [tuple([1.0 / k] * k)]
    grid = design_grid(
        n=as_values(n, "n", check_n), coefficient=coefficients,
        raters=as_values(raters, "raters", lambda v, name: check_integer(v, name, minimum=2)),
        missing=as_values(missing, "missing", _check_missing))
    big = grid["n"] * grid["raters"] > MAX_RATINGS
    if big.any():
        row = grid[big].iloc[0]
        raise ValueError(f"`n` = {int(row['n']):,} subjects x {int(row['raters'])} raters is "
                         f"more than {MAX_RATINGS:,} ratings per simulated study.")
    grid.insert(0, "statistic", statistic)
    grid["null"] = float(null)
    grid["alpha"] = alpha
    grid["alternative"] = alternative
    grid["n_simulations"] = sims
    seeds = generator.integers(0, 2**63 - 1, size=len(grid))

    study = _Study(statistic, sims, None if joint is None else np.asarray(joint, dtype=float),
                   props[0], bool(continuous), level, dict(options), float(null), alternative)
    run = study.run
    results = [run(int(row["n"]), row, int(seed))
               for row, seed in zip(grid.to_dict("records"), seeds, strict=True)]
    grid["power"] = [r[0] for r in results]
    grid["mc_se"] = np.sqrt(grid["power"] * (1 - grid["power"]) / sims)
    grid["mean_estimate"] = [r[1] for r in results]
    grid["undefined"] = [r[2] for r in results]
    evaluate = functools.partial(_evaluate, study, grid.to_dict("records"), seeds)

    return PlanResult(
        title=f"Simulated power of {_NAMES.get(statistic, statistic)}",
        method=f"simulation ({sims:,} studies per row)", table=grid,
        inputs=("n", "coefficient", "raters", "missing"),
        outputs=("power", "mc_se", "mean_estimate", "undefined"), measure="power",
        citation="simulation with irr", references=(),
        sentence=functools.partial(_sentence, population_name="ICC" if continuous else "kappa"),
        evaluate=evaluate,
        notes=("The test: the coefficient's interval excludes the null value; a study whose "
               "standard error is 0 (perfect agreement) has the zero-width interval at its "
               "estimate; studies whose coefficient or interval is otherwise undefined "
               "count as not rejecting.",),
    )
