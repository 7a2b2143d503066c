"""Classic inter-rater reliability data sets, bundled with their citations.

``load(name)`` returns a DataFrame with one row per subject and one column per rater:
ordinal scales as ordered Categoricals, numeric ratings as numbers, nominal labels as
unordered Categoricals, missing ratings as missing values. ``describe(name)`` gives the
source and what the data hold.

Examples
--------
>>> import irr
>>> sorted(irr.datasets.names())
['anxiety', 'cac_raw4raters', 'diagnoses', 'pef', 'video', 'vision']
>>> irr.datasets.load("vision").shape
(7477, 2)
"""

from __future__ import annotations

from dataclasses import dataclass
from importlib import resources

import pandas as pd

__all__ = ["Dataset", "describe", "load", "names"]


@dataclass(frozen=True)
class Dataset:
    """A bundled data set: its name, content, citation and how its columns are typed.

    Examples
    --------
    >>> import irr
    >>> info = irr.datasets.describe("vision")
    >>> info.name, info.order
    ('vision', ('1st grade', '2nd grade', '3rd grade', '4th Grade'))
    >>> info.citation.startswith("Stuart")
    True
    """

    name: str
    description: str
    citation: str
    published: str = ""
    order: tuple[str, ...] | None = None
    nominal: bool = False
    #: Columns that identify subjects, not raters.
    id_columns: tuple[str, ...] = ()
    #: How to use the columns beyond one rater per column (replicates, long form).
    layout: str = ""
    #: Rating columns named ``rater_k``: the k-th reading of one rater or method.
    replicates: bool = False


_DATASETS = {
    d.name: d
    for d in (
        Dataset(
            "diagnoses",
            "Psychiatric diagnoses of 30 patients by 6 raters (5 nominal categories).",
            "Fleiss, J. L. (1971). Measuring nominal scale agreement among many raters. "
            "Psychological Bulletin, 76, 378-382. https://doi.org/10.1037/h0031619",
            "Fleiss' kappa 0.430 (Fleiss 1971).",
            nominal=True,
        ),
        Dataset(
            "anxiety",
            "Anxiety ratings 1 (not anxious) to 6 (extremely anxious) of 20 subjects by 3 "
            "raters (artificial data).",
            "Gamer, M., Lemon, J., Fellows, I., & Singh, P. (2019). irr: Various Coefficients "
            "of Interrater Reliability and Agreement. R package version 0.84.1.",
        ),
        Dataset(
            "video",
            "Credibility ratings 1 to 6 of 20 videotaped subjects by 4 raters (artificial "
            "data, low variance).",
            "Gamer, M., Lemon, J., Fellows, I., & Singh, P. (2019). irr: Various Coefficients "
            "of Interrater Reliability and Agreement. R package version 0.84.1.",
        ),
        Dataset(
            "vision",
            "Unaided distance vision grade of the right (r.eye) and left (l.eye) eye of 7477 "
            "women; ordered grades 1st < 2nd < 3rd < 4th.",
            "Stuart, A. (1953). The estimation and comparison of strengths of association in "
            "contingency tables. Biometrika, 40, 105-110. https://doi.org/10.2307/2333101",
            order=("1st grade", "2nd grade", "3rd grade", "4th Grade"),
        ),
        Dataset(
            "cac_raw4raters",
            "Ratings 1 to 5 of 12 units by 4 raters, with missing ratings (Krippendorff's "
            "reliability data example).",
            "Gwet, K. L. (2014). Handbook of Inter-Rater Reliability, 4th ed., p. 120. "
            "Advanced Analytics. Also Krippendorff, K. (2011). Computing Krippendorff's "
            "alpha-reliability. University of Pennsylvania.",
            "Krippendorff's alpha 0.743 nominal, 0.815 ordinal, 0.849 interval, 0.797 ratio.",
        ),
        Dataset(
            "pef",
            "Peak expiratory flow rate (l/min) of 17 subjects, read twice with a Wright and "
            "twice with a mini Wright peak flow meter.",
            "Bland, J. M., & Altman, D. G. (1986). Statistical methods for assessing "
            "agreement between two methods of clinical measurement. Lancet, i(8476), "
            "307-310, Table 1. https://doi.org/10.1016/S0140-6736(86)90837-8",
            "First readings, Wright - mini: mean difference -2.1 l/min, SD 38.8, limits "
            "-79.7 to 75.5 l/min (mean -+ 2 SD; Bland & Altman 1986).",
            id_columns=("subject",),
            layout="Column subject identifies the subjects; wright_1, wright_2 are the Wright "
            "meter's readings and mini_1, mini_2 the mini Wright's. Long form for the "
            "replicate analyses: load('pef', form='long') (columns subject, rater, "
            "replicate, rating).",
            replicates=True,
        ),
    )
}


def names() -> list[str]:
    """The names of the bundled data sets.

    Examples
    --------
    >>> import irr
    >>> irr.datasets.names()
    ['diagnoses', 'anxiety', 'video', 'vision', 'cac_raw4raters', 'pef']
    """
    return list(_DATASETS)


def _get(name: str) -> Dataset:
    if name not in _DATASETS:
        raise ValueError(f"Unknown data set {name!r}; bundled ones are {', '.join(_DATASETS)}.")
    return _DATASETS[name]


def describe(name: str) -> Dataset:
    """The description and citation of a bundled data set.

    Parameters
    ----------
    name : str
        The data set's name (:func:`names`).

    Examples
    --------
    >>> print(describe("diagnoses").published)
    Fleiss' kappa 0.430 (Fleiss 1971).
    """
    return _get(name)


def load(name: str, form: str = "wide") -> pd.DataFrame:
    """Load a bundled data set as a DataFrame.

    Parameters
    ----------
    name : str
        One of :func:`names`.
    form : {'wide', 'long'}, default 'wide'
        'wide': one row per subject, one column per rater (and any identifier column).
        'long': one row per rating, columns ``subject`` (the identifier column, or the
        row number from 1), ``rater``, ``replicate`` (for data sets whose columns are
        numbered readings ``rater_k``, such as ``pef``) and ``rating``; missing ratings
        are left out. It is what :meth:`irr.Agreement.from_long` and
        :func:`irr.by` read with ``subject="subject", rater="rater", rating="rating"``.

    Examples
    --------
    >>> df = load("diagnoses")
    >>> df.shape
    (30, 6)
    >>> df["rater1"].cat.categories[0], df["rater1"].cat.ordered
    ('1. Depression', False)

    The peak-flow readings in long form, two meters read twice each:

    >>> long = load("pef", form="long")
    >>> long.head(3)
       subject   rater  replicate  rating
    0        1  wright          1     494
    1        1  wright          2     490
    2        1    mini          1     512
    >>> long.shape
    (68, 4)
    """
    if form not in ("wide", "long"):
        raise ValueError(f"`form` must be 'wide' or 'long'; got {form!r}.")
    frame = _wide(name)
    return frame if form == "wide" else _long(frame, _get(name))


def _long(frame: pd.DataFrame, info: Dataset) -> pd.DataFrame:
    """`frame` (wide) as one row per rating, subject by subject in the columns' order."""
    ids = list(info.id_columns)
    if ids:
        frame = frame.rename(columns={ids[0]: "subject"})
    else:
        frame = frame.assign(subject=range(1, len(frame) + 1))
    raters = [c for c in frame.columns if c != "subject" and c not in ids]
    long = frame.melt(id_vars="subject", value_vars=raters, var_name="rater",
                      value_name="rating")
    long["column"] = pd.Categorical(long["rater"], categories=raters, ordered=True)
    long = long.sort_values(["subject", "column"], kind="stable").drop(columns="column")
    if info.replicates:
        parts = long["rater"].str.rsplit("_", n=1, expand=True)
        long = long.assign(rater=parts[0], replicate=parts[1].astype(int))
        long = long[["subject", "rater", "replicate", "rating"]]
    return long.dropna(subset=["rating"]).reset_index(drop=True)


def _wide(name: str) -> pd.DataFrame:
    """The data set as stored: one row per subject, one column per rater."""
    info = _get(name)
    with resources.files(__package__).joinpath(f"data/{name}.csv").open("rb") as handle:
        frame = pd.read_csv(handle)
    if info.order is not None:
        dtype = pd.CategoricalDtype(list(info.order), ordered=True)
        frame = frame.astype(dtype)
    elif info.nominal:
        labels = sorted(pd.unique(frame.stack().dropna()))
        frame = frame.astype(pd.CategoricalDtype(labels, ordered=False))
    return frame
