"""The home's ``git`` setting: turning it on (``git init`` when needed), off, and what it is now (issue 26).

Turning it on or off is a recorded ``setting`` change (:func:`.settings.change_setting`);
what it does to each write lives in :mod:`..store.git_commit`. A home inside
someone else's work tree (a project, a workspace already in git) is never
committed into without that repository named (``repo``): it is refused in
words, and nothing changes. ``.gitignore`` lines are added only when the
caller says the person said yes (``add_ignore``).
"""

from __future__ import annotations

import os
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path

from notebook_app.core.home.git_ignore import add_to_gitignore, not_ignored, run_git
from notebook_app.core.home.reading import TEMP_PREFIX, TEMP_SUFFIX
from notebook_app.core.home.soul import home_path
from notebook_app.core.record.log.actor import Actor
from notebook_app.core.record.settings import SettingResult, change_setting
from notebook_app.core.record.git.commit import (
    COMMIT_TIMEOUT,
    author,
    commit_paths,
    git_setting,
    pending_files,
    repo_root,
)

TEMP_LINE = f"{TEMP_PREFIX}*{TEMP_SUFFIX}"
"""The ``.gitignore`` line for a rewrite's temp files (the home is locked as a folder: there is no lock file)."""
OWN = "."
"""``git_repo`` for a home that is its repository's top."""


def to_ignore(home: str | os.PathLike[str]) -> tuple[str, ...]:
    """The ``.gitignore`` lines git would still need for the notebook's own files here (none: nothing to ask)."""
    root = home_path(home)
    missing = list(not_ignored(root))
    probe = f"{TEMP_PREFIX}probe{TEMP_SUFFIX}"
    done = run_git(root, "check-ignore", "--no-index", "-q", "--", probe, timeout=COMMIT_TIMEOUT)
    if done is not None and done.returncode == 1:  # 1: not ignored (0 ignored, 128 no work tree or no answer)
        missing.append(TEMP_LINE)
    return tuple(missing)


def git_on(
    home: str | os.PathLike[str],
    *,
    by: Actor,
    repo: str | None = None,
    add_ignore: bool | Callable[[tuple[str, ...]], bool] = False,
) -> SettingResult:
    """Commit every recorded write of this home from now on; ``git init`` the home when it is in no work tree.

    ``add_ignore``: whether to add the missing ``.gitignore`` lines, or a question to ask with them (asked
    only once the home is known to be committed where it will be, and only when lines are missing).
    """
    root = Path(os.path.realpath(home_path(home)))
    top, problem = repo_root(root)
    if problem is not None:
        return SettingResult(f"{problem}; git is still off", is_error=True)
    said: list[str] = []
    if top is not None and os.path.realpath(top) != os.path.realpath(root):
        if repo is None:
            return SettingResult(
                f"{root} is inside the git repository {top}, which is not the home's own; "
                f"pass --repo {top} to commit this home's writes there. Nothing changed",
                is_error=True,
            )
        if os.path.realpath(home_path(repo)) != os.path.realpath(top):
            return SettingResult(
                f"--repo {repo} is not the repository {root} is in ({top}); nothing changed", is_error=True
            )
        where = str(top)
    elif top is None:
        done = run_git(root, "init", "--quiet", timeout=COMMIT_TIMEOUT)
        if done is None or done.returncode != 0:
            return SettingResult(
                f"git init in {root} failed ({(done.stderr if done else '').strip()}); git is still off", True
            )
        said.append(f"made a git repository in {root} (git init)")
        where = OWN
    else:
        where = OWN
    lines = to_ignore(root)
    if lines and not (add_ignore(lines) if callable(add_ignore) else add_ignore):
        said.append(
            f"left its .gitignore as it is: {', '.join(lines)} are not in it, so a `git add` of the whole home "
            "would take the notebook's own files (its commits never do)"
        )
    elif lines:
        problem = add_to_gitignore(root, lines)
        said.append(f"added {', '.join(lines)} to its .gitignore" if problem is None else problem)
        if problem is None:  # committed by itself, so it never rides along in a write's commit
            top = top or root
            path = os.path.relpath(os.path.join(os.path.realpath(root), ".gitignore"), os.path.realpath(top))
            failed = commit_paths(top, [path], author(by), "git on: .gitignore keeps the notebook's own files out")
            said.append("" if failed is None else f"the .gitignore was not committed ({failed})")
    said.append(
        f"git is on: each recorded write is committed in {top or root}, authored by who wrote it "
        "(never pushed, history never rewritten)"
    )
    return change_setting(root, {"git": True, "git_repo": where}, by=by, said="; ".join(filter(None, said)))


def other_repository(home: str | os.PathLike[str]) -> Path | None:
    """The repository ``home`` is inside when it is not the home's own top (``git on`` then needs it named)."""
    root = Path(os.path.realpath(home_path(home)))
    top, _ = repo_root(root)
    return None if top is None or os.path.realpath(top) == str(root) else top


def git_off(home: str | os.PathLike[str], *, by: Actor) -> SettingResult:
    """Stop committing writes; the repository and its commits stay as they are."""
    return change_setting(home, {"git": False}, by=by, said="git is off: writes are no longer committed")


@dataclass(frozen=True)
class GitStatus:
    on: bool
    repo: str | None
    """The repository's top folder (None: the home is in none, or git cannot say)."""
    pending: tuple[str, ...] = ()
    """Files of ours whose commit failed and waits for the next write."""
    changed: tuple[str, ...] = ()
    """Files in the home git sees changed since the last commit (ours, or someone else's)."""
    problems: tuple[str, ...] = field(default_factory=tuple)

    def words(self) -> str:
        lines = [f"git is {'on' if self.on else 'off'}" + (f"; repository: {self.repo}" if self.repo else "")]
        if self.pending:
            lines.append("a commit is pending (a failed commit, made with the next write): " + ", ".join(self.pending))
        elif self.changed:
            lines.append("changed since the last commit: " + ", ".join(self.changed))
        elif self.on:
            lines.append("no commit is pending")
        return "\n".join([*lines, *self.problems])

    def to_json(self) -> dict[str, object]:
        return {
            "git": self.on,
            "repo": self.repo,
            "pending": bool(self.pending or self.changed),
            "failed_commits": list(self.pending),
            "changed": list(self.changed),
            "problems": list(self.problems),
        }


def git_status(home: str | os.PathLike[str]) -> GitStatus:
    """On or off, the repository, and whether a commit is pending. Reads only: nothing is written."""
    root = home_path(home)
    on, _ = git_setting(root)
    top, problem = repo_root(root)
    if top is None:
        return GitStatus(on, None, tuple(pending_files(root)), problems=(problem,) if problem else ())
    done = run_git(root, "status", "--porcelain", "-z", "--untracked-files=all", "--", ".", timeout=COMMIT_TIMEOUT)
    changed: list[str] = []
    if done is not None and done.returncode == 0:
        real = os.path.realpath(root)
        for entry in done.stdout.split("\0"):
            if len(entry) > 3 and not entry.startswith("R"):  # a rename's second path follows it: skipped
                path = os.path.relpath(os.path.join(os.path.realpath(top), entry[3:]), real)
                if not _ours(path):
                    changed.append(path)
    return GitStatus(on, str(top), tuple(pending_files(root)), tuple(changed))


def _ours(path: str) -> bool:
    """The notebook's own bookkeeping, never a file a person keeps (kept out of what is said changed)."""
    name = Path(path).name
    return path.startswith(".notebook") or name == ".memory.journal" or name.startswith(TEMP_PREFIX)
