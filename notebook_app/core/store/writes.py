"""The recorded rewrites of a locked home: a whole new content, or the file removed.

Each writes its record to the event log before it touches the file (the
temp file is written and synced first, so the record can name the inode the
file will have), with
the journal's slot 0 naming where that record begins, and clears the slot
once both are whole (:mod:`.journal`, :mod:`.recovery`). A failure part-way
takes back what landed (the appended bytes, the temp file, the record) and
re-raises; a kill part-way is settled by the next writer. Mixed into
:class:`.storage.LockedHome`, which provides the reads, the lock and the
recorder.
"""

from __future__ import annotations

import errno
import hashlib
import os
import stat
from contextlib import suppress
from pathlib import Path
from typing import TYPE_CHECKING

from notebook_app.core.fs.atomic import sync_folder, write_temp
from notebook_app.core.home.names import base_name
from notebook_app.core.home.reading import TEMP_PREFIX, TEMP_SUFFIX, Intent
from notebook_app.core.record.log.events import ABSENT, FileState, Hunk, Payload
from notebook_app.core.record.log.replay import count_lines, diff_hunks, hunk
from notebook_app.core.record.journal import stat_key, write_slot
from notebook_app.core.record.recording import Change, Known, Recorder


class RecordedWrites:
    """rewrite and delete, each with its record."""

    if TYPE_CHECKING:
        home: Path
        _durable: bool
        created: list[Path]
        recorder: Recorder

        def _journal(self) -> int: ...
        def _know(self, name: str, *, whole: bool = False) -> Known: ...
        def _open(self, name: str, flags: int) -> int: ...
        def folder_of(self, name: str) -> Path: ...

    def rewrite(
        self,
        name: str,
        data: bytes,
        *,
        validated: bool,
        change: Change,
        edit: tuple[int, bytes, bytes] | None = None,
        hunks: tuple[Hunk, ...] | None = None,
    ) -> None:
        """Replace a file's content atomically, keeping its permissions, and record it.

        ``edit`` is (byte offset, removed, inserted) when the caller knows the
        splice it made, ``hunks`` when it knows several (an undo); otherwise
        the record holds a line diff.
        """
        folder = self.folder_of(name)
        path = folder / base_name(name)
        known = self._know(name, whole=True)
        before = known.content
        try:
            mode = stat.S_IMODE(path.lstat().st_mode)
        except FileNotFoundError:
            mode = 0o644
        existed = path.exists()
        if existed and not os.access(path, os.W_OK, effective_ids=os.access in os.supports_effective_ids):
            # renaming over it would bypass its mode: refuse as an append to it is refused
            raise PermissionError(errno.EACCES, os.strerror(errno.EACCES), str(path))
        journal = self._journal()
        writer = self.recorder.writer()
        temp, temp_status = write_temp(
            folder, data, mode=mode, prefix=TEMP_PREFIX, suffix=TEMP_SUFFIX, durable=self._durable
        )
        temp_key = stat_key(temp_status)
        try:
            events = []
            lines_after = 0
            if writer is not None:
                old = before or b""
                old_lines = known.lines if known.key is not None else 0  # what the read found, or the slot said
                if hunks is None:
                    hunks = (hunk(old, *edit),) if edit is not None else diff_hunks(old, data)
                lines_after = old_lines + sum(h.lines_added - h.lines_removed for h in hunks)
                events = self.recorder.events_for(
                    name,
                    change,
                    edit=hunks,
                    before=FileState(True, len(old), old_lines, hashlib.sha256(old).hexdigest()) if existed else ABSENT,
                    after=FileState(True, len(data), lines_after, hashlib.sha256(data).hexdigest(), temp_key),
                    after_content=data,
                )
                intent = Intent("rewrite", name, writer.size(), inode=temp_key[0])
                self.recorder.clear_shared_slot(name)
                write_slot(journal, intent.text())
                try:
                    writer.append(b"".join(event.line() for event in events))
                except BaseException:
                    with suppress(OSError):
                        writer.truncate(intent.log or 0)
                        write_slot(journal, "")
                    raise
            try:
                os.replace(temp, path)
            except BaseException:
                with suppress(OSError):
                    if writer is not None:
                        writer.truncate(intent.log or 0)
                        write_slot(journal, "")
                raise
        except BaseException:
            with suppress(OSError):
                os.unlink(temp)
            raise
        sync_folder(folder, self._durable)
        if not existed:
            self.created.append(path)
        with suppress(OSError):  # the file is whole: a missing record costs one full check
            if writer is not None:
                utf8 = validated or is_utf8(data)
                self.recorder.wrote(
                    name, events[-1].id, lines_after, key=stat_key(path.lstat()), utf8=utf8, content=data, done=True
                )

    def delete(self, name: str, *, change: Change) -> None:
        """Remove a file (an undo of its creation, a restore to before it existed), and record it."""
        path = self.folder_of(name) / base_name(name)
        before = self._know(name, whole=True).content or b""
        journal = self._journal()
        writer = self.recorder.writer()
        events = []
        if writer is not None:
            events = self.recorder.events_for(
                name,
                change,
                edit=(Hunk(0, Payload.of(before), Payload.of(b""), 1, count_lines(before), 0),),
                before=FileState(True, len(before), count_lines(before), hashlib.sha256(before).hexdigest()),
                after=ABSENT,
            )
            intent = Intent("delete", name, writer.size())
            self.recorder.clear_shared_slot(name)
            write_slot(journal, intent.text())
            writer.append(b"".join(event.line() for event in events))
        try:
            os.unlink(path)
        except BaseException:
            with suppress(OSError):
                if writer is not None:
                    writer.truncate(intent.log or 0)
                    write_slot(journal, "")
            raise
        sync_folder(path.parent, self._durable)
        with suppress(OSError):
            if writer is not None:
                self.recorder.wrote(name, events[-1].id, 0, key=None, utf8=True, content=None, done=True)


def is_utf8(data: bytes) -> bool:
    try:
        data.decode("utf-8")
    except UnicodeDecodeError:
        return False
    return True
