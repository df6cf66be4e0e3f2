"""A screen that declares its keys: the app builds the palette from them, never by screen type."""

from __future__ import annotations

from typing import ClassVar, TypeVar

from textual import events
from textual.dom import DOMNode
from textual.widget import Widget

from notebook_app.app.keys import Key
from notebook_app.app.widgets.common.focus_within import FOCUS_WITHIN, FocusWithin, KeepsFocusMarks
from notebook_app.app.widgets.textual_compat import FocusScreen

ResultType = TypeVar("ResultType")


class KeyedScreen(FocusScreen[ResultType]):
    KEYS: ClassVar[tuple[Key, ...]] = ()
    """This screen's keys from the one table; its BINDINGS are made from them."""

    _resumed_once = False

    def focus_styles_changing(self, focused: Widget | None, blurred: Widget | None) -> None:
        """Mark the :class:`FocusWithin` containers around the focus and restyle those alone (Textual's way follows)."""
        inside = set(focused.ancestors_with_self) if focused is not None else set()
        keep = any(isinstance(widget, KeepsFocusMarks) for widget in inside)
        left_keeper = blurred is not None and any(
            isinstance(widget, KeepsFocusMarks) for widget in blurred.ancestors_with_self
        )
        around: list[DOMNode] = [
            *(focused.ancestors_with_self if focused is not None else ()),
            *(blurred.ancestors_with_self if blurred is not None else ()),
            *(self.query(f".{FOCUS_WITHIN}") if left_keeper else ()),  # the marks kept while the form had the focus
        ]
        changed: list[DOMNode] = []
        for widget in around:
            if keep and widget not in inside:
                continue
            if (
                isinstance(widget, FocusWithin)
                and widget not in changed
                and widget.has_class(FOCUS_WITHIN) != (widget in inside)
            ):
                widget.set_class(widget in inside, FOCUS_WITHIN, update=False)
                changed.append(widget)
        if changed:
            self.app.stylesheet.update_nodes(changed, animate=True)

    def on_screen_resume(self, event: events.ScreenResume) -> None:
        """The first resume keeps the styles given when each widget mounted.

        Runs before Textual's own handler (it is later in the MRO), which would
        otherwise restyle every widget of a screen just shown, styled a moment
        ago: at start that doubled the stylesheet's work. A class or theme
        change restyles what it touches by itself; later resumes restyle as usual.
        """
        if not self._resumed_once:
            self._resumed_once = True
            event.refresh_styles = False

    def keep_unsaved(self, home_label: str) -> str | None:
        """The notebook is ending: keep what this screen would lose, and say where in words (None: nothing to keep).

        Called on the event loop while the app still runs, however it ends (see :mod:`.editor.kept`).
        """
        return None

    @property
    def is_typing(self) -> bool:
        """Whether letter keys type here instead of acting (a form is open)."""
        return False
