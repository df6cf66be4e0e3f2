"""Fixtures for the MCP server tests: a small persona home and a log for the server's stderr."""

from __future__ import annotations

from pathlib import Path

import pytest


@pytest.fixture
def home(tmp_path: Path) -> Path:
    path = tmp_path / "home"
    path.mkdir()
    (path / "SOUL.md").write_text("You are Kip, a careful archivist.\n", encoding="utf-8")
    (path / "USER.md").write_text("- name is Muthu\n", encoding="utf-8")
    (path / "MEMORY.md").write_text("- prefers metric units\n- café hours: 7–11\n", encoding="utf-8")
    return path


@pytest.fixture
def server_log(tmp_path: Path) -> Path:
    """Where the servers' stderr goes, so a failing test can show it."""
    return tmp_path / "server-stderr.log"
