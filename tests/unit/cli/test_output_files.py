"""The files the command line writes (``--output``, ``--plot``) are never written through a
symbolic link: a link, to a file or dangling, is refused with or without ``--force``, with one
line naming it, and what it points to is unchanged; a link that appears during the run is
refused too (or, without ``--force``, the name is never replaced)."""

import os

import numpy as np
import pandas as pd
import pytest

import irr.cli
from tests.support.cli_runner import cli

LINK_ERROR = ("irr: error: {flag} {link!r} is a symbolic link (to {to!r}); irr never writes "
              "through a link: give the path of a regular file\n")


@pytest.fixture
def measured(tmp_path):
    """Two methods measuring 30 subjects (for --plot, the Bland-Altman plot)."""
    rng = np.random.default_rng(30)
    truth = rng.normal(100, 10, 30)
    path = tmp_path / "measured.csv"
    pd.DataFrame({"a": np.round(truth + rng.normal(0, 2, 30), 1),
                  "b": np.round(truth + rng.normal(1, 2, 30), 1)}).to_csv(path, index=False)
    return path


def _args(flag, data, path):
    if flag == "--plot":
        return ("agreement", str(data), "--plot", str(path))
    return ("agreement", str(data), "--format", "json", "--output", str(path))


def _left(folder):
    return sorted(p.name for p in folder.iterdir())


@pytest.mark.parametrize("force", [(), ("--force",)], ids=["", "force"])
@pytest.mark.parametrize(("flag", "name"), [("--output", "out.json"), ("--plot", "plot.png")])
def test_a_link_to_a_file_is_refused_and_its_target_kept(measured, tmp_path, flag, name, force):
    target = tmp_path / "precious.txt"
    target.write_text("system file")
    link = tmp_path / name
    link.symlink_to(target)
    status, _, err = cli(*_args(flag, measured, link), *force)
    assert status == 1
    assert err == LINK_ERROR.format(flag=flag, link=str(link), to=str(target))
    assert target.read_text() == "system file"
    assert link.is_symlink()
    assert os.readlink(link) == str(target)
    assert _left(tmp_path) == sorted(["measured.csv", "precious.txt", name])  # no temporary


@pytest.mark.parametrize("force", [(), ("--force",)], ids=["", "force"])
@pytest.mark.parametrize(("flag", "name"), [("--output", "out.json"), ("--plot", "plot.svg")])
def test_a_dangling_link_is_refused_and_nothing_created(measured, tmp_path, flag, name, force):
    missing = tmp_path / "elsewhere" / "new.txt"
    link = tmp_path / name
    link.symlink_to(missing)
    status, _, err = cli(*_args(flag, measured, link), *force)
    assert status == 1
    assert err == LINK_ERROR.format(flag=flag, link=str(link), to=str(missing))
    assert not os.path.lexists(missing)
    assert not (tmp_path / "elsewhere").exists()
    assert link.is_symlink()
    assert _left(tmp_path) == sorted(["measured.csv", name])


def test_a_link_to_a_directory_is_refused(measured, tmp_path):
    folder = tmp_path / "folder"
    folder.mkdir()
    link = tmp_path / "out.json"
    link.symlink_to(folder)
    status, _, err = cli(*_args("--output", measured, link), "--force")
    assert status == 1
    assert err == LINK_ERROR.format(flag="--output", link=str(link), to=str(folder))
    assert list(folder.iterdir()) == []


@pytest.mark.parametrize("flag", ["--output", "--plot"])
def test_a_link_made_during_the_run_is_refused_with_force(measured, tmp_path, monkeypatch,
                                                          flag):
    # the name is a regular file when checked, a link when written: the check is repeated
    # just before the rename, and a rename would replace the link, not its target
    target = tmp_path / "precious.txt"
    target.write_text("system file")
    name = tmp_path / ("out.json" if flag == "--output" else "plot.png")
    name.write_text("mine")
    render = irr.cli._render

    def render_and_swap(out, fmt):
        name.unlink()
        name.symlink_to(target)
        return render(out, fmt)

    monkeypatch.setattr(irr.cli, "_render", render_and_swap)
    status, _, err = cli(*_args(flag, measured, name), "--force")
    assert status == 1
    assert err == LINK_ERROR.format(flag=flag, link=str(name), to=str(target))
    assert target.read_text() == "system file"
    assert name.is_symlink()
    assert _left(tmp_path) == sorted(["measured.csv", "precious.txt", name.name])


def test_a_link_made_during_the_run_is_never_replaced_without_force(measured, tmp_path,
                                                                    monkeypatch):
    target = tmp_path / "precious.txt"
    target.write_text("system file")
    name = tmp_path / "out.json"
    render = irr.cli._render

    def render_and_link(out, fmt):
        name.symlink_to(target)
        return render(out, fmt)

    monkeypatch.setattr(irr.cli, "_render", render_and_link)
    status, _, err = cli(*_args("--output", measured, name))
    assert status == 1
    assert err == (f"irr: error: --output {str(name)!r} appeared during the run; pass --force "
                   "to overwrite it\n")
    assert target.read_text() == "system file"
    assert name.is_symlink()


def test_a_regular_file_is_replaced_with_force_and_a_linked_folder_is_a_folder(measured,
                                                                              tmp_path):
    # only the last name is refused as a link: a folder reached through a link is a folder
    # (home and temporary directories often are)
    real = tmp_path / "real"
    real.mkdir()
    (tmp_path / "via").symlink_to(real)
    out = real / "out.json"
    out.write_text("old")
    before = out.stat().st_ino
    status, _, err = cli(*_args("--output", measured, tmp_path / "via" / "out.json"),
                         "--force")
    assert status == 0, err
    assert err == ""
    assert out.stat().st_ino != before  # a new file renamed into place
    import json
    assert json.loads(out.read_text())["results"]
    assert _left(real) == ["out.json"]
