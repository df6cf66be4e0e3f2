"""A durable write syncs what it wrote before the step that makes it count, and the folder after a rename.

A kill cannot show a missing ``fsync``: only a power loss can. So these
tests watch the real calls instead. ``os.fsync``, ``os.replace`` and
``os.pwrite`` are wrapped with recorders that call straight through; each
observed effect is kept with what it touched (the file's inode and size when
synced, the temp file renamed, the journal's slot 0 as written), and the
tests check their order:

* a rewrite (the tool's replace, an entry splice, an undo) syncs the temp
  file, holding all its new bytes, before renaming it over the file, and
  syncs the home folder after the rename;
* an undo that removes the file syncs the home folder after the unlink;
* an add syncs the file, holding the appended bytes, before the journal's
  slot 0 (its intent) is cleared.
"""

from __future__ import annotations

import os
import stat
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

import pytest

from notebook_app.core.history.query import history
from notebook_app.core.history.undo_restore import undo
from notebook_app.core.home.reading import JOURNAL_NAME
from notebook_app.core.memory.edits.guarded_splice import edit_entry
from notebook_app.core.memory.tool import memory_tool
from notebook_app.core.record.log.actor import CLI, NOTEBOOK

SLOT = 128


@dataclass(frozen=True)
class Seen:
    what: str
    """fsync, replace, unlink or pwrite."""
    inode: int
    directory: bool = False
    size: int = 0
    """fsync: the file's size when synced."""
    target: str = ""
    """replace: the name renamed over; unlink: the name removed."""
    offset: int = -1
    data: bytes = b""
    """pwrite: where and what."""


class Effects:
    """The real fsync, replace, unlink and pwrite calls of one write, in order."""

    def __init__(self, monkeypatch: pytest.MonkeyPatch) -> None:
        self.seen: list[Seen] = []
        real_fsync, real_replace, real_unlink, real_pwrite = os.fsync, os.replace, os.unlink, os.pwrite

        def fsync(fd: int) -> None:
            info = os.fstat(fd)
            real_fsync(fd)
            self.seen.append(Seen("fsync", info.st_ino, stat.S_ISDIR(info.st_mode), info.st_size))

        def replace(src: str | os.PathLike[str], dst: str | os.PathLike[str], **kw: object) -> None:
            inode = os.lstat(src).st_ino
            real_replace(src, dst, **kw)  # type: ignore[arg-type]
            self.seen.append(Seen("replace", inode, target=os.fspath(dst)))

        def unlink(path: str | os.PathLike[str], **kw: object) -> None:
            inode = os.lstat(path).st_ino
            real_unlink(path, **kw)  # type: ignore[arg-type]
            self.seen.append(Seen("unlink", inode, target=os.fspath(path)))

        def pwrite(fd: int, data: bytes, offset: int) -> int:
            written = real_pwrite(fd, data, offset)
            self.seen.append(Seen("pwrite", os.fstat(fd).st_ino, offset=offset, data=bytes(data)))
            return written

        monkeypatch.setattr(os, "fsync", fsync)
        monkeypatch.setattr(os, "replace", replace)
        monkeypatch.setattr(os, "unlink", unlink)
        monkeypatch.setattr(os, "pwrite", pwrite)

    def index(self, found: Callable[[Seen], bool], *, after: int = -1) -> int | None:
        for i, seen in enumerate(self.seen):
            if i > after and found(seen):
                return i
        return None


def seeded(home: Path) -> Path:
    """MEMORY.md written and recorded by the core, as every later write finds it."""
    tool = memory_tool(home, by=CLI)
    for text in ("timezone: UTC", "prefers metric units"):
        assert not tool.call({"action": "add", "text": text}).is_error
    return home


def replace_by_the_tool(home: Path) -> None:
    assert not memory_tool(home, by=CLI).call({"action": "replace", "text": "UTC", "with": "IST"}).is_error


def edit_an_entry(home: Path) -> None:
    result = edit_entry(home, "MEMORY.md", 1, "- timezone: UTC", "- timezone: IST", by=NOTEBOOK)
    assert not result.is_error, result.output


def undo_the_first_add(home: Path) -> None:
    first = history(home)[-1]
    assert undo(home, first.id, by=CLI).record is not None


@pytest.mark.parametrize("rewrite", [replace_by_the_tool, edit_an_entry, undo_the_first_add])
def test_a_rewrite_syncs_the_whole_temp_file_before_the_rename_and_the_folder_after(
    home: Path, monkeypatch: pytest.MonkeyPatch, rewrite: Callable[[Path], None]
) -> None:
    seeded(home)
    path = home / "MEMORY.md"
    before = path.read_bytes()
    effects = Effects(monkeypatch)
    rewrite(home)
    monkeypatch.undo()
    after = path.read_bytes()
    assert after != before

    renames = [i for i, seen in enumerate(effects.seen) if seen.what == "replace" and seen.target == str(path)]
    assert len(renames) == 1, "a rewrite renames one temp file over the file"
    rename = renames[0]
    temp = effects.seen[rename].inode
    assert path.stat().st_ino == temp, "the file is the renamed temp file"
    synced = [seen for seen in effects.seen[:rename] if seen.what == "fsync" and seen.inode == temp]
    assert synced, "the temp file is synced before it is renamed over the file"
    assert synced[-1].size == len(after), "and synced once all the new bytes were in it"
    home_inode = home.stat().st_ino
    assert (
        effects.index(lambda s: s.what == "fsync" and s.directory and s.inode == home_inode, after=rename) is not None
    ), "the home folder is synced after the rename, so the rename itself is durable"


def test_an_undo_that_removes_the_file_syncs_the_folder_after_the_unlink(
    home: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    assert not memory_tool(home, by=CLI).call({"action": "add", "text": "the file's only entry"}).is_error
    path = home / "MEMORY.md"
    effects = Effects(monkeypatch)
    assert undo(home, history(home)[0].id, by=CLI).record is not None
    monkeypatch.undo()
    assert not path.exists()

    removed = effects.index(lambda s: s.what == "unlink" and s.target == str(path))
    assert removed is not None
    home_inode = home.stat().st_ino
    assert (
        effects.index(lambda s: s.what == "fsync" and s.directory and s.inode == home_inode, after=removed) is not None
    ), "the home folder is synced after the unlink, so the removal itself is durable"


def test_an_add_syncs_its_bytes_before_its_intent_is_cleared(home: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    seeded(home)
    path = home / "MEMORY.md"
    journal = (home / JOURNAL_NAME).stat().st_ino
    effects = Effects(monkeypatch)
    assert not memory_tool(home, by=CLI).call({"action": "add", "text": "likes tea " + "é" * 3000}).is_error
    monkeypatch.undo()
    size = path.stat().st_size

    def slot0(seen: Seen) -> bytes | None:
        if seen.what != "pwrite" or seen.inode != journal or seen.offset != 0:
            return None
        return seen.data[:SLOT]

    intent = effects.index(lambda s: (slot0(s) or b"").startswith(b"append MEMORY.md "))
    assert intent is not None, "the add's intent is written to slot 0 first"
    cleared = effects.index(lambda s: slot0(s) is not None and not (slot0(s) or b"").strip(), after=intent)
    assert cleared is not None, "and cleared once the add is whole"
    memory = path.stat().st_ino
    synced = [s for s in effects.seen[intent:cleared] if s.what == "fsync" and s.inode == memory]
    assert synced, "the file is synced between the intent and its clearing"
    assert synced[-1].size == size, "with every appended byte in it"
