"""Looking after the log: retention (``history --prune``) and removing a leaked secret (``--redact``).

Both rewrite the log whole (temp file, fsync, rename: readers see the old log
or the new one) under the home's lock, keeping its id, so the journal's
slots stay valid. Prune drops the oldest records but keeps what the rest
need: a file's first remaining record gets a snapshot of the content before
it, and only snapshots no remaining record names are removed. Redact keeps
the event, its sizes and offsets, and replaces the secrets it holds by a
marker of the same byte length in the log, in large-edit blobs and in every
snapshot that holds them (:mod:`.redact_plan`).
"""

from __future__ import annotations

import os
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, replace
from datetime import datetime
from pathlib import Path

from notebook_app.core.fs.atomic import write_atomically
from notebook_app.core.fs.home_pin import no_home
from notebook_app.core.fs.state_dir import readable_state
from notebook_app.core.history.query import HistoryError, find
from notebook_app.core.history.redact_plan import RedactionPlan, plan_redaction
from notebook_app.core.home.reading import JOURNAL_NAME
from notebook_app.core.home.soul import home_path
from notebook_app.core.record.log import snapshots
from notebook_app.core.record.log.actor import LIBRARY
from notebook_app.core.record.log.events import Event, EventError
from notebook_app.core.record.log.json_lines import header_line, parse_header
from notebook_app.core.record.log.redaction import masked_args
from notebook_app.core.record.log.replay import RebuildError, is_start, rebuild
from notebook_app.core.record.log.store import LOG_NAME, LogWriter, open_reader
from notebook_app.core.sessions.pruned import count_pruned, read_pruned, write_pruned
from notebook_app.core.record.git.history import SCAN_COMMITS, GitHolding, commits_holding
from notebook_app.core.record.journal import file_slot_offset, write_slot
from notebook_app.core.record.storage import StorageError, locked_home


@dataclass(frozen=True)
class AdminResult:
    output: str
    is_error: bool = False
    git: GitHolding | None = None
    """For a redaction: which of the home's git commits still hold the text (None: the home is in no git)."""


def prune(
    home: str | os.PathLike[str], *, keep: int | None = None, older_than: datetime | None = None, durable: bool = True
) -> AdminResult:
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
            _count_sessions_calls(root, state, events, [e for e, d in zip(events, drop, strict=True) if d], durable)
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
    """Replace the secrets record ``record_id`` holds by a marker of the same byte length, wherever the history
    keeps them.

    The record stays, marked redacted (it can no longer be undone); so do its
    sizes and offsets, and every state stays rebuildable: a state that held
    the secret gives back the marker (:mod:`.redact_plan`). ``dry_run`` says
    exactly what would change and writes nothing: it takes no lock and reads
    the log as any reader does, so a doctor's view can show it.
    """
    root = home_path(home)
    try:
        with _read_log(root) if dry_run else _log(root, durable) as (state, events):
            found = find(root, record_id)
            if found.end is None:
                return AdminResult(
                    f"{found.event.id} is in an old session journal, which is never "
                    "rewritten; remove that file by hand if it holds a secret",
                    is_error=True,
                )
            index = next((i for i, e in enumerate(events) if e.id == found.event.id), None)
            if index is None:
                return AdminResult(f"{found.event.id} is not in the log any more; nothing was changed", is_error=True)
            event = events[index]
            if event.redacted:
                return AdminResult(
                    f"{event.id} is already redacted: its secrets are markers now; nothing was changed", is_error=True
                )
            plan = plan_redaction(state, events, index)
            if not plan.texts:
                return AdminResult(f"{event.id} holds no text to redact; nothing was changed", is_error=True)
            if not dry_run:
                for _new, data in plan.snapshots.values():
                    snapshots.store(state, data, made=[], durable=durable)
                _rewrite_log(root, state, plan.events, durable)
                snapshots.remove_except(state, _referenced(plan.events))
            words = _redaction_words(root, event, plan, dry_run)
    except (HistoryError, StorageError) as error:
        return AdminResult(str(error), is_error=True)
    except OSError as error:
        return AdminResult(f"could not redact ({error.strerror or error}); the history is as it was", is_error=True)
    held = commits_holding(root, plan.texts)  # after the lock: git is read, never rewritten
    said = git_words(held)
    return AdminResult(f"{words}; {said}" if said else words, git=held)


def git_words(held: GitHolding | None) -> str | None:
    """What git still holds of a redacted text, in words; None when there is nothing to say."""
    if held is None or (not held.commits and not held.git_on):
        return None
    if not held.commits:
        scanned = (
            "none of the home's commits holds it"
            if held.complete
            else (
                f"none of the last {SCAN_COMMITS} commits touching the home holds it (the scan was cut short: "
                "older ones were not read)"
            )
        )
        return f"git is on ({held.root}): {scanned}"
    first, path = held.commits[0]
    more = len(held.commits) - 1
    named = f"commit {first} ({path})" + (f" and {more} older commit{'s' if more != 1 else ''}" if more else "")
    return (
        f"git history still holds it: {named} in {held.root}. The notebook never rewrites git history; to remove "
        "it there yourself, one way (a suggestion) is git filter-repo --replace-text with a file naming the text, "
        "in that repository: it rewrites those commits and every later one, and a copy already pushed or cloned "
        "keeps the text"
    )


def keep_only_where(home: str | os.PathLike[str], record_id: str, *, durable: bool = True) -> AdminResult:
    """Mask the secrets in a record that wrote nothing (a rejected proposal) and keep where each was (spec §7).

    Its arguments keep the marker in each secret's place, and the record gains
    ``secrets`` (the rule, the kind, the field, the byte start and length).
    The log is rewritten under the home's lock, as a redaction rewrites it.
    """
    root = home_path(home)
    try:
        with _log(root, durable) as (state, events):
            index = next((i for i, e in enumerate(events) if e.id == record_id), None)
            if index is None:
                return AdminResult(f"{record_id} is not in the log any more; nothing was changed", is_error=True)
            event = events[index]
            if event.is_write:
                return AdminResult(f"{record_id} is a write: redact it instead; nothing was changed", is_error=True)
            args, spans = masked_args(event.args)
            if not spans:
                return AdminResult(f"{record_id} holds no secret")
            events[index] = replace(event, args=args, secrets=event.secrets + spans)
            _rewrite_log(root, state, events, durable)
            return AdminResult(
                f"{record_id} keeps only where its {len(spans)} secret{'s' if len(spans) != 1 else ''} were"
            )
    except (HistoryError, StorageError) as error:
        return AdminResult(str(error), is_error=True)
    except OSError as error:
        return AdminResult(f"could not rewrite the history ({error.strerror or error}); it is as it was", is_error=True)


def _redaction_words(root: Path, event: Event, plan: RedactionPlan, dry_run: bool) -> str:
    """Exactly what the redaction changes (or would), in words; never the secret."""
    count = len(plan.texts)
    size = sum(len(text) for text in plan.texts)
    what = "; ".join(plan.found)
    verb, become = ("would redact", "would become") if dry_run else ("redacted", "became")
    words = [
        f"{verb} {event.id}: {what} ({count} text{'s' if count != 1 else ''}, {size:,} bytes) {become} a marker "
        f"of the same length ({'*' * min(size, 8)}…)"
    ]
    rewritten = len(plan.snapshots)
    changed = "would be kept" if dry_run else "are kept"
    words.append(
        f"{rewritten} snapshot{'s' if rewritten != 1 else ''} holding it {changed} with the marker instead"
        if rewritten
        else "no snapshot holds it"
    )
    if plan.repointed:
        words.append(f"records that name those snapshots are marked redacted too: {', '.join(plan.repointed)}")
    if plan.digests:
        words.append(f"{plan.digests} digest{'s' if plan.digests != 1 else ''} of what held it computed again")
    if event.is_write or plan.snapshots:
        words.append("every state stays rebuildable; a restore to one that held it gives back the marker")
    if plan.also:
        words.append(f"the same text is also in {', '.join(plan.also)}: redact those too")
    if event.file and any(text in _disk(root / event.file) for text in plan.texts):
        words.append(f"{event.file} itself still holds it: remove it there too (the doctor's fix for the file)")
    return "; ".join(words)


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


def _count_sessions_calls(root: Path, state: Path, events: list[Event], dropped: list[Event], durable: bool) -> None:
    """Keep, before the log loses them, how many calls each agent session made among those dropped
    (:mod:`..sessions.pruned`): a session that made 4 writes still says 4 after a prune."""
    before = read_pruned(root)
    counted = count_pruned(before, _log_id(state), events, dropped)
    if counted != before:
        write_pruned(state, counted, durable=durable)


def _log_id(state: Path) -> str:
    with open(state / LOG_NAME, "rb") as handle:
        return parse_header(handle.readline().rstrip(b"\n")) or ""


def _rewrite_log(root: Path, state: Path, events: list[Event], durable: bool) -> None:
    log_id = _log_id(state)
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
