"""What a view that writes nothing of its own watches: the home's files and its log, every change counted.

The agent-sessions and review views both re-read on any write by anyone (their
own decisions included), so no digest is ever "ours" and both watchers run
together; this is that pair, started and stopped as one.
"""

from __future__ import annotations

from pathlib import Path

from textual.dom import DOMNode
from textual.message_pump import MessagePump

from .home import HomeWatcher
from .sessions import SessionsWatcher


class HomeAndLogWatch:
    """Posts the :class:`HomeWatcher` and :class:`SessionsWatcher` messages to ``target``."""

    def __init__(self, home: Path, target: MessagePump) -> None:
        self._watchers = (HomeWatcher(home, target, lambda name: ""), SessionsWatcher(home, target))

    def start(self, node: DOMNode, group: str) -> None:
        for watcher in self._watchers:
            watcher.start(node, group=group)

    def stop(self) -> None:
        for watcher in self._watchers:
            watcher.stop()
