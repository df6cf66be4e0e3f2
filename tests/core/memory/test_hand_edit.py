"""Hand edits of whole bootstrap files: one splice when the file is as the base, a merge when it is not."""

from __future__ import annotations

import os
import tempfile
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from notebook_app.core.history.origins import blame
from notebook_app.core.history.query import check, history
from notebook_app.core.history.undo_restore import undo
from notebook_app.core.memory.edits.hand_edit import text_digest, write_file
from notebook_app.core.memory.tool import memory_tool
from notebook_app.core.record.log.actor import CLI, NOTEBOOK, Actor
from notebook_app.core.text.merge import both, merge3

AGENT = Actor.mcp("s-1", "agent", "1")


def save(home: Path, name: str, new: str, base: str, by: Actor = NOTEBOOK):
    return write_file(home, name, new, base_text=base, base_digest=text_digest(base), by=by)


def test_an_edit_of_an_unchanged_file_is_one_splice_of_the_changed_lines(home: Path) -> None:
    (home / "SOUL.md").write_text("# Soul\n\nbe kind\nbe brief\n")
    base = (home / "SOUL.md").read_text()
    result = save(home, "SOUL.md", base.replace("be kind", "be very kind"), base)
    assert (result.output, result.is_error) == ("ok (hand edit → SOUL.md); loads next session", False)
    assert (home / "SOUL.md").read_text() == "# Soul\n\nbe very kind\nbe brief\n"
    assert result.applied is not None and (result.applied.removed, result.applied.inserted) == (
        b"be kind\n",
        b"be very kind\n",
    )
    assert result.text == result.current.replace("be kind", "be very kind")  # type: ignore[union-attr]
    (newest,) = history(home, limit=1)
    assert (newest.action, newest.by, newest.file) == ("hand-edit", NOTEBOOK, "SOUL.md")
    assert check(home) == []


def test_an_edit_can_create_an_absent_file(home: Path) -> None:
    result = save(home, "TOOLS.md", "# Tools\n", "", by=CLI)
    assert not result.is_error and (home / "TOOLS.md").read_text() == "# Tools\n"
    assert history(home, limit=1)[0].by == CLI


def test_no_change_writes_nothing(home: Path, snapshot_files) -> None:
    (home / "USER.md").write_text("- name is Ana\n")
    before = snapshot_files(home)
    result = save(home, "USER.md", "- name is Ana\n", "- name is Ana\n")
    assert (result.output, result.is_error, result.applied) == (
        "ok (hand edit → USER.md); nothing to write",
        False,
        None,
    )
    assert snapshot_files(home) == before


def test_an_agents_entry_added_meanwhile_is_merged_with_the_edit(home: Path) -> None:
    (home / "MEMORY.md").write_text("- tea at 4\n- likes rain\n")
    base = (home / "MEMORY.md").read_text()
    memory_tool(home, by=AGENT).call({"action": "add", "text": "agent's note"})
    result = save(home, "MEMORY.md", "- tea at 5\n- likes rain\n- human's note\n", base)
    assert (result.output, result.is_error) == (
        "ok (hand edit, merged with 1 line written since → MEMORY.md); loads next session",
        False,
    )
    merged = "- tea at 5\n- likes rain\n- agent's note\n- human's note\n"
    assert (home / "MEMORY.md").read_text() == merged == result.text
    assert [r.action for r in history(home)][:2] == ["merge", "add"]
    assert check(home) == []


def test_a_conflict_writes_nothing_and_returns_both_sides(home: Path, snapshot_files) -> None:
    (home / "MEMORY.md").write_text("- tea at 4\n- likes rain\n")
    base = (home / "MEMORY.md").read_text()
    memory_tool(home, by=AGENT).call({"action": "replace", "text": "tea at 4", "with": "tea at 3"})
    before = snapshot_files(home)
    result = save(home, "MEMORY.md", "- tea at 5\n- likes rain\n", base)
    assert result.is_error and result.applied is None and result.text is None
    assert result.output == (
        "MEMORY.md changed since you opened it and your edit conflicts with it in 1 place (line 1); nothing was written"
    )
    (conflict,) = result.conflicts
    assert (conflict.base, conflict.ours, conflict.theirs) == (("- tea at 4\n",), ("- tea at 5\n",), ("- tea at 3\n",))
    assert result.current == "- tea at 3\n- likes rain\n"
    assert result.merge is not None and result.merge.resolve(lambda c: c.ours) == "- tea at 5\n- likes rain\n"
    assert snapshot_files(home) == before


def test_a_base_that_does_not_match_its_digest_is_refused(home: Path, snapshot_files) -> None:
    (home / "SOUL.md").write_text("x\n")
    before = snapshot_files(home)
    result = write_file(home, "SOUL.md", "y\n", base_text="x\n", base_digest=text_digest("z\n"), by=NOTEBOOK)
    assert result.is_error and "does not match its digest" in result.output
    assert snapshot_files(home) == before


@pytest.mark.parametrize("name", ["notes.md", "../MEMORY.md", "sub/SOUL.md", ".notebook"])
def test_only_the_seven_bootstrap_files_are_written(home: Path, name: str) -> None:
    result = save(home, name, "x\n", "")
    assert result.is_error and result.output.startswith("not a bootstrap file")


def test_a_link_is_refused_in_the_tools_words(home: Path, tmp_path: Path) -> None:
    outside = tmp_path / "elsewhere.md"
    outside.write_text("secret\n")
    os.symlink(outside, home / "SOUL.md")
    result = save(home, "SOUL.md", "changed\n", "secret\n")
    assert result.is_error and "is a symbolic link" in result.output and "nothing was written" in result.output
    assert outside.read_text() == "secret\n"


def test_a_missing_home_is_refused(tmp_path: Path) -> None:
    result = save(tmp_path / "nowhere", "SOUL.md", "x\n", "")
    assert result.is_error and result.output.startswith("no such home")


def test_a_conflict_resolved_and_saved_against_the_file_now_is_written(home: Path) -> None:
    (home / "MEMORY.md").write_text("- tea at 4\n")
    base = (home / "MEMORY.md").read_text()
    memory_tool(home, by=AGENT).call({"action": "replace", "text": "tea at 4", "with": "tea at 3"})
    first = save(home, "MEMORY.md", "- tea at 5\n", base)
    assert first.merge is not None and first.current is not None
    resolved = first.merge.resolve(both)
    second = save(home, "MEMORY.md", resolved, first.current)
    assert (second.output, second.is_error) == ("ok (hand edit → MEMORY.md); loads next session", False)
    assert (home / "MEMORY.md").read_text() == "- tea at 3\n- tea at 5\n"


def test_blame_names_the_person_for_the_lines_a_hand_edit_wrote_and_undo_takes_it_back(home: Path) -> None:
    memory_tool(home, by=AGENT).call({"action": "add", "text": "from the agent"})
    base = (home / "MEMORY.md").read_text()
    memory_tool(home, by=AGENT).call({"action": "add", "text": "agent again"})
    result = save(home, "MEMORY.md", "- from the person\n" + base, base, by=CLI)
    assert not result.is_error
    lines = blame(home, "MEMORY.md").lines
    assert [(line.text, line.record.by if line.record else None) for line in lines()] == [
        ("- from the person", CLI),
        ("- from the agent", AGENT),
        ("- agent again", AGENT),
    ]
    merge = history(home, limit=1)[0]
    assert merge.action == "merge"
    undone = undo(home, merge.id, by=CLI)
    assert not undone.is_error, undone.output
    assert (home / "MEMORY.md").read_text() == "- from the agent\n- agent again\n"
    assert check(home) == []


@settings(max_examples=60, deadline=None)
@given(st.data())
def test_a_save_writes_the_merge_or_nothing_and_the_history_stays_whole(data: st.DataObject) -> None:
    line = st.sampled_from(["- a\n", "- b\n", "- c\n", "\n", "- é\n"])
    base = "".join(data.draw(st.lists(line, max_size=5)))
    other = "".join(data.draw(st.lists(line, max_size=6)))
    edit = "".join(data.draw(st.lists(line, max_size=6)))
    with tempfile.TemporaryDirectory() as folder:
        home = Path(folder)
        (home / "MEMORY.md").write_text(base)
        memory_tool(home, by=AGENT).call({"action": "add", "text": "start"})  # a recorded start
        base = (home / "MEMORY.md").read_text()
        (home / "MEMORY.md").write_text(base + other)  # another writer, from outside
        result = save(home, "MEMORY.md", edit + base, base)
        expected = merge3(base, base + other, edit + base, end_inserts_both=True)
        assert (home / "MEMORY.md").read_text() == (expected.text if expected.clean else base + other)
        assert result.is_error == (not expected.clean)
        if (
            result.applied is not None
        ):  # the outside write is recorded with it; a save with nothing to write writes nothing
            assert check(home) == []


def test_read_for_edit_gives_the_text_or_the_tools_refusal_and_refuses_over_a_cap_unread(home: Path) -> None:
    from notebook_app.core.home.refusals import Rejection
    from notebook_app.core.memory.edits.hand_edit import TooLarge, read_for_edit

    assert read_for_edit(home, "TOOLS.md") == ""  # absent: an edit creates it
    assert read_for_edit(home / "gone", "TOOLS.md") == Rejection(f"no such home: {home / 'gone'}; nothing was opened")
    (home / "SOUL.md").write_text("be kind\n")
    assert read_for_edit(home, "SOUL.md") == "be kind\n"
    assert read_for_edit(home, "SOUL.md", max_bytes=4) == TooLarge(
        "SOUL.md is 8 bytes, over the 4 this editor opens; nothing was opened"
    )
    (home / "USER.md").write_bytes(b"caf\xe9\n")
    refused = read_for_edit(home, "USER.md")
    assert isinstance(refused, Rejection) and "USER.md is not valid UTF-8 (byte 0xe9 at offset 3)" in refused.message
    os.mkfifo(home / "AGENTS.md")
    assert read_for_edit(home, "AGENTS.md") == Rejection("AGENTS.md is not a regular file; nothing was written")
    (home / "MEMORY.md").symlink_to(home / "SOUL.md")
    refused = read_for_edit(home, "MEMORY.md")
    assert isinstance(refused, Rejection) and refused.message.startswith("MEMORY.md is a symbolic link")
