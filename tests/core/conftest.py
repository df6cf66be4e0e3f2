"""Fixtures for the core: a fresh persona home in a temp directory."""

from __future__ import annotations

from pathlib import Path

import pytest
from home_bytes import files_of
from unprivileged import open_home as open_home  # a fixture: a home the unprivileged user can reach and write


@pytest.fixture
def home(tmp_path: Path) -> Path:
    path = tmp_path / "home"
    path.mkdir()
    return path


@pytest.fixture
def snapshot_files():
    return files_of
