"""Asked once when an OpenClaw workspace in git opens: keep the notebook's own files out of its git?"""

from __future__ import annotations

from pathlib import Path

from textual import on
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal, Vertical
from textual.screen import ModalScreen
from textual.widgets import Button, Static


class GitIgnoreScreen(ModalScreen[bool | None]):
    """Dismisses with True to add the lines, False for "never ask for this folder", None (escape) to ask next time."""

    CSS_PATH = Path(__file__).with_name("git_ignore.tcss")
    BINDINGS = [
        Binding("y", "answer(True)", "Add them", id="git-ignore-yes"),
        Binding("n", "answer(False)", "Never", id="git-ignore-no"),
        Binding("escape", "answer(None)", "Not now", id="git-ignore-later"),
    ]

    def __init__(self, paths: tuple[str, ...]) -> None:
        super().__init__()
        self.paths = paths

    def compose(self) -> ComposeResult:
        names = " and ".join(self.paths)
        with Vertical(id="git-ignore-panel") as panel:
            panel.border_title = "This workspace is in git"
            yield Static(
                f"The notebook keeps its history and journal here ({names}), and git would commit them.\n"
                f"Add {names} to this workspace's .gitignore?",
                markup=False,
            )
            with Horizontal(id="git-ignore-buttons"):
                yield Button("Add (y)", id="git-ignore-add", variant="primary")
                yield Button("Never ask (n)", id="git-ignore-never")
                yield Button("Not now (esc)", id="git-ignore-not-now")

    def action_answer(self, add: bool | None) -> None:
        self.dismiss(add)

    @on(Button.Pressed)
    def _pressed(self, event: Button.Pressed) -> None:
        self.dismiss({"git-ignore-add": True, "git-ignore-never": False}.get(event.button.id or ""))
