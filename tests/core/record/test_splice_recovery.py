"""States a killed writer leaves, built by hand: what readers see and what the next writer repairs.

Real kills almost never land inside a small append (one write call), so each
torn state is written here directly, as the journal records it: slot 0 holds
``append <file> <size before> <size after>`` while an append is in flight.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from notebook_app.core.home.reading import JOURNAL_NAME, is_scratch_file
from notebook_app.core.home.soul import compose
from notebook_app.core.memory.edits.guarded_splice import delete_entry, edit_entry, splice
from notebook_app.core.memory.tool import memory_tool
from notebook_app.core.record.log.actor import NOTEBOOK


def record_intent(home: Path, name: str, before: int, after: int) -> None:
    (home / JOURNAL_NAME).write_bytes(f"append {name} {before} {after}".encode().ljust(128))


def intent_of(home: Path) -> bytes:
    return (home / JOURNAL_NAME).read_bytes()[:128].strip()


def body(home: Path, name: str = "MEMORY.md") -> str | None:
    loaded = compose(home).file(name)
    return loaded.body if loaded else None


def test_temp_file_of_a_killed_splice_is_never_read_and_the_next_writer_removes_it(home: Path) -> None:
    (home / "MEMORY.md").write_bytes(b"- a\n- b\n")
    temp = home / ".persona-notebook-3kd9x0qa.tmp"
    temp.write_bytes(b"- b\n")  # the whole new content, killed before its rename
    assert is_scratch_file(temp.name)
    assert body(home) == "- a\n- b"
    assert compose(home).found == ["MEMORY.md"]

    res = delete_entry(home, "MEMORY.md", 1, "- a", by=NOTEBOOK)
    assert not res.is_error
    assert (home / "MEMORY.md").read_bytes() == b"- b\n"
    assert not temp.exists()


def test_a_refused_splice_still_clears_what_a_killed_writer_left(home: Path) -> None:
    (home / "MEMORY.md").write_bytes(b"- a\n")
    temp = home / ".persona-notebook-3kd9x0qa.tmp"
    temp.write_bytes(b"")
    assert edit_entry(home, "MEMORY.md", 1, "- z", "- y", by=NOTEBOOK).is_error
    assert not temp.exists()
    assert (home / "MEMORY.md").read_bytes() == b"- a\n"


@pytest.mark.parametrize("next_writer", ["entry delete", "splice", "tool"])
def test_an_append_cut_short_is_hidden_from_readers_and_cut_back_by_the_next_writer(
    home: Path, next_writer: str
) -> None:
    whole = b"- a\n"
    (home / "MEMORY.md").write_bytes(whole + b"- par")  # "- part\n" was being appended
    record_intent(home, "MEMORY.md", len(whole), len(whole) + 7)
    assert body(home) == "- a", "a reader must stop where the append began"

    if next_writer == "entry delete":
        res = delete_entry(home, "MEMORY.md", 1, "- a", by=NOTEBOOK)
        after = b""
    elif next_writer == "splice":
        res = splice(home, "MEMORY.md", 4, b"", b"- b\n", by=NOTEBOOK)
        after = b"- a\n- b\n"
    else:
        res = memory_tool(home).call({"action": "add", "text": "b"})
        after = b"- a\n- b\n"
    assert not res.is_error, res.output
    assert (home / "MEMORY.md").read_bytes() == after
    assert intent_of(home) == b""


def test_an_intent_recorded_before_any_byte_landed_changes_nothing(home: Path) -> None:
    (home / "MEMORY.md").write_bytes(b"- a\n")
    record_intent(home, "MEMORY.md", 4, 11)
    assert body(home) == "- a"
    assert edit_entry(home, "MEMORY.md", 1, "- a", "- A", by=NOTEBOOK).output.startswith("ok (edit line 1")
    assert (home / "MEMORY.md").read_bytes() == b"- A\n"
    assert intent_of(home) == b""


def test_an_append_that_landed_whole_before_the_kill_is_kept_by_readers_and_writers(home: Path) -> None:
    (home / "MEMORY.md").write_bytes(b"- a\n- part\n")
    record_intent(home, "MEMORY.md", 4, 11)  # killed after the write, before clearing the intent
    assert body(home) == "- a\n- part", "the whole append is the after state: readers show it"
    assert not delete_entry(home, "MEMORY.md", 1, "- a", by=NOTEBOOK).is_error
    assert (home / "MEMORY.md").read_bytes() == b"- part\n"


def test_an_intent_for_a_file_replaced_since_cuts_nothing(home: Path) -> None:
    (home / "USER.md").write_bytes(b"- x\n")  # an editor saved a shorter file after the kill
    record_intent(home, "USER.md", 10, 20)
    assert body(home, "USER.md") == "- x"
    assert not delete_entry(home, "USER.md", 1, "- x", by=NOTEBOOK).is_error
    assert (home / "USER.md").read_bytes() == b""


def test_an_intent_naming_a_file_outside_the_entry_files_is_ignored(home: Path) -> None:
    (home / "SOUL.md").write_bytes(b"You are Kip.\n")
    record_intent(home, "SOUL.md", 3, 40)
    assert body(home, "SOUL.md") == "You are Kip."
    assert not splice(home, "SOUL.md", 8, b"Kip", b"Wren", by=NOTEBOOK).is_error
    assert (home / "SOUL.md").read_bytes() == b"You are Wren.\n"
