"""Asked when git is turned on from the palette for a home inside another repository: commit the home there?"""

from __future__ import annotations

from pathlib import Path

from textual import on
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal, Vertical
from textual.screen import ModalScreen
from textual.widgets import Button, Static


class GitRepoScreen(ModalScreen[bool]):
    """Dismisses with True to commit the home's writes in ``repo``; False (escape) changes nothing."""

    CSS_PATH = Path(__file__).with_name("git_repo.tcss")
    BINDINGS = [
        Binding("y", "answer(True)", "Commit there", id="git-repo-yes"),
        Binding("escape,n", "answer(False)", "Cancel", id="git-repo-no"),
    ]

    def __init__(self, home: Path, repo: Path) -> None:
        super().__init__()
        self.home = home
        self.repo = repo

    def compose(self) -> ComposeResult:
        with Vertical(id="git-repo-panel") as panel:
            panel.border_title = "This home is inside another repository"
            yield Static(
                f"{self.home} is inside the git repository {self.repo}, which is not the home's own.\n"
                f"Commit each of this home's writes in {self.repo}? Only the home's files are committed; the "
                "rest of that work tree stays as it is. (From the command line: git on --repo.)",
                markup=False,
            )
            with Horizontal(id="git-repo-buttons"):
                yield Button("Commit there (y)", id="git-repo-commit", variant="primary")
                yield Button("Cancel (esc)", id="git-repo-cancel")

    def action_answer(self, yes: bool) -> None:
        self.dismiss(yes)

    @on(Button.Pressed)
    def _pressed(self, event: Button.Pressed) -> None:
        self.dismiss(event.button.id == "git-repo-commit")
