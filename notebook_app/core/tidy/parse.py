"""An entry file read into what tidy looks at, by the core's own dialect parsers (no parser of tidy's own).

``- `` files: :func:`..memory.lines.file_lines` (the doctor's hygiene reads
them so too). Hermes ``§`` stores: :func:`..memory.sections.entry_spans`, as
Hermes parses them; every piece of a store is an entry, so a store has no
strays, and its blank pieces are the doctor's to normalise (Hermes drops them
at its next write), not tidy's.
"""

from __future__ import annotations

from dataclasses import dataclass

from notebook_app.core.home.layout import Dialect
from notebook_app.core.memory import sections
from notebook_app.core.memory.lines import LineKind, file_lines
from notebook_app.core.tidy.model import Entry, Stray


@dataclass(frozen=True)
class Parsed:
    """One entry file as tidy sees it."""

    name: str
    dialect: Dialect
    text: str
    """As read (bad UTF-8 kept as surrogate escapes, so an entry's raw text gives its bytes back)."""
    entries: tuple[Entry, ...]
    empty_bullets: tuple[Entry, ...] = ()
    blank_runs: tuple[tuple[Entry, ...], ...] = ()
    """Each run of two or more blank lines: the blank lines after its first, which go."""
    strays: tuple[Stray, ...] = ()
    lines: int = 0


def shown(text: str) -> str:
    """``text`` with any byte that is not UTF-8 shown as U+FFFD: what a person reads and JSON carries."""
    try:
        text.encode("utf-8")
    except UnicodeEncodeError:
        return text.encode("utf-8", "surrogateescape").decode("utf-8", "replace")
    return text


def parse(name: str, text: str, dialect: Dialect) -> Parsed:
    """``text`` of entry file ``name`` in ``dialect``: its entries, empty lines and strays, in order."""
    count = text.count("\n") + (1 if text and not text.endswith("\n") else 0)
    if dialect is Dialect.SECTIONS:
        seen = sections.hermes_text(text)
        found = tuple(
            Entry(name, line, shown(entry), entry) for _start, _end, line, entry in sections.entry_spans(seen)
        )
        return Parsed(name, dialect, text, found, lines=count)
    entries: list[Entry] = []
    empty: list[Entry] = []
    runs: list[tuple[Entry, ...]] = []
    blank: list[Entry] = []
    strays: list[Stray] = []
    open_run: list[int] | None = None  # first, last, count, of the stray run being read
    sample = ""
    for line in file_lines(text):
        raw = text[line.start : line.end]
        if line.kind is LineKind.BLANK:
            blank.append(Entry(name, line.number, "", raw))
            continue
        if len(blank) > 1:
            runs.append(tuple(blank[1:]))
        blank = []
        if line.kind is LineKind.ENTRY:
            entries.append(Entry(name, line.number, shown(line.text), raw))
        elif line.kind is LineKind.EMPTY_BULLET:
            empty.append(Entry(name, line.number, "", raw))
        else:
            if open_run is None:
                open_run, sample = [line.number, line.number, 0], shown(line.text)
            open_run[1] = line.number
            open_run[2] += 1
            continue
        if open_run is not None:
            strays.append(Stray(name, open_run[0], open_run[1], open_run[2], sample))
            open_run = None
    if len(blank) > 1:
        runs.append(tuple(blank[1:]))
    if open_run is not None:
        strays.append(Stray(name, open_run[0], open_run[1], open_run[2], sample))
    return Parsed(name, dialect, text, tuple(entries), tuple(empty), tuple(runs), tuple(strays), count)
