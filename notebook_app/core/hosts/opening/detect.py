"""Which hosts' layouts a folder fits, each with its reason in words (issue 22, item 1).

- Hermes: the folder has ``memories/`` and ``config.yaml`` or SOUL.md; a folder
  named ``memories`` whose parent has ``config.yaml`` or SOUL.md is that parent's.
- OpenClaw: its config makes the folder an agent's workspace
  (:mod:`.openclaw_home`), or the folder's parent holds ``openclaw.json``.
- Claude Code: a project with CLAUDE.md (or ``.claude/CLAUDE.md``) whose
  auto-memory folder (:mod:`.claude_home`) exists.

Reads, never writes; a folder that cannot be looked into fits nothing.
"""

from __future__ import annotations

import os
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path

from notebook_app.core.home.layout import HERMES_FOLDER
from notebook_app.core.hosts.opening import claude_home
from notebook_app.core.hosts.opening.openclaw_home import naming_agents


@dataclass(frozen=True)
class Fit:
    """One host whose layout the folder fits: the folder it would open, and why, in words."""

    host: str
    root: Path
    reason: str
    agent: str | None = None


def _is_dir(path: Path) -> bool:
    try:
        return path.is_dir()
    except OSError:
        return False


def _is_file(path: Path) -> bool:
    try:
        return path.is_file()
    except OSError:
        return False


def hermes_marks(folder: Path) -> str | None:
    """What makes ``folder`` a Hermes home, as a reason says it (``memories/ and config.yaml``); None: it is none."""
    found = [name for name in ("config.yaml", "SOUL.md") if _is_file(folder / name)]
    if not found:
        return None
    said = [f"{HERMES_FOLDER}/", *found]
    return ", ".join(said[:-1]) + " and " + said[-1]


def memories_parent(folder: Path) -> Path | None:
    """The Hermes home whose ``memories/`` the folder is, or None."""
    name = folder.name or os.path.basename(os.path.abspath(folder))
    if name != HERMES_FOLDER:
        return None
    parent = folder.parent if folder.name else Path(os.path.abspath(folder)).parent
    return parent if hermes_marks(parent) else None


def hermes_fit(folder: Path) -> Fit | None:
    if _is_dir(folder / HERMES_FOLDER) and (marks := hermes_marks(folder)):
        return Fit("hermes", folder, f"opened as Hermes: the folder has {marks}")
    if (parent := memories_parent(folder)) is not None:
        marks = hermes_marks(parent)
        said = f"opened the Hermes home {parent}, whose {HERMES_FOLDER}/ folder was given: it has {marks}"
        return Fit("hermes", parent, said)
    return None


def openclaw_fit(folder: Path, env: Mapping[str, str], config: str | os.PathLike[str] | None) -> Fit | None:
    named = naming_agents(folder, env, config)
    if named.workspace is not None:
        return Fit("openclaw", folder, f"opened as OpenClaw: {named.reason}", named.agent)
    parent = folder.parent if folder.name else Path(os.path.abspath(folder)).parent
    if _is_file(parent / "openclaw.json"):
        return Fit("openclaw", folder, f"opened as OpenClaw: its parent {parent} holds openclaw.json")
    return None


def claude_code_fit(folder: Path, env: Mapping[str, str]) -> Fit | None:
    instructions = claude_home.instruction_file(folder)
    if instructions is None:
        return None
    memory = claude_home.memory_dir(folder, env)
    if not _is_dir(memory):
        return None
    reason = f"opened as Claude Code: the project has {instructions} and its auto memory {memory}"
    return Fit("claude-code", folder, reason)


def layout_fits(folder: Path, env: Mapping[str, str], openclaw_config: str | os.PathLike[str] | None) -> list[Fit]:
    """Every host whose layout ``folder`` fits, in the order Hermes, OpenClaw, Claude Code."""
    found = (hermes_fit(folder), openclaw_fit(folder, env, openclaw_config), claude_code_fit(folder, env))
    return [fit for fit in found if fit is not None]
