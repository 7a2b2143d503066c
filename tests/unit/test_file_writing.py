"""Every file the package writes goes through one writer (``irr._files``): atomically, only
regular files, never through a symbolic link. ``ReliabilityReport.save`` is its library
user; tests/unit/cli/test_output_files.py covers the command line's ``--output`` and
``--plot``."""

import os
import re
import stat

import pytest

import irr
from irr._files import Target, write_file

LINK = ("`path` {link!r} is a symbolic link (to {to!r}); irr never writes through a link: "
        "give the path of a regular file")


@pytest.fixture(scope="module")
def report():
    return irr.report(irr.datasets.load("anxiety"), figures=False, n_resamples=200)


@pytest.mark.parametrize("overwrite", [False, True])
@pytest.mark.parametrize("suffix", [".html", ".json", ".md"])
def test_save_refuses_a_link_and_keeps_its_target(report, tmp_path, overwrite, suffix):
    target = tmp_path / "precious.txt"
    target.write_text("system file")
    link = tmp_path / f"report{suffix}"
    link.symlink_to(target)
    message = LINK.format(link=str(link), to=str(target))
    with pytest.raises(ValueError, match=f"^{re.escape(message)}$"):
        report.save(link, overwrite=overwrite)
    assert target.read_text() == "system file"
    assert link.is_symlink()
    assert sorted(p.name for p in tmp_path.iterdir()) == ["precious.txt", link.name]


@pytest.mark.parametrize("overwrite", [False, True])
def test_save_refuses_a_dangling_link(report, tmp_path, overwrite):
    missing = tmp_path / "missing.html"
    link = tmp_path / "report.html"
    link.symlink_to(missing)
    with pytest.raises(ValueError, match="is a symbolic link"):
        report.save(link, overwrite=overwrite)
    assert not os.path.lexists(missing)
    assert sorted(p.name for p in tmp_path.iterdir()) == ["report.html"]


def test_save_writes_atomically_and_replaces_only_when_told(report, tmp_path):
    path = tmp_path / "report.html"
    report.save(path)
    assert path.read_text(encoding="utf-8") == report.to_html()
    first = path.stat().st_ino
    with pytest.raises(FileExistsError, match="exists; pass overwrite=True to replace it"):
        report.save(path, "json")
    assert path.read_text(encoding="utf-8") == report.to_html()
    report.save(path, "json", overwrite=True)
    assert path.read_text(encoding="utf-8") == report.to_json()
    assert path.stat().st_ino != first  # a new file renamed over the old name
    mode = stat.S_IMODE(path.stat().st_mode)
    umask = os.umask(0)
    os.umask(umask)
    assert mode == 0o666 & ~umask  # as open() would create it, not mkstemp's 0o600
    assert sorted(p.name for p in tmp_path.iterdir()) == ["report.html"]  # no temporary


def test_save_refuses_anything_but_a_regular_file(report, tmp_path):
    with pytest.raises(ValueError, match=r"is a directory; irr writes only regular files"):
        report.save(tmp_path, "text", overwrite=True)
    fifo = tmp_path / "pipe"
    os.mkfifo(fifo)
    with pytest.raises(ValueError, match=r"is a FIFO \(named pipe\); irr writes only regular"):
        report.save(fifo, "text", overwrite=True)
    assert stat.S_ISFIFO(os.lstat(fifo).st_mode)


def test_a_link_made_between_check_and_write_is_refused(tmp_path):
    # the check is repeated just before the rename; and os.replace renames over the name
    # itself, so even a link made after that check would be replaced, never followed
    target = tmp_path / "precious.txt"
    target.write_text("system file")
    path = tmp_path / "out.txt"
    path.write_text("mine")
    writer = Target(str(path), "`path`", "pass overwrite=True to replace it", overwrite=True)
    assert writer.check()
    writer.reserve()
    path.unlink()
    path.symlink_to(target)
    try:
        with pytest.raises(ValueError, match="is a symbolic link"):
            writer.commit("new")
    finally:
        writer.discard()
    assert target.read_text() == "system file"
    assert sorted(p.name for p in tmp_path.iterdir()) == ["out.txt", "precious.txt"]


def test_without_hard_links_the_name_is_created_exclusively(tmp_path, monkeypatch):
    # a file system without hard links: O_EXCL | O_NOFOLLOW, which fails on any existing
    # name, a dangling link included
    def no_links(*args, **kwargs):
        raise PermissionError(1, "Operation not permitted")

    monkeypatch.setattr(os, "link", no_links)
    path = tmp_path / "new.txt"
    write_file(path, "one")
    assert path.read_text() == "one"
    link = tmp_path / "link.txt"
    writer = Target(str(link), "`path`", "pass overwrite=True to replace it")
    assert not writer.check()
    link.symlink_to(tmp_path / "missing.txt")  # appears after the check
    try:
        with pytest.raises(FileExistsError, match="appeared during the run"):
            writer.commit("two")
    finally:
        writer.discard()
    assert not (tmp_path / "missing.txt").exists()
