"""Find and go to line in the built-in editor: ctrl+f over the buffer as it is, ctrl+g, esc closing the bar first.

Real homes in temp dirs, the real app through Pilot.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from notebook_pilot import SIZE, make_app, two_mebibyte_home, wait_until
from test_hand_editing import open_editor
from textual.widgets import Input, Label

from notebook_app.app.screens.editor.screen import EditorScreen
from notebook_app.app.screens.help import HelpScreen
from notebook_app.app.screens.main.screen import MainScreen
from notebook_app.app.widgets.find.find_bar import FindBar
from notebook_app.core.home.search import Searchable

NOTES = "# Notes\n- kelp survey in May\n- tide tables\n- Kelp density at T4\n- a tab:\there\n"


@pytest.fixture
def kelp_home(tmp_path: Path) -> Path:
    home = tmp_path / "home"
    home.mkdir()
    (home / "SOUL.md").write_text("# Wren\n")
    (home / "MEMORY.md").write_text(NOTES)
    return home


def count_of(editor: EditorScreen) -> str:
    return str(editor.query_one("#find-count", Label).content)


async def find(pilot, editor: EditorScreen, typed: str, count: str) -> None:
    await pilot.press("ctrl+f", *["space" if ch == " " else ch for ch in typed])
    await wait_until(pilot, lambda: count_of(editor) == count, f"the count {count}")


def selected(editor: EditorScreen) -> tuple[tuple[int, int], tuple[int, int], str]:
    area = editor.text_area
    return area.selection.start, area.selection.end, area.selected_text


async def test_ctrl_f_finds_in_the_unsaved_buffer_from_the_cursor_and_the_arrows_select_each_match(
    kelp_home: Path,
) -> None:
    app = make_app(kelp_home)
    async with app.run_test(size=SIZE) as pilot:
        editor = await open_editor(pilot)
        await pilot.press(*"kelp", "space", *"first", "enter")  # typed at the top, not saved
        assert editor.unsaved and editor.text_area.cursor_location == (1, 0)
        await find(pilot, editor, "kelp", "2 of 3")  # from the cursor on: the first match after the typed line
        assert selected(editor) == ((2, 2), (2, 6), "kelp")
        await pilot.press("up")
        assert count_of(editor) == "1 of 3" and selected(editor) == ((0, 0), (0, 4), "kelp")  # the unsaved line
        await pilot.press("enter")
        assert count_of(editor) == "2 of 3"
        await pilot.press("down")
        assert count_of(editor) == "3 of 3" and selected(editor) == ((4, 2), (4, 6), "Kelp")  # no capital: any case
        await pilot.press("down")
        assert count_of(editor) == "1 of 3" and selected(editor)[:2] == ((0, 0), (0, 4))  # after the last, the first
        assert app.focused is editor.query_one("#find-input")  # the keys stayed in the bar
        assert not (kelp_home / "MEMORY.md").read_text().startswith("kelp")  # finding never saves


async def test_a_capital_matches_exactly_and_a_tab_is_found_by_its_marker(kelp_home: Path) -> None:
    app = make_app(kelp_home)
    async with app.run_test(size=SIZE) as pilot:
        editor = await open_editor(pilot)
        await find(pilot, editor, "Kelp", "1 of 1")
        assert selected(editor)[2] == "Kelp"
        await pilot.press("escape")
        await pilot.press("ctrl+f")
        editor.query_one("#find-input", Input).value = "→here"  # as pasted: Pilot types no arrows
        await wait_until(pilot, lambda: selected(editor)[2] == "\there", "the tab found")
        assert selected(editor)[:2] == ((4, 8), (4, 13)) and count_of(editor) == "1 of 1"
        await pilot.press("backspace", *"x")
        await wait_until(pilot, lambda: count_of(editor) == "no matches", "no matches")
        assert editor.query_one("#find-count").has_class("-missing")


async def test_esc_closes_the_find_bar_first_keeping_the_match_selected_then_the_editor(kelp_home: Path) -> None:
    app = make_app(kelp_home)
    async with app.run_test(size=SIZE) as pilot:
        editor = await open_editor(pilot)
        await find(pilot, editor, "tide", "1 of 1")
        await pilot.press("escape")
        assert not editor.query_one(FindBar).is_open
        assert app.screen is editor and app.focused is editor.text_area
        assert selected(editor)[2] == "tide"
        await find(pilot, editor, "may", "1 of 1")
        editor.text_area.focus()  # clicked back into the buffer: the bar is still the innermost thing
        await pilot.press("escape")
        assert not editor.query_one(FindBar).is_open and app.screen is editor
        await pilot.press("escape")
        await wait_until(pilot, lambda: isinstance(app.screen, MainScreen), "the notebook again")


async def test_an_edit_while_the_bar_is_open_forgets_the_count_and_enter_counts_again_from_the_cursor(
    kelp_home: Path,
) -> None:
    app = make_app(kelp_home)
    async with app.run_test(size=SIZE) as pilot:
        editor = await open_editor(pilot)
        await find(pilot, editor, "tide", "1 of 1")
        editor.text_area.focus()
        editor.text_area.move_cursor((0, 0))
        await pilot.press(*"tide", "space")
        await wait_until(pilot, lambda: count_of(editor) == "", "the count forgotten")
        editor.query_one("#find-input").focus()
        await pilot.press("enter")
        await wait_until(pilot, lambda: count_of(editor) == "2 of 2", "counted again, from the cursor")
        assert selected(editor) == ((2, 2), (2, 6), "tide")


async def test_ctrl_g_goes_to_the_line_typed_says_when_it_is_past_the_end_and_find_then_starts_there(
    kelp_home: Path,
) -> None:
    app = make_app(kelp_home)
    async with app.run_test(size=SIZE) as pilot:
        editor = await open_editor(pilot)
        await find(pilot, editor, "kelp", "1 of 2")
        await pilot.press("escape", "ctrl+g")
        bar = editor.query_one(FindBar)
        assert bar.is_open and bar.mode == "line" and count_of(editor) == "MEMORY.md: 1–6"
        await pilot.press("4", "enter")
        assert not bar.is_open and app.focused is editor.text_area
        assert editor.text_area.cursor_location == (3, 0)
        await pilot.press("ctrl+f")  # the query kept; counted from the cursor, the match shown before is left behind
        assert bar.mode == "find"
        await wait_until(pilot, lambda: count_of(editor) == "2 of 2", "the match after line 4's start")
        assert selected(editor) == ((3, 2), (3, 6), "Kelp")
        app.clear_notifications()
        await pilot.press("ctrl+g", "9", "9", "enter")
        assert editor.text_area.cursor_location == (5, 0)
        assert [n.message for n in app._notifications] == ["there is no line 99: the file has 6 lines; showing line 6"]


async def test_f1_in_the_editor_opens_help_at_its_keys_find_included_and_question_mark_types(kelp_home: Path) -> None:
    app = make_app(kelp_home)
    async with app.run_test(size=SIZE) as pilot:
        editor = await open_editor(pilot)
        await pilot.press("question_mark")
        assert app.screen is editor and editor.text_area.text.startswith("?")
        await pilot.press("f1")
        await wait_until(pilot, lambda: isinstance(app.screen, HelpScreen), "help")
        rows = [str(label.content) for label in app.screen.query(".help-key, .help-text").results(Label)]
        pairs = dict(zip(rows[::2], rows[1::2], strict=True))
        shown = [
            (key, text) for key, text in zip(rows[::2], rows[1::2], strict=True) if text.startswith("In the editor")
        ]
        assert [key for key, _ in shown] == ["ctrl+s", "ctrl+f", "ctrl+g", "ctrl+z", "ctrl+y"]
        assert "find in the buffer" in pairs["ctrl+f"]
        panel = app.screen.query_one("#help-panel")
        # The help scrolls to the editor's keys after its first refresh: wait for that, then check where it stopped.
        await wait_until(pilot, lambda: panel.scroll_y > 0, "the help scrolled to the editor's keys")
        heading = next(h for h in app.screen.query(".help-heading") if "Built-in editor" in str(h.content))
        top = panel.scroll_y
        assert (
            top > 0 and top <= heading.virtual_region.y < top + panel.scrollable_content_region.height
        )  # opened at the editor's keys


async def test_find_in_a_two_mebibyte_buffer_counts_steps_and_selects(tmp_path: Path) -> None:
    home = tmp_path / "big"
    n = two_mebibyte_home(home)
    app = make_app(home)
    async with app.run_test(size=SIZE) as pilot:
        editor = await open_editor(pilot)
        await pilot.press("ctrl+f", *"kelp", "space", *"survey")
        await wait_until(pilot, lambda: count_of(editor) == f"1 of {n:,}", "every entry counted", attempts=2000)
        await pilot.press("up")  # wraps round to the very last entry
        assert count_of(editor) == f"{n:,} of {n:,}"
        assert editor.text_area.selection.start == (n - 1, 36)
        await pilot.press(*" notes, entry 01234")
        await wait_until(pilot, lambda: count_of(editor) == "1 of 1", "one entry", attempts=2000)
        assert selected(editor)[0] == (1234, 36)
        area = editor.text_area
        await wait_until(
            pilot,
            lambda: area.scroll_offset.y <= 1234 < area.scroll_offset.y + area.scrollable_content_region.height,
            "its line on screen",
        )


async def test_find_in_a_large_crlf_buffer_prepares_its_text_once_per_edit_not_once_per_keystroke(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    home = tmp_path / "crlf"
    two_mebibyte_home(home)
    memory, n = home / "MEMORY.md", 6000
    lines = memory.read_text().split("\n")[:n]
    memory.write_bytes("\r\n".join(lines).encode() + b"\r\n")  # 400 kB: past the highlighting limit, a plain document
    prepared: list[int] = []
    original = Searchable.of.__func__

    def counted(cls, place: str, text: str) -> Searchable:
        prepared.append(len(text))
        return original(cls, place, text)

    monkeypatch.setattr(Searchable, "of", classmethod(counted))
    app = make_app(home)
    async with app.run_test(size=SIZE) as pilot:
        editor = await open_editor(pilot)
        assert editor.text_area.document.newline == "\r\n"
        await pilot.press("ctrl+f", *"kelp")
        await wait_until(pilot, lambda: count_of(editor) == f"1 of {n:,}", "every entry counted", attempts=2000)
        await pilot.press("space", *"survey")
        await wait_until(
            pilot,
            lambda: count_of(editor) == f"1 of {n:,}" and editor.find.steps.outcome.typed == "kelp survey",
            "the longer query",
        )
        assert len(prepared) == 1  # the text as opened, prepared once for every keystroke
        await pilot.press("escape")
        await pilot.press("x")  # an edit: the next search prepares the new text
        await pilot.press("ctrl+f", "e")
        typed = editor.find.bar.typed
        await wait_until(
            pilot,
            lambda: editor.find.steps.outcome is not None and editor.find.steps.outcome.typed == typed,
            "the count after the edit",
        )
        assert len(prepared) == 2
