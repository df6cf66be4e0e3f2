"""Each MCP connection is an agent session, recorded with its frozen snapshot and its calls."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import anyio
import pytest
from stdio_harness import MODES, REPO, connect

from notebook_app.core.home.soul import compose, compose_soul
from notebook_app.core.sessions.agents import SESSIONS_DIR, list_sessions, load_session


@pytest.mark.parametrize("mode", MODES)
async def test_connecting_records_the_session_with_the_clients_name_version_and_frozen_soul(
    home: Path, server_log: Path, mode: str
) -> None:
    at_start = compose(home)
    async with connect(home, server_log, name="kip-host", version="4.5.6", mode=mode) as client:
        recorded = list_sessions(home)  # before any tool, resource or prompt call
        protocol_version = client.protocol_version
        await client.call_tool("memory", {"action": "add", "text": "written during the session"})
    assert [(s.client_name, s.client_version) for s in recorded] == [("kip-host", "4.5.6")]
    session = load_session(home, recorded[0].id)
    assert session.protocol_version == protocol_version
    assert session.soul == at_start.soul and "written during the session" not in session.soul
    assert session.found == ["SOUL.md", "USER.md", "MEMORY.md"]
    assert [(f.name, f.digest) for f in session.composition.files] == [(f.name, f.digest) for f in at_start.files]
    record = json.loads((home / SESSIONS_DIR / f"{session.id}.json").read_text(encoding="utf-8"))
    assert record["client"] == {"name": "kip-host", "version": "4.5.6"}
    assert record["soul"] == at_start.soul
    assert [f["digest"] for f in record["files"]] == [f.digest for f in at_start.files]


async def test_every_tool_call_is_journalled_in_order_with_its_result(home: Path, server_log: Path) -> None:
    calls = [
        {"action": "add", "text": "timezone: UTC"},
        {"action": "replace", "text": "UTC", "with": "IST"},
        {"action": "remove", "text": "nonexistent phrase"},
        {"action": "add", "target": "user", "text": "likes filter coffee"},
        {"action": "add", "target": "../escape", "text": "x"},
    ]
    async with connect(home, server_log) as client:
        results = [await client.call_tool("memory", args) for args in calls]
        (summary,) = list_sessions(home)
    entries = load_session(home, summary.id).calls
    assert [(e.action, e.target, e.text, e.replacement) for e in entries] == [
        (c["action"], c.get("target"), c["text"], c.get("with")) for c in calls
    ]
    assert [(e.output, e.is_error) for e in entries] == [(r.content[0].text, r.is_error) for r in results]
    assert [e.file for e in entries] == ["MEMORY.md", "MEMORY.md", "MEMORY.md", "USER.md", None]
    assert [e.is_error for e in entries] == [False, False, True, False, True]
    assert (summary.writes, summary.errors) == (3, 2)


async def test_each_connection_is_its_own_session_listed_newest_first(home: Path, server_log: Path) -> None:
    async with connect(home, server_log, name="first-host", version="1") as client:
        await client.call_tool("memory", {"action": "add", "text": "from the first session"})
    async with connect(home, server_log, name="second-host", version="2", mode="legacy"):
        pass
    sessions = list_sessions(home)
    assert [(s.client_name, s.writes) for s in sessions] == [("second-host", 0), ("first-host", 1)]
    second = load_session(home, sessions[0].id)
    assert "from the first session" in second.soul, "the second session started after the write"
    assert second.soul == compose_soul(home)[0]


async def test_server_logs_to_stderr(home: Path, server_log: Path) -> None:
    async with connect(home, server_log):
        (summary,) = list_sessions(home)
    log = server_log.read_text(encoding="utf-8")
    assert f"session {summary.id} started for test-agent 1.2.3" in log


def test_a_home_that_is_not_a_directory_is_refused_and_not_created(tmp_path: Path) -> None:
    missing = tmp_path / "no-such-home"
    done = subprocess.run(
        [sys.executable, "-m", "notebook_app", "mcp", str(missing)],
        cwd=REPO,
        stdin=subprocess.DEVNULL,
        capture_output=True,
        text=True,
        check=False,
    )
    assert done.returncode == 2
    assert done.stdout == ""
    assert f"{missing} is not a directory" in done.stderr
    assert not missing.exists()


async def test_a_session_is_connected_while_its_server_runs_and_ended_after(home: Path, server_log: Path) -> None:
    async with connect(home, server_log, name="kip-host", version="1") as client:
        await client.call_tool("memory", {"action": "add", "text": "still here"})
        assert [s.live for s in list_sessions(home)] == [True]
    for _ in range(200):  # the server process may take a moment to end after the client closes
        if [s.live for s in list_sessions(home)] == [False]:
            break
        await anyio.sleep(0.05)
    assert [s.live for s in list_sessions(home)] == [False]
