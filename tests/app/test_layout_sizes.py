"""Every terminal size: the file list, the target and the comparison each one key away, space following content."""

from __future__ import annotations

from pathlib import Path

import pytest
from notebook_pilot import make_app, started, summary_of, wait_until

from notebook_app.app.widgets.home.file_list import FileList
from notebook_app.app.widgets.home.home_pane import HomePane
from notebook_app.app.widgets.session.session_pane import SessionPane

SIZES = [(80, 24), (80, 40), (100, 30), (160, 45)]
IDS = ["80x24", "80x40", "100x30", "160x45"]


def shown_on_screen(app, widget) -> bool:
    """Displayed (it and every ancestor), with some of it inside the screen."""
    screen = app.screen.region
    region = widget.region
    return bool(widget.display) and all(a.display for a in widget.ancestors if hasattr(a, "display")) and region.area > 0 and screen.contains_region(region)


def broken_home(home: Path) -> Path:
    """MEMORY.md not UTF-8 and SOUL.md a FIFO: two files with warnings."""
    (home / "MEMORY.md").write_bytes(b"# Notes\n\n- timezone: UTC\n- caf\xe9 bad byte\n")
    (home / "SOUL.md").unlink()
    import os

    os.mkfifo(home / "SOUL.md")
    return home


@pytest.mark.parametrize("size", [(80, 24), (80, 40)], ids=["80x24", "80x40"])
async def test_at_80_columns_f2_shows_the_file_list_and_focuses_it(home: Path, size: tuple[int, int]) -> None:
    app = make_app(home)
    async with app.run_test(size=size) as pilot:
        await started(pilot)
        await pilot.press("f3")
        await pilot.press("f2")
        await pilot.pause()
        files = app.screen.query_one(FileList)
        assert app.focused is files
        assert shown_on_screen(app, files) and files.region.height == 7


async def test_at_80x24_current_and_next_stand_side_by_side(home: Path) -> None:
    app = make_app(home)
    async with app.run_test(size=(80, 24)) as pilot:
        await started(pilot)
        await pilot.press("f3")
        await pilot.pause()
        current, upcoming = (app.screen.query_one(f"#{name}", SessionPane) for name in ("current", "next"))
        assert current.region.width >= 30 and upcoming.region.width >= 30
        assert current.region.right <= upcoming.region.x and current.region.y == upcoming.region.y
        await pilot.press("f4")
        await pilot.pause()
        assert current.region.width >= 30 and shown_on_screen(app, app.focused) and upcoming in app.focused.ancestors


async def test_an_absent_file_takes_one_row_until_it_is_picked(home: Path) -> None:
    (home / "USER.md").unlink()
    app = make_app(home)
    async with app.run_test(size=(160, 45)) as pilot:
        await started(pilot)
        await pilot.pause()
        column = app.screen.query_one(HomePane)
        pane = column.pane("USER.md")
        assert pane.region.height == 1 and "absent" in str(pane.border_title)
        assert column.pane("MEMORY.md").region.height > 20  # the target gets the rest
        await pilot.press("4")  # picked: in view, to be read and focused
        await pilot.pause()
        assert pane.region.height > 1 and app.focused is pane.view


async def test_warnings_fold_to_one_row_and_w_unfolds_them(home: Path) -> None:
    from notebook_app.app.widgets.home.file_summary import FileSummary

    broken_home(home)
    app = make_app(home)
    async with app.run_test(size=(100, 30)) as pilot:
        await started(pilot)
        summary = app.screen.query_one(HomePane).pane("MEMORY.md").query_one(FileSummary)
        await wait_until(pilot, lambda: "unreadable" in summary_of(app), "the warning")
        await pilot.pause()
        assert summary.region.height == 2  # the size line, and the warnings in one row
        assert "▸ w" in summary_of(app)
        await pilot.press("w")
        await wait_until(pilot, lambda: summary.region.height > 2, "the warnings in full")
        assert "The memory tool will not edit it" in summary_of(app)
        await pilot.press("w")
        await wait_until(pilot, lambda: summary.region.height == 2, "folded again")


@pytest.mark.parametrize("size", SIZES, ids=IDS)
async def test_focus_never_rests_on_a_hidden_widget(home: Path, size: tuple[int, int]) -> None:
    app = make_app(home)
    async with app.run_test(size=size) as pilot:
        await started(pilot)
        for key in ("f2", "f3", "f4", "1", "2", "3", "4", "5", "6", "7", "t", "t", "f2", "down", "f4", "f2", "tab", "tab", "tab"):
            await pilot.press(key)
            await pilot.pause()
            assert app.focused is not None and shown_on_screen(app, app.focused), f"after {key}: {app.focused!r} is not in view"


@pytest.mark.parametrize("size", SIZES, ids=IDS)
async def test_down_in_a_file_never_changes_the_picked_file(home: Path, size: tuple[int, int]) -> None:
    app = make_app(home)
    async with app.run_test(size=size) as pilot:
        await started(pilot)
        column = app.screen.query_one(HomePane)
        assert column.document == "SOUL.md"
        for _ in range(3):
            await pilot.press("down")
        await pilot.pause()
        assert column.document == "SOUL.md"
        await pilot.press("f2", "down")
        await pilot.pause()
        assert shown_on_screen(app, app.screen.query_one(FileList))  # ↓ moves the list only where it is seen
