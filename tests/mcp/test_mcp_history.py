"""Over MCP, a session's start and every call it makes are events of the one log; its calls are a view of it."""

from __future__ import annotations

from pathlib import Path

from stdio_harness import connect

from notebook_app.core.history.query import history
from notebook_app.core.history.undo_restore import undo
from notebook_app.core.record.log.actor import CLI, Actor
from notebook_app.core.memory.results import ToolResult
from notebook_app.core.memory.tool import memory_tool
from notebook_app.core.sessions.agents import (
    SESSIONS_DIR,
    CallEntry,
    append_old_call,
    list_sessions,
    load_session,
    start_session,
)


async def test_a_sessions_start_writes_and_failed_calls_are_events_by_that_session(
    home: Path, server_log: Path
) -> None:
    async with connect(home, server_log, name="kip-host", version="4.5.6") as client:
        await client.call_tool("memory", {"action": "add", "text": "likes filter coffee"})
        await client.call_tool("memory", {"action": "remove", "text": "nonexistent phrase"})
        (summary,) = list_sessions(home)
    agent = Actor.mcp(summary.id, "kip-host", "4.5.6")
    records = list(reversed(history(home)))
    assert [(r.action, r.applied, r.by, r.id[:2]) for r in records] == [
        ("session-start", False, agent, "s-"),
        ("add", True, agent, "w-"),
        ("failed", False, agent, "f-"),
    ]
    assert records[2].output == "not found: nonexistent phrase"
    assert records[0].args["found"] == ["SOUL.md", "USER.md", "MEMORY.md"]
    assert not (home / SESSIONS_DIR / f"{summary.id}.journal.jsonl").exists(), "one log: no second copy"
    calls = load_session(home, summary.id).calls
    assert [(e.action, e.text, e.output, e.is_error) for e in calls] == [
        ("add", "likes filter coffee", "ok (add → MEMORY.md); loads next session", False),
        ("remove", "nonexistent phrase", "not found: nonexistent phrase", True),
    ]
    assert (summary.writes, summary.errors) == (1, 1)


async def test_an_agents_write_can_be_undone_by_a_person(home: Path, server_log: Path) -> None:
    async with connect(home, server_log) as client:
        await client.call_tool("memory", {"action": "add", "text": "my user hates tea"})
    memory_tool(home, by=CLI).call({"action": "add", "text": "added by a person after"})
    agents = next(r for r in history(home) if r.action == "add" and r.by.kind.value == "mcp")
    assert not undo(home, agents.id, by=CLI).is_error
    assert (home / "MEMORY.md").read_text(
        encoding="utf-8"
    ) == "- prefers metric units\n- café hours: 7–11\n- added by a person after\n"


def test_an_old_sessions_call_file_is_read_where_it_is_and_shown_as_not_undoable(home: Path) -> None:
    session = start_session(home, client_name="old-host", client_version="0.9")
    args = {"action": "add", "text": "written before the history"}
    append_old_call(home, session.id, CallEntry.from_call(args, ToolResult("ok (add → MEMORY.md); loads next session")))
    path = home / SESSIONS_DIR / f"{session.id}.journal.jsonl"
    before = path.read_bytes()
    (old,) = [r for r in history(home) if r.id.startswith("j-")]
    assert (old.id, old.action, old.by.client_name) == (f"j-{session.id}-0001", "add", "old-host")
    result = undo(home, old.id, by=CLI)
    assert result.is_error and "written before the history began" in result.output
    assert path.read_bytes() == before
