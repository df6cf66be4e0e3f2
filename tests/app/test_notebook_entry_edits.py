"""Entry edits in the notebook: d deletes the selected line, e edits it; both guarded, through the core."""

from __future__ import annotations

from pathlib import Path

from notebook_pilot import MEMORY, SIZE, file_view, make_app, started, wait_until

from notebook_app.app.widgets.form.action_form import ActionForm
from notebook_app.app.widgets.session.session_pane import SessionPane


async def select_line(pilot, index: int) -> None:
    """Select line ``index`` (0-based) of the chosen file with the arrows."""
    view = file_view(pilot.app)
    view.focus()
    await pilot.press("home")
    while view.cursor is not None and view.cursor < index:
        await pilot.press("down")
    assert view.cursor == index


async def test_d_deletes_the_whole_selected_line_after_enter_confirms(home: Path) -> None:
    app = make_app(home)
    async with app.run_test(size=SIZE) as pilot:
        await started(pilot)
        await select_line(pilot, 3)  # "- likes tide tables"
        await pilot.press("d")
        form = app.screen.query_one(ActionForm)
        assert form.is_open and form.args == {
            "action": "delete-entry",
            "file": "MEMORY.md",
            "line": "4",
            "expect": "- likes tide tables",
        }
        await wait_until(
            pilot, lambda: form.status[0] == "flag" and "deletes line 4 of MEMORY.md" in form.status[1], "the dry run"
        )
        nxt = app.screen.query_one("#next", SessionPane).document
        assert "- likes tide tables" not in nxt.lines
        assert (home / "MEMORY.md").read_text() == MEMORY
        await pilot.press("enter")
        await wait_until(pilot, lambda: not form.is_open, "the delete to apply")
        assert (home / "MEMORY.md").read_text() == MEMORY.replace("- likes tide tables\n", "")


async def test_e_edits_the_line_in_place(home: Path) -> None:
    app = make_app(home)
    async with app.run_test(size=SIZE) as pilot:
        await started(pilot)
        await select_line(pilot, 2)  # "- timezone: UTC"
        await pilot.press("e")
        form = app.screen.query_one(ActionForm)
        assert form.args["expect"] == "- timezone: UTC"
        await pilot.press("ctrl+u", *"- timezone: IST", "enter")
        await wait_until(pilot, lambda: not form.is_open, "the edit to apply")
        assert (home / "MEMORY.md").read_text() == MEMORY.replace("UTC", "IST")


async def test_an_entry_changed_by_another_writer_is_refused_and_nothing_changes(home: Path) -> None:
    app = make_app(home)
    async with app.run_test(size=SIZE) as pilot:
        await started(pilot)
        await select_line(pilot, 3)
        await pilot.press("d")
        changed = MEMORY.replace("- likes tide tables", "- likes tide tables a lot")
        (home / "MEMORY.md").write_text(changed)  # an agent got there first; the watcher is off
        await pilot.press("enter")
        form = app.screen.query_one(ActionForm)
        await wait_until(pilot, lambda: form.status[0] == "error", "the refusal")
        assert form.status[1] == (
            'line 4 of MEMORY.md changed since you selected it: it was "- likes tide tables", '
            'it reads "- likes tide tables a lot" now; nothing was changed'
        )
        assert (home / "MEMORY.md").read_text() == changed


async def test_the_dry_run_refuses_what_the_tool_refuses_before_enter(tmp_path: Path) -> None:
    home = tmp_path / "home"
    home.mkdir()
    (home / "MEMORY.md").mkdir()
    app = make_app(home)
    async with app.run_test(size=SIZE) as pilot:
        await started(pilot)
        await pilot.press("a", *"keeps notes")
        form = app.screen.query_one(ActionForm)
        refusal = "MEMORY.md is not a regular file; nothing was written"
        await wait_until(pilot, lambda: form.status == ("flag", refusal), "the refusal while typing")
        await pilot.press("enter")
        await wait_until(pilot, lambda: form.status == ("error", refusal), "the tool's same words on enter")


async def test_an_entry_that_lands_past_the_cap_says_it_will_not_load(tmp_path: Path) -> None:
    from notebook_app.core.home.soul import MAX_FILE_BYTES

    home = tmp_path / "home"
    home.mkdir()
    line = "- " + "x" * 98 + "\n"
    (home / "MEMORY.md").write_text(line * (MAX_FILE_BYTES // len(line) + 10))
    app = make_app(home)
    async with app.run_test(size=SIZE) as pilot:
        await started(pilot)
        await pilot.press("a", *"lost past the cut")
        form = app.screen.query_one(ActionForm)
        await wait_until(pilot, lambda: "will not load" in form.status[1], "the cap warning", attempts=1500)
        assert form.status[0] == "flag"


async def test_ctrl_t_in_an_entry_edit_changes_nothing_its_file_is_fixed_and_the_hint_does_not_offer_it(
    home: Path,
) -> None:
    from notebook_pilot import USER
    from textual.widgets import Label

    app = make_app(home)
    async with app.run_test(size=SIZE) as pilot:
        await started(pilot)
        await select_line(pilot, 2)  # "- timezone: UTC"
        await pilot.press("e")
        form = app.screen.query_one(ActionForm)
        keys = str(form.query_one("#form-keys", Label).content)
        assert "target" not in keys and "esc close" in keys
        await pilot.press("ctrl+t")
        await pilot.pause()
        assert str(form.query_one("#form-target", Label).content) == "line 3 of MEMORY.md"
        assert app.screen.target == "self"
        await pilot.press("ctrl+u", *"- timezone: IST", "enter")
        await wait_until(pilot, lambda: not form.is_open, "the edit to apply")
        assert (home / "MEMORY.md").read_text() == MEMORY.replace("UTC", "IST")
        assert (home / "USER.md").read_text() == USER
        await pilot.press("a")
        await wait_until(pilot, lambda: form.is_open, "the add form")
        assert "ctrl+t target" in str(form.query_one("#form-keys", Label).content)  # the memory tool's actions keep it
