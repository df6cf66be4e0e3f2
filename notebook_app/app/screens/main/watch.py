"""The notebook's watchers: the home's files and its agent-session log, started after the first frame.

:class:`HomeWatch` is a controller the main screen holds: it owns both
watchers and the check of the pin, and touches no widget. The watchers post
their messages (:class:`~...watchers.home.HomeWatcher`,
:class:`~...watchers.sessions.SessionsWatcher`) to the node it runs on, and
so does the pin check (:class:`HomeWatch.PinChanged`): the screen says it.

Whether the home is still the one opened is the core's pin
(:mod:`....core.fs`): twice a second a ``stat`` of the pinned folders,
on the event loop, since watchfiles does not report the move of the folder
it watches. While it is not, a banner says so, the last state read stays
on screen and every write is refused in the core's words.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

from textual.message import Message
from textual.widget import Widget

from notebook_app.app.view_model.notebook import Notebook
from notebook_app.app.watchers.home import HomeWatcher
from notebook_app.core.fs.home_pin import moved

if TYPE_CHECKING:
    from notebook_app.app.watchers.sessions import SessionsWatcher

PIN_CHECK_SECONDS = 0.5

MOVED_BANNER = (
    "⚠ The home at {home} was moved or removed since it was opened. "
    "Showing the last state read; nothing is written to it until it is back "
    "(open it again to work on what is there now)."
)


class HomeWatch:
    """Watches ``notebook``'s home (when ``watch``), and whether the home is still the one opened, for ``node``."""

    @dataclass
    class PinChanged(Message):
        """The home at the path stopped (``gone``) or started again to be the folder opened."""

        gone: bool

    def __init__(self, node: Widget, notebook: Notebook, *, watch: bool) -> None:
        self._node = node
        self.notebook = notebook
        self.watch = watch
        self.home_missing = False
        """Whether the home at the path is no longer the folder opened (moved or removed)."""
        self._pin_checked = False
        self._watching = False
        self.home: HomeWatcher | None = None
        self.agents: SessionsWatcher | None = None

    def start(self) -> None:
        """Start once, after the frame that shows the first read: making a
        watcher loads anyio (tens of milliseconds).
        """
        if not self._pin_checked:
            self._pin_checked = True
            self._node.set_interval(PIN_CHECK_SECONDS, self.check_pin)
        if self.watch and not self._watching:
            self._watching = True
            self._node.call_after_refresh(self._watch)

    def _watch(self) -> None:
        self.home = HomeWatcher(self.notebook.home, self._node, self.notebook.known_digest, self.notebook.files)
        self.home.start(self._node)
        # the log under .notebook: a queued proposal changes no bootstrap file, only the log
        from notebook_app.app.watchers.sessions import (  # lazy: the agents' sessions, at the first look
            SessionsWatcher,  # loaded when watching starts, after the first frame
        )

        self.agents = SessionsWatcher(self.notebook.home, self._node)
        self.agents.start(self._node, "log-watch")

    def stop(self) -> None:
        for watcher in (self.home, self.agents):
            if watcher is not None:
                watcher.stop()

    def refusal(self, home_label: str) -> str | None:
        """Why no write may start now (the home moved), in the core's words; None: it may."""
        if not self.home_missing:
            return None
        return moved(self.notebook.home) or f"the home directory is gone ({home_label}); nothing was written"

    def check_pin(self) -> None:
        """Whether the home at the path is still the folder opened; a change is posted to ``node``."""
        gone = moved(self.notebook.home) is not None
        if gone == self.home_missing:
            return
        self.home_missing = gone
        self._node.post_message(self.PinChanged(gone))
