"""The find bar under the panes: a query typed in, the count of its matches, the keys to step.

It only says what was typed and asked for (messages up); a find controller
the screen holds searches in a worker and tells it the count (attributes down).
In ``line`` mode the same bar asks for a line number (``ctrl+g``). A screen
yields a :class:`FindRow`, which holds the bar and hands each of its messages
to that controller (:class:`FindControls`): the one place they are routed.
A row without controls lets the bar's messages go on up to its screen.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Literal, Protocol

from textual import on
from textual.app import ComposeResult
from textual.containers import Horizontal
from textual.message import Message
from textual.widget import Widget
from textual.widgets import Input, Label

from notebook_app.app.keys import FIND_KEYS, bindings

TCSS = Path(__file__).with_suffix(".tcss")

Mode = Literal["find", "line"]
PROMPTS: dict[Mode, str] = {"find": "find", "line": "go to line"}
PLACEHOLDERS: dict[Mode, str] = {
    "find": "text in every file and both sessions (a capital: exact case; → ∙ ⇆ … find hidden characters)",
    "line": "a line number",
}


class FindInput(Input):
    """The query's field. Textual lays out the screen on each keystroke (its virtual size follows the text); a
    private override that stopped it bought 2.5 ms of a 12-15 ms keystroke on a 2 MiB home (measure 14, side by
    side), too little to keep, so it was dropped (issue 20)."""


class FindBar(Horizontal):
    """Hidden until ``/`` or ``ctrl+g`` opens it; esc closes it before anything else."""

    BINDINGS = bindings(FIND_KEYS)

    @dataclass
    class Changed(Message):
        """The query changed: search again."""

        bar: FindBar
        query: str

    @dataclass
    class Stepped(Message):
        """Go to the next (1) or previous (-1) match."""

        bar: FindBar
        step: int

    @dataclass
    class LineChosen(Message):
        """Go to this line (from 1) of the selected file."""

        bar: FindBar
        line: int

    @dataclass
    class Closed(Message):
        bar: FindBar

    def __init__(self, *, scope: str = PLACEHOLDERS["find"], **kwargs) -> None:
        super().__init__(**kwargs)
        self.placeholders: dict[Mode, str] = {**PLACEHOLDERS, "find": scope}
        """The find placeholder says what is searched: every file and both sessions, or the editor's buffer."""
        self.mode: Mode = "find"
        self._query = ""
        """The find query, kept while the bar asks for a line number."""

    def compose(self) -> ComposeResult:
        yield Label(PROMPTS["find"], id="find-prompt", markup=False)
        yield FindInput(id="find-input", compact=True, select_on_focus=True)
        yield Label("", id="find-count", markup=False)

    @property
    def is_open(self) -> bool:
        return self.has_class("-open")

    @property
    def typed(self) -> str:
        """The query typed (empty in line mode)."""
        return self.query_one(Input).value if self.mode == "find" else ""

    def open(self, mode: Mode, *, note: str = "") -> None:
        """Show the bar in ``mode`` with focus in its input; find
        keeps its query (selected), also across a go to line."""
        field = self.query_one(Input)
        if mode != self.mode:
            if mode == "line":
                self._query = field.value
            with field.prevent(Input.Changed):
                field.type = "integer" if mode == "line" else "text"
                field.value = "" if mode == "line" else self._query
            self.mode = mode
        field.placeholder = self.placeholders[mode]
        self.query_one("#find-prompt", Label).update(PROMPTS[mode])
        self.show_count(note)
        self.add_class("-open")
        field.focus()

    def close(self) -> None:
        self.remove_class("-open")

    def show_count(self, text: str, *, missing: bool = False) -> None:
        """``3 of 17``, ``no matches``, or a note; ``missing`` shows it in the warning colour."""
        label = self.query_one("#find-count", Label)
        if str(label.content) != text:
            label.update(text, layout=False)  # a fixed width: a new count must not lay out the whole screen
        label.set_class(missing, "-missing")

    @on(Input.Changed, "#find-input")
    def _typed(self, event: Input.Changed) -> None:
        event.stop()
        if self.mode == "find":
            self.post_message(self.Changed(self, event.value))

    def action_step(self, step: int) -> None:
        if self.mode == "find":
            self.post_message(self.Stepped(self, step))
            return
        value = self.query_one(Input).value.strip()
        if step > 0 and value.lstrip("+").isdigit():
            self.post_message(self.LineChosen(self, int(value)))

    def action_close(self) -> None:
        self.post_message(self.Closed(self))


class FindControls(Protocol):
    """What a screen's find controller does with what the bar asks (the notebook's and the editor's alike)."""

    def search(self) -> None:
        """The query changed: count its matches again."""

    def step(self, step: int) -> None:
        """Show the next (1) or previous (-1) match."""

    def go_to_line(self, line: int) -> None:
        """Go to this line (from 1)."""

    def close(self) -> None:
        """Hide the bar and its matches."""


class FindRow(Widget):
    """The row that holds the find bar and hands its messages to ``controls``; as tall as the bar (none when closed).

    Without ``controls`` the bar's messages bubble on to the screen, which handles them with ``@on``.
    """

    def __init__(self, controls: FindControls | None = None, *, scope: str = PLACEHOLDERS["find"]) -> None:
        super().__init__()
        self.controls = controls
        self._scope = scope

    def compose(self) -> ComposeResult:
        yield FindBar(id="find-bar", scope=self._scope)

    @on(FindBar.Changed)
    def _changed(self, event: FindBar.Changed) -> None:
        if self.controls is not None:
            event.stop()
            self.controls.search()

    @on(FindBar.Stepped)
    def _stepped(self, event: FindBar.Stepped) -> None:
        if self.controls is not None:
            event.stop()
            self.controls.step(event.step)

    @on(FindBar.LineChosen)
    def _line_chosen(self, event: FindBar.LineChosen) -> None:
        if self.controls is not None:
            event.stop()
            self.controls.go_to_line(event.line)

    @on(FindBar.Closed)
    def _bar_closed(self, event: FindBar.Closed) -> None:
        if self.controls is not None:
            event.stop()
            self.controls.close()
