"""Comparing two :class:`irr._measurements.Measurements` view by view."""

from __future__ import annotations

import numpy as np


def assert_same_views(got, want, methods: tuple[str, ...] = ()) -> None:
    """`got` and `want` give the same arrays, bit for bit (the sign of -0.0 included):
    wide, by rater, the long columns, the replicate counts, the cell sums, and the
    arrays of the named no-argument `methods`."""
    pairs = [(got.wide(), want.wide()), (got.by_rater(), want.by_rater()),
             (got.subject, want.subject), (got.rater, want.rater),
             (got.value, want.value), (got.replicates, want.replicates),
             *((getattr(got, m)(), getattr(want, m)()) for m in methods),
             *zip(got.cell_sums(), want.cell_sums(), strict=True)]
    for a, b in pairs:
        np.testing.assert_array_equal(a, b)
        assert np.array_equal(np.signbit(a), np.signbit(b))
