"""What a writer that died mid-write leaves, met by real processes: the next reader and writer see the state before.

Two ways a write is cut short, each made by a real process:

* a child goes through the real add, but its ``os.write`` to MEMORY.md puts
  down half the bytes and then hard-exits (``os._exit``: no cleanup, no
  ``finally``), as a kill would leave it;
* the event log ends in a line without its newline (a writer killed while
  writing its record) and the next write comes from a fresh process, one
  that has not opened the log before.
"""

from __future__ import annotations

import json
import subprocess
import sys
import textwrap
from pathlib import Path

from notebook_app.core.history.query import check, history
from notebook_app.core.home.soul import compose_soul
from notebook_app.core.memory.tool import memory_tool
from notebook_app.core.record.log.actor import CLI
from notebook_app.core.record.log.events import Event
from notebook_app.core.record.log.store import LOG_PATH

HALF_AN_ADD = textwrap.dedent(
    """
    import os, sys
    from notebook_app.core.memory.tool import memory_tool
    from notebook_app.core.memory.tool import memory_tool
    from notebook_app.core.record.log.actor import CLI

    home, text = sys.argv[1], sys.argv[2]
    memory = os.stat(os.path.join(home, "MEMORY.md"))
    real_write = os.write

    def write(fd, data):
        info = os.fstat(fd)
        if (info.st_dev, info.st_ino) == (memory.st_dev, memory.st_ino):
            real_write(fd, bytes(data[: len(data) // 2]))
            os._exit(9)  # dead half-way through the add's bytes
        return real_write(fd, data)

    os.write = write
    memory_tool(home, by=CLI).call({"action": "add", "text": text})
    sys.exit("the add finished: it should have died half-way")
    """
)
ONE_ADD = textwrap.dedent(
    """
    import sys
    from notebook_app.core.memory.tool import memory_tool
    from notebook_app.core.memory.tool import memory_tool
    from notebook_app.core.record.log.actor import CLI

    result = memory_tool(sys.argv[1], by=CLI).call({"action": "add", "text": sys.argv[2]})
    sys.exit(1 if result.is_error else 0)
    """
)


def seeded(home: Path) -> list[str]:
    """MEMORY.md with two entries recorded by the core; the ids of their records, newest first."""
    tool = memory_tool(home, by=CLI)
    for text in ("timezone: UTC", "prefers metric units"):
        assert not tool.call({"action": "add", "text": text}).is_error
    return [record.id for record in history(home)]


def texts(home: Path) -> list[str]:
    return [
        record.args.get("text") if isinstance(record.args, dict) else record.action
        for record in reversed(history(home))
    ]


def test_a_child_that_wrote_half_an_add_and_died_leaves_memory_as_before_for_the_next_reader_writer_and_history(
    home: Path,
) -> None:
    ids = seeded(home)
    path = home / "MEMORY.md"
    before = path.read_bytes()
    soul_before = compose_soul(home)
    torn = "likes tea, not coffee: " + "thé " * 400  # half of it ends inside a character

    child = subprocess.run(
        [sys.executable, "-c", HALF_AN_ADD, str(home), torn], capture_output=True, text=True, timeout=60
    )
    assert child.returncode == 9, child.stderr
    cut = path.read_bytes()
    assert cut.startswith(before) and len(before) < len(cut) < len(before) + len(torn), "half the bytes landed"

    assert compose_soul(home) == soul_before, "the next reader loads the file as it was before the add"
    assert [record.id for record in history(home)] == ids, "the history shows no record of the add"

    assert not memory_tool(home, by=CLI).call({"action": "add", "text": "next"}).is_error
    assert path.read_bytes() == before + b"- next\n", "the next writer finds the file as before, and adds after it"
    assert texts(home) == ["timezone: UTC", "prefers metric units", "next"], (
        "the cut add left no record, not even as outside"
    )
    assert check(home) == []


def test_after_a_record_cut_short_the_next_write_from_a_fresh_process_is_a_whole_line_in_the_history(
    home: Path,
) -> None:
    seeded(home)
    log = home / LOG_PATH
    with open(log, "ab") as file:
        file.write(b'{"id":"w-1m8q26ty20eg0","time":"2026-11-30T20:2')  # a record its writer did not finish
    child = subprocess.run([sys.executable, "-c", ONE_ADD, str(home), "written by a fresh process"], timeout=60)
    assert child.returncode == 0

    data = log.read_bytes()
    assert data.endswith(b"\n")
    header, *records = data[:-1].split(b"\n")
    assert json.loads(header)
    newest = Event.from_line(records[-1])
    assert (newest.action, newest.args["text"]) == ("add", "written by a fresh process"), "its record is a whole line"
    for line in records:
        Event.from_line(line)  # and every line before it parses: the cut one is gone
    assert history(home)[0].id == newest.id
    assert texts(home) == ["timezone: UTC", "prefers metric units", "written by a fresh process"]
    assert check(home) == []
