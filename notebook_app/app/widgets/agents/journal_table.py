"""One agent session's memory-tool calls, oldest first; failed calls in error style.

The table fits its columns to the width, so long values end in an ellipsis;
the line under it shows the highlighted call whole.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from datetime import datetime

from rich.style import Style
from rich.text import Text
from textual import on
from textual.app import ComposeResult
from textual.containers import Vertical
from textual.content import Content
from textual.widgets import DataTable, Static

from notebook_app.app.view_model.agents import shown_target, shown_value
from notebook_app.app.widgets.common.focus_within import FocusWithin
from notebook_app.core.sessions.agents import CallEntry

FIXED = (("time", 8), ("action", 7), ("target", 6))
FLEXIBLE = (("text", 4), ("with", 2), ("result", 4))
"""Columns sharing the rest of the width, by these weights."""
MIN_WIDTH = 8


class JournalTable(DataTable):
    """Cells are rich ``Text``, never markup: they hold what an agent sent.

    Columns fit the width, so a long text ends in an ellipsis instead of
    pushing the result off screen; the table is rebuilt when the width changes.
    """

    COMPONENT_CLASSES = {"journal-table--error", "journal-table--muted"}

    def __init__(self, clock: Callable[[datetime], str], **kwargs) -> None:
        super().__init__(cursor_type="row", zebra_stripes=False, **kwargs)
        self.clock = clock
        self.entries: tuple[CallEntry, ...] = ()
        self._widths: tuple[int, ...] = ()

    def _fitted_widths(self) -> tuple[int, ...]:
        columns = len(FIXED) + len(FLEXIBLE)
        room = self.scrollable_content_region.width - 1 - 2 * self.cell_padding * columns - sum(w for _, w in FIXED)
        total = sum(weight for _, weight in FLEXIBLE)
        flexible = [max(MIN_WIDTH, room * weight // total) for _, weight in FLEXIBLE[:-1]]
        flexible.append(max(MIN_WIDTH, room - sum(flexible)))  # the result takes what rounding left
        return tuple(w for _, w in FIXED) + tuple(flexible)

    def on_mount(self) -> None:
        # Row styles are resolved when rows are built: a new theme's CSS applies, then they are built again.
        self.watch(self.app, "theme", self._theme_changed, init=False)

    def _theme_changed(self) -> None:
        self.call_after_refresh(self._restyle)

    def _restyle(self) -> None:
        self._rebuild(self.cursor_row)

    def on_resize(self) -> None:
        if self._fitted_widths() != self._widths:
            self._rebuild(self.cursor_row)

    def show_journal(self, entries: Sequence[CallEntry]) -> None:
        """Show ``entries``; when the journal grew, the cursor follows its newest call."""
        entries = tuple(entries)
        if entries == self.entries:
            return
        grew = len(entries) > len(self.entries) and entries[: len(self.entries)] == self.entries
        follow = grew and self.cursor_row >= len(self.entries) - 1
        self.entries = entries
        self._rebuild(len(entries) - 1 if follow else self.cursor_row)

    def _rebuild(self, cursor: int) -> None:
        self._widths = widths = self._fitted_widths()
        self.clear(columns=True)
        for (label, _), width in zip(FIXED + FLEXIBLE, widths, strict=True):
            self.add_column(label, width=width, key=label)
        error = self.get_component_rich_style("journal-table--error", partial=True)
        muted = self.get_component_rich_style("journal-table--muted", partial=True)
        for entry in self.entries:
            style = error if entry.is_error else Style()
            values = (
                shown_value(entry.action),
                shown_target(entry),
                shown_value(entry.text),
                shown_value(entry.replacement),
                entry.output.replace("\n", "⏎"),
            )
            cells = [Text(self.clock(entry.time), style=error if entry.is_error else muted)]
            for value, width in zip(values, widths[1:], strict=True):
                cell = Text(value, style=style)
                cell.truncate(width, overflow="ellipsis")
                cells.append(cell)
            self.add_row(*cells)
        if self.entries:
            self.move_cursor(row=max(0, min(cursor, len(self.entries) - 1)), animate=False)


def call_detail(entry: CallEntry) -> Content:
    """One call whole: what the agent sent, then the tool's answer."""
    sent: list[str | tuple[str, str]] = [
        (f"{shown_value(entry.action) or '(no action)'} {shown_target(entry)}", "bold")
    ]
    if entry.text is not None:
        sent += [("  text ", "$foreground-muted"), shown_value(entry.text)]
    if entry.replacement is not None:
        sent += [("  with ", "$foreground-muted"), shown_value(entry.replacement)]
    answer = ("✖ " if entry.is_error else "✓ ") + entry.output
    return Content.assemble(*sent, "\n", (answer, "$text-error" if entry.is_error else "$text-success"))


class JournalPane(FocusWithin, Vertical):
    """The journal table and, under it, the highlighted call in full."""

    def __init__(self, clock: Callable[[datetime], str], **kwargs) -> None:
        super().__init__(**kwargs)
        self.clock = clock

    def compose(self) -> ComposeResult:
        yield JournalTable(self.clock)
        yield Static("", classes="journal-detail")

    @property
    def table(self) -> JournalTable:
        return self.query_one(JournalTable)

    def show_journal(self, entries: Sequence[CallEntry]) -> None:
        self.table.show_journal(entries)
        self._show_detail()

    @on(DataTable.RowHighlighted)
    def _highlighted(self, event: DataTable.RowHighlighted) -> None:
        event.stop()
        self._show_detail()

    def _show_detail(self) -> None:
        table = self.table
        row = table.cursor_row
        detail = self.query_one(".journal-detail", Static)
        if 0 <= row < len(table.entries):
            detail.update(call_detail(table.entries[row]))
        else:
            detail.update(Content.styled("No memory-tool calls in this session yet.", "$foreground-muted italic"))
