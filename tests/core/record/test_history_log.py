"""Every write through the core is one record of one log, by whoever made it; viewing never writes."""

from __future__ import annotations

import hashlib
import json
import os
import stat
from pathlib import Path

import pytest

from notebook_app.core.history.origins import blame
from notebook_app.core.history.query import check, find, history
from notebook_app.core.history.undo_restore import restore, undo
from notebook_app.core.home.soul import compose
from notebook_app.core.memory.edits.guarded_splice import delete_entry, edit_entry, splice
from notebook_app.core.memory.tool import memory_tool
from notebook_app.core.record.log.actor import CLI, LIBRARY, NOTEBOOK, Actor, ActorKind
from notebook_app.core.record.log.store import LOG_PATH
from notebook_app.core.record.log_rewrite import HistoryError
from notebook_app.core.record.storage import LockedHome
from notebook_app.core.sessions.snapshot import Session

AGENT = Actor.mcp("20261130-101010-0badc0de", "kip-host", "4.5.6")


def log_lines(home: Path) -> list[dict]:
    return [json.loads(line) for line in (home / LOG_PATH).read_text(encoding="utf-8").splitlines()[1:]]


def test_viewing_never_makes_the_state_folder(home: Path) -> None:
    (home / "MEMORY.md").write_text("- a\n")
    compose(home)
    Session(home).diff()
    assert history(home) == []
    assert blame(home, "MEMORY.md").owners == (None,)
    assert check(home) == []
    assert not memory_tool(home).call({"action": "remove", "text": "not there"}).output.startswith("ok")
    with pytest.raises(HistoryError):
        find(home, "w-")
    assert sorted(p.name for p in home.iterdir()) == ["MEMORY.md"]


def test_the_first_write_makes_the_state_folder_private(home: Path) -> None:
    memory_tool(home).call({"action": "add", "text": "a"})
    assert stat.S_IMODE((home / ".notebook").stat().st_mode) == 0o700
    assert stat.S_IMODE((home / LOG_PATH).stat().st_mode) == 0o600
    header = json.loads((home / LOG_PATH).read_text().splitlines()[0])
    assert (header["format"], header["version"]) == ("persona-notebook/events", 2)


def test_a_log_begun_at_version_1_is_still_read_and_appended_to_with_its_header_kept(home: Path) -> None:
    memory_tool(home).call({"action": "add", "text": "a"})
    lines = (home / LOG_PATH).read_bytes().split(b"\n", 1)
    old = json.loads(lines[0]) | {"version": 1}
    (home / LOG_PATH).write_bytes(json.dumps(old, separators=(",", ":")).encode() + b"\n" + lines[1])
    memory_tool(home).call({"action": "add", "text": "b"})
    assert [r["args"]["text"] for r in log_lines(home)] == ["a", "b"]
    assert json.loads((home / LOG_PATH).read_text().splitlines()[0])["version"] == 1
    assert len(history(home)) == 2


def test_tidy_is_in_the_closed_action_set_as_a_write_from_log_version_2() -> None:
    from notebook_app.core.record.log.event_action import ACTIONS, WRITE_ACTIONS, EventAction
    from notebook_app.core.record.log.json_lines import LOG_VERSION, READ_VERSIONS

    assert EventAction.TIDY in WRITE_ACTIONS and "tidy" in ACTIONS
    assert (LOG_VERSION, READ_VERSIONS) == (2, (1, 2))


def test_each_writer_is_named_in_its_record(home: Path) -> None:
    memory_tool(home).call({"action": "add", "text": "by a library"})
    memory_tool(home, by=CLI).call({"action": "add", "text": "by the cli"})
    memory_tool(home, by=AGENT).call({"action": "add", "text": "by an agent", "target": "user"})
    edit_entry(home, "MEMORY.md", 1, "- by a library", "- by a library, edited", by=NOTEBOOK)
    delete_entry(home, "MEMORY.md", 2, "- by the cli", by=NOTEBOOK)
    splice(home, "SOUL.md", 0, b"", b"You are Kip.\n", by=LIBRARY)
    records = log_lines(home)
    assert [(r["action"], r["file"], r["by"]) for r in records] == [
        ("add", "MEMORY.md", {"kind": "library"}),
        ("add", "MEMORY.md", {"kind": "cli"}),
        (
            "add",
            "USER.md",
            {"kind": "mcp", "session": AGENT.session, "client": {"name": "kip-host", "version": "4.5.6"}},
        ),
        ("entry-edit", "MEMORY.md", {"kind": "notebook"}),
        ("entry-delete", "MEMORY.md", {"kind": "notebook"}),
        ("hand-edit", "SOUL.md", {"kind": "library"}),
    ]
    assert all(r["applied"] for r in records)
    assert records[3]["args"] == {"line": 1, "expect": "- by a library", "to": "- by a library, edited"}
    assert records[2]["args"] == {"action": "add", "text": "by an agent", "target": "user"}


def test_an_append_is_recorded_by_offset_stat_key_and_a_hash_of_the_bytes_and_a_rewrite_by_digests(home: Path) -> None:
    tool = memory_tool(home)
    tool.call({"action": "add", "text": "a"})
    before = (home / "MEMORY.md").stat()
    tool.call({"action": "add", "text": "b"})
    tool.call({"action": "replace", "text": "b", "with": "c"})
    _, append, rewrite = log_lines(home)
    assert append["edit"] == [{"at": 4, "removed": "", "inserted": "- b\n"}]
    assert append["before"] == {"size": 4, "lines": 1, "key": [before.st_ino, before.st_size, before.st_mtime_ns]}
    assert append["appended"] == hashlib.sha256(b"- b\n").hexdigest()
    assert "sha256" not in append["before"] and "sha256" not in append["after"]
    assert rewrite["before"]["sha256"] == hashlib.sha256(b"- a\n- b\n").hexdigest()
    assert rewrite["after"]["sha256"] == hashlib.sha256(b"- a\n- c\n").hexdigest()
    assert rewrite["edit"] == [{"at": 6, "removed": "b", "inserted": "c"}]
    assert rewrite["lines"] == [[2, 1, 1]]


def test_a_failed_call_leaves_nothing_unless_it_is_an_mcp_sessions(home: Path) -> None:
    (home / "MEMORY.md").write_text("- a\n")
    assert memory_tool(home, by=CLI).call({"action": "remove", "text": "zzz"}).is_error
    assert not (home / ".notebook").exists()
    result = memory_tool(home, by=AGENT).call({"action": "remove", "text": "zzz"})
    assert result.output == "not found: zzz" and result.is_error
    (failed,) = log_lines(home)
    assert (failed["action"], failed["applied"], failed["output"], failed["id"][:2]) == (
        "failed",
        False,
        "not found: zzz",
        "f-",
    )
    assert (home / "MEMORY.md").read_text() == "- a\n"


def test_an_outside_change_is_recorded_before_the_next_write_with_what_rebuilds_it(home: Path) -> None:
    tool = memory_tool(home, by=CLI)
    tool.call({"action": "add", "text": "a"})
    with open(home / "MEMORY.md", "a") as editor:
        editor.write("- typed in an editor\n")
    assert len(log_lines(home)) == 1, "seeing it is not recording it"
    tool.call({"action": "add", "text": "b"})
    _, outside, add = log_lines(home)
    assert (outside["action"], outside["by"], add["action"]) == ("outside", {"kind": "outside"}, "add")
    assert outside["edit"] == [{"at": 4, "removed": "", "inserted": "- typed in an editor\n"}]
    assert outside["snap"] == hashlib.sha256(b"- a\n- typed in an editor\n").hexdigest()
    assert outside["id"] < add["id"]
    assert check(home) == []


def test_an_add_to_a_file_as_the_log_left_it_reads_only_its_end(home: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    (home / "MEMORY.md").write_text("- entry\n" * 50_000)
    tool = memory_tool(home)
    tool.call({"action": "add", "text": "first: reads it whole once, to begin its history"})
    whole_reads = []
    original = LockedHome.read_whole
    monkeypatch.setattr(LockedHome, "read_whole", lambda self, name: whole_reads.append(name) or original(self, name))
    for i in range(5):
        tool.call({"action": "add", "text": f"then {i}"})
    assert whole_reads == []
    os.utime(home / "MEMORY.md", ns=(1, 1))  # any change of inode, size or mtime means a full look
    tool.call({"action": "add", "text": "after a touch"})
    assert whole_reads == ["MEMORY.md"]
    assert [r["action"] for r in log_lines(home)][-1] == "add", "a touch that changed no byte records nothing"


def test_the_first_record_of_a_file_keeps_what_was_there_before_the_history(home: Path) -> None:
    (home / "MEMORY.md").write_text("- from before\n")
    memory_tool(home).call({"action": "add", "text": "new"})
    (first,) = log_lines(home)
    assert first["base"] == hashlib.sha256(b"- from before\n").hexdigest()
    lines = blame(home, "MEMORY.md").lines()
    assert [(line.origin.value, line.record and line.record.action) for line in lines] == [
        ("before history", None),
        ("recorded", "add"),
    ]


def test_history_lists_newest_first_filters_and_finds_ids_by_any_unique_prefix(home: Path) -> None:
    tool = memory_tool(home, by=CLI)
    for i in range(3):
        tool.call({"action": "add", "text": f"m{i}"})
    memory_tool(home, by=AGENT).call({"action": "add", "target": "user", "text": "u"})
    records = history(home)
    assert [r.args["text"] for r in records] == ["u", "m2", "m1", "m0"]
    assert [r.id for r in records] == sorted((r.id for r in records), reverse=True)
    assert [r.args["text"] for r in history(home, file="MEMORY.md", limit=2)] == ["m2", "m1"]
    assert [r.file for r in history(home, by="mcp")] == ["USER.md"]
    newest = records[0].id
    assert find(home, newest).event.id == newest
    assert find(home, newest[2:]).event.id == newest, "the kind may be left out"
    with pytest.raises(HistoryError, match="is ambiguous: it begins 4 record ids"):
        find(home, "w-")
    with pytest.raises(HistoryError, match="^w is ambiguous: it begins 4 record ids"):
        find(home, "w")  # a bare kind is the start of every write's id, not a miss
    with pytest.raises(HistoryError, match="no record w-zzzz"):
        find(home, "w-zzzz")


def test_a_state_folder_that_is_a_link_leaves_the_write_unrecorded_and_says_why(home: Path, tmp_path: Path) -> None:
    outside = tmp_path / "elsewhere"
    outside.mkdir()
    os.symlink(outside, home / ".notebook")
    result = memory_tool(home).call({"action": "add", "text": "kept"})
    assert (result.output, result.is_error) == ("ok (add → MEMORY.md); loads next session", False)
    assert result.unrecorded is not None and "is a symbolic link" in result.unrecorded
    assert (home / "MEMORY.md").read_text() == "- kept\n"
    assert list(outside.iterdir()) == []
    os.unlink(home / ".notebook")
    memory_tool(home).call({"action": "add", "text": "recorded"})
    assert [r["action"] for r in log_lines(home)] == ["add"]
    assert log_lines(home)[0]["base"] == hashlib.sha256(b"- kept\n").hexdigest(), (
        "what went unrecorded is kept as the start"
    )


def test_a_dry_run_of_undo_or_restore_writes_nothing(home: Path, snapshot_files) -> None:
    tool = memory_tool(home)
    tool.call({"action": "add", "text": "a"})
    tool.call({"action": "add", "text": "b"})
    first, second = reversed(history(home))
    before = snapshot_files(home)
    preview = undo(home, second.id, by=CLI, dry_run=True)
    assert not preview.is_error and "-- b" in preview.diff
    assert restore(home, "MEMORY.md", first.id, by=CLI, dry_run=True).diff.endswith("-- b\n")
    assert snapshot_files(home) == before


def test_by_is_an_actor_kind_from_the_closed_set(home: Path) -> None:
    memory_tool(home, by=AGENT).call({"action": "add", "text": "a"})
    (record,) = history(home)
    assert record.by == AGENT and record.by.kind is ActorKind.MCP


@pytest.mark.parametrize("text", ["plain", 'ünïcode ☕ and "quotes" \\ and a tab\t', "x" * 4000])
def test_the_quick_record_of_an_add_is_exactly_what_the_general_writer_writes(home: Path, text: str) -> None:
    memory_tool(home, by=AGENT).call({"action": "add", "text": "first: the file's history begins"})
    memory_tool(home, by=AGENT).call({"action": "add", "text": text})
    lines = (home / LOG_PATH).read_bytes().splitlines(keepends=True)
    from notebook_app.core.record.log.events import Event

    for line in lines[1:]:
        assert Event.from_line(line).line() == line


def test_redacting_a_failed_call_removes_the_secret_it_carried(home: Path) -> None:
    from notebook_app.core.history.admin import redact

    (home / "MEMORY.md").write_text("- a\n")
    memory_tool(home, by=AGENT).call({"action": "remove", "text": "api key " + "sk-" + "live-" + "0123456789abcdef"})
    (failed,) = history(home)
    result = redact(home, failed.id)
    assert not result.is_error, result.output
    assert b"sk-live" not in (home / LOG_PATH).read_bytes()
    (kept,) = history(home)
    assert (kept.id, kept.action, kept.redacted) == (failed.id, "failed", True)
    assert kept.output == "*" * len(failed.output.encode()) and kept.args["text"] == "*" * len(
        failed.args["text"].encode()
    )
