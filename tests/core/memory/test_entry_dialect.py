"""In a ``- `` file a human write refuses a line break, in one message; the agent's tool accepts it (spec §9)."""

from __future__ import annotations

from pathlib import Path

import pytest

from notebook_app.core.home.files import read_file
from notebook_app.core.home.refusals import Rejection
from notebook_app.core.memory.edits.guarded_splice import edit_entry
from notebook_app.core.memory.plan import preview, preview_file
from notebook_app.core.memory.tool import memory_tool
from notebook_app.core.record.log.actor import CLI, LIBRARY, NOTEBOOK, Actor

MESSAGE = "the text holds a line break, and each entry of {name} is one '- ' line; nothing was written"


@pytest.fixture
def home(tmp_path: Path) -> Path:
    (tmp_path / "MEMORY.md").write_bytes(b"- tea\n")
    (tmp_path / "USER.md").write_bytes(b"- name is Ada\n")
    return tmp_path


@pytest.mark.parametrize("by", [CLI, NOTEBOOK], ids=["cli", "notebook"])
@pytest.mark.parametrize(("target", "name"), [("self", "MEMORY.md"), ("user", "USER.md")])
@pytest.mark.parametrize("text", ["a\nb", "a\r\nb", "a\rb", "trailing\n"])
def test_a_humans_add_with_a_line_break_is_refused_and_writes_nothing(
    home: Path, by: Actor, target: str, name: str, text: str
) -> None:
    before = {p.name: p.read_bytes() for p in home.iterdir()}
    result = memory_tool(home, by=by).call({"action": "add", "target": target, "text": text})
    assert (result.output, result.is_error) == (MESSAGE.format(name=name), True)
    assert {p.name: p.read_bytes() for p in home.iterdir()} == before  # no .notebook/ either


def test_an_entry_edit_refuses_a_line_break_with_the_same_message(home: Path) -> None:
    result = edit_entry(home, "MEMORY.md", 1, "- tea", "- a\n- b", by=CLI)
    assert (result.output, result.is_error) == (MESSAGE.format(name="MEMORY.md"), True)
    assert (home / "MEMORY.md").read_bytes() == b"- tea\n"


@pytest.mark.parametrize("by", [LIBRARY, Actor.mcp("s1", "client", "1")], ids=["library", "mcp"])
def test_the_agents_tool_keeps_the_contract_and_accepts_a_line_break(home: Path, by: Actor) -> None:
    result = memory_tool(home, by=by).call({"action": "add", "text": "a\nb"})
    assert (result.output, result.is_error) == ("ok (add → MEMORY.md); loads next session", False)
    assert (home / "MEMORY.md").read_bytes() == b"- tea\n- a\nb\n"


def test_the_dry_run_refuses_what_the_humans_write_refuses(home: Path) -> None:
    args = {"action": "add", "text": "a\nb"}
    read = read_file(home / "MEMORY.md", limit=1 << 20)
    assert preview_file(args, read, by=NOTEBOOK) == Rejection(MESSAGE.format(name="MEMORY.md"))
    assert preview(args, "- tea\n", by=CLI) == Rejection(MESSAGE.format(name="MEMORY.md"))
    assert not isinstance(preview_file(args, read), Rejection)  # the agent's dry run (the review queue) accepts it


def test_a_humans_replace_may_still_match_across_lines(home: Path) -> None:
    (home / "MEMORY.md").write_bytes(b"- tea\n- coffee\n")
    result = memory_tool(home, by=CLI).call({"action": "remove", "text": "- coffee\n"})
    assert result.is_error is False
    assert (home / "MEMORY.md").read_bytes() == b"- tea\n"
