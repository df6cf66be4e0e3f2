"""The memory action form: action, target, text and with, plus inline status.

It knows nothing of files or rules; it posts what the person typed and shows
what it is told: the dry run's verdict as they type, the tool's answer after.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from textual import on
from textual.app import ComposeResult
from textual.containers import Horizontal, Vertical
from textual.message import Message
from textual.reactive import reactive
from textual.widgets import Input, Label

from ....core import MEMORY_TARGETS

TCSS = Path(__file__).with_suffix(".tcss")

PLACEHOLDERS = {
    "add": "the new entry, e.g. prefers metric units",
    "replace": "the existing text to find",
    "remove": "the existing text to delete",
}

STATUS_KINDS = ("hint", "flag", "error", "ok")


class ActionForm(Vertical):
    """Hidden until an action key opens it; enter submits, escape closes."""

    action: reactive[str] = reactive("add")
    target: reactive[str] = reactive("self")

    @dataclass
    class Changed(Message):
        """The pending action changed: dry-run it."""

        form: ActionForm
        args: dict[str, str]

    @dataclass
    class Submitted(Message):
        """The person pressed enter: apply it."""

        form: ActionForm
        args: dict[str, str]

    def __init__(self, **kwargs) -> None:
        super().__init__(**kwargs)
        self.border_title = "Memory action"

    def compose(self) -> ComposeResult:
        with Horizontal(classes="form-head"):
            yield Label("", id="form-action", markup=False)
            yield Label("", id="form-target", markup=False)
            yield Label("enter apply · esc close · ctrl+t target", id="form-keys", markup=False)
        with Horizontal(classes="form-row"):
            yield Label("text", classes="form-label")
            yield Input(id="form-text", compact=True, select_on_focus=False)
        with Horizontal(classes="form-row", id="with-row"):
            yield Label("with", classes="form-label")
            yield Input(id="form-with", compact=True, placeholder="what to put in its place ('' deletes)", select_on_focus=False)
        yield Label("", id="form-status", markup=False)

    @property
    def is_open(self) -> bool:
        return self.has_class("-open")

    @property
    def args(self) -> dict[str, str]:
        """The tool input as typed: exactly what ``memory_tool.call`` receives."""
        args = {"action": self.action, "target": self.target, "text": self.query_one("#form-text", Input).value}
        if self.action == "replace":
            args["with"] = self.query_one("#form-with", Input).value
        return args

    def open(self, action: str, text: str = "", replacement: str = "") -> None:
        """Show the form for ``action``, pre-filled, with focus on the text."""
        self.action = action
        text_input = self.query_one("#form-text", Input)
        with_input = self.query_one("#form-with", Input)
        with text_input.prevent(Input.Changed), with_input.prevent(Input.Changed):
            text_input.value = text
            with_input.value = replacement
        self.add_class("-open")
        (with_input if action == "replace" and text else text_input).focus()
        (with_input if action == "replace" and text else text_input).action_end()
        self.show_status("hint", "")
        self._changed()

    def close(self) -> None:
        self.remove_class("-open")

    def show_status(self, kind: str, message: str) -> None:
        """One line under the inputs; markup in ``message`` is never parsed."""
        status = self.query_one("#form-status", Label)
        status.update(message)
        for known in STATUS_KINDS:
            status.set_class(known == kind, f"-{known}")

    @property
    def status(self) -> tuple[str, str]:
        label = self.query_one("#form-status", Label)
        kind = next((k for k in STATUS_KINDS if label.has_class(f"-{k}")), "hint")
        return kind, str(label.content)

    def watch_action(self, action: str) -> None:
        badge = self.query_one("#form-action", Label)
        badge.update(action.upper())
        for known in PLACEHOLDERS:
            badge.set_class(known == action, f"-{known}")
        self.query_one("#form-text", Input).placeholder = PLACEHOLDERS[action]
        self.query_one("#with-row").display = action == "replace"
        if self.is_open:
            self._changed()

    def watch_target(self, target: str) -> None:
        self.query_one("#form-target", Label).update(f"target {target} → {MEMORY_TARGETS[target]}")
        if self.is_open:
            self._changed()

    def _changed(self) -> None:
        self.post_message(self.Changed(self, self.args))

    @on(Input.Changed)
    def _input_changed(self, event: Input.Changed) -> None:
        event.stop()
        self._changed()

    @on(Input.Submitted)
    def _submitted(self, event: Input.Submitted) -> None:
        event.stop()
        self.post_message(self.Submitted(self, self.args))
