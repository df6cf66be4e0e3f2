"""Deleting and editing one entry line: guarded by its text, locked, and worded like the tool."""

from __future__ import annotations

import os
from pathlib import Path

import pytest
from unprivileged import as_unprivileged, listing

from notebook_app.core.home.soul import MAX_FILE_BYTES
from notebook_app.core.memory.edits.guarded_splice import Splice, delete_entry, edit_entry
from notebook_app.core.memory.tool import memory_tool
from notebook_app.core.record.log.actor import NOTEBOOK


def memory(home: Path, data: bytes) -> Path:
    path = home / "MEMORY.md"
    path.write_bytes(data)
    return path


@pytest.mark.parametrize(
    ("before", "line", "expect", "after"),
    [
        (b"- a\n- b\n- c\n", 2, "- b", b"- a\n- c\n"),
        (b"- a\n- b\n- c\n", 3, "- c", b"- a\n- b\n"),
        (b"- a\n- b", 2, "- b", b"- a\n"),
        (b"- a\r\n- b\r\n", 1, "- a", b"- b\r\n"),
        (b"- a\n\n- b\n", 2, "", b"- a\n- b\n"),
        (b"- only", 1, "- only", b""),
        ("- thé\n- café\n".encode(), 2, "- café", "- thé\n".encode()),
    ],
)
def test_delete_removes_the_whole_line_and_its_line_ending(
    home: Path, before: bytes, line: int, expect: str, after: bytes
) -> None:
    path = memory(home, before)
    res = delete_entry(home, "MEMORY.md", line, expect, by=NOTEBOOK)
    assert (res.output, res.is_error) == (f"ok (delete line {line} → MEMORY.md); loads next session", False)
    assert path.read_bytes() == after


def test_delete_reports_the_bytes_it_removed_and_who_removed_them(home: Path) -> None:
    memory(home, b"- a\n- b\n")
    res = delete_entry(home, "MEMORY.md", 2, "- b", by=NOTEBOOK)
    assert res.applied == Splice("MEMORY.md", 4, b"- b\n", b"", NOTEBOOK)


@pytest.mark.parametrize(
    ("before", "line", "after"),
    [
        (b"- a\n- b\n", 1, b"- A!\n- b\n"),
        (b"- a\r\n- b\r\n", 2, b"- a\r\n- A!\r\n"),
        (b"- a\n- b", 2, b"- a\n- A!"),
    ],
)
def test_edit_replaces_the_lines_text_and_keeps_its_line_ending(
    home: Path, before: bytes, line: int, after: bytes
) -> None:
    path = memory(home, before)
    expect = before.split(b"\n")[line - 1].rstrip(b"\r").decode()
    res = edit_entry(home, "MEMORY.md", line, expect, "- A!", by=NOTEBOOK)
    assert (res.output, res.is_error) == (f"ok (edit line {line} → MEMORY.md); loads next session", False)
    assert path.read_bytes() == after


def test_edit_works_on_user_md_too(home: Path) -> None:
    (home / "USER.md").write_text("- name is Muthu\n")
    assert not edit_entry(home, "USER.md", 1, "- name is Muthu", "- name is Muthu K.", by=NOTEBOOK).is_error
    assert (home / "USER.md").read_text() == "- name is Muthu K.\n"


def test_a_line_changed_since_it_was_selected_is_refused_and_named(home: Path, snapshot_files) -> None:
    memory(home, b"- a\n- b\tc\n")
    before = snapshot_files(home)
    res = delete_entry(home, "MEMORY.md", 2, "- b", by=NOTEBOOK)
    assert res.is_error and res.applied is None
    assert res.output == (
        'line 2 of MEMORY.md changed since you selected it: it was "- b", it reads "- b\\tc" now; nothing was changed'
    )
    assert snapshot_files(home) == before


def test_a_line_that_is_gone_is_refused_with_how_many_lines_are_left(home: Path) -> None:
    memory(home, b"- a\n")
    res = edit_entry(home, "MEMORY.md", 2, "- b", "- c", by=NOTEBOOK)
    assert (res.output, res.is_error) == (
        'there is no line 2 in MEMORY.md: it has 1 line now (you expected "- b"); nothing was changed',
        True,
    )
    assert (home / "MEMORY.md").read_bytes() == b"- a\n"


def test_an_absent_file_is_refused_and_not_created(home: Path) -> None:
    res = delete_entry(home, "USER.md", 1, "- a", by=NOTEBOOK)
    assert (res.output, res.is_error) == (
        "line 1 of USER.md changed since you selected it: USER.md is absent now; nothing was changed",
        True,
    )
    assert list(home.iterdir()) == []


def test_hidden_characters_are_spelled_out_in_the_refusal(home: Path) -> None:
    memory(home, "- x\u202egnp.exe\u200b\n".encode())
    res = delete_entry(home, "MEMORY.md", 1, "- xgnp.exe", by=NOTEBOOK)
    assert res.output.endswith('it reads "- x\\u202egnp.exe\\u200b" now; nothing was changed')


@pytest.mark.parametrize(
    ("new_text", "message"),
    [
        ("- a\n- b", "the text holds a line break, and each entry of MEMORY.md is one '- ' line; nothing was written"),
        ("- a\r", "the text holds a line break, and each entry of MEMORY.md is one '- ' line; nothing was written"),
        (
            "",
            "the new text is empty or only whitespace; to remove line 1, delete the entry instead "
            "(nothing was changed)",
        ),
        (
            "  ",
            "the new text is empty or only whitespace; to remove line 1, delete the entry instead "
            "(nothing was changed)",
        ),
        (None, "the new text must be a string"),
    ],
)
def test_edit_refuses_a_new_text_that_is_not_one_line(home: Path, new_text: object, message: str) -> None:
    memory(home, b"- a\n")
    res = edit_entry(home, "MEMORY.md", 1, "- a", new_text, by=NOTEBOOK)  # type: ignore[arg-type]
    assert (res.output, res.is_error) == (message, True)
    assert (home / "MEMORY.md").read_bytes() == b"- a\n"


@pytest.mark.parametrize(
    ("name", "line", "expect", "message"),
    [
        ("SOUL.md", 1, "x", "no entries in 'SOUL.md': entry edits work on MEMORY.md and USER.md"),
        ("../MEMORY.md", 1, "x", "no entries in '../MEMORY.md': entry edits work on MEMORY.md and USER.md"),
        ("MEMORY.md", 0, "x", "line must be a line number from 1, got 0"),
        ("MEMORY.md", True, "x", "line must be a line number from 1, got True"),
        ("MEMORY.md", "1", "x", "line must be a line number from 1, got '1'"),
        ("MEMORY.md", 1, None, "expect must be the line's text"),
        ("MEMORY.md", 1, "- a\n", "expect is one line's text, without its line ending; it holds a line break"),
    ],
)
def test_bad_arguments_are_refused_in_words(
    home: Path, name: object, line: object, expect: object, message: str
) -> None:
    memory(home, b"- a\n")
    res = delete_entry(home, name, line, expect, by=NOTEBOOK)  # type: ignore[arg-type]
    assert (res.output, res.is_error) == (message, True)
    assert sorted(p.name for p in home.iterdir()) == ["MEMORY.md"]


def test_an_edit_to_the_same_text_writes_nothing(home: Path) -> None:
    path = memory(home, b"- a\n")
    inode = path.stat().st_ino
    res = edit_entry(home, "MEMORY.md", 1, "- a", "- a", by=NOTEBOOK)
    assert (res.output, res.is_error, res.applied) == (
        "ok (edit line 1 → MEMORY.md); it already reads so, nothing was written",
        False,
        None,
    )
    assert path.stat().st_ino == inode


def test_files_the_tool_refuses_are_refused_in_the_tools_words(tmp_path: Path, home: Path) -> None:
    cases = {
        "link": lambda p: p.symlink_to(tmp_path / "elsewhere.md"),
        "folder": lambda p: p.mkdir(),
        "fifo": lambda p: os.mkfifo(p),
        "not utf-8": lambda p: p.write_bytes(b"- caf\xe9\n"),
    }
    (tmp_path / "elsewhere.md").write_text("- a\n")
    for make in cases.values():
        path = home / "MEMORY.md"
        make(path)
        tool = memory_tool(home).call({"action": "remove", "text": "- a"})
        res = delete_entry(home, "MEMORY.md", 1, "- a", by=NOTEBOOK)
        assert res.is_error and tool.is_error
        assert res.output == tool.output
        path.rmdir() if path.is_dir() and not path.is_symlink() else path.unlink()
    assert (tmp_path / "elsewhere.md").read_text() == "- a\n"


def entry_calls(home: str) -> list:
    outputs = [delete_entry(home, "MEMORY.md", 1, "- a", by=NOTEBOOK).output]
    outputs.append(memory_tool(home).call({"action": "remove", "text": "- a"}).output)
    return outputs


def test_unreadable_or_read_only_files_are_refused_as_the_tool_refuses_them(open_home: Path) -> None:
    path = memory(open_home, b"- a\n")  # root's, 0644: the unprivileged user reads, never writes
    before = listing(open_home)
    delete, tool = as_unprivileged(entry_calls, str(open_home))
    assert delete == f"could not write MEMORY.md (Permission denied: {path}); nothing was changed"
    assert tool == f"could not write memory (Permission denied: {path}); nothing was changed"
    path.chmod(0o000)
    delete, tool = as_unprivileged(entry_calls, str(open_home))
    assert delete == tool == "MEMORY.md cannot be read (Permission denied); nothing was written"
    assert listing(open_home) == before


def test_deleting_an_entry_of_an_over_cap_file_says_it_loads_truncated(home: Path) -> None:
    memory(home, b"- first\n" + b"x" * MAX_FILE_BYTES + b"\n")
    res = delete_entry(home, "MEMORY.md", 1, "- first", by=NOTEBOOK)
    assert res.output == (
        "ok (delete line 1 → MEMORY.md); loads next session (warning: MEMORY.md is 2,097,153 bytes, over the "
        "2,097,152-byte bootstrap cap; the next session loads it truncated)"
    )


def test_an_edit_past_the_cap_says_it_will_not_load(home: Path) -> None:
    memory(home, b"x" * MAX_FILE_BYTES + b"\n- late\n")
    res = edit_entry(home, "MEMORY.md", 2, "- late", "- later", by=NOTEBOOK)
    assert res.output == (
        "ok (edit line 2 → MEMORY.md); will not load: MEMORY.md is cut at the 2,097,152-byte bootstrap cap "
        "and this starts 1 byte past the cut"
    )
