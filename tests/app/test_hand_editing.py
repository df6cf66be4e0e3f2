"""Editing a whole file in the notebook: E's built-in editor, its conflict view, and o's outside editor.

Real homes in temp dirs, the real app through Pilot; the agent's writes go
through the core's tool as an MCP agent would make them.
"""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

from notebook_pilot import MEMORY, SIZE, make_app, started, wait_until
from textual.widgets import Static

from notebook_app.app.screens.conflict import ConflictScreen
from notebook_app.app.screens.editor.screen import EditorScreen
from notebook_app.app.screens.main.screen import MainScreen
from notebook_app.core.history.query import history
from notebook_app.core.home.soul import MAX_FILE_BYTES
from notebook_app.core.record.log.actor import NOTEBOOK, Actor
from notebook_app.core.memory.tool import memory_tool

AGENT = Actor.mcp("s-1", "agent", "1")


def agent(home: Path, action: str, text: str, replacement: str | None = None) -> None:
    args = {"action": action, "target": "self", "text": text} | ({} if replacement is None else {"with": replacement})
    result = memory_tool(home, by=AGENT).call(args)
    assert not result.is_error, result.output


async def open_editor(pilot, key: str | None = None) -> EditorScreen:
    """Start the app, pick a file with ``key`` (1–7) if given, press E and wait for the editor."""
    await started(pilot)
    if key is not None:
        await pilot.press(key)
    await pilot.press("E")
    await wait_until(pilot, lambda: isinstance(pilot.app.screen, EditorScreen), "the editor")
    editor = pilot.app.screen
    editor.text_area.cursor_blink = False
    return editor


async def type_at_end(pilot, editor: EditorScreen, text: str) -> None:
    area = editor.text_area
    area.move_cursor(area.document.end)
    await pilot.press(*[{" ": "space", "\n": "enter", "-": "minus", ":": "colon"}.get(ch, ch) for ch in text])


async def save(pilot) -> None:
    await pilot.press("ctrl+s")
    await wait_until(pilot, lambda: not getattr(pilot.app.screen, "saving", False), "the save")
    await pilot.pause()


async def conflict_view(pilot) -> ConflictScreen:
    """Wait for the conflict view and both its sides drawn (in a worker)."""
    await wait_until(
        pilot,
        lambda: isinstance(pilot.app.screen, ConflictScreen) and pilot.app.screen.sides is not None,
        "the conflict view",
    )
    return pilot.app.screen


def banner(editor: EditorScreen) -> str:
    shown = editor.query_one("#editor-banner", Static)
    return str(shown.content) if shown.has_class("-shown") else ""


async def test_E_opens_the_selected_file_typing_and_ctrl_s_write_it_as_the_notebooks_hand_edit(home: Path) -> None:
    app = make_app(home)
    async with app.run_test(size=SIZE) as pilot:
        editor = await open_editor(pilot)
        assert (editor.file_name, editor.text, editor.text_area.language) == ("MEMORY.md", MEMORY, "markdown")
        await type_at_end(pilot, editor, "- plankton bloom in May\n")
        assert editor.unsaved and "unsaved" in str(editor.text_area.border_subtitle)
        await save(pilot)
        assert (home / "MEMORY.md").read_text() == MEMORY + "- plankton bloom in May\n"
        assert not editor.unsaved and editor.base == MEMORY + "- plankton bloom in May\n"
        (newest,) = history(home, limit=1)
        assert (newest.action, newest.by, newest.file) == ("hand-edit", NOTEBOOK, "MEMORY.md")
        await pilot.press("escape")
        await wait_until(pilot, lambda: isinstance(app.screen, MainScreen), "back to the notebook")
        assert "- plankton bloom in May" in app.screen.state.files["MEMORY.md"].text


async def test_any_of_the_seven_opens_even_absent_and_saving_creates_it(home: Path) -> None:
    app = make_app(home)
    async with app.run_test(size=SIZE) as pilot:
        editor = await open_editor(pilot, "5")  # TOOLS.md, absent
        assert (editor.file_name, editor.text) == ("TOOLS.md", "")
        await type_at_end(pilot, editor, "use the tide API\n")
        await save(pilot)
        assert (home / "TOOLS.md").read_text() == "use the tide API\n"


async def test_an_agent_add_meanwhile_is_merged_with_the_edit_and_both_are_kept(home: Path) -> None:
    app = make_app(home)
    async with app.run_test(size=SIZE) as pilot:
        editor = await open_editor(pilot)
        agent(home, "add", "kelp survey on Tuesday")
        await type_at_end(pilot, editor, "- plankton bloom in May\n")
        await save(pilot)
        written = (home / "MEMORY.md").read_text()
        assert (
            written == MEMORY + "- kelp survey on Tuesday\n- plankton bloom in May\n"
        )  # the agent's, then the person's
        assert editor.text == written and editor.base == written
        assert "merged with 1 line written since" in banner(editor)
        assert (history(home, limit=1)[0].action, history(home, limit=2)[1].by) == ("merge", AGENT)


async def test_an_edit_of_a_line_the_agent_replaced_opens_the_conflict_view_and_nothing_is_lost(home: Path) -> None:
    app = make_app(home)
    async with app.run_test(size=SIZE) as pilot:
        editor = await open_editor(pilot)
        area = editor.text_area
        row = MEMORY.split("\n").index("- timezone: UTC")
        area.replace("- timezone: IST", (row, 0), (row, len("- timezone: UTC")))
        agent(home, "replace", "timezone: UTC", "timezone: CET")
        on_disk = (home / "MEMORY.md").read_text()
        await save(pilot)
        await conflict_view(pilot)
        conflicts = app.screen
        assert (home / "MEMORY.md").read_text() == on_disk  # nothing written
        assert conflicts.choices == [None]
        mine_view, theirs_view = conflicts.query_one("#conflict-mine"), conflicts.query_one("#conflict-theirs")
        assert mine_view.document.lines[row] == "- timezone: IST" and mine_view.document.marks[row] == "conflict"
        assert theirs_view.document.lines[row] == "- timezone: CET" and theirs_view.document.marks[row] == "conflict"
        await pilot.press("ctrl+s")  # not resolved yet: refused, nothing written
        assert isinstance(app.screen, ConflictScreen) and (home / "MEMORY.md").read_text() == on_disk
        await pilot.press("3")
        assert conflicts.choices == ["both"] and mine_view.document.marks[row] == "added"
        await pilot.press("ctrl+s")
        await wait_until(pilot, lambda: isinstance(app.screen, EditorScreen), "back in the editor")
        expected = on_disk.replace("- timezone: CET\n", "- timezone: CET\n- timezone: IST\n")
        assert (home / "MEMORY.md").read_text() == expected
        assert editor.text == expected and editor.base == expected and not editor.unsaved
        assert "Saved your resolution" in banner(editor)


async def test_each_conflict_takes_mine_theirs_or_both_and_the_arrows_go_back_to_change_one(home: Path) -> None:
    base = "a\nb\nc\nd\ne\nf\n"
    (home / "SOUL.md").write_text(base)
    app = make_app(home)
    async with app.run_test(size=SIZE) as pilot:
        editor = await open_editor(pilot, "2")
        assert editor.file_name == "SOUL.md"
        editor.text_area.load_text("a\nB-mine\nc\nd\nE-mine\nf\n")
        (home / "SOUL.md").write_text("a\nB-theirs\nc\nd\nE-theirs\nf\n")  # another program, not the tool
        await save(pilot)
        await conflict_view(pilot)
        conflicts = app.screen
        assert len(conflicts.choices) == 2
        await pilot.press("3", "2")  # both at the first, theirs at the second
        assert conflicts.choices == ["both", "theirs"]
        await pilot.press("up", "1")  # back to the first: mine instead
        assert conflicts.choices == ["mine", "theirs"]
        await pilot.press("ctrl+s")
        await wait_until(pilot, lambda: isinstance(app.screen, EditorScreen), "back in the editor")
        assert (home / "SOUL.md").read_text() == "a\nB-mine\nc\nd\nE-theirs\nf\n"


async def test_a_key_in_the_conflict_view_re_marks_both_sides_without_drawing_them_again(home: Path) -> None:
    (home / "SOUL.md").write_text("# Wren\na\nb\nc\nd\ne\nf\n")
    app = make_app(home)
    async with app.run_test(size=SIZE) as pilot:
        editor = await open_editor(pilot, "2")
        editor.text_area.load_text("# Wren\na\nB-mine\nc\nd\nE-mine\nf\n")
        (home / "SOUL.md").write_text("# Wren\na\nB-theirs\nc\nd\nE-theirs\nf\n")
        await save(pilot)
        conflicts = await conflict_view(pilot)
        mine_view, theirs_view = conflicts.query_one("#conflict-mine"), conflicts.query_one("#conflict-theirs")
        drawn = mine_view.document.lines, theirs_view.document.lines
        await pilot.press("2")  # theirs at the first: the banner moves to the second
        assert (mine_view.document.lines, theirs_view.document.lines) == drawn
        assert (
            mine_view.document.lines is drawn[0] and theirs_view.document.lines is drawn[1]
        )  # shared, not split again
        assert [mine_view.document.marks.get(row) for row in range(7)] == [
            "heading",
            None,
            "removed",
            None,
            None,
            "conflict",
            None,
        ]
        assert [theirs_view.document.marks.get(row) for row in range(7)] == [
            "heading",
            None,
            "added",
            None,
            None,
            "conflict",
            None,
        ]
        assert mine_view.document.banners == {5: "▲ conflict 2 of 2: 1 / 2 / 3"}
        await pilot.press("3", "up")
        assert mine_view.document.lines is drawn[0] and mine_view.document.banners == {
            2: "▲ conflict 1 of 2: keeping theirs"
        }
        assert (mine_view.document.marks[5], theirs_view.document.marks[5]) == ("added", "added")


async def test_a_file_changed_again_while_resolving_shows_the_new_conflicts_drawn_afresh(home: Path) -> None:
    (home / "SOUL.md").write_text("a\nb\nc\n")
    app = make_app(home)
    async with app.run_test(size=SIZE) as pilot:
        editor = await open_editor(pilot, "2")
        editor.text_area.load_text("a\nB-mine\nc\n")
        (home / "SOUL.md").write_text("a\nB-theirs\nc\n")
        await save(pilot)
        conflicts = await conflict_view(pilot)
        first = conflicts.sides
        (home / "SOUL.md").write_text("a\nB-third\nc\n")  # changed once more before the resolution is saved
        await pilot.press("1", "ctrl+s")
        await wait_until(
            pilot, lambda: conflicts.sides is not None and conflicts.sides is not first, "the new conflicts drawn"
        )
        summary = str(conflicts.query_one("#conflict-summary", Static).content)
        assert summary.startswith("SOUL.md changed again while you resolved; ") and conflicts.choices == [None]
        assert list(conflicts.query_one("#conflict-theirs").document.lines) == ["a", "B-third", "c"]
        await pilot.press("2")
        assert not str(conflicts.query_one("#conflict-summary", Static).content).startswith("SOUL.md changed again")
        await pilot.press("ctrl+s")
        await wait_until(pilot, lambda: isinstance(app.screen, EditorScreen), "back in the editor")
        assert (home / "SOUL.md").read_text() == "a\nB-third\nc\n"


async def test_esc_in_the_conflict_view_writes_nothing_and_keeps_the_edit_in_the_editor(home: Path) -> None:
    app = make_app(home)
    async with app.run_test(size=SIZE) as pilot:
        editor = await open_editor(pilot)
        mine = MEMORY.replace("timezone: UTC", "timezone: IST")
        editor.text_area.load_text(mine)
        agent(home, "replace", "timezone: UTC", "timezone: CET")
        on_disk = (home / "MEMORY.md").read_text()
        await save(pilot)
        await conflict_view(pilot)
        await pilot.press("escape")
        await wait_until(pilot, lambda: isinstance(app.screen, EditorScreen), "back in the editor")
        assert (home / "MEMORY.md").read_text() == on_disk and editor.text == mine
        assert "not resolved" in banner(editor)


async def test_a_file_over_the_cap_is_refused_pointing_to_o_and_a_fifo_in_the_tools_words(home: Path) -> None:
    (home / "MEMORY.md").write_bytes(b"- x\n" * (MAX_FILE_BYTES // 4) + b"y")
    os.mkfifo(home / "AGENTS.md")
    app = make_app(home)
    async with app.run_test(size=SIZE) as pilot:
        await started(pilot)
        await pilot.press("E")
        await wait_until(pilot, lambda: app._notifications, "the refusal")
        (note,) = list(app._notifications)
        assert (
            f"MEMORY.md is {MAX_FILE_BYTES + 1:,} bytes, over the {MAX_FILE_BYTES:,} this editor opens" in note.message
        )
        assert note.message.endswith("o opens it in $VISUAL / $EDITOR") and note.severity == "error"
        app.clear_notifications()
        await pilot.press("1", "E")
        await wait_until(pilot, lambda: app._notifications, "the refusal")
        (note,) = list(app._notifications)
        assert note.message == "AGENTS.md is not a regular file; nothing was written"
        assert isinstance(app.screen, MainScreen)


async def test_highlighting_is_off_above_256_kb(home: Path) -> None:
    (home / "MEMORY.md").write_text("- entry\n" * 40_000)  # 320 KB
    app = make_app(home)
    async with app.run_test(size=SIZE) as pilot:
        editor = await open_editor(pilot)
        assert editor.text_area.language is None and editor.text_area.document.line_count == 40_001


async def test_esc_with_unsaved_changes_asks_first_and_a_second_esc_discards_them(home: Path) -> None:
    app = make_app(home)
    async with app.run_test(size=SIZE) as pilot:
        editor = await open_editor(pilot)
        await type_at_end(pilot, editor, "draft")
        await pilot.press("escape")
        assert isinstance(app.screen, EditorScreen) and "esc again discards them" in banner(editor)
        await pilot.press("escape")
        await wait_until(pilot, lambda: isinstance(app.screen, MainScreen), "back to the notebook")
        assert (home / "MEMORY.md").read_text() == MEMORY


async def test_esc_without_changes_closes_at_once(home: Path) -> None:
    app = make_app(home)
    async with app.run_test(size=SIZE) as pilot:
        await open_editor(pilot)
        await pilot.press("escape")
        await wait_until(pilot, lambda: isinstance(app.screen, MainScreen), "back to the notebook")


async def test_ctrl_z_and_ctrl_y_undo_and_redo_in_the_buffer_only(home: Path) -> None:
    app = make_app(home)
    async with app.run_test(size=SIZE) as pilot:
        editor = await open_editor(pilot)
        await type_at_end(pilot, editor, "x")
        await pilot.press("ctrl+z")
        assert editor.text == MEMORY
        await pilot.press("ctrl+y")
        assert editor.text == MEMORY + "x"
        assert (home / "MEMORY.md").read_text() == MEMORY


async def test_a_change_on_disk_while_the_file_is_open_shows_a_banner_and_its_own_save_does_not(home: Path) -> None:
    app = make_app(home, watch=True)
    async with app.run_test(size=SIZE) as pilot:
        editor = await open_editor(pilot)
        await wait_until(pilot, lambda: editor._watcher is not None, "the watcher")
        await pilot.pause(0.3)
        await type_at_end(pilot, editor, "- mine\n")
        await save(pilot)
        await pilot.pause(0.5)
        assert "changed on disk" not in banner(editor)
        agent(home, "add", "from the agent")
        await wait_until(pilot, lambda: "MEMORY.md changed on disk since you opened it" in banner(editor), "the banner")
        await save(pilot)  # merges: the base is the file again, the banner goes
        assert "changed on disk" not in banner(editor) and editor.base == (home / "MEMORY.md").read_text()


async def test_go_to_line_and_select_span_move_the_cursor_for_find(home: Path) -> None:
    app = make_app(home)
    async with app.run_test(size=SIZE) as pilot:
        editor = await open_editor(pilot)
        editor.go_to_line(3, 2)
        assert editor.text_area.cursor_location == (2, 2)
        editor.go_to_line(999)
        assert editor.text_area.cursor_location[0] == editor.text_area.document.line_count - 1
        editor.select_span(4, 2, 10)
        assert editor.text_area.selected_text == "likes ti"


def editor_script(tmp_path: Path, body: str) -> Path:
    """A Python script standing in for $EDITOR: it gets the copy's path as its argument."""
    script = tmp_path / "fake_editor.py"
    script.write_text(f"import sys\nfrom pathlib import Path\ncopy = Path(sys.argv[1])\n{body}\n")
    return script


async def test_o_runs_the_injected_editor_on_a_copy_and_writes_it_back_guarded(home: Path, tmp_path: Path) -> None:
    script = editor_script(tmp_path, "copy.write_text(copy.read_text() + '- from the outside editor\\n')")
    seen: list[Path] = []

    def run(copy: Path) -> int:
        seen.append(copy)
        return subprocess.run([sys.executable, str(script), str(copy)], check=False).returncode

    app = make_app(home, run_editor=run)
    async with app.run_test(size=SIZE) as pilot:
        await started(pilot)
        await pilot.press("o")
        await wait_until(pilot, lambda: app._notifications, "the result")
        (note,) = list(app._notifications)
        assert note.message.startswith("Written: ok (hand edit → MEMORY.md)") and note.severity == "information"
        assert (home / "MEMORY.md").read_text() == MEMORY + "- from the outside editor\n"
        assert (
            seen and seen[0].is_relative_to(tmp_path / "xdg-state") and not seen[0].exists()
        )  # the copy is gone once written
        assert history(home, limit=1)[0].by == NOTEBOOK


async def test_o_with_a_conflict_opens_the_conflict_view_and_resolving_it_removes_the_kept_copy(home: Path) -> None:
    def run(copy: Path) -> int:
        copy.write_text(copy.read_text().replace("timezone: UTC", "timezone: IST"))
        agent(home, "replace", "timezone: UTC", "timezone: CET")  # meanwhile
        return 0

    app = make_app(home, run_editor=run)
    async with app.run_test(size=SIZE) as pilot:
        await started(pilot)
        await pilot.press("o")
        await wait_until(
            pilot, lambda: isinstance(app.screen, ConflictScreen), "the conflict view, not only a path in a toast"
        )
        (note,) = list(app._notifications)
        assert note.message.startswith("Conflict: MEMORY.md changed since you opened it") and note.severity == "warning"
        kept = Path(note.message.split("your edit is kept at ", 1)[1].split(". Resolve it", 1)[0])
        assert "timezone: IST" in kept.read_text() and "timezone: CET" in (home / "MEMORY.md").read_text()
        await wait_until(pilot, lambda: app.screen.sides is not None, "both sides drawn")
        await pilot.press("1", "ctrl+s")  # mine
        await wait_until(pilot, lambda: "timezone: IST" in (home / "MEMORY.md").read_text(), "the resolution written")
        await wait_until(pilot, lambda: not kept.exists(), "the kept copy removed once resolved")
        assert "timezone: CET" not in (home / "MEMORY.md").read_text()


async def test_o_unchanged_and_a_failing_editor_say_so_in_words(home: Path) -> None:
    statuses = iter([0, 3])  # the first edit leaves the copy as it was, the second editor fails with status 3
    app = make_app(home, run_editor=lambda copy: next(statuses))
    async with app.run_test(size=SIZE) as pilot:
        await started(pilot)
        await pilot.press("o")
        await wait_until(pilot, lambda: app._notifications, "the result")
        assert list(app._notifications)[0].message.startswith("Unchanged: ")
        app.clear_notifications()
        await pilot.press("o")
        await wait_until(pilot, lambda: app._notifications, "the result")
        assert list(app._notifications)[0].message.startswith("Not written: the editor exited with status 3")
        assert (home / "MEMORY.md").read_text() == MEMORY
        assert "the copy was unchanged" in list(app._notifications)[0].message
        from notebook_app.core.memory.edits.copies import edits_dir

        assert [p for p in edits_dir().rglob("*") if p.is_file()] == [], (
            "an editor that failed to start leaves no copy behind"
        )


def test_o_in_a_real_terminal_suspends_the_app_for_EDITOR_and_resumes_with_the_edit_written(
    home: Path, tmp_path: Path
) -> None:
    """The real process in a pty: $EDITOR (a script) gets the terminal, the
    notebook comes back and says what it wrote.
    """
    from terminal import Terminal

    script = editor_script(
        tmp_path, "print('FAKE-EDITOR-RAN', flush=True)\ncopy.write_text(copy.read_text() + '- from a real editor\\n')"
    )
    env = {
        "XDG_CONFIG_HOME": str(tmp_path / "config"),
        "XDG_DATA_HOME": str(tmp_path / "data"),
        "XDG_STATE_HOME": str(tmp_path / "state"),
    }
    terminal = Terminal([str(home)], env={**env, "VISUAL": "", "EDITOR": f"{sys.executable} {script}"})
    try:
        assert terminal.read_until("MEMORY.md ◂ target"), terminal.output.decode(errors="replace")[-2000:]
        terminal.send("o")
        assert terminal.read_until("FAKE-EDITOR-RAN"), terminal.output.decode(errors="replace")[-2000:]
        assert terminal.read_until("Written"), terminal.output.decode(errors="replace")[-2000:]
        assert (home / "MEMORY.md").read_text() == MEMORY + "- from a real editor\n"
        terminal.send("q")
        assert terminal.wait(within=30) == 0
        assert b"Traceback" not in terminal.output
    finally:
        terminal.close()


async def test_a_file_the_buffer_would_change_is_refused_not_rewritten(home: Path) -> None:
    """TextArea splits at U+2028 and joins mixed endings as one: opening such a file would change it on save."""
    (home / "MEMORY.md").write_text("- one\u2028still one\n- two\n")
    (home / "SOUL.md").write_bytes(b"be kind\r\nbe brief\n")
    app = make_app(home)
    async with app.run_test(size=SIZE) as pilot:
        await started(pilot)
        await pilot.press("E")
        await wait_until(pilot, lambda: app._notifications, "the refusal")
        (note,) = list(app._notifications)
        assert note.message == (
            "MEMORY.md: the built-in editor would change it on saving: line 1 holds U+2028 LINE SEPARATOR, "
            "which it would "
            "turn into a line break; nothing was opened; o opens it in $VISUAL / $EDITOR"
        )
        app.clear_notifications()
        await pilot.press("2", "E")
        await wait_until(pilot, lambda: app._notifications, "the refusal")
        assert (
            "line 2 ends differently from the lines before it (mixed line endings)"
            in list(app._notifications)[0].message
        )
        assert isinstance(app.screen, MainScreen)
        assert (home / "SOUL.md").read_bytes() == b"be kind\r\nbe brief\n"


async def test_a_crlf_file_opens_and_saves_with_its_crlf_endings(home: Path) -> None:
    (home / "SOUL.md").write_bytes(b"be kind\r\nbe brief\r\n")
    app = make_app(home)
    async with app.run_test(size=SIZE) as pilot:
        editor = await open_editor(pilot, "2")
        await type_at_end(pilot, editor, "be clear")
        await save(pilot)
        assert (home / "SOUL.md").read_bytes() == b"be kind\r\nbe brief\r\nbe clear"


async def test_a_conflict_where_one_side_removed_the_lines_shows_it_and_mine_removes_them(home: Path) -> None:
    (home / "SOUL.md").write_text("a\nb\n")
    app = make_app(home)
    async with app.run_test(size=SIZE) as pilot:
        editor = await open_editor(pilot, "2")
        editor.text_area.load_text("a\n")  # the person removes the last line
        (home / "SOUL.md").write_text("a\nB\n")  # another writer changed it
        await save(pilot)
        await conflict_view(pilot)
        mine_view = app.screen.query_one("#conflict-mine")
        assert list(mine_view.document.banners.values()) == ["▲ conflict 1 of 1 (removed on this side): 1 / 2 / 3"]
        await pilot.press("1", "ctrl+s")
        await wait_until(pilot, lambda: isinstance(app.screen, EditorScreen), "back in the editor")
        assert (home / "SOUL.md").read_text() == "a\n"


async def test_E_from_the_file_list_edits_the_highlighted_row(home: Path) -> None:
    app = make_app(home)
    async with app.run_test(size=SIZE) as pilot:
        await started(pilot)
        await pilot.press("f2", "home", "down", "down")  # AGENTS.md, SOUL.md, IDENTITY.md
        await pilot.press("E")
        await wait_until(pilot, lambda: isinstance(app.screen, EditorScreen), "the editor")
        assert (app.screen.file_name, app.screen.text) == ("IDENTITY.md", "")


async def test_a_taller_terminal_does_not_rewrap_the_buffer_and_a_wider_one_rewraps_it_once(
    home: Path, monkeypatch
) -> None:
    from textual.document._wrapped_document import WrappedDocument

    app = make_app(home)
    async with app.run_test(size=SIZE) as pilot:
        editor = await open_editor(pilot, "7")
        await pilot.pause()
        wraps: list[int] = []
        real = WrappedDocument.wrap
        monkeypatch.setattr(
            WrappedDocument,
            "wrap",
            lambda self, width, tab_width=None: (wraps.append(width), real(self, width, tab_width))[1],
        )
        await pilot.resize_terminal(SIZE[0], SIZE[1] + 6)
        await pilot.pause()
        assert wraps == [], "a new height alone changes no row"
        await pilot.resize_terminal(SIZE[0] + 20, SIZE[1] + 6)
        await pilot.pause()
        assert len(wraps) == 1 and editor.text_area.wrapped_document.width == wraps[0]


async def test_keys_typed_while_a_merging_save_runs_are_kept_on_the_line_they_were_typed_on(
    home: Path, monkeypatch
) -> None:
    """ctrl+s, then at once End, backspaces and a word: the merge comes into the buffer and the typing stays, on its
    line.
    """
    import threading

    app = make_app(home)
    async with app.run_test(size=SIZE) as pilot:
        editor = await open_editor(pilot)
        editor.go_to_line(5)
        await pilot.press("end", *["backspace"] * len("Fridays"), *"Mondays")
        outside = (
            "# Notes\n\n- moorings checked weekly\n- timezone: UTC\n- likes tide tables\n- drafts go out on Fridays\n"
        )
        (home / "MEMORY.md").write_text(outside)  # another program adds a line above the one being edited
        gate = threading.Event()
        saving = editor.notebook.hand_edit

        def held_save(*args):
            gate.wait(timeout=30)  # the save is still running while the keys below arrive
            return saving(*args)

        monkeypatch.setattr(editor.notebook, "hand_edit", held_save)
        await pilot.press("ctrl+s", "end", *["backspace"] * len("Mondays"), *"Tuesdays")
        gate.set()
        await wait_until(pilot, lambda: not editor.saving, "the save")
        expected = outside.replace("Fridays", "Tuesdays")
        await wait_until(pilot, lambda: editor.text == expected, "the merge, with the keys typed during the save kept")
        await pilot.pause()
        assert editor.text == expected
        assert (home / "MEMORY.md").read_text() == outside.replace("Fridays", "Mondays")
        assert editor.text_area.cursor_location == (5, len("- drafts go out on Tuesdays"))
        await save(pilot)
        assert (home / "MEMORY.md").read_text() == expected


async def test_keys_typed_during_a_save_on_a_line_its_merge_changed_stay_as_typed_and_the_next_save_shows_the_conflict(
    home: Path, monkeypatch
) -> None:
    import threading

    app = make_app(home)
    async with app.run_test(size=SIZE) as pilot:
        editor = await open_editor(pilot)
        editor.go_to_line(3)
        await pilot.press("end", *["backspace"] * len("UTC"), *"IST")
        (home / "MEMORY.md").write_text(MEMORY.replace("Fridays", "Saturdays"))  # another program changes line 5
        gate = threading.Event()
        saving = editor.notebook.hand_edit

        def held_save(*args):
            gate.wait(timeout=30)
            return saving(*args)

        monkeypatch.setattr(editor.notebook, "hand_edit", held_save)
        await pilot.press("ctrl+s")
        editor.go_to_line(5)
        await pilot.press("end", *["backspace"] * len("Fridays"), *"Sundays")
        gate.set()
        await wait_until(pilot, lambda: not editor.saving, "the save")
        await pilot.pause()
        typed = MEMORY.replace("UTC", "IST").replace("Fridays", "Sundays")
        assert editor.text == typed
        assert (home / "MEMORY.md").read_text() == MEMORY.replace("UTC", "IST").replace("Fridays", "Saturdays")
        assert "not merged in yet" in banner(editor)
        await pilot.press("ctrl+s")
        screen = await conflict_view(pilot)
        (conflict,) = screen.merge.conflicts
        assert (conflict.ours, conflict.theirs) == (
            ("- drafts go out on Sundays\n",),
            ("- drafts go out on Saturdays\n",),
        )
