"""``irr.datasets.load(name, form="long")``: one row per rating, the same data as the wide
form (every statistic read from it equals the wide one's)."""

import numpy as np
import pandas as pd
import pytest

import irr


@pytest.mark.parametrize("name", ["diagnoses", "anxiety", "video", "vision", "cac_raw4raters"])
def test_long_form_gives_the_wide_statistics(name):
    wide = irr.datasets.load(name)
    long = irr.datasets.load(name, form="long")
    assert list(long.columns) == ["subject", "rater", "rating"]
    assert len(long) == int(wide.notna().sum().sum())  # missing ratings left out
    from_wide = irr.Agreement.from_frame(wide)
    from_long = irr.Agreement.from_long(long, subject="subject", rater="rater",
                                        rating="rating")
    assert sorted(from_long.raters) == sorted(from_wide.raters)  # first appearance in long
    for method in ("fleiss_kappa", "gwet_ac", "percent_agreement"):
        assert getattr(from_long, method)().estimate == pytest.approx(
            getattr(from_wide, method)().estimate, rel=1e-12, abs=1e-15)
    assert from_long.krippendorff_alpha().estimate == pytest.approx(
        from_wide.krippendorff_alpha().estimate, rel=1e-12)


def test_pef_long_form_has_methods_and_replicates():
    wide = irr.datasets.load("pef")
    long = irr.datasets.load("pef", form="long")
    assert list(long.columns) == ["subject", "rater", "replicate", "rating"]
    assert long.shape == (68, 4)
    assert sorted(long["rater"].unique()) == ["mini", "wright"]
    assert sorted(long["replicate"].unique()) == [1, 2]
    # each reading where the wide frame has it
    for (rater, replicate), rows in long.groupby(["rater", "replicate"]):
        column = wide.set_index("subject")[f"{rater}_{replicate}"]
        np.testing.assert_array_equal(rows.set_index("subject")["rating"].sort_index(),
                                      column.sort_index())
    ag = irr.Agreement.from_long(long, subject="subject", rater="rater", rating="rating",
                                 replicate="replicate", continuous=True)
    first = long[long["replicate"] == 1]
    loa = irr.limits_of_agreement(wide["wright_1"], wide["mini_1"])
    pair = irr.Agreement.from_long(first, subject="subject", rater="rater", rating="rating",
                                   continuous=True).limits_of_agreement()
    assert pair.estimate == pytest.approx(loa.estimate, rel=1e-12)  # Bland & Altman's -2.1
    assert round(loa.estimate, 1) == -2.1
    assert ag.inter_intra_reliability().estimate == pytest.approx(0.9475, abs=5e-5)


def test_form_is_checked():
    with pytest.raises(ValueError, match="`form` must be 'wide' or 'long'; got 'tall'"):
        irr.datasets.load("pef", form="tall")
    assert isinstance(irr.datasets.load("pef", form="wide"), pd.DataFrame)
