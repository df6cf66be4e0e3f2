"""The notebook's find: find across the home as you type, step through matches, go to a line.

:class:`HomeFind` is a controller the main screen holds: it owns the finder,
where the bar stands (:class:`~...view_model.finding.FindSteps`), the worker that counts
(:class:`~...workers.LatestWins`, the latest query wins) and the place go to
line acts on. The find bar's messages reach it through the screen's
:class:`~...widgets.find.find_bar.FindRow`; the event loop
only paints: the count, and each pane asking the query for the spans of the
rows it draws.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING

from textual.screen import Screen
from textual.widget import Widget

from notebook_app.app.view_model.finding import (
    SESSION_PLACES,
    Finder,
    FindOutcome,
    FindSteps,
    past_the_end,
    place_label,
)
from notebook_app.app.view_model.notebook import HomeState
from notebook_app.app.widgets.find.find_bar import FindBar
from notebook_app.app.widgets.home.home_pane import HomePane
from notebook_app.app.widgets.session.session_pane import SessionPane
from notebook_app.app.workers import LatestWins

if TYPE_CHECKING:
    from notebook_app.core.home.search import Hit


class HomeFind:
    """``/`` find and ``ctrl+g`` go to line over the home's files and both sessions, on ``screen``'s panes.

    ``state`` gives the home state searched; ``show_pane`` brings a pane to the front at narrow widths.
    """

    def __init__(
        self, screen: Screen, *, state: Callable[[], HomeState | None], show_pane: Callable[[str], None]
    ) -> None:
        self._screen = screen
        self._state = state
        self._show_pane = show_pane
        self.finder = Finder()
        self.steps = FindSteps()
        self._finds = LatestWins(screen, "find", self.finder.search, done=self._found, failed=self._failed)
        self.selected_place = "MEMORY.md"
        """The file (or session pane) go to line acts on: the view last focused, or the match last shown."""

    @property
    def bar(self) -> FindBar:
        return self._screen.query_one(FindBar)

    @property
    def is_open(self) -> bool:
        return self.bar.is_open

    def open_find(self) -> None:
        """Open the find bar (again: back into it), searching what it still holds."""
        self.bar.open("find")
        self.search()

    def open_line(self) -> None:
        """Open the bar asking for a line of the selected place."""
        place = self.selected_place
        self.bar.open("line", note=f"{place_label(place)}: 1–{self._lines_in(place):,}")
        self._paint_matches()

    def _lines_in(self, place: str) -> int:
        if place in SESSION_PLACES:
            return self._screen.query_one(f"#{place}", SessionPane).line_count
        return self._screen.query_one(HomePane).lines_in(place)

    def search(self) -> None:
        """Ask the worker for the matches of what is typed, from the match shown (or the selected file's top)."""
        typed = self.bar.typed
        state = self._state()
        if state is None or not typed:
            self.steps.clear()
            self._paint_matches()
            if state is not None:
                self._finds.request(state, "", (self.selected_place, 0))  # prepare the texts before the first key
            return
        self._finds.request(state, typed, self.steps.near((self.selected_place, 0)))

    def refind(self) -> None:
        """A new state of the home was read: count again while find is open."""
        if self.is_open and self.bar.mode == "find":
            self.search()

    def _found(self, outcome: FindOutcome) -> None:
        shown = self.steps.hit
        if not self.is_open or not self.steps.accept(outcome, self.bar.typed):
            return  # stale: the bar closed, or a newer query is on its way
        self._go_to(shown)

    def _failed(self, words: str) -> None:
        self.bar.show_count(f"find failed: {words}", missing=True)

    def step(self, step: int) -> None:
        """The next (1) or previous (-1) match among those counted."""
        shown = self.steps.hit
        if self.steps.step(self.bar.typed, step) is not None:
            self._go_to(shown)

    def go_to_line(self, line: int) -> None:
        """The line chosen (from 1) in the selected place, clamped to it and said when it is past the end."""
        place = self.selected_place
        last = self._lines_in(place)
        self.bar.close()
        if last:
            self._show_line(place, min(max(1, line), last) - 1, focus=True)
        if line > last:
            self._screen.notify(past_the_end(line, last), markup=False)

    def _go_to(self, shown: Hit | None) -> None:
        """Show the match found (``shown`` was the one before): its file picked in the Home column, or its session pane,
        scrolled to its line.
        """
        hit = self.steps.hit
        if hit is not None:
            self.selected_place = hit.place
            if shown is None or (shown.place, shown.line) != (hit.place, hit.line):
                self._show_line(hit.place, hit.line, focus=False)  # a longer query on the same line: nothing moves
        self._paint_matches()

    def _show_line(self, place: str, line: int, *, focus: bool) -> None:
        if place in SESSION_PLACES:
            self._show_pane(place)
            pane = self._screen.query_one(f"#{place}", SessionPane)
            self._screen.call_after_refresh(pane.reveal_line, line)  # narrow: the pane has only just been shown
            if focus:
                pane.focus_view()
        else:
            self._show_pane("home")
            self._screen.query_one(HomePane).pick(place, line + 1, focus=focus)

    def _paint_matches(self) -> None:
        hit, query = self.steps.hit, self.steps.query()
        finding = self.is_open and self.bar.mode == "find"
        spans = query.spans if finding and query is not None else None
        current = (hit.line, hit.start, hit.end) if hit is not None and spans is not None else None
        place = hit.place if hit is not None else None
        self._screen.query_one(HomePane).show_matches(spans, place, current)
        for side in SESSION_PLACES:
            self._screen.query_one(f"#{side}", SessionPane).show_matches(spans, current if place == side else None)
        if finding:
            words = self.steps.words(self.bar.typed)
            self.bar.show_count(words, missing=words == "no matches")

    def close(self, *, refocus: bool = True) -> None:
        """Hide the bar and its highlights; back in the selected file (not when a form opens instead)."""
        if not self.is_open:
            return
        self.bar.close()
        self._paint_matches()
        if refocus:
            self._focus_place(self.selected_place)

    def _focus_place(self, place: str) -> None:
        if place in SESSION_PLACES:
            self._screen.query_one(f"#{place}", SessionPane).focus_view()
        else:
            self._screen.query_one(HomePane).pick(place)

    def focus_moved(self, widget: Widget) -> None:
        """The view a person moves into is the selected file go to line acts on."""
        place = self._screen.query_one(HomePane).file_of(widget)
        if place is None:
            place = next(
                (side for side in SESSION_PLACES if self._screen.query_one(f"#{side}", SessionPane).holds(widget)), None
            )
        if place is not None:
            self.selected_place = place
