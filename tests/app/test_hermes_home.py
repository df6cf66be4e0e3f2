"""The notebook on a Hermes home: its files where Hermes keeps them, and a person's add written as a § entry."""

from __future__ import annotations

import shutil
from pathlib import Path

from notebook_pilot import SIZE, file_view, make_app, started, summary_of, wait_until
from textual.content import Content

from notebook_app.app.view_model.notebook import Notebook
from notebook_app.app.widgets.form.action_form import ActionForm
from notebook_app.app.widgets.home.file_list import FileList
from notebook_app.app.widgets.home.file_summary import FileSummary
from notebook_app.app.widgets.home.home_pane import HomePane
from notebook_app.core.home.layout import hermes_files
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


def styles_of(content: Content, text: str) -> set[str]:
    """The styles of the spans that cover ``text`` in ``content`` (its first occurrence)."""
    start = content.plain.index(text)
    return {str(span.style) for span in content.spans if span.start <= start and span.end >= start + len(text)}


async def test_a_hermes_store_says_its_characters_against_hermes_limit_and_soul_md_its_bytes(tmp_path: Path) -> None:
    home = hermes_home(tmp_path)
    app = make_app(home)
    app._notebook = Notebook(home, files=hermes_files())
    async with app.run_test(size=SIZE) as pilot:
        await started(pilot)
        # Hermes counts the entries joined by "\n§\n": 17 + 3 + 24 characters, whatever the file's bytes ("§" is two)
        assert summary_of(app, "MEMORY.md") == "44 of 2,200 chars · 2%"
        assert summary_of(app, "USER.md") == "13 of 1,375 chars · 0%"
        assert summary_of(app, "SOUL.md") == "33 bytes"  # not a store, and Hermes has no 2 MiB cap: its bytes only


async def test_the_meter_turns_warning_near_hermes_limit_and_error_past_it(tmp_path: Path) -> None:
    home = hermes_home(tmp_path)
    app = make_app(home)
    app._notebook = Notebook(home, files=hermes_files(memory_limit=40, user_limit=15))
    async with app.run_test(size=SIZE) as pilot:
        await started(pilot)
        panes = app.screen.query_one(HomePane)
        memory = panes.pane("MEMORY.md").query_one(FileSummary).content
        user = panes.pane("USER.md").query_one(FileSummary).content
        assert memory.plain == "44 of 40 chars · 100% · 4 over"  # Hermes's % stops at 100
        assert "$text-error" in styles_of(memory, "100%")
        assert user.plain == "13 of 15 chars · 86%"
        assert "$text-warning" in styles_of(user, "86%")
        assert panes.pane("SOUL.md").query_one(FileSummary).content.plain == "33 bytes"  # no cap of Hermes's to colour


async def test_a_memories_folder_made_after_start_is_watched_and_its_store_written_outside_reaches_the_pane(
    tmp_path: Path,
) -> None:
    home = tmp_path / "hermes"
    home.mkdir()
    (home / "SOUL.md").write_text("You are Hermes, terse and exact.\n")
    (home / "config.yaml").write_text("memory:\n  memory_char_limit: 2200\n")
    app = make_app(home, watch=True)
    app._notebook = Notebook(home, files=hermes_files())
    async with app.run_test(size=SIZE) as pilot:
        await started(pilot)
        assert "likes tide tables" not in file_view(app).document.lines
        (home / "SOUL.md").write_text("You are Hermes, terse.\n")  # seen: the watch is up before memories/ comes
        await wait_until(pilot, lambda: "You are Hermes, terse." in file_view(app, "SOUL.md").document.lines, "SOUL")
        memories = home / "memories"
        memories.mkdir()  # Hermes makes it at its first write, long after the notebook opened
        await pilot.pause(0.3)
        (memories / "MEMORY.md").write_text("likes tide tables")
        await wait_until(
            pilot, lambda: "likes tide tables" in file_view(app).document.lines, "the new store in its pane", 1000
        )
        (memories / ".mem_x1.tmp").write_text("half a write")  # Hermes's scratch files: never a change
        (memories / "MEMORY.md.lock").write_text("")
        (memories / "MEMORY.md").write_text("likes tide tables\n§\ndrafts go out on Fridays")  # and a second write
        await wait_until(
            pilot, lambda: "drafts go out on Fridays" in file_view(app).document.lines, "the next write", 1000
        )
        assert summary_of(app, "MEMORY.md") == "44 of 2,200 chars · 2%"
        shutil.rmtree(memories)  # gone, then made again: the watch follows the new folder
        await wait_until(pilot, lambda: "absent" in summary_of(app, "MEMORY.md"), "the store gone", 1000)
        memories.mkdir()
        await pilot.pause(0.3)
        (memories / "MEMORY.md").write_text("prefers metric units")
        await wait_until(
            pilot, lambda: "prefers metric units" in file_view(app).document.lines, "the remade store", 1000
        )


async def test_the_opening_notice_names_the_host_in_its_title_and_says_why_below(tmp_path: Path, monkeypatch) -> None:
    from notebook_app.app.launch import _open_by_host

    for name in ("HOME", "XDG_STATE_HOME", "XDG_CONFIG_HOME", "XDG_DATA_HOME"):
        monkeypatch.setenv(name, str(tmp_path / name.lower()))
    monkeypatch.delenv("HERMES_HOME", raising=False)
    home = hermes_home(tmp_path)
    (home / "config.yaml").write_text("memory:\n  memory_char_limit: 1500\n")
    where, notebook = _open_by_host(home)
    app = make_app(where)
    app._notebook = notebook
    async with app.run_test(size=(80, 24)) as pilot:
        await started(pilot)
        await wait_until(pilot, lambda: app._notifications, "the opening notice")
        (notice,) = app._notifications
        assert notice.title == "opened as Hermes"
        assert notice.message.split("\n")[0] == "the folder has memories/, config.yaml and SOUL.md"
        assert "1,500" in notice.message  # the limit config.yaml sets, read on the way


async def test_a_hermes_store_over_2_mib_is_measured_by_hermes_limit_never_by_the_contracts_cap(
    tmp_path: Path,
) -> None:
    """Hermes loads its stores whole: 2 MiB is the contract's cut, and saying it on a Hermes store is untrue."""
    home = hermes_home(tmp_path)
    store = "\n§\n".join(f"entry {i} " + "x" * 60 for i in range(29_000))
    (home / "memories" / "MEMORY.md").write_text(store)
    assert 2 * 1024 * 1024 < len(store) < 2 * 1024 * 1024 + 200_000  # over the cap, all of it read
    app = make_app(home)
    app._notebook = Notebook(home, files=hermes_files())
    async with app.run_test(size=SIZE) as pilot:
        await started(pilot)
        await pilot.press("2")
        summary = summary_of(app, "MEMORY.md")
        await wait_until(pilot, lambda: "chars" in summary_of(app, "MEMORY.md"), "the store's meter")
        summary = summary_of(app, "MEMORY.md")
        assert "2,200 chars" in summary and "MiB" not in summary and "truncated" not in summary
        shown = "\n".join(file_view(app).document.lines)
        assert "2 MiB cap" not in shown and f"entry {28_999} " in shown


async def test_e_on_a_hermes_store_opens_its_text_from_memories_and_the_save_writes_it_there(tmp_path: Path) -> None:
    from notebook_app.app.screens.editor.screen import EditorScreen

    home = hermes_home(tmp_path)
    app = make_app(home)
    app._notebook = Notebook(home, files=hermes_files())
    async with app.run_test(size=SIZE) as pilot:
        await started(pilot)
        await pilot.press("2", "E")  # MEMORY.md, kept in memories/
        await wait_until(pilot, lambda: isinstance(app.screen, EditorScreen), "the editor")
        editor = app.screen
        assert editor.text == "likes tide tables\n§\ndrafts go out\non Fridays"
        editor.text_area.move_cursor(editor.text_area.document.end)
        await pilot.press("space", "i", "n", "space", "M", "a", "y")
        await pilot.press("ctrl+s")
        await wait_until(pilot, lambda: not editor.unsaved and not editor.saving, "the save")
    assert (home / "memories" / "MEMORY.md").read_text() == "likes tide tables\n§\ndrafts go out\non Fridays in May"
    assert not (home / "MEMORY.md").exists()


async def test_o_on_a_hermes_store_edits_a_copy_of_its_text_and_writes_it_back_to_memories(tmp_path: Path) -> None:
    home = hermes_home(tmp_path)

    def run(copy: Path) -> int:
        assert copy.name == "MEMORY.md"
        copy.write_text(copy.read_text() + "\n§\nprefers metric units")
        return 0

    app = make_app(home, run_editor=run)
    app._notebook = Notebook(home, files=hermes_files())
    async with app.run_test(size=SIZE) as pilot:
        await started(pilot)
        await pilot.press("2", "o")
        await wait_until(pilot, lambda: app._notifications, "the result")
    assert (home / "memories" / "MEMORY.md").read_text().endswith("on Fridays\n§\nprefers metric units")
    assert not (home / "MEMORY.md").exists()


async def test_the_forms_dry_run_shows_the_new_entry_in_next_as_hermes_loads_it(tmp_path: Path) -> None:
    """Next as Hermes loads the home: the pending add is in its MEMORY block before enter, nothing written yet."""
    from notebook_app.app.widgets.session.session_pane import SessionPane

    home = hermes_home(tmp_path)
    app = make_app(home)
    app._notebook = Notebook(home, files=hermes_files())
    async with app.run_test(size=SIZE) as pilot:
        await started(pilot)
        await app.screen.run_action("use_host('hermes')")
        upcoming = app.screen.query_one("#next", SessionPane)
        await wait_until(pilot, lambda: str(upcoming.border_title) == "Next · Hermes", "Next as Hermes")
        assert not any("prefers metric units" in line for line in upcoming.document.lines)
        await pilot.press("a", *"prefers metric units")
        await wait_until(
            pilot, lambda: any("prefers metric units" in line for line in upcoming.document.lines), "the dry run"
        )
        assert (home / "memories" / "MEMORY.md").read_text() == "likes tide tables\n§\ndrafts go out\non Fridays"


async def test_b_shows_who_last_wrote_each_line_of_the_stores_hermes_keeps_in_memories(tmp_path: Path) -> None:
    """The log records ``memories/MEMORY.md``; the panes say ``MEMORY.md``: the gutter blames the store itself."""
    from notebook_app.core.record.log.actor import CLI
    from notebook_app.core.memory.tool import MemoryTool

    home = hermes_home(tmp_path)
    tool = MemoryTool(home, by=CLI, files=hermes_files())
    assert not tool.call({"action": "add", "text": "prefers metric units"}).is_error
    assert not tool.call({"action": "add", "text": "works from Chennai", "target": "user"}).is_error
    app = make_app(home)
    app._notebook = Notebook(home, files=hermes_files())
    async with app.run_test(size=SIZE) as pilot:
        await started(pilot)
        memory, user = file_view(app, "MEMORY.md"), file_view(app, "USER.md")
        await pilot.press("b")
        last = len(memory.document.lines) - 1
        await wait_until(pilot, lambda: memory._notes.get(last) == "cli 12:00:00", "the blame of the new entry")
        assert memory.document.lines[last] == "prefers metric units"
        assert memory._notes[0] == "before history"
        await wait_until(pilot, lambda: user._notes.get(len(user.document.lines) - 1) == "cli 12:00:00", "USER.md's")


async def test_the_history_views_file_filter_names_a_hermes_store_as_the_list_does_and_restores_it(
    tmp_path: Path,
) -> None:
    """``f`` on MEMORY.md shows the records of ``memories/MEMORY.md`` (it showed none, and the store's path came
    round again as a file of its own); ``R`` then ``y`` restores the store under Hermes's lock."""
    from notebook_app.app.screens.history import HistoryScreen
    from notebook_app.core.record.log.actor import CLI
    from notebook_app.core.memory.tool import MemoryTool

    home = hermes_home(tmp_path)
    tool = MemoryTool(home, by=CLI, files=hermes_files())
    assert not tool.call({"action": "add", "text": "prefers metric units"}).is_error
    assert not tool.call({"action": "add", "text": "works from Chennai", "target": "user"}).is_error
    app = make_app(home)
    app._notebook = Notebook(home, files=hermes_files())
    async with app.run_test(size=SIZE) as pilot:
        await started(pilot)
        await pilot.press("h")
        await wait_until(pilot, lambda: isinstance(app.screen, HistoryScreen) and app.screen.records, "the records")
        screen = app.screen
        assert screen.others == ()
        while screen.file != "MEMORY.md":
            await pilot.press("f")
        await wait_until(
            pilot, lambda: screen.records and screen.records[0].file == "memories/MEMORY.md", "its records"
        )
        assert [e.file for e in screen.records] == ["memories/MEMORY.md"]
        (home / "memories" / "MEMORY.md").write_text("changed by hand")
        await pilot.press("R")
        await wait_until(pilot, lambda: screen.pending is not None, "the restore's dry run")
        await pilot.press("y")
        store = home / "memories" / "MEMORY.md"
        await wait_until(pilot, lambda: store.read_text().endswith("prefers metric units"), "the restore to land")
        assert store.read_text() == "likes tide tables\n§\ndrafts go out\non Fridays\n§\nprefers metric units"


def three_entry_home(tmp_path: Path) -> Path:
    home = hermes_home(tmp_path)
    (home / "memories" / "MEMORY.md").write_text("likes tide tables\n§\ndrafts go out\non Fridays\n§\nuses tabs")
    return home


async def test_r_and_x_on_the_one_matching_entry_name_its_own_line_in_the_store(tmp_path: Path) -> None:
    """Lines in a '§' store are the store's own: the selected entry that matches is where the write acts."""
    home = three_entry_home(tmp_path)
    app = make_app(home)
    app._notebook = Notebook(home, files=hermes_files())
    async with app.run_test(size=SIZE) as pilot:
        await started(pilot)
        form = app.screen.query_one(ActionForm)
        file_view(app).cursor = 5  # "uses tabs", entry 3, on line 6
        await pilot.press("x")
        await wait_until(pilot, lambda: "dry run" in form.status[1] or "line" in form.status[1], "the dry run")
        assert form.status == (
            "hint",
            "dry run: removes the whole entry that holds “uses tabs”, line 6 of MEMORY.md: uses tabs; "
            "loads next session (Entry removed. 2% — 44/2,200 chars)",
        )
        await pilot.press("escape")
        await wait_until(pilot, lambda: not form.is_open, "the form to close")
        file_view(app).cursor = 3  # "on Fridays", the second line of entry 2
        await pilot.press("r")
        await wait_until(pilot, lambda: "dry run" in form.status[1] or "line" in form.status[1], "the dry run")
        assert form.status[0] == "hint" and "not the selected line" not in form.status[1], form.status
        assert form.status[1].startswith(
            "dry run: replaces the whole entry that holds “drafts go out ⏎ on Fridays”, line 3 of MEMORY.md"
        ), form.status
        assert (
            home / "memories" / "MEMORY.md"
        ).read_text() == "likes tide tables\n§\ndrafts go out\non Fridays\n§\nuses tabs"


async def test_x_with_part_of_an_entry_shows_the_whole_entry_that_goes(tmp_path: Path) -> None:
    home = three_entry_home(tmp_path)
    app = make_app(home)
    app._notebook = Notebook(home, files=hermes_files())
    async with app.run_test(size=SIZE) as pilot:
        await started(pilot)
        form = app.screen.query_one(ActionForm)
        await pilot.press("x", *"Fridays")
        await wait_until(pilot, lambda: "Fridays" in form.status[1], "the dry run")
        assert form.status == (
            "flag",
            "dry run: removes the whole entry that holds “Fridays”, line 3 of MEMORY.md: drafts go out ⏎ on Fridays; "
            "loads next session (Entry removed. 1% — 29/2,200 chars)",
        )


async def test_the_with_field_on_a_hermes_store_never_offers_empty_as_a_deletion(tmp_path: Path) -> None:
    home = three_entry_home(tmp_path)
    app = make_app(home)
    app._notebook = Notebook(home, files=hermes_files())
    async with app.run_test(size=SIZE) as pilot:
        await started(pilot)
        form = app.screen.query_one(ActionForm)
        await pilot.press("r")
        placeholder = form.query_one("#form-with").placeholder
        assert "empty deletes" not in placeholder and "cannot be empty" in placeholder, placeholder
        await pilot.press(*"tabs", "tab")
        await pilot.press("ctrl+a", "ctrl+k", "enter")  # with emptied: refused as Hermes refuses it, never confirmed
        await wait_until(pilot, lambda: "empty" in form.status[1], "the refusal")
        assert "enter again to delete" not in form.status[1], form.status
        assert (home / "memories" / "MEMORY.md").read_text().endswith("uses tabs")


async def test_a_multi_line_entry_in_the_form_shows_its_line_breaks_as_marks_and_sends_them_whole(
    tmp_path: Path,
) -> None:
    """r on an entry of two lines filled both fields with a raw line break, which a one-line field drew as is: the
    terminal moved down mid-row and the form came out garbled. The break is drawn ⏎, said ⏎, and the tool gets it."""
    home = three_entry_home(tmp_path)
    app = make_app(home)
    app._notebook = Notebook(home, files=hermes_files())
    async with app.run_test(size=SIZE) as pilot:
        await started(pilot)
        form = app.screen.query_one(ActionForm)
        file_view(app).cursor = 3  # "on Fridays", the second line of entry 2
        await pilot.press("r")
        await wait_until(pilot, lambda: "dry run" in form.status[1], "the dry run")
        assert "\n" not in form.status[1], form.status
        for field in ("#form-text", "#form-with"):
            drawn = "".join(segment.text for segment in form.query_one(field).render_line(0))
            assert "\n" not in drawn and drawn.startswith("drafts go out⏎on Fridays"), (field, drawn)
        await pilot.press("end", *" at noon", "enter")
        await wait_until(pilot, lambda: not form.is_open, "the form to close")
    assert (home / "memories" / "MEMORY.md").read_text() == (
        "likes tide tables\n§\ndrafts go out\non Fridays at noon\n§\nuses tabs"
    )
