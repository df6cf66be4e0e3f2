"""Every example of the two seed documents (Rust and JavaScript), in Python."""

from __future__ import annotations

from pathlib import Path

from notebook_app.core.home.soul import compose_soul
from notebook_app.core.memory.tool import memory_tool


# Rust example 1: the smallest useful call.
def test_rust_add_to_empty_home_writes_exactly_one_entry(home: Path) -> None:
    mem = memory_tool(home)
    assert mem.name == "memory"
    res = mem.call({"action": "add", "text": "prefers metric units"})
    assert not res.is_error, res.output
    assert (home / "MEMORY.md").read_text() == "- prefers metric units\n"


# Rust example 2: replace, remove, and the loud miss.
def test_rust_replace_then_remove_miss_is_loud_and_leaves_file(home: Path) -> None:
    mem = memory_tool(home)
    mem.call({"action": "add", "text": "timezone: UTC"})
    replaced = mem.call({"action": "replace", "text": "UTC", "with": "IST"})
    assert not replaced.is_error, replaced.output
    on_disk = (home / "MEMORY.md").read_text()
    assert on_disk == "- timezone: IST\n"

    miss = mem.call({"action": "remove", "text": "nonexistent phrase"})
    assert miss.is_error
    assert miss.output == "not found: nonexistent phrase"
    assert (home / "MEMORY.md").read_text() == on_disk


# Rust example 3: target user, and next-session-only semantics.
def test_rust_writes_load_only_in_the_next_composed_soul(home: Path) -> None:
    (home / "SOUL.md").write_text("You are Kip.")
    soul_before, found_before = compose_soul(home)
    assert "MEMORY.md" not in found_before

    mem = memory_tool(home)
    mem.call({"action": "add", "target": "user", "text": "name is Muthu"})
    mem.call({"action": "add", "text": "always reply tersely"})

    assert "MEMORY.md" not in soul_before
    assert (home / "USER.md").read_text() == "- name is Muthu\n"

    soul_after, found_after = compose_soul(home)
    assert found_after == ["SOUL.md", "USER.md", "MEMORY.md"]
    assert "always reply tersely" in soul_after and "name is Muthu" in soul_after


# JavaScript example 1: add, with the tool's identity and schema.
async def test_js_execute_add_and_schema(home: Path) -> None:
    memory = memory_tool(home)
    assert memory.name == "memory"
    assert memory.source == "native"
    assert memory.input_schema["properties"]["action"]["enum"] == ["add", "replace", "remove"]

    res = await memory.execute({"action": "add", "text": "prefers metric units"})
    assert res.is_error is False
    assert "prefers metric units" in (home / "MEMORY.md").read_text()


# JavaScript example 2: replace, then a miss on the replaced text.
async def test_js_remove_of_replaced_text_is_not_found(home: Path) -> None:
    memory = memory_tool(home)
    await memory.execute({"action": "add", "text": "prefers metric units"})
    replaced = await memory.execute({"action": "replace", "text": "prefers metric units", "with": "prefers SI units"})
    assert replaced.is_error is False
    assert "prefers SI units" in (home / "MEMORY.md").read_text()

    missed = await memory.execute({"action": "remove", "text": "prefers metric units"})
    assert missed.is_error is True
    assert missed.output == "not found: prefers metric units"


# JavaScript example 3: target user writes USER.md; both say "loads next session".
async def test_js_targets_write_their_own_files_and_name_the_session_boundary(home: Path) -> None:
    memory = memory_tool(home)
    own = await memory.execute({"action": "add", "text": "shipped the v2 migration"})
    user = await memory.execute({"action": "add", "text": "likes terse status updates", "target": "user"})

    assert "shipped the v2 migration" in (home / "MEMORY.md").read_text()
    assert "likes terse status updates" in (home / "USER.md").read_text()
    assert "loads next session" in own.output
    assert "loads next session" in user.output
    assert own.output == "ok (add → MEMORY.md); loads next session"
    assert user.output == "ok (add → USER.md); loads next session"
