"""A one-line banner over the panes: said when something needs saying, hidden when it is over."""

from __future__ import annotations

from textual.widgets import Static


class Banner(Static):
    """Plain text (no markup: it quotes paths and the core's words), shown by the ``-shown`` class."""

    def __init__(self, *, id: str) -> None:  # noqa: A002  (Textual's own name for it)
        super().__init__("", id=id, markup=False)

    def say(self, text: str) -> None:
        self.update(text)
        self.add_class("-shown")

    def clear(self) -> None:
        self.remove_class("-shown")
