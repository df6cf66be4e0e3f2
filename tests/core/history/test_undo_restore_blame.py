"""Undo any record, restore any state, blame any line: guarded on the content, refusing with a name."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from notebook_app.core.history.origins import Origin, blame
from notebook_app.core.history.query import check, history, record_diff
from notebook_app.core.history.undo_restore import restore, undo
from notebook_app.core.memory.edits.guarded_splice import delete_entry, edit_entry
from notebook_app.core.memory.tool import memory_tool
from notebook_app.core.record.log.actor import CLI, NOTEBOOK, Actor

AGENT = Actor.mcp("20261130-101010-0badc0de", "kip-host", "1.0")


def text(home: Path, name: str = "MEMORY.md") -> str:
    return (home / name).read_text(encoding="utf-8")


def ids(home: Path) -> list[str]:
    """Record ids, oldest first."""
    return [r.id for r in reversed(history(home))]


def test_undoing_an_agents_add_leaves_the_adds_after_it(home: Path) -> None:
    agent, person = memory_tool(home, by=AGENT), memory_tool(home, by=CLI)
    person.call({"action": "add", "text": "a"})
    agent.call({"action": "add", "text": "wrong thing the agent believed"})
    person.call({"action": "add", "text": "b"})
    person.call({"action": "replace", "text": "a", "with": "A"})
    agents = next(r for r in history(home) if r.by == AGENT)
    result = undo(home, agents.id[2:], by=CLI)  # the kind may be left out
    assert (result.output, result.is_error) == (f"ok (undo {agents.id} → MEMORY.md); loads next session", False)
    assert text(home) == "- A\n- b\n"
    (newest,) = history(home, limit=1)
    assert (newest.action, newest.undoes, newest.by, newest.id) == ("undo", agents.id, CLI, result.record)
    assert check(home) == []


def test_an_undo_is_refused_naming_the_later_record_that_changed_that_place(home: Path, snapshot_files) -> None:
    tool = memory_tool(home, by=AGENT)
    tool.call({"action": "add", "text": "timezone: UTC"})
    tool.call({"action": "replace", "text": "UTC", "with": "IST"})
    add, replace = ids(home)
    before = snapshot_files(home)
    result = undo(home, add, by=CLI)
    assert result.is_error
    assert result.output.startswith(f"cannot undo {add}: {replace} (replace by mcp:kip-host 1.0, ")
    assert result.output.endswith(") changed that part of MEMORY.md since; nothing was changed")
    assert snapshot_files(home) == before


def test_undoing_an_undo_redoes_and_a_second_undo_is_refused(home: Path) -> None:
    tool = memory_tool(home)
    tool.call({"action": "add", "text": "a"})
    tool.call({"action": "add", "text": "b"})
    _, add_b = ids(home)
    first = undo(home, add_b, by=CLI)
    assert text(home) == "- a\n"
    again = undo(home, add_b, by=CLI)
    assert (
        again.is_error
        and again.output
        == f"cannot undo {add_b}: it was undone by {first.record}; undo {first.record} to redo it; nothing was changed"
    )
    assert not undo(home, first.record, by=CLI).is_error  # type: ignore[arg-type]
    assert text(home) == "- a\n- b\n"
    assert not undo(home, add_b, by=CLI).is_error, "redone, it can be undone again"
    assert text(home) == "- a\n"


def test_undo_follows_the_bytes_through_later_edits_before_them(home: Path) -> None:
    (home / "MEMORY.md").write_text("- one\n- two\n- three\n")
    edit_entry(home, "MEMORY.md", 3, "- three", "- three, edited", by=NOTEBOOK)
    edit_entry(home, "MEMORY.md", 1, "- one", "- one, made much longer than it was", by=NOTEBOOK)
    delete_entry(home, "MEMORY.md", 2, "- two", by=NOTEBOOK)
    edit_three = ids(home)[0]
    assert not undo(home, edit_three, by=CLI).is_error
    assert text(home) == "- one, made much longer than it was\n- three\n"


def test_undoing_a_files_creation_deletes_it_only_if_it_is_still_exactly_what_it_made(home: Path) -> None:
    tool = memory_tool(home)
    tool.call({"action": "add", "text": "first"})
    (created,) = ids(home)
    tool.call({"action": "add", "text": "second"})
    assert not undo(home, created, by=CLI).is_error
    assert text(home) == "- second\n", "other bytes are there: the file stays"
    other = tmp_home(home, "other")
    tool = memory_tool(other)
    tool.call({"action": "add", "text": "only"})
    result = undo(other, ids(other)[0], by=CLI)
    assert result.output == f"ok (undo {ids(other)[0]} → MEMORY.md); MEMORY.md is removed"
    assert not (other / "MEMORY.md").exists()
    assert not undo(other, result.record, by=CLI).is_error  # type: ignore[arg-type]
    assert text(other) == "- only\n"


def tmp_home(home: Path, name: str) -> Path:
    path = home.parent / name
    path.mkdir()
    return path


def test_an_outside_change_can_be_undone_like_any_record(home: Path) -> None:
    tool = memory_tool(home)
    tool.call({"action": "add", "text": "a"})
    (home / "MEMORY.md").write_text("- a\n- pasted by hand\n- and more\n")
    tool.call({"action": "add", "text": "b"})
    outside = next(r for r in history(home) if r.action == "outside")
    assert not undo(home, outside.id, by=NOTEBOOK).is_error
    assert text(home) == "- a\n- b\n"


def test_a_deleted_file_comes_back_by_undoing_its_deletion(home: Path) -> None:
    tool = memory_tool(home)
    tool.call({"action": "add", "text": "a"})
    (home / "MEMORY.md").unlink()
    splice_result = memory_tool(home).call({"action": "add", "text": "b", "target": "user"})
    assert not splice_result.is_error
    assert [r.action for r in history(home)] == ["add", "add"], (
        "a deletion in a file nobody wrote since is not seen yet"
    )
    edit_entry(home, "USER.md", 1, "- b", "- B", by=NOTEBOOK)
    tool.call({"action": "add", "text": "c"})  # sees MEMORY.md gone: recorded first
    deleted = next(r for r in history(home) if r.action == "outside")
    assert deleted.after is not None and not deleted.after.exists
    assert undo(home, deleted.id, by=CLI).is_error, "MEMORY.md exists again: its recreation overlaps"


def test_records_that_wrote_nothing_cannot_be_undone(home: Path) -> None:
    (home / "MEMORY.md").write_text("- a\n")
    memory_tool(home, by=AGENT).call({"action": "remove", "text": "zzz"})
    (failed,) = ids(home)
    result = undo(home, failed, by=CLI)
    assert (
        result.is_error
        and result.output
        == f"cannot undo {failed}: it cannot be undone: it is a failed call, not a write; nothing was changed"
    )


def test_restore_puts_a_file_back_as_it_was_after_any_record(home: Path) -> None:
    tool = memory_tool(home, by=AGENT)
    tool.call({"action": "add", "text": "keep me"})
    (keep,) = ids(home)
    (home / "MEMORY.md").write_text("x" * 24)  # the 14.5 KB → 24 bytes overwrite
    tool.call({"action": "add", "text": "after the overwrite"})
    preview = restore(home, "MEMORY.md", keep, by=CLI, dry_run=True)
    assert preview.output.startswith(f"dry run: restore to {keep} would change MEMORY.md:\n--- MEMORY.md (now)")
    assert "+- keep me\n" in preview.diff
    result = restore(home, "MEMORY.md", keep[2:], by=NOTEBOOK)  # the kind may be left out
    assert result.output == f"ok (restore to {keep} → MEMORY.md); loads next session"
    assert text(home) == "- keep me\n"
    (newest,) = history(home, limit=1)
    assert (newest.action, newest.restores, newest.by) == ("restore", keep, NOTEBOOK)
    assert restore(home, "MEMORY.md", keep, by=CLI).output.endswith("it already reads so, nothing was written")
    assert not undo(home, newest.id, by=CLI).is_error, "a restore is undone like any record"
    assert text(home) == "x" * 24 + "\n- after the overwrite\n"


def test_restore_to_before_a_file_existed_removes_it_and_another_files_record_means_that_moment(home: Path) -> None:
    memory_tool(home).call({"action": "add", "target": "user", "text": "u"})
    memory_tool(home).call({"action": "add", "text": "m"})
    user_add, memory_add = ids(home)
    assert restore(home, "USER.md", memory_add, by=CLI).output.endswith("it already reads so, nothing was written")
    result = restore(home, "MEMORY.md", user_add, by=CLI)
    assert result.is_error and "MEMORY.md has no record up to" in result.output
    edit_entry(home, "USER.md", 1, "- u", "- U", by=NOTEBOOK)
    assert not restore(home, "USER.md", user_add, by=CLI).is_error
    assert text(home, "USER.md") == "- u\n"


def test_blame_names_each_lines_last_writer_and_what_predates_the_history(home: Path) -> None:
    (home / "MEMORY.md").write_text("- old\n- older\n")
    memory_tool(home, by=AGENT).call({"action": "add", "text": "agent's"})
    edit_entry(home, "MEMORY.md", 2, "- older", "- older, edited", by=NOTEBOOK)
    with open(home / "MEMORY.md", "a") as editor:
        editor.write("- typed\n")
    lines = blame(home, "MEMORY.md").lines()
    assert [(line.text, line.origin, line.record and line.record.by) for line in lines] == [
        ("- old", Origin.BEFORE_HISTORY, None),
        ("- older, edited", Origin.RECORDED, NOTEBOOK),
        ("- agent's", Origin.RECORDED, AGENT),
        ("- typed", Origin.NOT_RECORDED, None),
    ]
    assert not (home / ".notebook" / "nothing").exists()
    memory_tool(home).call({"action": "add", "text": "x"})
    assert blame(home, "MEMORY.md").lines()[3].record.action == "outside"  # type: ignore[union-attr]


def test_a_records_diff_shows_its_file_before_and_after(home: Path) -> None:
    tool = memory_tool(home)
    tool.call({"action": "add", "text": "timezone: UTC"})
    tool.call({"action": "replace", "text": "UTC", "with": "IST"})
    diff = record_diff(home, ids(home)[1])
    assert (diff.before, diff.after) == (b"- timezone: UTC\n", b"- timezone: IST\n")
    assert "-- timezone: UTC\n+- timezone: IST\n" in diff.text


@pytest.mark.parametrize("undo_order", ["newest first", "each undo undone"])
def test_a_series_of_undos_ends_where_it_began(home: Path, undo_order: str) -> None:
    (home / "MEMORY.md").write_text("- seed\n")
    tool = memory_tool(home)
    for i in range(4):
        tool.call({"action": "add", "text": f"n{i}"})
    tool.call({"action": "replace", "text": "n1", "with": "N1"})
    edit_entry(home, "MEMORY.md", 1, "- seed", "- SEED", by=NOTEBOOK)
    delete_entry(home, "MEMORY.md", 3, "- N1", by=NOTEBOOK)
    originals = list(reversed(ids(home)))
    for record in originals:
        result = undo(home, record, by=CLI)
        assert not result.is_error, result.output
        if undo_order == "each undo undone":
            assert not undo(home, result.record, by=CLI).is_error  # type: ignore[arg-type]
            assert not undo(home, record, by=CLI).is_error
    assert text(home) == "- seed\n"
    assert check(home) == []


def test_an_undo_never_writes_over_bytes_the_history_does_not_know(home: Path, snapshot_files) -> None:
    tool = memory_tool(home)
    tool.call({"action": "add", "text": "abc"})
    (add,) = ids(home)
    path = home / "MEMORY.md"
    info = path.stat()
    with open(path, "r+b") as editor:  # same size, same inode, and the mtime put back: the stat key cannot see it
        editor.write(b"- xyz\n")
    os.utime(path, ns=(info.st_atime_ns, info.st_mtime_ns))
    before = snapshot_files(home)
    result = undo(home, add, by=CLI)
    assert result.is_error
    assert result.output == (
        f"cannot undo {add}: MEMORY.md does not hold at byte 0 what {add} wrote (it changed in a way the history "
        "did not record); nothing was changed"
    )
    assert snapshot_files(home) == before


def test_undoing_a_deletion_is_refused_when_a_later_record_wrote_at_that_very_place(home: Path) -> None:
    (home / "MEMORY.md").write_text("- one\n- two\n- three\n")
    delete_entry(home, "MEMORY.md", 2, "- two", by=NOTEBOOK)
    (deleted,) = ids(home)
    from notebook_app.core.memory.edits.guarded_splice import splice

    assert not splice(home, "MEMORY.md", 6, b"", b"- inserted where two was\n", by=NOTEBOOK).is_error
    inserted = ids(home)[1]
    result = undo(home, deleted, by=CLI)
    assert result.is_error and f": {inserted} (hand-edit by notebook, " in result.output
    assert text(home) == "- one\n- inserted where two was\n- three\n"


def test_edits_right_next_to_what_a_record_wrote_do_not_block_its_undo(home: Path) -> None:
    from notebook_app.core.memory.edits.guarded_splice import splice

    (home / "SOUL.md").write_bytes(b"abcdef")
    assert not splice(home, "SOUL.md", 3, b"", b"XYZ", by=NOTEBOOK).is_error  # abcXYZdef
    (inserted,) = ids(home)
    assert not splice(home, "SOUL.md", 1, b"bc", b"BC", by=NOTEBOOK).is_error  # ends where XYZ begins
    assert not splice(home, "SOUL.md", 6, b"", b"!", by=NOTEBOOK).is_error  # begins where XYZ ends
    assert (home / "SOUL.md").read_bytes() == b"aBCXYZ!def"
    assert not undo(home, inserted, by=CLI).is_error
    assert (home / "SOUL.md").read_bytes() == b"aBC!def"


def test_after_pruning_the_remaining_records_still_rebuild_undo_and_blame(home: Path) -> None:
    from notebook_app.core.history.admin import prune

    tool = memory_tool(home)
    for i in range(6):
        tool.call({"action": "add", "text": f"n{i}"})
    tool.call({"action": "replace", "text": "n1", "with": "N1"})
    assert not prune(home, keep=2).is_error
    oldest, newest = ids(home)
    assert check(home) == []
    assert restore(home, "MEMORY.md", oldest, by=CLI, dry_run=True).diff.startswith("--- MEMORY.md (now)")
    lines = blame(home, "MEMORY.md").lines()
    assert [line.origin for line in lines].count(Origin.BEFORE_HISTORY) == 4, (
        "what the pruned records wrote is before history now"
    )
    assert not undo(home, newest, by=CLI).is_error
    assert not undo(home, oldest, by=CLI).is_error
    assert text(home) == "- n0\n- n1\n- n2\n- n3\n- n4\n"
