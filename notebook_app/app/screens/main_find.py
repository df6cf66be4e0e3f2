"""The notebook's find bar: find across the home as you type, step through matches, go to a line.

A part of :class:`~.main.MainScreen` in its own module. Each keystroke asks a
worker (:class:`~..workers.LatestWins`, the latest query wins) to count the
matches; the event loop only paints: the count, and each pane asking the
query for the spans of the rows it draws.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from textual import events

from ..finding import SESSION_PLACES, Finder, FindOutcome, FindSteps, past_the_end, place_label
from ..widgets.find.find_bar import FindBar
from ..widgets.home.home_pane import HomePane
from ..widgets.session.session_pane import SessionPane
from ..workers import LatestWins

if TYPE_CHECKING:
    from ...core.home import Hit
    from .main import MainScreen


class NotebookFind:
    """Mixed into MainScreen: ``/`` find, ``ctrl+g`` go to line, the selected file they act on.

    Handlers are named ``on_…``: Textual's ``@on`` registers only in classes it builds, not in a mixin.
    """

    def _init_find(self: MainScreen) -> None:
        self._finder = Finder()
        self._finds = LatestWins(self, "find", self._finder.search, done=self._found, failed=self._find_failed)
        self.find_steps = FindSteps()
        self._selected_place = "MEMORY.md"
        """The file (or session pane) go to line acts on: the view last focused, or the match last shown."""

    @property
    def find_bar(self: MainScreen) -> FindBar:
        return self.query_one(FindBar)

    @property
    def finding(self: MainScreen) -> bool:
        return self.find_bar.is_open

    def action_find(self: MainScreen) -> None:
        """/: open the find bar (again: back into it), searching what it still holds."""
        self.find_bar.open("find")
        self._search()

    def action_go_to_line(self: MainScreen) -> None:
        place = self._selected_place
        self.find_bar.open("line", note=f"{place_label(place)}: 1–{self._lines_in(place):,}")
        self._paint_matches()

    def _lines_in(self: MainScreen, place: str) -> int:
        if place in SESSION_PLACES:
            return self.query_one(f"#{place}", SessionPane).line_count
        return self.query_one(HomePane).lines_in(place)

    def _search(self: MainScreen) -> None:
        """Ask the worker for the matches of what is typed, from the match shown (or the selected file's top)."""
        typed = self.find_bar.typed
        if self.state is None or not typed:
            self.find_steps.clear()
            self._paint_matches()
            if self.state is not None:
                self._finds.request(self.state, "", (self._selected_place, 0))  # prepare the texts before the first key
            return
        self._finds.request(self.state, typed, self.find_steps.near((self._selected_place, 0)))

    def _refind(self: MainScreen) -> None:
        """A new state of the home was read: count again while find is open."""
        if self.finding and self.find_bar.mode == "find":
            self._search()

    def _found(self: MainScreen, outcome: FindOutcome) -> None:
        shown = self.find_steps.hit
        if not self.finding or not self.find_steps.accept(outcome, self.find_bar.typed):
            return  # stale: the bar closed, or a newer query is on its way
        self._go_to(shown)

    def _find_failed(self: MainScreen, words: str) -> None:
        self.find_bar.show_count(f"find failed: {words}", missing=True)

    def _go_to(self: MainScreen, shown: Hit | None) -> None:
        """Show the match found (``shown`` was the one before): its file
        picked in the Home column, or its session pane, scrolled to its line."""
        hit = self.find_steps.hit
        if hit is not None:
            self._selected_place = hit.place
            if shown is None or (shown.place, shown.line) != (hit.place, hit.line):
                self._show_line(hit.place, hit.line, focus=False)  # a longer query on the same line: nothing moves
        self._paint_matches()

    def _show_line(self: MainScreen, place: str, line: int, *, focus: bool) -> None:
        if place in SESSION_PLACES:
            self.activate(place)
            pane = self.query_one(f"#{place}", SessionPane)
            self.call_after_refresh(pane.reveal_line, line)  # narrow: the pane has only just been shown
            if focus:
                pane.focus_view()
        else:
            self.activate("home")
            self.query_one(HomePane).pick(place, line + 1, focus=focus)

    def _paint_matches(self: MainScreen) -> None:
        hit, query = self.find_steps.hit, self.find_steps.query()
        finding = self.finding and self.find_bar.mode == "find"
        spans = query.spans if finding and query is not None else None
        current = (hit.line, hit.start, hit.end) if hit is not None and spans is not None else None
        place = hit.place if hit is not None else None
        self.query_one(HomePane).show_matches(spans, place, current)
        for side in SESSION_PLACES:
            self.query_one(f"#{side}", SessionPane).show_matches(spans, current if place == side else None)
        if finding:
            words = self.find_steps.words(self.find_bar.typed)
            self.find_bar.show_count(words, missing=words == "no matches")

    def _close_find(self: MainScreen, *, refocus: bool = True) -> None:
        """Hide the bar and its highlights; back in the selected file (not when a form opens instead)."""
        if not self.finding:
            return
        self.find_bar.close()
        self._paint_matches()
        if refocus:
            self.focus_place(self._selected_place)

    def focus_place(self: MainScreen, place: str) -> None:
        if place in SESSION_PLACES:
            self.query_one(f"#{place}", SessionPane).focus_view()
        else:
            self.query_one(HomePane).pick(place)

    def on_find_bar_changed(self: MainScreen, event: FindBar.Changed) -> None:
        self._search()

    def on_find_bar_stepped(self: MainScreen, event: FindBar.Stepped) -> None:
        shown = self.find_steps.hit
        if self.find_steps.step(self.find_bar.typed, event.step) is not None:
            self._go_to(shown)

    def on_find_bar_line_chosen(self: MainScreen, event: FindBar.LineChosen) -> None:
        place = self._selected_place
        last = self._lines_in(place)
        self.find_bar.close()
        if last:
            self._show_line(place, min(max(1, event.line), last) - 1, focus=True)
        if event.line > last:
            self.notify(past_the_end(event.line, last), markup=False)

    def on_find_bar_closed(self: MainScreen, event: FindBar.Closed) -> None:
        self._close_find()

    def on_descendant_focus(self: MainScreen, event: events.DescendantFocus) -> None:
        """The view a person moves into is the selected file go to line acts on."""
        widget = event.widget
        place = self.query_one(HomePane).file_of(widget)
        if place is None:
            place = next((side for side in SESSION_PLACES if self.query_one(f"#{side}", SessionPane).holds(widget)), None)
        if place is not None:
            self._selected_place = place
