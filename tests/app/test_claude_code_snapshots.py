"""A Claude Code project at the sizes people use: 80×24, 100×30 and 160×45.

A small fixed project under a ``HOME`` of its own (CLAUDE.md, ``.claude/rules/lint.md``, the user's
``~/.claude/CLAUDE.md``) and its auto-memory folder (MEMORY.md and a topic file, debugging.md), opened as the launch
path opens it: the chain read-only above MEMORY.md, the header naming the project. Update with --snapshot-update,
then look at the SVGs.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from notebook_pilot import make_app, settled

from notebook_app.app.app import project_label
from notebook_app.app.view_model.notebook import Notebook
from notebook_app.core.hosts.claude_code.home import memory_dir
from notebook_app.core.hosts.opening.choose import open_home

SIZES = [(80, 24), (100, 30), (160, 45)]
IDS = ["80x24", "100x30", "160x45"]


def fixed_claude_project(user: Path) -> Path:
    root = user / "proj"
    (root / ".claude" / "rules").mkdir(parents=True)
    (user / ".claude").mkdir(parents=True, exist_ok=True)
    (user / ".claude" / "CLAUDE.md").write_text("I prefer short answers.\n")
    (root / "CLAUDE.md").write_text("# Project\n\nUse make test. Keep diffs small.\n")
    (root / ".claude" / "rules" / "lint.md").write_text("Run ruff before committing.\n")
    memory = memory_dir(root, {"HOME": str(user)})
    memory.mkdir(parents=True)
    (memory / "MEMORY.md").write_text("- The build uses make\n- Tests live in tests/\n- See debugging.md for flakes\n")
    (memory / "debugging.md").write_text("# Debugging\n\nRun the failing test with -x first.\n")
    return root


@pytest.mark.parametrize("size", SIZES, ids=IDS)
def test_a_claude_code_project_shows_its_claude_md_chain_then_its_memory(
    snap_compare, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, size: tuple[int, int]
) -> None:
    user = tmp_path / "user"
    user.mkdir()
    for name in ("HOME", "XDG_STATE_HOME", "XDG_DATA_HOME", "XDG_CONFIG_HOME"):
        monkeypatch.setenv(name, str(user if name == "HOME" else tmp_path / name.lower()))
    monkeypatch.delenv("CLAUDE_CONFIG_DIR", raising=False)
    root = fixed_claude_project(user)
    opening = open_home(root)  # as launch opens it: the host by its layout, the chain from claude_code_load
    assert opening.host == "claude-code" and len(opening.files.host_files) == 3
    app = make_app(opening.entry_home)
    app.home_label = project_label(opening.spec, opening.root, opening.entry_home)
    app._notebook = Notebook(opening.entry_home, files=opening.files, opened_as=opening.spec, host_root=opening.root)
    assert snap_compare(app, terminal_size=size, run_before=settled)
