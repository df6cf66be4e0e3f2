"""The server opens its home as the CLI does: a Hermes home or a Claude Code project is refused before the
handshake (exit 2, which host it is and to use that host's own memory tool, on stderr); an OpenClaw workspace
is served the contract unchanged. Real server processes, the real MCP client."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest
from mcp.shared.exceptions import MCPError
from stdio_harness import REPO, connect, home_files, text_of


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


def test_a_hermes_home_exits_two_before_the_handshake_naming_hermes(tmp_path: Path) -> None:
    home = hermes_home(tmp_path / "hermes")
    before = home_files(home)
    done = serve_once(home)
    assert (done.returncode, done.stdout) == (2, "")
    assert done.stderr == (
        f"persona-notebook mcp: {home} is a Hermes home (opened as Hermes: the folder has memories/ and config.yaml): "
        "use Hermes's own memory tool. This server's tool writes the contract's '- ' lines, which would mix "
        "dialects in Hermes's files; nothing was served\n"
    )
    assert home_files(home) == before and not (home / ".notebook").exists()


async def test_the_agents_client_gets_no_session_on_a_hermes_memories_folder(tmp_path: Path, server_log: Path) -> None:
    home = hermes_home(tmp_path / "hermes")
    with pytest.raises(ExceptionGroup) as raised:
        async with connect(home / "memories", server_log):
            pass
    assert raised.group_contains(MCPError)
    log = server_log.read_text(encoding="utf-8")
    said = f"{home / 'memories'} is a Hermes home (opened the Hermes home {home}, whose memories/ folder was given"
    assert said in log
    assert (home / "memories" / "MEMORY.md").read_text(encoding="utf-8") == "A\n§\nB\n"


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
