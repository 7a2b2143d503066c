"""Bundled data sets: shapes, column types, citations."""

import pandas as pd
import pytest

import irr


@pytest.mark.parametrize(
    ("name", "shape"),
    [("diagnoses", (30, 6)), ("anxiety", (20, 3)), ("video", (20, 4)), ("vision", (7477, 2)),
     ("cac_raw4raters", (12, 4)), ("pef", (17, 5))],
)
def test_shapes(name, shape):
    assert irr.datasets.load(name).shape == shape
    assert irr.datasets.describe(name).citation


def test_column_types():
    vision = irr.datasets.load("vision")
    assert vision["r.eye"].cat.ordered
    assert list(vision["r.eye"].cat.categories) == ["1st grade", "2nd grade", "3rd grade", "4th Grade"]
    diagnoses = irr.datasets.load("diagnoses")
    assert not diagnoses["rater1"].cat.ordered
    assert len(diagnoses["rater1"].cat.categories) == 5
    assert pd.api.types.is_integer_dtype(irr.datasets.load("anxiety")["rater1"])
    cac = irr.datasets.load("cac_raw4raters")
    assert cac.isna().sum().sum() == 7  # 41 of the 48 cells are rated


def test_vision_table_matches_stuart_1953():
    # Stuart (1953), Table 1: unaided distance vision of 7477 women.
    table = irr.Agreement.from_frame(irr.datasets.load("vision")).table.to_numpy()
    assert table.tolist() == [
        [1520, 266, 124, 66],
        [234, 1512, 432, 78],
        [117, 362, 1772, 205],
        [36, 82, 179, 492],
    ]


def test_unknown_name():
    with pytest.raises(ValueError, match=r"Unknown data set 'x'; bundled ones are diagnoses"):
        irr.datasets.load("x")
