"""The Home column's file panes, one over another, each as tall as its content allows.

Space follows content: the target (where an add lands) claims its rows and one
more for the next entry, at least :data:`TARGET_MIN` and at most half the
stack; the other panes share what is left, each as tall as its title rule,
summary and wrapped lines, a short one's spare rows going to the others; the
target then takes every row they leave. When the stack is short
(:data:`SHORT_BELOW` rows), each pane's size facts ride in its title rule
instead of a row of their own.
"""

from __future__ import annotations

from textual import events, on
from textual.containers import Vertical

from notebook_app.app.widgets.home.entry_view import RowsChanged
from notebook_app.app.widgets.home.file_pane import FilePane

SHORT_BELOW = 24
"""Rows of the stack under which a size line costs too much: the facts move into the title rule."""

TARGET_MIN = 5
"""The target's fewest rows (its title rule and four lines), however little it holds: an add lands in view."""

PANE_MIN = 3
"""The fewest rows of a pane other than the target that has more: its title rule and two lines."""


def fair_heights(needs: list[int], rows: int, target: int | None) -> list[int | None]:
    """The height of each pane from the rows it ``needs``; None for the pane at index ``target``, which takes the rest.

    The panes other than the target share the rows the target does not claim,
    the shortest first: one that needs less than an even share gets just that,
    and what it leaves goes to the rest (any odd row to the one above).
    """
    claim = 0 if target is None else min(max(TARGET_MIN, needs[target] + 1), rows // 2)
    pool = rows - claim
    heights: list[int | None] = [None] * len(needs)
    waiting = sorted((i for i in range(len(needs)) if i != target), key=lambda i: (needs[i], i))
    while waiting:
        share = pool // len(waiting)
        if needs[waiting[0]] <= share:
            first = waiting.pop(0)
            heights[first] = needs[first]
            pool -= needs[first]
            continue
        odd = pool - share * len(waiting)
        for place, index in enumerate(sorted(waiting)):
            heights[index] = max(share + (place < odd), min(needs[index], PANE_MIN))
        break
    return heights


class PaneStack(Vertical):
    """Lays out its :class:`FilePane` children by content, again
    whenever one posts :class:`RowsChanged` or the stack resizes."""

    def __init__(self, **kwargs) -> None:
        super().__init__(**kwargs)
        self._fitting = False
        self.short: bool | None = None
        """Whether the size facts ride in the title rules (None until the first layout)."""

    def on_resize(self, event: events.Resize) -> None:
        short = event.size.height < SHORT_BELOW
        if short != self.short:
            self.short = short
            for pane in self.query_children(FilePane):
                pane.set_short(short)
        self.refit()

    @on(RowsChanged)
    def _rows_changed(self, event: RowsChanged) -> None:
        event.stop()
        self.refit()

    def refit(self) -> None:
        """Fit the panes after the next refresh (once, however many ask in the meantime)."""
        if not self._fitting:
            self._fitting = True
            self.call_after_refresh(self._fit)

    def _fit(self) -> None:
        self._fitting = False
        rows = self.size.height
        if not rows:
            return
        panes = list(self.query_children(FilePane))
        target = next((i for i, pane in enumerate(panes) if pane.has_class("-target")), None)
        for pane, height in zip(panes, fair_heights([pane.rows_needed for pane in panes], rows, target), strict=True):
            wanted = "1fr" if height is None else str(height)
            if pane.styles.height is None or str(pane.styles.height) != wanted:
                pane.styles.height = wanted
