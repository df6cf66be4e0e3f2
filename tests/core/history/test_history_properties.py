"""Undoing every record, newest first, gives back the original bytes exactly.

Hypothesis draws a starting home and batches of writes: adds, replaces,
removes and entry edits from two real processes at once (an agent over its
session and a person at the CLI), and, between batches, outside writes (an
editor saving, ``echo >>``, a file deleted or made). Then every record of the
history is undone, newest first: each undo must succeed, and at the end
every file is byte for byte what it was before the first write. (An outside
change is recorded by the next write to that file, so the run begins and
ends with a write to each.)
"""

from __future__ import annotations

import multiprocessing
import shutil
import tempfile
from collections.abc import Iterator
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from notebook_app.core.history.query import check, history
from notebook_app.core.history.undo_restore import undo
from notebook_app.core.record.log.actor import CLI

FILES = ("MEMORY.md", "USER.md")
WORDS = st.sampled_from(["tea", "UTC", "IST", "kip", "ünï", "cafe", "7–11", "x"])
TEXT = st.lists(WORDS, min_size=1, max_size=3).map(" ".join)
TARGET = st.sampled_from(["self", "user"])
OP = st.one_of(
    st.tuples(st.just("add"), TARGET, TEXT),
    st.tuples(st.just("replace"), TARGET, WORDS, TEXT),
    st.tuples(st.just("remove"), TARGET, WORDS),
    st.tuples(st.just("edit"), st.sampled_from(FILES), st.integers(0, 20), TEXT),
    st.tuples(st.just("delete"), st.sampled_from(FILES), st.integers(0, 20)),
)
OUTSIDE = st.one_of(
    st.none(),
    st.tuples(st.just("append"), st.sampled_from(FILES), TEXT),
    st.tuples(st.just("prepend"), st.sampled_from(FILES), TEXT),
    st.tuples(st.just("overwrite"), st.sampled_from(FILES), TEXT),
    st.tuples(st.just("unlink"), st.sampled_from(FILES)),
)
START = st.sampled_from([None, b"", b"- seed\n", b"- a\n- b tea\n- c\n", b"- no newline at the end", b"- crlf\r\n"])


def run_ops(home: str, who: str, ops: list[tuple]) -> None:
    """One writer process: its calls, in order; refusals and misses are part of the game."""
    from notebook_app.core.memory.edits.guarded_splice import delete_entry, edit_entry
    from notebook_app.core.memory.tool import memory_tool
    from notebook_app.core.record.log.actor import CLI, Actor

    by = Actor.mcp("20261130-101010-0badc0de", "prop-agent", "1") if who == "agent" else CLI
    tool = memory_tool(home, by=by)
    for op in ops:
        if op[0] == "add":
            tool.call({"action": "add", "target": op[1], "text": op[2]})
        elif op[0] == "replace":
            tool.call({"action": "replace", "target": op[1], "text": op[2], "with": op[3]})
        elif op[0] == "remove":
            tool.call({"action": "remove", "target": op[1], "text": op[2]})
        else:
            path = Path(home) / op[1]
            try:
                lines = path.read_text(encoding="utf-8").split("\n")
            except (FileNotFoundError, UnicodeDecodeError):
                continue
            lines = [line.removesuffix("\r") for line in (lines[:-1] if lines[-1] == "" else lines)]
            if not lines:
                continue
            number = op[2] % len(lines) + 1
            if op[0] == "edit":
                edit_entry(home, op[1], number, lines[number - 1], op[3], by=by)
            else:
                delete_entry(home, op[1], number, lines[number - 1], by=by)


def outside(home: Path, change: tuple | None) -> None:
    """A write no process of ours makes: an editor, ``echo >>``, ``rm``."""
    if change is None:
        return
    path = home / change[1]
    now = path.read_bytes() if path.exists() else b""
    if change[0] == "append":
        path.write_bytes(now + f"- {change[2]} (typed)\n".encode())
    elif change[0] == "prepend":
        path.write_bytes(f"- {change[2]} (top)\n".encode() + now)
    elif change[0] == "overwrite":
        path.write_bytes(f"- {change[2]} (all new)\n".encode())
    elif path.exists():
        path.unlink()


@pytest.fixture(scope="module")
def writers() -> Iterator[ProcessPoolExecutor]:
    with ProcessPoolExecutor(max_workers=2, mp_context=multiprocessing.get_context("fork")) as pool:
        yield pool


@settings(
    max_examples=80, deadline=None, suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture]
)
@given(
    start=st.tuples(START, START),
    batches=st.lists(st.tuples(st.lists(OP, max_size=4), st.lists(OP, max_size=4), OUTSIDE), min_size=1, max_size=4),
)
def test_undoing_every_record_newest_first_gives_back_the_original_bytes(
    writers: ProcessPoolExecutor, start: tuple[bytes | None, bytes | None], batches: list
) -> None:
    home = Path(tempfile.mkdtemp(prefix="persona-history-"))
    try:
        for name, content in zip(FILES, start, strict=True):
            if content is not None:
                (home / name).write_bytes(content)
        run_ops(str(home), "cli", [("add", "self", "the history of each file"), ("add", "user", "begins here")])
        for agent_ops, person_ops, change in batches:
            running = [
                writers.submit(run_ops, str(home), "agent", agent_ops),
                writers.submit(run_ops, str(home), "cli", person_ops),
            ]
            for done in running:
                done.result(timeout=60)
            outside(home, change)
        run_ops(
            str(home),
            "cli",
            [("add", "self", "a write to each file"), ("add", "user", "records what was left outside")],
        )
        records = [record for record in history(home) if record.is_write]
        for record in records:
            result = undo(home, record.id, by=CLI)
            assert not result.is_error, f"{record.action} {record.id}: {result.output}"
        for name, content in zip(FILES, start, strict=True):
            path = home / name
            assert (path.read_bytes() if path.exists() else None) == content, name
        assert check(home) == []
    finally:
        shutil.rmtree(home)
