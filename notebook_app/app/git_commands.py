"""The palette's git commands for the home (issue 26): on, off, and what is on; each through the core, in a worker.

``on`` comes in two words, since the notebook's own files are kept out of
git only with the person's yes: one adds the ``.gitignore`` lines, the other
leaves ``.gitignore`` as it is. A home inside another repository (a project,
a workspace already in git) is committed there only after a question naming
that repository is answered yes (:class:`.screens.git_repo.GitRepoScreen`), as
the command line's ``--repo`` names it. Each answer is a notice.
"""

from __future__ import annotations

from collections.abc import Iterator
from enum import Enum
from functools import partial
from pathlib import Path

from textual.app import App, SystemCommand

from notebook_app.app.screens.git_repo import GitRepoScreen
from notebook_app.app.workers import run_once
from notebook_app.core.record.log.actor import NOTEBOOK


class GitCommand(Enum):
    ON_IGNORING = "on, keeping the notebook's own files out"
    ON = "on, leaving .gitignore as it is"
    OFF = "off"
    STATUS = "status"


_HELP = {
    GitCommand.ON_IGNORING: "Commit each write of this home, by who wrote it; .gitignore keeps .notebook/ out",
    GitCommand.ON: "Commit each write of this home, by who wrote it; .gitignore is not touched",
    GitCommand.OFF: "Stop committing writes (the repository and its commits stay as they are)",
    GitCommand.STATUS: "Whether git is on, the repository, and whether a commit is pending",
}


def git_commands(app: App[None], home: Path) -> Iterator[SystemCommand]:
    """The palette's ``Git: …`` commands for ``home``."""
    for command in GitCommand:
        yield SystemCommand(f"Git: {command.value}", _HELP[command], partial(run_git_command, app, home, command))


def run_git_command(app: App[None], home: Path, command: GitCommand) -> None:
    """Run ``command`` in a worker; its answer is a notice (an error's in red). A home inside another
    repository is asked about first: committed there only on the person's yes."""
    run_once(
        app,
        "git-setting",
        partial(_answer, home, command),
        done=partial(_answered, app, home, command),
        failed=lambda words: _say(app, (words, True)),
    )


def _say(app: App[None], answer: tuple[str, bool]) -> None:
    words, is_error = answer
    app.notify(words, title="git", severity="error" if is_error else "information", markup=False)


def _answered(app: App[None], home: Path, command: GitCommand, answer: tuple[str, bool] | Path) -> None:
    if not isinstance(answer, Path):
        _say(app, answer)
        return

    def chosen(yes: bool | None) -> None:
        if not yes:
            _say(app, (f"git is still off: {home} is not committed in {answer}. Nothing changed", False))
            return
        job = partial(_turn_on, home, command, answer)
        run_once(app, "git-setting", job, done=partial(_say, app), failed=lambda words: _say(app, (words, True)))

    app.push_screen(GitRepoScreen(home, answer), chosen)


def _answer(home: Path, command: GitCommand) -> tuple[str, bool] | Path:
    """What ``command`` did or says, and whether it was refused; or the other repository the home is in, to ask
    about first. Off the event loop (git runs here)."""
    from notebook_app.core.record.git.commit import git_setting  # lazy: the write path
    from notebook_app.core.record.git.mode import git_off, git_status, other_repository  # lazy: the write path

    if command is GitCommand.STATUS:
        return git_status(home).words(), False
    if command is GitCommand.OFF:
        result = git_off(home, by=NOTEBOOK)
        return result.output, result.is_error
    other = other_repository(home)
    on, repo = git_setting(home)
    if other is not None and not (on and repo is not None and Path(repo).resolve() == other.resolve()):
        return other  # never chosen for the person: asked
    return _turn_on(home, command, other)


def _turn_on(home: Path, command: GitCommand, repo: Path | None) -> tuple[str, bool]:
    from notebook_app.core.record.git.mode import git_on  # lazy: the write path

    result = git_on(home, by=NOTEBOOK, repo=str(repo) if repo is not None else None,
                    add_ignore=command is GitCommand.ON_IGNORING)  # fmt: skip
    return result.output, result.is_error
