"""A Claude Code topic file edited whole (issue 22, item 4): written as a bootstrap file's hand edit is, guarded by
its base, journalled, recorded and undone; every other file beyond the seven still refused in words."""

from __future__ import annotations

import os
import random
import signal
import subprocess
import sys
import textwrap
import time
from dataclasses import replace
from pathlib import Path

import pytest

from notebook_app.core.history.query import check, history
from notebook_app.core.history.undo_restore import undo
from notebook_app.core.home.layout import FLAT, claude_code_files, openclaw_files
from notebook_app.core.home.reading import JOURNAL_NAME
from notebook_app.core.home.refusals import Rejection
from notebook_app.core.hosts.claude_code.home import memory_dir
from notebook_app.core.hosts.opening.choose import open_home
from notebook_app.core.hosts.opening.result import Opening
from notebook_app.core.memory.edits.editor_copy import edit_with_editor
from notebook_app.core.memory.edits.hand_edit import read_for_edit, text_digest, write_file
from notebook_app.core.memory.tool import memory_tool
from notebook_app.core.record.journal import TOPIC_SLOT
from notebook_app.core.record.log.actor import NOTEBOOK
from notebook_app.core.record.log.store import LOG_PATH

OLD = "# Debugging\n\nRun the failing test with -x first.\n"
NEW = "# Debugging\n\nRun the failing test with -x first.\nThen read the log.\n"


def tree(root: Path) -> dict[str, bytes | None]:
    return {str(p.relative_to(root)): (p.read_bytes() if p.is_file() else None) for p in sorted(root.rglob("*"))}


def slot(home: Path, offset: int) -> bytes:
    return (home / JOURNAL_NAME).read_bytes()[offset : offset + 128].strip()


@pytest.fixture
def project(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> tuple[Path, Path, Opening]:
    """A Claude Code project (CLAUDE.md), the user's ~/.claude, and its memory folder with a topic file."""
    monkeypatch.setenv("XDG_STATE_HOME", str(tmp_path / "state"))
    user, root = tmp_path / "user", tmp_path / "proj"
    root.mkdir()
    (user / ".claude").mkdir(parents=True)
    (root / "CLAUDE.md").write_text("# Project\n\nUse make test.\n")
    memory = memory_dir(root, {"HOME": str(user)})
    memory.mkdir(parents=True)
    (memory / "MEMORY.md").write_text("- likes tabs\n")
    (memory / "debugging.md").write_text(OLD)
    found = open_home(root, env={"HOME": str(user)}, state=tmp_path / "state")
    assert isinstance(found, Opening), found
    assert found.files.host == "claude-code"
    return root, user, found


def edit(found: Opening, text: str, base: str, name: str = "debugging.md"):
    return write_file(
        found.entry_home, name, text, base_text=base, base_digest=text_digest(base), by=NOTEBOOK, files=found.files
    )


def test_a_topic_file_is_edited_whole_recorded_and_undone_back_to_its_old_bytes(project) -> None:
    root, user, found = project
    home = found.entry_home
    before = tree(root)
    base = read_for_edit(home, "debugging.md", files=found.files)
    assert base == OLD
    saved = edit(found, NEW, base)
    assert (saved.is_error, saved.output) == (False, "ok (hand edit → debugging.md); read on demand, never injected")
    assert (home / "debugging.md").read_text() == NEW
    record = history(home)[0]
    assert (record.action, record.file, record.by) == ("hand-edit", "debugging.md", NOTEBOOK)
    assert check(home) == []
    undone = undo(home, record.id, by=NOTEBOOK)
    assert not undone.is_error, undone.output
    assert (home / "debugging.md").read_bytes() == OLD.encode()
    assert [r.action for r in history(home)][:2] == ["undo", "hand-edit"]
    assert check(home) == []
    assert tree(root) == before  # nothing in the project's tree
    assert sorted(p.name for p in home.iterdir()) == [".memory.journal", ".notebook", "MEMORY.md", "debugging.md"]


def test_a_topic_edit_merges_with_a_change_made_since_and_a_conflict_writes_nothing(project) -> None:
    _, _, found = project
    home = found.entry_home
    (home / "debugging.md").write_text("# Debugging by Claude\n\nRun the failing test with -x first.\n")
    merged = edit(found, NEW, OLD)
    assert merged.output.startswith("ok (hand edit, merged with 1 line written since → debugging.md)")
    assert (home / "debugging.md").read_text() == "# Debugging by Claude\n\nRun the failing test with -x first.\n" + (
        "Then read the log.\n"
    )
    assert [r.action for r in history(home)] == ["merge"]  # its first record: what Claude Code left is its base
    now = (home / "debugging.md").read_bytes()
    conflict = edit(found, "# Debugging by me\n", OLD)
    assert conflict.is_error and conflict.conflicts and conflict.output.endswith("nothing was written")
    assert (home / "debugging.md").read_bytes() == now
    assert check(home) == []


def test_a_topic_file_is_never_created_nor_recreated_once_removed(project) -> None:
    _, _, found = project
    home = found.entry_home
    absent = read_for_edit(home, "patterns.md", files=found.files)
    assert isinstance(absent, Rejection) and absent.message.startswith("patterns.md is not there: the notebook edits")
    made = edit(found, "- new\n", "", name="patterns.md")
    assert made.is_error and "never makes one" in made.output
    (home / "debugging.md").unlink()
    gone = edit(found, NEW, OLD)
    assert gone.is_error and gone.output.endswith("it was removed since you opened it; nothing was written")
    assert sorted(p.name for p in home.iterdir() if not p.name.startswith(".")) == ["MEMORY.md"]


@pytest.mark.parametrize(
    ("name", "said"),
    [
        ("../debugging.md", "not a bootstrap file: '../debugging.md'"),
        ("sub/debugging.md", "not a bootstrap file: 'sub/debugging.md'"),
        (".hidden.md", ".hidden.md: the notebook edits a topic file whose name starts with an ASCII letter"),
        ("débogage.md", "débogage.md: the notebook edits a topic file whose name starts with an ASCII letter"),
        ("notes.txt", "not a bootstrap file: 'notes.txt'"),
        ("CLAUDE.md", "CLAUDE.md is Claude Code's project instructions, read-only here"),
    ],
)
def test_a_name_that_is_no_topic_file_is_refused_in_words_and_nothing_is_written(project, name, said) -> None:
    root, user, found = project
    home = found.entry_home
    (home / "sub").mkdir()
    (home / "sub" / "debugging.md").write_text(OLD)
    (home / "débogage.md").write_text(OLD)
    (home / ".hidden.md").write_text(OLD)
    (home / "notes.txt").write_text(OLD)
    before = (tree(root), tree(user))
    saved = edit(found, NEW, OLD, name=name)
    assert saved.is_error and saved.output.startswith(said), saved.output
    ran: list[Path] = []
    outside = edit_with_editor(home, name, ran.append, edits_dir=root.parent / "edits", by=NOTEBOOK, files=found.files)
    assert ran == [] and outside.is_error and outside.kept is None
    assert (tree(root), tree(user)) == before


def test_a_topic_file_that_is_a_link_or_a_fifo_is_refused_as_the_tool_refuses_it(project, tmp_path: Path) -> None:
    _, _, found = project
    home = found.entry_home
    (tmp_path / "elsewhere.md").write_text(OLD)
    (home / "linked.md").symlink_to(tmp_path / "elsewhere.md")
    os.mkfifo(home / "pipe.md")
    for name in ("linked.md", "pipe.md"):
        assert isinstance(read_for_edit(home, name, files=found.files), Rejection)
        assert edit(found, NEW, OLD, name=name).is_error
    assert (tmp_path / "elsewhere.md").read_text() == OLD


def test_an_openclaw_daily_note_stays_refused_in_words(tmp_path: Path) -> None:
    (tmp_path / "memory").mkdir()
    (tmp_path / "memory" / "2026-12-01.md").write_text("- met Ann\n")
    files = openclaw_files(("AGENTS.md", "SOUL.md", "MEMORY.md"))
    refused = read_for_edit(tmp_path, "memory/2026-12-01.md", files=files)
    assert isinstance(refused, Rejection)
    assert refused.message.startswith("memory/2026-12-01.md is a note openclaw's agent reads on demand")
    assert refused.message.endswith("nothing was opened")
    note = write_file(
        tmp_path, "memory/2026-12-01.md", "x\n", base_text="- met Ann\n", base_digest=text_digest("- met Ann\n"),
        by=NOTEBOOK, files=files,
    )  # fmt: skip
    assert note.is_error and note.output.endswith("nothing was written")
    assert (tmp_path / "memory" / "2026-12-01.md").read_text() == "- met Ann\n"


def test_a_topic_name_is_refused_where_the_host_is_not_claude_code(tmp_path: Path) -> None:
    (tmp_path / "debugging.md").write_text(OLD)
    as_other = replace(claude_code_files(), host="openclaw")  # the same map, another host: still refused
    for files in (openclaw_files(("MEMORY.md",)), as_other, FLAT):
        saved = write_file(
            tmp_path, "debugging.md", NEW, base_text=OLD, base_digest=text_digest(OLD), by=NOTEBOOK, files=files
        )
        assert saved.is_error
    assert (tmp_path / "debugging.md").read_text() == OLD
    assert not (tmp_path / ".notebook").exists()


# --- a writer killed mid-write ----------------------------------------------------------------------------------

KILLED = textwrap.dedent(
    """
    import os, signal, sys
    from notebook_app.core.memory.edits.hand_edit import text_digest, write_file
    from notebook_app.core.home.layout import claude_code_files
    from notebook_app.core.record.log.actor import NOTEBOOK

    home, when = sys.argv[1], sys.argv[2]
    real = os.replace

    def replace(src, dst, *args, **kwargs):
        if str(dst).endswith("debugging.md"):
            if when == "after":
                real(src, dst, *args, **kwargs)
            os.kill(os.getpid(), signal.SIGKILL)  # the writer dies at its rename, before or after it
        return real(src, dst, *args, **kwargs)

    os.replace = replace
    old = open(os.path.join(home, "debugging.md"), encoding="utf-8").read()
    write_file(home, "debugging.md", old + "killed\\n", base_text=old, base_digest=text_digest(old), by=NOTEBOOK,
               files=claude_code_files())
    """
)


def killed_at_rename(home: Path, when: str) -> None:
    done = subprocess.run([sys.executable, "-c", KILLED, str(home), when], check=False)
    assert done.returncode == -signal.SIGKILL


@pytest.mark.parametrize("when", ["before", "after"])
def test_a_topic_edit_killed_at_its_rename_is_settled_whole_by_the_next_writer(project, when: str) -> None:
    _, _, found = project
    home = found.entry_home
    assert not edit(found, NEW, OLD).is_error
    log_before = (home / LOG_PATH).stat().st_size
    killed_at_rename(home, when)
    assert slot(home, 0).startswith(b"rewrite debugging.md ")  # the write in flight, named
    assert slot(home, TOPIC_SLOT) == b""  # cleared before the intent: see the next test
    assert (home / LOG_PATH).stat().st_size > log_before  # its record is in the log
    memory_tool(home, by=NOTEBOOK).call({"action": "add", "text": "next"})  # the next writer, of another file
    assert slot(home, 0) == b""
    assert (home / "debugging.md").read_text() == (NEW + "killed\n" if when == "after" else NEW)
    kept = [r.action for r in history(home) if r.file == "debugging.md"]
    assert kept == (["hand-edit", "hand-edit"] if when == "after" else ["hand-edit"])
    assert not [p for p in home.iterdir() if p.name.endswith(".tmp")]
    assert check(home) == []


def test_a_kill_the_previous_release_left_unsettled_is_recorded_as_an_outside_change(project) -> None:
    """A release before the topic slot reads ``rewrite debugging.md …`` as no write in flight: its next write
    clears slot 0 and leaves the killed write's record in the log. The next edit here still agrees with the file."""
    _, _, found = project
    home = found.entry_home
    assert not edit(found, NEW, OLD).is_error
    killed_at_rename(home, "before")  # the record says "killed" was added; the file never got it
    with open(home / JOURNAL_NAME, "r+b") as journal:  # what the previous release's next write leaves in slot 0
        journal.write(b" " * 128)
    saved = edit(found, NEW + "mine\n", NEW)
    assert not saved.is_error, saved.output
    assert (home / "debugging.md").read_text() == NEW + "mine\n"
    assert check(home) == []  # the phantom record is followed by the outside change that undoes it
    assert [r.action for r in history(home) if r.file == "debugging.md"][:2] == ["hand-edit", "outside"]


MIXED = textwrap.dedent(
    """
    import random, sys
    from notebook_app.core.memory.tool import memory_tool
    from notebook_app.core.memory.edits.hand_edit import text_digest, write_file
    from notebook_app.core.history.query import history
    from notebook_app.core.history.undo_restore import undo
    from notebook_app.core.home.layout import claude_code_files
    from notebook_app.core.record.log.actor import NOTEBOOK

    home, files = sys.argv[1], claude_code_files()
    pick = random.Random(int(sys.argv[2]))
    tool = memory_tool(home, files=files)
    print("ready", flush=True)
    i = 0
    while True:
        i += 1
        kind = pick.choice(["add", "topic", "topic", "other", "undo"])
        if kind == "add":
            ok = not tool.call({"action": "add", "text": f"entry {i}"}).is_error
        elif kind == "undo":
            records = [r for r in history(home, limit=4) if r.is_write]
            ok = bool(records) and undo(home, pick.choice(records).id, by=NOTEBOOK).record is not None
        else:
            name = "debugging.md" if kind == "topic" else "patterns.md"
            old = open(f"{home}/{name}", encoding="utf-8").read()
            new = old + f"line {i} " + "x" * pick.choice([10, 5000]) + "\\n"
            saved = write_file(home, name, new, base_text=old, base_digest=text_digest(old), by=NOTEBOOK, files=files)
            ok = saved.applied is not None
        if ok:
            print("done", flush=True)
    """
)


@pytest.mark.parametrize("trial", range(24))
def test_a_sigkill_amid_topic_edits_adds_and_undos_leaves_every_file_agreeing_with_its_history(
    project, trial: int
) -> None:
    _, _, found = project
    home = found.entry_home
    (home / "patterns.md").write_text("# Patterns\n")
    child = subprocess.Popen(
        [sys.executable, "-c", MIXED, str(home), str(trial)],
        stdout=subprocess.PIPE,
        text=True,
        env={**os.environ, "PYTHONUNBUFFERED": "1"},
    )
    assert child.stdout is not None and child.stdout.readline() == "ready\n"
    time.sleep(random.Random(trial).uniform(0.05, 0.6))
    os.kill(child.pid, signal.SIGKILL)
    finished = child.stdout.read().count("done\n")
    child.wait(timeout=30)
    memory_tool(home, files=found.files).call({"action": "remove", "text": "a call that settles what was in flight"})
    assert slot(home, 0) == b""
    for name in ("MEMORY.md", "debugging.md", "patterns.md"):
        (home / name).read_bytes().decode("utf-8")
    assert check(home) == []
    writes = [r for r in history(home) if r.is_write and r.action != "outside"]
    assert finished <= len(writes) <= finished + 1, "every finished write is recorded, and at most the one in flight"
    assert not [p for p in home.iterdir() if p.name.endswith(".tmp")]
