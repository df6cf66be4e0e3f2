"""Asked once when an OpenClaw workspace in git opens: keep the notebook's own files out of its git?"""

from __future__ import annotations

from functools import partial
from pathlib import Path

from textual import on
from textual.app import App, ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal, Vertical
from textual.screen import ModalScreen
from textual.widgets import Button, Static

from notebook_app.app.workers import run_once
from notebook_app.core.home.git_ignore import GitAnswer, add_to_gitignore, remember_git_answer, to_ask


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


def offer_git_ignore(app: App, home: Path, host: str) -> None:
    """Ask git, off the event loop, whether our files in ``home`` would be committed; ask the person when so."""

    run_once(app, "git-ignore", lambda: to_ask(home, host), done=partial(_ask, app, home), failed=_quiet)


def _quiet(_words: str) -> None:
    """Git could not be asked: there is nothing to offer, and nothing to say."""


def _ask(app: App, home: Path, missing: tuple[str, ...]) -> None:
    if missing:
        app.push_screen(GitIgnoreScreen(missing), partial(_answered, app, home, missing))


def _answered(app: App, home: Path, missing: tuple[str, ...], add: bool | None) -> None:

    if add is None:
        return  # not now: asked again at the next open
    if add:
        job, said = (lambda: add_to_gitignore(home, missing)), f"added {' and '.join(missing)} to .gitignore"
    else:
        job, said = (lambda: remember_git_answer(home, GitAnswer.DECLINED)), "not asked again for this folder"
    run_once(app, "git-ignore", job, done=partial(_said, app, said), failed=partial(_said, app, ""))


def _said(app: App, said: str, problem: str | None = None) -> None:
    if problem is None:
        app.notify(said, title="git", markup=False)
    else:
        app.notify(problem, title="git", severity="warning", markup=False)
