"""The help screen: the key table and the session rule, in one page."""

from __future__ import annotations

from pathlib import Path

from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Grid, Vertical
from textual.content import Content
from textual.screen import ModalScreen
from textual.widgets import Label, Static

from ..keys import ALL_KEYS

HOW_IT_WORKS = (
    "Current session is the soul this session loaded when it began: frozen, it never changes. "
    "Next session is what a session starting now would load. Every write (yours here, an agent's, "
    "the CLI's, an editor's) lands on disk at once and shows under Next, never under Current. "
    "Press n to start the next session: Next becomes Current. "
    "Agents connected over MCP have sessions of their own: press s to see what each one runs with "
    "against Next, and its journal of writes."
)

PALETTE_HELP = ("ctrl+p", "Command palette: every action by name, and the themes")


class HelpScreen(ModalScreen[None]):
    """Keys and the frozen-snapshot rule; any of escape, ? or q closes it."""

    CSS_PATH = Path(__file__).with_name("help.tcss")
    BINDINGS = [Binding("escape,question_mark,q", "dismiss", "Close", key_display="esc", id="help-close")]

    def compose(self) -> ComposeResult:
        with Vertical(id="help-panel") as panel:
            panel.border_title = "Persona Notebook · help"
            panel.border_subtitle = "esc to close"
            yield Static(Content.styled("Keys", "bold $text-primary"), classes="help-heading")
            with Grid(id="help-keys"):
                for display, text in [*((k.display, k.help) for k in ALL_KEYS), PALETTE_HELP]:
                    yield Label(display, classes="help-key", markup=False)
                    yield Label(text, classes="help-text", markup=False)
            yield Static(Content.styled("How sessions work", "bold $text-primary"), classes="help-heading")
            yield Static(HOW_IT_WORKS, id="help-sessions", markup=False)
