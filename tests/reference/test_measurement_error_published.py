"""Within-subject SD and repeatability of each method against Bland & Altman (1999).

Bland, J. M., & Altman, D. G. (1999). Measuring agreement in method comparison studies.
Statistical Methods in Medical Research, 8, 135-160. Table 1 (pp. 137-138): systolic blood
pressure (mmHg) of 85 subjects, read three times in quick succession by observer J, observer
R and the semi-automatic machine S; ``data/bland_altman_1999_sbp.csv`` (one row per subject,
columns J1..S3). Section 5.1 (p. 151) gives the within-subject variances from the one-way
analysis of variance of each method's replicates: 37.408 for J and 83.141 for S (170 df
each); p. 152 the bias J - S of the subject means, -15.62 mmHg, the SD of the difference of
single readings, 20.95 mmHg, and the limits of agreement -56.68 to 25.44 mmHg.

The table was transcribed from the paper; the transcription used here is the one of Erik
Huizinga's MATLAB demonstration of the paper (github.com/erikhuizinga/Bland-Altman-Analysis,
``bpdata.mat``, only its numbers). That it is Table 1 is checked below: every published
statistic of section 5.1 is reproduced from it to the printed digits, by numpy as well.
"""

from __future__ import annotations

import math
import pathlib

import numpy as np
import pandas as pd
import pytest
from scipy import stats

import irr

DATA = pathlib.Path(__file__).parent / "data" / "bland_altman_1999_sbp.csv"
METHODS = ("J", "R", "S")


def _wide() -> pd.DataFrame:
    return pd.read_csv(DATA)


def _long() -> pd.DataFrame:
    wide = _wide()
    long = wide.melt(id_vars="subject", var_name="reading", value_name="sbp")
    long["observer"] = long["reading"].str[0]
    long["replicate"] = long["reading"].str[1].astype(int)
    return long.drop(columns="reading")


def _agreement() -> irr.Agreement:
    return irr.Agreement.from_long(_long(), subject="subject", rater="observer",
                                   rating="sbp", replicate="replicate")


def test_table_1_is_the_published_data():
    wide = _wide()
    assert wide.shape == (85, 10)
    # section 5.1, p. 151: within-subject variances of J and S (numpy, from the formula)
    for method, published in (("J", 37.408), ("S", 83.141)):
        x = wide[[f"{method}{j}" for j in (1, 2, 3)]].to_numpy(float)
        within = ((x - x.mean(axis=1, keepdims=True)) ** 2).sum() / (85 * 2)
        assert round(within, 3) == pytest.approx(published, abs=1e-9)


def test_within_subject_sd_of_each_method_matches_section_5_1():
    res = _agreement().measurement_error(units="mmHg", n_resamples=99)
    assert res.df_within_by_rater == {"J": 170.0, "R": 170.0, "S": 170.0}
    # published (p. 151): s_w^2 = 37.408 (J), 83.141 (S)
    assert round(res.quantity("s_w", "J").estimate ** 2, 3) == 37.408
    assert round(res.quantity("s_w", "S").estimate ** 2, 3) == 83.141
    wide = _wide()
    z = stats.norm.ppf(0.975)
    for method in METHODS:  # independent: numpy and scipy from the formulas
        x = wide[[f"{method}{j}" for j in (1, 2, 3)]].to_numpy(float)
        df = x.shape[0] * (x.shape[1] - 1)  # n(m - 1)
        s_w = math.sqrt(((x - x.mean(axis=1, keepdims=True)) ** 2).sum() / df)
        low = s_w * math.sqrt(df / stats.chi2.ppf(0.975, df))
        high = s_w * math.sqrt(df / stats.chi2.ppf(0.025, df))
        row = res.quantity("s_w", method)
        assert row.estimate == pytest.approx(s_w, rel=1e-12)
        assert (row.ci.low, row.ci.high) == pytest.approx((low, high), rel=1e-10)
        rep = res.quantity("repeatability", method)
        assert rep.estimate == pytest.approx(z * math.sqrt(2) * s_w, rel=1e-12)
        assert (rep.ci.low, rep.ci.high) == pytest.approx(
            (z * math.sqrt(2) * low, z * math.sqrt(2) * high), rel=1e-10)
    # the pooled SD pools the three: sum of squares over 3 x 170 df
    pooled = math.sqrt(sum(res.quantity("s_w", m).estimate ** 2 for m in METHODS) / 3)
    assert res.quantity("s_w").estimate == pytest.approx(pooled, rel=1e-12)
    # Bland & Altman's 2.77 s_w, to its three digits: J 2.77 x 6.116 = 16.9 mmHg
    for method in METHODS:
        ratio = res.quantity("repeatability", method).estimate / res.quantity(
            "s_w", method).estimate
        assert round(ratio, 2) == 2.77


def test_limits_of_single_readings_match_section_5_1():
    ag = _agreement()
    res = ag.limits_of_agreement("J", "S", replicates="constant")
    # p. 151-152: bias -15.62, SD of single-reading differences 20.95, limits -56.68, 25.44
    assert round(res.estimate, 2) == -15.62
    assert round(res.sd, 2) == 20.95
    assert (round(res.lower, 2), round(res.upper, 2)) == (-56.68, 25.44)
    # the points of its plot are the 85 differences of subject means, whose SD is smaller
    assert len(res.differences) == 85
    assert float(np.std(res.differences, ddof=1)) < res.sd
