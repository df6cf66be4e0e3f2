"""One event of a home's log (spec §7): its fields, its id and its one JSON line.

Every write through the core, an agent session starting and a call that
failed inside one become an :class:`Event`. The log holds one JSON object
per line, keys in a fixed order so a reader that needs only the head
(id, time, file, action, who, line numbers) can take it without parsing the
rest. Offsets and lengths are bytes of the file. An edit is a list of
:class:`Hunk`\\ s, each placed in the file as it was before the event, with
the line numbers blame needs. Bytes that are UTF-8 are written as text,
others as base64, and large ones as a reference into the snapshot store.
"""

from __future__ import annotations

import base64
import functools
import json
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field, replace
from datetime import UTC, datetime
from typing import Any

from notebook_app.core.record.log.actor import Actor, ActorKind
from notebook_app.core.record.log.event_action import WRITE_ACTIONS, EventAction
from notebook_app.core.record.log.json_lines import json_line

INLINE_LIMIT = 4096
"""Edit bytes longer than this go to the snapshot store; the log keeps a reference."""


class EventError(Exception):
    """A log line that is not an event this version can read."""


@dataclass(frozen=True)
class Payload:
    """Bytes an edit removed or inserted, as the log keeps them."""

    size: int
    data: bytes | None = None
    """The bytes when the log holds them inline; None for a blob or redacted text."""
    blob: str | None = None
    """sha256 of the bytes in the snapshot store, for large ones."""
    redacted: bool = False

    @classmethod
    def of(cls, data: bytes) -> Payload:
        return cls(len(data), bytes(data))

    def to_json(self) -> object:
        if self.redacted:
            return {"redacted": True, "size": self.size}
        if self.blob is not None:
            return {"blob": self.blob, "size": self.size}
        assert self.data is not None
        try:
            return self.data.decode("utf-8")
        except UnicodeDecodeError:
            return {"base64": base64.b64encode(self.data).decode("ascii")}

    @classmethod
    def from_json(cls, value: object) -> Payload:
        if isinstance(value, str):
            data = value.encode("utf-8", "surrogatepass")
            return cls(len(data), data)
        if isinstance(value, Mapping):
            if "base64" in value:
                data = base64.b64decode(str(value["base64"]))
                return cls(len(data), data)
            if "blob" in value:
                return cls(int(value["size"]), blob=str(value["blob"]))
            if value.get("redacted"):
                return cls(int(value.get("size") or 0), redacted=True)
        raise EventError(f"not an edit payload: {value!r}")


@dataclass(frozen=True)
class Hunk:
    """One place an event changed: at byte ``at`` of the file before it, ``removed`` went and ``inserted`` came.

    ``line`` (from 1) is the first line touched in the file before;
    ``lines_removed`` lines there became ``lines_added`` lines after.
    """

    at: int
    removed: Payload
    inserted: Payload
    line: int
    lines_removed: int
    lines_added: int

    @property
    def delta(self) -> int:
        return self.inserted.size - self.removed.size


@dataclass(frozen=True)
class FileState:
    """What identifies a file before or after an event (absent: ``exists`` false)."""

    exists: bool = True
    size: int = 0
    lines: int = 0
    sha256: str | None = None
    """Digest of the whole file: only for rewrites, which read it all anyway."""
    key: tuple[int, int, int] | None = None
    """(inode, size, mtime_ns) as the core saw or left it."""

    def to_json(self) -> object:
        if not self.exists:
            return None
        value: dict[str, object] = {"size": self.size, "lines": self.lines}
        if self.sha256 is not None:
            value["sha256"] = self.sha256
        if self.key is not None:
            value["key"] = list(self.key)
        return value

    @classmethod
    def from_json(cls, value: object) -> FileState:
        if value is None:
            return ABSENT
        if not isinstance(value, Mapping):
            raise EventError(f"not a file state: {value!r}")
        key = value.get("key")
        return cls(
            True,
            int(value.get("size") or 0),
            int(value.get("lines") or 0),
            value.get("sha256"),
            tuple(int(part) for part in key) if isinstance(key, list) and len(key) == 3 else None,  # type: ignore[arg-type]
        )


ABSENT = FileState(exists=False)


@dataclass(frozen=True)
class SecretSpan:
    """Where a secret was, never what it was: the rule that found it, its kind, its byte offset and length.

    In a write's record the offset is in the file as it was before the write;
    in a refused call's or a rejected proposal's, in the UTF-8 bytes of the
    argument ``field`` names (``text``, ``with``).
    """

    kind: str
    start: int
    length: int
    field: str | None = None
    rule: str = "security.secret"

    def to_json(self) -> dict[str, object]:
        value: dict[str, object] = {"rule": self.rule, "kind": self.kind}
        if self.field is not None:
            value["field"] = self.field
        value.update(start=self.start, length=self.length)
        return value

    @classmethod
    def from_json(cls, value: object) -> SecretSpan:
        if not isinstance(value, Mapping):
            raise EventError(f"not a secret's place: {value!r}")
        field = value.get("field")
        return cls(
            str(value.get("kind") or "secret"),
            int(value["start"]),
            int(value["length"]),
            str(field) if field is not None else None,
            str(value.get("rule") or "security.secret"),
        )


@dataclass(frozen=True)
class Event:
    """One fact of a home's history."""

    id: str
    time: datetime
    action: EventAction | str
    by: Actor
    file: str | None = None
    applied: bool = True
    args: Any = None
    """The arguments as given (the agent's tool input, an entry edit's line and texts, …)."""
    output: str | None = None
    """What the caller was told; for a failed call, the error."""
    edit: tuple[Hunk, ...] | None = None
    """None: not a write, or an outside change whose earlier content could not be rebuilt."""
    before: FileState | None = None
    after: FileState | None = None
    appended: str | None = None
    """sha256 of the appended bytes, for an append."""
    base: str | None = None
    """Snapshot of the file before this event (where its history begins)."""
    snap: str | None = None
    """Snapshot of the file after this event."""
    undoes: str | None = None
    restores: str | None = None
    redacted: bool = False
    secrets: tuple[SecretSpan, ...] = ()
    """Where secrets this record does not hold were (:class:`SecretSpan`): a fix that removed one, a refused call."""
    extra: Mapping[str, Any] = field(default_factory=dict)
    """Fields this version does not know, kept as read (a later version's, e.g. a proposal's)."""

    @property
    def is_write(self) -> bool:
        return self.applied and self.action in WRITE_ACTIONS and self.file is not None

    def to_json(self) -> dict[str, Any]:
        """The log's object, keys in the order the head expressions (:mod:`.head`, blame) read them."""
        value: dict[str, Any] = {
            "id": self.id,
            "time": self.time.isoformat(),
            "file": self.file,
            "action": self.action,
            "applied": self.applied,
            "by": _by_json(self.by),
        }
        if self.edit is not None:
            value["lines"] = [[h.line, h.lines_removed, h.lines_added] for h in self.edit]
        optional = {
            "args": self.args,
            "output": self.output,
            "undoes": self.undoes,
            "restores": self.restores,
            "before": self.before.to_json() if self.before is not None else _OMIT,
            "after": self.after.to_json() if self.after is not None else _OMIT,
            "appended": self.appended,
            "base": self.base,
            "snap": self.snap,
        }
        for key, item in optional.items():
            if item is not _OMIT and (item is not None or key in ("before", "after")):
                value[key] = item
        if self.edit is not None:
            value["edit"] = [
                {"at": h.at, "removed": h.removed.to_json(), "inserted": h.inserted.to_json()} for h in self.edit
            ]
        if self.redacted:
            value["redacted"] = True
        if self.secrets:
            value["secrets"] = [span.to_json() for span in self.secrets]
        value.update(self.extra)
        return value

    def line(self) -> bytes:
        return json_line(self.to_json())

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> Event:
        try:
            edit = None
            if data.get("edit") is not None:
                lines = data.get("lines") or []
                edit = tuple(
                    Hunk(
                        int(h["at"]),
                        Payload.from_json(h["removed"]),
                        Payload.from_json(h["inserted"]),
                        *(int(n) for n in lines[i]),
                    )
                    for i, h in enumerate(data["edit"])
                )
            return cls(
                id=str(data["id"]),
                time=datetime.fromisoformat(data["time"]),
                action=_action(str(data["action"])),
                by=actor_from_json(data["by"]),
                file=data.get("file"),
                applied=bool(data.get("applied", True)),
                args=data.get("args"),
                output=data.get("output"),
                edit=edit,
                before=FileState.from_json(data["before"]) if "before" in data else None,
                after=FileState.from_json(data["after"]) if "after" in data else None,
                appended=data.get("appended"),
                base=data.get("base"),
                snap=data.get("snap"),
                undoes=data.get("undoes"),
                restores=data.get("restores"),
                redacted=bool(data.get("redacted", False)),
                secrets=tuple(SecretSpan.from_json(span) for span in data.get("secrets") or ()),
                extra={k: v for k, v in data.items() if k not in _KNOWN},
            )
        except (KeyError, TypeError, ValueError, IndexError) as error:
            raise EventError(f"malformed event ({error!r})") from None

    @classmethod
    def from_line(cls, line: bytes) -> Event:
        try:
            data = json.loads(line)
        except ValueError:
            raise EventError("a log line that is not JSON") from None
        if not isinstance(data, dict):
            raise EventError("a log line that is not an object")
        return cls.from_json(data)


def _action(word: str) -> EventAction | str:
    """The member a log's word names; a word of a later version is kept as it is written."""
    try:
        return EventAction(word)
    except ValueError:
        return word


_OMIT = object()


@functools.lru_cache(maxsize=64)
def _by_json(by: Actor) -> dict[str, object]:
    return by.to_json()


_KNOWN = {
    "id",
    "time",
    "file",
    "action",
    "applied",
    "by",
    "lines",
    "args",
    "output",
    "undoes",
    "restores",
    "before",
    "after",
    "appended",
    "base",
    "snap",
    "edit",
    "redacted",
    "secrets",
}


def actor_from_json(value: object) -> Actor:
    if not isinstance(value, Mapping):
        raise EventError(f"not a 'by' object: {value!r}")
    kind = ActorKind(value["kind"])
    client = value.get("client") if isinstance(value.get("client"), Mapping) else {}
    approved_by = actor_from_json(value["approved_by"]) if value.get("approved_by") is not None else None
    return Actor(kind, value.get("session"), client.get("name"), client.get("version"), approved_by)  # type: ignore[union-attr]


def now() -> datetime:
    return datetime.now(UTC)


def without_text(event: Event) -> Event:
    """``event`` with every text it carried removed (``history --redact``), its hashes and sizes kept."""
    edit = None
    if event.edit is not None:
        edit = tuple(
            replace(h, removed=Payload(h.removed.size, redacted=True), inserted=Payload(h.inserted.size, redacted=True))
            for h in event.edit
        )
    args = _redacted_args(event.args)
    return replace(
        event, args=args, output="[redacted]" if event.output is not None else None, edit=edit, redacted=True
    )


def _redacted_args(args: Any) -> Any:
    if isinstance(args, Mapping):
        return {
            k: ("[redacted]" if isinstance(v, str) and k not in ("action", "target", "id", "to") else v)
            for k, v in args.items()
        }
    if isinstance(args, Sequence) and not isinstance(args, str):
        return ["[redacted]" for _ in args]
    return "[redacted]" if isinstance(args, str) else args
