"""Hygiene of the entry files (MEMORY.md, USER.md): duplicates, conflicts, stray lines.

Every entry is looked at once and hashed: exact duplicates by their text, near
duplicates by a normal form (case folded, punctuation and spacing removed),
conflicts by the key before a colon. A dictionary lookup per entry, never a
comparison of pairs, so 34,000 entries cost what 34,000 lookups cost.
"""

from __future__ import annotations

import re
import unicodedata
from dataclasses import dataclass

from notebook_app.core.doctor.fixes import delete_line
from notebook_app.core.doctor.model import Finding, finding
from notebook_app.core.doctor.store_fix import pieces
from notebook_app.core.memory.edits.guarded_splice import ENTRY_FILES
from notebook_app.core.home.layout import Dialect
from notebook_app.core.memory.lines import DANGLING as _DANGLING
from notebook_app.core.memory.lines import ENTRY as _ENTRY
from notebook_app.core.memory.lines import HEADING as _HEADING
from notebook_app.core.memory.lines import SEPARATOR_LINE
from notebook_app.core.memory.sections import hermes_text
from notebook_app.core.text.file_text import FileText
from notebook_app.core.text.quote import shown

MAX_PER_RULE = 500
_KEY_VALUE = re.compile(r"([^:]{1,40}?)[ \t]*:[ \t]+(\S.*)")
_NOT_WORD = re.compile(r"[\W_]+")
_ASCII_PUNCTUATION = str.maketrans({char: " " for char in "!\"#$%&'()*+,-./:;<=>?@[\\]^_`{|}~"})


def normal_form(text: str) -> str:
    """What two entries share when they differ only in case, spacing and punctuation."""
    if text.isascii():  # nearly every entry: a C-speed translate instead of a regular expression
        return " ".join(text.lower().translate(_ASCII_PUNCTUATION).split())
    return _NOT_WORD.sub(" ", unicodedata.normalize("NFKC", text).casefold()).strip()


def hygiene_findings(file: FileText, dialect: Dialect = Dialect.LINES) -> list[Finding]:
    """Duplicates, near duplicates and conflicts among an entry file's entries, in its dialect.

    In ``- `` lines, also dangling bullets and runs of lines that are not
    entries; in a Hermes ``§`` store every piece of text is an entry (Hermes
    lets one span lines), so neither is said, and a repeat has no line fix:
    Hermes keeps the first and drops it at its next write.
    """
    if file.name not in ENTRY_FILES:
        return []
    checks = _Checks(file.name)
    if dialect is Dialect.SECTIONS:
        for piece in pieces(hermes_text(file.text)):
            if piece.number is not None:
                checks.entry(piece.line, piece.text, f"entry {piece.number} (line {piece.line})", None)
        return checks.done()
    stray: list[_Run] = []
    """Runs of lines that are not entries; blank lines and headings inside one do not end it."""
    previous = -1
    """The last line that was neither blank nor a heading."""
    for number, raw in enumerate(file.lines, start=1):
        line = raw.strip()
        if not line or line[0] == "#" and _HEADING.match(line) or raw == SEPARATOR_LINE:
            continue  # a '§' line is Hermes's separator: the dialect rule names it (.stores)
        entry = _ENTRY.fullmatch(line) if line[0] in "-*+" else None
        if entry is None:
            if _DANGLING.fullmatch(line):
                checks.add(
                    finding(
                        "hygiene.empty-entry",
                        file.name,
                        number,
                        f"line {number} of {file.name} is a bullet with no text",
                        delete_line(file.name, number, raw, "an empty bullet"),
                    ),
                )
            elif stray and stray[-1].last == previous:
                stray[-1].last = number  # one run of prose between entries is one finding
                stray[-1].count += 1
            else:
                stray.append(_Run(number, number, 1, line))
            previous = number
            continue
        previous = number
        checks.entry(number, entry.group(1).rstrip(), f"line {number}", raw)
    for run in stray:
        checks.add(run.finding(file.name))
    return checks.done()


class _Checks:
    """The entries seen so far of one file, hashed three ways; each new one is looked up once."""

    def __init__(self, name: str) -> None:
        self.name = name
        self.found: list[Finding] = []
        self.exact: dict[str, tuple[int, str]] = {}
        self.near: dict[str, tuple[int, str, str]] = {}
        self.keys: dict[str, tuple[int, str, str]] = {}
        self.counts: dict[str, int] = {}

    def add(self, item: Finding) -> None:
        self.counts[item.rule] = self.counts.get(item.rule, 0) + 1
        if self.counts[item.rule] <= MAX_PER_RULE:
            self.found.append(item)

    def entry(self, number: int, text: str, where: str, raw: str | None) -> None:
        """Entry ``text`` at line ``number``, said as ``where``; ``raw`` its whole line, for a line fix (None: none)."""
        name = self.name
        first, said = self.exact.setdefault(text, (number, where))
        if first != number:
            fix = delete_line(name, number, raw, f"a duplicate of line {first}") if raw is not None else None
            kept = "" if raw is not None else "; Hermes keeps the first and drops this one at its next write"
            message = f"{where} of {name} repeats {said}: {shown(text)}{kept}"
            self.add(finding("hygiene.duplicate", name, number, message, fix))
            return
        form = normal_form(text)
        first, said, earlier = self.near.setdefault(form, (number, where, text))
        if first != number and form:
            fix = delete_line(name, number, raw, f"a near duplicate of line {first}") if raw is not None else None
            self.add(
                finding(
                    "hygiene.near-duplicate",
                    name,
                    number,
                    f"{where} of {name} says what {said} says, but for case, spacing or punctuation: "
                    f"{shown(text)} and {shown(earlier)}",
                    fix,
                )
            )
            return
        pair = _KEY_VALUE.fullmatch(text) if ":" in text else None
        if pair is None or "//" in pair.group(2)[:2]:
            return
        key, value = " ".join(pair.group(1).casefold().split()), pair.group(2)
        if not key or len(key.split()) > 4:
            return  # a sentence with a colon in it, not a key
        first, said, value_then = self.keys.setdefault(key, (number, where, value))
        if first != number and normal_form(value_then) != normal_form(value):
            self.add(
                finding(
                    "hygiene.conflict",
                    name,
                    number,
                    f"{where} of {name} says {shown(pair.group(1))} is "
                    f"{shown(value)}, but {said} says it is {shown(value_then)}",
                )
            )

    def done(self) -> list[Finding]:
        for rule, count in self.counts.items():
            if count > MAX_PER_RULE:
                self.found.append(
                    finding(rule, self.name, None, f"{count - MAX_PER_RULE:,} more such lines in {self.name}")
                )
        return self.found


@dataclass
class _Run:
    """Lines that are not entries, with no entry between them: one finding, at the first."""

    first: int
    last: int
    count: int
    text: str

    def finding(self, name: str) -> Finding:
        if self.count == 1:
            message = (
                f"line {self.first} of {name} is not an entry ('- text'), a heading or a blank line: {shown(self.text)}"
            )
        else:
            message = (
                f"lines {self.first}–{self.last} of {name} hold {self.count} lines that are not entries ('- text'), "
                f"headings or blank lines, the first: {shown(self.text)}"
            )
        return finding("hygiene.not-an-entry", name, self.first, message)
