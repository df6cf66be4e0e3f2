"""The keyboard contract in one place: bindings, the help screen, the palette.

Letter keys are not priority bindings, so a focused text input types them;
keys that must reach the app from inside the form are ones an Input leaves
alone (enter submits it, escape and ctrl+t bubble up).
"""

from __future__ import annotations

from dataclasses import dataclass

from textual.binding import Binding


@dataclass(frozen=True)
class Key:
    key: str
    """Textual key name(s), comma-separated."""
    display: str
    action: str
    label: str
    """Short footer text."""
    help: str
    """What the key does, for the help screen and the command palette."""
    id: str
    show: bool = True
    command: str = ""
    """Its name in the command palette; empty when it is no palette command."""
    priority: bool = False
    """Checked before the focused widget: for keys an open form must keep (tab)."""


SCREEN_KEYS: tuple[Key, ...] = (
    Key("a", "a", "add", "Add", "Add an entry: opens the form with action add, focus on text", "add", command="Add a memory entry"),
    Key("r", "r", "replace", "Replace", "Replace text: the form with text and with, pre-filled from the selected entry", "replace", command="Replace text in memory"),
    Key("x", "x", "remove", "Remove", "Remove text: the form with text, pre-filled from the selected entry", "remove", command="Remove text from memory"),
    Key("t", "t", "toggle_target", "Target", "Toggle the target: self (MEMORY.md) or user (USER.md)", "toggle-target", command="Toggle target: self / user"),
    Key("ctrl+t", "ctrl+t", "toggle_target_in_form", "Target", "Toggle the target while typing in the form", "toggle-target-form"),
    Key("enter", "enter", "submit", "Apply", "Submit the form through the memory tool; in replace, enter in text moves to with", "submit"),
    Key("escape", "esc", "close_form", "Close", "Close the form (asks first when it would discard typing)", "close-form"),
    Key("tab", "tab", "form_field(1)", "Next", "Focus the next pane; in the form, the next field (tab stays inside an open form)", "focus-next", show=False, priority=True),
    Key("shift+tab", "shift+tab", "form_field(-1)", "Previous", "Focus the previous pane; in the form, the previous field", "focus-previous", show=False, priority=True),
    Key("f2", "f2", "show_pane('home')", "Home", "Focus the Home pane's file list (at narrow widths, show the Home tab); works while typing", "focus-home", show=False, priority=True),
    Key("f3", "f3", "show_pane('current')", "Current", "Focus the Current session (at narrow widths, show its tab); works while typing", "focus-current", show=False, priority=True),
    Key("f4", "f4", "show_pane('next')", "Next", "Focus the Next session (at narrow widths, show its tab); works while typing", "focus-next-session", show=False, priority=True),
    Key("n", "n", "next_session", "Next", "Start the next session: the preview becomes the new current snapshot", "next-session", command="Start the next session"),
    Key("s", "s", "agent_sessions", "Agents", "Agent sessions: each agent's frozen soul against Next, and its writes", "agent-sessions", command="Show agent sessions"),
)

AGENT_KEYS: tuple[Key, ...] = (
    Key("escape,s", "esc", "back", "Back", "Back from agent sessions to the notebook's own session", "agent-sessions-back", command="Back to the notebook"),
)

APP_KEYS: tuple[Key, ...] = (
    Key("question_mark", "?", "help", "Help", "Show the help screen", "help", command="Help"),
    Key("q", "q", "quit", "Quit", "Quit the notebook", "quit"),
)

ALL_KEYS = SCREEN_KEYS + AGENT_KEYS + APP_KEYS


def bindings(keys: tuple[Key, ...]) -> list[Binding]:
    return [Binding(k.key, k.action, k.label, show=k.show, key_display=k.display, id=k.id, priority=k.priority) for k in keys]
