"""``persona-notebook export`` and ``import`` as a person runs them: real processes, real folders, exit 0/1/2."""

from __future__ import annotations

import json
import os
import pty
import subprocess
import sys
from pathlib import Path

import pytest
from cli_process import run
from portable_homes import demo_home, entries_of, env_for, files_under, read, toolnexus_home

SECRET = "gh" + "p_" + "abcdefghijklmnopqrstuvwxyz" + "0123456789"  # assembled: never a whole token in the source


def test_export_prints_the_plan_and_writes_nothing_until_apply(tmp_path: Path) -> None:
    home = demo_home(tmp_path)
    planned = run("export", "--home", str(home), "--to", "hermes", str(tmp_path / "h"), tmp=tmp_path)
    assert planned.returncode == 0, planned.stderr
    assert "memories/MEMORY.md ← MEMORY.md" in planned.stdout and "nothing written" in planned.stdout
    assert not (tmp_path / "h").exists()
    applied = run("export", "--home", str(home), "--to", "hermes", str(tmp_path / "h"), "--apply", tmp=tmp_path)
    assert applied.returncode == 0, applied.stderr
    assert "wrote 6 files" in applied.stdout
    assert (tmp_path / "h" / "memories" / "USER.md").read_text().startswith("name is Priya Raman; she/her\n§\n")


def test_import_reads_another_hosts_home_into_a_new_toolnexus_home(tmp_path: Path) -> None:
    home = demo_home(tmp_path)
    assert (
        run("export", "--home", str(home), "--to", "openclaw", str(tmp_path / "oc"), "--apply", tmp=tmp_path).returncode
        == 0
    )
    back = tmp_path / "back"
    refused = run("import", "--from", "openclaw", str(tmp_path / "oc"), str(back), "--apply", tmp=tmp_path)
    assert refused.returncode == 2 and "pass --create" in refused.stderr and not back.exists()
    done = run(
        "import", "--from", "openclaw", str(tmp_path / "oc"), str(back), "--create", "--apply", "--json", tmp=tmp_path
    )
    assert done.returncode == 0, done.stderr
    data = json.loads(done.stdout)
    assert data["applied"] and data["plan"]["target"]["host"] == "toolnexus" and data["error"] is None
    env = env_for(tmp_path)
    assert entries_of(read(back, "toolnexus", env), "MEMORY.md") == entries_of(
        read(home, "toolnexus", env), "MEMORY.md"
    )


@pytest.mark.parametrize("as_json", [False, True])
def test_a_secret_refuses_the_export_with_exit_1_and_its_text_never_shown(tmp_path: Path, as_json: bool) -> None:
    home = toolnexus_home(tmp_path, ["fine", f"token {SECRET}"])
    args = ["export", "--home", str(home), "--to", "openclaw", str(tmp_path / "dest"), "--apply"]
    result = run(*args, *(["--json"] if as_json else []), tmp=tmp_path)
    assert result.returncode == 1
    said = result.stdout + result.stderr
    assert "security.secret at MEMORY.md:2" in said
    assert SECRET not in said and SECRET[:8] not in said
    assert not (tmp_path / "dest").exists()


def test_bad_input_exits_2_in_words_and_writes_nothing(tmp_path: Path) -> None:
    home = demo_home(tmp_path)
    busy = tmp_path / "busy"
    busy.mkdir()
    (busy / "x.md").write_text("mine\n")
    cases = {
        ("export", "--home", str(home), "--to", "letta", str(tmp_path / "d")): "no host named 'letta'",
        ("export", "--home", str(home), "--to", "hermes@0.1.0", str(tmp_path / "d")): "hermes",
        ("export", "--home", str(home), "--to", "openclaw", str(busy)): "is not empty",
        ("import", "--from", "hermes", str(home), str(tmp_path / "d"), "--create"): "not a Hermes home",
    }
    for args, words in cases.items():
        result = run(*args, "--apply", tmp=tmp_path)
        assert result.returncode == 2, (args, result.stderr)
        assert words in result.stderr, (args, result.stderr)
    assert not (tmp_path / "d").exists() and files_under(busy) == {busy / "x.md"}


def test_a_claude_code_export_writes_both_places_only_when_confirmed(tmp_path: Path, monkeypatch) -> None:
    monkeypatch.setenv("CLAUDE_CONFIG_DIR", str(tmp_path / "cc"))
    home = demo_home(tmp_path)
    args = ("export", "--home", str(home), "--to", "claude-code", str(tmp_path / "proj"), "--apply")
    unconfirmed = run(*args, tmp=tmp_path)
    assert unconfirmed.returncode == 2 and "confirm both with --yes" in unconfirmed.stderr
    assert not (tmp_path / "proj").exists() and not (tmp_path / "cc").exists()
    confirmed = run(*args, "--yes", tmp=tmp_path)
    assert confirmed.returncode == 0, confirmed.stderr
    assert (tmp_path / "proj" / "CLAUDE.md").read_text() == (home / "AGENTS.md").read_text()
    memory = next((tmp_path / "cc" / "projects").glob("*/memory"))
    assert (memory / "MEMORY.md").read_text() == (home / "MEMORY.md").read_text()
    assert str(memory) in confirmed.stdout


@pytest.mark.parametrize(("answer", "code"), [("y", 0), ("n", 1)])
def test_a_claude_code_export_on_a_terminal_asks_before_writing_both_places(
    tmp_path: Path, answer: str, code: int
) -> None:
    home = demo_home(tmp_path)
    env = {
        **os.environ,
        "CLAUDE_CONFIG_DIR": str(tmp_path / "cc"),
        "XDG_STATE_HOME": str(tmp_path / "state"),
        "XDG_CONFIG_HOME": str(tmp_path / "config"),
    }
    controller, terminal = pty.openpty()
    try:
        os.write(controller, f"{answer}\n".encode())
        result = subprocess.run(
            [sys.executable, "-m", "notebook_app", "export", "--home", str(home), "--to", "claude-code"]
            + [str(tmp_path / "proj"), "--apply"],
            stdin=terminal,
            capture_output=True,
            text=True,
            env=env,
            timeout=60,
        )
    finally:
        os.close(terminal)
        os.close(controller)
    assert result.returncode == code, result.stderr
    assert "write " in result.stdout and str(tmp_path / "cc") in result.stdout and "[y/N]" in result.stdout
    assert result.stdout.count("auto-memory folder:") == 1  # the plan shown once, before the question
    assert (tmp_path / "proj" / "CLAUDE.md").exists() is (answer == "y")
    assert (tmp_path / "cc").exists() is (answer == "y")


def test_a_claude_code_export_without_agents_md_says_so_and_offers_the_import_of_soul_md(
    tmp_path: Path, monkeypatch
) -> None:
    """Issue 34: no AGENTS.md, so no CLAUDE.md: DEST was not a Claude Code project after, SOUL.md an unloaded topic."""
    monkeypatch.setenv("CLAUDE_CONFIG_DIR", str(tmp_path / "cc"))
    home = toolnexus_home(tmp_path, ["mine"])
    dest = tmp_path / "my proj"
    args = ("export", "--home", str(home), "--to", "claude-code", str(dest))
    planned = run(*args, tmp=tmp_path)
    assert planned.returncode == 0, planned.stderr
    assert "note: no CLAUDE.md: the persona has no AGENTS.md" in planned.stdout, planned.stdout
    assert "not seen as a Claude Code project" in planned.stdout and "--soul-import" in planned.stdout
    assert "[home] CLAUDE.md" not in planned.stdout  # the choice is offered, never made for the user
    chosen = run(*args, "--soul-import", tmp=tmp_path)
    assert "● [home] CLAUDE.md ←" in chosen.stdout, chosen.stdout
    assert "● [home] SOUL.md ← SOUL.md" in chosen.stdout and "no CLAUDE.md" not in chosen.stdout
    applied = run(*args, "--soul-import", "--apply", "--yes", tmp=tmp_path)
    assert applied.returncode == 0, applied.stderr
    assert (dest / "CLAUDE.md").read_text() == "@SOUL.md\n"  # Claude Code imports from inside the project only
    assert (dest / "SOUL.md").read_text() == (home / "SOUL.md").read_text()
    soul = run("soul", "--home", str(dest), "--json", tmp=tmp_path)
    assert soul.returncode == 0, soul.stderr
    assert json.loads(soul.stdout)["host"] == "claude-code" and "Calm." in json.loads(soul.stdout)["soul"]


def test_a_second_soul_import_merge_into_the_same_project_writes_no_copy_of_soul_md(
    tmp_path: Path, monkeypatch
) -> None:
    """The project imports SOUL.md already (CLAUDE.md's @SOUL.md, the same text): a merge again said 'SOUL.md not
    imported' and wrote a second SOUL.md into the memory folder, a topic file no session loads."""
    monkeypatch.setenv("CLAUDE_CONFIG_DIR", str(tmp_path / "cc"))
    home = toolnexus_home(tmp_path, ["mine"])
    dest = tmp_path / "proj"
    args = ("export", "--home", str(home), "--to", "claude-code", str(dest), "--soul-import")
    first = run(*args, "--apply", "--yes", tmp=tmp_path)
    assert first.returncode == 0, first.stderr
    again = run(*args, "--merge", "--apply", "--yes", tmp=tmp_path)
    assert again.returncode == 0, again.stderr
    assert "[memory] SOUL.md" not in again.stdout and "SOUL.md not imported" not in again.stdout, again.stdout
    assert "SOUL.md: the project imports it already from CLAUDE.md, the same text; not written again" in again.stdout
    assert "wrote 0 files" in again.stdout, again.stdout
    memory = next((tmp_path / "cc" / "projects").iterdir()) / "memory"
    assert sorted(path.name for path in memory.iterdir()) == ["MEMORY.md"]
