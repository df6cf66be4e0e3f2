"""Each host's file map: what it injects in its order, what its agent reads on demand, and which paths are its files."""

from __future__ import annotations

import os
from pathlib import Path

from notebook_app.core.home.layout import FLAT, claude_code_files, hermes_files, on_demand_files, openclaw_files
from notebook_app.core.home.remembered import remember_host
from notebook_app.core.home.signs import may_be_host_home
from notebook_app.core.home.soul import compose

OPENCLAW_ORDER = ("AGENTS.md", "SOUL.md", "IDENTITY.md", "USER.md", "BOOTSTRAP.md", "MEMORY.md")


def test_daily_notes_are_listed_newest_first_and_never_a_folder_or_another_kind_of_file(tmp_path: Path) -> None:
    notes = tmp_path / "memory"
    notes.mkdir()
    for name in ("2026-11-30.md", "2026-12-02.md", "2026-12-01-standup.md", "todo.txt"):
        (notes / name).write_text("- a note\n")
    (notes / "2026-12-03.md").mkdir()  # a folder named like a note is none
    os.symlink(notes / "2026-11-30.md", notes / "2026-11-29.md")
    found, total = on_demand_files(tmp_path, openclaw_files(OPENCLAW_ORDER))
    assert found == (
        "memory/2026-12-02.md",
        "memory/2026-12-01-standup.md",
        "memory/2026-11-30.md",
        "memory/2026-11-29.md",
    )
    assert total == 4


def test_the_list_of_notes_is_capped_and_says_how_many_there_are(tmp_path: Path) -> None:
    (tmp_path / "memory").mkdir()
    for day in range(1, 31):
        (tmp_path / "memory" / f"2026-11-{day:02}.md").write_text("- a note\n")
    found, total = on_demand_files(tmp_path, openclaw_files(OPENCLAW_ORDER), cap=5)
    assert (found[0], len(found), total) == ("memory/2026-11-30.md", 5, 30)


def test_topic_files_are_every_markdown_file_beside_memory_md_but_memory_md(tmp_path: Path) -> None:
    for name in ("MEMORY.md", "debugging.md", "people.md"):
        (tmp_path / name).write_text("- x\n")
    (tmp_path / ".notebook").mkdir()
    assert on_demand_files(tmp_path, claude_code_files()) == (("people.md", "debugging.md"), 2)


def test_a_folder_that_cannot_be_listed_gives_no_notes(tmp_path: Path) -> None:
    (tmp_path / "memory").write_text("a file where the folder would be")
    assert on_demand_files(tmp_path, openclaw_files(OPENCLAW_ORDER)) == ((), 0)


def test_a_path_is_named_as_the_map_keeps_it_or_is_none_of_the_homes(tmp_path: Path) -> None:
    hermes, openclaw = hermes_files(), openclaw_files(OPENCLAW_ORDER)
    assert hermes.name_at(tmp_path, tmp_path / "memories" / "MEMORY.md") == "MEMORY.md"
    assert hermes.name_at(tmp_path, tmp_path / "MEMORY.md") is None  # Hermes keeps it in memories/
    assert hermes.name_at(tmp_path, tmp_path / "SOUL.md") == "SOUL.md"
    assert openclaw.name_at(tmp_path, tmp_path / "BOOTSTRAP.md") == "BOOTSTRAP.md"
    assert openclaw.name_at(tmp_path, tmp_path / "memory" / "2026-12-01.md") == "memory/2026-12-01.md"
    assert openclaw.name_at(tmp_path, tmp_path / "memory" / "deep" / "x.md") is None
    assert openclaw.name_at(tmp_path, tmp_path / "notes.md") is None
    assert FLAT.name_at(tmp_path, tmp_path / "memory" / "2026-12-01.md") is None
    assert claude_code_files().name_at(tmp_path, tmp_path / "debugging.md") == "debugging.md"
    assert FLAT.name_at(tmp_path, tmp_path.parent / "MEMORY.md") is None
    assert openclaw.subfolders == ("memory",)


def test_a_frozen_snapshot_of_an_openclaw_workspace_holds_bootstrap_md_beside_the_contracts_soul(
    tmp_path: Path,
) -> None:
    (tmp_path / "SOUL.md").write_text("calm\n")
    (tmp_path / "BOOTSTRAP.md").write_text("first run: ask their name\n")
    held = compose(tmp_path, layout=openclaw_files(OPENCLAW_ORDER))
    plain = compose(tmp_path)
    assert [f.name for f in held.held] == ["BOOTSTRAP.md"]
    assert bytes(held.held[0].loaded) == b"first run: ask their name\n"
    assert (held.soul, held.found) == (plain.soul, plain.found)  # the contract's soul never holds it
    assert plain.held == ()


def test_a_plain_home_shows_no_sign_of_any_host_so_no_host_rules_load_at_start(tmp_path: Path) -> None:
    home = tmp_path / "home"
    home.mkdir()
    (home / "MEMORY.md").write_text("- a\n")
    env = {"HOME": str(tmp_path / "user")}
    state = tmp_path / "state"
    assert not may_be_host_home(home, env, state)
    (home / "memories").mkdir()
    assert may_be_host_home(home, env, state)
    (home / "memories").rmdir()
    (home / ".claude").mkdir()
    assert not may_be_host_home(home, env, state)  # a .claude/ folder alone makes no Claude Code project
    for clue in ("CLAUDE.md", ".claude/CLAUDE.md"):
        (home / clue).write_text("# project\n")
        assert may_be_host_home(home, env, state), clue
        (home / clue).unlink()
    (tmp_path / "openclaw.json").write_text("{}")  # beside the folder: OpenClaw's state dir
    assert may_be_host_home(home, env, state)
    (tmp_path / "openclaw.json").unlink()
    (tmp_path / "user" / ".openclaw").mkdir(parents=True)
    (tmp_path / "user" / ".openclaw" / "openclaw.json").write_text("{}")  # its config may name the folder
    assert may_be_host_home(home, env, state)
    (tmp_path / "user" / ".openclaw" / "openclaw.json").unlink()
    assert not may_be_host_home(home, env, state)
    assert may_be_host_home(home, {**env, "OPENCLAW_WORKSPACE_DIR": str(home)}, state)
    assert remember_host(home, "openclaw", state=state) is None
    assert may_be_host_home(home, env, state)
