"""Sessions: the frozen snapshot and the next one, agent sessions' records, their calls, presence."""

from __future__ import annotations

from typing import TYPE_CHECKING

from ..lazy import lazy_face

if TYPE_CHECKING:
    from .agents import (
        JOURNAL_SUFFIX,
        RECORD_SUFFIX,
        AgentSession,
        CallCounts,
        JournalEntry,
        SessionListing,
        SessionSummary,
        list_sessions,
        load_session,
        new_session,
        record_session,
        scan_sessions,
        session_actor,
        sessions_path,
    )
    from .presence import hold
    from .snapshot import FileDiff, Session, Snapshot, SoulDiff, diff_compositions, diff_lines, take_snapshot

_HOME_OF: dict[str, str] = {
    "AgentSession": "agents",
    "CallCounts": "agents",
    "JOURNAL_SUFFIX": "agents",
    "JournalEntry": "agents",
    "RECORD_SUFFIX": "agents",
    "SessionListing": "agents",
    "SessionSummary": "agents",
    "list_sessions": "agents",
    "load_session": "agents",
    "new_session": "agents",
    "record_session": "agents",
    "scan_sessions": "agents",
    "session_actor": "agents",
    "sessions_path": "agents",
    "hold": "presence",
    "FileDiff": "snapshot",
    "Session": "snapshot",
    "Snapshot": "snapshot",
    "SoulDiff": "snapshot",
    "diff_compositions": "snapshot",
    "diff_lines": "snapshot",
    "take_snapshot": "snapshot",
}
"""Each exported name -> the module that defines it; it loads on the name's first use."""

lazy_face(__name__, _HOME_OF)

__all__ = [
    "JOURNAL_SUFFIX",
    "RECORD_SUFFIX",
    "AgentSession",
    "CallCounts",
    "FileDiff",
    "JournalEntry",
    "Session",
    "SessionListing",
    "SessionSummary",
    "Snapshot",
    "SoulDiff",
    "diff_compositions",
    "diff_lines",
    "hold",
    "list_sessions",
    "load_session",
    "new_session",
    "record_session",
    "scan_sessions",
    "session_actor",
    "sessions_path",
    "take_snapshot",
]
