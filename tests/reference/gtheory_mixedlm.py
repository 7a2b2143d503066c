"""statsmodels MixedLM as the independent implementation of the REML variance components
of G studies (``irr.gstudy(method='reml')``), for
``tests/reference/test_gtheory_published.py``.

lme4 (what R's gtheory package calls) is not available here; MixedLM is an independent
REML implementation: every effect is a variance component (``vc_formula``) of one group
holding all rows, so crossed and nested effects are both expressed, and the fit is made
with ``method='bfgs', gtol=1e-10`` (its default stopping rule leaves the fourth digit of
flat components unsettled; see ``i18_mixedlm_reference.py``). Of several optimisers the
fit with the largest REML log-likelihood is kept.

The effects of each design (which variance components the model has) are named with
``irr.gtheory.designs``, so both fits have the same model; the estimation is MixedLM's own.
The data sets are simulated by :func:`design_data` (fixed seeds; one decimal) for every
design of the G-study tests, unbalanced (missing scores or unequal nesting), plus
Rajaratnam, Cronbach & Gleser's (1965) Table 2 (``irr.datasets.load('rajaratnam_2')``).

Rerun: ``python tests/reference/gtheory_mixedlm.py [name ...]`` (several minutes: MixedLM
fits one dense group) rewrites the named entries (all by default) of
``tests/reference/data/gtheory_mixedlm.json``.
"""

from __future__ import annotations

import json
import sys
import warnings
from pathlib import Path

import numpy as np
import pandas as pd

OUT = Path(__file__).resolve().parent / "data" / "gtheory_mixedlm.json"

#: name -> (facets, nested): the designs of the G-study tests.
DESIGNS = {
    "p x r": (["rater"], {}),
    "p x r x o": (["rater", "occasion"], {}),
    "p x (r:o)": (["rater", "occasion"], {"rater": "occasion"}),
    "(r:p)": (["rater"], {"rater": "patient"}),
    "p x i x r": (["item", "rater"], {}),
    "p x (i:s) x r": (["item", "site", "rater"], {"item": "site"}),
}

_SIZES = {"rater": 3, "occasion": 2, "item": 4, "site": 2}


def design_data(name: str, seed: int = 11, n: int = 24, missing: float = 0.1) -> pd.DataFrame:
    """Long data of design `name`: one row per score, columns ``patient``, the facets and
    ``score``; every effect has a normal effect (sd 0.4 to 1), a tenth of the scores are
    missing (never all of one patient), and nested facets have unequal numbers of levels
    ((r:p): 2 to 4 raters per patient; p x (i:s) x r: 2 and 4 items)."""
    rng = np.random.default_rng(seed)
    facets, nested = DESIGNS[name]
    if name == "(r:p)":
        counts = rng.integers(2, 5, size=n)
        patient = np.repeat(np.arange(n), counts)
        rater = np.concatenate([np.arange(c) for c in counts])
        y = 5 + rng.normal(size=n)[patient] + 0.8 * rng.normal(size=patient.size)
        return pd.DataFrame({"patient": patient, "rater": [f"r{p}_{r}" for p, r in
                                                          zip(patient, rater, strict=True)],
                             "score": np.round(y, 1)})
    levels = {f: np.arange(_SIZES[f]) for f in facets}
    rows = pd.MultiIndex.from_product([np.arange(n), *levels.values()],
                                      names=["patient", *facets]).to_frame(index=False)
    if name == "p x (i:s) x r":  # 2 items in site 0, 4 in site 1
        rows = rows[(rows["site"] == 1) | (rows["item"] < 2)].reset_index(drop=True)
    keys = {"patient": rows["patient"].to_numpy()}
    for f in facets:
        keys[f] = rows[f].to_numpy()
    # every effect of the design: products of the facets' codes, closed under nesting
    from irr.gtheory.designs import make_design

    design = make_design("patient", facets, nested)
    y = np.full(len(rows), 5.0)
    for j, effect in enumerate(design.effects):
        code = np.zeros(len(rows), dtype=np.int64)
        for f in effect.facets:
            code = code * 10 + keys[f]
        _, inverse = np.unique(code, return_inverse=True)
        sd = [1.0, 0.6, 0.5, 0.7, 0.4, 0.45, 0.55, 0.5, 0.4, 0.35, 0.8][j % 11]
        y = y + sd * rng.normal(size=inverse.max() + 1)[inverse]
    rows["score"] = np.round(y, 1)
    drop = rng.random(len(rows)) < missing
    drop[rows["patient"].to_numpy() == 0] = False  # patient 0 complete: connected design
    if nested.get("rater") == "occasion":
        rows["rater"] = rows["occasion"] * 10 + rows["rater"]  # unique rater labels
    return rows[~drop].reset_index(drop=True)


def _labels(frame: pd.DataFrame, facets: list[str], nested: dict[str, str]) -> dict[str, str]:
    """One column per effect (but the residual) of the global levels, and its vc formula."""
    from irr.gtheory.designs import make_design

    design = make_design("patient", facets, nested)
    out = {}
    for j, effect in enumerate(design.effects[:-1]):
        column = f"e{j}"
        frame[column] = frame[list(effect.facets)].astype(str).agg("|".join, axis=1)
        out[effect.name()] = column
    return out


def mixedlm_reml(frame: pd.DataFrame, facets: list[str], nested: dict[str, str]) -> dict:
    """REML components by MixedLM: {component name: variance} (the residual last) and the
    REML log-likelihood."""
    import statsmodels.api as sm

    frame = frame.copy()
    columns = _labels(frame, facets, nested)
    frame["g"] = 1
    vc = {name: f"0 + C({column})" for name, column in columns.items()}
    model = sm.MixedLM.from_formula("score ~ 1", groups="g", re_formula="0",
                                    vc_formula=vc, data=frame)
    best = None
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        for method, options in (("bfgs", {"gtol": 1e-10}), ("lbfgs", {})):
            try:
                fit = model.fit(reml=True, method=method, maxiter=20000, **options)
            except Exception:
                continue
            if best is None or fit.llf > best.llf:
                best = fit
    assert best is not None
    out = dict(zip(model.exog_vc.names, map(float, best.vcomp), strict=True))
    from irr.gtheory.designs import make_design

    residual = make_design("patient", facets, nested).effects[-1].name()
    out[residual] = float(best.scale)
    return {"components": out, "llf": float(best.llf)}


def main(names: list[str]) -> None:
    """Fit the named data sets (all by default) and merge them into :data:`OUT`."""
    import irr

    results = json.loads(OUT.read_text()) if OUT.exists() else {}
    for name in names or [*DESIGNS, "rajaratnam_2"]:
        if name == "rajaratnam_2":
            frame = irr.datasets.load("rajaratnam_2").rename(
                columns={"Person": "patient", "Score": "score"})
            results[name] = mixedlm_reml(frame, ["Item", "Subtest"], {"Item": "Subtest"})
        else:
            facets, nested = DESIGNS[name]
            results[name] = mixedlm_reml(design_data(name), facets, nested)
        print(name, results[name], flush=True)
        OUT.write_text(json.dumps(results, indent=1, sort_keys=True) + "\n")


if __name__ == "__main__":
    sys.path.insert(0, str(Path(__file__).resolve().parents[2]))  # the worktree's irr
    main(sys.argv[1:])
