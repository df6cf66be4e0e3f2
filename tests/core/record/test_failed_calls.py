"""A call that fails leaves the home exactly as it was: no journal, no folder, no temp file."""

from __future__ import annotations

import errno
import os
from pathlib import Path

import pytest
from unprivileged import as_unprivileged, listing

from notebook_app.core.fs import atomic
from notebook_app.core.home.reading import JOURNAL_NAME, is_scratch_file
from notebook_app.core.home.soul import compose
from notebook_app.core.memory.tool import memory_tool
from notebook_app.core.record import storage


def call_tool(home: str, args: dict) -> list:
    res = memory_tool(home).call(args)
    return [res.output, res.is_error]


def test_failed_add_to_a_file_it_may_not_write_creates_nothing(open_home: Path) -> None:
    (open_home / "MEMORY.md").write_text("- a\n")  # root's, mode 0644: the unprivileged user only reads it
    before = listing(open_home)
    output, is_error = as_unprivileged(call_tool, str(open_home), {"action": "add", "text": "b"})
    assert is_error
    assert output == f"could not write memory (Permission denied: {open_home / 'MEMORY.md'}); nothing was changed"
    assert listing(open_home) == before
    assert not (open_home / JOURNAL_NAME).exists()


@pytest.mark.parametrize(("action", "args"), [("replace", {"with": "c"}), ("remove", {})])
def test_replace_or_remove_of_a_file_it_may_not_write_is_refused_like_an_add(
    open_home: Path, action: str, args: dict
) -> None:
    """Renaming a new file over it would bypass its mode: the rewrite is refused too."""
    path = open_home / "MEMORY.md"
    path.write_text("- a\n")
    before = listing(open_home)
    output, is_error = as_unprivileged(call_tool, str(open_home), {"action": action, "text": "a", **args})
    assert is_error
    assert output == f"could not write memory (Permission denied: {path}); nothing was changed"
    assert listing(open_home) == before
    assert path.stat().st_uid == os.geteuid()


def test_unreadable_memory_file_is_refused_in_words_and_nothing_is_created(open_home: Path) -> None:
    path = open_home / "MEMORY.md"
    path.write_text("- a\n")
    path.chmod(0o000)
    before = listing(open_home)
    for action in ("add", "replace", "remove"):
        output, is_error = as_unprivileged(call_tool, str(open_home), {"action": action, "text": "a", "with": "b"})
        assert (output, is_error) == ("MEMORY.md cannot be read (Permission denied); nothing was written", True)
    assert listing(open_home) == before


def fail_writes(monkeypatch: pytest.MonkeyPatch) -> None:
    def disk_full(fd: int, data: bytes) -> None:
        os.write(fd, bytes(data)[:3])  # part of it lands, then the disk is full
        raise OSError(errno.ENOSPC, os.strerror(errno.ENOSPC))

    monkeypatch.setattr(storage, "write_all", disk_full)


def test_failed_add_in_a_new_home_removes_the_folders_and_files_it_made(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    fail_writes(monkeypatch)
    res = memory_tool(tmp_path / "new" / "home").call({"action": "add", "text": "x"})
    assert res.is_error
    assert res.output == "could not write memory (No space left on device); nothing was changed"
    assert list(tmp_path.iterdir()) == []


def test_failed_append_takes_back_the_part_that_landed(home: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    (home / "MEMORY.md").write_text("- a\n")
    memory_tool(home).call({"action": "add", "text": "b"})  # the journal exists now
    before = listing(home)
    fail_writes(monkeypatch)
    assert memory_tool(home).call({"action": "add", "text": "c"}).is_error
    assert (home / "MEMORY.md").read_bytes() == b"- a\n- b\n"
    assert listing(home).keys() == before.keys()
    assert compose(home).file("MEMORY.md").body == "- a\n- b"  # type: ignore[union-attr]


def test_temp_file_of_a_rewrite_is_hidden_and_named_like_no_content(
    home: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Killed before its rename, a rewrite leaves its temp file; no glob or host may take it for a bootstrap file."""
    (home / "MEMORY.md").write_text("- a\n")
    seen: list[str] = []

    def killed_before_rename(src: str, dst: object) -> None:
        seen.append(Path(src).name)
        raise OSError(errno.EIO, os.strerror(errno.EIO))

    monkeypatch.setattr(atomic.os, "replace", killed_before_rename)
    res = memory_tool(home).call({"action": "replace", "text": "a", "with": "b"})
    assert res.is_error
    (name,) = seen
    assert name.startswith(".persona-notebook-") and name.endswith(".tmp")
    assert ".md" not in name and "MEMORY" not in name
    assert is_scratch_file(name)
    assert sorted(p.name for p in home.iterdir()) == ["MEMORY.md"]
    assert (home / "MEMORY.md").read_text() == "- a\n"


@pytest.mark.parametrize("stale", [".persona-notebook-k2j3h4g5.tmp", ".memory-tmp-MEMORY.md-abc123"])
def test_any_call_removes_temp_files_of_killed_writers_and_nothing_else(home: Path, stale: str) -> None:
    (home / "MEMORY.md").write_text("- a\n")
    (home / stale).write_text("- a whole rewrite that never got renamed\n")
    keep = [".persona-notebook-settings", "notes.tmp", "persona-notebook-x.tmp", ".persona-notebook-x.tmp.md"]
    for name in keep:
        (home / name).write_text("mine")
    res = memory_tool(home).call({"action": "remove", "text": "not there"})
    assert res.is_error  # even a call that fails clears what a killed writer left
    assert not (home / stale).exists()
    assert all((home / name).read_text() == "mine" for name in keep)
    assert not any(is_scratch_file(name) for name in keep)
