"""Applying tidy's hunks: the proposal recomputed under the home's lock, live ids only, as one recorded write.

:func:`apply_tidy` takes the home's lock, computes the proposal again on the
bytes there now, and looks up each requested id (a unique prefix will do).
An id that is not in it is stale (the bytes it named changed since: an agent
wrote) or was never there; if any requested id is refused, nothing is
written and the result names each. Otherwise the entries the hunks take out
are cut from their files and, for every kind but exact duplicates and empty
lines, appended to the host's archive (:func:`.model.archive_for`) under
``## <ISO date> tidy <event id>``, in the source's dialect. The archive
first, then the sources: one group under one intent (:mod:`..record.group`),
recorded as ``tidy`` records whose head (the first, the archive's when
something moves) lists each file and span; undo of it undoes every file.
Nothing is deleted but exact copies and empty lines. The core never raises:
every failure is a result with a message.
"""

from __future__ import annotations

import os
from collections.abc import Callable, Collection
from contextlib import ExitStack
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path
from typing import TYPE_CHECKING

from notebook_app.core.home.files import read_file
from notebook_app.core.home.layout import FLAT, Dialect, FileMap
from notebook_app.core.home.reading import ENTRY_FILES
from notebook_app.core.memory import sections
from notebook_app.core.memory.dialect import dialect_for
from notebook_app.core.record.group import FileWrite, GroupCut, reserve_ids, write_group
from notebook_app.core.record.log.actor import LIBRARY, Actor
from notebook_app.core.record.log.event_action import EventAction
from notebook_app.core.record.log.events import Hunk as Edit
from notebook_app.core.record.log.replay import hunk
from notebook_app.core.record.recording import Change
from notebook_app.core.record.storage import LockedHome, StorageError, locked_home
from notebook_app.core.tidy.model import DEFAULT_TARGET, Entry, Hunk, Proposal
from notebook_app.core.tidy.propose import READ_LIMIT, tidy

if TYPE_CHECKING:
    from notebook_app.core.hosts.profile import HostProfile


@dataclass(frozen=True)
class Refused:
    """A requested id that was not applied, and why in words."""

    id: str
    reason: str


@dataclass(frozen=True)
class TidyResult:
    """What an apply did (or why it did nothing), worded for a person, with the facts a shell shows."""

    output: str
    is_error: bool = False
    record: str | None = None
    """The id of the tidy's head record: what ``undo`` takes. None when nothing was written."""
    applied: tuple[str, ...] = ()
    """The hunk ids applied, in the proposal's order."""
    refused: tuple[Refused, ...] = ()
    moved: tuple[Entry, ...] = ()
    """Entries now in :attr:`archive`, no longer in their file."""
    removed: tuple[Entry, ...] = ()
    """Exact copies and empty lines taken out."""
    archive: str | None = None
    """The archive's path from the home's top, when something moved to it."""
    files: tuple[str, ...] = ()
    """Every file written, in the order written (the archive first)."""
    unrecorded: str | None = None


def apply_tidy(
    home: str | os.PathLike[str],
    ids: list[str] | tuple[str, ...],
    *,
    files: FileMap = FLAT,
    profile: HostProfile | None = None,
    target: float = DEFAULT_TARGET,
    by: Actor = LIBRARY,
    durable: bool = True,
) -> TidyResult:
    """Apply the hunks ``ids`` names (full ids or unique prefixes) of tidy's proposal for ``home`` as it is now."""
    root = Path(home).expanduser()
    if not ids:
        return TidyResult("no hunk ids given: name the hunks to apply (tidy lists them); nothing was written", True)
    if not root.is_dir():
        return TidyResult(f"no such home: {root}; nothing was written", True)
    if not 0 < target <= 1:
        return TidyResult(f"target must be above 0 and at most 1, got {target!r}; nothing was written", True)
    try:
        with locked_home(root, create=False, durable=durable, by=by, files=files) as locked, ExitStack() as held:
            for name in ENTRY_FILES:
                held.enter_context(locked.host_lock(files.relative(name), make=False))
            proposal = tidy(root, files, profile, target)
            chosen, refused = _resolve(proposal, ids)
            if refused:
                return _refusal(refused)
            return _apply(locked, proposal, chosen, files)
    except GroupCut as error:
        return TidyResult(f"tidy was cut short: {error}", True)
    except (StorageError, ValueError) as error:
        return TidyResult(_nothing(str(error)), True)
    except OSError as error:
        where = f": {error.filename}" if error.filename else ""
        return TidyResult(f"could not apply tidy ({error.strerror or error}{where}); nothing was written", True)


def _nothing(why: str) -> str:
    return why if why.endswith(("nothing was written", "nothing was changed")) else f"{why}; nothing was written"


def _resolve(proposal: Proposal, ids: list[str] | tuple[str, ...]) -> tuple[list[Hunk], list[Refused]]:
    """The hunks ``ids`` name now, in the proposal's order, and each id that names none (or more than one)."""
    chosen: dict[int, Hunk] = {}
    refused = []
    for given in ids:
        want = given.strip().lower()
        found = [(i, h) for i, h in enumerate(proposal.hunks) if want and h.id.startswith(want)]
        if found and len({h.id for _, h in found}) == 1:  # hunks of the same bytes share an id: it names them all
            chosen.update(found)
        elif not found:
            refused.append(
                Refused(
                    given,
                    "not in the proposal now: the bytes it named changed since it was proposed (stale), "
                    "or it never was a hunk of this home",
                )
            )
        else:
            count = len({h.id for _, h in found})
            refused.append(Refused(given, f"ambiguous: the prefix begins {count} hunk ids; give more of the id"))
    return [chosen[i] for i in sorted(chosen)], refused


def _refusal(refused: list[Refused]) -> TidyResult:
    words = "; ".join(f"{r.id}: {r.reason}" for r in refused)
    return TidyResult(f"tidy refused {words}; nothing was written", True, refused=tuple(refused))


@dataclass
class _Source:
    name: str
    """The logical name, ``MEMORY.md``."""
    store: str
    """Its path from the home's top, ``memories/MEMORY.md``."""
    dialect: Dialect
    data: bytes
    taken: dict[int, Entry]
    """Line (a ``§`` entry's first line) -> the entry that goes."""
    moved: list[Entry]


@dataclass
class _Cut:
    """What the chosen hunks do to their files, before anything is written: the one plan the apply writes and
    the preview shows."""

    sources: dict[str, _Source]
    moved: list[Entry]
    removed: list[Entry]
    new_content: dict[str, bytes]
    edits: dict[str, tuple[Edit, ...] | None]


def _cut(chosen: list[Hunk], files: FileMap, read: Callable[[str], bytes]) -> _Cut | str:
    """Each file the hunks touch without the entries they take out (``read``: a file's bytes by its path from the
    home's top); or why it cannot be cut, in words."""
    sources: dict[str, _Source] = {}
    moved: list[Entry] = []
    removed: list[Entry] = []
    for h in chosen:
        source = sources.get(h.file)
        if source is None:
            store = files.relative(h.file)
            data = read(store)
            dialect = dialect_for(h.file, files.dialect, data.decode("utf-8", "surrogateescape"))
            if not isinstance(dialect, Dialect):
                return dialect.message
            source = sources[h.file] = _Source(h.file, store, dialect, data, {}, [])
        for entry in h.entries:
            source.taken[entry.line] = entry
            (removed if h.kind.removes else source.moved).append(entry)
        if not h.kind.removes:
            moved += h.entries
    new_content: dict[str, bytes] = {}
    edits: dict[str, tuple[Edit, ...] | None] = {}
    for source in sources.values():
        cut = _cut_lines(source) if source.dialect is Dialect.LINES else _cut_store(source)
        if isinstance(cut, str):
            return f"tidy refused {cut}"
        new_content[source.name], edits[source.name] = cut
    return _Cut(sources, moved, removed, new_content, edits)


def tidied_texts(
    home: str | os.PathLike[str], proposal: Proposal, ids: Collection[str], *, files: FileMap = FLAT
) -> dict[str, bytes] | str:
    """What each entry file would hold after the hunks ``ids`` of ``proposal``, by the apply's own cut, from a
    read without the lock: the preview a person looks at before applying. Writes nothing; the apply recomputes."""
    root = Path(home).expanduser()
    chosen = [hunk for hunk in proposal.hunks if hunk.id in ids]
    cut = _cut(chosen, files, lambda store: read_file(root / store, limit=READ_LIMIT + 1).data)
    return cut if isinstance(cut, str) else cut.new_content


def _apply(locked: LockedHome, proposal: Proposal, chosen: list[Hunk], files: FileMap) -> TidyResult:
    cut = _cut(chosen, files, lambda store: locked.read_whole(store).data)
    if isinstance(cut, str):
        return TidyResult(_nothing(cut), True)
    sources, moved, removed, new_content, edits = cut.sources, cut.moved, cut.removed, cut.new_content, cut.edits
    movers = [s for s in sources.values() if s.moved]
    if len({s.dialect for s in movers}) > 1:
        return TidyResult(
            "tidy refused: MEMORY.md and USER.md are in different dialects, and one archive holds "
            "both; apply each file's hunks on their own; nothing was written",
            True,
        )
    archive = proposal.archive if movers else None
    names = ([archive] if archive else []) + [files.relative(n) for n in ENTRY_FILES if n in new_content]
    first_ids = reserve_ids(locked, names[0], EventAction.TIDY)
    head = first_ids[-1] if locked.recorder.writer() is not None else None  # None: the history cannot be kept
    args = {"hunks": list(dict.fromkeys(h.id for h in chosen))}
    output = _said(head, chosen, moved, removed, archive)
    writes = []
    if archive is not None:
        old = locked.read_whole(archive).data
        block = _archive_block(old, movers, head)
        folder = os.path.dirname(archive)
        made = {"made": folder} if folder and not (locked.home / folder).exists() else {}  # its undo removes it
        change = Change(EventAction.TIDY, args, output, extra=made)
        writes.append(FileWrite(archive, old + block, change, (hunk(old, len(old), b"", block),)))
    for name in ENTRY_FILES:
        if name in new_content:
            change = Change(EventAction.TIDY, args, output)
            writes.append(FileWrite(files.relative(name), new_content[name], change, edits[name]))
    ids = write_group(locked, writes, first_ids=first_ids)
    return TidyResult(
        output,
        record=ids[0] if ids else None,
        applied=tuple(dict.fromkeys(h.id for h in chosen)),
        moved=tuple(moved),
        removed=tuple(removed),
        archive=archive,
        files=tuple(names),
        unrecorded=locked.unrecorded,
    )


def _cut_lines(source: _Source) -> tuple[bytes, tuple[Edit, ...]] | str:
    """A ``- `` file without the lines that go, and one hunk per run of them; or which line changed, in words."""
    lines = [line + b"\n" for line in source.data.split(b"\n")]  # at \n only, as the parser reads lines
    lines[-1] = lines[-1][:-1]
    lines = lines if lines[-1] else lines[:-1]
    if any(n > len(lines) for n in source.taken):
        return f"{source.name} is shorter than the proposal says (it changed under the lock)"
    kept: list[bytes] = []
    runs: list[tuple[int, int]] = []  # [start, end) of each run of lines that go, in the file before
    at = 0
    for number, line in enumerate(lines, 1):
        entry = source.taken.get(number)
        if entry is None:
            kept.append(line)
        elif line != entry.raw.encode("utf-8", "surrogateescape"):
            return f"{source.name} line {number} no longer reads as proposed (it changed under the lock)"
        elif runs and runs[-1][1] == at:
            runs[-1] = (runs[-1][0], at + len(line))
        else:
            runs.append((at, at + len(line)))
        at += len(line)
    # each hunk at its offset in the file before, as the log keeps edits
    return b"".join(kept), tuple(hunk(source.data, a, source.data[a:b], b"") for a, b in runs)


def _cut_store(source: _Source) -> tuple[bytes, None] | str:
    """A Hermes ``§`` store without the entries that go, written as Hermes writes a store (their join)."""
    text = sections.hermes_text(source.data.decode("utf-8", "surrogateescape"))
    kept = []
    for _start, _end, line, entry in sections.entry_spans(text):
        gone = source.taken.get(line)
        if gone is not None and gone.raw != entry:
            return f"{source.name}: the entry on line {line} no longer reads as proposed"
        if gone is None:
            kept.append(entry)
    return sections.joined(kept).encode("utf-8", "surrogateescape"), None


def _archive_block(old: bytes, movers: list[_Source], head: str | None) -> bytes:
    """What the archive gains: the heading ``## <ISO date> tidy <id>`` and the moved entries, in their dialect."""
    heading = f"## {datetime.now(UTC).date().isoformat()} tidy {head or '(not recorded)'}"
    several = len(movers) > 1
    if movers[0].dialect is Dialect.SECTIONS:
        pieces = [heading]
        for source in movers:
            pieces += ([f"### from {source.name}"] if several else []) + [e.raw for e in source.moved]
        text = sections.joined(pieces)
        return ((sections.DELIMITER if old.strip() else "") + text).encode("utf-8", "surrogateescape")
    lines = [heading + "\n", "\n"]
    for source in movers:
        lines += [f"### from {source.name}\n"] if several else []
        lines += [e.raw if e.raw.endswith("\n") else e.raw + "\n" for e in source.moved]
    lead = "" if not old else ("\n" if old.endswith(b"\n") else "\n\n")
    return (lead + "".join(lines)).encode("utf-8", "surrogateescape")


def _said(head: str | None, chosen: list[Hunk], moved: list[Entry], removed: list[Entry], archive: str | None) -> str:
    parts = []
    if moved:
        files = sorted({e.file for e in moved}, key=ENTRY_FILES.index)
        parts.append(f"{_count(len(moved), 'entry', 'entries')} of {', '.join(files)} moved to {archive}")
    if removed:
        files = sorted({e.file for e in removed}, key=ENTRY_FILES.index)
        parts.append(f"{_count(len(removed), 'line', 'lines')} removed from {', '.join(files)} (exact copies, empty)")
    hunks = _count(len(chosen), "hunk", "hunks")
    if head is None:
        return f"ok (tidy, {hunks}): {'; '.join(parts)}; loads next session; not recorded, so it cannot be undone"
    return f"ok (tidy {head}, {hunks}): {'; '.join(parts)}; loads next session; undo: persona-notebook undo {head}"


def _count(n: int, one: str, many: str) -> str:
    return f"{n:,} {one if n == 1 else many}"


__all__ = ["Refused", "TidyResult", "apply_tidy"]
