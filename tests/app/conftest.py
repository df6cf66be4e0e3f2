"""Fixtures for the app: real persona homes in temp dirs, the app pinned for tests.

Nothing here touches the person's real config, data or state folders: XDG paths
point into the test's temp dir, and colour/theme variables are cleared.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from notebook_pilot import MEMORY, SOUL, USER


@pytest.fixture(autouse=True)
def quiet_environment(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    for name in ("NO_COLOR", "TEXTUAL_THEME", "TEXTUAL", "FORCE_COLOR"):
        monkeypatch.delenv(name, raising=False)
    monkeypatch.setenv("XDG_CONFIG_HOME", str(tmp_path / "xdg-config"))
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path / "xdg-data"))
    monkeypatch.setenv("XDG_STATE_HOME", str(tmp_path / "xdg-state"))


@pytest.fixture
def home(tmp_path: Path) -> Path:
    path = tmp_path / "home"
    path.mkdir()
    (path / "SOUL.md").write_text(SOUL)
    (path / "USER.md").write_text(USER)
    (path / "MEMORY.md").write_text(MEMORY)
    return path
