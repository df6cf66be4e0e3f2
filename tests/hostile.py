"""Hostile bootstrap files, made for real: what people's homes really hold.

Each maker puts one kind of file that cannot load at a path and returns the
words the core must name it with. Tests of the core, the CLI and the MCP
server share them, so every surface is held to the same message.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path

from notebook_app.core.home.files import FileStatus

REPO = Path(__file__).resolve().parents[1]
NOT_LOADED = "; the session does not load it"


def fifo(path: Path) -> tuple[FileStatus, str]:
    """A named pipe with no writer: opening it to read would block forever."""
    os.mkfifo(path)
    return FileStatus.SPECIAL, f"{path.name} is a FIFO (named pipe), not a regular file{NOT_LOADED}"


def link_loop(path: Path) -> tuple[FileStatus, str]:
    """A symbolic link to itself: opening it fails with ELOOP."""
    path.symlink_to(path.name)
    return (
        FileStatus.LINK_LOOP,
        f"{path.name} is a symbolic link loop ({path.name} → {path.name}): it never reaches a file{NOT_LOADED}",
    )


def link_to_dev_zero(path: Path) -> tuple[FileStatus, str]:
    """A link to an endless device: reading it would never end."""
    path.symlink_to("/dev/zero")
    return (
        FileStatus.SPECIAL,
        f"{path.name} is a character device (through a symbolic link to /dev/zero), not a regular file{NOT_LOADED}",
    )


def directory(path: Path) -> tuple[FileStatus, str]:
    path.mkdir()
    (path / "inside.md").write_text("- not a bootstrap file\n")
    return FileStatus.DIRECTORY, f"{path.name} is a directory, not a file{NOT_LOADED}"


def dangling_link(path: Path) -> tuple[FileStatus, str]:
    path.symlink_to("nowhere.md")
    return (
        FileStatus.DANGLING_LINK,
        f"{path.name} is a dangling symbolic link to nowhere.md: nothing is there{NOT_LOADED}",
    )


MAKERS: dict[str, Callable[[Path], tuple[FileStatus, str]]] = {
    "fifo": fifo,
    "link loop": link_loop,
    "link to /dev/zero": link_to_dev_zero,
    "directory": directory,
    "dangling link": dangling_link,
}
"""Every kind that root cannot read past either; an unreadable file needs :mod:`privileges`."""

UNREADABLE_MESSAGE = f"MEMORY.md cannot be read (Permission denied){NOT_LOADED}"

_COMPOSE = """
import json, sys
from notebook_app.core.home.soul import compose
composition = compose(sys.argv[1])
print(json.dumps({
    "soul": composition.soul,
    "found": composition.found,
    "skipped": [s.to_json() for s in composition.skipped],
}))
"""


def compose_in_a_child(home: Path, timeout: float = 60) -> dict[str, object]:
    """``compose(home)`` in a process of its own, so that a hang fails the test instead of stalling it."""
    done = subprocess.run(
        [sys.executable, "-c", _COMPOSE, str(home)],
        capture_output=True,
        text=True,
        cwd=REPO,
        timeout=timeout,
        check=True,
    )
    return json.loads(done.stdout)
