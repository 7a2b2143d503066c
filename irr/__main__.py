"""``python -m irr``: the ``irr`` command line (see :mod:`irr.cli`)."""

import sys

from irr.cli import main

if __name__ == "__main__":
    sys.exit(main())
