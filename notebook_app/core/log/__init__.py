"""The event log: events and their ids, the log file, snapshots, replay, who acted, secrets kept out."""

from __future__ import annotations

from typing import TYPE_CHECKING

from ..lazy import lazy_face

if TYPE_CHECKING:
    from .actor import CLI, NOTEBOOK, Actor, ActorKind
    from .event_action import ACTIONS, WRITE_ACTIONS, EventAction
    from .events import Event, EventError, SecretSpan
    from .ids import new_id
    from .redaction import masked_args, masked_text
    from .replay import RebuildError, rebuild
    from .store import LOG_PATH, LogReader, LogWriter, open_reader

_HOME_OF: dict[str, str] = {
    "CLI": "actor",
    "NOTEBOOK": "actor",
    "Actor": "actor",
    "ActorKind": "actor",
    "ACTIONS": "event_action",
    "WRITE_ACTIONS": "event_action",
    "EventAction": "event_action",
    "Event": "events",
    "EventError": "events",
    "SecretSpan": "events",
    "new_id": "ids",
    "masked_args": "redaction",
    "masked_text": "redaction",
    "RebuildError": "replay",
    "rebuild": "replay",
    "LOG_PATH": "store",
    "LogReader": "store",
    "LogWriter": "store",
    "open_reader": "store",
}
"""Each exported name -> the module that defines it; it loads on the name's first use."""

lazy_face(__name__, _HOME_OF)

__all__ = [
    "ACTIONS",
    "CLI",
    "LOG_PATH",
    "NOTEBOOK",
    "Actor",
    "ActorKind",
    "Event",
    "EventError",
    "LogReader",
    "LogWriter",
    "RebuildError",
    "SecretSpan",
    "WRITE_ACTIONS",
    "EventAction",
    "masked_args",
    "masked_text",
    "new_id",
    "open_reader",
    "rebuild",
]
