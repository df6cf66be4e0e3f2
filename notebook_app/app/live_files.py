"""The home's files as they are on disk now, for their panes: read the bounded way. No Textual.

Every read goes through the core's one read path (:func:`~notebook_app.core.read_file`):
at most the cap and a margin, never a FIFO or a device, every state named.
"""

from __future__ import annotations

import codecs
import hashlib
from dataclasses import dataclass, field
from pathlib import Path

from ..core import MAX_FILE_BYTES
from ..core.files import FileRead, FileStatus, read_file
from .documents import EMPTY, Document, file_document

READ_LIMIT = MAX_FILE_BYTES + 256 * 1024
"""Bytes of a file the notebook reads to show it: the cap and a margin, never a 200 MB file."""


@dataclass(frozen=True)
class LiveFile:
    """A bootstrap file as it is on disk now, for its pane: whatever it is, never absent."""

    read: FileRead = field(repr=False)
    digest: str
    """Of its status, size and the bytes read: how the watcher tells our own writes apart."""
    text: str = field(repr=False)
    """What was read, decoded (bad bytes as U+FFFD); empty when the file does not load."""
    document: Document = field(repr=False)
    cut_line: int | None
    """The line holding the last byte a session loads, when the file is over the cap."""

    @property
    def name(self) -> str:
        return self.read.name

    @property
    def status(self) -> FileStatus:
        return self.read.status

    @property
    def size(self) -> int:
        return self.read.size

    @property
    def loads(self) -> bool:
        return self.read.status.loads

    @property
    def dropped_bytes(self) -> int:
        return max(0, self.size - MAX_FILE_BYTES)

    @property
    def unshown_bytes(self) -> int:
        """Bytes past what the notebook read (files larger than :data:`READ_LIMIT`)."""
        return max(0, self.size - len(self.read.data))

    @property
    def share(self) -> float:
        """Size as a fraction of the bootstrap cap."""
        return self.size / MAX_FILE_BYTES


def fingerprint(read: FileRead) -> str:
    """One string that changes when what the notebook shows of a file changes."""
    digest = hashlib.sha256(read.data).hexdigest() if read.status.loads else ""
    return f"{read.status.name}:{read.size}:{read.link_target}:{digest}"


def read_live_file(path: Path, previous: LiveFile | None = None) -> LiveFile | None:
    """The file as it is now, read through the core's one read path; None when absent.

    At most :data:`READ_LIMIT` bytes are read; a FIFO, a device or a link loop
    is named, never opened for reading. Unchanged files reuse ``previous``.
    """
    read = read_file(path, limit=READ_LIMIT)
    if read.status is FileStatus.ABSENT:
        return None
    digest = fingerprint(read)
    if previous is not None and previous.digest == digest:
        return previous
    if not read.status.loads:
        return LiveFile(read, digest, "", EMPTY, None)
    data = read.data
    text = codecs.getincrementaldecoder("utf-8")("replace").decode(data, final=read.complete)
    banners: dict[int, str] = {}
    cut_line = None
    if read.size > MAX_FILE_BYTES:
        cut_line = data.count(b"\n", 0, MAX_FILE_BYTES - 1)
        where = "inside this line" if data[MAX_FILE_BYTES - 1] != ord("\n") else "after this line"
        dropped = read.size - MAX_FILE_BYTES
        banners[cut_line] = f"✂ 2 MiB cap: the next session stops {where}; it does not see the {dropped:,} bytes below"
    if not read.complete:
        last = text.count("\n") - (1 if text.endswith("\n") else 0)
        unshown = read.size - len(data)
        banners[last] = f"⋯ {unshown:,} more bytes not shown: the notebook reads the first {len(data):,}"
    return LiveFile(read, digest, text, file_document(text, banners), cut_line)
