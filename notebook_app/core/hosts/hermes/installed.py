"""Which Hermes is installed, from its files alone (issue 36): ``hermes`` on PATH, its interpreter, its metadata.

NousResearch/hermes-agent's ``scripts/install.sh`` (read at commit 0022da90) clones the project into
``$HERMES_HOME/hermes-agent`` (``/usr/local/lib/hermes-agent`` for root), makes a virtual environment
``venv/`` there, installs the project into it (its ``pyproject.toml``, at 00067189, names the distribution
``hermes-agent``) and links ``~/.local/bin/hermes`` (``/usr/local/bin/hermes``) to ``venv/bin/hermes``, a
console script whose ``#!`` line names the environment's ``bin/python``. So: ``hermes`` followed, its
shebang's interpreter, that environment's ``lib/python*/site-packages/hermes_agent-*.dist-info/METADATA`` and
its ``Version:``. Where no metadata says (a shebang through ``env``, a pip that wrote none), the install
folder above the script: the checkout's own ``pyproject.toml``. ``hermes`` is never run.
"""

from __future__ import annotations

import tomllib
from collections.abc import Mapping
from pathlib import Path

from notebook_app.core.home.remembered import state_folder
from notebook_app.core.hostbase.installed import (
    VERSION,
    WALK_LIMIT,
    Deadline,
    Installed,
    detect,
    dist_info_version,
    shebang,
    site_packages,
    small_file,
)

DISTRIBUTION = "hermes-agent"
"""The Python distribution that installs ``hermes``."""


def read_hermes(executable: Path, target: Path, deadline: Deadline) -> tuple[str, str] | None:
    """(version, where it was read) of the ``hermes`` at ``executable``, which leads to ``target``."""
    interpreter = shebang(target)
    for folder in site_packages(interpreter) if interpreter is not None else ():
        found = dist_info_version(folder, DISTRIBUTION, deadline)
        if found is not None:
            version, metadata = found
            return version, f"{metadata} (the {DISTRIBUTION} installed for {interpreter})"
    return _checkout(target, deadline)


def _checkout(target: Path, deadline: Deadline) -> tuple[str, str] | None:
    """The version in the ``pyproject.toml`` of the ``hermes-agent`` checkout ``target`` lies in."""
    folder = target.parent
    for _ in range(WALK_LIMIT):
        if deadline.passed:
            return None
        data = small_file(folder / "pyproject.toml")
        if data is not None:
            try:
                project = tomllib.loads(data.decode("utf-8")).get("project", {})
            except (UnicodeDecodeError, tomllib.TOMLDecodeError):
                return None
            if not isinstance(project, dict):
                return None
            version = project.get("version")
            if project.get("name") != DISTRIBUTION or not isinstance(version, str) or not VERSION.fullmatch(version):
                return None
            return version, f"{folder / 'pyproject.toml'} (the {DISTRIBUTION} install folder)"
        if folder.parent == folder:
            return None
        folder = folder.parent
    return None


def hermes_installed(host: str, env: Mapping[str, str]) -> Installed | None:
    """Hermes as installed (``hermes`` on ``env``'s PATH), cached in the user's state folder."""
    return detect(host, "hermes", env, read_hermes, state=state_folder())
