"""The review queue: a proposal is checked like a real call, queued in the one log, and decided once."""

from __future__ import annotations

import re
from pathlib import Path

from notebook_app.core.guard.tool import GuardedMemoryTool
from notebook_app.core.guard.tool_choice import reviewed_tool_class
from notebook_app.core.history.query import history, undoable
from notebook_app.core.home.files import read_file
from notebook_app.core.home.refusals import Rejection
from notebook_app.core.memory.review.decisions import (
    ReviewedMemoryTool,
    approve,
    approve_all,
    find_proposal,
    pending,
    pending_count,
    proposal_dry_run,
    propose,
    reject,
)
from notebook_app.core.memory.tool import INPUT_SCHEMA
from notebook_app.core.record.log.actor import CLI, NOTEBOOK, Actor

AGENT = Actor.mcp("s-1", "client", "1.0")
QUEUED = re.compile(r"queued for review \(id (p-[0-9a-z]{13})\); if approved, loads next session")


def queue(home: Path, args: dict[str, str]) -> str:
    result = propose(home, args, by=AGENT)
    match = QUEUED.fullmatch(result.output)
    assert match and not result.is_error, result
    return match.group(1)


def test_a_valid_call_is_queued_and_the_file_does_not_change(home: Path) -> None:
    (home / "MEMORY.md").write_text("alpha\n")
    pid = queue(home, {"action": "replace", "text": "alpha", "with": "beta"})
    assert (home / "MEMORY.md").read_text() == "alpha\n"
    [proposal] = pending(home)
    assert proposal.id == pid and proposal.status == "pending" and proposal.by == AGENT
    assert proposal.args == {"action": "replace", "text": "alpha", "with": "beta"}
    assert proposal.digest is not None and proposal.file == "MEMORY.md"
    row = proposal.to_json()
    assert {k: row[k] for k in ("action", "target", "text", "with")} == {
        "action": "replace",
        "target": "self",
        "text": "alpha",
        "with": "beta",
    }


def test_an_invalid_call_is_its_error_at_once_not_a_proposal(home: Path) -> None:
    (home / "MEMORY.md").write_text("alpha\n")
    assert propose(home, {"action": "replace", "text": "gone", "with": "x"}, by=AGENT).output == "not found: gone"
    assert propose(home, {"action": "add", "target": "soul", "text": "x"}, by=AGENT).is_error
    assert propose(home, {"action": "add"}, by=AGENT).is_error
    (home / "USER.md").symlink_to(home / "MEMORY.md")
    assert propose(home, {"action": "add", "target": "user", "text": "x"}, by=AGENT).is_error
    assert pending(home) == [] and pending_count(home) == 0


def test_approve_applies_exactly_and_records_the_agent_approved_by_the_human(home: Path) -> None:
    (home / "MEMORY.md").write_text("alpha\n")
    pid = queue(home, {"action": "replace", "text": "alpha", "with": "beta"})
    decision = approve(home, pid[2:6], by=CLI)
    assert decision.done and decision.outcome == "approved"
    assert decision.message == "ok (replace → MEMORY.md); loads next session"
    assert (home / "MEMORY.md").read_text() == "beta\n"
    write = history(home, limit=1)[0]
    assert write.action == "approved" and write.extra["proposal"] == pid and undoable(write) is None
    assert write.by.session == "s-1" and write.by.approved_by == CLI
    [done] = pending(home, include_decided=True)
    assert done.status == "approved" and done.decided_by == CLI and pending(home) == []


def test_a_second_approve_is_refused_and_writes_nothing(home: Path) -> None:
    pid = queue(home, {"action": "add", "text": "gamma"})
    assert approve(home, pid).done
    again = approve(home, pid)
    assert again.outcome == "refused" and again.message == f"{pid} is not pending: it was approved"
    assert (home / "MEMORY.md").read_text().count("gamma") == 1


def test_reject_leaves_the_file_and_keeps_the_reason(home: Path) -> None:
    (home / "MEMORY.md").write_text("alpha\n")
    pid = queue(home, {"action": "remove", "text": "alpha"})
    assert reject(home, pid, reason="keep it", by=NOTEBOOK).message == f"rejected {pid}: keep it"
    assert (home / "MEMORY.md").read_text() == "alpha\n"
    [done] = pending(home, include_decided=True)
    assert (done.status, done.reason, done.decided_by) == ("rejected", "keep it", NOTEBOOK)
    assert approve(home, pid).outcome == "refused"


def test_an_approval_that_now_misses_fails_with_the_cores_message_and_writes_nothing(home: Path) -> None:
    (home / "MEMORY.md").write_text("alpha\n")
    pid = queue(home, {"action": "replace", "text": "alpha", "with": "beta"})
    (home / "MEMORY.md").write_text("omega\n")
    decision = approve(home, pid)
    assert (decision.outcome, decision.message) == ("failed", "not found: alpha")
    assert (home / "MEMORY.md").read_text() == "omega\n"
    [done] = pending(home, include_decided=True)
    assert (done.status, done.reason) == ("failed", "not found: alpha")


def test_approve_all_runs_oldest_first_against_the_file_as_it_then_is(home: Path) -> None:
    (home / "MEMORY.md").write_text("alpha\n")
    queue(home, {"action": "replace", "text": "alpha", "with": "beta"})
    queue(home, {"action": "replace", "text": "alpha", "with": "gamma"})
    queue(home, {"action": "remove", "text": "alpha"})
    outcomes = [d.outcome for d in approve_all(home, by=CLI)]
    assert outcomes == ["approved", "failed", "failed"]
    assert (home / "MEMORY.md").read_text() == "beta\n"


def test_an_edited_approval_writes_the_edit_and_says_so(home: Path) -> None:
    pid = queue(home, {"action": "add", "text": "draft"})
    assert approve(home, pid, edited_args={"action": "add", "text": "final"}).done
    assert "final" in (home / "MEMORY.md").read_text() and "draft" not in (home / "MEMORY.md").read_text()
    assert history(home, limit=1)[0].extra == {"proposal": pid, "edited": True}


def test_the_dry_run_shows_a_miss_before_approving(home: Path) -> None:
    (home / "MEMORY.md").write_text("alpha\n")
    proposal = find_proposal(home, queue(home, {"action": "replace", "text": "alpha", "with": "beta"}))
    assert not isinstance(proposal_dry_run(proposal, read_file(home / "MEMORY.md", limit=1 << 20)), Rejection)
    (home / "MEMORY.md").write_text("omega\n")
    miss = proposal_dry_run(proposal, read_file(home / "MEMORY.md", limit=1 << 20))
    assert isinstance(miss, Rejection) and miss.message == "not found: alpha"


def test_the_reviewed_tool_keeps_the_schema_and_the_guard_refuses_first(home: Path) -> None:
    tool = ReviewedMemoryTool(home, by=AGENT)
    assert tool.input_schema is INPUT_SCHEMA and tool.description.startswith(
        GuardedMemoryTool.description.split(" This server")[0]
    )
    assert QUEUED.fullmatch(tool.call({"action": "add", "text": "x"}).output)

    guarded = reviewed_tool_class(guard=True)(home, by=AGENT)
    assert guarded.input_schema is INPUT_SCHEMA
    refused = guarded.call({"action": "add", "text": "AKIA" + "ABCDEFGHIJKLMNOP"})
    assert refused.is_error and refused.refused_by == "security.secret"
    assert len(pending(home)) == 1


def test_a_sessions_proposals_and_their_outcomes_are_listed_for_it_alone(home: Path) -> None:
    other = Actor.mcp("s-2", "client", "1.0")
    mine = queue(home, {"action": "add", "text": "mine"})
    propose(home, {"action": "add", "text": "theirs"}, by=other)
    assert reject(home, mine).done
    assert [(p.id, p.status) for p in pending(home, include_decided=True, session="s-1")] == [(mine, "rejected")]
    assert [p.by for p in pending(home, session="s-2")] == [other]
