"""An agent session against the next one, computed in workers: UI-free, no Textual here.

The record, the journal, the preview and their diff all come from
:mod:`notebook_app.core`; this module only pairs them and turns both souls
into documents for the session panes, as :mod:`.model` does for the
notebook's own session.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from pathlib import Path

from ..core import Snapshot, take_snapshot
from ..core.agent_sessions import AgentSession, JournalEntry, load_session
from .comparison import Comparison, compare
from ..core.hidden import with_markers


@dataclass(frozen=True)
class AgentView:
    """What one recorded agent session runs with, and what a session starting now would load."""

    session: AgentSession
    preview: Snapshot
    comparison: Comparison
    """The agent's frozen soul against the preview."""


def compare_session(home: Path, session_id: str, previous: AgentView | None = None) -> AgentView:
    """Read the session's record and journal and the home's preview now; diff them.

    Lines of ``previous`` are reused when a soul did not change, so the panes
    re-mark rows instead of wrapping them again. Raises the core's
    ``AgentSessionError`` for a record that cannot be read, ``OSError`` for a home that cannot.
    """
    session = load_session(home, session_id)
    preview = take_snapshot(home, 0)
    return AgentView(session, preview, compare(session.composition, preview.composition, previous.comparison if previous else None))


def shown_value(value: object) -> str:
    """A journalled argument on one row: as sent, control characters made visible.

    The agent may have sent anything (a rejected call is journalled too):
    strings show as they are, absent values as nothing, others as JSON.
    """
    if value is None:
        return ""
    text = value if isinstance(value, str) else json.dumps(value, ensure_ascii=False)
    return with_markers(text).replace("\n", "⏎")


def shown_target(entry: JournalEntry) -> str:
    """The target as sent; the tool's default when the agent sent none."""
    return "self" if entry.target is None else shown_value(entry.target)
