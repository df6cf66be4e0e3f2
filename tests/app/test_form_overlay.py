"""The form lies over the panes: opening and closing it resizes nothing, and a change repaints only its rows."""

from __future__ import annotations

from pathlib import Path

from notebook_pilot import MEMORY, SIZE, SOUL, USER, make_app, started, wait_until

from notebook_app.app.view_model.documents import Document
from notebook_app.app.widgets.common import line_view
from notebook_app.app.widgets.common.line_view import LineView
from notebook_app.app.widgets.session.session_pane import SessionPane


def make_home(tmp_path: Path, memory: str = MEMORY) -> Path:
    for name, text in (("SOUL.md", SOUL), ("USER.md", USER), ("MEMORY.md", memory)):
        (tmp_path / name).write_text(text)
    return tmp_path


def pane_regions(app) -> dict[str, object]:
    return {pane.id: pane.region for pane in app.screen.query("#panes > HomePane, #panes > SessionPane")}


async def test_opening_and_closing_the_form_resizes_no_pane(tmp_path) -> None:
    app = make_app(make_home(tmp_path))
    async with app.run_test(size=SIZE) as pilot:
        await started(pilot)
        before = pane_regions(app)
        await pilot.press("a", *"keeps tide tables")
        await wait_until(
            pilot, lambda: app.screen.form.is_open and app.screen.round_trip.dry is not None, "the form's dry run"
        )
        assert pane_regions(app) == before
        form = app.screen.form.region
        assert form.bottom <= app.screen.query_one("#panes").region.bottom  # over the panes, never under the footer
        await pilot.press("enter")
        await wait_until(pilot, lambda: not app.screen.form.is_open, "the form to close")
        await pilot.pause()
        assert pane_regions(app) == before


async def test_the_dry_run_line_shows_above_the_open_form_at_80_by_24(tmp_path) -> None:
    long_memory = MEMORY + "".join(f"- note {n}\n" for n in range(40))
    app = make_app(make_home(tmp_path, long_memory))
    async with app.run_test(size=(80, 24)) as pilot:
        await started(pilot)
        await pilot.press("a", *"keeps tide tables")
        upcoming = app.screen.query_one("#next", SessionPane)

        def added() -> int:
            lines = upcoming.document.lines
            return lines.index("- keeps tide tables") if "- keeps tide tables" in lines else -1

        await wait_until(pilot, lambda: added() >= 0, "the dry run in Next")
        await pilot.pause(0.1)
        view = upcoming.query_one(LineView)
        assert upcoming.line_on_screen(added())
        row = view.visible_document.lines.index("- keeps tide tables")
        screen_y = view.region.y + view._rows.first_row_of(row) - view.scroll_offset.y
        assert screen_y < app.screen.form.region.y, "the dry run's line is under the form"


async def test_a_changed_line_repaints_only_its_row(tmp_path) -> None:
    app = make_app(make_home(tmp_path))
    async with app.run_test(size=SIZE) as pilot:
        await started(pilot)
        view = app.screen.query_one("#current", SessionPane).query_one(LineView)
        lines = list(view.document.lines)
        await pilot.pause()
        changed = next(index for index, line in enumerate(lines) if line.startswith("I am Wren"))
        edited = [
            *lines[:changed],
            lines[changed].replace("careful", "CAREFUL"),
            *lines[changed + 1 :],
        ]  # the same wrapping
        view._dirty_regions.clear()
        view.show(Document(lines=edited, marks=view.document.marks, banners=view.document.banners))
        regions = list(view._dirty_regions)
        assert regions, "nothing was repainted"
        assert all(region.height == 1 for region in regions), regions
        rows = {region.y + view.scroll_offset.y for region in regions}
        first = view._rows.first_row_of(changed)
        assert rows == {row for row in range(first, len(view._rows)) if view._rows.line[row] == changed}


async def test_closing_the_form_keeps_next_where_it_was_then_gives_back_the_rows(tmp_path, monkeypatch) -> None:
    """Next, scrolled to its end above the form, does not move when the form closes; its rows below come a moment later.

    The moment is held longer here (2 s, not 0.25 s), so a loaded machine's slow polling still looks within it."""
    monkeypatch.setattr(line_view, "TRIM_AFTER", 2.0)
    long_memory = MEMORY + "".join(f"- note {n}\n" for n in range(60))
    app = make_app(make_home(tmp_path, long_memory))
    async with app.run_test(size=SIZE) as pilot:
        await started(pilot)
        view = app.screen.query_one("#next", SessionPane).query_one(LineView)
        await pilot.press("a", *"keeps tide tables")
        await wait_until(
            pilot,
            lambda: "- keeps tide tables" in view.document.lines and view.line_on_screen(len(view.document.lines) - 1),
            "the dry run in sight",
        )
        await pilot.pause(0.1)
        top = view.scroll_offset.y
        await pilot.press("escape", "escape")
        await wait_until(pilot, lambda: not app.screen.form.is_open, "the form to close")
        assert view.scroll_offset.y == top  # no row moved in the frame that shows the form closed
        await wait_until(pilot, lambda: view.virtual_size.height == len(view._rows), "the held rows given back")
        assert view.scroll_offset.y == view.max_scroll_y
