"""Blame's one pass over the log (records of the usual shape) and its record-by-record path give the same owners."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from notebook_app.core.history import origins as blame_module
from notebook_app.core.history.origins import blame
from notebook_app.core.history.query import history
from notebook_app.core.history.undo_restore import undo
from notebook_app.core.memory.edits.guarded_splice import delete_entry, edit_entry
from notebook_app.core.memory.tool import memory_tool
from notebook_app.core.record.log.actor import CLI, NOTEBOOK, Actor

AGENT = Actor.mcp("20261130-101010-0badc0de", "kip-host", "4.5.6")


def both_ways(home: Path, name: str, monkeypatch: pytest.MonkeyPatch) -> tuple[object, object, bool]:
    """(blame as it runs, blame parsing each record whole, whether
    the one pass answered); the middle path must agree too."""
    answered = []
    usual = blame_module._usual_owners

    def watched(*args):  # type: ignore[no-untyped-def]
        result = usual(*args)
        answered.append(result is not None)
        return result

    monkeypatch.setattr(blame_module, "_usual_owners", watched)
    fast = blame(home, name)
    monkeypatch.setattr(blame_module, "_usual_owners", lambda *args: None)
    by_expression = blame(home, name)
    monkeypatch.setattr(
        blame_module, "_heads_of", lambda name: re.compile(rb"(?!)")
    )  # no head read: every record parsed whole
    slow = blame(home, name)
    assert by_expression == slow, "the per-record expression and the record-by-record path disagree"
    return fast, slow, answered == [True]


def test_adds_edits_undos_and_an_agents_failed_calls_take_the_one_pass_and_agree(home: Path, monkeypatch) -> None:
    (home / "MEMORY.md").write_text("- older than the history\n")
    tool, agent = memory_tool(home, by=CLI), memory_tool(home, by=AGENT)
    for i in range(6):
        tool.call({"action": "add", "text": f"note {i}"})
    assert agent.call({"action": "remove", "text": "no such note"}).is_error  # a failed call, recorded with the file
    agent.call({"action": "add", "text": "from the agent"})
    tool.call({"action": "replace", "text": "note 2", "with": "note two"})
    tool.call({"action": "remove", "text": "note 4"})
    edit_entry(home, "MEMORY.md", 2, "- note 0", "- note zero", by=NOTEBOOK)
    delete_entry(home, "MEMORY.md", 4, "- note 3", by=NOTEBOOK)
    with open(home / "MEMORY.md", "a") as handle:
        handle.write("- from an editor\n- and a second line\n")  # one hunk of two lines: one record owns both
    tool.call({"action": "add", "text": "after the editor"})  # records the outside change first
    agent_add = next(e for e in history(home) if e.action == "add" and e.by.kind.value == "mcp")
    assert not undo(home, agent_add.id, by=CLI).is_error
    assert any(e.action == "failed" for e in history(home))
    fast, slow, one_pass = both_ways(home, "MEMORY.md", monkeypatch)
    assert one_pass
    assert fast == slow
    assert fast.lines()[0].record is None and fast.lines()[-1].record.action == "add"  # type: ignore[union-attr]
    outside = [line.record for line in fast.lines() if line.record is not None and line.record.action == "outside"]
    assert len(outside) == 2 and outside[0] is outside[1]


def test_a_record_of_several_hunks_is_followed_record_by_record(home: Path, monkeypatch) -> None:
    tool = memory_tool(home, by=CLI)
    for i in range(5):
        tool.call({"action": "add", "text": f"note {i}"})
    text = (home / "MEMORY.md").read_text()
    (home / "MEMORY.md").write_text(text.replace("note 0", "note zero").replace("note 4", "note four"))
    tool.call({"action": "add", "text": "note 5"})  # records the outside change first: two hunks
    assert len(history(home)[1].edit or ()) == 2
    fast, slow, one_pass = both_ways(home, "MEMORY.md", monkeypatch)
    assert not one_pass
    assert fast == slow
    assert [line.record.action for line in fast.lines()] == ["outside", "add", "add", "add", "outside", "add"]  # type: ignore[union-attr]


def test_an_outside_change_the_log_could_not_diff_is_followed_record_by_record(home: Path, monkeypatch) -> None:
    tool = memory_tool(home, by=CLI)
    tool.call({"action": "add", "text": "note 0"})
    (home / ".notebook" / "snapshots").mkdir(exist_ok=True)
    for snap in (home / ".notebook" / "snapshots").iterdir():
        snap.unlink()
    (home / "MEMORY.md").write_text("- rewritten by hand\n- and more\n")
    tool.call({"action": "add", "text": "note 1"})
    fast, slow, _ = both_ways(home, "MEMORY.md", monkeypatch)
    assert fast == slow
    assert len(fast.texts) == 3
