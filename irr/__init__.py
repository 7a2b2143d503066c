"""irr: inter-rater reliability and agreement statistics."""

from irr._validation import DegenerateDataWarning
from irr._version import __version__

__all__ = ["DegenerateDataWarning", "__version__"]
