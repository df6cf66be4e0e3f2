"""The memory action form: action, target, text and with, plus inline status.

It knows nothing of files or rules; it posts what the person typed and shows
what it is told: the dry run's verdict as they type, the tool's answer after.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from rich.highlighter import Highlighter
from rich.text import Text
from textual import events, on
from textual.app import ComposeResult
from textual.containers import Horizontal, Vertical
from textual.message import Message
from textual.reactive import reactive
from textual.widgets import Input, Label

from notebook_app.app.widgets.common.focus_within import KeepsFocusMarks
from notebook_app.core.home.reading import MEMORY_TARGETS
from notebook_app.core.text.hidden import describe_hidden

TCSS = Path(__file__).with_suffix(".tcss")

PLACEHOLDERS = {
    "add": "the new entry, e.g. prefers metric units",
    "replace": "the existing text to find",
    "remove": "the existing text to delete",
    "edit-entry": "the line's new text",
    "delete-entry": "",
}
WHOLE_ENTRY_PLACEHOLDERS = {
    **PLACEHOLDERS,
    "replace": "text in the entry to replace (the whole entry changes)",
    "remove": "text in the entry to remove (the whole entry goes)",
}
"""In a ``§`` store (a Hermes home), where replace and remove act on the whole entry that holds the text."""
WITH_PLACEHOLDER = "what to put in its place (empty deletes, after a confirmation)"
WHOLE_ENTRY_WITH = "the whole entry's new text (it cannot be empty: remove deletes an entry)"
BADGES = {"edit-entry": "EDIT LINE", "delete-entry": "DELETE LINE"}
ENTRY_ACTIONS = tuple(BADGES)

STATUS_KINDS = ("hint", "flag", "error", "ok")


class LineBreaks(Highlighter):
    """Draws a line break in a field's value as ``⏎``: a ``§`` entry of two lines fills the field with both, and a
    raw break, drawn as is, moved the terminal down mid-row. One character for one, so the cursor stays aligned."""

    def __call__(self, text: str | Text) -> Text:
        plain = text.plain if isinstance(text, Text) else text
        return Text(plain.replace("\n", "⏎"), no_wrap=True, overflow="ignore", end="")

    def highlight(self, text: Text) -> None:
        """Nothing to colour: :meth:`__call__` only swaps the breaks."""


class FieldInput(Input):
    """A one-line field that never drops a pasted line silently: lines are joined, and said so. A line break its
    value holds (a whole ``§`` entry, pre-filled) is kept and sent as it is, and drawn ``⏎``."""

    def __init__(self, *, id: str, placeholder: str = "") -> None:  # noqa: A002 (Textual's own name)
        super().__init__(id=id, placeholder=placeholder, compact=True, select_on_focus=False, highlighter=LineBreaks())

    @dataclass
    class Joined(Message):
        field: FieldInput
        lines: int

    def on_paste(self, event: events.Paste) -> None:
        """Textual keeps only the first line of a paste; an entry is one line, so join them all.

        ``prevent_default`` keeps Input's own handler from inserting the first line a second time.
        """
        lines = [line.strip() for line in event.text.splitlines() if line.strip()]
        event.stop()
        event.prevent_default()
        if not lines:
            return
        text = " ".join(lines)
        selection = self.selection
        if selection.is_empty:
            self.insert_text_at_cursor(text)
        else:
            self.replace(text, *selection)
        if len(lines) > 1:
            self.post_message(self.Joined(self, len(lines)))


class ActionForm(KeepsFocusMarks, Vertical):
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

    @dataclass
    class Resized(Message):
        """The open form's height changed (its ``outer_size``): what must stay in sight above it moves up."""

        form: ActionForm

    def __init__(self, **kwargs) -> None:
        super().__init__(**kwargs)
        self.border_title = "Memory action"
        self.entry: tuple[str, int, str] | None = None
        """(file, line, its text) an entry action works on; None for the memory tool's actions."""
        self.awaiting: str | None = None
        """What a second press confirms: "delete" (replace with nothing) or "discard" (close, losing typing)."""
        self._opened_with: tuple[str, str] = ("", "")
        self._keys = ("enter", "esc", "ctrl+t")
        self.whole_entries = False
        """The target is a ``§`` store (a Hermes home): replace and remove act on the whole entry holding the
        text, and an empty ``with`` is refused, not a deletion to confirm. Set before :meth:`open`."""

    def compose(self) -> ComposeResult:
        with Horizontal(classes="form-head"):
            yield Label("", id="form-action", markup=False)
            yield Label("", id="form-target", markup=False)
            yield Label("enter apply · esc close · ctrl+t target", id="form-keys", markup=False)
        with Horizontal(classes="form-row"):
            yield Label("text", classes="form-label")
            yield FieldInput(id="form-text")
        with Horizontal(classes="form-row", id="with-row"):
            yield Label("with", classes="form-label")
            yield FieldInput(id="form-with", placeholder=WITH_PLACEHOLDER)
        yield Label("", id="form-hidden", markup=False)
        yield Label("", id="form-status", markup=False)

    def show_keys(self, *, apply: str, close: str, target: str) -> None:
        """The hint line, with the keys in force (a keymap may have moved them)."""
        self._keys = (apply, close, target)
        self._show_keys()

    def _show_keys(self) -> None:
        """An entry edit's file is fixed: its hint offers no target key."""
        apply, close, target = self._keys
        hint = f"{apply} apply · {close} close" + ("" if self.action in ENTRY_ACTIONS else f" · {target} target")
        self.query_one("#form-keys", Label).update(hint)

    @property
    def has_target(self) -> bool:
        """Whether the target can change here: the memory tool's actions; an entry edit names its file and line."""
        return self.action not in ENTRY_ACTIONS

    @property
    def is_open(self) -> bool:
        """Shown. Toggled as an inline style, not a class: a class change restyles all the form's widgets."""
        return self.display

    @property
    def args(self) -> dict[str, str]:
        """The tool input as typed (exactly what ``memory_tool.call`` receives), or an entry edit's."""
        if self.action in ENTRY_ACTIONS and self.entry is not None:
            name, line, expect = self.entry
            entry = {"action": self.action, "file": name, "line": str(line), "expect": expect}
            if self.action == "edit-entry":
                entry["to"] = self.query_one("#form-text", Input).value
            return entry
        args = {"action": self.action, "target": self.target, "text": self.query_one("#form-text", Input).value}
        if self.action == "replace":
            args["with"] = self.query_one("#form-with", Input).value
        return args

    def open_entry(self, action: str, name: str, line: int, text: str) -> None:
        """Show the form for an entry edit or delete of line ``line`` of ``name``."""
        self.entry = (name, line, text)
        self.open(action, text)
        self.query_one("#form-target", Label).update(f"line {line} of {name}")
        field = self.query_one("#form-text", Input)
        field.disabled = action == "delete-entry"

    def open(self, action: str, text: str = "", replacement: str = "") -> None:
        """Show the form for ``action``, pre-filled, with focus on the text."""
        if action not in ENTRY_ACTIONS:
            self.entry = None
            self.query_one("#form-text", Input).disabled = False
        self.action = action
        self._show_placeholders()
        text_input = self.query_one("#form-text", Input)
        with_input = self.query_one("#form-with", Input)
        with text_input.prevent(Input.Changed), with_input.prevent(Input.Changed):
            text_input.value = text
            with_input.value = replacement
        self._opened_with = (text, replacement)
        self.awaiting = None
        self._name_hidden()
        self.display = True
        (with_input if action == "replace" and text else text_input).focus()
        (with_input if action == "replace" and text else text_input).action_end()
        self.show_status("hint", "")
        self._changed()

    def close(self) -> None:
        self.awaiting = None
        self.display = False

    def on_resize(self, event: events.Resize) -> None:
        if self.is_open:
            self.post_message(self.Resized(self))

    @property
    def _fields(self) -> list[Input]:
        fields = [self.query_one("#form-text", Input)]
        if self.action == "replace":
            fields.append(self.query_one("#form-with", Input))
        return fields

    def focus_field(self, step: int) -> bool:
        """Move between the form's own fields (tab never leaves an open form); False: the form is closed."""
        if not self.is_open:
            return False
        fields = self._fields
        current = next((i for i, field in enumerate(fields) if field.has_focus), -1)
        fields[(current + step) % len(fields)].focus()
        return True

    @property
    def typed(self) -> bool:
        """Whether the fields hold something other than what the form opened with."""
        values = tuple(
            field.value for field in (self.query_one("#form-text", Input), self.query_one("#form-with", Input))
        )
        return values != self._opened_with and any(value.strip() for value in values)

    def request_close(self) -> bool:
        """Close unless that would discard typing unasked; True when closed."""
        if self.typed and self.awaiting != "discard":
            self.awaiting = "discard"
            self.show_status("flag", "esc again discards what you typed; enter applies it")
            return False
        self.close()
        return True

    def request_submit(self) -> None:
        """Post :class:`Submitted` when the action is ready; a replace with nothing asks first.

        In a replace, enter in ``text`` moves to ``with``; an empty ``with``
        deletes the text, so it is applied only on a second enter.
        """
        text_field = self.query_one("#form-text", Input)
        if self.action == "replace" and text_field.has_focus:
            self.query_one("#form-with", Input).focus()
            return
        args = self.args
        if self.action == "replace" and not args.get("with") and self.awaiting != "delete" and not self.whole_entries:
            self.awaiting = "delete"
            self.show_status(
                "flag",
                f"with is empty, so this deletes “{args['text']}”: "
                "enter again to delete, or type what goes in its place",
            )
            return
        self.awaiting = None
        self.post_message(self.Submitted(self, args))

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
        badge.update(BADGES.get(action, action.upper()))
        for known in PLACEHOLDERS:
            badge.set_class(known == action, f"-{known}")
        self._show_placeholders()
        self.query_one("#with-row").display = action == "replace"
        self._show_keys()
        if action not in ENTRY_ACTIONS:
            self.watch_target(self.target)
        self._name_hidden()
        if self.is_open:
            self._changed()

    def _show_placeholders(self) -> None:
        """The fields' placeholders in the target's dialect: a '§' store's replace and remove take whole entries."""
        texts = WHOLE_ENTRY_PLACEHOLDERS if self.whole_entries else PLACEHOLDERS
        self.query_one("#form-text", Input).placeholder = texts[self.action]
        self.query_one("#form-with", Input).placeholder = WHOLE_ENTRY_WITH if self.whole_entries else WITH_PLACEHOLDER

    def watch_target(self, target: str) -> None:
        if self.action in ENTRY_ACTIONS:
            return  # an entry edit names its file and line instead
        self.query_one("#form-target", Label).update(f"target {target} → {MEMORY_TARGETS[target]}")
        if self.is_open:
            self._changed()

    def _changed(self) -> None:
        self.post_message(self.Changed(self, self.args))

    def _name_hidden(self) -> None:
        """Under the fields, name the hidden characters they hold: an input cannot draw markers."""
        notes = []
        for field, label in (
            (self.query_one("#form-text", Input), "text"),
            (self.query_one("#form-with", Input), "with"),
        ):
            words = describe_hidden(field.value) if field.display else ""
            if words and (label == "text" or self.action == "replace"):
                notes.append(f"{label} {words}")
        hidden = self.query_one("#form-hidden", Label)
        hidden.update(" · ".join(notes))
        hidden.display = bool(notes)

    @on(Input.Changed)
    def _input_changed(self, event: Input.Changed) -> None:
        event.stop()
        self.awaiting = None
        self._name_hidden()
        self._changed()

    @on(FieldInput.Joined)
    def _joined(self, event: FieldInput.Joined) -> None:
        event.stop()
        self.notify(
            f"Pasted {event.lines} lines: joined into one with spaces (an entry is one line).",
            title="paste",
            markup=False,
        )

    @on(Input.Submitted)
    def _submitted(self, event: Input.Submitted) -> None:
        event.stop()
        self.request_submit()
