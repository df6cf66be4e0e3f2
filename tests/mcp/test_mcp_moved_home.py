"""A home moved or removed while a server serves it is refused, never created again at its old path.

Real servers over stdio; the test moves the home in its own process between
two calls, as a person in another shell would.
"""

from __future__ import annotations

import os
import shutil
from pathlib import Path

import pytest
from stdio_harness import MODES, connect, text_of

MOVED = "was moved or removed since it was opened; nothing was written"


def tree(root: Path) -> dict[str, bytes]:
    return {str(p.relative_to(root)): p.read_bytes() for p in sorted(root.rglob("*")) if p.is_file()}


@pytest.mark.parametrize("mode", MODES)
async def test_an_add_after_the_home_was_moved_is_refused_and_no_ghost_home_appears(
    home: Path, server_log: Path, tmp_path: Path, mode: str
) -> None:
    elsewhere = tmp_path / "moved-away"
    async with connect(home, server_log, mode=mode) as client:
        first = await client.call_tool("memory", {"action": "add", "text": "before the move"})
        assert not first.is_error, text_of(first)
        os.rename(home, elsewhere)
        moved_tree = tree(elsewhere)
        result = await client.call_tool("memory", {"action": "add", "text": "after the move"})
        assert result.is_error
        assert text_of(result) == f"the home at {home} {MOVED}"
        assert not home.exists(), "the old path was created again: a ghost home"
        assert tree(elsewhere) == moved_tree, "the moved home was written through"
        replaced = await client.call_tool("memory", {"action": "replace", "text": "metric", "with": "imperial"})
        assert replaced.is_error and MOVED in text_of(replaced)
        assert not home.exists()
    assert (elsewhere / "MEMORY.md").read_text(encoding="utf-8").endswith("- before the move\n")


async def test_an_add_after_the_home_was_removed_is_refused_and_creates_nothing(home: Path, server_log: Path) -> None:
    async with connect(home, server_log) as client:
        assert not (await client.call_tool("memory", {"action": "add", "text": "kept"})).is_error
        shutil.rmtree(home)
        result = await client.call_tool("memory", {"action": "add", "text": "into nothing"})
        assert result.is_error
        assert text_of(result) == f"the home at {home} {MOVED}"
        assert not home.exists()


async def test_a_home_moved_back_is_the_same_home_and_takes_writes_again(
    home: Path, server_log: Path, tmp_path: Path
) -> None:
    elsewhere = tmp_path / "moved-away"
    async with connect(home, server_log) as client:
        os.rename(home, elsewhere)
        assert (await client.call_tool("memory", {"action": "add", "text": "refused"})).is_error
        os.rename(elsewhere, home)
        result = await client.call_tool("memory", {"action": "add", "text": "back home"})
        assert not result.is_error, text_of(result)
    assert (home / "MEMORY.md").read_text(encoding="utf-8").endswith("- back home\n")
    assert "refused" not in (home / "MEMORY.md").read_text(encoding="utf-8")


async def test_a_new_folder_at_the_old_path_is_not_the_home_and_is_not_written(
    home: Path, server_log: Path, tmp_path: Path
) -> None:
    async with connect(home, server_log) as client:
        os.rename(home, tmp_path / "moved-away")
        home.mkdir()  # someone made a folder of the same name: not the home this session opened
        result = await client.call_tool("memory", {"action": "add", "text": "not here"})
        assert result.is_error and MOVED in text_of(result)
        assert list(home.iterdir()) == []
