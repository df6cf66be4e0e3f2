"""Find text across a home: how many matches, where each is, the next and the previous one.

The notebook's find searches the seven bootstrap files and both souls (what
the current session loaded, what the next one would) as a person sees them:
each hidden character drawn as its marker (:mod:`..text.hidden`), one character for
one. So typing ``→`` finds a tab and ``∙`` a zero-width space, exactly where
the panes draw those markers, and pasting the hidden character itself finds
it too; columns are offsets into the text.

Smart case: a query without capitals matches any case; one capital letter
makes it match case exactly. Matching is literal (no patterns), within a
line, and matches do not overlap (``aa`` is found once in ``aaa``).

A 2 MiB home holds 100k matches of one letter, too many to list on each
keystroke; so nothing is listed: counting and stepping are C-speed string
scans over texts prepared once per version (:class:`Searchable`), and a view
asks :meth:`Query.spans` for the rows it draws.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass, field

from notebook_app.core.text.hidden import with_markers

_ASCII_HIDDEN = re.compile("[\x00-\x09\x0b-\x1f\x7f]")
"""The hidden characters ASCII text can hold: a scan for these alone is three times faster than the full class."""


def fold(text: str) -> str:
    """``text`` in lower case, character for character (so offsets still match)."""
    lowered = text.lower()
    if len(lowered) == len(text):
        return lowered
    return "".join(low if len(low := char.lower()) == 1 else char for char in text)  # İ lowers to two


@dataclass(frozen=True)
class Query:
    """What is typed, as it is matched: markers for hidden characters, folded unless it has a capital."""

    typed: str
    needle: str
    """What is looked for in the (folded, when ``folds``) text as shown."""
    folds: bool

    @classmethod
    def of(cls, typed: str) -> Query | None:
        """The query for ``typed``; None when nothing can match (empty, or more than one line)."""
        if not typed or "\n" in typed:
            return None
        shown = with_markers(typed)  # a pasted hidden character finds itself, drawn as its marker
        folds = not any(char.isupper() for char in shown)
        return cls(typed, fold(shown) if folds else shown, folds)

    def spans(self, line: str) -> list[tuple[int, int]]:
        """The column spans of the matches in one shown ``line``: what a view highlights on a row."""
        haystack = fold(line) if self.folds else line
        needle, size = self.needle, len(self.needle)
        spans: list[tuple[int, int]] = []
        at = haystack.find(needle)
        while at >= 0:
            spans.append((at, at + size))
            at = haystack.find(needle, at + size)
        return spans


@dataclass(frozen=True)
class Searchable:
    """One place's text as shown (markers drawn), and folded, prepared once per version of the text."""

    place: str
    text: str = field(repr=False)
    shown: str = field(repr=False)
    folded: str = field(repr=False)

    @classmethod
    def of(cls, place: str, text: str) -> Searchable:
        plain = text.isascii() and _ASCII_HIDDEN.search(text) is None
        shown = text if plain else with_markers(text)
        return cls(place, text, shown, fold(shown))

    def haystack(self, query: Query) -> str:
        return self.folded if query.folds else self.shown


def prepare(texts: Sequence[tuple[str, str]], previous: Sequence[Searchable] = ()) -> tuple[Searchable, ...]:
    """Every ``(place, text)`` ready to search, reusing what ``previous`` prepared for the same text object."""
    known = {(item.place, id(item.text)): item for item in previous}
    return tuple(known.get((place, id(text))) or Searchable.of(place, text) for place, text in texts)


@dataclass(frozen=True)
class Hit:
    """One match: where it is (a place, a 0-based line, a column span) and its offset in the text."""

    place: str
    line: int
    start: int
    end: int
    offset: int


@dataclass(frozen=True)
class Found:
    """The matches of one query across places, in the order the places were given."""

    query: Query
    texts: tuple[Searchable, ...]
    counts: tuple[int, ...]

    @property
    def count(self) -> int:
        return sum(self.counts)

    def _index(self, place: str) -> int:
        return next((i for i, item in enumerate(self.texts) if item.place == place), -1)

    def _hit(self, index: int, offset: int) -> Hit:
        shown = self.texts[index].shown
        line_start = shown.rfind("\n", 0, offset) + 1
        column = offset - line_start
        return Hit(
            self.texts[index].place, shown.count("\n", 0, line_start), column, column + len(self.query.needle), offset
        )

    def first(self) -> Hit | None:
        return self.at_or_after(self.texts[0].place, 0) if self.texts else None

    def at_or_after(self, place: str, offset: int) -> Hit | None:
        """The first match in ``place`` from ``offset`` on, else the first in a later place (wrapping round)."""
        if not self.count:
            return None
        start = max(0, self._index(place))
        for step in range(len(self.texts) + 1):
            index = (start + step) % len(self.texts)
            if not self.counts[index]:
                continue
            found = self.texts[index].haystack(self.query).find(self.query.needle, offset if step == 0 else 0)
            if found >= 0:
                return self._hit(index, found)
        return None

    def next(self, hit: Hit) -> Hit | None:
        """The match after ``hit`` (after the last: the first)."""
        return self.at_or_after(hit.place, hit.offset + len(self.query.needle))

    def previous(self, hit: Hit) -> Hit | None:
        """The match before ``hit`` (before the first: the last)."""
        if not self.count:
            return None
        start = max(0, self._index(hit.place))
        needle = self.query.needle
        for step in range(len(self.texts) + 1):
            index = (start - step) % len(self.texts)
            if not self.counts[index]:
                continue
            haystack = self.texts[index].haystack(self.query)
            found = last_before(haystack, needle, hit.offset if step == 0 else len(haystack))
            if found >= 0:
                return self._hit(index, found)
        return None

    def ordinal(self, hit: Hit) -> int:
        """``hit``'s number among all matches, from 1: the 3 of ``3 of 17``."""
        index = self._index(hit.place)
        before = sum(self.counts[:index])
        return before + self.texts[index].haystack(self.query).count(self.query.needle, 0, hit.offset) + 1


def last_before(haystack: str, needle: str, limit: int) -> int:
    """The start of the last match ending by ``limit``, counted as ``find`` steps (no overlaps); -1 when none."""
    found = haystack.rfind(needle, 0, limit)
    size = len(needle)
    if found < 0 or not any(needle[:k] == needle[-k:] for k in range(1, size)):
        return found
    # a needle that overlaps itself (``aa``, ``--``): rfind may land between two steps of find
    last, at = -1, haystack.find(needle)
    while 0 <= at and at + size <= limit:
        last, at = at, haystack.find(needle, at + size)
    return last


def offset_at(text: str, line: int, column: int) -> int:
    """The offset of 0-based ``line`` and ``column`` in ``text`` (lines
    end at ``\\n``), clamped to the text: where an editor's cursor is."""
    start = 0
    for _ in range(max(0, line)):
        found = text.find("\n", start)
        if found < 0:
            return len(text)
        start = found + 1
    end = text.find("\n", start)
    return min(start + max(0, column), len(text) if end < 0 else end)


def find(texts: Sequence[Searchable], typed: str) -> Found | None:
    """Count the matches of ``typed`` in every prepared text; None when nothing can match."""
    query = Query.of(typed)
    if query is None:
        return None
    return Found(query, tuple(texts), tuple(item.haystack(query).count(query.needle) for item in texts))


def search(texts: Sequence[tuple[str, str]], typed: str) -> list[Hit]:
    """Every match of ``typed`` in order: the whole list, for small
    texts (the tests' reference; the app steps with :class:`Found`)."""
    found = find(prepare(texts), typed)
    hits: list[Hit] = []
    hit = found.first() if found is not None else None
    while hit is not None and found is not None and len(hits) < found.count:
        hits.append(hit)
        hit = found.next(hit)
    return hits
