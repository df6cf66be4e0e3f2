"""Locked, crash-safe writes to the files of one home.

Three guarantees the reference implementation lacks live here, and only here:

* No lost updates: every read-modify-write holds ``flock`` on the home
  directory itself, shared by every process that uses the core. Locking the
  directory, not a lock file, means a call that fails leaves no trace; a call
  that fails half-way removes the files and folders it had created.
* Crash safety: a rewrite goes to a temp file in the same directory, is
  fsynced and then ``os.replace``d over the original. An append first records
  its intent (file, size before, size after) in ``.memory.journal``; a writer
  killed mid-append is undone by the next writer, and readers that go through
  :func:`consistent_reads` stop at the size before. Either way a killed writer
  leaves each file as it was before the action or as it is after it. A temp
  file a killed writer left (``.persona-notebook-….tmp``: hidden, no ``.md``,
  no bootstrap name in it, so no glob or host takes it for content) is removed
  by the next writer.
* Never outside the home: the only paths written are bootstrap files, their
  temp files and the journal, all directly in the home. A file that is a
  symbolic link is refused, never followed and never replaced.
"""

from __future__ import annotations

import errno
import os
import stat
from collections.abc import Iterator
from contextlib import contextmanager, suppress
from pathlib import Path
from typing import NamedTuple

from .atomic import flocked_directory, remove_matching, write_all, write_atomically
from .atomic import remove_temps  # noqa: F401  (callers outside the core import it from here)
from .files import FileRead, FileStatus, read_file
from .refusals import Rejection, file_refusal, utf8_refusal

MEMORY_TARGETS: dict[str, str] = {"self": "MEMORY.md", "user": "USER.md"}
"""The memory tool's targets and the only files it ever writes."""

JOURNAL_NAME = ".memory.journal"
TEMP_PREFIX = ".persona-notebook-"
TEMP_SUFFIX = ".tmp"
_OLD_TEMP_PREFIX = ".memory-tmp-"  # what earlier versions named them; still cleared
_JOURNAL_SIZE = 128  # the journal holds fixed-size records:
# at 0 the append in progress, if any; then, per memory file, the stat of the
# file as this core last left it, known to be UTF-8.
_VALID_SLOTS = {name: _JOURNAL_SIZE * (i + 1) for i, name in enumerate(MEMORY_TARGETS.values())}
_TAIL_BYTES = 64
_READ_TRIES = 5


def is_temp_file(name: str) -> bool:
    """A temp file of a rewrite: whole only once renamed, removed by the next writer."""
    return (name.startswith(TEMP_PREFIX) and name.endswith(TEMP_SUFFIX)) or name.startswith(_OLD_TEMP_PREFIX)


def is_scratch_file(name: str) -> bool:
    """The journal and temp files: bookkeeping, never content to show or watch."""
    return name == JOURNAL_NAME or is_temp_file(name)


class StorageError(Exception):
    """A write that cannot go ahead; the message is shown to the caller as is."""


class FileEnd(NamedTuple):
    text: str | None
    """The file's last line or so (None: absent); enough to plan an add."""
    size: int
    """Bytes in the whole file."""


def _refuse(rejection: Rejection | None) -> None:
    if rejection is not None:
        raise StorageError(rejection.message)


class LockedHome:
    """Write access to one home's files while its lock is held."""

    def __init__(self, home: Path, *, durable: bool) -> None:
        self.home = home
        self._durable = durable
        self.created: list[Path] = []
        """Files this call created: removed again if the call fails."""

    def probe(self, name: str) -> FileRead:
        """What ``name`` is (status, size, stat key), none of its bytes; refuse links and non-files."""
        read = read_file(self.home / name, limit=0)
        _refuse(file_refusal(read))
        return read

    def read_whole(self, name: str) -> FileRead:
        """Every byte of ``name``, UTF-8 or not; refuse links, non-regular files and unreadable ones."""
        path = self.home / name
        read = self.probe(name)
        for _ in range(_READ_TRIES):
            if read.complete:
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
        to check it is UTF-8, only when it changed since this core last wrote
        it (its inode, size and mtime differ from the journal's record).
        """
        read = self.probe(name)
        if read.status is FileStatus.ABSENT:
            return FileEnd(None, 0)
        if _validated_stat(self.home, name) != _key_text(read.stat_key):
            self.read_text(name)  # changed since the core last left it UTF-8: check all of it
        tail, start = _last_line(self.home / name, read.size)
        _refuse(utf8_refusal(name, tail, offset=start))
        return FileEnd(tail.decode("utf-8"), read.size)

    def append(self, name: str, data: bytes, *, validated: bool) -> None:
        """Append ``data`` to a memory file, journalled so that a killed writer is undone.

        ``validated``: the file was UTF-8 before and ``data`` is, so the
        journal may record it as such and the next add skips the full check.
        """
        assert name in _VALID_SLOTS
        journal = self._open(JOURNAL_NAME, os.O_RDWR)
        try:
            fd = self._open(name, os.O_WRONLY | os.O_APPEND)
            try:
                before = os.fstat(fd).st_size
                _write_journal(journal, f"append {name} {before} {before + len(data)}")
                try:
                    write_all(fd, data)
                    if self._durable:
                        os.fsync(fd)
                except BaseException:
                    with suppress(OSError):  # take back what part of it landed, then say why
                        os.ftruncate(fd, before)
                        _write_journal(journal, "")
                    raise
                with suppress(OSError):  # the bytes are whole: a stale intent or record is harmless
                    _write_journal(journal, "")
                    if validated:
                        _write_journal(journal, f"valid {name} {_key_text(_stat_key(os.fstat(fd)))}", _VALID_SLOTS[name])
            finally:
                os.close(fd)
        finally:
            os.close(journal)

    def rewrite(self, name: str, data: bytes, *, validated: bool) -> None:
        """Replace a file's content atomically, keeping its permissions."""
        assert "/" not in name
        path = self.home / name
        journal = self._open(JOURNAL_NAME, os.O_RDWR) if validated and name in _VALID_SLOTS else None
        try:
            try:
                mode = stat.S_IMODE(path.lstat().st_mode)
            except FileNotFoundError:
                mode = 0o644
            existed = path.exists()
            if existed and not os.access(path, os.W_OK, effective_ids=os.access in os.supports_effective_ids):
                # renaming over it would bypass its mode: refuse as an append to it is refused
                raise PermissionError(errno.EACCES, os.strerror(errno.EACCES), str(path))
            write_atomically(
                self.home, name, data, mode=mode, temp_prefix=TEMP_PREFIX, temp_suffix=TEMP_SUFFIX, durable=self._durable
            )
            if not existed:
                self.created.append(path)
            if journal is not None:
                with suppress(OSError):  # the file is whole: a missing record costs one full check
                    _write_journal(journal, f"valid {name} {_key_text(_stat_key(path.lstat()))}", _VALID_SLOTS[name])
        finally:
            if journal is not None:
                os.close(journal)

    def _open(self, name: str, flags: int) -> int:
        """Open ``name`` in the home, never through a link; remember it if this made it."""
        path = self.home / name
        try:
            return os.open(path, flags | os.O_NOFOLLOW | os.O_CLOEXEC)
        except FileNotFoundError:
            fd = os.open(path, flags | os.O_CREAT | os.O_EXCL | os.O_NOFOLLOW | os.O_CLOEXEC, 0o644)
            self.created.append(path)
            return fd


@contextmanager
def locked_home(home: Path, *, create: bool, durable: bool = True) -> Iterator[LockedHome]:
    """Hold the home's write lock; make the home first when ``create``.

    A missing home that is not to be created yields a view with nothing in it,
    so a replace or remove there is a plain miss. If the body raises, every
    file and folder this call created is removed again: a failed call leaves
    nothing behind.
    """
    if home.exists() and not home.is_dir():
        raise StorageError(f"home is not a directory: {home}")
    if not home.exists() and not create:
        yield LockedHome(home, durable=durable)
        return
    made = _make_folders(home)
    try:
        with flocked_directory(home):
            _recover(home)
            remove_matching(home, is_temp_file)
            locked = LockedHome(home, durable=durable)
            try:
                yield locked
            except BaseException:
                for path in reversed(locked.created):
                    with suppress(OSError):
                        path.unlink()
                raise
    except BaseException:
        for folder in reversed(made):
            with suppress(OSError):
                folder.rmdir()
        raise


def _make_folders(path: Path) -> list[Path]:
    """Make ``path`` and its missing parents; the folders made, outermost first."""
    missing = []
    while not path.exists():
        missing.append(path)
        path = path.parent
    made: list[Path] = []
    try:
        for folder in reversed(missing):
            folder.mkdir()
            made.append(folder)
    except BaseException:
        for folder in reversed(made):
            with suppress(OSError):
                folder.rmdir()
        raise
    return made


@contextmanager
def consistent_reads(home: Path) -> Iterator[dict[str, int]]:
    """Hold the home's lock shared while reading its files.

    No writer is mid-action while this is held, so reads are never torn. It
    yields, for a file that a killed writer left cut inside an append, how
    many bytes were there before that append: read no further, and the reader
    sees the file as it was before the action, as the next writer will leave
    it. Do not call it while holding :func:`locked_home` in the same process.
    """
    if not home.is_dir():
        yield {}  # no home: nothing can be mid-write
        return
    with flocked_directory(home, shared=True):
        torn = _torn_append(home)
        yield {torn[0]: torn[1]} if torn else {}


def _read_journal(home: Path, offset: int) -> bytes | None:
    """One journal record, or None; a journal that is not a regular file (a FIFO, a link) is never read."""
    try:
        fd = os.open(home / JOURNAL_NAME, os.O_RDONLY | os.O_NONBLOCK | os.O_NOFOLLOW | os.O_CLOEXEC)
    except OSError:
        return None
    try:
        if not stat.S_ISREG(os.fstat(fd).st_mode):
            return None
        return os.pread(fd, _JOURNAL_SIZE, offset)
    except OSError:
        return None
    finally:
        os.close(fd)


def _pending_append(home: Path) -> tuple[str, int, int] | None:
    """The journal's record of an unfinished append: file, size before, size after."""
    raw = _read_journal(home, 0)
    if raw is None:
        return None
    record = raw.decode("ascii", errors="replace").split()
    if len(record) != 4 or record[0] != "append" or record[1] not in _VALID_SLOTS:
        return None
    try:
        return record[1], int(record[2]), int(record[3])
    except ValueError:
        return None


def _torn_append(home: Path) -> tuple[str, int] | None:
    """A file a killed writer left with part of an append: its name and size before.

    None when the append left no byte, or all of them (then it is whole).
    """
    pending = _pending_append(home)
    if pending is None:
        return None
    name, before, after = pending
    try:
        info = (home / name).lstat()
    except OSError:
        return None
    return (name, before) if stat.S_ISREG(info.st_mode) and before < info.st_size < after else None


def _recover(home: Path) -> None:
    """Undo an append its writer did not live to finish, and clear its intent."""
    if _pending_append(home) is None:
        return
    torn = _torn_append(home)
    if torn is not None:
        os.truncate(home / torn[0], torn[1])
    journal = os.open(home / JOURNAL_NAME, os.O_RDWR | os.O_NOFOLLOW | os.O_CLOEXEC)
    try:
        _write_journal(journal, "")
    finally:
        os.close(journal)


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


def _write_journal(journal_fd: int, record: str, offset: int = 0) -> None:
    """One small pwrite within a page: a process kill cannot cut it in two."""
    os.pwrite(journal_fd, record.encode("ascii").ljust(_JOURNAL_SIZE, b" "), offset)


def _stat_key(info: os.stat_result) -> tuple[int, int, int]:
    return info.st_ino, info.st_size, info.st_mtime_ns


def _key_text(key: tuple[int, int, int] | None) -> str:
    return " ".join(map(str, key)) if key else ""


def _validated_stat(home: Path, name: str) -> str | None:
    """The stat this core recorded when it last left ``name`` as valid UTF-8."""
    raw = _read_journal(home, _VALID_SLOTS[name])
    if raw is None:
        return None
    record = raw.decode("ascii", errors="replace").split()
    return " ".join(record[2:]) if record[:2] == ["valid", name] else None
