"""The review queue: agents propose memory writes, a human approves or rejects them (spec §6, §7).

A proposal is an event of the home's one log (action ``proposed``, not
applied); its outcome is a later event naming it in ``proposal``:
``approved`` (the write itself, by the agent, ``approved_by`` the human),
``rejected`` or ``failed`` (the core's message; nothing written). A
proposal is checked exactly like a real call, so what is queued would
apply now; approving applies it through the memory tool against the file
as it is then, and checks, under the home's lock, that it is still pending.
The proposals' data, and reading them from the log, live in :mod:`.proposals`.
"""

from __future__ import annotations

import hashlib
import os
from collections.abc import Collection
from dataclasses import dataclass, replace
from enum import StrEnum
from pathlib import Path
from typing import Any

from notebook_app.core.fs.home_pin import moved
from notebook_app.core.home.files import FileRead, read_file
from notebook_app.core.home.layout import FLAT, FileMap
from notebook_app.core.home.refusals import Rejection
from notebook_app.core.home.soul import home_path
from notebook_app.core.record.log.actor import NOTEBOOK, Actor
from notebook_app.core.record.log.event_action import EventAction
from notebook_app.core.record.log.events import Event, now
from notebook_app.core.record.log.ids import new_id
from notebook_app.core.record.log.json_lines import json_safe
from notebook_app.core.record.log.redaction import masked_args, masked_text
from notebook_app.core.memory.plan import Edit, parse_request, preview_file
from notebook_app.core.memory.tool import DESCRIPTION, MemoryTool, ToolResult
from notebook_app.core.memory.review.proposals import Proposal, ProposalStatus, ReviewError, proposal_status, read_proposals
from notebook_app.core.record.side_events import append_event
from notebook_app.core.record.storage import Change, LockedHome

REVIEW_SENTENCE = (
    "This server runs in review mode: a valid write is queued for a human to approve, and is written only "
    "if approved; its output says queued for review, with the proposal's id."
)
READ_LIMIT = 1 << 30


class Outcome(StrEnum):
    """What one approve or reject did; ``refused`` when the proposal was not pending, or not recorded."""

    APPROVED = "approved"
    REJECTED = "rejected"
    FAILED = "failed"
    REFUSED = "refused"


@dataclass(frozen=True)
class Decision:
    """What approving or rejecting one proposal did."""

    proposal: str
    outcome: Outcome
    """``failed``: the call no longer applies."""
    message: str
    near: str | None = None
    """A miss's near match (hidden characters kept it apart), as the memory verb says it; None for any other."""

    @property
    def done(self) -> bool:
        return self.outcome in (Outcome.APPROVED, Outcome.REJECTED)


def queued_message(proposal_id: str) -> str:
    """What the agent is told of a queued call."""
    return f"queued for review (id {proposal_id}); if approved, loads next session"


def propose(
    home: str | os.PathLike[str], args: object, *, by: Actor, durable: bool = True, files: FileMap = FLAT
) -> ToolResult:
    """Queue ``args``, checked as a real call would be now; an invalid call is its error, at once. ``files``:
    where the home's host keeps the target file, and in which dialect (a Hermes home's ``§`` stores)."""
    root = home_path(home)
    request = parse_request(args)
    if isinstance(request, Rejection):
        return ToolResult(request.message, is_error=True)
    read = read_file(root / files.relative(request.filename), limit=READ_LIMIT)
    planned = preview_file(args, read, by=by, files=files)
    if isinstance(planned, Rejection):
        return ToolResult(planned.message, is_error=True)
    digest = hashlib.sha256(read.data).hexdigest() if read.status.exists else None
    made: list[str] = []

    def event(last: str | None) -> Event:
        made.append(new_id(EventAction.PROPOSED, last))
        return Event(
            made[0],
            now(),
            EventAction.PROPOSED,
            by,
            file=request.filename,
            applied=False,
            args=json_safe(args),
            output=queued_message(made[0]),
            extra={"digest": digest},
        )

    problem = append_event(root, event, durable=durable)
    if problem is not None:
        return ToolResult(f"could not queue the call for review ({problem}); nothing was changed", is_error=True)
    return ToolResult(queued_message(made[0]))


def pending(
    home: str | os.PathLike[str], *, include_decided: bool = False, session: str | None = None
) -> list[Proposal]:
    """The proposals, oldest first: the pending ones, or all with their outcome; only ``session``'s if given.

    Never writes. The agent-sessions view asks for one session's, decided ones included.
    """
    proposals = read_proposals(home_path(home))
    return [
        p
        for p in proposals
        if (include_decided or p.status == ProposalStatus.PENDING) and (session is None or p.by.session == session)
    ]


def pending_count(home: str | os.PathLike[str]) -> int:
    """How many proposals wait for a human (the app's header count)."""
    return len(pending(home))


def find_proposal(home: str | os.PathLike[str], prefix: str) -> Proposal:
    """The one proposal whose id starts with ``prefix`` (``p-`` may be left out); ReviewError otherwise."""
    given = prefix.strip()
    if not given:
        raise ReviewError("no proposal id given")
    gone = moved(home)  # what is at the path is not the home this process opened: its proposals are not these
    if gone is not None:
        raise ReviewError(gone)
    body = given[2:] if given.startswith("p-") else given
    matches = [p for p in read_proposals(home_path(home)) if p.id[2:].startswith(body)]
    if not matches:
        raise ReviewError(f"no proposal {given} in {home_path(home)}")
    if len(matches) > 1:
        shown = ", ".join(p.id for p in matches[:5]) + (" …" if len(matches) > 5 else "")
        raise ReviewError(f"{given} is ambiguous: it begins {len(matches)} proposal ids ({shown}); give more of it")
    return matches[0]


def proposal_dry_run(proposal: Proposal, read: FileRead, files: FileMap = FLAT) -> Edit | Rejection:
    """What approving would do to the target file as ``read`` now (where ``files`` keeps it, in its dialect):
    the edit, or the core's exact refusal."""
    return preview_file(proposal.args, read, by=proposal.by, files=files)


def approve(
    home: str | os.PathLike[str],
    proposal_id: str,
    *,
    by: Actor = NOTEBOOK,
    edited_args: object = None,
    durable: bool = True,
    files: FileMap = FLAT,
) -> Decision:
    """Apply a pending proposal now, by its agent, approved by ``by``; ``edited_args`` replaces what it sent.
    ``files``: where the home's host keeps the file (a Hermes home's ``§`` stores, written under its lock).

    Raises ReviewError for an id that names no one proposal.
    """
    root = home_path(home)
    proposal = find_proposal(root, proposal_id)
    if proposal.status != ProposalStatus.PENDING:
        return _not_pending(proposal)
    if proposal.redacted and edited_args is None:
        return Decision(
            proposal.id,
            Outcome.REFUSED,
            f"{proposal.id} was redacted: its text holds the marker, not what the agent sent; "
            "reject it, or edit it before approving; nothing was written",
        )
    args = proposal.args if edited_args is None else json_safe(edited_args)
    tool = _Approval(
        root,
        proposal,
        by=replace(proposal.by, approved_by=by),
        edited=edited_args is not None,
        durable=durable,
        files=files,
    )
    result = tool.call(args)
    if tool.refusal is not None:
        return tool.refusal
    if result.is_error:
        return Decision(proposal.id, Outcome.FAILED, result.output, result.near)
    return Decision(proposal.id, Outcome.APPROVED, result.output)


def reject(
    home: str | os.PathLike[str],
    proposal_id: str,
    *,
    reason: str | None = None,
    by: Actor = NOTEBOOK,
    durable: bool = True,
) -> Decision:
    """Record that the human rejected a pending proposal; the file is not touched."""
    root = home_path(home)
    proposal = find_proposal(root, proposal_id)
    message = f"rejected {proposal.id}" + (f": {reason}" if reason else "")
    decision = _decide(root, proposal, EventAction.REJECTED, by, message, reason, durable)
    if decision.outcome == Outcome.REJECTED and holds_secret(proposal):  # never to be written: keep only where it was
        from notebook_app.core.history.admin import keep_only_where

        kept = keep_only_where(root, proposal.id, durable=durable)
        if kept.is_error:
            return replace(decision, message=f"{message}; its secret is still in the history ({kept.output})")
    return decision


def holds_secret(proposal: Proposal) -> list[str]:
    """The kinds of secret the proposal's text holds (the doctor's rule): a human is warned before approving."""
    return list(dict.fromkeys(span.kind for span in masked_args(proposal.args)[1]))


def secret_words(proposal: Proposal, kinds: list[str]) -> str:
    """``it holds an Anthropic API key: approving writes it to MEMORY.md``: the warning before an approval."""
    named = " and ".join(f"{'an' if kind[0].lower() in 'aeiou' else 'a'} {kind}" for kind in kinds)
    return f"it holds {named}: approving writes it to {proposal.file or 'the file'}"


def approve_all(
    home: str | os.PathLike[str],
    *,
    by: Actor = NOTEBOOK,
    ids: Collection[str] | None = None,
    files: FileMap = FLAT,
) -> list[Decision]:
    """Approve every pending proposal, oldest first, each against the file as the ones before left it.

    ``ids``: only those (the ones a person was shown), never one that arrived since.
    """
    return [approve(home, p.id, by=by, files=files) for p in pending(home) if ids is None or p.id in ids]


def reject_all(
    home: str | os.PathLike[str], *, reason: str | None = None, by: Actor = NOTEBOOK, ids: Collection[str] | None = None
) -> list[Decision]:
    """Reject every pending proposal (only ``ids``, if given), oldest first."""
    return [reject(home, p.id, reason=reason, by=by) for p in pending(home) if ids is None or p.id in ids]


class ReviewedMemoryTool(MemoryTool):
    """``memory`` in review mode: a valid call is queued, not written; the schema is the tool's own, byte for byte."""

    description = f"{DESCRIPTION} {REVIEW_SENTENCE}"

    def _call(self, args: object) -> ToolResult:
        return propose(self.home, args, by=self.by, durable=self._durable, files=self.files)


class _Approval(MemoryTool):
    """The memory tool applying one proposal: its status checked under the lock, its record ``approved``."""

    def __init__(
        self, home: Path, proposal: Proposal, *, by: Actor, edited: bool, durable: bool, files: FileMap
    ) -> None:
        super().__init__(home, by=by, durable=durable, files=files)
        self.proposal = proposal
        self.edited = edited
        self.refusal: Decision | None = None

    def _under_lock(self, home: LockedHome) -> ToolResult | None:
        current = proposal_status(self.home, self.proposal.id)
        if current.status == ProposalStatus.PENDING:
            return None
        self.refusal = _not_pending(current)
        return ToolResult(self.refusal.message, is_error=True)

    def _change(self, action: str, given: object, output: str) -> Change:
        extra: dict[str, Any] = {"proposal": self.proposal.id}
        if self.edited:
            extra["edited"] = True
        return Change(EventAction.APPROVED, given, output, extra=extra)

    def _record_failure(self, args: object, result: ToolResult) -> ToolResult:
        """A call that no longer applies is recorded ``failed`` on its proposal, in the core's words."""
        if self.refusal is not None:
            return result
        decision = _decide(
            self.home, self.proposal, EventAction.FAILED, self.by, result.output, None, self._durable, args=args
        )
        if decision.outcome == Outcome.REFUSED:
            self.refusal = decision
        return result


class _Decided(Exception):
    def __init__(self, proposal: Proposal) -> None:
        self.proposal = proposal


def _decide(
    root: Path,
    proposal: Proposal,
    action: EventAction,
    actor: Actor,
    message: str,
    reason: str | None,
    durable: bool,
    *,
    args: object = None,
) -> Decision:
    """Append the decision event if the proposal is still pending, checked under the home's lock."""

    def event(last: str | None) -> Event:
        current = proposal_status(root, proposal.id)
        if current.status != ProposalStatus.PENDING:
            raise _Decided(current)
        extra: dict[str, Any] = {"proposal": proposal.id}
        if reason is not None:
            extra["reason"] = reason
        kept, secrets = (
            masked_args(json_safe(args)) if args is not None else (None, ())
        )  # a failed approval wrote nothing
        return Event(
            new_id(action, last),
            now(),
            action,
            actor,
            file=proposal.file,
            applied=False,
            args=kept,
            output=masked_text(message)[0] if secrets else message,
            secrets=secrets,
            extra=extra,
        )

    try:
        problem = append_event(root, event, durable=durable)
    except _Decided as decided:
        return _not_pending(decided.proposal)
    if problem is not None:
        return Decision(proposal.id, Outcome.REFUSED, f"could not record the decision ({problem}); nothing was changed")
    return Decision(proposal.id, Outcome(action), message)


def _not_pending(proposal: Proposal) -> Decision:
    return Decision(proposal.id, Outcome.REFUSED, f"{proposal.id} is not pending: it was {proposal.status}")
