"""Git in the notebook: the palette turns it on and off and says what is on; a failed commit is said once."""

from __future__ import annotations

from pathlib import Path

import pytest
from notebook_pilot import SIZE, make_app, started, wait_until
from real_git import NEEDS_GIT, git, plain_git

from notebook_app.app.workers import run_once
from notebook_app.core.record.log.actor import NOTEBOOK
from notebook_app.core.memory.tool import memory_tool
from notebook_app.core.record.settings import load_settings

pytestmark = NEEDS_GIT


@pytest.fixture(autouse=True)
def no_user_git_config(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    plain_git(monkeypatch, tmp_path)


def said(app, title: str) -> list[str]:
    return [str(n.message) for n in app._notifications if n.title == title]


async def test_the_palette_turns_git_on_off_and_says_its_status(home: Path) -> None:
    app = make_app(home)
    async with app.run_test(size=SIZE) as pilot:
        await started(pilot)
        commands = {command.title: command for command in app.get_system_commands(app.screen)}
        assert {"Git: on, keeping the notebook's own files out", "Git: off", "Git: status"} <= set(commands)
        commands["Git: on, keeping the notebook's own files out"].callback()
        await wait_until(pilot, lambda: load_settings(home).git is True, "git on")
        await wait_until(pilot, lambda: any(w.startswith("made a git repository") for w in said(app, "git")), "said")
        assert ".notebook/" in (home / ".gitignore").read_text()
        commands["Git: status"].callback()
        await wait_until(pilot, lambda: any("git is on; repository:" in w for w in said(app, "git")), "the status")
        commands["Git: off"].callback()
        await wait_until(pilot, lambda: load_settings(home).git is False, "git off")
    assert git(home, "log", "--format=%an").split() == ["notebook"]  # the .gitignore, by the notebook


def asking(app, screen_type: type) -> bool:
    """The question is on the screen: its screen pushed and composed (its words there to read, its keys bound)."""
    return isinstance(app.screen, screen_type) and bool(app.screen.query("Static"))


async def test_inside_another_repository_the_palette_asks_and_commits_there_only_on_yes(tmp_path: Path) -> None:
    from notebook_app.app.screens.git_repo import GitRepoScreen

    outer = tmp_path / "project"
    home = outer / "agent"
    home.mkdir(parents=True)
    (home / "MEMORY.md").write_text("- one\n")
    git(outer, "init", "--quiet")
    app = make_app(home)
    async with app.run_test(size=SIZE) as pilot:
        await started(pilot)
        commands = {command.title: command for command in app.get_system_commands(app.screen)}
        commands["Git: on, leaving .gitignore as it is"].callback()
        await wait_until(pilot, lambda: asking(app, GitRepoScreen), "the question")
        assert str(outer) in str(app.screen.query_one("Static").content)
        await pilot.press("escape")
        await wait_until(pilot, lambda: said(app, "git"), "the answer")
        assert "Nothing changed" in said(app, "git")[0] and load_settings(home).git is None
        commands["Git: on, leaving .gitignore as it is"].callback()
        await wait_until(pilot, lambda: asking(app, GitRepoScreen), "the question again")
        await pilot.press("y")
        await wait_until(pilot, lambda: load_settings(home).git is True, "git on, in the project's repository")
        assert load_settings(home).git_repo == str(outer)
        await wait_until(pilot, lambda: len(said(app, "git")) == 2, "said")
    memory_tool(home, by=NOTEBOOK).call({"action": "add", "text": "two"})
    assert git(outer, "show", "--name-only", "--format=%an", "HEAD").split() == ["notebook", "agent/MEMORY.md"]
    assert not (home / ".gitignore").exists()


async def test_a_write_whose_commit_failed_is_said_once_in_a_notice(home: Path) -> None:
    app = make_app(home)
    async with app.run_test(size=SIZE) as pilot:
        await started(pilot)
        from notebook_app.core.record.git.mode import git_on

        assert not git_on(home, by=NOTEBOOK, add_ignore=True).is_error
        hook = home / ".git" / "hooks" / "pre-commit"
        hook.write_text("#!/bin/sh\nexit 1\n")
        hook.chmod(0o755)
        answers: list[object] = []
        job = lambda: memory_tool(home, by=NOTEBOOK).call({"action": "add", "text": "lands"})  # noqa: E731
        run_once(app, "test-write", job, done=answers.append, failed=answers.append)
        await wait_until(pilot, lambda: answers and said(app, "git"), "the write and its notice")
        await pilot.pause()
        assert len(said(app, "git")) == 1 and "its git commit failed" in said(app, "git")[0]
        run_once(app, "test-read", lambda: None, done=answers.append, failed=answers.append)
        await wait_until(pilot, lambda: len(answers) == 2, "a later job")
        await pilot.pause()
        assert len(said(app, "git")) == 1  # said once: a later job says nothing more
    assert "- lands" in (home / "MEMORY.md").read_text()
