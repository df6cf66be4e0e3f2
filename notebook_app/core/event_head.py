"""Reading an event's head without parsing its line: blame and listings read thousands.

The log writes every event's keys in one order (:meth:`.events.Event.to_json`),
so the head (id, time, file, action, applied, who, line numbers) can be
matched with one regular expression; a line that does not match is parsed
whole instead.
"""

from __future__ import annotations

import json
import re
from typing import NamedTuple

from .actor import Actor
from .events import Event, actor_from_json

HEAD = re.compile(
    rb'\{"id":"([a-z]-[0-9a-z]+)","time":"([^"]+)","file":(?:"([^"\\]*)"|null),"action":"([a-z-]+)",'
    rb'"applied":(true|false),"by":(\{"kind":"[a-z]+"(?:,"session":"[^"\\]*")?(?:,"client":\{[^{}]*\})?\})'
    rb'(?:,"lines":(\[\[[0-9,\[\]]*\]\]))?'
)
"""The head of an event's line, read without parsing the rest (blame reads thousands)."""


class Head(NamedTuple):
    """What listing and blame need of an event: read from its line's head alone."""

    id: str
    time: str
    file: str | None
    action: str
    applied: bool
    by: Actor
    lines: tuple[tuple[int, int, int], ...] | None


_ACTORS: dict[bytes, Actor] = {}
_ONE_HUNK = re.compile(rb"\[\[(\d+),(\d+),(\d+)\]\]")


def actor_of(raw_by: bytes) -> Actor:
    """The ``by`` object of a head, parsed once per distinct value (a log has few)."""
    by = _ACTORS.get(raw_by)
    if by is None:
        by = _ACTORS.setdefault(raw_by, actor_from_json(json.loads(raw_by)))
    return by


def read_head(line: bytes, start: int = 0) -> Head | None:
    """The head of the log line at ``start``, or None when it does not have the usual shape (then parse it whole)."""
    match = HEAD.match(line, start)
    if match is None:
        return None
    event_id, when, file, action, applied, raw_by, raw_lines = match.groups()
    by = actor_of(raw_by)
    lines = None
    if raw_lines:
        one = _ONE_HUNK.fullmatch(raw_lines)
        lines = ((int(one[1]), int(one[2]), int(one[3])),) if one else tuple(tuple(item) for item in json.loads(raw_lines))
    return Head(event_id.decode(), when.decode(), file.decode() if file is not None else None, action.decode(), applied == b"true", by, lines)  # type: ignore[arg-type]


def head_of(event: Event) -> Head:
    lines = tuple((h.line, h.lines_removed, h.lines_added) for h in event.edit) if event.edit is not None else None
    return Head(event.id, event.time.isoformat(), event.file, event.action, event.applied, event.by, lines)
