"""A finding's fix: one guarded human write, with its dry run.

A fix never writes by itself: it names the line it expects (its exact text
when the doctor read it) and what it becomes, so applying it is the core's
guarded entry edit or splice, refused with a clear message when the line has
changed since. The dry run answers "what would this do to the file as it is
now?" without writing, through the same planning the write uses.
"""

from __future__ import annotations

import os
from dataclasses import dataclass, field, replace
from enum import Enum

from notebook_app.core.memory.edits.guarded_splice import (
    ENTRY_FILES,
    SpliceResult,
    delete_entry,
    edit_entry,
    plan_entry,
    splice,
)
from notebook_app.core.history.admin import AdminResult, redact
from notebook_app.core.home.files import read_file
from notebook_app.core.home.layout import FLAT, Dialect, FileMap
from notebook_app.core.home.refusals import Rejection
from notebook_app.core.home.soul import MAX_FILE_BYTES, home_path
from notebook_app.core.record.log.actor import Actor
from notebook_app.core.record.log.events import SecretSpan
from notebook_app.core.memory import sections
from notebook_app.core.memory.dialect import dialect_in


class FixKind(Enum):
    DELETE_LINE = "delete line"
    EDIT_LINE = "edit line"
    REDACT_RECORD = "redact record"
    NORMALISE_STORE = "normalise store"


@dataclass(frozen=True)
class FixPreview:
    """What a fix would do now: the line as it reads and as it would read (None: deleted)."""

    file: str
    line: int
    before: str
    after: str | None


@dataclass(frozen=True)
class Fix:
    """Delete or rewrite one line of a bootstrap file, only if it still reads ``expect``."""

    kind: FixKind
    file: str
    line: int
    expect: str
    """The line's exact text (without its line ending) when the doctor read it."""
    new_text: str | None
    label: str
    """What it does, in words: ``delete line 12 (a duplicate of line 3)``."""
    secrets: tuple[SecretSpan, ...] = ()
    """The secrets it removes (byte offsets in ``expect``): its record keeps only where they were (spec §7)."""
    files: FileMap = field(default=FLAT, compare=False, repr=False)
    """Where the file is in the home and its entries' dialect: in a Hermes ``§`` store the line's entry is
    edited as Hermes would, under Hermes's lock."""

    def dry_run(self, text: str | None) -> FixPreview | Rejection:
        """What this fix would do to a file whose text is ``text`` (None: absent); pure."""
        if text is None:
            return Rejection(f"{self.file} is absent now; nothing to fix")
        lines = text.split("\n")
        if self.line > len(lines) or (self.line == len(lines) and not lines[-1] and text.endswith("\n")):
            return Rejection(f"line {self.line} of {self.file} is gone; nothing was changed")
        now = lines[self.line - 1].removesuffix("\r")
        if now != self.expect:
            return Rejection(f"line {self.line} of {self.file} changed since the doctor read it; nothing was changed")
        if self._in_store(text):
            planned = self._store_write(text)
            if isinstance(planned, Rejection):
                return planned
        elif self.file in ENTRY_FILES:
            plan = plan_entry(text, self.file, self.line, self.expect, self.new_text)
            if isinstance(plan, Rejection):
                return plan
        return FixPreview(self.file, self.line, now, self.new_text)

    def preview(self, home: str | os.PathLike[str]) -> FixPreview | Rejection:
        """The dry run against the file as it is on disk now."""
        read = read_file(self.files.path(home_path(home), self.file), limit=4 * MAX_FILE_BYTES)
        if not read.status.exists:
            return self.dry_run(None)
        if not read.complete:
            return Rejection(f"{self.file} is larger than the doctor edits ({read.size:,} bytes); fix it by hand")
        return self.dry_run(read.data.decode("utf-8", "replace"))

    def apply(self, home: str | os.PathLike[str], *, by: Actor) -> SpliceResult:
        """Make the change through the guarded entry edit (MEMORY.md, USER.md) or splice (other files).

        In a ``§`` store the entry holding the line is edited whole, as Hermes
        would (:func:`..memory.sections.plan_store`): the line's bytes change
        and nothing else, or the write is refused in Hermes's words.
        """
        if self.file in ENTRY_FILES:
            read = read_file(self.files.path(home_path(home), self.file), limit=4 * MAX_FILE_BYTES)
            text = read.data.decode("utf-8", "replace") if read.status.exists and read.complete else None
            if text is not None and self._in_store(text):
                return self._store_apply(home, text, by)
            if self.new_text is None:
                return delete_entry(home, self.file, self.line, self.expect, by=by, files=self.files)
            return edit_entry(
                home, self.file, self.line, self.expect, self.new_text, by=by, secrets=self.secrets, files=self.files
            )
        return self._splice(home, by)

    def _in_store(self, text: str) -> bool:
        """Whether the file is a Hermes ``§`` store, as the write path decides it (the host, else the content)."""
        return self.file in ENTRY_FILES and (self.files.dialect or dialect_in(text)) is Dialect.SECTIONS

    def _store_op(self, text: str) -> tuple[sections.StoreOp, int] | Rejection:
        """The entry edit that makes this line's change in a ``§`` store, and the line's byte offset in that entry.

        The store is read as Hermes reads it (universal newlines), as the
        write path plans it; the line is found by the file's own ``\n``s.
        """
        raw_start = 0
        for _ in range(self.line - 1):
            raw_start = text.index("\n", raw_start) + 1
        seen = sections.hermes_text(text)
        line_start = raw_start - text.count("\r\n", 0, raw_start)  # a CRLF pair reads as one character
        line_end = line_start + len(self.expect)
        if seen[line_start:line_end] != self.expect:
            return Rejection(f"line {self.line} of {self.file} is not one line as Hermes reads it; fix it by hand")
        at = number = 0
        for part in seen.split(sections.DELIMITER):
            entry = part.strip()
            begin = at + len(part) - len(part.lstrip())
            at += len(part) + len(sections.DELIMITER)
            if not entry:
                continue
            number += 1
            if not begin <= line_start <= line_end <= begin + len(entry):
                continue
            end = begin + len(entry)
            if self.new_text is None:  # the line goes with its line ending (the one before it, if it is last)
                ending = 1 if seen[line_end:end].startswith("\n") else 0
                cut = (line_start, line_end + 1) if ending else (max(begin, line_start - 1), line_end)
                new = seen[begin : cut[0]] + seen[cut[1] : end]
            else:
                new = seen[begin:line_start] + self.new_text + seen[line_end:end]
            shift = len(text[sections.entry_start(text, number) : raw_start].encode("utf-8"))
            if not new.strip():
                return sections.StoreOp("delete", entry, index=number), shift
            return sections.StoreOp("edit", entry, new, index=number), shift
        return Rejection(f"line {self.line} of {self.file} is in no entry of its '§' store; nothing was changed")

    def _store_write(self, text: str) -> sections.StoreWrite | Rejection:
        planned = self._store_op(text)
        if isinstance(planned, Rejection):
            return planned
        limit = self.files.limits.get(self.file) or sections.LIMITS[self.file]
        return sections.plan_store(text, planned[0], name=self.file, limit=limit)

    def _store_apply(self, home: str | os.PathLike[str], text: str, by: Actor) -> SpliceResult:
        checked = self.dry_run(text)
        if isinstance(checked, Rejection):
            return SpliceResult(checked.message, is_error=True)
        planned = self._store_op(text)
        if isinstance(planned, Rejection):
            return SpliceResult(planned.message, is_error=True)
        op, shift = planned
        secrets = tuple(replace(span, start=span.start + shift) for span in self.secrets)
        number = op.index or 0
        if op.action == "delete":
            return delete_entry(home, self.file, number, op.text, by=by, files=self.files)
        return edit_entry(home, self.file, number, op.text, op.new or "", by=by, secrets=secrets, files=self.files)

    def _splice(self, home: str | os.PathLike[str], by: Actor) -> SpliceResult:
        read = read_file(self.files.path(home_path(home), self.file), limit=4 * MAX_FILE_BYTES)
        if not read.complete:
            return SpliceResult(f"{self.file} is larger than the doctor edits; nothing was changed", is_error=True)
        data = read.data
        start = 0
        for _ in range(self.line - 1):
            newline = data.find(b"\n", start)
            if newline < 0:
                return SpliceResult(f"line {self.line} of {self.file} is gone; nothing was changed", is_error=True)
            start = newline + 1
        end = data.find(b"\n", start)
        end = len(data) if end < 0 else end
        if end > start and data[end - 1 : end] == b"\r":
            end -= 1
        expected = self.expect.encode("utf-8")
        if data[start:end] != expected:
            return SpliceResult(
                f"line {self.line} of {self.file} changed since the doctor read it; nothing was changed", is_error=True
            )
        path = self.files.relative(self.file)
        if self.new_text is None:  # the line goes with its line ending
            end += 2 if data[end : end + 2] == b"\r\n" else 1 if data[end : end + 1] == b"\n" else 0
            return splice(home, path, start, data[start:end], b"", by=by, label=f"delete line {self.line}")
        new = self.new_text.encode("utf-8")
        return splice(home, path, start, expected, new, by=by, label=f"edit line {self.line}", secrets=self.secrets)


@dataclass(frozen=True)
class RedactPreview:
    """What redacting a record would do, in words (the snapshots that go, other records with the same text)."""

    record: str
    words: str


@dataclass(frozen=True)
class RedactFix:
    """``history --redact RECORD``: the record stays, its secrets
    become a marker in the log and the snapshots that hold them."""

    record: str
    kind: FixKind = FixKind.REDACT_RECORD

    @property
    def label(self) -> str:
        return f"history --redact {self.record}: replace its secret in the history by a marker"

    def preview(self, home: str | os.PathLike[str]) -> RedactPreview | Rejection:
        """The redaction's dry run: reads the log, writes nothing."""
        result = redact(home, self.record, dry_run=True)
        return Rejection(result.output) if result.is_error else RedactPreview(self.record, result.output)

    def apply(self, home: str | os.PathLike[str], *, by: Actor) -> AdminResult:
        """Redact under the home's lock (the log is rewritten, not appended to: no record, so no ``by``)."""
        del by
        return redact(home, self.record)


def delete_line(file: str, line: int, expect: str, why: str) -> Fix:
    return Fix(FixKind.DELETE_LINE, file, line, expect, None, f"delete line {line} ({why})")


def edit_line(
    file: str, line: int, expect: str, new_text: str, why: str, secrets: tuple[SecretSpan, ...] = ()
) -> Fix | None:
    """A fix that rewrites the line, or None when what is left would be empty (a person decides then)."""
    if not new_text.strip() or new_text.strip() == "-":
        return None
    return Fix(FixKind.EDIT_LINE, file, line, expect, new_text, f"edit line {line} ({why})", secrets)
