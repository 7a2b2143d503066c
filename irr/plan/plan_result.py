"""The result of a planning function, and the grid of inputs it is computed on.

Every planning function (:func:`irr.plan.error_rate`, :func:`irr.plan.kappa`,
:func:`irr.plan.icc` ...) accepts a scalar or a sequence for each design input and
computes one row per combination of them; :class:`PlanResult` holds those rows and
renders them (``summary()``, ``to_frame()``, ``report()``), and ``curve(n)`` recomputes
the power (or the expected interval width) at other numbers of subjects for a figure.
"""

from __future__ import annotations

import itertools
import math
import numbers
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

import numpy as np
import pandas as pd

from irr._validation import check_integer, show_value
from irr.inference._hypothesis_summary import hypothesis_summary

if TYPE_CHECKING:
    from statsmodels.iolib.summary import Summary

__all__ = ["PlanResult", "as_values", "check_hypotheses", "check_power_or_n", "design_grid",
           "is_reached", "put_solved", "solve_n", "unreached"]


def as_values(value: Any, name: str, check: Callable[[Any, str], Any]) -> list[Any]:
    """`value` as a list of checked values: a scalar gives one, a sequence (list, tuple,
    1-D array, Series) one per element, each passed through ``check(element, name)``."""
    if isinstance(value, str | bytes) or np.ndim(value) == 0:
        items = [value.item() if isinstance(value, np.generic) else value]
    else:
        array = np.asarray(value, dtype=object)
        if array.ndim != 1 or array.size == 0:
            raise ValueError(
                f"`{name}` must be a number or a non-empty 1-D sequence of numbers; got "
                f"{show_value(value)}.")
        items = [v.item() if isinstance(v, np.generic) else v for v in array]
    return [check(v, name) for v in items]


def check_power_or_n(power: Any, n: Any) -> None:
    """A plan solves for n (given `power`) or gives the power at `n`: not both."""
    if power is not None and n is not None:
        raise ValueError("give `power` (to solve for n) or `n` (to compute the power), not "
                         f"both; got power={power!r} and n={n!r}.")


def check_hypotheses(nulls: list[float], alternatives: list[float], names: tuple[str, str],
                     alternative: str | None, hint: str = "") -> None:
    """Every alternative value differs from every null value and lies on the side the test
    `alternative` ('greater', 'less', 'two-sided' or None) can detect; `names` are the
    arguments' names (null first), `hint` ends the message of a wrong side."""
    null_name, alt_name = names
    for a in nulls:
        for b in alternatives:
            if a == b:
                raise ValueError(f"`{alt_name}` must differ from `{null_name}`; both are {a:g}.")
            if (alternative == "greater" and b < a) or (alternative == "less" and b > a):
                raise ValueError(f"`{alt_name}` = {b:g} is on the wrong side of `{null_name}` "
                                 f"= {a:g} for `alternative={alternative!r}`{hint}.")


def design_grid(**inputs: list[Any]) -> pd.DataFrame:
    """One row per combination of the inputs' values (the first input varies slowest)."""
    names = list(inputs)
    rows = list(itertools.product(*(inputs[n] for n in names)))
    frame = pd.DataFrame(rows, columns=names)
    for name in names:  # a column of tuples (category proportions) stays object
        if all(isinstance(v, numbers.Integral) and not isinstance(v, bool) for v in frame[name]):
            frame[name] = frame[name].astype("int64")
        elif all(isinstance(v, numbers.Real) and not isinstance(v, bool) for v in frame[name]):
            frame[name] = frame[name].astype(float)
    return frame


def check_n(value: Any, name: str = "n", minimum: int = 2) -> int:
    """A number of subjects (at least `minimum`)."""
    return check_integer(value, name, minimum=minimum)


#: The largest number of subjects :func:`solve_n` searches.
MAX_SUBJECTS = 10**9


def solve_n(power_at: Callable[[np.ndarray], np.ndarray], target: np.ndarray,
            low: int = 2, high: int = MAX_SUBJECTS) -> np.ndarray:
    """The smallest integer ``n`` in ``[low, high]`` with ``power_at(n) >= target``, per row.

    `power_at` maps an int array of shape (rows,) to the rows' powers and must increase
    with ``n`` (the asymptotic formulas do). Doubling, then bisection: vectorised over
    the rows. Rows whose power does not reach the target by `high` are -1.
    """
    target = np.asarray(target, dtype=float)
    lo = np.full(target.shape, low, dtype=np.int64)
    hi = lo.copy()
    reached = power_at(hi) >= target
    while True:
        grow = ~reached & (hi < high)
        if not grow.any():
            break
        hi = np.where(grow, np.minimum(hi * 2, high), hi)
        reached = np.where(grow, power_at(hi) >= target, reached)
    hi = np.where(reached, hi, lo)  # rows not reached: nothing to bisect
    # invariant: power(hi) >= target for reached rows; the answer is in [lo, hi]
    while np.any(lo < hi):
        mid = lo + (hi - lo) // 2
        good = power_at(mid) >= target
        hi = np.where(good, mid, hi)
        lo = np.where(good, lo, mid + 1)
    return np.where(reached, hi, -1)


def unreached(values: Any) -> pd.array:
    """Numbers of subjects as a nullable integer column: a row whose target cannot be
    reached (:func:`solve_n`'s -1) is missing (``<NA>``; None in :attr:`PlanResult.n`, in
    ``to_dict()`` and in JSON), never a number.

    >>> unreached(np.array([57, -1])).tolist()
    [57, <NA>]
    """
    return pd.array([int(v) if v >= 0 else pd.NA for v in np.asarray(values, dtype=np.int64)],
                    dtype="Int64")


def put_solved(grid: pd.DataFrame, n: np.ndarray,
               power_at: Callable[[np.ndarray], np.ndarray], low: int) -> None:
    """Put :func:`solve_n`'s `n` into `grid` (missing where the target is not reached,
    :func:`unreached`) and the power at it (nan where there is no n)."""
    n = np.asarray(n, dtype=np.int64)
    reached = n >= 0
    grid["n"] = unreached(n)
    grid["power"] = np.where(reached, power_at(np.where(reached, np.maximum(n, low), low)),
                             math.nan)


def is_reached(value: Any) -> bool:
    """Whether a row's number of subjects (a cell of an :func:`unreached` column) exists."""
    return value is not None and not pd.isna(value)


def _fmt(value: Any) -> str:
    if isinstance(value, bool | np.bool_):
        return "yes" if value else "no"
    if isinstance(value, numbers.Integral):
        return f"{int(value):,}"
    if isinstance(value, numbers.Real):
        value = float(value)
        if math.isnan(value):
            return ""
        return f"{value:.4g}" if abs(value) < 1e4 else f"{value:,.0f}"
    if isinstance(value, tuple):
        return "(" + ", ".join(f"{float(v):g}" for v in value) + ")"
    return str(value)


def _cell(column: str, value: Any) -> str:
    """A table cell: a missing number of subjects (``<NA>``, None in records) means no n
    reaches the target; other missing counts are blank."""
    if value is None or value is pd.NA:
        return "not reached" if column in ("n", "n_stable") else ""
    return _fmt(value)


def _fixed(values: Sequence[Any]) -> list[str | None]:
    """A computed column's real numbers with one number of decimals (four significant
    digits of the largest), so that 0.436 and 0.7965 print as 0.4360 and 0.7965; None
    for the cells :func:`_fmt` formats alone (integers, text, nan, large numbers).

    Examples
    --------
    >>> _fixed([0.436, 0.79652, 5, float("nan")])
    ['0.4360', '0.7965', None, None]
    >>> _fixed([0.04, 0.06145])
    ['0.04000', '0.06145']
    """
    reals = [float(v) for v in values if isinstance(v, numbers.Real)
             and not isinstance(v, bool | np.bool_ | numbers.Integral)
             and math.isfinite(float(v))]
    if not reals or max(map(abs, reals)) >= 1e4:
        return [None] * len(values)
    top = max(map(abs, reals))
    decimals = 3 if top == 0 else min(8, max(0, 3 - math.floor(math.log10(top))))
    return [f"{float(v):.{decimals}f}" if isinstance(v, numbers.Real)
            and not isinstance(v, bool | np.bool_ | numbers.Integral)
            and math.isfinite(float(v)) else None for v in values]


@dataclass(frozen=True, eq=False, repr=False)
class PlanResult:
    """Sample size, power or expected interval width of a planned reliability study.

    One row per combination of the design inputs (each input may be a sequence).

    Attributes
    ----------
    title : str
        What was planned, e.g. ``'Sample size for a test of kappa'``.
    method : str
        The method and its source, e.g. ``'Donner & Eliasziw (1992) goodness of fit'``.
    table : pandas.DataFrame
        The inputs, then the outputs (``n``, ``power``, ...), one row per combination.
    inputs : tuple of str
        The columns of :attr:`table` that are design inputs.
    outputs : tuple of str
        The columns that were computed.
    measure : {'power', 'width'}
        What :meth:`curve` returns at other ``n``.
    citation : str
        The short citation used in :meth:`report`, e.g. ``'Rotondi & Donner, 2012'``.
    references : tuple of str
        Full references.
    notes : tuple of str
        Notes printed under the summary.
    sentence : callable
        Renders one row (a dict) as the report sentence.
    evaluate : callable
        ``evaluate(n, rows)``: the power (or width) of the rows of :attr:`table` at
        positions `rows` (an int array) at the numbers `n` (an int array, same length).

    Examples
    --------
    >>> import irr
    >>> res = irr.plan.error_rate(epsilon0=0.10, epsilon1=0.05, power=0.8)
    >>> int(res.n), int(res.table["n_stable"].iloc[0])
    (179, 203)
    """

    title: str
    method: str
    table: pd.DataFrame
    inputs: tuple[str, ...]
    outputs: tuple[str, ...]
    measure: str
    citation: str
    references: tuple[str, ...]
    sentence: Callable[[dict[str, Any]], str]
    evaluate: Callable[[np.ndarray, np.ndarray], np.ndarray]
    notes: tuple[str, ...] = field(default=())

    def _column(self, name: str) -> Any:
        column = self.table[name]
        if column.isna().any() and str(column.dtype) == "Int64":  # targets not reached
            values = column.astype(object).where(column.notna(), None).to_numpy()
        else:
            values = column.to_numpy()
        return values[0] if len(values) == 1 else values

    @property
    def n(self) -> Any:
        """The number of subjects (test cases) of each row; a scalar for one row; None for
        a row whose target no number of subjects reaches."""
        return self._column("n")

    @property
    def power(self) -> Any:
        """The power of each row at its ``n``; a scalar for one row."""
        return self._column("power")

    def to_frame(self) -> pd.DataFrame:
        """The table: inputs then outputs, one row per combination (a copy).

        Examples
        --------
        >>> import irr
        >>> frame = irr.plan.error_rate(0.10, [0.03, 0.05], power=0.8).to_frame()
        >>> frame[["epsilon1", "n", "n_stable"]]
           epsilon1    n  n_stable
        0      0.03   76        89
        1      0.05  179       203
        """
        return self.table.copy()

    def to_dict(self) -> dict[str, Any]:
        """The title, method, citation and the table's rows as a list of dicts."""
        return {"title": self.title, "method": self.method, "citation": self.citation,
                "rows": self.table.to_dict(orient="records")}  # <NA> becomes None

    def report(self) -> str:
        """One sentence per row for a grant application or a study protocol.

        Examples
        --------
        >>> import irr
        >>> print(irr.plan.error_rate(epsilon0=0.10, epsilon1=0.05, power=0.8).report())
        ... # doctest: +NORMALIZE_WHITESPACE
        With 179 test cases, the exact binomial test at the 5% level (one-sided) declares
        an error rate below 10% with 81.3% power when the true error rate is 5%; because
        the power of an exact test is not monotone in n, only from n = 203 (checked up to
        1,833) does it stay at 80% or more (Chernick & Liu, 2002).
        """
        return " ".join(self.sentence(row) for row in self.table.to_dict(orient="records"))

    def summary(self) -> Summary:
        """A statsmodels ``Summary``: the method, then one row per combination.

        Examples
        --------
        >>> import irr
        >>> text = irr.plan.error_rate(0.10, 0.05).summary().as_text()
        >>> print(" ".join(text.splitlines()[6].split()))
        epsilon0 epsilon1 alpha target power n power n stable critical count eps bar
        >>> print(" ".join(text.splitlines()[8].split()))
        1 0.1 0.05 0.05 0.8 179 0.8129 203 11 0.06145
        """
        columns = [*self.inputs, *self.outputs]
        records = self.table.to_dict("records")
        rows = [[_cell(c, row[c]) for c in columns] for row in records]
        for j, c in enumerate(columns):
            if c in self.outputs:  # one number of decimals down a computed column
                for row, text in zip(rows, _fixed([r[c] for r in records]), strict=True):
                    row[j] = text if text is not None else row[j]
        facts = [("Method:", self.method), ("Rows:", f"{len(self.table):,}"),
                 ("Source:", self.citation), ("Solves for:", ", ".join(self.outputs[:1]))]
        if "alternative" in self.table.columns:  # n differs with the side: the table says it
            facts.append(("Alternative:", ", ".join(map(str, pd.unique(self.table["alternative"])))))
        return hypothesis_summary(
            self.title, facts, [c.replace("_", " ") for c in columns],
            [str(i) for i in range(1, len(self.table) + 1)], rows,
            notes=[*self.notes, *self.references])

    def curve(self, n: Sequence[int] | np.ndarray) -> pd.DataFrame:
        """The power (or expected width) of every row at each of the numbers `n`.

        Parameters
        ----------
        n : sequence of int
            The numbers of subjects.

        Returns
        -------
        pandas.DataFrame
            Long: a ``row`` column (the row of :attr:`table`, from 0), ``n`` and
            :attr:`measure`.

        Examples
        --------
        >>> import irr
        >>> res = irr.plan.error_rate(0.10, 0.05)
        >>> res.curve([178, 179, 180])["power"].round(3).tolist()
        [0.721, 0.813, 0.808]
        """
        n = np.asarray([check_n(v, "n", minimum=1) for v in np.atleast_1d(n)], dtype=np.int64)
        rows = np.repeat(np.arange(len(self.table)), n.size)
        ns = np.tile(n, len(self.table))
        values = self.evaluate(ns, rows)
        return pd.DataFrame({"row": rows, "n": ns, self.measure: np.asarray(values, float)})

    def __repr__(self) -> str:
        shown = ", ".join(f"{c}={_cell(c, self.table[c].iloc[0])}" for c in self.outputs[:2])
        more = f", {len(self.table)} rows" if len(self.table) > 1 else ""
        return f"PlanResult({self.title!r}, {shown}{more})"

    def __str__(self) -> str:
        return self.summary().as_text()

    def _repr_html_(self) -> str:
        return self.summary().as_html()


def percent(value: float) -> str:
    """A proportion as a percentage with at most three significant digits: 0.8 -> '80%'."""
    return f"{100 * value:.3g}%"
