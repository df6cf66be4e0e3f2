"""Locked, crash-safe writes to the memory files of one home.

Three guarantees the reference implementation lacks live here, and only here:

* No lost updates: every read-modify-write holds ``flock`` on the home
  directory itself, shared by every process that uses the core. Locking the
  directory, not a lock file, means a call that fails leaves no trace.
* Crash safety: a rewrite goes to a temp file in the same directory, is
  fsynced and then ``os.replace``d over the original. An append first records
  its intent (file, size before, size after) in ``.memory.journal``; a writer
  killed mid-append is undone by the next writer, and readers that go through
  :func:`consistent_reads` stop at the size before. Either way a killed writer
  leaves each file as it was before the action or as it is after it.
* Never outside the home: the only paths written are the two memory files,
  their temp files and the journal, all directly in the home. A memory file
  that is a symbolic link is refused, never followed and never replaced.
"""

from __future__ import annotations

import errno
import fcntl
import os
import stat
import tempfile
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

MEMORY_TARGETS: dict[str, str] = {"self": "MEMORY.md", "user": "USER.md"}
"""The memory tool's targets and the only files it ever writes."""

JOURNAL_NAME = ".memory.journal"
_TEMP_PREFIX = ".memory-tmp-"
_JOURNAL_SIZE = 128  # the journal holds fixed-size records:
# at 0 the append in progress, if any; then, per memory file, the stat of the
# file as this core last left it, known to be UTF-8.
_VALID_SLOTS = {name: _JOURNAL_SIZE * (i + 1) for i, name in enumerate(MEMORY_TARGETS.values())}
_TAIL_BYTES = 64


def is_scratch_file(name: str) -> bool:
    """The journal and temp files: bookkeeping, never content to show or watch."""
    return name == JOURNAL_NAME or name.startswith(_TEMP_PREFIX)


class StorageError(Exception):
    """A write that cannot go ahead; the message is shown to the caller as is."""


class LockedHome:
    """Write access to one home's memory files while its lock is held."""

    def __init__(self, home: Path, *, durable: bool) -> None:
        self.home = home
        self._durable = durable

    def read(self, name: str) -> str | None:
        """The text of a memory file, None when absent; refuse what we cannot edit."""
        info = self._editable(name)
        if info is None:
            return None
        return _decode(name, (self.home / name).read_bytes())

    def read_end(self, name: str) -> str | None:
        """The end of a memory file's text (its last line or so), None when absent.

        All an add depends on, read in constant time: the whole file is read,
        to check it is UTF-8, only when it changed since this core last wrote
        it (its inode, size and mtime differ from the journal's record).
        """
        info = self._editable(name)
        if info is None:
            return None
        path = self.home / name
        if _validated_stat(self.home, name) != _stat_key(info):
            _decode(name, path.read_bytes())
        with open(path, "rb") as handle:
            handle.seek(max(0, info.st_size - _TAIL_BYTES))
            tail = handle.read(_TAIL_BYTES)
        while tail and tail[0] & 0b1100_0000 == 0b1000_0000:
            tail = tail[1:]  # the cut fell inside a character: start after it
        return _decode(name, tail)

    def _editable(self, name: str) -> os.stat_result | None:
        path = self.home / name
        try:
            info = path.lstat()
        except FileNotFoundError:
            return None
        if stat.S_ISLNK(info.st_mode):
            raise StorageError(
                f"{name} is a symbolic link (to {os.readlink(path)}); the memory tool edits only "
                "regular files inside the home, so nothing was written"
            )
        if not stat.S_ISREG(info.st_mode):
            raise StorageError(f"{name} is not a regular file; nothing was written")
        return info

    def append(self, name: str, text: str) -> None:
        """Append ``text``, journalled so that a killed writer is undone."""
        assert name in MEMORY_TARGETS.values()
        data = text.encode("utf-8")
        journal = _open_journal(self.home)
        try:
            fd = os.open(self.home / name, os.O_WRONLY | os.O_APPEND | os.O_CREAT | os.O_NOFOLLOW | os.O_CLOEXEC, 0o644)
            try:
                before = os.fstat(fd).st_size
                _write_journal(journal, f"append {name} {before} {before + len(data)}")
                write_all(fd, data)
                if self._durable:
                    os.fsync(fd)
                _write_journal(journal, "")
                _write_journal(journal, f"valid {name} {_stat_key(os.fstat(fd))}", _VALID_SLOTS[name])
            finally:
                os.close(fd)
        finally:
            os.close(journal)

    def rewrite(self, name: str, text: str) -> None:
        """Replace a memory file's content atomically, keeping its permissions."""
        assert name in MEMORY_TARGETS.values()
        path = self.home / name
        try:
            mode = stat.S_IMODE(path.lstat().st_mode)
        except FileNotFoundError:
            mode = 0o644
        write_atomically(
            self.home, name, text.encode("utf-8"), mode=mode, temp_prefix=f"{_TEMP_PREFIX}{name}-", durable=self._durable
        )
        journal = _open_journal(self.home)
        try:
            _write_journal(journal, f"valid {name} {_stat_key(path.lstat())}", _VALID_SLOTS[name])
        finally:
            os.close(journal)


@contextmanager
def locked_home(home: Path, *, create: bool, durable: bool = True) -> Iterator[LockedHome]:
    """Hold the home's write lock; make the home first when ``create``.

    A missing home that is not to be created yields a view with nothing in it,
    so a replace or remove there is a plain miss.
    """
    if home.exists() and not home.is_dir():
        raise StorageError(f"home is not a directory: {home}")
    if not home.exists():
        if not create:
            yield LockedHome(home, durable=durable)
            return
        home.mkdir(parents=True, exist_ok=True)
    with flocked_directory(home):
        _recover(home)
        remove_temps(home, _TEMP_PREFIX)
        yield LockedHome(home, durable=durable)


@contextmanager
def consistent_reads(home: Path) -> Iterator[dict[str, int]]:
    """Hold the home's lock shared while reading its files.

    No writer is mid-action while this is held, so reads are never torn. It
    yields, for a file that a killed writer left mid-append, how many bytes
    were there before that append: read no further, and the reader sees the
    file as it was before the action even before the next writer repairs it.
    Do not call it while holding :func:`locked_home` in the same process.
    """
    if not home.is_dir():
        yield {}  # no home: nothing can be mid-write
        return
    with flocked_directory(home, shared=True):
        pending = _pending_append(home)
        yield {pending[0]: pending[1]} if pending else {}


def _pending_append(home: Path) -> tuple[str, int, int] | None:
    """The journal's record of an unfinished append: file, size before, size after."""
    try:
        with open(home / JOURNAL_NAME, "rb") as journal:
            raw = journal.read(_JOURNAL_SIZE)
    except OSError:
        return None
    record = raw.decode("ascii", errors="replace").split()
    if len(record) != 4 or record[0] != "append" or record[1] not in MEMORY_TARGETS.values():
        return None
    try:
        return record[1], int(record[2]), int(record[3])
    except ValueError:
        return None


def _open_journal(home: Path) -> int:
    return os.open(home / JOURNAL_NAME, os.O_RDWR | os.O_CREAT | os.O_NOFOLLOW | os.O_CLOEXEC, 0o644)


def _write_journal(journal_fd: int, record: str, offset: int = 0) -> None:
    """One small pwrite within a page: a process kill cannot cut it in two."""
    os.pwrite(journal_fd, record.encode("ascii").ljust(_JOURNAL_SIZE, b" "), offset)


def _stat_key(info: os.stat_result) -> str:
    return f"{info.st_ino} {info.st_size} {info.st_mtime_ns}"


def _validated_stat(home: Path, name: str) -> str | None:
    """The stat this core recorded when it last left ``name`` as valid UTF-8."""
    try:
        with open(home / JOURNAL_NAME, "rb") as journal:
            journal.seek(_VALID_SLOTS[name])
            record = journal.read(_JOURNAL_SIZE).decode("ascii", errors="replace").split()
    except OSError:
        return None
    return " ".join(record[2:]) if record[:2] == ["valid", name] else None


def _decode(name: str, data: bytes) -> str:
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError as error:
        raise StorageError(
            f"{name} is not valid UTF-8 (byte 0x{data[error.start]:02x} at offset {error.start}); "
            "fix or remove the file first, nothing was written"
        ) from None


def _recover(home: Path) -> None:
    """Undo an append its writer did not live to finish."""
    pending = _pending_append(home)
    if pending is None:
        return
    name, before, after = pending
    path = home / name
    with _ignore_missing():
        size = path.lstat().st_size
        if before < size < after and not path.is_symlink():
            os.truncate(path, before)
    journal = _open_journal(home)
    try:
        _write_journal(journal, "")
    finally:
        os.close(journal)


@contextmanager
def flocked_directory(path: Path, *, shared: bool = False) -> Iterator[None]:
    """Hold ``flock`` on a directory: the lock all writers of its files share."""
    fd = os.open(path, os.O_RDONLY | os.O_DIRECTORY | os.O_CLOEXEC)
    try:
        fcntl.flock(fd, fcntl.LOCK_SH if shared else fcntl.LOCK_EX)
        yield
    finally:
        os.close(fd)  # closing releases the flock


def write_atomically(
    folder: Path, name: str, data: bytes, *, mode: int = 0o644, temp_prefix: str, durable: bool = True
) -> None:
    """Replace ``folder/name`` with ``data``: readers see all of it or none of it.

    The temp file sits in the same folder (so the rename is atomic) under
    ``temp_prefix``; call with the folder's lock held, so :func:`remove_temps`
    can clear what a killed writer left.
    """
    fd, temp = tempfile.mkstemp(prefix=temp_prefix, dir=folder)
    try:
        with os.fdopen(fd, "wb") as handle:
            handle.write(data)
            handle.flush()
            os.fchmod(handle.fileno(), mode)
            if durable:
                os.fsync(handle.fileno())
        os.replace(temp, folder / name)
    except BaseException:
        with _ignore_missing():
            os.unlink(temp)
        raise
    if durable:
        directory = os.open(folder, os.O_RDONLY | os.O_DIRECTORY | os.O_CLOEXEC)
        try:
            os.fsync(directory)
        finally:
            os.close(directory)


def write_all(fd: int, data: bytes) -> None:
    """``os.write`` until every byte is out: a write may take only part."""
    view = memoryview(data)
    while view:
        view = view[os.write(fd, view) :]


def remove_temps(folder: Path, prefix: str) -> None:
    """Temp files seen under the folder's lock belong to writers that were killed."""
    for entry in os.scandir(folder):
        if entry.name.startswith(prefix):
            with _ignore_missing():
                os.unlink(entry.path)


@contextmanager
def _ignore_missing() -> Iterator[None]:
    try:
        yield
    except OSError as error:
        if error.errno != errno.ENOENT:
            raise
