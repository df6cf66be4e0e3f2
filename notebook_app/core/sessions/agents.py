"""Agent sessions: what each agent started with, and every write it made since.

A server that hands a soul to an agent (the MCP server) writes that session's
file here, so the notebook can later answer "what is my agent running with, and
what did it write?". The state lives in ``<home>/.notebook/sessions/``, a dot
folder that is not a bootstrap file: composing a soul never reads it, and a
home without it works exactly as before.

Per session, ``<id>.json`` holds the frozen snapshot, written once at
session start by temp file, fsync and ``os.replace``: readers see all of it
or none of it. The session's start and every memory-tool call it made (its
writes and its failed calls) are events of the home's one log
(:mod:`..log.store`), by the session's actor: a session's calls are a view
of that log, never a second copy. Sessions recorded before the log existed
kept their calls in ``<id>.journal.jsonl``, one JSON object per line; those
are read where they are, never rewritten, and their writes are not undoable
(:func:`append_old_call` still writes that format, for call files made elsewhere).

The session file's data and its JSON codec live in :mod:`.records`; the folder's
paths, ids, safe reads and lock in :mod:`.folder`; this module is the store.
"""

from __future__ import annotations

import json
import os
from dataclasses import dataclass, replace
from datetime import datetime
from pathlib import Path
from typing import TYPE_CHECKING

from notebook_app.core.fs.atomic import write_all, write_atomically
from notebook_app.core.fs.state_dir import STATE_DIR
from notebook_app.core.home.layout import FLAT, FileMap
from notebook_app.core.home.soul import home_path
from notebook_app.core.record.log.actor import Actor
from notebook_app.core.memory.tool import ToolResult
from notebook_app.core.sessions.calls import call_entry, logged_calls
from notebook_app.core.sessions.folder import (
    OLD_CALLS_SUFFIX,
    SESSION_FILE_SUFFIX,
    SESSION_ID,
    SESSIONS_DIR,
    TEMP_PREFIX,
    check_id,
    cut_unfinished_line,
    locked_sessions,
    new_session_id,
    read_regular,
    read_session_file_json,
    sessions_path,
)
from notebook_app.core.sessions.presence import is_live
from notebook_app.core.sessions.pruned import PrunedCalls, read_pruned
from notebook_app.core.sessions.records import (
    SESSION_FILE_FORMAT,
    SESSION_FILE_VERSION,
    AgentSession,
    AgentSessionError,
    CallCounts,
    CallEntry,
    SessionSummary,
    json_bytes,
    session_file_json,
    session_from_json,
)
from notebook_app.core.sessions.snapshot import take_snapshot
from notebook_app.core.record.side_events import record_session_start

if TYPE_CHECKING:
    from notebook_app.core.hosts.profile import HostProfile

__all__ = [
    "OLD_CALLS_SUFFIX",
    "SESSION_FILE_FORMAT",
    "SESSION_FILE_SUFFIX",
    "SESSION_FILE_VERSION",
    "SESSIONS_DIR",
    "STATE_DIR",
    "AgentSession",
    "AgentSessionError",
    "CallCounts",
    "CallEntry",
    "SessionListing",
    "SessionSummary",
    "UnreadableSessionFile",
    "append_old_call",
    "list_sessions",
    "load_session",
    "new_session",
    "call_entry",
    "logged_calls",
    "read_calls",
    "old_call_files",
    "read_old_call_file",
    "write_old_call",
    "write_session_file",
    "scan_sessions",
    "session_actor",
    "sessions_path",
    "start_session",
]


@dataclass(frozen=True)
class UnreadableSessionFile:
    """A file named like a session file that cannot be read back, and why."""

    id: str
    path: Path
    message: str
    """In words, e.g. "session record …/ID.json is not valid JSON"."""


@dataclass(frozen=True)
class SessionListing:
    """What :func:`scan_sessions` found: the sessions, and the session files it could not read."""

    sessions: tuple[SessionSummary, ...]
    """Newest first."""
    unreadable: tuple[UnreadableSessionFile, ...]
    """Newest id first; each left out of ``sessions``, none of them silently."""


def new_session(
    home: str | os.PathLike[str],
    *,
    client_name: str | None = None,
    client_version: str | None = None,
    protocol_version: str | None = None,
    host: HostProfile | None = None,
    files: FileMap = FLAT,
) -> AgentSession:
    """Compose the soul now, as ``host`` loads it (None: the contract), and freeze it as a new session; nothing
    is written. ``files``: where the home keeps its files (a Hermes home's entry files are in ``memories/``)."""
    snapshot = take_snapshot(home, 0, host=host, files=files)
    return AgentSession(
        id=new_session_id(snapshot.taken_at),
        started_at=snapshot.taken_at,
        client_name=client_name,
        client_version=client_version,
        protocol_version=protocol_version,
        compose_seconds=snapshot.compose_seconds,
        composition=snapshot.composition,
    )


def write_session_file(home: str | os.PathLike[str], session: AgentSession) -> Path:
    """Write ``session``'s frozen snapshot durably and log its start; return the session file's path.

    Makes ``.notebook/sessions`` on first use, but never the home itself.
    """
    check_id(session.id)
    data = json_bytes(session_file_json(session), indent=2)
    root = home_path(home)
    with locked_sessions(root, create=True) as folder:
        write_atomically(folder, session.id + SESSION_FILE_SUFFIX, data, temp_prefix=TEMP_PREFIX)
    problem = record_session_start(root, session_actor(session), session.protocol_version, session.found)
    if problem is not None:
        raise AgentSessionError(f"session {session.id} is recorded but its start is not in the history: {problem}")
    return folder / (session.id + SESSION_FILE_SUFFIX)


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
    """:func:`new_session` and :func:`write_session_file` in one step."""
    session = new_session(
        home, client_name=client_name, client_version=client_version, protocol_version=protocol_version
    )
    write_session_file(home, session)
    return session


def write_old_call(home: str | os.PathLike[str], session_id: str, args: object, result: ToolResult) -> CallEntry:
    """Append one call to the session's old-format call file and return the entry written.

    The server no longer calls it: a tool whose ``by`` is the session's actor
    logs its own calls in the event log.
    """
    entry = CallEntry.from_call(args, result)
    append_old_call(home, session_id, entry)
    return entry


def append_old_call(home: str | os.PathLike[str], session_id: str, entry: CallEntry) -> None:
    """Append ``entry`` to the old-format call file (``<id>.journal.jsonl``) of a recorded session, durably."""
    check_id(session_id)
    line = json_bytes(entry.to_json())
    with locked_sessions(home_path(home), create=False) as folder:
        if not (folder / (session_id + SESSION_FILE_SUFFIX)).is_file():
            raise AgentSessionError(f"no recorded session {session_id} in {folder}")
        fd = os.open(
            folder / (session_id + OLD_CALLS_SUFFIX),
            os.O_RDWR | os.O_APPEND | os.O_CREAT | os.O_NOFOLLOW | os.O_CLOEXEC,
            0o644,
        )
        try:
            cut_unfinished_line(fd)
            write_all(fd, line)
            os.fsync(fd)
        finally:
            os.close(fd)


def list_sessions(home: str | os.PathLike[str]) -> list[SessionSummary]:
    """Every readable recorded session of ``home``, newest first.

    A home with no state folder has none. A session file that cannot be read (edited
    by hand, say) is left out rather than failing the whole list; use
    :func:`scan_sessions` to name it too. Raises ``OSError`` only when the
    sessions folder itself cannot be listed.
    """
    return list(scan_sessions(home).sessions)


def scan_sessions(home: str | os.PathLike[str]) -> SessionListing:
    """The recorded sessions of ``home``, newest first, and the session files that cannot be read.

    Raises ``OSError`` only when the sessions folder itself cannot be listed.
    """
    folder = sessions_path(home)
    try:
        names = os.listdir(folder)
    except (FileNotFoundError, NotADirectoryError):
        return SessionListing((), ())
    summaries = []
    unreadable = []
    pruned = read_pruned(home_path(home))
    logged = logged_calls(home, counted=pruned.counted)
    for name in names:
        session_id = name.removesuffix(SESSION_FILE_SUFFIX)
        if not name.endswith(SESSION_FILE_SUFFIX) or not SESSION_ID.fullmatch(session_id):
            continue
        try:
            summaries.append(_summary(home, folder, session_id, logged, pruned.of(session_id)))
        except AgentSessionError as error:
            unreadable.append(UnreadableSessionFile(session_id, folder / name, str(error)))
    summaries.sort(key=lambda s: (s.started_at, s.id), reverse=True)
    unreadable.sort(key=lambda r: r.id, reverse=True)
    return SessionListing(tuple(summaries), tuple(unreadable))


def _summary(
    home: str | os.PathLike[str],
    folder: Path,
    session_id: str,
    logged: dict[str, list[CallEntry]],
    pruned: CallCounts,
) -> SessionSummary:
    data = read_session_file_json(folder, session_id)
    try:
        started_at = datetime.fromisoformat(data["started_at"])
        client = data.get("client") or {}
        client_name, client_version = client.get("name"), client.get("version")
    except (AttributeError, KeyError, TypeError, ValueError) as error:
        raise AgentSessionError(f"session record {session_id} is malformed ({error!r})") from None
    counts = pruned + CallCounts.of(read_old_call_file(home, session_id) + tuple(logged.get(session_id, ())))
    return SessionSummary(
        id=session_id,
        started_at=started_at,
        client_name=client_name,
        client_version=client_version,
        writes=counts.writes,
        errors=counts.errors,
        proposals=counts.proposals,
        live=is_live(folder / (session_id + SESSION_FILE_SUFFIX)),
    )


def load_session(home: str | os.PathLike[str], session_id: str) -> AgentSession:
    """One recorded session with its frozen snapshot and its calls so far."""
    check_id(session_id)
    data = read_session_file_json(sessions_path(home), session_id)
    pruned = read_pruned(home_path(home))
    try:
        session = session_from_json(data, calls=read_calls(home, session_id, pruned=pruned))
    except (AttributeError, KeyError, TypeError, ValueError) as error:
        raise AgentSessionError(f"session record {session_id} is malformed ({error!r})") from None
    return replace(session, pruned=pruned.of(session_id))


def read_calls(
    home: str | os.PathLike[str], session_id: str, *, pruned: PrunedCalls | None = None
) -> tuple[CallEntry, ...]:
    """A session's calls, oldest first; empty when the agent has not called the tool.

    An old-format call file is read as it is; a session of the event log
    is the log's events by that session, but for those ``pruned`` counts (a prune took them out, or they are
    older than one it took out: :mod:`.pruned`).
    """
    check_id(session_id)
    counted = pruned.counted if pruned is not None else None
    return read_old_call_file(home, session_id) + tuple(
        logged_calls(home, session_id, counted=counted).get(session_id, ())
    )


def old_call_files(home: str | os.PathLike[str]) -> list[tuple[AgentSession | None, str, tuple[CallEntry, ...]]]:
    """Sessions with an old-format call file: (the session, None if unreadable; its id; its calls).

    Only those are read: a home whose sessions all live in the log costs one listing.
    """
    folder = sessions_path(home)
    try:
        names = os.listdir(folder)
    except OSError:
        return []
    found = []
    for name in sorted(names):
        session_id = name.removesuffix(OLD_CALLS_SUFFIX)
        if not name.endswith(OLD_CALLS_SUFFIX) or not SESSION_ID.fullmatch(session_id):
            continue
        try:
            entries = read_old_call_file(home, session_id)
        except AgentSessionError:
            continue
        try:
            session: AgentSession | None = session_from_json(read_session_file_json(folder, session_id), calls=())
        except (AgentSessionError, AttributeError, KeyError, TypeError, ValueError):
            session = None
        found.append((session, session_id, entries))
    return found


def read_old_call_file(home: str | os.PathLike[str], session_id: str) -> tuple[CallEntry, ...]:
    """A session's calls written to their own file before the event log, read where it is."""
    data = read_regular(sessions_path(home) / (session_id + OLD_CALLS_SUFFIX), "session journal")
    if data is None:
        return ()
    entries = []
    for line in data.split(b"\n")[:-1]:  # the last piece is "" or a line still being written
        try:
            entries.append(CallEntry.from_json(json.loads(line)))
        except (KeyError, TypeError, ValueError):
            continue
    return tuple(entries)
