"""Applying tidy's hunks on real homes: only live ids, the archive first, one recorded write, undone as one."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest
from home_bytes import files_of
from hypothesis import HealthCheck, event, given, settings
from hypothesis import strategies as st
from test_tidy import PLANTED, _hex

from notebook_app.core.history.query import check, history
from notebook_app.core.history.undo_group import undo
from notebook_app.core.home.layout import Dialect, hermes_files
from notebook_app.core.home.reading import read_intent
from notebook_app.core.memory import sections
from notebook_app.core.memory.tool import memory_tool
from notebook_app.core.record.log.actor import CLI, Actor
from notebook_app.core.record.log.store import LOG_PATH
from notebook_app.core.tidy.apply import apply_tidy
from notebook_app.core.tidy.model import Kind, Proposal
from notebook_app.core.tidy.propose import tidy

AGENT = Actor.mcp("20261206-010101-0badc0de", "kip-host", "1.0")
HEADING = re.compile(r"## \d{4}-\d{2}-\d{2} tidy (w-[0-9a-z]+)")


def planted(home: Path) -> None:
    (home / "MEMORY.md").write_text(PLANTED)
    (home / "USER.md").write_text("- name: Ana\n- likes green tea\n- name: Ana\n- Likes green tea a lot\n")


def records(home: Path) -> list[dict]:
    return [json.loads(line) for line in (home / LOG_PATH).read_text(encoding="utf-8").splitlines()[1:]]


def planned(home: Path, proposal: Proposal, files: tuple[str, ...] = ("MEMORY.md", "USER.md")) -> dict[str, str]:
    """What each ``- `` source should read after applying every hunk: its lines less the hunks' lines."""
    out = {}
    for name in files:
        gone = {e.line for h in proposal.hunks if h.file == name for e in h.entries}
        lines = (home / name).read_text().splitlines(keepends=True)
        out[name] = "".join(line for number, line in enumerate(lines, 1) if number not in gone)
    return out


def moved_raws(proposal: Proposal) -> list[str]:
    """The archive's lines after its heading and a blank line: by source file, under ``### from`` when several."""
    moved = [e for h in proposal.hunks if not h.kind.removes for e in h.entries]
    names = sorted({e.file for e in moved}, key=["MEMORY.md", "USER.md"].index)
    if len(names) == 1:
        return [e.raw for e in moved]
    return [line for name in names for line in [f"### from {name}\n"] + [e.raw for e in moved if e.file == name]]


def test_apply_then_undo_restores_every_byte_of_every_file_and_removes_the_archive_it_made(home: Path) -> None:
    planted(home)
    before = {name: (home / name).read_bytes() for name in ("MEMORY.md", "USER.md")}
    proposal = tidy(home)
    result = apply_tidy(home, [h.id for h in proposal.hunks], by=CLI)
    assert not result.is_error, result.output
    assert (home / "memory" / "ARCHIVE.md").exists()
    assert (home / "MEMORY.md").read_bytes() != before["MEMORY.md"]
    undone = undo(home, result.record, by=CLI)
    assert not undone.is_error, undone.output
    assert {name: (home / name).read_bytes() for name in before} == before
    # the archive was absent before: absent after, because the undo of its creation removes a file that is still
    # exactly what the tidy made; and the memory/ folder the tidy made with it goes too (issue 34, cosmetic)
    assert not (home / "memory").exists()
    assert "the archive it made is removed" in undone.output
    assert check(home) == []


def test_an_undone_tidy_keeps_a_memory_folder_that_was_there_before_it(home: Path) -> None:
    planted(home)
    (home / "memory").mkdir()
    result = apply_tidy(home, [h.id for h in tidy(home).hunks], by=CLI)
    assert not result.is_error, result.output
    undone = undo(home, result.record, by=CLI)
    assert not undone.is_error, undone.output
    assert (home / "memory").is_dir() and list((home / "memory").iterdir()) == []


def test_undoing_the_undo_applies_the_tidy_again_byte_for_byte(home: Path) -> None:
    planted(home)
    result = apply_tidy(home, [h.id for h in tidy(home).hunks], by=CLI)
    after = files_of(home / "memory") | {n: (home / n).read_bytes() for n in ("MEMORY.md", "USER.md")}
    undone = undo(home, result.record, by=CLI)
    redone = undo(home, undone.record, by=CLI)
    assert not redone.is_error, redone.output
    assert files_of(home / "memory") | {n: (home / n).read_bytes() for n in ("MEMORY.md", "USER.md")} == after
    assert check(home) == []


def test_apply_to_an_existing_archive_appends_and_undo_gives_back_its_bytes(home: Path) -> None:
    planted(home)
    (home / "memory").mkdir()
    old = "## 2026-11-01 tidy w-1m00000000000\n\n- an old fact\n"
    (home / "memory" / "ARCHIVE.md").write_text(old)
    proposal = tidy(home)
    result = apply_tidy(home, [h.id for h in proposal.hunks if h.kind is Kind.SUPERSEDED], by=CLI)
    archive = (home / "memory" / "ARCHIVE.md").read_text()
    assert archive.startswith(old + "\n## ") and archive.endswith("\n- timezone: UTC\n")
    assert HEADING.search(archive.removeprefix(old)).group(1) == result.record
    undo(home, result.record, by=CLI)
    assert (home / "memory" / "ARCHIVE.md").read_text() == old
    assert (home / "MEMORY.md").read_text() == PLANTED


def test_a_stale_hunk_is_never_applied_names_its_id_and_writes_nothing(home: Path) -> None:
    planted(home)
    memory_tool(home).call({"action": "add", "text": "a first recorded write"})
    proposal = tidy(home)
    superseded = next(h for h in proposal.hunks if h.kind is Kind.SUPERSEDED)
    duplicate = next(h for h in proposal.hunks if h.kind is Kind.EXACT_DUPLICATE and h.file == "USER.md")
    # an agent writes to the superseded entry's bytes between the proposal and the apply
    assert not memory_tool(home, by=AGENT).call({"action": "replace", "text": "UTC", "with": "CET"}).is_error
    snapshot = files_of(home)
    result = apply_tidy(home, [duplicate.id, superseded.id], by=CLI)
    assert result.is_error and result.record is None
    assert [r.id for r in result.refused] == [superseded.id]
    assert superseded.id in result.output and "stale" in result.output and "nothing was written" in result.output
    assert files_of(home) == snapshot  # not the live duplicate either, not even the log


def test_an_unknown_or_ambiguous_id_is_refused_by_name_and_a_unique_prefix_applies(home: Path) -> None:
    planted(home)
    hunks = tidy(home).hunks
    snapshot = files_of(home)
    result = apply_tidy(home, ["", "zzzz"], by=CLI)
    assert [r.id for r in result.refused] == ["", "zzzz"] and files_of(home) == snapshot
    superseded = next(h for h in hunks if h.kind is Kind.SUPERSEDED)
    applied = apply_tidy(home, [superseded.id[:6]], by=CLI)
    assert applied.applied == (superseded.id,) and tidy(home).by_id(superseded.id) is None
    assert "- timezone: UTC\n" not in (home / "MEMORY.md").read_text()


def test_no_ids_and_no_home_are_results_in_words(tmp_path: Path) -> None:
    assert apply_tidy(tmp_path, [], by=CLI).is_error
    missing = apply_tidy(tmp_path / "nowhere", ["abc"], by=CLI)
    assert missing.is_error and "no such home" in missing.output


def test_the_tidy_is_one_group_whose_head_lists_each_file_and_span(home: Path) -> None:
    planted(home)
    result = apply_tidy(home, [h.id for h in tidy(home).hunks], by=CLI)
    tidied = [r for r in records(home) if r["action"] == "tidy"]
    assert [r["file"] for r in tidied] == ["memory/ARCHIVE.md", "MEMORY.md", "USER.md"]
    assert tidied[0]["id"] == result.record and {r["group"] for r in tidied} == {result.record}
    assert tidied[0]["files"] == [{"file": r["file"], "lines": r["lines"]} for r in tidied]
    assert [r["id"] for r in tidied] == sorted(r["id"] for r in tidied)
    assert result.files == ("memory/ARCHIVE.md", "MEMORY.md", "USER.md")
    assert f"persona-notebook undo {result.record}" in result.output and "moved to memory/ARCHIVE.md" in result.output
    assert [e.action for e in history(home)] == ["tidy", "tidy", "tidy"]


def _over_budget(home: Path) -> None:
    (home / "MEMORY.md").write_text("".join(f"- {_hex(i)[:20]}\n" for i in range(250)))


def _duplicates(home: Path) -> None:
    (home / "MEMORY.md").write_text("- a fact\n- b fact\n- a fact\n-\n\n\n\n- a fact\n")


def _near(home: Path) -> None:
    (home / "USER.md").write_text("- likes green tea\n- Likes green tea a lot\n- name is Ana\n")


def _superseded(home: Path) -> None:
    (home / "MEMORY.md").write_text("- timezone: UTC\n- port: 80\n- timezone: IST\n- port: 8080\n")


@pytest.mark.parametrize("plant", [_duplicates, _near, _superseded, _over_budget, planted])
def test_the_written_result_equals_the_plan(home: Path, plant) -> None:
    from notebook_app.core.hosts.choice import resolve_host

    plant(home)
    profile = resolve_host("claude-code").profile if plant is _over_budget else None
    proposal = tidy(home, profile=profile)
    assert proposal.hunks
    names = tuple(n for n in ("MEMORY.md", "USER.md") if (home / n).exists())
    want = planned(home, proposal, names)
    result = apply_tidy(home, [h.id for h in proposal.hunks], profile=profile, by=CLI)
    assert not result.is_error, result.output
    assert {n: (home / n).read_text() for n in names} == want
    raws = moved_raws(proposal)
    archive = home / "memory" / "ARCHIVE.md"
    if raws:
        text = archive.read_text()
        assert HEADING.fullmatch(text.splitlines()[0]).group(1) == result.record
        assert text.splitlines(keepends=True)[2:] == raws
    else:
        assert not archive.exists()
    removed = [e for h in proposal.hunks if h.kind.removes for e in h.entries]
    assert len(result.moved) == len([e for h in proposal.hunks if not h.kind.removes for e in h.entries])
    assert len(result.removed) == len(removed)
    assert tidy(home, profile=profile).hunks == () or plant is _over_budget
    assert check(home) == []


def test_a_hermes_store_is_written_as_hermes_writes_it_and_its_archive_keeps_the_sections(home: Path) -> None:
    store = home / "memories"
    store.mkdir()
    (store / "USER.md").write_text("likes green tea\n§\nname: Ana\n§\nlikes green tea\n§\nLikes green tea a lot")
    before = (store / "USER.md").read_bytes()
    files = hermes_files()
    proposal = tidy(home, files)
    result = apply_tidy(home, [h.id for h in proposal.hunks], files=files, by=CLI)
    assert not result.is_error, result.output
    assert (store / "USER.md").read_text() == sections.joined(["name: Ana", "Likes green tea a lot"])
    pieces = (store / "ARCHIVE.md").read_text().split(sections.DELIMITER)
    assert HEADING.fullmatch(pieces[0]) and pieces[1:] == ["likes green tea"]
    assert result.archive == "memories/ARCHIVE.md" and proposal.hunks[0].file == "USER.md"
    assert parse_dialect(store / "ARCHIVE.md") is Dialect.SECTIONS
    undo(home, result.record, by=CLI)
    assert (store / "USER.md").read_bytes() == before and not (store / "ARCHIVE.md").exists()


def parse_dialect(path: Path) -> Dialect:
    from notebook_app.core.memory.dialect import dialect_in

    return dialect_in(path.read_text())


def test_undo_is_refused_whole_when_a_later_write_changed_a_place_the_tidy_wrote(home: Path) -> None:
    planted(home)
    result = apply_tidy(home, [h.id for h in tidy(home).hunks], by=CLI)
    assert (home / "USER.md").read_text() == "- name: Ana\n- Likes green tea a lot\n"
    # the agent removes the line right where the tidy took two out: undoing the tidy there would guess
    call = {"action": "remove", "target": "user", "text": "- Likes green tea a lot\n"}
    assert not memory_tool(home, by=AGENT).call(call).is_error
    snapshot = files_of(home)
    undone = undo(home, result.record, by=CLI)
    assert undone.is_error and "USER.md" in undone.output and "nothing was changed" in undone.output
    assert files_of(home) == snapshot


def test_undo_of_any_record_of_the_group_undoes_the_whole_group(home: Path) -> None:
    planted(home)
    apply_tidy(home, [h.id for h in tidy(home).hunks], by=CLI)
    source_record = next(r for r in records(home) if r["file"] == "USER.md")
    undone = undo(home, source_record["id"], by=CLI)
    assert not undone.is_error, undone.output
    assert (home / "MEMORY.md").read_text() == PLANTED and not (home / "memory" / "ARCHIVE.md").exists()


def test_claude_codes_archive_is_archive_md_in_its_memory_folder(home: Path) -> None:
    from notebook_app.core.home.layout import claude_code_files
    from notebook_app.core.hosts.choice import resolve_host

    files, profile = claude_code_files(), resolve_host("claude-code").profile
    (home / "MEMORY.md").write_text("- a fact\n- timezone: UTC\n- a fact\n- timezone: IST\n")
    (home / "debugging.md").write_text("a topic file, untouched\n")
    proposal = tidy(home, files, profile)
    result = apply_tidy(home, [h.id for h in proposal.hunks], files=files, profile=profile, by=CLI)
    assert not result.is_error, result.output
    assert result.archive == "ARCHIVE.md" and (home / "ARCHIVE.md").read_text().endswith("\n\n- timezone: UTC\n")
    assert (home / "MEMORY.md").read_text() == "- a fact\n- timezone: IST\n" and not (home / "memory").exists()
    assert (home / "debugging.md").read_text() == "a topic file, untouched\n"
    assert check(home) == []
    undo(home, result.record, by=CLI)
    assert not (home / "ARCHIVE.md").exists() and "timezone: UTC" in (home / "MEMORY.md").read_text()


def test_an_openclaw_workspace_archives_in_memory_beside_its_daily_notes(home: Path) -> None:
    from notebook_app.core.home.layout import openclaw_files

    files = openclaw_files(("AGENTS.md", "SOUL.md", "USER.md", "MEMORY.md"))
    (home / "memory").mkdir()
    (home / "memory" / "2026-12-01.md").write_text("a daily note\n")
    (home / "USER.md").write_text("- name: Ana\n- name: Ana B\n")
    result = apply_tidy(home, [h.id for h in tidy(home, files).hunks], files=files, by=CLI)
    assert not result.is_error, result.output
    assert (home / "memory" / "ARCHIVE.md").read_text().endswith("\n\n- name: Ana\n")
    assert (home / "memory" / "2026-12-01.md").read_text() == "a daily note\n"
    assert (home / "USER.md").read_text() == "- name: Ana B\n"


def test_crlf_lines_a_lone_carriage_return_and_no_final_newline_keep_their_bytes(home: Path) -> None:
    text = b"- a fact\r\n- odd \r inside\r\n- a fact\r\n- timezone: UTC\r\n- timezone: IST"
    (home / "MEMORY.md").write_bytes(text)
    (home / "USER.md").write_bytes(b"- x: 1\n- x: 2")
    proposal = tidy(home)
    result = apply_tidy(home, [h.id for h in proposal.hunks], by=CLI)
    assert not result.is_error, result.output
    assert (home / "MEMORY.md").read_bytes() == b"- a fact\r\n- odd \r inside\r\n- timezone: IST"
    assert (home / "USER.md").read_bytes() == b"- x: 2"
    archive = (home / "memory" / "ARCHIVE.md").read_bytes()
    assert archive.endswith(b"\n\n### from MEMORY.md\n- timezone: UTC\r\n### from USER.md\n- x: 1\n")
    undo(home, result.record, by=CLI)
    assert (home / "MEMORY.md").read_bytes() == text and (home / "USER.md").read_bytes() == b"- x: 1\n- x: 2"


def test_with_no_history_to_keep_the_apply_writes_and_says_it_cannot_be_undone(home: Path, tmp_path: Path) -> None:
    import os

    planted(home)
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    os.symlink(elsewhere, home / ".notebook")
    proposal = tidy(home)
    want = planned(home, proposal)
    result = apply_tidy(home, [h.id for h in proposal.hunks], by=CLI)
    assert not result.is_error and result.record is None
    assert result.unrecorded is not None and "symbolic link" in result.unrecorded
    assert "not recorded, so it cannot be undone" in result.output and "persona-notebook undo" not in result.output
    assert {name: (home / name).read_text() for name in want} == want
    assert (home / "memory" / "ARCHIVE.md").read_text().startswith("## ") and "(not recorded)" in (
        home / "memory" / "ARCHIVE.md"
    ).read_text().splitlines()[0]
    assert list(elsewhere.iterdir()) == []
    assert read_intent(home) is None  # the journal named the group while it was written, and is clear again


def test_with_no_history_and_no_journal_that_can_be_written_the_apply_is_refused(home: Path, tmp_path: Path) -> None:
    """Issue 34, data 5: the group's intent can be kept nowhere, so nothing is written."""
    import os

    planted(home)
    before = {name: (home / name).read_bytes() for name in ("MEMORY.md", "USER.md")}
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    os.symlink(elsewhere, home / ".notebook")
    (home / ".memory.journal").mkdir()
    result = apply_tidy(home, [h.id for h in tidy(home).hunks], by=CLI)
    assert result.is_error and "nothing was written" in result.output, result.output
    assert {name: (home / name).read_bytes() for name in before} == before
    assert not (home / "memory").exists()
    assert sorted(p.name for p in home.iterdir()) == [".memory.journal", ".notebook", "MEMORY.md", "USER.md"]


LINE = st.sampled_from(
    [
        "- prefers tea\n",
        "- Prefers tea, in the morning\n",
        "- timezone: UTC\n",
        "- timezone: IST\n",
        "- port: 80\n",
        "- café: open\n",
        "-\n",
        "\n",
        "# a heading\n",
        "prose, not an entry\n",
        "- lights on at dusk\n",
        "- lights off at dusk\n",
    ]
)


@settings(max_examples=80, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(
    memory=st.lists(LINE, max_size=14),
    user=st.lists(LINE, max_size=6),
    pick=st.lists(st.booleans(), min_size=20, max_size=20),
)
def test_any_subset_of_hunks_writes_exactly_its_plan_and_undo_gives_back_every_byte(
    tmp_path_factory: pytest.TempPathFactory, memory: list[str], user: list[str], pick: list[bool]
) -> None:
    home = tmp_path_factory.mktemp("home")
    (home / "MEMORY.md").write_text("".join(memory))
    (home / "USER.md").write_text("".join(user))
    before = {name: (home / name).read_bytes() for name in ("MEMORY.md", "USER.md")}
    proposal = tidy(home)
    picked = {h.id for h, yes in zip(proposal.hunks, pick, strict=False) if yes}
    chosen = [h for h in proposal.hunks if h.id in picked]  # an id names every hunk of the same bytes
    event("hunks applied: " + ("none" if not chosen else "1" if len(chosen) == 1 else "several"))
    if not chosen:
        return
    sub = Proposal(proposal.host, proposal.archive, proposal.target, tuple(chosen))
    want = planned(home, sub)
    result = apply_tidy(home, [h.id for h in chosen], by=CLI)
    assert not result.is_error, result.output
    assert {name: (home / name).read_text() for name in want} == want
    raws = moved_raws(sub)
    if raws:
        assert (home / "memory" / "ARCHIVE.md").read_text().splitlines(keepends=True)[2:] == raws
    assert check(home) == []
    undone = undo(home, result.record, by=CLI)
    assert not undone.is_error, undone.output
    assert {name: (home / name).read_bytes() for name in before} == before
    assert not (home / "memory" / "ARCHIVE.md").exists()


def test_hunks_of_the_same_bytes_share_an_id_and_that_id_applies_them_all(home: Path) -> None:
    (home / "USER.md").write_text("-\n- a\n-\n")
    hunks = tidy(home).hunks
    assert [h.kind for h in hunks] == [Kind.EMPTY, Kind.EMPTY] and hunks[0].id == hunks[1].id
    result = apply_tidy(home, [hunks[0].id], by=CLI)
    assert not result.is_error and result.applied == (hunks[0].id,) and len(result.removed) == 2
    assert (home / "USER.md").read_text() == "- a\n"


PIECE = st.sampled_from(
    ["likes green tea", "Likes green tea a lot", "name: Ana", "name: Bo", "works nights", "café: open", "x" * 60]
)


@settings(max_examples=120, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(entries=st.lists(PIECE, max_size=10), pick=st.lists(st.booleans(), min_size=12, max_size=12))
def test_any_subset_of_hunks_in_a_hermes_store_writes_its_plan_and_undo_gives_back_every_byte(
    tmp_path_factory: pytest.TempPathFactory, entries: list[str], pick: list[bool]
) -> None:
    home = tmp_path_factory.mktemp("hermes")
    (home / "memories").mkdir()
    store = home / "memories" / "MEMORY.md"
    store.write_text(sections.joined(entries))
    before = store.read_bytes()
    files = hermes_files(memory_limit=200)
    proposal = tidy(home, files)
    picked = {h.id for h, yes in zip(proposal.hunks, pick, strict=False) if yes}
    chosen = [h for h in proposal.hunks if h.id in picked]
    event("hunks applied: " + ("none" if not chosen else "1" if len(chosen) == 1 else "several"))
    if not chosen:
        return
    gone = {e.line for h in chosen for e in h.entries}
    spans = sections.entry_spans(sections.hermes_text(store.read_text()))
    result = apply_tidy(home, sorted(picked), files=files, by=CLI)
    assert not result.is_error, result.output
    assert store.read_text() == sections.joined([text for _, _, line, text in spans if line not in gone])
    moved = [e.raw for h in chosen if not h.kind.removes for e in h.entries]
    if moved:
        assert (home / "memories" / "ARCHIVE.md").read_text().split(sections.DELIMITER)[1:] == moved
    assert check(home) == []
    assert not undo(home, result.record, by=CLI).is_error
    assert store.read_bytes() == before and not (home / "memories" / "ARCHIVE.md").exists()


def test_an_agents_add_after_the_proposal_keeps_its_hunks_live_and_its_entry_is_kept(home: Path) -> None:
    planted(home)
    proposal = tidy(home)
    assert not memory_tool(home, by=AGENT).call({"action": "add", "text": "written meanwhile"}).is_error
    want = planned(home, proposal)  # the file now, the agent's line in it, less the hunks' lines
    result = apply_tidy(home, [h.id for h in proposal.hunks], by=CLI)
    assert not result.is_error, result.output
    assert (home / "MEMORY.md").read_text() == want["MEMORY.md"] and want["MEMORY.md"].endswith("- written meanwhile\n")
    assert check(home) == []
    undo(home, result.record, by=CLI)
    assert (home / "MEMORY.md").read_text() == PLANTED + "- written meanwhile\n"


def _apply_all(home: str) -> list[object]:
    result = apply_tidy(Path(home), [h.id for h in tidy(Path(home)).hunks], by=CLI)
    return [result.is_error, result.output]


def test_a_read_only_archive_is_refused_in_words_and_nothing_changes(open_home: Path) -> None:
    import os

    from unprivileged import as_unprivileged, listing, nobody_ids

    (open_home / "MEMORY.md").write_text("- timezone: UTC\n- timezone: IST\n")
    (open_home / "memory").mkdir()
    (open_home / "memory" / "ARCHIVE.md").write_text("## old\n")
    (open_home / "memory" / "ARCHIVE.md").chmod(0o444)
    for path in (open_home / "MEMORY.md", open_home / "memory", open_home / "memory" / "ARCHIVE.md"):
        if os.geteuid() == 0:
            os.chown(path, *nobody_ids())
    before, archive = listing(open_home), (open_home / "memory" / "ARCHIVE.md").read_bytes()
    is_error, output = as_unprivileged(_apply_all, str(open_home))
    assert is_error and "Permission denied" in output and "ARCHIVE.md" in output and "nothing was written" in output
    assert listing(open_home) == before and (open_home / "memory" / "ARCHIVE.md").read_bytes() == archive
    assert not [p for p in (open_home / "memory").iterdir() if p.name != "ARCHIVE.md"]
