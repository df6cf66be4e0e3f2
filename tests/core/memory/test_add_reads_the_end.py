"""An add reads only the end of the file: its line ending is kept and a cut character is no error."""

from __future__ import annotations

from pathlib import Path

import pytest

from notebook_app.core.memory.plan import preview
from notebook_app.core.memory.tool import memory_tool


def add(home: Path, text: str) -> str:
    res = memory_tool(home).call({"action": "add", "text": text})
    assert not res.is_error, res.output
    return res.output


@pytest.mark.parametrize(
    ("before", "after"),
    [
        (b"- a\r\n", b"- a\r\n- new\r\n"),
        (b"- a\r\n- b", b"- a\r\n- b\r\n- new\r\n"),
        (b"- a\n", b"- a\n- new\n"),
        (b"- a\r\n- b\n", b"- a\r\n- b\n- new\n"),
        (b"- a", b"- a\n- new\n"),
        (b"\n", b"\n- new\n"),
        (b"\r\n", b"\r\n- new\r\n"),
    ],
)
def test_add_ends_the_entry_with_the_files_last_line_ending(home: Path, before: bytes, after: bytes) -> None:
    (home / "MEMORY.md").write_bytes(before)
    add(home, "new")
    assert (home / "MEMORY.md").read_bytes() == after


def test_add_after_a_long_unterminated_last_line_takes_the_ending_of_the_line_before(home: Path) -> None:
    """The 64-byte tail holds no newline here: the add reads back to the line's start."""
    before = b"- first\r\n- " + b"long " * 100
    (home / "MEMORY.md").write_bytes(before)
    add(home, "new")
    assert (home / "MEMORY.md").read_bytes() == before + b"\r\n- new\r\n"


def test_add_sees_the_cr_just_before_a_tail_that_starts_at_the_lf(home: Path) -> None:
    """The last LF is the first byte of the 64-byte tail; its CR lies one byte before it."""
    before = b"x" * 99 + b"\r\n" + b"y" * 63
    assert len(before) - 64 == before.index(b"\n")
    (home / "MEMORY.md").write_bytes(before)
    add(home, "new")
    assert (home / "MEMORY.md").read_bytes() == before + b"\r\n- new\r\n"


@pytest.mark.parametrize("text", ["- a\r\n- b", "- a\r\n", "- é\r\nz" * 30, "x" * 99 + "\r\n" + "y" * 63])
def test_dry_run_of_an_add_predicts_the_line_ending_the_tool_writes(home: Path, text: str) -> None:
    (home / "MEMORY.md").write_bytes(text.encode())
    planned = preview({"action": "add", "text": "new"}, text)
    add(home, "new")
    assert not hasattr(planned, "message")
    assert (home / "MEMORY.md").read_bytes() == planned.apply(text).encode()


@pytest.mark.parametrize(("line", "ending"), [("é" * 40, "\n"), ("é" * 40 + "!", "\r\n")])
def test_add_to_a_file_of_two_byte_characters_cut_by_the_tail_read(home: Path, line: str, ending: str) -> None:
    """The 64-byte tail starts inside an é: that half character is skipped, not an error."""
    before = (line + ending).encode()
    assert before[len(before) - 64] == 0xA9, "the tail must start on the second byte of an é"
    (home / "MEMORY.md").write_bytes(before)
    add(home, "thé")
    assert (home / "MEMORY.md").read_bytes() == before + f"- thé{ending}".encode()


def test_add_after_the_cores_own_add_of_two_byte_characters(home: Path) -> None:
    """The second add trusts the journal (no full read) and reads only a tail cut inside an é."""
    add(home, "é" * 40)
    add(home, "é" * 41)
    assert (home / "MEMORY.md").read_text() == f"- {'é' * 40}\n- {'é' * 41}\n"
