"""SIGKILL a recording writer at random moments: afterwards every file is valid and the history agrees with it.

The child mixes every recorded write (the tool's add, some larger than a
page and than the log's inline limit, replace and remove; entry edits; undo
and restore) and reports each one it finished. After the kill, one write by
the next writer settles whatever was in flight; then every file must be
UTF-8, the history must rebuild each file exactly as it is on disk, and it
must hold every write the child finished, and at most the one in flight.
"""

from __future__ import annotations

import os
import random
import signal
import subprocess
import sys
import textwrap
import time
from pathlib import Path

import pytest

from notebook_app.core.history.query import check, history
from notebook_app.core.home.soul import compose
from notebook_app.core.memory.tool import memory_tool

CHILD = textwrap.dedent(
    """
    import random, sys
    from notebook_app.core.memory.edits.guarded_splice import delete_entry, edit_entry
    from notebook_app.core.memory.tool import memory_tool
    from notebook_app.core.memory.edits.guarded_splice import edit_entry, delete_entry
    from notebook_app.core.memory.tool import memory_tool
    from notebook_app.core.record.log.actor import CLI, NOTEBOOK, Actor
    from notebook_app.core.history.query import history
    from notebook_app.core.history.undo_restore import restore, undo

    home = sys.argv[1]
    pick = random.Random(int(sys.argv[2]))
    tool = memory_tool(home, by=Actor.mcp("20261130-101010-0badc0de", "crash-agent", "1"))
    print("ready", flush=True)
    i = 0
    while True:
        i += 1
        kind = pick.choice(["add", "add", "big", "replace", "remove", "edit", "delete", "undo", "restore"])
        target = pick.choice(["self", "user"])
        name = "MEMORY.md" if target == "self" else "USER.md"
        if kind == "add":
            ok = not tool.call({"action": "add", "target": target, "text": f"entry {i}"}).is_error
        elif kind == "big":
            big = f"big {i} " + "x" * pick.choice([5000, 70000])
            ok = not tool.call({"action": "add", "target": target, "text": big}).is_error
        elif kind == "replace":
            args = {"action": "replace", "target": target, "text": f"entry {i - 3}", "with": f"ENTRY {i}"}
            ok = not tool.call(args).is_error
        elif kind == "remove":
            ok = not tool.call({"action": "remove", "target": target, "text": f"- entry {i - 5}\\n"}).is_error
        elif kind in ("edit", "delete"):
            try:
                first = open(f"{home}/{name}", encoding="utf-8").readline().rstrip("\\n")
            except FileNotFoundError:
                continue
            if not first:
                continue
            if kind == "edit":
                ok = edit_entry(home, name, 1, first, f"edited {i}", by=NOTEBOOK).applied is not None
            else:
                ok = delete_entry(home, name, 1, first, by=NOTEBOOK).applied is not None
        else:
            records = [r for r in history(home, limit=6) if r.is_write]
            if not records:
                continue
            chosen = pick.choice(records)
            if kind == "undo":
                ok = undo(home, chosen.id, by=CLI).record is not None
            else:
                ok = restore(home, chosen.file, chosen.id, by=CLI).record is not None
        if ok:  # a write that made a record
            print("done", flush=True)
    """
)


def seed(home: Path) -> None:
    (home / "MEMORY.md").write_text("".join(f"- entry {i}\n" for i in range(-10, 0)))
    (home / "USER.md").write_text("- name is Muthu\n")


@pytest.mark.parametrize("trial", range(30))
def test_after_a_sigkill_and_the_next_write_files_are_valid_and_agree_with_their_history(
    home: Path, trial: int
) -> None:
    seed(home)
    child = subprocess.Popen(
        [sys.executable, "-c", CHILD, str(home), str(trial)],
        stdout=subprocess.PIPE,
        text=True,
        env={**os.environ, "PYTHONUNBUFFERED": "1"},
    )
    assert child.stdout is not None and child.stdout.readline() == "ready\n"
    time.sleep(random.Random(trial).uniform(0.05, 0.6))
    os.kill(child.pid, signal.SIGKILL)
    finished = child.stdout.read().count("done\n")
    child.wait(timeout=30)

    for name in ("MEMORY.md", "USER.md"):
        loaded = compose(home).file(name)
        assert loaded is not None or not (home / name).exists()
        assert loaded is None or loaded.decode_error is None, "a reader never sees a cut character"
    memory_tool(home).call({"action": "remove", "text": "a call that settles what was in flight"})
    for name in ("MEMORY.md", "USER.md"):
        path = home / name
        if path.exists():
            path.read_bytes().decode("utf-8")  # valid: never cut inside a character
    assert check(home) == []
    writes = [r for r in history(home) if r.is_write and r.action != "outside"]
    assert finished <= len(writes) <= finished + 1, "every finished write is recorded, and at most the one in flight"
    assert not [p for p in home.iterdir() if p.name.endswith(".tmp")]
