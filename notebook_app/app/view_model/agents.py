"""An agent session against the next one, computed in workers: UI-free, no Textual here.

The session file, its calls, the preview and their diff all come from
:mod:`notebook_app.core`; this module only pairs them and turns both souls
into documents for the session panes, as :mod:`.notebook` does for the
notebook's own session.
"""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field, replace
from pathlib import Path

from notebook_app.app.view_model.comparison import Comparison, compare
from notebook_app.core.history.undo_restore import who
from notebook_app.core.home.layout import FLAT, FileMap
from notebook_app.core.hosts.choice import resolve_host
from notebook_app.core.memory.review.decisions import Proposal, ProposalStatus, pending
from notebook_app.core.sessions.agents import AgentSession, CallEntry, load_session
from notebook_app.core.sessions.snapshot import Snapshot, take_snapshot
from notebook_app.core.text.hidden import with_markers


@dataclass(frozen=True)
class AgentView:
    """What one recorded agent session runs with, and what a session starting now would load."""

    session: AgentSession
    preview: Snapshot
    comparison: Comparison
    """The agent's frozen soul against the preview."""
    proposals: Mapping[str, Proposal] = field(default_factory=dict)
    """The session's proposals in review mode, by id, with what became of them."""

    @property
    def calls(self) -> tuple[CallEntry, ...]:
        """The session's calls, each queued one answered with its proposal's outcome."""
        return with_outcomes(self.session.calls, self.proposals)


def compare_session(
    home: Path, session_id: str, previous: AgentView | None = None, *, files: FileMap = FLAT, host: str | None = None
) -> AgentView:
    """Read the session's file and calls and the home's preview now; diff them. The preview is composed as the
    agent's server composes its soul: ``files`` where the home keeps them, as ``host`` (a spec: a Hermes home's
    ``hermes``) loads them; None, the contract.

    Lines of ``previous`` are reused when a soul did not change, so the panes
    re-mark rows instead of wrapping them again. Raises the core's
    ``AgentSessionError`` for a record that cannot be read, ``OSError`` for a home that cannot.
    """
    session = load_session(home, session_id)
    profile = resolve_host(host).profile if host is not None else None
    preview = take_snapshot(home, 0, host=profile, files=files)
    proposals = {p.id: p for p in pending(home, include_decided=True, session=session_id)}
    comparison = compare(session.composition, preview.composition, previous.comparison if previous else None)
    return AgentView(session, preview, comparison, proposals)


def outcome_words(proposal: Proposal) -> str:
    """``review: pending``, ``review: approved by notebook``, ``review: failed: not found: …``, with its id."""
    if proposal.status == ProposalStatus.PENDING:
        words = "pending"
    elif proposal.status == ProposalStatus.FAILED:
        words = f"failed: {proposal.reason}"
    else:
        by = f" by {who(proposal.decided_by)}" if proposal.decided_by is not None else ""
        words = f"{proposal.status}{by}" + (
            f": {proposal.reason}" if proposal.reason and proposal.status == ProposalStatus.REJECTED else ""
        )
    return f"review: {words} ({proposal.id})"


def with_outcomes(calls: Sequence[CallEntry], proposals: Mapping[str, Proposal]) -> tuple[CallEntry, ...]:
    """Each queued call's answer becomes its proposal's outcome; a failed approval shows as an error."""
    shown = []
    for entry in calls:
        proposal = proposals.get(entry.queued or "")
        if proposal is not None:
            entry = replace(entry, output=outcome_words(proposal), is_error=proposal.status == ProposalStatus.FAILED)
        shown.append(entry)
    return tuple(shown)


def shown_value(value: object) -> str:
    """A journalled argument on one row: as sent, control characters made visible.

    The agent may have sent anything (a rejected call is journalled too):
    strings show as they are, absent values as nothing, others as JSON.
    """
    if value is None:
        return ""
    text = value if isinstance(value, str) else json.dumps(value, ensure_ascii=False)
    return with_markers(text).replace("\n", "⏎")


def shown_target(entry: CallEntry) -> str:
    """The target as sent; the tool's default when the agent sent none."""
    return "self" if entry.target is None else shown_value(entry.target)
