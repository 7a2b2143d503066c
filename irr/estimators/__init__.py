"""Estimators: one module per family of coefficients.

Each module takes :class:`irr._statistics.Statistics` (never an Agreement or a
DataFrame), an :class:`irr.inference.options.InferenceOptions` and an
:class:`irr.inference.plan.ResamplingPlan`, and returns its own result class: the
estimate, its variance and test, and the recipe that bootstraps it over the plan's fine
patterns.
"""
