"""An OpenClaw workspace as a person has one (2026.9.6 layout), for the app's tests and snapshots."""

from __future__ import annotations

from pathlib import Path

import pytest

WORKSPACE_FILES = {
    "AGENTS.md": "Read SOUL.md first.\n",
    "SOUL.md": "Calm, exact.\n",
    "IDENTITY.md": "- name: Wren\n- creature: a small brown bird\n",
    "USER.md": "- Sam likes short answers\n",
    "BOOTSTRAP.md": "First run: ask their name.\n",
    "TOOLS.md": "- rg\n",
    "MEMORY.md": "- ships on Fridays\n",
    "memory/2026-12-01.md": "- talked about the release\n",
    "memory/2026-12-02.md": "- fixed the watcher\n",
}


def user_of(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """A person's home folder and state of their own: OpenClaw's config is found from it."""
    user = tmp_path / "user"
    user.mkdir()
    for name in ("HOME", "XDG_STATE_HOME", "XDG_DATA_HOME", "XDG_CONFIG_HOME"):
        monkeypatch.setenv(name, str(user if name == "HOME" else tmp_path / name.lower()))
    for name in ("OPENCLAW_CONFIG_PATH", "OPENCLAW_STATE_DIR", "OPENCLAW_HOME", "OPENCLAW_WORKSPACE_DIR"):
        monkeypatch.delenv(name, raising=False)
    monkeypatch.setenv("GIT_CEILING_DIRECTORIES", str(tmp_path))  # a repository above the test's folder never counts
    return user


def openclaw_workspace(user: Path) -> Path:
    """``~/.openclaw/workspace`` for agent main and ``~/.openclaw/workspace-second`` for agent second."""
    state = user / ".openclaw"
    work = state / "workspace"
    (work / "memory").mkdir(parents=True)
    (state / "openclaw.json").write_text('{ agents: { list: [ { id: "main", default: true }, { id: "second" } ] } }')
    for name, text in WORKSPACE_FILES.items():
        (work / name).write_text(text)
    second = state / "workspace-second"
    second.mkdir()
    (second / "SOUL.md").write_text("The second agent: brisk.\n")
    (second / "MEMORY.md").write_text("- second agent's note\n")
    return work
