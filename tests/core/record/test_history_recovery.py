"""A write and its record are one: each torn state a killed writer can leave, built by hand.

A small append is one write call, so real kills almost never land inside
one; here each state is written directly, as the writer would have left it:
slot 0 of the journal names the write in flight and where its record begins
in the log, the record is in the log, and the file has none, part or all of
the bytes. For each: what readers see (the soul, the history), and what the
next writer leaves (the file, the log, the slot).
"""

from __future__ import annotations

import hashlib
import os
import tempfile
from pathlib import Path

import pytest

from notebook_app.core.history.query import check, history
from notebook_app.core.home.reading import JOURNAL_NAME
from notebook_app.core.home.soul import compose
from notebook_app.core.memory.edits.guarded_splice import delete_entry
from notebook_app.core.memory.tool import memory_tool
from notebook_app.core.record.log.actor import CLI, NOTEBOOK
from notebook_app.core.record.log.events import ABSENT, Event, FileState, Hunk, Payload, now
from notebook_app.core.record.log.ids import new_id
from notebook_app.core.record.log.replay import count_lines
from notebook_app.core.record.log.store import LOG_PATH


def seeded(home: Path) -> Path:
    """A home with a history: MEMORY.md "- a\\n" written by the core."""
    memory_tool(home, by=CLI).call({"action": "add", "text": "a"})
    return home


def intent(home: Path, words: str) -> None:
    with open(home / JOURNAL_NAME, "r+b") as journal:
        journal.write(words.encode().ljust(128))


def slot0(home: Path) -> bytes:
    return (home / JOURNAL_NAME).read_bytes()[:128].strip()


def log_size(home: Path) -> int:
    return (home / LOG_PATH).stat().st_size


def pending_append(home: Path, data: bytes, *, landed: int, record: bool = True) -> tuple[Event, int]:
    """The state of an add killed after its record, with ``landed`` of its bytes in the file."""
    path = home / "MEMORY.md"
    before = path.stat()
    content = path.read_bytes()
    lines = count_lines(content)
    event = Event(
        id=new_id("add", history(home)[0].id),
        time=now(),
        action="add",
        by=CLI,
        file="MEMORY.md",
        args={"action": "add", "text": data.decode().strip("- \n")},
        output="ok (add → MEMORY.md); loads next session",
        edit=(Hunk(before.st_size, Payload.of(b""), Payload.of(data), lines + 1, 0, 1),),
        before=FileState(True, before.st_size, lines, key=(before.st_ino, before.st_size, before.st_mtime_ns)),
        after=FileState(True, before.st_size + len(data), lines + 1),
        appended=hashlib.sha256(data).hexdigest(),
    )
    offset = log_size(home)
    intent(home, f"append MEMORY.md {before.st_size} {before.st_size + len(data)} {offset}")
    if record:
        with open(home / LOG_PATH, "ab") as log:
            log.write(event.line())
    with open(path, "ab") as file:
        file.write(data[:landed])
    return event, offset


def soul_memory(home: Path) -> str:
    loaded = compose(home).file("MEMORY.md")
    return loaded.body if loaded else ""


def test_an_append_cut_short_shows_as_before_and_the_next_writer_drops_both_the_bytes_and_the_record(
    home: Path,
) -> None:
    seeded(home)
    event, offset = pending_append(home, b"- part\n", landed=3)
    assert (home / "MEMORY.md").read_bytes() == b"- a\n- p"
    assert soul_memory(home) == "- a", "readers stop where the append began"
    assert event.id not in [r.id for r in history(home)], "nor is its record listed"
    assert not memory_tool(home, by=CLI).call({"action": "add", "text": "b"}).is_error
    assert (home / "MEMORY.md").read_bytes() == b"- a\n- b\n"
    assert [r.args["text"] for r in reversed(history(home))] == ["a", "b"]
    assert slot0(home) == b""
    assert check(home) == []


def test_a_record_whose_write_never_began_is_hidden_and_dropped(home: Path) -> None:
    seeded(home)
    event, offset = pending_append(home, b"- never written\n", landed=0)
    assert event.id not in [r.id for r in history(home)]
    assert soul_memory(home) == "- a"
    res = delete_entry(home, "MEMORY.md", 1, "- a", by=NOTEBOOK)
    assert not res.is_error, res.output
    assert (home / "MEMORY.md").read_bytes() == b""
    assert [r.action for r in reversed(history(home))] == ["add", "entry-delete"]
    assert check(home) == []


def test_an_intent_recorded_before_its_record_was_written_changes_nothing(home: Path) -> None:
    seeded(home)
    size = log_size(home)
    pending_append(home, b"- x\n", landed=0, record=False)
    with open(home / LOG_PATH, "ab") as log:
        log.write(b'{"id":"w-1m8q26ty20eg0","time":"2026-11-30T20:2')  # the record itself cut short
    assert len(history(home)) == 1
    memory_tool(home).call({"action": "add", "text": "b"})
    assert (home / LOG_PATH).read_bytes().count(b"\n") == 3, "the cut record is gone, the new one follows the old"
    assert log_size(home) > size and check(home) == []


def test_a_write_that_landed_whole_before_its_writer_died_keeps_its_record(home: Path) -> None:
    seeded(home)
    event, _ = pending_append(home, b"- whole\n", landed=len(b"- whole\n"))
    assert soul_memory(home) == "- a\n- whole", "the whole append is the after state"
    assert history(home)[0].id == event.id, "readers show its record: it is a fact"
    memory_tool(home).call({"action": "add", "text": "next"})
    assert (home / "MEMORY.md").read_bytes() == b"- a\n- whole\n- next\n"
    assert [r.action for r in reversed(history(home))] == ["add", "add", "add"], (
        "no outside change: the bytes were ours"
    )
    assert check(home) == []


def test_bytes_that_are_not_the_recorded_ones_are_an_outside_change_not_the_record(home: Path) -> None:
    seeded(home)
    event, _ = pending_append(home, b"- mine\n", landed=0)
    with open(home / "MEMORY.md", "ab") as other:
        other.write(b"- THEIRS\n")  # as long, other bytes
    memory_tool(home).call({"action": "add", "text": "next"})
    actions = [(r.action, r.by.kind.value) for r in reversed(history(home))]
    assert actions == [("add", "cli"), ("outside", "outside"), ("add", "library")]
    assert event.id not in [r.id for r in history(home)]
    assert check(home) == []


def test_a_write_that_was_never_recorded_is_recorded_as_outside_by_the_next_writer(home: Path) -> None:
    seeded(home)
    with open(home / "MEMORY.md", "ab") as file:  # a write without its record (a version without history, say)
        file.write(b"- unrecorded\n")
    memory_tool(home).call({"action": "add", "text": "b"})
    outside = history(home)[1]
    assert (outside.action, outside.edit[0].inserted.data) == ("outside", b"- unrecorded\n")  # type: ignore[index]
    assert check(home) == []


def pending_rewrite(home: Path, new: bytes, *, renamed: bool) -> Event:
    """A rewrite killed after its record: its temp file written, renamed over the file or not."""
    path = home / "MEMORY.md"
    old = path.read_bytes()
    fd, temp = tempfile.mkstemp(prefix=".persona-notebook-", suffix=".tmp", dir=home)
    os.write(fd, new)
    info = os.fstat(fd)
    os.close(fd)
    event = Event(
        id=new_id("replace", history(home)[0].id),
        time=now(),
        action="hand-edit",
        by=NOTEBOOK,
        file="MEMORY.md",
        edit=(Hunk(0, Payload.of(old), Payload.of(new), 1, count_lines(old), count_lines(new)),),
        before=FileState(True, len(old), count_lines(old), hashlib.sha256(old).hexdigest()),
        after=FileState(
            True,
            len(new),
            count_lines(new),
            hashlib.sha256(new).hexdigest(),
            (info.st_ino, info.st_size, info.st_mtime_ns),
        ),
    )
    intent(home, f"rewrite MEMORY.md {log_size(home)} {info.st_ino}")
    with open(home / LOG_PATH, "ab") as log:
        log.write(event.line())
    if renamed:
        os.replace(temp, path)
    return event


@pytest.mark.parametrize("renamed", [False, True])
def test_a_rewrite_killed_around_its_rename_is_all_or_nothing_with_its_record(home: Path, renamed: bool) -> None:
    seeded(home)
    event = pending_rewrite(home, b"- rewritten\n", renamed=renamed)
    shown = [r.id for r in history(home)]
    assert (event.id in shown) is renamed
    assert soul_memory(home) == ("- rewritten" if renamed else "- a")
    memory_tool(home).call({"action": "add", "text": "next"})
    assert (home / "MEMORY.md").read_bytes() == (b"- rewritten\n" if renamed else b"- a\n") + b"- next\n"
    assert (event.id in [r.id for r in history(home)]) is renamed
    assert not [p for p in home.iterdir() if p.name.endswith(".tmp")]
    assert check(home) == []


def test_an_append_that_created_the_file_and_left_no_byte_leaves_it_absent(home: Path) -> None:
    seeded(home)
    path = home / "USER.md"
    path.write_bytes(b"")
    event = Event(
        id=new_id("add", history(home)[0].id),
        time=now(),
        action="add",
        by=CLI,
        file="USER.md",
        edit=(Hunk(0, Payload.of(b""), Payload.of(b"- u\n"), 1, 0, 1),),
        before=ABSENT,
        after=FileState(True, 4, 1),
        appended=hashlib.sha256(b"- u\n").hexdigest(),
    )
    offset = log_size(home)
    with open(home / LOG_PATH, "ab") as log:
        log.write(event.line())
    intent(home, f"append USER.md 0 4 {offset} absent")
    memory_tool(home).call({"action": "add", "text": "b"})
    assert not path.exists()
    assert check(home) == []
