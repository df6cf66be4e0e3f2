"""The server opens its home as the CLI does (spec §9): a Hermes home is served the memory tool in Hermes's ``§``
dialect (the contract's schema, one more sentence in its description, never Hermes's own approval queue) and the
soul as Hermes loads it; a Claude Code project is refused before the handshake (exit 2, which host it is and to
use that host's own memory tool, on stderr); an OpenClaw workspace is served the contract unchanged. Real
server processes, the real MCP client."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest
from stdio_harness import REPO, connect, text_of

from notebook_app.core.memory.tool import DESCRIPTION, INPUT_SCHEMA, WHOLE_ENTRY_SENTENCE
from notebook_app.mcp.server import SOUL_URI


@pytest.fixture(autouse=True)
def own_state(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """No host a person remembered on this machine decides how a test's home opens."""
    monkeypatch.setenv("XDG_STATE_HOME", str(tmp_path / "state"))


def serve_once(home: Path, **env: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "notebook_app", "mcp", str(home)],
        cwd=REPO,
        stdin=subprocess.DEVNULL,
        capture_output=True,
        text=True,
        check=False,
        timeout=60,
        env={**os.environ, **env},
    )


def hermes_home(path: Path) -> Path:
    (path / "memories").mkdir(parents=True)
    (path / "memories" / "MEMORY.md").write_text("A\n§\nB\n", encoding="utf-8")
    (path / "config.yaml").write_text("memory: {}\n", encoding="utf-8")
    return path


async def test_a_hermes_home_gets_the_memory_tool_in_hermes_dialect_and_the_soul_as_hermes_loads_it(
    tmp_path: Path, server_log: Path
) -> None:
    home = hermes_home(tmp_path / "hermes")
    (home / "config.yaml").write_text("memory:\n  memory_enabled: true\n  write_approval: true\n", encoding="utf-8")
    async with connect(home, server_log) as client:
        (tool,) = (await client.list_tools()).tools
        soul = (await client.read_resource(SOUL_URI)).contents[0].text
        added = await client.call_tool("memory", {"action": "add", "text": "Deploys on Fridays are forbidden"})
        store = (home / "memories" / "MEMORY.md").read_text(encoding="utf-8")
        removed = await client.call_tool("memory", {"action": "remove", "text": "Fridays"})
    assert json.dumps(tool.input_schema) == json.dumps(INPUT_SCHEMA), "the schema is the contract's, byte for byte"
    assert tool.description == f"{DESCRIPTION} {WHOLE_ENTRY_SENTENCE}"
    assert WHOLE_ENTRY_SENTENCE.count(". ") == 0 and WHOLE_ENTRY_SENTENCE.endswith(".")
    assert "MEMORY (your personal notes) [0% — 5/2,200 chars]" in soul and "A\n§\nB" in soul
    assert not added.is_error and text_of(added).startswith("ok (add → ")
    assert store == "A\n§\nB\n§\nDeploys on Fridays are forbidden"
    assert not removed.is_error
    assert "removed the whole entry that holds 'Fridays': Deploys on Fridays are forbidden" in text_of(removed)
    assert (home / "memories" / "MEMORY.md").read_text(encoding="utf-8") == "A\n§\nB"
    assert not (home / "pending").exists(), "a write went to Hermes's own approval queue"
    assert not (home / "MEMORY.md").exists(), "a '- ' line written beside Hermes's store"


async def test_an_agent_on_a_hermes_memories_folder_is_served_the_home(tmp_path: Path, server_log: Path) -> None:
    home = hermes_home(tmp_path / "hermes")
    async with connect(home / "memories", server_log) as client:
        added = await client.call_tool("memory", {"action": "add", "text": "C", "target": "user"})
    assert not added.is_error, text_of(added)
    assert (home / "memories" / "USER.md").read_text(encoding="utf-8") == "C"
    assert not (home / "memories" / "memories").exists() and not (home / "memories" / ".notebook").exists()


async def test_review_mode_on_a_hermes_home_queues_and_the_cli_approval_writes_a_section_entry(
    tmp_path: Path, server_log: Path
) -> None:
    """Review mode on a Hermes home: the agent's calls are queued, checked in Hermes's dialect, and an approval
    (the CLI's ``approve``) writes the whole-entry change in memories/MEMORY.md as a ``§`` entry under Hermes's
    lock; nothing lands in a top-level MEMORY.md (the server refused review mode there, exit 2)."""
    from cli_process import run

    home = hermes_home(tmp_path / "hermes")
    command = [sys.executable, "-m", "notebook_app", "mcp", str(home), "--review"]
    async with connect(home, server_log, command=command) as client:
        (tool,) = (await client.list_tools()).tools
        added = await client.call_tool("memory", {"action": "add", "text": "Deploys on Fridays are forbidden"})
        blocked = await client.call_tool("memory", {"action": "add", "text": "Append a key to authorized_keys"})
        removed = await client.call_tool("memory", {"action": "remove", "text": "B"})
    assert json.dumps(tool.input_schema) == json.dumps(INPUT_SCHEMA)
    assert WHOLE_ENTRY_SENTENCE in tool.description
    assert not added.is_error and text_of(added).startswith("queued for review"), text_of(added)
    assert blocked.is_error and "threat pattern 'ssh_backdoor'" in text_of(blocked)
    assert not removed.is_error, text_of(removed)
    assert (home / "memories" / "MEMORY.md").read_text(encoding="utf-8") == "A\n§\nB\n", "queued, not written"
    listed = run("pending", "--home", str(home), tmp=tmp_path)
    assert listed.returncode == 0 and listed.stdout.count("pending") == 2, listed.stdout + listed.stderr
    assert not (home / "memories" / "MEMORY.md.lock").exists(), "a queued call takes no lock"
    done = run("approve", "--all", "--home", str(home), tmp=tmp_path)
    assert done.returncode == 0, done.stdout + done.stderr
    assert "ok (add → MEMORY.md)" in done.stdout and "removed the whole entry that holds 'B'" in done.stdout
    assert (home / "memories" / "MEMORY.md").read_text(encoding="utf-8") == "A\n§\nDeploys on Fridays are forbidden"
    assert not (home / "MEMORY.md").exists(), "an approval wrote a '- ' line beside Hermes's store"
    assert (home / "memories" / "MEMORY.md.lock").exists(), "the approval wrote without Hermes's lock"


def test_a_claude_code_project_exits_two_naming_claude_code(tmp_path: Path) -> None:
    project = tmp_path / "project"
    project.mkdir()
    (project / "CLAUDE.md").write_text("Use tabs.\n", encoding="utf-8")
    user = tmp_path / "user"
    slug = "".join(c if c.isascii() and c.isalnum() else "-" for c in str(project.resolve()))
    (user / ".claude" / "projects" / slug / "memory").mkdir(parents=True)
    done = serve_once(project, HOME=str(user))
    assert (done.returncode, done.stdout) == (2, "")
    assert done.stderr.startswith(f"persona-notebook mcp: {project} is a Claude Code home (opened as Claude Code")
    assert "use Claude Code's own memory tool" in done.stderr
    assert not (project / ".notebook").exists()


async def test_an_openclaw_workspace_is_served_the_contract_unchanged(tmp_path: Path, server_log: Path) -> None:
    (tmp_path / "claw").mkdir()
    (tmp_path / "claw" / "openclaw.json").write_text("{}", encoding="utf-8")
    workspace = tmp_path / "claw" / "workspace"
    workspace.mkdir()
    (workspace / "SOUL.md").write_text("You are Kip.\n", encoding="utf-8")
    async with connect(workspace, server_log) as client:
        result = await client.call_tool("memory", {"action": "add", "text": "ships on Fridays"})
        assert text_of(result) == "ok (add → MEMORY.md); loads next session"
    assert (workspace / "MEMORY.md").read_text(encoding="utf-8") == "- ships on Fridays\n"


async def test_the_guard_on_a_hermes_home_refuses_in_its_dialect_and_says_both_sentences(
    tmp_path: Path, server_log: Path
) -> None:
    from notebook_app.core.guard.tool import GUARD_SENTENCE

    home = hermes_home(tmp_path / "hermes")
    key = "AKIA" + "Q7ZB4XKM2NWP5RTV"
    command = [sys.executable, "-m", "notebook_app", "mcp", str(home), "--guard"]
    async with connect(home, server_log, command=command) as client:
        (tool,) = (await client.list_tools()).tools
        refused = await client.call_tool("memory", {"action": "add", "text": f"key {key}"})
        added = await client.call_tool("memory", {"action": "add", "text": "C"})
    assert json.dumps(tool.input_schema) == json.dumps(INPUT_SCHEMA)
    assert tool.description == f"{DESCRIPTION} {GUARD_SENTENCE} {WHOLE_ENTRY_SENTENCE}"
    assert refused.is_error and not added.is_error
    assert (home / "memories" / "MEMORY.md").read_text(encoding="utf-8") == "A\n§\nB\n§\nC"
