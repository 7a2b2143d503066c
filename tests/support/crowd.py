"""A crowdsourcing design for the tests of sparse designs: items labelled by a few of many
annotators each, in long form (one row per label)."""

from __future__ import annotations

import numpy as np
import pandas as pd


def crowd_labels(items: int = 300, annotators: int = 50, fewest: int = 3, most: int = 5,
                 seed: int = 3) -> pd.DataFrame:
    """Columns item, annotator, label: each item labelled by `fewest` to `most` of the
    `annotators` (names ``annotator_00`` ...), each label right with probability .8."""
    rng = np.random.default_rng(seed)
    labels = np.array(["cat", "dog", "bird"])
    rows = []
    for item in range(items):
        truth = rng.choice(labels)
        for a in rng.choice(annotators, rng.integers(fewest, most + 1), replace=False):
            label = truth if rng.random() < 0.8 else rng.choice(labels)
            rows.append((f"item{item:03d}", f"annotator_{a:02d}", label))
    return pd.DataFrame(rows, columns=["item", "annotator", "label"])
