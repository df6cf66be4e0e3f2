"""A Line API scroll view that repaints only what changed.

Textual renders every widget across each repainted row of the screen, so a
view repainted whole (a pane of 35 rows) costs most of a full frame. Four
of Textual's ScrollView habits repaint a view whole for less: a new
scrollable height (its reactive setter, which also lays out the screen),
each layout of the screen (it refreshed every scrollbar), a focus move (a
full refresh and a restyle of every component class), and any new content.
This base keeps them to the rows concerned; what needs Textual's private
API for it is in :mod:`..textual_compat` (QuietScrollView).
"""

from __future__ import annotations

from collections.abc import Sequence

from textual import events
from textual.geometry import Size

from notebook_app.app.widgets.textual_compat import QuietScrollView

RowKeys = tuple[object, Sequence[object]]
"""What decides the look of the whole view, then of each row on screen, top first."""


class RowView(QuietScrollView):
    def screen_rows(self) -> RowKeys | None:
        """The look of the view and of each row on screen, cheaply (None: repaint all). Subclasses say."""
        return None

    def repaint_changed(self, before: RowKeys | None) -> None:
        """Repaint the rows whose look differs from ``before`` (taken with :meth:`screen_rows` before a change)."""
        after = self.screen_rows()
        if before is None or after is None or before[0] != after[0]:
            self.refresh()
            return
        old_rows, new_rows = before[1], after[1]
        top = self.scroll_offset.y
        for offset in range(max(len(old_rows), len(new_rows))):
            old = old_rows[offset] if offset < len(old_rows) else None
            new = new_rows[offset] if offset < len(new_rows) else None
            if old != new:
                self.refresh_line(top + offset)

    def set_virtual_height(self, height: int) -> None:
        """The scrollable height: once laid out, only the scrollbar is redrawn for it (no layout, no repaint)."""
        size = Size(self.scrollable_content_region.width, height)
        if size != self.virtual_size:
            self.set_scroll_height(size)

    def watch_has_focus(self, has_focus: bool) -> None:
        """No restyle (it recomputes every component class, 4 ms a move): what shows focus is chosen in code
        and repainted by :meth:`focus_moved`."""
        self.focus_moved()

    def focus_moved(self) -> None:
        """Repaint what shows the focus (nothing here)."""

    def on_focus(self, event: events.Focus) -> None:
        event.prevent_default()  # Widget's own handler also refreshes the whole view
        self.has_focus = True
        if self.parent is not None:
            self.parent.post_message(events.DescendantFocus(self))

    def on_blur(self, event: events.Blur) -> None:
        event.prevent_default()
        self.has_focus = False
        if self.parent is not None:
            self.parent.post_message(events.DescendantBlur(self))
