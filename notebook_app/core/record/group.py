"""Several files written as one: a tidy (its archive first, then its sources) and the undo of one, under one intent.

The same write path as :meth:`.writes.RecordedWrites.rewrite`, for a list of
files: every new content goes to a synced temp file first (its inode is then
known), the journal's slot 0 names the group (``group LOG COUNT``: where its
records begin in the log and how many there are), the records of all the
files are appended to the log in one write, and only then are the files
renamed over (or removed) one by one, in the order given. A kill at any point
is settled by the next writer (:func:`settle_group`): with not every record in
the log, no file was touched and the records are dropped; otherwise each file
whose rename did not happen is completed from its temp file, which the next
writer finds by the inode its record names. A file that cannot be completed
(its temp file gone) drops its record and every later one, so the log always
agrees with the files; because the files are renamed in order, a tidy's
archive, named first, is whole before any source loses an entry.

With no history to keep (``.notebook`` a link, say) the group is all or
nothing all the same: the journal lists its files and their temp files'
inodes (:data:`.journal.GROUP_FILES`) and slot 0 names it (``group - COUNT``)
before the first rename, and the next writer completes it from that list
(:func:`settle_unrecorded_group`). A group whose journal cannot be written
is refused before any file is touched.

Every record of a group carries ``group``: the id of its first record, the
head, which also lists each file the group wrote and the line spans of each
(``files``). Undo of any of them undoes the group (:mod:`..history.undo_group`).
"""

from __future__ import annotations

import errno
import hashlib
import os
import stat
from collections.abc import Sequence
from contextlib import suppress
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import TYPE_CHECKING

from notebook_app.core.fs.atomic import remove_matching, sync_folder, write_temp
from notebook_app.core.home.names import base_name
from notebook_app.core.home.reading import TEMP_PREFIX, TEMP_SUFFIX, Intent, is_temp_file
from notebook_app.core.record.journal import file_slot_offset, read_group_files, stat_key, write_group_files, write_slot
from notebook_app.core.record.log.events import ABSENT, Event, EventError, FileState, Hunk, Payload
from notebook_app.core.record.log.ids import new_id
from notebook_app.core.record.log.replay import count_lines, diff_hunks
from notebook_app.core.record.log.store import lines_forward
from notebook_app.core.record.recording import Change

if TYPE_CHECKING:
    from notebook_app.core.record.storage import LockedHome


@dataclass(frozen=True)
class FileWrite:
    """One file of a group: its new content (None: remove it), what its record says, and its hunks if known."""

    name: str
    data: bytes | None
    change: Change
    hunks: tuple[Hunk, ...] | None = None


@dataclass
class _Item:
    write: FileWrite
    folder: Path
    path: Path
    existed: bool
    temp: Path | None = None
    events: list[Event] = field(default_factory=list)
    lines: int = 0
    cost: int = 0


@dataclass
class Group:
    """A group being written: prepared (temp files, records), then announced, then landed file by file."""

    locked: LockedHome
    items: list[_Item]
    intent: Intent | None = None

    @property
    def ids(self) -> list[str]:
        """The id of each file's record, in the order written (empty when the history cannot be kept)."""
        return [item.events[-1].id for item in self.items if item.events]


def reserve_ids(locked: LockedHome, name: str, action: str) -> tuple[str, ...]:
    """The ids the records of ``name`` will have as a group's first file, its own last: its content may name it
    (a tidy's heading). Reads ``name`` whole: an outside change to it is recorded just before, with the first id.
    Pass them to :func:`prepare` as ``first_ids``; nothing else may be written in between.
    """
    known = locked._know(name, whole=True)
    writer = locked.recorder.writer()
    last = locked.recorder._last_id(writer) if writer is not None else None
    ids: list[str] = []
    if known.outside is not None:
        last = new_id(known.outside.action, last)
        ids.append(last)
    return (*ids, new_id(action, last))


def prepare(locked: LockedHome, writes: Sequence[FileWrite], *, first_ids: tuple[str, ...] = ()) -> Group:
    """Each new content in a synced temp file beside its file, and every record built; nothing is renamed yet."""
    recorder = locked.recorder
    writer = recorder.writer()
    group = Group(locked, [])
    try:
        for folder in dict.fromkeys(locked.folder_of(write.name) for write in writes):
            remove_matching(folder, is_temp_file)  # what a killed writer left, its recovery done
        for write in writes:
            folder = locked.folder_of(write.name)
            path = folder / base_name(write.name)
            known = locked._know(write.name, whole=True)
            item = _Item(write, folder, path, known.key is not None)
            group.items.append(item)
            if item.existed and not os.access(path, os.W_OK, effective_ids=os.access in os.supports_effective_ids):
                # renaming over it would bypass its mode: refused as a rewrite of it is (.writes)
                raise PermissionError(errno.EACCES, os.strerror(errno.EACCES), str(path))
            if write.data is not None:
                mode = stat.S_IMODE(path.lstat().st_mode) if item.existed else 0o644
                item.temp, status = write_temp(
                    folder, write.data, mode=mode, prefix=TEMP_PREFIX, suffix=TEMP_SUFFIX, durable=locked._durable
                )
            if writer is None:
                continue
            old = known.content or b""
            old_lines = known.lines if item.existed else 0
            hunks: tuple[Hunk, ...]
            if write.data is None:
                hunks = (Hunk(0, Payload.of(old), Payload.of(b""), 1, count_lines(old), 0),)
            else:
                hunks = write.hunks if write.hunks is not None else diff_hunks(old, write.data)
            item.lines = old_lines + sum(h.lines_added - h.lines_removed for h in hunks) if write.data else 0
            before = FileState(True, len(old), old_lines, hashlib.sha256(old).hexdigest()) if item.existed else ABSENT
            after = ABSENT
            if write.data is not None:
                digest = hashlib.sha256(write.data).hexdigest()
                after = FileState(True, len(write.data), item.lines, digest, stat_key(status))
            item.events = recorder.events_for(
                write.name, write.change, edit=hunks, before=before, after=after, after_content=write.data
            )
            item.cost = recorder._cost
        if writer is not None:
            _number(group, recorder._last_id(writer), first_ids)
    except BaseException:
        _drop_temps(group)
        raise
    return group


def _number(group: Group, last: str | None, first_ids: tuple[str, ...]) -> None:
    """Ids in the order the records are written, the first file's ``first_ids`` (:func:`reserve_ids`); each record
    names the head, the first."""
    for index, item in enumerate(group.items):
        reserved = first_ids if index == 0 and first_ids else ()
        if reserved and (len(reserved) != len(item.events) or (last is not None and reserved[0][2:] <= last[2:])):
            raise ValueError("the ids reserved for this write are stale: something was written in between")
        numbered = []
        for at, event in enumerate(item.events):
            last = reserved[at] if reserved else new_id(event.action, last)
            numbered.append(replace(event, id=last))
        item.events = numbered
    head = group.items[0].events[-1].id if group.items and group.items[0].events else None
    spans = [
        {
            "file": item.write.name,
            "lines": [[h.line, h.lines_removed, h.lines_added] for h in item.events[-1].edit or ()],
        }
        for item in group.items
    ]
    for item in group.items:
        record = item.events[-1]
        extra = {**record.extra, "group": head} | ({"files": spans} if record.id == head else {})
        item.events[-1] = replace(record, extra=extra)


def announce(group: Group) -> None:
    """Slot 0 names the group, then every record goes to the log in one append: from here recovery settles it."""
    locked = group.locked
    writer = locked.recorder.writer()
    if writer is None:
        _announce_unrecorded(group)
        return
    journal = locked._journal()
    group.intent = Intent("group", "-", writer.size(), after=len(group.items))
    for item in group.items:
        locked.recorder.clear_shared_slot(item.write.name)
    write_slot(journal, group.intent.text())
    try:
        writer.append(b"".join(event.line() for item in group.items for event in item.events))
    except BaseException:
        with suppress(OSError):
            writer.truncate(group.intent.log or 0)
            write_slot(journal, "")
        _drop_temps(group)
        raise


def _announce_unrecorded(group: Group) -> None:
    """No history to name the group in: the journal lists its files, then slot 0 names it; refused if it cannot."""
    locked = group.locked
    try:
        journal = locked._journal()
        files = [(str(item.path.relative_to(locked.home)), _inode(item.temp)) for item in group.items]
        write_group_files(journal, files)
        group.intent = Intent("group", "-", None, after=len(group.items))
        write_slot(journal, group.intent.text())
        if locked._durable:
            os.fsync(journal)
    except BaseException:
        with suppress(Exception):  # the journal that could not be written may not be cleared either
            if group.intent is not None:
                write_slot(locked._journal(), "")
        group.intent = None
        _drop_temps(group)
        raise


def _inode(temp: Path | None) -> int | None:
    return None if temp is None else temp.lstat().st_ino


def land(group: Group, index: int) -> None:
    """Rename file ``index``'s temp file over it (or remove it), made durable."""
    item = group.items[index]
    if item.temp is None:
        with suppress(FileNotFoundError):
            os.unlink(item.path)
    else:
        os.replace(item.temp, item.path)
        item.temp = None
    sync_folder(item.folder, group.locked._durable)


def finish(group: Group) -> None:
    """Every file landed: its slot says how the log left it, and slot 0 is cleared last."""
    locked = group.locked
    recorder = locked.recorder
    if recorder.writer() is None:
        if group.intent is not None:
            with suppress(OSError):
                write_slot(locked._journal(), "")
        return
    with suppress(OSError):  # the files are whole: a missing slot costs one full read
        for item in group.items:
            recorder._cost = item.cost
            data = item.write.data
            key = stat_key(item.path.lstat()) if data is not None else None
            utf8 = data is None or _is_utf8(data)
            recorder.wrote(item.write.name, item.events[-1].id, item.lines, key=key, utf8=utf8, content=data)
        write_slot(locked._journal(), "")


def write_group(locked: LockedHome, writes: Sequence[FileWrite], *, first_ids: tuple[str, ...] = ()) -> list[str]:
    """Write every file of ``writes``, in order, as one recorded write; the id of each file's record.

    A failure before the first rename takes everything back and re-raises; one after it leaves the intent for
    the next writer, which completes the group from its temp files.
    """
    group = prepare(locked, writes, first_ids=first_ids)
    announce(group)
    for index in range(len(group.items)):
        try:
            land(group, index)
        except BaseException as error:
            if index == 0:
                _take_back(group)
                raise
            locked.created.clear()  # what landed stays: the intent's recovery completes the rest, from its temp files
            if not isinstance(error, OSError):
                raise
            names = ", ".join(item.write.name for item in group.items[index:])
            words = f"{names} could not be written yet ({error}); the next write to this home completes it"
            raise GroupCut(words) from None
    finish(group)
    return group.ids


class GroupCut(Exception):
    """A group stopped after some of its files landed: its intent stays, and the next writer completes it."""


def _take_back(group: Group) -> None:
    with suppress(OSError):
        writer = group.locked.recorder.writer()
        if writer is not None and group.intent is not None and group.intent.log is not None:
            writer.truncate(group.intent.log)
        if group.intent is not None:
            write_slot(group.locked._journal(), "")
    _drop_temps(group)


def _drop_temps(group: Group) -> None:
    for item in group.items:
        if item.temp is not None:
            with suppress(OSError):
                os.unlink(item.temp)
            item.temp = None


def _is_utf8(data: bytes) -> bool:
    try:
        data.decode("utf-8")
    except UnicodeDecodeError:
        return False
    return True


def settle_group(home: Path, intent: Intent, log_fd: int, journal: int) -> None:
    """Recovery of a group whose writer was killed: complete it from its temp files, or drop what did not land."""

    assert intent.log is not None
    size = os.fstat(log_fd).st_size
    if intent.log >= size:
        return  # killed before its records were written: no file was touched
    members: list[tuple[int, Event]] = []
    start = intent.log
    for offset, line in lines_forward(log_fd, intent.log, size):
        try:
            event = Event.from_line(line)
        except EventError:
            continue
        if event.extra.get("group") is not None and event.is_write:
            members.append((start, event))
            start = offset + len(line) + 1
    if len(members) < intent.after:
        os.ftruncate(log_fd, intent.log)  # the records were cut short: no file was renamed yet
        return
    for index, (begins, event) in enumerate(members):
        assert event.file is not None
        if not _landed(home, event) and not _complete(home, event):
            os.ftruncate(log_fd, begins)  # this file and the ones after it keep what they held; so does the log
            members = members[:index]
            break
    for _, event in members:
        write_slot(journal, "", file_slot_offset(event.file or ""))  # the next write of each reads it whole


def settle_unrecorded_group(home: Path, journal: int) -> None:
    """Recovery of a group with no history: complete its files in order from the journal's list, up to the first
    whose temp file is gone (it and the ones after it keep what they held)."""
    for name, inode in read_group_files(journal) or ():
        if not _landed_at(home, name, inode) and not _complete_at(home, name, inode):
            return


def _after_inode(event: Event) -> int | None | bool:
    """The inode the record's file has once renamed; None: removed; False: not known."""
    after = event.after
    if after is None or not after.exists:
        return None
    return False if after.key is None else after.key[0]


def _landed(home: Path, event: Event) -> bool:
    inode = _after_inode(event)
    return inode is not False and _landed_at(home, event.file or "", inode)


def _complete(home: Path, event: Event) -> bool:
    inode = _after_inode(event)
    return inode is not False and _complete_at(home, event.file or "", inode)


def _landed_at(home: Path, name: str, inode: int | None) -> bool:
    """Whether ``name`` is as the group leaves it: the temp file of inode ``inode`` renamed over it (None: gone)."""
    try:
        info = (home / name).lstat()
    except FileNotFoundError:
        return inode is None
    except OSError:
        return False
    return inode is not None and info.st_ino == inode


def _complete_at(home: Path, name: str, inode: int | None) -> bool:
    """Do what the killed writer did not: the rename from the temp file of inode ``inode``, or the removal."""
    path = home / name
    if inode is None:
        with suppress(FileNotFoundError):
            path.unlink()
        return True
    with suppress(OSError):
        for entry in os.scandir(path.parent):
            if is_temp_file(entry.name) and entry.inode() == inode and entry.is_file(follow_symlinks=False):
                os.replace(entry.path, path)
                return True
    return False
