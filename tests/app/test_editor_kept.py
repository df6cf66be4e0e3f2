"""The notebook ending with the built-in editor unsaved: the buffer is kept as an editing copy, and said.

A served tab's close reaches the app as ``textual.messages.ExitApp`` (textual-serve
sends ``quit``; Textual's web driver posts ExitApp), which never passes through
``action_quit``; ``ctrl+q`` and SIGTERM end the same way. The copy is kept in the
user's state directory (pinned to the test's temp dir), never in the home.
"""

from __future__ import annotations

import os
import signal
from pathlib import Path

from notebook_pilot import MEMORY, SIZE, make_app, started, wait_until
from textual.messages import ExitApp

from notebook_app.app.demo import ensure_demo
from notebook_app.app.screens.editor.screen import EditorScreen
from notebook_app.core.memory.edits.copies import edits_dir, kept_copies

TYPED = "- kept when the tab closed\n"


def files_of(root: Path) -> dict[str, bytes]:
    return {str(p.relative_to(root)): p.read_bytes() for p in sorted(root.rglob("*")) if p.is_file()}


async def edit_then_end(home: Path, typed: str, end: str = "ExitApp") -> tuple[str, list[str]]:
    """Open MEMORY.md in the editor, type ``typed`` at its end, end the app; the text it opened, the exit notes."""
    app = make_app(home)
    async with app.run_test(size=SIZE) as pilot:
        await started(pilot)
        await pilot.press("E")
        await wait_until(pilot, lambda: isinstance(app.screen, EditorScreen), "the editor")
        editor = app.screen
        assert isinstance(editor, EditorScreen) and editor.file_name == "MEMORY.md"
        opened = editor.text
        area = editor.text_area
        area.move_cursor(area.document.end)
        if typed:
            area.insert(typed)
            await pilot.pause()
        if end == "ExitApp":
            app.post_message(ExitApp())  # what a served tab's close does
        else:
            await pilot.press(end)
        await wait_until(pilot, lambda: not app.is_running, "the app to end")
    return opened, app.exit_notes


async def test_a_served_tab_closing_keeps_the_unsaved_buffer_with_its_base_and_the_home_is_unchanged() -> None:
    home = ensure_demo()
    before = files_of(home)
    opened, notes = await edit_then_end(home, TYPED)
    (kept,) = kept_copies(home, edits_dir=edits_dir())
    assert kept.path.name == "MEMORY.md" and not kept.told
    assert kept.path.read_text() == opened + TYPED
    assert kept.base.read_text() == opened == before["MEMORY.md"].decode()
    assert files_of(home) == before and not (home / ".notebook").exists()
    assert notes == [
        f"MEMORY.md had unsaved changes in the editor: kept at {kept.path} (the text they were made on beside it, "
        "MEMORY.md.base); nothing was written in test home"
    ]


async def test_ctrl_q_with_the_editor_unsaved_keeps_the_buffer_too(home: Path) -> None:
    opened, notes = await edit_then_end(home, TYPED, end="ctrl+q")
    (kept,) = kept_copies(home, edits_dir=edits_dir())
    assert kept.path.read_text() == opened + TYPED and len(notes) == 1


async def test_a_clean_editor_leaves_no_copy_and_says_nothing(home: Path) -> None:
    _, notes = await edit_then_end(home, "")
    assert notes == []
    assert not edits_dir().exists() or [p for p in edits_dir().rglob("*") if p.is_file()] == []


async def test_the_next_open_of_the_home_says_once_where_the_buffer_is_kept(home: Path) -> None:
    await edit_then_end(home, TYPED)
    (kept,) = kept_copies(home, edits_dir=edits_dir())
    app = make_app(home)
    async with app.run_test(size=SIZE) as pilot:
        await started(pilot)
        await wait_until(pilot, lambda: app._notifications, "the notice")
        (note,) = list(app._notifications)
        assert note.title == "unsaved MEMORY.md kept" and note.severity == "warning"
        assert note.message == (
            "The editor had unsaved changes when the notebook last ended; nothing was written. They are in:\n"
            f"{kept.path}\nbeside the text they were made on (MEMORY.md.base)."
        )
    assert [k.told for k in kept_copies(home, edits_dir=edits_dir())] == [True]
    again = make_app(home)
    async with again.run_test(size=SIZE) as pilot:
        await started(pilot)
        for _ in range(20):
            await pilot.pause(0.01)
        assert list(again._notifications) == []  # said once: the copy stays where it is


def test_SIGTERM_in_a_real_terminal_keeps_the_unsaved_buffer_and_says_so_on_stderr(home: Path, tmp_path: Path) -> None:
    """Textual's terminal driver leaves SIGTERM to its default (the process dies at once): the app ends as ctrl+q."""
    from terminal import Terminal

    state = tmp_path / "state"
    env = {"XDG_CONFIG_HOME": str(tmp_path / "config"), "XDG_STATE_HOME": str(state)}
    terminal = Terminal([str(home)], env={**env, "XDG_DATA_HOME": str(tmp_path / "data")})
    try:
        assert terminal.read_until("MEMORY.md ◂ target"), terminal.output.decode(errors="replace")[-2000:]
        terminal.send("E")
        assert terminal.read_until("saved"), terminal.output.decode(errors="replace")[-2000:]
        terminal.send("zz")
        assert terminal.read_until("unsaved"), terminal.output.decode(errors="replace")[-2000:]
        os.kill(terminal.process.pid, signal.SIGTERM)
        assert terminal.wait(within=30) == 0
        terminal.read_until("\0", within=0.5)  # what it said on stderr after giving the screen back
        output = terminal.output.decode(errors="replace")
        assert "Traceback" not in output
        copies = list((state / "persona-notebook" / "edits" / "kept").rglob("MEMORY.md"))
        assert len(copies) == 1 and copies[0].read_text() == MEMORY.replace("# Notes", "zz# Notes", 1)
        said = "persona-notebook: MEMORY.md had unsaved changes in the editor: kept at "
        assert said in output.replace("\r\n", "")
    finally:
        terminal.close()


def test_served_the_words_go_to_stderr_at_once_for_the_servers_log(capfd, monkeypatch) -> None:
    """A served tab's stderr is the server's log: said as the notebook ends, not after (nothing is returned)."""
    from types import SimpleNamespace

    from notebook_app.app.screens.editor import kept
    from notebook_app.app.screens.keyed import KeyedScreen

    class Kept(KeyedScreen[None]):
        def keep_unsaved(self, home_label: str) -> str | None:
            return f"MEMORY.md kept, nothing was written in {home_label}"

    monkeypatch.setattr(kept, "STDERR_GRACE", 0)
    served, terminal = SimpleNamespace(is_web=True), SimpleNamespace(is_web=False)
    assert kept.keep_at_exit(served, [KeyedScreen(), Kept()], "~/wren") == []  # type: ignore[arg-type]
    assert capfd.readouterr().err == "persona-notebook: MEMORY.md kept, nothing was written in ~/wren\n"
    assert kept.keep_at_exit(terminal, [Kept()], "~/wren") == ["MEMORY.md kept, nothing was written in ~/wren"]  # type: ignore[arg-type]
    assert capfd.readouterr().err == ""  # in a terminal: printed by launch once the screen is given back
