"""Whether a folder could be some host's home, by a few looks at the disk: the app's start loads no host rules else.

Opening a folder by its host (:func:`..hosts.open_home`) loads every host's
rules, some 70 ms of imports before the first frame. Most homes fit no host's
layout; this says, loading nothing, when the rules cannot find one: no
``memories/`` (Hermes), no CLAUDE.md (Claude Code), no ``openclaw.json`` beside
it or where OpenClaw keeps its config (OpenClaw), no host remembered for it. A
``True`` only means the rules must be asked. Reads, never writes.
"""

from __future__ import annotations

import os
from collections.abc import Mapping
from pathlib import Path

from notebook_app.core.home.remembered import remembered_host

CLUES = ("memories", "CLAUDE.md", ".claude/CLAUDE.md")
"""Entries whose presence in the folder makes it maybe a Hermes home or a Claude Code project."""


def _exists(path: Path) -> bool:
    try:
        return path.exists()
    except OSError:
        return False


def openclaw_configs(env: Mapping[str, str]) -> list[Path]:
    """Where OpenClaw may keep its config: ``$OPENCLAW_CONFIG_PATH``, ``$OPENCLAW_STATE_DIR/openclaw.json``,
    ``~/.openclaw/openclaw.json`` (``~`` being ``$OPENCLAW_HOME`` when set; see ``hosts/opening/openclaw_home``)."""
    home = env.get("OPENCLAW_HOME") or env.get("HOME") or os.path.expanduser("~")
    places = [Path(os.path.expanduser(home)) / ".openclaw" / "openclaw.json"]
    if state := env.get("OPENCLAW_STATE_DIR"):
        places.insert(0, Path(os.path.expanduser(state)) / "openclaw.json")
    if given := env.get("OPENCLAW_CONFIG_PATH"):
        places.insert(0, Path(os.path.expanduser(given)))
    return places


def may_be_host_home(folder: Path, env: Mapping[str, str] = os.environ, state: Path | None = None) -> bool:
    """False when no host's layout can fit ``folder`` and no host is remembered for it; True: ask the rules."""
    if folder.name == "memories" or any(_exists(folder / clue) for clue in CLUES):
        return True
    if _exists(folder.parent / "openclaw.json") or env.get("OPENCLAW_WORKSPACE_DIR"):
        return True
    if any(_exists(place) for place in openclaw_configs(env)):
        return True
    return remembered_host(folder, state) is not None
