"""A screen that declares its keys: the app builds the palette from them, never by screen type."""

from __future__ import annotations

from typing import ClassVar, TypeVar

from textual.screen import Screen

from ..keys import Key

ResultType = TypeVar("ResultType")


class KeyedScreen(Screen[ResultType]):
    KEYS: ClassVar[tuple[Key, ...]] = ()
    """This screen's keys from the one table; its BINDINGS are made from them."""

    @property
    def is_typing(self) -> bool:
        """Whether letter keys type here instead of acting (a form is open)."""
        return False
