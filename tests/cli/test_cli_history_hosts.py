"""``history``, ``blame`` and ``restore`` on every host's memory files, by the name the person sees: real processes.

A Hermes home keeps MEMORY.md and USER.md in ``memories/`` and the log records that path; the list, ``soul``
and the doctor say ``MEMORY.md``. Both names work in every history verb; a path into a folder where the
home does not keep the file is refused, naming where it is.
"""

from __future__ import annotations

import json
import os
import stat
from pathlib import Path

import pytest
from cli_process import run


def hermes_home(tmp_path: Path) -> Path:
    home = tmp_path / "hermes"
    (home / "memories").mkdir(parents=True)
    (home / "SOUL.md").write_text("You are Hermes.\n")
    (home / "memories" / "MEMORY.md").write_text("first entry")
    return home


def ok(*args: str, tmp: Path, home: Path | None = None) -> str:
    out = run(*args, tmp=tmp, home=home)
    assert out.returncode == 0, out.stderr
    return out.stdout


def ids(where: tuple[str, ...], tmp: Path, home: Path | None = None, *, file: str | None = None) -> list[str]:
    """The record ids ``history --json`` lists, oldest first."""
    chosen = ("--file", file) if file else ()
    return [r["id"] for r in reversed(json.loads(ok("history", *chosen, "--json", *where, tmp=tmp, home=home)))]


@pytest.mark.parametrize("name", ["MEMORY.md", "memories/MEMORY.md"])
def test_every_history_verb_takes_a_hermes_store_by_either_name(tmp_path: Path, name: str) -> None:
    home = hermes_home(tmp_path)
    where = ("--home", str(home))
    ok("memory", "add", "second entry", *where, tmp=tmp_path)
    ok("memory", "add", "third entry", *where, tmp=tmp_path)
    first, second = ids(where, tmp_path)

    listed = json.loads(ok("history", "--file", name, "--json", *where, tmp=tmp_path))
    assert [r["id"] for r in listed] == [second, first]
    assert {r["file"] for r in listed} == {"memories/MEMORY.md"}

    blamed = json.loads(ok("blame", name, "--json", *where, tmp=tmp_path))
    assert blamed["file"] == "memories/MEMORY.md"
    assert [(line["text"], line["id"]) for line in blamed["lines"]][-1] == ("third entry", second)
    text = ok("blame", name, *where, tmp=tmp_path)
    assert text.splitlines()[-1].startswith(second) and text.splitlines()[-1].endswith("│ third entry")

    dry = run("restore", name, "--to", first, "--dry-run", *where, tmp=tmp_path)
    assert dry.returncode == 0 and "-third entry" in dry.stdout, dry.stderr
    done = run("restore", name, "--to", first, *where, tmp=tmp_path)
    assert done.returncode == 0, done.stderr
    assert done.stdout.startswith(f"ok (restore to {first} → memories/MEMORY.md)")
    assert (home / "memories" / "MEMORY.md").read_text() == "first entry\n§\nsecond entry"
    assert not (home / "MEMORY.md").exists()


def test_a_hermes_user_store_is_blamed_and_restored_as_user_md(tmp_path: Path) -> None:
    home = hermes_home(tmp_path)
    where = ("--home", str(home))
    ok("memory", "add", "name is Priya", "--target", "user", *where, tmp=tmp_path)
    ok("memory", "add", "likes tea", "--target", "user", *where, tmp=tmp_path)
    first, _ = ids(where, tmp_path, file="USER.md")
    blamed = json.loads(ok("blame", "USER.md", "--json", *where, tmp=tmp_path))
    assert [line["text"] for line in blamed["lines"]] == ["name is Priya", "§", "likes tea"]
    assert all(line["origin"] == "recorded" for line in blamed["lines"])
    ok("restore", "USER.md", "--to", first, *where, tmp=tmp_path)
    assert (home / "memories" / "USER.md").read_text() == "name is Priya"


def test_a_path_where_the_home_does_not_keep_the_file_is_refused_naming_where_it_is(tmp_path: Path) -> None:
    hermes = hermes_home(tmp_path)
    flat = tmp_path / "flat"
    flat.mkdir()
    (flat / "MEMORY.md").write_text("- one\n")
    for home, given, words in (
        (hermes, "memories/SOUL.md", "memories/SOUL.md is not a file of this home: its SOUL.md is SOUL.md"),
        (flat, "memories/MEMORY.md", "memories/MEMORY.md is not a file of this home: its MEMORY.md is MEMORY.md"),
    ):
        for verb in (("blame", given), ("history", "--file", given), ("restore", given, "--to", "w-")):
            out = run(*verb, "--home", str(home), tmp=tmp_path)
            assert out.returncode == 2 and words in out.stderr, (verb, out.stderr)
    assert not (hermes / ".notebook").exists() and not (flat / ".notebook").exists()


def test_an_openclaw_workspaces_memory_is_blamed_listed_and_restored(tmp_path: Path) -> None:
    home = tmp_path / "workspace"
    home.mkdir()
    (home / "AGENTS.md").write_text("# Agents\n")
    (home / "MEMORY.md").write_text("- from before\n")
    where = ("--host", "openclaw", "--home", str(home))
    ok("memory", "add", "second", *where, tmp=tmp_path)
    ok("memory", "add", "third", *where, tmp=tmp_path)
    first, second = ids(where, tmp_path, file="MEMORY.md")
    blamed = json.loads(ok("blame", "MEMORY.md", "--json", *where, tmp=tmp_path))
    assert [(line["origin"], line["id"]) for line in blamed["lines"]] == [
        ("before history", None),
        ("recorded", first),
        ("recorded", second),
    ]
    ok("restore", "MEMORY.md", "--to", first, *where, tmp=tmp_path)
    assert (home / "MEMORY.md").read_text() == "- from before\n- second\n"


def claude_project(tmp_path: Path) -> tuple[Path, Path, Path]:
    """A Claude Code project whose auto-memory folder holds MEMORY.md and the topic file debugging.md."""
    from notebook_app.core.hosts.claude_code.home import memory_dir

    user, root = tmp_path / "user", tmp_path / "proj"
    root.mkdir()
    (root / "CLAUDE.md").write_text("# Project\n")
    memory = memory_dir(root, {"HOME": str(user)})
    memory.mkdir(parents=True)
    (memory / "MEMORY.md").write_text("- uses make\n")
    (memory / "debugging.md").write_text("# Debugging\n")
    return root, user, memory


def test_a_claude_code_projects_memory_and_topic_file_are_blamed_listed_and_restored(tmp_path: Path) -> None:
    root, user, memory = claude_project(tmp_path)
    where = ("--host", "claude-code", "--home", str(root))
    ok("memory", "add", "runs tests with pytest", *where, tmp=tmp_path, home=user)
    blamed = json.loads(ok("blame", "MEMORY.md", "--json", *where, tmp=tmp_path, home=user))
    assert [line["origin"] for line in blamed["lines"]] == ["before history", "recorded"]

    editor = tmp_path / "editor.sh"
    editor.write_text('#!/bin/sh\nprintf -- "- flaky test: retry once\\n" >> "$1"\n')
    editor.chmod(editor.stat().st_mode | stat.S_IXUSR)
    edited = run_with_editor(tmp_path, user, editor, "edit", "debugging.md", *where)
    assert edited.returncode == 0, edited.stderr
    (record,) = ids(where, tmp_path, user, file="debugging.md")
    topic = json.loads(ok("blame", "debugging.md", "--json", *where, tmp=tmp_path, home=user))
    assert [(line["text"], line["id"]) for line in topic["lines"]] == [
        ("# Debugging", None),
        ("- flaky test: retry once", record),
    ]
    (memory / "debugging.md").write_text("# Debugging\nlost by hand\n")
    ok("restore", "debugging.md", "--to", record, *where, tmp=tmp_path, home=user)
    assert (memory / "debugging.md").read_text() == "# Debugging\n- flaky test: retry once\n"
    assert not (root / ".notebook").exists()


def run_with_editor(tmp: Path, user: Path, editor: Path, *args: str):  # type: ignore[no-untyped-def]
    import subprocess
    import sys

    env = {
        **os.environ,
        "XDG_CONFIG_HOME": str(tmp / "config"),
        "XDG_STATE_HOME": str(tmp / "state"),
        "OPENCLAW_CONFIG_PATH": str(tmp / "no-openclaw.json"),
        "GIT_CEILING_DIRECTORIES": str(tmp),
        "HOME": str(user),
        "EDITOR": str(editor),
    }
    env.pop("VISUAL", None)
    return subprocess.run(
        [sys.executable, "-m", "notebook_app", *args], capture_output=True, text=True, env=env, timeout=60
    )


def test_an_openclaw_daily_note_the_list_shows_is_said_to_have_no_history_not_to_be_no_file(tmp_path: Path) -> None:
    """The home's list shows memory/2026-12-06.md; blame, history and restore said it was 'not a file of this home'.
    The notebook never writes a daily note (its edits are refused), so no history is kept of it: said so."""
    home = tmp_path / "workspace"
    (home / "memory").mkdir(parents=True)
    (home / "AGENTS.md").write_text("# Agents\n")
    (home / "memory" / "2026-12-06.md").write_text("- daily note\n")
    where = ("--host", "openclaw", "--home", str(home))
    for args in (
        ("blame", "memory/2026-12-06.md"),
        ("history", "--file", "memory/2026-12-06.md"),
        ("restore", "memory/2026-12-06.md", "--to", "w-1m98p9s6pqa72"),
    ):
        out = run(*args, *where, tmp=tmp_path)
        assert out.returncode != 0, out.stdout
        assert "not a file of this home" not in out.stderr, (args, out.stderr)
        said = "memory/2026-12-06.md is a file the host reads on demand: the notebook never writes it, so it has no "
        said += "history"
        assert said in out.stderr, out.stderr
    assert (home / "memory" / "2026-12-06.md").read_text() == "- daily note\n"
