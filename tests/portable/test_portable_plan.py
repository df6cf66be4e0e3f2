"""A move's plan says where everything lands, what the target cuts, merges and moves aside; the write is the plan."""

from __future__ import annotations

import fcntl
import json
import os
import threading
import time
from pathlib import Path

import pytest
from portable_homes import HOSTS, demo_home, entries_of, env_for, files_under, planned, read, toolnexus_home

from notebook_app.core.hostbase.export import Place
from notebook_app.core.hostbase.registry import host as registered
from notebook_app.core.hostbase.registry import hosts
from notebook_app.core.memory import sections
from notebook_app.core.tidy.model import archive_for
from notebook_app.portable.layouts import layout_of
from notebook_app.portable.model import Fate, Plan, Problem, Role
from notebook_app.portable.planning import make_plan
from notebook_app.portable.words import plan_json, plan_text
from notebook_app.portable.writing import apply_plan


def _plan(tmp: Path, source: Path, src_host: str, host: str, dest: Path, **kwargs) -> Plan:
    env = env_for(tmp)
    plan = make_plan(read(source, src_host, env), host, dest, env=env, **kwargs)
    assert isinstance(plan, Plan), plan
    return plan


@pytest.mark.parametrize("host", HOSTS)
def test_the_written_home_is_exactly_the_plan(tmp_path: Path, host: str) -> None:
    plan = _plan(tmp_path, demo_home(tmp_path), "toolnexus", host, tmp_path / "dest")
    applied = apply_plan(plan)
    assert not isinstance(applied, Problem), applied
    wanted = planned(plan)
    assert files_under(*plan.places.values()) == set(wanted)
    for path, text in wanted.items():
        assert path.read_bytes() == text.encode("utf-8"), path


@pytest.mark.parametrize("host", HOSTS)
def test_planning_writes_nothing(tmp_path: Path, host: str) -> None:
    plan = _plan(tmp_path, demo_home(tmp_path), "toolnexus", host, tmp_path / "dest")
    assert not any(folder.exists() for folder in plan.places.values())


def test_a_claude_code_plan_names_both_places_it_writes(tmp_path: Path) -> None:
    plan = _plan(tmp_path, demo_home(tmp_path), "toolnexus", "claude-code", tmp_path / "proj")
    assert set(plan.places) == {Place.HOME, Place.MEMORY}
    memory = plan.places[Place.MEMORY]
    assert memory.parent.parent.parent == tmp_path / "claude-config"
    loaded = {(f.place, f.path) for f in plan.files if f.loads}
    assert loaded == {(Place.HOME, "CLAUDE.md"), (Place.MEMORY, "MEMORY.md")}
    text = plan_text(plan)
    assert str(tmp_path / "proj") in text and str(memory) in text
    assert plan_json(plan)["places"] == {"home": str(tmp_path / "proj"), "memory": str(memory)}


def test_hermes_keeps_one_of_exact_copies_and_the_plan_lists_the_others(tmp_path: Path) -> None:
    source = toolnexus_home(tmp_path, ["tea, no sugar", "walks at noon", "tea, no sugar"])
    plan = _plan(tmp_path, source, "toolnexus", "hermes", tmp_path / "dest")
    merged = [p for p in plan.placements if p.fate is Fate.MERGED]
    assert [(p.entry.text, p.entry.line) for p in merged] == [("tea, no sugar", 3)]
    assert "merged: MEMORY.md:3" in plan_text(plan)
    assert planned(plan)[tmp_path / "dest" / "memories" / "MEMORY.md"] == "tea, no sugar\n§\nwalks at noon"


def test_entries_past_hermes_limit_go_to_an_overflow_file_it_does_not_load(tmp_path: Path) -> None:
    entries = [f"fact {i:03d} " + "x" * 80 for i in range(40)]  # ≈ 3,800 characters against Hermes's 2,200
    plan = _plan(tmp_path, toolnexus_home(tmp_path, entries), "toolnexus", "hermes", tmp_path / "dest")
    overflow = [p for p in plan.placements if p.fate is Fate.OVERFLOW]
    loaded = [p for p in plan.placements if p.fate is Fate.LOADED and p.path == "memories/MEMORY.md"]
    assert overflow and loaded
    assert [p.entry.text for p in loaded + overflow] == entries  # in order, none dropped
    side = next(f for f in plan.files if f.path == "memories/MEMORY.overflow.md")
    assert not side.loads
    store = next(f for f in plan.files if f.path == "memories/MEMORY.md")
    assert len(store.text) <= 2200 < len(store.text) + len("\n§\n") + len(overflow[0].entry.text)


def test_entries_past_claude_codes_200_lines_go_to_a_topic_file(tmp_path: Path) -> None:
    entries = [f"note {i}" for i in range(260)]
    plan = _plan(tmp_path, toolnexus_home(tmp_path, entries), "toolnexus", "claude-code", tmp_path / "proj")
    memory = next(f for f in plan.files if f.path == "MEMORY.md")
    assert memory.text.count("\n") == 200 and not plan.cuts
    side = next(f for f in plan.files if f.path == "MEMORY.overflow.md")
    assert side.place is Place.MEMORY and not side.loads
    assert side.text.splitlines()[0] == "- note 200"


def test_entries_past_openclaws_cap_go_to_a_note_it_does_not_inject(tmp_path: Path) -> None:
    entries = [f"fact {i:05d} " + "y" * 90 for i in range(400)]  # ≈ 40,000 units, past OpenClaw's per-file cap
    plan = _plan(tmp_path, toolnexus_home(tmp_path, entries), "toolnexus", "openclaw", tmp_path / "dest")
    side = next(f for f in plan.files if f.path == "memory/MEMORY.overflow.md")
    assert not side.loads and "OpenClaw's agent reads" in side.note
    assert not any(c.path == "MEMORY.md" for c in plan.cuts)
    fates = [p.fate for p in plan.placements]
    assert fates.count(Fate.OVERFLOW) > 0 and len(fates) == 400


def test_a_whole_file_over_the_targets_cap_is_written_whole_and_its_cut_said(tmp_path: Path) -> None:
    source = toolnexus_home(tmp_path, ["one"])
    (source / "SOUL.md").write_text("soul words " * 3000)  # 33,000 characters; Hermes cuts SOUL.md past 20,000
    plan = _plan(tmp_path, source, "toolnexus", "hermes", tmp_path / "dest")
    assert [c.path for c in plan.cuts] == ["SOUL.md"]
    assert planned(plan)[tmp_path / "dest" / "SOUL.md"] == "soul words " * 3000
    assert "cut: SOUL.md: Hermes cuts it" in plan_text(plan)


def test_files_a_host_has_no_place_for_are_kept_where_it_does_not_load_them(tmp_path: Path) -> None:
    plan = _plan(tmp_path, demo_home(tmp_path), "toolnexus", "hermes", tmp_path / "dest")
    by_path = {f.path: f for f in plan.files}
    assert not by_path["AGENTS.md"].loads and not by_path["HEARTBEAT.md"].loads
    assert "Hermes does not load it" in by_path["AGENTS.md"].note
    assert by_path["memories/MEMORY.prose.md"].text == "# Wren's notes\n\n"  # and the blank line before the entries


def test_notes_and_the_archive_travel_to_each_hosts_place_for_them(tmp_path: Path) -> None:
    source = toolnexus_home(tmp_path, ["one"])
    (source / "memory").mkdir()
    (source / "memory" / "2026-12-01.md").write_text("- a daily note\n")
    (source / "memory" / "ARCHIVE.md").write_text("- archived\n")
    for host in HOSTS:
        plan = _plan(tmp_path, source, "toolnexus", host, tmp_path / f"to-{host}")
        paths = {f.path for f in plan.files}
        assert layout_of(registered(host)).note_path("2026-12-01.md")[1] in paths
        archive = layout_of(registered(host)).archive[1]
        assert archive in paths
        assert archive.endswith(archive_for(host).rpartition("/")[2])


def test_the_layouts_archives_are_tidys(tmp_path: Path) -> None:
    for host in hosts():
        assert layout_of(host).archive[1] == archive_for(host.id)


def test_a_merge_adds_new_entries_only_and_replaces_no_file(tmp_path: Path) -> None:
    source = toolnexus_home(tmp_path, ["kept", "new one"])
    dest = toolnexus_home(tmp_path, ["kept", "theirs"], name="dest")
    (dest / "SOUL.md").write_text("their soul\n")
    plan = _plan(tmp_path, source, "toolnexus", "toolnexus", dest, merge=True)
    assert [(p.entry.text, p.fate) for p in plan.placements] == [("kept", Fate.PRESENT), ("new one", Fate.LOADED)]
    assert not isinstance(apply_plan(plan), Problem)
    assert (dest / "MEMORY.md").read_text() == "- kept\n- theirs\n- new one\n"
    assert (dest / "SOUL.md").read_text() == "their soul\n"
    assert (dest / "SOUL.incoming.md").read_text() == "# Soul\n\nCalm.\n"


def test_a_merge_into_a_hermes_home_appends_to_its_store(tmp_path: Path) -> None:
    dest = tmp_path / "hermes"
    (dest / "memories").mkdir(parents=True)
    (dest / "memories" / "MEMORY.md").write_text("old\n§\nkept")
    plan = _plan(tmp_path, toolnexus_home(tmp_path, ["kept", "new"]), "toolnexus", "hermes", dest, merge=True)
    assert not isinstance(apply_plan(plan), Problem)
    assert (dest / "memories" / "MEMORY.md").read_text() == "old\n§\nkept\n§\nnew"


def test_a_file_changed_since_the_plan_is_never_written_over(tmp_path: Path) -> None:
    dest = toolnexus_home(tmp_path, ["theirs"], name="dest")
    plan = _plan(tmp_path, toolnexus_home(tmp_path, ["ours"]), "toolnexus", "toolnexus", dest, merge=True)
    (dest / "MEMORY.md").write_text("- theirs\n- written meanwhile\n")
    before = {p: p.read_bytes() for p in files_under(dest)}
    result = apply_plan(plan)
    assert isinstance(result, Problem) and result.exit_code == 1
    assert "MEMORY.md changed since the plan" in result.message
    assert {p: p.read_bytes() for p in files_under(dest)} == before


def test_a_file_that_appeared_since_the_plan_is_never_written_over(tmp_path: Path) -> None:
    dest = tmp_path / "dest"
    plan = _plan(tmp_path, demo_home(tmp_path), "toolnexus", "openclaw", dest)
    dest.mkdir()
    (dest / "SOUL.md").write_text("someone else's\n")
    result = apply_plan(plan)
    assert isinstance(result, Problem) and "SOUL.md appeared since the plan" in result.message
    assert files_under(dest) == {dest / "SOUL.md"}


def test_the_plan_as_json_names_every_file_and_entry(tmp_path: Path) -> None:
    plan = _plan(tmp_path, demo_home(tmp_path), "toolnexus", "hermes", tmp_path / "dest")
    data = json.loads(json.dumps(plan_json(plan)))
    assert data["schema"] == 1 and data["target"]["host"] == "hermes"
    assert len(data["entries"]) == 18 and {e["fate"] for e in data["entries"]} == {"loaded"}
    assert {f["path"] for f in data["files"]} == {f.path for f in plan.files}


def test_an_import_reads_back_what_an_export_moved_aside(tmp_path: Path) -> None:
    entries = [f"fact {i:03d} " + "z" * 80 for i in range(40)]
    plan = _plan(tmp_path, toolnexus_home(tmp_path, entries), "toolnexus", "hermes", tmp_path / "hermes")
    assert not isinstance(apply_plan(plan), Problem)
    assert entries_of(read(tmp_path / "hermes", "hermes", env_for(tmp_path)), "MEMORY.md") == entries


def test_a_merge_into_a_hermes_home_waits_for_hermess_own_lock(tmp_path: Path) -> None:
    dest = tmp_path / "hermes"
    (dest / "memories").mkdir(parents=True)
    (dest / "memories" / "MEMORY.md").write_text("old")
    plan = _plan(tmp_path, toolnexus_home(tmp_path, ["new"]), "toolnexus", "hermes", dest, merge=True)
    fd = os.open(dest / "memories" / "MEMORY.md.lock", os.O_RDWR | os.O_CREAT, 0o644)
    fcntl.flock(fd, fcntl.LOCK_EX)  # Hermes, in the middle of its own write
    results: list[object] = []
    writer = threading.Thread(target=lambda: results.append(apply_plan(plan)))
    writer.start()
    time.sleep(0.5)
    assert writer.is_alive() and (dest / "memories" / "MEMORY.md").read_text() == "old"
    os.close(fd)
    writer.join(10)
    assert results and not isinstance(results[0], Problem)
    assert (dest / "memories" / "MEMORY.md").read_text() == "old\n§\nnew"


def test_an_entry_a_hermes_store_would_split_is_kept_beside_it_and_said(tmp_path: Path) -> None:
    plan = _plan(tmp_path, toolnexus_home(tmp_path, ["one", "§", "two"]), "toolnexus", "hermes", tmp_path / "h")
    unfit = [p for p in plan.placements if p.fate is Fate.UNLOADED]
    assert [(p.entry.line, p.path) for p in unfit] == [(2, "memories/MEMORY.prose.md")]
    assert "a line of only §" in plan_text(plan)
    assert planned(plan)[tmp_path / "h" / "memories" / "MEMORY.md"] == "one\n§\ntwo"
    assert planned(plan)[tmp_path / "h" / "memories" / "MEMORY.prose.md"] == "- §\n"


def test_an_entry_with_a_carriage_return_is_planned_as_hermes_reads_it(tmp_path: Path) -> None:
    # Hermes reads its store with universal newlines: a bare \r in a '- ' entry is a line break to it, so
    # "x\r§\ry" is two entries there and "two\rhalves" comes back as "two\nhalves" (found by interop (e)).
    source = toolnexus_home(tmp_path, ["one", "two\rhalves", "x\r§\ry", "three"])
    plan = _plan(tmp_path, source, "toolnexus", "hermes", tmp_path / "h")
    store = planned(plan)[tmp_path / "h" / "memories" / "MEMORY.md"]
    loaded = sorted((p for p in plan.placements if p.fate is Fate.LOADED), key=lambda p: p.number or 0)
    assert sections.entries(store) == ["one", "two\nhalves", "three"]
    assert [(p.entry.line, p.number) for p in loaded] == [(1, 1), (2, 2), (4, 3)]
    assert "carriage return" in loaded[1].changed
    unfit = [p for p in plan.placements if p.fate is Fate.UNLOADED]
    assert [(p.entry.line, p.path) for p in unfit] == [(3, "memories/MEMORY.prose.md")]
    assert planned(plan)[tmp_path / "h" / "memories" / "MEMORY.prose.md"] == "- x\r§\ry\n"


def test_a_hermes_entry_is_joined_at_its_line_feeds_only(tmp_path: Path) -> None:
    # Hermes's lines and a '- ' file's end at \n; str.splitlines also split at \u2028 and \x0c, so an entry of two
    # lines holding one was said as "its 3 lines" and lost the character, while one without \n kept it (interop (f)).
    source = tmp_path / "hermes"
    (source / "memories").mkdir(parents=True)
    (source / "memories" / "MEMORY.md").write_text("one\u2028half\nsecond\n§\nff\x0cpage\nnext", newline="")
    plan = _plan(tmp_path, source, "hermes", "toolnexus", tmp_path / "home")
    assert planned(plan)[tmp_path / "home" / "MEMORY.md"] == "- one\u2028half second\n- ff\x0cpage next\n"
    assert [p.changed for p in plan.placements] == ["its 2 lines joined with spaces: a '- ' entry is one line"] * 2


def test_a_second_merge_replaces_no_file_an_earlier_one_wrote(tmp_path: Path) -> None:
    dest = tmp_path / "hermes"
    (dest / "memories").mkdir(parents=True)
    (dest / "SOUL.md").write_text("their soul")
    (dest / "memories" / "MEMORY.md").write_text("x" * 2199)  # full: every new entry overflows
    for round_, entries in enumerate((["first"], ["second"]), start=1):
        source = toolnexus_home(tmp_path, entries, name=f"src{round_}")
        (source / "SOUL.md").write_text(f"soul {round_}")
        plan = _plan(tmp_path, source, "toolnexus", "hermes", dest, merge=True)
        assert not isinstance(apply_plan(plan), Problem)
    assert (dest / "memories" / "MEMORY.overflow.md").read_text() == "first\n§\nsecond"
    assert (dest / "SOUL.md").read_text() == "their soul"
    assert (dest / "SOUL.incoming.md").read_text() == "soul 1"
    assert (dest / "SOUL.incoming-2.md").read_text() == "soul 2"


def test_a_claude_code_projects_dot_claude_instructions_travel_as_agents_md(tmp_path: Path) -> None:
    project = tmp_path / "proj"
    (project / ".claude").mkdir(parents=True)
    (project / ".claude" / "CLAUDE.md").write_text("# Rules\n\nBe brief.\n")
    persona = read(project, "claude-code", env_for(tmp_path))
    agents = persona.file("AGENTS.md")
    assert agents is not None and agents.text == "# Rules\n\nBe brief.\n" and agents.path == ".claude/CLAUDE.md"


def test_a_claude_code_projects_second_instructions_file_travels_as_a_note_and_is_scanned(tmp_path: Path) -> None:
    project = tmp_path / "proj"
    (project / ".claude").mkdir(parents=True)
    (project / "CLAUDE.md").write_text("# Rules\n\nBe brief.\n")
    (project / ".claude" / "CLAUDE.md").write_text("# More rules\n\nUse tabs.\n")
    env = env_for(tmp_path)
    persona = read(project, "claude-code", env)
    plan = make_plan(persona, "toolnexus", tmp_path / "dest", env=env)
    assert isinstance(plan, Plan)
    texts = {f.path: f.text for f in plan.files}
    assert texts["AGENTS.md"] == "# Rules\n\nBe brief.\n"
    carried = [path for path, text in texts.items() if text == "# More rules\n\nUse tabs.\n"]
    assert carried == ["memory/claude-CLAUDE.md"]
    assert any(note.startswith(".claude/CLAUDE.md: Claude Code loads it as well as CLAUDE.md") for note in plan.notes)
    (project / ".claude" / "CLAUDE.md").write_text(
        "token " + "gh" + "p_" + "abcdefghijklmnopqrstuvwxyz" + "0123456789\n"
    )
    secret = make_plan(read(project, "claude-code", env), "toolnexus", tmp_path / "dest", env=env)
    assert isinstance(secret, Plan) and [h.words() for h in secret.secrets] == [
        "security.secret at .claude/CLAUDE.md:1"
    ]


def test_notes_whose_names_collide_are_renamed_until_free_and_none_is_lost(tmp_path: Path) -> None:
    source = tmp_path / "hermes"
    (source / "memories").mkdir(parents=True)
    (source / "notes").mkdir()
    (source / "memories" / "MEMORY.md").write_text("a fact")
    notes = {"memories/foo.md": "A\n", "memories/note-foo.md": "B\n", "notes/foo.md": "C\n"}
    notes["notes/USER.overflow.md"] = "- D is a note here, not an overflow file\n"
    for path, text in notes.items():
        (source / path).write_text(text)
    env = env_for(tmp_path)
    persona = read(source, "hermes", env)
    assert sorted(f.text for f in persona.files if f.name.startswith("notes/")) == sorted(notes.values())
    plan = make_plan(persona, "toolnexus", tmp_path / "dest", env=env)
    assert isinstance(plan, Plan)
    carried = {f.text: f.path for f in plan.files if f.text in notes.values()}
    assert sorted(carried) == sorted(notes.values())
    assert carried["C\n"] not in ("memory/foo.md", "memory/note-foo.md")
    assert carried[notes["notes/USER.overflow.md"]] != "memory/USER.overflow.md"
    assert any("renamed" in note and carried["C\n"] in note for note in plan.notes), plan.notes
    assert not isinstance(apply_plan(plan), Problem)
    back = read(tmp_path / "dest", "toolnexus", env)
    assert entries_of(back, "USER.md") == []


def test_the_archive_and_a_note_are_told_apart_by_their_role(tmp_path: Path) -> None:
    home = toolnexus_home(tmp_path, ["a fact"])
    (home / "memory").mkdir()
    (home / "memory" / "ARCHIVE.md").write_text("## old\n")
    (home / "memory" / "day.md").write_text("a day\n")
    persona = read(home, "toolnexus", env_for(tmp_path))
    roles = {f.path: f.role for f in persona.files}
    assert roles["memory/ARCHIVE.md"] is Role.ARCHIVE and roles["memory/day.md"] is Role.NOTE
    plan = make_plan(persona, "hermes", tmp_path / "dest", env=env_for(tmp_path))
    assert isinstance(plan, Plan)
    assert {f.path: f.text for f in plan.files}["memories/ARCHIVE.md"] == "## old\n"


def test_a_plan_names_the_real_path_each_file_comes_from(tmp_path: Path) -> None:
    """Issue 34: an OpenClaw plan named ``notes/2026-12-06.md`` (a name of the move's own) as a note's source."""
    source = toolnexus_home(tmp_path, ["one"], ["two"])
    (source / "memory").mkdir()
    (source / "memory" / "2026-12-06.md").write_text("- a daily note\n")
    as_openclaw = _plan(tmp_path, source, "toolnexus", "openclaw", tmp_path / "claw")
    assert isinstance(as_openclaw, Plan)
    assert {f.path: f.source for f in as_openclaw.files}["memory/2026-12-06.md"] == "memory/2026-12-06.md"
    assert "memory/2026-12-06.md ← memory/2026-12-06.md (" in plan_text(as_openclaw)
    assert all(not f.source.startswith("notes/") for f in as_openclaw.files)
    as_hermes = _plan(tmp_path, source, "toolnexus", "hermes", tmp_path / "hermes")
    assert isinstance(as_hermes, Plan)
    written = apply_plan(as_hermes)
    assert not isinstance(written, Problem), written
    back = _plan(tmp_path, tmp_path / "hermes", "hermes", "toolnexus", tmp_path / "back")
    assert isinstance(back, Plan)
    sources = {f.path: f.source for f in back.files}
    assert sources["MEMORY.md"] == "memories/MEMORY.md" and sources["USER.md"] == "memories/USER.md"
    assert (
        sources["memory/2026-12-06.md"] == layout_of(registered("hermes")).note_path("2026-12-06.md")[1]
    )  # where Hermes had it
