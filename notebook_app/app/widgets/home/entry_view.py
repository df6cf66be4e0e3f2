"""A file's lines with a cursor over its entries, for USER.md and MEMORY.md."""

from __future__ import annotations

from rich.style import Style
from textual import events
from textual.message import Message

from notebook_app.app.keys import MOVING_KEYS, bindings
from notebook_app.app.view_model.documents import Document
from notebook_app.app.widgets.common.line_view import LineView

ENTRY_PREFIX = "- "
"""How the memory tool writes an entry; pre-filled text leaves it out."""


def entry_text(line: str) -> str:
    """The text to find for an entry: the line without its bullet."""
    line = line.rstrip("\r")
    return line[len(ENTRY_PREFIX) :] if line.startswith(ENTRY_PREFIX) else line


SEPARATOR_LINE = "§"
"""The line between two of Hermes's entries; never an entry itself."""


def entry_at_line(lines: list[str], index: int) -> tuple[int, str] | None:
    """The ``§`` entry line ``index`` is part of: (its number from 1, its stripped text), or None on a separator.

    Entries are counted as Hermes counts them (``MemoryStore._read_file``):
    text between lines holding only ``§``, stripped, blank ones skipped.
    """
    if lines[index].strip() == SEPARATOR_LINE:
        return None
    number, start = 0, 0
    for at in range(len(lines) + 1):
        if at == len(lines) or lines[at] == SEPARATOR_LINE:
            text = "\n".join(lines[start:at]).strip()
            if text:
                number += 1
            if start <= index < at:
                return (number, text) if text else None
            start = at + 1
    return None


class RowsChanged(Message):
    """A file pane's rows changed (re-wrapped lines, a summary, a fold): the column fits its panes again."""


class EntryView(LineView):
    """Lines of a live file; when ``entries`` is on, a cursor selects one entry."""

    BINDINGS = bindings(MOVING_KEYS)

    def __init__(self, **kwargs) -> None:
        super().__init__(numbers=True, **kwargs)
        self.entries = False
        self.cursor: int | None = None
        """The selected line, None until the person picks one."""
        self.sections = False
        """The file's entries are Hermes's ``§`` entries: a line selects the entry it is part of."""

    @property
    def selected_entry(self) -> str | None:
        document = self.visible_document
        if not self.entries or self.cursor is None or self.cursor >= len(document.lines):
            return None
        if self.sections:
            found = self._section()
            return None if found is None else found[1]
        return entry_text(document.text_of(self.cursor)) or None

    @property
    def selected_line(self) -> tuple[int, str] | None:
        """(line number from 1, the line's exact text without its line ending) of the selection;
        in a ``§`` store (entry number from 1, the entry's whole text)."""
        document = self.visible_document
        if not self.entries or self.cursor is None or self.cursor >= len(document.lines):
            return None
        if self.sections:
            return self._section()
        return self.cursor + 1, document.text_of(self.cursor).removesuffix("\r")

    def _section(self) -> tuple[int, str] | None:
        """The ``§`` entry the cursor's line is part of: its number and whole text, as Hermes parses the file."""
        assert self.cursor is not None
        document = self.visible_document
        lines = [document.text_of(i).removesuffix("\r") for i in range(len(document.lines))]
        return entry_at_line(lines, self.cursor)

    def show_file(self, document: Document, *, entries: bool, sections: bool = False) -> None:
        """Show a file; keep the cursor on the same entry when it is still there."""
        keep = self.selected_entry if entries and self.entries and not self.sections else None
        old_cursor = self.cursor
        self.entries = entries
        self.sections = sections
        self.cursor = None
        self.show(document)
        if keep is not None and old_cursor is not None:
            self.cursor = self._find_near(document, keep, old_cursor)

    def _find_near(self, document: Document, text: str, around: int) -> int | None:
        lines = document.lines
        for distance in range(0, 200):
            for index in (around - distance, around + distance):
                if 0 <= index < len(lines) and entry_text(document.text_of(index)) == text:
                    return index
        return min(around, len(lines) - 1) if lines else None

    def _selectable(self, index: int) -> bool:
        line = self.visible_document.lines[index].strip()
        return bool(line) and not (self.sections and line == SEPARATOR_LINE)

    def _step(self, start: int, step: int) -> int | None:
        lines = self.visible_document.lines
        index = start
        while 0 <= index < len(lines):
            if self._selectable(index):
                return index
            index += step
        return None

    def select_line(self, index: int) -> None:
        """Put the cursor on line ``index`` (0-based) and scroll it into view (the doctor's jump)."""
        if self.entries and 0 <= index < len(self.visible_document.lines):
            self._move_to(index)
        else:
            self.reveal_line(index)

    def _move_to(self, index: int | None) -> None:
        if index is None:
            return
        self.cursor = index
        self.reveal_line(index, context=0)
        self.refresh()

    def _first_visible_line(self) -> int:
        rows = self._rows
        row = min(self.scroll_offset.y, len(rows) - 1)
        return rows.line[row] if row >= 0 else 0

    def action_cursor(self, step: int) -> None:
        if not self.entries or not self.visible_document.lines:
            self.scroll_to(y=self.scroll_offset.y + step, animate=False)
            return
        if self.cursor is None:
            self._move_to(self._step(self._first_visible_line(), 1))
        else:
            found = self._step(self.cursor + step, step)
            self._move_to(self.cursor if found is None else found)

    def action_page(self, direction: int) -> None:
        height = max(1, self.scrollable_content_region.height - 1)
        if not self.entries or self.cursor is None:
            self.scroll_to(y=self.scroll_offset.y + direction * height, animate=False)
            return
        rows = self._rows
        row = max(0, min(len(rows) - 1, rows.first_row_of(self.cursor) + direction * height))
        found = self._step(rows.line[row], direction)
        self._move_to(self._step(rows.line[row], -direction) if found is None else found)

    def action_edge(self, direction: int) -> None:
        lines = self.visible_document.lines
        if not self.entries or not lines:
            self.scroll_to(y=0 if direction < 0 else self.max_scroll_y, animate=False)
            return
        self._move_to(self._step(0, 1) if direction < 0 else self._step(len(lines) - 1, -1))

    def on_click(self, event: events.Click) -> None:
        if not self.entries:
            return
        row = self.scroll_offset.y + event.y
        if 0 <= row < len(self._rows) and self._selectable(self._rows.line[row]):
            self._move_to(self._rows.line[row])

    def rows_changed(self) -> None:
        if self.cursor is not None and self.cursor >= len(self.visible_document.lines):
            self.cursor = None
        self.post_message(RowsChanged())

    def row_style(self, line: int, mark: str | None) -> Style:
        style = super().row_style(line, mark)
        if self.entries and line == self.cursor:
            return style + self.get_component_rich_style(
                "line-view--cursor-focused" if self.has_focus else "line-view--cursor"
            )
        return style

    def focus_moved(self) -> None:
        """Repaint the cursor's rows, in the focused or the resting cursor style."""
        if self.entries and self.cursor is not None and self.cursor < len(self.visible_document.lines):
            rows = self._rows
            row = rows.first_row_of(self.cursor)
            while row < len(rows) and rows.line[row] == self.cursor:
                self.refresh_line(row)
                row += 1
