"""The find bar: '/' finds across every file and both sessions
as you type; enter/↓/↑ step; esc closes; ctrl+g goes to a line."""

from __future__ import annotations

from pathlib import Path

import pytest
from notebook_pilot import file_view, make_app, started, two_mebibyte_home, wait_until
from textual.widgets import Input

from notebook_app.app.widgets.common.line_view import LineView
from notebook_app.app.widgets.find.find_bar import FindBar
from notebook_app.app.widgets.home.home_pane import HomePane
from notebook_app.app.widgets.session.session_pane import SessionPane

SOUL = "# Wren\n\nStudies kelp forests.\n"
USER = "- name is Priya\n- marine ecologist studying kelp\n"
HEARTBEAT = "# Heartbeat\n\nCheck the kelp survey feed.\n"
MEMORY = "# Notes\n\n- kelp papers on Mondays\n- tide tables\n- more KELP: canopy maps\n"


@pytest.fixture
def kelp_home(tmp_path: Path) -> Path:
    home = tmp_path / "kelp"
    home.mkdir()
    for name, text in (("SOUL.md", SOUL), ("USER.md", USER), ("HEARTBEAT.md", HEARTBEAT), ("MEMORY.md", MEMORY)):
        (home / name).write_text(text)
    return home


def count_of(app) -> str:
    return str(app.screen.query_one("#find-count").content)


def bar(app) -> FindBar:
    return app.screen.query_one(FindBar)


async def find(pilot, text: str, count: str) -> None:
    await pilot.press("slash", *text)
    await wait_until(
        pilot, lambda: count_of(pilot.app) == count, f"the count {count!r} (shown: {count_of(pilot.app)!r})"
    )


def highlighted(view: LineView, line: int) -> list[str]:
    """The text of the cells drawn with find's match styles on ``line``'s first row (whatever the row's own style)."""
    match_bg = {
        view.get_component_rich_style(name).bgcolor for name in ("line-view--match", "line-view--match-current")
    }
    row = view._rows.first_row_of(line) - view.scroll_offset.y
    strip = view.render_line(row)
    return [segment.text for segment in strip if segment.style is not None and segment.style.bgcolor in match_bg]


async def test_typing_finds_across_every_file_and_both_sessions_with_a_count(kelp_home: Path) -> None:
    app = make_app(kelp_home)
    async with app.run_test(size=(160, 45)) as pilot:
        await started(pilot)
        # SOUL 1, USER 1, HEARTBEAT 1, MEMORY 2 (kelp, KELP), then each soul holds all 5: 15; it starts in MEMORY.md,
        # the target
        await find(pilot, "kelp", "4 of 15")
        assert bar(app).is_open and isinstance(app.focused, Input)
        memory = file_view(app, "MEMORY.md")
        assert highlighted(memory, 2) == ["kelp"] and highlighted(memory, 4) == ["KELP"]
        assert highlighted(file_view(app, "USER.md"), 1) == ["kelp"]
        current = app.screen.query_one("#current", SessionPane).query_one(LineView)
        assert any(
            highlighted(current, line) == ["kelp"]
            for line in range(len(current.document.lines))
            if current.line_on_screen(line)
        )
        await pilot.press("backspace", "backspace", "backspace", "backspace", *"zzz")
        await wait_until(pilot, lambda: count_of(app) == "no matches", "no matches")
        assert highlighted(memory, 2) == []


async def test_enter_down_and_up_step_between_matches_and_switch_files(kelp_home: Path) -> None:
    app = make_app(kelp_home)
    async with app.run_test(size=(160, 45)) as pilot:
        await started(pilot)
        await find(pilot, "kelp", "4 of 15")
        home = app.screen.query_one(HomePane)
        await pilot.press("down")
        assert count_of(app) == "5 of 15"
        assert file_view(app, "MEMORY.md").cursor == 4  # the entry with the match is selected
        await pilot.press("enter")
        assert count_of(app) == "6 of 15"
        assert app.screen.find.steps.hit.place == "current"
        await pilot.press("up", "up", "up")
        assert count_of(app) == "3 of 15"
        assert home.document == "HEARTBEAT.md"  # the document pane switched to the match's file
        assert file_view(app, "HEARTBEAT.md").line_on_screen(2)
        await pilot.press("up", "up", "up")
        assert count_of(app) == "15 of 15"  # before the first comes the last
        assert app.screen.find.steps.hit.place == "next"
        assert isinstance(app.focused, Input)  # typing stays in the bar while stepping
        await pilot.press("n")
        assert bar(app).typed == "kelpn" and app.screen.state.current.number == 1  # n types; it never starts a session


async def test_a_capital_makes_the_match_exact(kelp_home: Path) -> None:
    app = make_app(kelp_home)
    async with app.run_test(size=(160, 45)) as pilot:
        await started(pilot)
        await find(pilot, "KELP", "1 of 3")
        assert app.screen.find.steps.hit.place == "MEMORY.md" and app.screen.find.steps.hit.line == 4


async def test_esc_closes_the_find_bar_first_and_its_highlights_go(kelp_home: Path) -> None:
    app = make_app(kelp_home)
    async with app.run_test(size=(160, 45)) as pilot:
        await started(pilot)
        await find(pilot, "kelp", "4 of 15")
        await pilot.press("escape")
        assert not bar(app).is_open
        assert highlighted(file_view(app, "MEMORY.md"), 2) == []
        assert app.focused is file_view(app, "MEMORY.md")  # back in the file of the last match
        # with focus out of the bar (f3), esc still closes the bar before anything else
        await pilot.press("slash")
        await wait_until(pilot, lambda: count_of(app) == "4 of 15", "the count again")
        await pilot.press("f3")
        assert bar(app).is_open and not isinstance(app.focused, Input)
        await pilot.press("escape")
        assert not bar(app).is_open


async def test_a_form_opening_closes_the_find_bar(kelp_home: Path) -> None:
    app = make_app(kelp_home)
    async with app.run_test(size=(160, 45)) as pilot:
        await started(pilot)
        await find(pilot, "kelp", "4 of 15")
        await pilot.press("f2", "a")
        assert app.screen.form.is_open and not bar(app).is_open
        await pilot.press("slash")
        assert not bar(app).is_open  # '/' types in the form


async def test_ctrl_g_goes_to_a_line_of_the_selected_file(tmp_path: Path) -> None:
    home = tmp_path / "long"
    home.mkdir()
    (home / "MEMORY.md").write_text("".join(f"- entry {n}\n" for n in range(1, 301)))
    (home / "SOUL.md").write_text("# Wren\n")
    app = make_app(home)
    async with app.run_test(size=(120, 40)) as pilot:
        await started(pilot)
        await pilot.press("ctrl+g")
        assert bar(app).is_open and count_of(app) == "MEMORY.md: 1–300"
        await pilot.press(*"250", "enter")
        view = file_view(app, "MEMORY.md")
        assert not bar(app).is_open
        assert view.cursor == 249 and view.line_on_screen(249) and app.focused is view
        # a line past the end goes to the last one, and says so
        await pilot.press("ctrl+g", *"9999", "enter")
        assert view.cursor == 299 and view.line_on_screen(299)
        await wait_until(pilot, lambda: app._notifications, "the word on the missing line")
        assert [n.message for n in app._notifications] == [
            "there is no line 9999: the file has 300 lines; showing line 300"
        ]
        app.clear_notifications()
        # find keeps its query across a go to line, and the selected file becomes the match's
        await pilot.press("slash", *"entry 12")
        await wait_until(pilot, lambda: count_of(app) == "1 of 33", "entries 12 and 120–129 in the file and both souls")
        await pilot.press("ctrl+g")
        assert count_of(app) == "MEMORY.md: 1–300" and bar(app).typed == ""
        await pilot.press("escape", "slash")
        assert bar(app).typed == "entry 12"
        await pilot.press("escape")
        # the selected file follows focus: in Next, ctrl+g says so and goes there
        await pilot.press("f4", "ctrl+g")
        assert count_of(app).startswith("Next session: 1–")
        await pilot.press(*"200", "enter")
        upcoming = app.screen.query_one("#next", SessionPane)
        await wait_until(pilot, lambda: upcoming.line_on_screen(199), "line 200 of Next on screen")


async def test_a_hidden_character_is_found_by_its_marker(tmp_path: Path) -> None:
    home = tmp_path / "hidden"
    home.mkdir()
    (home / "SOUL.md").write_text("# Wren\n")
    (home / "MEMORY.md").write_text("- plain entry\n- zero\u200bwidth entry\n- a\ttab\n")
    app = make_app(home)
    async with app.run_test(size=(160, 45)) as pilot:
        await started(pilot)
        await pilot.press("slash")
        field = app.screen.query_one("#find-input", Input)
        field.insert_text_at_cursor("∙")  # as a paste or a compose key types it
        await wait_until(
            pilot, lambda: count_of(app) == "1 of 3", "the zero-width space found in MEMORY.md, then Current and Next"
        )
        assert app.screen.find.steps.hit.place == "MEMORY.md" and app.screen.find.steps.hit.line == 1
        assert highlighted(file_view(app, "MEMORY.md"), 1) == ["∙"]
        await pilot.press("backspace")
        field.insert_text_at_cursor("→")
        await wait_until(pilot, lambda: count_of(app) == "1 of 3", "the tab found by →")
        assert app.screen.find.steps.hit.line == 2


async def test_find_on_a_two_mebibyte_home_counts_and_steps(tmp_path: Path) -> None:
    home = tmp_path / "big"
    n = two_mebibyte_home(home)
    app = make_app(home)
    async with app.run_test(size=(120, 40)) as pilot:
        await started(pilot)
        await pilot.press("slash", *"kelp survey")
        await wait_until(
            pilot,
            lambda: count_of(app) == f"1 of {3 * n:,}",
            "every entry counted in the file and both souls",
            attempts=2000,
        )
        await pilot.press("up")  # wraps round to the very last match: the end of Next
        assert count_of(app) == f"{3 * n:,} of {3 * n:,}"
        upcoming = app.screen.query_one("#next", SessionPane)
        await wait_until(
            pilot,
            lambda: upcoming.line_on_screen(app.screen.find.steps.hit.line),
            "the last line of Next on screen",
            attempts=2000,
        )
        await pilot.press(*" notes, entry 00123")  # each keystroke asks again; the latest query's count shows
        await wait_until(
            pilot, lambda: count_of(app) == "1 of 3", "one entry in the file and both souls", attempts=2000
        )
        assert (app.screen.find.steps.hit.place, app.screen.find.steps.hit.line) == ("MEMORY.md", 123)
        await wait_until(pilot, lambda: file_view(app).line_on_screen(123), "its line on screen", attempts=2000)
