"""The help screen: the key table and the session rule, in one page."""

from __future__ import annotations

from pathlib import Path

from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Vertical
from textual.content import Content
from textual.screen import ModalScreen
from textual.widgets import Static

from ..keys import ALL_KEYS

HOW_IT_WORKS = (
    "Current session is the soul this session loaded when it began: frozen, it never changes. "
    "Next session is what a session starting now would load. Every write - yours here, an agent's, "
    "the CLI's, an editor's - lands on disk at once and shows under Next, never under Current. "
    "Press n to start the next session: Next becomes Current."
)


def key_table() -> Content:
    width = max(len(k.display) for k in ALL_KEYS) + 2
    rows = [Content.assemble((f"{k.display:>{width}}  ", "$text-accent bold"), k.help) for k in ALL_KEYS]
    rows.append(Content.assemble((f"{'ctrl+p':>{width}}  ", "$text-accent bold"), "Command palette: every action by name, and themes"))
    return Content("\n").join(rows)


class HelpScreen(ModalScreen[None]):
    """Keys and the frozen-snapshot rule; any of escape, ? or q closes it."""

    CSS_PATH = Path(__file__).with_name("help.tcss")
    BINDINGS = [Binding("escape,question_mark,q", "dismiss", "Close", key_display="esc", id="help-close")]

    def compose(self) -> ComposeResult:
        with Vertical(id="help-panel") as panel:
            panel.border_title = "Persona Notebook · help"
            panel.border_subtitle = "esc to close"
            yield Static(Content.styled("Keys", "bold $text-primary"), classes="help-heading")
            yield Static(key_table(), id="help-keys")
            yield Static(Content.styled("How sessions work", "bold $text-primary"), classes="help-heading")
            yield Static(HOW_IT_WORKS, id="help-sessions", markup=False)
