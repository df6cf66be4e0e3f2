"""``persona-notebook git on|off|status``: the setting on a command line, and a failed commit said on stderr."""

from __future__ import annotations

import io
import json
from pathlib import Path

import pytest
from real_git import NEEDS_GIT, git, plain_git

from notebook_app.cli.main import main

pytestmark = NEEDS_GIT


@pytest.fixture(autouse=True)
def no_user_git_config(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    plain_git(monkeypatch, tmp_path)


def test_on_commits_each_cli_write_as_cli_and_status_says_so(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["git", "on", "--home", str(tmp_path), "--yes"]) == 0
    said = capsys.readouterr().out
    assert "git init" in said and "added .notebook/, .memory.journal" in said
    assert main(["memory", "add", "tea at 4", "--home", str(tmp_path)]) == 0
    assert main(["entry", "delete", "MEMORY.md", "1", "--expect", "- tea at 4", "--home", str(tmp_path)]) == 0
    assert (
        git(tmp_path, "log", "--format=%an <%ae>|%s", "-2")
        .splitlines()[0]
        .startswith("cli <persona-notebook@localhost>|entry-delete MEMORY.md")
    )
    capsys.readouterr()
    assert main(["git", "status", "--home", str(tmp_path), "--json"]) == 0
    status = json.loads(capsys.readouterr().out)
    assert status["git"] is True and status["repo"] == str(tmp_path.resolve()) and status["pending"] is False
    assert main(["git", "off", "--home", str(tmp_path)]) == 0
    assert main(["git", "status", "--home", str(tmp_path)]) == 0
    assert capsys.readouterr().out.splitlines()[-1].startswith("git is off")


def test_a_refused_commit_is_one_sentence_on_stderr_and_in_json(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["git", "on", "--home", str(tmp_path), "--yes"]) == 0
    hook = tmp_path / ".git" / "hooks" / "pre-commit"
    hook.write_text("#!/bin/sh\nexit 1\n")
    hook.chmod(0o755)
    capsys.readouterr()
    assert main(["memory", "add", "kept", "--home", str(tmp_path)]) == 0
    err = capsys.readouterr().err
    assert "The write landed, but its git commit failed (git commit exited 1)" in err
    assert main(["memory", "add", "also kept", "--home", str(tmp_path), "--json"]) == 0
    out = json.loads(capsys.readouterr().out)
    assert out["is_error"] is False and "git commit failed" in out["git"]
    assert (tmp_path / "MEMORY.md").read_text() == "- kept\n- also kept\n"
    assert main(["git", "status", "--home", str(tmp_path)]) == 0
    assert "a commit is pending" in capsys.readouterr().out


def test_on_inside_another_repository_needs_repo(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    home = tmp_path / "agent"
    home.mkdir()
    git(tmp_path, "init", "--quiet")
    assert main(["git", "on", "--home", str(home), "--yes"]) == 1
    assert f"--repo {tmp_path}" in capsys.readouterr().err
    assert not (home / ".notebook").exists() and not (home / ".gitignore").exists()
    assert main(["git", "on", "--home", str(home), "--yes", "--repo", str(tmp_path)]) == 0
    assert main(["memory", "add", "here", "--home", str(home)]) == 0
    assert git(tmp_path, "log", "--format=%an|%s", "-1").startswith("cli|add MEMORY.md")


class _Terminal(io.StringIO):
    def isatty(self) -> bool:
        return True


@pytest.mark.parametrize(("answer", "added"), [("n", False), ("y", True)])
def test_on_at_a_terminal_adds_the_gitignore_lines_only_after_a_yes(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str], answer: str, added: bool
) -> None:
    asked: list[str] = []
    monkeypatch.setattr("sys.stdin", _Terminal())
    monkeypatch.setattr("builtins.input", lambda prompt: asked.append(prompt) or answer)
    assert main(["git", "on", "--home", str(tmp_path)]) == 0
    assert len(asked) == 1 and ".notebook/, .memory.journal" in asked[0]
    assert (tmp_path / ".gitignore").exists() is added
    assert main(["memory", "add", "x", "--home", str(tmp_path)]) == 0
    tracked = git(tmp_path, "ls-files").split()
    assert tracked == ([".gitignore", "MEMORY.md"] if added else ["MEMORY.md"])  # never .notebook/ by us either way


def test_on_and_off_are_recorded_setting_events_by_the_cli(tmp_path: Path) -> None:
    from notebook_app.core.history.query import history

    assert main(["git", "on", "--home", str(tmp_path), "--yes"]) == 0
    assert main(["git", "off", "--home", str(tmp_path)]) == 0
    settings = [(e.args, e.by.kind.value) for e in history(tmp_path) if e.action == "setting"]
    assert settings == [({"git": False}, "cli"), ({"git": True, "git_repo": "."}, "cli")]


KEY = "sk-ant-api03-" + "Qx7vT2mN9pL4rK8sW1yZ3bH6" * 2


def test_redact_and_the_doctor_say_git_still_holds_a_removed_key(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    home = str(tmp_path)
    assert main(["git", "on", "--home", home, "--yes"]) == 0
    assert main(["memory", "add", f"deploy key {KEY}", "--home", home]) == 0
    assert main(["entry", "delete", "MEMORY.md", "1", "--expect", f"- deploy key {KEY}", "--home", home]) == 0
    added = git(tmp_path, "log", "--format=%h %s").splitlines()[1].split()
    assert added[1] == "add"
    record = added[-1].strip("()")
    capsys.readouterr()
    assert main(["history", "--redact", record, "--home", home, "--json"]) == 0
    said = json.loads(capsys.readouterr().out)
    assert said["git_history"]["commits"] == [{"commit": added[0], "file": "MEMORY.md"}]
    assert "git filter-repo --replace-text" in said["output"] and KEY not in said["output"]
    assert main(["doctor", "--home", home, "--json"]) == 1
    found = [f for f in json.loads(capsys.readouterr().out)["findings"] if f["rule"] == "security.secret-git"]
    assert len(found) == 1 and found[0]["commit"] == added[0]
    assert f"commit {added[0]} put an Anthropic API key in MEMORY.md at line 1" in found[0]["message"]
    assert KEY[:12] not in json.dumps(found)
