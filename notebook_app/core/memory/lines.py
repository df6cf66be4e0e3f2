"""The contract's ``- `` entry lines, parsed once for every reader: the doctor's hygiene and tidy (spec §3, §9).

Pure, no I/O. A line is an entry when it is a Markdown bullet with text
(``- text``; ``*`` and ``+`` bullets too, as a person writes them by hand); a
bullet with no text is an empty entry; a ``#`` heading, a blank line and any
other line are not entries. Lines end at ``\\n`` only, a ``\\r`` before it
being part of the ending, as the notebook numbers them.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from dataclasses import dataclass
from enum import Enum

ENTRY = re.compile(r"[-*+][ \t]+(\S.*)")
"""A bullet with text, matched on the stripped line: group 1 is the entry's text."""
HEADING = re.compile(r"#{1,6}(?:[ \t]|$)")
DANGLING = re.compile(r"[-*+][ \t]*")
"""A bullet with nothing after it, matched on the stripped line."""
SEPARATOR_LINE = "§"
"""A line holding only this is Hermes's entry separator: neither an entry nor prose of a ``- `` file."""


class LineKind(Enum):
    """What one line of a ``- `` file is."""

    ENTRY = "entry"
    EMPTY_BULLET = "empty bullet"
    BLANK = "blank line"
    HEADING = "heading"
    SEPARATOR = "'§' separator"
    OTHER = "line that is not an entry"


@dataclass(frozen=True)
class Line:
    """One line of a ``- `` file: its number, what it is, and where it lies in the text."""

    number: int
    """From 1."""
    kind: LineKind
    text: str
    """An entry's text (after the bullet, trailing space dropped); any other line stripped."""
    start: int
    end: int
    """``text[start:end]`` is the whole line with its ending: what removing it removes."""


def classify(raw: str) -> tuple[LineKind, str]:
    """What the line ``raw`` (without its ending) is, and its text."""
    line = raw.strip()
    if not line:
        return LineKind.BLANK, ""
    if raw == SEPARATOR_LINE:
        return LineKind.SEPARATOR, line
    if line[0] == "#" and HEADING.match(line):
        return LineKind.HEADING, line
    if line[0] in "-*+":
        entry = ENTRY.fullmatch(line)
        if entry is not None:
            return LineKind.ENTRY, entry.group(1).rstrip()
        if DANGLING.fullmatch(line):
            return LineKind.EMPTY_BULLET, ""
    return LineKind.OTHER, line


def file_lines(text: str) -> Iterator[Line]:
    """Every line of ``text`` in order, each said as what it is; a final newline starts no line."""
    start = 0
    number = 0
    size = len(text)
    while start < size:
        newline = text.find("\n", start)
        end = size if newline < 0 else newline + 1
        raw = text[start : newline if newline >= 0 else size]
        if raw.endswith("\r"):
            raw = raw[:-1]
        number += 1
        kind, said = classify(raw)
        yield Line(number, kind, said, start, end)
        start = end
