"""``.memory.journal``: the small fixed-slot file that makes a write and its record one.

Each slot is 128 bytes of ASCII, written with one ``pwrite`` (a process kill
cannot cut it in two):

* slot 0, the write in flight, if any: ``append FILE BEFORE AFTER [LOG [absent]]``,
  ``rewrite FILE LOG INODE`` or ``delete FILE LOG``. ``LOG`` is the byte of the
  event log where this write's record begins: written here before the record,
  the record before the file, and cleared when both are whole. The next
  writer completes or drops whatever a killed one left (:mod:`.recording`);
  readers stop a file at ``BEFORE`` while an append is cut short.
* slot 1, ``log LOG_ID LAST_ID INODE``: which log the file slots describe,
  the last id written (ids only grow), and the log file's inode (while it
  is the same, one ``stat`` tells that the slots still describe it).
* slot 2 on, one per bootstrap file (MEMORY.md, USER.md, then the others):
  ``file NAME INODE SIZE MTIME UTF8 LINES COST``,
  the file as the log last left it: its stat key (so an outside change is
  seen without reading the file), whether it is UTF-8 (so an add need not
  check 2 MiB again), its line count (an add's line number) and the replay
  cost since its last snapshot.
* slot 9, the topic slot: the same ``file NAME …`` words for whichever file
  beyond the seven was written last (a Claude Code topic file, edited whole:
  :meth:`..home.layout.FileMap.edits_whole`). One slot for them all, not one
  per name: a topic file is rewritten, never appended to, and a rewrite reads
  its file whole anyway, so the slot only spares the log a rebuild. Its
  intents are slot 0's ``rewrite`` and ``delete`` naming the file. A release
  before this one reads nine slots and never this one, and takes such an
  intent for no write in flight (it names no file that release writes): so
  the topic slot is cleared before each such intent is written, and a record
  that release left unsettled is seen by the next writer here as what it is
  (the file read whole, the log rebuilt, the difference an ``outside`` change).

* from byte 4096 (:data:`GROUP_FILES`), a group's files when the history
  cannot be kept (``.notebook`` a link, say): slot 0 then says ``group - COUNT``
  and this one JSON line lists each file, in the order it is renamed, with the
  inode of the temp file it is renamed from (null: removed). Written before
  slot 0, so a tidy killed mid-apply is completed from it (:mod:`.recovery`)
  with or without a history; a group whose journal cannot be written is refused.

The slots are a cache of the log: a missing or stale one costs one full read
of the file, never a wrong record. Slot 0, which readers also heed, is read
and written as :class:`..home.reading.Intent` (so opening a home loads none of this).
"""

from __future__ import annotations

import json
import os
from dataclasses import dataclass
from pathlib import Path

from notebook_app.core.home.names import base_name, is_archive_name, is_topic_name
from notebook_app.core.home.reading import FILE_SLOT_ORDER, SLOT, read_slot

LOG_SLOT = SLOT
_FILE_SLOTS = {name: SLOT * (2 + i) for i, name in enumerate(FILE_SLOT_ORDER)}
# the entry files first: an add's slots, and clearing its intent, are then one pwrite

StatKey = tuple[int, int, int]


def stat_key(info: os.stat_result) -> StatKey:
    return info.st_ino, info.st_size, info.st_mtime_ns


@dataclass(frozen=True)
class FileSlot:
    """A bootstrap file as the log last left it."""

    key: StatKey | None
    """None: absent."""
    utf8: bool
    lines: int
    cost: int

    def text(self, name: str) -> str:
        key = " ".join(map(str, self.key)) if self.key else "absent absent absent"
        return f"file {name} {key} {int(self.utf8)} {self.lines} {self.cost}"

    @classmethod
    def parse(cls, raw: bytes | None, name: str) -> FileSlot | None:
        if raw is None:
            return None
        words = raw.decode("ascii", errors="replace").split()
        if len(words) != 8 or words[:2] != ["file", name]:
            return None
        try:
            key = None if words[2] == "absent" else (int(words[2]), int(words[3]), int(words[4]))
            return cls(key, words[5] == "1", int(words[6]), int(words[7]))
        except ValueError:
            return None


def write_slot(fd: int, record: str, offset: int = 0) -> None:
    """One small pwrite within a page: a process kill cannot cut it in two."""
    os.pwrite(fd, record.encode("ascii").ljust(SLOT, b" "), offset)


def pread_slot(fd: int, offset: int) -> bytes:
    return os.pread(fd, SLOT, offset)


TOPIC_SLOT = SLOT * (2 + len(FILE_SLOT_ORDER))
"""The one slot the files beyond the seven share: it describes the last of them written, by name."""


def file_slot_offset(name: str) -> int:
    """Where ``name``'s slot is: its own for one of the seven, the shared topic slot for a topic file."""
    offset = _FILE_SLOTS.get(base_name(name))
    if offset is None and (is_topic_name(name) or is_archive_name(name)):
        return TOPIC_SLOT
    if offset is None:
        raise KeyError(name)  # no write of such a name is ever made: the callers refuse it first
    return offset


def shares_slot(name: str) -> bool:
    """Whether ``name``'s slot is the shared topic slot, cleared before each of its intents (see above)."""
    return base_name(name) not in _FILE_SLOTS and (is_topic_name(name) or is_archive_name(name))


def log_slot(raw: bytes | None) -> tuple[str, str | None] | None:
    """(log id, last event id) from slot 1."""
    known = log_slot_inode(raw)
    return None if known is None else (known[0], known[1])


def log_slot_inode(raw: bytes | None) -> tuple[str, str | None, int] | None:
    """(log id, last event id, the log's inode or -1) from slot 1."""
    if raw is None:
        return None
    words = raw.decode("ascii", errors="replace").split()
    if len(words) in (3, 4) and words[0] == "log":
        inode = int(words[3]) if len(words) == 4 and words[3].isdigit() else -1
        return words[1], None if words[2] == "-" else words[2], inode
    return None


def log_slot_text(log_id: str, last_id: str | None, inode: int = -1) -> str:
    return f"log {log_id} {last_id or '-'}" + (f" {inode}" if inode >= 0 else "")


ALL_SLOTS = TOPIC_SLOT + SLOT


def read_slots(home: Path) -> bytes:
    """Every slot at once (one open), empty when there is no journal to read."""
    return read_slot(home, 0, ALL_SLOTS) or b""


GROUP_FILES = 4096
"""Where an unrecorded group lists its files (past every slot, on a page of its own)."""
_GROUP_FILES_MAX = 1 << 16


def write_group_files(fd: int, files: list[tuple[str, int | None]]) -> None:
    """The files of a group not recorded, in order, each with its temp file's inode (None: removed)."""
    os.pwrite(fd, json.dumps(files).encode("ascii") + b"\n", GROUP_FILES)


def read_group_files(fd: int) -> list[tuple[str, int | None]] | None:
    """What :func:`write_group_files` wrote; None when it is not there whole."""
    line, newline, _ = os.pread(fd, _GROUP_FILES_MAX, GROUP_FILES).partition(b"\n")
    try:
        files = json.loads(line) if newline else None
    except ValueError:
        return None
    if not isinstance(files, list):
        return None
    out: list[tuple[str, int | None]] = []
    for item in files:
        if not (isinstance(item, list) and len(item) == 2 and isinstance(item[0], str)):
            return None
        if not (item[1] is None or isinstance(item[1], int)):
            return None
        out.append((item[0], item[1]))
    return out
