"""SIGKILL at any instant leaves each file as before or after one action.

A child process applies a long, deterministic mix of adds (some spanning
several pages, so a kill can land inside the write), replaces and removes
(each a rewrite of a 300 KB file). The parent kills it at a random moment,
then replays the same actions with the pure planner and checks that what is
on disk, and what a session would load, is one of those states exactly.
"""

from __future__ import annotations

import functools
import hashlib
import itertools
import os
import random
import signal
import subprocess
import sys
import textwrap
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

from notebook_app.core.home.reading import JOURNAL_NAME
from notebook_app.core.home.soul import compose
from notebook_app.core.memory.plan import preview
from notebook_app.core.memory.tool import memory_tool

OPS = textwrap.dedent(
    """
    def op(i):
        if i % 3 == 2:
            return {"action": "replace", "text": f"- entry {i - 1} ", "with": f"- ENTRY {i - 1} "}
        if i % 5 == 4:
            return {"action": "remove", "text": f"- seed {i}\\n"}
        size = 9000 if i % 4 == 0 else 20 + i % 50
        return {"action": "add", "text": f"entry {i} " + "x" * size}
    """
)
namespace: dict = {}
exec(OPS, namespace)
op = namespace["op"]

CHILD = OPS + textwrap.dedent(
    """
    import sys
    from notebook_app.core.memory.tool import memory_tool
    tool = memory_tool(sys.argv[1])
    print("ready", flush=True)
    i = 0
    while True:
        tool.call(op(i))
        i += 1
    """
)

SEED = "".join(f"- seed {i}\n" for i in range(20_000))
TRIALS = 40


def states() -> Iterator[str]:
    """Every state the child's file passes through, in order."""
    text = SEED
    i = 0
    while True:
        yield text
        edit = preview(op(i), text)
        if not hasattr(edit, "message"):
            text = edit.apply(text)
        i += 1


@functools.cache
def state_digests(count: int = 3_000) -> frozenset[bytes]:
    """Digests of the first states: the child manages about 250 actions a second."""
    return frozenset(hashlib.sha256(state.encode()).digest() for state in itertools.islice(states(), count))


def is_a_state(text: str) -> bool:
    return hashlib.sha256(text.encode()).digest() in state_digests()


def pending_append_size(home: Path) -> int | None:
    """The size before an append in flight, from the journal's slot 0 alone (the other slots hold file state)."""
    try:
        record = (home / JOURNAL_NAME).read_bytes()[:128].split()
    except FileNotFoundError:
        return None
    return int(record[2]) if record[:1] == [b"append"] else None


def test_replayed_states_follow_the_real_tool(home: Path) -> None:
    """The oracle below is only as good as this: real calls walk the replayed states."""
    (home / "MEMORY.md").write_text(SEED)
    tool = memory_tool(home)
    walk = states()
    assert next(walk) == SEED
    for i in range(30):
        tool.call(op(i))
        assert (home / "MEMORY.md").read_text() == next(walk)


@pytest.mark.parametrize("trial", range(TRIALS))
def test_sigkill_at_a_random_moment_leaves_a_whole_state(home: Path, trial: int) -> None:
    (home / "MEMORY.md").write_text(SEED)
    child = subprocess.Popen([sys.executable, "-c", CHILD, str(home)], stdout=subprocess.PIPE, text=True)
    assert child.stdout is not None and child.stdout.readline() == "ready\n"
    time.sleep(random.Random(trial).uniform(0.002, 0.12))
    os.kill(child.pid, signal.SIGKILL)
    child.wait(timeout=30)

    raw = (home / "MEMORY.md").read_bytes()
    pending = pending_append_size(home)
    if pending is None:
        assert is_a_state(raw.decode()), "killed writer left a file that is no whole state"
    else:  # killed inside an append: everything before it must be whole
        assert is_a_state(raw[:pending].decode()), "bytes before the interrupted append are no whole state"

    loaded = compose(home).file("MEMORY.md")
    assert loaded is not None
    assert is_a_state(loaded.body + "\n"), "a session would load a cut file"

    assert memory_tool(home).call({"action": "remove", "text": "no such entry"}).is_error
    assert is_a_state((home / "MEMORY.md").read_text()), "the next writer did not repair the file"
    assert not [p for p in home.iterdir() if p.name.startswith(".memory-tmp-")]
