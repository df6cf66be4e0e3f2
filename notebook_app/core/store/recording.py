"""Recording writes: what the log last left of each file, outside changes, and each write's event.

One :class:`Recorder` serves one locked call of :mod:`.storage`. Before a
file is written it knows, from the journal's file slot, whether the file is
exactly as the log last left it (same inode, size and mtime: nothing is
read). When it is not, the file is read whole (the tool does so anyway, to
check it is UTF-8), the content the log last left is rebuilt, and the
difference becomes an ``outside`` event, recorded just before this write,
with a snapshot of what the outside writer left. A file the log has never
seen starts its history with a snapshot of its content (``base``).

If ``.notebook`` cannot hold the history (a link, not a folder, a log that
is not ours), the write still happens and :attr:`Recorder.unrecorded` says
why; the next recorded write then sees the change as an outside one. A
write is never refused for its bookkeeping: an agent must not lose a write.
"""

from __future__ import annotations

import os
import stat
from collections.abc import Mapping
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any

from notebook_app.core.fs.state_dir import STATE_DIR, StateDirError, readable_state, state_problem
from notebook_app.core.home.reading import SLOT
from notebook_app.core.record.log import snapshots
from notebook_app.core.record.log.actor import Actor
from notebook_app.core.record.log.event_action import EventAction
from notebook_app.core.record.log.events import INLINE_LIMIT, Event, FileState, Hunk, Payload, SecretSpan, now
from notebook_app.core.record.log.ids import new_id
from notebook_app.core.record.log.redaction import mask
from notebook_app.core.record.log.replay import RebuildError, count_lines, file_events_backward, rebuild
from notebook_app.core.record.log.store import LOG_NAME, LogWriter, open_reader, read_log_id
from notebook_app.core.record.journal import (
    LOG_SLOT,
    FileSlot,
    StatKey,
    file_slot_offset,
    log_slot_inode,
    log_slot_text,
    read_slots,
    shares_slot,
    write_slot,
)
from notebook_app.core.record.outside import outside_change, outside_masked

SNAPSHOT_COST = 32 * 1024 * 1024
"""Replay cost (bytes rewritten, plus a little per event) after which a rewrite keeps a snapshot."""
EVENT_COST = 1024
"""What replaying one event costs besides its bytes: reading and parsing its line."""


@dataclass(frozen=True)
class Change:
    """What a write says about itself in its record, besides its bytes."""

    action: str
    args: Any = None
    output: str | None = None
    undoes: str | None = None
    restores: str | None = None
    extra: Mapping[str, Any] = field(default_factory=dict)
    """Fields the record carries besides the known ones (an approval names its proposal)."""
    secrets: tuple[SecretSpan, ...] = ()
    """Secrets this write removes (byte offsets in the file before it): the record keeps only where they were."""


@dataclass
class Known:
    """One file at this call's start, against what the log last left."""

    key: StatKey | None
    utf8: bool
    lines: int
    cost: int
    content: bytes | None = None
    """The whole content, when it was read (None: absent, or not read)."""
    whole: bool = False
    outside: Event | None = None
    """An outside change to record before this call's write."""
    base: bool = False
    """The log has no event of this file yet: its first one keeps the content before it."""


class Recorder:
    """The history's side of one locked call: knowledge of each file, and the events to write."""

    def __init__(
        self, home: Path, journal: Any, *, by: Actor, durable: bool, made: list[Path], slots: Any = None
    ) -> None:
        self.home = home
        self._journal = journal
        """Opens the journal (``.memory.journal``) for the slots: a callable returning its fd."""
        self._read = slots or (lambda: read_slots(home))
        """Reads every slot without making the journal (a call that writes nothing makes nothing)."""
        self.by = by
        self.durable = durable
        self.made = made
        self.unrecorded: str | None = None
        """Why this call's write is not in the history; None when it is."""
        self._known: dict[str, Known] = {}
        self._log_id: str | None | bool = False  # False: not looked at yet
        self._writer: LogWriter | None = None
        self._slots: bytearray | None = None
        self._parsed_log_slot: tuple[str, str | None, int] | None | bool = False
        self._cost = 0
        self.last_written: str | None = None
        """The id of the last record this call wrote."""
        self.changed: dict[str, tuple[str, str, Any]] = {}  # file -> (action, event id, outside's bytes): for git
        self._actions: dict[str, str] = {}

    # --- what the log last left ------------------------------------------------

    def _log_slot(self) -> tuple[str, str | None, int] | None:
        if self._parsed_log_slot is False:
            self._parsed_log_slot = log_slot_inode(self._raw_slot(LOG_SLOT))
        return self._parsed_log_slot  # type: ignore[return-value]

    def _raw_slot(self, offset: int) -> bytes | None:
        if self._slots is None:
            self._slots = bytearray(self._read())
        data = self._slots
        return bytes(data[offset : offset + SLOT]) if len(data) >= offset + SLOT else None

    def log_id(self) -> str | None:
        """The id of the home's log, None when it has none (nothing is made to find out).

        While the log is the file the journal last saw (same inode), one
        ``stat`` says so; otherwise its header is read.
        """
        if self._log_id is False and self._writer is not None:
            self._log_id = self._writer.log_id
        if self._log_id is False:
            known = self._log_slot()
            state = os.path.join(self.home, STATE_DIR)
            try:  # plain string paths: this runs on every add
                inode = os.stat(os.path.join(state, LOG_NAME), follow_symlinks=False).st_ino if _is_dir(state) else None
            except OSError:
                inode = None
            if inode is None:
                self._log_id = None
            elif known is not None and known[2] == inode:
                self._log_id = known[0]
            else:
                self._log_id = read_log_id(self.home)
        return self._log_id  # type: ignore[return-value]

    def slot(self, name: str) -> FileSlot | None:
        """The file's slot, only when it describes this log."""
        log_id = self.log_id()
        if log_id is None:
            return None
        known = self._log_slot()
        if known is None or known[0] != log_id:
            return None
        return FileSlot.parse(self._raw_slot(file_slot_offset(name)), name)

    def unchanged(self, name: str, key: StatKey | None, *, need_utf8: bool = True) -> bool:
        """Whether ``name`` is exactly as the log last left it (and UTF-8): then an add need not read it."""
        if name in self._known:
            known = self._known[name]
            return known.key == key and (known.utf8 or not need_utf8)
        slot = self.slot(name)
        if slot is None or slot.key != key or (need_utf8 and not slot.utf8):
            return False
        self._known[name] = Known(key, slot.utf8, slot.lines, slot.cost)
        return True

    def saw(self, name: str, key: StatKey | None, content: bytes | None) -> None:
        """The whole file now (None: absent): compare it with what the log last left."""
        known = self._known.get(name)
        if known is not None and known.whole and known.key == key:
            return
        utf8 = _is_utf8(content)
        slot = self.slot(name)
        if slot is not None and slot.key == key:
            self._known[name] = Known(key, utf8, slot.lines, slot.cost, content, whole=True)
            return
        fresh = Known(key, utf8, count_lines(content or b""), 0, content, whole=True)
        self._known[name] = fresh
        reader = open_reader(self.home) if self.log_id() is not None else None
        if reader is None:
            fresh.base = bool(content)
            return
        with reader:
            chain = file_events_backward(reader, name)
            if not chain:
                fresh.base = bool(content)
                return
            try:
                last = rebuild(chain, readable_state(self.home))
            except RebuildError:
                fresh.outside = outside_change(name, None, content, key, known_before=False)
                return
        if last != content:
            fresh.outside = outside_change(name, last, content, key, known_before=True)

    def known(self, name: str) -> Known | None:
        return self._known.get(name)

    # --- writing ---------------------------------------------------------------

    def writer(self) -> LogWriter | None:
        """The log, opened (made) for this write; None when it cannot be kept (see :attr:`unrecorded`)."""
        if self._writer is None and self.unrecorded is None:
            try:
                known = self._log_slot()
                self._writer = LogWriter.open(self.home, made=self.made, known=(known[0], known[2]) if known else None)
            except StateDirError as error:
                self.unrecorded = state_problem(self.home) or f"{error}: this write is not recorded"
        return self._writer

    def close(self) -> None:
        if self._writer is not None:
            self._writer.close()

    def events_for(
        self,
        name: str,
        change: Change,
        *,
        edit: tuple[Hunk, ...] | None,
        before: FileState,
        after: FileState,
        appended: str | None = None,
        after_content: bytes | None = None,
    ) -> list[Event]:
        """The events this write records, oldest first: an outside change seen first, then the write."""
        writer = self._writer
        assert writer is not None
        known = self._known[name]
        state = (
            Path(self.home, STATE_DIR) if known.outside is not None or known.base or after_content is not None else None
        )
        last = self._last_id(writer)
        events = []
        hidden = [(s.start, s.length) for s in change.secrets]
        content = mask(known.content, hidden) if hidden and known.content is not None else known.content
        if known.outside is not None:
            outside = known.outside if not hidden else outside_masked(known.outside, hidden, content)
            snap = (
                snapshots.store(state, content, made=self.made, durable=self.durable) if content is not None else None
            )  # type: ignore[arg-type]
            last = new_id(EventAction.OUTSIDE, last)
            events.append(replace(outside, id=last, snap=snap, edit=self._external(outside.edit)))
        base = None
        if known.base and content:
            base = snapshots.store(state, content, made=self.made, durable=self.durable)  # type: ignore[arg-type]
        if hidden:  # what the history keeps of the file before this write holds the marker, not the secret
            edit = _removed_masked(edit, hidden)
            if content is not None and before.sha256 is not None:
                before = replace(before, sha256=snapshots.digest(content))
        snap = None
        cost = known.cost + EVENT_COST + (after.size if appended is None else after.size - before.size)
        if after_content is not None and cost > SNAPSHOT_COST:
            snap = snapshots.store(state, after_content, made=self.made, durable=self.durable)  # type: ignore[arg-type]
            cost = 0
        self._cost = cost
        event = Event(
            id=new_id(change.action, last),
            time=now(),
            action=change.action,
            by=self.by,
            file=name,
            args=change.args,
            output=change.output,
            edit=self._external(edit),
            before=before,
            after=after,
            appended=appended,
            base=base,
            snap=snap,
            undoes=change.undoes,
            restores=change.restores,
            secrets=change.secrets,
            extra=change.extra,
        )
        events.append(event)
        self._actions[event.id] = change.action
        return events

    def clear_shared_slot(self, name: str) -> None:
        """Before a write of a topic file is journalled: blank the slot it shares (:func:`.journal.shares_slot`).

        A release before this one cannot read that write's intent and would leave its record unsettled; with the
        slot blank, the next writer reads the file whole and rebuilds it from the log instead of trusting a slot
        that describes the file before that record. A slot of one of the seven is left as it is."""
        if shares_slot(name):
            self._write_slot(self._journal(), "", file_slot_offset(name))

    def _write_slot(self, fd: int, text: str, offset: int) -> None:
        write_slot(fd, text, offset)
        self._parsed_log_slot = False
        if self._slots is not None:
            if len(self._slots) < offset + SLOT:
                self._slots.extend(b" " * (offset + SLOT - len(self._slots)))
            self._slots[offset : offset + SLOT] = text.encode("ascii").ljust(SLOT, b" ")

    def _external(self, edit: tuple[Hunk, ...] | None) -> tuple[Hunk, ...] | None:
        """``edit`` with large bytes moved to the snapshot store."""
        if edit is None or all(h.removed.size <= INLINE_LIMIT and h.inserted.size <= INLINE_LIMIT for h in edit):
            return edit
        state = self.home / STATE_DIR
        return tuple(
            replace(h, removed=self._keep(h.removed, state), inserted=self._keep(h.inserted, state)) for h in edit
        )

    def _keep(self, payload: Payload, state: Path) -> Payload:
        if payload.data is None or payload.size <= INLINE_LIMIT:
            return payload
        return Payload(payload.size, blob=snapshots.store(state, payload.data, made=self.made, durable=self.durable))

    def _last_id(self, writer: LogWriter) -> str | None:
        known = self._log_slot()
        if known is not None and known[0] == writer.log_id and known[1] is not None:
            return known[1]
        return writer.last_id()

    def plain_append(self, name: str, data: bytes) -> bool:
        """Whether this append can be recorded the quick way
        (:mod:`..log.append_record`): nothing else to record with it."""
        known = self._known.get(name)
        return known is not None and known.outside is None and not known.base and len(data) <= INLINE_LIMIT

    def next_id(self, action: str, cost: int) -> str:
        """An id for the quick way's record, and the replay cost it leaves."""
        assert self._writer is not None
        self._cost = cost
        self._actions[event_id := new_id(action, self._last_id(self._writer))] = action
        return event_id

    def wrote(
        self,
        name: str,
        event_id: str,
        lines: int,
        *,
        key: StatKey | None,
        utf8: bool,
        content: bytes | None,
        done: bool = False,
    ) -> None:
        """After the write landed: the file's slot, then the log's (and, when ``done``, slot 0 cleared with it)."""
        assert self._writer is not None
        cost = self._cost
        fd = self._journal()
        self._raw_slot(0)
        assert self._slots is not None
        offset = file_slot_offset(name)
        if len(self._slots) < offset + SLOT:
            self._slots.extend(b" " * (offset + SLOT - len(self._slots)))
        slot = FileSlot(key, utf8, lines, cost).text(name).encode("ascii")
        self._slots[offset : offset + SLOT] = (slot if len(slot) <= SLOT else b"").ljust(SLOT, b" ")
        # a slot that would not fit is left blank, never spilled into the next: a missing slot costs one full read
        log_text = log_slot_text(self._writer.log_id, event_id, self._writer.inode)
        self._slots[LOG_SLOT : LOG_SLOT + SLOT] = log_text.encode("ascii").ljust(SLOT, b" ")
        start = 0 if done else LOG_SLOT
        if done:
            self._slots[:SLOT] = b" " * SLOT
        os.pwrite(fd, bytes(self._slots[start : offset + SLOT]), start)  # one write within a page: whole or not at all
        self._parsed_log_slot = False
        self._log_id = self._writer.log_id
        self.last_written = event_id
        was = self._known.get(name)  # with an outside change seen first: its content, for git to commit it first
        self.changed[name] = (self._actions.get(event_id, "write"), event_id, was.content if was and was.outside else 0)
        self._known[name] = Known(key, utf8, lines, cost, content, whole=content is not None or key is None)


def _removed_masked(edit: tuple[Hunk, ...] | None, hidden: list[tuple[int, int]]) -> tuple[Hunk, ...] | None:
    """``edit`` with the secrets' bytes it removed (offsets in the file before it) replaced by the marker."""
    if edit is None:
        return None
    out = []
    for h in edit:
        if h.removed.data is not None:
            local = [(start - h.at, length) for start, length in hidden]
            h = replace(h, removed=Payload.of(mask(h.removed.data, local)))
        out.append(h)
    return tuple(out)


def _is_dir(path: str) -> bool:
    try:
        return stat.S_ISDIR(os.lstat(path).st_mode)
    except OSError:
        return False


def _is_utf8(content: bytes | None) -> bool:
    if content is None:
        return True
    try:
        content.decode("utf-8")
    except UnicodeDecodeError:
        return False
    return True
