"""Cronbach's alpha against published values and pingouin.

Sources:

- pingouin 0.5 documentation of ``pingouin.cronbach_alpha`` (its Examples, printed to 3
  decimals for the interval): the binary data set ``cronbach_wide_missing`` (12 subjects,
  11 items, 4 missing values) after listwise deletion, 0.8016949152542373 (psych's
  ``alpha(data, use="complete.obs")``, the docs say), and after imputing the item medians,
  0.7380191693290734, [0.447, 0.911]; the Likert data set ``cronbach_alpha`` (15 subjects,
  10 items, long form), 0.5917188485995826, [0.195, 0.84].
- pingouin's ``cronbach_alpha`` run here on simulated data (a black box: the estimate and
  Feldt's interval, which pingouin rounds to 3 decimals).
- Feldt, Woodruff & Salih (1987, eq. 5) for the interval and McGraw & Wong (1996, Table 7)
  for ICC(C,k), which alpha is on complete data.

Missing data: ours is listwise (the subjects rated by every rater; psych's
``use="complete.obs"``, pingouin's ``nan_policy="listwise"``), not pingouin's default
``"pairwise"`` (covariances of different sets of subjects, which make no ICC(C,k) and no
Feldt interval of one sample). With listwise deletion pingouin keeps the df of Feldt's
interval at the number of rows before deletion (n = 12 on ``cronbach_wide_missing``, of
which 9 are complete); ours uses the subjects the estimate uses, so only the estimate is
compared there, and pingouin's printed interval is checked to be Feldt's at n = 12.
"""

import numpy as np
import pandas as pd
import pingouin as pg
import pytest
from scipy.stats import f as f_dist

import irr


def feldt(alpha, n, k, level=0.95):
    """Feldt's interval, [1 - (1 - a) F_{1-g/2}, 1 - (1 - a) F_{g/2}] on (n - 1, (n - 1)(k - 1))
    df (Feldt, Woodruff & Salih 1987, eq. 5)."""
    g = 1 - level
    df1, df2 = n - 1, (n - 1) * (k - 1)
    return (1 - (1 - alpha) * f_dist.ppf(1 - g / 2, df1, df2),
            1 - (1 - alpha) * f_dist.ppf(g / 2, df1, df2))


def test_pingouin_documented_likert_example():
    long = pg.read_dataset("cronbach_alpha")
    wide = long.pivot(index="Subj", columns="Items", values="Scores")
    res = irr.cronbach_alpha(wide)
    assert res.estimate == pytest.approx(0.5917188485995826, abs=1e-12)
    assert (res.ci.low, res.ci.high) == pytest.approx((0.195, 0.84), abs=5e-4)
    assert (res.n_subjects, res.df1, res.df2) == (15, 14, 126)


def test_pingouin_documented_binary_example_imputed():
    data = pg.read_dataset("cronbach_wide_missing")
    res = irr.cronbach_alpha(data.fillna(data.median()))
    assert res.estimate == pytest.approx(0.7380191693290734, abs=1e-12)
    assert (res.ci.low, res.ci.high) == pytest.approx((0.447, 0.911), abs=5e-4)


def test_pingouin_documented_binary_example_listwise():
    data = pg.read_dataset("cronbach_wide_missing")
    res = irr.cronbach_alpha(data)
    assert res.estimate == pytest.approx(0.8016949152542373, abs=1e-12)
    assert (res.n_subjects, res.n_missing) == (9, 3)
    # Feldt's interval of the 9 subjects used; pingouin's [0.581, 0.933] is Feldt's at the
    # 12 rows before deletion
    assert (res.ci.low, res.ci.high) == pytest.approx(feldt(res.estimate, 9, 11), abs=1e-12)
    assert feldt(0.8016949152542373, 12, 11) == pytest.approx((0.581, 0.933), abs=5e-4)
    # pingouin's default (pairwise covariances) is another estimate: 0.7327 there
    assert res.estimate != pytest.approx(0.732660835214447, abs=1e-3)


def _simulated(n, k, seed, integer=False):
    rng = np.random.default_rng(seed)
    x = rng.normal(size=(n, 1)) + rng.normal(scale=1.5, size=(n, k)) + np.arange(k)
    if integer:
        x = np.clip(np.round(x + 3), 1, 7)
    return pd.DataFrame(x, columns=[f"item{j}" for j in range(1, k + 1)])


@pytest.mark.parametrize(("n", "k", "seed", "integer"), [
    (10, 2, 0, False), (25, 3, 1, False), (60, 5, 2, True), (200, 8, 3, False),
    (40, 12, 4, True),
])
@pytest.mark.parametrize("level", [0.95, 0.9])
def test_pingouin_on_simulated_data(n, k, seed, integer, level):
    data = _simulated(n, k, seed, integer)
    alpha, ci = pg.cronbach_alpha(data=data, ci=level)
    res = irr.cronbach_alpha(data, confidence_level=level)
    assert res.estimate == pytest.approx(alpha, abs=1e-12)
    assert (res.ci.low, res.ci.high) == pytest.approx(tuple(ci), abs=5e-4)
    assert (res.ci.low, res.ci.high) == pytest.approx(feldt(alpha, n, k, level), abs=1e-10)


def test_pingouin_listwise_with_missing_values():
    data = _simulated(50, 4, 5)
    data.iloc[[1, 7, 20], [0, 2, 3]] = np.nan
    alpha, _ = pg.cronbach_alpha(data=data, nan_policy="listwise")
    res = irr.cronbach_alpha(data)
    assert res.estimate == pytest.approx(alpha, abs=1e-12)
    assert (res.n_subjects, res.n_missing) == (47, 3)


@pytest.mark.parametrize(("n", "k", "seed"), [(20, 3, 0), (45, 6, 1)])
def test_alpha_is_icc_ck_on_complete_data(n, k, seed):
    data = _simulated(n, k, seed)
    res = irr.cronbach_alpha(data)
    icc = irr.icc(data, "twoway", "consistency", "average")
    assert res.estimate == pytest.approx(icc.estimate, abs=1e-12)
    assert res.statistic == pytest.approx(icc.statistic, abs=1e-9)
    assert res.pvalue == pytest.approx(icc.pvalue, abs=1e-12)
    assert (res.ci.low, res.ci.high) == pytest.approx((icc.ci.low, icc.ci.high), abs=1e-12)
