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
from collections.abc import Iterator
from dataclasses import dataclass
from enum import Enum
from functools import cache


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
    VARIATION_SELECTOR = "variation selector"
    """Outside an emoji or an ideographic variation sequence it changes nothing a reader sees."""


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
    HiddenKind.VARIATION_SELECTOR: "¤",
}

# Everything the classifier can flag, as one expression: a pane's text is
# searched once, and text without any (nearly all of it) costs one scan.
_PATTERN = re.compile(
    "[\x00-\x09\x0b-\x1f\x7f-\x9f\u00ad\u061c\u180e\u200b-\u200f\u202a-\u202e\u2060-\u2064\u2066-\u206f"
    "\ufe00-\ufe0f\ufeff\ufff9-\ufffb\U000110bd\U0001bca0-\U0001bca3\U0001d173-\U0001d17a\U000e0000-\U000e01ef]"
)

_VARIATION_SELECTORS = {*range(0xFE00, 0xFE10), *range(0xE0100, 0xE01F0)}


# Characters a variation selector may follow, as far as a reader can tell: an
# emoji base or keycap base (VS15/VS16), or a CJK ideograph (ideographic
# variation sequences). An approximation of Unicode's Emoji property, which
# Python's unicodedata does not carry. Compiled when first needed: its wide
# ranges take re some 2 ms, paid by every start that showed a home otherwise.
@cache
def _variation_base() -> re.Pattern[str]:
    return re.compile(
        "[#*0-9\u00a9\u00ae\u203c\u2049\u2122\u2139\u2194-\u21aa\u231a-\u23ff\u24c2\u25aa-\u27bf"
        "\u2934\u2935\u2b05-\u2b55\u3030\u303d\u3297\u3299\u3400-\u9fff\uf900-\ufaff"
        "\U0001f000-\U0001faff\U00020000-\U0003ffff]"
    )


_IN_SEQUENCES = frozenset({"\u200d", *map(chr, _VARIATION_SELECTORS)})
"""What may belong to a glyph a reader sees: a joiner between emoji, a variation selector after its base."""

_EMOJI = re.compile("[\u2194-\u27bf\u2b05-\u2b55\U0001f000-\U0001faff]")


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
    if code in _VARIATION_SELECTORS:
        return HiddenKind.VARIATION_SELECTOR
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


def part_of_a_sequence(text: str, index: int) -> bool:
    """Whether the hidden character at ``text[index]`` belongs to what a reader sees.

    A variation selector after an emoji, keycap or ideograph, and a zero-width
    joiner between two emoji (👩‍🔬), change the glyph shown; elsewhere they
    change nothing visible and may hide a difference from a reader.
    """
    char = text[index]
    back = index
    before = text[back - 1] if back else ""
    while before and ord(before) in _VARIATION_SELECTORS and back > 1:  # 🏳️‍🌈: emoji, VS16, ZWJ, emoji
        back -= 1
        before = text[back - 1]
    if ord(char) in _VARIATION_SELECTORS:
        return bool(before) and _variation_base().match(before) is not None
    if char == "\u200d":
        after = text[index + 1] if index + 1 < len(text) else ""
        return bool(before and after) and _EMOJI.match(before) is not None and _EMOJI.match(after) is not None
    return False


def find_hidden(text: str, *, limit: int | None = None) -> list[HiddenChar]:
    """The hidden characters in ``text``, in order (at most ``limit`` of them).

    A variation selector that is part of an emoji or ideograph, and a joiner
    between two emoji (👨‍👩‍👧), are not hidden: they are how that glyph is drawn.
    """
    found: list[HiddenChar] = []
    for item in iter_hidden(text):
        found.append(item)
        if limit is not None and len(found) >= limit:
            break
    return found


def iter_hidden(text: str) -> Iterator[HiddenChar]:
    """:func:`find_hidden`, one at a time: a reader that stops early reads no further."""
    for match in _PATTERN.finditer(text):
        char = match.group()
        kind = hidden_kind(char)
        if kind is None or (char in _IN_SEQUENCES and part_of_a_sequence(text, match.start())):
            continue
        yield HiddenChar(match.start(), char, kind)


def with_markers(text: str) -> str:
    """``text`` with each hidden character drawn as its marker; same length, newlines kept."""
    if not has_hidden(text):
        return text

    def draw(match: re.Match[str]) -> str:
        char = match.group()
        if char in _IN_SEQUENCES and part_of_a_sequence(text, match.start()):
            return char
        return marker(char)

    return _PATTERN.sub(draw, text)


def strip_hidden(text: str) -> str:
    """``text`` without its hidden characters (a tab becomes a space), for matching words a reader sees."""
    if not has_hidden(text):
        return text
    return _PATTERN.sub(lambda match: " " if match.group() == "\t" else "", text)


def describe_hidden(text: str, *, limit: int = 3) -> str:
    """``contains U+200B ZERO WIDTH SPACE at 12, …``: the words under a form field."""
    found = find_hidden(text, limit=limit + 1)
    if not found:
        return ""
    parts = [f"{item.name} at {item.offset + 1}" for item in found[:limit]]
    more = " and more" if len(found) > limit else ""
    return "contains " + ", ".join(parts) + more


@dataclass(frozen=True)
class NearMatch:
    """Where a text that was not found is after all, once hidden characters are set aside on both sides."""

    start: int
    end: int
    """The span of the searched text that reads as the sought one (characters)."""
    in_text: tuple[str, ...]
    """The hidden characters the span holds that the sought text does not (named: :func:`char_name`)."""
    in_sought: tuple[str, ...]
    """The hidden characters the sought text holds that the span does not."""


def _removed(text: str) -> list[int]:
    """Where :func:`strip_hidden` drops a character of ``text`` (a tab it keeps, as a space)."""
    return [match.start() for match in _PATTERN.finditer(text) if match.group() != "\t"]


def _source_index(index: int, removed: list[int]) -> int:
    """The index in the text of the character at ``index`` of its stripped form (``removed``: what was dropped)."""
    skipped = 0
    while skipped < len(removed) and removed[skipped] <= index + skipped:
        skipped += 1
    return index + skipped


def _differing(one: str, other: str) -> tuple[str, ...]:
    """The hidden characters ``one`` holds more often than ``other``, each once, in order."""
    theirs = [match.group() for match in _PATTERN.finditer(other)]
    extra: list[str] = []
    for match in _PATTERN.finditer(one):
        char = match.group()
        if char in theirs:
            theirs.remove(char)
        elif char not in extra:
            extra.append(char)
    return tuple(extra)


def near_match(sought: str, text: str) -> NearMatch | None:
    """Where ``sought``, not in ``text`` as it is, is once hidden characters are set aside (a tab read as a space).

    A remove of ``teaat`` that misses ``tea<U+200B>at`` is the case: the
    person typed what they see. None when hidden characters are not why it
    missed (neither side holds one, or the text is not there even without them).
    """
    if not (has_hidden(sought) or has_hidden(text)) or sought in text:
        return None
    needle = strip_hidden(sought)
    at = strip_hidden(text).find(needle) if needle.strip() else -1
    if at < 0:
        return None
    removed = _removed(text)
    start, end = _source_index(at, removed), _source_index(at + len(needle) - 1, removed) + 1
    span = text[start:end]
    return NearMatch(start, end, _differing(span, sought), _differing(sought, span))
