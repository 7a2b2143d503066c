"""Long data of a generalizability study -> one padded array of scores.

Each row holds one score, the object of measurement it belongs to and the level of every
facet. The scores become an array with one axis per facet (the object first); a facet
nested in another is coded *within* its parent (raters 0..3 of each task), so the array of
``p × (r:t)`` has shape ``(n_p, n_t, n_r)`` with ``n_r`` the most raters any task has.
Missing scores, and cells that no design has (a subtest with fewer items than another),
are ``nan``.

Labels of a nested facet may be unique (raters 1..12, four per task) or restart within
each parent (items 1, 2 of each subtest): either way a level is a (parent, label) pair.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from typing import Any

import numpy as np
import pandas as pd

from irr._frames import is_foreign_frame, to_pandas
from irr.gtheory.designs import Design, make_design

__all__ = ["GData", "gstudy_hint", "multifacet_columns", "read_long"]


@dataclass(frozen=True, eq=False)
class GData:
    """Scores of a G study on the design's array.

    ``scores`` has shape ``(n_objects, *sizes)`` (``nan``: no score); ``exists`` marks the
    cells (over the facets, shape ``sizes``) that some object has; ``levels`` the number
    of levels of every facet (nested: of (parent, label) pairs); ``per_parent`` the
    number of levels of each nested facet within each level of its parent.
    """

    design: Design
    scores: np.ndarray
    exists: np.ndarray
    levels: dict[str, int]
    per_parent: dict[str, np.ndarray]
    n_rows: int
    notes: tuple[str, ...] = field(default=())

    @property
    def n_objects(self) -> int:
        return int(self.scores.shape[0])

    @property
    def sizes(self) -> tuple[int, ...]:
        return tuple(int(s) for s in self.scores.shape[1:])

    @property
    def observed(self) -> np.ndarray:
        return ~np.isnan(self.scores)

    @property
    def n_scores(self) -> int:
        return int(self.observed.sum())

    @property
    def balanced(self) -> bool:
        """Every object has a score in every cell of a full crossing (nested facets with
        the same number of levels in every parent)."""
        return bool(self.observed.all())

    @property
    def n_missing(self) -> int:
        """Cells of existing designs without a score."""
        return int(self.exists.sum()) * self.n_objects - self.n_scores


def _column(df: pd.DataFrame, name: Any, argument: str) -> pd.Series:
    if name not in df.columns:
        raise ValueError(f"`{argument}`: no column {name!r}; columns: {list(df.columns)!r}.")
    return df[name]


def _score(series: pd.Series, name: Any) -> np.ndarray:
    if isinstance(series.dtype, pd.CategoricalDtype) or not (
            pd.api.types.is_numeric_dtype(series.dtype) and not pd.api.types.is_bool_dtype(
                series.dtype)):
        bad = series.dropna()
        shown = list(pd.unique(bad.astype(str)))[:5]
        raise TypeError(f"`score`: column {name!r} must hold numbers; it holds "
                        f"{series.dtype} values such as {shown!r}.")
    values = series.to_numpy(dtype=float, na_value=np.nan)
    if np.isinf(values).any():
        raise ValueError(f"`score`: column {name!r} holds infinite values.")
    return values


def _codes(series: pd.Series) -> np.ndarray:
    codes, _ = pd.factorize(series, sort=True)
    return codes.astype(np.int64)


def read_long(df: Any, score: Any, object: Any, facets: Any, nested: Any = None) -> GData:
    """Read a long frame of scores (pandas, or an eager polars/pyarrow frame).

    Examples
    --------
    >>> df = pd.DataFrame({"p": [1, 1, 2, 2, 3, 3], "r": ["a", "b"] * 3,
    ...                    "y": [1.0, 2.0, 3.0, 5.0, 4.0, 4.0]})
    >>> g = read_long(df, "y", "p", ["r"])
    >>> g.scores.shape, g.balanced, g.design.notation
    ((3, 2), True, 'p × r')
    """
    if is_foreign_frame(df):
        df = to_pandas(df)
    if not isinstance(df, pd.DataFrame):
        raise TypeError(f"`data` must be a DataFrame in long form (one score per row); got "
                        f"{type(df).__name__}.")
    design = make_design(object, facets, nested)
    names = design.all_facets
    y = _score(_column(df, score, "score"), score)
    columns = {f: _column(df, f, "object" if f == object else "facets") for f in names}
    for f, col in columns.items():
        if col.isna().any():
            rows = np.flatnonzero(col.isna().to_numpy())[:5].tolist()
            raise ValueError(f"`{'object' if f == object else 'facets'}`: column {f!r} has "
                             f"missing labels (rows {rows}); every score needs its "
                             "object and the level of every facet.")
    notes: list[str] = []
    keep = ~np.isnan(y)
    dropped = int((~keep).sum())
    if dropped:
        notes.append(f"{dropped:,} {'row' if dropped == 1 else 'rows'} with a missing score "
                     "left out.")
    # global codes (a nested facet's level is a (parent level, label) pair) and codes
    # within the parent, parents first
    parent = design.parent
    order = sorted(names, key=lambda f: len(design.ancestors(f)))
    level: dict[str, np.ndarray] = {}
    within: dict[str, np.ndarray] = {}
    per_parent: dict[str, np.ndarray] = {}
    for f in order:
        codes = _codes(columns[f])
        if f not in parent:
            level[f] = within[f] = codes
            continue
        q = parent[f]
        pairs = level[q] * (int(codes.max()) + 1) + codes
        level[f], uniques = pd.factorize(pairs, sort=True)
        level[f] = level[f].astype(np.int64)
        parent_of = np.asarray(uniques) // (int(codes.max()) + 1)
        # rank of each level within its parent (levels sorted: parents ascending)
        first = np.searchsorted(parent_of, parent_of, side="left")
        rank = np.arange(parent_of.size) - first
        within[f] = rank[level[f]]
        per_parent[f] = np.bincount(parent_of, minlength=int(level[q].max()) + 1)
        labels = columns[f].nunique()
        if labels < parent_of.size:
            notes.append(f"Labels of {f!r} repeat across levels of {q!r}: each is read within "
                         f"its {q!r} ({parent_of.size} levels of {f!r} in all).")
    levels = {f: int(level[f].max()) + 1 for f in names}
    _check_levels(design, levels, per_parent, level)
    _check_crossing(design, level, levels)
    sizes = [int(within[f].max()) + 1 for f in design.facets]
    shape = (levels[object], *sizes)
    cell = np.ravel_multi_index(tuple(within[f] for f in names), shape)
    kept = cell[keep]
    counts = np.bincount(kept, minlength=math.prod(shape))
    if (counts > 1).any():
        where = np.unravel_index(int(np.flatnonzero(counts > 1)[0]), shape)
        raise ValueError(
            "`data`: some cells hold more than one score (e.g. the cell at codes "
            f"{tuple(int(i) for i in where)} of {list(names)!r} has {int(counts.max())}); "
            "a G study takes one score per object and combination of facet levels. "
            "Add the facet that tells the scores apart (an occasion, a replicate) to `facets`."
        )
    scores = np.full(math.prod(shape), np.nan)
    scores[kept] = y[keep]
    scores = scores.reshape(shape)
    exists = np.zeros(math.prod(shape[1:]), dtype=bool)
    exists[np.ravel_multi_index(tuple(within[f] for f in design.facets), shape[1:])] = True
    return GData(design, scores, exists.reshape(shape[1:]), levels, per_parent,
                 int(keep.sum()), tuple(notes))


def _check_levels(design: Design, levels: dict[str, int], per_parent: dict[str, np.ndarray],
                  level: dict[str, np.ndarray]) -> None:
    if levels[design.object] < 2:
        raise ValueError(f"`object`: {design.object!r} has {levels[design.object]} level; a "
                         "G study needs two or more objects of measurement.")
    parent = design.parent
    for f in design.facets:
        if f not in parent:
            if levels[f] < 2:
                raise ValueError(
                    f"`facets`: {f!r} has one level only; a facet needs two or more levels "
                    "for its variance to be estimated (drop it from `facets`).")
            continue
        q = parent[f]
        counts = per_parent[f][per_parent[f] > 0]
        if counts.max() < 2:
            reverse = _nested_in(level[q], level[f])
            hint = (f" The data nest {q!r} in {f!r} (each {q!r} occurs with one {f!r}), not "
                    f"{f!r} in {q!r}." if reverse else "")
            raise ValueError(
                f"`nested`: {f!r} has one level within each level of {q!r}, so it cannot be "
                f"nested in {q!r} (its variance is not separable).{hint}")


def _nested_in(a: np.ndarray, b: np.ndarray) -> bool:
    """Whether every level of `a` occurs with exactly one level of `b`, and `b` has two or
    more levels."""
    if b.max() < 1:
        return False
    seen = np.empty(int(a.max()) + 1, dtype=b.dtype)
    seen[a] = b  # one level of b for each level of a (the last row's)
    return bool(np.array_equal(seen[a], b))


def _check_crossing(design: Design, level: dict[str, np.ndarray], levels: dict[str, int]) -> None:
    """Refuse facets declared crossed that the data nest (each level of one occurs with one
    level of the other only)."""
    names = design.all_facets
    for a in names:
        for b in names:
            if a == b or b in design.ancestors(a) or a in design.ancestors(b):
                continue
            if levels[b] < 2 or not _nested_in(level[a], level[b]):
                continue
            if a == design.object:
                raise ValueError(
                    f"`facets`: each {a!r} (the object) occurs with one level of {b!r} only: "
                    f"the objects are nested in {b!r}, which this G study does not support "
                    f"(leave {b!r} out, or analyse each {b!r} separately).")
            if levels[a] < 2:
                continue
            raise ValueError(
                f"`facets`: {a!r} and {b!r} were declared crossed, but in the data each level "
                f"of {a!r} occurs with one level of {b!r} only ({a!r} is nested in {b!r}); "
                f"declare nested={{{a!r}: {b!r}}}.")


def multifacet_columns(df: Any) -> tuple[Any, list[Any], dict[Any, Any], Any] | None:
    """``(object, facets, nested, score)`` when `df` looks like the long data of a G study
    with two or more facets, else None.

    The score is a numeric column (one named score, rating, value or y first, then the
    one with the most distinct values) such that the other columns, labels without
    missing values, together identify each row (one score per cell); the object is the
    label column with the most levels that is not nested in another, on four or more
    rows each; a facet each of whose levels occurs with one level of another facet is
    nested in it. The cells (the facets' levels together) must recur, on two rows each
    on average, and data whose columns all hold numbers of one small scale are wide
    ratings (one column per rater), not long data.

    Examples
    --------
    >>> df = pd.DataFrame({"patient": [1, 1, 1, 1, 2, 2, 2, 2, 3, 3, 3, 3],
    ...                    "rater": ["a", "a", "b", "b"] * 3, "occasion": [1, 2] * 6,
    ...                    "score": [4.5, 5, 6, 5.5, 3, 3.5, 4, 4, 7, 6.5, 8, 7.5]})
    >>> multifacet_columns(df)
    ('patient', ['rater', 'occasion'], {}, 'score')
    >>> multifacet_columns(df[["patient", "rater", "score"]]) is None  # one facet
    True
    >>> wide = pd.DataFrame({f"rater{j}": [(i * j + i // 5) % 5 + 1 for i in range(12)]
    ...                      for j in range(1, 5)})
    >>> multifacet_columns(wide) is None  # four raters rating on one scale of 1 to 5
    True
    """
    if not isinstance(df, pd.DataFrame) or df.shape[1] < 4 or len(df) < 8:
        return None
    numeric = [c for c in df.columns if pd.api.types.is_numeric_dtype(df[c].dtype)
               and not pd.api.types.is_bool_dtype(df[c].dtype)]
    distinct = {c: df[c].nunique() for c in df.columns}
    if len(numeric) == df.shape[1] and _one_scale(df):
        return None  # wide ratings: every column a rater on the same scale
    named = ("score", "rating", "value", "y")
    candidates = sorted(numeric, key=lambda c: (str(c).lower() not in named, -distinct[c]))
    for score in candidates:  # the first whose other columns identify the rows
        labels = [c for c in df.columns if c != score]
        if not any(df[c].isna().any() for c in labels) and not df.duplicated(
                subset=labels).any():
            break
    else:
        return None
    if any(distinct[c] < 2 for c in labels):
        return None
    codes = {c: _codes(df[c]) for c in labels}
    parent = {a: b for a in labels for b in labels
              if a != b and distinct[b] < distinct[a] and _nested_in(codes[a], codes[b])}
    tops = [c for c in labels if c not in parent]
    if not tops:
        return None
    obj = max(tops, key=lambda c: distinct[c])
    if len(df) / distinct[obj] < 4:
        return None
    facets = [c for c in labels if c != obj]
    # the cells (facet levels together) recur across objects: at least two rows each
    # on average; in wide data read as long, nearly every row is a cell of its own
    if len(df) < 2 * len(df.drop_duplicates(subset=facets)):
        return None
    nested = {a: b for a, b in parent.items() if a != obj}
    return obj, facets, nested, score


def _one_scale(df: pd.DataFrame) -> bool:
    """Whether the numeric columns of `df` hold values of one small scale: together at
    most 10 values, of which each column takes at least half (wide ratings, not labels
    of facets, whose levels differ in number from the scores')."""
    values = [set(df[c].dropna().unique()) for c in df.columns]
    scale = set().union(*values)
    return len(scale) <= 10 and all(2 * len(v) >= len(scale) for v in values)


def gstudy_hint(df: Any, command: bool = False) -> str | None:
    """A message for a reliability report given long data with several facets: the G
    study call (`command`: the ``irr gstudy`` line) that analyses them; None otherwise.

    Examples
    --------
    >>> import irr
    >>> print(gstudy_hint(irr.datasets.load("brennan_3_2")))  # doctest: +NORMALIZE_WHITESPACE
    The data look like long data of a rating design with several facets (object 'Person';
    facets 'Task', 'Rater'; score 'Score'), not one row per subject with one column per
    rater. Analyse them with a G study: irr.gstudy(df, score='Score', object='Person',
    facets=['Task', 'Rater'], nested={'Rater': 'Task'}); or name the rater columns to
    report them as wide data.
    """
    found = multifacet_columns(df)
    if found is None:
        return None
    obj, facets, nested, score = found
    if command:
        call = (f"irr gstudy FILE --object {obj} --facets {' '.join(map(str, facets))} "
                f"--score {score}"
                + "".join(f" --nested {c}:{p}" for c, p in nested.items()))
        alternative = "or give --raters to report them as wide data."
    else:
        call = (f"irr.gstudy(df, score={score!r}, object={obj!r}, facets={facets!r}"
                + (f", nested={nested!r}" if nested else "") + ")")
        alternative = "or name the rater columns to report them as wide data."
    return (f"The data look like long data of a rating design with several facets "
            f"(object {obj!r}; facets {', '.join(map(repr, facets))}; score {score!r}), not "
            f"one row per subject with one column per rater. Analyse them with a G study: "
            f"{call}; {alternative}")
