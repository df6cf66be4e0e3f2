"""Blame: for each line of a bootstrap file, the record that last wrote it, who and when.

Every record keeps, per hunk, the line where it began and how many lines it
removed and added (in the file as it was before it), so blame replays line
numbers only, never content: it reads each record's head (:mod:`..log.head`)
and moves a list of owners. Lines that were there before the file's first
record say ``before history``. A change made from outside
and not yet recorded (viewing never records) is computed against what the
log last left and shown as not yet recorded.
"""

from __future__ import annotations

import mmap
import os
import re
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from enum import Enum
from functools import lru_cache
from typing import NamedTuple

from notebook_app.core.fs.state_dir import readable_state
from notebook_app.core.history.query import not_a_file, slot_of
from notebook_app.core.home.files import FileStatus, read_file
from notebook_app.core.home.layout import FLAT, FileMap
from notebook_app.core.home.soul import home_path
from notebook_app.core.record.log.actor import Actor
from notebook_app.core.record.log.events import WRITE_ACTIONS, Event, EventError
from notebook_app.core.record.log.head import BY, Head, actor_of, head_of
from notebook_app.core.record.log.replay import RebuildError, diff_hunks, file_events_backward, rebuild
from notebook_app.core.record.log.store import LogReader, open_reader


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


def blame(home: str | os.PathLike[str], name: str, *, files: FileMap = FLAT) -> Blame:
    """Who last wrote each line of ``name``, and when. Reads only.

    ``name`` is a file of the home opened as ``files``, as the list shows it (``MEMORY.md``) or by its path
    (``memories/MEMORY.md`` in a Hermes home): :meth:`..home.layout.FileMap.recorded`.
    """
    root = home_path(home)
    given = name
    recorded = files.recorded(name)
    if recorded is None:
        return Blame(name, (), (), frozenset(), not_a_file(files, given))
    name = recorded
    path = root / name
    read = read_file(path, limit=0)
    if read.status is FileStatus.ABSENT:
        return Blame(name, (), (), frozenset(), f"{name} is absent")
    if read.status not in (FileStatus.REGULAR, FileStatus.LINK):
        return Blame(name, (), (), frozenset(), read.describe())
    read = read_file(path, limit=read.size + 1)
    texts = _texts(read.data)
    owners = _owners(root, name)
    if owners is None:  # no record of the file: all of it is before history
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
    if b"\r" not in data:  # the usual file: no line to trim, one C call
        return tuple(lines)
    return tuple(line.removesuffix("\r") for line in lines)


def _owners(root: os.PathLike[str], name: str) -> list[Head | None] | None:
    """The owner of each line as the log last left the file; None when the log has no record of it.

    The log is read in blocks, and this file's records are found by one
    expression made for it (in C, from a line's start); a record matched
    costs a few list operations, and only the records that still own a line
    at the end become :class:`Head`\\ s. A record of an unusual shape (no line
    numbers, several hunks, the file's first, a head the expression does not
    read) is parsed whole, in its place in the order.
    """
    reader = open_reader(home_path(root))
    if reader is None:
        return None
    needle = b'","file":"' + name.encode() + b'","action":"'
    heads = _heads_of(name)
    owners: list[Head | re.Match[bytes] | None] | None = None
    with reader, _mapped(reader) as data:
        fast = _usual_owners(data, reader.end, name, needle)
        if fast is not None:
            return fast
        last = 0
        for match in heads.finditer(data, 0, reader.end):
            if data.find(needle, last, match.start()) >= 0:  # a record of this file the expression did not read
                owners = _slowly(data, last, match.start(), needle, name, owners)
            last = match.end()
            if owners is None or match[4] is None:
                owners = _slowly(data, match.start(), match.end(), needle, name, owners)
                continue
            first, removed, added = int(match[4]), int(match[5]), int(match[6])
            if removed == 0 and added == 1 and first > len(owners):
                owners.append(match)
            else:
                owners[first - 1 : first - 1 + removed] = [match] * added
        if data.find(needle, last, reader.end) >= 0:
            owners = _slowly(data, last, reader.end, needle, name, owners)
        return None if owners is None else _as_heads(owners, name)  # while the map is open: the matches read from it


@lru_cache(maxsize=16)
def _heads_of(name: str) -> re.Pattern[bytes]:
    """An applied write's head for file ``name``, from a line's start, with one hunk's line numbers as groups 4-6.

    Every record line follows a newline (the log's first line is its header).
    """
    actions = b"|".join(re.escape(action.encode()) for action in WRITE_ACTIONS)
    return re.compile(
        rb'\n\{"id":"([a-z]-[0-9a-z]+)","time":"([^"]+)","file":"'
        + re.escape(name.encode())
        + rb'","action":"('
        + actions
        + rb')",'
        rb'"applied":true,"by":' + BY + rb'(?:,"lines":\[\[([0-9]+),([0-9]+),([0-9]+)\]\](?=,))?'
    )


@lru_cache(maxsize=16)
def _records_of(name: str) -> tuple[re.Pattern[bytes], re.Pattern[bytes]]:
    """Every record head of file ``name``, with one hunk's line numbers as groups (empty when it has none, as a
    failed call); a head with several hunks does not match. And the file's mark in a head, to count them."""
    return re.compile(
        rb'\n\{"id":"([a-z]-[0-9a-z]+)","time":"([^"]+)","file":"'
        + re.escape(name.encode())
        + rb'","action":"([a-z-]+)",'
        rb'"applied":(true|false),"by":(' + BY + rb"),"
        rb'(?:"lines":\[\[([0-9]+),([0-9]+),([0-9]+)\]\],|(?!"lines"))'
    ), re.compile(re.escape(b'","file":"' + name.encode() + b'","action":"'))


_WRITES = frozenset(action.encode() for action in WRITE_ACTIONS)


def _usual_owners(data: mmap.mmap | bytes, end: int, name: str, needle: bytes) -> list[Head | None] | None:
    """The owners when every record of ``name`` has the usual shape (one hunk, line numbers): one C pass, no parsing.

    None when any does not, or the file's first record is not a write with an
    edit (then :func:`_owners` follows each record in order).
    """
    records, marks = _records_of(name)
    found = records.findall(data, 0, end)
    if not found or len(found) != len(marks.findall(data, 0, end)):
        return None
    first_at = data.find(needle, 0, end)
    try:
        event = Event.from_line(data[data.rfind(b"\n", 0, first_at) + 1 : data.find(b"\n", first_at)])
    except EventError:
        return None
    if not event.is_write or event.edit is None or event.id != found[0][0].decode():
        return None
    before = event.before
    owners: list[tuple[bytes, ...] | None] = [None] * (before.lines if before is not None and before.exists else 0)
    shared = False  # whether a record owns more than one line (then its Head is made once, for all of them)
    for record in found:
        if record[3] != b"true" or record[2] not in _WRITES:
            continue
        if not record[5]:  # a write without line numbers (an outside change the log could not diff)
            return None
        first, removed, added = int(record[5]), int(record[6]), int(record[7])
        if removed == 0 and added == 1 and first > len(owners):
            owners.append(record)
        else:
            owners[first - 1 : first - 1 + removed] = [record] * added
            shared = shared or added > 1
    return _heads(owners, name, shared)


def _heads(owners: list[tuple[bytes, ...] | None], name: str, shared: bool) -> list[Head | None]:
    """A :class:`Head` for each owner (a record's groups), made once per record when records own several lines."""
    make = tuple.__new__  # a Head without its Python-level __new__: 10,000 of them are most of what is left
    words = {action: action.decode() for action in _WRITES}
    actors: dict[bytes, Actor] = {}
    made: dict[int, Head] = {}
    out: list[Head | None] = []
    for owner in owners:
        if owner is None:
            out.append(None)
            continue
        if shared and id(owner) in made:
            out.append(made[id(owner)])
            continue
        by = actors.get(owner[4])
        if by is None:
            by = actors[owner[4]] = actor_of(owner[4])
        lines = ((int(owner[5]), int(owner[6]), int(owner[7])),)
        head = make(Head, (owner[0].decode(), owner[1].decode(), name, words[owner[2]], True, by, lines))
        if shared:
            made[id(owner)] = head
        out.append(head)
    return out


@contextmanager
def _mapped(reader: LogReader) -> Iterator[mmap.mmap | bytes]:
    """The log mapped into memory, read in place (no 9 MB copy); its bytes read whole where it cannot be mapped."""
    try:
        mapped = mmap.mmap(reader.fd, 0, access=mmap.ACCESS_READ)
    except (OSError, ValueError):
        yield os.pread(reader.fd, reader.end, 0)
        return
    try:
        yield mapped
    finally:
        mapped.close()


def _slowly(
    data: mmap.mmap | bytes,
    start: int,
    end: int,
    needle: bytes,
    name: str,
    owners: list[Head | re.Match[bytes] | None] | None,
) -> list[Head | re.Match[bytes] | None] | None:
    """Apply, in order, each record of ``name`` whose line begins in ``data[start:end]``, each parsed whole."""
    at = data.find(needle, start, end)
    while at >= 0:
        line_start = data.rfind(b"\n", 0, at) + 1
        line_end = data.find(b"\n", at)
        at = data.find(needle, line_end if line_end >= 0 else end, end)
        try:
            event = Event.from_line(data[line_start : line_end if line_end >= 0 else len(data)])
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
        assert head.lines is not None
        for first, removed, added in sorted(head.lines, reverse=True) if len(head.lines) > 1 else head.lines:
            owners[first - 1 : first - 1 + removed] = [head] * added
    return owners


_BY = re.compile(BY)


def _as_heads(owners: list[Head | re.Match[bytes] | None], name: str) -> list[Head | None]:
    """Each line's owner as a :class:`Head`, made once per record that still owns a line."""
    made: dict[int, Head] = {}
    out: list[Head | None] = []
    for owner in owners:
        if owner is None or isinstance(owner, Head):
            out.append(owner)
            continue
        head = made.get(id(owner))
        if head is None:
            lines = ((int(owner[4]), int(owner[5]), int(owner[6])),)
            by = actor_of(_BY.search(owner[0])[0])  # type: ignore[index]
            head = made[id(owner)] = Head(
                owner[1].decode(), owner[2].decode(), name, owner[3].decode(), True, by, lines
            )
        out.append(head)
    return out


def _outside(
    root: os.PathLike[str], name: str, data: bytes, owners: list[Head | None]
) -> tuple[list[Head | None], set[int]]:
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
