"""The notebook's watchers: the home's files and its agent-session log, started after the first frame.

A part of :class:`~.main.MainScreen` kept in its own module (the screen is
long enough without it). The watchers' messages are handled on the screen.

Whether the home is still the one opened is the core's pin
(:mod:`...core.home_pin`): twice a second a ``stat`` of the pinned folders,
on the event loop, since watchfiles does not report the move of the folder
it watches. While it is not, a banner says so, the last state read stays
on screen and every write is refused in the core's words.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from textual.widgets import Static

from ...core.fs import moved
from ..watcher import HomeWatcher

if TYPE_CHECKING:
    from .main import MainScreen

PIN_CHECK_SECONDS = 0.5
CHECK_DELAY = 0.3  # seconds of quiet before the doctor looks again: a write and its log entry are one check, after their frames


class HomeWatching:
    """Mixed into MainScreen: start watching once, after the frame that shows the first read."""

    _pin_checked = False

    def _start_watching(self: MainScreen) -> None:
        """Making a watcher loads anyio (tens of milliseconds): done after the frame, it delays none."""
        if not self._pin_checked:
            self._pin_checked = True
            self.set_interval(PIN_CHECK_SECONDS, self.check_pin)
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

    def check_pin(self: MainScreen) -> None:
        """Whether the home at the path is still the folder opened; on a change, the banner, a notice, a new look."""
        gone = moved(self.notebook.home) is not None
        if gone == self.home_missing:
            return
        self.home_missing = gone
        banner = self.query_one("#home-banner", Static)
        if gone:
            self._show_banner(
                f"⚠ The home at {self.home_label} was moved or removed since it was opened. Showing the last state "
                "read; nothing is written to it until it is back (open it again to work on what is there now)."
            )
            self.notify("The home directory was moved or removed.", title="home", severity="error", markup=False)
        else:
            banner.remove_class("-shown")
            self.notify("The home directory is back.", title="home")
        self._reads.request()  # moved: the same state, saying that writes are refused; back: read again
        self._checks.request_when_quiet(CHECK_DELAY)  # the health line says it too

    def on_home_watcher_home_missing(self: MainScreen) -> None:
        self.check_pin()

    def on_home_watcher_home_back(self: MainScreen) -> None:
        self.check_pin()
