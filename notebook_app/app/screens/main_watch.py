"""The notebook's watchers: the home's files and its agent-session log, started after the first frame.

A part of :class:`~.main.MainScreen` kept in its own module (the screen is
long enough without it). The watchers' messages are handled on the screen.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from ..watcher import HomeWatcher

if TYPE_CHECKING:
    from .main import MainScreen


class HomeWatching:
    """Mixed into MainScreen: start watching once, after the frame that shows the first read."""

    def _start_watching(self: MainScreen) -> None:
        """Making a watcher loads anyio (tens of milliseconds): done after the frame, it delays none."""
        if self.watch_home and not self._watching:
            self._watching = True
            self.call_after_refresh(self._watch)

    def _watch(self: MainScreen) -> None:
        self._watcher = HomeWatcher(self.notebook.home, self, self.notebook.known_digest)
        self._watcher.start(self)
        # the log under .notebook: a queued proposal changes no bootstrap file, only the log
        from ..sessions_watcher import SessionsWatcher  # loaded when watching starts, after the first frame

        self._agents = SessionsWatcher(self.notebook.home, self)
        self._agents.start(self, "log-watch")
