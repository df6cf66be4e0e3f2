"""80×24 is a first-class size: Home or the comparison (Current
and Next side by side) under a switcher, the dry run in view."""

from __future__ import annotations

from pathlib import Path

from notebook_pilot import MEMORY, make_app, started, wait_until

from notebook_app.app.widgets.common.pane_tabs import PaneTabs
from notebook_app.app.widgets.session.session_pane import SessionPane

SMALL = (80, 24)


def pane(app, name: str) -> SessionPane:
    return app.screen.query_one(f"#{name}", SessionPane)


def added_line(document, text: str) -> int | None:
    return next((i for i, mark in document.marks.items() if mark == "added" and document.lines[i] == text), None)


async def test_at_80_columns_home_or_the_two_sessions_show_and_f3_f4_focus_either(home: Path) -> None:
    app = make_app(home)
    async with app.run_test(size=SMALL) as pilot:
        await started(pilot)
        assert app.screen.has_class("-narrow")
        tabs = app.screen.query_one(PaneTabs)
        assert tabs.display and tabs.active == "home"
        assert app.screen.query_one("#home").region.width == 80
        assert pane(app, "current").region.width == 0 and pane(app, "next").region.width == 0
        await pilot.press("f4")
        await pilot.pause()
        assert (
            tabs.active == "next" and pane(app, "next").region.width == 40 and pane(app, "current").region.width == 40
        )
        assert app.screen.query_one("#home").region.width == 0 and pane(app, "next") in app.focused.ancestors
        await pilot.press("f3")
        await pilot.pause()
        assert (
            tabs.active == "current"
            and pane(app, "current").region.width == 40
            and pane(app, "next").region.width == 40
        )
        assert pane(app, "current") in app.focused.ancestors


async def test_at_120_columns_the_three_panes_stand_side_by_side(home: Path) -> None:
    app = make_app(home)
    async with app.run_test(size=(120, 40)) as pilot:
        await started(pilot)
        assert not app.screen.has_class("-narrow")
        assert not app.screen.query_one(PaneTabs).display
        widths = [app.screen.query_one(f"#{name}").region.width for name in ("home", "current", "next")]
        assert all(width >= 34 for width in widths) and sum(widths) == 120


async def test_at_80x24_the_dry_run_is_in_view_while_typing_and_n_shows_the_entry_in_current(home: Path) -> None:
    app = make_app(home)
    async with app.run_test(size=SMALL) as pilot:
        await started(pilot)
        await pilot.press("a", *"keeps tide tables")
        entry = "- keeps tide tables"
        await wait_until(
            pilot, lambda: added_line(pane(app, "next").document, entry) is not None, "the dry run in Next"
        )
        await wait_until(
            pilot,
            lambda: pane(app, "next").line_on_screen(added_line(pane(app, "next").document, entry)),
            "the + line in view",
        )
        assert app.screen.query_one(PaneTabs).active == "next"
        await pilot.press("enter")
        await wait_until(pilot, lambda: (home / "MEMORY.md").read_text() == MEMORY + entry + "\n", "the write")
        await pilot.press("n")
        await wait_until(pilot, lambda: app.screen.state.current.number == 2, "session 2")
        current = pane(app, "current")
        line = list(current.document.lines).index(entry)
        await wait_until(pilot, lambda: current.line_on_screen(line), "the new entry in view in Current")
        assert app.screen.query_one(PaneTabs).active == "current"


async def test_help_fits_80x24_and_scrolls_and_f1_opens_it_while_typing(home: Path) -> None:
    from notebook_app.app.screens.help import HelpScreen

    app = make_app(home)
    async with app.run_test(size=SMALL) as pilot:
        await started(pilot)
        await pilot.press("a", "question_mark")
        assert app.screen.form.args["text"] == "?"  # a letter types while the form is open
        await pilot.press("f1")
        assert isinstance(app.screen, HelpScreen)
        panel = app.screen.query_one("#help-panel")
        await pilot.pause()
        assert panel.region.width <= 80 and panel.region.bottom <= 24
        assert panel.max_scroll_y > 0
        await pilot.press("pagedown")
        await wait_until(pilot, lambda: panel.scroll_offset.y > 0, "the help to scroll")
