"""The memory tool over MCP is the core's tool: same face, same answers, same bytes on disk."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from mcp.shared.exceptions import MCPError
from stdio_harness import MODES, call_tool_raw, connect, home_files, text_of

from notebook_app.core.memory.tool import DESCRIPTION, INPUT_SCHEMA, memory_tool


@pytest.mark.parametrize("mode", MODES)
async def test_lists_exactly_the_cores_memory_tool(home: Path, server_log: Path, mode: str) -> None:
    async with connect(home, server_log, mode=mode) as client:
        tools = (await client.list_tools()).tools
    assert [tool.name for tool in tools] == ["memory"]
    tool = tools[0]
    assert tool.description == DESCRIPTION
    assert tool.input_schema == INPUT_SCHEMA
    assert json.dumps(tool.input_schema) == json.dumps(INPUT_SCHEMA), "same keys in the same order"


async def test_add_replace_remove_write_what_the_core_writes(home: Path, server_log: Path, tmp_path: Path) -> None:
    twin = tmp_path / "twin"
    twin.mkdir()
    for name, data in home_files(home, scratch=False).items():
        (twin / name).write_bytes(data)
    core = memory_tool(twin)
    calls = [
        {"action": "add", "text": "timezone: UTC"},
        {"action": "replace", "text": "UTC", "with": "IST"},
        {"action": "add", "target": "user", "text": "likes filter coffee"},
        {"action": "remove", "text": "- prefers metric units\n"},
        {"action": "replace", "target": "user", "text": "Muthu", "with": "Muthu R."},
    ]
    async with connect(home, server_log) as client:
        for args in calls:
            result = await client.call_tool("memory", args)
            expected = core.call(args)
            assert (result.is_error, text_of(result)) == (False, expected.output), args
    assert (home / "MEMORY.md").read_text(encoding="utf-8") == "- café hours: 7–11\n- timezone: IST\n"
    assert (home / "USER.md").read_text(encoding="utf-8") == "- name is Muthu R.\n- likes filter coffee\n"
    assert home_files(home, scratch=False) == home_files(twin, scratch=False)


async def test_add_to_an_empty_home_writes_exactly_one_entry_line(tmp_path: Path, server_log: Path) -> None:
    home = tmp_path / "empty"
    home.mkdir()
    async with connect(home, server_log) as client:
        result = await client.call_tool("memory", {"action": "add", "text": "prefers metric units"})
    assert text_of(result) == "ok (add → MEMORY.md); loads next session"
    assert (home / "MEMORY.md").read_bytes() == b"- prefers metric units\n"


@pytest.mark.parametrize("mode", MODES)
async def test_a_miss_is_an_error_with_the_exact_text_and_changes_no_byte(
    home: Path, server_log: Path, mode: str
) -> None:
    (home / "MEMORY.md").write_bytes("- no trailing newline · ünïcode".encode())
    before = home_files(home)
    async with connect(home, server_log, mode=mode) as client:
        removed = await client.call_tool("memory", {"action": "remove", "text": "nonexistent phrase"})
        replaced = await client.call_tool(
            "memory", {"action": "replace", "target": "user", "text": "Ravi", "with": "Muthu"}
        )
    assert removed.is_error and text_of(removed) == "not found: nonexistent phrase"
    assert replaced.is_error and text_of(replaced) == "not found: Ravi"
    assert home_files(home) == before


BAD_ARGUMENTS = [
    ({}, "missing 'action'"),
    ({"text": "x"}, "missing 'action'"),
    ({"action": "delete", "text": "x"}, "unknown action 'delete'"),
    ({"action": "add"}, "missing 'text'"),
    ({"action": "add", "text": 5}, "'text' must be a string, got number"),
    ({"action": "add", "text": "   "}, "'text' must not be empty"),
    ({"action": "add", "text": "x", "target": "../../etc/passwd"}, "unknown target '../../etc/passwd'"),
    ({"action": "add", "text": "x", "target": "SOUL.md"}, "unknown target 'SOUL.md'"),
    ({"action": "replace", "text": "Muthu"}, "replace needs 'with'"),
    ({"action": "replace", "text": "Muthu", "with": ["x"]}, "'with' must be a string, got array"),
]


async def test_bad_arguments_get_the_cores_clear_error_and_change_nothing(home: Path, server_log: Path) -> None:
    before = home_files(home)
    async with connect(home, server_log) as client:
        for args, phrase in BAD_ARGUMENTS:
            result = await client.call_tool("memory", args)
            assert result.is_error, args
            assert text_of(result) == memory_tool(home).call(args).output, args
            assert phrase in text_of(result), args
    assert home_files(home) == before


@pytest.mark.parametrize("mode", MODES)
async def test_arguments_that_are_not_an_object_get_the_cores_message_not_the_sdks(
    home: Path, server_log: Path, mode: str
) -> None:
    before = home_files(home)
    async with connect(home, server_log, mode=mode) as client:
        listed = await call_tool_raw(client, ["add", "x"])
        text = await call_tool_raw(client, "add x")
    assert listed.is_error and text_of(listed) == "input must be an object with 'action' and 'text', got array"
    assert text.is_error and text_of(text) == "input must be an object with 'action' and 'text', got string"
    assert home_files(home) == before


async def test_calling_a_tool_that_does_not_exist_is_a_protocol_error_naming_the_real_one(
    home: Path, server_log: Path
) -> None:
    async with connect(home, server_log) as client:
        with pytest.raises(MCPError) as raised:
            await client.call_tool("remember", {"action": "add", "text": "x"})
    assert "unknown tool 'remember'" in str(raised.value)
    assert "'memory'" in str(raised.value)
