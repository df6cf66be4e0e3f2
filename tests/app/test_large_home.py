"""A 2 MiB MEMORY.md: shown through one virtual view, never a widget per line."""

from __future__ import annotations

from pathlib import Path

from notebook_pilot import SIZE, file_view, make_app, started, wait_until

from notebook_app.app.widgets.session.session_pane import SessionPane
from notebook_app.core.home.soul import MAX_FILE_BYTES


def big_memory(home: Path) -> int:
    entries = [f"- note {i:05d}: the buoy at station {i % 97} reported a gap" for i in range(40_000)]
    text = "\n".join(entries) + "\n"
    while len(text.encode()) < MAX_FILE_BYTES - 200:
        text += entries[0] + "\n"
    (home / "MEMORY.md").write_text(text)
    return text.count("\n")


async def test_a_2_mib_memory_opens_and_moves_without_a_widget_per_line(home: Path) -> None:
    lines = big_memory(home)
    app = make_app(home)
    async with app.run_test(size=SIZE) as pilot:
        await started(pilot)
        view = file_view(app)
        await wait_until(
            pilot, lambda: view.visible_document is view.document and len(view.document.lines) == lines, "the big file"
        )
        assert len(list(app.screen.query("*"))) < 100
        await pilot.press("end")
        assert view.cursor == lines - 1
        await pilot.press("up", "r")
        assert app.screen.query_one("#form-text").value == view.document.lines[lines - 2][2:]
        await pilot.press("escape", "a", *"one more", "enter")
        next_view = app.screen.query_one("#next", SessionPane)
        await wait_until(pilot, lambda: "- one more" in next_view.document.lines[-3:], "the new entry in Next")
        assert (home / "MEMORY.md").read_text().endswith("- one more\n")
