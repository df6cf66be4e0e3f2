"""Snapshots of the built-in editor and its conflict view at 80×24 and 160×45, on the demo persona.

Update with --snapshot-update, then look at the SVGs before committing them.
"""

from __future__ import annotations

import shutil
from importlib.resources import files
from pathlib import Path

import pytest
from notebook_pilot import make_app, settled, wait_until
from textual.widgets import Input

from notebook_app.app.screens.conflict import ConflictScreen
from notebook_app.app.screens.editor.screen import EditorScreen

SIZES = [(80, 24), (160, 45)]
IDS = ["80x24", "160x45"]


@pytest.fixture
def demo(tmp_path: Path) -> Path:
    home = tmp_path / "demo"
    shutil.copytree(str(files("notebook_app") / "demo_home"), home)
    return home


async def editing(pilot) -> EditorScreen:
    await settled(pilot)
    await pilot.press("E")
    await wait_until(pilot, lambda: isinstance(pilot.app.screen, EditorScreen), "the editor")
    editor = pilot.app.screen
    editor.text_area.cursor_blink = False
    return editor


@pytest.mark.parametrize("size", SIZES, ids=IDS)
def test_editor(snap_compare, demo: Path, size: tuple[int, int]) -> None:
    async def run_before(pilot) -> None:
        editor = await editing(pilot)
        editor.go_to_line(3)
        await pilot.press("end", "space", "x")
        await pilot.pause()

    assert snap_compare(make_app(demo), terminal_size=size, run_before=run_before)


@pytest.mark.parametrize("size", SIZES, ids=IDS)
def test_conflict_view(snap_compare, demo: Path, size: tuple[int, int]) -> None:
    async def run_before(pilot) -> None:
        editor = await editing(pilot)
        memory = demo / "MEMORY.md"
        text = memory.read_text()
        lines = text.split("\n")
        editor.text_area.load_text(
            text.replace(lines[3], lines[3] + " (and Dr. Lee)").replace(lines[9], lines[9] + ", ask first")
        )
        memory.write_text(text.replace(lines[3], lines[3] + " (until May)").replace(lines[9], lines[9] + " in winter"))
        await pilot.press("ctrl+s")
        await wait_until(
            pilot,
            lambda: isinstance(pilot.app.screen, ConflictScreen) and pilot.app.screen.sides is not None,
            "the conflict view",
        )
        await pilot.press("2")
        pilot.app.clear_notifications()
        await pilot.pause()

    assert snap_compare(make_app(demo), terminal_size=size, run_before=run_before)


@pytest.mark.parametrize("size", SIZES, ids=IDS)
def test_editor_with_its_find_bar(snap_compare, demo: Path, size: tuple[int, int]) -> None:
    async def run_before(pilot) -> None:
        editor = await editing(pilot)
        await pilot.press("ctrl+f", *"transect")
        count = editor.query_one("#find-count")
        await wait_until(pilot, lambda: str(count.content) == "1 of 2", "the count")
        await pilot.press("down")
        await wait_until(pilot, lambda: str(count.content) == "2 of 2", "the next match")
        editor.query_one("#find-input", Input).cursor_blink = False
        await pilot.pause()

    assert snap_compare(make_app(demo), terminal_size=size, run_before=run_before)
