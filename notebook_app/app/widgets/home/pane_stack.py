"""The Home column's file panes, one over another, each as tall as its content allows.

Space follows content: a pane that is not the target takes its title rule,
its summary and its wrapped lines, and no more than a fair share (a quarter
of the stack each, so the target keeps at least half); the target takes the
rest. When the stack is short (:data:`SHORT_BELOW` rows), each pane's size
facts ride in its title rule instead of a row of their own.
"""

from __future__ import annotations

from textual import events, on
from textual.containers import Vertical

from .entry_view import RowsChanged
from .file_pane import FilePane

SHORT_BELOW = 24
"""Rows of the stack under which a size line costs too much: the facts move into the title rule."""

SHARE = 4
"""A pane other than the target takes at most 1/SHARE of the stack's rows."""


def fair_heights(needs: list[int | None], rows: int) -> list[int | None]:
    """The height of each pane from what it ``needs`` (None: the target, which takes the rest)."""
    cap = max(3, rows // SHARE)
    return [None if need is None else min(need, cap) for need in needs]


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
        for pane, height in zip(panes, fair_heights([pane.rows_needed for pane in panes], rows), strict=True):
            wanted = "1fr" if height is None else str(height)
            if pane.styles.height is None or str(pane.styles.height) != wanted:
                pane.styles.height = wanted
