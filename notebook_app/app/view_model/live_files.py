"""The home's files as they are on disk now, for their panes: read the bounded way. No Textual.

Every read goes through the core's one read path (:func:`~notebook_app.core.read_file`):
at most the cap and a margin, never a FIFO or a device, every state named.
"""

from __future__ import annotations

import codecs
import hashlib
from dataclasses import dataclass, field
from pathlib import Path

from notebook_app.app.view_model.documents import EMPTY, Document, extend_file_document, file_document
from notebook_app.core.home.files import FileRead, FileStatus, read_file
from notebook_app.core.home.soul import MAX_FILE_BYTES

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
    cap: int | None = MAX_FILE_BYTES
    """The contract's cap, where it is what cuts the file; None on a host that cuts by its own rules (its load
    says where), so nothing here speaks of 2 MiB."""

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
        return max(0, self.size - self.cap) if self.cap is not None else 0

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


def read_live_file(path: Path, previous: LiveFile | None = None, cap: int | None = MAX_FILE_BYTES) -> LiveFile | None:
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
        return LiveFile(read, digest, "", EMPTY, None, cap)
    data = read.data
    kept = _kept_from(previous, read)  # None whenever previous is
    if kept is None or previous is None:
        text = codecs.getincrementaldecoder("utf-8")("replace").decode(data, final=read.complete)
    else:
        kept_bytes, kept_chars, _ = kept
        text = previous.text[:kept_chars] + codecs.decode(data[kept_bytes:], "utf-8", "replace")
    banners: dict[int, str] = {}
    cut_line = None
    if cap is not None and read.size > cap:
        cut_line = data.count(b"\n", 0, cap - 1)
        where = "inside this line" if data[cap - 1] != ord("\n") else "after this line"
        dropped = read.size - cap
        banners[cut_line] = f"✂ 2 MiB cap: the next session stops {where}; it does not see the {dropped:,} bytes below"
    if not read.complete:
        last = text.count("\n") - (1 if text.endswith("\n") else 0)
        unshown = read.size - len(data)
        banners[last] = f"⋯ {unshown:,} more bytes not shown: the notebook reads the first {len(data):,}"
    if kept is None or previous is None:
        document = file_document(text, banners)
    else:
        document = extend_file_document(previous.document, kept[2], text[kept[1] :], banners)
    return LiveFile(read, digest, text, document, cut_line, cap)


def _kept_from(previous: LiveFile | None, read: FileRead) -> tuple[int, int, int] | None:
    """(bytes, characters, lines) of ``previous``'s whole lines that ``read`` starts with, when both were read whole.

    A file that grew by an append (the memory tool's add) keeps every line but
    its last unfinished one; only what follows is decoded and split again.
    """
    if previous is None or not previous.loads or not previous.read.complete or not read.complete:
        return None
    old = previous.read.data
    kept_bytes = old.rfind(b"\n") + 1
    if not kept_bytes or not read.data.startswith(memoryview(old)[:kept_bytes]):
        return None
    kept_chars = previous.text.rfind("\n") + 1
    lines = len(previous.document.lines)
    return kept_bytes, kept_chars, lines if kept_chars == len(previous.text) else lines - 1
