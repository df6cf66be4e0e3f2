"""A proposal and what became of it, as read from the home's one log: the review queue's data.

A proposal is an event (action ``proposed``, not applied); its outcome is
the first later event naming it in ``proposal``. Reading takes no lock and
writes nothing; :mod:`.review` proposes and decides.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, replace
from datetime import datetime
from enum import StrEnum
from pathlib import Path
from typing import Any

from notebook_app.core.record.log.actor import Actor
from notebook_app.core.record.log.event_action import EventAction
from notebook_app.core.record.log.events import Event, EventError
from notebook_app.core.record.log.store import open_reader

DECISIONS = (EventAction.APPROVED, EventAction.REJECTED, EventAction.FAILED)
"""The log's actions that decide a proposal."""


class ProposalStatus(StrEnum):
    """Where a proposal stands: waiting, or what its deciding event did (its action's word)."""

    PENDING = "pending"
    APPROVED = "approved"
    REJECTED = "rejected"
    FAILED = "failed"


class ReviewError(Exception):
    """A proposal id that names no proposal, or more than one."""


@dataclass(frozen=True)
class Proposal:
    """One queued call and what became of it."""

    id: str
    time: datetime
    by: Actor
    """The agent's session actor that proposed it."""
    args: Any
    """The call's arguments as sent."""
    file: str | None
    digest: str | None
    """sha256 of the target file when proposed; None when it was absent."""
    status: ProposalStatus = ProposalStatus.PENDING
    reason: str | None = None
    """A rejection's reason, or a failed approval's error in the core's words."""
    decided_by: Actor | None = None
    decision: str | None = None
    """The id of the event that decided it."""
    edited_args: Any = None
    """What an approval a person edited wrote instead of ``args``; None when it was approved as sent (or is not)."""
    redacted: bool = False
    """Its record's secrets were replaced by a marker (``history --redact``): approving it would write the marker."""

    @property
    def edited(self) -> bool:
        return self.edited_args is not None

    def field(self, key: str) -> Any:
        """The call's ``key`` as it stands: as approved when a person edited it, else as the agent sent it."""
        args = self.edited_args if self.edited_args is not None else self.args
        return args.get(key) if isinstance(args, Mapping) else None

    def proposed_field(self, key: str) -> Any:
        """The call's ``key`` as the agent sent it."""
        return self.args.get(key) if isinstance(self.args, Mapping) else None

    def edit_words(self) -> str | None:
        """``the agent proposed 'Mondays'``: what a person's edit replaced, None when nothing was edited."""
        if not self.edited:
            return None
        changed = [repr(self.proposed_field(k)) for k in ("text", "with") if self.proposed_field(k) != self.field(k)]
        return "the agent proposed " + (" and ".join(changed) if changed else "the same text")

    def to_json(self) -> dict[str, Any]:
        """The proposal as ``pending --json`` prints it."""
        return {
            "id": self.id,
            "time": self.time.isoformat(),
            "status": self.status,
            "action": self.field("action"),
            "target": self.field("target") or "self",
            "text": self.field("text"),
            "with": self.field("with"),
            "file": self.file,
            "by": self.by.to_json(),
            "digest": self.digest,
            "reason": self.reason,
            "decision": self.decision,
            "decided_by": self.decided_by.to_json() if self.decided_by is not None else None,
            "edited": self.edited,
            **(
                {"proposed": {"text": self.proposed_field("text"), "with": self.proposed_field("with")}}
                if self.edited
                else {}
            ),
        }


def proposal_status(root: Path, proposal_id: str) -> Proposal:
    for proposal in read_proposals(root):
        if proposal.id == proposal_id:
            return proposal
    raise ReviewError(f"no proposal {proposal_id} in {root}")


def read_proposals(root: Path) -> list[Proposal]:
    """Every proposal in log order, each with its first decision."""
    found: dict[str, Proposal] = {}
    reader = open_reader(root)
    if reader is None:
        return []
    with reader:
        for _, line in reader.forward():
            if b'"proposed"' not in line[:160] and b'"proposal":"p-' not in line:
                continue
            try:
                event = Event.from_line(line)
            except EventError:
                continue
            if event.action == EventAction.PROPOSED:
                digest = event.extra.get("digest")
                found[event.id] = Proposal(
                    event.id, event.time, event.by, event.args, event.file, digest, redacted=event.redacted
                )
                continue
            named = found.get(str(event.extra.get("proposal")))
            if event.action not in DECISIONS or named is None or named.status != ProposalStatus.PENDING:
                continue
            decider = event.by if event.action == EventAction.REJECTED else event.by.approved_by
            reason = event.extra.get("reason") if event.action != EventAction.FAILED else event.output
            edited = event.args if event.action == EventAction.APPROVED and event.extra.get("edited") else None
            found[named.id] = replace(
                named,
                status=ProposalStatus(event.action),
                reason=reason,
                decided_by=decider,
                decision=event.id,
                edited_args=edited,
            )
    return list(found.values())
