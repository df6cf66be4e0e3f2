"""The sessions folder on disk: its paths, the session files' ids, reads that never follow a link or block, its lock.

Writers hold ``flock`` on the sessions directory itself (as the core locks the
home directory), so concurrent servers on one home never interleave. Readers
need no lock; they never follow a link and never block on a FIFO. Every path
written is inside the sessions directory; a state folder that is a symbolic
link is refused rather than followed.
"""

from __future__ import annotations

import os
import re
import secrets
import stat
from collections.abc import Iterator
from contextlib import contextmanager
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from notebook_app.core.fs.atomic import flocked_directory, remove_temps
from notebook_app.core.fs.home_pin import HomeRefused, home_lock
from notebook_app.core.fs.state_dir import STATE_DIR, StateDirError, real_directory
from notebook_app.core.home.soul import home_path
from notebook_app.core.sessions.records import AgentSessionError, parse_session_file

SESSIONS_DIR = f"{STATE_DIR}/sessions"
"""Where agent-session files live, relative to the home."""

SESSION_FILE_SUFFIX = ".json"
OLD_CALLS_SUFFIX = ".journal.jsonl"

SESSION_ID = re.compile(r"\d{8}-\d{6}-[0-9a-f]{8}")
TEMP_PREFIX = ".tmp-"


def sessions_path(home: str | os.PathLike[str]) -> Path:
    """The folder holding ``home``'s session files (it may not exist yet)."""
    return home_path(home) / SESSIONS_DIR


def new_session_id(started_at: datetime) -> str:
    """Sortable by start time to the second, unique by its random tail."""
    return f"{started_at.astimezone(UTC):%Y%m%d-%H%M%S}-{secrets.token_hex(4)}"


def check_id(session_id: str) -> None:
    """Ids become file names: anything else could name a path outside the folder."""
    if not isinstance(session_id, str) or not SESSION_ID.fullmatch(session_id):
        raise AgentSessionError(f"not a session id: {session_id!r}")


def read_session_file_json(folder: Path, session_id: str) -> dict[str, Any]:
    path = folder / (session_id + SESSION_FILE_SUFFIX)
    raw = read_regular(path, "session record")
    if raw is None:
        raise AgentSessionError(f"no recorded session {session_id} in {folder}")
    return parse_session_file(raw, path)


def read_regular(path: Path, what: str) -> bytes | None:
    """The bytes of a file in the sessions folder; None when it is absent.

    Opened without following a link and without blocking, and read only when
    it is a regular file: a FIFO named like a session file must not hang a listing.
    """
    try:
        fd = os.open(path, os.O_RDONLY | os.O_NOFOLLOW | os.O_NONBLOCK | os.O_CLOEXEC)
    except (FileNotFoundError, NotADirectoryError):
        return None
    except OSError as error:
        raise AgentSessionError(f"cannot read {what} {path}: {error.strerror}") from None
    with os.fdopen(fd, "rb") as handle:
        if not stat.S_ISREG(os.fstat(fd).st_mode):
            raise AgentSessionError(f"{what} {path} is not a regular file")
        try:
            return handle.read()
        except OSError as error:
            raise AgentSessionError(f"cannot read {what} {path}: {error.strerror}") from None


@contextmanager
def locked_sessions(home: Path, *, create: bool) -> Iterator[Path]:
    """Hold the exclusive lock of the sessions folder, making it when ``create``.

    The home's own lock is held around it, so the home's pin is checked
    (:func:`..fs.home_pin.home_lock`) before ``.notebook/sessions`` is made.
    """
    try:
        with home_lock(home) as held:
            if not held:
                raise AgentSessionError(f"home is not a directory: {home}")
            folder = home / SESSIONS_DIR
            for path in (home / STATE_DIR, folder):
                try:
                    exists = real_directory(path, create=create)
                except StateDirError as error:
                    raise AgentSessionError(str(error)) from None
                if not exists:
                    raise AgentSessionError(f"no session records in {home} ({path} does not exist)")
            with flocked_directory(folder):
                remove_temps(folder, TEMP_PREFIX)
                yield folder
    except HomeRefused as refused:
        raise AgentSessionError(str(refused)) from None


def cut_unfinished_line(fd: int) -> None:
    """Cut an old-format call file back to its last newline: a writer died mid-line."""
    end = os.fstat(fd).st_size
    if end == 0 or os.pread(fd, 1, end - 1) == b"\n":
        return
    position = end
    while position > 0:
        start = max(0, position - 65536)
        chunk = os.pread(fd, position - start, start)
        newline = chunk.rfind(b"\n")
        if newline >= 0:
            os.ftruncate(fd, start + newline + 1)
            return
        position = start
    os.ftruncate(fd, 0)
