"""Which Claude Code is installed, from its files alone (issue 36): ``claude`` on PATH, and what it links to.

Two layouts. The native installer keeps each release as one file,
``~/.local/share/claude/versions/<VERSION>``, and points ``~/.local/bin/claude`` at the one in use: the
version is that file's name (the layout issue 36 records from the installer; each update adds a file and
moves the link). The npm package ``@anthropic-ai/claude-code`` links ``claude`` into the npm prefix's
``bin/`` from inside its package folder: the version is in that package's ``package.json``, found by
following the link and walking up (the layout npm gives every package's ``bin``). ``claude`` is never run.
"""

from __future__ import annotations

from collections.abc import Mapping
from pathlib import Path

from notebook_app.core.home.remembered import state_folder
from notebook_app.core.hostbase.installed import VERSION, Deadline, Installed, detect, package_version

PACKAGE = "@anthropic-ai/claude-code"
"""The npm package that installs ``claude``."""


def read_claude(executable: Path, target: Path, deadline: Deadline) -> tuple[str, str] | None:
    """(version, where it was read) of the ``claude`` at ``executable``, which leads to ``target``."""
    if target.parent.name == "versions" and VERSION.fullmatch(target.name) and target.is_file():
        return target.name, f"the native installer's version file {target}"
    found = package_version(target, PACKAGE, deadline)
    if found is None:
        return None
    version, folder = found
    return version, f"{folder / 'package.json'} (npm package {PACKAGE})"


def claude_code_installed(host: str, env: Mapping[str, str]) -> Installed | None:
    """Claude Code as installed (``claude`` on ``env``'s PATH), cached in the user's state folder."""
    return detect(host, "claude", env, read_claude, state=state_folder())
