"""Reading a home's history: the newest records, one record by a prefix of its id, any file state.

Nothing here writes: listing, a diff, a dry run or a check never makes
``.notebook/``. The records are the event log's events, newest first, plus
the calls of agent sessions recorded before the log existed (their old
call files, read where they are), shown with ``j-`` ids and never
undoable. Listing the newest N reads the log backwards and costs the same
for a log of 100 events as of 100,000.
"""

from __future__ import annotations

import difflib
import os
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from notebook_app.core.fs.state_dir import readable_state
from notebook_app.core.home.layout import FLAT, FileMap
from notebook_app.core.home.names import is_archive_name, is_topic_name
from notebook_app.core.home.reading import read_slot
from notebook_app.core.home.soul import BOOTSTRAP_ORDER, home_path
from notebook_app.core.record.log.actor import Actor
from notebook_app.core.record.log.event_action import EventAction
from notebook_app.core.record.log.events import Event, EventError
from notebook_app.core.record.log.ids import ID_KINDS, ID_PATTERN
from notebook_app.core.record.log.replay import RebuildError, file_events_backward, is_start, rebuild, start_content
from notebook_app.core.record.log.store import LogReader, open_reader
from notebook_app.core.sessions.agents import old_call_files
from notebook_app.core.record.journal import LOG_SLOT, FileSlot, file_slot_offset, log_slot

OLD_JOURNAL_KIND = "j"


class HistoryError(Exception):
    """A history question that has no answer (an unknown or ambiguous id, a state that cannot be rebuilt)."""


def undoable(event: Event) -> str | None:
    """Why ``event`` cannot be undone, None when it can (the content guard is checked when undoing)."""
    if event.extra.get("old_journal"):
        return "it was written before the history began (read from an old session journal)"
    if not event.is_write:
        return f"it is {'a ' + event.action if event.action != 'failed' else 'a failed call'}, not a write"
    if event.secrets:
        return "undoing it would restore a secret it removed (the history keeps only where it was)"
    if event.redacted:
        return "its text was redacted from the history"
    if event.edit is None:
        return "the content before it is not in the history"
    return None


def record_json(event: Event) -> dict[str, Any]:
    """A record as ``history --json`` prints it: the event as the log keeps it, and whether it can be undone."""
    value = event.to_json()
    value["undoable"] = undoable(event) is None
    return value


def not_a_file(files: FileMap, given: str) -> str:
    """Why ``given`` names no file whose history a home opened as ``files`` keeps, in words."""
    base = given.rpartition("/")[2]
    if files.reads_on_demand(given) and not files.edits_whole(given):  # an OpenClaw daily note: in the list
        return f"{given} is a file the host reads on demand: the notebook never writes it, so it has no history"
    if base in BOOTSTRAP_ORDER:
        return f"{given} is not a file of this home: its {base} is {files.relative(base)}"
    return f"not a file of this home: {given!r} (its history names {', '.join(files.relative(n) for n in files.order)})"


def history(
    home: str | os.PathLike[str],
    *,
    file: str | None = None,
    limit: int | None = None,
    by: str | None = None,
    files: FileMap = FLAT,
) -> list[Event]:
    """The home's records, newest first: only ``file``'s, only those by ``by`` (a kind), at most ``limit``.

    ``file`` as the list shows it or by its path (:meth:`..home.layout.FileMap.recorded`); one that names no
    file of the home opened as ``files`` has no records.
    """
    root = home_path(home)
    if file is not None:
        recorded = files.recorded(file)
        if recorded is None:
            return []
        file = recorded
    wanted = _filter(file, by)
    records: list[Event] = []
    reader = open_reader(root)
    if reader is not None:
        with reader:
            for _, line in reader.backward():
                if file is not None and b'"file":"' + file.encode() + b'"' not in line[:120]:
                    continue
                try:
                    event = Event.from_line(line)
                except EventError:
                    continue
                if wanted(event):
                    records.append(event)
                    if limit is not None and len(records) >= limit:
                        break
    old = [event for event in old_journal_records(root) if wanted(event)]
    if old:
        records = sorted(records + old, key=lambda e: e.time, reverse=True)
    return records[:limit] if limit is not None else records


def _filter(file: str | None, by: str | None):  # type: ignore[no-untyped-def]
    def wanted(event: Event) -> bool:
        return (file is None or event.file == file) and (by is None or event.by.kind.value == by)

    return wanted


def old_journal_records(home: Path) -> list[Event]:
    """The calls in agent sessions' old call files, as records that cannot be undone."""
    records = []
    for session, session_id, entries in old_call_files(home):
        actor = Actor.mcp(
            session_id, session.client_name if session else None, session.client_version if session else None
        )
        for index, entry in enumerate(entries):
            action = entry.action if not entry.is_error and isinstance(entry.action, str) else EventAction.FAILED
            records.append(
                Event(
                    id=f"{OLD_JOURNAL_KIND}-{session_id}-{index + 1:04d}",
                    time=entry.time,
                    action=action,
                    by=actor,
                    file=entry.file,
                    applied=not entry.is_error,
                    args={
                        "action": entry.action,
                        "target": entry.target,
                        "text": entry.text,
                        "with": entry.replacement,
                    },
                    output=entry.output,
                    extra={"old_journal": True},
                )
            )
    return records


@dataclass(frozen=True)
class Found:
    """A record found by its id, and where its line ends in the log (None for a record from an old call file)."""

    event: Event
    end: int | None


def find(home: str | os.PathLike[str], prefix: str) -> Found:
    """The one record whose id starts with ``prefix`` (the kind may be left out); HistoryError otherwise."""
    root = home_path(home)
    given = prefix.strip()
    if not given:
        raise HistoryError("no record id given")
    said = given
    if given in ID_KINDS:
        given += "-"  # a bare kind (``w``) is the start of every id of that kind: ambiguous unless there is one
    with_kind = len(given) > 1 and given[1] == "-"
    matches: list[Found] = []
    reader = open_reader(root)
    if reader is not None:
        with reader:
            for offset, line in reader.forward():
                found = _id_of(line)
                if found is None or not (found.startswith(given) if with_kind else found[2:].startswith(given)):
                    continue
                try:
                    matches.append(Found(Event.from_line(line), offset + len(line) + 1))
                except EventError:
                    continue
    if given.startswith(OLD_JOURNAL_KIND + "-") or not with_kind:
        matches += [
            Found(e, None) for e in old_journal_records(root) if e.id.startswith(given) or e.id[2:].startswith(given)
        ]
    if not matches:
        raise HistoryError(f"no record {said} in the history of {root}")
    if len(matches) > 1:
        shown = ", ".join(m.event.id for m in matches[:5]) + (" …" if len(matches) > 5 else "")
        raise HistoryError(f"{said} is ambiguous: it begins {len(matches)} record ids ({shown}); give more of it")
    return matches[0]


def _id_of(line: bytes) -> str | None:
    if not line.startswith(b'{"id":"'):
        return None
    end = line.find(b'"', 7)
    found = line[7:end].decode("ascii", "replace")
    return found if ID_PATTERN.fullmatch(found) else None


def state_after(home: str | os.PathLike[str], name: str, found: Found) -> bytes | None:
    """``name``'s content just after the record (None: absent); HistoryError when it cannot be rebuilt.

    The record may be another file's: then it is ``name`` as it was at that point of the log.
    """
    root = home_path(home)
    if found.end is None:
        raise HistoryError("a record from an old session journal has no content in the history")
    with _reader(root) as reader:
        chain = file_events_backward(reader, name, min(found.end, reader.end))
    if not chain:
        raise HistoryError(f"{name} has no record up to {found.event.id}: its content then is not in the history")
    return _rebuilt(root, name, chain)


def redacted_in(home: str | os.PathLike[str], name: str, found: Found, content: bytes | None) -> bool:
    """Whether ``content`` (``name`` just after the record) holds a marker a redaction left (:mod:`..log.redaction`).

    So a restore to a state that held a secret can say it gives back the marker.
    """
    if not content or b"**" not in content or found.end is None:
        return False
    needle = b'"file":"' + name.encode() + b'"'
    reader = open_reader(home_path(home))
    if reader is None:
        return False
    with reader:
        for offset, line in reader.forward():
            if offset >= found.end:
                break
            if needle in line[:120] and b'"redacted":true' in line:
                return True
    return False


def state_before(home: str | os.PathLike[str], found: Found) -> bytes | None:
    """The content of the record's file just before it (None: absent)."""
    root = home_path(home)
    event = found.event
    assert event.file is not None
    if found.end is None:
        raise HistoryError("a record from an old session journal has no content in the history")
    try:
        if is_start(event):
            return start_content(event, readable_state(root))
    except RebuildError as error:
        raise HistoryError(f"{event.file} cannot be rebuilt before {event.id}: {error}") from None
    with _reader(root) as reader:
        chain = file_events_backward(reader, event.file, found.end - len(event.line()))
    if not chain:
        raise HistoryError(f"{event.file} before {event.id} is not in the history")
    return _rebuilt(root, event.file, chain)


def _reader(root: Path) -> LogReader:
    reader = open_reader(root)
    if reader is None:
        raise HistoryError(f"{root} has no history")
    return reader


def _rebuilt(root: Path, name: str, chain: list[Event]) -> bytes | None:
    try:
        return rebuild(chain, readable_state(root))
    except RebuildError as error:
        raise HistoryError(f"{name} cannot be rebuilt at that point: {error}") from None


@dataclass(frozen=True)
class RecordDiff:
    """A record's file before and after it, and the unified diff between them."""

    event: Event
    before: bytes | None
    after: bytes | None
    text: str


def record_diff(home: str | os.PathLike[str], record_id: str) -> RecordDiff:
    """The change a record made, as a unified diff of its file (hidden characters are kept as they are)."""
    found = find(home, record_id)
    event = found.event
    if event.file is None or not event.is_write:
        raise HistoryError(f"{event.id} is {event.action}: it changed no file")
    before = state_before(home, found)
    after = state_after(home, event.file, found)
    return RecordDiff(
        event, before, after, unified(event.file, before, after, f"before {event.id}", f"after {event.id}")
    )


def unified(name: str, before: bytes | None, after: bytes | None, old_label: str, new_label: str) -> str:
    """A unified diff of two contents of ``name`` (absent: no lines), three lines of context."""
    old = _lines(before)
    new = _lines(after)
    return "".join(difflib.unified_diff(old, new, f"{name} ({old_label})", f"{name} ({new_label})"))


def _lines(data: bytes | None) -> list[str]:
    if not data:
        return []
    lines = data.decode("utf-8", "replace").split("\n")
    if lines[-1] == "":
        lines.pop()
        return [line + "\n" for line in lines]
    return [line + "\n" for line in lines[:-1]] + [lines[-1] + "\n\\ No newline at end of file\n"]


def check(home: str | os.PathLike[str]) -> list[str]:
    """Where the files and the history disagree, in words; empty when every file is as its last record left it.

    A file changed from outside and not yet recorded is a disagreement until
    the next write records it.
    """
    root = home_path(home)
    problems = []
    reader = open_reader(root)
    if reader is None:
        return []
    with reader:
        topics = {  # Claude Code's topic files, edited whole; tidy's archives
            event.file for event in reader.events() if is_topic_name(event.file) or is_archive_name(event.file)
        }
        for name in (*BOOTSTRAP_ORDER, *sorted(topics)):
            chain = file_events_backward(reader, name)
            if not chain:
                continue
            try:
                last = rebuild(chain, readable_state(root))
            except RebuildError as error:
                problems.append(f"{name}: the history cannot rebuild it ({error})")
                continue
            now = _disk(root / name)
            if now != last:
                problems.append(f"{name} is not as its last record ({chain[-1].id}) left it")
    return problems


def _disk(path: Path) -> bytes | None:
    try:
        return path.read_bytes()
    except FileNotFoundError:
        return None


def slot_of(home: Path, name: str) -> FileSlot | None:
    """The journal's record of ``name`` as the log last left it, when it describes this home's log."""
    reader = open_reader(home)
    if reader is None:
        return None
    with reader:
        log_id = reader.log_id
    known = log_slot(read_slot(home, LOG_SLOT))
    if known is None or known[0] != log_id:
        return None
    return FileSlot.parse(read_slot(home, file_slot_offset(name)), name)


def events_after(reader: LogReader, name: str, start: int) -> Iterator[tuple[int, Event]]:
    """``name``'s write events after byte ``start`` of the log, oldest first."""
    needle = b'"file":"' + name.encode() + b'"'
    for offset, line in reader.forward(start):
        if needle not in line[:120]:
            continue
        try:
            event = Event.from_line(line)
        except EventError:
            continue
        if event.is_write:
            yield offset, event
