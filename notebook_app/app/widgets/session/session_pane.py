"""One side of the session comparison: a soul, what it is, and a badge."""

from __future__ import annotations

from pathlib import Path

from rich.cells import cell_len
from textual.app import ComposeResult
from textual.containers import Horizontal, Vertical
from textual.widgets import Label

from ...documents import Document, Mark
from ..common.line_view import LineView

TCSS = Path(__file__).with_name("session.tcss")

BADGE_KINDS = ("sync", "pending", "frozen", "dry-run")
CHANGE_MARKS = (Mark.ADDED, Mark.REMOVED)


def change_badge(current: Document, upcoming: Document) -> str:
    """``+2 −1 lines``: the lines marked on each side, counted as they are marked; or ``in sync``."""
    added = sum(1 for mark in upcoming.marks.values() if mark is Mark.ADDED)
    removed = sum(1 for mark in current.marks.values() if mark is Mark.REMOVED)
    if not added and not removed:
        return "in sync"
    parts = ([f"+{added}"] if added else []) + ([f"−{removed}"] if removed else [])
    return f"{' '.join(parts)} line{'s' if added + removed != 1 else ''}"


def _set_text(label: Label, text: str) -> None:
    """Update ``label`` only when its text changes, and lay out only when its width does.

    A layout repaints the whole screen; an unchanged head must not cost one
    each time the home is read.
    """
    old = str(label.content)
    if text != old:
        label.update(text, layout=cell_len(text) != cell_len(old))


class SessionPane(Vertical):
    """A titled soul view; the badge says in a word how it relates to the other side."""

    def __init__(self, title: str, **kwargs) -> None:
        super().__init__(**kwargs)
        self.border_title = title
        self._first_change: int | None = None

    def compose(self) -> ComposeResult:
        with Horizontal(classes="session-head"):
            yield Label("", classes="session-meta", markup=False)
            yield Label("", classes="badge", markup=False)
        yield LineView(signs=True, placeholder="loading…", classes="soul")

    def show(self, meta: str, badge: str, kind: str, document: Document) -> None:
        _set_text(self.query_one(".session-meta", Label), meta)
        label = self.query_one(".badge", Label)
        _set_text(label, badge)
        for known in BADGE_KINDS:
            label.set_class(known == kind, f"-{known}")
        view = self.query_one(LineView)
        view.set_placeholder("(empty soul: no bootstrap files)")
        if document is view.document:
            return
        view.show(document)
        first_change = min((line for line, mark in document.marks.items() if mark in CHANGE_MARKS), default=None)
        if first_change is not None and first_change != self._first_change:
            view.reveal_line(first_change)
        self._first_change = first_change

    @property
    def document(self) -> Document:
        return self.query_one(LineView).document

    def line_on_screen(self, line: int) -> bool:
        return self.display and self.query_one(LineView).line_on_screen(line)

    def reveal_line(self, line: int) -> None:
        self.query_one(LineView).reveal_line(line)

    def focus_view(self) -> None:
        self.query_one(LineView).focus()
