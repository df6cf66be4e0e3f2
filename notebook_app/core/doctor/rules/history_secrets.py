"""Secrets in the history: a key removed from a file may still be in the log that recorded it (spec §7).

The records carry text (the arguments as given, what the caller was told,
the bytes an edit removed and inserted, large ones as blobs) and the
snapshot store keeps contents. Every byte of a kept content came from a
record's edit or from a file's content where its history began (or an
outside change the log could not diff), so only those starting points are
read besides what the records carry: copies taken by replay cost hold
nothing the records do not.

The scan is the secret rule's own (one rule set): its cheap first pass runs
over the log in blocks, in C, with the log's own noise (digests, stat keys)
blanked first, and only the records it picks are parsed and asked about
with the full expression. A :class:`HistoryScan` remembers how far it read
each log (by the log's id and inode; prune and redact replace the file) and
what it found, so the next check reads only the records appended since;
with ``remember``, across processes too (:mod:`..history_memo`). Snapshots
and blobs are named by their digest: each is scanned once.
"""

from __future__ import annotations

import hashlib
import os
import re
from collections.abc import Iterator
from pathlib import Path
from typing import NamedTuple

from notebook_app.core.doctor.fixes import RedactFix
from notebook_app.core.doctor.history_memo import recall, remember, started
from notebook_app.core.doctor.model import Finding, finding
from notebook_app.core.fs.state_dir import readable_state
from notebook_app.core.record.log import snapshots
from notebook_app.core.record.log.events import Event, EventError
from notebook_app.core.record.log.store import LogReader, lines_forward, open_reader
from notebook_app.core.text.file_text import FileText
from notebook_app.core.text.secrets import candidate_lines, secrets_in
from notebook_app.core.text.times import local_date

RULE = "security.secret-history"

_DIGEST = re.compile(rb':"[0-9a-f]{64}"')
_STAT_KEY = re.compile(rb'"key":\[[0-9,]+\]')
"""Digests and stat keys (with nanosecond times) every record carries: key-like to the first pass, never a secret.
Two expressions, each with a literal start the engine searches for fast; blanked to the same length."""
_BLANK_DIGEST = b':"' + b"." * 64 + b'"'
_ARROW = "→".encode()
"""In every answer the log keeps ("ok (add → MEMORY.md)"): one
such letter makes the whole block's text wide, and slow to scan."""
_SNAPSHOT_REFS = (b'"blob":"', b'"base":"', b'"snap":"')


class _Found(NamedTuple):
    finding: Finding
    carried: bool
    """Whether the record itself carries the secret (so redacting it removes it), not only a copy it names."""
    keys: frozenset[tuple[str, str]]
    offset: int = -1
    """Where the record's line begins in the log."""


class HistoryScan:
    """What the doctor found in a home's log so far, read on from where it stopped.

    ``remember``: keep how far each log was read in the user's state folder
    (:mod:`..history_memo`), so the next process reads only what was appended.
    """

    def __init__(self, *, remember: bool = False) -> None:
        self.remember = remember
        self._logs: dict[tuple[Path, str, int], tuple[int, list[_Found], hashlib._Hash]] = {}
        """(home, log id, inode) → how far it was read, what was found, and the sha256 of those bytes (to remember)."""
        self._snapshots: dict[str, list[tuple[str, str]]] = {}
        self.bytes_read = 0
        """Log bytes scanned (not remembered) so far: for tests and the curious."""

    def findings(self, home: Path) -> tuple[Finding, ...]:
        """A finding for each record (or starting copy) whose text holds a secret; never writes to the home."""
        reader = open_reader(home)
        if reader is None:
            return ()
        state = readable_state(home)
        with reader:
            key = (home, reader.log_id, os.fstat(reader.fd).st_ino)
            cached = self._logs.get(key)
            if cached is not None and cached[0] <= reader.end:
                start, found, digest = cached[0], list(cached[1]), cached[2].copy()
            else:  # never read, or cut back (a killed writer's record dropped): from the start
                (start, digest), found = started(reader), []
            read_from = start
            if self.remember and cached is None:
                recalled = recall(home, reader)
                if recalled is not None:
                    start, offsets, digest = recalled
                    read_from = start
                    found = [item for offset in offsets for item in self._at(reader, offset, state)]
            position = start
            for block in reader.blocks(start=start):
                self.bytes_read += len(block)
                digest.update(block)
                found += self._block(block, position, state)
                position += len(block)
            if self.remember and position > read_from:
                remember(home, reader, sorted({item.offset for item in found}), digest)
            self._logs = {k: v for k, v in self._logs.items() if k[0] != home}
            self._logs[key] = (reader.end, found, digest)
        return _shown(found)

    def _at(self, reader: LogReader, offset: int, state: Path | None) -> list[_Found]:
        """The record whose line begins at ``offset``, asked again (a remembered finding is never trusted blind)."""
        for _, line in lines_forward(reader.fd, offset, reader.end):
            try:
                item = self._record(Event.from_line(line), state, offset)
            except (EventError, ValueError):
                return []
            return [item] if item is not None else []
        return []

    def _block(self, block: bytes, position: int, state: Path | None) -> list[_Found]:
        lines = block.split(b"\n")
        quiet = _STAT_KEY.sub(lambda m: b"." * len(m[0]), _DIGEST.sub(_BLANK_DIGEST, block)).replace(_ARROW, b"->")
        picked = set(candidate_lines(FileText("", quiet, 0)))
        picked.update(_lines_with(block, _SNAPSHOT_REFS))
        found = []
        number, offset = 1, position
        for wanted in sorted(picked):
            if wanted > len(lines):
                break
            while number < wanted:
                offset += len(lines[number - 1]) + 1
                number += 1
            try:
                event = Event.from_line(lines[number - 1])
            except (EventError, ValueError):
                continue
            item = self._record(event, state, offset)
            if item is not None:
                found.append(item)
        return found

    def _record(self, event: Event, state: Path | None, offset: int) -> _Found | None:
        found: dict[
            tuple[str, str], str
        ] = {}  # (kind, shown) → where: the same key in its arguments and its edit is one
        for where, text in _carried(event):
            for kind, shown in secrets_in(text):
                found.setdefault((kind, shown), where)
        for where, name in self._copies(event):
            for kind, shown in self._snapshot(state, name):
                found.setdefault((kind, shown), where)
        if not found:
            return None
        hits = [(where, kind, shown) for (kind, shown), where in found.items()]
        where, kind, shown = hits[0]
        more = f" and {len(hits) - 1} more" if len(hits) > 1 else ""
        article = "an" if kind[0].lower() in "aeiou" else "a"
        what = f"{event.action} of {event.file}" if event.file else event.action
        message = (
            f"record {event.id} ({what} by {event.by.kind.value}, "
            f"{local_date(event.time)}) holds {article} {kind} in {where}: {shown}{more}"
        )
        carried = any(not w.startswith("the copy") for w, _, _ in hits)
        fix = RedactFix(
            event.id
        )  # a copy it names is masked with it (the copy's own record, or the one that removed it)
        if not carried:
            message += "; redacting this record replaces it there by a marker"
        return _Found(finding(RULE, None, None, message, fix, record=event.id), carried, frozenset(found), offset)

    def _copies(self, event: Event) -> Iterator[tuple[str, str]]:
        """Snapshots this record names that hold more than the records carry: blobs, and where a file begins."""
        for hunk in event.edit or ():
            for label, payload in (
                ("the bytes its edit removed", hunk.removed),
                ("the bytes its edit inserted", hunk.inserted),
            ):
                if payload.blob is not None:
                    yield label, payload.blob
        if event.base is not None:
            yield f"the copy of {event.file} where its history begins", event.base
        if event.snap is not None and event.edit is None:
            yield f"the copy of {event.file} an outside change left", event.snap

    def _snapshot(self, state: Path | None, name: str) -> list[tuple[str, str]]:
        if name not in self._snapshots:
            try:
                data = snapshots.load(state, name) if state is not None else b""
            except snapshots.SnapshotMissing:
                data = b""
            self._snapshots[name] = secrets_in(data.decode("utf-8", "replace")) if data else []
        return self._snapshots[name]


def _carried(event: Event) -> Iterator[tuple[str, str]]:
    """The texts a record carries in the log itself, with where."""
    yield from (("its arguments", text) for text in _strings(event.args))
    if event.output:
        yield "what its caller was told", event.output
    for hunk in event.edit or ():
        for label, payload in (
            ("the bytes its edit removed", hunk.removed),
            ("the bytes its edit inserted", hunk.inserted),
        ):
            if payload.data:
                yield label, payload.data.decode("utf-8", "replace")


def _strings(value: object) -> Iterator[str]:
    if isinstance(value, str):
        yield value
    elif isinstance(value, dict):
        for item in value.values():
            yield from _strings(item)
    elif isinstance(value, list):
        for item in value:
            yield from _strings(item)


def _lines_with(block: bytes, needles: tuple[bytes, ...]) -> set[int]:
    """Line numbers (from 1) of ``block`` holding any of ``needles``: found in C, lines counted between finds."""
    places = []
    for needle in needles:
        at = block.find(needle)
        while at >= 0:
            places.append(at)
            at = block.find(needle, at + 1)
    numbers, line, counted = set(), 1, 0
    for at in sorted(places):
        line += block.count(b"\n", counted, at)
        counted = at
        numbers.add(line)
    return numbers


def _shown(found: list[_Found]) -> tuple[Finding, ...]:
    """One finding per record; a kept copy's secret only when
    no record carries it (redacting that one removes the copy)."""
    carried = {key for item in found if item.carried for key in item.keys}
    seen: dict[str, Finding] = {}
    for item in found:
        if item.carried or not item.keys <= carried:
            seen.setdefault(item.finding.record or "", item.finding)
    return tuple(seen.values())
