"""What the next writer does about a write whose writer was killed: complete it or drop it, record and all.

Slot 0 of the journal names the write in flight (see :mod:`.journal`). An
append cut short is cut back to its size before (readers already stop
there). Then its record: kept when the write landed whole (the appended
bytes hash as recorded, or the file is the renamed temp file, or it is
gone for a delete), dropped, with anything after it in the log, when it did
not. A kept record's file slot is cleared, so the next write of that file
reads it whole once and records whatever else changed it since. Runs under
the home's lock, before every write.
"""

from __future__ import annotations

import hashlib
import os
import stat
from contextlib import suppress
from pathlib import Path

from notebook_app.core.fs.state_dir import readable_state
from notebook_app.core.home.reading import JOURNAL_NAME, Intent, read_intent, torn_append
from notebook_app.core.record.group import settle_group, settle_unrecorded_group
from notebook_app.core.record.journal import LOG_SLOT, file_slot_offset, log_slot, log_slot_text, pread_slot, write_slot
from notebook_app.core.record.log.events import Event, EventError
from notebook_app.core.record.log.json_lines import parse_header
from notebook_app.core.record.log.store import LOG_NAME, landed, lines_forward


def recover(home: Path, slot0: bytes | None = None) -> None:
    """Undo an append its writer did not live to finish, settle its record, and clear its intent.

    ``slot0`` is the journal's slot 0 when the caller has read it already.
    """
    intent = Intent.parse(slot0) if slot0 is not None else read_intent(home)
    if intent is None:
        return
    if intent.kind == "append":
        torn = torn_append(home)
        if torn is not None:
            os.truncate(home / torn[0], torn[1])
        if intent.absent:
            _remove_if_empty(home / intent.name)
    journal = os.open(home / JOURNAL_NAME, os.O_RDWR | os.O_NOFOLLOW | os.O_CLOEXEC)
    try:
        if intent.log is not None:
            _settle(home, intent, journal)
        elif intent.kind == "group":  # not recorded: the journal lists its files (.journal.GROUP_FILES)
            settle_unrecorded_group(home, journal)
        write_slot(journal, "")
    finally:
        os.close(journal)


def _remove_if_empty(path: Path) -> None:
    """An append that created its file and left no byte: the file was absent before, and is again."""
    with suppress(OSError):
        info = path.lstat()
        if stat.S_ISREG(info.st_mode) and info.st_size == 0:
            path.unlink()


def _settle(home: Path, intent: Intent, journal: int) -> None:
    state = readable_state(home)
    if state is None:
        return
    try:
        fd = os.open(state / LOG_NAME, os.O_RDWR | os.O_NOFOLLOW | os.O_CLOEXEC | os.O_NONBLOCK)
    except OSError:
        return
    try:
        if not stat.S_ISREG(os.fstat(fd).st_mode):
            return
        size = os.fstat(fd).st_size
        assert intent.log is not None
        if intent.kind == "group":  # several files under one intent: a tidy, its undo
            settle_group(home, intent, fd, journal)
            write_slot(journal, "", LOG_SLOT)  # the next writer reads the last id from the log itself
            return
        if intent.log >= size:
            return  # killed before its record was written: nothing to settle
        events = _events_from(fd, intent.log, size)
        mine = [event for event in events if event.file == intent.name and event.is_write]
        if mine and landed(home, intent) and _bytes_are_ours(home, intent, mine[-1]):
            write_slot(journal, "", file_slot_offset(intent.name))
            log_id = parse_header(os.pread(fd, 256, 0).split(b"\n", 1)[0])
            known = log_slot(pread_slot(journal, LOG_SLOT))
            if log_id and known is not None and known[0] == log_id:
                write_slot(journal, log_slot_text(log_id, events[-1].id, os.fstat(fd).st_ino), LOG_SLOT)
        else:
            os.ftruncate(fd, intent.log)
    finally:
        os.close(fd)


def _events_from(fd: int, start: int, end: int) -> list[Event]:
    events = []
    for _, line in lines_forward(fd, start, end):
        try:
            events.append(Event.from_line(line))
        except EventError:
            continue
    return events


def _bytes_are_ours(home: Path, intent: Intent, event: Event) -> bool:
    """For an append, whether the bytes after the size before are the ones recorded."""
    if intent.kind != "append" or event.appended is None:
        return True
    try:
        fd = os.open(home / intent.name, os.O_RDONLY | os.O_NOFOLLOW | os.O_NONBLOCK | os.O_CLOEXEC)
    except OSError:
        return False
    try:
        data = os.pread(fd, intent.after - intent.before, intent.before)
    finally:
        os.close(fd)
    return hashlib.sha256(data).hexdigest() == event.appended
