"""Looking after the log: retention (``history --prune``) and removing a leaked secret (``--redact``).

Both rewrite the log whole (temp file, fsync, rename: readers see the old log
or the new one) under the home's lock, keeping its id, so the journal's
slots stay valid. Prune drops the oldest records but keeps what the rest
need: a file's first remaining record gets a snapshot of the content before
it, and only snapshots no remaining record names are removed. Redact keeps
the event and its hashes and sizes, and removes its text from the log, from
large-edit blobs and from every snapshot that holds it.
"""

from __future__ import annotations

import os
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, replace
from datetime import datetime
from pathlib import Path

from . import snapshots
from .actor import LIBRARY
from .event_store import LOG_NAME, LogWriter, open_reader
from .atomic import write_atomically
from .events import Event, EventError, Payload, header_line, parse_header, without_text
from .history import HistoryError, find
from .home import home_path
from .journal import file_slot_offset, write_slot
from .reading import JOURNAL_NAME
from .replay import RebuildError, is_start, payload_bytes, rebuild
from .state_dir import readable_state
from .home_pin import no_home
from .storage import StorageError, locked_home


@dataclass(frozen=True)
class AdminResult:
    output: str
    is_error: bool = False


def prune(home: str | os.PathLike[str], *, keep: int | None = None, older_than: datetime | None = None,
          durable: bool = True) -> AdminResult:  # fmt: skip
    """Drop records beyond the newest ``keep`` and those older than ``older_than``; keep what the rest need."""
    if keep is None and older_than is None:
        return AdminResult("say what to prune: how many records to keep, or how old a record may be", is_error=True)
    if keep is not None and keep < 0:
        return AdminResult(f"keep must be 0 or more, got {keep}", is_error=True)
    root = home_path(home)
    try:
        with _log(root, durable) as (state, events):
            count = len(events)
            drop = [
                (keep is not None and index < count - keep) or (older_than is not None and event.time < older_than)
                for index, event in enumerate(events)
            ]
            kept = _keep_what_rest_need(state, events, drop)
            remaining = [event for event, dropped in zip(kept, drop, strict=True) if not dropped]
            gone_files = {e.file for e in events if e.is_write} - {e.file for e in remaining if e.is_write}
            _rewrite_log(root, state, remaining, durable)
            removed = snapshots.remove_except(state, _referenced(remaining))
            _forget(root, gone_files)
            log_size = (state / LOG_NAME).stat().st_size
            return AdminResult(
                f"pruned {count - len(remaining):,} of {count:,} records; {len(remaining):,} kept, the log is "
                f"{log_size:,} bytes, snapshots {snapshots.size_of(state):,} bytes ({removed} removed)"
            )
    except (HistoryError, StorageError) as error:
        return AdminResult(str(error), is_error=True)
    except OSError as error:
        return AdminResult(f"could not prune the history ({error.strerror or error}); it is as it was", is_error=True)


def _keep_what_rest_need(state: Path, events: list[Event], drop: list[bool]) -> list[Event]:
    """``events`` with each file's first remaining write made a starting point (or its dropped past kept)."""
    out = list(events)
    first_kept: dict[str, int] = {}
    for index, event in enumerate(events):
        if event.is_write and not drop[index] and event.file not in first_kept:
            first_kept[event.file] = index  # type: ignore[index]
    for name, index in first_kept.items():
        event = events[index]
        earlier = [e for i, e in enumerate(events[:index]) if e.file == name and e.is_write and drop[i]]
        if not earlier or is_start(event):
            continue
        chain = _from_start(events[:index], name)
        try:
            before = rebuild(chain, state) if chain else None
        except RebuildError:
            before = None
        if before is not None or (chain and chain[-1].after is not None and not chain[-1].after.exists):
            base = snapshots.store(state, before, made=[]) if before is not None else None
            out[index] = replace(event, base=base) if base is not None else event
        else:  # the content before it cannot be rebuilt: keep its past back to where it starts
            start = events.index(chain[0]) if chain else 0
            for i in range(start, index):
                if events[i].file == name:
                    drop[i] = False
    return out


def _from_start(events: list[Event], name: str) -> list[Event]:
    chain: list[Event] = []
    for event in reversed(events):
        if event.file != name or not event.is_write:
            continue
        chain.append(event)
        if event.snap is not None or is_start(event) or (event.after is not None and not event.after.exists):
            break
    return list(reversed(chain))


def redact(home: str | os.PathLike[str], record_id: str, *, durable: bool = True, dry_run: bool = False) -> AdminResult:
    """Remove the text of record ``record_id`` from the history: the event stays, its text goes.

    ``dry_run`` says what it would do (the snapshots that would go, the other
    records holding the same text) and writes nothing: it takes no lock and
    reads the log as any reader does, so a doctor's view can show it.
    """
    root = home_path(home)
    try:
        with _read_log(root) if dry_run else _log(root, durable) as (state, events):
            found = find(root, record_id)
            if found.end is None:
                return AdminResult(
                    f"{found.event.id} is in an old session journal, which is never rewritten; remove that file by hand "
                    "if it holds a secret",
                    is_error=True,
                )
            index = next((i for i, e in enumerate(events) if e.id == found.event.id), None)
            if index is None:
                return AdminResult(f"{found.event.id} is not in the log any more; nothing was changed", is_error=True)
            event = events[index]
            secrets_ = _texts(state, event)
            if event.is_write and not dry_run:  # its text was in the file's content: later contents may need a fresh start
                events = _restart_after(state, events, index, secrets_)
            events[index] = without_text(event)
            doomed = {name for name in snapshots.kept(state) if _holds(state, name, secrets_)}
            events = [_without_refs(e, doomed) for e in events]
            also = [e.id for e in events if e.id != event.id and _payload_holds(state, e, secrets_)]
            if dry_run:
                removed = len(snapshots.kept(state) - _referenced(events))
            else:
                _rewrite_log(root, state, events, durable)
                removed = snapshots.remove_except(state, _referenced(events))
            did = "would redact" if dry_run else "redacted"
            gone = "would be gone" if dry_run else "is gone"
            dropped = "would be removed" if dry_run else "removed"
            words = [f"{did} {event.id}: its text {gone} from the history ({removed} snapshot{'s' if removed != 1 else ''} {dropped})"]
            if also:
                words.append(f"the same text is also in {', '.join(also)}: redact those too")
            if event.file and any(s in _disk(root / event.file) for s in secrets_):
                words.append(f"{event.file} itself still holds it")
            return AdminResult("; ".join(words))
    except (HistoryError, StorageError) as error:
        return AdminResult(str(error), is_error=True)
    except OSError as error:
        return AdminResult(f"could not redact ({error.strerror or error}); the history is as it was", is_error=True)


def _restart_after(state: Path, events: list[Event], index: int, texts: list[bytes]) -> list[Event]:
    """Give the first later record of the file whose content no longer holds the text a snapshot.

    Its content can then be rebuilt without the redacted record (whose text
    is gone); until then, the file's states hold the secret, and are exactly
    what a redaction makes unrebuildable.
    """
    name = events[index].file
    out = list(events)
    chain = _from_start(events[: index + 1], name) if name else []
    try:
        content = rebuild(chain, state) if chain else None
    except RebuildError:
        return out
    for i in range(index + 1, len(events)):
        later = events[i]
        if later.file != name or not later.is_write:
            continue
        try:
            content = rebuild([later], state) if is_start(later) and not chain else _apply(content, later, state)
        except RebuildError:
            return out
        if later.snap is not None:
            return out
        if not any(text in (content or b"") for text in texts):
            if content is not None:
                out[i] = replace(later, snap=snapshots.store(state, content, made=[]))
            return out
    return out


def _apply(content: bytes | None, event: Event, state: Path) -> bytes | None:
    from .replay import apply

    return apply(content, event, state)


def _texts(state: Path, event: Event) -> list[bytes]:
    """The texts a record holds, long enough to find elsewhere without false alarms."""
    found: list[bytes] = []
    for h in event.edit or ():
        for payload in (h.removed, h.inserted):
            try:
                found.append(payload_bytes(payload, state))
            except RebuildError:
                continue
    if isinstance(event.args, dict):
        found += [value.encode() for key, value in event.args.items() if isinstance(value, str) and key not in ("action", "target")]
    return [text for text in found if len(text.strip()) >= 4]


def _holds(state: Path, name: str, texts: list[bytes]) -> bool:
    try:
        data = snapshots.load(state, name)
    except snapshots.SnapshotMissing:
        return False
    return any(text in data for text in texts)


def _payload_holds(state: Path, event: Event, texts: list[bytes]) -> bool:
    return any(text in found for found in _texts(state, event) for text in texts)


def _without_refs(event: Event, doomed: set[str]) -> Event:
    def payload(p: Payload) -> Payload:
        return Payload(p.size, redacted=True) if p.blob in doomed else p

    edit = None if event.edit is None else tuple(replace(h, removed=payload(h.removed), inserted=payload(h.inserted)) for h in event.edit)
    return replace(
        event,
        base=None if event.base in doomed else event.base,
        snap=None if event.snap in doomed else event.snap,
        edit=edit,
    )


def _referenced(events: list[Event]) -> set[str]:
    names = set()
    for event in events:
        names.update(n for n in (event.base, event.snap) if n)
        for h in event.edit or ():
            names.update(p.blob for p in (h.removed, h.inserted) if p.blob)
    return names


def _disk(path: Path) -> bytes:
    try:
        return path.read_bytes()
    except OSError:
        return b""


@contextmanager
def _log(root: Path, durable: bool) -> Iterator[tuple[Path, list[Event]]]:
    """The home's lock held, a killed writer's write settled, and every event of the log read."""
    if not root.is_dir():
        raise HistoryError(no_home(root))
    with locked_home(root, create=False, durable=durable, by=LIBRARY):
        state = readable_state(root)
        if state is None or not (state / LOG_NAME).exists():
            raise HistoryError(f"{root} has no history")
        LogWriter.open(root, made=[]).close()  # cuts a line a killed writer left unfinished
        events = []
        for line in (state / LOG_NAME).read_bytes().split(b"\n")[1:]:
            if line:
                try:
                    events.append(Event.from_line(line))
                except EventError:
                    continue
        yield state, events


@contextmanager
def _read_log(root: Path) -> Iterator[tuple[Path, list[Event]]]:
    """Every readable event of the log, as any reader sees it: no lock, nothing written (a dry run)."""
    if not root.is_dir():
        raise HistoryError(f"no such home: {root}")
    state = readable_state(root)
    reader = open_reader(root) if state is not None else None
    if state is None or reader is None:
        raise HistoryError(f"{root} has no history")
    with reader:
        events = list(reader.events())
    yield state, events


def _rewrite_log(root: Path, state: Path, events: list[Event], durable: bool) -> None:
    with open(state / LOG_NAME, "rb") as handle:
        log_id = parse_header(handle.readline().rstrip(b"\n")) or ""
    data = header_line(log_id) + b"".join(event.line() for event in events)
    write_atomically(state, LOG_NAME, data, mode=0o600, temp_prefix=".tmp-", durable=durable)


def _forget(root: Path, names: set[str | None]) -> None:
    """Files with no record left: their next write starts their history again, from what is there."""
    try:
        fd = os.open(root / JOURNAL_NAME, os.O_RDWR | os.O_NOFOLLOW | os.O_CLOEXEC)
    except OSError:
        return
    try:
        for name in names:
            if name:
                write_slot(fd, "", file_slot_offset(name))
    finally:
        os.close(fd)

