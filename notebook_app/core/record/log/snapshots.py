"""Compressed, content-addressed copies of file contents: what the log cannot rebuild on its own.

The log records each edit; to rebuild a file's content at any event it
needs a starting point: the content a file had when its history began, the
content an outside writer left (which no event of ours made), and, so that
a rebuild never replays too much, a copy now and then "by replay cost"
(the bytes rewritten since the last copy, see :mod:`..recording`). Large edit
bytes live here too, so one restore of a 2 MiB file does not put 2 MiB into
the log. Each is stored once, under the sha256 of its bytes, zlib-compressed,
in ``.notebook/snapshots/``; writing one twice costs nothing.
"""

from __future__ import annotations

import hashlib
import os
import re
import tempfile
import zlib
from collections.abc import Iterable
from pathlib import Path

from notebook_app.core.fs.state_dir import real_directory

SNAPSHOTS = "snapshots"
_SUFFIX = ".z"
_NAME = re.compile(r"[0-9a-f]{64}")


class SnapshotMissing(Exception):
    """A snapshot the log refers to is not there (removed by hand, or pruned)."""


def digest(data: bytes) -> str:
    return hashlib.sha256(data).hexdigest()


def folder(state: Path) -> Path:
    return state / SNAPSHOTS


def store(state: Path, data: bytes, *, made: list[Path], durable: bool = True) -> str:
    """Keep ``data`` (if not kept already) and return its sha256; ``made`` collects what this created."""
    name = digest(data)
    where = folder(state)
    real_directory(where, create=True, made=made)
    path = where / (name + _SUFFIX)
    if not path.exists():
        _publish(where, path, zlib.compress(data, 6), durable=durable)
        made.append(path)
    return name


def _publish(where: Path, path: Path, data: bytes, *, durable: bool) -> None:
    """Write a temp file, then link it under its name: whole or absent, never renamed over anything."""
    fd, temp = tempfile.mkstemp(prefix=".tmp-", dir=where)
    try:
        with os.fdopen(fd, "wb") as handle:
            handle.write(data)
            handle.flush()
            os.fchmod(handle.fileno(), 0o600)
            if durable:
                os.fsync(handle.fileno())
        try:
            os.link(temp, path)
        except FileExistsError:
            pass  # the same bytes, kept by another call
    finally:
        os.unlink(temp)
    if durable:
        directory = os.open(where, os.O_RDONLY | os.O_DIRECTORY | os.O_CLOEXEC)
        try:
            os.fsync(directory)
        finally:
            os.close(directory)


def load(state: Path, name: str) -> bytes:
    """The bytes kept under ``name``; checked against it, so a damaged copy is never used."""
    if not _NAME.fullmatch(name):
        raise SnapshotMissing(f"not a snapshot name: {name!r}")
    path = folder(state) / (name + _SUFFIX)
    try:
        fd = os.open(path, os.O_RDONLY | os.O_NOFOLLOW | os.O_NONBLOCK | os.O_CLOEXEC)
    except OSError as error:
        raise SnapshotMissing(f"snapshot {name[:12]} cannot be read ({error.strerror})") from None
    with os.fdopen(fd, "rb") as handle:
        raw = handle.read()
    try:
        data = zlib.decompress(raw)
    except zlib.error:
        raise SnapshotMissing(f"snapshot {name[:12]} is damaged") from None
    if digest(data) != name:
        raise SnapshotMissing(f"snapshot {name[:12]} is damaged")
    return data


def kept(state: Path) -> set[str]:
    """The names of every snapshot in the store."""
    try:
        return {entry[: -len(_SUFFIX)] for entry in os.listdir(folder(state)) if entry.endswith(_SUFFIX)}
    except OSError:
        return set()


def size_of(state: Path) -> int:
    """Bytes the store takes on disk."""
    total = 0
    for name in kept(state):
        try:
            total += (folder(state) / (name + _SUFFIX)).stat().st_size
        except OSError:
            continue
    return total


def remove_except(state: Path, keep: Iterable[str]) -> int:
    """Remove every snapshot not in ``keep``; how many went."""
    wanted = set(keep)
    removed = 0
    for name in kept(state) - wanted:
        try:
            os.unlink(folder(state) / (name + _SUFFIX))
            removed += 1
        except OSError:
            continue
    return removed
