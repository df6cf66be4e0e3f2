"""The history in the notebook: records newest first, a record's diff, undo and restore with a dry run first."""

from __future__ import annotations

from pathlib import Path

from notebook_pilot import MEMORY, SIZE, make_app, started, wait_until

from notebook_app.app.screens.history import HistoryScreen
from notebook_app.core import memory_tool
from notebook_app.core.actor import CLI


async def open_history(pilot) -> HistoryScreen:
    await pilot.press("h")
    await wait_until(pilot, lambda: isinstance(pilot.app.screen, HistoryScreen) and pilot.app.screen.records, "the records")
    return pilot.app.screen


async def test_undo_shows_its_dry_run_and_writes_only_on_y(home: Path) -> None:
    memory_tool(home, by=CLI).call({"action": "add", "text": "from the command line"})
    app = make_app(home)
    async with app.run_test(size=SIZE) as pilot:
        await started(pilot)
        screen = await open_history(pilot)
        newest = screen.records[0]
        assert (newest.action, newest.by.kind.value, newest.file) == ("add", "cli", "MEMORY.md")
        detail = screen.query_one("#history-detail")
        await wait_until(pilot, lambda: "+- from the command line" in str(detail.content), "the record's diff")
        await pilot.press("u")
        await wait_until(pilot, lambda: screen.pending is not None, "the undo's dry run")
        assert "y applies it" in str(detail.content)
        assert (home / "MEMORY.md").read_text() == MEMORY + "- from the command line\n"
        await pilot.press("y")
        await wait_until(pilot, lambda: (home / "MEMORY.md").read_text() == MEMORY, "the undo to land")
        await wait_until(pilot, lambda: screen.records and screen.records[0].action == "undo", "the undo recorded")
        assert screen.records[0].by.kind.value == "notebook"


async def test_the_who_filter_keeps_only_that_writer(home: Path) -> None:
    memory_tool(home, by=CLI).call({"action": "add", "text": "by the cli"})
    memory_tool(home).call({"action": "add", "text": "by a script"})
    app = make_app(home)
    async with app.run_test(size=SIZE) as pilot:
        await started(pilot)
        screen = await open_history(pilot)
        assert {event.by.kind.value for event in screen.records} >= {"cli", "library"}
        await pilot.press("w", "w")  # all -> notebook -> cli
        await wait_until(pilot, lambda: screen.by == "cli" and screen.records and all(e.by.kind.value == "cli" for e in screen.records), "only the cli's")
        await pilot.press("escape")
        assert not isinstance(app.screen, HistoryScreen)


async def test_b_shows_who_last_wrote_each_line_in_a_gutter(home: Path) -> None:
    from notebook_pilot import file_view

    memory_tool(home, by=CLI).call({"action": "add", "text": "from the command line"})
    app = make_app(home)
    async with app.run_test(size=SIZE) as pilot:
        await started(pilot)
        view = file_view(app, "MEMORY.md")
        await pilot.press("b")
        last = len(view.document.lines) - 1
        await wait_until(pilot, lambda: view._notes.get(last) == "cli 12:00:00", "the blame of the new line")
        assert view._notes[0] == "before history"
        await pilot.press("b")
        await wait_until(pilot, lambda: view._note_width == 0, "the gutter gone")
