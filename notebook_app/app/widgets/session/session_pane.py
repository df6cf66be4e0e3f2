"""One side of the session comparison: a soul, what it is, and a badge."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from pathlib import Path

from rich.cells import cell_len
from textual.app import ComposeResult
from textual.containers import Horizontal, Vertical
from textual.widgets import Label

from notebook_app.app.view_model.comparison import Comparison
from notebook_app.app.view_model.documents import EMPTY, Document, Mark
from notebook_app.app.widgets.common.focus_within import FocusWithin
from notebook_app.app.widgets.common.line_view import LineView

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


def first_change_of(document: Document) -> int | None:
    """Where the comparison first differs on this side: the soul's own word for it, else its first marked line."""
    if document.first_change is not None:
        return document.first_change
    return min((line for line, mark in document.marks.items() if mark in CHANGE_MARKS), default=None)


def present(
    current: SessionPane,
    upcoming: SessionPane,
    comparison: Comparison,
    *,
    current_meta: str,
    next_meta: str,
    next_kind: str | None = None,
    current_short: str | None = None,
    next_short: str | None = None,
) -> None:
    """Show a comparison in its two panes: the frozen side, and the other with the badge counting the marks.

    Every comparison view presents this way; ``next_kind`` overrides the
    badge's colour (a dry run), else it says in sync or pending.
    """
    current.show(current_meta, "frozen", "frozen", comparison.current_doc, short=current_short)
    kind = next_kind or ("sync" if comparison.in_sync else "pending")
    badge = change_badge(comparison.current_doc, comparison.next_doc)
    upcoming.show(next_meta, badge, kind, comparison.next_doc, short=next_short)


def _set_text(label: Label, text: str, *, fixed_width: bool = False) -> None:
    """Update ``label`` only when its text changes, and lay out only when its width can change.

    A layout re-arranges the screen; an unchanged head must not cost one each
    time the home is read, and a label whose width the pane fixes never needs one.
    """
    old = str(label.content)
    if text != old:
        label.update(text, layout=not fixed_width and cell_len(text) != cell_len(old))


class SessionPane(FocusWithin, Vertical):
    """A titled soul view; the badge says in a word how it relates to the other side."""

    def __init__(self, title: str, **kwargs) -> None:
        super().__init__(**kwargs)
        self.border_title = title
        self._first_change: int | None = None
        self._meta = ("", "", "")
        """What the head says in full, in short, and the badge beside it."""

    def on_resize(self) -> None:
        self._fit_meta()

    def _fit_meta(self) -> None:
        """The head's words in full when they fit beside the badge (its padding and the head's), else in short."""
        meta, short, badge = self._meta
        room = self.content_size.width - 2 - (cell_len(badge) + 2 if badge else 0)
        fits = room <= 0 or cell_len(meta) <= room  # not laid out yet: the full words, fitted on the first resize
        _set_text(self.query_one(".session-meta", Label), meta if fits else short, fixed_width=True)  # 1fr wide

    def compose(self) -> ComposeResult:
        with Horizontal(classes="session-head"):
            yield Label("", classes="session-meta", markup=False)
            yield Label("", classes="badge", markup=False)
        yield LineView(signs=True, placeholder="loading…", classes="soul")

    def show(self, meta: str, badge: str, kind: str, document: Document, *, short: str | None = None) -> None:
        """``meta`` beside ``badge`` over ``document``; ``short`` in place of ``meta`` when it does not fit whole
        (None: its first part, ``#2``): a word is never cut."""
        self._meta = (meta, short if short is not None else meta.split(" · ")[0], badge)
        self._fit_meta()
        label = self.query_one(".badge", Label)
        _set_text(label, badge)
        for known in BADGE_KINDS:
            label.set_class(known == kind, f"-{known}")
        view = self.query_one(LineView)
        view.set_placeholder("(empty soul: no bootstrap files)")
        if document is view.document:
            return
        view.show(document)
        first_change = first_change_of(document)
        if first_change is not None and first_change != self._first_change:
            view.reveal_line(first_change)
        self._first_change = first_change

    @property
    def document(self) -> Document:
        return self.query_one(LineView).document

    def reveal_first_change(self) -> None:
        first = first_change_of(self.document)
        if first is not None:
            self.reveal_line(first)

    def show_nothing(self, why: str) -> None:
        """Empty, with ``why`` in place of a soul."""
        self.show("", "", "", EMPTY)
        self.query_one(LineView).set_placeholder(why)

    def show_matches(
        self, spans: Callable[[str], Sequence[tuple[int, int]]] | None, current: tuple[int, int, int] | None = None
    ) -> None:
        """Find's matches in this soul (``spans`` of a shown line; None: find is off); ``current`` stands out."""
        self.query_one(LineView).set_matches(spans, current)

    def holds(self, widget: object) -> bool:
        """Whether ``widget`` is this pane's soul view."""
        return self.query_one(LineView) is widget

    @property
    def line_count(self) -> int:
        return len(self.document.lines)

    def line_on_screen(self, line: int) -> bool:
        return self.display and self.query_one(LineView).line_on_screen(line)

    def reveal_line(self, line: int) -> None:
        self.query_one(LineView).reveal_line(line)

    def keep_clear_of(self, rows: int) -> None:
        """The pane's bottom ``rows`` lie under the open form: the soul's changes are revealed above it.

        Nothing is resized (that would repaint the pane and, with it, every
        row of the screen); the soul's bottom row is the pane's border's.
        """
        self.query_one(LineView).keep_clear_of(max(0, rows - 1))
        if rows:
            self.reveal_first_change()

    def focus_view(self) -> None:
        self.query_one(LineView).focus()
