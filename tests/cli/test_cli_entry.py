"""``persona-notebook entry delete|edit``: real processes, real exit codes, guarded by the line's text."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest


def run(*args: str, cwd: Path | None = None) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "notebook_app", *args], capture_output=True, text=True, cwd=cwd, timeout=60
    )


def seed(home: Path, data: bytes = b"- keep me\n- drop me\n- fix me\n") -> Path:
    path = home / "MEMORY.md"
    path.write_bytes(data)
    return path


def test_delete_removes_the_line_and_exits_zero(tmp_path: Path) -> None:
    path = seed(tmp_path)
    out = run("entry", "delete", "MEMORY.md", "2", "--expect", "- drop me", "--home", str(tmp_path))
    assert (out.returncode, out.stdout, out.stderr) == (0, "ok (delete line 2 → MEMORY.md); loads next session\n", "")
    assert path.read_bytes() == b"- keep me\n- fix me\n"


def test_edit_replaces_the_lines_text_and_keeps_a_crlf_ending(tmp_path: Path) -> None:
    path = seed(tmp_path, b"- keep me\r\n- fix me\r\n")
    out = run("entry", "edit", "MEMORY.md", "2", "--expect", "- fix me", "--to", "- fixed", "--home", str(tmp_path))
    assert (out.returncode, out.stdout) == (0, "ok (edit line 2 → MEMORY.md); loads next session\n")
    assert path.read_bytes() == b"- keep me\r\n- fixed\r\n"


def test_home_defaults_to_the_current_directory(tmp_path: Path) -> None:
    (tmp_path / "USER.md").write_text("- name is Muthu\n")
    assert run("entry", "delete", "USER.md", "1", "--expect", "- name is Muthu", cwd=tmp_path).returncode == 0
    assert (tmp_path / "USER.md").read_text() == ""


def test_a_line_that_changed_exits_one_with_the_reason_on_stderr_and_changes_nothing(tmp_path: Path) -> None:
    path = seed(tmp_path)
    out = run("entry", "delete", "MEMORY.md", "1", "--expect", "- drop me", "--home", str(tmp_path))
    assert out.returncode == 1
    assert out.stdout == ""
    assert out.stderr == (
        'line 1 of MEMORY.md changed since you selected it: it was "- drop me", it reads "- keep me" now; '
        "nothing was changed\n"
    )
    assert path.read_bytes() == b"- keep me\n- drop me\n- fix me\n"


def test_json_output_for_done_and_refused(tmp_path: Path) -> None:
    seed(tmp_path)
    done = run(
        "entry", "edit", "MEMORY.md", "3", "--expect", "- fix me", "--to", "- fixed", "--home", str(tmp_path), "--json"
    )
    assert (done.returncode, json.loads(done.stdout)) == (
        0,
        {"output": "ok (edit line 3 → MEMORY.md); loads next session", "is_error": False},
    )
    refused = run(
        "entry", "edit", "MEMORY.md", "3", "--expect", "- fix me", "--to", "- again", "--home", str(tmp_path), "--json"
    )
    assert refused.returncode == 1
    assert json.loads(refused.stdout) == {
        "output": 'line 3 of MEMORY.md changed since you selected it: it was "- fix me", it reads "- fixed" now; '
        "nothing was changed",
        "is_error": True,
    }


def test_a_new_text_the_core_refuses_exits_one(tmp_path: Path) -> None:
    path = seed(tmp_path)
    out = run("entry", "edit", "MEMORY.md", "1", "--expect", "- keep me", "--to", "", "--home", str(tmp_path))
    assert out.returncode == 1
    assert out.stderr == (
        "the new text is empty or only whitespace; to remove line 1, delete the entry instead (nothing was changed)\n"
    )
    assert path.read_bytes() == b"- keep me\n- drop me\n- fix me\n"


def test_a_linked_memory_file_exits_one_in_the_tools_words(tmp_path: Path) -> None:
    home = tmp_path / "home"
    home.mkdir()
    (tmp_path / "real.md").write_text("- a\n")
    (home / "MEMORY.md").symlink_to(tmp_path / "real.md")
    out = run("entry", "delete", "MEMORY.md", "1", "--expect", "- a", "--home", str(home))
    assert out.returncode == 1
    assert out.stderr == (
        f"MEMORY.md is a symbolic link (to {tmp_path / 'real.md'}); the memory tool edits only regular files "
        "inside the home, so nothing was written\n"
    )
    assert (tmp_path / "real.md").read_text() == "- a\n"


@pytest.mark.parametrize(
    ("args", "says"),
    [
        (("entry", "delete", "SOUL.md", "1", "--expect", "x"), "invalid choice: 'SOUL.md'"),
        (("entry", "delete", "MEMORY.md", "0", "--expect", "x"), "not a line number (1 or more): '0'"),
        (("entry", "delete", "MEMORY.md", "two", "--expect", "x"), "not a line number (1 or more): 'two'"),
        (("entry", "delete", "MEMORY.md", "1"), "the following arguments are required: --expect"),
        (("entry", "edit", "MEMORY.md", "1", "--expect", "x"), "the following arguments are required: --to"),
        (("entry", "move", "MEMORY.md", "1"), "invalid choice: 'move'"),
        (("entry",), "argument ACTION"),
    ],
)
def test_usage_errors_exit_two_and_change_nothing(tmp_path: Path, args: tuple[str, ...], says: str) -> None:
    path = seed(tmp_path)
    out = run(*args, "--home", str(tmp_path))
    assert out.returncode == 2
    assert "usage:" in out.stderr and says in out.stderr
    assert path.read_bytes() == b"- keep me\n- drop me\n- fix me\n"


@pytest.mark.parametrize("home", ["missing", "a-file", ""])
def test_a_home_that_is_not_a_folder_is_a_usage_error_and_nothing_is_made(tmp_path: Path, home: str) -> None:
    (tmp_path / "a-file").write_text("not a home")
    given = str(tmp_path / home) if home else ""
    out = run("entry", "delete", "MEMORY.md", "1", "--expect", "x", "--home", given, cwd=tmp_path)
    assert out.returncode == 2
    assert out.stderr.startswith("persona-notebook: ")
    assert sorted(p.name for p in tmp_path.iterdir()) == ["a-file"]


@pytest.mark.parametrize("args", [("entry", "--help"), ("entry", "delete", "--help"), ("entry", "edit", "--help")])
def test_help_is_available_for_the_entry_verbs(args: tuple[str, ...]) -> None:
    out = run(*args)
    assert out.returncode == 0
    assert out.stdout.startswith("usage: persona-notebook entry")


def test_edit_with_a_line_break_says_what_memory_add_says(tmp_path: Path) -> None:
    path = seed(tmp_path)
    out = run("entry", "edit", "MEMORY.md", "3", "--expect", "- fix me", "--to", "- a\n- b", "--home", str(tmp_path))
    assert out.returncode == 1
    assert (
        out.stderr == "the text holds a line break, and each entry of MEMORY.md is one '- ' line; nothing was written\n"
    )
    assert path.read_bytes() == b"- keep me\n- drop me\n- fix me\n"
