"""A virtual, wrapping view of a document: renders only the rows on screen.

A 2 MiB MEMORY.md is about 70k lines; building a widget per line would stall
the app, so this is a Line API ``ScrollView`` like Toolong's log view. Long
lines wrap at word boundaries; wrapping a large document runs in a worker and
the old rows stay on screen until the new ones are ready.
"""

from __future__ import annotations

from collections.abc import Callable, Collection, Mapping, Sequence
from pathlib import Path

from rich.cells import cell_len
from rich.segment import Segment
from rich.style import Style
from textual import work
from textual.geometry import Region
from textual.strip import Strip
from textual.worker import get_current_worker

from notebook_app.app.view_model.documents import EMPTY, Document, Mark
from notebook_app.app.view_model.failures import failure_words
from notebook_app.app.view_model.wrapping import BANNER, Rows, common_lines, hanging_indent, wrap_rows
from notebook_app.app.widgets.common.row_segments import highlighted, with_markers
from notebook_app.app.widgets.common.row_view import RowKeys, RowView

TCSS = Path(__file__).with_suffix(".tcss")

TRIM_AFTER = 0.25
"""Seconds the scrollable height is held after the form closes: past the frames that show its result."""

SIGNS = {Mark.ADDED: "+", Mark.REMOVED: "-", Mark.NOTICE: "!", Mark.CONFLICT: "≠"}


def fit(segments: list[Segment], width: int, style: Style) -> Strip:
    """``segments`` as one row of exactly ``width`` cells, padded with ``style``.

    Wrapped rows already fit, so padding is enough: one Strip per row instead
    of two (Strip.crop_extend makes a second), and each Strip costs seven caches.
    """
    cells = sum(cell_len(segment.text) for segment in segments)
    if cells > width:
        return Strip(segments).crop_extend(0, width, style)
    if cells < width:
        segments.append(Segment(" " * (width - cells), style))
    return Strip(segments, width)


class LineView(RowView, can_focus=True):
    """Shows a :class:`Document`; marks become row styles, banners extra rows."""

    COMPONENT_CLASSES = {
        "line-view--gutter",
        "line-view--heading",
        "line-view--added",
        "line-view--removed",
        "line-view--notice",
        "line-view--conflict",
        "line-view--banner",
        "line-view--cursor",
        "line-view--cursor-focused",
        "line-view--placeholder",
        "line-view--match",
        "line-view--match-current",
        "line-view--hidden",
        "line-view--flag-error",
        "line-view--flag-warning",
        "line-view--flag-info",
    }

    SYNC_WRAP_LINES = 2_000
    """Up to this many new lines wrap at once (a small file, or an append to a large one); more in a worker."""

    def __init__(self, *, numbers: bool = False, signs: bool = False, placeholder: str = "", **kwargs) -> None:
        super().__init__(**kwargs)
        self._numbers = numbers
        self._signs = signs
        self.placeholder = placeholder
        self._document: Document = EMPTY
        self._visible: Document = EMPTY
        """The document drawn now; ``_rows`` were wrapped from its lines."""
        self._rows: Rows = wrap_rows((), 1)
        self._base_style = Style()
        self._paint_width = 0
        self._notes: Mapping[int, str] = {}
        """Line index -> a short label drawn before the number (blame: who last wrote it)."""
        self._note_width = 0
        self._flags: Mapping[int, str] = {}
        """Line index -> the worst finding's severity there (error, warning, info): a gutter mark."""
        self._reveal: tuple[int, int] | None = None
        """A line (and its context) to scroll into view once the rows showing it are ready and on screen."""
        self._matches: Callable[[str], Sequence[tuple[int, int]]] | None = None
        """A shown line -> the column spans find highlights in it; asked only for the rows drawn."""
        self._current_match: tuple[int, int, int] | None = None
        """(line, start, end) of the match find is on, drawn apart from the others."""
        self._inset = 0
        """Rows at the bottom that something lies over (the open form): revealed lines stay above them."""
        self._held_height = 0
        """The scrollable height kept for a moment after the inset went (see :meth:`keep_clear_of`)."""

    @property
    def document(self) -> Document:
        return self._document

    @property
    def visible_document(self) -> Document:
        return self._visible

    def show(self, document: Document) -> None:
        """Display ``document``; marks alone change at once, new lines are re-wrapped."""
        if document is self._document:
            return
        self._document = document
        if document.lines is self._visible.lines and document.banners.keys() == self._visible.banners.keys():
            before = self.screen_rows()
            self._visible = document
            self.repaint_changed(before)
        else:
            self._rewrap()

    def set_notes(self, notes: Mapping[int, str], width: int) -> None:
        """Labels in a gutter column of ``width`` cells before the numbers (none: ``width`` 0)."""
        if notes != self._notes or width != self._note_width:
            self._notes, self._note_width = dict(notes), width
            self._rewrap()
            self.refresh()

    def set_flags(self, flags: Mapping[int, str]) -> None:
        """Mark lines in the gutter (the doctor's findings); repaints only when they change."""
        if flags != self._flags:
            self._flags = dict(flags)
            self.refresh()

    def set_matches(
        self, spans: Callable[[str], Sequence[tuple[int, int]]] | None, current: tuple[int, int, int] | None = None
    ) -> None:
        """Highlight find's matches: ``spans`` gives them for one shown line (None: no find); ``current`` stands out."""
        if spans == self._matches and current == self._current_match:
            return
        before = self._match_rows()
        self._matches, self._current_match = spans, current
        after = self._match_rows()
        if before is None or after is None:
            self.refresh()
            return
        for row, (old, new) in enumerate(zip(before, after, strict=False), start=self.scroll_offset.y):
            if old != new:
                self.refresh_line(row)  # a keystroke in find repaints only the rows whose highlights change

    def _match_rows(self) -> list[tuple[object, ...]] | None:
        """What find highlights on each row on screen (None: no rows to compare, repaint all)."""
        rows, lines = self._rows, self._visible.lines
        if self._visible is not self._document or not lines:
            return None
        spans_of, current = self._matches, self._current_match
        top = self.scroll_offset.y
        seen: dict[int, Sequence[tuple[int, int]]] = {}
        out: list[tuple[object, ...]] = []
        for row in range(top, min(len(rows), top + self.scrollable_content_region.height)):
            line, start, end = rows.line[row], rows.start[row], rows.end[row]
            if start == BANNER or spans_of is None:
                out.append(())
                continue
            if line not in seen:
                seen[line] = spans_of(lines[line])
            shown = tuple(span for span in seen[line] if span[0] < end and span[1] > start)
            on = (
                current
                if current is not None and current[0] == line and current[1] < end and current[2] > start
                else None
            )
            out.append((shown, on))
        return out

    def set_placeholder(self, text: str) -> None:
        if text != self.placeholder:
            self.placeholder = text
            self.refresh()

    def _gutter_width(self, document: Document) -> int:
        width = len(f"{len(document.lines)}") + 1 + self._note_width if self._numbers else 0
        return width + (2 if self._signs else 0)

    def _text_width(self, document: Document) -> int:
        return self.scrollable_content_region.width - self._gutter_width(document)

    def _rewrap(self) -> None:
        document = self._document
        width = self._text_width(document)
        if width <= 0:
            return  # not laid out yet: on_resize wraps
        previous = (self._rows, self._visible.lines, self._visible.banners.keys())
        kept = common_lines(self._visible.lines, document.lines) if self._rows.width == width else 0
        if len(document.lines) - kept <= self.SYNC_WRAP_LINES:
            self._set_rows(document, wrap_rows(document.lines, width, document.banners, previous))
        else:
            self._wrap_in_background(document, width, previous)

    @work(thread=True, exclusive=True, group="wrap", description="wrap lines", exit_on_error=False)
    def _wrap_in_background(
        self, document: Document, width: int, previous: tuple[Rows, Sequence[str], Collection[int]]
    ) -> None:
        try:
            rows = wrap_rows(document.lines, width, document.banners, previous)
        except Exception as error:  # the one error policy: say it, never end the app
            self.app.call_from_thread(self.set_placeholder, f"could not lay out this text: {failure_words(error)}")
            return
        if not get_current_worker().is_cancelled:
            self.app.call_from_thread(self._set_rows, document, rows)

    def _set_rows(self, document: Document, rows: Rows) -> None:
        if document.lines is not self._document.lines:
            return  # a newer document is being wrapped
        before = self.screen_rows()
        self._visible = self._document
        self._rows = rows
        self._fit_virtual()
        self.rows_changed()
        if self._reveal is not None:
            self.reveal_line(*self._reveal)
        self.repaint_changed(before)

    def keep_clear_of(self, rows: int) -> None:
        """``rows`` at the bottom lie under something (the open form): lines revealed from now on stay above them.

        When the inset goes (the form closes), the scrollable height is held
        for a moment: shrunk at once, a view scrolled to its end would move
        every row down, repainting the whole view and with it every row of
        the screen in the frame that shows the form's result.
        """
        if rows == self._inset:
            return
        if rows < self._inset and self.size:
            self._held_height = self.virtual_size.height
            self.set_timer(TRIM_AFTER, self._release_height)
        self._inset = rows
        self._fit_virtual()

    def _release_height(self) -> None:
        self._held_height = 0
        self._fit_virtual()

    def _fit_virtual(self) -> None:
        """The scrollable height: the rows plus the inset, or the height held."""
        self.set_virtual_height(max(len(self._rows) + self._inset, self._held_height))

    def screen_rows(self) -> RowKeys | None:
        """The gutter, wrap width and find state, then each row's line, span, text, mark and style."""
        document, rows = self._visible, self._rows
        if not document.lines or not self.size:
            return None
        whole = (
            self._gutter_width(document),
            len(f"{len(document.lines)}"),
            rows.width,
            self._matches,
            self._current_match,
            self._notes,
            self._flags,
        )
        out: list[tuple[object, ...]] = []
        top = self.scroll_offset.y
        for row in range(top, min(len(rows), top + self.scrollable_content_region.height)):
            line, start, end = rows.line[row], rows.start[row], rows.end[row]
            if start == BANNER:
                out.append((line, BANNER, document.banners.get(line)))
                continue
            mark = document.marks.get(line)
            source = document.source[line] if document.source is not None else None
            out.append((line, start, end, document.lines[line], source, mark, self.row_style(line, mark)))
        return whole, out

    def reveal_line(self, line: int, context: int = 3) -> None:
        """Scroll so ``line`` is on screen with a little context above it."""
        if self._visible is not self._document or not self.scrollable_content_region.height:
            self._reveal = (line, context)  # rows still being wrapped, or the view not laid out (a pane just shown)
            return
        self._reveal = None
        first = self._rows.first_row_of(line)
        top, height = self.scroll_offset.y, max(1, self.scrollable_content_region.height - self._inset)
        last = first
        while last + 1 < len(self._rows) and self._rows.line[last + 1] == line:
            last += 1
        if first < top or last >= top + height:
            self.scroll_to(
                y=max(0, first - context), animate=False, force=True
            )  # scrollbars may not know the new rows yet

    def line_on_screen(self, line: int) -> bool:
        """Whether some row of ``line`` is in the visible part of the view."""
        if self._visible is not self._document or not self.display or line >= len(self._visible.lines):
            return False
        first = self._rows.first_row_of(line)
        top = self.scroll_offset.y
        return top <= first < top + self.scrollable_content_region.height - self._inset

    def rows_changed(self) -> None:
        """Hook for subclasses: the rows were re-wrapped."""

    def on_resize(self) -> None:
        if self._text_width(self._document) != self._rows.width or self._visible is not self._document:
            self._rewrap()
        elif self._reveal is not None:
            self.reveal_line(*self._reveal)

    def render_lines(self, crop: Region) -> list[Strip]:
        self._base_style = self.rich_style  # computed once per paint, not once per row,
        self._paint_width = self.size.width  # like the width: each look-up finds the widget on the screen again
        if self._visible is not self._document and len(self._document.lines) <= self.SYNC_WRAP_LINES:
            self._rewrap()  # shown before the first layout: wrap now, so this very frame has the text
        return super().render_lines(crop)

    def row_style(self, line: int, mark: str | None) -> Style:
        """The style of a row of ``line``; subclasses add a cursor."""
        base = self._base_style
        if mark is None:
            return base
        return base + self.get_component_rich_style(f"line-view--{mark}")

    def render_line(self, y: int) -> Strip:
        width = self._paint_width
        base = self._base_style
        document, rows = self._visible, self._rows
        row = self.scroll_offset.y + y
        if not document.lines:
            if y == 0 and self.placeholder:
                style = base + self.get_component_rich_style("line-view--placeholder")
                return Strip([Segment(self.placeholder, style)]).crop_extend(0, width, base)
            return Strip.blank(width, base)
        if row >= len(rows):
            return Strip.blank(width, base)
        line, start, end = rows.line[row], rows.start[row], rows.end[row]
        gutter_style = base + self.get_component_rich_style("line-view--gutter")
        if start == BANNER:
            style = base + self.get_component_rich_style("line-view--banner")
            gutter = " " * self._gutter_width(document)
            return fit([Segment(gutter, style), Segment(document.banners.get(line, ""), style)], width, style)
        mark = document.marks.get(line)
        style = self.row_style(line, mark)
        segments = []
        if self._numbers:
            number = f"{line + 1}" if start == 0 else ""
            digits = len(f"{len(document.lines)}")
            if self._note_width:
                note = self._notes.get(line, "") if start == 0 else ""
                segments.append(
                    Segment(
                        f"{note:<{self._note_width - 1}.{self._note_width - 1}} ",
                        base + self.get_component_rich_style("line-view--gutter"),
                    )
                )
            flag = self._flags.get(line) if start == 0 else None
            if flag is None:
                segments.append(Segment(f"{number:>{digits}} ", gutter_style))
            else:
                segments.append(Segment(f"{number:>{digits}}", gutter_style))
                segments.append(
                    Segment(
                        "!" if flag != "info" else "·", base + self.get_component_rich_style(f"line-view--flag-{flag}")
                    )
                )
        if self._signs:
            sign = SIGNS.get(mark, " ") if start == 0 and mark is not None else " "
            segments.append(Segment(f"{sign} ", style if mark in SIGNS else gutter_style))
        text = document.lines[line]
        if start > 0:
            segments.append(Segment(" " * hanging_indent(text), style))
        source = document.source[line] if document.source is not None else text
        if source == text:
            shown = [Segment(text[start:end], style)]
        else:
            shown = with_markers(
                text[start:end], source[start:end], style, style + self.get_component_rich_style("line-view--hidden")
            )
        if self._matches is not None:
            found = (
                self.get_component_rich_style("line-view--match"),
                self.get_component_rich_style("line-view--match-current"),
            )
            shown = highlighted(shown, self._matches(text), line, start, end, found, self._current_match)
        segments.extend(shown)
        return fit(segments, width, style)
