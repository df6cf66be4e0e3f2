"""Human writes to a Hermes ``§`` store keep its dialect, under Hermes's own lock, and never leave the home.

The bytes are compared with Hermes's own ``MemoryStore`` in
``tests/hosts/test_hermes_ops_goldens.py``; here the write path itself: real
files, real processes for the lock and for a writer killed half-way.
"""

from __future__ import annotations

import os
import subprocess
import sys
import textwrap
import time
from pathlib import Path

import pytest

from notebook_app.core.home.layout import FLAT, hermes_files
from notebook_app.core.memory import sections
from notebook_app.core.memory.tool import DESCRIPTION, INPUT_SCHEMA, WHOLE_ENTRY_SENTENCE, MemoryTool, memory_tool
from notebook_app.core.record.log.actor import CLI, LIBRARY


def hermes_home(tmp_path: Path, memory: str | None = "A\n§\nB") -> Path:
    home = tmp_path / "hermes"
    (home / "memories").mkdir(parents=True)
    (home / "SOUL.md").write_text("You are Hermes.\n")
    if memory is not None:
        (home / "memories" / "MEMORY.md").write_text(memory)
    return home


def call(home: Path, files=None, **args: str):  # type: ignore[no-untyped-def]
    return MemoryTool(home, by=CLI, files=files or hermes_files()).call(args)


def test_an_add_to_a_section_store_with_no_host_known_is_a_new_entry_not_glued_into_the_last(tmp_path: Path) -> None:
    """The issue's data loss: ``memory add C`` on ``A\\n§\\nB`` gave ``A\\n§\\nB\\n- C\\n`` (one entry ``B\\n- C``)."""
    home = tmp_path / "flat"
    home.mkdir()
    (home / "MEMORY.md").write_text("A\n§\nB")
    result = memory_tool(home, by=CLI).call({"action": "add", "text": "C"})
    assert not result.is_error, result.output
    assert (home / "MEMORY.md").read_text() == "A\n§\nB\n§\nC"
    assert sections.entries((home / "MEMORY.md").read_text()) == ["A", "B", "C"]


def test_a_hermes_home_is_written_in_memories_with_the_bytes_hermes_writes(tmp_path: Path) -> None:
    home = hermes_home(tmp_path)
    assert not call(home, action="add", text="C").is_error
    assert not call(home, action="add", text="a note\nthat spans lines", target="user").is_error
    assert (home / "memories" / "MEMORY.md").read_text() == "A\n§\nB\n§\nC"
    assert (home / "memories" / "USER.md").read_text() == "a note\nthat spans lines"
    assert not (home / "MEMORY.md").exists() and not (home / "USER.md").exists()
    replaced = call(home, action="replace", text="B", **{"with": "B, reworded"})
    assert replaced.output.startswith(
        "ok (replace → MEMORY.md); replaced the whole entry that holds 'B' (B) with: B, reworded; "
        "loads next session (Entry replaced."
    )
    assert not call(home, action="remove", text="A").is_error
    assert (home / "memories" / "MEMORY.md").read_text() == "B, reworded\n§\nC"


def test_an_add_to_a_clean_store_is_an_append_and_keeps_the_file_inode(tmp_path: Path) -> None:
    home = hermes_home(tmp_path)
    before = (home / "memories" / "MEMORY.md").stat().st_ino
    assert not call(home, action="add", text="C").is_error
    assert (home / "memories" / "MEMORY.md").stat().st_ino == before  # appended, not renamed over


@pytest.mark.parametrize(
    ("args", "words"),
    [
        ({"action": "add", "text": "B"}, "Entry already exists"),
        ({"action": "add", "text": "x\n§\ny"}, "Hermes's entry separator"),
        ({"action": "add", "text": "x" * 2200}, "would exceed the limit"),
        ({"action": "replace", "text": "nowhere", "with": "z"}, "No entry matched 'nowhere'"),
        ({"action": "replace", "text": "B", "with": ""}, "new_content cannot be empty"),
    ],
)
def test_a_write_hermes_would_refuse_or_that_would_split_an_entry_changes_nothing(
    tmp_path: Path, args: dict[str, str], words: str
) -> None:
    home = hermes_home(tmp_path)
    result = call(home, **args)
    assert result.is_error and words in result.output
    assert (home / "memories" / "MEMORY.md").read_text() == "A\n§\nB"
    assert not (home / ".notebook").exists()


def test_a_store_that_does_not_round_trip_is_never_rewritten(tmp_path: Path) -> None:
    """Hermes's own add would rewrite ``A\\n§\\n\\n§\\nB`` whole; we refuse with its reason and touch nothing."""
    home = hermes_home(tmp_path, "A\n§\n\n§\nB\n")
    result = call(home, action="add", text="C")
    assert result.is_error and "does not round-trip" in result.output
    assert (home / "memories" / "MEMORY.md").read_text() == "A\n§\n\n§\nB\n"


def test_a_file_that_mixes_both_dialects_is_refused_when_no_host_says_which(tmp_path: Path) -> None:
    home = tmp_path / "mixed"
    home.mkdir()
    (home / "MEMORY.md").write_text("- one\n§\ntwo\n")
    result = memory_tool(home, by=CLI).call({"action": "add", "text": "three"})
    assert result.is_error and "--host" in result.output
    assert (home / "MEMORY.md").read_text() == "- one\n§\ntwo\n"


def test_the_agents_own_tool_writes_a_hermes_store_in_its_dialect(tmp_path: Path) -> None:
    """Spec §9 (issue 34, Decided): an agent on a Hermes home writes Hermes's '§' entries, never '- ' lines."""
    home = hermes_home(tmp_path)
    tool = MemoryTool(home, by=LIBRARY, files=hermes_files())
    result = tool.call({"action": "add", "text": "C"})
    assert not result.is_error, result.output
    assert (home / "memories" / "MEMORY.md").read_text() == "A\n§\nB\n§\nC"
    assert tool.input_schema is INPUT_SCHEMA and tool.description == f"{DESCRIPTION} {WHOLE_ENTRY_SENTENCE}"


def test_the_contract_is_unchanged_on_a_flat_home(tmp_path: Path) -> None:
    home = tmp_path / "flat"
    home.mkdir()
    assert not MemoryTool(home, by=CLI, files=FLAT).call({"action": "add", "text": "x"}).is_error
    assert (home / "MEMORY.md").read_text() == "- x\n"


def test_a_memories_folder_that_is_a_link_is_never_written_through(tmp_path: Path) -> None:
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    home = tmp_path / "hermes"
    home.mkdir()
    (home / "memories").symlink_to(elsewhere)
    result = call(home, action="add", text="C")
    assert result.is_error and "symbolic link" in result.output
    assert list(elsewhere.iterdir()) == []


def test_a_missing_memories_folder_is_made_as_hermes_makes_it_and_removed_if_the_write_fails(tmp_path: Path) -> None:
    home = tmp_path / "hermes"
    home.mkdir()
    assert not call(home, action="add", text="first").is_error
    assert (home / "memories" / "MEMORY.md").read_text() == "first"
    other = tmp_path / "other"
    other.mkdir()
    failed = call(other, action="replace", text="nothing", **{"with": "x"})
    assert failed.is_error
    assert not (other / "memories").exists()


HOLD_HERMES_LOCK = textwrap.dedent(
    """
    import fcntl, sys, time
    with open(sys.argv[1], "a+") as lock:          # what MemoryStore._file_lock does
        fcntl.flock(lock, fcntl.LOCK_EX)
        print("held", flush=True)
        time.sleep(float(sys.argv[2]))
    """
)


def test_our_write_waits_for_a_hermes_process_holding_its_lock(tmp_path: Path) -> None:
    home = hermes_home(tmp_path)
    lock = home / "memories" / "MEMORY.md.lock"
    holder = subprocess.Popen([sys.executable, "-c", HOLD_HERMES_LOCK, str(lock), "1.0"], stdout=subprocess.PIPE)
    assert holder.stdout is not None and holder.stdout.readline().strip() == b"held"
    started = time.monotonic()
    result = call(home, action="add", text="C")
    waited = time.monotonic() - started
    holder.wait(timeout=10)
    assert not result.is_error
    assert waited >= 0.5, f"the write went ahead after {waited:.2f} s while Hermes held its lock"
    assert (home / "memories" / "MEMORY.md").read_text() == "A\n§\nB\n§\nC"


def test_a_flat_home_takes_no_hermes_lock_and_makes_no_lock_file(tmp_path: Path) -> None:
    home = tmp_path / "flat"
    home.mkdir()
    (home / "MEMORY.md").write_text("A\n§\nB")
    assert not memory_tool(home, by=CLI).call({"action": "add", "text": "C"}).is_error
    assert not any(name.endswith(".lock") for name in os.listdir(home))


ADDER = textwrap.dedent(
    """
    import os, sys, time
    from notebook_app.core.home.layout import hermes_files
    from notebook_app.core.record.log.actor import CLI
    from notebook_app.core.memory.tool import MemoryTool
    home, go, worker = sys.argv[1], sys.argv[2], int(sys.argv[3])
    tool = MemoryTool(home, by=CLI, files=hermes_files(memory_limit=100_000))
    while not os.path.exists(go):
        time.sleep(0.001)
    for i in range(40):
        result = tool.call({"action": "add", "text": f"worker {worker} entry {i}"})
        if result.is_error:
            sys.exit(result.output)
    """
)


def test_four_processes_adding_to_one_store_lose_nothing_and_never_mix_dialects(tmp_path: Path) -> None:
    home = hermes_home(tmp_path, None)
    go = tmp_path / "go"
    procs = [subprocess.Popen([sys.executable, "-c", ADDER, str(home), str(go), str(w)]) for w in range(4)]
    go.touch()
    assert [p.wait(timeout=120) for p in procs] == [0] * 4
    text = (home / "memories" / "MEMORY.md").read_text()
    found = sections.entries(text)
    assert sorted(found) == sorted(f"worker {w} entry {i}" for w in range(4) for i in range(40))
    assert text == sections.joined(found)  # round-trips: exactly what Hermes would have written


def test_an_entry_delete_or_edit_in_a_store_addresses_the_nth_entry_as_hermes_parses_it(tmp_path: Path) -> None:
    from notebook_app.core.memory.edits.guarded_splice import delete_entry, edit_entry

    home = hermes_home(tmp_path, "one\n§\ntwo\nspans lines\n§\nthree")
    store = home / "memories" / "MEMORY.md"
    edited = edit_entry(home, "MEMORY.md", 2, "two\nspans lines", "two, now one line", by=CLI, files=hermes_files())
    assert edited.output.startswith("ok (edit entry 2 → MEMORY.md)"), edited.output
    assert store.read_text() == "one\n§\ntwo, now one line\n§\nthree"
    stale = delete_entry(home, "MEMORY.md", 2, "two\nspans lines", by=CLI, files=hermes_files())
    assert stale.is_error and "changed since you selected it" in stale.output
    assert not delete_entry(home, "MEMORY.md", 1, "one", by=CLI, files=hermes_files()).is_error
    assert store.read_text() == "two, now one line\n§\nthree"
    assert sections.entries(store.read_text()) == ["two, now one line", "three"]


def test_an_entry_edit_that_would_split_or_duplicate_an_entry_changes_nothing(tmp_path: Path) -> None:
    from notebook_app.core.memory.edits.guarded_splice import edit_entry

    home = hermes_home(tmp_path)
    for new in ("x\n§\ny", "A", ""):
        result = edit_entry(home, "MEMORY.md", 2, "B", new, by=CLI, files=hermes_files())
        assert result.is_error, new
    assert (home / "memories" / "MEMORY.md").read_text() == "A\n§\nB"


def test_an_entry_edit_on_a_store_found_by_its_content_keeps_the_store_whole(tmp_path: Path) -> None:
    from notebook_app.core.memory.edits.guarded_splice import delete_entry

    home = tmp_path / "flat"
    home.mkdir()
    (home / "MEMORY.md").write_text("A\n§\nB\n§\nC")
    assert not delete_entry(home, "MEMORY.md", 2, "B", by=CLI).is_error
    assert (home / "MEMORY.md").read_text() == "A\n§\nC"


def test_a_crlf_store_found_by_its_content_gets_a_new_entry_not_a_dash_line(tmp_path: Path) -> None:
    """Hermes reads ``\\r\\n`` as ``\\n``: a CRLF store is still a § store when no host says so."""
    home = tmp_path / "flat"
    home.mkdir()
    (home / "MEMORY.md").write_bytes(b"A\r\n\xc2\xa7\r\nB\r\n")
    assert not memory_tool(home, by=CLI).call({"action": "add", "text": "C"}).is_error
    assert sections.entries((home / "MEMORY.md").read_text()) == ["A", "B", "C"]


def test_a_file_a_profile_marks_read_only_is_refused_by_every_write(tmp_path: Path) -> None:
    from dataclasses import replace

    from notebook_app.core.home.layout import host_files
    from notebook_app.core.memory.edits.guarded_splice import delete_entry

    home = tmp_path / "mine"
    home.mkdir()
    (home / "MEMORY.md").write_text("- kept\n")
    files = replace(host_files("mine"), read_only=frozenset({"MEMORY.md"}))
    added = MemoryTool(home, by=CLI, files=files).call({"action": "add", "text": "x"})
    removed = MemoryTool(home, by=CLI, files=files).call({"action": "remove", "text": "kept"})
    deleted = delete_entry(home, "MEMORY.md", 1, "- kept", by=CLI, files=files)
    for result in (added, removed, deleted):
        assert result.is_error and "read-only in a home opened as mine" in result.output
    assert (home / "MEMORY.md").read_text() == "- kept\n"
    assert not MemoryTool(home, by=CLI, files=files).call({"action": "add", "text": "y", "target": "user"}).is_error


def test_the_doctors_normalise_fix_waits_for_hermes_holding_its_lock(tmp_path: Path) -> None:
    from notebook_app.core.doctor.check import check_home
    from notebook_app.core.hosts.choice import resolve_host

    home = hermes_home(tmp_path, "A\n§\n\n§\nB\n")
    (drift,) = [
        f for f in check_home(home, host=resolve_host("hermes").profile).findings if f.rule == "hygiene.store-drift"
    ]
    assert drift.fix is not None
    lock = home / "memories" / "MEMORY.md.lock"
    holder = subprocess.Popen([sys.executable, "-c", HOLD_HERMES_LOCK, str(lock), "1.0"], stdout=subprocess.PIPE)
    assert holder.stdout is not None and holder.stdout.readline().strip() == b"held"
    started = time.monotonic()
    result = drift.fix.apply(home, by=CLI)
    waited = time.monotonic() - started
    holder.wait(timeout=10)
    assert not result.is_error, result.output
    assert waited >= 0.5, f"the fix wrote after {waited:.2f} s while Hermes held its lock"
    assert (home / "memories" / "MEMORY.md").read_text() == "A\n§\nB"


def test_with_no_host_known_a_store_takes_a_many_line_entry_and_a_dash_file_refuses_it(tmp_path: Path) -> None:
    home = tmp_path / "flat"
    home.mkdir()
    (home / "MEMORY.md").write_text("A\n§\nB")
    (home / "USER.md").write_text("- one\n")
    tool = memory_tool(home, by=CLI)
    assert not tool.call({"action": "add", "text": "two\nlines"}).is_error
    assert sections.entries((home / "MEMORY.md").read_text()) == ["A", "B", "two\nlines"]
    refused = tool.call({"action": "add", "text": "two\nlines", "target": "user"})
    assert refused.is_error and "line break" in refused.output
    assert (home / "USER.md").read_text() == "- one\n"


OUR_READY_ADDER = ADDER.replace(
    "while not os.path.exists(go):", "open(go + '.' + str(worker), 'w').close()\nwhile not os.path.exists(go):"
)
"""The adder of ours, saying it is ready (imports done) before it waits for the start."""

HERMES_LIKE_ADDER = textwrap.dedent(
    """
    import fcntl, os, sys, tempfile, time
    store, go, stop, worker = sys.argv[1], sys.argv[2], sys.argv[3], int(sys.argv[4])
    DELIMITER = "\\n§\\n"
    while not os.path.exists(go):
        time.sleep(0.001)
    i = 0
    while not os.path.exists(stop):  # adds until ours are done: the two sides overlap from start to end
        with open(store + ".lock", "a+", encoding="utf-8") as lock:  # MemoryStore._file_lock
            fcntl.flock(lock, fcntl.LOCK_EX)
            try:
                try:  # _reload_target: the store read again under the lock
                    with open(store, encoding="utf-8") as f:
                        raw = f.read()
                except FileNotFoundError:
                    raw = ""
                entries = list(dict.fromkeys(e.strip() for e in raw.split(DELIMITER) if e.strip()))
                entries.append(f"hermes {worker} entry {i}")
                fd, temp = tempfile.mkstemp(dir=os.path.dirname(store), prefix=".mem_", suffix=".tmp")
                with os.fdopen(fd, "w", encoding="utf-8") as f:  # _write_file: temp file, fsync, rename
                    f.write(DELIMITER.join(entries))
                    f.flush()
                    os.fsync(f.fileno())
                os.replace(temp, store)
            finally:
                fcntl.flock(lock, fcntl.LOCK_UN)
        i += 1
    print(i)
    """
)


def test_a_hermes_process_reading_and_renaming_under_its_lock_never_loses_our_entries(tmp_path: Path) -> None:
    """Hermes reads its store, writes a temp file and renames it over, all under ``MEMORY.md.lock``: an add of ours
    that landed between its read and its rename would be gone. Our writes hold that lock for the whole write,
    so every entry of both sides is there, once. (With the lock released as soon as it is taken, some of ours
    were lost: 10 of 150 in the run that found it.)"""
    home = hermes_home(tmp_path, "seed")
    store = home / "memories" / "MEMORY.md"
    go, stop = tmp_path / "go", tmp_path / "stop"
    ours = [subprocess.Popen([sys.executable, "-c", OUR_READY_ADDER, str(home), str(go), str(w)]) for w in range(2)]
    hermes = [
        subprocess.Popen(
            [sys.executable, "-c", HERMES_LIKE_ADDER, str(store), str(go), str(stop), str(w)], stdout=subprocess.PIPE
        )
        for w in range(2)
    ]
    while not all((tmp_path / f"go.{w}").exists() for w in range(2)):  # ours imported: both sides start together
        assert all(p.poll() is None for p in ours), "an adder of ours ended before it was ready"
        time.sleep(0.01)
    go.touch()
    assert [p.wait(timeout=180) for p in ours] == [0, 0]
    stop.touch()
    made = [int(p.communicate(timeout=60)[0]) for p in hermes]
    assert [p.returncode for p in hermes] == [0, 0]
    found = sections.entries(store.read_text())
    wanted = ["seed"] + [f"worker {w} entry {i}" for w in range(2) for i in range(40)]
    wanted += [f"hermes {w} entry {i}" for w in range(2) for i in range(made[w])]
    lost = sorted(set(wanted) - set(found))
    assert not lost, f"{len(lost)} of {len(wanted)} entries lost: {lost[:5]}"
    assert sorted(found) == sorted(wanted)  # each once


HERMES_REWRITES_UNDER_ITS_LOCK = textwrap.dedent(
    """
    import fcntl, os, sys, time
    store = sys.argv[1]
    with open(store + ".lock", "a+") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        print("held", flush=True)
        time.sleep(float(sys.argv[2]))  # Hermes between its read and its rename
        with open(store + ".tmp-hermes", "w") as f:
            f.write("written by Hermes under its lock")
        os.replace(store + ".tmp-hermes", store)
    """
)


@pytest.mark.parametrize("verb", ["restore", "undo"])
def test_an_undo_or_restore_of_a_hermes_store_waits_for_hermes_and_lands_after_it(tmp_path: Path, verb: str) -> None:
    """Without Hermes's lock, ours landed first and Hermes's rename then put back what it had read."""
    from notebook_app.core.history.query import history
    from notebook_app.core.history.undo_group import undo
    from notebook_app.core.history.undo_restore import restore

    home = hermes_home(tmp_path)
    assert not call(home, action="add", text="C").is_error
    (record,) = history(home, file="MEMORY.md", files=hermes_files())
    store = home / "memories" / "MEMORY.md"
    holder = subprocess.Popen(
        [sys.executable, "-c", HERMES_REWRITES_UNDER_ITS_LOCK, str(store), "1.0"], stdout=subprocess.PIPE
    )
    assert holder.stdout is not None and holder.stdout.readline().strip() == b"held"
    if verb == "restore":
        result = restore(home, "MEMORY.md", record.id, by=CLI, files=hermes_files())
    else:
        result = undo(home, record.id, by=CLI, files=hermes_files())
    assert holder.wait(timeout=10) == 0
    if verb == "restore":
        assert not result.is_error, result.output
        assert store.read_text() == "A\n§\nB\n§\nC"  # ours after Hermes's: the state the record left
    else:  # ours after Hermes's: the undo reads Hermes's store, which no longer holds what the record wrote
        assert result.is_error and "nothing was changed" in result.output, result.output
        assert store.read_text() == "written by Hermes under its lock"


HERMES_ADDS_UNDER_ITS_LOCK = textwrap.dedent(
    """
    import fcntl, os, sys, time
    store = sys.argv[1]
    with open(store + ".lock", "a+") as lock:  # MemoryStore.add: lock, read, write a temp file, rename
        fcntl.flock(lock, fcntl.LOCK_EX)
        with open(store) as f:
            raw = f.read()
        print("held", flush=True)
        time.sleep(float(sys.argv[2]))
        with open(store + ".tmp-hermes", "w") as f:
            f.write(raw + "\\n§\\nadded by Hermes")
        os.replace(store + ".tmp-hermes", store)
    """
)


@pytest.mark.parametrize("name", ["MEMORY.md", "USER.md"])
def test_tidy_applied_in_a_hermes_home_waits_for_hermes_on_each_store_it_writes(tmp_path: Path, name: str) -> None:
    """Tidy holds Hermes's own lock on each store it writes: it lands after Hermes's add, on the store Hermes
    left. Without it, Hermes's rename put back the exact copy tidy had taken out, and the tidy was lost."""
    from notebook_app.core.tidy.apply import apply_tidy
    from notebook_app.core.tidy.propose import tidy

    home = hermes_home(tmp_path, None)
    for each in ("MEMORY.md", "USER.md"):
        (home / "memories" / each).write_text("likes green tea\n§\nname: Ana\n§\nlikes green tea")
    files = hermes_files()
    hunks = [h.id for h in tidy(home, files).hunks if h.file == name]
    assert hunks
    store = home / "memories" / name
    holder = subprocess.Popen(
        [sys.executable, "-c", HERMES_ADDS_UNDER_ITS_LOCK, str(store), "1.0"], stdout=subprocess.PIPE
    )
    assert holder.stdout is not None and holder.stdout.readline().strip() == b"held"
    result = apply_tidy(home, hunks, files=files, by=CLI)
    assert holder.wait(timeout=10) == 0
    assert not result.is_error, result.output
    assert sections.entries(store.read_text()) == ["likes green tea", "name: Ana", "added by Hermes"]
