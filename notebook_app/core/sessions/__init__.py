"""Sessions: the frozen snapshot and the next one, agent sessions' files, their calls, presence."""

from __future__ import annotations

from typing import TYPE_CHECKING

from ..lazy import lazy_face

if TYPE_CHECKING:
    from .agents import (
        OLD_CALLS_SUFFIX,
        SESSION_FILE_SUFFIX,
        AgentSession,
        CallCounts,
        CallEntry,
        SessionListing,
        SessionSummary,
        list_sessions,
        load_session,
        new_session,
        scan_sessions,
        session_actor,
        sessions_path,
        write_session_file,
    )
    from .presence import hold
    from .snapshot import FileDiff, Session, Snapshot, SoulDiff, diff_compositions, diff_lines, take_snapshot

_HOME_OF: dict[str, str] = {
    "AgentSession": "agents",
    "CallCounts": "agents",
    "OLD_CALLS_SUFFIX": "agents",
    "CallEntry": "agents",
    "SESSION_FILE_SUFFIX": "agents",
    "SessionListing": "agents",
    "SessionSummary": "agents",
    "list_sessions": "agents",
    "load_session": "agents",
    "new_session": "agents",
    "write_session_file": "agents",
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
    "OLD_CALLS_SUFFIX",
    "SESSION_FILE_SUFFIX",
    "AgentSession",
    "CallCounts",
    "FileDiff",
    "CallEntry",
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
    "write_session_file",
    "scan_sessions",
    "session_actor",
    "sessions_path",
    "take_snapshot",
]
