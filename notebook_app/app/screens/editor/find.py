"""The built-in editor's find bar: ``ctrl+f`` finds in the buffer as it is now, ``ctrl+g`` goes to a line.

:class:`BufferFind` is a controller the editor screen holds: it owns the
finder, where the bar stands (:class:`~...view_model.finding.FindSteps`) and the worker
that counts; the find bar's messages reach it through the screen's
:class:`~...widgets.find.find_bar.FindRow`. Each keystroke asks
a worker (the latest query wins) to count the matches in the
buffer's text, unsaved edits included, from the cursor on; the event loop only
selects the match shown. The text handed over is the buffer's own (joined once
per edit on a large file, whatever its line endings), so the worker prepares
it once per edit, not once per keystroke.
"""

from __future__ import annotations

from collections.abc import Callable

from textual.screen import Screen
from textual.widgets import TextArea
from textual.widgets.text_area import Selection

from notebook_app.app.view_model.finding import Finder, FindOutcome, FindSteps, past_the_end
from notebook_app.app.widgets.editor.buffer import CachedText
from notebook_app.app.widgets.find.find_bar import FindBar
from notebook_app.app.workers import LatestWins
from notebook_app.core.home.search import offset_at

SCOPE = "text in this file, unsaved edits too (a capital: exact case; → ∙ ⇆ … find hidden characters)"
"""What the editor's find bar says it searches."""


class BufferFind:
    """``ctrl+f`` and ``ctrl+g`` over the buffer of ``screen`` editing ``name``.

    ``select_span(line, start, end)`` selects a match and ``go_to_line(line)`` moves the cursor (lines from 1).
    """

    def __init__(
        self,
        screen: Screen,
        name: str,
        *,
        select_span: Callable[[int, int, int], None],
        go_to_line: Callable[[int], None],
    ) -> None:
        self._screen = screen
        self.file_name = name
        self._select_span = select_span
        self._go_to_line = go_to_line
        self.finder = Finder()
        self._finds = LatestWins(screen, "editor-find", self._search_buffer, done=self._found, failed=self._failed)
        self.steps = FindSteps()
        self._edits = 0
        """Counts the buffer's edits: an outcome for an older text is stale."""

    @property
    def bar(self) -> FindBar:
        return self._screen.query_one(FindBar)

    @property
    def is_open(self) -> bool:
        return self.bar.is_open

    @property
    def _area(self) -> TextArea:
        return self._screen.query_one("#editor-text", TextArea)

    def open_find(self) -> None:
        """Open the find bar (again: back into it), searching what it holds from the match still selected, else the
        cursor.
        """
        self.bar.open("find")
        self.search()

    def open_line(self) -> None:
        self.bar.open("line", note=f"{self.file_name}: 1–{self._area.document.line_count:,}")

    def _buffer_text(self) -> str:
        """The buffer's text with ``\\n`` line ends, as find counts lines.

        A plain document (every large file) keeps it joined until the next
        edit, LF or CRLF alike, so the finder's prepared text is reused; a
        small highlighted one is joined each time.
        """
        document = self._area.document
        if isinstance(document, CachedText):
            return document.lf_text
        return document.text if document.newline == "\n" else "\n".join(document.lines)

    def search(self) -> None:
        typed = self.bar.typed
        if not typed:
            self.steps.clear()
            self.bar.show_count("")
        cursor = (self.file_name, -1)
        near = self.steps.near(cursor) if self._match_selected() else cursor
        self._finds.request(self._buffer_text(), typed, near, self._area.cursor_location, self._edits)

    def _match_selected(self) -> bool:
        """The match shown is still what the buffer selects: the cursor has not moved away from it (a click, go to
        line).
        """
        hit = self.steps.hit
        return hit is not None and self._area.selection == Selection((hit.line, hit.start), (hit.line, hit.end))

    def _search_buffer(
        self, text: str, typed: str, near: tuple[str, int], cursor: tuple[int, int], edits: int
    ) -> tuple[FindOutcome, int]:
        """In the worker: the matches of ``typed``, the first at or after the match shown (none shown: the cursor)."""
        place, offset = near
        if offset < 0:
            offset = offset_at(text, *cursor)
        return self.finder.search_texts([(self.file_name, text)], typed, (place, offset)), edits

    def _found(self, answer: tuple[FindOutcome, int]) -> None:
        outcome, edits = answer
        if not self.is_open or edits != self._edits or not self.steps.accept(outcome, self.bar.typed):
            return  # stale: the bar closed, the buffer changed, or a newer query is on its way
        self._show_match()

    def _failed(self, words: str) -> None:
        self.bar.show_count(f"find failed: {words}", missing=True)

    def _show_match(self) -> None:
        """Select the match shown in the buffer, scrolled into view, and say the count."""
        hit = self.steps.hit
        if hit is not None:
            self._select_span(hit.line + 1, hit.start, hit.end)
        words = self.steps.words(self.bar.typed)
        self.bar.show_count(words, missing=words == "no matches")

    def buffer_edited(self) -> None:
        """The count no longer answers the text: forget it; the next key in the bar counts again from the cursor."""
        self._edits += 1
        if self.steps.outcome is not None:
            self.steps.clear()
            self.bar.show_count("")

    def close(self) -> None:
        """Hide the bar; back in the buffer, the match shown still selected."""
        self.bar.close()
        self._area.focus()

    def step(self, step: int) -> None:
        if self.steps.outcome is None:
            self.search()  # the buffer changed since the count: count again from the cursor
        elif self.steps.step(self.bar.typed, step) is not None:
            self._show_match()

    def go_to_line(self, line: int) -> None:
        self.close()
        self._go_to_line(line)
        last = self._area.document.line_count
        if line > last:
            self._screen.notify(past_the_end(line, last), markup=False)
