"""The guarded splice: byte-exact, refused when the bytes moved, crash-safe, never raising."""

from __future__ import annotations

from pathlib import Path

import pytest

from notebook_app.core.home.reading import JOURNAL_NAME
from notebook_app.core.home.soul import compose
from notebook_app.core.memory.edits.guarded_splice import Splice, splice
from notebook_app.core.memory.tool import memory_tool
from notebook_app.core.record.log.actor import CLI, LIBRARY, NOTEBOOK, Actor, ActorKind


def test_splice_replaces_exactly_the_expected_bytes(home: Path) -> None:
    (home / "SOUL.md").write_bytes(b"You are Kip.\n")
    res = splice(home, "SOUL.md", 8, b"Kip", b"Wren", by=LIBRARY)
    assert (res.output, res.is_error) == ("ok (splice bytes 8–11 → SOUL.md); loads next session", False)
    assert res.applied == Splice("SOUL.md", 8, b"Kip", b"Wren", LIBRARY)
    assert (home / "SOUL.md").read_bytes() == b"You are Wren.\n"


def test_a_label_names_the_change_in_the_output(home: Path) -> None:
    (home / "SOUL.md").write_bytes(b"x")
    assert splice(home, "SOUL.md", 0, b"x", b"y", by=CLI, label="hand edit").output == (
        "ok (hand edit → SOUL.md); loads next session"
    )


@pytest.mark.parametrize(
    ("start", "expected", "message"),
    [
        (
            8,
            b"Wren",
            "SOUL.md changed since you selected it: bytes 8–12 are not "
            'what you expected (they read "Kip." now); nothing was changed',
        ),
        (
            12,
            b"\nmore",
            "SOUL.md changed since you selected it: bytes 12–17 are not what "
            "you expected (the file is 13 bytes now); nothing was changed",
        ),
        (
            40,
            b"",
            "SOUL.md changed since you selected it: bytes 40–40 are not what "
            "you expected (the file is 13 bytes now); nothing was changed",
        ),
    ],
)
def test_bytes_that_moved_since_they_were_selected_are_refused(
    home: Path, snapshot_files, start: int, expected: bytes, message: str
) -> None:
    (home / "SOUL.md").write_bytes(b"You are Kip.\n")
    before = snapshot_files(home)
    res = splice(home, "SOUL.md", start, expected, b"X", by=NOTEBOOK)
    assert (res.output, res.is_error, res.applied) == (message, True, None)
    assert snapshot_files(home) == before


def test_a_splice_that_expects_nothing_at_zero_creates_an_absent_file(home: Path) -> None:
    assert not splice(home, "IDENTITY.md", 0, b"", b"I am Kip.\n", by=NOTEBOOK).is_error
    assert (home / "IDENTITY.md").read_bytes() == b"I am Kip.\n"
    assert compose(home).found == ["IDENTITY.md"]


def test_a_splice_into_an_absent_file_that_expects_bytes_is_refused_and_creates_nothing(home: Path) -> None:
    res = splice(home, "USER.md", 0, b"- a", b"- b", by=NOTEBOOK)
    assert (res.output, res.is_error) == (
        "USER.md changed since you selected it: it is absent now; nothing was changed",
        True,
    )
    assert list(home.iterdir()) == []


def test_an_append_to_memory_is_the_journalled_append_not_a_rewrite(home: Path) -> None:
    path = home / "MEMORY.md"
    path.write_bytes(b"- a\n")
    inode = path.stat().st_ino
    res = splice(home, "MEMORY.md", 4, b"", b"- b\n", by=NOTEBOOK)
    assert not res.is_error
    assert path.read_bytes() == b"- a\n- b\n"
    assert path.stat().st_ino == inode  # appended in place, as the tool's add does
    assert (home / JOURNAL_NAME).exists()


def test_any_other_splice_is_a_rewrite_by_rename_keeping_the_mode(home: Path) -> None:
    path = home / "MEMORY.md"
    path.write_bytes(b"- a\n- b\n")
    path.chmod(0o640)
    inode = path.stat().st_ino
    assert not splice(home, "MEMORY.md", 0, b"- a\n", b"", by=NOTEBOOK).is_error
    assert path.read_bytes() == b"- b\n"
    assert path.stat().st_ino != inode
    assert path.stat().st_mode & 0o777 == 0o640


def test_a_raw_splice_can_fix_a_file_that_is_not_utf8(home: Path) -> None:
    """The tool refuses such a file; a person must still be able to repair it byte for byte."""
    (home / "MEMORY.md").write_bytes(b"- caf\xe9\n")
    assert memory_tool(home).call({"action": "add", "text": "x"}).is_error
    assert not splice(home, "MEMORY.md", 5, b"\xe9", "é".encode(), by=NOTEBOOK).is_error
    assert (home / "MEMORY.md").read_text() == "- café\n"
    assert not memory_tool(home).call({"action": "add", "text": "x"}).is_error


def test_a_raw_append_of_bad_bytes_makes_the_next_add_check_the_whole_file(home: Path) -> None:
    memory_tool(home).call({"action": "add", "text": "a"})
    appended = b"- \xff\n- " + b"y" * 100 + b"\n"  # the bad byte ends up far before the 64-byte tail
    assert not splice(home, "MEMORY.md", 4, b"", appended, by=NOTEBOOK).is_error
    assert memory_tool(home).call({"action": "add", "text": "b"}).output == (
        "MEMORY.md is not valid UTF-8 (byte 0xff at offset 6); fix or remove the file first, nothing was written"
    )


def test_a_link_is_refused_in_the_tools_words(tmp_path: Path, home: Path) -> None:
    (tmp_path / "real.md").write_text("x")
    (home / "SOUL.md").symlink_to(tmp_path / "real.md")
    res = splice(home, "SOUL.md", 0, b"x", b"y", by=NOTEBOOK)
    assert res.output == (
        f"SOUL.md is a symbolic link (to {tmp_path / 'real.md'}); the memory tool edits only regular files "
        "inside the home, so nothing was written"
    )
    assert (tmp_path / "real.md").read_text() == "x"


@pytest.mark.parametrize(
    ("name", "start", "expected", "new", "message"),
    [
        (
            "notes.md",
            0,
            b"",
            b"x",
            "not a bootstrap file: 'notes.md' (a splice writes one of AGENTS.md, "
            "SOUL.md, IDENTITY.md, USER.md, TOOLS.md, HEARTBEAT.md, MEMORY.md)",
        ),
        (
            "../SOUL.md",
            0,
            b"",
            b"x",
            "not a bootstrap file: '../SOUL.md' (a splice writes one of AGENTS.md, "
            "SOUL.md, IDENTITY.md, USER.md, TOOLS.md, HEARTBEAT.md, MEMORY.md)",
        ),
        (
            None,
            0,
            b"",
            b"x",
            "not a bootstrap file: None (a splice writes one of AGENTS.md, "
            "SOUL.md, IDENTITY.md, USER.md, TOOLS.md, HEARTBEAT.md, MEMORY.md)",
        ),
        ("SOUL.md", -1, b"", b"x", "start must be a byte offset (a whole number from 0), got -1"),
        ("SOUL.md", 1.5, b"", b"x", "start must be a byte offset (a whole number from 0), got 1.5"),
        ("SOUL.md", 0, "x", b"x", "expected and new must be bytes"),
        ("SOUL.md", 0, b"", ["x"], "expected and new must be bytes"),
    ],
)
def test_bad_arguments_are_results_never_exceptions(
    home: Path, name: object, start: object, expected: object, new: object, message: str
) -> None:
    res = splice(home, name, start, expected, new, by=NOTEBOOK)  # type: ignore[arg-type]
    assert (res.output, res.is_error) == (message, True)
    assert list(home.iterdir()) == []


def test_a_missing_home_is_refused_and_not_created(tmp_path: Path) -> None:
    res = splice(tmp_path / "typo", "SOUL.md", 0, b"", b"x", by=NOTEBOOK)
    assert (res.output, res.is_error) == (f"no such home: {tmp_path / 'typo'}; nothing was changed", True)
    assert list(tmp_path.iterdir()) == []


def test_actors_print_as_the_by_object_of_the_event_log() -> None:
    assert NOTEBOOK.to_json() == {"kind": "notebook"}
    assert CLI.to_json() == {"kind": "cli"}
    agent = Actor.mcp("20261129-231900-8adcaabf", "claude-code", "2.0.1")
    assert agent.kind is ActorKind.MCP
    assert agent.to_json() == {
        "kind": "mcp",
        "session": "20261129-231900-8adcaabf",
        "client": {"name": "claude-code", "version": "2.0.1"},
    }
    assert {kind.value for kind in ActorKind} == {"notebook", "cli", "mcp", "library", "outside"}
