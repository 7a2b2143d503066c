"""An independent, deliberately plain implementation of Gwet's linearised variance of
Krippendorff's alpha, in Gwet's own agreement-weight form (one subject at a time), for
tests/reference/test_inference_published.py.

Gwet, K. L. (2011). On the Krippendorff's alpha coefficient (revised October 28, 2011),
and Handbook of Inter-Rater Reliability, 4th ed. (2014), ch. 4:

- units with r_i >= 2 ratings only; r_bar their mean; eps = 1 / (n r_bar);
- agreement weights w = 1 - delta / max(delta); r*_ik = sum_l w_kl r_il;
- p_a|i = sum_k r_ik (r*_ik - 1) / (r_bar (r_i - 1)); p_a' = mean; p_a = (1 - eps) p_a' + eps;
- pi_k = mean_i r_ik / r_bar; p_e = sum_kl w_kl pi_k pi_l; alpha = (p_a - p_e) / (1 - p_e)
  and, before the small-sample factor, alpha' = (p_a' - p_e) / (1 - p_e);
- p*_i = p_a|i - p_a' (r_i / r_bar - 1); e_i = sum_k r_ik pi*_k / r_bar - p_e (r_i / r_bar - 1)
  with pi*_k = sum_l w_kl pi_l;
- alpha_i = (p*_i - p_e) / (1 - p_e); alpha*_i = alpha_i - 2 (1 - alpha')(e_i - p_e)/(1 - p_e);
- v = sum_i (alpha*_i - alpha')^2 / (n (n - 1)).

That is irr's ``se`` (irrCAC's krippen.alpha.raw as of August 2021; Stata's kappaetc).
Variants, to reproduce other printed values: ``adjust="pa"`` puts p_a for p_a' in p*_i
(irrCAC 1.0, CRAN); ``corrected=True`` linearises alpha itself, p*_i scaled to
(1 - eps) p*_i + eps and alpha for alpha' (with ``chance_factor=1`` in place of the 2:
irrCAC's krippen.alpha.dist).
"""

import math

import numpy as np


def gwet_alpha(counts, delta, adjust="pa_prime", corrected=False, chance_factor=2.0):
    """(alpha, se) of a (units, k) count matrix and a k x k squared-distance matrix."""
    counts = np.asarray(counts, dtype=float)
    delta = np.asarray(delta, dtype=float)
    w = 1.0 - delta / delta.max()
    units = [row for row in counts if row.sum() >= 2]
    n = len(units)
    r_bar = sum(row.sum() for row in units) / n
    eps = 1.0 / (n * r_bar)
    p_unit = []
    for row in units:
        r_i = row.sum()
        star = w @ row
        p_unit.append(sum(row[k] * (star[k] - 1) for k in range(len(row))) / (r_bar * (r_i - 1)))
    pa_prime = sum(p_unit) / n
    pa = (1 - eps) * pa_prime + eps
    pi = sum(row / r_bar for row in units) / n
    pe = float(pi @ w @ pi)
    alpha = (pa - pe) / (1 - pe)
    centre = alpha if corrected else (pa_prime - pe) / (1 - pe)
    reference = pa if adjust == "pa" else pa_prime
    pi_star = w @ pi
    total = 0.0
    for row, p_i in zip(units, p_unit, strict=True):
        r_i = row.sum()
        p_star = p_i - reference * (r_i / r_bar - 1)
        if corrected:
            p_star = (1 - eps) * p_star + eps
        e_i = float(row @ pi_star) / r_bar - pe * (r_i / r_bar - 1)
        a_i = (p_star - pe) / (1 - pe)
        a_star = a_i - chance_factor * (1 - centre) * (e_i - pe) / (1 - pe)
        total += (a_star - centre) ** 2
    return alpha, math.sqrt(total / (n * (n - 1)))
