"""Agent-session files: a frozen snapshot and its calls per session, kept in .notebook/sessions."""

from __future__ import annotations

import json
import os
from concurrent.futures import ThreadPoolExecutor
from dataclasses import replace
from datetime import UTC, datetime, timedelta
from pathlib import Path

import pytest

from notebook_app.core.home.files import FileStatus
from notebook_app.core.home.soul import SkippedFile, compose, compose_soul
from notebook_app.core.memory.results import ToolResult
from notebook_app.core.memory.tool import memory_tool
from notebook_app.core.sessions.agents import (
    SESSIONS_DIR,
    AgentSessionError,
    CallEntry,
    append_old_call,
    list_sessions,
    load_session,
    new_session,
    read_calls,
    scan_sessions,
    start_session,
    write_old_call,
    write_session_file,
)
from notebook_app.core.sessions.snapshot import diff_compositions
from privileges import run_in_child


@pytest.fixture
def persona(home: Path) -> Path:
    (home / "SOUL.md").write_text("You are Kip.\n## not a section header\n", encoding="utf-8")
    (home / "USER.md").write_text("- name is Muthu · ünïcode ☕\n", encoding="utf-8")
    (home / "MEMORY.md").write_text("- prefers metric units\n", encoding="utf-8")
    return home


def test_home_without_state_folder_has_no_sessions_and_recording_leaves_the_soul_alone(persona: Path) -> None:
    assert list_sessions(persona) == []
    before = compose_soul(persona)
    start_session(persona, client_name="host", client_version="1")
    assert (persona / SESSIONS_DIR).is_dir()
    assert compose_soul(persona) == before


def test_recorded_session_loads_back_as_the_exact_composition(persona: Path) -> None:
    (persona / "TOOLS.md").write_bytes(b"caf\xe9 is latin-1\n")  # loads with a decode error
    (persona / "HEARTBEAT.md").write_bytes(b"- tick\n" * 400_000)  # over the 2 MiB cap: truncated
    composition = compose(persona)
    assert composition.file("TOOLS.md").decode_error and composition.file("HEARTBEAT.md").truncated
    session = start_session(persona, client_name="claude-code", client_version="2.0.1", protocol_version="2025-11-25")
    loaded = load_session(persona, session.id)
    assert loaded.composition == composition
    assert (loaded.client_name, loaded.client_version) == ("claude-code", "2.0.1")
    assert loaded.protocol_version == "2025-11-25"
    assert loaded.started_at == session.started_at
    assert loaded.calls == ()
    assert diff_compositions(loaded.snapshot().composition, compose(persona)).in_sync


def test_session_file_is_the_documented_json(persona: Path) -> None:
    session = start_session(persona, client_name="host", client_version=None, protocol_version="2026-07-28")
    record = json.loads((persona / SESSIONS_DIR / f"{session.id}.json").read_text(encoding="utf-8"))
    assert set(record) == {
        "format",
        "version",
        "id",
        "started_at",
        "client",
        "protocol_version",
        "compose_seconds",
        "found",
        "files",
        "skipped",
        "soul",
    }
    assert record["skipped"] == []
    assert (record["format"], record["version"], record["id"]) == ("persona-notebook/agent-session", 1, session.id)
    assert record["client"] == {"name": "host", "version": None}
    assert datetime.fromisoformat(record["started_at"]) == session.started_at
    assert record["found"] == ["SOUL.md", "USER.md", "MEMORY.md"]
    assert record["soul"] == compose_soul(persona)[0]
    for item, file in zip(record["files"], compose(persona).files, strict=True):
        assert (item["name"], item["digest"], item["size"]) == (file.name, file.digest, file.size)
        assert record["soul"][item["body_start"] : item["body_end"]] == file.body


def test_snapshot_stays_frozen_while_the_home_changes(persona: Path) -> None:
    session = start_session(persona)
    memory_tool(persona).call({"action": "add", "text": "timezone: IST"})
    loaded = load_session(persona, session.id)
    assert loaded.soul == session.soul and "timezone: IST" not in loaded.soul
    diff = diff_compositions(loaded.composition, compose(persona))
    assert diff.file("MEMORY.md").added == ((1, "- timezone: IST"),)


def test_calls_keep_every_call_in_order_and_the_summary_counts_writes_and_errors(persona: Path) -> None:
    session = start_session(persona, client_name="host", client_version="1")
    tool = memory_tool(persona)
    calls = [
        {"action": "add", "text": "a"},
        {"action": "remove", "text": "nonexistent phrase"},
        {"action": "replace", "target": "user", "text": "Muthu", "with": "Muthu R."},
        ["not", "an", "object"],
    ]
    for args in calls:
        write_old_call(persona, session.id, args, tool.call(args))
    entries = read_calls(persona, session.id)
    assert [(e.action, e.target, e.text, e.replacement, e.file) for e in entries] == [
        ("add", None, "a", None, "MEMORY.md"),
        ("remove", None, "nonexistent phrase", None, "MEMORY.md"),
        ("replace", "user", "Muthu", "Muthu R.", "USER.md"),
        (None, None, None, None, None),
    ]
    assert [(e.output, e.is_error) for e in entries] == [
        ("ok (add → MEMORY.md); loads next session", False),
        ("not found: nonexistent phrase", True),
        ("ok (replace → USER.md); loads next session", False),
        ("input must be an object with 'action' and 'text', got array", True),
    ]
    assert load_session(persona, session.id).calls == entries
    (summary,) = list_sessions(persona)
    assert (summary.id, summary.client_label, summary.writes, summary.errors, summary.calls) == (
        session.id,
        "host 1",
        2,
        2,
        4,
    )


def test_sessions_are_listed_newest_first(persona: Path) -> None:
    base = datetime(2026, 5, 1, 12, 0, tzinfo=UTC)
    for minutes, name in [(5, "middle"), (0, "oldest"), (9, "newest")]:
        session = new_session(persona, client_name=name)
        write_session_file(persona, replace(session, started_at=base + timedelta(minutes=minutes)))
    assert [s.client_name for s in list_sessions(persona)] == ["newest", "middle", "oldest"]


def test_a_line_cut_short_by_a_killed_writer_is_ignored_then_cut_off(persona: Path) -> None:
    session = start_session(persona)
    write_old_call(persona, session.id, {"action": "add", "text": "a"}, ToolResult("ok"))
    path = persona / SESSIONS_DIR / f"{session.id}.journal.jsonl"
    with open(path, "ab") as journal:
        journal.write(b'{"time": "2026-05-01T12:00:00+00:00", "action": "ad')
    assert [e.text for e in read_calls(persona, session.id)] == ["a"]
    write_old_call(persona, session.id, {"action": "add", "text": "b"}, ToolResult("ok"))
    lines = path.read_bytes().split(b"\n")
    assert lines[-1] == b"" and [json.loads(line)["text"] for line in lines[:-1]] == ["a", "b"]


def test_concurrent_appends_to_one_old_call_file_keep_every_line_whole(persona: Path) -> None:
    session = start_session(persona)
    big = "x" * 100_000  # big lines: a writer that split them or rewrote the file unlocked would tear or lose some

    def append(worker: int) -> None:
        for i in range(10):
            write_old_call(persona, session.id, {"action": "add", "text": f"{worker}-{i} {big}"}, ToolResult("ok"))

    with ThreadPoolExecutor(max_workers=4) as pool:
        list(pool.map(append, range(4)))
    texts = [e.text.split(" ")[0] for e in read_calls(persona, session.id)]
    assert sorted(texts) == sorted(f"{w}-{i}" for w in range(4) for i in range(10))
    raw = (persona / SESSIONS_DIR / f"{session.id}.journal.jsonl").read_bytes()
    assert raw.count(b"\n") == 40 and all(json.loads(line) for line in raw.splitlines())


def test_text_with_a_lone_surrogate_is_written_as_valid_utf8(persona: Path) -> None:
    session = start_session(persona)
    args = {"action": "add", "text": "bad \ud800 text"}
    write_old_call(persona, session.id, args, memory_tool(persona).call(args))
    raw = (persona / SESSIONS_DIR / f"{session.id}.journal.jsonl").read_bytes()
    raw.decode("utf-8")
    (entry,) = read_calls(persona, session.id)
    assert entry.text == "bad \ud800 text" and entry.is_error


def test_killed_session_file_writer_leaves_no_session_file_and_its_temp_file_is_cleaned(persona: Path) -> None:
    first = start_session(persona)
    stale = persona / SESSIONS_DIR / ".tmp-killed-writer"
    stale.write_text('{"half": ', encoding="utf-8")
    assert [s.id for s in list_sessions(persona)] == [first.id]
    start_session(persona)
    assert not stale.exists()


def test_unreadable_session_file_is_left_out_of_the_list_and_named_when_loaded(persona: Path) -> None:
    good = start_session(persona)
    broken_id = "20260501-120000-0badf00d"
    (persona / SESSIONS_DIR / f"{broken_id}.json").write_text("{not json", encoding="utf-8")
    assert [s.id for s in list_sessions(persona)] == [good.id]
    with pytest.raises(AgentSessionError, match="not valid JSON"):
        load_session(persona, broken_id)


def test_the_scan_names_each_session_file_it_cannot_read_and_why(persona: Path) -> None:
    good = start_session(persona)
    folder = persona / SESSIONS_DIR
    (folder / "20260501-120000-0badf00d.json").write_text("{not json", encoding="utf-8")
    (folder / "20260501-120001-0badf00d.json").write_text('{"format": "other"}', encoding="utf-8")
    wrong_version = json.loads((folder / f"{good.id}.json").read_text(encoding="utf-8")) | {"version": 9}
    (folder / "20260501-120002-0badf00d.json").write_text(json.dumps(wrong_version), encoding="utf-8")
    no_start = {k: v for k, v in wrong_version.items() if k != "started_at"} | {"version": 1}
    (folder / "20260501-120003-0badf00d.json").write_text(json.dumps(no_start), encoding="utf-8")
    os.mkfifo(folder / "20260501-120004-0badf00d.json")
    listing = run_in_child(scan_sessions, persona)
    assert [s.id for s in listing.sessions] == [good.id]
    assert [(r.id, r.path, r.message) for r in listing.unreadable] == [
        (
            "20260501-120004-0badf00d",
            folder / "20260501-120004-0badf00d.json",
            f"session record {folder / '20260501-120004-0badf00d.json'} is not a regular file",
        ),
        (
            "20260501-120003-0badf00d",
            folder / "20260501-120003-0badf00d.json",
            "session record 20260501-120003-0badf00d is malformed (KeyError('started_at'))",
        ),
        (
            "20260501-120002-0badf00d",
            folder / "20260501-120002-0badf00d.json",
            f"{folder / '20260501-120002-0badf00d.json'} is record version 9; this notebook reads 1",
        ),
        (
            "20260501-120001-0badf00d",
            folder / "20260501-120001-0badf00d.json",
            f"{folder / '20260501-120001-0badf00d.json'} is not a persona-notebook/agent-session record",
        ),
        (
            "20260501-120000-0badf00d",
            folder / "20260501-120000-0badf00d.json",
            f"session record {folder / '20260501-120000-0badf00d.json'} is not valid JSON",
        ),
    ]
    assert list_sessions(persona) == list(listing.sessions)


def test_an_old_call_file_that_is_a_fifo_makes_its_session_unreadable_not_a_hang(persona: Path) -> None:
    session = start_session(persona)
    os.mkfifo(persona / SESSIONS_DIR / f"{session.id}.journal.jsonl")
    (problem,) = run_in_child(scan_sessions, persona).unreadable
    assert problem.id == session.id and problem.message.endswith(".journal.jsonl is not a regular file")

    def load_error(home: Path, session_id: str) -> str:
        try:
            load_session(home, session_id)
        except AgentSessionError as error:
            return str(error)
        return "loaded"

    assert run_in_child(load_error, persona, session.id).endswith(".journal.jsonl is not a regular file")


def test_a_session_records_the_files_that_did_not_load_and_loads_them_back(persona: Path) -> None:
    (persona / "TOOLS.md").mkdir()
    (persona / "AGENTS.md").symlink_to("AGENTS.md")
    session = start_session(persona, client_name="host")
    expected = (
        SkippedFile("AGENTS.md", FileStatus.LINK_LOOP, compose(persona).skipped[0].message),
        SkippedFile(
            "TOOLS.md", FileStatus.DIRECTORY, "TOOLS.md is a directory, not a file; the session does not load it"
        ),
    )
    assert session.composition.skipped == expected
    record = json.loads((persona / SESSIONS_DIR / f"{session.id}.json").read_text(encoding="utf-8"))
    assert record["skipped"] == [
        {"name": "AGENTS.md", "status": "link_loop", "message": expected[0].message},
        {"name": "TOOLS.md", "status": "directory", "message": expected[1].message},
    ]
    assert record["found"] == ["SOUL.md", "USER.md", "MEMORY.md"]
    assert load_session(persona, session.id).composition == session.composition


def test_a_session_file_written_before_skipped_files_were_recorded_loads_with_none(persona: Path) -> None:
    session = start_session(persona)
    path = persona / SESSIONS_DIR / f"{session.id}.json"
    record = json.loads(path.read_text(encoding="utf-8"))
    del record["skipped"]
    path.write_text(json.dumps(record), encoding="utf-8")
    assert load_session(persona, session.id).composition == session.composition


@pytest.mark.parametrize("bad_id", ["../../etc/passwd", "20260501-120000-0badf00d/../x", "", "20260501-120000-XYZ"])
def test_ids_that_could_name_other_paths_are_refused(persona: Path, bad_id: str) -> None:
    start_session(persona)
    with pytest.raises(AgentSessionError, match="not a session id"):
        load_session(persona, bad_id)
    with pytest.raises(AgentSessionError, match="not a session id"):
        append_old_call(persona, bad_id, CallEntry.from_call({}, ToolResult("x")))


def test_calls_of_a_session_never_recorded_are_refused(persona: Path) -> None:
    start_session(persona)
    with pytest.raises(AgentSessionError, match="no recorded session"):
        write_old_call(persona, "20260501-120000-00000000", {"action": "add", "text": "a"}, ToolResult("ok"))
    with pytest.raises(AgentSessionError, match="no recorded session"):
        load_session(persona, "20260501-120000-00000000")


def test_a_symlinked_state_folder_is_refused_and_nothing_is_written_through_it(persona: Path, tmp_path: Path) -> None:
    outside = tmp_path / "outside"
    outside.mkdir()
    os.symlink(outside, persona / ".notebook")
    with pytest.raises(AgentSessionError, match="symbolic link"):
        start_session(persona)
    assert list(outside.iterdir()) == []


def test_recording_never_creates_the_home(tmp_path: Path) -> None:
    missing = tmp_path / "no-such-home"
    with pytest.raises(AgentSessionError, match="home is not a directory"):
        start_session(missing)
    assert not missing.exists()
    assert list_sessions(missing) == []


def test_a_review_mode_sessions_queued_calls_are_counted_as_proposals_never_as_writes(persona: Path) -> None:
    from notebook_app.core.memory.review.decisions import propose
    from notebook_app.core.record.log.actor import Actor
    from notebook_app.core.sessions.agents import CallCounts

    session = start_session(persona, client_name="host", client_version="1")
    agent = Actor.mcp(session.id, "host", "1")
    for text in ("one", "two", "three"):
        assert not propose(persona, {"action": "add", "text": text}, by=agent).is_error
    assert memory_tool(persona, by=agent).call({"action": "remove", "text": "nonexistent phrase"}).is_error
    (summary,) = list_sessions(persona)
    assert (
        summary.counts
        == CallCounts(writes=0, errors=1, proposals=3)
        == CallCounts.of(load_session(persona, session.id).calls)
    )
    assert summary.calls == 4
