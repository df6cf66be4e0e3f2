"""Blame: for each line of a bootstrap file, the record that last wrote it, who and when.

Every record keeps, per hunk, the line where it began and how many lines it
removed and added (in the file as it was before it), so blame replays line
numbers only, never content: it reads each record's head (:mod:`.event_head`)
and moves a list of owners. Lines that were there before the file's first
record are older than the history and say so. A change made from outside
and not yet recorded (viewing never records) is computed against what the
log last left and shown as not yet recorded.
"""

from __future__ import annotations

import os
from dataclasses import dataclass
from enum import Enum
from typing import NamedTuple

from .event_head import Head, head_of, read_head
from .event_store import open_reader
from .events import WRITE_ACTIONS, Event, EventError
from .files import FileStatus, read_file
from .history import slot_of
from .home import BOOTSTRAP_ORDER, home_path
from .replay import RebuildError, diff_hunks, file_events_backward, rebuild
from .state_dir import readable_state


class Origin(Enum):
    RECORDED = "recorded"
    BEFORE_HISTORY = "before history"
    """The line was there when the file's history began."""
    NOT_RECORDED = "not yet recorded"
    """Changed from outside since the last record; the next write records it."""


class BlameLine(NamedTuple):
    number: int
    text: str
    record: Head | None
    origin: Origin


@dataclass(frozen=True)
class Blame:
    """A file's lines and, for each, the record that last wrote it (None: see ``origin``)."""

    name: str
    texts: tuple[str, ...]
    owners: tuple[Head | None, ...]
    unrecorded: frozenset[int]
    """Numbers (from 1) of lines changed from outside and not yet recorded."""
    message: str | None = None
    """Why there is nothing to blame (the file is absent, not a regular file, …)."""

    def lines(self) -> list[BlameLine]:
        out = []
        for index, (text, owner) in enumerate(zip(self.texts, self.owners, strict=True)):
            number = index + 1
            if number in self.unrecorded:
                origin = Origin.NOT_RECORDED
            else:
                origin = Origin.RECORDED if owner is not None else Origin.BEFORE_HISTORY
            out.append(BlameLine(number, text, owner, origin))
        return out

    def line(self, number: int) -> BlameLine:
        return self.lines()[number - 1]


def blame(home: str | os.PathLike[str], name: str) -> Blame:
    """Who last wrote each line of ``name`` (a bootstrap file), and when. Reads only."""
    root = home_path(home)
    if name not in BOOTSTRAP_ORDER:
        return Blame(name, (), (), frozenset(), f"not a bootstrap file: {name!r}")
    path = root / name
    read = read_file(path, limit=0)
    if read.status is FileStatus.ABSENT:
        return Blame(name, (), (), frozenset(), f"{name} is absent")
    if read.status not in (FileStatus.REGULAR, FileStatus.LINK):
        return Blame(name, (), (), frozenset(), read.describe())
    read = read_file(path, limit=read.size + 1)
    texts = _texts(read.data)
    owners = _owners(root, name)
    if owners is None:  # no record of the file: all of it is older than the history
        return Blame(name, texts, (None,) * len(texts), frozenset())
    unrecorded: set[int] = set()
    slot = slot_of(root, name)
    if slot is None or read.stat_key is None or slot.key != read.stat_key:
        owners, unrecorded = _outside(root, name, read.data, owners)
    if len(owners) != len(texts):  # the log and the file disagree beyond what a diff explains
        owners = (owners + [None] * len(texts))[: len(texts)]
        unrecorded = set(range(1, len(texts) + 1))
    return Blame(name, texts, tuple(owners), frozenset(unrecorded))


def _texts(data: bytes) -> tuple[str, ...]:
    lines = data.decode("utf-8", "replace").split("\n")
    if lines and lines[-1] == "":
        lines.pop()
    return tuple(line.removesuffix("\r") for line in lines)


def _owners(root: os.PathLike[str], name: str) -> list[Head | None] | None:
    """The owner of each line as the log last left the file; None when the log has no record of it.

    The log is scanned in blocks: this file's records are found by a byte
    search (in C), and only their heads are read.
    """
    reader = open_reader(home_path(root))
    if reader is None:
        return None
    needle = b'","file":"' + name.encode() + b'","action":"'
    owners: list[Head | None] | None = None
    with reader:
        for block in reader.blocks():
            at, last = block.find(needle), -1
            while at >= 0:
                start = block.rfind(b"\n", 0, at) + 1
                at = block.find(needle, at + 1)
                if start == last:
                    continue
                last = start
                head = read_head(block, start)
                if head is not None and head.file != name:
                    continue  # the words appeared inside another record
                if head is None or head.lines is None or owners is None:
                    try:
                        event = Event.from_line(block[start : block.find(b"\n", start)])
                    except EventError:
                        continue
                    if not event.is_write or event.file != name:
                        continue
                    head = head_of(event)
                    if owners is None:
                        before = event.before
                        owners = [None] * (before.lines if before is not None and before.exists else 0)
                    if event.edit is None:  # an outside change whose earlier content is unknown: its lines are its own
                        after = event.after
                        owners = [head] * (after.lines if after is not None and after.exists else 0)
                        continue
                if not head.applied or head.action not in WRITE_ACTIONS or head.lines is None:
                    continue
                for first, removed, added in sorted(head.lines, reverse=True) if len(head.lines) > 1 else head.lines:
                    owners[first - 1 : first - 1 + removed] = [head] * added
    return owners


def _outside(root: os.PathLike[str], name: str, data: bytes, owners: list[Head | None]) -> tuple[list[Head | None], set[int]]:
    """The owners once an outside change not yet recorded is laid over what the log last left."""
    reader = open_reader(home_path(root))
    if reader is None:
        return owners, set()
    with reader:
        chain = file_events_backward(reader, name)
    try:
        last = rebuild(chain, readable_state(home_path(root))) or b""
    except RebuildError:
        return [None] * len(_texts(data)), set(range(1, len(_texts(data)) + 1))
    unrecorded: set[int] = set()
    owners = list(owners)
    hunks = diff_hunks(last, data)
    shift = 0
    for h in hunks:
        first = h.line + shift
        owners[first - 1 : first - 1 + h.lines_removed] = [None] * h.lines_added
        unrecorded.update(range(first, first + h.lines_added))
        shift += h.lines_added - h.lines_removed
    return owners, unrecorded

