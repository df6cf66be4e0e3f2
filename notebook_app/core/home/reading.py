"""Reading a home while writers may be at work: all a reader needs of :mod:`..record.storage`'s guarantees.

Opening or viewing a home goes through here, never through the write path,
so it loads none of the write machinery (recording, the event log, the
journal's writer slots, hashing): :mod:`..record.storage` and :mod:`..record.journal` build
on this module, not the other way round. What lives here is what readers and
writers must agree on: the home's lock taken shared, slot 0 of
``.memory.journal`` (the write in flight, which a reader must not read past),
and the names of the bookkeeping files that are never content.
"""

from __future__ import annotations

import os
import stat
from collections.abc import Iterator
from contextlib import ExitStack, contextmanager
from dataclasses import dataclass
from pathlib import Path

from notebook_app.core.fs.atomic import flocked_directory
from notebook_app.core.fs.state_dir import STATE_DIR
from notebook_app.core.home.names import BOOTSTRAP_ORDER, base_name, is_archive_name, is_topic_name

MEMORY_TARGETS: dict[str, str] = {"self": "MEMORY.md", "user": "USER.md"}
"""The memory tool's targets and the only files it ever writes."""
ENTRY_FILES: tuple[str, ...] = tuple(MEMORY_TARGETS.values())
"""The files whose lines are entries: only these have entry edits."""

JOURNAL_NAME = ".memory.journal"
SLOT = 128
"""Bytes in each slot of the journal (see :mod:`..record.journal`)."""
TEMP_PREFIX = ".persona-notebook-"
TEMP_SUFFIX = ".tmp"
"""A rewrite's temp file: ``TEMP_PREFIX…TEMP_SUFFIX`` beside the file it replaces."""
_OLD_TEMP_PREFIX = ".memory-tmp-"  # what earlier versions named them; still cleared
FILE_SLOT_ORDER = ("MEMORY.md", "USER.md", *(n for n in BOOTSTRAP_ORDER if n not in ("MEMORY.md", "USER.md")))
"""The files the journal has a slot for, in slot order: the entry files first."""
_APPENDED = ("MEMORY.md", "USER.md")  # only the entry files are ever appended to


def has_file_slot(name: str) -> bool:
    """Whether the journal has a slot for ``name``: one of the seven (its own), or a topic file (the one shared
    topic slot, :mod:`..record.journal`). A rewrite or delete of any other name is never written, so never parsed."""
    return base_name(name) in FILE_SLOT_ORDER or is_topic_name(name) or is_archive_name(name)


def is_temp_file(name: str) -> bool:
    """A temp file of a rewrite: whole only once renamed, removed by the next writer."""
    return (name.startswith(TEMP_PREFIX) and name.endswith(TEMP_SUFFIX)) or name.startswith(_OLD_TEMP_PREFIX)


def is_scratch_file(name: str) -> bool:
    """The journal, temp files and the ``.notebook`` folder: bookkeeping, never content to show or watch."""
    return name in (JOURNAL_NAME, STATE_DIR) or is_temp_file(name)


@dataclass(frozen=True)
class Intent:
    """The write in flight, as slot 0 records it."""

    kind: str
    """append, rewrite, delete, or group: several files' rewrites and deletes under one intent (a tidy, its undo),
    its records named in the log from ``log`` on, ``after`` of them (:mod:`..record.group`)."""
    name: str
    """A file of the home by its path there; a rewrite or delete may also name a topic file (``debugging.md``)."""
    log: int | None = None
    """Where its record begins in the log; None when the write is not recorded (a group's files are then listed
    in the journal itself: :data:`..record.journal.GROUP_FILES`)."""
    before: int = 0
    after: int = 0
    inode: int = 0
    absent: bool = False
    """An append that created the file."""

    def text(self) -> str:
        if self.kind == "append":
            tail = "" if self.log is None else f" {self.log}" + (" absent" if self.absent else "")
            return f"append {self.name} {self.before} {self.after}{tail}"
        if self.kind == "rewrite":
            return f"rewrite {self.name} {self.log} {self.inode}"
        if self.kind == "group":  # no LOG (``-``): not recorded, its files named in the journal (..store.journal)
            return f"group {'-' if self.log is None else self.log} {self.after}"
        return f"delete {self.name} {self.log}"

    @classmethod
    def parse(cls, raw: bytes | None) -> Intent | None:
        if raw is None:
            return None
        words = raw.decode("ascii", errors="replace").split()
        try:
            if len(words) in (4, 5, 6) and words[0] == "append" and base_name(words[1]) in _APPENDED:
                log = int(words[4]) if len(words) > 4 else None
                return cls("append", words[1], log, int(words[2]), int(words[3]), absent=words[5:] == ["absent"])
            if len(words) == 4 and words[0] == "rewrite" and has_file_slot(words[1]):
                return cls("rewrite", words[1], int(words[2]), inode=int(words[3]))
            if len(words) == 3 and words[0] == "group":
                return cls("group", "-", None if words[1] == "-" else int(words[1]), after=int(words[2]))
            if len(words) == 3 and words[0] == "delete" and has_file_slot(words[1]):
                return cls("delete", words[1], int(words[2]))
        except ValueError:
            return None
        return None


def read_slot(home: Path, offset: int, size: int = SLOT) -> bytes | None:
    """One slot, or None; a journal that is not a regular file (a FIFO, a link) is never read."""
    try:
        fd = os.open(os.path.join(home, JOURNAL_NAME), os.O_RDONLY | os.O_NONBLOCK | os.O_NOFOLLOW | os.O_CLOEXEC)
    except OSError:
        return None
    try:
        if not stat.S_ISREG(os.fstat(fd).st_mode):
            return None
        return os.pread(fd, size, offset)
    except OSError:
        return None
    finally:
        os.close(fd)


def read_intent(home: Path) -> Intent | None:
    return Intent.parse(read_slot(home, 0))


def torn_append(home: Path) -> tuple[str, int] | None:
    """A file a killed writer left with part of an append: its name and size before.

    None when the append left no byte, or all of them (then it is whole).
    """
    intent = read_intent(home)
    if intent is None or intent.kind != "append":
        return None
    try:
        info = (home / intent.name).lstat()
    except OSError:
        return None
    return (
        (intent.name, intent.before)
        if stat.S_ISREG(info.st_mode) and intent.before < info.st_size < intent.after
        else None
    )


@contextmanager
def consistent_reads(home: Path) -> Iterator[dict[str, int]]:
    """Hold the home's lock shared while reading its files.

    No writer is mid-action while this is held, so reads are never torn. It
    yields, for a file that a killed writer left cut inside an append, how
    many bytes were there before that append: read no further, and the reader
    sees the file as it was before the action, as the next writer will leave
    it. Do not call it while holding :func:`..record.storage.locked_home` in the same process.
    """
    if not home.is_dir():
        yield {}  # no home: nothing can be mid-write
        return
    with flocked_directory(home, shared=True):
        torn = torn_append(home)
        yield {torn[0]: torn[1]} if torn else {}


@contextmanager
def reads_of(home: Path) -> Iterator[dict[str, int]]:
    """:func:`consistent_reads` where the home's lock can be taken; plain reads where it cannot.

    The shared lock opens the home for reading; a home one may search but not
    list (mode 0711) refuses that, yet its files can be read. They are,
    unlocked: a torn read needs a writer mid-action right then, while refusing
    would leave the agent with no soul at all. Every reader of a whole home
    (the soul, each host's load, the doctor) reads through this.
    """
    with ExitStack() as lock:
        try:
            valid = lock.enter_context(consistent_reads(home))
        except OSError:
            valid = {}
        yield valid
