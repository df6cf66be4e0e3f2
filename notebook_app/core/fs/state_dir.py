"""The notebook's state folder in a home, ``.notebook/``: made on the first write, never followed out of the home.

The event log, its snapshots and the agent-session records all live here.
Viewing a home never makes it; the first recorded write does, with mode
0700 (it can hold what agents and people wrote, secrets included). A
``.notebook`` that is a symbolic link or not a directory is refused, never
followed: records are kept only inside the home.
"""

from __future__ import annotations

import os
import stat
from pathlib import Path

STATE_DIR = ".notebook"
"""The notebook's state folder inside a home; never a bootstrap file."""

STATE_MODE = 0o700


class StateDirError(Exception):
    """The state folder cannot be used; the message says why, in words."""


def real_directory(path: Path | str, *, create: bool, made: list[Path] | None = None) -> bool:
    """Whether ``path`` is a directory we may write in; make it (mode 0700) when ``create``.

    ``made`` collects a folder this call made, so a call that fails later can
    remove it again. Raises :class:`StateDirError` for a link or a non-folder.
    """
    try:
        info = os.lstat(path)
    except FileNotFoundError:
        if not create:
            return False
        try:
            os.mkdir(path, STATE_MODE)
        except FileExistsError:
            pass
        else:
            os.chmod(path, STATE_MODE)  # the umask must not widen it
            if made is not None:
                made.append(Path(path))
        info = os.lstat(path)
    if stat.S_ISLNK(info.st_mode):
        raise StateDirError(f"{path} is a symbolic link; session records are kept only inside the home")
    if not stat.S_ISDIR(info.st_mode):
        raise StateDirError(f"{path} is not a directory; session records cannot be kept there")
    return True


def state_problem(home: str | os.PathLike[str]) -> str | None:
    """Why ``home``'s ``.notebook`` cannot hold a history, in the
    words every shell shows; None when it can (or is absent)."""
    path = os.path.join(home, STATE_DIR)
    try:
        info = os.lstat(path)
    except OSError:
        return None
    if stat.S_ISLNK(info.st_mode):
        try:
            target = f" to {os.readlink(path)}"
        except OSError:
            target = ""
        return (
            f"{path} is a symbolic link{target}: the history is kept only inside "
            "the home, never through a link, so writes here are not recorded"
        )
    if not stat.S_ISDIR(info.st_mode):
        return f"{path} is not a directory: the history cannot be kept there, so writes here are not recorded"
    return None


def state_path(home: Path) -> Path:
    return home / STATE_DIR


def readable_state(home: Path) -> Path | None:
    """The state folder when it is a real folder, for readers; None otherwise (never raises)."""
    path = state_path(home)
    try:
        return path if stat.S_ISDIR(path.lstat().st_mode) else None
    except OSError:
        return None
