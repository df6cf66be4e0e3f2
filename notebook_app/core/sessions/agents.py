"""Agent sessions: what each agent started with, and every write it made since.

A server that hands a soul to an agent (the MCP server) records that session
here, so the notebook can later answer "what is my agent running with, and
what did it write?". The state lives in ``<home>/.notebook/sessions/``, a dot
folder that is not a bootstrap file: composing a soul never reads it, and a
home without it works exactly as before.

Per session, ``<id>.json`` holds the frozen snapshot, written once at
session start by temp file, fsync and ``os.replace``: readers see all of it
or none of it. The session's start and every memory-tool call it made (its
writes and its failed calls) are events of the home's one log
(:mod:`..log.store`), by the session's actor: a session's journal is a view
of that log, never a second copy. Sessions recorded before the log existed
kept their calls in ``<id>.journal.jsonl``, one JSON object per line; those
are read where they are, never rewritten, and their writes are not undoable
(:func:`append_journal` still writes that format, for journals made elsewhere).

Writers hold ``flock`` on the sessions directory itself (as the core locks the
home directory), so concurrent servers on one home never interleave. Readers
need no lock; they never follow a link and never block on a FIFO. Every path
written is inside the sessions directory; a state folder that is a symbolic
link is refused rather than followed. The record's data and its JSON codec
live in :mod:`.records`; this module is the store.
"""

from __future__ import annotations

import json
import os
import re
import secrets
import stat
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from ..fs.atomic import flocked_directory, remove_temps, write_all, write_atomically
from ..fs.home_pin import HomeRefused, home_lock
from ..fs.state_dir import STATE_DIR, StateDirError, real_directory
from ..home.soul import home_path
from ..log.actor import Actor
from ..memory.tool import ToolResult
from ..store.side_events import record_session_start
from .calls import journal_entry, logged_calls
from .presence import is_live
from .records import (
    RECORD_FORMAT,
    RECORD_VERSION,
    AgentSession,
    AgentSessionError,
    CallCounts,
    JournalEntry,
    SessionSummary,
    json_bytes,
    parse_record,
    record_json,
    session_from_json,
)
from .snapshot import take_snapshot

__all__ = [
    "JOURNAL_SUFFIX", "RECORD_FORMAT", "RECORD_SUFFIX", "RECORD_VERSION", "SESSIONS_DIR", "STATE_DIR",
    "AgentSession", "AgentSessionError", "CallCounts", "JournalEntry", "SessionListing", "SessionSummary",
    "UnreadableRecord", "append_journal", "list_sessions", "load_session", "new_session", "journal_entry",
    "logged_calls", "read_journal", "old_journals", "read_old_journal", "record_call", "record_session",
    "scan_sessions", "session_actor", "sessions_path", "start_session",
]

SESSIONS_DIR = f"{STATE_DIR}/sessions"
"""Where agent-session records live, relative to the home."""

RECORD_SUFFIX = ".json"
JOURNAL_SUFFIX = ".journal.jsonl"

_ID_PATTERN = re.compile(r"\d{8}-\d{6}-[0-9a-f]{8}")
_TEMP_PREFIX = ".tmp-"


@dataclass(frozen=True)
class UnreadableRecord:
    """A file named like a session record that cannot be read back, and why."""

    id: str
    path: Path
    message: str
    """In words, e.g. "session record …/ID.json is not valid JSON"."""


@dataclass(frozen=True)
class SessionListing:
    """What :func:`scan_sessions` found: the sessions, and the records it could not read."""

    sessions: tuple[SessionSummary, ...]
    """Newest first."""
    unreadable: tuple[UnreadableRecord, ...]
    """Newest id first; each left out of ``sessions``, none of them silently."""


def sessions_path(home: str | os.PathLike[str]) -> Path:
    """The folder holding ``home``'s session records (it may not exist yet)."""
    return home_path(home) / SESSIONS_DIR


def new_session(
    home: str | os.PathLike[str],
    *,
    client_name: str | None = None,
    client_version: str | None = None,
    protocol_version: str | None = None,
) -> AgentSession:
    """Compose the soul now and freeze it as a new session; nothing is written."""
    snapshot = take_snapshot(home, 0)
    return AgentSession(
        id=_new_id(snapshot.taken_at),
        started_at=snapshot.taken_at,
        client_name=client_name,
        client_version=client_version,
        protocol_version=protocol_version,
        compose_seconds=snapshot.compose_seconds,
        composition=snapshot.composition,
    )


def record_session(home: str | os.PathLike[str], session: AgentSession) -> Path:
    """Write ``session``'s frozen snapshot durably and log its start; return the record's path.

    Makes ``.notebook/sessions`` on first use, but never the home itself.
    """
    _check_id(session.id)
    data = json_bytes(record_json(session), indent=2)
    root = home_path(home)
    with _locked_sessions(root, create=True) as folder:
        write_atomically(folder, session.id + RECORD_SUFFIX, data, temp_prefix=_TEMP_PREFIX)
    problem = record_session_start(root, session_actor(session), session.protocol_version, session.found)
    if problem is not None:
        raise AgentSessionError(f"session {session.id} is recorded but its start is not in the history: {problem}")
    return folder / (session.id + RECORD_SUFFIX)


def session_actor(session: AgentSession) -> Actor:
    """The ``by`` of everything the session writes: its id and its client."""
    return Actor.mcp(session.id, session.client_name, session.client_version)


def start_session(
    home: str | os.PathLike[str],
    *,
    client_name: str | None = None,
    client_version: str | None = None,
    protocol_version: str | None = None,
) -> AgentSession:
    """:func:`new_session` and :func:`record_session` in one step."""
    session = new_session(
        home, client_name=client_name, client_version=client_version, protocol_version=protocol_version
    )
    record_session(home, session)
    return session


def record_call(
    home: str | os.PathLike[str], session_id: str, args: object, result: ToolResult
) -> JournalEntry:
    """Journal one call in the session's old-format journal and return the entry written.

    The server no longer calls it: a tool whose ``by`` is the session's actor
    logs its own calls in the event log.
    """
    entry = JournalEntry.from_call(args, result)
    append_journal(home, session_id, entry)
    return entry


def append_journal(home: str | os.PathLike[str], session_id: str, entry: JournalEntry) -> None:
    """Append ``entry`` to the old-format journal (``<id>.journal.jsonl``) of a recorded session, durably."""
    _check_id(session_id)
    line = json_bytes(entry.to_json())
    with _locked_sessions(home_path(home), create=False) as folder:
        if not (folder / (session_id + RECORD_SUFFIX)).is_file():
            raise AgentSessionError(f"no recorded session {session_id} in {folder}")
        fd = os.open(
            folder / (session_id + JOURNAL_SUFFIX),
            os.O_RDWR | os.O_APPEND | os.O_CREAT | os.O_NOFOLLOW | os.O_CLOEXEC,
            0o644,
        )
        try:
            _cut_unfinished_line(fd)
            write_all(fd, line)
            os.fsync(fd)
        finally:
            os.close(fd)


def list_sessions(home: str | os.PathLike[str]) -> list[SessionSummary]:
    """Every readable recorded session of ``home``, newest first.

    A home with no state folder has none. A record that cannot be read (edited
    by hand, say) is left out rather than failing the whole list; use
    :func:`scan_sessions` to name it too. Raises ``OSError`` only when the
    sessions folder itself cannot be listed.
    """
    return list(scan_sessions(home).sessions)


def scan_sessions(home: str | os.PathLike[str]) -> SessionListing:
    """The recorded sessions of ``home``, newest first, and the records that cannot be read.

    Raises ``OSError`` only when the sessions folder itself cannot be listed.
    """
    folder = sessions_path(home)
    try:
        names = os.listdir(folder)
    except (FileNotFoundError, NotADirectoryError):
        return SessionListing((), ())
    summaries = []
    unreadable = []
    logged = logged_calls(home)
    for name in names:
        session_id = name.removesuffix(RECORD_SUFFIX)
        if not name.endswith(RECORD_SUFFIX) or not _ID_PATTERN.fullmatch(session_id):
            continue
        try:
            summaries.append(_summary(home, folder, session_id, logged))
        except AgentSessionError as error:
            unreadable.append(UnreadableRecord(session_id, folder / name, str(error)))
    summaries.sort(key=lambda s: (s.started_at, s.id), reverse=True)
    unreadable.sort(key=lambda r: r.id, reverse=True)
    return SessionListing(tuple(summaries), tuple(unreadable))


def _summary(
    home: str | os.PathLike[str], folder: Path, session_id: str, logged: dict[str, list[JournalEntry]]
) -> SessionSummary:
    data = _read_record_json(folder, session_id)
    try:
        started_at = datetime.fromisoformat(data["started_at"])
        client = data.get("client") or {}
        client_name, client_version = client.get("name"), client.get("version")
    except (AttributeError, KeyError, TypeError, ValueError) as error:
        raise AgentSessionError(f"session record {session_id} is malformed ({error!r})") from None
    counts = CallCounts.of(read_old_journal(home, session_id) + tuple(logged.get(session_id, ())))
    return SessionSummary(
        id=session_id,
        started_at=started_at,
        client_name=client_name,
        client_version=client_version,
        writes=counts.writes,
        errors=counts.errors,
        proposals=counts.proposals,
        live=is_live(folder / (session_id + RECORD_SUFFIX)),
    )


def load_session(home: str | os.PathLike[str], session_id: str) -> AgentSession:
    """One recorded session with its frozen snapshot and its journal so far."""
    _check_id(session_id)
    data = _read_record_json(sessions_path(home), session_id)
    try:
        return session_from_json(data, journal=read_journal(home, session_id))
    except (AttributeError, KeyError, TypeError, ValueError) as error:
        raise AgentSessionError(f"session record {session_id} is malformed ({error!r})") from None


def read_journal(home: str | os.PathLike[str], session_id: str) -> tuple[JournalEntry, ...]:
    """A session's journal, oldest first; empty when the agent has not called the tool.

    An old-format journal file is read as it is; a session of the event log
    is the log's events by that session.
    """
    _check_id(session_id)
    return read_old_journal(home, session_id) + tuple(logged_calls(home, session_id).get(session_id, ()))


def old_journals(home: str | os.PathLike[str]) -> list[tuple[AgentSession | None, str, tuple[JournalEntry, ...]]]:
    """Sessions with an old-format journal file: (the session, None if unreadable; its id; its calls).

    Only those are read: a home whose sessions all live in the log costs one listing.
    """
    folder = sessions_path(home)
    try:
        names = os.listdir(folder)
    except OSError:
        return []
    found = []
    for name in sorted(names):
        session_id = name.removesuffix(JOURNAL_SUFFIX)
        if not name.endswith(JOURNAL_SUFFIX) or not _ID_PATTERN.fullmatch(session_id):
            continue
        try:
            entries = read_old_journal(home, session_id)
        except AgentSessionError:
            continue
        try:
            session: AgentSession | None = session_from_json(_read_record_json(folder, session_id), journal=())
        except (AgentSessionError, AttributeError, KeyError, TypeError, ValueError):
            session = None
        found.append((session, session_id, entries))
    return found


def read_old_journal(home: str | os.PathLike[str], session_id: str) -> tuple[JournalEntry, ...]:
    """A journal written before the event log, read where it is."""
    data = _read_regular(sessions_path(home) / (session_id + JOURNAL_SUFFIX), "session journal")
    if data is None:
        return ()
    entries = []
    for line in data.split(b"\n")[:-1]:  # the last piece is "" or a line still being written
        try:
            entries.append(JournalEntry.from_json(json.loads(line)))
        except (KeyError, TypeError, ValueError):
            continue
    return tuple(entries)


def _new_id(started_at: datetime) -> str:
    """Sortable by start time to the second, unique by its random tail."""
    return f"{started_at.astimezone(UTC):%Y%m%d-%H%M%S}-{secrets.token_hex(4)}"


def _check_id(session_id: str) -> None:
    """Ids become file names: anything else could name a path outside the folder."""
    if not isinstance(session_id, str) or not _ID_PATTERN.fullmatch(session_id):
        raise AgentSessionError(f"not a session id: {session_id!r}")


def _read_record_json(folder: Path, session_id: str) -> dict[str, Any]:
    path = folder / (session_id + RECORD_SUFFIX)
    raw = _read_regular(path, "session record")
    if raw is None:
        raise AgentSessionError(f"no recorded session {session_id} in {folder}")
    return parse_record(raw, path)


def _read_regular(path: Path, what: str) -> bytes | None:
    """The bytes of a file in the sessions folder; None when it is absent.

    Opened without following a link and without blocking, and read only when
    it is a regular file: a FIFO named like a record must not hang a listing.
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
def _locked_sessions(home: Path, *, create: bool) -> Iterator[Path]:
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
                remove_temps(folder, _TEMP_PREFIX)
                yield folder
    except HomeRefused as refused:
        raise AgentSessionError(str(refused)) from None


def _cut_unfinished_line(fd: int) -> None:
    """Cut a journal back to its last newline: a writer died mid-line."""
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
