"""A session's calls as a view of the event log: they are the events its actor recorded.

The MCP server's tool carries the session's actor, so each write it makes and
each call that fails is an event of the home's one log with ``by.session``
set; nothing is written twice. This module reads those events back as the
:class:`~.records.CallEntry` rows the agent-sessions view shows.
"""

from __future__ import annotations

import os
from collections.abc import Callable

from notebook_app.core.home.soul import home_path
from notebook_app.core.record.log.actor import ActorKind
from notebook_app.core.record.log.event_action import EventAction
from notebook_app.core.record.log.events import Event, EventError
from notebook_app.core.record.log.store import open_reader
from notebook_app.core.sessions.records import CallEntry


def session_call(event: Event) -> str | None:
    """The session id of a memory-tool call the agent-sessions view lists; None for any other record."""
    if event.by.kind is not ActorKind.MCP or not event.by.session:
        return None
    if event.action == EventAction.SESSION_START or "proposal" in event.extra:
        return None  # a start is no call; an approval, rejection or failed approval is the human's decision
    return event.by.session


def logged_calls(
    home: str | os.PathLike[str], session_id: str | None = None, *, counted: Callable[[str], bool] | None = None
) -> dict[str, list[CallEntry]]:
    """The memory-tool calls of MCP sessions in the event log, by session id, oldest first.

    ``counted``: whether a call (by its event id) is counted already, as a prune's counts count those it took
    out (:mod:`.pruned`); those are left out."""
    reader = open_reader(home_path(home))
    if reader is None:
        return {}
    needle = b'"by":{"kind":"mcp","session":"' + (session_id.encode() if session_id else b"")
    calls: dict[str, list[CallEntry]] = {}
    with reader:
        for block in reader.blocks():  # found by a byte search, in C: only a session's lines are parsed
            at = block.find(needle)
            while at >= 0:
                start = block.rfind(b"\n", 0, at) + 1
                end = block.find(b"\n", at)
                at = block.find(needle, end)
                try:
                    event = Event.from_line(block[start:end])
                except EventError:
                    continue
                session = session_call(event)
                if session is not None and (counted is None or not counted(event.id)):
                    calls.setdefault(session, []).append(call_entry(event))
    return calls


def call_entry(event: Event) -> CallEntry:
    """A session's call as the agent-sessions view lists it, from its event."""
    args = event.args if isinstance(event.args, dict) else {}
    return CallEntry(
        time=event.time,
        action=args.get("action"),
        target=args.get("target"),
        text=args.get("text"),
        replacement=args.get("with"),
        file=event.file,
        output=event.output or "",
        is_error=not event.applied and event.action != EventAction.PROPOSED,
        refused=event.extra.get("refused") if isinstance(event.extra.get("refused"), str) else None,
        queued=event.id if event.action == EventAction.PROPOSED else None,
    )
