"""Work off the event loop, one way for every screen: a thread worker, its result, its failure.

Two shapes cover every read, write and dry run in the app:

* :func:`run_once` — one job, one result (a write, starting the next session);
* :class:`LatestWins` — a read that may be asked for again while it runs (the
  watcher fires, a key is typed): requests made meanwhile collapse into one
  more run with the latest arguments, so a burst never queues threads and
  the last word always arrives.

Both carry the one error policy (:mod:`.view_model.failures`): an exception becomes
words handed to ``failed`` on the event loop; the app never exits because a
file was strange. Each worker names its description: Textual would otherwise
``repr()`` its arguments (a 2 MiB home state) on the event loop.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, Generic, TypeVar

from textual.dom import DOMNode
from textual.timer import Timer

from notebook_app.app.view_model.failures import failure_words
from notebook_app.core.record.notes import git_notes

T = TypeVar("T")


def run_once(
    node: DOMNode, group: str, job: Callable[[], T], *, done: Callable[[T], None], failed: Callable[[str], None]
) -> None:
    """Run ``job`` in a thread; ``done(result)`` or ``failed(words)`` then runs on the event loop."""

    def work() -> None:
        try:
            result = job()
        except Exception as error:  # the one error policy: words on screen, never an exit
            words = failure_words(error)
            node.app.call_from_thread(failed, words)
        else:
            node.app.call_from_thread(done, result)
        finally:
            for note in git_notes():  # a write whose git commit failed: said once, as a notice
                node.app.call_from_thread(node.app.notify, note, title="git", severity="warning", markup=False)

    node.run_worker(work, thread=True, group=group, description=group, exit_on_error=False)


class LatestWins(Generic[T]):
    """A read that runs one at a time; asked again meanwhile, it runs once more with the latest arguments."""

    def __init__(
        self,
        node: DOMNode,
        group: str,
        job: Callable[..., T],
        *,
        done: Callable[[T], None],
        failed: Callable[[str], None],
    ) -> None:
        self.node = node
        self.group = group
        self.job = job
        self.done = done
        self.failed = failed
        self.running = False
        self._due: tuple[Any, ...] | None = None
        self._quiet: Timer | None = None

    def request_when_quiet(self, delay: float, *args: Any) -> None:
        """Run once no request has come for ``delay`` seconds: background work (the doctor on a 2 MiB
        home takes 0.6 s of the interpreter) must not slow the frames that show what a person just did."""
        if self._quiet is not None:
            self._quiet.stop()
        self._quiet = self.node.set_timer(delay, lambda: self.request(*args))

    def request(self, *args: Any) -> None:
        if self.running:
            self._due = args
            return
        self.running = True
        run_once(self.node, self.group, lambda: self.job(*args), done=self._finish, failed=self._fail)

    def _finish(self, result: T) -> None:
        self._next()
        self.done(result)

    def _fail(self, words: str) -> None:
        self._next()
        self.failed(words)

    def _next(self) -> None:
        self.running = False
        if self._due is not None:
            args, self._due = self._due, None
            self.request(*args)
