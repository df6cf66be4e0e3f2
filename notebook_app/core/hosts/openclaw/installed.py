"""Which OpenClaw is installed, from its files alone (issue 36): ``openclaw`` on PATH, and its package.

OpenClaw ships as the npm package ``openclaw``, whose ``package.json`` names ``"bin": {"openclaw":
"openclaw.mjs"}`` (openclaw/openclaw's own ``package.json``, read at commit 485a0e78): a global install links
``<prefix>/bin/openclaw`` to ``<prefix>/lib/node_modules/openclaw/openclaw.mjs``, so the link followed and a
walk up finds the package's ``package.json`` and its version. ``openclaw`` is never run.
"""

from __future__ import annotations

from collections.abc import Mapping
from pathlib import Path

from notebook_app.core.home.remembered import state_folder
from notebook_app.core.hostbase.installed import Deadline, Installed, detect, package_version

PACKAGE = "openclaw"
"""The npm package that installs ``openclaw``."""


def read_openclaw(executable: Path, target: Path, deadline: Deadline) -> tuple[str, str] | None:
    """(version, where it was read) of the ``openclaw`` at ``executable``, which leads to ``target``."""
    found = package_version(target, PACKAGE, deadline)
    if found is None:
        return None
    version, folder = found
    return version, f"{folder / 'package.json'} (npm package {PACKAGE})"


def openclaw_installed(host: str, env: Mapping[str, str]) -> Installed | None:
    """OpenClaw as installed (``openclaw`` on ``env``'s PATH), cached in the user's state folder."""
    return detect(host, "openclaw", env, read_openclaw, state=state_folder())
