"""One error policy for workers: a failure is shown in words, it never ends the app.

Every worker the app starts runs with ``exit_on_error=False``; a screen hands
each ``Worker.StateChanged`` to :func:`worker_failure` and shows what comes
back where the failed work would have shown its result. A file that is
strange, a folder that vanished, a bug: the person reads what happened and the
app goes on.
"""

from __future__ import annotations

from dataclasses import dataclass

from textual.worker import Worker, WorkerState


@dataclass(frozen=True)
class WorkerFailure:
    group: str
    """The worker's group: which work failed (a read, a write, a dry run, …)."""
    words: str
    """What went wrong, for a person."""


def failure_words(error: BaseException | None) -> str:
    """An exception in words: the OS's own words for an OSError, the type and message otherwise."""
    if error is None:
        return "it stopped for an unknown reason"
    if isinstance(error, OSError):
        where = f": {error.filename}" if error.filename else ""
        return f"{error.strerror or error}{where}"
    text = str(error)
    return f"{type(error).__name__}: {text}" if text else type(error).__name__


def worker_failure(event: Worker.StateChanged) -> WorkerFailure | None:
    """The failure a worker state change reports, None for any other change."""
    if event.state != WorkerState.ERROR:
        return None
    return WorkerFailure(event.worker.group, failure_words(event.worker.error))
