"""``irr app`` on the command line: what it says when it cannot start."""

import contextlib
import importlib
import io
import socket

import pytest

import irr.cli


def run(*args):
    err = io.StringIO()
    with contextlib.redirect_stderr(err), contextlib.redirect_stdout(io.StringIO()) as out:
        status = irr.cli.main(["app", *args])
    return status, out.getvalue(), err.getvalue()


def test_without_the_app_extra_it_says_what_to_install(monkeypatch):
    real = importlib.import_module

    def missing(name, *rest):
        if name == "irr.app":
            raise ImportError("No module named 'starlette'", name="starlette")
        return real(name, *rest)

    monkeypatch.setattr(importlib, "import_module", missing)
    assert run("--no-browser") == (
        1, "", 'irr: error: irr app needs starlette: pip install "irrstats[app]"\n')


def test_an_unknown_data_set_is_refused_before_starting():
    status, out, err = run("--dataset", "nonesuch", "--no-browser")
    assert (status, out) == (1, "")
    assert err.startswith("irr: error: Unknown data set 'nonesuch'; bundled ones are ")


def test_a_port_in_use_is_one_line():
    pytest.importorskip("uvicorn")
    with socket.socket() as busy:
        busy.bind(("127.0.0.1", 0))
        busy.listen()
        port = busy.getsockname()[1]
        status, out, err = run("--port", str(port), "--no-browser")
    assert (status, out) == (1, "")
    assert err == f"irr: error: cannot serve on port {port}: Address already in use\n"
