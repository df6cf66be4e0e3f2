"""A screen that declares its keys: the app builds the palette from them, never by screen type."""

from __future__ import annotations

from typing import ClassVar, TypeVar

from textual.reactive import Reactive
from textual.screen import Screen
from textual.widget import Widget

from ..keys import Key

ResultType = TypeVar("ResultType")


class KeyedScreen(Screen[ResultType]):
    KEYS: ClassVar[tuple[Key, ...]] = ()
    """This screen's keys from the one table; its BINDINGS are made from them."""

    focused: Reactive[Widget | None] = Reactive(None, repaint=False)
    """Textual's, without repainting the whole screen at each focus move: the widgets whose look
    depends on focus restyle and repaint themselves. (Closing the form sent a second full frame.)"""

    @property
    def is_typing(self) -> bool:
        """Whether letter keys type here instead of acting (a form is open)."""
        return False
