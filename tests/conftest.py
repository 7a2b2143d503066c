"""Test configuration: hypothesis explores randomly on a developer's machine and runs a
fixed, reproducible set of examples in CI (``CI`` set), so that CI is deterministic."""

import os

from hypothesis import settings

settings.register_profile("ci", derandomize=True, print_blob=True)
if os.environ.get("CI"):
    settings.load_profile("ci")
