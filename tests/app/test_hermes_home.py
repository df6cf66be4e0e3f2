"""The notebook on a Hermes home: its files where Hermes keeps them, and a person's add written as a § entry."""

from __future__ import annotations

from pathlib import Path

from notebook_pilot import SIZE, file_view, make_app, started, wait_until

from notebook_app.app.view_model.notebook import Notebook
from notebook_app.app.widgets.form.action_form import ActionForm
from notebook_app.app.widgets.home.file_list import FileList
from notebook_app.core.home import hermes_files
from notebook_app.core.memory import sections


def hermes_home(tmp_path: Path) -> Path:
    home = tmp_path / "hermes"
    (home / "memories").mkdir(parents=True)
    (home / "SOUL.md").write_text("You are Hermes, terse and exact.\n")
    (home / "memories" / "MEMORY.md").write_text("likes tide tables\n§\ndrafts go out\non Fridays")
    (home / "memories" / "USER.md").write_text("name is Priya")
    return home


async def test_a_hermes_home_lists_its_files_in_hermes_order_and_an_add_is_a_new_section(tmp_path: Path) -> None:
    home = hermes_home(tmp_path)
    app = make_app(home)
    app._notebook = Notebook(home, files=hermes_files())
    async with app.run_test(size=SIZE) as pilot:
        await started(pilot)
        assert app.screen.query_one(FileList).names == ("SOUL.md", "MEMORY.md", "USER.md")
        assert "drafts go out" in "\n".join(file_view(app).document.lines)
        await pilot.press("a", *"prefers metric units", "enter")
        await wait_until(pilot, lambda: not app.screen.query_one(ActionForm).is_open, "the form to close")
        store = (home / "memories" / "MEMORY.md").read_text()
        assert store == "likes tide tables\n§\ndrafts go out\non Fridays\n§\nprefers metric units"
        assert sections.entries(store)[-1] == "prefers metric units"
        assert not (home / "MEMORY.md").exists()


async def test_a_cursor_on_any_line_of_a_section_selects_that_whole_entry(tmp_path: Path) -> None:
    home = hermes_home(tmp_path)
    app = make_app(home)
    app._notebook = Notebook(home, files=hermes_files())
    async with app.run_test(size=SIZE) as pilot:
        await started(pilot)
        view = file_view(app)
        view.cursor = 3  # "on Fridays", the second line of entry 2
        assert view.selected_line == (2, "drafts go out\non Fridays")
        assert not view._selectable(1)  # the § line between them is never an entry
