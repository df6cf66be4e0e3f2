"""Over MCP with the home's git on: the agent's answer never changes; a failed commit is said on the server's stderr."""

from __future__ import annotations

from pathlib import Path

import pytest
from real_git import NEEDS_GIT, git, plain_git
from stdio_harness import connect, text_of

from notebook_app.core.record.log.actor import CLI
from notebook_app.core.record.git.mode import git_on

pytestmark = NEEDS_GIT


async def test_a_failed_commit_leaves_the_agents_answer_as_it_is_and_is_logged_on_stderr(
    home: Path, server_log: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    plain_git(monkeypatch, tmp_path)
    assert not git_on(home, by=CLI, add_ignore=True).is_error
    hook = home / ".git" / "hooks" / "pre-commit"
    hook.write_text("#!/bin/sh\nexit 1\n")
    hook.chmod(0o755)
    async with connect(home, server_log, name="kip-host") as client:
        refused = await client.call_tool("memory", {"action": "add", "text": "kept though git refused"})
        assert text_of(refused) == "ok (add → MEMORY.md); loads next session" and not refused.is_error
        hook.unlink()
        committed = await client.call_tool("memory", {"action": "add", "text": "and committed with the next"})
        assert text_of(committed) == "ok (add → MEMORY.md); loads next session"
    said = server_log.read_text(encoding="utf-8")
    assert said.count("its git commit failed (git commit exited 1)") == 1
    assert "kept though git refused" in git(home, "show", "HEAD:MEMORY.md")
    assert git(home, "log", "-1", "--format=%an").strip() == "kip-host"
