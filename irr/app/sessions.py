"""One session per browser tab: its own folder, data and report, so tabs never mix.

A tab asks for a session when its page loads and names it in every request; the id is
random and lives only in the tab's memory (no cookie, no storage), so a second tab, even
of the same browser, starts afresh. Every session's files live under the app's temporary
folder, which is removed when the app stops.
"""

from __future__ import annotations

import pathlib
import secrets
import shutil
import threading
from dataclasses import dataclass, field
from typing import Any

__all__ = ["MAX_SESSIONS", "Session", "Sessions"]

#: Sessions kept at once; the oldest is dropped (with its files) beyond it.
MAX_SESSIONS = 64


@dataclass
class Session:
    """A tab's data and results."""

    id: str
    folder: pathlib.Path
    source: list[str] = field(default_factory=list)  #: the file path, or --dataset NAME
    name: str = ""  #: the file's name as the user gave it (or the data set's)
    kind: str = ""  #: csv, tsv, parquet, excel, dataset
    dataset: str | None = None
    detected: Any = None  #: what the page shows: the detection with the user's corrections
    baseline: Any = None  #: what ``irr report`` finds in the file by itself (wide)
    report_args: list[str] = field(default_factory=list)  #: the last report's arguments
    figures: list[tuple[str, str]] = field(default_factory=list)  #: (caption, svg)
    outputs: dict[str, pathlib.Path] = field(default_factory=dict)  #: format -> file

    @property
    def outdir(self) -> pathlib.Path:
        """Where the outputs go: apart from the uploaded file, whatever its name."""
        return self.folder / "out"

    def clear_report(self) -> None:
        for path in self.outputs.values():
            path.unlink(missing_ok=True)
        self.outputs.clear()
        self.figures = []
        self.report_args = []


class Sessions:
    """The sessions of one app, in `root` (a temporary folder)."""

    def __init__(self, root: pathlib.Path, limit: int = MAX_SESSIONS) -> None:
        self.root = pathlib.Path(root)
        self.limit = limit
        self._sessions: dict[str, Session] = {}
        self._lock = threading.Lock()

    def create(self) -> Session:
        """A new session with an empty folder of its own."""
        with self._lock:
            while len(self._sessions) >= self.limit:
                oldest = next(iter(self._sessions))
                shutil.rmtree(self._sessions.pop(oldest).folder, ignore_errors=True)
            sid = secrets.token_urlsafe(16)
            folder = self.root / sid
            folder.mkdir(mode=0o700)
            session = Session(sid, folder)
            session.outdir.mkdir()
            self._sessions[sid] = session
            return session

    def get(self, sid: str) -> Session | None:
        with self._lock:
            return self._sessions.get(sid)

    def __len__(self) -> int:
        return len(self._sessions)
