"""The tool writes only MEMORY.md, USER.md and its lock file, inside the home."""

from __future__ import annotations

import os
import stat
from pathlib import Path

import pytest

from notebook_app.core.home.reading import JOURNAL_NAME
from notebook_app.core.memory.tool import memory_tool


def test_only_memory_user_journal_and_history_are_ever_written(home: Path) -> None:
    (home / "SOUL.md").write_text("You are Kip.")
    tool = memory_tool(home)
    tool.call({"action": "add", "text": "a"})
    tool.call({"action": "add", "text": "b", "target": "user"})
    tool.call({"action": "replace", "text": "a", "with": "c"})
    tool.call({"action": "remove", "text": "b", "target": "user"})
    assert sorted(os.listdir(home)) == sorted([JOURNAL_NAME, ".notebook", "MEMORY.md", "USER.md", "SOUL.md"])
    assert stat.S_IMODE((home / ".notebook").stat().st_mode) == 0o700
    assert (home / "SOUL.md").read_text() == "You are Kip."


@pytest.mark.parametrize("action", ["add", "replace"])
def test_permissions_of_an_existing_file_are_kept(home: Path, action: str) -> None:
    path = home / "MEMORY.md"
    path.write_text("- a\n")
    path.chmod(0o640)
    memory_tool(home).call({"action": action, "text": "a", "with": "b"})
    assert stat.S_IMODE(path.stat().st_mode) == 0o640


@pytest.mark.parametrize("action", ["add", "replace", "remove"])
def test_symlinked_memory_file_is_refused_and_left_a_link(tmp_path: Path, home: Path, action: str) -> None:
    outside = tmp_path / "outside.md"
    outside.write_text("- secret\n")
    (home / "MEMORY.md").symlink_to(outside)
    outside_before = outside.read_bytes()
    res = memory_tool(home).call({"action": action, "text": "secret", "with": "public"})
    assert res.is_error
    assert res.output == (
        f"MEMORY.md is a symbolic link (to {outside}); the memory tool edits only regular files "
        "inside the home, so nothing was written"
    )
    assert (home / "MEMORY.md").is_symlink()
    assert outside.read_bytes() == outside_before


def test_symlinked_journal_is_not_followed(tmp_path: Path, home: Path) -> None:
    outside = tmp_path / "victim"
    outside.write_text("untouched")
    (home / JOURNAL_NAME).symlink_to(outside)
    res = memory_tool(home).call({"action": "add", "text": "x"})
    assert res.is_error
    assert res.output.startswith("could not write memory (")
    assert outside.read_text() == "untouched"
    assert not (home / "MEMORY.md").exists()


def test_stale_temp_file_from_a_killed_writer_is_cleaned_up(home: Path) -> None:
    (home / "MEMORY.md").write_text("- a\n")
    stale = home / ".memory-tmp-MEMORY.md-abc123"
    stale.write_text("- half a rewr")
    memory_tool(home).call({"action": "replace", "text": "a", "with": "b"})
    assert not stale.exists()
    assert (home / "MEMORY.md").read_text() == "- b\n"
