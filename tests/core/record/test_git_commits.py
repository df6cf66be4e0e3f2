"""With a home's git setting on, each recorded write is one commit by its actor; a failed commit never loses a write.

Every test runs the real ``git`` command on real temporary repositories (issue 26).
"""

from __future__ import annotations

import shutil
import subprocess
import sys
from pathlib import Path

import pytest
from real_git import git, plain_git

from notebook_app.core.history.query import history
from notebook_app.core.history.undo_restore import undo
from notebook_app.core.memory.edits.guarded_splice import delete_entry, edit_entry
from notebook_app.core.memory.edits.hand_edit import text_digest, write_file
from notebook_app.core.memory.review.decisions import approve, propose
from notebook_app.core.memory.tool import memory_tool
from notebook_app.core.record.git import commit as git_commit
from notebook_app.core.record.git.mode import git_off, git_on, git_status
from notebook_app.core.record.log.actor import CLI, NOTEBOOK, Actor
from notebook_app.core.record.settings import load_settings
from notebook_app.core.tidy.apply import apply_tidy
from notebook_app.core.tidy.propose import tidy

AGENT = Actor.mcp("20261206-010101-0badc0de", "kip-host", "4.5.6")
GIT = shutil.which("git")
pytestmark = pytest.mark.skipif(GIT is None, reason="these tests run the real git command")


@pytest.fixture(autouse=True)
def no_user_git_config(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """No user or system git config: the author can only come from us."""
    plain_git(monkeypatch, tmp_path)
    monkeypatch.delenv("GIT_AUTHOR_NAME", raising=False)
    monkeypatch.delenv("GIT_COMMITTER_NAME", raising=False)
    git_commit.take_notes()


def log(repo: Path) -> list[str]:
    return git(repo, "log", "--format=%an <%ae>|%cn <%ce>|%s").splitlines()


def home_on(tmp_path: Path) -> Path:
    home = tmp_path / "home"
    home.mkdir()
    result = git_on(home, by=CLI, add_ignore=True)
    assert not result.is_error, result.output
    assert "git init" in result.output
    return home


def test_each_recorded_write_is_one_commit_authored_by_its_actor(tmp_path: Path) -> None:
    home = home_on(tmp_path)
    assert log(home) == ["cli <persona-notebook@localhost>|cli <persona-notebook@localhost>|git on: .gitignore "
                         "keeps the notebook's own files out"]  # fmt: skip
    assert memory_tool(home, by=CLI).call({"action": "add", "text": "tea at 4"}).output.startswith("ok")
    assert memory_tool(home, by=AGENT).call({"action": "add", "target": "user", "text": "name is Muthu"})
    assert not edit_entry(home, "MEMORY.md", 1, "- tea at 4", "- tea at 5", by=NOTEBOOK).is_error
    found = propose(home, {"action": "add", "text": "queued"}, by=AGENT).output
    proposal = found.split("id ")[1].split(")")[0]
    assert approve(home, proposal, by=CLI).outcome.name == "APPROVED"
    last = history(home)[0]
    assert not undo(home, last.id, by=NOTEBOOK).is_error
    assert not delete_entry(home, "USER.md", 1, "- name is Muthu", by=CLI).is_error
    entries = log(home)[:-1]
    authors = [line.split("|")[0].split(" <")[0] for line in entries]
    assert authors == ["cli", "notebook", "kip-host", "notebook", "kip-host", "cli"]
    assert all("<persona-notebook@localhost>|" in line for line in entries)
    subjects = [line.split("|")[2] for line in entries]
    assert [s.split()[0:2] for s in subjects] == [
        ["entry-delete", "USER.md"],
        ["undo", "MEMORY.md"],
        ["approved", "MEMORY.md"],  # the agent's call, applied on a person's approval
        ["entry-edit", "MEMORY.md"],
        ["add", "USER.md"],
        ["add", "MEMORY.md"],
    ]
    assert all(s.split("(")[1].startswith("w-") for s in subjects)  # the event id, as the history names it
    assert git(home, "status", "--porcelain") == ""  # .notebook/, the journal: kept out by the .gitignore lines
    unset = subprocess.run(["git", "-C", str(home), "config", "--get-regexp", "^user\\."], capture_output=True)
    assert unset.returncode == 1  # the author came with each command: no user.* was written to any config


def test_a_hook_that_refuses_never_loses_the_write_and_the_next_write_commits_both(tmp_path: Path) -> None:
    home = home_on(tmp_path)
    hook = home / ".git" / "hooks" / "pre-commit"
    hook.write_text("#!/bin/sh\necho no >&2\nexit 1\n")
    hook.chmod(0o755)
    before = log(home)
    result = memory_tool(home, by=CLI).call({"action": "add", "text": "kept anyway"})
    assert result.output.startswith("ok")
    assert "- kept anyway" in (home / "MEMORY.md").read_text()
    notes = git_commit.take_notes()
    assert len(notes) == 1 and "git commit failed (git commit exited 1" in notes[0]
    assert log(home) == before
    status = git_status(home)
    assert status.on and status.pending == ("MEMORY.md",) and "a commit is pending" in status.words()
    hook.unlink()
    memory_tool(home, by=CLI).call({"action": "add", "target": "user", "text": "next"})
    assert git_commit.take_notes() == []
    assert len(log(home)) == len(before) + 1
    assert set(git(home, "show", "--name-only", "--format=", "HEAD").split()) == {"MEMORY.md", "USER.md"}
    assert "with the earlier write(s) whose commit had failed: MEMORY.md" in git(home, "log", "-1", "--format=%b")
    assert git_status(home).pending == () and git(home, "status", "--porcelain") == ""


def test_a_locked_index_never_fails_the_write(tmp_path: Path) -> None:
    home = home_on(tmp_path)
    (home / ".git" / "index.lock").write_text("")
    assert memory_tool(home, by=CLI).call({"action": "add", "text": "locked out"}).output.startswith("ok")
    assert "index.lock" in git_commit.take_notes()[0]
    (home / ".git" / "index.lock").unlink()
    memory_tool(home, by=CLI).call({"action": "add", "text": "again"})
    assert git(home, "show", "HEAD:MEMORY.md").endswith("- locked out\n- again\n")


def test_no_git_on_path_the_write_lands_and_says_so(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    home = home_on(tmp_path)
    monkeypatch.setenv("PATH", str(tmp_path / "empty"))
    assert memory_tool(home, by=CLI).call({"action": "add", "text": "no git here"}).output.startswith("ok")
    assert (home / "MEMORY.md").read_text() == "- no git here\n"
    assert "could not be run" in git_commit.take_notes()[0]


def test_git_off_commits_nothing_and_runs_no_git(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    home = home_on(tmp_path)
    assert not git_off(home, by=CLI).is_error and load_settings(home).git is False
    before = log(home)
    ran: list[object] = []
    real = subprocess.Popen.__init__

    def spy(self: subprocess.Popen[bytes], args: object, *rest: object, **kw: object) -> None:
        ran.append(args)
        real(self, args, *rest, **kw)  # type: ignore[arg-type]

    monkeypatch.setattr(subprocess.Popen, "__init__", spy)
    monkeypatch.setenv("PATH", str(tmp_path / "empty"))
    assert memory_tool(home, by=CLI).call({"action": "add", "text": "not committed"}).output.startswith("ok")
    assert not delete_entry(home, "MEMORY.md", 1, "- not committed", by=CLI).is_error
    assert ran == [] and git_commit.take_notes() == []
    monkeypatch.undo()
    assert log(home) == before


def test_a_home_inside_another_repository_is_never_committed_into_without_naming_it(tmp_path: Path) -> None:
    outer = tmp_path / "project"
    home = outer / "agent"
    home.mkdir(parents=True)
    git(outer, "init", "--quiet")
    (outer / "code.py").write_text("x = 1\n")
    git(outer, "add", "code.py")
    git(outer, "-c", "user.name=owner", "-c", "user.email=o@x", "commit", "--quiet", "-m", "theirs")
    (outer / "code.py").write_text("x = 2\n")  # their own change, not ours to commit
    refused = git_on(home, by=CLI)
    assert refused.is_error and f"--repo {outer}" in refused.output
    assert load_settings(home).git is None
    wrong = git_on(home, by=CLI, repo=str(tmp_path))  # a folder that is not the repository the home is in
    assert wrong.is_error and "is not the repository" in wrong.output and load_settings(home).git is None
    memory_tool(home, by=CLI).call({"action": "add", "text": "not into theirs"})
    assert log(outer) == ["owner <o@x>|owner <o@x>|theirs"]
    assert not git_on(home, by=CLI, repo=str(outer)).is_error
    memory_tool(home, by=CLI).call({"action": "add", "text": "now there"})
    assert log(outer)[0].startswith("cli <persona-notebook@localhost>|cli <persona-notebook@localhost>|add")
    assert git(outer, "show", "--name-only", "--format=", "HEAD").split() == ["agent/MEMORY.md"]
    assert git(outer, "status", "--porcelain", "--", "code.py").strip() == "M code.py"
    assert git_status(home).repo == str(outer)


def test_a_commit_that_raises_is_said_and_the_write_stands(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    home = home_on(tmp_path)

    def broken(*args: object) -> None:
        raise OSError("disk on fire")

    monkeypatch.setattr(git_commit, "_commit", broken)
    assert memory_tool(home, by=CLI).call({"action": "add", "text": "stands"}).output.startswith("ok")
    assert "OSError: disk on fire" in git_commit.take_notes()[0]
    assert git_status(home).pending == ("MEMORY.md",)


def test_an_outside_change_is_committed_first_authored_outside(tmp_path: Path) -> None:
    home = home_on(tmp_path)
    memory_tool(home, by=CLI).call({"action": "add", "text": "ours"})
    (home / "MEMORY.md").write_text("- ours\n- an editor's line\n")
    (home / "README.txt").write_text("someone else's file\n")
    memory_tool(home, by=NOTEBOOK).call({"action": "add", "text": "ours again"})
    assert [line.split(" <")[0] + "|" + line.split("|")[2].split()[0] for line in log(home)[:3]] == [
        "notebook|add",
        "outside|outside",
        "cli|add",
    ]
    assert git(home, "show", "HEAD~1:MEMORY.md") == "- ours\n- an editor's line\n"
    assert git(home, "show", "HEAD:MEMORY.md") == "- ours\n- an editor's line\n- ours again\n"
    assert git(home, "status", "--porcelain") == "?? README.txt\n"  # only the write's own file was committed


def test_an_outside_change_holding_a_secret_is_not_committed_on_its_own(tmp_path: Path) -> None:
    home = home_on(tmp_path)
    memory_tool(home, by=CLI).call({"action": "add", "text": "ours"})
    key = "sk-ant-api03-" + "A1b2C3d4E5f6G7h8" * 5
    (home / "MEMORY.md").write_text(f"- ours\n- key {key}\n")
    assert not delete_entry(home, "MEMORY.md", 2, f"- key {key}", by=CLI).is_error
    assert key not in git(home, "log", "-p", "--all")
    assert [line.split(" <")[0] for line in log(home)[:2]] == ["cli", "cli"]


def test_a_hand_edit_and_a_tidy_group_are_each_one_commit(tmp_path: Path) -> None:
    home = home_on(tmp_path)
    edited = write_file(home, "SOUL.md", "# Kip\n", base_text="", base_digest=text_digest(""), by=NOTEBOOK)
    assert not edited.is_error, edited.output
    assert log(home)[0].startswith("notebook <persona-notebook@localhost>|") and "hand-edit SOUL.md" in log(home)[0]
    memory_tool(home, by=CLI).call({"action": "add", "target": "user", "text": "name: Ana"})
    memory_tool(home, by=CLI).call({"action": "add", "target": "user", "text": "name: Ana"})
    memory_tool(home, by=CLI).call({"action": "add", "text": "likes green tea"})
    before = len(log(home))
    proposal = tidy(home)
    assert proposal.hunks
    assert not apply_tidy(home, [h.id for h in proposal.hunks], by=CLI).is_error
    assert len(log(home)) == before + 1 and log(home)[0].startswith("cli <persona-notebook@localhost>|")
    assert "USER.md" in git(home, "show", "--name-only", "--format=", "HEAD").split()
    assert git(home, "status", "--porcelain") == ""


def test_a_failed_commit_is_said_once_through_the_one_function_the_cli_and_the_app_ask_and_asking_loads_nothing(
    tmp_path: Path,
) -> None:
    """One function of the core says what failed commits said (the CLI prints it, the app shows it as a notice);
    asking before any write loads no part of the write path."""
    from notebook_app.app import workers
    from notebook_app.cli import common
    from notebook_app.core.record import notes as store

    assert common.git_notes is store.git_notes and workers.git_notes is store.git_notes
    home = home_on(tmp_path)
    hook = home / ".git" / "hooks" / "pre-commit"
    hook.write_text("#!/bin/sh\nexit 1\n")
    hook.chmod(0o755)
    memory_tool(home, by=CLI).call({"action": "add", "text": "kept anyway"})
    notes = store.git_notes()
    assert len(notes) == 1 and "git commit failed" in notes[0]
    assert store.git_notes() == []  # each taken once
    asked = subprocess.run(
        [sys.executable, "-c", "import sys; from notebook_app.core.record.notes import git_notes; "
         "print(git_notes(), 'notebook_app.core.record.git.commit' in sys.modules)"],
        capture_output=True, text=True, check=True,
    )  # fmt: skip
    assert asked.stdout.split() == ["[]", "False"]
