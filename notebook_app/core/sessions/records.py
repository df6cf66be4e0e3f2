"""What an agent-session file holds, and how it is written as JSON.

The data of :mod:`.agents` (a session, its call entries, a summary
for lists) and its one codec, kept apart from the store that reads and writes
the files. The session file's format is documented in the README under "Agent
sessions, recorded"; ``skipped`` there lists the bootstrap files that were
present but did not load when the session started.
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from datetime import UTC, datetime
from typing import Any

from notebook_app.core.home.reading import MEMORY_TARGETS
from notebook_app.core.home.soul import BootstrapFile, Composition, SkippedFile, section_heading
from notebook_app.core.memory.tool import ToolResult
from notebook_app.core.sessions.snapshot import Snapshot

SESSION_FILE_FORMAT = "persona-notebook/agent-session"
SESSION_FILE_VERSION = 1


class AgentSessionError(Exception):
    """A session file that cannot be written or read; the message says why."""


@dataclass(frozen=True)
class CallEntry:
    """One memory-tool call an agent made, as it asked and as it was answered.

    ``action``, ``target``, ``text`` and ``replacement`` (the tool's ``with``)
    are the values the agent sent, None when absent; they are not
    necessarily strings, because a rejected call is listed too.
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
    refused: str | None = None
    """The guard's rule id when the guard refused the call (nothing was written)."""
    queued: str | None = None
    """In review mode: the proposal's id, when the call was queued for a human (nothing written yet)."""

    @classmethod
    def from_call(cls, args: object, result: ToolResult, *, time: datetime | None = None) -> CallEntry:
        """The entry for one call: ``args`` as the agent sent them, ``result`` as the core answered."""
        fields: Mapping[str, Any] = args if isinstance(args, Mapping) else {}
        target = fields.get("target")
        file = None
        if isinstance(args, Mapping):  # a non-object addressed no file at all
            file = MEMORY_TARGETS.get("self" if target is None else target) if isinstance(target, str | None) else None
        return cls(
            time=time or datetime.now(UTC),
            action=fields.get("action"),
            target=target,
            text=fields.get("text"),
            replacement=fields.get("with"),
            file=file,
            output=result.output,
            is_error=result.is_error,
            refused=result.refused_by,
        )

    def to_json(self) -> dict[str, Any]:
        """The call's line in an old-format call file; ``refused`` appears only on a call the guard refused."""
        data = {
            "time": self.time.isoformat(),
            "action": self.action,
            "target": self.target,
            "text": self.text,
            "with": self.replacement,
            "file": self.file,
            "output": self.output,
            "is_error": self.is_error,
        }
        if self.refused is not None:
            data["refused"] = self.refused
        return data

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> CallEntry:
        return cls(
            time=datetime.fromisoformat(data["time"]),
            action=data.get("action"),
            target=data.get("target"),
            text=data.get("text"),
            replacement=data.get("with"),
            file=data.get("file"),
            output=str(data["output"]),
            is_error=bool(data["is_error"]),
            refused=data.get("refused") if isinstance(data.get("refused"), str) else None,
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
    calls: tuple[CallEntry, ...] = field(default=())
    """The session's memory-tool calls, oldest first, as of when it was loaded."""
    pruned: CallCounts = field(default_factory=lambda: CallCounts())
    """Its calls the history no longer lists (``history --prune`` took them out), counted: :mod:`.pruned`."""

    @property
    def soul(self) -> str:
        return self.composition.soul

    @property
    def found(self) -> list[str]:
        return self.composition.found

    @property
    def client_label(self) -> str:
        return client_label(self.client_name, self.client_version)

    def snapshot(self, number: int = 0) -> Snapshot:
        """This session's start as a :class:`Snapshot`, to diff against a preview."""
        return Snapshot(
            number=number,
            taken_at=self.started_at,
            compose_seconds=self.compose_seconds,
            composition=self.composition,
        )


@dataclass(frozen=True)
class CallCounts:
    """A session's calls counted by the one rule every view uses: each call is one of the three."""

    writes: int = 0
    """Calls the tool applied (not errors, not queued)."""
    errors: int = 0
    """Calls answered with ``is_error``: nothing changed."""
    proposals: int = 0
    """Calls queued for a human in review mode: nothing written yet, so never writes."""

    @classmethod
    def of(cls, calls: Iterable[CallEntry]) -> CallCounts:
        writes = errors = proposals = 0
        for entry in calls:
            if entry.queued is not None:
                proposals += 1
            elif entry.is_error:
                errors += 1
            else:
                writes += 1
        return cls(writes, errors, proposals)

    @property
    def calls(self) -> int:
        return self.writes + self.errors + self.proposals

    def __add__(self, other: CallCounts) -> CallCounts:
        return CallCounts(self.writes + other.writes, self.errors + other.errors, self.proposals + other.proposals)


@dataclass(frozen=True)
class SessionSummary:
    """What a list of sessions shows, without loading each soul's files."""

    id: str
    started_at: datetime
    client_name: str | None
    client_version: str | None
    writes: int
    """Calls that changed a memory file (:class:`CallCounts`)."""
    errors: int
    """Calls answered with ``is_error`` (nothing changed)."""
    live: bool = False
    """Its server is still running (it holds the session file's lock)."""
    proposals: int = 0
    """Calls queued for review (nothing written yet)."""

    @property
    def counts(self) -> CallCounts:
        return CallCounts(self.writes, self.errors, self.proposals)

    @property
    def calls(self) -> int:
        return self.counts.calls

    @property
    def client_label(self) -> str:
        return client_label(self.client_name, self.client_version)


def client_label(name: str | None, version: str | None) -> str:
    if not name:
        return "(client did not say)"
    return f"{name} {version}" if version else name


def json_bytes(value: object, indent: int | None = None) -> bytes:
    """One line (or document) of UTF-8 JSON; lone surrogates, which a rejected
    call may carry, are written as escapes so the file stays valid UTF-8."""
    try:
        return (json.dumps(value, ensure_ascii=False, indent=indent) + "\n").encode("utf-8")
    except UnicodeEncodeError:
        return (json.dumps(value, ensure_ascii=True, indent=indent) + "\n").encode("ascii")


def session_file_json(session: AgentSession) -> dict[str, Any]:
    """The session file of ``session`` as the README documents it; the soul is in it once."""
    files = []
    for file, section in zip(session.composition.files, session.composition.sections, strict=True):
        files.append(
            {
                "name": file.name,
                "digest": file.digest,
                "size": file.size,
                "truncated": file.truncated,
                "decode_error": file.decode_error,
                "body_start": section.body_start,
                "body_end": section.body_end,
            }
        )
    return {
        "format": SESSION_FILE_FORMAT,
        "version": SESSION_FILE_VERSION,
        "id": session.id,
        "started_at": session.started_at.isoformat(),
        "client": {"name": session.client_name, "version": session.client_version},
        "protocol_version": session.protocol_version,
        "compose_seconds": session.compose_seconds,
        "found": session.found,
        "files": files,
        "skipped": [skipped.to_json() for skipped in session.composition.skipped],
        "soul": session.soul,
    }


def session_from_json(data: Mapping[str, Any], calls: tuple[CallEntry, ...]) -> AgentSession:
    """The session a session file describes; raises AttributeError, KeyError, TypeError or
    ValueError when it is malformed."""
    soul = data["soul"]
    if not isinstance(soul, str):
        raise TypeError("soul is not a string")
    files = []
    for item in data["files"]:
        start, end = int(item["body_start"]), int(item["body_end"])
        header = section_heading(item["name"])
        if not (len(header) <= start <= end <= len(soul)) or soul[start - len(header) : start] != header:
            raise ValueError(f"the offsets of {item['name']} do not match the soul")
        files.append(
            BootstrapFile(
                name=item["name"],
                body=soul[start:end],
                size=int(item["size"]),
                truncated=bool(item["truncated"]),
                decode_error=item.get("decode_error"),
                recorded_digest=str(item["digest"]),
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
        composition=Composition(
            soul=soul,
            files=tuple(files),
            skipped=tuple(SkippedFile.from_json(item) for item in data.get("skipped") or ()),
        ),
        calls=calls,
    )


def parse_session_file(raw: bytes, where: object) -> dict[str, Any]:
    """A session file's JSON object, checked for format and version; ``where`` names it in errors."""
    try:
        data = json.loads(raw)
    except ValueError:
        raise AgentSessionError(f"session record {where} is not valid JSON") from None
    if not isinstance(data, dict) or data.get("format") != SESSION_FILE_FORMAT:
        raise AgentSessionError(f"{where} is not a {SESSION_FILE_FORMAT} record")
    if data.get("version") != SESSION_FILE_VERSION:
        raise AgentSessionError(
            f"{where} is record version {data.get('version')!r}; this notebook reads {SESSION_FILE_VERSION}"
        )
    return data
