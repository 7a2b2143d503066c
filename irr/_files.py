"""The files the package writes (``ReliabilityReport.save``, the command line's ``--output``
and ``--plot``): atomically, only regular files, and never through a symbolic link.

Every write goes through a :class:`Target`. It is checked first: a name that exists must
be a regular file (and is replaced only when the caller allows it); a symbolic link is
refused, dangling or not, because writing through it would overwrite whatever it points to
(as root, a system file). Replacing the link itself would silently turn the user's link
into a file, so the link is refused rather than replaced, and the message names it. The text
is written to a temporary file in the same directory and then renamed into place
(``os.replace``, which replaces a name and never follows a link), or, when nothing may be
replaced, hard-linked to the name (which fails if the name exists), so a reader never sees
half a file and a file created meanwhile is never overwritten.
"""

from __future__ import annotations

import contextlib
import os
import stat
import tempfile
from dataclasses import dataclass
from typing import Any

__all__ = ["Target", "file_kind", "write_file"]

_KINDS = ((stat.S_ISDIR, "directory"), (stat.S_ISCHR, "character device"),
          (stat.S_ISBLK, "block device"), (stat.S_ISFIFO, "FIFO (named pipe)"),
          (stat.S_ISSOCK, "socket"))


def file_kind(mode: int) -> str:
    """What a file of this ``st_mode`` is, in words ("regular file", "directory", ...)."""
    return next((name for test, name in _KINDS if test(mode)), "regular file" if
                stat.S_ISREG(mode) else "special file")


def _umask() -> int:
    current = os.umask(0)
    os.umask(current)
    return current


@dataclass
class Target:
    """A file to write: `path`, named in messages as `label` (``"--output"``,
    ``"`path`"``); an existing regular file is replaced only if `overwrite`, and
    `overwrite_hint` says how to allow it.

    Examples
    --------
    >>> import pathlib, tempfile
    >>> folder = pathlib.Path(tempfile.mkdtemp())
    >>> (folder / "real.txt").write_text("old")
    3
    >>> (folder / "link.txt").symlink_to(folder / "real.txt")
    >>> Target(str(folder / "link.txt"), "`path`", "", overwrite=True).check()
    Traceback (most recent call last):
    ...
    ValueError: `path` '.../link.txt' is a symbolic link (to '.../real.txt'); irr never writes ...
    >>> (folder / "real.txt").read_text()
    'old'
    """

    path: str
    label: str
    overwrite_hint: str
    overwrite: bool = False
    temporary: str | None = None

    def check(self) -> bool:
        """Whether the file exists. Raises ValueError for a symbolic link or anything but
        a regular file, FileExistsError for a file that may not be replaced."""
        shown = f"{self.label} {self.path!r}"
        try:
            mode = os.lstat(self.path).st_mode
        except FileNotFoundError:
            return False
        except OSError as exc:
            raise OSError(f"cannot write {self.path!r}: {exc.strerror or exc}") from None
        if stat.S_ISLNK(mode):
            try:
                to = f" (to {os.readlink(self.path)!r})"
            except OSError:
                to = ""
            raise ValueError(f"{shown} is a symbolic link{to}; irr never writes through a "
                             "link: give the path of a regular file")
        if not stat.S_ISREG(mode):
            raise ValueError(f"{shown} is a {file_kind(mode)}; irr writes only regular files")
        if not self.overwrite:
            raise FileExistsError(f"{shown} exists; {self.overwrite_hint}")
        return True

    def reserve(self) -> str:
        """Create the temporary file beside the target (so an unwritable directory is
        found before any work is done), and return its path."""
        directory = os.path.dirname(os.path.abspath(self.path))
        if not os.path.isdir(directory):
            raise OSError(f"cannot write {self.path!r}: no such directory {directory!r}")
        try:
            handle, self.temporary = tempfile.mkstemp(dir=directory, prefix=".irr-",
                                                      suffix=".tmp")
        except OSError as exc:
            raise OSError(f"cannot write {self.path!r}: the directory {directory!r} is not "
                          f"writable ({exc.strerror or exc})") from None
        os.close(handle)
        return self.temporary

    def commit(self, data: str | bytes) -> None:
        """Write `data` (text as UTF-8) to the temporary file and put it in place: with
        `overwrite` by renaming it over the name (checked again: still no link, only a
        regular file), else by a hard link that fails if the name appeared meanwhile."""
        temporary = self.temporary if self.temporary is not None else self.reserve()
        data = data.encode("utf-8") if isinstance(data, str) else data
        with open(temporary, "wb") as stream:
            stream.write(data)
            stream.flush()
            os.fsync(stream.fileno())
        os.chmod(temporary, 0o666 & ~_umask())
        appeared = (f"{self.label} {self.path!r} appeared during the run; "
                    f"{self.overwrite_hint}")
        if self.overwrite:
            self.check()
            os.replace(temporary, self.path)  # replaces the name: never follows a link
            return
        try:
            os.link(temporary, self.path)  # fails if the name exists: never replaces
        except FileExistsError:
            raise FileExistsError(appeared) from None
        except OSError:  # no hard links on this file system: create exclusively instead
            try:
                handle = os.open(self.path, os.O_WRONLY | os.O_CREAT | os.O_EXCL
                                 | getattr(os, "O_NOFOLLOW", 0), 0o666)
            except FileExistsError:
                raise FileExistsError(appeared) from None
            with os.fdopen(handle, "wb") as stream:
                stream.write(data)

    def discard(self) -> None:
        """Remove the temporary file (after a commit or an error)."""
        if self.temporary is not None:
            with contextlib.suppress(FileNotFoundError):
                os.unlink(self.temporary)


def write_file(path: Any, data: str | bytes, *, overwrite: bool = False,
               label: str = "`path`") -> None:
    """Write `data` to `path` through a :class:`Target`: atomically, never through a
    symbolic link, an existing file only if `overwrite`.

    Examples
    --------
    >>> import pathlib, tempfile
    >>> path = pathlib.Path(tempfile.mkdtemp()) / "out.txt"
    >>> write_file(path, "one")
    >>> write_file(path, "two")
    Traceback (most recent call last):
    ...
    FileExistsError: `path` '.../out.txt' exists; pass overwrite=True to replace it
    >>> write_file(path, "two", overwrite=True)
    >>> path.read_text()
    'two'
    """
    target = Target(os.fspath(path), label, "pass overwrite=True to replace it", overwrite)
    target.check()
    try:
        target.commit(data)
    finally:
        target.discard()
