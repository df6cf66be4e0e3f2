"""The built-in editor's find bar: ``ctrl+f`` finds in the buffer as it is now, ``ctrl+g`` goes to a line.

A part of :class:`~.editor.EditorScreen` in its own module, with the
notebook's find bar and find state (:class:`~..finding.FindSteps`). Each
keystroke asks a worker (the latest query wins) to count the matches in the
buffer's text, unsaved edits included, from the cursor on; the event loop only
selects the match shown. The text handed over is the buffer's own (joined once
per edit on a large file, whatever its line endings), so the worker prepares
it once per edit, not once per keystroke.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from textual.widgets.text_area import Selection

from ...core.home import offset_at
from ..finding import Finder, FindOutcome, FindSteps, past_the_end
from ..widgets.editor.buffer import CachedText
from ..widgets.find.find_bar import FindBar
from ..workers import LatestWins

if TYPE_CHECKING:
    from .editor import EditorScreen

SCOPE = "text in this file, unsaved edits too (a capital: exact case; → ∙ ⇆ … find hidden characters)"
"""What the editor's find bar says it searches."""


class EditorFind:
    """Mixed into EditorScreen. Handlers are named ``on_…``: Textual's ``@on`` registers only in classes it builds."""

    def _init_find(self: EditorScreen) -> None:
        self._finder = Finder()
        self._finds = LatestWins(self, "editor-find", self._search_buffer, done=self._found, failed=self._find_failed)
        self.find_steps = FindSteps()
        self._edits = 0
        """Counts the buffer's edits: an outcome for an older text is stale."""

    @property
    def find_bar(self: EditorScreen) -> FindBar:
        return self.query_one(FindBar)

    @property
    def finding(self: EditorScreen) -> bool:
        return self.find_bar.is_open

    def action_find(self: EditorScreen) -> None:
        """ctrl+f: open the find bar (again: back into it), searching
        what it holds from the match still selected, else the cursor."""
        self.find_bar.open("find")
        self._search()

    def action_go_to_line(self: EditorScreen) -> None:
        self.find_bar.open("line", note=f"{self.file_name}: 1–{self.text_area.document.line_count:,}")

    def _buffer_text(self: EditorScreen) -> str:
        """The buffer's text with ``\\n`` line ends, as find counts lines.

        A plain document (every large file) keeps it joined until the next
        edit, LF or CRLF alike, so the finder's prepared text is reused; a
        small highlighted one is joined each time.
        """
        document = self.text_area.document
        if isinstance(document, CachedText):
            return document.lf_text
        return document.text if document.newline == "\n" else "\n".join(document.lines)

    def _search(self: EditorScreen) -> None:
        typed = self.find_bar.typed
        if not typed:
            self.find_steps.clear()
            self.find_bar.show_count("")
        cursor = (self.file_name, -1)
        near = self.find_steps.near(cursor) if self._match_selected() else cursor
        self._finds.request(self._buffer_text(), typed, near, self.text_area.cursor_location, self._edits)

    def _match_selected(self: EditorScreen) -> bool:
        """The match shown is still what the buffer selects: the
        cursor has not moved away from it (a click, go to line)."""
        hit = self.find_steps.hit
        return hit is not None and self.text_area.selection == Selection((hit.line, hit.start), (hit.line, hit.end))

    def _search_buffer(self: EditorScreen, text: str, typed: str, near: tuple[str, int], cursor: tuple[int, int], edits: int) -> tuple[FindOutcome, int]:
        """In the worker: the matches of ``typed``, the first at or after the match shown (none shown: the cursor)."""
        place, offset = near
        if offset < 0:
            offset = offset_at(text, *cursor)
        return self._finder.search_texts([(self.file_name, text)], typed, (place, offset)), edits

    def _found(self: EditorScreen, answer: tuple[FindOutcome, int]) -> None:
        outcome, edits = answer
        if not self.finding or edits != self._edits or not self.find_steps.accept(outcome, self.find_bar.typed):
            return  # stale: the bar closed, the buffer changed, or a newer query is on its way
        self._show_match()

    def _find_failed(self: EditorScreen, words: str) -> None:
        self.find_bar.show_count(f"find failed: {words}", missing=True)

    def _show_match(self: EditorScreen) -> None:
        """Select the match shown in the buffer, scrolled into view, and say the count."""
        hit = self.find_steps.hit
        if hit is not None:
            self.select_span(hit.line + 1, hit.start, hit.end)
        words = self.find_steps.words(self.find_bar.typed)
        self.find_bar.show_count(words, missing=words == "no matches")

    def _buffer_edited(self: EditorScreen) -> None:
        """The count no longer answers the text: forget it; the next key in the bar counts again from the cursor."""
        self._edits += 1
        if self.find_steps.outcome is not None:
            self.find_steps.clear()
            self.find_bar.show_count("")

    def _close_find(self: EditorScreen) -> None:
        """Hide the bar; back in the buffer, the match shown still selected."""
        self.find_bar.close()
        self.text_area.focus()

    def on_find_bar_changed(self: EditorScreen, event: FindBar.Changed) -> None:
        self._search()

    def on_find_bar_stepped(self: EditorScreen, event: FindBar.Stepped) -> None:
        if self.find_steps.outcome is None:
            self._search()  # the buffer changed since the count: count again from the cursor
        elif self.find_steps.step(self.find_bar.typed, event.step) is not None:
            self._show_match()

    def on_find_bar_line_chosen(self: EditorScreen, event: FindBar.LineChosen) -> None:
        self._close_find()
        self.go_to_line(event.line)
        last = self.text_area.document.line_count
        if event.line > last:
            self.notify(past_the_end(event.line, last), markup=False)

    def on_find_bar_closed(self: EditorScreen, event: FindBar.Closed) -> None:
        self._close_find()
