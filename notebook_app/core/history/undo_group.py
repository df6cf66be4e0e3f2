"""Undo of a record that is part of a group (a tidy: its archive and its sources), as one: every file or none.

A group's records each carry ``group``, the id of its head (:mod:`..store.group`). Undoing any of them plans the
undo of each (:func:`.undo_restore.plan_undo`, the same guards as any undo: a later record that changed that
place refuses it, naming the record) and, when every one can be undone, writes them as one group of its own:
the sources first, the archive last, so an entry a tidy moved is always in at least one file. The undo's
records form a group too, so undoing the undo redoes the whole. A record of no group is undone as before.
"""

from __future__ import annotations

import os
from contextlib import suppress
from pathlib import Path

from notebook_app.core.fs.state_dir import readable_state
from notebook_app.core.history.held import content_now, session
from notebook_app.core.history.query import Found, HistoryError, find, unified
from notebook_app.core.history.undo_restore import HistoryResult, _later, _nothing_changed, _refused, plan_undo
from notebook_app.core.history.undo_restore import undo as undo_one
from notebook_app.core.home.layout import FLAT, FileMap
from notebook_app.core.record.log.actor import Actor
from notebook_app.core.record.log.event_action import EventAction
from notebook_app.core.record.log.events import Event
from notebook_app.core.record.log.store import open_reader
from notebook_app.core.record.group import FileWrite, GroupCut, write_group
from notebook_app.core.record.recording import Change
from notebook_app.core.record.storage import StorageError


def undo(
    home: str | os.PathLike[str],
    record_id: str,
    *,
    by: Actor,
    dry_run: bool = False,
    durable: bool = True,
    files: FileMap = FLAT,
) -> HistoryResult:
    """Undo the record ``record_id`` (any unique prefix) as ``by``: its whole group when it has one.

    ``files``: the home's host, whose own locks the write takes too (Hermes's on its stores)."""
    root = Path(home).expanduser()
    try:
        found = find(root, record_id)
    except (HistoryError, OSError):
        return undo_one(home, record_id, by=by, dry_run=dry_run, durable=durable, files=files)  # it words the refusal
    head = found.event.extra.get("group")
    if not isinstance(head, str):
        return undo_one(home, record_id, by=by, dry_run=dry_run, durable=durable, files=files)
    try:
        return _undo_group(root, head, by, dry_run, durable, files)
    except GroupCut as error:
        return HistoryResult(f"the undo was cut short: {error}", is_error=True)
    except (HistoryError, StorageError) as error:
        return HistoryResult(_nothing_changed(str(error)), is_error=True)
    except OSError as error:
        return HistoryResult(f"could not undo ({error.strerror or error}); nothing was changed", is_error=True)


def members(root: Path, head: str) -> list[Found]:
    """The records of the group ``head`` names, in the order written (the head first)."""
    first = find(root, head)
    reader = open_reader(root)
    if reader is None or first.end is None:
        return [first]
    found = [first]
    with reader:
        for offset, line in reader.forward(first.end):
            if head.encode() not in line:
                continue
            event = Event.from_line(line)
            if event.extra.get("group") == head and event.id != head:
                found.append(Found(event, offset + len(line) + 1))
    return found


def _undo_group(root: Path, head: str, by: Actor, dry_run: bool, durable: bool, files: FileMap) -> HistoryResult:
    with session(root, by, dry_run, durable, files) as (locked, recorder):
        group = members(root, head)
        label = f"undo {head}"
        plans = []
        for item in group:
            record = item.event
            assert record.file is not None
            content = content_now(root, record.file, locked, recorder)
            known = recorder.known(record.file)
            later = _later(root, record.file, item)
            plan = plan_undo(record, later, known.outside if known else None, content, readable_state(root))
            if isinstance(plan, str):
                return _refused(head, f"{record.file}: {plan}")
            plans.append((record, content, plan))
        diff = "".join(unified(r.file or "", now, p.content, "now", f"after {label}") for r, now, p in plans)
        names = [record.file or "" for record, _, _ in plans]
        if locked is None:
            return HistoryResult(f"dry run: {label} would change {', '.join(names)}:\n{diff}", diff=diff)
        archive_removed = any(p.content is None for _, _, p in plans)
        output = f"ok ({label} → {', '.join(reversed(names))}); every file is back as it was before it"
        output += "; the archive it made is removed" if archive_removed else ""
        writes = [
            FileWrite(
                record.file or "",
                plan.content,
                Change(EventAction.UNDO, {"id": record.id}, output, undoes=record.id),
                plan.hunks,
            )
            for record, _, plan in reversed(plans)  # the sources first: a moved entry is never in neither file
        ]
        ids = write_group(locked, writes)
        for record, _, plan in plans:
            _remove_made_folder(root, record, plan.content)
        return HistoryResult(output, diff=diff, record=ids[0] if ids else None, unrecorded=locked.unrecorded)


def _remove_made_folder(root: Path, record: Event, content: bytes | None) -> None:
    """The folder a tidy made for its archive (its record's ``made``), once the undo removed the archive and the
    folder holds nothing else: the home is as it was before the tidy. A folder with anything in it stays."""
    made = record.extra.get("made")
    if content is not None or not isinstance(made, str) or made != os.path.dirname(record.file or ""):
        return
    with suppress(OSError):  # not empty, or not there: it stays as it is
        (root / made).rmdir()
