"""A tidy killed part-way loses nothing: every moved entry is in at least one file, and the history agrees.

The torn states are built by hand with the apply's own steps (:mod:`notebook_app.core.record.group`: the temp files
and records prepared, the intent and the records announced, the archive renamed), then the writer stops, as a
kill would leave it; and by a real child process that dies (``os._exit``) right after its first rename.
"""

from __future__ import annotations

import json
import os
import random
import signal
import subprocess
import sys
import textwrap
import time
from pathlib import Path

import pytest
from test_tidy_apply import moved_raws, planned, planted

from notebook_app.core.history.query import check, history
from notebook_app.core.home.layout import Dialect
from notebook_app.core.home.reading import Intent, is_temp_file, read_intent
from notebook_app.core.memory.tool import memory_tool
from notebook_app.core.record.group import FileWrite, announce, land, prepare, reserve_ids
from notebook_app.core.record.journal import write_slot
from notebook_app.core.record.log.actor import CLI
from notebook_app.core.record.log.event_action import EventAction
from notebook_app.core.record.log.store import LOG_PATH
from notebook_app.core.record.recording import Change
from notebook_app.core.record.storage import locked_home
from notebook_app.core.tidy.apply import _archive_block, _cut_lines, _Source, apply_tidy
from notebook_app.core.tidy.propose import tidy

ARCHIVE = "memory/ARCHIVE.md"


def torn(home: Path, *, landed: int, cut_log: bool = False) -> tuple[dict[str, bytes], list[str]]:
    """Do what the apply does for every hunk, stopping after ``landed`` renames; the planned contents, moved lines.

    ``cut_log``: stop half-way through the records instead, before any rename.
    """
    proposal = tidy(home)
    plan = planned(home, proposal)
    with locked_home(home, create=False, by=CLI) as locked:
        sources = []
        for name in ("MEMORY.md", "USER.md"):
            taken = {e.line: e for h in proposal.hunks if h.file == name for e in h.entries}
            moved = [e for h in proposal.hunks if h.file == name and not h.kind.removes for e in h.entries]
            data = locked.read_whole(name).data
            sources.append(_Source(name, name, Dialect.LINES, data, taken, moved))
        ids = reserve_ids(locked, ARCHIVE, EventAction.TIDY)
        old = locked.read_whole(ARCHIVE).data
        archive = old + _archive_block(old, [s for s in sources if s.moved], ids[-1])
        change = Change(EventAction.TIDY, {"hunks": [h.id for h in proposal.hunks]}, "ok")
        writes = [FileWrite(ARCHIVE, archive, change)]
        for source in sources:
            data, hunks = _cut_lines(source)
            assert data.decode() == plan[source.name]
            writes.append(FileWrite(source.name, data, change, hunks))
        group = prepare(locked, writes, first_ids=ids)
        if cut_log:
            writer = locked.recorder.writer()
            lines = b"".join(e.line() for item in group.items for e in item.events)
            write_slot(locked._journal(), Intent("group", "-", writer.size(), after=len(group.items)).text())
            writer.append(lines[: len(lines) // 2])
        else:
            announce(group)
            for index in range(landed):
                land(group, index)
        # the writer stops here: no finish, the intent left in slot 0, the lock let go as a kill lets it go
    return {ARCHIVE: archive, **{n: plan[n].encode() for n in plan}}, moved_raws(proposal)


def entries_in(home: Path, name: str) -> str:
    path = home / name
    return path.read_text() if path.exists() else ""


def test_a_kill_after_the_archive_landed_is_completed_by_the_next_writer(home: Path) -> None:
    planted(home)
    original = (home / "MEMORY.md").read_text()
    want, moved = torn(home, landed=1)
    assert read_intent(home).kind == "group"
    assert (home / ARCHIVE).read_bytes() == want[ARCHIVE]  # the archive first: it holds the moved entries
    assert (home / "MEMORY.md").read_text() == original  # and the source still does too
    memory_tool(home).call({"action": "remove", "text": "a call that settles what was in flight"})
    assert read_intent(home) is None
    assert {name: (home / name).read_bytes() for name in want} == want
    assert check(home) == []
    assert [e.action for e in history(home)].count("tidy") == 3
    assert not [p for d in (home, home / "memory") for p in d.iterdir() if is_temp_file(p.name)]


def test_a_kill_after_the_archive_landed_whose_source_temp_is_gone_keeps_the_archive_and_drops_the_rest(
    home: Path,
) -> None:
    planted(home)
    before = {name: (home / name).read_bytes() for name in ("MEMORY.md", "USER.md")}
    want, moved = torn(home, landed=1)
    for temp in [p for p in home.iterdir() if is_temp_file(p.name)]:
        temp.unlink()  # nothing left to complete the sources from
    memory_tool(home).call({"action": "remove", "text": "a call that settles what was in flight"})
    assert (home / ARCHIVE).read_bytes() == want[ARCHIVE]
    assert {name: (home / name).read_bytes() for name in before} == before
    for line in moved:
        assert line in entries_in(home, ARCHIVE) or line in entries_in(home, "MEMORY.md") + entries_in(home, "USER.md")
    assert check(home) == []
    assert [(e.file, e.action) for e in history(home)] == [(ARCHIVE, "tidy")]  # no record without its write


def test_a_kill_while_the_records_were_written_drops_the_group_and_touches_no_file(home: Path) -> None:
    planted(home)
    before = {name: (home / name).read_bytes() for name in ("MEMORY.md", "USER.md")}
    torn(home, landed=0, cut_log=True)
    memory_tool(home).call({"action": "remove", "text": "a call that settles what was in flight"})
    assert {name: (home / name).read_bytes() for name in before} == before
    assert not (home / ARCHIVE).exists()
    assert history(home) == [] and check(home) == []
    assert not [p for d in (home, home / "memory") for p in d.iterdir() if is_temp_file(p.name)]


DIES_AFTER_FIRST_RENAME = textwrap.dedent(
    """
    import os, sys
    from pathlib import Path
    from notebook_app.core.record.log.actor import CLI
    from notebook_app.core.tidy.apply import apply_tidy
    from notebook_app.core.tidy.propose import tidy
    from notebook_app.core.tidy.apply import apply_tidy
    from notebook_app.core.tidy.propose import tidy

    home = Path(sys.argv[1])
    ids = [h.id for h in tidy(home).hunks]
    real_replace = os.replace

    def replace(src, dst, **kw):
        real_replace(src, dst, **kw)
        if str(src).rpartition("/")[2].startswith(".persona-notebook-"):
            os._exit(9)  # dead right after the first file of the group landed

    os.replace = replace
    apply_tidy(home, ids, by=CLI)
    sys.exit("the apply finished: it should have died after its first rename")
    """
)


def test_a_process_killed_after_its_first_rename_left_the_archive_whole_and_the_next_writer_completes_it(
    home: Path,
) -> None:
    planted(home)
    original = {name: (home / name).read_text() for name in ("MEMORY.md", "USER.md")}
    proposal = tidy(home)
    want = planned(home, proposal)
    child = subprocess.run([sys.executable, "-c", DIES_AFTER_FIRST_RENAME, str(home)], capture_output=True, text=True)
    assert child.returncode == 9, child.stderr
    for line in moved_raws(proposal):
        if not line.startswith("###"):
            assert line in (home / ARCHIVE).read_text()  # the archive landed first, whole
    assert {name: (home / name).read_text() for name in original} == original  # the sources not yet
    assert memory_tool(home).call({"action": "add", "text": "the next write"}).output.startswith("ok")
    assert (home / "MEMORY.md").read_text() == want["MEMORY.md"] + "- the next write\n"
    assert (home / "USER.md").read_text() == want["USER.md"]
    assert check(home) == []
    tidied = [json.loads(line) for line in (home / LOG_PATH).read_text().splitlines()[1:]]
    assert [r["file"] for r in tidied if r["action"] == "tidy"] == [ARCHIVE, "MEMORY.md", "USER.md"]


def test_an_apply_after_a_killed_one_proposes_nothing_it_already_did(home: Path) -> None:
    planted(home)
    torn(home, landed=2)
    assert apply_tidy(home, ["0000"], by=CLI).is_error  # its lock settles the kill first, then refuses the id
    assert tidy(home).hunks == ()


APPLY_AND_UNDO_FOREVER = textwrap.dedent(
    """
    import sys
    from pathlib import Path
    from notebook_app.core.history.undo_group import undo
    from notebook_app.core.record.log.actor import CLI
    from notebook_app.core.tidy.apply import apply_tidy
    from notebook_app.core.tidy.propose import tidy
    from notebook_app.core.history.undo_group import undo
    from notebook_app.core.record.log.actor import CLI
    from notebook_app.core.tidy.apply import apply_tidy
    from notebook_app.core.tidy.propose import tidy

    home = Path(sys.argv[1])
    print("ready", flush=True)
    last = None
    while True:
        if last is None:
            result = apply_tidy(home, [h.id for h in tidy(home).hunks], by=CLI)
        else:
            result = undo(home, last, by=CLI)
        assert not result.is_error, result.output
        last = result.record
        print("done", flush=True)
    """
)


@pytest.mark.parametrize("trial", range(12))
def test_a_sigkill_at_any_moment_of_applies_and_undos_loses_no_entry_and_the_history_agrees(
    home: Path, trial: int
) -> None:
    planted(home)
    lines = {line for name in ("MEMORY.md", "USER.md") for line in (home / name).read_text().splitlines()}
    entries = {line for line in lines if line.startswith("- ")}
    child = subprocess.Popen(
        [sys.executable, "-c", APPLY_AND_UNDO_FOREVER, str(home)],
        stdout=subprocess.PIPE,
        text=True,
        env={**os.environ, "PYTHONUNBUFFERED": "1"},
    )
    assert child.stdout is not None and child.stdout.readline() == "ready\n"
    time.sleep(random.Random(trial).uniform(0.05, 0.8))
    os.kill(child.pid, signal.SIGKILL)
    finished = child.stdout.read().count("done\n")
    child.wait(timeout=30)
    memory_tool(home).call({"action": "remove", "text": "a call that settles what was in flight"})
    assert read_intent(home) is None
    everything = "".join(entries_in(home, n).replace("\n§\n", "\n") for n in ("MEMORY.md", "USER.md", ARCHIVE))
    assert entries <= set(everything.splitlines()), "every entry is in at least one file"
    assert check(home) == []
    groups = {e.extra.get("group") for e in history(home) if e.is_write and e.action != "outside"}
    assert finished <= len(groups) <= finished + 1, "every finished apply or undo is recorded, at most one more"
    assert not [p for d in (home, home / "memory") if d.exists() for p in d.iterdir() if is_temp_file(p.name)]


def test_a_failure_after_the_archive_landed_says_so_and_the_next_write_completes_the_group(
    home: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    import errno

    from notebook_app.core.record import group

    planted(home)
    proposal = tidy(home)
    want = planned(home, proposal)
    real = os.replace
    calls: list[str] = []

    def failing(src: object, dst: object) -> None:
        calls.append(str(dst))
        if len(calls) == 2:
            raise OSError(errno.EIO, "I/O error")
        real(src, dst)

    monkeypatch.setattr(group.os, "replace", failing)
    result = apply_tidy(home, [h.id for h in proposal.hunks], by=CLI)
    monkeypatch.setattr(group.os, "replace", real)
    assert result.is_error and "cut short" in result.output
    assert "the next write to this home completes it" in result.output
    assert (home / ARCHIVE).exists() and read_intent(home).kind == "group"
    memory_tool(home).call({"action": "remove", "text": "a call that settles what was in flight"})
    assert {name: (home / name).read_text() for name in want} == want
    assert check(home) == [] and [e.action for e in history(home)].count("tidy") == 3


ADDS = textwrap.dedent(
    """
    import sys
    from notebook_app.core.memory.tool import memory_tool
    from notebook_app.core.memory.tool import memory_tool
    from notebook_app.core.record.log.actor import Actor

    tool = memory_tool(sys.argv[1], by=Actor.mcp("20261206-020202-0badc0de", "busy-agent", "1"))
    print("ready", flush=True)
    for i in range(60):
        assert not tool.call({"action": "add", "text": f"agent entry {i}"}).is_error
    """
)


def test_an_apply_while_an_agent_process_adds_loses_none_of_its_entries(home: Path) -> None:
    planted(home)
    agent = subprocess.Popen([sys.executable, "-c", ADDS, str(home)], stdout=subprocess.PIPE, text=True)
    assert agent.stdout is not None and agent.stdout.readline() == "ready\n"
    applied = 0
    while agent.poll() is None or applied == 0:
        hunks = tidy(home).hunks
        if hunks:
            result = apply_tidy(home, [h.id for h in hunks], by=CLI)
            applied += not result.is_error  # a hunk the agent made stale meanwhile is refused: never a lost line
    assert agent.wait(timeout=60) == 0
    text = (home / "MEMORY.md").read_text() + entries_in(home, ARCHIVE)  # near duplicates ("entry 1", "entry 10") move
    assert [i for i in range(60) if f"- agent entry {i}\n" not in text] == []
    assert applied >= 1 and check(home) == []


SIGKILLED_AFTER_FIRST_RENAME = DIES_AFTER_FIRST_RENAME.replace(
    "os._exit(9)  # dead right after the first file of the group landed",
    "os.kill(os.getpid(), signal.SIGKILL)  # killed right after the first file of the group landed",
).replace("import os, sys", "import os, signal, sys")


def test_a_sigkill_after_the_archive_landed_with_no_history_to_keep_doubles_no_entry(
    home: Path, tmp_path: Path
) -> None:
    """Issue 34, data 5: with ``.notebook`` a link the group's intent is kept in the journal all the same."""
    planted(home)
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    os.symlink(elsewhere, home / ".notebook")  # the history cannot be kept: writes go ahead "not recorded"
    original = {name: (home / name).read_text() for name in ("MEMORY.md", "USER.md")}
    proposal = tidy(home)
    want = planned(home, proposal)
    moved = [line for line in moved_raws(proposal) if not line.startswith("###")]
    child = subprocess.run([sys.executable, "-c", SIGKILLED_AFTER_FIRST_RENAME, str(home)], capture_output=True)
    assert child.returncode == -signal.SIGKILL, child.stderr
    assert all(line in (home / ARCHIVE).read_text() for line in moved)  # the archive landed, whole
    assert {name: (home / name).read_text() for name in original} == original  # the sources not yet
    assert read_intent(home) is not None and read_intent(home).kind == "group"
    assert memory_tool(home).call({"action": "add", "text": "the next write"}).output.startswith("ok")
    assert read_intent(home) is None
    assert (home / "MEMORY.md").read_text() == want["MEMORY.md"] + "- the next write\n"
    assert (home / "USER.md").read_text() == want["USER.md"]
    sources = (home / "MEMORY.md").read_text() + (home / "USER.md").read_text()
    assert [line for line in moved if line in sources] == [], "a moved entry is in one file, never two"
    assert not [p for d in (home, home / "memory") for p in d.iterdir() if is_temp_file(p.name)]
    assert list(elsewhere.iterdir()) == []  # nothing was written where the link points


SIGKILLED_ONCE_THE_RECORDS_ARE_IN_THE_LOG = textwrap.dedent(
    """
    import os, signal, sys
    from pathlib import Path
    from notebook_app.core.record.log.actor import CLI
    from notebook_app.core.record.log.store import LogWriter
    from notebook_app.core.tidy.apply import apply_tidy
    from notebook_app.core.tidy.propose import tidy
    from notebook_app.core.tidy.apply import apply_tidy
    from notebook_app.core.tidy.propose import tidy

    home = Path(sys.argv[1])
    ids = [h.id for h in tidy(home).hunks]
    real_append = LogWriter.append

    def append(self, data):
        offset = real_append(self, data)
        if b'"action":"tidy"' in data:
            os.kill(os.getpid(), signal.SIGKILL)  # killed the moment the group's records are in the log
        return offset

    LogWriter.append = append
    apply_tidy(home, ids, by=CLI)
    sys.exit("the apply finished: it should have been killed once its records were written")
    """
)


def test_a_sigkill_once_a_groups_records_are_in_the_log_finds_the_group_named_and_completes_it(home: Path) -> None:
    """Issue 34, guard: the journal names the group before its records reach the log (as for adds and rewrites)."""
    planted(home)
    memory_tool(home).call({"action": "add", "text": "a first recorded write"})
    proposal = tidy(home)
    want = planned(home, proposal)
    child = subprocess.run(
        [sys.executable, "-c", SIGKILLED_ONCE_THE_RECORDS_ARE_IN_THE_LOG, str(home)], capture_output=True
    )
    assert child.returncode == -signal.SIGKILL, child.stderr
    assert '"action":"tidy"' in (home / LOG_PATH).read_text()
    assert read_intent(home) is not None and read_intent(home).kind == "group"  # named before its records
    memory_tool(home).call({"action": "remove", "text": "a call that settles what was in flight"})
    assert read_intent(home) is None
    assert {name: (home / name).read_text() for name in want} == want  # completed whole from its temp files
    assert check(home) == []
    assert [e.action for e in history(home)].count("tidy") == 3
