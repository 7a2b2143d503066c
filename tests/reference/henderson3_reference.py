"""Henderson's method III by brute force: dense design matrices and projections.

An independent code path for tests/unit/estimators/test_variance_components.py: every reduction is
``y' P y`` with ``P = X X^+`` of explicit indicator matrices and every expectation
coefficient the trace ``tr(Z' (P_1 - P_2) Z)`` (Searle, Casella & McCulloch 1992, §5.5),
no sufficient statistics and no closed forms. Small designs only.
"""

import numpy as np


def _proj(x):
    return x @ np.linalg.pinv(x)


def henderson3(subject, rater, y, interaction):
    """(subjects, raters, interaction, error) components of the crossed model."""
    n, k = subject.max() + 1, rater.max() + 1
    big_n = y.size
    za = np.eye(n)[subject]
    zb = np.eye(k)[rater]
    cell = subject * k + rater
    _, cell_code = np.unique(cell, return_inverse=True)
    zab = np.eye(cell_code.max() + 1)[cell_code]
    one = np.ones((big_n, 1))
    p_mu = _proj(one)
    p_a = _proj(np.hstack([one, za]))
    p_b = _proj(np.hstack([one, zb]))
    p_x = _proj(np.hstack([one, za, zb]))
    p_ab = _proj(zab)
    eye = np.eye(big_n)
    # quadratic forms, their error df (traces) and component coefficients
    forms = [p_x - p_b, p_x - p_a]
    if interaction:
        forms += [p_ab - p_x, eye - p_ab]
        effects = [za, zb, zab]
    else:
        forms += [eye - p_x]
        effects = [za, zb]
    values = np.array([y @ f @ y for f in forms])
    coef = np.array([[np.trace(z.T @ f @ z) for z in effects] + [np.trace(f)] for f in forms])
    del p_mu
    solution = np.linalg.solve(coef, values)
    if not interaction:
        solution = np.array([solution[0], solution[1], 0.0, solution[2]])
    return solution
