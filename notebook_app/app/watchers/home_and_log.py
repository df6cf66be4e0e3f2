"""What a view that writes nothing of its own watches: the home's files and its log, every change counted.

The agent-sessions, review, history and injects views re-read on any write by
anyone (their own decisions included), so no digest is ever "ours" and both
watchers run together: :class:`HomeAndLogWatch` is that pair, started and
stopped as one, and :class:`LiveHome` the one place a view gets it from: an
invisible widget that watches while it is mounted and posts one message up.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from textual import events, on
from textual.message import Message
from textual.message_pump import MessagePump
from textual.widget import Widget

from notebook_app.app.watchers.home import HomeWatcher
from notebook_app.app.watchers.sessions import SessionsWatcher


class HomeAndLogWatch:
    """Posts the :class:`HomeWatcher` and :class:`SessionsWatcher` messages to ``target``."""

    def __init__(self, home: Path, target: MessagePump) -> None:
        self._watchers = (HomeWatcher(home, target, lambda name: ""), SessionsWatcher(home, target))

    def start(self, node: Widget, group: str) -> None:
        for watcher in self._watchers:
            watcher.start(node, group=group)

    def stop(self) -> None:
        for watcher in self._watchers:
            watcher.stop()


class LiveHome(Widget):
    """Watches ``home`` and its log while mounted (when ``watch``), and says so up: :class:`LiveHome.Changed`.

    The home going missing is the notebook's own screen's to report (it says which home, and keeps what it
    showed), so a view above it hears nothing of it from here.
    """

    DEFAULT_CSS = "LiveHome { display: none; }"

    @dataclass
    class Changed(Message):
        """The home's files (or the home itself, back) or its log changed."""

        files: bool
        log: bool

    def __init__(self, home: Path, *, watch: bool, group: str) -> None:
        super().__init__()
        self.home = home
        self.watch_home = watch
        self.group = group
        self._watch: HomeAndLogWatch | None = None

    @on(events.Mount)
    def _mounted(self) -> None:
        if self.watch_home:
            self._watch = HomeAndLogWatch(self.home, self)
            self._watch.start(self, group=self.group)

    @on(events.Unmount)
    def _unmounted(self) -> None:
        if self._watch is not None:
            self._watch.stop()

    @on(HomeWatcher.Changed)
    @on(HomeWatcher.HomeBack)
    def _files(self, event: Message) -> None:
        event.stop()
        self.post_message(self.Changed(files=True, log=False))

    @on(SessionsWatcher.Changed)
    def _log(self, event: Message) -> None:
        event.stop()
        self.post_message(self.Changed(files=False, log=True))

    @on(HomeWatcher.HomeMissing)
    def _missing(self, event: Message) -> None:
        event.stop()
