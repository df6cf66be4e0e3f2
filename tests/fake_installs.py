"""Hosts installed as their installers lay them out, in a test's folder, each executable a script that leaves a
marker file if anything runs it (detection must only read files, issue 36).

- Claude Code's native installer: ``~/.local/bin/claude`` a link to ``~/.local/share/claude/versions/<V>``.
- An npm package (``@anthropic-ai/claude-code``, ``openclaw``) installed globally: ``<prefix>/bin/<command>`` a
  relative link to ``<prefix>/lib/node_modules/<package>/<bin>``, the package's ``package.json`` beside it.
- Hermes's ``scripts/install.sh``: ``~/.local/bin/hermes`` a link to ``~/.hermes/hermes-agent/venv/bin/hermes``,
  a console script whose ``#!`` names the venv's ``bin/python``, and ``hermes_agent-<V>.dist-info`` in the venv's
  ``lib/python3.X/site-packages``.
"""

from __future__ import annotations

import json
import os
import sys
from pathlib import Path


def _script(path: Path, marker: Path, *, shebang: str = "/bin/sh") -> Path:
    path.parent.mkdir(parents=True, exist_ok=True)
    if Path(shebang).name.startswith("python"):
        body = f"open({str(marker)!r}, 'w').write('ran')\n"
    else:
        body = f"touch '{marker}'\n"
    path.write_text(f"#!{shebang}\n{body}")
    path.chmod(0o755)
    return path


def claude_native(home: Path, version: str, marker: Path) -> Path:
    """``~/.local/bin/claude`` → ``~/.local/share/claude/versions/<version>``; returns the ``bin`` folder."""
    target = _script(home / ".local" / "share" / "claude" / "versions" / version, marker)
    link = home / ".local" / "bin" / "claude"
    link.parent.mkdir(parents=True, exist_ok=True)
    link.symlink_to(os.path.relpath(target, link.parent))
    return link.parent


def npm_global(prefix: Path, package: str, version: str, command: str, bin_file: str, marker: Path) -> Path:
    """``npm install -g <package>``'s layout under ``prefix``; returns ``<prefix>/bin``."""
    folder = prefix / "lib" / "node_modules" / package
    target = _script(folder / bin_file, marker)
    (folder / "package.json").write_text(
        json.dumps({"name": package, "version": version, "bin": {command: bin_file}}), encoding="utf-8"
    )
    link = prefix / "bin" / command
    link.parent.mkdir(parents=True, exist_ok=True)
    link.symlink_to(os.path.relpath(target, link.parent))
    return link.parent


def hermes_install(home: Path, version: str, marker: Path) -> Path:
    """Hermes's installer's layout in ``home``; returns ``~/.local/bin``."""
    checkout = home / ".hermes" / "hermes-agent"
    venv = checkout / "venv"
    python = venv / "bin" / "python"
    python.parent.mkdir(parents=True, exist_ok=True)
    python.symlink_to(sys.executable)
    script = _script(venv / "bin" / "hermes", marker, shebang=str(python))
    info = venv / "lib" / "python3.11" / "site-packages" / f"hermes_agent-{version}.dist-info"
    info.mkdir(parents=True)
    (info / "METADATA").write_text(f"Metadata-Version: 2.4\nName: hermes-agent\nVersion: {version}\n\nHermes.\n")
    link = home / ".local" / "bin" / "hermes"
    link.parent.mkdir(parents=True, exist_ok=True)
    link.symlink_to(script)
    return link.parent
