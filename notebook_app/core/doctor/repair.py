"""Bytes that are not UTF-8: where they are, and the guarded fix that repairs them.

A file with such bytes cannot be edited by the memory tool or the notebook's
entry edits (they refuse it); the doctor names every bad run of bytes (line,
byte offset, the bytes in hex) and offers one fix: each bad run becomes U+FFFD,
as Python's ``decode("utf-8", "replace")`` does. U+FFFD rather than removal:
it is what a session already loads in their place, so the repair changes
nothing the next session reads, and it leaves a visible mark where a character
was lost (a Latin-1 ``é`` becomes ``�``, not a silently joined word).

The fix is one guarded splice from the first bad byte to the end of the last,
recorded in the history and undoable as any other: it expects the file's bytes
as the doctor read them (their sha256) and is refused, changing nothing, when
another writer changed the file since.
"""

from __future__ import annotations

import hashlib
import os
import re
from dataclasses import dataclass, field

from notebook_app.core.memory.edits.guarded_splice import SpliceResult, splice
from notebook_app.core.home.files import FileRead, FileStatus, read_file
from notebook_app.core.home.layout import FLAT, FileMap
from notebook_app.core.home.refusals import Rejection
from notebook_app.core.home.soul import MAX_FILE_BYTES, home_path
from notebook_app.core.record.log.actor import Actor

SHOWN = 20
"""At most this many bad runs are listed; the count says how many there are."""

_BAD = re.compile("[\udc80-\udcff]+")
"""Under ``surrogateescape`` each byte that is not UTF-8 decodes to U+DC80 + the byte."""

REPLACEMENT = "U+FFFD (�)"


def as_the_doctor_read(home: str | os.PathLike[str], files: FileMap, name: str, digest: str) -> FileRead | Rejection:
    """``name`` read whole, if it is still exactly the bytes the doctor read (``digest``); else why a fix may not go.

    Every whole-file fix (this repair, :mod:`.store_fix`'s normalise) starts here: a fix is planned on what the
    doctor saw, and another writer's change since is never overwritten.
    """
    read = read_file(files.path(home_path(home), name), limit=4 * MAX_FILE_BYTES)
    if read.status is FileStatus.ABSENT:
        return Rejection(f"{name} is absent now; nothing to fix")
    if read.status is not FileStatus.REGULAR:
        return Rejection(f"{read.describe()}; nothing was changed")
    if not read.complete:
        return Rejection(f"{name} is larger than the doctor edits ({read.size:,} bytes); fix it by hand")
    if hashlib.sha256(read.data).hexdigest() != digest:
        return Rejection(f"{name} changed since the doctor read it; nothing was changed")
    return read


@dataclass(frozen=True)
class BadBytes:
    """One run of bytes that are not UTF-8: its 1-based line, its byte offset, the bytes."""

    line: int
    offset: int
    data: bytes

    @property
    def end(self) -> int:
        return self.offset + len(self.data)

    @property
    def hex(self) -> str:
        return " ".join(f"{byte:02x}" for byte in self.data)

    def __str__(self) -> str:
        return f"line {self.line}, byte {self.offset:,}: {self.hex}"


@dataclass(frozen=True)
class BadRuns:
    """Every bad run of one file's bytes: the first :data:`SHOWN`, how many, and the span they cover."""

    shown: tuple[BadBytes, ...]
    count: int
    start: int
    end: int
    """``data[start:end]`` holds every bad run (and the good text between them)."""

    def words(self) -> str:
        listed = "; ".join(str(run) for run in self.shown)
        more = self.count - len(self.shown)
        return listed + (f"; and {more:,} more" if more else "")


def bad_runs(data: bytes) -> BadRuns | None:
    """Where ``data`` is not UTF-8, in one linear pass; None when it all is."""
    text = data.decode("utf-8", "surrogateescape")
    shown: list[BadBytes] = []
    count = start = end = 0
    offset = line = 0
    position = 0
    for match in _BAD.finditer(text):
        between = text[position : match.start()]
        offset += len(between.encode("utf-8", "surrogateescape"))
        line += between.count("\n")
        size = match.end() - match.start()
        if not count:
            start = offset
        if len(shown) < SHOWN:
            shown.append(BadBytes(line + 1, offset, data[offset : offset + size]))
        count += 1
        offset += size
        end = offset
        position = match.end()
    return BadRuns(tuple(shown), count, start, end) if count else None


def _places(count: int) -> str:
    return f"{count:,} place{'s' if count != 1 else ''}"


@dataclass(frozen=True)
class RepairPreview:
    """What the repair would do now, in words: each bad run and what it becomes."""

    file: str
    words: str


@dataclass(frozen=True)
class Utf8Fix:
    """Replace every run of bytes that are not UTF-8 in ``file`` with U+FFFD, if the file is as the doctor read it."""

    file: str
    digest: str
    """sha256 of the whole file when the doctor read it: the fix expects exactly those bytes."""
    count: int
    """How many bad runs the doctor found."""
    files: FileMap = field(default=FLAT, compare=False, repr=False)
    """Where the file is in the home (a Hermes home's entry files are in ``memories/``)."""

    @property
    def label(self) -> str:
        return f"replace the bytes that are not UTF-8, in {_places(self.count)}, with U+FFFD"

    def _plan(self, home: str | os.PathLike[str]) -> tuple[bytes, BadRuns] | Rejection:
        """The file's bytes now and their bad runs, or why the fix cannot be made."""
        read = as_the_doctor_read(home, self.files, self.file, self.digest)
        if isinstance(read, Rejection):
            return read
        runs = bad_runs(read.data)
        if runs is None:
            return Rejection(f"{self.file} is all UTF-8 now; nothing to fix")
        return read.data, runs

    def preview(self, home: str | os.PathLike[str]) -> RepairPreview | Rejection:
        """The repair's dry run against the file on disk now: reads it, writes nothing."""
        plan = self._plan(home)
        if isinstance(plan, Rejection):
            return plan
        _, runs = plan
        return RepairPreview(self.file, f"{_places(runs.count)} become {REPLACEMENT}: {runs.words()}")

    def apply(self, home: str | os.PathLike[str], *, by: Actor) -> SpliceResult:
        """One guarded splice over the span of the bad runs; recorded, and undoable like every splice."""
        plan = self._plan(home)
        if isinstance(plan, Rejection):
            return SpliceResult(plan.message, is_error=True)
        data, runs = plan
        expected = data[runs.start : runs.end]
        repaired = expected.decode("utf-8", "replace").encode("utf-8")
        label = f"replace {_places(runs.count)} of bytes that are not UTF-8 with U+FFFD"
        name = self.files.relative(self.file)
        return splice(home, name, runs.start, expected, repaired, by=by, label=label, files=self.files)
