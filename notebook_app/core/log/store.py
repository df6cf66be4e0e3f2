"""The event log's file, ``.notebook/events.jsonl``: appended under the home's lock, read by anyone.

The first line is a header (format, version and the log's own random id);
every other line is one :class:`~.events.Event`. Only a writer holding the
home's lock appends; a line a killed writer left unfinished is cut by the
next one, and a record whose write did not land is dropped by it (see
:mod:`..store.recording`). Readers take no lock: they read backwards from the end
for "the newest N" (cost independent of the log's length) or forwards for a
file's whole story, never follow a link, never block on a FIFO, and leave
out a record whose write is still in flight and has not landed.
"""

from __future__ import annotations

import os
import secrets
import stat
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

from notebook_app.core.fs.state_dir import STATE_DIR, StateDirError, readable_state, real_directory
from notebook_app.core.home.reading import Intent, read_intent
from notebook_app.core.record.log.events import Event, EventError
from notebook_app.core.record.log.json_lines import header_line, parse_header

LOG_NAME = "events.jsonl"
LOG_PATH = f"{STATE_DIR}/{LOG_NAME}"
_CHUNK = 1 << 16


def log_path(home: Path) -> Path:
    return home / STATE_DIR / LOG_NAME


class LogWriter:
    """The log opened for appending; only while the home's lock is held."""

    def __init__(self, fd: int, log_id: str, *, kept: bool = False) -> None:
        self.fd = fd
        self.log_id = log_id
        self.kept = kept
        """The descriptor stays open in this process for the next write (:data:`_KEPT`)."""
        self.inode = -1
        self._size: int | None = None
        """The log's size as this writer left it (only this writer appends while the lock is held)."""

    @classmethod
    def open(cls, home: Path, *, made: list[Path], known: tuple[str, int] | None = None) -> LogWriter:
        """Open the log, making ``.notebook`` (0700) and the log when missing; ``made`` collects them.

        Raises :class:`StateDirError` when ``.notebook`` is a link or not a folder,
        or when the log is not one (the write then goes unrecorded, with that reason).
        ``known`` is (log id, inode) as the journal last saw the log: the same
        inode spares reading its header.
        """
        state = os.path.join(home, STATE_DIR)  # plain strings: this runs on every write
        real_directory(state, create=True, made=made)
        path = os.path.join(state, LOG_NAME)
        again = _reopened(path)
        if again is not None:
            return again
        flags = os.O_RDWR | os.O_APPEND | os.O_NOFOLLOW | os.O_CLOEXEC | os.O_NONBLOCK
        try:
            fd = os.open(path, flags)
        except FileNotFoundError:
            fd = os.open(path, flags | os.O_CREAT | os.O_EXCL, 0o600)
            made.append(Path(path))
        except OSError as error:
            raise StateDirError(f"{path} cannot be opened ({error.strerror}); the history is kept there") from None
        try:
            info = os.fstat(fd)
            if not stat.S_ISREG(info.st_mode):
                raise StateDirError(f"{path} is not a regular file; the history cannot be kept there")
            if info.st_size == 0:
                log_id = secrets.token_hex(8)
                os.write(fd, header_line(log_id))
            elif known is not None and known[1] == info.st_ino:
                log_id = known[0]
            else:
                log_id = parse_header(_first_line(fd)) or ""
                if not log_id:
                    raise StateDirError(
                        f"{path} is not a persona-notebook event log (versions 1–2); it was left as it is"
                    )
        except BaseException:
            os.close(fd)
            raise
        writer = cls(fd, log_id, kept=True)
        writer.inode = info.st_ino
        writer._size = info.st_size or None  # an empty log just got its header: ask the file
        writer.cut_unfinished(writer.size())
        _KEPT[path] = (fd, info.st_ino, log_id)
        return writer

    def close(self) -> None:
        if not self.kept:
            os.close(self.fd)

    def size(self) -> int:
        if self._size is None:
            self._size = os.fstat(self.fd).st_size
        return self._size

    def append(self, data: bytes) -> int:
        """Append whole lines; the offset where they begin."""
        offset = self.size()
        self._size = None  # if a write fails part-way, ask the file
        view = memoryview(data)
        while view:
            view = view[os.write(self.fd, view) :]
        self._size = offset + len(data)
        return offset

    def truncate(self, offset: int) -> None:
        self._size = None
        os.ftruncate(self.fd, offset)

    def sync(self) -> None:
        os.fsync(self.fd)

    def cut_unfinished(self, end: int | None = None) -> None:
        """A line without its newline was being written when its writer died: cut it."""
        end = self.size() if end is None else end
        if end == 0 or os.pread(self.fd, 1, end - 1) == b"\n":
            return
        position = end
        while position > 0:
            start = max(0, position - _CHUNK)
            newline = os.pread(self.fd, position - start, start).rfind(b"\n")
            if newline >= 0:
                self.truncate(start + newline + 1)
                return
            position = start

    def last_id(self) -> str | None:
        """The id of the newest event (to keep ids growing when the journal forgot it)."""
        for _, line in lines_backward(self.fd, self.size()):
            try:
                return Event.from_line(line).id
            except EventError:
                continue
        return None

    def read_from(self, offset: int) -> bytes:
        return os.pread(self.fd, self.size() - offset, offset)


_KEPT: dict[str, tuple[int, int, str]] = {}
"""Log path → (descriptor, inode, log id): logs this process keeps open between writes.

Opening the log is most of what recording an add costs beyond the add
itself; while the path still names the same file (one ``stat``), the
descriptor is used again. A log replaced (prune, redact) or removed is
opened afresh. Writes still happen only under the home's lock.
"""


def _reopened(path: str) -> LogWriter | None:
    kept = _KEPT.get(path)
    if kept is None:
        return None
    fd, inode, log_id = kept
    try:
        info = os.stat(path, follow_symlinks=False)
    except OSError:
        info = None
    if info is None or info.st_ino != inode or not stat.S_ISREG(info.st_mode):
        del _KEPT[path]
        os.close(fd)
        return None
    writer = LogWriter(fd, log_id, kept=True)
    writer.inode = inode
    writer._size = info.st_size
    writer.cut_unfinished(info.st_size)
    return writer


def forget_kept(path: str | os.PathLike[str]) -> None:
    """Close a kept log descriptor (a log being replaced or removed by this process)."""
    kept = _KEPT.pop(os.fspath(path), None)
    if kept is not None:
        os.close(kept[0])


def _first_line(fd: int) -> bytes:
    head = os.pread(fd, 256, 0)
    return head.split(b"\n", 1)[0]


@dataclass
class LogReader:
    """The log opened for reading, up to the last record that is a fact (see :func:`open_reader`)."""

    fd: int
    end: int
    """Where the readable records end: before a write in flight that has not landed."""
    log_id: str

    def close(self) -> None:
        os.close(self.fd)

    def __enter__(self) -> LogReader:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def backward(self, end: int | None = None) -> Iterator[tuple[int, bytes]]:
        """(offset, line) of every record, newest first; the header is left out."""
        for offset, line in lines_backward(self.fd, self.end if end is None else end):
            if offset:
                yield offset, line

    def forward(self, start: int = 0) -> Iterator[tuple[int, bytes]]:
        """(offset, line) of every record from ``start`` on, oldest first."""
        for offset, line in lines_forward(self.fd, start, self.end):
            if offset:
                yield offset, line

    @property
    def records_start(self) -> int:
        """Where the first record begins (after the header line)."""
        return len(_first_line(self.fd)) + 1

    def blocks(self, size: int = 1 << 22, start: int = 0) -> Iterator[bytes]:
        """The records as blocks of whole lines (the header left out), for scanning in C rather than line by line.

        ``start`` (a line boundary, such as an earlier reader's ``end``) skips what was read before.
        """
        position = max(start, len(_first_line(self.fd)) + 1)
        while position < self.end:
            data = os.pread(self.fd, min(size, self.end - position), position)
            cut = data.rfind(b"\n") + 1
            if cut == 0:  # a line longer than the block: take it whole
                cut = _last_newline(self.fd, self.end)
                data = os.pread(self.fd, cut - position, position)
                cut = len(data)
            yield data[:cut]
            position += cut

    def events(self) -> Iterator[Event]:
        """Every readable event, oldest first; a line this version cannot read is skipped."""
        for _, line in self.forward():
            try:
                yield Event.from_line(line)
            except EventError:
                continue


def open_reader(home: Path) -> LogReader | None:
    """The log for reading, or None when the home has none (or it cannot be read).

    A record whose write is in flight (slot 0 of the journal names it) is left
    out unless its write has landed: a reader sees the history as the next
    writer will leave it.
    """
    state = readable_state(home)
    if state is None:
        return None
    try:
        fd = os.open(state / LOG_NAME, os.O_RDONLY | os.O_NOFOLLOW | os.O_NONBLOCK | os.O_CLOEXEC)
    except OSError:
        return None
    try:
        info = os.fstat(fd)
        log_id = parse_header(_first_line(fd)) if stat.S_ISREG(info.st_mode) else None
    except OSError:
        log_id = None
    if not log_id:
        os.close(fd)
        return None
    end = _last_newline(fd, info.st_size)
    intent = read_intent(home)
    if intent is not None and intent.log is not None and intent.log < end and not landed(home, intent):
        end = intent.log
    return LogReader(fd, end, log_id)


def _last_newline(fd: int, size: int) -> int:
    """The end of the last whole line (a line being written is not read)."""
    position = size
    while position > 0:
        start = max(0, position - _CHUNK)
        newline = os.pread(fd, position - start, start).rfind(b"\n")
        if newline >= 0:
            return start + newline + 1
        position = start
    return 0


def landed(home: Path, intent: Intent) -> bool:
    """Whether the write ``intent`` describes reached the file whole (then its record is a fact)."""
    try:
        info = (home / intent.name).lstat()
    except FileNotFoundError:
        return intent.kind == "delete"
    except OSError:
        return False
    if intent.kind == "append":
        return stat.S_ISREG(info.st_mode) and info.st_size >= intent.after
    if intent.kind == "rewrite":
        return info.st_ino == intent.inode
    return False


def lines_backward(fd: int, end: int) -> Iterator[tuple[int, bytes]]:
    """(offset, line without its newline) from ``end`` (a line boundary) back to the start."""
    position = end
    tail = b""
    while position > 0:
        start = max(0, position - _CHUNK)
        data = os.pread(fd, position - start, start) + tail
        parts = data.split(b"\n")
        parts.pop()  # data ends at a line boundary: the last piece is empty
        first = 1 if start > 0 else 0
        offsets = []
        offset = start
        for part in parts:
            offsets.append(offset)
            offset += len(part) + 1
        for index in range(len(parts) - 1, first - 1, -1):
            yield offsets[index], parts[index]
        tail = parts[0] + b"\n" if start > 0 and parts else b""
        position = start


def lines_forward(fd: int, start: int, end: int) -> Iterator[tuple[int, bytes]]:
    """(offset, line without its newline) from ``start`` (a line boundary) to ``end``."""
    position = start
    carry = b""
    carry_at = start
    while position < end:
        chunk = os.pread(fd, min(_CHUNK * 4, end - position), position)
        if not chunk:
            break
        position += len(chunk)
        data = carry + chunk
        parts = data.split(b"\n")
        carry = parts.pop()
        offset = carry_at
        for part in parts:
            yield offset, part
            offset += len(part) + 1
        carry_at = offset


def read_log_id(home: Path) -> str | None:
    """The id in the header of ``home``'s log; None when there is none (nothing is made to find out)."""
    state = readable_state(home)
    if state is None:
        return None
    try:
        fd = os.open(state / "events.jsonl", os.O_RDONLY | os.O_NOFOLLOW | os.O_NONBLOCK | os.O_CLOEXEC)
    except OSError:
        return None
    try:
        return parse_header(os.pread(fd, 256, 0).split(b"\n", 1)[0])
    except OSError:
        return None
    finally:
        os.close(fd)


__all__ = [
    "LOG_NAME",
    "LOG_PATH",
    "LogReader",
    "LogWriter",
    "StateDirError",
    "landed",
    "log_path",
    "open_reader",
    "read_log_id",
]
