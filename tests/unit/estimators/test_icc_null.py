"""Issue 20: the ICC's F test of H0: ICC = r0 (R irr's ``icc(..., r0=)``), ``null=``.

No published output of a test of r0 != 0 was found (R irr's manual prints the anxiety
example with r0 = 0 only: F(19, 39.7) = 1.83, p = .0543 for ICC(A,1)). The tests check:

- every form against McGraw & Wong (1996, Psychological Methods 1(1), 30-46, Table 8, as
  corrected in Psychological Methods 1(4), 390), written out here form by form from the
  mean squares of a two-way ANOVA computed here with plain numpy, and scipy.stats.f;
- the duality with the exact interval (one-way and consistency forms): at r0 equal to the
  lower end L of the 1 - 2 alpha interval, the one-sided p-value is alpha;
- r0 = 0 gives the test of ICC = 0 (the existing F(n - 1, (n - 1)(k - 1)) for absolute
  agreement, McGraw & Wong's df at rho0 = 0).
"""

import math

import pytest
from scipy import stats

import irr

ANXIETY = irr.datasets.load("anxiety")
X = ANXIETY.to_numpy(dtype=float)
AG = irr.Agreement.from_frame(ANXIETY)
FORMS = [("oneway", "agreement", "single"), ("oneway", "agreement", "average"),
         ("twoway", "consistency", "single"), ("twoway", "consistency", "average"),
         ("twoway", "agreement", "single"), ("twoway", "agreement", "average")]


def _mean_squares(x):
    n, k = x.shape
    grand = x.mean()
    ss_rows = k * ((x.mean(axis=1) - grand) ** 2).sum()
    ss_cols = n * ((x.mean(axis=0) - grand) ** 2).sum()
    ss_total = ((x - grand) ** 2).sum()
    ss_error = ss_total - ss_rows - ss_cols
    ss_within = ss_total - ss_rows
    return (ss_rows / (n - 1), ss_cols / (k - 1), ss_error / ((n - 1) * (k - 1)),
            ss_within / (n * (k - 1)))


def mcgraw_wong_table8(x, model, type, unit, r0):
    """(F, df1, df2, p) of H0: ICC = r0 as McGraw & Wong's Table 8 gives each form."""
    n, k = x.shape
    msr, msc, mse, msw = _mean_squares(x)
    if model == "oneway":
        f = msr / msw * ((1 - r0) / (1 + (k - 1) * r0) if unit == "single" else (1 - r0))
        df2 = n * (k - 1)
    elif type == "consistency":
        f = msr / mse * ((1 - r0) / (1 + (k - 1) * r0) if unit == "single" else (1 - r0))
        df2 = (n - 1) * (k - 1)
    else:
        if unit == "single":  # Case 2A / 3A, ICC(A,1)
            a = k * r0 / (n * (1 - r0))
            b = 1 + k * r0 * (n - 1) / (n * (1 - r0))
        else:  # ICC(A,k)
            a = r0 / (n * (1 - r0))
            b = 1 + r0 * (n - 1) / (n * (1 - r0))
        f = msr / (a * msc + b * mse)
        df2 = (a * msc + b * mse) ** 2 / ((a * msc) ** 2 / (k - 1)
                                          + (b * mse) ** 2 / ((n - 1) * (k - 1)))
    return f, n - 1, df2, stats.f.sf(f, n - 1, df2)


@pytest.mark.parametrize("form", FORMS, ids=["-".join(f) for f in FORMS])
@pytest.mark.parametrize("r0", [0.0, 0.1, 0.3, 0.6, -0.2])
def test_every_form_against_mcgraw_wong_table8(form, r0):
    res = AG.icc(*form, null=r0)
    f, df1, df2, p = mcgraw_wong_table8(X, *form, r0)
    assert res.statistic == pytest.approx(f, rel=1e-10)
    assert res.df1 == df1
    assert res.df2 == pytest.approx(df2, rel=1e-10)
    assert res.pvalue == pytest.approx(p, rel=1e-8)
    assert res.null_value == r0
    assert res.alternative == "greater"
    same = irr.icc(X, *form, null=r0)  # the array form
    assert same.pvalue == pytest.approx(res.pvalue, rel=1e-12)


@pytest.mark.parametrize("form", FORMS[:4], ids=["-".join(f) for f in FORMS[:4]])
@pytest.mark.parametrize("alpha", [0.05, 0.025])
def test_duality_with_the_exact_interval(form, alpha):
    lower = AG.icc(*form, confidence_level=1 - 2 * alpha).ci.low
    assert AG.icc(*form, null=lower).pvalue == pytest.approx(alpha, rel=1e-8)


def test_agreement_forms_use_satterthwaite_df_at_r0():
    res = AG.icc("twoway", "agreement", "single", null=0.3)
    assert res.df2 != res.df_ci  # the interval's df are at the estimate, the test's at r0
    assert not float(res.df2).is_integer()
    zero = AG.icc("twoway", "agreement", "single")
    assert (zero.df1, zero.df2) == (19, 38)  # McGraw & Wong's df at rho0 = 0
    assert AG.icc("twoway", "agreement", "single", null=0.0).pvalue == zero.pvalue
    assert zero.statistic == pytest.approx(1.83, abs=0.005)  # R irr's manual: F = 1.83


def test_average_test_is_the_single_test_at_the_stepped_down_value():
    k = 3
    for model, type in [("oneway", "agreement"), ("twoway", "consistency"),
                        ("twoway", "agreement")]:
        average = AG.icc(model, type, "average", null=0.6)
        single = AG.icc(model, type, "single", null=0.6 / (k - (k - 1) * 0.6))
        assert average.statistic == pytest.approx(single.statistic, rel=1e-12)
        assert average.pvalue == pytest.approx(single.pvalue, rel=1e-12)


def test_null_is_stated():
    res = AG.icc("twoway", "agreement", "single", null=0.3)
    text = res.summary().as_text()
    assert "H0:" in text
    assert "ICC(A,1) = 0.3" in text
    sentence = res.report()
    assert "(H0: ICC(A,1) = .30)" in sentence
    assert f"F(19, {res.df2:.2f})" in sentence
    assert res.to_frame()["null_value"].iloc[0] == 0.3
    assert any("Table 8" in note and "= 0.3" in note for note in res.notes)
    assert "H0" not in AG.icc().report(test=True)


@pytest.mark.parametrize(("form", "r0", "match"), [
    (("twoway", "agreement", "single"), 1.0, r"inside the range of ICC\(A,1\), \(-0.5, 1\)"),
    (("oneway", "agreement", "single"), -0.5, r"\(-0.5, 1\); got -0.5"),
    (("twoway", "consistency", "average"), 1.2, r"ICC\(C,k\), \(-inf, 1\); got 1.2"),
])
def test_bad_r0(form, r0, match):
    with pytest.raises(ValueError, match=match):
        AG.icc(*form, null=r0)


def test_negative_r0_where_table8_has_no_test():
    # ICC(A,k) at r0 = -10: a MSC + b MSE = -0.0215 < 0 on anxiety (MSC 4.817, MSE 1.448)
    with pytest.warns(irr.DegenerateDataWarning, match=r"ICC\(A,k\) = -10 is undefined"):
        res = AG.icc("twoway", "agreement", "average", null=-10.0)
    assert math.isnan(res.statistic)
    assert math.isnan(res.pvalue)
    res = AG.icc("twoway", "agreement", "average", null=-3.0)  # 0.2357 > 0: defined
    f, _, df2, p = mcgraw_wong_table8(X, "twoway", "agreement", "average", -3.0)
    assert (res.statistic, res.df2, res.pvalue) == pytest.approx((f, df2, p), rel=1e-10)
