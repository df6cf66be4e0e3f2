"""The soul over MCP: compose_soul of the home, frozen for the session that loaded it."""

from __future__ import annotations

from pathlib import Path

import mcp_types as types
import pytest
from mcp.shared.exceptions import MCPError
from stdio_harness import MODES, connect

from notebook_app.core.home.soul import compose_soul
from notebook_app.mcp.server import SOUL_PROMPT, SOUL_URI


async def read_soul(client) -> str:
    result = await client.read_resource(SOUL_URI)
    assert len(result.contents) == 1
    contents = result.contents[0]
    assert isinstance(contents, types.TextResourceContents)
    assert contents.uri == SOUL_URI and contents.mime_type == "text/markdown"
    return contents.text


@pytest.mark.parametrize("mode", MODES)
async def test_soul_resource_is_compose_soul_of_the_home(home: Path, server_log: Path, mode: str) -> None:
    (home / "AGENTS.md").write_text("  Be brief.  \n", encoding="utf-8")
    expected, found = compose_soul(home)
    assert found == ["AGENTS.md", "SOUL.md", "USER.md", "MEMORY.md"]
    async with connect(home, server_log, mode=mode) as client:
        listed = (await client.list_resources()).resources
        soul = await read_soul(client)
    assert [(r.uri, r.name, r.mime_type) for r in listed] == [(SOUL_URI, "soul", "text/markdown")]
    assert listed[0].size == len(expected.encode("utf-8"))
    assert soul == expected


async def test_empty_home_serves_the_empty_soul(tmp_path: Path, server_log: Path) -> None:
    home = tmp_path / "empty"
    home.mkdir()
    async with connect(home, server_log) as client:
        assert await read_soul(client) == "" == compose_soul(home)[0]


async def test_soul_stays_frozen_for_the_session_and_the_next_session_loads_the_write(
    home: Path, server_log: Path
) -> None:
    before, _ = compose_soul(home)
    async with connect(home, server_log) as first:
        assert await read_soul(first) == before
        await first.call_tool("memory", {"action": "add", "text": "timezone: IST"})
        (home / "SOUL.md").write_text("You are Kip, now terse.\n", encoding="utf-8")  # a human edits too
        after, _ = compose_soul(home)
        assert "- timezone: IST" in after and after != before
        assert await read_soul(first) == before, "the running session keeps its snapshot"
        prompt = await first.get_prompt(SOUL_PROMPT)
        assert prompt.messages[0].content.text == before
    async with connect(home, server_log) as second:
        assert await read_soul(second) == after, "the next session loads the writes"


@pytest.mark.parametrize("mode", MODES)
async def test_soul_prompt_carries_the_same_soul_as_one_user_message(home: Path, server_log: Path, mode: str) -> None:
    async with connect(home, server_log, mode=mode) as client:
        prompts = (await client.list_prompts()).prompts
        prompt = await client.get_prompt(SOUL_PROMPT)
        resource = await read_soul(client)
    assert [p.name for p in prompts] == [SOUL_PROMPT]
    assert len(prompt.messages) == 1
    message = prompt.messages[0]
    assert message.role == "user"
    assert isinstance(message.content, types.TextContent)
    assert message.content.text == resource == compose_soul(home)[0]


async def test_unknown_resource_or_prompt_is_an_error_naming_what_is_offered(home: Path, server_log: Path) -> None:
    async with connect(home, server_log) as client:
        with pytest.raises(MCPError) as resource:
            await client.read_resource("file:///etc/passwd")
        with pytest.raises(MCPError) as prompt:
            await client.get_prompt("system")
    assert "unknown resource 'file:///etc/passwd'" in str(resource.value) and SOUL_URI in str(resource.value)
    assert "unknown prompt 'system'" in str(prompt.value) and repr(SOUL_PROMPT) in str(prompt.value)


async def test_server_instructions_point_the_agent_at_the_soul(home: Path, server_log: Path) -> None:
    async with connect(home, server_log, mode="legacy") as client:
        instructions = client.instructions
    assert instructions is not None and SOUL_URI in instructions and "NEXT session" in instructions
