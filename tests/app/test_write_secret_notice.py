"""A write from the app whose text holds a secret says so, even though it was allowed (issue 34): one
notification naming the kind and the secret's first characters only, in the words the CLI prints on stderr."""

from __future__ import annotations

from pathlib import Path

from notebook_pilot import MEMORY, SIZE, make_app, started, wait_until
from test_hand_editing import open_editor, save, type_at_end
from test_notebook_entry_edits import select_line

from notebook_app.app.widgets.form.action_form import ActionForm

TOKEN = "ghp_" + "aB3dE5fG7hI9jK1lM3nO5pQ7rS9tU1vW3xY5"
"""A GitHub personal access token's shape (ghp_ and 36 characters): fake."""


def secret_notices(app) -> list[str]:
    return [str(n.message) for n in app._notifications if "holds a GitHub" in str(n.message)]


def said_once(app) -> bool:
    notices = secret_notices(app)
    return len(notices) == 1 and TOKEN not in notices[0] and TOKEN[:6] in notices[0]


async def test_an_add_holding_a_token_says_so_in_one_notification(home: Path) -> None:
    app = make_app(home)
    async with app.run_test(size=SIZE) as pilot:
        await started(pilot)
        await pilot.press("a", *f"ci token {TOKEN}", "enter")
        await wait_until(pilot, lambda: TOKEN in (home / "MEMORY.md").read_text(), "the add to land")
        await wait_until(pilot, lambda: said_once(app), "the secret said once, by its first characters")


async def test_an_add_of_plain_words_says_nothing_of_secrets(home: Path) -> None:
    app = make_app(home)
    async with app.run_test(size=SIZE) as pilot:
        await started(pilot)
        await pilot.press("a", *"likes herons", "enter")
        await wait_until(pilot, lambda: app._notifications, "the add said")
        assert [str(n.message) for n in app._notifications] == ["ok (add → MEMORY.md); loads next session"]


async def test_an_entry_edit_holding_a_token_says_so(home: Path) -> None:
    app = make_app(home)
    async with app.run_test(size=SIZE) as pilot:
        await started(pilot)
        await select_line(pilot, 2)  # "- timezone: UTC"
        await pilot.press("e")
        form = app.screen.query_one(ActionForm)
        await pilot.press("ctrl+u", *f"- ci token {TOKEN}", "enter")
        await wait_until(pilot, lambda: not form.is_open, "the edit to apply")
        assert TOKEN in (home / "MEMORY.md").read_text()
        await wait_until(pilot, lambda: said_once(app), "the secret said once")


async def test_a_whole_file_save_that_adds_a_token_says_so(home: Path) -> None:
    app = make_app(home)
    async with app.run_test(size=SIZE) as pilot:
        editor = await open_editor(pilot)
        await type_at_end(pilot, editor, f"- ci token {TOKEN}\n")
        await save(pilot)
        assert (home / "MEMORY.md").read_text() == MEMORY + f"- ci token {TOKEN}\n"
        await wait_until(pilot, lambda: said_once(app), "the secret said once")
