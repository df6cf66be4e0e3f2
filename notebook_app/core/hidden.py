"""Characters a person cannot see: which they are, their names, and one marker each.

A curator whose remove misses needs to know that the entry holds a zero-width
space or a tab; a reviewer needs to see a bidi override planted in a memory.
This is the one classifier for that: the app draws :func:`marker` in place of
each hidden character (one character for one, so offsets still match the
file), the form names them under its inputs, and the doctor's rules read the
same classes. Showing never changes the text on disk.
"""

from __future__ import annotations

import re
import unicodedata
from dataclasses import dataclass
from enum import Enum


class HiddenKind(Enum):
    """Why a character is hidden; the doctor weighs them differently."""

    TAB = "tab"
    CARRIAGE_RETURN = "carriage return"
    CONTROL = "control character"
    ZERO_WIDTH = "zero-width character"
    BIDI = "bidirectional control"
    BOM = "byte order mark"
    TAG = "tag character"
    FORMAT = "format character"


_ZERO_WIDTH = {0x200B, 0x200C, 0x200D, 0x2060, 0x180E}
_BIDI = {0x200E, 0x200F, 0x061C, *range(0x202A, 0x202F), *range(0x2066, 0x206A)}

_MARKERS: dict[HiddenKind, str] = {
    HiddenKind.TAB: "→",
    HiddenKind.CARRIAGE_RETURN: "␍",
    HiddenKind.ZERO_WIDTH: "∙",
    HiddenKind.BIDI: "⇆",
    HiddenKind.BOM: "␢",
    HiddenKind.TAG: "⌑",
    HiddenKind.FORMAT: "¤",
}

# Everything the classifier can flag, as one expression: a pane's text is
# searched once, and text without any (nearly all of it) costs one scan.
_PATTERN = re.compile(
    "[\x00-\x09\x0b-\x1f\x7f-\x9f\u00ad\u061c\u180e\u200b-\u200f\u202a-\u202e\u2060-\u2064\u2066-\u206f"
    "\ufeff\ufff9-\ufffb\U000110bd\U0001bca0-\U0001bca3\U0001d173-\U0001d17a\U000e0000-\U000e007f]"
)


def hidden_kind(char: str) -> HiddenKind | None:
    """The kind of hidden character ``char`` is, None for an ordinary one (or newline)."""
    code = ord(char)
    if char == "\n":
        return None
    if char == "\t":
        return HiddenKind.TAB
    if char == "\r":
        return HiddenKind.CARRIAGE_RETURN
    if code < 0x20 or 0x7F <= code <= 0x9F:
        return HiddenKind.CONTROL
    if code in _ZERO_WIDTH:
        return HiddenKind.ZERO_WIDTH
    if code in _BIDI:
        return HiddenKind.BIDI
    if code == 0xFEFF:
        return HiddenKind.BOM
    if 0xE0000 <= code <= 0xE007F:
        return HiddenKind.TAG
    if unicodedata.category(char) == "Cf":
        return HiddenKind.FORMAT
    return None


def marker(char: str) -> str:
    """One visible character to draw in place of hidden ``char`` (``char`` itself if not hidden)."""
    kind = hidden_kind(char)
    if kind is None:
        return char
    if kind is HiddenKind.CONTROL:
        code = ord(char)
        return chr(0x2400 + code) if code < 0x20 else "␡" if code == 0x7F else "¤"
    return _MARKERS[kind]


def char_name(char: str) -> str:
    """``U+200B ZERO WIDTH SPACE``: how a hidden character is named to a person."""
    code = ord(char)
    fallback = {0x09: "CHARACTER TABULATION", 0x0D: "CARRIAGE RETURN", 0x1B: "ESCAPE", 0x7F: "DELETE"}
    name = unicodedata.name(char, "") or fallback.get(code, "CONTROL")
    return f"U+{code:04X} {name}"


@dataclass(frozen=True)
class HiddenChar:
    offset: int
    """Index of the character in the text (characters, not bytes)."""
    char: str
    kind: HiddenKind

    @property
    def name(self) -> str:
        return char_name(self.char)


def has_hidden(text: str) -> bool:
    return _PATTERN.search(text) is not None


def find_hidden(text: str, *, limit: int | None = None) -> list[HiddenChar]:
    """The hidden characters in ``text``, in order (at most ``limit`` of them)."""
    found: list[HiddenChar] = []
    for match in _PATTERN.finditer(text):
        char = match.group()
        kind = hidden_kind(char)
        if kind is None:
            continue
        found.append(HiddenChar(match.start(), char, kind))
        if limit is not None and len(found) >= limit:
            break
    return found


def with_markers(text: str) -> str:
    """``text`` with each hidden character drawn as its marker; same length, newlines kept."""
    if not has_hidden(text):
        return text
    return _PATTERN.sub(lambda match: marker(match.group()), text)


def describe_hidden(text: str, *, limit: int = 3) -> str:
    """``contains U+200B ZERO WIDTH SPACE at 12, …``: the words under a form field."""
    found = find_hidden(text, limit=limit + 1)
    if not found:
        return ""
    parts = [f"{item.name} at {item.offset + 1}" for item in found[:limit]]
    more = " and more" if len(found) > limit else ""
    return "contains " + ", ".join(parts) + more
