"""An OpenClaw workspace in git: the notebook asks once to keep its own files out, and writes only after a yes."""

from __future__ import annotations

import shutil
import subprocess
from pathlib import Path

import pytest
from notebook_pilot import SIZE, make_app, wait_until
from openclaw_homes import openclaw_workspace, user_of

from notebook_app.app.launch import _open_by_host
from notebook_app.app.screens.git_ignore import GitIgnoreScreen
from notebook_app.app.screens.main.screen import MainScreen

pytestmark = pytest.mark.skipif(shutil.which("git") is None, reason="git is not installed")

OLD_GITIGNORE = b"# the workspace's own\r\n*.bak"


@pytest.fixture
def workspace(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    work = openclaw_workspace(user_of(tmp_path, monkeypatch))
    subprocess.run(["git", "init", "-q", str(work)], check=True)
    return work


def question(app) -> str:
    return "".join(str(s.content) for s in app.screen.query("Static"))


def every_file(root: Path) -> dict[str, bytes]:
    return {str(p.relative_to(root)): p.read_bytes() for p in sorted(root.rglob("*")) if p.is_file()}


async def open_and_answer(work: Path, *keys: str) -> bool:
    """Open the workspace as the launch does, press ``keys`` at the question; whether it was asked."""
    where, notebook = _open_by_host(work)
    app = make_app(where)
    app._notebook = notebook
    async with app.run_test(size=SIZE) as pilot:
        await wait_until(pilot, lambda: app.main_screen.state is not None, "the home to load")
        await app.workers.wait_for_complete()
        await pilot.pause()
        asked = isinstance(app.screen, GitIgnoreScreen)
        if asked:
            await pilot.press(*keys)
            await wait_until(pilot, lambda: isinstance(app.screen, MainScreen), "the question to close")
            await app.workers.wait_for_complete()
            await pilot.pause()
    return asked


async def test_yes_appends_our_paths_to_the_gitignore_keeping_its_old_bytes(workspace: Path) -> None:
    (workspace / ".gitignore").write_bytes(OLD_GITIGNORE)
    assert await open_and_answer(workspace, "y")
    assert (workspace / ".gitignore").read_bytes() == OLD_GITIGNORE + b"\r\n.notebook/\r\n.memory.journal\r\n"
    assert not await open_and_answer(workspace, "y")  # git ignores them now: nothing to ask


async def test_the_question_shows_while_nothing_is_written(workspace: Path) -> None:
    before = every_file(workspace)
    where, notebook = _open_by_host(workspace)
    app = make_app(where)
    app._notebook = notebook
    async with app.run_test(size=SIZE) as pilot:
        await wait_until(pilot, lambda: isinstance(app.screen, GitIgnoreScreen), "the question")
        await wait_until(pilot, lambda: ".notebook/ and .memory.journal" in question(app), "its words composed")
        assert every_file(workspace) == before
    assert every_file(workspace) == before  # closed unanswered: nothing written


async def test_no_is_remembered_across_two_runs_and_writes_nothing_in_the_workspace(workspace: Path) -> None:
    before = every_file(workspace)
    assert await open_and_answer(workspace, "n")
    assert not await open_and_answer(workspace, "y")
    assert every_file(workspace) == before
    assert not (workspace / ".gitignore").exists()


async def test_escape_asks_again_at_the_next_open(workspace: Path) -> None:
    assert await open_and_answer(workspace, "escape")
    assert await open_and_answer(workspace, "escape")
    assert not (workspace / ".gitignore").exists()


async def test_a_workspace_in_no_repository_is_not_asked(workspace: Path) -> None:
    shutil.rmtree(workspace / ".git")
    assert not await open_and_answer(workspace, "y")
