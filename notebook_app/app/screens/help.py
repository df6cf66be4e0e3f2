"""The help screen: the key table and the session rule, in one page."""

from __future__ import annotations

from collections.abc import Mapping
from pathlib import Path

from textual import events, on
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Grid, VerticalScroll
from textual.content import Content
from textual.screen import ModalScreen
from textual.widgets import Label, Static

from notebook_app.app.keymap import shown_key
from notebook_app.app.keys import KEY_GROUPS, Key

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

    def __init__(self, keymap: Mapping[str, str] | None = None, *, viewing: tuple[Key, ...] = ()) -> None:
        super().__init__()
        self.keymap = dict(keymap or {})
        """Remapped keys (binding id → keys): help shows the keys in force."""
        self.viewing = viewing
        """The keys of the view help was asked from: their group
        is scrolled into view (the editor's are near the end)."""

    @on(events.Mount)
    def _mounted(self) -> None:
        self.query_one("#help-panel").focus()  # so the arrows and page keys scroll it
        self.call_after_refresh(self._show_viewing)

    def _show_viewing(self) -> None:
        """Scroll to the viewed group's heading when it is below the first page; a group already shown stays put."""
        index = next((i for i, group in enumerate(KEY_GROUPS) if self.viewing and group.keys is self.viewing), None)
        if index is None:
            return
        panel = self.query_one("#help-panel", VerticalScroll)
        heading = panel.query(".help-heading")[index].virtual_region
        if heading.bottom > panel.scroll_y + panel.scrollable_content_region.height:
            panel.scroll_to(y=heading.y, animate=False)

    def compose(self) -> ComposeResult:
        with VerticalScroll(id="help-panel") as panel:
            panel.border_title = "Persona Notebook · help"
            panel.border_subtitle = "esc to close · ↑ ↓ pgup pgdn scroll"
            for group in KEY_GROUPS:
                yield Static(Content.styled(group.title, "bold $text-primary"), classes="help-heading")
                rows = [(shown_key(k, self.keymap), k.help) for k in group.keys]
                if group is KEY_GROUPS[0]:
                    rows.append(PALETTE_HELP)
                with Grid(classes="help-keys"):
                    for display, text in rows:
                        yield Label(display, classes="help-key", markup=False)
                        yield Label(text, classes="help-text", markup=False)
            yield Static(Content.styled("How sessions work", "bold $text-primary"), classes="help-heading")
            yield Static(HOW_IT_WORKS, id="help-sessions", markup=False)
