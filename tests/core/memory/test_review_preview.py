"""A proposal's dry run is against its file as it is now: the lines it would change, or the core's refusal."""

from __future__ import annotations

from pathlib import Path

from notebook_app.core.memory.review.decisions import approve_all, pending, propose, reject_all
from notebook_app.core.memory.review.preview import preview_proposal, preview_proposals
from notebook_app.core.record.log.actor import Actor

AGENT = Actor.mcp("s-1", "client", "1.0")


def test_each_proposal_is_previewed_against_the_file_now_and_a_gone_text_is_not_found(home: Path) -> None:
    (home / "MEMORY.md").write_text("a\nb\nc\nd\ne\n")
    propose(home, {"action": "replace", "text": "c", "with": "C"}, by=AGENT)
    propose(home, {"action": "add", "text": "f"}, by=AGENT)
    first, second = preview_proposals(home, pending(home))
    assert first.lines == "MEMORY.md, from line 1:\n a\n b\n-c\n+C\n d\n e"
    assert second.lines == "MEMORY.md, from line 4:\n d\n e\n+- f"
    (home / "MEMORY.md").write_text("a\nb\nd\ne\n")
    first, _ = preview_proposals(home, pending(home))
    assert first.misses and first.outcome.message == "not found: c" and first.lines == ""


def test_edited_arguments_are_previewed_instead_of_what_the_agent_sent(home: Path) -> None:
    (home / "MEMORY.md").write_text("a\n")
    propose(home, {"action": "add", "text": "b"}, by=AGENT)
    [proposal] = pending(home)
    shown = preview_proposal(home, proposal, args={"action": "add", "text": "B, edited"})
    assert shown.lines.endswith("+- B, edited") and shown.args == {"action": "add", "text": "B, edited"}


def test_approve_all_and_reject_all_keep_to_the_ids_given(home: Path) -> None:
    (home / "MEMORY.md").write_text("a\n")
    for text in ("one", "two", "three"):
        propose(home, {"action": "add", "text": text}, by=AGENT)
    one, two, three = (p.id for p in pending(home))
    assert [d.proposal for d in approve_all(home, ids={one})] == [one]
    assert [d.proposal for d in reject_all(home, ids={three})] == [three]
    assert [p.id for p in pending(home)] == [two]
    assert (home / "MEMORY.md").read_text() == "a\n- one\n"
