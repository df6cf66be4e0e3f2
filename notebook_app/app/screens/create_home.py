"""Asked when the home to open does not exist: make it, or leave."""

from __future__ import annotations

from pathlib import Path

from textual import on
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal, Vertical
from textual.screen import ModalScreen
from textual.widgets import Button, Static


class CreateHomeScreen(ModalScreen[bool]):
    """Dismisses with True to create the directory, False to quit."""

    CSS_PATH = Path(__file__).with_name("create_home.tcss")
    BINDINGS = [
        Binding("y", "answer(True)", "Create", id="create-home-yes"),
        Binding("n,escape", "answer(False)", "Quit", id="create-home-no"),
    ]

    def __init__(self, label: str) -> None:
        super().__init__()
        self.label = label

    def compose(self) -> ComposeResult:
        with Vertical(id="create-panel") as panel:
            panel.border_title = "No such home"
            yield Static(f"{self.label} does not exist.\nCreate it as an empty persona home?", markup=False)
            with Horizontal(id="create-buttons"):
                yield Button("Create it (y)", id="create-yes", variant="primary")
                yield Button("Quit (n)", id="create-no")

    def action_answer(self, create: bool) -> None:
        self.dismiss(create)

    @on(Button.Pressed)
    def _pressed(self, event: Button.Pressed) -> None:
        self.dismiss(event.button.id == "create-yes")
