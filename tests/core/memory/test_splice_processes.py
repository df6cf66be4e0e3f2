"""Entry edits among real processes: nothing lost beside an agent, a whole state after SIGKILL."""

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

from notebook_app.core.home.reading import is_scratch_file
from notebook_app.core.home.soul import compose
from notebook_app.core.memory.edits.guarded_splice import delete_entry
from notebook_app.core.record.log.actor import NOTEBOOK

PRELUDE = textwrap.dedent(
    """
    import os, sys, time
    from notebook_app.core.memory.tool import memory_tool
    from notebook_app.core.record.log.actor import CLI
    from notebook_app.core.memory.edits.guarded_splice import delete_entry, edit_entry
    home, go, count = sys.argv[1], sys.argv[2], int(sys.argv[3])
    while not os.path.exists(go):
        time.sleep(0.001)
    """
)
AGENT = PRELUDE + textwrap.dedent(
    """
    tool = memory_tool(home)
    for i in range(count):
        result = tool.call({"action": "add", "text": f"agent {i}"})
        if result.is_error:
            sys.exit(result.output)
    """
)
DELETER = PRELUDE + textwrap.dedent(
    """
    for i in range(count):
        result = delete_entry(home, "MEMORY.md", 1, f"- seed {i}", by=CLI)
        if result.is_error:
            sys.exit(result.output)
    """
)
# An editor as a person works: select the line as it is now, write, and
# select again when the guard says another writer moved it first (its line
# reads something else now, or the file has fewer lines than that now).
EDITOR = PRELUDE + textwrap.dedent(
    """
    refused = 0
    for j in range(count):
        while True:
            lines = open(os.path.join(home, "MEMORY.md"), encoding="utf-8").read().split("\\n")
            line = lines.index(f"- keep {j}") + 1
            result = edit_entry(home, "MEMORY.md", line, f"- keep {j}", f"- kept {j}", by=CLI)
            if not result.is_error:
                break
            moved = "changed since you selected it" in result.output or "there is no line" in result.output
            if not moved or "nothing was changed" not in result.output or refused > 100_000:
                sys.exit(result.output)
            refused += 1
    print(refused)
    """
)


def start(code: str, home: Path, go: Path, count: int) -> subprocess.Popen[str]:
    return subprocess.Popen(
        [sys.executable, "-c", code, str(home), str(go), str(count)], stdout=subprocess.PIPE, text=True
    )


def test_an_agent_adding_while_entries_are_deleted_and_edited_loses_nothing(home: Path) -> None:
    seeds, keeps, adds = 150, 40, 300
    lines = [f"- seed {i}" for i in range(seeds)] + [f"- keep {j}" for j in range(keeps)]
    (home / "MEMORY.md").write_text("".join(f"{line}\n" for line in lines))
    go = home.parent / "go"
    procs = [start(AGENT, home, go, adds), start(DELETER, home, go, seeds), start(EDITOR, home, go, keeps)]
    go.touch()
    codes = [p.wait(timeout=300) for p in procs]
    assert codes == [0, 0, 0]
    expected_tail = [f"- agent {i}" for i in range(adds)]
    final = (home / "MEMORY.md").read_text().splitlines()
    assert sorted(final[:keeps]) == sorted(f"- kept {j}" for j in range(keeps))
    assert final[keeps:] == expected_tail


# The killed child alternates an edit and a delete of the first line of a
# 250 KB file: every step is a rewrite, so a kill can land inside one.
KILLED = textwrap.dedent(
    """
    import sys
    from notebook_app.core.record.log.actor import CLI
    from notebook_app.core.memory.edits.guarded_splice import delete_entry, edit_entry
    home = sys.argv[1]
    print("ready", flush=True)
    j = 0
    while True:
        for result in (
            edit_entry(home, "MEMORY.md", 1, f"- seed {j}", f"- edited {j}", by=CLI),
            delete_entry(home, "MEMORY.md", 1, f"- edited {j}", by=CLI),
        ):
            if result.is_error:
                sys.exit(result.output)
        j += 1
    """
)
SEEDS = [f"- seed {i}" for i in range(20_000)]


def state_of(text: str) -> int | None:
    """Which step of the child's walk ``text`` is (2j: j seeds deleted, 2j+1: then one edited), None if none."""
    lines = text.split("\n")
    if lines[-1] != "":
        return None
    lines = lines[:-1]
    head = lines[0] if lines else ""
    edited = head.startswith("- edited ")
    j = int(head.removeprefix("- edited ")) if edited else len(SEEDS) - len(lines)
    rest = lines[1:] if edited else lines
    first = j + 1 if edited else j
    return (2 * j + int(edited)) if rest == SEEDS[first:] else None


@pytest.mark.parametrize("trial", range(20))
def test_sigkill_during_entry_edits_leaves_a_whole_state(home: Path, trial: int) -> None:
    (home / "MEMORY.md").write_text("".join(f"{s}\n" for s in SEEDS))
    child = subprocess.Popen([sys.executable, "-c", KILLED, str(home)], stdout=subprocess.PIPE, text=True)
    assert child.stdout is not None and child.stdout.readline() == "ready\n"
    time.sleep(random.Random(trial).uniform(0.002, 0.2))
    os.kill(child.pid, signal.SIGKILL)
    child.wait(timeout=30)

    text = (home / "MEMORY.md").read_text()
    assert state_of(text) is not None, "a killed splice left a file that is no whole state"
    loaded = compose(home).file("MEMORY.md")
    assert loaded is not None and loaded.body + "\n" == text.lstrip()
    assert all(is_scratch_file(p.name) for p in home.iterdir() if p.name != "MEMORY.md")

    res = delete_entry(home, "MEMORY.md", 1, "- not the first line", by=NOTEBOOK)
    assert res.is_error and "changed since you selected it" in res.output
    assert (home / "MEMORY.md").read_text() == text
    assert [p.name for p in home.iterdir() if p.name not in ("MEMORY.md", ".memory.journal", ".notebook")] == []
