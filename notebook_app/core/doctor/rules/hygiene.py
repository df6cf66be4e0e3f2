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

from ...edits.guarded_splice import ENTRY_FILES
from ...text.file_text import FileText, shown
from ..fixes import delete_line
from ..model import Finding, finding

MAX_PER_RULE = 500

_ENTRY = re.compile(r"[-*+][ \t]+(\S.*)")
_HEADING = re.compile(r"#{1,6}(?:[ \t]|$)")
_DANGLING = re.compile(r"[-*+][ \t]*")
_KEY_VALUE = re.compile(r"([^:]{1,40}?)[ \t]*:[ \t]+(\S.*)")
_NOT_WORD = re.compile(r"[\W_]+")
_ASCII_PUNCTUATION = str.maketrans({char: " " for char in "!\"#$%&'()*+,-./:;<=>?@[\\]^_`{|}~"})


def normal_form(text: str) -> str:
    """What two entries share when they differ only in case, spacing and punctuation."""
    if text.isascii():  # nearly every entry: a C-speed translate instead of a regular expression
        return " ".join(text.lower().translate(_ASCII_PUNCTUATION).split())
    return _NOT_WORD.sub(" ", unicodedata.normalize("NFKC", text).casefold()).strip()


def hygiene_findings(file: FileText) -> list[Finding]:
    if file.name not in ENTRY_FILES:
        return []
    found: list[Finding] = []
    exact: dict[str, int] = {}
    near: dict[str, int] = {}
    keys: dict[str, tuple[int, str, str]] = {}
    counts: dict[str, int] = {}

    def add(rule: str, item: Finding) -> None:
        counts[rule] = counts.get(rule, 0) + 1
        if counts[rule] <= MAX_PER_RULE:
            found.append(item)

    stray: list[_Run] = []
    """Runs of lines that are not entries; blank lines and headings inside one do not end it."""
    previous = -1
    """The last line that was neither blank nor a heading."""
    for number, raw in enumerate(file.lines, start=1):
        line = raw.strip()
        if not line or line[0] == "#" and _HEADING.match(line):
            continue
        entry = _ENTRY.fullmatch(line) if line[0] in "-*+" else None
        if entry is None:
            if _DANGLING.fullmatch(line):
                add(
                    "hygiene.empty-entry",
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
        text = entry.group(1).rstrip()
        first = exact.setdefault(text, number)
        if first != number:
            add(
                "hygiene.duplicate",
                finding(
                    "hygiene.duplicate",
                    file.name,
                    number,
                    f"line {number} of {file.name} repeats line {first}: {shown(text)}",
                    delete_line(file.name, number, raw, f"a duplicate of line {first}"),
                ),
            )
            continue
        form = normal_form(text)
        first = near.setdefault(form, number)
        if first != number and form:
            add(
                "hygiene.near-duplicate",
                finding(
                    "hygiene.near-duplicate",
                    file.name,
                    number,
                    f"line {number} of {file.name} says what line {first} says, but for case, spacing or punctuation: "
                    f"{shown(text)} and {shown(file.line_text(first).strip()[2:])}",
                    delete_line(file.name, number, raw, f"a near duplicate of line {first}"),
                ),
            )
            continue
        pair = _KEY_VALUE.fullmatch(text) if ":" in text else None
        if pair is None or "//" in pair.group(2)[:2]:
            continue
        key, value = " ".join(pair.group(1).casefold().split()), pair.group(2)
        if not key or len(key.split()) > 4:
            continue  # a sentence with a colon in it, not a key
        earlier = keys.setdefault(key, (number, value, pair.group(1)))
        if earlier[0] != number and normal_form(earlier[1]) != normal_form(value):
            add(
                "hygiene.conflict",
                finding(
                    "hygiene.conflict",
                    file.name,
                    number,
                    f"line {number} of {file.name} says {shown(pair.group(1))} is "
                    f"{shown(value)}, but line {earlier[0]} says it is {shown(earlier[1])}",
                ),
            )
    for run in stray:
        add("hygiene.not-an-entry", run.finding(file.name))
    for rule, count in counts.items():
        if count > MAX_PER_RULE:
            found.append(finding(rule, file.name, None, f"{count - MAX_PER_RULE:,} more such lines in {file.name}"))
    return found


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
