"""A secret in a file read back into an entry file (an overflow or prose side file) or carried beside the seven
is found like one in the seven: it refuses the export, named by that file and line, and its text is never shown."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from cli_process import run
from portable_homes import env_for, read

from notebook_app.portable.model import Plan
from notebook_app.portable.planning import make_plan
from notebook_app.portable.words import plan_json, plan_text

TOKEN = "gh" + "p_" + "abcdefghijklmnopqrstuvwxyz" + "0123456789"  # assembled: never a whole token in the source


def _home(tmp: Path, side: str) -> Path:
    home = tmp / "src"
    (home / "memory").mkdir(parents=True)
    (home / "USER.md").write_text("- name is Ann\n")
    (home / "memory" / side).write_text(f"- my token {TOKEN}\n")
    return home


@pytest.mark.parametrize("side", ["USER.overflow.md", "USER.prose.md"])
@pytest.mark.parametrize("host", ["claude-code", "openclaw", "hermes"])
def test_a_secret_in_a_side_file_refuses_the_export_named_by_that_file(tmp_path: Path, side: str, host: str) -> None:
    env = env_for(tmp_path)
    plan = make_plan(read(_home(tmp_path, side), "toolnexus", env), host, tmp_path / "dest", env=env)
    assert isinstance(plan, Plan)
    assert [h.words() for h in plan.secrets] == [f"security.secret at memory/{side}:1"]
    assert plan.refusal is not None
    said = plan_text(plan) + json.dumps(plan_json(plan)) + plan.refusal
    assert TOKEN not in said and TOKEN[:8] not in said


def test_an_entry_of_a_file_that_was_not_scanned_is_never_shown(tmp_path: Path) -> None:
    env = env_for(tmp_path)
    persona = read(_home(tmp_path, "USER.overflow.md"), "toolnexus", env)
    plan = make_plan(persona, "claude-code", tmp_path / "dest", env=env, allow_secrets=True)
    assert isinstance(plan, Plan)
    unread = type(persona)(persona.host, persona.root, persona.files)  # its side files' texts not kept: unscanned
    blind = Plan(**{**plan.__dict__, "source": unread, "secrets": ()})
    assert "name is Ann" in plan_text(blind) and "my token" not in plan_text(blind)


@pytest.mark.parametrize("as_json", [False, True])
def test_a_secret_in_an_overflow_file_refuses_a_real_export_and_writes_nothing(tmp_path: Path, as_json: bool) -> None:
    home = _home(tmp_path, "USER.overflow.md")
    args = ["export", "--home", str(home), "--to", "openclaw", str(tmp_path / "dest"), "--apply"]
    result = run(*args, *(["--json"] if as_json else []), tmp=tmp_path)
    assert result.returncode == 1, result.stderr
    said = result.stdout + result.stderr
    assert "security.secret at memory/USER.overflow.md:1" in said
    assert TOKEN not in said and TOKEN[:8] not in said
    assert not (tmp_path / "dest").exists()


def test_a_secret_in_claude_md_is_found_when_the_memory_folder_has_a_topic_file_of_that_name(tmp_path: Path) -> None:
    env = env_for(tmp_path)
    project = tmp_path / "proj"
    project.mkdir()
    (project / "CLAUDE.md").write_text(f"token {TOKEN}\n")
    first = make_plan(read(project, "claude-code", env), "toolnexus", tmp_path / "dest", env=env)
    assert isinstance(first, Plan)
    memory = first.source.memory_dir
    assert memory is not None
    memory.mkdir(parents=True)
    (memory / "CLAUDE.md").write_text("a topic file, clean\n")
    plan = make_plan(read(project, "claude-code", env), "toolnexus", tmp_path / "dest", env=env)
    assert isinstance(plan, Plan) and [h.words() for h in plan.secrets] == ["security.secret at CLAUDE.md:1"]
