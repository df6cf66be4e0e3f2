"""The real git command for tests: skipped where it is missing, and run with neither the user's nor the system's
config, so a developer's hooks, signing or default branch never change what a test sees."""

from __future__ import annotations

import shutil
import subprocess
from pathlib import Path

import pytest

NEEDS_GIT = pytest.mark.skipif(shutil.which("git") is None, reason="these tests run the real git command")


def plain_git(monkeypatch: pytest.MonkeyPatch, scratch: Path) -> None:
    """Point git at an absent global config and no system config, for this test only."""
    monkeypatch.setenv("GIT_CONFIG_GLOBAL", str(scratch / "no-gitconfig"))
    monkeypatch.setenv("GIT_CONFIG_NOSYSTEM", "1")


def git(repo: Path, *args: str) -> str:
    """``git -C repo args…``'s output; a failing git fails the test."""
    return subprocess.run(["git", "-C", str(repo), *args], capture_output=True, text=True, check=True).stdout
