"""What ``history --prune`` took out of a session's calls: their counts, so a session still says how many it made.

A session's calls are a view of the event log (:mod:`.calls`); a prune drops
the oldest records, calls included, and a session that made 4 writes would
then say 0. Before it rewrites the log, the prune counts, per session, every
call up to the newest one it drops (``through``, in id order) and keeps
those counts in ``.notebook/pruned-calls.json``, naming the log they belong
to. A session's calls are then those counts plus the calls the log holds
after ``through``. The counts are written before the log is rewritten, and
both are whole files renamed into place, so a prune killed between the two
counts the same: the old log's calls up to ``through`` are not counted twice.
"""

from __future__ import annotations

import json
import os
import stat
from collections.abc import Iterable
from dataclasses import dataclass, field
from pathlib import Path

from notebook_app.core.fs.atomic import write_atomically
from notebook_app.core.fs.state_dir import readable_state
from notebook_app.core.record.log.events import Event
from notebook_app.core.record.log.ids import id_order
from notebook_app.core.record.log.store import open_reader
from notebook_app.core.sessions.calls import call_entry, session_call
from notebook_app.core.sessions.records import CallCounts

PRUNED_NAME = "pruned-calls.json"
"""Beside the log in ``.notebook/``."""
FORMAT = "persona-notebook-pruned-calls"


@dataclass(frozen=True)
class PrunedCalls:
    """The calls of each session a prune took out of the log, counted, up to ``through``."""

    log: str = ""
    """The id of the log these counts belong to; a log of another id (made anew) has none."""
    through: str | None = None
    """The id order (:func:`..log.ids.id_order`) of the newest call counted here; None: none is."""
    counts: dict[str, CallCounts] = field(default_factory=dict)
    """Session id -> its calls up to ``through``."""

    def counted(self, event_id: str) -> bool:
        """Whether the call ``event_id`` is among those counted here (a log's calls after ``through`` are not)."""
        return self.through is not None and id_order(event_id) <= self.through

    def of(self, session_id: str) -> CallCounts:
        return self.counts.get(session_id, CallCounts())


def read_pruned(home: Path) -> PrunedCalls:
    """The counts a prune kept for this home's log; none when there are none, or they belong to another log."""
    state = readable_state(home)
    reader = open_reader(home) if state is not None else None
    if state is None or reader is None:
        return PrunedCalls()
    with reader:
        log_id = reader.log_id
    try:
        data = json.loads(_read_regular(state / PRUNED_NAME))
        if data.get("format") != FORMAT or data.get("log") != log_id:
            return PrunedCalls()
        counts = {
            str(session): CallCounts(int(c["writes"]), int(c["errors"]), int(c["proposals"]))
            for session, c in data["sessions"].items()
        }
        through = data["through"]
        return PrunedCalls(log_id, str(through) if through is not None else None, counts)
    except (OSError, ValueError, TypeError, KeyError, AttributeError):
        return PrunedCalls()


def _read_regular(path: Path) -> bytes:
    """The file's bytes, never through a link and never blocking on a FIFO; OSError when it is no regular file."""
    fd = os.open(path, os.O_RDONLY | os.O_NOFOLLOW | os.O_NONBLOCK | os.O_CLOEXEC)
    try:
        if not stat.S_ISREG(os.fstat(fd).st_mode):
            raise OSError(f"{path} is not a regular file")
        with os.fdopen(os.dup(fd), "rb") as handle:
            return handle.read()
    finally:
        os.close(fd)


def count_pruned(before: PrunedCalls, log_id: str, events: Iterable[Event], dropped: Iterable[Event]) -> PrunedCalls:
    """``before`` and the calls of ``events`` (the whole log) up to the newest of ``dropped``, counted per session."""
    if before.log != log_id:
        before = PrunedCalls(log_id)
    newest = max((id_order(e.id) for e in dropped if session_call(e) is not None), default=None)
    if newest is None or (before.through is not None and newest <= before.through):
        return before
    counts = dict(before.counts)
    for event in events:
        session = session_call(event)
        if session is None or before.counted(event.id) or id_order(event.id) > newest:
            continue
        counts[session] = counts.get(session, CallCounts()) + CallCounts.of((call_entry(event),))
    return PrunedCalls(log_id, newest, counts)


def write_pruned(state: Path, pruned: PrunedCalls, *, durable: bool) -> None:
    """Keep ``pruned`` beside the log (whole, by rename), under the home's lock, before the log is rewritten."""
    data = {
        "format": FORMAT,
        "version": 1,
        "log": pruned.log,
        "through": pruned.through,
        "sessions": {
            session: {"writes": c.writes, "errors": c.errors, "proposals": c.proposals}
            for session, c in sorted(pruned.counts.items())
        },
    }
    payload = json.dumps(data, indent=1).encode() + b"\n"
    write_atomically(state, PRUNED_NAME, payload, mode=0o600, temp_prefix=".tmp-", durable=durable)
