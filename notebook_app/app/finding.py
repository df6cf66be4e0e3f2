"""Find across the notebook's home: which texts it searches, kept prepared between keystrokes. No Textual.

The places are the bootstrap files in load order (as the Home column shows
them) and then both souls (as the session panes show them); the core
(:mod:`notebook_app.core.find`) does the matching. A :class:`Finder` runs in
a worker, one search at a time (the latest query wins), so the event loop only
paints.
"""

from __future__ import annotations

from dataclasses import dataclass

from ..core import BOOTSTRAP_ORDER
from ..core.find import Found, Hit, Searchable, find, prepare
from .model import HomeState

CURRENT, NEXT = "current", "next"
"""The two souls' places; files are named by their file name."""

SESSION_PLACES = (CURRENT, NEXT)


def place_label(place: str) -> str:
    """How a place is named to a person: a file name, or the session pane's title."""
    return {CURRENT: "Current session", NEXT: "Next session"}.get(place, place)


def find_texts(state: HomeState) -> list[tuple[str, str]]:
    """Every place find searches, in order, with the text its pane shows."""
    texts = [(name, state.files[name].text) for name in BOOTSTRAP_ORDER if name in state.files]
    comparison = state.comparison
    return [*texts, (CURRENT, comparison.current.soul), (NEXT, comparison.upcoming.soul)]


@dataclass(frozen=True)
class FindOutcome:
    """One search: the query as typed, its matches (None: nothing can match), the one to show and its number."""

    typed: str
    found: Found | None
    hit: Hit | None
    ordinal: int

    @property
    def words(self) -> str:
        """``3 of 17``, ``no matches``, or nothing for an empty query."""
        if self.found is None:
            return ""
        if self.hit is None:
            return "no matches"
        return f"{self.ordinal:,} of {self.found.count:,}"


class Finder:
    """Searches a home's texts; keeps them prepared (markers drawn, case folded) while they stay the same objects."""

    def __init__(self) -> None:
        self._prepared: tuple[Searchable, ...] = ()

    def search(self, state: HomeState, typed: str, near: tuple[str, int]) -> FindOutcome:
        """The matches of ``typed``, and the first at or after ``near`` (a place and an offset in its text).

        An empty ``typed`` only prepares the texts: the bar does that as it opens, before the first key.
        """
        self._prepared = prepare(find_texts(state), self._prepared)
        found = find(self._prepared, typed)
        hit = found.at_or_after(*near) if found is not None else None
        return FindOutcome(typed, found, hit, found.ordinal(hit) if found is not None and hit is not None else 0)
