"""Test configuration: hypothesis explores randomly on a developer's machine and runs a
fixed, reproducible set of examples in CI (``CI`` set), so that CI is deterministic.

Under pytest-xdist (``-n auto``: one worker per core) each worker's BLAS and OpenMP run
on one thread. A second thread per worker finds no free core: OpenBLAS's threads then
spin while they wait for one, which on a 2-core machine multiplied the CPU time of a small
BLAS call (numpy's ``leggauss(256)``, say) by ten. The variables are set before numpy is
imported (this file is loaded before any test module), inherited by the CLI's
subprocesses, and never override a value the user set.
"""

import os

if os.environ.get("PYTEST_XDIST_WORKER"):
    for _variable in ("OPENBLAS_NUM_THREADS", "OMP_NUM_THREADS", "MKL_NUM_THREADS"):
        os.environ.setdefault(_variable, "1")

from hypothesis import settings

# CI (and .ci/run, through HYPOTHESIS_PROFILE) draws the same examples on every run: a
# landing is not refused by an example no earlier run drew; local runs keep exploring
settings.register_profile("ci", derandomize=True, print_blob=True)
if os.environ.get("CI") or os.environ.get("HYPOTHESIS_PROFILE") == "ci":
    settings.load_profile("ci")
