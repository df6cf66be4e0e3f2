"""Bad input gets a clear is_error naming what was wrong, and nothing on disk changes."""

from __future__ import annotations

import os
import tempfile
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from notebook_app.core.memory.tool import memory_tool

SEEDED = {"MEMORY.md": "- timezone: UTC\n- likes tea\n", "USER.md": "- name is Muthu\n", "SOUL.md": "You are Kip."}


def seed(home: Path) -> None:
    for name, text in SEEDED.items():
        (home / name).write_text(text)


CASES: list[tuple[Any, str]] = [
    ({"text": "x"}, "missing 'action': expected one of add, replace, remove"),
    ({"action": "append", "text": "x"}, "unknown action 'append': expected one of add, replace, remove"),
    ({"action": 3, "text": "x"}, "unknown action 3: expected one of add, replace, remove"),
    ({"action": "add"}, "missing 'text': the entry to add, or the existing text to replace or remove"),
    ({"action": "add", "text": ""}, "'text' must not be empty or only whitespace"),
    ({"action": "add", "text": "  \n"}, "'text' must not be empty or only whitespace"),
    ({"action": "add", "text": 42}, "'text' must be a string, got number"),
    ({"action": "add", "text": ["a"]}, "'text' must be a string, got array"),
    ({"action": "add", "text": "\ud800"}, "'text' is not valid Unicode text (it holds a lone surrogate)"),
    (
        {"action": "add", "text": "x", "target": "../etc"},
        "unknown target '../etc': expected 'self' (MEMORY.md) or 'user' (USER.md)",
    ),
    (
        {"action": "add", "text": "x", "target": "users"},
        "unknown target 'users': expected 'self' (MEMORY.md) or 'user' (USER.md)",
    ),
    ({"action": "add", "text": "x", "target": 1}, "unknown target 1: expected 'self' (MEMORY.md) or 'user' (USER.md)"),
    (
        {"action": "add", "text": "x", "target": "MEMORY.md"},
        "unknown target 'MEMORY.md': expected 'self' (MEMORY.md) or 'user' (USER.md)",
    ),
    (
        {"action": "replace", "text": "UTC"},
        "replace needs 'with': the text to put in place of 'text' (\"\" removes it)",
    ),
    ({"action": "replace", "text": "UTC", "with": 5}, "'with' must be a string, got number"),
    (["add", "x"], "input must be an object with 'action' and 'text', got array"),
    ("add x", "input must be an object with 'action' and 'text', got string"),
    (None, "input must be an object with 'action' and 'text', got null"),
]


@pytest.mark.parametrize(("args", "message"), CASES)
def test_bad_input_is_a_clear_error_and_changes_nothing(home: Path, args: Any, message: str, snapshot_files) -> None:
    seed(home)
    before = snapshot_files(home)
    res = memory_tool(home).call(args)
    assert res.is_error
    assert res.output == message
    assert snapshot_files(home) == before


def test_null_target_means_the_default(home: Path) -> None:
    res = memory_tool(home).call({"action": "add", "text": "x", "target": None})
    assert not res.is_error
    assert (home / "MEMORY.md").read_text() == "- x\n"


@pytest.mark.parametrize("action", ["add", "replace", "remove"])
def test_target_file_that_is_not_utf8_is_refused_untouched(home: Path, action: str) -> None:
    original = b"- caf\xe9 au lait\n"
    (home / "MEMORY.md").write_bytes(original)
    res = memory_tool(home).call({"action": action, "text": "caf", "with": "tea"})
    assert res.is_error
    assert res.output == (
        "MEMORY.md is not valid UTF-8 (byte 0xe9 at offset 5); fix or remove the file first, nothing was written"
    )
    assert (home / "MEMORY.md").read_bytes() == original


def test_home_that_is_a_file_is_an_error(tmp_path: Path) -> None:
    home = tmp_path / "home"
    home.write_text("I am a file")
    res = memory_tool(home).call({"action": "add", "text": "x"})
    assert res.is_error
    assert res.output == f"home is not a directory: {home}"
    assert home.read_text() == "I am a file"


def test_target_that_is_a_directory_is_an_error(home: Path) -> None:
    (home / "MEMORY.md").mkdir()
    res = memory_tool(home).call({"action": "add", "text": "x"})
    assert res.is_error
    assert res.output == "MEMORY.md is not a regular file; nothing was written"


json_scalars = st.none() | st.booleans() | st.integers() | st.floats(allow_nan=False) | st.text(max_size=12)
json_values = st.recursive(
    json_scalars,
    lambda children: st.lists(children, max_size=3) | st.dictionaries(st.text(max_size=6), children, max_size=3),
    max_leaves=8,
)
field_values = st.one_of(
    st.sampled_from(["add", "replace", "remove", "self", "user", "", " ", "UTC", "- likes tea\n", "../etc"]),
    json_values,
)
tool_inputs = st.one_of(
    json_values,
    st.fixed_dictionaries(
        {},
        optional={"action": field_values, "target": field_values, "text": field_values, "with": field_values},
    ),
)


# snapshot_files is a stateless helper, so sharing it across examples is safe.
@settings(
    max_examples=400,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture],
)
@given(args=tool_inputs)
def test_any_json_input_never_raises_and_an_error_changes_nothing(args: Any, snapshot_files) -> None:
    with tempfile.TemporaryDirectory() as tmp:
        home = Path(tmp)
        seed(home)
        before = snapshot_files(home)
        res = memory_tool(home).call(args)
        assert isinstance(res.output, str) and res.output
        if res.is_error:
            assert snapshot_files(home) == before
        else:
            assert res.output.startswith("ok (")
            assert "loads next session" in res.output


def test_add_rechecks_utf8_when_the_file_changed_outside_the_core(home: Path) -> None:
    tool = memory_tool(home)
    tool.call({"action": "add", "text": "first"})
    with open(home / "MEMORY.md", "ab") as handle:  # an editor writes a Latin-1 byte
        handle.write(b"- caf\xe9\n")
    before = (home / "MEMORY.md").read_bytes()
    res = tool.call({"action": "add", "text": "second"})
    assert res.is_error and res.output.startswith("MEMORY.md is not valid UTF-8 (byte 0xe9 at offset 13)")
    assert (home / "MEMORY.md").read_bytes() == before


def test_add_rechecks_the_whole_file_when_it_changed_outside_even_far_from_the_end(home: Path) -> None:
    """The bad byte sits well before the 64-byte tail, so only the full check can see it."""
    tool = memory_tool(home)
    tool.call({"action": "add", "text": "first"})
    with open(home / "MEMORY.md", "r+b") as handle:  # an editor rewrites the file in place
        handle.write(b"- caf\xe9\n" + b"- " + b"long entry " * 20 + b"\n")
    before = (home / "MEMORY.md").read_bytes()
    res = tool.call({"action": "add", "text": "second"})
    assert res.output == (
        "MEMORY.md is not valid UTF-8 (byte 0xe9 at offset 5); fix or remove the file first, nothing was written"
    )
    assert res.is_error
    assert (home / "MEMORY.md").read_bytes() == before


def test_add_skips_rereading_a_file_unchanged_since_the_cores_own_write(home: Path) -> None:
    """Why add costs the same on 2 MiB: a file whose inode, size and mtime are as
    the core left them is not re-read. Flip a byte in place and put the mtime
    back, and add does not notice, which shows the full read was skipped."""
    tool = memory_tool(home)
    tool.call({"action": "add", "text": "abc"})
    tool.call({"action": "add", "text": "a line long enough to keep the flipped byte out of the tail read " * 2})
    path = home / "MEMORY.md"
    info = path.stat()
    with open(path, "r+b") as handle:
        handle.seek(2)
        handle.write(b"\xff")
    os.utime(path, ns=(info.st_atime_ns, info.st_mtime_ns))
    assert not tool.call({"action": "add", "text": "def"}).is_error
    assert path.read_bytes().startswith(b"- \xffbc\n")
    assert path.read_bytes().endswith(b"\n- def\n")
