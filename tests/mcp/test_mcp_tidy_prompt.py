"""The ``tidy`` prompt over the real protocol: listed in review mode only, its calls queued for a person.

A scripted client stands in for the model: it reads the prompt, makes the
calls the prompt gives word for word and the merge it asks for, and each is
queued as a proposal of its session, nothing written until a person approves.
"""

from __future__ import annotations

import json
import re
import sys
from pathlib import Path

import pytest
from mcp.shared.exceptions import MCPError
from stdio_harness import MODES, connect, text_of

from notebook_app.core.record.log.actor import NOTEBOOK
from notebook_app.core.memory.tool import INPUT_SCHEMA
from notebook_app.core.memory.review.decisions import approve_all, pending
from notebook_app.core.sessions.agents import list_sessions
from notebook_app.core.tidy.near import THRESHOLD
from notebook_app.core.tidy.prompt import PROMPT_DESCRIPTION, PROMPT_NAME
from notebook_app.mcp.prompts import REVIEW_ONLY
from notebook_app.mcp.server import SOUL_PROMPT

QUEUED = re.compile(r"queued for review \(id (p-[0-9a-z]{13})\); if approved, loads next session")
GIVEN_CALL = re.compile(r"^ +this call takes it out[^:]*: (\{.*\})$", re.MULTILINE)
MEMORY = (
    "- prefers metric units\n"
    "- timezone: UTC\n"
    "- café hours: 7–11\n"
    "- prefers metric units\n"  # an exact copy of line 1
    "- timezone: IST\n"  # supersedes line 2
)


def server(home: Path, *flags: str) -> list[str]:
    return [sys.executable, "-m", "notebook_app", "mcp", str(home), *flags]


@pytest.fixture
def untidy(home: Path) -> Path:
    (home / "MEMORY.md").write_text(MEMORY, encoding="utf-8")
    return home


async def prompt_text(client) -> str:  # type: ignore[no-untyped-def]
    prompt = await client.get_prompt(PROMPT_NAME)
    assert prompt.description == PROMPT_DESCRIPTION and len(prompt.messages) == 1
    (message,) = prompt.messages
    assert message.role == "user"
    return message.content.text


@pytest.mark.parametrize("mode", MODES)
async def test_with_review_the_tidy_prompt_is_listed_beside_the_soul_and_its_calls_are_queued(
    untidy: Path, server_log: Path, mode: str
) -> None:
    before = (untidy / "MEMORY.md").read_bytes()
    async with connect(untidy, server_log, mode=mode, command=server(untidy, "--review")) as client:
        names = [p.name for p in (await client.list_prompts()).prompts]
        text = await prompt_text(client)
        given = [json.loads(found) for found in GIVEN_CALL.findall(text)]
        assert [call["action"] for call in given] == ["remove", "replace"]  # the older timezone; the second copy
        merge = {"action": "replace", "text": "timezone: IST", "with": "timezone: IST (was UTC)"}
        results = [await client.call_tool("memory", call) for call in (merge, *given)]
        (tool,) = (await client.list_tools()).tools
    assert names == [SOUL_PROMPT, PROMPT_NAME]
    assert "".join(f"{n}\t{line}\n" for n, line in enumerate(MEMORY.splitlines(), 1)) in text
    assert "Delete nothing but exact copies and empty lines" in text and f"at least {THRESHOLD}" in text
    assert "2,097,152 bytes" in text and "memory/ARCHIVE.md" in text
    ids = [QUEUED.fullmatch(text_of(result)) for result in results]
    assert all(match and not result.is_error for match, result in zip(ids, results, strict=True)), results
    assert (untidy / "MEMORY.md").read_bytes() == before  # queued, not written
    assert json.dumps(tool.input_schema) == json.dumps(INPUT_SCHEMA)
    (session,) = list_sessions(untidy)
    queued = pending(untidy)
    assert [p.id for p in queued] == [match.group(1) for match in ids if match]
    assert [p.args for p in queued] == [merge, *given]
    assert {p.by.session for p in queued} == {session.id}
    assert all(decision.done for decision in approve_all(untidy, by=NOTEBOOK))
    assert (untidy / "MEMORY.md").read_text(encoding="utf-8") == (
        "- prefers metric units\n- café hours: 7–11\n- timezone: IST (was UTC)\n"
    )


async def test_the_homes_review_setting_lists_it_and_no_review_wins(untidy: Path, server_log: Path) -> None:
    (untidy / ".notebook").mkdir()
    (untidy / ".notebook" / "settings.toml").write_text("review = true\n")
    async with connect(untidy, server_log) as client:
        names = [p.name for p in (await client.list_prompts()).prompts]
    assert names == [SOUL_PROMPT, PROMPT_NAME]
    async with connect(untidy, server_log, command=server(untidy, "--no-review")) as client:
        names = [p.name for p in (await client.list_prompts()).prompts]
    assert names == [SOUL_PROMPT]


@pytest.mark.parametrize("mode", MODES)
async def test_without_review_it_is_not_listed_and_asking_for_it_names_the_prompts_that_exist(
    untidy: Path, server_log: Path, mode: str
) -> None:
    async with connect(untidy, server_log, mode=mode) as client:
        names = [p.name for p in (await client.list_prompts()).prompts]
        with pytest.raises(MCPError) as refused:
            await client.get_prompt(PROMPT_NAME)
        written = await client.call_tool("memory", {"action": "remove", "text": "- timezone: UTC\n"})
    assert names == [SOUL_PROMPT]
    assert (
        str(refused.value) == "unknown prompt 'tidy': this server offers 'soul' ('tidy' is offered in review mode only)"
    )
    assert not written.is_error and "timezone: UTC" not in (untidy / "MEMORY.md").read_text(encoding="utf-8")


async def test_in_review_an_unknown_prompt_names_both(untidy: Path, server_log: Path) -> None:
    async with connect(untidy, server_log, command=server(untidy, "--review")) as client:
        with pytest.raises(MCPError) as refused:
            await client.get_prompt("dream")
    assert str(refused.value) == "unknown prompt 'dream': this server offers 'soul' and 'tidy'"


async def test_the_tidy_prompt_reads_the_memory_now_while_the_soul_stays_frozen(untidy: Path, server_log: Path) -> None:
    async with connect(untidy, server_log, command=server(untidy, "--review")) as client:
        first = await prompt_text(client)
        soul = (await client.get_prompt(SOUL_PROMPT)).messages[0].content.text
        (untidy / "MEMORY.md").write_text("- written since the session began\n", encoding="utf-8")
        second = await prompt_text(client)
        soul_again = (await client.get_prompt(SOUL_PROMPT)).messages[0].content.text
    assert "2\t- timezone: UTC" in first and "timezone: UTC" in soul
    assert "1\t- written since the session began\n" in second and "timezone: UTC" not in second
    assert soul_again == soul


def test_the_review_only_name_is_the_cores() -> None:
    assert REVIEW_ONLY == PROMPT_NAME
