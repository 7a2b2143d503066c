"""The command line run in the test process: ``cli(*args, stdin="")``.

Shared by the CLI tests; subprocess runs are kept for the few end-to-end checks that need
a real process.
"""

import contextlib
import io
import sys
import warnings

from irr.cli import main


def cli(*args, stdin=""):
    """``irr ARGS`` in this process, reading `stdin`: (exit status, stdout, stderr)."""
    out, err = io.StringIO(), io.StringIO()
    saved = sys.stdin
    sys.stdin = io.TextIOWrapper(io.BytesIO(stdin.encode("utf-8")), encoding="utf-8")
    try:
        with (contextlib.redirect_stdout(out), contextlib.redirect_stderr(err),
              warnings.catch_warnings()):
            warnings.simplefilter("default")  # as a user's interpreter: warnings print
            code = main(list(args))
    finally:
        sys.stdin = saved
    return code, out.getvalue(), err.getvalue()
