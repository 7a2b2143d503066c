"""Independent computation of the variance-components CCC of an unbalanced design (readings
missing), for ``tests/unit/estimators/test_vc_unbalanced.py``.

Carrasco & Jover's (2003) model, fitted by statsmodels' MixedLM (REML): the methods are
fixed effects (``y ~ 0 + C(method)``), the subjects a random intercept, and with
replicates the subject x method interaction a variance component within subject. The
method variance is the variance (divisor J - 1) of the fitted method means less its
sampling part, ``(b'Cb - tr(C Var(b))) / (J - 1)`` with ``C = I - 11'/J`` and ``Var(b)``
their GLS covariance ``(X'V^{-1}X)^{-1}``, computed here from dense per-subject
covariance matrices at MixedLM's components. MixedLM's own optimiser and likelihood
code share nothing with :mod:`irr.coefficients.variance_components`.

Run ``python tests/reference/vc_unbalanced_reference.py`` to print the values on the simulated
blood-pressure data of the tests.
"""

from __future__ import annotations

import warnings

import numpy as np


def blood_pressure(seed: int = 7, n: int = 24, m: int = 3,
                   drop: tuple[int, ...] = (5, 17, 40, 88, 121)
                   ) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Simulated systolic pressures of `n` patients, `m` readings by each of two methods
    (a method shift of 3.5, interaction SD 2.5, error SD 4), readings `drop` deleted."""
    rng = np.random.default_rng(seed)
    s = rng.normal(120, 15, n)
    shift = np.array([0, 3.5])
    inter = rng.normal(0, 2.5, (n, 2))
    subject = np.repeat(np.arange(n), 2 * m)
    method = np.tile(np.repeat(np.arange(2), m), n)
    value = np.round(s[subject] + shift[method] + inter[subject, method]
                     + rng.normal(0, 4, subject.size), 1)
    keep = np.setdiff1d(np.arange(subject.size), drop)
    return subject[keep], method[keep], value[keep]


def vc_ccc_mixedlm_unbalanced(subject: np.ndarray, method: np.ndarray, value: np.ndarray,
                              interaction: bool = True) -> dict[str, float]:
    """The components and the CCC of the fixed-methods mixed model by MixedLM (REML)."""
    import pandas as pd
    import statsmodels.formula.api as smf
    from statsmodels.tools.sm_exceptions import ConvergenceWarning

    frame = pd.DataFrame({"s": subject, "r": np.asarray(method).astype(str), "y": value})
    vc = {"sr": "0 + C(r)"} if interaction else None
    model = smf.mixedlm("y ~ 0 + C(r)", frame, groups=frame["s"], re_formula="1",
                        vc_formula=vc)
    with warnings.catch_warnings():  # bfgs at gtol 1e-12 reports its precision loss
        warnings.simplefilter("ignore", ConvergenceWarning)
        fit = model.fit(reml=True, method=["bfgs"], gtol=1e-12)
    subjects = float(fit.cov_re.iloc[0, 0])
    error = float(fit.scale)
    inter = float(fit.vcomp[0]) if interaction else 0.0
    beta = fit.fe_params.to_numpy()
    k = beta.size
    # (X'V^-1 X)^-1 from dense per-subject covariance matrices at MixedLM's components
    levels = sorted(frame["r"].unique())
    info = np.zeros((k, k))
    for _, rows in frame.groupby("s"):
        x = (rows["r"].to_numpy()[:, None] == np.array(levels)[None, :]).astype(float)
        v = error * np.eye(len(rows)) + subjects + inter * (x @ x.T)
        info += x.T @ np.linalg.solve(v, x)
    cov = np.linalg.inv(info)
    c = np.eye(k) - 1.0 / k
    raters = float((beta @ c @ beta - np.trace(c @ cov)) / (k - 1))
    return {"subjects": subjects, "interaction": inter, "error": error, "raters": raters,
            "ccc": subjects / (subjects + raters + inter + error)}


if __name__ == "__main__":
    print(vc_ccc_mixedlm_unbalanced(*blood_pressure()))
