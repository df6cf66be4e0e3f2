"""Memory actions from the keyboard: every write goes through the core's memory tool.

Each test drives the real app on a real home in a temp dir and checks both
the bytes on disk and what the Current and Next session panes show.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from notebook_pilot import MEMORY, SIZE, USER, file_view, make_app, started, wait_until
from textual.widgets import Input

from notebook_app.app.widgets.form.action_form import ActionForm
from notebook_app.app.widgets.session.session_pane import SessionPane


def next_doc(app):
    return app.screen.query_one("#next", SessionPane).document


def current_doc(app):
    return app.screen.query_one("#current", SessionPane).document


def marked(document, mark: str) -> list[str]:
    return [document.lines[i] for i, m in sorted(document.marks.items()) if m == mark]


def form_input(app, name: str) -> Input:
    return app.screen.query_one(f"#form-{name}", Input)


async def test_add_writes_memory_and_shows_under_next_not_current(home: Path) -> None:
    app = make_app(home)
    async with app.run_test(size=SIZE) as pilot:
        await started(pilot)
        await pilot.press("a")
        assert app.screen.query_one(ActionForm).is_open
        assert app.focused is form_input(app, "text")
        await pilot.press(*"prefers short answers", "enter")
        await wait_until(pilot, lambda: not app.screen.query_one(ActionForm).is_open, "the form to close")
        assert (home / "MEMORY.md").read_text() == MEMORY + "- prefers short answers\n"
        await wait_until(
            pilot, lambda: "- prefers short answers" in marked(next_doc(app), "added"), "Next to show the entry"
        )
        assert "- prefers short answers" not in current_doc(app).lines
        said = ["ok (add → MEMORY.md); loads next session"]
        await wait_until(
            pilot, lambda: [n.message for n in app._notifications] == said, "the add said in a notification"
        )  # after the result's frames


async def test_replace_swaps_the_first_occurrence(home: Path) -> None:
    app = make_app(home)
    async with app.run_test(size=SIZE) as pilot:
        await started(pilot)
        await pilot.press("r", *"UTC", "tab", *"IST", "enter")
        await wait_until(pilot, lambda: "IST" in (home / "MEMORY.md").read_text(), "the replace to land")
        assert (home / "MEMORY.md").read_text() == MEMORY.replace("UTC", "IST")
        await wait_until(pilot, lambda: "- timezone: IST" in marked(next_doc(app), "added"), "Next to show IST")
        assert "- timezone: UTC" in marked(current_doc(app), "removed")


async def test_remove_deletes_the_text(home: Path) -> None:
    app = make_app(home)
    async with app.run_test(size=SIZE) as pilot:
        await started(pilot)
        await pilot.press("x", *"- likes tide tables", "enter")
        await wait_until(pilot, lambda: "tide" not in (home / "MEMORY.md").read_text(), "the remove to land")
        assert (home / "MEMORY.md").read_text() == MEMORY.replace("- likes tide tables", "")
        await wait_until(
            pilot, lambda: "- likes tide tables" in marked(current_doc(app), "removed"), "the removal to show"
        )


async def test_a_miss_is_shown_inline_with_the_form_kept(home: Path) -> None:
    app = make_app(home)
    async with app.run_test(size=SIZE) as pilot:
        await started(pilot)
        await pilot.press("x", *"nonexistent phrase", "enter")
        form = app.screen.query_one(ActionForm)
        await wait_until(pilot, lambda: form.status[0] == "error", "the tool's error")
        assert form.status == ("error", "not found: nonexistent phrase")
        assert form.is_open
        assert form_input(app, "text").value == "nonexistent phrase"
        assert (home / "MEMORY.md").read_text() == MEMORY
        await pilot.press("backspace", *"e!")
        await wait_until(pilot, lambda: form.status[0] == "flag", "the dry run to take over")
        assert form.status == ("flag", "not found: nonexistent phrase!")


async def test_a_miss_is_flagged_while_typing_before_any_write(home: Path) -> None:
    app = make_app(home)
    async with app.run_test(size=SIZE) as pilot:
        await started(pilot)
        await pilot.press("r", *"Saturdays")
        form = app.screen.query_one(ActionForm)
        await wait_until(pilot, lambda: form.status == ("flag", "not found: Saturdays"), "the miss flag")
        await pilot.press(*["backspace"] * len("Saturdays"))
        await pilot.press(*"Fridays")
        expected = ("flag", "dry run: deletes “Fridays” (with is empty), line 5 of MEMORY.md; enter asks to confirm")
        await wait_until(
            pilot, lambda: form.status == expected, "the match to be found, as a deletion while with is empty"
        )
        await pilot.press("enter", *"Thursdays")  # enter in text moves to with
        await wait_until(
            pilot,
            lambda: form.status[0] == "hint" and "replaces the first match, on line 5" in form.status[1],
            "the replace's dry run",
        )
        assert (home / "MEMORY.md").read_text() == MEMORY


async def test_the_pending_action_shows_in_next_before_it_is_applied(home: Path) -> None:
    app = make_app(home)
    async with app.run_test(size=SIZE) as pilot:
        await started(pilot)
        await pilot.press("a", *"keeps a field notebook")
        await wait_until(
            pilot, lambda: "- keeps a field notebook" in marked(next_doc(app), "added"), "the dry run in Next"
        )
        assert (home / "MEMORY.md").read_text() == MEMORY
        assert app.screen.query_one("#next .badge").has_class("-dry-run")
        await pilot.press("escape")
        assert app.screen.query_one(ActionForm).status == (
            "flag",
            "esc again discards what you typed; enter applies it",
        )
        assert app.screen.query_one(ActionForm).is_open
        await pilot.press("escape")
        await wait_until(
            pilot, lambda: "- keeps a field notebook" not in next_doc(app).lines, "Next to drop the dry run"
        )
        assert not app.screen.query_one(ActionForm).is_open


async def test_target_toggle_writes_user_md(home: Path) -> None:
    app = make_app(home)
    async with app.run_test(size=SIZE) as pilot:
        await started(pilot)
        await pilot.press("t")
        assert app.screen.target == "user"
        await pilot.press("a")
        form = app.screen.query_one(ActionForm)
        assert str(app.screen.query_one("#form-target").content) == "target user → USER.md"
        await pilot.press(*"works from Monterey", "enter")
        await wait_until(pilot, lambda: not form.is_open, "the write")
        assert (home / "USER.md").read_text() == USER + "- works from Monterey\n"
        assert (home / "MEMORY.md").read_text() == MEMORY


@pytest.mark.parametrize("view", ["app.doctor", "app.history", "app.review", "app.agent_sessions"])
async def test_no_view_opens_over_the_open_form_not_even_from_the_palette(home: Path, view: str) -> None:
    """The app opens the notebook's views; while the form is open it holds
    them back, as the screen does its own keys.
    """
    app = make_app(home)
    async with app.run_test(size=SIZE) as pilot:
        await started(pilot)
        await pilot.press("a")
        main = app.screen
        assert main.form.is_open
        assert await app.run_action(view, main) is False
        await pilot.pause()
        assert app.screen is main and main.form.is_open


async def test_letter_keys_type_into_the_form_and_ctrl_t_toggles_there(home: Path) -> None:
    app = make_app(home)
    async with app.run_test(size=SIZE) as pilot:
        await started(pilot)
        await pilot.press("a", *"ant rat xt n q", "question_mark")
        assert form_input(app, "text").value == "ant rat xt n q?"
        assert app.screen.target == "self"
        assert app.screen.state.current.number == 1
        assert app.is_running
        await pilot.press("ctrl+t")
        assert app.screen.target == "user"
        assert form_input(app, "text").value == "ant rat xt n q?"
        await pilot.press("f8")  # what a browser tab gets to send: it keeps ctrl+t for itself
        assert app.screen.target == "self"
        assert form_input(app, "text").value == "ant rat xt n q?"


async def test_selecting_an_entry_prefills_replace_and_remove(home: Path) -> None:
    app = make_app(home)
    async with app.run_test(size=SIZE) as pilot:
        await started(pilot)
        view = file_view(app)
        assert app.focused is view
        await pilot.press("down", "down", "down")
        assert view.selected_entry == "likes tide tables"
        await pilot.press("r")
        assert form_input(app, "text").value == "likes tide tables"
        assert form_input(app, "with").value == "likes tide tables"
        await pilot.press("escape", "x")
        assert form_input(app, "text").value == "likes tide tables"
        form = app.screen.query_one(ActionForm)
        assert form.action == "remove"
        # the tool removes text, not lines: the dry run says the bullet stays, and how to delete the entry
        await wait_until(pilot, lambda: "empty “- ”" in form.status[1], "the dry run's word on the bullet left")
        assert form.status == (
            "flag",
            "dry run: removes the text of line 4 of MEMORY.md and leaves an empty “- ” there; "
            "esc, then d deletes the whole entry",
        )
        await pilot.press("enter")
        await wait_until(pilot, lambda: "tide" not in (home / "MEMORY.md").read_text(), "the remove")
        assert (home / "MEMORY.md").read_text() == MEMORY.replace("likes tide tables", "")


async def test_selecting_a_user_entry_targets_user_md(home: Path) -> None:
    app = make_app(home)
    async with app.run_test(size=SIZE) as pilot:
        await started(pilot)
        await pilot.press("t", "down", "down")  # t: the USER.md pane, and the target with it
        assert app.screen.target == "user"
        assert file_view(app, "USER.md").selected_entry == "prefers metric units"
        await pilot.press("r")
        assert app.screen.target == "user"
        await pilot.press("ctrl+u", *"prefers SI units", "enter")
        await wait_until(pilot, lambda: "SI" in (home / "USER.md").read_text(), "the replace in USER.md")
        assert (home / "USER.md").read_text() == "- name is Priya\n- prefers SI units\n"


async def test_n_starts_the_next_session(home: Path) -> None:
    app = make_app(home)
    async with app.run_test(size=SIZE) as pilot:
        await started(pilot)
        await pilot.press("a", *"likes kelp", "enter")
        await wait_until(pilot, lambda: "- likes kelp" in next_doc(app).lines, "the entry in Next")
        assert "- likes kelp" not in current_doc(app).lines
        assert str(app.screen.query_one("#next .badge").content) == "+1 line"
        await pilot.press("n")
        await wait_until(pilot, lambda: app.screen.state.current.number == 2, "session 2")
        assert "- likes kelp" in current_doc(app).lines
        assert set(current_doc(app).marks.values()) == {"heading"}
        assert str(app.screen.query_one("#next .badge").content) == "in sync"
        assert "#2 · began 12:00:00" == str(app.screen.query_one("#current .session-meta").content)


async def test_a_line_break_in_the_forms_text_is_refused_with_the_cores_message(home: Path) -> None:
    app = make_app(home)
    message = "the text holds a line break, and each entry of MEMORY.md is one '- ' line; nothing was written"
    async with app.run_test(size=SIZE) as pilot:
        await started(pilot)
        await pilot.press("a")
        form = app.screen.query_one(ActionForm)
        form_input(app, "text").insert_text_at_cursor(
            "a\nb"
        )  # what no key types: the value a paste or a script could leave
        await wait_until(pilot, lambda: form.status == ("flag", message), "the dry run to refuse it")
        await pilot.press("enter")
        await wait_until(pilot, lambda: form.status == ("error", message), "the write to refuse it")
        assert form.is_open
        assert (home / "MEMORY.md").read_text() == MEMORY
        assert not (home / ".notebook").exists()
