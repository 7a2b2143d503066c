"""Hostile input everywhere data enters: each case raises a clear error or gives the right number.

Errors are ValueError/TypeError naming the argument and echoing the offending values;
never a crash, a hang, an allocation that cannot fit, or a silently wrong number.
"""

import io
import math
import time
import tracemalloc
import warnings
from fractions import Fraction

import numpy as np
import pandas as pd
import pytest

import irr
from irr import DegenerateDataWarning
from irr._measurements import Measurements
from tests.support.exact_formulas import exact_kappa

I64_MAX = np.iinfo(np.int64).max
I64_MIN = np.iinfo(np.int64).min
long_df = pd.DataFrame({"s": [1, 1, 2, 2], "r": ["a", "b", "a", "b"], "v": [1, 2, 2, 2]})
empty_long = pd.DataFrame({"s": [], "r": [], "v": []})



def _sparse_crowd():
    """3,000 items, each rated by raters i and i + 1 (mod 3,000): a sparse design.

    Items alternate: even items get labels (0, 0) or (1, 1) in turn (agree), odd items
    (0, 1) or (1, 0) (disagree); every category has half the ratings.
    """
    n = 3000
    item = np.repeat(np.arange(n), 2)
    rater = np.column_stack([np.arange(n), (np.arange(n) + 1) % n]).ravel()
    pattern = np.array([[0, 0], [0, 1], [1, 1], [1, 0]])
    label = pattern[np.arange(n) % 4].ravel()
    df = pd.DataFrame({"s": item, "r": [f"r{i}" for i in rater], "v": label})
    return irr.Agreement.from_long(df, subject="s", rater="r", rating="v")


CASES = [
    # -- empty input and too few subjects ----------------------------------------------
    ("empty", lambda: irr.Agreement([], []), ValueError, r"`rater_a` is empty"),
    ("empty array", lambda: irr.Agreement(np.array([]), np.array([])), ValueError,
     r"`rater_a` is empty"),
    ("one subject", lambda: irr.Agreement([1], [2]), ValueError,
     r"`rater_a` has a single subject; agreement needs at least two"),
    ("frame empty", lambda: irr.Agreement.from_frame(pd.DataFrame({"a": [], "b": []})),
     ValueError, r"`a` is empty"),
    ("frame one subject", lambda: irr.Agreement.from_frame(pd.DataFrame({"a": [1], "b": [2]})),
     ValueError, r"`a` has a single subject"),
    ("long empty", lambda: irr.Agreement.from_long(empty_long, subject="s", rater="r", rating="v"),
     ValueError, r"`df` is empty: there are no ratings"),
    ("array no rows", lambda: irr.Agreement.from_array(np.zeros((0, 3))), ValueError,
     r"`x` has no rows"),
    ("array one subject", lambda: irr.Agreement.from_array([[1, 2]]), ValueError,
     r"`rater1` has a single subject"),
    ("counts empty", lambda: irr.Agreement.from_counts(np.zeros((0, 3))), ValueError,
     r"`counts` is empty; got shape \(0, 3\)"),
    ("counts one subject", lambda: irr.Agreement.from_counts([[1, 1]]).fleiss_kappa(), ValueError,
     r"Fleiss' kappa needs at least two subjects with two or more ratings; these data have 1"),
    ("table empty", lambda: irr.Agreement.from_table(np.zeros((0, 0))), ValueError,
     r"`table` is empty"),
    ("table all zero", lambda: irr.Agreement.from_table([[0, 0], [0, 0]]), ValueError,
     r"`table` has no subjects: every count is zero"),
    ("cohen empty", lambda: irr.cohen_kappa([], []), ValueError, r"`rater_a` is empty"),
    ("qwk empty", lambda: irr.quadratic_weighted_kappa([], []), ValueError,
     r"`rater_a` must be 1-D|`rater_a` is empty|`rater_a` must hold integer ratings"),
    ("alpha no units", lambda: irr.krippendorff_alpha(np.zeros((0, 2))), ValueError,
     r"Krippendorff's alpha needs at least two units \(subjects\); got 0"),
    ("alpha one unit", lambda: irr.krippendorff_alpha([[1, 2]]), ValueError,
     r"Krippendorff's alpha needs at least two units \(subjects\); got 1"),
    ("icc empty", lambda: irr.icc(np.zeros((0, 2))), ValueError,
     r"The ICC needs at least two subjects with complete ratings; got 0"),
    ("icc one subject", lambda: irr.icc([[1, 2]]), ValueError,
     r"The ICC needs at least two subjects with complete ratings; got 1"),
    ("continuous_kappa empty", lambda: irr.continuous_kappa([], []), ValueError,
     r"`y_true` must not be empty"),
    ("error_rate n=0", lambda: irr.error_rate_test(0, 0, 0.1), ValueError,
     r"`n` must be at least 1; got 0"),
    # -- length mismatch ----------------------------------------------------------------
    ("length", lambda: irr.Agreement([1, 2, 3], [1, 2]), ValueError,
     r"All raters must rate the same subjects: `rater_a` has 3, `rater_b` has 2 ratings"),
    ("length third rater", lambda: irr.Agreement([1, 2], [1, 2], [1]), ValueError,
     r"`more_raters\[0\]` has 1 ratings"),
    ("cohen length", lambda: irr.cohen_kappa([1, 2, 3], [1, 2]), ValueError,
     r"`rater_a` has 3, `rater_b` has 2 ratings"),
    ("qwk length", lambda: irr.quadratic_weighted_kappa([1, 2, 3], [1, 2]), ValueError,
     r"`rater_a` has 3 ratings but `rater_b` has 2"),
    ("mcnemar length", lambda: irr.mcnemar([1, 2, 1], [1, 2]), ValueError,
     r"`rater_a` has 3, `rater_b` has 2 ratings"),
    ("continuous_kappa length", lambda: irr.continuous_kappa([1, 2, 3], [1, 2]), ValueError,
     r"`y_true` and `y_pred` must have the same length; got 3 and 2"),
    # -- wrong dimensionality -------------------------------------------------------------
    ("3-D rater", lambda: irr.Agreement(np.zeros((2, 2, 2)), [1, 2]), ValueError,
     r"`rater_a` must be 1-D \(one rater's ratings\); got an array of shape \(2, 2, 2\)"),
    ("nested list", lambda: irr.Agreement([[1], [2]], [1, 2]), ValueError,
     r"`rater_a` must be 1-D \(one rater's ratings\); got an array of shape \(2, 1\)"),
    ("ragged nested list", lambda: irr.Agreement([[1], [2, 3]], [1, 2]), TypeError,
     r"`rater_a` holds lists \(\[\[1\], \[2, 3\]\]\), but every value must be a single label"),
    ("frame nested cells", lambda: irr.Agreement.from_frame(pd.DataFrame({"a": [[1], [2]], "b": [2, 2]})),
     TypeError, r"`a` holds lists \(\[\[1\], \[2\]\]\), but every value must be a single label"),
    ("scalar rater", lambda: irr.Agreement(5, [1]), TypeError, r"`rater_a` must be a 1-D array-like"),
    ("string rater", lambda: irr.Agreement("abc", "abd"), TypeError,
     r"`rater_a` must be a 1-D array-like of ratings; got 'abc'"),
    ("3-D array", lambda: irr.Agreement.from_array(np.ones((2, 2, 2))), ValueError,
     r"`x` must be 2-D \(subjects x raters\); got an array of shape \(2, 2, 2\)"),
    ("3-D table", lambda: irr.Agreement.from_table(np.ones((2, 2, 2))), ValueError,
     r"`table` must be a square k x k table; got shape \(2, 2, 2\)"),
    ("3-D counts", lambda: irr.Agreement.from_counts(np.ones((2, 2, 2))), ValueError,
     r"`counts` must be 2-D \(subjects x categories\); got shape \(2, 2, 2\)"),
    ("3-D alpha", lambda: irr.krippendorff_alpha(np.zeros((2, 2, 2))), ValueError,
     r"`data` must be 2-D; got an array of shape \(2, 2, 2\)"),
    ("3-D icc", lambda: irr.icc(np.zeros((2, 2, 2))), ValueError,
     r"`ratings` must be 2-D \(subjects x raters\); got shape \(2, 2, 2\)"),
    ("2-D continuous_kappa", lambda: irr.continuous_kappa([[1, 2]], [[1, 2]]), ValueError,
     r"`y_true` must be 1-D; got an array of shape \(1, 2\)"),
    ("2-D qwk", lambda: irr.quadratic_weighted_kappa([[1, 2]], [1, 2]), ValueError,
     r"`rater_a` must be 1-D"),
    # -- mixed label types: 1 and "1" ---------------------------------------------------
    ("object 1 and '1'", lambda: irr.Agreement(np.array([1, "1", 2], dtype=object), [1, 2, 2]),
     TypeError, r"`rater_a` mixes label types \(number, str\): for example \[1, '1'\]"),
    ("raters of different types", lambda: irr.Agreement([1, 2], ["1", "2"]), TypeError,
     r"The raters use different label types \(`rater_a`: number, `rater_b`: str\)"),
    ("array 1 and '1'", lambda: irr.Agreement.from_array(np.array([[1, "1"], [2, 2]], dtype=object)),
     TypeError, r"`rater2` mixes label types \(str, number\)"),
    ("frame 1 and '1'", lambda: irr.Agreement.from_frame(pd.DataFrame({"a": [1, "1"], "b": [2, 2]})),
     TypeError, r"`a` mixes label types \(number, str\)"),
    ("alpha 1 and '1'", lambda: irr.krippendorff_alpha(np.array([[1, "1", 2], [1, 1, 2]], dtype=object).T),
     TypeError, r"`rater_a` mixes label types \(number, str\): for example \[1, '1'\]"),
    ("continuous_kappa '1'", lambda: irr.continuous_kappa(np.array([1, "1"], dtype=object), [1, 2]),
     TypeError, r"`y_true` must contain real numbers; got dtype object holding strings \['1'\]"),
    ("continuous_kappa strings", lambda: irr.continuous_kappa(["1", "2"], [1, 2]), TypeError,
     r"`y_true` must contain real numbers; got dtype <U1 holding strings \['1', '2'\]"),
    ("roc_auc strings", lambda: irr.roc_auc([0, 1], ["0.2", "0.8"]), TypeError,
     r"`scores` must contain real numbers; got dtype <U3"),
    ("qwk strings", lambda: irr.quadratic_weighted_kappa(["a", "b"], ["a", "b"]), TypeError,
     r"`rater_a` must hold integer ratings"),
    ("icc strings", lambda: irr.icc([["a", "b"], ["c", "d"]]), TypeError,
     r"`ratings` must be a 2-D array of numbers"),
    ("complex", lambda: irr.Agreement(np.array([1 + 1j, 2]), [1, 2]), TypeError,
     r"`rater_a` has unsupported dtype complex128"),
    # -- infinities ---------------------------------------------------------------------
    ("inf", lambda: irr.Agreement([1, np.inf], [1, 1]), ValueError,
     r"`rater_a` contains infinite ratings: \[inf\]"),
    ("-inf", lambda: irr.Agreement([1, 2], [-np.inf, 1]), ValueError,
     r"`rater_b` contains infinite ratings: \[-inf\]"),
    ("inf in array", lambda: irr.Agreement.from_array(np.array([[1, np.inf], [2, 2]])), ValueError,
     r"`rater2` contains infinite ratings: \[inf\]"),
    ("inf alpha", lambda: irr.krippendorff_alpha(np.array([[1, np.inf], [1, 2.0]]).T), ValueError,
     r"`rater_a` contains infinite ratings: \[inf\]"),
    ("-inf icc", lambda: irr.icc([[1, -np.inf], [1, 2], [3, 4]]), ValueError,
     r"`ratings` contains infinite values"),
    ("inf continuous_kappa", lambda: irr.continuous_kappa([1, 2, np.inf], [1, 2, 3]), ValueError,
     r"`y_true` must be finite \(no nan or inf\); got 1 value\(s\), the first at position 2 \(inf\)"),
    ("inf qwk", lambda: irr.quadratic_weighted_kappa([1, np.inf], [1, 2]), ValueError,
     r"`rater_a` contains infinite ratings: \[inf\]"),
    # -- non-integral floats where categories are expected -----------------------------
    ("1.5 outside categories", lambda: irr.Agreement([1, 1.5, 2], [1, 2, 3], categories=[1, 2, 3]),
     ValueError, r"`rater_a` has labels outside `categories`: \[1.5\]; declared categories are \[1, 2, 3\]"),
    ("qwk 2.5", lambda: irr.quadratic_weighted_kappa([1, 2.5], [1, 2]), ValueError,
     r"`rater_a` has non-integer ratings: \[2.5\]"),
    ("qwk min_rating 1.5", lambda: irr.quadratic_weighted_kappa([1, 2], [1, 2], 1.5, 5), TypeError,
     r"`min_rating` must be an integer; got 1.5"),
    ("qwk max_rating '5'", lambda: irr.quadratic_weighted_kappa([1, 2], [1, 2], 1, "5"), TypeError,
     r"`max_rating` must be an integer; got '5'"),
    ("alpha 1.5 outside categories",
     lambda: irr.krippendorff_alpha(np.array([[1, 1.5], [1, 2.0]]).T, categories=[1, 2, 3]),
     ValueError, r"`rater_a` has labels outside `categories`: \[1.5\]"),
    # -- categories: duplicates, unhashable, labels outside, empty ----------------------
    ("duplicate categories", lambda: irr.Agreement([1, 2], [1, 2], categories=[1, 2, 2]), ValueError,
     r"`categories` contains duplicates: \[2\]"),
    ("unhashable categories", lambda: irr.Agreement([1, 2], [1, 2], categories=[{1}, {2}]), TypeError,
     r"`categories` holds sets \(\[\{1\}, \{2\}\]\), but every value must be a single label "
     r"or number, not a collection. Declare each category as one label."),
    ("list categories", lambda: irr.Agreement([1, 2], [1, 2], categories=[[1], [2]]), TypeError,
     r"`categories` holds lists \(\[\[1\], \[2\]\]\)"),
    ("tuple categories", lambda: irr.Agreement([1, 2], [1, 2], categories=[(1, 2), (3,)]), TypeError,
     r"`categories` holds tuples \(\[\(1, 2\), \(3,\)\]\)"),
    ("empty categories", lambda: irr.Agreement([1, 2], [1, 2], categories=[]), ValueError,
     r"`categories` must not be empty"),
    ("nan category", lambda: irr.Agreement([1, 2], [1, 2], categories=[1, np.nan]), ValueError,
     r"`categories` must not contain missing values"),
    ("scalar categories", lambda: irr.Agreement([1, 2], [1, 2], categories="ab"), TypeError,
     r"`categories` must be a sequence of labels; got 'ab'"),
    ("label outside categories", lambda: irr.Agreement([1, 9], [1, 2], categories=[1, 2, 3]),
     ValueError, r"`rater_a` has labels outside `categories`: \[9\]"),
    ("frame label outside", lambda: irr.Agreement.from_frame(pd.DataFrame({"a": [1, 2], "b": [1, 7]}),
                                                               categories=[1, 2]),
     ValueError, r"`b` has labels outside `categories`: \[7\]"),
    ("long label outside", lambda: irr.Agreement.from_long(long_df, subject="s", rater="r", rating="v",
                                                            categories=[1]),
     ValueError, r"`a` has labels outside `categories`: \[2\]"),
    ("table categories length", lambda: irr.Agreement.from_table([[1, 2], [3, 4]], categories=[1, 2, 3]),
     ValueError, r"`categories` must have 2 labels for a 2 x 2 table; got 3"),
    ("counts categories length", lambda: irr.Agreement.from_counts([[1, 2], [3, 1]], categories=[1]),
     ValueError, r"`categories` must have 2 labels, one per column of `counts`; got 1"),
    ("qwk outside scale", lambda: irr.quadratic_weighted_kappa([1, 6], [1, 2], 1, 5), ValueError,
     r"`rater_a` has ratings outside \[1, 5\]: \[6\]"),
    # -- tables and counts ----------------------------------------------------------------
    ("table negative", lambda: irr.Agreement.from_table([[1, -2], [3, 4]]), ValueError,
     r"`table` has negative counts: \[-2\]"),
    ("table fractional", lambda: irr.Agreement.from_table([[1, 0.5], [3, 4]]), ValueError,
     r"`table` has non-integer counts: \[0.5\]"),
    ("table nan", lambda: irr.Agreement.from_table([[1, np.nan], [3, 4]]), ValueError,
     r"`table` has non-finite counts: \[nan\]"),
    ("table inf", lambda: irr.Agreement.from_table([[1, np.inf], [3, 4]]), ValueError,
     r"`table` has non-finite counts: \[inf\]"),
    ("table non-square", lambda: irr.Agreement.from_table([[1, 2, 3], [4, 5, 6]]), ValueError,
     r"`table` must be a square k x k table; got shape \(2, 3\)"),
    ("table strings", lambda: irr.Agreement.from_table([["a", "b"], ["c", "d"]]), TypeError,
     r"`table` must hold numeric counts; got dtype <U1"),
    ("table objects", lambda: irr.Agreement.from_table(np.array([[1, 2], [3, None]], dtype=object)),
     TypeError, r"`table` must hold numeric counts; got dtype object"),
    ("table 1e19", lambda: irr.Agreement.from_table([[1e19, 1], [1, 1]]), ValueError,
     r"`table` has counts too large to represent exactly"),
    ("table uint64 2**63", lambda: irr.Agreement.from_table(np.array([[2**63, 1], [1, 1]], dtype=np.uint64)),
     ValueError, r"`table` has counts too large to represent exactly: \[9223372036854775808\]"),
    ("table total overflow", lambda: irr.Agreement.from_table([[2**62, 2**62], [2**62, 2**62]]),
     ValueError, r"`table` counts sum to 1.845e\+19; at most 2\*\*62"),
    ("table too many categories", lambda: irr.Agreement.from_table(np.zeros((10_001, 10_001), np.int8)),
     ValueError, r"`table` has 10001 categories; at most 10000"),
    ("mcnemar negative", lambda: irr.mcnemar([[1, -2], [1, 2]]), ValueError,
     r"`table_or_a` has negative counts: \[-2\]"),
    ("mcnemar 3 x 3", lambda: irr.mcnemar([[1, 2, 3], [1, 2, 3], [1, 2, 3]]), ValueError,
     r"`table_or_a` must be a 2 x 2 table for McNemar's test; got a 3 x 3 table"),
    ("bowker non-square", lambda: irr.bowker_test([[1, 2, 3], [1, 2, 3]]), ValueError,
     r"`table_or_a` must be a square k x k table; got shape \(2, 3\)"),
    ("stuart-maxwell fractional", lambda: irr.stuart_maxwell_test([[1, 2.5], [1, 2]]), ValueError,
     r"`table_or_a` has non-integer counts: \[2.5\]"),
    ("counts negative", lambda: irr.Agreement.from_counts([[1, -1], [1, 1]]), ValueError,
     r"`counts` has negative entries: \[-1\]"),
    ("counts fractional", lambda: irr.Agreement.from_counts([[1, 1.5], [1, 1]]), ValueError,
     r"`counts` has non-integer entries: \[1.5\]"),
    ("counts inf", lambda: irr.Agreement.from_counts([[1, np.inf], [1, 1]]), ValueError,
     r"`counts` has non-finite entries: \[inf\]"),
    ("counts strings", lambda: irr.Agreement.from_counts([["1", "2"], ["3", "4"]]), TypeError,
     r"`counts` must hold numeric counts; got dtype <U1"),
    ("counts 1e19", lambda: irr.Agreement.from_counts([[1e19, 1], [1, 1]]), ValueError,
     r"`counts` has entries too large to represent exactly"),
    ("counts total overflow", lambda: irr.Agreement.from_counts([[2**62, 2**62], [1, 1]]), ValueError,
     r"`counts` counts sum to 9.223e\+18; at most 2\*\*62"),
    # -- huge label values ------------------------------------------------------------------
    ("int64 max weighted", lambda: irr.Agreement(np.array([I64_MAX, I64_MAX - 1]),
                                                 np.array([I64_MAX, I64_MAX - 2])),
     ValueError, r"The integer labels \[9223372036854775805, 9223372036854775806, "
                 r"9223372036854775807\] are beyond 2\*\*53 and float64 cannot represent them exactly"),
    ("int64 min", lambda: irr.Agreement(np.array([I64_MIN, I64_MIN + 1]), np.array([I64_MIN, I64_MIN])),
     ValueError, r"The integer labels \[-9223372036854775807\] are beyond 2\*\*53"),
    ("rounded scores 2**62 + 700",
     lambda: irr.Agreement(np.array([2**62, 2**62 + 700]), np.array([2**62, 2**62 + 3000])),
     ValueError, r"The integer labels \[4611686018427388604, 4611686018427390904\] are beyond 2\*\*53"),
    ("uint64 max", lambda: irr.Agreement(np.array([2**64 - 1, 2**64 - 2], dtype=np.uint64),
                                         np.array([2**64 - 1, 2**64 - 1], dtype=np.uint64)),
     ValueError, r"The integer labels \[18446744073709551614, 18446744073709551615\] are beyond 2\*\*53"),
    ("python int beyond 64 bits", lambda: irr.Agreement([2**64, 1], [2**64, 2]), ValueError,
     r"`rater_a` has integer labels outside the 64-bit range: \[18446744073709551616\]"),
    ("float labels 1e308", lambda: irr.Agreement([-1e308, 0, 1e308], [0, 0, 1e308]), ValueError,
     r"The labels \[-1e\+308, 1e\+308\] are too large to score"),
    ("qwk range", lambda: irr.quadratic_weighted_kappa(np.array([I64_MIN, I64_MAX]), np.array([0, 0])),
     ValueError, r"The rating range -9223372036854775808..9223372036854775807 spans "
                 r"18446744073709551616 values; at most 10000"),
    ("qwk float beyond int64", lambda: irr.quadratic_weighted_kappa([1e20, 1.0], [1.0, 1.0]), ValueError,
     r"`rater_a` has ratings outside the 64-bit integer range: \[1e\+20\]"),
    # (ICC ratings near 1e308 are accepted since issue 14: see VALUE_CASES, numerics)
    # -- a million distinct labels: refused before any k x k allocation ---------------------
    # (as categories: continuous=None reads them as measurements since issue 18)
    ("million int labels", lambda: irr.Agreement(np.arange(10**6), np.arange(10**6),
                                                 continuous=False), ValueError,
     r"The ratings hold 1000000 distinct labels; at most 10000 categories are supported"),
    ("million categories", lambda: irr.Agreement([1, 2], [1, 2], categories=range(10**6)), ValueError,
     r"`categories` has 1000000 labels; at most 10000 are supported"),
    ("qwk million range", lambda: irr.quadratic_weighted_kappa([0, 10**6], [0, 10**6]), ValueError,
     r"The rating range 0..1000000 spans 1000001 values; at most 10000"),
    ("counts million categories", lambda: irr.Agreement.from_counts(np.ones((2, 10**6), np.int8)),
     ValueError, r"`counts` has 1000000 categories; at most 10000"),
    # -- scalar arguments -----------------------------------------------------------------
    ("error_rate bool", lambda: irr.error_rate_test(True, 10, 0.1), TypeError,
     r"`errors` must be an integer, not a boolean; got True"),
    ("error_rate float errors", lambda: irr.error_rate_test(1.5, 10, 0.1), TypeError,
     r"`errors` must be an integer; got 1.5"),
    ("error_rate string", lambda: irr.error_rate_test("1", 10, 0.1), TypeError,
     r"`errors` must be an integer; got '1'"),
    ("error_rate inf n", lambda: irr.error_rate_test(1, np.inf, 0.1), TypeError,
     r"`n` must be an integer; got inf"),
    ("error_rate nan epsilon0", lambda: irr.error_rate_test(1, 10, np.nan), ValueError,
     r"`epsilon0` must be in \(0, 1\); got nan"),
    ("error_rate errors > n", lambda: irr.error_rate_test(11, 10, 0.1), ValueError,
     r"`errors` must be at most `n` = 10; got 11"),
    ("error_rate huge n", lambda: irr.error_rate_test(10**16, 10**17, 0.1), ValueError,
     r"`n` must be at most 2\*\*53 = 9007199254740992 .*; got 100000000000000000"),
    ("critical huge n", lambda: irr.critical_error_rate(10**18, 0.1), ValueError,
     r"`n` must be at most 2\*\*53"),
    ("agreement error_rate huge n",
     lambda: irr.Agreement.from_table([[10**17, 10**16], [1, 1]]).error_rate_test(0.1),
     ValueError, r"rater2 and rater1 share 110000000000000002 subjects; the exact binomial test "
                 r"supports at most 2\*\*53"),
    # -- model-evaluation functions ---------------------------------------------------------
    ("optimize_thresholds nan", lambda: irr.optimize_thresholds([1, 2, np.nan], [1, 2, 3]), ValueError,
     r"`y_true` must not contain nan or inf"),
    ("apply_thresholds decreasing", lambda: irr.apply_thresholds([0.5, 1.5], [1.0, 0.5], [1, 2, 3]),
     ValueError, r"`thresholds` must be non-decreasing; got 1.0 followed by 0.5 at positions 0 and 1"),
    ("distribution_thresholds inf", lambda: irr.distribution_thresholds([0.1, np.inf], [1, 2]),
     ValueError, r"`y_pred` must be finite \(no nan or inf\); got 1 value\(s\), the first at position 1"),
    ("kappa_loss length", lambda: irr.kappa_loss([1, 2], [1, 2, 3]), ValueError,
     r"`y_true` and `y_pred` must have the same length; got 2 and 3"),
    ("roc_auc one class", lambda: irr.roc_auc([1, 1], [0.1, 0.2]), ValueError,
     r"`y_true` must contain both classes; got only \[1\]"),
    ("error_rate_ttest nan", lambda: irr.error_rate_ttest([0.1, np.nan], 0.2), ValueError,
     r"`error_rates` must be finite rates in \[0, 1\]; got \[nan\]"),
    ("cochrans_q 3-D", lambda: irr.cochrans_q(np.zeros((2, 2, 2))), ValueError,
     r"`x` must be 2-D \(subjects x raters\); got an array of shape \(2, 2, 2\)"),
    ("nan_policy", lambda: irr.Agreement([1, 2], [1, 2], nan_policy="drop"), ValueError,
     r"`nan_policy` must be one of 'omit', 'raise'; got 'drop'"),
    ("nan_policy raise", lambda: irr.Agreement([1, 2, None], [1, 2, 2], nan_policy="raise"), ValueError,
     r"1 subject\(s\) have missing ratings \(rows \[2\]\) and `nan_policy='raise'`"),
    ("all missing", lambda: irr.Agreement([None, None], [None, None]), ValueError,
     r"Every rating is missing"),
    ("no complete pair: kappa", lambda: irr.Agreement([1, None, 3], [None, 2, None]).kappa(),
     ValueError, r"kappa needs at least two subjects rated by both raters; 0 are \(3 left out"),
    ("no complete pair: percent agreement",
     lambda: irr.Agreement([1, None, 3], [None, 2, None]).percent_agreement(), ValueError,
     r"Percent agreement needs at least one subject rated by both raters; none is \(3 left out"),
    ("no complete pair: mcnemar", lambda: irr.mcnemar([1, None, 0], [None, 0, None]), ValueError,
     r"No subject has ratings from both raters"),
    # -- issue 14: input layer (alignment, labels, tables, frequency weights, rater names) -
    ("series labels differ", lambda: irr.Agreement(pd.Series([1, 2], index=["a", "b"]),
                                                   pd.Series([1, 2], index=["a", "c"])),
     ValueError, r"index labels of `rater_b` and `rater_a` differ \(\['c'\] only in `rater_b`"),
    ("series repeated labels", lambda: irr.Agreement(pd.Series([1, 2], index=["a", "b"]),
                                                     pd.Series([1, 2], index=["a", "a"])),
     ValueError, r"index of `rater_b` repeats labels \['a'\]"),
    ("freq_weights labels differ",
     lambda: irr.Agreement.from_frame(pd.DataFrame({"a": [1, 2], "b": [1, 2]}, index=[5, 6]),
                                      freq_weights=pd.Series([1, 2])),
     ValueError, r"index labels of `freq_weights` and `df` differ"),
    ("cluster labels differ",
     lambda: irr.Agreement.from_frame(pd.DataFrame({"a": [1, 2, 1], "b": [1, 2, 2]}, index=[5, 6, 7]))
     .kappa(ci="percentile", cluster=pd.Series([1, 1, 2])),
     ValueError, r"index labels of `cluster` and the subjects differ"),
    ("table repeated labels",
     lambda: irr.Agreement.from_table(pd.DataFrame([[1, 2], [3, 4]], index=["x", "x"], columns=["x", "y"])),
     ValueError, r"`table` repeats row labels \['x'\]"),
    ("bowker table labels outside categories",
     lambda: irr.bowker_test(pd.DataFrame([[1, 2], [3, 4]], index=["x", "y"], columns=["x", "z"]),
                             categories=["x", "y"]),
     ValueError, r"has labels outside `categories`: \['z'\]"),
    ("counts columns outside categories",
     lambda: irr.Agreement.from_counts(pd.DataFrame([[1, 2], [2, 1]], columns=["x", "z"]),
                                       categories=["x", "y"]),
     ValueError, r"`counts` has columns outside `categories`: \['z'\]"),
    ("Int64 2**53 + 1 with NA",
     lambda: irr.Agreement(pd.array([2**53 + 1, 2**53, None], dtype="Int64"), [2**53, 2**53, 2**53]),
     ValueError, r"\[9007199254740993\] are beyond 2\*\*53"),
    ("list 2**53 + 1 with None", lambda: irr.Agreement([2**53 + 1, None, 1], [2**53, 1, 1]),
     ValueError, r"\[9007199254740993\] are beyond 2\*\*53"),
    ("int64 + uint64 beyond 2**53",
     lambda: irr.Agreement(np.array([2**53 + 1, 2**53, 3]), np.array([2**53, 2**64 - 1, 3], dtype=np.uint64)),
     ValueError, r"are beyond 2\*\*53"),
    ("alpha fast path 2**53 + 1",
     lambda: irr.krippendorff_alpha(np.array([[2**53, 2**53 + 1], [2**53 + 1, 2**53 + 1]])),
     ValueError, r"\[9007199254740993\] are beyond 2\*\*53"),
    ("rater names 1 and '1'", lambda: irr.Agreement.from_frame(pd.DataFrame({1: [1, 2], "1": [1, 2]})),
     ValueError, r"`raters` has labels that are the same once written as text: 1 and '1'"),
    ("long rater names 1 and '1'",
     lambda: irr.Agreement.from_long(pd.DataFrame({"s": [1, 1], "r": [1, "1"], "v": [1, 2]}),
                                     subject="s", rater="r", rating="v"),
     ValueError, r"`rater` has labels that are the same once written as text"),
    ("by MultiIndex key naming two columns",
     lambda: irr.by(pd.DataFrame([[1, 1, 2]], columns=pd.MultiIndex.from_tuples(
         [("g", ""), ("r", "a"), ("r", "b")])), "r"),
     ValueError, r"`by` must name columns of `df`; got \['r'\] \(it names 2 columns, not one\)"),
    ("freq_weights all zero",
     lambda: irr.Agreement.from_frame(pd.DataFrame({"a": [1, 2], "b": [1, 2], "n": [0, 0]}),
                                      freq_weights="n"),
     ValueError, r"`freq_weights` are all zero"),
    ("float beside an integer beyond 2**53 (review 3)",
     lambda: irr.Agreement([float(2**53), 1.0], [2**53 + 1, 1]), ValueError,
     r"The integer labels \[9007199254740993\] are beyond 2\*\*53"),
    ("list of integers beyond 2**53 in alpha (review 3)",
     lambda: irr.krippendorff_alpha([[2**53, 2**53 + 1], [2**53 + 2, 2**53]], ci=None),
     ValueError, r"beyond 2\*\*53"),
    ("empty rater in the ICC (review 12)",
     lambda: irr.icc(pd.DataFrame({"a": [1, 2, 3], "b": [1, 3, 3], "c": [None] * 3})),
     ValueError, r"got 0: rater\(s\) 'c' gave no rating"),
    ("raters of different types named (review 1)",
     lambda: irr.Agreement.from_frame(pd.DataFrame({"a": ["x", "y"], "b": [1, 2]}), ["a", "b"]),
     TypeError, r"\(`a`: str, `b`: number\)"),
    # -- end input layer ---------------------------------------------------------------------
    # -- issue 14: numerics and the ICC ------------------------------------------------------
    ("negative agreement weights",
     lambda: irr.Agreement([1, 2, 3, 1], [1, 3, 2, 1]).kappa(
         weights=[[1, -5, -5], [-5, 1, -5], [-5, -5, 1]]), ValueError,
     r"`weights` matrix entries must lie in \[0, 1\] .*got \[-5.0\]"),
    ("ICC(A,1) has no exact interval",
     lambda: irr.icc(irr.datasets.load("anxiety")).conf_int(method="exact"), ValueError,
     r"`method='exact'` does not apply to ICC\(2,1\): its F-based interval is "
     r"method='satterthwaite'"),
    ("benchmark an ICC (no SE)", lambda: irr.icc(irr.datasets.load("anxiety")).benchmark(),
     ValueError,
     r"ICC\(2,1\) has no standard error \(se is nan\) and no bootstrap"),
    # -- end numerics ------------------------------------------------------------------------
    # -- issue 14: command line ---------------------------------------------------------------
    ("from_frame id and rating types tie",
     lambda: irr.Agreement.from_frame(pd.DataFrame({"a": [1, 2, 1, 2], "b": [1, 2, 2, 2],
                                                    "c": list("xyxy"), "d": list("xyyy")})),
     ValueError, r"Cannot tell the rating columns from identifiers: .*'a': number, 'b': number, "
     r"'c': string, 'd': string\)\. Name the rating columns with raters= or the identifier "
     r"columns with id="),
    ("from_frame id unknown",
     lambda: irr.Agreement.from_frame(pd.DataFrame({"a": [1, 2], "b": [1, 1]}), id="nope"),
     ValueError, r"`id` names columns not in the data: \['nope'\]; columns are \['a', 'b'\]"),
    ("from_frame raters and id overlap",
     lambda: irr.Agreement.from_frame(pd.DataFrame({"a": [1, 2], "b": [1, 1]}), ["a", "b"],
                                      id="a"),
     ValueError, r"`raters` and `id` share columns: \['a'\]"),
    ("from_frame only identifiers",
     lambda: irr.Agreement.from_frame(pd.DataFrame({"patient": [1, 2, 3], "site": [1, 1, 2],
                                                    "r": [1, 2, 1]})),
     ValueError, r"Cannot find two rating columns in \['patient', 'site', 'r'\]: 'patient' "
     r"\(its name\), 'site' \(its name\) look like identifiers"),
    # -- end command line --------------------------------------------------------------------
    # -- issue 14: inference and rendering ---------------------------------------------------
    ("one cluster", lambda: irr.Agreement([1, 2, 1, 2], [1, 2, 2, 2]).kappa(
        cluster=[7, 7, 7, 7], ci="percentile"), ValueError,
     r"`cluster` must give at least two clusters with ratings; got 1 \(labels \[7\]\)"),
    ("strata of one subject each", lambda: irr.Agreement([1, 2, 1, 2], [1, 2, 2, 2]).kappa(
        strata=np.arange(4), ci="percentile"), ValueError,
     r"Every stratum of `strata` holds a single subject \(4 strata\)"),
    ("cluster ids 1 and '1'", lambda: irr.Agreement([1, 2, 1, 2], [1, 2, 2, 2]).kappa(
        cluster=[1, "1", 1, "1"]), TypeError, r"`cluster` mixes label types \(mixed-integer\)"),
    ("n_resamples=1 interval", lambda: irr.Agreement([1, 2, 1, 2], [1, 2, 2, 2]).kappa(
        ci="percentile", n_resamples=1), ValueError,
     r"`n_resamples` must be at least 40 for a 95% bootstrap interval .*got 1\."),
    ("percent agreement definition", lambda: irr.Agreement([1, 2], [1, 2], [1, 1])
     .percent_agreement(definition="R"), ValueError,
     r"`definition` must be one of 'pairwise', 'all'; got 'R'"),
    ("irr.by cluster of the wrong length", lambda: irr.by(
        irr.datasets.load("anxiety").assign(site=["a", "b"] * 10), "site",
        raters=["rater1", "rater2"], cluster=[1, 2, 3]), ValueError,
     r"`cluster` must have one value per subject \(20\); got shape \(3,\)"),
    # -- end inference and rendering ---------------------------------------------------------
    # -- issue 15: files and output -----------------------------------------------
    ("n_resamples 1e12", lambda: irr.Agreement([1, 2, 1, 2], [1, 2, 2, 2]).kappa(
        ci="percentile", n_resamples=10**12), ValueError,
     r"`n_resamples` must be at most 1000000 \(MAX_RESAMPLES\); got 1000000000000\."),
    ("n_resamples 3e8 alpha", lambda: irr.krippendorff_alpha(
        [[1, 2], [2, 2], [1, 1]], ci="percentile", n_resamples=3 * 10**8), ValueError,
     r"`n_resamples` must be at most 1000000 \(MAX_RESAMPLES\); got 300000000\."),
    ("n_resamples 1e12 AUC", lambda: irr.ordinal.roc_auc_result(
        [0, 0, 1, 1, 0, 1], [1, 2, 3, 4, 2, 1], ci="percentile", n_resamples=10**12),
     ValueError,
     r"`n_resamples` must be at most 1000000"),
    ("kappa of subject x category counts",
     lambda: irr.Agreement.from_counts([[2, 1], [1, 2], [3, 0]]).kappa(), ValueError,
     r"kappa needs to know which rater gave which rating, but this Agreement was built from "
     r"subject x category counts"),
    ("error rate of counts", lambda: irr.Agreement.from_counts([[2, 1], [1, 2]])
     .error_rate_test(0.5), ValueError, r"The error-rate test needs to know which rater gave"),
    ("ICC of counts", lambda: irr.Agreement.from_counts([[2, 1], [1, 2]]).icc(), ValueError,
     r"The ICC needs to know which rater gave which rating"),
    ("Kendall's W of counts", lambda: irr.Agreement.from_counts([[2, 1], [1, 2]]).kendall_w(),
     ValueError, r"Kendall's W needs to know which rater gave which rating"),
    # -- end files and output ----------------------------------------------------
    # -- issue 15: sparse designs -------------------------------------------------
    ("sparse icc refused", lambda: _sparse_crowd().icc(), ValueError,
     r"The ICC needs every rater to rate the subjects it uses, but these data are a sparse "
     r"design \(3000 subjects, 3000 raters, 6000 ratings; 0 subject"),
    ("sparse kendall refused", lambda: _sparse_crowd().kendall_w(), ValueError,
     r"Kendall's W needs every rater .* sparse design"),
    ("sparse light lonely pairs", lambda: _sparse_crowd().light_kappa(), ValueError,
     r"share none: \[\('r0', 'r2'\)"),
    # -- end sparse designs ------------------------------------------------------
    # -- issue 15: dense categories and tables ------------------------------------
    ("heatmap of 2,001 categories", lambda: __import__("irr.plotting").plotting.table_heatmap(
        irr.Agreement(np.arange(2001), np.arange(2001))), ValueError,
     r"table_heatmap draws at most 2,000 categories .*has 2,001"),
    ("agreement chart of 2,001 categories", lambda: __import__("irr.plotting").plotting
     .agreement_chart(irr.Agreement(np.arange(2001), np.arange(2001))), ValueError,
     r"agreement_chart draws at most 2,000 categories .*has 2,001"),
    ("weighted kappa of 5,001 categories", lambda: irr.Agreement(
        np.arange(5001) / 10, np.arange(5001) / 10, continuous=False).kappa(weights="linear"),
     ValueError,
     r"`weights='linear'` needs a 5001 x 5001 category array \(25,010,001 cells\); at most "
     r"25,000,000 cells \(k = 5000\) are built \(irr.weights.MAX_SQUARE_CELLS\)"),
    ("agreement table of 5,001 labels", lambda: irr.Agreement(
        [f"c{i:05d}" for i in range(5001)], [f"c{i:05d}" for i in range(5001)]).table,
     ValueError, r"The k x k agreement table needs a 5001 x 5001 category array"),
    ("Stuart-Maxwell of 5,001 labels", lambda: irr.Agreement(
        [f"c{i:05d}" for i in range(5001)], [f"c{(i + 1) % 5001:05d}" for i in range(5001)])
     .marginal_homogeneity_test(), ValueError, r"agreement table needs a 5001 x 5001"),
    ("Stuart-Maxwell of 2,001 labels", lambda: irr.Agreement(
        [f"c{i:05d}" for i in range(2001)], [f"c{(i + 1) % 2001:05d}" for i in range(2001)])
     .marginal_homogeneity_test(), ValueError,
     r"Stuart-Maxwell test solves a dense \(k - 1\) x \(k - 1\) system; these data have "
     r"k = 2,001 categories, at most 2,000"),
    ("Gwet's AC1 of 10,000 labels, 3,000 subjects", lambda: irr.Agreement(
        [f"c{3 * i:05d}" for i in range(3000)], [f"c{3 * i + 1:05d}" for i in range(3000)],
        categories=[f"c{i:05d}" for i in range(10_000)]).gwet_ac(), ValueError,
     r"10000 x 10000 category array|3,000 x 10,000 array of distinct subject x category"),
    # -- end dense categories and tables -----------------------------------------
    # -- issue 15: resource harness -----------------------------------------------
    # -- end resource harness ----------------------------------------------------
    # -- issue 15: portable results -----------------------------------------------
    # every result irr computes pickles with its recipe; only a caller's own lambda given to
    # Result.with_bootstrap is dropped, and the copy says why when asked to draw it
    ("unpickled with_bootstrap lambda, not drawn", lambda: __import__("pickle").loads(
        __import__("pickle").dumps(irr.Agreement([1, 2, 1, 2], [1, 2, 2, 2]).kappa()
                                   .with_bootstrap(lambda: None)))
     .conf_int(method="bca"), ValueError,
     r"Cohen's kappa result was unpickled without its bootstrap: it had not been drawn, and "
     r"the source given to `with_bootstrap` \(a lambda or local function\) does not pickle"),
    # -- end portable results ----------------------------------------------------
    # -- the surfaces added last: continuous, replicates, planning, differences, frames ----
    ("difference of two statistics", lambda: irr.difference(
        irr.Agreement([1, 2, 1, 2, 1, 2], [1, 2, 2, 2, 1, 1]).kappa(),
        irr.limits_of_agreement(np.arange(1.0, 21), np.arange(1.0, 21) + np.sin(np.arange(20))),
        independent=True), ValueError,
     r"`first` and `second` must be results of one coefficient to compare independent groups"),
    ("pool of two statistics", lambda: irr.pool([
        irr.Agreement([1, 2, 1, 2, 1, 2], [1, 2, 2, 2, 1, 1]).kappa(),
        irr.icc(np.column_stack([np.arange(1.0, 21), np.arange(1.0, 21) ** 1.1]))]),
     ValueError, r"`results` must be of one coefficient to pool"),
    ("plan power above 1", lambda: irr.plan.kappa(0.4, 0.6, power=1.5), ValueError,
     r"`power` must be in \(0, 1\); got 1.5"),
    ("plan ICC of one rater", lambda: irr.plan.icc(0.4, 0.6, raters=1), ValueError,
     r"`raters` must be at least 2; got 1"),
    ("simulated power of the bias", lambda: irr.plan.simulate(
        "limits_of_agreement", n=20, coefficient=0.6, null=0.4, continuous=True,
        n_simulations=10), ValueError,
     r"`statistic` must be a coefficient of agreement whose interval a simulation can test"),
    ("frame: '.' among numbers, ids named", lambda: irr.Agreement.from_frame(pd.DataFrame(
        {"patient_id": [1, 2, 3, 4], "site": ["a", "a", "b", "b"], "r1": ["1", "2", ".", "3"],
         "r2": ["1", "2", "2", "3"], "r3": ["1", "3", "2", "3"]}), id=["patient_id", "site"]),
     ValueError, r"column 'r1' holds numbers and 1 other value\(s\) '\.'.*na_values=\['\.'\]"),
    ("replicate label repeated", lambda: irr.Agreement.from_long(pd.DataFrame(
        {"s": [1, 1, 1, 1, 2, 2, 2, 2], "m": ["a", "a", "b", "b"] * 2,
         "rep": [1, 1, 1, 2, 1, 2, 1, 2], "v": np.linspace(1.5, 2.8, 8)}),
        subject="s", rater="m", rating="v", replicate="rep"), ValueError,
     r"The `replicate` column 'rep' repeats a label within one \(subject, rater\)"),
    ("replicate column unknown", lambda: irr.Agreement.from_long(
        long_df, subject="s", rater="r", rating="v", replicate="nope"), ValueError,
     r"`replicate` must name a column of `df`; got 'nope'"),
    ("concordance at 1e-200", lambda: irr.concordance(np.arange(1.0, 21) * 1e-200,
                                                      np.arange(2.0, 22) * 1e-200),
     ValueError, r"needs measurements between 1e-100 and 1e100 in size and spread"),
    ("limits: multiplier and coverage", lambda: irr.limits_of_agreement(
        np.arange(1.0, 21), np.arange(1.0, 21) + np.sin(np.arange(20)), multiplier=2,
        coverage=0.5), ValueError, r"give `coverage` or `multiplier`, not both"),
    # -- end surfaces added last -------------------------------------------------
]


@pytest.mark.parametrize(("call", "error", "message"), [c[1:] for c in CASES],
                         ids=[c[0] for c in CASES])
def test_hostile_input_raises_a_clear_error(call, error, message):
    with pytest.raises(error, match=message):
        call()


# -- nested cells: lists, tuples, dicts, sets, arrays as ratings ------------------------------

#: Two nested cells of each kind (JSON and Parquet list columns are read as lists or arrays;
#: a tuple is hashable, but holds several values: never one rating).
NESTED = {"list": ([1, 2], [3]), "tuple": ((1, 2), (3,)), "dict": ({"a": 1}, {"b": 2}),
          "set": ({1}, {2}), "array": (np.array([1, 2]), np.array([3]))}
#: The other cells of a column: none (every cell nested), ratings, missing ratings.
FILLERS = {"alone": None, "with ratings": (1, 2, 3, 1), "with nan": (np.nan, 2, None, 1)}
OTHER = [1, 2, 1, 2, 2, 1]


def _nested_column(kind, filler):
    """Six cells, object dtype: the two nested cells of `kind` first, then `filler`."""
    first = NESTED[kind]
    rest = FILLERS[filler] or first * 2
    column = np.empty(6, dtype=object)
    for i, cell in enumerate([*first, *rest]):
        column[i] = cell
    return column


def _frame(column):
    return pd.DataFrame({"pid": range(101, 107), "a": column, "b": OTHER, "c": OTHER[::-1]})


def _long(column):
    return pd.DataFrame({"s": [*range(6), *range(6)], "r": ["x"] * 6 + ["y"] * 6,
                         "v": np.concatenate([column, np.array(OTHER, dtype=object)])})


#: Every entry point that takes ratings (or measurements): the call on a nested column and
#: the argument or column its message names.
NESTED_CALLS = {
    "Agreement": (lambda c: irr.Agreement(c, OTHER), "rater_a"),
    "Agreement list": (lambda c: irr.Agreement(list(c), OTHER), "rater_a"),
    "Agreement continuous": (lambda c: irr.Agreement(c, OTHER, continuous=True), "rater_a"),
    "Agreement categories": (lambda c: irr.Agreement(c, OTHER, categories=[1, 2, 3]), "rater_a"),
    "from_frame": (lambda c: irr.Agreement.from_frame(_frame(c)), "a"),
    "from_frame raters": (lambda c: irr.Agreement.from_frame(_frame(c), ["a", "b"]), "a"),
    "from_frame id": (lambda c: irr.Agreement.from_frame(_frame(c), id="pid"), "a"),
    "from_frame continuous": (lambda c: irr.Agreement.from_frame(
        _frame(c), ["a", "b"], continuous=True), "a"),
    "from_frame categories": (lambda c: irr.Agreement.from_frame(
        _frame(c), ["a", "b"], categories=[1, 2, 3]), "a"),
    "from_frame freq_weights": (lambda c: irr.Agreement.from_frame(
        _frame(c), ["a", "b"], freq_weights="c"), "a"),
    "from_array": (lambda c: irr.Agreement.from_array(
        np.column_stack([c, np.array(OTHER, dtype=object)])), "rater1"),
    "from_array rows": (lambda c: irr.Agreement.from_array(
        [[x, y] for x, y in zip(c, OTHER, strict=True)]), "(x|rater1)"),
    "from_long": (lambda c: irr.Agreement.from_long(_long(c), subject="s", rater="r",
                                                    rating="v"), "rating"),
    "from_long continuous": (lambda c: irr.Agreement.from_long(
        _long(c), subject="s", rater="r", rating="v", continuous=True), "rating"),
    "from_patterns": (lambda c: irr.Agreement.from_patterns(
        {"a": c, "b": np.array(OTHER)}, [1] * 6), "a"),
    "cohen_kappa": (lambda c: irr.cohen_kappa(pd.Series(c), OTHER), "rater_a"),
    "robinson_a": (lambda c: irr.robinson_a(_frame(c)[["a", "b", "c"]]), "a"),
    "krippendorff_alpha": (lambda c: irr.krippendorff_alpha(_frame(c)), "a"),
    "icc": (lambda c: irr.icc(_frame(c)[["a", "b", "c"]]), "a"),
    "iota": (lambda c: irr.iota([np.column_stack([c, np.array(OTHER, dtype=object)])]),
             r"ratings\[0\]"),
    "quadratic_weighted_kappa": (lambda c: irr.quadratic_weighted_kappa(c, OTHER), "rater_a"),
    "limits_of_agreement": (lambda c: irr.limits_of_agreement(pd.Series(c), OTHER), "x"),
    "concordance frame": (lambda c: irr.concordance(_frame(c)[["a", "b"]]), "a"),
    "deming": (lambda c: irr.deming(OTHER, c), "y"),
    "Measurements.from_pair": (lambda c: Measurements.from_pair(c, OTHER), "x"),
    "Measurements.from_wide": (lambda c: Measurements.from_wide(_frame(c)), "a"),
    "cluster": (lambda c: irr.Agreement(OTHER, OTHER[::-1]).kappa(
        ci="percentile", cluster=c, n_resamples=10, rng=1), "cluster"),
}


@pytest.mark.parametrize("filler", FILLERS)
@pytest.mark.parametrize("kind", NESTED)
@pytest.mark.parametrize("entry", NESTED_CALLS)
def test_nested_cells_raise_a_type_error_naming_the_column_and_showing_them(entry, kind, filler):
    call, name = NESTED_CALLS[entry]
    with pytest.raises(TypeError, match=rf"`{name}` holds .*every value must be a single "
                                        r"label or number, not a collection") as info:
        call(_nested_column(kind, filler))
    assert repr(NESTED[kind][0]) in str(info.value)  # the bad cells are shown


@pytest.mark.parametrize("kind", ["list", "dict", "set", "array"])
def test_unhashable_subject_and_rater_labels_of_long_data_are_named(kind):
    column = _nested_column(kind, "alone")
    for argument in ("s", "r"):
        df = _long(column).assign(**{argument: np.concatenate([column, column])})
        which = "subject" if argument == "s" else "rater"
        with pytest.raises(TypeError, match=rf"The `{which}` column '{argument}' holds "):
            irr.Agreement.from_long(df, subject="s", rater="r", rating="v")


def test_tuples_are_labels_of_subjects_in_long_data():
    # a composite identifier (site, patient) is hashable: a label, never a rating
    df = pd.DataFrame({"s": [("a", 1), ("a", 1), ("b", 2), ("b", 2), ("c", 3), ("c", 3)],
                       "r": ["x", "y"] * 3, "v": [1, 1, 2, 2, 1, 2]})
    ag = irr.Agreement.from_long(df, subject="s", rater="r", rating="v")
    assert ag.n_subjects == 3
    assert ag.percent_agreement().estimate == pytest.approx(2 / 3)


def test_a_nested_column_among_ratings_names_the_options_to_leave_it_out():
    with pytest.raises(TypeError, match=r"`a` holds lists .* name the rating columns with "
                                        r"raters= or this column with id="):
        irr.Agreement.from_frame(_frame(_nested_column("list", "alone")))
    # named out of the ratings, it is never read
    frame = _frame(_nested_column("list", "alone"))
    assert irr.Agreement.from_frame(frame, ["b", "c"]).raters == ("b", "c")
    with pytest.warns(UserWarning, match=r"`id` a repeats on more than one row"):
        assert irr.Agreement.from_frame(frame.drop(columns="pid"), id="a").raters == ("b", "c")
    # identifiers are checked for repeats, lists by what they print
    with pytest.warns(UserWarning, match=r"`id` pid, a repeats on more than one row for 1 "
                                         r"id\(s\) \(\(101, '\[1, 2\]'\)\)"):
        ag = irr.Agreement.from_frame(frame.assign(pid=[101, 102, 103, 104, 101, 106]),
                                      id=["pid", "a"])
    assert ag.raters == ("b", "c")


@pytest.mark.parametrize("wrap", [list, pd.Series, lambda v: pd.Series(v, dtype="string")])
def test_lists_written_as_text_are_refused_by_name(wrap):
    # a pandas list column written to CSV reads back as text "['copd', 'hf']": taken as
    # labels, it was a rater with a category per combination
    grades = ["mild", "none", "mild", "severe", "none", "mild"]
    frame = pd.DataFrame({"tags": [["copd", "hf"], [], ["ckd"], [], ["copd", "hf"], ["ckd"]],
                          "r1": grades, "r2": grades[::-1]})
    read = pd.read_csv(io.StringIO(frame.to_csv(index=False)))
    with pytest.raises(TypeError, match=r"`tags` holds lists written as text \(\[\"\['copd', "
                                        r"'hf'\]\", '\[\]', \"\['ckd'\]\"\]\), but every value must "
                                        r"be a single label or number, not a collection"):
        irr.Agreement.from_frame(read)
    with pytest.raises(TypeError, match=r"`rater_b` holds lists written as text \(\['\[1, 2\]', "
                                        r"'\[3\]'\]\).*declare them with `categories=`"):
        irr.Agreement(wrap(grades[:4]), wrap(["[1, 2]", "[3]", None, "[1, 2]"]))
    with pytest.raises(TypeError, match=r"`rater_a` holds dicts or sets written as text"):
        irr.Agreement(wrap(["{'a': 1}", "{'b': 2}"]), wrap(["x", "y"]))
    assert irr.Agreement.from_frame(read, ["r1", "r2"]).raters == ("r1", "r2")


def test_text_of_intervals_and_declared_list_labels_stay_categories():
    # "[0, 10]" labels an interval closed on both sides; declared categories are labels
    bins = ["[0, 10]", "[10, 20]", "[0, 10]", "[20, 30]"]
    ag = irr.Agreement(pd.Series(bins), bins[::-1])
    assert list(ag.categories) == ["[0, 10]", "[10, 20]", "[20, 30]"]
    assert irr.Agreement(["(0, 10]", "(10, 20]"], ["(0, 10]", "(0, 10]"]).n_subjects == 2
    labels = ["[1, 2]", "[3]", "[]"]
    declared = irr.Agreement(labels * 2, ["[3]", "[3]", "[]"] * 2, categories=labels)
    assert declared.percent_agreement().estimate == pytest.approx(2 / 3)


def test_a_tuple_among_numbers_is_not_taken_for_a_missing_value_marker():
    # (the marker of SAS's '.' is text; a tuple suggested na_values=['(1, 2)'])
    frame = _frame(_nested_column("tuple", "with ratings"))
    with pytest.raises(TypeError, match=r"`a` holds tuples \(\[\(1, 2\), \(3,\)\]\)"):
        irr.Agreement.from_frame(frame, ["a", "b"])


# -- accepted input, checked numbers --------------------------------------------------------
# Each row: (name, call returning a number, the right number, absolute tolerance, why it is right).
VALUE_CASES = [
    # -- issue 14: input layer ---------------------------------------------------------------
    ("alpha function: subjects in rows",
     lambda: irr.krippendorff_alpha(irr.datasets.load("anxiety"), "interval", ci=None).estimate,
     0.17009860788863107, 1e-12,
     "anxiety interval alpha; the krippendorff package on the transpose gives the same "
     "(tests/unit/input/test_labels_and_weights), R irr kripp.alpha(t(anxiety)) prints 0.170"),
    ("Series in another order",
     lambda: irr.Agreement(pd.Series([1, 2, 3, 1], index=list("abcd")),
                           pd.Series([1, 3, 2, 1], index=list("acbd"))).kappa().estimate,
     1.0, 0, "aligned by label the two raters give the same rating to every subject"),
    ("crosstab of different label sets",
     lambda: irr.Agreement.from_table(pd.crosstab(pd.Series([1, 2, 2, 2, 1, 2]),
                                                  pd.Series([2, 3, 3, 2, 2, 3]))).kappa().estimate,
     -0.25, 1e-15,
     "union table [[0,2,0],[0,1,3],[0,0,0]] on 1, 2, 3: p_o = 1/6, p_e = (2*0 + 4*3 + 0*3)/36 "
     "= 1/3, kappa = (1/6 - 1/3)/(2/3) = -1/4 (read positionally as a 2 x 2 table: 0.667)"),
    ("bowker of reordered columns",
     lambda: irr.bowker_test(pd.crosstab(pd.Series(list("12231321")), pd.Series(list("12331222")))
                             [["3", "1", "2"]]).statistic,
     1.0, 1e-15, "pairs (1,2): (1-0)^2/1, (2,3): (1-1)^2/2; column order must not matter"),
    ("float32 vs float64 labels",
     lambda: irr.Agreement(np.array([0.1, 0.2, 0.3, 0.7], dtype=np.float32),
                           [0.1, 0.2, 0.4, 0.7]).percent_agreement().estimate,
     0.75, 0, "3 of 4 subjects get the same decimal label"),
    ("Gwet with a zero-weight row",
     lambda: irr.Agreement.from_frame(pd.DataFrame({"a": [1, 2, 1, 3], "b": [1, 2, 2, 3],
                                                    "n": [2, 2, 1, 0]}), ["a", "b"],
                                      freq_weights="n").gwet_ac(ci=None).estimate,
     0.6, 1e-15,
     "expanded data (1,1)x2, (2,2)x2, (1,2): p_a = 4/5, pi = (1/2, 1/2) on q = 2 categories, "
     "p_e = sum pi(1 - pi)/(q - 1) = 1/2, AC1 = (4/5 - 1/2)/(1/2) = 0.6 (category 3 of the "
     "zero-weight row made q = 3: 0.733)"),
    ("icc of a frame with an mrn column (review 1)",
     lambda: irr.icc(pd.DataFrame({"mrn": [7, 19, 2, 18], "a": [1, 2, 3, 4],
                                   "b": [2, 2, 4, 4]})).estimate,
     16 / 19, 1e-12,
     "mrn set aside; rows (1,2), (2,2), (3,4), (4,4): MSR = 17/6, MSC = 1/2, MSE = 1/6, "
     "ICC(A,1) = (17/6 - 1/6)/(17/6 + 1/6 + 2(1/2 - 1/6)/4) = 16/19"),
    ("icc of integers beyond 2**53 (review 3)",
     lambda: irr.icc(np.array([[2**53, 2**53 + 1], [2**53 + 1, 2**53], [2**53 + 2, 2**53 + 2],
                               [2**53 + 3, 2**53 + 4]])).estimate,
     44 / 53, 1e-12, "shift-invariant: the exact ICC(A,1) of (0,1), (1,0), (2,2), (3,4) is 44/53"),
    ("float32 Categorical vs float64 (review 3)",
     lambda: irr.Agreement(pd.Categorical(np.array([0.5, 0.1], dtype=np.float32)),
                           [0.5, 0.1]).percent_agreement().estimate,
     1.0, 0, "both raters wrote 0.5 and 0.1"),
    # -- end input layer ---------------------------------------------------------------------
    # -- issue 14: numerics and the ICC ------------------------------------------------------
    ("critical count at alpha 1e-300",
     lambda: irr.critical_error_rate(200, 0.01, 1e-300).critical_count, 168, 0,
     "smallest c with P(X > c) < 1e-300 by exact integer sums (tests/reference/binomial_tails_exact.py)"),
    ("binomial p-value 8.4e-284", lambda: irr.error_rate_test(162, 200, 0.01, 1e-300).pvalue,
     8.389426128083743e-284, 1e-296,
     "P(X >= 162 | n = 200, eps0 = 0.01) by exact integer sums (tests/reference/binomial_tails_exact.py)"),
    ("error-rate test at n = 2**53", lambda: irr.error_rate_test(12345, 2**53, 0.5).pvalue,
     1.0, 0, "12345 errors lie 2**52 below the mean: P(X >= 12345) is 1 to double precision"),
    ("icc 1e308", lambda: irr.icc([[-1e308, -1e308], [0, 0], [1e308, 1e308]]).estimate, 1.0,
     1e-12, "two identical raters: MSE = MSC = 0, so ICC(A,1) = MSR / MSR = 1 (was refused)"),
    ("icc 2**300 scores",
     lambda: irr.Agreement([-(2.0**300), 0, 2.0**300], [0, 0, 2.0**300]).icc().estimate, 0.75,
     1e-12, "ICC(A,1) of [[-1, 0], [0, 0], [1, 1]] (any common unit) is 3/4 by exact "
     "Fractions: MSR = 7/4, MSC = 1/6, MSE = 1/12 (was refused)"),
    ("icc x 1e-200", lambda: irr.icc(irr.datasets.load("anxiety") * 1e-200).estimate,
     0.19799825935596163, 1e-13,
     "anxiety ICC(A,1) = 0.198 (R irr::icc); scale-invariant, was nan"),
    ("icc(C,1) x + 1e15", lambda: irr.icc(irr.datasets.load("anxiety") + 1e15, "twoway",
                                          "consistency").estimate,
     0.21604938271604932, 1e-13, "anxiety ICC(C,1) = 0.216 (R irr::icc); shift-invariant, "
     "moved in the third digit"),
    ("interval alpha x 1e-200",
     lambda: irr.Agreement.from_frame(irr.datasets.load("anxiety") * 1e-200).krippendorff_alpha(
         level="interval", ci=None).estimate, 0.17009860788863107, 1e-13,
     "anxiety interval alpha = 0.170 (subjects in rows); scale-invariant, was nan"),
    ("continuous kappa x 1e-200",
     lambda: irr.continuous_kappa(np.array([1.0, 2, 3, 4]) * 1e-200,
                                  np.array([1.0, 2, 4, 4]) * 1e-200), 11 / 12, 1e-13,
     "2 sum(dy dp) / (sum dy^2 + sum dp^2 + n (mean y - mean p)^2) = 11/12 by exact "
     "Fractions (kappa_loss doctest: 1/12); scale-invariant, was nan"),
    ("ICC(A,k) below -1", lambda: irr.icc(
        [[3, 4, 2], [5, 1, 1], [2, 4, 2], [5, 1, 5], [1, 5, 1], [3, 2, 5], [4, 5, 3],
         [3, 3, 4], [3, 5, 1], [3, 2, 5], [1, 4, 5], [2, 2, 4]],
        "twoway", "agreement", "average").estimate, -150 / 37, 1e-12,
     "(MSR - MSE) / (MSR + (MSC - MSE)/n) = -150/37 by exact Fractions; rendered, not a crash"),
    ("inverted ICC(A,k) interval", lambda: irr.icc(
        [[4, 3, 1], [1, 5, 4], [5, 3, 5]], "twoway", "agreement", "average").ci.low, np.nan, 0,
     "the lower bound's denominator F*(MSC - MSE) + n MSR is negative: no interval (was "
     "[3.46, 0.97])"),
    ("perfect consistency ICC interval", lambda: irr.icc(
        [[1, 2], [3, 4], [5, 6], [2, 3]], "twoway", "consistency").ci.high, np.nan, 0,
     "F is infinite (MSE = 0): the F interval is the point 1, not a 95% interval (was [1, 1])"),
    ("perfect kappa benchmark", lambda: float(irr.Agreement([1, 2, 3, 1], [1, 2, 3, 1]).kappa()
                                              .benchmark().table["probability"].iloc[0]),
     1.0, 0, "se = 0 is a point mass at kappa = 1: P(almost perfect) = 1 (was a crash)"),
    # -- end numerics ------------------------------------------------------------------------
    # -- issue 14: command line ---------------------------------------------------------------
    ("from_frame sets a patient id aside",
     lambda: irr.Agreement.from_frame(pd.DataFrame({
         "patient": range(101, 109), "reader1": [1, 2, 3, 1, 2, 3, 1, 2],
         "reader2": [1, 2, 3, 2, 2, 2, 1, 3], "reader3": [2, 2, 3, 1, 2, 3, 1, 2]})
     ).fleiss_kappa().estimate,
     89 / 185, 1e-12,
     "Fleiss (1971) on the three readers by hand: P_bar = (4 * 1/3 + 4 * 1) / 8 = 2/3; "
     "margins 7, 11, 6 of 24 give P_e = 206/576; (2/3 - 103/288) / (185/288) = 89/185"),
    ("kappa on decimal scores (warns, same number)",
     lambda: irr.Agreement([1.5, 2.25, 3.0, 4.5], [1.5, 2.0, 3.0, 4.5]).kappa().estimate,
     9 / 13, 1e-12,
     "p_o = 3/4; the raters share 1.5, 3.0 and 4.5, each 1/4 x 1/4: p_e = 3/16; "
     "(3/4 - 3/16) / (13/16) = 9/13"),
    # -- end command line --------------------------------------------------------------------
    # -- issue 14: inference and rendering ---------------------------------------------------
    ("R agree(anxiety)", lambda: irr.Agreement.from_frame(irr.datasets.load("anxiety"))
     .percent_agreement(definition="all").estimate, 0.0, 0,
     "R irr agree(anxiety) = 0%: no subject has three equal ratings"),
    ("R agree(anxiety, tolerance=1)", lambda: irr.Agreement.from_frame(
        irr.datasets.load("anxiety")).percent_agreement(definition="all", tolerance=1).estimate,
     0.35, 1e-15, "R irr agree(anxiety, 1) = 35%: 7 of 20 subjects have max - min <= 1"),
    ("pairwise agreement on anxiety", lambda: irr.Agreement.from_frame(
        irr.datasets.load("anxiety")).percent_agreement().estimate, 11 / 60, 1e-12,
     "11 agreeing rater pairs of 60 (20 subjects x 3 pairs), counted by hand"),
    ("kappa 6 of 6: no zero-width interval", lambda: irr.Agreement(
        [1, 2, 1, 2, 1, 2], [1, 2, 1, 2, 1, 2]).kappa().ci.low, math.nan, 0,
     "se = 0 at perfect agreement: a Wald interval would be [1, 1]"),
    ("percent agreement 6 of 6: Wilson", lambda: irr.Agreement(
        [1, 2, 1, 2, 1, 2], [1, 2, 1, 2, 1, 2]).percent_agreement().ci.low,
     6 / (6 + 1.959963984540054**2), 1e-12, "Wilson's lower end at p = 1 is n / (n + z^2)"),
    ("constant rater: no [.00, .00]", lambda: irr.cohen_kappa(
        [1, 1, 1, 1, 2], [1, 1, 1, 1, 1]).ci.high, math.nan, 0,
     "kappa = 0 for every table with these margins: se = 0, no Wald interval"),
    ("AUC perfect separation", lambda: irr.ordinal.roc_auc_result(
        [0] * 5 + [1] * 5, range(10), ci="wald").ci.low, 0.642703, 1e-6,
     "Newcombe (2006) method 5 lower end, by a 2e6-point grid of its defining inequality"),
    ("alpha SE with 300 empty subjects", lambda: irr.Agreement.from_array(np.vstack([
        irr.datasets.load("anxiety").to_numpy(float), np.full((300, 3), np.nan)]))
     .krippendorff_alpha("interval", ci="percentile", n_resamples=200, rng=5).bootstrap.se,
     irr.Agreement.from_frame(irr.datasets.load("anxiety")).krippendorff_alpha(
         "interval", ci="percentile", n_resamples=200, rng=5).bootstrap.se, 1e-12,
     "subjects with no rating are left out of alpha, so of its resamples"),
    ("alpha SE with 300 single-rating units", lambda: irr.Agreement.from_array(np.vstack([
        irr.datasets.load("anxiety").to_numpy(float),
        np.column_stack([np.arange(300) % 6 + 1.0, np.full((300, 2), np.nan)])]))
     .krippendorff_alpha("interval", n_resamples=200, rng=5).bootstrap.se,
     irr.Agreement.from_frame(irr.datasets.load("anxiety")).krippendorff_alpha(
         "interval", n_resamples=200, rng=5).bootstrap.se, 1e-12,
     "units with fewer than two ratings are left out of alpha, so of its resamples"),
    ("default bootstrap seed", lambda: irr.krippendorff_alpha(
        irr.datasets.load("anxiety"), "interval", n_resamples=100).seed, 0, 0,
     "rng defaults to the stated seed 0: the same interval on every call"),
    ("kappa with two clusters: t on 1 df", lambda: irr.cohen_kappa(
        [1, 2, 1, 2, 1, 1, 2, 2], [1, 2, 2, 2, 1, 1, 2, 1], cluster=[0, 0, 0, 0, 1, 1, 1, 1])
     .design_df, 1.0, 0, "G - 1 = 1 df (Cameron & Miller 2015): normal quantiles over-reject"),
    ("two-sided critical count, eps0 = 0.99", lambda: irr.critical_error_rate(
        200, 0.99, 0.05, "two-sided").critical_count[0], 194, 0,
     "exact binomial: P(X <= 194) = 0.0160 < 0.025 <= P(X <= 195) = 0.0517"),
    ("tolerance in the name", lambda: float(irr.Agreement.from_frame(irr.datasets.load(
        "anxiety")).percent_agreement(tolerance=1).coefficient
        == "Percent agreement (pairwise, tolerance 1)"), 1.0, 0,
     "a tolerance changes the statistic, so the label says so"),
    # -- end inference and rendering ---------------------------------------------------------
    # -- issue 15: files and output -----------------------------------------------
    ("float16 labels", lambda: irr.Agreement(np.array([1, 2, 1, 2], np.float16),
                                             np.array([1, 2, 2, 2], np.float16)).kappa().estimate,
     0.5, 1e-15, "p_o = 3/4, p_e = (2*1 + 2*3)/16 = 1/2: kappa = (3/4 - 1/2)/(1/2)"),
    ("pickled kappa keeps its bootstrap", lambda: __import__("pickle").loads(
        __import__("pickle").dumps(irr.Agreement([1, 2, 1, 2, 1, 3], [1, 2, 2, 2, 1, 3]).kappa(
            ci="percentile", n_resamples=500, rng=3))).conf_int(method="bca").low,
     irr.Agreement([1, 2, 1, 2, 1, 3], [1, 2, 2, 2, 1, 3]).kappa(
         ci="percentile", n_resamples=500, rng=3).conf_int(method="bca").low, 0,
     "the same replicates and jackknife before and after pickling, so the same BCa end"),
    # -- end files and output ----------------------------------------------------
    # -- issue 15: sparse designs -------------------------------------------------
    # 3,000 items each rated by two of 3,000 raters (a 9M-cell dense layout): Fleiss' kappa
    # by hand, every item has two ratings: p_o = share of agreeing items = 1/2 (items
    # alternate agree/disagree), categories balanced so p_e = 1/2 -> kappa = 0.
    ("sparse crowd fleiss", lambda: _sparse_crowd().fleiss_kappa().estimate, 0.0, 1e-12,
     "hand: p_o = 1/2, p_e = 1/2"),
    # -- end sparse designs ------------------------------------------------------
    # -- issue 15: dense categories and tables ------------------------------------
    ("ICC of a 2e9-subject table", lambda: irr.Agreement.from_table(
        [[10**9, 5], [7, 10**9]]).icc().n_subjects, 2 * 10**9 + 12, 0,
     "ICC from the 4 weighted patterns; expanding asked 29.8 GiB"),
    ("Kendall's W of a 2e9-subject table", lambda: irr.Agreement.from_table(
        [[10**9, 5], [7, 10**9]]).kendall_w().n_subjects, 2 * 10**9 + 12, 0,
     "W from the 4 weighted patterns; expanding asked 29.8 GiB"),
    ("ICC of a table = ICC of its subjects", lambda: irr.Agreement.from_table(
        [[3, 1, 0], [2, 4, 1], [0, 1, 5]]).icc("twoway", "agreement").estimate,
     irr.icc(np.repeat([[0, 0], [0, 1], [1, 0], [1, 1], [1, 2], [2, 1], [2, 2]],
                       [3, 1, 2, 4, 1, 1, 5], axis=0), "twoway", "agreement").estimate, 1e-12,
     "weighted mean squares over patterns equal those of the expanded 17 rows"),
    ("kappa_max of 300 one-decimal labels, linear", lambda: irr.Agreement(
        np.arange(300) / 10, np.r_[np.arange(1, 300), 0] / 10, continuous=False).kappa(
        weights="linear").kappa_max, 1.0, 1e-12,
     "rater b is a permutation of rater a's values: the margins match, so kappa_max = 1; "
     "before, a 300 x 90,000 dense LP (430 MB)"),
    ("kappa_max beyond the LP bound is nan", lambda: irr.Agreement(
        np.r_[np.arange(250), np.arange(250)] / 10.0,
        np.r_[np.arange(250), np.roll(np.arange(250), 1)] / 10.0, continuous=False).kappa(
        weights="radical").kappa_max, math.nan, 0,
     "radical weights are not Monge; 250 x 250 used cells exceed MAX_LP_CELLS (a warning)"),
    ("optimize_thresholds of 2,000 labels", lambda: len(irr.ordinal.optimize_thresholds(
        np.repeat(np.arange(2000), 2), np.repeat(np.arange(2000), 2) + 0.5, max_iter=2)),
     1999, 0, "one cut per adjacent pair of labels; before, 53 s per pass"),
    ("from_counts with 4e8 ratings per subject", lambda: irr.Agreement.from_counts(
        [[4 * 10**8, 0], [0, 4 * 10**8], [2 * 10**8, 2 * 10**8]]).fleiss_kappa().estimate,
     float((Fraction(2 * 4 * 10**8 * (4 * 10**8 - 1) + 2 * 2 * 10**8 * (2 * 10**8 - 1),
                     3 * 4 * 10**8 * (4 * 10**8 - 1)) - Fraction(1, 2)) / Fraction(1, 2)),
     1e-12, "Fleiss by hand: P_bar = (2 m(m-1) + 2 (m/2)(m/2-1)) / (3 m(m-1)), P_e = 1/2; "
     "counts, never one entry per rating"),
    ("kappa of 10,000 labels, 20,000 subjects", lambda: irr.Agreement(
        [f"c{i % 10_000:05d}" for i in range(20_000)],
        [f"c{(i % 10_000 + (i >= 10_000)) % 10_000:05d}" for i in range(20_000)])
     .kappa(ci="percentile", n_resamples=100).estimate, 4999 / 9999, 1e-12,
     "hand: each rater uses each label twice, p_e = 10^4 (1/10^4)^2 = 1e-4, p_o = 1/2: "
     "(1/2 - 1e-4) / (1 - 1e-4) = 4999/9999; from the occupied cells, never a 10^8 table"),
    ("percent agreement of 10,000 labels", lambda: irr.Agreement(
        [f"c{i % 10_000:05d}" for i in range(20_000)],
        [f"c{(i % 10_000 + (i >= 10_000)) % 10_000:05d}" for i in range(20_000)])
     .percent_agreement().estimate, 0.5, 0,
     "hand: the first 10,000 subjects agree, the others do not"),
    # -- end dense categories and tables -----------------------------------------
    # -- issue 15: resource harness -----------------------------------------------
    # Inputs of tests/support/resource_harness.py that give numbers today.
    ("1e12 table: kappa", lambda: irr.Agreement.from_table(
        [[10**12, 5, 7], [3, 10**12, 2], [1, 4, 10**12]]).kappa().estimate,
     float(exact_kappa([[10**12, 5, 7], [3, 10**12, 2], [1, 4, 10**12]])), 1e-15,
     "Cohen's kappa in exact Fractions (tests/support/exact_formulas.py)"),
    ("1e12 table as frequency weights: kappa", lambda: irr.Agreement.from_frame(
        pd.DataFrame({"a": [1, 1, 1, 2, 2, 2, 3, 3, 3], "b": [1, 2, 3] * 3,
                      "n": [10**12, 5, 7, 3, 10**12, 2, 1, 4, 10**12]}), ["a", "b"],
        freq_weights="n").kappa().estimate,
     float(exact_kappa([[10**12, 5, 7], [3, 10**12, 2], [1, 4, 10**12]])), 1e-15,
     "the same table as weighted rows: the same exact kappa"),
    ("counts row of m = 4e8: percent agreement", lambda: irr.Agreement.from_counts(
        [[2 * 10**8, 2 * 10**8, 0], [3, 2, 1], [0, 5, 1], [1, 1, 4]])
     .percent_agreement().estimate,
     float((Fraction(2 * 2 * 10**8 * (2 * 10**8 - 1), 4 * 10**8 * (4 * 10**8 - 1))
            + Fraction(8, 30) + Fraction(20, 30) + Fraction(12, 30)) / 4), 1e-15,
     "mean over subjects of sum n_ij (n_ij - 1) / (m_i (m_i - 1)) (Fleiss 1971), in "
     "exact Fractions: (0.49999999875 + 8/30 + 20/30 + 12/30) / 4"),
    # 800 raters x 4 subjects (1.28e6 co-ratings: the dense path; 1,200 raters took > 6 s
    # and 2 GB): 400 raters say (1, 1, 2, 2), 400 say (1, 2, 1, 2)
    ("800 raters: Light's kappa", lambda: irr.Agreement.from_frame(pd.DataFrame(
        np.repeat([[1, 1], [1, 2], [2, 1], [2, 2]], 400, axis=1),
        columns=[f"r{j}" for j in range(800)])).light_kappa().estimate,
     float(Fraction(2 * 400 * 399 // 2, 800 * 799 // 2)), 1e-12,
     "pairs of one kind agree fully (kappa 1, 2 C(400, 2) pairs); pairs across kinds have "
     "p_o = 1/2 = p_e (kappa 0, 400^2 pairs): Light = 159,600 / 319,600"),
    # -- end resource harness ----------------------------------------------------
    # -- issue 15: portable results -----------------------------------------------
    # results pickled before their bootstrap was drawn: the copy draws from the same recipe
    # and seed, so the same replicates (and jackknife) and the same ends as the original
    ("pickled undrawn kappa draws its BCa", lambda: __import__("pickle").loads(
        __import__("pickle").dumps(irr.Agreement([1, 2, 1, 2, 1, 3, 3, 2],
                                                 [1, 2, 2, 2, 1, 3, 3, 1])
                                   .kappa(n_resamples=500, rng=3)))
     .conf_int(method="bca").low,
     irr.Agreement([1, 2, 1, 2, 1, 3, 3, 2], [1, 2, 2, 2, 1, 3, 3, 1]).kappa(
         n_resamples=500, rng=3).conf_int(method="bca").low, 0,
     "the copy's recipe and seed are the original's: the same BCa end"),
    ("pickled undrawn Fleiss draws its percentile end", lambda: __import__("pickle").loads(
        __import__("pickle").dumps(irr.Agreement.from_counts(
            [[2, 1], [1, 2], [3, 0], [0, 3], [2, 1], [3, 0]]).fleiss_kappa(
                n_resamples=500, rng=4))).conf_int(method="percentile").high,
     irr.Agreement.from_counts([[2, 1], [1, 2], [3, 0], [0, 3], [2, 1], [3, 0]]).fleiss_kappa(
         n_resamples=500, rng=4).conf_int(method="percentile").high, 0,
     "the copy's recipe and seed are the original's: the same percentile end"),
    ("pickled alpha without ci draws its SE", lambda: float(__import__("pickle").loads(
        __import__("pickle").dumps(irr.krippendorff_alpha(
            [[1, 2, 3, 3, 2], [1, 2, 3, 2, 2], [1, 3, 3, 3, None]], ci=None,
            n_resamples=500))).bootstrap.se),
     float(irr.krippendorff_alpha([[1, 2, 3, 3, 2], [1, 2, 3, 2, 2], [1, 3, 3, 3, None]],
                                  ci=None, n_resamples=500).bootstrap.se), 0,
     "ci=None skips the bootstrap; the copy draws it with the default seed 0, as the original"),
    # -- end portable results ----------------------------------------------------
    # -- the surfaces added last: continuous, replicates, planning, differences, frames ----
    ("nominal alpha of values that never repeat", lambda: irr.Agreement.from_array(
        np.arange(60.0).reshape(20, 3) + 0.5, continuous=False).krippendorff_alpha().estimate,
     0.0, 0,
     "no two of the 60 values coincide: D_o = D_e = 1, alpha = 1 - 1/1 (Krippendorff 2011)"),
    ("difference of the ICCs of continuous Agreements", lambda: irr.difference(
        irr.Agreement(np.arange(1.0, 21), np.arange(1.0, 21) + np.sin(np.arange(20)),
                      continuous=True),
        irr.Agreement(np.arange(1.0, 21), np.arange(1.0, 21) + 3 * np.cos(np.arange(20)),
                      continuous=True), statistic="icc", independent=True).estimate,
     irr.icc(np.column_stack([np.arange(1.0, 21), np.arange(1.0, 21) + np.sin(np.arange(20))]))
     .estimate - irr.icc(np.column_stack([np.arange(1.0, 21), np.arange(1.0, 21) + 3 * np.cos(
         np.arange(20))])).estimate, 1e-12,
     "the difference of the two groups' ICC(A,1) from irr.icc on the arrays"),
    ("plan: an unreachable target has no n", lambda: float(
        irr.plan.limits_of_agreement(bias=0, sd=2.5, delta=4.9).n is None), 1.0, 0,
     "delta = 4.9 below the true limits' reach (1.96 x 2.5 = 4.9): no sentinel n"),
    # -- end surfaces added last -------------------------------------------------
]


@pytest.mark.parametrize(("call", "expected", "tol"), [c[1:4] for c in VALUE_CASES],
                         ids=[c[0] for c in VALUE_CASES])
def test_hostile_input_gives_the_right_number(call, expected, tol):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        got = call()
    if np.isnan(expected):
        assert np.isnan(got)
    else:
        assert got == pytest.approx(expected, abs=tol)


def test_booleans_are_categories_false_below_true():
    a = [True, False, True, True, False, True]
    b = [True, False, False, True, True, True]
    ag = irr.Agreement(a, b)
    assert list(ag.categories) == [False, True]
    assert ag.table.to_numpy().tolist() == [[1, 1], [1, 3]]
    # p_o = 4/6, p_e = (2*2 + 4*4)/36 = 20/36: kappa = (24 - 20) / (36 - 20) = 0.25
    assert ag.kappa().estimate == pytest.approx(0.25, abs=1e-15)
    assert ag.kappa("quadratic").estimate == pytest.approx(0.25, abs=1e-15)  # two categories
    assert irr.quadratic_weighted_kappa(a, b) == pytest.approx(0.25, abs=1e-15)
    with pytest.warns(DegenerateDataWarning, match="Wald interval undefined"):
        assert irr.Agreement.from_table([[True, False], [False, True]]).kappa().estimate == 1.0


@pytest.mark.parametrize("offset", [0, 2**62, I64_MAX - 3, I64_MIN])
def test_unweighted_kappa_and_qwk_exact_at_int64_extremes(offset):
    base_a = np.array([0, 1, 2, 2, 1, 0, 2, 3])
    base_b = np.array([0, 2, 2, 1, 1, 0, 2, 3])
    reference = irr.Agreement(base_a, base_b).kappa()
    expected_qwk = irr.quadratic_weighted_kappa(base_a, base_b)
    a = base_a.astype(np.int64) + np.int64(offset)
    b = base_b.astype(np.int64) + np.int64(offset)
    # Unweighted: codes are exact, the labels need no scores.
    labels_a = a.astype(str)
    labels_b = b.astype(str)
    assert irr.Agreement(labels_a, labels_b).kappa().estimate == pytest.approx(
        reference.estimate, abs=1e-15)
    assert irr.quadratic_weighted_kappa(a, b) == pytest.approx(expected_qwk, abs=1e-15)
    assert irr.quadratic_weighted_kappa(a, b, offset, offset + 3) == pytest.approx(
        expected_qwk, abs=1e-15)


def test_uint64_labels_above_int64_are_coded_exactly():
    a = np.array([2**63 + 5, 2**63 + 6, 2**63 + 6], dtype=np.uint64)
    b = np.array([2**63 + 5, 2**63 + 6, 2**63 + 5], dtype=np.uint64)
    expected = irr.quadratic_weighted_kappa([5, 6, 6], [5, 6, 5])
    assert irr.quadratic_weighted_kappa(a, b) == pytest.approx(expected, abs=1e-15)



def exact_scott(table):
    t = [[Fraction(int(x)) for x in row] for row in table]
    n = sum(map(sum, t))
    k = len(t)
    po = sum(t[i][i] for i in range(k)) / n
    pi = [(sum(t[i]) + sum(t[j][i] for j in range(k))) / (2 * n) for i in range(k)]
    pe = sum(p * p for p in pi)
    return (po - pe) / (1 - pe)


@pytest.mark.parametrize("table", [
    [[3_000_000_000, 1], [2, 5]],                 # beyond int32
    [[3_000_000_000, 7_000_000_000], [2, 2**40]],
    [[2**53 + 1, 3], [5, 2**53 + 7]],             # total beyond 2**53
    [[2**61, 12345], [678, 2**60]],
])
def test_huge_counts_match_exact_fractions(table):
    ag = irr.Agreement.from_table(table)
    assert ag.n_subjects == sum(map(sum, table))
    assert ag.kappa().estimate == pytest.approx(float(exact_kappa(table)), rel=1e-12)
    assert ag.scott_pi().estimate == pytest.approx(float(exact_scott(table)), rel=1e-12)
    assert ag.conger_kappa().estimate == pytest.approx(float(exact_kappa(table)), rel=1e-12)


@pytest.mark.parametrize("big", [10**12, 10**14, 10**15])
def test_expected_agreement_within_1e12_of_one_stays_accurate(big):
    # Nearly every subject in category 0: p_e is within ~1e-12..1e-15 of 1.
    table = [[big, 1], [2, 1]]
    ag = irr.Agreement.from_table(table)
    cohen, scott = float(exact_kappa(table)), float(exact_scott(table))
    assert ag.kappa().estimate == pytest.approx(cohen, rel=1e-12)
    assert ag.fleiss_kappa().estimate == pytest.approx(scott, rel=1e-12)
    assert ag.scott_pi().estimate == pytest.approx(scott, rel=1e-12)
    assert ag.conger_kappa().estimate == pytest.approx(cohen, rel=1e-12)
    assert ag.light_kappa().estimate == pytest.approx(cohen, rel=1e-12)
    # Krippendorff's alpha: 1 - (n - 1) D_o / D_e with the small-sample factor.
    t = [[Fraction(x) for x in row] for row in table]
    n = 2 * sum(map(sum, t))
    margins = [sum(t[i]) + t[0][i] + t[1][i] for i in range(2)]
    do = 2 * (t[0][1] + t[1][0])
    alpha = 1 - (n - 1) * do / (2 * margins[0] * margins[1])
    assert ag.krippendorff_alpha(ci=None).estimate == pytest.approx(float(alpha), rel=1e-12)
    # Gwet's AC1 and Brennan-Prediger have p_e far from 1 here; still exact to rounding.
    po = (t[0][0] + t[1][1]) / sum(map(sum, t))
    pi = [Fraction(margins[0], n), Fraction(margins[1], n)]
    pe_gwet = sum(p * (1 - p) for p in pi)
    assert ag.gwet_ac().estimate == pytest.approx(float((po - pe_gwet) / (1 - pe_gwet)), rel=1e-12)
    assert ag.brennan_prediger().estimate == pytest.approx(float(2 * po - 1), rel=1e-12)


def test_multirater_counts_near_one_match_fractions():
    # Three raters, counts layout: most subjects unanimous in category 0.
    big = 10**13
    counts = np.array([[3, 0], [2, 1], [0, 3], [1, 2]])
    multiplicity = [big, 1, 1, 1]
    ag = irr.Agreement.from_counts(counts)
    from irr.coefficients.chance_corrected import counts_kernel

    value = counts_kernel(counts, np.array([multiplicity], float), np.eye(2), "fleiss")[0]
    n = sum(multiplicity)
    pa = sum(Fraction(m) * sum(Fraction(r * (r - 1), 6) for r in row)
             for row, m in zip(counts.tolist(), multiplicity, strict=True)) / n
    pi0 = sum(Fraction(m * row[0], 3) for row, m in zip(counts.tolist(), multiplicity, strict=True)) / n
    pe = pi0**2 + (1 - pi0) ** 2
    assert value == pytest.approx(float((pa - pe) / (1 - pe)), rel=1e-10)
    assert ag.fleiss_kappa().estimate == pytest.approx(
        float(counts_kernel(counts, np.ones((1, 4)), np.eye(2), "fleiss")[0]), rel=1e-14)


def test_a_million_distinct_labels_fail_fast_without_a_k_by_k_allocation():
    k = 10**6
    a = np.arange(k)
    # as categories (continuous=None reads them as measurements since issue 18)
    for make in (lambda: irr.Agreement(a, a, continuous=False),
                 lambda: irr.Agreement(a.astype(float) + 0.5, a.astype(float) + 0.5,
                                       continuous=False),
                 lambda: irr.krippendorff_alpha(np.column_stack([a, a]).astype(float))):
        tracemalloc.start()
        start = time.process_time()
        with pytest.raises(ValueError, match="1000000 distinct labels"):
            make()
        elapsed = time.process_time() - start
        peak = tracemalloc.get_traced_memory()[1]
        tracemalloc.stop()
        assert peak < 256 * 2**20 < k * k * 8  # O(n) scratch, never k x k
        assert elapsed < 5


def test_memory_peak_of_kappa_on_a_million_int8_pairs():
    n = 10**6
    rng = np.random.default_rng(1)
    a = rng.integers(1, 6, n, dtype=np.int8)
    b = np.clip(a + rng.integers(-1, 2, n, dtype=np.int8), 1, 5).astype(np.int8)
    tracemalloc.start()
    estimate = irr.Agreement(a, b).kappa("quadratic").estimate
    peak = tracemalloc.get_traced_memory()[1]
    tracemalloc.stop()
    # Budget: two int8 code arrays (2n bytes) plus chunk scratch (< 24 MiB with 2**20 chunks);
    # a full-length int64 temporary alone would be 8n bytes.
    assert peak < 2 * n + 24 * 2**20
    tracemalloc.start()
    qwk = irr.quadratic_weighted_kappa(a, b)
    peak = tracemalloc.get_traced_memory()[1]
    tracemalloc.stop()
    assert peak < 24 * 2**20  # chunked: no 8n-byte cell index
    assert qwk == pytest.approx(estimate, abs=1e-14)
    table = np.zeros((5, 5), np.int64)
    np.add.at(table, (a - 1, b - 1), 1)
    assert estimate == pytest.approx(irr.Agreement.from_table(table).kappa("quadratic").estimate,
                                     abs=1e-14)


def test_degenerate_data_warn_and_give_nan():
    ag = irr.Agreement([1, 1, 1], [1, 1, 1])
    for method in ("kappa", "fleiss_kappa", "conger_kappa", "scott_pi"):
        with pytest.warns(DegenerateDataWarning, match="undefined"):
            assert np.isnan(getattr(ag, method)().estimate)
    with pytest.warns(DegenerateDataWarning, match="undefined"):
        assert np.isnan(ag.krippendorff_alpha(ci=None).estimate)
    with pytest.warns(DegenerateDataWarning, match="undefined"):
        assert np.isnan(irr.quadratic_weighted_kappa([2, 2], [2, 2]))
    # Declared but unused categories make AC1 and Brennan-Prediger defined; their SE is 0,
    # so the warning is about the interval only.
    ag3 = irr.Agreement([1, 1, 1], [1, 1, 1], categories=[1, 2])
    with pytest.warns(DegenerateDataWarning, match="Wald interval undefined"):
        assert ag3.gwet_ac().estimate == 1.0
    with pytest.warns(DegenerateDataWarning, match="Wald interval undefined"):
        assert ag3.brennan_prediger().estimate == 1.0
