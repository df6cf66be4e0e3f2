"""Every use of Textual's private API, in one place (Textual 8.2.8, pinned).

Nothing else in ``notebook_app`` reads, calls or overrides a private Textual
member (tests/app/test_textual_compat.py scans for it), and that test fails,
naming the member, when an upgrade removes one or changes its signature. Each
item is kept only because a benchmark shows what it buys, or because dropping
it changes what is seen; its docstring says which. Figures: ``benchmarks/run.py
--only`` on this build and on a copy without the item, each against the floors
of its own run (the plain stock-widget screen for 5-7), medians, on the shared
2-core machine at a load of 6-12 (issue 20; read the ratios, not the ms).

The editor's items are functions and a plain mixin, so importing this module
loads no TextArea (the buffer, with tree-sitter, loads when E is used).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, TypeVar

from textual.app import App
from textual.geometry import Size
from textual.reactive import Reactive
from textual.screen import Screen
from textual.scroll_view import ScrollView
from textual.widget import Widget

if TYPE_CHECKING:
    from textual.widgets import TextArea
    from textual.widgets.text_area import WrappedDocument

ResultType = TypeVar("ResultType")


# --------------------------------------------------------------------------
# The app: the theme set before the stylesheet is first parsed
# --------------------------------------------------------------------------


def set_theme_before_parse(app: App[Any], name: str) -> None:
    """What setting ``App.theme`` does, done in ``__init__``, before the stylesheet is first parsed.

    Set in on_mount, the theme made Textual parse the CSS again and restyle
    every widget right after the first parse; its watcher needs a running
    app, so the reactive is set without it and its effects are applied here,
    among them ``App._refresh_truecolor_filter`` (private). Measure 5,
    runs taking turns: with it 0.91×, 0.95×, 0.95× the plain floor's start,
    without it 0.93×, 1.00×, 1.29×, 0.95×, 1.01× (medians 0.95× and 1.00×:
    about 5% of the start, some 20 ms of the 420 ms a quiet machine takes).
    """
    app.set_reactive(App.theme, name)
    dark = app.current_theme.dark
    classes = {old: False for old in app.classes if old.startswith("-theme-")}
    app.update_classes({**classes, f"-theme-{name}": True, "-dark-mode": dark, "-light-mode": not dark}, update=False)
    app._refresh_truecolor_filter(app.ansi_theme)
    app.stylesheet.set_variables(app.get_css_variables())


# --------------------------------------------------------------------------
# Screens: focus moves without Textual's whole-screen restyle and repaint
# --------------------------------------------------------------------------


class FocusScreen(Screen[ResultType]):
    """A screen whose focus moves restyle and repaint only the widgets concerned.

    * ``focused`` is Textual's reactive without ``repaint``: closing the form
      sent a second full frame of the screen. Without it, measure 7 on 2 MiB
      went from 0.26× to 0.60× the plain floor (ours 209 -> 327 ms; on 1 KiB
      the runs did not tell them apart: 0.73× -> 0.59×).
    * ``_update_focus_styles`` (private) calls :meth:`focus_styles_changing`
      first, where the screen marks the containers around the focus itself
      (KeyedScreen: FocusWithin, KeepsFocusMarks). Without it no pane shows
      its focus: the snapshots test_main_screen_in_sync and
      test_main_screen_with_pending_changes change.
    """

    focused: Reactive[Widget | None] = Reactive(None, repaint=False)
    """Textual's, without repainting the whole screen at each focus move."""

    def focus_styles_changing(self, focused: Widget | None, blurred: Widget | None) -> None:
        """Called before Textual restyles for a focus move (``focused`` gained it, ``blurred`` lost it)."""

    def _update_focus_styles(self, focused: Widget | None = None, blurred: Widget | None = None) -> None:
        self.focus_styles_changing(focused, blurred)
        super()._update_focus_styles(focused, blurred)


# --------------------------------------------------------------------------
# Scroll views: a new scrollable height or a layout without a whole repaint
# --------------------------------------------------------------------------


class QuietScrollView(ScrollView):
    """A ScrollView whose scrollbars are redrawn only when a size really changes.

    * ``_size_updated`` (private): ScrollView compares the compositor's
      virtual size (its region) with its own, which always differ, so every
      layout of the screen redrew every view's scrollbars.
    * :meth:`set_scroll_height` sets the scrollable height through
      ``_scroll_update`` (private) and the private ``_size`` and
      ``_container_size``, not through the ``virtual_size`` reactive, whose
      setter lays out the screen and repaints the whole view.

    Without both: measure 6 (the line shown) 0.31× -> 0.41× the plain floor,
    the preview's head 0.36× -> 0.68× (ours 71 -> 172 ms), measure 7 on 2 MiB
    0.26× -> 0.41× (209 -> 325 ms); on 1 KiB 0.73× -> 0.75×.
    """

    def __init__(self, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self._scrolled_for: tuple[Size, Size, Size] | None = None
        """(size, container size, virtual size) the scrollbars were last set for."""

    def set_scroll_height(self, size: Size) -> None:
        """The virtual size, once laid out at this width: only the scrollbars are redrawn for it."""
        if not self.size or size.width != self.virtual_size.width:
            self.virtual_size = size
            return
        self.set_reactive(ScrollView.virtual_size, size)
        self._scroll_update(size)
        self._scrolled_for = (self._size, self._container_size, size)

    def _size_updated(self, size: Size, virtual_size: Size, container_size: Size, layout: bool = True) -> bool:
        if (size, container_size, self.virtual_size) == self._scrolled_for:
            return False
        self._scrolled_for = (size, container_size, self.virtual_size)
        return super()._size_updated(size, virtual_size, container_size, layout)


# --------------------------------------------------------------------------
# The editor's TextArea on a 2 MiB file
# --------------------------------------------------------------------------


def wrapped_height(wrapped: WrappedDocument) -> int:
    """The rows of a wrapped document: the length of its private row index (``_offset_to_line_info``).

    ``WrappedDocument.height`` sums every line's wrap offsets, and TextArea
    asks for it for every row drawn: on a 2 MiB file that grows with the text.
    With :func:`refresh_without_rewrap` and :class:`SwappedDocuments` (the
    buffer's three cuts): without them, measure 14 in the built-in editor on
    2 MiB, the loop's work per key 65 -> 117 ms, p90 103 -> 226 ms, key to
    count shown 127 -> 217 ms.
    """
    return len(wrapped._offset_to_line_info)


def wrapped_width(wrapped: WrappedDocument) -> int:
    """The width a wrapped document is wrapped at now (its private ``_width``)."""
    return wrapped._width


def refresh_without_rewrap(text_area: TextArea) -> None:
    """A resize that keeps the width: drop the rendered rows (``_line_cache``) and set the size
    (``_refresh_size``), both private, without TextArea's full rewrap (~0.5 s on 2 MiB)."""
    text_area._line_cache.clear()
    text_area._refresh_size()


class SwappedDocuments:
    """A mixin for a TextArea: the documents TextArea makes for itself get the classes named here.

    TextArea assigns ``self.document`` and ``self.wrapped_document`` itself
    (a new ``Document`` for every text loaded); nothing public lets a
    subclass choose their classes, so these properties change the class of
    each as it is assigned (``PLAIN_DOCUMENT`` only for a plain ``Document``).
    """

    PLAIN_DOCUMENT: type
    WRAPPED_DOCUMENT: type

    @property
    def document(self) -> Any:
        return self.__dict__["_buffer_document"]

    @document.setter
    def document(self, document: Any) -> None:
        from textual.widgets.text_area import Document  # lazy: Textual's TextArea and tree-sitter, at the first editor

        if type(document) is Document:
            document.__class__ = self.PLAIN_DOCUMENT
        self.__dict__["_buffer_document"] = document

    @property
    def wrapped_document(self) -> Any:
        return self.__dict__["_counted_rows"]

    @wrapped_document.setter
    def wrapped_document(self, document: Any) -> None:
        document.__class__ = self.WRAPPED_DOCUMENT
        self.__dict__["_counted_rows"] = document
