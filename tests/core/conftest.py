"""Fixtures for the core: a fresh persona home in a temp directory."""

from __future__ import annotations

from pathlib import Path

import pytest
from unprivileged import open_home as open_home  # a fixture: a home the unprivileged user can reach and write


@pytest.fixture
def home(tmp_path: Path) -> Path:
    path = tmp_path / "home"
    path.mkdir()
    return path


def files_of(root: Path) -> dict[str, bytes]:
    """Every file under ``root`` with its bytes, to prove nothing changed."""
    return {
        str(p.relative_to(root)): p.read_bytes() for p in sorted(root.rglob("*")) if p.is_file() and not p.is_symlink()
    }


@pytest.fixture
def snapshot_files():
    return files_of
