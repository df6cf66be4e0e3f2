"""An agent always connects: files that cannot load, and bookkeeping that cannot be written.

Real servers over stdio (a real FIFO, a link loop, a mode-000 file read by
an unprivileged server), except one in-process test that makes composing
itself fail, which no file on disk can do.
"""

from __future__ import annotations

import json
import logging
import os
from pathlib import Path

import mcp_types as types
import pytest
from mcp import Client
from mcp.shared.exceptions import MCPError
from stdio_harness import MODES, connect, text_of

from hostile import MAKERS, UNREADABLE_MESSAGE
from notebook_app.core.sessions.agents import SESSIONS_DIR, list_sessions, load_session
from notebook_app.mcp.server import SOUL_URI, build_server
from privileges import reader_command, reader_home, unreadable_file

SOUL_WITHOUT_MEMORY = "## SOUL.md\n\nYou are Kip, a careful archivist.\n\n## USER.md\n\n- name is Muthu"


async def read_soul(client: Client) -> str:
    result = await client.read_resource(SOUL_URI)
    (content,) = result.contents
    assert isinstance(content, types.TextResourceContents)
    return content.text


@pytest.mark.parametrize("kind", MAKERS)
async def test_an_agent_connects_and_gets_the_soul_without_a_file_that_cannot_load(
    home: Path, server_log: Path, kind: str
) -> None:
    (home / "MEMORY.md").unlink()
    status, message = MAKERS[kind](home / "MEMORY.md")
    async with connect(home, server_log) as client:
        assert await read_soul(client) == SOUL_WITHOUT_MEMORY
        prompt = await client.get_prompt("soul")
        assert prompt.messages[0].content.text == SOUL_WITHOUT_MEMORY
    (summary,) = list_sessions(home)
    assert f"session {summary.id}: {message}" in server_log.read_text(encoding="utf-8")
    record = json.loads((home / SESSIONS_DIR / f"{summary.id}.json").read_text(encoding="utf-8"))
    assert record["found"] == ["SOUL.md", "USER.md"]
    assert record["skipped"] == [{"name": "MEMORY.md", "status": status.name.lower(), "message": message}]


@pytest.mark.parametrize("mode", MODES)
async def test_an_unprivileged_server_serves_the_soul_without_an_unreadable_memory_and_says_why(
    server_log: Path, mode: str
) -> None:
    with reader_home() as home:
        (home / "SOUL.md").write_text("You are Kip, a careful archivist.\n", encoding="utf-8")
        (home / "USER.md").write_text("- name is Muthu\n", encoding="utf-8")
        unreadable_file(home / "MEMORY.md")
        try:
            async with connect(home, server_log, mode=mode, command=reader_command("mcp", str(home))) as client:
                assert await read_soul(client) == SOUL_WITHOUT_MEMORY
        except Exception as error:
            raise AssertionError(f"no session; the server said:\n{server_log.read_text()}") from error
        (summary,) = list_sessions(home)
        assert f"session {summary.id}: {UNREADABLE_MESSAGE}" in server_log.read_text(encoding="utf-8")
        session = load_session(home, summary.id)
        assert session.soul == SOUL_WITHOUT_MEMORY
        assert [(s.name, s.status.name, s.message) for s in session.composition.skipped] == [
            ("MEMORY.md", "UNREADABLE", UNREADABLE_MESSAGE)
        ]


async def test_a_session_that_cannot_be_recorded_is_still_served_and_the_log_says_why(
    home: Path, server_log: Path
) -> None:
    (home / ".notebook").write_text("not a folder\n", encoding="utf-8")
    async with connect(home, server_log) as client:
        assert (await read_soul(client)).startswith("## SOUL.md")
        result = await client.call_tool("memory", {"action": "add", "text": "kept without a record"})
        assert (text_of(result), result.is_error) == ("ok (add → MEMORY.md); loads next session", False)
    assert (home / "MEMORY.md").read_text(encoding="utf-8").endswith("- kept without a record\n")
    assert (home / ".notebook").read_text(encoding="utf-8") == "not a folder\n"
    log = server_log.read_text(encoding="utf-8")
    assert "is served but not recorded: " in log
    assert f"{home / '.notebook'} is not a directory; session records cannot be kept there" in log


async def test_a_call_that_cannot_be_journalled_still_writes_and_the_log_says_why(home: Path, server_log: Path) -> None:
    (home / ".notebook-elsewhere").mkdir()
    os.symlink(home / ".notebook-elsewhere", home / ".notebook")  # refused: records stay inside the home
    async with connect(home, server_log) as client:
        result = await client.call_tool("memory", {"action": "add", "text": "written, not journalled"})
        assert (text_of(result), result.is_error) == ("ok (add → MEMORY.md); loads next session", False)
    assert (home / "MEMORY.md").read_text(encoding="utf-8").endswith("- written, not journalled\n")
    assert list((home / ".notebook-elsewhere").iterdir()) == []
    log = server_log.read_text(encoding="utf-8")
    assert f"{home / '.notebook'} is a symbolic link; session records are kept only inside the home" in log
    assert (
        f": call not journalled: {home / '.notebook'} is a symbolic link to {home / '.notebook-elsewhere'}: "
        "the history is kept only inside the home, never through a link, so writes here are not recorded"
    ) in log


async def test_a_notebook_folder_swapped_for_a_link_mid_session_is_refused_as_moved(
    home: Path, server_log: Path
) -> None:
    """``.notebook`` was there when the session began: it is
    pinned with the home (spec §9), and a link is never followed."""
    async with connect(home, server_log) as client:
        (summary,) = list_sessions(home)  # recorded at the handshake
        before = (home / "MEMORY.md").read_bytes()
        os.rename(home / ".notebook", home / ".notebook-moved")
        os.symlink(home / ".notebook-moved", home / ".notebook")
        result = await client.call_tool("memory", {"action": "add", "text": "not through the link"})
        assert result.is_error
        assert text_of(result) == f"the home at {home} was moved or removed since it was opened; nothing was written"
    assert (home / "MEMORY.md").read_bytes() == before
    assert not (home / ".notebook-moved" / "sessions" / f"{summary.id}.journal.jsonl").exists()
    assert b"not through the link" not in (home / ".notebook-moved" / "events.jsonl").read_bytes()


@pytest.mark.parametrize("mode", MODES)
async def test_when_composing_fails_the_client_still_connects_and_the_soul_request_names_the_cause(
    home: Path, monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture, mode: str
) -> None:
    def failing(*args: object, **kwargs: object) -> object:
        raise OSError(5, "Input/output error")

    monkeypatch.setattr("notebook_app.mcp.server.new_session", failing)
    caplog.set_level(logging.ERROR, logger="notebook_app.mcp.server")
    async with Client(build_server(home), mode=mode) as client:
        with pytest.raises(MCPError, match=r"cannot compose the persona's soul: \[Errno 5\] Input/output error"):
            await client.read_resource(SOUL_URI)
    assert f"cannot compose the soul of {home}" in caplog.text
    assert "OSError: [Errno 5] Input/output error" in caplog.text
