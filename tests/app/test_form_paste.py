"""A paste into the memory form lands once, where the cursor is; its line breaks are joined as the form says.

The process tests send a real bracketed paste (ESC[200~ … ESC[201~) to the
real app on a pseudo-terminal, as a terminal does; the Pilot test shows the
field's value and the word the form says about joined lines.
"""

from __future__ import annotations

import time
from pathlib import Path

from notebook_pilot import MEMORY, SIZE, make_app, started, wait_until
from terminal import Terminal
from textual import events
from textual.widgets import Input

PASTE_START, PASTE_END = "\x1b[200~", "\x1b[201~"
LEFT = "\x1b[D"


def pasted(text: str) -> str:
    return f"{PASTE_START}{text}{PASTE_END}"


def memory_becomes(terminal: Terminal, path: Path, expected: str, *, within: float = 30.0) -> bool:
    """Drain the terminal until ``path`` holds ``expected`` (True) or ``within`` passes (False)."""
    deadline = time.monotonic() + within
    while time.monotonic() < deadline:
        if path.read_text() == expected:
            return True
        terminal.read_until("\0", within=0.1)
    return path.read_text() == expected


def add_through_a_real_terminal(home: Path, tmp_path: Path, keys: list[str], expected_entry: str) -> None:
    env = {
        "XDG_CONFIG_HOME": str(tmp_path / "config"),
        "XDG_DATA_HOME": str(tmp_path / "data"),
        "XDG_STATE_HOME": str(tmp_path / "state"),
    }
    terminal = Terminal([str(home)], env=env)
    try:
        assert terminal.read_until("MEMORY.md ◂ target"), terminal.output.decode(errors="replace")[-2000:]
        terminal.send("a")
        assert terminal.read_until("esc close"), terminal.output.decode(errors="replace")[-2000:]
        for key in keys:
            terminal.send(key)
            terminal.read_until("\0", within=0.3)  # each step drawn before the next, as a person types
        terminal.send("\r")
        assert memory_becomes(terminal, home / "MEMORY.md", MEMORY + expected_entry), (home / "MEMORY.md").read_text()
        terminal.send("q")
        assert terminal.wait(within=30) == 0
        assert b"Traceback" not in terminal.output
    finally:
        terminal.close()


def test_a_bracketed_paste_into_the_form_lands_once(home: Path, tmp_path: Path) -> None:
    add_through_a_real_terminal(home, tmp_path, [pasted("gamma single")], "- gamma single\n")


def test_a_pasted_line_break_is_joined_with_a_space_and_nothing_is_doubled(home: Path, tmp_path: Path) -> None:
    add_through_a_real_terminal(home, tmp_path, [pasted("alpha\nbeta")], "- alpha beta\n")


def test_a_paste_between_two_typed_letters_lands_between_them(home: Path, tmp_path: Path) -> None:
    add_through_a_real_terminal(home, tmp_path, ["X", "Y", LEFT, pasted("one\ntwo")], "- Xone twoY\n")


async def test_a_paste_over_a_selection_replaces_it_once_and_says_the_lines_were_joined(home: Path) -> None:
    app = make_app(home)
    async with app.run_test(size=SIZE) as pilot:
        await started(pilot)
        await pilot.press("a", *"keep THIS word")
        field = app.screen.form.query_one("#form-text", Input)
        field.selection = type(field.selection)(5, 9)
        field.post_message(events.Paste("that\nother"))
        await wait_until(pilot, lambda: field.value != "keep THIS word", "the paste")
        await pilot.pause()
        assert field.value == "keep that other word"
        assert [note.message for note in app._notifications] == [
            "Pasted 2 lines: joined into one with spaces (an entry is one line)."
        ]
