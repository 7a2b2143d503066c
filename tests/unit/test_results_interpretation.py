"""Results' interpret() and benchmark(), from the SE and from bootstrap replicates."""

import numpy as np
import pytest
from scipy.stats import truncnorm

import irr

SKIN = [[10, 4, 1, 0], [5, 10, 12, 2], [2, 4, 12, 5], [0, 2, 6, 13]]


def test_interpret_uses_the_estimate_and_the_default_scale():
    res = irr.Agreement.from_table(SKIN).kappa("quadratic")
    assert str(res.interpret()) == "substantial"
    assert str(res.interpret(scale="altman")) == "good"
    with pytest.raises(ValueError, match="has no default benchmark scale"):
        irr.Agreement.from_table(SKIN).percent_agreement().interpret()


def test_benchmark_from_the_standard_error_is_a_truncated_normal():
    res = irr.Agreement.from_table(SKIN).kappa()
    table = res.benchmark().table.set_index("band")
    law = truncnorm((-1 - res.estimate) / res.se, (1 - res.estimate) / res.se,
                    loc=res.estimate, scale=res.se)
    assert table.loc["fair", "probability"] == pytest.approx(law.cdf(0.4) - law.cdf(0.2), abs=1e-9)


def test_benchmark_from_bootstrap_replicates_once_drawn():
    res = irr.Agreement.from_table(SKIN).kappa(ci="percentile", n_resamples=2000, rng=0)
    reps = res.bootstrap.replicates
    table = res.benchmark().table.set_index("band")
    # Bands use irr.bands.BOUNDARY_TOLERANCE: a replicate within 1e-12 of 0.4 is "fair".
    tol = irr.bands.BOUNDARY_TOLERANCE
    share = np.mean((reps > 0.2 + tol) & (reps <= 0.4 + tol))
    assert table.loc["fair", "probability"] == pytest.approx(share, abs=1e-12)


def test_summary_prints_band_benchmark_and_citation():
    text = irr.Agreement.from_table(SKIN).kappa().summary().as_text()
    assert "fair" in text
    assert "Bands: Landis & Koch, 1977." in text
    assert "95% benchmark" in text
