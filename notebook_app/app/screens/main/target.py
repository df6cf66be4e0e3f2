"""The memory tool's target: which of the host's entry files an add writes, marked in the Home column.

:class:`TargetShown` is a controller the main screen holds. The target is the
screen's reactive (the form reads it); this marks its pane, follows the entry
file a person moves into, and moves it on with ``t`` among the files the host
loads (toolnexus: MEMORY.md ⇄ USER.md; a host with one entry file says so).
"""

from __future__ import annotations

from collections.abc import Callable

from textual.screen import Screen

from notebook_app.app.view_model.file_rows import OneTarget, next_target
from notebook_app.app.view_model.notebook import Notebook
from notebook_app.app.widgets.home.home_pane import HomePane
from notebook_app.core.home.reading import MEMORY_TARGETS

TARGET_OF = {name: target for target, name in MEMORY_TARGETS.items()}
"""Entry file -> the memory tool's target naming it (``MEMORY.md`` -> ``self``)."""


class TargetShown:
    """The target of ``screen`` (read with ``get``, set with ``put``) among ``notebook``'s host's entry files."""

    def __init__(self, screen: Screen, notebook: Notebook, get: Callable[[], str], put: Callable[[str], None]) -> None:
        self._screen = screen
        self._notebook = notebook
        self._get, self._put = get, put

    def show(self, target: str) -> None:
        """Mark the target's pane, and say it under the Home column."""
        home = self._screen.query_one(HomePane)
        home.mark_target(MEMORY_TARGETS[target])
        home.border_subtitle = f"target: {target} → {MEMORY_TARGETS[target]}"

    def follow(self, name: str) -> None:
        """A person moved into entry file ``name``'s pane: the target follows."""
        self._put(TARGET_OF[name])

    def cycle(self, *, focus: bool) -> None:
        """``t``: the host's next entry file becomes the target (its pane focused, with ``focus``)."""
        target = next_target(self._notebook.files.order, self._get())
        if isinstance(target, OneTarget):
            self._screen.notify(target.words, title="target", markup=False)
            return
        self._put(target)
        if focus:
            self._screen.query_one(HomePane).focus_entries(MEMORY_TARGETS[target])
