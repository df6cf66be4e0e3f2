"""A Hermes ``§`` store as Hermes reads it, and the one fix for a store that does not round-trip.

Hermes 0.19.0 reads a store with Python's universal newlines
(``Path.read_text``), splits it on ``\\n§\\n``, strips each piece and drops the
empty ones (``MemoryStore._read_file``), drops repeats (``load_from_disk``'s
``dict.fromkeys``) and writes their join with no final newline
(``_write_file``). Its drift guard (``_detect_external_drift``) calls a store
that does not give its stripped self back that way not its own, and its
replace and remove refuse it; so do the notebook's writes
(:func:`..memory.sections.plan_store`). The fix writes what Hermes's next write
would (its add, which skips the guard, rewrites the store so), after a dry run
that lists every entry it drops or changes: one guarded splice of the whole
file, expecting the bytes the doctor read, refused with nothing changed when
the file changed since; recorded and undoable like every splice.
"""

from __future__ import annotations

import os
from dataclasses import dataclass, field

from notebook_app.core.doctor.fixes import FixKind
from notebook_app.core.doctor.repair import RepairPreview, as_the_doctor_read
from notebook_app.core.memory.edits.guarded_splice import SpliceResult, splice
from notebook_app.core.home.layout import FLAT, FileMap
from notebook_app.core.home.refusals import Rejection
from notebook_app.core.record.log.actor import Actor
from notebook_app.core.memory import sections
from notebook_app.core.memory.sections import hermes_text
from notebook_app.core.text.quote import shown


@dataclass(frozen=True)
class Piece:
    """What lies between two separators of a store: an entry as Hermes parses it, or nothing."""

    number: int | None
    """The entry's number (from 1, repeats counted, as :func:`..memory.sections.entries` counts); None: blank."""
    line: int
    """The line its text begins on; a blank piece: the line of the '§' that goes with it (the one before it, or
    after it for a blank first piece)."""
    text: str
    """Its text, stripped as Hermes strips it."""
    changed: bool
    """Hermes's join gives it back otherwise: a blank piece, or blank lines and spaces inside the store around it."""
    leading: bool = False
    """A blank piece before the store's first separator."""


class _LineCounter:
    """The line (from 1) of a position in ``text``, counted on from the last one asked: the pieces come in order,
    so a store of 30,000 entries is counted once, not 30,000 times from its start (36 s on 2 MiB)."""

    def __init__(self, text: str) -> None:
        self.text, self.at, self.lines = text, 0, 0

    def __call__(self, position: int) -> int:
        if position < self.at:  # never in order of pieces; counted again from the start rather than wrong
            self.at, self.lines = 0, 0
        self.lines += self.text.count("\n", self.at, position)
        self.at = position
        return self.lines + 1


def pieces(text: str) -> list[Piece]:
    """Every piece of ``text`` (as :func:`hermes_text` gives it) between separators, in order."""
    parts = text.split(sections.DELIMITER)
    found: list[Piece] = []
    at = number = 0
    line_of = _LineCounter(text)
    for index, part in enumerate(parts):
        entry = part.strip()
        if entry:
            number += 1
            line = line_of(at + len(part) - len(part.lstrip()))
            inner = part.lstrip() if index == 0 else part  # the store's own ends are stripped whole, not drift
            inner = inner.rstrip() if index == len(parts) - 1 else inner
            found.append(Piece(number, line, entry, inner != entry))
        elif len(parts) > 1:
            sign = at + len(part) + 1 if index == 0 else at - 2  # the '§' of the separator after it, or before it
            found.append(Piece(None, line_of(sign), "", True, leading=index == 0))
        at += len(part) + len(sections.DELIMITER)
    return found


def normalised(text: str) -> str:
    """What Hermes's next write makes of a store whose text is ``text``: its entries, repeats dropped, joined."""
    return sections.joined(list(dict.fromkeys(sections.entries(text))))


def round_trips(text: str) -> bool:
    """Hermes's first drift signal is clear: the stripped text is its entries joined back."""
    return text.strip() == sections.joined(sections.entries(text))


def changes(text: str, name: str, limit: int) -> list[str]:
    """The dry run in words: each entry normalising drops or changes, then what the store becomes."""
    said: list[str] = []
    first: dict[str, int] = {}
    for piece in pieces(text):
        if piece.number is None:
            said.append(
                f"drops the empty entry before the '§' on line {piece.line}"
                if piece.leading
                else f"drops the '§' on line {piece.line} and the empty entry after it"
            )
            continue
        earlier = first.setdefault(piece.text, piece.number)
        if earlier != piece.number:
            said.append(
                f"drops entry {piece.number} (line {piece.line}), a repeat of entry {earlier}: {shown(piece.text)}"
            )
        elif piece.changed:
            said.append(
                f"changes entry {piece.number} (line {piece.line}): the blank lines and spaces around it go: "
                f"{shown(piece.text)}"
            )
    kept = list(dict.fromkeys(sections.entries(text)))
    result = sections.joined(kept)
    held = "no entry" if not kept else "1 entry" if len(kept) == 1 else f"{len(kept)} entries joined by '§' lines"
    size = f"{len(result):,} character{'s' if len(result) != 1 else ''}"
    said.append(f"{name} becomes {held}, {size} with no final newline, as Hermes's next write gives it")
    longest = max(kept, key=len, default="")
    if len(longest) > limit:
        said.append(
            f"entry {kept.index(longest) + 1} stays {len(longest):,} characters, over the store's {limit:,}: "
            "Hermes's drift guard still refuses its replace and remove until that entry is shortened or split"
        )
    return said


@dataclass(frozen=True)
class NormaliseFix:
    """Rewrite a store as Hermes's next write would, if the file is as the doctor read it."""

    file: str
    digest: str
    """sha256 of the whole file when the doctor read it: the fix expects exactly those bytes."""
    limit: int
    """The store's character limit (the host's config, else Hermes's default)."""
    files: FileMap = field(default=FLAT, compare=False, repr=False)
    """Where the store is in the home (a Hermes home's is in ``memories/``)."""
    kind: FixKind = FixKind.NORMALISE_STORE

    @property
    def label(self) -> str:
        return f"normalise {self.file} as Hermes would"

    def _plan(self, home: str | os.PathLike[str]) -> tuple[bytes, str] | Rejection:
        """The file's bytes now and its text as Hermes reads it, or why the fix cannot be made."""
        read = as_the_doctor_read(home, self.files, self.file, self.digest)
        if isinstance(read, Rejection):
            return read
        try:
            text = hermes_text(read.data.decode("utf-8"))
        except UnicodeDecodeError:
            return Rejection(f"{self.file} is not UTF-8: repair its bytes first; nothing was changed")
        if round_trips(text):
            return Rejection(f"{self.file} round-trips through Hermes's parser now; nothing to fix")
        return read.data, text

    def preview(self, home: str | os.PathLike[str]) -> RepairPreview | Rejection:
        """The dry run against the file on disk now: every entry it drops or changes; writes nothing."""
        plan = self._plan(home)
        if isinstance(plan, Rejection):
            return plan
        return RepairPreview(self.file, "\n  ".join(changes(plan[1], self.file, self.limit)))

    def apply(self, home: str | os.PathLike[str], *, by: Actor) -> SpliceResult:
        """One guarded splice of the whole file to Hermes's bytes; recorded, and undoable like every splice."""
        plan = self._plan(home)
        if isinstance(plan, Rejection):
            return SpliceResult(plan.message, is_error=True)
        data, text = plan
        new = normalised(text).encode("utf-8")
        name = self.files.relative(self.file)
        return splice(home, name, 0, data, new, by=by, label=self.label, files=self.files)  # under Hermes's lock
