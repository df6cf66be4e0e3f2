"""Locked, crash-safe, recorded writes to the files of one home.

Four guarantees the reference implementation lacks live here, and only here:

* No lost updates: every read-modify-write holds ``flock`` on the home
  directory itself, shared by every process that uses the core. Locking the
  directory, not a lock file, means a call that fails leaves no trace; a call
  that fails half-way removes the files and folders it had created.
* Crash safety: a rewrite goes to a temp file in the same directory, is
  fsynced and then ``os.replace``d over the original. An append first records
  its intent (file, size before, size after) in ``.memory.journal``; a writer
  killed mid-append is undone by the next writer, and readers that go through
  :func:`..home.reading.consistent_reads` stop at the size before. Either way a killed writer
  leaves each file as it was before the action or as it is after it. A temp
  file a killed writer left (``.persona-notebook-….tmp``: hidden, no ``.md``,
  no bootstrap name in it, so no glob or host takes it for content) is removed
  by the next writer.
* Every write is recorded (:mod:`.recording`): the journal's slot 0 names
  where the write's record begins in the event log before the record is
  written, and the record is written before the file. The next writer keeps
  the record when the write landed and drops it when it did not, so after a
  kill at any point the history agrees with the files.
* Never outside the home: the only paths written are bootstrap files, their
  temp files, the journal and ``.notebook/``, all inside the home. A file that
  is a symbolic link is refused, never followed and never replaced.

What readers need of these guarantees (the lock taken shared, the write in
flight, the bookkeeping names) lives in :mod:`..home.reading`: opening or viewing
a home loads none of this write path.
"""

from __future__ import annotations

import hashlib
import os
import stat
from collections.abc import Iterator
from contextlib import AbstractContextManager, contextmanager, suppress
from pathlib import Path
from typing import NamedTuple

from notebook_app.core.fs.atomic import remove_matching, write_all
from notebook_app.core.fs.atomic import (
    remove_temps as remove_temps,  # re-exported: callers outside the core import it from here
)
from notebook_app.core.fs.atomic import write_atomically as write_atomically  # re-exported, as remove_temps
from notebook_app.core.fs.home_pin import HomeRefused, home_lock
from notebook_app.core.home.files import FileRead, FileStatus, read_file
from notebook_app.core.home.layout import FLAT, FileMap
from notebook_app.core.home.names import ARCHIVE_FOLDERS
from notebook_app.core.home.reading import JOURNAL_NAME, MEMORY_TARGETS, SLOT, Intent, consistent_reads, is_temp_file
from notebook_app.core.home.reading import (
    is_scratch_file as is_scratch_file,  # the read half, re-exported for callers that write
)
from notebook_app.core.home.refusals import Rejection, file_refusal, utf8_refusal
from notebook_app.core.record.log.actor import LIBRARY, Actor
from notebook_app.core.record.log.append_record import append_line
from notebook_app.core.record.log.events import ABSENT, FileState, Hunk, Payload, now
from notebook_app.core.record.log.replay import append_span
from notebook_app.core.record.git.commit import commit_after
from notebook_app.core.record.journal import ALL_SLOTS, stat_key, write_slot
from notebook_app.core.record.places import PlaceRefused, folder_for, host_lock, read_only_refusal
from notebook_app.core.record.recording import EVENT_COST, Change, Known, Recorder
from notebook_app.core.record.recovery import recover
from notebook_app.core.record.writes import RecordedWrites, is_utf8

_TAIL_BYTES = 64
_READ_TRIES = 5

__all__ = [
    "JOURNAL_NAME",
    "MEMORY_TARGETS",
    "Change",
    "FileEnd",
    "LockedHome",
    "StorageError",
    "consistent_reads",
    "locked_home",
]


class StorageError(Exception):
    """A write that cannot go ahead; the message is shown to the caller as is."""


class FileEnd(NamedTuple):
    text: str | None
    """The file's last line or so (None: absent); enough to plan an add."""
    size: int
    """Bytes in the whole file."""


def _refuse_words(words: str | None) -> None:
    if words is not None:
        raise StorageError(words)


def _refuse(rejection: Rejection | None) -> None:
    if rejection is not None:
        raise StorageError(rejection.message)


class LockedHome(RecordedWrites):
    """Write access to one home's files while its lock is held; every write is recorded as ``by``."""

    def __init__(self, home: Path, *, durable: bool, by: Actor = LIBRARY, files: FileMap = FLAT) -> None:
        self.home = home
        self.files = files
        """Where the home's files are and whose home it is (:mod:`..home.layout`)."""
        self._durable = durable
        self.created: list[Path] = []
        """Files and folders this call created: removed again if the call fails."""
        self._journal_fd: int | None = None
        self._ends: dict[str, tuple[int, bool]] = {}
        self._paths: dict[str, Path] = {}
        """For a file whose end was read: its size then, and whether it ended a line."""
        self.recorder = Recorder(home, self._journal, by=by, durable=durable, made=self.created, slots=self.slots)

    @property
    def unrecorded(self) -> str | None:
        """Why this call's write is not in the history (None when it is, or nothing was written)."""
        return self.recorder.unrecorded

    def close(self) -> None:
        self.recorder.close()
        if self._journal_fd is not None:
            os.close(self._journal_fd)
            self._journal_fd = None

    def path(self, name: str) -> Path:
        """``home/name``, made once per call (pathlib is slow, and an add asks three times)."""
        path = self._paths.get(name)
        if path is None:
            path = self._paths[name] = self.home / name
        return path

    def folder_of(self, name: str) -> Path:
        """The folder ``name`` is written in (:func:`.places.folder_for`); what it makes is removed on failure.

        Every write asks this first, so a file the host's profile marks
        read-only is refused here, for every writer alike.
        """
        _refuse_words(read_only_refusal(self.files, name))
        try:
            return folder_for(self.home, name, self.created)
        except PlaceRefused as refused:
            raise StorageError(str(refused)) from None

    def host_lock(self, name: str, *, make: bool = True) -> AbstractContextManager[None]:
        """The home's host's own lock on ``name``, taken inside ours (:func:`.places.host_lock`)."""
        return host_lock(self.files, name, self.folder_of, lambda n: self.path(n).parent.is_dir(), make=make)

    def slots(self) -> bytes:
        """Every slot of the journal, read through the descriptor writes will use; empty when there is none."""
        if self._journal_fd is None:
            try:
                fd = os.open(
                    os.path.join(self.home, JOURNAL_NAME), os.O_RDWR | os.O_NOFOLLOW | os.O_NONBLOCK | os.O_CLOEXEC
                )
            except OSError:
                return b""
            if not stat.S_ISREG(os.fstat(fd).st_mode):
                os.close(fd)
                return b""
            self._journal_fd = fd
        return os.pread(self._journal_fd, ALL_SLOTS, 0)

    def _journal(self) -> int:
        if self._journal_fd is None:
            fd = self._open(JOURNAL_NAME, os.O_RDWR)
            if not stat.S_ISREG(os.fstat(fd).st_mode):
                os.close(fd)
                raise StorageError(f"{JOURNAL_NAME} in {self.home} is not a regular file; nothing was written")
            self._journal_fd = fd
        return self._journal_fd

    def probe(self, name: str) -> FileRead:
        """What ``name`` is (status, size, stat key), none of its bytes; refuse links and non-files."""
        read = read_file(self.path(name), limit=0)
        _refuse(file_refusal(read))
        return read

    def read_whole(self, name: str) -> FileRead:
        """Every byte of ``name``, UTF-8 or not; refuse links, non-regular files and unreadable ones.

        The history compares it with what the log last left (an outside change is recorded with the next write).
        """
        path = self.home / name
        read = self.probe(name)
        for _ in range(_READ_TRIES):
            if read.complete:
                exists = read.status is not FileStatus.ABSENT
                self.recorder.saw(name, read.stat_key if exists else None, read.data if exists else None)
                return read
            read = read_file(path, limit=read.size + 1)  # one byte more shows that nothing followed
            _refuse(file_refusal(read))
        raise StorageError(f"{name} kept growing while it was read; nothing was written")

    def read_text(self, name: str) -> str | None:
        """The whole text of ``name``, None when absent; refuse what cannot be edited."""
        read = self.read_whole(name)
        if read.status is FileStatus.ABSENT:
            return None
        _refuse(utf8_refusal(name, read.data))
        return read.data.decode("utf-8")

    def read_end(self, name: str) -> FileEnd:
        """The end of ``name``'s text: its last line ending and what follows it.

        All an add depends on, read in constant time: the whole file is read,
        to check it is UTF-8 (and to record an outside change), only when it
        is not as the log last left it (its inode, size and mtime differ).
        """
        read = self.probe(name)
        key = read.stat_key if read.status is FileStatus.REGULAR else None
        self.recorder.writer()  # an add writes: its log, opened now, also says which log the slots describe
        if not self.recorder.unchanged(name, key):
            self.read_text(name)  # changed since the core last left it: check all of it
        if read.status is FileStatus.ABSENT:
            return FileEnd(None, 0)
        tail, start = _last_line(self.path(name), read.size)
        _refuse(utf8_refusal(name, tail, offset=start))
        self._ends[name] = (read.size, tail.endswith(b"\n") or not tail)
        return FileEnd(tail.decode("utf-8"), read.size)

    def append(self, name: str, data: bytes, *, validated: bool, change: Change) -> None:
        """Append ``data`` to a file, journalled so that a killed writer is undone, and record it.

        ``validated``: the file was UTF-8 before and ``data`` is, so the next
        add may skip the full check.
        """
        known = self._know(name)
        journal = self._journal()
        writer = self.recorder.writer()
        fd = self._open(name, os.O_RDWR | os.O_APPEND)
        try:
            info = os.fstat(fd)
            before = info.st_size
            existed = known.key is not None
            seen = self._ends.get(name)
            ends_with_newline = (
                seen[1]
                if seen is not None and seen[0] == before
                else before == 0 or os.pread(fd, 1, before - 1) == b"\n"
            )
            record = b""
            intent = Intent("append", name, None, before, before + len(data))
            if writer is not None:
                record, event_id, lines = self._append_record(name, data, change, known, info, ends_with_newline)
                intent = Intent("append", name, writer.size(), before, before + len(data), absent=not existed)
            write_slot(journal, intent.text())
            try:
                if writer is not None:
                    writer.append(record)
                write_all(fd, data)
                if self._durable:
                    os.fsync(fd)
            except BaseException:
                with suppress(OSError):  # take back what part of it landed, then say why
                    os.ftruncate(fd, before)
                    if writer is not None and intent.log is not None:
                        writer.truncate(intent.log)
                    write_slot(journal, "")
                raise
            with suppress(OSError):  # the bytes and their record are whole: a stale slot costs one full read
                if writer is not None:
                    utf8 = validated or (known.utf8 and is_utf8(data))
                    self.recorder.wrote(
                        name, event_id, lines, key=stat_key(os.fstat(fd)), utf8=utf8, content=None, done=True
                    )
                else:
                    write_slot(journal, "")
        finally:
            os.close(fd)

    def _append_record(
        self, name: str, data: bytes, change: Change, known: Known, info: os.stat_result, ends_with_newline: bool
    ) -> tuple[bytes, str, int]:
        """The record of an append (the lines to log), its id, and the file's line count after it."""
        before_size = info.st_size
        span = append_span(known.lines, ends_with_newline, data)
        before = FileState(True, before_size, known.lines, key=stat_key(info)) if known.key is not None else ABSENT
        after = FileState(True, before_size + len(data), known.lines - span[1] + span[2])
        appended = hashlib.sha256(data).hexdigest()
        if not change.extra and self.recorder.plain_append(name, data):  # the fast line has no extra fields
            event_id = self.recorder.next_id(change.action, known.cost + EVENT_COST + len(data))
            line = append_line(
                event_id=event_id,
                time=now().isoformat(),
                file=name,
                action=change.action,
                by=self.recorder.by,
                span=span,
                args=change.args,
                output=change.output,
                before=before,
                after=after,
                appended=appended,
                at=before_size,
                inserted=data,
            )
            if line is not None:
                return line, event_id, after.lines
        edit = (Hunk(before_size, Payload.of(b""), Payload.of(data), *span),)
        events = self.recorder.events_for(name, change, edit=edit, before=before, after=after, appended=appended)
        return b"".join(event.line() for event in events), events[-1].id, after.lines

    def _know(self, name: str, *, whole: bool = False) -> Known:
        """What the recorder knows of ``name`` (reading it whole if it must, or if ``whole``)."""
        known = self.recorder.known(name)
        if known is None or (whole and not known.whole):
            read = self.probe(name)
            key = read.stat_key if read.status is FileStatus.REGULAR else None
            if whole or not self.recorder.unchanged(name, key, need_utf8=False):
                self.read_whole(name)
            known = self.recorder.known(name)
        assert known is not None
        return known

    def _open(self, name: str, flags: int) -> int:
        """Open ``name`` in the home, never through a link; remember it if this made it."""
        path = self.path(name)
        self.folder_of(name)  # a read-only file refused; a link there refused, a missing folder made
        try:
            return os.open(path, flags | os.O_NOFOLLOW | os.O_CLOEXEC)
        except FileNotFoundError:
            fd = os.open(path, flags | os.O_CREAT | os.O_EXCL | os.O_NOFOLLOW | os.O_CLOEXEC, 0o644)
            self.created.append(path)
            return fd


@contextmanager
def locked_home(
    home: Path, *, create: bool, durable: bool = True, by: Actor = LIBRARY, files: FileMap = FLAT
) -> Iterator[LockedHome]:
    """Hold the home's write lock (:func:`..fs.home_pin.home_lock`, the
    pin checked); make the home first when ``create``.

    A missing home that is not to be created yields a view with nothing in it,
    so a replace or remove there is a plain miss; one this process pinned
    when it was there is refused instead, as moved or removed. If the body
    raises, every file and folder this call created is removed again: a
    failed call leaves nothing behind.
    """
    try:
        with home_lock(home, create=create) as held:
            if not held:
                yield LockedHome(home, durable=durable, by=by, files=files)
                return
            locked = LockedHome(home, durable=durable, by=by, files=files)
            recover(home, locked.slots()[:SLOT])
            remove_matching(home, is_temp_file)
            for folder in sorted({*files.subfolders, *ARCHIVE_FOLDERS}):  # and where a killed tidy's archive was
                _remove_temps_in(home / folder)
            try:
                yield locked
            except BaseException:
                locked.close()
                for path in reversed(locked.created):
                    with suppress(OSError):
                        path.rmdir() if path.is_dir() and not path.is_symlink() else path.unlink()
                raise
            locked.close()
            commit_after(home, locked.recorder.changed, locked.recorder.by)  # git on: after durable, under the lock
    except HomeRefused as refused:
        raise StorageError(str(refused)) from None


def _remove_temps_in(folder: Path) -> None:
    """Our temp files a killed rewrite left in a subfolder (never Hermes's own ``.mem_*.tmp``)."""
    try:
        info = folder.lstat()
    except OSError:
        return
    if stat.S_ISDIR(info.st_mode):
        remove_matching(folder, is_temp_file)


def _last_line(path: Path, size: int) -> tuple[bytes, int]:
    """The bytes from before the file's last line ending to its end, and where they start.

    64 bytes hold that for nearly every file; only a last line that is longer
    and has no newline of its own is read back to where it begins. The window
    always shows the byte before that line ending, so CRLF is seen as CRLF.
    """
    fd = os.open(path, os.O_RDONLY | os.O_NOFOLLOW | os.O_NONBLOCK | os.O_CLOEXEC)
    try:
        want = _TAIL_BYTES
        while True:
            start = max(0, size - want)
            window = os.pread(fd, size - start, start)
            if start == 0 or window.rfind(b"\n") >= 1:
                break
            want *= 4
    finally:
        os.close(fd)
    skip = 0
    while start and skip < len(window) and window[skip] & 0b1100_0000 == 0b1000_0000:
        skip += 1  # the window's start fell inside a character: begin after it
    return window[skip:], start + skip
