"""The words an event's ``action`` is written with (spec §7), as one enum every layer compares with.

A module of its own, with no imports, so the app can name an action without
loading the event log (the write path) before its first frame.
"""

from __future__ import annotations

from enum import StrEnum


class EventAction(StrEnum):
    """What an event did: the closed set of spec §7, each member its word in the log.

    ``tidy`` came with log version 2 (:data:`.json_lines.LOG_VERSION`): one record per file a tidy wrote."""

    ADD = "add"
    REPLACE = "replace"
    REMOVE = "remove"
    ENTRY_DELETE = "entry-delete"
    ENTRY_EDIT = "entry-edit"
    HAND_EDIT = "hand-edit"
    MERGE = "merge"
    UNDO = "undo"
    RESTORE = "restore"
    TIDY = "tidy"
    OUTSIDE = "outside"
    APPROVED = "approved"
    PROPOSED = "proposed"
    REJECTED = "rejected"
    FAILED = "failed"
    SESSION_START = "session-start"


WRITE_ACTIONS = tuple(EventAction)[: list(EventAction).index(EventAction.APPROVED) + 1]
"""The actions that change a file: every one up to ``approved``."""
ACTIONS = tuple(EventAction)
"""The closed set of actions (spec §7)."""

__all__ = ["ACTIONS", "WRITE_ACTIONS", "EventAction"]
