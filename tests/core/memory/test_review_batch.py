"""One agent session's proposals as one batch: grouped by session, dry-run in order, shown as one diff."""

from __future__ import annotations

from pathlib import Path

from notebook_app.core.memory.review.batch import preview_batch, session_batches
from notebook_app.core.memory.review.decisions import approve, approve_all, pending, propose
from notebook_app.core.record.log.actor import NOTEBOOK, Actor

KIP = Actor.mcp("20261206-020000-0000abcd", "kip-host", "1.4")
CLAUDE = Actor.mcp("20261206-021500-0000beef", "claude-code", "2.0.1")
MEMORY = "- prefers metric units\n- timezone: UTC\n- café hours: 7–11\n- prefers metric units\n- timezone: IST\n"


def test_proposals_are_grouped_by_their_session_in_the_order_each_first_proposed(home: Path) -> None:
    (home / "MEMORY.md").write_text(MEMORY)
    propose(home, {"action": "remove", "text": "- timezone: UTC\n"}, by=KIP)
    propose(home, {"action": "add", "text": "likes tide tables"}, by=CLAUDE)
    propose(home, {"action": "replace", "text": "timezone: IST", "with": "timezone: IST (was UTC)"}, by=KIP)
    propose(home, {"action": "add", "text": "by hand"}, by=NOTEBOOK)
    groups = session_batches(pending(home))
    assert [[p.by.session for p in group] for group in groups] == [
        [KIP.session, KIP.session],
        [CLAUDE.session],
        [None],
    ]


def test_a_batch_is_its_proposals_applied_in_order_as_one_diff_and_writes_nothing(home: Path, snapshot_files) -> None:  # type: ignore[no-untyped-def]
    (home / "MEMORY.md").write_text(MEMORY)
    (home / "USER.md").write_text("- name is Muthu\n")
    calls = [
        {"action": "replace", "text": "timezone: IST", "with": "timezone: IST (was UTC)"},
        {"action": "remove", "text": "- timezone: UTC\n"},
        {"action": "replace", "text": "- café hours: 7–11\n- prefers metric units\n", "with": "- café hours: 7–11\n"},
        {"action": "replace", "target": "user", "text": "Muthu", "with": "Muthu R."},
    ]
    for call in calls:
        propose(home, call, by=KIP)
    before = snapshot_files(home)
    (group,) = session_batches(pending(home))
    batch = preview_batch(home, group)
    assert snapshot_files(home) == before
    assert batch.session == KIP.session and batch.applies == tuple(p.id for p in group) and batch.misses == ()
    assert batch.diff == (
        "MEMORY.md:\n"
        "from line 1:\n"
        " - prefers metric units\n"
        "-- timezone: UTC\n"
        " - café hours: 7–11\n"
        "-- prefers metric units\n"
        "-- timezone: IST\n"
        "+- timezone: IST (was UTC)\n"
        "USER.md:\n"
        "from line 1:\n"
        "-- name is Muthu\n"
        "+- name is Muthu R."
    )
    assert all(d.done for d in approve_all(home, by=NOTEBOOK))  # the diff is what approving them all does
    assert (home / "MEMORY.md").read_text() == "- prefers metric units\n- café hours: 7–11\n- timezone: IST (was UTC)\n"


def test_a_call_that_misses_after_the_ones_before_is_named_and_left_out_of_the_diff(home: Path) -> None:
    (home / "MEMORY.md").write_text(MEMORY)
    propose(home, {"action": "remove", "text": "- timezone: UTC\n"}, by=KIP)
    propose(home, {"action": "replace", "text": "timezone: UTC", "with": "timezone: GMT"}, by=KIP)  # gone by then
    first, second = pending(home)
    batch = preview_batch(home, (first, second))
    assert batch.applies == (first.id,) and batch.misses == ((second.id, "not found: timezone: UTC"),)
    assert "-- timezone: UTC" in batch.diff and "GMT" not in batch.diff


def test_a_part_approved_leaves_the_rest_of_the_batch_to_preview_against_the_file_it_left(home: Path) -> None:
    (home / "MEMORY.md").write_text(MEMORY)
    propose(home, {"action": "remove", "text": "- timezone: UTC\n"}, by=KIP)
    propose(home, {"action": "add", "text": "likes tide tables"}, by=KIP)
    first, _ = pending(home)
    assert approve(home, first.id, by=NOTEBOOK).done
    (group,) = session_batches(pending(home))
    batch = preview_batch(home, group)
    assert len(group) == 1 and batch.diff == (
        "MEMORY.md:\nfrom line 3:\n - prefers metric units\n - timezone: IST\n+- likes tide tables"
    )
