"""The CLI as a person runs it, in a process of its own, with its state and config folders in the test's tmp.

Shared by the CLI tests that read host configs: an OpenClaw config that is not there, so the user's own never
leaks into a test, and ``home`` as ``$HOME`` when a test needs one (Claude Code's user files).
"""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path


def run(
    *args: str, tmp: Path, home: Path | None = None, env: dict[str, str] | None = None, stdin: str | None = None
) -> subprocess.CompletedProcess[str]:
    """``persona-notebook ARGS``; ``env`` adds to its environment (``TZ``), ``stdin`` is its input (not a terminal)."""
    environment = {
        **os.environ,
        "XDG_CONFIG_HOME": str(tmp / "config"),
        "XDG_STATE_HOME": str(tmp / "state"),
        "OPENCLAW_CONFIG_PATH": str(tmp / "no-openclaw.json"),
        "GIT_CEILING_DIRECTORIES": str(tmp),  # a repository above the test's folder is never the home's
        **({"HOME": str(home)} if home is not None else {}),
        **(env or {}),
    }
    return subprocess.run(
        [sys.executable, "-m", "notebook_app", *args],
        capture_output=True,
        text=True,
        env=environment,
        timeout=60,
        input=stdin if stdin is not None else "",
    )
