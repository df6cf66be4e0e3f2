"""When each entry was last written, from the home's history (blame): which of two facts is newer, which go first.

Issue 23 keeps the newer of two superseded facts "by blame time, else the later
line", and an over-budget plan moves "the entries least recently written (by
blame)". A line the history has no record of (written before it began, or
from outside since) has no time: it counts as older than any recorded line,
and among lines alike the earlier line is the older.
"""

from __future__ import annotations

from collections.abc import Mapping
from pathlib import Path

from notebook_app.core.history.origins import blame
from notebook_app.core.home.layout import FileMap
from notebook_app.core.tidy.model import Entry

Ages = Mapping[int, str]
"""A file's line number (from 1) -> the ISO time of the record that last wrote it; lines without one are absent."""


def ages_of(home: Path, files: FileMap, name: str) -> Ages:
    """Each recorded line's time, read from the history; nothing when the home has none (a read of no log)."""
    found = blame(home, files.relative(name))
    return {line.number: line.record.time for line in found.lines() if line.record is not None}


def written(entry: Entry, ages: Ages) -> str | None:
    """When ``entry`` was last written: the latest time of the lines it spans (a ``§`` entry may span several)."""
    span = entry.raw.rstrip("\n").count("\n") + 1
    times = [ages[number] for number in range(entry.line, entry.line + span) if number in ages]
    return max(times) if times else None


def oldest_first(entry: Entry, ages: Ages) -> tuple[bool, str, int]:
    """A sort key: lines the history has no time for first, then by time, then by line."""
    when = written(entry, ages)
    return (when is not None, when or "", entry.line)
