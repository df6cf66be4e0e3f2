"""Homes for the portable tests: the demo persona, homes of given entries, and reading back what a plan wrote."""

from __future__ import annotations

import os
import shutil
from collections.abc import Mapping
from pathlib import Path

from notebook_app.portable.model import Persona, Plan, Problem
from notebook_app.portable.reading import read_persona

DEMO = Path(__file__).resolve().parents[2] / "notebook_app" / "demo_home"
HOSTS = ("toolnexus", "openclaw", "hermes", "claude-code")


def env_for(tmp: Path) -> Mapping[str, str]:
    """Claude Code's config folder in the test's tmp, so no move touches the user's ``~/.claude``."""
    return {**os.environ, "CLAUDE_CONFIG_DIR": str(tmp / "claude-config"), "HOME": str(tmp / "user")}


def demo_home(tmp: Path) -> Path:
    home = tmp / "demo"
    shutil.copytree(DEMO, home)
    return home


def toolnexus_home(tmp: Path, memory: list[str], user: list[str] | None = None, name: str = "src") -> Path:
    home = tmp / name
    home.mkdir()
    (home / "SOUL.md").write_text("# Soul\n\nCalm.\n")
    (home / "MEMORY.md").write_text("".join(f"- {e}\n" for e in memory))
    if user is not None:
        (home / "USER.md").write_text("".join(f"- {e}\n" for e in user))
    return home


def read(home: Path, host: str, env: Mapping[str, str]) -> Persona:
    persona = read_persona(home, host, env=env)
    assert not isinstance(persona, Problem), persona
    return persona


def entries_of(persona: Persona, name: str) -> list[str]:
    file = persona.file(name)
    return [e.text for e in file.entries] if file is not None else []


def files_under(*folders: Path) -> set[Path]:
    """Every file below the folders (what a write left there)."""
    found: set[Path] = set()
    for folder in folders:
        if folder.is_dir():
            found |= {p for p in folder.rglob("*") if p.is_file()}
    return found


def planned(plan: Plan) -> dict[Path, str]:
    return {plan.path_of(f): f.text for f in plan.files}
