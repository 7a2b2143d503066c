"""Gwet's (2014, ch. 3) agreement-weight schemes, under their historical names.

Every weighted coefficient in :mod:`irr` resolves weights with one function,
:func:`irr.weights.agreement_weights`, whose vocabulary includes Gwet's ``'ordinal'``,
``'radical'``, ``'ratio'``, ``'circular'`` and ``'bipolar'`` schemes and kappaetc's
``'power:r'`` and ``'circular:u'`` (formulas in its Notes). This module keeps the names
earlier versions documented.

Examples
--------
>>> import numpy as np
>>> gwet_weight_name("Radical"), gwet_weight_name("squared"), gwet_weight_name(None)
('radical', 'quadratic', 'unweighted')
>>> gwet_weights("ordinal", 3, np.array([1.0, 2.0, 3.0]))[0].round(4).tolist()
[1.0, 0.6667, 0.0]
"""

from __future__ import annotations

from irr.weights import GWET_SCHEMES
from irr.weights import agreement_weights as gwet_weights
from irr.weights import weight_name as gwet_weight_name

__all__ = ["GWET_SCHEMES", "gwet_weight_name", "gwet_weights"]
