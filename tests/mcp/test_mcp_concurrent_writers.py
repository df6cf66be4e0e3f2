"""Two agents over MCP and the CLI, all writing to one home at once: nothing is lost.

The agents add an entry and then replace it, so every replace rewrites the
whole file while others append: without the core's lock a rewrite based on a
stale read would drop someone's entry, and the count would come up short.
"""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import anyio
from stdio_harness import REPO, connect, text_of

from notebook_app.core.sessions.agents import list_sessions, load_session

PER_CLIENT = 15
CLI_WRITERS = 8


async def test_two_mcp_clients_and_the_cli_writing_at_once_lose_nothing(home: Path, server_log: Path) -> None:
    original = (home / "MEMORY.md").read_text(encoding="utf-8").splitlines()
    cli = [
        subprocess.Popen(
            [sys.executable, "-m", "notebook_app", "memory", "add", f"cli entry {i}", "--home", str(home)],
            cwd=REPO,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            text=True,
        )
        for i in range(CLI_WRITERS)
    ]
    outputs: dict[str, list[str]] = {"agent-a": [], "agent-b": []}

    async def agent(name: str) -> None:
        async with connect(home, server_log, name=name) as client, anyio.create_task_group() as calls:
            for i in range(PER_CLIENT):
                calls.start_soon(write, client, name, f"{name} entry {i:02d}")

    async def write(client, name: str, text: str) -> None:
        added = await client.call_tool("memory", {"action": "add", "text": f"{text} pending"})
        done = await client.call_tool(
            "memory", {"action": "replace", "text": f"{text} pending", "with": f"{text} done"}
        )
        outputs[name] += [text_of(added), text_of(done)]

    async with anyio.create_task_group() as agents:
        agents.start_soon(agent, "agent-a")
        agents.start_soon(agent, "agent-b")
    finished = [process.communicate() + (process.returncode,) for process in cli]

    assert [code for _, _, code in finished] == [0] * CLI_WRITERS, finished
    ok = ["ok (add → MEMORY.md); loads next session", "ok (replace → MEMORY.md); loads next session"]
    for name, results in outputs.items():
        assert sorted(results) == sorted(ok * PER_CLIENT), name
    expected = [f"- {name} entry {i:02d} done" for name in outputs for i in range(PER_CLIENT)] + [
        f"- cli entry {i}" for i in range(CLI_WRITERS)
    ]
    lines = (home / "MEMORY.md").read_text(encoding="utf-8").splitlines()
    assert lines[: len(original)] == original
    assert sorted(lines[len(original) :]) == sorted(expected)
    assert len(lines) == len(original) + 2 * PER_CLIENT + CLI_WRITERS

    sessions = {s.client_name: s for s in list_sessions(home)}
    assert set(sessions) == {"agent-a", "agent-b"}
    for name, summary in sessions.items():
        calls = load_session(home, summary.id).calls
        assert (summary.writes, summary.errors) == (2 * PER_CLIENT, 0)
        assert sorted(e.text for e in calls if e.action == "add") == [
            f"{name} entry {i:02d} pending" for i in range(PER_CLIENT)
        ]
