"""Rebuilding a file's content from the log, and the line numbers each edit carries.

A file's content after any event is a starting point (a snapshot, or
nothing when the file began absent or empty) with the edits of its events
since applied in order. :func:`line_span` gives each edit the line numbers
blame needs, in the file as it was before the edit; :func:`diff_hunks` turns
two contents into line-aligned hunks (an outside change, a restore).
"""

from __future__ import annotations

import difflib
from collections.abc import Iterable, Sequence
from pathlib import Path

from notebook_app.core.record.log import snapshots
from notebook_app.core.record.log.events import Event, Hunk, Payload
from notebook_app.core.record.log.store import LogReader
from notebook_app.core.text.common_runs import common_prefix, common_suffix


class RebuildError(Exception):
    """The log cannot rebuild this content; the message says why."""


def count_lines(data: bytes) -> int:
    """Lines as the notebook numbers them: split at ``\\n``; a last line needs no newline."""
    if not data:
        return 0
    return data.count(b"\n") + (0 if data.endswith(b"\n") else 1)


def line_span(before: bytes, at: int, removed: bytes, inserted: bytes) -> tuple[int, int, int]:
    """(first line touched, lines it removed, lines it added) for an edit of ``before``.

    An edit of whole lines (it starts a line and what goes and what comes
    each end with a line ending) touches just those lines; any other edit
    touches every line it reaches into, which it rewrites.
    """
    line = before.count(b"\n", 0, at) + 1
    at_start = at == 0 or before[at - 1] == 0x0A
    if at_start and (not removed or removed.endswith(b"\n")) and (not inserted or inserted.endswith(b"\n")):
        return line, removed.count(b"\n"), inserted.count(b"\n")
    end = at + len(removed)
    window_start = before.rfind(b"\n", 0, at) + 1
    window_end = before.find(b"\n", end)
    window_end = len(before) if window_end < 0 else window_end + 1
    old = before[window_start:window_end]
    new = before[window_start:at] + inserted + before[end:window_end]
    return line, count_lines(old), count_lines(new)


def append_span(lines_before: int, ends_with_newline: bool, inserted: bytes) -> tuple[int, int, int]:
    """:func:`line_span` of an append, from the line count and the last byte alone (constant time)."""
    if ends_with_newline:
        return lines_before + 1, 0, count_lines(inserted)
    return lines_before, 1, inserted.count(b"\n") + (0 if inserted.endswith(b"\n") else 1)


def hunk(before: bytes, at: int, removed: bytes, inserted: bytes) -> Hunk:
    return Hunk(at, Payload.of(removed), Payload.of(inserted), *line_span(before, at, removed, inserted))


def diff_hunks(before: bytes, after: bytes) -> tuple[Hunk, ...]:
    """Line-aligned hunks that turn ``before`` into ``after``; the common head and tail are skipped first.

    The common head and tail are found on the bytes (compared in C), cut back
    to whole lines; only the lines between them are split and matched, so an
    outside append to a 2 MiB file is not a pass over its 70,000 lines.
    """
    if before == after:
        return ()
    same = common_prefix(before, after)
    start = before.rfind(b"\n", 0, same) + 1
    room = min(len(before), len(after)) - start
    back = common_suffix(before, after, room)
    at_a, at_b = len(before) - back, len(after) - back
    if back and (at_a == start or before[at_a - 1] == 0x0A) and (at_b == start or after[at_b - 1] == 0x0A):
        tail = back  # the shared tail begins a line in both
    else:
        newline = before.find(b"\n", at_a) if back else -1
        tail = len(before) - newline - 1 if newline >= 0 else 0
    old = _split_lines(before[start : len(before) - tail])
    new = _split_lines(after[start : len(after) - tail])
    starts = [start]
    for piece in old:
        starts.append(starts[-1] + len(piece))
    matcher = difflib.SequenceMatcher(None, old, new, autojunk=False)
    hunks = []
    for tag, i1, i2, j1, j2 in matcher.get_opcodes():
        if tag == "equal":
            continue
        at = starts[i1]
        removed = b"".join(old[i1:i2])
        inserted = b"".join(new[j1:j2])
        hunks.append(hunk(before, at, removed, inserted))
    return tuple(hunks)


def _split_lines(data: bytes) -> list[bytes]:
    return data.splitlines(keepends=True) if b"\r" not in data else _split_lf(data)


def _split_lf(data: bytes) -> list[bytes]:
    """Lines ending at ``\\n`` only (``splitlines`` would also split at a lone ``\\r``)."""
    pieces = data.split(b"\n")
    lines = [piece + b"\n" for piece in pieces[:-1]]
    if pieces[-1]:
        lines.append(pieces[-1])
    return lines


def payload_bytes(payload: Payload, state: Path | None) -> bytes:
    if payload.data is not None:
        return payload.data
    if payload.redacted:
        raise RebuildError("its text was redacted from the history")
    if payload.blob is None or state is None:
        raise RebuildError("its bytes are not in the history")
    try:
        return snapshots.load(state, payload.blob)
    except snapshots.SnapshotMissing as error:
        raise RebuildError(str(error)) from None


def apply(content: bytes | None, event: Event, state: Path | None) -> bytes | None:
    """The file's content after ``event``, from its content before (None: absent)."""
    if event.after is not None and not event.after.exists:
        return None
    if event.snap is not None and state is not None:
        try:
            return snapshots.load(state, event.snap)
        except snapshots.SnapshotMissing:
            pass  # rebuild it from the edit instead
    if event.edit is None:
        raise RebuildError(f"{event.id} recorded no edit")
    data = bytearray(content or b"")
    shift = 0
    for h in event.edit:
        start = h.at + shift
        data[start : start + h.removed.size] = payload_bytes(h.inserted, state)
        shift += h.delta
    return bytes(data)


def is_start(event: Event) -> bool:
    """Whether the content before ``event`` is known without earlier events."""
    return event.base is not None or (event.before is not None and (not event.before.exists or event.before.size == 0))


def start_content(event: Event, state: Path | None) -> bytes | None:
    if event.base is not None:
        if state is None:
            raise RebuildError("its starting snapshot is not there")
        try:
            return snapshots.load(state, event.base)
        except snapshots.SnapshotMissing as error:
            raise RebuildError(str(error)) from None
    return None if event.before is not None and not event.before.exists else b""


def _after_known(event: Event) -> bool:
    """Whether the content after ``event`` is known without earlier events."""
    return event.snap is not None or (event.after is not None and not event.after.exists)


def file_events_backward(reader: LogReader, name: str, end: int | None = None) -> list[Event]:
    """``name``'s write events from the newest back to one the content can start from, oldest first."""
    needle = b'"file":"' + name.encode() + b'"'
    chain: list[Event] = []
    for _, line in reader.backward(end):
        if needle not in line[:120]:
            continue
        try:
            event = Event.from_line(line)
        except Exception:
            continue
        if not event.is_write:
            continue
        chain.append(event)
        if _after_known(event) or is_start(event):
            break
    chain.reverse()
    return chain


def rebuild(chain: Sequence[Event], state: Path | None, upto: str | None = None) -> bytes | None:
    """The content after the last event of ``chain`` (or after ``upto``), which begins at a start point."""
    if not chain:
        raise RebuildError("no event of this file is in the history")
    first = chain[0]
    rest: Iterable[Event] = chain
    if is_start(first):
        content = start_content(first, state)
    elif first.after is not None and not first.after.exists:
        content, rest = None, chain[1:]
    elif first.snap is not None:
        if state is None:
            raise RebuildError("its snapshot is not there")
        try:
            content = snapshots.load(state, first.snap)
        except snapshots.SnapshotMissing as error:
            raise RebuildError(str(error)) from None
        rest = chain[1:]
    else:
        raise RebuildError(f"the history of this file begins at {first.id}, whose content before is not kept")
    if first.id == upto and rest is not chain:
        return content
    for event in rest:
        content = apply(content, event, state)
        if event.id == upto:
            break
    return content
