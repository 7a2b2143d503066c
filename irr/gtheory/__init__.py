"""Generalizability theory: G studies (variance components of every facet and
interaction, by ANOVA or REML) and D studies (the reliability of other designs, the
cheapest design that reaches a target).

>>> import irr
>>> g = irr.gstudy(irr.datasets.load("brennan_3_2"), score="Score", object="Person",
...                facets=["Rater", "Task"], nested={"Rater": "Task"})
>>> g.design
'p × (r:t)'
"""

from irr.gtheory.results import DStudyResult, GCoefficient, GStudyResult
from irr.gtheory.study import gstudy

__all__ = ["DStudyResult", "GCoefficient", "GStudyResult", "gstudy"]
