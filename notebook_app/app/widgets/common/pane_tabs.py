"""The switcher shown at narrow widths, where only one of the three panes fits.

It knows nothing of panes: it draws the names it is given, marks the active
one, and posts :class:`Chosen` when one is clicked. The screen decides what
"active" shows (and the keys that switch, from the one key table).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

from textual import events
from textual.content import Content
from textual.message import Message
from textual.widgets import Static

TCSS = Path(__file__).with_suffix(".tcss")


@dataclass(frozen=True)
class Tab:
    id: str
    label: str
    key: str
    """The key shown beside the label, e.g. f3."""
    widget: str = ""
    """The id of the pane it brings to the front (``id`` when empty)."""
    group: str = ""
    """Tabs of one group show their panes side by side (Current and Next: the comparison, at 80 columns)."""

    @property
    def widget_id(self) -> str:
        return self.widget or self.id


class PaneTabs(Static):
    """``f2 Home │ f3 Current │ f4 Next``: one row, the active tab highlighted."""

    @dataclass
    class Chosen(Message):
        tab: str

    def __init__(self, tabs: Sequence[Tab], **kwargs) -> None:
        super().__init__("", markup=False, **kwargs)
        self.tabs = tuple(tabs)
        self.active = self.tabs[0].id
        self._spans: list[tuple[int, int, str]] = []
        self._draw()

    def activate(self, tab: str) -> None:
        if tab != self.active:
            self.active = tab
            self._draw()

    def _draw(self) -> None:
        parts: list[Content] = []
        self._spans = []
        column = 0
        for tab in self.tabs:
            if parts:
                parts.append(Content.styled(" │ ", "$foreground-muted"))
                column += 3
            shown = tab.id == self.active or (tab.group != "" and tab.group == self._group_of(self.active))
            style = "bold reverse $text-primary" if shown else "$foreground"
            piece = Content.assemble((f" {tab.key} ", "$text-accent bold"), (f"{tab.label} ", style))
            self._spans.append((column, column + len(piece.plain), tab.id))
            column += len(piece.plain)
            parts.append(piece)
        self.update(Content.assemble(*parts))

    def _group_of(self, tab_id: str) -> str:
        return next((tab.group for tab in self.tabs if tab.id == tab_id), "")

    def on_click(self, event: events.Click) -> None:
        for start, end, tab in self._spans:
            if start <= event.x < end:
                self.post_message(self.Chosen(tab))
