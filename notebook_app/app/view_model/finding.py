"""Find in the app: which texts a find bar searches, kept prepared, and where it stands between keystrokes. No Textual.

The notebook's places are the bootstrap files in load order (as the Home
column shows them) and then both souls (as the session panes show them); the
built-in editor's one place is its buffer. The core
(:mod:`notebook_app.core.find`) does the matching. A :class:`Finder` runs in
a worker, one search at a time (the latest query wins), so the event loop only
paints; :class:`FindSteps` is what every screen with a find bar keeps of the
answer: the count, the match shown, the next and the previous one.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING

from notebook_app.app.view_model.notebook import HomeState
from notebook_app.core.home.soul import BOOTSTRAP_ORDER

if TYPE_CHECKING:
    from notebook_app.core.home.search import Found, Hit, Query, Searchable

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
        """The matches of ``typed`` in the home, and the first at
        or after ``near`` (a place and an offset in its text)."""
        return self.search_texts(find_texts(state), typed, near)

    def search_texts(self, texts: Sequence[tuple[str, str]], typed: str, near: tuple[str, int]) -> FindOutcome:
        """The matches of ``typed`` in ``(place, text)`` pairs, and the first at or after ``near``.

        An empty ``typed`` only prepares the texts: the bar does that as it opens, before the first key.
        """
        from notebook_app.core.home.search import find, prepare  # lazy: the matcher, at the first search

        self._prepared = prepare(texts, self._prepared)
        found = find(self._prepared, typed)
        hit = found.at_or_after(*near) if found is not None else None
        return FindOutcome(typed, found, hit, found.ordinal(hit) if found is not None and hit is not None else 0)


class FindSteps:
    """Where a find bar stands: the latest outcome that answers what it holds, and the match shown.

    Outcomes arrive from a worker after the query may have changed again: one
    for another query is stale and ignored. Stepping moves among the matches
    counted without searching again.
    """

    def __init__(self) -> None:
        self.outcome: FindOutcome | None = None

    @property
    def hit(self) -> Hit | None:
        """The match shown: the outcome's, so the two can never disagree."""
        return self.outcome.hit if self.outcome is not None else None

    def clear(self) -> None:
        self.outcome = None

    def near(self, start: tuple[str, int]) -> tuple[str, int]:
        """Where the next search looks from: the match shown (a longer query stays on it), else ``start``."""
        hit = self.hit
        return (hit.place, hit.offset) if hit is not None else start

    def accept(self, outcome: FindOutcome, typed: str) -> bool:
        """Take ``outcome`` as the answer, its first match as the one
        shown; False (nothing taken) when it answers another query."""
        if outcome.typed != typed:
            return False
        self.outcome = outcome
        return True

    def step(self, typed: str, step: int) -> Hit | None:
        """Show the next (``step`` 1) or previous (-1) match, wrapping round; None when there is none for ``typed``."""
        outcome, hit = self.outcome, self.hit
        if outcome is None or outcome.found is None or hit is None or outcome.typed != typed:
            return None
        found = outcome.found
        moved = found.next(hit) if step > 0 else found.previous(hit)
        if moved is not None:
            self.outcome = FindOutcome(typed, found, moved, found.ordinal(moved))
        return moved

    def words(self, typed: str) -> str:
        """The count for ``typed`` (``3 of 17``, ``no matches``), empty until its outcome has arrived."""
        outcome = self.outcome
        return outcome.words if outcome is not None and outcome.typed == typed else ""

    def query(self) -> Query | None:
        """The query whose matches are counted, for views that highlight the rows they draw."""
        outcome = self.outcome
        return outcome.found.query if outcome is not None and outcome.found is not None else None


def past_the_end(line: int, last: int) -> str:
    """What go to line says when asked for a line the file does not have, rather than clamping silently."""
    if last == 0:
        return f"there is no line {line}: the file is empty"
    return f"there is no line {line}: the file has {last:,} line{'s' if last != 1 else ''}; showing line {last:,}"
