"""The lifecycle every folder watcher shares: start once, stop on unmount, a failure named on screen.

A watcher watches folders (never single files: an atomic save replaces the
file) and posts messages to its target; what it watches and what it posts is
the subclass's. watchfiles and anyio load on the first watch, after the first
frame. A watch that fails is said in words, once; the view goes on.
"""

from __future__ import annotations

from collections.abc import AsyncGenerator
from pathlib import Path
from typing import TYPE_CHECKING, Any

import anyio  # loaded with watchfiles when a watch is made, not at start-up
from textual.message import Message
from textual.message_pump import MessagePump
from textual.widget import Widget

from notebook_app.app.view_model.failures import failure_words

if TYPE_CHECKING:
    from watchfiles import Change

MISSING_POLL_SECONDS = 0.25

AWATCH_SETTINGS = {"debounce": 50, "step": 10, "recursive": False, "rust_timeout": 1_000}
"""One folder, no recursion; debounce 50 / step 10 report a write in ~16 ms here
(the defaults ~60 ms); the timeout lets a stop request end the watch promptly."""


def awatch(*paths: Path, **settings: Any) -> AsyncGenerator[set[tuple[Change, str]], None]:
    """``watchfiles.awatch``, imported on first use."""
    from watchfiles import awatch as watch  # lazy: watchfiles, after the first frame

    return watch(*paths, **settings)


class SessionsChanged(Message):
    """A session file or old-format call file was written, or the sessions folder came or went
    (:class:`~.sessions.SessionsWatcher` posts it).

    Defined here, with the lifecycle every watcher loads, so that a screen can
    handle it before that watcher (and the core's log modules it reads) loads.
    """


class FolderWatcher:
    """Base of the app's watchers: subclasses implement :meth:`run` and say :attr:`what` they watch."""

    what = "the home"
    """For the failure message: "Stopped watching <what> …"."""

    def __init__(self, target: MessagePump) -> None:
        self.target = target

        self._stop = anyio.Event()

    def start(self, node: Widget, group: str = "watch") -> None:
        """Watch in a worker of ``node`` until :meth:`stop`; a failure is one error notification."""
        node.run_worker(self._guarded(node), group=group, description=f"watch {self.what}", exit_on_error=False)

    def stop(self) -> None:
        self._stop.set()

    async def _guarded(self, node: Widget) -> None:
        try:
            await self.run()
        except Exception as error:
            node.notify(
                f"Stopped watching {self.what} for other writers: {failure_words(error)}",
                title="watcher",
                severity="error",
                markup=False,
            )

    async def run(self) -> None:
        raise NotImplementedError
