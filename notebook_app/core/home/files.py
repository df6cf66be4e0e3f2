"""The one read path: what a bootstrap file is on disk, read without ever hanging.

Every reader in the project (the soul, the app's panes, the tool's checks, the
MCP server, later the doctor) asks this module what a file is. A file is
classified from the descriptor it was opened with, never by ``lstat`` then
``open`` (a race): it is opened with ``O_NONBLOCK`` so a FIFO or a device
cannot block, then ``fstat`` says what was opened, and only a regular file is
read, and at most ``limit`` bytes of it: a 200 MB file or a link to
``/dev/zero`` costs what the cap costs.

Every state has a name in words (``FileStatus`` and :meth:`FileRead.describe`),
so no caller has to invent its own wording, and nothing here raises.
"""

from __future__ import annotations

import errno
import os
import stat
from dataclasses import dataclass, field
from enum import Enum
from pathlib import Path

_CHUNK = 64 * 1024
"""What a read asks for once the file's expected end has been read."""


class FileStatus(Enum):
    """What is at a bootstrap file's path, as far as loading it goes."""

    ABSENT = "absent"
    REGULAR = "regular file"
    LINK = "symbolic link"
    """A link to a regular file: it loads (hosts follow links), the tool will not edit it."""
    DANGLING_LINK = "dangling link"
    LINK_LOOP = "link loop"
    DIRECTORY = "directory"
    SPECIAL = "special file"
    """A FIFO, socket or device: never read, it could block or never end."""
    UNREADABLE = "unreadable"

    @property
    def loads(self) -> bool:
        """Whether a session loads this file's content."""
        return self in (FileStatus.REGULAR, FileStatus.LINK)

    @property
    def exists(self) -> bool:
        """Something is at the path, even if it cannot be loaded."""
        return self is not FileStatus.ABSENT


@dataclass(frozen=True)
class FileRead:
    """One bootstrap file as found: its status, size and first ``limit`` bytes."""

    name: str
    status: FileStatus
    size: int = 0
    """Bytes in the file (what ``fstat`` said), 0 when it cannot be loaded."""
    data: bytes = field(default=b"", repr=False)
    """The first bytes, at most the ``limit`` asked for; empty unless it loads."""
    link_target: str | None = None
    """Where a link points, as written in the link."""
    kind: str = ""
    """For SPECIAL: FIFO, socket, character device or block device."""
    reason: str = ""
    """For UNREADABLE: the operating system's words (e.g. "Permission denied")."""
    stat_key: tuple[int, int, int] | None = None
    """(inode, size, mtime_ns) of what was read: the same key means the same file state."""

    @property
    def complete(self) -> bool:
        """Every byte of the file was read (it is no larger than the limit)."""
        return len(self.data) >= self.size

    def describe(self) -> str:
        """The file's state in words, for any screen, log or error message."""
        status = self.status
        target = f" to {self.link_target}" if self.link_target is not None else ""
        if status is FileStatus.ABSENT:
            return f"{self.name} is absent"
        if status is FileStatus.REGULAR:
            return f"{self.name} is a regular file of {self.size:,} bytes"
        if status is FileStatus.LINK:
            return f"{self.name} is a symbolic link{target} ({self.size:,} bytes)"
        if status is FileStatus.DANGLING_LINK:
            return f"{self.name} is a dangling symbolic link{target}: nothing is there"
        if status is FileStatus.LINK_LOOP:
            return f"{self.name} is a symbolic link loop ({self.name} → {self.link_target}): it never reaches a file"
        if status is FileStatus.DIRECTORY:
            via = f" (a symbolic link{target})" if self.link_target is not None else ""
            return f"{self.name} is a directory{via}, not a file"
        if status is FileStatus.SPECIAL:
            via = f" (through a symbolic link{target})" if self.link_target is not None else ""
            return f"{self.name} is a {self.kind or 'special file'}{via}, not a regular file"
        return f"{self.name} cannot be read ({self.reason or 'unreadable'})"

    def not_loaded_reason(self) -> str | None:
        """Why a session skips a file that is there, None when it loads or is absent."""
        if self.status.loads or self.status is FileStatus.ABSENT:
            return None
        return f"{self.describe()}; the session does not load it"


def _special_kind(mode: int) -> str:
    if stat.S_ISFIFO(mode):
        return "FIFO (named pipe)"
    if stat.S_ISSOCK(mode):
        return "socket"
    if stat.S_ISCHR(mode):
        return "character device"
    if stat.S_ISBLK(mode):
        return "block device"
    return "special file"


def _link_target(path: Path) -> str | None:
    try:
        return os.readlink(path)
    except OSError:
        return None


def read_file(path: Path, *, limit: int, valid_bytes: int | None = None) -> FileRead:
    """What is at ``path``, and up to ``limit`` bytes of it if it loads.

    ``valid_bytes`` reads no further than that point (what an append still in
    progress has not finished). Never blocks on a FIFO or device, never reads
    more than ``limit`` bytes, never raises.
    """
    name = path.name
    try:
        fd = os.open(path, os.O_RDONLY | os.O_NONBLOCK | os.O_CLOEXEC | getattr(os, "O_NOCTTY", 0))
    except OSError as error:
        return _unopened(path, name, error)
    try:
        info = os.fstat(fd)
        target = _link_target(path) if _is_link(path) else None
        mode = info.st_mode
        if stat.S_ISDIR(mode):
            return FileRead(name, FileStatus.DIRECTORY, link_target=target)
        if not stat.S_ISREG(mode):
            return FileRead(name, FileStatus.SPECIAL, link_target=target, kind=_special_kind(mode))
        size = info.st_size if valid_bytes is None else min(info.st_size, valid_bytes)
        data = _read_up_to(fd, min(limit, size) if valid_bytes is not None else limit, expected=size)
        status = FileStatus.LINK if target is not None else FileStatus.REGULAR
        return FileRead(
            name,
            status,
            size=max(size, len(data)),
            data=data,
            link_target=target,
            stat_key=(info.st_ino, info.st_size, info.st_mtime_ns),
        )
    except OSError as error:
        return FileRead(name, FileStatus.UNREADABLE, reason=error.strerror or str(error))
    finally:
        os.close(fd)


def _is_link(path: Path) -> bool:
    try:
        return stat.S_ISLNK(os.lstat(path).st_mode)
    except OSError:
        return False


def _unopened(path: Path, name: str, error: OSError) -> FileRead:
    if error.errno == errno.ENOENT:
        if _is_link(path):
            return FileRead(name, FileStatus.DANGLING_LINK, link_target=_link_target(path))
        return FileRead(name, FileStatus.ABSENT)
    if error.errno == errno.ELOOP:
        return FileRead(name, FileStatus.LINK_LOOP, link_target=_link_target(path))
    if error.errno == errno.ENOTDIR:
        return FileRead(name, FileStatus.ABSENT)  # the home itself is not a directory
    if error.errno == errno.ENXIO:  # a socket, or a FIFO opened for writing with no reader
        return FileRead(
            name, FileStatus.SPECIAL, link_target=_link_target(path) if _is_link(path) else None, kind="socket"
        )
    return FileRead(
        name,
        FileStatus.UNREADABLE,
        link_target=_link_target(path) if _is_link(path) else None,
        reason=error.strerror or str(error),
    )


def _read_up_to(fd: int, limit: int, *, expected: int) -> bytes:
    """Up to ``limit`` bytes from ``fd``, whose ``fstat`` said ``expected`` bytes.

    Each ``os.read`` allocates what it asks for before it reads, so the first
    read asks for what the file holds (plus one, to see it end), not for the
    whole limit, and later reads ask for small chunks: a 30-byte file costs 30
    bytes, not the 2 MiB cap. A file that grows while read stops at the limit.
    """
    chunks: list[bytes] = []
    left = limit
    ask = min(left, expected + 1)
    while left > 0:
        chunk = os.read(fd, ask)
        if not chunk:
            break
        chunks.append(chunk)
        left -= len(chunk)
        ask = min(left, _CHUNK)
    if len(chunks) == 1:
        return chunks[0]
    return b"".join(chunks)
