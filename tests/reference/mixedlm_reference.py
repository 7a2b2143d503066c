"""statsmodels MixedLM as the reference producer for the REML variance components of an
unbalanced crossed subjects x raters design (issue #18), for
``tests/reference/test_variance_components_published.py``.

Why an earlier comparison agreed only to 2e-3: MixedLM's default fit (``method='bfgs'``
then ``'lbfgs'``, gradient tolerance 1e-5 on the REML log-likelihood) stops while the
log-likelihood is flat to about 1e-7 but the components still move in the fourth digit
(subjects 82.9406 against 82.9413 on the design below). It is neither REML against ML
(both are REML) nor a boundary (all components are well inside). Fitted with
``method='bfgs', gtol=1e-10`` MixedLM reaches the optimum irr's L-BFGS-B finds, and the
components agree to 1e-7; its REML log-likelihood at irr's components equals its own
maximum to 1e-9.

Run ``python tests/reference/mixedlm_reference.py`` to print the values.
"""

from __future__ import annotations

import warnings

import numpy as np


def unbalanced_design(seed: int = 3, n: int = 30, k: int = 4,
                      missing: float = 0.2) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Subjects, raters and scores (one decimal) of a crossed design with about
    `missing` of the cells empty; every rater measures subject 0, so the design is
    connected."""
    rng = np.random.default_rng(seed)
    s = np.repeat(np.arange(n), k)
    r = np.tile(np.arange(k), n)
    y = (120 + 8 * rng.normal(size=n)[s] + 3 * rng.normal(size=k)[r]
         + 2.5 * rng.normal(size=s.size))
    keep = rng.random(s.size) > missing
    keep[:k] = True
    return s[keep], r[keep], np.round(y[keep], 1)


def _model(s: np.ndarray, r: np.ndarray, y: np.ndarray):
    import pandas as pd
    import statsmodels.api as sm

    frame = pd.DataFrame({"s": s, "r": r, "y": y, "g": 1})
    # one group holding every row; subjects and raters as crossed variance components
    return sm.MixedLM.from_formula("y ~ 1", groups="g", re_formula="0",
                                   vc_formula={"r": "0 + C(r)", "s": "0 + C(s)"},
                                   data=frame)


def mixedlm_reml(s: np.ndarray, r: np.ndarray, y: np.ndarray,
                 tight: bool = True) -> dict[str, float]:
    """REML components (subjects, raters, error), the ICC(A,1) they give and the REML
    log-likelihood, from MixedLM; ``tight=False`` is its default stopping rule."""
    model = _model(s, r, y)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # MixedLM's boundary/convergence chatter
        fit = (model.fit(reml=True, method="bfgs", gtol=1e-10, maxiter=2000) if tight
               else model.fit(reml=True))
    vc = dict(zip(model.exog_vc.names, fit.vcomp, strict=True))
    total = vc["s"] + vc["r"] + fit.scale
    return {"subjects": float(vc["s"]), "raters": float(vc["r"]),
            "error": float(fit.scale), "icc": float(vc["s"] / total),
            "llf": float(fit.llf), "converged": bool(fit.converged)}


def mixedlm_reml_loglike(s: np.ndarray, r: np.ndarray, y: np.ndarray, subjects: float,
                         raters: float, error: float) -> float:
    """MixedLM's REML log-likelihood (fixed effects profiled out) at given components."""
    from statsmodels.regression.mixed_linear_model import MixedLMParams

    model = _model(s, r, y)
    model.reml, model.cov_pen, model.fe_pen = True, None, None  # what fit() sets
    ratio = {"s": subjects / error, "r": raters / error}
    params = MixedLMParams.from_components(
        fe_params=None, cov_re=np.zeros((0, 0)),
        vcomp=np.array([ratio[name] for name in model.exog_vc.names]))
    return float(model.loglike(params, profile_fe=True))


if __name__ == "__main__":
    design = unbalanced_design()
    print("MixedLM, default stopping rule:", mixedlm_reml(*design, tight=False))
    print("MixedLM, bfgs gtol=1e-10:      ", mixedlm_reml(*design))
