"""Secrets stay home, bad input is said in words, and a refused move writes nothing."""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest
from portable_homes import demo_home, env_for, files_under, read, toolnexus_home

from notebook_app.core.hostbase.export import Place
from notebook_app.portable.model import Plan, Problem
from notebook_app.portable.planning import make_plan
from notebook_app.portable.reading import read_persona
from notebook_app.portable.words import plan_json, plan_text
from notebook_app.portable.writing import apply_plan

SECRET = (
    "sk-" + "ant-" + "api03-" + "abcdefghijklmnopqrstuvwxyz" + "0123456789ABCD"
)  # assembled: never whole in the source
SHOWN = SECRET[:8]
"""What the doctor's own message quotes of it: a move's output must not show even that."""
PORTABLE = Path(__file__).resolve().parents[2] / "notebook_app" / "portable"


def _secret_home(tmp: Path) -> Path:
    home = toolnexus_home(tmp, ["fine", f"api key {SECRET}", "api key copy"], user=["name is Ada"])
    (home / "TOOLS.md").write_text(f"curl with\n\nAuthorization: {SECRET}\n")
    return home


def _plan(tmp: Path, source: Path, host: str, dest: Path, **kwargs: object) -> Plan | Problem:
    env = env_for(tmp)
    return make_plan(read(source, "toolnexus", env), host, dest, env=env, **kwargs)  # type: ignore[arg-type]


@pytest.mark.parametrize("host", ["toolnexus", "hermes", "claude-code"])
def test_a_secret_refuses_the_export_named_by_rule_file_and_line(tmp_path: Path, host: str) -> None:
    plan = _plan(tmp_path, _secret_home(tmp_path), host, tmp_path / "dest")
    assert isinstance(plan, Plan)
    assert [h.words() for h in plan.secrets] == ["security.secret at TOOLS.md:3", "security.secret at MEMORY.md:2"]
    result = apply_plan(plan)
    assert isinstance(result, Problem) and result.exit_code == 1
    assert "security.secret at MEMORY.md:2" in result.message
    assert not any(folder.exists() for folder in plan.places.values())


def test_a_secrets_text_never_appears_in_the_plan_text_or_json(tmp_path: Path) -> None:
    source = _secret_home(tmp_path)
    (source / "MEMORY.md").write_text(f"- api key {SECRET}\n" * 2)  # the copy is merged by Hermes, so listed
    plan = _plan(tmp_path, source, "hermes", tmp_path / "dest")
    assert isinstance(plan, Plan)
    said = plan_text(plan) + json.dumps(plan_json(plan)) + (plan.refusal or "")
    assert "merged: MEMORY.md:2" in said
    assert SECRET not in said and SHOWN not in said


def test_allow_secrets_moves_them_and_says_so(tmp_path: Path) -> None:
    plan = _plan(tmp_path, _secret_home(tmp_path), "openclaw", tmp_path / "dest", allow_secrets=True)
    assert isinstance(plan, Plan) and plan.refusal is None
    assert "(moved: --allow-secrets)" in plan_text(plan)
    assert not isinstance(apply_plan(plan), Problem)
    assert SECRET in (tmp_path / "dest" / "MEMORY.md").read_text()


def test_an_unknown_host_is_a_usage_error(tmp_path: Path) -> None:
    persona = read_persona(demo_home(tmp_path), "letta")
    assert isinstance(persona, Problem) and persona.exit_code == 2 and "no host named 'letta'" in persona.message
    plan = make_plan(read(demo_home(tmp_path / "b"), "toolnexus", os.environ), "letta", tmp_path / "dest")
    assert isinstance(plan, Problem) and plan.exit_code == 2


def test_a_version_older_than_the_oldest_proven_is_a_usage_error(tmp_path: Path) -> None:
    persona = read(demo_home(tmp_path), "toolnexus", env_for(tmp_path))
    for spec in ("hermes@0.1.0", "openclaw@1999.1.1", "claude-code@0.0.1", "hermes@latest"):
        plan = make_plan(persona, spec, tmp_path / "dest", env=env_for(tmp_path))
        assert isinstance(plan, Problem) and plan.exit_code == 2, spec
    assert not (tmp_path / "dest").exists()


def test_a_version_newer_than_the_newest_proven_plans_as_the_newest_proven(tmp_path: Path) -> None:
    """Issue 36: a release the goldens have not reached yet stands in as its nearest proven (it was refused)."""
    persona = read(demo_home(tmp_path), "toolnexus", env_for(tmp_path))
    plan = make_plan(persona, "hermes@9.9.9", tmp_path / "dest", env=env_for(tmp_path))
    assert isinstance(plan, Plan), plan
    assert not (tmp_path / "dest").exists()  # a plan writes nothing


def test_a_source_not_in_the_hosts_layout_is_a_usage_error(tmp_path: Path) -> None:
    plain = demo_home(tmp_path)
    hermes = read_persona(plain, "hermes", env=env_for(tmp_path))
    assert isinstance(hermes, Problem) and "is not a Hermes home: it has no memories/ folder" in hermes.message
    claude = read_persona(plain, "claude-code", env=env_for(tmp_path))
    assert isinstance(claude, Problem) and "is not a Claude Code project" in claude.message
    empty = tmp_path / "empty"
    empty.mkdir()
    assert isinstance(read_persona(empty, "toolnexus"), Problem)
    assert isinstance(read_persona(tmp_path / "absent", "toolnexus"), Problem)


def test_a_dest_that_is_a_file_or_not_empty_is_a_usage_error(tmp_path: Path) -> None:
    persona = read(demo_home(tmp_path), "toolnexus", env_for(tmp_path))
    (tmp_path / "file").write_text("x")
    busy = tmp_path / "busy"
    busy.mkdir()
    (busy / "notes.txt").write_text("mine")
    for dest, words in ((tmp_path / "file", "is not a folder"), (busy, "is not empty")):
        plan = make_plan(persona, "openclaw", dest, env=env_for(tmp_path))
        assert isinstance(plan, Problem) and plan.exit_code == 2 and words in plan.message
    assert (tmp_path / "file").read_text() == "x" and files_under(busy) == {busy / "notes.txt"}


def test_a_claude_code_memory_folder_that_is_not_empty_is_a_usage_error(tmp_path: Path) -> None:
    persona = read(demo_home(tmp_path), "toolnexus", env_for(tmp_path))
    first = make_plan(persona, "claude-code", tmp_path / "proj", env=env_for(tmp_path))
    assert isinstance(first, Plan)
    memory = first.places[Place.MEMORY]
    memory.mkdir(parents=True)
    (memory / "MEMORY.md").write_text("- theirs\n")
    again = make_plan(persona, "claude-code", tmp_path / "proj", env=env_for(tmp_path))
    assert isinstance(again, Problem) and "the auto-memory folder" in again.message


@pytest.mark.parametrize("kind", ["not utf-8", "fifo"])
def test_a_source_file_that_cannot_be_read_is_a_usage_error(tmp_path: Path, kind: str) -> None:
    home = demo_home(tmp_path)
    if kind == "fifo":
        (home / "TOOLS.md").unlink(missing_ok=True)
        os.mkfifo(home / "TOOLS.md")
    else:
        (home / "USER.md").write_bytes(b"- caf\xe9\n")
    persona = read_persona(home, "toolnexus")
    assert isinstance(persona, Problem) and persona.exit_code == 2
    assert ("TOOLS.md cannot be read" if kind == "fifo" else "USER.md is not UTF-8") in persona.message


def test_a_merge_into_a_home_of_another_hosts_layout_is_a_usage_error(tmp_path: Path) -> None:
    persona = read(demo_home(tmp_path), "toolnexus", env_for(tmp_path))
    plain = toolnexus_home(tmp_path, ["theirs"], name="plain")
    plan = make_plan(persona, "hermes", plain, merge=True, env=env_for(tmp_path))
    assert isinstance(plan, Problem) and plan.exit_code == 2
    assert "--merge adds to a Hermes home" in plan.message and "no memories/ folder" in plan.message


def test_a_dest_that_is_a_symbolic_link_is_never_written_through(tmp_path: Path) -> None:
    persona = read(demo_home(tmp_path), "toolnexus", env_for(tmp_path))
    (tmp_path / "real").mkdir()
    (tmp_path / "link").symlink_to(tmp_path / "real")
    plan = make_plan(persona, "toolnexus", tmp_path / "link", env=env_for(tmp_path))
    assert isinstance(plan, Problem) and "is a symbolic link" in plan.message
    assert not any((tmp_path / "real").iterdir())


def test_a_plan_refused_for_secrets_lays_no_copy_of_the_persona_out_to_ask_the_loader(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from notebook_app.portable import fitting

    seen: list[tuple[int, bool]] = []
    real = fitting.load_as

    def spy(root: Path, spec: str) -> object:
        copies = any(SECRET in p.read_text() for p in Path(root).rglob("*") if p.is_file())
        seen.append((os.stat(root).st_mode & 0o777, copies))
        return real(root, spec)

    monkeypatch.setattr(fitting, "load_as", spy)
    source = _secret_home(tmp_path)
    refused = _plan(tmp_path, source, "openclaw", tmp_path / "dest")
    assert isinstance(refused, Plan) and refused.refusal is not None
    assert not any(copies for _, copies in seen), "a refused plan wrote the secret to a scratch folder"
    assert "not asked of OpenClaw's loader" in plan_text(refused)
    seen.clear()
    allowed = _plan(tmp_path, source, "openclaw", tmp_path / "dest", allow_secrets=True)
    assert isinstance(allowed, Plan) and allowed.refusal is None and seen
    assert all(mode == 0o700 for mode, _ in seen)
