"""The session a write of the history runs in, and a file as the history knows it: shared by undo and restore.

A write holds the home's lock and, inside it, the host's own lock on each
entry file (Hermes's ``MEMORY.md.lock`` and ``USER.md.lock`` beside its
stores, spec §9), as tidy does: an undo or restore may write either store,
or both for a tidy's group. A dry run takes the home's lock shared and
writes nothing, not even ``.notebook/``.
"""

from __future__ import annotations

import os
from collections.abc import Iterator
from contextlib import ExitStack, contextmanager
from pathlib import Path

from notebook_app.core.fs.home_pin import no_home, write_refusal
from notebook_app.core.history.query import HistoryError
from notebook_app.core.home.files import FileStatus, read_file
from notebook_app.core.home.layout import FileMap
from notebook_app.core.home.reading import ENTRY_FILES, consistent_reads
from notebook_app.core.home.soul import MAX_FILE_BYTES
from notebook_app.core.record.log.actor import Actor
from notebook_app.core.record.recording import Recorder
from notebook_app.core.record.storage import LockedHome, locked_home


@contextmanager
def session(
    root: os.PathLike[str], by: Actor, dry_run: bool, durable: bool, files: FileMap
) -> Iterator[tuple[LockedHome | None, Recorder]]:
    """The home's lock (shared for a dry run, which writes nothing) and what the history knows of its files; a
    write holds ``files``' host's own lock on each entry file too, as tidy does (Hermes's on its stores, spec §9)."""
    path = Path(root)
    if not path.is_dir():
        raise HistoryError(no_home(path))
    if dry_run:
        refusal = write_refusal(path)  # what the write would be refused with: the dry run says it first
        if refusal is not None:
            raise HistoryError(refusal)
        with consistent_reads(path):
            yield None, Recorder(path, _no_journal, by=by, durable=durable, made=[])
        return
    with locked_home(path, create=False, durable=durable, by=by, files=files) as locked, ExitStack() as held:
        for entry in ENTRY_FILES:
            held.enter_context(locked.host_lock(files.relative(entry), make=False))
        yield locked, locked.recorder


def _no_journal() -> int:
    raise AssertionError("a dry run writes nothing")


def content_now(root: os.PathLike[str], name: str, locked: LockedHome | None, recorder: Recorder) -> bytes | None:
    """The file now, read whole; the recorder compares it with what the log last left."""
    if locked is not None:
        read = locked.read_whole(name)
    else:
        path = Path(root) / name
        read = read_file(path, limit=MAX_FILE_BYTES)
        if not read.complete:
            read = read_file(path, limit=read.size + 1)
        if read.status not in (FileStatus.ABSENT, FileStatus.REGULAR):
            raise HistoryError(read.describe())
        recorder.saw(
            name,
            read.stat_key if read.status is FileStatus.REGULAR else None,
            read.data if read.status is FileStatus.REGULAR else None,
        )
    return None if read.status is FileStatus.ABSENT else read.data
