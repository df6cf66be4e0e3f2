"""Agent sessions: what each agent started with, and every write it made since.

A server that hands a soul to an agent (the MCP server) records that session
here, so the notebook can later answer "what is my agent running with, and
what did it write?". The state lives in ``<home>/.notebook/sessions/``, a dot
folder that is not a bootstrap file: composing a soul never reads it, and a
home without it works exactly as before.

Per session, two files:

* ``<id>.json`` — the frozen snapshot, written once at session start by
  temp file, fsync and ``os.replace``: readers see all of it or none of it.
* ``<id>.journal.jsonl`` — one JSON object per line for every memory-tool
  call the agent made, appended with a single write and fsynced. A line a
  killed writer left without its newline is ignored by readers and cut off by
  the next writer.

Writers hold ``flock`` on the sessions directory itself (as the core locks the
home directory), so concurrent servers on one home never interleave. Readers
need no lock. Every path written is inside the sessions directory; a state
folder that is a symbolic link is refused rather than followed.
"""

from __future__ import annotations

import json
import os
import re
import secrets
import stat
from collections.abc import Iterator, Mapping
from contextlib import contextmanager
from dataclasses import dataclass, field
from datetime import datetime, timezone
from pathlib import Path
from typing import Any

from .atomic import flocked_directory, remove_temps, write_all, write_atomically
from .home import BootstrapFile, Composition, home_path
from .memory import ToolResult
from .session import Snapshot, take_snapshot
from .storage import MEMORY_TARGETS

STATE_DIR = ".notebook"
"""The notebook's state folder inside a home; never a bootstrap file."""

SESSIONS_DIR = f"{STATE_DIR}/sessions"
"""Where agent-session records live, relative to the home."""

RECORD_FORMAT = "persona-notebook/agent-session"
RECORD_VERSION = 1
RECORD_SUFFIX = ".json"
JOURNAL_SUFFIX = ".journal.jsonl"

_ID_PATTERN = re.compile(r"\d{8}-\d{6}-[0-9a-f]{8}")
_TEMP_PREFIX = ".tmp-"


class AgentSessionError(Exception):
    """A session record that cannot be written or read; the message says why."""


@dataclass(frozen=True)
class JournalEntry:
    """One memory-tool call an agent made, as it asked and as it was answered.

    ``action``, ``target``, ``text`` and ``replacement`` (the tool's ``with``)
    are the values the agent sent, None when absent; they are not
    necessarily strings, because a rejected call is journalled too.
    """

    time: datetime
    action: Any
    target: Any
    text: Any
    replacement: Any
    file: str | None
    """MEMORY.md or USER.md when the target named one, else None."""
    output: str
    is_error: bool

    @classmethod
    def from_call(cls, args: object, result: ToolResult, *, time: datetime | None = None) -> JournalEntry:
        """The entry for one call: ``args`` as the agent sent them, ``result`` as the core answered."""
        fields: Mapping[str, Any] = args if isinstance(args, Mapping) else {}
        target = fields.get("target")
        file = None
        if isinstance(args, Mapping):  # a non-object addressed no file at all
            file = MEMORY_TARGETS.get("self" if target is None else target) if isinstance(target, str | None) else None
        return cls(
            time=time or datetime.now(timezone.utc),
            action=fields.get("action"),
            target=target,
            text=fields.get("text"),
            replacement=fields.get("with"),
            file=file,
            output=result.output,
            is_error=result.is_error,
        )

    def to_json(self) -> dict[str, Any]:
        return {
            "time": self.time.isoformat(),
            "action": self.action,
            "target": self.target,
            "text": self.text,
            "with": self.replacement,
            "file": self.file,
            "output": self.output,
            "is_error": self.is_error,
        }

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> JournalEntry:
        return cls(
            time=datetime.fromisoformat(data["time"]),
            action=data.get("action"),
            target=data.get("target"),
            text=data.get("text"),
            replacement=data.get("with"),
            file=data.get("file"),
            output=str(data["output"]),
            is_error=bool(data["is_error"]),
        )


@dataclass(frozen=True)
class AgentSession:
    """One agent session: who started it, when, and the soul it was given."""

    id: str
    started_at: datetime
    client_name: str | None
    """The client's name as it announced it (MCP ``clientInfo.name``); None if it did not."""
    client_version: str | None
    protocol_version: str | None
    compose_seconds: float
    composition: Composition
    """The frozen snapshot: exactly the soul and files the session started with."""
    journal: tuple[JournalEntry, ...] = field(default=())
    """The session's memory-tool calls, oldest first, as of when it was loaded."""

    @property
    def soul(self) -> str:
        return self.composition.soul

    @property
    def found(self) -> list[str]:
        return self.composition.found

    @property
    def client_label(self) -> str:
        return _client_label(self.client_name, self.client_version)

    def snapshot(self, number: int = 0) -> Snapshot:
        """This session's start as a :class:`Snapshot`, to diff against a preview."""
        return Snapshot(
            number=number,
            taken_at=self.started_at,
            compose_seconds=self.compose_seconds,
            composition=self.composition,
        )


@dataclass(frozen=True)
class SessionSummary:
    """What a list of sessions shows, without loading each soul's files."""

    id: str
    started_at: datetime
    client_name: str | None
    client_version: str | None
    writes: int
    """Calls that changed a memory file."""
    errors: int
    """Calls answered with ``is_error`` (nothing changed)."""

    @property
    def calls(self) -> int:
        return self.writes + self.errors

    @property
    def client_label(self) -> str:
        return _client_label(self.client_name, self.client_version)


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
    """Write ``session``'s frozen snapshot durably; return the record's path.

    Makes ``.notebook/sessions`` on first use, but never the home itself.
    """
    _check_id(session.id)
    data = _json_bytes(_record_json(session), indent=2)
    with _locked_sessions(home_path(home), create=True) as folder:
        write_atomically(folder, session.id + RECORD_SUFFIX, data, temp_prefix=_TEMP_PREFIX)
    return folder / (session.id + RECORD_SUFFIX)


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
    """Journal one memory-tool call of a session and return the entry written."""
    entry = JournalEntry.from_call(args, result)
    append_journal(home, session_id, entry)
    return entry


def append_journal(home: str | os.PathLike[str], session_id: str, entry: JournalEntry) -> None:
    """Append ``entry`` to the journal of a recorded session, durably."""
    _check_id(session_id)
    line = _json_bytes(entry.to_json())
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
    """Every recorded session of ``home``, newest first.

    A home with no state folder has none. A record that cannot be read (edited
    by hand, say) is left out rather than failing the whole list.
    """
    folder = sessions_path(home)
    try:
        names = os.listdir(folder)
    except (FileNotFoundError, NotADirectoryError):
        return []
    summaries = []
    for name in names:
        session_id = name.removesuffix(RECORD_SUFFIX)
        if not name.endswith(RECORD_SUFFIX) or not _ID_PATTERN.fullmatch(session_id):
            continue
        try:
            data = _read_record_json(folder, session_id)
            started_at = datetime.fromisoformat(data["started_at"])
            client = data.get("client") or {}
        except (AgentSessionError, KeyError, TypeError, ValueError):
            continue
        journal = read_journal(home, session_id)
        errors = sum(1 for entry in journal if entry.is_error)
        summaries.append(
            SessionSummary(
                id=session_id,
                started_at=started_at,
                client_name=client.get("name"),
                client_version=client.get("version"),
                writes=len(journal) - errors,
                errors=errors,
            )
        )
    summaries.sort(key=lambda s: (s.started_at, s.id), reverse=True)
    return summaries


def load_session(home: str | os.PathLike[str], session_id: str) -> AgentSession:
    """One recorded session with its frozen snapshot and its journal so far."""
    _check_id(session_id)
    data = _read_record_json(sessions_path(home), session_id)
    try:
        return _session_from_json(data, journal=read_journal(home, session_id))
    except (KeyError, TypeError, ValueError) as error:
        raise AgentSessionError(f"session record {session_id} is malformed ({error!r})") from None


def read_journal(home: str | os.PathLike[str], session_id: str) -> tuple[JournalEntry, ...]:
    """A session's journal, oldest first; empty when the agent has not called the tool."""
    _check_id(session_id)
    try:
        with open(sessions_path(home) / (session_id + JOURNAL_SUFFIX), "rb") as handle:
            data = handle.read()
    except (FileNotFoundError, NotADirectoryError):
        return ()
    entries = []
    for line in data.split(b"\n")[:-1]:  # the last piece is "" or a line still being written
        try:
            entries.append(JournalEntry.from_json(json.loads(line)))
        except (KeyError, TypeError, ValueError):
            continue
    return tuple(entries)


def _client_label(name: str | None, version: str | None) -> str:
    if not name:
        return "(client did not say)"
    return f"{name} {version}" if version else name


def _json_bytes(value: object, indent: int | None = None) -> bytes:
    """One line (or document) of UTF-8 JSON; lone surrogates, which a rejected
    call may carry, are written as escapes so the file stays valid UTF-8."""
    try:
        return (json.dumps(value, ensure_ascii=False, indent=indent) + "\n").encode("utf-8")
    except UnicodeEncodeError:
        return (json.dumps(value, ensure_ascii=True, indent=indent) + "\n").encode("ascii")


def _new_id(started_at: datetime) -> str:
    """Sortable by start time to the second, unique by its random tail."""
    return f"{started_at.astimezone(timezone.utc):%Y%m%d-%H%M%S}-{secrets.token_hex(4)}"


def _check_id(session_id: str) -> None:
    """Ids become file names: anything else could name a path outside the folder."""
    if not isinstance(session_id, str) or not _ID_PATTERN.fullmatch(session_id):
        raise AgentSessionError(f"not a session id: {session_id!r}")


def _record_json(session: AgentSession) -> dict[str, Any]:
    files = []
    offset = 0
    for index, file in enumerate(session.composition.files):
        offset += (2 if index else 0) + len(f"## {file.name}\n\n")
        files.append(
            {
                "name": file.name,
                "digest": file.digest,
                "size": file.size,
                "truncated": file.truncated,
                "decode_error": file.decode_error,
                "body_start": offset,
                "body_end": offset + len(file.body),
            }
        )
        offset += len(file.body)
    return {
        "format": RECORD_FORMAT,
        "version": RECORD_VERSION,
        "id": session.id,
        "started_at": session.started_at.isoformat(),
        "client": {"name": session.client_name, "version": session.client_version},
        "protocol_version": session.protocol_version,
        "compose_seconds": session.compose_seconds,
        "found": session.found,
        "files": files,
        "soul": session.soul,
    }


def _session_from_json(data: Mapping[str, Any], journal: tuple[JournalEntry, ...]) -> AgentSession:
    soul = data["soul"]
    if not isinstance(soul, str):
        raise TypeError("soul is not a string")
    files = []
    for item in data["files"]:
        start, end = int(item["body_start"]), int(item["body_end"])
        header = f"## {item['name']}\n\n"
        if not (len(header) <= start <= end <= len(soul)) or soul[start - len(header) : start] != header:
            raise ValueError(f"the offsets of {item['name']} do not match the soul")
        files.append(
            BootstrapFile(
                name=item["name"],
                body=soul[start:end],
                size=int(item["size"]),
                truncated=bool(item["truncated"]),
                digest=item["digest"],
                decode_error=item.get("decode_error"),
            )
        )
    client = data.get("client") or {}
    return AgentSession(
        id=data["id"],
        started_at=datetime.fromisoformat(data["started_at"]),
        client_name=client.get("name"),
        client_version=client.get("version"),
        protocol_version=data.get("protocol_version"),
        compose_seconds=float(data.get("compose_seconds") or 0.0),
        composition=Composition(soul=soul, files=tuple(files)),
        journal=journal,
    )


def _read_record_json(folder: Path, session_id: str) -> dict[str, Any]:
    path = folder / (session_id + RECORD_SUFFIX)
    try:
        fd = os.open(path, os.O_RDONLY | os.O_NOFOLLOW | os.O_CLOEXEC)
    except (FileNotFoundError, NotADirectoryError):
        raise AgentSessionError(f"no recorded session {session_id} in {folder}") from None
    except OSError as error:
        raise AgentSessionError(f"cannot read session record {path}: {error.strerror}") from None
    with os.fdopen(fd, "rb") as handle:
        raw = handle.read()
    try:
        data = json.loads(raw)
    except ValueError:
        raise AgentSessionError(f"session record {path} is not valid JSON") from None
    if not isinstance(data, dict) or data.get("format") != RECORD_FORMAT:
        raise AgentSessionError(f"{path} is not a {RECORD_FORMAT} record")
    if data.get("version") != RECORD_VERSION:
        raise AgentSessionError(
            f"{path} is record version {data.get('version')!r}; this notebook reads {RECORD_VERSION}"
        )
    return data


def _real_directory(path: Path, *, create: bool) -> bool:
    """Whether ``path`` is a directory we may write in; make it when ``create``."""
    try:
        info = path.lstat()
    except FileNotFoundError:
        if not create:
            return False
        try:
            os.mkdir(path, 0o755)
        except FileExistsError:
            pass
        info = path.lstat()
    if stat.S_ISLNK(info.st_mode):
        raise AgentSessionError(f"{path} is a symbolic link; session records are kept only inside the home")
    if not stat.S_ISDIR(info.st_mode):
        raise AgentSessionError(f"{path} is not a directory; session records cannot be kept there")
    return True


@contextmanager
def _locked_sessions(home: Path, *, create: bool) -> Iterator[Path]:
    """Hold the exclusive lock of the sessions folder, making it when ``create``."""
    if not home.is_dir():
        raise AgentSessionError(f"home is not a directory: {home}")
    folder = home / SESSIONS_DIR
    for path in (home / STATE_DIR, folder):
        if not _real_directory(path, create=create):
            raise AgentSessionError(f"no session records in {home} ({path} does not exist)")
    with flocked_directory(folder):
        remove_temps(folder, _TEMP_PREFIX)
        yield folder


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
