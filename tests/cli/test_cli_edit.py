"""``persona-notebook edit``: $EDITOR on a copy, saved back guarded; real processes stand in for editor and agent."""

from __future__ import annotations

import json
import os
import shlex
import subprocess
import sys
import time
from pathlib import Path

import pytest

from notebook_app.cli import edit as edit_verb
from notebook_app.cli.common import build_verb_parser
from notebook_app.cli.main import VERBS

EDITOR = """
import os, sys, time, pathlib
copy = pathlib.Path(sys.argv[1])
sync = os.environ.get("EDIT_SYNC")
if sync:
    (pathlib.Path(sync) / "ready").write_text(str(copy))
    deadline = time.monotonic() + 60
    while not (pathlib.Path(sync) / "go").exists():
        if time.monotonic() > deadline:
            sys.exit(3)
        time.sleep(0.01)
mode = os.environ.get("EDIT_MODE", "none")
text = copy.read_text(encoding="utf-8")
if mode == "append":
    text += "- human's note\\n"
elif mode == "first-line":
    lines = text.splitlines(keepends=True)
    lines[0] = "- tea at 5\\n"
    text = "".join(lines)
copy.write_text(text, encoding="utf-8")
sys.exit(int(os.environ.get("EDIT_STATUS", "0")))
"""


@pytest.fixture
def env(tmp_path: Path) -> dict[str, str]:
    script = tmp_path / "editor.py"
    script.write_text(EDITOR)
    values = dict(os.environ)
    values.pop("VISUAL", None)
    values["EDITOR"] = f"{shlex.quote(sys.executable)} {shlex.quote(str(script))}"
    values["XDG_STATE_HOME"] = str(tmp_path / "state")
    return values


@pytest.fixture
def home(tmp_path: Path) -> Path:
    path = tmp_path / "home"
    path.mkdir()
    (path / "MEMORY.md").write_text("- tea at 4\n- likes rain\n")
    return path


def cli(*args: str, env: dict[str, str]) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "notebook_app", *args], capture_output=True, text=True, env=env, timeout=120
    )


def edits(env: dict[str, str]) -> list[Path]:
    root = Path(env["XDG_STATE_HOME"]) / "persona-notebook" / "edits"
    return sorted(root.rglob("*")) if root.exists() else []


def edit_while_an_agent_writes(
    home: Path, env: dict[str, str], mode: str, agent: tuple[str, ...]
) -> subprocess.CompletedProcess[str]:
    """Start ``edit``; once the editor has the copy, run the
    agent's write in another process; then let the editor save."""
    sync = home.parent / "sync"
    sync.mkdir()
    env = {**env, "EDIT_SYNC": str(sync), "EDIT_MODE": mode}
    editor = subprocess.Popen(
        [sys.executable, "-m", "notebook_app", "edit", "MEMORY.md", "--home", str(home)],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        env=env,
    )
    try:
        deadline = time.monotonic() + 60
        while not (sync / "ready").exists():
            assert editor.poll() is None and time.monotonic() < deadline, "the editor never started"
            time.sleep(0.01)
        written = cli("memory", *agent, "--home", str(home), env=env)
        assert written.returncode == 0, written.stderr
        (sync / "go").write_text("")
        stdout, stderr = editor.communicate(timeout=120)
    finally:
        if editor.poll() is None:
            editor.kill()
    return subprocess.CompletedProcess(editor.args, editor.returncode, stdout, stderr)


def test_an_agent_adding_entries_during_an_editor_session_keeps_both(home: Path, env: dict[str, str]) -> None:
    result = edit_while_an_agent_writes(home, env, "append", ("add", "agent's note"))
    assert result.returncode == 0, result.stderr
    assert result.stdout == "ok (hand edit, merged with 1 line written since → MEMORY.md); loads next session\n"
    assert (home / "MEMORY.md").read_text() == "- tea at 4\n- likes rain\n- agent's note\n- human's note\n"
    assert [p for p in edits(env) if p.is_file()] == [], "a written copy is removed"
    records = json.loads(cli("history", "--home", str(home), "--json", env=env).stdout)
    assert [(r["action"], r["by"]["kind"]) for r in records] == [("merge", "cli"), ("add", "cli")]


def test_an_edit_of_a_line_the_agent_replaced_meanwhile_conflicts_and_loses_nothing(
    home: Path, env: dict[str, str]
) -> None:
    result = edit_while_an_agent_writes(home, env, "first-line", ("replace", "tea at 4", "--with", "tea at 3"))
    assert result.returncode == 1
    agents = "- tea at 3\n- likes rain\n"
    assert (home / "MEMORY.md").read_text() == agents, "the file keeps the other writer's version"
    kept = Path(result.stderr.rstrip("\n").rsplit(" is kept at ", 1)[1])
    assert result.stderr == (
        "MEMORY.md changed since you opened it and your edit conflicts with it in 1 place (line 1); nothing was "
        f"written; MEMORY.md keeps the other writer's version, your edit is kept at {kept}\n"
    )
    assert kept.read_text() == "- tea at 5\n- likes rain\n", "the person's edit is kept"
    assert (kept.parent / "MEMORY.md.base").read_text() == "- tea at 4\n- likes rain\n"
    assert kept.is_relative_to(Path(env["XDG_STATE_HOME"]))


def test_a_hand_edit_shows_in_history_as_by_cli(home: Path, env: dict[str, str]) -> None:
    result = cli("edit", "MEMORY.md", "--home", str(home), env={**env, "EDIT_MODE": "append"})
    assert (result.returncode, result.stdout) == (0, "ok (hand edit → MEMORY.md); loads next session\n")
    (record,) = json.loads(cli("history", "--home", str(home), "--json", env=env).stdout)
    assert (record["action"], record["by"]["kind"], record["file"]) == ("hand-edit", "cli", "MEMORY.md")


def test_no_change_exits_zero_with_nothing_to_write(home: Path, env: dict[str, str]) -> None:
    result = cli("edit", "MEMORY.md", "--home", str(home), env=env)
    assert (result.returncode, result.stdout) == (0, "ok (hand edit → MEMORY.md); nothing to write\n")
    assert not (home / ".notebook").exists()
    assert [p for p in edits(env) if p.is_file()] == []


def test_an_editor_that_fails_writes_nothing_and_keeps_the_copy(home: Path, env: dict[str, str]) -> None:
    result = cli(
        "edit", "MEMORY.md", "--home", str(home), "--json", env={**env, "EDIT_MODE": "append", "EDIT_STATUS": "4"}
    )
    assert result.returncode == 1
    report = json.loads(result.stdout)
    assert (report["is_error"], report["outcome"]) == (True, "refused")
    assert report["output"].startswith("the editor exited with status 4; nothing was written")
    assert Path(report["kept"]).read_text().endswith("- human's note\n")
    assert (home / "MEMORY.md").read_text() == "- tea at 4\n- likes rain\n"


def test_visual_wins_over_editor_and_is_split_as_a_shell_splits() -> None:
    from notebook_app.core.memory.edits.editor_copy import (
        editor_command,  # the one choice of editor, the CLI's and the notebook's
    )

    assert editor_command({"EDITOR": "nano", "VISUAL": "code --wait"}) == ["code", "--wait"]
    assert editor_command({"EDITOR": "'my editor' -w"}) == ["my editor", "-w"]
    assert editor_command({"EDITOR": "  "}) is None


def test_an_injected_editor_runner_edits_any_bootstrap_file(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("XDG_STATE_HOME", str(tmp_path / "state"))
    home = tmp_path / "home"
    home.mkdir()
    seen: list[Path] = []

    def runner(copy: Path) -> int:
        seen.append(copy)
        copy.write_text("# Soul\n")
        return 0

    args = build_verb_parser(VERBS).parse_args(["edit", "SOUL.md", "--home", str(home)])
    assert edit_verb.run(args, run_editor=runner) == 0
    assert (home / "SOUL.md").read_text() == "# Soul\n"
    assert seen[0].name == "SOUL.md" and seen[0].is_relative_to(tmp_path / "state" / "persona-notebook" / "edits")
    assert not seen[0].exists()


@pytest.mark.parametrize(
    ("args", "unset", "says"),
    [
        (("edit", "MEMORY.md"), True, "no editor: set $VISUAL or $EDITOR"),
        (("edit", "notes.md"), False, "invalid choice: 'notes.md'"),
        (("edit", "MEMORY.md", "--home", "missing"), False, "no such home: missing"),
    ],
)
def test_usage_errors_exit_two_and_change_nothing(
    home: Path, env: dict[str, str], args: tuple[str, ...], unset: bool, says: str
) -> None:
    if unset:
        env = {k: v for k, v in env.items() if k not in ("EDITOR", "VISUAL")}
    result = subprocess.run(
        [sys.executable, "-m", "notebook_app", *args], capture_output=True, text=True, env=env, cwd=home, timeout=60
    )
    assert result.returncode == 2 and says in result.stderr
    assert (home / "MEMORY.md").read_text() == "- tea at 4\n- likes rain\n"
    assert edits(env) == []


def test_a_linked_file_is_refused_before_the_editor_starts(home: Path, env: dict[str, str], tmp_path: Path) -> None:
    outside = tmp_path / "elsewhere.md"
    outside.write_text("secret\n")
    os.symlink(outside, home / "SOUL.md")
    result = cli("edit", "SOUL.md", "--home", str(home), env={**env, "EDIT_MODE": "append"})
    assert result.returncode == 1 and "SOUL.md is a symbolic link" in result.stderr
    assert outside.read_text() == "secret\n" and edits(env) == []


def test_the_copy_and_its_base_are_private_to_the_user(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("XDG_STATE_HOME", str(tmp_path / "state"))
    home = tmp_path / "home"
    home.mkdir()
    (home / "USER.md").write_text("- name is Ana\n")
    modes: list[int] = []

    def runner(copy: Path) -> int:
        modes.append(copy.parent.stat().st_mode & 0o777)
        assert (copy.parent / "USER.md.base").read_text() == copy.read_text() == "- name is Ana\n"
        return 0

    args = build_verb_parser(VERBS).parse_args(["edit", "USER.md", "--home", str(home)])
    assert edit_verb.run(args, run_editor=runner) == 0
    assert modes == [0o700]


def claude_project(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> tuple[Path, Path, Path]:
    """A Claude Code project (CLAUDE.md) whose auto-memory folder holds MEMORY.md and the topic file debugging.md."""
    from notebook_app.core.hosts.claude_code.home import memory_dir

    user, root = tmp_path / "user", tmp_path / "proj"
    for name in ("HOME", "XDG_STATE_HOME", "XDG_CONFIG_HOME", "XDG_DATA_HOME"):
        monkeypatch.setenv(name, str(user if name == "HOME" else tmp_path / name.lower()))
    monkeypatch.delenv("CLAUDE_CONFIG_DIR", raising=False)
    root.mkdir()
    (root / "CLAUDE.md").write_text("# Project\n")
    memory = memory_dir(root, {"HOME": str(user)})
    memory.mkdir(parents=True)
    (memory / "MEMORY.md").write_text("- uses make\n")
    (memory / "debugging.md").write_text("# Debugging\n")
    return root, user, memory


@pytest.mark.parametrize("name", ["MEMORY.md", "debugging.md"])
def test_edit_in_a_claude_code_project_writes_its_memory_folder_never_the_projects_tree(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, name: str
) -> None:
    root, user, memory = claude_project(tmp_path, monkeypatch)
    before = sorted(p.name for p in root.iterdir())

    def runner(copy: Path) -> int:
        copy.write_text(copy.read_text() + "- by hand\n")
        return 0

    args = build_verb_parser(VERBS).parse_args(["edit", name, "--home", str(root)])
    assert edit_verb.run(args, run_editor=runner) == 0
    assert (memory / name).read_text().endswith("- by hand\n")
    assert sorted(p.name for p in root.iterdir()) == before  # no MEMORY.md, .notebook or journal in the project


def test_edit_of_a_name_no_hand_edit_writes_exits_two_saying_why(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    root, user, memory = claude_project(tmp_path, monkeypatch)
    ran: list[Path] = []
    args = build_verb_parser(VERBS).parse_args(["edit", "patterns.txt", "--home", str(root)])
    assert edit_verb.run(args, run_editor=ran.append) == 2
    assert "invalid choice: 'patterns.txt'" in capsys.readouterr().err and ran == []
