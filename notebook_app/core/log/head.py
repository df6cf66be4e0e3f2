"""Reading an event's head without parsing its line: blame and listings read thousands.

The log writes every event's keys in one order (:meth:`.events.Event.to_json`),
so the head (id, time, file, action, applied, who, line numbers) can be
matched with a regular expression (blame builds its own from :data:`BY`); a
line that does not match is parsed whole instead.
"""

from __future__ import annotations

import json
from datetime import datetime
from typing import NamedTuple

from notebook_app.core.record.log.actor import Actor
from notebook_app.core.record.log.events import Event, actor_from_json

BY = rb'\{"kind":"[a-z]+"(?:,"session":"[^"\\]*")?(?:,"client":\{[^{}]*\})?\}'
"""An event's ``by`` object as the log writes it: the one pattern every head expression builds on."""


class Head(NamedTuple):
    """What listing and blame need of an event: read from its line's head alone."""

    id: str
    time: str
    file: str | None
    action: str
    applied: bool
    by: Actor
    lines: tuple[tuple[int, int, int], ...] | None

    @property
    def when(self) -> datetime:
        """``time`` as a datetime (kept as its ISO text: a blame of 40,000 lines parses only what it shows)."""
        return datetime.fromisoformat(self.time)


_ACTORS: dict[bytes, Actor] = {}


def actor_of(raw_by: bytes) -> Actor:
    """The ``by`` object of a head, parsed once per distinct value (a log has few)."""
    by = _ACTORS.get(raw_by)
    if by is None:
        by = _ACTORS.setdefault(raw_by, actor_from_json(json.loads(raw_by)))
    return by


def head_of(event: Event) -> Head:
    lines = tuple((h.line, h.lines_removed, h.lines_added) for h in event.edit) if event.edit is not None else None
    return Head(event.id, event.time.isoformat(), event.file, event.action, event.applied, event.by, lines)
