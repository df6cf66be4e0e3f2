"""A proposal is decided once, even when deciders race: each later decision is refused "not pending" and writes nothing.

An approval looks the proposal up before it takes the home's lock, so what it
read may be stale by the time it writes; the status is checked again under
the lock. These tests make the races happen for certain: the approval's
look-up (``review.find_proposal``, the real one) is wrapped so that another
real process decides the proposal right after it, or so that two approving
processes both pass it before either goes on.
"""

from __future__ import annotations

import json
import subprocess
import sys
import textwrap
from collections.abc import Callable
from pathlib import Path

import pytest

from notebook_app.core.history.query import history
from notebook_app.core.memory.review import decisions as review
from notebook_app.core.memory.review.decisions import approve, pending, propose, reject
from notebook_app.core.record.log.actor import CLI, NOTEBOOK, Actor

AGENT = Actor.mcp("s-1", "client", "1.0")

REJECT = textwrap.dedent(
    """
    import sys
    from notebook_app.core.record.log.actor import CLI
    from notebook_app.core.memory.review.decisions import reject

    decision = reject(sys.argv[1], sys.argv[2], reason="not this one", by=CLI)
    sys.exit(0 if decision.outcome == "rejected" else decision.message)
    """
)
# Each approver waits, after reading the proposal as pending, until the other has read it too.
APPROVE = textwrap.dedent(
    """
    import json, os, sys, time
    from notebook_app.core.memory.review import decisions as review
    from notebook_app.core.record.log.actor import CLI

    home, pid, me, other = sys.argv[1:5]
    real_find = review.find_proposal

    def find_then_wait(root, prefix):
        proposal = real_find(root, prefix)
        open(me, "w").close()
        deadline = time.monotonic() + 60
        while not os.path.exists(other) and time.monotonic() < deadline:
            time.sleep(0.001)
        return proposal

    review.find_proposal = find_then_wait
    decision = review.approve(home, pid, by=CLI)
    print(json.dumps({"outcome": decision.outcome, "message": decision.message}))
    """
)


def queue(home: Path, args: dict[str, str]) -> str:
    result = propose(home, args, by=AGENT)
    assert not result.is_error, result.output
    [proposal] = [p for p in pending(home) if p.id in result.output]
    return proposal.id


def approvals_of(home: Path, pid: str) -> list[str]:
    return [r.id for r in history(home) if r.action == "approved" and r.extra.get("proposal") == pid]


def test_an_approval_that_read_the_proposal_pending_is_refused_when_it_was_rejected_meanwhile_and_writes_nothing(
    home: Path, monkeypatch: pytest.MonkeyPatch, snapshot_files: Callable[[Path], dict[str, bytes]]
) -> None:
    (home / "MEMORY.md").write_text("- alpha\n")
    pid = queue(home, {"action": "add", "text": "gamma"})
    real_find = review.find_proposal
    after_reject: dict[str, bytes] = {}

    def read_then_rejected_elsewhere(root: Path, prefix: str) -> review.Proposal:
        proposal = real_find(root, prefix)
        assert proposal.status == "pending"
        child = subprocess.run(
            [sys.executable, "-c", REJECT, str(home), pid], capture_output=True, text=True, timeout=60
        )
        assert child.returncode == 0, child.stderr
        after_reject.update(snapshot_files(home))
        return proposal  # as read: pending

    monkeypatch.setattr(review, "find_proposal", read_then_rejected_elsewhere)
    decision = approve(home, pid, by=NOTEBOOK)
    monkeypatch.undo()

    assert (decision.outcome, decision.message) == ("refused", f"{pid} is not pending: it was rejected")
    assert after_reject and snapshot_files(home) == after_reject, "the refused approval wrote nothing"
    assert (home / "MEMORY.md").read_text() == "- alpha\n"
    [proposal] = pending(home, include_decided=True)
    assert (proposal.status, proposal.reason, proposal.decided_by) == ("rejected", "not this one", CLI)
    assert approvals_of(home, pid) == []


def test_two_approvals_at_once_apply_the_entry_exactly_once(home: Path) -> None:
    (home / "MEMORY.md").write_text("- alpha\n")
    pid = queue(home, {"action": "add", "text": "gamma"})
    marks = [home.parent / "read-1", home.parent / "read-2"]
    children = [
        subprocess.Popen(
            [sys.executable, "-c", APPROVE, str(home), pid, str(me), str(other)], stdout=subprocess.PIPE, text=True
        )
        for me, other in (marks, marks[::-1])
    ]
    outputs = [child.communicate(timeout=120)[0] for child in children]
    assert [child.returncode for child in children] == [0, 0]
    results = [json.loads(output) for output in outputs]
    assert all(mark.exists() for mark in marks), "both approvals read the proposal before either went on"

    assert sorted(result["outcome"] for result in results) == ["approved", "refused"]
    [refused] = [result for result in results if result["outcome"] == "refused"]
    assert refused["message"] == f"{pid} is not pending: it was approved"
    assert (home / "MEMORY.md").read_text() == "- alpha\n- gamma\n", "the entry is written once"
    assert len(approvals_of(home, pid)) == 1
    [proposal] = pending(home, include_decided=True)
    assert proposal.status == "approved"


def decided(home: Path, how: str) -> str:
    """A proposal decided ``how`` (approved, rejected, or failed: it no longer applied)."""
    (home / "MEMORY.md").write_text("- alpha\n")
    pid = queue(home, {"action": "replace", "text": "alpha", "with": "beta"})
    if how == "rejected":
        assert reject(home, pid, by=CLI).outcome == "rejected"
    elif how == "approved":
        assert approve(home, pid, by=CLI).outcome == "approved"
    else:
        (home / "MEMORY.md").write_text("- omega\n")
        assert approve(home, pid, by=CLI).outcome == "failed"
    return pid


@pytest.mark.parametrize("how", ["rejected", "approved", "failed"])
def test_rejecting_a_decided_proposal_is_refused_not_pending_and_adds_no_event(
    home: Path, how: str, snapshot_files: Callable[[Path], dict[str, bytes]]
) -> None:
    pid = decided(home, how)
    before = snapshot_files(home)
    events = len(history(home))

    decision = reject(home, pid, reason="too late", by=NOTEBOOK)

    assert (decision.outcome, decision.message) == ("refused", f"{pid} is not pending: it was {how}")
    assert not decision.done
    assert snapshot_files(home) == before, "no event, no file touched"
    assert len(history(home)) == events
    [proposal] = pending(home, include_decided=True)
    assert (proposal.status, proposal.decided_by) == (how, CLI)
