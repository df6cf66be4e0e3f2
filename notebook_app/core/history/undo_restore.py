"""Undo any record, and restore a file to its state after any record; each is itself a record.

Undo applies the inverse of a record's edit where its bytes are now: each
place it wrote is followed through the records since (an edit before it
moves it, one after it does not), and the bytes there must still be what it
wrote. A later record that overlaps that place, or, for a deletion being
undone, edits at that very place, refuses the undo, naming the record;
nothing is written. A record that was undone and its undo cancel out and are
passed over, so undoing every record newest first walks back to the start.
Undoing a file's creation deletes the file only if it is still exactly what
that record made. An undo is a record too: undoing it redoes.

Both run under the home's lock and through the same recorded writes as the
tool; both have a dry run that writes nothing (not even ``.notebook/``).
"""

from __future__ import annotations

import os
from collections.abc import Sequence
from dataclasses import dataclass, replace
from pathlib import Path

from notebook_app.core.fs.state_dir import readable_state
from notebook_app.core.history.held import content_now, session
from notebook_app.core.history.query import (
    Found,
    HistoryError,
    events_after,
    find,
    not_a_file,
    redacted_in,
    state_after,
    undoable,
    unified,
)
from notebook_app.core.home.layout import FLAT, FileMap
from notebook_app.core.home.soul import home_path
from notebook_app.core.record.log.actor import Actor
from notebook_app.core.record.log.event_action import EventAction
from notebook_app.core.record.log.events import Event, Hunk
from notebook_app.core.record.log.replay import RebuildError, diff_hunks, hunk, payload_bytes
from notebook_app.core.record.log.store import open_reader
from notebook_app.core.memory.plan import load_outcome
from notebook_app.core.record.recording import Change
from notebook_app.core.record.storage import LockedHome, StorageError
from notebook_app.core.text.times import local_time

Home = str | os.PathLike[str]


@dataclass(frozen=True)
class HistoryResult:
    """What an undo or restore did (or, as a dry run, would do), worded like the tool's result."""

    output: str
    is_error: bool = False
    diff: str = ""
    """The change as a unified diff of the file: now → after."""
    record: str | None = None
    """The id of the record this wrote; None for a dry run or a refusal."""
    unrecorded: str | None = None


@dataclass(frozen=True)
class Step:
    """One edit in sequence: at ``at``, ``removed`` bytes went and ``inserted`` bytes came."""

    at: int
    removed: int
    inserted: int


def steps(event: Event) -> list[Step] | None:
    """A record's hunks as edits applied one after another; None for a change of the whole file."""
    if event.edit is None:
        return None
    out, shift = [], 0
    for h in event.edit:
        out.append(Step(h.at + shift, h.removed.size, h.inserted.size))
        shift += h.delta
    return out


def _swap(s: Step, t: Step) -> tuple[Step, Step] | None:
    """``s`` then ``t`` as ``t`` then ``s`` (positions adjusted), when they touch different bytes."""
    ambiguous = s.inserted == 0 and t.removed == 0 and t.at == s.at
    if ambiguous:
        return None
    if t.at >= s.at + s.inserted:
        return Step(t.at - (s.inserted - s.removed), t.removed, t.inserted), s
    if t.at + t.removed <= s.at:
        return t, Step(s.at + (t.inserted - t.removed), s.removed, s.inserted)
    return None


def _swap_lists(first: Sequence[Step], then: Sequence[Step]) -> tuple[list[Step], list[Step]] | None:
    moved = list(first)
    out = []
    for t in then:
        current, shifted = t, []
        for s in reversed(moved):
            swapped = _swap(s, current)
            if swapped is None:
                return None
            current, s_after = swapped
            shifted.append(s_after)
        moved = list(reversed(shifted))
        out.append(current)
    return out, moved


def collapse(later: list[tuple[Event, list[Step] | None]]) -> list[tuple[Event, list[Step] | None]]:
    """The records since, without each one that was undone and its undo, where they cancel out exactly.

    A redo (the undo of an undo) carries the effect of the record first
    undone, so a later undo of that record cancels the redo.
    """
    kept: list[tuple[Event, list[Step] | None]] = []
    carries: dict[str, str] = {}
    """Event id → the id of the record whose effect it carries (itself, unless it is a redo)."""

    def carried(event: Event) -> str:
        return carries.get(event.id, event.id)

    for event, edits in later:
        target = None
        if event.undoes is not None:
            target = next(
                (i for i, (e, _) in enumerate(kept) if carried(e) == event.undoes or e.id == event.undoes), None
            )
        if target is not None and edits is not None and kept[target][1] is not None:
            between = _moved_past(kept[target][1], kept[target + 1 :])
            assert event.edit is not None
            if between is not None and [(h.at, h.removed.size, h.inserted.size) for h in event.edit] == [
                (s.at, s.inserted, s.removed) for s in between[1]
            ]:
                carries[event.id] = carried(kept[target][0])
                kept = kept[:target] + between[0]
                continue
        if event.undoes is not None and event.undoes in carries:
            carries[event.id] = carries[event.undoes]  # a redo: it does again what was undone
        kept.append((event, edits))
    return kept


def _moved_past(
    edits: list[Step] | None, others: list[tuple[Event, list[Step] | None]]
) -> tuple[list[tuple[Event, list[Step] | None]], list[Step]] | None:
    """``others`` as they would be without ``edits`` first, and ``edits`` moved after them; None if they touch."""
    moved = edits
    between = []
    for other, other_edits in others:
        swapped = _swap_lists(moved, other_edits) if moved is not None and other_edits is not None else None
        if swapped is None:
            return None
        between.append((other, swapped[0]))
        moved = swapped[1]
    assert moved is not None
    return between, moved


def _map(a: int, b: int, step: Step) -> tuple[int, int] | None:
    """The span [a, b) after ``step``, or None when the step overlaps it (or, for an empty span, edits there)."""
    delta = step.inserted - step.removed
    if a == b:
        if step.at <= a <= step.at + step.removed:
            return None
        return (a + delta, b + delta) if step.at + step.removed < a else (a, b)
    if step.at + step.removed <= a:
        return a + delta, b + delta
    if step.at >= b:
        return a, b
    return None


@dataclass(frozen=True)
class _Plan:
    content: bytes | None
    """The file after the undo (None: remove it)."""
    hunks: tuple[Hunk, ...]


def plan_undo(
    record: Event, later: list[Event], pending: Event | None, content: bytes | None, state: os.PathLike[str] | None
) -> _Plan | str:
    """The undo of ``record`` on ``content`` (the file now), or why not, in words."""
    why = undoable(record)
    if why is not None:
        return f"it cannot be undone: {why}"
    assert record.edit is not None and record.file is not None
    name = record.file
    items = [(event, steps(event)) for event in later] + ([(pending, steps(pending))] if pending is not None else [])
    since = collapse(items)
    for event, _ in since:
        if event.undoes == record.id:
            return f"it was undone by {event.id}; undo {event.id} to redo it"
    spans, shift = [], 0
    for h in record.edit:
        spans.append((h.at + shift, h.at + shift + h.inserted.size, h))
        shift += h.delta
    for event, edits in since:
        blocker = "an outside change not yet recorded" if event is pending else describe(event)
        if edits is None:
            return f"{blocker} rewrote {name} since; nothing was changed"
        for step in edits:
            mapped = []
            for a, b, h in spans:
                moved = _map(a, b, step)
                if moved is None:
                    return f"{blocker} changed that part of {name} since; nothing was changed"
                mapped.append((*moved, h))
            spans = mapped
    try:
        wrote = [(a, b, payload_bytes(h.inserted, state), payload_bytes(h.removed, state)) for a, b, h in spans]
    except RebuildError as error:
        return f"it cannot be undone: {error}"
    created = record.before is not None and not record.before.exists
    deleted = record.after is not None and not record.after.exists
    if deleted:
        if content is not None:
            return f"{name} exists again; nothing was changed"
        return _Plan(wrote[0][3], (hunk(b"", 0, b"", wrote[0][3]),))
    now = content or b""
    for a, b, inserted, _ in wrote:
        if content is None or now[a:b] != inserted:
            return (
                f"{name} does not hold at byte {a} what {record.id} wrote (it "
                "changed in a way the history did not record); nothing was changed"
            )
    if created and now == wrote[0][2] and len(wrote) == 1:
        return _Plan(None, (hunk(now, 0, now, b""),))
    after = bytearray(now)
    for a, b, _, removed in reversed(wrote):
        after[a:b] = removed
    return _Plan(bytes(after), tuple(hunk(now, a, inserted, removed) for a, _, inserted, removed in wrote))


def describe(event: Event) -> str:
    """``w-… (replace by mcp kip-host 1.0, 2026-11-30 21:14:41 +01:00)``: a record named in a message."""
    return f"{event.id} ({event.action} by {who(event.by)}, {local_time(event.time)})"


def who(by: Actor) -> str:
    """An actor in words: ``notebook``, ``cli``, ``library``, ``outside``, ``mcp:claude-code 2.0.1``.

    A reviewed write names its approver too: ``mcp:claude-code 2.0.1 approved by cli``.
    """
    approved = f" approved by {who(by.approved_by)}" if by.approved_by is not None else ""
    if by.session is None and by.client_name is None:
        return by.kind.value + approved
    client = " ".join(part for part in (by.client_name, by.client_version) if part) or "(client unnamed)"
    return f"{by.kind.value}:{client}{approved}"


def undo(
    home: Home, record_id: str, *, by: Actor, dry_run: bool = False, durable: bool = True, files: FileMap = FLAT
) -> HistoryResult:
    """Undo the record ``record_id`` (any unique prefix) as ``by``; with ``dry_run``, only say what it would do."""
    root = home_path(home)
    try:
        with session(root, by, dry_run, durable, files) as (locked, recorder):
            found = find(root, record_id)
            record = found.event
            if record.file is None or found.end is None:
                return _refused(record.id, undoable(record) or "it changed no file")
            content = content_now(root, record.file, locked, recorder)
            known = recorder.known(record.file)
            later = _later(root, record.file, found)
            plan = plan_undo(record, later, known.outside if known else None, content, readable_state(root))
            if isinstance(plan, str):
                return _refused(record.id, plan)
            label = f"undo {record.id}"
            diff = unified(record.file, content, plan.content, "now", f"after {label}")
            if locked is None:
                return HistoryResult(
                    f"dry run: {label} would change {record.file}:\n{diff}"
                    if diff
                    else f"dry run: {label} changes nothing",
                    diff=diff,
                )
            change = Change(EventAction.UNDO, {"id": record.id}, undoes=record.id)
            return _write(locked, record.file, plan.content, plan.hunks, change, label, diff)
    except (HistoryError, StorageError) as error:
        return HistoryResult(_nothing_changed(str(error)), is_error=True)
    except OSError as error:
        return HistoryResult(f"could not undo ({error.strerror or error}); nothing was changed", is_error=True)


def restore(
    home: Home,
    name: str,
    record_id: str,
    *,
    by: Actor,
    dry_run: bool = False,
    durable: bool = True,
    files: FileMap = FLAT,
) -> HistoryResult:
    """Put ``name`` (by its list's name or its path: :meth:`FileMap.recorded`) back as it was just after record
    ``record_id``; with ``dry_run``, only show the diff."""
    root = home_path(home)
    recorded = files.recorded(name)
    if recorded is None:
        return HistoryResult(f"{not_a_file(files, name)}; nothing was changed", is_error=True)
    name = recorded
    try:
        with session(root, by, dry_run, durable, files) as (locked, recorder):
            found = find(root, record_id)
            target = state_after(root, name, found)
            content = content_now(root, name, locked, recorder)
            label = f"restore to {found.event.id}"
            diff = unified(name, content, target, "now", f"after {found.event.id}")
            if content == target:
                return HistoryResult(f"ok ({label} → {name}); it already reads so, nothing was written")
            marker = _MARKER_NOTE if redacted_in(root, name, found, target) else ""
            if locked is None:
                return HistoryResult(f"dry run: {label} would change {name}{marker}:\n{diff}", diff=diff)
            hunks = diff_hunks(content or b"", target or b"") if target is not None else ()
            change = Change(EventAction.RESTORE, {"file": name, "to": found.event.id}, restores=found.event.id)
            written = _write(locked, name, target, hunks, change, label, diff)
            return replace(written, output=written.output + marker) if marker and not written.is_error else written
    except (HistoryError, StorageError) as error:
        return HistoryResult(_nothing_changed(str(error)), is_error=True)
    except OSError as error:
        return HistoryResult(
            f"could not restore {name} ({error.strerror or error}); nothing was changed", is_error=True
        )


def _nothing_changed(why: str) -> str:
    return why if why.endswith(("nothing was written", "nothing was changed")) else f"{why}; nothing was changed"


_MARKER_NOTE = " (it held text redacted from the history: the marker, *, comes back in its place)"


def _refused(record_id: str, why: str) -> HistoryResult:
    return HistoryResult(
        f"cannot undo {record_id}: {why}" + ("" if why.endswith("nothing was changed") else "; nothing was changed"),
        is_error=True,
    )


def _later(root: os.PathLike[str], name: str, found: Found) -> list[Event]:
    reader = open_reader(Path(root))
    if reader is None or found.end is None:
        return []
    with reader:
        return [event for _, event in events_after(reader, name, found.end)]


def _write(
    locked: LockedHome, name: str, content: bytes | None, hunks: tuple[Hunk, ...], change: Change, label: str, diff: str
) -> HistoryResult:
    if content is None:
        output = f"ok ({label} → {name}); {name} is removed"
        locked.delete(name, change=Change(change.action, change.args, output, change.undoes, change.restores))
    else:
        start = hunks[0].at if hunks else 0
        inserted = sum(h.inserted.size for h in hunks)
        removed = sum(h.removed.size for h in hunks)
        outcome = load_outcome(name, start=start, inserted=inserted, size=len(content), removed=removed)
        output = f"ok ({label} → {name}); {outcome}"
        locked.rewrite(
            name,
            content,
            validated=False,
            change=Change(change.action, change.args, output, change.undoes, change.restores),
            hunks=hunks,
        )
    written = locked.recorder.last_written
    return HistoryResult(output, diff=diff, record=written, unrecorded=locked.unrecorded)
